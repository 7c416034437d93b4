"""The loader's untrusted mode (polydip.variants.untrusted): a variant file from someone else
reads no other file, is bounded before any work, and its errors show nothing of the server.

Issue 26, finding 1: "An uploaded DPjudge .map may include other files (USE/MAP); the loader
follows absolute and ../ paths (the .map suffix it adds is bypassed with /./), and their lines
come back in error messages and as power names. A Parlance .cfg base= has the same flaw."
Finding 6: "a TOML upload nested ~500 deep (RecursionError ...); a NUL character in a game or
power name".
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from polydip.errors import PolydipError, VariantError
from polydip.oneshot import adjudicate_request
from polydip.variants import loader
from polydip.variants import untrusted as bounds
from polydip.variants.loader import builtin_names, load_variant, load_variant_text

TINY = (Path(__file__).parents[1] / "variants" / "tiny.toml").read_text(encoding="utf-8")
# a DPjudge map of its own: two powers on three provinces
SMALL_MAP = """\
Alpha = alp
Beta = bet
Gamma = gam
LAND ALP ABUTS BET GAM
LAND BET ABUTS ALP GAM
LAND GAM ABUTS ALP BET
RED (RED:R) ALP
A ALP
BLUE (BLUE:B) BET
A BET
UNOWNED GAM
"""
SMALL_CFG = """\
[variant]
name=small
[powers]
RED=Red,Red
BLU=Blue,Blue
[provinces]
ALP=Alpha
BET=Beta
GAM=Gamma
[homes]
RED=ALP
BLU=BET
UNO=GAM
[positions]
RED=AMY ALP
BLU=AMY BET
[borders]
ALP=AMY BET GAM
BET=AMY ALP GAM
GAM=AMY ALP BET
"""


@pytest.fixture(autouse=True)
def _own_untrusted_folders(monkeypatch):
    monkeypatch.setattr(loader, "_UNTRUSTED", [])


def refused(text: str, filename: str) -> str:
    with pytest.raises(VariantError) as exc:
        load_variant_text(text, filename)
    return str(exc.value)


# ---- includes ------------------------------------------------------------------------------

@pytest.mark.parametrize("line", ["USE /etc/./passwd", "USE ../../../../../../etc/./passwd",
                                  "USES /proc/self/./cmdline", "MAP /etc/./passwd",
                                  "MAP standard", "USE standard.map"])
def test_a_map_includes_no_file(line: str) -> None:
    msg = refused(f"# header\n{line}\n", "x.map")
    assert msg.startswith("x.map:2: ")
    assert "root:" not in msg and "/etc" not in msg and "/proc" not in msg


def test_an_include_beside_the_file_is_refused_too(tmp_path: Path) -> None:
    """Whether the included file exists changes nothing: the answer is the same."""
    (tmp_path / "inc.map").write_text(SMALL_MAP, encoding="utf-8")
    top = tmp_path / "top.map"
    top.write_text("USE inc.map\n", encoding="utf-8")
    assert load_variant(top).name == "top"  # the default mode reads what the user names
    with pytest.raises(VariantError) as there:
        load_variant(top, sandbox=True)
    top.write_text("USE nothere.map\n", encoding="utf-8")
    with pytest.raises(VariantError) as missing:
        load_variant(top, sandbox=True)
    assert str(there.value) == str(missing.value)
    assert str(tmp_path) not in str(there.value)


def test_the_search_path_is_never_consulted(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "inc.map").write_text(SMALL_MAP, encoding="utf-8")
    monkeypatch.setenv("POLYDIP_VARIANT_PATH", str(tmp_path))
    refused("USE inc.map\n", "x.map")
    refused("[variant]\nbase=inc\n", "x.cfg")


@pytest.mark.parametrize("base", ["/etc/dpkg/dpkg", "../../../../etc/dpkg/dpkg", "standard"])
def test_a_cfg_base_is_refused(base: str) -> None:
    msg = refused(f"[variant]\nname=x\nbase={base}\n", "x.cfg")
    assert msg.startswith("x.cfg:3: ")
    assert "/etc" not in msg and "dpkg" not in msg


def test_a_map_and_a_cfg_of_their_own_load() -> None:
    v = load_variant_text(SMALL_MAP, "small.map")
    assert [p.name for p in v.powers] == ["Red", "Blue"]
    v = load_variant_text(SMALL_CFG, "small.cfg")
    assert [p.name for p in v.powers] == ["Red", "Blue"]


def test_no_svg_is_read_beside_an_untrusted_map(tmp_path: Path) -> None:
    """The importer takes coordinates from svg/NAME.svg beside a map; not for an upload."""
    (tmp_path / "svg").mkdir()
    (tmp_path / "svg" / "small.svg").write_text(
        '<jdipNS:PROVINCE name="alp"><jdipNS:UNIT x="1" y="2"/></jdipNS:PROVINCE>',
        encoding="utf-8")
    (tmp_path / "small.map").write_text(SMALL_MAP, encoding="utf-8")
    assert load_variant(tmp_path / "small.map").provinces["ALP"].coords == (1.0, 2.0)
    assert load_variant(tmp_path / "small.map", sandbox=True).provinces["ALP"].coords is None


def test_files_of_an_untrusted_folder_load_untrusted_by_path(tmp_path: Path) -> None:
    """A game file names an upload by its path; loading it again follows no include."""
    (tmp_path / "inc.map").write_text(SMALL_MAP, encoding="utf-8")
    up = tmp_path / "uploads"
    up.mkdir()
    (up / "abc.map").write_text("USE ../inc.map\n", encoding="utf-8")
    assert load_variant(up / "abc.map").name == "abc"
    loader.untrusted_folder(up)
    with pytest.raises(VariantError, match=r"^abc\.map:1: "):
        load_variant(up / "abc.map")


def test_errors_show_the_file_name_not_the_server_path(tmp_path: Path) -> None:
    sub = tmp_path / "secret-place"
    sub.mkdir()
    (sub / "bad.toml").write_text("[variant\n", encoding="utf-8")
    with pytest.raises(VariantError) as exc:
        load_variant(sub / "bad.toml", sandbox=True)
    assert str(exc.value).startswith("bad.toml: ")
    assert "secret-place" not in str(exc.value)
    assert refused("[variant\n", "/srv/x/../y/up.toml").startswith("up.toml: ")


def test_a_built_in_name_in_sandbox_reads_no_file_of_that_name(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "standard").write_text("USE /etc/./passwd\n", encoding="utf-8")
    v = load_variant("standard", sandbox=True)
    assert v.path == "<built-in standard>"
    with pytest.raises(VariantError, match="no variant named"):
        load_variant("nothere", sandbox=True)


# ---- the command line's --no-variant-files --------------------------------------------------

def test_no_variant_files_reads_no_file(tmp_path: Path, monkeypatch) -> None:
    import polydip.oneshot

    monkeypatch.chdir(tmp_path)
    # (maps compiled by earlier tests of this process are cached by name: start afresh)
    monkeypatch.setattr(polydip.oneshot, "_VARIANTS", {})
    (tmp_path / "standard").write_text("USE /etc/./passwd\n", encoding="utf-8")
    (tmp_path / "real.toml").write_text(TINY, encoding="utf-8")
    out = adjudicate_request({"variant": "standard", "phase": "S1901M"}, variant_files=False)
    assert "error" not in out and "Austria" in out["centers"]
    there = adjudicate_request({"variant": "real.toml"}, variant_files=False)
    missing = adjudicate_request({"variant": "nothere.toml"}, variant_files=False)
    assert there["error"].replace("real", "nothere") == missing["error"]
    # the same name with variant files allowed is the file (and is not served from the cache
    # to the other mode)
    assert "error" in adjudicate_request({"variant": "standard"}, variant_files=True)
    assert "error" not in adjudicate_request({"variant": "standard"}, variant_files=False)


def test_the_command_line_with_no_variant_files_reads_no_file(tmp_path, monkeypatch,
                                                              capsys) -> None:
    """`polydip adjudicate --no-variant-files`: no request line makes it read a file."""
    import json

    from polydip.cli.main import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "standard").write_text("USE /etc/./passwd\n", encoding="utf-8")
    (tmp_path / "real.map").write_text(SMALL_MAP, encoding="utf-8")
    lines = [{"variant": "standard", "phase": "S1901M"}, {"variant": "real.map"},
             {"variant": "nothere.map"}, {"variant": "/etc/passwd"}, {"variant": "/etc/nothere"}]
    (tmp_path / "requests.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines),
                                            encoding="utf-8")
    main(["adjudicate", "--no-variant-files", "requests.jsonl"])
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert "Austria" in out[0]["centers"]
    assert out[1]["error"].replace("real", "nothere") == out[2]["error"]
    assert out[3]["error"].replace("passwd", "nothere") == out[4]["error"]
    assert not any("root:" in x.get("error", "") for x in out)


# ---- bounds --------------------------------------------------------------------------------

def test_every_built_in_variant_is_within_the_limits() -> None:
    data = resources.files("polydip.variants") / "data"
    for name in builtin_names():
        text = (data / f"{name}.toml").read_text(encoding="utf-8")
        assert load_variant_text(text, f"{name}.toml").name == name


@pytest.mark.parametrize("text", [
    "x = " + "[" * 500 + "]" * 500 + "\n",
    "x = " + "{a = " * 500 + "1" + "}" * 500 + "\n",
    "x = " + "[" * 100_000 + "]" * 100_000 + "\n",
], ids=["arrays", "inline-tables", "100k"])
def test_deep_toml_is_refused_in_every_mode(text: str) -> None:
    from polydip.variants.loader import parse_variant

    for untrusted in (False, True):
        with pytest.raises(VariantError, match=r":1: nested more than 16 levels deep"):
            parse_variant(text, "deep.toml", untrusted=untrusted)


def test_brackets_in_strings_and_comments_do_not_count() -> None:
    text = TINY.replace('title = "Tiny test map"',
                        'title = "' + "[" * 40 + '" # ' + "{" * 40 + "\n"
                        'notes = """' + "[" * 40 + '"""')
    assert load_variant_text(text, "tiny.toml").title == "[" * 40


@pytest.mark.parametrize("text", [
    "x = " + '"\\' * 900_000,  # strings left open, one after another
    "x = " + '"""a\\' * 390_000,
    "x = " + "'''a" * 490_000,
], ids=["basic", "multi-line", "literal"])
def test_the_nesting_check_is_linear(text: str) -> None:
    """The scan before the parser skips strings; one it cannot close ends its line (else it
    would start again at every quote: hours for 2 MB)."""
    import time

    t = time.process_time()
    with pytest.raises(VariantError, match="not valid TOML"):
        load_variant_text(text, "q.toml")
    assert time.process_time() - t < 10


def test_deep_dotted_keys_are_refused() -> None:
    msg = refused("a" + ".a" * 3000 + " = 1\n", "d.toml")
    assert "nested more than 16 levels" in msg


@pytest.mark.parametrize("where", ['name = "Red"', 'name = "Alpha One"', 'letter = "R"',
                                   'units = ["F A1", "A A2"]'])
@pytest.mark.parametrize("char", ["\\u0000", "\\n", "\\u001b", "\\u2028"])
def test_control_characters_in_names_are_refused(where: str, char: str) -> None:
    """A NUL breaks PostgreSQL; a line break breaks order texts and reports."""
    key, _, value = where.partition(" = ")
    bad = value[:-2] + char + value[-2:] if value.endswith('"]') else value[:-1] + char + '"'
    text = TINY.replace(where, f"{key} = {bad}", 1)
    assert text != TINY
    for untrusted in (False, True):
        with pytest.raises(VariantError, match=r"control character"):
            load_variant_text(text, "tiny.toml", untrusted=untrusted)


@pytest.mark.parametrize("bad", ["\x00", "\x1b", "\x85", "\u2028", "\ud800"])
def test_control_characters_in_the_text_are_refused(bad: str) -> None:
    msg = refused(TINY.replace("Alpha One", f"Alpha{bad}One"), "tiny.toml")
    assert msg.startswith(f"tiny.toml:{TINY[:TINY.index('Alpha One')].count(chr(10)) + 1}: ")
    msg = refused(SMALL_MAP.replace("RED (RED:R)", f"R{bad}D (RED:R)"), "small.map")
    assert msg.startswith("small.map:7: ")


def _toml_with(provinces: int = 3, powers: int = 2, units: int = 1, edges: int = 0) -> str:
    lines = ['[variant]\nname = "big"\n']
    for i in range(powers):
        us = ", ".join(f'"A P{j % provinces}"' for j in range(i * units, (i + 1) * units))
        lines.append(f'[[powers]]\nname = "Power{i}"\nletter = "{chr(65 + i % 26)}"\n'
                     f"units = [{us}]\n")
    for i in range(provinces):
        lines.append(f'[provinces.P{i}]\nname = "Place {i}"\nterrain = "land"\n')
    pairs = [f'"P{i}-P{j}"' for i in range(provinces) for j in range(i + 1, provinces)]
    lines.append(f"[edges]\nland = [{', '.join(pairs[:edges])}]\n")
    return "\n".join(lines)


@pytest.mark.parametrize("args,what", [
    ({"provinces": bounds.MAX_PROVINCES + 1}, "provinces"),
    ({"provinces": 110, "edges": bounds.MAX_EDGES + 1}, "edges"),
    ({"powers": bounds.MAX_POWERS + 1, "units": 0}, "powers"),
    ({"provinces": 10, "powers": 2, "units": 501}, "starting units"),
])
def test_counts_beyond_the_limits_are_refused(args: dict, what: str) -> None:
    text = _toml_with(**args)
    msg = refused(text, "big.toml")
    assert f" {what}; an uploaded variant has at most " in msg
    load_variant_text(text, "big.toml", untrusted=False)  # a local file may be bigger


def test_long_names_and_strings_are_refused() -> None:
    assert "characters (at most 100)" in refused(
        TINY.replace('"Alpha One"', '"' + "x" * 101 + '"'), "tiny.toml")
    assert "(at most 100,000)" in refused(
        TINY.replace('title = "Tiny test map"', 'title = "' + "x" * 100_001 + '"'), "t.toml")
    assert "the file" not in refused("x" * (bounds.MAX_TEXT + 1), "t.toml")


def test_a_map_beyond_the_limits_is_refused_while_read() -> None:
    powers = "".join(f"POWER{i} ALP\n" for i in range(bounds.MAX_POWERS + 1))
    assert "more than 40 powers" in refused("LAND ALP ABUTS\n" + powers, "p.map")
    units = "RED ALP\n" + "A ALP\n" * (bounds.MAX_UNITS + 1)
    assert "more than 1,000 units" in refused("LAND ALP ABUTS\n" + units, "u.map")
    places = "".join(f"LAND P{i}\n" for i in range(bounds.MAX_PLACES + 1))
    assert "places" in refused(places, "l.map")
    assert "words on one line" in refused("LAND ALP ABUTS " + "X " * 1_000 + "\n", "w.map")
    assert "more than 10,000 lines" in refused("# x\nVICTORY 3\n" * 10_001, "v.map")
    assert "words on one line" in refused("[borders]\nALP=AMY " + "X " * 1_000 + "\n",
                                          "w.cfg")


@pytest.mark.parametrize("line", ["DROP ALP", "AMEND ALP ABUTS BET", "LAND ALP ABUTS BET",
                                  "land alp ABUTS BET"])
def test_a_map_changes_no_place_declared_before(line: str) -> None:
    """DROP, AMEND and a second declaration change an included map; an upload has none
    (and each would cost a pass over every place)."""
    assert refused(SMALL_MAP + line + "\n", "small.map").startswith("small.map:12: ")


@pytest.mark.parametrize("shape", [
    # a power's owned centers repeated, line after line
    "RED P\n" + "".join("OWNS " + " ".join(f"C{(i * 9 + j) % 3000}" for j in range(9))
                        + "\n" for i in range(9_999)),
    # the most places, each with long neighbour lists
    "".join(f"LAND P{i} ABUTS " + " ".join(f"P{(i + k) % 2999}" for k in range(1, 33))
            + "\n" for i in range(2_999)),
    # homes given and taken back
    "LAND P ABUTS\n" + "".join(
        "RED " + " ".join(f"H{(i * 9 + j) % 3000}" for j in range(9))
        + "\nUNOWNED " + " ".join(f"-H{(i * 9 + j) % 3000}" for j in range(9)) + "\n"
        for i in range(4_999)),
], ids=["owns", "places", "homes"])
def test_an_adversarial_map_is_read_quickly(shape: str) -> None:
    """Within the limits, the DPjudge reader's work on about 600 KB stays small (its lists
    are searched line by line: the limits keep them short)."""
    import time

    t = time.process_time()
    with pytest.raises(PolydipError):
        load_variant_text(shape, "slow.map")
    assert time.process_time() - t < 10


@pytest.mark.parametrize("old,new,key", [
    ('name = "Red"', 'name = ""', "powers[0].name"),
    ('name = "Red"', 'name = "  "', "powers[0].name"),
    ("[provinces.A1]", "[calendar]\nseasons = []\n\n[provinces.A1]", "calendar.seasons"),
], ids=["empty-power", "blank-power", "no-season"])
def test_an_empty_power_name_or_year_is_an_error_not_a_crash(old: str, new: str,
                                                              key: str) -> None:
    """(an IndexError, a 500 at the host, before)"""
    for untrusted in (False, True):
        with pytest.raises(VariantError, match=rf"\[{re.escape(key)}\]"):
            load_variant_text(TINY.replace(old, new, 1), "tiny.toml", untrusted=untrusted)
