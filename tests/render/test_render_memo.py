"""The on-disk memo of a board's first picture (render/memo.py, issue 28.10): the next
process reads the layout and label placement back instead of working them out, draws the
same picture, and never fails because of the memo."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from polydip.game.game import Game
from polydip.render import memo, picture_svg, raster
from polydip.render.board import board_path
from polydip.variants.loader import load_variant

DATA = Path(__file__).resolve().parents[2] / "src" / "polydip" / "variants" / "data"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "memo"
    monkeypatch.setenv("POLYDIP_CACHE_DIR", str(folder))
    monkeypatch.setattr(memo, "_enabled", True)
    monkeypatch.setattr(memo, "_done", set())
    return folder


def _next_process(g: Game) -> None:
    """What a new process starts with: no memo in the map, nothing done by this module."""
    g.map.caches.clear()
    memo._done.clear()
    raster._PACKED.clear()
    raster._packed_bytes = 0
    raster._LATER.clear()


def _own_variant(tmp_path: Path) -> Game:
    """The standard map as a variant file of one's own, its board file beside it."""
    for name in ("standard.toml", "standard.board.json"):
        shutil.copy(DATA / name, tmp_path / name)
    return Game.new(load_variant(str(tmp_path / "standard.toml")))


def test_the_next_process_reads_the_memo_and_draws_the_same_picture(cache: Path) -> None:
    g = Game.new("standard")
    _next_process(g)
    cold = picture_svg(g)
    files = list(cache.glob("*.pickle"))
    assert len(files) == 1
    _next_process(g)
    key = memo.restore(g.map, board_path(g.variant), 1600)
    assert key is not None and files[0].name == f"{key}.pickle"
    assert ("board", 1600) in g.map.caches.layouts  # read back, not worked out
    # ... and the outlines as cairo's path data, for the PNG: read from their own file
    # when the first of them is drawn (a picture whose base is copied draws none)
    geo = g.map.caches.layouts[("board", 1600)]
    d, d2 = str(geo.province_d[0]), str(geo.province_d[1])
    assert d not in raster._PACKED and list(cache.glob("*.packed"))
    assert raster._packed("M 1 2 L 3 4") is not None and d not in raster._PACKED
    assert raster._packed(d) == raster._pack(d)
    assert raster._PACKED.get(d2) == raster._pack(d2)  # (read with it, not packed)
    assert picture_svg(g) == cold
    # a damaged file of them: the paths are packed as they are drawn
    _next_process(g)
    for f in cache.glob("*.packed"):
        f.write_bytes(b"polydip-render-memo\n" + __import__("zlib").compress(b"junk"))
    memo.restore(g.map, board_path(g.variant), 1600)
    assert raster._packed(d) == raster._pack(d)
    _next_process(g)
    assert picture_svg(g) == cold


def test_a_changed_board_file_is_never_read_from_an_old_memo(cache: Path,
                                                              tmp_path: Path) -> None:
    g = _own_variant(tmp_path)
    board = board_path(g.variant)
    assert board is not None
    picture_svg(g)
    before = memo.memo_key(g.map, board, 1600)
    assert (cache / f"{before}.pickle").is_file()
    # the same board written another way: another file, another key, nothing read back
    board.write_text(json.dumps(json.loads(board.read_text()), indent=1))
    after = memo.memo_key(g.map, board, 1600)
    assert after != before
    _next_process(g)
    assert memo.restore(g.map, board, 1600) == after
    assert ("board", 1600) not in g.map.caches.layouts
    picture_svg(g)
    assert (cache / f"{after}.pickle").is_file()


def test_a_changed_variant_has_its_own_memo(cache: Path, tmp_path: Path) -> None:
    g = _own_variant(tmp_path)
    board = board_path(g.variant)
    assert board is not None
    key = memo.memo_key(g.map, board, 1600)
    g.variant.provinces["PAR"].name = "Lutetia"
    assert memo.memo_key(g.map, board, 1600) != key
    assert memo.memo_key(g.map, board, 800) != memo.memo_key(g.map, board, 1600)


@pytest.mark.parametrize("damage", [b"", b"polydip-render-memo\nnot zlib",
                                    b"\x80\x04garbage", None])
def test_a_damaged_memo_is_worked_out_again(cache: Path, damage: bytes | None) -> None:
    g = Game.new("standard")
    _next_process(g)
    good = picture_svg(g)
    (f,) = cache.glob("*.pickle")
    if damage is None:  # a memo whose content is not what this module keeps
        import pickle
        import zlib

        damage = b"polydip-render-memo\n" + zlib.compress(pickle.dumps(("a", "b", "c")))
    f.write_bytes(damage)
    _next_process(g)
    assert picture_svg(g) == good
    _next_process(g)
    assert memo.restore(g.map, board_path(g.variant), 1600) is not None
    assert ("board", 1600) in g.map.caches.layouts  # written again, whole


def test_a_folder_that_cannot_be_written_is_left_alone(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("POLYDIP_CACHE_DIR", str(blocker / "memo"))
    monkeypatch.setattr(memo, "_enabled", True)
    monkeypatch.setattr(memo, "_done", set())
    g = Game.new("standard")
    _next_process(g)
    svg = picture_svg(g)
    assert svg.startswith("<svg") and blocker.read_text() == "not a folder"


def test_off_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLYDIP_CACHE_DIR", str(tmp_path / "memo"))
    monkeypatch.setattr(memo, "_done", set())
    monkeypatch.setattr(memo, "_enabled", False)  # the library by itself
    g = Game.new("standard")
    _next_process(g)
    picture_svg(g)
    assert not (tmp_path / "memo").exists()
    monkeypatch.setattr(memo, "_enabled", True)
    monkeypatch.setenv("POLYDIP_CACHE_DIR", "off")
    _next_process(g)
    picture_svg(g)
    assert not (tmp_path / "memo").exists()


def test_the_memo_keeps_at_most_max_files(cache: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    monkeypatch.setattr(memo, "MAX_FILES", 2)
    cache.mkdir()
    for n in range(4):
        (cache / f"old{n}.pickle").write_bytes(b"x")
    g = Game.new("standard")
    _next_process(g)
    picture_svg(g)
    assert len(list(cache.glob("*.pickle"))) == 2
    assert list(cache.glob(".memo-*")) == []


def test_render_command_uses_the_memo(cache: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from polydip.cli.main import main

    monkeypatch.setattr(memo, "_enabled", False)
    game = tmp_path / "g.json"
    assert main(["new", "standard", str(game)]) == 0
    Game.load(game).map.caches.clear()
    assert main(["render", str(game), "-o", str(tmp_path / "a.svg")]) == 0
    assert len(list(cache.glob("*.pickle"))) == 1
    Game.load(game).map.caches.clear()
    memo._done.clear()
    assert main(["render", str(game), "-o", str(tmp_path / "b.svg")]) == 0
    assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()


def test_a_placer_read_back_makes_no_candidate_it_has_tried(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from polydip.render import placement

    made = [0]
    real = placement._all_candidates

    def counted(pl: placement.Placer, i: int):  # type: ignore[no-untyped-def]
        for lab in real(pl, i):
            made[0] += 1
            yield lab

    monkeypatch.setattr(placement, "_all_candidates", counted)
    g = Game.new("twentieth_century")
    _next_process(g)
    cold = picture_svg(g)
    first = made[0]
    _next_process(g)
    made[0] = 0
    assert picture_svg(g) == cold
    # the same picture again: every candidate it looks at was tried and kept, or skipped
    # (a province whose candidates were all tried makes none)
    assert made[0] < first // 4


def test_another_polydip_code_has_its_own_memo(cache: Path, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:
    g = Game.new("standard")
    board = board_path(g.variant)
    assert board is not None
    key = memo.memo_key(g.map, board, 1600)
    monkeypatch.setattr(memo, "_code_digest", b"the render code, changed")
    assert memo.memo_key(g.map, board, 1600) != key


def test_no_home_folder_means_no_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("POLYDIP_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    assert memo.cache_dir() is None


def test_outlines_read_back_are_unpickled_only_when_asked_for(cache: Path) -> None:
    from polydip.render import placement

    g = Game.new("twentieth_century")
    _next_process(g)
    picture_svg(g)
    _next_process(g)
    assert memo.restore(g.map, board_path(g.variant), 1600) is not None
    (shapes,) = [v for k, v in g.map.caches.placement.items() if k[0] == "shapes"]
    assert shapes.made == {} and len(shapes.kept) > 10  # (none unpickled yet)
    fresh = placement._Shapes(g.map, g.map.caches.layouts[("board", 1600)])
    first, second = list(shapes.kept)[:2]
    shapes.kept[second] = b"not a pickle"  # (a damaged one is made again)
    for i in (first, second):
        got, want = shapes[i], fresh[i]
        assert (got.box, got.rows, got.small) == (want.box, want.rows, want.small)
        assert i in shapes.made and i not in shapes.kept
