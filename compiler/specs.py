"""The tables that say what each declaration, block, effect and function accepts.

Extension points are these tables: adding a property, a block kind, an effect or a function is a row
here (and, for effects, an interpreter entry), never a new branch in the checker.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class P:
    """A property: ``kind`` of each value; ``many`` takes a list; ``repeat`` may appear several times;
    ``keyed`` is written ``name KEY = values``."""

    kind: str
    many: bool = False
    repeat: bool = False
    keyed: bool | None = False  # None: either form
    required: bool = False


@dataclass(frozen=True, slots=True)
class Kind:
    props: dict[str, P]
    blocks: tuple[str, ...] = ()
    hooks: bool = False
    stats: str = ""  # "unit" or "card": also accepts the stats the system declares for those


COMMON = {
    "title": P("text"), "text": P("text"), "source": P("text"), "approx": P("text"),
    "note": P("text", repeat=True),
}
BEHAVIOUR = {"behaviour": P("word"), "layer": P("word")}


def _k(props: dict, blocks=(), hooks=False, stats="") -> Kind:
    return Kind(props={**COMMON, **props}, blocks=tuple(blocks), hooks=hooks, stats=stats)


# Top-level declaration kinds (unit kinds declared by a system are added at check time).
DECLS: dict[str, Kind] = {
    "system": _k(
        {"dice": P("dice", many=True), "keywords": P("name", many=True, repeat=True),
         "card_types": P("name", many=True, repeat=True), "carried": P("card_type", many=True, repeat=True),
         "counter": P("expr", keyed=True, repeat=True),
         "after_last_round": P("word"), "hidden": P("name", many=True, repeat=True)},
        blocks=("side", "kind", "stat", "marker", "mode", "track", "deck", "event", "unit_event", "phase",
                "action", "rule", "keyword"),
    ),
    "board": _k(
        {"grid": P("int", many=True), "void": P("name", many=True, repeat=True),
         "spaces": P("name", many=True, repeat=True),
         "link": P("name", many=True, repeat=True), "wall": P("name", many=True, repeat=True),
         "door": P("name", many=True, repeat=True), "window": P("name", many=True, repeat=True),
         "corner": P("name", many=True, repeat=True), "spawn": P("name", many=True, repeat=True), "start": P("name", many=True, repeat=True),
         "objective": P("name", many=True, repeat=True), "parts": P("board", many=True),
         "pick": P("int"), "places": P("name", many=True), "system": P("system")},
        blocks=("space", "zone", "building", "track"),
    ),
    "card": _k(
        {"deck": P("deck"), "type": P("card_type"), "count": P("int"),
         "keywords": P("keyword", many=True, repeat=True), "timing": P("text"), "system": P("system"),
         "combine": P("card", many=True, repeat=True), **BEHAVIOUR},
        blocks=("ability",), hooks=True, stats="card",
    ),
    "deck": _k({"side": P("side"), "hand": P("int"), "system": P("system"), "discard": P("word")}),
    "table": _k(
        {"roll": P("dice", required=True), "columns": P("any", many=True, required=True),
         "row": P("any", many=True, keyed=True, repeat=True), "shift": P("int", keyed=True, repeat=True),
         "system": P("system")},
    ),
    "special_rule": _k(
        {"number": P("text"), "side": P("side_or_other"), "dots": P("formula"), "require": P("cond", repeat=True),
         "always": P("flag"), "system": P("system"), "counter": P("expr", keyed=True, repeat=True),
         "hidden": P("name", many=True, repeat=True), **BEHAVIOUR},
        hooks=True,
    ),
    "scenario": _k(
        {"number": P("int"), "system": P("system"), "board": P("board", required=True),
         "alternate": P("board", many=True), "rounds": P("int"), "players": P("range", keyed=None, repeat=True),
         "rules": P("rule_call", many=True, repeat=True), "search_cards": P("card", many=True, repeat=True),
         "balance": P("int", keyed=True, repeat=True), "counter": P("expr", keyed=True, repeat=True),
         "hidden": P("name", many=True, repeat=True),
         "mode": P("mode"), "difficulty": P("text"), "duration": P("text"), "expansion": P("text")},
        blocks=("setup", "rule"), hooks=True,
    ),
}

UNIT = _k(
    {"keywords": P("keyword", many=True, repeat=True), "start": P("any", many=True), "count": P("int"),
     "system": P("system"), "mode": P("mode")},
    blocks=("ability",), hooks=True, stats="unit",
)

# Nested blocks.
BLOCKS: dict[str, Kind] = {
    "side": _k({"players": P("range"), "automated": P("bool")}),
    "kind": _k({"side": P("side"), "stats": P("stat", many=True, repeat=True), "pool": P("int"),
                "keywords": P("keyword", many=True, repeat=True), "through": P("word", many=True),
                "stop": P("kind", many=True)}),
    "stat": _k({"type": P("word"), "range": P("range"), "default": P("any"), "die": P("dice"),
                "applies": P("word")}),
    "keyword": _k({"applies": P("word")}),
    "marker": _k({"applies": P("name", many=True), "count": P("int"), "through": P("word", many=True),
                  "passes": P("kind", many=True)}),
    "mode": _k({}),
    "track": _k({"range": P("range"), "start": P("any"), "owner": P("word"), "level": P("int", keyed=True, repeat=True),
                 "spaces": P("name", many=True, repeat=True), "stacking": P("int")}),
    "deck": DECLS["deck"],
    "event": _k({"params": P("label", many=True)}),
    "unit_event": _k({"params": P("label", many=True)}),
    "phase": _k({"side": P("side"), "activation": P("word"), "prefer": P("score", many=True), **BEHAVIOUR},
                blocks=("step", "action", "rule"), hooks=True),
    "step": _k({"side": P("side"), **BEHAVIOUR}, blocks=("action", "rule"), hooks=True),
    "action": _k({"cost": P("int"), "side": P("side"), "prefer": P("score", many=True),
                  "require": P("score", many=True)}, hooks=True),
    "rule": _k({**BEHAVIOUR}, hooks=True),
    "ability": _k({"timing": P("text"), **BEHAVIOUR}, hooks=True),
    "space": _k({"terrain": P("name"), "tags": P("name", many=True), "stacking": P("int"),
                 "spaces": P("name", many=True, repeat=True)}),
    "building": _k({"spaces": P("name", many=True, repeat=True), "roll": P("any", many=True),
                    "pick_up": P("text")}),
    "setup": _k({"step": P("text", repeat=True)}, hooks=True),
}
BLOCKS["zone"] = BLOCKS["space"]

STAT_TYPES = ("int", "range", "target", "dice", "bool", "text")
APPLIES = ("units", "cards", "both")
LAYERS = ("system", "expansion", "scenario", "card")
BEHAVIOURS = ("manual", "engine")
ACTIVATIONS = ("side", "unit")  # a phase's steps once for the whole side, or all of them unit by unit
EDGE_KINDS = ("open", "door", "window", "wall", "corner")  # what a kind's units may move `through`
AFTER_LAST_ROUND = ("stop", "first_step")


# ---- the effect language -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Effect:
    """``primary``: the types the value after the verb may have (empty: takes none); ``preps``: the
    prepositions it takes and their types; ``binds``: the type of the name bound by ``as``."""

    primary: tuple[str, ...]
    preps: dict[str, tuple[str, ...]] = field(default_factory=dict)
    needs_primary: bool = True
    needs: tuple[str, ...] = ()
    binds: str = ""
    form: str = ""


UNITISH = ("unit",)
WHERE = ("space", "building", "unit")
NUM = ("num",)
EFFECTS: dict[str, Effect] = {
    "move": Effect(UNITISH, {"to": WHERE, "by": NUM}, needs=("to",), form="move UNIT to SPACE [by N]"),
    "place": Effect(("kind", "marker", "unit", "num", "card"), {"at": WHERE, "of": ("kind", "marker", "card"), "on": WHERE},
                    form="place [N of] KIND|MARKER|UNIT at SPACE"),
    "spawn": Effect(("kind", "num"), {"at": WHERE + ("sel",), "of": ("kind",), "from": UNITISH, "as": ("bind",)},
                    binds="unit", form="spawn [N of] KIND at SPACE|SPACES [from UNIT] [as NAME]"),
    "enter": Effect(("kind",), {"at": WHERE, "as": ("bind",)}, needs=("at",), binds="unit",
                    form="enter KIND at SPACE [as NAME]"),
    "remove": Effect(("unit", "marker", "kind", "card"), {"from": WHERE + ("card",)}, form="remove UNIT|MARKER [from SPACE]"),
    "wound": Effect(UNITISH, {"by": NUM, "from": UNITISH + ("card",)}, form="wound UNIT [by N] [from UNIT]"),
    "heal": Effect(UNITISH, {"by": NUM}, form="heal UNIT [by N]"),
    "kill": Effect(UNITISH, {"by": UNITISH + ("card",)}, form="kill UNIT [by UNIT]"),
    "roll": Effect(("dice", "num"), {"as": ("bind",), "for": UNITISH + ("card",), "of": ("dice",), "into": ("pool",)},
                   binds="num", form="roll DICE|N of DICE [as NAME] [into POOL]"),
    "draw": Effect(("num",), {"from": ("deck",), "to": UNITISH + ("side",), "as": ("bind",)}, needs_primary=False,
                   needs=("from",), binds="card", form="draw [N] from DECK [to UNIT|SIDE] [as NAME]"),
    "discard": Effect(("card", "num"), {"from": ("deck", "unit", "side")}, form="discard CARD|N [from DECK|UNIT]"),
    "shuffle": Effect(("deck", "card"), {"into": ("deck",)}, form="shuffle DECK|CARD [into DECK]"),
    "search": Effect(("deck",), {"for": ("card", "keyword"), "to": UNITISH + ("side",), "as": ("bind",)}, binds="card",
                     form="search DECK for CARD [to UNIT]"),
    "gain": Effect(NUM, {"of": ("track",), "to": UNITISH + ("side",)}, needs=("of",), form="gain N of TRACK [to UNIT|SIDE]"),
    "spend": Effect(NUM, {"of": ("track",), "from": UNITISH + ("side",)}, needs=("of",), form="spend N of TRACK [from UNIT|SIDE]"),
    "advance": Effect(("track",), {"by": NUM, "for": UNITISH + ("side",)}, form="advance TRACK [by N]"),
    "set": Effect(("ref",), {"to": ("value",)}, needs=("to",), form="set TARGET to VALUE"),
    "flip": Effect(UNITISH + ("card", "space", "building"), {"to": ("mode",)}, form="flip UNIT [to MODE]"),
    "mark": Effect(UNITISH + ("space", "building", "card"), {"with": ("marker",)}, needs=("with",), form="mark THING with MARKER"),
    "unmark": Effect(UNITISH + ("space", "building", "card"), {"with": ("marker",)}, needs=("with",), form="unmark THING with MARKER"),
    "give": Effect(("card",), {"to": UNITISH + ("side",)}, needs=("to",), form="give CARD to UNIT"),
    "reveal": Effect(("card", "deck"), {"to": ("side",)}, form="reveal CARD|DECK"),
    "retreat": Effect(UNITISH, {"to": WHERE}, form="retreat UNIT [to SPACE]"),
    "lookup": Effect(("table",), {"with": NUM, "at": ("num", "text"), "by": ("num", "text"), "as": ("bind",)}, binds="text",
                     needs=("with",), form="lookup TABLE with N [at COLUMN] [by SHIFT] as NAME"),
    "attack": Effect(UNITISH + ("space",), {"with": ("card",), "by": UNITISH}, form="attack UNIT [with CARD] [by UNIT]"),
    "cancel": Effect(("card",), needs_primary=False, form="cancel [CARD]"),
    "end": Effect((), needs_primary=False, form="end"),
    "decline": Effect((), needs_primary=False, form="decline"),
    "log": Effect(("text",), {"with": ("value",)}, form='log "text" [with [A, B]] (each {} in the text is the next value)'),
    "emit": Effect(("event_name",), {"for": UNITISH + ("side", "space"), "with": ("value",)},
                   form='emit "event.name" [for UNIT] [with [A, B]]'),
    "queue": Effect(("event_name",), {"for": UNITISH + ("side", "space"), "with": ("value",)},
                    form='queue "event.name" [for UNIT] [with [A, B]]'),
    "activate": Effect(UNITISH + ("kind",), {"by": NUM}, form="activate UNIT|KIND"),
    "open": Effect(("space", "building"), {"to": WHERE, "with": ("card",)}, form="open SPACE [to SPACE]"),
    "play": Effect(("card",), {"on": UNITISH + ("space", "card"), "from": ("unit", "side")},
                   form="play CARD [on UNIT|SPACE|CARD] [from UNIT|SIDE]"),
}

# Functions in expressions: argument kinds (None: any number of ``num``) and result type.
FUNCTIONS: dict[str, tuple[tuple[str, ...] | None, str]] = {
    "count": (("sel",), "num"),
    "roll": (("dice",), "num"),
    "any": (("sel",), "bool"),
    "all": (("sel",), "bool"),
    "min": (None, "num"),
    "max": (None, "num"),
    "distance": (("place", "place"), "num"),
    "adjacent": (("place", "place"), "bool"),
    "sight": (("place", "place"), "bool"),
    "random": (("sel",), "any"),
    "stat": (("unit", "name"), "num"),
    "list": (("sel",), "sel"),
    "highest": (("value",), "num"),
    "lowest": (("value",), "num"),
    "doubles": (("value",), "bool"),
    "dice": (("value",), "num"),
    "below": (("value", "num"), "any"),
    "reach": (("unit", "num"), "sel"),
    "steps": (("unit", "place"), "num"),
    "within": (("value", "value"), "bool"),
    "apart": (("place", "place"), "num"),
    "route": (("unit", "place", "place"), "num"),
    "nearest": (("place", "sel"), "num"),
    "search_card": (("card",), "bool"),
    "pool_left": (("kind",), "num"),
    "edge": (("place", "place"), "text"),
    "neighbours": (("place",), "sel"),
}

# Attributes every entity has, by type, beside the stats the system declares.
ATTRIBUTES: dict[str, dict[str, str]] = {
    "unit": {"space": "space", "kind": "kind", "side": "side", "name": "text", "owner": "side",
             "building": "building", "wounds": "num", "mode": "mode", "board": "any", "xp": "num",
             "last_space": "space"},
    "space": {"building": "building", "board": "any", "name": "text", "terrain": "text", "units": "sel",
              "zone": "space", "track": "any", "spawn": "bool", "start": "bool", "objective": "bool"},
    "building": {"name": "text", "spaces": "sel", "roll": "num", "pick_up": "card", "board": "text"},
    "card": {"name": "text", "deck": "deck", "type": "text", "owner": "unit", "count": "num", "target": "any",
             "played": "bool"},
    "side": {"name": "text", "units": "sel", "hand": "sel", "players": "num"},
    "deck": {"size": "num", "discard": "sel", "top": "card", "name": "text", "hand": "num"},
    "track": {"value": "num", "level": "text", "name": "text"},
    "event": {"name": "text"},
    "num": {},
}

# Entity classes that `for each` / `choose` can range over beside the unit kinds.
ENTITY_CLASSES = {"unit": "unit", "space": "space", "zone": "space", "building": "building", "card": "card",
                  "side": "side", "deck": "deck", "track": "track", "player": "side", "option": "any"}

BUILTIN_EVENTS = ("game.start", "game.end", "round.start", "round.end", "setup")
