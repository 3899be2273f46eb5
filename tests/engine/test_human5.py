"""The human screen tells units apart: every unit that is one of a kind (a Hero) has its own short label
on the board, the same in the legend and in the side's panel; many alike (Zombies) are their side's
letter and a count (engine/human.py: unit_labels, unit_marks)."""

from __future__ import annotations

import re
from io import StringIO

from rich.console import Console

from spawnpit.engine import new_game
from spawnpit.engine.human import board_view, side_symbols, side_view, unit_labels, unit_marks
from tests.engine.lnoe_table import put


def render(thing, width: int = 120) -> str:
    con = Console(file=StringIO(), width=width, color_system=None, force_terminal=False)
    con.print(thing)
    return con.file.getvalue()


HEROES = {"sheriff_anderson": "Sh", "billy": "Bi", "johnny": "Jo", "father_joseph": "F", "becky": "Be",
          "sally": "Sa", "jenny": "Je", "jake_cartwright": "Ja"}


def test_the_eight_base_heroes_have_the_labels_of_the_clash_rule(pack):
    game = new_game(pack, "lnoe:die_zombies_die", seed=1)
    labels = unit_labels(game)
    assert {proto: labels[proto] for proto in HEROES} == HEROES  # an initial alone only when no other shares it


def test_no_two_units_of_one_kind_share_a_label_nor_take_a_sides_letter_in_any_built_in_scenario(pack):
    scenarios = [o for o in pack["objects"] if o["kind"] == "scenario"]
    assert len(scenarios) >= 5
    for scenario in scenarios:
        game = new_game(pack, f"{scenario['system']}:{scenario['id']}", seed=1)
        labels = unit_labels(game)
        letters = {letter for letter, _ in side_symbols(game).values()}
        assert len(set(labels.values())) == len(labels), scenario["id"]
        assert not set(labels.values()) & letters, scenario["id"]
        assert all(1 <= len(label) <= 3 for label in labels.values()), scenario["id"]


def test_each_hero_shows_by_its_label_on_the_board_in_the_legend_and_in_its_panel(pack):
    game = new_game(pack, "lnoe:die_zombies_die", seed=1)
    for uid in [u for u, r in game.state["units"].items()]:
        game.state["units"][uid]["space"] = None  # an empty table
    spaces = ["town_center.a1", "town_center.a2", "town_center.a3", "town_center.b1", "town_center.b3",
              "town_center.c1", "town_center.c2", "town_center.c3"]
    units = {proto: put(game, proto, space) for proto, space in zip(HEROES, spaces)}
    put(game, "zombie", "town_center.b2")
    put(game, "zombie", "town_center.b2")
    marks = unit_marks(game)
    for proto, unit in units.items():
        assert marks[game.state["units"][unit.id]["space"]].plain == HEROES[proto]
    assert marks[game.board.resolve("town_center.b2")].plain == "Z2"
    legend = render(board_view(game, viewer="zombies"), width=400)  # wide: the roster on one line
    assert "Sh Sheriff Anderson at Town Center a1" in legend and "F Father Joseph at Town Center b1" in legend
    assert "Z Zombies: your side (c lists them)" in legend
    panel = render(side_view(game, "heroes"))
    for proto, label in HEROES.items():
        name = game.model.objects[("unit", proto)]["title"]
        assert re.search(rf"^{label} +{name} +Town Center", panel, re.M), (label, name)


def test_a_space_shared_by_named_units_shows_them_all_and_a_crowded_compact_cell_counts_them(pack):
    game = new_game(pack, "lnoe:die_zombies_die", seed=1)
    for uid in list(game.state["units"]):
        game.state["units"][uid]["space"] = None
    for proto in ("johnny", "billy", "sally"):
        put(game, proto, "town_center.b2")
    for _ in range(3):
        put(game, "zombie", "town_center.b2")
    put(game, "jenny", "town_center.a1")
    put(game, "zombie", "town_center.a1")
    full, compact = unit_marks(game), unit_marks(game, compact=True)
    b2, a1 = game.board.resolve("town_center.b2"), game.board.resolve("town_center.a1")
    assert full[b2].plain == "JoBiSaZ3"  # nine characters a cell: no room for spaces
    assert full[a1].plain == "Je Z" and compact[a1].plain == "JeZ"
    # three characters a compact cell: "H3Z3" was cropped to "H3Z"; each side's count, a dot between
    assert compact[b2].plain == "3·3"


def test_a_sides_rarer_kind_has_a_label_of_its_own_and_is_listed_in_its_panel(pack):
    """A Zombie Hero moves D3 and keeps the fallen Hero's Health: drawn as a plain Z it looked like any
    Zombie, and the Zombie player's own panel (c) left it out."""
    game = new_game(pack, "lnoe:die_zombies_die", seed=1)
    for uid in list(game.state["units"]):
        game.state["units"][uid]["space"] = None
    labels = unit_labels(game)
    assert labels["zombie_hero"] == "ZH" and "zombie" not in labels  # the Zombies' letter stands for Zombies
    one, two = put(game, "zombie_hero", "town_center.b2"), put(game, "zombie_hero", "town_center.b2")
    game.state["units"][one.id]["stats"]["health"] = 3
    game.state["units"][one.id]["wounds"] = 1
    put(game, "zombie", "town_center.b2")
    put(game, "zombie_hero", "town_center.a1")
    marks = unit_marks(game)
    assert marks[game.board.resolve("town_center.b2")].plain == "ZH2 Z"
    assert marks[game.board.resolve("town_center.a1")].plain == "ZH"
    key = render(board_view(game, viewer="heroes"), width=400)
    assert "Zombies: ZH Zombie Hero ×3, Zombie " in key  # the other side's roster in the key
    panel = render(side_view(game, "zombies"))
    rows = [line for line in panel.splitlines() if line.startswith("ZH ")]
    assert len(rows) == 3 and "wounds 1/3" in rows[0] and "Town Center" in rows[0]
    assert not any(line.startswith("Z ") for line in panel.splitlines())  # the commonest kind: too many to list
    game.state["units"][two.id]["space"] = None  # killed: out of the game, and out of the panel
    assert len([line for line in render(side_view(game, "zombies")).splitlines() if line.startswith("ZH ")]) == 2


def test_the_legends_crowded_cell_example_names_a_unit_on_the_board(pack):
    """Session 25 (a play-test): the key's example of a crowded cell always read "Be3 Be + 3 more", Becky
    or not. Session 30: the example is a cell the map draws with a shorthand, so a Town Center space
    (a big cell, room for all) has none (test_lnoe_session30 draws the examples)."""
    from spawnpit.engine.human import legend

    game = new_game(pack, "lnoe:die_zombies_die", seed=1)
    for uid in list(game.state["units"]):
        game.state["units"][uid]["space"] = None
    put(game, "jenny", "town_center.b2")
    put(game, "zombie", "town_center.b2")
    out = Console(file=StringIO(), width=80, color_system=None)
    out.print(board_view(game, compact=True, viewer="heroes", width=80))  # (the map and the key it was drawn with)
    key = out.file.getvalue()
    assert "JeZ" not in key and "Je Z" in key  # (the big cell has the room)
    assert "others" not in key and "Be3" not in key


def test_a_long_rule_text_under_a_question_starts_at_the_sentence_about_it(pack):
    """Session 25 (a play-test): every card question of the Zombie Cards rule showed the start of its text,
    about the draw step's discard, cut off before the part about playing cards."""
    from spawnpit.engine.human import _relevant, rule_text

    game = new_game(pack, "lnoe:die_zombies_die", seed=1)
    text = rule_text(game, {"title": "Zombie Cards"})
    assert text.startswith("In the draw step") and len(text) > 300
    play = _relevant(text, "choose card to play", 152)
    assert play.startswith("… Play Immediately cards are played") and len(play) <= 152
    assert _relevant(text, "choose card to discard", 152).startswith("In the draw step")
    assert _relevant("Short. Says play.", "choose card to play", 152) == "Short. Says play."  # fits: whole
    assert _relevant("A player acts. " * 20 + "Nothing else.", "choose card to play", 60).startswith("A player")


def test_explaining_a_unit_option_says_where_it_stands(pack):
    """Session 25 (a play-test): the targets "Zombie 130" could not be matched to the town map; `?N`
    on one did not say where it was."""
    from spawnpit.engine.human import explain_option

    game = new_game(pack, "lnoe:die_zombies_die", seed=1)
    zombie, sally = put(game, "zombie", "town_center.a1"), put(game, "sally", "town_center.b2")
    assert "in Town Center a1" in explain_option(game, zombie)
    assert "in Town Center b2, shown Sa on the map" in explain_option(game, sally)


def test_a_mark_on_a_unit_says_what_it_does(pack):
    """Session 25 (a play-test): Haunted By the Past made a Hero "Hindered", and nothing said what that
    meant until the Move Action was lost. A mark on a unit now gives its marker's first sentence."""
    from spawnpit.engine.human import describe_entry

    game = new_game(pack, "lnoe:die_zombies_die", seed=1)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    said = describe_entry(game, {"type": "mark", "what": sheriff.id, "marker": "hindered"})
    assert said == "Sheriff Anderson marked Hindered (The Hero misses their next Move Action)"
    space = game.board.resolve("town_center.b2")  # a space's mark: the map and markers line show it
    assert describe_entry(game, {"type": "mark", "what": space, "marker": "locked_door"}).endswith("marked Locked Door")
