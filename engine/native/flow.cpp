// The turn structure (flow.py): setup, then rounds → phases → steps → actions, from the cursor.
#include <algorithm>

#include "geo.h"

namespace spawnpit {

namespace {

const Value NONE;

const Value &get(const Value &obj, Sym key) {
    if (obj.tag != Value::DICT) return NONE;
    const Value *v = obj.entries().find(key);
    return v ? *v : NONE;
}

const Value &props(const Value &obj) { return get(obj, SYM("props")); }

std::vector<const Value *> blocks(const Value &obj, Sym k) {
    std::vector<const Value *> out;
    const Value &bs = get(obj, SYM("blocks"));
    if (bs.tag != Value::LIST) return out;
    for (auto &b : bs.items()) {
        const Value &bk = get(b, SYM("kind"));
        if (bk.tag == Value::STR && bk.s == k) out.push_back(&b);
    }
    return out;
}

std::string dotted_path(const std::vector<Sym> &path) {
    std::string out;
    for (size_t k = 0; k < path.size(); ++k) out += (k ? "." : "") + text(path[k]);
    return out;
}

// the event of a moment of the turn (`hero_turn.move.start`): its path joined, and a suffix
Sym path_event(const std::vector<Sym> &path, Sym suffix) {
    Sym event = path.empty() ? 0 : path[0];
    for (size_t k = 1; k < path.size(); ++k) event = joined(event, '.', path[k]);
    return suffix ? joined(event, '.', suffix) : event;
}

Value entry_of(Sym type) {
    Value e = Value::new_dict();
    e.entries()[SYM("type")] = Value::str(type);
    return e;
}

Value side_of_kind(Game &g, Sym kind) {
    auto found = g.model->kind_blocks.find(kind);
    if (found == g.model->kind_blocks.end()) return Value();
    return get(props(found->second), SYM("side"));
}

// ---- setup (flow.setup, _deal_units, _start_space) ----

Sym start_space(Game &g, const Value &proto) {
    if (g.board == nullptr) return 0;
    Value start = get(props(proto), SYM("start"));
    if (start.tag == Value::LIST) start = start.items().empty() ? Value() : start.items()[0];
    if (start.tag == Value::STR) {
        std::string slug;
        for (char ch : text(start.s)) {
            if (ch == ' ') slug += '_';
            else if (ch == '\'') continue;
            else slug += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        }
        for (Sym b : board_buildings(g)) {
            const std::string &id = text(b);
            if (id == slug || (id.size() > slug.size() + 1 && id.compare(id.size() - slug.size() - 1, std::string::npos, "." + slug) == 0)) {
                std::vector<Sym> spaces = spaces_of(g, b);
                std::sort(spaces.begin(), spaces.end(), [](Sym x, Sym y) { return text(x) < text(y); });
                if (!spaces.empty()) return spaces[0];
            }
        }
    }
    std::vector<Sym> starts = board_start_spaces(g);
    if (starts.empty()) starts = sorted_space_ids(g);
    else std::sort(starts.begin(), starts.end(), [](Sym x, Sym y) { return text(x) < text(y); });
    return starts.empty() ? 0 : starts[0];
}

void deal_units(Game &g, Sym side, int64_t count) {
    std::vector<const Value *> pool;
    for (auto &u : g.model->units) {
        Value s = side_of_kind(g, get(u, SYM("unit_kind")).s);
        if (s.tag == Value::STR && s.s == side) pool.push_back(&u);
    }
    std::vector<const Value *> chosen;
    int64_t n = std::min<int64_t>(count, static_cast<int64_t>(pool.size()));
    for (int64_t k = 0; k < n; ++k) {
        size_t at = static_cast<size_t>(g.chance.randrange(static_cast<int64_t>(pool.size())));
        chosen.push_back(pool[at]);
        pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(at));
    }
    for (const Value *proto : chosen) {
        Sym unit = g.add_unit(*proto, start_space(g, *proto));
        Value entry = entry_of(SYM("enter"));
        entry.entries()[SYM("unit")] = Value::str(unit);
        entry.entries()[SYM("proto")] = get(*proto, SYM("id"));
        Sym space = g.state.unit_of(unit).space;
        entry.entries()[SYM("space")] = space ? Value::str(space) : Value();
        g.log(entry, nullptr);
    }
}

void setup(Game &g) {
    g.set_at({SYM("setup")});
    const Value &p = props(g.model->scenario);
    for (Sym side : g.model->sides) {
        const Value *count = p.tag == Value::DICT ? p.entries().find(side) : nullptr;
        if (count && count->tag == Value::INT) deal_units(g, side, count->i);
    }
    for (const char *moment : {"setup", "game.start"}) {
        try {
            g.emit(intern(moment), Value::new_dict());
        } catch (const EndAction &) {
        }
    }
    g.state.has_cursor = true;
    g.state.cursor = Cursor();
}

int64_t rounds(Game &g) {
    const Value &r = get(props(g.model->scenario), SYM("rounds"));
    return r.tag == Value::INT ? r.i : r.tag == Value::BOOL ? r.b : 1;
}

bool past_limit(Game &g, const Cursor &c) {
    int64_t limit = rounds(g);
    if (c.round <= limit) return false;
    const Value &after = get(props(g.model->system), SYM("after_last_round"));
    bool overtime = after.tag == Value::STR && text(after.s) == "first_step";
    return !(overtime && c.round == limit + 1 && c.phase == 0 && c.step == 0 && !c.has_unit);
}

void safe(Game &g, Sym event) {
    try {
        g.emit(event, Value::new_dict());
    } catch (const EndAction &) {
    }
}

Value params_copy(const Value &params) {
    Value out = Value::new_dict();
    if (params.tag == Value::DICT)
        for (auto &kv : params.entries().items) out.entries()[kv.first] = kv.second;
    return out;
}

bool moment(Game &g, const std::vector<Sym> &path, Sym suffix, const Value &params) {
    g.set_at(path);
    try {
        g.emit(path_event(path, suffix), params_copy(params));
    } catch (const EndAction &) {
        return true;
    }
    return false;
}

bool plays(Game &g, const Value &side) {  // flow._plays
    if (side.tag == Value::NONE) return true;
    std::vector<Sym> listed;
    const Value &players = get(props(g.model->scenario), SYM("players"));
    if (players.tag == Value::LIST)
        for (auto &e : players.items()) {
            const Value &key = get(e, SYM("key"));
            if (key.tag == Value::STR && std::find(g.model->sides.begin(), g.model->sides.end(), key.s) != g.model->sides.end())
                listed.push_back(key.s);
        }
    return listed.empty() || (side.tag == Value::STR && std::find(listed.begin(), listed.end(), side.s) != listed.end());
}

const std::vector<Expr *> *block_exprs(Game &g, const Value &block, bool require) {
    auto &table = require ? g.model->require : g.model->prefer;
    auto found = table.find(block.dict);
    return found == table.end() ? nullptr : &found->second;
}

Value scored(Game &g, const std::vector<Expr *> &fns, const Value &unit) {
    Context ctx(&g, nullptr);
    ctx.env.emplace_back(Game::K_UNIT, unit);
    std::vector<Value> out;
    for (Expr *fn : fns) out.push_back(eval(ctx, fn));
    return Value::new_list(std::move(out));
}

bool allowed(Game &g, const Value &action, const Value &unit) {
    const std::vector<Expr *> *fns = block_exprs(g, action, true);
    if (fns == nullptr) return true;
    Context ctx(&g, nullptr);
    ctx.env.emplace_back(Game::K_UNIT, unit);
    for (Expr *fn : *fns)
        if (!truthy(eval(ctx, fn))) return false;
    return true;
}

void do_action(Game &g, const Value &action, const Value &unit, const std::vector<Sym> &path) {
    Sym id = get(action, SYM("id")).s;
    std::vector<Sym> at = path;
    at.push_back(id);
    g.set_at(at);
    if (!g.quiet()) {
        Value entry = entry_of(SYM("action"));
        entry.entries()[SYM("action")] = Value::str(id);
        entry.entries()[SYM("unit")] = Value::str(unit.ref.id);
        g.log(entry, nullptr);
    }
    for (Sym name : {joined(id, '.', SYM("start")), id, joined(id, '.', SYM("end"))}) {
        try {
            Value params = Value::new_dict();
            params.entries()[Game::K_UNIT] = unit;
            g.emit(name, params);
        } catch (const EndAction &) {
            break;
        }
    }
}

// the ai's order for a phase's units (flow._order_score), or none
bool order_advice(Game &g, const Value &phase, Advice &advice) {
    const std::vector<Expr *> *fns = block_exprs(g, phase, false);
    if (fns == nullptr) return false;
    advice.whole = [&g, fns](const Value &unit) { return scored(g, *fns, unit); };
    return true;
}

void act(Game &g, const Value &phase, const Value &block, const std::vector<Sym> &path, const Value &params) {
    g.set_at(path);
    try {
        g.emit(path_event(path, 0), params_copy(params));
    } catch (const EndAction &) {
        return;
    }
    std::vector<const Value *> actions = blocks(block, SYM("action"));
    if (actions.empty() || g.state.result.decided) return;
    Value side = get(props(block), SYM("side"));
    if (side.tag == Value::NONE) side = get(props(phase), SYM("side"));
    if (side.tag == Value::NONE) return;
    g.acting_side = side.s;
    Value side_ref = Value::make_ref(Game::K_SIDE, side.s);
    const Value *acting = params.tag == Value::DICT ? params.entries().find(Game::K_UNIT) : nullptr;
    std::vector<Value> remaining = acting && acting->tag != Value::NONE ? std::vector<Value>{*acting}
                                                                          : g.units_of_side(side.s, false);
    std::string where = dotted_path(path);
    while (!remaining.empty() && !g.state.result.decided) {
        Value unit;
        if (acting && acting->tag != Value::NONE) {
            unit = remaining[0];
        } else {
            Advice advice;
            bool advised = order_advice(g, phase, advice);
            unit = g.choose(remaining, side_ref, false, where + ": who acts", nullptr, advised ? &advice : nullptr);
        }
        for (size_t k = 0; k < remaining.size(); ++k)
            if (equal(remaining[k], unit)) {
                remaining.erase(remaining.begin() + static_cast<std::ptrdiff_t>(k));
                break;
            }
        if (g.state.unit_of(unit.ref.id).space == 0) continue;
        std::vector<Value> options;
        for (const Value *a : actions)
            if (allowed(g, *a, unit)) options.push_back(*a);
        if (options.empty()) continue;
        Advice advice;
        advice.whole = [&g, &unit](const Value &action) -> Value {
            const std::vector<Expr *> *fns = block_exprs(g, action, false);
            return fns == nullptr ? Value() : scored(g, *fns, unit);
        };
        Value action = g.choose(options, side_ref, true, where + ": action of " + text(unit.ref.id), nullptr, &advice);
        if (action.tag != Value::NONE) do_action(g, action, unit, path);
    }
    g.acting_side = 0;
}

Value next_unit(Game &g, const Value &phase, Cursor &c) {
    const Value &side = get(props(phase), SYM("side"));
    std::vector<Value> remaining;
    if (side.tag == Value::STR)
        for (auto &u : g.units_of_side(side.s, false))
            if (std::find(c.done.begin(), c.done.end(), u.ref.id) == c.done.end()) remaining.push_back(u);
    if (remaining.empty() || g.state.result.decided) return Value();
    g.acting_side = side.s;
    g.set_at({get(phase, SYM("id")).s});
    Advice advice;
    bool advised = order_advice(g, phase, advice);
    Value unit = g.choose(remaining, Value::make_ref(Game::K_SIDE, side.s), false, text(get(phase, SYM("id")).s) + ": who acts",
                          nullptr, advised ? &advice : nullptr);
    g.acting_side = 0;
    return unit;
}

void end_phase(Game &g, const Value &phase, Cursor &c) {
    moment(g, {get(phase, SYM("id")).s}, SYM("end"), Value());
    Cursor &now = g.state.cursor;
    now.has_unit = false;
    now.unit = 0;
    now.done.clear();
    now.phase += 1;
    now.step = 0;
    (void)c;
}

void advance(Game &g) {
    Cursor &cursor = g.state.cursor;
    const auto &phases = g.model->phases;
    bool fresh = cursor.step == 0 && !cursor.has_unit;
    if (cursor.phase == 0 && fresh) {
        g.state.round = cursor.round;
        g.set_at({SYM("round")});
        safe(g, SYM("round.start"));
    }
    if (g.state.cursor.phase >= phases.size()) {
        g.set_at({SYM("round")});
        safe(g, SYM("round.end"));
        Cursor &c = g.state.cursor;
        c.round += 1;
        c.phase = 0;
        c.step = 0;
        return;
    }
    const Value &phase = phases[g.state.cursor.phase];
    if (!plays(g, get(props(phase), SYM("side")))) {
        g.state.cursor.phase += 1;
        g.state.cursor.step = 0;
        return;
    }
    std::vector<const Value *> steps = blocks(phase, SYM("step"));
    const Value &activation = get(props(phase), SYM("activation"));
    bool each = activation.tag == Value::STR && text(activation.s) == "unit";
    Sym phase_id = get(phase, SYM("id")).s;
    if (fresh) {
        moment(g, {phase_id}, SYM("start"), Value());
        act(g, phase, phase, {phase_id}, Value::new_dict());
        if (each) {
            g.state.cursor.has_unit = true;
            g.state.cursor.unit = 0;
            g.state.cursor.done.clear();
        }
    }
    Value params = Value::new_dict();
    if (each) {
        if (g.state.cursor.unit == 0) {
            Value unit = next_unit(g, phase, g.state.cursor);
            if (unit.tag == Value::NONE) {
                end_phase(g, phase, g.state.cursor);
                return;
            }
            g.state.cursor.unit = unit.ref.id;
        }
        params.entries()[Game::K_UNIT] = Value::make_ref(Game::K_UNIT, g.state.cursor.unit);
    }
    Cursor &c = g.state.cursor;
    if (c.step < steps.size() && !g.state.result.decided && (!each || g.state.unit_of(c.unit).space != 0)) {
        const Value &step = *steps[c.step];
        std::vector<Sym> path = {phase_id, get(step, SYM("id")).s};
        if (!moment(g, path, SYM("start"), params)) act(g, phase, step, path, params);
        moment(g, path, SYM("end"), params);
        g.state.cursor.step += 1;
    } else if (each) {
        c.step = steps.size();
    }
    Cursor &after = g.state.cursor;
    if (after.step >= steps.size()) {
        if (each) {
            after.done.push_back(after.unit);
            after.unit = 0;
            after.step = 0;
            return;
        }
        end_phase(g, phase, after);
    }
}

void out_of_rounds(Game &g) {
    g.set_at({SYM("end")});
    Value params = Value::new_dict();
    params.entries()[SYM("winner")] = Value();
    g.emit(SYM("game.end"), params);
    if (!g.state.result.decided) {
        Result &r = g.state.result;
        r.decided = true;
        r.winner = Value();
        r.side = Value();
        r.verdict = SYM("none");
        r.cause = "round limit reached";
        r.round = g.state.round;
        if (!g.quiet()) {
            Value entry = entry_of(SYM("result"));
            entry.entries()[SYM("winner")] = Value();
            entry.entries()[SYM("cause")] = Value::str(SYM("round limit reached"));
            g.log(entry, nullptr);
        }
    }
}

}  // namespace

void Game::set_at(std::vector<Sym> at) {
    state.at = std::move(at);
    at_dirty = true;  // (its text is made when a log entry needs it)
}

void Game::start() {
    met.assign(model->objectives.size(), false);
    for (size_t k = 0; k < state.counters.items.size(); ++k) {  // (no counter is added once a game starts)
        Sym name = state.counters.items[k].first;
        if (counter_at.size() <= name) counter_at.resize(name + 1, -1);
        counter_at[name] = static_cast<int32_t>(k);
    }
    has_objectives = false;
    has_when_objectives = false;
    for (auto &o : model->objectives) {
        Objective &obj = const_cast<Objective &>(o);
        if (o.at != 0) has_objectives = true;
        if (o.test != nullptr) {
            has_objectives = has_when_objectives = true;
            bool simple = o.simple_shape;  // game._inputs
            static const Sym ROUND = SYM("round"), ROUNDS = SYM("rounds");
            for (Sym name : o.used) {
                if (state.counters.find(name)) continue;
                if (name == ROUND || name == ROUNDS || name == K_EVENT || name == K_SELF) simple = false;
                else {
                    auto meaning = model->names.find(name);
                    if (meaning == model->names.end()) simple = false;
                }
            }
            obj.simple = simple;
        }
    }
    at_text = dotted_path(state.at);
}

void play_game(Game &g) {
    if (!g.state.has_cursor) setup(g);
    while (!g.state.result.decided) {
        if (past_limit(g, g.state.cursor)) {
            out_of_rounds(g);
            break;
        }
        advance(g);
    }
}

}  // namespace spawnpit
