"""Session 20 rules fixes, from a fidelity review against the rulebooks. Move Zombies: the Zombies Zombie
Hunger binds move before the others (Complete Rulebook §8.1.1.1); a Zombie no Hunger binds may step one
space any way or stay (LNOE rulebook, Move Zombies: "may move each of your Zombies one space"); the solo
Zombie AI (§17.5.3.5) aims at the closest Hero, then the one in the space with the fewest Heroes, then
the one with the fewest Wounds left. The Hero's movement roll starts the Move Action. Each Hero starts
in the space of the Start: building the Hero player picks."""

from __future__ import annotations

from spawnpit.engine import AIPolicy
from tests.engine.lnoe_table import put
from tests.engine.test_lnoe_faq import bare_game, where

GAS = "l_boards.bank_gas_station_junkyard."


def _at(game, name: str) -> str:
    return game.board.resolve(GAS + name)


def _moves(game) -> list[str]:
    return [e["unit"] for e in game.entries if e["type"] == "move" and e.get("rule") == "Zombie Hunger"]


def test_zombies_under_hunger_move_before_the_others(pack):
    """The free Zombie comes first in table order; the one next to the Sheriff still moves first."""
    game = bare_game(pack, needs=("gas_station",))
    game.policies["zombies"] = AIPolicy()
    put(game, "sheriff_anderson", GAS + "e3")
    free = put(game, "zombie", GAS + "a1")
    bound = put(game, "zombie", GAS + "e4")
    game.emit("zombie_turn.move_zombies")
    assert where(game, bound) == _at(game, "e3")
    assert _moves(game) == [bound.id, free.id]


def test_a_free_zombie_may_step_away_from_the_heroes(pack):
    """The Zombie player may take a free Zombie one space any way, away from every Hero too."""
    game = bare_game(pack, zombies=[GAS + "a3"], needs=("gas_station",))
    put(game, "sheriff_anderson", GAS + "e3")
    zombie = put(game, "zombie", GAS + "b3")
    game.emit("zombie_turn.move_zombies")
    assert where(game, zombie) == _at(game, "a3")
    label, options = game.policies["zombies"].asked[0]
    assert label == "choose space" and None in options  # a `may`: it could have stayed
    offered = {o.id for o in options if o is not None}
    assert {_at(game, "a3"), _at(game, "c3")} <= offered


def test_a_free_zombie_may_stay(pack):
    game = bare_game(pack, zombies=[None], needs=("gas_station",))
    put(game, "sheriff_anderson", GAS + "e3")
    zombie = put(game, "zombie", GAS + "b3")
    game.emit("zombie_turn.move_zombies")
    assert where(game, zombie) == _at(game, "b3") and _moves(game) == []


def test_the_zombie_ai_goes_for_the_hero_with_fewest_wounds_left(pack):
    """Two Heroes as near and each alone: the AI Zombie steps toward the one with fewer Wounds left
    (Health less Wounds), not the one with the smaller Health."""
    game = bare_game(pack, needs=("gas_station",))
    game.policies["zombies"] = AIPolicy()
    sheriff = put(game, "sheriff_anderson", GAS + "c1")  # Health 3
    billy = put(game, "billy", GAS + "c5")  # Health 2
    game.wound(sheriff, 2, game._plain_ctx())  # 1 left, against Billy's 2
    zombie = put(game, "zombie", GAS + "c3")
    game.emit("zombie_turn.move_zombies")
    assert where(game, zombie) in {_at(game, "b2"), _at(game, "c2"), _at(game, "d2")}
    assert billy


def test_the_movement_roll_comes_before_the_choice_of_move_or_search(pack):
    """LNOE rulebook (a Hero may always roll before deciding whether to Search or Move), Complete Rulebook
    §8.3 (the roll starts the Move Action): each Hero's step rolls once, before the Move/Search choice,
    and a Move goes by that roll without rolling again. Before, the die was rolled only once Move was
    chosen, so a player chose blind."""
    from spawnpit.engine import new_game, play

    game = new_game(pack, "die-zombies-die", seed=3, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
    play(game)
    entries = game.entries
    choices = [i for i, e in enumerate(entries) if e["type"] == "choice" and e["label"].startswith("hero_turn.move: action")]
    assert len(choices) > 20 and any(entries[i]["picked"] == "search" for i in choices)
    for i in choices:
        step = []  # this Hero's step up to the choice: from the entry after the last step's end
        j = i - 1
        while j >= 0 and entries[j]["at"].startswith("hero_turn.move") and not entries[j]["at"].startswith("hero_turn.move."):
            step.append(entries[j])
            j -= 1
        rolls = [e for e in step if e["type"] == "roll" and e.get("rule") == "Hero Movement"]
        assert len(rolls) == 1, (i, step)
    inside = [e for e in entries if e["type"] == "roll" and e["at"].startswith("hero_turn.move.move")
              and e.get("rule") == "Hero Movement"]
    assert inside == []


def test_each_hero_starts_in_the_space_of_the_start_building_the_player_picks(pack):
    """LNOE rulebook, Setting Up: a Hero starts in any space of the Start: building, the Hero player's
    choice. Before, every Hero stood in the building's first space."""
    from spawnpit.engine import new_game
    from spawnpit.engine.flow import setup
    from tests.engine.test_lnoe_faq import Script

    picks = []

    def last(options):  # the last space offered, remembered
        picks.append(options[-1])
        return len(options) - 1

    script = Script(*([last] * 4))
    game = new_game(pack, "lnoe:die_zombies_die", seed=2, policies={"heroes": script, "zombies": AIPolicy()})
    setup(game)
    asked = [(label, options) for label, options in script.asked if label == "choose space"][:4]
    heroes = [h for h in game.units_of_side("heroes")]
    assert len(asked) == len(picks) >= 1
    for (_, options), picked in zip(asked, picks):
        assert len(options) > 1 and len({game.board.building_of(o.id) for o in options}) == 1
    standing = {game.state["units"][h.id]["space"] for h in heroes}
    assert {p.id for p in picks} <= standing
