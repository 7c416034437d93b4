"""The API's games: the built-in variants, and creating a game (a GM's first request)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Request
from starlette.concurrency import run_in_threadpool

from polydip.host import press
from polydip.host.routes.context import Ctx, HostContext, full_url
from polydip.host.routes.schemas import ERRORS, CreatedGame, CreateGame

router = APIRouter(tags=["games"])


@router.get("/api/variants")
def variants() -> list[str]:
    from polydip.variants.loader import builtin_names

    return builtin_names()


@router.post("/api/games", response_model=CreatedGame, responses=ERRORS, status_code=201)
async def create(body: CreateGame, request: Request, ctx: Ctx,
                 authorization: Annotated[str | None, Header(
                     max_length=300, description="`Bearer SECRET` when the server "
                     "was started with --create-secret")] = None) -> CreatedGame:
    ctx.allow_create(authorization.removeprefix("Bearer ").strip() if authorization else None)
    fields = body.model_dump()
    settings = press.take_settings(fields)  # (host/press.py)
    gid, gm = await ctx.new_game(fields)
    await run_in_threadpool(press.configure, ctx.db, gid, **settings)
    return await run_in_threadpool(created, ctx, gid, gm, request)


def created(ctx: HostContext, gid: int, gm: str, request: Request) -> CreatedGame:
    """The answer to a creation (or a rotation): the game, its GM link, one link a power."""
    return CreatedGame(game=gid, gm_token=gm, gm_url=full_url(request, f"/gm/{gm}"),
                       players={k: full_url(request, f"/play/{t}")
                                for k, t in ctx.host.links(gm).items()})
