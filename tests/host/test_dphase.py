"""The host processes Latin American Diplomacy's undivided D Phase once (issue 28, item 4):
"D: Second Retreat (/Build/Disband) Phase: (December-March)" — a player's D orders hold its
retreats and its builds together, and the builds are carried out right after the retreats,
in the same processing. With "Or by request from any player the D Phase will be divided"
(the option divided_retreats), D1 and D2 are two phases, as before."""

from __future__ import annotations

from pathlib import Path

import pytest

import polydip

from .test_api import Table

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")


def lad_from_c() -> str:
    """lad1890 starting in C1890M, Peru's army in Lima one supported move away from
    dislodging Chile's army in Arequipa."""
    text = (Path(polydip.__file__).parent / "variants" / "data" / "lad1890.toml").read_text(
        encoding="utf-8")
    for old, new in (('start = "D1890A"', 'start = "C1890M"'),
                     ('"A STG", "A ANT", "F CON"', '"A STG", "A ARE", "F CON"'),
                     ('"A LIM", "A CUZ", "F TRU"', '"A LIM", "A CUZ", "F NAZ"'),
                     # (a name of its own: the host refuses a changed built-in's name)
                     ('name = "lad1890"', 'name = "lad1890_c"')):
        assert old in text
        text = text.replace(old, new)
    return text


def table(client, **options) -> Table:
    t = Table(client, variant="lad_c.toml", variant_text=lad_from_c(), options=options)
    t.order("Peru", "A LIM - ARE\nF NAZ S A LIM - ARE")
    assert t.process() == "D1890R"
    return t


def test_the_host_processes_an_undivided_d_once(client, tmp_path, monkeypatch):
    t = table(client)
    # the downloaded game names its variant, lad1890_c: the GM keeps the uploaded file where
    # polydip looks for variants
    (tmp_path / "lad1890_c.toml").write_text(lad_from_c(), encoding="utf-8")
    monkeypatch.setenv("POLYDIP_VARIANT_PATH", str(tmp_path))
    got = t.order("Chile", "A ARE R TAR\nBuild A ANT")
    assert got["problems"] == [] and got["orders"] == ["A ARE R TAR", "Build A ANT"]
    s = t.state("Chile")
    assert s["to_order"] and s["adjustment"]["after_retreats"]
    assert s["adjustment"]["given"] == 1
    assert "build Army Antofagasta (ANT) (after the retreats)" in s["understood_full"]
    assert "carried out right after them" in client.get(f"/play/{t.tokens['Chile']}").text
    assert t.process() == "A1891M"
    g = t.game()
    assert [r.position.phase.name for r in g.history[-2:]] == ["D1890R", "D1890A"]
    m = g.map
    chile = {m.unit_str(u.kind, u.loc) for u in g.position.units if u.power == g.power("Chile")}
    assert {"A TAR", "A ANT"} <= chile


def test_undo_steps_back_to_the_retreats_with_the_builds(client):
    t = table(client)
    t.order("Chile", "A ARE R TAR\nBuild A ANT")
    assert t.process() == "A1891M"
    r = client.post(f"/api/gm/{t.gm}/undo", json={"phase": t.pid()})
    assert r.status_code == 200, r.text
    assert r.json()["phase"] == "D1890R"
    assert t.state("Chile")["orders"] == ["A ARE R TAR", "Build A ANT"]


def test_the_host_divides_d_on_request(client):
    t = table(client, divided_retreats=True)
    got = t.order("Chile", "A ARE R TAR\nBuild A ANT")
    assert [p["code"] for p in got["problems"]] == ["wrong_phase"]
    assert t.process() == "D1890A"
