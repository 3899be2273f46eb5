// Expressions (interp.py's meaning of each node) and what things on the table are (table.py): names,
// attributes, `in`/`has`/`is`, selections and the functions rules call.
#include <algorithm>
#include <cmath>
#include <set>

#include "geo.h"
#include "json.h"

namespace spawnpit {

// ---- Python's repr and str, for messages and the log --------------------------------------------

namespace {

void repr_str(std::string &out, const std::string &s) {
    // Python's repr of a str: single quotes unless the text has ' and no "
    bool single = s.find('\'') == std::string::npos || s.find('"') != std::string::npos;
    char q = single ? '\'' : '"';
    out += q;
    for (unsigned char c : s) {
        if (c == static_cast<unsigned char>(q) || c == '\\') { out += '\\'; out += static_cast<char>(c); }
        else if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else out += static_cast<char>(c);
    }
    out += q;
}

void repr_into(std::string &out, const Value &v) {
    switch (v.tag) {
        case Value::NONE: out += "None"; return;
        case Value::BOOL: out += v.b ? "True" : "False"; return;
        case Value::INT: out += std::to_string(v.i); return;
        case Value::FLOAT: append_float_repr(out, v.f); return;
        case Value::STR: repr_str(out, text(v.s)); return;
        case Value::REF:
            out += "Ref(kind=";
            repr_str(out, text(v.ref.kind));
            out += ", id=";
            repr_str(out, text(v.ref.id));
            out += ")";
            return;
        case Value::DICE:
            out += "('dice', " + std::to_string(v.dice.count) + ", " + std::to_string(v.dice.sides) + ")";
            return;
        case Value::LIST: {
            out += "[";
            bool first = true;
            for (auto &item : v.items()) {
                if (!first) out += ", ";
                first = false;
                repr_into(out, item);
            }
            out += "]";
            return;
        }
        case Value::DICT: {
            out += "{";
            bool first = true;
            for (auto &kv : v.entries().items) {
                if (!first) out += ", ";
                first = false;
                repr_str(out, text(kv.first));
                out += ": ";
                repr_into(out, kv.second);
            }
            out += "}";
            return;
        }
    }
}

}  // namespace

std::string repr(const Value &v) {
    std::string out;
    repr_into(out, v);
    return out;
}

std::string str(Game &, const Value &v) {
    if (v.tag == Value::STR) return text(v.s);
    if (v.tag == Value::REF) return text(v.ref.id);
    return repr(v);
}

// ---- numbers and order (interp._arith, _num, the comparisons) ----------------------------------

namespace {

bool is_num(const Value &v) { return v.tag == Value::BOOL || v.tag == Value::INT || v.tag == Value::FLOAT; }
int64_t as_int(const Value &v) { return v.tag == Value::BOOL ? (v.b ? 1 : 0) : v.i; }
double as_float(const Value &v) { return v.tag == Value::FLOAT ? v.f : static_cast<double>(as_int(v)); }

[[noreturn]] void unordered(Op op, const Value &a, const Value &b) {
    static const char *names[] = {"==", "!=", "<", "<=", ">", ">="};
    throw RuleError(std::string("`") + names[static_cast<int>(op)] + "` compares numbers, not " + repr(a) + " and " +
                    repr(b));
}

// Python's a < b for the values rules compare; nullopt-like: throws `unordered` otherwise
bool less(Op op, const Value &a, const Value &b) {
    if (is_num(a) && is_num(b)) {
        if (a.tag == Value::FLOAT || b.tag == Value::FLOAT) return as_float(a) < as_float(b);
        return as_int(a) < as_int(b);
    }
    if (a.tag == Value::STR && b.tag == Value::STR) return text(a.s) < text(b.s);
    if (a.tag == Value::LIST && b.tag == Value::LIST) {
        auto &x = a.items(), &y = b.items();
        for (size_t k = 0; k < x.size() && k < y.size(); ++k)
            if (!equal(x[k], y[k])) return less(op, x[k], y[k]);
        return x.size() < y.size();
    }
    unordered(op, a, b);
}

Value or_zero(const Value &v) { return truthy(v) ? v : Value::integer(0); }

bool order(Op op, const Value &a0, const Value &b0) {
    Value a = or_zero(a0), b = or_zero(b0);
    switch (op) {
        case Op::LT: return less(op, a, b);
        case Op::LE: return !less(op, b, a);
        case Op::GT: return less(op, b, a);
        default: return !less(op, a, b);  // GE
    }
}

Value num(const Value &v) {
    if (v.tag == Value::DICE) throw RuleError("dice must be rolled before they are added: use roll(2D6)");
    if (v.tag == Value::NONE) return Value::integer(0);
    return v;
}

int64_t floordiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

int64_t pymod(int64_t a, int64_t b) {
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

Value arith(Op op, const Value &a, const Value &b) {
    if (is_num(a) && is_num(b)) {
        bool real = a.tag == Value::FLOAT || b.tag == Value::FLOAT;
        switch (op) {
            case Op::ADD: return real ? Value::real(as_float(a) + as_float(b)) : Value::integer(as_int(a) + as_int(b));
            case Op::SUB: return real ? Value::real(as_float(a) - as_float(b)) : Value::integer(as_int(a) - as_int(b));
            case Op::MUL: return real ? Value::real(as_float(a) * as_float(b)) : Value::integer(as_int(a) * as_int(b));
            case Op::DIV: {
                if (!real && as_int(b) != 0 && pymod(as_int(a), as_int(b)) == 0)
                    return Value::integer(floordiv(as_int(a), as_int(b)));
                if (as_float(b) == 0.0) return Value::integer(0);
                return Value::real(as_float(a) / as_float(b));
            }
            default: {  // MOD
                if (!truthy(b)) return Value::integer(0);
                if (!real) return Value::integer(pymod(as_int(a), as_int(b)));
                double x = as_float(a), y = as_float(b);
                double r = std::fmod(x, y);
                if (r != 0.0 && ((r < 0) != (y < 0))) r += y;
                else if (r == 0.0) r = std::copysign(0.0, y);
                return Value::real(r);
            }
        }
    }
    if (op == Op::ADD && a.tag == Value::STR && b.tag == Value::STR) return Value::str(text(a.s) + text(b.s));
    if (op == Op::ADD && a.tag == Value::LIST && b.tag == Value::LIST) {
        std::vector<Value> out = a.items();
        out.insert(out.end(), b.items().begin(), b.items().end());
        return Value::new_list(std::move(out));
    }
    throw RuleError("cannot work out " + repr(a) + " and " + repr(b) + " with an arithmetic operator");
}

}  // namespace

Value plain(Game &g, const Value &v) {
    if (v.tag == Value::REF) {
        if (v.ref.kind == Game::K_TRACK) {
            const Value *found = g.state.tracks.find(v.ref.id);
            return found ? *found : Value::integer(0);
        }
        return Value::str(v.ref.id);
    }
    return v;
}

double criterion(const Value &item) {
    if (is_num(item)) return as_float(item);
    return item.tag == Value::NONE ? 0.0 : 1.0;
}

// ---- records (Table.record) ------------------------------------------------------------------------

namespace {

PlaceRec *place_record(Game &g, std::vector<PlaceRec> &table, std::vector<int32_t> &at, Sym id, bool make) {
    if (id < at.size() && at[id] >= 0) return &table[at[id]];
    if (!make) return nullptr;
    if (at.size() <= id) at.resize(id + 1, -1);
    at[id] = static_cast<int32_t>(table.size());
    table.emplace_back();
    table.back().id = id;
    (void)g;
    return &table.back();
}

}  // namespace

Recs record_of(Game &g, const Value &thing) {
    Recs r;
    if (thing.tag != Value::REF) return r;
    Sym kind = thing.ref.kind;
    if (kind == Game::K_UNIT) r.rec = g.state.unit(thing.ref.id);
    else if (kind == Game::K_CARD) r.rec = g.state.card(thing.ref.id);
    else if (kind == Game::K_SPACE) r.place = place_record(g, g.state.spaces, g.state.space_at, thing.ref.id, true);
    else if (kind == Game::K_BUILDING)
        r.place = place_record(g, g.state.buildings, g.state.building_at, thing.ref.id, true);
    return r;
}

// ---- units on the table (Table.units, located, pool, selection) ----------------------------------

namespace {

bool located(Game &g, const Rec &unit, const Value &where) {
    if (where.ref.kind == Game::K_SPACE) return unit.space == where.ref.id;
    if (where.ref.kind == Game::K_BUILDING) return unit.space != 0 && building_of(g, unit.space) == where.ref.id;
    if (where.ref.kind == Game::K_SIDE) return unit.side == where.ref.id;
    return false;
}

}  // namespace

// !units_in(g, kind, where).empty(), without making the list
bool any_unit_in(Game &g, Sym kind, const Value &where) {
    static const Sym UNIT = SYM("unit");
    if (kind == UNIT) kind = 0;
    for (auto &u : g.state.units)
        if (u.space != 0 && (kind == 0 || u.kind == kind) && located(g, u, where)) return true;
    return false;
}

std::vector<Value> units_in(Game &g, Sym kind, const Value *where) {
    static const Sym UNIT = SYM("unit");
    if (kind == UNIT) kind = 0;
    std::vector<Value> out;
    out.reserve(g.state.units.size());
    if (where == nullptr || where->ref.kind == Game::K_SPACE) {
        for (Sym id : g.unit_ids(kind, where ? where->ref.id : 0, 0)) out.push_back(g.unit_ref(id));
        return out;
    }
    for (auto &u : g.state.units)
        if (u.space != 0 && (kind == 0 || u.kind == kind) && located(g, u, *where)) out.push_back(g.unit_ref(u.id));
    return out;
}

namespace {

std::string slug(const std::string &name) {  // pool's: lower, spaces to _, no '
    std::string out;
    for (char c : name) {
        if (c == ' ') out += '_';
        else if (c == '\'') continue;
        else out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}


}  // namespace

std::vector<Value> pool(Game &g, Sym kind, const Value &source0, bool) {
    static const Sym UNIT = SYM("unit"), SPACE = SYM("space"), ZONE = SYM("zone"),
                     BUILDING = SYM("building"), CARD = SYM("card"), SIDE = SYM("side"),
                     PLAYER = SYM("player");
    const Model &m = *g.model;
    if (source0.tag == Value::LIST) return source0.items();
    Value source = source0;
    if (source.tag == Value::STR) {
        Value found = resolve_place(g, intern(slug(text(source.s))));
        if (found.tag != Value::NONE) source = found;
    }
    if (m.kind_blocks.count(kind) || kind == UNIT) return units_in(g, kind, source.tag == Value::REF ? &source : nullptr);
    if (kind == SPACE || kind == ZONE) {
        const auto &ids = sorted_space_ids(g);
        std::vector<Value> out;
        out.reserve(ids.size());
        if (source.tag == Value::NONE) {
            for (Sym s : ids) out.push_back(Value::make_ref(Game::K_SPACE, s));
            return out;
        }
        Sym inside = source.tag == Value::REF ? source.ref.id : 0;
        for (Sym s : ids)
            if (building_of(g, s) == inside) out.push_back(Value::make_ref(Game::K_SPACE, s));
        return out;
    }
    if (kind == BUILDING) {
        std::vector<Value> out;
        for (Sym b : sorted_building_ids(g)) out.push_back(Value::make_ref(Game::K_BUILDING, b));
        return out;
    }
    if (kind == CARD) {
        std::vector<Value> out;
        if (source.tag == Value::NONE) {
            for (auto &c : g.state.cards) out.push_back(Value::make_ref(Game::K_CARD, c.id));
            return out;
        }
        Sym holder = source.tag == Value::REF ? (source.ref.kind == Game::K_UNIT ? source.ref.id
                                                 : joined(source.ref.kind, ':', source.ref.id))
                                              : intern(str(g, source));
        for (auto &c : g.state.cards)
            if (c.where == holder) out.push_back(Value::make_ref(Game::K_CARD, c.id));
        return out;
    }
    if (kind == SIDE || kind == PLAYER) {
        std::vector<Value> out;
        for (Sym s : m.sides) out.push_back(Value::make_ref(Game::K_SIDE, s));
        return out;
    }
    throw RuleError("cannot range over `" + text(kind) + "`");
}

std::vector<Value> selection(Game &g, const Value &v) {
    if (v.tag == Value::LIST) return v.items();
    if (v.tag == Value::REF) {
        if (v.ref.kind == Game::K_KIND) return units_in(g, v.ref.id, nullptr);
        if (v.ref.kind == Game::K_DECK) {
            std::vector<Value> out;
            Pile *pile = g.state.pile(v.ref.id);
            if (pile == nullptr) throw RuleError("KeyError: " + repr(Value::str(v.ref.id)));
            for (Sym c : pile->draw) out.push_back(Value::str(c));
            return out;
        }
        if (v.ref.kind == Game::K_MARKER) {
            std::vector<Value> out;
            Sym marker = v.ref.id;
            auto marked = [&](const SmallMap &markers) {
                const Value *n = markers.find(marker);
                return n != nullptr && truthy(*n);
            };
            for (auto &u : g.state.units)
                if (marked(u.markers)) out.push_back(Value::str(u.id));
            for (auto &s : g.state.spaces)
                if (marked(s.markers)) out.push_back(Value::str(s.id));
            for (auto &c : g.state.cards)
                if (marked(c.markers)) out.push_back(Value::str(c.id));
            return out;
        }
        if (v.ref.kind == Game::K_SIDE) return units_in(g, 0, &v);
    }
    if (truthy(v)) return {v};
    return {};
}

// ---- has, in, is (Table.has, contains, is_) --------------------------------------------------------

namespace {

bool keyword_or_type(const Rec &r, Sym word) {
    return std::find(r.keywords.begin(), r.keywords.end(), word) != r.keywords.end() || (r.type != 0 && r.type == word);
}

bool marked_or_keyword(const SmallMap &markers, const std::vector<Sym> &keywords, Sym word) {
    const Value *n = markers.find(word);
    if (n != nullptr && truthy(*n)) return true;
    return std::find(keywords.begin(), keywords.end(), word) != keywords.end();
}

}  // namespace

bool table_has(Game &g, const Value &thing, const Value &what) {
    if (what.tag != Value::REF) return false;
    Sym wk = what.ref.kind, wid = what.ref.id;
    bool thing_ref = thing.tag == Value::REF;
    Sym tk = thing_ref ? thing.ref.kind : 0;
    if (thing_ref && (tk == Game::K_UNIT || tk == Game::K_CARD)) {
        Rec *r = tk == Game::K_UNIT ? g.state.unit(thing.ref.id) : g.state.card(thing.ref.id);
        if (wk == Game::K_KEYWORD) return r != nullptr && keyword_or_type(*r, wid);
        if (wk == Game::K_MARKER) return r != nullptr && marked_or_keyword(r->markers, r->keywords, wid);
    }
    if (wk == Game::K_CARD && thing_ref && tk == Game::K_UNIT) {
        Rec *c = g.state.card(wid);
        return c != nullptr && c->where == thing.ref.id;
    }
    if (wk == Game::K_MARKER && thing_ref &&
        (tk == Game::K_UNIT || tk == Game::K_CARD || tk == Game::K_SPACE || tk == Game::K_BUILDING)) {
        Recs r = record_of(g, thing);
        if (r.rec) return marked_or_keyword(r.rec->markers, r.rec->keywords, wid);
        if (r.place) return marked_or_keyword(r.place->markers, r.place->keywords, wid);
        return false;
    }
    if (wk == Game::K_CARD && thing_ref && (tk == Game::K_UNIT || tk == Game::K_SIDE)) {
        Rec *c = g.state.card(wid);
        Sym holder = tk == Game::K_UNIT ? thing.ref.id : joined(tk, ':', thing.ref.id);
        return c != nullptr && c->where == holder;
    }
    if (wk == Game::K_KIND && thing_ref && (tk == Game::K_SPACE || tk == Game::K_BUILDING))
        return any_unit_in(g, wid, thing);
    Recs r = record_of(g, thing);
    if (!r.found()) return false;
    const SmallMap &markers = r.rec ? r.rec->markers : r.place->markers;
    const std::vector<Sym> &keywords = r.rec ? r.rec->keywords : r.place->keywords;
    if (wk == Game::K_MARKER) return marked_or_keyword(markers, keywords, wid);
    if (wk == Game::K_KEYWORD)
        return std::find(keywords.begin(), keywords.end(), wid) != keywords.end() ||
               (r.rec != nullptr && r.rec->type != 0 && r.rec->type == wid);
    if (wk == Game::K_KIND) return std::find(keywords.begin(), keywords.end(), wid) != keywords.end();
    if (wk == Game::K_CARD_PROTO && thing_ref && tk == Game::K_UNIT) {
        for (auto &c : g.state.cards)
            if (c.proto == wid && c.where == thing.ref.id) return true;
        return false;
    }
    if (wk == Game::K_MODE) {
        const Value &mode = r.rec ? r.rec->mode : r.place->mode;
        return mode.tag == Value::STR && mode.s == wid;
    }
    return false;
}

bool table_contains(Game &g, const Value &container, const Value &item) {
    if (container.tag == Value::LIST) {
        ListObj &list = *container.list;
        if (item.tag == Value::REF && list.items.size() > 8) {
            if (!list.refs_set || list.refs_size != list.items.size()) {
                bool all_refs = true;
                for (auto &x : list.items)
                    if (x.tag != Value::REF) all_refs = false;
                if (all_refs) {
                    list.refs_set = std::make_unique<std::unordered_set<uint64_t>>();
                    for (auto &x : list.items)
                        list.refs_set->insert((static_cast<uint64_t>(x.ref.kind) << 32) | x.ref.id);
                    list.refs_size = list.items.size();
                }
            }
            if (list.refs_set && list.refs_size == list.items.size())
                return list.refs_set->count((static_cast<uint64_t>(item.ref.kind) << 32) | item.ref.id) > 0;
        }
        for (auto &x : list.items)
            if (equal(item, x)) return true;
        return false;
    }
    if (item.tag == Value::REF && item.ref.kind == Game::K_UNIT && container.tag == Value::REF) {
        Rec *u = g.state.unit(item.ref.id);
        if (u == nullptr) throw RuleError("KeyError: " + repr(Value::str(item.ref.id)));
        return located(g, *u, container);
    }
    if (item.tag == Value::REF && item.ref.kind == Game::K_KIND && container.tag == Value::REF)
        return any_unit_in(g, item.ref.id, container);
    return false;
}

bool table_is(Game &g, const Value &thing, const Value &what) {
    Recs r = record_of(g, thing);
    if (!r.found() || what.tag != Value::REF) return equal(thing, what);
    Sym wk = what.ref.kind, wid = what.ref.id;
    if (r.place) {  // a place's record holds markers (and a mode, once flipped) only
        if (wk == Game::K_MODE) return r.place->mode.tag == Value::STR && r.place->mode.s == wid;
        if (wk == Game::K_KIND || wk == Game::K_SIDE || wk == Game::K_MODE || wk == Game::K_CARD_PROTO ||
            wk == Game::K_UNIT_PROTO || wk == Game::K_MARKER)
            return false;
        return equal(thing, what);
    }
    const Rec &rec = *r.rec;
    if (wk == Game::K_KIND) return rec.kind != 0 && rec.kind == wid;
    if (wk == Game::K_SIDE) return rec.side != 0 && rec.side == wid;
    if (wk == Game::K_MODE) return rec.mode.tag == Value::STR && rec.mode.s == wid;
    if (wk == Game::K_CARD_PROTO || wk == Game::K_UNIT_PROTO || wk == Game::K_MARKER) return rec.proto == wid;
    return equal(thing, what);
}

// ---- attributes (Table.attribute, _record_attribute, _space_attribute) ----------------------------

namespace {

Value stat_default(Game &g, Sym proto, Sym name) {  // Model.stat_default
    const Model &m = *g.model;
    if (proto != 0) {
        auto found = m.protos.find(proto);
        if (found != m.protos.end()) {
            const Value *props = found->second.entries().find(SYM("props"));
            if (props && props->tag == Value::DICT) {
                const Value *v = props->entries().find(name);
                if (v) return *v;
            }
        }
    }
    auto stat = m.stats.find(name);
    if (stat == m.stats.end()) return Value();
    const Value *props = stat->second.entries().find(SYM("props"));
    if (!props || props->tag != Value::DICT) return Value();
    const Value *v = props->entries().find(SYM("default"));
    return v ? *v : Value();
}

Value title_of(Game &g, Sym proto) {  // Model.title_of
    const Model &m = *g.model;
    auto found = m.protos.find(proto);
    if (found == m.protos.end()) return Value();
    const Value *title = found->second.entries().find(SYM("title"));
    if (title && truthy(*title)) return *title;
    return *found->second.entries().find(SYM("id"));
}

Value building_ref(Game &g, Sym space) {
    Sym b = space != 0 ? building_of(g, space) : 0;
    return b ? Value::make_ref(Game::K_BUILDING, b) : Value();
}

Value record_attribute(Game &g, Rec &r, Sym name) {
    static const Sym SPACE = SYM("space"), SIDE = SYM("side"), KIND = SYM("kind"), MODE = SYM("mode"),
                     OWNER = SYM("owner"), NAME = SYM("name"), DECK = SYM("deck"),
                     BUILDING = SYM("building"), LAST_SPACE = SYM("last_space"), TARGET = SYM("target"),
                     PLAYED = SYM("played"), WOUNDS = SYM("wounds"), TYPE = SYM("type");
    auto sym_field = [&](Sym value, Sym kind) -> Value {
        if (value == 0) return Value();
        return Value::make_ref(kind, value);
    };
    if (name == SPACE) return r.is_card ? Value() : sym_field(r.space, Game::K_SPACE);
    if (name == SIDE) return r.is_card ? Value() : sym_field(r.side, Game::K_SIDE);
    if (name == KIND) return r.is_card ? Value() : sym_field(r.kind, Game::K_KIND);
    if (name == MODE) return r.mode;
    if (name == OWNER) return r.is_card ? sym_field(r.where, Game::K_UNIT) : Value();
    if (name == DECK) return r.is_card ? sym_field(r.deck, Game::K_DECK) : Value();
    if (name == NAME) return r.name.tag != Value::NONE ? r.name : title_of(g, r.proto);
    if (name == BUILDING) return building_ref(g, r.is_card ? 0 : r.space);
    if (name == LAST_SPACE) {
        Sym where = r.space != 0 ? r.space : r.last_space;
        return where ? Value::make_ref(Game::K_SPACE, where) : Value();
    }
    if (name == TARGET) return r.target_kind ? Value::make_ref(r.target_kind, r.target_id) : Value();
    if (name == PLAYED) return Value::boolean(r.is_card && r.where == Game::K_PLAY);
    if (name == WOUNDS) return Value::integer(r.is_card ? 0 : r.wounds);
    if (name == TYPE) return r.type ? Value::str(r.type) : Value();
    if (const Value *v = r.stats.find(name)) return *v;
    if (const Value *v = r.tracks.find(name)) return *v;
    return stat_default(g, r.proto, name);
}

Value place_record_attribute(Game &g, PlaceRec &r, Sym name) {
    // a space's or building's record ({"markers": {...}}) read as _record_attribute reads a record
    static const Sym NAME = SYM("name"), BUILDING = SYM("building"), PLAYED = SYM("played"),
                     WOUNDS = SYM("wounds");
    if (name == NAME) return Value();  // record.get("name") is None, title_of(None) is None
    if (name == BUILDING) return Value();
    if (name == PLAYED) return Value::boolean(false);
    if (name == WOUNDS) return Value::integer(0);
    (void)g;
    (void)r;
    return Value();
}

}  // namespace

Value attribute(Game &g, const Value &thing, Sym name) {
    static const Sym UNITS = SYM("units"), SPAWN = SYM("spawn"), START = SYM("start"),
                     OBJECTIVE = SYM("objective"), BOARD = SYM("board"), NAME = SYM("name"),
                     HAND = SYM("hand"), SIZE = SYM("size"), TOP = SYM("top"), DISCARD = SYM("discard"),
                     BUILDING = SYM("building");
    if (thing.tag == Value::NONE) return Value();
    if (thing.tag == Value::DICT) {
        const Value *v = thing.entries().find(name);
        return v ? *v : Value();
    }
    if (thing.tag == Value::REF) {
        Sym kind = thing.ref.kind, id = thing.ref.id;
        if (kind == Game::K_UNIT) {
            if (Rec *r = g.state.unit(id)) return record_attribute(g, *r, name);
        } else if (kind == Game::K_CARD) {
            if (Rec *r = g.state.card(id)) return record_attribute(g, *r, name);
        } else if (kind == Game::K_BOARD) {
            return Value::make_ref(Game::K_SPACE, intern(text(id) + "." + text(name)));
        } else if (kind == Game::K_SPACE) {
            if (name == BUILDING) return building_ref(g, id);
            if (name == UNITS) return Value::new_list(units_in(g, 0, &thing));
            if (g.board != nullptr && (name == SPAWN || name == START || name == OBJECTIVE))
                return Value::boolean(name == SPAWN ? is_spawn(g, id) : name == START ? is_start(g, id) : is_objective(g, id));
            if (name == BOARD) return board_part(g, id);
            if (name == NAME && g.board != nullptr) return space_title(g, id);
            return space_property(g, id, name);
        } else if (kind == Game::K_BUILDING) {
            return building_attribute(g, id, name);
        } else if (kind == Game::K_DECK) {
            Pile *pile = g.state.pile(id);
            if (pile == nullptr) throw RuleError("KeyError: " + repr(Value::str(id)));
            if (name == HAND) {
                auto found = g.model->decks.find(id);
                if (found == g.model->decks.end()) return Value::integer(0);
                const Value *props = found->second.entries().find(SYM("props"));
                const Value *hand = props && props->tag == Value::DICT ? props->entries().find(HAND) : nullptr;
                return hand ? *hand : Value::integer(0);
            }
            if (name == SIZE) return Value::integer(static_cast<int64_t>(pile->draw.size()));
            if (name == TOP) return pile->draw.empty() ? Value() : Value::make_ref(Game::K_CARD, pile->draw.back());
            if (name == DISCARD) {
                std::vector<Value> out;
                for (Sym c : pile->discard) out.push_back(Value::make_ref(Game::K_CARD, c));
                return Value::new_list(std::move(out));
            }
            return Value();
        } else if (kind == Game::K_TRACK) {
            const Value *v = g.state.tracks.find(id);
            return v ? *v : Value();
        }
    }
    Recs r = record_of(g, thing);
    if (r.rec) return record_attribute(g, *r.rec, name);
    if (r.place) return place_record_attribute(g, *r.place, name);
    throw RuleError(repr(thing) + " has no `" + text(name) + "`");
}

// ---- where things are (table._space, interp._where) ----------------------------------------------

Sym space_id_of(Game &g, const Value &thing) {  // table._space
    if (thing.tag == Value::REF && thing.ref.kind == Game::K_SPACE) return thing.ref.id;
    Recs r = record_of(g, thing);
    if (r.rec && !r.rec->is_card && r.rec->space != 0) return r.rec->space;
    throw RuleError(repr(thing) + " is not on the board");
}

// ---- the functions (interp.FUNCTIONS, table.py's) ----------------------------------------------

namespace {

std::vector<Value> dice_of(const Value &pool) {  // interp._dice
    if (pool.tag == Value::LIST) return pool.items();
    if (pool.tag == Value::NONE) return {};
    return {pool};
}

Value extreme(const std::vector<Value> &xs, bool want_max) {  // min(xs) / max(xs): the first of the best
    if (xs.empty()) return Value::integer(0);
    Value best = xs[0];
    for (size_t k = 1; k < xs.size(); ++k) {
        bool better = want_max ? less(Op::GT, best, xs[k]) : less(Op::LT, xs[k], best);
        if (better) best = xs[k];
    }
    return best;
}

Value from_distance(double d) {
    if (std::isinf(d)) return Value::real(d);
    return Value::integer(static_cast<int64_t>(d));
}

bool within(const Value &value, const Value &spec) {  // table.within
    if (value.tag == Value::INT && spec.tag == Value::LIST && spec.items().size() == 2) {
        auto &s = spec.items();
        if (s[0].tag == Value::INT && s[1].tag == Value::INT) return s[0].i <= value.i && value.i <= s[1].i;
    }
    if (value.tag == Value::NONE || spec.tag == Value::NONE || value.tag == Value::BOOL) return false;
    if (spec.tag == Value::STR) {
        const std::string &t = text(spec.s);
        if (t.size() > 1 && t.back() == '+' &&
            std::all_of(t.begin(), t.end() - 1, [](char c) { return c >= '0' && c <= '9'; }))
            return !less(Op::GE, value, Value::integer(std::stoll(t.substr(0, t.size() - 1))));
    }
    if (spec.tag == Value::LIST || spec.tag == Value::DICE) {
        if (spec.tag == Value::LIST) {
            auto &s = spec.items();
            if (s.size() == 2 && (s[0].tag == Value::INT || s[0].tag == Value::BOOL) &&
                (s[1].tag == Value::INT || s[1].tag == Value::BOOL))
                return !less(Op::LE, value, s[0]) && !less(Op::LE, s[1], value);
            for (auto &x : s)
                if (equal(value, x)) return true;
            return false;
        }
        return equal(value, Value::str("dice")) || equal(value, Value::integer(spec.dice.count)) ||
               equal(value, Value::integer(spec.dice.sides));
    }
    return equal(value, spec);
}

}  // namespace

Value call(Context &ctx, const Expr *e);

Value call(Context &ctx, const Expr *e) {
    Game &g = *ctx.game;
    auto arg = [&](size_t k) { return eval(ctx, e->args[k]); };
    size_t n = e->args.size();
    auto need = [&](size_t k) {
        if (n != k) throw RuleError("a function was given " + std::to_string(n) + " arguments where it takes " + std::to_string(k));
    };
    switch (e->fn) {
        case Fn::COUNT: {
            need(1);
            Value v = arg(0);
            if (v.tag == Value::LIST) return Value::integer(static_cast<int64_t>(v.items().size()));
            return Value::integer(static_cast<int64_t>(selection(g, v).size()));
        }
        case Fn::ANY: {
            need(1);
            Value v = arg(0);
            if (v.tag == Value::LIST) return Value::boolean(!v.items().empty());
            return Value::boolean(!selection(g, v).empty());
        }
        case Fn::ALL: {
            need(1);
            for (auto &x : selection(g, arg(0)))
                if (!truthy(x)) return Value::boolean(false);
            return Value::boolean(true);
        }
        case Fn::ROLL: {
            need(1);
            auto values = ctx.roll(arg(0), Value());
            int64_t total = 0;
            for (auto v : values) total += v;
            return Value::integer(total);
        }
        case Fn::MIN:
        case Fn::MAX: {
            std::vector<Value> xs;
            for (size_t k = 0; k < n; ++k) xs.push_back(arg(k));
            return extreme(xs, e->fn == Fn::MAX);
        }
        case Fn::RANDOM: {
            need(1);
            auto items = selection(g, arg(0));
            if (items.empty()) return Value();
            return items[g.chance.choice_index(items.size())];
        }
        case Fn::DISTANCE:
        case Fn::ADJACENT: {
            need(2);
            Value a = arg(0), b = arg(1);
            double d = g.board ? between(g, space_id_of(g, a), space_id_of(g, b), WALKING) : 0.0;
            if (!g.board) {
                space_id_of(g, a);
                space_id_of(g, b);
            }
            return e->fn == Fn::ADJACENT ? Value::boolean(d == 1.0) : from_distance(d);
        }
        case Fn::SIGHT: {
            need(2);
            Value a = arg(0), b = arg(1);
            Sym sa = a.tag == Value::REF && a.ref.kind == Game::K_SPACE ? a.ref.id : space_id_of(g, a);
            Sym sb = b.tag == Value::REF && b.ref.kind == Game::K_SPACE ? b.ref.id : space_id_of(g, b);
            if (g.board == nullptr) return Value::boolean(true);
            return Value::boolean(sight(g, sa, sb));
        }
        case Fn::STAT: {
            need(2);
            Value unit = arg(0), name = arg(1);
            Sym stat = name.tag == Value::REF ? name.ref.id : name.tag == Value::STR ? name.s : intern(str(g, name));
            return attribute(g, unit, stat);
        }
        case Fn::LIST: need(1); return Value::new_list(selection(g, arg(0)));
        case Fn::HIGHEST:
        case Fn::LOWEST: {
            need(1);
            auto dice = dice_of(arg(0));
            return extreme(dice, e->fn == Fn::HIGHEST);
        }
        case Fn::DOUBLES: {
            need(1);
            auto dice = dice_of(arg(0));
            for (size_t a = 0; a < dice.size(); ++a)
                for (size_t b = a + 1; b < dice.size(); ++b)
                    if (equal(dice[a], dice[b])) return Value::boolean(true);
            return Value::boolean(false);
        }
        case Fn::DICE: need(1); return Value::integer(static_cast<int64_t>(dice_of(arg(0)).size()));
        case Fn::BELOW: {
            need(2);
            auto dice = dice_of(arg(0));
            Value limit = arg(1);
            std::vector<Value> out;
            for (auto &d : dice)
                if (less(Op::LT, d, limit)) out.push_back(d);
            return Value::new_list(std::move(out));
        }
        case Fn::REACH: {
            need(2);
            Value unit = arg(0), count = arg(1);
            if (unit.tag != Value::REF) throw RuleError("reach needs a unit, got " + repr(unit));
            return Value::new_list(reach(g, unit.ref.id, count));
        }
        case Fn::STEPS: {
            need(2);
            Value unit = arg(0), place = arg(1);
            Sym to = place.tag == Value::REF && place.ref.kind == Game::K_SPACE ? place.ref.id : g.space_ref(place).ref.id;
            if (unit.tag != Value::REF) throw RuleError("steps needs a unit, got " + repr(unit));
            return from_distance(steps(g, unit.ref.id, to));
        }
        case Fn::ROUTE: {
            need(3);
            Value unit = arg(0), a = arg(1), b = arg(2);
            Sym from = a.tag == Value::REF && a.ref.kind == Game::K_SPACE ? a.ref.id : g.space_ref(a).ref.id;
            Sym to = b.tag == Value::REF && b.ref.kind == Game::K_SPACE ? b.ref.id : g.space_ref(b).ref.id;
            if (unit.tag != Value::REF) throw RuleError("route needs a unit, got " + repr(unit));
            return from_distance(route(g, unit.ref.id, from, to));
        }
        case Fn::NEAREST: {
            need(2);
            Value place = arg(0);
            auto things = selection(g, arg(1));
            Sym here = space_id_of(g, place);
            std::vector<Sym> theres;
            for (auto &t : things) {
                if (t.tag == Value::REF && t.ref.kind == Game::K_SPACE) {
                    theres.push_back(t.ref.id);
                } else if (t.tag == Value::REF && t.ref.kind == Game::K_UNIT) {
                    Rec *u = g.state.unit(t.ref.id);
                    if (u != nullptr && u->space != 0) theres.push_back(u->space);
                } else {
                    try {
                        theres.push_back(space_id_of(g, t));
                    } catch (const RuleError &) {
                    }
                }
            }
            if (theres.empty()) return Value::real(INF);
            if (g.board == nullptr) return Value::integer(0);
            return from_distance(nearest(g, here, theres));
        }
        case Fn::WITHIN: need(2); { Value a = arg(0), b = arg(1); return Value::boolean(within(a, b)); }
        case Fn::SEARCH_CARD: {
            need(1);
            Value card = arg(0);
            if (!(card.tag == Value::REF && (card.ref.kind == Game::K_CARD || card.ref.kind == Game::K_CARD_PROTO)))
                return Value::boolean(false);
            if (card.ref.kind == Game::K_CARD_PROTO) return Value::boolean(is_search_card(g, card.ref.id));
            Rec *r = g.state.card(card.ref.id);
            return Value::boolean(r != nullptr && is_search_card(g, r->proto));
        }
        case Fn::POOL_LEFT: {
            need(1);
            Value kind = arg(0);
            Sym name = kind.tag == Value::REF ? kind.ref.id : kind.tag == Value::STR ? kind.s : 0;
            auto found = g.model->kind_blocks.find(name);
            if (found == g.model->kind_blocks.end()) throw RuleError("`pool_left` needs a unit kind, not " + repr(kind));
            const Value *props = found->second.entries().find(SYM("props"));
            const Value *limit = props && props->tag == Value::DICT ? props->entries().find(SYM("pool")) : nullptr;
            if (limit == nullptr || limit->tag == Value::NONE) return Value::real(INF);
            int64_t left = as_int(*limit) - static_cast<int64_t>(units_in(g, name, nullptr).size());
            return Value::integer(std::max<int64_t>(0, left));
        }
        case Fn::APART: {
            need(2);
            Value a = arg(0), b = arg(1);
            if (g.board == nullptr) return Value::integer(0);
            return from_distance(between(g, space_id_of(g, a), space_id_of(g, b), EVERYTHING));
        }
        case Fn::EDGE: {
            need(2);
            Value a = arg(0), b = arg(1);
            if (g.board == nullptr) return Value();
            return edge(g, space_id_of(g, a), space_id_of(g, b));
        }
        case Fn::NEIGHBOURS: {
            need(1);
            Value place = arg(0);
            if (g.board == nullptr) return Value::new_list();
            return Value::new_list(neighbours(g, space_id_of(g, place)));
        }
    }
    throw RuleError("a function the core does not know");
}

// ---- evaluation ----------------------------------------------------------------------------------

namespace {

Value binary(Context &ctx, const Expr *e) {
    Game &g = *ctx.game;
    Op op = e->ops[0];
    switch (op) {
        case Op::HAS: {
            Value a = eval(ctx, e->args[0]), b = eval(ctx, e->args[1]);
            return Value::boolean(table_has(g, a, b));
        }
        case Op::IN:
        case Op::NOT_IN: {  // the container first
            Value container = eval(ctx, e->args[1]);
            Value item = eval(ctx, e->args[0]);
            bool found = table_contains(g, container, item);
            return Value::boolean(op == Op::IN ? found : !found);
        }
        case Op::IS: {
            Value a = eval(ctx, e->args[0]), b = eval(ctx, e->args[1]);
            return Value::boolean(table_is(g, a, b));
        }
        case Op::EQ:
        case Op::NE: {
            Value a = eval(ctx, e->args[0]), b = eval(ctx, e->args[1]);
            bool same = equal(plain(g, a), plain(g, b));
            return Value::boolean(op == Op::EQ ? same : !same);
        }
        case Op::LT:
        case Op::LE:
        case Op::GT:
        case Op::GE: {
            Value a = eval(ctx, e->args[0]), b = eval(ctx, e->args[1]);
            return Value::boolean(order(op, plain(g, a), plain(g, b)));
        }
        default: {
            Value a = eval(ctx, e->args[0]);
            if (op == Op::MUL && e->skips &&
                (a.tag == Value::NONE || ((a.tag == Value::INT || a.tag == Value::BOOL) && as_int(a) == 0)))
                return Value::integer(0);
            Value b = eval(ctx, e->args[1]);
            return arith(op, num(plain(g, a)), num(plain(g, b)));
        }
    }
}

bool compare(Game &g, Op op, const Value &left, const Value &right) {  // Table.compare
    switch (op) {
        case Op::IN: return table_contains(g, right, left);
        case Op::NOT_IN: return !table_contains(g, right, left);
        case Op::HAS: return table_has(g, left, right);
        case Op::IS: return table_is(g, left, right);
        case Op::EQ: return equal(plain(g, left), plain(g, right));
        case Op::NE: return !equal(plain(g, left), plain(g, right));
        default: return order(op, plain(g, left), plain(g, right));
    }
}

Value chain(Context &ctx, const Expr *e) {
    if (e->ops.size() == 1) return binary(ctx, e);
    Game &g = *ctx.game;
    Value left = eval(ctx, e->args[0]);
    Value result = left;
    for (size_t k = 0; k < e->ops.size(); ++k) {
        Op op = e->ops[k];
        Value right = eval(ctx, e->args[k + 1]);
        if (is_comparison(op)) {
            if (!compare(g, op, left, right)) return Value::boolean(false);
            result = Value::boolean(true);
            left = right;
        } else {
            result = arith(op, num(plain(g, left)), num(plain(g, right)));
            left = result;
        }
    }
    return result;
}

}  // namespace

// interp._select_near: the units of a kind within N moves of PLACE, in table order, read off the board
static bool select_near(Context &ctx, const Expr *e, std::vector<Value> &out) {
    Game &g = *ctx.game;
    if (g.board == nullptr) return false;
    Value n = eval(ctx, e->args[3]);
    if (n.tag != Value::INT && n.tag != Value::FLOAT) return false;
    static const Sym UNIT = SYM("unit");
    Sym kind = e->name == UNIT ? 0 : e->name;
    bool any = false;
    for (auto &u : g.state.units)
        if (u.space != 0 && (kind == 0 || u.kind == kind)) {
            any = true;
            break;
        }
    if (!any) return true;  // nothing to be near: PLACE not worked out
    Value place = eval(ctx, e->args[2]);
    Sym to = place.tag == Value::REF && place.ref.kind == Game::K_SPACE ? place.ref.id : g.space_ref(place).ref.id;
    double limit = n.tag == Value::INT ? static_cast<double>(n.i) : n.f;
    for (auto &u : g.state.units) {
        if (u.space == 0 || (kind != 0 && u.kind != kind)) continue;
        double d = between(g, u.space, to, kind_through(g, u.kind));
        if (std::isinf(d)) continue;
        if (d < limit || (e->near_inclusive && d == limit)) out.push_back(g.unit_ref(u.id));
    }
    return true;
}

std::vector<Value> select_items(Context &ctx, const Expr *e) {
    Game &g = *ctx.game;
    if (e->near) {
        std::vector<Value> out;
        if (select_near(ctx, e, out)) return out;
    }
    Value source = e->args[0] ? eval(ctx, e->args[0]) : Value();
    std::vector<Value> items = pool(g, e->name, source, e->args[0] != nullptr);
    const Expr *where = e->args[1];
    if (where == nullptr || items.empty()) return items;
    Context scope(&g, ctx.rule, &ctx);
    scope.env.emplace_back(e->var, Value());
    ScopeRun run(e, e->memo_size, e->item_size);
    scope.run = &run;
    std::vector<Value> out;
    out.reserve(e->first ? 1 : items.size());
    for (auto &item : items) {
        scope.env[0].second = item;
        run.enter();
        if (truthy(eval(scope, where))) {
            out.push_back(item);
            if (e->first) break;
        }
    }
    return out;
}

static Value work_out(Context &ctx, const Expr *e);

Value eval(Context &ctx, const Expr *e) {
    if (e->item_scope != nullptr) {
        for (Context *c = &ctx; c != nullptr; c = c->parent) {
            ScopeRun *run = c->run;
            if (run == nullptr || run->key != e->item_scope) continue;
            size_t slot = static_cast<size_t>(e->item_slot);
            if (!run->cur_have[slot]) {
                Value v = work_out(ctx, e);
                run->cur_memo[slot] = v;  // (cur_memo may have been moved by nothing: items are bound one at a time)
                run->cur_have[slot] = 1;
                return v;
            }
            return run->cur_memo[slot];
        }
    }
    if (e->memo_scope != nullptr) {
        for (Context *c = &ctx; c != nullptr; c = c->parent) {
            ScopeRun *run = c->run;
            if (run == nullptr || run->key != e->memo_scope) continue;
            size_t slot = static_cast<size_t>(e->memo_slot);
            if (!run->have[slot]) {
                run->memo[slot] = work_out(ctx, e);
                run->have[slot] = 1;
            }
            return run->memo[slot];
        }
    }
    return work_out(ctx, e);
}

static Value work_out(Context &ctx, const Expr *e) {
    switch (e->kind) {
        case Expr::LIT: return e->lit;
        case Expr::NAME: return ctx.lookup(e->name);
        case Expr::ATTR: {
            Value thing = eval(ctx, e->args[0]);
            return attribute(*ctx.game, thing, e->name);
        }
        case Expr::CALL: return call(ctx, e);
        case Expr::LIST: {
            std::vector<Value> out;
            out.reserve(e->args.size());
            for (auto *item : e->args) out.push_back(eval(ctx, item));
            return Value::new_list(std::move(out));
        }
        case Expr::NOT: return Value::boolean(!truthy(eval(ctx, e->args[0])));
        case Expr::NEG: {
            Value v = eval(ctx, e->args[0]);
            if (v.tag == Value::INT || v.tag == Value::BOOL) return Value::integer(-as_int(v));
            if (v.tag == Value::FLOAT) return Value::real(-v.f);
            throw RuleError("bad operand type for unary -: " + repr(v));
        }
        case Expr::AND:
            for (auto *a : e->args)
                if (!truthy(eval(ctx, a))) return Value::boolean(false);
            return Value::boolean(true);
        case Expr::OR:
            for (auto *a : e->args)
                if (truthy(eval(ctx, a))) return Value::boolean(true);
            return Value::boolean(false);
        case Expr::CHAIN: return chain(ctx, e);
        case Expr::SELECT: return Value::new_list(select_items(ctx, e));
        case Expr::KIND_IN_PLACE: {
            Value what = eval(ctx, e->args[0]);
            if (what.tag == Value::REF && what.ref.kind == Game::K_KIND) {
                Value place = eval(ctx, e->args[1]);
                return Value::new_list(pool(*ctx.game, what.ref.id, place, true));
            }
            return eval(ctx, e->args[2]);
        }
    }
    throw RuleError("an expression the core cannot work out");
}

}  // namespace spawnpit
