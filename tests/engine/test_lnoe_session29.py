"""Session 29: last session's list of things left alone, and the findings of its play-tests."""

from __future__ import annotations

import re
from fractions import Fraction
from io import StringIO

import pytest
from rich.console import Console

from spawnpit.engine.board import EVERYTHING
from spawnpit.engine.human import board_view, town_layout
from tests.engine.test_lnoe_faq import bare_game


def _map_lines(game, numbers=None) -> list[str]:
    out = Console(file=StringIO(), width=80, color_system=None)
    out.print(board_view(game, numbers or {}, compact=True, viewer="heroes", width=80))
    return out.file.getvalue().splitlines()


# ---- the Town Center's links follow its 2 2/3-wide spaces ------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 7])
def test_a_town_center_space_borders_exactly_the_l_board_spaces_its_square_touches(pack, seed):
    """The Town Center's 3x3 spaces share the 8x8 square the L-boards leave, each 2 2/3 L-board spaces
    across (line of sight is worked out on that split). Its links were another split: b1 bordered NW f4,
    which a space 2 2/3 across from the corner cannot reach, and a1 did not border g4, which it touches.
    Now each space borders exactly the L-board spaces whose square touches its own, corners included."""
    game = bare_game(pack, "die_zombies_die", seed=seed)
    layout = town_layout(game)
    (hole,) = layout.holes
    around = layout.space_at()
    side = Fraction(hole.right - hole.left + 1, 3)
    assert side == Fraction(8, 3)
    borders = 0
    for sid in game.board.spaces:
        if game.board.info[sid].grid != hole.grid:
            continue
        cell = sid.rsplit(".", 1)[-1]
        col, row = "abc".index(cell[0]), int(cell[1]) - 1
        left, top = hole.left + col * side, hole.top + row * side
        right, bottom = left + side, top + side
        touching = {space for (x, y), space in around.items()
                    if x <= right and x + 1 >= left and y <= bottom and y + 1 >= top}  # a map cell is 1x1
        linked = {n for n in game.board.neighbours(sid, through=EVERYTHING) if n in layout.at}
        assert touching == linked, (cell, sorted(touching ^ linked))
        borders += len(linked)
    assert borders == 4 * 11  # each L-board: its corner cell, and four cells along each inner edge (two shared)


def test_the_town_center_keeps_its_name_on_the_map(pack):
    """Drawn 3-2-3 (nearest its 2 2/3 split), the middle space is too narrow for the board's name, which
    goes on the free line of a corner space instead."""
    game = bare_game(pack, "die_zombies_die", seed=2)
    lines = _map_lines(game)
    assert sum("Town Center" in line for line in lines) == 1
    (named,) = [i for i, line in enumerate(lines) if "│a1 " in line]
    assert re.search(r"│Town Center│", lines[named + 2])  # a1's third line: the cell is three map cells across


# ---- Extra Zombie Move and Old Betsy -----------------------------------------------------------------------

def test_a_zombie_old_betsy_held_back_takes_no_extra_step_under_extra_zombie_move(pack):
    """Old Betsy's hold ends a Zombie's move. Under Extra Zombie Move (Complete Rulebook §16.4.9) the held
    Zombie still took the extra step after the Move Zombies step, and was rolled for again."""
    import copy

    from spawnpit.engine import AIPolicy
    from spawnpit.engine.state import Ref
    from tests.engine.lnoe_table import dice, put
    from tests.engine.test_lnoe_faq import to_hand, where

    pack = copy.deepcopy(pack)
    scenario = next(o for o in pack["objects"] if o["kind"] == "scenario" and o["id"] == "die_zombies_die")
    scenario["rules"] = [*scenario.get("rules", []), {"rule": "extra_zombie_move_1", "args": {}, "dots": 4}]
    game = bare_game(pack)
    game.policies["zombies"] = AIPolicy()
    a1 = game.board.resolve("town_center.a1")
    put(game, "becky", "town_center.c3")
    held = put(game, "zombie", a1)
    free = put(game, "zombie", "town_center.a3")
    to_hand(game, "old_betsy", "heroes")
    game.mark(Ref("space", a1), "old_betsy", 1, game._plain_ctx())
    left = dice(game, [2])  # Old Betsy's one roll, as the Zombie steps out in the Move Zombies step: held
    for event in ("zombie_turn.move_zombies.start", "zombie_turn.move_zombies", "zombie_turn.move_zombies.end"):
        game.emit(event)
    assert not left  # no second roll: the held Zombie tried no extra step out of her space
    assert where(game, held) == a1
    c3 = game.board.resolve("town_center.c3")
    assert where(game, free) == c3  # the other Zombie's move and its extra step: next to Becky, then in on her
    assert not any(game.state["units"][u.id].get("markers", {}).get("held_back") for u in (held, free))


# ---- `c`: the side's abilities ----------------------------------------------------------------------------

def test_c_says_what_the_side_s_heroes_can_do(pack):
    """A Hero's abilities (Blitz!, Youth, Man of Action) were shown only by `?N` on a question that offered
    the Hero; `c`, which says what each card does, said nothing of them. They follow the cards, once for
    each kind of unit on the board, and only the side's own."""
    from spawnpit.engine.human import cards_view
    from tests.engine.lnoe_table import put

    game = bare_game(pack)
    put(game, "johnny", "town_center.a1")
    put(game, "sally", "town_center.b2")
    for _ in range(2):
        put(game, "zombie", "town_center.c3")
    text = cards_view(game, "heroes").plain
    assert "Blitz! (Johnny): When his move takes him into a space with Zombies" in text
    assert "Lightweight (Sally): The only Gun she can fire is a Revolver" in text
    assert text.count("Youth (") == 2  # his and hers
    assert "Man of Action" not in text  # the Sheriff is not on the board
    short = cards_view(game, "heroes", line=60).plain.splitlines()
    assert all(len(row) <= 60 for row in short) and any(row.startswith("Blitz! (Johnny): ") for row in short)
    assert "Blitz!" not in cards_view(game, "zombies").plain


# ---- Hero's Sacrifice, played by the ai ---------------------------------------------------------------------

@pytest.mark.parametrize("zombies_there, wounded, played, effect", [
    (2, False, True, "along"),   # Zombies to take along, nobody to heal
    (0, True, True, "heal"),     # nobody to take along, a wounded Hero
    (0, False, False, None),     # nothing to do: kept for a later death
    (3, True, True, "along"),    # three Zombies beat one Wound
])
def test_the_ai_plays_heros_sacrifice_only_for_an_effect_that_does_something(pack, zombies_there, wounded, played, effect):
    """The ai had no advice on Hero's Sacrifice: it played it or not at random, and took either effect at
    random, healing when nobody was wounded while Zombies stood in the fallen Hero's space."""
    from spawnpit.engine import AIPolicy
    from tests.engine.lnoe_table import put
    from tests.engine.test_lnoe_faq import to_hand, where

    game = bare_game(pack)
    game.policies["heroes"] = AIPolicy()
    billy = put(game, "billy", "town_center.b2")
    jenny = put(game, "jenny", "town_center.a1")
    if wounded:
        game.state["units"][jenny.id]["wounds"] = 1
    crowd = [put(game, "zombie", "town_center.b2") for _ in range(zombies_there)]
    card = to_hand(game, "heros_sacrifice", "heroes")
    game.kill(billy, None, game._plain_ctx())
    assert (where(game, card) == "discard") == played
    assert all(game.state["units"][z.id]["space"] is None for z in crowd) == (effect == "along" or not crowd)
    assert game.state["units"][jenny.id]["wounds"] == (0 if effect == "heal" else int(wounded))
