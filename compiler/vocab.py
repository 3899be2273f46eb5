"""A system's vocabulary: the names every hook, stat, keyword and reference is checked against."""

from __future__ import annotations

from dataclasses import dataclass, field

from spawnpit.compiler import ast as A
from spawnpit.compiler.specs import BUILTIN_EVENTS


@dataclass(slots=True)
class Vocab:
    name: str
    decl: A.Block
    sides: dict[str, A.Block] = field(default_factory=dict)
    kinds: dict[str, A.Block] = field(default_factory=dict)
    stats: dict[str, A.Block] = field(default_factory=dict)
    keywords: dict[str, A.Node] = field(default_factory=dict)  # type: ignore[name-defined]
    card_types: set[str] = field(default_factory=set)
    markers: dict[str, A.Block] = field(default_factory=dict)
    modes: dict[str, A.Block] = field(default_factory=dict)
    tracks: dict[str, A.Block] = field(default_factory=dict)
    decks: dict[str, A.Block] = field(default_factory=dict)
    dice: set[int] = field(default_factory=set)
    events: dict[str, tuple[str, ...]] = field(default_factory=dict)  # full name → params
    phases: list[A.Block] = field(default_factory=list)
    actions: dict[str, A.Block] = field(default_factory=dict)
    counters: dict[str, A.Prop] = field(default_factory=dict)

    def kind_stats(self, kind: str) -> set[str]:
        block = self.kinds.get(kind)
        if block is None:
            return set()
        return {v.name for p in props(block, "stats") for v in p.values if isinstance(v, A.NameRef)}

    def stat_applies(self, stat: str) -> str:
        block = self.stats[stat]
        value = first_value(block, "applies")
        return value.name if isinstance(value, A.NameRef) else "units"


def props(block: A.Block, name: str) -> list[A.Prop]:
    return [i for i in block.items if isinstance(i, A.Prop) and i.name.value == name]


def first_value(block: A.Block, name: str):
    for p in props(block, name):
        if p.values:
            return p.values[0]
    return None


def blocks(block: A.Block, kind: str) -> list[A.Block]:
    return [i for i in block.items if isinstance(i, A.Block) and i.kind.value == kind]


def _add_events(vocab: Vocab, base: str, params: tuple[str, ...] = ()) -> None:
    for suffix in ("", ".start", ".end"):
        vocab.events.setdefault(base + suffix, params)


def _params(block: A.Block) -> tuple[str, ...]:
    """Parameter names; quoted ones allow the reserved prepositions (`params "by"` for `on x.killed by hero`)."""
    return tuple(v.name if isinstance(v, A.NameRef) else str(v.value) for p in props(block, "params") for v in p.values
                 if isinstance(v, A.NameRef) or (isinstance(v, A.Lit) and v.kind == "str"))


def build_vocab(decl: A.Block) -> Vocab:
    vocab = Vocab(name=decl.id or "", decl=decl)
    tables = {"side": vocab.sides, "kind": vocab.kinds, "stat": vocab.stats, "marker": vocab.markers,
              "mode": vocab.modes, "track": vocab.tracks, "deck": vocab.decks}
    for block in (i for i in decl.items if isinstance(i, A.Block)):
        table = tables.get(block.kind.value)
        if table is not None and block.id:
            table.setdefault(block.id, block)
        elif block.kind.value == "keyword" and block.id:
            vocab.keywords.setdefault(block.id, block)
    for p in props(decl, "keywords"):
        for v in p.values:
            if isinstance(v, A.NameRef):
                vocab.keywords.setdefault(v.name, v)
    vocab.card_types = {v.name for p in props(decl, "card_types") for v in p.values if isinstance(v, A.NameRef)}
    vocab.dice = {v.value[1] for p in props(decl, "dice") for v in p.values if isinstance(v, A.Lit) and v.kind == "dice"}
    vocab.counters = {p.key.name: p for p in props(decl, "counter") if isinstance(p.key, A.NameRef)}
    for name in BUILTIN_EVENTS:
        vocab.events[name] = ()
    vocab.events["game.end"] = ("winner",)
    for block in blocks(decl, "event"):
        _add_events(vocab, block.id or "", _params(block))
    unit_events = [(b.id or "", _params(b)) for b in blocks(decl, "unit_event")]
    for name, params in unit_events:
        for kind in ("unit", *vocab.kinds):
            vocab.events[f"{kind}.{name}"] = ("unit", *params)
    for action in blocks(decl, "action"):
        _add_action(vocab, action)
    for phase in blocks(decl, "phase"):
        vocab.phases.append(phase)
        _add_events(vocab, phase.id or "")
        for action in blocks(phase, "action"):
            _add_action(vocab, action)
        each = first_value(phase, "activation")
        per_unit = ("unit",) if isinstance(each, A.NameRef) and each.name == "unit" else ()
        for step in blocks(phase, "step"):
            _add_events(vocab, f"{phase.id}.{step.id}", per_unit)
            for action in blocks(step, "action"):
                _add_action(vocab, action)
    return vocab


def _add_action(vocab: Vocab, action: A.Block) -> None:
    if action.id:
        vocab.actions.setdefault(action.id, action)
        _add_events(vocab, action.id, ("unit",))
