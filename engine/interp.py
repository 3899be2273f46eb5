"""Rule objects' expressions and statements compiled to Python closures once, at load time.

A hook body runs thousands of times per simulated game, so walking its JSON form each time would
dominate; compiling it once to nested closures is the design the benchmark asks for. The meaning of
`in`, `has`, attributes and effects on the table lives in ``table.Table``; this module only builds the
closures and the control flow.
"""

from __future__ import annotations

from spawnpit.engine.state import Ref


class RuleError(Exception):
    """Content asked for something impossible at run time (wounding nothing, drawing from no deck)."""


class EndAction(Exception):
    """`end`: stop the current phase, step or action."""


def _lit(ir):
    kind, value = ir.get("type"), ir["lit"]
    if kind == "dice":
        return ("dice", value[0], value[1])
    if kind == "range":
        return tuple(value)
    return value


# ---- expressions ---------------------------------------------------------------------------------

def expr(ir):
    if ir is None:
        return lambda ctx: None
    for key, build in _EXPR:
        if key in ir:
            return build(ir)
    raise RuleError(f"cannot evaluate {ir!r}")


def _name(ir):
    name = ir["name"]
    return lambda ctx: ctx.lookup(name)


def _attr(ir):
    of, name = expr(ir["of"]), ir["attr"]
    return lambda ctx: ctx.table.attribute(of(ctx), name)


def _call(ir):
    fn = FUNCTIONS.get(ir["call"])
    if fn is None:
        raise RuleError(f"the engine has no function `{ir['call']}`")
    args = [expr(a) for a in ir["args"]]
    if ir["call"] == "stat" and len(ir["args"]) == 2 and "name" in ir["args"][1]:
        name = ir["args"][1]["name"]  # `stat(h, health)`: the second argument names a stat, it is not a value
        args[1] = lambda ctx: name
    return lambda ctx: fn(ctx, *[a(ctx) for a in args])


def _list(ir):
    items = [expr(i) for i in ir["list"]]
    return lambda ctx: [i(ctx) for i in items]


def _op(ir):
    op, args = ir["op"], [expr(a) for a in ir["args"]]
    if op == "not":
        return lambda ctx: not args[0](ctx)
    if op == "-":
        return lambda ctx: -args[0](ctx)
    if op == "and":
        return lambda ctx: all(a(ctx) for a in args)
    return lambda ctx: any(a(ctx) for a in args)


def _chain(ir):
    first = expr(ir["chain"][0])
    rest = [(op, expr(e)) for op, e in zip(ir["chain"][1::2], ir["chain"][2::2])]
    comparisons = {"==", "!=", "<", "<=", ">", ">=", "in", "has", "is", "not in"}

    def run(ctx):
        left = first(ctx)
        result = left
        for op, operand in rest:
            right = operand(ctx)
            if op in comparisons:
                if not ctx.table.compare(op, left, right):
                    return False
                result = True
            else:
                result = _arith(op, _num(ctx.table.value(left)), _num(ctx.table.value(right)))
            left = right if op in comparisons else result
        return result

    return run


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
    source, where = expr(ir.get("in")), (expr(ir["where"]) if ir.get("where") else None)

    def run(ctx):
        pool = ctx.table.pool(kind, source(ctx) if ir.get("in") else None)
        if where is None:
            return pool
        return [item for item in pool if where(ctx.child({var: item}))]

    return run


_EXPR = (("lit", lambda ir: (lambda v: lambda ctx: v)(_lit(ir))), ("name", _name), ("attr", _attr),
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
    "reach": lambda ctx, unit, n: _movement().reach(ctx.game, unit, n),
    "steps": lambda ctx, unit, place: _movement().steps(ctx.game, unit, ctx.game.space_ref(place).id),
    "route": lambda ctx, unit, a, b: _movement().route(ctx.game, unit, ctx.game.space_ref(a).id, ctx.game.space_ref(b).id),
    "nearest": lambda ctx, place, sel: ctx.table.nearest(place, _sel(ctx, sel)),
}


def _dice(pool) -> list:
    """The dice of a pool (`roll … into POOL`); a plain number is one die."""
    if isinstance(pool, list):
        return pool
    return [] if pool is None else [pool]


def _movement():
    from spawnpit.engine import movement

    return movement


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
    return lambda ctx: run_block(ctx, then if cond(ctx) else orelse)


def _for_each(ir):
    select = _select({"select": ir["for_each"], "var": ir["var"], "in": ir.get("in"), "where": ir.get("where")})
    body, var = block(ir["body"]), ir["var"]

    def run(ctx):
        for item in select(ctx):
            run_block(ctx.child({var: item}), body)

    return run


def _choose(ir):
    select = _select({"select": ir["choose"], "var": ir["var"], "in": ir.get("in"), "where": ir.get("where")})
    body, var, by, optional = block(ir["body"]), ir["var"], expr(ir.get("by")), ir.get("optional", False)
    prefer = expr(ir["prefer"]) if ir.get("prefer") else None

    def run(ctx):
        options = select(ctx)
        score = (lambda option: prefer(ctx.child({var: option}))) if prefer is not None else None
        picked = ctx.choose(options, by=by(ctx) if ir.get("by") else None, optional=optional,
                            label=f"choose {ir['choose']}", prefer=score)
        if picked is not None:
            run_block(ctx.child({var: picked}), body)

    return run


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
