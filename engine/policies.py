"""Players: every decision goes through a choice point answered by a policy. Rules never see which."""

from __future__ import annotations

import random


class PlayerQuit(Exception):
    """A person left the game (end of input, Ctrl-C, `q`): the game is abandoned, not broken."""


class RandomPolicy:
    """Uniform over the legal options. Its randomness is its own, derived from the game's seed, the side
    and the number of the choice, so it never disturbs the game's dice: a replay that answers the same
    choices from a script rolls exactly the same dice, and a restored game chooses as the original."""

    name = "random"

    def choose(self, game, side: str, label: str, options: list) -> int:
        return random.Random(f"{game.state['seed']}/{side}/{game.state['choices']}").randrange(len(options))


class FirstPolicy:
    """Always the first option: the simplest deterministic player, for tests."""

    name = "first"

    def choose(self, game, side: str, label: str, options: list) -> int:
        return 0


class ScriptedPolicy:
    """A list of answers given in advance (tests, replays); when they run out, the first option."""

    name = "scripted"

    def __init__(self, answers) -> None:
        self.answers = list(answers)

    def choose(self, game, side: str, label: str, options: list) -> int:
        return self.answers.pop(0) if self.answers else 0


POLICIES = {"random": RandomPolicy, "first": FirstPolicy}
