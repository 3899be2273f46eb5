"""The table itself: setting up decks, tracks, counters and units, and every change effects make.

Mixed into Game; each operation changes plain state and logs it in table terms. Geometry comes from
engine.board (shortest paths, sight), built from the scenario's board object.
"""

from __future__ import annotations

import copy
import itertools

from spawnpit.engine import interp
from spawnpit.engine.events import unit_event
from spawnpit.engine.state import Ref, new_id

_OFF_TABLE = ("deck", "discard", "box")  # where a card is not in play


class _Version:
    """Counts the changes to what the game indexes in one table of records (units or cards): `moved`, a
    unit going from one space to another (it stays on the board), also counted for its kind (`kind_moved`:
    kind → count); `version`, any other change. Of those,
    a card going from one holder to another is also counted for the two holders (`held`: holder → count)
    and any other change in `other`, so a holder's cards are worked out again only when they changed."""

    __slots__ = ("version", "moved", "held", "other", "kind_moved")

    def __init__(self) -> None:
        self.version = 0
        self.moved = 0
        self.held: dict = {}
        self.other = 0
        self.kind_moved: dict = {}  # of the moves, those of each kind of unit


class _Watched(dict):
    """A dict that notes its own changes (`_touch`): the bulk changes and the copies every watched table
    shares. Copying, pickling or deep-copying one gives a plain dict."""

    __slots__ = ()

    def _touch(self) -> None:
        raise NotImplementedError

    def update(self, *args, **kwargs) -> None:
        dict.update(self, *args, **kwargs)
        self._touch()

    def popitem(self):
        self._touch()
        return dict.popitem(self)

    def clear(self) -> None:
        self._touch()
        dict.clear(self)

    def copy(self) -> dict:
        return dict(self)

    def __reduce__(self):
        return (dict, (dict(self),))

    def __deepcopy__(self, memo) -> dict:
        return copy.deepcopy(dict(self), memo)


class Record(_Watched):
    """A unit's or card's record in the state. To everything that reads, saves or copies it, a plain dict;
    writing one of the keys the game indexes (where a unit is and what it is, where a card is) tells the
    game's index that it changed, whoever writes it (an effect, a test)."""

    __slots__ = ("_changes", "_keys")

    def __setitem__(self, key, value) -> None:
        if key in self._keys:
            changes = self._changes
            if key == "space" and value is not None and dict.get(self, "space") is not None:
                dict.__setitem__(self, key, value)  # a move on the board: which units are on it is unchanged
                changes.moved += 1
                kind, moves = dict.get(self, "kind"), changes.kind_moved
                moves[kind] = moves.get(kind, 0) + 1
                return
            if key == "where":  # a card changes hands: only the two holders' cards changed
                held = changes.held
                old = dict.get(self, "where")
                held[old] = held.get(old, 0) + 1
                held[value] = held.get(value, 0) + 1
            else:
                changes.other += 1
            dict.__setitem__(self, key, value)
            changes.version += 1
            return
        dict.__setitem__(self, key, value)

    def __delitem__(self, key) -> None:
        dict.__delitem__(self, key)
        self._touch()

    def pop(self, key, *default):
        if key in self._keys:
            self._touch()
        return dict.pop(self, key, *default)

    def setdefault(self, key, default=None):
        if key in self._keys and key not in self:
            self._touch()
        return dict.setdefault(self, key, default)

    def _touch(self) -> None:
        self._changes.version += 1
        self._changes.other += 1


_STAMPS = itertools.count(1)


class Counted(_Watched):
    """The state's counters or tracks: a plain dict to everything that reads, saves or copies it, stamped
    anew (a number never used before, by any table) at every change, so the game can tell cheaply whether
    any counter or track changed since it last looked."""

    __slots__ = ("stamp",)

    def __init__(self, *args, **kwargs) -> None:
        dict.__init__(self, *args, **kwargs)
        self.stamp = next(_STAMPS)

    def __setitem__(self, key, value) -> None:
        dict.__setitem__(self, key, value)
        self.stamp = next(_STAMPS)

    def __delitem__(self, key) -> None:
        dict.__delitem__(self, key)
        self.stamp = next(_STAMPS)

    def pop(self, key, *default):
        self.stamp = next(_STAMPS)
        return dict.pop(self, key, *default)

    def setdefault(self, key, default=None):
        if key not in self:
            self.stamp = next(_STAMPS)
        return dict.setdefault(self, key, default)

    def _touch(self) -> None:
        self.stamp = next(_STAMPS)


def _record(fields: dict, changes: _Version, keys: frozenset) -> Record:
    record = Record(fields)
    record._changes, record._keys = changes, keys
    return record


_UNIT_KEYS = frozenset(("space", "kind", "side", "proto"))
_CARD_KEYS = frozenset(("where", "proto"))


class _Index:
    """Lists derived from one table of records (units or cards), each worked out on first use and kept
    until a record of the table changes what it is indexed by. Only records the game made (`Record`) are
    indexed; a table holding anything else is answered by scanning it each time."""

    __slots__ = ("changes", "table", "seen", "size", "usable", "views", "stable", "moved_seen", "holders", "kinds")

    def __init__(self) -> None:
        self.changes = _Version()
        self.table, self.seen, self.size, self.usable, self.views = None, -1, -1, False, {}
        self.stable, self.moved_seen, self.holders, self.kinds = {}, -1, {}, {}

    def stable_of(self, table: dict) -> dict | None:
        """The cached views of `table` that do not depend on which space a unit on the board is in (which
        units of a kind or side are on the board, …): a dict to fill, or None when it cannot be indexed."""
        if self.seen != self.changes.version or table is not self.table or self.size != len(table):
            if table is not self.table or self.size != len(table):  # records added (or another table)
                changes = self.changes
                self.usable = all(type(r) is Record and r._changes is changes for r in table.values())
                self.holders = {}
            self.table, self.seen, self.size = table, self.changes.version, len(table)
            self.stable, self.views, self.moved_seen, self.kinds = {}, {}, self.changes.moved, {}
        return self.stable if self.usable else None

    def views_of(self, table: dict) -> dict | None:
        """The cached views of `table` that any indexed change, a move included, makes stale (who is in
        which space); None when it cannot be indexed."""
        if self.stable_of(table) is None:
            return None
        if self.moved_seen != self.changes.moved:
            self.views, self.moved_seen = {}, self.changes.moved
        return self.views

    def kind_views(self, table: dict, kind: str) -> dict | None:
        """The cached views of `table` that only where the units of one kind are makes stale: kept while
        units of other kinds move (the Zombies' reach while the Heroes walk); None when it cannot be
        indexed."""
        if self.stable_of(table) is None:
            return None
        moved = self.changes.kind_moved.get(kind, 0)
        found = self.kinds.get(kind)
        if found is None or found[0] != moved:
            found = self.kinds[kind] = (moved, {})
        return found[1]

    def held_by(self, table: dict, holder: str, ref) -> tuple | None:
        """The references to the cards of `table` at `holder`, in table order, kept until a card comes to
        or leaves that holder (or anything else indexed changes); None when the table cannot be indexed. `ref`
        makes the references (Table.ref: one object for each card)."""
        if self.stable_of(table) is None:
            return None
        changes = self.changes
        stamp = (changes.held.get(holder, 0), changes.other)
        found = self.holders.get(holder)
        if found is not None and found[0] == stamp:
            return found[1]
        refs = tuple(ref("card", c) for c, r in table.items() if r["where"] == holder)
        self.holders[holder] = (stamp, refs)
        return refs


class World:
    def __init__(self) -> None:
        model, scenario = self.model, self.model.scenario
        self._unit_index, self._card_index = _Index(), _Index()
        self.board = _board(model, scenario, self.chance)
        self.space_set = set(self.board.spaces) if self.board else set()
        self.building_set = set(self.board.buildings) if self.board else set()
        self.acting_side = None
        self.objectives = _objectives(scenario)
        self.scenario_rule = {"rule": scenario["id"], "title": scenario["props"].get("title", scenario["id"]),
                              "source": scenario["props"].get("source", "")}
        self._setup_tables()

    def _setup_tables(self) -> None:
        state, model = self.state, self.model
        state["counters"], state["tracks"] = Counted(state["counters"]), Counted(state["tracks"])
        state["spaces"] = Counted(state["spaces"])
        for entry in model.scenario["props"].get("counter", []):
            state["counters"][entry["key"]] = entry["value"] if isinstance(entry["value"], int) else 0
        for entry in model.system["props"].get("counter", []):
            state["counters"].setdefault(entry["key"], entry["value"] if isinstance(entry["value"], int) else 0)
        for name, track in model.tracks.items():
            start = track["props"].get("start", 0)
            start = start[0] if isinstance(start, list) and start else start
            state["tracks"][name] = start if isinstance(start, int) and not isinstance(start, bool) else 0
        for name in model.decks:
            state["decks"][name] = {"draw": [], "discard": []}
        for card in sorted(model.cards, key=lambda c: c["id"]):
            deck = card["props"].get("deck")
            for _ in range(int(card["props"].get("count", 1))):
                cid = new_id(state, "c")
                state["cards"][cid] = _record({"proto": card["id"], "deck": deck, "where": "deck" if deck else "box",
                                               "type": card["props"].get("type"),
                                               "keywords": card["props"].get("keywords", []), "stats": {}, "markers": {}},
                                              self._card_index.changes, _CARD_KEYS)
                if deck in state["decks"]:
                    state["decks"][deck]["draw"].append(cid)
        for deck in state["decks"].values():
            self.chance.shuffle(deck["draw"])

    # ---- geometry --------------------------------------------------------------------------------

    def space_ids(self) -> list[str]:
        return sorted(self.space_set)

    def building_ids(self) -> list[str]:
        return sorted(self.building_set)

    def building_of(self, space: str | None) -> str | None:
        return self.board.building_of(space) if (self.board and space) else None

    def space_property(self, space: str, name: str):
        return self.board.property(space, name) if self.board else None

    def distance(self, a: str, b: str) -> int:
        return self.board.distance(a, b) if self.board else 0

    def sight(self, a: str, b: str) -> bool:
        return self.board.line_of_sight(a, b) if self.board else True

    def resolve_place(self, name: str) -> Ref | None:
        """A space or building named the way content names it (`b2`, `living_1r`), even inside a part."""
        if self.board is None:
            return None
        for candidates, kind in ((self.board.buildings, "building"), (self.board.spaces, "space")):
            hits = [c for c in candidates if c == name or c.endswith("." + name)]
            if len(hits) == 1:
                return Ref(kind, hits[0])
        return None

    def space_ref(self, where) -> Ref:
        if isinstance(where, Ref) and where.kind == "space":
            return where
        if isinstance(where, Ref) and where.kind == "building":
            spaces = sorted(self.board.spaces_of(where.id))
            return Ref("space", spaces[0])
        if isinstance(where, str) and where in self.space_set:
            return Ref("space", where)
        if isinstance(where, Ref) and where.kind == "unit":
            return Ref("space", self.state["units"][where.id]["space"])
        raise interp.RuleError(f"{where!r} is not a space on this board")

    # ---- units -----------------------------------------------------------------------------------

    def spawn(self, kind: Ref, at: Ref, count: int, ctx, former: Ref | None = None) -> list[Ref]:
        """`former`: the unit whose figure the new ones are (`spawn … from UNIT`); they take its name."""
        protos = self.model.protos(kind.id)
        if not protos:
            raise interp.RuleError(f"no unit of kind `{kind.id}` is declared to spawn")
        pool = self.model.kinds[kind.id]["props"].get("pool")
        made = []
        for _ in range(count):
            if pool is not None and len(self.table.units(kind.id)) >= pool:
                self.log({"type": "pool_empty", "kind": kind.id}, ctx.rule)
                break
            made.append(self.add_unit(protos[0], at.id))
        if made:
            entry = {"type": "spawn", "kind": kind.id, "count": len(made), "space": at.id}
            if former is not None:
                entry["from"] = former.id
                name = f"{self.model.title_of(protos[0]['id'])} ({self.table.attribute(former, 'name')})"
                for unit in made:
                    record = self.state["units"][unit.id]
                    record["name"], record["from"] = name, former.id
            self.log(entry, ctx.rule)
            for unit in made:
                self.emit(*unit_event(kind.id, "spawned", unit, at))
        return made

    def enter(self, proto_id: str, at: Ref, ctx) -> Ref:
        """A named unit (a hero, a survivor) comes into play; it is created once and moved after that."""
        for uid, record in self.state["units"].items():
            if record["proto"] == proto_id:
                self.move_unit(Ref("unit", uid), at, ctx)
                return Ref("unit", uid)
        proto = next(u for u in self.model.units if u["id"] == proto_id)
        unit = self.add_unit(proto, at.id)
        self.log({"type": "enter", "unit": unit.id, "proto": proto_id, "space": at.id}, ctx.rule)
        return unit

    def add_unit(self, proto: dict, space: str | None) -> Ref:
        uid = self.new_unit_id()
        kind = proto["unit_kind"]
        stats = {k: v for k, v in proto["props"].items() if k in self.model.system_stats}
        self.state["units"][uid] = _record({"proto": proto["id"], "kind": kind, "side": self.model.side_of(kind),
                                            "space": space, "stats": stats, "wounds": 0,
                                            "keywords": list(proto["props"].get("keywords", [])), "markers": {},
                                            "mode": proto["props"].get("mode"), "tracks": {}},
                                           self._unit_index.changes, _UNIT_KEYS)
        return Ref("unit", uid)

    def move_unit(self, unit: Ref, to: Ref, ctx, back: bool = False, placed: bool = False) -> None:
        """`back`: a step the unit was refused, undone (the log says it was turned back); `placed`: put
        there (`place`), not moved (the log says so: a Hero set up in their building "moved" there)."""
        record = self.state["units"][unit.id]
        origin, record["space"] = record["space"], to.id
        entry = {"type": "move", "unit": unit.id, "from": origin, "to": to.id}
        if back:
            entry["back"] = True
        if placed:
            entry["placed"] = True
        self.log(entry, ctx.rule)
        self.emit(*unit_event(record["kind"], "moved", unit, Ref("space", origin) if origin else None, to))

    def take_off(self, unit: Ref, ctx) -> None:
        record = self.state["units"][unit.id]
        space, record["space"] = record["space"], None
        self.log({"type": "remove", "unit": unit.id, "space": space}, ctx.rule)

    def wound(self, unit: Ref, amount: int, ctx, by=None) -> None:
        record = self.state["units"][unit.id]
        health = int(record["stats"].get("health", 1))
        before, healing = record["wounds"], amount < 0
        record["wounds"] = max(0, before + amount)
        if healing:  # as many as there were to heal, no more (0 for a unit with none)
            amount = record["wounds"] - before
        self.log({"type": "heal" if healing else "wound", "unit": unit.id, "amount": abs(amount),
                  "wounds": record["wounds"], "health": health}, ctx.rule)
        if amount > 0:
            self.emit(*unit_event(record["kind"], "wounded", unit, by))
            if record["wounds"] >= health:
                self.kill(unit, by, ctx)

    def kill(self, unit: Ref, by, ctx) -> None:
        record = self.state["units"][unit.id]
        if record["space"] is None:
            return
        space, record["space"] = record["space"], None
        record["last_space"] = space  # where it fell, for rules that act there (`u.last_space`)
        self.log({"type": "kill", "unit": unit.id, "kind": record["kind"], "space": space,
                  "by": str(by) if by is not None else None}, ctx.rule)
        self.emit(*unit_event(record["kind"], "killed", unit, by))

    def units_of_side(self, side: str, anywhere: bool = False) -> list[Ref]:
        if anywhere:
            return [Ref("unit", u) for u, r in self.state["units"].items() if r["side"] == side]
        ref = self.table.ref
        return [ref("unit", u) for u in self.unit_ids(side=side)]

    # ---- indexes: which units are where, which cards are held --------------------------------------

    def unit_ids(self, kind: str | None = None, space: str | None = None, side: str | None = None) -> list[str]:
        """Ids of the units on the board (of a kind, in a space, of a side), in the order of the state's
        table of units, as a scan of it would give them: a new list, which the caller may change."""
        units = self.state["units"]
        index = self._unit_index  # index.stable_of(units), when nothing changed, inline
        if index.seen == index.changes.version and units is index.table and index.size == len(units) and index.usable:
            views = index.stable
        else:
            views = index.stable_of(units)
        if views is None:
            return [u for u, r in units.items() if r["space"] is not None and (kind is None or r["kind"] == kind)
                    and (space is None or r["space"] == space) and (side is None or r["side"] == side)]
        if space is not None:
            views = index.views_of(units)  # who is in which space: stale after any move
            found = views.get("space")
            if found is None:
                found = views["space"] = _group(units, "space")
            ids = found.get(space, ())
            return [u for u in ids if units[u]["kind"] == kind] if kind is not None else list(ids)
        if kind is not None:
            found = views.get("kind")
            if found is None:
                found = views["kind"] = _group(units, "kind")
            return list(found.get(kind, ()))
        if side is not None:
            found = views.get("side")
            if found is None:
                found = views["side"] = _group(units, "side")
            return list(found.get(side, ()))
        found = views.get("all")
        if found is None:
            found = views["all"] = [u for u, r in units.items() if r["space"] is not None]
        return list(found)

    def card_ids(self, where: str) -> list[str]:
        """Ids of the cards held at `where` (a unit's id, "side:NAME", "play", …), in table order."""
        cards = self.state["cards"]
        found = self._card_index.held_by(cards, where, self.table.ref)
        if found is None:
            return [c for c, r in cards.items() if r["where"] == where]
        return [ref.id for ref in found]

    def flip(self, thing, mode, ctx) -> None:
        record = self.table.record(thing)
        if record is None:
            raise interp.RuleError(f"cannot flip {thing!r}")
        record["mode"] = mode.id if isinstance(mode, Ref) else (None if record.get("mode") else "flipped")
        self.log({"type": "flip", "what": str(thing), "mode": record["mode"]}, ctx.rule)

    def mark(self, thing, marker: str, amount: int, ctx) -> None:
        record = self.table.record(thing)
        if record is None:
            raise interp.RuleError(f"cannot mark {thing!r} with {marker}")
        if amount < 0 and not record.get("markers", {}).get(marker):
            return  # nothing to take off: nothing happens, and nothing is logged
        markers = record.setdefault("markers", {})
        markers[marker] = max(0, markers.get(marker, 0) + amount)
        if thing.kind == "card" or thing.kind == "space":  # what Table.having keeps of markers follows
            self.table.marked(thing, marker, record)
        elif thing.kind == "building":
            table = self.state.get("buildings")
            if type(table) is Counted:
                table._touch()
        self.log({"type": "mark" if amount > 0 else "unmark", "what": str(thing), "marker": marker}, ctx.rule)

    def track_add(self, track: str, amount: int, owner, ctx) -> None:
        if isinstance(owner, Ref) and owner.kind == "unit":
            tracks = self.state["units"][owner.id].setdefault("tracks", {})
        else:
            tracks = self.state["tracks"]
        tracks[track] = tracks.get(track, 0) + amount
        self.log({"type": "track", "track": track, "change": amount, "value": tracks[track]}, ctx.rule)

    def in_play(self, owner: str) -> bool:
        split = _OWNERS.get(owner)
        if split is None:
            split = _OWNERS[owner] = tuple(owner.split(":", 1))
        kind, proto = split
        if kind == "unit":
            units = self.state["units"]
            views = self._unit_index.stable_of(units)
            if views is None:
                return any(u["proto"] == proto and u["space"] is not None for u in units.values())
            found = views.get("protos")
            if found is None:
                found = views["protos"] = {u["proto"] for u in units.values() if u["space"] is not None}
            return proto in found
        cards = self.state["cards"]
        index = self._card_index  # index.stable_of(cards), when nothing changed, inline
        if index.seen == index.changes.version and cards is index.table and index.size == len(cards) and index.usable:
            views = index.stable
        else:
            views = index.stable_of(cards)
        if views is None:
            return any(c["proto"] == proto and c["where"] not in _OFF_TABLE for c in cards.values())
        found = views.get("protos")
        if found is None:
            found = views["protos"] = {c["proto"] for c in cards.values() if c["where"] not in _OFF_TABLE}
        return proto in found

    def owner_ref(self, owner: str) -> Ref | None:
        """`self` in a hook of a unit's or card's prototype: the first of its copies on the table, a card
        face up in play before one held (a copy in the Zombies' hand must not hide the one in play)."""
        kind, proto = owner.split(":", 1)
        table = self.state["units"] if kind == "unit" else self.state["cards"]
        views = (self._unit_index if kind == "unit" else self._card_index).stable_of(table)
        if views is not None:  # the scan below, remembered for each prototype until a record changes
            found = views.get("owners")
            if found is None:
                found = views["owners"] = {}
            elif proto in found:
                return found[proto]
            ref = found[proto] = _first_copy(kind, proto, table)
            return ref
        return _first_copy(kind, proto, table)

    def owner_copies(self, owner: str) -> tuple:
        """Who `self` is in each run of a per-copy hook (a card's hook that names `self`, owner
        "card:PROTO"): every copy of the card on the table, in play or held, in table order."""
        proto = owner[5:]
        cards = self.state["cards"]
        views = self._card_index.stable_of(cards)
        if views is None:
            return tuple(Ref("card", c) for c, r in cards.items() if r["proto"] == proto and r["where"] not in _OFF_TABLE)
        key = ("copies", proto)  # one prototype's at a time, as card_ids does
        found = views.get(key)
        if found is None:
            found = views[key] = tuple(Ref("card", c) for c, r in cards.items()
                                       if r["proto"] == proto and r["where"] not in _OFF_TABLE)
        return found

    def on_table(self, copy: Ref) -> bool:
        """Whether a copy `owner_copies` gave is still on the table (a hook run before may have moved it)."""
        record = self.state["cards"].get(copy.id)
        return record is not None and record["where"] not in _OFF_TABLE


def _first_copy(kind: str, proto: str, table: dict) -> Ref | None:
    held = None
    for key, record in table.items():
        if record["proto"] != proto:
            continue
        if kind == "unit" or record.get("where") == "play":  # (a unit: its first record, as it always was)
            return Ref(kind, key)
        elif held is None and record.get("where") not in _OFF_TABLE:
            held = Ref(kind, key)
    return held


_OWNERS: dict[str, tuple[str, str]] = {}  # "card:proto" → ("card", "proto")


def _group(records: dict, key: str) -> dict[str, list[str]]:
    """Ids of the records on the board grouped by one of their keys, each group in table order."""
    out: dict[str, list[str]] = {}
    for rid, record in records.items():
        if record["space"] is not None:
            value = record[key]
            group = out.get(value)
            if group is None:
                out[value] = [rid]
            else:
                group.append(rid)
    return out


def index_records(state: dict, game) -> None:
    """Make the unit and card records of a restored state the game's own (`Record`), so they are indexed,
    and its counters, tracks, spaces and buildings `Counted`."""
    state["counters"], state["tracks"] = Counted(state["counters"]), Counted(state["tracks"])
    for table in ("spaces", "buildings"):
        if isinstance(state.get(table), dict):
            state[table] = Counted(state[table])
    for table, index, keys in (("units", game._unit_index, _UNIT_KEYS), ("cards", game._card_index, _CARD_KEYS)):
        records = state[table]
        for rid, record in records.items():
            records[rid] = _record(record, index.changes, keys)


def _board(model, scenario, chance):
    from spawnpit.engine.board import Board

    board_id = scenario["props"].get("board")
    if not board_id:
        return None
    return Board.from_pack(model.pack, model.system_name, board_id, rng=chance._random)


_TESTS: dict[int, tuple] = {}  # id(objective) → (the objective, its compiled `when`)


def _objectives(scenario) -> list[dict]:
    from spawnpit.engine.interp import expr
    from spawnpit.engine.written import objective_text

    out = []
    for o in scenario.get("objectives", []):
        entry = {"side": o["side"], "result": o["result"], "at": o.get("at")}
        if "when" in o:
            found = _TESTS.get(id(o))
            if found is None or found[0] is not o:  # compiled once per objective object (pack), not per game
                if len(_TESTS) >= 1024:
                    _TESTS.clear()
                found = _TESTS[id(o)] = (o, expr(o["when"]))
            entry["when"], entry["test"] = o["when"], found[1]
        entry["text"] = objective_text(o)  # the result's cause: `zombies win when heroes_killed >= 2`
        out.append(entry)
    return out
