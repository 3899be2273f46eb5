"""The compiler: ``compile_paths(paths)`` → a Result holding the compiled pack and every diagnostic.

Stages, one module each: loader (read, parse, build the AST, follow imports) → resolve (systems,
vocabularies, symbols) → check → lower (rule objects) → validate (JSON Schemas).
"""

from __future__ import annotations

import gc
import json
from dataclasses import dataclass
from pathlib import Path

from spawnpit.diagnostics import Diagnostic, Report, Span


@dataclass(frozen=True, slots=True)
class Result:
    pack: dict | None
    diagnostics: tuple[Diagnostic, ...]
    lines: int
    dropped: int = 0

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


class RuleCosts:
    """Arguments and Dot cost of a special rule put in effect (or at its defaults)."""

    def args(self, decl, call) -> dict:
        from spawnpit.compiler.check import constant
        from spawnpit.compiler import ast as A

        env = {p.name.value: constant(p.default, {}) for p in decl.params if p.default is not None}
        if isinstance(call, A.Call):
            for param, arg in zip(decl.params, call.args):
                env[param.name.value] = constant(arg, {})
            for name, arg in call.kwargs:
                env[name.value] = constant(arg, {})
        return env

    def __call__(self, decl, call):
        from spawnpit.compiler.check import constant
        from spawnpit.compiler.vocab import first_value

        dots = first_value(decl, "dots")
        if dots is None:
            return None
        cost = constant(dots, self.args(decl, call))
        return cost if isinstance(cost, (int, float)) and not isinstance(cost, bool) else None


def compile_paths(paths, cap: int = 200) -> Result:
    from spawnpit.compiler.check import check
    from spawnpit.compiler.loader import load
    from spawnpit.compiler.lower import lower
    from spawnpit.compiler.resolve import resolve
    from spawnpit.compiler.validate import validate

    report = Report(cap=cap)
    collecting = gc.isenabled()
    gc.disable()  # a compile builds many small acyclic objects: collections would only slow it down
    try:
        loaded = load([Path(p) for p in paths], report)
    finally:
        if collecting:
            gc.enable()
    pack = None
    try:
        res = resolve(loaded.files, report)
        check(res, report)
        if not report.has_errors:
            pack = lower(res, RuleCosts(), loaded.relative)
            validate(pack, report)
    except RecursionError:  # the parser's depth limits make this unreachable in practice
        report.error("E0005", "the content is nested too deeply to compile", Span.point(loaded.first_path))
    if report.has_errors:
        pack = None
    return Result(pack=pack, diagnostics=report.sorted(), lines=loaded.lines, dropped=report.dropped)


def dumps(pack: dict) -> str:
    """The stable JSON form: sorted keys, fixed separators, a final newline."""
    return json.dumps(pack, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
