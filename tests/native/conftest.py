"""The native core's tests need the built extension (spawnpit.engine._native). `pip install -e .` builds it
when g++ and the Python headers are there, and scripts/system-deps.sh --tests installs both, so a missing
module here is a failure (with how to build it), not a skip."""

import pytest


@pytest.fixture(scope="session")
def native():
    try:
        from spawnpit.engine import _native
    except ImportError as err:
        pytest.fail(f"the native core is not built ({err}): install g++ and the Python headers "
                    "(bash scripts/system-deps.sh --tests), then pip install -e .", pytrace=False)
    return _native
