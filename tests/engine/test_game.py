"""The interpreter on the mini system: turn structure, hooks in layer order, choices, objectives,
determinism, save and restore, and runaway chains stopped with the rules named."""

from __future__ import annotations

import json

import pytest

from spawnpit.compiler import compile_paths
from spawnpit.engine import FirstPolicy, GameError, ScriptedPolicy, new_game, play
from spawnpit.engine.flow import run

SCENARIO = """import "system.pit"
using mini
scenario "Trial" {{
  board yard
  rounds 6
  heroes 1
  counter kills = 0
  on setup {{ spawn 3 of zombie at b2 }}
  on zombie_turn.fight {{
    for each zombie z {{ if roll(D6) >= 4 {{ kill z by random(hero) }} }}
  }}
  on zombie.killed by hero {{ kills += 1 }}
  heroes win when kills >= 3
  zombies win at sundown
  {extra}
}}
"""


def compiled(write_pack, extra: str = "") -> dict:
    result = compile_paths([write_pack({"main.pit": SCENARIO.format(extra=extra)})])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    return result.pack


def test_a_game_runs_through_rounds_phases_and_steps_in_order(write_pack):
    game = new_game(compiled(write_pack), "trial", seed=1, policies={"heroes": FirstPolicy(), "zombies": FirstPolicy()})
    result = play(game)
    moments = [e["at"] for e in game.entries if e["type"] == "roll"]
    assert moments and set(moments) == {"zombie_turn.fight"}
    kills = [e for e in game.entries if e["type"] == "kill"]
    assert game.state["counters"]["kills"] == len(kills) == 3
    assert result == {"winner": "heroes", "side": "heroes", "verdict": "win", "cause": "heroes win when kills >= 3",
                      "round": 4}
    assert game.entries[-1]["type"] == "result" and game.entries[-1]["rule"] == "Trial"
    first_enter = next(e for e in game.entries if e["type"] == "enter")
    assert first_enter["space"] == "a1"  # Alice starts in the Shed, the only building of the yard


def test_same_seed_same_log_and_different_seeds_differ(write_pack):
    pack = compiled(write_pack)
    logs = []
    for seed in (7, 7, 8):
        game = new_game(pack, "trial", seed=seed)
        play(game)
        logs.append(json.dumps(game.entries, sort_keys=True))
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]


def test_log_entries_carry_the_rule_and_its_source(write_pack):
    game = new_game(compiled(write_pack), "trial", seed=3)
    play(game)
    rolls = [e for e in game.entries if e["type"] == "roll"]
    assert rolls and all(e["rule"] == "Trial" for e in rolls)
    assert all(len(e["values"]) == 1 and 1 <= e["values"][0] <= 6 for e in rolls)


def test_saved_game_continues_exactly_as_the_original(write_pack):
    from spawnpit.engine.game import Game
    from spawnpit.engine.policies import RandomPolicy

    pack = compiled(write_pack, "on hero_turn.act.start { draw 1 from hero_deck to heroes }")
    original = new_game(pack, "trial", seed=11)
    run(original, stop_after_steps=4)
    saved = original.save()
    logged = json.loads(saved)["logged"]
    run(original)
    policies = {"heroes": RandomPolicy(), "zombies": RandomPolicy()}
    restored = Game.restore(pack, saved, policies, log=[dict(e) for e in original.entries[:logged]])
    run(restored)
    assert restored.state["result"] == original.state["result"]
    assert restored.entries == original.entries
    assert 0 < logged < len(original.entries)


def test_replacement_effects_take_the_place_of_an_event(write_pack):
    extra = 'rule "Fog" { text "No fights."; instead of zombie_turn.fight { log "fog" } }'
    game = new_game(compiled(write_pack, extra), "trial", seed=1)
    play(game)
    assert not [e for e in game.entries if e["type"] == "roll"]
    assert [e for e in game.entries if e["type"] == "note" and e["text"] == "fog"]


def test_choices_go_through_the_policy(write_pack):
    extra = 'on round.start { choose { option "a" { kills += 1 } option "b" { kills += 0 } } }'
    game = new_game(compiled(write_pack, extra), "trial", seed=1,
                    policies={"heroes": ScriptedPolicy([0, 0, 0]), "zombies": FirstPolicy()})
    play(game)
    choices = [e for e in game.entries if e["type"] == "choice" and e["label"] == "choose an option"]
    assert choices and choices[0]["picked"] == "a"


def test_a_runaway_chain_stops_with_the_rules_named(write_pack, monkeypatch):
    import spawnpit.engine.game as game_module

    monkeypatch.setattr(game_module, "EVENT_BUDGET", 500)
    extra = 'rule "Echo" { text "loops"; on zombie_turn.move { emit "zombie_turn.move" } }'
    pack = compiled(write_pack, extra)
    game = new_game(pack, "trial", seed=1)
    with pytest.raises(GameError, match="runaway chain.*echo"):
        play(game)


@pytest.fixture(scope="module")
def lnoe_pack():
    from spawnpit.resources import builtin_paths

    return compile_paths(builtin_paths()).pack


@pytest.mark.parametrize("scenario", ["die_zombies_die", "escape_in_the_truck", "save_the_townsfolk", "burn_em_out",
                                      "defend_the_manor_house"])
def test_nothing_happens_after_the_result(lnoe_pack, scenario):
    # A hook that decides the game (a last Hero killed inside a card's effect) stops there: no roll, move or
    # spawn is logged after the result, however the game ended.
    from spawnpit.engine import AIPolicy

    for seed in range(4):
        game = new_game(lnoe_pack, f"lnoe:{scenario}", seed=seed,
                        policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
        play(game)
        results = [i for i, e in enumerate(game.entries) if e["type"] == "result"]
        assert results == [len(game.entries) - 1], (seed, game.entries[results[0]:][:4] if results else None)


def test_a_turn_structure_that_uses_up_the_budget_says_no_rule_ran(write_pack, monkeypatch):
    import spawnpit.engine.game as game_module

    monkeypatch.setattr(game_module, "EVENT_BUDGET", 50)
    result = compile_paths([write_pack({"main.pit": 'import "system.pit"\nusing mini\nscenario "Long" {\n'
                                        '  board yard\n  rounds 900\n  zombies win at sundown\n}\n'})])
    assert result.ok, [d.message for d in result.diagnostics]
    with pytest.raises(GameError, match=r"over 50\); no rule's hook ran, so the turn structure alone used it up"):
        play(new_game(result.pack, "long", seed=1))


@pytest.mark.parametrize("generated", [True, False])
def test_ordering_a_number_and_a_name_is_a_rule_error_naming_the_hook(write_pack, monkeypatch, generated):
    # `event.by` is a unit: the compiler cannot tell, so the game stops with the rule named, not a TypeError
    from spawnpit.engine import interp

    monkeypatch.setattr(interp, "GENERATE", generated)
    extra = 'rule "Grudge" { text "compares a unit"; on zombie.killed { if event.by > 3 { kills += 1 } } }'
    game = new_game(compiled(write_pack, extra), "trial", seed=1)
    with pytest.raises(GameError, match=r"Grudge .*`>` compares numbers, not 'u\d+' and 3"):
        play(game)


def test_a_chain_of_orderings_that_cannot_be_ordered_is_a_rule_error(write_pack):
    extra = 'rule "Grudge" { text "compares a unit"; on zombie.killed { if 1 < event.by < 3 { kills += 1 } } }'
    game = new_game(compiled(write_pack, extra), "trial", seed=1)
    with pytest.raises(GameError, match=r"Grudge .*`<` compares numbers"):
        play(game)


def test_an_objective_that_cannot_be_worked_out_is_named_in_the_error(write_pack):
    pack = compiled(write_pack)
    scenario = next(o for o in pack["objects"] if o["kind"] == "scenario")
    # what the compiler refuses (E0301), put straight into a pack, as a hand-edited pack.json could
    scenario["objectives"][0]["when"] = {"chain": [{"name": "kills"}, ">=", {"name": "hero"}]}
    with pytest.raises(GameError, match=r"Trial, objective `.*`: `>=` compares numbers, not 0 and 'hero'"):
        play(new_game(pack, "trial", seed=1))


@pytest.mark.parametrize("answer", ["a", 1.0, 99, -1])
def test_a_policy_answering_other_than_an_index_stops_the_game_with_a_clear_error(write_pack, answer):
    class Odd:
        def choose(self, game, side, label, options):
            return answer

    extra = 'on hero_turn.act.start { choose space s by heroes { kills += 0 } }'
    game = new_game(compiled(write_pack, extra), "trial", seed=1, policies={"heroes": Odd(), "zombies": FirstPolicy()})
    with pytest.raises(GameError, match=rf"the heroes policy answered {answer!r} to a choice of \d+ \(an index from 0 is due\)"):
        play(game)
