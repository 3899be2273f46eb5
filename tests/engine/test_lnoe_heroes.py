"""The Last Night on Earth Hero side as the built-in content plays it (base rulebook, Hero Turn steps 1-4,
Items, Zombie Heroes, Random Building, the Manor House, the five scenarios' objectives): forced dice,
scripted answers, exact outcomes."""

from __future__ import annotations

from spawnpit.engine import new_game
from spawnpit.engine.interp import EndAction
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import action_block, bare_game, dice, put


def space_of(game, building: str, index: int = 0) -> str:
    name = next(b for b in game.board.buildings if b.endswith("." + building))
    return sorted(game.board.spaces_of(name))[index]


def give(game, card: str, unit: Ref) -> Ref:
    cid = next(c for c, r in game.state["cards"].items() if r["proto"] == card and r["where"] == "deck")
    game.state["decks"][game.state["cards"][cid]["deck"]]["draw"].remove(cid)
    game.state["cards"][cid]["where"] = unit.id
    return Ref("card", cid)


def to_discard(game, card: str) -> str:
    cid = next(c for c, r in game.state["cards"].items() if r["proto"] == card and r["where"] == "deck")
    pile = game.state["decks"][game.state["cards"][cid]["deck"]]
    pile["draw"].remove(cid)
    pile["discard"].append(cid)
    game.state["cards"][cid]["where"] = "discard"
    return cid


def on_top(game, *cards: str) -> list[str]:
    """Put these cards on top of their deck, the first one drawn first."""
    ids = []
    for card in reversed(cards):
        cid = next(c for c, r in game.state["cards"].items() if r["proto"] == card and r["where"] == "deck")
        pile = game.state["decks"][game.state["cards"][cid]["deck"]]["draw"]
        pile.remove(cid)
        pile.append(cid)
        ids.append(cid)
    return list(reversed(ids))


def held(game, unit: Ref) -> list[str]:
    return sorted(r["proto"] for r in game.state["cards"].values() if r["where"] == unit.id)


def where(game, unit: Ref):
    return game.state["units"][unit.id]["space"]


def notes(game) -> list[str]:
    return [e["text"] for e in game.entries if e["type"] == "note"]


def rolls(game) -> list[list[int]]:
    return [e["values"] for e in game.entries if e["type"] == "roll"]


def emit_step(game, event: str, params: dict) -> None:
    """A step's start as the flow raises it: a hook that says `end` skips the rest."""
    try:
        game.emit(event, params)
    except EndAction:
        pass


# ---- 3) Ranged Attack ------------------------------------------------------------------------------

def test_the_sheriff_hits_a_zombie_next_to_him_and_the_revolver_runs_dry_on_a_1(pack):
    game = bare_game(pack, heroes=[0, 0])  # the Revolver, the only target
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b1")
    revolver = give(game, "revolver", sheriff)
    left = dice(game, [4], [1])  # 4+ hits; the ammo roll of 1 empties it
    game.emit("shoot", {"unit": sheriff})
    assert not left
    assert where(game, zombie) is None
    assert game.state["counters"]["zombies_killed"] == 1
    assert "Hit" in notes(game) and "Out of ammo: the Revolver is discarded" in notes(game)
    assert game.state["cards"][revolver.id]["where"] == "discard"


def test_a_miss_leaves_the_zombie_and_a_good_ammo_roll_keeps_the_revolver(pack):
    game = bare_game(pack, heroes=[0, 0])
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    give(game, "revolver", sheriff)
    left = dice(game, [3], [2])
    game.emit("shoot", {"unit": sheriff})
    assert not left and "Missed" in notes(game)
    assert where(game, zombie) == "town_center.b2"
    assert held(game, sheriff) == ["revolver"]


def test_no_shot_at_a_zombie_out_of_range(pack):
    game = bare_game(pack, heroes=[0, 0], needs=("the_bank",))
    street = next(b for b in game.board.buildings if b.endswith(".the_bank")).rsplit(".", 1)[0]
    sheriff = put(game, "sheriff_anderson", f"{street}.a3")
    zombie = put(game, "zombie", f"{street}.e3")  # four spaces along the open street; the Revolver reaches three
    assert game.table.sight(sheriff, zombie) and game.table.apart(sheriff, zombie) == 4
    give(game, "revolver", sheriff)
    dice(game)
    game.emit("shoot", {"unit": sheriff})
    assert rolls(game) == [] and not [e for e in game.entries if e["type"] == "choice"]


def test_walls_the_hero_does_not_touch_block_the_shot_and_range_counts_across_walls(pack):
    game = bare_game(pack, heroes=[0, 0], needs=("police_station",))
    board = game.board
    pairs = [(a, b) for a in board.spaces for b in board.spaces
             if a != b and board.distance(a, b, through=("open", "door", "window", "wall", "corner")) == 1]
    blind = next((a, b) for a, b in pairs if not board.line_of_sight(a, b))
    walled = next((a, b) for a, b in pairs if board.line_of_sight(a, b) and board.distance(a, b) > 1)
    for (a, b), shot in ((blind, False), (walled, True)):
        game = bare_game(pack, heroes=[0, 0], needs=("police_station",))
        sheriff, zombie = put(game, "sheriff_anderson", a), put(game, "zombie", b)
        give(game, "revolver", sheriff)
        dice(game, [6], [6])
        game.emit("shoot", {"unit": sheriff})
        assert (where(game, zombie) is None) == shot, (a, b)


def test_father_joseph_never_fires_a_gun_but_sally_fires_the_revolver_and_not_the_shotgun(pack):
    game = bare_game(pack, heroes=[0, 0])
    joseph = put(game, "father_joseph", "town_center.b2")
    put(game, "zombie", "town_center.b2")
    give(game, "revolver", joseph)
    dice(game)
    game.emit("shoot", {"unit": joseph})
    assert rolls(game) == []

    game = bare_game(pack, heroes=[0, 0])
    sally = put(game, "sally", "town_center.b2")
    put(game, "zombie", "town_center.b2")
    give(game, "pump_shotgun", sally)
    give(game, "revolver", sally)
    left = dice(game, [5], [6])
    game.emit("shoot", {"unit": sally})
    assert not left
    weapons = [e for e in game.entries if e["type"] == "choice" and e["label"] == "choose card"]
    assert weapons[0]["options"] == 2 and weapons[0]["picked"] is not None  # only the Revolver, or pass; fired
    assert game.state["counters"]["zombies_killed"] == 1


def test_the_pump_shotgun_rolls_to_hit_every_zombie_in_the_target_space(pack):
    game = bare_game(pack, heroes=[0, 0])
    hero = put(game, "jake_cartwright", "town_center.b2")
    zombies = [put(game, "zombie", "town_center.c2") for _ in range(3)]
    give(game, "pump_shotgun", hero)
    left = dice(game, [3], [2], [6], [3])  # 3+ hits: two of three; ammo roll 3 keeps it
    game.emit("shoot", {"unit": hero})
    assert not left
    assert [where(game, z) for z in zombies] == [None, "town_center.c2", None]
    assert held(game, hero) == ["pump_shotgun"]


def test_dynamite_needs_a_fire_item_and_kills_every_model_in_the_space(pack):
    game = bare_game(pack, heroes=[0, 0])
    hero = put(game, "jake_cartwright", "town_center.b2")
    put(game, "zombie", "town_center.c2")
    give(game, "dynamite", hero)
    dice(game)
    game.emit("shoot", {"unit": hero})
    assert rolls(game) == []
    give(game, "lighter", hero)
    victims = [put(game, "zombie", "town_center.c2"), put(game, "becky", "town_center.c2")]
    left = dice(game, [4])
    game.emit("shoot", {"unit": hero})
    assert not left and "The Dynamite goes off" in notes(game)
    assert all(where(game, v) is None for v in victims)
    assert held(game, hero) == ["lighter"]


def test_a_zombie_hero_hit_takes_one_wound(pack):
    game = bare_game(pack, scenario="burn_em_out", heroes=[0, 0])
    hero = put(game, "sheriff_anderson", "town_center.b2")
    zh = put(game, "zombie_hero", "town_center.b2")
    game.state["units"][zh.id]["stats"]["health"] = 3
    give(game, "revolver", hero)
    dice(game, [5], [4])
    game.emit("shoot", {"unit": hero})
    assert game.state["units"][zh.id]["wounds"] == 1 and where(game, zh) == "town_center.b2"


def test_a_weapon_fired_this_turn_and_handed_on_cannot_be_fired_again(pack):
    game = bare_game(pack, heroes=[0, 0, 0, 0, 1])
    billy, sally = put(game, "billy", "town_center.b2"), put(game, "sally", "town_center.b2")
    put(game, "zombie", "town_center.a1")
    revolver = give(game, "revolver", billy)
    dice(game, [1], [3])  # a miss; the Revolver keeps its ammo
    game.emit("shoot", {"unit": billy})
    game.emit("exchange_items", {"unit": billy})  # Billy hands the Revolver to Sally
    assert game.state["cards"][revolver.id]["where"] == sally.id
    dice(game)
    game.emit("shoot", {"unit": sally})
    assert len(rolls(game)) == 2
    game.emit("hero_turn.end", {})
    assert not game.state["cards"][revolver.id]["markers"].get("passed_on")


# ---- 2) Exchange Items and the carrying limit -------------------------------------------------------

def test_heroes_in_the_same_space_exchange_items_both_ways(pack):
    game = bare_game(pack, heroes=[0, 0, 1, 2])  # give the bat, to Sally; take the Torch; then stop
    billy, sally = put(game, "billy", "town_center.b2"), put(game, "sally", "town_center.b2")
    give(game, "baseball_bat", billy)
    give(game, "torch", sally)
    game.emit("exchange_items", {"unit": billy})
    assert held(game, billy) == ["torch"] and held(game, sally) == ["baseball_bat"]


def test_a_fifth_item_makes_a_lone_hero_discard_down_to_four(pack):
    game = bare_game(pack, heroes=[1])  # drop the second of the five Items
    becky = put(game, "becky", "town_center.b2")
    for card in ("lighter", "keys", "flashlight", "first_aid_kit", "fire_extinguisher"):
        give(game, card, becky)
    game.emit("load_check", {"carrier": becky})
    assert len(held(game, becky)) == 4
    assert len(game.state["decks"]["hero_deck"]["discard"]) == 1


def test_a_third_weapon_may_be_handed_to_a_hero_in_the_space_instead(pack):
    game = bare_game(pack, heroes=[0, 1, 0])  # the first weapon; hand it over; to Jenny
    jake, jenny = put(game, "jake_cartwright", "town_center.b2"), put(game, "jenny", "town_center.b2")
    for card in ("baseball_bat", "meat_cleaver", "chainsaw"):
        give(game, card, jake)
    game.emit("load_check", {"carrier": jake})
    assert held(game, jake) == ["chainsaw", "meat_cleaver"] and held(game, jenny) == ["baseball_bat"]


# ---- 1) Search, Pick Up, the Hero deck running out --------------------------------------------------

def test_a_search_puts_an_item_on_the_hero_and_an_event_in_the_heroes_hand(pack):
    game = bare_game(pack, needs=("church",))
    joseph = put(game, "father_joseph", space_of(game, "church"))
    item, event = on_top(game, "lighter", "courage")
    game.emit("search", {"unit": joseph})
    game.emit("search", {"unit": joseph})
    assert game.state["cards"][item]["where"] == joseph.id
    assert game.state["cards"][event]["where"] == "side:heroes"


def test_pick_up_takes_the_pump_shotgun_from_the_discard_pile_at_the_police_station(pack):
    game = bare_game(pack, heroes=[0, 0], needs=("police_station",))
    hero = put(game, "becky", space_of(game, "police_station"))
    cid = to_discard(game, "pump_shotgun")
    size = len(game.state["decks"]["hero_deck"]["draw"])
    emit_step(game, "search.start", {"unit": hero})
    assert game.state["cards"][cid]["where"] == hero.id
    assert cid not in game.state["decks"]["hero_deck"]["discard"]
    assert len(game.state["decks"]["hero_deck"]["draw"]) == size


def test_no_pick_up_is_offered_when_the_card_is_not_in_the_discard_pile(pack):
    game = bare_game(pack, needs=("police_station",))
    hero = put(game, "becky", space_of(game, "police_station"))
    emit_step(game, "search.start", {"unit": hero})
    assert not [e for e in game.entries if e["type"] == "choice"]


def test_an_empty_hero_deck_is_not_reshuffled_and_a_search_finds_nothing(pack):
    game = bare_game(pack, needs=("church",))
    hero = put(game, "becky", space_of(game, "church"))
    pile = game.state["decks"]["hero_deck"]
    pile["discard"], pile["draw"] = pile["discard"] + pile["draw"], []
    game.emit("search", {"unit": hero})
    assert "The Hero deck has run out: the Search finds nothing" in notes(game)
    assert held(game, hero) == [] and pile["draw"] == []


# ---- Hero abilities ---------------------------------------------------------------------------------

def test_man_of_action_takes_a_revolver_from_the_discard_pile_in_place_of_a_search(pack):
    game = bare_game(pack, heroes=[0, 0])
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    cid = to_discard(game, "revolver")
    emit_step(game, "search.start", {"unit": sheriff})
    assert game.state["cards"][cid]["where"] == sheriff.id


def _offers(game) -> list[str]:
    return [e["label"] for e in game.entries if e["type"] == "choice"]


def _becky_at_church(pack, answers: list, flashlights: int = 0):
    """Becky in the Church, with a number of Flashlights, the Hero player's answers scripted."""
    game = bare_game(pack, heroes=answers, needs=("church",))
    becky = put(game, "becky", space_of(game, "church"))
    for _ in range(flashlights):
        give(game, "flashlight", becky)
    return game, becky


def test_the_sheriff_enters_play_with_a_revolver(pack):
    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    game.emit("hero.enters_play", {"unit": sheriff})
    assert held(game, sheriff) == ["revolver"]


def test_jake_draws_two_keeps_one_and_discards_the_other(pack):
    game = bare_game(pack, heroes=[0, 1], needs=("gas_station",))  # Resourceful, then the second card
    jake = put(game, "jake_cartwright", space_of(game, "gas_station"))
    first, second = on_top(game, "keys", "lighter")
    game.emit("search", {"unit": jake})
    assert game.state["cards"][second]["where"] == jake.id
    assert game.state["cards"][first]["where"] == "discard"


def test_jake_may_draw_one_card_instead(pack):
    game = bare_game(pack, heroes=[1], needs=("gas_station",))
    jake = put(game, "jake_cartwright", space_of(game, "gas_station"))
    first, second = on_top(game, "keys", "lighter")
    game.emit("search", {"unit": jake})
    assert held(game, jake) == ["keys"]
    assert game.state["cards"][second]["where"] == "deck"  # the second card was never drawn
    assert not any(e["type"] == "discard" for e in game.entries)


def test_jake_with_a_flashlight_may_still_be_resourceful_and_then_throw_the_kept_card_away(pack):
    # Resourceful; keep the second card (the Lighter); the Flashlight throws it away
    game = bare_game(pack, heroes=[0, 1, 1], needs=("gas_station",))
    jake = put(game, "jake_cartwright", space_of(game, "gas_station"))
    flashlight = give(game, "flashlight", jake)
    keys, lighter, bat = on_top(game, "keys", "lighter", "baseball_bat")
    game.emit("search", {"unit": jake})
    assert held(game, jake) == ["baseball_bat", "flashlight"]
    assert [game.state["cards"][c]["where"] for c in (keys, lighter)] == ["discard", "discard"]
    assert _offers(game) == ["choose an option", "choose card to keep (the other is discarded)", "choose an option"]  # no offer for the fresh card
    assert game.state["cards"][flashlight.id]["markers"].get("used")


def test_the_flashlight_throws_a_drawn_card_away_for_a_fresh_one(pack):
    game, becky = _becky_at_church(pack, [1], flashlights=1)
    first, second = on_top(game, "keys", "lighter")
    game.emit("search", {"unit": becky})
    assert game.state["cards"][first]["where"] == "discard"
    assert held(game, becky) == ["flashlight", "lighter"]


def test_sally_is_lucky_the_zombie_rerolls_and_loses(pack):
    game = bare_game(pack, heroes=[0])
    sally, zombie = put(game, "sally", "town_center.b2"), put(game, "zombie", "town_center.b2")
    left = dice(game, [2, 4], [5], [1])  # the Zombie's 5 is re-rolled to a 1
    game.emit("fight", {"fighter": sally, "foe": zombie})
    assert not left
    assert notes(game)[-1] == "The Hero wins: the Zombie is fended off"
    assert game.state["units"][sally.id]["wounds"] == 0


def test_jenny_is_handy_and_saves_her_bat_by_adding_one_to_the_break_test(pack):
    game = bare_game(pack, heroes=[0, 0])  # use the bat; Handy +1
    jenny, zombie = put(game, "jenny", "town_center.b2"), put(game, "zombie", "town_center.b2")
    bat = give(game, "baseball_bat", jenny)
    left = dice(game, [2, 5], [4], [5], [1])  # the bat's die makes doubles; the break test rolls 1
    game.emit("fight", {"fighter": jenny, "foe": zombie})
    assert not left and where(game, zombie) is None
    assert game.state["cards"][bat.id]["where"] == jenny.id
    assert game.state["counters"]["break_roll"] == 2


def test_without_handy_a_1_breaks_the_bat(pack):
    game = bare_game(pack, heroes=[0])
    billy, zombie = put(game, "billy", "town_center.b2"), put(game, "zombie", "town_center.b2")
    bat = give(game, "baseball_bat", billy)
    dice(game, [2, 5], [4], [5], [1])
    game.emit("fight", {"fighter": billy, "foe": zombie})
    assert game.state["cards"][bat.id]["where"] == "discard" and "The Baseball Bat breaks" in notes(game)


def test_jenny_rolls_a_third_fight_die_in_the_cornfield(pack):
    game = bare_game(pack, needs=("farmhouse",))
    field = next(s for s in game.board.spaces if game.board.space(s).terrain == "cornfield")
    jenny, zombie = put(game, "jenny", field), put(game, "zombie", field)
    left = dice(game, [2, 3], [2], [3])  # the third die makes doubles
    game.emit("fight", {"fighter": jenny, "foe": zombie})
    assert not left and game.state["counters"]["hero_dice"] == [2, 3, 3]
    assert where(game, zombie) is None


def test_the_meat_cleaver_slays_on_a_6_before_the_fight_is_resolved(pack):
    game = bare_game(pack, heroes=[0])
    hero, zombie = put(game, "becky", "town_center.b2"), put(game, "zombie", "town_center.b2")
    give(game, "meat_cleaver", hero)
    left = dice(game, [6, 1], [6], [3])  # a tie the Zombie would win; the cleaver's break test holds
    game.emit("fight", {"fighter": hero, "foe": zombie})
    assert not left and where(game, zombie) is None
    assert game.state["units"][hero.id]["wounds"] == 0


# ---- Zombie Heroes and new Heroes (Advanced Game) ---------------------------------------------------

def test_a_hero_killed_in_the_black_zone_rises_as_a_zombie_hero_and_a_new_hero_enters(pack):
    game = bare_game(pack, scenario="burn_em_out", heroes=[0, 0])  # centre of town, its only space
    game.state["tracks"]["sun"] = 15
    billy = put(game, "billy", "town_center.a1")
    zombie = put(game, "zombie", "town_center.a1")
    game.wound(billy, 2, game._plain_ctx(), zombie)
    risen = [u for u, r in game.state["units"].items() if r["kind"] == "zombie_hero" and r["space"]]
    assert len(risen) == 1
    record = game.state["units"][risen[0]]
    assert record["space"] == "town_center.a1" and record["stats"]["health"] == 2
    assert record["markers"]["zombie_hero_marker"] == 1
    assert game.state["units"][billy.id]["mode"] == "zombified"
    newcomers = [u for u, r in game.state["units"].items() if r["kind"] == "hero" and r["space"]]
    assert len(newcomers) == 1 and game.state["units"][newcomers[0]]["proto"] != "billy"
    assert game.state["units"][newcomers[0]]["space"] == "town_center.b2"
    assert held(game, Ref("unit", newcomers[0])) or any(r["where"] == "side:heroes" for r in game.state["cards"].values())
    assert game.state["counters"]["heroes_killed"] == 1
    assert any(e.get("text") == "Billy rises as a Zombie Hero" for e in game.entries)  # the log says who


def test_out_of_the_black_zone_or_in_the_basic_game_a_dead_hero_stays_dead(pack):
    for scenario, sun in (("burn_em_out", 13), ("die_zombies_die", 15)):
        game = bare_game(pack, scenario=scenario)
        game.state["tracks"]["sun"] = sun
        billy = put(game, "billy", "town_center.a1")
        game.wound(billy, 2, game._plain_ctx(), None)
        assert not [r for r in game.state["units"].values() if r["kind"] == "zombie_hero"]
        assert [r for r in game.state["units"].values() if r["space"]] == []


def test_with_the_complete_rulebooks_always_rules_a_hero_killed_by_zombies_rises_at_any_time(pack):
    # CR §16.1 Always Zombie Heroes: any time of the game, but only when killed by Zombies; the 2007 Basic
    # Game (complete_rulebook 0, the default) never raises one (the test above).
    for killer, rises in (("zombie", True), (None, False)):
        game = bare_game(pack, scenario="die_zombies_die", heroes=[0, 0])
        game.state["counters"]["complete_rulebook"] = 1
        game.state["tracks"]["sun"] = 5
        billy = put(game, "billy", "town_center.a1")
        by = put(game, killer, "town_center.a1") if killer else None
        game.wound(billy, 2, game._plain_ctx(), by)
        risen = [r for r in game.state["units"].values() if r["kind"] == "zombie_hero" and r["space"]]
        assert [r["space"] for r in risen] == (["town_center.a1"] if rises else [])
        assert (game.state["units"][billy.id].get("mode") == "zombified") is rises


def test_a_zombie_hero_moves_d3_spaces_toward_the_heroes(pack):
    game = bare_game(pack, scenario="burn_em_out", needs=("police_station",))
    station = space_of(game, "police_station")
    put(game, "becky", station)
    zh = put(game, "zombie_hero", "town_center.c3")
    far = game.board.distance("town_center.c3", station, through=("open", "door", "window", "wall", "corner"))
    assert far >= 3
    dice(game, [3])  # D3 comes up 3
    game.emit("zombie_turn.move_zombies", {})
    moved = [e for e in game.entries if e["type"] == "move" and e["unit"] == zh.id]
    assert len(moved) == 3


def test_the_random_building_roll_hero_s_choice_and_an_outer_board(pack):
    game = bare_game(pack, heroes=[2])
    dice(game, [1])  # Hero's Choice: the third building with a number set
    game.emit("random_building", {})
    marked = [b for b, r in game.state.get("buildings", {}).items() if r["markers"].get("picked_building")]
    choosable = sorted(b for b, info in game.board.buildings.items() if info.roll)
    assert marked == [choosable[2]]

    game = bare_game(pack)
    dice(game, [3], [5])
    game.emit("random_building", {})
    marked = [b for b, r in game.state.get("buildings", {}).items() if r["markers"].get("picked_building")]
    assert len(marked) == 1
    info = game.board.buildings[marked[0]]
    assert info.roll[0] <= 5 <= info.roll[-1]


# ---- The Manor House --------------------------------------------------------------------------------

def test_the_manor_house_corner_wall_stops_heroes_cutting_across_the_centre_but_not_sight(pack):
    game = bare_game(pack, scenario="defend_the_manor_house")
    from spawnpit.engine import movement

    hero = put(game, "becky", "manor_house_board.b2")
    assert movement.steps(game, hero, "manor_house_board.c3") == 2
    assert game.board.line_of_sight("manor_house_board.b2", "manor_house_board.c3")


def test_heroes_are_not_offered_a_search_in_the_manor_house(pack):
    """The Manor House is a building, but a Hero there is not offered Search at all (before, Search was
    offered and then wasted the Move Action); a Hero in an ordinary building still is."""
    from spawnpit.engine.flow import _allowed

    game = bare_game(pack, scenario="defend_the_manor_house")
    game.emit("setup")
    search = action_block(game, "search")
    inside = put(game, "becky", "manor_house_board.b2")
    assert game.state["units"][inside.id]["space"] and not _allowed(game, search, inside)
    shop = next(s for s in game.board.spaces if game.board.building_of(s) and not s.startswith("manor_house_board."))
    outside = put(game, "billy", shop)
    assert _allowed(game, search, outside)


# ---- The five scenarios' objectives ----------------------------------------------------------------

def test_die_zombies_die_the_fifteenth_kill_wins(pack):
    game = bare_game(pack)
    game.state["counters"]["zombies_killed"] = 14
    billy, zombie = put(game, "billy", "town_center.b2"), put(game, "zombie", "town_center.b2")
    dice(game, [3, 3], [1])
    game.emit("fight", {"fighter": billy, "foe": zombie})
    assert game.state["result"]["winner"] == "heroes"


def test_die_zombies_die_two_dead_heroes_win_for_the_zombies(pack):
    game = bare_game(pack)
    for proto in ("billy", "sally"):
        hero = put(game, proto, "town_center.b2")
        game.wound(hero, 2, game._plain_ctx(), None)
    assert game.state["result"]["winner"] == "zombies"


def test_die_zombies_die_sets_the_advanced_cards_aside(pack):
    game = new_game(pack, "lnoe:die_zombies_die", seed=3)
    from spawnpit.engine.flow import setup

    setup(game)
    boxed = {r["proto"] for r in game.state["cards"].values() if r["where"] == "box"}
    assert {"dynamite", "gasoline", "old_betsy"} <= boxed
    assert "revolver" not in boxed


def test_escape_in_the_truck_fill_it_then_two_heroes_with_the_keys_drive_away(pack):
    game = bare_game(pack, scenario="escape_in_the_truck", heroes=[0])
    game.state["spaces"]["town_center.b2"] = {"markers": {"truck": 1}}
    driver, friend = put(game, "jake_cartwright", "town_center.b2"), put(game, "becky", "town_center.b2")
    give(game, "gasoline", driver)
    give(game, "keys", friend)
    emit_step(game, "hero_turn.move.start", {"unit": driver})
    assert held(game, driver) == [] and game.state["counters"]["fuel_pending"] == 1
    game.emit("hero_turn.end", {})
    assert game.state["counters"]["truck_filled"] == 1
    assert game.state["result"]["winner"] == "heroes"


def test_escape_in_the_truck_a_filler_killed_before_the_turn_ends_fills_nothing(pack):
    game = bare_game(pack, scenario="escape_in_the_truck", heroes=[0])
    game.state["spaces"]["town_center.b2"] = {"markers": {"truck": 1}}
    driver = put(game, "jake_cartwright", "town_center.b2")
    give(game, "gasoline", driver)
    emit_step(game, "hero_turn.move.start", {"unit": driver})
    game.wound(driver, 3, game._plain_ctx(), None)
    game.emit("hero_turn.end", {})
    assert game.state["counters"]["truck_filled"] == 0 and game.state["result"] is None


def test_save_the_townsfolk_four_townsfolk_at_sundown(pack):
    game = bare_game(pack, scenario="save_the_townsfolk", needs=("church",))
    hero = put(game, "becky", space_of(game, "church"))
    folk = ["jeb_the_grease_monkey", "farmer_sty", "principal_gomez", "deputy_taylor"]
    on_top(game, *folk)
    for _ in folk:
        game.emit("search", {"unit": hero})
    assert game.state["counters"]["townsfolk_held"] == 4
    game.emit("sundown", {})
    assert game.state["result"]["winner"] == "heroes"


def test_save_the_townsfolk_three_are_not_enough(pack):
    from tests.engine.test_lnoe_faq import to_hand

    game = bare_game(pack, scenario="save_the_townsfolk")
    for folk in ("jeb_the_grease_monkey", "farmer_sty", "principal_gomez"):
        to_hand(game, folk, "heroes")
    game.emit("sundown", {})
    assert game.state["result"]["winner"] == "zombies"


def _three_townsfolk_found(pack):
    """Save the Townsfolk with three Townsfolk found by Becky's Searches (counted however it is done),
    Just What I Needed in the Heroes' hand, and the answers to come scripted."""
    from tests.engine.test_lnoe_faq import Script, to_hand

    game = bare_game(pack, scenario="save_the_townsfolk", needs=("church",))
    game.policies["heroes"] = Script()
    becky = put(game, "becky", space_of(game, "church"))
    on_top(game, "jeb_the_grease_monkey", "farmer_sty", "deputy_taylor")
    for _ in range(3):
        game.emit("search", {"unit": becky})
    assert game.state["counters"]["townsfolk_held"] == 3
    to_hand(game, "just_what_i_needed", "heroes")
    return game, becky


def test_save_the_townsfolk_a_townsfolk_taken_back_from_the_discard_pile_counts(pack):
    """Dawn counts the unplayed Townsfolk the Heroes hold, however they came to the hand: one a Zombie
    card threw away and Just What I Needed took back is the fourth (before, only cards drawn were
    counted, so it was missed and the Heroes lost)."""
    from tests.engine.test_lnoe_faq import Script

    game, becky = _three_townsfolk_found(pack)
    hyde = to_discard(game, "mr_hyde_the_shop_teacher")
    game.policies["heroes"] = Script("just_what_i_needed", "mr_hyde_the_shop_teacher")
    emit_step(game, "hero_turn.move.start", {"unit": becky})
    assert game.state["cards"][hyde]["where"] == "side:heroes"
    game.emit("hero_turn.end", {})
    assert game.state["counters"]["townsfolk_held"] == 4
    game.emit("sundown", {})
    assert game.state["result"]["winner"] == "heroes"


def test_save_the_townsfolk_a_townsfolk_played_and_taken_back_no_longer_counts(pack):
    """A Townsfolk played for its effect no longer counts, even once Just What I Needed brings it back
    to the hand: four held, but one of them spent, is not enough at dawn."""
    from tests.engine.test_lnoe_faq import Script, to_hand

    game, becky = _three_townsfolk_found(pack)
    doc = to_hand(game, "doc_brody", "heroes")
    game.emit("hero_turn.end", {})
    assert game.state["counters"]["townsfolk_held"] == 4  # Doc Brody came by hand: counted at the turn's end
    game.wound(becky, 1, game._plain_ctx())
    game.policies["heroes"] = Script("doc_brody")
    game.emit("hero_turn.end", {})  # Doc Brody fully heals her: played, so spent
    assert game.state["cards"][doc]["where"] == "discard" and game.state["counters"]["townsfolk_held"] == 3
    game.policies["heroes"] = Script("just_what_i_needed", "doc_brody")
    emit_step(game, "hero_turn.move.start", {"unit": becky})
    assert game.state["cards"][doc]["where"] == "side:heroes"
    game.emit("sundown", {})
    assert game.state["counters"]["townsfolk_held"] == 3 and game.state["result"]["winner"] == "zombies"


def test_burn_em_out_three_pits_blown_wins(pack):
    game = bare_game(pack, scenario="burn_em_out", heroes=[0, 0, 0])
    pits = sorted(game.board.spawn_points)[:3]
    for n, pit in enumerate(pits):
        hero = put(game, ["billy", "sally", "jenny"][n], pit)
        give(game, ["dynamite", "gasoline", "gasoline"][n], hero)
        emit_step(game, "hero_turn.move.start", {"unit": hero})
        assert game.state["spaces"][pit]["markers"]["destroyed_pit"] == 1
        assert game.state["result"] is None or n == 2
        game.emit("hero_turn.end", {})
    assert game.state["counters"]["pits_destroyed"] == 3
    assert game.state["result"]["winner"] == "heroes"


def test_defend_the_manor_house_nine_zombies_inside_overrun_it(pack):
    game = bare_game(pack, scenario="defend_the_manor_house")
    rooms = ["manor_house_board.a1", "manor_house_board.b2", "manor_house_board.d4"]
    for n in range(8):
        put(game, "zombie", rooms[n % 3])
    game.emit("round.start", {})
    assert game.state["result"] is None
    put(game, "zombie", rooms[0])
    game.emit("round.start", {})
    assert game.state["result"]["winner"] == "zombies"


def test_a_chainsaw_out_of_fuel_is_refuelled_with_gasoline_instead_of_lost(pack):
    game = bare_game(pack, scenario="escape_in_the_truck", heroes=[0, 0, 0])  # bonus; refuel; that Gasoline
    billy, zombie = put(game, "billy", "town_center.b2"), put(game, "zombie", "town_center.b2")
    saw, gas = give(game, "chainsaw", billy), give(game, "gasoline", billy)
    left = dice(game, [2, 5], [4], [5, 3], [1])  # two more dice make doubles; the fuel test rolls a 1
    game.emit("fight", {"fighter": billy, "foe": zombie})
    assert not left and where(game, zombie) is None
    assert game.state["cards"][saw.id]["where"] == billy.id  # kept: the Gasoline went in instead
    assert game.state["cards"][gas.id]["where"] == "discard"
    assert "The Chainsaw is refuelled" in notes(game)


def test_a_chainsaw_without_gasoline_is_lost_on_a_1(pack):
    game = bare_game(pack, scenario="escape_in_the_truck", heroes=[0])
    billy, zombie = put(game, "billy", "town_center.b2"), put(game, "zombie", "town_center.b2")
    saw = give(game, "chainsaw", billy)
    dice(game, [2, 5], [4], [5, 3], [1])
    game.emit("fight", {"fighter": billy, "foe": zombie})
    assert game.state["cards"][saw.id]["where"] == "discard"


def test_a_rifle_shot_of_6_also_hits_a_second_zombie_next_to_the_target(pack):
    game = bare_game(pack, scenario="escape_in_the_truck")  # the Rifle is an Advanced card
    hero = put(game, "jake_cartwright", "town_center.b2")
    target, second = put(game, "zombie", "town_center.c2"), put(game, "zombie", "town_center.c3")
    give(game, "rifle", hero)
    left = dice(game, [6])
    game.emit("shoot", {"unit": hero})
    assert not left
    assert where(game, target) is None and where(game, second) is None
    assert held(game, hero) == ["rifle"]


def test_a_rifle_hit_below_6_wounds_the_target_only(pack):
    game = bare_game(pack, scenario="escape_in_the_truck")
    hero = put(game, "jake_cartwright", "town_center.b2")
    target, second = put(game, "zombie", "town_center.c2"), put(game, "zombie", "town_center.c3")
    give(game, "rifle", hero)
    dice(game, [5])
    game.emit("shoot", {"unit": hero})
    assert where(game, target) is None and where(game, second) == "town_center.c3"


def test_a_flashlight_found_on_a_search_is_simply_kept(pack):
    game, becky = _becky_at_church(pack, [1])  # a 1 would throw a card away, were it offered
    on_top(game, "flashlight", "lighter")
    game.emit("search", {"unit": becky})
    assert held(game, becky) == ["flashlight"] and _offers(game) == []


def test_two_flashlights_throw_away_one_card_a_search(pack):
    game, becky = _becky_at_church(pack, [1, 1], flashlights=2)
    keys, lighter = on_top(game, "keys", "lighter")
    game.emit("search", {"unit": becky})
    assert held(game, becky) == ["flashlight", "flashlight", "lighter"]
    assert game.state["cards"][keys]["where"] == "discard" and _offers(game) == ["choose an option"]


def test_the_flashlight_works_on_searches_only(pack):
    """Starting and bonus cards are drawn, not searched for (Complete Rulebook: Hero Starting Cards)."""
    game, becky = _becky_at_church(pack, [1], flashlights=1)
    keys, _ = on_top(game, "keys", "lighter")
    game.emit("hero_draw", {"finder": becky})
    assert held(game, becky) == ["flashlight", "keys"] and _offers(game) == []
    assert game.state["counters"]["searching"] == 0
