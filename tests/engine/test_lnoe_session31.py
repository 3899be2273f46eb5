"""Session 31: the ai Heroes see Zombie Heroes (a Zombie Hero walks D3 spaces, Zombie Hunger holding).

Zombie Heroes are a kind of their own (`zombie_hero`), so advice written as `count(zombie z where …)`
never counted them: in 200 AI games of each Advanced scenario, 76-93 % of games had one on the board, and
a Hero at 1 Health would Search or stand two spaces from one."""

from __future__ import annotations

import pytest

from spawnpit.engine import new_game
from spawnpit.engine.flow import _act
from spawnpit.engine.policies import ScriptedPolicy
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import card_offered, dice, put
from tests.engine.test_lnoe_audit import Picks


def _church_game(pack, scenario: str, policy):
    for seed in range(1, 200):
        game = new_game(pack, f"lnoe:{scenario}", seed=seed, policies={"heroes": policy, "zombies": ScriptedPolicy([])})
        church = [b for b in game.board.buildings if b.endswith(".church")]
        if church:
            game.state["at"] = ["test"]
            return game, sorted(game.board.spaces_of(church[0]))[0]
    raise AssertionError("no seed draws the Church")


def _route(game, unit: Ref, a: str, b: str) -> int:
    from spawnpit.engine import movement
    return movement.route(game, unit, a, b)


def _zombie_hero_at(game, to: str, n: int) -> Ref:
    """A Zombie Hero on a space it walks exactly n spaces from to reach `to` (walls no obstacle)."""
    unit = put(game, "zombie_hero", to)
    game.state["units"][unit.id]["space"] = next(s for s in sorted(game.board.spaces) if _route(game, unit, s, to) == n)
    return unit


@pytest.mark.parametrize("apart, search", [(1, False), (2, False), (4, True)])
def test_the_ai_does_not_search_where_a_zombie_hero_could_walk_in(pack, apart, search):
    """Escape in the Truck: Becky with one Health box left, in the Church with no Zombie near, Searches; not
    with a Zombie Hero one or two spaces off (it walks D3, and Zombie Hunger takes it into her space), as
    she would not with a Zombie next door; four off, she does."""
    policy = Picks()
    game, inside = _church_game(pack, "escape_in_the_truck", policy)
    becky = put(game, "becky", inside)
    game.state["units"][becky.id]["wounds"] = 2  # of 3 Health boxes
    _zombie_hero_at(game, inside, apart)
    phase = next(p for p in game.model.phases if p["id"] == "hero_turn")
    step = next(b for b in phase.get("blocks", []) if b.get("kind") == "step" and b.get("id") == "move")
    _act(game, phase, step, ["hero_turn", "move"], {"unit": becky})
    assert policy.actions == ["search" if search else "move"]


def test_a_hero_moving_keeps_two_spaces_from_a_zombie_hero(pack):
    """Defend the Manor House: a Hero with a roll of 1 next to nothing but a Zombie Hero two spaces away
    takes a space it cannot reach with a roll of 2 or less, when there is one; before, the Zombie Hero
    counted for nothing and the Hero would step toward it as readily as away."""
    policy = Picks()
    game, inside = _church_game(pack, "defend_the_manor_house", policy)
    street = next(s for s in sorted(game.board.spaces) if game.board.building_of(s) is None
                  and len(game.board.neighbours(s)) == 8)
    near = game.board.neighbours(street)
    hero = put(game, "becky", street)
    zombie_hero = put(game, "zombie_hero", street)
    # two spaces from the street space, on the far side of one neighbour
    far = next(s for s in sorted(game.board.spaces) if _route(game, zombie_hero, s, street) == 2
               and any(_route(game, zombie_hero, s, n) == 1 for n in near))
    game.state["units"][zombie_hero.id]["space"] = far
    dice(game, [1])
    game.emit("move", {"unit": hero})
    (options, index), = policy.asked
    spaces = [o.id for o in options if o is not None]
    close = [s for s in spaces if _route(game, zombie_hero, far, s) <= 2]
    away = [s for s in spaces if _route(game, zombie_hero, far, s) > 2]
    assert close and away  # both kinds of space were offered
    assert options[index].id in away


# ---- cards that say "a Zombie" mean a Zombie Hero too ----------------------------------------------------
# (base rulebook, Zombie Heroes: they work just like normal Zombies but for the exceptions it lists; the
# Complete Rulebook's glossary: "Zombie" is every type. An audit of every `zombie` selection in the content.)

def test_out_of_control_sends_a_hero_toward_a_zombie_hero_when_it_is_the_only_zombie(pack):
    """Before, with only a Zombie Hero on the board the card was not offered (`any(zombie)`), and a Zombie
    Hero nearer than every Zombie was not the one the Hero lurched toward."""
    from tests.engine.test_lnoe_faq import bare_game, to_hand, where

    game = bare_game(pack, zombies=["out_of_control"])
    billy = put(game, "billy", "town_center.a1")
    put(game, "zombie_hero", "town_center.c3")
    card = to_hand(game, "out_of_control", "zombies")
    dice(game, [1])
    game.emit("move", {"unit": billy})
    assert where(game, card) == "discard" and where(game, billy) == "town_center.b2"


def test_divide_and_conquer_draws_a_zombie_hero_on_the_section_too(pack):
    """Every Zombie on the lone Hero's board section moves one space toward her."""
    from tests.engine.test_lnoe_faq import bare_game, to_hand, where

    game = bare_game(pack)
    becky = put(game, "becky", "town_center.c3")
    zombie_hero = put(game, "zombie_hero", "town_center.a1")
    card = to_hand(game, "divide_and_conquer", "zombies")
    game.play(Ref("card", card), None, None, game._plain_ctx())
    assert where(game, zombie_hero) == "town_center.b2" and where(game, becky) == "town_center.c3"


def test_shamble_may_be_played_on_a_zombie_hero(pack):
    from tests.engine.test_lnoe_faq import bare_game, to_hand

    game = bare_game(pack, zombies=["shamble"])
    put(game, "becky", "town_center.c3")
    zombie_hero = put(game, "zombie_hero", "town_center.a1")
    to_hand(game, "shamble", "zombies")
    dice(game, [1])
    game.emit("zombie_turn.move_zombies.start")
    label, options = game.policies["zombies"].asked[1]
    assert label == "choose unit to play it on (a Zombie or a Zombie Hero)" and options == [zombie_hero]


def test_a_unit_offered_says_what_it_is_marked_with(pack):
    """An Event played on a Hysterical Hero may fail: the choice of a Hero to play it on now says
    "[Hysterical]" (the `c` panel did; the question did not). Bookkeeping markers stay out, and a Zombie
    Hero's marker is not said twice."""
    from spawnpit.engine.human import option_label
    from tests.engine.test_lnoe_faq import bare_game

    game = bare_game(pack)
    becky = put(game, "becky", "town_center.c3")
    game.mark(becky, "hysterical", 1, game._plain_ctx())
    game.mark(becky, "won_fight", 1, game._plain_ctx())  # (hidden: the content's bookkeeping)
    assert option_label(game, becky).endswith("in Town Center c3 [Hysterical]")
    game.mark(becky, "hindered", 1, game._plain_ctx())
    assert option_label(game, becky).endswith("[Hysterical, Hindered]")
    zombie_hero = put(game, "zombie_hero", "town_center.a1")
    game.mark(zombie_hero, "zombie_hero_marker", 1, game._plain_ctx())
    assert "[" not in option_label(game, zombie_hero)


# ---- Just What I Needed (a play-test of Die Zombies, Die! as the Heroes) ---------------------------------

def test_a_card_taken_back_at_the_start_of_a_move_action_may_be_played_in_it(pack):
    """Just What I Needed takes Faith back at the start of Becky's Move Action: Faith, whose timing is that
    very moment, is offered then, not at the next Hero's Move Action. (An event's hooks run in order of
    title; Faith's turn had passed while it lay in the discard pile. A card brought onto the table during
    an event now hears the rest of it.)"""
    from tests.engine.test_lnoe_faq import bare_game, to_discard, to_hand, where

    game = bare_game(pack, heroes=["just_what_i_needed", "faith", "faith"])
    becky = put(game, "becky", "town_center.c3")
    to_hand(game, "just_what_i_needed", "heroes")
    faith = to_discard(game, "faith")
    game.emit("hero_turn.move.start", {"unit": becky})
    assert [label for label, _ in game.policies["heroes"].asked] == ["choose card to play", "choose card",
                                                                     "choose card to play"]
    assert where(game, faith) == "play" and game.state["cards"][faith]["target"] == ["unit", becky.id]


def test_an_item_taken_back_is_held_to_the_carrying_limit(pack):
    """Becky with two Weapons takes the Pump Shotgun back: one Weapon must go at once (base rulebook,
    Items). Before, she carried three and fired the shotgun that turn."""
    from tests.engine.test_lnoe_faq import bare_game, give, to_discard, to_hand

    game = bare_game(pack, heroes=["just_what_i_needed", "pump_shotgun", "baseball_bat"])
    becky = put(game, "becky", "town_center.c3")
    give(game, "baseball_bat", becky)
    give(game, "torch", becky)
    to_hand(game, "just_what_i_needed", "heroes")
    to_discard(game, "pump_shotgun")
    game.emit("hero_turn.move.start", {"unit": becky})
    held = sorted(r["proto"] for r in game.state["cards"].values() if r["where"] == becky.id)
    assert held == ["pump_shotgun", "torch"]
    assert any("over the limit of 2" in e.get("text", "") for e in game.entries)


def test_just_what_i_needed_is_offered_before_the_zombie_turn_s_fights(pack):
    """Its timing is the start of a Move Action or a fight: the Zombie Turn's fights too. Only for a Hero
    with Zombies in the space, and named in the question."""
    from tests.engine.test_lnoe_faq import bare_game, to_discard, to_hand, where

    game = bare_game(pack, heroes=["just_what_i_needed", "meat_cleaver"])
    becky = put(game, "becky", "town_center.c3")
    put(game, "sally", "town_center.a1")  # no Zombie with her: not asked for her
    put(game, "zombie", "town_center.c3")
    to_hand(game, "just_what_i_needed", "heroes")
    cleaver = to_discard(game, "meat_cleaver")
    game.emit("zombie_turn.fight.start")
    labels = [label for label, _ in game.policies["heroes"].asked]
    assert labels == ["choose card to play (before the Zombie Turn's fights)", "choose card"]
    assert game.policies["heroes"].rules[0] == "Just What I Needed"
    assert where(game, cleaver) == becky.id


def test_explaining_a_bare_option_tells_the_card_the_question_is_about(pack):
    """The Flashlight's "Keep it / throw it away and draw again": `?1` told the Flashlight's text, and the
    player paged through `c` to read the card drawn. It now tells that card's text too."""
    from spawnpit.engine import human
    from tests.engine.test_lnoe_faq import bare_game, give

    seen = []

    class Watch:
        name = "watch"

        def choose(self, game, side, label, options):
            rule = human._asking_rule(side)
            seen.append([human.explain_option(game, o, rule) for o in options])
            return 0

    game = bare_game(pack)
    game.policies["heroes"] = Watch()
    becky = put(game, "becky", "town_center.c3")
    give(game, "flashlight", becky)
    drawn = give(game, "get_back_you_devils", becky)
    game.state["counters"]["searching"] = 1
    game.emit("card_found", {"finder": becky, "card": drawn})
    keep, _ = seen[0]
    assert keep.startswith("Flashlight asks: When this Hero Searches")
    assert "\nGet Back You Devils! (drawn by Becky): type: event" in keep  # (an Event is not "carried")
    assert "text: Play in a fight" in keep.split("\nGet Back You Devils!", 1)[1]


def test_the_ai_darkens_a_building_near_a_hero_and_not_one_already_dark(pack):
    """Lights Out: a play-test's Zombie player darkened the Gun Shop twice, no Hero near it. The ai now
    takes a building not yet dark, with a Hero outside it who could walk to it in four spaces."""
    from spawnpit.engine import AIPolicy
    from tests.engine.test_lnoe_faq import bare_game, to_hand

    def darkened(game) -> str:
        card = to_hand(game, "lights_out", "zombies")
        game.play(Ref("card", card), None, None, game._plain_ctx())
        return game.state["cards"][card]["target"][1]

    game = bare_game(pack)
    game.policies["zombies"] = AIPolicy()
    street = next(s for s in sorted(game.board.spaces) if game.board.info[s].building is None
                  and not s.startswith("town_center"))
    becky = put(game, "becky", street)
    near = {b for b in game.board.buildings
            if game.table.nearest(Ref("space", street), [Ref("space", s) for s in game.board.spaces_of(b)]) <= 4}
    first = darkened(game)
    assert first in near
    second = darkened(game)
    assert second != first and (second in near or len(near) == 1)
    assert game.state["units"][becky.id]["space"] == street


def test_the_sum_of_new_zombies_is_said_before_they_come(pack):
    """"New Zombies: 11 over 4 places (2 on each)…" came after the eight of the even share were placed."""
    from tests.engine.test_lnoe_faq import bare_game

    game = bare_game(pack)
    pits = sorted(game.board.spawn_points)
    game.emit("new_zombies", {"number": 2 * len(pits) + 1, "places": [Ref("space", p) for p in pits]})
    kinds = [e["type"] if e["type"] != "note" else e["text"][:12] for e in game.entries]
    assert kinds.index("New Zombies:") < kinds.index("spawn")


def test_the_story_tells_a_card_s_text_the_first_time_it_is_played(pack):
    """`--story` read every Shamble's and every Locked Door's text again; the in-game log still tells it
    each time (the other side may answer the card)."""
    from collections import Counter

    from spawnpit.engine import AIPolicy, new_game, play
    from spawnpit.engine.human import EVERYONE, describe_entry, story

    for seed in range(40):
        game = new_game(pack, "lnoe:die_zombies_die", seed=seed, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
        play(game)
        played = Counter(e["card"] for e in game.entries if e["type"] == "play")
        twice = [card for card, n in played.items() if n >= 2 and game.model.objects.get(("card", card), {}).get("props", {}).get("text")]
        if twice:
            break
    card = twice[0]
    title = game.model.objects[("card", card)]["title"]
    lines = [line for line in story(game, game.entries) if f" play {title}" in line]
    assert len(lines) >= 2 and ": " in lines[0].split(f" play {title}", 1)[1]
    assert all(": " not in line.split(f" play {title}", 1)[1] for line in lines[1:])
    # the game's own log tells it each time (the other side may answer the card)
    logged = [describe_entry(game, e, EVERYONE) for e in game.entries if e["type"] == "play" and e["card"] == card]
    assert len(logged) >= 2 and all(": " in said.split(f" play {title}", 1)[1] for said in logged)


def test_a_hero_placed_in_their_building_at_setup_enters_it_then_is_placed(pack):
    """The story read "Becky enters at Hospital f1", then "Becky is placed in Hospital h2": two places.
    A Hero placed later in the same moment enters the building; the space comes with the placement."""
    from spawnpit.engine import AIPolicy, new_game, play
    from spawnpit.engine.human import story

    game = new_game(pack, "lnoe:die_zombies_die", seed=11, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
    play(game)
    told = story(game, game.entries)
    placed = [e for e in game.entries if e["type"] == "move" and e.get("placed")]
    assert placed
    for move in placed:
        name = game.model.objects[("unit", game.state["units"][move["unit"]]["proto"])]["title"]
        assert any(line.startswith(f"  {name} enters play in ") for line in told)
        assert not any(line.startswith(f"  {name} enters at ") for line in told)
        assert any(line.startswith(f"  {name} is placed in ") for line in told)


@pytest.mark.parametrize("where", ["centre", "random building", "base game"])
def test_with_the_complete_rulebook_a_hero_without_a_start_building_may_start_in_a_random_building(pack, where):
    """Complete Rulebook §5.6.6.I: a Hero whose Start: building is not on the board is placed as a new Hero
    is: the centre space with a free Hero card, or a Random Building without one. The base rulebook (the
    five 2007 scenarios) knows only the first."""
    from spawnpit.engine import AIPolicy, new_game
    from spawnpit.engine.flow import run

    class Starting:
        name = "starting"

        def __init__(self) -> None:
            self.ai, self.offered = AIPolicy(), []

        def choose(self, game, side, label, options):
            texts = [o for o in options if isinstance(o, str)]
            if any(t.startswith("Start in a Random Building") for t in texts):
                self.offered.append(texts)
                return options.index(next(t for t in texts if t.startswith(
                    "Start in a Random Building" if where == "random building" else "Start in the centre")))
            return self.ai.choose(game, side, label, options)

    policy = Starting()
    game = new_game(pack, "lnoe:die_zombies_die", seed=11, policies={"heroes": policy, "zombies": AIPolicy()})
    game.state["counters"]["complete_rulebook"] = 0 if where == "base game" else 1
    game.state["result"] = None
    original = game.emit

    def stop_after_setup(event, params=None, ctx=None):
        if event == "round.start":
            raise StopIteration
        return original(event, params, ctx)

    game.emit = stop_after_setup
    with pytest.raises(StopIteration):
        run(game)
    jake = next(u for u, r in game.state["units"].items() if r["proto"] == "jake_cartwright")
    space = game.state["units"][jake]["space"]
    drawn = [e for e in game.entries if e["type"] == "draw" and e.get("to") == jake]
    assert len(policy.offered) == (0 if where == "base game" else 1)  # for Jake only: the others' buildings are on the board
    if where in ("centre", "base game"):
        assert space == "town_center.b2" and drawn
    else:
        assert game.board.info[space].building is not None and not drawn
        from spawnpit.engine.human import story  # one place said, the building's (not the centre, then it)
        told = [line for line in story(game, game.entries) if line.startswith("  Jake Cartwright ")]
        assert told[0] == "  Jake Cartwright enters play" and told[1].startswith("  Jake Cartwright is placed in ")


def test_the_other_side_reads_which_items_a_hero_drew_but_not_which_events(pack):
    """A play-test as the Zombies read "2 drawn from Hero Deck to Jake Cartwright", then "Jake carries 3
    Weapons … Baseball Bat discarded", and could not tell what he had found: Items lie face up by their
    Hero, so they are named to every side; an Event goes to a hidden hand, so it is not."""
    from spawnpit.engine.human import describe_entry
    from tests.engine.test_lnoe_faq import _take, bare_game

    game = bare_game(pack)
    jake = put(game, "jake_cartwright", "town_center.b2")
    bat, devils = _take(game, "baseball_bat"), _take(game, "get_back_you_devils")
    for cid in (bat, devils):
        game.state["cards"][cid]["where"] = jake.id
    entry = {"type": "draw", "cards": [bat, devils], "count": 2, "deck": "hero_deck", "to": jake.id}
    assert describe_entry(game, entry, "zombies") == \
        "2 drawn from Hero Deck to Jake Cartwright: Baseball Bat and 1 other card"
    assert describe_entry(game, entry, "heroes").endswith(": Baseball Bat, Get Back You Devils!")
    alone = {**entry, "cards": [devils], "count": 1}
    assert describe_entry(game, alone, "zombies") == "1 drawn from Hero Deck to Jake Cartwright"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_hero_moving_does_not_stay_in_a_zombie_s_space(pack, seed):
    """A play-test's ai Jake, one Health box left, rolled 1 and stayed in a Zombie's space: he fought it in
    his own turn and died. A Hero who stays with a Zombie fights it now and again in the Zombie Turn; one
    space away, only then. (Every space he could reach was one the Zombie could step into.)"""
    from tests.engine.test_lnoe_faq import where

    policy = Picks()
    game, inside = _church_game(pack, "escape_in_the_truck", policy)
    game.state["seed"] = seed  # (the ai's own stream breaks its ties: three draws of it)
    jake = put(game, "jake_cartwright", inside)
    game.state["units"][jake.id]["wounds"] = game.table.attribute(jake, "health") - 1
    put(game, "zombie", inside)
    dice(game, [1])
    game.emit("move", {"unit": jake})
    (options, index), = policy.asked
    assert any(o is not None and o.id == inside for o in options) and len(options) > 2
    assert where(game, jake) != inside


def test_c_pages_end_between_two_cards(pack):
    """A play-test's `c 1` ended in the middle of a card, and page 2 began "Zombie is killed instead.":
    a page now ends between two cards (a card taller than a page alone would be cut)."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine.human import HumanPolicy
    from tests.engine.test_lnoe_faq import bare_game, to_hand

    game = bare_game(pack)
    put(game, "becky", "town_center.b2")
    put(game, "zombie", "town_center.a1")
    protos = list(dict.fromkeys(r["proto"] for r in game.state["cards"].values()
                                if r["deck"] == "zombie_deck" and r["where"] == "deck"))
    for card in protos[:12]:
        to_hand(game, card, "zombies")
    policy = HumanPolicy(console=Console(file=StringIO(), width=80, height=16, color_system=None))

    def page(n: int) -> list[str]:
        out = Console(file=StringIO(), width=80, color_system=None)
        out.print(policy._command(game, "zombies", f"c {n}", [None], {}))
        return out.file.getvalue().splitlines()

    first = page(1)
    pages = int(first[-1].split(" of ")[1].split(";")[0].rstrip(")"))
    assert pages >= 2
    texts = ["\n".join(page(n)[:-1]) for n in range(1, pages + 1)]
    for card in protos[:12]:
        text = " ".join(str(game.model.objects[("card", card)]["props"]["text"]).split())
        assert sum(text in " ".join(t.split()) for t in texts) == 1, card  # whole on one page


@pytest.mark.parametrize("near", [False, True])
def test_the_ai_cancels_lights_out_only_on_a_building_a_hero_is_near(pack, near):
    """A play-test's ai Heroes spent Not This Time! on Lights Out in a building no Hero was heading for."""
    from spawnpit.engine import AIPolicy
    from tests.engine.test_lnoe_cards import in_play, to_hand, where
    from tests.engine.test_lnoe_faq import bare_game

    game = bare_game(pack)
    game.policies["heroes"] = AIPolicy()
    building = next(b for b in sorted(game.board.buildings) if not b.startswith("town_center"))
    inside = sorted(game.board.spaces_of(building))[0]
    far = max(sorted(game.board.spaces), key=lambda s: game.board.between(s, inside))
    outside = next(s for s in sorted(game.board.spaces) if game.board.info[s].building != building  # (one inside
                   and game.board.between(s, inside) == 2)  # is not hindered by the dark: session 31's review)
    put(game, "becky", outside if near else far)
    lights = in_play(game, "lights_out", Ref("building", building))
    game.mark(Ref("building", building), "lights_out", 1, game._plain_ctx())
    cancel = to_hand(game, "not_this_time", "heroes")
    game.emit("hero_turn.start")
    assert (where(game, lights) == "discard") is near
    assert (where(game, cancel) == "discard") is near


def test_p_bang_on_just_what_i_needed_before_the_zombie_turn_s_fights_passes_it_for_every_hero(pack):
    """A play-test typed `p!` at "Just What I Needed (Billy)" before the Zombie Turn's fights, and was asked
    again for Johnny, Sally and Father Joseph: the Hero's name was in the question's text, so each Hero's
    question was another one. It is in the heading now, and `p!` passes them all."""
    from io import StringIO

    from rich.console import Console

    from spawnpit.engine.human import HumanPolicy
    from tests.engine.test_lnoe_faq import bare_game, to_discard, to_hand

    game = bare_game(pack)
    for hero, space in (("becky", "town_center.c3"), ("sally", "town_center.a1")):
        put(game, hero, space)
        put(game, "zombie", space)
    to_hand(game, "just_what_i_needed", "heroes")
    to_discard(game, "meat_cleaver")
    typed = iter(["p!"])
    con = Console(file=StringIO(), width=80, height=24, color_system=None)
    game.policies["heroes"] = HumanPolicy(console=con, input=lambda: next(typed))
    game.emit("zombie_turn.fight.start")
    out = con.file.getvalue()
    assert next(typed, None) is None and "(p! this turn)" in out
    assert "Just What I Needed (Sally" in out or "Just What I Needed (Becky" in out


def test_a_space_with_two_markers_shows_the_latest(pack):
    """Burn 'em Out: a New Spawning Pit blown up still read "NS" on the map; its Destroyed Spawning Pit
    marker ("DS" in the key) was never drawn."""
    from spawnpit.engine import new_game
    from spawnpit.engine.human import _space_marker
    from spawnpit.engine.policies import ScriptedPolicy

    game = new_game(pack, "lnoe:burn_em_out", seed=1, policies={"heroes": ScriptedPolicy([]), "zombies": ScriptedPolicy([])})
    space = Ref("space", sorted(game.board.spaces)[0])
    game.mark(space, "new_spawning_pit", 1, game._plain_ctx())
    assert _space_marker(game, space.id) == "new_spawning_pit"
    game.mark(space, "destroyed_pit", 1, game._plain_ctx())
    assert _space_marker(game, space.id) == "destroyed_pit"


@pytest.mark.parametrize("apart, offered, played", [(1, True, True), (3, True, False), (5, False, False)])
def test_farmer_sty_is_offered_with_a_zombie_hero_three_spaces_off(pack, apart, offered, played):
    """A play-test held Farmer Sty and was not asked with a Zombie Hero three spaces from Johnny (it was
    offered only with a Zombie one step away); Shamble brought the Zombie Hero in and Johnny died. It is
    offered with one up to three spaces off; the ai still plays it only with one a step away."""
    from spawnpit.engine import AIPolicy
    from spawnpit.engine.flow import _moment
    from tests.engine.test_lnoe_cards import to_hand, where
    from tests.engine.test_lnoe_faq import bare_game

    game = bare_game(pack)
    asked = []
    ai = AIPolicy()

    class Watch:
        name = "watch"

        def choose(self, game, side, label, options):
            asked.append(label)
            return ai.choose(game, side, label, options)

    game.policies["heroes"] = Watch()
    johnny = put(game, "johnny", "town_center.b2")
    _zombie_hero_at(game, game.board.resolve("town_center.b2"), apart)
    sty = to_hand(game, "farmer_sty", "heroes")
    _moment(game, ["hero_turn", "fight"], "end", {"unit": johnny})
    assert bool(asked) is offered
    assert (where(game, sty) == "play") is played


def test_no_it_cant_be_says_the_friend_rises_before_the_hero_s_figure_is_taken_off(pack):
    """A play-test read "Becky enters at … d6", then "Becky taken off the board in … d6", as a Hero come
    and gone: the note that the friend rises as a Zombie Hero now comes between them."""
    from tests.engine.test_lnoe_faq import bare_game
    from tests.engine.test_lnoe_session11 import _play_no_it_cant_be

    game = bare_game(pack, "die_zombies_die", zombies=["no_it_cant_be"])
    _play_no_it_cant_be(game)
    kinds = [e["type"] for e in game.entries if e["type"] in ("enter", "note", "remove", "spawn")]
    start = kinds.index("enter")
    assert kinds[start:start + 2] == ["enter", "note"]
    note = next(e["text"] for e in game.entries if e["type"] == "note" and "missing friend" in e["text"])
    assert note.endswith("stumbles out of the Spawning Pit as a Zombie Hero: the figure is swapped for a Zombie Hero's")


@pytest.mark.parametrize("card", ["risen_from_the_grave", "i_dont_trust_em"])
def test_a_zombie_card_that_would_do_nothing_is_not_offered(pack, card):
    """A play-test's Zombies sacrificed two Zombies for Risen From the Grave to take back the only card in
    the discard pile, I Don't Trust 'em, and played that while it was still in effect. Risen From the
    Grave is not offered with an empty discard pile, nor I Don't Trust 'em while it holds."""
    from tests.engine.test_lnoe_cards import to_hand, where
    from tests.engine.test_lnoe_faq import bare_game, to_discard

    for useful in (False, True):
        game = bare_game(pack)
        becky = put(game, "becky", "town_center.b2")
        for _ in range(6):
            put(game, "zombie", "town_center.a1")
        if card == "risen_from_the_grave" and useful:
            to_discard(game, "shamble")
        if card == "i_dont_trust_em" and not useful:
            game.mark(becky, "no_exchange", 1, game._plain_ctx())
        mine = to_hand(game, card, "zombies")
        assert card_offered(game, mine, "zombie_events") is useful, useful
        if not useful:
            assert where(game, mine) == "side:zombies"


def test_a_hero_who_enters_play_during_an_event_takes_no_part_in_it(pack):
    """Only cards hear an event they came onto the table during: a new Hero who entered during the Hero
    Turn's end (and drew a free card, which changed the cards) was asked for her First Aid in that same
    event (Complete Rulebook §13.11.3: a Hero entering play sits the step out)."""
    from tests.engine.test_lnoe_faq import bare_game

    game = bare_game(pack)
    billy = put(game, "billy", "town_center.b2")
    game.state["units"][billy.id]["wounds"] = 1
    becky = put(game, "becky", "town_center.b2")
    first_aid = [h for h in game.model.hooks["hero_turn.end"] if h.owner == "unit:becky"]
    assert first_aid and game.in_play("unit:becky")
    game._late(first_aid, {})
    assert game.state["units"][billy.id]["wounds"] == 1 and not game.policies["heroes"].asked
    game.emit("hero_turn.end")  # (on its turn, as ever, she is asked)
    assert game.policies["heroes"].asked and becky


def test_a_system_that_names_no_carried_card_types_has_every_card_on_a_unit_carried(pack):
    """`carried` (LNOE: item, weapon) says which card types a unit carries face up; an LNOE Event on a
    Hero is one drawn, on its way to the hand. A system that says nothing (Night of the Living Dead) has
    every card on a unit carried: its survivors' Axe must not read "drawn by"."""
    from spawnpit.engine import new_game
    from spawnpit.engine.human import card_place, carried
    from spawnpit.engine.policies import ScriptedPolicy
    from tests.engine.test_lnoe_faq import bare_game, give

    game = bare_game(pack)
    becky = put(game, "becky", "town_center.b2")
    bat, devils = give(game, "baseball_bat", becky), give(game, "get_back_you_devils", becky)
    assert carried(game, bat.id) and not carried(game, devils.id)
    assert card_place(game, becky.id, devils.id) == "drawn by Becky"
    notld = new_game(pack, "notld:whats_happening", seed=1,
                     policies={s: ScriptedPolicy([]) for s in ("survivors", "zombies", "ghouls")})
    assert not notld.model.system.get("props", {}).get("carried")
    unit = notld.add_unit(notld.model.units[0], sorted(notld.board.spaces)[0]).id
    card = next(iter(notld.state["cards"]))
    assert carried(notld, card) and card_place(notld, unit, card).startswith("carried by ")


@pytest.mark.parametrize("card", ["lights_out", "locked_door"])
def test_the_ai_cancel_advice_skips_a_card_in_play_with_no_target(pack, card):
    """A Locked Door played with no doorway free to lock stays in play with no target: the ai's advice
    read `apart(h, nothing)` and stopped the game; a Lights Out with none read every space as its
    building's and spent a cancel card on it."""
    from spawnpit.engine import AIPolicy
    from tests.engine.test_lnoe_cards import in_play, to_hand, where
    from tests.engine.test_lnoe_faq import bare_game

    game = bare_game(pack)
    game.policies["heroes"] = AIPolicy()
    put(game, "becky", "town_center.b2")
    played = in_play(game, card)
    cancel = to_hand(game, "not_this_time", "heroes")
    game.emit("hero_turn.start")
    assert where(game, played) == "play" and where(game, cancel) == "side:heroes"


def test_the_ai_leaves_lights_out_alone_when_its_heroes_are_inside_the_dark_building(pack):
    """Lights Out stops a Hero stepping in; one already inside is not hindered."""
    from spawnpit.engine import AIPolicy
    from tests.engine.test_lnoe_cards import in_play, to_hand, where
    from tests.engine.test_lnoe_faq import bare_game

    game = bare_game(pack)
    game.policies["heroes"] = AIPolicy()
    building = next(b for b in sorted(game.board.buildings) if not b.startswith("town_center"))
    far = max(sorted(game.board.spaces), key=lambda s: game.board.between(s, sorted(game.board.spaces_of(building))[0]))
    put(game, "becky", sorted(game.board.spaces_of(building))[0])
    put(game, "billy", far)
    lights = in_play(game, "lights_out", Ref("building", building))
    cancel = to_hand(game, "not_this_time", "heroes")
    game.emit("hero_turn.start")
    assert where(game, lights) == "play" and where(game, cancel) == "side:heroes"


def test_closing_in_moves_a_zombie_hero_on_the_section_too(pack):
    """Closing In: each Zombie on the board section rolls and moves; a Zombie Hero is a Zombie."""
    from tests.engine.test_lnoe_faq import bare_game, to_hand
    from tests.engine.test_lnoe_session20 import GAS

    game = bare_game(pack, zombies=["closing_in", 0, 0, 0, "town_center.a1"])
    for _ in range(3):
        put(game, "zombie", GAS + "a1")  # the Sacrifice
    put(game, "zombie_hero", "town_center.a1")
    put(game, "becky", "town_center.c3")
    to_hand(game, "closing_in", "zombies")
    game.state["counters"]["zombie_cards_passed"] = 0
    dice(game, [2])
    game.emit("zombie_turn.spawn_roll.start")
    said = [e["text"] for e in game.entries if e["type"] == "note"]
    assert any(t.startswith("Zombie Hero may move up to 2 (Closing In") for t in said), said


def test_the_story_of_a_damaged_play_entry_is_its_fields_not_an_error(pack):
    """The story tells each card's text once through describe_entry, which never fails on an odd entry:
    a play entry with no card (a hand-edited log) reads as its fields."""
    from spawnpit.engine.human import story
    from tests.engine.test_lnoe_faq import bare_game

    game = bare_game(pack)
    told = story(game, [{"type": "play", "side": "zombies", "round": 1, "at": "zombie_turn"}])
    assert told[-1] == "  play: side=zombies"
