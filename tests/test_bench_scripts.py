"""The benchmark scripts run: bench/engine.py measures the mini fixture's games (a figure for each, or
the error), its fastest-of-N run is one of the runs, and bench/loghash.py's fingerprint of a game is
the same when the game is played twice."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from spawnpit.compiler import compile_paths

BENCH = Path(__file__).resolve().parent.parent / "bench"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def mini():
    engine = load("engine")
    result = compile_paths([engine.MINI])
    assert result.ok
    return engine, result.pack


def test_the_engine_benchmark_gives_games_and_events_per_second(mini):
    engine, pack = mini
    figures = engine.measure(pack, "last_stand", games=3, policy="random", warm=1)
    assert "error" not in figures, figures
    assert figures["games"] > 0 and figures["events"] > 0
    assert figures["events"] / figures["games"] == pytest.approx(figures["per_game"])
    assert figures["new_games"] > 0 and figures["new_events"] > 0


def test_the_native_engine_plays_the_same_games_faster(mini):
    """`--engine native`: the same games (so the same events a game) as the Python engine."""
    from spawnpit.engine import native

    if not native.available():
        pytest.fail("the native core is not built (pip install -e . with g++ and the Python headers)")
    engine, pack = mini
    python = engine.measure(pack, "last_stand", games=3, policy="ai", warm=1, engine="python")
    natively = engine.measure(pack, "last_stand", games=3, policy="ai", warm=1, engine="native")
    assert "error" not in natively, natively
    assert natively["per_game"] == python["per_game"] and natively["new_events"] / natively["new_games"] == \
        pytest.approx(python["new_events"] / python["new_games"])


def test_the_fastest_of_several_runs_is_reported(mini, monkeypatch):
    engine, pack = mini
    clock = iter([0.0, 5.0, 10.0, 12.0, 20.0, 24.0, 30.0, 33.0])  # three runs of 5, 2 and 4 CPU seconds,
    monkeypatch.setattr(engine.time, "process_time", lambda: next(clock))  # then the new games' 3
    figures = engine.measure(pack, "last_stand", games=2, policy="random", repeat=3)
    assert figures["games"] == pytest.approx(2 / 2.0)
    assert figures["new_games"] == pytest.approx(2 / 3.0)


def test_a_game_that_cannot_be_played_is_reported_with_its_seed_not_raised(mini):
    engine, pack = mini
    figures = engine.measure(pack, "last_stand", games=1, policy="no such policy")
    assert figures == {"error": "seed 0: KeyError: 'no such policy'"}


def test_the_log_fingerprint_of_a_seeded_game_is_reproduced(mini):
    loghash = load("loghash")
    _, pack = mini
    first = loghash.game_hash(pack, "last_stand", 3, "ai")
    assert first == loghash.game_hash(pack, "last_stand", 3, "ai")
    assert first[1] > 0


def test_time_by_rule_counts_a_hook_s_own_time_not_the_hooks_it_raised(monkeypatch):
    """`--by-rule`: a hook that raises another inside it is charged its own time only."""
    from types import SimpleNamespace

    from spawnpit.engine.game import Game

    engine = load("engine")
    now = [0.0]
    monkeypatch.setattr(engine.time, "perf_counter", lambda: now[0])
    hook = lambda title: SimpleNamespace(rule={"title": title}, event="e")

    def fake_run(game, h, params, ctx=None):  # the outer hook takes 2 + 1 s around an inner one of 3 s
        if h.rule["title"] == "outer":
            now[0] += 2
            Game._run(game, hook("inner"), params)
            now[0] += 1
        else:
            now[0] += 3

    monkeypatch.setattr(Game, "_run", fake_run)
    hooks, runs, criteria, asked = (engine.Counter() for _ in range(4))
    with engine._timing_rules(hooks, runs, criteria, asked):
        Game._run(None, hook("outer"), {})
        Game._run(None, hook("outer"), {})
    assert hooks == {("outer", "e"): 6.0, ("inner", "e"): 6.0}
    assert runs == {("outer", "e"): 2, ("inner", "e"): 2}
    assert Game._run is fake_run  # put back


def test_time_by_rule_of_a_real_game():
    from spawnpit.engine import interp
    from spawnpit.engine.game import Game
    from spawnpit.resources import builtin_paths

    engine = load("engine")
    run, values = Game._run, interp.Advice.values
    found = engine.by_rule(compile_paths(builtin_paths()).pack, engine.TARGET, games=1, warm=0)
    assert Game._run is run and interp.Advice.values is values
    assert found["runs"]["Hero Movement", "move"] > 0 and found["runs"]["Zombie Movement", "zombie_turn.move_zombies"] > 0
    assert found["asked"]["Hero Movement", 0] > 0
    assert 0 < sum(found["hooks"].values()) <= found["total"]
    text = engine.shown_by_rule(found)
    assert "Hero Movement @ move" in text and "Hero Movement, criterion 0" in text


def test_time_by_rule_of_a_real_game_played_natively():
    from spawnpit.resources import builtin_paths

    engine = load("engine")
    found = engine.by_rule_native(compile_paths(builtin_paths()).pack, engine.TARGET, games=1, warm=0)
    assert found["runs"]["Hero Movement", "move"] > 0 and found["runs"]["Zombie Movement", "zombie_turn.move_zombies"] > 0
    assert found["asked"]["Hero Movement", 0] > 0
    assert 0 < sum(found["hooks"].values()) <= found["total"]
    text = engine.shown_by_rule(found)
    assert "Hero Movement @ move" in text and "Hero Movement, criterion 0" in text


def test_the_instruction_count_benchmark_counts_the_games_it_plays(mini, tmp_path, monkeypatch):
    """bench/instructions.py: its program plays the games it is given (run natively here); under
    callgrind (when valgrind is installed) more games cost more instructions, and the count is read
    from callgrind's own report."""
    import json
    import shutil
    import subprocess

    instructions = load("instructions")
    _, pack = mini
    path = tmp_path / "pack.json"
    path.write_text(json.dumps(pack), encoding="utf-8")
    played = subprocess.run([sys.executable, "-c", instructions.GAMES, str(path), "last-stand", "random", "2"],
                            capture_output=True, text=True)  # (a scenario named as `spawnpit play` names it)
    assert played.returncode == 0 and "played 2" in played.stdout, played.stderr
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind is not installed: the count itself is not checked")
    none, two = (instructions.counted(path, "mini:last_stand", "random", n) for n in (0, 2))
    assert 0 < none < two
