"""Session 5 LNOE content: Johnny's Blitz! (a walk that goes on through Zombie spaces), the last Hero
Events and Townsfolk that were played by hand (Faith, Escape Through the Windows, Recovery, Jeb, Farmer
Sty, Principal Gomez, Deputy Taylor, Mr. Hyde), and the cards whose names were placeholders. Forced
dice, scripted answers, exact outcomes."""

from __future__ import annotations

from spawnpit.engine import movement
from spawnpit.engine.flow import _moment
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import bare_game, dice, put


class Pick:
    """Scripted answers, each an option index or a test picking one out of the options offered."""

    name = "scripted"

    def __init__(self, *answers) -> None:
        self.answers = list(answers)
        self.asked: list[tuple[str, list]] = []

    def choose(self, game, side, label, options):
        self.asked.append((label, list(options)))
        if not self.answers:
            return 0
        answer = self.answers.pop(0)
        if callable(answer):
            return next(i for i, o in enumerate(options) if answer(o))
        return answer


def to_hand(game, proto: str, side: str) -> str:
    cid = next(c for c, r in game.state["cards"].items() if r["proto"] == proto and r["where"] == "deck")
    game.state["decks"][game.state["cards"][cid]["deck"]]["draw"].remove(cid)
    game.state["cards"][cid]["where"] = f"side:{side}"
    return cid


def give(game, proto: str, unit: Ref) -> str:
    cid = to_hand(game, proto, "x")
    game.state["cards"][cid]["where"] = unit.id
    return cid


def where(game, thing) -> str | None:
    if isinstance(thing, Ref):
        return game.state["units"][thing.id]["space"]
    return game.state["cards"][thing]["where"]


def wounds(game, unit: Ref) -> int:
    return game.state["units"][unit.id]["wounds"]


def notes(game) -> list[str]:
    return [e["text"] for e in game.entries if e["type"] == "note"]


def space(game, name: str) -> Ref:
    return Ref("space", game.board.resolve(name))


def street_of(game, building: str) -> str:
    return next(b for b in game.board.buildings if b.endswith("." + building)).rsplit(".", 1)[0]


# ---- Johnny's Blitz! ---------------------------------------------------------------------------------

def test_johnny_blitzes_the_zombie_on_his_first_space_and_carries_on_with_a_roll_of_4(pack):
    game = bare_game(pack, needs=("the_bank",))
    st = street_of(game, "the_bank")
    game.policies["heroes"] = Pick(0, lambda o: o == space(game, f"{st}.e4"))  # Blitz!; the space four along the street
    johnny = put(game, "johnny", f"{st}.a4")
    zombies = [put(game, "zombie", f"{st}.{s}") for s in ("b3", "b4", "b5")]  # every first step is a Zombie space
    left = dice(game, [4], [6, 3], [2])  # the move roll; the fight: 6 against 2, no doubles, the Zombie fended off
    _moment(game, ["hero_turn", "move"], "start", {"unit": johnny})
    game.emit("move_roll", {"mover": johnny})
    game.emit("move_ready", {"mover": johnny})  # Blitz! is asked as he Moves, about to walk
    assert space(game, f"{st}.e4") in movement.reach(game, johnny, 4)  # beyond the Zombies: Blitz! lets him
    game.emit("move", {"unit": johnny})
    assert not left
    assert where(game, johnny) == game.board.resolve(f"{st}.e4")
    assert [z for z in zombies if where(game, z) is not None] == zombies  # fended off, not killed
    assert "The Hero wins: the Zombie is fended off" in notes(game) and wounds(game, johnny) == 0
    _moment(game, ["hero_turn", "move"], "end", {"unit": johnny})
    assert not game.table.has(johnny, Ref("marker", "blitzing"))


def test_without_blitz_a_hero_stops_in_the_first_zombie_space(pack):
    game = bare_game(pack, needs=("the_bank",))
    st = street_of(game, "the_bank")
    billy = put(game, "billy", f"{st}.a4")
    for s in ("b3", "b4", "b5"):
        put(game, "zombie", f"{st}.{s}")
    _moment(game, ["hero_turn", "move"], "start", {"unit": billy})
    assert space(game, f"{st}.e4") not in movement.reach(game, billy, 4)
    dice(game, [4])
    game.policies["heroes"] = Pick(lambda o: o == space(game, f"{st}.b4"))
    game.emit("move", {"unit": billy})
    assert where(game, billy) == game.board.resolve(f"{st}.b4")


def test_johnny_fights_every_zombie_of_a_space_he_blitzes_then_moves_on(pack):
    game = bare_game(pack, needs=("the_bank",))
    st = street_of(game, "the_bank")
    game.policies["heroes"] = Pick(0, lambda o: o == space(game, f"{st}.e4"))
    johnny = put(game, "johnny", f"{st}.a4")
    for s in ("b3", "b4", "b5"):  # two Zombies on each first step
        put(game, "zombie", f"{st}.{s}")
        put(game, "zombie", f"{st}.{s}")
    left = dice(game, [4], [6, 3], [2], [5, 1], [3])  # two fights, both won without doubles
    _moment(game, ["hero_turn", "move"], "start", {"unit": johnny})
    game.emit("move", {"unit": johnny})
    assert not left
    assert notes(game).count("The Hero wins: the Zombie is fended off") == 2
    assert where(game, johnny) == game.board.resolve(f"{st}.e4")


def test_johnny_may_decline_the_blitz_and_then_his_move_ends_in_the_zombie_space(pack):
    game = bare_game(pack, needs=("the_bank",))
    st = street_of(game, "the_bank")
    game.policies["heroes"] = Pick(0, lambda o: o == space(game, f"{st}.e4"), 1)  # Blitz!; e4; then "Stop here"
    johnny = put(game, "johnny", f"{st}.a4")
    for s in ("b3", "b4", "b5"):
        put(game, "zombie", f"{st}.{s}")
    left = dice(game, [4])  # no fight
    _moment(game, ["hero_turn", "move"], "start", {"unit": johnny})
    game.emit("move", {"unit": johnny})
    assert not left
    assert where(game, johnny) in {game.board.resolve(f"{st}.{s}") for s in ("b3", "b4", "b5")}


def test_a_blitz_with_courage_stacks_a_fight_die_per_zombie_space(pack):
    game = bare_game(pack, needs=("the_bank",))
    st = street_of(game, "the_bank")
    game.policies["heroes"] = Pick(0, 0, lambda o: o == space(game, f"{st}.c4"))  # play Courage; Blitz!; go to c4
    johnny = put(game, "johnny", f"{st}.a4")
    for s in ("b3", "b4", "b5"):
        put(game, "zombie", f"{st}.{s}")
    courage = to_hand(game, "courage", "heroes")
    base = game.table.attribute(johnny, "fight_dice")
    left = dice(game, [2], [6, 3, 1], [2])  # the Blitz fight already rolls the Courage die
    game.emit("move", {"unit": johnny})  # the roll; Courage and Blitz! asked as he is about to walk
    assert where(game, courage) == "play"
    assert not left and where(game, johnny) == game.board.resolve(f"{st}.c4")
    assert game.table.attribute(johnny, "fight_dice") == base + 1


# ---- Hero Events ----------------------------------------------------------------------------------------

def test_faith_turns_a_wound_aside_on_4_and_is_lost_when_the_roll_fails(pack):
    game = bare_game(pack, heroes=[0])  # play Faith
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    faith = to_hand(game, "faith", "heroes")
    _moment(game, ["hero_turn", "move"], "start", {"unit": sheriff})
    assert where(game, faith) == "play"
    left = dice(game, [2, 3], [5], [4])  # the Zombie wins; Faith rolls 4
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert not left and wounds(game, sheriff) == 0 and where(game, faith) == "play"
    assert "Faith: the Wound is turned aside" in notes(game)
    left = dice(game, [2, 3], [5], [3])  # again; Faith rolls 3: the Sheriff is no Holy Hero
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert not left and wounds(game, sheriff) == 1 and where(game, faith) == "discard"
    left = dice(game, [2, 3], [5])  # Faith gone: no roll
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert not left and wounds(game, sheriff) == 2


def test_faith_on_a_holy_hero_holds_on_3_and_takes_one_of_a_vicious_attacks_two_wounds(pack):
    game = bare_game(pack, heroes=[0], zombies=[0])  # play Faith; the Zombies play Vicious Attack once they win
    joseph, zombie = put(game, "father_joseph", "town_center.b2"), put(game, "zombie", "town_center.b2")
    to_hand(game, "faith", "heroes")
    to_hand(game, "vicious_attack", "zombies")
    _moment(game, ["hero_turn", "move"], "start", {"unit": joseph})
    game.policies["heroes"].answers = [1]  # Strength of Spirit: no
    left = dice(game, [2, 3], [5], [3])
    game.emit("fight", {"fighter": joseph, "foe": zombie})
    assert not left and wounds(game, joseph) == 1
    assert "Faith: the Wound is turned aside" in notes(game)


def test_escape_through_the_windows_takes_every_hero_through_walls_for_the_turn(pack):
    game = bare_game(pack, heroes=[0], needs=("the_bank",))  # play it
    st = street_of(game, "the_bank")
    sheriff, billy = put(game, "sheriff_anderson", f"{st}.a2"), put(game, "billy", f"{st}.c2")
    put(game, "zombie", f"{st}.a3")  # outside the wall, one step from the Sheriff
    card = to_hand(game, "escape_through_the_windows", "heroes")
    outside = space(game, f"{st}.a3")
    assert outside not in movement.reach(game, sheriff, 1)
    game.emit("move_ready", {"mover": sheriff})  # offered as the Hero Moves, about to walk
    assert where(game, card) == "play"
    assert outside in movement.reach(game, sheriff, 1) and space(game, f"{st}.c3") in movement.reach(game, billy, 1)
    game.emit("hero_turn.end")
    assert outside not in movement.reach(game, sheriff, 1) and where(game, card) == "discard"


def test_escape_through_the_windows_gets_a_hero_past_a_locked_door_marker(pack):
    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    lock = to_hand(game, "locked_door", "box")
    door, outside = next((Ref("space", s), Ref("space", o)) for s in sorted(game.board.spaces)
                         if game.board.building_of(s) for o in sorted(game.board.spaces) if game.board.edge(s, o) == "door")
    game.state["cards"][lock].update(where="play", status="in_play", target=["space", door.id])
    for end in (door, outside):
        game.mark(end, "locked_door", 1, game._plain_ctx())
    game.state["units"][sheriff.id]["space"] = outside.id
    assert game.raise_now("hero.entered", {"unit": sheriff, "space": door, "from": outside}) == "replaced"
    game.mark(sheriff, "through_windows", 1, game._plain_ctx())
    assert game.raise_now("hero.entered", {"unit": sheriff, "space": door, "from": outside}) is None
    assert game.table.has(door, Ref("marker", "locked_door"))  # the Locked Door stays


def test_recovery_takes_back_the_revolver_that_ran_dry_this_turn_but_not_to_fire_again(pack):
    game = bare_game(pack, heroes=[0, 0, 0])  # fire the Revolver at the Zombie; then play Recovery; take it
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    put(game, "zombie", "town_center.b2")
    put(game, "zombie", "town_center.b1")
    revolver = give(game, "revolver", sheriff)
    recovery = to_hand(game, "recovery", "heroes")
    left = dice(game, [2], [1])  # a miss, and out of ammo
    game.emit("shoot", {"unit": sheriff})
    assert not left and where(game, revolver) == "discard"
    _moment(game, ["hero_turn", "fight"], "end", {"unit": sheriff})
    assert where(game, revolver) == sheriff.id and where(game, recovery) == "discard"
    assert "Recovery: the card is taken back" in notes(game)
    dice(game)  # no roll: the copy was used this turn
    game.emit("shoot", {"unit": sheriff})
    assert where(game, revolver) == sheriff.id
    game.emit("hero_turn.end")
    assert not game.table.has(Ref("card", revolver), Ref("marker", "used"))


def test_recovery_is_not_offered_when_nothing_was_used_up_this_turn(pack):
    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    recovery = to_hand(game, "recovery", "heroes")
    cid = to_hand(game, "baseball_bat", "x")
    game.discard(Ref("card", cid), game._plain_ctx())  # discarded, but not used this turn
    game.policies["heroes"] = Pick()
    _moment(game, ["hero_turn", "fight"], "end", {"unit": sheriff})
    assert game.policies["heroes"].asked == [] and where(game, recovery) == "side:heroes"


# ---- Townsfolk --------------------------------------------------------------------------------------------

def on_top(game, proto: str) -> str:
    cid = next(c for c, r in game.state["cards"].items() if r["proto"] == proto and r["where"] == "deck")
    pile = game.state["decks"][game.state["cards"][cid]["deck"]]["draw"]
    pile.remove(cid)
    pile.append(cid)
    return cid


def to_discard(game, proto: str) -> str:
    cid = to_hand(game, proto, "x")
    game.discard(Ref("card", cid), game._plain_ctx())
    return cid


def test_jeb_fixes_up_the_pump_shotgun_from_the_discard_pile(pack):
    game = bare_game(pack, heroes=[0, 0])  # play Jeb; the first Item offered
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    shotgun = to_discard(game, "pump_shotgun")
    jeb = to_hand(game, "jeb_the_grease_monkey", "heroes")
    _moment(game, ["hero_turn", "move"], "start", {"unit": sheriff})
    assert where(game, shotgun) == sheriff.id and where(game, jeb) == "discard"
    assert "Jeb fixes it up" in notes(game)


def test_doc_brody_fully_heals_a_hero_anywhere(pack):
    game = bare_game(pack, heroes=[0, 0])
    sheriff = put(game, "sheriff_anderson", "town_center.a1")
    put(game, "billy", "town_center.c3")
    game.wound(sheriff, 2, game._plain_ctx())
    to_hand(game, "doc_brody", "heroes")
    game.emit("hero_turn.end")
    assert wounds(game, sheriff) == 0


def test_farmer_sty_drives_back_the_zombie_that_steps_into_the_heros_space(pack):
    game = bare_game(pack, heroes=[0], zombies=[0])  # play Farmer Sty
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.a1")
    sty = to_hand(game, "farmer_sty", "heroes")
    _moment(game, ["hero_turn", "fight"], "end", {"unit": sheriff})
    assert where(game, sty) == "play"
    game.emit("zombie_turn.move_zombies")  # Zombie Hunger: the Zombie next door must step in
    assert where(game, zombie) == game.board.resolve("town_center.a1")
    assert "Farmer Sty drives the Zombie back" in notes(game)
    inside = put(game, "zombie", "town_center.b2")
    game.move_unit(inside, space(game, "town_center.b2"), game._plain_ctx())  # moved where it stands: it stays
    assert where(game, inside) == game.board.resolve("town_center.b2")
    game.emit("hero_turn.start")
    assert where(game, sty) == "discard"
    game.emit("zombie_turn.move_zombies")
    assert where(game, zombie) == game.board.resolve("town_center.b2")


def test_principal_gomez_gives_a_free_search_in_the_street(pack):
    game = bare_game(pack, heroes=[0])
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    bat = on_top(game, "baseball_bat")
    to_hand(game, "principal_gomez", "heroes")
    _moment(game, ["hero_turn", "move"], "start", {"unit": sheriff})
    assert where(game, bat) == sheriff.id


def test_deputy_taylor_blasts_every_zombie_in_a_space_two_away_each_hit_on_3(pack):
    game = bare_game(pack)
    game.policies["heroes"] = Pick(0, lambda o: o == space(game, "town_center.c3"))  # play him; at c3
    sheriff = put(game, "sheriff_anderson", "town_center.a1")
    pair = [put(game, "zombie", "town_center.c3") for _ in range(2)]
    lone = put(game, "zombie", "town_center.b2")
    to_hand(game, "deputy_taylor", "heroes")
    left = dice(game, [3], [2])
    _moment(game, ["hero_turn", "ranged_attack"], "end", {"unit": sheriff})
    assert not left
    assert [where(game, z) for z in pair] == [None, game.board.resolve("town_center.c3")]
    assert where(game, lone) == game.board.resolve("town_center.b2") and "Missed" in notes(game)


def test_mr_hyde_adds_two_fight_dice_and_turns_a_lost_fight(pack):
    game = bare_game(pack, heroes=[0])
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    to_hand(game, "mr_hyde_the_shop_teacher", "heroes")
    left = dice(game, [2, 3], [5], [6, 4])
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    assert not left and wounds(game, sheriff) == 0
    assert "The Hero wins: the Zombie is fended off" in notes(game)


def test_the_ai_keeps_its_townsfolk_in_save_the_townsfolk_but_plays_them_elsewhere(pack):
    from spawnpit.engine import AIPolicy

    for scenario, played in (("save_the_townsfolk", False), ("die_zombies_die", True)):
        game = bare_game(pack, scenario=scenario)
        game.state["counters"]["ai_hold_townsfolk"] = 1 if scenario == "save_the_townsfolk" else 0
        game.policies["heroes"] = AIPolicy()
        sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
        hyde = to_hand(game, "mr_hyde_the_shop_teacher", "heroes")
        dice(game, [2, 3], [5], *([[6, 4]] if played else []))
        game.emit("fight", {"fighter": sheriff, "foe": zombie})
        assert (where(game, hyde) == "discard") is played, scenario


def test_johnny_not_blitzing_stops_at_the_first_zombie_space_and_the_ai_blitzes_only_to_hunt(pack):
    from spawnpit.engine import AIPolicy

    game = bare_game(pack, needs=("the_bank",))
    st = street_of(game, "the_bank")
    game.policies["heroes"] = Pick(1)  # no Blitz! this move
    johnny = put(game, "johnny", f"{st}.a4")
    for s in ("b3", "b4", "b5"):
        put(game, "zombie", f"{st}.{s}")
    dice(game, [4])
    game.emit("move_roll", {"mover": johnny})
    game.emit("move_ready", {"mover": johnny})
    assert space(game, f"{st}.e4") not in movement.reach(game, johnny, 4)
    for hunt, bat, blitzes in ((0, True, False), (1, False, False), (1, True, True)):
        game = bare_game(pack, needs=("the_bank",))
        game.state["counters"]["ai_hunt"] = hunt
        game.policies["heroes"] = AIPolicy()
        johnny = put(game, "johnny", f"{st}.a4")
        put(game, "zombie", f"{st}.b4")
        if bat:
            give(game, "baseball_bat", johnny)
        dice(game, [4])
        game.emit("move_roll", {"mover": johnny})
        game.emit("move_ready", {"mover": johnny})
        assert game.table.has(johnny, Ref("marker", "blitzing")) is blitzes, (hunt, bat)


# ---- a base rule the whole games of the suite no longer happen to fire -----------------------------------

def test_a_gas_marker_shot_with_the_revolver_kills_its_space_and_next_door_on_3(pack):
    game = bare_game(pack, heroes=[0, 0, 0])  # the Gas marker; shoot it; with the Revolver
    sheriff = put(game, "sheriff_anderson", "town_center.a1")
    inside = [put(game, "zombie", "town_center.c3") for _ in range(2)]
    near, far = put(game, "zombie", "town_center.b3"), put(game, "zombie", "town_center.c2")
    revolver = give(game, "revolver", sheriff)
    game.mark(space(game, "town_center.c3"), "gas", 1, game._plain_ctx())
    left = dice(game, [5], [3], [2], [4])  # the shot hits; b3 is killed on 3, c2 survives its 2; ammo left
    game.emit("ignite", {"unit": sheriff})
    assert not left and where(game, revolver) == sheriff.id
    assert [where(game, z) for z in inside + [near]] == [None, None, None]
    assert where(game, far) == game.board.resolve("town_center.c2") and where(game, sheriff) is not None
    assert not game.table.has(space(game, "town_center.c3"), Ref("marker", "gas"))
