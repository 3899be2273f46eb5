"""The board every game is played on: an immutable graph of spaces with typed edges, and the queries
rules ask of it (neighbours, paths, distances, Line of Sight, buildings, spawn points, stacking).

Generic on purpose: no game's rule names appear here. Which edge kinds a mover may cross, which spaces
block sight, which doors are closed are all arguments, so the same board serves Heroes (walls stop
them) and Zombies (they are not), and NotLD's doors that open and close during play. How the compiled
board object becomes edges is in geometry.py, with the rulebook citations.

Simulations ask the same questions thousands of times, so adjacency per (through, diagonal) and
breadth-first trees per source are computed on first use and cached; a query with `blocked` spaces or
`closed` edges searches afresh, since those change every turn. Ties between equally short paths go to
the neighbour whose id sorts first, so paths never depend on hash order.

Distances alone (what `distance`, `steps`, `route`, `apart` and `nearest` ask, by far the commonest
questions) are also kept in a compact form, `row`: one small array per source and edge kinds, indexed by
`index`, a few hundred bytes where a table of the same by space id takes ten kilobytes. A board serves
every game drawn on its layout, and a long simulation meets hundreds of layouts (Die Zombies, Die! lays
4 of 6 L-boards in order: 360), so the rows of every layout it has met are kept, and its games seldom
search the board at all.
"""

from __future__ import annotations

import math
import random
from array import array
from collections import deque
from dataclasses import dataclass, field
from types import MappingProxyType

from spawnpit.engine.geometry import (KINDS, SIGHT_BLOCKING, BoardError, SightMap, TownSight, assemble,
                                      edge_kinds, hole_boxes, integral, listed, shared_edge)
from spawnpit.engine.layout import Map, town_map

WALKING = ("open", "door")        # LNOE Heroes: through doors, never walls (CR 8.4.3)
EVERYTHING = KINDS                # LNOE Zombies "may even move through Walls" (CR 8.1)
OPENINGS = ("open", "door", "window")  # NotLD: "an open (or absent) Door, or open window" (p. 10)

__all__ = ["Board", "BoardError", "Building", "Space", "Track", "divide_evenly",
           "WALKING", "EVERYTHING", "OPENINGS"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Space:
    id: str
    title: str
    terrain: str | None
    tags: tuple[str, ...]
    building: str | None
    stacking: int | None      # the tightest limit of the tracks it lies on; None: no limit
    grid: str | None          # which grid it is a cell of (LOS: SightMap within it, TownSight across grids)
    cell: tuple[int, int] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Building:
    id: str
    title: str
    spaces: tuple[str, ...]
    roll: tuple[int, ...]
    pick_up: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Track:
    id: str
    title: str
    spaces: tuple[str, ...]
    stacking: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Board:
    id: str
    system: str
    title: str
    spaces: tuple[str, ...]
    info: MappingProxyType            # id → Space
    links: MappingProxyType           # id → ((neighbour, kind, diagonal), …), neighbours sorted
    buildings: MappingProxyType       # id → Building
    tracks: MappingProxyType          # id → Track
    spawn_points: tuple[str, ...]
    start_spaces: tuple[str, ...]
    objectives: tuple[str, ...]
    chains: tuple[tuple[str, ...], ...]   # declared link lists: straight lines of zones
    sight: MappingProxyType           # grid id → SightMap
    places: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))  # part id → its place (`places`)
    index: dict = field(default_factory=dict, repr=False, compare=False)  # space id → its position in `spaces`
    unreached: int = field(default=0xFF, repr=False, compare=False)  # what a `row` holds where its source never gets
    _cache: dict = field(default_factory=dict, repr=False, compare=False)
    _rows: dict = field(default_factory=dict, repr=False, compare=False)  # (source, through) → `row`
    _orders: dict = field(default_factory=dict, repr=False, compare=False)  # (source, through) → `order`
    _ranks: dict = field(default_factory=dict, repr=False, compare=False)  # (source, through) → each space's place in it
    _searches: dict = field(default_factory=dict, repr=False, compare=False)  # (source, kinds, diagonal) → `_search`

    # ---- building -------------------------------------------------------------------------------

    @classmethod
    def from_pack(cls, pack: dict, system: str, board_id: str, rng: random.Random | None = None) -> "Board":
        """Build a board from a compiled pack (its JSON form). Composite boards namespace their
        parts' spaces `part.space`; `pick N` draws with `rng` (first N when None)."""
        boards = {o["id"]: o for o in pack["objects"] if o.get("kind") == "board" and o.get("system") == system}
        if board_id not in boards:
            raise BoardError(f"system `{system}` has no board `{board_id}`")
        obj = boards[board_id]
        picks = _draw_picks(boards, obj, rng)
        key = (id(pack), system, board_id, picks)
        hit = _BOARDS.pop(key, None)
        if hit is not None and hit[0] is pack:
            _BOARDS[key] = hit  # the most recently used last
            return hit[1]
        board = cls._build(boards, obj, board_id, system, _Replay(picks) if rng is not None else None)
        while len(_BOARDS) >= _LAYOUTS:
            del _BOARDS[next(iter(_BOARDS))]  # the least recently used
        _BOARDS[key] = (pack, board)
        return board

    @classmethod
    def _build(cls, boards: dict, obj: dict, board_id: str, system: str, rng) -> "Board":
        d = assemble(boards, obj, rng)
        buildings = {bid: Building(id=bid, **b) for bid, b in d.buildings.items()}
        building_of: dict[str, str] = {}
        for b in buildings.values():
            for s in b.spaces:
                building_of.setdefault(s, b.id)
        tracks = {tid: Track(id=tid, **t) for tid, t in d.tracks.items()}
        kinds = edge_kinds(d, building_of)
        return cls(
            id=board_id, system=system, title=obj.get("title") or board_id, spaces=tuple(d.order),
            info=MappingProxyType(_spaces(d, building_of, tracks)),
            links=MappingProxyType(_links(d.order, kinds)),
            buildings=MappingProxyType(buildings), tracks=MappingProxyType(tracks),
            spawn_points=_unique(d.markers["spawn"]), start_spaces=_unique(d.markers["start"]),
            objectives=_unique(d.markers["objective"]), chains=tuple(d.chains),
            sight=MappingProxyType(_sightmaps(d, kinds)),
            places=MappingProxyType({part: place for (_, place), part in d.placed.items() if part is not None}),
            index={sid: i for i, sid in enumerate(d.order)}, unreached=_unreached(len(d.order)))

    # ---- lookups --------------------------------------------------------------------------------

    def space(self, sid: str) -> Space:
        try:
            return self.info[sid]
        except KeyError:
            raise BoardError(f"board `{self.id}` has no space `{sid}`") from None

    def resolve(self, name: str) -> str:
        """A space id from how content names it: the full id, or a unique dotted tail (`b2`,
        `town_center.b2`), so scenarios need not know how deep a part sits."""
        if name in self.info:
            return name
        hits = [s for s in self.spaces if s.endswith("." + name)]
        if len(hits) != 1:
            raise BoardError(f"board `{self.id}`: `{name}` {'is ambiguous' if hits else 'names no space'}")
        return hits[0]

    def property(self, sid: str, name: str):
        """A space's attribute by name (title, terrain, building, stacking, …), else whether it carries
        the tag `name`: how rule expressions ask `s.terrain` or `s.named` without knowing the board."""
        space = self.space(sid)
        return getattr(space, name) if name in Space.__dataclass_fields__ else name in space.tags

    def building_of(self, sid: str) -> str | None:
        return self.space(sid).building

    def spaces_of(self, building: str) -> tuple[str, ...]:
        return self.buildings[building].spaces

    def stacking(self, sid: str) -> int | None:
        return self.space(sid).stacking

    def edge(self, a: str, b: str) -> str | None:
        """The kind of the edge between two spaces, or None when they are not adjacent."""
        kinds = self._cache.get("edges")
        if kinds is None:
            kinds = self._cache["edges"] = {}
            for sid, links in self.links.items():
                for n, kind, _ in links:
                    kinds.setdefault((sid, n), kind)
        found = kinds.get((a, b))
        if found is None:
            self.space(a)
            self.space(b)
        return found

    # ---- movement -------------------------------------------------------------------------------

    def neighbours(self, sid: str, *, through=WALKING, diagonal: bool = True,
                   closed=frozenset()) -> tuple[str, ...]:
        """Spaces one step away across an edge of a kind in `through` (`closed` pairs excepted)."""
        found = self._adjacency(through, diagonal)[self.space(sid).id]
        gone = _pairs(closed)
        return tuple(n for n in found if frozenset((sid, n)) not in gone) if gone else found

    def path(self, a: str, b: str, *, blocked=frozenset(), through=WALKING, diagonal: bool = True,
             closed=frozenset()) -> tuple[str, ...]:
        """A shortest path a … b (both ends included), or () when there is none. Blocked spaces
        cannot be entered, the destination included."""
        _, parent = self._search(a, blocked, through, diagonal, closed)
        if b not in parent:
            self.space(b)
            return ()
        out = [b]
        while parent[out[-1]] is not None:
            out.append(parent[out[-1]])
        return tuple(reversed(out))

    def distance(self, a: str, b: str, *, blocked=frozenset(), through=WALKING, diagonal: bool = True,
                 closed=frozenset()) -> int | float:
        """Steps on a shortest path; math.inf when unreachable, so `distance(…) <= range` just works.
        LNOE counts range "using the shortest possible number of spaces" (LNOE, Ranged Attack)."""
        if not blocked and not closed and diagonal and type(through) in (tuple, frozenset):  # the common question
            return self.between(a, b, through)
        dist, _ = self._search(a, blocked, through, diagonal, closed)
        found = dist.get(b)
        if found is None:
            self.space(b)
            return math.inf
        return found

    def between(self, a: str, b: str, through=WALKING) -> int | float:
        """Steps from a to b (diagonals included, nothing blocked; math.inf when out of reach), read off
        a cached row. A step counts the same both ways, so b's row serves when a's has not been worked
        out; with neither, a's is (a caller passes first the end whose row will serve again)."""
        index = self.index
        at, other = index.get(b), index.get(a)
        if at is None or other is None:
            self.space(a)
            self.space(b)
        row = self._rows.get((a, through))
        if row is None:
            row = self._rows.get((b, through))
            if row is None:
                row = self._row(a, through)
            else:
                at = other
        found = row[at]
        return math.inf if found == self.unreached else found

    def row(self, source: str, through=WALKING) -> array:
        """Steps from `source` to every space (diagonals included, nothing blocked), by position in
        `spaces` (`index`), `unreached` where it never gets: the compact form of `distances`, cached.
        Read `row[index[space]]`."""
        found = self._rows.get((source, through))
        return found if found is not None else self._row(source, through)

    def order(self, source: str, through=WALKING) -> array:
        """The positions (in `spaces`) of the spaces `source` reaches, nearest first, in the order a
        breadth-first search meets them (ties: the neighbour whose id sorts first): with `row`, the
        spaces within n steps without reading the rest."""
        found = self._orders.get((source, through))
        if found is None:
            self._row(source, through)
            found = self._orders[source, through]
        return found

    def way(self, source: str, to: str, through=WALKING) -> tuple[str, ...]:
        """A shortest path source … to (both ends included), () when `to` is out of reach: the path the
        parents of `search` give (each space's parent is the neighbour one step nearer that the search
        met first), read off the cached row and order instead of a table by space id."""
        row = self.row(source, through)
        at = self.index.get(to)
        if at is None:
            self.space(to)
        if row[at] == self.unreached:
            return ()
        rank = self._ranks.get((source, through))
        if rank is None:
            rank = self._ranks[source, through] = array(_ROW_TYPES[self.unreached], [0]) * len(self.spaces)
            for position, i in enumerate(self.order(source, through)):
                rank[i] = position
        adjacency, out, here = self._cache[("adj#", through)], [at], at
        while row[here]:
            nearer = row[here] - 1
            here = min((m for m in adjacency[here] if row[m] == nearer), key=rank.__getitem__)
            out.append(here)
        return tuple(self.spaces[i] for i in reversed(out))

    def _row(self, source: str, through) -> array:
        self.space(source)
        adjacency = self._cache.get(("adj#", through))
        if adjacency is None:
            index = self.index
            adjacency = self._cache[("adj#", through)] = [tuple(index[n] for n in self._adjacency(through, True)[sid])
                                                          for sid in self.spaces]
        far = self.unreached
        kind = _ROW_TYPES[far]
        dist = [far] * len(self.spaces)  # a list while it is filled (faster to index), an array once done
        start = self.index[source]
        dist[start] = 0
        order, frontier, d = [start], [start], 0
        while frontier:  # level by level: every space of one level before any of the next
            d += 1
            reached = []
            add = reached.append
            for here in frontier:
                for n in adjacency[here]:
                    if dist[n] == far:
                        dist[n] = d
                        add(n)
            order += reached
            frontier = reached
        row = self._rows[source, through] = array(kind, dist)
        self._orders[source, through] = array(kind, order)
        return row

    def distances(self, source: str, through=WALKING, diagonal: bool = True) -> dict:
        """Steps from `source` to every space it reaches, nothing blocked, in the order a breadth-first
        search meets them (the cached table itself, not to be changed)."""
        return self._search(source, frozenset(), through, diagonal, frozenset())[0]

    def within(self, sid: str, n: int, *, blocked=frozenset(), through=WALKING, diagonal: bool = True,
               closed=frozenset()) -> frozenset[str]:
        """Every space at most n steps away, sid included."""
        dist, _ = self._search(sid, blocked, through, diagonal, closed)
        return frozenset(s for s, d in dist.items() if d <= n)

    def adjacency(self, through) -> dict[str, tuple[str, ...]]:
        """Neighbours of every space across edges of the kinds in `through` (diagonals included);
        the hot path of movement, cached per `through` tuple."""
        key = ("adj*", through)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._adjacency(through, True)
        return found

    def search(self, source: str, through) -> tuple[dict, dict]:
        """Cached breadth-first distances and parents from source, nothing blocked."""
        found = self._searches.get((source, through))
        if found is None:
            found = self._searches[source, through] = self._search(source, frozenset(), through, True, frozenset())
        return found

    def _adjacency(self, through, diagonal: bool) -> dict[str, tuple[str, ...]]:
        kinds = frozenset(through)
        key = ("adj", kinds, diagonal)
        if key not in self._cache:
            unknown = kinds - set(KINDS)
            if unknown:
                raise BoardError(f"unknown edge kinds {sorted(unknown)}; kinds are {', '.join(KINDS)}")
            self._cache[key] = {s: tuple(n for n, kind, diag in links if kind in kinds and (diagonal or not diag))
                                for s, links in self.links.items()}
        return self._cache[key]

    def _search(self, source: str, blocked, through, diagonal: bool, closed) -> tuple[dict, dict]:
        """Breadth-first distances and parents from source; cached when nothing is blocked or closed.
        A table by space id is large, so a board keeps a bounded number of them (`_SEARCHES`); `row`
        is what answers distances for good."""
        adjacency, gone = self._adjacency(through, diagonal), _pairs(closed)
        self.space(source)
        if not blocked and not gone:
            key = (source, frozenset(through), diagonal)
            found = self._searches.get(key)
            if found is None:  # the common search: level by level (the same order, parents and distances
                dist, parent, frontier, d = {source: 0}, {source: None}, [source], 0  # as the queue below)
                while frontier:
                    d += 1
                    reached = []
                    for here in frontier:
                        for n in adjacency[here]:
                            if n not in dist:
                                dist[n] = d
                                parent[n] = here
                                reached.append(n)
                    frontier = reached
                if len(self._searches) >= _SEARCHES:
                    self._searches.clear()
                found = self._searches[key] = (dist, parent)
            return found
        dist, parent, queue = {source: 0}, {source: None}, deque([source])
        while queue:
            here = queue.popleft()
            for n in adjacency[here]:
                if n in dist or n in blocked or (gone and frozenset((here, n)) in gone):
                    continue
                dist[n], parent[n] = dist[here] + 1, here
                queue.append(n)
        return dist, parent

    # ---- line of sight --------------------------------------------------------------------------

    def line_of_sight(self, a: str, b: str, *, opaque=frozenset(), closed=frozenset()) -> bool:
        """Whether a model in `a` can see `b`. Always true for its own space ("A Hero may always make
        a Ranged Attack at a target in the same space", LNOE Ranged Attack).

        Two cells of one grid (LNOE): a line from centre to centre, stopped by any wall or door the
        viewer is not touching; the viewer sees through every wall it touches, the whole straight wall
        (LNOE "Line of Sight for Ranged Attacks"; CR 10.3 and footnote 54). Corner walls and windows
        do not block. `opaque` spaces stop the line passing through them but can be seen into and out
        of (CR 10.3.2 Forest Spaces).

        Cells of grids a composite board joins (LNOE's L-boards round the Town Center): the same, on the
        grids as the layout lays them out (`town`, geometry.TownSight), so a line crosses a join as it
        would cross one board; a grid drawn in the hole others leave shares it evenly.

        Anything else (zones, linked off-grid spaces), NotLD p. 10: a zone sees the zones it shares
        an opening with (an edge of kind open/door/window not in `closed`: "Closed Barricades and
        closed Doors interrupt Lines of Sight"); beyond that, exterior zones see along straight lines
        "before reaching a wall", and from or into a building only "1 Zone into the building". Zone
        data has no coordinates, so a straight line is a declared `link` list of three or more zones
        (`link a, b, c`); the line may pass only exterior (non-building), non-opaque zones. With
        pairwise links only, sight is one zone: conservative, never seeing round a corner."""
        if not opaque and not closed:  # the common question, without building its full key
            found = self._cache.get(("los0", a, b))
            if found is None:
                sa, sb = self.space(a), self.space(b)
                if sa.grid is not None and sa.grid == sb.grid:
                    found = a == b or self._grid_sight(a, b, sa, sb)
                else:
                    found = self._sight(a, b, frozenset(), frozenset())
                self._cache[("los0", a, b)] = found
            return found
        return self._sight(a, b, frozenset(opaque), _pairs(closed))

    def _grid_sight(self, a: str, b: str, sa: Space, sb: Space, opaque: frozenset = frozenset()) -> bool:
        """Two cells of one grid: its SightMap's answer (shared by every layout of the grid), and, on a
        layout of several grids, the walls of the rest of it (a board drawn in the hole this one wraps, a
        building's outline along a join) must leave the line clear too. A viewer touching a wall that
        runs on past its own grid's walls sees through the whole of it: that one is the plane's answer."""
        cells = frozenset(self.info[s].cell for s in opaque if self.space(s).grid == sa.grid)
        town = self.town_sight()
        if town is None or a not in town.box or b not in town.box:
            return self.sight[sa.grid].clear(sa.cell, sb.cell, cells)
        if town.touching.get(a, frozenset()) & town.mixed.get(sa.grid, frozenset()):
            return town.clear(a, b, opaque)
        return self.sight[sa.grid].clear(sa.cell, sb.cell, cells) and town.clear(a, b, opaque, sa.grid)

    def town(self) -> Map | None:
        """Where the grids lie on the table (engine.layout), each turned toward the side its `places`
        name (northwest, …); None when the links between them do not place them all."""
        if "town" not in self._cache:
            spaces = {s: (self.info[s].grid, self.info[s].cell) for s in self.spaces if self.info[s].grid}
            toward = {}
            for grid, _ in spaces.values():
                place = self.places.get(grid.rsplit(".", 1)[-1]) or ""
                dx = (1 if "east" in place else 0) - (1 if "west" in place else 0)
                dy = (1 if "south" in place else 0) - (1 if "north" in place else 0)
                if dx or dy:
                    toward[grid] = (dx, dy)
            self._cache["town"] = town_map(spaces, [(s, n) for s in spaces for n, _, _ in self.links[s]], toward)
        return self._cache["town"]

    def town_sight(self) -> TownSight | None:
        """Line of Sight across the grids as the layout lays them (geometry.TownSight); None without a
        layout. Where two grids meet and no edge is declared between touching spaces, the join is
        open between outdoor spaces and a wall along a building's outline, as edge_kinds reads a join."""
        if "town_sight" not in self._cache:
            self._cache["town_sight"] = self._build_town_sight()
        return self._cache["town_sight"]

    def _build_town_sight(self) -> TownSight | None:
        town = self.town()
        if town is None:
            return None
        info = self.info
        box = {sid: (2 * x, 2 * y, 2 * x + 2, 2 * y + 2) for sid, (x, y) in town.at.items()}
        for hole in town.holes:
            cells = {s: info[s].cell for s in self.spaces if info[s].grid == hole.grid}
            linked = [(s, n) for s in cells for n, _, _ in self.links[s] if n in town.at]
            box.update(hole_boxes(cells, hole, linked, town.at))
        box = integral(box)
        grid_of = {sid: info[sid].grid for sid in box}

        def blocks(a: str, b: str) -> bool:
            kind = self.edge(a, b)
            if kind is None:  # touching across a join with nothing declared
                kind = "open" if info[a].building == info[b].building else "wall"
            return kind in SIGHT_BLOCKING

        walls = []
        placed = {xy: sid for sid, xy in town.at.items()}
        for sid, (x, y) in town.at.items():
            for n in (placed.get((x + 1, y)), placed.get((x, y + 1))):
                if n is not None and blocks(sid, n):
                    walls.append((sid, n))
        rim = [placed[x, y] for hole in town.holes  # the placed cells round a hole, which its spaces may touch
               for x in range(hole.left - 1, hole.right + 2) for y in range(hole.top - 1, hole.bottom + 2)
               if (x, y) in placed]
        holed = [sid for sid in box if sid not in town.at]
        for i, sid in enumerate(holed):
            for n in holed[i + 1:] + rim:
                if shared_edge(box[sid], box[n]) is not None and blocks(sid, n):
                    walls.append((sid, n))
        return TownSight.build(box, walls, grid_of)

    def _sight(self, a: str, b: str, opaque: frozenset, closed: frozenset) -> bool:
        key = ("los", a, b, opaque, closed)
        if key not in self._cache:
            self._cache[key] = self._sees(a, b, opaque, closed)
        return self._cache[key]

    def _sees(self, a: str, b: str, opaque: frozenset, closed: frozenset) -> bool:
        sa, sb = self.space(a), self.space(b)
        if a == b:
            return True
        if sa.grid is not None and sa.grid == sb.grid:
            return self._grid_sight(a, b, sa, sb, opaque)
        if sa.grid is not None and sb.grid is not None:
            town = self.town_sight()
            if town is not None and a in town.box and b in town.box:
                return town.clear(a, b, opaque)
        if self._opening(a, b, closed):
            return True
        lines = self._cache.get("lines")
        if lines is None:  # space → the declared straight lines (chains of three or more) through it
            lines = self._cache["lines"] = {}
            for chain in self.chains:
                if len(chain) > 2:
                    for sid in chain:
                        lines.setdefault(sid, []).append(chain)
        return any(self._along(chain, a, b, opaque, closed) for chain in lines.get(a, ()) if b in chain)

    def _along(self, chain: tuple[str, ...], a: str, b: str, opaque: frozenset, closed: frozenset) -> bool:
        i, j = chain.index(a), chain.index(b)
        run = chain[min(i, j):max(i, j) + 1]
        inside = run[1:-1]
        return (all(self._opening(x, y, closed) for x, y in zip(run, run[1:]))
                and all(self.info[s].building is None and s not in opaque for s in inside))

    def _opening(self, a: str, b: str, closed: frozenset) -> bool:
        return self.edge(a, b) in OPENINGS and frozenset((a, b)) not in closed


# Boards are immutable (their caches hold derived data only), so one built board serves every game of a
# pack that draws the same parts: keyed by the pack object, the board and the parts `pick` drew, in the
# order drawn. Enough are kept for every layout of a town of 4 L-boards drawn from 6 (360), the least
# recently used going first; a board with its rows of distances filled takes well under 1 MB.
_LAYOUTS = 512
_BOARDS: dict[tuple, tuple[dict, "Board"]] = {}


def _draw_picks(boards: dict, obj: dict, rng) -> tuple:
    """Make every `pick` draw assembling `obj` would make, in the same order and from the same rng,
    and return them; assembly then replays them (so a cached board leaves the rng where a fresh
    build would)."""
    out: list[tuple[int, ...]] = []

    def walk(o: dict, seen: tuple) -> None:
        if o["id"] in seen:
            return
        names = listed(o.get("props", {}).get("parts"))
        pick = o.get("props", {}).get("pick")
        chosen = names
        if pick is not None and rng is not None and 0 <= pick <= len(names) and all(n in boards for n in names):
            indices = tuple(rng.sample(range(len(names)), pick))  # in the order drawn (`places`)
            out.append(indices)
            chosen = [names[i] for i in sorted(indices)]
        elif pick is not None and isinstance(pick, int) and 0 <= pick <= len(names):
            chosen = names[:pick]
        for name in chosen:
            if name in boards:
                walk(boards[name], seen + (o["id"],))

    walk(obj, ())
    return tuple(out)


class _Replay:
    """Stands in for the rng while assembling: hands back the draws `_draw_picks` made."""

    def __init__(self, picks: tuple) -> None:
        self._picks = list(picks)

    def sample(self, population, k):
        return list(self._picks.pop(0))


def divide_evenly(n: int, points, rng: random.Random | None = None) -> dict[str, int]:
    """Share n among points "as evenly as possible": each gets n // len(points), and the remainder
    goes one each to points drawn with rng (the first ones in order without an rng), so a seed
    always places it the same way."""
    points = list(dict.fromkeys(points))
    if not points:
        if n:
            raise ValueError(f"cannot divide {n} among no points")
        return {}
    base, extra = divmod(n, len(points))
    lucky = set(range(extra)) if rng is None else set(rng.sample(range(len(points)), extra))
    return {p: base + (i in lucky) for i, p in enumerate(points)}


# ---- helpers for from_pack --------------------------------------------------------------------

def _spaces(d, building_of: dict, tracks: dict) -> dict[str, Space]:
    limit: dict[str, int] = {}
    for t in tracks.values():
        for s in t.spaces:
            if t.stacking is not None:
                limit[s] = min(limit.get(s, t.stacking), t.stacking)
    return {sid: Space(id=sid, building=building_of.get(sid), stacking=limit.get(sid), **d.info[sid])
            for sid in d.order}


def _links(order: list[str], kinds: dict) -> dict[str, tuple]:
    out: dict[str, list] = {sid: [] for sid in order}
    for (a, b), (kind, diagonal) in kinds.items():
        out[a].append((b, kind, diagonal))
        out[b].append((a, kind, diagonal))
    return {sid: tuple(sorted(links)) for sid, links in out.items()}


def _sightmaps(d, kinds: dict) -> dict[str, SightMap]:
    """Each grid's sight map; one map serves every board with a grid walled the same way (a part laid
    out in another place, or drawn with other parts), so what it has worked out serves them all."""
    out = {}
    for gid, (_, _, at) in d.grids.items():
        cell = {sid: c for c, sid in at.items()}
        walls = tuple(sorted((cell[a], cell[b]) for (a, b), (kind, diag) in kinds.items()
                             if kind in SIGHT_BLOCKING and not diag and a in cell and b in cell))
        found = _SIGHTMAPS.get(walls)
        if found is None:
            if len(_SIGHTMAPS) >= 1024:
                _SIGHTMAPS.clear()
            found = _SIGHTMAPS[walls] = SightMap.build(list(walls))
        out[gid] = found
    return out


_SIGHTMAPS: dict[tuple, SightMap] = {}  # a grid's walls → its sight map


_SEARCHES = 64  # tables by space id a board keeps (about 20 kB each on a 200-space board)
_ROW_TYPES = {0xFF: "B", 0xFFFF: "H", 0xFFFFFFFF: "L"}  # a row's array type by its `unreached` value


def _unreached(spaces: int) -> int:
    """The smallest `unreached` value no distance on a board of that many spaces can equal."""
    return next(far for far in _ROW_TYPES if spaces < far)


def _pairs(closed) -> frozenset:
    return closed if isinstance(closed, frozenset) and all(isinstance(p, frozenset) for p in closed) \
        else frozenset(frozenset(p) for p in closed)


def _unique(names: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))
