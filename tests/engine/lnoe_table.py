"""Helpers the LNOE engine tests share: forcing the dice and putting units on the table."""

from __future__ import annotations

from spawnpit.engine.state import Ref


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
