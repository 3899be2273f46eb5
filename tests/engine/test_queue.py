"""When a queued event runs: right after the event it was queued in. An event raised at once (`emit`,
a card being played) is over only once the events queued inside it have run, so what they do (a unit's
`killed` hooks, which the engine queues) is seen by the next statement of the hook that raised it; an
event queued by a hook of a queued or top-level event waits, as before, for that event's every hook."""

from __future__ import annotations

import pytest

from spawnpit.compiler import compile_paths
from spawnpit.engine import ScriptedPolicy, new_game, play
from tests.engine.lnoe_table import bare_game, dice, put
from tests.engine.test_decline import SYSTEM as DECLINE_SYSTEM

# the `decline` tests' one-step system, with three events of its own
SYSTEM = DECLINE_SYSTEM.replace('  event draw "A draw" { }\n', '  event inner "Raised at once" { }\n'
                                '  event later "Queued" { }\n  event last "Queued by a queued event" { }\n')

SCENARIO = """
import "sys.pit"
using dc
scenario "Trial" {
  board lane
  rounds 1
  heroes 1
  counter trace = 0
  counter stop = 0
  on inner { trace = trace * 10 + 1
    queue "later"
    trace = trace * 10 + 2 }
  on later { trace = trace * 10 + 3
    queue "last"
    if stop == 1 { end }
    trace = trace * 10 + 4 }
  on last { trace = trace * 10 + 5 }
  on hero_turn.act { BODY }
  heroes win when trace == 999
}
"""


def traced(write_pack, body: str, extra: str = ""):
    scenario = SCENARIO.replace("BODY", body).replace("heroes win when", extra + "\n  heroes win when")
    root = write_pack({"sys.pit": SYSTEM, "main.pit": scenario}, with_system=False)
    result = compile_paths([root])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    game = new_game(result.pack, "trial", seed=1, policies={"heroes": ScriptedPolicy([]), "zombies": ScriptedPolicy([])})
    play(game)
    return game


def test_an_event_queued_inside_an_emitted_event_runs_before_the_emitting_hook_goes_on(write_pack):
    # inner (1, 2), then what it queued: later (3, 4), then what later queued: last (5); only then 6
    game = traced(write_pack, 'emit "inner"\n trace = trace * 10 + 6')
    assert game.state["counters"]["trace"] == 123456


def test_an_event_queued_by_the_running_hook_itself_waits_for_the_whole_event(write_pack):
    # queued by the step's own hook: after that hook (6), as the engine's own events always did
    game = traced(write_pack, 'queue "later"\n trace = trace * 10 + 6')
    assert game.state["counters"]["trace"] == 6345


def test_end_in_a_queued_event_ends_that_event_only(write_pack):
    # later says `end` after queuing last: 4 never happens, last (5) still runs, then the hook goes on (6)
    game = traced(write_pack, 'stop = 1\n emit "inner"\n trace = trace * 10 + 6')
    assert game.state["counters"]["trace"] == 12356


def test_a_game_decided_in_a_queued_event_stops_the_hook_that_raised_the_event_around_it(write_pack):
    game = traced(write_pack, 'emit "inner"\n trace = 7', extra="heroes win when trace == 1234")
    assert game.state["result"]["cause"] == "heroes win when trace == 1234"
    assert game.state["counters"]["trace"] == 1234  # neither last (5) nor the statement after the emit ran


@pytest.mark.parametrize("killed_before", [1, 0])
def test_die_zombies_die_ends_as_the_second_hero_falls_not_after_the_other_fights_of_the_step(pack, killed_before):
    """A Hero killed in one Zombie Turn fight is counted before the next fight (the `killed` hooks run
    as that fight ends): with one Hero already dead, Becky's death wins the game for the Zombies at once
    and Jenny's fight never starts. With none dead before, the game goes on and Jenny fights."""
    game = bare_game(pack)
    game.state["counters"]["heroes_killed"] = killed_before
    first, second = sorted(game.board.spaces)[:2]
    becky, jenny = put(game, "becky", first), put(game, "jenny", second)
    put(game, "zombie", first), put(game, "zombie", second)
    record = game.state["units"][becky.id]
    record["wounds"] = record["stats"]["health"] - 1
    left = dice(game, [1, 2], [6], [6, 5], [1])  # Becky loses her fight; Jenny would fend hers off
    game.emit("zombie_turn.fight")
    kills = [e["unit"] for e in game.entries if e["type"] == "kill"]
    assert kills == [becky.id]
    assert game.state["counters"]["heroes_killed"] == killed_before + 1
    if killed_before:
        assert game.state["result"]["cause"] == "zombies win when heroes_killed >= 2"
        assert left == [[6, 5], [1]]  # Jenny's fight was never rolled
        assert not any(e["type"] == "roll" and e["values"] == [6, 5] for e in game.entries)
    else:
        assert game.state["result"] is None and left == []
    assert game.state["units"][jenny.id]["wounds"] == 0
