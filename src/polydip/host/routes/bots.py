"""Bot seats from the GM's link (host/bots.py): the API (/api/gm/TOKEN/bots) and the GM
page's form (POST /gm/TOKEN/bots)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field

from polydip.host import bots
from polydip.host.routes.context import Ctx, Token, full_url
from polydip.host.routes.schemas import ERRORS, PhaseId

router = APIRouter(tags=["gm"], responses=ERRORS)


class BotIn(BaseModel):
    power: str = Field(max_length=100)
    player: str = Field("bot", max_length=40, description="the bot player: "
                        + ", ".join(bots.KINDS))
    phase: PhaseId


class TakeBackIn(BaseModel):
    power: str = Field(max_length=100)
    phase: PhaseId


@router.get("/api/gm/{token}/bots")
def gm_bots(token: Token, ctx: Ctx) -> dict[str, Any]:
    """The game's bot seats (power -> player) and the players a seat may be given to."""
    with ctx.db.read() as s:
        g = ctx.host.gm_game(s, token)
        names = ctx.host.game(s, g).map.powers
        return {"seats": bots.seat_names(s, g, names), "players": list(bots.KINDS)}


@router.post("/api/gm/{token}/bots")
def gm_hand_to_bot(token: Token, body: BotIn, ctx: Ctx) -> dict[str, str]:
    """Give a power to a bot: its link stops working; the bot orders for this phase now and
    for every phase after, as it opens."""
    name = bots.hand_to_bot(ctx.host, token, body.power, body.player, phase=body.phase)
    return {"power": name, "player": bots.check_kind(body.player)}


@router.post("/api/gm/{token}/bots/take-back")
def gm_take_back(token: Token, body: TakeBackIn, request: Request, ctx: Ctx
                 ) -> dict[str, str]:
    """Give a bot's seat back to a player: the answer holds the power's new link."""
    name, new = bots.take_back(ctx.host, token, body.power, phase=body.phase)
    return {"power": name, "url": full_url(request, "/play/" + new)}


@router.post("/gm/{token}/bots", include_in_schema=False)
def gm_bots_form(token: Token, ctx: Ctx, action: Annotated[str, Form(max_length=20)],
                 phase: Annotated[str, Form(max_length=60)],
                 power: Annotated[str, Form(max_length=100)],
                 player: Annotated[str, Form(max_length=40)] = "bot") -> Response:
    if action == "take_back":
        bots.take_back(ctx.host, token, power, phase=phase)
    elif action == "hand":
        bots.hand_to_bot(ctx.host, token, power, player, phase=phase)
    else:
        raise bots.BotSeatError(f"unknown action {action[:20]!r}")
    return RedirectResponse(f"/gm/{token}", status_code=303)
