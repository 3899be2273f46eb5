"""Generic engine mechanisms that rules build on: phases played unit by unit (`activation unit`),
walking by a kind's movement rules (`move … by n`, `reach`, `steps`), events raised at once with
parameters (`emit … with`), dice pools (`roll N of D6 into POOL`, `highest`, `doubles`), spawning over
several spaces, `end` at the start of a step, and the round after the last (`after_last_round`)."""

from __future__ import annotations

from spawnpit.compiler import compile_paths
from spawnpit.engine import ScriptedPolicy, new_game, play
from spawnpit.engine.state import Ref

SYSTEM = """
system mech "Mechanisms" {
  source "test"
  dice D6
  after_last_round first_step
  counter pool = 0
  counter seen = 0
  side heroes "Heroes" { players 1 }
  side zombies "Zombies" { players 1 }
  kind hero "Hero" { side heroes; stats health, fight_dice; stop zombie }
  kind zombie "Zombie" { side zombies; stats health; through open, door, window, wall, corner; pool 5 }
  stat health "Health" { type int; default 1 }
  stat fight_dice "Fight Dice" { type int; default 2 }
  track clock "Clock" { range 0-9; start 0 }
  event ping "Ping" { params who, what }
  unit_event entered "Entered" { params space }
  unit_event killed "Killed" { params "by" }
  phase zombie_turn "Zombie Turn" {
    side zombies
    step tick "Tick" { text "t" }
  }
  phase hero_turn "Hero Turn" {
    side heroes
    activation unit
    step first "First" { text "a" }
    step second "Second" { text "b" }
  }
}
board lane "Lane" {
  approx "test"
  grid 4, 1
  wall b1, c1
  spawn a1, d1
}
hero "Ann" { health 2; source "t" }
hero "Bob" { health 2; source "t" }
zombie "Zombie" { health 1; source "t" }
"""

SCENARIO = """
import "sys.pit"
using mech
scenario "Trial" {{
  board lane
  rounds 2
  heroes 2
  counter marks = 0
  {extra}
}}
"""


def pack_for(write_pack, extra: str) -> dict:
    root = write_pack({"sys.pit": SYSTEM, "main.pit": SCENARIO.format(extra=extra)}, with_system=False)
    result = compile_paths([root])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    return result.pack


def game_for(write_pack, extra: str = "", heroes=(), zombies=()):
    return new_game(pack_for(write_pack, extra), "trial", seed=3,
                    policies={"heroes": ScriptedPolicy(heroes), "zombies": ScriptedPolicy(zombies)})


def test_a_phase_with_activation_unit_plays_all_its_steps_for_one_unit_before_the_next(write_pack):
    extra = 'on hero_turn.first { log "first" }\non hero_turn.second { log "second" }'
    game = game_for(write_pack, extra)
    play(game)
    notes = [(e["round"], e["text"]) for e in game.entries if e["type"] == "note"]
    assert notes[:4] == [(1, "first"), (1, "second"), (1, "first"), (1, "second")]
    picks = [e for e in game.entries if e["type"] == "choice" and e["label"] == "hero_turn: who acts"]
    assert [p["options"] for p in picks[:2]] == [2, 1]


def test_step_events_of_a_unit_activation_carry_the_unit_and_end_at_start_skips_the_step(write_pack):
    extra = ('on hero_turn.first.start when unit.name == "x" { log "never" }\n'
             'on hero_turn.first.start { end }\n'
             'on hero_turn.first { log "skipped" }\n'
             'on hero_turn.second { marks += 1 }')
    game = game_for(write_pack, extra)
    play(game)
    assert not [e for e in game.entries if e["type"] == "note"]
    assert game.state["counters"]["marks"] == 4  # 2 heroes x 2 rounds


def test_the_round_after_the_last_plays_its_first_step_so_a_rule_can_end_the_game(write_pack):
    extra = 'on zombie_turn.tick { advance clock by 1\n if round > rounds { win zombies } }'
    game = game_for(write_pack, extra)
    result = play(game)
    assert result["winner"] == "zombies" and result["round"] == 3
    assert game.state["tracks"]["clock"] == 3


def test_emit_runs_the_hooks_at_once_with_the_declared_parameters(write_pack):
    extra = ('on ping { seen = 7 }\n'
             'on game.start { emit "ping" with [1, 2]\n marks = seen }')
    game = game_for(write_pack, extra)
    play(game)
    assert game.state["counters"]["marks"] == 7


def test_dice_pools_collect_rolls_and_answer_highest_and_doubles(write_pack):
    extra = ('on game.start { roll 2 of D6 into pool\n roll 1 of D6 into pool\n'
             ' if doubles(pool) { marks = 100 + highest(pool) } else { marks = highest(pool) } }')
    game = game_for(write_pack, extra)
    rolls = iter([[3, 5], [3]])
    game.chance.roll = lambda count, sides: next(rolls)
    play(game)
    assert game.state["counters"]["pool"] == [3, 5, 3]
    assert game.state["counters"]["marks"] == 105


def test_spawn_over_a_list_of_spaces_divides_evenly_and_respects_the_pool(write_pack):
    extra = 'on game.start { spawn 7 of zombie at list(space s where s.spawn) }'
    game = game_for(write_pack, extra)
    play(game)
    spawned = [e for e in game.entries if e["type"] == "spawn"]
    assert sorted(e["count"] for e in spawned) == [2, 3]  # pool 5: 7 capped to 5, split 3/2
    assert {e["space"] for e in spawned} == {"a1", "d1"}


def test_walking_follows_the_kinds_edges_and_stops_in_a_stopping_space(write_pack):
    game = game_for(write_pack)
    hero = game.add_unit(game.model.protos("hero")[0], "a1")
    zombie = game.add_unit(game.model.protos("zombie")[0], "d1")
    from spawnpit.engine import movement

    assert movement.steps(game, hero, "d1") == float("inf")  # the wall b1|c1 stops Heroes
    assert movement.steps(game, zombie, "a1") == 3  # Zombies walk through it
    assert [s.id for s in movement.reach(game, hero, 6)] == ["b1"]
    game.state["units"][hero.id]["space"] = "c1"
    assert [s.id for s in movement.reach(game, hero, 6)] == ["d1"]  # d1 holds a Zombie: entered, not left
    ctx = game._plain_ctx()
    movement.walk(game, zombie, "a1", 2, ctx)
    assert game.state["units"][zombie.id]["space"] == "b1"
    moves = [(e["from"], e["to"]) for e in game.entries if e["type"] == "move"]
    assert moves == [("d1", "c1"), ("c1", "b1")]


def test_an_entered_hook_that_says_end_stops_a_walk(write_pack):
    game = game_for(write_pack, 'on zombie.entered when space == c1 { end }')
    zombie = game.add_unit(game.model.protos("zombie")[0], "d1")
    game.add_unit(game.model.protos("hero")[0], "a1")
    game.state["at"] = ["test"]
    from spawnpit.engine import movement

    movement.walk(game, zombie, "a1", 3, game._plain_ctx())
    assert game.state["units"][zombie.id]["space"] == "c1"
    assert isinstance(zombie, Ref)
