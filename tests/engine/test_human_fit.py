"""A screen cut to the terminal's height: at 80×24 (most terminals' first size) the whole LNOE town map,
the log, the roster, the status, the goals and the question used to be 40-odd lines, so the map
scrolled away before the player read the question. Now each question's screen fits, giving up what
matters least for that question (`engine.human.fitted`), and says what it left out."""

from __future__ import annotations

import itertools
import re
from io import StringIO

import pytest
from rich.console import Console

from spawnpit.compiler import compile_paths
from spawnpit.engine import AIPolicy, new_game, play
from spawnpit.engine.human import HumanPolicy, fitted, prompt, screen, space_numbers
from spawnpit.engine.state import Ref
from spawnpit.resources import builtin_paths


@pytest.fixture(scope="module")
def lnoe() -> dict:
    return compile_paths(builtin_paths()).pack


def _console(height: int, width: int = 80) -> Console:
    return Console(file=StringIO(), width=width, height=height, color_system=None, force_terminal=False)


def _text(con: Console, parts: list) -> str:
    for part in parts:
        con.print(part)
    return con.file.getvalue()


def _setup(lnoe, seed: int = 3):
    """A Die Zombies, Die! game played on to its first Hero Movement question (AI on both sides), and
    that question: (game, label, options)."""
    asked = []

    class Stop(Exception):
        pass

    class Watch(AIPolicy):
        def choose(self, game, side, label, options):
            if side == "heroes" and label.startswith("choose space to move to") and len(options) > 12:
                asked.append((label, options))
                raise Stop
            return super().choose(game, side, label, options)

    for tried in range(seed, seed + 20):  # (the first seed whose game comes to such a question: the ai's
        # changes change the games)
        game = new_game(lnoe, "die-zombies-die", seed=tried, policies={"heroes": Watch(), "zombies": AIPolicy()})
        try:
            play(game)
        except Stop:
            return game, *asked[0]
    raise AssertionError(f"no game of seeds {seed}-{seed + 19} asked where to move among more than 12 spaces")


def test_a_choice_of_spaces_at_80_by_24_keeps_the_numbered_board_and_the_question(lnoe):
    game, label, options = _setup(lnoe)
    numbers = space_numbers(game, options)
    con = _console(24)
    parts = fitted(con, game, "heroes", list(game.entries[-30:]), {"label": label, "options": options},
                   numbers, True, True)
    out = _text(con, parts)
    lines = out.rstrip("\n").split("\n")
    assert len(lines) <= 23  # and a line for the answer
    assert "Small Town" in "".join(lines[:2]) and f"Choose 1-{len(options)} on the board" in "\n".join(lines[-2:])
    assert re.search(r"Heroes — choose a space to move to \(a move of up to \d\)\n", out)  # (the roll, in the question)
    for n in (1, len(options) - (None in options)):  # the first and last numbers are on the map
        assert re.search(rf"│ *{n}[^\d│]*│", out), n
    assert not re.search(r"^ *\d+\. ", out, re.M)  # not listed again under the question
    assert "(left out to fit: m legend, c your side" in out
    whole = _console(24)
    whole.print(screen(game, "heroes", list(game.entries[-30:]), numbers, True, True, width=80))
    assert len(whole.file.getvalue().splitlines()) > 30  # what it was cut from


def test_a_question_that_is_not_about_spaces_gives_up_the_board_for_the_log(lnoe):
    game, _, _ = _setup(lnoe)
    options = ["Search the building", "Move on"]
    con = _console(24)
    parts = fitted(con, game, "heroes", list(game.entries[-30:]), {"label": "choose an option", "options": options},
                   None, True, True)
    out = _text(con, parts)
    assert len(out.rstrip("\n").split("\n")) <= 23
    assert "Small Town" not in out and "(left out to fit: m board" in out
    assert "round " in out  # the log's headings: what just happened
    assert "   1. Search the building" in out and "   2. Move on" in out
    for height in range(24, 34):  # where the legend would fit but not its board: no legend either
        con = _console(height)
        seen = _text(con, fitted(con, game, "heroes", [], {"label": "choose an option", "options": options},
                                 None, True, True))
        assert "Small Town" in seen or "spawn point" not in seen, height


def test_a_tall_terminal_shows_the_screen_whole(lnoe):
    game, label, options = _setup(lnoe)
    numbers = space_numbers(game, options)
    entries = list(game.entries[-30:])
    con = _console(200)
    out = _text(con, fitted(con, game, "heroes", entries, {"label": label, "options": options}, numbers, True, True))
    whole = _console(200)
    whole.print(screen(game, "heroes", entries, numbers, True, True, width=80))
    whole.print(prompt(game, "heroes", label, options, width=80))
    assert out == whole.file.getvalue()
    assert "left out to fit" not in out


def test_a_terminal_too_short_for_the_board_lists_the_spaces(lnoe):
    game, label, options = _setup(lnoe)
    con = _console(14)
    out = _text(con, fitted(con, game, "heroes", list(game.entries[-30:]), {"label": label, "options": options},
                            space_numbers(game, options), True, True))
    assert "╭" not in out and "(left out to fit: m board" in out  # no board drawn
    assert f"Choose 1-{len(options)} (a: the AI" in out  # the spaces listed in columns (not "on the board too")
    assert re.search(r"\b1 [a-h]\d", out)


@pytest.mark.parametrize("side, seed, width", [("heroes", 7, 80), ("zombies", 5, 80), ("heroes", 7, 66), ("zombies", 5, 66)])
def test_every_screen_of_a_whole_game_fits_80_by_24(lnoe, side, seed, width):
    """Played to the end at the terminal's size: each question's screen, from the first line after the
    last answer (or after a one-option question said in a line) to its prompt, is at most 23 lines. At
    66 columns (the map just fits) the note of what was left out and the status line take two lines each:
    they are measured, not assumed one, and give way to the numbered board when they must."""
    con = _console(24, width)
    human = HumanPolicy(console=con, input=lambda: "1", fit=True)
    other = "zombies" if side == "heroes" else "heroes"
    game = new_game(lnoe, "die-zombies-die", seed=seed, policies={side: human, other: AIPolicy()})
    play(game)
    screens, current = [], []
    for line in con.file.getvalue().split("\n"):
        if line.startswith("> "):
            screens.append(current)
            current = []
        elif "(the only" in line or line.strip() in ("choice)", "only choice)"):
            current = []  # said in a line; the screen of the next question starts after it
        else:
            current.append(line)
    assert len(screens) > 30
    tall = [len(s) for s in screens if len(s) > 23]
    assert not tall, tall
    assert sum("Small Town" in "\n".join(s) for s in screens) > 5  # the board does show, where it fits


def test_fitting_is_for_terminals_only():
    """A screen piped elsewhere (not a terminal) is shown whole, as before; `fit` forces either way."""
    assert HumanPolicy(console=_console(24))._fits() is False
    assert HumanPolicy(console=_console(24), fit=True)._fits() is True
    assert HumanPolicy(console=Console(file=StringIO(), force_terminal=True), fit=False)._fits() is False
    assert HumanPolicy(console=Console(file=StringIO(), force_terminal=True))._fits() is True


def test_answers_are_unchanged_by_fitting(lnoe):
    """The same answers give the same game, fitted or not: fitting only changes what is drawn."""
    logs = []
    for fit in (False, True):
        answers = itertools.cycle(["1", "2", "1"])
        human = HumanPolicy(console=_console(24), input=lambda: next(answers), fit=fit)
        game = new_game(lnoe, "die-zombies-die", seed=7, policies={"heroes": human, "zombies": AIPolicy()})
        play(game)
        logs.append(game.entries)
    assert logs[0] == logs[1]


def test_the_markers_cards_put_on_the_table_stay_when_the_legend_goes(lnoe):
    """Lights Out, a Locked Door, a new Spawning Pit: the markers line is kept with the log, before the
    board's legend (the play-test missed a new Spawning Pit the cut screen no longer named)."""
    game, label, options = _setup(lnoe)
    building = next(iter(game.board.buildings))
    game.mark(Ref("building", building), "lights_out", 1, game._plain_ctx())
    con = _console(24)
    out = _text(con, fitted(con, game, "heroes", list(game.entries[-30:]), {"label": label, "options": options},
                            space_numbers(game, options), True, True))
    assert "Markers: Lights Out: " in out and "spawn point" not in out
    assert len(out.rstrip("\n").split("\n")) <= 23


def test_a_screen_where_nothing_changed_is_fitted_too(lnoe):
    """No board drawn, nothing new in the log (only choices), a question taller than the screen: the
    review found it raised KeyError ('status': that screen has none)."""
    game = new_game(lnoe, "die-zombies-die", seed=3)
    con = _console(10, 60)
    ask = {"label": "choose an option", "options": [f"Option {i}" for i in range(8)]}
    out = _text(con, fitted(con, game, "heroes", [{"type": "choice"}], ask, None, False, True))
    assert all(f"{i + 1}. Option {i}" in out for i in range(8))
    assert "nothing changed since the last question" not in out  # given up for the question's sake
    small = {"label": "choose an option", "options": ["Option 0", "Option 1"]}
    con = _console(8, 60)
    out = _text(con, fitted(con, game, "heroes", [{"type": "choice"}], small, None, False, True))
    assert len(out.rstrip("\n").split("\n")) <= 7 and "2. Option 1" in out
