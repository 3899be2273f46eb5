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
