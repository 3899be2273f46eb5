"""The command line: ``spawnpit check | build | explain``.

Exit codes: 0 clean (warnings allowed), 1 errors in the content, 2 usage error or internal failure.
Nothing the user types ends in a Python traceback: internal failures print a short report instead.
"""

from __future__ import annotations

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
@FORMAT
def check(paths, fmt):
    """Check content files or folders and report every mistake."""
    result = _compile(paths, fmt)
    if fmt == "text":
        objects = len(result.pack["objects"]) if result.pack else 0
        state = "ok" if result.ok else "failed"
        click.echo(f"checked {result.lines} lines: {state}" + (f", {objects} rule objects" if result.ok else ""))
    sys.exit(EXIT_OK if result.ok else EXIT_CONTENT)


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


def _write(out: str, data: bytes) -> None:
    target = Path(out)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_bytes(data)
        tmp.replace(target)
    except OSError as err:
        click.echo(f"spawnpit: cannot write {out}: {err.strerror or err}", err=True)
        sys.exit(EXIT_USAGE)
    click.echo(f"wrote {out}")


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
