// The native core's model, state and game: the C++ twin of engine/model.py, state.py, world.py, game.py.
// Every function here answers as its Python namesake does (see docs/native.md); comments name it.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "value.h"

namespace spawnpit {

struct Board;
class Random;
struct Game;
struct Context;

// ---- errors and control flow (interp.py, game.py) -------------------------------------------------

struct RuleError : std::runtime_error {  // interp.RuleError
    using std::runtime_error::runtime_error;
};
struct GameError : std::runtime_error {  // game.GameError
    using std::runtime_error::runtime_error;
};
struct Unsupported : std::runtime_error {  // the pack uses something the core does not do: Python plays it
    using std::runtime_error::runtime_error;
};
struct EndAction {};  // `end`
struct Decline {};    // `decline`
struct GameOver {};   // the game was decided inside a hook

// ---- expressions (interp.py) ------------------------------------------------------------------------

enum class Fn : uint8_t {
    COUNT, ANY, ALL, ROLL, MIN, MAX, RANDOM, DISTANCE, ADJACENT, SIGHT, STAT, LIST, HIGHEST, LOWEST, DOUBLES,
    DICE, BELOW, REACH, STEPS, ROUTE, NEAREST, WITHIN, SEARCH_CARD, POOL_LEFT, APART, EDGE, NEIGHBOURS,
};

enum class Op : uint8_t { EQ, NE, LT, LE, GT, GE, IN, NOT_IN, HAS, IS, ADD, SUB, MUL, DIV, MOD };

inline bool is_comparison(Op op) { return op <= Op::IS; }

struct Expr {
    enum Kind : uint8_t { LIT, NAME, ATTR, CALL, LIST, NOT, NEG, AND, OR, CHAIN, SELECT, KIND_IN_PLACE };
    Kind kind = LIT;
    Value lit;                 // LIT
    Sym name = 0;              // NAME; ATTR: the attribute; SELECT: the kind selected
    Sym var = 0;               // SELECT: the name bound to each item
    Fn fn = Fn::COUNT;         // CALL
    bool pure = true;          // no dice, no chance (interp._free)
    bool first = false;        // SELECT: the first item that passes is enough (any(), interp._first_only)
    bool skips = false;        // CHAIN `A * B`: B not worked out when A is nothing or 0 (B pure)
    std::vector<Expr *> args;  // CALL, LIST, AND/OR, NOT/NEG [x], ATTR [of], CHAIN operands,
                               // SELECT [in or null, where or null], KIND_IN_PLACE [left, right, whole]
    std::vector<Op> ops;       // CHAIN
    // Worked out once per run of an enclosing selection's `where` or choice's `prefer` (interp's memo: a
    // pure sub-expression that reads none of the names bound there): that scope (the SELECT node or the
    // CHOOSE statement) and its slot; a SELECT's `memo_size`: the slots of its scope.
    const void *memo_scope = nullptr;
    int memo_slot = -1;
    int memo_size = 0;
    // Worked out once per item of an enclosing scope (interp's per_item): a pure sub-expression that reads
    // that scope's item and is written more than once there (the same count in several criteria); a
    // scope's `item_size`: its per-item slots.
    const void *item_scope = nullptr;
    int item_slot = -1;
    int item_size = 0;
    // SELECT `KIND v where route(v, v.space, PLACE) <= N` (or `< N`): the units of the kind within N moves
    // of PLACE, read off the board's rows (interp._select_near); args[2] PLACE, args[3] N
    bool near = false, near_inclusive = false;
};

// A run of a scope (a selection's `where` over its items, a choice's `prefer` over its options): the values
// of its item-independent sub-expressions, each worked out the first time it is needed.
struct ScopeRun {
    const void *key = nullptr;
    std::vector<Value> memo;
    std::vector<uint8_t> have;
    int item_size = 0;
    std::vector<Value> item_memo;      // the current item's (enter() forgets them)
    std::vector<uint8_t> item_have;
    Value *cur_memo = nullptr;         // where the current item's values are kept (item_memo, or an option's)
    uint8_t *cur_have = nullptr;
    std::vector<std::vector<Value>> option_memo;  // a choice's criteria worked out one by one: by option index
    std::vector<std::vector<uint8_t>> option_have;
    ScopeRun(const void *k, int size, int items = 0)
        : key(k), memo(static_cast<size_t>(size)), have(static_cast<size_t>(size), 0), item_size(items),
          item_memo(static_cast<size_t>(items)), item_have(static_cast<size_t>(items), 0) {
        cur_memo = item_memo.data();
        cur_have = item_have.data();
    }
    void enter() {  // the next item
        if (item_size) {
            std::fill(item_have.begin(), item_have.end(), 0);
            cur_memo = item_memo.data();
            cur_have = item_have.data();
        }
    }
    void enter_option(size_t index) {  // an option of a choice, whose values are kept between criteria
        if (!item_size) return;
        if (option_memo.size() <= index) {
            option_memo.resize(index + 1);
            option_have.resize(index + 1);
        }
        if (option_memo[index].empty()) {
            option_memo[index].resize(static_cast<size_t>(item_size));
            option_have[index].assign(static_cast<size_t>(item_size), 0);
        }
        cur_memo = option_memo[index].data();
        cur_have = option_have[index].data();
    }
};

// ---- statements (interp.py) -------------------------------------------------------------------------

enum class Verb : uint8_t {
    MOVE, PLACE, SPAWN, REMOVE, WOUND, HEAL, KILL, ROLL, DRAW, DISCARD, SHUFFLE, SEARCH, GAIN, SPEND, ADVANCE,
    SET, FLIP, MARK, UNMARK, GIVE, REVEAL, LOG, EMIT, QUEUE, CANCEL, PLAY, END, DECLINE, LOOKUP, RETREAT, ENTER,
};

struct Stmt;
using Block = std::vector<Stmt *>;

struct Stmt {
    enum Kind : uint8_t { DO, ASSIGN, LET, IF, FOR_EACH, CHOOSE_OPTION, CHOOSE, REPEAT, WIN, LOSE };
    Kind kind = DO;
    // DO: an effect
    Verb verb = Verb::END;
    Expr *what = nullptr;
    std::vector<std::pair<Sym, Expr *>> args;  // prepositional arguments, in order (`as`/`into` hold a name)
    std::vector<Sym> arg_names;                // for `as`, `into`: the name (args' Expr null)
    std::vector<Sym> target;                   // `set`: the path written (`h.health` → [h, health])
    std::vector<Sym> stats;                    // `log … with [..]`: the stat each value reads (0: none)
    // ASSIGN / LET
    Sym op = 0;                                // "=", "+=", "-="
    Expr *value = nullptr;
    // IF, FOR_EACH, CHOOSE, REPEAT
    Expr *cond = nullptr;                      // IF; REPEAT: the count; WIN/LOSE: the side
    Block then, orelse, body;
    Expr *select = nullptr;                    // FOR_EACH, CHOOSE: the selection (a SELECT node)
    Sym var = 0;
    bool optional = false;
    Expr *by = nullptr;
    Expr *prefer = nullptr;                    // CHOOSE: the whole `prefer`
    std::vector<Expr *> parts;                 // CHOOSE: its criteria one by one, when pure (interp._parts)
    bool has_parts = false;
    int memo_size = 0;                         // CHOOSE: the memo slots of its `prefer` scope
    int item_size = 0;                         // CHOOSE: its per-option slots
    std::string label;                         // CHOOSE: the question
    Expr *ask_with = nullptr;
    // CHOOSE_OPTION
    struct Option { Sym label; Block body; Expr *prefer = nullptr; };
    std::vector<Option> options;
};

// ---- hooks and the model (model.py) -----------------------------------------------------------------

struct Rule {  // a hook's provenance: {"rule", "title", "source", "owner"?}
    Sym rule = 0, title = 0, source = 0, owner = 0;
    bool has_owner = false;
};

struct Hook {
    Sym event = 0;
    bool replace = false;
    int layer = 0, order = 0;
    const Rule *rule = nullptr;
    Block body;
    Expr *when = nullptr;
    std::vector<std::pair<Sym, Expr *>> filters;
    std::vector<std::pair<Sym, Value>> env;  // rule arguments
    Sym owner = 0;                          // "card:<proto>" / "unit:<proto>", 0 for none
    bool owner_is_card = false;
    Sym owner_proto = 0;
    bool per_copy = false, if_played = false, ends = false;
    bool pure_reads = false;                 // `reads` is not None
    std::vector<Sym> reads;                  // the names its `when` and filters read
    Sym self_test = 0;                       // `when NAME == self` (interp.expr's fn.self_test), 0 for none
    // a pure `when` of the form `A and B and …` (game._tests): for each part, the names it reads
    std::vector<std::vector<Sym>> when_parts;
};

struct Objective {  // (mutable: `simple` is worked out when a game starts)
    Sym side = 0, result = 0, at = 0;
    Expr *test = nullptr;  // its `when`, or null
    std::string text;
    bool simple_shape = false;  // a `when` made of names, literals, comparisons and arithmetic (game._inputs)
    std::vector<Sym> used;      // the names it reads
    bool simple = false;        // … and those names are counters, tracks or constants (worked out per game)
};

struct Model {
    Value pack;       // the pack's objects of the system (kept alive: props are read from it)
    Value system;     // pack.systems[system]
    Value scenario;
    Sym system_name = 0, scenario_id = 0;
    std::vector<Sym> sides;
    std::vector<Sym> kinds;                            // unit kinds, in declaration order
    std::unordered_map<Sym, Value> kind_blocks;        // kind → its block
    std::vector<Sym> deck_names;                       // model.decks, in order
    std::unordered_map<Sym, Value> decks;              // deck → its block or object
    std::vector<Sym> track_names;
    std::unordered_map<Sym, Value> tracks;
    std::vector<Value> units, cards;                   // unit and card objects, pack order
    std::vector<Value> phases;
    std::unordered_map<Sym, Value> stats;              // system stat blocks
    std::unordered_map<Sym, Value> tables;             // table objects
    std::unordered_map<Sym, std::pair<Sym, Sym>> names;  // name → (kind of reference, id)
    std::unordered_map<Sym, Value> protos;             // unit or card prototype id → its object
    std::unordered_map<Sym, std::vector<Hook *>> hooks;  // event → hooks, layer order
    std::vector<Objective> objectives;
    Rule scenario_rule;
    std::vector<Sym> search_cards;                     // the scenario's Search cards, slugged (names.slug)
    std::unordered_map<const DictObj *, std::vector<Expr *>> require, prefer;  // an action's or phase's, compiled

    std::deque<Expr> exprs;
    std::deque<Stmt> stmts;
    std::deque<Hook> hook_store;
    std::deque<Rule> rules;
};

// Compile a scenario's model from the pack (engine/model.py); Unsupported for anything it cannot run.
// `extras`, worked out by Python: {"objective_texts": [...] (written.objective_text of each objective),
// "search_cards": [...] (the scenario's Search cards as names.slug gives them)}.
std::unique_ptr<Model> load_model(const Value &pack, Sym scenario_id, Sym system, const Value &extras);

// ---- state (state.py, world.py) ---------------------------------------------------------------------

// A small map in insertion order (a record's stats, markers, tracks; counters).
using SmallMap = DictObj;

struct Rec {  // a unit's or a card's record
    Sym id = 0, proto = 0;
    bool is_card = false;
    // a unit's
    Sym kind = 0, side = 0, space = 0, last_space = 0, from = 0;
    int64_t wounds = 0;
    Value mode, name;
    // a card's
    Sym deck = 0, where = 0, type = 0, status = 0, target_kind = 0, target_id = 0;
    bool cancelled = false;
    std::vector<Sym> keywords;
    SmallMap stats, markers, tracks;
};

struct Pile {
    Sym deck = 0;
    std::vector<Sym> draw, discard;
};

struct PlaceRec {  // a space's or building's record (markers), made on first use
    Sym id = 0;
    SmallMap markers;
    std::vector<Sym> keywords;
    Value mode;  // (flipped: `flip` works on any record)
};

struct Cursor {
    int64_t round = 1;
    size_t phase = 0, step = 0;
    bool has_unit = false;
    Sym unit = 0;  // 0: none chosen yet
    std::vector<Sym> done;
};

struct Result {
    bool decided = false;
    Value winner, side;
    Sym verdict = 0;
    std::string cause;
    int64_t round = 0;
};

struct State {
    int64_t seed = 0;
    Sym scenario = 0, system = 0;
    int64_t round = 0;
    std::vector<Sym> at;
    SmallMap counters, tracks;
    std::vector<Rec> units, cards;                // in the order they came into the game
    std::vector<int32_t> unit_at, card_at;        // by Sym: position in units/cards, -1 for none
    std::vector<PlaceRec> spaces, buildings;      // in the order they were made
    std::vector<int32_t> space_at, building_at;   // by Sym: position in spaces/buildings, -1 for none
    std::vector<Pile> decks;
    int64_t next_id = 1;
    Result result;
    int64_t events = 0, choices = 0;
    int64_t cards_version = 0;      // any card changing hands or coming into the game (Game._late)
    int64_t counted_version = 0;    // any counter or track changing (Game._midway, _check_objectives)
    bool has_cursor = false;
    Cursor cursor;

    Rec *unit(Sym id) { return id < unit_at.size() && unit_at[id] >= 0 ? &units[unit_at[id]] : nullptr; }
    Rec *card(Sym id) { return id < card_at.size() && card_at[id] >= 0 ? &cards[card_at[id]] : nullptr; }
    // a unit or card comes into the game: its record goes last in its table, and is found by its id
    Rec &add(Rec r) {
        auto &table = r.is_card ? cards : units;
        auto &at = r.is_card ? card_at : unit_at;
        if (at.size() <= r.id) at.resize(r.id + 1, -1);
        at[r.id] = static_cast<int32_t>(table.size());
        table.push_back(std::move(r));
        return table.back();
    }
    // the record of a unit or card that must be there: a RuleError (Python's KeyError) when it is not
    Rec &unit_of(Sym id);
    Rec &card_of(Sym id);
    Pile *pile(Sym deck) {
        for (auto &p : decks)
            if (p.deck == deck) return &p;
        return nullptr;
    }
};

}  // namespace spawnpit
