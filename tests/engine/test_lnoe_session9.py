"""Session 9 rules fixes, from a fidelity review: cards a Hero gets outside a Search are placed as found
cards are (an Event to the Heroes' hand, a Townsfolk counted)."""

from __future__ import annotations

from tests.engine.lnoe_table import put
from tests.engine.test_lnoe_faq import bare_game, emit_step, give, on_top, to_hand, where


def test_just_what_i_needed_drawing_a_townsfolk_counts_it_in_save_the_townsfolk(pack):
    # with nothing in the discard pile the card draws instead; a Townsfolk drawn so is on the table
    game = bare_game(pack, "save_the_townsfolk", heroes=["just_what_i_needed"])
    becky = put(game, "becky", "town_center.b2")
    to_hand(game, "just_what_i_needed", "heroes")
    doc = on_top(game, "doc_brody")
    emit_step(game, "hero_turn.move.start", {"unit": becky})
    assert where(game, doc) == "side:heroes"
    assert game.state["counters"]["townsfolk_held"] == 1


def test_hero_starting_cards_puts_an_event_in_the_heroes_hand_and_an_item_on_the_hero(pack):
    """Complete Rulebook §16.3.3 (Defend the Manor House): the free card is a draw like any other."""
    game = bare_game(pack, "defend_the_manor_house")
    becky = put(game, "becky", "manor_house_board.b2")
    event = on_top(game, "just_what_i_needed")
    game.emit("hero.enters_play", {"unit": becky})
    assert where(game, event) == "side:heroes"
    item = on_top(game, "lighter")
    game.emit("hero.enters_play", {"unit": becky})
    assert where(game, item) == becky.id


def _action(game, action_id: str) -> dict:
    def walk(blocks):
        for block in blocks:
            if block.get("kind") == "action" and block["id"] == action_id:
                return block
            found = walk(block.get("blocks", []))
            if found is not None:
                return found
        return None

    return walk(game.model.system.get("blocks", []))


def test_a_hero_who_gives_up_the_turn_to_blow_a_pit_neither_exchanges_nor_shoots_but_still_fights(pack):
    """Complete Rulebook Appendix II (Burn 'em Out): the Hero "gives up their turn" to wreck the pit."""
    from spawnpit.engine.flow import _allowed

    game = bare_game(pack, "burn_em_out", heroes=["dynamite"])
    pit = game.board.spawn_points[0]
    becky, sally = put(game, "becky", pit), put(game, "sally", pit)
    give(game, "dynamite", becky)
    give(game, "revolver", becky)
    put(game, "zombie", pit)  # a target: a Ranged Attack is offered only with one in range and sight
    shoot, exchange = _action(game, "shoot"), _action(game, "exchange_items")
    assert _allowed(game, shoot, becky) and _allowed(game, exchange, becky)
    emit_step(game, "hero_turn.move.start", {"unit": becky})
    assert game.state["counters"]["pits_pending"] == 1
    assert not _allowed(game, shoot, becky) and not _allowed(game, exchange, becky)
    assert _allowed(game, exchange, sally)  # the other Hero's turn is her own
    game.emit("hero_turn.fight.end", {"unit": becky})
    assert _allowed(game, shoot, becky)  # the next turn is a whole one again


def test_no_it_cant_be_raises_a_zombie_hero_with_a_heros_health_at_a_pit_that_still_works(pack):
    from spawnpit.engine.state import Ref

    game = bare_game(pack, "burn_em_out", zombies=["no_it_cant_be"])
    for _ in range(4):
        put(game, "zombie", "town_center.a1")
    pits = list(game.board.spawn_points)
    for pit in pits[:-1]:  # every pit but the last is wrecked: the Zombie Hero can come out only there
        game.mark(Ref("space", pit), "destroyed_pit", 1, game._plain_ctx())
    to_hand(game, "no_it_cant_be", "zombies")
    game.emit("zombie_turn.spawn_roll.start")
    (zh,) = game.table.units("zombie_hero")
    assert where(game, zh) == pits[-1]
    assert game.table.attribute(zh, "health") in (2, 3)  # a Hero's (see test_lnoe_session11), not the kind's 1


def test_a_new_hero_may_enter_anywhere_in_the_manor_house(pack):
    """LNOE rulebook, Placing New Heroes During the Game: "anywhere in the Manor House" if that side of
    the centre board is in play."""
    from tests.engine.test_lnoe_faq import answer

    game = bare_game(pack, "defend_the_manor_house")
    script = answer(game, "heroes", 0)  # enter at the centre (the house), then the first space offered
    game.emit("new_hero", {})
    offered = next(options for label, options in script.asked if label == "choose space")
    house = {s for s in game.board.spaces if s.startswith("manor_house_board.")}
    assert {s.id for s in offered} == house and len(house) == 16


def test_a_ranged_attack_is_offered_only_with_a_zombie_in_range_and_sight(pack):
    """A Hero with a gun and no Zombie to shoot at is not offered a Ranged Attack that would do nothing;
    a Zombie within the weapon's range and in sight makes it an option (and a used weapon does not)."""
    from spawnpit.engine.flow import _allowed

    game = bare_game(pack)
    becky = put(game, "becky", "town_center.b2")
    gun = give(game, "revolver", becky)
    shoot = _action(game, "shoot")
    assert not _allowed(game, shoot, becky)
    put(game, "zombie", "town_center.b2")
    assert _allowed(game, shoot, becky)
    game.state["cards"][gun.id]["markers"]["used"] = 1
    assert not _allowed(game, shoot, becky)
