"""The invalid-input corpus: one folder per mistake in tests/fixtures/invalid/, each with a golden.

Every folder is named ``<CODE>_<what is wrong>``, holds a small pack (``pack.toml`` and ``.pit`` files)
that makes the compiler report CODE, and an ``expected.json``: the diagnostics exactly as
``spawnpit check --format json`` prints them, with paths relative to the fixture folder.

Regenerate the goldens after an intended change of a message or span (then review the diff by eye):

    SPAWNPIT_UPDATE_GOLDEN=1 /work/venv/bin/pytest tests/compiler/test_invalid_corpus.py

See tests/fixtures/invalid/README.md.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from spawnpit import render
from spawnpit.cli import main
from spawnpit.codes import CODES
from spawnpit.compiler import compile_paths
from spawnpit.diagnostics import Report
from spawnpit.dsl import MAX_FILE_BYTES

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "invalid"
MINI = CORPUS.parent / "mini"
GOLDEN = "expected.json"
UPDATE = os.environ.get("SPAWNPIT_UPDATE_GOLDEN") == "1"
NAME = re.compile(r"^(?P<code>[EW]\d{4})_[a-z0-9_]+$")
FOLDERS = sorted(p for p in CORPUS.iterdir() if p.is_dir())

# Codes with no fixture folder: E0901 is our own bug (a compiled object failing its schema), tested
# below by calling the validator on a broken pack; the simulation codes (E05xx, W05xx) come from playing
# games, not from compiling, and have their packs in tests/fixtures/simulate/ (tests/cli/test_check_simulate.py).
NO_FIXTURE = {"E0901"} | {code for code in CODES if code[1:3] == "05"}

# Fixtures whose intended code the compiler does not report today. These are compiler bugs, kept
# visible as strict xfails: when one is fixed the test turns XPASS (a failure) and the entry goes.
KNOWN_BUGS: dict[str, str] = {}


def _pad_past_limit(folder: Path) -> None:
    main_pit = folder / "main.pit"
    line = "# " + "padding " * 12 + "\n"
    lines = (MAX_FILE_BYTES - main_pit.stat().st_size) // len(line) + 2
    with main_pit.open("a", encoding="utf-8") as f:
        f.write(line * lines)
    assert main_pit.stat().st_size > MAX_FILE_BYTES


# Fixtures completed at test time in a copy (so that no 1 MiB file is committed).
PREPARE = {"E0004_file_too_large": _pad_past_limit}


def _code(folder: Path) -> str:
    match = NAME.match(folder.name)
    assert match, f"{folder.name}: fixture folders are named CODE_short_name (lower case)"
    return match["code"]


def _param(folder: Path):
    return pytest.param(folder, id=folder.name)


def _workdir(folder: Path, tmp_path: Path) -> Path:
    """The folder to compile: the fixture itself, or a completed copy for the generated ones."""
    prepare = PREPARE.get(folder.name)
    if prepare is None:
        return folder
    work = tmp_path / folder.name
    shutil.copytree(folder, work)
    prepare(work)
    return work


def _relative(path: str, base: Path) -> str:
    if path.startswith("<"):  # <pack>
        return path
    p = Path(path)
    full = (p if p.is_absolute() else Path.cwd() / p).resolve()
    try:
        return full.relative_to(base.resolve()).as_posix()
    except ValueError:
        return Path(os.path.relpath(full, base.resolve())).as_posix()


def _normalise(data: dict, base: Path) -> dict:
    """Paths of spans made relative to the fixture folder (messages already are: we run inside it)."""
    data = copy.deepcopy(data)
    for d in data["diagnostics"]:
        d["file"] = _relative(d["file"], base)
        for label in d.get("labels", ()):
            label["file"] = _relative(label["file"], base)
    return data


def _diagnostics(folder: Path, tmp_path: Path, monkeypatch) -> dict:
    work = _workdir(folder, tmp_path)
    monkeypatch.chdir(work)  # shown paths (and paths inside messages) are relative to the fixture
    result = compile_paths([work])
    return _normalise(json.loads(render.as_json(result.diagnostics, result.dropped)), work)


def _dump(data: dict) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# ---- the corpus ---------------------------------------------------------------------------------

@pytest.mark.parametrize("folder", [_param(f) for f in FOLDERS])
def test_golden(folder: Path, tmp_path, monkeypatch):
    actual = _dump(_diagnostics(folder, tmp_path, monkeypatch))
    golden = folder / GOLDEN
    if UPDATE:
        golden.write_text(actual, encoding="utf-8")
        return
    assert golden.is_file(), f"{folder.name} has no {GOLDEN}; run with SPAWNPIT_UPDATE_GOLDEN=1 and review it"
    assert actual == golden.read_text(encoding="utf-8"), (
        f"{folder.name}: diagnostics differ from {GOLDEN}; if the change is intended, regenerate with "
        "SPAWNPIT_UPDATE_GOLDEN=1 and review the diff")


@pytest.mark.parametrize("folder", [
    pytest.param(f, id=f.name, marks=pytest.mark.xfail(reason=KNOWN_BUGS[f.name], strict=True))
    if f.name in KNOWN_BUGS else _param(f)
    for f in FOLDERS
])
def test_intended_code_is_reported(folder: Path, tmp_path, monkeypatch):
    code = _code(folder)
    found = [d["code"] for d in _diagnostics(folder, tmp_path, monkeypatch)["diagnostics"]]
    assert code in found, f"{folder.name}: expected {code}, got {found}"


@pytest.mark.parametrize("folder", [_param(f) for f in FOLDERS])
def test_fixture_shape(folder: Path):
    """Each fixture is a small pack with a comment saying what is wrong."""
    _code(folder)
    assert (folder / "pack.toml").is_file(), f"{folder.name} has no pack.toml"
    pits = sorted(folder.glob("*.pit"))
    assert pits, f"{folder.name} has no .pit file"
    first_lines = [p.read_bytes().split(b"\n", 1)[0] for p in pits]
    assert any(line.startswith(b"# ") for line in first_lines), \
        f"{folder.name}: start a .pit file with a `# …` comment that says what is wrong"


def test_every_code_has_a_fixture():
    covered = {NAME.match(f.name)["code"] for f in FOLDERS if NAME.match(f.name)}
    missing = sorted(set(CODES) - NO_FIXTURE - covered)
    assert not missing, f"codes without a fixture folder in {CORPUS}: {missing}"


def test_every_fixture_names_a_real_code():
    unknown = sorted(f.name for f in FOLDERS if _code(f) not in CODES)
    assert not unknown, f"fixture folders named after codes that do not exist: {unknown}"


def test_known_bugs_are_fixtures():
    assert set(KNOWN_BUGS) <= {f.name for f in FOLDERS}


# ---- the command line ---------------------------------------------------------------------------

@pytest.mark.parametrize("folder", [_param(f) for f in FOLDERS if f.name not in PREPARE])
def test_cli_check_json_matches_golden_and_exit_status(folder: Path, monkeypatch):
    """`spawnpit check --format json` prints the golden; it exits 1 on errors, 0 on warnings only."""
    golden = json.loads((folder / GOLDEN).read_text(encoding="utf-8"))
    if _code(folder).startswith("W"):
        assert golden["errors"] == 0, f"{folder.name}: a warning fixture must be otherwise clean"
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, ["check", "--format", "json", "."])
    assert result.exit_code == (1 if golden["errors"] else 0), result.output
    assert _normalise(json.loads(result.stdout), folder) == golden


def test_cli_exit_status_for_a_generated_fixture(tmp_path, monkeypatch):
    work = _workdir(CORPUS / "E0004_file_too_large", tmp_path)
    monkeypatch.chdir(work)
    result = CliRunner().invoke(main, ["check", "."])
    assert result.exit_code == 1
    assert "error[E0004]" in result.output


@pytest.mark.parametrize("code", sorted(CODES))
def test_explain_every_code(code: str):
    result = CliRunner().invoke(main, ["explain", code])
    assert result.exit_code == 0, result.output
    kind = "warning" if code.startswith("W") else "error"
    assert result.output.startswith(f"{code} ({kind}): {CODES[code].title}\n")
    assert CODES[code].explanation in result.output


def test_explain_is_case_insensitive():
    result = CliRunner().invoke(main, ["explain", "e0203"])
    assert result.exit_code == 0
    assert result.output.startswith("E0203 (error): unknown event")


@pytest.mark.parametrize("code", ["E9999", "W0000", "nonsense"])
def test_explain_unknown_code(code: str):
    result = CliRunner().invoke(main, ["explain", code])
    assert result.exit_code == 2
    assert f"no diagnostic code {code}" in result.output


# ---- file-level codes made at test time ----------------------------------------------------------

def _pack(folder: Path, files: dict[str, str | bytes]) -> Path:
    (folder / "pack.toml").write_text((MINI / "pack.toml").read_text(encoding="utf-8"), encoding="utf-8")
    for name, text in files.items():
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        (folder / name).write_bytes(data)
    return folder


def _codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


def test_file_too_large(tmp_path):
    """E0004 at the limit: a file of exactly 1 MiB is read, one byte more is refused."""
    header = "# a file at the size limit\n"
    filler = "#" + "x" * 62 + "\n"
    body = header + filler * ((MAX_FILE_BYTES - len(header)) // len(filler))
    body += "#" * (MAX_FILE_BYTES - len(body) - 1) + "\n"
    assert len(body.encode()) == MAX_FILE_BYTES
    _pack(tmp_path, {"limit.pit": body})
    assert "E0004" not in _codes(compile_paths([tmp_path / "limit.pit"]))
    (tmp_path / "limit.pit").write_text(body + "\n", encoding="utf-8")
    result = compile_paths([tmp_path / "limit.pit"])
    assert _codes(result) == ["E0004"]
    assert "larger than 1024 KiB" in result.diagnostics[0].message


def test_not_utf8_made_at_test_time(tmp_path):
    _pack(tmp_path, {"main.pit": b"# caf\xe9\nsystem s \"S\" { dice D6 }\n"})
    result = compile_paths([tmp_path])
    assert _codes(result) == ["E0006"]
    assert "not UTF-8" in result.diagnostics[0].message


def test_missing_path(tmp_path):
    result = compile_paths([tmp_path / "nowhere"])
    assert _codes(result) == ["E0006"]
    assert "no such file or folder" in result.diagnostics[0].message


def test_import_chain_at_the_limit(tmp_path):
    """17 files (16 nested imports) are fine; the committed fixture has 18."""
    files = {f"f{i:02}.pit": (f'import "f{i + 1:02}.pit"\n' if i < 16 else "# end of the chain\n") for i in range(17)}
    _pack(tmp_path, files)
    assert _codes(compile_paths([tmp_path / "f00.pit"])) == []


def test_import_outside_pack_outside_the_checkout(tmp_path, monkeypatch):
    """The E0102 fixture, copied out of the repository: here pack.toml sets the pack root and E0102 is
    reported. Inside the checkout it is not (see KNOWN_BUGS)."""
    work = tmp_path / "pack"
    shutil.copytree(CORPUS / "E0102_import_outside_pack", work)
    monkeypatch.chdir(work)
    result = compile_paths([work])
    assert _codes(result) == ["E0102"]
    assert "leads outside the pack" in result.diagnostics[0].message


# ---- E0901: our own bug, reached by calling the validator directly ----------------------------------

def _mini_pack() -> dict:
    result = compile_paths([MINI])
    assert result.ok and result.pack is not None, [str(d.message) for d in result.diagnostics]
    return result.pack


def test_valid_pack_passes_its_schemas():
    from spawnpit.compiler.validate import validate

    report = Report()
    validate(_mini_pack(), report)
    assert report.sorted() == ()


def test_schema_failure_is_E0901():
    from spawnpit.compiler.validate import validate

    pack = copy.deepcopy(_mini_pack())
    card = next(o for o in pack["objects"] if o["kind"] == "card")
    del card["props"]["count"]
    report = Report()
    validate(pack, report)
    found = report.sorted()
    assert [d.code for d in found] == ["E0901"]
    d = found[0]
    assert d.is_error
    assert f"card `{card['id']}`" in d.message and "'count' is a required property" in d.message
    path, line, col = card["at"].rsplit(":", 2)
    assert (d.span.path, d.span.line, d.span.col) == (path, int(line), int(col))


def test_unknown_object_kind_is_E0901():
    from spawnpit.compiler.validate import validate

    pack = copy.deepcopy(_mini_pack())
    pack["objects"][0]["kind"] = "spaceship"
    report = Report()
    validate(pack, report)
    assert [d.code for d in report.sorted()] == ["E0901"]
    assert "no schema for rule objects of kind `spaceship`" in report.sorted()[0].message
