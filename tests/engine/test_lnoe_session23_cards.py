"""Session 23 card fixes found by a play-tester, each played by the built-in content with forced dice and
scripted answers:

1. Anxious to Feed: the step a Zombie takes as it is placed at a Spawning Pit is an ordinary Zombie step
   (through walls, as Zombies move) bound by Zombie Hunger (base rulebook, Move Zombies: a Zombie never
   leaves a Hero's space, and longer or extra moves are still bound by Zombie Hunger);
2. This Could Be Our Last Night on Earth with no space holding a male and a female Hero: the ai keeps it,
   and a person who plays it anyway is told it did nothing (as Haunted By the Past among Students since
   session 21: a card that can do nothing may still be played, as at the table);
3. Hysteria (Complete Rulebook App. III) tests a Hero's Sacrifice played on its dying Hero, as it tests
   any other Hero Event played on that Hero;
4. Old Betsy set loose leaves the Hero and the hand (the card lies in play while she is on the board) and
   is not offered again in the next Exchange steps.
"""

from __future__ import annotations

import pytest

from spawnpit.engine.policies import AIPolicy
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import dice, put
from tests.engine.test_lnoe_cards import in_play
from tests.engine.test_lnoe_faq import answer, bare_game, emit_step, give, held, notes, space_marked, to_hand, where


def _offered(script, i=0) -> list:
    """The ids of the options of the i-th question (spaces, cards), None for a pass."""
    return [o.id if isinstance(o, Ref) else o for o in script.asked[i][1]]


# ---- 1. Anxious to Feed: a Zombie step under Zombie Hunger --------------------------------------------


def test_anxious_to_feed_a_zombie_placed_on_a_heros_space_stays_there(pack):
    """The play-tester saw a Zombie placed on Becky's Spawning Pit offered 8 spaces to step out of it."""
    game = bare_game(pack)
    in_play(game, "anxious_to_feed")
    in_play(game, "anxious_to_feed")
    pit = sorted(game.board.spawn_points)[0]
    becky = put(game, "becky", pit)
    script = answer(game, "zombies")
    zombie = game.spawn(Ref("kind", "zombie"), Ref("space", pit), 1, game._plain_ctx())[0]
    assert script.asked == []
    assert where(game, zombie) == where(game, becky) == pit


def test_anxious_to_feed_a_zombie_placed_next_to_a_hero_may_only_step_into_the_heros_space(pack):
    game = bare_game(pack, needs=("junkyard",))
    in_play(game, "anxious_to_feed")
    pit = next(s for s in game.board.spawn_points if s.endswith("bank_gas_station_junkyard.d3"))
    beside = pit.replace(".d3", ".c3")
    becky = put(game, "becky", beside)
    script = answer(game, "zombies", "becky")
    zombie = game.spawn(Ref("kind", "zombie"), Ref("space", pit), 1, game._plain_ctx())[0]
    assert [(label, options) for label, options in script.asked] == [
        ("choose hero to step in on (Zombie Hunger; step 1 of up to 1, Anxious to Feed; pass: it stops here)", [becky, None])]
    assert where(game, zombie) == beside


def test_anxious_to_feed_steps_through_walls_as_a_zombie_does(pack):
    """A New Spawning Pit in the Junkyard's corner b8: the step may go out through the building's walls
    (c7, c8) as any Zombie step may; before, only the spaces inside the Junkyard were offered."""
    game = bare_game(pack, needs=("junkyard",))
    in_play(game, "anxious_to_feed")
    yard = next(b for b in game.board.buildings if b.endswith(".junkyard"))
    b8 = next(s for s in game.board.spaces_of(yard) if s.endswith(".b8"))
    board = b8.rsplit(".", 1)[0]
    game.mark(Ref("space", b8), "new_spawning_pit", 1, game._plain_ctx())
    script = answer(game, "zombies", board + ".c8")
    zombie = game.spawn(Ref("kind", "zombie"), Ref("space", b8), 1, game._plain_ctx())[0]
    assert len(script.asked) == 1 and None in script.asked[0][1]
    here = sorted(o for o in _offered(script) if o is not None and o.startswith(board + "."))
    assert here == [board + "." + s for s in ("a7", "a8", "b7", "c7", "c8")]
    assert board + ".c8" not in game.board.spaces_of(yard)
    assert where(game, zombie) == board + ".c8"


# ---- 2. A Zombie card that can do nothing is not offered ----------------------------------------------


@pytest.mark.parametrize("policy", ["ai", "person"])
def test_this_could_be_our_last_night_with_no_couple_is_kept_by_the_ai_and_said_to_do_nothing(pack, policy):
    """Billy and Sally stand apart: the card has no space to aim at. The ai keeps it (as it keeps Haunted
    By the Past among Students); a person may play it anyway and is told it did nothing. (Session 30: a
    card that could do nothing is not offered, to a person either: play-tests lost cards so.)"""
    card = "this_could_be_our_last_night_on_earth"
    game = bare_game(pack, zombies=[card] if policy == "person" else [])
    if policy == "ai":
        game.policies["zombies"] = AIPolicy()
    put(game, "billy", "town_center.a1")
    put(game, "sally", "town_center.c3")
    mine = to_hand(game, card, "zombies")
    game.state["counters"]["zombie_cards_passed"] = 0
    game.emit("zombie_turn.spawn_roll.start")
    if policy == "ai":
        assert where(game, mine) == "side:zombies"
    else:
        assert where(game, mine) == "side:zombies"
        assert not any(e["type"] == "note" and "does nothing" in e["text"] for e in game.entries)


# ---- 3. Hysteria tests a Hero's Sacrifice played on the dying Hero -------------------------------------


@pytest.mark.parametrize("hysteria_roll, fails", [([2], True), ([5], False)])
def test_hysteria_tests_a_heros_sacrifice_played_on_its_dying_hero(pack, hysteria_roll, fails):
    game = bare_game(pack, heroes=["heros_sacrifice", "Take the Zombies in the space along"])
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    zombies = [put(game, "zombie", "town_center.b2") for _ in range(2)]
    hysteria = in_play(game, "hysteria", sheriff)
    game.state["units"][sheriff.id]["markers"]["hysterical"] = 1
    card = to_hand(game, "heros_sacrifice", "heroes")
    left = dice(game, hysteria_roll)
    game.kill(sheriff, None, game._plain_ctx())
    assert not left
    assert where(game, hysteria) == "discard" and where(game, card) == "discard"
    survivors = [z for z in zombies if where(game, z) == "town_center.b2"]
    if fails:  # (the log says why a Hysteria already discarded with the Hero's cards still acts)
        assert "Hysteria, on Sheriff Anderson as they fell: Hero's Sacrifice fails" in notes(game)
        assert [e["card"] for e in game.entries if e["type"] == "cancel"] == ["heros_sacrifice"]
        assert survivors == zombies and game.state["counters"]["zombies_killed"] == 0
    else:
        assert not [n for n in notes(game) if "fails" in n]
        assert survivors == [] and game.state["counters"]["zombies_killed"] == 2


def test_hysteria_in_play_still_rolls_once_for_a_heros_sacrifice(pack):
    """While a Hysteria is still in play on the Hero, its own hook makes the test: one roll, not two."""
    game = bare_game(pack, heroes=["heros_sacrifice"])
    billy = put(game, "billy", "town_center.b2")
    put(game, "zombie", "town_center.b2")
    in_play(game, "hysteria", billy)
    game.state["units"][billy.id]["markers"]["hysterical"] = 1
    card = to_hand(game, "heros_sacrifice", "heroes")
    left = dice(game, [1])
    game.play(Ref("card", card), billy, None, game._plain_ctx())
    assert not left and notes(game).count("Hysteria: the Hero Event fails") == 1
    assert where(game, card) == "discard"


# ---- 4. Old Betsy leaves the hand when set loose -----------------------------------------------------


def test_old_betsy_set_loose_leaves_the_hand_and_is_not_offered_again(pack):
    game = bare_game(pack)
    becky = put(game, "becky", "town_center.b2")
    jenny = put(game, "jenny", "town_center.b2")
    zombie = put(game, "zombie", "town_center.a1")
    betsy = to_hand(game, "old_betsy", "heroes")
    game.state["cards"][betsy]["where"] = becky.id
    script = answer(game, "heroes", "town_center.a1")
    emit_step(game, "hero_turn.exchange.end", {"unit": becky})
    assert len(script.asked) == 1 and "Old Betsy is set loose" in notes(game)
    assert space_marked(game, "old_betsy") == ["town_center.a1"]
    assert where(game, betsy) == "play" and held(game, becky) == []
    assert not any(r["where"] == "side:heroes" for r in game.state["cards"].values())

    script = answer(game, "heroes")
    for unit in (becky, jenny, becky):
        emit_step(game, "hero_turn.exchange.end", {"unit": unit})
    assert script.asked == []

    # in play, she still holds a Zombie stepping out, and goes when one gets away
    from spawnpit.engine.movement import walk

    left = dice(game, [3], [6])
    walk(game, zombie, "town_center.a2", 1, game._plain_ctx())
    assert where(game, zombie) == "town_center.a1" and where(game, betsy) == "play"
    walk(game, zombie, "town_center.a2", 1, game._plain_ctx())
    assert not left and where(game, zombie) == "town_center.a2"
    assert where(game, betsy) == "discard" and space_marked(game, "old_betsy") == []


def test_falling_darkness_does_not_snuff_out_old_betsy(pack):
    """Her card lies in play only while she is on the board; it is no Remains in Play card (Complete
    Rulebook §9.3.2: used up when she is deployed; App. III: only a Zombie getting away removes her)."""
    game = bare_game(pack)
    put(game, "becky", "town_center.b2")
    betsy = in_play(game, "old_betsy", Ref("space", "town_center.a1"))
    game.mark(Ref("space", "town_center.a1"), "old_betsy", 1, game._plain_ctx())
    darkness = to_hand(game, "falling_darkness", "zombies")
    game.state["counters"]["zombie_cards_passed"] = 0
    game.emit("zombie_turn.spawn_roll.start")
    # (session 30: with nothing it could snuff out it is not offered at all; a play-test played it on
    # nothing, Old Betsy being in play, and lost it)
    assert where(game, darkness) == "side:zombies" and where(game, betsy) == "play"
    assert space_marked(game, "old_betsy") == ["town_center.a1"]
    assert not any(any(isinstance(o, Ref) and o.id == darkness for o in options) for _, options in game.policies["zombies"].asked)


def test_the_ai_keeps_falling_darkness_while_old_betsy_is_the_only_hero_card_in_play(pack):
    """The card leaves her alone, so with nothing else in play it would do nothing (the review found the
    ai's advice still counting her card)."""
    game = bare_game(pack)
    game.policies["zombies"] = AIPolicy()
    becky = put(game, "becky", "town_center.b2")
    betsy = give(game, "old_betsy", becky).id
    game.state["cards"][betsy].update({"where": "play", "played": True, "target": ["space", "town_center.a1"]})
    mine = to_hand(game, "falling_darkness", "zombies")
    game.state["counters"]["zombie_cards_passed"] = 0
    game.emit("zombie_turn.spawn_roll.start")
    assert where(game, mine) == "side:zombies" and where(game, betsy) == "play"


def test_this_could_be_our_last_night_hinders_a_male_and_a_female_hero_sharing_a_space(pack):
    card = "this_could_be_our_last_night_on_earth"
    game = bare_game(pack, zombies=[card, "town_center.b2"])
    billy, jenny = put(game, "billy", "town_center.b2"), put(game, "jenny", "town_center.b2")
    sally = put(game, "sally", "town_center.a1")
    mine = to_hand(game, card, "zombies")
    game.state["counters"]["zombie_cards_passed"] = 0
    game.emit("zombie_turn.spawn_roll.start")
    assert where(game, mine) == "discard"
    hindered = [u for u in (billy, jenny, sally) if game.state["units"][u.id]["markers"].get("hindered")]
    assert hindered == [billy, jenny]


def test_a_combat_bonus_passed_up_is_not_asked_again_when_nothing_else_was_played(pack):
    """Round 2 play-test: after the Bat and a pass on the Torch the same question came straight back
    (the bonus had opened a new round of card play, though the Zombie had answered nothing)."""
    from tests.engine.test_lnoe_faq import bonus_offers

    game = bare_game(pack, heroes=["baseball_bat", None])
    billy, zombie = put(game, "billy", "town_center.b2"), put(game, "zombie", "town_center.b2")
    give(game, "baseball_bat", billy)
    give(game, "torch", billy)
    left = dice(game, [2, 3], [5], [6], [4])  # the fight, the Bat's die, its break test
    game.emit("fight", {"fighter": billy, "foe": zombie})
    assert not left
    assert bonus_offers(game.policies["heroes"]) == 2  # the Bat, then a pass on the Torch: no third ask
