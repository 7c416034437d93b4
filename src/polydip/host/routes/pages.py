"""The HTML pages: the front page and its create form, the GM's page and its actions, a
player's page and its forms, a processed phase. Forms answer with a redirect to the page
(or the page itself, after orders)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from polydip.host import press
from polydip.host.routes.context import Ctx, HostContext, Seq, Token, full_url
from polydip.host.service import HostError
from polydip.host.views import gm_state, phase_report, player_state

router = APIRouter(include_in_schema=False)


def page(ctx: HostContext, request: Request, name: str, status: int = 200,
         **values: Any) -> HTMLResponse:
    return ctx.templates.TemplateResponse(request, name, values, status_code=status)


@router.get("/", response_class=HTMLResponse)
def index(request: Request, ctx: Ctx) -> HTMLResponse:
    from polydip.variants.loader import builtin_names

    return page(ctx, request, "index.html", variants=builtin_names(),
                needs_secret=bool(ctx.create_secret))


@router.post("/new")
async def new_game(request: Request, ctx: Ctx,
                   variant: Annotated[str, Form()] = "standard",
                   name: Annotated[str, Form()] = "",
                   options: Annotated[str, Form()] = "",
                   movement_minutes: Annotated[float, Form()] = 1440,
                   retreat_minutes: Annotated[float, Form()] = 720,
                   adjustment_minutes: Annotated[float, Form()] = 720,
                   nmr_limit: Annotated[int, Form()] = 0,
                   variant_file: Annotated[UploadFile | None, File()] = None,
                   create_secret: Annotated[str, Form(max_length=300)] = "",
                   press_rule: Annotated[str, Form(max_length=20)] = "full",
                   anonymous: Annotated[str, Form(max_length=1)] = "",
                   gm_reads_press: Annotated[str, Form(max_length=1)] = "",
                   clock_at: Annotated[str, Form(max_length=5)] = "",
                   clock_zone: Annotated[str, Form(max_length=64)] = "UTC",
                   clock_min_hours: Annotated[float, Form()] = 12,
                   clock_phases: Annotated[str, Form(max_length=3)] = "M",
                   bots: Annotated[str, Form(max_length=400)] = ""
                   ) -> Response:
    ctx.allow_create(create_secret)
    text = None
    if variant_file is not None and variant_file.filename:
        raw = await variant_file.read(2_000_001)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise HostError("the variant file is not UTF-8 text") from None
        variant = variant_file.filename
    opts = _options(options)
    settings = press.take_settings({"press": press_rule, "anonymous": anonymous == "1",
                                    "gm_reads_press": gm_reads_press == "1"})
    gid, gm = await ctx.new_game(dict(
        variant=variant, variant_text=text, name=name, options=opts,
        movement_minutes=movement_minutes, retreat_minutes=retreat_minutes,
        adjustment_minutes=adjustment_minutes, nmr_limit=nmr_limit,
        clock={"at": clock_at, "zone": clock_zone, "min_hours": clock_min_hours,
               "phases": clock_phases} if clock_at else None,
        bots=_bot_seats(bots)))
    await run_in_threadpool(press.configure, ctx.db, gid, **settings)
    return RedirectResponse(f"/gm/{gm}", status_code=303)


@router.get("/gm/{token}", response_class=HTMLResponse)
def gm_page(request: Request, token: Token, ctx: Ctx) -> HTMLResponse:
    with ctx.db.read() as s:
        g = ctx.host.gm_game(s, token)
        state = gm_state(ctx.host, s, g)
    links = {k: full_url(request, f"/play/{t}") for k, t in ctx.host.links(token).items()}
    return page(ctx, request, "gm.html", s=state, token=token, links=links)


@router.post("/gm/{token}")
def gm_action(token: Token, ctx: Ctx, action: Annotated[str, Form(max_length=20)],
              phase: Annotated[str, Form(max_length=60)],
              minutes: Annotated[float | None, Form()] = None,
              at: Annotated[str, Form(max_length=5)] = "",
              power: Annotated[str, Form(max_length=100)] = "") -> Response:
    host = ctx.host
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


@router.get("/play/{token}", response_class=HTMLResponse)
def play_page(request: Request, token: Token, ctx: Ctx) -> HTMLResponse:
    return _play(ctx, request, token, None)


@router.post("/play/{token}/orders", response_class=HTMLResponse)
def play_orders_page(request: Request, token: Token, ctx: Ctx,
                     phase: Annotated[str, Form(max_length=60)],
                     text: Annotated[str, Form(max_length=20_000)] = "",
                     pick: Annotated[list[str] | None, Form()] = None) -> HTMLResponse:
    if pick is not None:
        chosen = [x for x in pick if x]
        if not chosen:
            raise HostError("choose an order for at least one unit")
        result = ctx.host.submit(token, "\n".join(chosen), "merge", phase=phase)
    else:
        result = ctx.host.submit(token, text, "replace", phase=phase)
        # the lines not taken go back into the box, after the orders held, to be corrected
        # rather than typed again
        again = list(dict.fromkeys(pr["text"] for pr in result["problems"]
                                   if pr["line"] and pr["text"]))
        if again:
            result = {**result, "box": [*result["orders"], *again]}
    return _play(ctx, request, token, result)


@router.post("/play/{token}/ready")
def play_ready_page(token: Token, ctx: Ctx, phase: Annotated[str, Form(max_length=60)],
                    ready: Annotated[str, Form()] = "") -> Response:
    ctx.host.set_ready(token, ready == "1", phase=phase)
    return RedirectResponse(f"/play/{token}", status_code=303)


@router.post("/play/{token}/draw")
def play_draw_page(token: Token, ctx: Ctx, phase: Annotated[str, Form(max_length=60)],
                   vote: Annotated[str, Form()] = "") -> Response:
    ctx.host.vote_draw(token, vote == "1", phase=phase)
    return RedirectResponse(f"/play/{token}", status_code=303)


@router.post("/play/{token}/passages")
def play_passage_page(token: Token, ctx: Ctx, passage: Annotated[str, Form(max_length=100)],
                      phase: Annotated[str, Form(max_length=60)],
                      powers: Annotated[list[str] | None, Form()] = None) -> Response:
    ctx.host.permit(token, passage, powers or [], phase=phase)
    return RedirectResponse(f"/play/{token}", status_code=303)


@router.get("/play/{token}/phase/{seq}", response_class=HTMLResponse)
def play_phase_page(request: Request, token: Token, seq: Seq, ctx: Ctx) -> HTMLResponse:
    with ctx.db.read() as s:
        g, p = ctx.host.player(s, token)
        report = phase_report(ctx.host, s, g, seq)
        state = player_state(ctx.host, s, g, p)
    return page(ctx, request, "phase.html", s=state, seq=seq, report=report,
                back=f"/play/{token}", map_url=f"/api/play/{token}/map.svg?seq={seq}")


@router.get("/gm/{token}/phase/{seq}", response_class=HTMLResponse)
def gm_phase_page(request: Request, token: Token, seq: Seq, ctx: Ctx) -> HTMLResponse:
    with ctx.db.read() as s:
        g = ctx.host.gm_game(s, token)
        report = phase_report(ctx.host, s, g, seq)
        state = gm_state(ctx.host, s, g)
    return page(ctx, request, "phase.html", s=state, seq=seq, report=report,
                back=f"/gm/{token}", map_url=f"/api/gm/{token}/map.svg?seq={seq}")


def _play(ctx: HostContext, request: Request, token: str,
          result: dict[str, Any] | None) -> HTMLResponse:
    with ctx.db.read() as s:
        g, p = ctx.host.player(s, token)
        state = player_state(ctx.host, s, g, p)
    return page(ctx, request, "play.html", s=state, token=token, result=result)


def _options(text: str) -> dict[str, Any]:
    """Rule options from the create form: KEY=VALUE lines (values as in polydip new)."""
    from polydip.options import parse_options

    lines = [ln.strip() for ln in text.replace(",", "\n").splitlines() if ln.strip()]
    return parse_options(lines)


def _bot_seats(text: str) -> dict[str, str]:
    """The create form's "Italy=bot, Turkey=random" as the API's `bots` (power -> bot
    player; the powers and players are checked where the game is made)."""
    out: dict[str, str] = {}
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        power, sep, kind = part.replace(":", "=").partition("=")
        if not sep or not power.strip() or not kind.strip():
            raise HostError(f"bots: write POWER=PLAYER, e.g. 'Italy=bot' (got {part.strip()!r})")
        out[power.strip()] = kind.strip()
    return out
