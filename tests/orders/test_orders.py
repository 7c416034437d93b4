"""The order parser reads the notations players, the DATC and the diplomacy package use."""

from __future__ import annotations

import pytest

from polydip.compile import compile_map
from polydip.errors import OrderError
from polydip.game.game import Game
from polydip.orders.parser import parse_order
from polydip.variants.loader import builtin_names, load_variant

M = compile_map(load_variant("standard"))


def fmt(text: str, phase: str = "M") -> str:
    return parse_order(M, text, phase).format(M)


@pytest.mark.parametrize(("text", "expected"), [
    # DATC case-file style (jDip / godip)
    ("F nth-pic", "F NTH - PIC"),
    ("A bud S A ser-rum", "A BUD S A SER - RUM"),
    ("F nth C A lon-nwy", "F NTH C A LON - NWY"),
    ("A lon-nwy via convoy", "A LON - NWY VIA"),
    ("F gol-spa/sc", "F LYO - SPA/SC"),
    ("F mid-spa/nc", "F MAO - SPA/NC"),
    ("A nat-nrg", "A NAO - NWG"),
    # diplomacy package style
    ("A PAR - BUR", "A PAR - BUR"),
    ("F STP/SC - BOT", "F STP/SC - BOT"),
    ("A LVP - EDI VIA", "A LVP - EDI VIA"),
    ("A PAR H", "A PAR H"),
    ("F NTH C A LON - BEL", "F NTH C A LON - BEL"),
    # the DATC text's own words
    ("F North Sea Convoys A Yorkshire - Yorkshire", "F NTH C A YOR - YOR"),
    ("A Liverpool Supports A Yorkshire - Yorkshire", "A LVP S A YOR - YOR"),
    ("F Spain(nc) - Mid-Atlantic Ocean", "F SPA/NC - MAO"),
    ("F Mid-Atlantic Ocean - Spain(sc)", "F MAO - SPA/SC"),
    ("F St Petersburg(south coast) - Gulf of Bothnia", "F STP/SC - BOT"),
    ("A London - Belgium via Convoy", "A LON - BEL VIA"),
    ("F Trieste Supports F Trieste", "F TRI S F TRI"),
    ("A Munich Hold", "A MUN H"),
    # players' prose
    ("A Paris -> Burgundy", "A PAR - BUR"),
    ("army paris moves to burgundy", "A PAR - BUR"),
    ("F Spain (north coast) - Gascony", "F SPA/NC - GAS"),
    ("A Paris supports A Marseilles to Burgundy", "A PAR S A MAR - BUR"),
    ("a par s mar - bur", "A PAR S MAR - BUR"),
    ("Fleet London holds.", "F LON H"),
    ("A Yorkshire - North Sea - Belgium", "A YOR - BEL VIA"),  # DATC 4.A.6 path
    ("A St. Petersburg - Moscow", "A STP - MOS"),
    ("F Gulf of Lyons - Tyrrhenian Sea", "F LYO - TYS"),
])
def test_movement_notations(text: str, expected: str) -> None:
    assert fmt(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("F IRI R MAO", "F IRI R MAO"),
    ("F tri-alb", "F TRI R ALB"),  # a move written in a retreat phase is a retreat
    ("A Paris retreats to Burgundy", "A PAR R BUR"),
    ("F LVP D", "F LVP D"),
    ("Disband A Paris", "A PAR D"),
])
def test_retreat_notations(text: str, expected: str) -> None:
    assert fmt(text, "R") == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("A PAR B", "A PAR B"),
    ("Build A kie", "A KIE B"),
    ("build fleet St Petersburg (north coast)", "F STP/NC B"),
    ("Remove pic", "PIC D"),
    ("Remove F Gulf of Lyon", "F LYO D"),
    ("F LIV D".replace("LIV", "LVP"), "F LVP D"),
    ("WAIVE", "WAIVE"),
    ("waive", "WAIVE"),
])
def test_adjustment_notations(text: str, expected: str) -> None:
    assert fmt(text, "A") == expected


def test_unknown_place_suggests_the_likely_one() -> None:
    with pytest.raises(OrderError) as err:
        parse_order(M, "A Pari - Burgundy")
    assert "did you mean" in str(err.value)
    assert "Paris" in str(err.value)
    assert "A Pari - Burgundy" in str(err.value)


def test_unknown_destination_names_the_order() -> None:
    with pytest.raises(OrderError, match="unknown destination 'burgandy'"):
        parse_order(M, "A Paris - Burgandy")


def test_trailing_garbage_is_reported() -> None:
    with pytest.raises(OrderError, match="unexpected"):
        parse_order(M, "A PAR - BUR please")


def test_support_in_retreat_phase_is_rejected_with_a_hint() -> None:
    with pytest.raises(OrderError, match="retreat phase"):
        parse_order(M, "A SER S F TRI - ALB", "R")


def test_convoy_needs_a_destination() -> None:
    with pytest.raises(OrderError, match="destination"):
        parse_order(M, "F NTH C A LON")


def test_unit_type_may_be_omitted_or_wrong() -> None:
    # DATC 4.C.1/4.C.2: the order stands; the unit's real kind is used when it is bound
    assert parse_order(M, "PAR - BUR").kind is None
    assert parse_order(M, "F PAR - BUR").kind == M.kind_index["F"]
    from polydip.game.game import Game

    for written in ("PAR - BUR", "F PAR - BUR"):
        g = Game.new("standard")
        assert g.set_orders("France", [written, "A MAR S F PAR - BUR"]) == []
        out = g.process()
        results = {r.text: r.result for r in out.results}
        assert results["A PAR - BUR"] == []  # named as the army it is
        assert [r for t, r in results.items() if t.startswith("A MAR S")] == [[]]
        assert "A BUR" in {g.map.unit_str(u.kind, u.loc) for u in g.position.units}


def test_the_fast_reading_of_canonical_orders_equals_the_full_parser() -> None:
    """Orders in the diplomacy package's notation take a fast path; it must read every legal
    order exactly as the full parser does."""
    import random

    from polydip.game.game import Game
    from polydip.orders.canonical import read_canonical
    from polydip.orders.parser import _parse_full
    from polydip.play import random_orders

    g = Game.new("standard")
    rng = random.Random(4)
    seen = 0
    while g.position.phase.year < 1905:
        phase = g.position.phase.type
        for lst in g.legal_orders().values():
            for text in lst:
                fast = read_canonical(g.map, text, phase)
                assert fast is not None, text
                assert fast == _parse_full(g.map, text, phase), text
                seen += 1
        for p, lst in random_orders(g.map, g.position, rng).items():
            g.set_orders(p, lst)
        g.process()
    assert seen > 2000
    assert read_canonical(g.map, "A Paris - Burgundy", "M") is None  # not canonical


def test_a_text_kept_as_its_own_description_is_what_order_format_writes() -> None:
    """The canonical reader keeps a text written exactly as Order.format writes its order
    as the order's description (what a phase's results name); a text written otherwise
    (more spaces, a tab) reads to the same order but is never kept so."""
    import random

    from polydip.game.game import Game
    from polydip.orders.canonical import described_orders, known_order, order_memo
    from polydip.play import random_orders

    g = Game.new("standard")
    m = g.map
    m.caches.clear()
    rng = random.Random(7)
    kept = 0
    while g.position.phase.year < 1903:
        phase = g.position.phase.type
        memo = order_memo(m, phase)
        for lst in g.legal_orders().values():
            for text in lst:
                for written in (text, text.replace(" ", "  ", 1), "\t".join(text.split()),
                                f" {text}"):
                    o = known_order(memo, m, written, phase)
                    assert o is not None, written
                    got = described_orders(m).get(written)
                    if written != text:
                        assert got is None, written
                    elif got is not None:
                        assert got[0] is o and got[1] == o.format(m) == text
                        kept += 1
        for p, lst in random_orders(m, g.position, rng).items():
            g.set_orders(p, lst)
        g.process()
    assert kept > 1000


def test_convoy_routes_on_simple_chains_match_a_brute_force_search() -> None:
    """Which fleets lie on some simple convoy chain is found through biconnected components;
    it must agree with trying every chain, on many random sea graphs."""
    import random

    from polydip.adjudication.convoy import _block_of_edge

    rng = random.Random(1)
    for _ in range(1000):
        n = rng.randint(3, 9)
        s, t = n, n + 1
        adj: list[set[int]] = [set() for _ in range(n + 2)]
        for a in range(n + 2):
            for b in range(a + 1, n + 2):
                if {a, b} != {s, t} and rng.random() < 0.3:
                    adj[a].add(b)
                    adj[b].add(a)
        nodes = set(range(n))
        found: set[int] = set()

        def walk(v: int, path: list[int], adj=adj, found=found, nodes=nodes, t=t) -> None:
            if t in adj[v]:
                found.update(path)
            for w in adj[v]:
                if w in nodes and w not in path:
                    walk(w, [*path, w])

        for w in adj[s]:
            if w in nodes:
                walk(w, [w])
        touch = [tuple(sorted(x)) for x in adj]
        assert _block_of_edge(touch, nodes, s, t) == found


@pytest.mark.parametrize("variant", sorted(builtin_names()))
def test_fleets_on_routes_from_the_block_cut_tree_match_a_brute_force_search(variant) -> None:
    """One geometry per fleet configuration answers for every origin and destination which
    fleets lie on some simple convoy chain (adjudication/convoy.FleetGeometry); it must agree
    with trying every chain, for random sets of fleets on the map's seas."""
    import random

    from polydip.adjudication.convoy import FleetGeometry, bits

    m = Game.new(variant).map
    touch = m.convoy_touch
    seas = [p for p in range(m.n_prov) if m.convoy_prov[p]]
    coasts = [p for p in range(m.n_prov) if touch[p] and not m.convoy_prov[p]]
    assert coasts
    rng = random.Random(2)
    chains = 0  # routes of two fleets or more among those checked
    for _ in range(25):
        # a cluster of seas grown at random from one, and maybe a few seas anywhere
        cluster = [rng.choice(seas)]
        for _ in range(rng.randint(0, 8)):
            near = [q for p in cluster for q in touch[p] if q not in cluster]
            if near:
                cluster.append(rng.choice(near))
        fleets = frozenset(cluster + rng.sample(seas, rng.randint(0, 2)))
        g = FleetGeometry(m, fleets)
        ends = [p for p in coasts if any(q in fleets for q in touch[p])]
        for _ in range(60 if len(ends) >= 2 else 0):
            s, t = rng.sample(ends, 2)
            found: set[int] = set()

            def walk(v: int, path: list[int], found=found, t=t, fleets=fleets) -> None:
                if v in touch[t]:
                    found.update(path)
                for w in touch[v]:
                    if w in fleets and w not in path:
                        walk(w, [*path, w])

            for w in touch[s]:
                if w in fleets:
                    walk(w, [w])
            assert set(bits(g.routes(s, t))) == found, (sorted(fleets), s, t)
            chains += len(found) >= 2
    assert chains >= 20


@pytest.mark.parametrize("variant", sorted(builtin_names()))
def test_routes_and_necessary_of_one_origin_at_once_match_one_destination_at_a_time(
        variant) -> None:
    """Legal orders ask for an army's routes and necessary fleets to every destination in one
    call (convoy.routes_and_necessary, which reads what depends on the origin once); the
    answers are those of FleetGeometry.routes and necessary_mask asked one at a time, each
    with the per-map caches emptied, for random sets of fleets."""
    import random

    from polydip.adjudication.convoy import (
        FleetGeometry,
        bits,
        necessary_mask,
        routes_and_necessary,
    )

    m = Game.new(variant).map
    touch = m.convoy_touch
    seas = [p for p in range(m.n_prov) if m.convoy_prov[p]]
    coasts = [p for p in range(m.n_prov) if touch[p] and not m.convoy_prov[p]]
    rng = random.Random(3)
    nonempty = 0
    for _ in range(30):
        fleets = frozenset(rng.sample(seas, rng.randint(1, min(len(seas), 14))))
        for origin in rng.sample(coasts, min(len(coasts), 6)):
            dests = bits(FleetGeometry(m, fleets).reach(origin))
            m.caches.clear()
            routes, necs = routes_and_necessary(m, origin, dests, FleetGeometry(m, fleets))
            for q, r, n in zip(dests, routes, necs, strict=True):
                m.caches.clear()
                g = FleetGeometry(m, fleets)
                assert (r, n) == (g.routes(origin, q), necessary_mask(m, origin, q, fleets, g))
                nonempty += r != 0
    assert nonempty >= 20


@pytest.mark.parametrize("variant", sorted(builtin_names()))
def test_support_of_convoy_texts_kept_apart_are_those_of_their_codes(variant) -> None:
    """Legal orders read the texts of supports of convoyed moves through
    OrderTable.sc_text, which makes them itself and keeps them apart from the table's lazy
    texts: each is the text of its code (`text`, what `texts[code]` gives) and of its order
    object, the first time it is asked and when read back."""
    from polydip.orders.table import OrderTable

    t = OrderTable(Game.new(variant).map)
    first, last = t.support_convoyed, t.size
    assert last > first
    codes = range(first, last, max(1, (last - first) // 400))
    for _ in range(2):
        for c in codes:
            assert t.sc_text(c) == t.text(c) == t.orders[c].text, c
