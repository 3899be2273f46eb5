"""Helpers the LNOE engine tests share: forcing the dice and putting units on the table."""

from __future__ import annotations

from spawnpit.engine import ScriptedPolicy, new_game
from spawnpit.engine.state import Ref


def bare_game(pack, scenario="die_zombies_die", heroes=(), zombies=(), seed=1, needs=()):
    """A game with an empty board and empty hands (no setup run), answers scripted. `needs`: buildings
    the drawn L-boards must hold (seeds are tried in order until the board has them)."""
    for s in range(seed, seed + 200):
        game = new_game(pack, f"lnoe:{scenario}", seed=s,
                        policies={"heroes": ScriptedPolicy(heroes), "zombies": ScriptedPolicy(zombies)})
        if all(any(b.endswith("." + n) for b in game.board.buildings) for n in needs):
            game.state["at"] = ["test"]
            return game
    raise AssertionError(f"no seed draws the boards with {needs}")


def dice(game, *rolls):
    """The next rolls, in order; each is the list of faces of one roll. Returns the rolls still unused."""
    queue = list(rolls)

    def roll(count, sides):
        assert queue, f"an unexpected roll of {count}D{sides}"
        values = queue.pop(0)
        assert len(values) == count, (values, count)
        return values

    game.chance.roll = roll
    return queue


def put(game, proto: str, space: str) -> Ref:
    """A unit of that prototype on that space (a board path such as `town_center.b2`)."""
    obj = next(u for u in game.model.units if u["id"] == proto)
    return game.add_unit(obj, game.board.resolve(space))


def action_block(game, action_id: str) -> dict:
    """The system's action block of that id (`exchange_items`, `shoot`), for `flow._allowed`/`flow._action`."""
    from spawnpit.engine import flow

    return next(a for phase in flow._blocks(game.model.system, "phase") for step in flow._blocks(phase, "step")
                for a in flow._blocks(step, "action") if a["id"] == action_id)


def card_offered(game, card: str, event: str) -> bool:
    """Whether the Zombies are offered that card (its id) while `event` is raised, with the Zombie Events
    window open (zombie_cards_passed 0); their policy answers as before."""
    asked = []
    policy = game.policies["zombies"]
    choose = policy.choose
    policy.choose = lambda g, side, label, options: asked.append(options) or choose(g, side, label, options)
    game.state["counters"]["zombie_cards_passed"] = 0
    try:
        game.emit(event)
    finally:
        policy.choose = choose
    return any(any(getattr(o, "id", None) == card for o in options) for options in asked)
