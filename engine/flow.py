"""The turn structure, driven from the system declaration: rounds → phases → steps → actions.

The position is kept in the state (`cursor`), so a game saved between two steps and restored later
carries on exactly as the original would.
"""

from __future__ import annotations

from spawnpit.engine import interp
from spawnpit.engine.game import Context
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
        if _past_limit(game, cursor):
            _out_of_rounds(game)
            break
        if stop_after_steps is not None and steps_done >= stop_after_steps:
            return None
        _advance(game, cursor)
        steps_done += 1
    return game.state["result"]


def _past_limit(game, cursor: dict) -> bool:
    """After the last round the game is over, unless the system says `after_last_round first_step`: then
    the next round opens and plays its first step, where a rule may end the game (LNOE: the Sun Track
    marker moving off its last space at the start of the next Zombie Turn)."""
    limit = rounds(game)
    if cursor["round"] <= limit:
        return False
    overtime = game.model.system.get("props", {}).get("after_last_round") == "first_step"
    return not (overtime and cursor["round"] == limit + 1 and cursor["phase"] == 0 and cursor["step"] == 0
                and "unit" not in cursor)


def _advance(game, cursor: dict) -> None:
    """Play one step (or the start/end of a phase or round) and move the cursor on.

    A phase with `activation unit` plays all its steps for one unit of its side at a time (the side's
    policy picks who goes next); its step events then carry that unit as `unit`."""
    phases = game.model.phases
    fresh = cursor["step"] == 0 and "unit" not in cursor
    if cursor["phase"] == 0 and fresh:
        game.state["round"] = cursor["round"]
        game.state["at"] = ["round"]
        _safe(game, "round.start")
    if cursor["phase"] >= len(phases):
        game.state["at"] = ["round"]
        _safe(game, "round.end")
        cursor.update(round=cursor["round"] + 1, phase=0, step=0)
        return
    phase = phases[cursor["phase"]]
    if not _plays(game, phase["props"].get("side")):
        cursor.update(phase=cursor["phase"] + 1, step=0)
        return
    steps = _blocks(phase, "step")
    each = phase["props"].get("activation") == "unit"
    if fresh:
        _moment(game, [phase["id"]], "start")
        _act(game, phase, phase, [phase["id"]])
        if each:
            cursor.update(unit=None, done=[])
    params = {}
    if each:
        if cursor["unit"] is None:
            unit = _next_unit(game, phase, cursor)
            if unit is None:
                _end_phase(game, phase, cursor)
                return
            cursor["unit"] = unit.id
        params = {"unit": Ref("unit", cursor["unit"])}
    if cursor["step"] < len(steps) and game.state["result"] is None and (not each or _on_board(game, cursor["unit"])):
        step = steps[cursor["step"]]
        path = [phase["id"], step["id"]]
        if not _moment(game, path, "start", params):
            _act(game, phase, step, path, params)
        _moment(game, path, "end", params)
        cursor["step"] += 1
    elif each:
        cursor["step"] = len(steps)
    if cursor["step"] >= len(steps):
        if each:
            cursor["done"].append(cursor["unit"])
            cursor.update(unit=None, step=0)
            return
        _end_phase(game, phase, cursor)


def _plays(game, side: str | None) -> bool:
    """Whether a side takes part: when a scenario gives player counts per side (`players zombies = 1-2`),
    the phases of a side it leaves out (LNOE's Martians in a Zombie scenario) are not played."""
    listed = {e.get("key") for e in game.model.scenario["props"].get("players", []) if isinstance(e, dict)}
    listed &= set(game.model.sides)
    return side is None or not listed or side in listed


def _on_board(game, unit_id: str) -> bool:
    return game.state["units"][unit_id]["space"] is not None


def _next_unit(game, phase: dict, cursor: dict) -> Ref | None:
    side = phase["props"].get("side")
    remaining = [u for u in game.units_of_side(side) if u.id not in cursor["done"]] if side else []
    if not remaining or game.state["result"] is not None:
        return None
    game.acting_side = side
    game.state["at"] = [phase["id"]]  # between two units' turns: the phase, not the last one's final step
    unit = game.choose(remaining, Ref("side", side), False, f"{phase['id']}: who acts", None, _order_score(game, phase))
    game.acting_side = None
    return unit


def _end_phase(game, phase: dict, cursor: dict) -> None:
    _moment(game, [phase["id"]], "end")
    cursor.pop("unit", None)
    cursor.pop("done", None)
    cursor.update(phase=cursor["phase"] + 1, step=0)


def _safe(game, event: str) -> None:
    try:
        game.emit(event)
    except interp.EndAction:
        pass


def _moment(game, path: list[str], suffix: str, params: dict | None = None) -> bool:
    """The start or end of a phase or step; True when a hook said `end` (at a start: skip the step)."""
    game.state["at"] = list(path)
    try:
        game.emit(".".join(path) + "." + suffix, dict(params or {}))
    except interp.EndAction:
        return True
    return False


def _act(game, phase: dict, block: dict, path: list[str], params: dict | None = None) -> None:
    """The phase or step itself: its hooks, then its actions, unit by unit, chosen by the side's policy
    (only the acting unit in a phase with `activation unit`)."""
    game.state["at"] = list(path)
    try:
        game.emit(".".join(path), dict(params or {}))
    except interp.EndAction:
        return
    actions = _blocks(block, "action")
    if not actions or game.state["result"] is not None:
        return
    side = block["props"].get("side") or phase["props"].get("side")
    if side is None:
        return
    game.acting_side = side
    acting = (params or {}).get("unit")
    remaining = [acting] if acting is not None else game.units_of_side(side)
    while remaining and game.state["result"] is None:
        unit = remaining[0] if acting is not None else game.choose(remaining, Ref("side", side), False,
                                                                   f"{'.'.join(path)}: who acts", None,
                                                                   _order_score(game, phase))
        remaining.remove(unit)
        if game.state["units"][unit.id]["space"] is None:
            continue
        allowed = [a for a in actions if _allowed(game, a, unit)]
        if not allowed:
            continue
        action = game.choose(allowed, Ref("side", side), True, f"{'.'.join(path)}: action of {unit.id}", None,
                             _action_score(game, unit))
        if action is not None:
            _action(game, action, unit, path)
    game.acting_side = None


def _block_exprs(game, block: dict, prop: str, unit: Ref):
    """An expression property of an action or phase (`require`, `prefer`), compiled once per block object
    (so once per pack, not per game: compiling is dear), and the context that shows it the `unit` (the
    acting one, or the one being ranked); (None, None) when the block has none."""
    exprs = block.get("props", {}).get(prop)
    if not exprs:
        return None, None
    found = _BLOCK_EXPRS.get((id(block), prop))
    if found is None or found[0] is not block:
        if len(_BLOCK_EXPRS) >= 4096:
            _BLOCK_EXPRS.clear()
        found = _BLOCK_EXPRS[(id(block), prop)] = (block, [interp.expr(e) for e in exprs])
    return found[1], Context(game, {"unit": unit}, None)


_BLOCK_EXPRS: dict[tuple[int, str], tuple[dict, list]] = {}  # (id(block), prop) → (the block, compiled)


def _allowed(game, action: dict, unit: Ref) -> bool:
    """Whether the unit may take the action now: every condition of its `require` holds (in order, so
    an earlier one may guard a later one)."""
    fns, ctx = _block_exprs(game, action, "require", unit)
    return fns is None or all(fn(ctx) for fn in fns)


def _action_score(game, unit: Ref):
    """An action's `prefer` (its score for the ai policy), evaluated with the acting `unit`."""
    def score(action: dict):
        fns, ctx = _block_exprs(game, action, "prefer", unit)
        return None if fns is None else [fn(ctx) for fn in fns]
    return score


def _order_score(game, phase: dict):
    """A phase's `prefer` (the ai policy's order for its side's units: the best-scored acts next),
    evaluated for each candidate `unit`; None when the phase has none (any order)."""
    if not phase.get("props", {}).get("prefer"):
        return None

    def score(unit: Ref):
        fns, ctx = _block_exprs(game, phase, "prefer", unit)
        return [fn(ctx) for fn in fns]
    return score


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
