"""Line of Sight across the joins of a composite board (geometry.TownSight, Board.town_sight).

The L-boards of Last Night on Earth are laid round the centre board as one town: a sight line crosses
the join between two boards as it would cross one board (walls it does not touch stop it, the walls it
touches do not), and the centre board drawn in the hole they leave shares it evenly. Before, sight
between two boards reached only the spaces touching across the join."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spawnpit.engine.board import Board
from spawnpit.engine.geometry import TownSight, hole_boxes, integral, shared_edge
from spawnpit.engine.layout import Hole
from tests.engine.lnoe_table import action_block, put
from tests.engine.test_lnoe_faq import bare_game, give

BANK = "l_boards.bank_gas_station_junkyard."      # northwest without an rng (the first four parts)
CHURCH = "l_boards.church_police_station."        # southwest: its top arm's end meets the bank's left arm


@pytest.fixture(scope="module")
def town_pack(pack):
    return pack


@pytest.fixture(scope="module")
def small_town(town_pack):
    return Board.from_pack(town_pack, "lnoe", "small_town")


@pytest.fixture(scope="module")
def manor_town(town_pack):
    return Board.from_pack(town_pack, "lnoe", "manor_town")


def test_a_line_crosses_the_join_of_two_l_boards_in_the_open(small_town):
    b = small_town
    viewer, middle, target = BANK + "c7", BANK + "c8", CHURCH + "h3"
    assert [b.info[s].building for s in (viewer, middle, target)] == [None, None, None]
    assert b.info[viewer].grid != b.info[target].grid
    assert b.edge(viewer, target) is None  # two spaces apart: the old rule saw no further than the join
    assert b.line_of_sight(viewer, target) and b.line_of_sight(target, viewer)


def test_a_buildings_outline_along_the_join_stops_sight_unless_the_viewer_touches_it(small_town):
    b = small_town
    inside, at_wall = BANK + "a7", BANK + "a8"  # both in the Junkyard; a8 lies along the join
    assert b.info[inside].building == b.info[at_wall].building is not None
    assert b.info[CHURCH + "h1"].building is None
    assert not b.line_of_sight(inside, CHURCH + "h1")  # through the Junkyard's wall a7 does not touch
    assert b.line_of_sight(at_wall, CHURCH + "g1")     # a8 sees through its own wall, two spaces out


def test_the_town_center_shares_the_hole_evenly_and_sees_beyond_the_spaces_it_touches(small_town):
    b = small_town
    town, sight = b.town(), b.town_sight()
    (hole,) = town.holes
    assert (hole.grid, hole.right - hole.left + 1, hole.bottom - hole.top + 1) == ("town_center.town_center", 8, 8)
    widths = {sight.box[s][2] - sight.box[s][0] for s in b.spaces if b.info[s].grid == hole.grid}
    cell = sight.box[BANK + "a1"][2] - sight.box[BANK + "a1"][0]
    assert widths == {Fraction(8, 3) * cell}  # nine spaces, each 2 2/3 L-board spaces across
    assert b.line_of_sight("town_center.a1", BANK + "c3")  # two steps away, in the open
    assert not b._opening("town_center.a1", BANK + "c3", frozenset())


def test_the_manor_house_fills_the_hole_with_a1_by_the_board_it_links_to(manor_town):
    """(Which way the hole's grid is turned is tested on its own below: on the built-in layouts the turn
    that fits is always the first.)"""
    b = manor_town
    sight, (hole,) = b.town_sight(), b.town().holes
    boxes = {s.rsplit(".", 1)[-1]: sight.box[s] for s in b.spaces if b.info[s].grid == hole.grid}
    # manor a1 links to the bank (northwest): its box is the hole's top-left corner, 2 x 2 cells
    cell = sight.box[BANK + "a1"][2] - sight.box[BANK + "a1"][0]
    assert boxes["a1"] == (hole.left * cell, hole.top * cell, (hole.left + 2) * cell, (hole.top + 2) * cell)
    assert len(set(boxes.values())) == 16


def test_the_manor_houses_walls_stop_a_line_across_the_hole_an_l_board_wraps(small_town, manor_town):
    a, c = BANK + "b5", BANK + "g4"  # the line between the L's two arms passes over the centre board
    for b in (small_town, manor_town):
        assert b.info[a].building is None and b.info[c].building is None
        assert b.sight[b.info[a].grid].clear(b.info[a].cell, b.info[c].cell)  # the L-board alone: clear
    assert small_town.line_of_sight(a, c)       # the Town Center is streets
    assert not manor_town.line_of_sight(a, c)   # the Manor House is a building in the way


def test_into_the_manor_house_only_through_a_wall_the_viewer_touches(manor_town):
    b = manor_town
    outside = BANK + "e3"
    inner = [s for s in b.spaces if b.info[s].grid == "manor_house_board.manor_house_board"
             and not any(b.info[n].grid != b.info[s].grid for n, _, _ in b.links[s])]
    assert inner and not any(b.line_of_sight(outside, s) for s in inner)
    assert b.line_of_sight("manor_house_board.a1", outside)  # a1 touches the wall and sees out through it


def test_every_layout_answers_the_same_from_a_fresh_board(town_pack):
    """Sight is worked out from the layout, not from what a board has been asked before."""
    import random

    from spawnpit.engine import board as boards

    one = Board.from_pack(town_pack, "lnoe", "small_town", rng=random.Random(5))
    spaces = [s for s in one.spaces if one.info[s].grid][::7]
    first = {(a, c): one.line_of_sight(a, c) for a in spaces for c in spaces}
    boards._BOARDS.clear()
    other = Board.from_pack(town_pack, "lnoe", "small_town", rng=random.Random(5))
    assert other is not one
    assert {(a, c): other.line_of_sight(a, c) for a, c in reversed(list(first))} == first  # asked in another order


def test_shared_edge_and_integral_boxes():
    assert shared_edge((0, 0, 2, 2), (2, 0, 4, 2)) == ("x", 2, 0, 2)
    assert shared_edge((0, 2, 2, 4), (0, 0, 2, 2)) == ("y", 2, 0, 2)
    assert shared_edge((0, 0, 2, 2), (2, 2, 4, 4)) is None  # a corner only
    assert shared_edge((0, 0, 2, 2), (Fraction(4, 3), 2, 4, 4)) == ("y", 2, Fraction(4, 3), 2)
    boxes = integral({"a": (0, 0, 2, 2), "b": (Fraction(2, 3), 0, 2, Fraction(5, 3))})
    assert all(type(v) is int and v % 2 == 0 for box in boxes.values() for v in box)
    assert boxes["a"][2] * 5 == boxes["b"][3] * 6  # proportions kept


def test_hole_boxes_fill_the_hole_and_break_ties_on_the_first_turn():
    cells = {f"{c}{r}": (c, r) for c in range(3) for r in range(3)}
    boxes = hole_boxes(cells, Hole("g", 1, 1, 8, 8), [], {})
    assert boxes["00"] == (2, 2, 2 + Fraction(16, 3), 2 + Fraction(16, 3))
    assert boxes["22"][2:] == (18, 18)


@pytest.mark.parametrize("corner", [(9, 9), (0, 9), (9, 0), (0, 0)])
def test_hole_boxes_turn_the_grid_so_a_linked_cell_lies_next_to_its_link(corner):
    """Cell 00 linked to a cell outside one corner of the hole: the grid turns so 00 fills that corner."""
    cells = {f"{c}{r}": (c, r) for c in range(3) for r in range(3)}
    boxes = hole_boxes(cells, Hole("g", 1, 1, 8, 8), [("00", "out")], {"out": corner})
    x0, y0, x1, y1 = boxes["00"]
    assert (x0 == 2) == (corner[0] == 0) and (x1 == 18) == (corner[0] == 9)
    assert (y0 == 2) == (corner[1] == 0) and (y1 == 18) == (corner[1] == 9)


def test_a_wall_run_touched_by_the_viewer_is_seen_through_along_its_whole_length():
    # three boxes in a row, a wall under all of them; the viewer above the first sees below the last
    box = {"v": (0, 0, 2, 2), "m": (2, 0, 4, 2), "w": (4, 0, 6, 2),
           "x": (0, 2, 2, 4), "y": (2, 2, 4, 4), "z": (4, 2, 6, 4), "far": (6, 2, 8, 4)}
    walls = [("v", "x"), ("m", "y"), ("w", "z")]
    sight = TownSight.build(box, walls, {k: "g" if k in "vmw" else "h" for k in box})
    assert sight.clear("v", "z")      # v touches the run
    assert sight.clear("m", "far")    # m touches it too: the line passes under w, part of the same run
    assert not sight.clear("far", "v")  # far touches nothing: the run stops it


def test_within_a_grid_only_the_walls_not_its_own_are_asked():
    # one grid g of three cells in a row over a second grid h; g has its own wall between v and m
    box = {"v": (0, 0, 2, 2), "m": (2, 0, 4, 2), "w": (4, 0, 6, 2), "x": (0, 2, 2, 4), "y": (2, 2, 4, 4)}
    grid = {"v": "g", "m": "g", "w": "g", "x": "h", "y": "h"}
    sight = TownSight.build(box, [("m", "w")], grid)
    assert not sight.clear("v", "w") and sight.clear("w", "v")  # the plane: m|w stops v, not w (it touches it)
    assert sight.clear("v", "w", within="g")  # g's own wall: left to g's SightMap
    assert sight.inside == {"g": (), "h": ()} and sight.mixed == {"g": frozenset(), "h": frozenset({0})}
    walled = TownSight.build(box, [("m", "w"), ("v", "x")], grid)  # the second is no wall of g's
    assert walled.mixed["g"] == frozenset({1}) and walled.inside["g"] == ()  # on g's edge: never crossed


def test_a_viewer_touching_a_wall_that_runs_on_past_its_grid_sees_as_on_one_board(write_pack):
    """The review's case: an L-shaped grid whose building wall at a2|b2 runs straight on along the join
    to the small grid in its corner (a3|aitch.a1, a wall: the Shop meets the street). From a3 the whole
    wall is one the viewer touches, so b1 is in sight, as on one board; the grid's own map, which knows
    only a2|b2, said no. The undeclared touching pair a4|aitch.b… is walled along the Shop's outline."""
    from spawnpit.compiler import compile_paths

    folder = write_pack({"boards.pit": BOARDS})
    result = compile_paths([folder])
    assert result.ok, [d.message for d in result.diagnostics]
    b = Board.from_pack(result.pack, "mini", "town")
    sight = b.town_sight()
    assert b.edge("gee.a3", "aitch.a1") == "wall"
    assert b.line_of_sight("gee.a3", "gee.b1") and sight.clear("gee.a3", "gee.b1")
    assert not b.line_of_sight("gee.b1", "gee.a3")  # b1 touches no part of that wall
    assert b.edge("gee.a4", "aitch.a2") is None  # touching across the join, nothing declared
    assert any(seg[1] == "x" and seg[2] == 4 and seg[3] == 12 for seg in sight.segments)  # walled: the Shop


BOARDS = """using mini

board gee "G" {
  approx "test"
  grid 3, 4
  void b3, c3, b4, c4
  building "Shop" { spaces a3, a4; roll 2 }
  wall a2, b2
}

board aitch "H" {
  approx "test"
  grid 2, 2
}

board town "Town" {
  approx "test"
  parts gee, aitch
  link gee.a3, aitch.a1
  link gee.b2, aitch.a1
  link gee.c2, aitch.b1
}
"""


def test_a_hero_is_offered_a_shot_at_a_zombie_two_spaces_away_across_a_join(pack):
    from spawnpit.engine.flow import _allowed

    game = bare_game(pack)
    board, town = game.board, game.board.town()
    at = {xy: s for s, xy in town.at.items()}
    triple = next((s, at[x + 2 * dx, y + 2 * dy]) for s, (x, y) in sorted(town.at.items())
                  for dx, dy in ((1, 0), (0, 1))
                  if (x + 2 * dx, y + 2 * dy) in at and (x + dx, y + dy) in at
                  and board.info[s].grid != board.info[at[x + 2 * dx, y + 2 * dy]].grid
                  and not any(board.info[p].building for p in (s, at[x + dx, y + dy], at[x + 2 * dx, y + 2 * dy])))
    here, there = triple
    sheriff = put(game, "sheriff_anderson", here)
    give(game, "revolver", sheriff)
    shoot = action_block(game, "shoot")
    assert not _allowed(game, shoot, sheriff)
    put(game, "zombie", there)
    assert _allowed(game, shoot, sheriff)
