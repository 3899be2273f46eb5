"""A person at the terminal playing one side: the table drawn with rich, then a numbered prompt.

Only for interactive play (nothing else in the engine imports it, so simulations never load rich or
pay for drawing). Before each choice: the board (grids as cells, buildings shaded, walls and doors on
cell edges, a grid per part of a composite board; zones and tracks as a compact list), the log since
the last prompt, round, moment, counters and tracks. Wrong answers are asked again; end of input,
Ctrl-C or `q` raise PlayerQuit."""

from __future__ import annotations

from collections import Counter

from rich.columns import Columns
from rich.console import Console, Group
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from spawnpit.engine.policies import PlayerQuit  # noqa: F401  (raised here, caught by the CLI)
from spawnpit.engine.state import Ref

CELL, LOG_LINES = 9, 14  # characters inside a grid cell; most log lines shown per prompt (the latest)
QUIT_WORDS = ("q", "quit", "exit")
SIDE_STYLES = ("bold cyan", "bold red", "bold green", "bold magenta", "bold yellow", "bold blue")
BUILDING_STYLES = ("on grey23", "on dark_blue", "on dark_green", "on purple4", "on dark_red", "on grey35",
                   "on deep_sky_blue4", "on orange4")
# edge kind → (vertical separator, horizontal separator, style) between two orthogonal grid cells
EDGES = {"open": ("│", "─", "grey35"), "wall": ("┃", "━", "bold"), "door": ("╏", "╍", "bold yellow"),
         "window": ("┆", "┄", "bold blue")}
QUIET_KEYS = ("n", "round", "at", "type", "rule", "source")
LOG_STYLES = {"result": "bold green", "kill": "red", "roll": "cyan"}




class HumanPolicy:
    """Plays one side from the terminal. `console`: a rich Console (a StringIO one in tests);
    `input`: a callable returning one line of the player's answer (the terminal when None)."""

    name = "human"

    def __init__(self, console: Console | None = None, input=None) -> None:
        self.console = console if console is not None else Console()
        self.input = input
        self._game, self._shown = None, 0      # the game being shown, how many log entries were

    def choose(self, game, side: str, label: str, options: list) -> int:
        self.console.print(screen(game, side, self._news(game)))
        self.console.print(prompt(game, side, label, options))
        return self._ask(len(options))

    def finish(self, game) -> None:
        """The last screen, for the CLI to show once the game is over (the result is in its log)."""
        self.console.print(screen(game, None, self._news(game)))

    def _news(self, game) -> list:
        """Log entries this player has not seen yet (a new game starts from its recent ones)."""
        if game is not self._game or self._shown > len(game.entries):
            self._game, self._shown = game, max(0, len(game.entries) - LOG_LINES)
        news, self._shown = game.entries[self._shown:], len(game.entries)
        return news

    def _ask(self, count: int) -> int:
        while True:
            answer = self._read().strip()
            if answer.lower() in QUIT_WORDS:
                raise PlayerQuit("the player quit")
            if answer.isdigit() and 1 <= int(answer) <= count:
                return int(answer) - 1
            why = "no answer" if not answer else f"`{answer}` is not one of the choices"
            self.console.print(Text(f"{why}: type a number from 1 to {count} (q quits)", style="yellow"))

    def _read(self) -> str:
        try:
            if self.input is None:
                return self.console.input("[bold]> [/]")
            self.console.print("> ", end="")
            line = self.input()
            if line is None:
                raise EOFError
            self.console.print(str(line), highlight=False, markup=False)
            return str(line)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise PlayerQuit("the player left the game") from None


# ---- the screen before a prompt ------------------------------------------------------------------

def screen(game, side: str | None, entries: list) -> Group:
    """The board, the log lines given, then the round, moment, counters and tracks."""
    heading = f"{_called(game, 'side', side)} to play" if side else "the game is over"
    parts = [Rule(heading, style="grey50"), board_view(game)]
    return Group(*parts, *([log_view(game, entries)] if entries else []), status(game))


def status(game) -> Text:
    at = ".".join(game.state.get("at") or []) or "-"
    out = Text.assemble((f"Round {game.state.get('round', 0)}", "bold"), f" · {at}")
    values = [(name, v) for name, v in game.state.get("counters", {}).items() if name in _shown_values(game)]
    values += [(_title(game.model.tracks.get(name), name), v) for name, v in game.state.get("tracks", {}).items()
               if name in _shown_values(game)]
    for name, value in values:
        out.append_text(Text.assemble(("  │  ", "grey50"), f"{name} ", (str(value), "bold")))
    return out


def _shown_values(game) -> set[str]:
    """The counters and tracks worth a place on the status line: the scenario's own counters, and any
    other a rule has changed this game, except pools of dice (bookkeeping of a fight)."""
    scenario = {e["key"] for e in game.model.scenario.get("props", {}).get("counter", [])}
    changed = {e.get("track") or e.get("name") for e in game.entries if e.get("type") in ("counter", "track")}
    pools = {name for name, v in game.state.get("counters", {}).items() if isinstance(v, list)}
    return (scenario | changed) - pools - _pool_names(game)


def _pool_names(game) -> set[str]:
    """Counters some rule rolls dice into (`roll … into NAME`)."""
    found = game.scratch.get("human_pools")
    if found is None:
        found, stack = set(), [game.model.system, *game.model.pack.get("objects", [])]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                if node.get("do") == "roll" and isinstance(node.get("args", {}).get("into"), dict):
                    found.add(node["args"]["into"].get("name"))
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
        game.scratch["human_pools"] = found
    return found


def log_view(game, entries: list) -> Text:
    """The entries as sentences under a heading per moment (the most recent LOG_LINES of them)."""
    entries = [e for e in entries if e.get("type") != "choice"]  # what was chosen shows in what it did
    out, skipped, moment = Text(), max(0, len(entries) - LOG_LINES), None
    if skipped:
        out.append(f"… {skipped} earlier log lines\n", style="grey50")
    for entry in entries[skipped:]:
        if (entry.get("round"), entry.get("at")) != moment:
            moment = (entry.get("round"), entry.get("at"))
            out.append(f"round {moment[0]} · {moment[1] or '-'}\n", style="grey50")
        out.append(f"  {describe_entry(game, entry)}\n", style=LOG_STYLES.get(entry.get("type"), ""))
    out.rstrip()
    return out


# ---- log entries, readable ----------------------------------------------------------------------

TEMPLATES = {  # log entry type → how it reads; fields are named by _name
    "roll": "rolled {dice}: {values} (total {total})", "move": "{unit} moves {from} → {to}",
    "enter": "{proto} enters at {space}", "spawn": "{count} × {kind} spawn at {space}", "note": "{text}",
    "wound": "{unit} wounded by {amount} ({wounds}/{health})", "heal": "{unit} healed by {amount} ({wounds}/{health})",
    "remove": "{unit} taken off the board", "counter": "{name} is {value}", "action": "{unit}: {action}",
    "draw": "{count} drawn from {deck} to {to}", "pool_empty": "no {kind} left to place", "reveal": "revealed {what}",
    "mark": "{what} marked {marker}", "unmark": "{what} no longer {marker}", "flip": "{what} flipped to {mode}",
    "discard": "{card} discarded", "give": "{card} given to {to}", "lookup": "{table}: {roll} in {column} → {result}",
    "shuffle": "{deck} shuffled", "reshuffle": "{deck} reshuffled", "shuffle_in": "{card} shuffled into {deck}",
    "search": "searched {deck}: {found}", "cancel": "{card} cancelled",
    "in_play": "{card} stays in play"}


def describe_entry(game, e: dict) -> str:
    """One log entry as a sentence; an unknown or odd entry as its fields, never an error."""
    try:
        special = _SPECIAL.get(e.get("type"))
        if special is not None:
            return special(game, e)
        return TEMPLATES[e.get("type")].format_map({k: _name(game, k, v) for k, v in e.items()})
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        fields = ", ".join(f"{k}={v}" for k, v in e.items() if k not in QUIET_KEYS)
        return f"{e.get('type', '?')}: {fields}" if fields else str(e.get("type", "?"))


def _name(game, key: str, value) -> str:
    """A logged value as a player reads it: units, protos and kinds by name, lists joined."""
    if key in ("unit", "what", "to", "by") and str(value) in game.state["units"]:
        return _unit(game, value)
    if key == "proto":
        return _unit_name(game, value)
    if key == "card" and isinstance(value, str):
        record = game.state["cards"].get(value)
        proto = record["proto"] if record else value
        return _called(game, "card", proto) if ("card", proto) in game.model.objects else value
    if key in ("deck", "to", "from") and isinstance(value, str) and value in game.model.decks:
        return _title(game.model.decks[value], value)
    if key in ("side", "to", "from") and isinstance(value, str) and (value.removeprefix("side:") in game.model.sides):
        return _called(game, "side", value.removeprefix("side:"))
    if key == "kind":
        return _called(game, "kind", value)
    if key in ("space", "from", "to", "where", "at") and game.board is not None and str(value) in game.board.info:
        return space_name(game, value)
    return ", ".join(map(str, value)) if isinstance(value, list) else "-" if value in (None, "") else str(value)


def _kill(game, e) -> str:
    by = f" by {_unit(game, e['by'])}" if e.get("by") else ""
    return f"{_unit(game, e['unit'])} killed in {space_name(game, e['space'])}{by}"


def _result(game, e) -> str:
    winner = _called(game, "side", e["winner"]) if e.get("winner") else "nobody"
    return f"GAME OVER: {winner} wins ({e.get('cause', '')})"


def _action_titles(game) -> dict[str, str]:
    titles: dict[str, str] = {}
    stack = list(game.model.system.get("blocks", []))
    while stack:
        block = stack.pop()
        if block["kind"] == "action":
            titles.setdefault(block["id"], block.get("title") or block["id"])
        stack.extend(block.get("blocks", []))
    return titles


def _choice(game, e) -> str:
    picked = e.get("picked")
    if picked is None:
        shown = "pass"
    elif picked in _action_titles(game):  # an action is logged by its id
        shown = _action_titles(game)[picked]
    else:
        shown = _unit(game, picked)
    return f"{_called(game, 'side', e['side'])} chose {shown} ({e['label']})"


def _track(game, e) -> str:
    name = e.get("track") or e["name"]
    title = _title(game.model.tracks.get(name), name)
    change = f" ({e['change']:+d})" if isinstance(e.get("change"), int) else ""
    return f"{title} is {e['value']}{change}"


def _play(game, e) -> str:
    on = f" on {_name(game, 'unit', e['on'])}" if e.get("on") else ""
    return f"{_name(game, 'side', e.get('side'))} play {_name(game, 'card', e['card'])}{on}"


_SPECIAL = {"play": _play, "kill": _kill, "result": _result, "choice": _choice, "track": _track}


# ---- names ---------------------------------------------------------------------------------------

def _title(obj: dict | None, fallback: str) -> str:
    if not obj:
        return str(fallback)
    return obj.get("props", {}).get("title") or obj.get("title") or str(fallback)


def _called(game, kind: str, ident) -> str:
    """A side, unit kind, unit proto, card or board by its title."""
    if kind == "side":
        obj = next((b for b in game.model.system.get("blocks", []) if b["kind"] == "side" and b["id"] == ident), None)
    else:
        obj = game.model.kinds.get(ident) if kind == "kind" else game.model.objects.get((kind, ident))
    return _title(obj, ident)


def _unit_name(game, proto: str) -> str:
    """A unit prototype by its name ("Sheriff Anderson"), not its subtitle ("Small Town Law Man")."""
    obj = game.model.objects.get(("unit", proto))
    return (obj.get("title") if obj else None) or _called(game, "unit", proto)


def _unit(game, uid) -> str:
    """A named unit by its name ("Billy"); one of many alike by name and number ("Zombie 3"); anything
    else as itself."""
    record = game.state["units"].get(str(uid))
    if not record:
        return str(uid)
    name = _unit_name(game, record["proto"])
    obj = game.model.objects.get(("unit", record["proto"]))
    many = obj is None or int(obj.get("props", {}).get("count", 1) or 1) > 1 or _alike(game, record["proto"]) > 1
    return f"{name} {str(uid).lstrip('u')}" if many else name


def _alike(game, proto: str) -> int:
    return sum(1 for r in game.state["units"].values() if r["proto"] == proto)


def space_name(game, sid) -> str:
    """A space as people name it: its building or board part and its cell ("Farmhouse d2",
    "Town Center b2"); a space of a plain board by its own name."""
    sid = str(sid)
    board = game.board
    if board is None or sid not in board.info:
        return sid
    parts = sid.split(".")
    building = board.info[sid].building
    if building:
        return f"{board.buildings[building].title} {parts[-1]}"
    if len(parts) > 1:
        return f"{_called(game, 'board', parts[-2]).replace('_', ' ')} {parts[-1]}"
    return sid


def option_label(game, option) -> str:
    """How an option reads: a unit by its proto name and space, a card by its name, a space by its
    id (and building), a string as itself, None as pass."""
    if option is None:
        return "pass"
    if isinstance(option, dict):
        return _title(option, option.get("id", "?"))
    if not isinstance(option, Ref):
        return str(option)
    if option.kind == "unit" and option.id in game.state["units"]:
        where = game.state["units"][option.id]["space"]
        return f"{_unit(game, option.id)} in {space_name(game, where) if where else 'no space'}"
    if option.kind == "card" and option.id in game.state["cards"]:
        card = game.state["cards"][option.id]
        return f"{_called(game, 'card', card['proto'])} ({card['where']})"
    if option.kind == "space" and game.board is not None and option.id in game.board.info:
        return space_name(game, option.id)
    return _called(game, "side", option.id) if option.kind == "side" else option.id


def prompt(game, side: str, label: str, options: list) -> Text:
    out = Text.assemble((_called(game, "side", side), "bold"), f" — {label}\n")
    for i, option in enumerate(options, 1):
        out.append(f"  {i:>2}. ", style="bold")
        out.append(option_label(game, option) + "\n", style="italic" if option is None else "")
    out.append(f"Choose 1-{len(options)} (q quits)", style="grey50")
    return out


# ---- the board -----------------------------------------------------------------------------------

def board_view(game):
    """Grids as cells (composite boards: one panel per part), other spaces as a compact list, and a
    legend of the unit symbols, buildings and edges."""
    board = game.board
    if board is None:
        return Text("(this scenario has no board)", style="grey50")
    marks = unit_marks(game)
    grids = list(dict.fromkeys(board.info[s].grid for s in board.spaces if board.info[s].grid))
    panels = [Panel(grid_text(game, gid, marks), title=_part_title(game, gid), expand=False) for gid in grids]
    rest = [s for s in board.spaces if board.info[s].grid is None]
    parts = ([Columns(panels)] if panels else []) + ([zone_view(game, rest, marks)] if rest else [])
    return Group(*parts, legend(game, bool(panels)))


def _part_title(game, gid: str) -> str:
    """A grid's panel title: the title of the board (part) it is; grid ids end with the board id."""
    return _called(game, "board", gid.rsplit(".", 1)[-1]).replace("_", " ")


def side_symbols(game) -> dict[str, tuple[str, str]]:
    """side → (a letter, a style): the side title's first letter not already taken."""
    out: dict[str, tuple[str, str]] = {}
    for i, side in enumerate(game.model.sides):
        taken, title = {letter for letter, _ in out.values()}, _called(game, "side", side).upper()
        letter = next((c for c in title if c.isalpha() and c not in taken), str(i + 1))
        out[side] = (letter, SIDE_STYLES[i % len(SIDE_STYLES)])
    return out


def unit_marks(game) -> dict[str, Text]:
    """space → its units as side letters with counts ("H Z3")."""
    symbols, counts = side_symbols(game), {}
    for record in game.state["units"].values():
        if record["space"] is not None:
            counts.setdefault(record["space"], Counter())[record["side"]] += 1
    marks = {}
    for space, per_side in counts.items():
        text = Text()
        for side, n in per_side.items():
            letter, style = symbols.get(side, ("?", "bold"))
            text.append(" " if text else "")
            text.append(letter + (str(n) if n > 1 else ""), style=style)
        marks[space] = text
    return marks


def _building_styles(game) -> dict[str, str]:
    return {b: BUILDING_STYLES[i % len(BUILDING_STYLES)] for i, b in enumerate(game.board.buildings)}


def _tags(game, sid: str) -> str:
    """What a space is, in a few words: its building, spawn point, markers on it."""
    board, building = game.board, game.board.info[sid].building
    words = [board.buildings[building].title] if building else []
    words += ["spawn"] if sid in board.spawn_points else []
    markers = game.state["spaces"].get(sid, {}).get("markers", {})
    words += [f"{m}{'×' + str(n) if n > 1 else ''}" for m, n in markers.items() if n]
    return " ".join(words)


def grid_text(game, gid: str, marks: dict) -> Text:
    """One grid as cells of CELL characters: name, what the space is, its units; cells of a
    building shaded alike; the edges between cells drawn by kind (wall, door, window, open)."""
    board = game.board
    at = {board.info[s].cell: s for s in board.spaces if board.info[s].grid == gid}
    cols, rows = 1 + max(c for c, _ in at), 1 + max(r for _, r in at)
    shades, out = _building_styles(game), Text()
    for r in range(rows):
        out.append_text(_border(board, at, r, cols)).append("\n")
        for line in range(3):
            for c in range(cols):
                out.append(*_edge(board, at.get((c - 1, r)), at.get((c, r)))[::2])
                out.append_text(_cell_line(game, at.get((c, r)), line, marks, shades))
            out.append(*_edge(board, at.get((cols - 1, r)), None)[::2])
            out.append("\n")
    return out.append_text(_border(board, at, rows, cols))


def _edge(board, a: str | None, b: str | None) -> tuple[str, str, str]:
    if a is None or b is None:
        return EDGES["open"][0], EDGES["open"][1], "grey50"
    return EDGES.get(board.edge(a, b) or "wall", EDGES["wall"])


def _border(board, at: dict, r: int, cols: int) -> Text:
    """The line above row r: each cell's top edge by the kind of edge to the cell above."""
    out = Text("·", style="grey50")
    for c in range(cols):
        _, char, style = _edge(board, at.get((c, r - 1)), at.get((c, r)))
        out.append(char * CELL, style=style).append("·", style="grey50")
    return out


def _cell_line(game, sid: str | None, line: int, marks: dict, shades: dict) -> Text:
    if sid is None:
        return Text(" " * CELL)
    text = [Text(sid.rsplit(".", 1)[-1], style="bold"), Text(_tags(game, sid), style="italic"),
            marks.get(sid, Text()).copy()][line]
    text.truncate(CELL, overflow="ellipsis", pad=True)
    text.stylize(shades.get(game.board.info[sid].building, ""))
    return text


def zone_view(game, spaces: list[str], marks: dict) -> Group:
    """Zone and track boards: each track as a line of its spaces, then the other spaces with units
    or something to say one a line, and the bare rest on one line."""
    board, lines, on_track = game.board, [], set()
    for track in board.tracks.values():
        line = Text(f"{track.title}: ", style="bold")
        for i, sid in enumerate(track.spaces):
            line.append(" → " if i else "", style="grey50").append(sid.rsplit(".", 1)[-1])
            if sid in marks:
                line.append("[").append_text(marks[sid]).append("]")
        lines.append(line)
        on_track.update(track.spaces)
    table = Table(box=None, show_header=False, pad_edge=False)
    rest = [s for s in spaces if s not in on_track]
    for sid in rest:
        if sid in marks or _tags(game, sid):
            table.add_row(Text(sid, style="bold"), marks.get(sid, Text()), Text(_tags(game, sid), style="italic"))
    bare = [s for s in rest if s not in marks and not _tags(game, s)]
    return Group(*lines, table, Text(f"also: {', '.join(bare)}", style="grey50") if bare else Text())


def legend(game, grids: bool) -> Text:
    """Which letter is which side (and where its units are), the building shades, the edge marks."""
    out, symbols = Text(), side_symbols(game)
    for side, (letter, style) in symbols.items():
        out.append(letter, style=style)
        out.append(f" {_called(game, 'side', side)}: {_roster(game, side) or 'none on the board'}\n")
    if grids and game.board.buildings:
        for building, shade in _building_styles(game).items():
            out.append("  ", style=shade).append(f" {game.board.buildings[building].title}  ")
        out.append("\n")
    for kind in ("wall", "door", "window") if grids else ():
        out.append(EDGES[kind][1] + EDGES[kind][0], style=EDGES[kind][2]).append(f" {kind}  ")
    out.rstrip()
    return out


def _roster(game, side: str) -> str:
    """A side's units on the board: named ones with their space, many alike as a count."""
    groups: dict[str, list] = {}
    for uid, record in game.state["units"].items():
        if record["side"] == side and record["space"] is not None:
            groups.setdefault(record["proto"], []).append((uid, record))
    words = []
    for proto, units in groups.items():
        if len(units) > 1:
            words.append(f"{_unit_name(game, proto)} ×{len(units)}")
            continue
        (uid, record), = units
        hurt = f" ({record['wounds']}/{record['stats'].get('health', '?')} wounds)" if record.get("wounds") else ""
        words.append(f"{_unit(game, uid)} at {space_name(game, record['space'])}{hurt}")
    return ", ".join(words)
