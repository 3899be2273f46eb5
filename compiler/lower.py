"""Lower checked declarations to rule objects: plain JSON data, the contract with the engine and the
generators. Defaults are filled in here so later stages never meet a missing field."""

from __future__ import annotations

from spawnpit.compiler import ast as A
from spawnpit.compiler.consts import to_ir
from spawnpit.compiler.resolve import Resolved, board_places
from spawnpit.compiler.specs import BLOCKS, DECLS
from spawnpit.compiler.vocab import first_value, props

PACK_FORMAT = "spawnpit-pack/1"
KIND_OF = {"special_rule": "special_rule", "card": "card", "deck": "deck", "table": "table", "board": "board",
           "scenario": "scenario"}


def value(expr):
    if isinstance(expr, A.Lit):
        if expr.kind == "dice":
            count, sides = expr.value
            return f"{count if count != 1 else ''}D{sides}"
        if expr.kind == "range":
            return list(expr.value)
        if expr.kind == "target":
            return f"{expr.value}+"
        return expr.value
    if isinstance(expr, A.NameRef):
        return expr.name
    path = A.dotted(expr)
    if path is not None:  # `town_center.a1`: a space of a part board, named by its path
        return path
    return to_ir(expr)


_RELATIVE: dict[str, str] = {}


def where(span) -> str:
    """file:line:col with the file relative to its pack root, so builds do not depend on the cwd."""
    return f"{_RELATIVE.get(span.path, span.path)}:{span.line}:{span.col}"


def lower_block(block: A.Block) -> dict:
    out: dict = {"kind": block.kind.value, "id": block.id or block.kind.value, "at": where(block.span)}
    if block.title is not None:
        out["title"] = block.title.value
    properties: dict = {}
    for p in (i for i in block.items if isinstance(i, A.Prop)):
        if p.name.value == "prefer" or (p.name.value == "require" and block.kind.value == "action"):
            # expressions the engine evaluates: an action's score for the ai policy, when it may be taken
            properties.setdefault(p.name.value, []).extend(to_ir(v) for v in p.values)
            continue
        values = [value(v) for v in p.values]
        one = values[0] if len(values) == 1 else (values if values else True)
        if p.key is not None or p.name.value in _KEYED:
            key = value(p.key) if p.key is not None else None
            properties.setdefault(p.name.value, []).append({"key": key, "value": one})
        elif p.name.value in _GROUPED:
            properties.setdefault(p.name.value, []).append(values)
        elif p.name.value in properties:
            prev = properties[p.name.value]
            properties[p.name.value] = (prev if isinstance(prev, list) and p.name.value in _LISTS else [prev]) + (values or [True])
        else:
            properties[p.name.value] = values if p.name.value in _LISTS else one
    out["props"] = properties
    nested = [lower_block(b) for b in block.items if isinstance(b, A.Block)]
    if nested:
        out["blocks"] = nested
    hooks = [lower_hook(h) for h in block.items if isinstance(h, A.Hook)]
    if hooks:
        out["hooks"] = hooks
    objectives = [lower_objective(o) for o in block.items if isinstance(o, A.Objective)]
    if objectives:
        out["objectives"] = objectives
    if block.params:
        out["params"] = [{"name": p.name.value, "type": p.type.value if p.type else "int",
                          "default": value(p.default) if p.default is not None else None} for p in block.params]
    return out


_KEYED = {name for table in (DECLS, BLOCKS) for kind in table.values() for name, p in kind.props.items()
          if p.keyed is not False}
_GROUPED = {"link", "wall", "door", "window", "corner"}
_LISTS = {"keywords", "stats", "spaces", "search_cards", "rules", "alternate", "columns", "dice", "card_types", "carried",
          "note", "step", "require", "spawn", "start", "parts", "params", "link", "wall", "door", "window", "combine", "hidden"}


def lower_objective(o: A.Objective) -> dict:
    out = {"side": o.side.value, "result": "win" if o.win else "lose"}
    if o.at is not None:
        out["at"] = o.at.dotted
    else:
        out["when"] = to_ir(o.when)
    return out


def lower_hook(hook: A.Hook) -> dict:
    out = {"event": hook.event.dotted, "replace": hook.replace, "body": [lower_stmt(s) for s in hook.body],
           "at": where(hook.span)}
    if hook.filters:
        out["filters"] = {prep.value: to_ir(v) for prep, v in hook.filters}
    if hook.when is not None:
        out["when"] = to_ir(hook.when)
    return out


def lower_stmt(stmt) -> dict:
    return _STMTS[type(stmt).__name__](stmt)


def _body(stmts) -> list:
    return [lower_stmt(s) for s in stmts]


_STMTS = {
    "Effect": lambda s: {"do": s.verb.value, "what": to_ir(s.primary) if s.primary is not None else None,
                         "args": {p.value: to_ir(v) for p, v in s.args}},
    "Assign": lambda s: {"assign": [t.value for t in s.target], "op": s.op, "value": to_ir(s.value)},
    "LetStmt": lambda s: {"let": s.name.value, "value": to_ir(s.value)},
    "IfStmt": lambda s: {"if": to_ir(s.cond), "then": _body(s.then), "else": _body(s.orelse)},
    "ForStmt": lambda s: {"for_each": s.kind.value, "var": s.var.value, "in": _opt(s.source), "where": _opt(s.where),
                          "body": _body(s.body)},
    "ChooseStmt": lambda s: {"choose": s.kind.value, "var": s.var.value, "in": _opt(s.source), "where": _opt(s.where),
                             "by": _opt(s.by), "optional": s.may, "body": _body(s.body),
                             **({"prefer": to_ir(s.prefer)} if s.prefer is not None else {}),
                             **({"ask": s.ask} if s.ask else {}),
                             **({"ask_with": to_ir(s.ask_with)} if s.ask_with is not None else {})},
    "ChooseOptionStmt": lambda s: {"choose_option": [{"label": o.label, "body": _body(o.body),
                                                     **({"prefer": to_ir(o.prefer)} if o.prefer is not None else {})}
                                                    for o in s.options],
                                   "by": _opt(s.by), "optional": s.may},
    "RepeatStmt": lambda s: {"repeat": to_ir(s.count), "body": _body(s.body)},
    "WinStmt": lambda s: {"win" if s.win else "lose": to_ir(s.side)},
}


def _opt(expr):
    return to_ir(expr) if expr is not None else None


def lower(res: Resolved, rule_costs, relative: dict[str, str] | None = None) -> dict:
    _RELATIVE.clear()
    _RELATIVE.update(relative or {})
    systems = {}
    for name, vocab in sorted(res.systems.items()):
        obj = lower_block(vocab.decl)
        obj["events"] = sorted(vocab.events)
        obj["phases"] = [p.id for p in vocab.phases]
        systems[name] = obj
    objects = []
    for decl, system in res.decls:
        obj = lower_block(decl)
        obj["system"] = system
        if decl.kind.value not in KIND_OF:
            obj["unit_kind"] = decl.kind.value
            obj["kind"] = "unit"
        _complete(obj, decl, res, system, rule_costs)
        objects.append(obj)
    objects.sort(key=lambda o: (o["system"], o["kind"], o["id"]))
    return {"format": PACK_FORMAT, "systems": systems, "objects": objects}


def _complete(obj: dict, decl: A.Block, res: Resolved, system: str, rule_costs) -> None:
    """Fill the fields every consumer relies on, with their defaults."""
    p = obj["props"]
    p.setdefault("title", obj.get("title", decl.id))
    p.setdefault("source", "")
    p.setdefault("text", "")
    if obj["kind"] == "special_rule":
        dots = first_value(decl, "dots")
        obj["always"] = "always" in p
        obj["dots"] = to_ir(dots) if dots is not None else None
        obj["default_dots"] = rule_costs(decl, None)
        p.setdefault("layer", "scenario")
    elif obj["kind"] == "scenario":
        obj["rules"] = [_rule_in_effect(v, res, system, rule_costs) for q in props(decl, "rules") for v in q.values]
        obj["rules"] = [r for r in obj["rules"] if r is not None]
    elif obj["kind"] == "board":
        spaces, buildings = board_places(decl)
        obj["spaces"] = sorted(spaces)
        obj["buildings"] = sorted(buildings)
    elif obj["kind"] == "card":
        p.setdefault("count", 1)


def _rule_in_effect(expr, res: Resolved, system: str, rule_costs):
    name = expr.func.value if isinstance(expr, A.Call) else getattr(expr, "name", None)
    if isinstance(expr, A.Lit):
        name = A.slug(str(expr.value))
    decl = res.lookup(system, "special_rule", name) if name else None
    if decl is None:
        return None
    args = rule_costs.args(decl, expr)
    return {"rule": name, "args": args or {}, "dots": rule_costs(decl, expr)}
