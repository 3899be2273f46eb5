"""The `ai` policy follows the rules' own advice: `prefer` on choices, options and actions, compared as
priority lists; it declines a `may` choice only when even the best option's first criterion is no; ties
are broken from its own seeded stream; without advice it acts at random among the real options."""

from __future__ import annotations

import pytest

from spawnpit.compiler import compile_paths
from spawnpit.engine import AIPolicy, RandomPolicy, new_game, play
from tests.engine.test_mechanisms import SCENARIO, SYSTEM


def pack_for(write_pack, extra: str, system: str = SYSTEM) -> dict:
    root = write_pack({"sys.pit": system, "main.pit": SCENARIO.format(extra=extra)}, with_system=False)
    result = compile_paths([root])
    assert result.ok, [f"{d.span} {d.message}" for d in result.diagnostics]
    return result.pack


def ai_game(pack, seed=3):
    return new_game(pack, "trial", seed=seed, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})


def notes(game) -> list[str]:
    return [e["text"] for e in game.entries if e["type"] == "note"]


def test_the_ai_takes_the_option_with_the_highest_score(write_pack):
    extra = ('on game.start { choose space s where s != c1 by heroes prefer -distance(s, b1) {'
             ' if s == b1 { marks = 1 } else { marks = 2 } } }')
    for seed in range(5):
        game = ai_game(pack_for(write_pack, extra), seed)
        play(game)
        assert game.state["counters"]["marks"] == 1  # b1 itself: distance 0 beats a1 (1) and d1 (none)


def test_a_priority_list_is_compared_criterion_by_criterion(write_pack):
    # a1, b1, c1, d1: "not a1" ties b1, c1, d1; "next to c1" keeps d1 only (a wall parts b1 from c1), so the
    # third criterion, which would favour b1, never decides
    extra = ('on game.start { choose space s by heroes prefer [s != a1, adjacent(s, c1), s == b1] {'
             ' if s == d1 { marks = 4 } else { marks = 1 } } }')
    for seed in range(5):
        game = ai_game(pack_for(write_pack, extra), seed)
        play(game)
        assert game.state["counters"]["marks"] == 4


def test_a_may_choice_is_declined_when_no_option_is_worth_taking(write_pack):
    extra = ('on game.start { may choose space s by heroes prefer [s == a1 and s == b1, 1] { marks = 5 }\n'
             ' may choose space s by heroes prefer [s == d1, 0] { if s == d1 { seen = 1 } } }')
    game = ai_game(pack_for(write_pack, extra))
    play(game)
    assert game.state["counters"]["marks"] == 0  # no space is both: declined
    assert game.state["counters"]["seen"] == 1  # d1 is worth taking: taken


def test_options_and_actions_carry_their_own_scores(write_pack):
    system = SYSTEM.replace('step first "First" { text "a" }',
                            'step first "First" { text "a"\n'
                            '  action rest "Rest" { prefer 0 }\n'
                            '  action run "Run" { prefer unit.health }\n'
                            '  action hide "Hide" { prefer 1 } }')
    extra = ('on run { marks += 1 }\non rest { marks += 100 }\non hide { marks += 100 }\n'
             'on game.start { choose by heroes { option "low" prefer 1 { seen = 1 }\n'
             ' option "high" prefer 2 { seen = 2 } } }')
    game = ai_game(pack_for(write_pack, extra, system))
    play(game)
    assert game.state["counters"]["seen"] == 2
    assert game.state["counters"]["marks"] == 4  # health 2 > 1 > 0: "run", 2 heroes x 2 rounds


def test_ties_are_broken_from_the_ai_stream_so_games_repeat_exactly(write_pack):
    extra = 'on game.start { choose space s by heroes prefer 1 { marks = distance(a1, s) } }'
    pack = pack_for(write_pack, extra)
    picked = set()
    for seed in range(12):
        first, second = ai_game(pack, seed), ai_game(pack, seed)
        play(first)
        play(second)
        assert first.entries == second.entries
        picked.add(first.state["counters"]["marks"])
    assert len(picked) > 1  # equal scores: not always the first option


def test_without_advice_the_ai_acts_rather_than_passes(write_pack):
    extra = 'on game.start { repeat 20 { may choose space s by heroes { marks += 1 } } }'
    game = ai_game(pack_for(write_pack, extra))
    play(game)
    assert game.state["counters"]["marks"] == 20
    randomly = new_game(pack_for(write_pack, extra), "trial", seed=3,
                        policies={"heroes": RandomPolicy(), "zombies": RandomPolicy()})
    play(randomly)
    assert randomly.state["counters"]["marks"] < 20  # random declines sometimes: the scores are the AI's alone


def test_prefer_must_be_a_number_yes_no_or_a_thing(write_pack):
    extra = 'on game.start { choose space s by heroes prefer [1, D6] { marks = 1 } }'
    root = write_pack({"sys.pit": SYSTEM, "main.pit": SCENARIO.format(extra=extra)}, with_system=False)
    result = compile_paths([root])
    assert not result.ok
    (diag,) = [d for d in result.diagnostics if d.code == "E0301"]
    assert "`prefer` needs" in diag.message and "found dice" in diag.message


@pytest.mark.parametrize("scenario", ["die-zombies-die", "escape-in-the-truck"])
def test_ai_against_ai_plays_lnoe_to_a_result(scenario):
    from spawnpit.resources import builtin_paths

    class Watched(AIPolicy):
        """The ai, with every advised choice it answers noted: (scores, the index it picked)."""

        def __init__(self, seen: list) -> None:
            self.seen = seen

        def choose(self, game, side, label, options):
            index = super().choose(game, side, label, options)
            scores = game.preferences(options)
            if scores is not None:
                self.seen.append((label, scores, index))
            return index

    pack = compile_paths(builtin_paths()).pack
    seen: list = []
    for seed in range(3):
        game = new_game(pack, scenario, seed=seed, policies={"heroes": Watched(seen), "zombies": Watched(seen)})
        result = play(game)
        assert result["winner"] in ("heroes", "zombies")
    labels = {label for label, _, _ in seen}
    assert "choose space" in labels  # the Heroes' moves are advised
    assert any(label.startswith("choose hero to fight") for label in labels)  # and who fights a Zombie
    for label, scores, index in seen:  # on the real content, every advised answer is a best one
        best = max(s for s in scores if s is not None)
        if scores[index] is None:
            assert not best or best[0] <= 0, (label, scores)
        else:
            assert scores[index] == best, (label, scores, index)


def test_count_of_kind_in_place_counts_every_unit_not_whether_there_is_one(write_pack):
    # the ai's scores lean on it: `-count(hero in h.space)`, `count(zombie in s) == 0`
    extra = ('on game.start { spawn 3 of zombie at a1\n marks = count(zombie in a1)\n'
             ' if any(zombie in a1) and not any(zombie in b1) { seen = count(zombie in b1) + 10 } }')
    game = ai_game(pack_for(write_pack, extra))
    play(game)
    assert game.state["counters"]["marks"] == 3
    assert game.state["counters"]["seen"] == 10
