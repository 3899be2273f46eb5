"""Session 27: findings of the play-tests and of last session's list of things left alone."""

from __future__ import annotations

from io import StringIO

import pytest
from rich.console import Console

from spawnpit.engine.human import HumanPolicy
from spawnpit.engine.interp import EndAction
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import put
from tests.engine.test_lnoe_cards import in_play, to_hand
from tests.engine.test_lnoe_faq import bare_game, give


def _shown(policy, game, word: str, side: str = "heroes") -> list[str]:
    out = Console(file=StringIO(), width=80, color_system=None)
    out.print(policy._command(game, side, word, [None], {}))
    return out.file.getvalue().splitlines()


# ---- `c` in pages when the side's units and cards do not fit the screen ---------------------------------

def test_c_is_cut_into_pages_that_each_leave_the_question_on_an_80_by_24_screen(pack):
    """The play-test's `c` ran past 24 lines with many cards in play: the top scrolled away."""
    game = bare_game(pack)
    heroes = [put(game, h, "town_center.b2") for h in ("becky", "billy", "jenny", "johnny")]
    cards = game.state["cards"]
    def protos(deck: str) -> list[str]:  # each card of a deck once, in the deck's order
        return list(dict.fromkeys(r["proto"] for r in cards.values() if r["deck"] == deck and r["where"] == "deck"))
    for i, item in enumerate(protos("hero_deck")[:12]):
        give(game, item, heroes[i % 4])
    for card in protos("zombie_deck")[:6]:
        in_play(game, card, heroes[0])
    for card in protos("hero_deck")[12:16]:
        to_hand(game, card, "heroes")
    policy = HumanPolicy(console=Console(file=StringIO(), width=80, height=24, color_system=None))
    first = _shown(policy, game, "c")
    assert len(first) <= 22 and first[-1].startswith("(page 1 of "), "\n".join(first)
    pages = int(first[-1].split(" of ")[1].split(";")[0].rstrip(")"))
    assert pages >= 2
    seen = "\n".join(first[:-1])
    for n in range(2, pages + 1):
        page = _shown(policy, game, f"c {n}")
        assert len(page) <= 22 and page[-1].startswith(f"(page {n} of {pages}")
        seen += "\n" + "\n".join(page[:-1])
    # every unit and every card, its whole text, is on one of the pages, none twice
    whole = Console(file=StringIO(), width=80, color_system=None)
    from rich.console import Group

    from spawnpit.engine.human import cards_view, side_view
    whole.print(Group(side_view(game, "heroes"), cards_view(game, "heroes")))
    assert [line.rstrip() for line in seen.splitlines()] == [line.rstrip() for line in whole.file.getvalue().splitlines()]
    assert _shown(policy, game, "c 99")[-1].startswith(f"(page {pages} of {pages}")  # past the last: the last


def test_c_that_fits_is_shown_whole_without_pages(pack):
    game = bare_game(pack)
    becky = put(game, "becky", "town_center.b2")
    give(game, "revolver", becky)
    policy = HumanPolicy(console=Console(file=StringIO(), width=80, height=24, color_system=None))
    shown = _shown(policy, game, "c")
    assert not any(line.startswith("(page") for line in shown)
    assert any("Revolver" in line for line in shown)


def test_c_cut_to_one_line_says_how_to_read_the_whole_texts_and_c_1_gives_them(pack):
    """The Zombies' play-test could not read Unrelenting Attack: `c` cut every text to one line, and only
    an option's card could be read whole (?N)."""
    game = bare_game(pack)
    heroes = [put(game, h, "town_center.b2") for h in ("becky", "billy")]
    cards = game.state["cards"]
    protos = list(dict.fromkeys(r["proto"] for r in cards.values() if r["deck"] == "zombie_deck" and r["where"] == "deck"))
    for card in protos[:7]:
        to_hand(game, card, "zombies")
    in_play(game, "hysteria", heroes[0])
    policy = HumanPolicy(console=Console(file=StringIO(), width=80, height=24, color_system=None))
    short = _shown(policy, game, "c", side="zombies")
    assert short[-1] == "(texts cut to one line to fit; c 1, c 2…: the whole texts, page by page)"
    assert any(line.endswith("…") for line in short)
    first = _shown(policy, game, "c 1", side="zombies")
    assert first[-1].startswith("(page 1 of ") and len(first) <= 22
    texts = " ".join(line.strip() for n in range(1, 4) for line in _shown(policy, game, f"c {n}", side="zombies"))
    hysteria = game.model.objects[("card", "hysteria")]["props"]["text"]
    assert " ".join(hysteria.split()) in texts  # (the whole text, wrapped over lines)


def test_c_lists_where_the_zombies_are(pack):
    """The Zombies' play-test: `c` listed the four Heroes and the hand, never the player's own Zombies,
    though `b` said "Z Zombies: your side (c lists them)"."""
    game = bare_game(pack)
    put(game, "becky", "town_center.b2")
    for space in ("town_center.a1", "town_center.a1", "town_center.c3"):
        put(game, "zombie", space)
    policy = HumanPolicy(console=Console(file=StringIO(), width=80, height=24, color_system=None))
    shown = _shown(policy, game, "c", side="zombies")
    assert "Zombie ×3: Town Center a1 (2), Town Center c3" in shown, shown
    # under the unit table (the other side's name, session 30, then Becky)
    assert shown.index("Zombie ×3: Town Center a1 (2), Town Center c3") == 2 and shown[0].strip() == "Heroes:"
    from spawnpit.engine.human import side_view
    panel = Console(file=StringIO(), width=80, color_system=None)
    panel.print(side_view(game, "zombies"))
    assert "Zombie ×3" not in panel.file.getvalue()  # the panel under each question leaves them to the map


# ---- Get Back You Devils!: the Hero who won the fight kills the Zombie ----------------------------------

def test_get_back_you_devils_kills_for_the_hero_who_won_without_asking_who(pack):
    """A play-test was asked which Hero kills the Zombie when two shared the space: only the Hero who
    won the fight can, so nothing is asked and the kill is theirs."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_cards import where

    game = bare_game(pack, heroes=[0])  # play the card; no further answer is scripted
    becky = put(game, "becky", "town_center.b2")
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    card = to_hand(game, "get_back_you_devils", "heroes")
    dice(game, [5, 3], [4])
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    kill = next(e for e in game.entries if e["type"] == "kill")
    assert kill["unit"] == zombie.id and kill["by"] == sheriff.id  # not Becky, who shares the space
    assert where(game, card) == "discard"
    who = [e for e in game.entries if e["type"] == "choice" and "who kills" in e["label"]]
    assert [e["options"] for e in who] == [1]  # the one Hero who won: a terminal does not ask a lone option
    assert not any(r.get("markers", {}).get("won_fight") for r in game.state["units"].values())


# ---- the last screen fits the terminal ----------------------------------------------------------------

def test_the_game_over_screen_keeps_the_result_on_an_80_by_24_terminal(pack):
    """The Zombies' play-test: the final screen ran past 24 lines and the map scrolled off the top."""
    from spawnpit.engine import new_game, play
    from spawnpit.engine.human import ending

    game = new_game(pack, "lnoe:die_zombies_die", seed=3)
    play(game)
    con = Console(file=StringIO(), width=80, height=24, color_system=None)
    HumanPolicy(console=con, fit=True).finish(game)
    lines = con.file.getvalue().splitlines()
    assert len(lines) <= 22, "\n".join(lines)
    result = Console(file=StringIO(), width=80, color_system=None)
    result.print(ending(game))
    assert lines[-len(result.file.getvalue().splitlines()):] == result.file.getvalue().splitlines()
    # a terminal tall enough keeps the map
    tall = Console(file=StringIO(), width=80, height=80, color_system=None)
    HumanPolicy(console=tall, fit=True).finish(game)
    assert any(line.startswith("╭") for line in tall.file.getvalue().splitlines())


def test_a_hindered_hero_is_told_why_before_the_mark_goes(pack):
    """The Zombies' play-test read "Johnny no longer Hindered" before "Hindered: the Hero loses this Move
    Action"."""
    from spawnpit.engine.human import describe_entry
    from spawnpit.engine.state import Ref

    game = bare_game(pack)
    johnny = put(game, "johnny", "town_center.b2")
    game.mark(johnny, "hindered", 1, game._plain_ctx())
    start = len(game.entries)
    with pytest.raises(EndAction):  # the Move Action ends (the turn structure catches it)
        game.emit("hero_turn.move", {"unit": johnny})
    said = [describe_entry(game, e) for e in game.entries[start:] if e["type"] in ("note", "unmark")]
    assert said == ["Hindered: the Hero loses this Move Action (Johnny)", "Johnny no longer Hindered"], said
    assert not game.table.has(johnny, Ref("marker", "hindered"))


# ---- a choice's question may say values: `choose KIND v "… {} …" with [A]` -------------------------------

def test_a_choices_question_takes_values_and_the_compiler_counts_them(tmp_path):
    from tests.compiler.test_robustness import compile_text
    scenario = 'using mini\nscenario "S" {{ board yard\n on round.start {{ let n = 2\n {} }} }}\n'
    good = compile_text(tmp_path, scenario.format(
        'may choose space s "to go to ({} left)" with [n] in list(space t where t == t) { let m = 1 }'), with_system=True)
    assert good.ok, good.diagnostics
    hook = next(o for o in good.pack["objects"] if o["kind"] == "scenario")["hooks"][0]
    choose = hook["body"][1]
    assert choose["ask"] == "to go to ({} left)" and choose["ask_with"] == {"list": [{"name": "n"}]}
    for body, message in (('choose space s "to go ({} {})" with [n] { let m = 1 }',
                           "the question of `choose` has 2 `{}` but 1 value(s) follow in `with`"),
                          ('choose space s "to go ({})" { let m = 1 }',
                           "the question of `choose` has 1 `{}` but 0 value(s) follow in `with`")):
        bad = compile_text(tmp_path, scenario.format(body), with_system=True)
        assert [(d.code, d.message) for d in bad.diagnostics] == [("E0310", message)]


def test_each_step_of_a_longer_zombie_move_asks_with_the_step_and_the_most_it_may_go(pack):
    """The Zombies' play-test: with the map on the screen the log was left out, and with it the die roll
    and the spaces left; the question itself now says them."""
    from spawnpit.engine.human import ask_text

    step = lambda options: next(i for i, o in enumerate(options) if o is not None)  # noqa: E731
    game = bare_game(pack, zombies=[step] * 3)
    zombie = put(game, "zombie", "town_center.a1")
    far = max(game.board.spaces, key=lambda s: game.board.between("town_center.a1", s))
    put(game, "becky", far)
    game.emit("zombie_walk", {"walker": zombie, "moves": 3, "card": Ref("card", to_hand(game, "shamble", "zombies"))})
    labels = [e["label"] for e in game.entries if e["type"] == "choice"]
    assert labels == [f"choose space to step into (step {n} of up to 3, Shamble)" for n in (1, 2, 3)]
    assert ask_text(game, labels[1]) == "choose a space to step into (step 2 of up to 3, Shamble)"


# ---- a Hindered Hero loses the Move Action, not the turn ---------------------------------------------------

def test_a_hindered_hero_on_a_pit_may_still_give_up_the_turn_to_blow_it(pack):
    """The Heroes' play-test: Jenny, Hindered by Teen Angst, began her turn on a Spawning Pit with
    Dynamite and was never offered to blow it. Giving up the turn is not a Move Action; the Hindered mark
    goes with the turn given up."""
    from spawnpit.engine.state import Ref
    from tests.engine.test_lnoe_faq import emit_step

    game = bare_game(pack, "burn_em_out", heroes=["dynamite"])
    pit = game.board.spawn_points[0]
    jenny = put(game, "jenny", pit)
    give(game, "dynamite", jenny)
    game.mark(jenny, "hindered", 1, game._plain_ctx())
    emit_step(game, "hero_turn.move.start", {"unit": jenny})
    assert game.state["counters"]["pits_pending"] == 1
    assert game.table.has(Ref("space", pit), Ref("marker", "destroyed_pit"))
    emit_step(game, "hero_turn.move.end", {"unit": jenny})
    assert not game.table.has(jenny, Ref("marker", "hindered"))  # that turn was the Move Action lost
    assert [e["text"] for e in game.entries if e["type"] == "note"][-1] == "Hindered: the turn given up was the Move Action lost"


def test_a_hindered_hero_in_a_building_is_not_asked_about_the_movement_roll(pack):
    """Hindered takes the Move Action before Hero Movement's question (roll first?) is asked."""
    from spawnpit.engine.state import Ref

    game = bare_game(pack, heroes=[0, 0, 0])
    building = next(s for s, b in ((s, game.board.building_of(s)) for s in sorted(game.board.spaces)) if b)
    becky = put(game, "becky", building)
    game.mark(becky, "hindered", 1, game._plain_ctx())
    with pytest.raises(EndAction):
        game.emit("hero_turn.move", {"unit": becky})
    assert not [e for e in game.entries if e["type"] == "choice"]
    assert not game.table.has(becky, Ref("marker", "hindered"))


# ---- an Item the Hero may not fire: the reason, and only when there is something to shoot ----------------

def test_a_holy_man_is_told_why_his_gun_stays_quiet_only_with_a_zombie_to_shoot(pack):
    """The Heroes' play-test: "Revolver may not be fired now (see the card's text or the Hero's
    abilities)" every turn for Father Joseph, Zombie or not, never naming Holy Man."""
    game = bare_game(pack)
    joseph = put(game, "father_joseph", "town_center.b2")
    give(game, "revolver", joseph)

    def said() -> list[str]:
        start = len(game.entries)
        game.emit("hero_turn.ranged_attack", {"unit": joseph})
        game.emit("hero_turn.ranged_attack.end", {"unit": joseph})
        return [e["text"] for e in game.entries[start:] if e["type"] == "note"]

    assert said() == []  # nothing to shoot at: nothing to say
    put(game, "zombie", "town_center.b2")
    assert said() == ["Father Joseph may not fire Revolver: a Holy Man never fires a Gun"]


def test_a_card_being_played_is_not_said_to_be_in_play(pack):
    """The Heroes' play-test read "In play: I Don't Trust 'em" while deciding whether to cancel it, though
    its text says it is discarded at once: it was being played."""
    from spawnpit.engine.human import side_view

    game = bare_game(pack)
    put(game, "becky", "town_center.b2")
    playing = to_hand(game, "i_dont_trust_em", "zombies")
    game.state["cards"][playing].update(where="play", status="playing")
    in_play(game, "hysteria")
    out = Console(file=StringIO(), width=200, color_system=None)
    out.print(side_view(game, "heroes"))
    assert "Being played: I Don't Trust 'em  ·  In play: Hysteria" in out.file.getvalue()


# ---- a Combat Bonus is not offered when no die can win the fight -----------------------------------------

def test_no_combat_bonus_against_a_zombies_six_unless_a_tough_hero_can_still_tie(pack):
    """The Heroes' play-test was offered the Baseball Bat on a 6 against a 6: no extra die beats a 6."""
    from tests.engine.lnoe_table import dice

    def offers(hero: str, hero_dice: list, zombie_dice: list, answers: list) -> int:
        game = bare_game(pack, heroes=answers)
        fighter, zombie = put(game, hero, "town_center.b2"), put(game, "zombie", "town_center.b2")
        give(game, "baseball_bat", fighter)
        dice(game, hero_dice, zombie_dice, *([[1]] * 3))  # (a bonus die and the bat's break test, if used)
        game.emit("fight", {"fighter": fighter, "foe": zombie})
        return len([e for e in game.entries if e["type"] == "choice" and e.get("rule") == "Combat Bonus"])

    assert offers("becky", [6, 2], [6], []) == 0
    assert offers("johnny", [6, 2], [6], []) == 0  # Tough: the tie already fends it off
    assert offers("johnny", [5, 2], [6], [1]) == 1  # Tough, short of 6: a die may still roll the tie (passes)
    assert offers("becky", [4, 2], [5], [1]) == 1  # an ordinary fight: offered (passes)


# ---- 0 passes, whatever the pass option's number ------------------------------------------------------------

def test_0_passes_a_question_that_may_be_passed_and_is_refused_elsewhere(pack):
    """The Heroes' play-test pressed 2 for "pass" as on the question before, and cancelled a card: the pass
    option is the last, so its number changes from one question to the next."""
    from tests.engine.test_human import answers

    game = bare_game(pack)
    becky, sally = put(game, "becky", "town_center.b2"), put(game, "sally", "town_center.b2")
    con = Console(file=StringIO(), width=80, height=24, color_system=None)
    policy = HumanPolicy(console=con, input=answers(["0"]))
    assert policy.choose(game, "heroes", "choose hero to heal", [becky, sally, None]) == 2
    assert "0 passes" in con.file.getvalue()
    con = Console(file=StringIO(), width=80, height=24, color_system=None)
    policy = HumanPolicy(console=con, input=answers(["0", "2"]))
    assert policy.choose(game, "heroes", "choose hero to heal", [becky, sally]) == 1  # no pass: 0 is refused
    assert "`0` is not one of the choices" in con.file.getvalue()


def test_a_hero_over_the_carrying_limit_is_told_why_an_item_goes(pack):
    """The Zombies' play-test read "Fire Extinguisher discarded, Torch discarded" with no reason given."""
    game = bare_game(pack, heroes=[0])
    jake = put(game, "jake_cartwright", "town_center.b2")
    cards = game.state["cards"]
    items = [p for p in dict.fromkeys(r["proto"] for r in cards.values() if r["deck"] == "hero_deck")
             if "item" in game.model.objects[("card", p)]["props"].get("keywords", ()) and
             "weapon" not in game.model.objects[("card", p)]["props"].get("keywords", ())
             and p not in ("gasoline", "old_betsy")][:5]  # (not those that may be used up instead: over_limit)
    for item in items:
        give(game, item, jake)
    game.emit("load_check", {"carrier": jake})
    notes = [e["text"] for e in game.entries if e["type"] == "note"]
    assert "Jake Cartwright carries 5 Items, over the limit of 4: one must go for each too many" in notes, notes
    assert len([c for c, r in cards.items() if r["where"] == jake.id]) == 4


# ---- review findings --------------------------------------------------------------------------------------

def _move_step(game, unit) -> None:
    """The Move Action step as the turn structure plays it: its start, the step itself (its hooks and
    actions) unless a start hook said `end`, then its end."""
    from spawnpit.engine import flow

    phase = next(p for p in flow._blocks(game.model.system, "phase") if p["id"] == "hero_turn")
    step = next(s for s in flow._blocks(phase, "step") if s["id"] == "move")
    params = {"unit": unit}
    if not flow._moment(game, ["hero_turn", "move"], "start", params):
        flow._act(game, phase, step, ["hero_turn", "move"], params)
    flow._moment(game, ["hero_turn", "move"], "end", params)


def test_a_hindered_youth_may_not_give_up_the_move_action_hindered_took(pack):
    """Review: Youth's heal ends the Move Action at its start, so the step's Hindered hook never ran: the
    Hero healed and stayed Hindered for the next turn as well."""
    from spawnpit.engine.state import Ref

    game = bare_game(pack, heroes=[0, 0, 0, 0])
    billy = put(game, "billy", "town_center.b2")
    game.state["units"][billy.id]["wounds"] = 1
    game.mark(billy, "hindered", 1, game._plain_ctx())
    _move_step(game, billy)
    assert game.state["units"][billy.id]["wounds"] == 1  # no heal: that Move Action was Hindered's
    assert not game.table.has(billy, Ref("marker", "hindered"))
    assert "Hindered: the Hero loses this Move Action" in [e["text"] for e in game.entries if e["type"] == "note"]
    assert not [e for e in game.entries if e["type"] == "choice" and e.get("rule") == "Youth"]
    _move_step(game, billy)  # the next turn, Youth is offered again (and taken: the first answer)
    assert game.state["units"][billy.id]["wounds"] == 0


def test_a_hindered_hero_gives_up_the_turn_on_a_pit_through_the_turn_structure(pack):
    from spawnpit.engine.state import Ref

    game = bare_game(pack, "burn_em_out", heroes=["dynamite"])
    pit = game.board.spawn_points[0]
    jenny = put(game, "jenny", pit)
    give(game, "dynamite", jenny)
    game.mark(jenny, "hindered", 1, game._plain_ctx())
    _move_step(game, jenny)
    assert game.state["counters"]["pits_pending"] == 1
    assert not game.table.has(jenny, Ref("marker", "hindered"))


def test_a_combat_bonus_against_a_six_is_still_offered_to_a_hero_with_a_meat_cleaver(pack):
    """Review: the Meat Cleaver kills on any 6 the Hero rolls (Complete Rulebook: the roll may be modified
    to get the 6), so a bonus die against a Zombie's 6 may still win."""
    from tests.engine.lnoe_table import dice

    game = bare_game(pack, heroes=[0, 0, 0, 0])  # the Baseball Bat, then the Meat Cleaver's kill
    becky, zombie = put(game, "becky", "town_center.b2"), put(game, "zombie", "town_center.b2")
    give(game, "baseball_bat", becky)
    give(game, "meat_cleaver", becky)
    dice(game, [4, 2], [6], [6], [3], [3])  # the bonus die is a 6; the break tests pass
    game.emit("fight", {"fighter": becky, "foe": zombie})
    assert game.state["units"][zombie.id]["space"] is None  # killed by the Meat Cleaver's 6
    assert game.state["units"][becky.id]["wounds"] == 0


def test_get_back_you_devils_leaves_no_mark_when_its_kill_ends_the_game(pack):
    """Review: the last Zombie needed won the game inside the card's play, and `won_fight` stayed on."""
    from spawnpit.engine.interp import GameOver
    from tests.engine.lnoe_table import dice

    game = bare_game(pack, heroes=[0])
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    to_hand(game, "get_back_you_devils", "heroes")
    game.state["counters"]["zombies_killed"] = 14
    dice(game, [5, 3], [4])
    try:
        game.emit("fight", {"fighter": sheriff, "foe": zombie})
    except GameOver:
        pass
    assert game.state["result"] is not None and game.state["result"]["winner"] == "heroes"
    assert not any(r.get("markers", {}).get("won_fight") for r in game.state["units"].values())


def test_a_questions_values_are_said_by_name_and_p_bang_mutes_it_whatever_its_numbers(pack):
    from spawnpit.engine.human import HumanPolicy
    from tests.engine.test_human import answers

    game = bare_game(pack)
    game.state["round"] = 2
    becky = put(game, "becky", "town_center.b2")
    con = Console(file=StringIO(), width=200, height=60, color_system=None)
    human = HumanPolicy(console=con, input=answers(["p!"], then=None))  # (then: the player leaves)
    spaces = [game.table.ref("space", "town_center.a1"), game.table.ref("space", "town_center.a2"), None]
    assert human.choose(game, "zombies", "choose space to step into (step 1 of up to 3)", spaces) == 2
    assert human.choose(game, "zombies", "choose space to step into (step 2 of up to 3)", spaces) == 2  # muted
    assert con.file.getvalue().count("(p! this turn)") == 1
    # a unit among the values is said by its name
    from spawnpit.engine.interp import _filled
    ctx = game._plain_ctx()
    assert _filled(ctx, "choose space to go with {} ({} left)", lambda c: [becky, 2]) == "choose space to go with Becky (2 left)"


def test_p_bang_bang_passes_on_a_question_for_the_rest_of_the_game(pack):
    """The Heroes' play-test: Father Joseph's Strength of Spirit at every Zombie card, round after round;
    `p!` lasted one round."""
    from spawnpit.engine.human import HumanPolicy
    from tests.engine.test_human import answers

    game = bare_game(pack)
    game.state["round"] = 2
    con = Console(file=StringIO(), width=200, height=60, color_system=None)
    human = HumanPolicy(console=con, input=answers(["p!!", "p!", "1"], then=None))
    options = ["Strength of Spirit: take a Wound and try to cancel", None]
    assert human.choose(game, "heroes", "choose an option", options) == 1  # p!!
    game.state["round"] = 7
    assert human.choose(game, "heroes", "choose an option", options) == 1  # still passed, nothing read
    assert con.file.getvalue().count("(p!! this game)") == 1
    assert human.choose(game, "heroes", "choose another option", options) == 1  # p!: this one, this round
    game.state["round"] = 8
    assert human.choose(game, "heroes", "choose another option", options) == 0  # asked again: "1"
    assert human.choose(game, "heroes", "choose an option", options) == 1  # the p!! one: still passed


def test_a_one_digit_option_number_leaves_room_for_the_count_of_the_units_there(pack):
    """The Zombies' play-test: Town Center a3 held 2 Zombies ("Z2"), but as option 8 it was drawn "8Z"."""
    from spawnpit.engine import new_game
    from spawnpit.engine.human import _small_cell, unit_marks

    game = new_game(pack, "lnoe:die_zombies_die", seed=5)
    here, empty = "town_center.a3", "town_center.c3"
    put(game, "zombie", here)
    put(game, "zombie", here)
    marks = unit_marks(game, compact=True)
    cell = lambda sid, n: _small_cell(game, sid, None, marks, {sid: n}, {}, {}).plain  # noqa: E731
    assert cell(here, 8) == "8Z2"
    assert cell(empty, 8) == " 8 "  # (alone, aligned as before)
    assert cell(here, 12) == "12+"  # "Z2" does not fit: the number, in the Zombies' colour (session 29:
    # "12Z" read as one Zombie), and "+" for someone it hides (session 31)


def test_keys_typed_ahead_at_a_terminal_are_dropped_before_a_question_and_a_pipe_keeps_its_lines():
    """The Heroes' play-test: a question answered by itself ("the only choice") let the key meant for it
    answer the next question, which played a card."""
    import os
    import pty

    from spawnpit.engine.human import _drop_typed_ahead

    main, child = pty.openpty()
    try:
        os.write(main, b"2\n")
        with os.fdopen(os.dup(child), "rb", buffering=0) as tty:
            _drop_typed_ahead(tty)
            os.write(main, b"1\n")
            assert tty.read(16).strip() == b"1"  # what was typed before the question is gone
    finally:
        os.close(main)
        os.close(child)
    read, write = os.pipe()
    os.write(write, b"2\n")
    with os.fdopen(read, "rb", buffering=0) as pipe:
        _drop_typed_ahead(pipe)  # not a terminal: kept
        assert pipe.read(2) == b"2\n"
    os.close(write)


def test_a_number_thousands_of_digits_long_is_refused_not_a_traceback(pack):
    """Review: `int()` refuses more than 4,300 digits; an answer or a command's number that long raised
    ValueError through the terminal."""
    from spawnpit.engine.human import HumanPolicy
    from tests.engine.test_human import answers

    game = bare_game(pack)
    becky, sally = put(game, "becky", "town_center.b2"), put(game, "sally", "town_center.b2")
    huge = "9" * 5000
    con = Console(file=StringIO(), width=80, height=24, color_system=None)
    typed = [huge, f"?{huge}", f"c {huge}", f"b {huge}", f"l {huge}", "2"]
    human = HumanPolicy(console=con, input=answers(typed, then=None))
    assert human.choose(game, "heroes", "choose hero to heal", [becky, sally]) == 1
    assert con.file.getvalue().count("is not one of the choices") == 5
