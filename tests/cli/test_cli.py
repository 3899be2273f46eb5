"""The command line: exit codes, renderers, build output, and no tracebacks."""

from __future__ import annotations

import json

from click.testing import CliRunner

from spawnpit import __version__
from spawnpit.cli import main
from tests.conftest import MINI

BROKEN = 'using mini\nscenario "S" {\n  board yard\n  on zombie_turn.figth { draw 1 from hero_deck }\n}\n'


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_version_and_help():
    assert run("--version").output.strip() == f"spawnpit, version {__version__}"
    result = run("--help")
    assert result.exit_code == 0 and "check" in result.output and "build" in result.output


def test_check_clean_pack_exits_zero():
    result = run("check", str(MINI))
    assert result.exit_code == 0
    assert "ok, 8 rule objects" in result.output


def test_check_reports_source_line_caret_and_help(write_pack):
    pack = write_pack({"main.pit": BROKEN})
    result = run("check", str(pack))
    assert result.exit_code == 1
    text = result.output
    assert "error[E0203]: unknown event `zombie_turn.figth`" in text
    assert "main.pit:4:6" in text
    assert "  4 |   on zombie_turn.figth { draw 1 from hero_deck }" in text
    assert "    |      ^^^^^^^^^^^^^^^^" in text
    assert "help: did you mean `zombie_turn.fight`?" in text
    assert "1 error, 0 warnings" in text


def test_check_json_format(write_pack):
    pack = write_pack({"main.pit": BROKEN})
    result = run("check", "--format", "json", str(pack))
    data = json.loads(result.output)
    assert result.exit_code == 1
    assert data["errors"] == 1
    (diag,) = data["diagnostics"]
    assert diag["code"] == "E0203" and diag["line"] == 4 and diag["col"] == 6 and diag["severity"] == "error"


def test_usage_errors_exit_two():
    assert run("check", "/no/such/path").exit_code == 2
    assert run("explain", "E9999").exit_code == 2
    assert run("frobnicate").exit_code == 2


def test_build_writes_validated_deterministic_pack(tmp_path):
    out1, out2 = tmp_path / "a", tmp_path / "b"
    assert run("build", str(MINI), "-o", str(out1)).exit_code == 0
    assert run("build", str(MINI), "-o", str(out2)).exit_code == 0
    first = (out1 / "pack.json").read_bytes()
    assert first == (out2 / "pack.json").read_bytes()
    assert json.loads(first)["systems"]["mini"]["id"] == "mini"


def test_failed_build_writes_nothing_and_keeps_what_was_there(write_pack, tmp_path):
    out = tmp_path / "out"
    assert run("build", str(MINI), "-o", str(out)).exit_code == 0
    before = (out / "pack.json").read_bytes()
    result = run("build", str(write_pack({"main.pit": BROKEN})), "-o", str(out))
    assert result.exit_code == 1
    assert (out / "pack.json").read_bytes() == before


def test_internal_errors_are_reported_without_a_traceback(monkeypatch):
    import spawnpit.compiler as compiler

    def boom(paths, cap=200):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(compiler, "compile_paths", boom)
    result = CliRunner().invoke(main, ["check", str(MINI)])
    assert result.exit_code == 2
    assert "internal error: RuntimeError: kaboom" in result.output
    assert "Traceback" not in result.output


def test_check_with_no_path_uses_the_builtin_content():
    result = run("check")
    assert result.exit_code == 0, result.output
    assert "ok" in result.output
