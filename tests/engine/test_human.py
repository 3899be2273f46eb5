"""A person at the terminal: the mini scenario played to the end with scripted answers (wrong ones
asked again), leaving on end of input or Ctrl-C, the board drawn with its spaces and units, and the
same in a real terminal under tmux when it is installed."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from io import StringIO

import pytest
from rich.console import Console

from spawnpit.compiler import compile_paths
from spawnpit.engine import FirstPolicy, new_game, play
from spawnpit.engine.human import HumanPolicy, PlayerQuit, board_view, describe_entry, option_label
from spawnpit.engine.state import Ref

SCENARIO = """import "system.pit"
using mini
scenario "Trial" {
  board yard
  rounds 6
  heroes 1
  counter kills = 0
  on setup { spawn 3 of zombie at b2 }
  on hero_turn.act.start {
    for each hero h {
      may choose space s where adjacent(h.space, s) by heroes { move h to s }
      choose zombie z by heroes { if roll(D6) >= 3 { kill z by h } }
    }
  }
  on zombie.killed by hero { kills += 1 }
  heroes win when kills >= 3
  zombies win at sundown
}
"""
RE_ASK = "is not one of the choices"


@pytest.fixture
def pack_dir(write_pack):
    return write_pack({"main.pit": SCENARIO})


@pytest.fixture
def pack(pack_dir) -> dict:
    result = compile_paths([pack_dir])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    return result.pack


def console() -> Console:
    return Console(file=StringIO(), width=120, color_system=None, force_terminal=False)


def answers(lines, then: str = "1"):
    """An input callable: the lines given, then `then` for ever."""
    it = iter(lines)
    return lambda: next(it, then)


def human_game(pack, input, seed: int = 1):
    human = HumanPolicy(console=console(), input=input)
    return human, new_game(pack, "trial", seed=seed, policies={"heroes": human, "zombies": FirstPolicy()})


def test_a_whole_game_with_wrong_answers_asked_again(pack):
    human, game = human_game(pack, answers(["", "x", "0", "9", "-1", "[/]", " 2 "]))
    result = play(game)
    human.finish(game)
    out = human.console.file.getvalue()
    assert result is not None and result["winner"] == "heroes"
    assert "no answer: type a number from 1 to 2 (q quits)" in out
    assert out.count(RE_ASK) == 5            # x, 0, 9, -1, [/]
    assert "Traceback" not in out
    first = next(e for e in game.entries if e["type"] == "choice")
    assert first["label"] == "choose space" and first["index"] == 1 and first["picked"] is None
    assert "2. pass" in out                  # " 2 " answered the second option, pass
    # the status line: the scenario's counters (tracks and counters only once a rule has changed them)
    assert re.search(rf"Round {result['round']} · hero_turn  │  kills 3\Z", out.rstrip())
    assert "GAME OVER: Heroes wins (heroes win: objective met)" in out


def test_the_screen_shows_board_log_round_and_counters(pack):
    human, game = human_game(pack, answers([]))
    play(game)
    out = human.console.file.getvalue()
    for name in ("a1", "a2", "b1", "b2", "Shed"):
        assert name in out
    assert "Z3" in out                       # three zombies in b2 before the first kill
    assert re.search(r"H Heroes: Alice at (Shed )?a\d", out)  # one of a kind: by name; a space by building
    assert "Z Zombies: Zombie ×3" in out
    assert "Round 1 · hero_turn.act  │  kills 0\n" in out
    assert re.search(r"rolled 1D6: \d \(total \d\)", out)
    assert re.search(r"Zombie \d+ killed in b2 by Alice\b", out)  # many alike: by name and number
    assert re.search(r"Heroes — choose zombie\n\s+1\. Zombie \d+ in b2", out)
    assert re.search(r"\d\. pass\n", out)
    assert "┃" in out or "╏" in out          # the Shed's walls and door


def test_end_of_input_and_ctrl_c_abandon_cleanly(pack):
    def eof():
        raise EOFError

    def ctrl_c():
        raise KeyboardInterrupt

    for reader in (eof, ctrl_c, lambda: None, answers(["q"])):
        human, game = human_game(pack, reader)
        with pytest.raises(PlayerQuit):
            play(game)
        assert game.state["result"] is None


def test_each_prompt_shows_only_the_log_since_the_last(pack):
    human, game = human_game(pack, answers([]))
    play(game)
    out = human.console.file.getvalue()
    kills = [e for e in game.entries if e["type"] == "kill"]
    assert len(kills) == 3
    shown = re.findall(r"Zombie (u\d+) killed in", out)
    assert len(shown) == len(set(shown))     # no kill repeated on a later screen


def test_labels_and_log_lines_read_well(pack):
    game = new_game(pack, "trial", seed=1, policies={"heroes": FirstPolicy(), "zombies": FirstPolicy()})
    play(game)
    alice = next(u for u, r in game.state["units"].items() if r["proto"] == "alice")
    where = game.state["units"][alice]["space"]
    assert option_label(game, Ref("unit", alice)) == f"Alice in {'Shed a1' if where == 'a1' else where}"
    assert option_label(game, Ref("space", "a1")) == "Shed a1"
    zombie = next(u for u, r in game.state["units"].items() if r["proto"] == "zombie")
    assert option_label(game, Ref("unit", zombie)).startswith(f"Zombie {zombie[1:]} in ")
    assert option_label(game, "run") == "run" and option_label(game, None) == "pass"
    assert option_label(game, {"kind": "action", "id": "search", "title": "Search"}) == "Search"
    lines = [describe_entry(game, e) for e in game.entries]
    assert "Alice enters at Shed a1" in lines and "3 × Zombie spawn at b2" in lines
    assert any(line.startswith("Heroes chose Search (") for line in lines)
    assert lines[-1] == "GAME OVER: Heroes wins (heroes win: objective met)"
    assert describe_entry(game, {"type": "roll"}) == "roll"          # odd entries never raise
    assert describe_entry(game, {"type": "new_thing", "x": 1}) == "new_thing: x=1"


def test_a_game_without_a_board_still_draws(pack):
    game = new_game(pack, "trial", seed=1)
    game.board = None
    out = console()
    out.print(board_view(game))
    assert "no board" in out.file.getvalue()


# ---- a real terminal -----------------------------------------------------------------------------

SCRIPT = """
import sys
from spawnpit.compiler import compile_paths
from spawnpit.engine import FirstPolicy, new_game, play
from spawnpit.engine.human import HumanPolicy, PlayerQuit

pack = compile_paths([sys.argv[1]]).pack
game = new_game(pack, "trial", seed=1, policies={"heroes": HumanPolicy(), "zombies": FirstPolicy()})
try:
    result = play(game)
    game.policies["heroes"].finish(game)
    print("RESULT", result["winner"])
except PlayerQuit:
    print("game abandoned")
"""


class Tmux:
    """One tmux server on a private socket, running one command in a 120 × 50 pane."""

    def __init__(self, name: str, command: list[str]) -> None:
        self.base = ["tmux", "-L", name]
        subprocess.run(self.base + ["-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "120", "-y", "50",
                                    shlex.join(command)], check=True)
        subprocess.run(self.base + ["set-option", "-t", "t", "remain-on-exit", "on"], check=True)

    def screen(self) -> str:
        done = subprocess.run(self.base + ["capture-pane", "-p", "-S", "-500", "-t", "t"],
                              capture_output=True, text=True)
        return done.stdout

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"`{text}` never appeared; the pane shows:\n{self.screen()}")

    def keys(self, *keys: str) -> None:
        subprocess.run(self.base + ["send-keys", "-t", "t", *keys], check=True)

    def close(self) -> None:
        subprocess.run(self.base + ["kill-server"], capture_output=True)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt-get install -y tmux)")
def test_playing_in_a_real_terminal(pack_dir, tmp_path):
    script = tmp_path / "play.py"
    script.write_text(SCRIPT)
    for ending in ("play", "ctrl-c"):
        term = Tmux(f"spawnpit-test-{os.getpid()}-{tmp_path.name}-{ending}", [sys.executable, str(script), str(pack_dir)])
        try:
            screen = term.wait_for("(q quits)")
            for text in ("a1", "b2", "Shed", "Z3", "Heroes — choose space", "1. ", "pass"):
                assert text in screen, text
            if ending == "ctrl-c":
                term.keys("C-c")
                assert "Traceback" not in term.wait_for("game abandoned")
                continue
            term.keys("x", "Enter")
            term.wait_for(RE_ASK)
            end = time.monotonic() + 30
            while "RESULT" not in term.screen() and time.monotonic() < end:
                term.keys("1", "Enter")
                time.sleep(0.15)
            screen = term.wait_for("RESULT heroes")
            assert "GAME OVER: Heroes wins" in screen and "Traceback" not in screen
        finally:
            term.close()


def test_lnoe_spaces_heroes_and_the_status_line_read_as_people_say_them():
    from spawnpit.engine import AIPolicy
    from spawnpit.engine.human import space_name, status
    from spawnpit.resources import builtin_paths

    lnoe = compile_paths(builtin_paths()).pack
    game = new_game(lnoe, "die-zombies-die", seed=4, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
    play(game)
    board = game.board
    inside = next(s for s in board.spaces if s.count(".") == 2 and board.info[s].building)
    outside = next(s for s in board.spaces if s.count(".") == 2 and not board.info[s].building)
    assert space_name(game, inside) == f"{board.buildings[board.info[inside].building].title} {inside.rsplit('.', 1)[1]}"
    part = outside.split(".")[1]
    assert space_name(game, outside) == f"{game.model.objects[('board', part)]['title']} {outside.rsplit('.', 1)[1]}"
    hero = next(u for u, r in game.state["units"].items() if r["kind"] == "hero")
    record = game.state["units"][hero]
    named = game.model.objects[("unit", record["proto"])]["title"]  # "Billy", not "The Sheriff's Son"
    assert option_label(game, Ref("unit", hero)).startswith(named + " in ")
    line = status(game).plain
    assert "zombies_killed" in line and "Sun Track" in line
    assert "hero_dice" not in line and "zombie_dice" not in line  # pools of dice are a fight's bookkeeping
    assert "Invasion Track" not in line  # a track no rule of this game touched
