"""Board geometry: flattening a compiled board object (and its parts) into namespaced spaces and
typed edges, and the plane arithmetic of grid boards (corners, Line of Sight).

Separate from board.py so its queries read against finished data, and so the one place that knows
the pack's board layout (props, blocks, `parts`/`pick`) is small. Every choice is deterministic:
declaration order first, never set or hash order.

How edges get their kind, and why (LNOE = Last Night on Earth base rulebook 2007, seed 001; CR = the
Unofficial Complete Rulebook v2.0, seed 000):

- A grid joins each space to its orthogonal and diagonal neighbours.
- An orthogonal grid edge is what the board declares for that pair (`door` over `window` over `wall`
  over `link`; a `link` makes it open). Undeclared, it is a `wall` when the two spaces are not in the
  same building: "Every space is either an Outdoor Space or a Building Space (those within building
  walls)" and "Walls run along the edge of certain spaces to show the border of a building" (LNOE,
  Spaces/Walls). So a building's outline needs no listing wall by wall, and a forgotten wall cannot
  leave a building open (the built-in L-boards rely on this at b1-c1 and c1-d1).
- A diagonal grid edge is `corner` when walls (doors, windows) at the grid point it passes stand on both
  sides of the step, or a `corner a, b` wall stub sits there: a wall line running through the point, the
  corner of a building the step leaves or enters ("Heroes may NOT move diagonally through a Door", LNOE,
  Doors and Hero Turn 1) Move; CR 8.4.3), a Corner Wall ("Walls prevent Heroes from moving diagonally
  around a corner (or across the center in the case of the plus-shaped Corner Wall)", LNOE, Corner
  Walls; CR 3.3.2.1; declared as `corner` stubs), two buildings touching corners (a Pinch Point, CR
  3.3.11: its Agility test, or the Student rule, is not modelled: a Hero never squeezes through). One building's ordinary
  outer corner walls one side only: "Only two things stop a Hero's movement, Zombies and Walls" (LNOE,
  Hero Turn 1) Move), so a Hero steps round it diagonally. Otherwise `open`.
- Where two grids join (a composite board's `link`s between their edge cells), the same holds: a
  `link` between two spaces not in the same building is a `wall` (the building's outline runs along
  its board's edge), unless the pair is declared a door or window.
- Any other declared pair (links to non-grid spaces, zone boards) is an edge of the declared kind.
- Track spaces are linked in their listed order.

Who may cross which kind is a rule, not geometry: the board only names kinds, and callers pass
`through=` (Heroes: open and door; Zombies "may even move through Walls", LNOE Zombie Turn 4) Move
Zombies and CR 8.1, so every kind).

Grid arithmetic is on integers: coordinates are doubled, so a
space centre is odd, (2c+1, 2r+1), and every wall lies on an even line. A sight line between two
centres therefore never runs along a wall line; it crosses it, or passes exactly through a grid corner,
and exact integers decide the corner cases the rulebooks care about (a Hero at a building's exterior
corner).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from fractions import Fraction

from spawnpit.engine.layout import _turn

# Edge kinds. `corner`: a diagonal step that squeezes past a wall end, door, window or declared corner
# wall at the grid point it crosses; `open`: nothing in the way.
KINDS = ("open", "door", "window", "wall", "corner")
WALLED = frozenset({"wall", "door", "window"})  # segments that stop a diagonal step around them
SIGHT_BLOCKING = frozenset({"wall", "door"})     # a door is a break in a wall, and blocks sight like one

Cell = tuple[int, int]  # (column, row), 0-based; a1 is (0, 0)


def column(index: int) -> str:
    """Grid column letters as the compiler names them: a … z, aa, ab, …"""
    out, index = "", index + 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(97 + rest) + out
    return out


def grid_cells(cols: int, rows: int) -> dict[str, Cell]:
    """Space name → cell, column-major like the compiler's computed `spaces` (a1, a2, …, b1, …)."""
    return {f"{column(c)}{r + 1}": (c, r) for c in range(cols) for r in range(rows)}


def orthogonal_pairs(cols: int, rows: int) -> list[tuple[Cell, Cell]]:
    out = []
    for c in range(cols):
        for r in range(rows):
            if c + 1 < cols:
                out.append(((c, r), (c + 1, r)))
            if r + 1 < rows:
                out.append(((c, r), (c, r + 1)))
    return out


def diagonal_pairs(cols: int, rows: int) -> list[tuple[Cell, Cell]]:
    out = []
    for c in range(cols - 1):
        for r in range(rows - 1):
            out += [((c, r), (c + 1, r + 1)), ((c + 1, r), (c, r + 1))]
    return out


def corner_point(a: Cell, b: Cell) -> tuple[int, int]:
    """The grid point a diagonal step between two cells passes through."""
    return max(a[0], b[0]), max(a[1], b[1])


def segment(a: Cell, b: Cell) -> tuple[str, int, int, int]:
    """The wall line between two orthogonal cells, doubled: (axis, line, low, high).

    axis "x": a vertical edge at x = line spanning y in [low, high]; axis "y": horizontal."""
    if a[1] == b[1]:
        x = 2 * max(a[0], b[0])
        return ("x", x, 2 * a[1], 2 * a[1] + 2)
    y = 2 * max(a[1], b[1])
    return ("y", y, 2 * a[0], 2 * a[0] + 2)


@dataclass(frozen=True, slots=True, kw_only=True)
class SightMap:
    """The sight-blocking wall segments of one grid, grouped into straight runs.

    A run is a maximal straight, unbroken stretch of wall (doors included): the rulebooks let a model
    see through "any wall they are touching", and the Complete Rulebook's footnote 54 reads that as the
    whole wall, "even if Line of Sight passes through the wall in another space than that of the model".
    """

    segments: tuple[tuple[int, str, int, int, int], ...]  # (run, axis, line, low, high)
    touching: dict  # cell → frozenset of the runs on its four edges
    _clear: dict = field(default_factory=dict, repr=False, compare=False)  # (a, b) → `clear` with nothing opaque

    @classmethod
    def build(cls, walls: list[tuple[Cell, Cell]]) -> "SightMap":
        lines: dict[tuple[str, int], list[tuple[int, int, Cell, Cell]]] = {}
        for a, b in walls:
            axis, line, low, high = segment(a, b)
            lines.setdefault((axis, line), []).append((low, high, a, b))
        segments, touching = _runs(lines)
        return cls(segments=tuple(segments), touching=touching)

    def clear(self, a: Cell, b: Cell, opaque: frozenset = frozenset()) -> bool:
        """Centre-to-centre sight from a to b: stopped by any part of a wall a does not touch, and by
        any opaque cell the line passes through (other than its two ends)."""
        if not opaque:  # the commonest question, the same for every board laid out with this grid
            found = self._clear.get((a, b))
            if found is None:
                found = self._clear[a, b] = self._walls_clear(a, b)
            return found
        p, q = (2 * a[0] + 1, 2 * a[1] + 1), (2 * b[0] + 1, 2 * b[1] + 1)
        return self._walls_clear(a, b) and not any(c not in (a, b) and _through_cell(p, q, c) for c in opaque)

    def _walls_clear(self, a: Cell, b: Cell) -> bool:
        p, q = (2 * a[0] + 1, 2 * a[1] + 1), (2 * b[0] + 1, 2 * b[1] + 1)
        touched = self.touching.get(a, frozenset())
        for run, axis, line, low, high in self.segments:
            if run not in touched and _crosses(p, q, axis, line, low, high):
                return False
        return True


@dataclass(frozen=True, slots=True, kw_only=True)
class TownSight:
    """Line of Sight across the grids of a composite board laid out as on the table (engine.layout):
    the rules of SightMap, over every grid at once.

    Each gridded space is a box in one plane (doubled coordinates, as SightMap's): a cell of a grid the
    layout placed is a unit square; the spaces of a grid drawn in a hole (the Town Center, the Manor
    House) share the hole evenly, so their boxes may be bigger and their corners fractions. A wall is
    the boundary two boxes share, for every sight-blocking edge between them. Exact throughout.

    `owner` says whose wall a segment is: the grid both its spaces belong to, or None for a wall
    where two grids meet. A question about two cells of one grid is the grid's own SightMap's answer
    (which every layout shares) and `clear(…, within=grid)`, the walls that map does not know: the
    plane's answer exactly, unless the viewer touches a run that goes on past its grid's own walls
    (`mixed`), which only the plane sees whole (Board._grid_sight)."""

    centre: dict     # space id → (x, y), the centre of its box
    box: dict        # space id → (x0, y0, x1, y1)
    segments: tuple  # (run, axis, line, low, high, owner)
    touching: dict   # space id → frozenset of the runs along its box's edges
    inside: dict     # grid → the segments not its own that a line between two of its cells may cross
    mixed: dict      # grid → the runs holding a segment not its own

    @classmethod
    def build(cls, box: dict, walls: list, grid_of: dict) -> "TownSight":
        """`box`: space id → its box; `walls`: the (a, b) pairs with a sight-blocking edge (a pair
        whose boxes share no stretch of boundary has no wall in the plane and is left out). The boxes'
        corners are even integers (see `integral`), so every centre is an integer too."""
        assert all(type(v) is int and v % 2 == 0 for corners in box.values() for v in corners), "see integral"
        lines: dict = {}
        for a, b in walls:
            found = shared_edge(box[a], box[b])
            if found is not None:
                axis, line, low, high = found
                owner = grid_of[a] if grid_of[a] == grid_of[b] else None
                lines.setdefault((axis, line), []).append((low, high, a, b, owner))
        segments, touching = _runs(lines)
        centre = {sid: ((x0 + x1) // 2, (y0 + y1) // 2) for sid, (x0, y0, x1, y1) in box.items()}
        inside, mixed = {}, {}
        for grid in set(grid_of.values()):
            mine = [box[sid] for sid in box if grid_of[sid] == grid]
            x0, y0 = min(b[0] for b in mine), min(b[1] for b in mine)
            x1, y1 = max(b[2] for b in mine), max(b[3] for b in mine)
            inside[grid] = tuple(seg for seg in segments if seg[5] != grid and (
                x0 < seg[2] < x1 and seg[3] < y1 and seg[4] > y0 if seg[1] == "x" else
                y0 < seg[2] < y1 and seg[3] < x1 and seg[4] > x0))
            mixed[grid] = frozenset(seg[0] for seg in segments if seg[5] != grid)
        return cls(centre=centre, box=box, segments=tuple(segments), touching=touching, inside=inside, mixed=mixed)

    def clear(self, a: str, b: str, opaque: frozenset = frozenset(), within: str | None = None) -> bool:
        """Centre-to-centre sight from space a to space b: stopped by any wall a does not touch and by
        the box of any `opaque` space the line passes through (other than its ends). With `within` (the
        grid of both), only the walls that are not that grid's own."""
        p, q = self.centre[a], self.centre[b]
        touched = self.touching.get(a, frozenset())
        for run, axis, line, low, high, _ in (self.segments if within is None else self.inside.get(within, ())):
            if run not in touched and _crosses(p, q, axis, line, low, high):
                return False
        return not any(s not in (a, b) and s in self.box and _through_box(p, q, self.box[s]) for s in opaque)


def integral(box: dict) -> dict:
    """The boxes scaled so every corner is an even integer (a hole's boxes may have fractions), and so
    every centre an integer: integer arithmetic is exact and quick. Scaling changes no answer."""
    scale = 2
    for corners in box.values():
        for v in corners:
            if type(v) is Fraction:
                scale = math.lcm(scale, 2 * v.denominator)
    return {sid: tuple(int(v * scale) for v in corners) for sid, corners in box.items()}


def shared_edge(a: tuple, b: tuple) -> tuple | None:
    """The stretch of boundary two boxes (x0, y0, x1, y1) share, as (axis, line, low, high) (see
    `segment`), or None when they meet in a point or not at all."""
    for axis, i in (("x", 0), ("y", 1)):
        j = 1 - i
        if a[i + 2] == b[i] or b[i + 2] == a[i]:
            low, high = max(a[j], b[j]), min(a[j + 2], b[j + 2])
            if low < high:
                return (axis, a[i + 2] if a[i + 2] == b[i] else a[i], low, high)
    return None


def hole_boxes(cells: dict, hole, linked: list, at: dict) -> dict:
    """The boxes (doubled) of a grid drawn in a layout's hole: `cells` space → its cell in the grid,
    `hole` the rectangle of table cells it fills (engine.layout.Hole), `linked` the (its space, a
    placed space) links, `at` the placed spaces' cells. The grid is turned the quarter that brings
    linked spaces closest together (the first such turn on a tie), then stretched to fill the hole."""
    width, height = hole.right - hole.left + 1, hole.bottom - hole.top + 1
    turns = [{sid: _turn(cell, k) for sid, cell in cells.items()} for k in range(4)]
    xs, ys = [x for x, _ in turns[0].values()], [y for _, y in turns[0].values()]
    unit = (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1)  # every box corner is a whole number of 1/unit
    best, best_cost = None, None
    for turned in turns:
        x0, y0 = min(x for x, _ in turned.values()), min(y for _, y in turned.values())
        cols = max(x for x, _ in turned.values()) - x0 + 1
        rows = max(y for _, y in turned.values()) - y0 + 1
        sx, sy = 2 * width * unit // cols, 2 * height * unit // rows
        left, top = 2 * hole.left * unit, 2 * hole.top * unit
        boxes = {sid: (left + (x - x0) * sx, top + (y - y0) * sy, left + (x - x0 + 1) * sx, top + (y - y0 + 1) * sy)
                 for sid, (x, y) in turned.items()}
        cost = 0
        for mine, theirs in linked:
            bx0, by0, bx1, by1 = boxes[mine]
            tx, ty = at[theirs]
            cost += (bx0 + bx1 - 2 * unit * (2 * tx + 1)) ** 2 + (by0 + by1 - 2 * unit * (2 * ty + 1)) ** 2
        if best_cost is None or cost < best_cost:
            best, best_cost = boxes, cost
    return {sid: tuple(Fraction(v, unit) for v in corners) for sid, corners in best.items()}


def _runs(lines: dict) -> tuple[list, dict]:
    """Wall segments grouped into runs: `lines` maps (axis, line) to its segments, each (low, high, a, b,
    *more), a and b the two sides' cells or spaces. The segments (run, axis, line, low, high, *more), in
    order, a run being a maximal straight stretch with no gap (segments that meet or overlap share it),
    and what each side touches (a, b → frozenset of runs)."""
    segments, touching, run = [], {}, -1
    for (axis, line), parts in sorted(lines.items()):
        end = None
        for low, high, a, b, *more in sorted(parts, key=lambda part: part[:4]):
            run += 1 if end is None or low > end else 0
            end = high if end is None else max(end, high)
            segments.append((run, axis, line, low, high, *more))
            for side in (a, b):
                touching[side] = touching.get(side, frozenset()) | {run}
    return segments, touching


def _crosses(p, q, axis: str, line: int, low: int, high: int) -> bool:
    """Whether segment p→q meets the closed wall segment (touching an end counts: footnote 54's
    "any portion of any other wall", and the base rulebook's exterior-corner example)."""
    i, j = (0, 1) if axis == "x" else (1, 0)
    d = q[i] - p[i]
    if d == 0 or not min(p[i], q[i]) < line < max(p[i], q[i]):
        return False
    num = p[j] * d + (line - p[i]) * (q[j] - p[j])  # the crossing's other coordinate, times d
    lo, hi = (low * d, high * d) if d > 0 else (high * d, low * d)
    return lo <= num <= hi


def _through_cell(p, q, cell: Cell) -> bool:
    """Whether segment p→q passes through the inside of a cell (clipping, exact with integers).

    Grazing a corner does not count: a line that only touches a corner point sees past it."""
    return _through_box(p, q, (2 * cell[0], 2 * cell[1], 2 * cell[0] + 2, 2 * cell[1] + 2))


def _through_box(p, q, box) -> bool:
    """Whether segment p→q passes through the inside of a box (x0, y0, x1, y1), doubled coordinates
    (integers or fractions: exact either way)."""
    t0, t1 = (0, 1), (1, 1)  # fractions as (numerator, denominator), denominators positive
    for i in (0, 1):
        d, lo, hi = q[i] - p[i], box[i], box[i + 2]
        if d == 0:
            if not lo < p[i] < hi:
                return False
            continue
        a, b = (lo - p[i], d), (hi - p[i], d)
        if d < 0:
            a, b = (-(hi - p[i]), -d), (-(lo - p[i]), -d)
        t0 = max(t0, a, key=_value)
        t1 = min(t1, b, key=_value)
    return _value(t0) < _value(t1)


def _value(f: tuple[int, int]) -> Fraction:
    return Fraction(f[0], f[1])


# ---- flattening a board object ----------------------------------------------------------------

FEATURES = ("link", "wall", "door", "window", "corner")
MARKERS = ("spawn", "start", "objective")
_PRECEDENCE = ("door", "window", "wall", "corner", "link")  # a pair declared twice: a door in a wall


class BoardError(ValueError):
    """A board object the engine cannot build. The compiler checks board names, so this is a bug
    upstream (or a hand-edited pack), never a player's mistake."""


def listed(value) -> list:
    """A prop as a list: the compiler writes a single value bare and several as a list."""
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


@dataclass(slots=True)
class Draft:
    """The board being flattened; mutable only while assembling."""

    boards: dict
    rng: random.Random | None
    order: list = field(default_factory=list)
    info: dict = field(default_factory=dict)          # id → {title, terrain, tags, grid, cell}
    declared: list = field(default_factory=list)      # (kind, a, b)
    chains: list = field(default_factory=list)        # declared `link` lists: straight sight lines
    picked: dict = field(default_factory=dict)        # board id → the parts its `pick` drew
    placed: dict = field(default_factory=dict)        # (`pick` board, one of its places) → the part laid there
    buildings: dict = field(default_factory=dict)     # id → {title, spaces, roll, pick_up}
    tracks: dict = field(default_factory=dict)        # id → {title, spaces, stacking}
    markers: dict = field(default_factory=lambda: {k: [] for k in MARKERS})
    grids: dict = field(default_factory=dict)         # grid id → (cols, rows, {cell: space})


def assemble(boards: dict, board: dict, rng: random.Random | None) -> Draft:
    draft = Draft(boards=boards, rng=rng)
    _add(draft, board, "", ())
    return draft


def _add(d: Draft, obj: dict, prefix: str, seen: tuple) -> None:
    """Add one board under `prefix`: its own spaces, then its parts (namespaced `part.`), then what
    it declares, which may name its parts' spaces bare (as the compiler allows)."""
    if obj["id"] in seen:
        raise BoardError(f"board `{obj['id']}` contains itself")
    own = _own_spaces(d, obj, prefix)
    inner: list[str] = []
    for part in chosen_parts(d, obj):
        start = len(d.order)
        _add(d, part, f"{prefix}{part['id']}.", seen + (obj["id"],))
        inner += d.order[start:]
    resolve = _resolver(own, inner, prefix, obj["id"])
    _blocks(d, obj, prefix, resolve)
    props = obj.get("props", {})
    absent = _unpicked(d, obj)
    for kind in FEATURES:
        for entry in listed(props.get(kind)):
            entry = [_placed(d, n) for n in listed(entry)]
            if None in entry or absent and any(set(n.split(".")) & absent for n in entry):
                continue  # it joins a part that `pick` left out of this game (or a place no part took)
            names = [resolve(n) for n in entry]
            d.declared += [(kind, a, b) for a, b in zip(names, names[1:])]
            if kind == "link" and len(names) > 1:
                d.chains.append(tuple(names))
    for kind in MARKERS:
        names = [_placed(d, n) for n in listed(props.get(kind))]
        d.markers[kind] += [resolve(n) for n in names if n is not None]


def _placed(d: Draft, name: str) -> str | None:
    """A path through a place of a `pick` board (`l_boards.northwest.d4`: the board, then one of its
    places) as the path through the part drawn to that place (`l_boards.barn_farmhouse.d4`); None when no
    part was laid there. Only a place right after its own board's name is read as one."""
    if not d.placed or "." not in name:
        return name
    bits = name.split(".")
    for i in range(len(bits) - 1):
        key = (bits[i], bits[i + 1])
        if key in d.placed:
            if d.placed[key] is None:
                return None
            bits[i + 1] = d.placed[key]
    return ".".join(bits)


def _unpicked(d: Draft, obj: dict) -> set[str]:
    """Ids of the part boards, at any depth below `obj`, that a `pick` did not draw for this game."""
    out: set[str] = set()
    for name in listed(obj.get("props", {}).get("parts")):
        part = d.boards.get(name)
        if part is None:
            continue
        picked = {p["id"] for p in d.picked.get(obj["id"], [])} if obj["id"] in d.picked else None
        if picked is not None and name not in picked:
            out.add(name)
        else:
            out |= _unpicked(d, part)
    return out


def chosen_parts(d: Draft, obj: dict) -> list[dict]:
    """`parts`, or with `pick N` N of them: drawn with the seeded rng (kept in declaration order, so
    ids and iteration do not depend on the draw order), or the first N without one."""
    names = listed(obj.get("props", {}).get("parts"))
    missing = [n for n in names if n not in d.boards]
    if missing:
        raise BoardError(f"board `{obj['id']}`: no part board {', '.join(map(repr, missing))}")
    if len(set(names)) != len(names):
        raise BoardError(f"board `{obj['id']}` lists a part twice; its spaces would share names")
    pick = obj.get("props", {}).get("pick")
    if pick is None:
        return [d.boards[n] for n in names]
    if not 0 <= pick <= len(names):
        raise BoardError(f"board `{obj['id']}` picks {pick} of {len(names)} parts")
    drawn = list(range(pick)) if d.rng is None else list(d.rng.sample(range(len(names)), pick))
    d.picked[obj["id"]] = [d.boards[names[i]] for i in sorted(drawn)]
    places = listed(obj.get("props", {}).get("places"))
    for k, place in enumerate(places):  # laid out in the order drawn: the first part drawn, the first place
        d.placed[obj["id"], place] = names[drawn[k]] if k < len(drawn) else None
    return d.picked[obj["id"]]


def _own_spaces(d: Draft, obj: dict, prefix: str) -> dict[str, str]:
    """Register the board's own spaces: grid cells, then declared spaces/zones, then the compiler's
    computed list; name → namespaced id."""
    own: dict[str, str] = {}
    grid = obj.get("props", {}).get("grid")
    if isinstance(grid, list) and len(grid) == 2:
        gid = prefix + obj["id"]
        void = set(listed(obj.get("props", {}).get("void")))  # cells cut out of the grid (an L-shaped board)
        cells = {name: cell for name, cell in grid_cells(*grid).items() if name not in void}
        d.grids[gid] = (grid[0], grid[1], {cell: prefix + name for name, cell in cells.items()})
        for name, cell in cells.items():
            own[name] = _register(d, prefix + name, name, gid, cell)
    declared = [b["id"] for b in obj.get("blocks", []) if b.get("kind") in ("space", "zone")]
    for name in declared + listed(obj.get("props", {}).get("spaces")) + listed(obj.get("spaces")):
        if name not in own:
            own[name] = _register(d, prefix + name, name, None, None)
    return own


def _register(d: Draft, sid: str, name: str, gid, cell) -> str:
    d.order.append(sid)
    d.info[sid] = {"title": name, "terrain": None, "tags": (), "grid": gid, "cell": cell}
    return sid


def _resolver(own: dict, inner: list[str], prefix: str, board_id: str):
    """A name as a board writes it: its own space, a dotted path into its parts, or the one space of
    that name among its parts."""
    tails: dict[str, list[str]] = {}
    for sid in inner:
        bits = sid[len(prefix):].split(".")
        for i in range(len(bits)):
            tails.setdefault(".".join(bits[i:]), []).append(sid)

    def resolve(name: str) -> str:
        if name in own:
            return own[name]
        hits = tails.get(name, [])
        if len(hits) != 1:
            why = "names no space" if not hits else f"is ambiguous ({', '.join(hits[:4])})"
            raise BoardError(f"board `{board_id}`: `{name}` {why}")
        return hits[0]

    return resolve


def _blocks(d: Draft, obj: dict, prefix: str, resolve) -> None:
    for block in obj.get("blocks", []):
        props, kind = block.get("props", {}), block.get("kind")
        title = block.get("title") or block["id"]
        if kind in ("space", "zone"):
            d.info[resolve(block["id"])].update(
                title=title, terrain=props.get("terrain"), tags=tuple(listed(props.get("tags"))))
        elif kind == "building":
            d.buildings[prefix + block["id"]] = {
                "title": title, "spaces": tuple(resolve(n) for n in listed(props.get("spaces"))),
                "roll": tuple(listed(props.get("roll"))), "pick_up": props.get("pick_up")}
        elif kind == "track":
            spaces = tuple(resolve(n) for n in listed(props.get("spaces")))
            d.tracks[prefix + block["id"]] = {"title": title, "spaces": spaces, "stacking": props.get("stacking")}
            d.declared += [("link", a, b) for a, b in zip(spaces, spaces[1:])]


def edge_kinds(d: Draft, building_of: dict) -> dict[tuple[str, str], tuple[str, bool]]:
    """(a, b) with a < b → (kind, diagonal?) for every edge; see the module docstring for the rules."""
    declared: dict[tuple[str, str], set] = {}
    corners: set = set()
    for kind, a, b in d.declared:
        ia, ib = d.info[a], d.info[b]
        if a == b:
            continue
        if kind == "corner" and ia["grid"] and ia["grid"] == ib["grid"] and _diagonal(ia["cell"], ib["cell"]):
            corners.add((ia["grid"], corner_point(ia["cell"], ib["cell"])))
        else:
            declared.setdefault(_key(a, b), set()).add(kind)
    kinds: dict[tuple[str, str], tuple[str, bool]] = {}
    for gid, (cols, rows, at) in d.grids.items():
        for x, y in orthogonal_pairs(cols, rows):
            if x not in at or y not in at:  # a void cell: no edge
                continue
            a, b = at[x], at[y]
            implicit = "open" if building_of.get(a) == building_of.get(b) else "wall"
            kinds[_key(a, b)] = (_winner(declared.get(_key(a, b))) or implicit, False)
        for x, y in diagonal_pairs(cols, rows):
            if x not in at or y not in at:
                continue
            point = corner_point(x, y)
            stub = (gid, point) in corners or _walled_across(kinds, at, x, y)
            kinds[_key(at[x], at[y])] = (_winner(declared.get(_key(at[x], at[y]))) or
                                         ("corner" if stub else "open"), True)
    for key, found in declared.items():
        if key not in kinds:
            kind = _winner(found)
            a, b = key
            ga, gb = d.info[a]["grid"], d.info[b]["grid"]
            if kind == "open" and ga and gb and ga != gb and building_of.get(a) != building_of.get(b):
                kind = "wall"  # where two boards join, a building's outline runs along the board's edge
            kinds[key] = (kind, False)
    return kinds


def _walled_across(kinds: dict, at: dict, x: Cell, y: Cell) -> bool:
    """Whether walls at the grid point a diagonal step x-y passes stand on both sides of the step: each of
    the two other cells there has a wall (door, window) on an edge it shares with x or y. One building's
    outer corner walls one side only, and a Hero may step round it; a wall line running through the point,
    a corner of the building the step leaves or enters, or two buildings touching corners (a Pinch Point,
    CR 3.3.11) wall both sides."""
    def walled(p: Cell, q: Cell) -> bool:
        return p in at and q in at and kinds[_key(at[p], at[q])][0] in WALLED

    one, other = (x[0], y[1]), (y[0], x[1])
    return (walled(one, x) or walled(one, y)) and (walled(other, x) or walled(other, y))


def _winner(kinds: set | None) -> str | None:
    if not kinds:
        return None
    kind = next(k for k in _PRECEDENCE if k in kinds)
    return "open" if kind == "link" else kind


def _diagonal(a, b) -> bool:
    return abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)
