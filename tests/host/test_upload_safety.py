"""An uploaded variant reads no file of the server, is bounded, and never answers a 500.

Issue 26, finding 1: `POST /api/games {"variant":"x.map","variant_text":"USE /etc/./passwd\\n"}`
answered with a line of /etc/passwd (and /proc/self/cmdline became a power's name); a
Parlance `.cfg` `base=` did the same; errors told whether a path exists and named the
server's folders. Finding 6: a TOML upload nested ~500 deep answered a 500 with ~3,000
traceback lines; a NUL in a game or power name answered a 500 on PostgreSQL.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")

from variants.test_variant_untrusted import SMALL_MAP  # a DPjudge map of its own

from polydip.variants import untrusted as bounds

STANDARD = (resources.files("polydip.variants") / "data" / "standard.toml").read_text()


def post_games(client, body: dict):
    """POST /api/games with the body as ASCII JSON (a lone surrogate sent as its escape)."""
    return client.post("/api/games", content=json.dumps(body),
                       headers={"content-type": "application/json"})


def upload(client, filename: str, text: str, **more):
    return post_games(client, {"variant": filename, "variant_text": text, **more})


def refused(client, filename: str, text: str, status: int = 400, **more) -> str:
    r = upload(client, filename, text, **more)
    assert r.status_code == status, r.text
    return r.json()["detail"]


def _leaks(detail: str, *secrets: str) -> bool:
    return any(s in detail for s in ("root:", "/etc/", "/proc/", "/bin/", *secrets))


@pytest.mark.parametrize("filename,text", [
    ("x.map", "USE /etc/./passwd\n"),
    ("x.map", "USE ../../../../../../../etc/./passwd\n"),
    ("x.map", "# a header\nMAP /proc/self/./cmdline\n"),
    ("x.map", "USES /etc/hostname/./\n"),
    ("x.map", "MAP standard\n"),
    ("x.cfg", "[variant]\nbase=../../../../../../etc/dpkg/dpkg\n"),
    ("x.cfg", "[variant]\nbase=/etc/dpkg/dpkg\n"),
    ("x.cfg", "[variant]\nbase=standard\n"),
], ids=["passwd", "dotdot", "cmdline", "uses", "map-standard", "cfg-dotdot", "cfg-abs",
        "cfg-standard"])
def test_an_upload_includes_no_file(client, tmp_path, filename, text):
    detail = refused(client, filename, text)
    assert detail.startswith(f"{filename}:{text.count(chr(10))}: ")
    assert "include" in detail
    assert not _leaks(detail, str(tmp_path))


def test_whether_an_included_path_exists_is_not_told(client, tmp_path):
    real = tmp_path / "real.map"
    real.write_text(SMALL_MAP, encoding="utf-8")
    there = refused(client, "x.map", f"USE {tmp_path}/./real\n")
    missing = refused(client, "x.map", f"USE {tmp_path}/./nothere\n")
    assert there == missing
    assert str(tmp_path) not in there


def test_no_error_names_a_server_path(client, tmp_path):
    for filename, text in [("bad.toml", "[variant\n"), ("bad.map", "LAND ALP ABUTS ZZZ\n"),
                           ("bad.cfg", "junk\n"), ("../../bad.toml", "x = 1\n")]:
        detail = refused(client, filename, text)
        assert detail.startswith("bad.")
        assert str(tmp_path) not in detail and "/variants/" not in detail


def test_uploads_of_their_own_still_make_games(client, tmp_path):
    r = upload(client, "small.map", SMALL_MAP)
    assert r.status_code == 201, r.text
    assert set(r.json()["players"]) == {"Red", "Blue"}
    token = r.json()["players"]["Red"].rsplit("/", 1)[1]
    pid = client.get(f"/api/play/{token}").json()["phase_id"]
    r = client.post(f"/api/play/{token}/orders", json={"text": "A ALP - GAM", "phase": pid})
    assert r.json()["understood"] == ["A ALP - GAM"]
    # the folder of the kept uploads is read in untrusted mode, when a game is loaded again
    from polydip.errors import VariantError
    from polydip.variants.loader import load_variant

    kept = next((tmp_path / "data" / "variants").glob("*.map"))
    evil = kept.with_name("0" * 32 + ".map")
    evil.write_text(f"USE {kept.name}\n", encoding="utf-8")
    with pytest.raises(VariantError, match=r"^0+\.map:1: USE includes another file"):
        load_variant(evil)


@pytest.mark.parametrize("text", [
    "x = " + "[" * 500 + "]" * 500 + "\n",
    "x = " + "{a = " * 500 + "1" + "}" * 500 + "\n",
    "a" + ".a" * 2000 + " = 1\n",
], ids=["arrays", "inline-tables", "dotted-keys"])
def test_deep_toml_is_a_400(client, text):
    assert "nested more than 16 levels deep" in refused(client, "deep.toml", text)


def test_a_lone_surrogate_is_a_4xx(client):
    """(the API's own validation refuses it; the loader would too)"""
    r = upload(client, "s.toml", STANDARD.replace('"France"', '"Fra\ud800nce"'))
    assert r.status_code == 422
    r = post_games(client, {"variant": "standard", "name": "my\ud800game"})
    assert r.status_code == 422


@pytest.mark.parametrize("bad", ["\u0000", "\u001b", "\u0085"])
def test_control_characters_are_refused(client, bad):
    assert "control character" in refused(client, "s.toml", STANDARD.replace(
        'name = "France"', f'name = "Fra{bad}nce"'))
    escaped = f"\\u{ord(bad):04x}"
    assert "control character" in refused(client, "s.toml", STANDARD.replace(
        'name = "France"', f'name = "Fra{escaped}nce"'))
    assert "control character" in refused(client, "s.map", SMALL_MAP.replace("RED", f"R{bad}D"))
    r = post_games(client, {"variant": "standard", "name": f"my{bad}game"})
    assert r.status_code == 400 and "control character" in r.json()["detail"]


def _toml(provinces: int = 3, powers: int = 2, edges: int = 0) -> str:
    out = ['[variant]\nname = "big"\n']
    for i in range(powers):
        out.append(f'[[powers]]\nname = "Power{i}"\nletter = "{chr(65 + i % 26)}"\n'
                   f'homes = ["P{i % provinces}"]\n')
    out += [f'[provinces.P{i}]\nname = "Place {i}"\nterrain = "land"\n'
            f"supply_center = true\n" for i in range(provinces)]
    pairs = [f'"P{i}-P{j}"' for i in range(provinces) for j in range(i + 1, provinces)]
    out.append(f"[edges]\nland = [{', '.join(pairs[:edges])}]\n")
    return "\n".join(out)


@pytest.mark.parametrize("kwargs,what", [
    ({"provinces": bounds.MAX_PROVINCES + 1}, "provinces"),
    ({"provinces": 110, "edges": bounds.MAX_EDGES + 1}, "edges"),
    ({"provinces": 50, "powers": bounds.MAX_POWERS + 1}, "powers"),
])
def test_oversize_counts_are_a_400(client, kwargs, what):
    detail = refused(client, "big.toml", _toml(**kwargs))
    assert detail.startswith(f"big.toml: {kwargs[what]:,} {what}; an uploaded variant has "
                             "at most ")


def test_oversize_strings_and_maps_are_a_400(client):
    assert "(at most 100)" in refused(client, "s.toml", STANDARD.replace(
        '"France"', '"' + "F" * 101 + '"'))
    assert "more than 40 powers" in refused(client, "p.map", "LAND ALP ABUTS\n" + "".join(
        f"POWER{i} ALP\n" for i in range(41)))
    assert "more than 1,000 units" in refused(client, "u.map", "LAND ALP ABUTS\nRED ALP\n"
                                              + "A ALP\n" * 1001)


def test_the_largest_built_in_variant_uploads(client):
    text = (resources.files("polydip.variants") / "data" / "twentieth_century.toml").read_text()
    r = upload(client, "twentieth_century.toml", text)
    assert r.status_code == 201, r.text


def test_data_folder_untouched_by_a_refused_upload(client, tmp_path):
    refused(client, "x.map", "USE /etc/./passwd\n")
    folder = Path(tmp_path / "data" / "variants")
    assert not folder.exists() or not any(folder.iterdir())


def test_a_long_title_names_the_game_cut_to_the_column(client):
    """With no game name the variant's title names the game (at most 200 characters are
    kept): a longer one failed PostgreSQL's column."""
    title = "T" * 5_000
    r = upload(client, "s.toml", STANDARD.replace(
        'title = "Diplomacy"', f'title = "{title}"').replace('name = "standard"',
                                                             'name = "long_title"', 1))
    assert r.status_code == 201, r.text
    gm = r.json()["gm_token"]
    assert client.get(f"/api/gm/{gm}").json()["name"] == title[:200]


@pytest.mark.parametrize("abbr,start", [("SPRINGTIMEXXXXXXXXXX", "SPRINGTIMEXXXXXXXXXX1901M"),
                                        ("S", "S99999999999999999999M")],
                         ids=["season", "year"])
def test_a_long_phase_name_is_a_400(client, abbr, start):
    """A phase's name is stored in 20 characters: a longer one failed PostgreSQL."""
    text = STANDARD.replace('abbr = "S"', f'abbr = "{abbr}"').replace(
        'start = "S1901M"', f'start = "{start}"')
    assert "[calendar." in refused(client, "s.toml", text)


def test_later_errors_and_game_files_name_no_server_folder(client, tmp_path):
    """A rule module's error names the upload as `<upload>/NAME`; the game file the GM
    downloads records no path of the server."""
    text = STANDARD.replace("[victory]", "[rules.nope]\na = 1\n\n[victory]")
    detail = refused(client, "s.toml", text)
    assert detail.startswith("<upload>/s.toml: [rules.nope] unknown rule")
    r = upload(client, "small.map", SMALL_MAP)
    gm = r.json()["gm_token"]
    for what in ("game.json", "diplomacy.json"):
        got = client.get(f"/api/gm/{gm}/{what}")
        assert got.status_code == 200
        assert str(tmp_path) not in got.text and "/variants/" not in got.text


@pytest.mark.parametrize("filename,text", [("small.map", SMALL_MAP), ("s.toml", STANDARD)],
                         ids=["map", "toml"])
def test_an_upload_kept_file_is_written_again_in_its_format(client, tmp_path, filename, text):
    """The kept file of an upload may go missing (a new data folder): the game loads again
    from the text in the database, in the upload's format."""
    r = upload(client, filename, text)
    token = r.json()["players"]["Red" if filename.endswith(".map") else "France"]
    for f in (tmp_path / "data" / "variants").iterdir():
        f.unlink()
    client.app.state.host._cache.clear()
    r = client.get(f"/api/play/{token.rsplit('/', 1)[1]}")
    assert r.status_code == 200, r.text
    kept = list((tmp_path / "data" / "variants").iterdir())
    assert [f.suffix for f in kept] == [Path(filename).suffix]


@pytest.mark.parametrize("name,why", [
    ("../../../etc/passwd", "not a plain name"),
    ("C:\\\\variants\\\\mine", "not a plain name"),
    (".hidden", "not a plain name"),
    ("standard", "as a built-in variant is"),
    ("LAD1890", "as a built-in variant is"),
])
def test_an_upload_is_named_as_no_path_and_no_other_variant(client, name, why):
    """A downloaded game names its variant by the upload's [variant] name, and polydip
    finds a variant by it: a path would make `polydip show game.json` read another file, a
    built-in's name open the built-in variant (other rules, other powers) in its place. The
    built-in's own file, unchanged, may be uploaded under its name."""
    text = STANDARD.replace('title = "Diplomacy"', 'title = "House rules"').replace(
        'name = "standard"', f'name = "{name}"', 1)
    assert why in refused(client, "s.toml", text)
    assert upload(client, "s.toml", STANDARD).status_code == 201
