"""Session 6 LNOE content: each Locked Door keeps the space it locked (cancelling one copy lifts its own
marker only; a Hero with Keys goes through and throws marker and card away, Complete Rulebook §3.14.3.2),
and Defend the Manor House bars Legions of the Dead from the Manor House with a marker its rule places.
Scripted answers, exact outcomes."""

from __future__ import annotations

import pytest

from spawnpit.engine import movement
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import bare_game, put
from tests.engine.test_lnoe_faq import answer, give, space_marked, to_hand, where

LOCKED = Ref("marker", "locked_door")


def lock(game, space: str) -> str:
    """The Zombies play a Locked Door from their hand on `space` (a building space with no Hero)."""
    card = to_hand(game, "locked_door", "zombies")
    answer(game, "zombies", "locked_door", space, None)
    answer(game, "heroes", None)  # no cancel card is played on it
    game.emit("zombie_turn.spawn_roll.start")
    assert where(game, card) == "play"
    return card


def building_spaces(game, n: int) -> list[str]:
    spaces = sorted(s for s in game.board.spaces if game.board.building_of(s))
    return spaces[:n]


def test_each_locked_door_keeps_its_own_space_and_cancelling_one_lifts_only_its_marker(pack):
    game = bare_game(pack)
    first, second = building_spaces(game, 2)
    one, two = lock(game, first), lock(game, second)
    assert game.state["cards"][one]["target"] == ["space", first]
    assert game.state["cards"][two]["target"] == ["space", second]
    assert sorted(space_marked(game, "locked_door")) == [first, second]
    game.cancel_card(Ref("card", one), game._plain_ctx())
    assert where(game, one) == "discard" and where(game, two) == "play"
    assert space_marked(game, "locked_door") == [second]


def test_a_locked_door_cannot_be_chosen_twice_for_one_space(pack):
    game = bare_game(pack)
    first, = building_spaces(game, 1)
    lock(game, first)
    card = to_hand(game, "locked_door", "zombies")
    seen = []
    answer(game, "zombies", "locked_door", lambda options: seen.extend(options) or 0, None)
    answer(game, "heroes", None)
    game.emit("zombie_turn.spawn_roll.start")
    assert seen and Ref("space", first) not in seen
    assert where(game, card) == "play"


@pytest.mark.parametrize("keys", [False, True])
def test_a_hero_without_keys_is_kept_out_and_one_with_keys_discards_marker_and_card(pack, keys):
    game = bare_game(pack)
    door, = building_spaces(game, 1)
    card = lock(game, door)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    if keys:
        give(game, "keys", sheriff)
    outcome = game.raise_now("hero.entered", {"unit": sheriff, "space": Ref("space", door)})
    if keys:
        assert outcome is None
        assert where(game, card) == "discard" and space_marked(game, "locked_door") == []
    else:
        assert outcome == "replaced"
        assert where(game, card) == "play" and space_marked(game, "locked_door") == [door]


def test_a_locked_door_guards_only_its_own_space(pack):
    game = bare_game(pack)
    door, other = building_spaces(game, 2)
    lock(game, door)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    assert game.raise_now("hero.entered", {"unit": sheriff, "space": Ref("space", other)}) is None


def _legions_offers(game) -> list[str]:
    """The buildings the Zombies are offered when Legions of the Dead is played (they take the first)."""
    offered: list = []
    to_hand(game, "legions_of_the_dead", "zombies")
    answer(game, "zombies", "legions_of_the_dead", lambda options: offered.extend(options) or 0)
    answer(game, "heroes", None)
    game.emit("zombie_turn.spawn_roll.start")
    assert offered, "Legions of the Dead offered no building"
    return [b.id for b in offered if b is not None]


def test_legions_of_the_dead_never_fills_the_manor_house_in_defend_the_manor_house(pack):
    game = bare_game(pack, scenario="defend_the_manor_house")
    manor = next(b for b, info in game.board.buildings.items() if info.title == "Manor House")
    game.emit("setup")
    assert game.table.has(Ref("building", manor), Ref("marker", "no_legions"))
    for record in game.state["units"].values():  # no Hero left anywhere: only the marker keeps the house out
        if record["side"] == "heroes":
            record["space"] = None
    offered = _legions_offers(game)
    assert manor not in offered and len(offered) >= 6


def test_legions_of_the_dead_may_fill_any_building_without_a_hero_elsewhere(pack):
    game = bare_game(pack)
    offered = _legions_offers(game)
    assert sorted(offered) == sorted(game.board.buildings)


def test_a_cards_target_must_be_something_on_the_table(pack):
    game = bare_game(pack)
    card = lock(game, building_spaces(game, 1)[0])
    ctx = game._plain_ctx()
    ctx.env["c"] = Ref("card", card)
    with pytest.raises(Exception, match="must be something on the table"):
        game.table.write_target(ctx, ["c", "target"], 3)
    game.table.write_target(ctx, ["c", "target"], None)
    assert "target" not in game.state["cards"][card]


@pytest.mark.parametrize("keys", [False, True])
def test_reach_leaves_out_a_space_a_locked_door_refuses_the_hero(pack, keys):
    """reach() asks the `instead of hero.entered` hooks in play, so a move is never offered a space the
    walk would be turned back from (Locked Door), while a Hero with Keys is offered it."""
    game = bare_game(pack)
    board = game.board
    door, outside = next((s, o) for s in sorted(board.spaces) if board.building_of(s)
                         for o in sorted(board.spaces) if not board.building_of(o) and board.distance(s, o) == 1)
    sheriff = put(game, "sheriff_anderson", outside)
    before = movement.reach(game, sheriff, 1)
    assert Ref("space", door) in before
    lock(game, door)
    if keys:
        give(game, "keys", sheriff)
    after = movement.reach(game, sheriff, 1)
    assert (Ref("space", door) in after) is keys
    assert [s for s in before if s.id != door] == [s for s in after if s.id != door]


def test_keys_open_the_second_locked_door_and_leave_the_first(pack):
    """Each copy answers for its own space: a Hero with Keys entering the second door's space discards the
    second copy and its marker; the first copy, its marker and a Keyless Hero's refusal stay."""
    game = bare_game(pack)
    first, second = building_spaces(game, 2)
    one, two = lock(game, first), lock(game, second)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    give(game, "keys", sheriff)
    assert game.raise_now("hero.entered", {"unit": sheriff, "space": Ref("space", second)}) is None
    assert where(game, two) == "discard" and where(game, one) == "play"
    assert space_marked(game, "locked_door") == [first]
    jake = put(game, "jake_cartwright", "town_center.b2")
    assert game.raise_now("hero.entered", {"unit": jake, "space": Ref("space", first)}) == "replaced"


def test_a_locked_door_in_the_zombies_hand_does_not_hide_the_one_in_play(pack):
    """`self` of a card's hooks is a copy in play before one held: the held copy comes first on the table
    here, and the copy in play still locks its space and is cancelled with its marker."""
    game = bare_game(pack)
    door, = building_spaces(game, 1)
    held = to_hand(game, "locked_door", "zombies")
    game.state["cards"][held]["where"] = "box"  # out of the way while the next copy is played
    played = lock(game, door)
    game.state["cards"][held]["where"] = "side:zombies"
    assert list(game.state["cards"]).index(held) < list(game.state["cards"]).index(played)
    assert game.owner_ref("card:locked_door") == Ref("card", played)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    assert game.raise_now("hero.entered", {"unit": sheriff, "space": Ref("space", door)}) == "replaced"
    game.cancel_card(Ref("card", played), game._plain_ctx())
    assert where(game, held) == "side:zombies" and space_marked(game, "locked_door") == []


def _entered(game) -> list[str]:
    """Records every space a `*.entered` event is raised for, in order."""
    seen: list[str] = []
    raise_now = game.raise_now

    def spy(event, params, *rest, **kw):
        if event.endswith(".entered"):
            seen.append(params["space"].id)
        return raise_now(event, params, *rest, **kw)
    game.raise_now = spy
    return seen


def test_a_walk_to_a_locked_space_steps_toward_it_and_is_turned_back_there(pack):
    game = bare_game(pack)
    board = game.board
    door, near, start = next((d, n, s) for d in sorted(board.spaces) if board.building_of(d)
                             for n in sorted(board.spaces) if board.distance(d, n) == 1
                             for s in sorted(board.spaces)
                             if board.distance(s, d) == 2 and board.distance(s, n) == 1 and not board.building_of(s))
    sheriff = put(game, "sheriff_anderson", start)
    lock(game, door)
    seen = _entered(game)
    movement.walk(game, sheriff, door, 2, game._plain_ctx())
    assert len(seen) == 2 and seen[-1] == door
    assert where(game, sheriff) == seen[0] != start


def test_a_walk_goes_round_a_locked_space_on_its_way(pack):
    game = bare_game(pack)
    board = game.board
    through, _ = movement._own_rules(game, put(game, "sheriff_anderson", "town_center.b2"))

    def around(a, b, x):
        return board.distance(a, b, through=through, blocked=frozenset({x}))
    start, goal, door = next(
        (a, b, x) for x in sorted(board.spaces) if board.building_of(x)
        for a in sorted(board.neighbours(x, through=through))
        for b in sorted(board.neighbours(x, through=through))
        if a < b and board.distance(a, b, through=through) == 2 and 2 < around(a, b, x) < 6)
    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", start)
    lock(game, door)
    seen = _entered(game)
    n = around(start, goal, door)
    movement.walk(game, sheriff, goal, n, game._plain_ctx())
    assert door not in seen and len(seen) == n
    assert where(game, sheriff) == goal


def test_only_a_card_in_play_has_a_target(pack):
    game = bare_game(pack)
    held = to_hand(game, "locked_door", "zombies")
    ctx = game._plain_ctx()
    ctx.env["c"] = Ref("card", held)
    with pytest.raises(Exception, match="only a card being played or in play has a target"):
        game.table.write_target(ctx, ["c", "target"], Ref("space", building_spaces(game, 1)[0]))
    assert "target" not in game.state["cards"][held]
