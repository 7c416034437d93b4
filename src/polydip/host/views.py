"""What each link may see, decided here and nowhere else.

A power sees the public state of the game (phase, deadline, centers and units of every
power, the processed phases with their reports and maps) and its own pending orders, ready
flag and draw vote — never another power's. The GM sees everything, pending orders included.

Every function here only reads: the app calls them inside a read-only transaction
(`db.read()`), so a page view never holds nor waits for the database's write lock.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from polydip.adjudication.adjustments import adjustment_counts, build_sites
from polydip.errors import PolydipError
from polydip.game.combined import enter_kept, season_end, split_texts
from polydip.game.engine import parse_orders
from polydip.game.game import Game
from polydip.host import bots as bot_seats
from polydip.host.mapclick import map_orders, unit_orders
from polydip.host.models import GameRow, PowerRow
from polydip.host.service import Host, now_utc, phase_id
from polydip.orders.describe import default_names, place, unit
from polydip.orders.model import BUILD, DISBAND, WAIVE
from polydip.orders.stacked import number_of
from polydip.render.focus import power_focus
from polydip.report import build_report, format_report, pending_lines
from polydip.state import Phase


def public_state(host: Host, s: Session, g: GameRow) -> dict[str, Any]:
    game = host.game(s, g)
    m, pos = game.map, game.position
    powers = host.powers(s, g)
    cd = {p.power for p in powers if p.civil_disorder}
    return {
        "game": g.id,
        "name": g.name,
        "variant": game.variant.name,
        "variant_title": game.variant.title,
        "phase": g.phase,
        "phase_id": phase_id(g),  # what a request names the phase it is made for with
        "phase_title": _title(game),
        "phase_type": pos.phase.type,
        "seq": g.seq,
        "status": g.status,
        "winners": [m.powers[w] for w in game.winners],
        "deadline": _iso(g.deadline),
        "seconds_left": (max(0, int((g.deadline - now_utc()).total_seconds()))
                         if g.deadline else None),
        "paused": g.paused,
        "powers": [{"name": m.powers[i], "centers": len(pos.centers_of(i)),
                    "units": sum(1 for u in pos.units if u.power == i),
                    "civil_disorder": i in cd,
                    "to_order": i in game.powers_to_order()}
                   for i in range(len(m.powers)) if not m.power_neutral[i]],
        "bots": bot_seats.seat_names(s, g, m.powers),  # powers a bot plays (host/bots.py)
        "history": [{"seq": i, "phase": rec.position.phase.name,
                     "title": _title_of(game, rec.position.phase)}
                    for i, rec in enumerate(game.history)],
    }


def player_state(host: Host, s: Session, g: GameRow, p: PowerRow) -> dict[str, Any]:
    state = public_state(host, s, g)
    game = host.pending(s, g, p.power)
    row = host.order_rows(s, g).get(p.power)
    names = default_names(game.map)
    legal = game.legal_orders(p.power) if g.status == "active" else {}
    state.update({
        "power": p.name,
        "orders": list(game.orders.get(p.power, [])),
        "understood": pending_lines(game, p.power, names),
        # the same orders in full names, as the player page echoes them
        "understood_full": pending_lines(game, p.power, "full"),
        "ready": bool(row and row.ready),
        "draw_vote": bool(host.votes(s, g).get(p.power)),
        "to_order": p.power in game.powers_to_order(),
        "legal_orders": numbered_choices(game, p.power, legal),
        "civil_disorder": p.civil_disorder,
        "passages": passages(game, p.power),
        "adjustment": adjustment_due(game, p.power),
        "dislodged": dislodged_units(game, p.power),
        "map_focus": map_focus(game, p.power),
    })
    # orders on the map (mapclick.py): each unit's order now, and the picker's choices placed
    state["unit_orders"] = unit_orders(game, p.power)
    state["map_orders"] = map_orders(game, p.power, state["legal_orders"])
    return state


def map_focus(game: Game, power: int) -> dict[str, Any] | None:
    """Where the page's map opens: the picture's size and the box around `power`'s units
    (or centers) in fractions of it (render/focus.py); None on a map without a board, or
    when the board cannot be read (the map then opens at its top left, as drawn)."""
    try:
        f = power_focus(game, power)
    except PolydipError:
        return None
    if f is None:
        return None
    return {"width": round(f.width), "height": round(f.height),
            "box": ",".join(f"{x:g}" for x in f.box), "label_px": f.label_px}


def adjustment_due(game: Game, power: int) -> dict[str, Any] | None:
    """In an adjustment phase, what `power` has to do: builds or removals due, how many of
    them its pending orders give, and where it may build (full names); None otherwise."""
    m, pos = game.map, game.position
    texts = game.orders.get(power, [])
    combined = pos.phase.type == "R" and game.combined
    if combined:  # its builds are ordered with the retreats (game/combined.py)
        pos = season_end(m, pos)
        texts = [texts[j] for j in split_texts(m, game.position, power, texts)[1]]
    elif pos.phase.type != "A":
        return None
    due = adjustment_counts(m, pos)[power]
    if not due:
        return None
    builds = due > 0
    parsed = ({power: enter_kept(m, texts, [], True)[0]} if combined
              else parse_orders(m, pos.phase, {power: texts})[0])
    given = sum(1 for o in parsed.get(power, [])
                if o.type in ((BUILD, WAIVE) if builds else (DISBAND,)))
    # (a province's id is also the id of its location without a coast)
    return {"kind": "build" if builds else "removal", "due": abs(due), "given": given,
            "sites": [place(m, s) for s in build_sites(m, pos, power)] if builds else [],
            **({"after_retreats": True} if combined else {})}


def dislodged_units(game: Game, power: int) -> list[dict[str, Any]]:
    """In a retreat phase, `power`'s dislodged units: where each stands (full name), where
    its attacker came from, and where it may retreat ([]: it can only disband)."""
    m, pos = game.map, game.position
    if pos.phase.type != "R":
        return []
    return [{"unit": unit(m, d.kind, d.loc), "notation": m.unit_str(d.kind, d.loc),
             "from": place(m, d.attacker) if d.attacker >= 0 else None,
             "retreats": [place(m, r) for r in d.retreats]}
            for d in pos.dislodged if d.power == power]


def numbered_choices(game: Game, power: int, legal: dict[str, list[str]]
                     ) -> dict[str, list[str]]:
    """The picker's choices with one entry per unit: where the power has several units of
    a kind in one space, each gets its number ("F PBS #2", orders/stacked.py), its choices
    written with it, so that a pick orders that unit and no other."""
    m, pos = game.map, game.position
    if pos.phase.type != "M":
        return legal
    units = pos.units
    out: dict[str, list[str]] = {}
    for i, u in enumerate(units):
        if u.power != power:
            continue
        key = m.unit_str(u.kind, u.loc)
        n = number_of(m, units, i)
        if key not in legal:
            continue
        if not n:
            out[key] = legal[key]
            continue
        label = f"{key} #{n}"
        out[label] = [label + c[len(key):] if c.startswith(key + " ") else c
                      for c in legal[key]]
    for key, choices in legal.items():  # anything else (variant orders) as it was
        if key not in out and not any(k.startswith(key + " #") for k in out):
            out[key] = choices
    return out


def passages(game: Game, power: int) -> list[dict[str, Any]]:
    """The passages of the variant that `power` controls now, with the powers it lets
    through (rule option passage_permissions); [] on maps without such passages."""
    m = game.map
    perms = game.options.get("passage_permissions") or {}
    me = m.powers[power]
    return [{"name": name, "allowed": list(perms.get(name, {}).get(me, [])),
             "others": [m.powers[i] for i in range(len(m.powers))
                        if i != power and not m.power_neutral[i]]}
            for name, who in m.rules.passage_controllers(m, game.position).items()
            if who == power]


def gm_state(host: Host, s: Session, g: GameRow) -> dict[str, Any]:
    state = public_state(host, s, g)
    game = host.game(s, g)
    rows = host.order_rows(s, g)
    votes = host.votes(s, g)
    names = default_names(game.map)
    pending = []
    for p in host.powers(s, g):
        view = Game(game.variant, game.map, game.position, game.options,
                    {p.power: list(rows[p.power].lines)} if p.power in rows else {})
        pending.append({"power": p.name, "orders": pending_lines(view, p.power, names),
                        "ready": bool(p.power in rows and rows[p.power].ready),
                        "draw_vote": bool(votes.get(p.power)), "missed": p.missed,
                        "civil_disorder": p.civil_disorder})
    state.update({"pending": pending, "movement_minutes": g.movement_minutes,
                  "retreat_minutes": g.retreat_minutes,
                  "adjustment_minutes": g.adjustment_minutes, "nmr_limit": g.nmr_limit,
                  "options": g.options,
                  # why processing failed last (None: it did not); the GM acts on it
                  "failure": f"processing failed: {g.failure}" if g.failure else None})
    return state


def phase_report(host: Host, s: Session, g: GameRow, seq: int, fmt: str = "text") -> str:
    """The report of processed phase `seq` (0 = the first phase)."""
    if not 0 <= seq < g.seq:
        from polydip.host.service import NotFound

        raise NotFound(f"phase {seq} has not been processed (processed: 0 to {g.seq - 1})")
    game = host.game(s, g, seq + 1)
    rep = build_report(game, game.history[seq], final=seq + 1 == g.seq,
                       names=default_names(game.map))
    return format_report(rep, fmt)


def _title(game: Game) -> str:
    return _title_of(game, game.position.phase)


def _title_of(game: Game, phase: Phase) -> str:
    from polydip.report import phase_title

    return phase_title(game.variant, phase)


def _iso(d: datetime | None) -> str | None:
    return d.isoformat(timespec="seconds") + "Z" if d else None
