"""Checks of property values, and the checks particular to stats, boards, tables, rules and scenarios."""

from __future__ import annotations

from spawnpit.compiler import ast as A
from spawnpit.compiler.exprs import HookChecker, Scope
from spawnpit.compiler.resolve import board_places, grid_names
from spawnpit.compiler.vocab import blocks, first_value, props
from spawnpit.diagnostics import Label, did_you_mean

LIT_KINDS = {"text": ("str",), "int": ("int",), "range": ("range", "int"), "dice": ("dice",), "bool": ("bool",)}
REFS = {  # value kind → (vocabulary attribute or symbol category, code, noun)
    "keyword": ("keywords", "E0205", "keyword"), "stat": ("stats", "E0204", "stat"), "side": ("sides", "E0212", "side"),
    "deck": ("decks", "E0208", "deck"), "mode": ("modes", "E0206", "mode"), "card_type": ("card_types", "E0205", "card type"),
    "board": ("@board", "E0210", "board"), "kind": ("kinds", "E0211", "unit kind"), "card": ("@card", "E0207", "card"), "system": ("@system", "E0105", "system"),
}


BOARD_PATHS = ("link", "wall", "door", "window", "corner", "spawn", "start", "objective")


def _names_for(ck, where: str) -> set[str]:
    if where == "@system":
        return set(ck.res.systems)
    if where.startswith("@"):
        return ck.res.ids(ck.system, where[1:])
    return set(getattr(ck.vocab, where))


def check_value(ck, kind: str, value, prop: A.Prop, local: dict) -> None:
    if kind == "score":  # checked with the scope it runs in (an action's `prefer` sees `unit`): check.block
        return
    if kind in LIT_KINDS:
        if not (isinstance(value, A.Lit) and value.kind in LIT_KINDS[kind]):
            ck.report.error("E0305", f"`{prop.name.value}` takes {kind_noun(kind)}", value.span)
        elif kind == "int" and prop.name.value in ("count", "hand", "cost", "pool", "stacking") and value.value < 0:
            ck.report.error("E0302", f"`{prop.name.value}` cannot be negative", value.span)
        elif kind == "dice":
            HookChecker(ck.report, Scope(ck.res.names[ck.system]), set()).expr(value)
        return
    if kind == "label":
        if not (isinstance(value, A.NameRef) or isinstance(value, A.Lit) and value.kind == "str"):
            ck.report.error("E0305", f"`{prop.name.value}` takes names (quote reserved words: \"by\")", value.span)
        return
    if kind == "flag":
        if not (isinstance(value, A.Lit) and value.kind == "bool"):
            ck.report.error("E0305", f"`{prop.name.value}` takes no value (or true/false)", value.span)
        return
    if kind == "name" and isinstance(value, A.Attr) and A.dotted(value) is not None and prop.name.value in BOARD_PATHS:
        return  # a space of a part board by its path (`town_center.a1`), checked by check_board
    if kind in ("word", "name", "side_or_other"):
        if not isinstance(value, A.NameRef):
            ck.report.error("E0305", f"`{prop.name.value}` takes a name", value.span)
            return
        from spawnpit.compiler.check import WORDS

        allowed = WORDS.get(prop.name.value)
        if kind == "side_or_other":
            allowed = (*ck.vocab.sides, "other")
        if kind != "name" and allowed is not None and value.name not in allowed:
            code = "E0212" if kind == "side_or_other" else "E0305"
            ck.report.error(code, f"`{prop.name.value}` cannot be `{value.name}`", value.span,
                            help=did_you_mean(value.name, allowed) or "one of: " + ", ".join(allowed))
        return
    if kind in REFS:
        where, code, noun = REFS[kind]
        if isinstance(value, A.Lit) and value.kind == "str" and kind in ("card", "board"):
            name = A.slug(str(value.value))
        elif isinstance(value, A.NameRef):
            name = value.name
        else:
            ck.report.error("E0305", f"`{prop.name.value}` takes the name of a {noun}", value.span)
            return
        known = _names_for(ck, where)
        if name not in known:
            ck.report.error(code, f"unknown {noun} `{name}`", value.span, help=did_you_mean(name, known))
        return
    if kind == "rule_call":
        check_rule_call(ck, value)
        return
    scope = Scope(ck.res.names[ck.system], local)
    HookChecker(ck.report, scope, set()).expr(value)


def kind_noun(kind: str) -> str:
    return {"text": "text in quotes", "int": "a whole number", "range": "a range such as 1-4 or a number",
            "dice": "dice such as 2D6", "bool": "true or false"}.get(kind, kind)


def check_stat(ck, owner: A.Block, applies: str, prop: A.Prop) -> None:
    stat = ck.vocab.stats[prop.name.value]
    where = ck.vocab.stat_applies(prop.name.value)
    if applies == "card" and where == "units" or applies == "unit" and where == "cards":
        ck.report.error("E0204", f"`{prop.name.value}` is a stat of {where}, not of a {owner.kind.value}", prop.name.span)
        return
    type_ = first_value(stat, "type")
    type_ = type_.name if isinstance(type_, A.NameRef) else "int"
    if len(prop.values) != 1:
        ck.report.error("E0305", f"`{prop.name.value}` takes one value", prop.span)
        return
    value = prop.values[0]
    expected = {"int": ("int",), "range": ("range", "int"), "target": ("target",), "dice": ("dice", "int"),
                "bool": ("bool",), "text": ("str",)}.get(type_, ("int",))
    if not (isinstance(value, A.Lit) and value.kind in expected):
        ck.report.error("E0305", f"`{prop.name.value}` is a {type_} stat; `{_show(value)}` is not", value.span)
        return
    if type_ == "target":
        die = first_value(stat, "die")
        sides = die.value[1] if isinstance(die, A.Lit) and die.kind == "dice" else 6
        if not 1 <= value.value <= sides:
            ck.report.error("E0302", f"`{prop.name.value} {value.value}+` can never be rolled on a D{sides}", value.span,
                            help=f"targets on a D{sides} go from 1+ to {sides}+")
    if type_ == "int":
        bounds = first_value(stat, "range")
        if isinstance(bounds, A.Lit) and bounds.kind == "range" and not bounds.value[0] <= value.value <= bounds.value[1]:
            ck.report.error("E0302", f"`{prop.name.value} {value.value}` is outside {bounds.value[0]}-{bounds.value[1]}",
                            value.span, labels=[Label(span=bounds.span, message="the system's range for this stat")])
    if type_ == "dice":
        HookChecker(ck.report, Scope(ck.res.names[ck.system]), set()).expr(value)


def _spaces(names) -> str:
    names = sorted(names)
    return "its spaces: " + ", ".join(names[:16]) + (", …" if len(names) > 16 else "")


def _show(value) -> str:
    return str(value.value) if isinstance(value, A.Lit) else getattr(value, "name", type(value).__name__)


# ---- boards ---------------------------------------------------------------------------------------

def check_board(ck, decl: A.Block) -> None:
    spaces, buildings = board_places(decl)
    grid = [v.value for p in props(decl, "grid") for v in p.values if isinstance(v, A.Lit) and v.kind == "int"]
    cells = grid_names(*grid) if len(grid) == 2 else set()
    for value in (v for p in props(decl, "void") for v in p.values):
        if isinstance(value, A.NameRef) and value.name not in cells:
            ck.report.error("E0216", f"board `{decl.id}` has no grid cell `{value.name}` to leave out", value.span,
                            help="`void` takes cells of the board's own `grid` (a1 is the top left)"
                            if cells else "`void` needs a `grid`")
    _check_places(ck, decl)
    for part in (v for p in props(decl, "parts") for v in p.values if isinstance(v, A.NameRef)):
        other = ck.res.lookup(ck.system, "board", part.name)
        if other is not None:
            s, b = board_places(other)
            spaces |= s
            buildings |= b
    names = spaces | buildings
    for name in ("link", "wall", "door", "window"):
        for p in props(decl, name):
            if len(p.values) != 2:
                ck.report.error("E0305", f"`{name}` joins two spaces: `{name} a1, a2`", p.span)
    listed = [v for n in ("link", "wall", "door", "window", "corner", "spawn", "start", "objective") for p in props(decl, n) for v in p.values]
    listed += [v for b in blocks(decl, "building") for p in props(b, "spaces") for v in p.values]
    tails = None
    for value in listed:
        if isinstance(value, A.NameRef) and value.name not in names:
            ck.report.error("E0216", f"board `{decl.id}` has no space `{value.name}`", value.span,
                            help=did_you_mean(value.name, names) or _spaces(names))
        elif isinstance(value, A.Attr) and A.dotted(value) is not None:  # a space of a part, by its path
            if tails is None:
                tails = {".".join(bits[i:]) for path in _paths(ck, decl, ()) for bits in [path.split(".")]
                         for i in range(len(bits))}
            path = A.dotted(value)
            if path not in tails:
                ck.report.error("E0216", f"board `{decl.id}` has no space `{path}`", value.span,
                                help=did_you_mean(path, {t for t in tails if "." in t}) or
                                "a path names a part (or a place of a `pick`), then a space of it: `town_center.a1`")


def _paths(ck, decl: A.Block, seen: tuple) -> set[str]:
    """The paths to the spaces and buildings of a board and of its parts, as an enclosing board writes
    them (`part.space`, `part.inner_part.space`), a place of a `pick` standing for each part it may hold."""
    spaces, buildings = board_places(decl)
    out = spaces | buildings
    if decl.id in seen:
        return out
    inner: set[str] = set()
    for part in (v for p in props(decl, "parts") for v in p.values if isinstance(v, A.NameRef)):
        other = ck.res.lookup(ck.system, "board", part.name)
        if other is not None:
            below = _paths(ck, other, seen + (decl.id,))
            out |= {f"{part.name}.{s}" for s in below}
            inner |= below
    places = [v.name for p in props(decl, "places") for v in p.values if isinstance(v, A.NameRef)]
    return out | {f"{place}.{s}" for place in places for s in inner}


def _check_places(ck, decl: A.Block) -> None:
    """`places`: where the parts a `pick` draws are laid, one place for each part drawn, in draw order;
    an enclosing board joins `BOARD.PLACE.space` to whichever part lies there."""
    places = [v for p in props(decl, "places") for v in p.values]
    if not places:
        return
    pick = first_value(decl, "pick")
    where = next(iter(props(decl, "places"))).span
    if pick is None:
        ck.report.error("E0303", f"board `{decl.id}` has `places` but no `pick`", where,
                        help="`places` lays out the parts `pick N` draws: `pick 4` and four places")
    elif isinstance(pick, A.Lit) and pick.kind == "int" and pick.value != len(places):
        ck.report.error("E0302", f"board `{decl.id}` picks {pick.value} parts but has {len(places)} places", where,
                        help="each part drawn is laid at one place, in the order drawn")
    parts = {v.name for p in props(decl, "parts") for v in p.values if isinstance(v, A.NameRef)}
    seen: set[str] = set()
    for value in places:
        if not isinstance(value, A.NameRef):
            ck.report.error("E0305", "`places` takes names", value.span)
        elif value.name in seen or value.name in parts:
            ck.report.error("E0305", f"place `{value.name}` is named twice (as a place or a part)", value.span,
                            help="each place needs a name of its own, not a part board's")
        else:
            seen.add(value.name)


# ---- tables ---------------------------------------------------------------------------------------

def check_table(ck, decl: A.Block) -> None:
    roll = first_value(decl, "roll")
    columns = [v for p in props(decl, "columns") for v in p.values]
    low = high = None
    if isinstance(roll, A.Lit) and roll.kind == "dice":
        count, sides = roll.value
        low, high = (111, 666) if sides == 216 else (count, count * sides)
    covered: dict[int, A.Prop] = {}
    for row in props(decl, "row"):
        key = row.key
        if not (isinstance(key, A.Lit) and key.kind in ("int", "range")):
            ck.report.error("E0305", "a row is keyed by a roll: `row 2 = …` or `row 2-4 = …`", row.span)
            continue
        first, last = (key.value, key.value) if key.kind == "int" else key.value
        if low is not None and (first < low or last > high or first > last):
            ck.report.error("E0302", f"row {first}-{last} is outside the roll {low}-{high}", key.span)
        for n in range(first, min(last, first + 1000) + 1):
            if n in covered:
                ck.report.error("E0302", f"roll {n} has two rows", key.span,
                                labels=[Label(span=covered[n].key.span, message="also here")])
                break
            covered[n] = row
        if columns and len(row.values) != len(columns):
            ck.report.error("E0305", f"this row has {len(row.values)} cells for {len(columns)} columns", row.span)


# ---- special rules --------------------------------------------------------------------------------

def check_special_rule(ck, decl: A.Block) -> None:
    from spawnpit.compiler.check import constant

    dots = first_value(decl, "dots")
    always = next(iter(props(decl, "always")), None)
    if always is not None and dots is not None:
        ck.report.error("E0306", f"special rule `{decl.id}` is always in effect and cannot cost Dots", dots.span,
                        labels=[Label(span=always.span, message="marked always in effect here")])
    env = {p.name.value: constant(p.default, {}) for p in decl.params if p.default is not None}
    for param in decl.params:
        if param.type is not None and param.type.value not in ("int", "bool"):
            ck.report.error("E0305", f"parameter type `{param.type.value}` is not int or bool", param.type.span)
    if dots is not None and len(env) == len(decl.params):
        cost = constant(dots, env)
        if isinstance(cost, (int, float)) and cost < 0:
            ck.report.error("E0302", f"Dot cost {cost} is negative", dots.span)


def rule_args(ck, decl: A.Block, call) -> dict | None:
    """The arguments of a rule put in effect, checked against its parameters (None when wrong)."""
    from spawnpit.compiler.check import constant

    params = {p.name.value: p for p in decl.params}
    args = call.args if isinstance(call, A.Call) else ()
    kwargs = call.kwargs if isinstance(call, A.Call) else ()
    env, ok = {}, True
    if len(args) > len(params):
        ck.report.error("E0308", f"`{decl.id}` takes {len(params)} argument(s), got {len(args)}", call.span)
        return None
    for param, arg in zip(params, args):
        env[param] = constant(arg, {})
    for name, arg in kwargs:
        if name.value not in params:
            ck.report.error("E0308", f"`{decl.id}` has no parameter `{name.value}`", name.span,
                            help=did_you_mean(name.value, params) or (f"it takes: {', '.join(params)}" if params else "it takes no parameters"))
            ok = False
        env[name.value] = constant(arg, {})
    for name, param in params.items():
        if env.get(name) is None:
            if param.default is None:
                ck.report.error("E0308", f"`{decl.id}` needs a value for `{name}`", call.span, help=f"write `{decl.id}({name}: …)`")
                ok = False
            else:
                env[name] = constant(param.default, {})
    if not ok:
        return None
    for req in props(decl, "require"):
        for cond in req.values:
            if constant(cond, env) is False:
                ck.report.error("E0308", f"`{decl.id}` with {_args(env)} breaks its requirement", call.span,
                                labels=[Label(span=cond.span, message="required here")])
                return None
    return env


def _args(env: dict) -> str:
    return ", ".join(f"{k}: {v}" for k, v in env.items()) or "no arguments"


def check_rule_call(ck, value) -> None:
    name = value.func if isinstance(value, A.Call) else value
    if isinstance(value, A.Lit) and value.kind == "str":
        ident = A.slug(str(value.value))
    elif isinstance(name, (A.NameRef, A.Ident)):
        ident = getattr(name, "name", None) or name.value
    else:
        ck.report.error("E0305", "`rules` takes special rule names, e.g. `lights_out(x: 2)`", value.span)
        return
    decl = ck.res.lookup(ck.system, "special_rule", ident)
    if decl is None:
        ck.report.error("E0209", f"unknown special rule `{ident}`", value.span,
                        help=did_you_mean(ident, ck.res.ids(ck.system, "special_rule")))
        return
    rule_args(ck, decl, value)


# ---- scenarios ------------------------------------------------------------------------------------

MAX_ROUNDS = 1000  # a round of Last Night on Earth is about 100 engine events, and a game stops after 200,000


def check_scenario(ck, decl: A.Block) -> None:
    rounds = first_value(decl, "rounds")
    if isinstance(rounds, A.Lit) and rounds.kind == "int" and rounds.value < 1:
        ck.report.error("E0302", f"a scenario lasts at least one round, not {rounds.value}", rounds.span)
    elif isinstance(rounds, A.Lit) and rounds.kind == "int" and rounds.value > MAX_ROUNDS:
        ck.report.error("E0302", f"a scenario lasts at most {MAX_ROUNDS} rounds, not {rounds.value}", rounds.span,
                        help="the engine stops any game after 200,000 events; a board game's night is 10 to 30 rounds")
    decks = set(ck.vocab.decks)
    for value in (v for p in props(decl, "search_cards") for v in p.values):
        name = A.slug(str(value.value)) if isinstance(value, A.Lit) else getattr(value, "name", "")
        card = ck.res.lookup(ck.system, "card", name)
        deck = first_value(card, "deck") if card is not None else None
        if card is not None and not (isinstance(deck, A.NameRef) and deck.name in decks):
            ck.report.error("E0309", f"search card `{name}` is not in any deck of {ck.system}", value.span,
                            labels=[Label(span=card.head_span, message="the card is declared here, without a deck")],
                            help="give the card a `deck`, or the heroes can never find it")
    _counters_never_changed(ck, decl)
    _replacements(ck, decl)


def _counters_never_changed(ck, decl: A.Block) -> None:
    changed = set().union(*ck.changed.values()) if ck.changed else set()
    counters = {p.key.name for p in props(decl, "counter") if isinstance(p.key, A.NameRef)} | set(ck.vocab.counters)
    for objective in (i for i in decl.items if isinstance(i, A.Objective) and i.when is not None):
        for ref in _names_in(objective.when):
            if ref.name in counters and ref.name not in changed:
                ck.report.warn("W0402", f"objective tests counter `{ref.name}`, which no hook ever changes", ref.span,
                               help=f"add a hook such as `on … {{ {ref.name} += 1 }}`")


def _names_in(expr):
    if isinstance(expr, A.NameRef):
        yield expr
    for child in getattr(expr, "__slots__", ()):
        value = getattr(expr, child)
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, tuple):
                item = item[-1]
            if hasattr(item, "span") and not isinstance(item, A.Ident):
                yield from _names_in(item)


def _replacements(ck, decl: A.Block) -> None:
    seen: dict[tuple[str, str], A.Block] = {}
    for value in (v for p in props(decl, "rules") for v in p.values):
        name = value.func.value if isinstance(value, A.Call) else getattr(value, "name", None)
        rule = ck.res.lookup(ck.system, "special_rule", name) if name else None
        if rule is None:
            continue
        layer = first_value(rule, "layer")
        layer = layer.name if isinstance(layer, A.NameRef) else "scenario"
        for hook in (i for i in rule.items if isinstance(i, A.Hook) and i.replace):
            key = (layer, hook.event.dotted)
            if key in seen and seen[key] is not rule:
                ck.report.warn("W0403", f"`{rule.id}` and `{seen[key].id}` both replace `{hook.event.dotted}` at the {layer} layer",
                               value.span, labels=[Label(span=hook.event.span, message="replaced here")])
            seen.setdefault(key, rule)
