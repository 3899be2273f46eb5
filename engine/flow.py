"""The turn structure, driven from the system declaration: rounds → phases → steps → actions.

The position is kept in the state (`cursor`), so a game saved between two steps and restored later
carries on exactly as the original would.
"""

from __future__ import annotations

from spawnpit.engine import interp
from spawnpit.engine.state import Ref


def _blocks(obj: dict, kind: str) -> list[dict]:
    return [b for b in obj.get("blocks", []) if b["kind"] == kind]


def setup(game) -> None:
    """Starting units per side (a scenario property named after the side), then the setup hooks."""
    game.state["at"] = ["setup"]
    props = game.model.scenario["props"]
    for side in game.model.sides:
        count = props.get(side)
        if isinstance(count, int) and not isinstance(count, bool):
            _deal_units(game, side, count)
    for moment in ("setup", "game.start"):
        try:
            game.emit(moment)
        except interp.EndAction:
            pass
    game.state["cursor"] = {"round": 1, "phase": 0, "step": 0}


def _deal_units(game, side: str, count: int) -> None:
    protos = [u for u in game.model.units if game.model.side_of(u["unit_kind"]) == side]
    chosen = []
    pool = list(protos)
    for _ in range(min(count, len(pool))):
        chosen.append(pool.pop(game.chance.randrange(len(pool))))
    for proto in chosen:
        unit = game.add_unit(proto, _start_space(game, proto))
        game.log({"type": "enter", "unit": unit.id, "proto": proto["id"], "space": game.state["units"][unit.id]["space"]}, None)


def _start_space(game, proto: dict) -> str | None:
    board = game.board
    if board is None:
        return None
    start = proto["props"].get("start")
    start = start[0] if isinstance(start, list) and start else start
    if isinstance(start, str):
        slug = start.lower().replace(" ", "_").replace("'", "")
        for building in board.buildings:
            if building == slug or building.endswith("." + slug):
                return sorted(board.spaces_of(building))[0]
    starts = sorted(board.start_spaces) or sorted(board.spaces)
    return starts[0] if starts else None


def rounds(game) -> int:
    value = game.model.scenario["props"].get("rounds")
    return value if isinstance(value, int) else 1


def run(game, stop_after_steps: int | None = None) -> dict | None:
    """Play from the cursor until a result, the round limit, or `stop_after_steps` steps (for saving)."""
    if "cursor" not in game.state:
        setup(game)
    steps_done = 0
    while game.state["result"] is None:
        cursor = game.state["cursor"]
        if cursor["round"] > rounds(game):
            _out_of_rounds(game)
            break
        if stop_after_steps is not None and steps_done >= stop_after_steps:
            return None
        _advance(game, cursor)
        steps_done += 1
    return game.state["result"]


def _advance(game, cursor: dict) -> None:
    """Play one step (or the start/end of a phase or round) and move the cursor on."""
    phases = game.model.phases
    if cursor["phase"] == 0 and cursor["step"] == 0:
        game.state["round"] = cursor["round"]
        game.state["at"] = ["round"]
        _safe(game, "round.start")
    if cursor["phase"] >= len(phases):
        game.state["at"] = ["round"]
        _safe(game, "round.end")
        cursor.update(round=cursor["round"] + 1, phase=0, step=0)
        return
    phase = phases[cursor["phase"]]
    steps = _blocks(phase, "step")
    if cursor["step"] == 0:
        _moment(game, [phase["id"]], "start")
        _act(game, phase, phase, [phase["id"]])
    if cursor["step"] < len(steps):
        step = steps[cursor["step"]]
        path = [phase["id"], step["id"]]
        _moment(game, path, "start")
        _act(game, phase, step, path)
        _moment(game, path, "end")
        cursor["step"] += 1
    if cursor["step"] >= len(steps):
        _moment(game, [phase["id"]], "end")
        cursor.update(phase=cursor["phase"] + 1, step=0)


def _safe(game, event: str) -> None:
    try:
        game.emit(event)
    except interp.EndAction:
        pass


def _moment(game, path: list[str], suffix: str) -> None:
    game.state["at"] = list(path)
    try:
        game.emit(".".join(path) + "." + suffix)
    except interp.EndAction:  # `end` at a start or end moment ends just that moment's hooks
        pass


def _act(game, phase: dict, block: dict, path: list[str]) -> None:
    """The phase or step itself: its hooks, then its actions, unit by unit, chosen by the side's policy."""
    game.state["at"] = list(path)
    try:
        game.emit(".".join(path))
    except interp.EndAction:
        return
    actions = _blocks(block, "action")
    if not actions or game.state["result"] is not None:
        return
    side = block["props"].get("side") or phase["props"].get("side")
    if side is None:
        return
    game.acting_side = side
    remaining = game.units_of_side(side)
    while remaining and game.state["result"] is None:
        unit = game.choose(remaining, Ref("side", side), False, f"{'.'.join(path)}: who acts", None)
        remaining.remove(unit)
        action = game.choose(actions, Ref("side", side), True, f"{'.'.join(path)}: action of {unit.id}", None)
        if action is not None:
            _action(game, action, unit, path)
    game.acting_side = None


def _action(game, action: dict, unit: Ref, path: list[str]) -> None:
    game.state["at"] = path + [action["id"]]
    game.log({"type": "action", "action": action["id"], "unit": unit.id}, None)
    for name in (f"{action['id']}.start", action["id"], f"{action['id']}.end"):
        try:
            game.emit(name, {"unit": unit})
        except interp.EndAction:
            break


def _out_of_rounds(game) -> None:
    game.state["at"] = ["end"]
    game.emit("game.end", {"winner": None})
    if game.state["result"] is None:
        game.state["result"] = {"winner": None, "side": None, "verdict": "none", "cause": "round limit reached",
                                "round": game.state["round"]}
        game.log({"type": "result", "winner": None, "cause": "round limit reached"}, None)
