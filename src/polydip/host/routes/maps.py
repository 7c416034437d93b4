"""The board a link sees, as SVG: what it shows read in the database transaction
(`map_of`), then drawn outside it in a budgeted child process (`svg_response`), each
drawing kept under its ETag."""

from __future__ import annotations

import gzip
import hashlib
import json
from typing import Any

from fastapi import Request, Response
from sqlalchemy.orm import Session

from polydip.host.models import GameRow
from polydip.host.routes.context import HostContext
from polydip.host.service import NotFound
from polydip.host.work import TooCostly, draw

# the game, the phase drawn (None: the current one), its ETag, the game's id
MapOf = tuple[Any, str | None, str, int]


def map_of(ctx: HostContext, s: Session, g: GameRow, seq: int | None,
           power: int | None) -> MapOf:
    """What a map shows — the game, the phase, its ETag — read in the transaction: the
    current phase with the orders this link may see, or a processed phase. The ETag
    names the phase's version and those orders, so a browser asks again on every view
    (no stale map after a phase or an order changes) and gets 304 when nothing did."""
    from polydip.game.game import Game

    host = ctx.host
    shown = None if seq is None or seq == g.seq else seq  # None: the current phase
    if shown is not None and not 0 <= shown < g.seq:
        raise NotFound(f"no processed phase {seq} (0 to {g.seq - 1})")
    at = g.seq if shown is None else shown + 1
    base = host.game(s, g, at)
    if shown is None:
        if power is None:
            orders = {p: list(r.lines) for p, r in host.order_rows(s, g).items() if r.lines}
        else:
            orders = host.pending(s, g, power).orders
        game = Game(base.variant, base.map, base.position, base.options, orders,
                    base.history, base.status, base.winners, base.name)
        phase = None
    else:
        game, orders, phase = base, {}, base.history[shown].position.phase.name
    uid = host.phase_uid(s, g, at)
    version = json.dumps([uid, sorted(orders.items()), phase])
    etag = '"' + hashlib.sha1(version.encode()).hexdigest()[:20] + '"'
    return game, phase, etag, g.id


async def svg_response(ctx: HostContext, what: MapOf, request: Request) -> Response:
    """The map drawn outside the transaction, in a budgeted child process."""
    game, phase, etag, gid = what
    headers = {"Cache-Control": "private, no-cache", "ETag": etag,
               "Vary": "Accept-Encoding"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    got = ctx.svg_cache.get(etag)
    if got is None:
        got = await _drawn(ctx, game, phase, etag, gid)
    if "gzip" in request.headers.get("accept-encoding", "").lower():
        return Response(got[1], media_type="image/svg+xml",
                        headers={**headers, "Content-Encoding": "gzip"})
    return Response(got[0], media_type="image/svg+xml", headers=headers)


async def _drawn(ctx: HostContext, game: Any, phase: str | None, etag: str,
                 gid: int) -> tuple[str, bytes]:
    """The map drawn in the budget and kept in the cache, as text and gzip."""
    if gid in ctx.too_large:  # its board does not change size: no second try
        raise TooCostly(ctx.too_large[gid])
    try:
        svg = await ctx.budget.run("this map is too large to draw here", draw, game, phase)
    except TooCostly as exc:
        ctx.too_large[gid] = str(exc)
        raise
    # a map is 1-1.6 MB of text and ~6x smaller compressed: compressed once, kept
    # both ways (a map holds no secret, so compressing it reveals none)
    got = ctx.svg_cache[etag] = (svg, gzip.compress(svg.encode("utf-8"), 6))
    while len(ctx.svg_cache) > 16:
        ctx.svg_cache.popitem(last=False)
    return got
