"""`spawnpit check --simulate N`: play N random games of every scenario declared in the checked files and
report, as diagnostics at the scenario's declaration, what only play can show:

- E0501 a rule failed in a game (a hook asked for the impossible, or a runaway chain of events), with the
  seed of a game where it happens, the rule and the message;
- W0501 an objective that never held (a `when` test) or whose event never happened (`at`) in any game;
- W0502 games that ended without a winner (out of rounds, or a rule ending the game with no side winning),
  with how many and the seed of one;
- W0503 a scenario whose games could not start at all.

Every side is played by the `random` policy; game i of a scenario gets seed S+i. Games run through
engine.sim.play_all, in worker processes only when jobs > 1, and the findings never depend on jobs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from spawnpit.diagnostics import Diagnostic, Span
from spawnpit.engine.written import objective_text

MAX_ERRORS = 5  # distinct rule errors reported per scenario


@dataclass(slots=True)
class Played:
    """What the simulation found for one scenario: the summary line's numbers."""

    name: str  # system:id
    title: str
    path: str
    games: int
    seed: int
    wins: dict = field(default_factory=dict)  # every side (0 included), then "none" for games without a winner
    errors: int = 0
    skipped: str = ""  # why no game could be played

    def to_json(self) -> dict:
        return {"scenario": self.name, "title": self.title, "file": self.path, "games": self.games,
                "seeds": [self.seed, self.seed + self.games - 1] if self.games else [], "wins": self.wins,
                "errors": self.errors, **({"skipped": self.skipped} if self.skipped else {})}

    def line(self) -> str:
        if self.skipped:
            return f"simulated {self.name}: not played ({self.skipped})"
        sides = ", ".join(f"{side} {n}" for side, n in self.wins.items() if side != "none")
        extra = f", no winner {self.wins.get('none', 0)}" if self.wins.get("none") else ""
        extra += f", rule errors {self.errors}" if self.errors else ""
        seeds = f"seed {self.seed}" if self.games == 1 else f"seeds {self.seed}-{self.seed + self.games - 1}"
        return f"simulated {self.name}: {self.games} game{'s' * (self.games != 1)} ({seeds}): wins {sides}{extra}"


@dataclass(frozen=True, slots=True)
class Target:
    obj: dict
    path: str  # the file as diagnostics show it
    span: Span


def scenarios_in(pack: dict, paths: list[Path]) -> list[Target]:
    """The scenarios declared in the files named by `paths` (not the ones of imported libraries), with the
    span of each declaration's head, in pack order."""
    from spawnpit.compiler.loader import display_path, expand
    from spawnpit.diagnostics import Report

    shown: dict[str, list[str]] = {}
    for file, root in expand(list(paths), Report()):
        relative = file.relative_to(root).as_posix() if file.is_relative_to(root) else display_path(file)
        shown.setdefault(relative, []).append(display_path(file))
    texts: dict[str, list[str]] = {}
    out = []
    for obj in pack["objects"]:
        if obj["kind"] != "scenario" or not isinstance(obj.get("at"), str):
            continue
        where, _, rest = obj["at"].rpartition(":")
        where, _, line = where.rpartition(":")
        if not (line.isdigit() and rest.isdigit()) or where not in shown:
            continue
        line_no, col = int(line), int(rest)
        for path in shown[where]:
            if path not in texts:
                try:
                    texts[path] = Path(path).read_text(encoding="utf-8").splitlines()
                except (OSError, UnicodeDecodeError):
                    texts[path] = []
            lines = texts[path]
            source = lines[line_no - 1] if 0 < line_no <= len(lines) else ""
            if source[col - 1:].startswith("scenario"):
                out.append(Target(obj, path, _head(path, line_no, col, source)))
                break
    return out


def _head(path: str, line: int, col: int, source: str) -> Span:
    """`scenario "Title"`: the declaration up to its `{` on the first line."""
    head = source[col - 1:].split("{", 1)[0].rstrip()
    return Span(path=path, line=line, col=col, end_line=line, end_col=col + max(1, len(head)))


def run(pack: dict, paths: list[Path], games: int, seed: int = 0, jobs: int = 1, given: list[str] | None = None,
        progress=None, total=None) -> tuple[list[Diagnostic], list[Played]]:
    """Simulate every scenario declared under `paths`; `given` is how the user named them, for the
    `spawnpit play` command that replays a seed. `total(n)` is told the number of games before they start,
    `progress()` after each one."""
    from spawnpit.engine import new_game
    from spawnpit.engine.sim import play_all

    diagnostics: list[Diagnostic] = []
    played: list[Played] = []
    work: list[tuple[str, int, dict]] = []
    runs: list[tuple[Target, Played, dict]] = []
    for target in scenarios_in(pack, paths):
        obj = target.obj
        name = f"{obj['system']}:{obj['id']}"
        report = Played(name=name, title=str(obj["props"].get("title", obj["id"])), path=target.path, games=games,
                        seed=seed)
        played.append(report)
        try:
            probe = new_game(pack, name, seed=seed)
            sides = list(probe.model.sides)
        except Exception as err:  # noqa: BLE001 - any failure to set a game up is reported on the scenario
            report.games, report.skipped = 0, _reason(err)
            diagnostics.append(Diagnostic(code="W0503", message=f"scenario `{obj['id']}` could not be simulated: {report.skipped}",
                                          span=target.span, help="`spawnpit play` of the scenario shows the same failure"))
            continue
        names = {side: "random" for side in sides}
        report.wins = {side: 0 for side in _playing(obj, sides)}
        runs.append((target, report, names))
        work.extend((name, seed + i, names) for i in range(games))
    if total is not None:
        total(len(work))
    outcomes = play_all(pack, work, jobs, progress)
    for index, (target, report, names) in enumerate(runs):
        mine = outcomes[index * games:(index + 1) * games]
        diagnostics.extend(_findings(target, report, names, mine, given))
    return diagnostics, played


def _playing(obj: dict, sides: list[str]) -> list[str]:
    """The sides that take part: those the scenario gives player counts for, when it gives any."""
    listed = {e.get("key") for e in obj["props"].get("players", []) if isinstance(e, dict)} & set(sides)
    return [s for s in sides if s in listed] if listed else sides


def _reason(err: Exception) -> str:
    from spawnpit.engine import GameError

    return str(err) if isinstance(err, GameError) else f"{type(err).__name__}: {err}"


def _findings(target: Target, report: Played, names: dict, outcomes: list, given: list[str] | None) -> list[Diagnostic]:
    obj, n = target.obj, len(outcomes)
    out: list[Diagnostic] = []

    def replay(seed: int) -> str:
        sides = " ".join(f"--side {side}=random" for side in names)
        inputs = "".join(f" -i {p}" for p in (given or []))
        return f"`spawnpit play {report.name} --seed {seed} {sides}{inputs}` replays it"

    errors: dict[str, list[int]] = {}
    internal: set[str] = set()
    for o in outcomes:
        if o.error:
            errors.setdefault(o.error, []).append(o.seed)
            if o.internal:
                internal.add(o.error)
        else:
            key = o.winner or "none"
            report.wins[key] = report.wins.get(key, 0) + 1
    report.errors = sum(len(seeds) for seeds in errors.values())
    for message, seeds in list(errors.items())[:MAX_ERRORS]:
        what = "the engine failed" if message in internal else "a rule failed"
        help_ = replay(seeds[0]) + (" (this is a bug in spawnpit: please report it)" if message in internal else "")
        out.append(Diagnostic(code="E0501", span=target.span, help=help_,
                              message=f"{what} in {_of(len(seeds), n)} (seed {seeds[0]}): {message}"))
    if len(errors) > MAX_ERRORS:
        rest = sum(len(s) for s in list(errors.values())[MAX_ERRORS:])
        out.append(Diagnostic(code="E0501", span=target.span, message=f"{len(errors) - MAX_ERRORS} more distinct rule "
                              f"errors in {_of(rest, n)} (seed {list(errors.values())[MAX_ERRORS][0]})"))
    ended: dict[str, list[int]] = {}
    for o in outcomes:
        if not o.error and o.winner is None:
            ended.setdefault(o.cause, []).append(o.seed)
    for cause, seeds in ended.items():
        why = "ran out of rounds" if cause == "round limit reached" else f"ended without a winner ({cause})"
        out.append(Diagnostic(code="W0502", span=target.span, help=replay(seeds[0]),
                              message=f"{_of(len(seeds), n)} {why} (seed {seeds[0]})"))
    if errors and not any(not o.error for o in outcomes):
        return out  # every game broke: whether objectives can be met is unknown
    met = set().union(*(set(o.met) for o in outcomes)) if outcomes else set()
    for index, objective in enumerate(obj.get("objectives", [])):
        if index not in met:
            happened = "its test never held" if "when" in objective else "its event never happened"
            out.append(Diagnostic(code="W0501", span=target.span,
                                  message=f"objective `{objective_text(objective)}` was never met in {n} random "
                                          f"game{'s' * (n != 1)} ({happened})",
                                  help="it may only be hard for random players; otherwise nothing in the rules can "
                                       "bring it about"))
    return out


def _of(k: int, n: int) -> str:
    return f"{k} of {n} games" if n != 1 else "the one game"
