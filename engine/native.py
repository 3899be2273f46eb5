"""The native core (engine/native, C++) from Python: whether it is built, and whole games played by it.

The native core is a second implementation of this engine for what simulations play: games between the
`ai`, `random` and `first` policies from a game's first state to its result, with logs byte-identical to
the Python engine's (docs/native.md). A pack it cannot run (an expression, effect or policy it does not
know) raises NativeUnsupported when it is loaded, and the caller plays the game in Python instead.
"""

from __future__ import annotations

from spawnpit.names import slug

try:
    from spawnpit.engine import _native
except ImportError:  # not built (no compiler at install): Python alone
    _native = None

import os

NATIVE_POLICIES = ("ai", "random", "first")


def wanted() -> bool:
    """Whether simulations play natively: when the core is built, unless SPAWNPIT_ENGINE=python (the
    Python engine for everything, to compare or to debug; the results are the same either way)."""
    return _native is not None and os.environ.get("SPAWNPIT_ENGINE", "").strip().lower() != "python"


class NativeUnsupported(Exception):
    """The native core cannot play this game (not built, or the pack uses what it does not know)."""


def available() -> bool:
    return _native is not None


_MODELS: dict[tuple[int, str, str], tuple[dict, object]] = {}


def model_for(pack: dict, scenario: dict):
    """The native model of a scenario, loaded once per pack object (as engine.model.model_for)."""
    if _native is None:
        raise NativeUnsupported("the native core is not built")
    key = (id(pack), scenario["id"], scenario["system"])
    hit = _MODELS.get(key)
    if hit is not None and hit[0] is pack:
        if isinstance(hit[1], NativeUnsupported):
            raise hit[1]
        return hit[1]
    from spawnpit.engine.written import objective_text

    extras = {"objective_texts": [objective_text(o) for o in scenario.get("objectives", [])],
              "search_cards": _search_cards(scenario)}
    if len(_MODELS) >= 32:
        _MODELS.clear()
    try:
        model = _native.load(pack, scenario["id"], scenario["system"], extras)
    except _native.Unsupported as err:
        _MODELS[key] = (pack, NativeUnsupported(f"scenario `{scenario['id']}`: {err}"))
        raise _MODELS[key][1] from None
    _MODELS[key] = (pack, model)
    return model


def _search_cards(scenario: dict) -> list[str]:
    named = scenario.get("props", {}).get("search_cards") or []
    return [slug(str(n)) for n in (named if isinstance(named, list) else [named])]


_BOARD_KEY = "native board"  # Board._cache: the native board of that layout


def board_for(board):
    """The native board of a layout, made once per Python board (boards are shared by every game on a
    layout). It works Line of Sight out itself from the exported geometry (engine/native/sight.cpp); only a
    board whose geometry cannot be exported exactly asks the Python board, pair by pair."""
    if board is None:
        return None
    found = board._cache.get(_BOARD_KEY)
    if found is None:
        from spawnpit.engine.native_board import board_data

        slugs = {b.pick_up: slug(b.pick_up) for b in board.buildings.values() if b.pick_up}
        found = board._cache[_BOARD_KEY] = _native.board(board_data(board, sight=False), board.line_of_sight, slugs)
    return found


def play_new(pack: dict, scenario: str, seed: int, policies: dict | None = None, logging: bool = False,
             profile: bool = False) -> dict:
    """A new game of a scenario played natively from its very start, as `new_game(pack, scenario, seed)`
    then `play` would play it in Python, without making the Python Game: the board is drawn (and cached)
    by the Python board, the rest of the first state (counters, tracks, decks shuffled) natively.
    `policies`: side → "ai", "random" or "first" (a side left out plays at random, as in new_game). What
    it returns is what `play` returns, and `system`: the scenario's system."""
    if _native is None:
        raise NativeUnsupported("the native core is not built")
    import random

    from spawnpit.engine import find_scenario
    from spawnpit.engine.board import Board
    from spawnpit.engine.game import GameError
    from spawnpit.engine.geometry import BoardError

    obj = find_scenario(pack, scenario)
    sides = [b["id"] for b in pack["systems"][obj["system"]].get("blocks", []) if b["kind"] == "side"]
    names = {side: (policies or {}).get(side) or "random" for side in sides}
    for side, name in names.items():
        if name not in NATIVE_POLICIES:
            raise NativeUnsupported(f"the {side} policy ({name}) plays in Python only")
    model = model_for(pack, obj)
    dice = random.Random(seed)  # the game's one source of chance (rng.Chance), drawing the board first
    board = None
    board_id = obj["props"].get("board")
    if board_id:
        try:
            board = Board.from_pack(pack, obj["system"], board_id, rng=dice)
        except BoardError as err:  # as new_game says it
            raise GameError(f"scenario `{obj['id']}`: its board cannot be assembled: {err}") from None
    version, internal, gauss = dice.getstate()
    try:
        out = _native.play_new(model, board_for(board), seed, [version, list(internal), gauss], names, logging, profile)
    except _native.Unsupported as err:
        raise NativeUnsupported(str(err)) from None
    except _native.GameError as err:
        raise GameError(str(err)) from None
    out["system"] = obj["system"]
    return out


def play(game, logging: bool = False, profile: bool = False) -> dict:
    """Play a game that has not begun (as `new_game` made it) to its end natively. Returns the result, the
    events and choices counted, the rules' hooks fired ([(rule, runs)]), the objectives met ([bool]), what
    was in the game at its end (`present`: "card:PROTO" for each card not set aside, "unit:PROTO"), and with
    `logging` the log as JSON lines (engine.log.line's); with `profile`, `spent`: each rule hook's own time and
    runs ("TITLE @ EVENT") and each `prefer` criterion's ("TITLE, criterion K"), in seconds. Of the Game
    object only `fired` is brought up to date (each rule's hook runs, as the Python engine counts them);
    its state is left as it was, before the first round."""
    if _native is None:
        raise NativeUnsupported("the native core is not built")
    policies = {}
    for side, policy in game.policies.items():
        name = getattr(policy, "name", None)
        if name not in NATIVE_POLICIES or type(policy).__module__ != "spawnpit.engine.policies":
            raise NativeUnsupported(f"the {side} policy ({name or type(policy).__name__}) plays in Python only")
        policies[side] = name
    model = model_for(game.model.pack, game.model.scenario)
    try:
        out = _native.play(model, board_for(game.board), game.state, game.chance.state(), policies, logging, profile)
    except _native.Unsupported as err:
        raise NativeUnsupported(str(err)) from None
    except _native.GameError as err:
        from spawnpit.engine.game import GameError

        raise GameError(str(err)) from None
    for rule, runs in out["fired"]:
        game.fired[rule] = game.fired.get(rule, 0) + runs
    return out
