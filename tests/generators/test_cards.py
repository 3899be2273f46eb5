"""Card sheets (spawnpit.generators.cards): which cards print, how many pages, what a face and the
Markdown list show, that markup in names stays text, and what bleed, crop marks and backs change."""

from __future__ import annotations

import math
import re
import shutil
import subprocess

import pytest

from spawnpit.generators.cards import (CARD_H, CARD_W, PAPER_MM, card_face, card_sheets, density, layout_for,
                                       select)
from spawnpit.generators.pack import Pack, PackError

HOSTILE = "<script>alert(1)</script>"
MINI_CARDS = f"""using mini

card "{HOSTILE}" {{ deck hero_deck; type item; count 2; keywords gun; range 1-2; accuracy 4+; text "{HOSTILE} & <b>x</b>" }}
card "Pipe" {{ deck hero_deck; type weapon; count 3; keywords strong; approx "count reconstructed"; source "fixture" }}
card "Rot" {{ deck zombie_deck; type event; count 5; text "Every zombie gets up again." }}
"""


@pytest.fixture(scope="module")
def builtin() -> Pack:
    from spawnpit.compiler import compile_paths
    from spawnpit.resources import builtin_paths

    result = compile_paths(builtin_paths())
    assert result.ok
    return Pack(result.pack)


@pytest.fixture
def mini(write_pack) -> Pack:
    from spawnpit.compiler import compile_paths

    result = compile_paths([write_pack({"cards.pit": MINI_CARDS})])
    assert result.ok, [f"{d.code} {d.message}" for d in result.diagnostics]
    return Pack(result.pack)


def html(pack: Pack, paper: str = "letter", **options) -> str:
    return card_sheets(pack, "html", paper, **options).decode("utf-8")


def pages(text: str) -> list[str]:
    return re.findall(r'<div class="page sheet (faces|backs)"', text)


def copies(cards: list[dict]) -> int:
    return sum(c["props"]["count"] for c in cards)


# ---- choosing cards --------------------------------------------------------------------------------

def test_filters_by_system_deck_and_names(builtin):
    notld = select(builtin, system="notld")
    assert notld and {c["system"] for c in notld} == {"notld"}
    ranged = select(builtin, system="notld", deck="ranged")
    assert ranged and {c["props"]["deck"] for c in ranged} == {"ranged"}
    assert select(builtin, deck="Ranged Equipment (green back)") == ranged  # by title, in every system
    by_name = select(builtin, system="notld", names=("Sawed-Off", "ithaca_m37", "uzi"))
    assert sorted(c["id"] for c in by_name) == ["ithaca_m37", "sawed_off", "uzi"]
    assert len(select(builtin)) == len(builtin.every("card"))


def test_cards_print_grouped_by_deck_in_declaration_order(builtin):
    decks = [c["props"]["deck"] for c in select(builtin, system="notld")]
    assert decks == sorted(decks, key=["starting", "ranged", "melee", "house", "special", "ghoul_deck"].index)


@pytest.mark.parametrize("options, message", [
    ({"system": "nope"}, "no system `nope`"),
    ({"system": "lnoe", "deck": "hero_dek"}, "did you mean `hero_deck`?"),
    ({"system": "lnoe", "deck": "nothing_like_it"}, "decks: hero_deck"),
    ({"system": "notld", "names": ("Sawed Of",)}, "did you mean `Sawed-Off`?"),
    ({"system": "lnoe", "deck": "hero_deck", "names": ("Sawed-Off",)}, "no card `Sawed-Off` in deck `hero_deck`"),
    ({"system": "lnoe", "deck": "manor_deck"}, "no cards to print in deck `manor_deck`"),
])
def test_unknown_system_deck_or_name_and_nothing_to_print_are_pack_errors(builtin, options, message):
    with pytest.raises(PackError, match=re.escape(message)):
        card_sheets(builtin, "md", "letter", **options)


def test_unknown_deck_is_a_usage_error_on_the_command_line(tmp_path):
    from click.testing import CliRunner

    from spawnpit.cli import main

    result = CliRunner().invoke(main, ["cards", "--system", "lnoe", "--deck", "nope", "-o", str(tmp_path / "c.md")])
    assert result.exit_code == 2 and "no deck `nope`" in result.output
    assert not (tmp_path / "c.md").exists()


# ---- pages --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_copy_prints_nine_to_a_page_and_backs_double_the_pages(builtin, paper):
    cards = select(builtin, system="lnoe")
    faces = math.ceil(copies(cards) / 9)
    assert pages(html(builtin, paper, system="lnoe")) == ["faces"] * faces
    assert pages(html(builtin, paper, system="lnoe", backs=True)) == ["faces", "backs"] * faces
    assert html(builtin, paper, system="lnoe").count('<div class="card face') == copies(cards)


def test_one_face_per_card_shows_the_count(mini):
    text = html(mini, every_copy=False)
    assert text.count('<div class="card face') == len(select(mini)) == 5  # with the fixture's Pistol and Keys
    assert '<span class="count">×5</span>' in text and '<span class="count">×3</span>' in text
    assert 'class="count"' not in html(mini)  # copies are identical: no count, no copy number


def test_pdf_has_a_page_per_nine_cards_and_poker_cards(builtin, tmp_path):
    pdfinfo = shutil.which("pdfinfo")
    if pdfinfo is None:
        pytest.skip("pdfinfo (poppler-utils) is not installed")
    try:
        data = card_sheets(builtin, "pdf", "a4", system="dotz", backs=True)
    except RuntimeError as err:  # no WeasyPrint/Pango here
        pytest.skip(str(err))
    (tmp_path / "c.pdf").write_bytes(data)
    info = subprocess.run([pdfinfo, str(tmp_path / "c.pdf")], capture_output=True, text=True, check=True).stdout
    assert int(re.search(r"Pages:\s+(\d+)", info)[1]) == 2 * math.ceil(copies(select(builtin, system="dotz")) / 9)
    width, height = map(float, re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups())
    assert abs(width - 595.28) < 0.5 and abs(height - 841.89) < 0.5


# ---- faces ---------------------------------------------------------------------------------------------

def test_face_shows_every_stat_titled_by_the_system(builtin):
    face = card_face(builtin, builtin.get("notld", "card", "sawed_off"))
    assert face.stats[:4] == [("Range", "0–1"), ("Dice", "2"), ("Accuracy", "3+"), ("Damage", "1")]
    assert face.deck_title == "Ranged Equipment (green back)" and face.type == "Weapon"
    assert face.approx and face.keywords[:2] == ["Ranged", "Shells"]
    bat = card_face(builtin, builtin.get("lnoe", "card", "baseball_bat"))
    assert ("Breaks On", "1") in bat.stats and bat.timing == "Combat Bonus"
    shotgun = card_face(builtin, builtin.get("notld", "card", "mas_shotgun"))
    assert ("Combine", "Machete + Sawed-Off") in shotgun.stats
    assert not any(name.lower().startswith("behaviour") for name, _ in bat.stats)


def test_face_html_has_title_deck_tags_text_source_and_approx_mark(mini):
    text = html(mini, names=("Pipe",))
    for part in ('<h1 class="name">Pipe</h1>', "Hero Deck", '<span class="tag">Strong</span>', "Weapon",
                 "≈ reconstructed:", "count reconstructed", '<div class="source">fixture</div>'):
        assert part in text
    assert '<div class="stat"><b>Range</b><span>1–2</span></div>' in html(mini, names=("script_alert_1_script",))


def test_long_text_prints_smaller_instead_of_overflowing(mini):
    card = mini.get("mini", "card", "rot")
    long = {**card, "props": {**card["props"], "text": "The dead rise and shamble on. " * 20}}
    assert density(card_face(mini, card)) == "normal"
    assert density(card_face(mini, long)) != "normal"


def test_built_in_cards_print_at_normal_size(builtin):
    """A face that needs a smaller class should be rare; all built-in cards fit at the normal size."""
    assert {card_face(builtin, c).density for c in builtin.every("card")} == {"normal"}


# ---- escaping and Markdown -----------------------------------------------------------------------------

def test_markup_in_a_card_name_prints_as_text(mini):
    text = html(mini, backs=True)
    assert "<script" not in text.lower() and "<b>x</b>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "&amp; &lt;b&gt;x&lt;/b&gt;" in text
    md = card_sheets(mini, "md", "letter").decode("utf-8")
    assert "<script>" not in md and r"\<script\>alert(1)\</script\>" in md


def test_markdown_lists_every_card_once_with_its_count_and_details(builtin):
    md = card_sheets(builtin, "md", "letter", system="notld", deck="ranged").decode("utf-8")
    assert md.startswith("# Cards: Ranged Equipment (green back)\n")
    assert "## Zombicide: Night of the Living Dead · Ranged Equipment (green back)" in md
    assert md.count("\n### ") == len(select(builtin, system="notld", deck="ranged"))
    for part in ("### Sawed-Off ×4", "- **Range:** 0–1", "- **Accuracy:** 3+", "*Weapon* · Ranged, Shells",
                 "≈ *Reconstructed:", "*Source: Zombicide: Night of the Living Dead rulebook"):
        assert part in md
    assert "<div" not in md and "mm;" not in md  # a list, no layout


# ---- bleed, crop marks, backs --------------------------------------------------------------------------

def test_bleed_sets_the_cell_around_each_card_and_shrinks_only_when_the_paper_is_too_small(mini):
    assert f"width: {CARD_W:.2f}mm; height: {CARD_H:.2f}mm" in html(mini, bleed_mm=0)
    a4 = html(mini, "a4", bleed_mm=3, crop_marks=False)
    assert 'data-bleed-mm="3.00"' in a4 and f"width: {CARD_W + 6:.2f}mm; height: {CARD_H + 6:.2f}mm" in a4
    assert 'data-bleed-mm="2.00"' in html(mini, "letter", bleed_mm=2, crop_marks=False)
    for paper in PAPER_MM:  # three rows of bleeds plus crop marks never fit 3 mm on either paper
        layout = layout_for(paper, 3.0, crop_marks=True)
        page_w, page_h = PAPER_MM[paper]
        assert 0 < layout.bleed < 3 and layout.left >= 3 and layout.top >= 3
        assert 3 * layout.cell_w <= page_w and 3 * layout.cell_h <= page_h


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("bleed", [0.0, 2.0])
def test_crop_marks_are_in_the_margin_on_every_cut_line(paper, bleed):
    layout = layout_for(paper, bleed, crop_marks=True)
    grid = (layout.left, layout.top, layout.left + 3 * layout.cell_w, layout.top + 3 * layout.cell_h)
    cuts = 4 if bleed == 0 else 6  # without bleed neighbours share a cut
    assert len(layout.marks) == 4 * cuts
    for m in layout.marks:
        assert (m.w == 0) != (m.h == 0)
        outside_x = m.x + m.w < grid[0] or m.x > grid[2]
        outside_y = m.y + m.h < grid[1] or m.y > grid[3]
        assert outside_x if m.h == 0 else outside_y, m
    edges = {round(layout.left + c * layout.cell_w + layout.bleed + e, 2) for c in range(3) for e in (0, CARD_W)}
    assert {m.x for m in layout.marks if m.w == 0} == edges


def test_crop_marks_option(mini):
    assert 'class="mark' in html(mini) and 'class="mark' not in html(mini, crop_marks=False)
    assert layout_for("a4", 3.0, crop_marks=False).bleed == 3.0  # no marks: all the room goes to bleed


def test_backs_mirror_the_columns_for_long_edge_duplex(mini):
    text = html(mini, backs=True, names=("Rot", "Pipe"), bleed_mm=0, crop_marks=False)
    faces, backs = text.split('<div class="page sheet backs"')
    where = re.compile(r'data-card="mini:(\w+)"\s+style="left: ([\d.]+)mm; top: ([\d.]+)mm')
    front, back = where.findall(faces), where.findall(backs)
    assert [c for c, _, _ in front] == [c for c, _, _ in back] == ["pipe"] * 3 + ["rot"] * 5
    page_w = PAPER_MM["letter"][0]
    for (_, fx, fy), (_, bx, by) in zip(front, back):
        assert fy == by and abs(float(fx) + float(bx) + CARD_W - page_w) < 0.02  # mirrored about the middle
    assert "Hero Deck" in backs and "Mini Zombies" in backs


# ---- layout: nothing overflows a card --------------------------------------------------------------------

def _boxes(box):
    yield box
    for child in getattr(box, "children", None) or []:
        yield from _boxes(child)


def _classes(box) -> list[str]:
    element = getattr(box, "element", None)
    return (element.get("class") or "").split() if element is not None else []


def _stuffed(pack: Pack) -> Pack:
    """The mini pack plus cards whose long-worded text is just under each density limit, and one well into
    the smallest size (about 700 is where even that runs out)."""
    from spawnpit.generators.cards import DENSITIES, size

    base = pack.get("mini", "card", "pistol")
    extra = []
    for limit in [limit for _, limit in DENSITIES[:-1]] + [640]:
        card = {**base, "id": f"stuffed_{limit}", "props": {**base["props"], "approx": "every word", "text": ""}}
        while size(card_face(pack, card)) < limit - 8:
            card["props"]["text"] += "Zombies shamble toward a hero. "
        extra.append(card)
    return Pack({**pack.data, "objects": pack.data["objects"] + extra})


def test_no_card_content_runs_past_its_card(mini, builtin):
    """Laid out by WeasyPrint (as the PDF is): the densest built-in cards and cards at each density limit."""
    try:
        from weasyprint import HTML
    except (ImportError, OSError) as err:
        pytest.skip(f"WeasyPrint is not usable here: {err}")
    densest = sorted(builtin.every("card"), key=lambda c: -len(c["props"].get("text", "") + c["props"].get("approx", "")))
    cases = [(_stuffed(mini), {}), (builtin, {"names": tuple(c["props"]["title"] for c in densest[:9]),
                                              "system": None})]
    for pack, options in cases:
        document = HTML(string=html(pack, every_copy=False, **options)).render()
        if not hasattr(document.pages[0], "_page_box"):
            pytest.skip("this WeasyPrint does not expose its layout boxes")
        panels = [b for page in document.pages for b in _boxes(page._page_box) if "panel" in _classes(b)]
        assert panels
        for panel in panels:
            bottom = panel.content_box_y() + panel.height
            inner = [b for b in _boxes(panel) if b is not panel and hasattr(b, "margin_height")]
            assert max(b.position_y + b.margin_height() for b in inner) <= bottom + 0.01
