"""Many games for balance: win rates with 95 % confidence intervals, victory causes, game lengths and
which rules never fired. Game i always gets seed S + i, and results are gathered in game order, so
the report is identical for any number of worker processes.
"""

from __future__ import annotations

import gc
import math
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Outcome:
    seed: int
    winner: str | None
    cause: str
    rounds: int
    events: int
    fired: tuple[str, ...]
    error: str = ""
    met: tuple[int, ...] = ()  # the scenario's objectives (by index) that held, or whose event happened
    internal: bool = False  # the error is the engine's own failure, not a rule's
    present: tuple[str, ...] = ()  # the owners of card and unit hooks (`card:PROTO`) that were in the game


@dataclass(slots=True)
class Summary:
    scenario: str
    games: int
    wins: dict = field(default_factory=dict)
    intervals: dict = field(default_factory=dict)
    causes: dict = field(default_factory=dict)
    rounds: dict = field(default_factory=dict)
    never_fired: list = field(default_factory=list)
    not_in_game: list = field(default_factory=list)  # rules of cards or characters no game had at all
    errors: dict = field(default_factory=dict)
    events: int = 0

    def to_json(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval: honest near 0 % and 100 %, where the normal approximation is not."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


_PACK = None


def _init(pack: dict) -> None:
    """The pack every game of this process plays. It lives as long as the process and never changes, so
    Python's garbage collector is told to leave it (and everything made so far) out of its searches: a
    full collection would otherwise walk the whole compiled pack every few games."""
    global _PACK
    _PACK = pack
    gc.collect()
    gc.freeze()


def play_one(args: tuple[str, int, dict]) -> Outcome:
    from spawnpit.engine import GameError, native, new_game, play
    from spawnpit.engine.interp import RuleError
    from spawnpit.engine.policies import POLICIES

    scenario, seed, policy_names = args
    policies = {side: POLICIES[name]() for side, name in policy_names.items()}
    if native.wanted():
        try:
            return _played_natively(scenario, seed, policy_names)
        except native.NativeUnsupported:
            pass  # (the pack uses what the native core does not know: Python plays it)
        except GameError:
            pass  # a broken game is played again in Python, which reports exactly where it broke
    game = None
    try:
        game = new_game(_PACK, scenario, seed=seed, policies=policies)
        result = play(game)
    except (GameError, RuleError) as err:
        return _failed(game, seed, str(err), False)
    except RecursionError:
        return _failed(game, seed, "RecursionError: rules nested too deeply", True)
    except Exception as err:  # noqa: BLE001 - one broken game is reported, not the end of the simulation
        return _failed(game, seed, f"{type(err).__name__}: {err}", True)
    return Outcome(seed, result["winner"], result["cause"], result["round"], game.state["events"], tuple(sorted(game.fired)),
                   met=tuple(sorted(game.met)), present=_present(game))


def _played_natively(scenario: str, seed: int, policy_names: dict) -> Outcome:
    """The game played by the native core (engine/native): the same outcome as in Python, sooner."""
    from spawnpit.engine import find_scenario, native
    from spawnpit.engine.model import model_for

    out = native.play_new(_PACK, scenario, seed, policy_names)
    result = out["result"]
    owners = _owners(model_for(_PACK, find_scenario(_PACK, scenario)))
    return Outcome(seed, result["winner"], result["cause"], result["round"], out["events"],
                   tuple(sorted(rule for rule, _ in out["fired"])),
                   met=tuple(i for i, held in enumerate(out["met"]) if held),
                   present=tuple(sorted(owners & set(out["present"]))))


_OWNERS: dict[int, tuple[object, frozenset]] = {}


def _owners(model) -> frozenset:
    """The owners of a model's card and unit hooks (`card:PROTO`), worked out once per model."""
    hit = _OWNERS.get(id(model))
    if hit is None or hit[0] is not model:
        hit = _OWNERS[id(model)] = (model, frozenset(h.owner for hooks in model.hooks.values() for h in hooks
                                                        if h.owner is not None))
    return hit[1]


def _present(game) -> tuple[str, ...]:
    """The owners of the card and unit hooks whose card or unit was in the game at its end (a card in a
    deck, a hand, play or a discard pile; a unit on or off the board): the Advanced cards of a Basic
    Game, another scenario's Search cards and the characters not dealt never are, so their rules cannot
    fire, and a report says so apart from the rules that could have fired but did not."""
    state = game.state
    protos = {f"card:{c['proto']}" for c in state["cards"].values() if c["where"] != "box"}  # box: set aside
    protos |= {f"unit:{u['proto']}" for u in state["units"].values()}
    return tuple(sorted({h.owner for hooks in game.model.hooks.values() for h in hooks if h.owner in protos}))


def _failed(game, seed: int, error: str, internal: bool) -> Outcome:
    if game is None:
        return Outcome(seed, None, "error", 0, 0, (), error, internal=internal)
    return Outcome(seed, None, "error", game.state["round"], game.state["events"], tuple(sorted(game.fired)), error,
                   met=tuple(sorted(game.met)), internal=internal)


def play_all(pack: dict, work: list[tuple[str, int, dict]], jobs: int = 1, progress=None) -> list[Outcome]:
    """Play every (scenario, seed, {side: policy name}) of `work`; the outcomes come back in the order of
    `work` whatever the number of worker processes, so reports never depend on --jobs."""
    outcomes: list[Outcome] = []
    if jobs > 1 and len(work) > 1:
        with ProcessPoolExecutor(jobs, initializer=_init, initargs=(pack,)) as pool:
            for outcome in pool.map(play_one, work, chunksize=max(1, len(work) // (jobs * 8))):
                outcomes.append(outcome)
                progress and progress()
    else:
        _init(pack)
        for item in work:
            outcomes.append(play_one(item))
            progress and progress()
    return outcomes


def simulate(pack: dict, scenario: str, games: int, seed: int = 0, jobs: int = 1, policies: dict | None = None,
             progress=None) -> Summary:
    from spawnpit.engine import new_game

    probe = new_game(pack, scenario, seed=seed)
    names = {side: (policies or {}).get(side, "ai") for side in probe.model.sides}
    work = [(scenario, seed + i, names) for i in range(games)]
    return summarise(probe, scenario, play_all(pack, work, jobs, progress))


def summarise(probe, scenario: str, outcomes: list[Outcome]) -> Summary:
    n = len(outcomes)
    wins = Counter(o.winner or "none" for o in outcomes if not o.error)
    summary = Summary(scenario=scenario, games=n)
    summary.wins = {k: wins[k] for k in sorted(wins)}
    summary.intervals = {k: wilson(v, n) for k, v in summary.wins.items()}
    summary.causes = dict(sorted(Counter(o.cause for o in outcomes).items()))
    lengths = sorted(o.rounds for o in outcomes)
    if lengths:
        summary.rounds = {"min": lengths[0], "median": lengths[len(lengths) // 2], "max": lengths[-1],
                          "mean": round(sum(lengths) / n, 2), "histogram": dict(sorted(Counter(lengths).items()))}
    fired = set().union(*(set(o.fired) for o in outcomes)) if outcomes else set()
    present = set().union(*(set(o.present) for o in outcomes)) if outcomes else set()
    owners: dict[str, set] = {}  # rule → the owners of its hooks (None: a rule of the system or scenario)
    for hooks in probe.model.hooks.values():
        for h in hooks:
            owners.setdefault(h.rule["rule"], set()).add(h.owner)
    unfired = set(owners) - fired
    summary.not_in_game = sorted(r for r in unfired if None not in owners[r] and not owners[r] & present)
    summary.never_fired = sorted(unfired - set(summary.not_in_game))
    summary.errors = dict(Counter(o.error for o in outcomes if o.error).most_common(5))
    summary.events = sum(o.events for o in outcomes)
    return summary
