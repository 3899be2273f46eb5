"""The native board (engine/native/board.cpp) against the Python one (engine/board.py), on the built-in
boards as games draw them: Die Zombies, Die! layouts from several seeds, the other LNOE scenarios' towns
(the Manor House among them), NotLD's farmhouse (zones) and the DotZ map. The native board is built from
engine/native_board.py's export and asked through `_native.board_probe`; every answer must be the Python
board's: the same numbers, the same order of spaces, the same paths.

Distances, rows, search orders, parents and paths are compared for every source (and every pair) with
each `through` set the engine uses (the pack's kinds, with the markers that add edges) and a few more;
Line of Sight, edges and distances for every ordered pair.

Line of Sight twice: read off the matrix the Python board worked out (`board_data(board)`), and worked out
natively from the exported geometry (engine/native/sight.cpp; the matrix left out, as the engine exports
it), on more layouts than the rest (SIGHT_CASES: five and more Die Zombies, Die! towns, both Manor House
layouts, all three NotLD scenarios) and on zone boards given straight `link` chains they do not declare."""

from __future__ import annotations

import dataclasses
import json
import math
import random

import pytest

from spawnpit.compiler import compile_paths
from spawnpit.engine import movement, new_game
from spawnpit.engine.board import EVERYTHING, OPENINGS, WALKING, Board, BoardError
from spawnpit.engine import native_board
from spawnpit.engine.native_board import SIGHT_KEY, board_data, sight_geometry, sight_rows
from spawnpit.resources import builtin_paths

# (scenario, seed): the LNOE towns are drawn with the game's dice, so seeds give different layouts
CASES = [
    ("lnoe:die_zombies_die", 1),
    ("lnoe:die_zombies_die", 2),
    ("lnoe:die_zombies_die", 3),
    ("lnoe:defend_the_manor_house", 1),
    ("lnoe:burn_em_out", 4),
    ("lnoe:escape_in_the_truck", 5),
    ("lnoe:save_the_townsfolk", 6),
    ("notld:whats_happening", 0),
    ("dotz:basic_game", 0),
]
# more layouts, for Line of Sight only (worked out natively from the geometry): with CASES, Die Zombies, Die!
# towns from five seeds (and three more the other scenarios draw), two Manor House layouts, every NotLD scenario
SIGHT_CASES = [
    ("lnoe:die_zombies_die", 7),
    ("lnoe:die_zombies_die", 8),
    ("lnoe:defend_the_manor_house", 5),
    ("notld:is_there_a_key", 0),
    ("notld:theyre_afraid_of_fire", 0),
]


def _listed(value) -> tuple:
    return tuple([value] if isinstance(value, str) else value or ())


def engine_through_sets(pack: dict, system: str) -> list[tuple[str, ...]]:
    """The `through` sets the engine asks the board with in this system (movement._rules, _own_rules): each
    kind's (WALKING without one), and each with the edges of every marker that adds some."""
    blocks = pack["systems"][system].get("blocks", [])
    markers = [_listed(b.get("props", {}).get("through")) for b in blocks if b.get("kind") == "marker"]
    out: list[tuple[str, ...]] = []
    for block in blocks:
        if block.get("kind") != "kind":
            continue
        through = _listed(block.get("props", {}).get("through")) or WALKING
        for added in [()] + [m for m in markers if m]:
            out.append(tuple(dict.fromkeys(through + added)))
    return out


@pytest.fixture(scope="module")
def pack() -> dict:
    result = compile_paths(builtin_paths())
    assert result.ok
    return result.pack


@pytest.fixture(scope="module", params=CASES, ids=[f"{s.split(':')[1]}-{n}" for s, n in CASES])
def case(request, pack, native):
    scenario, seed = request.param
    game = new_game(pack, scenario, seed=seed)
    board = game.board
    python_sight(board)  # fills the board's "los0" cache, which board_data's matrix reads
    data = board_data(board)
    through = list(dict.fromkeys(engine_through_sets(pack, scenario.split(":")[0])
                                 + [WALKING, EVERYTHING, OPENINGS, ("window", "wall")]))
    # every set the engine uses is among them (the Heroes' open and door, the Zombies' everything)
    assert set(map(frozenset, engine_through_sets(pack, scenario.split(":")[0]))) <= set(map(frozenset, through))

    def probe(queries):
        return native.board_probe(data, queries)

    return game, board, data, through, probe


def python_sight(board) -> list[str]:
    """The reference: `Board.line_of_sight(a, b)` of every ordered pair, one "0"/"1" string per viewer in
    board order (the form of board_data's `sight` and of the probe's `sight_rows`)."""
    los = board.line_of_sight
    return ["".join("1" if los(a, b) else "0" for b in board.spaces) for a in board.spaces]


def _py(value):
    """A Python board answer as the probe gives it (tuples as lists)."""
    if isinstance(value, tuple):
        return [_py(v) for v in value]
    return value


# ---- the export -------------------------------------------------------------------------------------

def test_the_export_is_plain_json(case):
    _, board, data, _, _ = case
    assert json.loads(json.dumps(data)) == data
    assert [s["id"] for s in data["spaces"]] == list(board.spaces)
    assert len(data["sight"]) == len(board.spaces) and all(len(r) == len(board.spaces) for r in data["sight"])
    geometry = data["geometry"]
    assert geometry is not None and board_data(board, sight=False) == {**data, "sight": None}
    assert (geometry["town"] is not None) == (board.town_sight() is not None)
    assert set(geometry["grids"]) == set(board.sight) and len(geometry["touching"]) == len(board.spaces)


def test_sight_rows_are_kept_and_read_back(case):
    _, board, data, _, _ = case
    assert board._cache[SIGHT_KEY] == tuple(data["sight"])
    assert sight_rows(board) == data["sight"]


# ---- lookups ----------------------------------------------------------------------------------------

def test_spaces_titles_buildings_stacking_and_markers(case):
    _, board, _, _, probe = case
    spaces = list(board.spaces)
    queries = [("spaces",), ("size",), ("id",), ("space_ids",), ("building_ids",),
               ("spawn_points",), ("start_spaces",), ("objectives",)]
    expected = [spaces, len(spaces), board.id, sorted(spaces), sorted(board.buildings),
                list(board.spawn_points), list(board.start_spaces), list(board.objectives)]
    for k, s in enumerate(spaces):
        queries += [("index", s), ("title", s), ("building_of", s), ("stacking", s), ("marked", s), ("links", s)]
        expected += [k, board.space(s).title, board.building_of(s), board.stacking(s),
                     [s in board.spawn_points, s in board.start_spaces, s in board.objectives],
                     [tuple(link) for link in board.links[s]]]
    for b, info in board.buildings.items():
        queries += [("spaces_of", b), ("building", b)]
        expected += [list(board.spaces_of(b)),
                     {"title": info.title, "spaces": list(info.spaces), "roll": list(info.roll), "pick_up": info.pick_up}]
    queries += [("index", "no_such_space"), ("index", spaces[0] + "x")]
    expected += [None, None]
    assert probe(queries) == expected


def test_properties(case):
    _, board, _, _, probe = case
    tags = sorted({t for s in board.spaces for t in board.space(s).tags})
    names = ["id", "title", "terrain", "tags", "building", "stacking", "grid", "cell", *tags, "named", "no_such_tag"]
    queries = [("property", s, name) for s in board.spaces for name in names]
    found = probe(queries)
    expected = [_py(board.property(s, name)) for _, s, name in queries]
    assert found == expected
    assert [type(v) for v in found] == [type(v) for v in expected]  # True is not 1, None not False


def test_resolve_place_and_resolve(case):
    game, board, _, _, probe = case
    names = {board.id, "", "no_such_place", "a1", "b2", "town_center", "the_house"}
    for full in [*board.spaces, *board.buildings]:
        parts = full.split(".")
        names.update({full, parts[-1], ".".join(parts[-2:]), parts[0]})
    names = sorted(names)

    def board_resolve(name):
        try:
            return board.resolve(name)
        except BoardError:
            return None

    queries = [("resolve", n) for n in names] + [("resolve_space", n) for n in names]
    expected = [(r.kind, r.id) if (r := game.resolve_place(n)) is not None else None for n in names]
    expected += [board_resolve(n) for n in names]
    assert probe(queries) == expected
    assert any(e is not None for e in expected) and any(e is None for e in expected)


# ---- edges and sight --------------------------------------------------------------------------------

def test_edge_of_every_pair(case):
    _, board, _, _, probe = case
    pairs = [(a, b) for a in board.spaces for b in board.spaces]
    assert probe([("edge", a, b) for a, b in pairs]) == [board.edge(a, b) for a, b in pairs]


def test_sight_of_every_pair(case):
    """The matrix board_data gives, as the native board reads it back."""
    _, board, data, _, probe = case
    expected = python_sight(board)
    assert data["sight"] == expected
    assert probe([("sight_rows",)]) == [expected]
    every = [(a, b) for a in board.spaces for b in board.spaces]
    pairs = random.Random(5).sample(every, min(500, len(every)))
    assert probe([("sight", a, b) for a, b in pairs]) == [board.line_of_sight(a, b) for a, b in pairs]
    assert "1" in "".join(expected) and ("0" in "".join(expected) or len(board.spaces) < 20)


# ---- Line of Sight worked out natively ----------------------------------------------------------------

@pytest.fixture(scope="module", params=CASES + SIGHT_CASES,
                ids=[f"{s.split(':')[1]}-{n}" for s, n in CASES + SIGHT_CASES])
def sight_case(request, pack, native):
    """A board as the engine exports it (no matrix: the geometry), and the Python board's answers."""
    scenario, seed = request.param
    board = new_game(pack, scenario, seed=seed).board
    expected = python_sight(board)
    data = board_data(board, sight=False)
    return board, data, expected


def test_sight_from_geometry_of_every_pair(native, sight_case):
    """Every ordered pair worked out natively from the geometry: the Python board's answer."""
    board, data, expected = sight_case
    assert data["sight"] is None and data["geometry"] is not None
    assert native.board_probe(data, [("geometry",), ("sight_rows",)]) == [True, expected]
    found = "".join(expected)
    assert "1" in found and ("0" in found or len(board.spaces) < 20)


def test_sight_from_geometry_pair_by_pair(native, sight_case):
    """Pairs asked one at a time in any order (each worked out when first asked, then kept), rows asked
    after some of their pairs are known, and pairs asked twice: the same answers."""
    board, data, expected = sight_case
    spaces, rng = board.spaces, random.Random(len(board.spaces))
    pairs = [(rng.randrange(len(spaces)), rng.randrange(len(spaces))) for _ in range(2000)]
    queries = [("sight", spaces[a], spaces[b]) for a, b in pairs + pairs[:50]]
    rows = rng.sample(range(len(spaces)), min(10, len(spaces)))
    queries += [("sight_row", spaces[a]) for a in rows]
    found = native.board_probe(data, queries)
    assert found == [expected[a][b] == "1" for a, b in pairs + pairs[:50]] + [expected[a] for a in rows]


def test_sight_layouts_are_many(pack):
    """The layouts compared differ: at least five Die Zombies, Die! towns, and both kinds of centre board."""
    towns = {}
    for scenario, seed in CASES + SIGHT_CASES:
        board = new_game(pack, scenario, seed=seed).board
        if board.town() is not None:
            towns.setdefault(tuple(sorted(board.town().at.items())), set()).add(scenario)
    assert sum(1 for found in towns.values() if "lnoe:die_zombies_die" in found) >= 5
    assert any("lnoe:defend_the_manor_house" in found for found in towns.values())


def _with_chains(board, chains):
    """The board with these declared straight lines (and nothing cached)."""
    return dataclasses.replace(board, chains=tuple(tuple(c) for c in chains), index=dict(board.index),
                               _cache={}, _rows={}, _orders={}, _ranks={}, _searches={})


@pytest.mark.parametrize("scenario", ["notld:whats_happening", "dotz:basic_game"])
def test_sight_along_declared_lines(pack, native, scenario):
    """Zone boards with straight `link` chains of three and more (the built-in ones declare pairs only): walks
    along their links of every kind (through buildings, windows, walls, doubling back), and lists of zones
    that are not neighbours; seeing along them as the Python board's _along does."""
    board = new_game(pack, scenario, seed=0).board
    rng = random.Random(13)
    linked = [s for s in board.spaces if board.links[s]]
    chains = [list(c) for c in board.chains]
    for _ in range(40):
        walk = [rng.choice(linked)]
        for _ in range(rng.randint(2, 7)):
            walk.append(rng.choice(board.links[walk[-1]])[0])
        chains.append(walk)
    chains += [rng.sample(board.spaces, 3), rng.sample(board.spaces, 5)]
    lined = _with_chains(board, chains)
    expected = python_sight(lined)
    data = board_data(lined, sight=False)
    assert data["geometry"]["chains"] == [c for c in chains if len(c) > 2]
    assert native.board_probe(data, [("sight_rows",)]) == [expected]
    plain = python_sight(board)
    n = len(board.spaces)
    along = [(a, b) for a in range(n) for b in range(n) if expected[a][b] != plain[a][b]]
    assert along, "no pair sees along a line"
    index = board.index
    on_a_line = {(index[a], index[b]) for c in chains if len(c) > 2 for a in c for b in c}
    assert any(expected[a][b] == "0" for a, b in on_a_line)  # lines that do not see (a building, no neighbours)


def _made_up_pack() -> dict:
    """Boards no built-in content has, for the branches of Line of Sight its layouts never take:

    - `town`: a U-shaped grid `g` (c1, c2 void) and a 1x2 grid `h` laid in its notch. g's walls under a1,
      b1 and d1, e1 are two runs of g's own map (a gap at c), but on the table h's wall under its a1 fills
      the gap: one run from a to e. A viewer touching it sees through all of it (g.b1 sees g.e2), which only
      the whole plane knows (TownSight.mixed; Board._grid_sight);
    - `g` alone: a grid with no layout (SightMap only);
    - `apart`: g and h linked where no placement fits (no layout): between the grids, openings only (a
      window is one, a wall is not)."""
    def board(bid, **props):
        return {"kind": "board", "id": bid, "system": "made_up", "props": props, "blocks": []}

    return {"objects": [
        board("town", parts=["g", "h"], link=[["h.a1", "g.b1"], ["h.a1", "g.d1"], ["h.a2", "g.c3"], ["h.a2", "g.b2"],
                                              ["h.a2", "g.d2"]]),
        board("apart", parts=["g", "h"], link=[["h.a1", "g.a1"], ["h.a1", "g.e3"]], wall=[["h.a2", "g.c3"]],
              window=[["h.a2", "g.b3"]]),
        board("g", grid=[5, 3], void=["c1", "c2"], wall=[["a1", "a2"], ["b1", "b2"], ["d1", "d2"], ["e1", "e2"]]),
        board("h", grid=[1, 2], wall=[["a1", "a2"]]),
    ]}


@pytest.mark.parametrize("board_id", ["town", "g", "apart"])
def test_sight_on_made_up_boards(native, board_id):
    board = Board.from_pack(_made_up_pack(), "made_up", board_id)
    expected = python_sight(board)
    data = board_data(board, sight=False)
    assert native.board_probe(data, [("sight_rows",)]) == [expected]
    town = board.town_sight()
    assert (town is not None) == (board_id == "town") and (data["geometry"]["town"] is not None) == (town is not None)
    if board_id == "town":  # the whole plane's answer is not the grid's own map's
        a, b, sa, sb = "g.b1", "g.e2", board.space("g.b1"), board.space("g.e2")
        assert board.line_of_sight(a, b) and town.clear(a, b)
        assert not board.sight[sa.grid].clear(sa.cell, sb.cell)
        assert town.touching[a] & town.mixed[sa.grid]
    if board_id == "apart":  # between the grids, what the links open
        assert board.line_of_sight("h.a1", "g.e3") and not board.line_of_sight("h.a2", "g.e3")
        assert board.edge("h.a2", "g.c3") == "wall" and not board.line_of_sight("h.a2", "g.c3")
        assert board.edge("h.a2", "g.b3") == "window" and board.line_of_sight("h.a2", "g.b3")


def test_games_work_sight_out_natively_else_ask_the_python_board(pack, native, monkeypatch):
    """A native game on a layout met for the first time asks the Python board nothing (the geometry
    answers); exported without geometry it asks the Python board each pair it needs; the same game."""
    from spawnpit.engine import native as engine
    from spawnpit.engine.policies import POLICIES

    asked, real = [], Board.line_of_sight

    def counted(self, a, b, **kw):
        asked.append((a, b))
        return real(self, a, b, **kw)

    monkeypatch.setattr(Board, "line_of_sight", counted)

    def play():
        game = new_game(pack, "lnoe:die_zombies_die", seed=9,
                        policies={"heroes": POLICIES["ai"](), "zombies": POLICIES["ai"]()})
        game.board._cache.pop("native board", None)  # engine/native.py's _BOARD_KEY: made afresh
        asked.clear()
        out = engine.play(game, logging=True)
        game.board._cache.pop("native board", None)
        return out, list(asked)

    natively, asked_natively = play()
    monkeypatch.setattr(native_board, "sight_geometry", lambda board: None)
    by_callback, asked_by_callback = play()
    assert asked_natively == [] and len(asked_by_callback) > 10
    assert natively["lines"] == by_callback["lines"]
    assert natively["result"] == by_callback["result"]


def test_geometry_beyond_the_limit_is_not_exported(pack, native, monkeypatch):
    """A layout whose coordinates the port's 64-bit arithmetic might not hold gets no geometry (the native
    board then asks the Python board); the native board refuses such numbers."""
    board = new_game(pack, "lnoe:die_zombies_die", seed=1).board
    data = board_data(board, sight=False)
    town = data["geometry"]["town"]
    biggest = max(abs(v) for box in town["box"] if box for v in box)
    assert biggest <= native_board.LIMIT and sight_geometry(board) is not None
    monkeypatch.setattr(native_board, "LIMIT", biggest - 1)
    assert sight_geometry(board) is None and board_data(board, sight=False)["geometry"] is None
    far = _broken(data, lambda d: d["geometry"]["town"]["box"][0].__setitem__(2, 2 * (1 << 24) + 2))
    with pytest.raises(ValueError, match="beyond the port's limit"):
        native.board_probe(far, [("size",)])


def test_adjacency(case):
    _, board, _, through, probe = case
    found = probe([("adjacency", list(t)) for t in through])
    for t, adjacency in zip(through, found):
        expected = {s: list(ns) for s, ns in board.adjacency(t).items()}
        assert list(adjacency.items()) == list(expected.items()), t


# ---- distances --------------------------------------------------------------------------------------

def test_between_every_pair(case):
    _, board, _, through, probe = case
    spaces = board.spaces
    queries = [("between", a, b, list(t)) for t in through for a in spaces for b in spaces]
    expected = [board.between(a, b, tuple(t)) for _, a, b, t in queries]
    found = probe(queries)
    assert found == expected
    assert [type(v) for v in found] == [type(v) for v in expected]  # int, or math.inf a float
    assert math.inf in expected  # ("window", "wall") leaves spaces out of reach


def test_between_reads_whichever_row_is_there(case):
    """b's row answers when a's has not been worked out: the same number (the links go both ways)."""
    _, board, _, through, probe = case
    spaces, rng = board.spaces, random.Random(7)
    queries = []
    for t in through:
        for _ in range(300):
            a, b = rng.choice(spaces), rng.choice(spaces)
            queries += [("row", b, list(t)), ("between", a, b, list(t)), ("between", b, a, list(t))]
    found = probe(queries)
    for (_, a, b, t), answer in zip(queries[1::3], found[1::3]):
        assert answer == board.between(a, b, tuple(t))
    for (_, b, a, t), answer in zip(queries[2::3], found[2::3]):
        assert answer == board.between(b, a, tuple(t))


def test_rows_orders_and_searches_from_every_space(case):
    _, board, _, through, probe = case
    index = board.index
    queries, expected = [], []
    for t in through:
        for s in board.spaces:
            far = board.unreached
            row = [None if d == far else d for d in board.row(s, t)]
            dist, parent = board.search(s, t)
            queries += [("row", s, list(t)), ("order", s, list(t)), ("search", s, list(t))]
            expected += [row, [board.spaces[i] for i in board.order(s, t)], (list(dist.items()), parent)]
            assert [index[x] for x in dist] == list(board.order(s, t))  # the search meets them in row order
    found = probe(queries)
    for q, f, e in zip(queries, found, expected):
        if q[0] == "search":
            assert f[0] == e[0], q
            assert list(f[1].items()) == list(e[1].items()), q
        else:
            assert f == e, q


def test_way_between_every_pair(case):
    _, board, _, through, probe = case
    spaces = board.spaces
    queries = [("way", a, b, list(t)) for t in through[:1] for a in spaces for b in spaces]  # the Heroes' walk
    rng = random.Random(11)
    queries += [("way", rng.choice(spaces), rng.choice(spaces), list(t)) for t in through[1:] for _ in range(3000)]
    expected = [list(board.way(a, b, tuple(t))) for _, a, b, t in queries]
    assert probe(queries) == expected
    assert [] in expected  # some out of reach (("window", "wall"))
    # the way is the path the search's parents give
    for (_, a, b, t), way in zip(queries[:3000], expected[:3000]):
        assert tuple(way) == board.path(a, b, through=tuple(t)), (a, b, t)


def test_stopped_search(case):
    """movement._search with stopping spaces (a Hero's move among Zombies): entered, never left, the start
    excepted; compared with the engine's own search given the same `how`."""
    game, board, _, through, probe = case
    rng = random.Random(3)
    spaces = list(board.spaces)
    queries, expected = [], []
    for t in through:
        for _ in range(40):
            start = rng.choice(spaces)
            stopping = frozenset(rng.sample(spaces, rng.randint(1, max(1, len(spaces) // 6))))
            dist, parent = movement._search(game, None, True, how=(start, t, (), frozenset(), stopping - {start}))
            queries.append(("stopped_search", start, list(t), sorted(stopping | {start})))  # the start's flag ignored
            expected.append((list(dist.items()), parent))
    found = probe(queries)
    for q, f, e in zip(queries, found, expected):
        assert f[0] == e[0], q
        assert list(f[1].items()) == list(e[1].items()), q
    assert any(len(f[0]) < len(spaces) for f in found)  # some stopped short of the whole board


# ---- errors -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def small(pack, native):
    game = new_game(pack, "dotz:basic_game", seed=0)
    return game.board, board_data(game.board)


@pytest.mark.parametrize("query, message", [
    (("between", "nowhere", "town_center", ["open"]), "has no space `nowhere`"),
    (("between", "town_center", "nowhere", ["open"]), "has no space `nowhere`"),
    (("row", "nowhere", ["open"]), "has no space"),
    (("order", "nowhere", ["open"]), "has no space"),
    (("way", "town_center", "nowhere", ["open"]), "has no space"),
    (("search", "nowhere", ["open"]), "has no space"),
    (("stopped_search", "town_center", ["open"], ["nowhere"]), "has no space"),
    (("edge", "town_center", "nowhere"), "has no space"),
    (("sight", "nowhere", "town_center"), "has no space"),
    (("building_of", "nowhere"), "has no space"),
    (("property", "nowhere", "title"), "has no space"),
    (("title", "nowhere"), "has no space"),
    (("spaces_of", "nowhere"), "has no building"),
    (("between", "town_center", "downtown", ["open", "opne"]), "unknown edge kinds [opne]"),
    (("adjacency", "open"), "unknown edge kinds"),  # a str is a sequence of one-letter kinds
    (("adjacency", 3), "not a sequence"),
    (("teleport", "town_center"), "unknown query `teleport`"),
    (("between", "town_center", "downtown"), "takes 3 arguments"),
    (("title", 7), "a space is not a str"),
    ((), "an empty query"),
    ("title", "a query is not a tuple"),
    ((5,), "a query's name is not a str"),
])
def test_a_bad_query_is_a_value_error(native, small, query, message):
    _, data = small
    with pytest.raises(ValueError) as err:
        native.board_probe(data, [("size",), query])
    assert message in str(err.value) and "(query 1: " in str(err.value)


def _broken(data: dict, change) -> dict:
    copy = json.loads(json.dumps(data))
    change(copy)
    return copy


@pytest.mark.parametrize("change, message", [
    (lambda d: d["sight"].pop(), "not one row for each space"),
    (lambda d: d["sight"].__setitem__(0, d["sight"][0][:-1]), "not one character for each space"),
    (lambda d: d["sight"].__setitem__(0, "2" + d["sight"][0][1:]), "not 0 or 1"),
    (lambda d: d["links"][0].append(["nowhere", "open", False]), "`nowhere` is no space"),
    (lambda d: d["links"][0].append([d["spaces"][1]["id"], "hole", False]), "`hole` is no edge kind"),
    (lambda d: d["links"][0].append([d["spaces"][1]["id"], "open"]), "not [neighbour, kind, diagonal]"),
    (lambda d: d["spaces"].append(dict(d["spaces"][0])), "twice"),
    (lambda d: d["spaces"][0].__setitem__("building", "nowhere"), "no building of the board"),
    (lambda d: d["spawn_points"].append("nowhere"), "`nowhere` is no space"),
    (lambda d: d.__setitem__("format", 2), "format"),
    (lambda d: d["spaces"][0].pop("title"), "has no `title`"),
])
def test_bad_data_is_a_value_error(native, small, change, message):
    _, data = small
    with pytest.raises(ValueError) as err:
        native.board_probe(_broken(data, change), [("size",)])
    assert message in str(err.value)


def test_a_board_without_sight_says_so_when_asked(native, small):
    """A board given no Line of Sight (neither matrix nor geometry: the engine's native board then asks the
    Python board pair by pair) answers everything else, and a sight question the probe cannot ask is an error."""
    _, data = small
    for change in (lambda d: (d.pop("sight"), d.pop("geometry")),
                   lambda d: (d.__setitem__("sight", None), d.__setitem__("geometry", None))):
        blind = _broken(data, change)
        a, b = data["spaces"][0]["id"], data["spaces"][1]["id"]
        assert native.board_probe(blind, [("size",), ("geometry",)]) == [len(data["spaces"]), False]
        with pytest.raises(ValueError, match="no Line of Sight was given"):
            native.board_probe(blind, [("sight", a, b)])


@pytest.fixture(scope="module")
def town(pack, native):
    return board_data(new_game(pack, "lnoe:defend_the_manor_house", seed=1).board, sight=False)


def _grid(d):
    return next(iter(d["geometry"]["grids"]))


@pytest.mark.parametrize("change, message", [
    (lambda d: d.__setitem__("geometry", []), "geometry: not a dict"),
    (lambda d: d["geometry"].pop("grids"), "has no `grids`"),
    (lambda d: d["geometry"]["grids"].pop(_grid(d)), "which grids does not hold"),
    (lambda d: d["geometry"]["grids"][_grid(d)].append([0, "z", 2, 0, 2]), "neither \"x\" nor \"y\""),
    (lambda d: d["geometry"]["grids"][_grid(d)].append([0, "x", 2, 0]), "is not [run, axis, line, low, high]"),
    (lambda d: d["geometry"]["grids"][_grid(d)].append([0, "x", 2.5, 0, 2]), "line is not an int"),
    (lambda d: d["geometry"]["touching"].pop(), "touching: not one list for each space"),
    (lambda d: d["spaces"][0].__setitem__("cell", None), "without a [column, row] cell"),
    (lambda d: d["geometry"]["town"]["box"].pop(), "town.box: not one entry for each space"),
    (lambda d: d["geometry"]["town"]["box"][0].__setitem__(0, 1), "not even"),
    (lambda d: d["geometry"]["town"]["box"].__setitem__(0, [0, 0, 2]), "is not [x0, y0, x1, y1]"),
    (lambda d: d["geometry"]["town"]["segments"][0].__setitem__(5, 3), "the owner is neither"),
    (lambda d: d["geometry"]["town"]["touching"].pop(), "town.touching: not one list for each space"),
    (lambda d: d["geometry"]["town"]["inside"].__setitem__("nowhere", []), "no such grid"),
    (lambda d: d["geometry"]["town"]["inside"].__setitem__(_grid(d), [10 ** 6]), "no such segment"),
    (lambda d: d["geometry"]["town"]["mixed"].__setitem__("nowhere", []), "no such grid"),
    (lambda d: d["geometry"]["chains"].append(["nowhere", "a", "b"]), "`nowhere` is no space"),
    (lambda d: d["geometry"].pop("chains"), "has no `chains`"),
])
def test_bad_geometry_is_a_value_error(native, town, change, message):
    with pytest.raises(ValueError) as err:
        native.board_probe(_broken(town, change), [("size",)])
    assert message in str(err.value) and "geometry" in str(err.value)


def test_data_that_is_not_a_board(native, small):
    _, data = small
    for bad in (None, [], {"id": "x"}, {**data, "spaces": {1, 2}}):
        with pytest.raises(ValueError):
            native.board_probe(bad, [])
    assert native.board_probe(data, []) == []


def test_no_edge_kinds_reach_nothing(native, small):
    board, data = small
    s = board.spaces[0]
    assert native.board_probe(data, [("between", s, board.spaces[1], []), ("order", s, []), ("way", s, s, [])]) \
        == [board.between(s, board.spaces[1], ()), [s], [s]] == [math.inf, [s], [s]]
