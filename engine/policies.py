"""Players: every decision goes through a choice point answered by a policy. Rules never see which."""

from __future__ import annotations


class RandomPolicy:
    """Uniform over the legal options, drawn from the game's one seeded source of chance."""

    name = "random"

    def choose(self, game, side: str, label: str, options: list) -> int:
        return game.chance.randrange(len(options))


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
