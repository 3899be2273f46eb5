"""A card's hooks and its copies: a hook that names `self` runs once for each copy of the card on the
table (in play or held), `self` that copy, in table order, a copy a run before took off the table
skipped; an `instead of` one replaces the event once, for the first copy it applies to; a hook that does
not name `self` is a rule the card brings and runs once while any copy is on the table. In a card's play
window every other card's `card_played` hook is asked, one without a condition too."""

from __future__ import annotations

import pytest

from spawnpit.compiler import compile_paths
from spawnpit.engine import ScriptedPolicy, new_game
from spawnpit.engine.state import Ref

SYSTEM = """
system copies "Copies" {
  source "test"
  dice D6
  counter tally = 0
  counter rule_runs = 0
  counter blocked = 0
  counter pairs = 0
  counter watched = 0
  counter replaced_by = 0
  side heroes "Heroes" { players 1 }
  side zombies "Zombies" { players 1 }
  kind hero "Hero" { side heroes; stats health }
  stat health "Health" { type int; default 1 }
  stat copy_no "Copy" { type int; default 0 }
  keywords remains_in_play
  card_types event
  deck zombie_deck "Zombie Deck" { side zombies; hand 9 }
  event ping "Ping"
  event guarded "Guarded"
  event card_played "A card is played" { params card, side }
  event card_cancelled "A card is cancelled" { params card }
  phase zombie_turn "Zombie Turn" {
    side zombies
    step act "Act" { text "nothing" }
  }
}
board room "Room" {
  approx "test"
  grid 2, 1
}
hero "Ann" { health 2; source "t" }

card "Totem" {
  deck zombie_deck; type event; count 3; keywords remains_in_play; source "t"; text "Counts pings."
  on ping when self.played { tally += 1 }
}
card "Charm" {
  deck zombie_deck; type event; count 2; source "t"; text "A rule while any copy is out."
  on ping { rule_runs += 1 }
}
card "Shield" {
  deck zombie_deck; type event; count 2; keywords remains_in_play; source "t"; text "Stops a guarded event."
  instead of guarded when self.played { blocked += 1; replaced_by = self.copy_no }
}
card "Pair" {
  deck zombie_deck; type event; count 2; source "t"; text "The first copy throws the other away."
  on ping when self is pair {
    for each card c where c is pair and c != self and not c.played { discard c }
    pairs += 1
  }
}
card "Watcher" {
  deck zombie_deck; type event; source "t"; text "Sees every card played."
  on card_played { watched += 1 }
}
"""

SCENARIO = """
import "sys.pit"
using copies
scenario "Trial" {
  board room
  rounds 1
  heroes 1
}
"""


def start(write_pack, system: str = SYSTEM):
    root = write_pack({"sys.pit": system, "main.pit": SCENARIO}, with_system=False)
    result = compile_paths([root])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    made = new_game(result.pack, "trial", seed=1,
                    policies={"heroes": ScriptedPolicy(()), "zombies": ScriptedPolicy(())})
    made.state["at"] = ["test"]
    return made


@pytest.fixture
def game(write_pack):
    return start(write_pack)


def copies(game, proto: str) -> list[str]:
    return [c for c, r in game.state["cards"].items() if r["proto"] == proto]


def place(game, cid: str, where: str) -> None:
    record = game.state["cards"][cid]
    if record["where"] == "deck":
        game.state["decks"][record["deck"]]["draw"].remove(cid)
    record["where"] = where
    if where == "play":
        record["status"] = "in_play"


def test_a_hook_naming_self_runs_once_per_copy_and_a_held_copy_is_not_played(game):
    one, two, three = copies(game, "totem")
    place(game, one, "play")
    place(game, two, "side:zombies")
    place(game, three, "play")
    game.emit("ping")
    assert game.state["counters"]["tally"] == 2  # the two in play, not the one held


def test_a_hook_not_naming_self_runs_once_whatever_the_copies(game):
    one, two = copies(game, "charm")
    game.emit("ping")
    assert game.state["counters"]["rule_runs"] == 0  # no copy on the table
    place(game, one, "side:zombies")
    place(game, two, "side:zombies")
    game.emit("ping")
    assert game.state["counters"]["rule_runs"] == 1


def test_an_instead_of_hook_replaces_the_event_once_for_the_first_copy_it_applies_to(game):
    one, two = copies(game, "shield")
    place(game, one, "side:zombies")  # held: `self.played` is false, so the copy in play answers
    place(game, two, "play")
    game.state["cards"][two]["stats"] = {"copy_no": 2}
    game.emit("guarded")
    assert game.state["counters"]["blocked"] == 1
    assert game.state["counters"]["replaced_by"] == 2
    place(game, one, "play")
    game.state["cards"][one]["stats"] = {"copy_no": 1}
    game.emit("guarded")
    assert game.state["counters"]["blocked"] == 2  # two copies in play: still one replacement
    assert game.state["counters"]["replaced_by"] == 1  # the first in table order


def test_a_copy_a_run_before_took_off_the_table_is_skipped(game):
    one, two = copies(game, "pair")
    place(game, one, "side:zombies")
    place(game, two, "side:zombies")
    game.emit("ping")
    assert game.state["counters"]["pairs"] == 1
    assert game.state["cards"][two]["where"] == "discard"


def test_a_card_played_hook_without_a_condition_runs_in_another_cards_play_window(game):
    place(game, copies(game, "watcher")[0], "side:zombies")
    totem = copies(game, "totem")[0]
    place(game, totem, "side:zombies")
    game.play(Ref("card", totem), None, None, game._plain_ctx())
    assert game.state["cards"][totem]["where"] == "play"
    assert game.state["counters"]["watched"] == 1


VETO = """
card "Veto" {
  deck zombie_deck; type event; count 2; source "t"; text "Each copy held cancels any other card played."
  on card_played when card != self and not (card is veto) { vetoes += 1; cancel card }
}
"""


def test_a_copy_does_not_run_for_a_card_an_earlier_copy_cancelled(write_pack):
    game = start(write_pack, SYSTEM.replace("counter watched = 0", "counter watched = 0\n  counter vetoes = 0") + VETO)
    for veto in copies(game, "veto"):
        place(game, veto, "side:zombies")
    totem = copies(game, "totem")[0]
    place(game, totem, "side:zombies")
    game.play(Ref("card", totem), None, None, game._plain_ctx())
    assert game.state["counters"]["vetoes"] == 1  # the second Veto did not cancel it again
    assert game.state["cards"][totem]["where"] == "discard"
