"""Every built-in content file compiles cleanly, alone and together, and says what the rulebooks say."""

from __future__ import annotations

import re
from functools import cache

import pytest

from spawnpit.compiler import compile_paths
from spawnpit.resources import builtin_paths, content_root

FILES = sorted(p for root in builtin_paths() for p in root.rglob("*.pit"))


@cache
def pack():
    result = compile_paths(builtin_paths())
    assert result.ok, [f"{d.span} {d.code} {d.message}" for d in result.diagnostics]
    return result


def objects(system: str, kind: str, **where) -> list[dict]:
    return [o for o in pack().pack["objects"]
            if o["system"] == system and o["kind"] == kind and all(o.get(k) == v for k, v in where.items())]


def test_the_whole_builtin_pack_compiles_without_errors_or_warnings():
    assert pack().diagnostics == ()
    assert set(pack().pack["systems"]) == {"lnoe", "notld", "dotz"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(content_root())))
def test_each_content_file_compiles_cleanly_on_its_own(path):
    result = compile_paths([path])
    assert result.diagnostics == (), [f"{d.span} {d.code} {d.message}" for d in result.diagnostics]


def _phase(system: str, phase: str) -> dict:
    (block,) = [b for b in pack().pack["systems"][system]["blocks"] if b["kind"] == "phase" and b["id"] == phase]
    return block


def test_lnoe_turn_structure_follows_the_base_rulebook():
    steps = [b for b in _phase("lnoe", "zombie_turn")["blocks"] if b["kind"] == "step"]
    assert len(steps) == 6
    assert len([b for b in _phase("lnoe", "hero_turn")["blocks"] if b["kind"] == "step"]) == 4
    phases = pack().pack["systems"]["lnoe"]["phases"]
    assert phases[0] == "zombie_turn" and "hero_turn" in phases  # the Martian Turn sits between them


def test_lnoe_has_the_eight_base_heroes_and_five_scenarios_with_objectives():
    heroes = objects("lnoe", "unit", unit_kind="hero")
    assert len(heroes) == 8
    assert all(h["blocks"] for h in heroes), "every hero has at least one ability"
    scenarios = sorted(objects("lnoe", "scenario"), key=lambda s: s["props"].get("number", 0))
    assert [s["props"]["number"] for s in scenarios] == [1, 2, 3, 4, 5]
    assert [s["id"] for s in scenarios] == ["die_zombies_die", "escape_in_the_truck", "save_the_townsfolk",
                                           "burn_em_out", "defend_the_manor_house"]
    for s in scenarios:
        sides = {o["side"] for o in s["objectives"]}
        assert sides == {"heroes", "zombies"}, s["id"]


def test_lnoe_special_rules_cover_every_numbered_rule_of_section_16():
    rules = objects("lnoe", "special_rule")
    numbers = {r["props"].get("number") for r in rules}
    expected = {f"16.3.{i}" for i in range(1, 13)} | {f"16.4.{i}" for i in range(1, 13)} \
        | {f"16.5.{i}" for i in range(1, 6)} | {f"16.6.{i}" for i in range(1, 13)}
    assert expected <= numbers
    always = [r for r in rules if r["always"]]
    assert len(always) == 8 and all(r["dots"] is None for r in always)


@pytest.mark.parametrize("name, args, dots", [
    ("hero_card_pool", {"x": 4}, 2), ("lights_out", {"x": 3}, 3), ("extra_heroes", {"x": 2}, 10),
    ("zombie_pillage", {}, 1), ("free_search_markers", {}, 3), ("townsfolk_allies", {"x": 2}, 4),
])
def test_lnoe_dot_costs_follow_the_roster(name, args, dots):
    from spawnpit.compiler import RuleCosts
    from spawnpit.compiler import ast as A
    from spawnpit.compiler.resolve import resolve
    from spawnpit.compiler.loader import load
    from spawnpit.diagnostics import Report, Span

    report = Report()
    res = resolve(load(builtin_paths(), report).files, report)
    decl = res.lookup("lnoe", "special_rule", name)
    span = Span.point("t")
    call = A.Call(func=A.Ident(value=name, span=span), args=(),
                  kwargs=tuple((A.Ident(value=k, span=span), A.Lit(kind="int", value=v, span=span)) for k, v in args.items()),
                  span=span)
    assert RuleCosts()(decl, call) == dots


def test_notld_has_the_four_ghouls_weapons_and_scenes_one_to_three():
    ghouls = [u for u in objects("notld", "unit") if u["unit_kind"] != "survivor"]
    assert sorted(g["unit_kind"] for g in ghouls) == ["breaker", "fatty", "relative", "walker"]
    weapons = [c for c in objects("notld", "card") if "damage" in c["props"]]
    assert len(weapons) >= 10
    for w in weapons:
        assert re.fullmatch(r"[1-6]\+", w["props"]["accuracy"]), w["id"]
    scenes = sorted(s["props"]["number"] for s in objects("notld", "scenario"))
    assert scenes[:3] == [1, 2, 3]


def test_dotz_tables_are_marked_reconstructed_and_cover_every_roll():
    tables = objects("dotz", "table")
    assert len(tables) >= 2
    for table in tables:
        assert table["props"].get("approx"), f"{table['id']} must say its numbers are reconstructed"
        low, high = (2, 12) if table["props"]["roll"] == "2D6" else (1, 6)
        covered = set()
        for row in table["props"]["row"]:
            key = row["key"]
            first, last = (key, key) if isinstance(key, int) else key
            covered |= set(range(first, last + 1))
        assert covered == set(range(low, high + 1)), table["id"]
    assert objects("dotz", "scenario"), "the basic game setup is a scenario"
