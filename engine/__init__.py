"""The event-hook interpreter: runs compiled rule objects (never source): ``new_game`` and ``play``.

Imports only the compiled model (pack JSON), never the compiler or lark, so a built pack runs on its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spawnpit import names

if TYPE_CHECKING:  # for the annotations only: the module is imported lazily (see __getattr__)
    from spawnpit.engine.game import Game

_LAZY = {"Game": "game", "GameError": "game", "POLICIES": "policies", "AIPolicy": "policies",
         "FirstPolicy": "policies", "RandomPolicy": "policies", "ScriptedPolicy": "policies"}


def __getattr__(name: str):
    """The engine's names are imported on first use, so a small module such as engine.events (which the
    compiler reads) can be imported without loading the whole interpreter."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def find_scenario(pack: dict, name: str) -> dict:
    from spawnpit.engine.game import GameError

    try:
        return names.find_scenario(pack["objects"], name)
    except names.NotFound as err:
        raise GameError(str(err)) from None


def new_game(pack: dict, scenario: str, seed: int = 0, policies: dict | None = None) -> Game:
    from spawnpit.engine.game import Game, GameError
    from spawnpit.engine.geometry import BoardError
    from spawnpit.engine.policies import RandomPolicy

    obj = find_scenario(pack, scenario)
    sides = [b["id"] for b in pack["systems"][obj["system"]].get("blocks", []) if b["kind"] == "side"]
    chosen = {side: (policies or {}).get(side) or RandomPolicy() for side in sides}
    try:
        return Game(pack, obj, seed, chosen)
    except BoardError as err:  # a hand-edited pack (or a path the compiler could not follow): the content's fault
        raise GameError(f"scenario `{obj['id']}`: its board cannot be assembled: {err}") from None


def play(game: Game) -> dict:
    from spawnpit.engine.flow import run

    return run(game)


__all__ = ["AIPolicy", "Game", "GameError", "POLICIES", "FirstPolicy", "RandomPolicy", "ScriptedPolicy", "new_game", "play"]
