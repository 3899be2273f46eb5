"""Where a board map puts things: a box per space, a panel per part, computed from board data alone.

Kept apart from the SVG drawing (boardmap.py) so the layout rules read, and test, as plain geometry.
Every choice is deterministic: data order first, then names; never set or hash order. Units are about
one screen pixel at the size the scenario sheet prints a map (HEIGHT tall), so sizes below are sizes
a player reads.
"""

from __future__ import annotations

import math
from collections import namedtuple
from dataclasses import dataclass, field

from spawnpit.generators.pack import blocks, prop_list

HEIGHT = 292.0            # content height; the sheet shows the map box about 330 px tall
MAX_WIDTH = 740.0         # … and about 730 px wide
TITLE_H = 13.0            # the title band of a part's panel
FEATURES = ("link", "wall", "door", "window", "corner")
MARKERS = ("spawn", "start", "objective")


@dataclass(frozen=True, slots=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    cx = property(lambda self: self.x + self.w / 2)
    cy = property(lambda self: self.y + self.h / 2)

    def inset(self, d: float) -> "Box":
        return Box(self.x + d, self.y + d, max(self.w - 2 * d, 1.0), max(self.h - 2 * d, 1.0))

    def below(self, band: float) -> "Box":
        """What is left under a band of `band` units at the top (a title's room)."""
        return Box(self.x, self.y + band, self.w, max(self.h - band, 1.0))


@dataclass(slots=True)
class Place:
    box: Box
    name: str
    label: str = ""
    cell: tuple | None = None  # (grid id, column, row): walls and doors of grid spaces sit on shared edges
    named: bool = False


Building = namedtuple("Building", "title roll pick_up keys")  # keys: the places it covers
Panel = namedtuple("Panel", "box title dashed", defaults=(False,))  # a part's frame, its title on top
Label = namedtuple("Label", "text x y anchor", defaults=("start",))  # a caption (a track's name, …)


@dataclass(frozen=True, slots=True)
class Flow:
    """How a zone graph inside a composite should lie: layers run `toward` the middle of the whole,
    from the `roots` (spawn zones), and a zone linked into a neighbouring part is `pull`ed its way."""
    toward: tuple[int, int] = (1, 0)
    roots: tuple[str, ...] = ()
    pull: dict = field(default_factory=dict)


@dataclass(slots=True)
class Scene:
    width: float
    height: float
    places: dict[str, Place] = field(default_factory=dict)
    panels: list[Panel] = field(default_factory=list)
    features: list[tuple[str, str, str]] = field(default_factory=list)
    buildings: list[Building] = field(default_factory=list)
    markers: list[tuple[str, str]] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)


# ---- board data ----------------------------------------------------------------------------------

def title_of(obj: dict) -> str:
    return obj.get("props", {}).get("title") or obj.get("title") or obj["id"].replace("_", " ")


def column(index: int) -> str:
    """Grid column letters as the compiler names them: a … z, aa, ab, …"""
    out, index = "", index + 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(97 + rest) + out
    return out


def grid_cells(cols: int, rows: int) -> dict[str, tuple[int, int]]:
    return {f"{column(c)}{r + 1}": (c, r) for c in range(cols) for r in range(rows)}


def grid_size(board: dict) -> tuple[int, int] | None:
    grid = board["props"].get("grid")
    if isinstance(grid, list) and len(grid) == 2 and all(isinstance(v, int) and v > 0 for v in grid):
        return min(grid[0], 60), min(grid[1], 60)
    return None


def spaces_of(board: dict) -> list[str]:
    """Declared spaces first, in source order (a layout follows the author's order), then the rest."""
    declared = [b["id"] for b in board.get("blocks", []) if b["kind"] in ("space", "zone") and b.get("id")]
    return list(dict.fromkeys(declared + list(board.get("spaces", []))))


def space_info(board: dict) -> dict[str, tuple[str, bool]]:
    """name → (label to print, named?) from the space/zone blocks."""
    out = {}
    for b in board.get("blocks", []):
        if b["kind"] in ("space", "zone") and b.get("id"):
            tags = prop_list(b, "tags")
            label = b.get("title") or (b["props"].get("terrain") or "").replace("_", " ")
            out[b["id"]] = (label if label != b["id"] else "", "named" in tags)
    return out


def pairs_of(board: dict, kinds=FEATURES) -> list[tuple[str, str, str]]:
    """(kind, a, b) for every joined pair; a longer list joins its neighbours in turn."""
    out = []
    for kind in kinds:
        for entry in prop_list(board, kind):
            if isinstance(entry, list):
                out += [(kind, a, b) for a, b in zip(entry, entry[1:]) if isinstance(a, str) and isinstance(b, str)]
    return out


def roll_text(value) -> str:
    """A random-building roll as printed: 1–2 for a range, else the numbers."""
    if isinstance(value, list):
        ok = len(value) == 2 and all(isinstance(v, int) for v in value) and value[0] < value[1]
        return f"{value[0]}–{value[1]}" if ok else ", ".join(str(v) for v in value)
    return "" if value is None else str(value)


def preferred_size(pack, board: dict) -> tuple[float, float]:
    """Width and height that suit a board. Grids keep square spaces at the sheet's full map height;
    the rest fill the sheet's wide map box, no taller than they need: a scenario sheet must still fit
    its text on one page under the map."""
    props = board["props"]
    if props.get("parts"):
        parts = [pack.get(board["system"], "board", p) for p in prop_list(board, "parts")]
        picks = props.get("pick") or any(p and p["props"].get("pick") for p in parts)
        return MAX_WIDTH, HEIGHT - 16 if picks else HEIGHT - 82
    if blocks(board, "track"):
        return MAX_WIDTH, HEIGHT - 30
    size = grid_size(board)
    if size:
        cols, rows = size
        extras = len(set(spaces_of(board)) - set(grid_cells(cols, rows)))
        return min(max(HEIGHT * (cols + math.ceil(extras / rows) * 1.25) / rows, 180.0), MAX_WIDTH), HEIGHT
    return HEIGHT * 1.9, HEIGHT * 0.85


# ---- placing boards ------------------------------------------------------------------------------

def layout(pack, board: dict) -> Scene:
    width, height = preferred_size(pack, board)
    scene = Scene(width, height)
    place_board(scene, pack, board, Box(0, 0, width, height), "", Flow())
    return scene


def place_board(scene: Scene, pack, board: dict, box: Box, prefix: str, flow: Flow) -> None:
    """Place one board (recursing into parts), then its own links, walls, buildings and markers."""
    props = board["props"]
    if props.get("parts") and props.get("pick"):
        _pick_group(scene, pack, board, box, prefix)
    elif props.get("parts"):
        _composite(scene, pack, board, box, prefix, flow)
    elif blocks(board, "track"):
        _tracks(scene, board, box, prefix)
    elif grid_size(board):
        _grid(scene, board, box, prefix)
    else:
        _graph(scene, board, box, prefix, flow)
    _decorate(scene, board, prefix)


def resolve(scene: Scene, prefix: str, name: str) -> str | None:
    """A name as a board sees it: its own space, else the one space of that name in its fixed parts."""
    if prefix + name in scene.places:
        return prefix + name
    hits = [k for k in scene.places
            if k.startswith(prefix) and k.endswith("." + name) and "?" not in k[len(prefix):]]
    return hits[0] if len(hits) == 1 else None


def _decorate(scene: Scene, board: dict, prefix: str) -> None:
    def find(name):
        return resolve(scene, prefix, name) if isinstance(name, str) else None

    for kind, a, b in pairs_of(board):
        ka, kb = find(a), find(b)
        if ka and kb and ka != kb:
            scene.features.append((kind, ka, kb))
    for kind in MARKERS:
        scene.markers += [(kind, k) for k in map(find, prop_list(board, kind)) if k]
    for b in blocks(board, "building"):
        keys = tuple(k for k in map(find, prop_list(b, "spaces")) if k)
        if keys:
            scene.buildings.append(Building(title_of(b), roll_text(b["props"].get("roll")),
                                            str(b["props"].get("pick_up") or ""), keys))


def _put(scene: Scene, prefix: str, name: str, box: Box, info: dict, cell=None) -> None:
    label, named = info.get(name, ("", False))
    scene.places[prefix + name] = Place(box, name, label, cell, named)


def _grid(scene: Scene, board: dict, box: Box, prefix: str) -> None:
    """Spaces at their grid coordinates (a1 top left); other spaces in a column to the right."""
    cols, rows = grid_size(board)
    info, cells = space_info(board), grid_cells(cols, rows)
    for name in prop_list(board, "void"):  # cut out of the grid: nothing is drawn there
        cells.pop(name, None) if isinstance(name, str) else None
    extras = [s for s in spaces_of(board) if s not in cells]
    ecols = math.ceil(len(extras) / rows) * 1.25
    size = min(box.w / (cols + ecols), box.h / rows)
    x0, y0 = box.cx - size * (cols + ecols) / 2, box.cy - size * rows / 2
    for name, (c, r) in cells.items():
        _put(scene, prefix, name, Box(x0 + c * size, y0 + r * size, size, size), info, (prefix or ".", c, r))
    for i, name in enumerate(extras):
        x = x0 + (cols + 0.25 + 1.25 * (i // rows)) * size
        _put(scene, prefix, name, Box(x, y0 + (i % rows) * size, size, size).inset(size * 0.05), info)


# ---- zone graphs ---------------------------------------------------------------------------------

def layered(names: list[str], pairs: list[tuple[str, str]], roots: list[str]) -> list[list[str]]:
    """Breadth-first layers from the roots (spawn zones first); each layer ordered under its parents."""
    nbrs: dict[str, list[str]] = {n: [] for n in names}
    for a, b in pairs:
        if a in nbrs and b in nbrs and a != b:
            nbrs[a].append(b)
            nbrs[b].append(a)
    depth: dict[str, int] = {}
    layers: list[list[str]] = []
    frontier = list(dict.fromkeys(r for r in roots if r in nbrs))
    while len(depth) < len(names):
        frontier = frontier or [next(n for n in names if n not in depth)]
        for n in frontier:
            depth[n] = len(layers)
        index = {n: i for i, n in enumerate(layers[-1] if layers else [])}
        above = {n: [index[m] for m in nbrs[n] if m in index] for n in frontier}
        layers.append(sorted(frontier, key=lambda n: (sum(above[n]) / len(above[n]) if above[n] else len(index),
                                                      names.index(n))))
        frontier = list(dict.fromkeys(m for n in frontier for m in nbrs[n] if m not in depth))
    return layers


def unit_positions(layers: list[list[str]], toward: tuple[int, int]) -> dict[str, tuple[float, float]]:
    """Layers run towards `toward` (→, or diagonally towards a composite's middle); 0-1 coordinates."""
    dx, dy = toward
    widest = max(len(layer) for layer in layers)
    spread = min(0.22, 0.44 / max(widest - 1, 1))
    out = {}
    for k, layer in enumerate(layers):
        a = (k + 0.5) / len(layers) - 0.5
        for i, name in enumerate(layer):
            s = i - (len(layer) - 1) / 2
            if dx and dy:
                out[name] = (0.5 + a * dx + s * spread * dy, 0.5 + a * dy - s * spread * dx)
            elif dx:
                out[name] = (0.5 + a * dx, (i + 0.5) / len(layer))
            else:
                out[name] = ((i + 0.5) / len(layer), 0.5 + a * dy)
    return out


def _graph(scene: Scene, board: dict, box: Box, prefix: str, flow: Flow) -> None:
    names = spaces_of(board)
    if not names:
        return
    pairs = [(a, b) for _, a, b in pairs_of(board)]
    roots = [n for n in prop_list(board, "spawn") + list(flow.roots) if n in names] or names[:1]
    dx, dy = flow.toward
    side = (dy, -dx) if dx and dy else (0, 1) if dx else (1, 0)
    layers = [sorted(layer, key=lambda n: _lean(flow.pull.get(n), side)) for layer in layered(names, pairs, roots)]
    if dx and dy:
        w, h = min(box.w * 0.3, 120.0), min(box.h * 0.2, 28.0)
    else:
        w = min(box.w / len(layers) * 0.75, 120.0)
        h = min(box.h / max(len(layer) for layer in layers) * 0.6, 30.0)
    info = space_info(board)
    mu, mv = w / 2 / box.w, h / 2 / box.h
    for name, (u, v) in unit_positions(layers, flow.toward).items():
        u, v = min(max(u, mu), 1 - mu), min(max(v, mv), 1 - mv)
        _put(scene, prefix, name, Box(box.x + u * box.w - w / 2, box.y + v * box.h - h / 2, w, h), info)


def _lean(pull, side: tuple[int, int]) -> float:
    return (pull[0] * side[0] + pull[1] * side[1]) if pull else 0.0


# ---- tracks --------------------------------------------------------------------------------------

def _tracks(scene: Scene, board: dict, box: Box, prefix: str) -> None:
    """Tracks as rows of spaces fanning out from the hub (the spaces linked to the track ends)."""
    tracks = blocks(board, "track")
    listed = [n for t in tracks for n in prop_list(t, "spaces")]
    joined = {n for _, a, b in pairs_of(board) for n in (a, b) if (a in listed) != (b in listed)}
    hubs = [n for n in spaces_of(board) if n not in listed and n in joined]
    others = [n for n in spaces_of(board) if n not in listed and n not in hubs and n not in {t["id"] for t in tracks}]
    info = space_info(board)
    rows = Box(box.x, box.y, box.w, box.h - (46 if others else 0))
    hub_w, hub_h = 72.0, 36.0
    for i, name in enumerate(hubs):
        _put(scene, prefix, name, Box(rows.cx - hub_w / 2, rows.cy - hub_h / 2 + (i - (len(hubs) - 1) / 2) * 44,
                                      hub_w, hub_h), info)
    half = (rows.w - hub_w) / 2 - 16
    right = math.ceil(len(tracks) / 2)
    _track_side(scene, tracks[:right], Box(rows.x + rows.w - half, rows.y, half, rows.h), 1, info, prefix)
    _track_side(scene, tracks[right:], Box(rows.x, rows.y, half, rows.h), -1, info, prefix)
    if others:
        _strip(scene, others, Box(box.x, box.y + box.h - 40, box.w, 40), info, prefix)


def _track_side(scene: Scene, tracks: list, area: Box, side: int, info: dict, prefix: str) -> None:
    longest = max([len(prop_list(t, "spaces")) for t in tracks] + [1])
    step, band = area.w / longest, area.h / max(len(tracks), 1)
    w, h = min(step * 0.86, 78.0), min(band * 0.5, 32.0)
    for i, track in enumerate(tracks):
        spaces = prop_list(track, "spaces")
        cy = area.y + (i + 0.5) * band + 6
        for j, name in enumerate(spaces):
            inner = len(spaces) - 1 - j  # the last space of a track is the one next to the hub
            cx = area.x + (inner + 0.5) * step if side > 0 else area.x + area.w - (inner + 0.5) * step
            _put(scene, prefix, name, Box(cx - w / 2, cy - h / 2, w, h), info)
        scene.features += [("link", prefix + a, prefix + b) for a, b in zip(spaces, spaces[1:])]
        stacking = track["props"].get("stacking")
        text = title_of(track) + (f" · stacking limit {stacking}" if stacking is not None else "")
        outer = area.x + area.w - (len(spaces) - 0.5) * step if side < 0 else area.x + (len(spaces) - 0.5) * step
        x = outer + w / 2 - 10 if side > 0 else outer - w / 2  # clear of the spawn marker on the corner
        scene.labels.append(Label(text, x, cy - h / 2 - 7, "end" if side > 0 else "start"))


def _strip(scene: Scene, names: list[str], box: Box, info: dict, prefix: str) -> None:
    """Spaces off every track (Cemetery, …) in a row under the map."""
    scene.labels.append(Label("Off the tracks:", box.x + 2, box.cy + 3))
    step = min((box.w - 84) / len(names), 96.0)
    for i, name in enumerate(names):
        _put(scene, prefix, name, Box(box.x + 84 + i * step, box.y + 6, step * 0.9, box.h - 10), info)


# ---- boards made of parts ------------------------------------------------------------------------

def tiles(n: int, box: Box, gap: float = 8.0, cols: int = 0) -> list[Box]:
    """n boxes row by row in `cols` columns, or as square a block as n allows (2 × 2 for four tiles)."""
    cols = cols or max(1, math.ceil(math.sqrt(n)))
    rows = max(1, math.ceil(n / cols))
    w, h = (box.w - gap * (cols - 1)) / cols, (box.h - gap * (rows - 1)) / rows
    return [Box(box.x + (i % cols) * (w + gap), box.y + (i // cols) * (h + gap), w, h) for i in range(n)]


def _parts(pack, board: dict) -> list[dict]:
    return [p for p in (pack.get(board["system"], "board", name) for name in prop_list(board, "parts")) if p]


def _composite(scene: Scene, pack, board: dict, box: Box, prefix: str, flow: Flow) -> None:
    """Fixed parts tiled on the left (or the whole box); `pick N` sets of parts to their right."""
    parts = _parts(pack, board)
    fixed = [p for p in parts if not p["props"].get("pick")]
    groups = [p for p in parts if p["props"].get("pick")]
    split = box.w if not groups else 0.0 if not fixed else min(box.w * 0.26, box.h * 1.05)
    boxes = tiles(len(fixed), Box(box.x, box.y, split, box.h))
    roots = flow.roots + tuple(n for n in prop_list(board, "spawn") if isinstance(n, str))
    pull = {**flow.pull, **_pulls(board, fixed, boxes)}
    for part, tile in zip(fixed, boxes):
        scene.panels.append(Panel(tile, title_of(part)))
        toward = (_sign(box.cx - tile.cx, box.w), _sign(box.cy - tile.cy, box.h)) if len(fixed) > 1 else (0, 0)
        place_board(scene, pack, part, tile.below(TITLE_H).inset(4), f"{prefix}{part['id']}.",
                    Flow(toward if any(toward) else (1, 0), roots, pull))
    gap = 10.0 if fixed else 0.0
    rest = Box(box.x + split + gap, box.y, box.w - split - gap, box.h)
    for group, area in zip(groups, tiles(len(groups), rest, 8.0, 1)):
        place_board(scene, pack, group, area, prefix, Flow())


def _pulls(board: dict, parts: list[dict], boxes: list[Box]) -> dict[str, tuple[float, float]]:
    """For each space the composite links into another part: the direction of that part."""
    owner = {n: i for i, part in enumerate(parts) for n in spaces_of(part)}
    out: dict[str, tuple[float, float]] = {}
    for _, a, b in pairs_of(board):
        if a in owner and b in owner and owner[a] != owner[b]:
            for me, other in ((a, b), (b, a)):
                here, there = boxes[owner[me]], boxes[owner[other]]
                x, y = out.get(me, (0.0, 0.0))
                out[me] = (x + _sign(there.cx - here.cx, 1), y + _sign(there.cy - here.cy, 1))
    return out


def _sign(d: float, scale: float) -> int:
    return 0 if abs(d) < scale * 0.05 else (1 if d > 0 else -1)


def _pick_group(scene: Scene, pack, board: dict, box: Box, prefix: str) -> None:
    """`pick N` of these parts: each drawn as a labelled thumbnail, since which ones is up to the dice."""
    parts = _parts(pack, board)
    pick = board["props"]["pick"]
    scene.panels.append(Panel(box, f"{title_of(board)}: {pick} of these {len(parts)}, at random", dashed=True))
    if not parts:
        return
    aspect = max(w / h for w, h in (preferred_size(pack, p) for p in parts))
    inner = box.below(TITLE_H).inset(4)
    for part, tile in zip(parts, tiles(len(parts), inner, 7.0, _best_columns(len(parts), inner, aspect))):
        scene.panels.append(Panel(tile, title_of(part)))
        place_board(scene, pack, part, tile.below(TITLE_H - 1).inset(2), f"{prefix}{board['id']}?{part['id']}.",
                    Flow())


def _best_columns(n: int, box: Box, aspect: float) -> int:
    """The column count that gives each thumbnail the most room at its own shape."""
    return max(range(1, n + 1), key=lambda c: (min(box.w / c, (box.h / math.ceil(n / c) - TITLE_H) * aspect), -c))


# ---- geometry the drawing asks for -----------------------------------------------------------------

def geometry(a: Place, b: Place) -> tuple[str, tuple]:
    """Where a pair's feature goes: the shared edge or corner of grid neighbours, else a link line."""
    if a.cell and b.cell and a.cell[0] == b.cell[0]:
        dc, dr = b.cell[1] - a.cell[1], b.cell[2] - a.cell[2]
        x0, y0, x1, y1 = a.box.x, a.box.y, a.box.x + a.box.w, a.box.y + a.box.h
        x, y = (x1 if dc > 0 else x0), (y1 if dr > 0 else y0)
        if abs(dc) + abs(dr) == 1:
            return "edge", ((x, y0, x, y1) if dc else (x0, y, x1, y))
        if abs(dc) == abs(dr) == 1:
            return "vertex", (x, y)
    return "line", clip(a.box, b.box) + clip(b.box, a.box)


def clip(box: Box, other: Box) -> tuple[float, float]:
    """Where the line from box's centre to other's centre leaves box."""
    dx, dy = other.cx - box.cx, other.cy - box.cy
    if not dx and not dy:
        return box.cx, box.cy
    t = min((box.w / 2) / abs(dx) if dx else 1e9, (box.h / 2) / abs(dy) if dy else 1e9, 1.0)
    return box.cx + dx * t, box.cy + dy * t


def bounds(boxes: list[Box]) -> Box:
    x0, y0 = min(b.x for b in boxes), min(b.y for b in boxes)
    return Box(x0, y0, max(b.x + b.w for b in boxes) - x0, max(b.y + b.h for b in boxes) - y0)
