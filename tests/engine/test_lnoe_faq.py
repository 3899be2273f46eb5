"""The base rulebook's FAQ (seed 001, the FAQ after the Hero Profiles) and the Unofficial Complete
Rulebook's clarifications that apply to the 2007 base game (seed 000: §3.17.1, §7, §9, §10, §11 and the
Appendix III card notes, several of them marked "officially clarified"), each played by the built-in
content with forced dice and scripted answers, asserting the exact outcome the answer gives.

One test per FAQ answer, in the rulebook's order:
1. a Weapon card is never used by two Heroes in one turn (the Revolver handed on over the weapon limit,
   exactly as the FAQ's example; and the same for a Hand Weapon's Combat Bonus);
2. a Zombie card discarding the top Hero card from an empty deck wins for the Zombies, and a Hero drawing
   the last card does not lose;
3. a Hero holding Old Betsy or Gasoline who gains a fifth Item may use it at once instead of discarding
   (or hand an Item off);
4. a card that cancels any Zombie card cancels one being played and one that Remains in Play;
5. nobody counts the cards left in a deck: this is table manners, so what is tested is what the engine
   shows a person playing, the screen of the human player, which must be the same whatever the decks
   hold (it shows no deck sizes); the log only says how many cards were drawn, as the table sees;
6. on Hero's Choice for a New Spawning Pit the Heroes choose the building and the Zombie player places the
   marker;
7. "your Zombies" with two Zombie players: NOT TESTED. The content has a single Zombie side (two Zombie
   players would share it; the LNOE Zombie Cards rule says two players' hands are not modelled), so no
   card can tell one player's Zombies from the other's. `test_faq_7_premise_one_zombie_side` only checks
   that premise, so the day a second Zombie side appears it fails and this answer gets its test;
8. There's Too Many! is its own placing action: its Zombies may double up on pits right after the
   spawn step spread this turn's Zombies evenly, though they are spread evenly among themselves.
"""

from __future__ import annotations

from io import StringIO

from rich.console import Console

from spawnpit.engine import new_game
from spawnpit.engine import movement
from spawnpit.engine.human import _asking_rule, screen
from spawnpit.engine.interp import EndAction
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import dice, put


class Script:
    """Answers given in advance, each matched against the options offered: an int is an index; None
    passes (a `may` choice); a string picks the first option that is that text, or a card, unit or
    building of that name, or that space; a callable gets the options and returns an index. When the
    answers run out it passes where it may, else takes the first option. `asked` keeps every choice:
    (label, options)."""

    def __init__(self, *answers) -> None:
        self.answers = list(answers)
        self.asked: list[tuple[str, list]] = []
        self.rules: list[str | None] = []  # the title of the rule asking each question

    def choose(self, game, side, label, options):
        self.asked.append((label, list(options)))
        self.rules.append((_asking_rule(side) or {}).get("title"))
        if not self.answers:
            return options.index(None) if None in options else 0
        answer = self.answers.pop(0)
        if isinstance(answer, int):
            return answer
        if answer is None:
            assert None in options, f"cannot pass on {label}"
            return options.index(None)
        if callable(answer):
            return answer(options)
        for i, option in enumerate(options):
            if _named(game, option) == answer:
                return i
        raise AssertionError(f"{answer!r} is not offered in {label}: {[_named(game, o) for o in options]}")


def _named(game, option):
    if isinstance(option, Ref):
        if option.kind == "card":
            return game.state["cards"][option.id]["proto"]
        if option.kind == "unit":
            return game.state["units"][option.id]["proto"]
        if option.kind == "building":
            return option.id.rsplit(".", 1)[-1]
        return option.id
    return option


def bare_game(pack, scenario="die_zombies_die", heroes=(), zombies=(), seed=1, needs=()):
    """A game with an empty board and empty hands (no setup run), answers scripted. `needs`: buildings
    the drawn L-boards must hold (seeds are tried in order until the board has them)."""
    for s in range(seed, seed + 200):
        game = new_game(pack, f"lnoe:{scenario}", seed=s,
                        policies={"heroes": Script(*heroes), "zombies": Script(*zombies)})
        if all(any(b.endswith("." + n) for b in game.board.buildings) for n in needs):
            game.state["at"] = ["test"]
            return game
    raise AssertionError(f"no seed draws the boards with {needs}")


def answer(game, side, *answers) -> Script:
    game.policies[side] = Script(*answers)
    return game.policies[side]


def _take(game, card: str) -> str:
    cid = next(c for c, r in game.state["cards"].items() if r["proto"] == card and r["where"] == "deck")
    game.state["decks"][game.state["cards"][cid]["deck"]]["draw"].remove(cid)
    return cid


def give(game, card: str, unit: Ref) -> Ref:
    cid = _take(game, card)
    game.state["cards"][cid]["where"] = unit.id
    return Ref("card", cid)


def to_hand(game, card: str, side: str) -> str:
    cid = _take(game, card)
    game.state["cards"][cid]["where"] = f"side:{side}"
    return cid


def to_discard(game, card: str) -> str:
    cid = _take(game, card)
    game.state["decks"][game.state["cards"][cid]["deck"]]["discard"].append(cid)
    game.state["cards"][cid]["where"] = "discard"
    return cid


def on_top(game, card: str) -> str:
    cid = _take(game, card)
    game.state["decks"][game.state["cards"][cid]["deck"]]["draw"].append(cid)
    return cid


def held(game, unit: Ref) -> list[str]:
    return sorted(r["proto"] for r in game.state["cards"].values() if r["where"] == unit.id)


def where(game, thing) -> str | None:
    if isinstance(thing, Ref) and thing.kind == "unit":
        return game.state["units"][thing.id]["space"]
    cid = thing.id if isinstance(thing, Ref) else thing
    return game.state["cards"][cid]["where"]


def notes(game) -> list[str]:
    return [e["text"] for e in game.entries if e["type"] == "note"]


def rolls(game) -> list[list[int]]:
    return [e["values"] for e in game.entries if e["type"] == "roll"]


def marked(game, thing: Ref, marker: str) -> bool:
    return game.table.has(thing, Ref("marker", marker))


def space_marked(game, marker: str) -> list[str]:
    return [s for s in game.board.spaces if marked(game, Ref("space", s), marker)]


def emit_step(game, event: str, params: dict) -> None:
    """A step's start as the flow raises it: a hook that says `end` skips the rest."""
    try:
        game.emit(event, params)
    except EndAction:
        pass


def bonus_offers(script: Script) -> int:
    """How many times the Combat Bonus rule asked the Heroes which bonus to use."""
    return script.rules.count("Combat Bonus")


# =====================================================================================================
# The FAQ of the base rulebook (seed 001)
# =====================================================================================================

def test_faq_1_the_revolver_billy_fired_and_handed_to_sally_over_his_weapon_limit_cannot_be_fired_again(pack):
    """The FAQ's own example: Billy (Meat Cleaver, Revolver) fires; Sally moves in and hands him a
    weapon; over two weapons, he hands the Revolver to Sally; she may not fire it this turn."""
    game = bare_game(pack, heroes=["revolver", "zombie"])
    billy, sally = put(game, "billy", "town_center.b2"), put(game, "sally", "town_center.b2")
    zombie = put(game, "zombie", "town_center.a1")
    give(game, "meat_cleaver", billy)
    revolver = give(game, "revolver", billy)
    bat = give(game, "baseball_bat", sally)
    dice(game, [2], [3])  # a miss; the ammo roll keeps the Revolver
    game.emit("shoot", {"unit": billy})
    assert rolls(game) == [[2], [3]]

    answer(game, "heroes", "baseball_bat", "billy", "revolver", "Hand it to a Hero in the same space", "sally", None)
    game.emit("exchange_items", {"unit": sally})
    assert held(game, billy) == ["baseball_bat", "meat_cleaver"] and held(game, sally) == ["revolver"]
    assert where(game, bat) == billy.id

    script = answer(game, "heroes", "revolver", "zombie")  # she would fire it if she were offered it
    dice(game)
    game.emit("shoot", {"unit": sally})
    assert script.asked == [] and len(rolls(game)) == 2
    assert where(game, zombie) == "town_center.a1" and where(game, revolver) == sally.id


def test_faq_1_a_hand_weapon_that_gave_one_hero_its_combat_bonus_gives_none_to_another_that_turn(pack):
    game = bare_game(pack, heroes=["zombie", "baseball_bat"])  # the Zombie to fight first, the bonus
    billy, becky = put(game, "billy", "town_center.b2"), put(game, "becky", "town_center.b2")
    put(game, "zombie", "town_center.b2")
    bat = give(game, "baseball_bat", billy)
    dice(game, [3, 5], [4], [3], [4])  # Billy uses the bat: a double 3 kills; the bat holds
    game.emit("hero_turn.fight", {"unit": billy})
    assert game.state["counters"]["zombies_killed"] == 1

    answer(game, "heroes", "baseball_bat", None)  # Becky takes the bat off Billy
    game.emit("exchange_items", {"unit": becky})
    assert where(game, bat) == becky.id
    put(game, "zombie", "town_center.b2")
    script = answer(game, "heroes", "zombie", "baseball_bat")
    dice(game, [3, 5], [4])
    game.emit("hero_turn.fight", {"unit": becky})
    assert bonus_offers(script) == 0
    assert notes(game)[-1] == "The Hero wins: the Zombie is fended off"

    answer(game, "heroes")  # no First Aid
    game.emit("hero_turn.end", {})  # in the next Hero Turn Becky may use it
    game.emit("hero_turn.start", {})
    script = answer(game, "heroes", "zombie", "baseball_bat")
    dice(game, [3, 5], [4], [3], [4])
    game.emit("hero_turn.fight", {"unit": becky})
    assert bonus_offers(script) == 1 and game.state["counters"]["zombies_killed"] == 2


def test_faq_1_a_bat_used_in_the_zombie_turn_may_still_be_handed_on_and_used_in_the_hero_turn(pack):
    game = bare_game(pack, heroes=["baseball_bat"])
    billy, sally = put(game, "billy", "town_center.b2"), put(game, "sally", "town_center.b2")
    put(game, "zombie", "town_center.b2")
    bat = give(game, "baseball_bat", billy)
    dice(game, [3, 5], [4], [3], [4])
    game.emit("fight", {"fighter": billy, "foe": next(u for u in game.table.units("zombie"))})
    game.emit("hero_turn.start", {})
    answer(game, "heroes", "baseball_bat", None)
    game.emit("exchange_items", {"unit": sally})
    assert where(game, bat) == sally.id
    put(game, "zombie", "town_center.b2")
    script = answer(game, "heroes", "zombie", "baseball_bat")
    dice(game, [3, 5], [4], [3], [4])
    game.emit("hero_turn.fight", {"unit": sally})
    assert bonus_offers(script) == 1 and game.state["counters"]["zombies_killed"] == 2


def test_faq_1_a_bat_used_in_two_zombie_turn_fights_is_free_again_when_the_hero_turn_starts(pack):
    """Session 25 (a play-test): a bat used in two fights of one Zombie Turn carried two `used` marks, and
    the Hero Turn's start took off one, so the Hero Turn counted it as used there (Recovery took it back
    from the discard pile as if used up that turn)."""
    game = bare_game(pack, heroes=["baseball_bat", "baseball_bat"])
    billy = put(game, "billy", "town_center.b2")
    bat = give(game, "baseball_bat", billy)
    for _ in range(2):
        zombie = put(game, "zombie", "town_center.b2")
        dice(game, [3, 5], [4], [3], [4])  # a double 3 with the bat's die: the Zombie dies, the bat holds
        game.emit("fight", {"fighter": billy, "foe": zombie})
    assert game.state["counters"]["zombies_killed"] == 2
    assert game.state["cards"][bat.id]["markers"].get("used") == 1
    game.emit("hero_turn.start", {})
    assert not game.state["cards"][bat.id]["markers"].get("used")


def test_faq_2_a_zombie_card_discarding_from_an_empty_hero_deck_wins_for_the_zombies(pack):
    game = bare_game(pack, zombies=["ransacked", None])
    pile = game.state["decks"]["hero_deck"]
    pile["discard"], pile["draw"] = pile["discard"] + pile["draw"], []
    discarded = len(pile["discard"])
    card = to_hand(game, "ransacked", "zombies")
    game.emit("zombie_turn.spawn_roll.start")
    assert len(pile["discard"]) == discarded  # nothing left to discard
    assert game.state["cards"][card]["where"] != "side:zombies"  # the card was played
    assert game.state["result"]["winner"] == "zombies"
    assert game.entries[-1]["type"] == "result"  # the card's own clean-up does not happen after the win


def test_faq_2_a_hero_drawing_the_last_hero_card_does_not_lose(pack):
    game = bare_game(pack, needs=("church",))
    church = sorted(game.board.spaces_of(next(b for b in game.board.buildings if b.endswith(".church"))))[0]
    becky = put(game, "becky", church)
    pile = game.state["decks"]["hero_deck"]
    last = on_top(game, "lighter")
    for cid in pile["draw"][:-1]:
        game.state["cards"][cid]["where"] = "box"
    pile["draw"] = pile["draw"][-1:]
    game.emit("search", {"unit": becky})
    assert where(game, last) == becky.id and pile["draw"] == []
    game.emit("search", {"unit": becky})
    assert "The Hero deck has run out: the Search finds nothing" in notes(game)
    assert game.state["result"] is None


def _four_items_and_a_fifth(pack, special: str, *answers):
    game = bare_game(pack, heroes=answers)
    becky = put(game, "becky", "town_center.b2")
    for card in (special, "lighter", "keys", "flashlight"):
        give(game, card, becky)
    give(game, "first_aid_kit", becky)
    game.emit("load_check", {"carrier": becky})
    return game, becky


def test_faq_3_gaining_a_fifth_item_old_betsy_is_set_loose_at_once_instead_of_a_discard(pack):
    game, becky = _four_items_and_a_fifth(pack, "old_betsy", "town_center.c2")
    assert held(game, becky) == ["first_aid_kit", "flashlight", "keys", "lighter"]
    assert space_marked(game, "old_betsy") == ["town_center.c2"]
    assert game.state["decks"]["hero_deck"]["discard"] == []
    assert "Old Betsy is set loose" in notes(game)


def test_faq_3_gaining_a_fifth_item_the_gasoline_is_poured_out_at_once_instead_of_a_discard(pack):
    game, becky = _four_items_and_a_fifth(pack, "gasoline", "Pour out the Gasoline for a Gas marker")
    assert held(game, becky) == ["first_aid_kit", "flashlight", "keys", "lighter"]
    assert space_marked(game, "gas") == ["town_center.b2"]
    assert [game.state["cards"][c]["proto"] for c in game.state["decks"]["hero_deck"]["discard"]] == ["gasoline"]


def test_faq_3_or_the_hero_declines_and_hands_an_item_to_a_hero_in_the_space(pack):
    game = bare_game(pack, heroes=[None, "keys", "Hand it to a Hero in the same space", "jenny"])
    becky, jenny = put(game, "becky", "town_center.b2"), put(game, "jenny", "town_center.b2")
    for card in ("old_betsy", "lighter", "keys", "flashlight", "first_aid_kit"):
        give(game, card, becky)
    game.emit("load_check", {"carrier": becky})
    assert held(game, becky) == ["first_aid_kit", "flashlight", "lighter", "old_betsy"] and held(game, jenny) == ["keys"]
    assert space_marked(game, "old_betsy") == [] and game.state["decks"]["hero_deck"]["discard"] == []


def test_faq_4_cancel_any_zombie_card_as_it_is_played(pack):
    game = bare_game(pack, zombies=["i_dont_trust_em", None], heroes=["not_this_time"])
    card = to_hand(game, "i_dont_trust_em", "zombies")
    cancel = to_hand(game, "not_this_time", "heroes")
    game.emit("zombie_turn.spawn_roll.start")
    assert where(game, card) == "discard" and where(game, cancel) == "discard"
    billy, sally = put(game, "billy", "town_center.b2"), put(game, "sally", "town_center.b2")
    bat = give(game, "baseball_bat", billy)
    answer(game, "heroes", "baseball_bat", "sally", None)
    emit_step(game, "hero_turn.exchange.start", {"unit": billy})
    game.emit("exchange_items", {"unit": billy})
    assert where(game, bat) == sally.id  # the card had no effect: Items change hands


def test_faq_4_cancel_any_zombie_card_that_remains_in_play_and_its_marker_goes(pack):
    game = bare_game(pack, zombies=["locked_door", 0, 0, None], heroes=[None])  # lock the first doorway offered
    card = to_hand(game, "locked_door", "zombies")
    cancel = to_hand(game, "not_this_time", "heroes")
    game.emit("zombie_turn.spawn_roll.start")
    assert where(game, card) == "play" and len(space_marked(game, "locked_door")) == 2  # the doorway's two spaces
    answer(game, "heroes", "locked_door", "not_this_time")  # the card to cancel first, then the cancel card
    game.emit("hero_turn.start")
    assert where(game, card) == "discard" and where(game, cancel) == "discard"
    assert space_marked(game, "locked_door") == []


def _screen_text(game) -> str:
    out = Console(file=StringIO(), width=140, color_system=None, force_terminal=False)
    out.print(screen(game, "heroes", list(game.entries)))
    return out.file.getvalue()


def test_faq_5_decks_are_not_counted_the_players_screen_shows_no_deck_sizes(pack):
    shown = []
    for thin in (False, True):
        game = bare_game(pack, seed=3)
        put(game, "billy", "town_center.b2")
        put(game, "zombie", "town_center.a1")
        if thin:  # far fewer cards left in both decks, and more in the discard piles
            for deck in ("hero_deck", "zombie_deck"):
                pile = game.state["decks"][deck]
                moved, pile["draw"] = pile["draw"][:-3], pile["draw"][-3:]
                pile["discard"] += moved
                for cid in moved:
                    game.state["cards"][cid]["where"] = "discard"
        shown.append(_screen_text(game))
    assert shown[0] == shown[1]
    assert "Billy" in shown[0] or "billy" in shown[0].lower()


def test_faq_6_heros_choice_new_spawning_pit_the_heroes_pick_the_building_the_zombies_place_it(pack):
    picked = {}

    def building_with_two_spaces(options):
        for i, b in enumerate(options):
            if b is not None and len(game.board.spaces_of(b.id)) >= 2:
                picked["building"] = b.id
                return i
        raise AssertionError("no building of two spaces")

    def last_space(options):
        picked["space"] = options[-1].id
        picked["offered"] = [o.id for o in options]
        return len(options) - 1

    game = bare_game(pack)
    game.policies["heroes"] = Script(building_with_two_spaces)
    game.policies["zombies"] = Script("new_spawning_pit", last_space)
    to_hand(game, "new_spawning_pit", "zombies")
    dice(game, [1])  # Hero's Choice
    game.emit("zombie_turn.spawn_roll.start")
    choices = [(e["side"], e["label"]) for e in game.entries if e["type"] == "choice"]
    assert choices == [("zombies", "choose card to play"), ("heroes", "choose building"), ("zombies", "choose space")]
    assert set(picked["offered"]) == set(game.board.spaces_of(picked["building"]))
    assert space_marked(game, "new_spawning_pit") == [picked["space"]]


def test_faq_7_premise_one_zombie_side(pack):
    game = bare_game(pack)
    zombie_sides = {k["props"].get("side") for name, k in game.model.kinds.items()
                    if name in ("zombie", "zombie_hero", "grave_dead")}
    assert zombie_sides == {"zombies"}
    assert [s for s in game.model.sides if "zombie" in s] == ["zombies"]


def test_faq_8_theres_too_many_doubles_up_on_pits_after_the_even_spawn_spreading_its_own_evenly(pack):
    """The FAQ: Zombies are spread evenly within each placing action; the card's is another action, so
    its Zombies go on pits that already had one this turn (here every pit), but not two on one pit."""
    game = bare_game(pack)
    pits = sorted(game.board.spawn_points)
    assert len(pits) == 4
    for _ in range(5):
        game.add_unit(game.model.protos("zombie")[0], pits[0])
    # the card's two Zombies go where the Zombie player picks, one each (Placing New Zombies)
    answer(game, "zombies", "Place every Zombie the die allows", "theres_too_many", pits[1], pits[3])
    to_hand(game, "theres_too_many", "zombies")
    left = dice(game, [3, 3], [4], [2])  # 6 beats 5 on the board; D6 = 4, one a pit; then D3 = 2
    game.emit("zombie_turn.spawn_roll")
    game.emit("zombie_turn.place_spawns")
    spawned = len(game.entries)
    game.emit("zombie_turn.place_spawns.end")
    assert not left
    by_card = [e for e in game.entries[spawned:] if e["type"] == "spawn"]
    assert sorted(e["count"] for e in by_card) == [1, 1] and {e["space"] for e in by_card} == {pits[1], pits[3]}
    placed = {}
    for e in game.entries:
        if e["type"] == "spawn":
            placed[e["space"]] = placed.get(e["space"], 0) + e["count"]
    assert sorted(placed.values()) == [1, 1, 2, 2] and set(placed) == set(pits)


# =====================================================================================================
# Clarifications of the Complete Rulebook (seed 000) that apply to the base game
# =====================================================================================================

def test_cr_9_2_a_weapon_that_breaks_still_gives_its_combat_bonus(pack):
    """§9.2, officially clarified (FlyingFrogWiki)."""
    game = bare_game(pack, heroes=["baseball_bat"])
    billy, zombie = put(game, "billy", "town_center.b2"), put(game, "zombie", "town_center.b2")
    bat = give(game, "baseball_bat", billy)
    left = dice(game, [3, 5], [4], [3], [1])  # the double 3 wins; the break test of 1 breaks the bat
    game.emit("fight", {"fighter": billy, "foe": zombie})
    assert not left
    assert where(game, zombie) is None and where(game, bat) == "discard"
    assert "The Baseball Bat breaks" in notes(game)


def test_cr_11_3_3_only_the_hero_holding_the_item_gets_its_combat_bonus(pack):
    """§11.3.3, officially clarified (BoardGameGeek): Sally's bat does nothing for Billy beside her."""
    game = bare_game(pack, heroes=["baseball_bat"])
    billy, sally = put(game, "billy", "town_center.b2"), put(game, "sally", "town_center.b2")
    zombie = put(game, "zombie", "town_center.b2")
    give(game, "baseball_bat", sally)
    left = dice(game, [3, 5], [4])
    game.emit("fight", {"fighter": billy, "foe": zombie})
    assert not left and bonus_offers(game.policies["heroes"]) == 0
    assert where(game, zombie) == "town_center.b2"


def test_cr_11_3_3_each_combat_bonus_once_per_fight_but_several_may_be_used(pack):
    game = bare_game(pack, heroes=["baseball_bat", "torch"])
    jake, zombie = put(game, "jake_cartwright", "town_center.b2"), put(game, "zombie", "town_center.b2")
    give(game, "baseball_bat", jake)
    give(game, "torch", jake)
    left = dice(game, [2, 3], [5], [6], [6], [4], [4])  # a die from each; after the fight, both hold
    game.emit("fight", {"fighter": jake, "foe": zombie})
    assert not left
    assert bonus_offers(game.policies["heroes"]) == 2
    assert sorted(game.state["counters"]["hero_dice"]) == [2, 3, 6, 6]
    assert where(game, zombie) is None


def test_cr_10_one_ranged_attack_per_hero_turn_whatever_the_items(pack):
    game = bare_game(pack, heroes=["rifle", "zombie"])
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    put(game, "zombie", "town_center.a1")
    put(game, "zombie", "town_center.c3")
    give(game, "revolver", sheriff)
    give(game, "rifle", sheriff)
    left = dice(game, [2])  # the Rifle misses: no second shot with the Revolver
    game.emit("shoot", {"unit": sheriff})
    assert not left and rolls(game) == [[2]]
    weapons = [options for label, options in game.policies["heroes"].asked if label == "choose card"]
    assert len(weapons) == 1 and len(weapons[0]) == 3  # the Revolver, the Rifle, or no shot


def test_cr_10_an_item_received_this_turn_in_an_exchange_may_be_fired(pack):
    game = bare_game(pack, heroes=["revolver", "sally", None, "revolver", "zombie"])
    billy, sally = put(game, "billy", "town_center.b2"), put(game, "sally", "town_center.b2")
    zombie = put(game, "zombie", "town_center.b1")
    give(game, "revolver", billy)
    game.emit("exchange_items", {"unit": billy})
    left = dice(game, [5], [4])
    game.emit("shoot", {"unit": sally})
    assert not left and where(game, zombie) is None


def test_cr_9_no_item_used_by_two_heroes_in_a_turn_even_if_discarded_and_picked_up(pack):
    """§9 and the glossary's Using Items (officially clarified): the Revolver Billy emptied goes to the
    discard pile; the Sheriff takes it back with Man of Action the same turn but may not fire it."""
    game = bare_game(pack, heroes=["revolver", "zombie"])
    billy, sheriff = put(game, "billy", "town_center.b2"), put(game, "sheriff_anderson", "town_center.c2")
    put(game, "zombie", "town_center.a1")
    put(game, "zombie", "town_center.c3")
    revolver = give(game, "revolver", billy)
    dice(game, [4], [1])  # a Hit, then out of ammo
    game.emit("shoot", {"unit": billy})
    assert where(game, revolver) == "discard"
    answer(game, "heroes", "Man of Action: take a Revolver from the discard pile", "revolver")
    emit_step(game, "search.start", {"unit": sheriff})
    assert where(game, revolver) == sheriff.id
    script = answer(game, "heroes", "revolver", "zombie")
    dice(game)
    game.emit("shoot", {"unit": sheriff})
    assert script.asked == [] and len(rolls(game)) == 2


def test_cr_3_17_1_a_roll_is_never_reduced_below_1_and_twisted_ankle_comes_before_track_star(pack):
    """§3.17.1 (officially clarified) and the Twisted Ankle note of Appendix III: Billy rolls a 2,
    Twisted Ankle takes 2 off, leaving 1 (not 0), then Track Star adds 1: he may move 2."""
    game = bare_game(pack, zombies=["twisted_ankle"])
    billy = put(game, "billy", "town_center.a1")
    to_hand(game, "twisted_ankle", "zombies")
    dice(game, [2])
    within_2 = len(movement.reach(game, billy, 2))
    assert within_2 < len(movement.reach(game, billy, 3))  # so the count of options tells 2 from 3
    game.emit("move", {"unit": billy})
    assert game.state["counters"]["move_roll"] == 1 and game.state["counters"]["move_natural"] == 2
    offer = [e for e in game.entries if e["type"] == "choice" and e["side"] == "heroes"][-1]
    assert offer["options"] == within_2 + 1  # the spaces within 2, or stay


def test_cr_out_of_control_a_natural_1_sends_billy_one_space_to_the_zombie_and_no_farther(pack):
    """Appendix III (Out of Control): a natural 1 triggers it whatever modifies the roll; the Hero
    lurches one space toward the nearest Zombie instead of moving (Track Star adds nothing to that)."""
    game = bare_game(pack, zombies=["out_of_control"])
    billy = put(game, "billy", "town_center.a1")
    put(game, "zombie", "town_center.c3")
    to_hand(game, "out_of_control", "zombies")
    dice(game, [1])
    game.emit("move", {"unit": billy})
    assert where(game, billy) == "town_center.b2"
    assert not [e for e in game.entries if e["type"] == "choice" and e["side"] == "heroes"]


def test_cr_7_1_3_a_sacrifice_returns_zombies_to_the_pool_uncounted_and_never_takes_a_zombie_hero(pack):
    game = bare_game(pack, scenario="die_zombies_die", zombies=["risen_from_the_grave"])
    zombies = [put(game, "zombie", "town_center.a1") for _ in range(2)]
    zh = put(game, "zombie_hero", "town_center.c3")
    card = to_hand(game, "risen_from_the_grave", "zombies")
    dug = [to_discard(game, "uuuurrggghh"), to_discard(game, "shamble")]
    game.emit("zombie_turn.spawn_roll.start")
    assert where(game, card) == "discard"
    assert all(where(game, z) is None for z in zombies) and where(game, zh) == "town_center.c3"
    assert game.state["counters"]["zombies_killed"] == 0 and not [e for e in game.entries if e["type"] == "kill"]
    assert {where(game, c) for c in dug} == {"side:zombies"}


def test_cr_no_it_cant_be_does_not_count_as_killing_a_hero(pack):
    game = bare_game(pack, zombies=["no_it_cant_be"])
    for _ in range(4):
        put(game, "zombie", "town_center.a1")
    to_hand(game, "no_it_cant_be", "zombies")
    game.emit("zombie_turn.spawn_roll.start")
    assert len(game.table.units("zombie")) == 0 and len(game.table.units("zombie_hero")) == 1
    assert game.state["counters"]["heroes_killed"] == 0 and game.state["counters"]["zombies_killed"] == 0


def test_cr_old_betsy_goes_only_when_a_zombie_gets_away_and_then_the_others_move_freely(pack):
    """Appendix III (Old Betsy), officially clarified: the first Zombie rolls a 5 and gets away; she runs
    off at once, so the second Zombie in her space moves without a roll (each a step toward Becky, as the
    ai policy plays a free Zombie)."""
    from spawnpit.engine import AIPolicy

    game = bare_game(pack)
    game.policies["zombies"] = AIPolicy()
    becky = put(game, "becky", "town_center.c3")
    z1, z2 = put(game, "zombie", "town_center.a1"), put(game, "zombie", "town_center.a1")
    betsy = to_hand(game, "old_betsy", "heroes")
    game.mark(Ref("space", "town_center.a1"), "old_betsy", 1, game._plain_ctx())
    left = dice(game, [5])
    for step in ("zombie_turn.move_zombies.start", "zombie_turn.move_zombies", "zombie_turn.move_zombies.end"):
        game.emit(step)
    assert not left
    assert where(game, z1) == where(game, z2) == "town_center.b2"
    assert space_marked(game, "old_betsy") == [] and where(game, betsy) == "discard"
    assert becky


def test_cr_shamble_the_zombie_is_chosen_before_the_roll(pack):
    """Appendix III (Shamble), officially clarified: choose the Zombie, then roll how far it may go."""
    game = bare_game(pack, zombies=["shamble", "zombie", None])
    put(game, "zombie", "town_center.a1")
    put(game, "becky", "town_center.c3")
    to_hand(game, "shamble", "zombies")
    dice(game, [3])
    game.emit("zombie_turn.move_zombies.start")
    order = [e["type"] if e["type"] != "choice" else e["label"] for e in game.entries
             if e["type"] == "roll" or (e["type"] == "choice" and e["side"] == "zombies")]
    assert order[:3] == ["choose card to play", "choose unit to play it on (a Zombie or a Zombie Hero)", "roll"]


def test_cr_just_what_i_needed_takes_a_card_from_the_discard_pile_or_else_draws(pack):
    """Appendix III (Just What I Needed), officially clarified."""
    game = bare_game(pack, heroes=["just_what_i_needed", "revolver"])
    becky = put(game, "becky", "town_center.b2")
    to_hand(game, "just_what_i_needed", "heroes")
    revolver = to_discard(game, "revolver")
    emit_step(game, "hero_turn.move.start", {"unit": becky})
    assert where(game, revolver) == becky.id

    game = bare_game(pack, heroes=["just_what_i_needed"])
    becky = put(game, "becky", "town_center.b2")
    to_hand(game, "just_what_i_needed", "heroes")
    top = on_top(game, "lighter")
    emit_step(game, "hero_turn.move.start", {"unit": becky})
    assert where(game, top) == becky.id


def _fight_log(game) -> list[str]:
    """The fights in order: "roll" for each fight's Hero roll (2D6), then each result note."""
    return ["roll" if e["type"] == "roll" else e["text"] for e in game.entries
            if (e["type"] == "roll" and e["dice"] == "2D6") or (e["type"] == "note" and e["text"].startswith("The "))]


def test_cr_the_smell_of_brains_pulls_zombies_within_2_even_out_of_a_heros_space(pack):
    """Appendix III (The Smell of Brains), a Fight: card (§17.5.4.2): Zombie Hunger is ignored, so a
    Zombie already with a Hero goes too; the newcomers are fought this turn: in the Zombie Turn's fight
    step, after the fight the card was played in is over (its result comes before their rolls)."""
    game = bare_game(pack, zombies=["the_smell_of_brains"])
    becky, jake = put(game, "becky", "town_center.a1"), put(game, "jake_cartwright", "town_center.c3")
    z0 = put(game, "zombie", "town_center.a1")
    z1, z2 = put(game, "zombie", "town_center.c3"), put(game, "zombie", "town_center.b2")
    to_hand(game, "the_smell_of_brains", "zombies")
    left = dice(game, [5, 4], [1], [5, 4], [1], [5, 4], [1])  # Becky fends off all three
    emit_step(game, "zombie_turn.fight", {})
    assert not left
    assert where(game, z0) == where(game, z1) == where(game, z2) == "town_center.a1"
    assert where(game, jake) == "town_center.c3"
    assert _fight_log(game) == ["roll", "The Hero wins: the Zombie is fended off"] * 3


def test_cr_the_smell_of_brains_in_a_hero_turn_fight_step(pack):
    """Played in the Hero Turn: the running fight is resolved, then the Hero fights the newcomer in the
    same Fight step, though it had already fought this turn."""
    game = bare_game(pack, zombies=["the_smell_of_brains"])
    becky = put(game, "becky", "town_center.a1")
    z0, z1 = put(game, "zombie", "town_center.a1"), put(game, "zombie", "town_center.b1")
    game.state["units"][z1.id]["stats"]["fights_taken"] = 1
    to_hand(game, "the_smell_of_brains", "zombies")
    left = dice(game, [5, 4], [1], [6, 2], [3])
    emit_step(game, "hero_turn.fight", {"unit": becky})
    assert not left
    assert where(game, z0) == where(game, z1) == "town_center.a1"
    assert _fight_log(game) == ["roll", "The Hero wins: the Zombie is fended off"] * 2
