"""The effects, one function each, found through the EFFECTS table (the same verbs the compiler checks).

Each takes the running context, the compiled primary value (or None) and the compiled prepositional
arguments, changes the state through the game, and logs what a person at the table would see.
"""

from __future__ import annotations

from spawnpit.engine.board import divide_evenly
from spawnpit.engine.decks import out_of_piles
from spawnpit.engine.geometry import listed
from spawnpit.engine.interp import Decline, EndAction, RuleError
from spawnpit.engine.movement import walk
from spawnpit.engine.state import Ref


def _arg(ctx, args, prep, default=None):
    fn = args.get(prep)
    return fn(ctx) if fn is not None else default


def _need(value, kinds: tuple[str, ...], verb: str):
    if not isinstance(value, Ref) or value.kind not in kinds:
        raise RuleError(f"`{verb}` needs a {' or '.join(kinds)}, got {value!r}")
    return value


def move(ctx, what, args):
    """`move u to s` puts the unit there; `move u to s by n` walks up to n steps toward s by its kind's
    movement rules (engine.movement), one space at a time."""
    unit = _need(what(ctx), ("unit",), "move")
    to = _arg(ctx, args, "to")
    if to is None:
        return
    if "by" in args:
        walk(ctx.game, unit, ctx.game.space_ref(to).id, _arg(ctx, args, "by"), ctx)
    else:
        ctx.game.move_unit(unit, ctx.game.space_ref(to), ctx)


def place(ctx, what, args):
    count, thing = _count_and_thing(ctx, what, args)
    at = ctx.game.space_ref(_arg(ctx, args, "at") or _arg(ctx, args, "on"))
    if isinstance(thing, Ref) and thing.kind == "marker":
        ctx.game.mark(at, thing.id, count, ctx)
    elif isinstance(thing, Ref) and thing.kind == "unit":
        ctx.game.move_unit(thing, at, ctx, placed=True)
    elif isinstance(thing, Ref) and thing.kind == "unit_proto":
        ctx.game.enter(thing.id, at, ctx)
    else:
        ctx.game.spawn(_need(thing, ("kind",), "place"), at, count, ctx)


def spawn(ctx, what, args):
    """`spawn n of KIND at SPACES`: given a selection of spaces, the n are divided among them as evenly
    as possible (the remainder drawn at random), after capping n at what the kind's pool has left.
    `from UNIT`: the new unit is that unit's figure come back as another kind (a killed Hero risen as a
    Zombie Hero), and is named after it: "Zombie Hero (Billy)"."""
    count, thing = _count_and_thing(ctx, what, args)
    kind = _need(thing, ("kind",), "spawn")
    at = _arg(ctx, args, "at")
    former = _need(_arg(ctx, args, "from"), ("unit",), "spawn … from") if "from" in args else None
    if not isinstance(at, list):
        made = ctx.game.spawn(kind, ctx.game.space_ref(at), count, ctx, former)
        if "as" in args:  # `spawn zombie_hero at s as z`: the new unit (a list when several, None when none)
            ctx.env[args["as"]] = made[0] if len(made) == 1 else (made or None)
        return
    pool = ctx.game.model.kinds[kind.id]["props"].get("pool")
    if pool is not None:
        count = max(0, min(count, pool - len(ctx.table.units(kind.id))))
    spaces = [ctx.game.space_ref(s).id for s in at]
    if not spaces:
        return
    shares = divide_evenly(count, spaces, ctx.chance._random)
    for space in spaces:
        if shares[space]:
            ctx.game.spawn(kind, Ref("space", space), shares[space], ctx, former)


def enter(ctx, what, args):
    """`enter KIND at SPACE [as NAME]`: a unit of the kind that is not in the game yet comes into play,
    its prototype drawn at random among those with copies left (each prototype has `count` copies, and a
    unit once in the game, even killed, has used its copy): a new Hero drawn from the unused sheets."""
    kind = _need(what(ctx), ("kind",), "enter")
    at = ctx.game.space_ref(_arg(ctx, args, "at"))
    used: dict[str, int] = {}
    for record in ctx.game.state["units"].values():
        used[record["proto"]] = used.get(record["proto"], 0) + 1
    left = [p for p in ctx.game.model.protos(kind.id) if used.get(p["id"], 0) < int(p["props"].get("count", 1))]
    unit = None
    if left:
        proto = left[ctx.chance.randrange(len(left))] if len(left) > 1 else left[0]
        unit = ctx.game.add_unit(proto, at.id)
        ctx.log({"type": "enter", "unit": unit.id, "proto": proto["id"], "space": at.id})
    else:
        ctx.log({"type": "pool_empty", "kind": kind.id})
    if "as" in args:
        ctx.env[args["as"]] = unit


def _count_and_thing(ctx, what, args):
    value = what(ctx) if what else None
    if isinstance(value, int) and not isinstance(value, bool):
        return value, _arg(ctx, args, "of")
    return 1, value


def remove(ctx, what, args):
    thing = what(ctx)
    where = _arg(ctx, args, "from")
    if isinstance(thing, Ref) and thing.kind == "card":  # out of the game: back in the box
        out_of_piles(ctx.game.state, thing.id)
        ctx.game.state["cards"][thing.id]["where"] = "box"
        ctx.log({"type": "remove", "card": ctx.game.state["cards"][thing.id]["proto"]})
    elif isinstance(thing, Ref) and thing.kind == "marker":
        ctx.game.mark(where, thing.id, -1, ctx)
    elif isinstance(thing, Ref) and thing.kind == "unit":
        ctx.game.take_off(thing, ctx)
    elif isinstance(thing, Ref) and thing.kind == "kind" and where is not None:
        for unit in ctx.table.units(thing.id, where)[:1]:
            ctx.game.take_off(unit, ctx)


def wound(ctx, what, args):
    ctx.game.wound(_need(what(ctx), ("unit",), "wound"), int(_arg(ctx, args, "by", 1)), ctx, _arg(ctx, args, "from"))


def heal(ctx, what, args):
    ctx.game.wound(_need(what(ctx), ("unit",), "heal"), -int(_arg(ctx, args, "by", 1)), ctx)


def kill(ctx, what, args):
    ctx.game.kill(_need(what(ctx), ("unit",), "kill"), _arg(ctx, args, "by"), ctx)


def roll(ctx, what, args):
    """`roll 2D6 as n` binds the total; `roll N of D6` rolls a number of dice worked out in play;
    `roll … into POOL` adds the dice to a counter kept as a pool of dice (highest(), doubles());
    `roll … for THING`: what the roll is for, which the log says (a gun's Out of Ammo roll)."""
    dice = what(ctx)
    if "of" in args:
        of = _arg(ctx, args, "of")
        dice = ("dice", max(0, int(dice or 0)) * of[1], of[2])
    values = ctx.roll(dice, reason="roll", purpose=_arg(ctx, args, "for")) if dice[1] > 0 else []
    if "as" in args:
        ctx.env[args["as"]] = sum(values)
    if "into" in args:
        name = args["into"]
        old = ctx.lookup(name)
        ctx.assign(name, (list(old) if isinstance(old, list) else []) + values)


def draw(ctx, what, args):
    count = int(what(ctx)) if what else 1
    deck = _need(_arg(ctx, args, "from"), ("deck",), "draw")
    to = _arg(ctx, args, "to")
    drawn = ctx.game.draw(deck.id, count, to, ctx)
    if "as" in args:
        ctx.env[args["as"]] = drawn[0] if len(drawn) == 1 else drawn


def discard(ctx, what, args):
    thing, source = what(ctx), _arg(ctx, args, "from")
    if isinstance(thing, int) and not isinstance(thing, bool):
        ctx.game.discard_top(_need(source, ("deck",), "discard").id, thing, ctx)
    elif isinstance(thing, Ref) and thing.kind == "card":
        ctx.game.discard(thing, ctx)
    elif isinstance(thing, Ref) and thing.kind == "card_proto":
        ctx.game.discard_proto(thing.id, source, ctx)
    else:
        raise RuleError(f"`discard` needs a card or a number, got {thing!r}")


def shuffle(ctx, what, args):
    thing = what(ctx)
    into = _arg(ctx, args, "into")
    ctx.game.shuffle(thing, into, ctx)


def search(ctx, what, args):
    deck = _need(what(ctx), ("deck",), "search")
    found = ctx.game.search(deck.id, _arg(ctx, args, "for"), _arg(ctx, args, "to"), ctx)
    if "as" in args:
        ctx.env[args["as"]] = found


def gain(ctx, what, args):
    ctx.game.track_add(_need(_arg(ctx, args, "of"), ("track",), "gain").id, int(what(ctx)), _arg(ctx, args, "to"), ctx)


def spend(ctx, what, args):
    ctx.game.track_add(_need(_arg(ctx, args, "of"), ("track",), "spend").id, -int(what(ctx)), _arg(ctx, args, "from"), ctx)


def advance(ctx, what, args):
    ctx.game.track_add(_need(what(ctx), ("track",), "advance").id, int(_arg(ctx, args, "by", 1)), _arg(ctx, args, "for"), ctx)


def set_(ctx, what, args):
    target = what  # a target path for `set` (see interp._effect)
    ctx.table.write_target(ctx, target, _arg(ctx, args, "to"))


def flip(ctx, what, args):
    ctx.game.flip(what(ctx), _arg(ctx, args, "to"), ctx)


def mark(ctx, what, args):
    ctx.game.mark(what(ctx), _need(_arg(ctx, args, "with"), ("marker",), "mark").id, 1, ctx)


def unmark(ctx, what, args):
    ctx.game.mark(what(ctx), _need(_arg(ctx, args, "with"), ("marker",), "unmark").id, -1, ctx)


def give(ctx, what, args):
    # (Decks.give takes the card out of any pile itself: taken out here first, a card from a discard pile
    # was given as if from nowhere, and the other side never read which card Just What I Needed took)
    ctx.game.give(what(ctx), _arg(ctx, args, "to"), ctx)


def reveal(ctx, what, args):
    ctx.log({"type": "reveal", "what": str(what(ctx))})


def log(ctx, what, args):
    """A note in the log; each `{}` of its text is the next value of `with`: the entry's `text` names
    them plainly (a unit or card by its title, a space by its id), and `with` keeps what they are (ids
    and numbers) for a reader that names them its own way (the terminal: "Zombie 129 in Gym a6")."""
    text = str(what(ctx))
    entry = {"type": "note", "text": text}
    if "with" in args:
        given = listed(args["with"](ctx))
        stats = args.get("stats") or ()
        values = [_said(ctx, v, stats[i] if i < len(stats) else None) for i, v in enumerate(given)]
        entry["text"] = fill(text, [plain for plain, _ in values])
        entry["template"], entry["with"] = text, [kept for _, kept in values]
    unit = ctx.about()
    if unit is not None and unit not in entry.get("with", ()):
        entry["unit"] = unit  # whom the note is about: "… (Sally)", unless it names them itself
    ctx.log(entry)


def fill(template: str, values: list[str]) -> str:
    """A note's text with each `{}` replaced by the next value."""
    parts = template.split("{}")
    out = [parts[0]]
    for i, part in enumerate(parts[1:]):
        out.append(values[i] if i < len(values) else "{}")
        out.append(part)
    return "".join(out)


def _said(ctx, value, stat: str | None = None) -> tuple[str, object]:
    """A value of a note: (its plain words, what the log keeps of it). A unit, card, building or space
    is kept as its id and said by its title (a space by its id); yes/no, numbers and texts as they are;
    a range stat (`w.out_of_ammo`) as "1-2"; a list item by item."""
    if type(value) is Ref:
        if value.kind in ("unit", "card", "building"):
            try:
                title = ctx.table.attribute(value, "name")
            except RuleError:
                title = None
            return str(title or value.id), value.id
        return value.id, value.id
    if value is None:
        return "nothing", None
    if isinstance(value, bool):
        return ("yes" if value else "no"), value
    if isinstance(value, (list, tuple)):
        if stat is not None and len(value) == 2 and ctx.game.model.stat_type(stat) == "range":
            said = f"{value[0]}-{value[1]}" if value[0] != value[1] else str(value[0])
            return said, said
        items = [_said(ctx, v) for v in value]
        return ", ".join(plain for plain, _ in items), [kept for _, kept in items]
    if isinstance(value, (int, float, str)):
        return str(value), value
    return str(value), str(value)


def emit(ctx, what, args):
    """Raise an event now: its hooks run before the next statement. `for UNIT` gives it `unit`;
    `with [a, b]` gives it the parameters the event declares, in order."""
    ctx.game.raise_now(*_event(ctx, what, args))


def queue(ctx, what, args):
    """Raise an event after the running one: it waits in the queue, as the engine's own events (`killed`,
    `moved`, ...) do, so every hook of the running event, of any layer, runs first."""
    ctx.game.emit(*_event(ctx, what, args))


def _event(ctx, what, args) -> tuple[str, dict]:
    event = str(what(ctx))
    params = {"unit": _arg(ctx, args, "for")} if "for" in args else {}
    if "with" in args:
        values = _arg(ctx, args, "with")
        known = ctx.game.derived.event_names
        names = known.get(event)
        if names is None:  # the system's declaration, looked up once per game
            names = known[event] = tuple(ctx.game.model.event_params(event))
        params.update(zip(names, values if isinstance(values, list) else [values]))
    return event, params


def play(ctx, what, args):
    """`play CARD [on UNIT|SPACE|CARD] [from UNIT|SIDE]`: the card leaves its holder's hand (or the unit
    carrying it) and is played (engine.decks.Decks.play: `card_played`, then its effect unless cancelled)."""
    card = _need(what(ctx), ("card",), "play")
    ctx.game.play(card, _arg(ctx, args, "on"), _arg(ctx, args, "from"), ctx)


def cancel(ctx, what, args):
    """`cancel` in an `instead of` hook: the event does not happen. `cancel CARD`, or a bare `cancel` in a
    hook of an event about a card (`card_played`): that card is cancelled (Decks.cancel_card)."""
    ctx.cancelled = True
    card = what(ctx) if what is not None else _event_card(ctx)
    if isinstance(card, Ref) and card.kind == "card":
        ctx.game.cancel_card(card, ctx)
    elif what is not None:
        raise RuleError(f"`cancel` needs a card, got {card!r}")


def _event_card(ctx):
    try:
        event = ctx.lookup("event")
    except RuleError:
        return None
    return event.get("card") if isinstance(event, dict) else None


def end(ctx, what, args):
    raise EndAction()


def decline(ctx, what, args):
    """`decline` in an `instead of` hook: the hook gives up its replacement (what it did before stays done),
    and the event goes on as if the hook had not applied (Game._replace)."""
    raise Decline()


def lookup(ctx, what, args):
    result = ctx.game.look_up(_need(what(ctx), ("table",), "lookup").id, _arg(ctx, args, "with"),
                             _arg(ctx, args, "at"), _arg(ctx, args, "by", 0), ctx)
    if "as" in args:
        ctx.env[args["as"]] = result


def retreat(ctx, what, args):
    unit = _need(what(ctx), ("unit",), "retreat")
    to = _arg(ctx, args, "to")
    if to is not None:
        ctx.game.move_unit(unit, ctx.game.space_ref(to), ctx)


EFFECTS = {
    "move": move, "place": place, "spawn": spawn, "remove": remove, "wound": wound, "heal": heal, "kill": kill,
    "roll": roll, "draw": draw, "discard": discard, "shuffle": shuffle, "search": search, "gain": gain,
    "spend": spend, "advance": advance, "set": set_, "flip": flip, "mark": mark, "unmark": unmark, "give": give,
    "reveal": reveal, "log": log, "emit": emit, "queue": queue, "cancel": cancel, "play": play, "end": end, "decline": decline, "lookup": lookup, "retreat": retreat,
    "enter": enter,
}
