"""Cards on the table: drawing, discarding, shuffling, searching, giving and playing; tables looked up.

Mixed into Game. A card's `where` is "deck", "discard", "box" (not in any deck), a unit id (carried),
"side:NAME" (in that side's hand) or "play" (played: face up on the table, perhaps on a `target`);
hidden information stays in the state, and the log says only what the table would see (who drew how
many, not which, for a hidden hand).

Playing a card (`play`) is the one sequence with a fixed order: the card leaves its holder; played
without `on`, its own hooks of the system's `card_target` event name what it is aimed at (as a player
announces a card's target); the system's `card_played` event gives every other hook the chance to answer
it (an `instead of card_played` hook, or `cancel`, cancels it), and only then do the card's own
`card_played` hooks, its effect, run, if the card is still on the table. A cancelled card (or one that
left the table meanwhile, its target killed) is discarded without effect; a card with the keyword `remains_in_play` stays on the table
(on its target) until something discards or cancels it, anything else goes to its deck's discard pile.
"""

from __future__ import annotations

from spawnpit.engine import interp
from spawnpit.engine.state import Ref


def out_of_piles(state: dict, card_id: str) -> bool:
    """Take a card out of every deck's draw and discard pile it is in (a Pick Up, a card given or removed
    from the game); True when one was a discard pile (face up: every side saw which card went)."""
    seen = False
    for pile in state["decks"].values():
        for name in ("draw", "discard"):
            if card_id in pile[name]:
                pile[name].remove(card_id)
                seen = seen or name == "discard"
    return seen


class Decks:
    def _deck(self, name: str) -> dict:
        if name not in self.state["decks"]:
            raise interp.RuleError(f"there is no deck `{name}`")
        return self.state["decks"][name]

    def draw(self, deck: str, count: int, to, ctx) -> list[Ref]:
        """Up to `count` cards off the top; an empty draw pile is reshuffled from the discards unless the
        deck says `discard keep` (then drawing just stops)."""
        pile = self._deck(deck)
        keep = self.model.decks.get(deck, {}).get("props", {}).get("discard") == "keep"
        drawn = []
        for _ in range(max(0, count)):
            if not pile["draw"]:
                if keep or not pile["discard"]:
                    self.emit(f"{deck}.empty", {}) if f"{deck}.empty" in self.model.hooks else None
                    break
                pile["draw"], pile["discard"] = pile["discard"], []
                self.chance.shuffle(pile["draw"])
                self.log({"type": "reshuffle", "deck": deck}, ctx.rule)
            cid = pile["draw"].pop()
            self.state["cards"][cid]["where"] = _holder(to)
            drawn.append(Ref("card", cid))
        # which cards: the log is the whole record; a player's screen names them to their holder's side only
        self.log({"type": "draw", "deck": deck, "count": len(drawn), "to": _holder(to), "cards": [c.id for c in drawn]},
                 ctx.rule)
        return drawn

    def discard(self, card: Ref, ctx) -> None:
        record = self.state["cards"][card.id]
        if record["deck"] in self.state["decks"]:
            pile = self.state["decks"][record["deck"]]
            if card.id in pile["draw"]:
                pile["draw"].remove(card.id)
            if card.id not in pile["discard"]:
                pile["discard"].append(card.id)
        record["where"] = "discard"
        for key in _PLAY_KEYS:
            record.pop(key, None)
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
        record = self.state["cards"][card.id]
        seen = out_of_piles(self.state, card.id)  # from a discard pile, face up: the other sides saw which card went
        for key in _PLAY_KEYS:
            record.pop(key, None)
        record["where"] = _holder(to)
        entry = {"type": "give", "card": record["proto"], "copy": card.id, "to": _holder(to)}
        if seen:
            entry["from"] = "discard"
        self.log(entry, ctx.rule)

    # ---- playing and cancelling ------------------------------------------------------------------

    def play(self, card: Ref, on, source, ctx) -> bool:
        """Play a card from a hand or a unit: True when it took effect, False when it was cancelled."""
        record = self.state["cards"][card.id]
        holder = record["where"]
        if holder in ("deck", "discard", "box", "play"):
            raise interp.RuleError(f"cannot play {record['proto']}: it is not held (it is in {holder})")
        if source is not None and holder != _holder(source):
            raise interp.RuleError(f"cannot play {record['proto']} from {source}: it is held by {holder}")
        side = self._holder_side(holder)
        record["where"], record["status"] = "play", "playing"
        side_ref = Ref("side", side) if side else None
        if isinstance(on, Ref):
            record["target"] = [on.kind, on.id]
        else:  # its own card_target hooks name what it is aimed at, before anyone may answer it
            params = self._card_params("card_target", [card, side_ref])
            if params is not None and self._split("card_target", record["proto"], params)[2]:
                self._play_window(card, record, params, "card_target")
        target = record.get("target")
        self.log({"type": "play", "card": record["proto"], "side": side,
                  "on": target[1] if target else None}, ctx.rule)
        params = self._card_params("card_played", [card, side_ref])
        if params is not None and not record.get("cancelled") and record["where"] == "play":
            self._play_window(card, record, params, "card_played")
        if record.get("cancelled") or record["where"] != "play":
            if record["where"] == "play":
                self._cancelled(card, record, ctx)
            return False
        if "remains_in_play" in record.get("keywords", ()):
            record["status"] = "in_play"
            self.log({"type": "in_play", "card": record["proto"]}, ctx.rule)
        else:
            self.discard(card, ctx)
        return True

    def cancel_card(self, card: Ref, ctx) -> None:
        """`cancel CARD`: a card being played loses its effect (play() discards it); a card already on
        the table is cancelled at once (the system's `card_cancelled` event, then the discard pile)."""
        record = self.state["cards"][card.id]
        if record.get("status") == "playing":
            record["cancelled"] = True
            self.log({"type": "cancel", "card": record["proto"]}, ctx.rule)
        elif record["where"] == "play":
            self.log({"type": "cancel", "card": record["proto"]}, ctx.rule)
            self._cancelled(card, record, ctx)
        elif record["where"] not in ("deck", "discard", "box"):
            self.log({"type": "cancel", "card": record["proto"]}, ctx.rule)
            self.discard(card, ctx)

    def _cancelled(self, card: Ref, record: dict, ctx) -> None:
        record["status"] = "cancelled"
        params = self._card_params("card_cancelled", [card])
        if params is not None:
            self.raise_now("card_cancelled", params)
        if record["where"] == "play":
            self.discard(card, ctx)

    def _holder_side(self, holder: str) -> str | None:
        if holder.startswith("side:"):
            return holder[5:]
        unit = self.state["units"].get(holder)
        return unit["side"] if unit else None

    def _card_params(self, event: str, values: list) -> dict | None:
        """The params of a card event the system declares, by its declared names; None when it does not."""
        key = ("card event", event)  # the declaration's names, looked up once per game
        names = self.derived.event_names.get(key, ())
        if names == ():
            names = None
            for block in self.model.system.get("blocks", []):
                if block["kind"] == "event" and block["id"] == event:
                    names = block.get("props", {}).get("params", [])
                    names = tuple([names] if isinstance(names, str) else names)
                    break
            self.derived.event_names[key] = names
        return None if names is None else dict(zip(names, values))

    def _split(self, event: str, proto: str, params: dict) -> tuple[tuple, tuple, tuple]:
        """The hooks of a card event while a card of prototype `proto` is played, as _window_hooks sorts
        them (worked out once a game): for `card_target` only the card's own (nobody answers a target)."""
        key = (event, proto)
        split = self.derived.windows.get(key)
        if split is None:
            own = f"card:{proto}"
            hooks = self.model.hooks.get(event, ())
            if event == "card_target":
                split = ((), (), tuple(h for h in hooks if h.owner == own and not h.replace))
            else:
                split = _window_hooks(hooks, own, params)
            self.derived.windows[key] = split
        return split

    def _play_window(self, card: Ref, record: dict, params: dict, event: str) -> None:
        """A card event (`card_target`, `card_played`) for a card being played: first every hook but the
        card's own (an `instead of` hook cancels it), then, unless it was cancelled or has left the
        table, the card's own hooks with `self` that very copy; then the events queued meanwhile
        (Game.settle)."""
        self.depth += 1
        mark = len(self.queue)
        try:
            self._window(card, record, params, event)
            self.settle(mark)
        except interp.GameOver:
            if self.depth > 1 or self.queue:  # inside an event: the whole of it stops
                raise
        finally:
            self.depth -= 1

    def _window(self, card: Ref, record: dict, params: dict, event: str) -> None:
        """The hooks of _play_window (a hook's `end` ends the window)."""
        from spawnpit.engine.game import NESTING_LIMIT

        try:
            if self.depth > NESTING_LIMIT:
                self._runaway(f"events raised inside one another over {NESTING_LIMIT} deep")
            self.state["events"] += 1
            split = self._split(event, record["proto"], params)

            def cancelled():  # a per-copy hook's next copy does not run for a card already cancelled
                return record.get("cancelled")

            for replace, some in zip((True, False), split[:2]):
                for hook in some:
                    if self._fire(hook, params, cancelled) and replace:
                        record["cancelled"] = True
                    if record.get("cancelled") or self.state["result"] is not None:
                        return
            for hook in split[2]:
                if record.get("cancelled") or record["where"] != "play":  # cancelled, or discarded with its target
                    return
                if self._own_applies(hook, params, card):
                    self._own_run(hook, params, card)
                    if self.state["result"] is not None:
                        return
            self._check_objectives(event)
        except interp.EndAction:
            pass

    def _own_context(self, hook, params: dict, card: Ref):
        from spawnpit.engine.game import Context

        return Context(self, {**hook.env, **params, "event": params, "self": card}, hook.rule)

    def _own_applies(self, hook, params: dict, card: Ref) -> bool:
        ctx = self._own_context(hook, params, card)
        for prep, value in hook.filters.items():
            if not self._filter_matches(params.get(prep), value(ctx)):
                return False
        return hook.when is None or bool(hook.when(ctx))

    def _own_run(self, hook, params: dict, card: Ref) -> None:
        from spawnpit.engine.game import hook_error

        self.fired[hook.rule["rule"]] = self.fired.get(hook.rule["rule"], 0) + 1
        try:
            interp.run_block(self._own_context(hook, params, card), hook.body)
        except interp.Decline:  # a card's own hooks are `on card_played` ones (a pack the compiler never saw)
            raise hook_error(hook, "`decline` outside an `instead of` hook") from None
        except interp.RuleError as err:
            raise hook_error(hook, err) from err

    def look_up(self, table: str, roll, column, shift, ctx):
        """`lookup TABLE with ROLL at COLUMN by SHIFT`: the cell (its own name: Game.lookup reads a name)."""
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


def _window_hooks(hooks, own: str, params: dict) -> tuple[tuple, tuple, tuple]:
    """The `card_played` hooks that may apply while a card of prototype `own` is played: (the `instead of`
    ones but its own, the others but its own, its own but `instead of` ones), in layer order. A hook of another card that runs only `when
    NAME == self`, NAME the played card, is left out: it is for a copy of that other card being played,
    never this one."""
    played = next((name for name, value in params.items() if type(value) is Ref and value.kind == "card"), None)
    kept = [h for h in hooks if h.owner != own and not (
        played is not None and h.owner is not None and h.owner.startswith("card:") and not h.filters
        and getattr(h.when, "self_test", None) == played)]
    return (tuple(h for h in kept if h.replace), tuple(h for h in kept if not h.replace),
            tuple(h for h in hooks if h.owner == own and not h.replace))


_PLAY_KEYS = ("status", "target", "cancelled")  # what a card carries only while it is being played or in play


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
