"""Instructions per game: the engine's cost counted by valgrind's callgrind, which gives the same count
for the same code and games however busy the machine is (CPU time on a shared machine varies by 10 to
30 % from one run to the next, more than most single optimisations gain). Compare two versions of the
engine with it; bench/engine.py gives the speed itself.

The pack is compiled once, natively, into a temporary folder; then the same small program runs twice
under callgrind, once playing no game and once playing N, and the difference divided by N is printed.
Slow: about 10 s of callgrind per Die Zombies, Die! game.

    python bench/instructions.py [--games N] [--scenario NAME] [--policy ai|random]

Needs valgrind (Debian: apt-get install valgrind).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GAMES = """
import json, sys
from spawnpit.engine import new_game, play
from spawnpit.engine.policies import POLICIES
pack = json.load(open(sys.argv[1], encoding="utf-8"))
scenario, policy, games = sys.argv[2], sys.argv[3], int(sys.argv[4])
sides = new_game(pack, scenario, seed=0).model.sides
played = 0
for seed in range(games):
    play(new_game(pack, scenario, seed=seed, policies={side: POLICIES[policy]() for side in sides}))
    played += 1
print("played", played)
"""


def counted(pack: Path, scenario: str, policy: str, games: int) -> int:
    """Instructions the program above executes for `games` games (everything, start-up included)."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # (string hashes, so set orders, the same every run)
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, "-c", GAMES, str(pack), scenario, policy, str(games)],
                         capture_output=True, text=True, env=env)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"callgrind run failed ({run.returncode}):\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games played under callgrind (seeds 0..N-1)")
    parser.add_argument("--scenario", default="lnoe:die_zombies_die")
    parser.add_argument("--policy", choices=("ai", "random"), default="ai")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    from spawnpit.compiler import compile_paths
    from spawnpit.resources import builtin_paths

    result = compile_paths(builtin_paths())
    with tempfile.TemporaryDirectory() as folder:
        pack = Path(folder) / "pack.json"
        pack.write_text(json.dumps(result.pack), encoding="utf-8")
        base = counted(pack, args.scenario, args.policy, 0)
        total = counted(pack, args.scenario, args.policy, args.games)
    per_game = (total - base) / max(1, args.games)
    print(f"{args.scenario} {args.policy} vs {args.policy}: {per_game / 1e6:,.1f} million instructions per game "
          f"({args.games} games, seeds 0..{args.games - 1}; start-up {base / 1e6:,.0f} million, not counted)")


if __name__ == "__main__":
    main()
