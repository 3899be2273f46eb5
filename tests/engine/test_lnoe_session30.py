"""Session 30: last session's list of things left alone, and the findings of its play-tests."""

from __future__ import annotations

from io import StringIO

from rich.console import Console

from spawnpit.engine.human import board_view, unit_marks
from tests.engine.lnoe_table import put
from tests.engine.test_lnoe_faq import bare_game


def _screen(game, numbers=None) -> str:
    out = Console(file=StringIO(), width=80, color_system=None)
    out.print(board_view(game, numbers or {}, compact=True, viewer="zombies", width=80))
    return out.file.getvalue()


def _l_board_space(game, n: int = 0) -> str:
    """The nth space of an L-board (a small cell on the map: three characters)."""
    return [s for s in game.board.spaces if game.board.info[s].grid and not s.startswith("town_center")][n]


def _emptied(pack):
    game = bare_game(pack)
    for record in game.state["units"].values():
        record["space"] = None
    return game


# ---- a crowded cell's shorthand --------------------------------------------------------------------------

def test_two_heroes_and_four_zombies_in_a_small_cell_show_both_counts(pack):
    """Session 29 left alone: two Heroes and four Zombies in a three-character cell read "H2Z4" cropped to
    "H2Z", the Zombies' count lost. Now each side's count alone, in its colour, a dot between: "2·4", and
    the key says what that cell means."""
    game = _emptied(pack)
    space = _l_board_space(game)
    put(game, "billy", space)
    put(game, "sally", space)
    for _ in range(4):
        put(game, "zombie", space)
    assert unit_marks(game, True)[space].plain == "2·4"
    screen = _screen(game)
    assert "2·4" in screen and "H2Z" not in screen
    assert "2·4 2 Heroes, 4 Zombies" in " ".join(screen.split())


def test_a_named_unit_and_the_others_count_is_explained_by_that_cell(pack):
    """The key's example of a crowded cell read "Je3 Je+3 others" whatever the cell showed. Now it is one
    cell the map draws that way: Jenny and three Zombies, "Je3", "Je and 3 others"."""
    game = _emptied(pack)
    space = _l_board_space(game, 3)
    put(game, "jenny", space)
    for _ in range(3):
        put(game, "zombie", space)
    assert unit_marks(game, True)[space].plain == "Je3"
    key = " ".join(_screen(game).split())
    assert "Je3 Je and 3 others" in key


def test_a_shorthand_no_cell_shows_is_not_explained(pack):
    """Cells that show everyone ("JeZ", Jenny and a Zombie) need no explaining, and the key has no room to
    spare at 80x24."""
    game = _emptied(pack)
    space = _l_board_space(game, 3)
    put(game, "jenny", space)
    put(game, "zombie", space)
    screen = _screen(game)
    assert "JeZ" in screen and " others" not in screen and "·" not in screen.replace("  ·  ", "")


def test_a_town_center_space_shows_its_units_with_the_room_of_its_big_cell(pack):
    """A Town Center space is drawn as a big cell (seven or eleven characters), but its units were written
    as in a three-character cell: "H2Z" there too. Now they get the big cell's room."""
    game = _emptied(pack)
    middle = game.board.resolve("town_center.b2")
    corner = game.board.resolve("town_center.a1")
    put(game, "billy", middle)
    put(game, "sally", middle)
    for _ in range(4):
        put(game, "zombie", middle)
    put(game, "jake_cartwright", corner)
    for _ in range(3):
        put(game, "zombie", corner)
    screen = _screen(game)
    assert "BiSaZ4" in screen  # seven characters: no room for the spaces between
    assert "Ja Z3" in screen  # eleven
    assert "H2Z" not in screen and "2·4" not in screen  # nothing cropped, no shorthand (and none explained)
    assert "others" not in screen


# ---- the game told as a story: play --story, replay --story ----------------------------------------------

def test_play_story_tells_the_whole_game_and_replay_tells_it_the_same(tmp_path):
    """An AI game's summary said who won and listed counters (ai_hunt 1, fire_ok 1…): a balance tester
    could not see how the game went. `--story` prints every line of the log as sentences, each moment
    under its heading, cards drawn named (no side's hand is secret once the game is over); `replay
    --story` tells a logged game the same way."""
    from click.testing import CliRunner

    from spawnpit.cli import main

    log = tmp_path / "game.jsonl"
    played = CliRunner().invoke(main, ["play", "die-zombies-die", "--seed", "31", "--story", "--log", str(log)])
    assert played.exit_code == 0, played.output
    lines = played.output.splitlines()
    lines = lines[lines.index("round 0 · setup"):]  # (after what went to stderr: "wrote game.jsonl")
    assert "round 1 · Zombie Turn › Draw New Zombie Cards" in lines
    assert any(line.startswith("  4 drawn from Zombie Deck to Zombies: ") for line in lines)  # named
    assert any(line.startswith("  GAME OVER: ") for line in lines)
    summary = next(i for i, line in enumerate(lines) if line.startswith("Die Zombies, Die!: "))
    assert summary > 100 and lines[summary - 1] == ""  # the story first, then the summary
    replayed = CliRunner().invoke(main, ["replay", str(log), "--story"])
    assert replayed.exit_code == 0, replayed.output
    told = replayed.output.splitlines()
    told = told[told.index("round 0 · setup"):]
    assert told[:summary] == lines[:summary] and told[-1].startswith("reproduced: ")
    plain = CliRunner().invoke(main, ["play", "die-zombies-die", "--seed", "31"])
    assert "round 0 · setup" not in plain.output  # without --story: the summary alone
    # the summary ends where the game stood, as a person's status line says it, and the goals with their
    # progress; not the engine's counters (ai_hunt 1, fire_ok 1, hero_dice [3, 4]…)
    assert "counters:" not in plain.output and "ai_hunt" not in plain.output
    assert "  Round 9 of 15 · Zombie Turn › Fight · Sun Track 7" in plain.output.splitlines()
    assert "  Goals: Heroes win when zombies killed ≥ 15 (now " in plain.output


# ---- the ai's Exchange Items --------------------------------------------------------------------------------

def test_the_ai_takes_exchange_items_only_when_it_hands_something_over(pack):
    """The ai took the Exchange Items action whenever another Hero shared the space, then handed nothing
    over (its rule takes a Weapon from a Hero carrying two, for a Hero with none): "Jenny: Exchange Items"
    and nothing after it, 25 times in one game. Each exchange the ai takes now moves an Item."""
    from spawnpit.engine import new_game
    from spawnpit.engine.flow import run
    from spawnpit.engine.policies import AIPolicy

    taken = 0
    for seed in range(40):
        game = new_game(pack, "lnoe:die_zombies_die", seed=seed, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})
        run(game)
        entries = game.entries
        for i, e in enumerate(entries):
            if e.get("type") == "action" and e.get("action") == "exchange_items":
                taken += 1
                after = entries[i + 1:]
                upto = next((j for j, x in enumerate(after) if x.get("type") == "action"), len(after))
                assert any(x.get("type") == "give" for x in after[:upto]), (seed, i)
    assert taken >= 3  # (the ai does still exchange)
