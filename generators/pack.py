"""Read-only access to a compiled pack (the rule objects `spawnpit build` writes), for the generators.

Generators never see source or AST: only this JSON data, so a printed aid can never disagree with
what the interpreter runs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from spawnpit.names import NotFound, find_scenario, slug  # noqa: F401  (slug is used by cards)


class PackError(Exception):
    """A pack that is not what the generators need (unknown scenario, system, …): a user's mistake."""


@dataclass(frozen=True, slots=True)
class Pack:
    data: dict
    _index: dict = field(default_factory=dict, repr=False)

    @classmethod
    def load(cls, path: Path) -> "Pack":
        return cls(json.loads(Path(path).read_text(encoding="utf-8")))

    def __post_init__(self) -> None:
        for obj in self.data["objects"]:
            self._index.setdefault((obj["system"], obj["kind"]), {})[obj["id"]] = obj

    @property
    def systems(self) -> dict[str, dict]:
        return self.data["systems"]

    def system(self, name: str) -> dict:
        if name not in self.systems:
            raise PackError(f"no system `{name}` in this pack (systems: {', '.join(sorted(self.systems))})")
        return self.systems[name]

    def all(self, system: str, kind: str) -> list[dict]:
        return list(self._index.get((system, kind), {}).values())

    def get(self, system: str, kind: str, id_: str) -> dict | None:
        return self._index.get((system, kind), {}).get(id_)

    def every(self, kind: str) -> list[dict]:
        return [o for o in self.data["objects"] if o["kind"] == kind]

    def find_scenario(self, name: str) -> dict:
        try:
            return find_scenario(self.data["objects"], name)
        except NotFound as err:
            raise PackError(str(err)) from None


def prop_list(obj: dict, name: str) -> list:
    value = obj.get("props", {}).get(name)
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def blocks(obj: dict, kind: str) -> list[dict]:
    return [b for b in obj.get("blocks", []) if b["kind"] == kind]


def keyed(obj: dict, name: str) -> list[tuple]:
    return [(e["key"], e["value"]) for e in obj.get("props", {}).get(name, []) if isinstance(e, dict)]
