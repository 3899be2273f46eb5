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
@FORMAT
def build(paths, out, fmt):
    """Compile content into validated rule objects (pack.json), byte for byte deterministic."""
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
    sys.exit(EXIT_OK)


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
