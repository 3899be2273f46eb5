"""Checks hooks: event names, statements, effects and expressions, with a small type system.

Types are plain strings: num, bool, text, dice, range, target, unit, space, building, card, deck,
side, kind, track, marker, mode, keyword, table, board, sel (a selection of entities), event, any.
``any`` is what we cannot know before the game runs (a random pick, an event parameter) and fits
everywhere; everything else must fit the effect or operator it is given to.
"""

from __future__ import annotations

from dataclasses import dataclass

from spawnpit.compiler import ast as A
from spawnpit.compiler.specs import ATTRIBUTES, EFFECTS, ENTITY_CLASSES, FUNCTIONS
from spawnpit.diagnostics import Report, did_you_mean

FITS = {
    "place": {"space", "building", "unit"},
    "sel": {"sel", "kind", "deck", "marker", "keyword", "space", "building", "side", "list"},
    "value": None,
    "ref": None,
    "name": None,
}
_NUMERIC = {"num", "any"}
# what `<`, `<=`, `>` and `>=` cannot order: things on the table, names, text, dice not yet rolled
_UNORDERED = {"kind", "marker", "keyword", "side", "deck", "card", "unit", "space", "building", "text", "list", "sel",
              "mode", "board", "table", "event_name", "dice", "range", "target"}
PREFERABLE = ("num", "bool", "unit", "space", "building", "card")  # what a `prefer` criterion may be
_CODES = {"table": ("E0215", "table"), "deck": ("E0208", "deck"), "card": ("E0207", "card"), "board": ("E0210", "board"),
          "side": ("E0212", "side"), "kind": ("E0211", "unit kind"), "track": ("E0206", "track"),
          "marker": ("E0206", "marker"), "mode": ("E0206", "mode")}


def _listing(noun: str, known) -> str:
    names = sorted(known)
    if not names:
        return f"this system declares no {noun}s"
    return f"the {noun}s are: " + ", ".join(names[:12]) + (", …" if len(names) > 12 else "")


@dataclass(slots=True)
class Names:
    """What the names of one system mean outside any hook (built once per system)."""

    globals: dict[str, str]
    events: dict[str, tuple[str, ...]]
    stats: set[str]
    keywords: set[str]
    kinds: set[str]
    markers: set[str]
    dice: set[int]
    cards: set[str]
    places: set[str]
    params: set[str]
    units: set[str]
    alts: dict[str, set[str]]  # every meaning of a global name (a card and a marker may share one)


class Scope:
    def __init__(self, names: Names, local: dict[str, str] | None = None) -> None:
        self.names = names
        self.frames: list[dict[str, str]] = [dict(local or {})]

    def push(self, frame: dict[str, str] | None = None) -> None:
        self.frames.append(dict(frame or {}))

    def pop(self) -> None:
        self.frames.pop()

    def bind(self, name: str, type_: str) -> None:
        self.frames[-1][name] = type_

    def lookup(self, name: str) -> str | None:
        for frame in reversed(self.frames):
            if name in frame:
                return frame[name]
        return self.names.globals.get(name)

    def visible(self) -> set[str]:
        out = set(self.names.globals)
        for frame in self.frames:
            out |= set(frame)
        return out


class HookChecker:
    """Checks the statements of one hook body against the vocabulary; reports into ``report``."""

    def __init__(self, report: Report, scope: Scope, changed: set[str]) -> None:
        self.report = report
        self.scope = scope
        self.changed = changed  # counters some hook assigns (for W0402)
        self.replacing = False  # checking the body of an `instead of` hook (`decline` belongs there only)

    # ---- hooks -----------------------------------------------------------------------------------

    def hook(self, hook: A.Hook) -> None:
        params = self.event(hook.event)
        self.scope.push({"event": "event", **{p: ("unit" if p == "unit" else "any") for p in params or ()}})
        if hook.replace and hook.event.parts[-1] in ("start", "end"):
            self.report.error("E0311", f"`{hook.event.dotted}` marks a moment and cannot be replaced",
                              hook.event.span, help="use `on` for a hook at the start or end of a phase")
        for prep, value in hook.filters:
            if params is not None and prep.value not in params:
                self.report.error("E0310", f"event `{hook.event.dotted}` has no `{prep.value}`", prep.span,
                                  help=f"it has: {', '.join(params) or 'no parameters'}")
            self.expr(value)
        if hook.when is not None:
            self.expr(hook.when)
        self.replacing = hook.replace
        try:
            self.block(hook.body)
        finally:
            self.replacing = False
        self.scope.pop()

    def event(self, name: A.EventName) -> tuple[str, ...] | None:
        events = self.scope.names.events
        if name.dotted in events:
            return events[name.dotted]
        self.report.error("E0203", f"unknown event `{name.dotted}`", name.span,
                          help=did_you_mean(name.dotted, events) or "the system declares no such phase, step, action or event")
        return None

    # ---- statements ------------------------------------------------------------------------------

    def block(self, stmts) -> None:
        self.scope.push()
        for stmt in stmts:
            getattr(self, "stmt_" + type(stmt).__name__)(stmt)
        self.scope.pop()

    def stmt_Effect(self, stmt: A.Effect) -> None:
        spec = EFFECTS.get(stmt.verb.value)
        if stmt.verb.value == "decline" and not self.replacing:
            self.report.error("E0311", "`decline` gives up a replacement, so it belongs in an `instead of` hook",
                              stmt.verb.span, help="in an `on` hook, leave out the statements instead (`if …`)")
        if spec is None:
            self.report.error("E0213", f"unknown effect `{stmt.verb.value}`", stmt.verb.span,
                              help=did_you_mean(stmt.verb.value, EFFECTS) or "see the effect table in docs/LANGUAGE.md")
            if stmt.primary is not None:
                self.expr(stmt.primary)
            for _, value in stmt.args:
                self.expr(value)
            return
        if stmt.primary is None and spec.primary and spec.needs_primary:
            self.report.error("E0310", f"`{stmt.verb.value}` needs something to act on", stmt.span, help=f"form: {spec.form}")
        elif stmt.primary is not None and not spec.primary:
            self.report.error("E0310", f"`{stmt.verb.value}` takes no value", stmt.primary.span, help=f"form: {spec.form}")
        elif stmt.primary is not None:
            self.expect(stmt.primary, spec.primary, f"`{stmt.verb.value}`")
        given = set()
        for prep, value in stmt.args:
            given.add(prep.value)
            kinds = spec.preps.get(prep.value)
            if kinds is None:
                self.report.error("E0310", f"`{stmt.verb.value}` takes no `{prep.value}`", prep.span, help=f"form: {spec.form}")
                self.expr(value)
            elif kinds == ("pool",):
                if not isinstance(value, A.NameRef):
                    self.report.error("E0305", "`into` takes the name of a counter that keeps the dice", value.span)
                elif self.scope.lookup(value.name) not in ("num", "any", "list"):
                    self.report.error("E0206", f"unknown counter or variable `{value.name}`", value.span,
                                      help=did_you_mean(value.name, self.scope.visible()) or "declare it with `counter NAME = 0`")
                else:
                    self.changed.add(value.name)
            elif kinds == ("bind",):
                if isinstance(value, A.NameRef):
                    self.scope.bind(value.name, spec.binds or "any")
                else:
                    self.report.error("E0305", "`as` takes a new name", value.span)
            else:
                self.expect(value, kinds, f"`{prep.value}` of `{stmt.verb.value}`")
        for need in spec.needs:
            if not given & set(need.split("|")):
                wanted = " or ".join(f"`{n}`" for n in need.split("|"))
                self.report.error("E0310", f"`{stmt.verb.value}` needs {wanted}", stmt.span, help=f"form: {spec.form}")
        if stmt.verb.value == "log":
            self._log_slots(stmt)

    def _log_slots(self, stmt: A.Effect) -> None:
        """`log "… {} …" with [A, B]`: as many values as the text has `{}`, given as a list (every `{}`
        is a slot: a note cannot print the two characters themselves)."""
        values = next((value for prep, value in stmt.args if prep.value == "with"), None)
        if not (isinstance(stmt.primary, A.Lit) and stmt.primary.kind == "str"):
            if values is not None and stmt.primary is not None:
                self.report.error("E0310", "a `log` with values needs its text written out in quotes, to count its `{}`",
                                  stmt.primary.span, help='form: log "{} fires {}" with [shooter, weapon]')
            return
        if values is not None and not isinstance(values, A.ListExpr):
            self.report.error("E0310", "`with` of `log` takes a list, one value for each `{}` of the text", values.span,
                              help='form: log "{} fires {}" with [shooter, weapon]')
            return
        self._slots(str(stmt.primary.value), values, (values or stmt.primary).span, "text of `log`",
                    'form: log "{} fires {}" with [shooter, weapon]')

    def _slots(self, text: str, values, span, what: str, form: str) -> None:
        """`"… {} …" with [A, B]` (a note's text, a choice's question): as many values as `{}`."""
        slots, given = text.count("{}"), len(values.items) if values is not None else 0
        if given != slots:
            self.report.error("E0310", f"the {what} has {slots} `{{}}` but {given} value(s) follow in `with`", span,
                              help=form)

    def stmt_Assign(self, stmt: A.Assign) -> None:
        head = stmt.target[0]
        kind = self.scope.lookup(head.value)
        if len(stmt.target) == 1:
            if kind is None:
                self.report.error("E0206", f"unknown counter or variable `{head.value}`", head.span,
                                  help=did_you_mean(head.value, self.scope.visible()) or "declare it with `counter NAME = 0`")
            elif kind not in ("num", "any", "bool"):
                self.report.error("E0311", f"`{head.value}` is a {kind}, not a counter or variable", head.span)
            self.changed.add(head.value)
        else:
            owner = self.expr(A.NameRef(name=head.value, span=head.span))
            last = stmt.target[-1]
            if last.value == "target" and owner in ("card", "any"):
                pass  # what a card in play is on (`self.target = s`): a reference, not a stat
            elif last.value not in self.scope.names.stats and last.value not in ATTRIBUTES["unit"]:
                self.report.error("E0204", f"unknown stat `{last.value}`", last.span,
                                  help=did_you_mean(last.value, self.scope.names.stats))
        value = self.expr(stmt.value)
        if stmt.op in ("+=", "-=") and value not in _NUMERIC:
            self.report.error("E0301", f"`{stmt.op}` needs a number, found {value}", stmt.value.span)

    def stmt_LetStmt(self, stmt: A.LetStmt) -> None:
        self.scope.bind(stmt.name.value, self.expr(stmt.value))

    def stmt_IfStmt(self, stmt: A.IfStmt) -> None:
        self.expr(stmt.cond)
        self.block(stmt.then)
        self.block(stmt.orelse)

    def _ranging(self, kind: A.Ident, var: A.Ident, source, where, extra=None) -> None:
        kinds = self.scope.names.kinds
        type_ = "unit" if kind.value in kinds else ENTITY_CLASSES.get(kind.value)
        if type_ is None:
            self.report.error("E0211", f"unknown unit kind `{kind.value}`", kind.span,
                              help=did_you_mean(kind.value, kinds | set(ENTITY_CLASSES)))
            type_ = "any"
        if source is not None:
            self.expr(source)
        self.scope.push({var.value: type_})
        if where is not None:
            self.expr(where)
        if extra is not None:
            self.expr(extra)

    def stmt_ForStmt(self, stmt: A.ForStmt) -> None:
        self._ranging(stmt.kind, stmt.var, stmt.source, stmt.where)
        self.block(stmt.body)
        self.scope.pop()

    def stmt_ChooseStmt(self, stmt: A.ChooseStmt) -> None:
        self._ask_slots(stmt)
        self._ranging(stmt.kind, stmt.var, stmt.source, stmt.where, stmt.by)
        self._prefer(stmt.prefer)
        self.block(stmt.body)
        self.scope.pop()

    def _ask_slots(self, stmt: A.ChooseStmt) -> None:
        """`choose KIND v "… {} …" with [A, B]`: the question's values, worked out before the choice (they
        cannot read `v`), as many as the text has `{}`, given as a list."""
        values = stmt.ask_with  # (the grammar takes a list written out)
        for item in values.items if values is not None else ():
            self.expr(item)
        self._slots(stmt.ask or "", values, (values or stmt).span, "question of `choose`",
                    'form: choose space s "to step into ({} more after this)" with [left] …')

    def stmt_ChooseOptionStmt(self, stmt: A.ChooseOptionStmt) -> None:
        if stmt.by is not None:
            self.expect(stmt.by, ("side", "unit"), "`by`")
        for option in stmt.options:
            self._prefer(option.prefer)
            self.block(option.body)

    def _prefer(self, prefer) -> None:
        """`prefer` scores an option for the `ai` policy: a number or yes/no, or a list of them compared
        in order (a priority list: the first criterion decides, the next breaks its ties). A thing (a
        space, a building, a unit, a card) counts as yes when there is one."""
        if prefer is None:
            return
        for item in (prefer.items if isinstance(prefer, A.ListExpr) else (prefer,)):
            self.expect(item, PREFERABLE, "`prefer`")

    def stmt_RepeatStmt(self, stmt: A.RepeatStmt) -> None:
        self.expect(stmt.count, ("num",), "`repeat`")
        self.block(stmt.body)

    def stmt_WinStmt(self, stmt: A.WinStmt) -> None:
        self.expect(stmt.side, ("side",), "`win`" if stmt.win else "`lose`")

    # ---- expressions -----------------------------------------------------------------------------

    def expect(self, expr, kinds: tuple[str, ...], where: str) -> str:
        if isinstance(expr, A.Lit) and expr.kind == "str":
            if "event_name" in kinds:
                self.event(A.EventName(parts=tuple(str(expr.value).split(".")), span=expr.span))
                return "event_name"
            if "unit" in kinds and A.slug(str(expr.value)) in self.scope.names.units:
                return "unit"
            if "card" in kinds:
                return self._card_literal(expr)
            if {"space", "building"} & set(kinds) or "place" in kinds:
                return self._place_literal(expr)
        if isinstance(expr, A.NameRef) and not any(expr.name in f for f in self.scope.frames):
            for meaning in sorted(self.scope.names.alts.get(expr.name, ())):
                if fits(meaning, kinds):
                    return meaning
        if isinstance(expr, A.NameRef) and self.scope.lookup(expr.name) is None and len(kinds) == 1 and kinds[0] in _CODES:
            code, noun = _CODES[kinds[0]]
            known = {n for n, t in self.scope.names.globals.items() if t == kinds[0]}
            self.report.error(code, f"unknown {noun} `{expr.name}`", expr.span,
                              help=did_you_mean(expr.name, known) or _listing(noun, known))
            return kinds[0]
        if "ref" in kinds and not isinstance(expr, (A.NameRef, A.Attr)):
            self.report.error("E0305", f"{where} needs something to set, such as `h.health` or a counter", expr.span)
        found = self.expr(expr)
        if not fits(found, kinds):
            self.report.error("E0301", f"{where} needs {' or '.join(kinds)}, found {found}", expr.span)
        return found

    def _card_literal(self, expr: A.Lit) -> str:
        if A.slug(str(expr.value)) not in self.scope.names.cards:
            self.report.error("E0207", f"unknown card \"{expr.value}\"", expr.span,
                              help=did_you_mean(A.slug(str(expr.value)), self.scope.names.cards))
        return "card"

    def _place_literal(self, expr: A.Lit) -> str:
        if A.slug(str(expr.value)) not in self.scope.names.places:
            self.report.error("E0216", f"unknown space or building \"{expr.value}\"", expr.span,
                              help=did_you_mean(A.slug(str(expr.value)), self.scope.names.places))
        return "space"

    def expr(self, expr) -> str:
        return getattr(self, "expr_" + type(expr).__name__)(expr)

    def expr_Lit(self, expr: A.Lit) -> str:
        if expr.kind == "dice":
            count, sides = expr.value
            if not 1 <= count <= 20 or sides not in self.scope.names.dice:
                self.report.error("E0307", f"invalid dice `{count}D{sides}`", expr.span,
                                  help="this system's dice: " + ", ".join(f"D{d}" for d in sorted(self.scope.names.dice)))
            return "dice"
        return {"int": "num", "str": "text", "bool": "bool"}.get(expr.kind, expr.kind)

    def expr_NameRef(self, expr: A.NameRef) -> str:
        found = self.scope.lookup(expr.name)
        if found is None:
            self.report.error("E0206", f"unknown name `{expr.name}`", expr.span,
                              help=did_you_mean(expr.name, self.scope.visible()))
            return "any"
        return found

    def expr_Attr(self, expr: A.Attr) -> str:
        owner = self.expr(expr.obj)
        name = expr.name.value
        names = self.scope.names
        table = ATTRIBUTES.get(owner)
        if owner == "board":
            return "space"
        if table is not None and name in table:
            return table[name]
        if name in names.stats or (owner in ("any", "event") and (name in names.params or name in _all_attributes())):
            return "any" if owner in ("any", "event") and name not in names.stats else "num"
        if table is None and owner not in ("any", "event"):
            self.report.error("E0301", f"a {owner} has no attributes", expr.span)
            return "any"
        self.report.error("E0204", f"unknown stat or attribute `{name}`" + (f" of a {owner}" if owner != "any" else ""),
                          expr.name.span, help=did_you_mean(name, names.stats | set(table or ()) | names.params))
        return "any"

    def expr_Call(self, expr: A.Call) -> str:
        spec = FUNCTIONS.get(expr.func.value)
        if spec is None:
            self.report.error("E0214", f"unknown function `{expr.func.value}`", expr.func.span,
                              help=did_you_mean(expr.func.value, FUNCTIONS))
            for arg in expr.args:
                self.expr(arg)
            return "any"
        kinds, result = spec
        if kinds is None:
            for arg in expr.args:
                self.expect(arg, ("num",), f"`{expr.func.value}`")
            return result
        if len(expr.args) != len(kinds) or expr.kwargs:
            self.report.error("E0301", f"`{expr.func.value}` takes {len(kinds)} argument(s), got {len(expr.args) + len(expr.kwargs)}",
                              expr.span)
        for arg, kind in zip(expr.args, kinds):
            if kind == "name" and isinstance(arg, A.NameRef):
                if arg.name not in self.scope.names.stats:
                    self.report.error("E0204", f"unknown stat `{arg.name}`", arg.span, help=did_you_mean(arg.name, self.scope.names.stats))
                continue
            self.expect(arg, (kind,), f"`{expr.func.value}`")
        return result

    def expr_Select(self, expr: A.Select) -> str:
        self._ranging(expr.kind, expr.var, expr.source, expr.where)
        self.scope.pop()
        return "sel"

    def expr_ListExpr(self, expr: A.ListExpr) -> str:
        for item in expr.items:
            self.expr(item)
        return "list"

    def expr_Unary(self, expr: A.Unary) -> str:
        found = self.expr(expr.operand)
        if expr.op == "-" and found not in _NUMERIC:
            self.report.error("E0301", f"`-` needs a number, found {found}", expr.operand.span)
        return "bool" if expr.op == "not" else "num"

    def expr_BoolOp(self, expr: A.BoolOp) -> str:
        for operand in expr.operands:
            self.expr(operand)
        return "bool"

    def expr_Chain(self, expr: A.Chain) -> str:
        left, before = self.expr(expr.first), expr.first
        result = left
        for op, operand in expr.rest:
            if op == "has":
                right = self._has_operand(operand)
                result = "bool"
            else:
                right = self.expr(operand)
                result = self._binary(op, left, right, operand, before)
            left, before = right, operand
        return result

    def _binary(self, op: str, left: str, right: str, operand, before) -> str:
        if op in ("+", "-", "*", "/", "%"):
            for side in (left, right):
                if side not in _NUMERIC and side != "dice":
                    self.report.error("E0301", f"`{op}` needs numbers, found {side}", operand.span)
                    break
            return "num"
        if op in ("<", "<=", ">", ">="):
            for side, where in ((left, before), (right, operand)):
                if side in _UNORDERED:
                    self.report.error("E0301", f"`{op}` compares numbers, found {side}", where.span,
                                      help="compare a number (a counter, a stat, a count(…)) or test it with `==`, `is` or `has`")
                    break
            return "bool"
        if op == "in" and left in ("kind", "marker", "keyword"):
            return "sel"
        return "bool"

    def _has_operand(self, operand) -> str:
        if isinstance(operand, A.NameRef) and self.scope.lookup(operand.name) is None:
            names = self.scope.names
            self.report.error("E0205", f"unknown keyword, kind or marker `{operand.name}`", operand.span,
                              help=did_you_mean(operand.name, names.keywords | names.kinds | names.markers))
            return "any"
        return self.expr(operand)


def fits(found: str, kinds: tuple[str, ...]) -> bool:
    if found == "any":
        return True
    for kind in kinds:
        accepted = FITS.get(kind, {kind})
        if accepted is None or found in accepted or found == kind:
            return True
        if kind == "text" and found in ("text", "num"):
            return True
    return False


def _all_attributes() -> set[str]:
    return {name for table in ATTRIBUTES.values() for name in table}
