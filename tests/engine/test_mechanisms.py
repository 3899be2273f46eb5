"""Generic engine mechanisms that rules build on: phases played unit by unit (`activation unit`),
walking by a kind's movement rules (`move … by n`, `reach`, `steps`), events raised at once with
parameters (`emit … with`), dice pools (`roll N of D6 into POOL`, `highest`, `doubles`), spawning over
several spaces, `end` at the start of a step, and the round after the last (`after_last_round`)."""

from __future__ import annotations

from spawnpit.compiler import compile_paths
from spawnpit.engine import ScriptedPolicy, new_game, play
from spawnpit.engine.state import Ref

SYSTEM = """
system mech "Mechanisms" {
  source "test"
  dice D6
  after_last_round first_step
  counter pool = 0
  counter seen = 0
  side heroes "Heroes" { players 1 }
  side zombies "Zombies" { players 1 }
  kind hero "Hero" { side heroes; stats health, fight_dice; stop zombie }
  kind zombie "Zombie" { side zombies; stats health; through open, door, window, wall, corner; pool 5 }
  stat health "Health" { type int; default 1 }
  stat fight_dice "Fight Dice" { type int; default 2 }
  track clock "Clock" { range 0-9; start 0 }
  event ping "Ping" { params who, what }
  unit_event entered "Entered" { params space, "from" }
  unit_event killed "Killed" { params "by" }
  phase zombie_turn "Zombie Turn" {
    side zombies
    step tick "Tick" { text "t" }
  }
  phase hero_turn "Hero Turn" {
    side heroes
    activation unit
    step first "First" { text "a" }
    step second "Second" { text "b" }
  }
}
board lane "Lane" {
  approx "test"
  grid 4, 1
  wall b1, c1
  spawn a1, d1
}
hero "Ann" { health 2; source "t" }
hero "Bob" { health 2; source "t" }
zombie "Zombie" { health 1; source "t" }
"""

SCENARIO = """
import "sys.pit"
using mech
scenario "Trial" {{
  board lane
  rounds 2
  heroes 2
  counter marks = 0
  {extra}
}}
"""


def pack_for(write_pack, extra: str) -> dict:
    root = write_pack({"sys.pit": SYSTEM, "main.pit": SCENARIO.format(extra=extra)}, with_system=False)
    result = compile_paths([root])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    return result.pack


def game_for(write_pack, extra: str = "", heroes=(), zombies=()):
    return new_game(pack_for(write_pack, extra), "trial", seed=3,
                    policies={"heroes": ScriptedPolicy(heroes), "zombies": ScriptedPolicy(zombies)})


def test_a_phase_with_activation_unit_plays_all_its_steps_for_one_unit_before_the_next(write_pack):
    extra = 'on hero_turn.first { log "first" }\non hero_turn.second { log "second" }'
    game = game_for(write_pack, extra)
    play(game)
    notes = [(e["round"], e["text"]) for e in game.entries if e["type"] == "note"]
    assert notes[:4] == [(1, "first"), (1, "second"), (1, "first"), (1, "second")]
    picks = [e for e in game.entries if e["type"] == "choice" and e["label"] == "hero_turn: who acts"]
    assert [p["options"] for p in picks[:2]] == [2, 1]


def test_step_events_of_a_unit_activation_carry_the_unit_and_end_at_start_skips_the_step(write_pack):
    extra = ('on hero_turn.first.start when unit.name == "x" { log "never" }\n'
             'on hero_turn.first.start { end }\n'
             'on hero_turn.first { log "skipped" }\n'
             'on hero_turn.second { marks += 1 }')
    game = game_for(write_pack, extra)
    play(game)
    assert not [e for e in game.entries if e["type"] == "note"]
    assert game.state["counters"]["marks"] == 4  # 2 heroes x 2 rounds


def test_the_round_after_the_last_plays_its_first_step_so_a_rule_can_end_the_game(write_pack):
    extra = 'on zombie_turn.tick { advance clock by 1\n if round > rounds { win zombies } }'
    game = game_for(write_pack, extra)
    result = play(game)
    assert result["winner"] == "zombies" and result["round"] == 3
    assert result["cause"] == "zombies win: Trial"  # a `win` names the rule that said it (here the scenario)
    assert game.state["tracks"]["clock"] == 3


def test_emit_runs_the_hooks_at_once_with_the_declared_parameters(write_pack):
    extra = ('on ping { seen = 7 }\n'
             'on game.start { emit "ping" with [1, 2]\n marks = seen }')
    game = game_for(write_pack, extra)
    play(game)
    assert game.state["counters"]["marks"] == 7



def test_queue_raises_the_event_after_every_hook_of_the_running_one(write_pack):
    # `queue` waits for the rest of the hook (with `emit` the ping would run first and marks end at 5)
    extra = ('on ping { marks = marks * 10 + who }\n'
             'on game.start { queue "ping" with [1, 2]\n marks = 5 }')
    game = game_for(write_pack, extra)
    play(game)
    assert game.state["counters"]["marks"] == 51  # 5 first, then the ping: 5 * 10 + 1


def test_queue_of_an_undeclared_event_is_an_error_at_check(write_pack):
    root = write_pack({"sys.pit": SYSTEM, "main.pit": SCENARIO.format(extra='on game.start { queue "pong" }')},
                      with_system=False)
    result = compile_paths([root])
    assert not result.ok
    assert any("pong" in d.message for d in result.diagnostics)

def test_dice_pools_collect_rolls_and_answer_highest_and_doubles(write_pack):
    extra = ('on game.start { roll 2 of D6 into pool\n roll 1 of D6 into pool\n'
             ' if doubles(pool) { marks = 100 + highest(pool) } else { marks = highest(pool) } }')
    game = game_for(write_pack, extra)
    rolls = iter([[3, 5], [3]])
    game.chance.roll = lambda count, sides: next(rolls)
    play(game)
    assert game.state["counters"]["pool"] == [3, 5, 3]
    assert game.state["counters"]["marks"] == 105


def test_spawn_over_a_list_of_spaces_divides_evenly_and_respects_the_pool(write_pack):
    extra = 'on game.start { spawn 7 of zombie at list(space s where s.spawn) }'
    game = game_for(write_pack, extra)
    play(game)
    spawned = [e for e in game.entries if e["type"] == "spawn"]
    assert sorted(e["count"] for e in spawned) == [2, 3]  # pool 5: 7 capped to 5, split 3/2
    assert {e["space"] for e in spawned} == {"a1", "d1"}


def test_walking_follows_the_kinds_edges_and_stops_in_a_stopping_space(write_pack):
    game = game_for(write_pack)
    hero = game.add_unit(game.model.protos("hero")[0], "a1")
    zombie = game.add_unit(game.model.protos("zombie")[0], "d1")
    from spawnpit.engine import movement

    assert movement.steps(game, hero, "d1") == float("inf")  # the wall b1|c1 stops Heroes
    assert movement.steps(game, zombie, "a1") == 3  # Zombies walk through it
    assert [s.id for s in movement.reach(game, hero, 6)] == ["b1"]
    game.state["units"][hero.id]["space"] = "c1"
    assert [s.id for s in movement.reach(game, hero, 6)] == ["d1"]  # d1 holds a Zombie: entered, not left
    ctx = game._plain_ctx()
    movement.walk(game, zombie, "a1", 2, ctx)
    assert game.state["units"][zombie.id]["space"] == "b1"
    moves = [(e["from"], e["to"]) for e in game.entries if e["type"] == "move"]
    assert moves == [("d1", "c1"), ("c1", "b1")]


def test_an_entered_hook_that_says_end_stops_a_walk(write_pack):
    game = game_for(write_pack, 'on zombie.entered when space == c1 { end }')
    zombie = game.add_unit(game.model.protos("zombie")[0], "d1")
    game.add_unit(game.model.protos("hero")[0], "a1")
    game.state["at"] = ["test"]
    from spawnpit.engine import movement

    movement.walk(game, zombie, "a1", 3, game._plain_ctx())
    assert game.state["units"][zombie.id]["space"] == "c1"
    assert isinstance(zombie, Ref)


# ---- playing cards from hands (tests/fixtures/cards_play) ---------------------------------------------

CARDS_PLAY = __import__("pathlib").Path(__file__).resolve().parent.parent / "fixtures" / "cards_play"


def card_game(heroes=(), zombies=()):
    result = compile_paths([CARDS_PLAY])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    game = new_game(result.pack, "deal", seed=1,
                    policies={"heroes": ScriptedPolicy(heroes), "zombies": ScriptedPolicy(zombies)})
    game.state["at"] = ["test"]
    hero = game.add_unit(game.model.protos("hero")[0], "a1")
    return game, hero


def hand(game, proto: str, side: str) -> str:
    """Move one copy of a card from its deck into a side's hand; its id."""
    cid = next(c for c, r in game.state["cards"].items() if r["proto"] == proto and r["where"] == "deck")
    game.state["decks"][game.state["cards"][cid]["deck"]]["draw"].remove(cid)
    game.state["cards"][cid]["where"] = f"side:{side}"
    return cid


def test_a_played_card_leaves_the_hand_takes_effect_and_goes_to_the_discard_pile():
    game, _ = card_game(zombies=[0], heroes=[1])  # the zombies play Boost; the heroes decline the Veto
    hand(game, "veto", "heroes")
    boost = hand(game, "boost", "zombies")
    game.emit("go")
    assert game.state["counters"]["boost"] == 1
    assert game.state["cards"][boost]["where"] == "discard"
    assert game.state["decks"]["zombie_deck"]["discard"] == [boost]
    played = [e for e in game.entries if e["type"] == "play"]
    assert [(e["card"], e["side"]) for e in played] == [("boost", "zombies")]
    offer = next(e for e in game.entries if e["type"] == "choice" and e["side"] == "heroes")
    assert offer["options"] == 2 and offer["picked"] is None  # "Cancel it" or decline


def test_a_card_that_remains_in_play_stays_on_the_table_with_its_target_until_cancelled():
    game, hero = card_game(zombies=[0, 0], heroes=[1])
    hand(game, "veto", "heroes")
    fright = hand(game, "fright", "zombies")
    game.emit("go")
    record = game.state["cards"][fright]
    assert record["where"] == "play" and record["status"] == "in_play"
    assert game.state["units"][hero.id]["markers"]["scared"] == 1
    assert game.table.attribute(Ref("card", fright), "played") is True
    # Sweep cancels a card already in play: card_cancelled runs (the marker goes), then the discard pile
    sweep = hand(game, "sweep", "heroes")
    game.play(Ref("card", sweep), None, None, game._plain_ctx())
    assert game.state["cards"][fright]["where"] == "discard" and "status" not in game.state["cards"][fright]
    assert game.state["units"][hero.id]["markers"]["scared"] == 0
    assert game.state["counters"]["cleaned"] == 1


def test_the_other_side_may_play_a_cancel_card_and_the_cancelled_card_has_no_effect():
    game, hero = card_game(zombies=[0], heroes=[0])  # the heroes play the Veto on the Fright
    veto = hand(game, "veto", "heroes")
    fright = hand(game, "fright", "zombies")
    game.emit("go")
    assert game.state["cards"][fright]["where"] == "discard"
    assert game.state["cards"][veto]["where"] == "discard"
    assert game.state["units"][hero.id]["markers"].get("scared", 0) == 0  # its effect never ran
    assert game.state["counters"]["cleaned"] == 1  # card_cancelled was raised for it
    kinds = [(e["type"], e.get("card")) for e in game.entries if e["type"] in ("play", "cancel", "discard")]
    assert kinds == [("play", "fright"), ("play", "veto"), ("cancel", "fright"), ("discard", "veto"),
                     ("discard", "fright")]


def test_an_instead_of_card_played_hook_cancels_the_card_and_a_card_is_played_only_from_where_it_is_held():
    game, _ = card_game(zombies=[0], heroes=[1])
    game.state["counters"]["ward"] = 1
    boost = hand(game, "boost", "zombies")
    game.emit("go")
    assert game.state["counters"]["boost"] == 0 and game.state["counters"]["ward"] == 0
    assert game.state["cards"][boost]["where"] == "discard"
    import pytest

    from spawnpit.engine.interp import RuleError

    with pytest.raises(RuleError, match="not held"):
        game.play(Ref("card", boost), None, None, game._plain_ctx())
    other = hand(game, "boost", "zombies")
    with pytest.raises(RuleError, match="held by side:zombies"):
        game.play(Ref("card", other), None, Ref("side", "heroes"), game._plain_ctx())


def test_a_deck_that_keeps_its_discards_is_not_reshuffled_when_empty(write_pack):
    system = SYSTEM.replace('track clock', 'deck pile "Pile" { side heroes; discard keep }\n  deck loop "Loop" { side heroes }\n  track clock')
    cards = ('card "A" { deck pile; source "t"; text "a" }\n'
             'card "B" { deck loop; source "t"; text "b" }\n')
    root = write_pack({"sys.pit": system + cards, "main.pit": SCENARIO.format(extra="")}, with_system=False)
    result = compile_paths([root])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    game = new_game(result.pack, "trial", seed=1, policies={})
    game.state["at"] = ["test"]
    ctx = game._plain_ctx()
    for deck in ("pile", "loop"):
        first = game.draw(deck, 1, Ref("side", "heroes"), ctx)
        game.discard(first[0], ctx)
        again = game.draw(deck, 1, Ref("side", "heroes"), ctx)
        assert (again == first) == (deck == "loop")
    assert [e["deck"] for e in game.entries if e["type"] == "reshuffle"] == ["loop"]


def test_table_queries_within_apart_buildings_cards_and_new_units(write_pack):
    """`within` (ranges, targets, numbers), `apart` (across walls) against `distance` (around them), a
    building's name/roll/pick_up/board and markers, `c is CARD`, `h has c`, `give` out of a discard pile,
    `remove CARD`, `spawn … as`, `enter KIND` (an unused prototype), `u.last_space`."""
    system = (SYSTEM.replace('track clock', 'deck pile "Pile" { side heroes; discard keep }\n'
                             '  stat reach "Reach" { type range; applies cards }\n'
                             '  stat aim "Aim" { type target; die D6; applies cards }\n'
                             '  marker flag "Flag" { applies building }\n  track clock')
              .replace('  wall b1, c1\n', '  wall b1, c1\n  building "Shed" { spaces c1, d1; roll 2-3; pick_up "Key" }\n')
              .replace('hero "Bob" { health 2; source "t" }', 'hero "Bob" { health 2; count 2; source "t" }'))
    cards = 'card "Key" { deck pile; count 2; reach 0-1; aim 3+; source "t"; text "k" }\n'
    extra = """
  counter w = 0
  counter d = 0
  counter b = 0
  counter c = 0
  on ping {
    for each card k where k is key and within(3, k.aim) { w += 1 }
    for each card k where k is key and within(2, k.aim) { w += 10 }
    for each card k where k is key and within(1, k.reach) and not within(2, k.reach) { w += 100 }
    if within(2, [1, 3]) and within(4, 4) and not within(5, [1, 4, 6]) and not within(1, stat(who, health)) { w += 1000 }
    d = apart(a1, d1) * 100 + min(distance(a1, d1), 99)
    for each building s where s.name == "Shed" and within(3, s.roll) and s.pick_up == key and s.board == "lane" {
      mark s with flag
      if s has flag { b = 1 }
    }
    for each card k in pile.discard where k is key { give k to who }
    for each hero h where h has random(card k where k is key and k.owner == h) { c += 1 }
    for each card k where k is key and not (who has k) { remove k }
    spawn zombie at b1 as z
    kill z
    enter hero at a1 as fresh
    if z.last_space == b1 and fresh.name != "x" { c += 10 }
  }
"""
    root = write_pack({"sys.pit": system + cards, "main.pit": SCENARIO.format(extra=extra)}, with_system=False)
    result = compile_paths([root])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    game = new_game(result.pack, "trial", seed=1, policies={})
    game.state["at"] = ["test"]
    ann = game.add_unit(next(u for u in game.model.units if u["id"] == "ann"), "a1")
    keys = sorted(c for c, r in game.state["cards"].items() if r["proto"] == "key")
    pile = game.state["decks"]["pile"]
    pile["draw"].remove(keys[0])
    pile["discard"].append(keys[0])
    game.state["cards"][keys[0]]["where"] = "discard"
    game.emit("ping", {"who": ann})
    counters = game.state["counters"]
    assert counters["w"] == 2 + 0 + 200 + 1000  # both Keys: 3 meets 3+, 2 does not; 1 is in 0-1, 2 is not
    assert counters["d"] == 300 + 99  # three spaces apart across the wall; no way round it for a Hero
    assert counters["b"] == 1 and game.state["buildings"]["shed"]["markers"] == {"flag": 1}
    assert game.state["cards"][keys[0]]["where"] == ann.id and pile["discard"] == []
    assert game.state["cards"][keys[1]]["where"] == "box" and keys[1] not in pile["draw"]
    assert counters["c"] == 11
    entered = [e for e in game.entries if e["type"] == "enter"]
    assert [e["proto"] for e in entered] == ["bob"]  # Ann is in play; Bob has copies left


def test_an_action_is_offered_only_while_its_require_holds(write_pack):
    system = SYSTEM.replace('step first "First" { text "a" }', '''step first "First" {
      text "a"
      action rest "Rest" { text "r"; require unit.health > 1, unit.space }
      action run "Run" { text "g"; require count(zombie) == 0 }
    }''')
    root = write_pack({"sys.pit": system, "main.pit": SCENARIO.format(
        extra='on hero_turn.first.start when unit.health > 1 { set unit.health to unit.health - 1 }')}, with_system=False)
    result = compile_paths([root])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    offered = []

    class Notes:
        def choose(self, game, side, label, options):
            if ": action of " in label:
                offered.append(sorted(o["id"] for o in options if o is not None))
            return 0

    game = new_game(result.pack, "trial", seed=3, policies={"heroes": Notes(), "zombies": Notes()})
    play(game)
    # health 2 → 1 at the first step's start: Rest (health > 1) is never offered; Run only while no Zombie
    assert offered and all(o in (["run"], []) for o in offered)
    assert ["run"] in offered


def test_an_action_require_is_type_checked_with_the_acting_unit(write_pack):
    system = SYSTEM.replace('step first "First" { text "a" }',
                            'step first "First" { text "a"; action rest "Rest" { text "r"; require unit.nosuch } }')
    root = write_pack({"sys.pit": system, "main.pit": SCENARIO.format(extra="")}, with_system=False)
    result = compile_paths([root])
    assert not result.ok and any("nosuch" in d.message for d in result.diagnostics)


def test_a_hook_reads_the_reserved_parameters_by_from_and_to_as_event_attributes(write_pack):
    # `by`, `from` and `to` are words of the language (filters: `on zombie.killed by hero`); a hook body
    # reads them as attributes of the event: `event.by` (none when the event was not given one).
    extra = """counter by_hero = 0
  counter by_nobody = 0
  on zombie.killed { if event.by is hero { by_hero += 1 } else { by_nobody += 1 } }
  on game.start {
    spawn zombie at b1 as z
    kill z by random(hero)
    spawn zombie at d1 as y
    kill y
  }"""
    game = game_for(write_pack, extra)
    play(game)
    counters = game.state["counters"]
    assert (counters["by_hero"], counters["by_nobody"]) == (1, 1)


def test_a_phase_prefer_gives_the_ai_player_its_order_of_units(write_pack):
    """`prefer` on a phase with `activation unit`: the ai policy lets the best-scored unit act first (here
    Bob, every round, whatever the seed); without it the order is drawn, and Ann goes first in some games."""
    from spawnpit.engine import AIPolicy

    def first_movers(system: str) -> set:
        root = write_pack({"sys.pit": system, "main.pit": SCENARIO.format(extra="")}, with_system=False)
        result = compile_paths([root])
        assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
        firsts = set()
        for seed in range(8):
            game = new_game(result.pack, "trial", seed=seed, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
            play(game)
            picks = [e for e in game.entries if e["type"] == "choice" and e["label"] == "hero_turn: who acts"]
            firsts |= {game.state["units"][e["picked"]]["proto"] for e in picks if e["options"] == 2}
        return firsts

    ordered = SYSTEM.replace("    activation unit\n", "    activation unit\n    prefer unit is bob\n")
    assert ordered != SYSTEM
    bob = first_movers(ordered)
    assert bob == {"bob"}
    assert first_movers(SYSTEM) == {"ann", "bob"}


def test_lookup_reads_a_table_cell_by_roll_column_and_shift_and_logs_it(write_pack):
    """`lookup` in a hook, end to end (the engine's table reader was once shadowed by Game.lookup, which
    reads a name: a rule's lookup raised a TypeError)."""
    table = ('table odds "Odds" {\n  source "t"\n  roll 2D6\n  columns "Low", "Mid", "High"\n'
             '  row 2-6 = "miss", "miss", "hit"\n  row 7-12 = "miss", "hit", "kill"\n  shift up = 1\n}\n')
    extra = 'on game.start {\n lookup odds with 7 at "Low" by "up" as found\n if found == "hit" { marks = 1 } }'
    root = write_pack({"sys.pit": SYSTEM + table, "main.pit": SCENARIO.format(extra=extra)}, with_system=False)
    result = compile_paths([root])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    game = new_game(result.pack, "trial", seed=3, policies={"heroes": ScriptedPolicy(()), "zombies": ScriptedPolicy(())})
    play(game)
    assert game.state["counters"]["marks"] == 1
    looked = [e for e in game.entries if e["type"] == "lookup"]
    assert [(e["table"], e["roll"], e["column"], e["result"]) for e in looked] == [("odds", 7, "Mid", "hit")]
