"""Session 21 rules fixes. Placing spawned Zombies: the Zombie player places *up to* the D6 rolled (LNOE
rulebook, Zombie Turn step 6), so fewer Zombies on the board make the next spawn roll easier. A Hero
entering play mid-step (a new Hero for one killed in the Zombie Turn's fights) sits the rest of that
step out (Complete Rulebook §13.11.3)."""

from __future__ import annotations

from spawnpit.engine import AIPolicy
from tests.engine.lnoe_table import dice, put
from tests.engine.test_lnoe_faq import answer, bare_game, where

ALL, FEWER, ONE_MORE = ("Place every Zombie the die allows", "Place one fewer (then you may hold back more)",
                        "Hold back one more Zombie")


def _spawned(game) -> int:
    return sum(e["count"] for e in game.entries if e["type"] == "spawn")


def _spawn(game, d6: int) -> None:
    """The spawn roll passes (2D6 = 12 against an empty board), then the placing roll is `d6`."""
    left = dice(game, [6, 6], [d6])
    game.emit("zombie_turn.spawn_roll")
    game.emit("zombie_turn.place_spawns")
    assert not left


def test_the_zombie_player_places_up_to_the_roll(pack):
    game = bare_game(pack)
    script = answer(game, "zombies", FEWER, ONE_MORE, ONE_MORE, None)  # 5 rolled: 4, 3, 2, then stop
    _spawn(game, 5)
    assert _spawned(game) == 2
    offered = [options for _, options in script.asked]
    assert offered == [[ALL, FEWER]] + [[ONE_MORE, None]] * 3  # `may`: the player stops where they like


def test_holding_back_stops_at_none_placed(pack):
    """Holding back every Zombie is asked no further than none: 3 rolled, one fewer and two more is 0."""
    game = bare_game(pack)
    script = answer(game, "zombies", FEWER, ONE_MORE, ONE_MORE)
    _spawn(game, 3)
    assert _spawned(game) == 0 and len(script.asked) == 3


def test_a_roll_of_one_may_be_held_back_whole(pack):
    game = bare_game(pack)
    script = answer(game, "zombies", FEWER)
    _spawn(game, 1)
    assert _spawned(game) == 0 and len(script.asked) == 1  # nothing more to ask: none placed


def test_placing_them_all_is_the_default_and_the_ai_s_choice(pack):
    for policy in (None, AIPolicy()):
        game = bare_game(pack)
        if policy is not None:
            game.policies["zombies"] = policy
        _spawn(game, 4)
        assert _spawned(game) == 4


def test_a_hero_entering_play_during_the_zombie_fights_sits_the_step_out(pack):
    """Billy, one Wound from death, fights the first of two Zombies in the centre of town and dies in the
    Black Zone; the new Hero enters there (with a free card) and does not fight the second Zombie."""
    game = bare_game(pack, scenario="burn_em_out", heroes=[0, 0])  # centre of town, its only space
    game.state["counters"]["advanced_rules"] = 1
    game.state["tracks"]["sun"] = 15
    billy = put(game, "billy", "town_center.b2")
    game.state["units"][billy.id]["wounds"] = game.table.attribute(billy, "health") - 1
    zombies = [put(game, "zombie", "town_center.b2") for _ in range(2)]
    left = dice(game, [1, 2], [6])  # the first fight only: the Zombie wins
    game.emit("zombie_turn.fight")
    assert not left
    newcomers = [u for u, r in game.state["units"].items() if r["kind"] == "hero" and r["space"]]
    assert len(newcomers) == 1 and game.state["units"][newcomers[0]]["space"] == "town_center.b2"
    fought = [e["picked"] for e in game.entries if e["type"] == "choice" and e["label"] == "choose hero"
              and e["rule"] == "Zombie Turn Fights"]
    assert fought == [billy.id]
    assert [e["values"] for e in game.entries if e["type"] == "roll" and e["rule"] == "Fight"] == [[1, 2], [6]]
    assert sum(where(game, z) == "town_center.b2" for z in zombies) == 2  # both still there
    assert game.state["units"][newcomers[0]]["wounds"] == 0
