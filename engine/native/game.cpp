// Events and hooks, choices and the policies, the log, objectives and results (game.py, policies.py).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "geo.h"
#include "json.h"

namespace spawnpit {

Sym Game::K_UNIT, Game::K_CARD, Game::K_SPACE, Game::K_BUILDING, Game::K_SIDE, Game::K_KIND, Game::K_DECK,
    Game::K_TRACK, Game::K_MARKER, Game::K_KEYWORD, Game::K_MODE, Game::K_CARD_PROTO, Game::K_UNIT_PROTO,
    Game::K_TABLE, Game::K_BOARD, Game::K_PLAY, Game::K_DECK_W, Game::K_DISCARD, Game::K_BOX, Game::K_EVENT,
    Game::K_SELF, Game::K_FROM;

void Game::init_names() {
    K_UNIT = SYM("unit");
    K_CARD = SYM("card");
    K_SPACE = SYM("space");
    K_BUILDING = SYM("building");
    K_SIDE = SYM("side");
    K_KIND = SYM("kind");
    K_DECK = SYM("deck");
    K_TRACK = SYM("track");
    K_MARKER = SYM("marker");
    K_KEYWORD = SYM("keyword");
    K_MODE = SYM("mode");
    K_CARD_PROTO = SYM("card_proto");
    K_UNIT_PROTO = SYM("unit_proto");
    K_TABLE = SYM("table");
    K_BOARD = SYM("board");
    K_PLAY = SYM("play");
    K_DECK_W = SYM("deck");
    K_DISCARD = SYM("discard");
    K_BOX = SYM("box");
    K_EVENT = SYM("event");
    K_SELF = SYM("self");
    K_FROM = SYM("from");
}

namespace {

const int64_t EVENT_BUDGET = 200000;
const int NESTING_LIMIT = 60;

Value entry_of(Sym type) {
    Value e = Value::new_dict();
    e.entries()[SYM("type")] = Value::str(type);
    return e;
}

void put(Value &entry, Sym key, Value v) { entry.entries()[key] = std::move(v); }

GameError hook_error(const Hook *hook, const std::string &why) {
    const Rule &r = *hook->rule;
    return GameError(text(r.title) + " (" + text(r.source ? r.source : r.rule) + "), on " + text(hook->event) + ": " + why);
}

}  // namespace

// ---- Context ---------------------------------------------------------------------------------------

Value Context::lookup(Sym name) {
    for (Context *c = this; c != nullptr; c = c->parent)
        if (Value *v = c->find_own(name)) return *v;
    return game->lookup(name);
}

void Context::assign(Sym name, Value value) {
    for (Context *c = this; c != nullptr; c = c->parent)
        if (Value *v = c->find_own(name)) {
            *v = std::move(value);
            return;
        }
    State &s = game->state;
    for (int k = 0; k < 2; ++k) {
        SmallMap &table = k == 0 ? s.counters : s.tracks;
        if (Value *v = table.find(name)) {
            *v = value;
            ++s.counted_version;
            if (!game->quiet()) {
                Value entry = entry_of(k == 0 ? SYM("counter") : SYM("track"));
                put(entry, SYM("name"), Value::str(name));
                put(entry, SYM("value"), value);
                game->log(entry, rule);
            }
            return;
        }
    }
    throw RuleError("`" + text(name) + "` is not a counter or variable");
}

std::vector<int64_t> Context::roll(const Value &dice, const Value &purpose) {
    if (dice.tag != Value::DICE) throw RuleError("cannot roll " + repr(dice));
    std::vector<int64_t> values = game->chance.roll(dice.dice.count, dice.dice.sides);
    if (!game->quiet()) {
        Value entry = entry_of(SYM("roll"));
        put(entry, SYM("dice"), Value::str(std::to_string(dice.dice.count) + "D" + std::to_string(dice.dice.sides)));
        std::vector<Value> vs;
        int64_t total = 0;
        for (auto v : values) {
            vs.push_back(Value::integer(v));
            total += v;
        }
        put(entry, SYM("values"), Value::new_list(std::move(vs)));
        put(entry, SYM("total"), Value::integer(total));
        if (purpose.tag == Value::REF) put(entry, SYM("for"), Value::str(purpose.ref.id));
        Value unit = about();
        if (unit.tag != Value::NONE) put(entry, SYM("unit"), unit);
        game->log(entry, rule);
    }
    return values;
}

Value Context::about() {
    Context *c = this, *root = this;
    while (c != nullptr && c->find_own(Game::K_UNIT) == nullptr) {
        root = c;
        c = c->parent;
    }
    Context *scope = c != nullptr ? c : root;
    Value unit;
    if (Value *u = scope->find_own(Game::K_UNIT)) unit = *u;
    if (unit.tag == Value::NONE) {
        for (auto &kv : scope->env)
            if (kv.second.tag == Value::REF && kv.second.ref.kind == Game::K_UNIT) {
                unit = kv.second;
                break;
            }
    }
    if (unit.tag == Value::REF && unit.ref.kind == Game::K_UNIT) return Value::str(unit.ref.id);
    return Value();
}

// ---- names -----------------------------------------------------------------------------------------

Value Game::lookup(Sym name) {
    if (name < counter_at.size() && counter_at[name] >= 0) return state.counters.items[static_cast<size_t>(counter_at[name])].second;
    if (name < constant_at.size() && constant_at[name] != nullptr) return *constant_at[name];
    if (const Value *v = state.counters.find(name)) return *v;
    auto found = constants.find(name);
    if (found != constants.end()) return found->second;
    static const Sym ROUND = SYM("round"), ROUNDS = SYM("rounds");
    if (name == ROUND) return Value::integer(state.round);
    if (name == ROUNDS) {
        const Value *props = model->scenario.entries().find(SYM("props"));
        const Value *rounds = props ? props->entries().find(ROUNDS) : nullptr;
        if (rounds && (rounds->tag == Value::INT || rounds->tag == Value::BOOL)) return *rounds;
        return Value::integer(1);
    }
    Value ref;
    auto meaning = model->names.find(name);
    if (meaning != model->names.end()) ref = Value::make_ref(meaning->second.first, meaning->second.second);
    else if (board != nullptr && on_board(*this, name)) ref = Value::make_ref(K_SPACE, name);
    else if (board != nullptr && !spaces_of(*this, name).empty()) ref = Value::make_ref(K_BUILDING, name);
    else ref = resolve_place(*this, name);
    if (ref.tag == Value::NONE) throw RuleError("unknown name `" + text(name) + "`");
    const Value *kept = &constants.emplace(name, ref).first->second;  // (an unordered_map's values stay put)
    if (constant_at.size() <= name) constant_at.resize(name + 1, nullptr);
    constant_at[name] = kept;
    return ref;
}

// ---- the log -----------------------------------------------------------------------------------

void Game::log(Value entry, const Rule *rule) {
    int64_t n = logged++;
    if (!logging) return;
    if (at_dirty) {
        at_text.clear();
        for (size_t k = 0; k < state.at.size(); ++k) at_text += (k ? "." : "") + text(state.at[k]);
        at_dirty = false;
    }
    Value full = Value::new_dict();
    auto &d = full.entries();
    d[SYM("n")] = Value::integer(n);
    d[SYM("round")] = Value::integer(state.round);
    d[SYM("at")] = Value::str(at_text);
    for (auto &kv : entry.entries().items) d[kv.first] = kv.second;
    if (rule != nullptr) {
        d[SYM("rule")] = Value::str(rule->title);
        if (rule->source != 0) d[SYM("source")] = Value::str(rule->source);
    }
    std::string line;
    write_json(line, full, true);
    lines.push_back(std::move(line));
}

void Game::count_fired(Sym rule) {
    for (auto &kv : fired)
        if (kv.first == rule) {
            ++kv.second;
            return;
        }
    fired.emplace_back(rule, 1);
}

void Game::runaway(const std::string &why) {
    std::vector<std::pair<Sym, int64_t>> rules = fired;
    std::stable_sort(rules.begin(), rules.end(), [](auto &a, auto &b) { return a.second > b.second; });
    std::string who;
    if (rules.empty()) {
        who = "no rule's hook ran, so the turn structure alone used it up (a scenario of very many rounds?)";
    } else {
        who = "most active rules: ";
        for (size_t k = 0; k < rules.size() && k < 5; ++k) who += (k ? ", " : "") + text(rules[k].first);
    }
    throw GameError("runaway chain of events (" + why + "); " + who);
}

// ---- results -------------------------------------------------------------------------------------

void Game::decide(const Value &side, Sym verdict, const Rule *rule) {
    std::string side_id = side.tag == Value::REF ? text(side.ref.id) : str(*this, side);
    std::string cause = rule != nullptr && rule->title != 0 ? side_id + " " + text(verdict) + ": " + text(rule->title)
                                                           : side_id + " " + text(verdict);
    finish(intern(side_id), verdict, cause, rule);
}

void Game::finish(Sym side, Sym verdict, const std::string &cause, const Rule *rule) {
    if (state.result.decided) return;
    Value winner;
    if (text(verdict) == "win") {
        winner = Value::str(side);
    } else {  // Game._other_side
        std::vector<Sym> others;
        for (Sym s : model->sides)
            if (s != side && !units_of_side(s, true).empty()) others.push_back(s);
        if (others.size() == 1) winner = Value::str(others[0]);
    }
    state.result.decided = true;
    state.result.winner = winner;
    state.result.side = Value::str(side);
    state.result.verdict = verdict;
    state.result.cause = cause;
    state.result.round = state.round;
    if (!quiet()) {
        Value entry = entry_of(SYM("result"));
        put(entry, SYM("winner"), winner);
        put(entry, SYM("cause"), Value::str(cause));
        log(entry, rule);
    }
    note_objectives();
    if (!queue.empty() || depth) throw GameOver();
}

// ---- objectives (Game._check_objectives, _midway, _note_objectives) --------------------------------

namespace {

bool holds(Game &g, const Objective &o) {
    Context ctx(&g, nullptr);
    try {
        return truthy(eval(ctx, o.test));
    } catch (const RuleError &err) {
        throw GameError(text(g.model->scenario_rule.title) + ", objective `" + o.text + "`: " + err.what());
    }
}

}  // namespace

void Game::check_objectives(Sym event, bool keyed) {
    if (state.result.decided) return;
    const auto &objectives = model->objectives;
    bool at_event = false;
    for (auto &o : objectives)
        if (o.at != 0 && o.at == event) at_event = true;
    for (size_t index = 0; index < objectives.size(); ++index) {
        const Objective &o = objectives[index];
        if (o.test == nullptr) {  // an `at` objective (only looked at when the event is one of theirs)
            if (!at_event || o.at != event) continue;
        } else if (!o.simple) {
            if (keyed || !holds(*this, o)) continue;
        } else if (!holds(*this, o)) {
            continue;
        }
        met[index] = true;
        finish(o.side, o.result, o.text, &model->scenario_rule);
        return;
    }
}

void Game::midway() {
    if (state.counted_version == midway_seen) return;
    midway_seen = state.counted_version;
    check_objectives(0, true);
}

void Game::note_objectives() {
    for (size_t index = 0; index < model->objectives.size(); ++index) {
        const Objective &o = model->objectives[index];
        if (o.test == nullptr || met[index]) continue;
        try {
            Context ctx(this, nullptr);
            if (truthy(eval(ctx, o.test))) met[index] = true;
        } catch (...) {
        }
    }
}

// ---- events (Game.emit, _drain, raise_now, settle, _dispatch, _late) -------------------------------

void Game::emit(Sym event, Value params) {
    if (state.result.decided) return;
    queue.emplace_back(event, std::move(params));
    if (queue.size() != 1) return;
    try {
        while (!queue.empty()) {
            Sym e = queue.front().first;
            Value p = queue.front().second;
            dispatch(e, p);
            queue.pop_front();
            if (state.result.decided) queue.clear();
        }
    } catch (const GameOver &) {
        queue.clear();
        return;
    } catch (...) {
        queue.clear();
        throw;
    }
    queue.clear();
}

Sym Game::raise_now(Sym event, Value params) {
    static const Sym REPLACED = SYM("replaced"), ENDED = SYM("ended");
    ++depth;
    size_t mark = queue.size();
    try {
        if (depth > NESTING_LIMIT) runaway("events raised inside one another over " + std::to_string(NESTING_LIMIT) + " deep");
        Sym outcome = 0;
        try {
            outcome = dispatch(event, params) ? REPLACED : 0;
        } catch (const EndAction &) {
            outcome = ENDED;
        }
        settle(mark);
        --depth;
        return outcome;
    } catch (const GameOver &) {
        if (depth > 1 || !queue.empty()) {
            --depth;
            throw;
        }
        --depth;
        return 0;
    } catch (...) {
        --depth;
        throw;
    }
}

void Game::settle(size_t mark) {
    while (queue.size() > mark && !state.result.decided) {
        Sym event = queue[mark].first;
        Value params = queue[mark].second;
        queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(mark));
        try {
            dispatch(event, params);
        } catch (const EndAction &) {
        }
    }
}

bool Game::dispatch(Sym event, const Value &params) {
    ++state.events;
    for (size_t k = 0; k < model->objectives.size(); ++k)
        if (model->objectives[k].at != 0 && model->objectives[k].at == event) met[k] = true;
    if (state.events > EVENT_BUDGET) runaway("over " + std::to_string(EVENT_BUDGET));
    auto found = split_hooks.find(event);
    if (found == split_hooks.end()) {
        std::pair<std::vector<Hook *>, std::vector<Hook *>> split;
        auto hooks = model->hooks.find(event);
        if (hooks != model->hooks.end())
            for (Hook *h : hooks->second) (h->replace ? split.first : split.second).push_back(h);
        found = split_hooks.emplace(event, std::move(split)).first;
    }
    const auto &replacing = found->second.first;
    const auto &ordinary = found->second.second;
    bool replaced = false;
    for (Hook *hook : replacing) {
        if (fire(hook, params)) {
            replaced = true;
            if (state.result.decided) return replaced;
        }
    }
    if (!replaced) {
        bool midway_on = has_when_objectives;
        std::vector<Hook *> missed;
        int64_t before = state.cards_version;
        for (Hook *hook : ordinary) {
            if (hook->owner != 0 && !in_play(hook)) {
                missed.push_back(hook);
                continue;
            }
            if (hook->per_copy) {
                fire(hook, params);
                if (state.result.decided) return replaced;
                if (midway_on) midway();
                continue;
            }
            std::unique_ptr<Context> ctx;
            if (!(hook->filters.empty() && hook->when == nullptr)) {
                bool plain = false;
                ctx = applies(hook, params, plain);
                if (!ctx) continue;
            }
            run_hook(hook, params, ctx.get());
            if (state.result.decided) return replaced;
            if (midway_on) midway();
        }
        if (!missed.empty() && state.cards_version != before) {  // Game._late
            for (Hook *hook : missed) {
                if (!hook->owner_is_card || !in_play(hook)) continue;
                if (hook->per_copy) {
                    fire(hook, params);
                } else {
                    bool plain = false;
                    std::unique_ptr<Context> ctx = applies(hook, params, plain);
                    if (!ctx && !plain) continue;
                    run_hook(hook, params, ctx.get());
                }
                if (state.result.decided) return replaced;
                if (midway_on) midway();
            }
        }
    }
    if (has_objectives) check_objectives(event);
    return replaced;
}

// ---- hooks (Game._fire, _applies, _applies_as, _context, _run, _filter_matches) --------------------

bool Game::fire(Hook *hook, const Value &params, const std::function<bool()> *done) {
    if (!hook->per_copy) {
        bool plain = false;
        std::unique_ptr<Context> ctx = applies(hook, params, plain);
        if (!ctx && !plain) return false;
        try {
            run_hook(hook, params, ctx.get());
        } catch (const Decline &) {
            return false;
        }
        return true;
    }
    bool ran = false, went = false;
    for (Sym copy : owner_copies(hook)) {
        if (went && !on_table(copy)) continue;
        std::unique_ptr<Context> ctx = applies_as(hook, params, Value::make_ref(K_CARD, copy));
        if (!ctx) continue;
        went = true;
        try {
            run_hook(hook, params, ctx.get());
        } catch (const Decline &) {
            continue;
        }
        ran = true;
        if (hook->replace || state.result.decided || (done != nullptr && (*done)())) break;
    }
    return ran;
}

// Whether the hook applies: its context, or null. `plain` is set when it has neither filters nor `when`
// (it applies, and its context is made only when it runs).
std::unique_ptr<Context> Game::applies(Hook *hook, const Value &params, bool &plain) {
    plain = false;
    if (hook->owner != 0 && !in_play(hook)) return nullptr;
    if (hook->per_copy) {
        for (Sym copy : owner_copies(hook)) {
            std::unique_ptr<Context> ctx = applies_as(hook, params, Value::make_ref(K_CARD, copy));
            if (ctx) return ctx;
        }
        return nullptr;
    }
    if (hook->filters.empty() && hook->when == nullptr) {
        plain = true;
        return nullptr;
    }
    std::unique_ptr<Context> ctx = context_for(hook, params, hook->owner != 0 ? owner_ref(hook) : Value());
    for (auto &f : hook->filters) {
        const Value *actual = params.entries().find(f.first);
        if (!filter_matches(actual ? *actual : Value(), eval(*ctx, f.second))) return nullptr;
    }
    if (hook->when != nullptr && !truthy(eval(*ctx, hook->when))) return nullptr;
    return ctx;
}

std::unique_ptr<Context> Game::applies_as(Hook *hook, const Value &params, const Value &copy) {
    if (hook->if_played) {
        Rec *c = &state.card_of(copy.ref.id);
        if (c->where != K_PLAY) return nullptr;
    }
    std::unique_ptr<Context> ctx = context_for(hook, params, copy);
    for (auto &f : hook->filters) {
        const Value *actual = params.entries().find(f.first);
        if (!filter_matches(actual ? *actual : Value(), eval(*ctx, f.second))) return nullptr;
    }
    if (hook->when != nullptr && !truthy(eval(*ctx, hook->when))) return nullptr;
    return ctx;
}

// {**hook.env, **params, "event": params, "self": self} (self left out for a hook of no one's)
std::unique_ptr<Context> Game::context_for(Hook *hook, const Value &params, const Value &self) {
    auto ctx = std::make_unique<Context>(this, hook->rule);
    ctx->env.reserve(hook->env.size() + params.entries().items.size() + 2);
    for (auto &kv : hook->env) ctx->env.push_back(kv);
    for (auto &kv : params.entries().items) ctx->set(kv.first, kv.second);
    ctx->set(K_EVENT, params);
    if (hook->owner != 0) ctx->set(K_SELF, self);
    return ctx;
}

static void run_hook_body(Game &g, Hook *hook, const Value &params, Context *ctx);

void Game::run_hook(Hook *hook, const Value &params, Context *ctx) {
    if (!profiling) {
        run_hook_body(*this, hook, params, ctx);
        return;
    }
    double outer = nested;  // timed: its own time (what hooks run inside it took left out)
    nested = 0;
    auto start = std::chrono::steady_clock::now();
    auto stop = [&]() {
        double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        auto &slot = spent[text(hook->rule->title) + " @ " + text(hook->event)];
        slot.first += took - nested;
        slot.second += 1;
        nested = outer + took;
    };
    try {
        run_hook_body(*this, hook, params, ctx);
    } catch (...) {
        stop();
        throw;
    }
    stop();
}

static void run_hook_body(Game &g, Hook *hook, const Value &params, Context *ctx) {
    g.count_fired(hook->rule->rule);
    std::unique_ptr<Context> own;
    if (ctx == nullptr) {
        own = g.context_for(hook, params, hook->owner != 0 ? g.owner_ref(hook) : Value());
        ctx = own.get();
    }
    try {
        run_block(*ctx, hook->body);
    } catch (const Decline &) {
        if (hook->replace) throw;
        throw hook_error(hook, "`decline` outside an `instead of` hook");
    } catch (const RuleError &err) {
        throw hook_error(hook, err.what());
    }
}

bool Game::filter_matches(const Value &actual, const Value &wanted) {
    if (actual.tag == Value::NONE) return false;
    if (wanted.tag == Value::REF && (wanted.ref.kind == K_KIND || wanted.ref.kind == K_SIDE))
        return table_is(*this, actual, wanted);
    return equal(actual, wanted);
}

// ---- choices and the policies (Game.choose, preferred; policies.py) -------------------------------

namespace {

using Score = std::vector<double>;

Score criteria(const Value &value) {  // game._criteria
    Score out;
    if (value.tag == Value::LIST) {
        for (auto &item : value.items()) out.push_back(criterion(item));
    } else if (value.tag == Value::DICE) {
        out = {1.0, static_cast<double>(value.dice.count), static_cast<double>(value.dice.sides)};
    } else {
        out.push_back(criterion(value));
    }
    return out;
}

std::string shown(Game &g, const Value &picked) {  // game._shown
    if (picked.tag == Value::DICT) {
        const Value *id = picked.entries().find(SYM("id"));
        return id ? str(g, *id) : "?";
    }
    return str(g, picked);
}

// Game.preferred: the best-scored real options (indices), and the best score's first criterion
bool preferred(const Advice &advice, const std::vector<Value> &choices, const std::vector<bool> &real_mask,
               std::vector<size_t> &best, bool &has_first, double &first) {
    std::vector<size_t> real;
    real.reserve(choices.size());
    for (size_t i = 0; i < choices.size(); ++i)
        if (real_mask[i]) real.push_back(i);
    has_first = false;
    if (advice.nparts && choices.size() == 1 && !real.empty()) {
        best = real;
        return true;
    }
    if (!advice.nparts || real.empty()) {
        std::vector<Score> scores;
        for (size_t i : real) scores.push_back(criteria(advice.whole(choices[i])));
        Score top;
        bool any = false;
        for (auto &s : scores)
            if (!any || std::lexicographical_compare(top.begin(), top.end(), s.begin(), s.end())) {
                top = s;
                any = true;
            }
        best.clear();
        for (size_t k = 0; k < real.size(); ++k)
            if (scores[k] == top) best.push_back(real[k]);
        if (!top.empty()) {
            has_first = true;
            first = top[0];
        }
        return true;
    }
    for (size_t k = 0; k < advice.nparts; ++k) {
        std::vector<double> values;
        values.reserve(real.size());
        for (size_t i : real) values.push_back(advice.part(k, i, choices[i]));
        double top = *std::max_element(values.begin(), values.end());
        if (k == 0) {
            has_first = true;
            first = top;
        }
        std::vector<size_t> kept;
        kept.reserve(real.size());
        for (size_t j = 0; j < real.size(); ++j)
            if (values[j] == top) kept.push_back(real[j]);
        real = kept;
        if (real.size() == 1) break;
    }
    best = real;
    return true;
}

}  // namespace

Value Game::choose(const std::vector<Value> &options, const Value &by, bool optional, const std::string &label,
                   const Rule *rule, const Advice *advice) {
    if (options.empty()) return Value();
    Sym side = by.tag == Value::REF && by.ref.kind == K_SIDE ? by.ref.id : (acting_side ? acting_side : model->sides.at(0));
    auto policy = policies.find(side);
    if (policy == policies.end()) throw GameError("no policy plays the side `" + text(side) + "`");
    std::vector<Value> choices;
    choices.reserve(options.size() + 1);
    choices.insert(choices.end(), options.begin(), options.end());
    std::vector<bool> real(options.size(), true);
    if (optional) {
        choices.emplace_back();
        real.push_back(false);
    }
    size_t n = choices.size();
    char seed_buf[160];  // the policies' own streams: f"{seed}/{side}/{choices}" (and "/ai")
    const std::string &side_name = text(side);
    int seed_len = std::snprintf(seed_buf, sizeof seed_buf, "%lld/%.*s/%lld", static_cast<long long>(state.seed),
                                 static_cast<int>(side_name.size()), side_name.data(), static_cast<long long>(state.choices));
    std::string seed = seed_len > 0 && seed_len < static_cast<int>(sizeof seed_buf) - 4
                           ? std::string()
                           : std::to_string(state.seed) + "/" + side_name + "/" + std::to_string(state.choices);
    bool buffered = seed.empty();
    size_t index = 0;
    switch (policy->second) {
        case PolicyKind::FIRST: index = 0; break;
        case PolicyKind::RANDOM: {
            Random r(buffered ? std::string_view(seed_buf, static_cast<size_t>(seed_len)) : std::string_view(seed));
            index = static_cast<size_t>(r.randrange(static_cast<int64_t>(n)));
            break;
        }
        case PolicyKind::AI: {
            std::vector<size_t> candidates;
            candidates.reserve(n);
            for (size_t i = 0; i < n; ++i)
                if (real[i]) candidates.push_back(i);
            if (candidates.empty()) {
                index = 0;
                break;
            }
            bool decline = false;
            if (advice != nullptr) {
                std::vector<size_t> best;
                bool has_first = false;
                double first = 0;
                preferred(*advice, choices, real, best, has_first, first);
                if (candidates.size() < n && (!has_first || first <= 0)) {
                    index = n - 1;  // options.index(None): declining is the last option
                    decline = true;
                } else {
                    candidates = best;
                }
            }
            if (!decline) {
                if (candidates.size() == 1) {
                    index = candidates[0];
                } else {
                    if (buffered) std::memcpy(seed_buf + seed_len, "/ai", 3);
                    Random r(buffered ? std::string_view(seed_buf, static_cast<size_t>(seed_len) + 3)
                                      : std::string_view(seed + "/ai"));
                    index = candidates[r.choice_index(candidates.size())];
                }
            }
            break;
        }
    }
    ++state.choices;
    const Value &picked = choices[index];
    if (!quiet()) {
        Value entry = entry_of(SYM("choice"));
        put(entry, SYM("side"), Value::str(side));
        put(entry, SYM("label"), Value::str(label));
        put(entry, SYM("options"), Value::integer(static_cast<int64_t>(n)));
        put(entry, SYM("index"), Value::integer(static_cast<int64_t>(index)));
        put(entry, SYM("picked"), picked.tag == Value::NONE ? Value() : Value::str(shown(*this, picked)));
        log(entry, rule);
    }
    return picked;
}

}  // namespace spawnpit
