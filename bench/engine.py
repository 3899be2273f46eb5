"""Engine benchmark: whole games per second per core and engine events per second.

Runs random-vs-random games of the mini fixture scenario and of every built-in scenario; a scenario
the engine cannot run yet is listed with its first error instead of figures (issue 3 tracks them).

    python bench/engine.py [--games N]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from spawnpit.compiler import compile_paths
from spawnpit.engine import new_game, play
from spawnpit.resources import builtin_paths

MINI = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "mini"


def measure(pack: dict, scenario: str, games: int) -> str:
    events = 0
    start = time.perf_counter()
    for seed in range(games):
        try:
            game = new_game(pack, scenario, seed=seed)
            play(game)
        except Exception as err:  # noqa: BLE001 - a benchmark reports, it does not stop
            return f"{scenario:40} cannot run yet: {type(err).__name__}: {str(err)[:120]}"
        events += game.state["events"]
    seconds = time.perf_counter() - start
    return f"{scenario:40} {games / seconds:8.1f} games/s {events / seconds:10,.0f} events/s"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args()
    mini = compile_paths([MINI]).pack
    print(measure(mini, "last_stand", args.games))
    pack = compile_paths(builtin_paths()).pack
    for scenario in sorted(f"{o['system']}:{o['id']}" for o in pack["objects"] if o["kind"] == "scenario"):
        print(measure(pack, scenario, args.games))


if __name__ == "__main__":
    main()
