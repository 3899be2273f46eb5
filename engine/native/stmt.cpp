// Statements (interp.py's run side) and effects (effects.py), one function each.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "geo.h"
#include "json.h"

namespace spawnpit {

namespace {

Value or_zero(const Value &v) { return truthy(v) ? v : Value::integer(0); }

int64_t to_int(const Value &v) {  // Python's int(x) for the numbers rules give
    switch (v.tag) {
        case Value::BOOL: return v.b ? 1 : 0;
        case Value::INT: return v.i;
        case Value::FLOAT:
            if (!std::isfinite(v.f)) throw RuleError("cannot convert float infinity to integer");
            return static_cast<int64_t>(v.f);
        case Value::STR: {
            const std::string &t = text(v.s);
            try {
                size_t used = 0;
                int64_t n = std::stoll(t, &used);
                if (used == t.size()) return n;
            } catch (...) {
            }
            throw RuleError("invalid literal for int() with base 10: " + repr(v));
        }
        default: throw RuleError("int() argument must be a number, not " + repr(v));
    }
}

Value add(const Value &a, const Value &b, bool minus) {
    bool real = a.tag == Value::FLOAT || b.tag == Value::FLOAT;
    auto num = [](const Value &v) -> bool { return v.tag == Value::BOOL || v.tag == Value::INT || v.tag == Value::FLOAT; };
    if (!num(a) || !num(b)) throw RuleError("cannot add " + repr(b) + " to " + repr(a));
    auto i = [](const Value &v) { return v.tag == Value::BOOL ? int64_t(v.b) : v.i; };
    auto f = [&](const Value &v) { return v.tag == Value::FLOAT ? v.f : double(i(v)); };
    if (real) return Value::real(minus ? f(a) - f(b) : f(a) + f(b));
    return Value::integer(minus ? i(a) - i(b) : i(a) + i(b));
}

// ---- targets (Table.read_target, write_target) ----

Value read_target(Context &ctx, const std::vector<Sym> &target) {
    if (target.size() == 1) return ctx.lookup(target[0]);
    return attribute(*ctx.game, ctx.lookup(target[0]), target.back());
}

std::string dotted(const std::vector<Sym> &target) {
    std::string out;
    for (size_t k = 0; k < target.size(); ++k) out += (k ? "." : "") + text(target[k]);
    return out;
}

void write_target(Context &ctx, const std::vector<Sym> &target, const Value &value) {
    static const Sym TARGET = SYM("target");
    if (target.size() == 1) {
        ctx.assign(target[0], value);
        return;
    }
    Game &g = *ctx.game;
    Value thing = ctx.lookup(target[0]);
    Recs r = record_of(g, thing);
    if (!r.found()) throw RuleError("cannot set `" + dotted(target) + "`");
    if (target.back() == TARGET) {
        if (!(thing.tag == Value::REF && thing.ref.kind == Game::K_CARD && r.rec && r.rec->where == Game::K_PLAY))
            throw RuleError("cannot set `" + dotted(target) + "`: only a card being played or in play has a target");
        if (value.tag != Value::NONE && value.tag != Value::REF)
            throw RuleError("`" + dotted(target) + "` must be something on the table, not " + repr(value));
        if (value.tag == Value::NONE) {
            r.rec->target_kind = r.rec->target_id = 0;
        } else {
            r.rec->target_kind = value.ref.kind;
            r.rec->target_id = value.ref.id;
        }
        return;
    }
    if (r.rec) r.rec->stats[target.back()] = value;
    // (a place's record gets a `stats` table in Python that nothing reads)
}

// ---- helpers of effects.py ----

struct Args {
    Context &ctx;
    const Stmt *s;

    const Expr *find(Sym p) const {
        for (auto &kv : s->args)
            if (kv.first == p) return kv.second;
        return nullptr;
    }
    bool has(Sym p) const {
        for (auto &kv : s->args)
            if (kv.first == p) return true;
        return false;
    }
    Value get(Sym prep, Value fallback = Value()) const {
        const Expr *e = find(prep);
        if (e == nullptr) return has(prep) ? Value() : fallback;
        return eval(ctx, e);
    }
    Sym name(Sym p) const {  // `as NAME`, `into NAME`
        for (size_t k = 0; k < s->args.size(); ++k)
            if (s->args[k].first == p) return s->arg_names[k];
        return 0;
    }
    Value what() const { return s->what ? eval(ctx, s->what) : Value(); }
};

const Value &need(const Value &value, std::initializer_list<Sym> kinds, const char *verb) {
    if (value.tag == Value::REF)
        for (Sym k : kinds)
            if (value.ref.kind == k) return value;
    std::string names;
    size_t n = 0;
    for (Sym k : kinds) names += (n++ ? " or " : "") + text(k);
    throw RuleError(std::string("`") + verb + "` needs a " + names + ", got " + repr(value));
}

std::pair<int64_t, Value> count_and_thing(const Args &a) {
    Value value = a.what();
    if (value.tag == Value::INT) return {value.i, a.get(SYM("of"))};
    return {1, value};
}

std::vector<Value> listed(const Value &v) {  // geometry.listed
    if (v.tag == Value::NONE) return {};
    if (v.tag == Value::LIST) return v.items();
    if (v.tag == Value::DICE) return {Value::str(SYM("dice")), Value::integer(v.dice.count), Value::integer(v.dice.sides)};
    return {v};
}

std::pair<Sym, Value> event_of(const Args &a) {  // effects._event
    Game &g = *a.ctx.game;
    Value named = a.what();
    Sym event = named.tag == Value::STR ? named.s : intern(str(g, named));
    Value params = Value::new_dict();
    if (a.has(SYM("for"))) params.entries()[SYM("unit")] = a.get(SYM("for"));
    if (a.has(SYM("with"))) {
        Value values = a.get(SYM("with"));
        auto found = g.event_names.find(event);
        if (found == g.event_names.end()) {
            std::vector<Sym> names;
            for (auto &b : g.model->system.entries().find(SYM("blocks"))->items()) {
                const Value *kind = b.entries().find(SYM("kind"));
                const Value *id = b.entries().find(SYM("id"));
                if (kind && kind->tag == Value::STR && text(kind->s) == "event" && id && id->tag == Value::STR &&
                    id->s == event) {
                    const Value *props = b.entries().find(SYM("props"));
                    const Value *p = props && props->tag == Value::DICT ? props->entries().find(SYM("params")) : nullptr;
                    if (p && p->tag == Value::STR) names.push_back(p->s);
                    else if (p && p->tag == Value::LIST)
                        for (auto &n : p->items()) names.push_back(n.tag == Value::STR ? n.s : intern(str(g, n)));
                    break;
                }
            }
            found = g.event_names.emplace(event, names).first;
        }
        std::vector<Value> given = values.tag == Value::LIST ? values.items() : std::vector<Value>{values};
        for (size_t k = 0; k < found->second.size() && k < given.size(); ++k) params.entries()[found->second[k]] = given[k];
    }
    return {event, params};
}

}  // namespace

// effects._said: a value of a note, (its plain words, what the log keeps of it)
std::pair<std::string, Value> said(Game &g, const Value &value, Sym stat) {
    if (value.tag == Value::REF) {
        Sym k = value.ref.kind;
        if (k == Game::K_UNIT || k == Game::K_CARD || k == Game::K_BUILDING) {
            Value title;
            try {
                title = attribute(g, value, SYM("name"));
            } catch (const RuleError &) {
            }
            std::string words = truthy(title) ? str(g, title) : text(value.ref.id);
            return {words, Value::str(value.ref.id)};
        }
        return {text(value.ref.id), Value::str(value.ref.id)};
    }
    if (value.tag == Value::NONE) return {"nothing", Value()};
    if (value.tag == Value::BOOL) return {value.b ? "yes" : "no", value};
    if (value.tag == Value::LIST || value.tag == Value::DICE) {
        std::vector<Value> items = listed(value);
        if (stat != 0 && items.size() == 2) {
            auto found = g.model->stats.find(stat);
            const Value *props = found != g.model->stats.end() ? found->second.entries().find(SYM("props")) : nullptr;
            const Value *type = props && props->tag == Value::DICT ? props->entries().find(SYM("type")) : nullptr;
            if (type && type->tag == Value::STR && text(type->s) == "range") {
                std::string words = equal(items[0], items[1]) ? str(g, items[0]) : str(g, items[0]) + "-" + str(g, items[1]);
                return {words, Value::str(words)};
            }
        }
        std::string words;
        std::vector<Value> kept;
        for (size_t k = 0; k < items.size(); ++k) {
            auto part = said(g, items[k], 0);
            words += (k ? ", " : "") + part.first;
            kept.push_back(part.second);
        }
        return {words, Value::new_list(std::move(kept))};
    }
    if (value.tag == Value::INT || value.tag == Value::FLOAT || value.tag == Value::STR) return {str(g, value), value};
    std::string words = str(g, value);
    return {words, Value::str(words)};
}

std::string fill(const std::string &tmpl, const std::vector<std::string> &values) {  // effects.fill
    std::string out;
    size_t start = 0, k = 0;
    while (true) {
        size_t at = tmpl.find("{}", start);
        if (at == std::string::npos) {
            out += tmpl.substr(start);
            return out;
        }
        out += tmpl.substr(start, at - start);
        out += k < values.size() ? values[k] : "{}";
        ++k;
        start = at + 2;
    }
}

void effect(Context &ctx, const Stmt *s) {
    Game &g = *ctx.game;
    Args a{ctx, s};
    switch (s->verb) {
        case Verb::MOVE: {
            Value unit = a.what();
            need(unit, {Game::K_UNIT}, "move");
            Value to = a.get(SYM("to"));
            if (to.tag == Value::NONE) return;
            if (a.has(SYM("by"))) {
                Sym dest = g.space_ref(to).ref.id;
                walk(g, unit.ref.id, dest, a.get(SYM("by")), ctx);
            } else {
                g.move_unit(unit.ref.id, g.space_ref(to).ref.id, ctx);
            }
            return;
        }
        case Verb::PLACE: {
            auto [count, thing] = count_and_thing(a);
            Value where = a.get(SYM("at"));
            if (!truthy(where)) where = a.get(SYM("on"));
            Value at = g.space_ref(where);
            if (thing.tag == Value::REF && thing.ref.kind == Game::K_MARKER) g.mark(at, thing.ref.id, count, ctx);
            else if (thing.tag == Value::REF && thing.ref.kind == Game::K_UNIT) g.move_unit(thing.ref.id, at.ref.id, ctx, false, true);
            else if (thing.tag == Value::REF && thing.ref.kind == Game::K_UNIT_PROTO) g.enter(thing.ref.id, at.ref.id, ctx);
            else g.spawn(need(thing, {Game::K_KIND}, "place").ref.id, at.ref.id, count, ctx, Value());
            return;
        }
        case Verb::SPAWN: {
            auto [count, thing] = count_and_thing(a);
            Sym kind = need(thing, {Game::K_KIND}, "spawn").ref.id;
            Value at = a.get(SYM("at"));
            Value former;
            if (a.has(SYM("from"))) {
                former = a.get(SYM("from"));
                need(former, {Game::K_UNIT}, "spawn … from");
            }
            if (at.tag != Value::LIST) {
                std::vector<Value> made = g.spawn(kind, g.space_ref(at).ref.id, count, ctx, former);
                if (Sym as = a.name(SYM("as")))
                    ctx.set(as, made.size() == 1 ? made[0] : made.empty() ? Value() : Value::new_list(made));
                return;
            }
            const Value &kb = g.model->kind_blocks.at(kind);
            const Value *props = kb.entries().find(SYM("props"));
            const Value *limit = props && props->tag == Value::DICT ? props->entries().find(SYM("pool")) : nullptr;
            if (limit && limit->tag != Value::NONE) {
                int64_t on_board = g.units_on_board(kind);
                count = std::max<int64_t>(0, std::min<int64_t>(count, limit->i - on_board));
            }
            std::vector<Sym> spaces;
            for (auto &s2 : at.items()) spaces.push_back(g.space_ref(s2).ref.id);
            if (spaces.empty()) return;
            std::vector<int64_t> shares = divide_evenly(g, count, spaces);
            // shares by first occurrence of each space (a dict in Python): spaces[i] → shares[index of first]
            std::vector<Sym> unique;
            for (Sym sp : spaces)
                if (std::find(unique.begin(), unique.end(), sp) == unique.end()) unique.push_back(sp);
            for (Sym sp : spaces) {
                size_t at_k = static_cast<size_t>(std::find(unique.begin(), unique.end(), sp) - unique.begin());
                if (shares[at_k]) g.spawn(kind, sp, shares[at_k], ctx, former);
            }
            return;
        }
        case Verb::ENTER: {
            Value kind = a.what();
            need(kind, {Game::K_KIND}, "enter");
            Sym at = g.space_ref(a.get(SYM("at"))).ref.id;
            std::vector<std::pair<Sym, int64_t>> used;
            for (auto &u : g.state.units) {
                auto it = std::find_if(used.begin(), used.end(), [&](auto &p) { return p.first == u.proto; });
                if (it == used.end()) used.emplace_back(u.proto, 1);
                else ++it->second;
            }
            std::vector<const Value *> left;
            for (auto &p : g.model->units) {
                const Value *uk = p.entries().find(SYM("unit_kind"));
                if (!(uk && uk->tag == Value::STR && uk->s == kind.ref.id)) continue;
                Sym id = p.entries().find(SYM("id"))->s;
                int64_t n = 0;
                for (auto &pu : used)
                    if (pu.first == id) n = pu.second;
                const Value *props = p.entries().find(SYM("props"));
                const Value *c = props && props->tag == Value::DICT ? props->entries().find(SYM("count")) : nullptr;
                int64_t copies = c ? to_int(*c) : 1;
                if (n < copies) left.push_back(&p);
            }
            Value unit;
            if (!left.empty()) {
                const Value *proto = left.size() > 1 ? left[static_cast<size_t>(g.chance.randrange(static_cast<int64_t>(left.size())))] : left[0];
                Sym uid = g.add_unit(*proto, at);
                unit = g.unit_ref(uid);
                Value entry = Value::new_dict();
                auto &d = entry.entries();
                d[SYM("type")] = Value::str(SYM("enter"));
                d[SYM("unit")] = Value::str(uid);
                d[SYM("proto")] = *proto->entries().find(SYM("id"));
                d[SYM("space")] = Value::str(at);
                g.log(entry, ctx.rule);
            } else {
                Value entry = Value::new_dict();
                entry.entries()[SYM("type")] = Value::str(SYM("pool_empty"));
                entry.entries()[SYM("kind")] = Value::str(kind.ref.id);
                g.log(entry, ctx.rule);
            }
            if (Sym as = a.name(SYM("as"))) ctx.set(as, unit);
            return;
        }
        case Verb::REMOVE: {
            Value thing = a.what();
            Value where = a.get(SYM("from"));
            if (thing.tag == Value::REF && thing.ref.kind == Game::K_CARD) {
                out_of_piles(g.state, thing.ref.id);
                Rec *c = &g.state.card_of(thing.ref.id);
                if (c == nullptr) throw RuleError("KeyError: " + repr(Value::str(thing.ref.id)));
                set_where(g, *c, Game::K_BOX);
                Value entry = Value::new_dict();
                entry.entries()[SYM("type")] = Value::str(SYM("remove"));
                entry.entries()[SYM("card")] = Value::str(c->proto);
                g.log(entry, ctx.rule);
            } else if (thing.tag == Value::REF && thing.ref.kind == Game::K_MARKER) {
                g.mark(where, thing.ref.id, -1, ctx);
            } else if (thing.tag == Value::REF && thing.ref.kind == Game::K_UNIT) {
                g.take_off(thing.ref.id, ctx);
            } else if (thing.tag == Value::REF && thing.ref.kind == Game::K_KIND && where.tag != Value::NONE) {
                if (where.tag != Value::REF) throw RuleError("cannot remove a unit from " + repr(where));
                std::vector<Value> found = units_in(g, thing.ref.id, &where);  // Table.units(kind, where)[:1]
                if (!found.empty()) g.take_off(found[0].ref.id, ctx);
            }
            return;
        }
        case Verb::WOUND: {
            Value unit = a.what();
            need(unit, {Game::K_UNIT}, "wound");
            g.wound(unit.ref.id, to_int(a.get(SYM("by"), Value::integer(1))), ctx, a.get(SYM("from")));
            return;
        }
        case Verb::HEAL: {
            Value unit = a.what();
            need(unit, {Game::K_UNIT}, "heal");
            g.wound(unit.ref.id, -to_int(a.get(SYM("by"), Value::integer(1))), ctx, Value());
            return;
        }
        case Verb::KILL: {
            Value unit = a.what();
            need(unit, {Game::K_UNIT}, "kill");
            g.kill(unit.ref.id, a.get(SYM("by")), ctx);
            return;
        }
        case Verb::ROLL: {
            Value dice = a.what();
            if (a.has(SYM("of"))) {
                Value of = a.get(SYM("of"));
                if (of.tag != Value::DICE) throw RuleError("`roll N of` needs dice, got " + repr(of));
                int64_t n = std::max<int64_t>(0, to_int(or_zero(dice)));
                dice = Value::make_dice(static_cast<int32_t>(n * of.dice.count), of.dice.sides);
            }
            if (dice.tag != Value::DICE) {
                if (dice.tag == Value::LIST || dice.tag == Value::DICT) throw RuleError("cannot roll " + repr(dice));
                throw RuleError("'" + std::string(dice.tag == Value::INT ? "int" : "NoneType") + "' object is not subscriptable");
            }
            std::vector<int64_t> values;
            if (dice.dice.count > 0) values = ctx.roll(dice, a.get(SYM("for")));
            if (Sym as = a.name(SYM("as"))) {
                int64_t total = 0;
                for (auto v : values) total += v;
                ctx.set(as, Value::integer(total));
            }
            if (Sym into = a.name(SYM("into"))) {
                Value old = ctx.lookup(into);
                std::vector<Value> pool_ = old.tag == Value::LIST ? old.items() : std::vector<Value>{};
                for (auto v : values) pool_.push_back(Value::integer(v));
                ctx.assign(into, Value::new_list(std::move(pool_)));
            }
            return;
        }
        case Verb::DRAW: {
            int64_t count = s->what ? to_int(a.what()) : 1;
            Value deck = a.get(SYM("from"));
            need(deck, {Game::K_DECK}, "draw");
            Value to = a.get(SYM("to"));
            std::vector<Value> drawn = g.draw(deck.ref.id, count, to, ctx);
            if (Sym as = a.name(SYM("as"))) ctx.set(as, drawn.size() == 1 ? drawn[0] : Value::new_list(drawn));
            return;
        }
        case Verb::DISCARD: {
            Value thing = a.what();
            Value source = a.get(SYM("from"));
            if (thing.tag == Value::INT) {
                need(source, {Game::K_DECK}, "discard");
                g.discard_top(source.ref.id, thing.i, ctx);
            } else if (thing.tag == Value::REF && thing.ref.kind == Game::K_CARD) {
                g.discard(thing.ref.id, ctx);
            } else if (thing.tag == Value::REF && thing.ref.kind == Game::K_CARD_PROTO) {
                g.discard_proto(thing.ref.id, source, ctx);
            } else {
                throw RuleError("`discard` needs a card or a number, got " + repr(thing));
            }
            return;
        }
        case Verb::SHUFFLE: {
            Value thing = a.what();
            g.shuffle(thing, a.get(SYM("into")), ctx);
            return;
        }
        case Verb::SEARCH: {
            Value deck = a.what();
            need(deck, {Game::K_DECK}, "search");
            Value found = g.search(deck.ref.id, a.get(SYM("for")), a.get(SYM("to")), ctx);
            if (Sym as = a.name(SYM("as"))) ctx.set(as, found);
            return;
        }
        case Verb::GAIN:
        case Verb::SPEND: {
            bool gain = s->verb == Verb::GAIN;
            Value track = a.get(SYM("of"));
            need(track, {Game::K_TRACK}, gain ? "gain" : "spend");
            int64_t amount = to_int(a.what());
            g.track_add(track.ref.id, gain ? amount : -amount, a.get(gain ? SYM("to") : SYM("from")), ctx);
            return;
        }
        case Verb::ADVANCE: {
            Value track = a.what();
            need(track, {Game::K_TRACK}, "advance");
            g.track_add(track.ref.id, to_int(a.get(SYM("by"), Value::integer(1))), a.get(SYM("for")), ctx);
            return;
        }
        case Verb::SET: write_target(ctx, s->target, a.get(SYM("to"))); return;
        case Verb::FLIP: {
            Value thing = a.what();
            g.flip(thing, a.get(SYM("to")), ctx);
            return;
        }
        case Verb::MARK:
        case Verb::UNMARK: {
            Value thing = a.what();
            Value marker = a.get(SYM("with"));
            need(marker, {Game::K_MARKER}, s->verb == Verb::MARK ? "mark" : "unmark");
            g.mark(thing, marker.ref.id, s->verb == Verb::MARK ? 1 : -1, ctx);
            return;
        }
        case Verb::GIVE: {
            Value card = a.what();
            g.give(card, a.get(SYM("to")), ctx);
            return;
        }
        case Verb::REVEAL: {
            Value entry = Value::new_dict();
            entry.entries()[SYM("type")] = Value::str(SYM("reveal"));
            entry.entries()[SYM("what")] = Value::str(str(g, a.what()));
            g.log(entry, ctx.rule);
            return;
        }
        case Verb::LOG: {
            std::string words = str(g, a.what());
            std::vector<Value> given;
            if (a.has(SYM("with"))) given = listed(a.get(SYM("with")));
            if (g.quiet()) return;  // (what and with worked out all the same: they may roll dice)
            Value entry = Value::new_dict();
            auto &d = entry.entries();
            d[SYM("type")] = Value::str(SYM("note"));
            d[SYM("text")] = Value::str(words);
            std::vector<Value> kept;
            if (a.has(SYM("with"))) {
                std::vector<std::string> plain;
                for (size_t k = 0; k < given.size(); ++k) {
                    auto part = said(g, given[k], k < s->stats.size() ? s->stats[k] : 0);
                    plain.push_back(part.first);
                    kept.push_back(part.second);
                }
                d[SYM("text")] = Value::str(fill(words, plain));
                d[SYM("template")] = Value::str(words);
                d[SYM("with")] = Value::new_list(kept);
            }
            Value unit = ctx.about();
            if (unit.tag != Value::NONE) {
                bool named = false;
                for (auto &v : kept)
                    if (equal(v, unit)) named = true;
                if (!named) d[SYM("unit")] = unit;
            }
            g.log(entry, ctx.rule);
            return;
        }
        case Verb::EMIT: {
            auto [event, params] = event_of(a);
            g.raise_now(event, params);
            return;
        }
        case Verb::QUEUE: {
            auto [event, params] = event_of(a);
            g.emit(event, params);
            return;
        }
        case Verb::PLAY: {
            Value card = a.what();
            need(card, {Game::K_CARD}, "play");
            Value on = a.get(SYM("on")), source = a.get(SYM("from"));
            g.play(card.ref.id, on, source, ctx);
            return;
        }
        case Verb::CANCEL: {
            ctx.cancelled = true;
            Value card;
            if (s->what) {
                card = a.what();
            } else {
                try {
                    Value event = ctx.lookup(Game::K_EVENT);
                    if (event.tag == Value::DICT) {
                        const Value *c = event.entries().find(SYM("card"));
                        if (c) card = *c;
                    }
                } catch (const RuleError &) {
                }
            }
            if (card.tag == Value::REF && card.ref.kind == Game::K_CARD) g.cancel_card(card.ref.id, ctx);
            else if (s->what) throw RuleError("`cancel` needs a card, got " + repr(card));
            return;
        }
        case Verb::END: throw EndAction();
        case Verb::DECLINE: throw Decline();
        case Verb::LOOKUP: {
            Value table = a.what();
            need(table, {Game::K_TABLE}, "lookup");
            Value result = g.look_up(table.ref.id, a.get(SYM("with")), a.get(SYM("at")), a.get(SYM("by"), Value::integer(0)), ctx);
            if (Sym as = a.name(SYM("as"))) ctx.set(as, result);
            return;
        }
        case Verb::RETREAT: {
            Value unit = a.what();
            need(unit, {Game::K_UNIT}, "retreat");
            Value to = a.get(SYM("to"));
            if (to.tag != Value::NONE) g.move_unit(unit.ref.id, g.space_ref(to).ref.id, ctx);
            return;
        }
    }
}

// ---- statements ----------------------------------------------------------------------------------

namespace {

Value by_of(Context &ctx, const Expr *by) { return by ? eval(ctx, by) : Value(); }

void run_choose(Context &ctx, const Stmt *s) {
    Game &g = *ctx.game;
    std::vector<Value> options = select_items(ctx, s->select);
    std::string filled;
    if (s->ask_with) {
        std::vector<std::string> words;
        for (auto &v : listed(eval(ctx, s->ask_with))) words.push_back(said(g, v, 0).first);
        filled = fill(s->label, words);
    }
    const std::string &asked = s->ask_with ? filled : s->label;
    Value picked;
    if (s->prefer == nullptr) {
        Value who = by_of(ctx, s->by);
        picked = g.choose(options, who, s->optional, asked, ctx.rule, nullptr);
    } else {
        Value who = by_of(ctx, s->by);
        Context scope(&g, ctx.rule, &ctx);
        scope.env.emplace_back(s->var, Value());
        ScopeRun run(s, s->memo_size, s->item_size);
        scope.run = &run;
        Advice advice;
        advice.whole = [&](const Value &option) {
            scope.env[0].second = option;
            run.enter();
            return eval(scope, s->prefer);
        };
        if (s->has_parts) {
            advice.nparts = s->parts.size();
            advice.part = [&](size_t k, size_t index, const Value &option) {
                scope.env[0].second = option;
                run.enter_option(index);
                if (!g.profiling) return criterion(eval(scope, s->parts[k]));
                auto start = std::chrono::steady_clock::now();
                double value = criterion(eval(scope, s->parts[k]));
                auto &slot = g.spent[text(ctx.rule ? ctx.rule->title : 0) + ", criterion " + std::to_string(k)];
                slot.first += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                slot.second += 1;
                return value;
            };
        }
        picked = g.choose(options, who, s->optional, asked, ctx.rule, &advice);
    }
    if (picked.tag != Value::NONE) {
        Context child(&g, ctx.rule, &ctx);
        child.env.emplace_back(s->var, picked);
        run_block(child, s->body);
    }
}

void run_choose_option(Context &ctx, const Stmt *s) {
    Game &g = *ctx.game;
    std::vector<Value> labels;
    bool any_prefer = false;
    for (auto &o : s->options) {
        labels.push_back(Value::str(o.label));
        if (o.prefer) any_prefer = true;
    }
    Value who = s->by ? eval(ctx, s->by) : Value();
    Advice advice;
    if (any_prefer) {
        advice.whole = [&](const Value &label) -> Value {
            const Expr *found = nullptr;  // prefers[label]: the last option of that label with a prefer
            for (auto &o : s->options)
                if (o.label == label.s && o.prefer) found = o.prefer;
            return found ? eval(ctx, found) : Value();
        };
    }
    Value picked = g.choose(labels, who, s->optional, "choose an option", ctx.rule, any_prefer ? &advice : nullptr);
    if (picked.tag != Value::NONE) {
        for (auto &o : s->options)  // labels.index(picked): the first option of that label
            if (o.label == picked.s) {
                run_block(ctx, o.body);
                return;
            }
    }
}

}  // namespace

void run_stmt(Context &ctx, const Stmt *s) {
    Game &g = *ctx.game;
    switch (s->kind) {
        case Stmt::DO: effect(ctx, s); return;
        case Stmt::ASSIGN: {
            Value value = eval(ctx, s->value);
            std::string op = text(s->op);
            if (op != "=") {
                Value old = read_target(ctx, s->target);
                value = add(or_zero(old), value, op == "-=");
            }
            write_target(ctx, s->target, value);
            return;
        }
        case Stmt::LET: {
            Value value = eval(ctx, s->value);
            ctx.set(s->var, std::move(value));
            return;
        }
        case Stmt::IF: run_block(ctx, truthy(eval(ctx, s->cond)) ? s->then : s->orelse); return;
        case Stmt::FOR_EACH: {
            std::vector<Value> items = select_items(ctx, s->select);
            for (auto &item : items) {
                Context child(&g, ctx.rule, &ctx);
                child.env.emplace_back(s->var, item);
                run_block(child, s->body);
            }
            return;
        }
        case Stmt::CHOOSE: run_choose(ctx, s); return;
        case Stmt::CHOOSE_OPTION: run_choose_option(ctx, s); return;
        case Stmt::REPEAT: {
            Value count = eval(ctx, s->cond);
            int64_t n = std::max<int64_t>(0, to_int(or_zero(count)));
            for (int64_t k = 0; k < n; ++k) run_block(ctx, s->body);
            return;
        }
        case Stmt::WIN:
        case Stmt::LOSE: {
            Value side = eval(ctx, s->cond);
            g.decide(side, s->kind == Stmt::WIN ? SYM("win") : SYM("lose"), ctx.rule);
            return;
        }
    }
}

void run_block(Context &ctx, const Block &body) {
    for (const Stmt *s : body) run_stmt(ctx, s);
}

}  // namespace spawnpit
