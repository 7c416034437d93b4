"""Bot seats: a power the GM gives to one of `polydip simulate`'s players (docs/host.md,
"Bots").

A seat is a row of `bot_seats` (game, power, player kind). The GM gives a power to a bot when
the game is created or later (a power whose player dropped, in civil disorder or not); the
power's link then stops working. A bot orders when a phase opens (the game created, a phase
processed, an undo, the seat given): it reads the position and its own legal orders only —
never another power's orders — and its orders are written as the power's, marked ready. A
bot never waits: a phase in which the other powers are ready too is processed at once when
the seat is given; otherwise at the deadline or when the last player is ready, as always.
The GM gives the seat back to a player with a new link (the generation of the power's link
goes up, as when a player is replaced).
"""

from __future__ import annotations

import logging
import random
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import DateTime, ForeignKey, Integer, String, UniqueConstraint, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from polydip.errors import PolydipError
from polydip.game.game import Game
from polydip.host.models import Base, GameRow, OrderRow, PowerRow
from polydip.host.tokens import new_token, power_token, token_hash

if TYPE_CHECKING:  # (the service calls this module where a phase opens: no import back)
    from polydip.host.service import Host

log = logging.getLogger("polydip.host")


class BotSeatError(PolydipError):
    """A bot seat the GM asked for that cannot be (answered 400)."""

    status = 400


def now_utc() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)

# the players a seat may be given to: the named players of `polydip simulate` (never an
# imported module:function, which would run code a request names)
KINDS = ("bot", "random", "coherent", "hold")


class BotSeatRow(Base):
    __tablename__ = "bot_seats"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    power: Mapped[int] = mapped_column(Integer)  # index in the variant's powers
    player: Mapped[str] = mapped_column(String(20))  # one of KINDS
    since: Mapped[datetime] = mapped_column(DateTime)  # UTC


def seats(s: Session, g: GameRow) -> dict[int, str]:
    """The game's bot seats: power index -> player kind."""
    rows = s.scalars(select(BotSeatRow).where(BotSeatRow.game_id == g.id))
    return {r.power: r.player for r in rows}


def seat_names(s: Session, g: GameRow, powers: list[str]) -> dict[str, str]:
    """The bot seats by power name (what the pages and the API show)."""
    return {powers[p]: kind for p, kind in sorted(seats(s, g).items())}


def check_kind(kind: str) -> str:
    k = kind.strip().lower()
    if k not in KINDS:
        raise BotSeatError(f"no bot player {kind[:40]!r}: choose one of {', '.join(KINDS)}")
    return k


def _power_row(host: Host, s: Session, g: GameRow, game: Game, power: str) -> PowerRow:
    try:
        idx = game.power(power)
    except PolydipError as exc:
        raise BotSeatError(str(exc)) from None
    row = next((p for p in host.powers(s, g) if p.power == idx), None)
    if row is None:
        raise BotSeatError(f"{game.map.powers[idx]} is neutral: it has no seat")
    return row


def _seat(s: Session, g: GameRow, row: PowerRow, kind: str) -> None:
    """Give the power to a bot: its link stops working, civil disorder ends."""
    seat = s.scalars(select(BotSeatRow).where(BotSeatRow.game_id == g.id,
                                              BotSeatRow.power == row.power)).first()
    if seat is None:
        s.add(BotSeatRow(game_id=g.id, power=row.power, player=kind, since=now_utc()))
    else:
        seat.player = kind
    row.token_hash = token_hash(new_token())  # a token nobody has: no link plays the seat
    row.missed, row.civil_disorder = 0, False


def seat_at_creation(host: Host, s: Session, g: GameRow, game: Game,
                     bots: dict[str, str]) -> None:
    """The seats a game is created with (power name -> player kind), ordering at once."""
    if len(bots) > len(game.map.powers):
        raise BotSeatError("more bot seats than powers")
    s.flush()
    for power, kind in bots.items():
        _seat(s, g, _power_row(host, s, g, game, power), check_kind(kind))
    s.flush()
    phase_opened(host, s, g, game)


def hand_to_bot(host: Host, gm_token: str, power: str, kind: str, *, phase: str) -> str:
    """The GM gives `power` to a bot of `kind` in phase `phase` (its id); the bot orders for
    the phase at once. Returns the power's name."""
    kind = check_kind(kind)
    with host.db.transaction() as s:
        g = host.gm_game(s, gm_token, lock=True)
        host._active(g)
        host._expect(g, phase)
        game = host.game(s, g)
        row = _power_row(host, s, g, game, power)
        _seat(s, g, row, kind)
        s.flush()
        _order(host, s, g, game, row.power, kind)
        s.flush()
        if host._all_ready(s, g):  # the bot was the last to be ready
            host._process_guarded(s, g, now_utc())
        return row.name


def take_back(host: Host, gm_token: str, power: str, *, phase: str) -> tuple[str, str]:
    """The GM gives a bot's seat back to a player: a new link (returned with the power's
    name); the bot's orders for the phase stay until the player changes them."""
    with host.db.transaction() as s:
        g = host.gm_game(s, gm_token, lock=True)
        host._expect(g, phase)
        game = host.game(s, g)
        row = _power_row(host, s, g, game, power)
        seat = s.scalars(select(BotSeatRow).where(BotSeatRow.game_id == g.id,
                                                  BotSeatRow.power == row.power)).first()
        if seat is None:
            raise BotSeatError(f"{row.name} is not played by a bot")
        s.delete(seat)
        row.generation += 1
        row.missed, row.civil_disorder = 0, False
        token = power_token(gm_token, g.id, row.power, row.generation)
        row.token_hash = token_hash(token)
        return row.name, token


def phase_opened(host: Host, s: Session, g: GameRow, game: Game) -> None:
    """Each bot seat with something to order in the phase `game` is at orders it (the hook
    the host calls where a phase opens). A bot that fails leaves its power without orders
    and logs why: it never stops the game."""
    if game.is_over:
        return
    mine = seats(s, g)
    if not mine:
        return
    to_order = set(game.powers_to_order())
    for power, kind in sorted(mine.items()):
        if power in to_order:
            _order(host, s, g, game, power, kind)


def _order(host: Host, s: Session, g: GameRow, game: Game, power: int, kind: str) -> None:
    """Write the bot's orders for `power` in the current phase, ready."""
    from polydip.fast import FastGame
    from polydip.simulate.players import load_player, play_for

    lines: list[str] = []
    if power in game.powers_to_order():
        try:
            fg = FastGame.from_game(game)
            fg.status = "active"
            rng = random.Random(f"polydip-bot-{g.id}-{g.seq}-{power}")
            codes = play_for(load_player(kind), fg, power, rng)
            texts = list(dict.fromkeys(fg.table.texts[c] for c in codes if c >= 0))
            view = Game(game.variant, game.map, game.position, game.options, {})
            view.set_orders(power, texts)
            lines = list(view.orders.get(power, []))
        except Exception as exc:  # the bot's failure is its power's, never the game's
            log.error("game %s: the bot of %s could not order %s: %s", g.id,
                      game.map.powers[power], g.phase, type(exc).__name__)
            lines = []
    row = host.order_rows(s, g).get(power)
    if row is None:
        row = OrderRow(game_id=g.id, seq=g.seq, power=power)
        s.add(row)
    row.lines, row.ready, row.updated = lines, True, now_utc()
