"""Session 30: last session's list of things left alone, and the findings of its play-tests."""

from __future__ import annotations

import re
from io import StringIO

from rich.console import Console

from spawnpit.engine.human import board_view, unit_marks
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import put
from tests.engine.test_lnoe_faq import bare_game


def _screen(game, numbers=None) -> str:
    out = Console(file=StringIO(), width=80, color_system=None)
    out.print(board_view(game, numbers or {}, compact=True, viewer="zombies", width=80))
    return out.file.getvalue()


def _l_board_space(game, n: int = 0) -> str:
    """The nth space of an L-board (a small cell on the map: three characters)."""
    return [s for s in game.board.spaces if game.board.info[s].grid and not s.startswith("town_center")][n]


def _emptied(pack):
    game = bare_game(pack)
    for record in game.state["units"].values():
        record["space"] = None
    return game


# ---- a crowded cell's shorthand --------------------------------------------------------------------------

def test_two_heroes_and_four_zombies_in_a_small_cell_show_both_counts(pack):
    """Session 29 left alone: two Heroes and four Zombies in a three-character cell read "H2Z4" cropped to
    "H2Z", the Zombies' count lost. Now each side's count alone, in its colour, a dot between: "2·4", and
    the key says what that cell means."""
    game = _emptied(pack)
    space = _l_board_space(game)
    put(game, "billy", space)
    put(game, "sally", space)
    for _ in range(4):
        put(game, "zombie", space)
    assert unit_marks(game, True)[space].plain == "2·4"
    screen = _screen(game)
    assert "2·4" in screen and "H2Z" not in screen
    assert "2·4 2 Heroes, 4 Zombies" in " ".join(screen.split())


def test_a_named_unit_and_the_others_count_is_explained_by_that_cell(pack):
    """The key's example of a crowded cell read "Je3 Je+3 others" whatever the cell showed. Now it is one
    cell the map draws that way: Jenny and three Zombies, "Je3", "Je and 3 others"."""
    game = _emptied(pack)
    space = _l_board_space(game, 3)
    put(game, "jenny", space)
    for _ in range(3):
        put(game, "zombie", space)
    assert unit_marks(game, True)[space].plain == "Je3"
    key = " ".join(_screen(game).split())
    assert "Je3 Je and 3 others" in key


def test_a_shorthand_no_cell_shows_is_not_explained(pack):
    """Cells that show everyone ("JeZ", Jenny and a Zombie) need no explaining, and the key has no room to
    spare at 80x24."""
    game = _emptied(pack)
    space = _l_board_space(game, 3)
    put(game, "jenny", space)
    put(game, "zombie", space)
    screen = _screen(game)
    assert "JeZ" in screen and " others" not in screen and "·" not in screen.replace("  ·  ", "")


def test_a_town_center_space_shows_its_units_with_the_room_of_its_big_cell(pack):
    """A Town Center space is drawn as a big cell (seven or eleven characters), but its units were written
    as in a three-character cell: "H2Z" there too. Now they get the big cell's room."""
    game = _emptied(pack)
    middle = game.board.resolve("town_center.b2")
    corner = game.board.resolve("town_center.a1")
    put(game, "billy", middle)
    put(game, "sally", middle)
    for _ in range(4):
        put(game, "zombie", middle)
    put(game, "jake_cartwright", corner)
    for _ in range(3):
        put(game, "zombie", corner)
    screen = _screen(game)
    assert "BiSaZ4" in screen  # seven characters: no room for the spaces between
    assert "Ja Z3" in screen  # eleven
    assert "H2Z" not in screen and "2·4" not in screen  # nothing cropped, no shorthand (and none explained)
    assert "others" not in screen


# ---- the game told as a story: play --story, replay --story ----------------------------------------------

def test_play_story_tells_the_whole_game_and_replay_tells_it_the_same(tmp_path):
    """An AI game's summary said who won and listed counters (ai_hunt 1, fire_ok 1…): a balance tester
    could not see how the game went. `--story` prints every line of the log as sentences, each moment
    under its heading, cards drawn named (no side's hand is secret once the game is over); `replay
    --story` tells a logged game the same way."""
    from click.testing import CliRunner

    from spawnpit.cli import main

    log = tmp_path / "game.jsonl"
    played = CliRunner().invoke(main, ["play", "die-zombies-die", "--seed", "31", "--story", "--log", str(log)])
    assert played.exit_code == 0, played.output
    lines = played.output.splitlines()
    head = lines.index("round 0 · setup")  # (after what went to stderr: "wrote game.jsonl")
    assert lines[head - 2:head] == ["Die Zombies, Die!, seed 31 (Heroes ai, Zombies ai)", ""]  # (no Martians)
    lines = lines[head:]
    assert "round 1 · Zombie Turn › Draw New Zombie Cards" in lines
    assert any(line.startswith("  4 drawn from Zombie Deck to Zombies: ") for line in lines)  # named
    assert any(line.startswith("  GAME OVER: ") for line in lines)
    summary = next(i for i, line in enumerate(lines) if line.startswith("Die Zombies, Die!: "))
    assert summary > 100 and lines[summary - 1] == ""  # the story first, then the summary
    replayed = CliRunner().invoke(main, ["replay", str(log), "--story"])
    assert replayed.exit_code == 0, replayed.output
    told = replayed.output.splitlines()
    assert "Die Zombies, Die!, seed 31 (Heroes ai, Zombies ai)" in told  # (the players the log names)
    told = told[told.index("round 0 · setup"):]
    assert told[:summary] == lines[:summary] and told[-1].startswith("reproduced: ")
    plain = CliRunner().invoke(main, ["play", "die-zombies-die", "--seed", "31"])
    assert "round 0 · setup" not in plain.output  # without --story: the summary alone
    # the summary ends where the game stood, as a person's status line says it, and the goals with their
    # progress; not the engine's counters (ai_hunt 1, fire_ok 1, hero_dice [3, 4]…)
    assert "counters:" not in plain.output and "ai_hunt" not in plain.output
    ended = re.search(r"won in round (\d+)", plain.output).group(1)
    assert any(re.fullmatch(rf"  Round {ended} of 15 · .+ · Sun Track \d+", line) for line in plain.output.splitlines())
    assert "  Goals: Heroes win when zombies killed ≥ 15 (now " in plain.output


# ---- the ai's Exchange Items --------------------------------------------------------------------------------

def test_the_ai_takes_exchange_items_only_when_it_hands_something_over(pack):
    """The ai took the Exchange Items action whenever another Hero shared the space, then handed nothing
    over (its rule takes a Weapon from a Hero carrying two, for a Hero with none): "Jenny: Exchange Items"
    and nothing after it, 25 times in one game. Each exchange the ai takes now moves an Item."""
    from spawnpit.engine import new_game
    from spawnpit.engine.flow import run
    from spawnpit.engine.policies import AIPolicy

    taken = 0
    for seed in range(40):
        game = new_game(pack, "lnoe:die_zombies_die", seed=seed, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
        run(game)
        entries = game.entries
        for i, e in enumerate(entries):
            if e.get("type") == "action" and e.get("action") == "exchange_items":
                taken += 1
                after = entries[i + 1:]
                upto = next((j for j, x in enumerate(after) if x.get("type") == "action"), len(after))
                assert any(x.get("type") == "give" for x in after[:upto]), (seed, i)
    assert taken >= 3  # (the ai does still exchange)


# ---- a Hero set up in their building is placed, not moved -------------------------------------------------

def test_a_hero_set_up_in_their_building_is_placed_there_not_moved(pack):
    """Session 29 left alone: setting up, a Hero the engine put in the first space of their Start: building
    and the Hero player then placed in another read "Johnny moves Gym a6 → b6", as if he had walked. A
    `place` is logged as a move marked `placed` and told "Johnny is placed in Gym b6"; walks are still
    walks."""
    from spawnpit.engine import new_game
    from spawnpit.engine.flow import run
    from spawnpit.engine.human import describe_entry, story
    from spawnpit.engine.policies import AIPolicy

    game = new_game(pack, "lnoe:die_zombies_die", seed=31, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
    run(game)
    placed = [e for e in game.entries if e.get("type") == "move" and e.get("placed")]
    assert placed and all(e["round"] == 0 and e["rule"] == "Starting Heroes" for e in placed)
    johnny = next(e for e in placed if game.state["units"][e["unit"]]["proto"] == "johnny")
    assert describe_entry(game, johnny) == "Johnny is placed in Gym b6"
    told = story(game, game.entries)
    setup = told[:told.index("")]
    assert "  Johnny is placed in Gym b6" in setup and not any(" moves " in line for line in setup)
    assert any(" moves " in line and " → " in line for line in told)  # later, moves are told as moves


# ---- a Random Building said in table terms ----------------------------------------------------------------

def test_a_random_building_is_said_by_name_and_its_bookkeeping_mark_is_not_shown(pack):
    """Session 29 left alone: a Random Building roll showed on screen only as its marker, "Police Station
    marked Random Building", then "Police Station no longer Random Building". The rule now logs "Random
    Building: the Police Station" and the marker is bookkeeping (hidden)."""
    from spawnpit.engine.human import story
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import notes

    game = bare_game(pack, heroes=("police_station",), needs=("police_station",))
    dice(game, [1])  # Hero's Choice: the Heroes pick the building
    game.emit("random_building", {})
    assert "Hero's Choice: the Heroes pick the building" in notes(game)  # (a 1 said nothing of it)
    (said,) = [n for n in notes(game) if n.startswith("Random Building: ")]
    assert "Police Station" in said
    told = "\n".join(story(game, game.entries))
    assert said in told and "marked Random Building" not in told and "no longer Random Building" not in told


# ---- the Defend the Manor House play-test -----------------------------------------------------------------

def test_the_other_sides_units_are_listed_under_its_name(pack):
    """A play-test took the Zombie Hero its Sheriff became for one of its own Heroes: `c` listed it
    straight after them. The other side's units now come under its name."""
    from spawnpit.engine.human import side_view

    game = _emptied(pack)
    put(game, "billy", "town_center.b2")
    put(game, "zombie_hero", "town_center.a1")
    out = Console(file=StringIO(), width=80, color_system=None)
    out.print(side_view(game, "heroes"))
    lines = [line.rstrip() for line in out.file.getvalue().splitlines()]
    billy = next(i for i, line in enumerate(lines) if "Billy" in line)
    heading = next(i for i, line in enumerate(lines) if line.strip() == "Zombies:")
    risen = next(i for i, line in enumerate(lines) if line.startswith("ZH "))
    assert billy < heading < risen
    assert not any(line.strip() == "Heroes:" for line in lines)  # (the viewer's own side needs no heading)


def test_the_goals_screen_names_the_special_rules_the_scenario_puts_in_effect(pack):
    """`o` showed Defend the Manor House's own two rules but not Zombies Auto Spawn, Hero Starting Cards
    (1) and Manor House: a play-test could not tell why new Zombies came every turn."""
    from spawnpit.engine import new_game
    from spawnpit.engine.human import goals_view

    game = new_game(pack, "lnoe:defend_the_manor_house", seed=1)
    out = Console(file=StringIO(), width=80, color_system=None)
    out.print(goals_view(game, line=79))
    lines = out.file.getvalue().splitlines()
    for title in ("No Searching in the Manor House", "Hero Starting Cards (1)", "Zombies Auto Spawn", "Manor House"):
        assert any(line.startswith(title + ": ") for line in lines), title


def test_a_spawn_roll_the_pool_cannot_meet_says_why_fewer_come(pack):
    """A play-test saw "rolled 1D6: 5 for Zombie Spawning" and four Zombies placed, with no reason: the
    pool of 14 was nearly all on the board."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import emit_step, notes

    game = _emptied(pack)
    spaces = [s for s in game.board.spaces if not game.board.info[s].building]
    for i in range(10):
        put(game, "zombie", spaces[i])
    game.state["tracks"]["zombie_spawn_count"] = 1
    dice(game, [5])
    emit_step(game, "zombie_turn.place_spawns", {})
    assert "Only 4 of the 5 rolled can come: every other Zombie of the pool is on the board" in notes(game)
    assert sum(1 for r in game.state["units"].values() if r["proto"] == "zombie" and r["space"]) == 14


def test_a_new_heroes_centre_option_names_the_manor_house_too(pack):
    """"Enter at the centre of town" was offered on the Manor House board, where it means anywhere in the
    house."""
    import re

    text = open("scenarios/lnoe/system.pit", encoding="utf-8").read()
    block = text[text.index('rule "New Heroes"'):]
    (option,) = re.findall(r'option "(Enter in the centre[^"]*)"', block)[:1]
    assert "Town Center" in option and "anywhere in the Manor House" in option


# ---- a choice of units numbered on the map -----------------------------------------------------------------

def _asked(game, options, answer="1", height=24):
    from spawnpit.engine.human import HumanPolicy

    out = Console(file=StringIO(), width=80, height=height, color_system=None)
    human = HumanPolicy(console=out, input=iter([answer]).__next__, compact=None)
    human.fit = True
    picked = human.choose(game, "heroes", "choose unit to shoot", options)
    return picked, out.file.getvalue()


def test_the_zombies_a_hero_may_shoot_are_numbered_on_the_map_and_listed(pack):
    """A play-test took "Zombie 18 in Gym/High School h4", a target, for another Zombie: the question
    named the cells, and the map (unchanged since the last question) showed neither names nor numbers.
    A choice of units now draws the map with each one's number on its space ("1Z", "2Z2"), and lists
    them all the same (another play-test found "who acts next?" as bare numbers on the map worse than
    the named list). At 80x24, where map and list do not both fit, the list stays and the note says
    where the map is."""
    game = _emptied(pack)
    spaces = [s for s in game.board.spaces if game.board.info[s].grid and not s.startswith("town_center")]
    put(game, "sheriff_anderson", spaces[10])
    one = put(game, "zombie", spaces[11])
    two = put(game, "zombie", spaces[12])
    put(game, "zombie", spaces[12])
    three = put(game, "zombie", "town_center.b2")
    picked, screen = _asked(game, [one, two, three, None], "2", height=40)
    assert picked == 1
    assert "1Z│" in screen.replace(" ", "") and "2Z2" in screen and "3Z" in screen
    assert "1. Zombie 1 in " in screen and "2. Zombie 2 in " in screen and "3. Zombie 4 in Town Center b2" in screen
    picked, screen = _asked(game, [one, two, three, None], "2")
    assert picked == 1 and screen.count("\n") <= 24
    assert "1. Zombie 1 in " in screen and "(left out to fit: m board" in screen


def test_a_group_of_zombies_alike_keeps_its_number_as_they_are_taken_one_by_one(pack):
    """Hungry Dead asked "choose a Zombie to remove" three times: "Zombie ×6 in Gas Station g1, any one"
    was option 1, then 5, then 6, as the Zombie taken was the group's first, which set its place. The
    Zombie taken is now the group's last, and the number stays."""
    from spawnpit.engine.human import HumanPolicy

    game = _emptied(pack)
    spaces = [s for s in game.board.spaces if game.board.info[s].grid and not s.startswith("town_center")]
    crowd, others = [], []
    for i in (1, 2, 3):  # (ids interleaved: the group's first taken, the next would come after another option)
        crowd.append(put(game, "zombie", spaces[0]))
        others.append(put(game, "zombie", spaces[i]))
    numbers, taken = [], []
    for _ in range(3):
        options = sorted([u for u in crowd + others if game.state["units"][u.id]["space"]], key=lambda u: int(u.id[1:]))
        human = HumanPolicy(console=Console(file=StringIO(), width=120, color_system=None), input=iter(["1"]).__next__)
        human.fit = False
        index = human.choose(game, "zombies", "choose zombie to remove", options)
        text = human.console.file.getvalue()
        numbers.append(next(line.split(".")[0].strip() for line in text.splitlines() if " ×" in line or "Zombie 1 " in line))
        game.state["units"][options[index].id]["space"] = None
        taken.append(options[index])
    assert numbers == ["1", "1", "1"]
    assert taken == crowd[::-1]  # the group's last each time


def test_the_ai_hands_a_weapon_over_only_to_a_hero_who_may_use_it_and_has_room(pack):
    """Over the Weapon limit, the ai handed the Pump Shotgun to Father Joseph, who never fires a Gun, or
    discarded at random. It now hands an Item over to a Hero in the space who has room for it and may use
    it, and otherwise discards it; Exchange Items takes no Gun for a Holy Man."""
    from spawnpit.engine.policies import AIPolicy
    from tests.engine.test_lnoe_faq import give, where

    for other, kept in (("father_joseph", False), ("becky", True)):
        for seed in range(1, 6):
            game = bare_game(pack, seed=seed)
            game.policies["heroes"] = AIPolicy()
            sheriff, them = put(game, "sheriff_anderson", "town_center.b2"), put(game, other, "town_center.b2")
            shotgun = give(game, "pump_shotgun", sheriff).id
            give(game, "revolver", sheriff)
            give(game, "rifle", sheriff)
            game.emit("drop_item", {"carrier": sheriff, "card": Ref("card", shotgun)})
            assert where(game, shotgun) == (them.id if kept else "discard"), (other, seed)


def test_a_zombie_heros_move_says_how_far_it_may_go_before_its_first_step(pack):
    """A play-test moving a Zombie Hero was asked for a space step after step, with no count, and thought
    it had one space only (Shamble's question says "step 1 of up to 6"). Its D3 is now said at once."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import emit_step, notes

    game = _emptied(pack)
    spaces = [s for s in game.board.spaces if game.board.info[s].grid and not s.startswith("town_center")]
    from spawnpit.engine.policies import AIPolicy

    game.policies["zombies"] = AIPolicy()
    risen = put(game, "zombie_hero", spaces[0])
    put(game, "billy", spaces[30])
    dice(game, [2])
    emit_step(game, "zombie_turn.move_zombies", {})
    said = [n for n in notes(game) if "may move up to" in n]
    assert len(said) == 1 and said[0].endswith("may move up to 2 (a Zombie Hero: D3 spaces, Zombie Hunger holding at each)")
    assert game.state["units"][risen.id]["space"] != spaces[0]  # (and it moved)


def test_explaining_an_option_that_says_no_more_than_its_label_gives_the_asking_rules_text(pack):
    """Session 29 left alone: `?1` on "Place every Zombie the die allows" / "Hold back one or more of them"
    said "(nothing more to say)". It now gives the text of the rule asking (Zombie Spawning: why hold
    some back)."""
    from spawnpit.engine.human import HumanPolicy
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import emit_step

    game = _emptied(pack)
    answers = iter(["?2", "1"])
    out = Console(file=StringIO(), width=100, color_system=None)
    game.policies["zombies"] = HumanPolicy(console=out, input=lambda: next(answers, "1"))
    game.state["tracks"]["zombie_spawn_count"] = 1
    dice(game, [3])
    emit_step(game, "zombie_turn.place_spawns", {})
    text = " ".join(out.file.getvalue().split())
    assert "2. Hold back one or more of them Zombie Spawning asks: In the spawn step roll 2D6" in text
    assert "nothing more to say" not in text


def test_farmer_sty_is_offered_with_the_reason_it_is_offered_now(pack):
    """A play-test saw Farmer Sty offered at the end of some Heroes' turns and not others, and could not
    tell why: it is offered only while a Zombie is one step from the Hero's space, and now says so."""
    from spawnpit.engine.flow import _moment
    from spawnpit.engine.human import ask_text
    from tests.engine.lnoe_table import bare_game as scripted_game
    from tests.engine.test_lnoe_cards import to_hand

    game = scripted_game(pack, heroes=[0])
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    put(game, "zombie", "town_center.a1")
    to_hand(game, "farmer_sty", "heroes")
    asked = []
    policy = game.policies["heroes"]
    choose = policy.choose
    policy.choose = lambda g, side, label, options: asked.append(label) or choose(g, side, label, options)
    _moment(game, ["hero_turn", "fight"], "end", {"unit": sheriff})
    assert any("to play on Sheriff Anderson's space, a Zombie being near" in ask_text(game, label) for label in asked), asked


def test_w_finds_a_place_the_log_names_on_the_map(pack):
    """A play-test could not find "Barn/Farmhouse c4" or "Gym/High School h4" on the town map, which does
    not show cell names: `w h4` letters every h4 on the map (letters: a number there would read as an
    answer) and lists them, `w Zombie 3` finds that unit, not Zombies 30 to 39, and a name found nowhere
    says so."""
    from spawnpit.engine import new_game
    from spawnpit.engine.flow import setup
    from spawnpit.engine.human import HumanPolicy, find_on_board

    game = new_game(pack, "lnoe:die_zombies_die", seed=3)
    setup(game)
    cells = find_on_board(game, "h4")
    assert len(cells) == 4 and all(said.endswith(" h4") for _, said in cells)
    (zombie,) = find_on_board(game, "Zombie 3")
    assert zombie[1].startswith("Zombie 3 in ")
    assert zombie[0] == next(r["space"] for u, r in game.state["units"].items()
                             if r["proto"] == "zombie" and r["space"] and u in _numbered(game, 3))
    out = Console(file=StringIO(), width=80, height=24, color_system=None)
    human = HumanPolicy(console=out, compact=None)
    human.fit, human._rule = True, None
    out.print(human._command(game, "heroes", "w h4", [], {}))
    map_only = out.file.getvalue()
    out.print(human._command(game, "heroes", "w nobody", [], {}))
    text = out.file.getvalue()
    assert len(map_only.splitlines()) <= 22  # (the question stays on the screen under it)
    cells_drawn = [c for line in map_only.splitlines() if line.startswith("│") for c in re.findall(r"[│┃╏┆] ?([A-D]) ", line)]
    assert sorted(cells_drawn) == ["A", "B", "C", "D"], cells_drawn
    assert "A General Store/Gun Shop/Plant h4" in map_only and "D Gym/High School h4" in " ".join(map_only.split())
    assert "a choice where someone is" not in map_only  # (no answers on this map)
    assert "nothing on the board is called 'nobody'" in text


def _numbered(game, n: int) -> set:
    """The ids of the units the screen calls "Zombie n"."""
    from spawnpit.engine.human import _unit

    return {u for u in game.state["units"] if _unit(game, u) == f"Zombie {n}"}


def test_a_hero_and_a_zombie_hero_in_a_small_cell_are_both_counted(pack):
    """The review: Billy and a Zombie Hero read "BiZH", cropped to "BiZ" (the Zombie Hero looked like a
    Zombie) or "ZHB" (Billy gone), and the key said "ZHBi ZH and 1 others". A shorthand that does not fit
    falls back to each side's count, Heroes first in every cell."""
    game = _emptied(pack)
    spaces = [s for s in game.board.spaces if game.board.info[s].grid and not s.startswith("town_center")]
    put(game, "zombie_hero", spaces[0])
    put(game, "billy", spaces[0])
    put(game, "zombie", spaces[1])
    put(game, "zombie", spaces[1])
    put(game, "becky", spaces[1])
    put(game, "sally", spaces[1])
    marks = unit_marks(game, True)
    assert marks[spaces[0]].plain == "1·1"
    assert marks[spaces[1]].plain == "2·2"  # (the Heroes' count first, though the Zombies came first)
    key = " ".join(_screen(game).split())
    assert "1·1 1 Heroes, 1 Zombies" in key and "others" not in key


def test_farmer_sty_drives_a_zombie_back_as_it_steps_in(pack):
    """A play-test saw two Zombies stand in Farmer Sty's space until every Zombie had moved (the card
    acted on `moved`, which waits in the queue until the Move Zombies step's hook is over). A Zombie
    walking in is now driven back as it enters: before the next Zombie moves."""
    from spawnpit.engine.flow import _moment
    from tests.engine.lnoe_table import bare_game as scripted_game
    from tests.engine.test_lnoe_cards import to_hand

    game = scripted_game(pack, heroes=[0], zombies=[0, 0])
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.a1")
    put(game, "becky", "town_center.c3")
    other = put(game, "zombie", "town_center.c2")
    to_hand(game, "farmer_sty", "heroes")
    _moment(game, ["hero_turn", "fight"], "end", {"unit": sheriff})
    game.emit("zombie_turn.move_zombies")
    moves = [e for e in game.entries if e["type"] == "move"]
    back = next(i for i, e in enumerate(moves) if e["unit"] == zombie.id and e.get("rule") == "Farmer Sty")
    step = next(i for i, e in enumerate(moves) if e["unit"] == other.id)
    assert back < step
    assert game.state["units"][zombie.id]["space"] == game.board.resolve("town_center.a1")


def test_divide_and_conquer_is_not_offered_with_no_hero_alone_on_a_board_section(pack):
    """A play-test played Divide and Conquer with every Hero sharing a board section, and it did
    nothing; a card that could do nothing now is not offered."""
    from tests.engine.lnoe_table import bare_game as scripted_game
    from tests.engine.lnoe_table import card_offered
    from tests.engine.test_lnoe_cards import to_hand, where

    for apart, offered in ((False, False), (True, True)):
        game = scripted_game(pack)
        put(game, "billy", "town_center.b2")
        spaces = [s for s in game.board.spaces if game.board.info[s].grid and not s.startswith("town_center")]
        put(game, "sally", spaces[0] if apart else "town_center.a1")
        mine = to_hand(game, "divide_and_conquer", "zombies")
        assert card_offered(game, mine, "zombie_turn.spawn_roll.start") == offered
        if not offered:
            assert where(game, mine) == "side:zombies"


def test_a_hero_killed_since_the_last_question_is_the_line_a_crowded_screen_keeps(pack):
    """A play-test never saw Billy die in the Zombie Turn: the next screen had room for one log line, the
    latest, and it was another. A Hero's death since the last question now takes that line."""
    from spawnpit.engine.human import last_line

    game = _emptied(pack)
    billy = put(game, "billy", "town_center.b2")
    zombie = put(game, "zombie", "town_center.b2")
    start = len(game.entries)
    game.kill(billy, zombie, game._plain_ctx())
    game.log({"type": "roll", "dice": "1D6", "values": [4], "total": 4}, None)
    line = last_line(game, game.entries[start:], 80, "heroes").plain
    assert line.startswith("Billy killed"), line


def test_a_card_says_whether_this_scenario_searches_for_it(pack):
    """A play-test read "keywords: … scenario search" on Dynamite in Escape in the Truck, whose Search
    Cards are the Gasoline and the Keys, and took Dynamite for one (Burn 'em Out searches for it). `?N` on
    a card now says whether it is one of this scenario's Search Cards (`search_cards`); a scenario that
    names none says nothing of it."""
    from spawnpit.engine import new_game
    from spawnpit.engine.human import explain_option

    for scenario, proto, said in (("escape_in_the_truck", "dynamite", "not one"), ("escape_in_the_truck", "keys", "one"),
                                  ("burn_em_out", "dynamite", "one"), ("escape_in_the_truck", "doc_brody", "not one"),
                                  ("die_zombies_die", "keys", None)):
        game = new_game(pack, f"lnoe:{scenario}", seed=1)
        cid = next(c for c, r in game.state["cards"].items() if r["proto"] == proto)
        lines = explain_option(game, Ref("card", cid)).splitlines()
        found = [line for line in lines if line.endswith("of this scenario's Search Cards")]
        assert found == ([f"{said} of this scenario's Search Cards"] if said else []), (scenario, proto, lines)


def test_the_ai_puts_hysteria_on_a_hero_not_yet_hysterical(pack):
    """A play-test saw three Hysteria copies on Becky, two of them for nothing."""
    from spawnpit.engine.policies import AIPolicy
    from tests.engine.lnoe_table import bare_game as scripted_game
    from tests.engine.test_lnoe_cards import to_hand

    for seed in range(1, 6):
        game = scripted_game(pack, seed=seed)
        game.policies["zombies"] = AIPolicy()
        billy, becky = put(game, "billy", "town_center.b2"), put(game, "becky", "town_center.a1")
        game.state["units"][billy.id]["markers"]["hysterical"] = 1
        mine = to_hand(game, "hysteria", "zombies")
        game.state["counters"]["zombie_cards_passed"] = 0
        game.emit("zombie_turn.spawn_roll.start")
        record = game.state["cards"][mine]
        assert record["where"] == "play" and record.get("target") == ["unit", becky.id], (seed, record)


def test_ruuuuuun_is_offered_again_after_twisted_ankle_lowers_the_roll(pack):
    """Cards may be played after the fact to change a roll (LNOE rulebook, Using Cards). A play-test
    passed on Ruuuuuun! after a 5, the Zombies played Twisted Ankle (5 → 3), and Ruuuuuun! was not offered
    again. It now is: here it rolls a 6, and the Hero moves 6."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_cards import to_hand, where

    game = bare_game(pack, heroes=(None, "ruuuuuun"), zombies=("twisted_ankle",))
    jake = put(game, "jake_cartwright", "town_center.b2")
    run = to_hand(game, "ruuuuuun", "heroes")
    ankle = to_hand(game, "twisted_ankle", "zombies")
    left = dice(game, [5], [6])
    game.emit("move_roll", {"mover": jake})
    assert not left
    assert where(game, ankle) == "discard" and where(game, run) == "discard"
    assert game.state["counters"]["move_roll"] == 6
    asked = [label for label, _ in game.policies["heroes"].asked]
    assert len(asked) == 2  # before Twisted Ankle (passed) and after it


def test_faith_rolls_once_the_zombie_has_played_vicious_attack(pack):
    """A fight is resolved only once every player is done with cards (LNOE rulebook, Fight); Faith acts on
    the Wound taken. A play-test saw "rolled 1D6: 2 for Faith … Faith fails" and only then "Zombies play
    Vicious Attack": the Zombie player chose after seeing Faith's roll. Faith now rolls when the fight's
    Wounds are due (event fight_wounds_due), after the cards."""
    from spawnpit.engine.flow import _moment
    from tests.engine.lnoe_table import bare_game as scripted_game
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_cards import to_hand

    game = scripted_game(pack, heroes=[0], zombies=[0])  # play Faith; the Zombies play Vicious Attack
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    to_hand(game, "faith", "heroes")
    to_hand(game, "vicious_attack", "zombies")
    _moment(game, ["hero_turn", "move"], "start", {"unit": sheriff})
    game.policies["heroes"].answers = [1]  # Strength of Spirit: no
    left = dice(game, [2, 3], [5], [2])  # the Zombie wins; Faith rolls 2 and fails
    start = len(game.entries)
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert not left
    entries = game.entries[start:]
    played = next(i for i, e in enumerate(entries) if e["type"] == "play" and e["card"] == "vicious_attack")
    faith = next(i for i, e in enumerate(entries) if e["type"] == "roll" and e.get("rule") == "Faith")
    assert played < faith
    assert game.state["units"][sheriff.id]["wounds"] == 2
