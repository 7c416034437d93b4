"""The integer fast path for bots, simulations and RL environments (docs/fastpath.md).

FastGame plays a game by order codes: each phase's legal orders are lists of codes of the
map's order table (OrderTable, polydip.orders.table), and a phase is processed from one code
per unit (or per build and removal) without making or reading an order string. The string
API (polydip.game.Game) runs the same adjudication and lists the same legal orders.
"""

from polydip.fast.game import FastGame
from polydip.orders.table import FAMILIES, OrderTable, order_table

__all__ = ["FAMILIES", "FastGame", "OrderTable", "order_table"]
