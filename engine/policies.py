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
    """A list of answers given in advance (tests, replays); when they run out, the first option, or with
    `then_quit` the player leaves (PlayerQuit), as in the replay of a game a person abandoned."""

    name = "scripted"

    def __init__(self, answers, then_quit: bool = False) -> None:
        self.answers, self.then_quit = list(answers), then_quit

    def choose(self, game, side: str, label: str, options: list) -> int:
        if self.answers:
            return self.answers.pop(0)
        if self.then_quit:
            raise PlayerQuit("the recorded answers end here")
        return 0


class ResumeError(Exception):
    """A game being resumed goes otherwise than its log: it cannot be resumed with these rules."""


class ResumingPolicy:
    """A side of a game being resumed from its log: the side's logged answers first, then its player
    (`then`) from where the log ends. `check` is called when the first side's answers run out: the game
    must be the logged one up to there (it raises ResumeError when it is not). A logged answer that is
    not one of the options now offered is a ResumeError at once. Otherwise it is its player: its name,
    its last screen."""

    def __init__(self, answers, then, check=None) -> None:
        self.answers, self.then, self.check = list(answers), then, check

    def choose(self, game, side: str, label: str, options: list) -> int:
        if self.answers:
            answer = self.answers.pop(0)
            if not (type(answer) is int and 0 <= answer < len(options)):
                raise ResumeError(f"the log answers {answer!r} where the game now offers {len(options)} "
                                  f"option{'s' if len(options) != 1 else ''} ({label})")
            return answer
        if self.check is not None:
            self.check()
        return self.then.choose(game, side, label, options)

    def __getattr__(self, name: str):
        return getattr(self.then, name)


class AIPolicy:
    """A heuristic player that follows the rules' own advice. Content scores a choice's options with
    `prefer` (`choose space s in reach(unit, n) prefer [...]`, `option "…" prefer …`, an action's
    `prefer`): a priority list, the first criterion deciding and the next breaking its ties, as the
    solo Zombie AI of the LNOE Complete Rulebook (§17.5) is written. The AI takes a best-scored option
    (ties drawn from its own seeded stream, like `random`); a `may` choice is declined when even the
    best option's first criterion is no (0, false or less). A choice the rules give no advice on is
    answered at random among the real options: the AI acts rather than passes."""

    name = "ai"

    def choose(self, game, side: str, label: str, options: list) -> int:
        real = [i for i, option in enumerate(options) if option is not None]
        if not real:
            return 0
        advice = game.preferred(options)
        if advice is None:
            return self._draw(game, side, real)
        best, first = advice
        if len(real) < len(options) and (first is None or first <= 0):
            return options.index(None)
        return self._draw(game, side, best)

    @staticmethod
    def _draw(game, side: str, candidates: list[int]) -> int:
        """One of the candidates from the AI's own stream for this choice (seeding a generator is dear,
        so a single candidate is taken as it is: the stream would give it all the same)."""
        if len(candidates) == 1:
            return candidates[0]
        return random.Random(f"{game.state['seed']}/{side}/{game.state['choices']}/ai").choice(candidates)


POLICIES = {"random": RandomPolicy, "first": FirstPolicy, "ai": AIPolicy}
