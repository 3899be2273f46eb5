"""The PDFs the generators write (WeasyPrint), read back the way a person would: poppler's pdfinfo for
the page size and count, pdftotext for the words on the page (title, objectives, the special rules in
effect, setup steps, Dot totals, phase names, card titles).

The expected words come from the view models (spawnpit.generators.views), i.e. from the pack, never
from the template. Without WeasyPrint/Pango or poppler-utils these tests SKIP; with CI=true they FAIL.
"""

from __future__ import annotations

import os
import re
import subprocess
import unicodedata
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from spawnpit import generators
from spawnpit.generators import views
from tests.generators.conftest import (CARDS_AVAILABLE, CARDS_MISSING, PAPERS, builtin_pack, card_selections,
                                       expected_card_pages, pdf_info, render_cards, same_size, scenario_ids,
                                       system_ids)

ROSTER_SCENARIOS = ("die_zombies_die", "defend_the_manor_house", "whats_happening", "basic_game")


@dataclass(frozen=True)
class PdfJob:
    key: str
    kind: str
    paper: str
    subject: str  # scenario id, system id, or card selection name
    options: tuple = ()


def jobs() -> list[PdfJob]:
    out = []
    for paper in PAPERS:
        out += [PdfJob(f"sheet-{s}-{paper}", "sheet", paper, s) for s in scenario_ids()]
        out += [PdfJob(f"aid-{s}-{paper}", "aid", paper, s) for s in system_ids()]
    out += [PdfJob(f"roster-{s}-letter", "roster", "letter", s) for s in ROSTER_SCENARIOS]
    out += [PdfJob("roster-die_zombies_die-a4", "roster", "a4", "die_zombies_die"),
            PdfJob("roster-pack-lnoe-a4", "roster-pack", "a4", "lnoe")]
    if CARDS_AVAILABLE:
        for name, options, _ in card_selections(builtin_pack()):
            out.append(PdfJob(f"cards-{name}-letter", "cards", "letter", name, tuple(sorted(options.items()))))
        out.append(PdfJob("cards-deck-hero_deck-a4", "cards", "a4", "deck-hero_deck",
                          (("deck", "hero_deck"), ("system", "lnoe"))))
    return out


JOBS = {j.key: j for j in jobs()}


def render(job: PdfJob) -> bytes:
    pack = builtin_pack()
    if job.kind == "sheet":
        return generators.sheet(pack, job.subject, "pdf", job.paper)
    if job.kind == "roster":
        return generators.roster(pack, job.subject, fmt="pdf", paper=job.paper)
    if job.kind == "roster-pack":
        return generators.roster(pack, None, job.subject, "pdf", job.paper)
    if job.kind == "aid":
        return generators.aid(pack, job.subject, "pdf", job.paper)
    return render_cards(pack, "pdf", job.paper, **dict(job.options))


def _render_to(job: PdfJob, folder: str) -> tuple[str, str]:
    """(path, error): runs in a worker process."""
    try:
        path = Path(folder) / f"{job.key}.pdf"
        path.write_bytes(render(job))
        return str(path), ""
    except Exception as err:  # reported by the document's own test
        return "", f"{type(err).__name__}: {err}"


@pytest.fixture(scope="session")
def pdfs(weasyprint, pdfinfo, pdftotext, tmp_path_factory) -> dict[str, dict]:
    """Every PDF rendered once (in a few processes: WeasyPrint is CPU-bound), with pdfinfo and pdftotext."""
    import multiprocessing

    folder = tmp_path_factory.mktemp("pdf")
    builtin_pack()  # compiled before the workers fork
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        context = None
    todo = list(JOBS.values())
    if context is not None and (os.cpu_count() or 1) > 1:
        with ProcessPoolExecutor(max_workers=min(4, os.cpu_count() or 1), mp_context=context) as pool:
            done = list(pool.map(_render_to, todo, [str(folder)] * len(todo)))
    else:
        done = [_render_to(job, str(folder)) for job in todo]
    out = {}
    for job, (path, error) in zip(todo, done):
        entry = {"job": job, "error": error}
        if path:
            entry.update(pdf_info(pdfinfo, Path(path)))
            text = subprocess.run([pdftotext, "-enc", "UTF-8", path, "-"], capture_output=True, text=True, timeout=60)
            assert text.returncode == 0, text.stderr
            entry["text"] = text.stdout
        out[job.key] = entry
    return out


def norm(text: str) -> str:
    """Compare words, not layout: NFKC (ligatures), no case, hyphenated line breaks joined, one space."""
    text = unicodedata.normalize("NFKC", text).replace("\u00ad", "").replace("’", "'").replace("‘", "'")
    text = re.sub(r"-\s*\n\s*", "-", text)
    return re.sub(r"\s+", " ", text).strip().casefold()


def missing(text: str, wanted: list[str]) -> list[str]:
    have = norm(text)
    return [w for w in wanted if norm(w) not in have]


def _get(pdfs, key: str) -> dict:
    entry = pdfs[key]
    if entry["error"]:
        pytest.fail(f"{key}: the generator failed: {entry['error']}", pytrace=False)
    return entry


def _size_and_pages(entry: dict, pages: tuple[str, int]) -> list[str]:
    job, problems = entry["job"], []
    if not same_size(entry["size"], job.paper):
        problems.append(f"page size {entry['size'][0]:g}×{entry['size'][1]:g} pt is not {job.paper}")
    op, n = pages
    if (entry["pages"] != n) if op == "==" else (entry["pages"] < n):
        problems.append(f"{entry['pages']} page(s), expected {'exactly' if op == '==' else 'at least'} {n}")
    return problems


def _expect(key: str, problems: list[str], absent: list[str]) -> None:
    if absent:
        problems.append("missing from the printed text: " + ", ".join(repr(a) for a in absent))
    assert not problems, f"{key}: " + "; ".join(problems)


# ---- scenario sheets -----------------------------------------------------------------------------------

@pytest.mark.parametrize("key", [k for k in JOBS if k.startswith("sheet-")])
def test_sheet_pdf_is_one_page_of_the_paper_with_every_section(key, pdfs):
    entry = _get(pdfs, key)
    pack = builtin_pack()
    view = views.scenario_sheet(pack, pack.find_scenario(entry["job"].subject))
    wanted = [view.title, "Objectives", "Special rules in effect", *[r.title for r in view.rules],
              *view.setup, *[side for side, _ in view.objectives]]
    if view.setup:
        wanted.append("Setup")
    _expect(key, _size_and_pages(entry, ("==", 1)), missing(entry["text"], wanted))


# ---- rosters -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", [k for k in JOBS if k.startswith("roster-")])
def test_roster_pdf_has_every_rule_and_the_dot_totals(key, pdfs):
    entry = _get(pdfs, key)
    job, pack = entry["job"], builtin_pack()
    if job.kind == "roster":
        roster = views.scenario_roster(pack, pack.find_scenario(job.subject))
        wanted = [roster.title]
        if roster.groups:  # a system with no special rules has nothing to total
            wanted += ["Dot cost", "In effect", *[f"{g.title} Dot total" for g in roster.groups]]
    else:
        roster = views.pack_roster(pack, job.subject)
        wanted = [roster.title, "Dot cost"]
    wanted += [row.title for g in roster.groups for row in g.rows]
    _expect(key, _size_and_pages(entry, (">=", 1)), missing(entry["text"], wanted))


# ---- player aids ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", [k for k in JOBS if k.startswith("aid-")])
def test_player_aid_pdf_has_every_phase_and_step(key, pdfs):
    entry = _get(pdfs, key)
    aid = views.player_aid(builtin_pack(), entry["job"].subject)
    assert aid.phases, f"{key}: the system declares no phases"
    wanted = [aid.title, *[p.title for p in aid.phases], *[s.title for p in aid.phases for s in p.children]]
    if aid.reference:
        wanted.append("Quick reference")
    _expect(key, _size_and_pages(entry, (">=", 1)), missing(entry["text"], wanted))


# ---- card sheets ---------------------------------------------------------------------------------------

def test_card_sheet_pdfs_are_generated():
    if not CARDS_AVAILABLE:
        pytest.skip(CARDS_MISSING)
    assert any(k.startswith("cards-") for k in JOBS)


@pytest.mark.parametrize("key", [k for k in JOBS if k.startswith("cards-")] or
                         [pytest.param("cards", marks=pytest.mark.skip(reason=CARDS_MISSING))])
def test_card_sheet_pdf_has_nine_cards_a_page_and_every_title(key, pdfs):
    entry = _get(pdfs, key)
    from spawnpit.generators.cards import select

    job, pack = entry["job"], builtin_pack()
    cards = select(pack, **dict(job.options))
    faces = sum(int(c["props"].get("count", 1) or 1) for c in cards)
    titles = [c["props"].get("title") or c["id"] for c in cards]
    _expect(key, _size_and_pages(entry, ("==", expected_card_pages(faces))), missing(entry["text"], titles))


def test_card_sheet_entry_stays_callable_after_the_cards_module_is_imported():
    """`spawnpit.generators.cards` is a submodule: a package function of that name would be replaced by
    the module on first use (it was: the second call failed with "'module' object is not callable")."""
    if not CARDS_AVAILABLE:
        pytest.skip(CARDS_MISSING)
    import spawnpit.generators.cards  # noqa: F401

    pack = builtin_pack()
    first = render_cards(pack, "md", "letter", system="dotz")
    assert render_cards(pack, "md", "letter", system="dotz") == first
