from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
MINI = FIXTURES / "mini"


@pytest.fixture
def write_pack(tmp_path):
    """Write files into a fresh pack folder (with pack.toml and a copy of the mini system) and return it."""

    def write(files: dict[str, str], with_system: bool = True) -> Path:
        (tmp_path / "pack.toml").write_text('name = "test"\n')
        if with_system:
            (tmp_path / "system.pit").write_text((MINI / "system.pit").read_text())
        for name, text in files.items():
            target = tmp_path / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
        return tmp_path

    return write


def codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    """The suite never reads or fills the user's real cache."""
    import os

    from spawnpit.compiler import cache

    os.environ["SPAWNPIT_CACHE_DIR"] = str(tmp_path_factory.mktemp("spawnpit-cache"))
    cache.folder.cache_clear()
    yield


# ---- rule coverage: which rules fired in any game any test played ------------------------------------

FIRED: list[tuple[str, dict]] = []  # (system, the game's `fired` table), for every game of the session


@pytest.fixture(autouse=True, scope="session")
def _record_fired_rules():
    """Every Game made during the session keeps its `fired` table here, so the coverage test at the
    end of the run can say which rules of the built-in content no test ever made fire."""
    from spawnpit.engine.game import Game

    original = Game.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        FIRED.append((self.model.system_name, self.fired))

    Game.__init__ = init
    from spawnpit.engine import native

    original_new = native.play_new

    def play_new(*args, **kwargs):  # a simulated game the native core played, with no Game made
        out = original_new(*args, **kwargs)
        FIRED.append((out["system"], dict(out["fired"])))
        return out

    native.play_new = play_new
    yield
    Game.__init__ = original
    native.play_new = original_new


def pytest_collection_modifyitems(session, config, items):
    """Coverage tests (marked `coverage_last`) run after every other test, whatever their file order."""
    last = [i for i in items if i.get_closest_marker("coverage_last")]
    items[:] = [i for i in items if not i.get_closest_marker("coverage_last")] + last


def pytest_configure(config):
    config.addinivalue_line("markers", "coverage_last: runs after every other test and reads the rules they fired")
