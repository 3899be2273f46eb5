"""Session 27: findings of the play-tests and of last session's list of things left alone."""

from __future__ import annotations

from io import StringIO

from rich.console import Console

from spawnpit.engine.human import HumanPolicy
from tests.engine.lnoe_table import put
from tests.engine.test_lnoe_cards import in_play, to_hand
from tests.engine.test_lnoe_faq import bare_game, give


def _shown(policy, game, word: str, side: str = "heroes") -> list[str]:
    out = Console(file=StringIO(), width=80, color_system=None)
    out.print(policy._command(game, side, word, [None], {}))
    return out.file.getvalue().splitlines()


# ---- `c` in pages when the side's units and cards do not fit the screen ---------------------------------

def test_c_is_cut_into_pages_that_each_leave_the_question_on_an_80_by_24_screen(pack):
    """The play-test's `c` ran past 24 lines with many cards in play: the top scrolled away."""
    game = bare_game(pack)
    heroes = [put(game, h, "town_center.b2") for h in ("becky", "billy", "jenny", "johnny")]
    cards = game.state["cards"]
    def protos(deck: str) -> list[str]:  # each card of a deck once, in the deck's order
        return list(dict.fromkeys(r["proto"] for r in cards.values() if r["deck"] == deck and r["where"] == "deck"))
    for i, item in enumerate(protos("hero_deck")[:12]):
        give(game, item, heroes[i % 4])
    for card in protos("zombie_deck")[:6]:
        in_play(game, card, heroes[0])
    for card in protos("hero_deck")[12:16]:
        to_hand(game, card, "heroes")
    policy = HumanPolicy(console=Console(file=StringIO(), width=80, height=24, color_system=None))
    first = _shown(policy, game, "c")
    assert len(first) <= 22 and first[-1].startswith("(page 1 of "), "\n".join(first)
    pages = int(first[-1].split(" of ")[1].split(";")[0].rstrip(")"))
    assert pages >= 2
    seen = "\n".join(first[:-1])
    for n in range(2, pages + 1):
        page = _shown(policy, game, f"c {n}")
        assert len(page) <= 22 and page[-1].startswith(f"(page {n} of {pages}")
        seen += "\n" + "\n".join(page[:-1])
    # every unit and every card is on one of the pages, none twice
    whole = Console(file=StringIO(), width=80, color_system=None)
    from rich.console import Group

    from spawnpit.engine.human import cards_view, side_view
    whole.print(Group(side_view(game, "heroes"), cards_view(game, "heroes", line=79)))
    assert seen.splitlines() == whole.file.getvalue().splitlines() + [
        "(card texts cut to one line to fit the screen; ?N shows an option's whole card)"]
    assert _shown(policy, game, "c 99")[-1].startswith(f"(page {pages} of {pages}")  # past the last: the last


def test_c_that_fits_is_shown_whole_without_pages(pack):
    game = bare_game(pack)
    becky = put(game, "becky", "town_center.b2")
    give(game, "revolver", becky)
    policy = HumanPolicy(console=Console(file=StringIO(), width=80, height=24, color_system=None))
    shown = _shown(policy, game, "c")
    assert not any(line.startswith("(page") for line in shown)
    assert any("Revolver" in line for line in shown)


# ---- Get Back You Devils!: the Hero who won the fight kills the Zombie ----------------------------------

def test_get_back_you_devils_kills_for_the_hero_who_won_without_asking_who(pack):
    """A play-test was asked which Hero kills the Zombie when two shared the space: only the Hero who
    won the fight can, so nothing is asked and the kill is theirs."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_cards import where

    game = bare_game(pack, heroes=[0])  # play the card; no further answer is scripted
    becky = put(game, "becky", "town_center.b2")
    sheriff, zombie = put(game, "sheriff_anderson", "town_center.b2"), put(game, "zombie", "town_center.b2")
    card = to_hand(game, "get_back_you_devils", "heroes")
    dice(game, [5, 3], [4])
    game.emit("fight", {"fighter": sheriff, "foe": zombie})
    kill = next(e for e in game.entries if e["type"] == "kill")
    assert kill["unit"] == zombie.id and kill["by"] == sheriff.id  # not Becky, who shares the space
    assert where(game, card) == "discard"
    who = [e for e in game.entries if e["type"] == "choice" and "who kills" in e["label"]]
    assert [e["options"] for e in who] == [1]  # the one Hero who won: a terminal does not ask a lone option
    assert not any(r.get("markers", {}).get("won_fight") for r in game.state["units"].values())
