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
from tests.engine.lnoe_table import dice, put
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


class Offered:
    """The ai policy, recording the options of every space choice and the one it took."""

    name = "offered"

    def __init__(self) -> None:
        from spawnpit.engine import AIPolicy
        self.ai, self.asked = AIPolicy(), []

    def choose(self, game, side, label, options):
        index = self.ai.choose(game, side, label, options)
        if label.startswith("choose space to move to"):
            self.asked.append((list(options), index))
        return index


def test_a_hero_moving_keeps_two_spaces_from_a_zombie_hero(pack):
    """Defend the Manor House: a Hero with a roll of 1 next to nothing but a Zombie Hero two spaces away
    takes a space it cannot reach with a roll of 2 or less, when there is one; before, the Zombie Hero
    counted for nothing and the Hero would step toward it as readily as away."""
    policy = Offered()
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
