"""Board maps as SVG, drawn from compiled board data alone, for the scenario sheet's map box.

Layout (where each space goes) lives in boardmap_layout.py; this module only draws. Output is plain
SVG with presentation attributes (no <style>, no <use>, no external resources) so that it looks the
same inline in HTML, through WeasyPrint and on paper, and it is byte-identical for the same board:
numbers are rounded, nothing depends on set order. Every piece of text goes through `escape`.
"""

from __future__ import annotations

import math

from markupsafe import Markup, escape

from spawnpit.generators.boardmap_layout import Box, Building, Place, Scene, bounds, geometry, layout, title_of

FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
PAD = 6.0
INK, GREY, FAINT = "#111", "#777", "#bbb"
SHADE, SHADE_EDGE = "#e6dcc6", "#6b5a3a"
DOOR_FILL, DOOR_EDGE, GLASS = "#f2d4a2", "#7a4a10", "#1f5fa8"
SPAWN, START, GOAL = "#b3001b", "#1d7a33", "#e0a000"

# Legend entries in print order; only the ones a map uses are shown.
LEGEND = (("building", "building"), ("roll", "random-building roll"), ("pick_up", "item to pick up"),
          ("wall", "wall"), ("door", "door"), ("window", "window"), ("corner", "corner wall"),
          ("link", "link"), ("extra_link", "extra link"), ("named", "named space"),
          ("spawn", "spawn point"), ("start", "start space"), ("objective", "objective"))


def num(v: float) -> str:
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def text_width(text: str, size: float) -> float:
    return len(text) * size * 0.6


def _greedy(text: str, most: int) -> list[str]:
    out: list[str] = []
    for word in text.split():
        if out and len(out[-1]) + 1 + len(word) <= most:
            out[-1] += " " + word
        else:
            out.append(word)
    return out


def wrap(text: str, width: float, size: float, lines: int = 2) -> list[str]:
    """Greedy word wrap by estimated width; the last line ends in … when the text does not fit."""
    most = max(int(width / (size * 0.6)), 3)
    out = _greedy(text, most)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][: most - 1] + "…"
    return [line if len(line) <= most else line[: most - 1] + "…" for line in out]


def fit(text: str, width: float, height: float, biggest: float = 8.0, smallest: float = 5.0,
        bold: bool = False) -> tuple[float, list[str]]:
    """The biggest size (down to `smallest`) at which text wraps into the box without cutting a word."""
    width *= 0.84 if bold else 1.0
    size = biggest
    while True:
        most, rows = int(width / (size * 0.6)), max(int(height / (size * 1.16)), 1)
        out = _greedy(text, max(most, 1))
        if size - 0.5 < smallest or (len(out) <= rows and all(len(line) <= most for line in out)):
            return size, wrap(text, width, size, rows)
        size -= 0.5


class Canvas:
    """SVG elements in drawing order, plus the legend keys the drawing used."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.used: list[str] = []

    def use(self, key: str) -> None:
        if key not in self.used:
            self.used.append(key)

    def el(self, tag: str, text: str | None = None, **attrs) -> None:
        attr = "".join(f' {k.rstrip("_").replace("_", "-")}="{escape(num(v) if isinstance(v, float) else v)}"'
                       for k, v in attrs.items() if v is not None)
        self.out.append(f"<{tag}{attr}/>" if text is None else f"<{tag}{attr}>{escape(text)}</{tag}>")

    def line(self, x1, y1, x2, y2, **attrs) -> None:
        self.el("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), **attrs)

    def rect(self, box: Box, **attrs) -> None:
        self.el("rect", x=float(box.x), y=float(box.y), width=float(box.w), height=float(box.h), **attrs)

    def text(self, x, y, text: str, size: float, anchor: str = "middle", **attrs) -> None:
        self.el("text", text, x=float(x), y=float(y), font_size=float(size), text_anchor=anchor, **attrs)

    def lines(self, x, y, lines: list[str], size: float, anchor: str = "middle", **attrs) -> None:
        """Lines of text centred vertically on y."""
        top = y - (len(lines) - 1) * size * 0.58 + size * 0.35
        for i, line in enumerate(lines):
            self.text(x, top + i * size * 1.16, line, size, anchor, **attrs)

    def poly(self, points: list[tuple[float, float]], **attrs) -> None:
        self.el("polygon", points=" ".join(f"{num(x)},{num(y)}" for x, y in points), **attrs)


# ---- symbols ---------------------------------------------------------------------------------------

def marker(c: Canvas, kind: str, x: float, y: float, r: float) -> None:
    """Spawn: a red pit (ring); start: a green triangle; objective: a gold star. Distinct in grey too."""
    c.use(kind)
    if kind == "spawn":
        c.el("circle", class_="spawn", cx=x, cy=y, r=r, fill=SPAWN, stroke=INK, stroke_width=0.6)
        c.el("circle", cx=x, cy=y, r=r * 0.42, fill="#fff")
    elif kind == "start":
        c.poly([(x, y - r), (x + r * 0.95, y + r * 0.75), (x - r * 0.95, y + r * 0.75)], class_="start",
               fill=START, stroke=INK, stroke_width=0.6)
    else:
        points = [(x + dx * r * (1 if i % 2 == 0 else 0.45), y + dy * r * (1 if i % 2 == 0 else 0.45))
                  for i, (dx, dy) in enumerate(_STAR)]
        c.poly(points, class_="objective", fill=GOAL, stroke=INK, stroke_width=0.6)


_STAR = ((0.0, -1.0), (0.588, -0.809), (0.951, -0.309), (0.951, 0.309), (0.588, 0.809), (0.0, 1.0),
         (-0.588, 0.809), (-0.951, 0.309), (-0.951, -0.309), (-0.588, -0.809))


def badge(c: Canvas, x: float, y: float, text: str, size: float) -> float:
    """A random-building roll in a small die-like box centred on (x, y); returns its width."""
    c.use("roll")
    w = text_width(text, size) + size * 0.7
    c.rect(Box(x - w / 2, y - size * 0.72, w, size * 1.44), class_="roll", rx=1.5, fill="#fff", stroke=INK,
           stroke_width=0.7)
    c.text(x, y + size * 0.36, text, size, font_weight="bold")
    return w


def barrier(c: Canvas, kind: str, x1: float, y1: float, x2: float, y2: float, weight: float) -> None:
    """A wall, door or window on the edge between two spaces: a door is a door leaf in a gap, a window
    a double thin line, both set between short wall ends so that the edge still reads as a wall."""
    c.use(kind)
    wall = dict(stroke=INK, stroke_width=weight, stroke_linecap="square")
    if kind == "wall":
        c.line(x1, y1, x2, y2, class_="wall", **wall)
        return
    k = 0.3 if kind == "door" else 0.18
    ax, ay, bx, by = x1 + (x2 - x1) * k, y1 + (y2 - y1) * k, x2 - (x2 - x1) * k, y2 - (y2 - y1) * k
    c.line(x1, y1, ax, ay, **wall)
    c.line(x2, y2, bx, by, **wall)
    length = max(math.hypot(bx - ax, by - ay), 0.1)
    px, py = -(by - ay) / length * weight, (bx - ax) / length * weight
    if kind == "door":
        t = 0.75
        c.poly([(ax + px * t, ay + py * t), (bx + px * t, by + py * t), (bx - px * t, by - py * t),
                (ax - px * t, ay - py * t)], class_="door", fill=DOOR_FILL, stroke=DOOR_EDGE, stroke_width=0.8)
        return
    c.line(ax, ay, bx, by, class_="window", stroke="#fff", stroke_width=weight * 1.6)
    for o in (-0.55, 0.55):
        c.line(ax + px * o, ay + py * o, bx + px * o, by + py * o, stroke=GLASS, stroke_width=0.8)


def corner(c: Canvas, x: float, y: float, arm: float, weight: float) -> None:
    """A corner wall: a short plus-shaped stub on the shared corner, blocking the diagonal move."""
    c.use("corner")
    c.line(x - arm, y, x + arm, y, class_="corner", stroke=INK, stroke_width=weight, stroke_linecap="square")
    c.line(x, y - arm, x, y + arm, stroke=INK, stroke_width=weight, stroke_linecap="square")


# ---- features between two spaces -------------------------------------------------------------------

def draw_links(c: Canvas, scene: Scene) -> None:
    """Link lines first, under the spaces; grid neighbours are linked already and get no line."""
    done = set()
    for kind, a, b in scene.features:
        pa, pb = scene.places[a], scene.places[b]
        shape, points = geometry(pa, pb)
        if shape != "line" or kind == "corner" or tuple(sorted((a, b))) in done:
            continue
        done.add(tuple(sorted((a, b))))
        extra = bool(pa.cell or pb.cell)
        c.use("extra_link" if extra else "link")
        c.line(*points, class_="link", stroke="#555", stroke_width=1.2, stroke_dasharray="3 2" if extra else None)


def draw_barriers(c: Canvas, scene: Scene) -> None:
    """Walls, doors and windows on shared edges, corner walls on shared corners; between spaces that
    are not grid neighbours, the same symbol small across the middle of their link line."""
    for kind, a, b in scene.features:
        pa, pb = scene.places[a], scene.places[b]
        shape, points = geometry(pa, pb)
        size = min(pa.box.w, pa.box.h, pb.box.w, pb.box.h)
        weight = min(max(size * 0.08, 1.8), 3.5)
        if kind == "link":
            continue
        if shape == "edge":
            barrier(c, "wall" if kind == "corner" else kind, *points, weight)
        elif shape == "vertex":
            corner(c, *points, size * 0.14, weight)
        else:
            x1, y1, x2, y2 = points
            mx, my, length = (x1 + x2) / 2, (y1 + y2) / 2, max(math.hypot(x2 - x1, y2 - y1), 0.1)
            ux, uy = (y1 - y2) / length * 6, (x2 - x1) / length * 6
            barrier(c, "wall" if kind == "corner" else kind, mx - ux, my - uy, mx + ux, my + uy, 2.4)


# ---- spaces, buildings, markers --------------------------------------------------------------------

def draw_space(c: Canvas, key: str, p: Place, shaded: bool) -> None:
    if p.cell:
        c.rect(p.box, class_="space", fill=SHADE if shaded else "#fff", stroke="#999", stroke_width=0.6)
        return
    if p.named:
        c.use("named")
    c.rect(p.box, class_="space", rx=3, fill=SHADE if shaded else "#fff", stroke=INK,
           stroke_width=1.6 if p.named else 0.8)


def space_text(c: Canvas, p: Place) -> None:
    """Grid spaces: their name small in a corner (when there is room) and any title in the middle;
    other spaces: their title, as big as the box allows, bold when the space is a named one."""
    box = p.box
    if p.cell:
        if box.w >= 30:
            c.text(box.x + 2, box.y + box.h - 2.5, p.name, min(box.w * 0.12, 7.0), "start", fill=GREY)
        if p.label:
            size, lines = fit(p.label, box.w * 0.9, box.h * 0.45, min(max(box.w * 0.17, 5.0), 8.0), 4.5)
            c.lines(box.cx, box.cy + size * 0.4, lines, size, fill=INK)
        return
    label = p.label or p.name.replace("_", " ")
    size, lines = fit(label, box.w * 0.92, box.h * 0.88, 8.5, 4.0, p.named)
    c.lines(box.cx, box.cy, lines, size, font_weight="bold" if p.named else None)


def draw_markers(c: Canvas, scene: Scene) -> None:
    seen: dict[str, int] = {}
    for kind, key in scene.markers:
        box = scene.places[key].box
        r = min(max(min(box.w, box.h) * 0.14, 3.2), 7.0)
        i = seen.get(key, 0)
        seen[key] = i + 1
        if scene.places[key].cell:  # inside a grid space's bottom right; on other boxes' top right corner
            marker(c, kind, box.x + box.w - r - 2 - i * (2 * r + 2), box.y + box.h - r - 2, r)
        else:
            marker(c, kind, box.x + box.w - i * (2 * r + 2), box.y, r)


def outline(c: Canvas, scene: Scene, b: Building) -> None:
    """The edges of a grid building's cells that do not face another cell of it: its outline."""
    cells = {scene.places[k].cell for k in b.keys}
    for k in b.keys:
        p = scene.places[k]
        g, col, row = p.cell
        x, y, w, h = p.box.x, p.box.y, p.box.w, p.box.h
        for dc, dr, edge in ((-1, 0, (x, y, x, y + h)), (1, 0, (x + w, y, x + w, y + h)),
                             (0, -1, (x, y, x + w, y)), (0, 1, (x, y + h, x + w, y + h))):
            if (g, col + dc, row + dr) not in cells:
                c.line(*edge, stroke=SHADE_EDGE, stroke_width=1.3)


def hull(c: Canvas, scene: Scene, b: Building) -> None:
    """A zone building: one shaded rounded region behind its zones, its name on top."""
    area = bounds([scene.places[k].box for k in b.keys])
    c.rect(Box(area.x - 6, area.y - 17, area.w + 12, area.h + 23), class_="building", rx=6, fill=SHADE,
           stroke=SHADE_EDGE, stroke_width=1.2, fill_opacity="0.7")


def building_label(c: Canvas, scene: Scene, b: Building) -> None:
    """Name, roll and pick-up of a building: centred on a small one, along the top row of a big one."""
    c.use("building")
    places = [scene.places[k] for k in b.keys]
    area = bounds([p.box for p in places])
    if not all(p.cell for p in places):
        _inline_label(c, b, area.cx, area.y - 6, 8.0)
        return
    cell = min(places[0].box.w, places[0].box.h)
    if area.h > cell * 2.5:
        area = Box(area.x, area.y, area.w, cell)
    size, lines = fit(b.title, area.w * 0.98, min(max(cell * 0.2, 5.5), 8.5) * 2.4,
                      min(max(cell * 0.2, 5.5), 8.5), 4.5, True)
    pick_size, pick = fit(b.pick_up, area.w * 0.98, size * 2.1, size * 0.85, 4.0) if b.pick_up else (size, [])
    rows = ([("name", line) for line in lines] + ([("roll", b.roll)] if b.roll else [])
            + [("pick", line) for line in pick])
    step = size * 1.3
    top = area.y + area.h * 0.45 - (len(rows) - 1) * step / 2
    for i, (kind, text) in enumerate(rows):
        y = top + i * step
        if kind == "name":
            c.text(area.cx, y + size * 0.35, text, size, font_weight="bold", fill="#3a2e14")
        elif kind == "roll":
            badge(c, area.cx, y, text, size * 0.9)
        else:
            c.use("pick_up")
            c.text(area.cx, y + size * 0.3, text, pick_size, font_style="italic", fill="#3a2e14")


def _inline_label(c: Canvas, b: Building, middle: float, y: float, size: float) -> None:
    """A zone building's label on one line, centred along the top of its region: name, roll, pick-up."""
    x = middle - (text_width(b.title, size) + (text_width(b.roll, size) + 10 if b.roll else 0)
                  + (text_width(b.pick_up, size * 0.9) + 4 if b.pick_up else 0)) / 2
    c.text(x, y, b.title, size, "start", font_weight="bold", fill="#3a2e14")
    x += text_width(b.title, size) + 4
    if b.roll:
        x += badge(c, x + (text_width(b.roll, size * 0.9) + size * 0.63) / 2, y - size * 0.3, b.roll, size * 0.9) + 4
    if b.pick_up:
        c.use("pick_up")
        c.text(x, y, b.pick_up, size * 0.9, "start", font_style="italic", fill="#3a2e14")


def draw_scene(c: Canvas, scene: Scene) -> None:
    """Back to front: panels, building regions, links, spaces, walls and doors, then all text."""
    for panel in scene.panels:
        c.rect(panel.box, fill="none", stroke="#888" if panel.dashed else FAINT, stroke_width=0.8,
               stroke_dasharray="4 3" if panel.dashed else None, rx=3)
    grid_b = [b for b in scene.buildings if all(scene.places[k].cell for k in b.keys)]
    zone_b = [b for b in scene.buildings if b not in grid_b]
    for b in zone_b:
        hull(c, scene, b)
    draw_links(c, scene)
    shaded = {k for b in scene.buildings for k in b.keys}
    for key, p in scene.places.items():
        draw_space(c, key, p, key in shaded)
    for b in grid_b:
        outline(c, scene, b)
    draw_barriers(c, scene)
    for key, p in scene.places.items():
        space_text(c, p)
    for b in scene.buildings:
        building_label(c, scene, b)
    draw_markers(c, scene)
    for panel in scene.panels:
        title = wrap(panel.title, panel.box.w - 8, 7.5, 1)[0]
        c.text(panel.box.x + 4, panel.box.y + 10, title, 7.5, "start", font_weight="bold", fill="#333")
    for label in scene.labels:
        c.text(label.x, label.y, label.text, 8.0, label.anchor, font_weight="bold", fill="#333")


# ---- legend and the whole picture ------------------------------------------------------------------

def legend_sample(c: Canvas, key: str, x: float, y: float) -> None:
    """The symbol of one legend entry, in a 12 × 10 slot whose middle left is (x, y)."""
    if key in ("spawn", "start", "objective"):
        marker(c, key, x + 6, y, 4.5)
    elif key == "building":
        c.rect(Box(x, y - 5, 12, 10), fill=SHADE, stroke=SHADE_EDGE, stroke_width=1)
    elif key == "roll":
        badge(c, x + 6, y, "3", 7.0)
    elif key == "pick_up":
        c.text(x + 6, y + 3, "Ab", 8, font_style="italic", fill="#3a2e14")
    elif key in ("wall", "door", "window"):
        barrier(c, key, x, y, x + 12, y, 2.4)
    elif key == "corner":
        corner(c, x + 6, y, 4.5, 2.2)
    elif key in ("link", "extra_link"):
        c.line(x, y, x + 12, y, stroke="#555", stroke_width=1.2, stroke_dasharray="3 2" if key == "extra_link" else None)
    elif key == "named":
        c.rect(Box(x, y - 5, 12, 10), rx=2, fill="#fff", stroke=INK, stroke_width=1.6)


def legend(c: Canvas, used: list[str], x0: float, y0: float, width: float) -> float:
    """Used entries flowing left to right from (x0, y0) and wrapping at width; returns the height."""
    x, y = x0, y0
    for key, label in LEGEND:
        if key not in used:
            continue
        w = 16 + text_width(label, 7.5) + 10
        if x > x0 and x + w > x0 + width:
            x, y = x0, y + 13
        legend_sample(c, key, x, y)
        c.text(x + 16, y + 2.7, label, 7.5, "start", fill="#222")
        x += w
    return y - y0 + 13 if used else 0.0


def board_svg(pack, board: dict) -> Markup:
    """The map of one board: title and legend of the symbols used above (or beside) the map."""
    scene = layout(pack, board)
    body = Canvas()
    draw_scene(body, scene)
    if not scene.places:
        body.text(scene.width / 2, scene.height / 2, "(no spaces)", 9, fill=GREY)
    head = Canvas()
    title = title_of(board)
    head.text(PAD, PAD + 10, title, 11, "start", font_weight="bold")
    side = scene.width / scene.height < 1.5
    if side:
        lx, top = PAD * 2 + scene.width, PAD + 18
        height = legend(head, body.used, lx, PAD + 32, 1)
        width = lx + 120
        total_h = max(top + scene.height + PAD, PAD + 32 + height)
    else:
        lx = PAD + text_width(title, 11) * 1.1 + 14
        height = legend(head, body.used, lx, PAD + 6, scene.width - lx + PAD)
        top = max(PAD + 16, PAD + height + 3)
        width, total_h = scene.width + 2 * PAD, top + scene.height + PAD
    return _svg(title, max(width, PAD * 2 + text_width(title, 11) * 1.1), total_h, head.out, body.out, PAD, top)


def _svg(title: str, width: float, height: float, head: list[str], body: list[str], dx: float, dy: float) -> Markup:
    open_tag = (f'<svg xmlns="http://www.w3.org/2000/svg" class="board-map" viewBox="0 0 {num(width)} {num(height)}" '
                f'role="img" aria-label="{escape(title)}" font-family="{FONT}">')
    return Markup(open_tag + f'<rect x="0" y="0" width="{num(width)}" height="{num(height)}" fill="#fff"/>'
                  + "".join(head) + f'<g transform="translate({num(dx)} {num(dy)})">' + "".join(body) + "</g></svg>")
