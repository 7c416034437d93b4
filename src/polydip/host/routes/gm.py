"""The API of a GM's link (/api/gm/TOKEN): the game's state, processing, undo, pause,
deadlines, replacing a player, passages, the game's files, processed phases, the map and
new links."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from polydip.host.routes.context import Ctx, Seq, Token, full_url
from polydip.host.routes.games import created
from polydip.host.routes.maps import MapOf, map_of, svg_response
from polydip.host.routes.players import phase_json
from polydip.host.routes.schemas import (
    ERRORS,
    CreatedGame,
    DeadlineIn,
    PassageIn,
    PauseIn,
    PhaseIn,
    ReplaceIn,
)
from polydip.host.views import gm_state

router = APIRouter(tags=["gm"], responses=ERRORS)


@router.get("/api/gm/{token}")
def gm_get(token: Token, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.read() as s:
        g = ctx.host.gm_game(s, token)
        state = gm_state(ctx.host, s, g)
    state["links"] = ctx.host.links(token)
    return state


@router.post("/api/gm/{token}/process")
def gm_process(token: Token, body: PhaseIn, ctx: Ctx) -> dict[str, str]:
    name, pid = ctx.host.process_now(token, phase=body.phase)
    return {"phase": name, "phase_id": pid}


@router.post("/api/gm/{token}/undo")
def gm_undo(token: Token, body: PhaseIn, ctx: Ctx) -> dict[str, str]:
    name, pid = ctx.host.undo(token, phase=body.phase)
    return {"phase": name, "phase_id": pid}


@router.post("/api/gm/{token}/pause")
def gm_pause(token: Token, body: PauseIn, ctx: Ctx) -> dict[str, bool]:
    ctx.host.pause(token, body.paused, phase=body.phase)
    return {"paused": body.paused}


@router.post("/api/gm/{token}/deadline")
def gm_deadline(token: Token, body: DeadlineIn, ctx: Ctx) -> dict[str, str | None]:
    d = ctx.host.set_deadline(token, body.extend_minutes, body.minutes_from_now, body.at,
                              phase=body.phase)
    return {"deadline": d.isoformat(timespec="seconds") + "Z" if d else None}


@router.post("/api/gm/{token}/replace")
def gm_replace(token: Token, body: ReplaceIn, request: Request, ctx: Ctx) -> dict[str, str]:
    name, new = ctx.host.replace_player(token, body.power, phase=body.phase)
    return {"power": name, "url": full_url(request, "/play/" + new)}


@router.post("/api/gm/{token}/passages")
def gm_passage(token: Token, body: PassageIn, ctx: Ctx) -> dict[str, list[str]]:
    return ctx.host.permit(token, body.passage, body.powers, gm=True,
                           controller=body.controller, phase=body.phase)


@router.get("/api/gm/{token}/game.json")
def gm_file(token: Token, ctx: Ctx) -> JSONResponse:
    return _download(ctx.host.game_file(token), "game.json")


@router.get("/api/gm/{token}/diplomacy.json")
def gm_dip(token: Token, ctx: Ctx) -> JSONResponse:
    return _download(ctx.host.diplomacy_json(token), "diplomacy.json")


@router.get("/api/gm/{token}/phases/{seq}")
def gm_phase(token: Token, seq: Seq, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.read() as s:
        return phase_json(ctx, s, ctx.host.gm_game(s, token), seq)


@router.get("/api/gm/{token}/map.svg", response_class=Response)
async def gm_map(token: Token, request: Request, ctx: Ctx,
                 seq: int | None = None) -> Response:
    def read() -> MapOf:
        with ctx.db.read() as s:
            return map_of(ctx, s, ctx.host.gm_game(s, token), seq, None)

    return await svg_response(ctx, await run_in_threadpool(read), request)


@router.post("/api/gm/{token}/rotate", response_model=CreatedGame)
def gm_rotate(token: Token, request: Request, ctx: Ctx) -> CreatedGame:
    """New links for the GM and every power; the old ones stop working (a link that
    leaked)."""
    new_gm = ctx.host.rotate_links(token)
    with ctx.db.read() as s:
        gid = ctx.host.gm_game(s, new_gm).id
    return created(ctx, gid, new_gm, request)


def _download(data: Any, name: str) -> JSONResponse:
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})
