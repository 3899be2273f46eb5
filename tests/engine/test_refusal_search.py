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
from tests.engine.test_lnoe_session6 import doorways, lock


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


def taken_over(game, building: str) -> str:
    """My God, They've Taken the... in play on `building` (its target), as if played."""
    card = to_hand(game, "my_god_theyve_taken_the", "zombies")
    record = game.state["cards"][card]
    record["where"], record["target"] = "play", ["building", building]
    return card


def test_a_hook_that_does_not_read_where_the_unit_comes_from_is_asked_once_for_each_space(pack, monkeypatch):
    """My God, They've Taken the... reads the space and the Hero, not `event.from`: each space of the
    building it keeps the Heroes out of, refused, is asked about once, though the search comes to it from
    each of the spaces next to it."""
    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    adjacency = game.board.adjacency(movement._rules(game, sheriff)[0])
    spot = max((s for s in sorted(game.board.spaces) if game.board.building_of(s)
                and any(game.board.building_of(o) != game.board.building_of(s) for o in adjacency[s])),
               key=lambda s: len(adjacency[s]))
    building = game.board.building_of(spot)
    outside = sorted(s for s in adjacency[spot] if game.board.building_of(s) != building)
    game.state["units"][sheriff.id]["space"] = outside[0]
    taken_over(game, building)
    asked = counting_asks(game, monkeypatch)
    offered = movement.reach(game, sheriff, 4)
    spaces = [space for space, _ in asked["My God, They've Taken the..."]]
    assert spaces.count(spot) == 1 and len(spaces) == len(set(spaces)) > 10
    assert not {Ref("space", s) for s in game.board.spaces_of(building)} & set(offered)  # still refused


def test_a_hook_that_reads_where_the_unit_comes_from_is_asked_for_each_way_in(pack, monkeypatch):
    """Locked Door locks a doorway (session 22): it reads `event.from`, so a space is asked about again
    from each side the search comes to it from, and only the way through the door is refused (in the
    Manor House, whose rooms have other ways in: each L-board building has one door)."""
    game = bare_game(pack, scenario="defend_the_manor_house")
    sheriff = put(game, "sheriff_anderson", sorted(game.board.spaces)[0])
    through = movement._rules(game, sheriff)[0]
    inside, outside = next((i, o) for i, o in doorways(game, None)
                           if game.board.distance(o, i, through=through, closed=frozenset({(o, i)})) <= 4)
    game.state["units"][sheriff.id]["space"] = outside
    lock(game, inside, outside)
    asked = counting_asks(game, monkeypatch)
    offered = movement.reach(game, sheriff, 4)
    ways_in = [frm for space, frm in asked["Locked Door"] if space == inside]
    assert outside in ways_in and len(set(ways_in)) > 1
    assert Ref("space", inside) in offered  # in by another way within 4 spaces


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


def test_the_tests_of_the_space_alone_are_worked_out_once_for_each_space(pack, monkeypatch):
    """Locked Door's `when` reads where the Hero comes from, so a move's search asks it for every way into
    every space; its tests of the space alone (`space has locked_door`, after `self.played`) are worked out
    once for each space (game._gated_part), the rest only where they hold. The spaces offered are the
    same as when the whole `when` is asked every time."""
    from spawnpit.engine import game as game_module

    game = bare_game(pack, scenario="defend_the_manor_house")
    sheriff = put(game, "sheriff_anderson", sorted(game.board.spaces)[0])
    inside, outside = doorways(game, 1)[0]
    game.state["units"][sheriff.id]["space"] = outside
    lock(game, inside, outside)
    gated = game_module._gated_part
    gate_asked: list = []

    def counting(hook, keys):
        found = gated(hook, keys)
        if found is None or hook.rule["title"] != "Locked Door":
            return found
        gate, rest = found

        def counted(ctx):
            gate_asked.append(ctx.env["space"].id)
            return gate(ctx)
        return counted, rest

    monkeypatch.setattr(game_module, "_gated_part", counting)
    offered = movement.reach(game, sheriff, 5)
    assert gate_asked and len(gate_asked) == len(set(gate_asked))  # once for each space
    assert Ref("space", inside) not in movement.reach(game, sheriff, 1)  # the doorway itself still refused
    monkeypatch.setattr(game_module, "_gated_part", lambda hook, keys: None)
    assert movement.reach(game, sheriff, 5) == offered
