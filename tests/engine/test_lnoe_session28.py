"""Session 28: findings of the play-tests and of last session's list of things left alone."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from rich.console import Console

from spawnpit.engine.board import EVERYTHING
from spawnpit.engine.human import board_view, hole_cells, map_compact, town_layout
from tests.engine.lnoe_table import put
from tests.engine.test_lnoe_faq import bare_game


def _map_lines(game, numbers=None) -> list[str]:
    out = Console(file=StringIO(), width=80, color_system=None)
    out.print(board_view(game, numbers or {}, compact=True, viewer="heroes", width=80))
    return out.file.getvalue().splitlines()


# ---- the centre board drawn over its whole hole -----------------------------------------------------------

@pytest.mark.parametrize("scenario, seed", [("die_zombies_die", 1), ("die_zombies_die", 2), ("die_zombies_die", 7),
                                            ("defend_the_manor_house", 1), ("defend_the_manor_house", 4)])
def test_the_centre_board_covers_its_hole_and_touches_every_cell_it_links_to(pack, scenario, seed):
    """A play-test read the Town Center, drawn as a small 3x3 in the middle of an empty 8x8 square, as far
    from the boards around it, though each of its spaces borders them. Now each space is one big cell
    and the big cells tile the hole, each touching (side or corner) every cell around the hole that its
    space has an edge to, so a step that looks like one on the map is one."""
    game = bare_game(pack, scenario, seed=seed)
    layout = town_layout(game)
    (hole,) = layout.holes
    cells = hole_cells(game, hole)
    assert set(cells) == {s for s in game.board.spaces if game.board.info[s].grid == hole.grid}
    covered = [(x, y) for left, top, right, bottom in cells.values()
               for x in range(left, right + 1) for y in range(top, bottom + 1)]
    assert sorted(covered) == sorted((x, y) for x in range(hole.left, hole.right + 1)
                                     for y in range(hole.top, hole.bottom + 1))  # each cell of the hole once
    links = 0
    for sid, (left, top, right, bottom) in cells.items():
        assert bottom - top >= 1  # two lines at least: its name, then who is there
        for n in game.board.neighbours(sid, through=EVERYTHING):
            if n in layout.at:
                x, y = layout.at[n]
                assert max(left - x, x - right, top - y, y - bottom) == 1, (sid, n)
                links += 1
    assert links >= 4 * 8  # every side of the hole is linked along its length


def test_a_unit_in_the_town_center_is_drawn_in_its_space_s_big_cell(pack):
    game = bare_game(pack, seed=2)
    put(game, "jenny", "town_center.a1")
    for _ in range(3):
        put(game, "zombie", "town_center.c3")
    lines = _map_lines(game, {game.board.resolve("town_center.b2"): 5})
    for name, shown in (("a1", "Je"), ("c3", "Z3"), ("b2", " 5")):
        (row,) = [i for i, line in enumerate(lines) if re.search(rf"[│┃╏]{name} ", line)]
        start = re.search(rf"[│┃╏]{name} ", lines[row]).start() + 1
        end = next(i for i in range(start, len(lines[row])) if lines[row][i] in "│┃╏┆")
        below = lines[row + 1][start:end]
        assert shown in below, (name, lines[row:row + 2])
    assert all(len(line) <= 80 for line in lines)


def test_the_manor_house_is_drawn_with_its_outer_doors_and_walls(pack):
    """The Manor House's outline is wall but for a door on each side (a2, c1, d3, b4, reconstructed): the
    hole's sides were drawn as open street, so a Hero defending the house could not see its doors."""
    game = bare_game(pack, "defend_the_manor_house", seed=1)
    layout = town_layout(game)
    (hole,) = layout.holes
    panel = map_compact(game, {}, {})
    text = panel.renderable
    console = Console(file=StringIO(), width=80, color_system="truecolor")
    lines = text.plain.split("\n")
    doors = walls = 0
    around = layout.space_at()
    for sid, (left, top, right, bottom) in hole_cells(game, hole).items():
        # a cell x of the map is characters 4x to 4x+2 of its line, the edge before it character 4x-1
        for y in range(top, bottom + 1):  # the hole's left and right sides
            for ring_x, at in ((left - 1, 4 * left - 1), (right + 1, 4 * (right + 1) - 1)):
                ring = around.get((ring_x, y)) if ring_x in (hole.left - 1, hole.right + 1) else None
                kind = game.board.edge(ring, sid) if ring else None
                if kind is not None:
                    assert lines[y][at] == {"door": "╏", "wall": "┃"}.get(kind, "│"), (sid, ring, kind, y)
                    doors, walls = doors + (kind == "door"), walls + (kind == "wall")
        for x in range(left, right + 1):  # the hole's top side: the cell above underlined by the kind of edge
            ring = around.get((x, top - 1)) if top == hole.top else None
            kind = game.board.edge(ring, sid) if ring else None
            if kind in ("door", "wall"):
                style = text.get_style_at_offset(console, sum(len(line) + 1 for line in lines[:top - 1]) + 4 * x)
                assert style.underline and (style.color is not None and style.color.name == "yellow") == (kind == "door"), (sid, ring, kind)
                doors, walls = doors + (kind == "door"), walls + (kind == "wall")
    assert doors >= 3 and walls >= 10


def test_a_manor_house_space_borders_every_l_board_space_it_touches(pack):
    """The Manor House's spaces are two L-board spaces across, so each borders exactly the L-board spaces
    around its two, corners included. The links were the Town Center's (2 2/3 across): a play-test's
    Zombie below c4 had no diagonal way into d4, while its mirror below d4 could step into c4."""
    game = bare_game(pack, "defend_the_manor_house", seed=3)
    layout = town_layout(game)
    (hole,) = layout.holes
    around = layout.space_at()
    for sid, (left, top, right, bottom) in hole_cells(game, hole).items():
        touching = {around[x, y] for x in range(left - 1, right + 2) for y in range(top - 1, bottom + 2)
                    if (x, y) in around}
        linked = {n for n in game.board.neighbours(sid, through=EVERYTHING) if n in layout.at}
        assert touching == linked, sid
        assert right - left == bottom - top == 1  # two by two


def test_the_goal_at_the_end_of_the_sun_track_reads_as_the_track_does(pack):
    """The goals line said "Heroes win at sundown" for Defend the Manor House, whose text says the Heroes
    hold out until dawn: the event's id, or the title of the rule of the same name (Sundown), was shown.
    Now the event's own title, as on the scenario sheet."""
    from spawnpit.engine.human import cause_text, objectives_view

    game = bare_game(pack, "defend_the_manor_house")
    assert objectives_view(game).plain.endswith("·  Heroes win at the end of the Sun Track")
    met = next(o for o in game.objectives if o.get("at") == "sundown")
    result = {"winner": "heroes", "side": "heroes", "cause": met["text"], "round": 18}
    assert cause_text(game, result) == "Heroes win at the end of the Sun Track"


def test_under_auto_spawn_holding_back_is_not_said_to_ease_a_spawn_roll(pack):
    """Defend the Manor House has Zombies Auto Spawn: no 2D6 roll, so fewer Zombies on the board make
    nothing easier. A play-test was offered "Hold back one or more of them (fewer Zombies on the board
    make the next spawn roll easier)"; holding back still works."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import answer

    game = bare_game(pack, "defend_the_manor_house")
    game.state["counters"]["auto_spawn"] = 1  # what the rule Zombies Auto Spawn sets up
    script = answer(game, "zombies", "Hold back one or more of them", "Place the rest now")
    left = dice(game, [4])  # no 2D6: only the D6 of how many
    game.emit("zombie_turn.spawn_roll")
    game.emit("zombie_turn.place_spawns")
    assert not left
    assert script.asked[0][1] == ["Place every Zombie the die allows", "Hold back one or more of them"]
    assert sum(e["count"] for e in game.entries if e["type"] == "spawn") == 3
