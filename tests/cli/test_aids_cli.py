"""The aid commands of the command line: formats from extensions, errors as usage errors, build's folder."""

from __future__ import annotations

import json

from click.testing import CliRunner

from spawnpit.cli import main
from tests.conftest import MINI


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_sheet_format_follows_the_extension(tmp_path):
    html, md = tmp_path / "s.html", tmp_path / "s.md"
    assert run("sheet", "last-stand", "-o", str(html), "-i", str(MINI)).exit_code == 0
    assert run("sheet", "Last Stand", "-o", str(md), "-i", str(MINI)).exit_code == 0
    assert html.read_text().startswith("<!DOCTYPE html>") and "Last Stand" in html.read_text()
    assert md.read_text().startswith("# Last Stand")


def test_unknown_scenario_is_a_usage_error_with_a_suggestion(tmp_path):
    result = run("sheet", "last-stnd", "-o", str(tmp_path / "s.html"), "-i", str(MINI))
    assert result.exit_code == 2
    assert "did you mean `last_stand`" in result.output
    assert not (tmp_path / "s.html").exists()


def test_unknown_extension_is_a_usage_error(tmp_path):
    result = run("aid", "mini", "-o", str(tmp_path / "aid.docx"), "-i", str(MINI))
    assert result.exit_code == 2 and "cannot tell the format" in result.output


def test_roster_needs_a_scenario_or_a_pack(tmp_path):
    assert run("roster", "-o", str(tmp_path / "r.md")).exit_code == 2
    result = run("roster", "--pack", str(MINI), "-o", str(tmp_path / "r.md"))
    assert result.exit_code == 0
    text = (tmp_path / "r.md").read_text()
    assert "Darkness (x)" in text and "Used by" in text and "Last Stand" in text


def test_aids_read_a_built_pack_json(tmp_path):
    assert run("build", str(MINI), "-o", str(tmp_path / "out"), "--no-aids").exit_code == 0
    result = run("aid", "mini", "-o", str(tmp_path / "aid.md"), "-i", str(tmp_path / "out" / "pack.json"))
    assert result.exit_code == 0
    assert "Zombie Turn" in (tmp_path / "aid.md").read_text()


def test_a_broken_pack_json_is_a_usage_error(tmp_path):
    bad = tmp_path / "pack.json"
    bad.write_text("{not json")
    assert run("aid", "mini", "-o", str(tmp_path / "a.md"), "-i", str(bad)).exit_code == 2


def test_build_writes_every_aid_and_an_index(tmp_path):
    out = tmp_path / "out"
    result = run("build", str(MINI), "-o", str(out), "--aid-formats", "html,md", "-j", "1")
    assert result.exit_code == 0, result.output
    expected = {"mini/player-aid.html", "mini/special-rules.md", "mini/cards.html",
                "mini/scenarios/last_stand-sheet.html", "mini/scenarios/last_stand-roster.md"}
    written = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert expected <= written
    index = (out / "index.html").read_text()
    for path in expected:
        assert f'href="{path}"' in index
    assert json.loads((out / "pack.json").read_text())["format"] == "spawnpit-pack/1"
