// The compiled model of one scenario (engine/model.py) and the compilation of rule IR to expression and
// statement trees (interp.py's compile side: what is pure, `any` stopping at the first item, `count(KIND
// in PLACE)`, `stat(h, NAME)`, `A * B` skipping B, a `prefer` list's parts, a question's label).
#include <algorithm>
#include <functional>
#include <set>

#include "core.h"
#include "json.h"
#include <map>

namespace spawnpit {

namespace {

// ---- reading JSON-shaped Values --------------------------------------------------------------------

const Value NONE_VALUE;

const Value &get(const Value &obj, const char *key) {
    if (obj.tag != Value::DICT) return NONE_VALUE;
    const Value *found = obj.entries().find(intern(key));
    return found ? *found : NONE_VALUE;
}

bool has(const Value &obj, const char *key) {
    return obj.tag == Value::DICT && obj.entries().find(intern(key)) != nullptr;
}

const std::vector<Value> &list_of(const Value &v) {
    static const std::vector<Value> empty;
    return v.tag == Value::LIST ? v.items() : empty;
}

std::string str_of(const Value &v) { return v.tag == Value::STR ? text(v.s) : std::string(); }

Sym sym_of(const Value &v) { return v.tag == Value::STR ? v.s : 0; }

bool is_name_node(const Value &ir, Sym name) {  // {"name": NAME} exactly
    return ir.tag == Value::DICT && ir.entries().items.size() == 1 && ir.entries().items[0].first == intern("name") &&
           ir.entries().items[0].second.tag == Value::STR && ir.entries().items[0].second.s == name;
}

// ---- interp._free: the names an expression reads, and whether it is pure ---------------------------

const std::set<std::string> PURE_FUNCTIONS = {
    "count", "any", "all", "min", "max", "distance", "adjacent", "sight", "stat", "list", "highest", "below",
    "lowest", "doubles", "dice", "reach", "steps", "route", "nearest", "within", "search_card", "pool_left", "edge",
    "neighbours", "apart"};

bool free_names(const Value &ir, std::set<Sym> &names) {
    if (ir.tag != Value::DICT) return true;
    if (has(ir, "lit")) return true;
    if (has(ir, "name")) {
        names.insert(sym_of(get(ir, "name")));
        return true;
    }
    if (has(ir, "attr")) return free_names(get(ir, "of"), names);
    if (has(ir, "call")) {
        bool pure = PURE_FUNCTIONS.count(str_of(get(ir, "call"))) > 0;
        for (auto &arg : list_of(get(ir, "args"))) pure = free_names(arg, names) && pure;
        return pure;
    }
    if (has(ir, "select")) {
        bool pure = true;
        if (truthy(get(ir, "in"))) pure = free_names(get(ir, "in"), names);
        if (truthy(get(ir, "where"))) {
            std::set<Sym> inner;
            bool p = free_names(get(ir, "where"), inner);
            inner.erase(sym_of(get(ir, "var")));
            names.insert(inner.begin(), inner.end());
            pure = pure && p;
        }
        return pure;
    }
    if (!(has(ir, "list") || has(ir, "op") || has(ir, "chain"))) return false;  // unknown: never pure
    std::vector<const Value *> parts;
    if (truthy(get(ir, "list"))) {
        for (auto &p : list_of(get(ir, "list"))) parts.push_back(&p);
    } else if (truthy(get(ir, "args"))) {
        for (auto &p : list_of(get(ir, "args"))) parts.push_back(&p);
    } else {
        auto &chain = list_of(get(ir, "chain"));
        for (size_t k = 0; k < chain.size(); k += 2) parts.push_back(&chain[k]);
    }
    bool pure = true;
    for (auto *p : parts) pure = free_names(*p, names) && pure;
    return pure;
}

bool is_pure(const Value &ir) {
    std::set<Sym> names;
    return free_names(ir, names);
}

const std::unordered_map<std::string, Fn> FUNCTIONS = {
    {"count", Fn::COUNT}, {"any", Fn::ANY}, {"all", Fn::ALL}, {"roll", Fn::ROLL}, {"min", Fn::MIN},
    {"max", Fn::MAX}, {"random", Fn::RANDOM}, {"distance", Fn::DISTANCE}, {"adjacent", Fn::ADJACENT},
    {"sight", Fn::SIGHT}, {"stat", Fn::STAT}, {"list", Fn::LIST}, {"highest", Fn::HIGHEST},
    {"lowest", Fn::LOWEST}, {"doubles", Fn::DOUBLES}, {"dice", Fn::DICE}, {"below", Fn::BELOW},
    {"reach", Fn::REACH}, {"steps", Fn::STEPS}, {"route", Fn::ROUTE}, {"nearest", Fn::NEAREST},
    {"within", Fn::WITHIN}, {"search_card", Fn::SEARCH_CARD}, {"pool_left", Fn::POOL_LEFT},
    {"apart", Fn::APART}, {"edge", Fn::EDGE}, {"neighbours", Fn::NEIGHBOURS}};

const std::unordered_map<std::string, Op> OPS = {
    {"==", Op::EQ}, {"!=", Op::NE}, {"<", Op::LT}, {"<=", Op::LE}, {">", Op::GT}, {">=", Op::GE},
    {"in", Op::IN}, {"not in", Op::NOT_IN}, {"has", Op::HAS}, {"is", Op::IS}, {"+", Op::ADD},
    {"-", Op::SUB}, {"*", Op::MUL}, {"/", Op::DIV}, {"%", Op::MOD}};

const std::unordered_map<std::string, Verb> VERBS = {
    {"move", Verb::MOVE}, {"place", Verb::PLACE}, {"spawn", Verb::SPAWN}, {"remove", Verb::REMOVE},
    {"wound", Verb::WOUND}, {"heal", Verb::HEAL}, {"kill", Verb::KILL}, {"roll", Verb::ROLL},
    {"draw", Verb::DRAW}, {"discard", Verb::DISCARD}, {"shuffle", Verb::SHUFFLE}, {"search", Verb::SEARCH},
    {"gain", Verb::GAIN}, {"spend", Verb::SPEND}, {"advance", Verb::ADVANCE}, {"set", Verb::SET},
    {"flip", Verb::FLIP}, {"mark", Verb::MARK}, {"unmark", Verb::UNMARK}, {"give", Verb::GIVE},
    {"reveal", Verb::REVEAL}, {"log", Verb::LOG}, {"emit", Verb::EMIT}, {"queue", Verb::QUEUE},
    {"cancel", Verb::CANCEL}, {"play", Verb::PLAY}, {"end", Verb::END}, {"decline", Verb::DECLINE},
    {"lookup", Verb::LOOKUP}, {"retreat", Verb::RETREAT}, {"enter", Verb::ENTER}};

// ---- the compiler ---------------------------------------------------------------------------------

struct Compiler {
    Model &m;
    struct Frame {
        const void *key;
        Sym bound;
        int *size;
        int *item_size;
        std::set<std::string> repeated;          // sub-expressions written more than once (canonical JSON)
        std::map<std::string, int> shared;       // those of them that depend on the item → their slot
    };

    static std::string canon(const Value &ir) {
        std::string out;
        write_json(out, ir, true);
        return out;
    }

    // interp._repeats: how often each sub-expression worth remembering is written
    static void repeats(const Value &ir, std::map<std::string, int> &counts) {
        if (ir.tag == Value::DICT) {
            for (const char *k : {"select", "call", "chain", "op", "attr", "list"})
                if (has(ir, k)) {
                    ++counts[canon(ir)];
                    break;
                }
            for (auto &kv : ir.entries().items) repeats(kv.second, counts);
        } else if (ir.tag == Value::LIST) {
            for (auto &v : ir.items()) repeats(v, counts);
        }
    }

    void enter_scope(const void *key, Sym bound, int *size, int *item_size, const Value &ir) {
        Frame f{key, bound, size, item_size, {}, {}};
        std::map<std::string, int> counts;
        repeats(ir, counts);
        for (auto &kv : counts)
            if (kv.second > 1) f.repeated.insert(kv.first);
        scopes.push_back(std::move(f));
    }
    std::vector<Frame> scopes;  // the selections and choices being compiled, outermost first

    // interp._remembering's "home": the outermost scope in which `e` has one value for every item
    void remember(Expr *e, const Value &ir, const std::set<Sym> &names) {
        if (scopes.empty() || !e->pure || has(ir, "lit")) return;
        int home = -1;
        for (int i = static_cast<int>(scopes.size()) - 1; i >= 0; --i) {
            if (names.count(scopes[static_cast<size_t>(i)].bound)) break;
            home = i;
        }
        if (home >= 0) {
            Frame &f = scopes[static_cast<size_t>(home)];
            e->memo_scope = f.key;
            e->memo_slot = (*f.size)++;
            return;
        }
        if (has(ir, "name")) return;
        for (int i = static_cast<int>(scopes.size()) - 1; i >= 0; --i) {  // interp._owner
            Frame &f = scopes[static_cast<size_t>(i)];
            if (!names.count(f.bound)) continue;
            std::string key = canon(ir);
            if (!f.repeated.count(key)) return;
            auto found = f.shared.find(key);
            int slot = found != f.shared.end() ? found->second : (f.shared[key] = (*f.item_size)++);
            e->item_scope = f.key;
            e->item_slot = slot;
            return;
        }
    }

    Expr *node(Expr::Kind kind) {
        m.exprs.emplace_back();
        Expr *e = &m.exprs.back();
        e->kind = kind;
        return e;
    }

    Expr *expr(const Value &ir) {
        if (ir.tag == Value::NONE) return nullptr;
        if (ir.tag != Value::DICT) throw Unsupported("an expression that is not an object");
        Expr *e = build(ir);
        std::set<Sym> names;
        e->pure = free_names(ir, names);
        remember(e, ir, names);
        return e;
    }

    Expr *lit(Value v) {
        Expr *e = node(Expr::LIT);
        e->lit = std::move(v);
        return e;
    }

    Expr *build(const Value &ir) {
        if (has(ir, "lit")) {
            const Value &type = get(ir, "type"), &value = get(ir, "lit");
            if (str_of(type) == "dice") {
                auto &pair = list_of(value);
                if (pair.size() != 2 || pair[0].tag != Value::INT || pair[1].tag != Value::INT)
                    throw Unsupported("a dice literal that is not two numbers");
                return lit(Value::make_dice(static_cast<int32_t>(pair[0].i), static_cast<int32_t>(pair[1].i)));
            }
            if (str_of(type) == "range") throw Unsupported("a range literal");
            if (value.tag == Value::LIST || value.tag == Value::DICT) throw Unsupported("a list or object literal");
            return lit(value);
        }
        if (has(ir, "name")) {
            Expr *e = node(Expr::NAME);
            e->name = sym_of(get(ir, "name"));
            return e;
        }
        if (has(ir, "attr")) {
            Expr *e = node(Expr::ATTR);
            e->name = sym_of(get(ir, "attr"));
            e->args.push_back(expr_or_none(get(ir, "of")));
            return e;
        }
        if (has(ir, "call")) return call(ir);
        if (has(ir, "list")) {
            Expr *e = node(Expr::LIST);
            for (auto &item : list_of(get(ir, "list"))) e->args.push_back(expr(item));
            return e;
        }
        if (has(ir, "op")) {
            std::string op = str_of(get(ir, "op"));
            Expr *e = node(op == "not" ? Expr::NOT : op == "-" ? Expr::NEG : op == "and" ? Expr::AND
                           : op == "or" ? Expr::OR : Expr::LIT);
            if (e->kind == Expr::LIT) throw Unsupported("the operator `" + op + "`");
            for (auto &arg : list_of(get(ir, "args"))) e->args.push_back(expr(arg));
            if (e->args.empty()) throw Unsupported("an operator without operands");
            return e;
        }
        if (has(ir, "chain")) {
            auto &chain = list_of(get(ir, "chain"));
            if (chain.size() < 3 || chain.size() % 2 == 0) throw Unsupported("a malformed chain");
            Expr *e = node(Expr::CHAIN);
            for (size_t k = 0; k < chain.size(); k += 2) e->args.push_back(expr(chain[k]));
            for (size_t k = 1; k < chain.size(); k += 2) {
                auto found = OPS.find(str_of(chain[k]));
                if (found == OPS.end()) throw Unsupported("the operator `" + str_of(chain[k]) + "`");
                e->ops.push_back(found->second);
            }
            e->skips = chain.size() == 3 && e->ops[0] == Op::MUL && is_pure(chain[2]);
            return e;
        }
        if (has(ir, "select")) return select(ir, false);
        throw Unsupported("an expression the core does not know");
    }

    // a selection: `KIND v [in SRC] [where TEST]` (an expression's `select`, or a for_each's or choose's
    // own, whose kind is under `kind_key`); its `where` is compiled in a scope of its own
    Expr *selection_of(const Value &ir, const char *kind_key, bool first = false) {
        Expr *e = node(Expr::SELECT);
        e->name = sym_of(get(ir, kind_key));
        e->var = sym_of(get(ir, "var"));
        e->args.push_back(truthy(get(ir, "in")) ? expr(get(ir, "in")) : nullptr);
        enter_scope(e, e->var, &e->memo_size, &e->item_size, get(ir, "where"));
        e->args.push_back(truthy(get(ir, "where")) ? expr(get(ir, "where")) : nullptr);
        scopes.pop_back();
        near_form(e, ir);
        e->first = first;
        std::set<Sym> names;
        bool pure = true;
        if (truthy(get(ir, "in"))) pure = free_names(get(ir, "in"), names);
        if (truthy(get(ir, "where"))) pure = free_names(get(ir, "where"), names) && pure;
        e->pure = pure;
        return e;
    }

    Expr *select(const Value &ir, bool first) { return selection_of(ir, "select", first); }

    // an expression that may be left out: nothing (None) when it is
    Expr *expr_or_none(const Value &ir) {
        Expr *e = expr(ir);
        return e != nullptr ? e : lit(Value());
    }

    // interp._near_form: `KIND v where route(v, v.space, PLACE) <= N` (or `< N`), PLACE and N pure and
    // not reading v, over the whole board's units of the kind
    void near_form(Expr *e, const Value &ir) {
        if (truthy(get(ir, "in")) || !truthy(get(ir, "where"))) return;
        auto &chain = list_of(get(get(ir, "where"), "chain"));
        if (chain.size() != 3) return;
        std::string op = str_of(chain[1]);
        if (op != "<=" && op != "<") return;
        const Value &call = chain[0];
        auto &args = list_of(get(call, "args"));
        if (str_of(get(call, "call")) != "route" || args.size() != 3) return;
        if (!is_name_node(args[0], e->var)) return;
        const Value &start = args[1];
        if (!(start.tag == Value::DICT && start.entries().items.size() == 2 && str_of(get(start, "attr")) == "space" &&
              is_name_node(get(start, "of"), e->var)))
            return;
        for (const Value *part : {&args[2], &chain[2]}) {
            std::set<Sym> names;
            if (!free_names(*part, names) || names.count(e->var)) return;
        }
        const Expr *where = e->args[1];  // its compiled route call and limit: PLACE and N
        e->args.push_back(where->args[0]->args[2]);
        e->args.push_back(where->args[1]);
        e->near = true;
        e->near_inclusive = op == "<=";
    }

    Expr *call(const Value &ir) {
        std::string name = str_of(get(ir, "call"));
        auto found = FUNCTIONS.find(name);
        if (found == FUNCTIONS.end()) throw Unsupported("the function `" + name + "`");
        Expr *e = node(Expr::CALL);
        e->fn = found->second;
        auto &args = list_of(get(ir, "args"));
        for (size_t k = 0; k < args.size(); ++k) {
            const Value &arg = args[k];
            if (name == "any" && has(arg, "select") && truthy(get(arg, "where")) && is_pure(get(arg, "where"))) {
                e->args.push_back(select(arg, true));  // interp._first_only
            } else if (name == "stat" && args.size() == 2 && k == 1 && has(arg, "name")) {
                e->args.push_back(lit(get(arg, "name")));  // `stat(h, health)`: a stat's name, not a value
            } else {
                e->args.push_back(expr_or_none(arg));
            }
        }
        bool selecting = name == "count" || name == "any" || name == "all" || name == "list" || name == "random";
        if (selecting && args.size() == 1) {  // interp._kind_in_place: `count(zombie in s)`
            auto &chain = list_of(get(args[0], "chain"));
            if (chain.size() == 3 && str_of(chain[1]) == "in" && chain[0].tag == Value::DICT && has(chain[0], "name")) {
                Expr *k = node(Expr::KIND_IN_PLACE);
                k->args = {expr(chain[0]), expr(chain[2]), e->args[0]};
                k->pure = e->args[0]->pure;
                e->args[0] = k;
            }
        }
        return e;
    }

    // ---- statements ----

    Stmt *new_stmt(Stmt::Kind kind) {
        m.stmts.emplace_back();
        Stmt *s = &m.stmts.back();
        s->kind = kind;
        return s;
    }

    Block block(const Value &irs) {
        Block out;
        for (auto &ir : list_of(irs)) out.push_back(stmt(ir));
        return out;
    }

    static std::string purpose(const Value &body, Sym var) {
        static const std::vector<std::pair<std::string, std::string>> purposes = {
            {"discard", "to discard"}, {"play", "to play"}, {"give", "to give"}, {"kill", "to kill"},
            {"remove", "to remove"}};
        for (auto &statement : list_of(body)) {
            if (statement.tag != Value::DICT) continue;
            if (is_name_node(get(statement, "what"), var)) {
                std::string verb = str_of(get(statement, "do"));
                for (auto &p : purposes)
                    if (p.first == verb) return " " + p.second;
            }
            auto &assign = list_of(get(statement, "assign"));
            if (assign.size() == 2 && str_of(assign[0]) == "self" && str_of(assign[1]) == "target" &&
                is_name_node(get(statement, "value"), var))
                return " to play it on";
        }
        return "";
    }

    Stmt *stmt(const Value &ir) {
        if (has(ir, "do")) return effect(ir);
        if (has(ir, "assign")) {
            Stmt *s = new_stmt(Stmt::ASSIGN);
            for (auto &part : list_of(get(ir, "assign"))) s->target.push_back(sym_of(part));
            s->op = sym_of(get(ir, "op"));
            s->value = expr_or_none(get(ir, "value"));
            return s;
        }
        if (has(ir, "let")) {
            Stmt *s = new_stmt(Stmt::LET);
            s->var = sym_of(get(ir, "let"));
            s->value = expr_or_none(get(ir, "value"));
            return s;
        }
        if (has(ir, "if")) {
            Stmt *s = new_stmt(Stmt::IF);
            s->cond = expr_or_none(get(ir, "if"));
            s->then = block(get(ir, "then"));
            s->orelse = block(get(ir, "else"));
            return s;
        }
        if (has(ir, "for_each")) {
            Stmt *s = new_stmt(Stmt::FOR_EACH);
            s->select = selection_of(ir, "for_each");
            s->var = sym_of(get(ir, "var"));
            s->body = block(get(ir, "body"));
            return s;
        }
        if (has(ir, "choose_option")) {
            Stmt *s = new_stmt(Stmt::CHOOSE_OPTION);
            for (auto &o : list_of(get(ir, "choose_option"))) {
                Stmt::Option option;
                option.label = sym_of(get(o, "label"));
                option.body = block(get(o, "body"));
                option.prefer = truthy(get(o, "prefer")) ? expr(get(o, "prefer")) : nullptr;
                s->options.push_back(std::move(option));
            }
            s->by = expr(get(ir, "by"));
            s->optional = truthy(get(ir, "optional"));
            return s;
        }
        if (has(ir, "choose")) {
            Stmt *s = new_stmt(Stmt::CHOOSE);
            s->select = selection_of(ir, "choose");
            s->var = sym_of(get(ir, "var"));
            s->body = block(get(ir, "body"));
            s->optional = truthy(get(ir, "optional"));
            s->by = truthy(get(ir, "by")) ? expr(get(ir, "by")) : nullptr;
            const Value &prefer = get(ir, "prefer");
            if (truthy(prefer)) {
                enter_scope(s, s->var, &s->memo_size, &s->item_size, prefer);
                s->prefer = expr(prefer);
                auto &items = list_of(get(prefer, "list"));
                if (has(prefer, "list") && items.size() > 1 && is_pure(prefer)) {  // interp._parts
                    s->has_parts = true;
                    for (auto &part : items) s->parts.push_back(expr(part));
                }
                scopes.pop_back();
            }
            s->label = "choose " + str_of(get(ir, "choose")) +
                       (truthy(get(ir, "ask")) ? " " + str_of(get(ir, "ask")) : purpose(get(ir, "body"), s->var));
            s->ask_with = has(ir, "ask_with") && get(ir, "ask_with").tag != Value::NONE ? expr(get(ir, "ask_with")) : nullptr;
            return s;
        }
        if (has(ir, "repeat")) {
            Stmt *s = new_stmt(Stmt::REPEAT);
            s->cond = expr_or_none(get(ir, "repeat"));
            s->body = block(get(ir, "body"));
            return s;
        }
        if (has(ir, "win") || has(ir, "lose")) {
            Stmt *s = new_stmt(has(ir, "win") ? Stmt::WIN : Stmt::LOSE);
            s->cond = expr_or_none(get(ir, has(ir, "win") ? "win" : "lose"));
            return s;
        }
        throw Unsupported("a statement the core does not know");
    }

    Stmt *effect(const Value &ir) {
        std::string verb = str_of(get(ir, "do"));
        auto found = VERBS.find(verb);
        if (found == VERBS.end()) throw Unsupported("the effect `" + verb + "`");
        Stmt *s = new_stmt(Stmt::DO);
        s->verb = found->second;
        const Value &what = get(ir, "what");
        if (what.tag != Value::NONE) {
            if (s->verb == Verb::SET) {  // interp._target_path
                if (has(what, "name")) {
                    s->target = {sym_of(get(what, "name"))};
                } else if (has(what, "attr") && has(get(what, "of"), "name")) {
                    s->target = {sym_of(get(get(what, "of"), "name")), sym_of(get(what, "attr"))};
                } else {
                    throw Unsupported("`set` of something that is not a counter, a variable or NAME.STAT");
                }
            } else {
                s->what = expr(what);
            }
        }
        const Value &args = get(ir, "args");
        if (args.tag == Value::DICT) {
            for (auto &kv : args.entries().items) {
                std::string prep = text(kv.first);
                if (prep == "as" || (prep == "into" && s->verb == Verb::ROLL)) {
                    s->args.emplace_back(kv.first, nullptr);
                    s->arg_names.push_back(sym_of(get(kv.second, "name")));
                } else {
                    s->args.emplace_back(kv.first, expr_or_none(kv.second));
                    s->arg_names.push_back(0);
                }
            }
            const Value &with = get(args, "with");
            if (s->verb == Verb::LOG && with.tag == Value::DICT && has(with, "list")) {
                for (auto &item : list_of(get(with, "list"))) s->stats.push_back(sym_of(get(item, "attr")));
            }
        }
        return s;
    }
};

// ---- model.py's Model --------------------------------------------------------------------------------

std::string title_of_obj(const Value &obj) {
    std::string t = str_of(get(get(obj, "props"), "title"));
    if (!t.empty()) return t;
    t = str_of(get(obj, "title"));
    return t.empty() ? str_of(get(obj, "id")) : t;
}

bool names_self(const Value &node) {
    if (node.tag == Value::DICT) {
        const Value *name = node.entries().find(intern("name"));
        if (name && name->tag == Value::STR && text(name->s) == "self") return true;
        for (auto &kv : node.entries().items)
            if (names_self(kv.second)) return true;
    } else if (node.tag == Value::LIST) {
        for (auto &v : node.items())
            if (names_self(v)) return true;
    }
    return false;
}

bool is_self_played(const Value &ir) {
    return ir.tag == Value::DICT && ir.entries().items.size() == 2 && str_of(get(ir, "attr")) == "played" &&
           is_name_node(get(ir, "of"), intern("self"));
}

bool starts_played(const Value &when) {
    if (when.tag != Value::DICT) return false;
    if (is_self_played(when)) return true;
    auto &args = list_of(get(when, "args"));
    return str_of(get(when, "op")) == "and" && !args.empty() && is_self_played(args[0]);
}

struct Gatherer {
    Model &m;
    Compiler &c;
    int count = 0;  // hooks added so far (model.py's `order`)

    void add(const Value &obj, int layer, const std::vector<std::pair<Sym, Value>> &env, Sym owner) {
        m.rules.emplace_back();
        Rule *rule = &m.rules.back();
        rule->rule = sym_of(get(obj, "id"));
        rule->title = intern(title_of_obj(obj));
        rule->source = sym_of(get(get(obj, "props"), "source"));
        rule->owner = owner;
        rule->has_owner = owner != 0;
        for (auto &h : list_of(get(obj, "hooks"))) {
            m.hook_store.emplace_back();
            Hook *hook = &m.hook_store.back();
            hook->event = sym_of(get(h, "event"));
            hook->replace = truthy(get(h, "replace"));
            hook->layer = layer;
            hook->order = count++;
            hook->rule = rule;
            hook->body = c.block(get(h, "body"));
            const Value &when = get(h, "when");
            hook->when = truthy(when) ? c.expr(when) : nullptr;
            // reads (model._reads)
            std::set<Sym> reads;
            bool pure = true;
            const Value &filters = get(h, "filters");
            if (filters.tag == Value::DICT) {
                for (auto &kv : filters.entries().items) {
                    reads.insert(kv.first);
                    hook->filters.emplace_back(kv.first, c.expr_or_none(kv.second));
                }
            }
            if (when.tag != Value::NONE) pure = free_names(when, reads) && pure;
            if (filters.tag == Value::DICT)
                for (auto &kv : filters.entries().items) pure = free_names(kv.second, reads) && pure;
            hook->pure_reads = pure;
            if (pure) hook->reads.assign(reads.begin(), reads.end());
            if (pure && str_of(get(when, "op")) == "and" && hook->when && hook->when->kind == Expr::AND) {
                for (auto &part : list_of(get(when, "args"))) {
                    std::set<Sym> names;
                    free_names(part, names);
                    hook->when_parts.emplace_back(names.begin(), names.end());
                }
            }
            hook->env = env;
            hook->owner = owner;
            if (owner != 0) {
                const std::string &o = text(owner);
                hook->owner_is_card = o.rfind("card:", 0) == 0;
                hook->owner_proto = intern(o.substr(o.find(':') + 1));
            }
            hook->per_copy = owner != 0 && hook->owner_is_card && names_self(h);
            hook->if_played = starts_played(when);
            // ends (model._ends)
            bool ends_body = false;
            for (auto &s : list_of(get(h, "body")))
                if (str_of(get(s, "do")) == "end") ends_body = true;
            hook->ends = !hook->replace && ends_body && pure && !reads.count(intern("from")) &&
                         !reads.count(intern("event"));
            // self_test (interp.expr): `when NAME == self`
            auto &chain = list_of(get(when, "chain"));
            if (chain.size() == 3 && str_of(chain[1]) == "==" && is_name_node(chain[2], intern("self")) &&
                chain[0].tag == Value::DICT && chain[0].entries().items.size() == 1 && has(chain[0], "name"))
                hook->self_test = sym_of(get(chain[0], "name"));
            m.hooks[hook->event].push_back(hook);
        }
    }

    void walk(const Value &obj, int layer, const std::vector<std::pair<Sym, Value>> &env, Sym owner) {
        add(obj, layer, env, owner);
        for (auto &block : list_of(get(obj, "blocks"))) {
            std::string kind = str_of(get(block, "kind"));
            if (kind == "rule" || kind == "phase" || kind == "step" || kind == "action" || kind == "ability" ||
                kind == "setup")
                walk(block, layer, env, owner);
        }
    }
};

// game._inputs' `simple`: literals, names, and/or/not/-, chains of comparisons and arithmetic
bool simple_when(const Value &node, std::set<Sym> &used) {
    static const std::set<std::string> ops = {"==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"};
    if (node.tag != Value::DICT) return false;
    if (has(node, "lit")) return true;
    if (has(node, "name")) {
        used.insert(sym_of(get(node, "name")));
        return true;
    }
    if (has(node, "op")) {
        std::string op = str_of(get(node, "op"));
        if (op != "and" && op != "or" && op != "not" && op != "-") return false;
        for (auto &a : list_of(get(node, "args")))
            if (!simple_when(a, used)) return false;
        return true;
    }
    if (has(node, "chain")) {
        auto &chain = list_of(get(node, "chain"));
        for (size_t k = 1; k < chain.size(); k += 2)
            if (!ops.count(str_of(chain[k]))) return false;
        for (size_t k = 0; k < chain.size(); k += 2)
            if (!simple_when(chain[k], used)) return false;
        return true;
    }
    return false;
}

int layer_of(const Value &rule) {
    std::string layer = str_of(get(get(rule, "props"), "layer"));
    if (layer == "system") return 0;
    if (layer == "expansion") return 1;
    if (layer == "card") return 3;
    return 2;  // "scenario", and the default
}

}  // namespace

std::unique_ptr<Model> load_model(const Value &pack, Sym scenario_id, Sym system_name, const Value &extras) {
    auto model = std::make_unique<Model>();
    Model &m = *model;
    Compiler c{m};
    m.system_name = system_name;
    m.scenario_id = scenario_id;
    const Value *systems = pack.entries().find(intern("systems"));
    const Value *system = systems ? systems->entries().find(system_name) : nullptr;
    if (system == nullptr) throw Unsupported("the pack has no system `" + text(system_name) + "`");
    m.system = *system;
    // the shapes the core reads without looking twice (a compiled pack always has them; a hand-edited one
    // that does not is played in Python, which says what is wrong)
    auto needs = [](bool ok, const std::string &what) {
        if (!ok) throw Unsupported("the pack is not as the compiler writes it: " + what);
    };
    needs(m.system.tag == Value::DICT && get(m.system, "blocks").tag == Value::LIST, "a system without blocks");
    for (auto &b : list_of(get(m.system, "blocks")))
        needs(b.tag == Value::DICT && get(b, "kind").tag == Value::STR && get(b, "id").tag == Value::STR,
              "a system block without a kind or id");
    needs(get(pack, "objects").tag == Value::LIST, "no objects");
    for (auto &o : list_of(get(pack, "objects"))) {
        needs(o.tag == Value::DICT && get(o, "kind").tag == Value::STR && get(o, "id").tag == Value::STR,
              "an object without a kind or id");
        if (str_of(get(o, "kind")) == "unit") needs(get(o, "unit_kind").tag == Value::STR, "a unit without a kind");
        for (const char *key : {"props"})
            needs(get(o, key).tag == Value::DICT || get(o, key).tag == Value::NONE, "an object whose props are not an object");
    }
    std::vector<Value> objects;
    std::vector<std::pair<std::pair<Sym, Sym>, Value>> by_key;  // (kind, id) → object, the last one kept
    for (auto &o : list_of(get(pack, "objects"))) {
        if (sym_of(get(o, "system")) != system_name) continue;
        objects.push_back(o);
        if (str_of(get(o, "kind")) == "scenario" && sym_of(get(o, "id")) == scenario_id) m.scenario = o;
    }
    if (m.scenario.tag == Value::NONE) throw Unsupported("the pack has no scenario `" + text(scenario_id) + "`");
    auto object = [&](const char *kind, Sym id) -> Value {
        Value found;
        for (auto &o : objects)
            if (str_of(get(o, "kind")) == kind && sym_of(get(o, "id")) == id) found = o;
        return found;
    };
    auto blocks = [&](const Value &obj, const char *kind) {
        std::vector<Value> out;
        for (auto &b : list_of(get(obj, "blocks")))
            if (str_of(get(b, "kind")) == kind) out.push_back(b);
        return out;
    };
    for (auto &b : blocks(m.system, "side")) m.sides.push_back(sym_of(get(b, "id")));
    for (auto &b : blocks(m.system, "kind")) {
        Sym id = sym_of(get(b, "id"));
        if (!m.kind_blocks.count(id)) m.kinds.push_back(id);
        m.kind_blocks[id] = b;
    }
    auto add_deck = [&](const Value &d) {
        Sym id = sym_of(get(d, "id"));
        if (!m.decks.count(id)) m.deck_names.push_back(id);
        m.decks[id] = d;
    };
    for (auto &b : blocks(m.system, "deck")) add_deck(b);
    for (auto &o : objects)
        if (str_of(get(o, "kind")) == "deck") add_deck(o);
    for (auto &b : blocks(m.system, "track")) {
        Sym id = sym_of(get(b, "id"));
        if (!m.tracks.count(id)) m.track_names.push_back(id);
        m.tracks[id] = b;
    }
    for (auto &o : objects) {
        std::string kind = str_of(get(o, "kind"));
        if (kind == "unit") m.units.push_back(o);
        if (kind == "card") m.cards.push_back(o);
        if (kind == "table") m.tables[sym_of(get(o, "id"))] = o;
    }
    for (auto &o : m.units) m.protos.emplace(sym_of(get(o, "id")), o);  // model._protos: the first one
    for (auto &o : m.cards) m.protos.emplace(sym_of(get(o, "id")), o);
    m.phases = blocks(m.system, "phase");
    for (auto &b : blocks(m.system, "stat")) m.stats[sym_of(get(b, "id"))] = b;
    // names (model._names): later meanings replace earlier ones
    auto name = [&](const Value &id, const char *kind) { m.names[sym_of(id)] = {intern(kind), sym_of(id)}; };
    for (auto &kw : list_of(get(get(m.system, "props"), "keywords"))) name(kw, "keyword");
    for (auto &kw : list_of(get(get(m.system, "props"), "card_types"))) name(kw, "keyword");
    for (auto &o : objects) {
        std::string kind = str_of(get(o, "kind"));
        const char *ref = kind == "card" ? "card_proto" : kind == "board" ? "board" : kind == "table" ? "table"
                          : kind == "unit" ? "unit_proto" : nullptr;
        if (ref) name(get(o, "id"), ref);
    }
    for (const char *kind : {"mode", "marker", "track", "deck", "kind", "side"})
        for (auto &b : blocks(m.system, kind)) name(get(b, "id"), kind);
    for (Sym deck : m.deck_names) m.names[deck] = {intern("deck"), deck};
    // hooks (model._gather)
    Gatherer g{m, c};
    std::vector<std::pair<Sym, Value>> none;
    g.walk(m.system, 0, none, 0);
    for (auto &entry : list_of(get(m.scenario, "rules"))) {
        Value rule = object("special_rule", sym_of(get(entry, "rule")));
        if (rule.tag == Value::NONE) continue;
        std::vector<std::pair<Sym, Value>> env;
        const Value &args = get(entry, "args");
        if (args.tag == Value::DICT)
            for (auto &kv : args.entries().items) env.emplace_back(kv.first, kv.second);
        g.walk(rule, layer_of(rule), env, 0);
    }
    std::set<Sym> in_scenario;
    for (auto &entry : list_of(get(m.scenario, "rules"))) in_scenario.insert(sym_of(get(entry, "rule")));
    std::set<std::pair<Sym, Sym>> seen;  // (kind, id) once each, as the dict model.objects holds them
    std::vector<Value> specials;
    for (auto it = objects.rbegin(); it != objects.rend(); ++it) {  // the last object of each key wins …
        auto key = std::make_pair(sym_of(get(*it, "kind")), sym_of(get(*it, "id")));
        if (seen.insert(key).second) specials.push_back(*it);
    }
    std::reverse(specials.begin(), specials.end());
    // … at the position of the first (a dict keeps the first insertion's place)
    std::vector<Value> ordered;
    std::set<std::pair<Sym, Sym>> placed;
    for (auto &o : objects) {
        auto key = std::make_pair(sym_of(get(o, "kind")), sym_of(get(o, "id")));
        if (!placed.insert(key).second) continue;
        for (auto &s : specials)
            if (sym_of(get(s, "kind")) == key.first && sym_of(get(s, "id")) == key.second) ordered.push_back(s);
    }
    for (auto &o : ordered)
        if (str_of(get(o, "kind")) == "special_rule" && truthy(get(o, "always")) && !in_scenario.count(sym_of(get(o, "id"))))
            g.walk(o, layer_of(o), none, 0);
    g.walk(m.scenario, 2, none, 0);
    for (auto &card : m.cards) g.walk(card, 3, none, intern("card:" + str_of(get(card, "id"))));
    for (auto &unit : m.units) g.walk(unit, 3, none, intern("unit:" + str_of(get(unit, "id"))));
    std::vector<Sym> unit_events;
    for (auto &kv : m.hooks)
        if (text(kv.first).rfind("unit.", 0) == 0) unit_events.push_back(kv.first);
    // (model.py walks its dict in insertion order; the order of this loop changes nothing: each kind's
    // list is sorted below by layer and order)
    for (Sym event : unit_events) {
        std::string rest = text(event).substr(5);
        std::vector<Hook *> hooks = m.hooks[event];
        for (Sym kind : m.kinds) {
            auto &list = m.hooks[intern(text(kind) + "." + rest)];
            list.insert(list.end(), hooks.begin(), hooks.end());
        }
    }
    for (auto &kv : m.hooks)
        std::stable_sort(kv.second.begin(), kv.second.end(), [](const Hook *a, const Hook *b) {
            return a->layer != b->layer ? a->layer < b->layer : a->order < b->order;
        });
    // the scenario as a rule (World.scenario_rule) and its objectives
    m.scenario_rule.rule = scenario_id;
    const Value &title = get(get(m.scenario, "props"), "title");
    m.scenario_rule.title = title.tag == Value::STR ? title.s : scenario_id;
    m.scenario_rule.source = sym_of(get(get(m.scenario, "props"), "source"));
    for (auto &o : list_of(get(m.scenario, "objectives"))) {
        Objective objective;
        objective.side = sym_of(get(o, "side"));
        objective.result = sym_of(get(o, "result"));
        objective.at = sym_of(get(o, "at"));
        if (has(o, "when")) {
            objective.test = c.expr(get(o, "when"));
            std::set<Sym> used;
            objective.simple_shape = simple_when(get(o, "when"), used);
            objective.used.assign(used.begin(), used.end());
        }
        auto &texts = list_of(get(extras, "objective_texts"));
        if (m.objectives.size() < texts.size()) objective.text = str_of(texts[m.objectives.size()]);
        m.objectives.push_back(std::move(objective));
    }
    for (auto &name : list_of(get(extras, "search_cards"))) m.search_cards.push_back(sym_of(name));
    // the `require` and `prefer` of every phase, step and action (flow._block_exprs)
    std::function<void(const Value &)> props_of_blocks = [&](const Value &block) {
        for (const char *prop : {"require", "prefer"}) {
            const Value &exprs = get(get(block, "props"), prop);
            if (!truthy(exprs)) continue;
            std::vector<Expr *> compiled;
            for (auto &e : list_of(exprs)) compiled.push_back(c.expr_or_none(e));
            (std::string(prop) == "require" ? m.require : m.prefer)[block.dict] = compiled;
        }
        for (auto &inner : list_of(get(block, "blocks"))) props_of_blocks(inner);
    };
    for (auto &phase : m.phases) props_of_blocks(phase);
    return model;
}

}  // namespace spawnpit
