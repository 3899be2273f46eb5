"""A person at the terminal playing one side: the table drawn with rich, then a numbered prompt.

Only for interactive play (nothing else in the engine imports it, so simulations never load rich or
pay for drawing). Before each choice: the board (grids as cells, buildings shaded, walls and doors on
cell edges, a grid per part of a composite board, drawn compact when the terminal is short; zones and
tracks as a compact list; the spaces of a choice of spaces numbered on it), the log since the last
prompt, the player's own units, what they carry and hold, the round, moment, tracks and objectives, then
the question in words and its numbered options, all cut to the terminal's height (`fitted`). Wrong
answers are asked again; `?` lists the commands (`?N` explains option N, `m` the map, `b` each board,
`c` your side, `l` the log, `o` the objectives, `a` the AI's answer); end of input, Ctrl-C or `q` raise
PlayerQuit."""

from __future__ import annotations

import math
import re
import sys
import textwrap
from collections import Counter

from rich.columns import Columns
from rich.console import Console, Group
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from spawnpit.engine.board import EVERYTHING
from spawnpit.engine.effects import fill
from spawnpit.engine.policies import AIPolicy, PlayerQuit  # PlayerQuit: raised here, caught by the CLI
from spawnpit.engine.state import Ref

CELL, SMALL, LOG_LINES = 9, 3, 24  # characters inside a grid cell (full, compact); most log lines shown per prompt
MOVES_SHOWN = 150  # characters of a run of moves in the log (l lists every one)
MANY = 10  # a choice of more spaces than this lists them in columns, by board part
QUIT_WORDS = ("q", "quit", "exit")
SIDE_STYLES = ("bold cyan", "bold red", "bold green", "bold magenta", "bold yellow", "bold blue")
BUILDING_STYLES = ("on grey23", "on dark_blue", "on dark_green", "on purple4", "on dark_red", "on grey35",
                   "on deep_sky_blue4", "on orange4")
# edge kind → (vertical separator, horizontal separator, style) between two orthogonal grid cells
EDGES = {"open": ("│", "─", "grey35"), "wall": ("┃", "━", "bold"), "door": ("╏", "╍", "bold yellow"),
         "window": ("┆", "┄", "bold blue")}
QUIET_KEYS = ("n", "round", "at", "type", "rule", "source")
LOG_STYLES = {"result": "bold green", "kill": "red", "roll": "cyan", "wound": "yellow", "play": "magenta"}
NUMBER_STYLE = "bold black on yellow"
CROWDED_NUMBER_STYLE = "bold white on red"  # a numbered compact cell whose number leaves no room for its units
MIXED_NUMBER_STYLE = "bold black on white"  # the same, where units of several sides are
HELP = """Type the number of an option and press Enter. Other commands:
  ?N  explain option N: a card's text, an action's rule, a unit's items and
      keywords, a space's building, doors out and who is there
  m   the map again, with its legend and markers
  b   each board on its own with cell names (a1, b3...); b N: board N alone
  c   your side: units, wounds, items, cards; c 1, c 2...: whole texts, by page
  l   the log's latest page (as many lines as fit); l 2, l 3...: pages before
  o   the scenario: its aim, the goals and how far each is, its own rules
  w X where X is on the map, lettered: a space or unit by name (w h4, w Billy)
  0   pass, where passing is one of the choices (0 always, whatever its number)
  a   let the AI answer this question for you (as the ai player would)
  p!  pass, and pass on this question by itself until this turn ends (p!!:
      the game), whoever and whatever it is about (a card you keep, offered
      again at every card the other side plays, or to each unit in turn)
  ?   this help   q   quit the game (asks first; Ctrl-C and Ctrl-D quit at once)
On the board a unit one of a kind, or of a side's rarer kind (ZH2: two), has
its own letters (the legend and your side's panel say which is who); a side's
letter with a number (Z3) is that many of its commonest units in the space (in
a crowded compact cell, of its units); a choice of spaces (or units) numbers
them on the board (yellow). Walls ━┃, doors ╍╏, windows ┄┆; on the one-line map
a cell underlined has a wall (a door, a window) below it. A screen too tall for
the terminal leaves parts out and says which, with the command that shows them."""


_AI_ANSWERS = object()  # _ask's answer when the player lets the AI choose (`a`)
_MUTE = object()  # _ask's answer `p!`: pass, and pass on the same question by itself until the turn ends
_MUTE_GAME = object()  # `p!!`: the same until the game ends


class _Terminal(Console):
    """The terminal's console. When its reader goes away (the screen piped to a program that stopped
    reading), rich would end the process on the spot (SystemExit); this raises BrokenPipeError instead,
    so whoever runs the game can keep its log first (and send what is left to write elsewhere)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError("the output was closed")


class HumanPolicy:
    """Plays one side from the terminal. `console`: a rich Console (a StringIO one in tests);
    `input`: a callable returning one line of the player's answer (the terminal when None);
    `compact`: draw grids one line a cell (None: when the full board would not fit the terminal);
    `fit`: cut each screen to the console's height, so the board and the question show together
    (None: when the console is a terminal; a screen piped elsewhere is shown whole)."""

    name = "human"

    def __init__(self, console: Console | None = None, input=None, compact: bool | None = None,
                 fit: bool | None = None) -> None:
        self.console = console if console is not None else _Terminal()
        self.input = input
        self.compact = compact
        self.fit = fit
        self._game, self._shown = None, 0      # the game being shown, how many log entries were
        self._drawn = None                     # what the board showed when it was last drawn
        self._held: set | None = None          # the cards the side held at the last prompt
        self._rule: dict | None = None         # the rule asking the current question (_asking_rule)
        self._muted: set = set()               # (question, (round, turn), or None: the game) passed on by itself
        self.before_asking = None              # called before the player is asked (the CLI saves the log there)

    def choose(self, game, side: str, label: str, options: list) -> int:
        rule = self._rule = _asking_rule(side)
        groups = alike_options(game, options)  # three Zombies alike in one space: one option, not three
        # a group stands as its last option: the one picked goes (a Zombie removed), the group keeps its first
        # and so its place in the list (a play-test's "Zombie ×6 in Gas Station g1" went from 1 to 5 to 6
        # between three questions alike, as its first Zombie was taken each time)
        shown = [options[group[-1]] for group in groups]
        if len(shown) == 1:  # nothing to decide: said in a line, not asked (what happened waits for the next screen)
            self.console.print(Text.assemble((_called(game, "side", side), "bold"),
                                             f" — {ask_text(game, label, rule, options)}: ",
                                             (alike_label(game, shown[0], len(groups[0])), "bold"), " (the only choice)"))
            return groups[0][-1]
        # `p!` mutes a question whoever it is about (Courage offered to each Hero in turn is one question)
        general = {k: v for k, v in rule.items() if k not in ("asked_for", "asked_at", "asked_card")} if isinstance(rule, dict) else rule
        # (numbers the question says, `with` values, do not make it another: "step 2 of up to 3")
        # (until the turn ends: a play-test's p! on a Zombie Turn question passed it in the Hero Turn too)
        turn = (game.state.get("round"), (game.state.get("at") or [None])[0])
        muted = (re.sub(r"\d+", "#", ask_text(game, label, general, options)), turn)
        for_good = (muted[0], None) in self._muted
        if None in options and (muted in self._muted or for_good):  # `p!` (`p!!`) said: pass on this question
            self.console.print(Text.assemble((_called(game, "side", side), "bold"),
                                             f" — {ask_text(game, label, rule, options)}: ",
                                             ("pass", "bold"), " (p!! this game)" if for_good else " (p! this turn)"),
                               style="grey50")
            return options.index(None)
        if self.before_asking is not None:  # (before the question shows: whoever sees it may rely on it)
            self.before_asking()
        numbers = space_numbers(game, options)
        # a choice of units on the board: each one's number on its space too (a play-test took "Zombie 18
        # in Gym/High School h4", a target, for another Zombie: the map showed neither)
        # (listed all the same: a play-test found "who acts next?" as bare numbers on the map worse than the
        # named list, and the numbered map crowded out the log line of a Hero's death)
        spaces = bool(numbers)
        numbers = numbers or unit_numbers(game, shown)
        drawn = _board_state(game)
        with_board = drawn != self._drawn or bool(numbers)
        self._drawn = drawn
        compact = self._compact(game)
        alike = {k: len(group) for k, group in enumerate(groups) if len(group) > 1}
        news, new = self._news(game), self._new_cards(game, side)
        here = rule.get("asked_at") if isinstance(rule, dict) else None  # (the unit asked about, reversed)
        if self._fits():
            ask = {"label": label, "options": shown, "rule": rule, "alike": alike}
            for part in fitted(self.console, game, side, news, ask, numbers, with_board, compact, new, here, spaces):
                self.console.print(part)
        else:
            self.console.print(screen(game, side, news, numbers=numbers, board=with_board, compact=compact,
                                      new=new, width=self.console.width, here=here))
            self.console.print(prompt(game, side, label, shown, rule, width=self.console.width, alike=alike))
        picked = self._ask(game, side, label, shown, numbers)
        if picked is _MUTE or picked is _MUTE_GAME:
            kept = {m for m in self._muted if m[1] in (muted[1], None)}  # (earlier turns' forgotten)
            self._muted = kept | {muted if picked is _MUTE else (muted[0], None)}
            return options.index(None)
        if picked is _AI_ANSWERS:  # `a`: the ai policy's answer, from the rules' own advice
            index = AIPolicy().choose(game, side, label, options)
            said = "pass" if options[index] is None else option_label(game, options[index])
            self.console.print(Text(f"the AI chooses: {said}", style="grey50"))
            return index
        return groups[picked][-1]

    def finish(self, game) -> None:
        """The last screen, for the CLI to show once the game is over (the result is in its log): on a
        terminal too short for it all, the map is left out before the result and the latest log lines."""
        news, compact, width = self._news(game), self._compact(game), self.console.width
        views = (Group(screen(game, None, news, compact=compact, board=board, width=width), ending(game))
                 for board in (True, False))
        self.console.print(self._first_fitting(views) if self._fits() else next(views))

    def _fits(self) -> bool:
        """Whether each question's screen is cut to the terminal's height (see `fitted`)."""
        return self.fit if self.fit is not None else self.console.is_terminal

    def _leaves_room(self, renderable) -> bool:
        """Whether a command's output leaves the question's reminder and the prompt on the screen."""
        return len(self.console.render_lines(renderable, self.console.options, pad=False)) <= self.console.height - 2

    def _first_fitting(self, candidates):
        """The first of a command's ways of showing itself, fullest first (made one at a time, as asked),
        that leaves room for the question; the last when none does."""
        shown = None
        for shown in candidates:
            if self._leaves_room(shown):
                break
        return shown

    def _page(self, renderable, page: int, command: str) -> Text:
        """Page `page` of what a command shows, cut into pages that each leave the question room (the
        last page when `page` is past it), with a line saying which page it is and how to see the others.
        `renderable` may be a list of blocks (a card's row each): a page ends between two blocks, a block
        taller than a page alone is cut (a play-test's `c 1` ended mid-card, its last words on page 2)."""
        size = max(1, self.console.height - 3)  # (the page's own line, the question's reminder, the prompt)
        blocks = renderable if isinstance(renderable, list) else [renderable]
        cut: list[list] = [[]]  # the pages' lines
        for block in blocks:
            lines = self.console.render_lines(block, self.console.options, pad=False)
            if cut[-1] and len(cut[-1]) + len(lines) > size:
                cut.append([])
            for line in lines:
                if len(cut[-1]) >= size:
                    cut.append([])
                cut[-1].append(line)
        pages = len(cut)
        page = min(max(1, page), pages)
        out = Text()
        for line in cut[page - 1]:
            for segment in line:
                out.append(segment.text, segment.style)
            out.append("\n")
        others = "" if pages == 1 else f"; {command} 2" if pages == 2 and page == 1 else f"; {command} 1" if pages == 2 \
            else f"; {command} 1 to {command} {pages}"  # (one short line however many pages)
        return out.append(f"(page {page} of {pages}{others})", style="grey50")

    def _boards(self, game, numbers, side, which: int | None):
        """`b`: each board on its own with its cell names; where they do not all fit the terminal's
        height, `b` lists them and `b N` shows the Nth (at 80x24 they took some 60 lines at once)."""
        compact = self._compact(game)
        width = self.console.width
        drawn = board_view(game, numbers, compact, side, whole=False, width=width)
        grids = board_grids(game)
        if which is None and (self._leaves_room(drawn) or len(grids) < 2):
            return drawn
        if which is not None and not 1 <= which <= len(grids):
            return Text(f"there is no board {which}: b lists them", style="yellow")
        if which is None:
            out = Text("The boards (b N shows one, with its cell names):\n")
            for i, gid in enumerate(grids, 1):
                out.append(f"  b{i}", style="bold").append(f"  {_part_title(game, gid)}\n")
            out.rstrip()
            return out
        return board_view(game, numbers, compact, side, whole=False, width=width, part=grids[which - 1])

    def _compact(self, game) -> bool:
        if self.compact is not None:
            return self.compact
        if game.board is None:
            return False
        key = (self.console.width, self.console.height)
        cache = game.scratch.setdefault("human_board_height", {})
        if key not in cache:
            lines = self.console.render_lines(board_view(game), self.console.options, pad=False)
            cache[key] = len(lines)
        return cache[key] > self.console.height - 12

    def _news(self, game) -> list:
        """Log entries this player has not seen yet (a new game starts from its recent ones)."""
        if game is not self._game or self._shown > len(game.entries):
            self._game, self._shown, self._held = game, max(0, len(game.entries) - LOG_LINES), None
        news, self._shown = game.entries[self._shown:], len(game.entries)
        return news

    def _new_cards(self, game, side: str) -> set:
        """The side's cards (carried or in hand) it did not hold at the last prompt."""
        held = {c for c, r in game.state["cards"].items() if _holder_side(game, r["where"]) == side}
        new = set() if self._held is None else held - self._held
        self._held = held
        return new

    def _ask(self, game, side: str, label: str, options: list, numbers: dict | None = None) -> int:
        count = len(options)
        while True:
            answer = self._read().strip()
            word = answer.lower()
            if word in QUIT_WORDS:
                self.console.print(Text("Leave this game? y quits, anything else goes back to the question", style="yellow"))
                if self._read().strip().lower() in ("y", "yes"):
                    raise PlayerQuit("the player quit")
                self._again(game, label, options)
                continue
            if answer.isdigit() and len(answer) <= 6 and 1 <= int(answer) <= count:  # (int() refuses huge numbers)
                return int(answer) - 1
            if answer == "0" and options[-1] is None:  # pass, whatever its number (the last) in this question
                return count - 1
            if word == "a":
                return _AI_ANSWERS
            if word in ("p!", "p!!"):
                if options[-1] is None:
                    return _MUTE if word == "p!" else _MUTE_GAME
                self.console.print(Text(f"{word} passes only where passing is one of the choices", style="yellow"))
                continue
            shown = self._command(game, side, word, options, numbers)
            if shown is None:
                why = "no answer" if not answer else f"`{answer}` is not one of the choices"
                self.console.print(Text(f"{why}: type a number from 1 to {count} (? for help, q quits)",
                                        style="yellow"))
            else:
                self.console.print(shown)
                self._again(game, label, options)

    def _again(self, game, label: str, options: list) -> None:
        """The question once more, in a line, after something else was shown."""
        question = _clip(ask_text(game, label, self._rule, options), self.console.width - 30)
        if options and options[-1] is None and all(isinstance(o, Ref) and o.kind == "space" for o in options[:-1]):
            # as the board's footer said it: the spaces, and 0 to pass
            real = "1" if len(options) == 2 else f"1-{len(options) - 1}"
            self.console.print(Text(f"Choose {real} or 0 to pass, for: {question}", style="grey50"))
        elif options and options[-1] is None:  # as the list said it (its last number passes, and so does 0)
            self.console.print(Text(f"Choose 1-{len(options)} (0 passes) for: {question}", style="grey50"))
        else:
            self.console.print(Text(f"Choose 1-{len(options)} for: {question}", style="grey50"))

    def _command(self, game, side: str, word: str, options: list, numbers):
        """What a command shows (None: not a command)."""
        if word in ("?", "h", "help"):
            return Text(HELP)
        explain = re.fullmatch(r"\?\s*(\d{1,6})", word)  # (at most 6 digits here and below: int() refuses huge ones)
        if explain:
            n = int(explain.group(1))
            if not 1 <= n <= len(options):
                return Text(f"there is no option {n}", style="yellow")
            return Text(f"{n}. {option_label(game, options[n - 1])}\n{explain_option(game, options[n - 1], self._rule)}")
        if word == "m":
            # the question and the prompt must stay under it: the roster goes first (the map shows the
            # units), then the wall/door marks (? lists them), then the markers line's markers on spaces,
            # which the map shows itself, and last a building's own (Lights Out, only in that line)
            fallbacks = [{}, {"roster": False}, {"roster": False, "edges": False},
                         {"roster": False, "edges": False, "markers": "buildings"},
                         {"roster": False, "edges": False, "markers": False}]  # (the map whole, before all)
            here = self._rule.get("asked_at") if isinstance(self._rule, dict) else None
            return self._first_fitting(board_view(game, numbers, self._compact(game), side, whole=True,
                                                  width=self.console.width, here=here, **less) for less in fallbacks)
        board = re.fullmatch(r"b\s*(\d{0,6})", word)
        if board:
            return self._boards(game, numbers, side, int(board.group(1)) if board.group(1) else None)
        cards = re.fullmatch(r"c\s*(\d{0,6})", word)
        if cards:
            # the question must stay under it: each card's text cut to one line when the whole texts are too
            # tall; the whole texts page by page when even that is taller than the screen, or when asked (`c N`)
            units = side_view(game, side, crowds=True) or Text("nothing to show for your side")
            texts = cards_view(game, side)
            whole = Group(units, texts)
            rows = [units, *[row for row in texts.split("\n") if row.plain]]  # (pages end between two cards)
            if cards.group(1):  # `c N`: the whole texts, page by page
                return self._page(rows, int(cards.group(1)), "c")
            if self._leaves_room(whole):
                return whole
            cut = Text("(texts cut to one line to fit; c 1, c 2…: the whole texts, page by page)",
                       style="grey50")
            short = Group(units, cards_view(game, side, line=self.console.width - 1), cut)
            return short if self._leaves_room(short) else self._page(rows, 1, "c")
        paged = re.fullmatch(r"l\s*(\d{0,6})", word)
        if paged:  # every move of a run; as many lines as leave the question on the screen
            lines = max(8, min(60, self.console.height - 3))
            return log_page(game, game.entries, int(paged.group(1) or 1), lines, self.console.width, side)
        if word == "o":  # the goals, with what the scenario is about and its own rules (how a goal is reached)
            return self._first_fitting(goals_view(game, line=line) for line in (None, self.console.width - 1))
        wanted = re.fullmatch(r"w\s+(.+)", word)
        if wanted:  # a place the log names ("Gym/High School h4"), found on the map (a play-test could not)
            if game.board is None:
                return Text("this scenario has no board", style="yellow")
            found = find_on_board(game, wanted.group(1))
            if not found:
                return Text(f"nothing on the board is called {wanted.group(1)!r} (a cell such as h4, a building, "
                            "a board, or a unit such as Zombie 18)", style="yellow")
            # lettered, not numbered: a number on the map is an answer to the question (the review)
            numbers = {sid: letter for (sid, _), letter in zip(found, FOUND_LETTERS)}
            listed = Text("  ·  ".join(f"{numbers[sid]} {said}" for sid, said in found) if len(found) <= 8 else
                          f"{len(found)} spaces, lettered A, B… on the map ({found[0][1]} … {found[-1][1]})")
            fallbacks = [{"roster": False}, {"roster": False, "edges": False},
                         {"roster": False, "edges": False, "markers": False}, None]  # (None: the map without its key)
            return self._first_fitting(
                Group(*board_parts(game, numbers, self._compact(game), side, width=self.console.width, roster=False,
                                   markers=False)[0], listed) if less is None else
                Group(board_view(game, numbers, self._compact(game), side, whole=True, width=self.console.width, **less),
                      listed) for less in fallbacks)
        return None

    def _read(self) -> str:
        try:
            if self.input is None:
                _drop_typed_ahead()
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


def _drop_typed_ahead(stdin=None) -> None:
    """Forget what was typed at a terminal before the question was shown: a key meant for the question
    before (a play-test's "2" for a question answered by itself, "the only choice") must not answer the
    next one, where it may play a card. Nothing happens where the input is not a terminal (a pipe, a
    file: every line is an answer, in order) or the system has no terminal control (Windows)."""
    stdin = stdin or sys.stdin
    try:
        import termios

        if stdin.isatty():
            termios.tcflush(stdin.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError, AttributeError):  # (no termios; a closed or odd stream)
        pass


def _asking_rule(side: str | None = None) -> dict | None:
    """The rule asking the current question: the `rule` of the engine's `choose` below us on the
    stack (None when there is none, e.g. the turn structure's own questions), with `asked_for`: who
    the question is about (_hook_unit), when the hook knows."""
    from spawnpit.engine.game import Context

    frame = sys._getframe(1)
    rule = None
    for _ in range(14):
        if frame is None:
            break
        here = frame.f_locals
        if rule is None and frame.f_code.co_name == "choose" and "rule" in here:
            rule = here["rule"]
            if not isinstance(rule, dict):
                return None
        ctx = here.get("self")
        if rule is not None and isinstance(ctx, Context):
            (unit, here), ref = _hook_unit(ctx, side), _hook_card_ref(ctx, side)
            card = None if ref is None else _card_title(ctx.game, ref)
            if card:
                unit = f"{unit}; {card}" if unit else card
                rule = {**rule, "asked_card": ref}  # (`?N` on a bare option tells it too)
            rule = {**rule, "asked_for": unit} if unit else rule
            return {**rule, "asked_at": here} if here else rule
        frame = frame.f_back
    return rule


def _hook_unit(ctx, side: str | None = None) -> tuple[str | None, str | None]:
    """Who a running hook's question is about: the unit one of a kind whose ability it is (`self`), else
    its event's `unit` (or an enclosing hook's), by name; else the unit of the asking side the rule is
    going through one by one (the nearest variable holding one: Zombie Movement's `for each unit z`), as
    "the Zombie in Gym g3" when it is one of many alike, with its space (the map shows it reversed); else
    a unit one of a kind the event names (the Hero a Twisted Ankle would be played on). (name, space)."""
    game = ctx.game
    for name in ("self", "unit"):
        at = ctx
        while at is not None:
            unit = at.env.get(name)
            if isinstance(unit, Ref) and unit.kind == "unit":
                record = game.state["units"].get(unit.id)
                if record and (not _many(game, record["proto"]) or record.get("name")):
                    return _unit(game, unit.id), None
                break
            at = at.parent
    at, named = ctx, None  # named: the nearest unit one of a kind of any side, the last resort
    while at is not None:
        for value in reversed(list(at.env.values())):
            record = game.state["units"].get(value.id) if isinstance(value, Ref) and value.kind == "unit" else None
            if record is None:
                continue
            one = not _many(game, record["proto"]) or bool(record.get("name"))  # (or named: Zombie Hero (Billy))
            if side is not None and record["side"] == side:
                if one:
                    return _unit(game, value.id), None
                where = f" in {space_name(game, record['space'])}" if record.get("space") else ""
                return f"the {_unit_name(game, record['proto'])}{where}", record.get("space")
            if one and named is None:
                named = _unit(game, value.id)
        at = at.parent
    return named, None


def _card_title(game, card: Ref) -> str:
    return _called(game, "card", game.state["cards"][card.id]["proto"])


def _hook_card_ref(ctx, side: str | None = None) -> Ref | None:
    """The card a running hook's question is about, when its event names one (`card`: the card a Search
    found, the card being played) that is not the asking rule's own card and that the asking side may see
    (in play, discarded, or its own): the Flashlight's "keep it or draw again" named nothing."""
    game = ctx.game
    at = ctx
    while at is not None and "card" not in at.env:
        at = at.parent
    if at is None:
        return None
    card, own = at.env.get("card"), at.env.get("self")
    if not (isinstance(card, Ref) and card.kind == "card") or card == own:
        return None
    record = game.state["cards"].get(card.id)
    if record is None or not (record["where"] in ("play", "discard") or _holder_side(game, record["where"]) == side):
        return None
    return card


def _board_state(game):
    units = tuple((u, r["space"], r.get("wounds"), r.get("mode")) for u, r in game.state["units"].items())
    marks = tuple((s, tuple(sorted((k, v) for k, v in r.get("markers", {}).items() if v)))
                  for s, r in game.state["spaces"].items())
    return hash((units, marks))


def face_up(game, cid: str) -> bool:
    """Whether a card held in a hand lies face up on the table, every side seeing it: it carries the
    marker, or the keyword, `face_up` (LNOE: a Townsfolk the Heroes found)."""
    record = game.state["cards"].get(str(cid)) or {}
    return bool((record.get("markers") or {}).get("face_up")) or "face_up" in (record.get("keywords") or ())


def _holder_side(game, where) -> str | None:
    """The side holding a card at `where` (a unit's id or `side:NAME`), else None."""
    where = str(where)
    if where.startswith("side:"):
        return where[5:]
    record = game.state["units"].get(where)
    return record["side"] if record else None


# ---- the screen before a prompt ------------------------------------------------------------------

def screen(game, side: str | None, entries: list, numbers: dict | None = None, board: bool = True,
           compact: bool = False, new: set | None = None, width: int | None = None, here: str | None = None) -> Group:
    """The board (or a line saying it is as before), the log lines given, the side's own units and
    cards, then the round, moment, tracks and objectives (when nothing at all happened since the last
    screen, only a line saying so)."""
    return Group(*_screen_parts(game, side, entries, numbers, board, compact, new, width, here=here).values())


def _screen_parts(game, side, entries, numbers=None, board=True, compact=False, new=None, width=None,
                  log_lines: int = LOG_LINES, here: str | None = None) -> dict:
    """screen's parts by name, in the order shown: heading, board, key (its legend and markers), log,
    mine (the side's units and cards), status, goals."""
    heading = f"{_called(game, 'side', side)} to play" if side else "the game is over"
    parts = {"heading": Rule(heading, style="grey50")}
    if not board and not [e for e in entries if e.get("type") != "choice"] and not new:
        parts["board"] = Text("(nothing changed since the last question: m shows the map, c your side, "
                              "o the goals)", style="grey50")
        return parts
    if board:
        drawn, key = board_parts(game, numbers, compact, side, width=width, here=here)
        parts["board"] = Group(*drawn)
        parts["key"] = key[0]
        if len(key) > 1:
            parts["markers"] = key[1]  # (markers_line: what the cards put on the table, worth more than the legend)
    else:
        parts["board"] = Text("(the board is as before: type m to see it)", style="grey50")
    if entries and log_lines:
        parts["log"] = log_view(game, entries, log_lines, viewer=side)
    mine = side_view(game, side, new) if side else None
    if mine:
        parts["mine"] = mine
    parts["status"] = status(game, with_goals=False)
    goals = objectives_view(game)
    if goals:
        parts["goals"] = goals
    return parts


# What a screen too tall for the terminal keeps, most wanted first, once the question (without its rule's
# text) and the status line are in: the board when the question is which space (its numbers are the
# answers), four lines of the log, the markers cards put on the table, the log's latest line (when there
# was no room for two), the board, the rule's text, the side's units and cards, the goals, the legend,
# the heading, more of the log, the list of spaces under such a question. What it leaves out is named,
# with the command that shows it, on a line above the question. On a terminal too small for that, the
# status line takes its place in the list and the note is left out too.
_KEEP = ("numbered board", "status", "log", "markers", "last", "board", "rule", "mine", "goals", "key", "heading",
         "more log", "list")
_SHOWN_BY = {"board": ("m", "board"), "key": ("m", "legend"), "markers": ("m", "markers"), "mine": ("c", "your side"),
             "goals": ("o", "goals")}


def fitted(console, game, side: str, entries: list, ask: dict, numbers: dict | None = None, board: bool = True,
           compact: bool = False, new: set | None = None, here: str | None = None, spaces: bool = True) -> list:
    """The screen and the question (prompt's arguments in `ask`) as renderables that fit the console's
    height with a line left for the answer, the parts kept in _KEEP's order, and a note naming what was
    left out. The question itself is always there, whole, and its options (so a question taller than
    the terminal still scrolls). `spaces`: the `numbers` are those of a choice of spaces (the board may
    stand for their list), not the spaces of a choice of units (listed all the same)."""
    width = console.width
    options = console.options.update_width(width)

    def tall(renderable) -> int:
        return len(console.render_lines(renderable, options, pad=False))

    parts = _screen_parts(game, side, entries, numbers, board, compact, new, width, here=here)
    question = prompt(game, side, width=width, **ask)
    shown = [*parts.values(), question]
    if sum(map(tall, shown)) <= console.height - 1:
        return shown
    plans = []
    for bare in (False, True):  # bare: a terminal too small for the status line and the note as well
        noted = 0 if bare else 1
        for _ in range(3):  # planned with room for a note of `noted` lines; again if the note came out taller
            shown, note, on_board = _fit_plan(game, side, entries, ask, numbers, board, parts, tall, width,
                                              console.height - 1 - noted, bare, spaces)
            if note is None or tall(note) <= noted:
                break
            noted = tall(note)
        fits = sum(map(tall, shown)) <= console.height - 1
        if fits and (on_board or not (numbers and spaces) or bare):  # a choice of spaces: bare, if that shows their board
            return shown
        plans.append((fits, shown))
    return next((shown for fits, shown in plans if fits), plans[0][1])  # (none fits: the question alone
    # is taller than the terminal, and scrolls after the status line and the note)


def _fit_plan(game, side, entries, ask, numbers, board, parts, tall, width, room,
              bare: bool = False, spaces: bool = True) -> tuple[list, Text | None, bool]:
    """fitted's choice of parts within `room` lines (the note of what is left out not counted): the
    renderables to show, the note among them (None when nothing was left out), and whether the board
    (with the numbers of a choice of spaces) is among them. Not `bare`, the status line is always kept,
    and the note; `bare`, the status line comes after the numbered board and there is no note."""
    drawn = board and "key" in parts  # the board itself is drawn (not a line saying it is as before)
    kept = {"status"} if "status" in parts and not bare else set()  # (a screen where nothing changed has none)
    room -= sum(tall(parts[k]) for k in kept)
    # the board drawn with the spaces' numbers on it, when it fits: the options need not be listed then
    # (a choice of units: their numbers on the board when it is shown, the list all the same)
    numbered = bool(numbers) and spaces and drawn and (
        tall(parts["board"]) + tall(prompt(game, side, width=width, brief=True, listed=not spaces, **ask)) <= room)
    listed = not (numbered and spaces)
    variants = {"brief": prompt(game, side, width=width, brief=True, listed=listed, **ask),
                "rule": prompt(game, side, width=width, listed=listed, **ask),
                "list": prompt(game, side, width=width, **ask)}
    ask_with, log_lines, latest = "brief", 0, None
    left = room - tall(variants["brief"])

    def log_within(room: int) -> int:
        """The most log lines that fit in `room` (0 when fewer than two do: one would only say how many
        were left out)."""
        n = max(0, min(LOG_LINES, room))
        while n and tall(log_view(game, entries, n, viewer=side)) > room:
            n -= 1
        return n if n >= 2 else 0

    for want in _KEEP:
        if want in ("rule", "list"):
            grown = tall(variants[want]) - tall(variants[ask_with])
            if grown <= left and (want == "rule" or not listed):
                left, ask_with = left - grown, want
        elif want in ("log", "more log"):
            if "log" in parts:
                before = tall(log_view(game, entries, log_lines, viewer=side)) if log_lines else tall(latest) if latest else 0
                n = log_within(left + before) if want == "more log" else min(4, log_within(left))
                if n > log_lines:
                    left, log_lines, latest = left + before - tall(log_view(game, entries, n, viewer=side)), n, None
        elif want == "last":  # no room for the log: its latest line still (the roll a Move goes by)
            if "log" in parts and not log_lines and left >= 1:
                latest = last_line(game, entries, width, side)
                left -= tall(latest) if latest is not None else 0
        else:
            name = "board" if want == "numbered board" else want
            if (want == "numbered board" and not numbered) or name not in parts or name in kept:
                continue
            if name == "key" and "board" not in kept:  # a legend without its board says nothing
                continue
            if tall(parts[name]) <= left:
                left -= tall(parts[name])
                kept.add(name)
    out = []
    for name, part in parts.items():
        if name == "log":
            if log_lines:
                out.append(log_view(game, entries, log_lines, viewer=side))
            elif latest is not None:
                out.append(latest)
        elif name in kept:
            out.append(part)
    missing: dict[str, list[str]] = {}  # command → what it shows, of what was left out
    for name, (command, what) in _SHOWN_BY.items():
        if name in parts and name not in kept and not (name == "key" and "board" not in kept):
            missing.setdefault(command, []).append(what)
    if "log" in parts and not log_lines:
        missing.setdefault("l", []).append("log")
    note = None
    if missing and not bare:
        note = Text("(left out to fit: " + ", ".join(f"{c} {' and '.join(w)}" for c, w in missing.items()) + ")",
                    style="grey50")
        out.append(note)
    listed = ask_with == "list" or listed
    final = prompt(game, side, width=width, brief=ask_with == "brief", listed=listed,
                   on_board="board" in kept and drawn, **ask)  # (spaces listed: "on the board too" only when shown)
    return [*out, final], note, "board" in kept and drawn


def status(game, with_goals: bool = True) -> Text:
    """Round, moment, the tracks and counters worth showing (a scenario counter no goal names only while
    it is not 0), then (`with_goals`) the objectives with their progress."""
    limit = game.model.scenario.get("props", {}).get("rounds")
    now = game.state.get("round", 0)
    if isinstance(limit, int) and now > limit:  # the game ran past its last round (sundown): said as GAME OVER says it
        out = Text.assemble((f"After round {limit} of {limit}", "bold"), " · the game is over")
    else:
        out = Text.assemble((f"Round {now}" + (f" of {limit}" if isinstance(limit, int) else ""),
                             "bold"), f" · {moment_title(game, game.state.get('at') or [])}")
    goals = _objective_names(game)
    values = [(counter_title(name), v) for name, v in game.state.get("counters", {}).items()
              if name in _shown_values(game) and name not in goals and v]  # (none pending: nothing to say)
    values += [(_title(game.model.tracks.get(name), name), v) for name, v in game.state.get("tracks", {}).items()
               if name in _shown_values(game)]
    values += [(counter_title(name), v) for name, v in _this_moment(game).items()]
    for name, value in values:
        out.append_text(Text.assemble((" │ ", "grey50"), f"{name} ", (str(value), "bold")))  # (80 columns: a
        # play-test's line with the Sun Track, the Move roll and Move spaces ran onto a second)
    said = objectives_view(game) if with_goals else None
    if said:
        out.append("\n").append_text(said)
    return out


def _this_moment(game) -> dict:
    """The system's own counters a rule set in the moment now under way, and still set, that are no
    bookkeeping (`hidden`, pools of dice, the ai's): LNOE's Move roll while the Hero chooses Move or
    Search after rolling first (a play-test could not see the roll: the map had crowded the log out)."""
    at, now = ".".join(game.state.get("at") or []), game.state.get("round")
    counters, scenario = game.state.get("counters", {}), game.model.scenario.get("props", {}).get("counter", [])
    own = {e["key"] for e in scenario} | _objective_names(game)
    last = {}
    for e in reversed(game.entries):  # back to the moment's start, or to the choice of who acts in it
        if e.get("round") != now or not str(at).startswith(str(e.get("at"))) or (
                e.get("type") == "choice" and str(e.get("label", "")).endswith(": who acts")):
            break
        if e.get("type") == "counter":
            last.setdefault(e.get("name"), e.get("value"))
    return {name: value for name, value in last.items()
            if name not in own and not str(name).startswith("ai_") and _shown(game, name)
            and isinstance(value, int) and not isinstance(value, bool) and value and counters.get(name) == value}


def _shown_values(game) -> set[str]:
    """The counters and tracks worth a place on the status line: the tracks a rule has changed this
    game, the counters the objectives name, and the scenario's own counters once a rule has changed
    them (one that never changes is a setting, such as advanced_rules), except pools of dice
    (bookkeeping of a fight), the content's `hidden` bookkeeping and the ai policy's (`ai_…`)."""
    changed = {e.get("name") for e in game.entries if e.get("type") == "counter"}
    scenario = {e["key"] for e in game.model.scenario.get("props", {}).get("counter", [])} & changed
    tracks = {e.get("track") or e.get("name") for e in game.entries if e.get("type") == "track"}
    pools = {name for name, v in game.state.get("counters", {}).items() if isinstance(v, list)}
    shown = (scenario | _objective_names(game) | (tracks & set(game.state.get("tracks", {}))))
    return {n for n in shown - pools - _pool_names(game) if n and _shown(game, n) and not _flag(game, n)}


def _objective_names(game) -> set[str]:
    names = set()
    for objective in getattr(game, "objectives", []) or []:
        stack = [objective.get("when")]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                if isinstance(node.get("name"), str) and len(node) == 1:
                    names.add(node["name"])
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    return names


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


def _goal(game, objective: dict) -> str:
    """One objective in words with its progress ("zombies killed ≥ 15 (now 3)")."""
    if objective.get("at"):  # an event, as the scenario sheet says it ("at the end of the Sun Track")
        from spawnpit.generators.views import at_event

        return at_event(game.model.system, str(objective["at"]), {})
    return f"when {_condition(game, objective.get('when'))}"


def _condition(game, when) -> str:
    """A goal's test in words (as the scenario sheets print it, generators.text), each comparison of
    something with a number followed by how far it is ("zombies killed ≥ 15 (now 3)"), through `or`
    and `and`."""
    from spawnpit.generators import text as words  # (the printed aids' wording: the same on screen)

    titles = {b["id"]: _title(b, b["id"]) for b in game.model.system.get("blocks", []) if b["kind"] == "side"}
    if isinstance(when, dict) and when.get("op") in ("or", "and") and when.get("args"):
        return f" {when['op']} ".join(f"({said})" if words.bracketed(arg, when["op"]) else said
                                      for arg in when["args"] for said in [_condition(game, arg)])
    chain = when.get("chain") if isinstance(when, dict) else None
    if isinstance(chain, list) and len(chain) == 3 and isinstance(chain[2], dict) and "lit" in chain[2]:
        left = chain[0]
        if isinstance(left, dict) and set(left) == {"name"}:
            now = game.state["counters"].get(left["name"], game.state["tracks"].get(left["name"], "?"))
        else:
            now = _worked_out(game, left)  # `count(…) >= 9`
        said = words.expr(when, titles)
        return f"{said} (now {now})" if isinstance(now, (int, float)) and not isinstance(now, bool) else said
    return words.expr(when, titles) if isinstance(when, dict) else "?"


def _worked_out(game, ir):
    """The value of an expression of the rules now, or None when it cannot be worked out outside a hook
    (compiled once a game: the goals are shown at every question)."""
    from spawnpit.engine import interp

    compiled = game.scratch.setdefault("human_exprs", {})
    try:
        if id(ir) not in compiled:
            compiled[id(ir)] = (ir, interp.expr(ir))  # (the IR kept: its id stays its own)
        return compiled[id(ir)][1](game._plain_ctx())
    except Exception:  # noqa: BLE001 - only the progress shown beside a goal: never an error on screen
        return None


def objectives_view(game) -> Text | None:
    """Each side's goals, those it wins by and those it loses by apart ("Players win at … · Players lose
    when …"), each with its progress."""
    per_side: dict[tuple, list[str]] = {}
    for objective in getattr(game, "objectives", []) or []:
        key = (objective.get("side") or "?", _result_word(objective))
        per_side.setdefault(key, []).append(_goal(game, objective))
    if not per_side:
        return None
    out = Text("Goals: ", style="bold")
    for i, ((side, word), goals) in enumerate(per_side.items()):
        out.append("  ·  " if i else "", style="grey50")
        out.append(f"{_called(game, 'side', side)} {word} ", style="bold").append(" or ".join(goals))
    return out


def goals_view(game, line: int | None = None) -> Group:
    """`o`: the scenario's title and what it is about, each side's goals with their progress, then the
    scenario's own rules (how a goal is reached: filling the Truck); with `line` (a width), each rule on
    one line of that width, its text cut short. The play-test read only "Heroes win when escaped ≥ 1"."""
    scenario = game.model.scenario or {}
    about = Text(str(scenario.get("title") or scenario.get("id") or "the scenario"), style="bold")
    if scenario.get("props", {}).get("text"):
        about.append(": " + str(scenario["props"]["text"]))
    parts = [about, objectives_view(game) or Text("this scenario states no objectives")]
    rules = [b for b in scenario.get("blocks", []) if b.get("kind") == "rule" and b.get("props", {}).get("text")]
    # then the special rules it puts in effect (a play-test could not tell why new Zombies came every turn:
    # Zombies Auto Spawn was named nowhere on the screen)
    in_effect = [r.get("rule") for r in scenario.get("rules") or () if isinstance(r, dict)]
    rules += [o for rid in in_effect for o in [game.model.objects.get(("special_rule", rid))]
              if o and o.get("props", {}).get("text")]
    for rule in rules:
        title = str(rule.get("title") or rule["id"])
        text = str(rule["props"]["text"])
        said = Text(title + ": ", style="bold")
        said.append(_clip(text, max(8, line - len(title) - 2)) if line else text)
        parts.append(said)
    return Group(*parts)


def _result_word(objective: dict) -> str:
    return "lose" if objective.get("result") == "lose" else "win"


def when_over(game, result: dict) -> str:
    """When a game ended, in words: "in round 7", or "after round 15" for a game decided at sundown (the
    round after the last opens only to end the game)."""
    played, limit = result.get("round", game.state.get("round")), game.model.scenario.get("props", {}).get("rounds")
    if isinstance(limit, int) and isinstance(played, int) and played > limit:
        return f"after round {limit}"
    return f"in round {played}"


def ending(game) -> Text:
    """Who won and why, in words, after the last screen."""
    result = game.state.get("result") or {}
    winner = _called(game, "side", result["winner"]) if result.get("winner") else "nobody"
    out = Text(f"GAME OVER {when_over(game, result)}: ", style="bold")
    out.append(f"{winner} won" if result.get("winner") else "nobody won", style="bold green")
    why = cause_text(game, result)
    return out.append(f" — {why}" if why else "")


def cause_text(game, result: dict) -> str:
    """Why a game ended, in words: the objective that decided it as the goals line reads it ("Zombies
    win when heroes killed ≥ 2 (now 2)"), else the cause as logged ("round limit reached")."""
    cause = result.get("cause")
    met = next((o for o in getattr(game, "objectives", []) or []
                if o.get("text") == cause and (result.get("side") is None or o.get("side") == result.get("side"))), None)
    return f"{_called(game, 'side', met['side'])} {_result_word(met)} {_goal(game, met)}" if met else str(cause or "")


def side_view(game, side: str | None, new: set | None = None, crowds: bool = False):
    """The units that are one of a kind, and those of a side's rarer kind on the board (space, wounds,
    markers, items carried), the side's own first,
    then the other sides' (what a unit carries lies face up on the table: LNOE's Items are public), the
    side's hand, the cards in play and how many cards the other sides hold (not which); with `crowds`
    (the `c` command), where the units too many to list one by one stand ("Zombie ×11: …")."""
    if side is None:
        return None
    new = new or set()
    cards = game.state["cards"]
    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    order = {s: i for i, s in enumerate(game.model.sides)}  # own first, then each other side's in turn
    units = sorted(game.state["units"].items(), key=lambda item: (item[1]["side"] != side, order.get(item[1]["side"], len(order))))
    headed = None
    for uid, record in units:
        if _many(game, record["proto"]) and (unit_label(game, uid) is None or record["space"] is None):
            continue  # the commonest units of a side are too many to list; a lesser kind's only while on the board
        if record["space"] is None and not record.get("last_space"):
            continue
        style = side_symbols(game).get(record["side"], ("", "bold"))[1]
        if record["side"] != side and headed != record["side"]:  # another side's units under its name: a
            headed = record["side"]  # play-test took the Zombie Hero its Sheriff became for one of its Heroes
            table.add_row(Text(""), Text(f"{_called(game, 'side', headed)}:", style=style), Text(""), Text(""), Text(""))
        label = Text(unit_label(game, uid) or "", style=style)
        name = Text(_unit(game, uid), style=style)
        if record["space"] is None:
            fate = f"killed{' (' + str(record['mode']) + ')' if record.get('mode') else ''}"
            table.add_row(label, name, Text(fate, style="red"), Text(""), Text(""))
            continue
        health = record["stats"].get("health")
        wounds = Text(f"wounds {record.get('wounds', 0)}/{health if health is not None else '?'}",
                      style="yellow" if record.get("wounds") else "")
        extra = unit_markers(game, record)
        mine = [c for c, r in cards.items() if r["where"] == uid]
        held = [_card_text(game, c, c in new) for c in mine]
        # an Event on a Hero (a card drawn, not yet sorted into the hand) is held, not carried
        items = all(carried(game, c) for c in mine)
        cell = Text("carries " if items else "holds ") if held else Text("carries nothing", style="grey50")
        for i, item in enumerate(held):
            cell.append(", " if i else "").append_text(item)
        if extra:
            cell.append(f"  [{', '.join(extra)}]", style="magenta")
        table.add_row(label, name, Text(space_name(game, record["space"])), wounds, cell)
    lines = [table] if table.row_count else []
    where = _crowds(game, side) if crowds else None  # (`c` only: the map shows them at every question)
    if where:
        lines.append(where)
    hand = [_card_text(game, c, c in new) for c, r in cards.items() if r["where"] == f"side:{side}"]
    foot = Text()
    if hand:
        foot.append("Hand: ", style="bold")
        for i, item in enumerate(hand):
            foot.append(", " if i else "").append_text(item)
    for heading, playing in (("Being played: ", True), ("In play: ", False)):  # (a card discarded once it has
        # acted is only being played: the play-test read "In play: I Don't Trust 'em", whose text says discarded)
        in_play = [_called(game, "card", r["proto"]) + (f" (on {_name(game, 'what', r['target'][1])})" if r.get("target") else "")
                   for r in cards.values() if r["where"] == "play" and (r.get("status") == "playing") == playing]
        if in_play:  # "Faith (on Sally)": the play-test could not tell whom a card was on
            foot.append("  ·  " if foot else "").append(heading, style="bold").append(", ".join(in_play))
    for other in game.model.sides:
        held = [c for c, r in cards.items() if r["where"] == f"side:{other}"]
        if other != side and held:  # how many, and those face up on the table by name (Townsfolk found)
            shown = [_called(game, "card", cards[c]["proto"]) for c in held if face_up(game, c)]
            foot.append("  ·  " if foot else "").append(
                f"{_called(game, 'side', other)} hold {len(held)} card{'s' if len(held) != 1 else ''}"
                + (f", face up: {', '.join(shown)}" if shown else ""))
    if foot:
        lines.append(foot)
    return Group(*lines) if lines else None


def _crowds(game, side: str) -> Text | None:
    """The units that come many alike (Zombies), too many to list one by one: for each side (the side's
    own first) and kind, how many are on the board and where, "Zombie ×11: Town Center a3 (2), …"."""
    where: dict[tuple, Counter] = {}
    for uid, record in game.state["units"].items():
        if record["space"] is not None and _many(game, record["proto"]) and unit_label(game, uid) is None:
            where.setdefault((record["side"] != side, record["side"], record["proto"]), Counter())[record["space"]] += 1
    if not where:
        return None
    out = Text()
    for key in sorted(where, key=lambda k: (k[0], k[1], _unit_name(game, k[2]))):
        spaces = where[key]
        style = side_symbols(game).get(key[1], ("", "bold"))[1]
        listed = ", ".join(space_name(game, sid) + (f" ({n})" if n > 1 else "") for sid, n in
                           sorted(spaces.items(), key=lambda item: space_name(game, item[0])))
        out.append("\n" if out else "").append(f"{_unit_name(game, key[2])} ×{sum(spaces.values())}", style=style)
        out.append(f": {listed}")
    return out


def cards_view(game, side: str, line: int | None = None) -> Text:
    """What each card the side holds (carried or in hand) and each card in play says, then the abilities of
    the side's units on the board; with `line` (a width), each on one line of that width, its text cut short."""
    out = Text()

    def row(name: str, place: str, said: str) -> None:
        out.append(name, style="bold").append(place, style="grey50")
        out.append((_clip(said, max(8, line - len(name) - len(place))) if line else said) + "\n")

    for cid, record in game.state["cards"].items():
        if _holder_side(game, record["where"]) != side and record["where"] != "play":
            continue
        props = _card_props(game, cid)
        numbers = card_stats(game, props)
        row(_called(game, "card", record["proto"]), f" ({card_place(game, record['where'], cid)}): ",
            (f"[{numbers}] " if numbers else "") + timed_text(props))
    seen = set()  # the abilities of the side's units on the board, once a kind (a play-test found them in ?N only)
    for record in game.state["units"].values():
        if record["side"] != side or record["space"] is None or record["proto"] in seen:
            continue
        seen.add(record["proto"])
        obj = game.model.objects.get(("unit", record["proto"])) or {}
        for block in obj.get("blocks", []):
            if block.get("kind") == "ability" and block.get("props", {}).get("text"):
                row(block.get("title") or block["id"], f" ({_unit_name(game, record['proto'])}): ", block["props"]["text"])
    out.rstrip()
    return out


def card_stats(game, props: dict) -> str:
    """A card's stats as its printed card sheet gives them (the system's titles, in its order): "Range 0–3 ·
    To Hit 4+ · Out of Ammo 1" (the play-test found no range in a gun's text); "" for a card with none."""
    from spawnpit.generators.cards import stats  # (the card sheets' own reading; loaded when first asked)

    return " · ".join(f"{title} {value}" for title, value in stats(game.model.system, props))


def _card_text(game, cid: str, new: bool) -> Text:
    text = Text(_called(game, "card", game.state["cards"][cid]["proto"]))
    return text.append(" (new)", style="bold green") if new else text


def log_view(game, entries: list, lines: int = LOG_LINES, moves: int = MOVES_SHOWN, viewer: str | None = None) -> Text:
    """The entries as sentences under a heading per moment, at most `lines` of them; choices,
    bookkeeping counters and long runs of one side's moves left out or summed up (a run's moves listed
    up to `moves` characters, 0 for all). Where there are more lines, the oldest of bookkeeping
    (BOOKKEEPING: cards discarded, markers) go first, then the oldest of the rest, so a
    shot's roll or a kill is not pushed out by the discards that followed it; a run of moves summed up
    in a line (how the Zombies came) is kept like a roll."""
    kept, left_out = _fold(_log_rows(game, entries, moves, viewer), lines)
    out = Text()
    if left_out:
        out.append(f"… {left_out} log line{'s' if left_out != 1 else ''} left out (l shows more)\n", style="grey50")
    for text, style, _ in kept:
        out.append(text + "\n", style=style)
    out.rstrip()
    return out


def log_page(game, entries: list, page: int, lines: int, width: int, viewer: str | None = None) -> Text:
    """`l`, `l N`: the log's Nth page of at most `lines` lines counted back from the latest (page 1 the
    latest), nothing left out and every move listed, long lines wrapped, a page starting under the
    heading of the moment it is in; the last page when N is past it."""
    size = max(2, lines - 2)  # (a line for the heading carried over, one for the page's own line)
    rows = [(_wrapped(text, width - 1), style, keep) for text, style, keep in _log_rows(game, entries, 0, viewer)]
    bounds, end = [], len(rows)  # (start, end) of each page, the latest first
    while end > 0:
        start, used = end, 0
        while start > 0 and used + len(rows[start - 1][0]) <= size:
            start -= 1
            used += len(rows[start][0])
        start = min(start, end - 1)  # (a row taller than a page goes alone)
        bounds.append((start, end))
        end = start
    pages = max(1, len(bounds))
    page = min(max(1, page), pages)
    start, end = bounds[page - 1] if bounds else (0, 0)
    chunk = rows[start:end]
    if chunk and chunk[0][2] is not None:  # starts under a heading an earlier page shows: repeat it
        heading = next((row for row in reversed(rows[:start]) if row[2] is None), None)
        if heading is not None:
            chunk = [([heading[0][0] + " (cont.)"], heading[1], None), *chunk]
    out = Text()
    for said, style, _ in chunk:
        out.append("\n".join(said), style=style).append("\n")
    moves = ([f"{'l' if page == 2 else f'l {page - 1}'}: later"] if page > 1 else []) + \
        ([f"l {page + 1}: earlier"] if page < pages else [])
    out.append(f"(log page {page} of {pages} back from the latest" + (f"; {', '.join(moves)})" if moves else ")"),
               style="grey50")
    return out


EVERYONE = "*"  # a log's viewer who sees every side's cards: the story of a game told once it is over


def story(game, entries: list, width: int | None = None) -> list[str]:
    """`play --story`, `replay --story`: the whole game as the log reads on screen, every line and every
    move, each moment under its heading, nothing hidden (the game is over); long lines wrapped at
    `width` (None: one line each)."""
    out = []
    # (told: the cards whose text the story has told; their next plays name them only)
    for text, _, keep in _log_rows(game, entries, 0, EVERYONE, told=set()):
        if keep is None and out:  # a blank line before each moment's heading
            out.append("")
        out += _wrapped(text, width) if width else [text]
    return out


def _wrapped(text: str, width: int) -> list[str]:
    """A log line as the lines it takes at `width`, its indent kept and its continuation indented more."""
    indent = len(text) - len(text.lstrip())
    return textwrap.wrap(text.strip(), max(10, width), initial_indent=" " * indent,
                         subsequent_indent=" " * (indent + 2)) or [text]


def last_line(game, entries: list, width: int, viewer: str | None = None) -> Text | None:
    """The latest line of the log worth keeping (a roll, a move, a kill; not a discard), on one line of
    `width`: what a screen with no room for the log still shows (the roll a Move goes by)."""
    rows = [row for row in _log_rows(game, entries, MOVES_SHOWN, viewer) if row[2] is True or row[2] == VITAL]
    if not rows:
        return None
    # a Hero killed since the last question comes before the latest roll (a play-test never saw two Heroes
    # die in the Zombie Turn: the next screen had room for one line, and it was another)
    vital = [row for row in rows if row[2] == VITAL]
    text, style, _ = (vital or rows)[-1]
    return Text(_clip(("" if vital else "last: ") + text.strip(), width), style=style)


def _log_rows(game, entries: list, moves: int, viewer: str | None = None, told: set | None = None) -> list:
    """log_view's rows: (text, style, worth keeping: True, False, or None for a heading). `told` (the
    story): the cards whose text has been told, a card's text told only the first time it is played."""
    shown, cards, hidden, pools = _shown_values(game), _card_titles(game), _hidden(game), _pool_names(game)
    # (the ai policy's own markers and the content's `hidden` bookkeeping are logged, never shown)
    passing = _passing_marks(game, entries)
    entries = [e for e in entries if e.get("type") != "choice"  # what was chosen shows in what it did
               and not (e.get("type") == "counter" and e.get("name") not in shown and not _pool_entry(e)
                        and (e.get("rule") not in cards  # (a card changing a count: "Move roll: 2", its effect)
                             or e.get("name") in hidden or e.get("name") in pools))  # (but not its bookkeeping)
               and not (e.get("type") in ("mark", "unmark") and not _shown(game, e.get("marker")))
               and not (passing and e.get("type") in ("mark", "unmark") and _mark_key(e) in passing)]
    rows, moment, i = [], None, 0
    placed = {(e.get("unit"), (e.get("round"), e.get("at"))) for e in entries if e.get("type") == "move" and e.get("placed")}
    while i < len(entries):
        entry = entries[i]
        if (entry.get("round"), entry.get("at")) != moment:
            moment = (entry.get("round"), entry.get("at"))
            rows.append((f"round {moment[0]} · {moment_title(game, str(moment[1] or '').split('.'))}", "grey50", None))
        run = _run(entries, i, "remove", "card")
        if run > 3:
            names = [_name(game, "card", e["card"]) for e in entries[i:i + run]]
            listed = _clip(", ".join(names), 150) if moves else ", ".join(names)  # (`l`: every name)
            rows.append((f"  {run} cards set aside ({entry.get('rule') or 'setup'}): {listed}", "", False))
            i += run
            continue
        run = _walk_run(entries, i)
        if run > 1:  # one unit's walk: its way in one line, kept like a roll (how a Hero came, where a Zombie went)
            rows.append((f"  {_unit(game, entry['unit'])} moves {_way(game, entries[i:i + run])}"
                         + (f" ({entry['rule']})" if entry.get("rule") else ""), "", True))
            i += run
            continue
        run = _move_run(game, entries, i)
        if run > 3:
            side = game.state["units"][str(entry["unit"])]["side"]
            steps = "; ".join(f"{step} ×{n}" if n > 1 else step for step, n
                              in Counter(_step(game, e) for e in entries[i:i + run]).items())
            rows.append((f"  {run} moves by {_called(game, 'side', side)} ({entry.get('rule') or 'moving'}): "
                         + (_clip(steps, moves) if moves else steps), "", True))  # how they came: kept
            i += run
            continue
        if _into_pool(entry, entries[i + 1] if i + 1 < len(entries) else None):
            # whose dice: the unit the roll is for (a Zombie's Fight Dice), else the one whose doings it is in
            whose = entry.get("for") if entry.get("for") in game.state["units"] else entry.get("unit")
            who = _unit(game, whose) if whose in game.state["units"] else ""
            rows.append((f"  {_pool_roll(entry, entries[i + 1], who)}", LOG_STYLES["roll"], True))
            i += 2
            continue
        said = describe_entry(game, entry, viewer, told)
        if entry.get("type") == "enter" and (entry.get("unit"), moment) in placed:
            # placed in a space of their building later in the same moment: the building here, the space
            # there (the story read "Becky enters at Hospital f1", then "Becky is placed in Hospital h2")
            # (or, placed elsewhere, a Random Building: Complete Rulebook §5.6.6.I, no place at all here)
            building = game.building_of(entry.get("space")) if entry.get("space") else None
            within = f" in {building_name(game, building)}" if building is not None and game.board is not None else ""
            said = f"{_name(game, 'proto', entry.get('proto'))} enters play{within}"
        rows.append((f"  {said}", LOG_STYLES.get(entry.get("type"), ""),
                     VITAL if _vital(game, entry) else not _bookkeeping(entry, cards)))
        i += 1
    return rows


VITAL = 2  # a log row left out last of all (a Hero killed, the result)


def _vital(game, entry: dict) -> bool:
    """A line worth more than any other when the log is too long for the screen: a one-of-a-kind unit
    killed (a Hero), the game's result. A play-test's Zombie player never saw Father Joseph die: the
    Hero Turn's other lines pushed it out, and only the goals line changed."""
    kind = entry.get("type")
    if kind == "result":
        return True
    if kind == "kill":
        record = game.state["units"].get(str(entry.get("unit")))
        return record is not None and not _many(game, record["proto"])
    return False


def _card_titles(game) -> frozenset:
    """The titles of the pack's cards: a counter a card's hook changes is that card's effect, shown."""
    titles = game.scratch.get("human_card_titles")
    if titles is None:
        titles = game.scratch["human_card_titles"] = frozenset(
            o.get("title") for o in game.model.objects.values() if o.get("kind") == "card")
    return titles


# log lines of bookkeeping, the first left out of a log too long for the screen: cards discarded, given,
# set aside, shuffled, staying in play; markers (moves are kept: a one-space move is where a Hero went)
BOOKKEEPING = frozenset({"discard", "give", "in_play", "shuffle", "reshuffle", "shuffle_in", "mark", "unmark"})


def _bookkeeping(entry: dict, cards: frozenset) -> bool:
    """A log line the screen may leave out first: BOOKKEEPING, or a card set aside; but a card's own
    mark is its effect (Haunted By the Past's Hindered), kept like a roll."""
    kind = entry.get("type")
    if kind in ("mark", "unmark") and entry.get("rule") in cards:
        return False
    return kind in BOOKKEEPING or (kind == "remove" and "card" in entry)


def _fold(rows: list, lines: int) -> tuple[list, int]:
    """At most `lines` of the rows (text, style, worth keeping: True, False, VITAL, or None for a heading),
    the oldest bookkeeping first left out, then the oldest of the rest, then the oldest VITAL; a heading goes with the last
    line under it. Returns the rows kept and how many lines were left out."""
    if len(rows) <= lines:
        return rows, 0
    order = ([k for k, row in enumerate(rows) if row[2] is False] + [k for k, row in enumerate(rows) if row[2] is True]
             + [k for k, row in enumerate(rows) if row[2] == VITAL])
    drop: set = set()

    def kept() -> list:
        out = []
        for k, row in enumerate(rows):
            if k in drop:
                continue
            if row[2] is None and out and out[-1][2] is None:
                out.pop()  # the heading before had nothing left under it
            out.append(row)
        return out[:-1] if out and out[-1][2] is None else out

    for k in order:
        if len(kept()) <= lines:
            break
        drop.add(k)
    return kept(), len(drop)


def _step(game, e: dict) -> str:
    """One move of a run as "Gym f4 → f3": the building or board part said once when both ends share it."""
    start, end = space_name(game, e.get("from")), space_name(game, e.get("to"))
    head, _, cell = end.rpartition(" ")
    short = cell if head and start.rpartition(" ")[0] == head else end
    return f"{start} turned back to {short}" if e.get("back") else f"{start} → {short}"  # (back: a step refused)


def _mark_key(e: dict) -> tuple:
    return e.get("round"), e.get("at"), e.get("rule"), e.get("what"), e.get("marker")


def _passing_marks(game, entries: list) -> set:
    """Markers a rule put on and took off again at one moment (the pits already given an odd Zombie, a
    weapon used in this fight): its own bookkeeping, left out of the log once both are in the game's log
    (the screen's lines may hold only one of them). While the rule is still running, the mark is shown
    (and the markers line has it)."""
    logged = getattr(game, "entries", [])
    seen, last, marked, unmarked = game.scratch.get("human_marks") or (0, None, set(), set())
    if seen > len(logged) or (seen and logged[seen - 1] is not last):  # (a log rewritten: read again)
        seen, marked, unmarked = 0, set(), set()
    for source, extra in ((logged[seen:], False), (entries, True)):  # the game's log read once, as it grows
        if extra:
            marked, unmarked = set(marked), set(unmarked)  # (the lines shown may not be in the game's log)
        for e in source:
            kind = e.get("type")
            if kind == "mark":
                marked.add(_mark_key(e))
            elif kind == "unmark":
                unmarked.add(_mark_key(e))
        if not extra:
            game.scratch["human_marks"] = (len(logged), logged[-1] if logged else None, marked, unmarked)
    return marked & unmarked


def _into_pool(roll: dict, after: dict | None) -> bool:
    """A roll the next entry shows added to a pool of dice by the same rule (`roll 2D6 into hero_dice`)."""
    if roll.get("type") != "roll" or after is None or after.get("type") != "counter" or not _pool_entry(after):
        return False
    values = roll.get("values") or []
    return bool(values) and after.get("rule") == roll.get("rule") and after["value"][-len(values):] == values


def _pool_roll(roll: dict, pool: dict, who: str = "") -> str:
    """The roll and the pool it went into as one line: "hero dice: 2, 6 (2D6 for Fight, Jenny)" (`who`: in
    whose doings); a pool that had dice before (a re-roll adds to it) also says which were rolled now. Its
    total means nothing."""
    values = ", ".join(map(str, roll["values"]))
    rolled = roll["dice"] if len(pool["value"]) == len(roll["values"]) else f"{roll['dice']}: {values}"
    why = (f" for {roll['rule']}" if roll.get("rule") else "") + (f", {who}" if who else "")
    return f"{str(pool['name']).replace('_', ' ')}: {', '.join(map(str, pool['value']))} ({rolled}{why})"


def _pool_entry(entry: dict) -> bool:
    """A pool of dice being filled (`hero_dice is 3, 5`): worth a line, it says whose dice a roll was."""
    return isinstance(entry.get("value"), list) and bool(entry["value"])


def _run(entries: list, i: int, kind: str, key: str) -> int:
    """How many entries in a row, from entry i, are of this type, with this key, by one rule."""
    n = i
    while (n < len(entries) and entries[n].get("type") == kind and key in entries[n]
           and entries[n].get("rule") == entries[i].get("rule")):
        n += 1
    return n - i


def _walk_run(entries: list, i: int) -> int:
    """How many moves in a row, from entry i, of one unit by one rule at one moment, each from where the
    last ended: a walk."""
    first = entries[i]
    if first.get("type") != "move" or first.get("from") is None or first.get("placed"):
        return 0
    n = i + 1
    while (n < len(entries) and entries[n].get("type") == "move" and not entries[n].get("placed")
           and entries[n].get("unit") == first.get("unit")
           and entries[n].get("rule") == first.get("rule") and entries[n].get("at") == first.get("at")
           and entries[n].get("from") == entries[n - 1].get("to")):
        n += 1
    return n - i


def _way(game, moves: list) -> str:
    """A walk's spaces in order, "Town Center b2 → a2 → Gun Shop f2": a space's building or board part said
    only where it changes."""
    names = [space_name(game, moves[0].get("from"))] + [space_name(game, m.get("to")) for m in moves]
    out, last = [names[0]], names[0].rpartition(" ")[0]
    for name, move in zip(names[1:], moves):
        if move.get("back"):  # a step refused: it goes back where it came from, and says so
            head, _, cell = name.rpartition(" ")
            out[-1] += f" (turned back to {cell if head and head == last else name})"
            last = head
            continue
        head, _, cell = name.rpartition(" ")
        out.append(cell if head and head == last else name)
        last = head
    return " → ".join(out)


def _move_run(game, entries: list, i: int) -> int:
    """How many moves in a row, from entry i, of units of one side by one rule at one moment."""
    first = entries[i]
    record = game.state["units"].get(str(first.get("unit")))
    if first.get("type") != "move" or record is None or first.get("placed"):
        return 0
    n = i
    while (n < len(entries) and entries[n].get("type") == "move" and not entries[n].get("placed")
           and entries[n].get("rule") == first.get("rule")
           and entries[n].get("at") == first.get("at")
           and game.state["units"].get(str(entries[n].get("unit")), {}).get("side") == record["side"]):
        n += 1
    return n - i


def moment_title(game, path: list[str]) -> str:
    """A moment of the turn by its titles ("Hero Turn › Move Action › Move")."""
    titles = game.scratch.get("human_titles")
    if titles is None:
        titles, stack = {}, [((), b) for b in game.model.system.get("blocks", [])]
        while stack:
            above, block = stack.pop()
            if block.get("kind") in ("phase", "step", "action"):
                path_of = above + (block["id"],)
                titles[".".join(path_of)] = block.get("title") or block["id"]
                stack.extend((path_of, b) for b in block.get("blocks", []))
        game.scratch["human_titles"] = titles
    path = [p for p in path if p]
    if not path:
        return "-"
    words, known = [], True
    for n in range(1, len(path) + 1):
        key = ".".join(path[:n])
        if key in titles and known:
            words.append(titles[key])
        else:
            known = False
            words.append(path[n - 1].replace("_", " "))
    return " › ".join(words)


# ---- log entries, readable ----------------------------------------------------------------------

TEMPLATES = {  # log entry type → how it reads; fields are named by _name
    "roll": "rolled {dice}: {values} (total {total}){why}", "move": "{unit} moves {step}",
    "enter": "{proto} enters at {space}", "spawn": "{count} × {kind} spawn at {space}", "note": "{text}",
    "wound": "{unit} takes {amount} wound ({wounds} of {health})", "heal": "{unit} healed by {amount} ({wounds}/{health} wounds)",
    "remove": "{unit} taken off the board", "counter": "{name} is {value}", "action": "{unit}: {action}",
    "draw": "{count} drawn from {deck} to {to}", "pool_empty": "no {kind} left to place", "reveal": "revealed {what}",
    "mark": "{what} marked {marker}", "unmark": "{what} no longer {marker}", "flip": "{what} is now {mode}",
    "discard": "{card} discarded", "give": "{card} given to {to}", "lookup": "{table}: {roll} in {column} → {result}",
    "shuffle": "{deck} shuffled", "reshuffle": "{deck} reshuffled", "shuffle_in": "{card} shuffled into {deck}",
    "search": "{to} searched the {deck} for {found}", "cancel": "{card} cancelled",
    "in_play": "{card} stays in play"}


def describe_entry(game, e: dict, viewer: str | None = None, told: set | None = None) -> str:
    """One log entry as a sentence; an unknown or odd entry as its fields, never an error. `viewer`: the
    side whose screen it is on (the cards its side drew are named). `told` (the story): the cards whose
    text has been told (_play)."""
    try:
        if told is not None and e.get("type") == "play":
            return _play(game, e, told)
        special = _SPECIAL.get(e.get("type"))
        if special is not None:
            return special(game, e)
        fields = {k: _name(game, k, v) for k, v in e.items()}
        if e.get("type") == "roll":
            fields["why"] = f" for {e['rule']}" if e.get("rule") else ""
            if e.get("for") in game.state["units"]:  # a unit's own dice (a Zombie's Fight Dice): "for Fight, Zombie 3"
                fields["why"] += f", {_unit(game, e['for'])}"
            else:
                if e.get("for") in game.state["cards"]:  # `roll … for w`: "for the Revolver", not for the rule
                    fields["why"] = f" for the {_name(game, 'card', e['for'])}"
                if e.get("unit") in game.state["units"]:  # whose roll
                    fields["why"] += f" ({_unit(game, e['unit'])})"
            if len(e.get("values") or ()) == 1:  # one die: its total says nothing more
                return "rolled {dice}: {values}{why}".format_map(fields)
        if e.get("type") == "move":
            if e.get("placed"):  # put there, not moved (a Hero set up in their building "moved" there)
                return f"{fields['unit']} is placed in {space_name(game, e.get('to'))}"
            if e.get("from") == e.get("to"):  # put where it stood (a Hero placed in the Start: space it was given)
                return f"{fields['unit']} stays in {space_name(game, e.get('to'))}"
            if e.get("back"):
                return f"{fields['unit']} is turned back from {space_name(game, e.get('from'))}"
            fields["step"] = _step(game, e)
        if e.get("type") == "wound":
            wounds, health = e.get("wounds"), e.get("health")
            if isinstance(wounds, int) and isinstance(health, int) and wounds >= health:  # "(3 of 2)" read oddly
                plural = "s" if e.get("amount") != 1 else ""
                return f"{{unit}} takes {{amount}} wound{plural} (no Health left)".format_map(fields)
            if e.get("amount") != 1:
                return "{unit} takes {amount} wounds ({wounds} of {health})".format_map(fields)
        if e.get("type") == "heal" and e.get("amount") == 0:
            return "{unit} has no wound to heal".format_map(fields)
        if e.get("type") == "spawn" and e.get("from") in game.state["units"] and e.get("count") == 1:
            risen = next((u for u, r in game.state["units"].items() if r.get("from") == e["from"]), None)
            return f"{_unit(game, risen) if risen else fields['kind']} comes into play at {fields['space']}"
        if e.get("type") == "search":
            fields["found"] = _name(game, "card", e.get("found"))
        if (e.get("type") == "give" and viewer not in (None, EVERYONE) and str(e.get("to", "")).startswith("side:")
                and _holder_side(game, e["to"]) != viewer and e.get("from") != "discard" and not face_up(game, e.get("copy"))):
            whose = fields["to"] + ("'" if fields["to"].endswith("s") else "'s")  # (another side's hand is secret:
            return f"a card goes into the {whose} hand"  # a play-test read every Event the Heroes drew)
        if e.get("type") == "give" and str(e.get("to", "")).startswith("side:") and face_up(game, e.get("copy")):
            return f"{fields['card']} goes face up in front of the {fields['to']}"  # (a Townsfolk found)
        if e.get("type") == "draw" and e.get("cards") and viewer is not None and (
                viewer == EVERYONE or _holder_side(game, e.get("to")) == viewer):
            # (the drawing side's own screen, or the story of the game told after it: every card named)
            return TEMPLATES["draw"].format_map(fields) + ": " + ", ".join(_name(game, "card", c) for c in e["cards"])
        if e.get("type") == "draw" and e.get("cards") and viewer is not None and str(e.get("to")) in game.state["units"]:
            # another side's unit drawing: what it carries is public (face up by it, or thrown away face up),
            # what goes to its side's hand secret (a play-test read "2 drawn from Hero Deck to Jake", then "Jake carries 3
            # Weapons", and could not tell what he had found)
            items = [_name(game, "card", c) for c in e["cards"] if carried(game, c)]
            if items:
                others = len(e["cards"]) - len(items)
                return (TEMPLATES["draw"].format_map(fields) + ": " + ", ".join(items)
                        + (f" and {others} other card{'s' if others > 1 else ''}" if others else ""))
        if e.get("type") == "mark" and str(e.get("what")) in game.state["units"]:
            meaning = _marker_text(game, e.get("marker"))  # what a mark on a unit does ("Hindered" said nothing)
            if meaning:
                return TEMPLATES["mark"].format_map(fields) + f" ({_clip(meaning, 80)})"
        return TEMPLATES[e.get("type")].format_map(fields)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        fields = ", ".join(f"{k}={v}" for k, v in e.items() if k not in QUIET_KEYS)
        return f"{e.get('type', '?')}: {fields}" if fields else str(e.get("type", "?"))


def _name(game, key: str, value) -> str:
    """A logged value as a player reads it: units, protos and kinds by name, lists joined."""
    if key in ("unit", "what", "to", "by") and str(value) in game.state["units"]:
        return _unit(game, value)
    if key == "what" and str(value) in game.state["cards"]:
        return _called(game, "card", game.state["cards"][str(value)]["proto"])
    if key == "action" and isinstance(value, str):
        return _action_titles(game).get(value, value)
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
    if key in ("space", "from", "to", "where", "at", "what") and game.board is not None:
        if str(value) in game.board.info:
            return space_name(game, value)
        if str(value) in game.board.buildings:
            return game.board.buildings[str(value)].title
    if key == "marker" and isinstance(value, str):
        return _marker_title(game, value)
    return ", ".join(map(str, value)) if isinstance(value, list) else "-" if value in (None, "") else str(value)


def _kill(game, e) -> str:
    by = f" by {_unit(game, e['by'])}" if e.get("by") else ""
    return f"{_unit(game, e['unit'])} killed in {space_name(game, e['space'])}{by}"


def _result(game, e) -> str:
    winner = _called(game, "side", e["winner"]) if e.get("winner") else "nobody"
    return f"GAME OVER: {winner} won ({cause_text(game, e)})"


def _counter(game, e) -> str:
    if _pool_entry(e):
        return f"{str(e['name']).replace('_', ' ')}: {', '.join(map(str, e['value']))}"
    return f"{counter_title(e['name'])}: {_name(game, 'value', e['value'])}"


def counter_title(name) -> str:
    """A counter by its name in words: `heroes_killed` is "Heroes killed"."""
    return str(name).replace("_", " ").capitalize()


def _note(game, e) -> str:
    """A rule's note, with whom it is about when the event had a unit ("… (Sally)")."""
    text = str(e.get("text", ""))
    if isinstance(e.get("template"), str) and isinstance(e.get("with"), list):  # its values named as the screen names them
        text = fill(e["template"], [_said(game, v) for v in e["with"]])
    return f"{text} ({_unit(game, e['unit'])})" if e.get("unit") in game.state["units"] else text


def _said(game, value) -> str:
    """A value of a note as the screen names it (the engine keeps ids, numbers, texts, yes/no and
    lists of them: engine.effects._said)."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_said(game, v) for v in value)
    return _name(game, "what", value)


def _remove(game, e) -> str:
    if "unit" in e:
        where = f" in {space_name(game, e['space'])}" if e.get("space") else ""
        return f"{_unit(game, e['unit'])} taken off the board{where}"
    return f"{_name(game, 'card', e['card'])} set aside"


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
    else:  # a unit, a card, a space, a building, an option's words
        shown = _name(game, "what", picked)
    rule = {"title": e["rule"]} if isinstance(e.get("rule"), str) else None
    return f"{_called(game, 'side', e['side'])} chose {shown} ({ask_text(game, str(e['label']), rule)})"


def _hidden(game) -> frozenset:
    """The counters, markers and stats the content calls bookkeeping (`hidden`, in the system, the
    scenario or a special rule it puts in effect): never shown, only logged."""
    found = game.scratch.get("human_hidden")
    if found is None:
        names = set()
        in_effect = {r.get("rule") for r in game.model.scenario.get("rules") or () if isinstance(r, dict)}
        holders = [game.model.system, game.model.scenario] + [
            o for o in game.model.objects.values() if o.get("kind") == "special_rule" and o.get("id") in in_effect]
        for holder in holders:
            names.update(str(n) for n in (holder or {}).get("props", {}).get("hidden") or ())
        found = game.scratch["human_hidden"] = frozenset(names)
    return found


def _shown(game, name) -> bool:
    """Whether a counter, marker or stat is the players' business (not `hidden`, not the ai's)."""
    return name not in _hidden(game) and not str(name).startswith("ai_")


def _flag(game, name) -> bool:
    """A track that only says yes or no (its range is 0-1): read as such, and left off the status line."""
    track = game.model.tracks.get(name) or {}
    return list(track.get("props", {}).get("range") or ()) == [0, 1]


def _track(game, e) -> str:
    name = e.get("track") or e["name"]
    title = _title(game.model.tracks.get(name), name)
    if _flag(game, name) and e.get("value") in (0, 1):
        return f"{title}: {'yes' if e['value'] else 'no'}"
    change = f" ({e['change']:+d})" if isinstance(e.get("change"), int) else ""
    return f"{title} is {e['value']}{change}"


def _play(game, e, told: set | None = None) -> str:
    on = f" on {_name(game, 'what', e['on'])}" if e.get("on") else ""  # a unit, a card, a space or a building
    text = _card_props(game, e["card"]).get("text")
    said = f": {_clip(text, 220)}" if isinstance(text, str) and text else ""  # whole: the other side may answer it
    if told is not None:  # the story tells a card's text the first time it is played (it read every Shamble's)
        said = "" if e["card"] in told else said
        told.add(e["card"])
    return f"{_name(game, 'side', e.get('side'))} play {_name(game, 'card', e['card'])}{on}{said}"


def _relevant(text: str, label: str, size: int) -> str:
    """A rule's text cut to `size`, from the sentence most about the question when the whole does not fit:
    a rule of many moments (Zombie Cards: the draw step's discard, then playing cards) asked about its
    later part showed only its first sentence. A sentence scores by the question's words it shares
    (plays, played and playing count as play; player does not), each weighed by how few sentences have it."""
    text = " ".join(str(text).split())
    if len(text) <= size:
        return text
    sentences = re.split(r"(?<=[.!?])\s+", text)
    stems = lambda words: {re.sub(r"(?<=\w{3})(ing|ed|s)$", "", w.lower()) for w in re.findall(r"[A-Za-z]{4,}", words)}
    keys = stems(label)
    found = [stems(sentence) & keys for sentence in sentences]
    scores = [sum(1 / sum(1 for f in found if key in f) for key in hits) for hits in found]
    best = max(range(len(sentences)), key=lambda i: (scores[i], -i))
    if best == 0 or scores[best] <= scores[0]:
        return _clip(text, size)
    return "… " + _clip(" ".join(sentences[best:]), size - 2)


def _clip(text: str, size: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= size else text[:size - 1].rstrip() + "…"


def _card_props(game, card) -> dict:
    """A card's props by its id or its proto's."""
    record = game.state["cards"].get(str(card))
    obj = game.model.objects.get(("card", record["proto"] if record else str(card)))
    return obj.get("props", {}) if obj else {}


_SPECIAL = {"play": _play, "kill": _kill, "result": _result, "choice": _choice, "track": _track, "remove": _remove,
            "counter": _counter, "note": _note}


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
    """A named unit by its name ("Billy"); one of many alike by name and number ("Zombie 3"), unless it
    was given a name of its own; anything else as itself."""
    record = game.state["units"].get(str(uid))
    if not record:
        return str(uid)
    if record.get("name"):  # named after the unit whose figure it is ("Zombie Hero (Billy)")
        return record["name"]
    name = _unit_name(game, record["proto"])
    return f"{name} {_figure_number(game, str(uid))}" if _many(game, record["proto"]) else name


def _figure_number(game, uid: str) -> int | str:
    """A unit's number among those of its prototype, in the order they came into the game: "Zombie 12",
    not its id's "Zombie 128" (a play-test read ids that ran past a hundred with 14 Zombies on the board).
    Worked out again only when a unit is added (units are never taken out of the table)."""
    units = game.state["units"]
    found = game.scratch.get("human_figures")
    if found is None or found[0] is not units or found[1] != len(units):
        counts, numbers = Counter(), {}
        for key, record in units.items():  # (the table keeps the order units came in, saved games too)
            counts[record["proto"]] += 1
            numbers[key] = counts[record["proto"]]
        found = game.scratch["human_figures"] = (units, len(units), numbers)
    return found[2].get(uid, uid.lstrip("u"))


def _many(game, proto: str) -> bool:
    """Units of this proto come many alike (Zombies), not one of a kind (a Hero)."""
    obj = game.model.objects.get(("unit", proto))
    return obj is None or int(obj.get("props", {}).get("count", 1) or 1) > 1 or _alike(game, proto) > 1


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
        return f"{_part_name(game, parts[-2])} {parts[-1]}"
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
        record = game.state["units"][option.id]
        where = record["space"]
        hurt = f" ({record['wounds']}/{record['stats'].get('health', '?')} wounds)" if record.get("wounds") else ""
        name = _unit(game, option.id)
        # what the unit is marked with, as `c` lists it (a play-test played an Event on a Hysterical Hero
        # without being told it could fail): a marker the name already says (Zombie Hero) is not repeated
        marks = [t for t in unit_markers(game, record) if t not in name]
        return f"{name} in {space_name(game, where) if where else 'no space'}{hurt}" + (f" [{', '.join(marks)}]" if marks else "")
    if option.kind == "card" and option.id in game.state["cards"]:
        card = game.state["cards"][option.id]
        place, target = card_place(game, card["where"], option.id), card.get("target")
        if card["where"] == "play" and target:  # two copies in play read apart by what each was played on
            place = f"{place}, on {_name(game, 'what', target[1])}"
        return f"{_called(game, 'card', card['proto'])} ({place})"
    if option.kind == "space" and game.board is not None and option.id in game.board.info:
        return space_name(game, option.id)
    if option.kind == "building" and game.board is not None and option.id in game.board.buildings:
        return building_name(game, option.id)
    return _called(game, "side", option.id) if option.kind == "side" else option.id


def building_name(game, bid: str) -> str:
    """A building by its title, with the quarter of the town its board was laid in ("Gas Station
    (northwest)"); with its board's name too when another building has the same title."""
    board = game.board
    title = board.buildings[bid].title
    part = bid.rsplit(".", 2)[-2] if "." in bid else None
    place = board.places.get(part) if part else None
    alike = sum(1 for b in board.buildings.values() if b.title == title) > 1
    where = [w for w in ((_part_name(game, part) if alike and part else None), place) if w]
    return f"{title} ({', '.join(where)})" if where else title


def unit_markers(game, record: dict) -> list[str]:
    """The titles of the markers a unit's record carries that are the players' business (`_shown`)."""
    return [_marker_title(game, m) for m, n in (record.get("markers") or {}).items() if n and _shown(game, m)]


def carried(game, cid) -> bool:
    """Whether a card on a unit is one it carries, face up: its type is one the system says units carry
    (`carried item, weapon`), or the system says none (every card on a unit is carried). Any other card
    on a unit it has just drawn, on its way to a side's hand (LNOE: an Event a Hero found)."""
    types = game.model.system.get("props", {}).get("carried")
    return not types or _card_props(game, cid).get("type") in types


def card_place(game, where, cid: str | None = None) -> str:
    """Where a card is, in words: carried by a unit, in a side's hand, in play, in a deck. A card on a
    unit that it does not carry (`cid` given; `carried`) is one it has just drawn: "drawn by" (a
    play-test read "Get Back You Devils! (carried by Becky)" and took the Event for an Item)."""
    where = str(where)
    if where in game.state["units"]:
        if cid is not None and not carried(game, cid):
            return f"drawn by {_unit(game, where)}"
        return f"carried by {_unit(game, where)}"
    if where.startswith("side:"):
        return f"{_called(game, 'side', where[5:])}' hand"
    return {"play": "in play", "deck": "in the deck", "discard": "discarded", "box": "set aside"}.get(where, where)


def option_hint(game, option) -> str:
    """A few words more about an option, for its line: a card's or an action's text, what is in a space."""
    if isinstance(option, dict):
        return str(option.get("props", {}).get("text") or option.get("text") or "")
    if isinstance(option, Ref) and option.kind == "card":
        return timed_text(_card_props(game, option.id))
    if isinstance(option, Ref) and option.kind == "space":
        return occupants(game, option.id)
    return ""


def timed_text(props: dict) -> str:
    """A card's timing and text in a line ("Start of the Zombie Turn: The power fails…"), the timing left
    out when the text starts with it or with its own word for the moment ("Fight: if the Zombie wins…"
    under the timing "Fight: when the Zombie wins", "Combat Bonus: …" under "Combat Bonus")."""
    timing, text = str(props.get("timing") or ""), str(props.get("text") or "")
    if not timing or not text:
        return text or timing
    if text.startswith(timing) or (":" in text and text.split(":")[0] == timing.split(":")[0]):
        return text
    return f"{timing}: {text}"


def occupants(game, sid) -> str:
    """Who is in a space: units of a kind by name, units that come many alike counted ("Jenny, Zombie ×2")."""
    named, alike = [], {}
    for uid, record in game.state["units"].items():
        if record["space"] == sid:
            if _many(game, record["proto"]) and not record.get("name"):  # (a unit with a name of its own: by it)
                alike[record["proto"]] = alike.get(record["proto"], 0) + 1
            else:
                named.append(_unit(game, uid))
    return ", ".join(named + [_unit_name(game, p) + (f" ×{n}" if n > 1 else "") for p, n in alike.items()])


def explain_option(game, option, rule: dict | None = None) -> str:
    """Everything worth knowing about one option (`?N`); an option that says no more than its label (a
    rule's own "Hold back one or more of them") is explained by the text of the `rule` asking."""
    if option is None:
        return "Pass: do nothing here."
    if isinstance(option, Ref) and option.kind == "unit" and option.id in game.state["units"]:
        record = game.state["units"][option.id]
        obj = game.model.objects.get(("unit", record["proto"])) or {}
        lines = [f"{_called(game, 'side', record['side'])}, {str(record['kind']).replace('_', ' ')}; "
                 + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in record["stats"].items() if _shown(game, k))
                 + f"; wounds {record.get('wounds', 0)}"]
        if record.get("keywords"):  # what cards aim at ("a Student", "a male Hero"): the play-test could not tell
            lines.append("keywords: " + ", ".join(k.replace("_", " ") for k in record["keywords"]))
        if record.get("space") and game.board is not None and record["space"] in game.board.info:
            label = unit_label(game, option.id)  # where to find it on the map (the play-test could not)
            lines.append(f"in {space_name(game, record['space'])}" + (f", shown {label} on the map" if label else ""))
        held = [_called(game, "card", r["proto"]) for r in game.state["cards"].values() if r["where"] == option.id]
        if held:
            lines.append("carries " + ", ".join(held))
        for block in obj.get("blocks", []):
            if block.get("kind") == "ability":
                lines.append(f"{block.get('title') or block['id']}: {block.get('props', {}).get('text', '')}")
        return "\n".join(lines)
    if isinstance(option, Ref) and option.kind == "card":
        props = _card_props(game, option.id)
        lines = [f"{k}: {str(props[k]).replace('_', ' ') if k == 'type' else props[k]}" for k in ("type", "timing", "text")
                 if props.get(k)]
        words = [str(k).replace("_", " ") for k in props.get("keywords") or () if k != props.get("type")]
        if words:  # what a scenario may count it as (a Townsfolk: the play-test could not tell which were)
            lines.append("keywords: " + ", ".join(words))
        if game.model.scenario.get("props", {}).get("search_cards"):
            from spawnpit.engine.table import search_card

            # (whether this scenario searches for it: a play-test took Dynamite, which Burn 'em Out searches
            # for, for one of Escape in the Truck's)
            searched = search_card(game._plain_ctx(), option)
            lines.append(f"{'one' if searched else 'not one'} of this scenario's Search Cards")
        numbers = card_stats(game, props)
        return "\n".join(lines + ([numbers] if numbers else [])) or "(no text)"
    if isinstance(option, Ref) and option.kind == "space" and game.board is not None and option.id in game.board.info:
        return _space_facts(game, option.id)
    if isinstance(option, Ref) and option.kind == "building" and game.board is not None and option.id in game.board.buildings:
        return _building_facts(game, option.id)
    hint = option_hint(game, option)
    if not hint and rule_text(game, rule):  # (the play-test's ?N on "Hold back…" said "(nothing more to say)")
        said = f"{rule.get('title') or 'the rule'} asks: {rule_text(game, rule)}"
        card = rule.get("asked_card")
        if isinstance(card, Ref) and card.id in game.state["cards"]:  # the card it asks about (a play-test's
            # Flashlight "keep it or throw it away?" told the Flashlight's text, not the drawn card's)
            said += f"\n{option_label(game, card)}: {explain_option(game, card)}"
        return said
    return hint or "(nothing more to say)"


def _building_facts(game, bid: str) -> str:
    """A building for `?N` (a card played on a building: My God, They've Taken the…): where it is, its
    spaces, its Pick Up, who is in it, the markers on it (the play-test read "(nothing more to say)")."""
    board, found = game.board, game.board.buildings[bid]
    spaces = [s for s in board.spaces if board.info[s].building == bid]
    lines = [f"{found.title}: {len(spaces)} space{'s' if len(spaces) != 1 else ''} ("
             + ", ".join(space_name(game, s) for s in spaces[:6]) + (", …" if len(spaces) > 6 else "") + ")"]
    if found.pick_up:
        lines.append(f"Pick Up: {_called(game, 'card', found.pick_up)}")
    who = [f"{space_name(game, s)}: {occupants(game, s)}" for s in spaces if occupants(game, s)]
    lines.append("here: " + "; ".join(who) if who else "nobody in it")
    marked = (game.state.get("buildings") or {}).get(bid, {}).get("markers") or {}
    markers = [_marker_title(game, m) for m, n in marked.items() if n and _shown(game, m)]
    if markers:
        lines.append("; ".join(markers))
    return "\n".join(lines)


def _space_facts(game, sid: str) -> str:
    """A space for `?N`: its building (and what Searching there picks up) or not, who is there, and
    the markers on it or its building."""
    board = game.board
    building = board.info[sid].building
    if building:
        found = board.buildings[building]
        lines = [f"in {found.title}" + (f" (Pick Up: {_called(game, 'card', found.pick_up)})" if found.pick_up else "")]
    else:
        lines = ["outside, not in a building"]
    # its doors and windows to other places: the map cannot draw them where a board lies in another's hole
    # (the Manor House's outer doors; the play-test could not find them)
    # (a door between two rooms of one building too: Locked Door offered Hospital g1, whose only door leads
    # to another Hospital space, and `?N` said nothing of it)
    # ("a door to Church/Police Station c7" read as a door into the Church: a space out of doors says so)
    openings = sorted({f"a {kind} to {space_name(game, n)}" + (" (inside)" if building and board.info[n].building == building
                                                                else " (outside)" if not board.info[n].building else "")
                       for n in board.neighbours(sid, through=EVERYTHING) if (kind := board.edge(sid, n)) in ("door", "window")})
    if openings:
        lines.append("; ".join(openings))
    who = occupants(game, sid)
    lines.append(f"here: {who}" if who else "nobody here")
    marked = [(game.state.get(table) or {}).get(key, {}).get("markers") or {}
              for table, key in (("spaces", sid), ("buildings", building)) if key]
    markers = [_marker_title(game, m) for found in marked for m, n in found.items() if n and _shown(game, m)]
    if sid in board.spawn_points:
        markers.insert(0, "a spawn point")  # (the legend's word: the engine knows no game's name for it)
    if markers:
        lines.append("; ".join(markers))
    return "\n".join(lines)


def space_numbers(game, options: list) -> dict[str, int]:
    """space → its option number, when the options are spaces."""
    return {o.id: i for i, o in enumerate(options, 1) if isinstance(o, Ref) and o.kind == "space"}


FOUND_LETTERS = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + [chr(c) for c in range(ord("a"), ord("z") + 1)]


def find_on_board(game, query: str, most: int = len(FOUND_LETTERS)) -> list[tuple[str, str]]:
    """`w X`: the spaces whose name (as the log says it: "Gym/High School h4", "Town Center b2") holds X,
    or ends with the cell X ("h4"), and the spaces of the units called X ("Zombie 18", "Billy") or
    labelled X on the map ("Bi"); units whose name starts with X only when none is called X ("w Zombie 1"
    is Zombie 1, not Zombies 10 to 14). In the board's order, each with what is said of it; at most `most`."""
    board = game.board
    if board is None:
        return []
    query = " ".join(query.lower().split())
    on_board = [(uid, r["space"], _unit(game, uid)) for uid, r in game.state["units"].items() if r.get("space")]
    exact = [(space, name) for uid, space, name in on_board
             if name.lower() == query or (unit_label(game, uid) or "").lower() == query]
    called = exact or [(space, name) for _, space, name in on_board if len(query) > 2 and name.lower().startswith(query)]
    units: dict[str, list[str]] = {}
    for space, name in called:
        units.setdefault(space, []).append(name)
    found = []
    for sid in board.spaces:
        name = space_name(game, sid)
        if sid in units:
            found.append((sid, f"{', '.join(units[sid])} in {name}"))
        elif query in name.lower() and (len(query) > 2 or name.lower().endswith(" " + query)):
            found.append((sid, name))
    return found[:most]


def unit_numbers(game, options: list) -> dict[str, int]:
    """space → its option number, when the options are units on the board: the space of each unit that
    is the only option there (two options in one space: neither number fits its cell)."""
    units = game.state["units"]
    at: dict[str, list[int]] = {}
    for i, o in enumerate(options, 1):
        if isinstance(o, Ref) and o.kind == "unit" and o.id in units and units[o.id].get("space"):
            at.setdefault(units[o.id]["space"], []).append(i)
    return {space: found[0] for space, found in at.items() if len(found) == 1}


def ask_text(game, label: str, rule: dict | None = None, options: list | None = None) -> str:
    """The question in words: who acts and in which step for the turn's own questions, the rule that
    asks and what it asks for otherwise."""
    who = re.fullmatch(r"([\w.]+): who acts", label)
    if who:
        return f"{moment_title(game, who.group(1).split('.'))}: who acts next?"
    action = re.fullmatch(r"([\w.]+): action of (\S+)", label)
    if action:
        path, uid = action.group(1).split("."), action.group(2)
        record = game.state["units"].get(uid)
        where = f" in {space_name(game, record['space'])}" if record and record.get("space") else ""
        return f"{_unit(game, uid)}{where}: {moment_title(game, path).split(' › ')[-1]} — which action?"
    title = rule.get("title") if isinstance(rule, dict) else None
    if title and rule.get("asked_for") and rule["asked_for"] not in title:
        title = f"{title} ({rule['asked_for']}" + (", marked on the map)" if rule.get("asked_at") else ")")
    what = re.fullmatch(r"choose (\w+)( .+)?", label)
    if what and what.group(1) != "an":
        word = what.group(1)
        called = _title(game.model.kinds.get(word), word) if word in game.model.kinds else word
        text = f"choose a{'n' if called[:1].lower() in 'aeio' else ''} {called}{what.group(2) or ''}"
    else:
        text = label
    optional = bool(options) and options[-1] is None
    return (f"{title}: {text}" if title else text) + (" (or pass)" if optional else "")


def rule_text(game, rule: dict | None) -> str:
    """What the rule asking a question says (its `text`), found by its id or title among the system's
    blocks and the pack's objects (cards, units' abilities); "" when it says nothing."""
    if not isinstance(rule, dict):
        return ""
    texts = game.scratch.get("human_rule_texts")
    if texts is None:
        texts, stack = {}, [(b, None) for b in [*game.model.system.get("blocks", []), *game.model.objects.values()]]
        while stack:
            node, owner = stack.pop()
            if not isinstance(node, dict):
                continue
            if node.get("kind") in ("unit", "card") and isinstance(node.get("id"), str):
                owner = f"{node['kind']}:{node['id']}"  # as the hooks of its abilities name it
            props = node.get("props") if isinstance(node.get("props"), dict) else {}
            text = props.get("text")
            if isinstance(text, str) and text:
                if owner is not None and isinstance(node.get("id"), str):
                    texts.setdefault((owner, node["id"]), text)  # (four Heroes have a Youth, each in own words)
                for key in (node.get("id"), node.get("title"), props.get("title")):
                    if isinstance(key, str):
                        texts.setdefault((key, props.get("source") or ""), text)  # (a card and a special rule
                        texts.setdefault(key, text)                                # may share a name)
            stack.extend((b, owner) for b in node.get("blocks", []) if isinstance(b, dict))
        game.scratch["human_rule_texts"] = texts
    source = rule.get("source") or ""
    return (texts.get((rule.get("owner"), rule.get("rule")))
            or texts.get((rule.get("rule"), source)) or texts.get((rule.get("title"), source))
            or texts.get(rule.get("rule")) or texts.get(rule.get("title")) or "")


def alike_options(game, options: list) -> list[list[int]]:
    """The options in groups of those a player cannot tell apart (units of a kind that comes many alike,
    of one side, in one space, with the same wounds, mode, markers, tracks and stats that are shown,
    carrying nothing, with no name of their own: two Zombie Heroes are Becky's and the Sheriff's),
    each group as the indices of its options in order, the groups in the order of their first option;
    every other option alone."""
    groups: list[list[int]] = []
    first: dict = {}
    carrying = {r["where"] for r in game.state["cards"].values()}
    for i, option in enumerate(options):
        key = None
        if isinstance(option, Ref) and option.kind == "unit" and option.id not in carrying:
            record = game.state["units"].get(option.id)
            if record is not None and _many(game, record["proto"]):  # (repr: a stat may be a list, no key)
                key = repr((record["proto"], record.get("name"), record["side"], record["space"], record.get("wounds", 0),
                            record.get("mode"),
                            sorted((m, n) for m, n in (record.get("markers") or {}).items() if n),
                            sorted((k, v) for k, v in (record.get("stats") or {}).items() if _shown(game, k)),
                            sorted((record.get("tracks") or {}).items())))  # (a `hidden` stat tells none apart;
                # a marker may: a Zombie a card already moved (card_moved) is not one an ordinary move may pick)
        if key is not None and key in first:
            first[key].append(i)
        else:
            groups.append([i])
            if key is not None:
                first[key] = groups[-1]
    return groups


def alike_label(game, option, n: int) -> str:
    """An option's label; for a unit standing for n alike (alike_options), "Zombie ×3 in Gym a6, any one"."""
    label = option_label(game, option)
    if n < 2:
        return label
    proto = game.state["units"][option.id]["proto"]
    return label.replace(_unit(game, option.id), f"{_unit_name(game, proto)} ×{n}", 1) + ", any one"


def prompt(game, side: str, label: str, options: list, rule: dict | None = None, width: int = 120,
           alike: dict | None = None, brief: bool = False, listed: bool = True, on_board: bool = True) -> Text | Group:
    """The question, what its rule says (not when `brief`), and the options numbered (`alike`: option
    position → how many units alike it stands for, said "Zombie ×3 in …, any one"). Many spaces are
    listed in columns (said to be numbered on the board too, unless not `on_board`: the board is not
    shown), or, not `listed`, left to the numbers on the board."""
    head = Text.assemble((_called(game, "side", side), "bold"), f" — {ask_text(game, label, rule, options)}\n")
    said = rule_text(game, rule) if not brief else ""
    if said:
        head.append(f"  ({_relevant(said, label, 2 * width - 8)})\n", style="grey62")
    spaces = [o for o in options if o is not None]
    if (len(spaces) > MANY or not listed) and all(isinstance(o, Ref) and o.kind == "space" for o in spaces):
        if not listed:
            if len(spaces) < len(options):  # (kept within 80 columns)
                return head.append(f"Choose 1-{len(spaces)} on the board or 0 to pass (a: AI's choice, "
                                   "? help, q quits)", style="grey50")
            return head.append(f"Choose 1-{len(options)} on the board (?N names it, a: AI's choice, ? help, q quits)",
                               style="grey50")
        too = "the numbers are on the board too; " if on_board else ""
        return Group(head, _space_columns(game, options),
                     Text(f"Choose 1-{len(options)} ({too}a: the AI's choice, ? help, q quits)", style="grey50"))
    out = head
    for i, option in enumerate(options, 1):
        out.append(f"  {i:>2}. ", style="bold")
        label_text = alike_label(game, option, (alike or {}).get(i - 1, 1))
        out.append(label_text, style="italic" if option is None else "")
        hint = option_hint(game, option)
        room = width - len(label_text) - 10
        if hint and room > 12:
            out.append(f" — {_clip(hint, room)}", style="grey62")
        out.append("\n")
    if options and options[-1] is None:  # a question the player may pass (0, or its number), and all round (`p!`)
        out.append(f"Choose 1-{len(options)} (0 passes; ?N explains, a: AI, p!: pass all turn, ? help, q quits)",
                   style="grey50")
    else:
        out.append(f"Choose 1-{len(options)} (?N explains option N, a: the AI's choice, ? help, q quits)", style="grey50")
    return out


def _space_columns(game, options: list) -> Group:
    """Many spaces as columns, grouped by board part: "12 b1 The Bank"."""
    groups: dict[str, list] = {}
    board = game.board
    for i, option in enumerate(options, 1):
        if option is None:
            groups.setdefault("", []).append(Text.assemble((f"{i:>2}", NUMBER_STYLE), " pass"))
            continue
        sid = option.id
        info = board.info.get(sid) if board is not None else None
        part = (_part_title(game, info.grid) if info is not None and info.grid else "")
        cell = sid.rsplit(".", 1)[-1]
        building = board.buildings[info.building].title if info is not None and info.building else ""
        item = Text.assemble((f"{i:>2}", NUMBER_STYLE), f" {cell}")
        if building:
            item.append(f" {building}", style="italic")
        who = option_hint(game, option)
        if who:
            item.append(f" ({who})", style="grey62")
        groups.setdefault(part, []).append(item)
    out = []
    for part, items in groups.items():
        if part:
            out.append(Text(part, style="bold"))
        out.append(Columns(items, padding=(0, 2)))
    return Group(*out)


# ---- the board -----------------------------------------------------------------------------------

def board_view(game, numbers: dict | None = None, compact: bool = False, viewer: str | None = None,
               whole: bool = True, width: int | None = None, roster: bool = True, part: str | None = None,
               edges: bool = True, markers: bool | str = True, here: str | None = None):
    """Grids as cells (composite boards: one panel per part; `compact`: one short line a cell), other
    spaces as a compact list, and a legend of the unit symbols, buildings and edges. `numbers`: space →
    option number, shown on the space. Compact, and `whole`, a composite board whose parts the links
    between them place on the table is one map of the whole town (when it fits `width`). `roster`: the
    key says where each side's units are (`m` leaves it out: the map shows them, and map and key then
    fit 80x24 with the question under them). `here`: the space of the unit a question is about, its
    units drawn reversed."""
    drawn, key = board_parts(game, numbers, compact, viewer, whole, width, roster, part, edges, markers, here)
    return Group(*drawn, *key)


def board_parts(game, numbers: dict | None = None, compact: bool = False, viewer: str | None = None,
                whole: bool = True, width: int | None = None, roster: bool = True,
                part: str | None = None, edges: bool = True, markers: bool | str = True,
                here: str | None = None) -> tuple[list, list]:
    """board_view in two: the board itself (grids, the spaces off them) and its key (the legend, then
    the markers line). `part`: that grid alone (`b N`)."""
    board = game.board
    if board is None:
        return [Text("(this scenario has no board)", style="grey50")], []
    marks, numbers = unit_marks(game, compact), numbers or {}
    if here in marks:  # the unit a question is about (the Zombie to move): its cell's units reversed, a
        marks[here] = marks[here].copy()  # play-test could not find "the Zombie in Bank/Gas Station/Junkyard e2"
        marks[here].stylize("reverse")
    grids = board_grids(game) if part is None else [part]
    rest = [s for s in board.spaces if board.info[s].grid is None] if part is None else []
    off_grid = [zone_view(game, rest, marks, numbers)] if rest else []
    marked = markers_line(game, buildings_only=markers == "buildings") if markers else None
    drawn = map_compact(game, marks, numbers, here) if compact and whole else None
    if drawn is not None and (width is None or drawn.width <= width):
        return [drawn, *off_grid], [legend(game, True, compact, viewer, width, _answers(numbers), roster, edges, marks), *([marked] if marked else [])]
    draw = grid_compact if compact else grid_text
    panels = []
    for gid in grids:
        # `b`: a part as it lies on the map (a play-test found board 2 turned against the map: the Bank top
        # left there, top right on the map), its rows and columns labelled by the cell names they hold
        title = _part_title(game, gid)
        placed = grid_placed(game, gid, marks, numbers, close=False) if compact and not whole else None
        if placed is not None and max(len(line) for line in placed.plain.splitlines()) < len(title) + 4:
            placed = grid_placed(game, gid, marks, numbers)  # the panel is wider: the grid's right side drawn
        body = placed if placed is not None else draw(game, gid, marks, numbers)
        inner = max(len(line) for line in body.plain.splitlines()) + (0 if compact else 2)
        panels.append(Panel(body, title=title, expand=False, padding=(0, 0) if compact else (0, 1),
                            width=max(inner, len(title) + 4) + 2))
    return (([Columns(panels)] if panels else []) + off_grid,
            [legend(game, bool(panels), compact, viewer, width, _answers(numbers), roster, edges, marks), *([marked] if marked else [])])


def _answers(numbers: dict) -> bool:
    """Whether the marks on the board are answers to the question (numbers), not `w`'s letters."""
    return any(isinstance(v, int) for v in numbers.values())


def board_grids(game) -> list[str]:
    """The board's grids (its parts with cells), in the order the board lists its spaces."""
    board = game.board
    return list(dict.fromkeys(board.info[s].grid for s in board.spaces if board.info[s].grid)) if board else []


def town_layout(game):
    """The board's grids placed as on the table (Board.town); None when the links between them do not
    place them all."""
    return game.board.town() if game.board else None


def map_compact(game, marks: dict, numbers: dict, here: str | None = None) -> Panel | None:
    """The whole board as one map, one line a row of cells as in grid_compact (walls and doors between
    the cells of a row, underlined below), each part turned as it lies on the table, a part that fills
    a hole of the others (the Town Center) drawn over the whole hole, a big cell a space (_stretched),
    or small in its middle with its own cell names; None when the parts cannot be placed or a hole's
    part does not fit its hole."""
    layout = town_layout(game)
    if layout is None:
        return None
    board, inv = game.board, layout.space_at()
    shades, short = _building_styles(game), building_shorts(game)
    filled = {}  # hole → its lines, each as wide as the hole
    cover = {}  # a cell of the map inside a hole → the space whose big cell covers it
    for hole in layout.holes:
        stretched = _stretched(game, hole, marks, numbers, shades, short, here)
        if stretched is not None:
            filled[hole] = stretched
            for sid, (left, top, right, bottom) in hole_cells(game, hole).items():
                cover.update({(cx, cy): sid for cx in range(left, right + 1) for cy in range(top, bottom + 1)})
            continue
        cols = hole.right - hole.left + 1
        inner = cols * (SMALL + 1) - 1
        body = Text(re.sub(r"\s*\(.*\)$", "", _part_name(game, hole.grid.rsplit(".", 1)[-1])), style="bold")
        body.truncate(inner, overflow="ellipsis")
        lines = [body, *grid_compact(game, hole.grid, marks, numbers).split("\n")]
        if max(len(line) for line in lines) > inner or len(lines) > hole.bottom - hole.top + 1:
            return None
        top = (hole.bottom - hole.top + 1 - len(lines)) // 2
        lines = [Text()] * top + lines
        lines += [Text()] * (hole.bottom - hole.top + 1 - len(lines))
        filled[hole] = [line.copy() for line in lines]
        for line in filled[hole]:
            pad = inner - len(line)
            line.pad_left(pad // 2)
            line.pad_right(pad - pad // 2)
    out = Text()
    for y in range(layout.height):
        if y:
            out.append("\n")
        x = 0
        while x < layout.width:
            here = next((h for h in layout.holes if h.left == x and h.top <= y <= h.bottom), None)
            if x and ((x - 1, y) in cover or (x, y) in cover):  # a hole's side: its door, its wall
                out.append(*_hole_edge(board, inv.get((x - 1, y)) or cover.get((x - 1, y)),
                                       inv.get((x, y)) or cover.get((x, y)))[::2])
            elif x:  # (the panel's own border is the map's outer edge)
                out.append(*_edge(board, inv.get((x - 1, y)), inv.get((x, y)))[::2])
            if here is not None:
                out.append_text(filled[here][y - here.top])
                x = here.right + 1
                continue
            sid, below = inv.get((x, y)), inv.get((x, y + 1))
            if below is None and sid is not None and cover.get((x, y + 1)) and board.edge(sid, cover[x, y + 1]):
                below = cover[x, y + 1]  # above a hole's big cell: the kind of edge between them underlines
            out.append_text(_small_cell(game, sid, below, marks, numbers, shades, short))
            x += 1
    return Panel(out, expand=False, padding=(0, 0), title=_board_title(game),
                 width=layout.width * (SMALL + 1) + 1)


def _splits(total: int, parts: int, least: int, most: int):
    """Every way to cut `total` cells of the map into `parts` runs of `least` to `most` cells each."""
    if parts == 1:
        if least <= total <= most:
            yield (total,)
        return
    for first in range(least, min(most, total - least * (parts - 1)) + 1):
        for rest in _splits(total - first, parts - 1, least, most):
            yield (first, *rest)


def _best_cut(total: int, parts: int, least: int, score) -> tuple | None:
    """The cut of `total` into `parts` runs (of at least `least`) with the lowest score(cut), ties to the
    most even; runs within two of the even share, and no more than 20,000 cuts tried (then the even one)."""
    if parts < 1 or total < parts * least:
        return None
    share = total / parts
    most = max(least, math.ceil(share) + 2)
    best, tried = None, 0
    for cut in _splits(total, parts, max(least, math.floor(share) - 2), most):
        tried += 1
        if tried > 20_000:
            break
        key = (score(cut), max(cut) - min(cut), sum(c * c for c in cut), cut != cut[::-1])
        if best is None or key < best[0]:
            best = (key, cut)
    if best is None or tried > 20_000:
        base, odd = divmod(total, parts)
        return tuple(base + (1 if i < odd else 0) for i in range(parts))
    return best[1]


def _hole_shares(game, hole) -> tuple[dict, tuple, tuple] | None:
    """A hole's part as big cells: (its spaces by cell, the map columns of each column of big cells, the
    map rows of each row), or None when a row cannot be two lines high (see _stretched). The columns are
    cut so that the big cells along the top and bottom of the hole touch the cells above and below them
    that their spaces are linked to, and as few others as may be (none, for the LNOE boards' links), then
    as evenly as may be; the rows likewise by the cells left and right of the hole. Worked out once a game."""
    key = ("human_hole", hole)
    found = game.scratch.get(key, False)
    if found is not False:
        return found
    board, layout = game.board, town_layout(game)
    around = layout.space_at()
    at = {board.info[s].cell: s for s in board.spaces if board.info[s].grid == hole.grid}
    found = None
    if at:
        cols, rows = 1 + max(c for c, _ in at), 1 + max(r for _, r in at)
        linked = {sid: set(board.neighbours(sid, through=EVERYTHING)) for sid in at.values()}

        def misses(cut, start: int, line: list, edge_cells: list) -> int:
            """Links between an edge row (column) of big cells and the line of cells beside it that would not
            touch, times 100, plus cells that would touch without a link."""
            out, lo = 0, start
            for sid, run in zip(edge_cells, cut):
                hi = lo + run - 1
                for pos, other in line if sid is not None else ():  # (a void cell of the part: nothing to touch)
                    near = lo - 1 <= pos <= hi + 1
                    if other in linked[sid] and not near:
                        out += 100
                    elif near and other not in linked[sid]:
                        out += 1
                lo = hi + 1
            return out

        def side(fixed, span, vertical: bool) -> list:
            cells = [(pos, around.get((fixed, pos) if vertical else (pos, fixed))) for pos in span]
            return [(pos, other) for pos, other in cells if other is not None]

        xs, ys = range(hole.left - 1, hole.right + 2), range(hole.top - 1, hole.bottom + 2)
        above, below = side(hole.top - 1, xs, False), side(hole.bottom + 1, xs, False)
        left, right = side(hole.left - 1, ys, True), side(hole.right + 1, ys, True)
        widths = _best_cut(hole.right - hole.left + 1, cols, 1, lambda cut: (
            misses(cut, hole.left, above, [at.get((c, 0)) for c in range(cols)])
            + misses(cut, hole.left, below, [at.get((c, rows - 1)) for c in range(cols)])))
        heights = _best_cut(hole.bottom - hole.top + 1, rows, 2, lambda cut: (
            misses(cut, hole.top, left, [at.get((0, r)) for r in range(rows)])
            + misses(cut, hole.top, right, [at.get((cols - 1, r)) for r in range(rows)])))
        if widths is not None and heights is not None:
            found = (at, widths, heights)
    game.scratch[key] = found
    return found


def _rectangles(hole, at: dict, widths, heights) -> dict[str, tuple[int, int, int, int]]:
    xs = [hole.left + sum(widths[:c]) for c in range(len(widths))]
    ys = [hole.top + sum(heights[:r]) for r in range(len(heights))]
    return {sid: (xs[c], ys[r], xs[c] + widths[c] - 1, ys[r] + heights[r] - 1) for (c, r), sid in at.items()}


def hole_cells(game, hole) -> dict[str, tuple[int, int, int, int]]:
    """Each space of a hole's part → the map cells its big cell covers (left, top, right, bottom,
    inclusive), as the compact map draws it; {} when it is drawn small instead."""
    shared = _hole_shares(game, hole)
    return {} if shared is None else _rectangles(hole, *shared)


def _stretched(game, hole, marks: dict, numbers: dict, shades: dict, short: dict,
               here: str | None = None) -> list[Text] | None:
    """The lines of a part drawn over the whole of its hole, each of its spaces one big cell: a space of
    the Town Center is bigger than the cells around it and touches every one along its side of the hole,
    so it is drawn that big (a play-test read the small grid in the middle of an empty square as far from
    the boards around it). A big cell's first line is its cell name, its second what is in
    it as on any cell; the part's name goes on a free line of the big cell nearest the middle where it fits. None when a
    row of big cells would be less than two lines high (the part is then drawn small in the middle)."""
    board = game.board
    shared = _hole_shares(game, hole)
    if shared is None:
        return None
    at, widths, heights = shared
    cols, rows = len(widths), len(heights)
    title = re.sub(r"\s*\(.*\)$", "", _part_name(game, hole.grid.rsplit(".", 1)[-1]))
    around = town_layout(game).space_at()
    below = [around.get((x, hole.bottom + 1)) for x in range(hole.left, hole.right + 1)]
    room = {(c, r): wide * (SMALL + 1) - 1 for c, wide in enumerate(widths) for r, high in enumerate(heights)
            if high > 2 and at.get((c, r)) is not None and wide * (SMALL + 1) - 1 >= len(title)}
    # the title on the free line of the big cell nearest the middle that has one wide enough (the Town
    # Center's middle space is the narrowest: its corners are drawn 3 cells across, the middle 2)
    titled = min(room, key=lambda cr: (abs(2 * cr[0] + 1 - cols) + abs(2 * cr[1] + 1 - rows), cr[1], cr[0]), default=None)
    lines, wide_marks = [], {}
    for r, high in enumerate(heights):
        for k in range(high):  # line 0: the cell's name; line 1: what is in it
            line = Text()
            for c, wide in enumerate(widths):
                if c:
                    line.append(*_edge(board, at.get((c - 1, r)), at.get((c, r)))[::2])
                chars, sid = wide * (SMALL + 1) - 1, at.get((c, r))
                if sid is None:
                    piece = Text(" " * chars)
                elif k == 0:
                    piece = Text(sid.rsplit(".", 1)[-1][:chars], style="grey50")
                elif k == 1:  # who is there, with the big cell's room (two Heroes and four Zombies: "Bi Sa Z4")
                    if chars not in wide_marks:
                        wide_marks[chars] = unit_marks(game, False, chars)
                        if here in wide_marks[chars]:  # the unit a question is about, reversed as on any cell
                            wide_marks[chars][here].stylize("reverse")
                    mark = wide_marks[chars].get(sid)
                    need = (len(mark) if mark else 0) + (len(f"{numbers[sid]:>2}") if sid in numbers else 0)
                    piece = _small_cell(game, sid, None, wide_marks[chars], numbers, shades, short, max(SMALL, min(chars, need)))
                elif (c, r) == titled and k == 2:
                    piece = Text(title, style="bold")
                else:
                    piece = Text()
                pad = chars - len(piece)
                piece.pad_left(pad // 2 if k else 0)
                piece.pad_right(pad - (pad // 2 if k else 0))
                if sid is not None and k == high - 1 and at.get((c, r + 1)) is not None:
                    kind = board.edge(sid, at[(c, r + 1)]) or "wall"
                    if kind in UNDERLINES:
                        piece.stylize(UNDERLINES[kind])
                elif sid is not None and k == high - 1 and r == rows - 1:  # the hole's bottom side
                    first = sum(widths[:c])
                    for j, other in enumerate(below[first:first + wide]):  # by the cell below each map column
                        kind = board.edge(sid, other) if other else None  # (when linked: a door, a wall)
                        if kind in UNDERLINES:
                            piece.stylize(UNDERLINES[kind], j * (SMALL + 1), j * (SMALL + 1) + SMALL)
                line.append_text(piece)
            lines.append(line)
    return lines


def _hole_edge(board, a: str | None, b: str | None) -> tuple[str, str, str]:
    """The edge between a cell around a hole and a big cell in it: its kind when the two are linked (the
    Manor House's doors and walls), else drawn open, as the hole's side was before."""
    kind = board.edge(a, b) if a is not None and b is not None else None
    return EDGES[kind] if kind in EDGES else (EDGES["open"][0], EDGES["open"][1], "grey50")


def _board_title(game) -> str:
    """The scenario's board by its title, and how to see each part with its cell names."""
    name = game.model.scenario.get("props", {}).get("board")
    obj = game.model.objects.get(("board", name)) if isinstance(name, str) else None
    return f"{_title(obj, 'the board')} (b: each board with its cell names)"


def _part_title(game, gid: str) -> str:
    """A grid's panel title: the title of the board (part) it is, grid ids end with the board id;
    "The Bank / Gas Station / Junkyard" said "Bank/Gas Station/Junkyard"."""
    part = gid.rsplit(".", 1)[-1]
    place = game.board.places.get(part)  # where a `pick` laid it (LNOE: which quarter of the town)
    return _part_name(game, part) + (f" ({place})" if place else "")


def _part_name(game, part: str) -> str:
    """A board (part) by its title, short: "The Bank / Gas Station / Junkyard" said "Bank/Gas Station/Junkyard"."""
    return _short_part(_called(game, "board", part).replace("_", " "))


def _short_part(title: str) -> str:
    return "/".join(re.sub(r"^The ", "", part.strip()) for part in title.split(" / "))


def side_symbols(game) -> dict[str, tuple[str, str]]:
    """side → (a letter, a style): the side title's first letter not already taken."""
    out: dict[str, tuple[str, str]] = {}
    for i, side in enumerate(game.model.sides):
        taken, title = {letter for letter, _ in out.values()}, _called(game, "side", side).upper()
        letter = next((c for c in title if c.isalpha() and c not in taken), str(i + 1))
        out[side] = (letter, SIDE_STYLES[i % len(SIDE_STYLES)])
    return out


def unit_labels(game) -> dict[str, str]:
    """unit prototype → its label on the board, for the prototypes that are one of a kind (a Hero): the
    initial of its name, or, when several such names (or a side's letter) share the initial, its first two
    letters ("Sh" Sheriff Anderson, "Sa" Sally), then the initials of its first two words ("JC"), then its
    initial and another letter of the name (a leading "The" left out); never a side's letter, never the
    same for two prototypes. A side's rarer kind of many alike (_lesser_kinds) too, by the initials of
    its first two words first ("ZH" Zombie Hero).
    Worked out once a game from every prototype, so a unit entering later changes nobody's label."""
    found = game.scratch.get("human_labels")
    if found is not None:
        return found
    sides = {letter for letter, _ in side_symbols(game).values()}
    named = [u["id"] for u in game.model.units if int(u.get("props", {}).get("count", 1) or 1) == 1]
    lesser = _lesser_kinds(game)
    words = {}
    for proto in named + lesser:  # "The Marksman" by Marksman
        w = re.findall(r"[A-Za-z0-9]+", _unit_name(game, proto)) or [proto]
        words[proto] = w[1:] if len(w) > 1 and w[0].lower() == "the" else w
    initials = Counter(words[proto][0][0].upper() for proto in named)
    found, taken = {}, set(sides)
    for proto in named + lesser:  # a lesser kind (Zombie Hero "ZH"): the initials of its words first
        w = words[proto]
        head = w[0][0].upper()
        two = [w[0][:2].capitalize()] if len(w[0]) > 1 else []
        both = [head + w[1][0].upper()] if len(w) > 1 else []
        tries = both + two if proto in lesser else ([head] if initials[head] == 1 else []) + two + both
        tries += [head + c.lower() for c in "".join(w)[1:] if c.isalpha()]
        tries += [f"{head}{n}" for n in range(2, 1000) if head not in sides and proto not in lesser]
        tries += [f"{head.lower()}{n}" for n in range(2, 1000)]
        found[proto] = _first_free(tries, taken)
    game.scratch["human_labels"] = found
    return found


def _lesser_kinds(game) -> list[str]:
    """The prototypes of units that come many alike but are not their side's commonest (LNOE's Zombie
    Heroes beside its Zombies, NotLD's Fatties beside its Walkers): the side's letter stands for the
    commonest, so these get labels of their own. In model order; the commonest is the prototype with the
    most copies (the first on a tie)."""
    sides: dict[str, list] = {}
    for u in game.model.units:
        count = int(u.get("props", {}).get("count", 1) or 1)
        side = game.model.kinds.get(u.get("unit_kind") or "", {}).get("props", {}).get("side")
        if count > 1 and side:
            sides.setdefault(side, []).append((count, u["id"]))
    out = []
    for protos in sides.values():
        commonest = max(protos, key=lambda p: p[0])[1]  # (max keeps the first of equals)
        out += [proto for _, proto in protos if proto != commonest]
    return out


def unit_label(game, uid) -> str | None:
    """A unit's own label on the board, or None when it is one of its side's commonest units, many alike
    (shown by its side's letter). Units of a lesser kind (_lesser_kinds) share their kind's label."""
    record = game.state["units"].get(str(uid))
    if record is None:
        return None
    labels = unit_labels(game)
    if _many(game, record["proto"]) and record["proto"] not in labels:
        return None
    return labels.get(record["proto"])


class _Marks(dict):
    """unit_marks' answer: space → its units' text. `said`: space → the shorthand its crowded cell uses
    ("named": a unit and the others' count, "counts": each side's count), its text and what it means;
    `drawn`: the spaces whose units a small cell drew (the key explains each shorthand the map shows by
    one cell that uses it)."""

    def __init__(self) -> None:
        super().__init__()
        self.said: dict[str, tuple[str, str, str]] = {}
        self.drawn: set[str] = set()

    def shorthands(self) -> list[tuple[str, str]]:
        """(text, meaning) of the first drawn cell using each shorthand, in the order the board lists them."""
        found: dict[str, tuple[str, str]] = {}
        for space, (kind, text, meaning) in self.said.items():
            if space in self.drawn:
                found.setdefault(kind, (text, meaning))
        return list(found.values())


def unit_marks(game, compact: bool = False, width: int | None = None) -> dict[str, Text]:
    """space → its units: each one of a kind by its own label, the many alike by their side's letter with a
    count ("Sh Jo Z3"; compact: "ShZ3"). Where that does not fit the cell, a side with several units there
    shows its letter and their number instead ("H3"); where even that does not fit, a named unit and the
    others' count ("Be3"), or each side's count alone in its colour ("2·4": 2 Heroes, 4 Zombies; "H2Z4"
    was cropped to "H2Z"). `width`: the characters a cell has (a big cell of the Town Center has more)."""
    symbols = side_symbols(game)
    spaces: dict[str, list] = {}
    order = {side: i for i, side in enumerate(game.model.sides)}  # (sides in one order in every cell: "2·2"
    units_in_order = sorted(game.state["units"].items(), key=lambda item: order.get(item[1]["side"], len(order)))
    for uid, record in units_in_order:  # read Zombies first in one cell and Heroes first in another)
        if record["space"] is not None:
            spaces.setdefault(record["space"], []).append((record["side"], unit_label(game, uid)))
    width = width or (SMALL if compact else CELL)
    marks = _Marks()
    for space, units in spaces.items():
        per_side: dict[str, list] = {}
        for side, label in units:
            per_side.setdefault(side, []).append(label)
        tokens = []  # (text, style) in the order the sides' units come
        for side, labels in per_side.items():
            letter, style = symbols.get(side, ("?", "bold"))
            shared = Counter(label for label in labels if label is not None)  # a lesser kind's label: once, counted
            tokens += [(label + (str(n) if n > 1 else ""), style) for label, n in shared.items()]
            alike = sum(1 for label in labels if label is None)
            if alike:
                tokens.append((letter + (str(alike) if alike > 1 else ""), style))
        joiner = "" if compact else " "
        if len(joiner.join(t for t, _ in tokens)) > width and not compact:
            joiner = ""
        if len(joiner.join(t for t, _ in tokens)) > width:  # crowded: a side's several units as its letter and count
            tokens = []
            for side, labels in per_side.items():
                letter, style = symbols.get(side, ("?", "bold"))
                tokens.append((letter + str(len(labels)), style) if len(labels) > 1 else
                              (labels[0] or letter, style))
            named = [tokens[0]] + [(t[1:] if len(t) > 1 and t[1:].isdigit() else t, st) for t, st in tokens[1:]]
            counts = [(str(len(labels)), symbols.get(side, ("?", "bold"))[1]) for side, labels in per_side.items()]
            dotted = "·".join(t for t, _ in counts)
            if len("".join(t for t, _ in tokens)) <= width or len(tokens) < 2:
                pass
            elif (not tokens[0][0][-1].isdigit() and len(named) == 2 and named[1][0].isdigit()
                  and len("".join(t for t, _ in named)) <= width):
                # a named unit, then the others' count alone, in their side's colour ("Be3")
                tokens = named
                marks.said[space] = ("named", "".join(t for t, _ in tokens), f"{tokens[0][0]} and {len(units) - 1} others")
            else:
                # each side's count alone, in its colour, with a dot between them where it fits ("2·4": "H2Z4"
                # in three characters was cropped to "H2Z"; Billy and a Zombie Hero, "BiZH", to "BiZ")
                tokens, joiner = counts, "·" if len(dotted) <= width else ""
                if len(joiner.join(t for t, _ in tokens)) <= width:  # (a shorthand cropped is not explained)
                    marks.said[space] = ("counts", joiner.join(t for t, _ in tokens), ", ".join(
                        f"{len(labels)} {_called(game, 'side', side)}" for side, labels in per_side.items()))
        text = Text()
        for i, (token, style) in enumerate(tokens):
            text.append(joiner if i else "", style="grey50").append(token, style=style)
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
    words += [f"{m}{'×' + str(n) if n > 1 else ''}" for m, n in markers.items() if n and _shown(game, m)]
    return " ".join(words)


def grid_text(game, gid: str, marks: dict, numbers: dict | None = None) -> Text:
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
                out.append_text(_cell_line(game, at.get((c, r)), line, marks, shades, numbers or {}))
            out.append(*_edge(board, at.get((cols - 1, r)), None)[::2])
            out.append("\n")
    return out.append_text(_border(board, at, rows, cols))


def _edge(board, a: str | None, b: str | None) -> tuple[str, str, str]:
    if a is None and b is None:  # outside the board (the notch of an L-shaped board): nothing drawn
        return " ", " ", ""
    if a is None or b is None:
        return EDGES["open"][0], EDGES["open"][1], "grey50"
    return EDGES.get(board.edge(a, b) or "wall", EDGES["wall"])


def _border(board, at: dict, r: int, cols: int, width: int = CELL) -> Text:
    """The line above row r: each cell's top edge by the kind of edge to the cell above."""
    out = Text()
    for c in range(cols + 1):
        near = [at.get((c + dc, r + dr)) for dc in (-1, 0) for dr in (-1, 0)]
        out.append("·" if any(near) else " ", style="grey50")  # a corner of some cell of the board
        if c < cols:
            _, char, style = _edge(board, at.get((c, r - 1)), at.get((c, r)))
            out.append(char * width, style=style)
    return out


def _cell_line(game, sid: str | None, line: int, marks: dict, shades: dict, numbers: dict | None = None) -> Text:
    if sid is None:
        return Text(" " * CELL)
    text = [Text(sid.rsplit(".", 1)[-1], style="bold"), Text(_tags(game, sid), style="italic"),
            marks.get(sid, Text()).copy()][line]
    if line == 0 and numbers and sid in numbers:
        text.append(" ").append(f"{numbers[sid]:>2}", style=NUMBER_STYLE)
    text.truncate(CELL, overflow="ellipsis", pad=True)
    text.stylize(shades.get(game.board.info[sid].building, ""))
    return text


def grid_compact(game, gid: str, marks: dict, numbers: dict | None = None) -> Text:
    """One grid, one line a row of cells of SMALL characters: the option number of a space if it has
    one, its units, else its building's short name (or `sp` for a spawn point). Walls and doors
    between two cells of a row are drawn between them; between two rows, the cell above is underlined
    (bold for a wall, yellow for a door, blue for a window). Columns and rows are labelled by the cells'
    names (a1 = column a, row 1)."""
    board, numbers = game.board, numbers or {}
    at = {board.info[s].cell: s for s in board.spaces if board.info[s].grid == gid}
    cols, rows = 1 + max(c for c, _ in at), 1 + max(r for _, r in at)
    names = {cell: sid.rsplit(".", 1)[-1] for cell, sid in at.items()}
    col_labels = [next((re.sub(r"\d+$", "", names[(c, r)]) for r in range(rows) if (c, r) in names), "")
                  for c in range(cols)]
    row_labels = [next((re.sub(r"^[A-Za-z]+", "", names[(c, r)]) for c in range(cols) if (c, r) in names), "")
                  for r in range(rows)]
    pad = max(len(x) for x in row_labels) if row_labels else 0
    shades, short, out = _building_styles(game), building_shorts(game), Text(" " * (pad + 1))
    for c in range(cols):
        out.append(f"{col_labels[c][:SMALL]:^{SMALL}} ", style="grey50")
    for r in range(rows):
        out.append("\n").append(f"{row_labels[r]:>{pad}}", style="grey50")
        for c in range(cols):
            out.append(*_edge(board, at.get((c - 1, r)), at.get((c, r)))[::2])
            out.append_text(_small_cell(game, at.get((c, r)), at.get((c, r + 1)), marks, numbers, shades, short))
        out.append(*_edge(board, at.get((cols - 1, r)), None)[::2])
    return out


UNDERLINES = {"wall": "underline bold", "door": "underline bold yellow", "window": "underline bold blue"}


def grid_placed(game, gid: str, marks: dict, numbers: dict, close: bool = True) -> Text | None:
    """One grid turned as the whole map draws it, what is in each cell as on the map, the map's columns
    and rows labelled by the cell names they hold (a grid turned a quarter has its numbers along the top:
    "8 7 6 …"); `close`: its right side drawn (a panel wider than the grid). None when the map does not
    place it (a board of one part, a part in a hole)."""
    layout = town_layout(game) if game.board is not None else None
    board = game.board
    at = {layout.at[s]: s for s in board.spaces if board.info[s].grid == gid and s in layout.at} if layout else {}
    if not at:
        return None
    xs = range(min(x for x, _ in at), max(x for x, _ in at) + 1)
    ys = range(min(y for _, y in at), max(y for _, y in at) + 1)
    parts = {xy: re.fullmatch(r"([A-Za-z]+)(\d+)", sid.rsplit(".", 1)[-1]) for xy, sid in at.items()}

    def label(cells) -> str:  # the letter or number every cell of a map row (column) shares
        found = [parts[xy].groups() for xy in cells if parts.get(xy)]
        for k in (0, 1):
            if found and len({f[k] for f in found}) == 1:
                return found[0][k]
        return ""

    tops = [label([(x, y) for y in ys]) for x in xs]
    sides = [label([(x, y) for x in xs]) for y in ys]
    pad = max(len(side) for side in sides)
    shades, short = _building_styles(game), building_shorts(game)
    out = Text(" " * (pad + 1))
    out.append(" ".join(f"{top[:SMALL]:^{SMALL}}" for top in tops), style="grey50")
    for y, side in zip(ys, sides):
        out.append("\n").append(f"{side:>{pad}}", style="grey50")
        for x in xs:
            out.append(*_edge(board, at.get((x - 1, y)), at.get((x, y)))[::2])
            out.append_text(_small_cell(game, at.get((x, y)), at.get((x, y + 1)), marks, numbers, shades, short))
        if close:
            out.append(*_edge(board, at.get((xs[-1], y)), None)[::2])
    return out


def _small_cell(game, sid, below, marks, numbers, shades, short, width: int = SMALL) -> Text:
    if sid is None:
        return Text(" " * width)
    board, cell = game.board, Text()
    building = board.info[sid].building
    crowded = None  # the style of a number beside which who is there does not fit
    if sid in numbers:
        # (a one-digit number beside someone leaves them two characters, "8Z2": a play-test lost the count
        # of a cell "Z2" drawn "8Z"; where they do not fit whole, the number alone, in the colour of their
        # side: "5S" showed the Sheriff and hid the two Zombies with him)
        number = f"{numbers[sid]:>2}"
        if sid in marks and len(number) + len(marks[sid]) > width:
            number = number.lstrip()
            if len(number) + len(marks[sid]) > width:
                crowded = _crowded_style(game, sid)
                # and a "+" where it fits: the colour alone is lost to a terminal without it (a play-test
                # read "3" and never knew Sally and a Zombie stood there)
                number += CROWDED_MARK if len(number) < width else ""
        cell.append(number, style=crowded or NUMBER_STYLE)
    if sid in marks and crowded is None:
        cell.append_text(marks[sid].copy())
        if isinstance(marks, _Marks):
            marks.drawn.add(sid)
    elif sid not in numbers:
        marker = _space_marker(game, sid)
        if marker is not None:  # what a card or rule put here (a Locked Door, a new Spawning Pit): its letters
            cell.append(_marker_letters(game, marker), style=MARKER_STYLE)
        else:
            cell.append(short.get(building, "") if building else "sp" if sid in board.spawn_points else "",
                        style="italic grey62")
    cell.truncate(width, overflow="crop", pad=True)
    # a spawn point keeps its shade under the Zombies on it (a play-test could not find the pits it had to
    # blow up once Zombies stood on them)
    cell.stylize(shades.get(building, "") if building else SPAWN_STYLE if sid in board.spawn_points else "")
    if sid in numbers:  # the number over the building's shade (black on a dark shade was near invisible;
        # a crowded number's colour, who is there, was lost)
        cell.stylize(crowded or NUMBER_STYLE, 0, len(f"{numbers[sid]:>2}" if crowded is None else number))
    kind = (board.edge(sid, below) or "wall") if below is not None else None
    if kind in UNDERLINES:
        if sid in marks:  # under the units' colours (a door's yellow turned a Hero and the Zombies yellow)
            cell.stylize_before(UNDERLINES[kind])
        else:
            cell.stylize(UNDERLINES[kind])
    return cell


CROWDED_MARK = "+"  # after a choice's number on a cell whose units it hides
SPAWN_STYLE = "on grey42"  # a spawn point's cell (no building's shade is this grey: BUILDING_STYLES)


def _crowded_style(game, sid: str) -> str:
    """A number beside which who is there does not fit: drawn on the colour of their side, on white when
    several sides are there (LNOE: red for Zombies, cyan for Heroes). Every crowded number was red: a play-test could not tell a space of Zombies
    from one of Heroes when choosing where to move."""
    present = {r["side"] for r in game.state["units"].values() if r.get("space") == sid}
    symbols = side_symbols(game)
    sides = [side for side in symbols if side in present]
    if not sides:
        return CROWDED_NUMBER_STYLE
    if len(sides) > 1:  # several sides: white (red read as Zombies alone, and hid Jenny with one)
        return MIXED_NUMBER_STYLE
    colour = symbols[sides[0]][1].split()[-1]
    return f"bold {'black' if colour in ('cyan', 'green', 'yellow') else 'white'} on {colour}"


def _first_free(tries: list[str], taken: set[str]) -> str:
    """The first of the labels tried that nothing has yet, now taken."""
    label = next(t for t in tries if t not in taken)
    taken.add(label)
    return label


MARKER_STYLE = "bold magenta"


def _space_marker(game, sid: str) -> str | None:
    """The latest marker shown (not `hidden`, not the ai's) put on a space, or None: what last happened
    there (a New Spawning Pit blown up read "NS" still, its Destroyed Spawning Pit marker never drawn)."""
    markers = (game.state["spaces"].get(sid) or {}).get("markers") or {}
    return next((m for m, n in reversed(markers.items()) if n and _shown(game, m)), None)


def marker_shorts(game) -> dict[str, str]:
    """marker → two letters for a compact cell ("LD" Locked Door, "NS" New Spawning Pit), unique among
    the markers and apart from the buildings' letters."""
    found = game.scratch.get("human_marker_shorts")
    if found is None:
        found, taken = {}, set(building_shorts(game).values()) | {"sp"}
        names = []
        for block in game.model.system.get("blocks", []):
            applies = block.get("props", {}).get("applies") or "space"
            if block.get("kind") == "marker" and "space" in ([applies] if isinstance(applies, str) else applies):
                names.append(block["id"])
        for marker in names:
            words = [w for w in re.findall(r"[A-Za-z]+", _marker_title(game, marker))] or [marker]
            tries = [(words[0][0] + words[1][0]).upper()] if len(words) > 1 else []
            tries += [words[0][:2].capitalize()] + [(words[0][0] + ch).capitalize() for ch in "".join(words)[1:]]
            tries += [f"{words[0][0].upper()}{n}" for n in range(1, 10)] + [f"M{n}" for n in range(10, 99)]
            found[marker] = _first_free(tries, taken)
        game.scratch["human_marker_shorts"] = found
    return found


def _marker_letters(game, marker: str) -> str:
    """marker_shorts' letters, or the marker's own first two for one no `applies space` declares."""
    return marker_shorts(game).get(marker) or str(marker)[:2].capitalize()


def building_shorts(game) -> dict[str, str]:
    """building → two letters for a compact cell ("Ba" The Bank, "Gy" Gym), unique on the board."""
    found = game.scratch.get("human_shorts")
    if found is None:
        found, taken = {}, set()
        for bid, building in game.board.buildings.items():
            words = [w for w in re.findall(r"[A-Za-z]+", building.title) if w.lower() != "the"] or [bid]
            tries = [words[0][:2].capitalize()]
            tries += [(words[0][0] + words[1][0]).capitalize()] if len(words) > 1 else []
            tries += [(words[0][0] + ch).capitalize() for ch in words[0][2:] + "".join(words[1:])]
            tries += [f"{words[0][0].upper()}{n}" for n in range(1, 10)]
            found[bid] = _first_free(tries, taken)
        game.scratch["human_shorts"] = found
    return found


def zone_view(game, spaces: list[str], marks: dict, numbers: dict | None = None) -> Group:
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
    numbers = numbers or {}
    for sid in rest:
        if sid in marks or _tags(game, sid) or sid in numbers:
            name = Text(sid, style="bold")
            if sid in numbers:
                name = Text.assemble((f"{numbers[sid]:>2}", NUMBER_STYLE), " ", name)
            table.add_row(name, marks.get(sid, Text()), Text(_tags(game, sid), style="italic"))
    bare = [s for s in rest if s not in marks and not _tags(game, s) and s not in numbers]
    return Group(*lines, table, Text(f"also: {', '.join(bare)}", style="grey50") if bare else Text())


def _marker_block(game, marker) -> dict:
    """The system's declaration of a marker ({} for an undeclared one)."""
    return next((b for b in game.model.system.get("blocks", []) if b.get("kind") == "marker" and b["id"] == marker), {})


def _marker_text(game, marker) -> str:
    """A marker's own text, its first sentence only, without its parenthesised asides; "" when it has none."""
    text = str((_marker_block(game, marker).get("props") or {}).get("text") or "")
    return re.sub(r"\s*\([^)]*\)", "", re.split(r"(?<=\.)\s", text, maxsplit=1)[0]).rstrip(".")


def _marker_title(game, marker: str) -> str:
    return _marker_block(game, marker).get("title") or marker.replace("_", " ")


def _building_markers(game) -> bool:
    """Whether a shown marker lies on a building itself (the map's cells do not draw those)."""
    return any(n and _shown(game, marker) for record in (game.state.get("buildings") or {}).values()
               for marker, n in (record.get("markers") or {}).items())


def markers_line(game, buildings_only: bool = False) -> Text | None:
    """The markers on spaces and buildings ("Locked Door: General Store b7"; a marker on every space of a
    building once, "Lights Out: Hospital (every space)"), but for the content's `hidden` bookkeeping and
    the ai policy's own (`ai_…`). `buildings_only`: the markers on buildings themselves alone, which the
    map's cells do not draw (a screen too short for the whole line)."""
    marked: dict[str, list[tuple[str, int]]] = {}
    for place, record in game.state["spaces"].items() if not buildings_only else ():
        for marker, n in (record.get("markers") or {}).items():
            if n and _shown(game, marker):
                marked.setdefault(marker, []).append((place, n))
    where: dict[str, list[str]] = {}
    board = game.board
    for building, record in (game.state.get("buildings") or {}).items():  # a marker on the building itself
        for marker, n in (record.get("markers") or {}).items():
            if n and _shown(game, marker) and board is not None and building in board.buildings:
                where.setdefault(_marker_title(game, marker), []).append(
                    board.buildings[building].title + (f" ×{n}" if n > 1 else ""))
    for marker, places in marked.items():
        names, done = [], set()
        for place, n in places:
            building = board.info[place].building if board is not None and place in board.info else None
            if building and building not in done and n == 1:
                spaces = [s for s in board.spaces if board.info[s].building == building]
                if len(spaces) > 1 and all((p, 1) in places for p in spaces):
                    done.add(building)
                    names.append(f"{board.buildings[building].title} (every space)")
                    continue
            if not (building in done and n == 1):
                names.append(_name(game, "what", place) + (f" ×{n}" if n > 1 else ""))
        where.setdefault(_marker_title(game, marker), []).extend(names)
    if not where:
        return None
    out = Text("Markers: ", style="bold")
    for i, (marker, places) in enumerate(where.items()):
        out.append("  ·  " if i else "", style="grey50").append(f"{marker}: ", style="magenta").append(", ".join(places))
    return out


def legend(game, grids: bool, compact: bool = False, viewer: str | None = None, width: int | None = None,
           numbered: bool = True, roster: bool = True, edges: bool = True, marks: dict | None = None) -> Text:
    """Which letter is which side (and where its units are, but for the `viewer`'s, which their own
    panel lists), the building shades, the edge marks (sides with no unit at all in this game left out).
    What a compact cell may show is explained only when some cell shows it (a crowded cell's shorthand,
    from the `marks` the map was drawn with; option numbers on the board, `numbered`): at 80x24 the map
    and its key just fit."""
    out, symbols = Text(), side_symbols(game)
    present = {r["side"] for r in game.state["units"].values()}
    sides = [(side, letter, style) for side, (letter, style) in symbols.items() if side in present] if roster else []
    for i, (side, letter, style) in enumerate(sides):  # one line for them all (wrapped where it must)
        out.append("  ·  " if i else "", style="grey50").append(letter, style=style)
        units = "your side (c lists them)" if side == viewer else _roster(game, side) or "none on the board"
        out.append(f" {_called(game, 'side', side)}: {units}")
    if sides:
        out.append("\n")
    if grids and game.board.buildings:
        shorts, items = building_shorts(game), []
        for building, shade in _building_styles(game).items():
            items.append(Text.assemble((shorts[building] if compact else "  ", shade + " italic"),
                                       f" {game.board.buildings[building].title}"))
        if compact:
            items.append(Text.assemble(("sp", "italic grey62 " + SPAWN_STYLE), " spawn point"))
            shown = dict.fromkeys(m for sid in game.board.spaces for m in [_space_marker(game, sid)] if m)
            items += [Text.assemble((_marker_letters(game, m), MARKER_STYLE), f" {_marker_title(game, m)}") for m in shown]
            # a crowded cell's shorthand, explained by one cell that uses it ("Ja2 Ja and 2 others",
            # "2·4 2 Heroes, 4 Zombies")
            for shown, meaning in (marks.shorthands() if isinstance(marks, _Marks) else []):
                items.append(Text.assemble((shown, "bold"), f" {meaning}"))
            if numbered:
                items.append(Text.assemble((f"12{CROWDED_MARK}", CROWDED_NUMBER_STYLE), " a choice where someone is (?N)"))
        line = 0
        for item in items:  # a line broken between two names, never inside one
            if line and width and line + 2 + len(item) > width:
                out.append("\n")
                line = 0
            elif line:
                out.append("  ")
                line += 2
            out.append_text(item)
            line += len(item)
        out.append("\n")
    for kind in ("wall", "door", "window") if grids and edges else ():
        out.append(EDGES[kind][1] + EDGES[kind][0], style=EDGES[kind][2]).append(f" {kind}  ")
    if grids and compact and edges:  # one line a row: what lies between a cell and the one below is underlined
        out.append("ab", style=UNDERLINES["wall"]).append(" underlined: a wall below (")
        out.append("door", style="yellow").append(", ").append("window", style="blue").append(")")
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
            label = unit_label(game, units[0][0])  # a rarer kind's shared label (ZH), none for the commonest
            words.append(f"{label + ' ' if label else ''}{_unit_name(game, proto)} ×{len(units)}")
            continue
        (uid, record), = units
        hurt = f" ({record['wounds']}/{record['stats'].get('health', '?')} wounds)" if record.get("wounds") else ""
        label = unit_label(game, uid)
        words.append(f"{label + ' ' if label else ''}{_unit(game, uid)} at {space_name(game, record['space'])}{hurt}")
    return ", ".join(words)
