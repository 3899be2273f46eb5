"""The spawnpit language: grammar files and ``parse()``. The only package that imports lark.

lark is imported on first use of ``parse``, so a run whose files all come from the cache never loads it.
"""

from spawnpit.dsl.limits import MAX_DEPTH, MAX_FILE_BYTES

__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "ParseResult", "parse"]


def __getattr__(name: str):
    if name in ("parse", "ParseResult"):
        from spawnpit.dsl import parser

        return getattr(parser, name)
    raise AttributeError(f"module 'spawnpit.dsl' has no attribute {name!r}")
