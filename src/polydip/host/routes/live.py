"""Live pages (host/live.py): a link's game's live state as JSON (the fallback pages poll),
and as a stream of server-sent events (not in the OpenAPI schema: it never ends by
itself)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from polydip.host import live
from polydip.host.routes.context import Ctx, HostContext, Token
from polydip.host.routes.schemas import ERRORS

router = APIRouter(tags=["live"], responses=ERRORS)


def _game_of(ctx: HostContext, token: str, gm: bool) -> int:
    """The id of the game of a GM's or a power's link (404 for a link that works no more)."""
    with ctx.db.read() as s:
        return ctx.host.gm_game(s, token).id if gm else ctx.host.player(s, token)[0].id


def _state(ctx: HostContext, token: str, gm: bool) -> dict[str, Any]:
    with ctx.db.read() as s:
        g = ctx.host.gm_game(s, token) if gm else ctx.host.player(s, token)[0]
        return live.with_time_left(live.live_states(s, [g.id])[g.id])


@router.get("/api/play/{token}/live.json")
def play_live_state(token: Token, ctx: Ctx) -> dict[str, Any]:
    """The game's live state: phase id, status, deadline (and seconds left), which powers
    have ordered and which are ready (never what), an event counter; `version` changes
    whenever any of it does."""
    return _state(ctx, token, gm=False)


@router.get("/api/gm/{token}/live.json")
def gm_live_state(token: Token, ctx: Ctx) -> dict[str, Any]:
    """The game's live state, as a power's link has it."""
    return _state(ctx, token, gm=True)


@router.get("/api/play/{token}/live", include_in_schema=False)
async def play_live(request: Request, token: Token, ctx: Ctx) -> StreamingResponse:
    return await _stream(request, ctx, token, gm=False)


@router.get("/api/gm/{token}/live", include_in_schema=False)
async def gm_live(request: Request, token: Token, ctx: Ctx) -> StreamingResponse:
    return await _stream(request, ctx, token, gm=True)


def hub_of(request: Request, ctx: HostContext) -> live.Hub:
    """The app's hub of streams, made at the first stream."""
    hub: live.Hub | None = getattr(request.app.state, "live_hub", None)
    if hub is None:
        hub = request.app.state.live_hub = live.Hub(ctx.db)
    return hub


async def _stream(request: Request, ctx: HostContext, token: str, gm: bool
                  ) -> StreamingResponse:
    gid = await run_in_threadpool(_game_of, ctx, token, gm)
    client = request.client.host if request.client else "?"
    events = await hub_of(request, ctx).open(client, gid)
    return StreamingResponse(events, media_type="text/event-stream",
                             headers={"cache-control": "no-store",
                                      "x-accel-buffering": "no"})  # (nginx: pass it on)
