// The board as the rules see it (world.py, table.py, board.divide_evenly) and movement (movement.py).
#include <algorithm>
#include <cmath>
#include <deque>
#include <unordered_map>

#include "board.h"
#include "geo.h"

namespace spawnpit {

const Mask WALKING = WALKING_MASK;
const Mask EVERYTHING = EVERYTHING_MASK;

Mask mask_of(const Value &kinds) {
    Mask m = 0;
    auto add = [&](const Value &k) {
        int kind = k.tag == Value::STR ? kind_of(k.s) : -1;
        if (kind < 0) throw RuleError("unknown edge kind " + repr(k));
        m |= static_cast<Mask>(1u << kind);
    };
    if (kinds.tag == Value::LIST) {
        for (auto &k : kinds.items()) add(k);
    } else {
        add(kinds);
    }
    return m;
}

namespace {

int index_or_error(Game &g, Sym space) {
    int s = g.board->index(space);
    if (s == Board::NONE) throw RuleError("board `" + text(g.board->id) + "` has no space `" + text(space) + "`");
    return s;
}

}  // namespace

bool on_board(Game &g, Sym space) { return g.board != nullptr && g.board->index(space) != Board::NONE; }

Sym building_of(Game &g, Sym space) {
    if (g.board == nullptr || space == 0) return 0;
    int b = g.board->building_of(index_or_error(g, space));
    return b == Board::NONE ? 0 : g.board->buildings[b].id;
}

std::vector<Sym> spaces_of(Game &g, Sym building) {
    std::vector<Sym> out;
    if (g.board == nullptr) return out;
    int b = g.board->building_index(building);
    if (b == Board::NONE) return out;
    for (int s : g.board->spaces_of(b)) out.push_back(g.board->space_id(s));
    return out;
}

std::vector<Sym> board_buildings(Game &g) {
    std::vector<Sym> out;
    if (g.board)
        for (auto &b : g.board->buildings) out.push_back(b.id);
    return out;
}

std::vector<Sym> board_start_spaces(Game &g) {
    std::vector<Sym> out;
    if (g.board)
        for (int s : g.board->start_spaces) out.push_back(g.board->space_id(s));
    return out;
}

const std::vector<Sym> &sorted_space_ids(Game &g) {
    if (g.space_ids_sorted.empty() && g.board != nullptr)
        for (int s : g.board->sorted_spaces) g.space_ids_sorted.push_back(g.board->space_id(s));
    return g.space_ids_sorted;
}

const std::vector<Sym> &sorted_building_ids(Game &g) {
    if (g.building_ids_sorted.empty() && g.board != nullptr)
        for (int b : g.board->sorted_buildings) g.building_ids_sorted.push_back(g.board->buildings[b].id);
    return g.building_ids_sorted;
}

Value space_property(Game &g, Sym space, Sym name) {
    if (g.board == nullptr) return Value();
    return g.board->property(index_or_error(g, space), name);
}

Value space_title(Game &g, Sym space) { return Value::str(g.board->title_of(index_or_error(g, space))); }

bool is_spawn(Game &g, Sym space) {
    int s = g.board->index(space);
    return s != Board::NONE && g.board->is_spawn(s);
}
bool is_start(Game &g, Sym space) {
    int s = g.board->index(space);
    return s != Board::NONE && g.board->is_start(s);
}
bool is_objective(Game &g, Sym space) {
    int s = g.board->index(space);
    return s != Board::NONE && g.board->is_objective(s);
}

Value resolve_place(Game &g, Sym name) {
    if (g.board == nullptr) return Value();
    auto found = g.board->resolve_place(name);
    if (found.first == 1) return Value::make_ref(Game::K_BUILDING, g.board->buildings[found.second].id);
    if (found.first == 2) return Value::make_ref(Game::K_SPACE, g.board->space_id(found.second));
    return Value();
}

Value board_part(Game &g, Sym place) {
    const std::string &id = text(place);
    size_t dot = id.rfind('.');
    if (dot != std::string::npos) return Value::str(id.substr(0, dot));
    return Value::str(g.board != nullptr ? text(g.board->id) : std::string());
}

Value building_attribute(Game &g, Sym building, Sym name) {
    int b = g.board != nullptr ? g.board->building_index(building) : Board::NONE;
    if (b == Board::NONE) throw RuleError("there is no building `" + text(building) + "` on this board");
    const Board::Building &info = g.board->buildings[b];
    const std::string &n = text(name);
    if (n == "name") return Value::str(info.title);
    if (n == "spaces") {
        std::vector<Value> out;
        for (int s : info.spaces) out.push_back(Value::make_ref(Game::K_SPACE, g.board->space_id(s)));
        return Value::new_list(std::move(out));
    }
    if (n == "roll") {
        std::vector<Value> out;
        for (int64_t r : info.roll) out.push_back(Value::integer(r));
        return Value::new_list(std::move(out));
    }
    if (n == "pick_up") {
        if (!truthy(info.pick_up)) return Value();
        auto slug = g.pick_up_slugs.find(info.pick_up.s);
        if (slug == g.pick_up_slugs.end()) return Value();
        auto meaning = g.model->names.find(slug->second);
        if (meaning != g.model->names.end() && meaning->second.first == Game::K_CARD_PROTO)
            return Value::make_ref(Game::K_CARD_PROTO, meaning->second.second);
        return Value();
    }
    if (n == "board") return board_part(g, building);
    throw RuleError("a building has no `" + n + "`");
}

double between(Game &g, Sym a, Sym b, Mask through) {
    int ia = index_or_error(g, a), ib = index_or_error(g, b);
    return Board::as_number(g.board->between(ia, ib, through));
}

bool sight(Game &g, Sym a, Sym b) { return g.board->sight(index_or_error(g, a), index_or_error(g, b)); }

Value edge(Game &g, Sym a, Sym b) {
    int ia = index_or_error(g, a), ib = index_or_error(g, b);
    int kind = g.board->edge(ia, ib);
    return kind == Board::NONE ? Value() : Value::str(kind_name(kind));
}

std::vector<Value> neighbours(Game &g, Sym space) {
    std::vector<Value> out;
    int s = g.board->index(space);
    if (s == Board::NONE) return out;
    for (auto *l = g.board->links_begin(s); l != g.board->links_end(s); ++l)
        out.push_back(Value::make_ref(Game::K_SPACE, g.board->space_id(l->to)));
    return out;
}

double nearest(Game &g, Sym here, const std::vector<Sym> &theres) {
    int h = index_or_error(g, here);
    int best = Board::UNREACHED;
    for (Sym t : theres) best = std::min(best, g.board->between(h, index_or_error(g, t), WALKING));
    return Board::as_number(best);
}

// random.sample(range(n), k), the indices it picks (as a set: divide_evenly asks only which)
static std::vector<int64_t> sample_indices(Random &rng, int64_t n, int64_t k) {
    std::vector<int64_t> result;
    if (k < 0 || k > n) throw RuleError("Sample larger than population or is negative");
    int64_t setsize = 21;
    if (k > 5) setsize += static_cast<int64_t>(std::pow(4.0, std::ceil(std::log(static_cast<double>(k * 3)) / std::log(4.0))));
    if (n <= setsize) {
        std::vector<int64_t> pool(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) pool[static_cast<size_t>(i)] = i;
        for (int64_t i = 0; i < k; ++i) {
            int64_t j = static_cast<int64_t>(rng.randbelow(static_cast<uint64_t>(n - i)));
            result.push_back(pool[static_cast<size_t>(j)]);
            pool[static_cast<size_t>(j)] = pool[static_cast<size_t>(n - i - 1)];
        }
    } else {
        std::vector<bool> selected(static_cast<size_t>(n), false);
        for (int64_t i = 0; i < k; ++i) {
            int64_t j = static_cast<int64_t>(rng.randbelow(static_cast<uint64_t>(n)));
            while (selected[static_cast<size_t>(j)]) j = static_cast<int64_t>(rng.randbelow(static_cast<uint64_t>(n)));
            selected[static_cast<size_t>(j)] = true;
            result.push_back(j);
        }
    }
    return result;
}

std::vector<int64_t> divide_evenly(Game &g, int64_t n, const std::vector<Sym> &points0) {
    std::vector<Sym> points;
    for (Sym p : points0)
        if (std::find(points.begin(), points.end(), p) == points.end()) points.push_back(p);
    if (points.empty()) {
        if (n) throw RuleError("cannot divide " + std::to_string(n) + " among no points");
        return {};
    }
    int64_t size = static_cast<int64_t>(points.size());
    int64_t base = n >= 0 ? n / size : -((-n + size - 1) / size);
    int64_t extra = n - base * size;
    std::vector<int64_t> lucky = sample_indices(g.chance, size, extra);
    std::vector<int64_t> shares(points.size(), base);
    for (int64_t i : lucky) shares[static_cast<size_t>(i)] += 1;
    return shares;
}

// ---- movement.py -----------------------------------------------------------------------------------

namespace {

using Rules = Game::MoveRules;

const Value &props_of(const Value &obj) {
    static const Value none;
    const Value *p = obj.tag == Value::DICT ? obj.entries().find(SYM("props")) : nullptr;
    return p ? *p : none;
}

std::vector<Sym> names_of(const Value &v) {
    std::vector<Sym> out;
    if (v.tag == Value::STR) out.push_back(v.s);
    else if (v.tag == Value::LIST)
        for (auto &x : v.items()) out.push_back(x.s);
    return out;
}

Rules kind_rules(Game &g, Sym kind) {  // movement._rules
    auto &cache = g.movement_rules;
    auto found = cache.find(kind);
    if (found != cache.end()) return found->second;
    Rules r;
    auto block = g.model->kind_blocks.find(kind);
    Value through, stop;
    if (block != g.model->kind_blocks.end()) {
        const Value &p = props_of(block->second);
        if (p.tag == Value::DICT) {
            if (const Value *t = p.entries().find(SYM("through"))) through = *t;
            if (const Value *s = p.entries().find(SYM("stop"))) stop = *s;
        }
    }
    r.through = truthy(through) ? mask_of(through) : WALKING;
    if (truthy(stop)) r.stop = names_of(stop);
    cache.emplace(kind, r);
    return r;
}

Rules own_rules(Game &g, const Rec &unit) {  // movement._own_rules
    Rules r = kind_rules(g, unit.kind);
    if (unit.markers.items.empty()) return r;
    if (!g.marker_rules_known) {  // movement._marker_rules
        g.marker_rules_known = true;
        for (auto &b : g.model->system.entries().find(SYM("blocks"))->items()) {
            const Value *kind = b.entries().find(SYM("kind"));
            if (!(kind && kind->tag == Value::STR && text(kind->s) == "marker")) continue;
            const Value &p = props_of(b);
            Value through, passes;
            if (p.tag == Value::DICT) {
                if (const Value *t = p.entries().find(SYM("through"))) through = *t;
                if (const Value *s = p.entries().find(SYM("passes"))) passes = *s;
            }
            if (truthy(through) || truthy(passes))
                g.marker_rules.emplace_back(b.entries().find(SYM("id"))->s,
                                            std::make_pair(truthy(through) ? mask_of(through) : Mask(0), names_of(passes)));
        }
    }
    if (g.marker_rules.empty()) return r;
    for (auto &kv : unit.markers.items) {
        if (!truthy(kv.second)) continue;
        for (auto &lift : g.marker_rules)
            if (lift.first == kv.first) {
                r.through |= lift.second.first;
                std::vector<Sym> kept;
                for (Sym s : r.stop)
                    if (std::find(lift.second.second.begin(), lift.second.second.end(), s) == lift.second.second.end())
                        kept.push_back(s);
                r.stop = kept;
            }
    }
    return r;
}

bool stops_at(Game &g, Sym space, const std::vector<Sym> &stop) {  // movement._stops
    if (stop.empty()) return false;
    for (auto &u : g.state.units)
        if (u.space == space && std::find(stop.begin(), stop.end(), u.kind) != stop.end()) return true;
    return false;
}

std::vector<Hook *> refusals(Game &g, const Rec &unit) {  // movement._refusals
    std::vector<Hook *> out;
    auto found = g.model->hooks.find(joined(unit.kind, '.', SYM("entered")));
    if (found == g.model->hooks.end()) return out;
    for (Hook *h : found->second)
        if ((h->replace || h->ends) && (h->owner == 0 || g.in_play(h))) out.push_back(h);
    return out;
}

struct How {
    int start = Board::NONE;
    Mask through = 0;
    std::vector<Hook *> refusing;
    std::vector<Sym> stop;
    bool stopping_known = true;         // false while hooks refuse (the refusing search gathers them)
    std::vector<uint8_t> stopping;      // a flag per space
    bool any_stopping = false;
};

How how_of(Game &g, const Rec &unit, bool honour_stop, bool refuse) {  // movement._how
    How h;
    h.start = g.board->index(unit.space);
    Rules r = own_rules(g, unit);
    h.through = r.through;
    h.stop = r.stop;
    if (!honour_stop) return h;
    if (refuse) h.refusing = refusals(g, unit);
    if (!h.refusing.empty()) {
        h.stopping_known = false;
        return h;
    }
    if (h.stop.empty()) return h;
    h.stopping.assign(static_cast<size_t>(g.board->size()), 0);
    for (auto &u : g.state.units)
        if (u.space != 0 && std::find(h.stop.begin(), h.stop.end(), u.kind) != h.stop.end()) {
            int s = g.board->index(u.space);
            if (s != Board::NONE && s != h.start) {
                h.stopping[static_cast<size_t>(s)] = 1;
                h.any_stopping = true;
            }
        }
    return h;
}

// One refusing hook asked about many steps of one search (Game.asker): its contexts (one for each copy of
// a per-copy hook's card) made once; the tests its `when` starts with that read neither the step's space,
// where it comes from, nor the event as a whole worked out once (game._fixed_part); then, for each step,
// the space and origin put into them and the rest of the `when` asked.
struct Asker {
    Hook *hook = nullptr;
    bool never = false, always = false;
    Value params;
    std::vector<std::unique_ptr<Context>> contexts;
    size_t rest = 0;       // the first part of the `when` still asked for each step (when split)
    bool split = false;

    Asker(Game &g, Hook *h, const Rec &unit) : hook(h) {
        if (h->owner != 0 && !g.in_play(h)) {
            never = true;
            return;
        }
        if (h->filters.empty() && h->when == nullptr) {
            always = true;
            return;
        }
        params = Value::new_dict();
        params.entries()[Game::K_UNIT] = Value::make_ref(Game::K_UNIT, unit.id);
        params.entries()[Game::K_SPACE] = Value::make_ref(Game::K_SPACE, unit.space);
        params.entries()[Game::K_FROM] = Value();
        std::vector<Value> selves;
        if (h->per_copy) {
            for (Sym c : g.owner_copies(h))
                if (!h->if_played || g.state.card_of(c).where == Game::K_PLAY) selves.push_back(Value::make_ref(Game::K_CARD, c));
        } else {
            selves.push_back(h->owner != 0 ? g.owner_ref(h) : Value());
        }
        for (auto &self : selves) contexts.push_back(g.context_for(h, params, self));
        if (!h->when_parts.empty()) {  // game._fixed_part
            size_t k = 0;
            while (k < h->when_parts.size()) {
                bool moving = false;
                for (Sym n : h->when_parts[k])
                    if (n == Game::K_SPACE || n == Game::K_FROM || n == Game::K_EVENT) moving = true;
                if (moving) break;
                ++k;
            }
            if (k > 0 && k < h->when_parts.size()) {
                split = true;
                rest = k;
                std::vector<std::unique_ptr<Context>> kept;
                for (auto &ctx : contexts) {
                    bool holds = true;
                    for (size_t j = 0; j < k && holds; ++j) holds = truthy(eval(*ctx, h->when->args[j]));
                    if (holds) kept.push_back(std::move(ctx));
                }
                contexts = std::move(kept);
                if (contexts.empty()) never = true;
            }
        }
    }

    bool ask(Game &g, Sym space, Sym origin) {
        if (never) return false;
        if (always) return true;
        Value s = Value::make_ref(Game::K_SPACE, space), o = Value::make_ref(Game::K_SPACE, origin);
        params.entries()[Game::K_SPACE] = s;
        params.entries()[Game::K_FROM] = o;
        for (auto &ctx : contexts) {
            ctx->set(Game::K_SPACE, s);
            ctx->set(Game::K_FROM, o);
        }
        for (auto &ctx : contexts) {
            bool ok = true;
            for (auto &f : hook->filters) {
                const Value *actual = params.entries().find(f.first);
                if (!g.filter_matches(actual ? *actual : Value(), eval(*ctx, f.second))) {
                    ok = false;
                    break;
                }
            }
            if (!ok) continue;
            if (hook->when == nullptr) return true;
            if (split) {
                bool holds = true;
                for (size_t j = rest; j < hook->when->args.size() && holds; ++j) holds = truthy(eval(*ctx, hook->when->args[j]));
                if (holds) return true;
            } else if (truthy(eval(*ctx, hook->when))) {
                return true;
            }
        }
        return false;
    }
};

bool reads_from(const Hook *h) {
    for (Sym n : h->reads)
        if (n == Game::K_FROM || n == Game::K_EVENT) return true;
    return false;
}

// movement._refusing_search: distances and parents by space (UNREACHED: not reached), and the order met
Board::Tree refusing_search(Game &g, const Rec &unit, const How &h, int within, int goal) {
    const Board &b = *g.board;
    size_t n = static_cast<size_t>(b.size());
    std::vector<uint8_t> stopping(n, 0);
    if (!h.stop.empty())
        for (auto &u : g.state.units)
            if (u.space != 0 && std::find(h.stop.begin(), h.stop.end(), u.kind) != h.stop.end()) {
                int s = b.index(u.space);
                if (s != Board::NONE && s != h.start) stopping[static_cast<size_t>(s)] = 1;
            }
    const Board::Adjacency &adj = b.adjacency(h.through);
    std::vector<Hook *> hooks = h.refusing;
    std::stable_sort(hooks.begin(), hooks.end(), [](Hook *x, Hook *y) { return !x->ends && y->ends; });
    std::vector<std::vector<int8_t>> by_space(hooks.size());  // -1 unknown, else the answer
    std::vector<bool> once(hooks.size());
    std::vector<std::unique_ptr<Asker>> askers;
    for (Hook *hook : hooks) askers.push_back(std::make_unique<Asker>(g, hook, unit));
    for (size_t k = 0; k < hooks.size(); ++k) {
        once[k] = hooks[k]->pure_reads && !reads_from(hooks[k]);
        if (once[k]) by_space[k].assign(n, -1);
    }
    Board::Tree t;
    t.dist.assign(n, Board::UNREACHED);
    t.parent.assign(n, Board::UNREACHED);
    t.dist[static_cast<size_t>(h.start)] = 0;
    t.order.push_back(static_cast<uint16_t>(h.start));
    std::deque<int> queue{h.start};
    while (!queue.empty()) {
        int here = queue.front();
        queue.pop_front();
        if (stopping[static_cast<size_t>(here)]) continue;
        int d = t.dist[static_cast<size_t>(here)] + 1;
        if (within >= 0 && d > within) break;
        for (const uint16_t *p = adj.begin(here); p != adj.end(here); ++p) {
            int next = *p;
            if (t.dist[static_cast<size_t>(next)] != Board::UNREACHED) continue;
            bool refused = false, ends = false;
            for (size_t k = 0; k < hooks.size(); ++k) {
                bool applies;
                if (once[k]) {
                    int8_t &known = by_space[k][static_cast<size_t>(next)];
                    if (known < 0) known = askers[k]->ask(g, b.space_id(next), b.space_id(here)) ? 1 : 0;
                    applies = known == 1;
                } else {
                    applies = askers[k]->ask(g, b.space_id(next), b.space_id(here));
                }
                if (applies) {
                    refused = !hooks[k]->ends;
                    ends = hooks[k]->ends;
                    break;
                }
            }
            if (refused) continue;
            t.dist[static_cast<size_t>(next)] = static_cast<uint16_t>(d);
            t.parent[static_cast<size_t>(next)] = static_cast<uint16_t>(here);
            t.order.push_back(static_cast<uint16_t>(next));
            if (next == goal) return t;
            if (!ends) queue.push_back(next);
        }
    }
    return t;
}

std::vector<int> path_to(const Board::Tree &t, int to) {  // parents read back, the start left out
    std::vector<int> path;
    for (int at = to; t.parent[static_cast<size_t>(at)] != Board::UNREACHED; at = t.parent[static_cast<size_t>(at)])
        path.push_back(at);
    std::reverse(path.begin(), path.end());
    return path;
}

std::vector<Value> sorted_refs(Game &g, std::vector<Sym> ids) {
    std::sort(ids.begin(), ids.end(), [](Sym a, Sym b) { return text(a) < text(b); });
    std::vector<Value> out;
    for (Sym s : ids) out.push_back(Value::make_ref(Game::K_SPACE, s));
    return out;
}

int64_t count_of(const Value &n) {
    if (!truthy(n)) return 0;
    if (n.tag == Value::INT) return n.i;
    if (n.tag == Value::BOOL) return n.b;
    if (n.tag == Value::FLOAT) return static_cast<int64_t>(n.f);
    throw RuleError("int() of " + repr(n));
}

}  // namespace

Mask kind_through(Game &g, Sym kind) { return kind_rules(g, kind).through; }

std::vector<Value> reach(Game &g, Sym unit, const Value &n) {
    Rec *r = &g.state.unit_of(unit);
    if (r == nullptr) throw RuleError("KeyError: " + repr(Value::str(unit)));
    if (g.board == nullptr || r->space == 0) return {};
    int64_t limit = count_of(n);
    How h = how_of(g, *r, true, true);
    const Board &b = *g.board;
    std::vector<Sym> found;
    if (h.refusing.empty() && !h.any_stopping) {
        const Board::Tree &t = b.tree(h.start, h.through);
        for (uint16_t at : t.order) {
            int d = t.dist[at];
            if (d > limit) break;
            if (d) found.push_back(b.space_id(at));
        }
        return sorted_refs(g, found);
    }
    Board::Tree t = !h.refusing.empty() ? refusing_search(g, *r, h, static_cast<int>(std::min<int64_t>(limit, 1 << 20)), Board::NONE)
                                        : b.stopped_search(h.start, h.through, h.stopping);
    for (uint16_t at : t.order) {
        int d = t.dist[at];
        if (d > 0 && d <= limit) found.push_back(b.space_id(at));
    }
    return sorted_refs(g, found);
}

double steps(Game &g, Sym unit, Sym place) {
    Rec *r = &g.state.unit_of(unit);
    if (r == nullptr) throw RuleError("KeyError: " + repr(Value::str(unit)));
    if (g.board == nullptr || r->space == 0) return INF;
    return between(g, r->space, place, kind_rules(g, r->kind).through);
}

double route(Game &g, Sym unit, Sym from, Sym to) {
    Rec *r = &g.state.unit_of(unit);
    if (r == nullptr) throw RuleError("KeyError: " + repr(Value::str(unit)));
    if (g.board == nullptr) return INF;
    return between(g, to, from, kind_rules(g, r->kind).through);
}

void walk(Game &g, Sym unit, Sym to, const Value &n, Context &ctx) {
    Rec *r = &g.state.unit_of(unit);
    if (g.board == nullptr || r->space == 0) return;
    if (r->space == to) {
        Value entry = Value::new_dict();
        entry.entries()[SYM("type")] = Value::str(SYM("move"));
        entry.entries()[SYM("unit")] = Value::str(unit);
        entry.entries()[SYM("from")] = Value::str(to);
        entry.entries()[SYM("to")] = Value::str(to);
        g.log(entry, ctx.rule);
        return;
    }
    const Board &b = *g.board;
    int goal = index_or_error(g, to);
    How h = how_of(g, *r, true, true);
    std::vector<int> path;
    if (h.refusing.empty() && !h.any_stopping) {
        std::vector<int> way = b.way(h.start, goal, h.through);
        if (way.size() <= 1) return;
        path.assign(way.begin() + 1, way.end());
    } else {
        Board::Tree t = !h.refusing.empty() ? refusing_search(g, *r, h, -1, goal)
                                            : b.stopped_search(h.start, h.through, h.stopping);
        if (t.dist[static_cast<size_t>(goal)] == Board::UNREACHED) {
            How plain = how_of(g, *r, true, false);
            if (plain.any_stopping) t = b.stopped_search(plain.start, plain.through, plain.stopping);
            else t = b.search(plain.start, plain.through);
            if (t.dist[static_cast<size_t>(goal)] == Board::UNREACHED) return;
        }
        path = path_to(t, goal);
    }
    std::vector<Sym> stop = own_rules(g, *r).stop;
    int64_t limit = std::max<int64_t>(0, count_of(n));
    for (size_t k = 0; k < path.size() && static_cast<int64_t>(k) < limit; ++k) {
        Sym space = b.space_id(path[k]);
        Rec *now = &g.state.unit_of(unit);
        Sym origin = now->space;
        Sym kind = now->kind;
        g.move_unit(unit, space, ctx);
        Value params = Value::new_dict();
        params.entries()[Game::K_UNIT] = Value::make_ref(Game::K_UNIT, unit);
        params.entries()[Game::K_SPACE] = Value::make_ref(Game::K_SPACE, space);
        params.entries()[Game::K_FROM] = Value::make_ref(Game::K_SPACE, origin);
        Sym outcome = g.raise_now(joined(kind, '.', SYM("entered")), params);
        if (outcome != 0 && text(outcome) == "replaced") {
            g.move_unit(unit, origin, ctx, true);
            return;
        }
        if ((outcome != 0 && text(outcome) == "ended") || g.state.unit_of(unit).space != space || stops_at(g, space, stop))
            return;
    }
}

}  // namespace spawnpit
