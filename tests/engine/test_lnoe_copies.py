"""Last Night on Earth cards of which two copies are on the table at once: each copy acts for itself
(a card's hook that names `self` runs once per copy, tests/engine/test_per_copy.py). Two First Aid Kits
on two Heroes both heal; cancelling one of two Lights Out, "My God, They've Taken the..." or Hysteria
cards lifts its own marker only; two "I Don't Trust 'em" played in one turn both go at once; a Hysteria
rolls only for the Hero it is on. Scripted answers, exact outcomes."""

from __future__ import annotations

import pytest

from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import bare_game, dice, put
from tests.engine.test_lnoe_cards import in_play
from tests.engine.test_lnoe_faq import answer, give, marked, notes, to_hand, where


def two_buildings(game) -> list[str]:
    return sorted(game.board.buildings)[:2]


def play_on(game, proto: str, building: str) -> str:
    """The Zombies play a card from their hand that asks for a building, choosing `building`."""
    card = to_hand(game, proto, "zombies")
    answer(game, "zombies", proto, building.rsplit(".", 1)[-1], 0, None)  # (0: a space for placed Zombies)
    answer(game, "heroes", None)  # no cancel card is played on it
    game.emit("zombie_turn.spawn_roll.start")
    assert where(game, card) == "play"
    return card


def street(game, n: int) -> list[str]:
    return [s for s in sorted(game.board.spaces) if not game.board.building_of(s)][:n]


def test_two_first_aid_kits_on_two_heroes_both_heal(pack):
    game = bare_game(pack)
    here, there = street(game, 2)
    sheriff, jake = put(game, "sheriff_anderson", here), put(game, "jake_cartwright", there)
    kits = [give(game, "first_aid_kit", hero) for hero in (sheriff, jake)]
    for hero in (sheriff, jake):
        game.state["units"][hero.id]["wounds"] = 1
    answer(game, "heroes", 0, 0, 0, 0)  # each kit: its carrier uses it, on himself
    game.emit("hero_turn.end")
    assert [game.state["units"][h.id]["wounds"] for h in (sheriff, jake)] == [0, 0]
    assert [where(game, k) for k in kits] == ["discard", "discard"]


@pytest.mark.parametrize("card, marker, entering", [("lights_out", "lights_out", "ended"),
                                                     ("my_god_theyve_taken_the", "taken_over", "replaced")])
def test_cancelling_one_of_two_building_cards_lifts_only_its_own_marker(pack, card, marker, entering):
    """Lights Out stops a Hero stepping in, Taken Over keeps them out; each copy answers for its building,
    and taking a building over raises building_taken_over (Zombie Pillage's free rolls)."""
    game = bare_game(pack)
    first, second = two_buildings(game)
    raised: list = []
    dispatch = game._dispatch
    game._dispatch = lambda event, params: (raised.append((event, params)), dispatch(event, params))[1]
    one, two = play_on(game, card, first), play_on(game, card, second)
    assert game.state["cards"][one]["target"] == ["building", first]
    taken = [p["building"] for e, p in raised if e == "building_taken_over"]
    assert taken == ([Ref("building", first), Ref("building", second)] if marker == "taken_over" else [])
    game.cancel_card(Ref("card", one), game._plain_ctx())
    assert not marked(game, Ref("building", first), marker)
    assert marked(game, Ref("building", second), marker) and where(game, two) == "play"
    sheriff = put(game, "sheriff_anderson", street(game, 1)[0])
    into = lambda b: game.raise_now("hero.entered", {"unit": sheriff, "space": Ref("space", game.board.spaces_of(b)[0])})
    assert into(second) == entering and into(first) is None


def test_a_building_already_taken_over_is_not_offered_again(pack):
    game = bare_game(pack)
    first, _ = two_buildings(game)
    play_on(game, "my_god_theyve_taken_the", first)
    offered: list = []
    to_hand(game, "my_god_theyve_taken_the", "zombies")
    answer(game, "zombies", "my_god_theyve_taken_the", lambda options: offered.extend(options) or 0, 0, None)
    answer(game, "heroes", None)
    game.emit("zombie_turn.spawn_roll.start")
    assert offered and Ref("building", first) not in offered


def test_a_hysteria_rolls_only_for_the_hero_it_is_on_and_cancelling_it_lifts_its_own_marker(pack):
    for hysteria_roll, wounds in (([2], 1), ([5], 0)):
        game = bare_game(pack, heroes=[0])  # play Rise to the Challenge
        sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
        jake = put(game, "jake_cartwright", "town_center.b3")
        on_jake = in_play(game, "hysteria", jake)  # first in table order: it must not roll for the Sheriff
        in_play(game, "hysteria", sheriff)
        for hero in (sheriff, jake):
            game.state["units"][hero.id]["markers"]["hysterical"] = 1
        to_hand(game, "rise_to_the_challenge", "heroes")
        left = dice(game, [2, 3], [5], hysteria_roll, [1])  # the last die is the Zombie's re-roll
        game.emit("fight", {"fighter": sheriff, "foe": zombie})
        assert game.state["units"][sheriff.id]["wounds"] == wounds
        assert notes(game).count("Hysteria: the Hero Event fails") == wounds
        assert left == ([[1]] if wounds else [])  # one Hysteria roll, not two
    game.cancel_card(Ref("card", on_jake), game._plain_ctx())
    assert not marked(game, jake, "hysterical") and marked(game, sheriff, "hysterical")


def test_a_second_i_dont_trust_em_is_kept_while_the_first_holds_and_the_first_goes_at_the_next_zombie_turn(pack):
    # (session 31: a card that would do nothing is not offered; before, both copies were played and both went)
    game = bare_game(pack)
    answer(game, "zombies", "i_dont_trust_em", "i_dont_trust_em", None)
    becky, jenny = put(game, "becky", "town_center.b2"), put(game, "jenny", "town_center.b2")
    cards = [to_hand(game, "i_dont_trust_em", "zombies") for _ in range(2)]
    game.emit("zombie_turn.spawn_roll.start")
    assert sorted(where(game, c) for c in cards) == ["discard", "side:zombies"] and marked(game, becky, "no_exchange")
    game.emit("zombie_turn.start")
    assert not marked(game, becky, "no_exchange") and not marked(game, jenny, "no_exchange")
