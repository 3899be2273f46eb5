"""A person at the terminal: the mini scenario played to the end with scripted answers (wrong ones
asked again), leaving on end of input or Ctrl-C, the board drawn with its spaces and units, and the
same in a real terminal under tmux when it is installed."""

from __future__ import annotations

import json
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


def human_game(pack, input, seed: int = 1, compact: bool | None = False):
    human = HumanPolicy(console=console(), input=input, compact=compact)
    return human, new_game(pack, "trial", seed=seed, policies={"heroes": human, "zombies": FirstPolicy()})


def test_a_whole_game_with_wrong_answers_asked_again(pack):
    human, game = human_game(pack, answers(["", "x", "00", "9", "-1", "[/]", " 2 "]))  # ("0" alone passes)
    result = play(game)
    human.finish(game)
    out = human.console.file.getvalue()
    assert result is not None and result["winner"] == "heroes"
    assert "no answer: type a number from 1 to 2 (? for help, q quits)" in out
    assert out.count(RE_ASK) == 5            # x, 00, 9, -1, [/]
    assert "Traceback" not in out
    first = next(e for e in game.entries if e["type"] == "choice")
    assert first["label"] == "choose space" and first["index"] == 1 and first["picked"] is None
    assert "2. pass" in out                  # " 2 " answered the second option, pass
    # the status line: the round of how many, the moment by its titles; the goals with their progress
    assert f"Round {result['round']} of 6 · Hero Turn\nGoals: Heroes win when kills ≥ 3 (now 3)  ·  Zombies win at Sundown" in out
    assert "GAME OVER: Heroes won (Heroes win when kills ≥ 3 (now 3))" in out
    assert out.rstrip().endswith(f"GAME OVER in round {result['round']}: Heroes won — Heroes win when kills ≥ 3 (now 3)")


def test_the_screen_shows_board_log_round_and_counters(pack):
    human, game = human_game(pack, answers([]))
    play(game)
    out = human.console.file.getvalue()
    for name in ("a1", "a2", "b1", "b2", "Shed"):
        assert name in out
    assert "Z3" in out                       # three zombies in b2 before the first kill
    assert "H Heroes: your side (c lists them)" in out   # the player's own units are in their panel
    assert re.search(r"^A +Alice +(Shed )?a\d +wounds 0/2 +carries nothing", out, re.M)  # label, name; a space by building
    assert "Z Zombies: Zombie ×3" in out
    assert "Round 1 of 6 · Hero Turn › Act\nGoals: Heroes win when kills ≥ 3 (now 0)" in out
    assert re.search(r"rolled 1D6: \d for Trial", out)   # the roll says which rule rolled (one die: no total)
    assert re.search(r"Zombie \d+ killed in b2 by Alice\b", out)  # many alike: by name and number
    assert re.search(r"^  Kills: [123]$", out, re.M) and "kills is" not in out  # a counter reads as words
    assert not re.search(r"Heroes — Trial \(Alice\): choose a Zombie\n\s+1\.", out)  # Zombies alike in b2: nothing to ask
    assert "Heroes — Trial (Alice): choose a space (or pass)" in out
    assert re.search(r"Heroes — Trial \(Alice\): choose a Zombie: Zombie (×[23]|\d+) in b2(, any one)? \(the only choice\)\n(─|\Z)", out)  # not asked
    lines = out.splitlines()
    only = [i for i, line in enumerate(lines) if line.endswith("(the only choice)")]
    assert only
    for i in only:  # said in a line: no screen (its heading "… to play") since the last question asked
        asked = max(j for j in range(i) if lines[j].startswith("Choose ") or lines[j].endswith("(the only choice)")
                    or j == 0)
        assert not any(" to play " in line for line in lines[asked:i]), lines[asked:i + 1]
    assert "Martians" not in out and "M " not in out  # no side without units in the legend
    assert re.search(r"\d\. pass\n", out)
    assert "┃" in out or "╏" in out          # the Shed's walls and door


def test_end_of_input_and_ctrl_c_abandon_cleanly(pack):
    def eof():
        raise EOFError

    def ctrl_c():
        raise KeyboardInterrupt

    for reader in (eof, ctrl_c, lambda: None, answers(["q", "y"]), answers(["q"], then=None)):
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
    assert option_label(game, Ref("unit", zombie)).startswith("Zombie 1 in ")  # the first Zombie, not its id
    assert option_label(game, "run") == "run" and option_label(game, None) == "pass"
    assert option_label(game, {"kind": "action", "id": "search", "title": "Search"}) == "Search"
    lines = [describe_entry(game, e) for e in game.entries]
    assert "Alice enters at Shed a1" in lines and "3 × Zombie spawn at b2" in lines
    assert any(line.startswith("Heroes chose Search (") for line in lines)
    assert lines[-1] == "GAME OVER: Heroes won (Heroes win when kills ≥ 3 (now 3))"  # the goal as the goals line reads it
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
            screen = term.wait_for("q quits)")
            for text in ("Yard", "Sh Shed", "Z3", "Heroes — Trial (Alice): choose a space", "1. ", "pass"):
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
            assert "GAME OVER in round 4: Heroes won" in screen and "Traceback" not in screen
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
    title = game.model.objects[("board", part)]["title"]        # "The Bank / Gas Station / Junkyard"
    short = "/".join(p.strip().removeprefix("The ") for p in title.split(" / "))
    assert space_name(game, outside) == f"{short} {outside.rsplit('.', 1)[1]}"   # "Bank/Gas Station/Junkyard d3"
    hero = next(u for u, r in game.state["units"].items() if r["kind"] == "hero")
    record = game.state["units"][hero]
    named = game.model.objects[("unit", record["proto"])]["title"]  # "Billy", not "The Sheriff's Son"
    assert option_label(game, Ref("unit", hero)).startswith(named + " in ")
    line = status(game).plain
    assert "Heroes win when zombies killed ≥ 15 (now " in line and "Sun Track" in line
    assert "hero_dice" not in line and "zombie_dice" not in line  # pools of dice are a fight's bookkeeping
    assert "ai_hunt" not in line and "move_roll" not in line and "zombie_cards_passed" not in line
    assert "Invasion Track" not in line  # a track no rule of this game touched


# ---- commands, numbered spaces, the screens of a Last Night on Earth game -------------------------

def test_commands_show_things_without_answering(pack):
    human, game = human_game(pack, answers(["?", "?2", "?7", "b", "c", "l", "o", "1"]))
    play(game)
    out = human.console.file.getvalue()
    first = next(e for e in game.entries if e["type"] == "choice")
    assert first["label"] == "choose space" and first["index"] == 0   # the commands answered nothing
    assert "?N  explain option N" in out                             # ? is the help
    assert "2. pass\nPass: do nothing here." in out                  # ?2 explains the second option
    assert "there is no option 7" in out
    assert out.count("Choose 1 or 0 to pass, for: Trial (Alice): choose a space (or pass)") == 7  # after each command
    assert out.count("╭─") >= 2 and "Alice  Shed a1  wounds 0/2" in out  # b: the board again, c: your side
    assert "Goals: Heroes win when kills ≥ 3 (now 0)" in out


def test_the_spaces_of_a_choice_carry_their_numbers_on_the_board(pack):
    game = new_game(pack, "trial", seed=1)
    game.state["units"]  # the board exists before setup
    out = console()
    out.print(board_view(game, {"a2": 1, "b2": 12}, compact=False))
    text = out.file.getvalue()
    assert re.search(r"│a2  1 +│", text) and re.search(r"│b2 12 +│", text)
    out = console()
    out.print(board_view(game, {"a2": 1, "b2": 12}, compact=True))
    text = out.file.getvalue()
    assert re.search(r"│2│ 1 │12 │", text)                           # compact: the number fills the cell
    assert "   a   b" in text                                          # columns and rows labelled


@pytest.fixture(scope="module")
def lnoe():
    from spawnpit.resources import builtin_paths

    return compile_paths(builtin_paths()).pack


def test_a_last_night_on_earth_game_reads_well_at_80_by_24(lnoe):
    from spawnpit.engine import AIPolicy

    con = Console(file=StringIO(), width=80, height=24, color_system=None, force_terminal=False)
    human = HumanPolicy(console=con, input=answers(["b", "b1", "b2", "b3", "b4", "b5"]))  # compact by itself: the board is tall
    game = new_game(lnoe, "die-zombies-die", seed=0, policies={"heroes": human, "zombies": AIPolicy()})
    play(game)
    human.finish(game)
    out = con.file.getvalue()
    assert max(len(line) for line in out.splitlines()) <= 80
    grids = {game.board.info[s].grid for s in game.board.spaces if game.board.info[s].grid}
    tops = [line for line in out.splitlines() if line.startswith("╭")]
    whole = [t for t in tops if "Small Town (b: each board with its cell names)" in t]
    assert len(whole) > 10 and all(len(t) <= 67 for t in whole)       # the whole town, one map a screen
    assert re.search(r"│ *Town Center *│", out)                          # the centre board in its hole
    parts = [t for t in tops if t not in whole]                          # b N: each board, titled, once
    assert "The boards (b N shows one, with its cell names):" in out       # b: too tall for 24 lines, a list
    assert len(parts) == len(grids) == 5 and all("…" not in t for t in parts)
    assert sum(bool(re.search(r" \((north|south)(east|west)\) ", t)) for t in parts) == 4
    for noise in ("ai_hunt", "zombie_cards_passed", "move_roll", "hero_dice", "Martians", "side:heroes", "u7"):
        assert noise not in out, noise
    assert re.search(r"Heroes — \w[\w ]* in [\w .'/]+: Move Action — which action\?\n"
                     r"\s+1\. Move — Up to the rolled number of spaces", out)
    assert "Heroes — Hero Turn: who acts next?" in out
    assert re.search(r"Heroes — [^:\n]+: choose [^\n]+\n  \(\w", out)  # a rule's question, then what the rule says
    heroes = {game.model.objects[("unit", r["proto"])]["title"] for r in game.state["units"].values() if r["kind"] == "hero"}
    asked = set(re.findall(r"Heroes — Hero Movement \(([^)]+)\): choose a space", out))
    assert asked and asked <= heroes                                     # whose move it is, by name
    assert not re.search(r"\((Zombie|u)\d+\):", out)                   # never one of many alike
    assert re.search(r"cards set aside \(Basic Game Cards\): ", out)
    assert re.search(r"^Hand: |carries ", out, re.M)
    assert "Goals: Heroes win when zombies killed ≥ 15 (now " in out
    assert re.search(r"GAME OVER in round \d+: (Heroes|Zombies) won — ", out)


def test_many_spaces_are_listed_in_columns_by_board_part(lnoe):
    from spawnpit.engine.human import prompt

    game = new_game(lnoe, "die-zombies-die", seed=4)
    spaces = [s for s in game.board.spaces if game.board.info[s].grid][:30]
    out = console()
    out.print(prompt(game, "heroes", "choose space", [Ref("space", s) for s in spaces] + [None]))
    text = out.file.getvalue()
    assert "Heroes — choose a space (or pass)" in text
    assert "Choose 1-31 (the numbers are on the board too" in text
    assert len(text.splitlines()) < 20                                 # 31 options, not 31 lines
    assert re.search(r"\b30 \w\d", text) and "31 pass" in text


def test_cards_read_with_where_they_are_and_what_they_say(lnoe):
    from spawnpit.engine import AIPolicy
    from spawnpit.engine.human import option_hint, screen, side_view

    game = new_game(lnoe, "die-zombies-die", seed=4, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
    play(game)
    card = next(c for c, r in game.state["cards"].items() if r["proto"] == "ruuuuuun")
    game.state["cards"][card]["where"] = "side:heroes"
    assert option_label(game, Ref("card", card)) == "Ruuuuuun! (Heroes' hand)"
    assert option_hint(game, Ref("card", card)).startswith("After a movement roll: After rolling to move")
    hero = next(u for u, r in game.state["units"].items() if r["kind"] == "hero" and r["space"])  # a living Hero
    other = next(c for c, r in game.state["cards"].items() if r["proto"] != "ruuuuuun" and r["deck"] == "hero_deck")
    game.state["cards"][other]["where"] = hero
    name = game.model.objects[("card", game.state["cards"][other]["proto"])]["title"]
    assert f"(carried by {game.model.objects[('unit', game.state['units'][hero]['proto'])]['title']})" in \
        option_label(game, Ref("card", other))
    out = console()
    out.print(side_view(game, "heroes", {other}))
    text = out.file.getvalue()
    assert f"{name} (new)" in text and re.search(r"Hand: .*Ruuuuuun!", text)
    out = console()
    out.print(screen(game, "heroes", [], board=False))
    assert "nothing changed since the last question" in out.file.getvalue()


@pytest.mark.parametrize("compact", [True, False])
def test_an_l_shaped_board_is_drawn_as_an_l_not_a_square(lnoe, compact):
    """The cut-out corner of an L-board (e5-h8: no such spaces) is left blank, without the grid lines of
    empty spaces, so a newcomer does not look for spaces that are not there."""
    game = new_game(lnoe, "die-zombies-die", seed=5)
    out = Console(file=StringIO(), width=200, color_system=None)
    out.print(board_view(game, compact=compact, whole=False))
    text = out.file.getvalue()
    if compact:  # one line a row, each board as it lies on the map: its notch four blank cells wide, four rows
        assert len(re.findall(r"[│┃╏┆a-h1-8] {15,}[│┃╏┆]", text)) >= 4 * 4, text
    else:  # cells of 9 characters: the notch has neither grid lines nor corner dots
        assert re.search(r"│d6 +│ {30,}│", text) and "· · " not in text
    assert "underlined: a wall below" in text if compact else "underlined" not in text


def test_a_crowded_small_cell_keeps_the_count_of_the_units_with_a_named_one(lnoe):
    """In the one-line-a-row board a Hero with three Zombies reads `Je3` (the count in the Zombies'
    colour), not `JeZ` with the count cut off; the full board still reads `Je Z3`."""
    from spawnpit.engine.flow import setup
    from spawnpit.engine.human import unit_marks

    game = new_game(lnoe, "die-zombies-die", seed=5)
    setup(game)
    hero = next(u for u, r in game.state["units"].items() if r["kind"] == "hero" and r["proto"] == "jenny")
    space = game.state["units"][hero]["space"]
    for _ in range(3):
        game.add_unit(game.model.protos("zombie")[0], space)
    compact, full = unit_marks(game, True)[space], unit_marks(game, False)[space]
    assert compact.plain == "Je3" and full.plain == "Je Z3"
    zombie_style = next(span.style for span in full.spans if full.plain[span.start:span.end] == "Z3")
    assert any(compact.plain[span.start:span.end] == "3" and span.style == zombie_style for span in compact.spans)


def test_two_copies_of_a_card_in_play_are_told_apart_by_what_each_is_on(lnoe):
    game = new_game(lnoe, "die-zombies-die", seed=5)
    copies = [c for c, r in game.state["cards"].items() if r["proto"] == "locked_door"][:2]
    spaces = [s for s in game.board.spaces if game.board.info[s].building][:2]
    for cid, space in zip(copies, spaces):
        game.state["cards"][cid].update(where="play", status="in_play", target=["space", space])
    labels = [option_label(game, Ref("card", cid)) for cid in copies]
    assert labels[0] != labels[1]
    assert all(label.startswith("Locked Door (in play, on ") for label in labels), labels


def test_a_space_option_names_heroes_and_counts_zombies(lnoe):
    """A space in a list of choices says who is there: a Hero by name, Zombies as `Zombie ×2`, never
    by their numbers (`Zombie 131, Zombie 132`)."""
    from spawnpit.engine.flow import setup
    from spawnpit.engine.human import option_hint, occupants

    game = new_game(lnoe, "die-zombies-die", seed=5)
    setup(game)
    hero = next(u for u, r in game.state["units"].items() if r["proto"] == "jenny")
    space = game.state["units"][hero]["space"]
    empty = next(s for s in game.board.spaces if not any(r["space"] == s for r in game.state["units"].values()))
    game.add_unit(game.model.protos("zombie")[0], empty)
    assert occupants(game, empty) == "Zombie"
    for _ in range(2):
        game.add_unit(game.model.protos("zombie")[0], space)
    assert option_hint(game, Ref("space", space)) == "Jenny, Zombie ×2"
    assert occupants(game, "no such space") == ""


def test_a_flag_reads_yes_or_no_and_stays_off_the_status_line(lnoe):
    """A track whose range is 0-1 (the spawn roll passed, or not) is a yes or a no in the log, and no
    gauge for the status line; the Sun Track stays there."""
    from spawnpit.engine import AIPolicy
    from spawnpit.engine.human import status

    game = new_game(lnoe, "die-zombies-die", seed=3, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
    play(game)
    said = {describe_entry(game, e) for e in game.entries if e["type"] == "track"
            and (e.get("track") or e.get("name")) == "zombie_spawn_count"}
    assert said == {"New Zombies to place: yes", "New Zombies to place: no"}  # (after the spawn roll; cleared once placed)
    sun = next(e for e in game.entries if e["type"] == "track" and (e.get("track") or e.get("name")) == "sun")
    assert re.fullmatch(r"Sun Track is \d+( \(-1\))?", describe_entry(game, sun))
    line = status(game).plain
    assert "Sun Track" in line and "New Zombies to place" not in line


def test_a_run_of_zombie_moves_lists_each_step_with_repeats_counted(lnoe):
    """Many Zombie moves by one rule are one line that still says where each Zombie went (the same step
    by two Zombies once, `×2`), the building or board part not said twice within a step."""
    from spawnpit.engine import AIPolicy
    from spawnpit.engine.human import _step, log_view

    game = new_game(lnoe, "die-zombies-die", seed=3, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
    play(game)
    moves = [e for e in game.entries if e["type"] == "move" and e.get("rule") == "Zombie Movement"]
    first = moves[0]
    at = [e for e in game.entries if e.get("at") == first["at"] and e.get("round") == first["round"]]
    text = log_view(game, at, lines=50, moves=0).plain  # every step (a long run is clipped otherwise)
    line = next(l for l in text.splitlines() if "moves by Zombies (Zombie Movement): " in l)
    run = [e for e in at if e["type"] == "move"]
    assert line.startswith(f"  {len(run)} moves by Zombies")
    for e in run:
        assert _step(game, e) in line
    steps = [_step(game, e) for e in run]
    for step in set(steps):
        n = steps.count(step)
        assert (f"{step} ×{n}" in line) == (n > 1)
    same = next(e for e in game.entries if e["type"] == "move" and e["from"].rsplit(".", 1)[0] == e["to"].rsplit(".", 1)[0]
                and game.board.info[e["from"]].building is None and game.board.info[e["to"]].building is None)
    start = describe_entry(game, same)
    assert re.fullmatch(r".+ moves .+ [a-h]\d → [a-h]\d", start), start  # "Church/Police Station g3 → h4"


def test_a_heros_markers_read_by_their_titles(lnoe):
    from spawnpit.engine.flow import setup
    from spawnpit.engine.human import side_view

    game = new_game(lnoe, "die-zombies-die", seed=5)
    setup(game)
    hero = next(u for u, r in game.state["units"].items() if r["proto"] == "jenny")
    game.state["units"][hero].setdefault("markers", {}).update(no_exchange=1, ai_runner=1)
    out = console()
    out.print(side_view(game, "heroes"))
    text = out.file.getvalue()
    assert "[No Exchange]" in text and "no_exchange" not in text and "ai_runner" not in text


def test_a_scenario_counter_shows_in_words_once_a_rule_changes_it(lnoe):
    """A scenario's own counters reach the status line once a rule has changed them, by their names in
    words ("Truck filled 1"); one no rule changes is a setting (advanced_rules) and stays off, one back
    at 0 leaves it again, and one the scenario calls `hidden` (Fuel pending) never shows."""
    from spawnpit.engine.flow import setup
    from spawnpit.engine.human import status

    game = new_game(lnoe, "escape-in-the-truck", seed=8)
    setup(game)
    # (the status line without the goals: session 30's goal says "escaped in the truck")
    line = status(game, with_goals=False).plain
    assert "dvanced" not in line and "truck" not in line.lower() and "fuel" not in line.lower()
    game.state["counters"]["truck_filled"] = 1
    game.entries.append({"type": "counter", "name": "truck_filled", "value": 1, "round": 1, "at": "hero_turn"})
    line = status(game, with_goals=False).plain
    assert "Truck filled 1" in line and "truck_filled" not in line and "dvanced" not in line
    game.state["counters"]["truck_filled"] = 0  # back at nothing: off the line again
    assert "Truck" not in status(game, with_goals=False).plain
    game.state["counters"]["fuel_pending"] = 1  # the scenario's own bookkeeping (`hidden`): never on it
    game.entries.append({"type": "counter", "name": "fuel_pending", "value": 1, "round": 1, "at": "hero_turn"})
    assert "Fuel" not in status(game, with_goals=False).plain and "Truck filled" not in status(game, with_goals=False).plain


def test_a_long_log_leaves_out_bookkeeping_before_a_roll_or_a_kill(lnoe):
    """More lines than fit: the oldest bookkeeping (discards, markers) is left out first,
    so a roll, a kill or a run of Zombie moves summed up in a line stays, even when as many discards
    followed it; headings go with their last line."""
    from spawnpit.engine.human import _fold, log_view

    game = new_game(lnoe, "die-zombies-die", seed=5)
    cards = list(game.state["cards"])
    entries = [{"type": "roll", "dice": "1D6", "values": [4], "total": 4, "rule": "Ranged Attack", "round": 2, "at": "hero_turn.shoot"},
               *({"type": "discard", "card": c, "round": 2, "at": "zombie_turn.draw_cards"} for c in cards[:30])]
    text = log_view(game, entries, lines=10).plain
    lines = text.splitlines()
    assert len(lines) == 11 and lines[0] == "… 23 log lines left out (l shows more)"
    assert "rolled 1D6: 4 for Ranged Attack" in lines[2] and lines[1].startswith("round 2 · ")
    assert lines[3].startswith("round 2 · ") and lines[-1].endswith("discarded")  # the newest discards stay
    space = next(iter(game.board.spaces))
    spawned = [{"type": "spawn", "count": 2, "kind": "zombie", "space": space, "round": 3, "at": "zombie_turn.place_spawns"},
               *({"type": "discard", "card": c, "round": 3, "at": "zombie_turn.place_spawns"} for c in cards[:30])]
    kept = log_view(game, spawned, lines=5).plain
    assert "2 × Zombie spawn at" in kept and kept.count("discarded") == 3  # a spawn is no bookkeeping
    zombie = game.add_unit(game.model.protos("zombie")[0], space)
    others = [s for s in game.board.spaces if s != space][:5]
    walked = [*({"type": "move", "unit": zombie.id, "from": space, "to": to, "rule": "Zombie Movement", "round": 4,
                 "at": "zombie_turn.move_zombies"} for to in others),
              *({"type": "discard", "card": c, "round": 4, "at": "zombie_turn.fight"} for c in cards[:30])]
    kept = log_view(game, walked, lines=4).plain
    assert "5 moves by Zombies (Zombie Movement)" in kept  # how the Zombies came: a summed-up run is kept
    rows = [("h1", "", None), ("a", "", False), ("r", "", True), ("h2", "", None), ("d", "", False), ("e", "", False)]
    assert _fold(rows, 6) == (rows, 0)
    assert _fold(rows, 5) == ([rows[0], rows[2], rows[3], rows[4], rows[5]], 1)
    assert _fold(rows, 3) == ([rows[0], rows[2]], 3)                   # h2 had nothing left: gone with its lines
    kept, out = _fold(rows, 1)
    assert kept == [] and out == 4


def test_a_goal_a_side_loses_by_reads_lose_on_the_goals_line_and_at_the_end(lnoe):
    from spawnpit.engine.human import ending, objectives_view

    game = new_game(lnoe, "dotz:basic_game", seed=1)
    said = objectives_view(game).plain
    assert "Hero Players win at the last Event card" in said
    assert "Hero Players lose when count(zed in town center) > 0 (now 0)" in said and "win when count" not in said
    lost = next(o for o in game.objectives if o.get("result") == "lose")
    game.state["result"] = {"winner": "zeds", "side": lost["side"], "cause": lost["text"], "round": 3}
    assert ending(game).plain.endswith("Zeds won — Hero Players lose when count(zed in town center) > 0 (now 0)")


def test_goals_joined_by_or_and_goals_written_as_expressions_read_with_their_progress(lnoe):
    from spawnpit.engine.flow import setup
    from spawnpit.engine.human import objectives_view

    game = new_game(lnoe, "save-the-townsfolk", seed=4)
    setup(game)
    said = objectives_view(game).plain
    assert "Zombies win when (dawn ≥ 1 (now 0) and townsfolk held < 4 (now 0)) or heroes killed ≥ 2 (now 0)" in said
    assert "win zombies win" not in said and "night_lost" not in said
    game = new_game(lnoe, "defend-the-manor-house", seed=4)
    setup(game)
    manor = next(s for s in game.board.spaces if game.board.info[s].building == "manor_house_board.manor_house")
    for _ in range(2):
        game.add_unit(game.model.protos("zombie")[0], manor)
    inside = sum(1 for r in game.state["units"].values() if r["side"] == "zombies" and r["space"]
                 and game.board.info[r["space"]].building == "manor_house_board.manor_house")
    assert inside >= 2
    said = objectives_view(game).plain
    assert (f"Zombies win when Zombies in Manor House ≥ 9 (now {inside}) "
            "or when heroes killed ≥ 4 (now 0)") in said                  # as the scenario sheet prints it


def test_a_building_reads_by_its_title_and_its_board(lnoe):
    game = new_game(lnoe, "defend-the-manor-house", seed=4)
    labels = {option_label(game, Ref("building", b)) for b in game.board.buildings}
    assert "Manor House" in labels                                      # the centre board: no quarter
    assert any(re.fullmatch(r"Gas Station \((north|south)(east|west)\)", label) for label in labels), labels
    assert not any("." in label or "_" in label for label in labels)


def test_units_a_player_cannot_tell_apart_are_one_option(lnoe):
    """Three Zombies alike in one space are one option ("Zombie ×3 in …, any one"), whose answer is the
    last of them (session 30: the group keeps its first, and its place in the next question); a wounded one, one in another space, and a Hero stay options of their own; when all
    the options are alike there is nothing to ask."""
    from spawnpit.engine.flow import setup
    from spawnpit.engine.human import alike_options

    game = new_game(lnoe, "die-zombies-die", seed=5)
    setup(game)
    taken = {r["space"] for r in game.state["units"].values()}
    spaces = [s for s in game.board.spaces if s.count(".") == 2 and s not in taken][:2]
    proto = game.model.protos("zombie")[0]
    here = [game.add_unit(proto, spaces[0]) for _ in range(3)]
    there = game.add_unit(proto, spaces[1])
    hurt = game.add_unit(proto, spaces[0])
    game.state["units"][hurt.id]["wounds"] = 1
    hero = Ref("unit", next(u for u, r in game.state["units"].items() if r["kind"] == "hero"))
    options = [here[0], there, here[1], hero, hurt, here[2], None]
    assert alike_options(game, options) == [[0, 2, 5], [1], [3], [4], [6]]
    human = HumanPolicy(console=console(), input=answers(["1"]))
    assert human.choose(game, "heroes", "choose zombie", options) == 5
    text = human.console.file.getvalue()
    assert re.search(r"1\. Zombie ×3 in [^\n]+, any one\n", text) and "5. pass" in text and "6." not in text
    human = HumanPolicy(console=console(), input=answers(["3"]))
    assert human.choose(game, "heroes", "choose zombie", options) == 3  # the Hero: its own index
    human = HumanPolicy(console=console(), input=answers([]))
    assert human.choose(game, "heroes", "choose zombie", [here[1], here[2]]) == 1
    assert re.search(r"Zombie ×2 in [^\n]+, any one \(the only choice\)", human.console.file.getvalue())


def test_the_markers_line_leaves_out_the_ais_and_says_a_whole_building_once(lnoe):
    from spawnpit.engine.human import markers_line

    game = new_game(lnoe, "defend-the-manor-house", seed=2)
    board = game.board
    manor = [s for s in board.spaces if board.info[s].building == "manor_house_board.manor_house"]
    for sid in manor:
        game.state["spaces"].setdefault(sid, {}).setdefault("markers", {})["ai_avoid"] = 1
    assert markers_line(game) is None                                   # the ai policy's own: not shown
    hospital = [s for s in board.spaces if (board.info[s].building or "").endswith(".hospital")]
    bank = next(s for s in board.spaces if (board.info[s].building or "").endswith(".the_bank"))
    for sid in [*hospital, bank]:
        game.state["spaces"].setdefault(sid, {}).setdefault("markers", {})["lights_out"] = 1
    text = markers_line(game).plain
    assert "Hospital (every space)" in text and text.count("Hospital") == 1
    assert re.search(r"The Bank [a-h]\d", text) and "AI" not in text


def test_a_goal_mixing_and_with_or_keeps_its_brackets(lnoe):
    from spawnpit.engine.human import objectives_view
    from spawnpit.generators import text as words

    game = new_game(lnoe, "notld:theyre_afraid_of_fire", seed=1)
    said = objectives_view(game).plain
    assert re.search(r"and \(count\(spawn token in corner 4r\) = 4 \(now 0\) or .+ = 4 \(now 0\)\)", said), said
    a, b, c = ({"name": n} for n in "abc")
    assert words.expr({"op": "and", "args": [a, {"op": "or", "args": [b, c]}]}) == "a and (b or c)"
    assert words.expr({"op": "or", "args": [a, {"op": "or", "args": [b, c]}]}) == "a or b or c"
    assert words.expr({"op": "not", "args": [{"op": "and", "args": [a, b]}]}) == "not (a and b)"


def test_units_that_differ_in_what_a_player_sees_are_not_alike(lnoe):
    from spawnpit.engine.flow import setup
    from spawnpit.engine.human import alike_options

    game = new_game(lnoe, "die-zombies-die", seed=5)
    setup(game)
    taken = {r["space"] for r in game.state["units"].values()}
    space = next(s for s in game.board.spaces if s.count(".") == 2 and s not in taken)
    proto = game.model.protos("zombie")[0]
    units = [game.add_unit(proto, space) for _ in range(4)]
    game.state["units"][units[1].id]["stats"] = {**game.state["units"][units[1].id].get("stats", {}), "health": 9}
    game.state["units"][units[2].id]["mode"] = "burning"
    assert alike_options(game, units) == [[0, 3], [1], [2]]
    for unit in (units[0], units[3]):  # a stat that is a list (a range) is compared, not an error
        game.state["units"][unit.id]["stats"] = {**game.state["units"][unit.id].get("stats", {}), "reach": [1, 2]}
    assert alike_options(game, units) == [[0, 3], [1], [2]]


def test_the_zombie_player_is_told_which_zombie_a_question_is_about(lnoe):
    """Zombie Hunger goes through the Zombies one by one: its questions say which ("the Zombie in Gym
    g3"), and that Zombie stands there; a question about one of the Heroes' units names it."""
    from spawnpit.engine import AIPolicy
    from spawnpit.engine.human import space_name

    con = Console(file=StringIO(), width=100, color_system=None, force_terminal=False)
    human = HumanPolicy(console=con, input=answers([]))
    game = new_game(lnoe, "die-zombies-die", seed=3, policies={"heroes": AIPolicy(), "zombies": human})
    play(game)
    out = con.file.getvalue()
    asked = re.findall(r"^Zombies — Zombie Movement \(the Zombie in ([^)]+?)(?:, marked on the map)?\): choose a space "
                       r"\(or pass\)\n", out, re.M)
    assert asked, "no Zombie Movement question named its Zombie"
    spaces = {space_name(game, s) for s in game.board.spaces}
    assert set(asked) <= spaces
    assert not re.search(r"^Zombies — Zombie Movement: choose a space", out, re.M)


def test_a_lets_the_ai_answer_each_question(lnoe):
    """`a` answers the question as the ai policy would: a Hero player who types `a` every time plays a
    whole game, each answer said ("the AI chooses: …"), and the game is the same each time it is played
    so (the AI's answers depend only on the game). Zombies alike in a space are still one option, so
    where the AI would pick one of them the player is not asked at all."""
    from spawnpit.engine import AIPolicy, ScriptedPolicy
    from spawnpit.engine.human import alike_options

    def game_typing_a():
        human = HumanPolicy(console=console(), input=answers(["a"] * 1000, then=None))  # then: the player leaves
        game = new_game(lnoe, "die-zombies-die", seed=3, policies={"heroes": human, "zombies": AIPolicy()})
        play(game)
        return game, human.console.file.getvalue()

    game, out = game_typing_a()
    again, _ = game_typing_a()
    assert game.state["result"] is not None and game.entries == again.entries

    class Checked:  # replays the Heroes' logged answers; where the player was asked, the AI's answer then
        def __init__(self, logged):
            self.logged, self.asked = list(logged), 0

        def choose(self, game, side, label, options):
            index = self.logged.pop(0)
            if len(alike_options(game, options)) > 1:  # asked (one option alone is said, not asked)
                self.asked += 1
                assert index == AIPolicy().choose(game, side, label, options), label
            return index

    heroes = Checked(e["index"] for e in game.entries if e["type"] == "choice" and e["side"] == "heroes")
    zombies = [e["index"] for e in game.entries if e["type"] == "choice" and e["side"] == "zombies"]
    replay = new_game(lnoe, "die-zombies-die", seed=3, policies={"heroes": heroes, "zombies": ScriptedPolicy(zombies)})
    play(replay)
    assert heroes.asked > 10 and replay.entries == game.entries
    asked = out.count("> a\n")  # each question asked, answered `a`
    assert out.count("the AI chooses: ") == asked > 10 and "is not one of the choices" not in out
    assert "a: the AI's choice" in out


def test_a_roll_into_a_pool_of_dice_is_one_line_without_a_total(lnoe):
    """A fight's dice go into a pool (`roll 2D6 into hero_dice`); the roll and the pool were two lines and
    the roll's total, which means nothing in a fight, was shown. Now one line names the pool and its dice;
    a re-roll added to a pool also says which dice are new. A roll kept as a total keeps its total; one
    die has no total to show."""
    from spawnpit.engine.human import log_view

    game = new_game(lnoe, "die-zombies-die", seed=5)
    at = {"round": 2, "at": "zombie_turn.fight", "rule": "Fight"}
    entries = [{"type": "roll", "dice": "2D6", "values": [2, 6], "total": 8, **at},
               {"type": "counter", "name": "hero_dice", "value": [2, 6], **at},
               {"type": "roll", "dice": "1D6", "values": [5], "total": 5, **at},
               {"type": "counter", "name": "hero_dice", "value": [2, 6, 5], **at},
               {"type": "roll", "dice": "2D6", "values": [3, 4], "total": 7, **at, "rule": "Zombie Spawning"},
               {"type": "roll", "dice": "1D6", "values": [3], "total": 3, **at, "rule": "Zombie Spawning"}]
    lines = log_view(game, entries, lines=20).plain.splitlines()
    assert lines[1:] == ["  hero dice: 2, 6 (2D6 for Fight)", "  hero dice: 2, 6, 5 (1D6: 5 for Fight)",
                         "  rolled 2D6: 3, 4 (total 7) for Zombie Spawning", "  rolled 1D6: 3 for Zombie Spawning"]


def test_a_marker_a_rule_puts_on_and_takes_off_at_one_moment_is_left_out_of_the_log(lnoe):
    """A rule that marks spaces while it asks and clears the marks when done (as Placing New Zombies did
    with its odd Zombies, now hidden bookkeeping; here with a Locked Door marker): while it asks, the mark
    shows; once cleared, neither line is shown, even when the screen's lines hold only the clearing (the
    mark was on the screen before). A marker that stays, or one cleared by another rule or at another
    moment, is still shown."""
    from spawnpit.engine.human import log_view

    game = new_game(lnoe, "die-zombies-die", seed=5)
    pit = sorted(game.board.spawn_points)[0]
    at = {"round": 1, "at": "zombie_turn.place_spawns", "rule": "Placing New Zombies"}
    mark = {"type": "mark", "what": pit, "marker": "locked_door", **at}
    spawn = {"type": "spawn", "count": 1, "kind": "zombie", "space": pit, **at}
    unmark = {"type": "unmark", "what": pit, "marker": "locked_door", **at}
    later = {"type": "unmark", "what": pit, "marker": "locked_door", **at, "round": 2}
    game.entries[:] = [mark, spawn]
    assert "marked Locked Door" in log_view(game, [mark, spawn]).plain  # still placing: shown
    game.entries[:] = [mark, spawn, unmark]
    assert "Locked Door" not in log_view(game, [mark, spawn, unmark]).plain
    assert "Locked Door" not in log_view(game, [unmark]).plain  # the mark was on an earlier screen
    game.entries[:] = [mark, spawn, later]
    assert "marked Locked Door" in log_view(game, [mark, spawn, later]).plain
    assert "no longer Locked Door" in log_view(game, [later]).plain


def test_a_card_played_on_a_card_names_it(lnoe):
    """The play-test read "Zombies play Resilient on c89": a card played on another card (Resilient on the
    Revolver just fired) named it by its id. A card on a unit or a space reads as before."""
    from spawnpit.engine.human import describe_entry

    game = new_game(lnoe, "die-zombies-die", seed=5)
    revolver = next(c for c, r in game.state["cards"].items() if r["proto"] == "revolver")
    resilient = next(c for c, r in game.state["cards"].items() if r["proto"] == "resilient")
    text = describe_entry(game, {"type": "play", "card": resilient, "side": "zombies", "on": revolver})
    assert text.startswith("Zombies play Resilient on Revolver: ")
    pit = sorted(game.board.spawn_points)[0]
    assert " on c" not in describe_entry(game, {"type": "play", "card": resilient, "side": "zombies", "on": pit})


def test_one_unit_s_walk_is_one_line_that_stays(lnoe):
    """Closing In moved several Zombies a few spaces each; their single moves were bookkeeping and left
    out of a long log, so the play-test saw one Zombie of five move. A unit's walk (moves in a row, each
    from where the last ended) is now one line, kept like a roll."""
    from spawnpit.engine.human import log_view
    from tests.engine.lnoe_table import put

    game = new_game(lnoe, "die-zombies-die", seed=5)
    zombie = put(game, "zombie", "town_center.b2")
    cards = list(game.state["cards"])
    at = {"round": 2, "at": "zombie_turn.spawn_roll.start", "rule": "Longer Zombie Moves"}
    walk = [{"type": "move", "unit": zombie.id, "from": "town_center.b2", "to": "town_center.a2", **at},
            {"type": "move", "unit": zombie.id, "from": "town_center.a2", "to": "town_center.a3", **at}]
    entries = [*walk, *({"type": "discard", "card": c, "round": 2, "at": "zombie_turn.spawn_roll.start"}
                        for c in cards[:30])]
    lines = log_view(game, entries, lines=6).plain.splitlines()
    assert any(re.fullmatch(r"  Zombie \d+ moves Town Center b2 → a2 → a3 \(Longer Zombie Moves\)", line)
               for line in lines), lines


def test_a_card_s_numbers_are_shown_with_its_text(lnoe):
    """The play-test found no range in the Revolver's text (its range is data the Ranged Attack reads).
    The `c` view and `?N` on a card give the stats the system declares for cards, titled."""
    from spawnpit.engine.human import cards_view, explain_option
    from spawnpit.engine.state import Ref
    from tests.engine.lnoe_table import put
    from tests.engine.test_lnoe_faq import give

    game = new_game(lnoe, "die-zombies-die", seed=5)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    revolver = give(game, "revolver", sheriff)
    kit = give(game, "first_aid_kit", sheriff)
    assert "Revolver (carried by Sheriff Anderson): [Range 0–3 · To Hit 4+ · Out of Ammo 1] Ranged" in cards_view(game, "heroes").plain
    assert explain_option(game, revolver).splitlines()[-1] == "Range 0–3 · To Hit 4+ · Out of Ammo 1"
    assert explain_option(game, kit).splitlines() == [  # a card without numbers: its text alone
        "type: item", "timing: Before a Hero's fights, or at the end of the Hero Turn",
        "text: Discard to heal a Wound on a Hero in the same space.", "keywords: basic"]


def test_a_three_digit_number_on_a_crowded_cell_says_so_by_its_colour(lnoe):
    """On the compact map a cell is three characters: the play-test's "123" on a Town Center space hid
    the two Zombies there. Such a number is now white on red (the legend says: someone is there)."""
    from spawnpit.engine.human import CROWDED_NUMBER_STYLE, NUMBER_STYLE, _small_cell, legend, unit_marks
    from tests.engine.lnoe_table import put

    game = new_game(lnoe, "die-zombies-die", seed=5)
    here, empty = "town_center.a3", "town_center.c3"
    put(game, "zombie", here)
    marks = unit_marks(game, compact=True)

    def styles(sid, number):
        cell = _small_cell(game, sid, None, marks, {sid: number}, {}, {})
        return cell.plain, {str(span.style) for span in cell.spans}

    assert styles(here, 123) == ("123", {CROWDED_NUMBER_STYLE})
    text, found = styles(here, 12)
    assert text == "12Z" and NUMBER_STYLE in found  # room for the Zombie: the number as usual
    assert styles(empty, 123) == ("123", {NUMBER_STYLE})
    assert "a choice where someone is (?N)" in legend(game, True, compact=True).plain
