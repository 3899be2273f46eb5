"""Rule objects' expressions and statements compiled once, at load time: each expression to the source of
one Python function (``compile``), statements to closures.

A hook body runs thousands of times per simulated game, so walking its JSON form each time would
dominate; compiling it once is the design the benchmark asks for. The meaning of `in`, `has`,
attributes and effects on the table lives in ``table.Table``; this module only builds the functions and
the control flow. ``GENERATE = False`` builds every expression as nested closures instead (one per
node): the same meaning, slower; the determinism tests play games both ways and compare the logs.

Common shapes are specialised when compiled (a comparison of two operands, `and`/`or` of two, calls by
number of arguments), and a selection's `where` (and a choice's `prefer`) is compiled in a *scope*: a
pure sub-expression that does not depend on the item being tested (`nearest(s, space o where o has
objective)` when scoring each space `s`) is worked out once per selection, the first time it is needed,
instead of once per item. Pure means no dice and no chance (`roll`, `random`): such a value cannot differ
between two items, so remembering it changes nothing but the time taken. In the same way a selection
inside a scope whose `where` starts with pure tests that do not read the scope's item has those tests
worked out once per run of the scope (`_hoisted`).
"""

from __future__ import annotations

import json
import operator

from spawnpit.engine import movement as _movement
from spawnpit.engine.board import EVERYTHING as _EVERYTHING
from spawnpit.engine.state import Ref


class RuleError(Exception):
    """Content asked for something impossible at run time (wounding nothing, drawing from no deck)."""


class EndAction(Exception):
    """`end`: stop the current phase, step or action."""


class Decline(Exception):
    """`decline`: an `instead of` hook gives up its replacement; the event goes on as if it had not applied."""


class GameOver(Exception):
    """The game was decided: whatever was running stops at once, and nothing more happens."""


def _lit(ir):
    kind, value = ir.get("type"), ir["lit"]
    if kind == "dice":
        return ("dice", value[0], value[1])
    if kind == "range":
        return tuple(value)
    return value


# ---- scopes: sub-expressions worked out once per selection ---------------------------------------

class _Scope:
    """A selection's `where` or a choice's `prefer` while it is compiled (`bound`: the name it binds for
    each item) and while it runs (`item`: the item being tested; `memo`: the values of its item-independent
    sub-expressions, or None). Inside, the bound name reads `item` directly: no context is made per item.
    A pure sub-expression written more than once that does depend on the item (`count(zombie z where
    route(z, z.space, s) <= 1)` twice in one `prefer`) is worked out once per item (`per_item`)."""

    __slots__ = ("bound", "size", "memo", "item", "slots", "repeated", "shared", "per_item")

    def __init__(self, bound) -> None:
        self.bound, self.size, self.memo, self.item = frozenset(bound), 0, None, None
        self.slots: dict[str, int] = {}  # item-independent sub-expressions (by their IR) → their slot in `memo`
        self.repeated: set[str] = set()  # sub-expressions (by their IR) written more than once
        self.shared: dict[str, int] = {}  # those of them that depend on the item → their slot in `per_item`
        self.per_item = None

    def fresh(self):
        return [_UNSET] * self.size if self.size else None

    def enter(self, item) -> None:
        """The next item: the values remembered for the last one are forgotten."""
        self.item = item
        if self.shared:
            self.per_item = [_UNSET] * len(self.shared)


_UNSET = object()
_SCOPES: list[_Scope] = []  # the scopes being compiled, outermost first
# Functions whose value depends only on their arguments and the table (no dice, no chance, no change).
PURE_FUNCTIONS = {"count", "any", "all", "min", "max", "distance", "adjacent", "sight", "stat", "list", "highest", "below",
                  "lowest", "doubles", "dice", "reach", "steps", "route", "nearest", "within", "apart", "search_card",
                  "pool_left", "edge", "neighbours"}
_WORTH = ("select", "call", "chain", "op", "attr", "list", "name")  # dearer to work out than to remember


def _free(ir) -> tuple[frozenset, bool]:
    """The names an expression reads, and whether it is pure."""
    if not isinstance(ir, dict):
        return frozenset(), True
    if "lit" in ir:
        return frozenset(), True
    if "name" in ir:
        return frozenset((ir["name"],)), True
    if "attr" in ir:
        return _free(ir["of"])
    if "call" in ir:
        names, pure = frozenset(), ir["call"] in PURE_FUNCTIONS
        for arg in ir["args"]:
            n, p = _free(arg)
            names, pure = names | n, pure and p
        return names, pure
    if "select" in ir:
        names, pure = _free(ir.get("in")) if ir.get("in") else (frozenset(), True)
        if ir.get("where"):
            n, p = _free(ir["where"])
            names, pure = names | (n - {ir["var"]}), pure and p
        return names, pure
    parts = ir.get("list") or ir.get("args") or [e for e in ir.get("chain", [])[::2]]
    if not any(k in ir for k in ("list", "op", "chain")):
        return frozenset(), False  # unknown: never remembered
    names, pure = frozenset(), True
    for part in parts:
        n, p = _free(part)
        names, pure = names | n, pure and p
    return names, pure


def _canon(ir) -> str:
    return json.dumps(ir, sort_keys=True)


def _repeats(ir, counts: dict) -> None:
    if isinstance(ir, dict):
        if any(k in ir for k in _WORTH if k != "name"):
            key = _canon(ir)
            counts[key] = counts.get(key, 0) + 1
        for value in ir.values():
            _repeats(value, counts)
    elif isinstance(ir, list):
        for value in ir:
            _repeats(value, counts)


def _owner(ir) -> int | None:
    """Index of the innermost scope being compiled whose item `ir` depends on, when it is pure and
    written more than once there (so it is worth remembering for each item)."""
    names, pure = _free(ir)
    if not pure:
        return None
    for index in range(len(_SCOPES) - 1, -1, -1):
        if names & _SCOPES[index].bound:
            return index if _canon(ir) in _SCOPES[index].repeated else None
    return None


def _per_item(fn, scope: _Scope, slot: int):
    def run(ctx):
        memo = scope.per_item
        if memo is None:
            return fn(ctx)
        value = memo[slot]
        if value is _UNSET:
            value = memo[slot] = fn(ctx)
        return value

    return run


def _home(ir) -> int | None:
    """Index of the outermost scope being compiled in which `ir` has one value for every item."""
    names, pure = _free(ir)
    if not pure:
        return None
    home = None
    for index in range(len(_SCOPES) - 1, -1, -1):
        if names & _SCOPES[index].bound:
            break
        home = index
    return home


def _remembered(fn, scope: _Scope, slot: int):
    def run(ctx):
        memo = scope.memo
        if memo is None:
            return fn(ctx)
        value = memo[slot]
        if value is _UNSET:
            value = memo[slot] = fn(ctx)
        return value

    return run


def _scoped(scope: _Scope, ir):
    """Compile `ir` inside `scope` (a `where` or `prefer`)."""
    counts: dict[str, int] = {}
    _repeats(ir, counts)
    scope.repeated |= {key for key, n in counts.items() if n > 1}
    _SCOPES.append(scope)
    try:
        return expr(ir)
    finally:
        _SCOPES.pop()


# ---- expressions ---------------------------------------------------------------------------------
#
# An expression is compiled to the source of one Python function (``compile`` at load time): operators,
# attribute reads, calls and comparisons are written inline, its variables read as locals, so evaluating
# `route(z, z.space, s) <= 1` is a few calls instead of a closure per node. A node that needs more than an
# expression (a selection, a remembered sub-expression) is a closure the generated source calls. The
# meaning of every node is exactly that of the closure builders below (_name, _attr, _call, …), which
# remain for those nodes and for what the generator does not handle.

class _Gen:
    """The source of one generated function being written: its namespace (helpers and constants)."""

    __slots__ = ("ns", "n")

    def __init__(self) -> None:
        self.ns = dict(_HELPERS)
        self.n = 0

    def const(self, value) -> str:
        self.n += 1
        name = f"_k{self.n}"
        self.ns[name] = value
        return name

    def tmp(self) -> str:
        self.n += 1
        return f"_t{self.n}"


GENERATE = True  # False: every expression as nested closures (the generator's reference; tests compare the two)


def expr(ir):
    if ir is None:
        return lambda ctx: None
    if not GENERATE:
        return _closure_expr(ir)
    gen = _Gen()
    src = _code(gen, ir)
    if src.startswith("_k") and src.endswith("(ctx)") and src[2:-5].isdigit():
        return gen.ns[src[:-5]]  # one closure: itself, not a function that calls it
    text = f"def _expr(ctx):\n    return {src}\n"
    exec(compile(text, "<rule expression>", "exec"), gen.ns)
    fn = gen.ns["_expr"]
    chain = ir.get("chain") if isinstance(ir, dict) else None
    if chain and len(chain) == 3 and chain[1] == "==" and chain[2] == {"name": "self"} and "name" in chain[0] \
            and len(chain[0]) == 1 and not _SCOPES:
        fn.self_test = chain[0]["name"]  # `NAME == self` (a card's `when card == self`): Game._applies may test it
    return fn


def _code(gen: _Gen, ir) -> str:
    """Python source of `ir`, an expression reading `ctx` (as expr(ir) would work it out)."""
    if ir is None:
        return "None"
    for key, build in _EXPR:
        if key in ir:
            found = _remembering(key, ir, lambda node: _node_fn(key, node))
            if found is None:
                return _node_code(gen, key, ir)
            table, scope, slot, fn = found  # the remembered value read inline; the first time, the wrapper works it out
            wrapper = _remembered if table == "memo" else _per_item
            m, v = gen.tmp(), gen.tmp()
            return (f"({v} if ({m} := {gen.const(scope)}.{table}) is not None and ({v} := {m}[{slot}]) "
                    f"is not _UNSET else {gen.const(wrapper(fn, scope, slot))}(ctx))")
    raise RuleError(f"cannot evaluate {ir!r}")


def _closure_expr(ir):
    """`ir` as nested closures, one per node (the builders below), remembering as _code does."""
    for key, build in _EXPR:
        if key in ir:
            found = _remembering(key, ir, build)
            if found is None:
                return build(ir)
            table, scope, slot, fn = found
            return (_remembered if table == "memo" else _per_item)(fn, scope, slot)
    raise RuleError(f"cannot evaluate {ir!r}")


def _remembering(key: str, ir, build):
    """Where a node compiled inside scopes is remembered, with the node itself built by `build`:
    ("memo", scope, slot, fn) when it has one value for every item of an enclosing scope (worked out once
    per run of that scope); ("per_item", scope, slot, fn) when it depends on the item but is pure and
    written more than once (worked out once per item); None when it is not remembered."""
    if not (_SCOPES and key in _WORTH):
        return None
    home = _home(ir)
    if home is not None:
        scope, outer = _SCOPES[home], _SCOPES[home:]
        del _SCOPES[home:]  # inside, every part is worked out once per run of `scope` anyway
        try:
            fn = build(ir)
        finally:
            _SCOPES.extend(outer)
        slot = scope.slots.setdefault(_canon(ir), scope.size)  # the same sub-expression: one slot
        scope.size = max(scope.size, slot + 1)
        return "memo", scope, slot, fn
    owner = _owner(ir) if key != "name" else None
    if owner is None:
        return None
    scope = _SCOPES[owner]
    slot = scope.shared.setdefault(_canon(ir), len(scope.shared))
    return "per_item", scope, slot, build(ir)


def _node_fn(key: str, ir):
    """The node itself (no remembering at its top) as a function of ctx."""
    gen = _Gen()
    src = _node_code(gen, key, ir)
    if src.startswith("_k") and src.endswith("(ctx)") and src[2:-5].isdigit():
        return gen.ns[src[:-5]]
    text = f"def _expr(ctx):\n    return {src}\n"
    exec(compile(text, "<rule expression>", "exec"), gen.ns)
    return gen.ns["_expr"]


def _node_code(gen: _Gen, key: str, ir) -> str:
    if key == "lit":
        value = _lit(ir)
        if value is None or type(value) in (bool, int, str):
            return repr(value)
        return gen.const(value)
    if key == "name":
        name = ir["name"]
        for scope in reversed(_SCOPES):  # the item of an enclosing selection or choice
            if name in scope.bound:
                return f"{gen.const(scope)}.item"
        n = repr(name)
        t = gen.tmp()
        return f"({t}[{n}] if {n} in ({t} := ctx.env) else _lookup(ctx, {n}))"
    if key == "attr":
        return f"{gen.const(_getter(ir['attr']))}(ctx, {_code(gen, ir['of'])})"
    if key == "call":
        return _call_code(gen, ir)
    if key == "list":
        return "[" + "".join(_code(gen, i) + ", " for i in ir["list"]) + "]"
    if key == "op":
        return _op_code(gen, ir)
    if key == "chain":
        chain = ir["chain"]
        if len(chain) == 3 and chain[1] == "*" and _free(chain[2])[1]:  # as _binary: nothing times X is 0
            t = gen.tmp()
            return (f"(0 if ({t} := {_code(gen, chain[0])}) is None or (type({t}) in _ZERO_TYPES and {t} == 0) "
                    f"else _arith2(ctx, '*', {t}, {_code(gen, chain[2])}))")
        if len(chain) == 3:
            return _binary_code(gen, _code(gen, chain[0]), chain[1], _code(gen, chain[2]))
        return gen.const(_chain(ir)) + "(ctx)"
    return gen.const(_select(ir)) + "(ctx)"


def _call_code(gen: _Gen, ir) -> str:
    name = ir["call"]
    fn = FUNCTIONS.get(name)
    if fn is None:
        raise RuleError(f"the engine has no function `{name}`")
    args = [_code(gen, _first_only(a) if name == "any" else a) for a in ir["args"]]
    if name in _SELECTING and len(ir["args"]) == 1:
        whole = _kind_in_place(ir["args"][0], None)
        if whole is not None:
            args[0] = gen.const(whole) + "(ctx)"
    if name == "stat" and len(ir["args"]) == 2 and "name" in ir["args"][1]:
        args[1] = repr(ir["args"][1]["name"])  # `stat(h, health)`: the second argument names a stat
    if name in ("count", "any") and len(args) == 1:
        t = gen.tmp()
        sel = f"({t} if type({t} := {args[0]}) is list else ctx.table.selection({t}))"
        return f"len({sel})" if name == "count" else f"(True if {sel} else False)"
    return f"{gen.const(fn)}(ctx{''.join(', ' + a for a in args)})"


def _first_only(ir):
    """`any(KIND v where TEST)` needs only the first item that passes: the selection marked to stop there,
    when TEST is pure (no dice or chance, so testing fewer items changes nothing but the time taken)."""
    if isinstance(ir, dict) and "select" in ir and ir.get("where") is not None and _free(ir["where"])[1]:
        return {**ir, "_first": True}
    return ir


def _op_code(gen: _Gen, ir) -> str:
    op, args = ir["op"], [_code(gen, a) for a in ir["args"]]
    if op == "not":
        return f"(not {args[0]})"
    if op == "-":
        return f"(-{args[0]})"
    joined = (" and " if op == "and" else " or ").join(args)
    return f"(True if ({joined}) else False)"


def _binary_code(gen: _Gen, left: str, op: str, right: str) -> str:
    """One comparison or arithmetic operation, as _binary works it out (operands left to right, except
    `in`, whose container is worked out first)."""
    if op == "has":
        return f"(True if ctx.table.has({left}, {right}) else False)"
    if op == "in":
        return f"(True if ctx.table.contains({right}, {left}) else False)"
    if op == "not in":
        return f"(False if ctx.table.contains({right}, {left}) else True)"
    if op == "is":
        return f"(True if ctx.table.is_({left}, {right}) else False)"
    helper = _BINARY_HELPERS.get(op)
    if helper is not None:
        return f"{helper}(ctx, {left}, {right})"
    return f"_arith2(ctx, {op!r}, {left}, {right})"


def _getter(name: str):
    """`THING.name` as a function (ctx, thing): a unit's record read directly (Table.attribute's first
    case, the fields of Table._record_attribute inline), anything else through Table.attribute."""
    from spawnpit.engine.table import _FIELDS

    if name in _FIELDS and name != "name":  # (a unit's or card's name is its prototype's title: below)
        key, kind = ("where" if name == "owner" else name), _FIELDS[name]

        def get(ctx, thing):
            if type(thing) is Ref and (thing.kind == "unit" or thing.kind == "card"):
                record = ctx.game.state["units" if thing.kind == "unit" else "cards"].get(thing.id)
                if record is not None:
                    value = record.get(key)
                    if kind is None or value is None:
                        return value
                    table = ctx.table
                    return table.ref(kind, value) if kind in table._refs else Ref(kind, value)
            return ctx.table.attribute(thing, name)

        return get

    def get(ctx, thing):
        if type(thing) is Ref:
            kind = thing.kind
            if kind == "unit" or kind == "card":  # Table.attribute's first and last cases, sooner
                record = ctx.game.state["units" if kind == "unit" else "cards"].get(thing.id)
                if record is not None:
                    return ctx.table._record_attribute(record, name)
        return ctx.table.attribute(thing, name)

    return get


def _lookup(ctx, name: str):
    """A name not in the context's own variables: its enclosing contexts', else the game's."""
    c = ctx.parent
    while c is not None:
        env = c.env
        if name in env:
            return env[name]
        c = c.parent
    return ctx.game.lookup(name)


# The comparisons the generated source calls, one function per operator, all written from one template:
# a reference stands for its id, a track for its value (Table.value); an order treats nothing as 0.
_COMPARISON = """def {name}(ctx, a, b):
    if type(a) is Ref:
        a = a.id if a.kind != "track" else ctx.table.value(a)
    if type(b) is Ref:
        b = b.id if b.kind != "track" else ctx.table.value(b)
    try:
        return True if {test} else False
    except TypeError:
        raise unordered({op!r}, a, b) from None
"""
_COMPARISON_TESTS = {"_eq": ("==", "a == b"), "_ne": ("!=", "not (a == b)"), "_lt": ("<", "(a or 0) < (b or 0)"),
                     "_le": ("<=", "(a or 0) <= (b or 0)"), "_gt": (">", "(a or 0) > (b or 0)"),
                     "_ge": (">=", "(a or 0) >= (b or 0)")}


def unordered(op: str, a, b) -> RuleError:
    """The error of `a < b` (or <=, >, >=) where the two cannot be put in order: a number and a name."""
    return RuleError(f"`{op}` compares numbers, not {a!r} and {b!r}")


_made: dict = {"Ref": Ref, "unordered": unordered}
for _fn, (_op, _test) in _COMPARISON_TESTS.items():
    exec(compile(_COMPARISON.format(name=_fn, op=_op, test=_test), f"<comparison {_fn}>", "exec"), _made)
_eq, _ne, _lt, _le, _gt, _ge = (_made[n] for n in _COMPARISON_TESTS)


def _arith2(ctx, op, a, b):
    value = ctx.table.value
    return _arith(op, _num(value(a)), _num(value(b)))


_BINARY_HELPERS = {"==": "_eq", "!=": "_ne", "<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge"}
_HELPERS: dict = {}  # filled below, once the helpers exist


def _name(ir):
    name = ir["name"]
    for scope in reversed(_SCOPES):  # the item of an enclosing selection or choice
        if name in scope.bound:
            return lambda ctx: scope.item

    def run(ctx):
        env = ctx.env
        return env[name] if name in env else _lookup(ctx, name)

    return run


def _attr(ir):
    of, name = expr(ir["of"]), ir["attr"]

    def run(ctx):
        thing = of(ctx)
        if type(thing) is Ref and thing.kind == "unit":  # Table.attribute's first case, one call sooner
            record = ctx.game.state["units"].get(thing.id)
            if record is not None:
                return ctx.table._record_attribute(record, name)
        return ctx.table.attribute(thing, name)

    return run


_SELECTING = {"count", "any", "all", "list", "random"}


def _kind_in_place(ir, whole):
    """`count(zombie in s)`: inside a function that takes a selection, `KIND in PLACE` is every unit of
    that kind in the place (not whether there is one); any other `x in y` keeps its yes/no meaning."""
    chain = ir.get("chain") if isinstance(ir, dict) else None
    if not (chain and len(chain) == 3 and chain[1] == "in" and isinstance(chain[0], dict) and "name" in chain[0]):
        return whole
    if whole is None:
        whole = expr(ir)
    left, right = expr(chain[0]), expr(chain[2])

    def run(ctx):
        what = left(ctx)
        if isinstance(what, Ref) and what.kind == "kind":
            return ctx.table.pool(what.id, right(ctx))
        return whole(ctx)
    return run


def _call(ir):
    fn = FUNCTIONS.get(ir["call"])
    if fn is None:
        raise RuleError(f"the engine has no function `{ir['call']}`")
    args = [expr(a) for a in ir["args"]]
    if ir["call"] in _SELECTING and len(ir["args"]) == 1:
        args[0] = _kind_in_place(ir["args"][0], args[0])
    if ir["call"] == "stat" and len(ir["args"]) == 2 and "name" in ir["args"][1]:
        name = ir["args"][1]["name"]  # `stat(h, health)`: the second argument names a stat, it is not a value
        args[1] = lambda ctx: name
    if ir["call"] == "count" and len(args) == 1:
        a = args[0]
        return lambda ctx: len(ctx.table.selection(a(ctx)))
    if ir["call"] == "any" and len(args) == 1:
        a = args[0]
        return lambda ctx: bool(ctx.table.selection(a(ctx)))
    if len(args) == 0:
        return lambda ctx: fn(ctx)
    if len(args) == 1:
        a = args[0]
        return lambda ctx: fn(ctx, a(ctx))
    if len(args) == 2:
        a, b = args
        return lambda ctx: fn(ctx, a(ctx), b(ctx))
    if len(args) == 3:
        a, b, c = args
        return lambda ctx: fn(ctx, a(ctx), b(ctx), c(ctx))
    return lambda ctx: fn(ctx, *[a(ctx) for a in args])


def _list(ir):
    items = [expr(i) for i in ir["list"]]
    return lambda ctx: [i(ctx) for i in items]


def _op(ir):
    op, args = ir["op"], [expr(a) for a in ir["args"]]
    if op == "not":
        a = args[0]
        return lambda ctx: not a(ctx)
    if op == "-":
        a = args[0]
        return lambda ctx: -a(ctx)
    if len(args) == 2:
        a, b = args
        if op == "and":
            return lambda ctx: bool(a(ctx) and b(ctx))
        return lambda ctx: bool(a(ctx) or b(ctx))
    if op == "and":
        return lambda ctx: all(a(ctx) for a in args)
    return lambda ctx: any(a(ctx) for a in args)


_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "in", "has", "is", "not in"}


def _chain(ir):
    first = expr(ir["chain"][0])
    rest = [(op, expr(e)) for op, e in zip(ir["chain"][1::2], ir["chain"][2::2])]
    if len(rest) == 1:
        return _binary(first, *rest[0], skips=rest[0][0] == "*" and _free(ir["chain"][2])[1])

    def run(ctx):
        left = first(ctx)
        result = left
        for op, operand in rest:
            right = operand(ctx)
            if op in _COMPARISONS:
                if not ctx.table.compare(op, left, right):
                    return False
                result = True
            else:
                result = _arith(op, _num(ctx.table.value(left)), _num(ctx.table.value(right)))
            left = right if op in _COMPARISONS else result
        return result

    return run


def _binary(left, op, right, skips: bool = False):
    """One comparison or one arithmetic operation: the commonest chains, without the loop. A comparison
    gives True or False, as the general chain does. `A * B` with A nothing or a plain 0 is 0, B not worked
    out, when `skips` (B is pure, so leaving it out changes nothing): `brawler * -min(nearest(s, zombie),
    30)` in a `prefer` costs nothing for a Hero who is no brawler, and 0 times an endless distance is 0."""
    if op == "has":
        return lambda ctx: True if ctx.table.has(left(ctx), right(ctx)) else False
    if op == "in":
        return lambda ctx: True if ctx.table.contains(right(ctx), left(ctx)) else False
    if op == "not in":
        return lambda ctx: False if ctx.table.contains(right(ctx), left(ctx)) else True
    if op == "is":
        return lambda ctx: True if ctx.table.is_(left(ctx), right(ctx)) else False
    if op in ("==", "!="):
        equal = op == "=="

        def same(ctx):
            a, b = left(ctx), right(ctx)
            if type(a) is Ref:  # a reference stands for its id, a track for its value (Table.value)
                a = a.id if a.kind != "track" else ctx.table.value(a)
            if type(b) is Ref:
                b = b.id if b.kind != "track" else ctx.table.value(b)
            return (True if a == b else False) is equal

        return same
    if op in _ORDER:
        test = _ORDER[op]

        def order(ctx):
            a, b = left(ctx), right(ctx)
            if type(a) is Ref:
                a = a.id if a.kind != "track" else ctx.table.value(a)
            if type(b) is Ref:
                b = b.id if b.kind != "track" else ctx.table.value(b)
            try:
                return True if test(a or 0, b or 0) else False
            except TypeError:
                raise unordered(op, a, b) from None

        return order

    def arith(ctx):
        a, b = left(ctx), right(ctx)
        value = ctx.table.value
        return _arith(op, _num(value(a)), _num(value(b)))

    if op == "*" and skips:
        def times(ctx):
            a = left(ctx)
            if a is None or (type(a) in _ZERO_TYPES and a == 0):
                return 0
            value = ctx.table.value
            return _arith(op, _num(value(a)), _num(value(right(ctx))))

        return times
    return arith


_ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _num(value):
    if isinstance(value, tuple) and value and value[0] == "dice":
        raise RuleError("dice must be rolled before they are added: use roll(2D6)")
    if value is None:
        return 0
    return value


def _arith(op, a, b):
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return a // b if isinstance(a, int) and isinstance(b, int) and b and a % b == 0 else (a / b if b else 0)
    return a % b if b else 0


def _select(ir):
    kind, var = ir["select"], ir["var"]
    source = expr(ir.get("in")) if ir.get("in") else None
    if not ir.get("where"):
        if source is None:
            return lambda ctx: ctx.table.pool(kind, None)
        return lambda ctx: ctx.table.pool(kind, source(ctx))
    near = _near_form(ir) if not ir.get("_plain") else None
    if near is not None:
        return _select_near(ir, *near)
    among = _among_form(ir) if not ir.get("_plain") else None
    if among is not None:
        return _select_among(ir, among)
    having = _having_any_form(ir) if not ir.get("_plain") else None
    if having is not None:
        return _select_having_any(ir, having)
    hoisted = _hoisted(ir)
    if hoisted is not None:
        return _select({**hoisted, "_first": True} if ir.get("_first") else hoisted)
    first = bool(ir.get("_first"))  # (`any`: the first item that passes is enough; see _first_only)
    scope = _Scope({var})
    what, rest = _has_first(ir["where"], var)
    if what is not None:  # `c has item and …`: the `has` test first, over the whole pool at once
        what, rest = _scoped(scope, what), (_scoped(scope, rest) if rest is not None else None)
    where = _scoped(scope, ir["where"])

    def run(ctx):
        src = source(ctx) if source is not None else None
        pool = ctx.table.pool(kind, src)
        if not pool:
            return []
        saved = scope.memo, scope.item, scope.per_item
        scope.memo = scope.fresh()
        try:
            out = []
            if what is not None:
                wanted = what(ctx)
                kept = ctx.table.having(pool, wanted, None if isinstance(src, list) else kind)
                if kept is None:  # `has` would make records (a space's markers): item by item, as written
                    has = ctx.table.has
                    kept = (item for item in pool if has(item, wanted))
                shared = len(scope.shared)
                for item in kept:
                    scope.item = item  # scope.enter(item), inline
                    if shared:
                        scope.per_item = [_UNSET] * shared
                    if rest is None or rest(ctx):
                        out.append(item)
                        if first:
                            break
                return out
            shared = len(scope.shared)
            for item in pool:
                scope.item = item
                if shared:
                    scope.per_item = [_UNSET] * shared
                if where(ctx):
                    out.append(item)
                    if first:
                        break
            return out
        finally:
            scope.memo, scope.item, scope.per_item = saved

    return run


def _hoisted(ir):
    """A selection compiled inside an enclosing selection or choice (a `where`, a `prefer`) whose `where`
    starts with tests that do not read the enclosing items (`card w in unit where w.range and w.to_hit and
    any(zombie z where … s …)` while scoring each space s): the same selection over the items that pass
    those tests, `KIND v in (KIND v in SRC where FIRST) where REST`, else None. The inner selection has one
    value for every item of the enclosing scope, so it is worked out once per run of that scope (see
    _remembering) instead of once per item; the order of the items is kept. Only pure tests are moved, so
    they are worked out no more often than as written and their answers cannot differ."""
    where = ir["where"]
    if not _SCOPES or not (isinstance(where, dict) and where.get("op") == "and"):
        return None
    enclosing = frozenset().union(*(scope.bound for scope in _SCOPES))
    if ir.get("in") is not None:
        names, pure = _free(ir["in"])
        if not pure or names & enclosing:
            return None
    args, k = where["args"], 0
    while k < len(args):
        names, pure = _free(args[k])
        if not pure or (names - {ir["var"]}) & enclosing:
            break
        k += 1
    if k == 0 or k == len(args):  # nothing to move, or the whole selection is already worked out once
        return None
    first = args[0] if k == 1 else {"op": "and", "args": args[:k]}
    rest = args[k] if k == len(args) - 1 else {"op": "and", "args": args[k:]}
    inner = {"select": ir["select"], "var": ir["var"], "where": first}
    if ir.get("in") is not None:
        inner["in"] = ir["in"]
    return {"select": ir["select"], "var": ir["var"], "in": inner, "where": rest}


def _among_form(ir):
    """`KIND v where v == X or v in LIST or …` (X and LIST pure, not reading v): the tests as
    [("==" or "in", IR)], else None."""
    var, where = ir["var"], ir["where"]
    args = where["args"] if isinstance(where, dict) and where.get("op") == "or" else [where]
    tests = []
    for arg in args:
        chain = arg.get("chain") if isinstance(arg, dict) else None
        if not chain or len(chain) != 3 or chain[1] not in ("==", "in") or chain[0] != {"name": var}:
            return None
        names, pure = _free(chain[2])
        if not pure or var in names:
            return None
        tests.append((chain[1], chain[2]))
    return tests


def _select_among(ir, tests):
    """The items of the pool equal to one of the X or in one of the LISTs (`_among_form`), in pool order:
    the X and LISTs worked out once, then each item looked up in a set, instead of the `where` item by
    item. `v == X` compares as `==` does (a reference by its id, a track by its value); `v in LIST` as
    `in` does on a list; anything else (LIST not a list, an item or X not a plain reference) falls back
    to the `where` as written."""
    general = _select({**ir, "_plain": True})
    kind = ir["select"]
    source = expr(ir.get("in")) if ir.get("in") else None
    parts = [(op, expr(part)) for op, part in tests]

    def run(ctx):
        pool = ctx.table.pool(kind, source(ctx) if source is not None else None)
        if not pool:
            return []
        ids, refs = set(), set()
        for op, part in parts:
            try:
                value = part(ctx)
            except RuleError:  # as written, the `where` may never have needed it: it says
                return general(ctx)
            if op == "==":
                if type(value) is not Ref or value.kind == "track":
                    return general(ctx)
                ids.add(value.id)
            elif isinstance(value, list) and all(type(v) is Ref for v in value):
                refs.update(value)
            else:
                return general(ctx)
        if not all(type(item) is Ref for item in pool):
            return general(ctx)
        return [item for item in pool if item.id in ids or item in refs]

    return run


def _having_any_form(ir):
    """`KIND v where v has X or v has Y …` (two or more tests, each X a name other than v): the names'
    IR, else None."""
    var, where = ir["var"], ir["where"]
    if not (isinstance(where, dict) and where.get("op") == "or" and len(where["args"]) >= 2):
        return None
    names = []
    for arg in where["args"]:
        chain = arg.get("chain") if isinstance(arg, dict) else None
        if not chain or len(chain) != 3 or chain[1] != "has" or chain[0] != {"name": var}:
            return None
        if not (isinstance(chain[2], dict) and set(chain[2]) == {"name"}) or chain[2]["name"] == var:
            return None
        names.append(chain[2])
    return names


def _select_having_any(ir, names):
    """The items of the pool that have any of the names (`_having_any_form`), in pool order: each name's
    items found by Table.having over the whole pool at once (a keyword or marker looked up in each
    record), instead of `has` item by item and name by name; as written when Table.having cannot answer
    without changing anything."""
    general = _select({**ir, "_plain": True})
    kind = ir["select"]
    source = expr(ir.get("in")) if ir.get("in") else None
    wanted = [expr(n) for n in names]

    def run(ctx):
        src = source(ctx) if source is not None else None
        pool = ctx.table.pool(kind, src)
        if not pool:
            return []
        made = None if isinstance(src, list) else kind
        found = set()
        for what in wanted:
            kept = ctx.table.having(pool, what(ctx), made)
            if kept is None or not all(type(item) is Ref for item in kept):
                return general(ctx)
            found.update(map(id, kept))  # the pool's own objects, alive while it is
        return [item for item in pool if id(item) in found] if found else []

    return run


def _near_form(ir):
    """`KIND v where route(v, v.space, PLACE) <= N` (or `< N`), PLACE and N pure and not reading v, the
    whole board's units of the kind: (PLACE, op, N), else None."""
    var, where = ir["var"], ir["where"]
    chain = where.get("chain") if isinstance(where, dict) else None
    if ir.get("in") or not chain or len(chain) != 3 or chain[1] not in ("<=", "<"):
        return None
    call = chain[0]
    if not (isinstance(call, dict) and call.get("call") == "route" and len(call["args"]) == 3):
        return None
    unit, start, place = call["args"]
    if unit != {"name": var} or start != {"attr": "space", "of": {"name": var}}:
        return None
    for part in (place, chain[2]):
        names, pure = _free(part)
        if not pure or var in names:
            return None
    return place, chain[1], chain[2]


def _select_near(ir, place_ir, op: str, limit_ir):
    """The units of a kind within N moves of a place (`_near_form`), from a table worked out once for
    every place while no unit enters or leaves and none of the kind moves: for each unit in table order, the spaces its kind
    can reach from where it stands within N (the board's cached search, read in order of distance), so
    scoring a hundred spaces by how many Zombies could step into each looks each one up. The same list,
    in the same order, as testing `route` unit by unit (what it falls back to when the table cannot be
    kept: no board, or unit records the game does not index)."""
    general = _select({**ir, "where": {"chain": [{"call": "route", "args": [
        {"name": ir["var"]}, {"attr": "space", "of": {"name": ir["var"]}}, place_ir]}, op, limit_ir]},
        "_plain": True})
    kind, place, limit = ir["select"], expr(place_ir), expr(limit_ir)
    inclusive = op == "<="

    def run(ctx):
        game = ctx.game
        board = game.board
        n = limit(ctx)
        views = _unit_views(game, kind) if board is not None else None
        if views is None or type(n) not in (int, float):
            return general(ctx)
        key = ("near", kind, n, inclusive)
        table = views.get(key)
        if table is None:
            table = views[key] = _near_table(game, ctx.table.pool(kind, None), n, inclusive)
        if table is False:  # no unit of the kind on the board: nothing to be near, PLACE not worked out
            return []
        to = place(ctx)
        to = to.id if type(to) is Ref and to.kind == "space" else game.space_ref(to).id
        found = table.get(to)
        return list(found) if found is not None else []

    return run


def _unit_views(game, kind: str) -> dict | None:
    """Where to keep what is worked out from the places of the units of `kind` on the board: kept while
    only units of other kinds move (every move, for `unit`: any kind); None when it cannot be kept."""
    index, units = game._unit_index, game.state["units"]
    return index.kind_views(units, kind) if kind in game.model.kinds else index.views_of(units)


def _near_table(game, pool: list, n, inclusive: bool):
    """space id → the units of `pool` (in its order) whose route from their own space there is within n."""
    if not pool:
        return False
    table: dict = {}
    units, through_of, board = game.state["units"], game.derived.through, game.board
    spaces = board.spaces
    for unit in pool:
        record = units[unit.id]
        through = through_of.get(record["kind"]) or _movement._rules(game, unit)[0]
        dist = board.row(record["space"], through)
        for at in board.order(record["space"], through):  # nearest first
            d = dist[at]
            if d > n or (d == n and not inclusive):
                break
            space = spaces[at]
            kept = table.get(space)
            if kept is None:
                table[space] = [unit]
            else:
                kept.append(unit)
    return table


def _has_first(where, var):
    """`VAR has X` or `VAR has X and REST…` with X a name other than VAR: (X, REST or None). The items
    are tested with `has` first (all at once, by Table.having, when that changes nothing; else one by
    one, each followed by REST as the `and` would), then REST for those that have X."""
    first, rest = where, None
    if isinstance(where, dict) and where.get("op") == "and" and len(where["args"]) >= 2:
        first = where["args"][0]
        rest = where["args"][1] if len(where["args"]) == 2 else {"op": "and", "args": where["args"][1:]}
    chain = first.get("chain") if isinstance(first, dict) else None
    if not (chain and len(chain) == 3 and chain[1] == "has" and chain[0] == {"name": var}):
        return None, None
    if not (isinstance(chain[2], dict) and "name" in chain[2]) or chain[2]["name"] == var:
        return None, None  # X a name: reading it changes nothing, so it is read once, before the items
    return chain[2], rest


def _const(value):
    return lambda ctx: value


_ZERO_TYPES = (int, bool)
_HELPERS.update(_ZERO_TYPES=_ZERO_TYPES, _UNSET=_UNSET, _lookup=_lookup, _eq=_eq, _ne=_ne, _lt=_lt, _le=_le, _gt=_gt, _ge=_ge, _arith2=_arith2,
                Ref=Ref)

_EXPR = (("lit", lambda ir: _const(_lit(ir))), ("name", _name), ("attr", _attr),
         ("call", _call), ("list", _list), ("op", _op), ("chain", _chain), ("select", _select))


def _sel(ctx, value):
    return ctx.table.selection(value)


FUNCTIONS = {
    "count": lambda ctx, sel: len(_sel(ctx, sel)),
    "any": lambda ctx, sel: bool(_sel(ctx, sel)),
    "all": lambda ctx, sel: all(_sel(ctx, sel)),
    "roll": lambda ctx, dice: sum(ctx.roll(dice, reason="roll()")),
    "min": lambda ctx, *xs: min(xs) if xs else 0,
    "max": lambda ctx, *xs: max(xs) if xs else 0,
    "random": lambda ctx, sel: (lambda pool: ctx.chance.choice(pool) if pool else None)(_sel(ctx, sel)),
    "distance": lambda ctx, a, b: ctx.table.distance(a, b),
    "adjacent": lambda ctx, a, b: ctx.table.distance(a, b) == 1,
    "sight": lambda ctx, a, b: ctx.table.sight(a, b),
    "stat": lambda ctx, unit, name: ctx.table.attribute(unit, name.id if isinstance(name, Ref) else name),
    "list": lambda ctx, sel: list(_sel(ctx, sel)),
    "highest": lambda ctx, pool: max(_dice(pool), default=0),
    "lowest": lambda ctx, pool: min(_dice(pool), default=0),
    "doubles": lambda ctx, pool: len(set(_dice(pool))) < len(_dice(pool)),
    "dice": lambda ctx, pool: len(_dice(pool)),
    "below": lambda ctx, pool, n: [d for d in _dice(pool) if d < n],
    "reach": lambda ctx, unit, n: _movement.reach(ctx.game, unit, n),
    "steps": lambda ctx, unit, place: _movement.steps(ctx.game, unit, ctx.game.space_ref(place).id),
    "route": lambda ctx, unit, a, b: _movement.route(ctx.game, unit, ctx.game.space_ref(a).id, ctx.game.space_ref(b).id),
    "nearest": lambda ctx, place, sel: ctx.table.nearest(place, _sel(ctx, sel)),
}


def _steps(ctx, unit, place):
    """`steps(unit, place)`: movement.steps with the place and the board's cached row looked up inline."""
    game = ctx.game
    to = place.id if type(place) is Ref and place.kind == "space" else game.space_ref(place).id
    board = game.board
    if board is None:
        return _INF
    record = game.state["units"][unit.id]
    start = record["space"]
    if start is None:
        return _INF
    through = game.derived.through.get(record["kind"]) or _movement._rules(game, unit)[0]
    return board.between(start, to, through)


def _route(ctx, unit, a, b):
    """`route(unit, a, b)`: movement.route with the places and the board's cached row looked up inline.
    b's row is the one worked out when neither end has one: rules try one space a after another against
    the same b (a Zombie's next spaces against a Hero's space), so b's row serves again (a third fewer
    rows worked out in a Die Zombies, Die! game)."""
    game = ctx.game
    start = a.id if type(a) is Ref and a.kind == "space" else game.space_ref(a).id
    to = b.id if type(b) is Ref and b.kind == "space" else game.space_ref(b).id
    board = game.board
    if board is None:
        return _INF
    through = game.derived.through.get(game.state["units"][unit.id]["kind"]) or _movement._rules(game, unit)[0]
    return board.between(to, start, through)


def _sight(ctx, a, b):
    """`sight(a, b)`: Table.sight, with spaces and the board's cached answer read inline."""
    a = a.id if type(a) is Ref and a.kind == "space" else _where(ctx, a)
    b = b.id if type(b) is Ref and b.kind == "space" else _where(ctx, b)
    board = ctx.game.board
    if not board:
        return True
    found = board._cache.get(("los0", a, b))
    return found if found is not None else board.line_of_sight(a, b)


def _apart(ctx, a, b):
    """`apart(a, b)`: Table.apart (Board.distance across every edge), with units' spaces read inline."""
    board = ctx.game.board
    if board is None:
        return 0
    if type(b) is Ref and b.kind == "unit" and not (type(a) is Ref and a.kind == "unit"):
        # a unit's space first: its row serves again while a rule tries one space after another against it
        return board.between(_where(ctx, b), _where(ctx, a), _EVERYTHING)
    return board.between(_where(ctx, a), _where(ctx, b), _EVERYTHING)


def _where(ctx, thing) -> str:
    """The space id of a space, or of the space a unit on the board is in (table._space, its two
    commonest cases inline)."""
    if type(thing) is Ref:
        if thing.kind == "space":
            return thing.id
        if thing.kind == "unit":
            record = ctx.game.state["units"].get(thing.id)
            if record is not None and record.get("space") is not None:
                return record["space"]
    return space_of(ctx.table, thing)


space_of = None  # table._space (a thing's space id), set by engine.table, which imports this module


_INF = float("inf")
FUNCTIONS["steps"], FUNCTIONS["route"], FUNCTIONS["sight"], FUNCTIONS["apart"] = _steps, _route, _sight, _apart


def _dice(pool) -> list:
    """The dice of a pool (`roll … into POOL`); a plain number is one die."""
    if isinstance(pool, list):
        return pool
    return [] if pool is None else [pool]




# ---- statements ----------------------------------------------------------------------------------

def block(irs) -> list:
    return [stmt(s) for s in irs]


def run_block(ctx, body) -> None:
    for step in body:
        step(ctx)


def stmt(ir):
    for key, build in _STMT:
        if key in ir:
            return build(ir)
    raise RuleError(f"cannot run {ir!r}")


def _effect(ir):
    from spawnpit.engine.effects import EFFECTS

    verb = ir["do"]
    impl = EFFECTS.get(verb)
    if impl is None:  # the game still loads; only a rule that fires this effect stops, naming itself
        def impl(ctx, what, args):
            raise RuleError(f"the engine cannot run the effect `{verb}` yet")
    what = expr(ir["what"]) if ir.get("what") is not None else None
    if verb == "set":
        what = _target_path(ir["what"])
    names = {"as"} | ({"into"} if verb == "roll" else set())  # these name a variable or pool, not a value
    args = {prep: (value["name"] if prep in names else expr(value)) for prep, value in ir.get("args", {}).items()}
    if verb == "log" and isinstance(ir.get("args", {}).get("with"), dict) and "list" in ir["args"]["with"]:
        # the stat each value of a note reads (`w.out_of_ammo`), if any: a range stat reads "1-2"
        args["stats"] = tuple(item.get("attr") if isinstance(item, dict) else None for item in ir["args"]["with"]["list"])
    return lambda ctx: impl(ctx, what, args)


def _target_path(ir) -> list[str]:
    """`set h.health to 2` names a place to write, not a value: its path, [h, health]."""
    if "name" in ir:
        return [ir["name"]]
    if "attr" in ir and "name" in ir["of"]:
        return [ir["of"]["name"], ir["attr"]]
    raise RuleError("`set` needs a counter, a variable or NAME.STAT")


def _assign(ir):
    target, op, value = ir["assign"], ir["op"], expr(ir["value"])

    def run(ctx):
        new = value(ctx)
        if op != "=":
            old = ctx.table.read_target(ctx, target)
            new = (old or 0) + new if op == "+=" else (old or 0) - new
        ctx.table.write_target(ctx, target, new)

    return run


def _let(ir):
    name, value = ir["let"], expr(ir["value"])

    def run(ctx):
        ctx.env[name] = value(ctx)

    return run


def _if(ir):
    cond, then, orelse = expr(ir["if"]), block(ir["then"]), block(ir["else"])

    def run(ctx):
        for step in (then if cond(ctx) else orelse):
            step(ctx)

    return run


def _for_each(ir):
    select = _select({"select": ir["for_each"], "var": ir["var"], "in": ir.get("in"), "where": ir.get("where")})
    body, var = block(ir["body"]), ir["var"]

    def run(ctx):
        for item in select(ctx):
            run_block(ctx.child({var: item}), body)

    return run


def _choose(ir):
    select = _select({"select": ir["choose"], "var": ir["var"], "in": ir.get("in"), "where": ir.get("where")})
    body, var, optional = block(ir["body"]), ir["var"], ir.get("optional", False)
    by = expr(ir["by"]) if ir.get("by") else None
    scope = _Scope({var})
    prefer = _scoped(scope, ir["prefer"]) if ir.get("prefer") else None
    parts = _parts(scope, ir["prefer"]) if prefer is not None else None
    label = f"choose {ir['choose']}" + (f" {ir['ask']}" if ir.get("ask") else _purpose(ir["body"], var))
    values = expr(ir["ask_with"]) if ir.get("ask_with") is not None else None

    def run(ctx):
        options = select(ctx)
        asked = label if values is None else _filled(ctx, label, values)
        if prefer is None:
            picked = ctx.choose(options, by=by(ctx) if by is not None else None, optional=optional, label=asked)
        else:
            who = by(ctx) if by is not None else None
            saved = scope.memo, scope.item, scope.per_item
            scope.memo = scope.fresh()
            try:
                picked = ctx.choose(options, by=who, optional=optional, label=asked,
                                    prefer=Advice(ctx, scope, prefer, parts))
            finally:
                scope.memo, scope.item, scope.per_item = saved
        if picked is not None:
            run_block(ctx.child({var: picked}), body)

    return run


def _filled(ctx, label: str, values) -> str:
    """A question's text with each `{}` replaced by the next value (said as a note says it)."""
    from spawnpit.engine.effects import _said, fill, listed

    return fill(label, [_said(ctx, v)[0] for v in listed(values(ctx))])


_PURPOSES = {"discard": "to discard", "play": "to play", "give": "to give", "kill": "to kill", "remove": "to remove"}


def _purpose(body: list, var: str) -> str:
    """What a choice is for, said in its label when its body does one of a few things to the thing chosen
    (`choose card c … { discard c }`: "choose card to discard"; `{ self.target = c }`, a card naming its
    target: "to play it on"; the first such statement of the body's own), so a person can tell two questions apart that pick from the same cards (discard one, play one)."""
    for statement in body:
        if isinstance(statement, dict) and statement.get("what") == {"name": var} and statement.get("do") in _PURPOSES:
            return " " + _PURPOSES[statement["do"]]
        if (isinstance(statement, dict) and statement.get("assign") == ["self", "target"]
                and statement.get("value") == {"name": var}):  # a card's `card_target` hook
            return " to play it on"
    return ""


def _parts(scope: _Scope, ir) -> list | None:
    """A `prefer` priority list's criteria compiled one by one (in the same scope, so what they share is
    still worked out once per item), when it is pure: the ai policy can then work out a criterion only
    for the options still tied on the ones before it. None for any other `prefer`."""
    if not (isinstance(ir, dict) and "list" in ir and len(ir["list"]) > 1) or not _free(ir)[1]:
        return None
    _SCOPES.append(scope)
    try:
        return [expr(part) for part in ir["list"]]
    finally:
        _SCOPES.pop()


def criterion(item) -> float:
    """One criterion of a score as a number: yes/no as 1/0; a thing counts as yes when there is one
    (`s.building`), nothing as no."""
    if isinstance(item, (bool, int, float)):
        return float(item)
    return 0.0 if item is None else 1.0


class Advice:
    """The rules' advice on one choice (`choose … prefer EXPR`), for the ai policy: called with an option,
    the whole score; `values(k, indices, options)` one criterion of a priority list (`parts` is not None)
    for several options."""

    __slots__ = ("ctx", "scope", "whole", "parts", "per")

    def __init__(self, ctx, scope: _Scope, whole, parts) -> None:
        self.ctx, self.scope, self.whole, self.parts, self.per = ctx, scope, whole, parts, {}

    def __call__(self, option):
        self.scope.enter(option)
        return self.whole(self.ctx)

    def values(self, k: int, indices: list, options: list) -> list[float]:
        """Criterion k of a priority list for the options at `indices`, each as a number (`criterion`),
        in one loop; each option's remembered sub-expressions are kept between criteria (`per`: option
        index → values)."""
        scope, part, ctx, kept, number = self.scope, self.parts[k], self.ctx, self.per, criterion
        shared, out = len(scope.shared), []
        for i in indices:
            scope.item = options[i]
            if shared:
                per = kept.get(i)
                if per is None:
                    per = kept[i] = [_UNSET] * shared
                scope.per_item = per
            out.append(number(part(ctx)))
        return out


def _choose_option(ir):
    options = [(o["label"], block(o["body"])) for o in ir["choose_option"]]
    prefers = {o["label"]: expr(o["prefer"]) for o in ir["choose_option"] if o.get("prefer")}
    by, optional = expr(ir.get("by")), ir.get("optional", False)

    def run(ctx):
        labels = [label for label, _ in options]
        score = (lambda label: prefers[label](ctx) if label in prefers else None) if prefers else None
        picked = ctx.choose(labels, by=by(ctx) if ir.get("by") else None, optional=optional, label="choose an option",
                            prefer=score)
        if picked is not None:
            run_block(ctx, options[labels.index(picked)][1])

    return run


def _repeat(ir):
    count, body = expr(ir["repeat"]), block(ir["body"])

    def run(ctx):
        for _ in range(max(0, int(count(ctx) or 0))):
            run_block(ctx, body)

    return run


def _verdict(key: str):
    def build(ir):
        side = expr(ir[key])
        return lambda ctx: ctx.game.decide(side(ctx), key, ctx.rule)
    return build


_STMT = (("do", _effect), ("assign", _assign), ("let", _let), ("if", _if), ("for_each", _for_each),
         ("choose_option", _choose_option), ("choose", _choose), ("repeat", _repeat), ("win", _verdict("win")),
         ("lose", _verdict("lose")))
