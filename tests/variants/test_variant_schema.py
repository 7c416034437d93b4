"""The JSON Schema for editors (docs/variant.schema.json) accepts every variant we ship and
rejects what the loader rejects — so it stays true to the format."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from polydip.variants.loader import builtin_names

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).parents[2]
SCHEMA = json.loads((ROOT / "docs" / "variant.schema.json").read_text())
DATA = ROOT / "src" / "polydip" / "variants" / "data"


def files() -> list[Path]:
    return [DATA / f"{n}.toml" for n in builtin_names()] + sorted(
        (Path(__file__).parents[1] / "variants").glob("*.toml"))


@pytest.mark.parametrize("path", files(), ids=lambda p: p.name)
def test_shipped_variants_follow_the_schema(path: Path) -> None:
    jsonschema.validate(tomllib.loads(path.read_text()), SCHEMA)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["provinces"]["PAR"].update(terain="land"), "terain"),
    (lambda d: d["edges"]["land"].append("PAR BUR"), "PAR BUR"),
    (lambda d: d["powers"][0].update(color="red"), "red"),
    (lambda d: d["rules"].update(build_sites={"policy": "anywhere"}), "anywhere"),
])
def test_the_schema_rejects_mistakes(change, message: str) -> None:
    data = tomllib.loads((DATA / "standard.toml").read_text())
    data.setdefault("rules", {})
    change(data)
    with pytest.raises(jsonschema.ValidationError, match=message):
        jsonschema.validate(data, SCHEMA)
