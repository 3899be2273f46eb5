"""Board maps (generators/boardmap.py): every built-in board draws, the drawing matches the data (one
shape per space, walls and doors where the board says, legend entries only for symbols used), the SVG
is deterministic, self-contained and escapes every piece of text."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from functools import cache

import pytest

from spawnpit import generators
from spawnpit.compiler import compile_paths
from spawnpit.generators import Pack
from spawnpit.generators.boardmap import board_svg
from spawnpit.generators.boardmap_layout import column, layered, layout
from spawnpit.resources import builtin_paths

SVG = "{http://www.w3.org/2000/svg}"


@cache
def pack() -> Pack:
    result = compile_paths(builtin_paths())
    assert result.ok
    return Pack(result.pack)


def board(system: str, name: str) -> dict:
    found = pack().get(system, "board", name)
    assert found is not None, name
    return found


def tree(svg) -> ET.Element:
    return ET.fromstring(str(svg))


def of_class(svg, name: str) -> list[ET.Element]:
    """Elements of a class on the map itself (the legend's samples are not counted)."""
    return [e for e in tree(svg).find(f"{SVG}g").iter() if e.get("class") == name]


def texts(svg) -> list[str]:
    return [e.text for e in tree(svg).iter(f"{SVG}text")]


BOARDS = [pytest.param(b, id=f"{b['system']}:{b['id']}") for b in pack().every("board")]


@pytest.mark.parametrize("b", BOARDS)
def test_every_builtin_board_draws_a_well_formed_self_contained_svg(b):
    svg = board_svg(pack(), b)
    root = tree(svg)
    assert root.tag == f"{SVG}svg"
    width, height = map(float, root.get("viewBox").split()[2:])
    assert 150 < width <= 760 and 100 < height <= 340  # fits the sheet's map box at a readable scale
    text = str(svg)
    assert "http" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")  # no external resources
    assert not re.search(r"None|True|False|\[\'|\{\'|\(\'", text)  # no Python-only data
    assert not any(e.tag in (f"{SVG}style", f"{SVG}script", f"{SVG}image", f"{SVG}use") for e in root.iter())


@pytest.mark.parametrize("b", BOARDS)
def test_the_same_board_gives_byte_identical_svg(b):
    again = Pack(json.loads(json.dumps(pack().data)))
    assert str(board_svg(pack(), b)) == str(board_svg(again, again.get(b["system"], "board", b["id"])))


def test_one_shape_per_space_on_grid_track_and_composite_boards():
    assert len(of_class(board_svg(pack(), board("lnoe", "town_center")), "space")) == 9
    assert len(of_class(board_svg(pack(), board("lnoe", "barn_farmhouse")), "space")) == 48  # 8x8 less the void 4x4
    farm = board("dotz", "farmingdale")
    tracks = {b["id"] for b in farm["blocks"] if b["kind"] == "track"}
    assert len(of_class(board_svg(pack(), farm), "space")) == len(set(farm["spaces"]) - tracks)
    # Town Center 3x3 and the six L-boards, each 8x8 less its void 4x4 notch: 9 + 6 × 48
    assert len(of_class(board_svg(pack(), board("lnoe", "small_town")), "space")) == 297


def test_walls_doors_and_start_spaces_of_the_manor_house_are_drawn():
    svg = board_svg(pack(), board("lnoe", "manor_house_board"))
    assert len(of_class(svg, "wall")) == 4
    assert len(of_class(svg, "door")) == 4
    assert len(of_class(svg, "start")) == 16  # a new Hero may enter anywhere in the house
    assert "Manor House" in texts(svg)


def test_legend_lists_only_the_symbols_a_map_uses():
    town = texts(board_svg(pack(), board("lnoe", "town_center")))
    assert "start space" in town
    assert not {"wall", "door", "window", "spawn point", "building", "objective"} & set(town)
    hospital = texts(board_svg(pack(), board("lnoe", "hangar_diner_hospital")))  # the Morgue's walls are drawn
    assert {"wall", "door", "spawn point", "building", "random-building roll"} <= set(hospital)
    assert "window" not in hospital and "start space" not in hospital


def test_buildings_are_labelled_with_their_name_and_roll():
    svg = board_svg(pack(), board("lnoe", "church_police_station"))
    assert {"Church", "1–3", "4–6"} <= set(texts(svg))
    assert len(of_class(svg, "roll")) == 2
    assert "item to pick up" in texts(svg)  # the Police Station's Pump Shotgun


def test_pick_boards_are_a_labelled_set_of_thumbnails():
    svg = board_svg(pack(), board("lnoe", "small_town"))
    words = texts(svg)
    assert "Four Random L-Boards: 4 of these 6, at random" in words
    for part in ("The Bank / Gas Station / Junkyard", "Church / Police Station", "Gym / High School", "Town Center"):
        assert part in words


def test_zone_boards_draw_links_with_doors_and_windows_and_group_building_zones():
    svg = board_svg(pack(), board("notld", "farmhouse"))
    assert len(of_class(svg, "link")) >= 20
    assert of_class(svg, "door") and of_class(svg, "window")
    assert len(of_class(svg, "building")) == 1 and "The House" in texts(svg)
    assert len(of_class(svg, "spawn")) == 4 and len(of_class(svg, "start")) == 4


def test_tracks_show_their_stacking_limit_and_named_spaces():
    svg = board_svg(pack(), board("dotz", "farmingdale"))
    words = texts(svg)
    assert sum("stacking limit 2" in w for w in words) == 5
    assert "Downtown" in words and "named space" in words
    assert len(of_class(svg, "spawn")) == 5


class _Pack:
    def get(self, *_):
        return None


HOSTILE = "<script>alert(1)</script>"


def _hostile_board() -> dict:
    return {"id": "evil", "system": "x", "kind": "board", "spaces": ["a1", "a2", "b1", "b2", "yard"],
            "props": {"title": HOSTILE, "grid": [2, 2], "spawn": ["a1"], "objective": ["b2"],
                      "corner": [["a1", "b2"]], "window": [["a1", "a2"]], "link": [["b2", "yard"]]},
            "blocks": [{"kind": "space", "id": "a1", "title": HOSTILE, "props": {}},
                       {"kind": "zone", "id": "yard", "title": "\"quoted\" & <b>", "props": {"tags": "named"}},
                       {"kind": "building", "id": "b", "title": "<i>Evil</i>",
                        "props": {"spaces": ["a2"], "roll": 3, "pick_up": "<img src=x>"}}]}


def test_every_piece_of_text_is_escaped():
    svg = str(board_svg(_Pack(), _hostile_board()))
    assert "<script" not in svg and "<img" not in svg and "<i>" not in svg and "<b>" not in svg
    assert "&lt;script&gt;" in svg
    root = ET.fromstring(svg)
    assert HOSTILE in [e.text for e in root.iter(f"{SVG}text")]
    assert root.get("aria-label") == HOSTILE


def test_corner_walls_windows_objectives_and_extra_links_are_drawn_and_in_the_legend():
    svg = board_svg(_Pack(), _hostile_board())
    for cls in ("corner", "window", "objective", "spawn", "link", "roll"):
        assert of_class(svg, cls), cls
    assert {"corner wall", "window", "objective", "spawn point", "extra link", "named space"} <= set(texts(svg))


def test_a_board_without_spaces_still_draws():
    svg = board_svg(_Pack(), {"id": "empty", "system": "x", "kind": "board", "props": {}, "spaces": []})
    assert "(no spaces)" in texts(svg)


def test_zone_layers_follow_the_links_from_the_spawn_zones():
    names = ["corner", "porch", "yard", "room"]
    pairs = [("corner", "porch"), ("corner", "yard"), ("porch", "room"), ("yard", "room")]
    assert layered(names, pairs, ["corner"]) == [["corner"], ["porch", "yard"], ["room"]]
    assert layered(["a", "b"], [], []) == [["a"], ["b"]]  # unlinked zones still get a place
    assert [column(i) for i in (0, 25, 26, 27)] == ["a", "z", "aa", "ab"]


def test_composite_parts_keep_their_own_space_names_apart():
    scene = layout(pack(), board("lnoe", "small_town"))
    assert "town_center.b2" in scene.places
    assert "l_boards?gym_high_school.a1" in scene.places
    assert all(k != "b2" for k in scene.places)


def test_the_scenario_sheet_embeds_the_map_once_and_leaves_the_approx_note_to_the_sheet():
    page = generators.sheet(pack(), "die_zombies_die").decode("utf-8")
    assert page.count("<svg") == 1 and 'class="board-map"' in page
    svg = page[page.index("<svg"):page.index("</svg>")]
    assert board("lnoe", "small_town")["props"]["approx"] not in svg
