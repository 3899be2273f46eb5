"""play, sim and replay: logs that validate and reproduce, simulations that do not depend on --jobs."""

from __future__ import annotations

import json

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
    replayed = run("replay", str(log), "-i", pack(write_pack))
    assert replayed.exit_code == 0 and "reproduced" in replayed.output


def test_a_tampered_log_is_not_reproduced(write_pack, tmp_path):
    log = tmp_path / "game.jsonl"
    run("play", "skirmish", "-i", pack(write_pack), "--seed", "4", "--log", str(log))
    lines = log.read_text().splitlines()
    roll = next(i for i, x in enumerate(lines) if '"type":"roll"' in x)
    entry = json.loads(lines[roll])
    entry["values"] = [7 - entry["values"][0]]
    lines[roll] = json.dumps(entry, sort_keys=True, separators=(",", ":"))
    log.write_text("\n".join(lines) + "\n")
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
    assert "events;" not in done.output and "counters:" not in done.output  # the AI's summary, not a person's
    for leaving in ("q\n", ""):                                               # q, and end of input
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
