"""What things on the table are: selections, `in`/`has`/`is`, attributes and assignable targets.

Generic for every system: units of kinds in spaces, cards in decks and hands, markers on anything,
stats and keywords from the compiled unit and card objects. No game's rule is named here.
"""

from __future__ import annotations

import math

from spawnpit.engine import interp
from spawnpit.engine.board import EVERYTHING, WALKING
from spawnpit.engine.interp import RuleError
from spawnpit.engine.state import Ref
from spawnpit.engine.world import Counted
from spawnpit.names import slug as _slug

_SPACE_KINDS = ("space", "building")
_RECORD_TABLES = {"unit": "units", "card": "cards", "space": "spaces", "building": "buildings"}
_HOLDS_KEYWORDS = {"unit": "units", "card": "cards"}
# Attributes read straight from a record: the kind of reference they give (None: the value itself).
_FIELDS = {"space": "space", "side": "side", "kind": "kind", "mode": None, "owner": "unit", "name": None, "deck": "deck"}


class Table:
    def __init__(self, game) -> None:
        self.game = game
        self._refs: dict[str, dict[str, Ref]] = {"unit": {}, "space": {}, "card": {}, "side": {}, "kind": {},
                                                 "deck": {}}  # one Ref each, made once
        self._spaces: tuple[Ref, ...] | None = None  # every space of the board, in id order
        self._cards: tuple = (None, -1, ())  # (the state's table of cards, its size, a Ref to each card)
        self._having: dict = {}  # (what, word) -> what Table.having keeps of it (see _marked_cards, _marked_spaces)
        self._inside: dict = {}  # a building's id -> its spaces, in id order (`space s in b`)

    def ref(self, kind: str, id_: str) -> Ref:
        """The reference to a unit or space (the same object each time: references are immutable)."""
        refs = self._refs[kind]
        found = refs.get(id_)
        if found is None:
            found = refs[id_] = Ref(kind, id_)
        return found

    @property
    def state(self) -> dict:
        return self.game.state

    # ---- selections ------------------------------------------------------------------------------

    def units(self, kind: str | None = None, where: Ref | None = None) -> list[Ref]:
        """The units on the board (of a kind, located in a space, building or side), in table order."""
        game, ref = self.game, self.ref
        kind = None if kind == "unit" else kind
        if where is None or where.kind == "space":
            space = where.id if where is not None else None
            if where is not None and space is None:
                return []
            units, index = game.state["units"], game._unit_index  # index.stable_of(units), inline when unchanged
            if index.seen == index.changes.version and units is index.table and index.size == len(units) and index.usable:
                views = index.stable
            else:
                views = index.stable_of(units)
            if views is not None and space is not None:
                views = index.views_of(units)  # who is in which space: stale after any move
            if views is None:
                return [ref("unit", uid) for uid in game.unit_ids(kind=kind, space=space)]
            found = views.get(("refs", kind, space))  # the same question until a unit moves or changes
            if found is None:
                found = views[("refs", kind, space)] = tuple(ref("unit", uid) for uid in game.unit_ids(kind=kind, space=space))
            return list(found)
        units, located = game.state["units"], self.located
        return [ref("unit", uid) for uid, unit in units.items()
                if unit["space"] is not None and (kind is None or unit["kind"] == kind) and located(unit, where)]

    def located(self, unit: dict, where: Ref) -> bool:
        if where.kind == "space":
            return unit["space"] == where.id
        if where.kind == "building":
            return self.game.building_of(unit["space"]) == where.id
        if where.kind == "side":
            return unit["side"] == where.id
        return False

    def pool(self, kind: str, source) -> list:
        """Everything of `kind` (a unit kind, unit, space, building, card, side, …), within `source`."""
        model = self.game.model
        if isinstance(source, list):
            return list(source)
        if isinstance(source, str):  # a space or building named in quotes: "Manor House"
            source = self.game.resolve_place(source.lower().replace(" ", "_").replace("'", "")) or source
        if kind in model.kinds or kind == "unit":
            return self.units(kind, source if isinstance(source, Ref) else None)
        if kind in ("space", "zone"):
            spaces = self._spaces
            if spaces is None:
                spaces = self._spaces = tuple(self.ref("space", s) for s in self.game.space_ids())
            if source is None:
                return list(spaces)
            inside = getattr(source, "id", None)
            found = self._inside.get(inside)  # a building's spaces do not change during a game
            if found is None:
                found = self._inside[inside] = tuple(s for s in spaces if self.game.building_of(s.id) == inside)
            return list(found)
        if kind == "building":
            return [Ref("building", b) for b in self.game.building_ids()]
        if kind == "card":
            holder = _holder(source)
            ref = self.ref
            if source is None:
                cards = self.game.state["cards"]
                known, size, refs = self._cards
                if known is not cards or size != len(cards):
                    refs = tuple(ref("card", c) for c in cards)
                    self._cards = (cards, len(cards), refs)
                return list(refs)
            game = self.game
            found = game._card_index.held_by(game.state["cards"], holder, ref)
            if found is None:
                return [ref("card", c) for c in game.card_ids(holder)]
            return list(found)
        if kind in ("side", "player"):
            return [Ref("side", s) for s in model.sides]
        if isinstance(source, list):
            return source
        raise RuleError(f"cannot range over `{kind}`")

    def selection(self, value) -> list:
        if isinstance(value, list):
            return value
        if isinstance(value, Ref):
            if value.kind == "kind":
                return self.units(value.id)
            if value.kind == "deck":
                return list(self.state["decks"][value.id]["draw"])
            if value.kind == "marker":
                return [k for k, v in self._all_marked(value.id)]
            if value.kind == "side":
                return self.units(where=value)
        return [value] if value else []

    def _all_marked(self, marker: str):
        for table in ("units", "spaces", "cards"):
            for key, thing in self.state[table].items():
                if thing.get("markers", {}).get(marker):
                    yield key, thing

    # ---- operators -------------------------------------------------------------------------------

    def compare(self, op: str, left, right) -> bool:
        if op == "in":
            return self.contains(right, left)
        if op == "not in":
            return not self.contains(right, left)
        if op == "has":
            return self.has(left, right)
        if op == "is":
            return self.is_(left, right)
        left, right = self.value(left), self.value(right)
        if op == "==":
            return left == right
        if op == "!=":
            return left != right
        left, right = left or 0, right or 0
        try:
            return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right}[op]
        except TypeError:
            raise interp.unordered(op, left, right) from None

    def value(self, thing):
        """A track stands for its value in comparisons (`sun <= 0`); other references for their id."""
        if isinstance(thing, Ref) and thing.kind == "track":
            return self.state["tracks"].get(thing.id, 0)
        return _plain(thing)

    def contains(self, container, item) -> bool:
        if isinstance(container, list):
            return item in container
        if isinstance(item, Ref) and item.kind == "unit" and isinstance(container, Ref):
            return self.located(self.state["units"][item.id], container)
        if isinstance(item, Ref) and item.kind == "kind" and isinstance(container, Ref):
            return bool(self.units(item.id, container))
        return False

    def having(self, items: list, what, made: str | None = None) -> list | None:
        """The items that `has` `what`, in order: [i for i in items if self.has(i, what)], worked out
        without changing anything, or None when it cannot be (`has` on a space or building with no record
        yet makes one). The quick forms of `has` for keywords and markers below must say what `has` says:
        change them together. Which cards have a keyword (never changed once a card is made), which have a
        marker and which spaces have a marker are each worked out once for the whole table and kept, and
        World.mark keeps them up to date (`marked`). `made`: the kind of selection `pool` made the items
        for ("card", "space", …), so they need not be looked at one by one to know they are all cards
        (or all spaces); None when they came from anywhere else (a list)."""
        state = self.game.state
        kind = what.kind if isinstance(what, Ref) else None
        if (kind == "keyword" or kind == "marker") and _all_of(items, "card", made):
            marked = self._marked_cards(kind, what.id)  # `card c where c has item`, `card w where w has ready`
            return [i for i in items if i.id in marked]
        if kind == "kind" and _all_of(items, "space", made):
            # `space s where s has hero`: the spaces holding a unit of the kind, found once for all of them
            units = state["units"]
            occupied = {units[u]["space"] for u in self.game.unit_ids(kind=None if what.id == "unit" else what.id)}
            return [i for i in items if i.id in occupied]
        if kind == "marker" and _all_of(items, "space", made):  # `space s where s has gas`
            spaces = state.get("spaces")
            if spaces is None:
                return None if items else []
            if type(spaces) is Counted:
                marked = self._marked_spaces(spaces, what.id)
                if marked is not None:
                    return [i for i in items if i.id in marked]
            word, out = what.id, []
            for i in items:
                r = spaces.get(i.id)
                if r is None:
                    return None
                if r.get("markers", {}).get(word) or word in r.get("keywords", ()):
                    out.append(i)
            return out
        out = []
        for item in items:
            if type(item) is not Ref:
                if self.has(item, what):
                    out.append(item)
                continue
            table = state.get(_RECORD_TABLES.get(item.kind, ""))
            record = table.get(item.id) if table is not None else None
            if record is None and item.kind in _SPACE_KINDS:
                return None
            if kind == "keyword" and item.kind in _HOLDS_KEYWORDS:
                if record is not None and (what.id in record.get("keywords", ()) or record.get("type") == what.id):
                    out.append(item)
            elif kind == "marker" and item.kind in _RECORD_TABLES:
                if record is not None and (record.get("markers", {}).get(what.id) or what.id in record.get("keywords", ())):
                    out.append(item)
            elif self.has(item, what):
                out.append(item)
        return out

    def _marked_cards(self, kind: str, word: str) -> set:
        """The ids of the cards that have the keyword (or type) `word`, or the marker (or keyword) `word`,
        as `has` says, for the whole table of cards: kept until a card is added (keywords and types never
        change); a marker put on or taken off by World.mark updates it (`marked`)."""
        cards = self.game.state["cards"]
        key = (kind, word)
        kept = self._having.get(key)
        if kept is not None and kept[0] is cards and kept[1] == len(cards):
            return kept[2]
        if kind == "keyword":
            found = {cid for cid, r in cards.items() if word in r.get("keywords", ()) or r.get("type") == word}
        else:
            found = {cid for cid, r in cards.items() if r.get("markers", {}).get(word) or word in r.get("keywords", ())}
        self._having[key] = [cards, len(cards), found]
        return found

    def _marked_spaces(self, spaces, word: str) -> set | None:
        """The ids of the spaces that have the marker (or keyword) `word`, as `has` says, kept until the
        table of spaces changes (a record added or replaced); a marker put on or taken off by World.mark
        updates it (`marked`). None while some space of the board has no record yet (`has` would make it)."""
        key = ("space", word)
        kept = self._having.get(key)
        if kept is not None and kept[0] is spaces and kept[1] == spaces.stamp:
            return kept[2]
        ids = self.game.space_set
        if len(spaces) < len(ids) or not all(s in spaces for s in ids):
            return None
        found = {sid for sid, r in spaces.items() if r.get("markers", {}).get(word) or word in r.get("keywords", ())}
        self._having[key] = [spaces, spaces.stamp, found]
        return found

    def marked(self, thing: Ref, marker: str, record: dict) -> None:
        """World.mark has put `marker` on the record of a card or space, or taken it off: what having keeps
        of it follows (the table of spaces, `Counted`, is stamped anew; a set kept of it stays good)."""
        has = bool(record.get("markers", {}).get(marker)) or marker in record.get("keywords", ())
        if thing.kind == "card":
            kept = self._having.get(("marker", marker))
            cards = self.game.state["cards"]
            if kept is not None and kept[0] is cards and kept[1] == len(cards):
                (kept[2].add if has else kept[2].discard)(thing.id)
            return
        spaces = self.game.state.get("spaces")
        if thing.kind != "space" or type(spaces) is not Counted:
            return
        stamp = spaces.stamp
        spaces._touch()
        for key, kept in self._having.items():
            if key[0] == "space" and kept[0] is spaces and kept[1] == stamp:
                kept[1] = spaces.stamp
                if key[1] == marker:
                    (kept[2].add if has else kept[2].discard)(thing.id)

    def has(self, thing, what) -> bool:
        if not isinstance(what, Ref):
            return False
        if type(thing) is Ref and thing.kind in _HOLDS_KEYWORDS:  # the commonest cases: a unit's or card's record
            wk = what.kind
            if wk == "keyword":  # (as below, sooner)
                record = self.game.state[_HOLDS_KEYWORDS[thing.kind]].get(thing.id)
                return record is not None and (what.id in record.get("keywords", ()) or record.get("type") == what.id)
            if wk == "marker":  # (as below, sooner: `record` of a unit or card is its entry in the state)
                record = self.game.state[_HOLDS_KEYWORDS[thing.kind]].get(thing.id)
                return record is not None and (bool(record.get("markers", {}).get(what.id))
                                               or what.id in record.get("keywords", ()))
        if what.kind == "card" and type(thing) is Ref and thing.kind == "unit":  # `h has c`, as below, sooner
            card = self.game.state["cards"].get(what.id)
            return card is not None and card["where"] == thing.id
        if what.kind == "marker" and isinstance(thing, Ref) and thing.kind in _RECORD_TABLES:  # the common case
            record = self.record(thing)  # a keyword may share a marker's name (LNOE's Fire): either counts
            return record is not None and (bool(record.get("markers", {}).get(what.id))
                                           or what.id in record.get("keywords", ()))
        if what.kind == "card" and isinstance(thing, Ref) and thing.kind in ("unit", "side"):
            card = self.state["cards"].get(what.id)  # `h has c`: the unit (or side's hand) holds that card
            return card is not None and card["where"] == _holder(thing)
        if what.kind == "kind" and isinstance(thing, Ref) and thing.kind in _SPACE_KINDS:
            return bool(self.units(what.id, thing))
        record = self.record(thing)
        if record is None:
            return False
        if what.kind == "marker":
            return bool(record.get("markers", {}).get(what.id)) or what.id in record.get("keywords", ())
        if what.kind == "keyword":
            return what.id in record.get("keywords", ()) or record.get("type") == what.id
        if what.kind == "kind":  # a keyword named like a unit kind (LNOE's Townsfolk cards)
            return what.id in record.get("keywords", ())
        if what.kind == "card_proto" and isinstance(thing, Ref) and thing.kind == "unit":
            return any(c["proto"] == what.id and c["where"] == thing.id for c in self.state["cards"].values())
        if what.kind == "mode":
            return record.get("mode") == what.id
        return False

    def is_(self, thing, what) -> bool:
        record = self.record(thing)
        if record is None or not isinstance(what, Ref):
            return thing == what
        if what.kind == "kind":
            return record.get("kind") == what.id
        if what.kind == "side":
            return record.get("side") == what.id
        if what.kind == "mode":
            return record.get("mode") == what.id
        if what.kind in ("card_proto", "unit_proto"):  # `c is revolver`: a copy of that card (or unit)
            return record.get("proto") == what.id
        if what.kind == "marker":  # a name both a marker and a card (LNOE's Locked Door): `is` asks which
            return record.get("proto") == what.id  # card it is, `has` whether it carries the marker
        return thing == what

    def record(self, thing) -> dict | None:
        if not isinstance(thing, Ref):
            return None
        table = _RECORD_TABLES.get(thing.kind)
        if table is None:
            return None
        state = self.game.state
        if table == "spaces" or table == "buildings":  # markers on a space or building, made on first use
            records = state.get(table)
            if records is None:
                records = state[table] = Counted()
            found = records.get(thing.id)
            if found is None:
                found = records[thing.id] = {"markers": {}}
            return found
        return state[table].get(thing.id)

    # ---- attributes and targets ------------------------------------------------------------------

    def attribute(self, thing, name: str):
        if thing is None:
            return None
        if type(thing) is dict:  # `event.NAME`: a parameter of the event the hook runs on (none if not given)
            return thing.get(name)
        if isinstance(thing, Ref) and thing.kind == "unit":  # the common case: straight to the record
            record = self.game.state["units"].get(thing.id)
            if record is not None:
                return self._record_attribute(record, name)
        if isinstance(thing, Ref) and thing.kind == "board":
            return Ref("space", f"{thing.id}.{name}")
        if isinstance(thing, Ref) and thing.kind == "space":
            return self._space_attribute(thing, name)
        if isinstance(thing, Ref) and thing.kind == "building":
            return self._building_attribute(thing, name)
        if isinstance(thing, Ref) and thing.kind == "deck":
            deck = self.state["decks"][thing.id]
            if name == "hand":  # the deck's hand size
                return self.game.model.decks.get(thing.id, {}).get("props", {}).get("hand", 0)
            return {"size": len(deck["draw"]), "top": Ref("card", deck["draw"][-1]) if deck["draw"] else None,
                    "discard": [Ref("card", c) for c in deck["discard"]]}.get(name)
        if isinstance(thing, Ref) and thing.kind == "track":
            return self.state["tracks"].get(thing.id)
        record = self.record(thing)
        if record is None:
            raise RuleError(f"{thing!r} has no `{name}`")
        return self._record_attribute(record, name)

    def _record_attribute(self, record: dict, name: str):
        """An attribute of a unit or card (or a space's or building's markers record)."""
        if name in _FIELDS:
            value = record.get(name if name != "owner" else "where")
            kind = _FIELDS[name]
            if name == "name" and value is None:  # a unit or card is called what its prototype is
                return self.game.model.title_of(record.get("proto"))
            if kind is None or value is None:
                return value
            return self.ref(kind, value) if kind in self._refs else Ref(kind, value)
        if name == "building":
            return self._building(record.get("space"))
        if name == "last_space":  # where a unit stands, or last stood on the board (a killed Hero's space)
            where = record.get("space") or record.get("last_space")
            return Ref("space", where) if where else None
        if name == "target":  # what a played card was played on
            target = record.get("target")
            return Ref(target[0], target[1]) if target else None
        if name == "played":  # face up on the table: being played or remaining in play
            return record.get("where") == "play"
        if name in ("wounds", "type"):
            return record.get(name, 0 if name == "wounds" else None)
        stats = record.get("stats", {})
        if name in stats:
            return stats[name]
        if name in record.get("tracks", {}):
            return record["tracks"][name]
        return self.game.model.stat_default(record.get("proto"), name)

    def _space_attribute(self, space: Ref, name: str):
        if name == "building":
            return self._building(space.id)
        if name == "units":
            return self.units(where=space)
        if name in ("spawn", "start", "objective") and self.game.board is not None:
            return space.id in {"spawn": self.game.board.spawn_points, "start": self.game.board.start_spaces,
                                "objective": self.game.board.objectives}[name]
        if name == "board":
            return _part(space.id, self.game.board)
        if name == "name" and self.game.board is not None:
            return self.game.board.space(space.id).title
        return self.game.space_property(space.id, name)

    def _building_attribute(self, building: Ref, name: str):
        """`b.name` (its title), `b.spaces`, `b.roll` (its Random Number Set: a pair is a range),
        `b.pick_up` (the card its Pick Up: names, if the pack has it), `b.board` (the board part it is on)."""
        board = self.game.board
        info = board.buildings.get(building.id) if board is not None else None
        if info is None:
            raise RuleError(f"there is no building `{building.id}` on this board")
        if name == "name":
            return info.title
        if name == "spaces":
            return [Ref("space", s) for s in info.spaces]
        if name == "roll":
            return list(info.roll)
        if name == "pick_up":
            meaning = self.game.model.names.get(_slug(info.pick_up)) if info.pick_up else None
            return Ref("card_proto", meaning[1]) if meaning and meaning[0] == "card_proto" else None
        if name == "board":
            return _part(building.id, board)
        raise RuleError(f"a building has no `{name}`")

    def _building(self, space_id):
        building = self.game.building_of(space_id) if space_id else None
        return Ref("building", building) if building else None

    def read_target(self, ctx, target: list[str]):
        if len(target) == 1:
            return ctx.lookup(target[0])
        return self.attribute(ctx.lookup(target[0]), target[-1])

    def write_target(self, ctx, target: list[str], value) -> None:
        if len(target) == 1:
            ctx.assign(target[0], value)
            return
        thing = ctx.lookup(target[0])
        record = self.record(thing)
        if record is None:
            raise RuleError(f"cannot set `{'.'.join(target)}`")
        if target[-1] == "target":
            if not (type(thing) is Ref and thing.kind == "card" and record.get("where") == "play"):
                raise RuleError(f"cannot set `{'.'.join(target)}`: only a card being played or in play has a target")
            if value is not None and type(value) is not Ref:
                raise RuleError(f"`{'.'.join(target)}` must be something on the table, not {value!r}")
            if value is None:
                record.pop("target", None)
            else:
                record["target"] = [value.kind, value.id]  # as `play CARD on X` keeps it
            return
        record.setdefault("stats", {})[target[-1]] = value

    def distance(self, a, b) -> int:
        return self.game.distance(_space(self, a), _space(self, b))

    def edge(self, a, b) -> str | None:
        """`edge(a, b)`: what lies between two neighbouring spaces, the kind of edge the board gives them
        ("open", "door", "window", "wall"…); none when they are not neighbours (or there is no board)."""
        if self.game.board is None:
            return None
        return self.game.board.edge(_space(self, a), _space(self, b))

    def neighbours(self, place) -> list:
        """`neighbours(a)`: the spaces next to a place across any edge (walls, doors, windows, corners:
        ask `edge` which), in the board's order; none when the game has no board (a unit off the board is a
        rule error, as for `distance`)."""
        board = self.game.board
        if board is None:
            return []
        links = board.links.get(_space(self, place), ())
        return [self.ref("space", n) for n, _, _ in links]

    def apart(self, a, b) -> int:
        """Spaces apart along the shortest line of spaces crossing any edge, walls too: how far a shot
        or a blast reaches, as opposed to `distance` (around walls) and `steps` (how a unit may walk)."""
        if self.game.board is None:
            return 0
        return self.game.board.distance(_space(self, a), _space(self, b), through=EVERYTHING)

    def nearest(self, place, things) -> float:
        """Shortest distance from a place to the closest of the things (spaces, buildings, units on the
        board); math.inf when there is none."""
        here = _space(self, place)
        board, units = self.game.board, self.game.state["units"]
        theres = []
        for thing in things:
            if type(thing) is Ref and thing.kind == "space":  # _space, its two commonest cases inline
                theres.append(thing.id)
            elif type(thing) is Ref and thing.kind == "unit":
                record = units.get(thing.id)
                there = record.get("space") if record is not None else None
                if there is not None:  # a unit off the board is nowhere near
                    theres.append(there)
            else:
                try:
                    theres.append(_space(self, thing))
                except RuleError:
                    continue
        if not theres:
            return math.inf
        if board is None:
            return 0
        index, far = board.index, board.unreached
        for there in (here, *theres):
            if there not in index:
                board.space(there)  # the error naming it
        at, dist = index[here], board._rows.get((here, WALKING))
        if dist is None and len(theres) <= _FEW:
            # a step is the same both ways, so the rows of a few things (the Heroes, an objective) answer
            # every place a rule asks about: they are read instead of one row for each place
            found = [board.row(there, WALKING)[at] for there in theres]
        else:
            dist = dist if dist is not None else board.row(here, WALKING)
            found = [dist[index[there]] for there in theres]
        best = min(found)
        return math.inf if best == far else best

    def sight(self, a, b) -> bool:
        return self.game.sight(_space(self, a), _space(self, b))


_FEW = 4  # `nearest` of at most this many things reads their rows of distances, not the place's


def _all_of(items: list, kind: str, made: str | None) -> bool:
    """Whether the items are all references to things of `kind` (with an id): known without looking when
    a selection of that kind made them (`made`; a selection of zones gives spaces)."""
    if made is not None:
        return made == kind or (kind == "space" and made == "zone")
    if kind == "card":
        return all(type(i) is Ref and i.kind == "card" for i in items)
    return all(type(i) is Ref and i.kind == kind and i.id is not None for i in items)


def within(ctx, value, spec) -> bool:
    """`within(roll, c.to_hit)`: whether a number falls in a range (`1-2`, a pair), equals a number,
    is one of a list, or reaches a target (`4+`). Nothing (an unset stat) is never met."""
    if type(value) is int and type(spec) is list and len(spec) == 2:  # the commonest: a whole number, a range
        low, high = spec
        if type(low) is int and type(high) is int:
            return low <= value <= high
    if value is None or spec is None or isinstance(value, bool):
        return False
    if isinstance(spec, str) and spec.endswith("+") and spec[:-1].isdigit():
        return value >= int(spec[:-1])
    if isinstance(spec, (list, tuple)):
        if len(spec) == 2 and isinstance(spec[0], int) and isinstance(spec[1], int):
            return spec[0] <= value <= spec[1]
        return value in spec
    return value == spec


def search_card(ctx, card) -> bool:
    """`search_card(c)`: whether a card (a copy on the table, or a card by name: `search_card(keys)`) is one
    of the scenario's Scenario Search Cards (`search_cards`, named by title or id); never true in a
    scenario that names none."""
    if not (type(card) is Ref and card.kind in ("card", "card_proto")):
        return False
    game = ctx.game
    wanted = game.scratch.get("search_cards")
    if wanted is None:
        named = game.model.scenario.get("props", {}).get("search_cards") or []
        wanted = game.scratch["search_cards"] = frozenset(
            _slug(str(n)) for n in (named if isinstance(named, list) else [named]))
    if card.kind == "card_proto":
        return card.id in wanted
    record = game.state["cards"].get(card.id)
    return record is not None and record.get("proto") in wanted


def pool_left(ctx, kind) -> float:
    """`pool_left(KIND)`: how many more units of a kind may come into play: its `pool` less those on the
    board (as `spawn` caps what it places); a huge number for a kind without a pool."""
    name = kind.id if type(kind) is Ref else kind
    game = ctx.game
    declared = game.model.kinds.get(name)
    if declared is None:
        raise interp.RuleError(f"`pool_left` needs a unit kind, not {kind!r}")
    pool = declared["props"].get("pool")
    return float("inf") if pool is None else max(0, pool - len(ctx.table.units(name)))


# Functions about what is on the table; interp compiles a call to them by name like its own.
interp.FUNCTIONS.setdefault("within", within)
interp.FUNCTIONS.setdefault("search_card", search_card)
interp.FUNCTIONS.setdefault("pool_left", pool_left)
interp.FUNCTIONS.setdefault("apart", lambda ctx, a, b: ctx.table.apart(a, b))
interp.FUNCTIONS.setdefault("edge", lambda ctx, a, b: ctx.table.edge(a, b))
interp.FUNCTIONS.setdefault("neighbours", lambda ctx, a: ctx.table.neighbours(a))


def _part(place_id: str, board) -> str:
    """The board part a space or building of a composite board lies on (`barn_farmhouse`), else the board."""
    return place_id.rsplit(".", 1)[0] if "." in place_id else (board.id if board is not None else "")


def _holder(source) -> str:
    """Where a card held by `source` is: a unit's id, or "side:NAME" for a side's hand (as decks.py puts it)."""
    if isinstance(source, Ref):
        return source.id if source.kind == "unit" else f"{source.kind}:{source.id}"
    return str(source)


def _plain(value):
    return value.id if isinstance(value, Ref) else value


def _space(table: Table, thing) -> str:
    if isinstance(thing, Ref) and thing.kind == "space":
        return thing.id
    record = table.record(thing)
    if record is None or record.get("space") is None:
        raise RuleError(f"{thing!r} is not on the board")
    return record["space"]


interp.space_of = _space
