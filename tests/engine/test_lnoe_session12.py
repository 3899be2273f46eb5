"""Session 12 rules fixes, from a fidelity review of the LNOE Heroes, Hero deck and Zombie deck."""

from __future__ import annotations

from tests.engine.lnoe_table import action_block, dice, put
from tests.engine.test_lnoe_faq import bare_game, give, to_hand, where


# ---- a re-roll keeps every die the Zombie has ---------------------------------------------------------


def test_lucky_rerolls_the_zombie_dice_that_beat_her_an_extra_die_from_a_fight_card_too(pack):
    """Sally's Lucky (Complete Rulebook App. I) makes the Zombie re-roll any of its Fight Dice, her choice:
    the ones that tie or beat her best die, among them a Fight: card's extra die (before session 12 the
    card's die was lost; until session 24 every die was re-rolled, the 4 that lost to her 5 too)."""
    # she is winning at first (not offered), and uses Lucky to answer the Fight: card
    game = bare_game(pack, zombies=["uuuurrggghh"], heroes=["Lucky: the Zombie re-rolls the Fight Dice that tie or beat hers"])
    sally, zombie = put(game, "sally", "town_center.b2"), put(game, "zombie", "town_center.b2")
    to_hand(game, "uuuurrggghh", "zombies")
    left = dice(game, [3, 5], [4], [6], [2])  # hero dice, zombie die, Uuuurrggghh!, Lucky's re-roll of the 6
    game.emit("fight", {"fighter": sally, "foe": zombie})
    assert not left  # the re-roll asked for one die: dice() checks the count
    assert game.state["counters"]["zombie_dice"] == [4, 2]


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


# ---- I Don't Trust 'em: see test_lnoe_cards; Resilient --------------------------------------------------


def _armed_billy(game):
    from spawnpit.engine.state import Ref

    billy = put(game, "billy", "town_center.a2")
    shotgun = give(game, "pump_shotgun", billy)
    revolver = give(game, "revolver", billy)
    zombie = put(game, "zombie", "town_center.b2")
    return billy, shotgun, revolver, zombie


def test_resilient_discards_the_gun_that_was_fired(pack):
    """The card's text and App. III (Laying Down the Law): after a Hero fires a Gun, that Gun runs out.
    Before, the Zombies picked any Gun the Hero held, here the Pump Shotgun that was never fired."""
    game = bare_game(pack, heroes=["revolver", "zombie"], zombies=["resilient"])
    billy, shotgun, revolver, zombie = _armed_billy(game)
    to_hand(game, "resilient", "zombies")
    left = dice(game, [2], [6])  # a miss; the Revolver's own ammo roll is fine
    game.emit("shoot", {"unit": billy})
    assert not left
    assert where(game, revolver) == "discard" and where(game, shotgun) == billy.id
    assert game.state["decks"]["zombie_deck"]["discard"]  # Resilient was played


def test_resilient_is_not_offered_when_the_hero_does_not_fire(pack):
    """The whole Ranged Attack action (shoot.start, shoot, shoot.end), the Hero declining to fire: before,
    Resilient hooked shoot.end and took a Gun all the same."""
    from spawnpit.engine import flow

    game = bare_game(pack, heroes=[None], zombies=["resilient"])
    billy, shotgun, revolver, zombie = _armed_billy(game)
    card = to_hand(game, "resilient", "zombies")
    left = dice(game)
    flow._action(game, action_block(game, "shoot"), billy, ["hero_turn", "ranged_attack"])
    assert where(game, card) == "side:zombies" and where(game, revolver) == billy.id
    assert where(game, shotgun) == billy.id and not left


# ---- Unrelenting Attack is not a Fight: card -----------------------------------------------------------


def test_unrelenting_attack_may_follow_the_zombies_fight_card_in_the_same_fight(pack):
    """Complete Rulebook §16.6.9.4: a Zombie plays up to one Fight: card *as well as* cards like Unrelenting
    Attack. Before, it was itself a Fight: card, so after Uuuurrggghh! it was never offered."""
    game = bare_game(pack, zombies=["uuuurrggghh", "unrelenting_attack"])
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    to_hand(game, "uuuurrggghh", "zombies")
    unrelenting = to_hand(game, "unrelenting_attack", "zombies")
    # the fight: hero 5,3 against 4 and Uuuurrggghh!'s 2: fended off; then a new fight, the Zombie wins
    left = dice(game, [5, 3], [4], [2], [2, 1], [6])
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert not left and where(game, unrelenting) == "discard"
    assert [e["card"] for e in game.entries if e["type"] == "play"] == ["uuuurrggghh", "unrelenting_attack"]
    assert game.state["units"][sheriff.id]["wounds"] == 1


# ---- a Hero killed by an Explosive does not rise ------------------------------------------------------


def _black_zone(game) -> None:
    game.state["counters"]["advanced_rules"] = 1
    game.state["tracks"]["sun"] = 15


def test_a_hero_killed_by_a_gas_explosion_does_not_rise_in_the_black_zone(pack):
    """Complete Rulebook §9.5.6 and §11.6.3: a Hero killed by an Explosive never becomes a Zombie Hero
    (a Gas marker is Gasoline's); before, the Black Zone raised one from the blast."""
    from spawnpit.engine.state import Ref

    game = bare_game(pack, "escape_in_the_truck")
    _black_zone(game)
    becky, sally = put(game, "becky", "town_center.b2"), put(game, "sally", "town_center.b3")
    zombie = put(game, "zombie", "town_center.b2")
    gas = Ref("space", game.board.resolve("town_center.b2"))
    game.mark(gas, "gas", 1, game._plain_ctx())
    left = dice(game, [4])  # Sally, next door, is caught too (3+)
    game.emit("explosion", {"space": gas})
    assert not left and where(game, becky) is None and where(game, sally) is None and where(game, zombie) is None
    assert game.table.units("zombie_hero") == []


def test_a_hero_caught_in_a_dynamite_blast_does_not_rise_in_the_black_zone(pack):
    game = bare_game(pack, "escape_in_the_truck", heroes=["dynamite", "zombie"])
    _black_zone(game)
    sheriff = put(game, "sheriff_anderson", "town_center.a2")
    dynamite = give(game, "dynamite", sheriff)
    give(game, "lighter", sheriff)
    becky, zombie = put(game, "becky", "town_center.b2"), put(game, "zombie", "town_center.b2")
    left = dice(game, [6])
    game.emit("shoot", {"unit": sheriff})
    assert not left and where(game, becky) is None and where(game, zombie) is None
    assert where(game, dynamite) == "discard" and game.table.units("zombie_hero") == []


# ---- New Spawning Pit: the Random Building roll ------------------------------------------------------


def test_a_new_spawning_pit_never_opens_in_a_building_without_a_random_number_set(pack):
    """LNOE, Rolling a Random Building: only numbered buildings come up, Hero's or Zombie's Choice
    included. Before, the card offered every building: in Defend the Manor House, the house itself."""
    from spawnpit.engine.state import Ref
    from tests.engine.test_lnoe_faq import Script, marked

    for roll, side in (([1], "heroes"), ([6], "zombies")):
        game = bare_game(pack, "defend_the_manor_house")
        offered = []

        def note_buildings(options):
            offered.extend(o.id for o in options if o is not None)
            return 0

        if side == "heroes":  # Hero's Choice: the Heroes pick the building
            game.policies["heroes"], game.policies["zombies"] = Script(note_buildings), Script("new_spawning_pit")
        else:                 # Zombie's Choice: the Zombies play the card and pick the building
            game.policies["zombies"] = Script("new_spawning_pit", note_buildings)
        to_hand(game, "new_spawning_pit", "zombies")
        left = dice(game, roll)
        game.emit("zombie_turn.spawn_roll.start")
        assert not left and offered
        assert "manor_house_board.manor_house" not in offered
        assert all(game.board.buildings[b].roll for b in offered), offered  # numbered buildings only
        pits = [s for s in game.board.spaces if marked(game, Ref("space", s), "new_spawning_pit")]
        assert len(pits) == 1 and game.board.building_of(pits[0]) == offered[0]
