"""The event-hook interpreter: runs compiled rule objects (never source): ``new_game`` and ``play``.

Imports only the compiled model (pack JSON), never the compiler or lark, so a built pack runs on its own.
"""

from __future__ import annotations

from spawnpit import names
from spawnpit.engine.game import Game, GameError
from spawnpit.engine.policies import POLICIES, FirstPolicy, RandomPolicy, ScriptedPolicy


def find_scenario(pack: dict, name: str) -> dict:
    try:
        return names.find_scenario(pack["objects"], name)
    except names.NotFound as err:
        raise GameError(str(err)) from None


def new_game(pack: dict, scenario: str, seed: int = 0, policies: dict | None = None) -> Game:
    obj = find_scenario(pack, scenario)
    sides = [b["id"] for b in pack["systems"][obj["system"]].get("blocks", []) if b["kind"] == "side"]
    chosen = {side: (policies or {}).get(side) or RandomPolicy() for side in sides}
    return Game(pack, obj, seed, chosen)


def play(game: Game) -> dict:
    from spawnpit.engine.flow import run

    return run(game)


__all__ = ["Game", "GameError", "POLICIES", "FirstPolicy", "RandomPolicy", "ScriptedPolicy", "new_game", "play"]
