"""How people name things: slugs, and finding a scenario by any of its names.

Shared by every stage (the compiler compares declarations by slug; the engine and the generators find
scenarios the same way), so "Die Zombies, Die!", die_zombies_die and die-zombies-die always agree.
"""

from __future__ import annotations

import difflib
import re
import unicodedata


def slug(text: str) -> str:
    """The canonical form of a name: "Die Zombies, Die!" → die_zombies_die; "Burn 'em Out" → burn_em_out."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"['’]", "", text.lower())
    return re.sub(r"[^a-z0-9]+", "_", text).strip("_")


class NotFound(LookupError):
    """No (single) scenario answers to a name; the message says what there is."""


def find_scenario(objects: list[dict], name: str) -> dict:
    """A scenario by slug, title or file-style name (die-zombies-die), optionally as SYSTEM:NAME."""
    system, _, rest = name.rpartition(":")
    wanted = slug(rest)
    scenarios = [o for o in objects if o["kind"] == "scenario"]
    hits = [o for o in scenarios if (o["id"] == wanted or slug(o["props"].get("title", "")) == wanted)
            and (not system or o["system"] == system)]
    if not hits:
        ids = sorted(o["id"] for o in scenarios)
        close = difflib.get_close_matches(wanted, ids, n=1)
        hint = f"; did you mean `{close[0]}`?" if close else f"; scenarios: {', '.join(ids) or 'none'}"
        raise NotFound(f"no scenario `{name}`{hint}")
    if len(hits) > 1:
        raise NotFound(f"`{name}` names scenarios in several systems: "
                       + ", ".join(f"{o['system']}:{o['id']}" for o in hits) + " (write SYSTEM:NAME)")
    return hits[0]
