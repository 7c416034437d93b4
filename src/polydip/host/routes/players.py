"""The API of a power's link (/api/play/TOKEN): its state, its orders, readiness, draw
votes, passage permissions, processed phases and the map."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request, Response
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from polydip.host.models import GameRow
from polydip.host.routes.context import Ctx, HostContext, Seq, Token
from polydip.host.routes.maps import MapOf, map_of, svg_response
from polydip.host.routes.schemas import (
    ERRORS,
    DrawIn,
    OrdersIn,
    OrdersOut,
    PassageIn,
    ReadyIn,
)
from polydip.host.views import phase_report, player_state

router = APIRouter(tags=["players"], responses=ERRORS)


@router.get("/api/play/{token}")
def play_state(token: Token, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.read() as s:
        g, p = ctx.host.player(s, token)
        return player_state(ctx.host, s, g, p)


@router.post("/api/play/{token}/orders", response_model=OrdersOut)
def play_orders(token: Token, body: OrdersIn, ctx: Ctx) -> dict[str, Any]:
    return ctx.host.submit(token, body.text, body.mode, phase=body.phase)


@router.post("/api/play/{token}/ready")
def play_ready(token: Token, body: ReadyIn, ctx: Ctx) -> dict[str, bool]:
    return {"ready": body.ready,
            "processed": ctx.host.set_ready(token, body.ready, phase=body.phase)}


@router.post("/api/play/{token}/draw")
def play_draw(token: Token, body: DrawIn, ctx: Ctx) -> dict[str, bool]:
    return {"vote": body.vote, "drawn": ctx.host.vote_draw(token, body.vote, phase=body.phase)}


@router.post("/api/play/{token}/passages")
def play_passage(token: Token, body: PassageIn, ctx: Ctx) -> dict[str, list[str]]:
    return ctx.host.permit(token, body.passage, body.powers, phase=body.phase)


@router.get("/api/play/{token}/phases/{seq}")
def play_phase(token: Token, seq: Seq, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.read() as s:
        g, _p = ctx.host.player(s, token)
        return phase_json(ctx, s, g, seq)


@router.get("/api/play/{token}/map.svg", response_class=Response)
async def play_map(token: Token, request: Request, ctx: Ctx,
                   seq: int | None = None) -> Response:
    def read() -> MapOf:
        with ctx.db.read() as s:
            g, p = ctx.host.player(s, token)
            return map_of(ctx, s, g, seq, p.power)

    return await svg_response(ctx, await run_in_threadpool(read), request)


def phase_json(ctx: HostContext, s: Session, g: GameRow, seq: int) -> dict[str, Any]:
    """A processed phase's report, as text and as JSON (for the player's and the GM's API)."""
    return {"seq": seq, "report": phase_report(ctx.host, s, g, seq),
            "report_json": json.loads(phase_report(ctx.host, s, g, seq, "json"))}
