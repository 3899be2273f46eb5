"""Session 23: what two play-tests at the terminal (one as the Heroes, one as the Zombies) found in the
log and the views: a step refused at a door logged as a move there and back, one-space moves the first
lines a long screen dropped, bookkeeping counters and markers ("Fire ok: 0", "Used This Turn", "fights
taken 1") shown to the players, and healing reported larger than the wounds it healed."""

from __future__ import annotations

from spawnpit.engine import movement, new_game, play
from spawnpit.engine.human import (_hidden, _marker_title, _step, ask_text, counter_title, describe_entry, explain_option,
                                   log_view, space_name)
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import bare_game, put
from tests.engine.test_lnoe_session6 import doorways, lock


def test_a_step_refused_at_a_locked_door_is_logged_and_shown_as_turned_back(pack):
    game = bare_game(pack)
    (inside, outside), = doorways(game, 1)
    lock(game, inside, outside)
    sheriff = put(game, "sheriff_anderson", outside)
    movement.walk(game, sheriff, inside, 3, game._plain_ctx())
    moves = [e for e in game.entries if e["type"] == "move" and e["unit"] == sheriff.id]
    assert [(m["from"], m["to"], m.get("back", False)) for m in moves] == [(outside, inside, False), (inside, outside, True)]
    assert game.state["units"][sheriff.id]["space"] == outside
    shown = log_view(game, moves, lines=50).plain
    assert shown.count("→") == 1 and shown.rstrip().endswith("(turned back to " + space_name(game, outside) + ")")
    assert describe_entry(game, moves[1]) == f"Sheriff Anderson is turned back from {space_name(game, inside)}"
    assert _step(game, moves[1]).startswith(space_name(game, inside) + " turned back to ")


def test_a_one_space_move_outlasts_markers_on_a_crowded_screen(pack):
    """Bookkeeping lines go first when the screen is short; a Hero's one-space move is not bookkeeping."""
    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    game.move_unit(sheriff, Ref("space", "town_center.a1"), game._plain_ctx())
    entries = [e for e in game.entries if e["type"] == "move"]
    at = {"round": entries[0]["round"], "at": entries[0]["at"], "rule": "Test"}
    entries += [{**at, "type": "discard", "card": "c1"} for _ in range(6)]
    shown = log_view(game, entries, lines=3).plain
    assert "Sheriff Anderson moves Town Center b2 → a1" in shown


def test_healing_reports_only_the_wounds_it_healed(pack):
    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    game.wound(sheriff, 1, game._plain_ctx())
    game.wound(sheriff, -2, game._plain_ctx())
    game.wound(sheriff, -1, game._plain_ctx())
    game.wound(sheriff, 0, game._plain_ctx())
    changes = [(e["type"], e["amount"], e["wounds"]) for e in game.entries if e["type"] in ("heal", "wound")]
    assert changes == [("wound", 1, 1), ("heal", 1, 0), ("heal", 0, 0), ("wound", 0, 0)]


def test_bookkeeping_the_content_calls_hidden_is_logged_but_never_shown(pack):
    """LNOE's `hidden` names (fire_ok, move_lost, the Used This Turn marker, the fights_taken stat...)
    are in the game log, and not in what the terminal shows of it."""
    game = new_game(pack, "lnoe:die_zombies_die", seed=4)
    play(game)
    hidden = _hidden(game)
    assert {"fire_ok", "move_lost", "used", "ready", "fights_taken"} <= hidden
    logged = {e.get("name") or e.get("marker") for e in game.entries if e["type"] in ("counter", "mark", "unmark")}
    assert {"used", "fight_used", "fight_round", "fight_window"} <= logged  # (the game did change them)
    shown = log_view(game, game.entries, lines=100_000).plain
    titles = [counter_title(n) for n in ("fight_round", "fight_window", "zombie_fight_cards")]
    titles += [_marker_title(game, n) for n in ("used", "fight_used")]
    assert titles[-2:] == ["Used This Turn", "Used in This Fight"]
    for words in titles + ["AI Avoid"]:
        assert words not in shown
    assert "hero dice:" in shown and "Zombie Movement" in shown  # the log itself is still there
    hero = next(uid for uid, r in game.state["units"].items() if r["side"] == "heroes")
    game.state["units"][hero]["stats"]["fights_taken"] = 1
    assert "fights taken" not in explain_option(game, Ref("unit", hero))


def test_the_zombie_players_discard_and_play_questions_say_which_they_are(pack):
    """The play-test discarded Risen From the Grave meaning to play it: both questions read "Zombie Cards:
    choose a card (or pass)". A choice whose body first discards (or plays) the thing chosen says so."""
    from tests.engine.test_lnoe_faq import answer, to_hand

    game = bare_game(pack)
    put(game, "sheriff_anderson", "town_center.b2")
    for card in ("shamble", "locked_door"):
        to_hand(game, card, "zombies")
    script = answer(game, "zombies", None, None)
    game.emit("zombie_turn.draw_cards")
    game.state["counters"]["zombie_cards_passed"] = 0
    game.emit("zombie_turn.spawn_roll.start")
    labels = [label for label, _ in script.asked]
    assert labels[0] == "choose card to discard" and labels[-1] == "choose card to play"
    rule = {"title": "Zombie Cards"}
    assert ask_text(game, labels[0], rule, [Ref("card", "c1"), None]) == "Zombie Cards: choose a card to discard (or pass)"
    assert ask_text(game, labels[-1], rule, [Ref("card", "c1"), None]) == "Zombie Cards: choose a card to play (or pass)"


def test_a_game_ended_at_sundown_is_over_after_the_last_round_and_wounds_count_in_words(pack):
    from spawnpit.engine.human import describe_entry, ending

    game = bare_game(pack)
    rounds = game.model.scenario["props"]["rounds"]
    game.state["result"] = {"winner": "zombies", "round": rounds + 1, "cause": "zombies win at sundown"}
    assert ending(game).plain.startswith(f"GAME OVER after round {rounds}: Zombies won")
    game.state["result"]["round"] = rounds
    assert ending(game).plain.startswith(f"GAME OVER in round {rounds}: ")
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    game.wound(sheriff, 2, game._plain_ctx())
    game.wound(sheriff, -1, game._plain_ctx())
    game.wound(sheriff, -2, game._plain_ctx())
    said = [describe_entry(game, e) for e in game.entries if e["type"] in ("wound", "heal")]
    assert said == ["Sheriff Anderson takes 2 wounds (2 of 3)", "Sheriff Anderson healed by 1 (1/3 wounds)",
                    "Sheriff Anderson healed by 1 (0/3 wounds)"]


def test_the_zombie_player_sees_what_each_hero_carries_but_not_the_heroes_hand(pack):
    """Items are public (base rulebook, Items): the Zombie play-test could not see who carried the
    Gasoline. The Zombies' `c` view lists the Heroes with their Items; their hand stays a count."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine.human import side_view
    from tests.engine.test_lnoe_faq import give, to_hand

    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    give(game, "gasoline", sheriff)
    to_hand(game, "faith", "heroes")
    to_hand(game, "shamble", "zombies")
    console = Console(file=StringIO(), width=100)
    console.print(side_view(game, "zombies"))
    shown = console.file.getvalue()
    assert "Sheriff Anderson" in shown and "carries Gasoline" in shown
    assert "Hand: Shamble" in shown and "Heroes hold 1 card" in shown and "Faith" not in shown


def test_placing_more_zombies_than_the_pool_holds_says_why_fewer_came(pack):
    game = bare_game(pack)
    pits = sorted(game.board.spawn_points)
    for _ in range(13):
        put(game, "zombie", pits[0])
    game.emit("new_zombies", {"number": 3, "places": [Ref("space", p) for p in pits]})
    assert len(game.table.units("zombie")) == 14
    assert any(e["type"] == "note" and "pool runs short" in e["text"] for e in game.entries)
    game = bare_game(pack)
    game.emit("new_zombies", {"number": 3, "places": [Ref("space", p) for p in pits]})
    assert not any(e["type"] == "note" and "pool runs short" in e["text"] for e in game.entries)


def test_a_marker_a_card_puts_on_a_hero_outlasts_other_bookkeeping_on_a_crowded_screen(pack):
    """Haunted By the Past's "marked Hindered" was pushed off the screen by discards: a card's mark is
    its effect, kept like a roll; a system rule's own marks still go first."""
    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    at = {"round": 2, "at": "zombie_turn.spawn_roll"}
    entries = [{**at, "type": "mark", "what": sheriff.id, "marker": "hindered", "rule": "Haunted By the Past"},
               {**at, "type": "mark", "what": sheriff.id, "marker": "hindered", "rule": "Zombie Cards"}]
    entries += [{**at, "type": "discard", "card": "c1", "rule": "Zombie Cards"} for _ in range(6)]
    shown = log_view(game, entries, lines=3).plain
    assert shown.count("Sheriff Anderson marked Hindered") == 1
    discards = [{**at, "type": "discard", "card": "c1", "rule": "Twisted Ankle"}] + entries[:1]
    discards += [{**at, "type": "discard", "card": "c2", "rule": "Zombie Cards"} for _ in range(3)]
    shown = log_view(game, discards, lines=3).plain  # a card discarding itself is still bookkeeping
    assert "Sheriff Anderson marked Hindered" in shown and shown.count("discarded") == 1


def test_m_draws_the_town_map_again_as_the_screen_does(pack):
    """The play-test had no way back to the town map once a screen left it out ("left out to fit: b
    board", and `b` prints every board apart, 65 lines): `m` draws the whole town, as the screen does."""
    import re
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine import AIPolicy
    from spawnpit.engine.human import HELP, HumanPolicy
    from tests.engine.test_human import answers

    con = Console(file=StringIO(), width=80, height=24, color_system=None, force_terminal=False)
    human = HumanPolicy(console=con, input=answers(["m", "1"]))
    game = new_game(pack, "lnoe:die_zombies_die", seed=0, policies={"heroes": human, "zombies": AIPolicy()})
    play(game)
    out = con.file.getvalue()
    first = out.index("\n> m\n")
    after = out[first:first + 4000]
    assert re.search(r"╭─+ Small Town \(b: each board with its cell names\) ─+╮", after)
    assert re.search(r"│ *Town Center *│", after)  # the whole town in one picture, not board by board
    assert "(north" not in after and "(south" not in after
    assert "\n  m   the map again" in HELP


def test_a_fights_result_says_which_hero_fought(pack):
    """The Zombie play-test: "Fight lines never say which Hero is fighting". A note of a hook whose event
    has no `unit` is about the first unit the event names: the fight's `fighter`."""
    from spawnpit.engine.human import describe_entry
    from tests.engine.lnoe_table import dice

    game = bare_game(pack)
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    dice(game, [5, 2], [3])
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    said = [describe_entry(game, e) for e in game.entries if e["type"] == "note"]
    assert said == ["The Hero wins: the Zombie is fended off (Sheriff Anderson)"]
    shown = log_view(game, game.entries, lines=50).plain  # and whose fight the dice were rolled in
    assert "hero dice: 5, 2 (2D6 for Fight, Sheriff Anderson)" in shown
    rolls = [describe_entry(game, e) for e in game.entries if e["type"] == "roll"]
    assert rolls[-1] == "rolled 1D6: 3 for Fight, Zombie 1"  # the Zombie's die (session 29: it read as his)


def test_zombies_told_apart_only_by_hidden_bookkeeping_are_one_option(pack):
    """Shamble listed "Zombie ×2 in Gym f4, any one" and "Zombie 142 in Gym f4", told apart by the
    fights_taken stat a player never sees."""
    from spawnpit.engine.human import alike_options

    game = bare_game(pack)
    zombies = [put(game, "zombie", "town_center.b2") for _ in range(3)]
    game.state["units"][zombies[2].id]["stats"]["fights_taken"] = 1
    assert alike_options(game, zombies) == [[0, 1, 2]]
    game.state["units"][zombies[2].id]["wounds"] = 1  # a wound is seen
    assert alike_options(game, zombies) == [[0, 1], [2]]
    game.state["units"][zombies[1].id]["markers"]["card_moved"] = 1  # hidden, but the rules treat it apart
    assert alike_options(game, zombies) == [[0], [1], [2]]


def test_p_bang_passes_on_a_question_whoever_it_is_asked_about(pack, monkeypatch):
    """Courage, Blitz! and Blocked Windows were asked again for each Hero in turn after a `p!`."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine import human as H

    game = new_game(pack, "lnoe:die_zombies_die", seed=3)
    game.state["round"] = 2
    typed = iter(["p!", "2"])
    con = Console(file=StringIO(), width=80, height=24, color_system=None)
    policy = H.HumanPolicy(console=con, input=lambda: next(typed))
    options = ["Play Courage", None]
    for hero, expected in (("Jake", 1), ("Billy", 1)):
        monkeypatch.setattr(H, "_asking_rule", lambda side, hero=hero: {"title": "Courage", "asked_for": hero})
        assert policy.choose(game, "heroes", "choose an option", options) == expected
    monkeypatch.setattr(H, "_asking_rule", lambda side: {"title": "Blitz!", "asked_for": "Johnny"})
    assert policy.choose(game, "heroes", "choose an option", options) == 1  # another rule: asked ("2")
    out = con.file.getvalue()
    assert "Courage (Billy): choose an option (or pass): pass (p! this turn)" in out
    assert next(typed, None) is None


def test_a_marker_on_an_empty_space_shows_on_the_compact_map_with_its_legend(pack):
    """Two play-tests: a New Spawning Pit or a Locked Door was only in the markers line, never on the map."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine.human import board_view, marker_shorts

    game = bare_game(pack)
    space = next(s for s in sorted(game.board.spaces) if not game.board.building_of(s) and s not in game.board.spawn_points)
    game.state["spaces"].setdefault(space, {}).setdefault("markers", {})["new_spawning_pit"] = 1
    game.state["spaces"].setdefault("town_center.a1", {}).setdefault("markers", {})["fights_taken"] = 0
    letters = marker_shorts(game)["new_spawning_pit"]
    assert letters == "NS" and len(set(marker_shorts(game).values())) == len(marker_shorts(game))
    console = Console(file=StringIO(), width=200, color_system=None)
    console.print(board_view(game, compact=True, whole=True, width=200))
    out = console.file.getvalue()
    assert f"{letters} New Spawning Pit" in out and out.count(letters) == 2  # on the map once, in the legend once


def test_a_move_to_the_space_the_hero_stands_in_is_said_in_the_log(pack):
    """Round 2: "Sally: Move" and nothing after it, when she chose to stay where she was."""
    game = bare_game(pack)
    sally = put(game, "sally", "town_center.b2")
    movement.walk(game, sally, "town_center.b2", 3, game._plain_ctx())
    stays = [e for e in game.entries if e["type"] == "move"]
    assert [describe_entry(game, e) for e in stays] == ["Sally stays in Town Center b2"]


def test_hidden_counts_from_the_system_the_scenario_and_only_the_special_rules_in_effect(pack):
    import copy

    pack = copy.deepcopy(pack)
    rules = {o["id"]: o for o in pack["objects"] if o["kind"] == "special_rule" and o["system"] == "lnoe"}
    game = new_game(pack, "lnoe:defend_the_manor_house", seed=1)
    in_effect = {r["rule"] for r in game.model.scenario["rules"]}
    used = next(r for r in sorted(in_effect) if r in rules)
    unused = next(r for r in sorted(rules) if r not in in_effect)
    rules[used]["props"]["hidden"] = ["barricade"]
    rules[unused]["props"]["hidden"] = ["gas"]
    game = new_game(pack, "lnoe:defend_the_manor_house", seed=1)
    hidden = _hidden(game)
    assert "barricade" in hidden and "gas" not in hidden
    assert {"fire_ok", "used"} <= hidden  # the system's
    assert "pits_pending" not in hidden  # Burn 'em Out's own, not this scenario's
