"""Zombie Hunger steps a Zombie into a Hero's space as a walk of one space, so what guards a space
(Blocked Windows) is asked, as for any other Zombie move (Complete Rulebook Appendix III, Blocked Windows)."""

from __future__ import annotations

import pytest

from tests.engine.lnoe_table import bare_game, put


def boarded_building(game) -> tuple[str, str]:
    """A building space of the board and an outdoor space next to it: (inside, outside)."""
    board = game.board
    for space in sorted(board.spaces):
        if not board.building_of(space):
            continue
        for other in sorted(board.spaces):
            if not board.building_of(other) and board.distance(space, other) == 1:
                return space, other
    raise AssertionError("no building next to an outdoor space")


@pytest.mark.parametrize("boarded", [False, True])
def test_a_hungry_zombie_steps_in_unless_the_windows_are_blocked(pack, boarded):
    game = bare_game(pack)
    inside, outside = boarded_building(game)
    hero = put(game, "sheriff_anderson", inside)
    zombie = put(game, "zombie", outside)
    if boarded:
        cid = next(c for c, r in game.state["cards"].items() if r["proto"] == "blocked_windows")
        game.state["decks"][game.state["cards"][cid]["deck"]]["draw"].remove(cid)
        game.state["cards"][cid].update(where="play", status="in_play", target=["space", inside])
    game.emit("zombie_turn.move_zombies")
    if boarded:  # kept out, so not bound by Hunger: a free Zombie, which may step anywhere else or stay
        assert game.state["units"][zombie.id]["space"] != inside
    else:
        assert game.state["units"][zombie.id]["space"] == inside
    assert game.state["units"][hero.id]["space"] == inside
