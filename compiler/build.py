"""Parse tree → AST. One method per grammar rule, found through a table, never an if/elif chain.

The parse tree is read through its plain shape (``data``, ``children``, ``meta``; tokens are strings
with positions), so this stage needs no lark import.
"""

from __future__ import annotations

import re
import textwrap

from spawnpit.compiler import ast as A
from spawnpit.diagnostics import Span

COMPOUND_KINDS = {("special", "rule"): "special_rule", ("unit", "event"): "unit_event"}


def _is_token(node) -> bool:
    return isinstance(node, str) and hasattr(node, "type")


class Builder:
    def __init__(self, path: str) -> None:
        self.path = path

    # ---- spans -----------------------------------------------------------------------------------

    def span(self, node) -> Span:
        if _is_token(node):
            line, col = node.line or 1, node.column or 1
            end_line = node.end_line or line
            end_col = node.end_column or col + len(node)
        else:
            meta = node.meta
            if getattr(meta, "empty", True):
                return Span.point(self.path)
            line, col, end_line, end_col = meta.line, meta.column, meta.end_line, meta.end_column
        if (end_line, end_col) <= (line, col):
            end_line, end_col = line, col + 1
        return Span(path=self.path, line=line, col=col, end_line=end_line, end_col=end_col)

    def ident(self, token) -> A.Ident:
        return A.Ident(value=str(token), span=self.span(token))

    # ---- files and declarations ------------------------------------------------------------------

    def file(self, tree) -> A.File:
        imports, usings, decls = [], [], []
        for child in tree.children:
            if child is None:
                continue
            if child.data == "import_stmt":
                tok = child.children[0]
                library = tok.type == "NAME"
                target = str(tok) if library else unquote(str(tok))
                imports.append(A.Import(target=target, library=library, span=self.span(child)))
            elif child.data == "using_stmt":
                usings.append(A.Using(system=self.ident(child.children[0]), span=self.span(child)))
            else:
                decls.append(self.block(child))
        return A.File(path=self.path, imports=tuple(imports), usings=tuple(usings), decls=tuple(decls))

    def block(self, tree) -> A.Block:
        children = list(tree.children)
        if tree.data == "decl":
            w1, w2, title, params, body = children
        elif tree.data == "short_block":
            (w1, w2, title), params, body = children, None, None
        else:
            w1, w2, title, body = children
            params = None
        kind, name = self.ident(w1), self.ident(w2) if w2 is not None else None
        if name is not None and (kind.value, name.value) in COMPOUND_KINDS:
            kind = A.Ident(value=COMPOUND_KINDS[(kind.value, name.value)], span=_join(kind.span, name.span))
            name = None
        title_lit = A.Lit(kind="str", value=unquote(str(title)), span=self.span(title)) if title else None
        return A.Block(
            kind=kind,
            name=name,
            title=title_lit,
            params=tuple(self.param(p) for p in params.children if p is not None) if params else (),
            items=tuple(self.item(i) for i in body.children if i is not None) if body is not None else (),
            span=self.span(tree),
        )

    def param(self, tree) -> A.Param:
        name, type_, default = tree.children
        return A.Param(
            name=self.ident(name),
            type=self.ident(type_) if type_ is not None else None,
            default=self.expr(default) if default is not None else None,
            span=self.span(tree),
        )

    def item(self, tree):
        return getattr(self, "item_" + tree.data)(tree)

    def item_prop(self, tree) -> A.Prop:
        name, *values = tree.children
        return A.Prop(name=self.ident(name), key=None,
                      values=tuple(self.expr(v) for v in values if v is not None), span=self.span(tree))

    def item_assign_prop(self, tree) -> A.Prop:
        name, key, *values = tree.children
        return A.Prop(name=self.ident(name), key=self.expr(key),
                      values=tuple(self.expr(v) for v in values), span=self.span(tree))

    def item_block(self, tree) -> A.Block:
        return self.block(tree)

    item_short_block = item_block

    def item_hook(self, tree, replace: bool = False) -> A.Hook:
        event, *rest = tree.children
        stmts = rest.pop()
        when = rest.pop()
        filters = tuple((self.ident(f.children[0].children[0]), self.expr(f.children[1])) for f in rest)
        return A.Hook(replace=replace, event=self.event_name(event), filters=filters,
                      when=self.expr(when) if when is not None else None,
                      body=self.stmts(stmts), span=self.span(tree))

    def item_replacement(self, tree) -> A.Hook:
        return self.item_hook(tree, replace=True)

    def item_objective(self, tree) -> A.Objective:
        side, verdict, cond = tree.children
        at = cond if getattr(cond, "data", None) == "event_name" else None
        return A.Objective(side=self.ident(side), win=verdict.type == "WIN",
                           when=None if at is not None else self.expr(cond),
                           at=self.event_name(at) if at is not None else None, span=self.span(tree))

    def event_name(self, tree) -> A.EventName:
        return A.EventName(parts=tuple(str(t) for t in tree.children), span=self.span(tree))

    # ---- statements ------------------------------------------------------------------------------

    def stmts(self, tree) -> tuple:
        return tuple(self.stmt(s) for s in tree.children if s is not None)

    def stmt(self, tree):
        return getattr(self, "stmt_" + tree.data)(tree)

    def stmt_effect(self, tree) -> A.Effect:
        verb, primary, *args = tree.children
        return A.Effect(
            verb=self.ident(verb),
            primary=self.expr(primary) if primary is not None else None,
            args=tuple((self.ident(a.children[0].children[0]), self.expr(a.children[1])) for a in args),
            span=self.span(tree),
        )

    def stmt_assign(self, tree) -> A.Assign:
        target, op, value = tree.children
        return A.Assign(target=tuple(self.ident(t) for t in target.children), op=str(op.children[0]),
                        value=self.expr(value), span=self.span(tree))

    def stmt_let_stmt(self, tree) -> A.LetStmt:
        name, value = tree.children
        return A.LetStmt(name=self.ident(name), value=self.expr(value), span=self.span(tree))

    def stmt_if_stmt(self, tree) -> A.IfStmt:
        cond, then, orelse = tree.children
        if orelse is None:
            other = ()
        elif orelse.data == "if_stmt":
            other = (self.stmt_if_stmt(orelse),)
        else:
            other = self.stmts(orelse)
        return A.IfStmt(cond=self.expr(cond), then=self.stmts(then), orelse=other, span=self.span(tree))

    def stmt_for_stmt(self, tree) -> A.ForStmt:
        kind, var, source, where, body = tree.children
        return A.ForStmt(kind=self.ident(kind), var=self.ident(var), source=self.opt_expr(source),
                         where=self.opt_expr(where), body=self.stmts(body), span=self.span(tree))

    def stmt_choose_stmt(self, tree) -> A.ChooseStmt:
        may, kind, var, ask, ask_with, source, where, by, prefer, body = tree.children
        return A.ChooseStmt(may=may is not None, kind=self.ident(kind), var=self.ident(var),
                            ask=unquote(str(ask)) if ask is not None else None, ask_with=self.expr_list(ask_with) if ask_with is not None else None,
                            source=self.opt_expr(source), where=self.opt_expr(where),
                            by=self.opt_expr(by), prefer=self.opt_expr(prefer), body=self.stmts(body),
                            span=self.span(tree))

    def stmt_choose_option_stmt(self, tree) -> A.ChooseOptionStmt:
        may, by, *options = tree.children
        return A.ChooseOptionStmt(
            may=may is not None, by=self.opt_expr(by),
            options=tuple(A.Option(label=unquote(str(o.children[0])), prefer=self.opt_expr(o.children[1]),
                                   body=self.stmts(o.children[2]), span=self.span(o)) for o in options),
            span=self.span(tree),
        )

    def stmt_win_stmt(self, tree, win: bool = True) -> A.WinStmt:
        return A.WinStmt(win=win, side=self.expr(tree.children[-1]), span=self.span(tree))

    def stmt_repeat_stmt(self, tree) -> A.RepeatStmt:
        count, body = tree.children
        return A.RepeatStmt(count=self.expr(count), body=self.stmts(body), span=self.span(tree))

    def stmt_lose_stmt(self, tree) -> A.WinStmt:
        return self.stmt_win_stmt(tree, win=False)

    # ---- expressions -----------------------------------------------------------------------------

    def opt_expr(self, node):
        return self.expr(node) if node is not None else None

    def expr(self, node):
        if _is_token(node):  # a bare token can only be a name here (event parts are handled apart)
            return A.NameRef(name=str(node), span=self.span(node))
        return getattr(self, "expr_" + node.data)(node)

    def _lit(self, tree, kind, value) -> A.Lit:
        return A.Lit(kind=kind, value=value, span=self.span(tree))

    def expr_name(self, tree):
        return A.NameRef(name=str(tree.children[0]), span=self.span(tree))

    def expr_int(self, tree):
        return self._lit(tree, "int", int(tree.children[0]))

    def expr_string(self, tree):
        return self._lit(tree, "str", unquote(str(tree.children[0])))

    def expr_dice(self, tree):
        count, _, sides = str(tree.children[0]).partition("D")
        return self._lit(tree, "dice", (int(count or 1), int(sides)))

    def expr_range(self, tree):
        low, _, high = str(tree.children[0]).partition("-")
        return self._lit(tree, "range", (int(low), int(high)))

    def expr_target(self, tree):
        return self._lit(tree, "target", int(str(tree.children[0])[:-1]))

    def expr_true(self, tree):
        return self._lit(tree, "bool", True)

    def expr_false(self, tree):
        return self._lit(tree, "bool", False)

    def expr_list(self, tree):
        return A.ListExpr(items=tuple(self.expr(i) for i in tree.children if i is not None),
                          span=self.span(tree))

    def expr_attr(self, tree):
        obj, name = tree.children
        return A.Attr(obj=self.expr(obj), name=self.ident(name), span=self.span(tree))

    def expr_call(self, tree):
        func, *args = tree.children
        pos, named = [], []
        for arg in args:
            if arg is None:
                continue
            if arg.data == "named_arg":
                named.append((self.ident(arg.children[0]), self.expr(arg.children[1])))
            elif arg.data == "select":
                kind, var, source, where = arg.children
                pos.append(A.Select(kind=self.ident(kind), var=self.ident(var), source=self.opt_expr(source),
                                    where=self.opt_expr(where), span=self.span(arg)))
            else:
                pos.append(self.expr(arg.children[0]))
        return A.Call(func=self.ident(func), args=tuple(pos), kwargs=tuple(named), span=self.span(tree))

    def expr_not_(self, tree):
        return A.Unary(op="not", operand=self.expr(tree.children[0]), span=self.span(tree))

    def expr_neg(self, tree):
        operand = self.expr(tree.children[0])
        if isinstance(operand, A.Lit) and operand.kind == "int":
            return A.Lit(kind="int", value=-operand.value, span=self.span(tree))
        return A.Unary(op="-", operand=operand, span=self.span(tree))

    def _chain(self, tree):
        first, *rest = tree.children
        pairs = tuple((" ".join(str(t) for t in rest[i].children), self.expr(rest[i + 1]))
                      for i in range(0, len(rest), 2))
        return A.Chain(first=self.expr(first), rest=pairs, span=self.span(tree))

    expr_compare = expr_sum = expr_product = _chain

    def expr_or_expr(self, tree, op: str = "or"):
        return A.BoolOp(op=op, operands=tuple(self.expr(c) for c in tree.children), span=self.span(tree))

    def expr_and_expr(self, tree):
        return self.expr_or_expr(tree, op="and")


def _join(a: Span, b: Span) -> Span:
    return Span(path=a.path, line=a.line, col=a.col, end_line=b.end_line, end_col=b.end_col)


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def unquote(raw: str) -> str:
    """Decode a string token; a \"\"\"block\"\"\" is dedented and reflowed (blank lines split paragraphs)."""
    if raw.startswith('"""'):
        body = textwrap.dedent(raw[3:-3]).strip()
        paragraphs = re.split(r"\n[ \t]*\n", body)
        body = "\n\n".join(" ".join(line.strip() for line in p.splitlines() if line.strip()) for p in paragraphs)
    else:
        body = raw[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


def build(tree, path: str) -> A.File:
    return Builder(path).file(tree)
