"""The map of a composite board: its grids placed, turned and in holes as the links between them say
(engine.layout), and the terminal drawing the whole town as that one map."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from rich.console import Console

from spawnpit.engine import new_game
from spawnpit.engine.layout import town_map


def grid(name: str, cells: dict) -> dict:
    return {f"{name}.{sid}": (name, cell) for sid, cell in cells.items()}


SQUARE = {"p": (0, 0), "q": (1, 0), "r": (0, 1), "s": (1, 1)}


def test_a_grid_is_turned_and_slid_until_its_links_join_touching_cells():
    """B's r and s link to A's right-hand column: B must lie to A's right turned a quarter clockwise
    (r above s, p and q beyond them), the only placement where every link joins touching cells, no cell
    lies on another, and no side touches a cell it has no link with."""
    spaces = {**grid("A", SQUARE), **grid("B", SQUARE)}
    links = [("A.q", "B.r"), ("A.s", "B.s"), ("A.p", "A.q"), ("B.s", "A.s")]  # (repeats, inner edges: ignored)
    found = town_map(spaces, links)
    assert found is not None and (found.width, found.height) == (4, 2) and found.holes == ()
    assert {s: found.at[s] for s in ("A.p", "A.q", "A.r", "A.s")} == {"A.p": (0, 0), "A.q": (1, 0), "A.r": (0, 1), "A.s": (1, 1)}
    assert {s: found.at[s] for s in ("B.p", "B.q", "B.r", "B.s")} == {"B.r": (2, 0), "B.s": (2, 1), "B.p": (3, 0), "B.q": (3, 1)}
    assert found.space_at()[(2, 1)] == "B.s"


def test_the_whole_map_is_turned_to_lie_as_the_grids_places_say():
    spaces = {**grid("A", SQUARE), **grid("B", SQUARE)}
    links = [("A.q", "B.r"), ("A.s", "B.s")]
    east = town_map(spaces, links, toward={"A": (1, 0)})  # A toward the right: the map turned half round
    assert min(x for s, (x, _) in east.at.items() if s.startswith("A.")) == 2
    assert all(abs(east.at["A.q"][i] - east.at["B.r"][i]) <= 1 for i in (0, 1))


def test_a_grid_no_placement_fits_and_no_hole_holds_means_no_map():
    assert town_map(grid("A", SQUARE), []) is None                      # one grid: nothing to put together
    spaces = {**grid("A", SQUARE), **grid("C", {"x": (0, 0)})}
    assert town_map(spaces, [("C.x", "A.p"), ("C.x", "A.s")]) is None    # one cell cannot touch both corners
    spaces = {**grid("A", SQUARE), **grid("B", SQUARE)}
    assert town_map(spaces, []) is None                                 # two grids nothing joins


@pytest.fixture(scope="module")
def lnoe():
    from spawnpit.compiler import compile_paths
    from spawnpit.resources import builtin_paths

    return compile_paths(builtin_paths()).pack


@pytest.mark.parametrize("scenario", ["die-zombies-die", "defend-the-manor-house"])
@pytest.mark.parametrize("seed", [1, 5])
def test_the_lnoe_town_is_four_l_boards_round_the_centre_board(lnoe, scenario, seed):
    from spawnpit.engine.human import town_layout

    game = new_game(lnoe, scenario, seed=seed)
    board = game.board
    found = town_layout(game)
    assert found is not None and (found.width, found.height) == (16, 16)
    (hole,) = found.holes
    centre = next(s for s in board.spaces if s.count(".") == 1)
    assert hole.grid == board.info[centre].grid and (hole.left, hole.top, hole.right, hole.bottom) == (4, 4, 11, 11)
    assert len(set(found.at.values())) == len(found.at) == sum(1 for s in board.spaces if s.count(".") == 2)
    for sid, (x, y) in found.at.items():  # every link between two placed spaces joins touching cells
        for n, _, _ in board.links[sid]:
            if n in found.at:
                assert max(abs(x - found.at[n][0]), abs(y - found.at[n][1])) == 1, (sid, n)
    for part, place in board.places.items():  # each board in the quarter its place names
        cells = [xy for s, xy in found.at.items() if s.split(".")[1] == part]
        cx, cy = sum(x for x, _ in cells) / len(cells), sum(y for _, y in cells) / len(cells)
        assert (cx > 7.5) == ("east" in place) and (cy > 7.5) == ("south" in place), (part, place)


def test_the_map_is_drawn_with_the_centre_board_in_its_hole_and_numbers_on_spaces(lnoe):
    from spawnpit.engine.flow import setup
    from spawnpit.engine.human import board_view, building_shorts

    game = new_game(lnoe, "die-zombies-die", seed=5)
    setup(game)
    hero = next(u for u, r in game.state["units"].items() if r["proto"] == "jenny")
    space = game.state["units"][hero]["space"]
    out = Console(file=StringIO(), width=80, color_system=None)
    out.print(board_view(game, {space: 7}, compact=True, viewer="heroes", width=80))
    text = out.file.getvalue()
    shorts = building_shorts(game)
    for bid, building in game.board.buildings.items():  # the legend breaks its lines between names only
        assert any(f"{shorts[bid]} {building.title}" in line for line in text.splitlines()), building.title
    lines = text.splitlines()
    assert lines[0].startswith("╭") and "Small Town (b: each board with its cell names)" in lines[0]
    rows = lines[1:17]
    assert all(len(row) == len(lines[0]) == 65 for row in rows) and lines[17].startswith("╰")
    assert sum("Town Center" in row for row in rows) == 1                # in its hole, a big cell a space, each named
    assert sorted(re.findall(r"[│┃╏┆]([a-c][1-3]) ", "\n".join(rows))) == [c + r for c in "abc" for r in "123"]
    assert sum(row.count("7Je") for row in rows) == 1                   # the option number on Jenny's space, and her label whole
    assert text.count("╭") == 1                                         # one map, not a panel a board
    wide = Console(file=StringIO(), width=60, color_system=None)       # too narrow for the map: board by board
    wide.print(board_view(game, compact=True, width=60))
    assert wide.file.getvalue().count("╭") == 5
