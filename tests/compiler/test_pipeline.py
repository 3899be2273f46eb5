"""The compiler end to end on small packs: checks, suggestions, lowering and determinism."""

from __future__ import annotations

import json

from spawnpit.compiler import compile_paths, dumps
from spawnpit.compiler.ast import slug
from tests.conftest import MINI, codes

SCENARIO = """import "system.pit"
using mini
scenario "Trial" {{
  board yard
  rounds 5
  search_cards "Keys"
  counter kills = 0
  on zombie.killed by hero {{ kills += 1 }}
  heroes win when kills >= 3
  zombies win at sundown
  {extra}
}}
"""


def scenario(write_pack, extra: str):
    return compile_paths([write_pack({"main.pit": SCENARIO.format(extra=extra)})])


def test_slugs_make_titles_and_names_interchangeable():
    assert slug("Die Zombies, Die!") == "die_zombies_die"
    assert slug("Burn 'em Out") == "burn_em_out"
    assert slug("Lights Out - Choice") == "lights_out_choice"


def test_the_newcomer_story_two_precise_diagnostics_with_suggestions(write_pack):
    text = SCENARIO.format(extra="on zombie_turn.figth.start { draw 1 from hero_deck }").replace('"Keys"', '"Kyes"')
    result = compile_paths([write_pack({"main.pit": text})])
    by_code = {d.code: d for d in result.diagnostics}
    assert set(by_code) == {"E0203", "E0207"}
    assert "zombie_turn.fight.start" in by_code["E0203"].help
    assert (by_code["E0203"].span.line, by_code["E0203"].span.col) == (11, 6)
    assert "keys" in by_code["E0207"].help
    assert result.pack is None


def test_clean_pack_lowers_to_rule_objects_with_costs_and_hooks():
    result = compile_paths([MINI])
    assert result.ok and result.diagnostics == ()
    objects = {(o["kind"], o["id"]): o for o in result.pack["objects"]}
    trial = objects[("scenario", "last_stand")]
    assert trial["rules"] == [{"rule": "darkness", "args": {"x": 2}, "dots": 2}, {"rule": "night", "args": {}, "dots": None}]
    assert trial["objectives"][1] == {"side": "zombies", "result": "win", "at": "sundown"}
    hook = trial["hooks"][0]
    assert hook["event"] == "zombie.killed" and hook["filters"] == {"by": {"name": "hero"}}
    assert hook["body"] == [{"assign": ["kills"], "op": "+=", "value": {"lit": 1, "type": "int"}}]
    assert objects[("special_rule", "night")]["always"] is True
    assert objects[("unit", "alice")]["unit_kind"] == "hero"
    system = result.pack["systems"]["mini"]
    assert "zombie_turn.fight.start" in system["events"] and "hero.killed" in system["events"]
    assert system["phases"] == ["zombie_turn", "hero_turn"]


def test_build_output_is_deterministic_and_json():
    first, second = dumps(compile_paths([MINI]).pack), dumps(compile_paths([MINI]).pack)
    assert first == second
    assert json.loads(first)["format"] == "spawnpit-pack/1"


def test_wrong_types_in_effects(write_pack):
    result = scenario(write_pack, "on round.start { wound hero_deck\n roll \"Keys\"\n draw 1 from yard }")
    messages = [d.message for d in result.diagnostics]
    assert codes(result) == ["E0301", "E0301", "E0301"], messages
    assert "`wound` needs unit, found deck" in messages[0]


def test_selections_repeat_and_self_are_checked(write_pack):
    ok = scenario(write_pack, "on round.start { repeat count(zombie z where z.health > 1) { spawn zombie at b2 } }")
    assert ok.ok, ok.diagnostics
    bad = scenario(write_pack, "on round.start { repeat count(zombie z where z.helth > 1) { spawn zombie at b2 } }")
    assert codes(bad) == ["E0204"] and "health" in bad.diagnostics[0].help


def test_values_out_of_range(write_pack):
    result = compile_paths([write_pack({"main.pit": 'using mini\ncard "Laser" { deck hero_deck; accuracy 7+; text "x"; behaviour manual }\n'
                                        'hero "Bob" { health 9 }\nscenario "S" { board yard; rounds -1 }\n'})])
    assert codes(result) == ["E0302", "E0302", "E0302"]


def test_rule_arguments_are_checked_against_parameters(write_pack):
    result = scenario(write_pack, "rules darkness(x: 0), darkness(y: 1), nightt")
    assert codes(result) == ["E0308", "E0308", "E0209"]


def test_objective_on_a_counter_never_changed_warns(write_pack):
    text = SCENARIO.format(extra="counter rescued = 0\n  heroes win when rescued >= 2")
    result = compile_paths([write_pack({"main.pit": text})])
    assert codes(result) == ["W0402"] and result.ok


def test_every_error_of_a_run_is_reported_sorted(write_pack):
    pack = write_pack({"a.pit": 'using mini\ncard "A" { deck nope }\n', "b.pit": 'using mini\ncard "B" { deck hero_deck; colour 1 }\n'})
    result = compile_paths([pack])
    assert [(d.span.path.rsplit("/", 1)[-1], d.code) for d in result.diagnostics] == [("a.pit", "E0208"), ("b.pit", "E0202")]


def test_a_card_may_set_its_target_but_a_unit_has_no_target_to_set(write_pack):
    ok = scenario(write_pack, "on round.start { for each card c where c.played { c.target = b2 } }")
    assert ok.ok, ok.diagnostics
    bad = scenario(write_pack, "on round.start { for each hero h { h.target = b2 } }")
    assert codes(bad) == ["E0204"] and "target" in bad.diagnostics[0].message
