"""A built Board as plain data for the native core (engine/native/board.cpp): what it needs to answer
every question the engine asks of a board exactly as engine/board.py does.

Line of Sight (the no-opaque, no-closed question, `line_of_sight(a, b)`, the one the engine caches as
("los0", a, b)) goes over in one of two forms:

- `geometry` (always, when the board's geometry fits the native port; see `sight_geometry`): what the
  Python board's answers are worked out from, as its own objects hold it: each grid's SightMap (wall runs,
  what each cell touches), the layout's TownSight (each space's box on the table, the wall runs where grids
  meet or a grid drawn in a hole meets its rim, what each grid's own map does not know), and the declared
  straight `link` chains of zone boards. The native board (engine/native/sight.cpp) works a pair out from it
  the first time the pair is asked, exactly, on integers; exporting it costs a few milliseconds on a fresh
  Die Zombies, Die! layout (the TownSight is built once per Python board, a few ms; the SightMaps are built
  with the board).
- `sight` (`board_data(board)`, what the tests compare with): the whole matrix, worked out here by the
  Python board for every ordered pair: about 0.8 s on a fresh Die Zombies, Die! layout (201 spaces, 40,401
  pairs), nearly all of it TownSight's walls across the layout. The answers are read without being stored
  in the board's own cache (its "los0" and "los" entries); the finished rows (a string per space, about
  40 kB on a 201-space board) are kept in it instead, under SIGHT_KEY, so exporting a layout again is
  quick.

The engine exports with `sight=False`: the native board answers from the geometry; when there is none (a
board whose coordinates are too large for the port's 64-bit arithmetic) it asks the Python board, pair by
pair, through the callback engine/native.py gives it.
"""

from __future__ import annotations

from spawnpit.engine.board import Board

FORMAT = 1
SIGHT_KEY = "native sight"  # Board._cache: the rows of `sight_rows`
LIMIT = 1 << 24  # the largest coordinate the native port takes (its products stay well inside 64 bits)

__all__ = ["FORMAT", "LIMIT", "SIGHT_KEY", "board_data", "sight_geometry", "sight_rows"]


def board_data(board: Board, sight: bool = True) -> dict:
    """Everything the native board needs, as JSON-able data (dicts, lists, str, int, bool, None):

    - `id`, `system`, `title`: the board's (`id` names the board in `s.board` for a space not on a part);
    - `spaces`: in board order (`Board.spaces`, what `index` numbers), each with the fields
      `Board.property` reads (`id`, `title`, `terrain`, `tags`, `building`, `stacking`, `grid`, `cell`;
      tuples as lists);
    - `links`: for each space in board order, its links in their order, each [neighbour, kind, diagonal];
    - `buildings`: in board order, each with `id`, `title`, `spaces` (as declared), `roll`, `pick_up`;
    - `spawn_points`, `start_spaces`, `objectives`: as the board lists them;
    - `geometry`: what Line of Sight is worked out from (`sight_geometry`), None when the port cannot take it;
    - `sight`: for each space a in board order, one string of "0"/"1", its k-th character whether a sees
      the k-th space (`line_of_sight(a, spaces[k])`); None with `sight=False` (the native board then works
      each pair out from `geometry` the first time a rule asks, else asks the Python board).
    """
    info = board.info
    spaces = []
    for sid in board.spaces:
        s = info[sid]
        spaces.append({"id": s.id, "title": s.title, "terrain": s.terrain, "tags": list(s.tags),
                       "building": s.building, "stacking": s.stacking, "grid": s.grid,
                       "cell": list(s.cell) if s.cell is not None else None})
    return {
        "format": FORMAT,
        "id": board.id, "system": board.system, "title": board.title,
        "spaces": spaces,
        "links": [[[n, kind, diagonal] for n, kind, diagonal in board.links[sid]] for sid in board.spaces],
        "buildings": [{"id": b.id, "title": b.title, "spaces": list(b.spaces), "roll": list(b.roll),
                       "pick_up": b.pick_up} for b in board.buildings.values()],
        "spawn_points": list(board.spawn_points),
        "start_spaces": list(board.start_spaces),
        "objectives": list(board.objectives),
        "geometry": sight_geometry(board),
        "sight": sight_rows(board) if sight else None,
    }


def sight_geometry(board: Board) -> dict | None:
    """What `line_of_sight(a, b)` (nothing opaque, nothing closed) is worked out from, as the Python board
    holds it, or None when a coordinate is beyond LIMIT:

    - `grids`: grid id → its SightMap's segments, each [run, axis ("x" or "y"), line, low, high];
    - `touching`: for each space in board order, the runs of its grid's SightMap its cell touches ([] off
      a grid); a cell's centre is worked out from its `cell` (2c + 1, 2r + 1);
    - `town`: None without a layout (Board.town_sight), else its TownSight: `box`, each space's box
      [x0, y0, x1, y1] (even integers; None for a space not in the plane); `segments`, each [run, axis,
      line, low, high, owner (a grid id, or None where grids meet)]; `touching`, for each space the runs
      along its box; `inside`, grid id → the positions in `segments` of the walls that grid's own map
      does not know; `mixed`, grid id → the runs holding such a wall;
    - `chains`: the declared `link` lists of three or more spaces (straight lines of zones), in order.
    """
    cells = [(board.info[sid].grid, board.info[sid].cell) for sid in board.spaces]
    grids = {gid: [list(seg) for seg in sight.segments] for gid, sight in board.sight.items()}
    touching = [sorted(board.sight[grid].touching.get(cell, ())) if grid is not None else [] for grid, cell in cells]
    numbers = [v for segs in grids.values() for seg in segs for v in seg[2:]]
    numbers += [2 * v + 1 for grid, cell in cells if grid is not None for v in cell]
    town = board.town_sight()
    plane = None
    if town is not None:
        segments = [list(seg) for seg in town.segments]
        position = {}
        for k, seg in enumerate(town.segments):
            position.setdefault(seg, []).append(k)
        plane = {
            "box": [list(town.box[sid]) if sid in town.box else None for sid in board.spaces],
            "segments": segments,
            "touching": [sorted(town.touching.get(sid, ())) for sid in board.spaces],
            "inside": {grid: sorted({k for seg in segs for k in position[seg]}) for grid, segs in town.inside.items()},
            "mixed": {grid: sorted(runs) for grid, runs in town.mixed.items()},
        }
        numbers += [v for corners in town.box.values() for v in corners]
        numbers += [v for seg in segments for v in seg[2:5]]
    if not all(-LIMIT <= v <= LIMIT for v in numbers):
        return None
    return {"grids": grids, "touching": touching, "town": plane,
            "chains": [list(chain) for chain in board.chains if len(chain) > 2]}


def sight_rows(board: Board) -> list[str]:
    """Line of Sight of every ordered pair, one string per viewer in board order (kept: SIGHT_KEY): what
    `board.line_of_sight(a, b)` answers, read from its cache where it has one, else worked out the way it
    works it out (Board.line_of_sight's no-opaque, no-closed branch) without filling the cache."""
    cache, info, spaces = board._cache, board.info, board.spaces
    found = cache.get(SIGHT_KEY)
    if found is not None:
        return list(found)
    nothing = frozenset()
    rows = []
    for a in spaces:
        sa = info[a]
        row = []
        for b in spaces:
            found = cache.get(("los0", a, b))
            if found is None:
                sb = info[b]
                if sa.grid is not None and sa.grid == sb.grid:
                    found = a == b or board._grid_sight(a, b, sa, sb)
                else:
                    found = cache.get(("los", a, b, nothing, nothing))
                    if found is None:
                        found = board._sees(a, b, nothing, nothing)
            row.append("1" if found else "0")
        rows.append("".join(row))
    cache[SIGHT_KEY] = tuple(rows)
    return rows
