"""`spawnpit check --simulate N PATH`: random games of every scenario in PATH, reported as diagnostics at
the scenario's declaration (E0501 rule errors, W0501 objectives never met, W0502 games without a winner,
W0503 scenarios that cannot start), with a summary line per scenario.

The packs are in tests/fixtures/simulate/: one system (system.pit) and one scenario per folder."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from spawnpit.cli import main
from tests.conftest import FIXTURES

SIM = FIXTURES / "simulate"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def as_json(*args: str) -> tuple[int, dict]:
    result = run("check", "--format", "json", *args)
    assert "Traceback" not in result.output
    return result.exit_code, json.loads(result.stdout)


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(FIXTURES.parent.parent)  # shown paths are relative to the repository


def _file(folder: str) -> str:
    return f"tests/fixtures/simulate/{folder}/{folder}.pit"


# ---- the four fixture packs --------------------------------------------------------------------

def test_healthy_scenario_has_no_findings_and_a_summary_line():
    result = run("check", "--simulate", "10", _dir("healthy"))
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert result.stdout.splitlines() == [
        "simulated toss:heads_or_tails: 10 games (seeds 0-9): wins heroes 6, zombies 4",
        "checked 49 lines: ok, 4 rule objects",
    ]


def test_healthy_scenario_json():
    code, data = as_json("--simulate", "10", _dir("healthy"))
    assert code == 0
    assert data["diagnostics"] == [] and data["errors"] == 0 and data["warnings"] == 0
    assert data["simulation"] == [{"scenario": "toss:heads_or_tails", "title": "Heads or Tails", "file": _file("healthy"),
                                   "games": 10, "seeds": [0, 9], "wins": {"heroes": 6, "zombies": 4}, "errors": 0}]


def test_objective_that_can_never_happen_is_a_warning_at_the_scenario():
    code, data = as_json("--simulate", "10", _dir("never"))
    assert code == 0  # warnings only
    assert data["diagnostics"] == [{
        "code": "W0501", "severity": "warning", "file": _file("never"), "line": 5, "col": 1, "end_line": 5,
        "end_col": 26,
        "message": "objective `heroes win when escaped >= 10` was never met in 10 random games (its test never held)",
        "help": "it may only be hard for random players; otherwise nothing in the rules can bring it about",
    }]
    assert data["simulation"][0]["wins"] == {"heroes": 0, "zombies": 10}


def test_objective_warning_in_text_has_file_line_col_and_caret():
    result = run("check", "--simulate", "10", _dir("never"))
    assert result.exit_code == 0
    err = result.stderr
    assert "warning[W0501]: objective `heroes win when escaped >= 10` was never met in 10 random games" in err
    assert f"--> {_file('never')}:5:1" in err
    assert '  5 | scenario "Nowhere to Run" {' in err
    assert "    | ^^^^^^^^^^^^^^^^^^^^^^^^^" in err
    assert "0 errors, 1 warning" in err
    assert "simulated toss:nowhere_to_run: 10 games (seeds 0-9): wins heroes 0, zombies 10" in result.stdout


def test_hook_errors_are_errors_with_seed_rule_and_message():
    code, data = as_json("--simulate", "10", _dir("hook_error"))
    assert code == 1
    found = [(d["code"], d["line"], d["col"], d["message"]) for d in data["diagnostics"]]
    assert found == [
        ("E0501", 6, 1, "a rule failed in 3 of 10 games (seed 5): Haunting (haunting), on round.start: "
                        "no unit of kind `ghost` is declared to spawn"),
        ("E0501", 6, 1, "a rule failed in 5 of 10 games (seed 0): runaway chain of events (events raised inside "
                        "one another over 60 deep); most active rules: echo, haunting, echoes"),
    ]
    assert data["errors"] == 2
    assert data["simulation"][0]["errors"] == 8
    assert data["simulation"][0]["wins"] == {"heroes": 2, "zombies": 0}


@pytest.mark.parametrize("index, stopped", [(0, "no unit of kind `ghost` is declared to spawn"),
                                            (1, "runaway chain of events")])
def test_the_seed_in_an_error_replays_it(index, stopped):
    _, data = as_json("--simulate", "10", _dir("hook_error"))
    command = data["diagnostics"][index]["help"].split("`")[1]
    args = shlex.split(command)
    assert args[:2] == ["spawnpit", "play"]
    result = run(*args[1:])
    assert result.exit_code == 1
    assert "the game stopped: " in result.stderr and stopped in result.stderr


def test_games_out_of_rounds_are_counted_with_a_seed():
    code, data = as_json("--simulate", "10", _dir("out_of_rounds"))
    assert code == 0
    (d,) = data["diagnostics"]
    assert (d["code"], d["line"], d["col"]) == ("W0502", 5, 1)
    assert d["message"] == "9 of 10 games ran out of rounds (seed 0)"
    assert d["help"] == ("`spawnpit play toss:long_night --seed 0 --side heroes=random --side zombies=random "
                         "-i tests/fixtures/simulate/out_of_rounds` replays it")
    assert data["simulation"][0]["wins"] == {"heroes": 1, "zombies": 0, "none": 9}
    replay = run(*shlex.split(d["help"].split("`")[1])[1:])
    assert replay.exit_code == 0 and "nobody won in round 2 (round limit reached)" in replay.stdout


def test_all_four_at_once_are_each_reported_on_their_own_scenario():
    code, data = as_json("--simulate", "10", str(SIM.relative_to(Path.cwd())))
    assert code == 1
    by_file = {}
    for d in data["diagnostics"]:
        by_file.setdefault(d["file"], []).append(d["code"])
    assert by_file == {_file("hook_error"): ["E0501", "E0501"], _file("never"): ["W0501"],
                       _file("out_of_rounds"): ["W0502"]}
    assert [s["scenario"] for s in data["simulation"]] == ["toss:echoes", "toss:heads_or_tails", "toss:long_night",
                                                         "toss:nowhere_to_run"]


# ---- options -----------------------------------------------------------------------------------------

def test_jobs_do_not_change_the_report():
    one = run("check", "--format", "json", "--simulate", "12", str(SIM.relative_to(Path.cwd())))
    two = run("check", "--format", "json", "--simulate", "12", "-j", "2", str(SIM.relative_to(Path.cwd())))
    assert one.exit_code == two.exit_code == 1
    assert one.stdout == two.stdout


def test_seed_moves_the_games():
    result = run("check", "--simulate", "4", "--seed", "100", _dir("healthy"))
    assert "simulated toss:heads_or_tails: 4 games (seeds 100-103)" in result.stdout
    one = run("check", "--simulate", "1", "--seed", "7", _dir("out_of_rounds"))
    assert one.stdout.startswith("simulated toss:long_night: 1 game (seed 7): wins heroes ")


def test_only_scenarios_in_path_are_played():
    """The healthy folder imports the fixture system; the built-in libraries are not simulated either."""
    _, data = as_json("--simulate", "2", _dir("healthy"))
    assert [s["scenario"] for s in data["simulation"]] == ["toss:heads_or_tails"]


def test_no_scenario_in_path():
    result = run("check", "--simulate", "3", str((SIM / "system.pit").relative_to(Path.cwd())))
    assert result.exit_code == 0
    assert "simulated nothing: no scenario is declared in the checked files" in result.stdout


def test_content_with_errors_is_not_simulated(write_pack):
    pack = write_pack({"main.pit": 'using mini\nscenario "S" {\n  board yard\n  on zombie_turn.figth { }\n}\n'})
    result = run("check", "--simulate", "3", str(pack))
    assert result.exit_code == 1
    assert "error[E0203]" in result.stderr and "simulation skipped: the content has errors" in result.stderr
    assert "simulated" not in result.stdout
    code, data = as_json("--simulate", "3", str(pack))
    assert code == 1 and data["simulation"] == []


@pytest.mark.parametrize("args", [["--simulate", "0"], ["--simulate", "x"], ["--simulate", "3", "-j", "0"]])
def test_bad_options_are_usage_errors(args):
    result = run("check", *args, _dir("healthy"))
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_without_simulate_check_is_unchanged():
    result = run("check", _dir("never"))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["checked 51 lines: ok, 4 rule objects"]


# ---- what counts as met, and failures of the engine itself ----------------------------------------------

SHADOWED = """import "../system.pit"
using toss
scenario "Decided by a rule" {
  source "test"
  board yard
  rounds 2
  heroes 1
  rule "Early Dawn" {
    text "The heroes win at the end of the first round."
    on round.end { win heroes }
  }
  heroes win when round >= 1
}
"""


def test_an_objective_that_holds_when_a_rule_ends_the_game_counts_as_met(tmp_path):
    """The rule's `win` decides first, but the objective's test holds then: it is reachable, no W0501."""
    (tmp_path / "pack.toml").write_text('name = "t"\n')
    (tmp_path / "system.pit").write_text((SIM / "system.pit").read_text())
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "main.pit").write_text(SHADOWED)
    code, data = as_json("--simulate", "3", str(tmp_path / "s"))
    assert code == 0, data
    assert data["diagnostics"] == []
    assert data["simulation"][0]["wins"] == {"heroes": 3, "zombies": 0}


def test_an_engine_failure_is_reported_not_raised(monkeypatch):
    import spawnpit.engine.flow as flow

    def broken(game, stop_after_steps=None):
        if game.state["seed"] == 1:
            raise KeyError("boom")
        return real(game, stop_after_steps)

    real = flow.run
    monkeypatch.setattr(flow, "run", broken)
    monkeypatch.setenv("SPAWNPIT_ENGINE", "python")  # the Python engine's flow is the one broken here
    code, data = as_json("--simulate", "3", _dir("healthy"))
    assert code == 1
    (d,) = data["diagnostics"]
    assert d["code"] == "E0501"
    assert d["message"] == "the engine failed in 1 of 3 games (seed 1): KeyError: 'boom'"
    assert d["help"].endswith("(this is a bug in spawnpit: please report it)")


def test_a_scenario_that_cannot_start_is_W0503(monkeypatch):
    import spawnpit.engine as engine

    def refuse(*args, **kwargs):
        raise engine.GameError("the board cannot be assembled")

    monkeypatch.setattr(engine, "new_game", refuse)
    code, data = as_json("--simulate", "3", _dir("healthy"))
    assert code == 0
    (d,) = data["diagnostics"]
    assert (d["code"], d["file"], d["line"]) == ("W0503", _file("healthy"), 5)
    assert d["message"] == "scenario `heads_or_tails` could not be simulated: the board cannot be assembled"
    assert data["simulation"][0]["skipped"] == "the board cannot be assembled"


def test_objectives_are_written_back_as_source():
    from spawnpit.simcheck import objective_text

    assert objective_text({"side": "zombies", "result": "win", "at": "sundown"}) == "zombies win at sundown"
    when = {"op": "and", "args": [
        {"op": "not", "args": [{"call": "any", "args": [{"select": "unit", "var": "g", "in": {"name": "house"},
                                                          "where": {"chain": [{"name": "g"}, "is", {"name": "zombie"}]}}]}]},
        {"op": "or", "args": [{"chain": [{"attr": "size", "of": {"name": "house"}}, "==", {"lit": 0, "type": "int"}]},
                              {"chain": [{"name": "n"}, ">=", {"lit": 2, "type": "int"}]}]}]}
    assert objective_text({"side": "heroes", "result": "lose", "when": when}) == (
        "heroes lose when not any(unit g in house where g is zombie) and (house.size == 0 or n >= 2)")


def _dir(folder: str) -> str:
    return f"tests/fixtures/simulate/{folder}"
