"""Where the grids of a composite board lie on the table, worked out from the links between them, so the
terminal can draw the whole town as one map instead of one panel per board.

Nothing here knows a game: a board is its spaces, each space's grid and cell, and the edges between
spaces. Two grids joined by links are two rigid pieces; the second is turned a quarter at a time and
slid until every link between them joins cells that touch (side or corner) and no cell lies on
another. A grid that no such placement fits (a centre board whose spaces are bigger than the cells
around it) is drawn in the hole its neighbours leave, when they leave one. A board whose grids cannot
all be placed has no map (None): the terminal then draws the grids one by one, as before.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

_AROUND = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]


@dataclass(frozen=True, slots=True)
class Hole:
    """A grid drawn inside the empty rectangle that the placed grids leave around it."""

    grid: str
    left: int
    top: int
    right: int   # inclusive
    bottom: int  # inclusive


@dataclass(frozen=True, slots=True)
class Map:
    """Every gridded space at a cell of one picture (x to the right, y down, both from 0), and the
    grids drawn in holes."""

    at: dict       # space id → (x, y)
    holes: tuple   # Hole, …
    width: int
    height: int

    def space_at(self) -> dict:
        """(x, y) → space id."""
        return {xy: sid for sid, xy in self.at.items()}


def _turn(cell: tuple, k: int) -> tuple:
    """A cell turned k quarter turns clockwise about the origin."""
    x, y = cell
    for _ in range(k % 4):
        x, y = -y, x
    return x, y


def town_map(spaces: dict, links: list, toward: dict | None = None) -> Map | None:
    """`spaces`: space id → (grid, (x, y)) for every gridded space; `links`: the (a, b) edges between
    spaces (either order, repeats and edges within a grid allowed); `toward`: grid → (dx, dy), the side
    of the table a grid lies toward (-1 left or up, 1 right or down, 0 either), which the whole map is
    turned to agree with best. The map, or None when the grids cannot all be placed (one grid, or none,
    is no composite: None too)."""
    grids: dict[str, dict] = {}
    for sid, (grid, cell) in spaces.items():
        grids.setdefault(grid, {})[sid] = tuple(cell)
    if len(grids) < 2:
        return None
    across: dict[frozenset, set] = {}
    for a, b in links:
        if a in spaces and b in spaces and spaces[a][0] != spaces[b][0]:
            across.setdefault(frozenset((spaces[a][0], spaces[b][0])), set()).add((a, b) if a < b else (b, a))
    first = max(grids, key=lambda g: (len(grids[g]), -list(grids).index(g)))
    at = dict(grids[first])
    placed, waiting = [first], [g for g in grids if g != first]
    while waiting:
        found = None
        for grid in waiting:
            pairs = [p for other in placed for p in across.get(frozenset((grid, other)), ())]
            if pairs:
                found = _place(grids[grid], pairs, at)
                if found is not None:
                    break
        if found is None:
            break
        at.update(found)
        placed.append(grid)
        waiting.remove(grid)
    holes = []
    for grid in waiting:
        hole = _hole(grid, grids, across, at, placed)
        if hole is None:
            return None
        holes.append(hole)
    if toward:
        k = max(range(4), key=lambda k: (_agree(grids, at, toward, k), -k))
        at = {sid: _turn(xy, k) for sid, xy in at.items()}
        holes = [_turned_hole(h, k) for h in holes]
    xs = [x for x, _ in at.values()] + [h.left for h in holes] + [h.right for h in holes]
    ys = [y for _, y in at.values()] + [h.top for h in holes] + [h.bottom for h in holes]
    x0, y0 = min(xs), min(ys)
    return Map(at={sid: (x - x0, y - y0) for sid, (x, y) in at.items()},
               holes=tuple(Hole(h.grid, h.left - x0, h.top - y0, h.right - x0, h.bottom - y0) for h in holes),
               width=max(xs) - x0 + 1, height=max(ys) - y0 + 1)


def _place(cells: dict, pairs: list, at: dict) -> dict | None:
    """The grid's cells (space → local cell) where every link in `pairs` (to spaces already in `at`)
    joins touching cells and none lies on a placed one; among several, the one whose sides touch placed
    cells they have no link with the fewest times. None when there is none."""
    near = {xy: sid for sid, xy in at.items()}
    taken = set(near)
    linked = {frozenset(p) for p in pairs}
    best, best_cost = None, None
    for k in range(4):
        turned = {sid: _turn(cell, k) for sid, cell in cells.items()}
        votes = Counter()
        for a, b in pairs:
            mine, theirs = (a, b) if a in cells else (b, a)
            (tx, ty), (mx, my) = at[theirs], turned[mine]
            for dx, dy in _AROUND:
                votes[(tx + dx - mx, ty + dy - my)] += 1
        for (ox, oy), n in votes.most_common():
            if n < len(pairs):
                break
            moved = {sid: (x + ox, y + oy) for sid, (x, y) in turned.items()}
            if taken & set(moved.values()):
                continue
            if not all(_touch(moved.get(a) or at[a], moved.get(b) or at[b]) for a, b in pairs):
                continue
            cost = sum(1 for sid, (x, y) in moved.items() for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                       if (x + dx, y + dy) in near and frozenset((sid, near[x + dx, y + dy])) not in linked)
            if best_cost is None or cost < best_cost:
                best, best_cost = moved, cost
    return best


def _agree(grids: dict, at: dict, toward: dict, k: int) -> int:
    """How many of the sides the grids should lie toward they do, the whole map turned k quarters."""
    turned = {sid: _turn(xy, k) for sid, xy in at.items()}
    xs, ys = [x for x, _ in turned.values()], [y for _, y in turned.values()]
    mx, my = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    score = 0
    for grid, (dx, dy) in toward.items():
        cells = [turned[sid] for sid in grids.get(grid, ()) if sid in turned]
        if cells:
            cx, cy = sum(x for x, _ in cells) / len(cells), sum(y for _, y in cells) / len(cells)
            score += (dx != 0 and (cx - mx) * dx > 0) + (dy != 0 and (cy - my) * dy > 0)
    return score


def _turned_hole(hole: Hole, k: int) -> Hole:
    (ax, ay), (bx, by) = _turn((hole.left, hole.top), k), _turn((hole.right, hole.bottom), k)
    return Hole(hole.grid, min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))


def _touch(a: tuple, b: tuple) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def _hole(grid: str, grids: dict, across: dict, at: dict, placed: list) -> Hole | None:
    """The empty rectangle inside the placed cells this grid links to (their bounding box less its
    rim), when it is empty and the grid links to nothing else; else None."""
    linked = set()
    for other in grids:
        for a, b in across.get(frozenset((grid, other)), ()):
            theirs = b if a in grids[grid] else a
            if theirs not in at:
                return None  # linked to another grid that could not be placed either
            linked.add(at[theirs])
    if not linked:
        return None
    x0, x1 = min(x for x, _ in linked) + 1, max(x for x, _ in linked) - 1
    y0, y1 = min(y for _, y in linked) + 1, max(y for _, y in linked) - 1
    if x0 > x1 or y0 > y1:
        return None
    taken = set(at.values())
    if any((x, y) in taken for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)):
        return None
    return Hole(grid, x0, y0, x1, y1)
