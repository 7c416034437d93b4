"""`polydip simulate`: deterministic shards, resumable runs, games the diplomacy package
replays, every seed variant, the players' promises (docs/simulate.md)."""

from __future__ import annotations

import gzip
import json
import os
import random
from pathlib import Path

import pytest

from polydip.cli.main import main
from polydip.errors import PolydipError
from polydip.fast import FastGame
from polydip.orders.model import MOVE, SUPPORT
from polydip.simulate import Job, simulate
from polydip.simulate.players import coherent_player, load_player, random_player

SEED_VARIANTS = ["standard", "wita", "lad1890", "twentieth_century", "war_in_north_america"]


def _games(path: Path) -> list[dict]:
    with gzip.open(path) as f:
        return [json.loads(line) for line in f]


def _shards(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.glob("games-*.jsonl.gz"))}


def test_a_shard_is_played_in_pieces_by_every_worker_with_the_same_bytes(tmp_path):
    """One shard of 21 games is three pieces (10, 10, 1) that two workers share: the shard
    is their gzip members in order, the same bytes as one process plays, read as one."""
    job = Job("standard", {}, seed=3, games=21, player="random", max_year=1901, shard_size=21)
    simulate(job, tmp_path / "a", workers=1)
    simulate(job, tmp_path / "b", workers=2)
    raw = _shards(tmp_path / "a")["games-00000.jsonl.gz"]
    assert raw == _shards(tmp_path / "b")["games-00000.jsonl.gz"]
    assert raw.count(b"\x1f\x8b\x08\x00\x00\x00\x00\x00") == 3  # one member a piece
    games = _games(tmp_path / "b" / "games-00000.jsonl.gz")
    assert [g["id"] for g in games] == [f"polydip-standard-{s}" for s in range(3, 24)]


def test_same_seed_same_bytes_serial_or_parallel(tmp_path):
    job = Job("standard", {}, seed=7, games=6, player="random", max_year=1904, shard_size=2)
    a = simulate(job, tmp_path / "a", workers=1)
    b = simulate(job, tmp_path / "b", workers=2)
    shards = _shards(tmp_path / "a")
    assert list(shards) == ["games-00000.jsonl.gz", "games-00001.jsonl.gz",
                            "games-00002.jsonl.gz"]
    assert shards == _shards(tmp_path / "b")
    assert a["shards"] == b["shards"]
    assert a["counts"]["games"] == 6 and a["complete"]
    # the gzip header holds no time and no name: the bytes are the games' alone
    raw = shards["games-00000.jsonl.gz"]
    assert raw[4:8] == b"\0\0\0\0" and raw[3] & 0x08 == 0


def test_a_piece_is_the_same_bytes_with_orjson_or_without_at_zlib_level_3(monkeypatch):
    """A piece's gzip member: its games' lines compressed at zlib level 3 (as cheap as level
    1, bench/README.md), the same bytes whether orjson wrote the lines or not (the nodes of a
    Ray cluster need not all have it)."""
    import io

    from polydip.game import jsonbytes
    from polydip.simulate.shards import play_piece

    job = Job("standard", {}, seed=5, games=3, player="random", max_year=1903, shard_size=3)
    fast = play_piece(job, 0, 0)
    monkeypatch.setattr(jsonbytes, "_orjson", None)
    assert play_piece(job, 0, 0).data == fast.data
    lines = gzip.decompress(fast.data)
    assert lines.count(b"\n") == 3
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=3) as gz:
        gz.write(lines)
    assert fast.data == buf.getvalue()


def test_a_worker_keeps_the_writers_memo_across_pieces():
    """The writer's memo (texts worked out once) lives as long as the worker process, not
    one piece; a piece is the same bytes with a fresh memo."""
    from polydip.simulate import shards

    job = Job("standard", {}, seed=9, games=12, player="random", max_year=1902, shard_size=12)
    shards._MEMO.clear()
    shards.play_piece(job, 0, 0)
    memo = shards._MEMO[0]
    second = shards.play_piece(job, 0, 1)
    assert shards._MEMO[0] is memo and memo.bound
    shards._MEMO.clear()
    assert shards.play_piece(job, 0, 1).data == second.data
    assert shards._MEMO[0] is not memo


def test_game_i_plays_seed_plus_i(tmp_path):
    """Shard boundaries do not change the games: game i is seed + i wherever it is."""
    simulate(Job("standard", {}, 3, 4, "random", 1903, 4), tmp_path / "one")
    simulate(Job("standard", {}, 5, 2, "random", 1903, 1), tmp_path / "later")
    four = _games(tmp_path / "one" / "games-00000.jsonl.gz")
    assert four[2] == _games(tmp_path / "later" / "games-00000.jsonl.gz")[0]
    assert four[3] == _games(tmp_path / "later" / "games-00001.jsonl.gz")[0]
    assert four[0]["id"] == "polydip-standard-3" and four[0] != four[1]


def test_rerun_skips_finished_shards_and_redoes_missing_ones(tmp_path):
    job = Job("standard", {}, 1, 4, "random", 1902, 2)
    out = tmp_path / "out"
    simulate(job, out)
    before = _shards(out)
    (out / "games-00001.jsonl.gz").unlink()
    kept = out / "games-00000.jsonl.gz"
    stamp = kept.stat().st_mtime_ns
    seen = []
    manifest = simulate(job, out, progress=lambda g, p, resumed=False: seen.append(resumed))
    assert _shards(out) == before
    assert kept.stat().st_mtime_ns == stamp  # not rewritten
    assert seen[0] is True and seen.count(False) == 2  # one shard resumed, two games played
    assert manifest["complete"] and manifest["counts"]["games"] == 4
    assert not list(out.glob(".*tmp"))


def test_rerun_with_other_settings_is_refused(tmp_path):
    simulate(Job("standard", {}, 1, 2, "random", 1902, 2), tmp_path)
    with pytest.raises(PolydipError, match=r"another simulation .*seed"):
        simulate(Job("standard", {}, 2, 2, "random", 1902, 2), tmp_path)


def test_a_rerun_may_write_the_seat_lists_powers_in_another_case(tmp_path):
    """docs/simulate.md: powers are named in any case; a rerun written
    "USA=..." where the first run wrote "usa=..." continues it (it was refused as another
    simulation). Another player is still another simulation."""
    simulate(Job("standard", {}, 1, 2, "France=hold,random", 1901, 2), tmp_path)
    m = simulate(Job("standard", {}, 1, 2, " FRANCE = hold ,random", 1901, 2), tmp_path)
    assert m["complete"] and m["counts"]["games"] == 2
    with pytest.raises(PolydipError, match=r"another simulation .*player"):
        simulate(Job("standard", {}, 1, 2, "FRANCE=random,random", 1901, 2), tmp_path)


def test_manifest_describes_the_job(tmp_path):
    m = simulate(Job("standard", {"civil_disorder": "1982"}, 10, 3, "hold", 1902, 2),
                 tmp_path)
    on_disk = json.loads((tmp_path / "manifest.json").read_text())
    assert on_disk == m
    assert (m["variant"], m["player"], m["seeds"], m["max_year"]) == \
        ("standard", "hold", [10, 12], 1902)
    # the package's reading of an unconvoyed VIA move is added (runner.PACKAGE_READINGS)
    assert m["options"] == {"civil_disorder": "1982", "adjacent_convoy": "fallback"}
    assert m["polydip"]
    assert [s["games"] for s in m["shards"]] == [2, 1]
    import hashlib

    for s in m["shards"]:
        assert hashlib.sha256((tmp_path / s["file"]).read_bytes()).hexdigest() == s["sha256"]
    # hold: nobody moves, so no center changes hands and the year limit ends every game
    assert m["counts"]["year_limit"] == 3
    last = _games(tmp_path / "games-00000.jsonl.gz")[0]["phases"][-1]
    assert last["name"] == "S1903M"


def _replay_in_diplomacy(saved: dict):
    from diplomacy import Game

    game = Game(map_name=saved["map"], rules=saved["rules"])
    for ph in saved["phases"][:-1]:
        if ph["name"] == "COMPLETED":
            break
        assert game.get_current_phase() == ph["name"]
        for power, orders in ph["orders"].items():
            game.set_orders(power, orders)
        game.process()
    return game


@pytest.mark.parametrize("player", ["random", "coherent", "bot"])
def test_games_load_and_replay_in_the_diplomacy_package(tmp_path, player):
    """The shards are the diplomacy package's saved games: it loads them, and playing their
    orders again in the package reaches the same final position, with no option given (a
    simulation plays the package's reading of a 'via' move with no convoy by default)."""
    pytest.importorskip("diplomacy")
    from diplomacy.utils.export import from_saved_game_format

    simulate(Job("standard", {}, 100, 3, player, 1912, 3), tmp_path)
    for saved in _games(tmp_path / "games-00000.jsonl.gz"):
        loaded = from_saved_game_format(saved)
        last = saved["phases"][-1]
        assert loaded.get_current_phase() == last["name"]
        game = _replay_in_diplomacy(saved)
        state = game.get_state()
        assert game.get_current_phase() == last["name"]
        for key in ("units", "centers"):
            assert {p: sorted(v) for p, v in state[key].items()} == \
                {p: sorted(v) for p, v in last["state"][key].items()}, (saved["id"], key)


@pytest.mark.parametrize("variant", SEED_VARIANTS)
@pytest.mark.parametrize("player", ["random", "coherent", "bot"])
def test_every_seed_variant_simulates(tmp_path, variant, player):
    """A few games of each seed variant to the year limit (POLYDIP_SIM_FULL=1: 100 games
    each, to the default limit of 30 years)."""
    full = bool(os.environ.get("POLYDIP_SIM_FULL"))
    games = 100 if full else 2
    game0 = FastGame.new(variant)
    year = game0.position.phase.year
    job = Job(variant, {}, 0, games, player, None if full else year + 2, 50)
    m = simulate(job, tmp_path, workers=2 if full else 1)
    assert m["complete"] and m["counts"]["games"] == games
    assert m["counts"]["phases"] >= games
    saved = _games(tmp_path / "games-00000.jsonl.gz")[0]
    assert saved["map"] == (variant if variant != "standard" else "standard")
    assert saved["phases"][0]["name"] == game0.phase


def _moves_of_a_phase(variant: str, player, seed: int):
    """A random position of a variant (random play to a movement phase), and the codes the
    player gives there."""
    rng = random.Random(seed)
    fg = FastGame.new(variant)
    for _ in range(rng.randrange(0, 20)):
        fg.step(random_player(fg, rng))
        if fg.is_over:
            break
    while fg.phase_type != "M" and not fg.is_over:
        fg.step(random_player(fg, rng))
    return fg, player(fg, rng)


@pytest.mark.parametrize("variant", ["standard", "wita"])
def test_coherent_player_never_attacks_or_bounces_itself(variant):
    """Its moves go to no province its own units hold or move to; its supports back a move
    or hold of its own that was ordered."""
    for seed in range(40):
        fg, codes = _moves_of_a_phase(variant, coherent_player, seed)
        if fg.is_over:
            continue
        m, pos, orders = fg.m, fg.position, fg.table.orders
        assert len(codes) == len(fg.items())
        for p in range(len(m.powers)):
            mine = [(i, c) for (q, i), c in zip(fg.items(), codes, strict=True) if q == p]
            held = {m.loc_prov[pos.units[i].loc] for i, _ in mine}
            dest: dict[int, int] = {}
            for i, c in mine:
                here = m.loc_prov[pos.units[i].loc]
                o = orders[c] if c >= 0 else None
                dest[here] = m.loc_prov[o.target] if o is not None and o.type == MOVE \
                    else here
            targets = [dest[h] for h in dest]
            assert len(targets) == len(set(targets)), "two own units meet"
            for i, c in mine:
                o = orders[c] if c >= 0 else None
                if o is None or c not in fg.legal()[fg.items().index((p, i))]:
                    assert o is None or not fg.legal()[fg.items().index((p, i))]
                    continue
                if o.type == MOVE:
                    assert m.loc_prov[o.target] not in held
                if o.type == SUPPORT:
                    them = m.loc_prov[o.aux_loc]
                    assert them in held
                    to = m.loc_prov[o.target] if o.target is not None else them
                    assert dest[them] == to


def test_random_player_builds_each_site_once():
    rng = random.Random(4)
    for seed in range(30):
        rng = random.Random(seed)
        fg = FastGame.new("standard")
        while fg.phase_type != "A" or not fg.items():
            fg.step(random_player(fg, rng))
        codes = random_player(fg, rng)
        t = fg.table
        for p in range(len(fg.m.powers)):
            mine = [c for (q, _), c in zip(fg.items(), codes, strict=True)
                    if q == p and c != t.waive]
            assert len({fg.m.loc_prov[t.orders[c].loc] for c in mine}) == len(mine)


def sample_player(game, rng):
    """A player of this test module, named to the command as module:function."""
    return [codes[-1] if codes else -1 for codes in game.legal()]


def test_module_function_player(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    assert load_player("test_simulate:sample_player") is not None
    out = tmp_path / "o"
    assert main(["simulate", "--games", "1", "--out", str(out), "--max-year", "1901",
                 "--player", "test_simulate:sample_player", "--quiet"]) == 0
    first = _games(out / "games-00000.jsonl.gz")[0]["phases"][0]
    fg = FastGame.new("standard")
    expected = sorted(fg.text(c[-1]) for c in fg.legal())
    assert sorted(o for lst in first["orders"].values() for o in lst) == expected


def short_player(game, rng):
    return [-1]


def raising_player(game, rng):
    raise KeyError("my bug")


def foreign_player(game, rng):  # (every item given the first unit's first order)
    first = game.legal()[0][0]
    return [first] * len(game.items())


@pytest.mark.parametrize(("player", "message"), [
    ("short_player", "it returned 1 order codes for the 22 items of the phase"),
    ("raising_player", "it raised KeyError: 'my bug' (test_simulate.py, line"),
    ("foreign_player", "its orders: order code"),
    ("FRANCE=test_simulate:raising_player,random", "it raised KeyError"),
])
def test_a_players_mistake_is_named_as_its_own(tmp_path, monkeypatch, capsys, player,
                                                message):
    """A module:function player that raises or returns the wrong codes: an error naming
    the player, the game's seed and the phase (before: "internal error ... This is a bug
    in polydip", with none of them)."""
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    spec = player if "=" in player else f"test_simulate:{player}"
    assert main(["simulate", "--games", "1", "--out", str(tmp_path / "o"), "--quiet",
                 "--player", spec]) == 1
    err = capsys.readouterr().err
    assert f"the player {spec} (game of seed 0, S1901M): " in err and message in err
    assert "bug in polydip" not in err


@pytest.mark.parametrize(("args", "message"), [
    (["--options", "{bad"], "--options: not valid JSON"),
    (["--options", "[1]"], "--options: write a JSON object"),
    (["--options", '{"convoy_paradox": "x"}'], "option convoy_paradox"),
    (["--player", "nobody"], "unknown player 'nobody'"),
    (["--player", "no_such_module_x:f"], "cannot import 'no_such_module_x'"),
    (["--variant", "no_such_variant"], "no_such_variant"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--max-year", "1800"], "--max-year 1800 is before the game starts"),
    (["--games", "0"], "--games must be at least 1"),
])
def test_bad_input_gets_a_clear_error(tmp_path, capsys, args, message):
    argv = ["simulate", "--games", "1", "--out", str(tmp_path / "o"), "--quiet", *args]
    if "--games" in args:
        argv[1:3] = []
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_an_output_folder_that_cannot_be_made_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "a_file").write_text("x")
    out = tmp_path / "a_file" / "runs"  # (under a file: no folder can be made there)
    assert main(["simulate", "--games", "1", "--out", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"--out {out}: cannot make the directory" in err
    assert "internal error" not in err and "Traceback" not in err


def test_command_writes_shards_and_says_what_it_did(tmp_path, capsys):
    out = tmp_path / "o"
    assert main(["simulate", "--games", "3", "--seed", "2", "--out", str(out),
                 "--max-year", "1902", "--shard-size", "2", "--workers", "2"]) == 0
    err = capsys.readouterr().err
    assert "3 games (3 year limit)" in err and "2 shards" in err
    assert sorted(p.name for p in out.iterdir()) == \
        ["games-00000.jsonl.gz", "games-00001.jsonl.gz", "manifest.json"]


def test_ray_missing_is_a_clear_error(tmp_path, monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    assert main(["simulate", "--games", "1", "--out", str(tmp_path / "o"), "--ray", "auto",
                 "--quiet"]) == 1
    assert "--ray needs Ray: pip install 'polydip[ray]'" in capsys.readouterr().err
