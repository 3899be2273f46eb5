"""Last Night on Earth's cards as the built-in content plays them: the Zombie hand (draw step, hand size,
discard-one, reshuffle), Fight cards after the roll (one per Zombie per fight), Hero Events from the
Heroes' hand, cancelling a card as it is played or once it Remains in Play, and single card effects,
each with forced dice and scripted answers (seed 001: Zombie Turn step 2, Zombie Fight: Cards, Playing
Event Cards and Timing, Canceling Cards; seed 000 §7 and Appendix III)."""

from __future__ import annotations

import pytest

from spawnpit.engine import AIPolicy
from spawnpit.engine.flow import _moment
from spawnpit.engine.human import describe_entry
from spawnpit.engine.interp import EndAction
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import action_block, bare_game, dice, put


def to_hand(game, proto: str, side: str) -> str:
    """One copy of a card from its deck's draw pile into a side's hand; its id."""
    cid = next(c for c, r in game.state["cards"].items() if r["proto"] == proto and r["where"] == "deck")
    game.state["decks"][game.state["cards"][cid]["deck"]]["draw"].remove(cid)
    game.state["cards"][cid]["where"] = f"side:{side}"
    return cid


def in_play(game, proto: str, target: Ref | None = None) -> str:
    """One copy of a card put on the table as if played and remaining in play."""
    cid = to_hand(game, proto, "box")
    record = game.state["cards"][cid]
    record.update(where="play", status="in_play")
    if target is not None:
        record["target"] = [target.kind, target.id]
    return cid


def hand(game, side: str) -> list[str]:
    """The ids of a side's hand, in the order choices list them."""
    return [c for c, r in game.state["cards"].items() if r["where"] == f"side:{side}"]


def where(game, cid: str) -> str:
    return game.state["cards"][cid]["where"]


def notes(game) -> list[str]:
    return [e["text"] for e in game.entries if e["type"] == "note"]


def marked(game, thing: Ref, marker: str) -> bool:
    return game.table.has(thing, Ref("marker", marker))


# ---- the Zombie hand ----------------------------------------------------------------------------------

def test_the_draw_step_may_discard_one_card_then_draws_back_up_to_four(pack):
    game = bare_game(pack)
    keep, drop = to_hand(game, "shamble", "zombies"), to_hand(game, "hungry_dead", "zombies")
    game.policies["zombies"].answers = [hand(game, "zombies").index(drop)]
    game.emit("zombie_turn.draw_cards")
    assert len(hand(game, "zombies")) == 4 and keep in hand(game, "zombies")
    assert where(game, drop) == "discard" and game.state["decks"]["zombie_deck"]["discard"] == [drop]
    assert [e["count"] for e in game.entries if e["type"] == "draw"] == [3]


def test_the_discard_is_optional_and_a_full_hand_draws_nothing(pack):
    game = bare_game(pack, zombies=[1])  # [the card, decline]: decline
    only = to_hand(game, "shamble", "zombies")
    game.emit("zombie_turn.draw_cards")
    assert len(hand(game, "zombies")) == 4 and only in hand(game, "zombies")
    assert game.state["decks"]["zombie_deck"]["discard"] == []
    game.policies["zombies"].answers = [4]  # four cards and decline
    game.emit("zombie_turn.draw_cards")
    assert len(hand(game, "zombies")) == 4
    assert [e["count"] for e in game.entries if e["type"] == "draw"] == [3]  # the second step drew none


def test_a_hand_grown_past_the_hand_size_is_cut_down_before_drawing(pack):
    game = bare_game(pack, zombies=[0, 0, 4])  # two forced discards, then decline the optional one
    cards = [to_hand(game, p, "zombies") for p in ("shamble", "shamble", "lights_out", "lights_out", "catfight",
                                                    "teen_angst")]
    game.emit("zombie_turn.draw_cards")
    assert len(hand(game, "zombies")) == 4
    assert len(game.state["decks"]["zombie_deck"]["discard"]) == 2
    assert set(game.state["decks"]["zombie_deck"]["discard"]) <= set(cards)
    assert not [e for e in game.entries if e["type"] == "draw"]


def test_the_zombie_deck_is_reshuffled_from_its_discards_but_the_hero_deck_is_not(pack):
    game = bare_game(pack)
    for deck in ("zombie_deck", "hero_deck"):
        pile = game.state["decks"][deck]
        rest = pile["draw"][:-1]
        pile["draw"], pile["discard"] = pile["draw"][-1:], rest
        for cid in rest:
            game.state["cards"][cid]["where"] = "discard"
    total = len(game.state["decks"]["zombie_deck"]["discard"]) + 1
    game.emit("zombie_turn.draw_cards")  # an empty hand: nothing to discard, four to draw
    assert len(hand(game, "zombies")) == 4
    assert [e["deck"] for e in game.entries if e["type"] == "reshuffle"] == ["zombie_deck"]
    assert len(game.state["decks"]["zombie_deck"]["draw"]) == total - 4
    assert game.state["decks"]["zombie_deck"]["discard"] == []
    drawn = game.draw("hero_deck", 2, Ref("side", "heroes"), game._plain_ctx())
    assert len(drawn) == 1 and game.state["decks"]["hero_deck"]["draw"] == []
    assert [e["deck"] for e in game.entries if e["type"] == "reshuffle"] == ["zombie_deck"]


# ---- Fight cards ----------------------------------------------------------------------------------------

def test_uuuurrggghh_after_the_roll_turns_a_fended_off_zombie_into_a_wound_and_only_one_fight_card_is_used(pack):
    game = bare_game(pack, zombies=[0])
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    first, second = to_hand(game, "uuuurrggghh", "zombies"), to_hand(game, "uuuurrggghh", "zombies")
    vicious = to_hand(game, "vicious_attack", "zombies")
    left = dice(game, [3, 5], [4], [6])  # the Hero leads 5 to 4; the extra Zombie die is a 6
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert not left
    assert game.state["counters"]["zombie_dice"] == [4, 6]
    assert notes(game) == ["The Zombie wins: the Hero takes a Wound"]
    assert game.state["units"][sheriff.id]["wounds"] == 1
    assert where(game, first) == "discard" and hand(game, "zombies") == [second, vicious]
    offers = [e for e in game.entries if e["type"] == "choice" and e["side"] == "zombies"]
    assert [o["options"] for o in offers] == [3]  # two Uuuurrggghh! or pass (Vicious Attack waits for a win); once


def test_without_the_card_the_same_dice_fend_the_zombie_off(pack):
    game = bare_game(pack, zombies=[1])  # pass
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    to_hand(game, "uuuurrggghh", "zombies")
    dice(game, [3, 5], [4])
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert notes(game) == ["The Hero wins: the Zombie is fended off"]
    assert game.state["units"][sheriff.id]["wounds"] == 0


def test_vicious_attack_played_when_the_zombie_wins_deals_two_wounds(pack):
    game = bare_game(pack, zombies=[1, 0])  # pass after the roll; play Vicious Attack once the Zombie has won
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    vicious = to_hand(game, "vicious_attack", "zombies")
    to_hand(game, "uuuurrggghh", "zombies")
    dice(game, [2, 3], [5])
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert game.state["units"][sheriff.id]["wounds"] == 2
    assert where(game, vicious) == "discard"
    assert [e["card"] for e in game.entries if e["type"] == "play"] == ["vicious_attack"]


def test_unrelenting_attack_makes_a_fended_off_zombie_fight_again(pack):
    game = bare_game(pack, zombies=[0], heroes=[0])
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    card = to_hand(game, "unrelenting_attack", "zombies")
    left = dice(game, [5, 3], [4], [2, 1], [6])
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert not left
    assert notes(game) == ["The Hero wins: the Zombie is fended off", "The Zombie wins: the Hero takes a Wound"]
    assert game.state["units"][sheriff.id]["wounds"] == 1 and where(game, card) == "discard"


def test_get_back_you_devils_kills_a_fended_off_zombie_for_the_hero(pack):
    game = bare_game(pack, heroes=[0, 0])
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    card = to_hand(game, "get_back_you_devils", "heroes")
    dice(game, [5, 3], [4])
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    kill = next(e for e in game.entries if e["type"] == "kill")
    assert kill["unit"] == zombie.id and kill["by"] == sheriff.id
    assert game.state["counters"]["zombies_killed"] == 1 and where(game, card) == "discard"


# ---- cancelling -------------------------------------------------------------------------------------------

def test_the_heroes_cancel_a_zombie_card_as_it_is_played_and_it_has_no_effect(pack):
    game = bare_game(pack, zombies=[0], heroes=[0])
    lights, cancel = to_hand(game, "lights_out", "zombies"), to_hand(game, "not_this_time", "heroes")
    game.emit("zombie_turn.spawn_roll.start")  # the start-of-turn window
    assert where(game, lights) == "discard" and where(game, cancel) == "discard"
    assert not any(marked(game, Ref("building", b), "lights_out") for b in game.board.buildings)
    shown = [(e["type"], e.get("card")) for e in game.entries if e["type"] in ("play", "cancel", "in_play")]
    assert shown == [("play", "lights_out"), ("play", "not_this_time"), ("cancel", "lights_out")]


def test_a_card_that_remains_in_play_works_until_cancelled_and_cancelling_removes_its_marker(pack):
    game = bare_game(pack, zombies=[0, 0], heroes=[1])  # play Lights Out on the first building; no cancel yet
    lights, cancel = to_hand(game, "lights_out", "zombies"), to_hand(game, "not_this_time", "heroes")
    game.emit("zombie_turn.spawn_roll.start")
    building = Ref("building", game.building_ids()[0])
    assert where(game, lights) == "play" and marked(game, building, "lights_out")
    game.policies["heroes"].answers = [0, 0]  # at the start of the Hero Turn: the cancel card, on Lights Out
    game.emit("hero_turn.start")
    assert where(game, lights) == "discard" and where(game, cancel) == "discard"
    assert not marked(game, building, "lights_out")


def test_hysteria_makes_a_hero_event_played_on_its_hero_fail_on_1_to_3(pack):
    for hysteria_roll, wounds in (([2], 1), ([5], 0)):
        game = bare_game(pack, heroes=[0])  # play Rise to the Challenge
        sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
        in_play(game, "hysteria", sheriff)  # on the Sheriff: its target
        game.state["units"][sheriff.id]["markers"]["hysterical"] = 1
        rise = to_hand(game, "rise_to_the_challenge", "heroes")
        left = dice(game, [2, 3], [5], hysteria_roll, [1])  # the last die is the Zombie's re-roll
        game.emit("fight", {"fighter": sheriff, "foe": zombie})
        assert game.state["units"][sheriff.id]["wounds"] == wounds
        assert where(game, rise) == "discard"
        if wounds:
            assert left == [[1]] and "Hysteria: the Hero Event fails" in notes(game)
            assert game.state["counters"]["zombie_dice"] == [5]
        else:
            assert not left and game.state["counters"]["zombie_dice"] == [1]


def test_falling_darkness_cancels_a_hero_card_that_remains_in_play(pack):
    game = bare_game(pack, zombies=[0, 0])
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    windows = in_play(game, "blocked_windows", Ref("space", game.board.resolve("town_center.b2")))
    darkness = to_hand(game, "falling_darkness", "zombies")
    game.emit("zombie_turn.spawn_roll.start")
    assert where(game, windows) == "discard" and where(game, darkness) == "discard"
    assert [e["card"] for e in game.entries if e["type"] == "cancel"] == ["blocked_windows"]
    assert sheriff


# ---- single card effects -----------------------------------------------------------------------------------

def test_shamble_moves_one_zombie_up_to_a_d6_roll(pack):
    """Play it on the only Zombie, roll 4, and keep stepping: four steps, a space at a time, then no more."""
    game = bare_game(pack, zombies=[0, 0] + [0] * 5)
    zombie = put(game, "zombie", "town_center.b2")
    card = to_hand(game, "shamble", "zombies")
    dice(game, [4])
    game.emit("zombie_turn.move_zombies.start")
    steps = [e for e in game.entries if e["type"] == "move" and e["unit"] == zombie.id]
    assert len(steps) == 4 and where(game, card) == "discard"
    assert len(game.policies["zombies"].answers) == 1  # the fifth step was never offered


def test_twisted_ankle_lowers_a_heros_movement_roll_by_two(pack):
    game = bare_game(pack, zombies=[0], heroes=[0])
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    to_hand(game, "twisted_ankle", "zombies")
    from spawnpit.engine import movement

    within_3 = len(movement.reach(game, sheriff, 3))
    assert within_3 < len(movement.reach(game, sheriff, 5))
    dice(game, [5])
    game.emit("move", {"unit": sheriff})
    assert game.state["counters"]["move_roll"] == 3 and game.state["counters"]["move_natural"] == 5
    offer = [e for e in game.entries if e["type"] == "choice" and e["side"] == "heroes"][-1]
    assert offer["options"] == within_3 + 1  # the spaces within 3, or stay


class Plays:
    """Answers card choices by name: the next card of `wanted` when offered, else pass."""

    def __init__(self, *wanted: str) -> None:
        self.wanted = list(wanted)

    def choose(self, game, side, label, options):
        protos = [game.state["cards"][o.id]["proto"] if isinstance(o, Ref) and o.kind == "card" else o for o in options]
        if self.wanted and self.wanted[0] in protos:
            return protos.index(self.wanted.pop(0))
        return protos.index(None) if None in protos else 0


class PlaysThenAI(Plays):
    """Plays the named cards, then answers every other choice as the `ai` player (card choices: pass)."""

    def choose(self, game, side, label, options):
        if not label.startswith("choose card"):
            return AIPolicy().choose(game, side, label, options)
        return super().choose(game, side, label, options)


def test_hungry_dead_sacrifices_three_zombies_and_lets_the_hand_grow_past_four(pack):
    game = bare_game(pack)
    put(game, "sally", "town_center.a1")
    far = next(s for s in game.board.spaces if s.startswith("l_boards.") and s.endswith(".a1"))  # an outer corner
    zombies = [put(game, "zombie", space) for space in ("town_center.a1", "town_center.b2", "town_center.c3", far)]
    game.policies["zombies"] = PlaysThenAI("hungry_dead")
    for proto in ("hungry_dead", "shamble", "shamble", "catfight"):
        to_hand(game, proto, "zombies")
    game.emit("zombie_turn.spawn_roll.start")
    assert [e["card"] for e in game.entries if e["type"] == "play"] == ["hungry_dead"]
    assert len(hand(game, "zombies")) == 5  # 4 - Hungry Dead + 2 drawn
    left = [z for z in zombies if game.state["units"][z.id]["space"] is not None]
    assert left == [zombies[0]]  # the three farthest from the Hero went back to the pool (§17.5.4)
    assert not any(e["type"] == "kill" for e in game.entries)  # a Sacrifice is no kill


def test_a_sacrifice_the_zombies_cannot_pay_is_not_offered(pack):
    # CR §7.1.3: to play a card with a Sacrifice the Zombie player must be able to pay it.
    game = bare_game(pack)
    zombies = [put(game, "zombie", "town_center.a1"), put(game, "zombie", "town_center.c3")]
    offered = []

    class Notes(Plays):
        def choose(self, game, side, label, options):
            offered.extend(game.state["cards"][o.id]["proto"] for o in options if isinstance(o, Ref))
            return super().choose(game, side, label, options)

    game.policies["zombies"] = Notes("hungry_dead")
    for proto in ("hungry_dead", "risen_from_the_grave", "shamble", "catfight"):
        to_hand(game, proto, "zombies")
    from tests.engine.test_lnoe_faq import to_discard
    to_discard(game, "lights_out")  # (something for Risen From the Grave to take back: session 31)
    game.emit("zombie_turn.spawn_roll.start")
    assert "risen_from_the_grave" in offered and "hungry_dead" not in offered  # 2 Zombies pay 2, not 3
    assert not [e for e in game.entries if e["type"] == "play" and e["card"] == "hungry_dead"]
    assert all(game.state["units"][z.id]["space"] for z in zombies)


def test_discarding_the_last_hero_card_wins_for_the_zombies(pack):
    game = bare_game(pack, zombies=[0])
    pile = game.state["decks"]["hero_deck"]
    for cid in pile["draw"][:-1]:
        game.state["cards"][cid]["where"] = "box"
    pile["draw"] = pile["draw"][-1:]
    to_hand(game, "ransacked", "zombies")
    game.emit("zombie_turn.spawn_roll.start")
    assert pile["draw"] == [] and len(pile["discard"]) == 1
    assert game.state["result"]["winner"] == "zombies"


def test_i_dont_trust_em_stops_exchanges_until_the_next_zombie_turn_and_is_discarded_at_once(pack):
    """Complete Rulebook App. III errata: until the start of the next Zombie Turn Heroes may not Exchange
    Items; discard the card (it does not stay in play, so it cannot be cancelled there later)."""
    from spawnpit.engine import flow

    game = bare_game(pack, zombies=[0])
    sheriff, becky = put(game, "sheriff_anderson", "town_center.b2"), put(game, "becky", "town_center.b2")
    exchange = action_block(game, "exchange_items")
    assert flow._allowed(game, exchange, sheriff)
    card = to_hand(game, "i_dont_trust_em", "zombies")
    game.emit("zombie_turn.spawn_roll.start")
    assert where(game, card) == "discard" and marked(game, sheriff, "no_exchange") and marked(game, becky, "no_exchange")
    assert not flow._allowed(game, exchange, sheriff) and not flow._allowed(game, exchange, becky)
    game.emit("zombie_turn.start")
    assert not marked(game, sheriff, "no_exchange") and flow._allowed(game, exchange, sheriff)


def test_teen_angst_hinders_a_student_who_then_loses_the_next_move_action(pack):
    game = bare_game(pack, zombies=[0, 0])
    billy = put(game, "billy", "town_center.b2")
    to_hand(game, "teen_angst", "zombies")
    game.emit("zombie_turn.spawn_roll.start")
    assert marked(game, billy, "hindered")
    with pytest.raises(EndAction):  # the step itself ends, before its actions (rule Hindered)
        game.emit("hero_turn.move", {"unit": billy})
    assert not marked(game, billy, "hindered")
    assert not _moment(game, ["hero_turn", "move"], "start", {"unit": billy})


# ---- Hero Events ------------------------------------------------------------------------------------------

def test_courage_gives_a_fight_die_per_zombie_space_entered_until_the_fight_step_ends(pack):
    game = bare_game(pack, heroes=[0])
    sheriff = put(game, "sheriff_anderson", "town_center.a1")
    for space in ("town_center.a2", "town_center.a3"):
        put(game, "zombie", space)
    card = to_hand(game, "courage", "heroes")
    base = game.table.attribute(sheriff, "fight_dice")
    game.state["counters"]["move_roll"] = 4  # (the Hero has rolled a 4 to Move)
    game.emit("move_ready", {"mover": sheriff})  # offered as the Hero Moves, about to walk
    assert where(game, card) == "play"
    ctx = game._plain_ctx()
    for space in ("town_center.a2", "town_center.a3", "town_center.b3"):
        game.raise_now("hero.entered", {"unit": sheriff, "space": Ref("space", space)})
    assert game.table.attribute(sheriff, "fight_dice") == base + 2
    _moment(game, ["hero_turn", "fight"], "end", {"unit": sheriff})
    assert game.table.attribute(sheriff, "fight_dice") == base
    assert where(game, card) == "discard" and game.table.attribute(Ref("card", card), "extra_fight_dice") == 0
    assert ctx


def test_heros_sacrifice_takes_the_zombies_of_the_space_along(pack):
    game = bare_game(pack, heroes=[0, 0])  # play it; the first option
    billy = put(game, "billy", "town_center.b2")
    zombies = [put(game, "zombie", "town_center.b2") for _ in range(2)]
    other = put(game, "zombie", "town_center.a1")
    card = to_hand(game, "heros_sacrifice", "heroes")
    game.kill(billy, None, game._plain_ctx())
    assert all(game.state["units"][z.id]["space"] is None for z in zombies)
    assert game.state["units"][other.id]["space"] == game.board.resolve("town_center.a1")
    assert game.state["counters"]["zombies_killed"] == 2 and where(game, card) == "discard"


def test_cancelling_courage_takes_back_the_fight_dice_it_gave(pack):
    game = bare_game(pack, heroes=[0], zombies=[0, 0])  # Courage; then Falling Darkness on it
    sheriff = put(game, "sheriff_anderson", "town_center.a1")
    put(game, "zombie", "town_center.a2")
    card = to_hand(game, "courage", "heroes")
    darkness = to_hand(game, "falling_darkness", "zombies")
    base = game.table.attribute(sheriff, "fight_dice")
    game.state["counters"]["move_roll"] = 4  # (the Hero has rolled a 4 to Move)
    game.emit("move_ready", {"mover": sheriff})  # offered as the Hero Moves, about to walk
    game.raise_now("hero.entered", {"unit": sheriff, "space": Ref("space", "town_center.a2")})
    assert game.table.attribute(sheriff, "fight_dice") == base + 1
    game.emit("zombie_turn.spawn_roll.start")
    assert where(game, card) == "discard" and where(game, darkness) == "discard"
    assert game.table.attribute(sheriff, "fight_dice") == base


def test_decline_in_a_cards_own_hook_of_a_pack_the_compiler_never_saw_is_a_game_error(pack):
    """A played card's own `on card_played` hook runs apart from the others (decks._own_run); a
    `decline` there, which only a hand-edited pack can hold, stops the game with an error naming the
    card's rule and the hook, not a traceback."""
    import copy

    import pytest

    from spawnpit.engine import GameError

    edited = copy.deepcopy(pack)
    card = next(o for o in edited["objects"] if o["kind"] == "card" and o["id"] == "twisted_ankle")
    own = next(h for h in card["hooks"] if h["event"] == "card_played" and not h["replace"])
    own["body"] = [{"do": "decline", "what": None, "args": {}}]  # as a hand-edited pack.json could say
    game = bare_game(edited, zombies=[0], heroes=[0])
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    to_hand(game, "twisted_ankle", "zombies")
    dice(game, [5])
    with pytest.raises(GameError, match=r"Twisted Ankle.*on card_played: `decline` outside an `instead of` hook"):
        game.emit("move", {"unit": sheriff})


# ---- Items ----------------------------------------------------------------------------------------------

class _Recording:
    """The first option every time, each choice's options kept."""

    name = "recording"

    def __init__(self) -> None:
        self.asked: list[tuple[str, list]] = []

    def choose(self, game, side: str, label: str, options: list) -> int:
        self.asked.append((label, list(options)))
        return 0


def test_the_fire_extinguisher_drives_a_zombie_one_space_farther_from_the_hero(pack):
    """Each Zombie in the chosen space goes to a space next to it that is farther from the Hero: a Zombie
    one space away goes two away, never to another space next to the Hero."""
    game = bare_game(pack)
    heroes = game.policies["heroes"] = _Recording()
    jenny = put(game, "jenny", "town_center.b2")
    zombie = put(game, "zombie", "town_center.c3")
    card = to_hand(game, "fire_extinguisher", "heroes")
    game.state["cards"][card]["where"] = jenny.id
    _moment(game, ["hero_turn", "exchange"], "end", {"unit": jenny})
    assert where(game, card) == "discard"
    spaces = [opt for _, options in heroes.asked for opt in options if isinstance(opt, Ref) and opt.kind == "space"]
    destinations = [s for s in spaces if s.id != game.board.resolve("town_center.c3")]
    assert destinations and all(game.table.apart(jenny, s) == 2 for s in destinations)
    now = game.state["units"][zombie.id]["space"]
    assert game.table.apart(jenny, Ref("space", now)) == 2
    # the Burn 'em Out play-test was asked "a space to drive a Zombie into" twice with no word of which one
    assert "The spray drives Zombie 1 back a space (Jenny)" in [
        describe_entry(game, e) for e in game.entries if e["type"] == "note"]


def test_catfight_is_played_only_while_two_female_heroes_share_a_space(pack):
    """The solo Zombie AI uses a card when it applies (§17.5.3.2): Catfight with Jenny and Sally apart
    stays in the hand; once they share a space it is played and both are Hindered."""
    game = bare_game(pack)
    game.policies["zombies"] = AIPolicy()
    jenny, sally = put(game, "jenny", "town_center.a1"), put(game, "sally", "town_center.c3")
    card = to_hand(game, "catfight", "zombies")
    game.emit("zombie_turn.spawn_roll.start")
    assert where(game, card) == "side:zombies"
    assert not any(e["type"] == "play" for e in game.entries)
    game.move_unit(sally, Ref("space", game.board.resolve("town_center.a1")), game._plain_ctx())
    game.emit("zombie_turn.spawn_roll.start")
    assert [e["card"] for e in game.entries if e["type"] == "play"] == ["catfight"]
    assert where(game, card) == "discard"
    assert marked(game, jenny, "hindered") and marked(game, sally, "hindered")


def test_hysteria_does_not_test_a_cancel_card_aimed_at_a_one_shot_zombie_card(pack):
    """Complete Rulebook App. III (Hysteria): it tests Hero Events played on its Hero and cards played to
    cancel a Zombie card that Remains in Play on that Hero (Hysteria itself). Session 25 also tested Not
    This Time! on a Vicious Attack, a card played and gone; the session 26 play-test lost a Hero to it
    (Not This Time! on Divide and Conquer failed on a Hysteria roll)."""
    game = bare_game(pack, zombies=[1, 0], heroes=[0])  # Zombies: pass after the roll, then Vicious Attack
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    in_play(game, "hysteria", sheriff)
    game.state["units"][sheriff.id]["markers"]["hysterical"] = 1
    vicious = to_hand(game, "vicious_attack", "zombies")
    to_hand(game, "uuuurrggghh", "zombies")
    cancel = to_hand(game, "not_this_time", "heroes")
    left = dice(game, [2, 3], [5])  # the fight's dice; no Hysteria roll
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert not left
    assert where(game, cancel) == "discard" and where(game, vicious) == "discard"
    assert game.state["units"][sheriff.id]["wounds"] == 1  # the Vicious Attack's second Wound cancelled
    assert not [n for n in notes(game) if "Hysteria" in n]
