"""`decline`: an `instead of` hook gives up its replacement, and the event goes on as if the hook had not
applied: the next replacement that applies takes its place, else the event's ordinary hooks run. What
the hook did before it declined stays done. Outside an `instead of` hook the compiler refuses it."""

from __future__ import annotations

import pytest

from spawnpit.compiler import compile_paths
from spawnpit.engine import GameError, ScriptedPolicy, new_game, play

SYSTEM = """
system dc "Decline" {
  source "test"
  dice D6
  side heroes "Heroes" { players 1 }
  side zombies "Zombies" { players 1 }
  kind hero "Hero" { side heroes; stats health }
  stat health "Health" { type int; default 1 }
  event draw "A draw" { }
  phase hero_turn "Hero Turn" {
    side heroes
    step act "Act" { text "t" }
  }
}
board lane "Lane" {
  approx "test"
  grid 2, 1
  start a1
}
hero "Ann" { health 2; source "t" }
"""

SCENARIO = """
import "sys.pit"
using dc
scenario "Trial" {
  board lane
  rounds 1
  heroes 1
  counter plain = 0
  counter first = 0
  counter second = 0
  counter asked = 0
  counter mode = 0
  on draw { plain += 1 }
  instead of draw when mode >= 1 {
    asked += 1
    if mode == 1 { decline }
    first += 1
  }
  instead of draw when mode == 2 { second += 1 }
  on hero_turn.act {
    emit "draw"
    mode = 1
    emit "draw"
    mode = 2
    emit "draw"
  }
}
"""


@pytest.fixture
def counters(write_pack):
    root = write_pack({"sys.pit": SYSTEM, "main.pit": SCENARIO}, with_system=False)
    result = compile_paths([root])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    game = new_game(result.pack, "trial", seed=1, policies={"heroes": ScriptedPolicy([]), "zombies": ScriptedPolicy([])})
    play(game)
    return game.state["counters"]


def test_a_declined_replacement_lets_the_event_happen(counters):
    # mode 0: no replacement, the plain draw; mode 1: the first declines (after counting), the plain draw
    # again; mode 2: the first replaces it (and the second, which also applies, as every replacement does)
    assert counters["plain"] == 2
    assert counters["asked"] == 2
    assert counters["first"] == 1


def test_a_replacement_that_did_not_decline_still_keeps_the_plain_event_out(counters):
    assert counters["second"] == 1 and counters["plain"] == 2


def test_decline_outside_an_instead_of_hook_is_an_error(write_pack):
    scenario = SCENARIO.replace("on draw { plain += 1 }", "on draw { decline }")
    root = write_pack({"sys.pit": SYSTEM, "main.pit": scenario}, with_system=False)
    result = compile_paths([root])
    errors = [d for d in result.diagnostics if d.is_error]
    assert [d.code for d in errors] == ["E0311"]
    assert "instead of" in errors[0].message
    assert errors[0].span.line == scenario.splitlines().index("  on draw { decline }") + 1


def test_decline_in_an_on_hook_of_a_pack_the_compiler_never_saw_is_a_game_error(write_pack):
    root = write_pack({"sys.pit": SYSTEM, "main.pit": SCENARIO}, with_system=False)
    pack = compile_paths([root]).pack
    scenario = next(o for o in pack["objects"] if o["kind"] == "scenario")
    plain = next(h for h in scenario["hooks"] if h["event"] == "draw" and not h["replace"])
    plain["body"] = [{"do": "decline", "what": None, "args": {}}]  # as a hand-edited pack.json could say
    game = new_game(pack, "trial", seed=1, policies={"heroes": ScriptedPolicy([]), "zombies": ScriptedPolicy([])})
    with pytest.raises(GameError, match=r"Trial .*on draw: `decline` outside an `instead of` hook"):
        play(game)


def test_a_copy_a_declined_run_took_off_the_table_does_not_run(write_pack):
    from tests.engine.test_per_copy import SYSTEM as PER_COPY, copies, place, start

    system = PER_COPY + """
card "Toss" {
  deck zombie_deck; type event; count 2; source "t"; text "Throws the other copy away, then declines."
  instead of guarded when self is toss {
    for each card c where c is toss and c != self { discard c }
    pairs += 1
    decline
  }
}
"""
    game = start(write_pack, system)
    one, two = copies(game, "toss")
    place(game, one, "side:zombies")
    place(game, two, "side:zombies")
    game.emit("guarded")
    assert game.state["counters"]["pairs"] == 1  # the second copy was in the discard pile by its turn
    assert game.state["cards"][two]["where"] == "discard"


def test_end_in_a_hook_of_an_emitted_event_ends_that_event_not_the_hook_that_emitted_it(write_pack):
    """`emit` raises the event at once; a hook of it saying `end` ends that event (its later hooks do not
    run), and the emitting hook goes on with its next statement. So a flag set around an `emit` (LNOE's
    `searching = 1 … emit "hero_draw" … searching = 0`) is always set back."""
    scenario = SCENARIO.replace("on draw { plain += 1 }", "on draw { first = 1\n end }\n  on draw { second = 1 }").replace(
        """  on hero_turn.act {
    emit "draw"
    mode = 1
    emit "draw"
    mode = 2
    emit "draw"
  }""", """  on hero_turn.act {
    asked = 1
    emit "draw"
    asked = 0
    plain = 5
  }""")
    root = write_pack({"sys.pit": SYSTEM, "main.pit": scenario}, with_system=False)
    result = compile_paths([root])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    game = new_game(result.pack, "trial", seed=1, policies={"heroes": ScriptedPolicy([]), "zombies": ScriptedPolicy([])})
    play(game)
    counters = game.state["counters"]
    assert counters["first"] == 1 and counters["second"] == 0  # the event ended at its first hook
    assert counters["asked"] == 0 and counters["plain"] == 5  # the emitting hook ran to its end
