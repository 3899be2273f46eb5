"""Every printable aid as a person sees it: loaded in a real headless Chromium, nothing may stick out of
a page box, and printing gives the right number of pages (a scenario sheet is exactly one page).

All documents are measured in one Chromium run and printed with a few Chromium processes at once (see
conftest.Browser). On a failure a screenshot is saved under tests/artifacts/ and named in the message.
Without Chromium or pdfinfo these tests SKIP, saying so; with CI=true they FAIL instead.
"""

from __future__ import annotations

import pytest

from tests.generators.conftest import (CARDS_AVAILABLE, CARDS_MISSING, HOSTILE, PAPERS, builtin_docs, builtin_pack,
                                       same_size, scenario_ids, system_ids)

DOC_KEYS = list(builtin_docs(builtin_pack()))


def _fail(browser, result, problems: list[str]) -> None:
    shot = browser.screenshot(result)
    where = f"screenshot: {shot}" if shot else "no screenshot could be taken"
    pytest.fail(f"{result.doc.key}: " + "; ".join(problems) + f" ({where})", pytrace=False)


def _layout_problems(measure: dict, kind: str) -> list[str]:
    problems = []
    if not measure["pages"]:
        return ["no .page element in the document"]
    for page in measure["pages"]:
        n = page["index"] + 1
        if page["scrollHeight"] > page["clientHeight"]:
            problems.append(f"page {n}: content is {page['scrollHeight'] - page['clientHeight']}px taller than "
                            f"the page box ({page['scrollHeight']} > {page['clientHeight']}): clipped or overflowing")
        if page["scrollWidth"] > page["clientWidth"]:
            problems.append(f"page {n}: content is {page['scrollWidth'] - page['clientWidth']}px wider than the "
                            f"page box ({page['scrollWidth']} > {page['clientWidth']})")
        if page["outsideCount"]:
            sample = ", ".join(
                f"{o['element']} ({', '.join(f'{k} +{v:.0f}px' for k, v in o['over'].items() if v > 1)})"
                f"{' “' + o['text'][:40] + '”' if o['text'] else ''}"
                for o in page["outside"][:4])
            problems.append(f"page {n}: {page['outsideCount']} element(s) outside the page box, e.g. {sample}")
    return problems


@pytest.mark.parametrize("key", DOC_KEYS)
def test_nothing_overflows_the_page_and_print_gives_the_right_page_count(key, browser, browser_results):
    result = browser_results[key]
    if result.error:
        _fail(browser, result, [result.error])
    problems = _layout_problems(result.measure, result.doc.kind)
    pdf = result.pdf
    if not result.doc.pages_ok(pdf["pages"]):
        problems.append(f"Chromium prints {pdf['pages']} page(s), the {result.doc.kind} must print "
                        f"{result.doc.pages_text()}")
    if not same_size(pdf["size"], result.doc.paper):
        problems.append(f"printed page size {pdf['size'][0]:g}×{pdf['size'][1]:g} pt is not {result.doc.paper}")
    if problems:
        _fail(browser, result, problems)


def test_the_measurement_catches_overflow(browser_results):
    """The probe (conftest.PROBE_HTML) is too tall for its fixed page and too wide for its flowing one."""
    result = browser_results["probe-overflow"]
    assert not result.error, result.error
    problems = " | ".join(_layout_problems(result.measure, "probe"))
    assert "page 1: content is" in problems and "taller than the page box" in problems, problems
    assert "page 2: content is" in problems and "wider than the page box" in problems, problems
    assert "element(s) outside the page box" in problems, problems
    assert result.pdf["pages"] >= 3 and same_size(result.pdf["size"], "letter"), result.pdf


def test_every_scenario_and_system_is_covered_on_both_papers():
    keys = set(DOC_KEYS)
    for paper in PAPERS:
        for sid in scenario_ids():
            assert f"sheet-{sid}-{paper}" in keys and f"roster-{sid}-{paper}" in keys
        for system in system_ids():
            assert f"aid-{system}-{paper}" in keys
    assert len(scenario_ids()) >= 9 and set(system_ids()) >= {"lnoe", "notld", "dotz"}


def test_card_sheets_are_in_the_browser_run():
    if not CARDS_AVAILABLE:
        pytest.skip(CARDS_MISSING)
    assert any(k.startswith("cards-") for k in DOC_KEYS)


# ---- autoescaping ---------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["hostile-sheet", "hostile-roster", "hostile-pack-roster", "hostile-cards"])
def test_hostile_names_are_text_in_the_browser_not_script(key, browser, browser_results):
    if key == "hostile-cards" and not CARDS_AVAILABLE:
        pytest.skip(CARDS_MISSING)
    result = browser_results[key]
    if result.error:
        _fail(browser, result, [result.error])
    m = result.measure
    assert m["scripts"] == 0, f"{key}: {m['scripts']} <script> element(s) from the content in the DOM"
    assert m["alerts"] == [], f"{key}: content ran alert({m['alerts']})"
    assert HOSTILE in m["text"], f"{key}: the name `{HOSTILE}` is not shown as text"
    html = result.doc.get("html").decode("utf-8")
    assert "<script" not in html.lower() and "<img" not in html.lower(), f"{key}: raw markup in the HTML"
