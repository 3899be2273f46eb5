"""Engine benchmark: whole games per second per core and engine events per second.

Plays seeded games of the mini fixture scenario and of every built-in scenario, every side played by the
`ai` policy (the rules' own `prefer` advice) and, in a second column, by the `random` policy. A game is
`new_game` + `play`, from setup to result. Figures are per core: one process, timed by the CPU time it
used (the wall-clock figure is shown too; on a busy machine it is the lower one). A scenario the engine
cannot run is listed with its first error instead of figures.

The target of issue 3 is for Die Zombies, Die! played AI vs AI: at least 100 games/s per core and at least
50,000 events/s; the last line says whether it is met.

Games are played by the native core (engine/native, docs/native.md) when it is built, as `spawnpit sim`
plays them; `--engine python` measures the Python engine, `--engine both` the two side by side.

    python bench/engine.py [--games N] [--warm N] [--repeat N] [--policy ai|random|both] [--scenario NAME ...]
                           [--engine native|python|both]
    python bench/engine.py --profile 50     # cProfile of Die Zombies, Die! AI vs AI, seeds 0..49
    python bench/engine.py --by-rule 50     # the same games' time by rule hook and by `prefer` criterion
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import time
from collections import Counter
from pathlib import Path

from spawnpit.compiler import compile_paths
from spawnpit.engine import interp, new_game, play
from spawnpit.engine.game import Game
from spawnpit.engine.policies import POLICIES
from spawnpit.resources import builtin_paths

MINI = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "mini"
TARGET = "lnoe:die_zombies_die"
TARGET_GAMES, TARGET_EVENTS = 100.0, 50_000.0


def sides(pack: dict, scenario: str) -> list[str]:
    system = next(o["system"] for o in pack["objects"] if o["kind"] == "scenario"
                  and scenario in (o["id"], f"{o['system']}:{o['id']}"))
    return [b["id"] for b in pack["systems"][system].get("blocks", []) if b["kind"] == "side"]


def player(engine: str, pack: dict, scenario: str, policy: str, players: list[str]):
    """A function seed → the events of a new game of the scenario played to its end with the engine: in
    Python `new_game` + `play`; natively as `spawnpit sim` plays it (native.play_new: no Python Game made)."""
    if engine == "native":
        from spawnpit.engine import native

        names = {side: policy for side in players}
        return lambda seed: native.play_new(pack, scenario, seed, names)["events"]

    def run(seed: int) -> int:
        game = new_game(pack, scenario, seed=seed, policies={side: POLICIES[policy]() for side in players})
        play(game)
        return game.state["events"]

    return run


def measure(pack: dict, scenario: str, games: int, policy: str, warm: int = 0, repeat: int = 1,
            engine: str = "python") -> dict:
    """Play `games` seeded games; games/s and events/s by CPU time and by wall clock, or the error.
    First, untimed, `warm` games on other seeds: a long simulation plays each of a scenario's board
    layouts many times (Die Zombies, Die! lays 4 of 6 L-boards in order: 360 layouts), and the
    distances and lines of sight its board caches serve every game on it. With `repeat` > 1 the same
    games are played that many times and the fastest run is reported (as timeit does): on a shared
    machine the others measure the neighbours too. From the second run on, those games' layouts are
    warm, so this is the engine's speed with its caches full: the figure of a long simulation's later
    games. `new` is the same number of games on seeds never played before, timed once: what a
    simulation sees while it still meets layouts for the first time (its early games)."""
    players = sides(pack, scenario)
    run = player(engine, pack, scenario, policy, players)
    gc.collect()
    gc.freeze()  # the pack and the boards made so far stay for good, as `spawnpit sim` keeps them (sim._init)
    try:  # the compiled model (and the native one) and board are built once per pack: not timed
        run(0)
    except Exception as err:  # noqa: BLE001 - a benchmark reports, it does not stop
        return {"error": f"seed 0: {type(err).__name__}: {str(err)[:100]}"}
    for seed in range(1_000_000, 1_000_000 + warm):
        try:
            run(seed)
        except Exception:  # noqa: BLE001 - reported by the timed games below
            break
    best = None
    for _ in range(max(1, repeat)):
        events = 0
        wall, cpu = time.perf_counter(), time.process_time()
        for seed in range(games):
            try:
                events += run(seed)
            except Exception as err:  # noqa: BLE001 - a benchmark reports, it does not stop
                return {"error": f"seed {seed}: {type(err).__name__}: {str(err)[:100]}"}
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        if best is None or cpu < best[0]:
            best = (cpu, wall, events)
    cpu, wall, events = best
    new_events, new_cpu = 0, time.process_time()
    for seed in range(2_000_000, 2_000_000 + games):
        new_events += run(seed)
    new_cpu = time.process_time() - new_cpu
    return {"games": games / cpu, "events": events / cpu, "wall_games": games / wall, "per_game": events / games,
            "new_games": games / new_cpu, "new_events": new_events / new_cpu}


def shown(figures: dict) -> str:
    if "error" in figures:
        return f"cannot run: {figures['error']}"
    return (f"{figures['games']:7.1f} games/s {figures['events']:9,.0f} events/s "
            f"({figures['per_game']:5.0f} ev/game, wall {figures['wall_games']:6.1f} g/s; "
            f"new layouts {figures['new_games']:5.1f} g/s {figures['new_events']:7,.0f} ev/s)")


def profile(games: int, top: int = 30) -> None:
    """Where the time goes: cProfile of new_game + play of the target scenario, AI vs AI, seeds 0..games-1."""
    import cProfile
    import pstats

    pack = compile_paths(builtin_paths()).pack
    players = sides(pack, TARGET)
    for seed in range(1_000_000, 1_000_060):  # warm caches, as measure() does
        play(new_game(pack, TARGET, seed=seed, policies={side: POLICIES["ai"]() for side in players}))
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(games):
        play(new_game(pack, TARGET, seed=seed, policies={side: POLICIES["ai"]() for side in players}))
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


@contextlib.contextmanager
def _timing_rules(hooks: Counter, runs: Counter, criteria: Counter, asked: Counter):
    """While inside: each hook's run timed (its own time, hooks it raised inside it left out) into
    hooks/runs by (rule title, event), and each `prefer` criterion worked out by the ai into
    criteria/asked by (rule title, criterion's position in its priority list)."""
    run, values, clock, inner = Game._run, interp.Advice.values, time.perf_counter, [0.0]

    def timed_run(game, hook, params, ctx=None):
        outer, inner[0] = inner[0], 0.0
        start = clock()
        try:
            return run(game, hook, params, ctx)
        finally:
            spent = clock() - start
            key = (hook.rule["title"], hook.event)
            hooks[key] += spent - inner[0]
            runs[key] += 1
            inner[0] = outer + spent

    def timed_values(advice, k, indices, options):
        start = clock()
        try:
            return values(advice, k, indices, options)
        finally:
            key = (advice.ctx.rule["title"], k)
            criteria[key] += clock() - start
            asked[key] += len(indices)

    Game._run, interp.Advice.values = timed_run, timed_values
    try:
        yield
    finally:
        Game._run, interp.Advice.values = run, values


def by_rule(pack: dict, scenario: str, games: int, policy: str = "ai", warm: int = 20) -> dict:
    """Where a scenario's games spend their time, by rule: `games` seeded games (after `warm` untimed
    ones), each hook's own time and number of runs, and each `prefer` criterion's (worked out inside
    its hook, so its time is part of the hook's too). Times are wall-clock seconds, timing included."""
    players = sides(pack, scenario)
    game_of = lambda seed: new_game(pack, scenario, seed=seed, policies={s: POLICIES[policy]() for s in players})
    for seed in range(1_000_000, 1_000_000 + warm):
        play(game_of(seed))
    hooks, runs, criteria, asked = Counter(), Counter(), Counter(), Counter()
    start = time.perf_counter()
    with _timing_rules(hooks, runs, criteria, asked):
        for seed in range(games):
            play(game_of(seed))
    return {"total": time.perf_counter() - start, "hooks": hooks, "runs": runs, "criteria": criteria, "asked": asked}


def by_rule_native(pack: dict, scenario: str, games: int, policy: str = "ai", warm: int = 20) -> dict:
    """by_rule, the games played by the native core (native.play_new with profile=True): the same figures,
    each hook's own time timed natively ("TITLE @ EVENT"; criteria "TITLE, criterion K")."""
    from spawnpit.engine import native

    names = {side: policy for side in sides(pack, scenario)}
    for seed in range(1_000_000, 1_000_000 + warm):
        native.play_new(pack, scenario, seed, names)
    hooks, runs, criteria, asked = Counter(), Counter(), Counter(), Counter()
    start = time.perf_counter()
    for seed in range(games):
        for key, (spent, n) in native.play_new(pack, scenario, seed, names, profile=True)["spent"].items():
            if " @ " in key:
                rule, event = key.split(" @ ", 1)
                hooks[rule, event] += spent
                runs[rule, event] += n
            else:
                rule, k = key.rsplit(", criterion ", 1)
                criteria[rule, int(k)] += spent
                asked[rule, int(k)] += n
    return {"total": time.perf_counter() - start, "hooks": hooks, "runs": runs, "criteria": criteria, "asked": asked}


def shown_by_rule(found: dict, top: int = 25) -> str:
    total = found["total"]
    lines = [f"{'share':>6} {'runs':>7} {'per run':>9}  hook (rule @ event)"]
    for (rule, event), spent in found["hooks"].most_common(top):
        n = found["runs"][rule, event]
        lines.append(f"{100 * spent / total:5.1f}% {n:7} {1e6 * spent / n:7.0f}us  {rule} @ {event}")
    outside = total - sum(found["hooks"].values())
    lines.append(f"{100 * outside / total:5.1f}%  outside any hook (turn structure, setup, policies' own work)")
    lines += ["", f"{'share':>6} {'asked':>7} {'each':>9}  prefer criterion (rule, position in the list from 0)"]
    for (rule, k), spent in found["criteria"].most_common(top):
        n = found["asked"][rule, k]
        lines.append(f"{100 * spent / total:5.1f}% {n:7} {1e6 * spent / n:7.1f}us  {rule}, criterion {k}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games per scenario and policy (seeds 0..N-1)")
    ap.add_argument("--policy", choices=("ai", "random", "both"), default="both")
    ap.add_argument("--warm", type=int, default=60, metavar="N",
                    help="untimed games first, so the boards' caches are as warm as in a long simulation (0: cold)")
    ap.add_argument("--scenario", action="append", help="only these scenarios (system:id); repeatable")
    ap.add_argument("--repeat", type=int, default=1, metavar="N",
                    help="play the timed games N times and report the fastest run (a busy machine's figures vary)")
    ap.add_argument("--engine", choices=("native", "python", "both"), default=None,
                    help="the engine that plays (default: the native core when it is built, else Python)")
    ap.add_argument("--profile", type=int, metavar="N", help=f"profile {TARGET} AI vs AI, seeds 0..N-1, instead")
    ap.add_argument("--by-rule", type=int, metavar="N",
                    help=f"time {TARGET} AI vs AI, seeds 0..N-1, by rule hook and prefer criterion, instead")
    args = ap.parse_args()
    if args.profile:
        profile(args.profile)
        return
    if args.by_rule:
        from spawnpit.engine import native

        pack = compile_paths(builtin_paths()).pack
        natively = (args.engine or ("native" if native.available() else "python")) != "python"
        found = (by_rule_native if natively else by_rule)(pack, TARGET, args.by_rule, warm=args.warm)
        print(f"{args.by_rule} games of {TARGET}, AI vs AI, {'native' if natively else 'python'} engine, "
              f"{found['total']:.2f} s (timing included)")
        print(shown_by_rule(found))
        return
    policies = ["ai", "random"] if args.policy == "both" else [args.policy]
    from spawnpit.engine import native

    engine = args.engine or ("native" if native.available() else "python")
    if engine != "python" and not native.available():
        ap.error("the native core is not built (pip install -e . with g++ and the Python headers)")
    engines = ["native", "python"] if engine == "both" else [engine]
    runs = [(compile_paths([MINI]).pack, "last_stand")]
    pack = compile_paths(builtin_paths()).pack
    runs += [(pack, s) for s in sorted(f"{o['system']}:{o['id']}" for o in pack["objects"] if o["kind"] == "scenario")]
    if args.scenario:
        runs = [(p, s) for p, s in runs if s in args.scenario]
    print(f"{args.games} games per scenario and policy, per core (CPU time of one process), "
          f"after {args.warm} untimed games each" + (f", fastest of {args.repeat} runs" if args.repeat > 1 else ""))
    targets = {}
    for run_pack, scenario in runs:
        for policy in policies:
            for eng in engines:
                figures = measure(run_pack, scenario, args.games, policy, args.warm, args.repeat, eng)
                print(f"{scenario:34} {policy + ' vs ' + policy:16} {eng:6} {shown(figures)}")
                if scenario == TARGET and policy == "ai":
                    targets[eng] = figures
    for eng, target in targets.items():
        if "error" in target:
            print(f"Die Zombies, Die! AI vs AI ({eng}): {target['error']}")
        else:
            met = target["games"] >= TARGET_GAMES and target["events"] >= TARGET_EVENTS
            print(f"Die Zombies, Die! AI vs AI ({eng}): {target['games']:.1f} games/s/core (target >= {TARGET_GAMES:.0f}), "
                  f"{target['events']:,.0f} events/s (target >= {TARGET_EVENTS:,.0f}): "
                  f"{'target met' if met else 'target NOT met'}; "
                  f"on layouts not met before: {target['new_games']:.1f} games/s, {target['new_events']:,.0f} events/s")


if __name__ == "__main__":
    main()
