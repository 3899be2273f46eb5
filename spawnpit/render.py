"""Renderers of diagnostics: human text (source line and caret, colour on a terminal) and JSON."""

from __future__ import annotations

import json

from spawnpit.diagnostics import Diagnostic, Severity

_COLOURS = {Severity.ERROR: "\x1b[1;31m", Severity.WARNING: "\x1b[1;33m"}
_BOLD, _BLUE, _RESET = "\x1b[1m", "\x1b[1;34m", "\x1b[0m"


def _source_line(texts: dict[str, str], path: str, line: int) -> str | None:
    text = texts.get(path)
    if text is None:
        return None
    lines = text.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else None


def human(diagnostics, texts: dict[str, str], colour: bool = False, dropped: int = 0) -> str:
    def paint(code: str, s: str) -> str:
        return f"{code}{s}{_RESET}" if colour else s

    out: list[str] = []
    for d in diagnostics:
        sev = paint(_COLOURS[d.severity], f"{d.severity.value}[{d.code}]")
        out.append(f"{sev}: {paint(_BOLD, d.message)}")
        out.append(f"  {paint(_BLUE, '-->')} {d.span}")
        out.extend(_excerpt(d, texts, paint))
        for label in d.labels:
            out.append(f"  {paint(_BLUE, 'note')}: {label.message} at {label.span}")
        if d.help:
            out.append(f"  {paint(_BLUE, 'help')}: {d.help}")
        out.append("")
    errors = sum(1 for d in diagnostics if d.is_error)
    warnings = len(diagnostics) - errors
    summary = f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
    if dropped:
        summary += f" ({dropped} more not shown)"
    out.append(summary)
    return "\n".join(out)


def _excerpt(d: Diagnostic, texts, paint) -> list[str]:
    source = _source_line(texts, d.span.path, d.span.line)
    if source is None:
        return []
    gutter = str(d.span.line)
    pad = " " * len(gutter)
    width = d.span.end_col - d.span.col if d.span.end_line == d.span.line else len(source) - d.span.col + 1
    prefix = "".join(c if c == "\t" else " " for c in source[: d.span.col - 1])
    caret = paint(_COLOURS[d.severity], "^" * max(1, width))
    return [f"  {pad} |", f"  {gutter} | {source.expandtabs(4)}", f"  {pad} | {prefix.expandtabs(4)}{caret}"]


def as_json(diagnostics, dropped: int = 0) -> str:
    errors = sum(1 for d in diagnostics if d.is_error)
    return json.dumps({"diagnostics": [d.to_json() for d in diagnostics], "errors": errors,
                       "warnings": len(diagnostics) - errors, "dropped": dropped}, indent=2, sort_keys=True)
