"""The table itself: setting up decks, tracks, counters and units, and every change effects make.

Mixed into Game; each operation changes plain state and logs it in table terms. Geometry comes from
engine.board (shortest paths, sight), built from the scenario's board object.
"""

from __future__ import annotations

from spawnpit.engine import interp
from spawnpit.engine.events import unit_event
from spawnpit.engine.state import Ref, new_id


class World:
    def __init__(self) -> None:
        model, scenario = self.model, self.model.scenario
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
                state["cards"][cid] = {"proto": card["id"], "deck": deck, "where": "deck" if deck else "box",
                                       "type": card["props"].get("type"), "keywords": card["props"].get("keywords", []),
                                       "stats": {}, "markers": {}}
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

    def spawn(self, kind: Ref, at: Ref, count: int, ctx) -> list[Ref]:
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
            self.log({"type": "spawn", "kind": kind.id, "count": len(made), "space": at.id}, ctx.rule)
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
        self.state["units"][uid] = {"proto": proto["id"], "kind": kind, "side": self.model.side_of(kind),
                                    "space": space, "stats": stats, "wounds": 0,
                                    "keywords": list(proto["props"].get("keywords", [])), "markers": {},
                                    "mode": proto["props"].get("mode"), "tracks": {}}
        return Ref("unit", uid)

    def move_unit(self, unit: Ref, to: Ref, ctx) -> None:
        record = self.state["units"][unit.id]
        origin, record["space"] = record["space"], to.id
        self.log({"type": "move", "unit": unit.id, "from": origin, "to": to.id}, ctx.rule)
        self.emit(*unit_event(record["kind"], "moved", unit, Ref("space", origin) if origin else None, to))

    def take_off(self, unit: Ref, ctx) -> None:
        self.state["units"][unit.id]["space"] = None
        self.log({"type": "remove", "unit": unit.id}, ctx.rule)

    def wound(self, unit: Ref, amount: int, ctx, by=None) -> None:
        record = self.state["units"][unit.id]
        health = int(record["stats"].get("health", 1))
        record["wounds"] = max(0, record["wounds"] + amount)
        self.log({"type": "wound" if amount > 0 else "heal", "unit": unit.id, "amount": abs(amount),
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
        return [Ref("unit", u) for u, r in self.state["units"].items()
                if r["side"] == side and (anywhere or r["space"] is not None)]

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
        markers = record.setdefault("markers", {})
        markers[marker] = max(0, markers.get(marker, 0) + amount)
        self.log({"type": "mark" if amount > 0 else "unmark", "what": str(thing), "marker": marker}, ctx.rule)

    def track_add(self, track: str, amount: int, owner, ctx) -> None:
        if isinstance(owner, Ref) and owner.kind == "unit":
            tracks = self.state["units"][owner.id].setdefault("tracks", {})
        else:
            tracks = self.state["tracks"]
        tracks[track] = tracks.get(track, 0) + amount
        self.log({"type": "track", "track": track, "change": amount, "value": tracks[track]}, ctx.rule)

    def in_play(self, owner: str) -> bool:
        kind, proto = owner.split(":", 1)
        if kind == "unit":
            return any(u["proto"] == proto and u["space"] is not None for u in self.state["units"].values())
        return any(c["proto"] == proto and c["where"] not in ("deck", "discard", "box") for c in self.state["cards"].values())

    def owner_ref(self, owner: str) -> Ref | None:
        kind, proto = owner.split(":", 1)
        table = self.state["units"] if kind == "unit" else self.state["cards"]
        for key, record in table.items():
            if record["proto"] == proto and (record.get("space") is not None or record.get("where") not in ("deck", "discard", "box")):
                return Ref(kind, key)
        return None


def _board(model, scenario, chance):
    from spawnpit.engine.board import Board

    board_id = scenario["props"].get("board")
    if not board_id:
        return None
    return Board.from_pack(model.pack, model.system_name, board_id, rng=chance._random)


def _objectives(scenario) -> list[dict]:
    from spawnpit.engine.interp import expr

    out = []
    for o in scenario.get("objectives", []):
        entry = {"side": o["side"], "result": o["result"], "at": o.get("at")}
        if "when" in o:
            entry["when"], entry["test"] = o["when"], expr(o["when"])
        entry["text"] = f"{o['side']} {o['result']} at {o['at']}" if "at" in o else f"{o['side']} {o['result']}: objective met"
        out.append(entry)
    return out
