"""Rules audit of the LNOE content against the rulebooks (seed 001 base rulebook, seed 000 Complete
Rulebook): each test plays a rule fact the content had wrong or left out, with forced dice and scripted
answers, so it fails if the content loses the fact again."""

from __future__ import annotations

import pytest

from spawnpit.engine import ScriptedPolicy, new_game
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import dice, put


class Towards:
    """Picks the option that is the wanted space; any other choice takes the first option."""

    name = "towards"

    def __init__(self, space: str) -> None:
        self.space = space
        self.offered: list[list] = []

    def choose(self, game, side, label, options):
        ids = [getattr(o, "id", None) for o in options]
        self.offered.append(ids)
        return ids.index(self.space) if self.space in ids else 0


def _locked_game(pack, with_keys: bool):
    """The Sheriff in the street by a doorway a Locked Door has locked (both its spaces marked, the card
    in play on the building side, as its own hook leaves them); his player always heads inside."""
    probe = new_game(pack, "lnoe:escape_in_the_truck", seed=1)
    board = probe.board
    target, outside = next((s, o) for s in sorted(board.spaces) if board.building_of(s)
                           for o in sorted(board.spaces) if board.edge(s, o) == "door" and not board.building_of(o))
    game = new_game(pack, "lnoe:escape_in_the_truck", seed=1,
                    policies={"heroes": Towards(target), "zombies": ScriptedPolicy([])})
    game.state["at"] = ["test"]
    sheriff = put(game, "sheriff_anderson", outside)
    for cid, record in game.state["cards"].items():
        if record["proto"] == "locked_door" and record["where"] == "deck":
            game.state["decks"]["zombie_deck"]["draw"].remove(cid)
            record.update(where="play", status="in_play", target=["space", target])  # as its own hook sets it
            break
    for end in (target, outside):
        game.mark(Ref("space", end), "locked_door", 1, game._plain_ctx())
    if with_keys:
        cid = next(c for c, r in game.state["cards"].items() if r["proto"] == "keys" and r["where"] == "deck")
        game.state["decks"]["hero_deck"]["draw"].remove(cid)
        game.state["cards"][cid]["where"] = sheriff.id
    return game, sheriff, target, outside


@pytest.mark.parametrize("with_keys", [False, True])
def test_keys_let_a_hero_through_a_locked_door(pack, with_keys):
    """Complete Rulebook §3.14.3.2: Keys ignore the effects of Locked Door. Without Keys the space behind
    the locked doorway is not a place the Hero's move may end in (it is not offered); with Keys he walks
    in, and the marker goes."""
    game, sheriff, target, outside = _locked_game(pack, with_keys)
    dice(game, [1])
    game.emit("move", {"unit": sheriff})
    where = game.state["units"][sheriff.id]["space"]
    offered = game.policies["heroes"].offered[0]
    street = [n for n in game.board.neighbours(outside) if game.board.edge(outside, n) == "open"]
    assert (target in offered) is with_keys and street and set(street) <= set(offered)
    assert (where == target) is with_keys
    assert game.table.has(Ref("space", target), Ref("marker", "locked_door")) is not with_keys  # Keys discard it


# ---- ai advice in the scenarios -------------------------------------------------------------------

def _held(game, proto: str, unit: Ref) -> str:
    cid = next(c for c, r in game.state["cards"].items() if r["proto"] == proto and r["where"] == "deck")
    game.state["decks"]["hero_deck"]["draw"].remove(cid)
    game.state["cards"][cid]["where"] = unit.id
    return cid


def _marked(game, thing: Ref, marker: str) -> bool:
    return game.table.has(thing, Ref("marker", marker))


def test_escape_every_hero_runs_for_the_truck_once_gasoline_and_keys_are_in_hand_and_not_before(pack):
    game = new_game(pack, "lnoe:escape_in_the_truck", seed=1,
                    policies={"heroes": ScriptedPolicy([]), "zombies": ScriptedPolicy([])})
    game.state["at"] = ["test"]
    truck = Ref("space", game.board.resolve("town_center.b2"))
    game.mark(truck, "truck", 1, game._plain_ctx())
    billy, sally, becky = (put(game, p, "town_center.a1") for p in ("billy", "sally", "becky"))
    gas = _held(game, "gasoline", billy)
    game.emit("hero_turn.start")
    assert not any(_marked(game, h, "ai_runner") for h in (billy, sally, becky))  # Gasoline alone: keep Searching
    assert not _marked(game, truck, "ai_goal")
    keys = _held(game, "keys", sally)
    game.emit("hero_turn.start")
    assert all(_marked(game, h, "ai_runner") for h in (billy, sally, becky)) and _marked(game, truck, "ai_goal")
    game.state["cards"][keys]["where"] = "discard"  # the Keys are lost with their Hero
    game.emit("hero_turn.start")
    assert not any(_marked(game, h, "ai_runner") for h in (billy, sally, becky))
    assert not _marked(game, truck, "ai_goal") and game.state["cards"][gas]["where"] == billy.id


def _on_top(game, *cards: str) -> list[str]:
    ids = []
    for card in reversed(cards):
        cid = next(c for c, r in game.state["cards"].items() if r["proto"] == card and r["where"] == "deck")
        pile = game.state["decks"]["hero_deck"]["draw"]
        pile.remove(cid)
        pile.append(cid)
        ids.append(cid)
    return list(reversed(ids))


def _ai_game(pack, scenario, building):
    from spawnpit.engine import AIPolicy
    for seed in range(1, 200):
        game = new_game(pack, f"lnoe:{scenario}", seed=seed, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
        names = [b for b in game.board.buildings if b.endswith("." + building)]
        if names:
            game.state["at"] = ["test"]
            return game, sorted(game.board.spaces_of(names[0]))[0]
    raise AssertionError(building)


@pytest.mark.parametrize("pair, kept", [(("lighter", "doc_brody"), "doc_brody"),      # a Townsfolk over an Item
                                         (("first_aid_kit", "revolver"), "revolver")])  # a gun over a plain Item
def test_jake_ai_keeps_the_scenario_search_card_then_a_gun(pack, pair, kept):
    game, space = _ai_game(pack, "save_the_townsfolk", "gas_station")
    jake = put(game, "jake_cartwright", space)
    ids = dict(zip(pair, _on_top(game, *pair)))
    game.emit("search", {"unit": jake})
    assert game.state["cards"][ids[kept]]["where"] in (jake.id, "side:heroes")
    assert all(game.state["cards"][c]["where"] == "discard" for p, c in ids.items() if p != kept)


@pytest.mark.parametrize("first, kept", [("lighter", False), ("revolver", True), ("get_back_you_devils", True)])
def test_the_ai_throws_away_a_flashlight_draw_only_when_it_is_no_weapon_event_or_scenario_card(pack, first, kept):
    game, space = _ai_game(pack, "die_zombies_die", "church")
    becky = put(game, "becky", space)
    cid = next(c for c, r in game.state["cards"].items() if r["proto"] == "flashlight" and r["where"] == "deck")
    game.state["decks"]["hero_deck"]["draw"].remove(cid)
    game.state["cards"][cid]["where"] = becky.id
    drawn, _ = _on_top(game, first, "baseball_bat")
    game.emit("search", {"unit": becky})
    assert (game.state["cards"][drawn]["where"] != "discard") == kept


class Picks:
    """The ai policy, recording which action it took for each unit (`actions`), and the options of every
    choice of a space to move to with the one it took (`asked`)."""

    name = "picks"

    def __init__(self) -> None:
        from spawnpit.engine import AIPolicy
        self.ai, self.actions, self.asked = AIPolicy(), [], []

    def choose(self, game, side, label, options):
        index = self.ai.choose(game, side, label, options)
        if label.startswith("choose space to move to"):
            self.asked.append((list(options), index))
        if ": action of " in label:
            picked = options[index]
            self.actions.append(None if picked is None else picked["id"])
            return len(options) - 1 if None in options else index  # take no action: only the pick matters
        return index


@pytest.mark.parametrize("scenario, zombies, hurt, search", [
    ("escape_in_the_truck", 0, 0, True),
    ("escape_in_the_truck", 2, 0, True),    # a Scenario Search game: one or two Zombies next door are worth a card
    ("escape_in_the_truck", 1, 1, False),   # ... but not with a single Health box left
    ("escape_in_the_truck", 3, 0, False),   # three are not
    ("die_zombies_die", 3, 0, True),        # where the Heroes hunt Zombies and need weapons, however many come
    ("defend_the_manor_house", 1, 0, False),  # elsewhere a Zombie next door means moving
])
def test_the_ai_searches_with_one_zombie_next_door_only_where_it_needs_cards(
        pack, scenario, zombies, hurt, search):
    from spawnpit.engine.flow import _act
    policy = Picks()
    for seed in range(1, 200):
        game = new_game(pack, f"lnoe:{scenario}", seed=seed, policies={"heroes": policy, "zombies": ScriptedPolicy([])})
        church = [b for b in game.board.buildings if b.endswith(".church")]
        if church:
            break
    game.state["at"] = ["test"]
    inside = sorted(game.board.spaces_of(church[0]))[0]
    becky = put(game, "becky", inside)
    game.state["units"][becky.id]["wounds"] = 2 if hurt else 0  # Becky has 3 Health boxes
    near = [s for s in game.board.spaces if game.table.distance(Ref("space", s), Ref("space", inside)) == 1]
    for _ in range(zombies):
        put(game, "zombie", near[0])
    phase = next(p for p in game.model.phases if p["id"] == "hero_turn")
    step = next(b for b in phase.get("blocks", []) if b.get("kind") == "step" and b.get("id") == "move")
    _act(game, phase, step, ["hero_turn", "move"], {"unit": becky})
    assert policy.actions == ["search" if search else "move"]
