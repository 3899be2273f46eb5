"""The unit events the engine raises by itself, and the parameters it gives them: the one table both the
engine (which raises them through ``unit_event``) and the compiler (which checks a system's
`unit_event` declarations against it) read.

A system declares `unit_event killed { params "by" }`; whenever any unit is killed the engine raises
KIND.killed (and hooks on `unit.killed` see it too) with `unit` and the parameters listed here. A
declaration that names a parameter the engine does not supply would leave hooks reading a name that is
never set, so `spawnpit check` reports it (E0312), and one that leaves out a supplied parameter cannot be
filtered on (W0404).

This module imports nothing (not even the rest of the engine): the compiler reads it at check time.
Unit events the engine does not raise (`healed`, `searched`, …) are the content's own: rules raise them
with `emit`, and their parameters are whatever the system declares.
"""

from __future__ import annotations

# name → the parameters the engine gives it besides `unit`, in order.
UNIT_EVENTS: dict[str, tuple[str, ...]] = {
    "moved": ("from", "to"),      # a unit moved or was placed: the space it left (none when it was off the board) and the space it is in
    "killed": ("by",),            # a unit was killed (wounds reached its health, or `kill … by`): the killer, or none
    "wounded": ("by",),           # a unit took wounds (`wound … from`): the source, or none
    "spawned": ("space",),        # a unit was spawned (`spawn`): the space it appeared in
    "entered": ("space", "from"), # a walking unit stepped into a space (`move … by n`, one event per step), from the one it left
}

# Where each is raised, for readers of the engine: world.py (moved, killed, wounded, spawned) and
# movement.py (entered).
WHERE = {"moved": "engine/world.py", "killed": "engine/world.py", "wounded": "engine/world.py",
         "spawned": "engine/world.py", "entered": "engine/movement.py"}


def unit_event(kind: str, name: str, unit, *values) -> tuple[str, dict]:
    """The event name and parameters of an engine-raised unit event: ``unit_event("zombie", "moved", u,
    origin, to)`` → ``("zombie.moved", {"unit": u, "from": origin, "to": to})``. Values come in the
    order of UNIT_EVENTS, so the engine cannot raise a parameter the table (and the compiler) lacks."""
    names = UNIT_EVENTS[name]
    if len(values) != len(names):
        raise TypeError(f"unit event `{name}` takes {', '.join(names)}; got {len(values)} values")
    return f"{kind}.{name}", {"unit": unit, **dict(zip(names, values))}
