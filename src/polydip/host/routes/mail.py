"""Notifications on the pages: a player's (or the GM's) e-mail address and what it wants
mailed, the unsubscribe link every mail carries (one click, no login), and the panel the
player's and GM's pages include (_mail.html), which also says when a time-of-day deadline
falls, in its zone and in UTC.

An address is shown only on its holder's page; no API answer, export or other page holds it.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from polydip.host import notify
from polydip.host.mail import Mailer
from polydip.host.notify_clock import clock_of, describe
from polydip.host.notify_models import GM
from polydip.host.routes.context import Ctx, HostContext, Token, full_url
from polydip.host.service import HostError, NotFound

router = APIRouter(include_in_schema=False)


class MailOff(HostError):
    status = 404


def mailer_of(request: Request) -> Mailer:
    mailer: Mailer | None = getattr(request.app.state, "mailer", None)
    if mailer is None:
        raise MailOff("this server sends no mail (its operator starts it with --smtp)")
    return mailer


def install(app: FastAPI, ctx: HostContext, mailer: Mailer | None) -> None:
    """The mail routes and the panel the pages include."""
    app.state.mailer = mailer
    app.include_router(router)

    def mail_panel(token: str, role: str) -> dict[str, Any]:
        return panel(ctx, mailer, token, role == "gm")

    ctx.templates.env.globals["mail_panel"] = mail_panel


def panel(ctx: HostContext, mailer: Mailer | None, token: str, gm: bool) -> dict[str, Any]:
    """What the page of `token` shows: its own address and choices, and the game's clock."""
    with ctx.db.read() as s:
        if gm:
            g, power = ctx.host.gm_game(s, token), GM
        else:
            g, p = ctx.host.player(s, token)
            power = p.power
        clock = clock_of(s, g.id)
        row = notify.address_row(s, g.id, power) if mailer is not None else None
        out: dict[str, Any] = {
            "on": mailer is not None, "kinds": notify.GM_KINDS if gm else notify.KINDS,
            "clock": describe(clock, g.deadline) if clock is not None else None,
            "address": row.address if row else "",
            "chosen": list(row.kinds) if row else list(notify.GM_KINDS if gm
                                                       else notify.KINDS),
            "warn_hours": ", ".join(f"{h:g}" for h in (
                row.warn_hours if row else notify.DEFAULT_WARN_HOURS)),
            "unsubscribed": bool(row and row.unsubscribed),
            "action": f"/{'gm' if gm else 'play'}/{token}/mail"}
        return out


def _save(request: Request, ctx: HostContext, token: str, gm: bool, address: str,
          kinds: list[str] | None, warn_hours: str, remove: str) -> Response:
    mailer = mailer_of(request)
    with ctx.db.transaction() as s:
        if gm:
            g, power = ctx.host.gm_game(s, token, lock=True), GM
        else:
            g, p = ctx.host.player(s, token, lock=True)
            power = p.power
        if remove:
            notify.remove_address(s, g.id, power)
        else:
            address, chosen, hours = notify.check_settings(address, kinds or [], warn_hours,
                                                           gm)
            notify.set_address(s, g.id, power, address, chosen, hours,
                               notify.seal(mailer.key, token), full_url(request, ""))
    return RedirectResponse(f"/{'gm' if gm else 'play'}/{token}#mail", status_code=303)


@router.post("/play/{token}/mail")
def play_mail(request: Request, token: Token, ctx: Ctx,
              address: Annotated[str, Form(max_length=300)] = "",
              kinds: Annotated[list[str] | None, Form()] = None,
              warn_hours: Annotated[str, Form(max_length=100)] = "",
              remove: Annotated[str, Form(max_length=5)] = "") -> Response:
    return _save(request, ctx, token, False, address, kinds, warn_hours, remove)


@router.post("/gm/{token}/mail")
def gm_mail(request: Request, token: Token, ctx: Ctx,
            address: Annotated[str, Form(max_length=300)] = "",
            kinds: Annotated[list[str] | None, Form()] = None,
            warn_hours: Annotated[str, Form(max_length=100)] = "",
            remove: Annotated[str, Form(max_length=5)] = "") -> Response:
    return _save(request, ctx, token, True, address, kinds, warn_hours, remove)


def _unsubscribe(request: Request, ctx: HostContext, token: str) -> HTMLResponse:
    mailer = mailer_of(request)
    address_id = notify.address_of_token(mailer.key, token[:100])
    with ctx.db.transaction() as s:
        row = notify.unsubscribe(s, address_id) if address_id is not None else None
        if row is None:
            raise NotFound("this unsubscribe link is not one of this server's, or its address "
                           "was removed: no mail goes to it")
    return ctx.templates.TemplateResponse(request, "mail_done.html", {})


@router.get("/mail/unsubscribe/{token}", response_class=HTMLResponse)
def unsubscribe_link(request: Request, token: str, ctx: Ctx) -> HTMLResponse:
    """One click in the mail: no login, no second step."""
    return _unsubscribe(request, ctx, token)


@router.post("/mail/unsubscribe/{token}", response_class=HTMLResponse)
def unsubscribe_post(request: Request, token: str, ctx: Ctx) -> HTMLResponse:
    """RFC 8058 one-click (List-Unsubscribe-Post), as mail programs send it."""
    return _unsubscribe(request, ctx, token)
