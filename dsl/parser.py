"""``parse(text, path)`` → a lark parse tree with positions, plus diagnostics for every syntax error.

Recovery works at declaration level: after an error, the declaration that holds it is blanked out
(newlines kept, so every position stays true) and the file is parsed again, so one run reports the
errors of every broken declaration and still yields a tree of the healthy ones.
"""

from __future__ import annotations

import functools
import hashlib
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from spawnpit.diagnostics import Diagnostic, Label, Span

from spawnpit.dsl.limits import MAX_DEPTH, MAX_ERRORS_PER_FILE, MAX_FILE_BYTES

GRAMMAR = Path(__file__).with_name("spawnpit.lark")

_OPENERS = {"LBRACE", "LPAR", "LSQB"}
_CLOSERS = {"RBRACE", "RPAR", "RSQB"}
# After these a newline cannot end an item, so it is a line break inside one.
_JOINERS = {
    "LBRACE", "LPAR", "LSQB", "COMMA", "COLON", "EQUAL", "AND", "OR", "NOT", "WHEN", "WHERE", "PREFER",
    "PLUS", "MINUS", "STAR", "SLASH", "PERCENT", "LESSTHAN", "MORETHAN", "IN", "HAS", "IS",
    "__ANON_0", "__ANON_1", "__ANON_2", "__ANON_3", "__ANON_4", "__ANON_5",
}
# Before these a newline is layout, not the end of an item.
_NEWLINE_EATERS = {"RBRACE", "ELSE"}

_TERMINAL_WORDS = {
    "NAME": "a name",
    "STRING": "text in quotes",
    "INT": "a number",
    "DICE": "dice such as 2D6",
    "RANGE": "a range such as 1-3",
    "TARGET": "a target such as 4+",
    "_NL": "a new line",
    "$END": "the end of the file",
}


class _DepthError(Exception):
    def __init__(self, token: Token) -> None:
        super().__init__("nesting too deep")
        self.token = token


class _Newlines:
    """Postlexer: keeps only the newlines that end items and enforces the nesting limit."""

    always_accept = ("_NL",)

    def process(self, stream):
        brackets = 0
        nesting = 0
        prev = None
        pending = None
        unary_run = 0  # `not not not …` nests as deeply as brackets do
        for tok in stream:
            kind = tok.type
            unary_run = unary_run + 1 if kind in ("NOT", "MINUS") else 0
            if unary_run > MAX_DEPTH:
                raise _DepthError(tok)
            if kind == "_NL":
                if brackets == 0 and prev is not None and prev.type not in _JOINERS:
                    pending = tok
                continue
            if pending is not None:
                if kind not in _NEWLINE_EATERS:
                    yield pending
                pending = None
            if kind in _OPENERS:
                nesting += 1
                if kind != "LBRACE":
                    brackets += 1
                if nesting > MAX_DEPTH:
                    raise _DepthError(tok)
            elif kind in _CLOSERS:
                nesting = max(0, nesting - 1)
                if kind != "RBRACE":
                    brackets = max(0, brackets - 1)
            yield tok
            prev = tok


@functools.cache
def _parser() -> Lark:
    """Built once per process; lark's own cache keeps the LALR tables on disk between processes."""
    digest = hashlib.sha256(GRAMMAR.read_bytes()).hexdigest()[:16]
    cache = Path(tempfile.gettempdir()) / f"spawnpit-grammar-{digest}.lark-cache"
    return Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="basic",
        propagate_positions=True,
        maybe_placeholders=True,
        postlex=_Newlines(),
        cache=str(cache),
    )


def lark_parser() -> Lark:
    """The raw parser, for the benchmark that compares the pipeline to the parse alone."""
    return _parser()


@dataclass(frozen=True, slots=True)
class ParseResult:
    tree: Tree | None
    diagnostics: tuple[Diagnostic, ...]


def parse(text: str, path: str) -> ParseResult:
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        return ParseResult(None, (Diagnostic(
            code="E0004",
            message=f"file is larger than {MAX_FILE_BYTES // 1024} KiB",
            span=Span.point(path),
            help="split it into several files and import them",
        ),))
    diagnostics: list[Diagnostic] = []
    source = text
    for _ in range(MAX_ERRORS_PER_FILE):
        try:
            return ParseResult(_parser().parse(source), tuple(diagnostics))
        except _DepthError as err:
            diagnostics.append(_depth_diagnostic(err.token, path))
            start = err.token.start_pos or 0
        except UnexpectedInput as err:
            diagnostics.append(_syntax_diagnostic(err, source, path))
            start = _error_offset(err, source)
        except (LarkError, RecursionError) as err:  # pragma: no cover - defensive: lark internals
            diagnostics.append(Diagnostic(code="E0001", message=f"cannot parse: {err}", span=Span.point(path)))
            return ParseResult(None, tuple(diagnostics))
        blanked = _blank_declaration(source, start)
        if blanked == source:
            break
        source = blanked
    return ParseResult(None, tuple(diagnostics))


# ---- recovery ------------------------------------------------------------------------------------

_DECL_START = re.compile(r"^[A-Za-z_]", re.MULTILINE)
_TEXT_BLOCK = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*(?:"""|$)', re.DOTALL)


def _declaration_starts(source: str) -> list[int]:
    """Offsets of lines that may start a declaration: a letter in column 1, outside text blocks."""
    blocks = [m.span() for m in _TEXT_BLOCK.finditer(source)]
    return [s for s in (m.start() for m in _DECL_START.finditer(source))
            if not any(a < s < b for a, b in blocks)]


def _error_offset(err: UnexpectedInput, source: str) -> int:
    pos = getattr(err, "pos_in_stream", None)
    token = getattr(err, "token", None)
    if token is not None and getattr(token, "type", None) == "$END":
        return len(source)
    if pos is None and token is not None:
        pos = getattr(token, "start_pos", None)
    return len(source) if pos is None else min(pos, len(source))


def _blank_declaration(source: str, offset: int) -> str:
    """Blank the top-level declaration around ``offset`` (up to the next one), keeping newlines."""
    line_start = source.rfind("\n", 0, offset) + 1
    starts = _declaration_starts(source)
    if offset < len(source) and offset == line_start and not source[offset].isalpha():
        begin, end = line_start, source.find("\n", offset)
        end = len(source) if end < 0 else end
    else:
        before = [s for s in starts if s <= offset]
        begin = before[-1] if before else 0
        after = [s for s in starts if s > offset and s > line_start]
        end = after[0] if after else len(source)
    if end <= begin:
        end = min(len(source), begin + 1)
    hole = "".join(ch if ch == "\n" else " " for ch in source[begin:end])
    return source[:begin] + hole + source[end:]


# ---- messages ------------------------------------------------------------------------------------

def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    pattern = _literal(terminal)
    return f"`{pattern}`" if pattern else terminal.lower()


@functools.cache
def _literals() -> dict[str, str]:
    out = {}
    for term in _parser().terminals:
        if term.pattern.type == "str":
            out[term.name] = term.pattern.value
    return out


def _literal(terminal: str) -> str | None:
    return _literals().get(terminal)


def _token_span(token: Token, path: str) -> Span:
    line = token.line or 1
    col = token.column or 1
    end_line = token.end_line or line
    end_col = token.end_column or col + max(1, len(token))
    if (end_line, end_col) <= (line, col):
        end_line, end_col = line, col + 1
    return Span(path=path, line=line, col=col, end_line=end_line, end_col=end_col)


def _end_span(source: str, path: str) -> Span:
    line = source.count("\n") + 1
    col = len(source) - (source.rfind("\n") + 1) + 1
    return Span.point(path, line, col)


def _depth_diagnostic(token: Token, path: str) -> Diagnostic:
    return Diagnostic(
        code="E0005",
        message=f"blocks and brackets are nested more than {MAX_DEPTH} deep",
        span=_token_span(token, path),
        help="flatten the rule with `let`, or split it into several hooks",
    )


def _syntax_diagnostic(err: UnexpectedInput, source: str, path: str) -> Diagnostic:
    if isinstance(err, UnexpectedCharacters):
        return _character_diagnostic(err, source, path)
    assert isinstance(err, UnexpectedToken)
    token = err.token
    expected = [_describe(t) for t in sorted(err.expected, key=_rank) if not t.startswith("__ANON")]
    shown = ", ".join(expected[:8]) + (", …" if len(expected) > 8 else "")
    if token.type == "$END":
        brace = _unclosed_brace(source)
        if brace is not None:
            line, col = brace
            return Diagnostic(code="E0003", message="the file ends before this `{` is closed",
                              span=Span.point(path, line, col), help="add the missing `}`",
                              labels=(Label(span=_end_span(source, path), message="the file ends here"),))
        return Diagnostic(
            code="E0003",
            message="the file ends in the middle of a declaration",
            span=_end_span(source, path),
            help=f"expected {shown}" if shown else "",
        )
    found = "a new line" if token.type == "_NL" else f"`{token}`"
    return Diagnostic(
        code="E0001",
        message=f"unexpected {found}" + (f"; expected {shown}" if shown else ""),
        span=_token_span(token, path),
        help=_syntax_hint(token, err.expected),
    )


def _rank(terminal: str) -> tuple[int, str]:
    """Order "expected" lists by usefulness: names, text and layout before keywords before operators."""
    if terminal in _TERMINAL_WORDS:
        return (0, terminal)
    if terminal in ("RBRACE", "RPAR", "RSQB", "LBRACE"):
        return (1, terminal)
    literal = _literal(terminal) or ""
    return (2 if literal.isalpha() else 3, literal or terminal)


_SKIP = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*(?:"""|$)|"(?:[^"\\\n]|\\.)*"|#[^\n]*', re.DOTALL)


def _unclosed_brace(source: str) -> tuple[int, int] | None:
    """Line and column of the last `{` that is never closed (text and comments skipped)."""
    stack: list[int] = []
    pos = 0
    for match in _SKIP.finditer(source + "\n"):
        _scan(source[pos:match.start()], pos, stack)
        pos = match.end()
    _scan(source[pos:], pos, stack)
    if not stack:
        return None
    offset = stack[-1]
    line = source.count("\n", 0, offset) + 1
    return line, offset - (source.rfind("\n", 0, offset) + 1) + 1


def _scan(chunk: str, base: int, stack: list[int]) -> None:
    for i, ch in enumerate(chunk):
        if ch == "{":
            stack.append(base + i)
        elif ch == "}" and stack:
            stack.pop()


def _syntax_hint(token: Token, expected) -> str:
    literal = _literal(token.type)
    if literal and literal.isalpha() and "NAME" in expected:
        return f"`{literal}` is a reserved word of the language and cannot be used as a name"
    if "_NL" in expected and "COMMA" in expected and token.type != "_NL":
        return "separate values with commas, or put the next property on its own line"
    if "_NL" in expected and token.type != "_NL":
        return "each property, hook or statement goes on its own line (or separate them with `;`)"
    if token.type == "_NL" and "RBRACE" in expected:
        return "a value is missing before the end of the line"
    if token.type == "RBRACE":
        return "this `}` closes nothing, or something before it is incomplete"
    return ""


def _character_diagnostic(err: UnexpectedCharacters, source: str, path: str) -> Diagnostic:
    char = source[err.pos_in_stream] if err.pos_in_stream < len(source) else ""
    span = Span(path=path, line=err.line, col=err.column, end_line=err.line, end_col=err.column + 1)
    if char == '"':
        pos = err.pos_in_stream
        triple = source.startswith('"""', pos) or source[max(0, pos - 2):pos + 1] == '"""'
        if triple:
            return Diagnostic(code="E0003", message='this `"""` text block is never closed', span=span,
                              help='close it with `"""`')
        return Diagnostic(code="E0002", message="this text is never closed on its line", span=span,
                          help='close it with `"`, or use `"""` for text over several lines')
    shown = repr(char)[1:-1] if char else "end of input"
    return Diagnostic(
        code="E0002",
        message=f"unexpected character `{shown}`",
        span=span,
        help="names use letters, digits and `_`; put text inside double quotes",
    )
