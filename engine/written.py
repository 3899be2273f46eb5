"""Expressions and objectives written back from their compiled (JSON) form the way content writes them:
`zombies_killed >= 15`, `heroes win when heroes_killed >= 2`. Results, reports and diagnostics name what
happened in the words of the rules' own source."""

from __future__ import annotations


def objective_text(objective: dict) -> str:
    head = f"{objective.get('side', '?')} {objective.get('result', '?')}"
    if objective.get("at"):
        return f"{head} at {objective['at']}"
    return f"{head} when {source(objective.get('when'))}"


_STRONG = {"or": 1, "and": 2}


def source(ir, parent: int = 0) -> str:
    """An expression's JSON form written back the way content writes it (`zombies_killed >= 15`)."""
    if not isinstance(ir, dict):
        return "?"
    if "lit" in ir:
        value, kind = ir["lit"], ir.get("type")
        if kind == "str":
            return '"' + str(value).replace('"', '\\"') + '"'
        if kind == "bool":
            return "true" if value else "false"
        if kind == "dice" and isinstance(value, list) and len(value) == 2:
            return f"{value[0] if value[0] != 1 else ''}D{value[1]}"
        if kind == "range" and isinstance(value, list) and len(value) == 2:
            return f"{value[0]}-{value[1]}"
        if kind == "target":
            return f"{value}+"
        return str(value)
    if "name" in ir:
        return str(ir["name"])
    if "attr" in ir:
        return f"{source(ir.get('of'), 9)}.{ir['attr']}"
    if "call" in ir:
        args = [source(a) for a in ir.get("args", [])]
        args += [f"{k}: {source(v)}" for k, v in (ir.get("kwargs") or {}).items()]
        return f"{ir['call']}({', '.join(args)})"
    if "list" in ir:
        return "[" + ", ".join(source(i) for i in ir["list"]) + "]"
    if "select" in ir:
        text = f"{ir['select']} {ir.get('var', '?')}"
        if ir.get("in"):
            text += f" in {source(ir['in'], 3)}"
        if ir.get("where"):
            text += f" where {source(ir['where'])}"
        return text
    if "op" in ir:
        op, args = ir["op"], ir.get("args", [])
        if op in _STRONG:
            text = f" {op} ".join(source(a, _STRONG[op]) for a in args)
            return f"({text})" if parent > _STRONG[op] else text
        inner = source(args[0], 9) if args else "?"
        return f"not {inner}" if op == "not" else f"{op}{inner}"
    if "chain" in ir:
        parts = ir["chain"]
        text = " ".join(str(p) if isinstance(p, str) else source(p, 4) for p in parts)
        return f"({text})" if parent > 3 else text
    return "?"
