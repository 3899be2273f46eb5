"""Session 9 rules fixes, from a fidelity review: cards a Hero gets outside a Search are placed as found
cards are (an Event to the Heroes' hand, a Townsfolk counted)."""

from __future__ import annotations

from tests.engine.lnoe_table import put
from tests.engine.test_lnoe_faq import bare_game, emit_step, on_top, to_hand, where


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
