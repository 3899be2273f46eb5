"""The one seeded source of chance of a game: dice, shuffles and random picks, saved with the state."""

from __future__ import annotations

import random


class Chance:
    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def roll(self, count: int, sides: int) -> list[int]:
        """`count` dice of `sides` faces; a D216 is three D6 read as digits (111…666), as LNOE uses it."""
        if sides == 216:
            return [int("".join(str(self._random.randint(1, 6)) for _ in range(3))) for _ in range(count)]
        return [self._random.randint(1, sides) for _ in range(count)]

    def choice(self, items):
        return items[self._random.randrange(len(items))]

    def shuffle(self, items: list) -> None:
        self._random.shuffle(items)

    def randrange(self, n: int) -> int:
        return self._random.randrange(n)

    def state(self) -> list:
        version, internal, gauss = self._random.getstate()
        return [version, list(internal), gauss]

    def restore(self, saved: list) -> None:
        version, internal, gauss = saved
        self._random.setstate((version, tuple(internal), gauss))
