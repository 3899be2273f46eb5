// The table itself (world.py) and its cards (decks.py): units coming, moving, wounded and killed;
// markers and tracks; decks drawn, discarded, shuffled and searched; cards given, played and cancelled.
#include <algorithm>

#include "geo.h"

namespace spawnpit {

namespace {

Value entry_of(Sym type) {
    Value e = Value::new_dict();
    e.entries()[SYM("type")] = Value::str(type);
    return e;
}

void put(Value &entry, Sym key, Value v) { entry.entries()[key] = std::move(v); }

Value sym_or_none(Sym s) { return s ? Value::str(s) : Value(); }

const Value &props_of(const Value &obj) {
    static const Value none;
    if (obj.tag != Value::DICT) return none;
    const Value *p = obj.entries().find(SYM("props"));
    return p && p->tag == Value::DICT ? *p : none;
}

const Value *prop(const Value &obj, Sym key) {
    const Value &p = props_of(obj);
    return p.tag == Value::DICT ? p.entries().find(key) : nullptr;
}

bool off_table(Sym where) { return where == Game::K_DECK_W || where == Game::K_DISCARD || where == Game::K_BOX; }

Sym holder(Game &g, const Value &to) {  // decks._holder
    if (to.tag == Value::REF) return to.ref.kind == Game::K_UNIT ? to.ref.id : joined(to.ref.kind, ':', to.ref.id);
    if (to.tag == Value::NONE) return SYM("table");
    return intern(str(g, to));
}

void remove_first(std::vector<Sym> &list, Sym item) {
    auto it = std::find(list.begin(), list.end(), item);
    if (it != list.end()) list.erase(it);
}

bool contains(const std::vector<Sym> &list, Sym item) { return std::find(list.begin(), list.end(), item) != list.end(); }

void drop_play_keys(Rec &r) {  // decks._PLAY_KEYS
    r.status = 0;
    r.target_kind = r.target_id = 0;
    r.cancelled = false;
}

}  // namespace

bool out_of_piles(State &state, Sym card) {
    bool seen = false;
    for (auto &pile : state.decks) {
        if (contains(pile.draw, card)) remove_first(pile.draw, card);
        if (contains(pile.discard, card)) {
            remove_first(pile.discard, card);
            seen = true;
        }
    }
    return seen;
}

void set_where(Game &g, Rec &card, Sym where) {
    card.where = where;
    ++g.state.cards_version;
}

void set_space(Game &g, Rec &unit, Sym space) {
    unit.space = space;
    (void)g;
}

bool is_search_card(Game &g, Sym proto) {  // table.search_card: the scenario's names, slugged by Python
    auto &wanted = g.model->search_cards;
    return std::find(wanted.begin(), wanted.end(), proto) != wanted.end();
}

Rec &State::unit_of(Sym id) {
    Rec *r = unit(id);
    if (r == nullptr) throw RuleError("KeyError: " + repr(Value::str(id)) + " (no such unit)");
    return *r;
}

Rec &State::card_of(Sym id) {
    Rec *r = card(id);
    if (r == nullptr) throw RuleError("KeyError: " + repr(Value::str(id)) + " (no such card)");
    return *r;
}

// ---- world.py ------------------------------------------------------------------------------------

Sym Game::new_id(char prefix) {
    int64_t n = state.next_id++;
    return intern(std::string(1, prefix) + std::to_string(n));
}

Value Game::space_ref(const Value &where) {
    if (where.tag == Value::REF && where.ref.kind == K_SPACE) return where;
    if (where.tag == Value::REF && where.ref.kind == K_BUILDING) {
        std::vector<Sym> spaces = spaces_of(*this, where.ref.id);
        std::sort(spaces.begin(), spaces.end(), [](Sym a, Sym b) { return text(a) < text(b); });
        if (spaces.empty()) throw RuleError("IndexError: a building with no spaces");
        return Value::make_ref(K_SPACE, spaces[0]);
    }
    if (where.tag == Value::STR && on_board(*this, where.s)) return Value::make_ref(K_SPACE, where.s);
    if (where.tag == Value::REF && where.ref.kind == K_UNIT) {
        Rec *u = &state.unit_of(where.ref.id);
        if (u == nullptr) throw RuleError("KeyError: " + repr(Value::str(where.ref.id)));
        return Value::make_ref(K_SPACE, u->space);
    }
    throw RuleError(repr(where) + " is not a space on this board");
}

Sym Game::building_of(Sym space) const {
    return space != 0 && board != nullptr ? spawnpit::building_of(*const_cast<Game *>(this), space) : 0;
}

int64_t Game::units_on_board(Sym kind) const {
    int64_t n = 0;
    for (auto &u : state.units)
        if (u.space != 0 && (kind == 0 || u.kind == kind)) ++n;
    return n;
}

std::vector<Sym> Game::unit_ids(Sym kind, Sym space, Sym side) {
    std::vector<Sym> out;
    out.reserve(state.units.size());
    for (auto &u : state.units)
        if (u.space != 0 && (kind == 0 || u.kind == kind) && (space == 0 || u.space == space) &&
            (side == 0 || u.side == side))
            out.push_back(u.id);
    return out;
}

bool Game::in_play(const Hook *hook) {
    if (!hook->owner_is_card) {
        for (auto &u : state.units)
            if (u.proto == hook->owner_proto && u.space != 0) return true;
        return false;
    }
    Sym proto = hook->owner_proto;  // which prototypes have a card on the table, kept until a card moves
    if (in_play_seen != state.cards_version) {
        in_play_seen = state.cards_version;
        std::fill(card_on_table.begin(), card_on_table.end(), 0);
        for (auto &c : state.cards)
            if (!off_table(c.where)) {
                if (card_on_table.size() <= c.proto) card_on_table.resize(c.proto + 1, 0);
                card_on_table[c.proto] = 1;
            }
    }
    return proto < card_on_table.size() && card_on_table[proto];
}

Value Game::owner_ref(const Hook *hook) {  // world._first_copy
    if (!hook->owner_is_card) {
        for (auto &u : state.units)
            if (u.proto == hook->owner_proto) return Value::make_ref(K_UNIT, u.id);
        return Value();
    }
    Value held;
    for (auto &c : state.cards) {
        if (c.proto != hook->owner_proto) continue;
        if (c.where == K_PLAY) return Value::make_ref(K_CARD, c.id);
        if (held.tag == Value::NONE && !off_table(c.where)) held = Value::make_ref(K_CARD, c.id);
    }
    return held;
}

std::vector<Sym> Game::owner_copies(const Hook *hook) {
    std::vector<Sym> out;
    for (auto &c : state.cards)
        if (c.proto == hook->owner_proto && !off_table(c.where)) out.push_back(c.id);
    return out;
}

bool Game::on_table(Sym card) {
    Rec *c = state.card(card);
    return c != nullptr && !off_table(c->where);
}

void Game::unit_event(Sym kind, Sym name, Sym unit, std::vector<Value> values) {
    static const std::unordered_map<Sym, std::vector<Sym>> NAMES = {  // events.UNIT_EVENTS
        {SYM("moved"), {SYM("from"), SYM("to")}}, {SYM("killed"), {SYM("by")}}, {SYM("wounded"), {SYM("by")}},
        {SYM("spawned"), {SYM("space")}}, {SYM("entered"), {SYM("space"), SYM("from")}}};
    Value params = Value::new_dict();
    params.entries()[K_UNIT] = unit_ref(unit);
    auto &names = NAMES.at(name);
    for (size_t k = 0; k < names.size(); ++k) params.entries()[names[k]] = values[k];
    emit(joined(kind, '.', name), params);
}

void Game::move_unit(Sym unit, Sym to, Context &ctx, bool back, bool placed) {
    Rec &r = state.unit_of(unit);
    Sym origin = r.space;
    set_space(*this, r, to);
    if (!quiet()) {
        Value entry = entry_of(SYM("move"));
        put(entry, SYM("unit"), Value::str(unit));
        put(entry, SYM("from"), sym_or_none(origin));
        put(entry, SYM("to"), sym_or_none(to));
        if (back) put(entry, SYM("back"), Value::boolean(true));
        if (placed) put(entry, SYM("placed"), Value::boolean(true));
        log(entry, ctx.rule);
    }
    unit_event(r.kind, SYM("moved"), unit,
               {origin ? Value::make_ref(K_SPACE, origin) : Value(), Value::make_ref(K_SPACE, to)});
}

void Game::take_off(Sym unit, Context &ctx) {
    Rec &r = state.unit_of(unit);
    Sym space = r.space;
    set_space(*this, r, 0);
    if (!quiet()) {
        Value entry = entry_of(SYM("remove"));
        put(entry, SYM("unit"), Value::str(unit));
        put(entry, SYM("space"), sym_or_none(space));
        log(entry, ctx.rule);
    }
}

void Game::wound(Sym unit, int64_t amount, Context &ctx, const Value &by) {
    Rec &r = state.unit_of(unit);
    const Value *h = r.stats.find(SYM("health"));
    int64_t health = 1;
    if (h != nullptr) {
        if (h->tag == Value::INT) health = h->i;
        else if (h->tag == Value::BOOL) health = h->b;
        else if (h->tag == Value::FLOAT) health = static_cast<int64_t>(h->f);
        else throw RuleError("int() of a health of " + repr(*h));
    }
    int64_t before = r.wounds;
    bool healing = amount < 0;
    r.wounds = std::max<int64_t>(0, before + amount);
    if (healing) amount = r.wounds - before;
    if (!quiet()) {
        Value entry = entry_of(healing ? SYM("heal") : SYM("wound"));
        put(entry, SYM("unit"), Value::str(unit));
        put(entry, SYM("amount"), Value::integer(amount < 0 ? -amount : amount));
        put(entry, SYM("wounds"), Value::integer(r.wounds));
        put(entry, SYM("health"), Value::integer(health));
        log(entry, ctx.rule);
    }
    if (amount > 0) {
        unit_event(r.kind, SYM("wounded"), unit, {by});
        Rec &again = state.unit_of(unit);
        if (again.wounds >= health) kill(unit, by, ctx);
    }
}

void Game::kill(Sym unit, const Value &by, Context &ctx) {
    Rec &r = state.unit_of(unit);
    if (r.space == 0) return;
    Sym space = r.space;
    set_space(*this, r, 0);
    r.last_space = space;
    if (!quiet()) {
        Value entry = entry_of(SYM("kill"));
        put(entry, SYM("unit"), Value::str(unit));
        put(entry, SYM("kind"), Value::str(r.kind));
        put(entry, SYM("space"), Value::str(space));
        put(entry, SYM("by"), by.tag == Value::NONE ? Value() : Value::str(str(*this, by)));
        log(entry, ctx.rule);
    }
    unit_event(r.kind, SYM("killed"), unit, {by});
}

Sym Game::add_unit(const Value &proto, Sym space) {
    Sym uid = new_id('u');
    Rec r;
    r.id = uid;
    r.proto = proto.entries().find(SYM("id"))->s;
    r.kind = proto.entries().find(SYM("unit_kind"))->s;
    const Value *side = prop(model->kind_blocks.count(r.kind) ? model->kind_blocks.at(r.kind) : Value(), SYM("side"));
    r.side = side && side->tag == Value::STR ? side->s : 0;
    r.space = space;
    const Value &props = props_of(proto);
    if (props.tag == Value::DICT) {
        for (auto &kv : props.entries().items)
            if (model->stats.count(kv.first)) r.stats[kv.first] = kv.second;
        const Value *kw = props.entries().find(SYM("keywords"));
        if (kw && kw->tag == Value::LIST)
            for (auto &k : kw->items()) r.keywords.push_back(k.s);
        const Value *mode = props.entries().find(SYM("mode"));
        if (mode) r.mode = *mode;
    }
    state.add(std::move(r));
    return uid;
}

std::vector<Value> Game::spawn(Sym kind, Sym at, int64_t count, Context &ctx, const Value &former) {
    const Value *first = nullptr;
    for (auto &u : model->units) {
        const Value *k = u.entries().find(SYM("unit_kind"));
        if (k && k->tag == Value::STR && k->s == kind) {
            first = &u;
            break;
        }
    }
    if (first == nullptr) throw RuleError("no unit of kind `" + text(kind) + "` is declared to spawn");
    const Value *limit = prop(model->kind_blocks.at(kind), SYM("pool"));
    std::vector<Value> made;
    for (int64_t k = 0; k < count; ++k) {
        if (limit && limit->tag != Value::NONE && units_on_board(kind) >= limit->i) {
            if (!quiet()) {
                Value entry = entry_of(SYM("pool_empty"));
                put(entry, SYM("kind"), Value::str(kind));
                log(entry, ctx.rule);
            }
            break;
        }
        made.push_back(unit_ref(add_unit(*first, at)));
    }
    if (!made.empty()) {
        Value entry = entry_of(SYM("spawn"));
        put(entry, SYM("kind"), Value::str(kind));
        put(entry, SYM("count"), Value::integer(static_cast<int64_t>(made.size())));
        put(entry, SYM("space"), Value::str(at));
        if (former.tag != Value::NONE) {
            put(entry, SYM("from"), Value::str(former.ref.id));
            Value title = *first->entries().find(SYM("title"));
            Sym proto_id = first->entries().find(SYM("id"))->s;
            std::string head = truthy(title) ? str(*this, title) : text(proto_id);
            std::string name = head + " (" + str(*this, attribute(*this, former, SYM("name"))) + ")";
            for (auto &u : made) {
                Rec &r = state.unit_of(u.ref.id);
                r.name = Value::str(name);
                r.from = former.ref.id;
            }
        }
        log(entry, ctx.rule);
        for (auto &u : made) unit_event(kind, SYM("spawned"), u.ref.id, {Value::make_ref(K_SPACE, at)});
    }
    return made;
}

Value Game::enter(Sym proto, Sym at, Context &ctx) {
    for (auto &u : state.units)
        if (u.proto == proto) {
            Sym id = u.id;
            move_unit(id, at, ctx);
            return unit_ref(id);
        }
    const Value *obj = nullptr;
    for (auto &u : model->units)
        if (u.entries().find(SYM("id"))->s == proto) {
            obj = &u;
            break;
        }
    if (obj == nullptr) throw RuleError("StopIteration: no unit prototype `" + text(proto) + "`");
    Sym uid = add_unit(*obj, at);
    if (!quiet()) {
        Value entry = entry_of(SYM("enter"));
        put(entry, SYM("unit"), Value::str(uid));
        put(entry, SYM("proto"), Value::str(proto));
        put(entry, SYM("space"), Value::str(at));
        log(entry, ctx.rule);
    }
    return unit_ref(uid);
}

void Game::flip(const Value &thing, const Value &mode, Context &ctx) {
    Recs r = record_of(*this, thing);
    if (!r.found()) throw RuleError("cannot flip " + repr(thing));
    Value &current = r.rec ? r.rec->mode : r.place->mode;
    if (mode.tag == Value::REF) current = Value::str(mode.ref.id);
    else current = truthy(current) ? Value() : Value::str(SYM("flipped"));
    if (!quiet()) {
        Value entry = entry_of(SYM("flip"));
        put(entry, SYM("what"), Value::str(str(*this, thing)));
        put(entry, SYM("mode"), current);
        log(entry, ctx.rule);
    }
}

void Game::mark(const Value &thing, Sym marker, int64_t amount, Context &ctx) {
    Recs r = record_of(*this, thing);
    if (!r.found()) throw RuleError("cannot mark " + repr(thing) + " with " + text(marker));
    SmallMap &markers = r.rec ? r.rec->markers : r.place->markers;
    const Value *now = markers.find(marker);
    if (amount < 0 && !(now && truthy(*now))) return;
    int64_t before = now ? (now->tag == Value::BOOL ? now->b : now->i) : 0;
    markers[marker] = Value::integer(std::max<int64_t>(0, before + amount));
    if (!quiet()) {
        Value entry = entry_of(amount > 0 ? SYM("mark") : SYM("unmark"));
        put(entry, SYM("what"), Value::str(str(*this, thing)));
        put(entry, SYM("marker"), Value::str(marker));
        log(entry, ctx.rule);
    }
}

void Game::track_add(Sym track, int64_t amount, const Value &owner, Context &ctx) {
    SmallMap *tracks = &state.tracks;
    if (owner.tag == Value::REF && owner.ref.kind == K_UNIT) {
        Rec *u = &state.unit_of(owner.ref.id);
        if (u == nullptr) throw RuleError("KeyError: " + repr(Value::str(owner.ref.id)));
        tracks = &u->tracks;
    } else {
        ++state.counted_version;
    }
    const Value *now = tracks->find(track);
    Value value = now ? *now : Value::integer(0);
    if (value.tag == Value::INT || value.tag == Value::BOOL) value = Value::integer((value.tag == Value::BOOL ? value.b : value.i) + amount);
    else if (value.tag == Value::FLOAT) value = Value::real(value.f + static_cast<double>(amount));
    else throw RuleError("cannot add to the track " + text(track) + ": " + repr(value));
    (*tracks)[track] = value;
    if (!quiet()) {
        Value entry = entry_of(SYM("track"));
        put(entry, SYM("track"), Value::str(track));
        put(entry, SYM("change"), Value::integer(amount));
        put(entry, SYM("value"), value);
        log(entry, ctx.rule);
    }
}

std::vector<Value> Game::units_of_side(Sym side, bool anywhere) {
    std::vector<Value> out;
    for (auto &u : state.units)
        if (u.side == side && (anywhere || u.space != 0)) out.push_back(unit_ref(u.id));
    return out;
}

// ---- decks.py ------------------------------------------------------------------------------------

namespace {

Pile &deck_of(Game &g, Sym name) {
    Pile *p = g.state.pile(name);
    if (p == nullptr) throw RuleError("there is no deck `" + text(name) + "`");
    return *p;
}

bool matches(const Rec &r, const Value &wanted) {  // decks._matches
    if (wanted.tag == Value::REF && wanted.ref.kind == Game::K_CARD_PROTO) return r.proto == wanted.ref.id;
    if (wanted.tag == Value::REF && wanted.ref.kind == Game::K_KEYWORD)
        return contains(r.keywords, wanted.ref.id) || (r.type != 0 && r.type == wanted.ref.id);
    return wanted.tag == Value::NONE;
}

}  // namespace

std::vector<Value> Game::draw(Sym deck, int64_t count, const Value &to, Context &ctx) {
    deck_of(*this, deck);
    auto d = model->decks.find(deck);
    const Value *discard_rule = d != model->decks.end() ? prop(d->second, SYM("discard")) : nullptr;
    bool keep = discard_rule && discard_rule->tag == Value::STR && text(discard_rule->s) == "keep";
    Sym to_holder = holder(*this, to);
    std::vector<Value> drawn;
    for (int64_t k = 0; k < std::max<int64_t>(0, count); ++k) {
        Pile &pile = deck_of(*this, deck);
        if (pile.draw.empty()) {
            if (keep || pile.discard.empty()) {
                Sym empty = joined(deck, '.', SYM("empty"));
                if (model->hooks.count(empty)) emit(empty, Value::new_dict());
                break;
            }
            std::swap(pile.draw, pile.discard);
            pile.discard.clear();
            chance.shuffle(pile.draw);
            if (!quiet()) {
                Value entry = entry_of(SYM("reshuffle"));
                put(entry, SYM("deck"), Value::str(deck));
                log(entry, ctx.rule);
            }
        }
        Pile &now = deck_of(*this, deck);
        Sym cid = now.draw.back();
        now.draw.pop_back();
        set_where(*this, state.card_of(cid), to_holder);
        drawn.push_back(Value::make_ref(K_CARD, cid));
    }
    if (!quiet()) {
        Value entry = entry_of(SYM("draw"));
        put(entry, SYM("deck"), Value::str(deck));
        put(entry, SYM("count"), Value::integer(static_cast<int64_t>(drawn.size())));
        put(entry, SYM("to"), Value::str(to_holder));
        std::vector<Value> cards;
        for (auto &c : drawn) cards.push_back(Value::str(c.ref.id));
        put(entry, SYM("cards"), Value::new_list(std::move(cards)));
        log(entry, ctx.rule);
    }
    return drawn;
}

void Game::discard(Sym card, Context &ctx) {
    Rec &r = state.card_of(card);
    if (Pile *pile = r.deck ? state.pile(r.deck) : nullptr) {
        if (contains(pile->draw, card)) remove_first(pile->draw, card);
        if (!contains(pile->discard, card)) pile->discard.push_back(card);
    }
    set_where(*this, r, K_DISCARD);
    drop_play_keys(r);
    if (!quiet()) {
        Value entry = entry_of(SYM("discard"));
        put(entry, SYM("card"), Value::str(r.proto));
        log(entry, ctx.rule);
    }
}

void Game::discard_top(Sym deck, int64_t count, Context &ctx) {
    Pile &pile = deck_of(*this, deck);
    int64_t n = std::min<int64_t>(count, static_cast<int64_t>(pile.draw.size()));
    for (int64_t k = 0; k < n; ++k) {
        Pile &p = deck_of(*this, deck);
        Sym cid = p.draw.back();
        p.draw.pop_back();
        p.discard.push_back(cid);
        Rec &r = state.card_of(cid);
        set_where(*this, r, K_DISCARD);
        if (!quiet()) {
            Value entry = entry_of(SYM("discard"));
            put(entry, SYM("card"), Value::str(r.proto));
            put(entry, SYM("from"), Value::str(deck));
            log(entry, ctx.rule);
        }
    }
}

void Game::discard_proto(Sym proto, const Value &holder_value, Context &ctx) {
    Sym wanted = holder_value.tag == Value::NONE ? 0 : holder(*this, holder_value);
    for (auto &c : state.cards)
        if (c.proto == proto && (holder_value.tag == Value::NONE || c.where == wanted)) {
            discard(c.id, ctx);
            return;
        }
}

void Game::shuffle(const Value &thing, const Value &into, Context &ctx) {
    if (thing.tag == Value::REF && thing.ref.kind == K_DECK) {
        Pile &pile = deck_of(*this, thing.ref.id);
        pile.draw.insert(pile.draw.end(), pile.discard.begin(), pile.discard.end());
        pile.discard.clear();
        chance.shuffle(pile.draw);
        if (!quiet()) {
            Value entry = entry_of(SYM("shuffle"));
            put(entry, SYM("deck"), Value::str(thing.ref.id));
            log(entry, ctx.rule);
        }
        return;
    }
    if (thing.tag == Value::REF && thing.ref.kind == K_CARD && into.tag == Value::REF) {
        Pile &pile = deck_of(*this, into.ref.id);
        for (auto &other : state.decks)
            if (contains(other.discard, thing.ref.id)) remove_first(other.discard, thing.ref.id);
        Rec &r = state.card_of(thing.ref.id);
        set_where(*this, r, K_DECK_W);
        pile.draw.push_back(thing.ref.id);
        chance.shuffle(pile.draw);
        if (!quiet()) {
            Value entry = entry_of(SYM("shuffle_in"));
            put(entry, SYM("card"), Value::str(r.proto));
            put(entry, SYM("deck"), Value::str(into.ref.id));
            log(entry, ctx.rule);
        }
        return;
    }
    throw RuleError("cannot shuffle " + repr(thing));
}

Value Game::search(Sym deck, const Value &wanted, const Value &to, Context &ctx) {
    Pile &pile = deck_of(*this, deck);
    for (size_t k = pile.draw.size(); k-- > 0;) {
        Sym cid = pile.draw[k];
        Rec &r = state.card_of(cid);
        if (matches(r, wanted)) {
            remove_first(pile.draw, cid);
            Sym h = holder(*this, to);
            set_where(*this, r, h);
            chance.shuffle(pile.draw);
            if (!quiet()) {
                Value entry = entry_of(SYM("search"));
                put(entry, SYM("deck"), Value::str(deck));
                put(entry, SYM("found"), Value::str(r.proto));
                put(entry, SYM("to"), Value::str(h));
                log(entry, ctx.rule);
            }
            return Value::make_ref(K_CARD, cid);
        }
    }
    if (!quiet()) {
        Value entry = entry_of(SYM("search"));
        put(entry, SYM("deck"), Value::str(deck));
        put(entry, SYM("found"), Value());
        log(entry, ctx.rule);
    }
    return Value();
}

void Game::give(Value card, const Value &to, Context &ctx) {
    if (card.tag == Value::REF && card.ref.kind == K_CARD_PROTO) {
        Value found;
        for (auto &c : state.cards)
            if (c.proto == card.ref.id) {
                found = Value::make_ref(K_CARD, c.id);
                break;
            }
        card = found;
    }
    if (!(card.tag == Value::REF && card.ref.kind == K_CARD)) throw RuleError("cannot give " + repr(card));
    Rec &r = state.card_of(card.ref.id);
    bool seen = out_of_piles(state, card.ref.id);
    drop_play_keys(r);
    Sym h = holder(*this, to);
    set_where(*this, r, h);
    if (!quiet()) {
        Value entry = entry_of(SYM("give"));
        put(entry, SYM("card"), Value::str(r.proto));
        put(entry, SYM("copy"), Value::str(card.ref.id));
        put(entry, SYM("to"), Value::str(h));
        if (seen) put(entry, SYM("from"), Value::str(SYM("discard")));
        log(entry, ctx.rule);
    }
}

// ---- playing and cancelling (Decks.play, _play_window, _window, cancel_card, _cancelled) --------

namespace {

Sym holder_side(Game &g, Sym holder_id) {
    const std::string &h = text(holder_id);
    if (h.rfind("side:", 0) == 0) return intern(h.substr(5));
    Rec *u = g.state.unit(holder_id);
    return u ? u->side : 0;
}

// the params of a card event the system declares (Decks._card_params); false when it does not
bool card_params(Game &g, const char *event, const std::vector<Value> &values, Value &params) {
    Sym key = intern(event);
    auto found = g.card_event_names.find(key);
    if (found == g.card_event_names.end()) {
        std::pair<bool, std::vector<Sym>> names{false, {}};
        for (auto &b : g.model->system.entries().find(SYM("blocks"))->items()) {
            const Value *kind = b.entries().find(SYM("kind")), *id = b.entries().find(SYM("id"));
            if (kind && kind->tag == Value::STR && text(kind->s) == "event" && id && id->tag == Value::STR && id->s == key) {
                names.first = true;
                const Value *p = prop(b, SYM("params"));
                if (p && p->tag == Value::STR) names.second.push_back(p->s);
                else if (p && p->tag == Value::LIST)
                    for (auto &n : p->items()) names.second.push_back(n.s);
                break;
            }
        }
        found = g.card_event_names.emplace(key, names).first;
    }
    if (!found->second.first) return false;
    params = Value::new_dict();
    for (size_t k = 0; k < found->second.second.size() && k < values.size(); ++k)
        params.entries()[found->second.second[k]] = values[k];
    return true;
}

using Split = Game::WindowSplit;

const Split &split_window(Game &g, const char *event, Sym proto, const Value &params) {  // Decks._split
    uint64_t key = (static_cast<uint64_t>(intern(event)) << 32) | proto;  // (kept for the game, as derived.windows)
    auto found = g.window_splits.find(key);
    if (found != g.window_splits.end()) return found->second;
    Split split;
    Sym own = intern("card:" + text(proto));
    auto hooks_it = g.model->hooks.find(intern(event));
    static const std::vector<Hook *> none;
    const std::vector<Hook *> &hooks = hooks_it != g.model->hooks.end() ? hooks_it->second : none;
    if (std::string(event) == "card_target") {
        for (Hook *h : hooks)
            if (h->owner == own && !h->replace) split.own.push_back(h);
    } else {
        Sym played = 0;  // the first param that is a card
        for (auto &kv : params.entries().items)
            if (kv.second.tag == Value::REF && kv.second.ref.kind == Game::K_CARD) {
                played = kv.first;
                break;
            }
        for (Hook *h : hooks) {
            if (h->owner == own) continue;
            if (played != 0 && h->owner != 0 && h->owner_is_card && h->filters.empty() && h->self_test == played) continue;
            (h->replace ? split.replacing : split.ordinary).push_back(h);
        }
        for (Hook *h : hooks)
            if (h->owner == own && !h->replace) split.own.push_back(h);
    }
    return g.window_splits.emplace(key, std::move(split)).first->second;
}

const int NESTING_LIMIT = 60;

bool own_applies(Game &g, Hook *hook, const Value &params, const Value &card) {
    std::unique_ptr<Context> ctx = g.context_for(hook, params, card);
    for (auto &f : hook->filters) {
        const Value *actual = params.entries().find(f.first);
        if (!g.filter_matches(actual ? *actual : Value(), eval(*ctx, f.second))) return false;
    }
    return hook->when == nullptr || truthy(eval(*ctx, hook->when));
}

void own_run(Game &g, Hook *hook, const Value &params, const Value &card) {
    g.count_fired(hook->rule->rule);
    std::unique_ptr<Context> ctx = g.context_for(hook, params, card);
    auto error = [&](const std::string &why) {
        const Rule &r = *hook->rule;
        return GameError(text(r.title) + " (" + text(r.source ? r.source : r.rule) + "), on " + text(hook->event) + ": " + why);
    };
    try {
        run_block(*ctx, hook->body);
    } catch (const Decline &) {
        throw error("`decline` outside an `instead of` hook");
    } catch (const RuleError &err) {
        throw error(err.what());
    }
}

void window(Game &g, Sym card, const Value &params, const char *event) {
    try {
        if (g.depth > NESTING_LIMIT)
            g.runaway("events raised inside one another over " + std::to_string(NESTING_LIMIT) + " deep");
        ++g.state.events;
        Rec *r = &g.state.card_of(card);
        const Split &split = split_window(g, event, r->proto, params);
        std::function<bool()> cancelled = [&]() { return g.state.card_of(card).cancelled; };
        for (int pass = 0; pass < 2; ++pass) {
            bool replace = pass == 0;
            for (Hook *hook : replace ? split.replacing : split.ordinary) {
                if (g.fire(hook, params, &cancelled) && replace) g.state.card_of(card).cancelled = true;
                if (g.state.card_of(card).cancelled || g.state.result.decided) return;
            }
        }
        Value self = Value::make_ref(Game::K_CARD, card);
        for (Hook *hook : split.own) {
            Rec *now = &g.state.card_of(card);
            if (now->cancelled || now->where != Game::K_PLAY) return;
            if (own_applies(g, hook, params, self)) {
                own_run(g, hook, params, self);
                if (g.state.result.decided) return;
            }
        }
        g.check_objectives(intern(event));
    } catch (const EndAction &) {
    }
}

void play_window(Game &g, Sym card, const Value &params, const char *event) {
    ++g.depth;
    size_t mark = g.queue.size();
    try {
        window(g, card, params, event);
        g.settle(mark);
    } catch (const GameOver &) {
        if (g.depth > 1 || !g.queue.empty()) {
            --g.depth;
            throw;
        }
    } catch (...) {
        --g.depth;
        throw;
    }
    --g.depth;
}

void cancelled_card(Game &g, Sym card, Context &ctx) {  // Decks._cancelled
    Rec *r = &g.state.card_of(card);
    r->status = SYM("cancelled");
    Value params;
    if (card_params(g, "card_cancelled", {Value::make_ref(Game::K_CARD, card)}, params))
        g.raise_now(SYM("card_cancelled"), params);
    r = g.state.card(card);
    if (r->where == Game::K_PLAY) g.discard(card, ctx);
}

}  // namespace

bool Game::play(Sym card, const Value &on, const Value &source, Context &ctx) {
    Rec *r = &state.card_of(card);
    Sym held = r->where;
    if (held == K_DECK_W || held == K_DISCARD || held == K_BOX || held == K_PLAY)
        throw RuleError("cannot play " + text(r->proto) + ": it is not held (it is in " + text(held) + ")");
    if (source.tag != Value::NONE && held != holder(*this, source))
        throw RuleError("cannot play " + text(r->proto) + " from " + str(*this, source) + ": it is held by " + text(held));
    Sym side = holder_side(*this, held);
    set_where(*this, *r, K_PLAY);
    r->status = SYM("playing");
    Value side_ref = side ? Value::make_ref(K_SIDE, side) : Value();
    Value self = Value::make_ref(K_CARD, card);
    if (on.tag == Value::REF) {
        r->target_kind = on.ref.kind;
        r->target_id = on.ref.id;
    } else {
        Value params;
        if (card_params(*this, "card_target", {self, side_ref}, params) &&
            !split_window(*this, "card_target", r->proto, params).own.empty())
            play_window(*this, card, params, "card_target");
    }
    r = state.card(card);
    if (!quiet()) {
        Value entry = entry_of(SYM("play"));
        put(entry, SYM("card"), Value::str(r->proto));
        put(entry, SYM("side"), sym_or_none(side));
        put(entry, SYM("on"), r->target_kind ? Value::str(r->target_id) : Value());
        log(entry, ctx.rule);
    }
    Value params;
    if (card_params(*this, "card_played", {self, side_ref}, params) && !state.card_of(card).cancelled &&
        state.card_of(card).where == K_PLAY)
        play_window(*this, card, params, "card_played");
    r = state.card(card);
    if (r->cancelled || r->where != K_PLAY) {
        if (r->where == K_PLAY) cancelled_card(*this, card, ctx);
        return false;
    }
    if (contains(r->keywords, SYM("remains_in_play"))) {
        r->status = SYM("in_play");
        if (!quiet()) {
            Value e2 = entry_of(SYM("in_play"));
            put(e2, SYM("card"), Value::str(r->proto));
            log(e2, ctx.rule);
        }
    } else {
        discard(card, ctx);
    }
    return true;
}

void Game::cancel_card(Sym card, Context &ctx) {
    Rec *r = &state.card_of(card);
    if (r->status == SYM("playing")) {
        r->cancelled = true;
        if (!quiet()) {
            Value entry = entry_of(SYM("cancel"));
            put(entry, SYM("card"), Value::str(r->proto));
            log(entry, ctx.rule);
        }
    } else if (r->where == K_PLAY) {
        if (!quiet()) {
            Value entry = entry_of(SYM("cancel"));
            put(entry, SYM("card"), Value::str(r->proto));
            log(entry, ctx.rule);
        }
        cancelled_card(*this, card, ctx);
    } else if (!off_table(r->where)) {
        if (!quiet()) {
            Value entry = entry_of(SYM("cancel"));
            put(entry, SYM("card"), Value::str(r->proto));
            log(entry, ctx.rule);
        }
        discard(card, ctx);
    }
}

Value Game::look_up(Sym table, const Value &roll, const Value &column, const Value &shift, Context &ctx) {
    auto found = model->tables.find(table);
    if (found == model->tables.end()) throw RuleError("there is no table `" + text(table) + "`");
    const Value &obj = found->second;
    const Value *columns_v = prop(obj, SYM("columns"));
    if (columns_v == nullptr || columns_v->tag != Value::LIST) throw RuleError("table `" + text(table) + "` has no columns");
    const std::vector<Value> &columns = columns_v->items();
    int64_t index = 0;
    if (column.tag == Value::INT) index = column.i - 1;
    else {
        for (size_t k = 0; k < columns.size(); ++k)
            if (equal(columns[k], column)) {
                index = static_cast<int64_t>(k);
                break;
            }
    }
    int64_t by = 0;
    if (shift.tag == Value::INT) by = shift.i;
    else if (const Value *shifts = prop(obj, SYM("shift")); shifts && shifts->tag == Value::LIST) {
        for (auto &e : shifts->items()) {
            const Value *key = e.entries().find(SYM("key")), *value = e.entries().find(SYM("value"));
            if (key && equal(*key, shift) && value) {
                by = value->tag == Value::INT ? value->i : 0;
                break;
            }
        }
    }
    index = std::max<int64_t>(0, std::min<int64_t>(static_cast<int64_t>(columns.size()) - 1, index + by));
    int64_t rolled = roll.tag == Value::INT ? roll.i : roll.tag == Value::BOOL ? roll.b : roll.tag == Value::FLOAT ? static_cast<int64_t>(roll.f) : 0;
    const Value *rows = prop(obj, SYM("row"));
    if (rows && rows->tag == Value::LIST) {
        for (auto &row : rows->items()) {
            const Value *key = row.entries().find(SYM("key"));
            int64_t low = 0, high = 0;
            if (key->tag == Value::INT) low = high = key->i;
            else if (key->tag == Value::LIST && key->items().size() == 2) {
                low = key->items()[0].i;
                high = key->items()[1].i;
            }
            if (low <= rolled && rolled <= high) {
                const Value *value = row.entries().find(SYM("value"));
                std::vector<Value> cells = value->tag == Value::LIST ? value->items() : std::vector<Value>{*value};
                if (index >= static_cast<int64_t>(cells.size())) throw RuleError("IndexError: list index out of range");
                Value result = cells[static_cast<size_t>(index)];
                if (!quiet()) {
                    Value entry = entry_of(SYM("lookup"));
                    put(entry, SYM("table"), Value::str(table));
                    put(entry, SYM("roll"), roll);
                    put(entry, SYM("column"), columns[static_cast<size_t>(index)]);
                    put(entry, SYM("result"), result);
                    log(entry, ctx.rule);
                }
                return result;
            }
        }
    }
    throw RuleError("table `" + text(table) + "` has no row for " + str(*this, roll));
}

}  // namespace spawnpit
