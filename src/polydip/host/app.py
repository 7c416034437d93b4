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
import hashlib
import logging
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
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
    HeadAsGet,
    SecurityHeaders,
    mask_logs,
    refusal,
    scrub,
    url_secrets,
)
from polydip.host.mail import Mailer, parse_smtp
from polydip.host.routes import bots, games, gm, pages, players, press
from polydip.host.routes import live as live_routes
from polydip.host.routes import mail as mail_routes
from polydip.host.routes.context import HostContext
from polydip.host.service import Host, HostError
from polydip.host.work import CPU_SECONDS, Budget

log = logging.getLogger("polydip.host")
HERE = Path(__file__).parent
# an uploaded variant file as the host stores it, in a text whose folder was scrubbed
UPLOADED = re.compile(r"\(server\)/variants/[0-9a-f]{32}\.\w+")

# the API docs page (off unless --api-docs): Swagger UI of this exact version from a CDN
SWAGGER = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5.17.14/"


def create_app(db_url: str | None = None, data_dir: str | Path = ".",
               tick_seconds: float = 5.0, create_secret: str | None = None,
               api_docs: bool = False, cpu_seconds: float = CPU_SECONDS,
               max_body: int = MAX_BODY, smtp: str | None = None,
               mail_from: str | None = None) -> FastAPI:
    """The app on the database `db_url` (default: DATA_DIR/polydip.db). `create_secret`:
    creating a game needs it (form field or `Authorization: Bearer SECRET`); `api_docs`:
    serve the Swagger page at /api/docs; `cpu_seconds`: the budget of one drawing or one
    upload's creation; `max_body`: the largest request body in bytes; `smtp`, `mail_from`:
    the SMTP server's URL and the sender's address of notifications (host/mail.py)."""
    target = parse_smtp(smtp, mail_from) if smtp else None  # a bad URL touches nothing
    data = Path(data_dir)
    data.mkdir(parents=True, exist_ok=True)
    db = Database(db_url or sqlite_url(data))
    migrate(db.engine)
    ctx = HostContext(db=db, host=Host(db, data), data=data, budget=Budget(cpu_seconds),
                      templates=Jinja2Templates(directory=str(HERE / "templates")),
                      create_secret=create_secret)
    mask_logs()
    mailer = Mailer(target, ctx.host, data, ctx.budget) if target else None
    app = FastAPI(title="polydip host", version="1", lifespan=_lifespan(ctx, tick_seconds, mailer),
                  openapi_url="/api/openapi.json", docs_url=None, redoc_url=None,
                  description="Run Diplomacy games on any polydip variant: the GM creates a "
                  "game and hands out one secret link per power; players order through it.")
    app.state.ctx = ctx
    app.state.host = ctx.host
    app.state.budget = ctx.budget
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    hidden = [h for h in (str(data.resolve()), str(Path(polydip.__file__).resolve().parents[1]),
                          *url_secrets(db_url)) if len(h) > 4]  # never "/" alone
    _errors(app, ctx.templates, hidden)
    relaxed = _api_docs(app) if api_docs else {}
    for module in (games, players, gm, bots, pages, press):
        app.include_router(module.router)
    press.install(ctx)  # the pages' press section (templates/_press.html)
    mail_routes.install(app, ctx, mailer)
    app.include_router(live_routes.router)  # live pages (host/live.py)
    _linked_openapi(app)
    # the edge, outside everything else (its answers get the headers too)
    inner = app.build_middleware_stack
    app.build_middleware_stack = lambda: SecurityHeaders(  # type: ignore[method-assign]
        HeadAsGet(CrossSiteGuard(BodyLimit(inner(), max_body))), relaxed)
    return app


def _lifespan(ctx: HostContext, tick_seconds: float, mailer: Mailer | None = None
              ) -> Callable[[FastAPI], Any]:
    """While the app runs: the deadlines task; at its end, the budget's child processes and
    the database's connections closed."""

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        mask_logs()  # again: the server may have configured its loggers since
        task = asyncio.create_task(_deadlines(ctx.host, tick_seconds))
        sender = asyncio.create_task(mailer.run(tick_seconds)) if mailer else None
        try:
            yield
        finally:
            ctx.budget.close()
            for running in (task, sender):
                if running is not None:
                    running.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await running
            ctx.db.dispose()

    return lifespan


def _api_docs(app: FastAPI) -> dict[str, str]:
    """The Swagger page at /api/docs; answers the relaxed security policy it needs."""
    docs = get_swagger_ui_html(openapi_url="/api/openapi.json", title="polydip host API",
                               swagger_js_url=SWAGGER + "swagger-ui-bundle.js",
                               swagger_css_url=SWAGGER + "swagger-ui.css",
                               swagger_favicon_url="data:,")

    @app.get("/api/docs", include_in_schema=False)
    def api_docs_page() -> HTMLResponse:
        return docs

    return {"/api/docs": _docs_csp(bytes(docs.body).decode())}


def _linked_openapi(app: FastAPI) -> None:
    """The app's OpenAPI schema, with the GM operations linked (_link_gm_operations)."""
    schema_of = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            _link_gm_operations(schema_of())
        return schema_of()

    app.openapi = openapi  # type: ignore[method-assign]


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
