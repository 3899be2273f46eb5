// A game being played natively: game.py's Game (with world.py's World, decks.py's Decks, table.py's
// Table mixed in as they are there), its Context, and the entry points of expressions and statements.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include "core.h"
#include "rng.h"

namespace spawnpit {

struct Board;

enum class PolicyKind : uint8_t { RANDOM, FIRST, AI };

// The rules' advice on one choice (interp.Advice, and flow's action and order scores), for the ai
// policy: `whole(option)` the option's score; `part(k, option)` criterion k of a pure priority list
// (`nparts` of them, 0 when the score is not one).
struct Advice {
    std::function<Value(const Value &)> whole;
    std::function<double(size_t, size_t, const Value &)> part;  // (criterion, option's index, option)
    size_t nparts = 0;
};

// A context's variables: a few names held inline (most contexts bind one to six), more in the heap.
class Env {
   public:
    using Item = std::pair<Sym, Value>;
    static constexpr size_t INLINE = 6;

    Env() = default;
    Env(const Env &) = delete;
    Env &operator=(const Env &) = delete;
    ~Env() { clear(); }

    size_t size() const { return size_; }
    Item *begin() { return data(); }
    Item *end() { return data() + size_; }
    const Item *begin() const { return data(); }
    const Item *end() const { return data() + size_; }
    Item &operator[](size_t k) { return data()[k]; }
    void reserve(size_t n) {
        if (n > INLINE && heap_.capacity() < n) {
            if (heap_.empty() && size_ > 0) move_out(n);
            else heap_.reserve(n);
        }
    }
    void emplace_back(Sym name, Value v) {
        if (heap_.empty() && size_ < INLINE) {
            new (reinterpret_cast<Item *>(slots_) + size_) Item(name, std::move(v));
        } else {
            if (heap_.empty()) move_out(INLINE * 2);
            heap_.emplace_back(name, std::move(v));
        }
        ++size_;
    }
    void push_back(const Item &kv) { emplace_back(kv.first, kv.second); }

   private:
    Item *data() { return heap_.empty() ? reinterpret_cast<Item *>(slots_) : heap_.data(); }
    const Item *data() const { return heap_.empty() ? reinterpret_cast<const Item *>(slots_) : heap_.data(); }
    void move_out(size_t capacity) {  // the inline items to the heap
        heap_.reserve(capacity);
        Item *inline_items = reinterpret_cast<Item *>(slots_);
        for (size_t k = 0; k < size_; ++k) {
            heap_.push_back(std::move(inline_items[k]));
            inline_items[k].~Item();
        }
    }
    void clear() {
        if (heap_.empty()) {
            Item *inline_items = reinterpret_cast<Item *>(slots_);
            for (size_t k = 0; k < size_; ++k) inline_items[k].~Item();
        }
        size_ = 0;
    }

    alignas(Item) unsigned char slots_[INLINE * sizeof(Item)];
    size_t size_ = 0;
    std::vector<Item> heap_;
};

struct Context {
    Game *game;
    Env env;
    const Rule *rule;
    Context *parent;
    bool cancelled = false;
    ScopeRun *run = nullptr;  // the scope this context binds the item of (a selection's, a choice's)

    Context(Game *g, const Rule *r, Context *p = nullptr) : game(g), rule(r), parent(p) {}

    Value *find_own(Sym name) {
        for (auto &kv : env)
            if (kv.first == name) return &kv.second;
        return nullptr;
    }
    void set(Sym name, Value v) {  // ctx.env[name] = v
        if (Value *found = find_own(name)) *found = std::move(v);
        else env.emplace_back(name, std::move(v));
    }
    Value lookup(Sym name);
    void assign(Sym name, Value value);
    std::vector<int64_t> roll(const Value &dice, const Value &purpose);
    Value about();  // the unit a hook's doings are about, for the log (an id, or None)
};

struct Game {
    const Model *model;
    Board *board;
    State state;
    Random chance;
    std::unordered_map<Sym, PolicyKind> policies;
    bool logging = false;
    std::vector<std::string> lines;  // the log, one JSON line each (when logging)
    int64_t logged = 0;               // entries logged (the log's `n`)
    std::deque<std::pair<Sym, Value>> queue;
    std::vector<std::pair<Sym, int64_t>> fired;  // rule id → runs, in first-run order
    int depth = 0;
    std::vector<bool> met;                        // objectives that held, or whose event happened
    Sym acting_side = 0;
    const Advice *prefer = nullptr;               // the advice for the choice being asked
    std::string at_text;                          // ".".join(state.at), made when logged
    bool at_dirty = true;
    bool has_objectives = false, has_when_objectives = false;
    int64_t midway_seen = -1;                     // counted_version when _midway last looked

    // where the time goes, by rule hook and by `prefer` criterion (play(..., profile=True)): own time, runs
    bool profiling = false;
    std::unordered_map<std::string, std::pair<double, int64_t>> spent;
    double nested = 0;  // the time of hooks run inside the one being timed (left out of its own)

    // derived (never saved)
    struct WindowSplit {  // Decks._split: a card event's hooks while a card of one prototype is played
        std::vector<Hook *> replacing, ordinary, own;
    };
    std::unordered_map<uint64_t, WindowSplit> window_splits;  // by (event, prototype)
    std::unordered_map<Sym, std::vector<Sym>> event_names;   // effects._event: an event's declared params
    std::unordered_map<Sym, std::pair<bool, std::vector<Sym>>> card_event_names;
    std::unordered_map<Sym, std::pair<std::vector<Hook *>, std::vector<Hook *>>> split_hooks;
    std::unordered_map<Sym, Value> constants;               // names that mean the same all game
    int64_t in_play_seen = -1;                              // cards_version when card_on_table was made
    std::vector<uint8_t> card_on_table;                     // by prototype Sym: a copy on the table
    std::vector<int32_t> counter_at;                        // by Sym: a counter's place in state.counters (-1: none)
    std::vector<const Value *> constant_at;                 // by Sym: its entry in `constants`, once looked up
    std::vector<Sym> space_ids_sorted, building_ids_sorted;
    std::unordered_map<Sym, Sym> pick_up_slugs;             // a building's Pick Up: text → names.slug (Python's)
    struct MoveRules {
        uint8_t through = 0;
        std::vector<Sym> stop;
    };
    std::unordered_map<Sym, MoveRules> movement_rules;      // movement._rules, by kind
    bool marker_rules_known = false;
    std::vector<std::pair<Sym, std::pair<uint8_t, std::vector<Sym>>>> marker_rules;  // movement._marker_rules

    Game(const Model *m, Board *b) : model(m), board(b) {}

    // names
    Value lookup(Sym name);
    // events
    void emit(Sym event, Value params);
    Sym raise_now(Sym event, Value params);  // 0, or intern("replaced") / intern("ended")
    void settle(size_t mark);
    bool dispatch(Sym event, const Value &params);
    // choices
    Value choose(const std::vector<Value> &options, const Value &by, bool optional, const std::string &label,
                 const Rule *rule, const Advice *advice);
    // the log
    void log(Value entry, const Rule *rule);
    // Not logging: the entry is only counted (the log's `n`), so its making is skipped: `if (!quiet()) {...}`
    bool quiet() {
        if (logging) return false;
        ++logged;
        return true;
    }
    void finish(Sym side, Sym verdict, const std::string &cause, const Rule *rule);
    void decide(const Value &side, Sym verdict, const Rule *rule);

    // world.py
    Sym new_id(char prefix);
    Value unit_ref(Sym id) const { return Value::make_ref(K_UNIT, id); }
    Value space_ref(const Value &where);
    Sym building_of(Sym space) const;
    std::vector<Sym> unit_ids(Sym kind, Sym space, Sym side);  // on the board, table order (0: any)
    int64_t units_on_board(Sym kind) const;                     // how many (0: of any kind)
    bool in_play(const Hook *hook);
    Value owner_ref(const Hook *hook);
    std::vector<Sym> owner_copies(const Hook *hook);
    bool on_table(Sym card);
    void move_unit(Sym unit, Sym to, Context &ctx, bool back = false, bool placed = false);
    void take_off(Sym unit, Context &ctx);
    void wound(Sym unit, int64_t amount, Context &ctx, const Value &by);
    void kill(Sym unit, const Value &by, Context &ctx);
    std::vector<Value> spawn(Sym kind, Sym at, int64_t count, Context &ctx, const Value &former);
    Value enter(Sym proto, Sym at, Context &ctx);
    Sym add_unit(const Value &proto, Sym space);
    void flip(const Value &thing, const Value &mode, Context &ctx);
    void mark(const Value &thing, Sym marker, int64_t amount, Context &ctx);
    void track_add(Sym track, int64_t amount, const Value &owner, Context &ctx);
    std::vector<Value> units_of_side(Sym side, bool anywhere);
    void unit_event(Sym kind, Sym name, Sym unit, std::vector<Value> values);
    // decks.py
    std::vector<Value> draw(Sym deck, int64_t count, const Value &to, Context &ctx);
    void discard(Sym card, Context &ctx);
    void discard_top(Sym deck, int64_t count, Context &ctx);
    void discard_proto(Sym proto, const Value &holder, Context &ctx);
    void shuffle(const Value &thing, const Value &into, Context &ctx);
    Value search(Sym deck, const Value &wanted, const Value &to, Context &ctx);
    void give(Value card, const Value &to, Context &ctx);
    bool play(Sym card, const Value &on, const Value &source, Context &ctx);
    void cancel_card(Sym card, Context &ctx);
    Value look_up(Sym table, const Value &roll, const Value &column, const Value &shift, Context &ctx);

    // hooks (game.py)
    bool fire(Hook *hook, const Value &params, const std::function<bool()> *done = nullptr);
    std::unique_ptr<Context> applies(Hook *hook, const Value &params, bool &plain);
    std::unique_ptr<Context> applies_as(Hook *hook, const Value &params, const Value &copy);
    std::unique_ptr<Context> context_for(Hook *hook, const Value &params, const Value &self);
    void run_hook(Hook *hook, const Value &params, Context *ctx);
    bool filter_matches(const Value &actual, const Value &wanted);
    void check_objectives(Sym event, bool keyed = false);
    void midway();
    void note_objectives();
    [[noreturn]] void runaway(const std::string &why);
    void count_fired(Sym rule);

    void set_at(std::vector<Sym> at);
    void start();                                 // what Game.__init__ works out once (the objectives' plan)

    // interned names the game uses everywhere
    static Sym K_UNIT, K_CARD, K_SPACE, K_BUILDING, K_SIDE, K_KIND, K_DECK, K_TRACK, K_MARKER, K_KEYWORD, K_MODE,
        K_CARD_PROTO, K_UNIT_PROTO, K_TABLE, K_BOARD, K_PLAY, K_DECK_W, K_DISCARD, K_BOX, K_EVENT, K_SELF, K_FROM;
    static void init_names();
};

// expressions and statements (expr.cpp, stmt.cpp)
Value eval(Context &ctx, const Expr *e);
void run_block(Context &ctx, const Block &body);
std::vector<Value> selection(Game &g, const Value &v);
std::vector<Value> pool(Game &g, Sym kind, const Value &source, bool has_source);
Value attribute(Game &g, const Value &thing, Sym name);
bool table_has(Game &g, const Value &thing, const Value &what);
bool table_contains(Game &g, const Value &container, const Value &item);
bool table_is(Game &g, const Value &thing, const Value &what);
Value plain(Game &g, const Value &v);  // Table.value: a track's value, a Ref's id
std::string repr(const Value &v);      // Python's repr, for messages
std::string str(Game &g, const Value &v);  // Python's str (a Ref's id)
double criterion(const Value &item);
std::vector<Value> select_items(Context &ctx, const Expr *e);
std::vector<Value> units_in(Game &g, Sym kind, const Value *where);  // Table.units
Sym space_id_of(Game &g, const Value &thing);                        // table._space
struct Recs {  // the record a Ref stands for (Table.record): a unit's or card's, or a place's (made on first use)
    Rec *rec = nullptr;
    PlaceRec *place = nullptr;
    bool found() const { return rec || place; }
};
Recs record_of(Game &g, const Value &thing);
void run_stmt(Context &ctx, const Stmt *s);
std::pair<std::string, Value> said(Game &g, const Value &value, Sym stat);
std::string fill(const std::string &tmpl, const std::vector<std::string> &values);
bool out_of_piles(State &state, Sym card);
void set_where(Game &g, Rec &card, Sym where);
void set_space(Game &g, Rec &unit, Sym space);
bool is_search_card(Game &g, Sym proto);

}  // namespace spawnpit
