"""Printable aids from compiled rule objects: scenario sheets, special-rules rosters, card sheets and
player aids, as HTML (print CSS, Letter or A4), PDF and Markdown.

One entry per aid, found through the ``AIDS`` table; ``write_all`` writes every aid of a pack into a
folder with an index, as `spawnpit build` does.
"""

from __future__ import annotations

from spawnpit.generators import views
from spawnpit.generators.pack import Pack, PackError
from spawnpit.generators.render import FORMATS, PAPERS, document


def sheet(pack: Pack, scenario: str, fmt: str = "html", paper: str = "letter") -> bytes:
    from spawnpit.generators.boardmap import board_svg

    view = views.scenario_sheet(pack, pack.find_scenario(scenario), board_svg=board_svg)
    return document("sheet", fmt, paper, s=view)


def roster(pack: Pack, scenario: str | None = None, system: str | None = None, fmt: str = "html",
           paper: str = "letter") -> bytes:
    if scenario is not None:
        rosters = [views.scenario_roster(pack, pack.find_scenario(scenario))]
    else:
        systems = [system] if system else sorted(pack.systems)
        rosters = [views.pack_roster(pack, views.require_system(pack, s)) for s in systems]
    return document("roster", fmt, paper, rosters=rosters)


def aid(pack: Pack, system: str, fmt: str = "html", paper: str = "letter") -> bytes:
    return document("aid", fmt, paper, a=views.player_aid(pack, views.require_system(pack, system)))


def card_sheet(pack: Pack, fmt: str = "html", paper: str = "letter", **options) -> bytes:
    """Card sheets; options: deck, system, names, bleed_mm, crop_marks, backs (see generators/cards.py)."""
    from spawnpit.generators.cards import card_sheets

    return card_sheets(pack, fmt, paper, **options)


__all__ = ["FORMATS", "PAPERS", "Pack", "PackError", "aid", "card_sheet", "roster", "sheet"]
