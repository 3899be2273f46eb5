"""engine/board.py: grid adjacency, walls/doors/corners, composite boards, seeded picks, paths and
distances, Line of Sight as the rulebooks' examples describe it, divide_evenly, and every built-in
board loading from the JSON form of the pack."""

from __future__ import annotations

import json
import math
import random
import re
from functools import cache
from pathlib import Path

import pytest

from spawnpit.compiler import compile_paths, dumps
from spawnpit.engine.board import EVERYTHING, OPENINGS, Board, BoardError, divide_evenly
from spawnpit.resources import builtin_paths

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def board(bid: str, *, blocks=(), **props) -> dict:
    """A board object shaped as the compiler lowers it (pairs as lists, blocks with props)."""
    return {"id": bid, "kind": "board", "system": "t", "title": bid, "props": props, "blocks": list(blocks)}


def building(bid: str, *spaces: str, **props) -> dict:
    return {"id": bid, "kind": "building", "title": bid, "props": {"spaces": list(spaces), **props}}


def build(*objects: dict, top: str | None = None, rng=None) -> Board:
    pack = {"objects": list(objects)}
    return Board.from_pack(pack, "t", top or objects[-1]["id"], rng=rng)


@cache
def builtin() -> dict:
    result = compile_paths(builtin_paths())
    assert result.ok
    return json.loads(dumps(result.pack))  # the engine reads the pack as `spawnpit build` writes it


# ---- grids, walls, doors, corners ------------------------------------------------------------------

def test_grid_adjacency_is_orthogonal_and_diagonal():
    b = build(board("g", grid=[3, 3]))
    assert b.spaces[:3] == ("a1", "a2", "a3")
    assert b.neighbours("b2") == ("a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3")
    assert b.neighbours("a1") == ("a2", "b1", "b2")
    assert b.neighbours("b2", diagonal=False) == ("a2", "b1", "b3", "c2")
    assert b.edge("a1", "b2") == "open" and b.edge("a1", "c3") is None
    assert b.space("c2").cell == (2, 1)  # the letter is the column, the number the row


def test_building_outline_is_walled_unless_declared():
    # LNOE: building spaces lie "within building walls"; a door lets Heroes through, never diagonally.
    b = build(board("g", grid=[3, 3], door=[["b1", "b2"]], blocks=[building("shop", "a1", "b1")]))
    assert b.edge("a1", "a2") == "wall" and b.edge("b1", "c1") == "wall"
    assert b.edge("b1", "b2") == "door" and b.edge("a1", "b1") == "open"
    assert b.edge("a2", "b1") == "corner" and b.edge("b2", "a1") == "corner"
    assert b.path("a2", "a1") == ("a2", "b2", "b1", "a1")
    assert b.distance("a2", "a1", through=EVERYTHING) == 1  # Zombies "may even move through Walls"
    assert b.building_of("a1") == "shop" and b.building_of("a2") is None
    assert b.spaces_of("shop") == ("a1", "b1")


def test_declared_kinds_win_over_implicit_ones():
    b = build(board("g", grid=[3, 3], blocks=[building("shop", "a1")],
                    link=[["a1", "a2"]], wall=[["b2", "b3"], ["a1", "b1"]], door=[["a1", "b1"]],
                    window=[["c2", "c3"]]))
    assert b.edge("a1", "a2") == "open"       # a link opens a building edge
    assert b.edge("a1", "b1") == "door"       # a door in a wall
    assert b.edge("b2", "b3") == "wall"       # a wall between two outdoor spaces
    assert "b3" not in b.neighbours("b2", diagonal=False)
    assert b.edge("c2", "c3") == "window"
    assert "c3" not in b.neighbours("c2") and "c3" in b.neighbours("c2", through=OPENINGS)
    assert b.edge("b2", "c3") == "corner"     # a wall or window end blocks the diagonal past it


def test_a_hero_steps_diagonally_round_a_building_s_outer_corner_but_not_through_a_pinch_point():
    # LNOE Hero Turn 1) Move: "Only two things stop a Hero's movement, Zombies and Walls"; one building's
    # outer corner walls one side of the step only (the play-test was refused e2 from d3 round the Church's
    # corner). Leaving the building by its corner, or passing between two buildings touching corners (a
    # Pinch Point, CR 3.3.11), walls both sides.
    b = build(board("g", grid=[3, 3], blocks=[building("shop", "a1")]))
    assert b.edge("b1", "a2") == "open" and b.distance("b1", "a2") == 1
    assert b.edge("a1", "b2") == "corner"
    pinch = build(board("g", grid=[3, 3], blocks=[building("shop", "a1"), building("bank", "b2")]))
    assert pinch.edge("b1", "a2") == "corner" and pinch.distance("b1", "a2") == 3
    line = build(board("g", grid=[3, 3], wall=[["a1", "a2"], ["b1", "b2"]]))  # a wall line through the point
    assert line.edge("a1", "b2") == "corner" and line.edge("b1", "a2") == "corner"
    stub = build(board("g", grid=[3, 3], wall=[["a1", "a2"]]))  # a wall's free end: round it
    assert stub.edge("a1", "b2") == "open" and stub.edge("b1", "a2") == "open"


def test_corner_wall_blocks_both_diagonals_but_not_sight():
    # LNOE Corner Walls: the plus-shaped stub stops diagonal moves across the centre, not sight.
    b = build(board("g", grid=[4, 4], corner=[["b2", "c3"]]))
    assert b.edge("b2", "c3") == "corner" and b.edge("c2", "b3") == "corner"
    assert b.edge("b2", "c2") == "open"
    assert b.distance("b2", "c3") == 2 and b.distance("b2", "c3", through=EVERYTHING) == 1
    assert b.line_of_sight("b2", "c3") and b.line_of_sight("a1", "d4")


def test_unknown_edge_kind_is_refused():
    with pytest.raises(BoardError, match="unknown edge kinds"):
        build(board("g", grid=[2, 2])).neighbours("a1", through=("open", "hole"))


# ---- composites and picks --------------------------------------------------------------------------

def _parts(n: int) -> list[dict]:
    return [board(f"p{i}", grid=[2, 1], spawn=["b1"]) for i in range(n)]


def test_composite_namespaces_parts_and_resolves_bare_names():
    zone = board("yard", spaces=["gate", "lawn"], link=[["gate", "lawn"]])
    top = board("top", parts=["p0", "yard"], link=[["p0.b1", "gate"]], start=["lawn"],
                blocks=[building("shed", "a1", "b1")])
    b = build(*_parts(1), zone, top)
    assert set(b.spaces) == {"p0.a1", "p0.b1", "yard.gate", "yard.lawn"}
    assert b.path("p0.a1", "yard.lawn") == ("p0.a1", "p0.b1", "yard.gate", "yard.lawn")
    assert b.start_spaces == ("yard.lawn",) and b.spawn_points == ("p0.b1",)
    assert b.building_of("p0.a1") == "shed"
    assert b.resolve("gate") == "yard.gate" and b.resolve("p0.a1") == "p0.a1"


def test_ambiguous_bare_name_is_an_error():
    with pytest.raises(BoardError, match="ambiguous"):
        build(*_parts(2), board("top", parts=["p0", "p1"], link=[["a1", "b1"]]))


def test_nested_composites_namespace_each_level():
    b = build(*_parts(3), board("ring", parts=["p0", "p1", "p2"], pick=2), board("town", parts=["ring"]))
    assert b.spaces == ("ring.p0.a1", "ring.p0.b1", "ring.p1.a1", "ring.p1.b1")
    assert b.spawn_points == ("ring.p0.b1", "ring.p1.b1")


def test_pick_is_deterministic_for_a_seed():
    objects = [*_parts(6), board("ring", parts=[f"p{i}" for i in range(6)], pick=4)]

    def picked(seed):
        return {s.split(".")[0] for s in build(*objects, rng=random.Random(seed)).spaces}

    assert picked(7) == picked(7)
    assert len({frozenset(picked(seed)) for seed in range(20)}) > 1
    assert all(len(picked(seed)) == 4 for seed in range(5))
    assert {s.split(".")[0] for s in build(*objects).spaces} == {"p0", "p1", "p2", "p3"}


def _placed_town(seed=None) -> Board:
    """Three of four parts drawn and laid at three places round a centre; each place's link is written
    once, for whichever part lies there."""
    ring = board("ring", parts=[f"p{i}" for i in range(4)], pick=3, places=["left", "top", "right"])
    town = board("town", parts=["hub", "ring"], link=[["hub.a1", "ring.left.a1"], ["hub.a1", "ring.top.b1"],
                                                        ["ring.right.a1", "ring.left.b1"]],
                 spawn=["ring.top.a1"])
    return build(*_parts(4), board("hub", grid=[1, 1]), ring, town, rng=None if seed is None else random.Random(seed))


def test_parts_a_pick_draws_are_laid_at_its_places_in_the_order_drawn():
    for seed in range(12):
        b = _placed_town(seed)
        drawn = list(random.Random(seed).sample(range(4), 3))  # what the pick draws, in order
        where = {place: f"p{i}" for place, i in zip(("left", "top", "right"), drawn)}
        assert dict(b.places) == {part: place for place, part in where.items()}
        assert b.path("hub.a1", f"ring.{where['left']}.a1") == ("hub.a1", f"ring.{where['left']}.a1")
        assert b.edge("hub.a1", f"ring.{where['top']}.b1") == "open"
        assert b.edge(f"ring.{where['right']}.a1", f"ring.{where['left']}.b1") == "open"
        assert f"ring.{where['top']}.a1" in b.spawn_points  # (besides each part's own b1)
        assert not any(s.endswith(".a1") and s != f"ring.{where['top']}.a1" for s in b.spawn_points)
        joined = {n for n, _, _ in b.links["hub.a1"]}
        assert joined == {f"ring.{where['left']}.a1", f"ring.{where['top']}.b1"}  # no other part's
    assert len({tuple(sorted(_placed_town(seed).places.items())) for seed in range(12)}) > 4
    assert dict(_placed_town().places) == {"p0": "left", "p1": "top", "p2": "right"}  # no rng: the first, in order


def test_a_link_to_a_place_no_part_took_is_dropped():
    ring = board("ring", parts=["p0", "p1"], pick=1, places=["left", "right"])
    town = board("town", parts=["hub", "ring"], link=[["hub.a1", "ring.left.a1"], ["hub.a1", "ring.right.a1"]])
    b = build(*_parts(2), board("hub", grid=[1, 1]), ring, town)
    assert {n for n, _, _ in b.links["hub.a1"]} == {"ring.p0.a1"}


def test_every_small_town_lays_four_l_boards_one_to_each_quarter():
    """The built-in towns: whichever four L-boards are drawn, each takes a quarter of its own round the
    centre board (its corner space touches that board alone), and each board's arm meets the next one's."""
    pack = json.loads(dumps(builtin()))
    for top, centre, corners in (("small_town", "town_center", ("a1", "c1", "c3", "a3")),
                                 ("manor_town", "manor_house_board", ("a1", "d1", "d4", "a4"))):
        for seed in range(8):
            b = Board.from_pack(pack, "lnoe", top, rng=random.Random(seed))
            assert sorted(b.places.values()) == ["northeast", "northwest", "southeast", "southwest"]
            by_place = {place: part for part, place in b.places.items()}
            for corner, place in zip(corners, ("northwest", "northeast", "southeast", "southwest")):
                touched = {n.split(".")[1] for n, _, _ in b.links[f"{centre}.{corner}"] if n.startswith("l_boards.")}
                assert touched == {by_place[place]}, (top, seed, corner)
            ring = {(a.split(".")[1], n.split(".")[1]) for a in b.spaces if a.startswith("l_boards.")
                    for n, _, _ in b.links[a] if n.startswith("l_boards.") and n.split(".")[1] != a.split(".")[1]}
            order = [by_place[p] for p in ("northwest", "northeast", "southeast", "southwest")]
            assert ring == {pair for i in range(4) for pair in ((order[i], order[(i + 1) % 4]),
                                                                  (order[(i + 1) % 4], order[i]))}


# ---- paths, distances, tracks ----------------------------------------------------------------------

def test_paths_are_shortest_with_a_fixed_tie_break():
    b = build(board("g", grid=[3, 3]))
    assert b.path("a1", "c1") == ("a1", "b1", "c1")
    assert b.path("a1", "c3") == ("a1", "b2", "c3")
    assert b.path("a1", "c3", blocked=frozenset({"b2"})) == ("a1", "a2", "b3", "c3")
    assert b.path("a1", "c3", blocked=frozenset({"c3"})) == ()
    assert b.path("b2", "b2") == ("b2",)
    assert b.distance("a1", "c3", diagonal=False) == 4
    assert b.within("a1", 1) == {"a1", "a2", "b1", "b2"}


def test_unreachable_is_infinite_and_closed_edges_cut():
    b = build(board("z", spaces=["x", "y", "w"], link=[["x", "y"]]))
    assert b.distance("x", "w") == math.inf and b.path("x", "w") == ()
    assert b.distance("x", "y", closed={("x", "y")}) == math.inf
    assert b.neighbours("x", closed={("y", "x")}) == ()
    with pytest.raises(BoardError):
        b.distance("x", "nowhere")


def test_distances_are_cached_per_source():
    b = build(board("g", grid=[5, 5]))
    first = b._search("a1", frozenset(), ("open", "door"), True, frozenset())
    assert b._search("a1", frozenset(), ("door", "open"), True, frozenset()) is first


def test_a_row_holds_every_distance_and_its_order_is_nearest_first():
    """The compact rows answer as the breadth-first tables do, on a real town with walls and doors, for
    Heroes' edges and for everything; `order` lists each space reached once, nearest first; and a step
    counts the same both ways, which `apart`, `route` and `nearest` rely on to read either end's row."""
    b = Board.from_pack(json.loads(dumps(builtin())), "lnoe", "small_town", rng=random.Random(3))
    for through in (("open", "door"), EVERYTHING):
        for source in b.spaces[::7]:
            row, order = b.row(source, through), b.order(source, through)
            dist = b._search(source, frozenset(), through, True, frozenset())[0]
            assert {b.spaces[i]: d for i, d in enumerate(row) if d != b.unreached} == dist
            assert sorted(order) == sorted(b.index[s] for s in dist) and order[0] == b.index[source]
            assert [row[i] for i in order] == sorted(row[i] for i in order)
            assert b.row(source, through) is row  # cached
            for other in b.spaces[::5]:
                assert b.row(other, through)[b.index[source]] == row[b.index[other]]
                assert b.distance(source, other, through=through) == dist.get(other, math.inf)
                assert b.way(source, other, through) == b.path(source, other, through=through)  # the same tie-break
    walled = build(board("z", spaces=["x", "y", "w"], link=[["x", "y"]]))
    assert walled.row("x")[walled.index["w"]] == walled.unreached and walled.distance("x", "w") == math.inf
    assert walled.way("x", "w") == () and walled.way("x", "y") == ("x", "y") and walled.way("x", "x") == ("x",)
    lone = build(board("z", spaces=["x", "y", "w"], link=[["x", "y"]]))
    lone.row("y")
    assert lone.between("x", "y") == 1 and ("x", ("open", "door")) not in lone._rows  # y's row served
    assert lone.between("w", "x") == math.inf and ("w", ("open", "door")) in lone._rows  # neither: the first's
    with pytest.raises(BoardError):
        lone.between("x", "nowhere")
    with pytest.raises(BoardError):
        walled.way("x", "nowhere")


def test_a_long_simulation_keeps_every_layout_the_least_recently_used_going_first(monkeypatch):
    from spawnpit.engine import board as boards
    monkeypatch.setattr(boards, "_BOARDS", {})
    monkeypatch.setattr(boards, "_LAYOUTS", 2)
    pack = json.loads(dumps(builtin()))
    lay = lambda seed: Board.from_pack(pack, "lnoe", "small_town", rng=random.Random(seed))
    layouts, seeds = [], []
    for seed in range(40):  # the first three seeds that draw different layouts
        b = lay(seed)
        if all(b is not kept for kept in layouts):
            layouts.append(b)
            seeds.append(seed)
        if len(layouts) == 3:
            break
    first, second, third = layouts
    assert [entry[1] for entry in boards._BOARDS.values()] == [second, third]  # room for two: `first` went
    assert lay(seeds[1]) is second  # kept, and now the most recently used
    again = lay(seeds[0])
    assert again is not first and again.places == first.places  # built afresh, evicting `third`
    assert [entry[1] for entry in boards._BOARDS.values()] == [second, again]


def test_sight_maps_are_shared_by_every_layout_of_the_same_parts():
    pack = json.loads(dumps(builtin()))
    one, other = (Board.from_pack(pack, "lnoe", "small_town", rng=random.Random(seed)) for seed in (1, 2))
    shared = set(one.sight) & set(other.sight)
    assert "town_center.town_center" in shared
    for grid in shared:
        assert one.sight[grid] is other.sight[grid]
    cells = [one.info[s].cell for s in one.spaces if one.info[s].grid == "town_center.town_center"]
    for a in cells[:6]:
        for b in cells[-6:]:
            assert one.sight["town_center.town_center"].clear(a, b) == \
                one.sight["town_center.town_center"].clear(a, b, frozenset({(99, 99)}))


def test_tracks_link_in_order_and_record_stacking():
    b = Board.from_pack(builtin(), "dotz", "farmingdale")
    forest = b.tracks["forest"].spaces
    assert all(b.edge(x, y) == "open" for x, y in zip(forest, forest[1:]))
    assert b.path(forest[0], "town_center")[-2:] == (forest[-1], "town_center")
    assert b.stacking("forest_4") == 2 and b.stacking("town_center") is None
    assert b.property("pine_hollow", "village") is True and b.property("cemetery", "terrain") is None


# ---- line of sight: LNOE grids ---------------------------------------------------------------------

def _house() -> Board:
    """A 3x3 building b2-d4 on a 6x6 grid: wall A on top (row 1|2), wall B on the left (a|b), wall C
    on the right (d|e) with a door at d3-e3 — the base rulebook's Line of Sight diagram, redrawn."""
    inside = [f"{c}{r}" for c in "bcd" for r in (2, 3, 4)]
    return build(board("g", grid=[6, 6], door=[["d3", "e3"]], blocks=[building("house", *inside)]))


def test_los_from_inside_through_the_walls_touched():
    # LNOE: the Hero (b2, touching A and B) sees Zombie 1 through A, Zombie 3 through B, Zombie 2
    # through either, but not Zombie 4 beyond wall C, "even though there is a door".
    b = _house()
    assert b.line_of_sight("b2", "c1")       # Zombie 1
    assert b.line_of_sight("b2", "a3")       # Zombie 3
    assert b.line_of_sight("b2", "a1")       # Zombie 2, out of the corner
    assert not b.line_of_sight("b2", "e3")   # Zombie 4
    assert b.line_of_sight("b2", "d4")       # nothing inside the building blocks
    assert b.line_of_sight("b2", "b2")       # always the own space


def test_los_from_an_exterior_corner_sees_through_neither_wall():
    b = _house()
    assert not b.line_of_sight("a1", "b2") and not b.line_of_sight("a1", "c3")
    assert b.line_of_sight("a1", "f1")


def test_los_touching_a_wall_sees_in_and_to_either_side():
    b = _house()
    assert b.line_of_sight("c1", "d3") and b.line_of_sight("c1", "b4")
    assert b.line_of_sight("d1", "b2")       # through wall A beside the Hero's own space (CR fn. 54)
    assert not b.line_of_sight("c1", "e3")   # in through A, out through C: C is not touched


def test_los_doors_block_unless_touched():
    b = _house()
    assert b.line_of_sight("e3", "c3")       # touching the door, so touching wall C
    assert not b.line_of_sight("f3", "c3")   # "doors block line of sight just like any other wall"


def test_los_opaque_spaces_block_only_passing_through():
    # CR 10.3.2: see into and out of a Forest Space, never through it.
    b, forest = _house(), frozenset({"c6"})
    assert not b.line_of_sight("a6", "e6", opaque=forest)
    assert b.line_of_sight("a6", "c6", opaque=forest) and b.line_of_sight("c6", "e6", opaque=forest)
    assert b.line_of_sight("a6", "e6")


def test_los_windows_do_not_block_on_grids():
    b = build(board("g", grid=[3, 1], window=[["a1", "b1"]], wall=[["b1", "c1"]]))
    assert b.line_of_sight("a1", "b1") and b.line_of_sight("c1", "a1")  # c1 touches the wall
    assert not b.line_of_sight("a1", "c1")


# ---- line of sight: NotLD zones --------------------------------------------------------------------

def _zones() -> Board:
    """A street x1-x4 declared as one straight line, a turn to y1, and two rooms r1 (door to x2) and r2
    (door to r1) of one house; r1 looks out along the line r1, x2, x3."""
    return build(board("z", spaces=["x1", "x2", "x3", "x4", "y1", "r1", "r2"],
                       link=[["x1", "x2", "x3", "x4"], ["x4", "y1"], ["r1", "x2", "x3"]],
                       door=[["r1", "x2"], ["r1", "r2"]], blocks=[building("house", "r1", "r2")]))


def test_zone_los_exterior_straight_lines():
    b = _zones()
    assert b.line_of_sight("x1", "x4") and b.line_of_sight("x4", "x1")
    assert b.line_of_sight("x4", "y1")       # adjacent
    assert not b.line_of_sight("x3", "y1")   # no line is declared round the corner


def test_zone_los_interior_one_zone_into_the_building():
    b = _zones()
    assert b.line_of_sight("r1", "r2") and b.line_of_sight("r1", "x2")
    assert b.line_of_sight("r1", "x3") and b.line_of_sight("x3", "r1")   # out along a straight line
    assert not b.line_of_sight("r2", "x2")   # two zones into the building
    assert not b.line_of_sight("r1", "x2", closed={("x2", "r1")})  # closed doors interrupt


def test_zone_los_on_the_built_in_farmhouse():
    b = Board.from_pack(builtin(), "notld", "farmhouse")
    living = b.resolve("living_1r")
    assert b.line_of_sight(living, b.resolve("south_1r"))   # door
    assert b.line_of_sight(living, b.resolve("west_1r"))    # window
    assert not b.line_of_sight(living, b.resolve("corner_1r"))
    assert not b.line_of_sight(living, b.resolve("south_1r"), closed={(living, "tile_1r.south_1r")})


# ---- divide_evenly ---------------------------------------------------------------------------------

def test_divide_evenly():
    assert divide_evenly(7, ["p", "q", "r"]) == {"p": 3, "q": 2, "r": 2}
    assert divide_evenly(0, []) == {} and divide_evenly(2, ["p"]) == {"p": 2}
    for seed in range(10):
        share = divide_evenly(11, list("abcd"), random.Random(seed))
        assert share == divide_evenly(11, list("abcd"), random.Random(seed))
        assert sum(share.values()) == 11 and sorted(share.values()) == [2, 3, 3, 3]
    assert len({tuple(divide_evenly(5, list("abcd"), random.Random(s)).values()) for s in range(20)}) > 1
    with pytest.raises(ValueError):
        divide_evenly(3, [])


# ---- the built-in pack -----------------------------------------------------------------------------

def _builtin_boards() -> list[tuple[str, str]]:
    return [(o["system"], o["id"]) for o in builtin()["objects"] if o["kind"] == "board"]


@pytest.mark.parametrize("system,board_id", _builtin_boards())
def test_every_builtin_board_loads(system, board_id):
    b = Board.from_pack(builtin(), system, board_id, rng=random.Random(3))
    assert b.spaces and len(set(b.spaces)) == len(b.spaces)
    assert set(b.spawn_points + b.start_spaces) <= set(b.spaces)
    for sid in b.spaces:
        assert all(b.edge(n, sid) == kind for n, kind, _ in b.links[sid])  # symmetric
    for bid, found in b.buildings.items():
        assert all(b.building_of(s) == bid for s in found.spaces)
    assert Board.from_pack(builtin(), system, board_id, rng=random.Random(3)).spaces == b.spaces


def test_builtin_lboard_walls_and_los():
    b = Board.from_pack(builtin(), "lnoe", "bank_gas_station_junkyard")
    assert len(b.spaces) == 48 and "e5" not in b.spaces and "h8" not in b.spaces  # the L: its notch is void
    assert b.path("b3", "b2") == ("b3", "b2")                      # in through the Bank's door
    assert b.edge("a3", "b2") == "corner" == b.edge("c3", "b2")   # never diagonally through it
    assert b.edge("a2", "a3") == "wall"                            # implicit: a building's edge is walled
    assert b.line_of_sight("a3", "a2") and b.line_of_sight("a3", "a1")   # touching the Bank's wall
    assert not b.line_of_sight("d1", "a3")   # across the Bank, touching none of the walls it crosses
    assert not b.line_of_sight("d4", "h1")   # into the Gas Station through its wall


def test_void_cells_are_no_spaces_and_join_nothing():
    # `void` cuts cells out of a grid (the notch of an LNOE L-shaped board): no space, no edge, no stub.
    b = build(board("t", grid=[3, 3], void=["b2", "c3"]))
    assert "b2" not in b.spaces and "c3" not in b.spaces and len(b.spaces) == 7
    assert b.neighbours("a1") == ("a2", "b1")
    assert b.distance("a2", "c2") == 2 and b.path("a2", "c2") in (("a2", "b1", "c2"), ("a2", "b3", "c2"))
    assert b.distance("b3", "c2") == 1  # the diagonal past a void corner stays open


def test_engine_board_imports_no_compiler():
    for name in ("board.py", "geometry.py"):
        text = (ENGINE / name).read_text()
        assert not re.search(r"^\s*(from|import) .*(compiler|generators|lark)", text, re.M), name


def test_a_place_is_read_only_right_after_its_own_boards_name():
    """A place may share a name with a space elsewhere (`a1`): `hub.a1` is the hub's space, and only
    `ring.a1.b1` goes through the place."""
    ring = board("ring", parts=["p0", "p1"], pick=1, places=["a1"])
    town = board("town", parts=["hub", "ring"], link=[["hub.a1", "ring.a1.b1"]])
    b = build(*_parts(2), board("hub", grid=[1, 1]), ring, town)
    assert {n for n, _, _ in b.links["hub.a1"]} == {"ring.p0.b1"} and dict(b.places) == {"p0": "a1"}
