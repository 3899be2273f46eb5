"""Validate rule objects against the JSON Schemas in schemas/ (Draft 2020-12), one per kind.

A failure here is our bug, not the user's: the checker should have caught anything the lowering
cannot express. It is still reported as a diagnostic (E0901) at the declaration, never a traceback.
"""

from __future__ import annotations

import functools
import json

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from spawnpit import resources
from spawnpit.diagnostics import Report, Span

KINDS = ("system", "unit", "card", "deck", "table", "board", "special_rule", "scenario")


@functools.cache
def _validators() -> dict[str, Draft202012Validator]:
    folder = resources.schemas_dir()
    docs = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))}
    registry = Registry().with_resources(
        (doc["$id"], Resource.from_contents(doc)) for doc in docs.values()
    )
    return {name.removesuffix(".schema.json"): Draft202012Validator(doc, registry=registry)
            for name, doc in docs.items()}


def validate(pack: dict, report: Report) -> None:
    validators = _validators()
    for error in validators["pack"].iter_errors({k: v for k, v in pack.items() if k != "objects"} | {"objects": []}):
        report.error("E0901", f"pack: {error.message}", Span.point("<pack>"))
    for obj in list(pack["systems"].values()) + pack["objects"]:
        kind = "system" if obj["kind"] == "system" else obj["kind"]
        validator = validators.get(kind)
        if validator is None:
            report.error("E0901", f"no schema for rule objects of kind `{kind}`", _span(obj))
            continue
        for error in validator.iter_errors(obj):
            path = "/".join(str(p) for p in error.absolute_path)
            report.error("E0901", f"{kind} `{obj['id']}` at /{path}: {error.message}", _span(obj))


def _span(obj: dict) -> Span:
    path, _, rest = obj.get("at", "<pack>:1:1").rpartition(":")
    path, _, line = path.rpartition(":")
    try:
        return Span.point(path or "<pack>", int(line), int(rest))
    except ValueError:
        return Span.point("<pack>")
