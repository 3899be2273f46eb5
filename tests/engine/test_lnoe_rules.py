"""Last Night on Earth's core rules as the built-in content plays them, checked against the base
rulebook's worked examples (Billy's fight, the fight-pairing figures A-C, the spawn roll, the Sun Track)
and against the odds the fight rules imply."""

from __future__ import annotations

import itertools

import pytest

from spawnpit.engine import RandomPolicy, new_game
from spawnpit.engine.flow import run
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import bare_game, dice, put


def give(game, card: str, unit: Ref) -> None:
    cid = next(c for c, r in game.state["cards"].items() if r["proto"] == card and r["where"] == "deck")
    game.state["decks"][game.state["cards"][cid]["deck"]]["draw"].remove(cid)
    game.state["cards"][cid]["where"] = unit.id


def notes(game) -> list[str]:
    return [e["text"] for e in game.entries if e["type"] == "note"]


# ---- Billy's fight (base rulebook, Example Fight) -------------------------------------------------

def test_billy_rolls_3_and_5_against_a_4_and_fends_the_zombie_off(pack):
    game = bare_game(pack)
    billy, zombie = put(game, "billy", "town_center.b2"), put(game, "zombie", "town_center.b2")
    left = dice(game, [3, 5], [4])
    game.emit("fight", {"fighter": billy, "foe": zombie})
    assert not left
    rolls = [e["values"] for e in game.entries if e["type"] == "roll"]
    assert rolls == [[3, 5], [4]]
    assert notes(game) == ["The Hero wins: the Zombie is fended off"]
    assert game.state["units"][zombie.id]["space"] == "town_center.b2"
    assert game.state["units"][billy.id]["wounds"] == 0


def test_with_the_baseball_bat_billy_rolls_another_3_and_kills_the_zombie_with_the_double(pack):
    game = bare_game(pack, heroes=[0])  # use the Combat Bonus
    billy, zombie = put(game, "billy", "town_center.b2"), put(game, "zombie", "town_center.b2")
    give(game, "baseball_bat", billy)
    left = dice(game, [3, 5], [4], [3], [4])  # the last roll is the bat's break test: it holds
    game.emit("fight", {"fighter": billy, "foe": zombie})
    assert not left
    assert game.state["counters"]["hero_dice"] == [3, 5, 3]
    assert notes(game) == ["The Hero wins with doubles: the Zombie takes a Wound"]
    kill = next(e for e in game.entries if e["type"] == "kill")
    assert kill["unit"] == zombie.id and kill["by"] == billy.id
    assert game.state["units"][zombie.id]["space"] is None
    assert game.state["counters"]["zombies_killed"] == 1  # the scenario's objective counter
    assert any(r["proto"] == "baseball_bat" and r["where"] == billy.id for r in game.state["cards"].values())


def test_a_tie_goes_to_the_zombie_and_wounds_the_hero_but_johnny_is_tough(pack):
    game = bare_game(pack)
    billy, johnny = put(game, "billy", "town_center.b2"), put(game, "johnny", "town_center.a1")
    z1, z2 = put(game, "zombie", "town_center.b2"), put(game, "zombie", "town_center.a1")
    dice(game, [2, 5], [5], [2, 5], [5])
    game.emit("fight", {"fighter": billy, "foe": z1})
    game.emit("fight", {"fighter": johnny, "foe": z2})
    assert notes(game) == ["The Zombie wins: the Hero takes a Wound", "Johnny is Tough and wins the tie: the Zombie is fended off"]
    assert game.state["units"][billy.id]["wounds"] == 1 and game.state["units"][johnny.id]["wounds"] == 0


def test_johnnys_tie_with_doubles_fends_off_but_does_not_kill(pack):
    """Rulebook, Resolving the Fight: the Zombie takes a Wound when the Hero has a higher roll and doubles.
    Tough (Complete Rulebook App. I) wins Fights on a tie: the tie is his, but it is no higher roll. The
    session 26 play-test saw "1, 1 against 1: the Hero wins with doubles: the Zombie takes a Wound"."""
    game = bare_game(pack)
    johnny, zombie = put(game, "johnny", "town_center.a1"), put(game, "zombie", "town_center.a1")
    left = dice(game, [3, 3], [3])
    game.emit("fight", {"fighter": johnny, "foe": zombie})
    assert not left and notes(game) == ["Johnny is Tough and wins the tie: the Zombie is fended off"]
    assert game.state["units"][zombie.id]["space"] == "town_center.a1" and game.state["units"][johnny.id]["wounds"] == 0
    left = dice(game, [4, 4], [3])  # a higher roll with doubles still kills
    game.emit("fight", {"fighter": johnny, "foe": zombie})
    assert not left and game.state["units"][zombie.id]["space"] is None


# ---- Who fights whom in the Zombie Turn (Figures A, B, C) ------------------------------------------

def fights_in_zombie_turn(pack, heroes: int, zombies: int, answers=()) -> list[int]:
    game = bare_game(pack, heroes=answers)
    protos = ["sheriff_anderson", "becky", "jake_cartwright"]
    men = [put(game, protos[i], "town_center.b2") for i in range(heroes)]
    for _ in range(zombies):
        put(game, "zombie", "town_center.b2")
    game.chance.roll = lambda count, sides: [6, 5][:count] if count == 2 else [1]  # every Zombie fended off
    game.emit("zombie_turn.fight")
    return [game.state["units"][m.id]["stats"]["fights_taken"] for m in men]


def test_figure_a_one_hero_fights_both_zombies(pack):
    assert fights_in_zombie_turn(pack, 1, 2) == [2]


def test_figure_b_two_heroes_and_two_zombies_pair_off(pack):
    assert fights_in_zombie_turn(pack, 2, 2) == [1, 1]


def test_figure_c_the_heroes_choose_who_fights_the_third_zombie(pack):
    # each fight: the Zombie (the first still to fight), then the Hero among those with the fewest fights
    assert fights_in_zombie_turn(pack, 2, 3, answers=[0, 0, 0, 0, 0, 1]) == [1, 2]
    assert fights_in_zombie_turn(pack, 2, 3, answers=[0, 0, 0, 0, 0, 0]) == [2, 1]


def test_the_heroes_choose_the_order_of_the_fights(pack):
    """LNOE rulebook, Zombie Turn step 5: the Hero players always choose the order of the fights, so they
    say which Zombie is the extra one; in the Hero Turn too the Hero fights the Zombies in the order the
    player picks. Before, the Zombies were fought in the order they were placed."""
    from tests.engine.test_lnoe_faq import Script

    def fight_order(step: str, pick: str) -> list[str]:
        game = bare_game(pack)
        sheriff = put(game, "sheriff_anderson", "town_center.b2")
        put(game, "zombie", "town_center.b2")
        put(game, "zombie_hero", "town_center.b2")
        game.policies["heroes"] = Script(pick)
        game.chance.roll = lambda count, sides: [6, 5][:count] if count == 2 else [1]  # every Zombie fended off
        game.emit(step, {"unit": sheriff})
        foes = [e for e in game.entries if e["type"] == "choice" and e["label"].startswith("choose unit")]
        assert all(e["side"] == "heroes" for e in foes)
        return [game.state["units"][e["picked"]]["proto"] for e in foes]

    for step in ("zombie_turn.fight", "hero_turn.fight"):
        assert fight_order(step, "zombie_hero") == ["zombie_hero", "zombie"]
        assert fight_order(step, "zombie") == ["zombie", "zombie_hero"]


def test_in_the_hero_turn_the_hero_fights_every_zombie_in_the_space(pack):
    game = bare_game(pack)
    hero = put(game, "becky", "town_center.b2")
    for _ in range(3):
        put(game, "zombie", "town_center.b2")
    dice(game, [6, 5], [1], [6, 5], [1], [6, 5], [1])
    game.emit("hero_turn.fight", {"unit": hero})
    assert notes(game) == ["The Hero wins: the Zombie is fended off"] * 3


# ---- Spawning ---------------------------------------------------------------------------------------

def test_a_spawn_roll_over_the_zombies_on_the_board_brings_d6_zombies_spread_over_the_pits(pack):
    game = bare_game(pack)
    pits = sorted(game.board.spawn_points)
    assert len(pits) == 4
    for pit in pits[:1]:
        for _ in range(5):
            game.add_unit(game.model.protos("zombie")[0], pit)
    dice(game, [3, 3], [4])  # 6 beats the 5 Zombies on the board; then D6 = 4
    game.emit("zombie_turn.spawn_roll")
    game.emit("zombie_turn.place_spawns")
    spawned = {e["space"]: e["count"] for e in game.entries if e["type"] == "spawn"}
    assert spawned == {pit: 1 for pit in pits}


def test_a_spawn_roll_that_only_equals_the_zombies_on_the_board_spawns_nothing(pack):
    game = bare_game(pack)
    for _ in range(5):
        game.add_unit(game.model.protos("zombie")[0], sorted(game.board.spawn_points)[0])
    dice(game, [2, 3])
    game.emit("zombie_turn.spawn_roll")
    game.emit("zombie_turn.place_spawns")
    assert not [e for e in game.entries if e["type"] == "spawn"]


# ---- The Sun Track -------------------------------------------------------------------------------------

def test_the_sun_track_starts_at_the_scenarios_turns_and_counts_down(pack):
    game = bare_game(pack)
    game.state["cursor"] = {"round": 1, "phase": 0, "step": 0}
    run(game, stop_after_steps=1)
    assert game.state["tracks"]["sun"] == 15
    game.state["cursor"] = {"round": 2, "phase": 0, "step": 0}
    run(game, stop_after_steps=1)
    assert game.state["tracks"]["sun"] == 14


def test_sundown_when_the_marker_moves_off_space_1_the_zombies_win_die_zombies_die(pack):
    game = bare_game(pack)
    game.state["cursor"] = {"round": 16, "phase": 0, "step": 0}
    game.state["tracks"]["sun"] = 1
    result = run(game)
    assert result["winner"] == "zombies" and result["cause"] == "zombies win at sundown"
    assert result["round"] == 16
    assert "The sun is on the horizon" in notes(game)


def test_in_defend_the_manor_house_the_heroes_win_at_sundown(pack):
    game = bare_game(pack, scenario="defend_the_manor_house")
    game.state["cursor"] = {"round": 18, "phase": 0, "step": 0}
    game.state["tracks"]["sun"] = 1
    assert run(game)["winner"] == "heroes"


def test_a_whole_game_lasts_at_most_the_turns_plus_the_sundown_step(pack):
    game = new_game(pack, "lnoe:defend_the_manor_house", seed=5)
    result = run(game)
    assert result["round"] <= 18 and result["winner"] in ("heroes", "zombies")


# ---- Hero death --------------------------------------------------------------------------------------

def test_a_killed_hero_drops_every_item_and_four_dead_heroes_win_for_the_zombies(pack):
    game = bare_game(pack, scenario="burn_em_out")
    heroes = [put(game, p, "town_center.b2") for p in ("billy", "sally", "becky", "jenny")]
    give(game, "baseball_bat", heroes[0])
    for n, hero in enumerate(heroes):
        game.emit("hero.killed", {"unit": hero, "by": None})
        game.state["units"][hero.id]["space"] = None
        assert game.state["counters"]["heroes_killed"] == n + 1
        assert (game.state["result"] is not None) == (n == 3)
    assert not any(r["where"] == heroes[0].id for r in game.state["cards"].values())
    assert game.state["result"]["winner"] == "zombies"


# ---- The odds of a basic fight --------------------------------------------------------------------

def exact_odds() -> dict[str, float]:
    counts = {"kill": 0, "fended": 0, "wounded": 0}
    for a, b, z in itertools.product(range(1, 7), repeat=3):
        if max(a, b) <= z:
            counts["wounded"] += 1
        elif a == b:
            counts["kill"] += 1
        else:
            counts["fended"] += 1
    return {k: v / 216 for k, v in counts.items()}


def test_twenty_thousand_fights_match_the_odds_the_rules_imply(pack):
    odds = exact_odds()
    assert abs(odds["kill"] - 15 / 216) < 1e-12 and abs(odds["wounded"] - 91 / 216) < 1e-12
    game = new_game(pack, "lnoe:die_zombies_die", seed=2024,
                    policies={"heroes": RandomPolicy(), "zombies": RandomPolicy()})
    game.state["at"] = ["test"]
    hero, zombie = put(game, "jake_cartwright", "town_center.b2"), put(game, "zombie", "town_center.b2")
    hero_record, zombie_record = game.state["units"][hero.id], game.state["units"][zombie.id]
    hero_record["stats"]["health"] = 10 ** 9
    outcome = {"The Hero wins with doubles: the Zombie takes a Wound": "kill",
               "The Hero wins: the Zombie is fended off": "fended", "The Zombie wins: the Hero takes a Wound": "wounded"}
    seen = {"kill": 0, "fended": 0, "wounded": 0}
    fights = 20_000
    for _ in range(fights):
        start = len(game.entries)
        game.emit("fight", {"fighter": hero, "foe": zombie})
        seen[next(outcome[e["text"]] for e in game.entries[start:] if e["type"] == "note")] += 1
        zombie_record["space"] = "town_center.b2"
        zombie_record["wounds"] = 0
        game.state["counters"]["zombies_killed"] = 0  # the scenario is not won after 15 of these fights
        if len(game.entries) > 50_000:
            del game.entries[:]
    for key, p in odds.items():
        assert abs(seen[key] / fights - p) < 0.015, (key, seen[key] / fights, p)


class RecordsActions:
    """Plays as the `ai` policy and notes, at every "which action" question, the Hero's situation and the
    actions offered."""

    def __init__(self) -> None:
        from spawnpit.engine import AIPolicy

        self.ai, self.seen = AIPolicy(), []

    def choose(self, game, side, label, options):
        if ": action of " in label:
            unit = label.rsplit(" ", 1)[1]
            record = game.state["units"][unit]
            cards = [r for r in game.state["cards"].values() if r["where"] == unit]
            ranged = any(game.model.objects[("card", r["proto"])]["props"].get("range") for r in cards)
            others = [u for u, r in game.state["units"].items()
                      if u != unit and r["kind"] == "hero" and r["space"] == record["space"]]
            barred = any(record.get("markers", {}).get(m) for m in ("gave_up_turn", "no_exchange"))
            self.seen.append((label.split(":")[0], bool(game.board.building_of(record["space"])), ranged,
                              bool(others) and not barred, {o["id"] for o in options if o is not None}))
        return self.ai.choose(game, side, label, options)


@pytest.mark.parametrize("seed", [1, 2])
def test_actions_are_offered_only_when_they_can_be_taken(pack, seed):
    # Search only in a building; a Ranged Attack only with an Item that has a Range; Exchange Items only
    # with another Hero in the space and neither Hero barred from it (gave_up_turn, I Don't Trust 'em)
    # (system.pit: the actions' `require`). Games are played until 40 questions are seen.
    heroes = RecordsActions()
    for extra in range(0, 100, 10):
        game = new_game(pack, "lnoe:die_zombies_die", seed=seed + extra,
                        policies={"heroes": heroes, "zombies": RandomPolicy()})
        run(game)
        if len(heroes.seen) > 40:
            break
    seen = heroes.seen
    assert len(seen) > 40
    for step, building, ranged, company, offered in seen:
        if step == "hero_turn.move":
            assert offered == ({"move", "search"} if building else {"move"})
        elif step == "hero_turn.ranged_attack":
            assert ("shoot" in offered) == ranged
        elif step == "hero_turn.exchange":
            assert offered == ({"exchange_items"} if company else set())
    assert any(s == "hero_turn.move" and not b for s, b, *_ in seen)  # both cases were met
    assert any(s == "hero_turn.move" and b for s, b, *_ in seen)
