"""Session 20 rules fixes, from a fidelity review against the rulebooks. Move Zombies: the Zombies Zombie
Hunger binds move before the others (Complete Rulebook §8.1.1.1); a Zombie no Hunger binds may step one
space any way or stay (LNOE rulebook, Move Zombies: "may move each of your Zombies one space"); the solo
Zombie AI (§17.5.3.5) aims at the closest Hero, then the one in the space with the fewest Heroes, then
the one with the fewest Wounds left. The Hero's movement roll starts the Move Action. Each Hero starts
in the space of the Start: building the Hero player picks."""

from __future__ import annotations

from spawnpit.engine import AIPolicy
from tests.engine.lnoe_table import put
from tests.engine.test_lnoe_faq import bare_game, where

GAS = "l_boards.bank_gas_station_junkyard."


def _at(game, name: str) -> str:
    return game.board.resolve(GAS + name)


def _moves(game) -> list[str]:
    return [e["unit"] for e in game.entries if e["type"] == "move" and e.get("rule") == "Zombie Movement"]


def test_zombies_under_hunger_move_before_the_others(pack):
    """The free Zombie comes first in table order; the one next to the Sheriff still moves first."""
    game = bare_game(pack, needs=("gas_station",))
    game.policies["zombies"] = AIPolicy()
    put(game, "sheriff_anderson", GAS + "e3")
    free = put(game, "zombie", GAS + "a1")
    bound = put(game, "zombie", GAS + "e4")
    game.emit("zombie_turn.move_zombies")
    assert where(game, bound) == _at(game, "e3")
    assert _moves(game) == [bound.id, free.id]


def test_a_free_zombie_may_step_away_from_the_heroes(pack):
    """The Zombie player may take a free Zombie one space any way, away from every Hero too."""
    game = bare_game(pack, zombies=[GAS + "a3"], needs=("gas_station",))
    put(game, "sheriff_anderson", GAS + "e3")
    zombie = put(game, "zombie", GAS + "b3")
    game.emit("zombie_turn.move_zombies")
    assert where(game, zombie) == _at(game, "a3")
    label, options = game.policies["zombies"].asked[0]
    assert label == "choose space" and None in options  # a `may`: it could have stayed
    offered = {o.id for o in options if o is not None}
    assert {_at(game, "a3"), _at(game, "c3")} <= offered


def test_a_free_zombie_may_stay(pack):
    game = bare_game(pack, zombies=[None], needs=("gas_station",))
    put(game, "sheriff_anderson", GAS + "e3")
    zombie = put(game, "zombie", GAS + "b3")
    game.emit("zombie_turn.move_zombies")
    assert where(game, zombie) == _at(game, "b3") and _moves(game) == []


def test_the_zombie_ai_goes_for_the_hero_with_fewest_wounds_left(pack):
    """Two Heroes as near and each alone: the AI Zombie steps toward the one with fewer Wounds left
    (Health less Wounds), not the one with the smaller Health."""
    game = bare_game(pack, needs=("gas_station",))
    game.policies["zombies"] = AIPolicy()
    sheriff = put(game, "sheriff_anderson", GAS + "c1")  # Health 3
    billy = put(game, "billy", GAS + "c5")  # Health 2
    game.wound(sheriff, 2, game._plain_ctx())  # 1 left, against Billy's 2
    zombie = put(game, "zombie", GAS + "c3")
    game.emit("zombie_turn.move_zombies")
    assert where(game, zombie) in {_at(game, "b2"), _at(game, "c2"), _at(game, "d2")}
    assert where(game, billy) == _at(game, "c5")


def test_a_zombie_hunger_binds_to_two_heroes_steps_in_on_the_one_with_fewest_wounds_left(pack):
    """Both ways round and on several seeds: the pick is the wounded Sheriff's space, not a tie drawn."""
    for sheriff_at, billy_at in (("c2", "c4"), ("c4", "c2")):
        for seed in (1, 2, 3):
            game = bare_game(pack, seed=seed, needs=("gas_station",))
            game.policies["zombies"] = AIPolicy()
            sheriff = put(game, "sheriff_anderson", GAS + sheriff_at)  # Health 3, 2 Wounds: 1 left
            put(game, "billy", GAS + billy_at)  # Health 2, none: 2 left
            game.wound(sheriff, 2, game._plain_ctx())
            zombie = put(game, "zombie", GAS + "c3")
            game.emit("zombie_turn.move_zombies")
            assert where(game, zombie) == _at(game, sheriff_at), (sheriff_at, seed)


def test_a_zombie_hero_that_passes_ends_its_move(pack):
    """A Zombie Hero's D3 moves are one move: once the player passes, it is not asked again."""
    game = bare_game(pack, zombies=[None], needs=("gas_station",))
    put(game, "sheriff_anderson", GAS + "e3")
    zombie_hero = put(game, "zombie_hero", GAS + "a1")
    game.chance.roll = lambda count, sides: [3] * count  # its D3: 3 moves
    game.emit("zombie_turn.move_zombies")
    asked = [label for label, _ in game.policies["zombies"].asked if label == "choose space"]
    assert asked == ["choose space"] and where(game, zombie_hero) == _at(game, "a1")


def test_a_zombie_no_hero_can_draw_may_still_step(pack):
    """Becky behind Blocked Windows is the only Hero: she binds no Zombie, and the Zombie next to her
    window may still step elsewhere (before, a Zombie with no Hero to head for was not moved at all)."""
    from spawnpit.engine.state import Ref
    from tests.engine.test_lnoe_cards import in_play

    game = bare_game(pack, zombies=[GAS + "h3"], needs=("gas_station",))
    put(game, "becky", GAS + "g2")
    in_play(game, "blocked_windows", Ref("space", _at(game, "g2")))
    zombie = put(game, "zombie", GAS + "g3")
    game.emit("zombie_turn.move_zombies")
    assert where(game, zombie) == _at(game, "h3")


def test_the_movement_roll_is_taken_on_a_move_or_first_if_the_hero_asks(pack):
    """LNOE rulebook, Hero Turn 1) Move: a Hero may always roll to see how far they could Move before
    deciding whether to Search or Move; the roll is optional (the Complete Rulebook §8.3 made it mandatory,
    after Timber Peak). Session 20 made every Move Action start with the roll, so a player never chose
    blind; then a Hero who only meant to Search could lose the Search to Out of Control (the session 26
    play-test). Now a Hero who could Search is asked: roll first, or choose now; a Move rolls, a Search
    does not. In a whole AI game the Searches roll nothing and each Move rolls once."""
    from spawnpit.engine import new_game, play

    game = new_game(pack, "die-zombies-die", seed=3, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
    play(game)
    entries = game.entries
    acted = [i for i, e in enumerate(entries) if e["type"] == "action" and e["action"] in ("move", "search")]
    assert any(entries[i]["action"] == "search" for i in acted) and any(entries[i]["action"] == "move" for i in acted)
    for i in acted:
        j = i + 1  # the action's own entries, up to the next step's or action's
        while j < len(entries) and entries[j]["type"] != "action" and entries[j]["at"].startswith("hero_turn.move"):
            j += 1
        h = i - 1  # and the step's, before the choice (a roll-first roll would be there)
        while h >= 0 and entries[h]["at"] == "hero_turn.move":
            h -= 1
        rolls = [e for e in entries[h + 1:j] if e["type"] == "roll" and e.get("rule") == "Hero Movement"]
        assert len(rolls) == (1 if entries[i]["action"] == "move" else 0), entries[h + 1:j]


def test_with_the_complete_rulebooks_rules_every_move_action_starts_with_the_roll(pack):
    """Complete Rulebook §8.3 (after Timber Peak): the roll is mandatory and comes first, so a Hero who then
    Searches has rolled; no roll-first question."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import Script

    game = bare_game(pack, needs=("gas_station",))
    game.state["counters"]["complete_rulebook"] = 1
    game.policies["heroes"] = heroes = Script(1)  # Search
    billy = put(game, "billy", GAS + "g1")
    left = dice(game, [3])
    _move_step(game, billy)
    assert not left and [label for label, _ in heroes.asked] == ["hero_turn.move: action of " + billy.id]
    kinds = [e["type"] for e in game.entries if e["type"] in ("roll", "action")]
    assert kinds == ["roll", "action"] and [e["action"] for e in game.entries if e["type"] == "action"] == ["search"]


def test_a_hero_in_a_building_may_roll_first_and_then_search(pack):
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import Script

    game = bare_game(pack, needs=("gas_station",))
    game.policies["heroes"] = heroes = Script("Roll the movement die first, then choose Move or Search", 1)  # then Search
    billy = put(game, "billy", GAS + "g1")  # in the Gas Station
    left = dice(game, [5], [3])  # the roll first; then (for the Search) nothing more is rolled
    _move_step(game, billy)
    assert left == [[3]]  # one die rolled
    labels = [label for label, _ in heroes.asked]
    assert labels[0] == "choose an option" and labels[1].startswith("hero_turn.move: action")
    assert [e["values"] for e in game.entries if e["type"] == "roll"] == [[5]]
    assert [e["action"] for e in game.entries if e["type"] == "action"] == ["search"]
    # out in the street there is nothing to Search: no question, and the Move rolls
    game.policies["heroes"] = heroes = Script(0, GAS + "a4")
    jenny = put(game, "jenny", GAS + "a3")
    left = dice(game, [2])
    _move_step(game, jenny)
    assert not left and where(game, jenny) == _at(game, "a4")
    assert not [label for label, _ in heroes.asked if label == "choose an option"]


def test_each_hero_starts_in_the_space_of_the_start_building_the_player_picks(pack):
    """LNOE rulebook, Setting Up: a Hero starts in any space of the Start: building, the Hero player's
    choice. Before, every Hero stood in the building's first space."""
    from spawnpit.engine import new_game
    from spawnpit.engine.flow import setup

    class LastSpace:  # the last space offered for a starting Hero; the first option anywhere else
        name = "test"

        def __init__(self) -> None:
            self.picked: list[str] = []

        def choose(self, game, side, label, options):
            if label == "choose space" and game.state["at"] == ["setup"]:
                self.picked.append(options[-1].id)
                return len(options) - 1
            return options.index(None) if None in options else 0

    heroes = LastSpace()
    game = new_game(pack, "lnoe:die_zombies_die", seed=2, policies={"heroes": heroes, "zombies": AIPolicy()})
    setup(game)
    board, units = game.board, game.state["units"]
    inside = [h for h in game.units_of_side("heroes") if board.building_of(units[h.id]["space"])]
    assert len(heroes.picked) == len(inside) >= 2  # every Hero in a Start: building was asked
    for h, picked in zip(inside, heroes.picked):
        building = board.building_of(units[h.id]["space"])
        assert units[h.id]["space"] == picked == sorted(board.spaces_of(building))[-1]
        assert picked != sorted(board.spaces_of(building))[0]


def _move_step(game, hero) -> None:
    """A Hero's whole Move Action step through the turn structure (start, the step, its action, end)."""
    from spawnpit.engine import flow

    phase = next(p for p in flow._blocks(game.model.system, "phase") if p["id"] == "hero_turn")
    step = next(s for s in flow._blocks(phase, "step") if s["id"] == "move")
    path = ["hero_turn", "move"]
    if not flow._moment(game, path, "start", {"unit": hero}):
        flow._act(game, phase, step, path, {"unit": hero})
    flow._moment(game, path, "end", {"unit": hero})


def test_out_of_control_takes_the_whole_move_action(pack):
    """A Hero who rolls first, before the choice of Move or Search, may meet Out of Control (a natural 1):
    the Hero lurches toward the Zombie and that is the whole Move Action, no Search after it."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import Script, to_hand

    game = bare_game(pack, zombies=["out_of_control"], needs=("gas_station",))
    game.policies["heroes"] = heroes = Script("Roll the movement die first, then choose Move or Search")
    billy = put(game, "billy", GAS + "g1")  # in the Gas Station: he could Search
    put(game, "zombie", GAS + "e1")
    to_hand(game, "out_of_control", "zombies")
    size = len(game.state["decks"]["hero_deck"]["draw"])
    dice(game, [1])
    _move_step(game, billy)
    steps = [e for e in game.entries if e["type"] == "move" and e["unit"] == billy.id]
    assert len(steps) == 1 and steps[0]["from"] == _at(game, "g1")  # one space toward the Zombie
    assert not any(label.startswith("hero_turn.move: action") for label, _ in heroes.asked)
    assert len(game.state["decks"]["hero_deck"]["draw"]) == size
    assert game.state["counters"]["move_lost"] == 0
    # session 25 (a play-test): the log said only "Move roll: 0"; it now says what happened and why
    said = [e["text"] for e in game.entries if e["type"] == "note"]
    assert "Out of Control: Billy lurches one space toward the nearest Zombie, and that is the whole Move Action" in said


def test_a_move_action_rolls_once_and_moves_by_that_roll(pack):
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import Script

    game = bare_game(pack, needs=("gas_station",))
    game.policies["heroes"] = Script(0, GAS + "c3")  # Move (the only action out in the street), then c3
    billy = put(game, "billy", GAS + "a3")
    left = dice(game, [2])
    _move_step(game, billy)
    assert not left and where(game, billy) == _at(game, "c3")
    assert [e["values"] for e in game.entries if e["type"] == "roll"] == [[2]]


def _free_card(pack, scenario: str):
    """Becky in the centre of town takes a free starting card, the Keys on top of the Hero deck."""
    game = bare_game(pack, scenario=scenario)
    becky = put(game, "becky", "town_center.b2")
    keys = game.table.ref("card", _on_top(game, "keys"))
    game.state["counters"]["bonus_draw"] = 1
    game.emit("hero_draw", {"finder": becky})
    return game, becky, keys


def _on_top(game, proto: str) -> str:
    cid = next(c for c, r in game.state["cards"].items() if r["proto"] == proto and r["where"] == "deck")
    pile = game.state["decks"]["hero_deck"]["draw"]
    pile.remove(cid)
    pile.append(cid)
    return cid


def test_a_free_starting_card_that_is_a_scenario_search_card_goes_back(pack):
    """Complete Rulebook §5.6.4.1 and §13.11.2: a Hero's free card may not be one of the scenario's
    Scenario Search Cards; it is shuffled back and another drawn. In Escape in the Truck the Keys are one."""
    game, becky, keys = _free_card(pack, "escape_in_the_truck")
    held = [c for c, r in game.state["cards"].items() if r["where"] in (becky.id, "side:heroes")]
    assert game.state["cards"][keys.id]["where"] == "deck" and keys.id in game.state["decks"]["hero_deck"]["draw"]
    assert len(held) == 1 and game.state["cards"][held[0]]["proto"] not in ("keys", "gasoline")
    assert any("shuffled back" in e.get("text", "") for e in game.entries)


def test_a_free_card_is_kept_where_it_is_no_scenario_search_card(pack):
    game, becky, keys = _free_card(pack, "die_zombies_die")  # no Scenario Search Cards
    assert game.state["cards"][keys.id]["where"] == becky.id


def test_a_search_finds_a_scenario_search_card_as_usual(pack):
    game = bare_game(pack, scenario="escape_in_the_truck", needs=("gas_station",))
    becky = put(game, "becky", GAS + "g1")
    keys = _on_top(game, "keys")
    game.emit("search", {"unit": becky})
    assert game.state["cards"][keys]["where"] == becky.id


def test_the_starting_heroes_free_card_is_never_a_scenario_search_card(pack):
    """Through the setup itself: a Hero whose Start: building is not on the board starts in the centre of
    town with a free card, and the Keys put on top of the Hero deck do not come to the Heroes."""
    from spawnpit.engine import new_game
    from spawnpit.engine.flow import setup

    tried = 0
    for seed in range(40):
        game = new_game(pack, "lnoe:escape_in_the_truck", seed=seed, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
        keys = _on_top(game, "keys")
        setup(game)
        centre = game.board.resolve("town_center.b2")
        heroes = [u for u, r in game.state["units"].items() if r["kind"] == "hero" and r["space"] == centre]
        if not heroes:
            continue
        tried += 1
        assert game.state["cards"][keys]["where"] not in (*heroes, "side:heroes")
    assert tried >= 3


def test_a_deck_of_nothing_but_search_cards_gives_no_free_card(pack):
    """The draw pile holds only the Keys: they go back each time, and after a bounded number of tries the
    Hero gets no free card (the Keys never come to him)."""
    game = bare_game(pack, scenario="escape_in_the_truck")
    becky = put(game, "becky", "town_center.b2")
    keys = _on_top(game, "keys")
    game.state["decks"]["hero_deck"]["draw"] = [keys]
    game.state["counters"]["bonus_draw"] = 1
    game.emit("hero_draw", {"finder": becky})
    assert game.state["cards"][keys]["where"] == "deck"
    assert not any(r["where"] in (becky.id, "side:heroes") for r in game.state["cards"].values())
    assert sum("no free card" in e.get("text", "") for e in game.entries) == 1


def test_resourceful_on_a_free_card_puts_a_search_card_back_and_keeps_the_other(pack):
    """Complete Rulebook §16.3.3: Resourceful works on free starting cards, but a Scenario Search Card
    among the two goes back into the deck (§5.6.4.1) rather than being kept or discarded."""
    from tests.engine.test_lnoe_faq import Script

    game = bare_game(pack, scenario="escape_in_the_truck")
    game.policies["heroes"] = Script("Resourceful: draw two and keep one")
    jake = put(game, "jake_cartwright", "town_center.b2")
    lighter = _on_top(game, "lighter")
    keys = _on_top(game, "keys")  # drawn first
    game.state["counters"]["bonus_draw"] = 1
    game.emit("hero_draw", {"finder": jake})
    assert game.state["cards"][keys]["where"] == "deck" and keys in game.state["decks"]["hero_deck"]["draw"]
    assert game.state["cards"][lighter]["where"] == jake.id


def test_no_hero_card_is_wasted_on_a_move_action_out_of_control_took(pack):
    """After Out of Control the Move Action is over: Ruuuuuun! is not offered for a roll nobody will use."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import Script, to_hand

    game = bare_game(pack, zombies=["out_of_control"], needs=("gas_station",))
    game.policies["heroes"] = heroes = Script("Roll the movement die first, then choose Move or Search")
    billy = put(game, "billy", GAS + "g1")
    put(game, "zombie", GAS + "e1")
    to_hand(game, "out_of_control", "zombies")
    run = to_hand(game, "ruuuuuun", "heroes")
    dice(game, [1])
    _move_step(game, billy)
    assert not any(run in [getattr(o, "id", None) for o in options] for _, options in heroes.asked)
    assert game.state["cards"][run]["where"] == "side:heroes"


def test_no_card_or_blitz_is_offered_for_a_move_out_of_control_took(pack):
    """Session 26's review: with Courage, Escape Through the Windows and Blitz! asked on the movement roll,
    they came after Out of Control had taken the move, for nothing (Johnny out in the street, a natural 1)."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import Script, to_hand

    game = bare_game(pack, zombies=["out_of_control"], needs=("gas_station",))
    game.policies["heroes"] = heroes = Script(0)  # Move (out in the street: no roll-first question)
    johnny = put(game, "johnny", GAS + "a3")
    put(game, "zombie", GAS + "a5")
    to_hand(game, "out_of_control", "zombies")
    cards = [to_hand(game, card, "heroes") for card in ("courage", "escape_through_the_windows")]
    dice(game, [1])
    _move_step(game, johnny)
    plays = [e["card"] for e in game.entries if e["type"] == "play"]
    assert plays == ["out_of_control"]
    asked = [label for label, _ in heroes.asked]
    assert asked == ["hero_turn.move: action of " + johnny.id], asked  # nothing after Out of Control
    assert all(game.state["cards"][c]["where"] == "side:heroes" for c in cards)


POOL_SCENARIO = """import lnoe
using lnoe

scenario "Pool Check" {
  board small_town
  rounds 10
  heroes 4
  search_cards "Keys"
  rules hero_card_pool(x: 4)
  heroes win at sundown
}
"""


def test_the_hero_card_pool_puts_a_search_card_back(tmp_path):
    """Hero Card Pool (x): the pool drawn at setup keeps no Scenario Search Card (here the Keys, put on
    top of the deck): it goes back and another card takes its place."""
    from spawnpit.compiler import compile_paths
    from spawnpit.engine import new_game

    (tmp_path / "pack.toml").write_text('name = "pool-check"\n')
    (tmp_path / "main.pit").write_text(POOL_SCENARIO)
    result = compile_paths([tmp_path])
    assert result.ok, [f"{d.code} {d.message}" for d in result.diagnostics]
    game = new_game(result.pack, "pool_check", seed=1, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
    keys = _on_top(game, "keys")
    pool = [e for e in game.model.hooks.get("setup", ()) if e.rule.get("title", "").startswith("Hero Card Pool")]
    assert pool
    for hook in pool:
        game._run(hook, {})
    hand = [c for c, r in game.state["cards"].items() if r["where"] == "side:heroes"]
    assert len(hand) == 4 and keys not in hand and game.state["cards"][keys]["where"] == "deck"
