"""Session 12 rules fixes, from a fidelity review of the LNOE Heroes, Hero deck and Zombie deck."""

from __future__ import annotations

from tests.engine.lnoe_table import dice, put
from tests.engine.test_lnoe_faq import bare_game, give, to_hand, where


# ---- a re-roll keeps every die the Zombie has ---------------------------------------------------------


def test_lucky_rerolls_every_zombie_die_an_extra_die_from_a_fight_card_too(pack):
    """Sally's Lucky (Complete Rulebook App. I) makes the Zombie re-roll its Fight Dice: as many as it has
    when she uses it. After Uuuurrggghh! that is two; before, the re-roll was one die and the card's was lost."""
    game = bare_game(pack, zombies=["uuuurrggghh"], heroes=["Lucky: the Zombie re-rolls its Fight Dice"])
    sally, zombie = put(game, "sally", "town_center.b2"), put(game, "zombie", "town_center.b2")
    to_hand(game, "uuuurrggghh", "zombies")
    left = dice(game, [3, 5], [4], [6], [2, 1])  # hero dice, zombie die, Uuuurrggghh!, Lucky's re-roll
    game.emit("fight", {"fighter": sally, "foe": zombie})
    assert not left  # the re-roll asked for two dice: dice() checks the count
    assert game.state["counters"]["zombie_dice"] == [2, 1]


def test_rise_to_the_challenge_rerolls_every_zombie_die(pack):
    game = bare_game(pack, zombies=["uuuurrggghh"], heroes=["rise_to_the_challenge"])
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    to_hand(game, "uuuurrggghh", "zombies")
    to_hand(game, "rise_to_the_challenge", "heroes")
    left = dice(game, [3, 5], [4], [6], [2, 1])
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert not left and game.state["counters"]["zombie_dice"] == [2, 1]


# ---- Signal Flare ------------------------------------------------------------------------------------


def test_a_signal_flare_fired_at_a_gas_marker_is_used_up(pack):
    """Complete Rulebook App. III: the Flare is discarded once used, at a Zombie or at a Gas marker."""
    from spawnpit.engine.state import Ref

    game = bare_game(pack, heroes=["town_center.c2", "Shoot it", "signal_flare"])
    billy = put(game, "billy", "town_center.a2")
    flare = give(game, "signal_flare", billy)
    gas = Ref("space", game.board.resolve("town_center.c2"))
    game.mark(gas, "gas", 1, game._plain_ctx())
    left = dice(game, [5])
    game.emit("ignite", {"unit": billy})
    assert not left and where(game, flare) == "discard"
