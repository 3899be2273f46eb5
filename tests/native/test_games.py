"""Whole games played by the native core (engine/native) against the Python engine: the logs must be the
same line for line (docs/native.md), for every built-in scenario, both policies the simulations use, and
several seeds; `sim` must report the same whichever engine plays; what the core cannot run is refused
when it is loaded and played in Python instead."""

from __future__ import annotations

import copy
import json

import pytest

from spawnpit.compiler import compile_paths
from spawnpit.engine import GameError, native, new_game, play
from spawnpit.engine.log import line
from spawnpit.engine.policies import POLICIES, ScriptedPolicy
from spawnpit.engine.sim import simulate
from spawnpit.resources import builtin_paths
from tests.conftest import FIXTURES


@pytest.fixture(scope="module")
def pack(native):
    result = compile_paths(builtin_paths())
    assert result.ok
    return result.pack


def scenarios(pack) -> list[str]:
    return sorted(f"{o['system']}:{o['id']}" for o in pack["objects"] if o["kind"] == "scenario")


def sides(pack, scenario: str) -> list[str]:
    return [b["id"] for b in pack["systems"][scenario.split(":")[0]]["blocks"] if b["kind"] == "side"]


def both(pack, scenario: str, seed: int, policy: str) -> tuple[list[str], list[str], dict, object]:
    """The game's log played by Python and by the native core, the native outcome, the Python game."""
    policies = {side: POLICIES[policy]() for side in sides(pack, scenario)}
    python_game = new_game(pack, scenario, seed=seed, policies=policies)
    play(python_game)
    game = new_game(pack, scenario, seed=seed, policies={side: POLICIES[policy]() for side in sides(pack, scenario)})
    out = native.play(game, logging=True)
    return [line(e) for e in python_game.entries], out["lines"], out, python_game


BUILTIN = ["dotz:basic_game", "lnoe:burn_em_out", "lnoe:defend_the_manor_house", "lnoe:die_zombies_die",
           "lnoe:escape_in_the_truck", "lnoe:save_the_townsfolk", "notld:is_there_a_key",
           "notld:theyre_afraid_of_fire", "notld:whats_happening"]


def test_every_builtin_scenario_is_listed(pack):
    assert scenarios(pack) == BUILTIN


@pytest.mark.parametrize("policy", ["ai", "random"])
@pytest.mark.parametrize("scenario", BUILTIN)
def test_logs_are_identical(pack, scenario, policy):
    for seed in (3, 11):
        python_log, native_log, out, python_game = both(pack, scenario, seed, policy)
        first = next((k for k, (a, b) in enumerate(zip(python_log, native_log)) if a != b),
                     min(len(python_log), len(native_log)))
        assert native_log == python_log, (f"seed {seed}: line {first} of {len(python_log)} differs:\n"
                                          f"python {python_log[first] if first < len(python_log) else None}\n"
                                          f"native {native_log[first] if first < len(native_log) else None}")
        state = python_game.state
        assert out["result"] == {k: state["result"][k] for k in ("winner", "side", "verdict", "cause", "round")}
        assert (out["events"], out["choices"], out["logged"]) == (state["events"], state["choices"], len(python_log))
        assert dict(out["fired"]) == python_game.fired
        assert [i for i, held in enumerate(out["met"]) if held] == sorted(python_game.met)


def test_a_game_keeps_going_the_same_without_its_log(pack):
    """Not logging changes nothing but the log: the same result, events and dice."""
    game = new_game(pack, "lnoe:die_zombies_die", seed=5, policies={"heroes": POLICIES["ai"](), "zombies": POLICIES["ai"]()})
    quiet = native.play(game)
    logged = native.play(new_game(pack, "lnoe:die_zombies_die", seed=5,
                                  policies={"heroes": POLICIES["ai"](), "zombies": POLICIES["ai"]()}), logging=True)
    assert quiet["lines"] is None and len(logged["lines"]) == logged["logged"] == quiet["logged"]
    assert (quiet["result"], quiet["events"], quiet["choices"]) == (logged["result"], logged["events"], logged["choices"])
    assert json.loads(logged["lines"][-1])["type"] == "result"


def test_the_game_object_keeps_its_first_state_and_counts_the_rules_fired(pack):
    game = new_game(pack, "lnoe:die_zombies_die", seed=2, policies={"heroes": POLICIES["ai"](), "zombies": POLICIES["ai"]()})
    before = copy.deepcopy(game.state)
    out = native.play(game)
    assert game.state == before and game.state["result"] is None
    assert game.fired == dict(out["fired"]) and game.fired["zombie_movement"] > 0


def test_the_mini_fixture_plays_the_same(pack):  # (pack: the core is built)
    pack = compile_paths([FIXTURES / "mini"]).pack  # noqa: F841 - the mini fixture, not the built-in content
    scenario = next(o for o in pack["objects"] if o["kind"] == "scenario")["id"]
    for seed in range(4):
        python_game = new_game(pack, scenario, seed=seed)
        play(python_game)
        out = native.play(new_game(pack, scenario, seed=seed), logging=True)
        assert out["lines"] == [line(e) for e in python_game.entries]


def test_sim_reports_the_same_with_either_engine(pack, monkeypatch):
    natively = simulate(pack, "lnoe:escape_in_the_truck", 12, seed=7).to_json()
    monkeypatch.setenv("SPAWNPIT_ENGINE", "python")
    assert not native.wanted()
    in_python = simulate(pack, "lnoe:escape_in_the_truck", 12, seed=7).to_json()
    assert natively == in_python
    assert sum(natively["wins"].values()) == 12 and natively["never_fired"] is not None


def test_a_scripted_or_human_side_plays_in_python_only(pack):
    game = new_game(pack, "lnoe:die_zombies_die", seed=1, policies={"heroes": ScriptedPolicy([0, 0]),
                                                                   "zombies": POLICIES["ai"]()})
    with pytest.raises(native.NativeUnsupported, match="heroes policy \\(scripted\\) plays in Python only"):
        native.play(game)


def _with_hook(pack: dict, scenario: str, hook: dict) -> dict:
    """A copy of the pack whose scenario has one more hook (content the tests write as IR)."""
    pack = copy.deepcopy(pack)
    obj = next(o for o in pack["objects"] if o["kind"] == "scenario" and f"{o['system']}:{o['id']}" == scenario)
    obj.setdefault("hooks", []).append(hook)
    return pack


def test_a_pack_the_core_cannot_run_is_refused_and_sim_plays_it_in_python(pack):
    # a range literal: the Python engine knows it (a tuple), the core refuses it when it is loaded
    odd = _with_hook(pack, "lnoe:escape_in_the_truck", {
        "event": "round.start", "replace": False, "at": "test",
        "when": {"chain": [{"lit": [1, 2], "type": "range"}, "==", {"lit": 0, "type": "int"}]},
        "body": [{"do": "log", "what": {"lit": "never", "type": "str"}}]})
    game = new_game(odd, "lnoe:escape_in_the_truck", seed=1, policies={"heroes": POLICIES["ai"](), "zombies": POLICIES["ai"]()})
    with pytest.raises(native.NativeUnsupported, match="a range literal"):
        native.play(game)
    report = simulate(odd, "lnoe:escape_in_the_truck", 3, seed=1).to_json()
    assert report == simulate(pack, "lnoe:escape_in_the_truck", 3, seed=1).to_json()


def test_a_rule_error_says_the_same_in_both_engines(pack):
    broken = _with_hook(pack, "lnoe:die_zombies_die", {
        "event": "round.start", "replace": False, "at": "test",
        "body": [{"do": "wound", "what": {"lit": 3, "type": "int"}}]})
    policies = lambda: {"heroes": POLICIES["ai"](), "zombies": POLICIES["ai"]()}  # noqa: E731
    with pytest.raises(GameError) as python_error:
        play(new_game(broken, "lnoe:die_zombies_die", seed=1, policies=policies()))
    with pytest.raises(GameError) as native_error:
        native.play(new_game(broken, "lnoe:die_zombies_die", seed=1, policies=policies()))
    assert str(native_error.value) == str(python_error.value)
    assert "`wound` needs a unit, got 3" in str(native_error.value)
    report = simulate(broken, "lnoe:die_zombies_die", 2, seed=1).to_json()
    assert list(report["errors"]) == [str(python_error.value)]
