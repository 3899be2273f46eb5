"""One way to name things for every stage: slugs and scenario lookup."""

from __future__ import annotations

import pytest

from spawnpit.engine import GameError, find_scenario as engine_find
from spawnpit.generators.pack import Pack, PackError
from spawnpit.names import NotFound, find_scenario, slug

OBJECTS = [
    {"kind": "scenario", "id": "die_zombies_die", "system": "lnoe", "props": {"title": "Die Zombies, Die!"}},
    {"kind": "scenario", "id": "basic_game", "system": "dotz", "props": {"title": "Basic Game"}},
    {"kind": "scenario", "id": "basic_game", "system": "other", "props": {"title": "Basic Game"}},
]


def test_slugs():
    assert slug("Die Zombies, Die!") == slug("die-zombies-die") == "die_zombies_die"
    assert slug("Burn 'em Out") == "burn_em_out" and slug("Café Déjà-vu") == "cafe_deja_vu"


def test_scenarios_by_id_title_and_file_style_name():
    for name in ("die_zombies_die", "Die Zombies, Die!", "die-zombies-die", "lnoe:die-zombies-die"):
        assert find_scenario(OBJECTS, name)["id"] == "die_zombies_die"
    assert find_scenario(OBJECTS, "dotz:basic-game")["system"] == "dotz"


def test_unknown_and_ambiguous_names_say_what_there_is():
    with pytest.raises(NotFound, match="did you mean `die_zombies_die`"):
        find_scenario(OBJECTS, "die-zombie-die")
    with pytest.raises(NotFound, match="dotz:basic_game, other:basic_game"):
        find_scenario(OBJECTS, "basic game")


def test_the_engine_and_the_generators_agree():
    pack = {"format": "spawnpit-pack/1", "systems": {}, "objects": OBJECTS}
    assert engine_find(pack, "Die Zombies, Die!") is Pack(pack).find_scenario("die-zombies-die")
    with pytest.raises(GameError, match="no scenario"):
        engine_find(pack, "nowhere")
    with pytest.raises(PackError, match="no scenario"):
        Pack(pack).find_scenario("nowhere")
