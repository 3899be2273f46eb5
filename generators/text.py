"""Expressions in rule objects (their JSON form) turned back into words a player reads at the table."""

from __future__ import annotations

_OPS = {">=": "≥", "<=": "≤", "!=": "≠", "==": "=", "*": "×", "/": "÷"}


def words(name: str) -> str:
    return name.replace("_", " ")


def expr(ir, titles: dict[str, str] | None = None) -> str:
    """`{"chain": [{"name": "zombies_killed"}, ">=", {"lit": 15}]}` → "zombies killed ≥ 15"."""
    titles = titles or {}
    if ir is None:
        return ""
    if "lit" in ir:
        value = ir["lit"]
        if ir.get("type") == "range":
            return f"{value[0]}–{value[1]}"
        if ir.get("type") == "dice":
            count, sides = value
            return f"{count if count != 1 else ''}D{sides}"
        if ir.get("type") == "target":
            return f"{value}+"
        if ir.get("type") == "bool":
            return "yes" if value else "no"
        return f"“{value}”" if ir.get("type") == "str" else str(value)
    if "name" in ir:
        return titles.get(ir["name"], words(ir["name"]))
    if "attr" in ir:
        return f"{expr(ir['of'], titles)}’s {words(ir['attr'])}"
    if "call" in ir:
        if ir["call"] == "count" and len(ir["args"]) == 1 and "select" in ir["args"][0]:
            return expr(ir["args"][0], titles)  # `count(zombie in s) >= 9`: "Zombies in s ≥ 9"
        args = ", ".join(expr(a, titles) for a in ir["args"])
        return f"{words(ir['call'])}({args})"
    if "list" in ir:
        return ", ".join(expr(i, titles) for i in ir["list"])
    if "select" in ir:
        out, where = titles.get(ir["select"], words(ir["select"])), ir.get("where")
        side = _side_test(where, ir.get("var"))
        if side is not None:  # `unit u where u.side == zombies`: "Zombies"
            out, where = titles.get(side, words(side)), None
        if ir.get("in"):
            place = ir["in"]
            out += f" in {place['lit'] if place.get('type') == 'str' else expr(place, titles)}"
        if where:
            out += f" where {expr(where, titles)}"
        return out
    if "op" in ir:
        if ir["op"] in ("and", "or"):  # an `or` inside an `and` keeps its brackets: it binds looser
            return f" {ir['op']} ".join(_grouped(a, ir["op"], titles) for a in ir["args"])
        if ir["op"] == "not":
            return f"not {_grouped(ir['args'][0], 'not', titles)}"
        return f"−{expr(ir['args'][0], titles)}"
    if "chain" in ir:
        parts = [expr(ir["chain"][0], titles)]
        for op, operand in zip(ir["chain"][1::2], ir["chain"][2::2]):
            parts += [_OPS.get(op, op), expr(operand, titles)]
        return " ".join(parts)
    return "?"


def _side_test(where, var) -> str | None:
    """The side a selection's `where` is only about (`u.side == zombies`), else None."""
    chain = where.get("chain") if isinstance(where, dict) else None
    if not (isinstance(chain, list) and len(chain) == 3 and chain[1] == "=="):
        return None
    left, right = chain[0], chain[2]
    if (isinstance(left, dict) and left.get("attr") == "side" and left.get("of") == {"name": var}
            and isinstance(right, dict) and set(right) == {"name"}):
        return right["name"]
    return None


def _grouped(ir, within: str, titles: dict[str, str]) -> str:
    """An operand of `and`, `or` or `not` in words, in brackets where it needs them (`bracketed`)."""
    text = expr(ir, titles)
    return f"({text})" if bracketed(ir, within) else text


def bracketed(ir, within: str) -> bool:
    """Whether an operand of `within` (`and`, `or`, `not`) needs brackets in words, which would read as
    another test without them: an `or` or `and` under a `not`, an `or` under an `and`, an `and` under
    an `or`."""
    inner = ir.get("op") if isinstance(ir, dict) else None
    return inner in ("and", "or") and (within == "not" or inner != within)


def formula(ir, titles: dict[str, str] | None = None) -> str:
    """A Dot cost formula: `x / 2` → "x/2", `2 * x` → "2x"."""
    text = expr(ir, titles)
    return text.replace(" ÷ ", "/").replace(" × ", "×")
