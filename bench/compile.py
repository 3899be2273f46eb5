"""Compile benchmark: the full pipeline over all built-in content against the Lark parse alone.

Prints lines, seconds, lines/s and the pipeline/parse ratio (target ≤ 1.5), without the cache and with
a warm cache, and the time of `spawnpit check` on one scenario file in a fresh process (target ≤ 0.3 s),
first with an empty cache, then warm.

    python bench/compile.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from spawnpit.compiler import cache, compile_paths
from spawnpit.dsl.parser import lark_parser
from spawnpit.resources import builtin_paths, content_root


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def cold_check(path, cache_dir: str) -> float:
    env = dict(os.environ, SPAWNPIT_CACHE_DIR=cache_dir)
    env.pop("SPAWNPIT_NO_CACHE", None)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "spawnpit", "check", str(path)], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    files = sorted(p for root in builtin_paths() for p in root.rglob("*.pit"))
    texts = [f.read_text(encoding="utf-8") for f in files]
    lines = sum(t.count("\n") + 1 for t in texts)
    parser = lark_parser()
    parser.parse(texts[0])  # build the grammar once, as every process does before its first parse

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SPAWNPIT_CACHE_DIR"] = tmp
        os.environ["SPAWNPIT_NO_CACHE"] = "1"
        cache.folder.cache_clear()
        if not compile_paths(builtin_paths()).ok:
            sys.exit("built-in content does not compile; run `spawnpit check` first")
        uncached = best_of(args.repeat, lambda: compile_paths(builtin_paths()))
        del os.environ["SPAWNPIT_NO_CACHE"]
        compile_paths(builtin_paths())
        warm = best_of(args.repeat, lambda: compile_paths(builtin_paths()))
    parse_only = best_of(args.repeat, lambda: [parser.parse(t) for t in texts])

    scenario = content_root() / "scenarios" / "lnoe" / "01_die_zombies_die.pit"
    firsts, warms = [], []
    for _ in range(max(3, args.repeat // 2)):
        with tempfile.TemporaryDirectory() as tmp:
            firsts.append(cold_check(scenario, tmp))
            warms.append(min(cold_check(scenario, tmp) for _ in range(3)))

    print(f"files                        {len(files)}")
    print(f"lines                        {lines}")
    print(f"lark parse seconds           {parse_only:.3f}")
    print(f"pipeline seconds, no cache   {uncached:.3f}   ({lines / uncached:,.0f} lines/s)")
    print(f"pipeline/parse ratio         {uncached / parse_only:.2f}   (target <= 1.5)")
    print(f"pipeline seconds, warm cache {warm:.3f}   ({lines / warm:,.0f} lines/s, ratio {warm / parse_only:.2f})")
    print(f"check one scenario, fresh process, empty cache  {statistics.median(firsts):.3f} s")
    print(f"check one scenario, fresh process, warm cache   {statistics.median(warms):.3f} s   (target <= 0.3)")


if __name__ == "__main__":
    main()
