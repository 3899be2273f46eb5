"""Session 26: findings of the play-tests and of last session's list of things left alone."""

from __future__ import annotations

from spawnpit.engine.human import describe_entry, _unit
from tests.engine.lnoe_table import put
from tests.engine.test_lnoe_faq import bare_game


# ---- a Zombie Hero is the Hero's own figure: it goes by the Hero's name ---------------------------------

def test_a_zombie_hero_is_named_after_the_hero_it_was(pack):
    """Base rulebook, Zombie Heroes: the killed Hero's figure stays on the board with a Zombie Hero marker
    under it. The log and the terminal said "Zombie Hero 131"; which Hero it was is what the table sees."""
    game = bare_game(pack, scenario="burn_em_out", heroes=[0, 0])
    game.state["tracks"]["sun"] = 15
    billy = put(game, "billy", "town_center.a1")
    zombie = put(game, "zombie", "town_center.a1")
    game.wound(billy, 2, game._plain_ctx(), zombie)
    risen = next(u for u, r in game.state["units"].items() if r["kind"] == "zombie_hero")
    assert _unit(game, risen) == "Zombie Hero (Billy)"
    spawned = next(e for e in game.entries if e["type"] == "spawn" and e["kind"] == "zombie_hero")
    assert spawned["from"] == billy.id  # the log keeps whose figure it is
    marked = next(e for e in game.entries if e["type"] == "mark" and e.get("what") == risen)
    assert describe_entry(game, marked).startswith("Zombie Hero (Billy)")
    # the rules' own name for it (a note's plain text) is the same
    assert game.table.attribute(game.table.ref("unit", risen), "name") == "Zombie Hero (Billy)"
    # and an ordinary Zombie keeps its number
    assert _unit(game, zombie.id) == f"Zombie {zombie.id.lstrip('u')}"


def test_spawn_from_takes_a_unit(tmp_path):
    from tests.compiler.test_robustness import compile_text
    scenario = 'using mini\nscenario "S" {{ board yard\n on round.start {{ {} }} }}\n'
    good = compile_text(tmp_path, scenario.format("for each unit u { spawn zombie at a1 from u }"), with_system=True)
    assert good.ok, good.diagnostics
    bad = compile_text(tmp_path, scenario.format("spawn zombie at a1 from 3"), with_system=True)
    assert [(d.code, d.message) for d in bad.diagnostics] == [("E0301", "`from` of `spawn` needs unit, found num")]


# ---- a longer Zombie move says how far it may still go --------------------------------------------------

def test_each_step_of_a_longer_zombie_move_says_how_many_spaces_are_left(pack):
    """The Zombies' play-test was asked one space at a time for a Shambling Zombie, with only the first
    question saying how far it could go."""
    step = lambda options: next(i for i, o in enumerate(options) if o is not None)  # noqa: E731
    game = bare_game(pack, zombies=[step] * 3)
    zombie = put(game, "zombie", "town_center.a1")
    far = max(game.board.spaces, key=lambda s: game.board.between("town_center.a1", s))
    put(game, "becky", far)  # out of reach: every step is a free one
    game.emit("zombie_walk", {"walker": zombie, "moves": 3})
    said = [e["text"] for e in game.entries if e["type"] == "note"]
    assert said == ["Zombie may move up to 3 (Zombie Hunger holds at each step)",
                    "Zombie may move 2 more", "Zombie may move 1 more"]
    assert len([e for e in game.entries if e["type"] == "move"]) == 3


def test_a_units_explanation_gives_its_keywords(pack):
    """Teen Angst aims at a Student, Catfight at female Heroes: the Zombies' play-test could not see which
    Hero is which."""
    from spawnpit.engine.human import explain_option

    game = bare_game(pack)
    billy = put(game, "billy", "town_center.a1")
    assert "keywords: male, student, teenager" in explain_option(game, billy).splitlines()


# ---- a roll says what it is for --------------------------------------------------------------------------

def test_the_out_of_ammo_roll_is_shown_for_the_gun_not_the_ranged_attack(pack):
    """The play-test read the gun's second roll as a second shot: "rolled 1D6: 1 for Ranged Attack"."""
    from tests.engine.lnoe_table import dice
    from tests.engine.test_lnoe_faq import give

    game = bare_game(pack, heroes=[0, 0])
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    put(game, "zombie", "town_center.b1")
    revolver = give(game, "revolver", sheriff)
    dice(game, [5], [1])  # a Hit, then out of ammo
    game.emit("shoot", {"unit": sheriff})
    shot, ammo = [e for e in game.entries if e["type"] == "roll"]
    assert describe_entry(game, shot) == "rolled 1D6: 5 for Ranged Attack (Sheriff Anderson)"
    assert ammo["for"] == revolver.id
    assert describe_entry(game, ammo) == "rolled 1D6: 1 for the Revolver (Sheriff Anderson)"


# ---- questions asked only when they can matter -----------------------------------------------------------

def test_old_betsy_is_offered_at_the_exchange_step_only_with_a_zombie_in_her_range(pack):
    """She holds Zombies leaving her space. The play-test was asked where to set her loose at every
    Exchange step of her Hero's, with no Zombie anywhere near."""
    from tests.engine.test_lnoe_faq import answer, to_hand
    from tests.engine.test_lnoe_session23_cards import emit_step

    game = bare_game(pack)
    becky = put(game, "becky", "town_center.b2")
    betsy = to_hand(game, "old_betsy", "heroes")
    game.state["cards"][betsy]["where"] = becky.id
    far = max(game.board.spaces, key=lambda s: game.board.between("town_center.b2", s))
    put(game, "zombie", far)
    script = answer(game, "heroes")
    emit_step(game, "hero_turn.exchange.end", {"unit": becky})
    assert script.asked == []
    put(game, "zombie", "town_center.a1")  # one space away, in sight
    emit_step(game, "hero_turn.exchange.end", {"unit": becky})
    assert len(script.asked) == 1 and "town_center.a1" in [getattr(o, "id", o) for o in script.asked[0][1]]
