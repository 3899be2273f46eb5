"""Session 6 LNOE content: each Locked Door keeps the doorway it locked (cancelling one copy lifts its own
markers only; a Hero with Keys goes through and throws marker and card away, Complete Rulebook §3.14.3.2),
and Defend the Manor House bars Legions of the Dead from the Manor House with a marker its rule places.
Session 22: the Locked Door locks a doorway, not a building space (§3.14.3.1: "place a Locked Door Marker
over that doorway"): no Hero goes through it, in or out, and the building's other ways in stay open.
Scripted answers, exact outcomes."""

from __future__ import annotations

import pytest

from spawnpit.engine import movement
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import bare_game, put
from tests.engine.test_lnoe_faq import answer, give, space_marked, to_hand, where

LOCKED = Ref("marker", "locked_door")


def doorways(game, n: int | None) -> list[tuple[str, str]]:
    """`n` doorways (None: every one found), each (a building space, the space through its door), no two
    sharing a space."""
    board, found, used = game.board, [], set()
    for inside in sorted(board.spaces):
        if not board.building_of(inside) or inside in used:
            continue
        outside = next((o for o in sorted(board.spaces) if o not in used and board.edge(inside, o) == "door"), None)
        if outside is not None:
            found.append((inside, outside))
            used |= {inside, outside}
            if len(found) == n:
                return found
    assert n is None and found, f"fewer than {n} doorways"
    return found


def lock(game, inside: str, outside: str) -> str:
    """The Zombies play a Locked Door from their hand on the doorway between `inside` (a building space)
    and `outside`."""
    card = to_hand(game, "locked_door", "zombies")
    answer(game, "zombies", "locked_door", inside, outside, None)
    answer(game, "heroes", None)  # no cancel card is played on it
    game.emit("zombie_turn.spawn_roll.start")
    assert where(game, card) == "play"
    return card


def enters(game, unit, space: str, came_from: str):
    """A step of a walk: the unit enters `space` from `came_from` ('replaced' when a hook keeps it out)."""
    return game.raise_now("hero.entered", {"unit": unit, "space": Ref("space", space), "from": Ref("space", came_from)})


def test_each_locked_door_keeps_its_own_doorway_and_cancelling_one_lifts_only_its_markers(pack):
    game = bare_game(pack)
    (in1, out1), (in2, out2) = doorways(game, 2)
    one, two = lock(game, in1, out1), lock(game, in2, out2)
    assert game.state["cards"][one]["target"] == ["space", in1]
    assert game.state["cards"][two]["target"] == ["space", in2]
    assert sorted(space_marked(game, "locked_door")) == sorted([in1, out1, in2, out2])
    game.cancel_card(Ref("card", one), game._plain_ctx())
    assert where(game, one) == "discard" and where(game, two) == "play"
    assert sorted(space_marked(game, "locked_door")) == sorted([in2, out2])


def test_only_doorways_are_offered_and_a_locked_one_is_not_offered_again(pack):
    game = bare_game(pack)
    (inside, outside), = doorways(game, 1)
    lock(game, inside, outside)
    card = to_hand(game, "locked_door", "zombies")
    first, second = [], []
    answer(game, "zombies", "locked_door", lambda options: first.extend(options) or 0,
           lambda options: second.extend(options) or 0, None)
    answer(game, "heroes", None)
    game.emit("zombie_turn.spawn_roll.start")
    assert where(game, card) == "play"
    assert first and Ref("space", inside) not in first and Ref("space", outside) not in first
    assert all(game.board.building_of(s.id) for s in first)
    assert all(any(game.board.edge(s.id, o) == "door" for o in game.board.spaces) for s in first)
    assert second and all(game.board.edge(first[0].id, o.id) == "door" for o in second)


@pytest.mark.parametrize("keys", [False, True])
def test_a_hero_without_keys_is_kept_out_and_one_with_keys_discards_marker_and_card(pack, keys):
    game = bare_game(pack)
    (inside, outside), = doorways(game, 1)
    card = lock(game, inside, outside)
    sheriff = put(game, "sheriff_anderson", outside)
    if keys:
        give(game, "keys", sheriff)
    outcome = enters(game, sheriff, inside, outside)
    if keys:
        assert outcome is None
        assert where(game, card) == "discard" and space_marked(game, "locked_door") == []
    else:
        assert outcome == "replaced"
        assert where(game, card) == "play" and sorted(space_marked(game, "locked_door")) == sorted([inside, outside])


def test_no_hero_goes_out_through_a_locked_door_either(pack):
    game = bare_game(pack)
    (inside, outside), = doorways(game, 1)
    lock(game, inside, outside)
    sheriff = put(game, "sheriff_anderson", inside)
    assert enters(game, sheriff, outside, inside) == "replaced"


def test_a_hero_standing_in_the_doorway_may_be_locked_in(pack):
    """Session 25 (a play-test): the doorway of a building space a Hero stood in was never offered, and
    nothing said why; no rule forbids it (Complete Rulebook §3.14.3, App. III: a marker over the doorway)."""
    game = bare_game(pack)
    (inside, outside), = doorways(game, 1)
    sheriff = put(game, "sheriff_anderson", inside)
    lock(game, inside, outside)
    assert sorted(space_marked(game, "locked_door")) == sorted([inside, outside])
    assert enters(game, sheriff, outside, inside) == "replaced"


def test_a_locked_door_guards_only_its_own_doorway(pack):
    """The building space and the street space stay open by any other way: the rule locks a doorway, not
    a space (before session 22 the whole building space was refused)."""
    game = bare_game(pack)
    board = game.board
    (inside, outside), = doorways(game, 1)
    lock(game, inside, outside)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    other_in = next(s for s in sorted(board.spaces) if board.edge(inside, s) == "open")  # inside the building too
    other_out = next(s for s in sorted(board.spaces) if board.edge(outside, s) == "open" and s != inside)
    assert enters(game, sheriff, inside, other_in) is None
    assert enters(game, sheriff, outside, other_out) is None
    assert enters(game, sheriff, other_in, inside) is None


@pytest.mark.parametrize("keys", [False, True])
def test_reach_leaves_out_a_space_only_the_locked_door_led_to(pack, keys):
    """reach() asks the `instead of hero.entered` hooks in play, so a move is never offered a space the
    walk would be turned back from (through the Locked Door), while a Hero with Keys is offered it."""
    game = bare_game(pack)
    (inside, outside), = doorways(game, 1)
    sheriff = put(game, "sheriff_anderson", outside)
    before = movement.reach(game, sheriff, 1)
    assert Ref("space", inside) in before
    lock(game, inside, outside)
    if keys:
        give(game, "keys", sheriff)
    after = movement.reach(game, sheriff, 1)
    assert (Ref("space", inside) in after) is keys
    assert [s for s in before if s.id != inside] == [s for s in after if s.id != inside]


def test_keys_open_the_second_locked_door_and_leave_the_first(pack):
    """Each copy answers for its own doorway: a Hero with Keys going through the second discards the second
    copy and its markers; the first copy, its markers and a Keyless Hero's refusal stay."""
    game = bare_game(pack)
    (in1, out1), (in2, out2) = doorways(game, 2)
    one, two = lock(game, in1, out1), lock(game, in2, out2)
    sheriff = put(game, "sheriff_anderson", out2)
    give(game, "keys", sheriff)
    assert enters(game, sheriff, in2, out2) is None
    assert where(game, two) == "discard" and where(game, one) == "play"
    assert sorted(space_marked(game, "locked_door")) == sorted([in1, out1])
    jake = put(game, "jake_cartwright", out1)
    assert enters(game, jake, in1, out1) == "replaced"


def test_a_locked_door_in_the_zombies_hand_does_not_hide_the_one_in_play(pack):
    """`self` of a card's hooks is a copy in play before one held: the held copy comes first on the table
    here, and the copy in play still locks its doorway and is cancelled with its markers."""
    game = bare_game(pack)
    (inside, outside), = doorways(game, 1)
    held = to_hand(game, "locked_door", "zombies")
    game.state["cards"][held]["where"] = "box"  # out of the way while the next copy is played
    played = lock(game, inside, outside)
    game.state["cards"][held]["where"] = "side:zombies"
    assert list(game.state["cards"]).index(held) < list(game.state["cards"]).index(played)
    assert game.owner_ref("card:locked_door") == Ref("card", played)
    sheriff = put(game, "sheriff_anderson", outside)
    assert enters(game, sheriff, inside, outside) == "replaced"
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


def _walking(game):
    return movement._own_rules(game, put(game, "sheriff_anderson", sorted(game.board.spaces)[0]))[0]


def test_a_walk_through_a_locked_door_is_turned_back_there(pack):
    """Sent through the locked doorway, with no other way in within reach, the Hero steps up to the door
    and is turned back there."""
    game = bare_game(pack)
    board, through = game.board, _walking(game)
    inside, outside, start = next(
        (i, o, s) for i, o in doorways(game, None)
        for s in sorted(board.neighbours(o, through=through))
        if board.distance(s, i, through=through) == 2
        and board.distance(s, i, through=through, closed=frozenset({(o, i)})) > 2)
    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", start)
    lock(game, inside, outside)
    seen = _entered(game)
    movement.walk(game, sheriff, inside, 2, game._plain_ctx())
    assert seen == [outside, inside]
    assert where(game, sheriff) == outside


def test_a_walk_goes_round_a_locked_door_by_another_way_in(pack):
    """The Manor House has several doors (each L-board building has one): with one locked, a Hero walks
    round to another and in."""
    game = bare_game(pack, scenario="defend_the_manor_house")
    board, through = game.board, _walking(game)

    def around(a, b):
        return board.distance(a, b, through=through, closed=frozenset({(a, b)}))
    inside, outside = min(((i, o) for i, o in doorways(game, None) if 2 < around(o, i) < 40),
                          key=lambda p: around(p[1], p[0]))
    game = bare_game(pack, scenario="defend_the_manor_house")
    sheriff = put(game, "sheriff_anderson", outside)
    lock(game, inside, outside)
    seen = _entered(game)
    n = around(outside, inside)
    movement.walk(game, sheriff, inside, n, game._plain_ctx())
    assert len(seen) == n and seen[-1] == inside and outside not in seen
    assert where(game, sheriff) == inside


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
    card = lock(game, *doorways(game, 1)[0])
    ctx = game._plain_ctx()
    ctx.env["c"] = Ref("card", card)
    with pytest.raises(Exception, match="must be something on the table"):
        game.table.write_target(ctx, ["c", "target"], 3)
    game.table.write_target(ctx, ["c", "target"], None)
    assert "target" not in game.state["cards"][card]


def test_only_a_card_in_play_has_a_target(pack):
    game = bare_game(pack)
    held = to_hand(game, "locked_door", "zombies")
    ctx = game._plain_ctx()
    ctx.env["c"] = Ref("card", held)
    with pytest.raises(Exception, match="only a card being played or in play has a target"):
        game.table.write_target(ctx, ["c", "target"], Ref("space", doorways(game, 1)[0][0]))
    assert "target" not in game.state["cards"][held]
