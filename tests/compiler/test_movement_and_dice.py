"""The effect forms and functions added for movement, dice pools, raised events and unit activations
are in the compiler's tables: used well they compile clean, misused they are reported."""

from __future__ import annotations

import pytest

from spawnpit.compiler import compile_paths
from tests.conftest import codes

GOOD = """import "system.pit"
using mini
scenario "Trial" {
  board yard
  rounds 3
  counter pool = 0
  counter n = 0
  on search {
    roll 2 of D6 into pool
    roll n of D6 into pool
    if highest(pool) > lowest(pool) and not doubles(pool) { n = steps(unit, b2) }
    may choose space s in reach(unit, 3) by heroes { move unit to s by 3 }
    spawn 3 of zombie at list(space s where s.spawn)
    emit "sundown" with [unit]
    wound unit from unit
  }
  zombies win when n >= 3
}
"""


def check(write_pack, text: str):
    return compile_paths([write_pack({"main.pit": text})])


def test_new_forms_compile_clean(write_pack):
    result = check(write_pack, GOOD)
    assert result.ok and not result.diagnostics, [f"{d.code} {d.message}" for d in result.diagnostics]


def test_roll_into_needs_a_counter_and_functions_check_their_arguments(write_pack):
    bad = GOOD.replace("roll 2 of D6 into pool", "roll 2 of D6 into nothing_here").replace(
        "steps(unit, b2)", "steps(unit)").replace("reach(unit, 3)", "reach(unit, b2)")
    found = codes(check(write_pack, bad))
    assert "E0206" in found  # unknown counter `nothing_here`
    assert found.count("E0301") >= 2  # steps takes 2 arguments; reach's distance must be a number


def test_activation_takes_side_or_unit_and_gives_step_events_the_unit(write_pack):
    system = (write_pack({"main.pit": ""}) / "system.pit")
    text = system.read_text().replace('phase hero_turn "Hero Turn" {\n    side heroes',
                                      'phase hero_turn "Hero Turn" {\n    side heroes\n    activation unit')
    system.write_text(text)
    scenario = GOOD.replace("on search {", "on hero_turn.act.start { log unit.name }\n  on search {")
    result = compile_paths([write_pack({"main.pit": scenario}, with_system=False)])
    assert result.ok, [f"{d.code} {d.message}" for d in result.diagnostics]
    system.write_text(text.replace("activation unit", "activation everyone"))
    assert "E0305" in codes(compile_paths([system.parent]))


def test_search_card_takes_one_card(write_pack):
    """`search_card(CARD)`: whether a card is one of the scenario's Scenario Search Cards."""
    good = GOOD.replace("    wound unit from unit\n", "    wound unit from unit\n    if any(card c where search_card(c)) { n = 1 }\n")
    result = check(write_pack, good)
    assert result.ok and not result.diagnostics, [f"{d.code} {d.message}" for d in result.diagnostics]
    bad = good.replace("search_card(c)", "search_card(c, c)")
    assert "E0301" in codes(check(write_pack, bad))
    unit = good.replace("search_card(c)", "search_card(unit)")  # a unit is no card
    assert not check(write_pack, unit).ok


@pytest.mark.parametrize("line, call, wrongs", [
    # `pool_left(KIND)`: how many more units of a kind its pool lets into play
    ("n = pool_left(zombie)", "pool_left(zombie)",
     ("pool_left(unit)", "pool_left(3)", "pool_left(zombie, zombie)", "pool_left(heroes)")),
    # `edge(a, b)`: the kind of edge between two neighbouring spaces, compared with text
    ('if edge(unit, b2) == "door" { n = 1 }', "edge(unit, b2)", ("edge(unit)", "edge(unit, b2, b2)", "edge(unit, 3)")),
    # `neighbours(a)`: the spaces next to a place, a pool for `space o in neighbours(s) where …`
    ('n = count(space o in neighbours(unit) where edge(unit, o) == "open")', "neighbours(unit)",
     ("neighbours()", "neighbours(unit, unit)", "neighbours(3)")),
])
def test_table_functions_check_their_arguments(write_pack, line, call, wrongs):
    good = GOOD.replace("    spawn 3 of zombie at", f"    {line}\n    spawn 3 of zombie at")
    result = check(write_pack, good)
    assert result.ok and not result.diagnostics, [f"{d.code} {d.message}" for d in result.diagnostics]
    for wrong in wrongs:
        assert not check(write_pack, good.replace(call, wrong)).ok, wrong


def test_edge_reads_as_text_not_a_number(write_pack):
    good = GOOD.replace("    spawn 3 of zombie at", '    if edge(unit, b2) > 2 { n = 1 }\n    spawn 3 of zombie at')
    assert "E0301" in codes(check(write_pack, good))
