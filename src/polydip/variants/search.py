"""Where variant files look for the files they include (`USE x.map`, `base=standard`).

In order: the folder of the including file (the importers add it), the folders given on
the command line (`--search-path DIR`, repeatable) or to `load_variant(search_path=...)`,
the folders of the environment variable POLYDIP_VARIANT_PATH (separated like PATH), and
last, when the `parlance` package is installed, its `data/` folder, which holds the
`standard.cfg` that Parterre's variants build on.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterable
from pathlib import Path

ENV = "POLYDIP_VARIANT_PATH"

# folders the command line adds for this process (cli sets it from --search-path)
_command_line: list[Path] = []


def set_command_line_path(folders: Iterable[str | Path]) -> None:
    _command_line[:] = [Path(f) for f in folders]


def search_path(extra: Iterable[str | Path] | None = None) -> list[Path]:
    """The folders to look in, in order (duplicates left out)."""
    out: list[Path] = []
    for f in [*(extra or []), *_command_line, *_from_env(), *_parlance_data()]:
        p = Path(f)
        if p not in out:
            out.append(p)
    return out


def _from_env() -> list[Path]:
    return [Path(f) for f in os.environ.get(ENV, "").split(os.pathsep) if f]


def _parlance_data() -> list[Path]:
    """parlance/data of an installed Parlance (found without importing it: Parlance is old
    code that may not import on this Python)."""
    try:
        spec = importlib.util.find_spec("parlance")
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    for loc in spec.submodule_search_locations or []:
        data = Path(loc) / "data"
        if data.is_dir():
            return [data]
    return []


HOW_TO_ADD = (f"pass its folder with --search-path DIR, or list it in {ENV} (folders "
              f"separated by '{os.pathsep}'); Parlance's standard.cfg is found by itself once "
              "the parlance package is installed")
