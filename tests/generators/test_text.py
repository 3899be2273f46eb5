"""Rule expressions in words (generators.text), as the sheets and the terminal's goals line print them."""

from __future__ import annotations

from spawnpit.generators import text as T

ZOMBIES = {"zombies": "Zombies", "heroes": "Heroes"}


def _count(select: dict, n: int) -> dict:
    return {"chain": [{"call": "count", "args": [select]}, ">=", {"lit": n}]}


def test_a_count_of_one_sides_units_in_a_building_reads_as_the_side_in_it():
    """Defend the Manor House's goal read `count(unit in “Manor House” where u’s side = Zombies) ≥ 9`."""
    select = {"select": "unit", "var": "u", "in": {"lit": "Manor House", "type": "str"},
              "where": {"chain": [{"attr": "side", "of": {"name": "u"}}, "==", {"name": "zombies"}]}}
    assert T.expr(_count(select, 9), ZOMBIES) == "Zombies in Manor House ≥ 9"


def test_other_selections_keep_their_where_and_other_calls_their_name():
    select = {"select": "zombie", "var": "z", "where": {"chain": [{"attr": "health", "of": {"name": "z"}}, ">", {"lit": 1}]}}
    assert T.expr(_count(select, 2), ZOMBIES) == "zombie where z’s health > 1 ≥ 2"
    side_of_other = {"select": "unit", "var": "u", "where": {"chain": [{"attr": "side", "of": {"name": "v"}}, "==", {"name": "zombies"}]}}
    assert T.expr(_count(side_of_other, 1), ZOMBIES) == "unit where v’s side = Zombies ≥ 1"
    assert T.expr({"call": "nearest", "args": [{"name": "s"}, {"name": "hero"}]}) == "nearest(s, hero)"
