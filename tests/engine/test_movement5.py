"""Movement markers: a marker the system declares with `through EDGE…` adds edge kinds to the walks of
the unit carrying it, and with `passes KIND…` lifts its kind's `stop` for those kinds (engine/movement.py).
`reach` and walks follow the unit's markers; `steps` and `route` stay by the kind's rules. The compiler
checks the edge kinds and unit kinds they name."""

from __future__ import annotations

from spawnpit.compiler import compile_paths
from spawnpit.engine import ScriptedPolicy, movement, new_game

SYSTEM = """
system mech "Mechanisms" {
  source "test"
  dice D6
  side heroes "Heroes" { players 1 }
  side zombies "Zombies" { players 1 }
  kind hero "Hero" { side heroes; stats health; stop zombie }
  kind zombie "Zombie" { side zombies; stats health; through open, door, window, wall, corner; pool 5 }
  stat health "Health" { type int; default 1 }
  marker nimble "Nimble" { applies unit; passes zombie }
  marker climber "Climber" { applies unit; through wall }
  marker plain "Plain" { applies unit }
  unit_event entered "Entered" { params space, "from" }
  phase hero_turn "Hero Turn" { side heroes; step go "Go" { text "g" } }
}
board lane "Lane" {
  approx "test"
  grid 5, 1
  wall d1, e1
}
hero "Ann" { health 2; source "t" }
zombie "Zombie" { health 1; source "t" }
"""

SCENARIO = """
import "sys.pit"
using mech
scenario "Trial" {{
  board lane
  rounds 2
  heroes 1
  {extra}
}}
"""


def game_for(write_pack, extra: str = "", system: str = SYSTEM):
    root = write_pack({"sys.pit": system, "main.pit": SCENARIO.format(extra=extra)}, with_system=False)
    result = compile_paths([root])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    game = new_game(result.pack, "trial", seed=3, policies={"heroes": ScriptedPolicy([]), "zombies": ScriptedPolicy([])})
    game.state["at"] = ["test"]
    return game


def spaces(refs) -> list[str]:
    return [r.id for r in refs]


def test_a_passes_marker_lets_the_unit_walk_on_through_a_stopping_space(write_pack):
    game = game_for(write_pack)
    hero = game.add_unit(game.model.protos("hero")[0], "a1")
    game.add_unit(game.model.protos("zombie")[0], "b1")
    ctx = game._plain_ctx()
    assert spaces(movement.reach(game, hero, 3)) == ["b1"]
    game.mark(hero, "plain", 1, ctx)  # a marker that says nothing about movement changes nothing
    assert spaces(movement.reach(game, hero, 3)) == ["b1"]
    game.mark(hero, "nimble", 1, ctx)
    assert spaces(movement.reach(game, hero, 3)) == ["b1", "c1", "d1"]
    movement.walk(game, hero, "d1", 3, ctx)
    assert game.state["units"][hero.id]["space"] == "d1"
    assert [e["to"] for e in game.entries if e["type"] == "move"] == ["b1", "c1", "d1"]
    game.mark(hero, "nimble", -1, ctx)
    game.move_unit(hero, game.space_ref("a1"), ctx)
    assert spaces(movement.reach(game, hero, 3)) == ["b1"]  # the marker gone: the Zombie's space stops it again


def test_an_entered_hook_may_still_end_the_walk_of_a_unit_that_passes(write_pack):
    game = game_for(write_pack, "on hero.entered when any(zombie in space) { end }")
    hero = game.add_unit(game.model.protos("hero")[0], "a1")
    game.add_unit(game.model.protos("zombie")[0], "b1")
    game.mark(hero, "nimble", 1, game._plain_ctx())
    movement.walk(game, hero, "d1", 3, game._plain_ctx())
    assert game.state["units"][hero.id]["space"] == "b1"


def test_a_through_marker_adds_edges_to_reach_and_walks_but_not_to_steps_or_route(write_pack):
    game = game_for(write_pack)
    hero = game.add_unit(game.model.protos("hero")[0], "c1")
    assert spaces(movement.reach(game, hero, 4)) == ["a1", "b1", "d1"]  # the wall d1|e1
    game.mark(hero, "climber", 1, game._plain_ctx())
    assert spaces(movement.reach(game, hero, 4)) == ["a1", "b1", "d1", "e1"]
    assert movement.steps(game, hero, "e1") == float("inf") and movement.route(game, hero, "c1", "e1") == float("inf")
    movement.walk(game, hero, "e1", 4, game._plain_ctx())
    assert game.state["units"][hero.id]["space"] == "e1"


def test_the_compiler_checks_what_a_movement_marker_names(write_pack):
    for bad, word in (("through roof", "roof"), ("passes ghost", "ghost")):
        system = SYSTEM.replace('marker plain "Plain" { applies unit }', f'marker plain "Plain" {{ applies unit; {bad} }}')
        root = write_pack({"sys.pit": system, "main.pit": SCENARIO.format(extra="")}, with_system=False)
        result = compile_paths([root])
        assert not result.ok and any(word in d.message for d in result.diagnostics), bad
