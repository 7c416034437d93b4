"""What every route shares: the `HostContext` `create_app` builds once (kept in
`app.state.ctx`), the dependency that hands it to a route, the path parameter types, and
the steps several routers take (checking the create secret, creating a game, a link's
full URL)."""

from __future__ import annotations

import hmac
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi import Path as PathParam
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool

from polydip.host.db import Database
from polydip.host.service import Host, HostError
from polydip.host.work import Budget, create_upload

Token = Annotated[str, PathParam(min_length=8, max_length=100, pattern=r"^[A-Za-z0-9_-]+$")]
Seq = Annotated[int, PathParam(ge=0, le=100_000)]


class Forbidden(HostError):
    status = 403


@dataclass
class HostContext:
    """The app's shared state: one a `create_app` call."""

    db: Database
    host: Host
    data: Path
    budget: Budget
    templates: Jinja2Templates
    create_secret: str | None = None
    # the drawn maps, etag -> (text, gzip), the 16 most recent
    svg_cache: OrderedDict[str, tuple[str, bytes]] = field(default_factory=OrderedDict)
    # games whose map went over the budget (their board does not change size: no second try)
    too_large: dict[int, str] = field(default_factory=dict)

    def allow_create(self, secret: str | None) -> None:
        """Refuse (403) without the server's create secret, when it has one."""
        if self.create_secret and not hmac.compare_digest((secret or "").encode(),
                                                          self.create_secret.encode()):
            raise Forbidden("creating a game on this server needs its create secret "
                            "(ask the server's owner)")

    async def new_game(self, fields: dict[str, Any]) -> tuple[int, str]:
        """A game: from an upload in a budgeted child process, else here."""
        if fields.get("variant_text") is not None:
            return await self.budget.run("this variant is too large to load here",
                                         create_upload, self.db.url, str(self.data), fields)
        return await run_in_threadpool(lambda: self.host.create_game(**fields))


async def context(request: Request) -> HostContext:
    """The app's `HostContext` (a dependency: `ctx: Ctx` in a route's parameters)."""
    ctx: HostContext = request.app.state.ctx
    return ctx


Ctx = Annotated[HostContext, Depends(context)]


def full_url(request: Request, path: str) -> str:
    return str(request.base_url).rstrip("/") + path
