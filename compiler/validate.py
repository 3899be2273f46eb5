"""Validate rule objects against the JSON Schemas in schemas/ (Draft 2020-12), one per kind.

A failure here is our bug, not the user's: the checker should have caught anything the lowering
cannot express. It is still reported as a diagnostic (E0901) at the declaration, never a traceback.
"""

from __future__ import annotations

import functools
import json

from spawnpit import resources
from spawnpit.compiler import cache
from spawnpit.diagnostics import Report, Span

KINDS = ("system", "unit", "card", "deck", "table", "board", "special_rule", "scenario")


@functools.cache
def _validators() -> dict:
    from jsonschema import Draft202012Validator  # imported on the first cache miss only
    from referencing import Registry, Resource

    folder = resources.schemas_dir()
    docs = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))}
    registry = Registry().with_resources(
        (doc["$id"], Resource.from_contents(doc)) for doc in docs.values()
    )
    return {name.removesuffix(".schema.json"): Draft202012Validator(doc, registry=registry)
            for name, doc in docs.items()}


@functools.cache
def _schemas_digest() -> str:
    return cache.digest(*(p.read_bytes() for p in sorted(resources.schemas_dir().glob("*.json"))))


def validate(pack: dict, report: Report) -> None:
    shell = {k: v for k, v in pack.items() if k != "objects"} | {"objects": []}
    entries = [("pack", shell)] + [(obj["kind"], obj) for obj in list(pack["systems"].values()) + pack["objects"]]
    for kind, obj in entries:
        if kind not in _kinds():
            report.error("E0901", f"no schema for rule objects of kind `{kind}`", _span(obj))
            continue
        key = cache.digest(_schemas_digest(), kind, cache.canonical(obj)) if cache.enabled() else ""
        if key and cache.load("valid", key):
            continue
        errors = problems(kind, obj)
        for error in errors:
            name = "pack" if kind == "pack" else f"{kind} `{obj['id']}`"
            report.error("E0901", f"{name} at {error}", _span(obj))
        if not errors:
            cache.store("valid", key, True)


def problems(kind: str, obj) -> list[str]:
    """What is wrong with OBJ against the schema of KIND (`log` for a game log's lines too), each as
    "/path: message"; [] when it is valid (the fast validator first, the reference one for the words)."""
    if _fast(kind, obj):
        return []
    from jsonschema.exceptions import best_match

    errors = list(_validators()[kind].iter_errors(obj))
    best = best_match(errors)  # inside a oneOf, the branch's own error ("'seed' is a required property")
    return [f"/{'/'.join(str(p) for p in error.absolute_path)}: {error.message}"
            for error in ([best] if best is not None else []) + [e for e in errors if e is not best]]


@functools.cache
def _fast_validators() -> dict:
    """fastjsonschema compiles each schema to Python code: valid objects pass in microseconds. It only
    ever says "valid"; every failure is re-checked by jsonschema (Draft 2020-12), whose errors are the
    ones reported. The schemas use only keywords both read the same way (tests/compiler/test_schemas.py)."""
    import fastjsonschema

    docs = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in resources.schemas_dir().glob("*.schema.json")}
    handlers = {"https": lambda uri: docs[uri.rsplit("/", 1)[-1]]}
    return {name.removesuffix(".schema.json"): fastjsonschema.compile(doc, handlers=handlers)
            for name, doc in docs.items()}


def _fast(kind: str, obj: dict) -> bool:
    try:
        _fast_validators()[kind](obj)
        return True
    except Exception:  # noqa: BLE001 - any doubt goes to the reference validator
        return False


@functools.cache
def _kinds() -> frozenset[str]:
    return frozenset(p.name.removesuffix(".schema.json") for p in resources.schemas_dir().glob("*.schema.json"))


def _span(obj: dict) -> Span:
    path, _, rest = obj.get("at", "<pack>:1:1").rpartition(":")
    path, _, line = path.rpartition(":")
    try:
        return Span.point(path or "<pack>", int(line), int(rest))
    except ValueError:
        return Span.point("<pack>")
