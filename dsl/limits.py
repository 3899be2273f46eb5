"""Limits of the language front end, importable without loading the parser."""

MAX_FILE_BYTES = 1 << 20
MAX_DEPTH = 48
MAX_ERRORS_PER_FILE = 25
