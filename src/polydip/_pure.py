"""POLYDIP_PURE=1: run polydip's .py files even where the compiled build installed its
modules beside them (docs/speed.md)."""

from __future__ import annotations

import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import FileFinder, ModuleSpec, SourceFileLoader
from typing import Any


class _Sources(MetaPathFinder):
    """Finds polydip's submodules among the .py files only."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if not name.startswith("polydip.") or not path:
            return None
        for folder in path:
            spec = FileFinder(folder, (SourceFileLoader, [".py"])).find_spec(name)
            if spec is not None:
                return spec
        return None


def use_sources() -> None:
    if not any(isinstance(f, _Sources) for f in sys.meta_path):
        sys.meta_path.insert(0, _Sources())
