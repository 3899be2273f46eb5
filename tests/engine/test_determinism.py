"""The engine's speed-ups change nothing a game does: AI games replay and restore exactly, caches shared
between games (compiled models, boards, distances) never leak one game into the next, and the indexes
and remembered values behind selections follow every change, even a test writing the state directly."""

from __future__ import annotations

import json

import pytest

from spawnpit.compiler import compile_paths
from spawnpit.engine import AIPolicy, ScriptedPolicy, interp, new_game, play
from spawnpit.engine.flow import run, setup
from spawnpit.engine.game import Game
from spawnpit.engine.log import choices
from spawnpit.engine.state import Ref, snapshot
from spawnpit.resources import builtin_paths


@pytest.fixture(scope="module")
def lnoe():
    result = compile_paths(builtin_paths())
    assert result.ok
    return result.pack


def ai_game(pack, scenario: str, seed: int) -> Game:
    return new_game(pack, scenario, seed=seed, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})


def text(entries: list[dict]) -> str:
    return json.dumps(entries, sort_keys=True)


# ---- whole games ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("scenario", ["lnoe:die_zombies_die", "lnoe:save_the_townsfolk"])
def test_an_ai_game_replays_exactly_from_its_recorded_choices(lnoe, scenario):
    original = ai_game(lnoe, scenario, seed=4)
    play(original)
    answers = choices(original.entries)
    replay = new_game(lnoe, scenario, seed=4, policies={side: ScriptedPolicy(answers.get(side, []))
                                                         for side in ("heroes", "zombies")})
    play(replay)
    assert original.state["choices"] > 50  # the AI really decided things
    assert text(replay.entries) == text(original.entries)


def test_an_ai_game_saved_midway_carries_on_exactly_as_the_original(lnoe):
    original = ai_game(lnoe, "lnoe:die_zombies_die", seed=9)
    run(original, stop_after_steps=25)
    saved = original.save()
    logged = json.loads(saved)["logged"]
    run(original)
    restored = Game.restore(lnoe, saved, {"heroes": AIPolicy(), "zombies": AIPolicy()},
                            log=[dict(e) for e in original.entries[:logged]])
    run(restored)
    assert 0 < logged < len(original.entries)
    assert restored.state["result"] == original.state["result"]
    assert text(restored.entries) == text(original.entries)


def test_caches_shared_between_games_never_change_a_game(lnoe):
    first = ai_game(lnoe, "lnoe:die_zombies_die", seed=5)
    play(first)
    for seed in (6, 7):  # other games warm the shared board and model caches in between
        play(ai_game(lnoe, "lnoe:die_zombies_die", seed=seed))
    again = ai_game(lnoe, "lnoe:die_zombies_die", seed=5)
    play(again)
    assert text(again.entries) == text(first.entries)
    assert json.loads(again.save()) == json.loads(first.save())


def test_a_board_that_knows_every_distance_plays_as_a_cold_one(lnoe, monkeypatch):
    """`apart`, `route` and `nearest` read whichever end's row of distances is at hand (a step counts the
    same both ways): a game on a cold board and one on a board with every row worked out are the same."""
    from spawnpit.engine import board as boards
    from spawnpit.engine.board import EVERYTHING, WALKING
    monkeypatch.setattr(boards, "_BOARDS", {})
    cold = ai_game(lnoe, "lnoe:escape_in_the_truck", seed=11)
    assert not cold.board._rows
    play(cold)
    assert cold.board._rows  # the game did read rows
    monkeypatch.setattr(boards, "_BOARDS", {})
    warm = ai_game(lnoe, "lnoe:escape_in_the_truck", seed=11)
    assert warm.board is not cold.board and not warm.board._rows
    for source in warm.board.spaces:
        for through in (WALKING, EVERYTHING):
            warm.board.row(source, through)
    play(warm)
    assert text(warm.entries) == text(cold.entries)


def test_saved_state_is_plain_json_data(lnoe):
    game = ai_game(lnoe, "lnoe:die_zombies_die", seed=2)
    run(game, stop_after_steps=20)
    copied = snapshot(game.state)
    assert type(copied["units"][next(iter(copied["units"]))]) is dict
    assert type(copied["counters"]) is dict and type(copied["tracks"]) is dict
    assert json.loads(game.save())["units"] == json.loads(json.dumps(copied["units"]))


# ---- indexes and remembered values (mini system) ---------------------------------------------------------

SCENARIO = """import "system.pit"
using mini
scenario "Trial" {{
  board yard
  rounds 6
  heroes 1
  counter kills = 0
  counter probes = 0
  on zombie.killed by hero {{ kills += 1 }}
  heroes win when kills >= 3
  zombies win at sundown
  {extra}
}}
"""


def mini_game(write_pack, extra: str = "", seed: int = 1) -> Game:
    result = compile_paths([write_pack({"main.pit": SCENARIO.format(extra=extra)})])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    game = new_game(result.pack, "trial", seed=seed, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
    setup(game)
    return game


def zombie(game) -> dict:
    return next(u for u in game.model.units if u["unit_kind"] == "zombie")


def test_selections_follow_a_unit_moved_by_writing_the_state(write_pack):
    game = mini_game(write_pack)
    z = game.add_unit(zombie(game), "b2")
    assert game.table.units("zombie", Ref("space", "b2")) == [z]
    game.state["units"][z.id]["space"] = "a2"  # as a test may put a unit somewhere
    assert game.table.units("zombie", Ref("space", "b2")) == []
    assert game.table.units("zombie", Ref("space", "a2")) == [z]
    game.state["units"][z.id]["space"] = None
    assert game.table.units("zombie") == [] and not game.in_play(f"unit:{zombie(game)['id']}")


def test_a_restored_game_indexes_its_units_and_cards(write_pack):
    game = mini_game(write_pack)
    z = game.add_unit(zombie(game), "b2")
    hero = game.units_of_side("heroes")[0]
    pistol = next(c for c, r in game.state["cards"].items() if r["proto"] == "pistol")
    game.state["cards"][pistol]["where"] = hero.id
    restored = Game.restore(game.model.pack, game.save(), game.policies)
    assert restored.table.units("zombie", Ref("space", "b2")) == [z]
    assert restored.table.pool("card", hero) == [Ref("card", pistol)]
    restored.move_unit(z, Ref("space", "b1"), restored._plain_ctx())
    restored.state["cards"][pistol]["where"] = "discard"
    assert restored.table.units("zombie", Ref("space", "b1")) == [z]
    assert restored.table.pool("card", hero) == []


def test_an_objective_sees_a_counter_written_directly(write_pack):
    game = mini_game(write_pack)
    game.emit("zombie_turn.move")  # an event with no hook: the objectives are looked at, none is met
    assert game.state["result"] is None
    game.emit("zombie_turn.move")
    game.state["counters"]["kills"] = 3
    game.emit("zombie_turn.move")
    assert game.state["result"]["winner"] == "heroes" and game.state["result"]["cause"] == "heroes win when kills >= 3"


def test_a_has_test_first_in_a_where_selects_as_the_whole_where_does(write_pack):
    game = mini_game(write_pack, """on zombie_turn.move {
      probes = count(card c where c has weapon and c has gun) * 100
      probes += count(card c where c has weapon and c has strong) * 10
      probes += count(card c where c has item)
    }""")
    game.emit("zombie_turn.move")
    assert game.state["counters"]["probes"] == 101  # Pistol (a gun, a weapon, not strong); Keys (an item)


def test_a_prefer_works_out_its_item_independent_part_once_and_its_dice_for_every_option(write_pack, monkeypatch):
    calls: list[tuple] = []
    real_max = interp.FUNCTIONS["max"]

    def counted(ctx, *xs):
        calls.append(xs)
        return real_max(ctx, *xs)

    monkeypatch.setitem(interp.FUNCTIONS, "max", counted)  # before the scenario is compiled
    game = mini_game(write_pack, """on zombie_turn.move {
      choose space s in list(space x) by heroes prefer [max(count(zombie), 0), max(distance(s, b2), 0), roll(D6)] {
        probes += 1
      }
    }""")
    for _ in range(2):
        game.emit("zombie_turn.move")
    rolls = [e for e in game.entries if e["type"] == "roll" and e.get("rule") == "Trial"]
    invariant = [c for c in calls if c == (0, 0)]
    assert game.state["counters"]["probes"] == 2
    assert len(rolls) == 2 * 4  # a roll for each of the 4 spaces, at each choice: dice are never remembered
    assert len(calls) == 2 * (1 + 4)  # count(zombie) once per choice; the distance for each space
    assert len(invariant) >= 2


def test_a_save_keeps_every_table_in_the_order_its_entities_came_into_the_game(lnoe):
    # Hands are offered in table order; sorting the saved keys put c100 before c78 and changed the AI's picks.
    game = ai_game(lnoe, "lnoe:die_zombies_die", seed=3)
    run(game, stop_after_steps=30)
    assert len(game.state["cards"]) > 100  # ids past c99, where text order and creation order differ
    restored = Game.restore(lnoe, game.save(), {"heroes": AIPolicy(), "zombies": AIPolicy()})
    for table in ("cards", "units", "decks"):
        assert list(restored.state[table]) == list(game.state[table]), table


# ---- the speed-ups of the engine benchmark (bench/engine.py): each cache follows what it depends on -----

def test_expressions_compiled_to_python_play_exactly_as_closures(lnoe, monkeypatch):
    import copy

    generated = ai_game(lnoe, "lnoe:die_zombies_die", seed=3)
    play(generated)
    monkeypatch.setattr(interp, "GENERATE", False)
    other = copy.deepcopy(lnoe)  # another pack object: its model is compiled afresh, as closures
    closures = ai_game(other, "lnoe:die_zombies_die", seed=3)
    assert closures.model is not generated.model
    play(closures)
    assert generated.state["choices"] > 50
    assert text(closures.entries) == text(generated.entries)


def test_a_move_that_honours_stops_follows_the_units_that_stop_it(lnoe):
    from spawnpit.engine import movement

    game = ai_game(lnoe, "lnoe:die_zombies_die", seed=3)
    setup(game)
    units = game.state["units"]
    hero = max(game.units_of_side("heroes"), key=lambda h: len(movement.reach(game, h, 1)))  # not in a corner
    zombies = [Ref("unit", u) for u, r in units.items() if r["kind"] == "zombie"]
    for z in zombies:
        units[z.id]["space"] = None
    free = movement.reach(game, hero, 3)
    around = movement.reach(game, hero, 1)
    assert len(zombies) >= len(around) and len(free) > len(around)
    for z, space in zip(zombies, around):  # a Zombie in every space next to the Hero: entered, never left
        units[z.id]["space"] = space.id
    assert movement.reach(game, hero, 3) == around
    units[zombies[0].id]["space"] = None  # one steps off the board: the way through that space is open again
    reopened = movement.reach(game, hero, 3)
    game.scratch.pop("stopped_searches")
    assert reopened == movement.reach(game, hero, 3) and len(around) < len(reopened) < len(free) + 1
    for z in zombies:
        units[z.id]["space"] = None
    assert movement.reach(game, hero, 3) == free


def test_the_unit_index_keeps_who_is_on_the_board_across_moves_but_not_who_is_where(write_pack):
    game = mini_game(write_pack)
    z = game.add_unit(zombie(game), "b2")
    assert game.table.units("zombie") == [z] and game.unit_ids(side="zombies") == [z.id]
    assert game.table.units("zombie", Ref("space", "b2")) == [z]
    game.state["units"][z.id]["space"] = "a2"  # a move: the on-board views stay, the per-space ones go
    assert game.table.units("zombie") == [z] and game.unit_ids(side="zombies") == [z.id]
    assert game.table.units("zombie", Ref("space", "b2")) == [] and game.unit_ids(space="a2") == [z.id]
    assert game.table.has(Ref("space", "a2"), Ref("kind", "zombie"))
    game.state["units"][z.id]["space"] = None  # off the board: both go
    assert game.table.units("zombie") == [] and game.unit_ids(side="zombies") == [] and game.unit_ids(space="a2") == []
    game.state["units"][z.id]["space"] = "a1"  # back on
    assert game.table.units("zombie") == [z] and game.unit_ids(kind="zombie", space="a1") == [z.id]
    game.state["units"][z.id]["kind"] = "hero"  # what it is changes every view
    assert game.table.units("zombie") == [] and z in game.table.units("hero", Ref("space", "a1"))


def test_a_has_test_of_a_kind_over_spaces_selects_as_each_space_would(write_pack):
    game = mini_game(write_pack, """on zombie_turn.move {
      probes = count(space s where s has zombie) * 10 + count(space s where s has zombie and s.spawn)
    }""")
    for z in game.table.units("zombie"):
        game.state["units"][z.id]["space"] = None
    for space in ("a1", "b2", "b2"):
        game.add_unit(zombie(game), space)
    expected = [s for s in game.table.pool("space", None) if game.table.has(s, Ref("kind", "zombie"))]
    assert game.table.having(game.table.pool("space", None), Ref("kind", "zombie")) == expected
    game.emit("zombie_turn.move")
    assert game.state["counters"]["probes"] == 21  # a1 and b2 hold Zombies; b2 is the spawn point


def test_the_owner_of_a_card_rule_follows_the_card(write_pack):
    game = mini_game(write_pack)
    hero = game.units_of_side("heroes")[0]
    pistol = next(c for c, r in game.state["cards"].items() if r["proto"] == "pistol")
    assert game.owner_ref("card:pistol") is None  # in the deck
    game.state["cards"][pistol]["where"] = hero.id
    assert game.owner_ref("card:pistol") == Ref("card", pistol) and game.in_play("card:pistol")
    game.state["cards"][pistol]["where"] = "discard"
    assert game.owner_ref("card:pistol") is None and not game.in_play("card:pistol")
    assert game.owner_ref(f"unit:{game.state['units'][hero.id]['proto']}") == hero
