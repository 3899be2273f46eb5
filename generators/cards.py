"""Print-and-play card sheets: poker-size faces (63×88 mm), 3×3 to a page, from the card objects of a pack.

Choices a user of the sheets relies on:

* Copies. A print-and-play kit prints every copy, so a card with ``count 3`` prints three identical
  faces (no copy number: face-down cards must stay indistinguishable). ``every_copy=False`` prints one
  face per distinct card instead, with its count on the face ("×3"), for proofing or for cutting copies
  on a copier. The Markdown list always has one entry per card with its count.
* Bleed. Each card is surrounded by its own bleed (its frame colour extended), so neighbours are two
  bleeds apart and a cut that misses by a little never shows the next card. Nine poker cards leave
  little paper: Letter is 15.4 mm taller than three cards, A4 21 mm wider. When the asked bleed, and the
  room crop marks need in the margin, do not fit, the bleed shrinks to what fits rather than the cards
  (which must stay 63×88 mm) or the crop marks (which the cutting relies on). The bleed used is written
  on every sheet (``data-bleed-mm``).
* Crop marks are short thin lines in the page margin that continue every cut line; they never cross a
  card or its bleed.
* Backs. With ``backs=True`` each page of faces is followed by a page of backs with the column order
  reversed, so that a long-edge duplex print puts each back behind its face.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from difflib import get_close_matches

from spawnpit.generators import text as T
from spawnpit.generators.pack import Pack, PackError, blocks, prop_list, slug
from spawnpit.generators.render import FORMATS, PAPERS, document

CARD_W, CARD_H = 63.0, 88.0
COLUMNS, ROWS = 3, 3
PAPER_MM = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
MARK_GAP, MARK_MIN, MARK_MAX = 1.0, 2.0, 6.0  # mm: a mark starts 1 mm outside the bleed, 2–6 mm long
SHOWN = {"title", "deck", "type", "count", "keywords", "timing", "text", "source", "approx", "note", "combine"}
HIDDEN = {"behaviour"}  # engine bookkeeping ("manual"), nothing a player reads on the card
DENSITIES = (("normal", 400), ("compact", 470), ("dense", 545), ("tiny", 10**9))  # limits found by laying out
COLOURS = {"red": (0, 55), "orange": (28, 65), "yellow": (48, 60), "green": (130, 40), "blue": (212, 50),
           "purple": (275, 35), "brown": (25, 35), "grey": (0, 0), "gray": (0, 0), "black": (0, 0)}
SMALL_WORDS = {"a", "an", "and", "at", "for", "in", "of", "on", "or", "the", "to"}


@dataclass(frozen=True, slots=True)
class CardFace:
    id: str
    system: str
    system_title: str
    title: str
    deck: str
    deck_title: str
    type: str
    timing: str
    keywords: list[str]
    text: str
    stats: list[tuple[str, str]]
    notes: list[str]
    source: str
    approx: str
    count: int
    colour: tuple[int, int]  # hue, saturation of the frame and back
    density: str = "normal"


@dataclass(frozen=True, slots=True)
class Slot:
    x: float  # mm, top-left corner of the bleed box
    y: float
    face: CardFace


@dataclass(frozen=True, slots=True)
class Mark:
    x: float
    y: float
    w: float  # one of w, h is 0: a horizontal or a vertical line
    h: float


@dataclass(frozen=True, slots=True)
class Layout:
    bleed: float
    cell_w: float
    cell_h: float
    left: float
    top: float
    marks: list[Mark] = field(default_factory=list)

    def position(self, index: int, mirrored: bool = False) -> tuple[float, float]:
        row, col = divmod(index, COLUMNS)
        col = COLUMNS - 1 - col if mirrored else col
        return self.left + col * self.cell_w, self.top + row * self.cell_h


@dataclass(frozen=True, slots=True)
class Sheet:
    backs: bool
    slots: list[Slot]


@dataclass(frozen=True, slots=True)
class CardSheets:
    title: str
    faces: list[CardFace]
    sheets: list[Sheet]
    layout: Layout
    every_copy: bool
    copies: int

    def groups(self) -> list[tuple[str, list[CardFace]]]:
        """Faces by deck, in print order, for the Markdown list (Jinja's groupby would sort them)."""
        out: dict[str, list[CardFace]] = {}
        for face in self.faces:
            out.setdefault(f"{face.system_title} · {face.deck_title}" if face.deck_title else face.system_title,
                           []).append(face)
        return list(out.items())


def card_sheets(pack: Pack, fmt: str, paper: str, *, deck: str | None = None, system: str | None = None,
                names=(), bleed_mm: float = 3.0, crop_marks: bool = True, backs: bool = False,
                every_copy: bool = True) -> bytes:
    """Card sheets as HTML, PDF or Markdown. Raises PackError for an unknown system, deck or card name."""
    if fmt not in FORMATS or paper not in PAPERS or paper not in PAPER_MM:
        raise PackError(f"cannot print cards as `{fmt}` on `{paper}` paper (formats: {', '.join(FORMATS)}; "
                        f"papers: {', '.join(PAPER_MM)})")
    cards = select(pack, system=system, deck=deck, names=names)
    faces = [card_face(pack, c) for c in cards]
    layout = layout_for(paper, max(0.0, float(bleed_mm)), crop_marks)
    view = CardSheets(title=_doc_title(pack, faces, system, deck), faces=faces,
                      sheets=paginate(faces, layout, every_copy, backs), layout=layout, every_copy=every_copy,
                      copies=sum(f.count for f in faces))
    return document("cards", fmt, paper, c=view, card_w=CARD_W, card_h=CARD_H)


# ---- choosing cards --------------------------------------------------------------------------------

def select(pack: Pack, *, system: str | None = None, deck: str | None = None, names=()) -> list[dict]:
    """Cards of the chosen system, deck and names, in print order: system, deck as declared, source order."""
    systems = [system] if system else sorted(pack.systems)
    for s in systems:
        pack.system(s)  # an unknown system is a PackError that lists the known ones
    decks = [(s, b["id"]) for s in systems for b in blocks(pack.system(s), "deck")]
    if deck is not None:
        decks = _matching_decks(pack, systems, decks, deck)
    order = {key: i for i, key in enumerate(decks)}
    cards = [c for s in systems for c in pack.all(s, "card") if (s, c["props"].get("deck")) in order
             or (deck is None and c["props"].get("deck") not in {d for _, d in decks})]
    for name in names:
        _require_name(cards, name, system, deck)
    if names:
        wanted = {_key(n) for n in names}
        cards = [c for c in cards if c["id"] in wanted or _key(_card_title(c)) in wanted]
    if not cards:
        where = " ".join(x for x in (f"in deck `{deck}`" if deck else "", f"of system `{system}`" if system else "") if x)
        raise PackError(f"no cards to print{' ' + where if where else ''}")
    return sorted(cards, key=lambda c: order.get((c["system"], c["props"].get("deck")), len(order)))


def _matching_decks(pack: Pack, systems: list[str], decks: list[tuple[str, str]], name: str) -> list:
    wanted = _key(name)
    hits = [(s, d) for s, d in decks if d == wanted or _key(_deck_title(pack, s, d)) == wanted]
    if hits:
        return hits
    known = sorted({d for _, d in decks})
    close = get_close_matches(wanted, known, n=1)
    hint = f"did you mean `{close[0]}`?" if close else f"decks: {', '.join(known) or 'none'}"
    raise PackError(f"no deck `{name}`{' in system `' + systems[0] + '`' if len(systems) == 1 else ''}; {hint}")


def _require_name(cards: list[dict], name: str, system: str | None, deck: str | None) -> None:
    wanted = _key(name)
    if any(c["id"] == wanted or _key(_card_title(c)) == wanted for c in cards):
        return
    scope = " ".join(x for x in (f"in deck `{deck}`" if deck else "", f"of system `{system}`" if system else "") if x)
    titles = sorted({_card_title(c) for c in cards})
    close = get_close_matches(name, titles, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(f'`{t}`' for t in close)}?" if close else ""
    raise PackError(f"no card `{name}`{' ' + scope if scope else ''}{hint}")


def _key(name: str) -> str:
    return slug(str(name).replace("-", "_"))


def _card_title(card: dict) -> str:
    return card["props"].get("title") or card.get("title") or T.words(card["id"])


def _deck_title(pack: Pack, system: str, deck: str) -> str:
    block = next((b for b in blocks(pack.system(system), "deck") if b["id"] == deck), None)
    return (block or {}).get("title") or T.words(deck).title()


def _doc_title(pack: Pack, faces: list[CardFace], system: str | None, deck: str | None) -> str:
    if deck and len({f.deck_title for f in faces}) == 1:
        return f"Cards: {faces[0].deck_title}"
    if system:
        return f"Cards: {faces[0].system_title}"
    return "Cards"


# ---- what a face shows ----------------------------------------------------------------------------

def card_face(pack: Pack, card: dict) -> CardFace:
    system = pack.system(card["system"])
    props = card["props"]
    deck = props.get("deck", "")
    deck_title = _deck_title(pack, card["system"], deck) if deck else ""
    face = CardFace(
        id=card["id"], system=card["system"], system_title=system.get("title") or card["system"],
        title=_card_title(card), deck=deck, deck_title=deck_title,
        type=label(props.get("type", "")), timing=str(props.get("timing", "")),
        keywords=[label(k) for k in prop_list(card, "keywords")], text=str(props.get("text", "")),
        stats=stats(system, props), notes=[str(n) for n in prop_list(card, "note")],
        source=str(props.get("source", "")), approx=str(props.get("approx", "")),
        count=int(props.get("count", 1) or 1), colour=frame(card["system"], deck, deck_title))
    return CardFace(**{**{f: getattr(face, f) for f in face.__slots__}, "density": density(face)})


def label(name: str) -> str:
    """A keyword or card type as printed: `remains_in_play` → "Remains in Play"."""
    words = T.words(str(name)).split()
    return " ".join(w if i and w in SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words))


def stats(system: dict, props: dict) -> list[tuple[str, str]]:
    """Every stat on the card, titled by the system's `stat` blocks, in their order; other data after."""
    declared = {b["id"]: b for b in blocks(system, "stat")}
    out = [(b.get("title") or label(k), stat_value(props[k], b["props"].get("type")))
           for k, b in declared.items() if k in props and k not in SHOWN]
    if props.get("combine"):
        out.append(("Combine", " + ".join(str(c) for c in prop_list({"props": props}, "combine"))))
    out += [(label(k), stat_value(v, None)) for k, v in props.items()
            if k not in declared and k not in SHOWN and k not in HIDDEN]
    return out


def stat_value(value, kind: str | None) -> str:
    if isinstance(value, list) and kind == "range" and len(value) == 2:
        return str(value[0]) if value[0] == value[1] else f"{value[0]}–{value[1]}"
    if isinstance(value, list):
        return ", ".join(stat_value(v, None) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def size(face: CardFace) -> int:
    """Roughly how many characters of body text a face's content is worth (small print counts less)."""
    small = len(face.approx) * 0.5 + len(face.source) * 0.35 + sum(len(n) * 0.8 + 15 for n in face.notes)
    return int(len(face.text) + len(face.title) * 2 + small + sum(len(k) + 4 for k in face.keywords)
               + 28 * math.ceil(len(face.stats) / 2) + len(face.timing))


def density(face: CardFace) -> str:
    """A font-size class: text that would overflow the card prints smaller instead of being cut."""
    load = size(face)
    return next((name for name, limit in DENSITIES if load < limit), DENSITIES[-1][0])


def frame(system: str, deck: str, deck_title: str) -> tuple[int, int]:
    """Hue and saturation of a deck's frame: the colour its title names ("green back"), else a stable one
    of its own, so that sorted piles are told apart at a glance."""
    named = [COLOURS[w] for w in slug(deck_title).split("_") if w in COLOURS]
    return named[-1] if named else (zlib.crc32(f"{system}:{deck}".encode()) % 360, 38)


# ---- the sheets -----------------------------------------------------------------------------------

def layout_for(paper: str, bleed: float, crop_marks: bool) -> Layout:
    """Centres the 3×3 grid; the bleed shrinks to fit the paper with room left for crop marks."""
    page_w, page_h = PAPER_MM[paper]
    room = MARK_GAP + MARK_MIN if crop_marks else 0.0
    fits = min((page_w - COLUMNS * CARD_W - 2 * room) / (2 * COLUMNS),
               (page_h - ROWS * CARD_H - 2 * room) / (2 * ROWS))
    bleed = math.floor(max(0.0, min(bleed, fits)) * 100) / 100  # never more than fits
    cell_w, cell_h = CARD_W + 2 * bleed, CARD_H + 2 * bleed
    left, top = (page_w - COLUMNS * cell_w) / 2, (page_h - ROWS * cell_h) / 2
    layout = Layout(bleed=bleed, cell_w=cell_w, cell_h=cell_h, left=left, top=top)
    return Layout(bleed, cell_w, cell_h, left, top, crop(layout, page_w, page_h)) if crop_marks else layout


def crop(layout: Layout, page_w: float, page_h: float) -> list[Mark]:
    """Lines in the margin continuing each card edge: top and bottom for cuts across, sides for cuts down."""
    b = layout.bleed
    xs = sorted({round(layout.left + c * layout.cell_w + b + e, 2) for c in range(COLUMNS) for e in (0, CARD_W)})
    ys = sorted({round(layout.top + r * layout.cell_h + b + e, 2) for r in range(ROWS) for e in (0, CARD_H)})
    length_v = min(MARK_MAX, layout.top - MARK_GAP)
    length_h = min(MARK_MAX, layout.left - MARK_GAP)
    bottom, right = page_h - layout.top + MARK_GAP, page_w - layout.left + MARK_GAP
    marks = [Mark(x, layout.top - MARK_GAP - length_v, 0, length_v) for x in xs]
    marks += [Mark(x, bottom, 0, length_v) for x in xs]
    marks += [Mark(layout.left - MARK_GAP - length_h, y, length_h, 0) for y in ys]
    marks += [Mark(right, y, length_h, 0) for y in ys]
    return [m for m in marks if m.w + m.h > 0]


def paginate(faces: list[CardFace], layout: Layout, every_copy: bool, backs: bool) -> list[Sheet]:
    """Nine cards a page; with backs, each page of faces is followed by its mirrored page of backs."""
    cards = [f for f in faces for _ in range(f.count if every_copy else 1)]
    per_page = COLUMNS * ROWS
    sheets = []
    for start in range(0, len(cards), per_page):
        page = cards[start:start + per_page]
        sheets.append(Sheet(False, [Slot(*layout.position(i), f) for i, f in enumerate(page)]))
        if backs:
            sheets.append(Sheet(True, [Slot(*layout.position(i, mirrored=True), f) for i, f in enumerate(page)]))
    return sheets


__all__ = ["CardFace", "CardSheets", "PackError", "card_face", "card_sheets", "layout_for", "select"]
