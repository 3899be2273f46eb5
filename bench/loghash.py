"""The SHA-256 of the JSONL logs of seeded games of every built-in scenario (and the mini fixture), AI vs
AI and random vs random: a fingerprint of the engine's behaviour. An optimisation must leave every line
of its output unchanged (save it before, diff it after).

    python bench/loghash.py [--seeds N]        # seeds 0..N-1 (default 8)
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

from spawnpit.compiler import compile_paths
from spawnpit.engine import new_game, play
from spawnpit.engine import log as gamelog
from spawnpit.engine.policies import POLICIES
from spawnpit.resources import builtin_paths

MINI = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "mini"


def sides(pack: dict, scenario: str) -> list[str]:
    system = next(o["system"] for o in pack["objects"] if o["kind"] == "scenario"
                  and scenario in (o["id"], f"{o['system']}:{o['id']}"))
    return [b["id"] for b in pack["systems"][system].get("blocks", []) if b["kind"] == "side"]


def game_hash(pack: dict, scenario: str, seed: int, policy: str) -> tuple[str, int]:
    policies = {side: POLICIES[policy]() for side in sides(pack, scenario)}
    game = None
    try:
        game = new_game(pack, scenario, seed=seed, policies=policies)
        play(game)
        tail = ""
    except Exception as err:  # noqa: BLE001 - an error is part of the behaviour being fingerprinted
        tail = f"error {type(err).__name__}: {err}"
    if game is None:
        return hashlib.sha256(tail.encode()).hexdigest(), 0
    text = gamelog.dumps(gamelog.header(game, policies), game.entries) + tail + f"\nevents {game.state['events']}"
    return hashlib.sha256(text.encode()).hexdigest(), game.state["events"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=8)
    args = ap.parse_args()
    runs = [(compile_paths([MINI]).pack, "last_stand")]
    pack = compile_paths(builtin_paths()).pack
    runs += [(pack, s) for s in sorted(f"{o['system']}:{o['id']}" for o in pack["objects"] if o["kind"] == "scenario")]
    total = hashlib.sha256()
    for run_pack, scenario in runs:
        for policy in ("ai", "random"):
            h = hashlib.sha256()
            events = 0
            for seed in range(args.seeds):
                digest, n = game_hash(run_pack, scenario, seed, policy)
                h.update(digest.encode())
                events += n
            total.update(h.hexdigest().encode())
            print(f"{scenario:34} {policy:6} {events:8} events  {h.hexdigest()[:32]}", flush=True)
    print(f"all {total.hexdigest()}")


if __name__ == "__main__":
    main()
