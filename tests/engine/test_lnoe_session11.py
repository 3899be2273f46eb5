"""Session 11 rules fixes."""

from __future__ import annotations

from tests.engine.lnoe_table import put
from tests.engine.test_lnoe_faq import bare_game, to_hand


HEROES = ("becky", "sally", "billy", "johnny", "jenny", "jake_cartwright", "father_joseph", "sheriff_anderson")


def _play_no_it_cant_be(game):
    for _ in range(4):
        put(game, "zombie", "town_center.a1")
    to_hand(game, "no_it_cant_be", "zombies")
    game.emit("zombie_turn.spawn_roll.start")


def test_no_it_cant_be_uses_up_a_random_unused_hero_sheet_whose_health_the_zombie_hero_has(pack):
    """Complete Rulebook §17.5.4: the card draws a Hero at random; that friend rises as the Zombie Hero."""
    game = bare_game(pack, "die_zombies_die", zombies=["no_it_cant_be"])
    in_play = {"becky", "sally", "billy"}
    for hero in sorted(in_play):
        put(game, hero, "town_center.b2")
    _play_no_it_cant_be(game)
    (zh,) = game.table.units("zombie_hero")
    drawn = [r for r in game.state["units"].values() if r["kind"] == "hero" and r["proto"] not in in_play]
    assert len(drawn) == 1  # one sheet set aside, never on the board
    (friend,) = drawn
    assert friend["space"] is None and friend["mode"] == "zombified"
    health = {"sheriff_anderson": 3, "johnny": 2, "father_joseph": 3, "jenny": 2, "jake_cartwright": 3}
    assert game.table.attribute(zh, "health") == health[friend["proto"]]
    assert game.state["counters"].get("heroes_killed", 0) == 0  # not a Hero killed (FAQ)


def test_no_it_cant_be_sheets_drawn_differ_by_seed_and_a_drawn_sheet_never_enters_later(pack):
    seen = set()
    for seed in range(1, 40):
        game = bare_game(pack, "die_zombies_die", zombies=["no_it_cant_be"], seed=seed)
        _play_no_it_cant_be(game)
        (friend,) = [r["proto"] for r in game.state["units"].values() if r["kind"] == "hero"]
        seen.add(friend)
        if seed == 1:  # the seven other sheets fill the table as new Heroes; the drawn one never enters
            for _ in range(8):
                game.emit("new_hero", {})  # scripted: at the centre of town, the first space offered
            heroes = [r for r in game.state["units"].values() if r["kind"] == "hero"]
            assert sorted(r["proto"] for r in heroes) == sorted(HEROES)
            assert [r["space"] for r in heroes if r["proto"] == friend] == [None]
            assert sum(1 for e in game.entries if e["type"] == "pool_empty") == 1
    assert len(seen) >= 5  # drawn at random among the eight


def test_no_it_cant_be_with_every_sheet_used_raises_nobody(pack):
    game = bare_game(pack, "die_zombies_die", zombies=["no_it_cant_be"])
    for hero in HEROES:
        put(game, hero, "town_center.b2")
    _play_no_it_cant_be(game)
    assert game.table.units("zombie_hero") == []
    assert any(e.get("text", "").startswith("Every Hero sheet is in use") for e in game.entries)
