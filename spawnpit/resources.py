"""Finds the built-in content (cards/, scenarios/, schemas/) both installed and in a checkout.

Installed, setuptools maps the data folders to ``spawnpit/content/…``; in a checkout (and an editable
install) they sit beside the ``spawnpit`` folder at the repository root.
"""

from __future__ import annotations

import functools
from pathlib import Path

LIBRARIES = ("lnoe", "notld", "dotz")


@functools.cache
def content_root() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here / "content", here.parent):
        if (candidate / "scenarios").is_dir() and (candidate / "schemas").is_dir():
            return candidate
    raise RuntimeError(f"spawnpit's built-in content is missing (looked in {here / 'content'} and {here.parent})")


def schemas_dir() -> Path:
    return content_root() / "schemas"


def library_index(name: str) -> Path:
    """`import lnoe` → scenarios/lnoe/lnoe.pit: the system with its boards, units, cards and rules."""
    return content_root() / "scenarios" / name / f"{name}.pit"


def builtin_paths() -> list[Path]:
    root = content_root()
    return [root / "scenarios", root / "cards"]
