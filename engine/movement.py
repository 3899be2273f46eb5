"""Moving units over the board by their kind's movement rules, one space at a time.

A kind says which edge kinds its units may cross (`through open, door`; LNOE Zombies add `wall`) and
which kinds of unit end a move on entering their space (`stop zombie`). The rules of a game never appear
here: `reach` is what a choice of destination ranges over, `steps` how far a place is for a unit, and
`walk` moves step by step, raising `KIND.entered` at each space so content can stop the move (`end`) or
forbid the space (`instead of … { cancel }`). While such an `instead of` hook is in play, `reach` and `walk`
ask it of each space they come to, so a move is never offered, nor routed through, a space it would be
turned back from (LNOE: Locked Door, Blocked Windows, Taken Over).

A marker the system declares with `through EDGE…` or `passes KIND…` changes that for the unit carrying it:
its edges are added to the kind's, and the spaces of its kinds no longer end the unit's walks (LNOE:
Johnny's Blitz! walks on through Zombie spaces, Escape Through the Windows takes the Heroes through
walls). `reach` and `walk` follow the unit's own rules; `steps` and `route` stay by its kind's.
"""

from __future__ import annotations

import math
from collections import deque

from spawnpit.engine.board import WALKING
from spawnpit.engine.events import unit_event
from spawnpit.engine.state import Ref, RefList


def _rules(game, unit: Ref) -> tuple[tuple[str, ...], frozenset[str]]:
    """The edges the unit's kind may cross and the kinds whose spaces end its walks."""
    kind = game.state["units"][unit.id]["kind"]
    cache = game.scratch.get("movement_rules")
    if cache is None:
        cache = game.scratch["movement_rules"] = {}
    found = cache.get(kind)
    if found is not None:
        return found
    if kind not in cache:
        props = game.model.kinds.get(kind, {}).get("props", {})
        through = props.get("through") or WALKING
        stop = props.get("stop") or ()
        cache[kind] = (tuple([through] if isinstance(through, str) else through),
                       frozenset([stop] if isinstance(stop, str) else stop))
        game.derived.through[kind] = cache[kind][0]
    return cache[kind]


def _own_rules(game, unit: Ref) -> tuple[tuple[str, ...], frozenset[str]]:
    """The unit's own edges and stopping kinds: its kind's, changed by the movement markers it carries."""
    found = _rules(game, unit)
    markers = game.state["units"][unit.id].get("markers")
    if markers:
        lifts = _marker_rules(game)
        if lifts:
            for marker, n in markers.items():
                lift = lifts.get(marker) if n else None
                if lift is not None:
                    through, stop = found
                    found = (tuple(dict.fromkeys(through + lift[0])), stop - lift[1])
    return found


def _marker_rules(game) -> dict[str, tuple[tuple[str, ...], frozenset[str]]]:
    """marker → (edges it adds, kinds whose stop it lifts), for the markers that say either."""
    found = game.scratch.get("movement_markers")
    if found is None:
        found = {}
        for block in game.model.system.get("blocks", []):
            if block.get("kind") != "marker":
                continue
            props = block.get("props", {})
            through, passes = props.get("through") or (), props.get("passes") or ()
            if through or passes:
                found[block["id"]] = (tuple([through] if isinstance(through, str) else through),
                                      frozenset([passes] if isinstance(passes, str) else passes))
        game.scratch["movement_markers"] = found
    return found


def _stops(game, space: str, stop: frozenset[str]) -> bool:
    if not stop:
        return False
    units = game.state["units"]
    return any(units[u]["kind"] in stop for u in game.unit_ids(space=space))


def _refusals(game, unit: Ref) -> tuple:
    """The hooks that may refuse the unit a space as it steps in (`instead of KIND.entered`: a walk that
    meets one goes back a step and stops), and those that may stop it there (`on KIND.entered` whose body
    says `end`: Lights Out), those of cards and units not in play left out."""
    hooks = game.model.hooks.get(f"{game.state['units'][unit.id]['kind']}.entered")
    if not hooks:
        return ()
    return tuple(h for h in hooks if (h.replace or h.ends) and (h.owner is None or game.in_play(h.owner)))


def _how(game, unit: Ref, honour_stop: bool, refuse: bool = True) -> tuple:
    """How the unit's search is made: (start, through, refusing, stop, stopping). With no hooks refusing
    spaces and no stopping spaces (`stopping` empty), the board's own cached search answers; `stopping`
    is None while hooks refuse spaces (the refusing search gathers them itself)."""
    start = game.state["units"][unit.id]["space"]
    through, stop = _own_rules(game, unit)
    if not honour_stop:
        return start, through, (), stop, frozenset()
    refusing = _refusals(game, unit) if refuse else ()
    if refusing:
        return start, through, refusing, stop, None
    if not stop:
        return start, through, (), stop, frozenset()
    units = game.state["units"]
    return start, through, (), stop, frozenset({units[u]["space"] for kind in stop for u in game.unit_ids(kind=kind)} - {start})


def _search(game, unit: Ref, honour_stop: bool, within=None, goal: str | None = None,
            refuse: bool = True, how: tuple | None = None) -> tuple[dict, dict]:
    """Breadth-first distances and parents from the unit's space; a stopping space is entered, never left
    (the starting space excepted: a unit may always move away from where it stands), and a space an
    `instead of KIND.entered` hook would refuse the unit is never entered. Without stops or refusals the
    board's cached search answers; with stops, the stopping spaces are gathered once per search. While
    hooks may refuse spaces, the search may end early: past `within` steps, or once `goal` is found (what
    the caller needs: the spaces of a move of n, the way to one space). `how`: what `_how` said, if the
    caller has asked it already."""
    start, through, refusing, stop, stopping = how or _how(game, unit, honour_stop, refuse)
    if refusing:
        return _refusing_search(game, unit, start, through, stop, refusing, within, goal)
    if not stopping:
        return game.board.search(start, through)
    # the search depends only on the board, the start, the kind's edges and the stopping spaces: remembered
    # for this game under exactly those (a unit moving changes `stopping`, so it asks afresh)
    searches = game.scratch.get("stopped_searches")
    if searches is None or len(searches) > 4096:
        searches = game.scratch["stopped_searches"] = {}
    key = (start, through, stopping)
    found = searches.get(key)
    if found is not None:
        return found
    adjacency = game.board.adjacency(through)
    dist, parent, queue = {start: 0}, {start: None}, deque([start])
    while queue:
        here = queue.popleft()
        if here in stopping:
            continue
        d = dist[here] + 1
        for n in adjacency[here]:
            if n not in dist:
                dist[n], parent[n] = d, here
                queue.append(n)
    searches[key] = (dist, parent)
    return dist, parent


_FROM = frozenset(("from", "event"))  # the names through which a hook reads where a unit steps in from


def _refusing_search(game, unit: Ref, start: str, through, stop, refusing: tuple, within, goal) -> tuple[dict, dict]:
    """_search while hooks may refuse spaces: each space the search comes to is asked of them (as the
    walk would raise its `entered` event), never remembered from one search to the next, since what they
    read can change any time; no further than `within` steps, and no further once `goal` is reached."""
    units, kind = game.state["units"], game.state["units"][unit.id]["kind"]
    stopping = {units[u]["space"] for k in stop for u in game.unit_ids(kind=k)} - {start} if stop else set()
    adjacency = game.board.adjacency(through)
    params = unit_event(kind, "entered", unit, Ref("space", start), None)[1]
    # a hook that reads neither where the unit comes from nor the event as a whole answers the same for a
    # space whichever way it is entered: it is asked once for each space, not once for each space next to it
    # refusals first: a space one refuses is not entered, whichever other hook would stop the unit there
    asks = [(game.asker(hook, params, ("space", "from")), {} if hook.reads is not None and not hook.reads & _FROM else None,
             hook.ends) for hook in sorted(refusing, key=lambda h: h.ends)]
    ref = game.table.ref
    dist, parent, queue = {start: 0}, {start: None}, deque([start])
    while queue:
        here = queue.popleft()
        if here in stopping:
            continue
        d = dist[here] + 1
        if within is not None and d > within:
            break  # breadth first: every space still queued is as far
        origin = ref("space", here)
        for n in adjacency[here]:
            if n in dist:
                continue
            space = ref("space", n)
            refused = ends = False
            for ask, by_space, stops in asks:
                if by_space is None:
                    applies = ask(space, origin)
                else:
                    applies = by_space.get(n)
                    if applies is None:
                        applies = by_space[n] = ask(space, origin)
                if applies:
                    refused, ends = not stops, stops
                    break
            if refused:
                continue  # refused from here; it may still be entered from another space (`event.from`)
            dist[n], parent[n] = d, here
            if n == goal:
                return dist, parent
            if not ends:  # stopped there, it goes no further (another way may still pass it by)
                queue.append(n)
    return dist, parent


def reach(game, unit: Ref, n) -> list[Ref]:
    """Every space the unit could end a move of up to n spaces in (its own space not included)."""
    record = game.state["units"][unit.id]
    if game.board is None or record["space"] is None:
        return []
    limit = int(n or 0)
    ref = game.table.ref
    how = _how(game, unit, True)
    start, through, refusing, _, stopping = how
    if not refusing and not stopping:  # the board's row and its order, nearest first: read no further than n
        board = game.board
        row, spaces, found = board.row(start, through), board.spaces, []
        for at in board.order(start, through):
            d = row[at]
            if d > limit:
                break
            if d:
                found.append(spaces[at])
        return RefList(ref("space", s) for s in sorted(found))
    dist, _ = _search(game, unit, True, within=limit, how=how)
    return RefList(ref("space", s) for s in sorted(s for s, d in dist.items() if 0 < d <= limit))


def steps(game, unit: Ref, place: str):
    """Moves the unit needs to reach `place` by its kind's rules; math.inf when it never can."""
    record = game.state["units"][unit.id]
    if game.board is None or record["space"] is None:
        return math.inf
    through, _ = _rules(game, unit)
    return game.board.search(record["space"], through)[0].get(place, math.inf)


def route(game, unit: Ref, start: str, to: str):
    """Moves a unit of this one's kind would need from `start` to `to` (stops not counted): how a rule
    compares the spaces a unit could step into by how much nearer they bring it to a goal."""
    if game.board is None:
        return math.inf
    through, _ = _rules(game, unit)
    return game.board.search(start, through)[0].get(to, math.inf)


def walk(game, unit: Ref, to: str, n, ctx) -> None:
    """Up to n steps along a shortest legal path toward `to`, raising KIND.entered at each space."""
    record = game.state["units"][unit.id]
    if game.board is None or record["space"] is None:
        return
    if record["space"] == to:  # a move to where it stands: said in the log ("Sally stays in …"), nothing moves
        game.log({"type": "move", "unit": unit.id, "from": to, "to": to}, ctx.rule)
        return
    how = _how(game, unit, True)
    start, through, refusing, _, stopping = how
    if not refusing and not stopping:  # the board's own search: its path read off the cached row
        path = list(game.board.way(start, to, through))[1:]
        if not path:
            return
    else:
        _, parent = _search(game, unit, True, goal=to, how=how)
        if to not in parent:  # refused itself (or out of reach): the way there as if nothing refused, so the
            _, parent = _search(game, unit, True, refuse=False)  # walk is turned back where it is refused
            if to not in parent:
                return
        path = [to]
        while parent[path[-1]] is not None:
            path.append(parent[path[-1]])
        path = list(reversed(path))[1:]
    _, stop = _own_rules(game, unit)
    for space in path[:max(0, int(n))]:
        origin = record["space"]
        game.move_unit(unit, Ref("space", space), ctx)
        outcome = game.raise_now(*unit_event(record["kind"], "entered", unit, Ref("space", space), Ref("space", origin)))
        if outcome == "replaced":
            game.move_unit(unit, Ref("space", origin), ctx, back=True)
            return
        if outcome == "ended" or record["space"] != space or _stops(game, space, stop):
            return
