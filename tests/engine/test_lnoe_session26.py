"""Session 26: findings of the play-tests and of last session's list of things left alone."""

from __future__ import annotations

import re

from spawnpit.engine.board import EVERYTHING
from spawnpit.engine.human import _unit, describe_entry, space_name
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import put
from tests.engine.test_lnoe_faq import bare_game, to_hand


# ---- a Zombie Hero is the Hero's own figure: it goes by the Hero's name ---------------------------------

def test_a_zombie_hero_is_named_after_the_hero_it_was(pack):
    """Base rulebook, Zombie Heroes: the killed Hero's figure stays on the board with a Zombie Hero marker
    under it. The log and the terminal said "Zombie Hero 131"; which Hero it was is what the table sees."""
    game = bare_game(pack, scenario="burn_em_out", heroes=[0, 0])
    game.state["tracks"]["sun"] = 15
    billy = put(game, "billy", "town_center.a1")
    zombie = put(game, "zombie", "town_center.a1")
    game.wound(billy, 2, game._plain_ctx(), zombie)
    risen = next(u for u, r in game.state["units"].items() if r["kind"] == "zombie_hero")
    assert _unit(game, risen) == "Zombie Hero (Billy)"
    spawned = next(e for e in game.entries if e["type"] == "spawn" and e["kind"] == "zombie_hero")
    assert spawned["from"] == billy.id  # the log keeps whose figure it is
    marked = next(e for e in game.entries if e["type"] == "mark" and e.get("what") == risen)
    assert describe_entry(game, marked).startswith("Zombie Hero (Billy)")
    # the rules' own name for it (a note's plain text) is the same
    assert game.table.attribute(game.table.ref("unit", risen), "name") == "Zombie Hero (Billy)"
    # and an ordinary Zombie keeps its number
    assert re.fullmatch(r"Zombie \d{1,2}", _unit(game, zombie.id))


def test_spawn_from_takes_a_unit(tmp_path):
    from tests.compiler.test_robustness import compile_text
    scenario = 'using mini\nscenario "S" {{ board yard\n on round.start {{ {} }} }}\n'
    good = compile_text(tmp_path, scenario.format("for each unit u { spawn zombie at a1 from u }"), with_system=True)
    assert good.ok, good.diagnostics
    bad = compile_text(tmp_path, scenario.format("spawn zombie at a1 from 3"), with_system=True)
    assert [(d.code, d.message) for d in bad.diagnostics] == [("E0301", "`from` of `spawn` needs unit, found num")]


# ---- a longer Zombie move says how far it may still go --------------------------------------------------

def test_each_step_of_a_longer_zombie_move_says_how_many_spaces_are_left(pack):
    """The Zombies' play-test was asked one space at a time for a Shambling Zombie, with only the first
    question saying how far it could go."""
    step = lambda options: next(i for i, o in enumerate(options) if o is not None)  # noqa: E731
    game = bare_game(pack, zombies=[step] * 3)
    zombie = put(game, "zombie", "town_center.a1")
    far = max(game.board.spaces, key=lambda s: game.board.between("town_center.a1", s))
    put(game, "becky", far)  # out of reach: every step is a free one
    game.emit("zombie_walk", {"walker": zombie, "moves": 3, "card": Ref("card", to_hand(game, "shamble", "zombies"))})
    said = [e["text"] for e in game.entries if e["type"] == "note"]
    assert said == ["Zombie may move up to 3 (Shamble; Zombie Hunger holds at each step)",
                    "Zombie may move 2 more", "Zombie may move 1 more"]
    assert len([e for e in game.entries if e["type"] == "move"]) == 3


def test_a_units_explanation_gives_its_keywords(pack):
    """Teen Angst aims at a Student, Catfight at female Heroes: the Zombies' play-test could not see which
    Hero is which."""
    from spawnpit.engine.human import explain_option

    game = bare_game(pack)
    billy = put(game, "billy", "town_center.a1")
    assert "keywords: male, student, teenager" in explain_option(game, billy).splitlines()


# ---- a roll says what it is for --------------------------------------------------------------------------

def test_the_out_of_ammo_roll_is_shown_for_the_gun_not_the_ranged_attack(pack):
    """The play-test read the gun's second roll as a second shot: "rolled 1D6: 1 for Ranged Attack"."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import give

    game = bare_game(pack, heroes=[0, 0])
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    put(game, "zombie", "town_center.b1")
    revolver = give(game, "revolver", sheriff)
    dice(game, [5], [1])  # a Hit, then out of ammo
    game.emit("shoot", {"unit": sheriff})
    shot, ammo = [e for e in game.entries if e["type"] == "roll"]
    assert describe_entry(game, shot) == "rolled 1D6: 5 for Ranged Attack (Sheriff Anderson)"
    assert ammo["for"] == revolver.id
    assert describe_entry(game, ammo) == "rolled 1D6: 1 for the Revolver (Sheriff Anderson)"


# ---- questions asked only when they can matter -----------------------------------------------------------

def test_old_betsy_is_offered_at_the_exchange_step_only_with_a_zombie_in_her_range(pack):
    """She holds Zombies leaving her space. The play-test was asked where to set her loose at every
    Exchange step of her Hero's, with no Zombie anywhere near."""
    from tests.engine.test_lnoe_faq import answer, to_hand
    from tests.engine.test_lnoe_session23_cards import emit_step

    game = bare_game(pack)
    becky = put(game, "becky", "town_center.b2")
    betsy = to_hand(game, "old_betsy", "heroes")
    game.state["cards"][betsy]["where"] = becky.id
    far = max(game.board.spaces, key=lambda s: game.board.between("town_center.b2", s))
    put(game, "zombie", far)
    script = answer(game, "heroes")
    emit_step(game, "hero_turn.exchange.end", {"unit": becky})
    assert script.asked == []
    put(game, "zombie", "town_center.a1")  # one space away, in sight
    emit_step(game, "hero_turn.exchange.end", {"unit": becky})
    assert len(script.asked) == 1 and "town_center.a1" in [getattr(o, "id", o) for o in script.asked[0][1]]


# ---- the screen keeps the roll a Move goes by -----------------------------------------------------------

def test_a_move_question_at_80_by_24_shows_the_movement_roll(pack):
    """The play-tests chose where to move on a screen with no room for the log, so without the roll: the
    latest line of the log now takes the one line left."""
    import re
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine.human import fitted, space_numbers
    from tests.engine.test_human_fit import _setup

    game, label, options = _setup(pack)
    con = Console(file=StringIO(), width=80, height=24, color_system=None, force_terminal=False)
    entries = list(game.entries[-30:])
    for part in fitted(con, game, "heroes", entries, {"label": label, "options": options},
                       space_numbers(game, options), True, True):
        con.print(part)
    out = con.file.getvalue()
    assert len(out.rstrip("\n").split("\n")) <= 23
    roll = next(e for e in reversed(entries) if e["type"] == "roll")
    # (the roll as the log's last line, or, when a markers line takes that room, on the status line)
    assert (re.search(rf"^last: rolled 1D6: {roll['values'][0]} for Hero Movement \(\w[\w ]*\)$", out, re.M)
            or re.search(rf"│ Move roll {game.state['counters']['move_roll']}\b", out)), out
    assert "l log" in out  # the rest of the log is still a command away


# ---- the second play-test's rules findings ----------------------------------------------------------------

def test_a_hero_over_the_limit_may_not_hand_an_item_off_under_i_dont_trust_em(pack):
    """Rulebook, Items: a Hero over the limit may exchange Items before discarding; Complete Rulebook App.
    III (I Don't Trust 'em): until the next Zombie Turn the Heroes may not Exchange Items. The play-test
    was offered the hand-off, and the Item went to the other Hero."""
    from tests.engine.test_lnoe_faq import answer, give, where

    game = bare_game(pack)
    becky = put(game, "becky", "town_center.b2")
    jenny = put(game, "jenny", "town_center.b2")
    items = [give(game, name, becky) for name in ("first_aid_kit", "flashlight", "fire_extinguisher", "revolver")]
    extra = give(game, "baseball_bat", becky)
    for hero in (becky, jenny):
        game.mark(hero, "no_exchange", 1, game._plain_ctx())
    script = answer(game, "heroes", lambda options: options.index(extra) if extra in options else 0)
    game.emit("load_check", {"carrier": becky})
    assert where(game, extra) == "discard" and all(where(game, i) == becky.id for i in items)
    assert not [label for label, _ in script.asked if label == "choose an option"]  # no "Hand it to…" offered
    # the next Zombie Turn lifts it: the hand-off is offered again
    for hero in (becky, jenny):
        game.mark(hero, "no_exchange", -1, game._plain_ctx())
    again = give(game, "lighter", becky)
    script = answer(game, "heroes", lambda options: options.index(again) if again in options else 0,
                    "Hand it to a Hero in the same space", "jenny")
    game.emit("load_check", {"carrier": becky})
    assert where(game, again) == jenny.id


def test_a_hand_weapons_break_test_comes_once_no_more_cards_may_be_played(pack):
    """The Baseball Bat's and the Chainsaw's texts: the break test comes after the fight. Both play-tests
    saw it rolled with the bonus die, before the Zombie's Fight cards, so the Heroes played on knowing
    whether the weapon had survived. It now comes once no one plays any more, before the outcome (the
    review: an outcome that starts a new fight, Unrelenting Attack, let the Bat be used twice and tested
    once)."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import give, where

    game = bare_game(pack, heroes=["baseball_bat"])
    billy, zombie = put(game, "billy", "town_center.b2"), put(game, "zombie", "town_center.b2")
    bat = give(game, "baseball_bat", billy)
    left = dice(game, [2, 3], [4], [5], [1])  # the fight, the bat's die (5: fends off), its break test
    game.emit("fight", {"fighter": billy, "foe": zombie})
    assert not left and where(game, bat) == "discard"
    said = [e.get("text") or e.get("rule") for e in game.entries if e["type"] in ("note", "roll", "play")]
    assert said[-4:] == ["Combat Bonus", "Break Test", "The Baseball Bat breaks", "The Hero wins: the Zombie is fended off"]
    assert not any(r.get("markers", {}).get("break_pending") for r in game.state["cards"].values())


def test_a_bat_used_in_a_fight_and_in_the_one_unrelenting_attack_starts_is_tested_twice(pack):
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import give, to_hand, where

    game = bare_game(pack, heroes=["baseball_bat", "baseball_bat"], zombies=["unrelenting_attack"])
    billy, zombie = put(game, "billy", "town_center.b2"), put(game, "zombie", "town_center.b2")
    bat = give(game, "baseball_bat", billy)
    to_hand(game, "unrelenting_attack", "zombies")
    left = dice(game, [2, 3], [4], [5], [6], [2, 3], [4], [5], [6])  # fight, bat, break test; again
    game.emit("fight", {"fighter": billy, "foe": zombie})
    assert not left and where(game, bat) == billy.id
    rules = [e.get("rule") for e in game.entries if e["type"] == "roll"]
    assert rules == ["Fight", "Fight", "Combat Bonus", "Break Test"] * 2


def test_with_zombies_auto_spawn_there_is_no_spawn_roll(pack):
    """Complete Rulebook §16.4.10: the Zombies spawn every turn, and the spawn roll is skipped. Defend the
    Manor House still rolled 2D6 each turn, and the log read "New Zombies due: no", then "yes"."""
    from spawnpit.engine import AIPolicy, new_game, play

    game = new_game(pack, "defend-the-manor-house", seed=4, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
    play(game)
    rolls = [e for e in game.entries if e["type"] == "roll" and e.get("rule") in ("Zombie Spawning", "Zombie Horde (21)")
             and e["at"].startswith("zombie_turn.spawn_roll")]
    assert rolls == []
    due = [e["value"] for e in game.entries if e["type"] == "track" and e.get("track", e.get("name")) == "zombie_spawn_count"]
    assert due and 0 not in due[::2]  # set every Zombie Turn (and cleared once the Zombies are placed)
    rounds = game.state["round"]
    placed = {e["round"] for e in game.entries if e["at"].startswith("zombie_turn.place_spawns") and e["type"] == "roll"}
    assert len(placed) >= rounds - 1


def test_the_zombie_ai_pays_a_sacrifice_with_zombies_outside_the_manor_house(pack):
    """Defend the Manor House: the Zombies win with 9 in the house. The play-test saw the ai Zombie player
    send 5 Zombies back to the pool from inside it (Hungry Dead, Closing In), the farthest from the
    Heroes, who were luring the rest outside."""
    from spawnpit.engine import AIPolicy
    from tests.engine.test_lnoe_faq import to_hand, where

    game = bare_game(pack, scenario="defend_the_manor_house")
    game.policies["zombies"] = AIPolicy()
    house = sorted(s for s in game.board.spaces if (b := game.board.building_of(s)) and game.board.buildings[b].title == "Manor House")
    for s in house:
        game.mark(Ref("space", s), "ai_hold", 1, game._plain_ctx())
    far = max(game.board.spaces, key=lambda s: min(game.board.between(s, h) for h in house))
    put(game, "becky", far)  # the Heroes out of town: the Zombies in the house are the farthest
    inside = [put(game, "zombie", s) for s in house[:3]]
    near = min((s for s in game.board.spaces if s not in house), key=lambda s: game.board.between(s, far))
    outside = [put(game, "zombie", near) for _ in range(3)]
    card = to_hand(game, "hungry_dead", "zombies")
    game.play(Ref("card", card), None, None, game._plain_ctx())
    assert all(where(game, z) is None for z in outside) and all(where(game, z) in house for z in inside)


# ---- fewer questions before a Hero's move -------------------------------------------------------------------

def test_cards_for_a_move_are_offered_only_once_the_hero_rolls_to_move_and_when_they_can_matter(pack):
    """The second play-test answered four to seven questions before each Hero's move, Searches included:
    Courage, Escape Through the Windows, Blitz!, pouring the Gasoline, Ruuuuuun!."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import answer, give, to_hand
    from tests.engine.test_lnoe_session20 import GAS, _move_step

    game = bare_game(pack, needs=("gas_station",))
    for card in ("courage", "escape_through_the_windows", "ruuuuuun"):
        to_hand(game, card, "heroes")
    billy = put(game, "billy", GAS + "g1")  # in the Gas Station
    give(game, "gasoline", billy)
    far = max(game.board.spaces, key=lambda s: game.board.between(GAS + "g1", s))
    put(game, "zombie", far)
    script = answer(game, "heroes", "Choose Move or Search now (a Move rolls the die)", 1)  # then Search
    _move_step(game, billy)
    assert [label for label, _ in script.asked] == ["choose an option", "hero_turn.move: action of " + billy.id]
    # moving, with the Zombie far beyond the roll: Escape Through the Windows and Ruuuuuun! only
    script = answer(game, "heroes", "Choose Move or Search now (a Move rolls the die)", 0)
    dice(game, [2])
    _move_step(game, billy)
    offered = [[getattr(o, "id", o) for o in options] for label, options in script.asked if label == "choose card to play"]
    names = [{game.state["cards"][c]["proto"] for c in ids if c in game.state["cards"]} for ids in offered]
    assert names == [{"ruuuuuun"}, {"escape_through_the_windows"}], names  # on the roll; then as he walks
    # after a 6, Ruuuuuun! could only waste the card
    script = answer(game, "heroes", "Choose Move or Search now (a Move rolls the die)", 0)
    dice(game, [6])
    _move_step(game, billy)
    offered = [[getattr(o, "id", o) for o in options] for label, options in script.asked if label == "choose card to play"]
    assert not any(game.state["cards"][c]["proto"] == "ruuuuuun" for ids in offered for c in ids if c in game.state["cards"])


# ---- what the scenario is about ----------------------------------------------------------------------------

def test_o_says_what_the_scenario_is_about_and_how_its_goal_is_reached(pack):
    """The Escape in the Truck play-test: `o` said only "Heroes win when escaped ≥ 1 (now 0)", with
    nothing about the Gasoline, the Keys or the Truck."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine import new_game
    from spawnpit.engine.human import HumanPolicy

    game = new_game(pack, "escape-in-the-truck", seed=1)
    for height, whole in ((60, True), (10, False)):
        con = Console(file=StringIO(), width=80, height=height, color_system=None, force_terminal=False)
        human = HumanPolicy(console=con)
        shown = human._command(game, "heroes", "o", [], None)
        con.print(shown)
        out = " ".join(con.file.getvalue().split("\n"))  # (wrapped lines joined)
        assert out.startswith("Escape in the Truck: An old truck sits in the middle of town. Fuel it, find its")
        assert "Heroes win when escaped in the truck ≥ 1 (now 0)" in out  # (session 30: "escaped ≥ 1" was terse)
        assert "Filling the Truck: A Hero who begins the turn at the Truck may give up the tur" in out
        assert ("…" not in out) is whole  # on a short terminal each rule is cut to a line, to leave the question room
        assert len(con.file.getvalue().splitlines()) <= height - 2


def test_a_question_about_a_card_the_side_may_see_names_it(pack):
    """The Flashlight asked "keep it, or throw it away and draw again" without naming the card drawn (it
    was only in `c`). The question now names the card its event is about, when the asking side may see
    it; a card in the other side's hand stays secret."""
    from spawnpit.engine.game import Context
    from spawnpit.engine.human import _asking_rule, _hook_card_ref, ask_text
    from tests.engine.test_lnoe_faq import give, to_hand
    from tests.engine.test_lnoe_session20 import GAS

    class Asked:
        def __init__(self):
            self.said = []

        def choose(self, game, side, label, options):
            self.said.append(ask_text(game, label, _asking_rule(side), options))
            return 0

    game = bare_game(pack, needs=("gas_station",))
    game.policies["heroes"] = asked = Asked()
    jenny = put(game, "jenny", GAS + "g1")
    give(game, "flashlight", jenny)
    top = game.state["decks"]["hero_deck"]["draw"][-1]
    name = game.model.title_of(game.state["cards"][top]["proto"])
    game.emit("search", {"unit": jenny})
    assert any(s.startswith(f"Flashlight (Jenny; {name})") for s in asked.said), asked.said
    # the Zombies' card in their hand is not named to the Heroes
    secret = to_hand(game, "hysteria", "zombies")
    ctx = Context(game, {"card": Ref("card", secret)}, None)
    seen = _hook_card_ref(ctx, "zombies")
    assert _hook_card_ref(ctx, "heroes") is None and game.state["cards"][seen.id]["proto"] == "hysteria"


# ---- the whole log can be read at 80x24 -----------------------------------------------------------------------

def test_l_n_pages_back_through_the_whole_log_at_80_by_24(pack):
    """The Manor House play-test could not read a whole Zombie Turn: `l` showed about 20 lines, with no
    way to see further back. `l` is now the latest page and `l 2`, `l 3`... the pages before; together
    they hold every line of the log, whole (the review: the first version left lines out and cut long
    ones)."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine import AIPolicy, new_game, play
    from spawnpit.engine.human import HumanPolicy, _log_rows

    game = new_game(pack, "die-zombies-die", seed=5, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
    play(game)
    seen, pages = [], None
    for n in range(1, 400):
        con = Console(file=StringIO(), width=80, height=24, color_system=None, force_terminal=False)
        con.print(HumanPolicy(console=con)._command(game, "heroes", f"l {n}" if n > 1 else "l", [], None))
        out = con.file.getvalue().splitlines()
        assert len(out) <= 22 and all(len(line) <= 80 for line in out), n  # the question stays on the screen
        pages = pages or int(out[-1].split(" of ")[1].split()[0])
        assert out[-1].startswith(f"(log page {n} of {pages} back from the latest")
        assert ("later" in out[-1]) is (n > 1) and ("earlier" in out[-1]) is (n < pages)
        body = [line for line in out[:-1] if not line.endswith("(cont.)")]
        seen = body + seen
        if n == pages:
            break
    assert out[0] == "round 0 · setup"  # back to the start of the game
    rows = [" ".join(text.split()) for text, _, _ in _log_rows(game, game.entries, 0, "heroes")]  # (the Heroes' view)
    # the pages' lines, each log line's wrapped lines joined again, are the whole log in order
    joined, line = [], ""
    for text in seen:
        if text.startswith("  ") and not text.startswith("   ") or not text.startswith(" "):
            if line:
                joined.append(line)
            line = " ".join(text.split())
        else:
            line += " " + " ".join(text.split())
    joined.append(line)
    assert joined == rows

def test_a_hero_passed_over_in_the_ranged_attack_step_is_told_which_item_and_why(pack):
    """The play-tests: Dynamite with no Fire Item was said to be barred "by an ability or a card", and a
    Sheriff handed a Pump Shotgun another Hero had fired that turn was passed over without a word."""
    from tests.engine.test_lnoe_faq import give

    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    put(game, "zombie", "town_center.b2")
    give(game, "dynamite", sheriff)
    game.emit("hero_turn.ranged_attack", {"unit": sheriff})
    game.emit("hero_turn.ranged_attack.end", {"unit": sheriff})
    said = [e["text"] for e in game.entries if e["type"] == "note"]
    assert "Sheriff Anderson may not throw Dynamite: it needs a Fire Item to light it" in said
    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    put(game, "zombie", "town_center.b2")
    shotgun = give(game, "pump_shotgun", sheriff)
    for mark in ("used", "passed_on"):
        game.mark(shotgun, mark, 1, game._plain_ctx())
    game.emit("hero_turn.ranged_attack", {"unit": sheriff})
    said = [e["text"] for e in game.entries if e["type"] == "note"]
    assert said == ["Sheriff Anderson: Pump Shotgun already used this turn (an Item is fired once a turn, whoever holds it)"]


def test_fewer_new_zombies_than_pits_reads_plainly(pack):
    """The play-test read "New Zombies: 2 over 4 places (0 on each)"."""
    game = bare_game(pack)
    put(game, "becky", "town_center.b2")
    pits = sorted(game.board.spawn_points)
    game.emit("new_zombies", {"number": 2, "places": [Ref("space", p) for p in pits]})
    said = [e["text"] for e in game.entries if e["type"] == "note"]
    assert said == [f"New Zombies: 2, fewer than the {len(pits)} places: the Zombie player places them"]


def test_no_combat_bonus_question_while_the_heros_dice_already_kill(pack):
    """The Manor House play-test was offered the Baseball Bat at 6, 6 against 3."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import answer, give

    game = bare_game(pack)
    billy, zombie = put(game, "billy", "town_center.b2"), put(game, "zombie", "town_center.b2")
    give(game, "baseball_bat", billy)
    script = answer(game, "heroes")
    left = dice(game, [6, 6], [3])
    game.emit("fight", {"fighter": billy, "foe": zombie})
    assert not left and script.asked == []
    assert game.state["units"][zombie.id]["space"] is None
    # losing, it is offered
    zombie = put(game, "zombie", "town_center.b2")
    script = answer(game, "heroes")
    dice(game, [2, 3], [5])
    game.emit("fight", {"fighter": billy, "foe": zombie})
    assert [label for label, _ in script.asked] == ["choose card"]


def test_a_spaces_explanation_names_its_doors_out_of_the_building(pack):
    """The Manor House lies in the hole of the L-boards, where the map draws no outer walls: the play-test
    could not find its doors. `?N` on a space now names them."""
    from spawnpit.engine import new_game
    from spawnpit.engine.human import _space_facts

    game = new_game(pack, "defend-the-manor-house", seed=93)
    house = [s for s in game.board.spaces if game.board.building_of(s)
             and game.board.buildings[game.board.building_of(s)].title == "Manor House"]
    doors = {s: [n for n in game.board.neighbours(s, through=EVERYTHING) if game.board.edge(s, n) == "door"
                 and game.board.building_of(n) != game.board.building_of(s)] for s in house}
    assert sum(1 for found in doors.values() if found) == 4  # the house's four doors
    for s in house:  # (session 28: a door between two of its rooms too, said to be inside)
        every = [n for n in game.board.neighbours(s, through=EVERYTHING) if game.board.edge(s, n) == "door"]
        said = _space_facts(game, s).splitlines()
        if every:
            # (session 30: a door out of doors says "(outside)")
            assert said[1] == "; ".join(sorted(f"a door to {space_name(game, n)}" + (
                " (inside)" if n not in doors[s] else " (outside)" if not game.board.building_of(n) else "")
                for n in every)), said
        else:
            assert not any("door" in line for line in said), said


def test_a_missing_friend_risen_from_a_pit_is_named_too_and_spaces_list_it_by_name(pack):
    """The review: No... It Can't Be!'s Zombie Hero still read "Zombie Hero 131", and `?N` on its space
    said "Zombie Hero"."""
    from spawnpit.engine.human import occupants
    from tests.engine.test_lnoe_faq import to_hand

    game = bare_game(pack, scenario="burn_em_out")
    for _ in range(4):
        put(game, "zombie", "town_center.b2")
    card = to_hand(game, "no_it_cant_be", "zombies")
    game.play(Ref("card", card), None, None, game._plain_ctx())
    risen = next((u, r) for u, r in game.state["units"].items() if r["kind"] == "zombie_hero")
    friend = game.state["units"][risen[1]["from"]]
    name = f"Zombie Hero ({game.model.title_of(friend['proto'])})"
    assert _unit(game, risen[0]) == name and name in occupants(game, risen[1]["space"])
    spawned = next(e for e in game.entries if e["type"] == "spawn" and e["kind"] == "zombie_hero")
    assert describe_entry(game, spawned).startswith(f"{name} comes into play at ")


def test_resourcefuls_choice_says_it_is_the_card_kept(pack):
    """The Escape play-test could not tell whether Resourceful's "choose a card" kept or threw away."""
    from tests.engine.test_lnoe_faq import answer

    game = bare_game(pack)
    jake = put(game, "jake_cartwright", "town_center.b2")
    script = answer(game, "heroes", "Resourceful: draw two and keep one")
    game.emit("hero_draw", {"finder": jake})
    assert "choose card to keep (the other is discarded)" in [label for label, _ in script.asked]
