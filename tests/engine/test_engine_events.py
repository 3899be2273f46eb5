"""The unit events the engine raises by itself carry exactly the parameters engine/events.py lists (the
table the compiler checks `unit_event` declarations against), and hooks can filter on them."""

from __future__ import annotations

import pytest

from spawnpit.compiler import compile_paths
from spawnpit.engine import ScriptedPolicy, new_game, play
from spawnpit.engine.events import UNIT_EVENTS, unit_event
from spawnpit.engine.game import Game

SYSTEM = """
system ev "Events" {
  source "test"
  dice D6
  side heroes "Heroes" { players 1 }
  side zombies "Zombies" { players 1 }
  kind hero "Hero" { side heroes; stats health }
  kind zombie "Zombie" { side zombies; stats health; pool 5 }
  stat health "Health" { type int; default 1 }
  unit_event moved "Moved" { params "from", "to" }
  unit_event killed "Killed" { params "by" }
  unit_event wounded "Wounded" { params "by" }
  unit_event spawned "Spawned" { params space }
  unit_event entered "Entered" { params space, "from" }
  phase zombie_turn "Zombie Turn" {
    side zombies
    step tick "Tick" { text "t" }
  }
}
board lane "Lane" {
  approx "test"
  grid 4, 1
  spawn a1, d1
  start a1
}
hero "Ann" { health 2; source "t" }
zombie "Zombie" { health 1; source "t" }
"""

SCENARIO = """
import "sys.pit"
using ev
scenario "Trial" {
  board lane
  rounds 1
  heroes 1
  counter spawned_at_d1 = 0
  counter entered = 0
  counter moved_to_c1 = 0
  counter killed_by_hero = 0
  counter wounded_by_hero = 0
  counter any_killed = 0
  counter entered_from_b1 = 0
  on unit.killed { any_killed += 1 }
  on unit.entered when event.from == b1 { entered_from_b1 += 1 }
  on zombie.spawned when space == d1 { spawned_at_d1 += 1 }
  on hero.entered { entered += 1 }
  on hero.moved to c1 { moved_to_c1 += 1 }
  on zombie.killed by hero { killed_by_hero += 1 }
  on zombie.wounded by hero { wounded_by_hero += 1 }
  on game.start {
    spawn 2 of zombie at d1
    for each hero h {
      move h to c1 by 2
      move h to c1
      for each zombie z { wound z from h }
    }
  }
}
"""


@pytest.fixture
def game(write_pack, monkeypatch):
    root = write_pack({"sys.pit": SYSTEM, "main.pit": SCENARIO}, with_system=False)
    result = compile_paths([root])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    raised: list[tuple[str, dict]] = []
    emit, raise_now = Game.emit, Game.raise_now

    def emit_spy(self, event, params=None, ctx=None):
        raised.append((event, dict(params or {})))
        return emit(self, event, params, ctx)

    def raise_spy(self, event, params=None):
        raised.append((event, dict(params or {})))
        return raise_now(self, event, params)

    monkeypatch.setattr(Game, "emit", emit_spy)
    monkeypatch.setattr(Game, "raise_now", raise_spy)
    g = new_game(result.pack, "trial", seed=1, policies={"heroes": ScriptedPolicy([]), "zombies": ScriptedPolicy([])})
    play(g)
    g.raised = raised
    return g


def test_every_engine_unit_event_carries_exactly_the_listed_parameters(game):
    seen = {}
    for event, params in game.raised:
        kind, _, name = event.partition(".")
        if name in UNIT_EVENTS and kind in ("hero", "zombie"):
            assert set(params) == {"unit", *UNIT_EVENTS[name]}, (event, params)
            seen[name] = seen.get(name, 0) + 1
    assert seen == {"spawned": 2, "entered": 2, "moved": 3, "wounded": 2, "killed": 2}  # a walk moves, then enters, per step


def test_hooks_filter_on_the_engine_parameters(game):
    counters = game.state["counters"]
    assert counters["spawned_at_d1"] == 2  # spawned: space
    assert counters["entered"] == 2  # a1 → b1 → c1, one entered per step
    assert counters["moved_to_c1"] == 2  # moved: to (the walk's last step, then the plain move onto c1)
    assert counters["wounded_by_hero"] == 2 and counters["killed_by_hero"] == 2  # wounded/killed: by
    assert counters["entered_from_b1"] == 1  # entered: from (the walk's second step, b1 → c1)


def test_a_hook_on_unit_events_sees_every_kind(game):
    """`on unit.killed` hears zombie.killed (and hero.killed, …), as the language reference says."""
    assert game.state["counters"]["any_killed"] == 2


def test_unit_event_takes_the_values_in_table_order():
    assert unit_event("zombie", "moved", "u", "a1", "b1") == ("zombie.moved", {"unit": "u", "from": "a1", "to": "b1"})
    with pytest.raises(TypeError, match="takes from, to; got 1 values"):
        unit_event("zombie", "moved", "u", "a1")
    with pytest.raises(KeyError):
        unit_event("zombie", "teleported", "u")


def test_the_compiler_reads_the_same_table():
    """check.py imports UNIT_EVENTS from engine.events; importing it does not load the interpreter."""
    import subprocess
    import sys

    code = ("import sys, spawnpit.engine.events as e; "
            "print(sorted(e.UNIT_EVENTS), 'spawnpit.engine.game' in sys.modules, 'spawnpit.engine.interp' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['entered', 'killed', 'moved', 'spawned', 'wounded'] False False"
