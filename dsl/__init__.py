"""The spawnpit language: grammar files and ``parse()``. The only package that imports lark."""

from spawnpit.dsl.parser import MAX_DEPTH, MAX_FILE_BYTES, ParseResult, parse

__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "ParseResult", "parse"]
