"""Session 21 rules fixes. Placing spawned Zombies: the Zombie player places *up to* the D6 rolled (LNOE
rulebook, Zombie Turn step 6), so fewer Zombies on the board make the next spawn roll easier. A Hero
entering play mid-step (a new Hero for one killed in the Zombie Turn's fights) sits the rest of that
step out (Complete Rulebook §13.11.3)."""

from __future__ import annotations

from spawnpit.engine import AIPolicy
from tests.engine.lnoe_table import dice, put
from tests.engine.test_lnoe_faq import answer, bare_game, to_hand, where

ALL, FEWER, ONE_MORE, REST = ("Place every Zombie the die allows", "Hold back one or more of them",
                              "Hold back one more Zombie", "Place the rest now")


def _spawned(game) -> int:
    return sum(e["count"] for e in game.entries if e["type"] == "spawn")


def _spawn(game, d6: int) -> None:
    """The spawn roll passes (2D6 = 12 against an empty board), then the placing roll is `d6`."""
    left = dice(game, [6, 6], [d6])
    game.emit("zombie_turn.spawn_roll")
    game.emit("zombie_turn.place_spawns")
    assert not left


def test_the_zombie_player_places_up_to_the_roll(pack):
    game = bare_game(pack)
    script = answer(game, "zombies", FEWER, ONE_MORE, ONE_MORE, REST)  # 5 rolled: 4, 3, 2, then stop
    _spawn(game, 5)
    assert _spawned(game) == 2
    offered = [options for _, options in script.asked]
    assert offered[:4] == [[ALL, FEWER]] + [[ONE_MORE, REST]] * 3  # the player stops where they like


def test_holding_back_stops_at_none_placed(pack):
    """Holding back every Zombie is asked no further than none: 3 rolled, one fewer and two more is 0."""
    game = bare_game(pack)
    script = answer(game, "zombies", FEWER, ONE_MORE, ONE_MORE)
    _spawn(game, 3)
    assert _spawned(game) == 0 and len(script.asked) == 3


def test_a_roll_of_one_may_be_held_back_whole(pack):
    game = bare_game(pack)
    script = answer(game, "zombies", FEWER)
    _spawn(game, 1)
    assert _spawned(game) == 0 and len(script.asked) == 1  # nothing more to ask: none placed


def test_placing_them_all_is_the_default_and_the_ai_s_choice(pack):
    for policy in (None, AIPolicy()):
        game = bare_game(pack)
        if policy is not None:
            game.policies["zombies"] = policy
        _spawn(game, 4)
        assert _spawned(game) == 4


def test_a_hero_entering_play_during_the_zombie_fights_sits_the_step_out(pack):
    """Billy, one Wound from death, fights the first of two Zombies in the centre of town and dies in the
    Black Zone; the new Hero enters there (with a free card) and does not fight the second Zombie."""
    game = bare_game(pack, scenario="burn_em_out", heroes=[0, 0])  # centre of town, its only space
    game.state["counters"]["advanced_rules"] = 1
    game.state["tracks"]["sun"] = 15
    billy = put(game, "billy", "town_center.b2")
    game.state["units"][billy.id]["wounds"] = game.table.attribute(billy, "health") - 1
    zombies = [put(game, "zombie", "town_center.b2") for _ in range(2)]
    left = dice(game, [1, 2], [6])  # the first fight only: the Zombie wins
    game.emit("zombie_turn.fight")
    assert not left
    newcomers = [u for u, r in game.state["units"].items() if r["kind"] == "hero" and r["space"]]
    assert len(newcomers) == 1 and game.state["units"][newcomers[0]]["space"] == "town_center.b2"
    fought = [e["picked"] for e in game.entries if e["type"] == "choice" and e["label"].startswith("choose hero")
              and e["rule"] == "Zombie Turn Fights"]
    assert fought == [billy.id]
    assert [e["values"] for e in game.entries if e["type"] == "roll" and e["rule"] == "Fight"] == [[1, 2], [6]]
    assert sum(where(game, z) == "town_center.b2" for z in zombies) == 2  # both still there
    assert game.state["units"][newcomers[0]]["wounds"] == 0


def test_a_shambling_zombie_makes_no_other_move_that_step(pack):
    """Shamble's D6 is the Zombie's move this turn, instead of its one space (Complete Rulebook §16.4.9:
    only Extra Zombie Move makes it D6+1). The play-test saw a Shamble of 5 walk 6 spaces into a Hero:
    the walk, then the Zombie's ordinary move. Here it stops after 1 of its 3; the step then moves the
    other Zombie only, and the card's marker is gone after the step."""
    # play it, on the first Zombie; walk to a2, stop; then the other Zombie's ordinary move
    game = bare_game(pack, zombies=["shamble", 0, "town_center.a2", None, "town_center.c2"])
    shambler = put(game, "zombie", "town_center.a1")
    other = put(game, "zombie", "town_center.c1")
    put(game, "becky", "l_boards.bank_gas_station_junkyard.a1")  # far away: no Hunger here
    to_hand(game, "shamble", "zombies")
    left = dice(game, [3])
    game.emit("zombie_turn.move_zombies.start")
    assert not left and where(game, shambler) == "town_center.a2"  # walked a1 → a2, then stopped
    assert game.table.has(shambler, game.lookup("card_moved"))
    game.emit("zombie_turn.move_zombies")
    assert where(game, shambler) == "town_center.a2"  # no second move
    moved = [e["unit"] for e in game.entries if e["type"] == "move" and e.get("rule") == "Zombie Movement"]
    assert moved == [other.id]
    assert not game.table.has(shambler, game.lookup("card_moved"))


def _fight_with(pack, card: str, hero_roll: list, zombie_roll: list, extra: list, seed: int = 1):
    """Billy fights a Zombie; the AI Zombie player holds `card`. Returns (the card's place, dice left)."""
    game = bare_game(pack, seed=seed)
    game.policies["zombies"] = AIPolicy()
    billy, zombie = put(game, "billy", "town_center.b2"), put(game, "zombie", "town_center.b2")
    cid = to_hand(game, card, "zombies")
    left = dice(game, hero_roll, zombie_roll, *extra)
    game.emit("fight", {"fighter": billy, "foe": zombie})
    return game.state["cards"][cid]["where"], left


SEEDS = range(1, 7)  # the ai draws among equal options from its own stream: several games, not one


def test_the_zombie_ai_plays_uuuurrggghh_only_while_losing(pack):
    """The play-test saw it add a die to a Zombie that had already won. Losing 2 to 5: it plays it (the
    extra die rolls a 6); winning 4 to 2: it keeps it, and no die more is rolled."""
    for seed in SEEDS:
        assert _fight_with(pack, "uuuurrggghh", [5, 3], [2], [[6]], seed) == ("discard", [])
        assert _fight_with(pack, "uuuurrggghh", [2, 1], [4], [], seed) == ("side:zombies", [])



def test_nothing_is_asked_about_zombies_the_pool_does_not_have(pack):
    """The review found the questions asked, and answered, with the pool empty: 13 of 14 Zombies on the
    board and a 6 rolled, holding back three changed nothing (one came anyway). Now the roll is capped at
    what the pool has left (`pool_left`): one Zombie, so 'one fewer' is the last question; with the pool
    empty nothing is asked."""
    for on_board, asked, spawned in ((13, 1, 0), (14, 0, 0)):
        game = bare_game(pack)
        pit = sorted(game.board.spawn_points)[0]
        for _ in range(on_board):
            put(game, "zombie", pit)
        script = answer(game, "zombies", FEWER, ONE_MORE)
        left = dice(game, [6])
        game.state["counters"]["zombie_spawn_count"] = 1  # as if the spawn roll passed
        game.emit("zombie_turn.place_spawns")
        assert not left and _spawned(game) == spawned
        assert len(script.asked) == asked
        assert len(game.table.units("zombie")) == on_board


def test_the_heroes_who_began_the_fights_take_the_zombies_a_dead_hero_leaves(pack):
    """Billy and Becky share the centre of town with three Zombies. Billy falls in the first fight (Black
    Zone) and a new Hero enters there: Becky, who began the step, fights the other two, the newcomer none
    (§13.11.3). This needs the filter in both places: the fewest-fights count and the choice of Hero."""
    # the 1st Zombie (any), Billy to fight it; the new Hero at the centre, its space; then Zombies 2 and 3
    game = bare_game(pack, scenario="burn_em_out", heroes=[0, "billy", 0, 0, 0, 0, 0, 0])
    game.state["counters"]["advanced_rules"] = 1
    game.state["tracks"]["sun"] = 15
    billy, becky = put(game, "billy", "town_center.b2"), put(game, "becky", "town_center.b2")
    game.state["units"][billy.id]["wounds"] = game.table.attribute(billy, "health") - 1
    for _ in range(3):
        put(game, "zombie", "town_center.b2")
    left = dice(game, [1, 2], [6], [6, 5], [1], [6, 5], [1])  # Billy loses; Becky fends off twice
    game.emit("zombie_turn.fight")
    assert not left
    fought = [e["picked"] for e in game.entries if e["type"] == "choice" and e["label"].startswith("choose hero")
              and e["rule"] == "Zombie Turn Fights"]
    assert fought == [billy.id, becky.id, becky.id]
    newcomer = next(u for u, r in game.state["units"].items() if r["kind"] == "hero" and r["space"] and u != becky.id)
    assert game.state["units"][newcomer]["space"] == "town_center.b2"


def test_anxious_to_feed_twice_takes_two_steps_from_a_spawning_pit_only(pack):
    """Complete Rulebook App. III: with two copies in play a Zombie placed at a Spawning Pit may move 2
    spaces. The Zombie play-test saw the second step offered around the pit again (its own new space
    among the options), and the card firing for Zombies Legions of the Dead put in a building."""
    from spawnpit.engine.state import Ref
    from tests.engine.test_lnoe_cards import in_play

    game = bare_game(pack)
    in_play(game, "anxious_to_feed")
    in_play(game, "anxious_to_feed")
    pit = sorted(game.board.spawn_points)[0]
    first = next(s for s in game.board.spaces if game.table.distance(Ref("space", pit), Ref("space", s)) == 1)
    script = answer(game, "zombies", first, 0)
    zombie = game.spawn(Ref("kind", "zombie"), Ref("space", pit), 1, game._plain_ctx())[0]
    assert len(script.asked) == 2
    second = {o.id for o in script.asked[1][1] if o is not None}
    assert pit in second and first not in second  # around where the first step left it
    assert all(game.table.apart(Ref("space", first), Ref("space", s)) == 1 for s in second)  # (walls no bar)
    assert where(game, zombie) != first and where(game, zombie) in second

    game = bare_game(pack)
    in_play(game, "anxious_to_feed")
    building = next(s for s in game.board.spaces if game.board.info[s].building and s not in game.board.spawn_points)
    script = answer(game, "zombies")
    zombie = game.spawn(Ref("kind", "zombie"), Ref("space", building), 1, game._plain_ctx())[0]
    assert script.asked == [] and where(game, zombie) == building


def test_the_ai_plays_just_what_i_needed_for_a_card_worth_taking_not_the_other_copy(pack):
    """The Zombie play-test saw the AI Heroes play Just What I Needed four turns running, each copy
    fetching the other back from the discard pile."""
    from tests.engine.test_lnoe_faq import emit_step, to_discard

    for discarded, played in ((["just_what_i_needed"], False), (["just_what_i_needed", "revolver"], True)):
        for seed in SEEDS:
            game = bare_game(pack, seed=seed)
            game.policies["heroes"] = AIPolicy()
            becky = put(game, "becky", "town_center.b2")
            mine = to_hand(game, "just_what_i_needed", "heroes")
            for card in discarded:
                to_discard(game, card)
            emit_step(game, "hero_turn.move.start", {"unit": becky})
            assert (game.state["cards"][mine]["where"] != "side:heroes") == played, (discarded, seed)
            if played:
                held = [r["proto"] for r in game.state["cards"].values() if r["where"] in (becky.id, "side:heroes")]
                assert held == ["revolver"], held


def test_the_zombie_ai_keeps_cards_that_would_do_nothing_and_a_wasted_card_says_so(pack):
    """The Zombie play-test saw Haunted By the Past played with only Students in play and Falling
    Darkness with no Hero card in play, each doing nothing and saying nothing."""
    for card, note in (("falling_darkness", "Falling Darkness has nothing to snuff out"),
                       ("haunted_by_the_past", "Haunted By the Past does nothing")):
        for seed in SEEDS:
            game = bare_game(pack, seed=seed)
            game.policies["zombies"] = AIPolicy()
            put(game, "billy", "town_center.b2")  # a Student, and no Hero card in play
            mine = to_hand(game, card, "zombies")
            game.state["counters"]["zombie_cards_passed"] = 0
            game.emit("zombie_turn.spawn_roll.start")
            assert game.state["cards"][mine]["where"] == "side:zombies", (card, seed)
        # (session 30: a card that could do nothing now is not offered to a person either)
        game = bare_game(pack)
        put(game, "billy", "town_center.b2")
        mine = to_hand(game, card, "zombies")
        game.state["counters"]["zombie_cards_passed"] = 0
        game.emit("zombie_turn.spawn_roll.start")
        assert game.state["cards"][mine]["where"] == "side:zombies"
        assert not any(any(getattr(o, "id", None) == mine for o in options) for _, options in game.policies["zombies"].asked)


def test_a_zombie_bound_to_two_heroes_in_one_space_is_asked_for_the_space_once(pack):
    """Zombie Hunger with Heroes in two spaces next to the Zombie, two of them sharing one: the Zombie
    player picks between the two spaces (Billy and Jenny together were two options for one move, and
    the play-test read picking Jenny as choosing whom the Zombie fights: the Heroes pair the fights).
    The AI steps in on the lone Hero (fewest Heroes in the space)."""
    gas = "l_boards.bank_gas_station_junkyard."
    game = bare_game(pack, needs=("gas_station",))
    put(game, "billy", gas + "c2")
    put(game, "jenny", gas + "c2")
    put(game, "sheriff_anderson", gas + "c4")
    zombie = put(game, "zombie", gas + "c3")
    script = answer(game, "zombies", 0)
    game.emit("zombie_turn.move_zombies")
    (label, options), = script.asked
    assert label.startswith("choose space to step into: a Hero's space") and sorted(o.id for o in options) == sorted(
        game.board.resolve(gas + c) for c in ("c2", "c4"))
    game = bare_game(pack, needs=("gas_station",))
    game.policies["zombies"] = AIPolicy()
    put(game, "billy", gas + "c2")
    put(game, "jenny", gas + "c2")
    put(game, "sheriff_anderson", gas + "c4")
    zombie = put(game, "zombie", gas + "c3")
    game.emit("zombie_turn.move_zombies")
    assert where(game, zombie) == game.board.resolve(gas + "c4")
