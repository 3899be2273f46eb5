"""The one diagnostic model every stage reports in, from parse errors to schema validation.

It lives in the import root (not in ``dsl`` or ``compiler``) so that every stage, including the engine,
can report a user's mistake with a span without importing the parser.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from spawnpit.codes import CODES


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"

    @property
    def rank(self) -> int:
        return 0 if self is Severity.ERROR else 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Span:
    """A region of one source file; lines and columns are 1-based, the end column is exclusive."""

    path: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __post_init__(self) -> None:
        if self.line < 1 or self.col < 1:
            raise ValueError(f"span starts before the file: {self}")
        if (self.end_line, self.end_col) < (self.line, self.col):
            raise ValueError(f"span ends before it starts: {self}")

    @classmethod
    def point(cls, path: str, line: int = 1, col: int = 1) -> Span:
        return cls(path=path, line=line, col=col, end_line=line, end_col=col + 1)

    def sort_key(self) -> tuple[str, int, int]:
        return (self.path, self.line, self.col)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Label:
    """A secondary span that explains the primary one ("first defined here")."""

    span: Span
    message: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Diagnostic:
    code: str
    message: str
    span: Span
    help: str = ""
    labels: tuple[Label, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"diagnostic code {self.code} has no entry in spawnpit.codes")

    @property
    def severity(self) -> Severity:
        return Severity.WARNING if self.code.startswith("W") else Severity.ERROR

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def sort_key(self) -> tuple:
        return (*self.span.sort_key(), self.severity.rank, self.code, self.message)

    def to_json(self) -> dict:
        out = {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "file": self.span.path,
            "line": self.span.line,
            "col": self.span.col,
            "end_line": self.span.end_line,
            "end_col": self.span.end_col,
        }
        if self.help:
            out["help"] = self.help
        if self.labels:
            out["labels"] = [
                {"message": lb.message, "file": lb.span.path, "line": lb.span.line, "col": lb.span.col}
                for lb in self.labels
            ]
        return out


class UserError(Exception):
    """A mistake in the user's content, carrying the diagnostic that describes it."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class Report:
    """Collects the diagnostics of one run, capped, and hands them back sorted."""

    def __init__(self, cap: int = 200) -> None:
        self.cap = cap
        self._items: list[Diagnostic] = []
        self._seen: set[tuple] = set()
        self.dropped = 0

    def add(self, diagnostic: Diagnostic) -> None:
        key = (diagnostic.code, diagnostic.span, diagnostic.message)
        if key in self._seen:
            return
        self._seen.add(key)
        if len(self._items) >= self.cap:
            self.dropped += 1
            return
        self._items.append(diagnostic)

    def error(self, code: str, message: str, span: Span, help: str = "", labels=()) -> None:
        self.add(Diagnostic(code=code, message=message, span=span, help=help, labels=tuple(labels)))

    warn = error  # the severity follows from the code (W… is a warning)

    def extend(self, diagnostics) -> None:
        for d in diagnostics:
            self.add(d)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self._items)

    def sorted(self) -> tuple[Diagnostic, ...]:
        return tuple(sorted(self._items, key=Diagnostic.sort_key))


def nearest(word: str, candidates, limit: int = 1) -> list[str]:
    """The candidates closest to ``word`` by edit distance, for "did you mean" hints."""
    import difflib

    pool = sorted(set(candidates))
    hits = difflib.get_close_matches(word, pool, n=limit, cutoff=0.6)
    if not hits:
        low = word.lower()
        hits = [c for c in pool if low and (low in c.lower() or c.lower() in low)][:limit]
    return hits


def did_you_mean(word: str, candidates) -> str:
    hits = nearest(word, candidates)
    return f"did you mean `{hits[0]}`?" if hits else ""
