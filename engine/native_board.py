"""A built Board as plain data for the native core (engine/native/board.cpp): what it needs to answer
every question the engine asks of a board exactly as engine/board.py does.

The native board keeps no geometry: Line of Sight is worked out here, by the Python board, for every
ordered pair of spaces (the no-opaque, no-closed question, `line_of_sight(a, b)`, the one the engine
caches as ("los0", a, b)), and handed over as a matrix. That is the dear part of the export: about
0.8 s on a fresh Die Zombies, Die! layout (201 spaces, 40,401 pairs), nearly all of it TownSight's
walls across the layout; a layout the Python board has already answered (its "los0" cache) costs
nothing more. Everything else (spaces, links, buildings, markers) takes a few milliseconds.

The answers are read without being stored in the board's own cache (its "los0" and "los" entries), so
a long simulation's hundreds of layouts do not keep 40,000 cached answers each in Python as well; the
finished rows (a string per space, about 40 kB on a 201-space board) are kept in it instead, under
SIGHT_KEY, so exporting a layout again (the Python board is shared by every game drawn on it) is quick.
"""

from __future__ import annotations

from spawnpit.engine.board import Board

FORMAT = 1
SIGHT_KEY = "native sight"  # Board._cache: the rows of `sight_rows`

__all__ = ["FORMAT", "SIGHT_KEY", "board_data", "sight_rows"]


def board_data(board: Board, sight: bool = True) -> dict:
    """Everything the native board needs, as JSON-able data (dicts, lists, str, int, bool, None):

    - `id`, `system`, `title`: the board's (`id` names the board in `s.board` for a space not on a part);
    - `spaces`: in board order (`Board.spaces`, what `index` numbers), each with the fields
      `Board.property` reads (`id`, `title`, `terrain`, `tags`, `building`, `stacking`, `grid`, `cell`;
      tuples as lists);
    - `links`: for each space in board order, its links in their order, each [neighbour, kind, diagonal];
    - `buildings`: in board order, each with `id`, `title`, `spaces` (as declared), `roll`, `pick_up`;
    - `spawn_points`, `start_spaces`, `objectives`: as the board lists them;
    - `sight`: for each space a in board order, one string of "0"/"1", its k-th character whether a sees
      the k-th space (`line_of_sight(a, spaces[k])`); None with `sight=False` (the native board then asks
      the Python board for each pair the first time a rule does).
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
        "sight": sight_rows(board) if sight else None,
    }


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
