"""The effects, one function each, found through the EFFECTS table (the same verbs the compiler checks).

Each takes the running context, the compiled primary value (or None) and the compiled prepositional
arguments, changes the state through the game, and logs what a person at the table would see.
"""

from __future__ import annotations

from spawnpit.engine.interp import EndAction, RuleError
from spawnpit.engine.state import Ref


def _arg(ctx, args, prep, default=None):
    fn = args.get(prep)
    return fn(ctx) if fn is not None else default


def _need(value, kinds: tuple[str, ...], verb: str):
    if not isinstance(value, Ref) or value.kind not in kinds:
        raise RuleError(f"`{verb}` needs a {' or '.join(kinds)}, got {value!r}")
    return value


def move(ctx, what, args):
    unit = _need(what(ctx), ("unit",), "move")
    to = _arg(ctx, args, "to")
    if to is not None:
        ctx.game.move_unit(unit, ctx.game.space_ref(to), ctx)


def place(ctx, what, args):
    count, thing = _count_and_thing(ctx, what, args)
    at = ctx.game.space_ref(_arg(ctx, args, "at") or _arg(ctx, args, "on"))
    if isinstance(thing, Ref) and thing.kind == "marker":
        ctx.game.mark(at, thing.id, count, ctx)
    elif isinstance(thing, Ref) and thing.kind == "unit":
        ctx.game.move_unit(thing, at, ctx)
    elif isinstance(thing, Ref) and thing.kind == "unit_proto":
        ctx.game.enter(thing.id, at, ctx)
    else:
        ctx.game.spawn(_need(thing, ("kind",), "place"), at, count, ctx)


def spawn(ctx, what, args):
    count, thing = _count_and_thing(ctx, what, args)
    ctx.game.spawn(_need(thing, ("kind",), "spawn"), ctx.game.space_ref(_arg(ctx, args, "at")), count, ctx)


def _count_and_thing(ctx, what, args):
    value = what(ctx) if what else None
    if isinstance(value, int) and not isinstance(value, bool):
        return value, _arg(ctx, args, "of")
    return 1, value


def remove(ctx, what, args):
    thing = what(ctx)
    where = _arg(ctx, args, "from")
    if isinstance(thing, Ref) and thing.kind == "marker":
        ctx.game.mark(where, thing.id, -1, ctx)
    elif isinstance(thing, Ref) and thing.kind == "unit":
        ctx.game.take_off(thing, ctx)
    elif isinstance(thing, Ref) and thing.kind == "kind" and where is not None:
        for unit in ctx.table.units(thing.id, where)[:1]:
            ctx.game.take_off(unit, ctx)


def wound(ctx, what, args):
    ctx.game.wound(_need(what(ctx), ("unit",), "wound"), int(_arg(ctx, args, "by", 1)), ctx)


def heal(ctx, what, args):
    ctx.game.wound(_need(what(ctx), ("unit",), "heal"), -int(_arg(ctx, args, "by", 1)), ctx)


def kill(ctx, what, args):
    ctx.game.kill(_need(what(ctx), ("unit",), "kill"), _arg(ctx, args, "by"), ctx)


def roll(ctx, what, args):
    values = ctx.roll(what(ctx), reason="roll")
    if "as" in args:
        ctx.env[args["as"]] = sum(values)


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
    ctx.game.give(what(ctx), _arg(ctx, args, "to"), ctx)


def reveal(ctx, what, args):
    ctx.log({"type": "reveal", "what": str(what(ctx))})


def log(ctx, what, args):
    ctx.log({"type": "note", "text": str(what(ctx))})


def emit(ctx, what, args):
    params = {"unit": _arg(ctx, args, "for")} if "for" in args else {}
    ctx.game.emit(str(what(ctx)), params, ctx)


def cancel(ctx, what, args):
    ctx.cancelled = True


def end(ctx, what, args):
    raise EndAction()


def lookup(ctx, what, args):
    result = ctx.game.lookup(_need(what(ctx), ("table",), "lookup").id, _arg(ctx, args, "with"),
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
    "reveal": reveal, "log": log, "emit": emit, "cancel": cancel, "end": end, "lookup": lookup, "retreat": retreat,
}
