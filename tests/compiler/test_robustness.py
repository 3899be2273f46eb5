"""No input makes the compiler crash: random text, mutated real sources, pathological shapes."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spawnpit.compiler import compile_paths
from spawnpit.diagnostics import Diagnostic
from tests.conftest import MINI

SOURCE = (MINI / "system.pit").read_text() + "\n" + (MINI / "scenario.pit").read_text().replace('import "system.pit"\n', "")
TOKENS = ["{", "}", "(", ")", "[", "]", ",", ";", "\n", '"', '"""', "on", "instead of", "for each", "when", "where",
          "=", "+=", "==", "D6", "2D6", "1-3", "4+", "-", "not", "has", "in", "choose", "may", "repeat", "x", "#"]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def compile_text(tmp: Path, text: str, with_system: bool = False):
    (tmp / "pack.toml").write_text("")
    if with_system:
        (tmp / "system.pit").write_text((MINI / "system.pit").read_text())
        text = 'import "system.pit"\n' + text
    path = tmp / "main.pit"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    result = compile_paths([tmp])
    assert all(isinstance(d, Diagnostic) for d in result.diagnostics)
    for d in result.diagnostics:  # every diagnostic points into the file it names
        assert d.span.line >= 1 and d.span.col >= 1
    return result


@SETTINGS
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=400))
def test_random_text_never_crashes(tmp_path_factory, text):
    compile_text(tmp_path_factory.mktemp("rand"), text)


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, len(SOURCE)), st.integers(0, 8), st.sampled_from(TOKENS + [""])), max_size=6))
def test_mutated_sources_never_crash(tmp_path_factory, edits):
    text = SOURCE
    for pos, length, insert in edits:
        pos = min(pos, len(text))
        text = text[:pos] + insert + text[pos + length:]
    compile_text(tmp_path_factory.mktemp("mut"), text)


def test_pathological_shapes_give_diagnostics(tmp_path):
    long_chain = "using mini\nscenario \"S\" { board yard\n on round.start { let a = " + " + ".join(["1"] * 5000) + " } }\n"
    assert compile_text(tmp_path, long_chain, with_system=True).ok
    nots = "using mini\nscenario \"S\" { board yard\n on round.start { if " + "not " * 3000 + "true { end } } }\n"
    result = compile_text(tmp_path, nots, with_system=True)
    assert [d.code for d in result.diagnostics] == ["E0005"]
    many_errors = "".join(f'card "C{i}" {{ $ }}\n' for i in range(400))
    result = compile_text(tmp_path, many_errors)
    assert 0 < len(result.diagnostics) <= 200
