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


def test_the_fastest_of_several_runs_is_reported(mini, monkeypatch):
    engine, pack = mini
    clock = iter([0.0, 5.0, 10.0, 12.0, 20.0, 24.0])  # three runs of 5, 2 and 4 CPU seconds
    monkeypatch.setattr(engine.time, "process_time", lambda: next(clock))
    figures = engine.measure(pack, "last_stand", games=2, policy="random", repeat=3)
    assert figures["games"] == pytest.approx(2 / 2.0)


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
