"""Resolve: which system each declaration belongs to, the vocabulary of every system, and the symbol
table of every system (duplicates reported with both places)."""

from __future__ import annotations

from dataclasses import dataclass, field

from spawnpit.compiler import ast as A
from spawnpit.compiler.exprs import Names
from spawnpit.compiler.specs import DECLS
from spawnpit.compiler.vocab import Vocab, blocks, build_vocab, first_value, props
from spawnpit.diagnostics import Label, Report, did_you_mean

CATEGORIES = {"card": "card", "table": "table", "special_rule": "special rule", "scenario": "scenario",
              "board": "board", "deck": "deck"}


@dataclass(slots=True)
class Resolved:
    systems: dict[str, Vocab]
    decls: list[tuple[A.Block, str]]  # (declaration, system) for every non-system declaration
    symbols: dict[str, dict[tuple[str, str], A.Block]] = field(default_factory=dict)
    names: dict[str, Names] = field(default_factory=dict)

    def lookup(self, system: str, category: str, name: str) -> A.Block | None:
        return self.symbols.get(system, {}).get((category, name))

    def ids(self, system: str, category: str) -> set[str]:
        return {n for (c, n) in self.symbols.get(system, {}) if c == category}


def resolve(files, report: Report) -> Resolved:
    systems: dict[str, Vocab] = {}
    for file in files:
        for decl in file.decls:
            if decl.kind.value == "system" and decl.id:
                if decl.id in systems:
                    _duplicate(report, "system", decl, systems[decl.id].decl)
                else:
                    systems[decl.id] = build_vocab(decl)
    out = Resolved(systems=systems, decls=[])
    for file in files:
        declared = [d.id for d in file.decls if d.kind.value == "system"]
        default = file.usings[-1].system if file.usings else None
        if default is not None and default.value not in systems:
            report.error("E0105", f"unknown system `{default.value}`", default.span,
                         help=did_you_mean(default.value, systems) or "import the file or library that declares it, e.g. `import lnoe`")
        for decl in file.decls:
            if decl.kind.value == "system":
                continue
            system = _system_of(decl, default, declared, systems, report)
            if system is not None:
                out.decls.append((decl, system))
    for decl, system in out.decls:
        _add_decks(systems[system], decl)
        category = _category(decl, systems[system])
        if category is None or decl.id is None:
            continue
        table = out.symbols.setdefault(system, {})
        first = table.get((category, decl.id))
        if first is not None:
            _duplicate(report, category, decl, first)
        else:
            table[(category, decl.id)] = decl
    for name, vocab in systems.items():
        out.names[name] = _names(vocab, out, name)
    return out


def _category(decl: A.Block, vocab: Vocab) -> str | None:
    kind = decl.kind.value
    if kind in CATEGORIES:
        return kind
    return "unit" if kind in vocab.kinds else None


def _add_decks(vocab: Vocab, decl: A.Block) -> None:
    if decl.kind.value == "deck" and decl.id:
        vocab.decks.setdefault(decl.id, decl)


def _system_of(decl, default, declared, systems, report) -> str | None:
    value = first_value(decl, "system")
    if isinstance(value, A.NameRef):
        if value.name in systems:
            return value.name
        report.error("E0105", f"unknown system `{value.name}`", value.span, help=did_you_mean(value.name, systems))
        return None
    if default is not None:
        return default.value if default.value in systems else None
    if len(declared) == 1 and declared[0] in systems:
        return declared[0]
    report.error("E0107", f"{decl.kind.value} `{decl.id}` does not say which system it belongs to", decl.head_span,
                 help="add `using SYSTEM` at the top of the file or a `system SYSTEM` property")
    return None


def _duplicate(report: Report, category: str, decl: A.Block, first: A.Block) -> None:
    report.error("E0106", f"{CATEGORIES.get(category, category)} `{decl.id}` is defined twice", decl.head_span,
                 labels=[Label(span=first.head_span, message="first defined here")],
                 help="rename one of them (names are compared as slugs)")


def _names(vocab: Vocab, res: Resolved, system: str) -> Names:
    glob: dict[str, str] = {"round": "num", "rounds": "num", "event": "event"}
    spaces, buildings = set(), set()
    for (category, name), decl in res.symbols.get(system, {}).items():
        if category == "board":
            s, b = board_places(decl)
            spaces |= s
            buildings |= b
    layers = [
        (vocab.keywords, "keyword"), (vocab.card_types, "keyword"), (spaces, "space"), (buildings, "building"),
        (res.ids(system, "card"), "card"), (res.ids(system, "board"), "board"), (res.ids(system, "table"), "table"),
        (res.ids(system, "unit"), "unit"), (vocab.modes, "mode"), (vocab.markers, "marker"), (vocab.tracks, "track"),
        (vocab.decks, "deck"), (vocab.kinds, "kind"), (vocab.sides, "side"), (vocab.counters, "num"),
    ]
    alts: dict[str, set[str]] = {}
    for names, type_ in layers:
        for name in names:
            glob[name] = type_
            alts.setdefault(name, set()).add(type_)
    params = {p for params in vocab.events.values() for p in params}
    return Names(globals=glob, events=vocab.events, stats=set(vocab.stats), keywords=set(vocab.keywords) | vocab.card_types,
                 kinds=set(vocab.kinds), markers=set(vocab.markers), dice=vocab.dice or {6},
                 cards=res.ids(system, "card"), places=spaces | buildings, params=params, alts=alts,
                 units=res.ids(system, "unit"))


def board_places(board: A.Block) -> tuple[set[str], set[str]]:
    """The names of a board's spaces (declared, listed, or made by `grid` less its `void` cells) and of
    its buildings."""
    spaces: set[str] = set()
    grid = [v.value for p in props(board, "grid") for v in p.values if isinstance(v, A.Lit) and v.kind == "int"]
    if len(grid) == 2:
        cols, rows = grid
        spaces |= grid_names(cols, rows)
        spaces -= {v.name for p in props(board, "void") for v in p.values if isinstance(v, A.NameRef)}
    spaces |= {v.name for p in props(board, "spaces") for v in p.values if isinstance(v, A.NameRef)}
    for kind in ("space", "zone"):
        spaces |= {b.id for b in blocks(board, kind) if b.id}
    for track in blocks(board, "track"):
        spaces |= {v.name for p in props(track, "spaces") for v in p.values if isinstance(v, A.NameRef)}
        if track.id:
            spaces.add(track.id)
    buildings = {b.id for b in blocks(board, "building") if b.id}
    return spaces, buildings


def grid_names(cols: int, rows: int) -> set[str]:
    """The cell names of a `grid COLS, ROWS`: a1 … (column letters, row numbers)."""
    return {f"{_column(c)}{r + 1}" for c in range(min(cols, 26 * 27)) for r in range(min(rows, 999))}


def _column(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(97 + rem) + letters
    return letters


KNOWN_KINDS = set(DECLS)
