"""Where variant files look for the files they include (`USE x.map`, `base=standard`).

In order: the folder of the including file (the importers add it), the folders given on
the command line (`--search-path DIR`, repeatable) or to `load_variant(search_path=...)`,
the folders of the environment variable POLYDIP_VARIANT_PATH (separated like PATH), then,
when the `parlance` package is installed, its `data/` folder, which holds the
`standard.cfg` that Parterre's variants build on, and last, when the `diplomacy` package is
installed, its `maps/` folder (its 14 `.map` files: `ancmed`, `modern`, `pure`, `world`...).

The same folders are where a saved game of the `diplomacy` package names its map
(`"map": "ancmed"`): `find_named` looks there for `ancmed.toml`, `.map` or `.cfg`.
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
    for f in [*(extra or []), *_command_line, *_from_env(), *_package_folder("parlance", "data"),
              *_package_folder("diplomacy", "maps")]:
        p = Path(f)
        if p not in out:
            out.append(p)
    return out


def _from_env() -> list[Path]:
    return [Path(f) for f in os.environ.get(ENV, "").split(os.pathsep) if f]


def _package_folder(package: str, folder: str) -> list[Path]:
    """`folder` of an installed package (found without importing it: Parlance is old code
    that may not import on this Python, and importing `diplomacy` takes a second)."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    for loc in spec.submodule_search_locations or []:
        data = Path(loc) / folder
        if data.is_dir():
            return [data]
    return []


SUFFIXES = (".toml", ".map", ".cfg")


def find_named(name: str, extra: Iterable[str | Path] | None = None) -> Path | None:
    """The variant file NAME.toml, NAME.map or NAME.cfg in the first folder of the search
    path that holds one (None: none does). A name with a path separator is not looked up."""
    if not name or "/" in name or "\\" in name or name in (".", ".."):
        return None
    for folder in search_path(extra):
        for suffix in SUFFIXES:
            p = folder / f"{name}{suffix}"
            try:
                if p.is_file():
                    return p
            except (OSError, ValueError):
                continue
    return None


HOW_TO_ADD = (f"pass its folder with --search-path DIR, or list it in {ENV} (folders "
              f"separated by '{os.pathsep}'); Parlance's standard.cfg and the diplomacy package's "
              "maps are found by themselves once those packages are installed")


def named_files(extra: Iterable[str | Path] | None = None) -> dict[str, Path]:
    """name -> the variant file `find_named` gives for it, of every NAME.toml, NAME.map or
    NAME.cfg in the search path's folders: the first folder holding one, and in a folder
    the first suffix of SUFFIXES (each folder listed once)."""
    out: dict[str, Path] = {}
    for folder in search_path(extra):
        try:
            files = sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES and p.is_file())
        except OSError:
            continue
        for suffix in SUFFIXES:  # (a name an earlier folder or suffix gave is kept)
            for p in files:
                if p.suffix == suffix:
                    out.setdefault(p.stem, p)
    return out
