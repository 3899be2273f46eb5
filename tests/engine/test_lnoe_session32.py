"""Session 32: Zombie Pillage with Zombie Heroes, and the ai Zombies' Vicious Attack and New Spawning Pit.

Zombie Pillage is in no built-in scenario, so its tests compile a small one that puts it in effect."""

from __future__ import annotations

import pytest

from spawnpit.engine import AIPolicy, new_game
from spawnpit.engine.policies import ScriptedPolicy
from tests.engine.lnoe_table import bare_game, dice, put
from tests.engine.test_lnoe_cards import hand, to_hand, where

PILLAGE_SCENARIO = """import lnoe
using lnoe

scenario "Pillage Check" {
  board small_town
  rounds 10
  heroes 4
  rules zombie_pillage
  heroes win at sundown
}
"""


@pytest.fixture(scope="module")
def pillage_pack(tmp_path_factory):
    from spawnpit.compiler import compile_paths

    folder = tmp_path_factory.mktemp("pillage")
    (folder / "pack.toml").write_text('name = "pillage-check"\n')
    (folder / "main.pit").write_text(PILLAGE_SCENARIO)
    result = compile_paths([folder])
    assert result.ok, [f"{d.code} {d.message}" for d in result.diagnostics]
    return result.pack


def _pillaged(pack, units: list[str], rolls: list[list[int]]) -> tuple[int, list]:
    """The Hero cards Zombie Pillage discards at the start of the Fight Step with `units` (prototypes) in
    the first space of the Bank, and the rolls it did not use."""
    game = new_game(pack, "pillage_check", seed=1, policies={"heroes": ScriptedPolicy([]), "zombies": ScriptedPolicy([])})
    game.state["at"] = ["test"]
    bank = next(b for b in game.board.buildings if b.endswith(".the_bank"))
    space = game.board.buildings[bank].spaces[0]
    for proto in units:
        put(game, proto, space)
    left = dice(game, *rolls)
    before = len(game.state["decks"]["hero_deck"]["draw"])
    hooks = [h for h in game.model.hooks["zombie_turn.fight.start"] if h.rule["title"] == "Zombie Pillage"]
    assert hooks
    for hook in hooks:
        game._run(hook, {})
    return before - len(game.state["decks"]["hero_deck"]["draw"]), left


def test_a_zombie_hero_alone_in_a_building_pillages_without_a_roll(pillage_pack):
    """§16.4.1: the pillage is automatic with two or more Zombies or a Zombie Hero. A Zombie Hero is a
    Zombie of its own kind: before session 31 a space holding only one was not pillaged at all."""
    assert _pillaged(pillage_pack, ["zombie_hero"], []) == (1, [])


@pytest.mark.parametrize(("roll", "discarded"), [(3, 0), (4, 1)])
def test_a_lone_zombie_pillages_on_4_or_more(pillage_pack, roll, discarded):
    assert _pillaged(pillage_pack, ["zombie"], [[roll]]) == (discarded, [])


@pytest.mark.parametrize("units", [["zombie", "zombie"], ["zombie", "zombie_hero"]])
def test_two_zombies_pillage_without_a_roll(pillage_pack, units):
    assert _pillaged(pillage_pack, units, []) == (1, [])


def test_no_pillage_where_a_hero_stands(pillage_pack):
    assert _pillaged(pillage_pack, ["zombie", "zombie", "billy"], []) == (0, [])


# ---- the ai Zombies' cards --------------------------------------------------------------------------------

@pytest.mark.parametrize(("wounds", "played"), [(0, True), (1, True), (2, False)])
def test_the_ai_plays_vicious_attack_only_where_the_second_wound_matters(pack, wounds, played):
    """The Sheriff (3 Health) loses a fight. At 1 Health left the Wound already due kills him: a play-test
    saw Vicious Attack spent on such a Hero. Whether the Heroes could turn a Wound aside is hidden."""
    game = bare_game(pack)
    game.policies["zombies"] = AIPolicy()
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    game.state["units"][sheriff.id]["wounds"] = wounds
    vicious = to_hand(game, "vicious_attack", "zombies")
    dice(game, [2, 3], [5])
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert ([e["card"] for e in game.entries if e["type"] == "play"] == ["vicious_attack"]) is played
    assert where(game, vicious) == ("discard" if played else "side:zombies")
    if played:
        assert game.state["units"][sheriff.id]["wounds"] == wounds + 2
    else:
        assert game.state["units"][sheriff.id]["space"] is None  # killed by the one Wound


@pytest.mark.parametrize(("scenario", "played"), [("die_zombies_die", True), ("burn_em_out", False)])
def test_the_ai_keeps_new_spawning_pit_where_the_heroes_blow_up_pits(pack, scenario, played):
    """In Burn 'em Out the Heroes win by destroying three Spawning Pits: a new one, opened in a building
    where they Search, is one more for them (a play-test's Zombies played it). Elsewhere it is played."""
    game = bare_game(pack, scenario=scenario)
    game.policies["zombies"] = AIPolicy()
    put(game, "billy", "town_center.b2")
    for _ in range(4):
        put(game, "zombie", "town_center.a1")
    card = to_hand(game, "new_spawning_pit", "zombies")
    game.state["counters"]["zombie_cards_passed"] = 0
    game.emit("zombie_events")
    assert (card not in hand(game, "zombies")) is played
    assert any(e["type"] == "play" and e["card"] == "new_spawning_pit" for e in game.entries) is played


# ---- a card taken from a discard pile is named to every side -------------------------------------------

@pytest.mark.parametrize("card", ["revolver", "rise_to_the_challenge"])
def test_a_card_just_what_i_needed_takes_from_the_discard_pile_is_named_to_the_zombies(pack, card):
    """The discard pile is face up, so the Zombie player may know which card the Heroes took back. The
    `give` effect took the card out of the pile before the table's give looked, so the entry never said
    it came from the discard pile and a play-test's screen read "a card goes into the Heroes' hand"."""
    from spawnpit.engine.human import describe_entry
    from tests.engine.test_lnoe_faq import bare_game as scripted_game, emit_step, to_discard

    game = scripted_game(pack, heroes=["just_what_i_needed", card])
    becky = put(game, "becky", "town_center.b2")
    to_hand(game, "just_what_i_needed", "heroes")
    taken = to_discard(game, card)
    emit_step(game, "hero_turn.move.start", {"unit": becky})
    given = [e for e in game.entries if e["type"] == "give" and e["copy"] == taken]
    assert len(given) == 1 and given[0]["from"] == "discard"
    assert taken not in game.state["decks"]["hero_deck"]["discard"]
    title = {"revolver": "Revolver", "rise_to_the_challenge": "Rise to the Challenge"}[card]
    assert describe_entry(game, given[0], "zombies").startswith(title + " given to")


@pytest.mark.parametrize(("hero", "offered"), [("johnny", False), ("sheriff_anderson", True)])
def test_uuuurrggghh_is_not_offered_against_a_tough_hero_s_6(pack, hero, offered):
    """The Zombies' play-test was offered Uuuurrggghh! against Johnny's 3, 6 with the Zombie's 3: one more
    die can at best tie at 6, and Johnny (Tough) wins a tie. Against the Sheriff a tie at 6 wins it."""
    game = bare_game(pack, zombies=[1])  # pass, if asked
    fighter, zombie = put(game, hero, "town_center.b2"), put(game, "zombie", "town_center.b2")
    card = to_hand(game, "uuuurrggghh", "zombies")
    dice(game, [3, 6], [3])
    game.emit("fight", {"fighter": fighter, "foe": zombie})
    asked = [e for e in game.entries if e["type"] == "choice" and e["side"] == "zombies"]
    assert all(e["rule"] == "Zombie Fight Cards" for e in asked)  # the only question: Uuuurrggghh! or pass
    assert [e["options"] for e in asked] == ([2] if offered else [])
    assert where(game, card) == "side:zombies"


def test_a_zombie_next_to_a_hero_is_told_why_it_must_step_in(pack):
    """Zombie Hunger: a Zombie next to a Hero steps into the Hero's space. A play-test's only choice read
    "choose a space (the only choice)" and never said why the Zombie had to go there."""
    game = bare_game(pack)
    put(game, "zombie", "town_center.a1")
    put(game, "becky", "town_center.b2")
    game.emit("zombie_turn.move_zombies")
    labels = [e["label"] for e in game.entries if e["type"] == "choice" and e["side"] == "zombies"]
    assert labels and labels[0].startswith("choose space to step into: a Hero's space (Zombie Hunger")
