"""Game state as plain data: everything a game is at one moment, saved to JSON and restored exactly.

Entities are dicts keyed by id ("u3" a unit, "c12" a card); references between them are ids. Nothing
here knows any game's rules.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ref:
    """A reference to something on the table: a unit, card, space, side, deck, kind, track, …"""

    kind: str
    id: str

    def __str__(self) -> str:
        return self.id


class RefList(list):
    """A list of references that answers `in` from a set of them, made on the first question: a
    selection like `space s where s in reach(unit, n)` asks it once for every space of the board."""

    __slots__ = ("_set",)

    def __contains__(self, item) -> bool:
        try:
            found = self._set
        except AttributeError:
            found = self._set = frozenset(self)
        return item in found


def empty_state(seed: int, scenario: str, system: str) -> dict:
    return {"seed": seed, "scenario": scenario, "system": system, "round": 0, "at": [], "counters": {},
            "tracks": {}, "units": {}, "cards": {}, "spaces": {}, "decks": {}, "next_id": 1, "result": None,
            "events": 0, "choices": 0, "rng": None}


def new_id(state: dict, prefix: str) -> str:
    n = state["next_id"]
    state["next_id"] = n + 1
    return f"{prefix}{n}"


def dumps(state: dict) -> str:
    """Keys keep their order: a table's order is the order its entities came into the game (cards in a
    hand are listed, and so offered, in it), which sorting would change once ids pass c99."""
    return json.dumps(state, separators=(",", ":"))


def loads(text: str) -> dict:
    state = json.loads(text)
    for key in ("units", "cards", "spaces", "decks", "counters", "tracks"):
        if not isinstance(state.get(key), dict):
            raise ValueError(f"saved game has no `{key}` table")
    return state


def snapshot(state: dict) -> dict:
    return copy.deepcopy(state)
