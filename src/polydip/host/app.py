"""The web app: a JSON API under /api (OpenAPI at /api/openapi.json) and the pages GMs and
players use. `create_app(url, data_dir)` builds it; `polydip serve` runs it with uvicorn.

A background task processes the games whose deadline has passed. Every refusal — a bad link,
an order that cannot be taken, a malformed body — is a 4xx with a message. The edge (edge.py)
bounds bodies, refuses cross-site posts and sets the security headers; drawing a board and
creating a game from an upload run in budgeted child processes (work.py), outside any
database transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
import hmac
import json
import logging
import re
from collections import OrderedDict
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, File, Form, Header, Request, UploadFile
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field
from sqlalchemy.exc import DataError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

import polydip
from polydip.errors import PolydipError
from polydip.host.db import UNAVAILABLE, Database, migrate, sqlite_url
from polydip.host.edge import (
    MAX_BODY,
    BodyLimit,
    CrossSiteGuard,
    SecurityHeaders,
    mask_logs,
    refusal,
    scrub,
    url_secrets,
)
from polydip.host.service import Host, HostError, NotFound
from polydip.host.views import gm_state, phase_report, player_state
from polydip.host.work import CPU_SECONDS, Budget, TooCostly, create_upload, draw

log = logging.getLogger("polydip.host")
HERE = Path(__file__).parent
Token = Annotated[str, PathParam(min_length=8, max_length=100, pattern=r"^[A-Za-z0-9_-]+$")]
Seq = Annotated[int, PathParam(ge=0, le=100_000)]
# every state-changing request names the phase it was made for: a stale one changes nothing
PhaseId = Annotated[str, Field(max_length=60, description="the id of the phase this request "
                               "is made for (`phase_id` in the game's state); made for "
                               "another phase, it is refused with 409 and changes nothing")]


class CreateGame(BaseModel):
    variant: str = Field("standard", max_length=200,
                         description="a built-in variant's name (GET /api/variants), or the "
                         "uploaded file's name when variant_text is given")
    variant_text: str | None = Field(None, max_length=2_000_000,
                                     description="a variant file's text (TOML)")
    name: str = Field("", max_length=200)
    options: dict[str, Any] = Field(default_factory=dict,
                                    description="rule options (docs/options.md)")
    movement_minutes: float | None = Field(None, gt=0, le=527040)
    retreat_minutes: float | None = Field(None, gt=0, le=527040)
    adjustment_minutes: float | None = Field(None, gt=0, le=527040)
    nmr_limit: int = Field(0, ge=0, le=100, description="civil disorder after this many "
                           "movement phases missed in a row (0: never)")
    paused: bool = False


class CreatedGame(BaseModel):
    game: int
    gm_token: str
    gm_url: str
    players: dict[str, str]


class OrdersIn(BaseModel):
    text: str = Field(max_length=20_000, description="orders, one a line, as players type")
    mode: Literal["replace", "merge"] = "replace"
    phase: PhaseId


class Problem(BaseModel):
    line: int
    text: str
    reason: str
    suggestion: str
    code: str = Field("", description="what is wrong, for programs (the message reader's "
                      "problem codes: docs/gm-guide.md)")


class OrdersOut(BaseModel):
    phase: str
    phase_id: str
    orders: list[str]
    understood: list[str]
    problems: list[Problem]
    notes: list[str]
    ignored_lines: list[int]


class ReadyIn(BaseModel):
    ready: bool
    phase: PhaseId


class DrawIn(BaseModel):
    vote: bool
    phase: PhaseId


class PauseIn(BaseModel):
    paused: bool
    phase: PhaseId


class PhaseIn(BaseModel):
    phase: PhaseId


class DeadlineIn(BaseModel):
    extend_minutes: float | None = Field(None, ge=-527040, le=527040)
    minutes_from_now: float | None = Field(None, ge=0, le=527040)
    at: str | None = Field(None, max_length=5, pattern=r"^\d{1,2}:\d{2}$",
                           description="a time of day, HH:MM in UTC: the next time it comes")
    phase: PhaseId


class ReplaceIn(BaseModel):
    power: str = Field(max_length=100)
    phase: PhaseId


class PassageIn(BaseModel):
    passage: str = Field(max_length=100)
    powers: list[str] = Field(max_length=100, description="the powers let through "
                              "(replaces the earlier list; [] withdraws the permission)")
    controller: str | None = Field(None, max_length=100, description="GM only: the "
                                   "controlling power the permission is recorded for")
    phase: PhaseId


class Message(BaseModel):
    detail: str


ERRORS: dict[int | str, dict[str, Any]] = {400: {"model": Message}, 404: {"model": Message},
                                           409: {"model": Message}}


class Forbidden(HostError):
    status = 403


# an uploaded variant file as the host stores it, in a text whose folder was scrubbed
UPLOADED = re.compile(r"\(server\)/variants/[0-9a-f]{32}\.\w+")

# the API docs page (off unless --api-docs): Swagger UI of this exact version from a CDN
SWAGGER = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5.17.14/"


def create_app(db_url: str | None = None, data_dir: str | Path = ".",
               tick_seconds: float = 5.0, create_secret: str | None = None,
               api_docs: bool = False, cpu_seconds: float = CPU_SECONDS,
               max_body: int = MAX_BODY) -> FastAPI:
    """The app on the database `db_url` (default: DATA_DIR/polydip.db). `create_secret`:
    creating a game needs it (form field or `Authorization: Bearer SECRET`); `api_docs`:
    serve the Swagger page at /api/docs; `cpu_seconds`: the budget of one drawing or one
    upload's creation; `max_body`: the largest request body in bytes."""
    data = Path(data_dir)
    data.mkdir(parents=True, exist_ok=True)
    db = Database(db_url or sqlite_url(data))
    migrate(db.engine)
    host = Host(db, data)
    budget = Budget(cpu_seconds)
    mask_logs()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI):
        mask_logs()  # again: the server may have configured its loggers since
        task = asyncio.create_task(_deadlines(host, tick_seconds))
        try:
            yield
        finally:
            budget.close()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            db.dispose()

    app = FastAPI(title="polydip host", version="1", lifespan=lifespan,
                  openapi_url="/api/openapi.json", docs_url=None, redoc_url=None,
                  description="Run Diplomacy games on any polydip variant: the GM creates a "
                  "game and hands out one secret link per power; players order through it.")
    app.state.host = host
    app.state.budget = budget
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    hidden = [h for h in (str(data.resolve()), str(Path(polydip.__file__).resolve().parents[1]),
                          *url_secrets(db_url)) if len(h) > 4]  # never "/" alone
    _errors(app, templates, hidden)
    relaxed: dict[str, str] = {}
    if api_docs:
        docs = get_swagger_ui_html(openapi_url="/api/openapi.json", title="polydip host API",
                                   swagger_js_url=SWAGGER + "swagger-ui-bundle.js",
                                   swagger_css_url=SWAGGER + "swagger-ui.css",
                                   swagger_favicon_url="data:,")
        relaxed["/api/docs"] = _docs_csp(docs.body.decode())

        @app.get("/api/docs", include_in_schema=False)
        def api_docs_page() -> HTMLResponse:
            return docs

    schema_of = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            _link_gm_operations(schema_of())
        return schema_of()

    app.openapi = openapi  # type: ignore[method-assign]

    # the edge, outside everything else (its answers get the headers too)
    inner = app.build_middleware_stack
    app.build_middleware_stack = lambda: SecurityHeaders(  # type: ignore[method-assign]
        CrossSiteGuard(BodyLimit(inner(), max_body)), relaxed)

    def allow_create(secret: str | None) -> None:
        if create_secret and not hmac.compare_digest((secret or "").encode(),
                                                     create_secret.encode()):
            raise Forbidden("creating a game on this server needs its create secret "
                            "(ask the server's owner)")

    async def new(fields: dict[str, Any]) -> tuple[int, str]:
        """A game: from an upload in a budgeted child process, else here."""
        if fields.get("variant_text") is not None:
            return await budget.run("this variant is too large to load here", create_upload,
                                    db.url, str(data), fields)
        return await run_in_threadpool(lambda: host.create_game(**fields))

    # ---- API -------------------------------------------------------------------------------

    @app.get("/api/variants", tags=["games"])
    def variants() -> list[str]:
        from polydip.variants.loader import builtin_names

        return builtin_names()

    @app.post("/api/games", tags=["games"], response_model=CreatedGame, responses=ERRORS,
              status_code=201)
    async def create(body: CreateGame, request: Request,
                     authorization: Annotated[str | None, Header(
                         max_length=300, description="`Bearer SECRET` when the server "
                         "was started with --create-secret")] = None) -> CreatedGame:
        allow_create(authorization.removeprefix("Bearer ").strip() if authorization else None)
        gid, gm = await new(body.model_dump())
        return await run_in_threadpool(_created, gid, gm, request)

    def _created(gid: int, gm: str, request: Request) -> CreatedGame:
        return CreatedGame(game=gid, gm_token=gm, gm_url=_url(request, f"/gm/{gm}"),
                           players={k: _url(request, f"/play/{t}")
                                    for k, t in host.links(gm).items()})

    @app.get("/api/play/{token}", tags=["players"], responses=ERRORS)
    def play_state(token: Token) -> dict[str, Any]:
        with db.read() as s:
            g, p = host.player(s, token)
            return player_state(host, s, g, p)

    @app.post("/api/play/{token}/orders", tags=["players"], response_model=OrdersOut,
              responses=ERRORS)
    def play_orders(token: Token, body: OrdersIn) -> dict[str, Any]:
        return host.submit(token, body.text, body.mode, phase=body.phase)

    @app.post("/api/play/{token}/ready", tags=["players"], responses=ERRORS)
    def play_ready(token: Token, body: ReadyIn) -> dict[str, bool]:
        return {"ready": body.ready,
                "processed": host.set_ready(token, body.ready, phase=body.phase)}

    @app.post("/api/play/{token}/draw", tags=["players"], responses=ERRORS)
    def play_draw(token: Token, body: DrawIn) -> dict[str, bool]:
        return {"vote": body.vote, "drawn": host.vote_draw(token, body.vote, phase=body.phase)}

    @app.post("/api/play/{token}/passages", tags=["players"], responses=ERRORS)
    def play_passage(token: Token, body: PassageIn) -> dict[str, list[str]]:
        return host.permit(token, body.passage, body.powers, phase=body.phase)

    @app.get("/api/play/{token}/phases/{seq}", tags=["players"], responses=ERRORS)
    def play_phase(token: Token, seq: Seq) -> dict[str, Any]:
        with db.read() as s:
            g, _p = host.player(s, token)
            return _phase(s, g, seq)

    @app.get("/api/play/{token}/map.svg", tags=["players"], responses=ERRORS,
             response_class=Response)
    async def play_map(token: Token, request: Request, seq: int | None = None) -> Response:
        def read() -> tuple[Any, str | None, str, int]:
            with db.read() as s:
                g, p = host.player(s, token)
                return _map_of(s, g, seq, p.power)

        return await _svg(await run_in_threadpool(read), request)

    @app.get("/api/gm/{token}", tags=["gm"], responses=ERRORS)
    def gm_get(token: Token) -> dict[str, Any]:
        with db.read() as s:
            g = host.gm_game(s, token)
            state = gm_state(host, s, g)
        state["links"] = host.links(token)
        return state

    @app.post("/api/gm/{token}/process", tags=["gm"], responses=ERRORS)
    def gm_process(token: Token, body: PhaseIn) -> dict[str, str]:
        name, pid = host.process_now(token, phase=body.phase)
        return {"phase": name, "phase_id": pid}

    @app.post("/api/gm/{token}/undo", tags=["gm"], responses=ERRORS)
    def gm_undo(token: Token, body: PhaseIn) -> dict[str, str]:
        name, pid = host.undo(token, phase=body.phase)
        return {"phase": name, "phase_id": pid}

    @app.post("/api/gm/{token}/pause", tags=["gm"], responses=ERRORS)
    def gm_pause(token: Token, body: PauseIn) -> dict[str, bool]:
        host.pause(token, body.paused, phase=body.phase)
        return {"paused": body.paused}

    @app.post("/api/gm/{token}/deadline", tags=["gm"], responses=ERRORS)
    def gm_deadline(token: Token, body: DeadlineIn) -> dict[str, str | None]:
        d = host.set_deadline(token, body.extend_minutes, body.minutes_from_now, body.at,
                              phase=body.phase)
        return {"deadline": d.isoformat(timespec="seconds") + "Z" if d else None}

    @app.post("/api/gm/{token}/replace", tags=["gm"], responses=ERRORS)
    def gm_replace(token: Token, body: ReplaceIn, request: Request) -> dict[str, str]:
        return {"power": body.power,
                "url": _url(request, "/play/" + host.replace_player(token, body.power,
                                                                      phase=body.phase))}

    @app.post("/api/gm/{token}/passages", tags=["gm"], responses=ERRORS)
    def gm_passage(token: Token, body: PassageIn) -> dict[str, list[str]]:
        return host.permit(token, body.passage, body.powers, gm=True,
                           controller=body.controller, phase=body.phase)

    @app.get("/api/gm/{token}/game.json", tags=["gm"], responses=ERRORS)
    def gm_file(token: Token) -> JSONResponse:
        return _download(host.game_file(token), "game.json")

    @app.get("/api/gm/{token}/diplomacy.json", tags=["gm"], responses=ERRORS)
    def gm_dip(token: Token) -> JSONResponse:
        return _download(host.diplomacy_json(token), "diplomacy.json")

    @app.get("/api/gm/{token}/phases/{seq}", tags=["gm"], responses=ERRORS)
    def gm_phase(token: Token, seq: Seq) -> dict[str, Any]:
        with db.read() as s:
            return _phase(s, host.gm_game(s, token), seq)

    @app.get("/api/gm/{token}/map.svg", tags=["gm"], responses=ERRORS,
             response_class=Response)
    async def gm_map(token: Token, request: Request, seq: int | None = None) -> Response:
        def read() -> tuple[Any, str | None, str, int]:
            with db.read() as s:
                return _map_of(s, host.gm_game(s, token), seq, None)

        return await _svg(await run_in_threadpool(read), request)

    @app.post("/api/gm/{token}/rotate", tags=["gm"], response_model=CreatedGame,
              responses=ERRORS)
    def gm_rotate(token: Token, request: Request) -> CreatedGame:
        """New links for the GM and every power; the old ones stop working (a link that
        leaked)."""
        new_gm = host.rotate_links(token)
        with db.read() as s:
            gid = host.gm_game(s, new_gm).id
        return _created(gid, new_gm, request)

    def _phase(s, g, seq: int) -> dict[str, Any]:
        return {"seq": seq, "report": phase_report(host, s, g, seq),
                "report_json": json.loads(phase_report(host, s, g, seq, "json"))}

    svg_cache: OrderedDict[str, tuple[str, bytes]] = OrderedDict()  # etag -> (text, gzip)
    too_large: dict[int, str] = {}  # games whose map went over the budget

    def _map_of(s, g, seq: int | None, power: int | None) -> tuple[Any, str | None, str, int]:
        """What a map shows — the game, the phase, its ETag — read in the transaction: the
        current phase with the orders this link may see, or a processed phase. The ETag
        names the phase's version and those orders, so a browser asks again on every view
        (no stale map after a phase or an order changes) and gets 304 when nothing did."""
        from polydip.game.game import Game

        current = seq is None or seq == g.seq
        if not current and not 0 <= seq < g.seq:
            raise NotFound(f"no processed phase {seq} (0 to {g.seq - 1})")
        base = host.game(s, g, g.seq if current else seq + 1)
        if current:
            if power is None:
                orders = {p: list(r.lines) for p, r in host.order_rows(s, g).items() if r.lines}
            else:
                orders = host.pending(s, g, power).orders
            game = Game(base.variant, base.map, base.position, base.options, orders,
                        base.history, base.status, base.winners, base.name)
            phase = None
        else:
            game, orders, phase = base, {}, base.history[seq].position.phase.name
        uid = host.phase_uid(s, g, g.seq if current else seq + 1)
        version = json.dumps([uid, sorted(orders.items()), phase])
        etag = '"' + hashlib.sha1(version.encode()).hexdigest()[:20] + '"'
        return game, phase, etag, g.id

    async def _svg(what: tuple[Any, str | None, str, int], request: Request) -> Response:
        """The map drawn outside the transaction, in a budgeted child process."""
        game, phase, etag, gid = what
        headers = {"Cache-Control": "private, no-cache", "ETag": etag,
                   "Vary": "Accept-Encoding"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        got = svg_cache.get(etag)
        if got is None:
            if gid in too_large:  # its board does not change size: no second try
                raise TooCostly(too_large[gid])
            try:
                svg = await budget.run("this map is too large to draw here", draw, game,
                                       phase)
            except TooCostly as exc:
                too_large[gid] = str(exc)
                raise
            # a map is 1-1.6 MB of text and ~6x smaller compressed: compressed once, kept
            # both ways (a map holds no secret, so compressing it reveals none)
            got = svg_cache[etag] = (svg, gzip.compress(svg.encode("utf-8"), 6))
            while len(svg_cache) > 16:
                svg_cache.popitem(last=False)
        if "gzip" in request.headers.get("accept-encoding", "").lower():
            return Response(got[1], media_type="image/svg+xml",
                            headers={**headers, "Content-Encoding": "gzip"})
        return Response(got[0], media_type="image/svg+xml", headers=headers)

    # ---- pages -----------------------------------------------------------------------------

    def page(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        return templates.TemplateResponse(request, name, ctx, status_code=status)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def index(request: Request) -> HTMLResponse:
        from polydip.variants.loader import builtin_names

        return page(request, "index.html", variants=builtin_names(),
                    needs_secret=bool(create_secret))

    @app.post("/new", include_in_schema=False)
    async def new_game(request: Request, variant: Annotated[str, Form()] = "standard",
                       name: Annotated[str, Form()] = "",
                       options: Annotated[str, Form()] = "",
                       movement_minutes: Annotated[float, Form()] = 1440,
                       retreat_minutes: Annotated[float, Form()] = 720,
                       adjustment_minutes: Annotated[float, Form()] = 720,
                       nmr_limit: Annotated[int, Form()] = 0,
                       variant_file: Annotated[UploadFile | None, File()] = None,
                       create_secret: Annotated[str, Form(max_length=300)] = ""
                       ) -> Response:
        allow_create(create_secret)
        text = None
        if variant_file is not None and variant_file.filename:
            raw = await variant_file.read(2_000_001)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise HostError("the variant file is not UTF-8 text") from None
            variant = variant_file.filename
        opts = _options(options)
        _gid, gm = await new(dict(
            variant=variant, variant_text=text, name=name, options=opts,
            movement_minutes=movement_minutes, retreat_minutes=retreat_minutes,
            adjustment_minutes=adjustment_minutes, nmr_limit=nmr_limit))
        return RedirectResponse(f"/gm/{gm}", status_code=303)

    @app.get("/gm/{token}", response_class=HTMLResponse, include_in_schema=False)
    def gm_page(request: Request, token: Token) -> HTMLResponse:
        with db.read() as s:
            g = host.gm_game(s, token)
            state = gm_state(host, s, g)
        links = {k: _url(request, f"/play/{t}") for k, t in host.links(token).items()}
        return page(request, "gm.html", s=state, token=token, links=links)

    @app.post("/gm/{token}", include_in_schema=False)
    def gm_action(token: Token, action: Annotated[str, Form(max_length=20)],
                  phase: Annotated[str, Form(max_length=60)],
                  minutes: Annotated[float | None, Form()] = None,
                  at: Annotated[str, Form(max_length=5)] = "",
                  power: Annotated[str, Form(max_length=100)] = "") -> Response:
        if action == "process":
            host.process_now(token, phase=phase)
        elif action == "undo":
            host.undo(token, phase=phase)
        elif action in ("pause", "resume"):
            host.pause(token, action == "pause", phase=phase)
        elif action == "extend":
            host.set_deadline(token, extend_minutes=minutes or 0, phase=phase)
        elif action == "deadline":
            host.set_deadline(token, minutes_from_now=minutes or 0, phase=phase)
        elif action == "deadline_at":
            host.set_deadline(token, at=at, phase=phase)
        elif action == "replace":
            host.replace_player(token, power, phase=phase)
        elif action == "rotate":
            token = host.rotate_links(token)
        else:
            raise HostError(f"unknown action {action[:20]!r}")
        return RedirectResponse(f"/gm/{token}", status_code=303)

    @app.get("/play/{token}", response_class=HTMLResponse, include_in_schema=False)
    def play_page(request: Request, token: Token) -> HTMLResponse:
        return _play(request, token, None)

    @app.post("/play/{token}/orders", response_class=HTMLResponse, include_in_schema=False)
    def play_orders_page(request: Request, token: Token,
                         phase: Annotated[str, Form(max_length=60)],
                         text: Annotated[str, Form(max_length=20_000)] = "",
                         pick: Annotated[list[str] | None, Form()] = None) -> HTMLResponse:
        if pick is not None:
            chosen = [x for x in pick if x]
            if not chosen:
                raise HostError("choose an order for at least one unit")
            result = host.submit(token, "\n".join(chosen), "merge", phase=phase)
        else:
            result = host.submit(token, text, "replace", phase=phase)
        return _play(request, token, result)

    @app.post("/play/{token}/ready", include_in_schema=False)
    def play_ready_page(token: Token, phase: Annotated[str, Form(max_length=60)],
                        ready: Annotated[str, Form()] = "") -> Response:
        host.set_ready(token, ready == "1", phase=phase)
        return RedirectResponse(f"/play/{token}", status_code=303)

    @app.post("/play/{token}/draw", include_in_schema=False)
    def play_draw_page(token: Token, phase: Annotated[str, Form(max_length=60)],
                       vote: Annotated[str, Form()] = "") -> Response:
        host.vote_draw(token, vote == "1", phase=phase)
        return RedirectResponse(f"/play/{token}", status_code=303)

    @app.post("/play/{token}/passages", include_in_schema=False)
    def play_passage_page(token: Token, passage: Annotated[str, Form(max_length=100)],
                          phase: Annotated[str, Form(max_length=60)],
                          powers: Annotated[list[str] | None, Form()] = None) -> Response:
        host.permit(token, passage, powers or [], phase=phase)
        return RedirectResponse(f"/play/{token}", status_code=303)

    @app.get("/play/{token}/phase/{seq}", response_class=HTMLResponse, include_in_schema=False)
    def play_phase_page(request: Request, token: Token, seq: Seq) -> HTMLResponse:
        with db.read() as s:
            g, p = host.player(s, token)
            report = phase_report(host, s, g, seq)
            state = player_state(host, s, g, p)
        return page(request, "phase.html", s=state, seq=seq, report=report,
                    back=f"/play/{token}", map_url=f"/api/play/{token}/map.svg?seq={seq}")

    @app.get("/gm/{token}/phase/{seq}", response_class=HTMLResponse, include_in_schema=False)
    def gm_phase_page(request: Request, token: Token, seq: Seq) -> HTMLResponse:
        with db.read() as s:
            g = host.gm_game(s, token)
            report = phase_report(host, s, g, seq)
            state = gm_state(host, s, g)
        return page(request, "phase.html", s=state, seq=seq, report=report,
                    back=f"/gm/{token}", map_url=f"/api/gm/{token}/map.svg?seq={seq}")

    def _play(request: Request, token: str, result: dict[str, Any] | None) -> HTMLResponse:
        with db.read() as s:
            g, p = host.player(s, token)
            state = player_state(host, s, g, p)
        return page(request, "play.html", s=state, token=token, result=result)

    return app


def _url(request: Request, path: str) -> str:
    return str(request.base_url).rstrip("/") + path


def _download(data: Any, name: str) -> JSONResponse:
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _options(text: str) -> dict[str, Any]:
    """Rule options from the create form: KEY=VALUE lines (values as in polydip new)."""
    from polydip.options import parse_options

    lines = [ln.strip() for ln in text.replace(",", "\n").splitlines() if ln.strip()]
    return parse_options(lines)


def _link_gm_operations(schema: dict[str, Any]) -> None:
    """OpenAPI links: the GM token a game's creation (or a rotation) answers with is the
    `token` of every GM operation (clients and stateful fuzzers follow them)."""
    paths = schema.get("paths", {})
    gm_ops = sorted(op["operationId"] for path, item in paths.items()
                    if path.startswith("/api/gm/{token}") for op in item.values()
                    if isinstance(op, dict) and "operationId" in op)
    for path, code in (("/api/games", "201"), ("/api/gm/{token}/rotate", "200")):
        answer = paths.get(path, {}).get("post", {}).get("responses", {}).get(code)
        if answer is not None:
            answer["links"] = {op: {"operationId": op,
                                    "parameters": {"path.token": "$response.body#/gm_token"}}
                               for op in gm_ops}


def _docs_csp(html: str) -> str:
    """The API docs page's policy: Swagger UI's files from the CDN, its one inline script
    by its hash, nothing else."""
    import base64

    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    hashes = " ".join("'sha256-" + base64.b64encode(hashlib.sha256(x.encode()).digest())
                      .decode() + "'" for x in scripts)
    return (f"default-src 'self'; script-src {SWAGGER} {hashes}; style-src {SWAGGER}; "
            "img-src 'self' data:; frame-ancestors 'none'")


def _errors(app: FastAPI, templates: Jinja2Templates, hidden: list[str]) -> None:
    """One answer for every refusal: JSON under /api, the error page elsewhere; no server
    folder or database password in its text."""

    def answer(request: Request, status: int, detail: Any) -> Response:
        if isinstance(detail, str):
            detail = UPLOADED.sub("the uploaded file", scrub(detail, hidden, "(server)"))
        if request.url.path.startswith("/api") or request.method not in ("GET", "POST"):
            return JSONResponse({"detail": detail}, status_code=status)
        text = detail if isinstance(detail, str) else _validation_text(detail)
        return templates.TemplateResponse(request, "error.html",
                                          {"status": status, "message": text},
                                          status_code=status)

    @app.exception_handler(HostError)
    async def _host(request: Request, exc: HostError) -> Response:
        return answer(request, exc.status, str(exc))

    @app.exception_handler(PolydipError)
    async def _polydip(request: Request, exc: PolydipError) -> Response:
        return answer(request, 400, str(exc))

    @app.exception_handler(DataError)
    async def _data(request: Request, exc: DataError) -> Response:
        status, text = refusal(exc) or (400, "a value the database cannot store")
        return answer(request, status, text)

    async def _unavailable(request: Request, exc: Exception) -> Response:
        # one line per failure, no traceback and no SQL: the database is down, read-only or
        # busy; the pool reconnects by itself (pre-ping, read-only connections dropped)
        log.error("database unavailable: %s", _db_reason(exc))
        response = answer(request, 503, "the games' database is unavailable just now; "
                          "nothing was changed, try again in a moment")
        response.headers["Retry-After"] = "5"
        return response

    for cls in UNAVAILABLE:
        app.add_exception_handler(cls, _unavailable)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        return answer(request, 422, _jsonable(exc.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        return answer(request, exc.status_code, str(exc.detail))


def _db_reason(exc: BaseException) -> str:
    """The driver's error in one line (never the statement or its parameters)."""
    orig = getattr(exc, "orig", None) or exc
    first = (str(orig).strip().splitlines() or [""])[0][:200]
    return f"{type(orig).__name__}: {first}" if first else type(orig).__name__


def _jsonable(errors: Any) -> list[dict[str, Any]]:
    out = []
    for e in errors:
        out.append({"loc": [str(x) for x in e.get("loc", ())], "msg": str(e.get("msg", "")),
                    "type": str(e.get("type", ""))})
    return out


def _validation_text(errors: list[dict[str, Any]]) -> str:
    return "; ".join(f"{'.'.join(e['loc'][1:]) or 'request'}: {e['msg']}" for e in errors)


async def _deadlines(host: Host, tick: float) -> None:
    """Process the games whose deadline passed, every `tick` seconds, for as long as the app
    runs (one server process does this; several would each take a game in turn, each
    processing under the game's lock)."""
    while True:
        await asyncio.sleep(tick)
        try:  # each game's own failure is kept in the game (Host.process_due)
            await run_in_threadpool(host.process_due)
        except UNAVAILABLE as exc:  # one line a tick while the database is away
            log.error("deadlines: database unavailable: %s", _db_reason(exc))
        except Exception:  # a bug outside any one game: the traceback is worth having
            log.exception("processing games at their deadline failed")
