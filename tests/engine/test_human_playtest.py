"""From a play-test at 80×24 (session 21): what a player asks with `?N` about a space, a card's text
that starts with its timing said once, and why the game ended said as the goals line says it."""

from __future__ import annotations

import pytest

from spawnpit.compiler import compile_paths
from spawnpit.engine import new_game
from spawnpit.engine.flow import setup
from spawnpit.engine.human import cards_view, cause_text, explain_option
from spawnpit.engine.state import Ref
from spawnpit.resources import builtin_paths


@pytest.fixture(scope="module")
def lnoe() -> dict:
    return compile_paths(builtin_paths()).pack


def test_n_on_a_space_says_its_building_who_is_there_and_its_markers(lnoe):
    """It said "(nothing more to say)" for every space of a move."""
    game = new_game(lnoe, "die-zombies-die", seed=3)
    setup(game)
    board = game.board
    shop = next(s for s in board.spaces if board.info[s].building and board.buildings[board.info[s].building].pick_up)
    building = board.buildings[board.info[shop].building]
    assert explain_option(game, Ref("space", shop)).splitlines()[0] == f"in {building.title} (Pick Up: {building.pick_up})"
    pit = sorted(board.spawn_points)[0]
    game.add_unit(game.model.protos("zombie")[0], pit)
    said = explain_option(game, Ref("space", pit))
    home = board.info[pit].building
    assert said.splitlines()[0] == (f"in {board.buildings[home].title}" if home else "outside, not in a building")
    assert "Zombie" in said.splitlines()[1] and said.splitlines()[-1].startswith("a spawn point")
    game.mark(Ref("building", building.id), "lights_out", 1, game._plain_ctx())
    assert explain_option(game, Ref("space", shop)).splitlines()[-1] == "Lights Out"
    empty = next(s for s in board.spaces if not board.info[s].building and s not in board.spawn_points
                 and not any(r["space"] == s for r in game.state["units"].values()))
    assert explain_option(game, Ref("space", empty)) == "outside, not in a building\nnobody here"


def test_a_card_text_that_starts_with_its_timing_says_it_once(lnoe):
    game = new_game(lnoe, "die-zombies-die", seed=3)
    cid = next(c for c, r in game.state["cards"].items() if r["proto"] == "meat_cleaver")
    game.state["cards"][cid]["where"] = "side:heroes"
    line = next(x for x in cards_view(game, "heroes").plain.splitlines() if x.startswith("Meat Cleaver"))
    assert line.count("Combat Bonus") == 1, line


def test_why_a_game_ended_reads_as_the_goals_line(lnoe):
    game = new_game(lnoe, "die-zombies-die", seed=3)
    goal = next(o for o in game.objectives if o["side"] == "zombies" and "heroes_killed" in o["text"])
    game.state["counters"]["heroes_killed"] = 2
    said = cause_text(game, {"winner": "zombies", "side": "zombies", "cause": goal["text"]})
    assert said == "Zombies win when heroes killed ≥ 2 (now 2)"
    assert cause_text(game, {"winner": None, "side": None, "cause": "round limit reached"}) == "round limit reached"


def test_a_unit_put_where_it_stands_stays_rather_than_moves(lnoe):
    """Starting Heroes puts each Hero in the Start: space the player picks; the log said "Sally moves
    High School a1 → a1" for the one left where she was."""
    from spawnpit.engine.human import describe_entry, space_name

    game = new_game(lnoe, "die-zombies-die", seed=3)
    setup(game)
    hero = next(u for u, r in game.state["units"].items() if r["kind"] == "hero")
    at = game.state["units"][hero]["space"]
    line = describe_entry(game, {"type": "move", "unit": hero, "from": at, "to": at})
    assert line.endswith(f" stays in {space_name(game, at)}") and "→" not in line


def test_between_two_heroes_turns_the_moment_is_the_hero_turn(lnoe):
    """Asked who acts next, the status line read "Hero Turn › Fight Zombies": the last Hero's final step."""
    from spawnpit.engine import AIPolicy, play
    from spawnpit.engine.human import moment_title

    seen = []

    class Watch(AIPolicy):
        def choose(self, game, side, label, options):
            if label.endswith(": who acts"):
                seen.append(moment_title(game, game.state["at"]))
            return super().choose(game, side, label, options)

    game = new_game(lnoe, "die-zombies-die", seed=3, policies={"heroes": Watch(), "zombies": AIPolicy()})
    play(game)
    assert len(seen) > 5 and set(seen) == {"Hero Turn"}


def test_a_unit_taken_off_the_board_says_where_from(lnoe):
    """A Sacrifice (Closing In) takes Zombies off: the log said only "Zombie 127 taken off the board"."""
    from spawnpit.engine.human import describe_entry, space_name

    game = new_game(lnoe, "die-zombies-die", seed=3)
    setup(game)
    zombie = next(Ref("unit", u) for u, r in game.state["units"].items() if r["kind"] == "zombie" and r["space"])
    at = game.state["units"][zombie.id]["space"]
    game.take_off(zombie, game._plain_ctx())
    entry = game.entries[-1]
    assert entry["type"] == "remove" and entry["space"] == at
    assert describe_entry(game, entry).endswith(f" taken off the board in {space_name(game, at)}")


def test_a_count_a_card_changes_is_in_the_log(lnoe):
    """Twisted Ankle lowers the movement roll: the play-test never saw by how much. A card's change to a
    counter is its effect, and shown; the system's own bookkeeping of the same counter is not."""
    from spawnpit.engine.human import log_view

    game = new_game(lnoe, "die-zombies-die", seed=3)
    entry = {"type": "counter", "name": "move_roll", "value": 1, "round": 6, "at": "hero_turn.move"}
    assert "Move roll: 1" in log_view(game, [{**entry, "rule": "Twisted Ankle"}]).plain
    assert "Move roll" not in log_view(game, [{**entry, "rule": "Hero Movement"}]).plain


def test_a_rules_note_about_a_hero_names_the_hero(lnoe):
    """'Hindered: the Hero loses this Move Action' did not say which Hero lost it."""
    from spawnpit.engine.human import describe_entry
    from spawnpit.engine.interp import EndAction

    game = new_game(lnoe, "die-zombies-die", seed=3)
    setup(game)
    hero = next(Ref("unit", u) for u, r in game.state["units"].items() if r["kind"] == "hero")
    game.mark(hero, "hindered", 1, game._plain_ctx())
    try:
        game.emit("hero_turn.move", {"unit": hero})
    except EndAction:
        pass
    note = next(e for e in reversed(game.entries) if e["type"] == "note")
    assert note["unit"] == hero.id
    name = game.model.objects[("unit", game.state["units"][hero.id]["proto"])]["title"]
    assert describe_entry(game, note) == f"Hindered: the Hero loses this Move Action ({name})"


def test_p_bang_passes_on_the_same_question_until_the_round_ends(lnoe):
    """Strength of Spirit was offered at almost every Zombie card, some 20 times a game. `p!` passes and
    passes that same question by itself for the rest of the round; a question with no pass refuses it."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine.human import HumanPolicy

    game = new_game(lnoe, "die-zombies-die", seed=3)
    game.state["round"] = 2
    typed = iter(["p!", "2", "p!", "p!", "1"])
    con = Console(file=StringIO(), width=80, height=24, color_system=None)
    human = HumanPolicy(console=con, input=lambda: next(typed))
    options = ["Strength of Spirit: take a Wound and try to cancel", None]
    assert human.choose(game, "heroes", "choose an option", options) == 1  # p!: passed
    assert human.choose(game, "heroes", "choose an option", options) == 1  # not asked: nothing read
    assert human.choose(game, "heroes", "choose another option", options) == 1  # another question: asked ("2")
    game.state["round"] = 3
    assert human.choose(game, "heroes", "choose an option", options) == 1  # a new round: asked again (p!)
    assert human.choose(game, "heroes", "choose a card", ["A", "B"]) == 0  # no pass: p! refused, then "1"
    out = con.file.getvalue()
    assert out.count("(p! this turn)") == 1
    assert "p! passes only where passing is one of the choices" in out
    assert next(typed, None) is None


def test_a_card_and_a_special_rule_of_one_name_each_say_their_own_text(lnoe):
    """The card Lights Out and the special rule Lights Out share an id: the card's question showed the
    special rule's setup text ("Before the Heroes are placed, …")."""
    from spawnpit.engine.human import rule_text

    game = new_game(lnoe, "die-zombies-die", seed=3)
    rules = {h.rule["source"]: h.rule for hooks in game.model.hooks.values() for h in hooks
             if h.rule["rule"] == "lights_out"}
    card = next(o for o in lnoe["objects"] if o["kind"] == "card" and o["id"] == "lights_out")
    said = rule_text(game, rules[card["props"]["source"]])
    assert said == card["props"]["text"]


def test_a_cards_timing_is_left_out_when_its_text_names_the_moment():
    from spawnpit.engine.human import timed_text

    assert timed_text({"timing": "Fight: when the Zombie wins", "text": "Fight: if the Zombie wins, two Wounds."}) \
        == "Fight: if the Zombie wins, two Wounds."
    assert timed_text({"timing": "Combat Bonus", "text": "Combat Bonus: a 6 slays."}) == "Combat Bonus: a 6 slays."
    assert timed_text({"timing": "Start of the Zombie Turn", "text": "The power fails."}) \
        == "Start of the Zombie Turn: The power fails."
    assert timed_text({"text": "Only text."}) == "Only text." and timed_text({"timing": "Any time"}) == "Any time"


def test_a_card_offered_against_a_hero_names_the_hero(lnoe):
    """'Twisted Ankle: choose a card' did not say whose movement roll it would lower: the Zombie player
    wasted it on a Hero who then searched."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine.human import HumanPolicy
    from tests.engine.lnoe_table import put
    from tests.engine.test_lnoe_faq import bare_game, to_hand

    game = bare_game(lnoe)
    jenny = put(game, "jenny", "town_center.b2")
    to_hand(game, "twisted_ankle", "zombies")
    con = Console(file=StringIO(), width=80, height=24, color_system=None)
    game.policies["zombies"] = HumanPolicy(console=con, input=lambda: "2")  # pass
    game.state["counters"]["move_roll"] = 4
    game.emit("move_roll", {"mover": jenny})
    assert "Twisted Ankle (Jenny): choose a card" in con.file.getvalue()
