"""Every rule of the Last Night on Earth base content fires somewhere in the test suite.

The rules are the hooks of the five base scenarios' models (system rules, the base decks, heroes,
scenario rules; the Martian rules of the expansion excluded). The suite's conftest keeps the `fired`
table of every game any test played; this test runs after all others, adds a few whole seeded games of
each scenario, and names the rules no game ever fired. Run alone (without the engine tests that set
up the rare situations), it only checks the games it plays itself and says so by skipping."""

from __future__ import annotations

from pathlib import Path

import pytest

from spawnpit.compiler import compile_paths
from spawnpit.engine import AIPolicy, RandomPolicy, new_game, play
from spawnpit.resources import builtin_paths
from tests.conftest import FIRED

SCENARIOS = ("die_zombies_die", "escape_in_the_truck", "save_the_townsfolk", "burn_em_out", "defend_the_manor_house")
EXPANSION = "Invasion from Outer Space"


def base_rules(pack) -> dict[str, str]:
    """rule id → title, for every hook in the five scenarios' models, expansion rules left out."""
    out: dict[str, str] = {}
    for scenario in SCENARIOS:
        game = new_game(pack, f"lnoe:{scenario}", seed=0)
        for hooks in game.model.hooks.values():
            for hook in hooks:
                if not hook.rule["source"].startswith(EXPANSION):
                    out.setdefault(hook.rule["rule"], hook.rule["title"])
    return out


@pytest.mark.coverage_last
def test_every_lnoe_base_rule_fires_somewhere_in_the_suite(request):
    pack = compile_paths(builtin_paths()).pack
    for scenario in SCENARIOS:
        for seed in range(6):
            for policy in (AIPolicy, RandomPolicy):
                play(new_game(pack, f"lnoe:{scenario}", seed=seed,
                              policies={"heroes": policy(), "zombies": policy()}))
    fired = {rule for system, table in FIRED if system == "lnoe" for rule, n in table.items() if n}
    missing = {rule: title for rule, title in base_rules(pack).items() if rule not in fired}
    here = Path(__file__).parent
    modules = {Path(str(item.fspath)).resolve() for item in request.session.items}
    whole_suite = all(path.resolve() in modules for path in here.glob("test_*.py"))
    if missing and not whole_suite:
        pytest.skip(f"run with the whole engine suite to judge coverage ({len(missing)} rules not fired by these games alone)")
    assert not missing, "rules of the LNOE base content no test made fire: " + ", ".join(
        f"{title} ({rule})" for rule, title in sorted(missing.items()))
