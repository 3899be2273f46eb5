"""The command line: ``spawnpit check | build | explain``.

Exit codes: 0 clean (warnings allowed), 1 errors in the content, 2 usage error or internal failure.
Nothing the user types ends in a Python traceback: internal failures print a short report instead.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
from pathlib import Path

import click

from spawnpit import __version__

EXIT_OK, EXIT_CONTENT, EXIT_USAGE = 0, 1, 2


def _paths(paths: tuple[str, ...]) -> list[Path]:
    if paths:
        return [Path(p) for p in paths]
    from spawnpit.resources import builtin_paths

    return builtin_paths()


def _compile(paths, fmt: str):
    from spawnpit.compiler import compile_paths

    result = compile_paths(_paths(paths))
    _report(result, fmt)
    return result


def _report(result, fmt: str) -> None:
    from spawnpit import render

    if fmt == "json":
        click.echo(render.as_json(result.diagnostics, result.dropped))
        return
    texts = _texts(result)
    colour = sys.stderr.isatty()
    if result.diagnostics:
        click.echo(render.human(result.diagnostics, texts, colour=colour, dropped=result.dropped), err=True)


def _texts(result) -> dict[str, str]:
    texts: dict[str, str] = {}
    for d in result.diagnostics:
        for span in (d.span, *(lb.span for lb in d.labels)):
            if span.path not in texts:
                try:
                    texts[span.path] = Path(span.path).read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError):
                    texts[span.path] = ""
    return texts


EXIT_PIPE = 128 + 13  # SIGPIPE's exit status: the output's reader went away
# what a log saved before each of a person's questions says until the game ends (an "interrupted" game:
# replay plays it until its answers run out, resume goes on from there)
SAVED_WHILE_PLAYING = "interrupted: saved while the game was being played"


def _output_gone() -> None:
    """Standard output's reader went away: what remains to be written or flushed goes nowhere, instead
    of failing again (at exit, as a report on stderr)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


class _Group(click.Group):
    """Turns an unexpected exception into a short report and exit code 2, never a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:  # the reader went away (`spawnpit sim … | head`): stop quietly, as other tools do
            _output_gone()
            sys.exit(EXIT_PIPE)
        except Exception as err:  # noqa: BLE001 - the last line of defence
            click.echo(f"spawnpit: internal error: {type(err).__name__}: {err}", err=True)
            click.echo("This is a bug in spawnpit, not in your content. Please report it with the command you ran.",
                       err=True)
            sys.exit(EXIT_USAGE)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="spawnpit")
def main() -> None:
    """spawnpit: zombie board-game rules as data.

    Check and compile .pit content (systems, boards, units, cards, special rules and scenarios) into
    validated rule objects. With no PATH, commands use the built-in content (lnoe, notld, dotz).
    """


FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                      help="how diagnostics are printed")


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--simulate", "games", type=click.IntRange(1, 100_000), default=None, metavar="N",
              help="also play N random games of every scenario in PATH and report rule errors, objectives never "
                   "met and games without a winner")
@click.option("--seed", type=int, default=0, show_default=True, help="with --simulate: game i gets seed SEED+i")
@click.option("-j", "--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
              help="with --simulate: worker processes (the report is the same for any number)")
@FORMAT
def check(paths, games, seed, jobs, fmt):
    """Check content files or folders and report every mistake; with --simulate N, also play N random
    games of each scenario declared in them."""
    if games is None:
        result = _compile(paths, fmt)
        played = None
    else:
        result, played = _check_and_simulate(paths, games, seed, jobs, fmt)
    if fmt == "text":
        for report in played or ():
            click.echo(report.line())
        if played is not None and not played and result.pack is not None:
            click.echo("simulated nothing: no scenario is declared in the checked files")
        objects = len(result.pack["objects"]) if result.pack else 0
        state = "ok" if result.ok else "failed"
        click.echo(f"checked {result.lines} lines: {state}" + (f", {objects} rule objects" if result.pack else ""))
    sys.exit(EXIT_OK if result.ok else EXIT_CONTENT)


def _check_and_simulate(paths, games: int, seed: int, jobs: int, fmt: str):
    """Compile, then (when the content has no errors) simulate: one report of every diagnostic, in order."""
    import dataclasses
    import json

    from spawnpit import render, simcheck
    from spawnpit.compiler import compile_paths
    from spawnpit.diagnostics import Diagnostic

    result = compile_paths(_paths(paths))
    played: list = []
    if result.pack is not None:
        found, played = _simulate(result.pack, _paths(paths), games, seed, jobs, list(paths), fmt)
        merged = tuple(sorted((*result.diagnostics, *found), key=Diagnostic.sort_key))
        result = dataclasses.replace(result, diagnostics=merged)
    elif fmt == "text":
        click.echo("simulation skipped: the content has errors", err=True)
    if fmt == "json":
        data = json.loads(render.as_json(result.diagnostics, result.dropped))
        data["simulation"] = [p.to_json() for p in played]
        click.echo(json.dumps(data, indent=2, sort_keys=True))
    else:
        _report(result, fmt)
    return result, played


def _simulate(pack, paths, games, seed, jobs, given, fmt):
    from spawnpit import simcheck

    if fmt == "json" or not sys.stderr.isatty():
        return simcheck.run(pack, paths, games, seed, jobs, given)
    from rich.progress import Progress

    with Progress(transient=True) as progress:
        task = progress.add_task("simulating", total=None)
        return simcheck.run(pack, paths, games, seed, jobs, given, progress=lambda: progress.advance(task),
                            total=lambda n: progress.update(task, total=n))


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("-o", "--output", "out", type=click.Path(file_okay=False), required=True,
              help="folder to write the compiled pack into")
@click.option("--aids/--no-aids", default=True, show_default=True, help="also write every printable aid")
@click.option("--aid-formats", default="html,pdf,md", show_default=True, help="formats of the aids")
@click.option("--paper", type=click.Choice(["letter", "a4"]), default="letter", show_default=True)
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=None, help="worker processes for the aids (default: cores)")
@FORMAT
def build(paths, out, aids, aid_formats, paper, jobs, fmt):
    """Compile content into validated rule objects (pack.json, byte for byte deterministic) and write
    every printable aid beside it, with an index.html."""
    from spawnpit.compiler import dumps

    result = _compile(paths, fmt)
    if not result.ok:
        click.echo("build failed: nothing was written", err=True)
        sys.exit(EXIT_CONTENT)
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / "pack.json"
        tmp = folder / ".pack.json.tmp"
        tmp.write_text(dumps(result.pack), encoding="utf-8")
        tmp.replace(target)
    except OSError as err:
        click.echo(f"spawnpit: cannot write to {folder}: {err.strerror or err}", err=True)
        sys.exit(EXIT_USAGE)
    if fmt == "text":
        click.echo(f"wrote {target} ({len(result.pack['objects'])} rule objects, {len(result.pack['systems'])} systems)")
    if aids:
        _write_aids(result.pack, folder, aid_formats, paper, jobs, fmt)
    sys.exit(EXIT_OK)


def _write_aids(data: dict, folder: Path, aid_formats: str, paper: str, jobs, fmt: str) -> None:
    import os

    from spawnpit.generators import Pack
    from spawnpit.generators.bundle import write_all

    formats = tuple(f.strip() for f in aid_formats.split(",") if f.strip())
    unknown = [f for f in formats if f not in ("html", "pdf", "md")]
    if unknown or not formats:
        raise click.UsageError(f"--aid-formats takes html, pdf and md, not {', '.join(unknown) or 'nothing'}")
    written = _generate(lambda: write_all(Pack(data), folder, formats, paper, workers=jobs or os.cpu_count() or 1))
    if fmt == "text":
        click.echo(f"wrote {len(written)} printable aids; open {folder / 'index.html'}")


@main.command()
@click.argument("code")
def explain(code):
    """Print the long explanation of a diagnostic code, such as E0203."""
    from spawnpit.codes import CODES

    entry = CODES.get(code.upper())
    if entry is None:
        from spawnpit.diagnostics import did_you_mean

        hint = did_you_mean(code.upper(), CODES)
        click.echo(f"spawnpit: no diagnostic code {code}" + (f"; {hint}" if hint else ""), err=True)
        sys.exit(EXIT_USAGE)
    kind = "warning" if code.upper().startswith("W") else "error"
    click.echo(f"{code.upper()} ({kind}): {entry.title}\n\n{entry.explanation}")


# ---- printable aids -------------------------------------------------------------------------------

INPUT = click.option("-i", "--input", "inputs", multiple=True, type=click.Path(exists=True),
                     help="content to use: .pit files or folders, or a pack.json from `spawnpit build` "
                          "(default: the built-in content)")
STORY = click.option("--story", "show_story", is_flag=True,
                     help="print the whole game as sentences, round by round: every roll, move, card and fight")
PAPER = click.option("--paper", type=click.Choice(["letter", "a4"]), default="letter", show_default=True)
OUT = click.option("-o", "--output", "out", type=click.Path(dir_okay=False), required=True,
                   help="file to write; its extension (.html, .pdf, .md) picks the format")
AID_FORMAT = click.option("--format", "fmt", type=click.Choice(["html", "pdf", "md"]), default=None,
                          help="output format (default: from the output file's extension)")


def _load_pack(inputs):
    from spawnpit.generators import Pack

    if len(inputs) == 1 and inputs[0].endswith(".json"):
        try:
            return Pack.load(Path(inputs[0]))
        except (ValueError, KeyError, OSError) as err:
            raise click.UsageError(f"{inputs[0]} is not a pack written by `spawnpit build`: {err}") from err
    result = _compile(inputs, "text")
    if not result.ok:
        click.echo("the content has errors: nothing was written", err=True)
        sys.exit(EXIT_CONTENT)
    return Pack(result.pack)


def _format(out: str, fmt: str | None) -> str:
    if fmt:
        return fmt
    suffix = Path(out).suffix.lower().lstrip(".")
    if suffix in ("html", "htm", "pdf", "md"):
        return "html" if suffix == "htm" else suffix
    raise click.UsageError(f"cannot tell the format from `{out}`: use .html, .pdf or .md, or --format")


def _replace(out: str, data: bytes, durable: bool = False) -> None:
    """OUT written through a temporary file beside it: an existing file is replaced only by a whole new
    one, and a failed write (a full disk) leaves neither a half file nor the temporary one behind. An
    OSError says why it failed. `durable`: the bytes are on the disk (fsync) before the file takes OUT's
    place, and the folder's new entry after it, so a power cut leaves the old file or the new one whole."""
    target = Path(out)
    tmp = target.with_name(f".{target.name}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        if durable:
            _fsync(tmp)
        tmp.replace(target)
        if durable and hasattr(os, "O_DIRECTORY"):  # (the folder's entry: where the platform can)
            _fsync(target.parent, os.O_DIRECTORY)
    finally:
        tmp.unlink(missing_ok=True)


def _fsync(path: Path, flags: int = 0) -> None:
    """What was written to a file (or a folder's entries) put on the disk."""
    fd = os.open(path, os.O_RDONLY | flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write(out: str, data: bytes) -> None:
    """OUT written whole (`_replace`), and said; a file that cannot be written is a usage error."""
    try:
        _replace(out, data)
    except OSError as err:
        click.echo(f"spawnpit: cannot write {out}: {err.strerror or err}", err=True)
        sys.exit(EXIT_USAGE)
    try:
        click.echo(f"wrote {out}")
    except OSError:  # no terminal left to say it to (the game's own, closed): the file is written
        pass


def _generate(fn):
    from spawnpit.generators import PackError

    try:
        return fn()
    except PackError as err:
        raise click.UsageError(str(err)) from err
    except RuntimeError as err:  # PDF output without WeasyPrint/Pango
        click.echo(f"spawnpit: {err}", err=True)
        sys.exit(EXIT_USAGE)


@main.command()
@click.argument("scenario")
@OUT
@AID_FORMAT
@PAPER
@INPUT
def sheet(scenario, out, fmt, paper, inputs):
    """One-page scenario reference sheet (SCENARIO: a name such as die-zombies-die)."""
    from spawnpit import generators

    pack = _load_pack(inputs)
    _write(out, _generate(lambda: generators.sheet(pack, scenario, _format(out, fmt), paper)))


@main.command()
@click.argument("scenario", required=False)
@click.option("--pack", "pack_paths", multiple=True, type=click.Path(exists=True),
              help="roster of every rule in this content (instead of one scenario's)")
@click.option("--system", help="only this system (with --pack)")
@OUT
@AID_FORMAT
@PAPER
@INPUT
def roster(scenario, pack_paths, system, out, fmt, paper, inputs):
    """Special Rules Roster for a scenario, or for a whole pack with --pack PATH."""
    from spawnpit import generators

    if bool(scenario) == bool(pack_paths):
        raise click.UsageError("give a SCENARIO or --pack PATH (one of them)")
    pack = _load_pack(pack_paths or inputs)
    _write(out, _generate(lambda: generators.roster(pack, scenario, system, _format(out, fmt), paper)))


@main.command()
@click.argument("system")
@OUT
@AID_FORMAT
@PAPER
@INPUT
def aid(system, out, fmt, paper, inputs):
    """Player aid: the turn sequence and quick reference of SYSTEM (lnoe, notld, dotz, …)."""
    from spawnpit import generators

    pack = _load_pack(inputs)
    _write(out, _generate(lambda: generators.aid(pack, system, _format(out, fmt), paper)))


@main.command()
@click.option("--deck", help="only cards of this deck")
@click.option("--system", help="only cards of this system")
@click.option("--name", "names", multiple=True, help="only cards with this name (repeatable)")
@click.option("--bleed", type=click.FloatRange(0, 10), default=3.0, show_default=True, help="bleed in mm")
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True)
@click.option("--backs/--no-backs", default=False, show_default=True,
              help="add a page of card backs after each page of faces, mirrored for long-edge duplex")
@OUT
@AID_FORMAT
@PAPER
@INPUT
def cards(deck, system, names, bleed, crop_marks, backs, out, fmt, paper, inputs):
    """Print-and-play card sheets: poker-size (63×88 mm) faces, 3×3 per page."""
    from spawnpit import generators

    pack = _load_pack(inputs)
    _write(out, _generate(lambda: generators.card_sheet(pack, _format(out, fmt), paper, deck=deck, system=system,
                                                   names=names, bleed_mm=bleed, crop_marks=crop_marks,
                                                   backs=backs)))


# ---- playing and simulating ------------------------------------------------------------------------

POLICY_NAMES = ("ai", "random", "first", "human")
DEFAULT_POLICY = "ai"  # the heuristic player: sides nobody names are played by the AI


def _policies(sides: tuple[str, ...], heroes: str | None, zombies: str | None) -> dict[str, str]:
    chosen: dict[str, str] = {}
    for item in sides:
        side, sep, name = item.partition("=")
        if not sep or name not in POLICY_NAMES:
            raise click.UsageError(f"--side takes SIDE=POLICY with POLICY one of {', '.join(POLICY_NAMES)}, not `{item}`")
        chosen[side] = name
    for side, name in (("heroes", heroes), ("zombies", zombies)):
        if name:
            chosen[side] = name
    return chosen


def _make_policies(names: dict[str, str], known_sides: list[str]):
    from spawnpit.engine.policies import POLICIES

    unknown = sorted(set(names) - set(known_sides))
    if unknown:
        raise click.UsageError(f"no side {', '.join(unknown)} in this game (sides: {', '.join(known_sides)})")
    out = {}
    for side in known_sides:
        name = names.get(side, DEFAULT_POLICY)
        if name == "human":
            from spawnpit.engine.human import HumanPolicy

            out[side] = HumanPolicy()
        else:
            out[side] = POLICIES[name]()
    return out


def _game(pack: dict, scenario: str, seed: int, names: dict[str, str]):
    from spawnpit.engine import GameError, new_game

    try:
        probe = new_game(pack, scenario, seed=seed)
    except GameError as err:
        raise click.UsageError(str(err)) from err
    policies = _make_policies(names, probe.model.sides)
    return new_game(pack, scenario, seed=seed, policies=policies), policies


SIDE_OPTIONS = [
    click.option("--side", "sides", multiple=True, metavar="SIDE=POLICY", help="who plays a side: ai (default), random, first or human"),
    click.option("--heroes", type=click.Choice(POLICY_NAMES), help="who plays the heroes (LNOE; default ai)"),
    click.option("--zombies", type=click.Choice(POLICY_NAMES), help="who plays the zombies (LNOE; default ai)"),
]


def _side_options(fn):
    for option in reversed(SIDE_OPTIONS):
        fn = option(fn)
    return fn


@main.command()
@click.argument("scenario")
@_side_options
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--log", "log_path", type=click.Path(dir_okay=False), help="write the game log (JSON Lines) here")
@STORY
@INPUT
def play(scenario, sides, heroes, zombies, seed, log_path, show_story, inputs):
    """Play one whole game of SCENARIO and print what happened."""
    pack = _load_pack(inputs).data
    if log_path:
        _writable(log_path)  # before the game: a person's whole game must not be lost to a bad path
    game, policies = _game(pack, scenario, seed, _policies(sides, heroes, zombies))
    _play_logged(game, policies, log_path, inputs=inputs, show_story=show_story)


def _play_logged(game, policies: dict, log_path: str | None, verify=None, inputs=(), keep=None,
                 show_story: bool = False) -> None:
    """Play the game to its end and print what happened; the log (when asked for) written at the end,
    or as far as the game went when a rule error, the player, Ctrl-C, SIGHUP or SIGTERM stops it.
    `verify`, called when the game ended, may refuse it (ResumeError) before anything is written;
    `keep`, asked before a game cut short is written, may say no (a resumed game not yet back where its
    log ends: the log as it was is worth more)."""
    from spawnpit.engine import GameError
    from spawnpit.engine import log as gamelog
    from spawnpit.engine.flow import run
    from spawnpit.engine.interp import RuleError
    from spawnpit.engine.policies import PlayerQuit, ResumeError

    def save_log(unfinished: str | None = None) -> None:
        if not log_path:
            return
        head = gamelog.header(game, policies)
        if unfinished:
            head["unfinished"] = unfinished
        _write(log_path, gamelog.dumps(head, game.entries).encode("utf-8"))

    lines: list[str] = []  # the log's lines made so far (an entry never changes once logged)
    failed: list[str] = []
    head: list[str] = []  # the saved log's first line, made once (the pack's digest is dear)

    def save_progress() -> None:
        """Before a person is asked: the log so far, on disk, so a game cut off by what no handler sees
        (kill -9, a crash, the machine switched off) can be resumed from the question it was waiting on.
        Not while a resumed game is still being played back (the log as it was is worth more). A write
        that fails is said once; the next questions try again (a disk full for a moment), and the log is
        written again at the end."""
        if keep is not None and not keep():
            return
        if not head:
            first = gamelog.header(game, policies)
            first["unfinished"] = SAVED_WHILE_PLAYING
            head.append(gamelog.line(first) + "\n")
        lines.extend(gamelog.line(e) + "\n" for e in game.entries[len(lines):])
        try:
            _replace(log_path, (head[0] + "".join(lines)).encode("utf-8"), durable=True)
        except OSError as err:
            if not failed:
                _say(f"spawnpit: cannot save the game as it goes to {log_path} ({err.strerror or err}); "
                     "it is tried again at each question, and written when the game ends")
            failed.append(str(err))

    if log_path:
        for policy in policies.values():
            person = getattr(policy, "then", policy)  # (a resumed side's player)
            if hasattr(person, "before_asking"):
                person.before_asking = save_progress

    stop = _stop_on_signals()
    result, ended = None, None  # ended: (what the log says, what stderr says, exit code) of a game cut short
    try:
        result = run(game)
        if verify is not None:
            verify()
    except ResumeError as err:  # the log is not this game's: nothing written, the log left as it was
        raise click.ClickException(f"{err}: the game cannot be resumed with these rules; "
                                   f"{log_path or 'the log'} is left as it was") from None
    except _Stopped as err:  # the terminal closed (SIGHUP) or `kill` (SIGTERM): the log is kept
        ended = (f"interrupted by {err.name}", f"interrupted by {err.name}", 128 + err.number)
    except (GameError, RuleError) as err:  # a rule asked for the impossible outside any hook
        ended = (f"stopped: {err}", f"spawnpit: the game stopped: {err}", EXIT_CONTENT)
    except PlayerQuit:
        ended = ("abandoned by a player", "game abandoned", EXIT_OK)
    except KeyboardInterrupt:  # Ctrl-C while no one was asked anything (the AI's turn): the log is kept
        ended = ("interrupted", "interrupted", 130)
    except BrokenPipeError:  # the screen's reader went away (`| head`, a closed pipe): the log is kept
        _output_gone()
        ended = ("interrupted: the output was closed", "the output was closed", EXIT_PIPE)
    finally:
        stop()
    with _signals_held():  # from here a SIGHUP or SIGTERM waits until the log is written
        if ended is not None:
            _say(ended[1])
            if keep is not None and not keep():
                _say(f"{log_path} is left as it was (the game had not got back to where it was left)")
                sys.exit(ended[2])
            save_log(ended[0])
            if log_path and ended[2] != EXIT_CONTENT:  # (a rule error would stop a resumed game again)
                given = "".join(f" -i {shlex.quote(str(i))}" for i in inputs)
                _say(f"to go on with this game later: spawnpit resume {shlex.quote(str(log_path))}{given}")
            sys.exit(ended[2])
        save_log()  # (before the last screen: a terminal gone by now takes that, not the log, with it)
    for policy in policies.values():
        if hasattr(policy, "finish"):
            policy.finish(game)
    if show_story:
        _print_story(game, game.entries)
    _summary(game, result, brief=any(hasattr(p, "finish") for p in policies.values()))
    if log_path:
        click.echo(_fitted(f"  log written to {log_path} (spawnpit replay {shlex.quote(str(log_path))} plays it again)"))


def _fitted(line: str) -> str:
    """A line of the summary as a terminal shows it: wrapped between words at its width (a terminal cuts
    a long line wherever it reaches the edge, mid-word); unchanged when the output is not a terminal."""
    if not sys.stdout.isatty():
        return line
    import shutil
    import textwrap

    width = max(20, shutil.get_terminal_size((80, 24)).columns)
    return textwrap.fill(line, width=width, subsequent_indent="    ", break_long_words=False, break_on_hyphens=False)


class _Stopped(BaseException):
    """A signal that ends the process (SIGHUP, SIGTERM) arrived during a game. Not an Exception, so no
    `except Exception` on the way (a rule's error handling, the screen's) mistakes it for its own."""

    def __init__(self, number: int) -> None:
        import signal

        super().__init__(number)
        self.number, self.name = number, signal.Signals(number).name


def _stop_on_signals():
    """Until the returned function is called, SIGHUP (the terminal closed) and SIGTERM raise _Stopped
    in the game instead of ending the process at once, so the game's log is written first. The first
    such signal is the only one: both are ignored from then on, so a second (a closing terminal may
    send SIGHUP twice, then SIGTERM) cannot stop the log being written."""
    def stopped(number, frame):
        _handle_signals(_ignored)
        raise _Stopped(number)

    kept = _handle_signals(stopped)

    def restore() -> None:
        _handle_signals(kept)

    return restore


def _handle_signals(handler) -> dict:
    """SIGHUP and SIGTERM (where the platform has them) handled by `handler` (or, given a dict, each by
    its own); returns the handlers they had. Outside the main thread (a test runner's) nothing changes."""
    import signal

    kept = {}
    for name in ("SIGHUP", "SIGTERM"):
        number = getattr(signal, name, None)
        if number is None or (isinstance(handler, dict) and number not in handler):
            continue
        try:
            kept[number] = signal.signal(number, handler[number] if isinstance(handler, dict) else handler)
        except (ValueError, OSError):
            pass
    return kept


def _ignored(number, frame) -> None:
    """A signal's handler that does nothing. Not SIG_IGN: a signal already on its way when the handler
    changes would be reported as "ignored due to race condition", a traceback on the player's screen."""


@contextlib.contextmanager
def _signals_held():
    """SIGHUP and SIGTERM ignored inside (where they can be), their handlers as they were afterwards."""
    kept = _handle_signals(_ignored)
    try:
        yield
    finally:
        _handle_signals(kept)


def _say(text: str) -> None:
    """A line on stderr that may have no terminal left to go to (after SIGHUP): never an error."""
    try:
        click.echo(text, err=True)
    except OSError:
        pass


def _writable(out: str) -> None:
    """Makes OUT's folder if need be and checks a file can be written there; else a usage error now."""
    target = Path(out)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise click.UsageError(f"cannot write {out}: {err.strerror or err}") from err
    if target.is_dir():
        raise click.UsageError(f"cannot write {out}: it is a folder")
    existed = target.exists()
    try:  # a real open, not os.access: that says yes to root, and knows nothing of full or read-only disks
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as err:
        raise click.UsageError(f"cannot write {out}: {err.strerror or err}") from err
    if not existed:
        target.unlink(missing_ok=True)


def _print_story(game, entries: list, names: dict | None = None) -> None:
    """`--story`: the game's log as sentences, wrapped at the terminal's width (one line each when the
    output is not a terminal, so it can be searched line by line), under a line naming the scenario, the
    seed and who played each side that took part (`names`: side → player; else the game's policies)."""
    import shutil

    from spawnpit.engine.flow import _plays
    from spawnpit.engine.human import story

    width = max(20, shutil.get_terminal_size((80, 24)).columns) if sys.stdout.isatty() else None
    names = names or {side: getattr(policy, "name", None) or type(policy).__name__ for side, policy in game.policies.items()}
    players = ", ".join(f"{_called_side(game, side)} {name}" for side, name in names.items() if _plays(game, side))
    click.echo(f"{game.model.scenario['props'].get('title', game.state['scenario'])}, seed {game.state['seed']} ({players})\n")
    click.echo("\n".join(story(game, entries, width)))
    click.echo("")


def _called_side(game, side: str) -> str:
    from spawnpit.engine.human import _called

    return _called(game, "side", side)


def _summary(game, result: dict, brief: bool = False) -> None:
    """Who won and why; then (not after a person's game, whose last screen said it) the log's counts."""
    from collections import Counter

    from spawnpit.engine.human import cause_text, when_over

    counts = Counter(e["type"] for e in game.entries)
    winner = result["winner"] or "nobody"
    cause = cause_text(game, result)
    if len(cause) > 200:  # a goal written as a very long expression: its start says which it was
        cause = cause[:197] + "…"
    click.echo(_fitted(f"{game.model.scenario['props'].get('title', game.state['scenario'])}: {winner} won "
                       f"{when_over(game, result)} ({cause})"))
    if brief:
        return
    click.echo(f"  {len(game.entries)} log entries ({game.state['events']} engine events): "
               + ", ".join(f"{n} {t}" for t, n in sorted(counts.items())))
    # where the game ended as the status line of a person's screen says it: the tracks and the scenario's
    # counts, then each goal with its progress (the engine's own counters, ai_hunt 1, fire_ok 1…, told
    # a reader nothing)
    from spawnpit.engine.human import status

    for line in status(game).plain.splitlines():
        click.echo(_fitted("  " + line.replace(" │ ", " · ")))


@main.command()
@click.argument("scenario")
@click.option("-n", "games", type=click.IntRange(1, 10_000_000), default=1000, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="game i gets seed SEED+i")
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True)
@_side_options
@FORMAT
@INPUT
def sim(scenario, games, seed, jobs, sides, heroes, zombies, fmt, inputs):
    """Simulate N games: win rates with 95% intervals, causes, lengths, rules that never fired.

    Games are played by the native core when it is built (the same games, logs and report as the Python
    engine's, several times sooner); SPAWNPIT_ENGINE=python plays them in Python."""
    import json

    pack = _load_pack(inputs).data
    names = _policies(sides, heroes, zombies)
    if "human" in names.values():
        raise click.UsageError("simulations cannot have a human player")
    _game(pack, scenario, seed, names)  # checks the scenario and sides before the long run
    summary = _run_sim(pack, scenario, games, seed, jobs, names, fmt)
    if fmt == "json":
        click.echo(json.dumps(summary.to_json(), indent=2, sort_keys=True))
        return
    _print_sim(summary)


def _run_sim(pack, scenario, games, seed, jobs, names, fmt):
    from rich.progress import Progress

    from spawnpit.engine.sim import simulate

    if fmt == "json" or not sys.stderr.isatty():
        return simulate(pack, scenario, games, seed, jobs, names)
    with Progress(transient=True) as progress:
        task = progress.add_task(f"simulating {scenario}", total=games)
        return simulate(pack, scenario, games, seed, jobs, names, progress=lambda: progress.advance(task))


def _print_sim(summary) -> None:
    click.echo(f"{summary.scenario}: {summary.games} games, {summary.events} events")
    for side, wins in summary.wins.items():
        low, high = summary.intervals[side]
        click.echo(f"  {side:>10} {wins / summary.games:6.1%}  (95% CI {low:.1%}-{high:.1%})")
    click.echo("  causes: " + "; ".join(f"{c}: {n}" for c, n in summary.causes.items()))
    r = summary.rounds
    if r:
        click.echo(f"  rounds: min {r['min']}, median {r['median']}, mean {r['mean']}, max {r['max']}")
    if summary.errors:
        click.echo("  errors: " + "; ".join(f"{n}× {e}" for e, n in summary.errors.items()))
    click.echo(f"  never fired ({len(summary.never_fired)}): " + ", ".join(summary.never_fired[:40])
               + (" …" if len(summary.never_fired) > 40 else ""))
    if summary.not_in_game:
        click.echo(f"  cards and characters in no game ({len(summary.not_in_game)}, so their rules could not fire): "
                   + ", ".join(summary.not_in_game[:40]) + (" …" if len(summary.not_in_game) > 40 else ""))


def _logged(log_file: str, inputs) -> tuple[dict, list, dict]:
    """A game log's header and entries, and the content to play it with (a warning when its rules are
    not the ones the game was played with); a file that is no game log is a usage error."""
    from spawnpit.engine import log as gamelog

    try:
        head, entries = gamelog.read(Path(log_file))
    except gamelog.LogError as err:
        raise click.UsageError(str(err)) from err
    pack = _load_pack(inputs).data
    if gamelog.pack_digest(pack) != head["pack"]:
        click.echo("warning: the rules differ from the ones the game was played with", err=True)
    return head, entries, pack


@main.command()
@click.argument("log_file", type=click.Path(exists=True, dir_okay=False))
@click.option("--log", "log_path", type=click.Path(dir_okay=False),
              help="write the game's log here (default: back to LOG_FILE, so a game can be left and resumed again)")
@INPUT
def resume(log_file, log_path, inputs):
    """Go on with a game left unfinished (quit, Ctrl-C, a closed terminal, a killed process): its logged
    choices are played again, checked against the log, then the same players carry on from there."""
    from spawnpit.engine import GameError, new_game
    from spawnpit.engine import log as gamelog
    from spawnpit.engine.policies import POLICIES, ResumeError, ResumingPolicy

    head, entries, pack = _logged(log_file, inputs)
    result = next((e for e in reversed(entries) if e.get("type") == "result"), None)
    if result is not None:
        raise click.UsageError(f"{log_file}: that game is over ({result.get('winner') or 'nobody'} won): "
                               "there is nothing to resume")
    log_path = log_path or log_file
    _writable(log_path)
    scenario = f"{head['system']}:{head['scenario']}"
    try:
        sides = new_game(pack, scenario, seed=head["seed"]).model.sides
    except GameError as err:
        raise click.UsageError(f"{log_file}: {err}") from err
    names = {side: head.get("policies", {}).get(side, DEFAULT_POLICY) for side in sides}
    unknown = sorted(n for n in names.values() if n not in POLICY_NAMES)
    if unknown:
        raise click.UsageError(f"{log_file}: no player called {', '.join(unknown)} (players: {', '.join(POLICY_NAMES)})")
    players = _make_policies(names, sides)
    answers, game, back = gamelog.choices(entries), None, []

    def check() -> None:
        """When the log's answers run out, or the game ends: every logged answer used, every logged line
        played again as it was, and from then on the game may be written."""
        if back:
            return
        left = sorted(side for side, policy in policies.items() if policy.answers)
        if left:
            raise ResumeError(f"the game reached a question of another side before {', '.join(left)} had "
                              "given every logged answer")
        for number, want in enumerate(entries, 2):
            got = game.entries[number - 2] if number - 2 < len(game.entries) else None
            if want != got:
                raise ResumeError(f"{log_file}:{number} is not what these rules play now "
                                  f"(logged: {gamelog.line(want)[:100]}…)")
        back.append(True)

    policies = {side: ResumingPolicy(answers.get(side, []), players[side], check) for side in sides}
    game = new_game(pack, scenario, seed=head["seed"], policies=policies)
    click.echo(f"resuming {scenario} (seed {head['seed']}) after {len(entries)} logged entries", err=True)
    _play_logged(game, policies, log_path, verify=check, inputs=inputs, keep=lambda: bool(back))


@main.command()
@click.argument("log_file", type=click.Path(exists=True, dir_okay=False))
@STORY
@INPUT
def replay(log_file, show_story, inputs):
    """Play a logged game again from its seed and recorded choices, and confirm it is reproduced."""
    from spawnpit.engine import GameError, new_game
    from spawnpit.engine import log as gamelog
    from spawnpit.engine.flow import run
    from spawnpit.engine.interp import RuleError
    from spawnpit.engine.policies import PlayerQuit, ScriptedPolicy

    head, entries, pack = _logged(log_file, inputs)
    answers = gamelog.choices(entries)
    unfinished, ended = head.get("unfinished"), None  # a game that stopped early: replayed up to there
    try:
        probe = new_game(pack, f"{head['system']}:{head['scenario']}", seed=head["seed"])
        policies = {s: ScriptedPolicy(answers.get(s, []), then_quit=bool(unfinished)) for s in probe.model.sides}
        game = new_game(pack, f"{head['system']}:{head['scenario']}", seed=head["seed"], policies=policies)
        run(game)
    except (GameError, RuleError) as err:
        if not unfinished:
            click.echo(f"not reproduced: the replay stopped: {err}", err=True)
            sys.exit(EXIT_CONTENT)
        ended = f"stopped: {err}"
    except PlayerQuit:
        ended = "abandoned by a player"
    # a game interrupted on no one's turn (Ctrl-C while the AI played) ended wherever the key was pressed:
    # the replay, which plays on until its recorded answers run out, must begin with every logged entry
    interrupted = str(unfinished or "").startswith("interrupted")  # Ctrl-C, or SIGHUP or SIGTERM
    if unfinished and ended != unfinished and not interrupted:
        click.echo(f"not reproduced: the logged game ended early ({unfinished}); the replay "
                   f"{'did not' if ended is None else f'ended otherwise ({ended})'}", err=True)
        sys.exit(EXIT_CONTENT)
    for number, (want, got) in enumerate(zip(entries, game.entries), 2):
        if want != got:
            click.echo(f"not reproduced: line {number} differs\n  logged:   {gamelog.line(want)}\n  replayed: {gamelog.line(got)}", err=True)
            sys.exit(EXIT_CONTENT)
    if len(entries) != len(game.entries) and not (interrupted and len(game.entries) > len(entries)):
        click.echo(f"not reproduced: {len(entries)} logged entries, {len(game.entries)} replayed", err=True)
        sys.exit(EXIT_CONTENT)
    if show_story:
        _print_story(game, entries, head.get("policies"))
    if unfinished:
        click.echo(f"reproduced: {len(entries)} entries of an unfinished game ({unfinished})")
    else:
        click.echo(f"reproduced: {len(entries)} entries, {game.state['result']['winner'] or 'nobody'} won")
