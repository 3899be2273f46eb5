"""play, sim and replay: logs that validate and reproduce, simulations that do not depend on --jobs."""

from __future__ import annotations

import json
import os

import pytest

from click.testing import CliRunner
from jsonschema import Draft202012Validator

from spawnpit.cli import main
from spawnpit.engine.sim import wilson
from spawnpit.resources import schemas_dir

GAME = """import "system.pit"
using mini
scenario "Skirmish" {
  board yard
  rounds 5
  heroes 1
  counter kills = 0
  on setup { spawn 2 of zombie at b2 }
  on zombie_turn.fight { for each zombie z { if roll(D6) >= 5 { kill z by random(hero) } } }
  on zombie.killed { kills += 1 }
  heroes win when kills >= 2
}
"""


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def pack(write_pack):
    return str(write_pack({"main.pit": GAME}))


def test_play_writes_a_log_that_validates_and_replays(write_pack, tmp_path):
    log = tmp_path / "game.jsonl"
    result = run("play", "skirmish", "-i", pack(write_pack), "--seed", "4", "--log", str(log))
    assert result.exit_code == 0, result.output
    assert "Skirmish:" in result.output and "won in round" in result.output
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    validator = Draft202012Validator(json.loads((schemas_dir() / "log.schema.json").read_text()))
    for entry in lines:
        assert not list(validator.iter_errors(entry)), entry
    assert lines[0]["type"] == "game" and lines[-1]["type"] == "result"
    assert f"  {len(lines) - 1} log entries (" in result.output  # the summary counts what the log holds
    replayed = run("replay", str(log), "-i", pack(write_pack))
    assert replayed.exit_code == 0 and "reproduced" in replayed.output


def _tamper_with_a_roll(log) -> int:
    """The first logged roll turned upside down (1 ↔ 6): the log's line number of it."""
    lines = log.read_text().splitlines()
    roll = next(i for i, x in enumerate(lines) if '"type":"roll"' in x)
    entry = json.loads(lines[roll])
    entry["values"] = [7 - entry["values"][0]]
    lines[roll] = json.dumps(entry, sort_keys=True, separators=(",", ":"))
    log.write_text("\n".join(lines) + "\n")
    return roll


def test_a_tampered_log_is_not_reproduced(write_pack, tmp_path):
    log = tmp_path / "game.jsonl"
    run("play", "skirmish", "-i", pack(write_pack), "--seed", "4", "--log", str(log))
    roll = _tamper_with_a_roll(log)
    result = run("replay", str(log), "-i", pack(write_pack))
    assert result.exit_code == 1 and f"line {roll + 1} differs" in result.output


def test_a_file_that_is_not_a_log_is_a_usage_error(write_pack, tmp_path):
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"hello": 1}\n')
    assert run("replay", str(bad), "-i", pack(write_pack)).exit_code == 2


def test_sim_results_do_not_depend_on_jobs(write_pack):
    one = run("sim", "skirmish", "-n", "40", "--jobs", "1", "--format", "json", "-i", pack(write_pack))
    two = run("sim", "skirmish", "-n", "40", "--jobs", "2", "--format", "json", "-i", pack(write_pack))
    assert one.exit_code == 0 and two.exit_code == 0
    first = json.loads(one.output)
    assert first == json.loads(two.output)
    assert first["games"] == 40 and sum(first["wins"].values()) == 40
    assert set(first["wins"]) <= {"heroes", "none"}
    low, high = first["intervals"]["heroes"]
    assert low <= first["wins"]["heroes"] / 40 <= high


def test_sim_text_report_and_usage_errors(write_pack):
    result = run("sim", "skirmish", "-n", "10", "-i", pack(write_pack))
    assert result.exit_code == 0 and "95% CI" in result.output and "never fired" in result.output
    assert run("sim", "skirmish", "--side", "heroes=human", "-i", pack(write_pack)).exit_code == 2
    assert run("sim", "skirmish", "--side", "pirates=random", "-i", pack(write_pack)).exit_code == 2
    assert run("sim", "nowhere", "-i", pack(write_pack)).exit_code == 2


def test_wilson_interval():
    assert wilson(0, 10)[0] == 0.0 and 0.25 < wilson(0, 10)[1] < 0.35
    low, high = wilson(50, 100)
    assert 0.40 < low < 0.41 and 0.59 < high < 0.60


def test_a_rule_that_fails_outside_a_hook_stops_the_game_without_a_traceback(write_pack, monkeypatch):
    import spawnpit.engine.flow as flow
    from spawnpit.engine.interp import RuleError

    def fails(game, cursor):
        raise RuleError("no such space `q9`")

    monkeypatch.setattr(flow, "_advance", fails)
    result = CliRunner().invoke(main, ["play", "skirmish", "-i", pack(write_pack)])
    assert result.exit_code == 1
    assert "the game stopped: no such space `q9`" in result.output and "Traceback" not in result.output


def test_a_person_playing_sees_a_short_summary_and_can_leave(write_pack):
    runner = CliRunner()
    args = ["play", "skirmish", "--heroes", "human", "-i", pack(write_pack), "--seed", "4"]
    done = runner.invoke(main, args, input="1\n" * 300, catch_exceptions=False)
    assert done.exit_code == 0, done.output
    assert "GAME OVER in round" in done.output and "won in round" in done.output
    assert "log entries" not in done.output and "counters:" not in done.output  # the AI's summary, not a person's
    for leaving in ("q\ny\n", ""):                                            # q (confirmed), and end of input
        left = runner.invoke(main, args, input=leaving, catch_exceptions=False)
        assert left.exit_code == 0 and "game abandoned" in left.output and "Traceback" not in left.output


def test_sim_reports_apart_the_rules_of_cards_no_game_had():
    """Die Zombies, Die! is a Basic Game: the Advanced cards are set aside in the box and other scenarios'
    Search cards are not in its decks, so their rules cannot fire; the report lists them apart from the
    rules that could have fired and did not, and says which goal decided each game."""
    from spawnpit.compiler import compile_paths
    from spawnpit.engine.sim import simulate
    from spawnpit.resources import builtin_paths

    lnoe = compile_paths(builtin_paths()).pack
    summary = simulate(lnoe, "lnoe:die_zombies_die", 4, seed=2)
    assert {"chainsaw", "dynamite", "gasoline", "doc_brody"} <= set(summary.not_in_game)  # Advanced / other scenarios
    assert not set(summary.not_in_game) & set(summary.never_fired)
    assert "black_zone" in summary.never_fired  # an Advanced Game rule of the system: it could be, but never is
    assert all(not rule.startswith(("chainsaw", "gasoline")) for rule in summary.never_fired)
    assert set(summary.causes) <= {"zombies win at sundown", "zombies win when heroes_killed >= 2",
                                   "heroes win when zombies_killed >= 15", "zombies win: Hero Death"}


def test_a_log_that_cannot_be_written_is_refused_before_the_game(write_pack, tmp_path):
    """Not after the game: a person's whole game would be lost, and an internal error shown."""
    blocker = tmp_path / "afile"
    blocker.write_text("not a folder")
    result = run("play", "skirmish", "-i", pack(write_pack), "--log", str(blocker / "game.jsonl"))
    assert result.exit_code == 2 and "cannot write" in result.output and str(blocker) in result.output
    assert "won in round" not in result.output and "internal error" not in result.output
    folder = run("play", "skirmish", "-i", pack(write_pack), "--log", str(tmp_path))
    assert folder.exit_code == 2 and "won in round" not in folder.output


def test_an_existing_log_is_kept_until_the_new_one_is_whole(write_pack, tmp_path, monkeypatch):
    import errno
    from pathlib import Path

    folder = tmp_path / "logs"
    folder.mkdir()
    log = folder / "game.jsonl"
    log.write_text("an older game\n")
    write_bytes = Path.write_bytes

    def disk_full(self, data):  # half the new log goes down, then the disk is full
        if self.parent != folder:
            return write_bytes(self, data)
        write_bytes(self, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    source = pack(write_pack)
    monkeypatch.setattr(Path, "write_bytes", disk_full)
    result = run("play", "skirmish", "-i", source, "--log", str(log))
    assert result.exit_code == 2 and f"cannot write {log}: No space left" in result.output
    assert "Traceback" not in result.output
    assert log.read_text() == "an older game\n" and [p.name for p in folder.iterdir()] == ["game.jsonl"]


def test_an_abandoned_game_keeps_its_log_which_replays_up_to_there(write_pack, tmp_path):
    log = tmp_path / "game.jsonl"
    args = ["play", "skirmish", "--heroes", "human", "-i", pack(write_pack), "--seed", "4", "--log", str(log)]
    left = CliRunner().invoke(main, args, input="1\n" * 3 + "q\ny\n", catch_exceptions=False)
    assert left.exit_code == 0 and "game abandoned" in left.output and str(log) in left.output
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    validator = Draft202012Validator(json.loads((schemas_dir() / "log.schema.json").read_text()))
    assert all(not list(validator.iter_errors(entry)) for entry in lines)
    assert lines[0]["unfinished"] == "abandoned by a player" and lines[-1]["type"] != "result"
    assert sum(1 for e in lines if e["type"] == "choice" and e["side"] == "heroes") >= 3
    replayed = run("replay", str(log), "-i", pack(write_pack))
    assert replayed.exit_code == 0 and f"reproduced: {len(lines) - 1} entries of an unfinished game" in replayed.output
    del lines[0]["unfinished"]  # read as a finished game, the replay plays on past the end: not the same
    log.write_text("".join(json.dumps(e) + "\n" for e in lines))
    assert run("replay", str(log), "-i", pack(write_pack)).exit_code == 1


def test_a_game_the_rules_stop_keeps_its_log(write_pack, tmp_path, monkeypatch):
    import spawnpit.engine.flow as flow
    from spawnpit.engine.interp import RuleError

    advance, calls = flow._advance, []

    def fails_later(game, cursor):
        calls.append(1)
        if len(calls) > 12:
            raise RuleError("no such space `q9`")
        return advance(game, cursor)

    monkeypatch.setattr(flow, "_advance", fails_later)
    log = tmp_path / "game.jsonl"
    result = run("play", "skirmish", "-i", pack(write_pack), "--seed", "4", "--log", str(log))
    assert result.exit_code == 1 and "the game stopped: no such space `q9`" in result.output
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[0]["unfinished"] == "stopped: no such space `q9`" and len(lines) > 1
    calls.clear()
    replayed = run("replay", str(log), "-i", pack(write_pack))
    assert replayed.exit_code == 0 and "entries of an unfinished game (stopped: no such space `q9`)" in replayed.output


def _ctrl_c_after(monkeypatch, steps: int):
    """Ctrl-C pressed after the turn structure has taken `steps` steps (no one being asked anything);
    returns the turn structure's own step, to put back."""
    import spawnpit.engine.flow as flow

    advance, calls = flow._advance, []

    def interrupted(game, cursor):
        calls.append(1)
        if len(calls) > steps:
            raise KeyboardInterrupt
        return advance(game, cursor)

    monkeypatch.setattr(flow, "_advance", interrupted)
    return advance


def test_ctrl_c_on_the_ais_turn_keeps_the_log(write_pack, tmp_path, monkeypatch):
    import spawnpit.engine.flow as flow

    advance = _ctrl_c_after(monkeypatch, 12)
    log = tmp_path / "game.jsonl"
    result = run("play", "skirmish", "-i", pack(write_pack), "--seed", "4", "--log", str(log))
    assert result.exit_code == 130 and "interrupted" in result.output and "Traceback" not in result.output
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[0]["unfinished"] == "interrupted" and len(lines) > 1
    monkeypatch.setattr(flow, "_advance", advance)
    replayed = run("replay", str(log), "-i", pack(write_pack))
    assert replayed.exit_code == 0 and "entries of an unfinished game (interrupted)" in replayed.output, replayed.output
    lines[len(lines) // 2]["edited"] = True  # a log that is not the game's own is still caught
    log.write_text("".join(json.dumps(e) + "\n" for e in lines))
    edited = run("replay", str(log), "-i", pack(write_pack))
    assert edited.exit_code == 1 and "differs" in edited.output


def test_q_asks_before_leaving_and_anything_but_y_plays_on(write_pack):
    args = ["play", "skirmish", "--heroes", "human", "-i", pack(write_pack), "--seed", "4"]
    kept = CliRunner().invoke(main, args, input="q\nn\n" + "1\n" * 300, catch_exceptions=False)
    assert kept.exit_code == 0, kept.output
    assert "Leave this game?" in kept.output and "game abandoned" not in kept.output
    assert "GAME OVER in round" in kept.output


def test_a_very_long_goal_is_cut_short_in_the_summary(write_pack):
    long_goal = GAME.replace("heroes win when kills >= 2", "heroes win when " + " + ".join(["1"] * 400) + " >= 3")
    result = run("play", "skirmish", "-i", str(write_pack({"main.pit": long_goal})))
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert "heroes won in round 0 (Heroes win when 1 + 1" in first and first.endswith("…)") and len(first) < 260


def test_a_built_in_game_log_validates_line_by_line_and_replays(tmp_path):
    """Every line a real LNOE game writes, cards played and cancelled included, fits schemas/log.schema.json
    (the log of the mini fixture never plays a card: the schema lacked play, in_play and cancel)."""
    log = tmp_path / "game.jsonl"
    played = run("play", "die-zombies-die", "--seed", "3", "--log", str(log))
    assert played.exit_code == 0
    assert f"log written to {log} (spawnpit replay {log} plays it again)" in played.output  # where it went
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    validator = Draft202012Validator(json.loads((schemas_dir() / "log.schema.json").read_text()))
    wrong = [(n, e["type"], next(validator.iter_errors(e)).message) for n, e in enumerate(lines, 1)
             if not validator.is_valid(e)]
    assert wrong == []
    assert {"play", "choice", "roll", "result"} <= {e["type"] for e in lines}
    replayed = run("replay", str(log))
    assert replayed.exit_code == 0 and "reproduced" in replayed.output


@pytest.mark.parametrize("damage, line, said", [
    ("header without seed", 1, "'seed' is a required property"),
    ("a line that is a list", 4, "[1, 2] is not of type 'object'"),
    ("a choice without its index", None, "'index' is a required property"),
])
def test_a_damaged_log_is_a_usage_error_naming_the_line(write_pack, tmp_path, damage, line, said):
    log = tmp_path / "game.jsonl"
    run("play", "skirmish", "-i", pack(write_pack), "--seed", "4", "--log", str(log))
    entries = [json.loads(x) for x in log.read_text().splitlines()]
    if damage == "header without seed":
        del entries[0]["seed"]
    elif damage == "a line that is a list":
        entries.insert(3, [1, 2])
    else:
        line = next(n for n, e in enumerate(entries, 1) if e["type"] == "choice")
        del entries[line - 1]["index"]
    log.write_text("".join(json.dumps(e) + "\n" for e in entries))
    result = run("replay", str(log), "-i", pack(write_pack))
    assert result.exit_code == 2 and f"{log}:{line}: not a valid log line" in result.output and said in result.output
    assert "internal error" not in result.output


def test_a_built_pack_whose_board_cannot_be_assembled_is_a_content_error_not_an_internal_one(write_pack, tmp_path):
    """A hand-edited pack.json naming a space its board lacks: `play` says which scenario and why, with
    the usage exit code, not spawnpit's "internal error"."""
    out = tmp_path / "out"
    assert run("build", pack(write_pack), "-o", str(out)).exit_code == 0
    built = json.loads((out / "pack.json").read_text())
    yard = next(o for o in built["objects"] if o["kind"] == "board" and o["id"] == "yard")
    yard["props"]["door"] = [["a1", "z9"]]
    (out / "pack.json").write_text(json.dumps(built))
    result = CliRunner().invoke(main, ["play", "skirmish", "-i", str(out / "pack.json")])
    assert result.exit_code == 2, result.output
    assert "scenario `skirmish`: its board cannot be assembled" in result.output and "z9" in result.output
    assert "internal error" not in result.output


def _waiting_for_a_third_answer(log):
    """`play die-zombies-die --heroes human --log LOG` in a process of its own, answered twice and left
    waiting for its third answer."""
    import subprocess
    import sys
    import threading
    import time

    cmd = [sys.executable, "-m", "spawnpit", "play", "die-zombies-die", "--heroes", "human", "--seed", "3",
           "--log", str(log)]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = []
    threading.Thread(target=lambda: seen.extend(iter(proc.stdout.readline, "")), daemon=True).start()
    proc.stdin.write("1\n1\n")  # two answers, then the game waits for a third
    proc.stdin.flush()
    deadline = time.monotonic() + 90
    while sum(line.startswith("Choose ") for line in list(seen)) < 3 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert proc.poll() is None, "the game ended before it was asked a third time"
    return proc


@pytest.mark.parametrize("names", [["SIGTERM"], ["SIGHUP"], ["SIGHUP", "SIGHUP", "SIGTERM"]])
def test_a_game_killed_or_left_by_its_terminal_keeps_its_log(tmp_path, names):
    """`kill` (SIGTERM) or closing the terminal (SIGHUP) while a person thinks: the log so far is
    written (`unfinished: interrupted by …`), the exit code is 128 + the signal, no traceback, and
    `replay` accepts the log as the start of the game. A closing terminal may send several signals at
    once: the first decides, the others cannot stop the log being written."""
    name = names[0]
    import signal
    import subprocess
    import sys

    log = tmp_path / "game.jsonl"
    proc = _waiting_for_a_third_answer(log)
    for sent in names:  # back to back
        proc.send_signal(getattr(signal, sent))
    proc.stdin.close()
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert proc.returncode == 128 + getattr(signal, name), (proc.returncode, err[-2000:])
    assert "Traceback" not in err and f"interrupted by {name}" in err
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[0]["unfinished"] == f"interrupted by {name}"
    assert sum(1 for e in lines if e.get("type") == "choice" and e.get("side") == "heroes") >= 2
    replayed = subprocess.run([sys.executable, "-m", "spawnpit", "replay", str(log)], capture_output=True, text=True)
    assert replayed.returncode == 0 and f"entries of an unfinished game (interrupted by {name})" in replayed.stdout, replayed


def test_a_game_killed_outright_keeps_the_log_up_to_the_question_it_waited_on(tmp_path):
    """kill -9 (or a crash, or the power going) while a person thinks: no handler runs, yet the log on
    disk holds every answer given, because it is saved before each question. `replay` reproduces it as the
    start of the game and `resume` goes on from the question the game was waiting on."""
    import signal
    import subprocess
    import sys

    log = tmp_path / "game.jsonl"
    proc = _waiting_for_a_third_answer(log)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    proc.stdin.close()
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[0]["unfinished"] == "interrupted: saved while the game was being played"
    assert sum(1 for e in lines if e.get("type") == "choice" and e.get("side") == "heroes") == 2
    assert not list(tmp_path.glob(".*.tmp"))  # (the last save was whole: nothing half-written beside it)
    replayed = subprocess.run([sys.executable, "-m", "spawnpit", "replay", str(log)], capture_output=True, text=True)
    assert replayed.returncode == 0 and "entries of an unfinished game (interrupted: saved" in replayed.stdout, replayed
    resumed = subprocess.run([sys.executable, "-m", "spawnpit", "resume", str(log)], input="1\nq\ny\n",
                             capture_output=True, text=True)
    assert resumed.returncode == 0 and "game abandoned" in resumed.stderr + resumed.stdout, resumed
    again = [json.loads(x) for x in log.read_text().splitlines()]
    assert again[0]["unfinished"] == "abandoned by a player" and again[1:len(lines)] == lines[1:]
    assert sum(1 for e in again if e.get("type") == "choice" and e.get("side") == "heroes") == 3


def test_a_log_that_cannot_be_saved_as_the_game_goes_is_said_once_tried_again_and_written_at_the_end(write_pack, tmp_path,
                                                                                        monkeypatch):
    from spawnpit import cli

    log, tries, saved, real = tmp_path / "game.jsonl", [], [], cli._replace

    def failing(out, data, durable=False):
        if b"saved while the game was being played" in data and len(tries) < 3:  # (full for a moment)
            tries.append(out)
            raise OSError(28, "No space left on device")
        if b"saved while the game was being played" in data:
            saved.append(durable)  # (on the disk before it takes the log's place: fsync)
        real(out, data, durable)

    monkeypatch.setattr(cli, "_replace", failing)
    args = ["play", "skirmish", "--heroes", "human", "-i", pack(write_pack), "--seed", "4", "--log", str(log)]
    result = CliRunner().invoke(main, args, input="1\n" * 300, catch_exceptions=False)
    assert result.exit_code == 0 and "GAME OVER in round" in result.output
    assert len(tries) == 3 and result.output.count("cannot save the game as it goes") == 1
    assert saved and all(saved)  # the questions after tried again, and saved, durably
    assert "No space left on device" in result.output
    head = json.loads(log.read_text().splitlines()[0])
    assert "unfinished" not in head and any('"type":"result"' in x for x in log.read_text().splitlines())


def test_a_game_left_and_resumed_is_the_game_played_through(write_pack, tmp_path):
    """`resume LOG` plays the logged answers again, checks the game against the log, and hands each side
    back to its player: a person who quit after three answers and answers on is in the very game they
    would have played without leaving (the same log, line for line), and can leave and resume again."""
    whole, parts = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl"
    args = ["play", "skirmish", "--heroes", "human", "-i", pack(write_pack), "--seed", "4"]
    done = CliRunner().invoke(main, [*args, "--log", str(whole)], input="1\n" * 300, catch_exceptions=False)
    assert done.exit_code == 0
    left = CliRunner().invoke(main, [*args, "--log", str(parts)], input="1\n" * 3 + "q\ny\n", catch_exceptions=False)
    assert left.exit_code == 0 and json.loads(parts.read_text().splitlines()[0])["unfinished"] == "abandoned by a player"
    first = parts.read_text().splitlines()[1:]
    again = CliRunner().invoke(main, ["resume", str(parts), "-i", pack(write_pack)], input="1\nq\ny\n",
                               catch_exceptions=False)
    assert again.exit_code == 0 and "resuming mini:skirmish (seed 4)" in again.output and "game abandoned" in again.output
    assert f"to go on with this game later: spawnpit resume {parts} -i {pack(write_pack)}" in again.output
    second = parts.read_text().splitlines()[1:]
    played = whole.read_text().splitlines()[1:]
    assert len(first) < len(second) < len(played)                      # one more answer: the log grows
    assert second[:len(first)] == first and played[:len(second)] == second
    finished = CliRunner().invoke(main, ["resume", str(parts), "-i", pack(write_pack)], input="1\n" * 300,
                                  catch_exceptions=False)
    assert finished.exit_code == 0 and "GAME OVER in round" in finished.output
    assert parts.read_text() == whole.read_text()                       # the game played through
    over = run("resume", str(parts), "-i", pack(write_pack))
    assert over.exit_code == 2 and "that game is over" in over.output


def test_a_log_these_rules_do_not_play_is_not_resumed_and_not_overwritten(write_pack, tmp_path):
    log = tmp_path / "game.jsonl"
    args = ["play", "skirmish", "--heroes", "human", "-i", pack(write_pack), "--seed", "4", "--log", str(log)]
    CliRunner().invoke(main, args, input="1\n" * 3 + "q\ny\n", catch_exceptions=False)
    roll = _tamper_with_a_roll(log)
    before = log.read_text()
    result = CliRunner().invoke(main, ["resume", str(log), "-i", pack(write_pack)], input="1\n" * 300)
    assert result.exit_code == 1 and f"game.jsonl:{roll + 1} is not what these rules play now" in result.output
    assert "Traceback" not in result.output and log.read_text() == before


def _left_game(write_pack, tmp_path, answers: int = 3):
    log = tmp_path / "game.jsonl"
    args = ["play", "skirmish", "--heroes", "human", "-i", pack(write_pack), "--seed", "4", "--log", str(log)]
    CliRunner().invoke(main, args, input="1\n" * answers + "q\ny\n", catch_exceptions=False)
    return log


def test_a_logged_answer_the_rules_no_longer_offer_or_a_line_they_no_longer_play_leaves_the_log_alone(write_pack, tmp_path):
    """Changed rules that offer fewer options than the log answered, or a log with a line the game never
    plays, are refused at once (at the answer, or where the log's answers run out), never written."""
    log = _left_game(write_pack, tmp_path)
    lines = log.read_text().splitlines()
    first = next(i for i, x in enumerate(lines) if '"type":"choice"' in x)
    entry = json.loads(lines[first])
    entry["index"] = 7
    log.write_text("\n".join([*lines[:first], json.dumps(entry), *lines[first + 1:]]) + "\n")
    before = log.read_text()
    result = CliRunner().invoke(main, ["resume", str(log), "-i", pack(write_pack)], input="1\n" * 300)
    assert result.exit_code == 1 and "the log answers 7 where the game now offers" in result.output
    assert "is left as it was" in result.output and log.read_text() == before and "Traceback" not in result.output
    log.write_text("\n".join([*lines, lines[-1]]) + "\n")             # one line more than the game plays
    before = log.read_text()
    result = CliRunner().invoke(main, ["resume", str(log), "-i", pack(write_pack)], input="1\nq\ny\n")
    assert result.exit_code == 1 and f"game.jsonl:{len(lines) + 1} is not what these rules play now" in result.output
    assert log.read_text() == before


def test_ctrl_c_before_the_resumed_game_is_back_where_it_was_left_keeps_the_log_as_it_was(write_pack, tmp_path, monkeypatch):
    log = _left_game(write_pack, tmp_path)
    before = log.read_text()
    assert json.loads(before.splitlines()[0])["unfinished"] == "abandoned by a player"
    _ctrl_c_after(monkeypatch, 2)
    result = CliRunner().invoke(main, ["resume", str(log), "-i", pack(write_pack)], input="1\n" * 300)
    assert result.exit_code == 130 and "is left as it was" in result.output and log.read_text() == before, result.output


def test_output_piped_to_a_reader_that_went_away_ends_quietly():
    """`spawnpit sim … | head`: when the reader has gone before spawnpit writes, it stops with SIGPIPE's
    exit status (141) and no "internal error" report (before: BrokenPipeError as an internal error)."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "spawnpit", "sim", "die-zombies-die", "-n", "3"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before anything is written
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 141
    assert "internal error" not in err and "Traceback" not in err and "BrokenPipe" not in err, err


def test_a_game_whose_output_is_closed_midway_keeps_its_log(tmp_path):
    """A human game whose screen goes away in the middle (its output piped to a reader that left): the
    log so far is kept, marked interrupted, and it replays as the start of the game."""
    import subprocess
    import sys

    log = tmp_path / "game.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "spawnpit", "play", "die-zombies-die", "--heroes", "human",
                             "--seed", "3", "--log", str(log)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.read(2000)  # the first screen, then the reader goes away
    proc.stdout.close()
    proc.stdin.write(b"1\n" * 50)
    proc.stdin.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 141
    assert "internal error" not in err and "Traceback" not in err and "BrokenPipe" not in err, err
    head = json.loads(log.read_text().splitlines()[0])
    assert head["unfinished"] == "interrupted: the output was closed"
    replayed = subprocess.run([sys.executable, "-m", "spawnpit", "replay", str(log)], capture_output=True, text=True)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def test_the_summary_wraps_between_words_on_a_terminal_and_not_elsewhere(monkeypatch):
    """The play-test's last line was cut mid-word at 80 columns ("(n" / "ow 2))"): on a terminal the summary
    lines wrap between words at its width; piped, they stay whole lines."""
    import shutil
    import sys

    from spawnpit import cli

    line = "Die Zombies, Die!: zombies won in round 8 (Zombies win when heroes killed ≥ 2 (now 2)) and more words"
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False, raising=False)
    assert cli._fitted(line) == line
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(shutil, "get_terminal_size", lambda fallback=(80, 24): os.terminal_size((40, 24)))
    wrapped = cli._fitted(line).split("\n")
    assert len(wrapped) > 1 and all(len(part) <= 40 for part in wrapped)
    assert " ".join(part.strip() for part in wrapped) == line  # nothing cut inside a word


def test_a_game_decided_at_sundown_ends_after_the_last_round_in_the_summary_too(capsys):
    """Session 25 (a play-test): the last screen said "GAME OVER after round 15" and the summary under it
    "zombies won in round 16" (the round after the last opens only to end the game)."""
    from spawnpit import cli
    from spawnpit.compiler import compile_paths
    from spawnpit.engine import new_game, play
    from spawnpit.engine.human import ending
    from spawnpit.engine.policies import POLICIES
    from spawnpit.resources import builtin_paths

    built = compile_paths(builtin_paths()).pack
    for seed in range(60):
        game = new_game(built, "lnoe:die_zombies_die", seed=seed, policies={s: POLICIES["ai"]() for s in ("heroes", "zombies")})
        result = play(game)
        if result["round"] > 15:
            break
    else:
        raise AssertionError("no game of 60 went to sundown")
    cli._summary(game, result, brief=True)
    said = capsys.readouterr().out
    assert f"Die Zombies, Die!: {result['winner']} won after round 15 (" in said and "round 16" not in said
    assert ending(game).plain.startswith("GAME OVER after round 15: ")
