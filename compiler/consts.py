"""Compile-time evaluation of constant expressions: Dot cost formulas and `require` constraints."""

from __future__ import annotations

from spawnpit.compiler import ast as A


class NotConstant(Exception):
    pass


_ARITH = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a / b if b else _div0(), "%": lambda a, b: a % b if b else _div0(),
}
_COMPARE = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def _div0():
    raise NotConstant("division by zero")


def evaluate(expr, env: dict[str, object]):
    """The value of ``expr`` when every name in it is in ``env``; NotConstant otherwise."""
    if isinstance(expr, A.Lit):
        if expr.kind in ("int", "bool", "str"):
            return expr.value
        raise NotConstant(expr.kind)
    if isinstance(expr, A.NameRef):
        if expr.name in env:
            return env[expr.name]
        raise NotConstant(expr.name)
    if isinstance(expr, A.Unary):
        value = evaluate(expr.operand, env)
        return (not value) if expr.op == "not" else -value
    if isinstance(expr, A.BoolOp):
        values = [bool(evaluate(o, env)) for o in expr.operands]
        return all(values) if expr.op == "and" else any(values)
    if isinstance(expr, A.Chain):
        left = evaluate(expr.first, env)
        result = left
        for op, operand in expr.rest:
            right = evaluate(operand, env)
            if op in _ARITH:
                result = left = _ARITH[op](left, right)
            elif op in _COMPARE:
                result = _COMPARE[op](left, right)
                if not result:
                    return False
                left = right
            else:
                raise NotConstant(op)
        return result
    raise NotConstant(type(expr).__name__)


def to_ir(expr):
    """A JSON form of an expression, for formulas the engine and the generators evaluate."""
    if isinstance(expr, A.Lit):
        return {"lit": list(expr.value) if isinstance(expr.value, tuple) else expr.value, "type": expr.kind}
    if isinstance(expr, A.NameRef):
        return {"name": expr.name}
    if isinstance(expr, A.Attr):
        return {"attr": expr.name.value, "of": to_ir(expr.obj)}
    if isinstance(expr, A.Call):
        out = {"call": expr.func.value, "args": [to_ir(a) for a in expr.args]}
        if expr.kwargs:
            out["kwargs"] = {k.value: to_ir(v) for k, v in expr.kwargs}
        return out
    if isinstance(expr, A.ListExpr):
        return {"list": [to_ir(i) for i in expr.items]}
    if isinstance(expr, A.Unary):
        return {"op": expr.op, "args": [to_ir(expr.operand)]}
    if isinstance(expr, A.BoolOp):
        return {"op": expr.op, "args": [to_ir(o) for o in expr.operands]}
    if isinstance(expr, A.Select):
        return {"select": expr.kind.value, "var": expr.var.value,
                "in": to_ir(expr.source) if expr.source is not None else None,
                "where": to_ir(expr.where) if expr.where is not None else None}
    if isinstance(expr, A.Chain):
        return {"chain": [to_ir(expr.first)] + [x for op, e in expr.rest for x in (op, to_ir(e))]}
    raise TypeError(f"not an expression: {expr!r}")
