"""The compiled model of one scenario: what the engine reads once from rule objects before a game.

Hooks are gathered from every layer (system < expansion < scenario special rules < cards in play),
compiled to closures, and indexed by event, so dispatching an event is a dictionary lookup.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spawnpit.engine import interp

LAYERS = {"system": 0, "expansion": 1, "scenario": 2, "card": 3}


@dataclass(slots=True)
class Hook:
    event: str
    replace: bool
    layer: int
    order: int
    rule: dict  # provenance: {"rule": id, "title": …, "source": …}
    body: list
    when: object = None
    filters: dict = field(default_factory=dict)
    env: dict = field(default_factory=dict)  # rule arguments (x of Lights Out (x))
    owner: str | None = None  # "card:<proto>" or "unit:<proto>": active only while that is in play
    per_copy: bool = False  # a card's hook that names `self`: run once for each copy on the table (Game._fire)
    if_played: bool = False  # its `when` is `self.played` or starts `self.played and …`: a held copy never applies
    reads: frozenset | None = None  # the names its `when` and filters read (None: it may roll dice or draw at random)
    when_ir: dict | None = None  # its `when` as compiled (Game.asker works out parts of it on their own)
    fixed: dict = field(default_factory=dict)  # Game.asker's: params asked about → the `when`'s part that reads none
    ends: bool = False  # not a replacement, and `end` is one of its body's own statements: where it applies, it ends
    # the running phase, step, action or walk whatever else it does (Lights Out: a Hero's walk stops there)


def _ends(h: dict, reads: frozenset | None) -> bool:
    """Whether a hook ends what is running wherever it applies, so a move's search may treat the space as a
    stop: not a replacement, `end` among its body's own statements, and a `when` that is pure and reads
    neither where the unit comes from nor the event as a whole (a search decides a stop from the first
    side it reaches the space from, and must not roll the game's dice)."""
    if h["replace"] or not any(isinstance(s, dict) and s.get("do") == "end" for s in h["body"]):
        return False
    return reads is not None and not reads & {"from", "event"}


def _blocks(obj: dict, kind: str) -> list[dict]:
    return [b for b in obj.get("blocks", []) if b["kind"] == kind]


def _names_self(node) -> bool:
    """Whether a hook's compiled form (its `when`, filters or body) reads `self` anywhere."""
    if isinstance(node, dict):
        return node.get("name") == "self" or any(_names_self(v) for v in node.values())
    if isinstance(node, list):
        return any(_names_self(v) for v in node)
    return False


_SELF_PLAYED = {"attr": "played", "of": {"name": "self"}}


def _starts_played(when) -> bool:
    """Whether a `when` is `self.played`, or an `and` whose first part is: false for any copy not in play,
    whatever the event (Game._applies_as tests the copy's record before making a context)."""
    if not isinstance(when, dict):
        return False
    return when == _SELF_PLAYED or (when.get("op") == "and" and bool(when.get("args")) and when["args"][0] == _SELF_PLAYED)


def _reads(h: dict) -> frozenset | None:
    """The names a hook's `when` and filters read, and the event parameters its filters match (so whether
    it applies depends on nothing else but the table); None when they are not pure (dice, chance)."""
    names = set(h.get("filters", {}))
    for ir in [h.get("when"), *h.get("filters", {}).values()]:
        if ir is not None:
            found, pure = interp._free(ir)
            if not pure:
                return None
            names |= found
    return frozenset(names)


def _title(obj: dict) -> str:
    return obj.get("props", {}).get("title") or obj.get("title") or obj["id"]


_MODELS: dict[tuple[int, str], tuple[dict, "Model"]] = {}


def model_for(pack: dict, scenario: dict) -> "Model":
    """The compiled model of a scenario, built once per pack object: compiling hooks to closures is
    most of what starting a game costs, and a model is never changed by the games that read it."""
    key = (id(pack), scenario["id"], scenario["system"])
    hit = _MODELS.get(key)
    if hit is not None and hit[0] is pack and hit[1].scenario is scenario:
        return hit[1]
    if len(_MODELS) >= 32:
        _MODELS.clear()
    model = Model(pack, scenario)
    _MODELS[key] = (pack, model)
    return model


class Model:
    def __init__(self, pack: dict, scenario: dict) -> None:
        self.pack = pack
        self.scenario = scenario
        self.system_name = scenario["system"]
        self.system = pack["systems"][self.system_name]
        objects = [o for o in pack["objects"] if o["system"] == self.system_name]
        self.objects = {(o["kind"], o["id"]): o for o in objects}
        self.sides = [b["id"] for b in _blocks(self.system, "side")]
        self.kinds = {b["id"]: b for b in _blocks(self.system, "kind")}
        self.decks = {b["id"]: b for b in _blocks(self.system, "deck")}
        self.decks.update({o["id"]: o for o in objects if o["kind"] == "deck"})
        self.tracks = {b["id"]: b for b in _blocks(self.system, "track")}
        self.units = [o for o in objects if o["kind"] == "unit"]
        self.cards = [o for o in objects if o["kind"] == "card"]
        self.phases = _blocks(self.system, "phase")
        self._stats = {b["id"]: b for b in _blocks(self.system, "stat")}
        self.system_stats = set(self._stats)
        self._protos: dict[str, dict] = {}
        self._titled: dict[str, dict] = {}  # prototype id → its object (title_of)
        self.tables = {o["id"]: o for o in objects if o["kind"] == "table"}
        self.names = self._names(objects)
        self.hooks: dict[str, list[Hook]] = {}
        self._gather()

    def _names(self, objects) -> dict[str, tuple[str, str]]:
        """What every global name means: (kind of reference, id)."""
        out: dict[str, tuple[str, str]] = {}
        for kw in self.system.get("props", {}).get("keywords", []):
            out[kw] = ("keyword", kw)
        for kw in self.system.get("props", {}).get("card_types", []):
            out[kw] = ("keyword", kw)
        for o in objects:
            ref = {"card": "card_proto", "board": "board", "table": "table", "unit": "unit_proto"}.get(o["kind"])
            if ref:
                out[o["id"]] = (ref, o["id"])
        for kind in ("mode", "marker", "track", "deck", "kind", "side"):
            for b in _blocks(self.system, kind):
                out[b["id"]] = (kind, b["id"])
        for deck in self.decks:
            out[deck] = ("deck", deck)
        return out

    # ---- hooks -----------------------------------------------------------------------------------

    def _add(self, owner_obj: dict, layer: int, env: dict | None = None, owner: str | None = None) -> None:
        rule = {"rule": owner_obj["id"], "title": _title(owner_obj), "source": owner_obj.get("props", {}).get("source", "")}
        if owner is not None:
            rule["owner"] = owner  # whose (a Hero's Youth is not another's: each says his or her own text)
        for h in owner_obj.get("hooks", []):
            reads = _reads(h)
            hook = Hook(event=h["event"], replace=h["replace"], layer=layer, order=sum(map(len, self.hooks.values())),
                        rule=rule, body=interp.block(h["body"]), when=interp.expr(h["when"]) if h.get("when") else None,
                        filters={k: interp.expr(v) for k, v in h.get("filters", {}).items()}, env=dict(env or {}),
                        owner=owner, per_copy=owner is not None and owner.startswith("card:") and _names_self(h),
                        if_played=_starts_played(h.get("when")), reads=reads, when_ir=h.get("when"),
                        ends=_ends(h, reads))
            self.hooks.setdefault(hook.event, []).append(hook)

    def _walk(self, obj: dict, layer: int, env=None, owner=None) -> None:
        self._add(obj, layer, env, owner)
        for block in obj.get("blocks", []):
            if block["kind"] in ("rule", "phase", "step", "action", "ability", "setup"):
                self._walk(block, layer, env, owner)

    def _gather(self) -> None:
        self._walk(self.system, LAYERS["system"])
        for entry in self.scenario.get("rules", []):
            rule = self.objects.get(("special_rule", entry["rule"]))
            if rule is not None:
                self._walk(rule, LAYERS.get(rule["props"].get("layer", "scenario"), 2), entry.get("args", {}))
        for rule in (o for (k, _), o in self.objects.items() if k == "special_rule" and o.get("always")):
            if rule["id"] not in {e["rule"] for e in self.scenario.get("rules", [])}:
                self._walk(rule, LAYERS.get(rule["props"].get("layer", "scenario"), 2))
        self._walk(self.scenario, LAYERS["scenario"])
        for card in self.cards:
            self._walk(card, LAYERS["card"], owner=f"card:{card['id']}")
        for unit in self.units:
            self._walk(unit, LAYERS["card"], owner=f"unit:{unit['id']}")
        for event in [e for e in self.hooks if e.startswith("unit.")]:  # `on unit.killed`: a unit of any kind
            for kind in self.kinds:
                self.hooks.setdefault(f"{kind}.{event[5:]}", []).extend(self.hooks[event])
        for hooks in self.hooks.values():
            hooks.sort(key=lambda h: (h.layer, h.order))

    def stat_default(self, proto: str | None, name: str):
        """A stat a unit or card does not carry itself: its prototype's value, else the system default."""
        if proto is not None:
            props = self._protos.get(proto)
            if props is None:
                obj = next((o for o in self.units + self.cards if o["id"] == proto), None)
                props = self._protos[proto] = obj["props"] if obj else {}
            if name in props:
                return props[name]
        stat = self._stats.get(name)
        return stat.get("props", {}).get("default") if stat else None

    def stat_type(self, name: str) -> str | None:
        """The type a system declares for a stat (`int`, `range`, `target`…), None for no such stat."""
        stat = self._stats.get(name)
        return stat.get("props", {}).get("type") if stat else None

    def title_of(self, proto: str | None) -> str | None:
        """The title of a unit's or card's prototype (`u.name`, `c.name`: "Sheriff Anderson")."""
        obj = self._titled.get(proto) if proto is not None else None
        if obj is None and proto is not None:
            obj = self._titled[proto] = next((o for o in self.units + self.cards if o["id"] == proto), {})
        return (obj.get("title") or obj["id"]) if obj else None  # a hero's props title is its subtitle

    def event_params(self, event: str) -> list[str]:
        """The parameter names a system `event` declares, in order (for `emit … with [a, b]`)."""
        for block in _blocks(self.system, "event"):
            if block["id"] == event:
                params = block.get("props", {}).get("params", [])
                return [params] if isinstance(params, str) else list(params)
        return []

    def protos(self, kind: str) -> list[dict]:
        return [u for u in self.units if u["unit_kind"] == kind]

    def side_of(self, kind: str) -> str | None:
        return self.kinds.get(kind, {}).get("props", {}).get("side")
