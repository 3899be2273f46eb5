"""The generated Last Night on Earth special rules roster against the rulebook's own roster.

Reference: "The Unofficial Complete Rulebook for Last Night on Earth" v2.0, APPENDIX IV, SPECIAL RULES
ROSTER (the seed text's lines ~8036–8090). The expected roster below was typed from it by hand: rule
numbers, names and Dot costs exactly as printed there (the names and numbers only, no rule text).

What is compared, group by group (Hero, Zombie, Martian, Other):
- the same rules: numbered rules by number, always-in-effect rules (no number) by name;
- the same order as the appendix prints them;
- the same printed name, after the alias table ALIASES (known faults of the seed itself, each commented);
- the same Dot cost, after normalising both notations to one value (see `appendix_cost`/`our_cost`);
- the ✓ of the appendix's In Effect column on exactly the always-in-effect rules.

Disagreements caused by the generator or the content are NOT worked around here: they are marked
`xfail(strict=True)` with the reason, so that the suite stays green and fixing the bug turns them red.
"""

from __future__ import annotations

import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest

from spawnpit import generators
from spawnpit.compiler import compile_paths
from spawnpit.generators.pack import Pack
from spawnpit.generators.views import pack_roster, scenario_roster
from spawnpit.resources import builtin_paths

# ---- Appendix IV, as printed ---------------------------------------------------------------------------
# (rule number or None for the ✓ "Always in Effect" rows, name as printed, Dot cost as printed)

ALWAYS = "Always in Effect"

APPENDIX_IV: dict[str, list[tuple[str | None, str, str]]] = {
    "Hero": [
        (None, "Heroes Replenish", ALWAYS),
        (None, "Survival Decks", ALWAYS),
        (None, "Barricades", ALWAYS),
        ("16.3.1", "Hero Card Pool (x)", "x/2 times ●"),
        ("16.3.2", "Extra Doors (x)", "x times ●"),
        ("16.3.3", "Hero Starting Cards (1)", "●●"),
        ("16.3.4", "Manor Deck", "●●"),
        ("16.3.5", "Well Stocked Buildings", "●●"),
        ("16.3.6", "Constructing the Hero Team", "●●"),
        ("16.3.7", "Townfolk Allies (x)", "x times ●●"),
        ("16.3.8", "Townfolk Heroes (x)", "x times ●●"),
        ("16.3.9", "Free Search Markers", "●●●"),
        ("16.3.10", "Hero Starting Cards (2)", "●●●●"),
        ("16.3.11", "Hero Unique Advanced Abilities", "●●●●"),
        ("16.3.12", "Extra Heroes (x)", "x times ●●●●●"),
    ],
    "Zombie": [
        (None, "Always Zombie Heroes", ALWAYS),
        (None, "Grave Dead", ALWAYS),
        (None, "Zombie Champions", ALWAYS),
        (None, "Grave Weapons", ALWAYS),
        ("16.4.1", "Zombie Pillage", "●"),
        ("16.4.2", "Lights Out (x)", "x times ●"),
        ("16.4.3", "Lights Out - Choice (x)", "x times ●●"),
        ("16.4.4", "Taken Over (x)", "x times ●●"),
        ("16.4.5", "Zombie Advanced Abilities - Random (x)", "x times ●●"),
        ("16.4.6", "Airstrike (x)", "x times ●●●"),
        ("16.4.7", "Taken Over - Choice (x)", "x times ●●●"),
        ("16.4.8", "Zombie Advanced Abilities - Chosen (x)", "x times ●●●●"),
        ("16.4.9", "Extra Zombie Move (+1)", "●●●●"),
        ("16.4.10", "Zombies Auto Spawn", "●●●●"),
        ("16.4.11", "Zombie Hand (6)", "●●●●"),
        ("16.4.12", "Zombie Horde (2r)", "●●●●"),
    ],
    "Martian": [
        (None, "Cloaked Martian Scouts", ALWAYS),
        ("16.5.1", "Lights Out (x)", "x times ●"),
        ("16.5.2", "Lights Out - Choice (x)", "x times ●●"),
        ("16.5.3", "Extra Command Points (x)", "x times ●●"),
        ("16.5.4", "Martian Advanced Abilities - Random (x)", "x times ●●"),
        ("16.5.5", "Martian Advanced Abilities - Chosen (x)", "x times ●●●"),
    ],
    "Other": [
        ("16.6.1", "Manor House", "N/A"),
        ("16.6.2", "Radio Station", "N/A"),
        ("16.6.3", "Airfield", "N/A"),
        ("16.6.4", "Fair Grounds", "N/A"),
        ("16.6.5", "Forest Ring", "N/A"),
        ("16.6.6", "Town Ring", "N/A"),
        ("16.6.7", "Forest Only Board", "N/A"),
        ("16.6.8", "Number Counters (1-6/1-8)", "N/A"),
        ("16.6.9", "Generators (x)", "N/A"),
        ("16.6.10", "Exploration Markers", "N/A"),
        ("16.6.11", "Salvage Tokens", "N/A"),
        ("16.6.12", "Crowds", "N/A"),
    ],
}

# Appendix group ("<Group> Special Rule" header) → the lnoe side it lists, in the appendix's group order.
GROUP_SIDE = {"Hero": "heroes", "Zombie": "zombies", "Martian": "martians", "Other": "other"}

# Names where the appendix itself is at fault: each printed name → the one name accepted instead. Every
# entry is a disagreement inside the seed (the appendix against the rule's own 16.x heading and the table
# of contents), never a difference of the generator's.
ALIASES = {
    # OCR error: "2r" for "21". The 16.4.12 heading and the contents list read ZOMBIE HORDE (21).
    "Zombie Horde (2r)": "Zombie Horde (21)",
    # Spelling variant: the appendix and the contents list drop the s; the 16.3.7 / 16.3.8 headings and
    # the Townsfolk cards read TOWNSFOLK.
    "Townfolk Allies (x)": "Townsfolk Allies (x)",
    "Townfolk Heroes (x)": "Townsfolk Heroes (x)",
    # Short name: the 16.6.4 heading and the contents list read FAIR GROUNDS BOARD.
    "Fair Grounds": "Fair Grounds Board",
    # Missing parameter: the 16.6.12 heading reads CROWDS (x) (x Crowd markers), like Generators (x).
    "Crowds": "Crowds (x)",
}

# Generator/content bugs found by this file, as (group, number) → reason. Not worked around: xfail.
NAME_BUGS: dict = {}  # (group, number) → reason; empty since the title and ordering fixes
ALWAYS_ORDER_BUGS: dict = {}


def expected_name(printed: str) -> str:
    return ALIASES.get(printed, printed)


# ---- Dot cost notations --------------------------------------------------------------------------------
# Both notations are turned into one value: "always", "n/a", or (dots per use as a Fraction, variable or
# None). That is the whole normalisation:
#   appendix "●●●●"          == ours "4"      → (4, None)
#   appendix "x times ●●"    == ours "2×x"    → (2, "x")      (x uses at 2 Dots each)
#   appendix "x times ●"     == ours "x"      → (1, "x")
#   appendix "x/2 times ●"   == ours "x/2"    → (1/2, "x")
#   appendix "Always in Effect" == ours "Always in Effect";  appendix "N/A" == ours "N/A"
# Anything else in either column is an error of the test data or of the generator, not a match.

def appendix_cost(printed: str):
    if printed == ALWAYS:
        return "always"
    if printed == "N/A":
        return "n/a"
    m = re.fullmatch(r"(?:(x|x/2) times )?(●+)", printed)
    if not m:
        raise ValueError(f"not an Appendix IV Dot cost: {printed!r}")
    per_use = Fraction(len(m.group(2)))
    if m.group(1) == "x/2":
        return per_use / 2, "x"
    return per_use, ("x" if m.group(1) else None)


def our_cost(shown: str):
    if shown == ALWAYS:
        return "always"
    if shown == "N/A":
        return "n/a"
    if m := re.fullmatch(r"\d+", shown):
        return Fraction(int(shown)), None
    if m := re.fullmatch(r"(?:(\d+)×)?([a-z]\w*)(?:/(\d+))?", shown):
        return Fraction(int(m.group(1) or 1), int(m.group(3) or 1)), m.group(2)
    raise ValueError(f"not a Dot cost the roster should print: {shown!r}")


def cost_value(printed: str, **args) -> Fraction:
    """The Dots an appendix entry costs when taken with these arguments."""
    per_use, var = appendix_cost(printed)
    return per_use * (args[var] if var else 1)


def test_the_cost_normalisation_itself():
    assert appendix_cost("x times ●●") == our_cost("2×x") == (2, "x")
    assert appendix_cost("x/2 times ●") == our_cost("x/2") == (Fraction(1, 2), "x")
    assert appendix_cost("x times ●") == our_cost("x") == (1, "x")
    assert appendix_cost("●●●●") == our_cost("4") == (4, None)
    assert appendix_cost("x times ●●") != our_cost("3×x")
    assert cost_value("x/2 times ●", x=4) == 2 and cost_value("x times ●●", x=3) == 6
    for bad in ("2x", "x + 1", "", "x times ●"):
        with pytest.raises(ValueError):
            our_cost(bad)
    for bad in ("2", "x times", "2×x", "x times ••"):
        with pytest.raises(ValueError):
            appendix_cost(bad)


def test_the_alias_table_only_names_printed_appendix_rows():
    printed = {name for rows in APPENDIX_IV.values() for _, name, _ in rows}
    assert set(ALIASES) <= printed
    assert {(g, n) for g, n in NAME_BUGS} <= {(g, n) for g, rows in APPENDIX_IV.items() for n, _, _ in rows}


# ---- the generated rosters ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pack() -> Pack:
    result = compile_paths(builtin_paths())
    assert result.pack is not None, result.diagnostics
    return Pack(result.pack)


@pytest.fixture(scope="module")
def roster(pack):
    return pack_roster(pack, "lnoe")


def group(roster, name: str):
    side = GROUP_SIDE[name]
    hits = [g for g in roster.groups if g.side == side]
    assert len(hits) == 1, f"no single {side} group in {[g.side for g in roster.groups]}"
    return hits[0]


def key(number: str | None, name: str) -> str:
    """Numbered rules are identified by number, always-in-effect ones by name."""
    return number if number else f"always:{expected_name(name)}"


def find_row(roster, group_name: str, number: str | None, name: str):
    rows = [r for r in group(roster, group_name).rows
            if (r.number == number if number else (not r.number and r.title == expected_name(name)))]
    assert len(rows) == 1, f"{group_name}: {number or name} found {len(rows)} times"
    return rows[0]


def every_row(bugs: dict | None = None):
    out = []
    for g, rows in APPENDIX_IV.items():
        for number, name, dots in rows:
            marks = [pytest.mark.xfail(strict=True, reason=bugs[(g, number)])] if bugs and (g, number) in bugs else []
            out.append(pytest.param(g, number, name, dots, marks=marks, id=f"{g}-{number or name}"))
    return out


def test_groups_are_the_appendix_groups_in_its_order(roster):
    assert [g.side for g in roster.groups] == list(GROUP_SIDE.values())


@pytest.mark.parametrize("name", list(APPENDIX_IV))
def test_group_has_exactly_the_appendix_rules(roster, name):
    got = [key(r.number, r.title) for r in group(roster, name).rows]
    want = [key(n, t) for n, t, _ in APPENDIX_IV[name]]
    assert sorted(got) == sorted(want), f"missing {set(want) - set(got)}, extra {set(got) - set(want)}"
    assert len(got) == len(set(got)), "a rule is listed twice"


@pytest.mark.parametrize("name", list(APPENDIX_IV))
def test_always_in_effect_rows_come_first_then_numbered_rules_in_appendix_order(roster, name):
    rows = group(roster, name).rows
    always = [r for r in rows if r.always]
    assert rows[:len(always)] == always
    assert [r.number for r in rows[len(always):]] == [n for n, _, _ in APPENDIX_IV[name] if n]


@pytest.mark.parametrize("name", [
    pytest.param(g, marks=[pytest.mark.xfail(strict=True, reason=ALWAYS_ORDER_BUGS[g])] if g in ALWAYS_ORDER_BUGS else [])
    for g, rows in APPENDIX_IV.items() if any(n is None for n, _, _ in rows)])
def test_always_in_effect_rows_in_appendix_order(roster, name):
    got = [r.title for r in group(roster, name).rows if r.always]
    assert got == [expected_name(t) for n, t, _ in APPENDIX_IV[name] if n is None]


@pytest.mark.parametrize(("group_name", "number", "name", "dots"), every_row(NAME_BUGS))
def test_row_name_as_printed(roster, group_name, number, name, dots):
    assert find_row(roster, group_name, number, name).title == expected_name(name)


@pytest.mark.parametrize(("group_name", "number", "name", "dots"), every_row())
def test_row_dot_cost(roster, group_name, number, name, dots):
    row = find_row(roster, group_name, number, name)
    assert our_cost(row.dots) == appendix_cost(dots), f"{number or name}: appendix {dots!r}, roster {row.dots!r}"


@pytest.mark.parametrize(("group_name", "number", "name", "dots"), every_row())
def test_row_in_effect_tick_only_on_always_rules(roster, group_name, number, name, dots):
    row = find_row(roster, group_name, number, name)
    ticked = number is None  # the appendix prints ✓ exactly on the unnumbered Always in Effect rows
    assert (row.in_effect, row.always) == (ticked, ticked)
    assert row.cost is None  # nothing is bought in the roster of the whole pack


# ---- a scenario's roster: Defend the Manor House -----------------------------------------------------
# Its SPECIAL RULES list (Complete Rulebook, scenario 5): Hero Starting Cards (1) [16.3.3], Zombies Auto
# Spawn [16.4.10], Manor House [16.6.1].

MANOR_RULES = {"Hero": ["16.3.3"], "Zombie": ["16.4.10"], "Martian": [], "Other": ["16.6.1"]}


@pytest.fixture(scope="module")
def manor(pack):
    return scenario_roster(pack, pack.find_scenario("Defend the Manor House"))


def expected_total(group_name: str, chosen: dict[str, dict]) -> str:
    """The Dot total of a group from the appendix costs of the rules a scenario puts in effect."""
    if group_name == "Other":
        return "N/A"  # the Other rules have no Dot cost
    costs = {n: d for n, _, d in APPENDIX_IV[group_name] if n}
    total = sum((cost_value(costs[n], **args) for n, args in chosen.items()), Fraction(0))
    assert total.denominator == 1
    return str(total.numerator)


@pytest.mark.parametrize("name", list(APPENDIX_IV))
def test_manor_house_in_effect_marks(manor, name):
    got = {key(r.number, r.title) for r in group(manor, name).rows if r.in_effect}
    want = {key(n, t) for n, t, _ in APPENDIX_IV[name] if n is None or n in MANOR_RULES[name]}
    assert got == want
    # the roster still lists every rule of the appendix, ticked or not
    assert len(group(manor, name).rows) == len(APPENDIX_IV[name])


@pytest.mark.parametrize("name", list(APPENDIX_IV))
def test_manor_house_dot_totals(manor, name):
    g = group(manor, name)
    assert g.total == expected_total(name, {n: {} for n in MANOR_RULES[name]})
    if name != "Other":
        assert Fraction(g.total) == sum((Fraction(r.cost) for r in g.rows if r.cost is not None), Fraction(0))


def test_manor_house_rows_show_the_fixed_costs(manor):
    assert (find_row(manor, "Hero", "16.3.3", "").dots, find_row(manor, "Hero", "16.3.3", "").cost) == ("2", 2)
    assert (find_row(manor, "Zombie", "16.4.10", "").dots, find_row(manor, "Zombie", "16.4.10", "").cost) == ("4", 4)
    assert (find_row(manor, "Other", "16.6.1", "").dots, find_row(manor, "Other", "16.6.1", "").cost) == ("N/A", None)


# ---- a scenario with rules taken with a parameter ---------------------------------------------------

PARAM_SCENARIO = """import lnoe
using lnoe

scenario "Roster Check" {
  board manor_town
  rounds 10
  rules lights_out(x: 3), hero_card_pool(x: 4), zombies_auto_spawn, martian_lights_out(x: 2)
  heroes win at sundown
}
"""

# group → {number: arguments} of the rules above
PARAM_RULES = {"Hero": {"16.3.1": {"x": 4}}, "Zombie": {"16.4.2": {"x": 3}, "16.4.10": {}},
               "Martian": {"16.5.1": {"x": 2}}, "Other": {}}
# the rows those rules must print: (group, number, title, Dot cost column, cost)
PARAM_ROWS = [
    ("Hero", "16.3.1", "Hero Card Pool (4)", "2", 2),  # x/2 times ● with x = 4
    ("Zombie", "16.4.2", "Lights Out (3)", "3", 3),  # x times ● with x = 3
    ("Zombie", "16.4.10", "Zombies Auto Spawn", "4", 4),
    ("Martian", "16.5.1", "Lights Out (2)", "2", 2),  # the Martian Lights Out, x times ● with x = 2
]


@pytest.fixture(scope="module")
def param_pack(tmp_path_factory) -> Pack:
    root = tmp_path_factory.mktemp("roster_pack")
    (root / "pack.toml").write_text('name = "roster-check"\n')
    (root / "main.pit").write_text(PARAM_SCENARIO)
    result = compile_paths([root])
    assert result.ok and result.pack is not None, result.diagnostics
    return Pack(result.pack)


@pytest.fixture(scope="module")
def param_roster(param_pack):
    return scenario_roster(param_pack, param_pack.find_scenario("Roster Check"))


@pytest.mark.parametrize(("group_name", "number", "title", "dots", "cost"), PARAM_ROWS)
def test_parameter_rows_show_argument_and_computed_cost(param_roster, group_name, number, title, dots, cost):
    printed = {n: d for n, _, d in APPENDIX_IV[group_name]}[number]
    assert cost == cost_value(printed, **PARAM_RULES[group_name][number])  # the expectation is the appendix's
    row = find_row(param_roster, group_name, number, "")
    assert (row.in_effect, row.title, row.dots, row.cost) == (True, title, dots, cost)


@pytest.mark.parametrize("name", list(APPENDIX_IV))
def test_parameter_scenario_in_effect_marks_and_totals(param_roster, name):
    g = group(param_roster, name)
    got = {key(r.number, r.title) for r in g.rows if r.in_effect}
    assert got == {key(n, t) for n, t, _ in APPENDIX_IV[name] if n is None or n in PARAM_RULES[name]}
    assert g.total == expected_total(name, PARAM_RULES[name])
    if name != "Other":
        assert Fraction(g.total) == sum((Fraction(r.cost) for r in g.rows if r.cost is not None), Fraction(0))


def test_parameter_scenario_totals(param_roster):
    assert [(g.side, g.total) for g in param_roster.groups] == [
        ("heroes", "2"), ("zombies", "7"), ("martians", "2"), ("other", "N/A")]


# ---- the rendered roster: Markdown and HTML ----------------------------------------------------------


def markdown_tables(text: str) -> dict[str, list[list[str]]]:
    """Rows of each `## <Group> special rules` table, cells unescaped and stripped."""
    tables: dict[str, list[list[str]]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:].removesuffix(" special rules")
            tables[current] = []
        elif current and line.startswith("|"):
            cells = [re.sub(r"\\(.)", r"\1", c).strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            if not all(set(c) <= set(":-") for c in cells):  # skip the alignment row
                tables[current].append(cells)
    return tables


class _HtmlTables(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[str]]] = {}
        self.heading: str | None = None
        self.in_h2 = False
        self.row: list[str] | None = None
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "h2":
            self.in_h2, self.heading = True, ""
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag):
        if tag == "h2":
            self.in_h2 = False
            self.heading = self.heading.strip().removesuffix(" special rules")
            self.tables[self.heading] = []
        elif tag in ("td", "th") and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.tables[self.heading].append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.in_h2:
            self.heading += data
        elif self.cell is not None:
            self.cell.append(data)


def html_tables(text: str) -> dict[str, list[list[str]]]:
    parser = _HtmlTables()
    parser.feed(text)
    return parser.tables


def view_rows(roster) -> dict[str, list[list[str]]]:
    """What every scenario roster table must hold: header, one row per rule, the Dot total."""
    return {g.title: [["In effect", "Rule", f"{g.title} special rule", "Dot cost"]]
            + [["✓" if r.in_effect else "", r.number, r.title, r.dots] for r in g.rows]
            + [["", "", f"{g.title} Dot total", g.total]] for g in roster.groups}


@pytest.fixture(scope="module", params=["md", "html"])
def rendered(request, param_pack):
    text = generators.roster(param_pack, "Roster Check", fmt=request.param).decode("utf-8")
    tables = markdown_tables(text) if request.param == "md" else html_tables(text)
    if request.param == "md":  # the total row is bold in Markdown
        tables = {t: [[c.removeprefix("**").removesuffix("**") for c in row] for row in rows] for t, rows in tables.items()}
    return request.param, tables


def test_rendered_roster_holds_every_row_of_the_view(rendered, param_roster):
    _, tables = rendered
    assert tables == view_rows(param_roster)


@pytest.mark.parametrize(("group_name", "number", "title", "dots", "cost"), PARAM_ROWS)
def test_rendered_roster_shows_the_parameter_rows(rendered, param_roster, group_name, number, title, dots, cost):
    _, tables = rendered
    assert ["✓", number, title, dots] in tables[group(param_roster, group_name).title]


def test_rendered_roster_shows_the_totals(rendered, param_roster):
    _, tables = rendered
    totals = {t: rows[-1] for t, rows in tables.items()}
    assert {t: row[2:] for t, row in totals.items()} == {
        "Heroes": ["Heroes Dot total", "2"], "Zombies": ["Zombies Dot total", "7"],
        "Martians": ["Martians Dot total", "2"], "Other": ["Other Dot total", "N/A"]}


def test_rendered_manor_house_roster_ticks_its_rules(pack, manor):
    for fmt, parse in (("md", markdown_tables), ("html", html_tables)):
        tables = parse(generators.roster(pack, "Defend the Manor House", fmt=fmt).decode("utf-8"))
        assert ["✓", "16.3.3", "Hero Starting Cards (1)", "2"] in tables["Heroes"], fmt
        assert ["✓", "16.4.10", "Zombies Auto Spawn", "4"] in tables["Zombies"], fmt
        assert ["✓", "16.6.1", "Manor House", "N/A"] in tables["Other"], fmt
        assert ["", "16.4.2", "Lights Out (x)", "x"] in tables["Zombies"], fmt
        ticked = {t: [row[2] for row in rows if row[0] == "✓"] for t, rows in tables.items()}
        assert ticked == {g.title: [r.title for r in g.rows if r.in_effect] for g in manor.groups}, fmt
