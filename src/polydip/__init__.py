"""polydip: adjudicate and host Diplomacy games on any map variant."""

import os

if os.environ.get("POLYDIP_PURE", "") not in ("", "0"):  # docs/speed.md
    from polydip import _pure

    _pure.use_sources()

from polydip.errors import GameFileError, OrderError, PolydipError, VariantError

__version__ = "0.1.0"


def compiled() -> bool:
    """Whether the compiled build's modules are running (docs/speed.md): they are built
    together, so the lowest of them, `state`, tells."""
    from polydip import state

    return not state.__file__.endswith(".py")


__all__ = ["GameFileError", "OrderError", "PolydipError", "VariantError", "__version__",
           "compiled"]
