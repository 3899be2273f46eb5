"""The abstract syntax tree: frozen nodes, every one with the Span it came from.

Names follow the grammar (rule ``for_stmt`` → class ``ForStmt``). Operator chains are kept n-ary
(``Chain``, ``BoolOp``) so that a long ``a + b + c + …`` is a flat node, not a deep one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from spawnpit.diagnostics import Span
from spawnpit.names import slug  # noqa: F401  (declarations are compared by slug: ast.slug)


@dataclass(frozen=True, slots=True, kw_only=True)
class Ident:
    value: str
    span: Span


# ---- expressions ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class Lit:
    """A literal; ``kind`` is int, str, dice, range, target or bool and ``value`` its Python value."""

    kind: str
    value: object
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class NameRef:
    name: str
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class Attr:
    obj: Expr
    name: Ident
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class Call:
    func: Ident
    args: tuple[Expr, ...]
    kwargs: tuple[tuple[Ident, Expr], ...]
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class ListExpr:
    items: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class Unary:
    op: str  # "not" or "-"
    operand: Expr
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class Chain:
    """``first op1 x1 op2 x2 …`` for comparison and arithmetic operators (left to right)."""

    first: Expr
    rest: tuple[tuple[str, Expr], ...]
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class BoolOp:
    op: str  # "and" or "or"
    operands: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class Select:
    """``zombie z in s where z.health > 1`` inside a call: a selection with a bound variable."""

    kind: Ident
    var: Ident
    source: Expr | None
    where: Expr | None
    span: Span


Expr = Union[Lit, NameRef, Attr, Call, ListExpr, Unary, Chain, BoolOp, Select]


# ---- statements ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class Effect:
    verb: Ident
    primary: Expr | None
    args: tuple[tuple[Ident, Expr], ...]
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class Assign:
    target: tuple[Ident, ...]
    op: str
    value: Expr
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class LetStmt:
    name: Ident
    value: Expr
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class IfStmt:
    cond: Expr
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class ForStmt:
    kind: Ident
    var: Ident
    source: Expr | None
    where: Expr | None
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseStmt:
    may: bool
    kind: Ident
    var: Ident
    ask: str | None  # what the question is for, in words (`choose card c "to get rid of" in …`)
    ask_with: Expr | None  # the values of the question's `{}` (`"to step into ({} more)" with [left]`)
    source: Expr | None
    where: Expr | None
    by: Expr | None
    prefer: Expr | None  # the `ai` policy's score for an option: a number, or a list compared in order
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class Option:
    label: str
    prefer: Expr | None
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseOptionStmt:
    may: bool
    by: Expr | None
    options: tuple[Option, ...]
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class WinStmt:
    win: bool
    side: Expr
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class RepeatStmt:
    count: Expr
    body: tuple[Stmt, ...]
    span: Span


Stmt = Union[Effect, Assign, LetStmt, IfStmt, ForStmt, ChooseStmt, ChooseOptionStmt, WinStmt, RepeatStmt]


# ---- declarations --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class EventName:
    parts: tuple[str, ...]
    span: Span

    @property
    def dotted(self) -> str:
        return ".".join(self.parts)


@dataclass(frozen=True, slots=True, kw_only=True)
class Prop:
    name: Ident
    key: Expr | None
    values: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class Hook:
    replace: bool
    event: EventName
    filters: tuple[tuple[Ident, Expr], ...]
    when: Expr | None
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class Objective:
    side: Ident
    win: bool
    when: Expr | None
    at: EventName | None
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class Param:
    name: Ident
    type: Ident | None
    default: Expr | None
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class Block:
    """A declaration or a nested block: ``kind [name] ["Title"] [(params)] { items }``."""

    kind: Ident
    name: Ident | None
    title: Lit | None
    params: tuple[Param, ...]
    items: tuple[Item, ...]
    span: Span

    @property
    def id(self) -> str | None:
        if self.name is not None:
            return self.name.value
        if self.title is not None:
            return slug(str(self.title.value))
        return None

    @property
    def head_span(self) -> Span:
        last = self.title or self.name or self.kind
        return Span(path=self.span.path, line=self.kind.span.line, col=self.kind.span.col,
                    end_line=last.span.end_line, end_col=last.span.end_col)


Item = Union[Prop, Block, Hook, Objective]


@dataclass(frozen=True, slots=True, kw_only=True)
class Import:
    target: str
    library: bool
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class Using:
    system: Ident
    span: Span


@dataclass(frozen=True, slots=True, kw_only=True)
class File:
    path: str
    imports: tuple[Import, ...]
    usings: tuple[Using, ...]
    decls: tuple[Block, ...]


def dotted(expr) -> str | None:
    """`a.b.c` written as names and attributes, as one dotted name; None for anything else."""
    if isinstance(expr, NameRef):
        return expr.name
    if isinstance(expr, Attr):
        head = dotted(expr.obj)
        return None if head is None else f"{head}.{expr.name.value}"
    return None
