"""Session 10 rules fixes, from the session 9 fidelity review: the order of a Hero's death (the last stand
first, then the Zombie Hero rises), and a Hero blown up leaves nothing to rise."""

from __future__ import annotations

from tests.engine.lnoe_table import dice, put
from tests.engine.test_lnoe_faq import answer, bare_game, to_hand, where


def _black_zone(game) -> None:
    game.state["counters"]["advanced_rules"] = 1
    game.state["tracks"]["sun"] = 15


def test_heros_sacrifice_takes_the_zombies_along_but_not_the_zombie_hero_the_hero_becomes(pack):
    """LNOE Black Zone: a Hero killed there rises as a Zombie Hero. Hero's Sacrifice (Complete Rulebook
    App. III) is played as the Hero is killed: the Zombies in the space die with the Hero, and the Zombie
    Hero rises from the body after that; before, it rose first and the Sacrifice killed it too."""
    game = bare_game(pack, "escape_in_the_truck")
    _black_zone(game)
    becky = put(game, "becky", "town_center.a1")
    zombies = [put(game, "zombie", "town_center.a1") for _ in range(2)]
    to_hand(game, "heros_sacrifice", "heroes")
    answer(game, "heroes", "heros_sacrifice", "Take the Zombies in the space along", 0)
    game.kill(becky, zombies[0], game._plain_ctx())
    assert all(where(game, z) is None for z in zombies)  # taken along
    (zh,) = game.table.units("zombie_hero")
    assert where(game, zh) == "town_center.a1"
    assert game.table.attribute(zh, "health") == game.table.attribute(becky, "health")


def test_a_hero_who_goes_out_with_ill_see_you_in_hell_does_not_rise_as_a_zombie_hero(pack):
    """Complete Rulebook App. III ("I'll See You In Hell!"): the Hero is removed from the board and may
    not be turned into a Zombie Hero, even in the Black Zone."""
    game = bare_game(pack, "escape_in_the_truck")
    _black_zone(game)
    becky = put(game, "becky", "town_center.a1")
    zombie = put(game, "zombie", "town_center.a1")
    to_hand(game, "ill_see_you_in_hell", "heroes")
    game.state["units"][becky.id]["wounds"] = game.table.attribute(becky, "health") - 1
    answer(game, "heroes", "ill_see_you_in_hell")
    game.emit("fight_lost", {"fighter": becky, "foe": zombie})
    assert where(game, becky) is None and where(game, zombie) is None
    assert game.table.units("zombie_hero") == []


def test_in_the_black_zone_a_hero_killed_otherwise_still_rises(pack):
    game = bare_game(pack, "escape_in_the_truck")
    _black_zone(game)
    becky = put(game, "becky", "town_center.a1")
    zombie = put(game, "zombie", "town_center.a1")
    game.kill(becky, zombie, game._plain_ctx())
    (zh,) = game.table.units("zombie_hero")
    assert where(game, zh) == "town_center.a1"


# ---- shooting a Gas marker is a ranged attack with the Item (LNOE Explosives: Gas Markers) ------------


def _gas_at(game, space: str):
    from spawnpit.engine.state import Ref

    gas = Ref("space", game.board.resolve(space))
    game.mark(gas, "gas", 1, game._plain_ctx())
    return gas


def test_an_item_already_fired_this_turn_cannot_be_fired_again_at_a_gas_marker(pack):
    from tests.engine.test_lnoe_faq import give, rolls

    game = bare_game(pack, heroes=["revolver", "zombie"])
    billy = put(game, "billy", "town_center.b2")
    put(game, "zombie", "town_center.a1")
    give(game, "revolver", billy)
    dice(game, [2], [3])  # a miss, and no ammo trouble
    game.emit("shoot", {"unit": billy})
    _gas_at(game, "town_center.c2")
    script = answer(game, "heroes", "town_center.c2", "Shoot it", "revolver")
    dice(game)  # no roll may happen: the Revolver was used this turn
    game.emit("ignite", {"unit": billy})
    assert len(rolls(game)) == 2
    assert not any(label == "choose card" and options for label, options in script.asked)


def test_a_gun_fired_at_a_gas_marker_may_run_out_of_ammo(pack):
    from tests.engine.test_lnoe_faq import give

    game = bare_game(pack, heroes=["town_center.c2", "Shoot it", "revolver"])
    billy = put(game, "billy", "town_center.a2")  # two spaces off: the blast rolls for no one else
    revolver = give(game, "revolver", billy)
    _gas_at(game, "town_center.c2")
    zombie = put(game, "zombie", "town_center.c2")
    left = dice(game, [5], [1])  # a hit: the gas goes off (its space is killed outright); then out of ammo
    game.emit("ignite", {"unit": billy})
    assert not left and where(game, zombie) is None
    assert where(game, revolver) == "discard"


def test_dynamite_thrown_at_a_gas_marker_is_used_up(pack):
    from tests.engine.test_lnoe_faq import give

    game = bare_game(pack, heroes=["town_center.c2", "Shoot it", "dynamite"])
    billy = put(game, "billy", "town_center.b2")
    dynamite = give(game, "dynamite", billy)
    give(game, "lighter", billy)
    _gas_at(game, "town_center.c2")
    left = dice(game, [2])  # a miss: the Dynamite is thrown all the same
    game.emit("ignite", {"unit": billy})
    assert not left and where(game, dynamite) == "discard"


# ---- a scenario task counts unless the Hero who gave up the turn for it is killed ---------------------


def test_burn_em_out_a_hero_killed_on_a_pit_wrecked_in_an_earlier_turn_does_not_mend_it(pack):
    from tests.engine.test_lnoe_faq import emit_step, give, marked

    game = bare_game(pack, "burn_em_out", heroes=["dynamite"])
    old, new = game.board.spawn_points[:2]
    counters = game.state["counters"]
    from spawnpit.engine.state import Ref

    game.mark(Ref("space", old), "destroyed_pit", 1, game._plain_ctx())
    counters["pits_destroyed"] = 1
    becky, sally = put(game, "becky", new), put(game, "sally", old)
    give(game, "dynamite", becky)
    emit_step(game, "hero_turn.move.start", {"unit": becky})
    assert counters["pits_pending"] == 1
    game.kill(sally, None, game._plain_ctx())  # another Hero dies on the old wreck
    assert marked(game, Ref("space", old), "destroyed_pit") and counters["pits_pending"] == 1
    game.emit("hero_turn.end")
    assert counters["pits_destroyed"] == 2


def test_burn_em_out_the_hero_who_blew_the_pit_killed_that_turn_leaves_it_standing(pack):
    from tests.engine.test_lnoe_faq import emit_step, give, marked
    from spawnpit.engine.state import Ref

    game = bare_game(pack, "burn_em_out", heroes=["dynamite"])
    pit = game.board.spawn_points[0]
    becky = put(game, "becky", pit)
    give(game, "dynamite", becky)
    emit_step(game, "hero_turn.move.start", {"unit": becky})
    game.kill(becky, None, game._plain_ctx())
    game.emit("hero_turn.end")
    assert not marked(game, Ref("space", pit), "destroyed_pit")
    assert game.state["counters"]["pits_destroyed"] == 0


def _truck_filled_by_becky(pack):
    from tests.engine.test_lnoe_faq import emit_step, give

    game = bare_game(pack, "escape_in_the_truck", heroes=["Fill the Truck with Gasoline"])
    game.emit("setup")  # the Truck goes on the centre space (and the setup's Zombies)
    becky, sally = put(game, "becky", "town_center.b2"), put(game, "sally", "town_center.b2")
    give(game, "gasoline", becky)
    emit_step(game, "hero_turn.move.start", {"unit": becky})
    assert game.state["counters"]["fuel_pending"] == 1
    return game, becky, sally


def test_escape_in_the_truck_another_hero_killed_at_the_truck_does_not_spill_the_fuel(pack):
    game, becky, sally = _truck_filled_by_becky(pack)
    game.kill(sally, None, game._plain_ctx())
    game.emit("hero_turn.end")
    assert game.state["counters"]["truck_filled"] == 1


def test_escape_in_the_truck_the_hero_who_poured_killed_that_turn_spills_it(pack):
    game, becky, sally = _truck_filled_by_becky(pack)
    game.kill(becky, None, game._plain_ctx())
    game.emit("hero_turn.end")
    assert game.state["counters"]["truck_filled"] == 0


def test_escape_in_the_truck_two_heroes_pour_and_the_one_who_survives_fills_it(pack):
    """Two Heroes pour Gasoline in the same turn and the first is killed: the second one's fuel still
    fills the Truck (before, the first death spilled both)."""
    from tests.engine.test_lnoe_faq import Script, emit_step, give

    game, becky, sally = _truck_filled_by_becky(pack)
    game.policies["heroes"] = Script("Fill the Truck with Gasoline")
    give(game, "gasoline", sally)
    emit_step(game, "hero_turn.move.start", {"unit": sally})
    assert game.state["counters"]["fuel_pending"] == 2
    game.kill(becky, None, game._plain_ctx())
    game.emit("hero_turn.end")
    assert game.state["counters"]["truck_filled"] == 1
