"""Session 28: findings of the play-tests and of last session's list of things left alone."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from rich.console import Console

from spawnpit.engine.board import EVERYTHING
from spawnpit.engine.human import board_view, hole_cells, map_compact, town_layout
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import put
from tests.engine.test_lnoe_faq import bare_game


def _map_lines(game, numbers=None) -> list[str]:
    out = Console(file=StringIO(), width=80, color_system=None)
    out.print(board_view(game, numbers or {}, compact=True, viewer="heroes", width=80))
    return out.file.getvalue().splitlines()


# ---- the centre board drawn over its whole hole -----------------------------------------------------------

@pytest.mark.parametrize("scenario, seed", [("die_zombies_die", 1), ("die_zombies_die", 2), ("die_zombies_die", 7),
                                            ("defend_the_manor_house", 1), ("defend_the_manor_house", 4)])
def test_the_centre_board_covers_its_hole_and_touches_every_cell_it_links_to(pack, scenario, seed):
    """A play-test read the Town Center, drawn as a small 3x3 in the middle of an empty 8x8 square, as far
    from the boards around it, though each of its spaces borders them. Now each space is one big cell
    and the big cells tile the hole, each touching (side or corner) every cell around the hole that its
    space has an edge to: every step there is looks like one on the map. (Not every corner a big cell
    touches is a step: the Town Center's spaces are 2 2/3 L-board spaces across, drawn 3 or 2 cells;
    test_lnoe_session29 and the Manor House's test below check that the spaces border exactly what their
    squares touch.)"""
    game = bare_game(pack, scenario, seed=seed)
    layout = town_layout(game)
    (hole,) = layout.holes
    cells = hole_cells(game, hole)
    assert set(cells) == {s for s in game.board.spaces if game.board.info[s].grid == hole.grid}
    covered = [(x, y) for left, top, right, bottom in cells.values()
               for x in range(left, right + 1) for y in range(top, bottom + 1)]
    assert sorted(covered) == sorted((x, y) for x in range(hole.left, hole.right + 1)
                                     for y in range(hole.top, hole.bottom + 1))  # each cell of the hole once
    links = 0
    for sid, (left, top, right, bottom) in cells.items():
        assert bottom - top >= 1  # two lines at least: its name, then who is there
        for n in game.board.neighbours(sid, through=EVERYTHING):
            if n in layout.at:
                x, y = layout.at[n]
                assert max(left - x, x - right, top - y, y - bottom) == 1, (sid, n)
                links += 1
    assert links >= 4 * 8  # every side of the hole is linked along its length


def test_a_unit_in_the_town_center_is_drawn_in_its_space_s_big_cell(pack):
    game = bare_game(pack, seed=2)
    put(game, "jenny", "town_center.a1")
    for _ in range(3):
        put(game, "zombie", "town_center.c3")
    lines = _map_lines(game, {game.board.resolve("town_center.b2"): 5})
    for name, shown in (("a1", "Je"), ("c3", "Z3"), ("b2", " 5")):
        (row,) = [i for i, line in enumerate(lines) if re.search(rf"[│┃╏]{name} ", line)]
        start = re.search(rf"[│┃╏]{name} ", lines[row]).start() + 1
        end = next(i for i in range(start, len(lines[row])) if lines[row][i] in "│┃╏┆")
        below = lines[row + 1][start:end]
        assert shown in below, (name, lines[row:row + 2])
    assert all(len(line) <= 80 for line in lines)


def test_the_manor_house_is_drawn_with_its_outer_doors_and_walls(pack):
    """The Manor House's outline is wall but for a door on each side (a2, c1, d3, b4, reconstructed): the
    hole's sides were drawn as open street, so a Hero defending the house could not see its doors."""
    game = bare_game(pack, "defend_the_manor_house", seed=1)
    layout = town_layout(game)
    (hole,) = layout.holes
    panel = map_compact(game, {}, {})
    text = panel.renderable
    console = Console(file=StringIO(), width=80, color_system="truecolor")
    lines = text.plain.split("\n")
    doors = walls = 0
    around = layout.space_at()
    for sid, (left, top, right, bottom) in hole_cells(game, hole).items():
        # a cell x of the map is characters 4x to 4x+2 of its line, the edge before it character 4x-1
        for y in range(top, bottom + 1):  # the hole's left and right sides
            for ring_x, at in ((left - 1, 4 * left - 1), (right + 1, 4 * (right + 1) - 1)):
                ring = around.get((ring_x, y)) if ring_x in (hole.left - 1, hole.right + 1) else None
                kind = game.board.edge(ring, sid) if ring else None
                if kind is not None:
                    assert lines[y][at] == {"door": "╏", "wall": "┃"}.get(kind, "│"), (sid, ring, kind, y)
                    doors, walls = doors + (kind == "door"), walls + (kind == "wall")
        for x in range(left, right + 1):  # top and bottom: the cell above, the big cell's last line, underlined
            for ring_y, line in ((top - 1, top - 1), (bottom + 1, bottom)):
                ring = around.get((x, ring_y)) if ring_y in (hole.top - 1, hole.bottom + 1) else None
                kind = game.board.edge(ring, sid) if ring else None
                if kind in ("door", "wall"):
                    style = text.get_style_at_offset(console, sum(len(ln) + 1 for ln in lines[:line]) + 4 * x)
                    assert style.underline and (style.color is not None and style.color.name == "yellow") == \
                        (kind == "door"), (sid, ring, kind)
                    doors, walls = doors + (kind == "door"), walls + (kind == "wall")
    assert doors == 4 and walls >= 20  # a door on each side (a2, c1, d3, b4), wall all round but for them


def test_a_manor_house_space_borders_every_l_board_space_it_touches(pack):
    """The Manor House's spaces are two L-board spaces across, so each borders exactly the L-board spaces
    around its two, corners included. The links were the Town Center's (2 2/3 across): a play-test's
    Zombie below c4 had no diagonal way into d4, while its mirror below d4 could step into c4."""
    game = bare_game(pack, "defend_the_manor_house", seed=3)
    layout = town_layout(game)
    (hole,) = layout.holes
    around = layout.space_at()
    for sid, (left, top, right, bottom) in hole_cells(game, hole).items():
        touching = {around[x, y] for x in range(left - 1, right + 2) for y in range(top - 1, bottom + 2)
                    if (x, y) in around}
        linked = {n for n in game.board.neighbours(sid, through=EVERYTHING) if n in layout.at}
        assert touching == linked, sid
        assert right - left == bottom - top == 1  # two by two


def test_the_goal_at_the_end_of_the_sun_track_reads_as_the_track_does(pack):
    """The goals line said "Heroes win at sundown" for Defend the Manor House, whose text says the Heroes
    hold out until dawn: the event's id, or the title of the rule of the same name (Sundown), was shown.
    Now the event's own title, as on the scenario sheet."""
    from spawnpit.engine.human import cause_text, objectives_view

    game = bare_game(pack, "defend_the_manor_house")
    assert objectives_view(game).plain.endswith("·  Heroes win at the end of the Sun Track")
    met = next(o for o in game.objectives if o.get("at") == "sundown")
    result = {"winner": "heroes", "side": "heroes", "cause": met["text"], "round": 18}
    assert cause_text(game, result) == "Heroes win at the end of the Sun Track"


def test_under_auto_spawn_holding_back_is_not_said_to_ease_a_spawn_roll(pack):
    """Defend the Manor House has Zombies Auto Spawn: no 2D6 roll, so fewer Zombies on the board make
    nothing easier. A play-test was offered "Hold back one or more of them (fewer Zombies on the board
    make the next spawn roll easier)". The option now says only what it does; why is the rule's text,
    shown with the question, which says there is no roll under Auto Spawn. Holding back still works."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import answer

    game = bare_game(pack, "defend_the_manor_house")
    game.state["counters"]["auto_spawn"] = 1  # what the rule Zombies Auto Spawn sets up
    script = answer(game, "zombies", "Hold back one or more of them", "Place the rest now")
    left = dice(game, [4])  # no 2D6: only the D6 of how many
    game.emit("zombie_turn.spawn_roll")
    game.emit("zombie_turn.place_spawns")
    assert not left
    assert script.asked[0][1] == ["Place every Zombie the die allows", "Hold back one or more of them"]
    assert sum(e["count"] for e in game.entries if e["type"] == "spawn") == 3
    rule = next(r for r in game.model.system["blocks"] if r.get("kind") == "rule" and r.get("title") == "Zombie Spawning")
    assert "Under Zombies Auto Spawn there is no 2D6 roll" in rule["props"]["text"]


# ---- Fire Extinguisher in the Zombie Turn ------------------------------------------------------------------

def test_a_fire_extinguisher_may_be_sprayed_before_the_zombie_turn_s_fights(pack):
    """The card says any time but in a fight. A play-test's Johnny, six Zombies just moved into his space,
    was never offered it before the Zombie Turn's fights: only in his own Hero Turn."""
    from spawnpit.engine import AIPolicy
    from tests.engine.test_lnoe_faq import give, where

    game = bare_game(pack)
    game.policies["heroes"] = AIPolicy()
    johnny = put(game, "johnny", "town_center.b2")
    lone = put(game, "zombie", "town_center.a1")  # next door, and first in the table: not the one to spray
    zombies = [put(game, "zombie", "town_center.b2") for _ in range(3)]
    b2 = game.board.resolve("town_center.b2")
    far = put(game, "zombie", next(s for s in game.board.spaces if game.board.between(s, b2) > 3))
    card = give(game, "fire_extinguisher", johnny)
    game.emit("zombie_turn.fight.start")
    assert where(game, card) == "discard"
    for z in zombies:
        assert where(game, z) != b2 and game.board.between(where(game, z), b2) == 1
    assert where(game, lone) == game.board.resolve("town_center.a1")
    assert game.board.between(where(game, far), b2) > 3


def test_no_fire_extinguisher_question_without_a_zombie_near_its_holder(pack):
    from tests.engine.test_lnoe_faq import give, where

    game = bare_game(pack)
    johnny = put(game, "johnny", "town_center.b2")
    b2 = game.board.resolve("town_center.b2")
    put(game, "zombie", next(s for s in game.board.spaces if game.board.between(s, b2) > 3))
    card = give(game, "fire_extinguisher", johnny)
    game.emit("zombie_turn.fight.start")
    assert where(game, card) == johnny.id and not game.policies["heroes"].asked


# ---- a fight's outcome said once the cards that change it are played ---------------------------------------

def test_get_back_you_devils_is_offered_before_the_zombie_is_said_to_be_fended_off(pack):
    """The play-test read "The Hero wins: the Zombie is fended off", then was offered Get Back You Devils!,
    which kills it: a fight is settled only once nobody plays more cards (LNOE rulebook, Fighting)."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import notes, to_hand, where

    for play in (True, False):
        game = bare_game(pack, heroes=[0, 0] if play else [None])
        sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
        card = to_hand(game, "get_back_you_devils", "heroes")
        dice(game, [5, 3], [4])  # 5 against 4, no doubles: won, the Zombie only fended off
        game.emit("fight", {"fighter": sheriff, "foe": zombie})
        assert game.policies["heroes"].asked[0] == ("choose card to play", [Ref("card", card), None])
        offered = next(i for i, e in enumerate(game.entries) if e["type"] == "choice")
        said = [i for i, e in enumerate(game.entries) if e.get("text") == "The Hero wins: the Zombie is fended off"]
        if play:
            assert where(game, zombie) is None and where(game, card) == "discard" and said == []
        else:
            assert where(game, zombie) is not None and where(game, card) == "side:heroes"
            assert len(said) == 1 and offered < said[0]  # the card first, then what comes of the fight


# ---- Old Betsy holds a Zombie as it steps out --------------------------------------------------------------

def test_old_betsy_holds_a_zombie_hero_at_its_first_step_and_its_move_is_over(pack):
    """The play-test's Zombie Hero walked f4 → f3 → f2 into a Hero's space, and only after every Zombie had
    moved was Old Betsy's roll made and the Zombie Hero put back: a Zombie is held as it steps out."""
    from spawnpit.engine import AIPolicy
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import to_hand, where

    game = bare_game(pack)
    game.policies["zombies"] = AIPolicy()
    put(game, "becky", "town_center.c3")
    zh = put(game, "zombie_hero", "town_center.a1")
    other = put(game, "zombie", "town_center.a2")
    to_hand(game, "old_betsy", "heroes")
    a1 = game.board.resolve("town_center.a1")
    game.mark(Ref("space", a1), "old_betsy", 1, game._plain_ctx())
    left = dice(game, [3], [2])  # the Zombie Hero's D3 move, then Old Betsy's roll: held
    game.emit("zombie_turn.move_zombies")
    assert not left  # one roll for Old Betsy: held, the Zombie Hero tries no second step
    assert where(game, zh) == a1 and where(game, other) != game.board.resolve("town_center.a2")
    held = next(i for i, e in enumerate(game.entries) if e.get("text", "").startswith("Old Betsy holds Zombie Hero"))
    moves = [i for i, e in enumerate(game.entries) if e["type"] == "move" and e["unit"] == other.id]
    assert moves and held < moves[0]  # held before the next Zombie moved


def zombie_with_old_betsy(pack):
    """A game whose ai Zombies play, one Zombie in Town Center b2 with Old Betsy (in play there) and Becky
    6 spaces away: (game, b2, the Zombie)."""
    from spawnpit.engine import AIPolicy
    from tests.engine.test_lnoe_faq import to_hand

    game = bare_game(pack)
    game.policies["zombies"] = AIPolicy()
    b2 = game.board.resolve("town_center.b2")
    put(game, "becky", next(s for s in game.board.spaces if game.board.between(s, b2) == 6))
    z = put(game, "zombie", b2)
    to_hand(game, "old_betsy", "heroes")
    game.mark(Ref("space", b2), "old_betsy", 1, game._plain_ctx())
    return game, b2, z


def test_old_betsy_holds_a_zombie_on_a_card_s_walk_at_its_first_step(pack):
    """A card's walk of several spaces (Shamble's zombie_walk) out of her space is rolled for at the step
    out, and the walk is over: before, it went on to the end and was put back afterwards."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import to_hand, where

    game, b2, z = zombie_with_old_betsy(pack)
    left = dice(game, [1])  # Old Betsy's roll: held
    game.emit("zombie_walk", {"walker": z, "moves": 4, "card": Ref("card", to_hand(game, "shamble", "zombies"))})
    assert not left and where(game, z) == b2
    steps = [(e["from"], e["to"]) for e in game.entries if e["type"] == "move" and e["unit"] == z.id]
    assert len(steps) == 2 and steps[0][0] == steps[1][1] == b2  # one step out, and put back


def test_a_card_s_keywords_are_shown_so_a_townsfolk_can_be_told(pack):
    """Save the Townsfolk counts the Townsfolk held, but `?N` on Farmer Sty said only its type, timing and
    text: the play-test learned it was a Townsfolk from the log's "Townsfolk held: 1"."""
    from spawnpit.engine.human import explain_option
    from tests.engine.test_lnoe_faq import to_hand

    game = bare_game(pack, "save_the_townsfolk")
    sty = to_hand(game, "farmer_sty", "heroes")
    lines = explain_option(game, Ref("card", sty)).splitlines()
    assert lines[0] == "type: event" and "keywords: townsfolk, scenario search, remains in play, advanced" in lines
    lights = to_hand(game, "lights_out", "zombies")
    assert explain_option(game, Ref("card", lights)).splitlines()[0] == "type: zombie event"


def test_a_side_s_own_draws_are_named_on_its_screen_and_only_there(pack):
    """The play-test read "1 drawn from Hero Deck to Father Joseph" and had to compare `c` before and after
    to learn what Father Joseph drew. The log keeps which cards; a screen names them to their holder's
    side alone (the Zombie player still reads only how many)."""
    from spawnpit.engine.human import describe_entry, log_view
    from tests.engine.test_lnoe_faq import on_top

    game = bare_game(pack)
    joseph = put(game, "father_joseph", "town_center.b2")
    on_top(game, "revolver")
    game.draw("hero_deck", 1, joseph, game._plain_ctx())
    entry = next(e for e in game.entries if e["type"] == "draw")
    assert len(entry["cards"]) == 1 and game.state["cards"][entry["cards"][0]]["proto"] == "revolver"
    assert describe_entry(game, entry, "heroes") == "1 drawn from Hero Deck to Father Joseph: Revolver"
    # (an Item lies face up by its Hero: the Zombie player reads it too, session 31; an Event stays secret)
    assert describe_entry(game, entry, "zombies") == "1 drawn from Hero Deck to Father Joseph: Revolver"
    assert describe_entry(game, entry) == "1 drawn from Hero Deck to Father Joseph"
    on_top(game, "get_back_you_devils")
    game.draw("hero_deck", 1, joseph, game._plain_ctx())
    for side, named in (("heroes", True), ("zombies", False), (None, False)):  # the log on each side's screen
        out = Console(file=StringIO(), width=80, color_system=None)
        out.print(log_view(game, game.entries, viewer=side))
        assert ("to Father Joseph: Get Back You Devils!" in out.file.getvalue()) == named, side


def test_b_n_draws_a_board_as_it_lies_on_the_map_its_rows_and_columns_labelled(pack):
    """`b 2` drew an L-board as its own grid, turned against the map (the Bank top left there, top right on
    the map), so its cell names could not be matched to the map. Now it lies as on the map, what is in
    each cell shown as there (an option's number, a unit), and each row and column of the map is
    labelled by the letter or number its cells share, so every cell's name reads off the labels."""
    from spawnpit.engine.human import board_grids

    game = bare_game(pack, seed=3)
    layout = town_layout(game)
    put(game, "jenny", "town_center.b2")
    for gid in board_grids(game):
        cells = {s: xy for s, xy in layout.at.items() if game.board.info[s].grid == gid}
        if not cells:
            continue  # (the Town Center, in its hole: named on the map itself)
        numbers = {sid: i for i, sid in enumerate(sorted(cells), 1) if i < 10}  # a question's numbers on it
        out = Console(file=StringIO(), width=80, color_system=None)
        out.print(board_view(game, numbers, True, "heroes", whole=False, width=80, part=gid))
        lines = out.file.getvalue().splitlines()
        x0, y0 = min(x for x, _ in cells.values()), min(y for _, y in cells.values())
        pad = 1  # (row labels are one character: a letter or a digit)
        for sid, (x, y) in cells.items():
            top = lines[1][1 + pad + 1 + 4 * (x - x0):][:3].strip()
            side = lines[2 + y - y0][1:1 + pad].strip()
            assert sorted(top + side) == sorted(sid.rsplit(".", 1)[-1]), (gid, sid, top, side)
            if sid in numbers:
                assert lines[2 + y - y0][1 + pad + 1 + 4 * (x - x0):][:3].strip() == str(numbers[sid])


def test_a_zombie_is_numbered_among_the_zombies_not_by_its_id(pack):
    """The play-tests read "Zombie 128", "Zombie 130": ids count every unit and card token made, so they
    ran past a hundred with fourteen Zombies on the board. A Zombie is now numbered among the Zombies, in
    the order they came into the game, and a saved game restored numbers them alike."""
    from spawnpit.engine import new_game
    from spawnpit.engine.human import _unit
    from spawnpit.engine.state import dumps, loads

    game = bare_game(pack)
    put(game, "jenny", "town_center.b2")
    zombies = [put(game, "zombie", "town_center.a1") for _ in range(3)]
    put(game, "billy", "town_center.c3")
    zombies.append(put(game, "zombie", "town_center.a1"))
    assert [_unit(game, z.id) for z in zombies] == ["Zombie 1", "Zombie 2", "Zombie 3", "Zombie 4"]
    assert int(zombies[-1].id.lstrip("u")) > 4  # (its id is not its number)
    again = new_game(pack, "lnoe:die_zombies_die", seed=1)
    again.state = loads(dumps(game.state))
    assert [_unit(again, z.id) for z in zombies] == ["Zombie 1", "Zombie 2", "Zombie 3", "Zombie 4"]


def test_every_lnoe_card_played_at_a_moment_says_when(pack):
    """`?N` on Blocked Windows showed no timing line, where other cards have one: every Zombie card and
    every Hero Event now says when it is played (the Zombie Events the start of the Zombie Turn, where the
    Zombie Cards rule offers them)."""
    cards = [o for o in pack["objects"] if o["kind"] == "card" and o.get("system") == "lnoe"]
    assert len(cards) > 60
    missing = [o["id"] for o in cards if not o["props"].get("timing")
               and (o["props"].get("deck") == "zombie_deck" or o["props"].get("type") == "event")]
    assert missing == []
    pit = next(o for o in cards if o["id"] == "new_spawning_pit")
    assert pit["props"]["timing"] == "Start of the Zombie Turn"


def test_an_event_on_a_hero_is_held_not_carried(pack):
    """The play-test read "Jake Cartwright … carries Get Back You Devils!" while Resourceful sorted his
    cards: an Event is not an Item a Hero carries."""
    from spawnpit.engine.human import side_view
    from tests.engine.test_lnoe_faq import give

    def panel() -> str:
        out = Console(file=StringIO(), width=120, color_system=None)
        out.print(side_view(game, "heroes"))
        return out.file.getvalue()

    game = bare_game(pack)
    jake = put(game, "jake_cartwright", "town_center.b2")
    give(game, "revolver", jake)
    assert "carries Revolver" in panel()
    give(game, "get_back_you_devils", jake)
    assert "holds Get Back You Devils!, Revolver" in panel()


def test_two_zombie_heroes_in_a_space_are_two_options(pack):
    """The play-test's target list read "Zombie Hero ×2 in Town Center a1, any one": Becky's and the
    Sheriff's, told apart by their names, were offered as one."""
    from spawnpit.engine.human import alike_options

    game = bare_game(pack)
    risen = []
    for hero in ("becky", "sheriff_anderson"):
        unit = put(game, "zombie_hero", "town_center.a1")
        game.state["units"][unit.id]["name"] = f"Zombie Hero ({hero})"
        risen.append(unit)
    zombies = [put(game, "zombie", "town_center.a1") for _ in range(2)]
    assert alike_options(game, risen + zombies) == [[0], [1], [2, 3]]


# ---- a goal met in a hook ends the game before the event's next hook ------------------------------------

def test_an_escape_ends_the_game_before_first_aid_asks_anything(pack):
    """The play-test's Heroes escaped in the Truck at the end of the Hero Turn ("Escaped: 1"), were then
    asked whom Becky's First Aid heals, and only then saw the game end: the rulebook's game "immediately
    ends" once a side has won."""
    from tests.engine.test_lnoe_faq import give

    game = bare_game(pack, "escape_in_the_truck", heroes=[None])  # (First Aid, if asked: declined)
    b2 = game.board.resolve("town_center.b2")
    game.mark(Ref("space", b2), "truck", 1, game._plain_ctx())
    game.state["counters"]["truck_filled"] = 1
    becky = put(game, "becky", b2)
    jake = put(game, "jake_cartwright", b2)
    game.state["units"][jake.id]["wounds"] = 1
    give(game, "keys", becky)
    game.emit("hero_turn.end")
    assert game.state["result"]["winner"] == "heroes"
    assert game.policies["heroes"].asked == []  # First Aid was not asked: the game was over
    assert game.state["units"][jake.id]["wounds"] == 1


def test_old_betsy_holds_a_hungry_zombie_hero_once_and_its_move_is_over(pack):
    """A Zombie Hero next to a Hero steps in on it (Zombie Hunger); held by Old Betsy, its move is over:
    it does not try again with the rest of its D3 (one roll for her, not one a step)."""
    from spawnpit.engine import AIPolicy
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import to_hand, where

    game = bare_game(pack)
    game.policies["zombies"] = AIPolicy()
    put(game, "becky", "town_center.b2")
    zh = put(game, "zombie_hero", "town_center.a1")
    to_hand(game, "old_betsy", "heroes")
    a1 = game.board.resolve("town_center.a1")
    game.mark(Ref("space", a1), "old_betsy", 1, game._plain_ctx())
    left = dice(game, [3], [2])  # its D3 move, then Old Betsy's roll as it steps in on Becky: held
    game.emit("zombie_turn.move_zombies")
    assert not left and where(game, zh) == a1


def test_the_other_side_s_hand_is_secret_on_a_screen(pack):
    """The Zombies' play-test read "I'll See You In Hell! given to Heroes" and played Hysteria knowing it:
    an Event a Hero draws goes to the Heroes' hand, which the Zombie player must not see. A card taken
    from a discard pile (face up) is still named to everyone, and the log keeps every card."""
    from spawnpit.engine.human import describe_entry
    from tests.engine.test_lnoe_faq import on_top, to_discard

    game = bare_game(pack)
    jenny = put(game, "jenny", "town_center.b2")
    on_top(game, "ill_see_you_in_hell")
    (drawn,) = game.draw("hero_deck", 1, jenny, game._plain_ctx())
    game.give(drawn, Ref("side", "heroes"), game._plain_ctx())
    given = [e for e in game.entries if e["type"] == "give"][-1]
    assert given["card"] == "ill_see_you_in_hell" and "from" not in given
    assert describe_entry(game, given, "heroes") == "I'll See You In Hell! given to Heroes"
    assert describe_entry(game, given, "zombies") == "a card goes into the Heroes' hand"
    assert describe_entry(game, given) == "I'll See You In Hell! given to Heroes"  # (no viewer: the whole record)
    old = to_discard(game, "revolver")
    game.give(Ref("card", old), Ref("side", "heroes"), game._plain_ctx())
    taken = [e for e in game.entries if e["type"] == "give"][-1]
    assert taken["from"] == "discard" and describe_entry(game, taken, "zombies") == "Revolver given to Heroes"


def test_the_status_line_says_the_move_roll_of_the_action_under_way(pack):
    """A play-test rolled the movement die first, to choose Move or Search, and the screen then showed no
    roll: the map had crowded the log out. The status line says it while the Hero's Move Action lasts,
    and not once the next Hero is chosen."""
    from spawnpit.engine.human import status
    from tests.engine.lnoe_table import dice

    game = bare_game(pack)
    jenny = put(game, "jenny", "town_center.b2")
    dice(game, [4])
    game.emit("move_roll", {"mover": jenny})
    assert "│ Move roll 4" in status(game, with_goals=False).plain
    game.log({"type": "choice", "side": "heroes", "label": "hero_turn: who acts", "options": 2, "index": 0,
              "picked": jenny.id}, None)
    assert "Move roll" not in status(game, with_goals=False).plain


def test_a_building_option_is_explained_and_a_space_names_its_inside_doors(pack):
    """My God, They've Taken the… asks for a building: `?N` said "(nothing more to say)". And Locked Door
    offered Hospital g1, whose only door leads to another Hospital space: `?N` named no door."""
    from spawnpit.engine.human import _space_facts, explain_option, space_name

    game = bare_game(pack, needs=("hospital",))
    hospital = next(b for b in game.board.buildings if b.endswith(".hospital"))
    inside = next(s for s in game.board.spaces if game.board.info[s].building == hospital)
    put(game, "jenny", inside)
    said = explain_option(game, Ref("building", hospital)).splitlines()
    assert said[0].startswith("Hospital: ") and f"here: {space_name(game, inside)}: Jenny" in said
    doors = {(s, n) for s in game.board.spaces for n in game.board.neighbours(s, through=EVERYTHING)
             if game.board.edge(s, n) == "door" and game.board.info[s].building == hospital
             and game.board.info[n].building == hospital}
    assert doors, "the reconstructed Hospital has a door between two of its rooms"
    s, n = sorted(doors)[0]
    assert f"a door to {space_name(game, n)} (inside)" in _space_facts(game, s)


def test_the_zombie_a_question_is_about_is_drawn_reversed_on_the_map(pack):
    """The Zombies' play-test was asked to move "the Zombie in Bank/Gas Station/Junkyard e2" one Zombie
    after another, and could not find e2 on the map (it shows buildings, not cell names): its cell's units
    are drawn reversed, and the question says so."""
    from spawnpit.engine.human import HumanPolicy
    from tests.engine.test_human import answers

    game = bare_game(pack)
    b2 = game.board.resolve("town_center.b2")
    put(game, "becky", next(s for s in game.board.spaces if game.board.between(s, b2) == 5))
    put(game, "zombie", b2)
    out = Console(file=StringIO(), width=80, height=40, color_system="standard", force_terminal=True)
    game.policies["zombies"] = HumanPolicy(console=out, input=answers(["0"], then=None))
    game.emit("zombie_turn.move_zombies")
    shown = out.file.getvalue()
    assert "(the Zombie in Town Center b2, marked on the map)" in re.sub(r"\x1b\[[0-9;]*m", "", shown).replace("\n", " ")
    assert re.search(r"\x1b\[(?:\d+;)*7(?:;\d+)*mZ\b", shown), "the Zombie's cell reversed"


def test_p_bang_lasts_the_turn_not_the_round(pack):
    """A play-test typed p! against Strength of Spirit in a Zombie Turn and lost the chance to cancel Out
    of Control in the Hero Turn after it: a player thinks in turns. p! now passes until the turn ends."""
    from spawnpit.engine.human import HumanPolicy
    from tests.engine.test_human import answers

    game = bare_game(pack)
    game.state["round"], game.state["at"] = 3, ["zombie_turn", "move_zombies"]
    con = Console(file=StringIO(), width=200, height=60, color_system=None)
    human = HumanPolicy(console=con, input=answers(["p!", "1"], then=None))
    options = ["try", None]
    assert human.choose(game, "heroes", "choose an option", options) == 1  # p!
    assert human.choose(game, "heroes", "choose an option", options) == 1  # passed by itself, the same turn
    game.state["at"] = ["hero_turn", "move"]
    assert human.choose(game, "heroes", "choose an option", options) == 0  # asked again: "1"
    assert con.file.getvalue().count("(p! this turn)") == 1


def test_a_centre_part_with_a_void_cell_is_still_drawn(pack):
    """The final read: a home-made centre board with a void cell (no space there) raised KeyError while
    the map cut its hole; the void cell is now left blank, and the rest drawn as before."""
    import dataclasses

    game = bare_game(pack, seed=2)
    real = game.board
    a1 = real.resolve("town_center.a1")

    class Voided:  # the same board, its Town Center a1 no cell of the part (as a `void` cell would be)
        info = {**real.info, a1: dataclasses.replace(real.info[a1], grid="elsewhere")}

        def __getattr__(self, name):
            return getattr(real, name)

    layout = town_layout(game)
    game.board = Voided()
    cells = hole_cells(game, layout.holes[0])
    assert a1 not in cells and len(cells) == 8
    assert town_layout(game) is layout
