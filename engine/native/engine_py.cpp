// The native engine's entry points: a model loaded once per pack and scenario, a board once per layout,
// then whole games (engine/native.py is their Python side).
#include <cstring>

#include "board.h"
#include "entry.h"
#include "game.h"
#include "pyconv.h"

namespace spawnpit {

PyObject *GameErrorType = nullptr;
PyObject *UnsupportedType = nullptr;

void play_game(Game &g);

namespace {

// ---- capsules ----

const char *MODEL = "spawnpit.native.Model";
const char *BOARD = "spawnpit.native.Board";

struct BoardBox {
    std::unique_ptr<Board> board;
    PyObject *sight = nullptr;  // the Python board's line_of_sight(a, b), for pairs not given
    std::unordered_map<Sym, Sym> pick_up_slugs;
    ~BoardBox() { Py_XDECREF(sight); }
};

void drop_model(PyObject *capsule) { delete static_cast<Model *>(PyCapsule_GetPointer(capsule, MODEL)); }
void drop_board(PyObject *capsule) { delete static_cast<BoardBox *>(PyCapsule_GetPointer(capsule, BOARD)); }

std::string python_error() {  // the pending Python error as text (and cleared)
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    std::string out = "a Python error";
    if (value != nullptr) {
        PyObject *s = PyObject_Str(value);
        if (s != nullptr) {
            const char *t = PyUnicode_AsUTF8(s);
            if (t != nullptr) out = std::string(Py_TYPE(value)->tp_name) + ": " + t;
            Py_DECREF(s);
        }
    }
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    PyErr_Clear();
    return out;
}

// ---- the state (state.py's plain data) → State ----

const Value NONE;

const Value &get(const Value &obj, const char *key) {
    if (obj.tag != Value::DICT) return NONE;
    const Value *v = obj.entries().find(intern(key));
    return v ? *v : NONE;
}

Sym sym(const Value &v) { return v.tag == Value::STR ? v.s : 0; }

int64_t num(const Value &v) { return v.tag == Value::INT ? v.i : v.tag == Value::BOOL ? v.b : 0; }

std::vector<Sym> syms(const Value &v) {
    std::vector<Sym> out;
    if (v.tag == Value::LIST)
        for (auto &x : v.items()) out.push_back(sym(x));
    return out;
}

void copy_map(SmallMap &to, const Value &from) {
    if (from.tag == Value::DICT)
        for (auto &kv : from.entries().items) to[kv.first] = kv.second;
}

void load_state(State &s, const Value &v) {
    s.seed = num(get(v, "seed"));
    s.scenario = sym(get(v, "scenario"));
    s.system = sym(get(v, "system"));
    s.round = num(get(v, "round"));
    s.at = syms(get(v, "at"));
    copy_map(s.counters, get(v, "counters"));
    copy_map(s.tracks, get(v, "tracks"));
    s.next_id = num(get(v, "next_id"));
    s.events = num(get(v, "events"));
    s.choices = num(get(v, "choices"));
    const Value &units = get(v, "units");
    if (units.tag == Value::DICT)
        for (auto &kv : units.entries().items) {
            const Value &r = kv.second;
            Rec u;
            u.id = kv.first;
            u.proto = sym(get(r, "proto"));
            u.kind = sym(get(r, "kind"));
            u.side = sym(get(r, "side"));
            u.space = sym(get(r, "space"));
            u.last_space = sym(get(r, "last_space"));
            u.from = sym(get(r, "from"));
            u.wounds = num(get(r, "wounds"));
            u.mode = get(r, "mode");
            u.name = get(r, "name");
            u.keywords = syms(get(r, "keywords"));
            copy_map(u.stats, get(r, "stats"));
            copy_map(u.markers, get(r, "markers"));
            copy_map(u.tracks, get(r, "tracks"));
            s.add(std::move(u));
        }
    const Value &cards = get(v, "cards");
    if (cards.tag == Value::DICT)
        for (auto &kv : cards.entries().items) {
            const Value &r = kv.second;
            Rec c;
            c.is_card = true;
            c.id = kv.first;
            c.proto = sym(get(r, "proto"));
            c.deck = sym(get(r, "deck"));
            c.where = sym(get(r, "where"));
            c.type = sym(get(r, "type"));
            c.status = sym(get(r, "status"));
            c.cancelled = truthy(get(r, "cancelled"));
            c.mode = get(r, "mode");
            const Value &target = get(r, "target");
            if (target.tag == Value::LIST && target.items().size() == 2) {
                c.target_kind = sym(target.items()[0]);
                c.target_id = sym(target.items()[1]);
            }
            c.keywords = syms(get(r, "keywords"));
            copy_map(c.stats, get(r, "stats"));
            copy_map(c.markers, get(r, "markers"));
            s.add(std::move(c));
        }
    for (const char *table : {"spaces", "buildings"}) {
        const Value &places = get(v, table);
        auto &list = std::strcmp(table, "spaces") == 0 ? s.spaces : s.buildings;
        auto &at = std::strcmp(table, "spaces") == 0 ? s.space_at : s.building_at;
        if (places.tag == Value::DICT)
            for (auto &kv : places.entries().items) {
                PlaceRec p;
                p.id = kv.first;
                copy_map(p.markers, get(kv.second, "markers"));
                p.keywords = syms(get(kv.second, "keywords"));
                p.mode = get(kv.second, "mode");
                if (at.size() <= p.id) at.resize(p.id + 1, -1);
                at[p.id] = static_cast<int32_t>(list.size());
                list.push_back(std::move(p));
            }
    }
    const Value &decks = get(v, "decks");
    if (decks.tag == Value::DICT)
        for (auto &kv : decks.entries().items) {
            Pile p;
            p.deck = kv.first;
            p.draw = syms(get(kv.second, "draw"));
            p.discard = syms(get(kv.second, "discard"));
            s.decks.push_back(std::move(p));
        }
    const Value &cursor = get(v, "cursor");
    if (cursor.tag == Value::DICT) {
        s.has_cursor = true;
        s.cursor.round = num(get(cursor, "round"));
        s.cursor.phase = static_cast<size_t>(num(get(cursor, "phase")));
        s.cursor.step = static_cast<size_t>(num(get(cursor, "step")));
        s.cursor.has_unit = cursor.entries().find(intern("unit")) != nullptr;
        s.cursor.unit = sym(get(cursor, "unit"));
        s.cursor.done = syms(get(cursor, "done"));
    }
    if (get(v, "result").tag != Value::NONE) throw Unsupported("the game is already decided");
}

// World._setup_tables: a game's first state (its board drawn and the dice where drawing it left them)
void setup_tables(Game &g, int64_t seed) {
    const Model &m = *g.model;
    State &s = g.state;
    s.seed = seed;
    s.scenario = m.scenario_id;
    s.system = m.system_name;
    auto number = [](const Value &v) { return v.tag == Value::INT ? v : v.tag == Value::BOOL ? v : Value::integer(0); };
    const Value &sprops = get(m.scenario, "props");
    const Value &counters = get(sprops, "counter");
    if (counters.tag == Value::LIST)
        for (auto &e : counters.items()) s.counters[sym(get(e, "key"))] = number(get(e, "value"));
    const Value &system_counters = get(get(m.system, "props"), "counter");
    if (system_counters.tag == Value::LIST)
        for (auto &e : system_counters.items())
            if (!s.counters.find(sym(get(e, "key")))) s.counters[sym(get(e, "key"))] = number(get(e, "value"));
    for (Sym name : m.track_names) {
        Value start = get(get(m.tracks.at(name), "props"), "start");
        if (start.tag == Value::LIST) start = start.items().empty() ? Value() : start.items()[0];
        s.tracks[name] = start.tag == Value::INT ? start : Value::integer(0);
    }
    for (Sym name : m.deck_names) {
        Pile p;
        p.deck = name;
        s.decks.push_back(std::move(p));
    }
    std::vector<const Value *> cards;
    for (auto &c : m.cards) cards.push_back(&c);
    std::stable_sort(cards.begin(), cards.end(),
                     [](const Value *a, const Value *b) { return text(get(*a, "id").s) < text(get(*b, "id").s); });
    for (const Value *card : cards) {
        const Value &props = get(*card, "props");
        Sym deck = sym(get(props, "deck"));
        const Value &count = get(props, "count");
        int64_t copies = count.tag == Value::NONE ? 1 : count.tag == Value::FLOAT ? static_cast<int64_t>(count.f) : num(count);
        for (int64_t k = 0; k < copies; ++k) {
            Rec c;
            c.is_card = true;
            c.id = g.new_id('c');
            c.proto = sym(get(*card, "id"));
            c.deck = deck;
            c.where = deck ? Game::K_DECK_W : Game::K_BOX;
            c.type = sym(get(props, "type"));
            c.keywords = syms(get(props, "keywords"));
            if (Pile *pile = deck ? s.pile(deck) : nullptr) pile->draw.push_back(c.id);
            s.add(std::move(c));
        }
    }
    for (auto &pile : s.decks) g.chance.shuffle(pile.draw);
}

PyObject *dict_of_result(Game &g) {
    const Result &r = g.state.result;
    PyObject *result = PyDict_New();
    auto set = [](PyObject *d, const char *key, PyObject *value) {
        PyDict_SetItemString(d, key, value);
        Py_DECREF(value);
    };
    set(result, "winner", to_python(r.winner));
    set(result, "side", to_python(r.side));
    set(result, "verdict", to_python(Value::str(r.verdict)));
    set(result, "cause", PyUnicode_FromStringAndSize(r.cause.data(), static_cast<Py_ssize_t>(r.cause.size())));
    set(result, "round", PyLong_FromLongLong(r.round));
    PyObject *out = PyDict_New();
    set(out, "result", result);
    set(out, "events", PyLong_FromLongLong(g.state.events));
    set(out, "choices", PyLong_FromLongLong(g.state.choices));
    set(out, "logged", PyLong_FromLongLong(g.logged));
    PyObject *fired = PyList_New(0);
    for (auto &kv : g.fired) {
        PyObject *pair = Py_BuildValue("(sL)", text(kv.first).c_str(), static_cast<long long>(kv.second));
        PyList_Append(fired, pair);
        Py_DECREF(pair);
    }
    set(out, "fired", fired);
    PyObject *met = PyList_New(0);
    for (bool m : g.met) PyList_Append(met, m ? Py_True : Py_False);
    set(out, "met", met);
    // what was in the game at its end (sim's `present`): its cards not set aside, its units
    PyObject *present = PyList_New(0);
    for (auto &c : g.state.cards)
        if (c.where != Game::K_BOX) {
            PyObject *name = PyUnicode_FromString(("card:" + text(c.proto)).c_str());
            PyList_Append(present, name);
            Py_DECREF(name);
        }
    for (auto &u : g.state.units) {
        PyObject *name = PyUnicode_FromString(("unit:" + text(u.proto)).c_str());
        PyList_Append(present, name);
        Py_DECREF(name);
    }
    set(out, "present", present);
    if (g.logging) {
        PyObject *lines = PyList_New(static_cast<Py_ssize_t>(g.lines.size()));
        for (size_t k = 0; k < g.lines.size(); ++k)
            PyList_SET_ITEM(lines, static_cast<Py_ssize_t>(k),
                            PyUnicode_FromStringAndSize(g.lines[k].data(), static_cast<Py_ssize_t>(g.lines[k].size())));
        set(out, "lines", lines);
    } else {
        Py_INCREF(Py_None);
        set(out, "lines", Py_None);
    }
    return out;
}

}  // namespace

// load(pack, scenario, system, extras) -> capsule
PyObject *native_load(PyObject *, PyObject *args) {
    PyObject *pack, *extras;
    const char *scenario, *system;
    if (!PyArg_ParseTuple(args, "OssO", &pack, &scenario, &system, &extras)) return nullptr;
    try {
        Game::init_names();
        Value p = from_python(pack), e = from_python(extras);
        std::unique_ptr<Model> model = load_model(p, intern(scenario), intern(system), e);
        return PyCapsule_New(model.release(), MODEL, drop_model);
    } catch (const Unsupported &err) {
        PyErr_SetString(UnsupportedType, err.what());
    } catch (const std::exception &err) {
        PyErr_SetString(UnsupportedType, err.what());
    }
    return nullptr;
}

// board(data, sight, pick_up_slugs) -> capsule; sight: a callable (a, b) -> bool for pairs the data leaves out
PyObject *native_board(PyObject *, PyObject *args) {
    PyObject *data, *sight, *slugs;
    if (!PyArg_ParseTuple(args, "OOO", &data, &sight, &slugs)) return nullptr;
    try {
        auto box = std::make_unique<BoardBox>();
        box->board = std::make_unique<Board>(from_python(data));
        if (sight != Py_None) {
            Py_INCREF(sight);
            box->sight = sight;
            Board *b = box->board.get();
            box->board->sight_source = [sight, b](int x, int y) {
                const std::string &a = text(b->space_id(x)), &c = text(b->space_id(y));
                PyObject *answer = PyObject_CallFunction(sight, "s#s#", a.data(), static_cast<Py_ssize_t>(a.size()),
                                                         c.data(), static_cast<Py_ssize_t>(c.size()));
                if (answer == nullptr) throw GameError("Line of Sight from " + a + " to " + c + ": " + python_error());
                int truth = PyObject_IsTrue(answer);
                Py_DECREF(answer);
                if (truth < 0) throw GameError(python_error());
                return truth == 1;
            };
        }
        Value s = from_python(slugs);
        if (s.tag == Value::DICT)
            for (auto &kv : s.entries().items) box->pick_up_slugs[kv.first] = kv.second.s;
        return PyCapsule_New(box.release(), BOARD, drop_board);
    } catch (const std::exception &err) {
        PyErr_SetString(UnsupportedType, err.what());
    }
    return nullptr;
}

static PyObject *run(PyObject *model_capsule, PyObject *board_capsule, PyObject *state, long long seed, PyObject *rng,
                     PyObject *policies, int logging, int profile);

// play(model, board, state, rng, policies, logging[, profile]) -> dict: a game from a state Python made
PyObject *native_play(PyObject *, PyObject *args) {
    PyObject *model_capsule, *board_capsule, *state, *rng, *policies;
    int logging = 0, profile = 0;
    if (!PyArg_ParseTuple(args, "OOOOOp|p", &model_capsule, &board_capsule, &state, &rng, &policies, &logging, &profile))
        return nullptr;
    return run(model_capsule, board_capsule, state, 0, rng, policies, logging, profile);
}

// play_new(model, board, seed, rng, policies, logging[, profile]) -> dict: a new game, its first state made
// natively (World._setup_tables) from the dice as drawing its board left them
PyObject *native_play_new(PyObject *, PyObject *args) {
    PyObject *model_capsule, *board_capsule, *rng, *policies;
    long long seed = 0;
    int logging = 0, profile = 0;
    if (!PyArg_ParseTuple(args, "OOLOOp|p", &model_capsule, &board_capsule, &seed, &rng, &policies, &logging, &profile))
        return nullptr;
    return run(model_capsule, board_capsule, nullptr, seed, rng, policies, logging, profile);
}

static PyObject *run(PyObject *model_capsule, PyObject *board_capsule, PyObject *state, long long seed, PyObject *rng,
                     PyObject *policies, int logging, int profile) {
    auto *model = static_cast<Model *>(PyCapsule_GetPointer(model_capsule, MODEL));
    if (model == nullptr) return nullptr;
    BoardBox *box = nullptr;
    if (board_capsule != Py_None) {
        box = static_cast<BoardBox *>(PyCapsule_GetPointer(board_capsule, BOARD));
        if (box == nullptr) return nullptr;
    }
    try {
        Game g(model, box ? box->board.get() : nullptr);
        if (box) g.pick_up_slugs = box->pick_up_slugs;
        Value r = from_python(rng);  // [version, [625 words], gauss]
        if (r.tag != Value::LIST || r.items().size() < 2 || r.items()[1].tag != Value::LIST ||
            r.items()[1].items().size() != 625)
            throw Unsupported("the dice's state is not random.getstate()'s");
        uint32_t words[Random::N];
        auto &internal = r.items()[1].items();
        for (int k = 0; k < Random::N; ++k) words[k] = static_cast<uint32_t>(internal[static_cast<size_t>(k)].i);
        g.chance.setstate(words, static_cast<int>(internal[Random::N].i));
        if (state != nullptr) load_state(g.state, from_python(state));
        else setup_tables(g, seed);
        Value p = from_python(policies);
        for (auto &kv : p.entries().items) {
            std::string name = text(kv.second.s);
            PolicyKind kind = name == "ai" ? PolicyKind::AI : name == "random" ? PolicyKind::RANDOM
                              : name == "first" ? PolicyKind::FIRST : PolicyKind::FIRST;
            if (name != "ai" && name != "random" && name != "first") throw Unsupported("the policy `" + name + "`");
            g.policies[kv.first] = kind;
        }
        g.logging = logging != 0;
        g.profiling = profile != 0;
        g.start();
        play_game(g);
        PyObject *out = dict_of_result(g);
        if (out != nullptr && g.profiling) {
            PyObject *spent = PyDict_New();
            for (auto &kv : g.spent) {
                PyObject *pair = Py_BuildValue("(dL)", kv.second.first, static_cast<long long>(kv.second.second));
                PyDict_SetItemString(spent, kv.first.c_str(), pair);
                Py_DECREF(pair);
            }
            PyDict_SetItemString(out, "spent", spent);
            Py_DECREF(spent);
        }
        return out;
    } catch (const GameError &err) {
        PyErr_SetString(GameErrorType, err.what());
    } catch (const RuleError &err) {
        PyErr_SetString(GameErrorType, err.what());
    } catch (const BoardError &err) {
        PyErr_SetString(GameErrorType, err.what());
    } catch (const Unsupported &err) {
        PyErr_SetString(UnsupportedType, err.what());
    } catch (const EndAction &) {
        PyErr_SetString(GameErrorType, "`end` outside any phase, step or action");
    } catch (const Decline &) {
        PyErr_SetString(GameErrorType, "`decline` outside an `instead of` hook");
    } catch (const GameOver &) {
        PyErr_SetString(GameErrorType, "the game ended outside any event");
    } catch (const std::exception &err) {
        PyErr_SetString(GameErrorType, err.what());
    }
    return nullptr;
}

}  // namespace spawnpit
