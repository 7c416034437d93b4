"""polydip: adjudicate and host Diplomacy games on any map variant."""

from polydip.errors import GameFileError, OrderError, PolydipError, VariantError

__version__ = "0.1.0"

__all__ = ["GameFileError", "OrderError", "PolydipError", "VariantError", "__version__"]
