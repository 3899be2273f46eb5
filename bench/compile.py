"""Compile benchmark: the full pipeline over all built-in content against the Lark parse alone.

Prints lines, seconds, lines/s, the pipeline/parse ratio (target ≤ 1.5), and the cold start of
`spawnpit check` on one scenario file in a fresh process (target ≤ 0.3 s).

    python bench/compile.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from spawnpit.compiler import compile_paths
from spawnpit.dsl.parser import lark_parser
from spawnpit.resources import builtin_paths, content_root


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    files = sorted(p for root in builtin_paths() for p in root.rglob("*.pit"))
    texts = [f.read_text(encoding="utf-8") for f in files]
    lines = sum(t.count("\n") + 1 for t in texts)
    parser = lark_parser()
    parser.parse(texts[0])  # warm the grammar, as the pipeline's first call does

    result = compile_paths(builtin_paths())
    if not result.ok:
        sys.exit("built-in content does not compile; run `spawnpit check` first")
    full = best_of(args.repeat, lambda: compile_paths(builtin_paths()))
    parse_only = best_of(args.repeat, lambda: [parser.parse(t) for t in texts])

    scenario = content_root() / "scenarios" / "lnoe" / "01_die_zombies_die.pit"
    cold = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "spawnpit", "check", str(scenario)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cold.append(time.perf_counter() - start)
    scenario_lines = sum(1 for _ in scenario.open())

    print(f"files                 {len(files)}")
    print(f"lines                 {lines}")
    print(f"pipeline seconds      {full:.3f}")
    print(f"pipeline lines/s      {lines / full:,.0f}")
    print(f"lark parse seconds    {parse_only:.3f}")
    print(f"pipeline/parse ratio  {full / parse_only:.2f}   (target <= 1.5)")
    print(f"cold check seconds    {statistics.median(cold):.3f}   (one scenario + its imports, "
          f"{scenario_lines} lines in the file; target <= 0.3)")


if __name__ == "__main__":
    main()
