"""Cards on the table: drawing, discarding, shuffling, searching and giving; tables looked up.

Mixed into Game. A card's `where` is "deck", "discard", "box" (not in any deck), a unit id (carried)
or "side:NAME" (in that side's hand); hidden information stays in the state, and the log says only
what the table would see (who drew how many, not which, for a hidden hand).
"""

from __future__ import annotations

from spawnpit.engine import interp
from spawnpit.engine.state import Ref


class Decks:
    def _deck(self, name: str) -> dict:
        if name not in self.state["decks"]:
            raise interp.RuleError(f"there is no deck `{name}`")
        return self.state["decks"][name]

    def draw(self, deck: str, count: int, to, ctx) -> list[Ref]:
        pile = self._deck(deck)
        drawn = []
        for _ in range(count):
            if not pile["draw"]:
                if not pile["discard"]:
                    self.emit(f"{deck}.empty", {}) if f"{deck}.empty" in self.model.hooks else None
                    break
                pile["draw"], pile["discard"] = pile["discard"], []
                self.chance.shuffle(pile["draw"])
                self.log({"type": "reshuffle", "deck": deck}, ctx.rule)
            cid = pile["draw"].pop()
            self.state["cards"][cid]["where"] = _holder(to)
            drawn.append(Ref("card", cid))
        self.log({"type": "draw", "deck": deck, "count": len(drawn), "to": _holder(to)}, ctx.rule)
        return drawn

    def discard(self, card: Ref, ctx) -> None:
        record = self.state["cards"][card.id]
        if record["deck"] in self.state["decks"]:
            pile = self.state["decks"][record["deck"]]
            if card.id in pile["draw"]:
                pile["draw"].remove(card.id)
            pile["discard"].append(card.id)
        record["where"] = "discard"
        self.log({"type": "discard", "card": record["proto"]}, ctx.rule)

    def discard_top(self, deck: str, count: int, ctx) -> None:
        pile = self._deck(deck)
        for _ in range(min(count, len(pile["draw"]))):
            cid = pile["draw"].pop()
            pile["discard"].append(cid)
            self.state["cards"][cid]["where"] = "discard"
            self.log({"type": "discard", "card": self.state["cards"][cid]["proto"], "from": deck}, ctx.rule)

    def discard_proto(self, proto: str, holder, ctx) -> None:
        for cid, record in self.state["cards"].items():
            if record["proto"] == proto and (holder is None or record["where"] == _holder(holder)):
                self.discard(Ref("card", cid), ctx)
                return

    def shuffle(self, thing, into, ctx) -> None:
        if isinstance(thing, Ref) and thing.kind == "deck":
            pile = self._deck(thing.id)
            pile["draw"] += pile["discard"]
            pile["discard"] = []
            self.chance.shuffle(pile["draw"])
            self.log({"type": "shuffle", "deck": thing.id}, ctx.rule)
            return
        if isinstance(thing, Ref) and thing.kind == "card" and isinstance(into, Ref):
            pile = self._deck(into.id)
            for other in self.state["decks"].values():
                if thing.id in other["discard"]:
                    other["discard"].remove(thing.id)
            self.state["cards"][thing.id]["where"] = "deck"
            pile["draw"].append(thing.id)
            self.chance.shuffle(pile["draw"])
            self.log({"type": "shuffle_in", "card": self.state["cards"][thing.id]["proto"], "deck": into.id}, ctx.rule)
            return
        raise interp.RuleError(f"cannot shuffle {thing!r}")

    def search(self, deck: str, wanted, to, ctx):
        pile = self._deck(deck)
        for cid in reversed(pile["draw"]):
            record = self.state["cards"][cid]
            if _matches(record, wanted):
                pile["draw"].remove(cid)
                record["where"] = _holder(to)
                self.chance.shuffle(pile["draw"])
                self.log({"type": "search", "deck": deck, "found": record["proto"], "to": _holder(to)}, ctx.rule)
                return Ref("card", cid)
        self.log({"type": "search", "deck": deck, "found": None}, ctx.rule)
        return None

    def give(self, card, to, ctx) -> None:
        if isinstance(card, Ref) and card.kind == "card_proto":
            card = next((Ref("card", c) for c, r in self.state["cards"].items() if r["proto"] == card.id), None)
        if not isinstance(card, Ref) or card.kind != "card":
            raise interp.RuleError(f"cannot give {card!r}")
        self.state["cards"][card.id]["where"] = _holder(to)
        self.log({"type": "give", "card": self.state["cards"][card.id]["proto"], "to": _holder(to)}, ctx.rule)

    def lookup(self, table: str, roll, column, shift, ctx):
        obj = self.model.tables.get(table)
        if obj is None:
            raise interp.RuleError(f"there is no table `{table}`")
        columns = obj["props"]["columns"]
        index = _column(columns, column) + _shift(obj, shift)
        index = max(0, min(len(columns) - 1, index))
        for row in obj["props"].get("row", []):
            low, high = (row["key"], row["key"]) if isinstance(row["key"], int) else row["key"]
            if low <= int(roll) <= high:
                cells = row["value"] if isinstance(row["value"], list) else [row["value"]]
                result = cells[index]
                self.log({"type": "lookup", "table": table, "roll": roll, "column": columns[index], "result": result}, ctx.rule)
                return result
        raise interp.RuleError(f"table `{table}` has no row for {roll}")


def _holder(to) -> str:
    if isinstance(to, Ref):
        return to.id if to.kind == "unit" else f"{to.kind}:{to.id}"
    return "table" if to is None else str(to)


def _matches(record: dict, wanted) -> bool:
    if isinstance(wanted, Ref) and wanted.kind == "card_proto":
        return record["proto"] == wanted.id
    if isinstance(wanted, Ref) and wanted.kind == "keyword":
        return wanted.id in record.get("keywords", ()) or record.get("type") == wanted.id
    return wanted is None


def _column(columns: list, column) -> int:
    if isinstance(column, int) and not isinstance(column, bool):
        return column - 1
    if column in columns:
        return columns.index(column)
    return 0


def _shift(obj: dict, shift) -> int:
    if isinstance(shift, int) and not isinstance(shift, bool):
        return shift
    for entry in obj["props"].get("shift", []):
        if entry["key"] == shift:
            return int(entry["value"])
    return 0
