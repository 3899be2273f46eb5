"""Session 24: a Zombie card names its target as it is played, before anyone may answer it.

At the table a player announces what a card is aimed at as they play it, so the other side decides on
a cancel card (or Father Joseph's Strength of Spirit) knowing what it would save. The play-tests saw
"Strength of Spirit: take a Wound and try to cancel" asked for a Hysteria whose Hero was chosen only
afterwards. The cards that aim at a Hero, a Zombie, a building or a space now name it in a hook of the
system's `card_target` event, which `play` runs first; the log's `play` entry says it.
"""

from __future__ import annotations

import pytest

from spawnpit.engine.human import ask_text
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import dice, put
from tests.engine.test_lnoe_faq import answer, bare_game, to_hand, where


def _plays(game) -> list[tuple[str, str | None]]:
    return [(e["card"], e["on"]) for e in game.entries if e["type"] == "play"]


class _Seen:
    """A Heroes' policy that answers every question with a pass (or the first option) and keeps, for
    each, the log's `play` entries so far: what the Heroes knew when they were asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, list]] = []

    def choose(self, game, side, label, options):
        self.asked.append((label, _plays(game)))
        return options.index(None) if None in options else 0


def test_hysterias_hero_is_named_before_the_heroes_may_cancel_it(pack):
    game = bare_game(pack)
    put(game, "sally", "town_center.a1")
    jake = put(game, "jake_cartwright", "town_center.b2")
    game.policies["zombies"].answers = [lambda options: options.index(jake)]
    card = to_hand(game, "hysteria", "zombies")
    to_hand(game, "not_this_time", "heroes")  # a cancel card: the Heroes are asked whether to play it
    seen = game.policies["heroes"] = _Seen()
    game.play(Ref("card", card), None, None, game._plain_ctx())
    zombies = game.policies["zombies"]
    assert [label for label, _ in zombies.asked] == ["choose hero to play it on"]
    assert seen.asked, "the Heroes were never asked about the cancel card"
    assert seen.asked[0][0] == "choose card to play"  # Cancel Cards: Not This Time!, or pass
    assert seen.asked[0][1] == [("hysteria", jake.id)]  # the target was in the log when they were asked
    assert game.table.has(jake, Ref("marker", "hysterical"))


def test_strength_of_spirit_is_asked_knowing_the_target(pack):
    game = bare_game(pack)
    put(game, "father_joseph", "town_center.b2")
    johnny = put(game, "johnny", "town_center.a1")
    card = to_hand(game, "teen_angst", "zombies")
    seen = game.policies["heroes"] = _Seen()
    game.play(Ref("card", card), None, None, game._plain_ctx())
    assert [label for label, _ in seen.asked] == ["choose an option"]
    assert seen.asked[0][1] == [("teen_angst", johnny.id)]
    assert game.table.has(johnny, Ref("marker", "hindered"))


def test_a_cancelled_card_leaves_its_target_untouched(pack):
    """Lights Out names its building, the Heroes cancel it: no building goes dark."""
    game = bare_game(pack, heroes=["not_this_time"])
    put(game, "jake_cartwright", "town_center.b2")
    card = to_hand(game, "lights_out", "zombies")
    to_hand(game, "not_this_time", "heroes")
    game.play(Ref("card", card), None, None, game._plain_ctx())
    (building, played), = [(e["on"], e) for e in game.entries if e["type"] == "play" and e["card"] == "lights_out"]
    assert building in game.board.buildings
    assert [e["card"] for e in game.entries if e["type"] == "cancel"] == ["lights_out"]
    assert not game.table.has(Ref("building", building), Ref("marker", "lights_out"))
    assert where(game, Ref("card", card)) == "discard"


@pytest.mark.parametrize("card, log", [
    ("teen_angst", "No Student in play: Teen Angst does nothing"),
    ("divide_and_conquer", "No Hero is alone on a board section: Divide and Conquer does nothing"),
])
def test_a_card_with_nothing_to_aim_at_is_played_for_nothing_and_says_so(pack, card, log):
    game = bare_game(pack)
    put(game, "jake_cartwright", "town_center.b2")
    put(game, "becky", "town_center.b2")
    cid = to_hand(game, card, "zombies")
    game.play(Ref("card", cid), None, None, game._plain_ctx())
    assert game.policies["zombies"].asked == []
    assert _plays(game) == [(card, None)]
    assert log in [e["text"] for e in game.entries if e["type"] == "note"]


def test_shamble_moves_the_zombie_it_named(pack):
    game = bare_game(pack, zombies=[1, 0])  # name the second Zombie; then step it into Jake's space
    jake = put(game, "jake_cartwright", "town_center.b2")
    near = put(game, "zombie", "town_center.a1")
    far = put(game, "zombie", "town_center.c3")
    card = to_hand(game, "shamble", "zombies")
    left = dice(game, [1])
    game.play(Ref("card", card), None, None, game._plain_ctx())
    assert not left
    named = game.policies["zombies"].asked[0][1][1]
    other = near if named == far else far
    assert _plays(game) == [("shamble", named.id)]
    assert where(game, named) == where(game, jake) == "town_center.b2"  # its walk of 1 took it to Jake
    assert where(game, other) in ("town_center.a1", "town_center.c3")
    assert game.table.has(named, Ref("marker", "card_moved"))


def test_a_card_played_on_something_names_no_other_target(pack):
    """`play c on h` aims it already: its card_target hook is not asked."""
    game = bare_game(pack)
    put(game, "sally", "town_center.a1")
    jake = put(game, "jake_cartwright", "town_center.b2")
    card = to_hand(game, "hysteria", "zombies")
    game.play(Ref("card", card), jake, None, game._plain_ctx())
    assert game.policies["zombies"].asked == []
    assert _plays(game) == [("hysteria", jake.id)] and game.table.has(jake, Ref("marker", "hysterical"))


def test_falling_darkness_names_the_hero_card_it_snuffs_out(pack):
    from tests.engine.test_lnoe_cards import in_play

    game = bare_game(pack)
    put(game, "jake_cartwright", "town_center.b2")
    jake = put(game, "sally", "town_center.a1")
    faith = Ref("card", in_play(game, "faith", jake))
    card = to_hand(game, "falling_darkness", "zombies")
    game.play(Ref("card", card), None, None, game._plain_ctx())
    assert game.policies["zombies"].asked[0][0] == "choose card to play it on"
    assert _plays(game) == [("falling_darkness", faith.id)]
    assert where(game, faith) == "discard"


def test_a_card_whose_target_dies_while_it_is_answered_does_nothing(pack):
    """The review found Divide and Conquer aimed at Father Joseph, who dies of his own Strength of Spirit:
    the card goes to the discard pile with its dead Hero (Cards on a Hero), and its effect must not run
    after that (it said "No Hero is alone on a board section")."""
    game = bare_game(pack, heroes=["Strength of Spirit: take a Wound that kills him, and try to cancel"])
    joseph = put(game, "father_joseph", "town_center.b2")
    game.state["units"][joseph.id]["wounds"] = game.table.attribute(joseph, "health") - 1
    far = next(s for s in game.board.spaces if not s.startswith("town_center"))
    put(game, "sally", far)
    zombie = put(game, "zombie", "town_center.a1")
    card = to_hand(game, "divide_and_conquer", "zombies")
    left = dice(game, [1])  # the try fails, and the Wound killed him
    game.play(Ref("card", card), None, None, game._plain_ctx())
    assert not left and where(game, joseph) is None
    assert _plays(game) == [("divide_and_conquer", joseph.id)]
    assert where(game, Ref("card", card)) == "discard"
    assert where(game, zombie) == "town_center.a1"
    assert not [e for e in game.entries if e["type"] == "note" and "Divide and Conquer" in e["text"]]


def test_the_question_says_what_the_choice_is_for(pack):
    game = bare_game(pack)
    rule = {"title": "Hysteria"}
    assert ask_text(game, "choose hero to play it on", rule) == "Hysteria: choose a Hero to play it on"


# ---- notes that name what they are about (`log "…{}…" with [..]`) -------------------------------------


def test_a_shot_says_who_fires_which_item_at_which_zombie_and_what_the_ammo_roll_is(pack):
    """The play-test saw "rolled 1D6: 6 for Ranged Attack (Sally)", "Hit", then a second, unexplained
    roll (the Out of Ammo test) and never which Item or Zombie."""
    from spawnpit.engine.human import describe_entry
    from tests.engine.test_lnoe_faq import give

    game = bare_game(pack, heroes=[0, 0])
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    zombie = put(game, "zombie", "town_center.b1")
    revolver = give(game, "revolver", sheriff)
    left = dice(game, [5], [1])  # a Hit, then out of ammo
    game.emit("shoot", {"unit": sheriff})
    assert not left
    said = [e for e in game.entries if e["type"] == "note"]
    fired = said[0]
    assert fired["text"] == "Sheriff Anderson fires the Revolver at Zombie in town_center.b1"
    assert fired["with"] == [sheriff.id, revolver.id, zombie.id, "town_center.b1"] and "unit" not in fired
    shown = describe_entry(game, fired)
    assert shown.startswith("Sheriff Anderson fires the Revolver at Zombie") and shown.endswith("in Town Center b1"), shown
    ammo = next(e for e in said if e.get("template", "").startswith("Out of Ammo roll"))
    assert describe_entry(game, ammo) == "Out of Ammo roll for the Revolver: it runs out on 1 (Sheriff Anderson)"
    assert "Out of ammo: the Revolver is discarded" in [e["text"] for e in said]
    assert where(game, revolver) == "discard"


def test_a_notes_values_read_as_what_they_are(pack):
    """A range stat reads "1-2" (the Pump Shotgun's Out of Ammo), a list of dice "3, 5", yes/no as
    words, on the terminal as in the log's plain text."""
    from spawnpit.engine import interp
    from spawnpit.engine.human import describe_entry
    from tests.engine.test_lnoe_faq import give

    game = bare_game(pack)
    becky = put(game, "becky", "town_center.b2")
    shotgun = give(game, "pump_shotgun", becky)
    ir = {"do": "log", "what": {"lit": "{} runs out on {}; dice {}; {}", "type": "str"},
          "args": {"with": {"list": [{"name": "w"}, {"attr": "out_of_ammo", "of": {"name": "w"}},
                                     {"list": [{"lit": 3, "type": "int"}, {"lit": 5, "type": "int"}]},
                                     {"lit": True, "type": "bool"}]}}}
    interp.stmt(ir)(game._plain_ctx().child({"w": shotgun}))
    entry = game.entries[-1]
    assert entry["text"] == "Pump Shotgun runs out on 1-2; dice 3, 5; yes"
    assert entry["with"] == [shotgun.id, "1-2", [3, 5], True]
    assert describe_entry(game, entry) == "Pump Shotgun runs out on 1-2; dice 3, 5; yes"
    assert describe_entry(game, {**entry, "with": [None, "1-2", [], False]}) == "nothing runs out on 1-2; dice ; no"


# ---- a choice says what it is for (`choose card c "to get rid of" …`) ----------------------------------


def test_the_carrying_limit_question_says_the_card_is_to_get_rid_of(pack):
    """The play-test saw "Carrying Limit: choose a card" and could not tell it from a card to use."""
    from tests.engine.test_lnoe_faq import give

    game = bare_game(pack, heroes=[0])
    becky = put(game, "becky", "town_center.b2")
    for card in ("baseball_bat", "meat_cleaver", "chainsaw"):
        give(game, card, becky)
    game.emit("load_check", {"carrier": becky})
    label = game.policies["heroes"].asked[0][0]
    assert label == "choose card to get rid of (over two Weapons)"
    assert ask_text(game, label, {"title": "Carrying Limit"}) == "Carrying Limit: choose a card to get rid of (over two Weapons)"


def test_a_choose_question_in_words_is_parsed_and_kept(tmp_path):
    from spawnpit.compiler import compile_paths

    mini = __import__("pathlib").Path(__file__).resolve().parents[1] / "fixtures" / "mini"
    (tmp_path / "rule.pit").write_text(
        'using mini\n\nspecial rule "Pick" {\n  source "test"\n  text "t"\n'
        '  on zombie_turn.move {\n    choose unit u "to look at" where u.side == heroes by heroes { log "seen" }\n  }\n}\n')
    result = compile_paths([mini, tmp_path / "rule.pit"])
    assert result.ok, result.diagnostics
    rule = next(o for o in result.pack["objects"] if o.get("id") == "pick")
    statement = rule["hooks"][0]["body"][0]
    assert statement["ask"] == "to look at" and statement["choose"] == "unit"


# ---- session 24 play-test: cards offered when they can help, and said when they act --------------------


def _give(game, card, unit):
    from tests.engine.test_lnoe_faq import give

    return give(game, card, unit)


def test_a_first_aid_kit_may_be_used_before_the_heros_fights(pack):
    """The play-test saw Sally (1 Wound of 2) die in her own fight with two Kits on her: the Kit was only
    offered at the end of the Hero Turn."""
    game = bare_game(pack, heroes=["sally", "sally"])
    sally = put(game, "sally", "town_center.b2")
    game.state["units"][sally.id]["wounds"] = 1
    put(game, "zombie", "town_center.b2")
    kit = _give(game, "first_aid_kit", sally)
    game.emit("hero_turn.fight.start", {"unit": sally})
    assert [label for label, _ in game.policies["heroes"].asked] == ["choose hero carrying the First Aid Kit, to use it", "choose hero to heal"]
    assert game.state["units"][sally.id]["wounds"] == 0 and where(game, kit) == "discard"


def test_the_ai_keeps_its_first_aid_kit_before_a_fight_unless_the_hero_is_one_wound_from_death(pack):
    from spawnpit.engine.policies import AIPolicy

    game = bare_game(pack)
    game.policies["heroes"] = AIPolicy()
    becky = put(game, "becky", "town_center.b2")  # 3 Health
    game.state["units"][becky.id]["wounds"] = 1
    put(game, "zombie", "town_center.b2")
    kit = _give(game, "first_aid_kit", becky)
    game.emit("hero_turn.fight.start", {"unit": becky})
    assert where(game, kit) == becky.id
    game.state["units"][becky.id]["wounds"] = 2
    game.emit("hero_turn.fight.start", {"unit": becky})
    assert where(game, kit) == "discard" and game.state["units"][becky.id]["wounds"] == 1


def test_a_fire_extinguisher_may_be_sprayed_as_the_move_action_begins(pack):
    game = bare_game(pack, heroes=["town_center.a1", 0])
    jake = put(game, "jake_cartwright", "town_center.b2")
    zombie = put(game, "zombie", "town_center.a1")
    card = _give(game, "fire_extinguisher", jake)
    game.emit("hero_turn.move.start", {"unit": jake})
    asked = game.policies["heroes"].asked
    assert [label for label, _ in asked] == ["choose space to spray", "choose space to drive a Zombie into"]
    assert where(game, zombie) == asked[1][1][0].id and where(game, card) == "discard"
    assert where(game, zombie).startswith("l_boards.")  # out of the Town Center, away from Jake


def test_just_what_i_needed_may_be_played_before_the_heros_fights(pack):
    from tests.engine.test_lnoe_faq import to_discard

    game = bare_game(pack, heroes=["just_what_i_needed", "chainsaw"])
    billy = put(game, "billy", "town_center.b2")
    put(game, "zombie", "town_center.b2")
    to_hand(game, "just_what_i_needed", "heroes")
    saw = to_discard(game, "chainsaw")
    game.emit("hero_turn.fight.start", {"unit": billy})
    assert where(game, Ref("card", saw)) == billy.id


def test_handy_is_offered_only_when_the_break_test_would_break_the_weapon(pack):
    game = bare_game(pack, heroes=[0, 0])
    jenny, zombie = put(game, "jenny", "town_center.b2"), put(game, "zombie", "town_center.b2")
    bat = _give(game, "baseball_bat", jenny)
    left = dice(game, [2, 5], [4], [5], [4])  # the bat's die makes doubles; the break test of 4 holds
    game.emit("fight", {"fighter": jenny, "foe": zombie})
    assert not left and where(game, bat) == jenny.id
    assert not any("Handy" in str(o) for _, options in game.policies["heroes"].asked for o in options)


def test_becky_is_offered_her_first_aid_only_for_a_wounded_hero(pack):
    game = bare_game(pack)
    put(game, "becky", "town_center.b2")
    sally = put(game, "sally", "town_center.b2")
    game.emit("hero_turn.end")
    assert game.policies["heroes"].asked == []  # nobody to heal: no question
    game.state["units"][sally.id]["wounds"] = 1
    answer(game, "heroes", "sally")
    game.emit("hero_turn.end")
    assert game.state["units"][sally.id]["wounds"] == 0


def test_track_stars_bonus_is_said(pack):
    """The play-test saw "rolled 1D6: 1" and then Billy offered spaces 2 steps away."""
    game = bare_game(pack, heroes=["town_center.b2"])
    billy = put(game, "billy", "town_center.b2")
    dice(game, [1])
    game.emit("move", {"unit": billy})
    assert "Billy adds 1 to the movement roll: 2 spaces" in [e["text"] for e in game.entries if e["type"] == "note"]


def test_a_hero_with_a_gun_and_nothing_to_shoot_is_told_why(pack):
    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    _give(game, "revolver", sheriff)
    game.emit("hero_turn.ranged_attack", {"unit": sheriff})
    assert "Sheriff Anderson: no Zombie in range and in sight to shoot" in [e["text"] for e in game.entries if e["type"] == "note"]
    put(game, "zombie", "town_center.a1")
    before = len(game.entries)
    game.emit("hero_turn.ranged_attack", {"unit": sheriff})
    assert not [e for e in game.entries[before:] if e["type"] == "note" and "no Zombie" in e["text"]]


def test_a_card_played_shows_its_whole_text(pack):
    """The play-test could not read a Zombie card (cut at 90 characters) before deciding to cancel it."""
    from spawnpit.engine.human import describe_entry

    game = bare_game(pack)
    hysteria = next(o for o in pack["objects"] if o.get("id") == "hysteria")
    text = " ".join(hysteria["props"]["text"].split())
    assert len(text) > 90
    line = describe_entry(game, {"type": "play", "card": "hysteria", "side": "zombies", "on": None})
    assert line.endswith(text), line


def test_the_m_map_and_its_key_fit_an_80_by_24_terminal_under_the_question(pack):
    """The play-test's `m` scrolled the top two rows of the map away at 80x24: map and key must leave two
    lines for the question and the prompt."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine.human import board_view

    for seed in (1, 2, 3, 4):
        game = bare_game(pack, seed=seed)
        put(game, "becky", "town_center.b2")
        put(game, "zombie", "town_center.b2")
        put(game, "zombie", "town_center.a1")
        put(game, "zombie", "town_center.a1")
        numbers = {"town_center.b2": 1, "town_center.a1": 2}
        out = Console(file=StringIO(), width=80, color_system=None)
        out.print(board_view(game, numbers, True, "heroes", whole=True, width=80, roster=False))
        lines = out.file.getvalue().splitlines()
        assert lines[0].startswith("╭") and len(lines) <= 22, "\n".join(lines)


def test_a_choice_in_the_log_names_what_was_chosen_and_the_question(pack):
    """The review saw "Zombies chose l_boards.bank_gas_station_junkyard.gas_station (choose building)"."""
    from spawnpit.engine.human import describe_entry

    game = bare_game(pack)
    building = next(iter(game.board.buildings))
    line = describe_entry(game, {"type": "choice", "side": "zombies", "picked": building,
                                 "label": "choose building to play it on", "rule": "Lights Out"})
    assert line == f"Zombies chose {game.board.buildings[building].title} (Lights Out: choose a building to play it on)"


def test_unrelenting_attack_attacks_the_hero_who_fended_the_zombie_off(pack):
    """The play-test was offered Father Joseph or Billy for the Zombie's new fight in Father Joseph's own
    Fight step: the Zombie attacks again the Hero it just fought."""
    game = bare_game(pack, zombies=[0], heroes=[0])
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    billy = put(game, "billy", "town_center.b2")
    card = to_hand(game, "unrelenting_attack", "zombies")
    left = dice(game, [5, 3], [4], [2, 1], [6])  # fended off; the new fight is lost
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert not left and where(game, Ref("card", card)) == "discard"
    assert game.policies["heroes"].asked == []  # no Hero to pick: the one it fought
    assert game.state["units"][sheriff.id]["wounds"] == 1 and game.state["units"][billy.id]["wounds"] == 0
    assert not game.table.has(sheriff, Ref("marker", "attacked_again"))


def test_unrelenting_attack_cancelled_leaves_no_mark_on_the_hero(pack):
    game = bare_game(pack, zombies=[0], heroes=["not_this_time"])
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    to_hand(game, "unrelenting_attack", "zombies")
    to_hand(game, "not_this_time", "heroes")
    left = dice(game, [5, 3], [4])  # fended off; no new fight
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert not left and [e["card"] for e in game.entries if e["type"] == "cancel"] == ["unrelenting_attack"]
    assert not game.table.has(sheriff, Ref("marker", "attacked_again"))
    assert game.state["units"][sheriff.id]["wounds"] == 0


def test_b_lists_the_boards_on_a_small_terminal_and_b_n_shows_one(pack):
    """At 80x24 the play-test's `b` printed some 60 lines at once."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine.human import HumanPolicy

    game = bare_game(pack)
    put(game, "becky", "town_center.b2")
    policy = HumanPolicy(console=Console(file=StringIO(), width=80, height=24, color_system=None))
    def shown(word):
        out = Console(file=StringIO(), width=80, color_system=None)
        out.print(policy._command(game, "heroes", word, [None], {}))
        return out.file.getvalue().splitlines()
    listed = shown("b")
    assert listed[0].startswith("The boards (b N shows one") and len(listed) == 6  # the Town Center and 4 L-boards
    second = shown("b2")
    assert len(second) <= 22 and second[0].startswith("╭") and listed[2].split("  ", 2)[2] in second[0]
    assert all(len(line) <= 80 for line in second)
    assert shown("b9") == ["there is no board 9: b lists them"]


def test_m_still_fits_80_by_24_with_marked_spaces_and_the_help_fits_too(pack):
    """The Zombies' play-test of Save the Townsfolk lost the top of `m` again: a markers line made 25."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine.human import HELP, HumanPolicy

    assert len(HELP.splitlines()) <= 22 and max(len(line) for line in HELP.splitlines()) <= 80
    for seed in (1, 2, 3):
        game = bare_game(pack, seed=seed)
        put(game, "becky", "town_center.b2")
        for _ in range(3):
            put(game, "zombie", "town_center.a1")
        spaces = sorted(game.board.spaces)
        for marker, space in (("fire", spaces[5]), ("gas", spaces[40]), ("locked_door", spaces[80])):
            game.mark(Ref("space", space), marker, 1, game._plain_ctx())
        policy = HumanPolicy(console=Console(file=StringIO(), width=80, height=24, color_system=None))
        out = Console(file=StringIO(), width=80, color_system=None)
        out.print(policy._command(game, "heroes", "m", [None], {"town_center.a1": 1}))
        lines = out.file.getvalue().splitlines()
        assert lines[0].startswith("╭") and len(lines) <= 22, "\n".join(lines)


def test_a_card_in_play_says_what_it_was_played_on(pack):
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine.human import side_view
    from tests.engine.test_lnoe_cards import in_play

    game = bare_game(pack)
    sally = put(game, "sally", "town_center.b2")
    in_play(game, "faith", sally)
    out = Console(file=StringIO(), width=200, color_system=None)
    out.print(side_view(game, "zombies"))
    assert "In play: Faith (on Sally)" in out.file.getvalue()


def test_a_longer_zombie_move_and_the_odd_zombies_say_their_numbers(pack):
    """The Zombies' play-test had to press `l` to find how far a Shambling Zombie could go, and placed
    Zombies without knowing how many were left."""
    game = bare_game(pack)
    put(game, "becky", "town_center.b2")
    zombie = put(game, "zombie", "town_center.a1")
    dice(game)
    game.emit("zombie_walk", {"walker": zombie, "moves": 3, "card": Ref("card", to_hand(game, "shamble", "zombies"))})
    pits = sorted(game.board.spawn_points)
    game.emit("new_zombies", {"number": 7, "places": [Ref("space", p) for p in pits]})
    said = [e["text"] for e in game.entries if e["type"] == "note"]
    assert "Zombie may move up to 3 (Shamble; Zombie Hunger holds at each step)" in said
    assert f"New Zombies: 7 over {len(pits)} places (1 on each); the Zombie player places the {7 - len(pits)} left over" in said
    labels = [label for label, _ in game.policies["zombies"].asked]
    assert sum(label.startswith("choose space for a Zombie the Zombie player places (") for label in labels) == 7 - len(pits)



# ---- the second review: advice and the questions not asked -------------------------------------------


def test_no_cancel_question_at_the_start_of_the_hero_turn_without_a_cancel_card(pack):
    from tests.engine.test_lnoe_cards import in_play

    game = bare_game(pack)
    put(game, "jake_cartwright", "town_center.b2")
    in_play(game, "lights_out", Ref("building", next(iter(game.board.buildings))))
    game.emit("hero_turn.start")
    assert game.policies["heroes"].asked == []


def test_the_ai_cancels_a_card_in_play_that_shuts_the_heroes_out_and_keeps_its_card_for_others(pack):
    from spawnpit.engine.policies import AIPolicy
    from tests.engine.test_lnoe_cards import in_play

    game = bare_game(pack)
    game.policies["heroes"] = AIPolicy()
    jake = put(game, "jake_cartwright", "town_center.b2")
    hysteria = in_play(game, "hysteria", jake)
    cancel = to_hand(game, "not_this_time", "heroes")
    game.emit("hero_turn.start")
    assert where(game, Ref("card", cancel)) == "side:heroes" and where(game, Ref("card", hysteria)) == "play"
    b2 = game.board.resolve("town_center.b2")  # (a building Jake is near: session 31's ai cancels no other)
    near = min(game.board.buildings, key=lambda b: min(game.board.between(b2, s) for s in game.board.spaces_of(b)))
    lights = in_play(game, "lights_out", Ref("building", near))
    game.emit("hero_turn.start")
    assert where(game, Ref("card", lights)) == "discard" and where(game, Ref("card", cancel)) == "discard"


def test_nothing_offered_before_a_fight_or_a_move_when_it_cannot_help(pack):
    """No Kit question with nobody wounded, no Just What I Needed or Extinguisher with no Zombie near."""
    game = bare_game(pack)
    sally = put(game, "sally", "town_center.b2")
    put(game, "zombie", "town_center.b2")
    _give(game, "first_aid_kit", sally)
    _give(game, "fire_extinguisher", sally)
    to_hand(game, "just_what_i_needed", "heroes")
    game.emit("hero_turn.fight.start", {"unit": sally})
    labels = [label for label, _ in game.policies["heroes"].asked]
    assert "choose hero carrying the First Aid Kit, to use it" not in labels
    game = bare_game(pack)
    jake = put(game, "jake_cartwright", "town_center.b2")
    _give(game, "fire_extinguisher", jake)
    to_hand(game, "just_what_i_needed", "heroes")
    game.emit("hero_turn.fight.start", {"unit": jake})
    game.emit("hero_turn.exchange.end", {"unit": jake})
    assert game.policies["heroes"].asked == []


def test_the_ai_keeps_its_extinguisher_as_the_move_begins_and_sprays_at_the_end_of_the_exchange(pack):
    from spawnpit.engine.policies import AIPolicy

    game = bare_game(pack)
    game.policies["heroes"] = AIPolicy()
    jake = put(game, "jake_cartwright", "town_center.b2")
    put(game, "zombie", "town_center.a1")
    card = _give(game, "fire_extinguisher", jake)
    game.emit("hero_turn.move.start", {"unit": jake})
    assert where(game, card) == jake.id
    game.emit("hero_turn.exchange.end", {"unit": jake})
    assert where(game, card) == "discard"


def test_just_what_i_needed_before_a_fight_takes_a_weapon_for_the_fight(pack):
    from spawnpit.engine.policies import AIPolicy
    from tests.engine.test_lnoe_faq import to_discard

    game = bare_game(pack)
    game.policies["heroes"] = AIPolicy()
    billy = put(game, "billy", "town_center.b2")
    put(game, "zombie", "town_center.b2")
    to_hand(game, "just_what_i_needed", "heroes")
    revolver, bat = to_discard(game, "revolver"), to_discard(game, "baseball_bat")
    game.emit("hero_turn.fight.start", {"unit": billy})
    assert where(game, Ref("card", bat)) == billy.id and where(game, Ref("card", revolver)) == "discard"


def test_strength_of_spirit_says_when_another_try_would_kill_him(pack):
    game = bare_game(pack, heroes=["Strength of Spirit: take a Wound and try to cancel", 
                                   "Strength of Spirit: another Wound, that kills him, another try"])
    joseph = put(game, "father_joseph", "town_center.b2")
    game.state["units"][joseph.id]["wounds"] = game.table.attribute(joseph, "health") - 2
    put(game, "sally", "town_center.a1")
    card = to_hand(game, "teen_angst", "zombies")
    left = dice(game, [1], [4])  # the first try fails; the second, that kills him, holds
    game.play(Ref("card", card), None, None, game._plain_ctx())
    assert not left and where(game, joseph) is None
    assert [e["card"] for e in game.entries if e["type"] == "cancel"] == ["teen_angst"]


def test_strength_of_spirit_on_a_card_in_play_says_when_the_wound_kills_him(pack):
    from tests.engine.test_lnoe_cards import in_play

    game = bare_game(pack)
    joseph = put(game, "father_joseph", "town_center.b2")
    game.state["units"][joseph.id]["wounds"] = game.table.attribute(joseph, "health") - 1
    in_play(game, "lights_out", Ref("building", next(iter(game.board.buildings))))
    game.emit("hero_turn.start")
    assert [label for label, _ in game.policies["heroes"].asked] == ["choose card to cancel with the Wound that kills him"]


def test_no_lnoe_card_text_is_cut_where_a_played_card_is_shown(pack):
    longest = max(len(" ".join(str(o["props"].get("text", "")).split())) for o in pack["objects"] if o["kind"] == "card")
    assert longest <= 220  # engine.human._play clips at 220


def test_the_odd_zombie_bookkeeping_marker_stays_out_of_the_terminals_log(pack):
    """Session 25: while the Zombies left over were placed, the player's log and markers line showed
    "Odd Zombie Placed" on each space given one so far: bookkeeping that says nothing the placement does
    not (the spaces already given one are simply not offered again)."""
    from spawnpit.engine.human import log_view, markers_line

    game = bare_game(pack)
    pits = sorted(game.board.spawn_points)
    start, seen = len(game.entries), []

    class Watch:
        def choose(self, game, side, label, options):
            seen.append(log_view(game, game.entries[start:], 60, moves=0).plain + str(markers_line(game) or ""))
            return 0

    game.policies["zombies"] = Watch()
    game.emit("new_zombies", {"number": len(pits) + 2, "places": [Ref("space", p) for p in pits]})
    assert any(e.get("marker") == "odd_zombie" for e in game.entries[start:])  # the JSON log still records it
    assert len(seen) == 2 and "Zombie spawn at" in seen[1]
    assert not any("Odd Zombie" in view for view in seen)


def test_c_cuts_each_cards_text_to_one_line_when_the_whole_texts_would_not_fit(pack):
    """Session 25 (a play-test): at 80x24 `c` printed every card's whole text, so the units at the top of
    the panel scrolled away, with no word of what was left out."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine.human import HumanPolicy
    from tests.engine.test_lnoe_faq import give

    game = bare_game(pack)
    becky, sally = put(game, "becky", "town_center.b2"), put(game, "sally", "town_center.a1")

    def shown(height):
        policy = HumanPolicy(console=Console(file=StringIO(), width=80, height=height, color_system=None))
        out = Console(file=StringIO(), width=80, color_system=None)
        out.print(policy._command(game, "heroes", "c", [None], {}))
        return out.file.getvalue().splitlines()

    few = shown(24)
    assert not any("cut to one line" in line for line in few)
    for card in ("revolver", "pump_shotgun", "baseball_bat", "first_aid_kit"):
        give(game, card, becky)
    for card in ("faith", "courage", "ruuuuuun", "recovery", "not_this_time", "get_back_you_devils", "just_what_i_needed"):
        to_hand(game, card, "heroes")
    assert len(shown(200)) > 22  # the whole texts: too tall for 24 lines
    many = shown(24)
    assert len(many) <= 22 and "cut to one line" in many[-1]
    assert any(line.startswith("Be ") for line in many) and any(line.startswith("Sa ") for line in many)
    assert any(line.startswith("Pump Shotgun (carried by Becky): ") and line.endswith("…") for line in many)


def test_m_keeps_a_buildings_own_marker_but_drops_the_space_markers_when_both_do_not_fit(pack):
    """Session 25 (a play-test of Burn 'em Out): with a marker on a building (Lights Out) the whole markers
    line was kept, and once it wrapped to 3-4 lines the top of the map scrolled away."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine.human import HumanPolicy

    game = bare_game(pack, seed=1)
    put(game, "becky", "town_center.b2")
    spaces = sorted(s for s in game.board.spaces if not game.board.info[s].building)
    for i in range(14):  # a markers line of three lines or more
        game.mark(Ref("space", spaces[7 * i]), "fire", 1, game._plain_ctx())
    building = sorted(game.board.buildings)[0]
    game.mark(Ref("building", building), "lights_out", 1, game._plain_ctx())
    policy = HumanPolicy(console=Console(file=StringIO(), width=80, height=24, color_system=None))
    out = Console(file=StringIO(), width=80, color_system=None)
    out.print(policy._command(game, "heroes", "m", [None], {"town_center.a1": 1}))
    lines = out.file.getvalue().splitlines()
    assert lines[0].startswith("╭") and len(lines) <= 22, "\n".join(lines)
    said = "\n".join(lines)
    assert game.board.buildings[building].title in said and "Lights Out" in said  # only that line says it


def test_l_shows_as_much_of_the_log_as_leaves_the_question_on_the_screen(pack):
    """Session 25 (a play-test): `l` printed 60 lines into 24 rows; how a Hero died had scrolled away."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine.human import HumanPolicy

    game = bare_game(pack)
    sally = put(game, "sally", "town_center.b2")
    for _ in range(40):
        game.log({"type": "note", "text": "A long game goes on", "unit": sally.id}, None)

    def shown(height):
        policy = HumanPolicy(console=Console(file=StringIO(), width=80, height=height, color_system=None))
        out = Console(file=StringIO(), width=80, color_system=None)
        out.print(policy._command(game, "heroes", "l", [None], {}))
        return out.file.getvalue().splitlines()

    assert len(shown(24)) <= 22
    assert len(shown(100)) > 30  # a tall terminal sees more


def test_a_wound_that_takes_the_last_health_does_not_read_3_of_2(pack):
    """Session 25 (a play-test): "Johnny takes 2 wounds (3 of 2)"."""
    from spawnpit.engine.human import describe_entry

    game = bare_game(pack)
    johnny = put(game, "johnny", "town_center.b2")
    base = {"type": "wound", "unit": johnny.id, "round": 1, "at": "test"}
    assert describe_entry(game, {**base, "amount": 2, "wounds": 3, "health": 2}) == "Johnny takes 2 wounds (no Health left)"
    assert describe_entry(game, {**base, "amount": 1, "wounds": 2, "health": 2}) == "Johnny takes 1 wound (no Health left)"
    assert describe_entry(game, {**base, "amount": 2, "wounds": 2, "health": 3}) == "Johnny takes 2 wounds (2 of 3)"
