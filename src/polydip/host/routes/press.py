"""Press routes: a power's messages (/api/play/TOKEN/press, its name, and the play page's
forms), the GM's reading (/api/gm/TOKEN/press), and the `press_panel` the pages' press
section (templates/_press.html) is drawn from. What each link reads is host/press.py's."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Query
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field

from polydip.game.press import GLOBAL, MAX_TEXT
from polydip.host import press
from polydip.host.routes.context import Ctx, HostContext, Token
from polydip.host.routes.schemas import ERRORS, PhaseId
from polydip.host.service import HostError

router = APIRouter(tags=["press"], responses={**ERRORS, 429: ERRORS[400]})

SeqQuery = Annotated[int | None, Query(ge=0, le=100_000, description="only the messages of "
                                       "this phase (its seq); default: every phase")]


Recipient = Annotated[str, Field(max_length=100)]


class PressIn(BaseModel):
    to: Recipient | list[Recipient] = Field(
        max_length=100, description="\"GLOBAL\" (every power: public), a power, or a list "
        "of powers (private)")
    text: str = Field(max_length=MAX_TEXT)
    phase: PhaseId


class NameIn(BaseModel):
    name: str = Field(max_length=press.MAX_NAME, description="your name, shown beside your "
                      "power in a game that is not anonymous (\"\": none)")


@router.get("/api/play/{token}/press")
def play_press(token: Token, ctx: Ctx, seq: SeqQuery = None) -> dict[str, Any]:
    with ctx.db.read() as s:
        g, p = ctx.host.player(s, token)
        return press.press_view(ctx.host, s, g, p.power, seq)


@router.post("/api/play/{token}/press", status_code=201)
def play_send(token: Token, body: PressIn, ctx: Ctx) -> dict[str, Any]:
    return press.send(ctx.host, token, body.to, body.text, phase=body.phase)


@router.post("/api/play/{token}/name")
def play_name(token: Token, body: NameIn, ctx: Ctx) -> dict[str, str]:
    return {"name": press.set_name(ctx.host, token, body.name)}


@router.get("/api/gm/{token}/press")
def gm_press(token: Token, ctx: Ctx, seq: SeqQuery = None) -> dict[str, Any]:
    with ctx.db.read() as s:
        g = ctx.host.gm_game(s, token)
        return press.press_view(ctx.host, s, g, None, seq)


# ---- the play page's forms ------------------------------------------------------------------

@router.post("/play/{token}/press", include_in_schema=False)
def play_send_page(token: Token, ctx: Ctx, phase: Annotated[str, Form(max_length=60)],
                   text: Annotated[str, Form(max_length=MAX_TEXT)] = "",
                   to: Annotated[list[str] | None, Form(max_length=100)] = None,
                   public: Annotated[str, Form(max_length=1)] = "") -> Response:
    recipients: str | list[str] = GLOBAL if public == "1" else [x for x in to or [] if x]
    if not recipients:
        raise HostError("choose whom to write to: one power or more, or all (public)")
    press.send(ctx.host, token, recipients, text, phase=phase)
    return RedirectResponse(f"/play/{token}#press", status_code=303)


@router.post("/play/{token}/name", include_in_schema=False)
def play_name_page(token: Token, ctx: Ctx,
                   name: Annotated[str, Form(max_length=press.MAX_NAME)] = "") -> Response:
    press.set_name(ctx.host, token, name)
    return RedirectResponse(f"/play/{token}#press", status_code=303)


def install(ctx: HostContext) -> None:
    """Give the pages `press_panel(token, gm=False)`: the press a link sees (press_view),
    read in its own read-only transaction."""

    def press_panel(token: str, gm: bool = False) -> dict[str, Any]:
        with ctx.db.read() as s:
            if gm:
                return press.press_view(ctx.host, s, ctx.host.gm_game(s, token), None)
            g, p = ctx.host.player(s, token)
            return press.press_view(ctx.host, s, g, p.power)

    ctx.templates.env.globals["press_panel"] = press_panel
