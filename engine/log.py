"""The game log as JSON Lines: a header naming what was played, then one entry per thing that happened.

Same pack + seed + policies → byte-identical log, so a log is both a record and a test: `spawnpit
replay` plays the game again from its header and recorded choices and compares every line.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

FORMAT = "spawnpit-log/1"


def pack_digest(pack: dict) -> str:
    return hashlib.sha256(json.dumps(pack, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def header(game, policies: dict) -> dict:
    return {"type": "game", "format": FORMAT, "scenario": game.state["scenario"], "system": game.state["system"],
            "seed": game.state["seed"], "pack": pack_digest(game.model.pack),
            "policies": {side: getattr(p, "name", type(p).__name__) for side, p in sorted(policies.items())}}


def line(entry: dict) -> str:
    return json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def dumps(head: dict, entries: list[dict]) -> str:
    return "".join(line(e) + "\n" for e in [head, *entries])


class LogError(Exception):
    """A file that is not a spawnpit game log (or a damaged one), with the line that is wrong."""


def read(path: Path) -> tuple[dict, list[dict]]:
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise LogError(f"cannot read {path}: {err}") from err
    entries = []
    for number, text in enumerate(lines, 1):
        try:
            entries.append(json.loads(text))
        except json.JSONDecodeError as err:
            raise LogError(f"{path}:{number}: not a JSON line ({err.msg})") from err
    if not entries or not isinstance(entries[0], dict) or entries[0].get("type") != "game" \
            or entries[0].get("format") != FORMAT:
        raise LogError(f"{path}:1: not a spawnpit game log (no `{FORMAT}` header)")
    from spawnpit.compiler.validate import problems  # the log's own schema, schemas/log.schema.json

    for number, entry in enumerate(entries, 1):
        wrong = problems("log", entry)
        if wrong:
            raise LogError(f"{path}:{number}: not a valid log line ({wrong[0]})")
    return entries[0], entries[1:]


def choices(entries: list[dict]) -> dict[str, list[int]]:
    """The answers each side gave, in order: enough to replay any game, whoever played it."""
    out: dict[str, list[int]] = {}
    for entry in entries:
        if entry.get("type") == "choice":
            out.setdefault(entry["side"], []).append(entry["index"])
    return out
