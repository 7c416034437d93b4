"""What an agent of the arena is shown: the board in words, its legal orders, the messages
it may read, and what the reader made of its last orders (as plain JSON data, and as text
for a prompt)."""

from __future__ import annotations

from typing import Any

from polydip.adjudication.adjustments import adjustment_counts
from polydip.game.game import Game
from polydip.game.press import Message
from polydip.orders.describe import place, unit
from polydip.variants.calendar import season_name

PHASE_KINDS = {"M": "movement", "R": "retreats", "A": "adjustments"}


def observation(game: Game, power: int, inbox: list[Message], feedback: dict[str, Any] | None,
                round_: int, rounds: int, results: dict[str, list[str]] | None = None
                ) -> dict[str, Any]:
    """The observation of `power` (JSON data: keys in docs/arena.md)."""
    m, pos = game.map, game.position
    name = m.powers[power]
    board = []
    for p, who in enumerate(m.powers):
        units = [unit(m, u.kind, u.loc) for u in pos.units if u.power == p]
        centers = [place(m, c) for c in pos.centers_of(p)]
        if units or centers:
            board.append({"power": who, "neutral": bool(m.power_neutral[p]),
                          "units": units, "centers": centers})
    dislodged = [{"unit": unit(m, d.kind, d.loc), "retreats": [place(m, r) for r in d.retreats]}
                 for d in pos.dislodged if d.power == power]
    due = adjustment_counts(m, pos)[power] if pos.phase.type == "A" else 0
    legal = game.legal_orders(power) if power in game.powers_to_order() else {}
    return {
        "power": name,
        "variant": game.variant.title,
        "phase": pos.phase.name,
        "phase_name": season_name(game.variant.calendar, pos.phase),
        "phase_kind": PHASE_KINDS[pos.phase.type],
        "round": round_,
        "rounds": rounds,
        "board": board,
        "dislodged": dislodged,
        "builds_due": due,
        "legal_orders": legal,
        "messages": [{"from": x.sender, "to": "all" if x.is_global else list(x.recipients),
                      "phase": x.phase, "text": x.text} for x in inbox],
        "feedback": feedback,
        "last_results": results or {},
        "powers": [p for i, p in enumerate(m.powers) if not m.power_neutral[i]],
    }


def observation_text(obs: dict[str, Any]) -> str:
    """The observation in words, for a prompt."""
    out = [f"You are {obs['power']} in {obs['variant']}. {obs['phase_name']} ({obs['phase']}),"
           f" round {obs['round']} of {obs['rounds']}."]
    out.append("The board:")
    for b in obs["board"]:
        tag = " (neutral)" if b["neutral"] else ""
        out.append(f"  {b['power']}{tag}: {len(b['centers'])} centers "
                   f"({', '.join(b['centers']) or 'none'}); units: "
                   f"{', '.join(b['units']) or 'none'}")
    if obs["last_results"]:
        out.append("Your orders last phase and their results:")
        out += [f"  {o}: {', '.join(w) or 'succeeded'}" for o, w in obs["last_results"].items()]
    for d in obs["dislodged"]:
        out.append(f"Your {d['unit']} was dislodged; it may retreat to "
                   f"{', '.join(d['retreats']) or 'nowhere (it will be disbanded)'}.")
    if obs["builds_due"] > 0:
        out.append(f"You may build {obs['builds_due']} unit(s).")
    elif obs["builds_due"] < 0:
        out.append(f"You must remove {-obs['builds_due']} unit(s).")
    if obs["legal_orders"]:
        out.append("Your legal orders:")
        for u, orders in obs["legal_orders"].items():
            out.append(f"  {u}: " + "; ".join(orders))
    else:
        out.append("You have nothing to order this phase.")
    if obs["messages"]:
        out.append("Messages you may read:")
        for x in obs["messages"]:
            to = x["to"] if isinstance(x["to"], str) else ", ".join(x["to"])
            out.append(f"  [{x['phase']}] {x['from']} to {to}: {x['text']}")
    fb = obs["feedback"]
    if fb:
        out.append(f"Orders taken so far: {'; '.join(fb['taken']) or 'none'}.")
        for pr in fb["not_taken"]:
            out.append(f"  Not taken: line {pr['line']} {pr['text']!r}: {pr['reason']}"
                       + (f" ({pr['suggestion']})" if pr["suggestion"] else ""))
    out.append("Answer with your orders, one a line, and any messages to other powers.")
    return "\n".join(out)
