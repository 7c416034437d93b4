"""polydip.encode: positions, orders and maps as numpy arrays for learning (docs/encoding.md).

- `DipNetEncoder` (polydip.encode.dipnet): the standard map's board (81 x 35) and previous
  orders (81 x 40) as DipNet defines them;
- `Vocabulary` (polydip.encode.vocab): DipNet's order vocabulary, built from the map by its
  rules, with a mapping both ways to the map's order codes;
- `BoardEncoder` (polydip.encode.board): the same encoding for any variant: its locations,
  unit kinds, terrain and rule state as planes;
- `adjacency`, `edge_index`, `edge_types` (polydip.encode.graph): the map as a graph.

Needs numpy (the `rl` extra: `pip install 'polydip[rl]'`).
"""

from polydip.errors import PolydipError

try:
    from polydip.encode.board import BoardEncoder, board_encoder
    from polydip.encode.dipnet import DipNetEncoder, dipnet_encoder
    from polydip.encode.graph import adjacency, edge_index, edge_types
    from polydip.encode.vocab import Vocabulary, vocabulary
except ImportError as exc:  # pragma: no cover - depends on what is installed
    raise PolydipError(f"polydip.encode needs numpy (the rl extra): pip install 'polydip[rl]' "
                       f"({exc})") from None

__all__ = ["BoardEncoder", "DipNetEncoder", "Vocabulary", "adjacency", "board_encoder",
           "dipnet_encoder", "edge_index", "edge_types", "vocabulary"]
