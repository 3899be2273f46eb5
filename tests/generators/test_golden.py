"""Golden snapshots of the printable aids, HTML and Markdown, in tests/generators/golden/.

A change in what the aids print shows up here as a diff to review. Regenerate after an intended change
(then review the diff by eye, as for tests/compiler/test_invalid_corpus.py):

    SPAWNPIT_UPDATE_GOLDEN=1 /work/venv/bin/pytest tests/generators/test_golden.py

The goldens must be stable: rendering twice gives the same bytes, and no date, time or absolute path of
this machine may appear in them. Also here: names that are HTML/Markdown markup print as text.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from spawnpit import generators
from tests.generators.conftest import (CARDS_AVAILABLE, CARDS_MISSING, GOLDEN_CARD_NAMES, HOSTILE, ROOT,
                                       builtin_pack, render_cards, system_ids)

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("SPAWNPIT_UPDATE_GOLDEN") == "1"
FORMATS = ("html", "md")


def _cases() -> dict[str, callable]:
    pack = builtin_pack()
    cases = {}
    for sid in ("die_zombies_die", "defend_the_manor_house"):
        cases[f"sheet-{sid}"] = lambda fmt, s=sid: generators.sheet(pack, s, fmt, "letter")
        cases[f"roster-{sid}"] = lambda fmt, s=sid: generators.roster(pack, s, fmt=fmt, paper="letter")
    for system in system_ids():
        cases[f"aid-{system}"] = lambda fmt, s=system: generators.aid(pack, s, fmt, "letter")
    if CARDS_AVAILABLE:
        cases["cards-lnoe-hero_deck-named"] = lambda fmt: render_cards(
            pack, fmt, "letter", system="lnoe", deck="hero_deck", names=GOLDEN_CARD_NAMES)
    return cases


CASES = _cases()
PARAMS = [pytest.param(name, fmt, id=f"{name}.{fmt}") for name in CASES for fmt in FORMATS]
if not CARDS_AVAILABLE:
    PARAMS.append(pytest.param("cards", "html", id="cards", marks=pytest.mark.skip(reason=CARDS_MISSING)))


class _Rendered(dict):
    def __missing__(self, key):
        name, fmt = key
        self[key] = CASES[name](fmt).decode("utf-8")
        return self[key]


@pytest.fixture(scope="session")
def rendered() -> dict[tuple[str, str], str]:
    """Each golden document rendered once per session, on first use."""
    return _Rendered()


UNSTABLE = [
    (re.compile(r"\b(19|20)\d\d-[01]\d-[0-3]\d\b"), "a date"),
    (re.compile(r"\b[0-2]\d:[0-5]\d:[0-5]\d\b"), "a time of day"),
    (re.compile(re.escape(str(ROOT))), "the checkout's absolute path"),
    (re.compile(r"(?<![\w/.])/(tmp|home|root|usr|work|Users)/"), "an absolute path"),
    (re.compile(r"file://"), "a file:// URL"),
]


@pytest.mark.parametrize("name, fmt", PARAMS)
def test_output_matches_the_golden(name, fmt, rendered):
    text = rendered[name, fmt]
    golden = GOLDEN / f"{name}.{fmt}"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(text, encoding="utf-8", newline="\n")
    assert golden.is_file(), f"no golden {golden.name}; run with SPAWNPIT_UPDATE_GOLDEN=1 and review it"
    expected = golden.read_text(encoding="utf-8")
    assert text == expected, (f"{name}.{fmt} differs from tests/generators/golden/{golden.name}; if the change is "
                              "intended, run with SPAWNPIT_UPDATE_GOLDEN=1 and review the diff")


@pytest.mark.parametrize("name, fmt", PARAMS)
def test_output_is_stable(name, fmt, rendered):
    text = rendered[name, fmt]
    assert CASES[name](fmt).decode("utf-8") == text, f"{name}.{fmt}: two renderings differ"
    for pattern, what in UNSTABLE:
        hit = pattern.search(text)
        assert not hit, f"{name}.{fmt} contains {what} ({hit[0]!r}): goldens must not depend on the machine or day"


def test_no_stray_goldens():
    known = {f"{name}.{fmt}" for name in CASES for fmt in FORMATS}
    stray = sorted(p.name for p in GOLDEN.glob("*") if p.name not in known)
    if stray and not CARDS_AVAILABLE:
        stray = [s for s in stray if not s.startswith("cards-")]
    assert not stray, f"goldens with no test (delete them): {stray}"


# ---- autoescaping: markup in names is text --------------------------------------------------------------

def _hostile_outputs(pack) -> dict[str, callable]:
    sid = "script_alert_1_script"
    out = {"sheet": lambda fmt: generators.sheet(pack, sid, fmt),
           "roster": lambda fmt: generators.roster(pack, sid, fmt=fmt),
           "pack roster": lambda fmt: generators.roster(pack, None, "mini", fmt)}
    if CARDS_AVAILABLE:
        out["cards"] = lambda fmt: render_cards(pack, fmt, "letter", system="mini")
    return out


def test_markup_in_names_is_escaped_in_html(hostile_pack):
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    for what, render in _hostile_outputs(hostile_pack).items():
        html = render("html").decode("utf-8")
        assert "<script" not in html.lower(), f"{what}: a <script> element in the HTML"
        assert "<img" not in html.lower(), f"{what}: an <img> element from rule text in the HTML"
        assert escaped in html, f"{what}: the name is not printed as escaped text"


def test_markup_in_names_is_escaped_in_markdown(hostile_pack):
    for what, render in _hostile_outputs(hostile_pack).items():
        md = render("md").decode("utf-8")
        raw = [line for line in md.splitlines() if re.search(r"(?<!\\)<(script|/script|img)", line)]
        assert not raw, f"{what}: unescaped markup in Markdown: {raw[:3]}"
        assert r"\<script\>alert(1)\</script\>" in md, f"{what}: the name `{HOSTILE}` is not printed escaped"
