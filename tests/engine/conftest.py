"""Fixtures the engine tests share."""

from __future__ import annotations

import pytest

from spawnpit.compiler import compile_paths
from spawnpit.resources import builtin_paths


@pytest.fixture(scope="module")
def pack():
    """The built-in content, compiled (every system: LNOE, NotLD, DotZ)."""
    result = compile_paths(builtin_paths())
    assert result.ok
    return result.pack
