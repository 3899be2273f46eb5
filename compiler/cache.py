"""A content-addressed cache of parsed files and of objects already validated against their schemas.

Built-in libraries are thousands of lines that rarely change; re-parsing them on every
`spawnpit check my_scenario.pit` is what makes a one-file check slow. Entries are keyed by the SHA-256
of what they were computed from (file text, grammar, schemas, spawnpit version), so a stale entry can
never be used, only missed. Each Python implementation and version keeps its own folder: a pickle is only
read back by the interpreter that wrote it (PyPy 3.9 pickles slotted dataclasses as dicts, which CPython
3.11 would read back as field names). Any failure to read or write the cache is ignored: the cache can make a run
faster, never different. ``SPAWNPIT_NO_CACHE=1`` turns it off; ``SPAWNPIT_CACHE_DIR`` moves it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import pickle
import sys
import tempfile
from pathlib import Path

from spawnpit import __version__

_PICKLE_PROTOCOL = 5


def enabled() -> bool:
    return os.environ.get("SPAWNPIT_NO_CACHE", "") in ("", "0")


@functools.cache
def folder() -> Path:
    base = os.environ.get("SPAWNPIT_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base else Path.home() / ".cache"
    return (root / "spawnpit" if not os.environ.get("SPAWNPIT_CACHE_DIR") else root) / __version__ / _interpreter()


def _interpreter() -> str:
    """The interpreter the pickles are for: "cpython-311", "pypy39", …"""
    return sys.implementation.cache_tag or f"{sys.implementation.name}-{sys.version_info[0]}{sys.version_info[1]}"


def digest(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()


def load(kind: str, key: str):
    if not enabled():
        return None
    try:
        with open(folder() / kind / key[:2] / key, "rb") as f:
            return pickle.load(f)
    except Exception:  # noqa: BLE001 - a broken or missing entry is a miss
        return None


def store(kind: str, key: str, value) -> None:
    if not enabled():
        return
    try:
        target = folder() / kind / key[:2] / key
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as f:
            pickle.dump(value, f, protocol=_PICKLE_PROTOCOL)
        os.replace(f.name, target)
    except Exception:  # noqa: BLE001 - a read-only or full disk only costs speed
        pass


def canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
