"""A move's search asks the `instead of KIND.entered` hooks in play about each space it comes to (so a move
is never offered a space the walk would be turned back from). It asks no more than the answer needs: a hook
that does not read where the unit comes from is asked once for each space, not once for each way in, and a
hook whose `when` starts with tests the space cannot change (`unit.side == zombies` while a Hero moves) is
asked once for the whole search. The spaces offered are the same either way."""

from __future__ import annotations

from spawnpit.engine import movement
from spawnpit.engine.game import Game, never
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import bare_game, put
from tests.engine.test_lnoe_faq import to_hand
from tests.engine.test_lnoe_session6 import lock


def counting_asks(game, monkeypatch) -> dict:
    """Every question a search's askers work out: hook title → list of (space, from) asked (an asker
    that knew at once the hook cannot apply, `never`, works nothing out)."""
    asked: dict = {}
    real = Game.asker

    def asker(self, hook, params, keys):
        ask = real(self, hook, params, keys)
        if ask is never:
            return ask

        def counted(*values):
            asked.setdefault(hook.rule["title"], []).append(tuple(v.id if v is not None else None for v in values))
            return ask(*values)

        return counted

    monkeypatch.setattr(Game, "asker", asker)
    return asked


def door_and_outside(game) -> tuple[str, str]:
    board = game.board
    return next((s, o) for s in sorted(board.spaces) if board.building_of(s)
                for o in sorted(board.spaces) if not board.building_of(o) and board.distance(s, o) == 1)


def test_a_hook_that_does_not_read_where_the_unit_comes_from_is_asked_once_for_each_space(pack, monkeypatch):
    """Locked Door reads the space and the Hero, not `event.from`: the locked space, refused, is asked about
    once, though the search comes to it from each of the spaces next to it."""
    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    adjacency = game.board.adjacency(movement._rules(game, sheriff)[0])
    door = max((s for s in sorted(game.board.spaces) if game.board.building_of(s)), key=lambda s: len(adjacency[s]))
    beside = sorted(adjacency[door])
    assert len(beside) >= 3
    game.state["units"][sheriff.id]["space"] = beside[0]
    lock(game, door)
    asked = counting_asks(game, monkeypatch)
    offered = movement.reach(game, sheriff, 4)
    spaces = [space for space, _ in asked["Locked Door"]]
    assert spaces.count(door) == 1 and len(spaces) == len(set(spaces)) > 10
    assert Ref("space", door) not in offered  # still refused
    assert {Ref("space", s) for s in beside[1:]} <= set(offered)  # (so the search came to it from them too)


def blocked_windows_on(game, space: str) -> str:
    """Blocked Windows played on `space` (in play, its target that space)."""
    card = to_hand(game, "blocked_windows", "heroes")
    record = game.state["cards"][card]
    record["where"], record["target"] = "play", ["space", space]
    return card


def test_a_hook_whose_first_tests_the_moving_unit_fails_is_not_asked_about_any_space(pack, monkeypatch):
    """Blocked Windows keeps Zombies out (`self.played and unit.side == zombies and …`): while a Hero's
    move is searched it is never asked about a space; while a Zombie's is, about every way in."""
    game = bare_game(pack)
    door, outside = door_and_outside(game)
    blocked_windows_on(game, door)
    sheriff = put(game, "sheriff_anderson", outside)
    zombie = put(game, "zombie", outside)
    asked = counting_asks(game, monkeypatch)
    assert Ref("space", door) in movement.reach(game, sheriff, 1)
    assert "Blocked Windows" not in asked
    assert Ref("space", door) not in movement.reach(game, zombie, 1)
    ways_in = [frm for space, frm in asked["Blocked Windows"]]
    assert len(ways_in) > len(set(ways_in))  # it reads `event.from`: asked about spaces again from elsewhere
