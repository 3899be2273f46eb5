// Values of the native core: what the Python engine's values are (None, bool, int, float, str, Ref,
// list, dict, a dice tuple), with Python's meaning of equality and truth, in 16 bytes.
//
// Strings are interned (`Sym`): ids, names and keywords are compared as integers. Lists and dicts are
// shared and mutable, as in Python (two variables holding one list see each other's changes); a Value
// holds them through an intrusive reference count.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spawnpit {

// ---- interned strings -----------------------------------------------------------------------------

using Sym = uint32_t;

// The table of interned strings (one per process). Sym 0 is the empty string.
Sym intern(std::string_view text);
const std::string &text(Sym sym);
// intern(text(a) + sep + text(b)), remembered: event and holder names made of two names ("zombie.moved")
Sym joined(Sym a, char sep, Sym b);
// A string literal's Sym, interned the first time its line runs: SYM("type").
#define SYM(literal) ([]() -> ::spawnpit::Sym { static const ::spawnpit::Sym sym_ = ::spawnpit::intern(literal); return sym_; }())

// ---- values ---------------------------------------------------------------------------------------

struct Value;
struct ListObj;
struct DictObj;

struct Value {
    enum Tag : uint8_t { NONE, BOOL, INT, FLOAT, STR, REF, DICE, LIST, DICT };

    Tag tag = NONE;
    union {
        bool b;
        int64_t i;
        double f;
        Sym s;
        struct { Sym kind, id; } ref;          // Ref(kind, id)
        struct { int32_t count, sides; } dice;  // ("dice", count, sides)
        ListObj *list;
        DictObj *dict;
    };

    Value() : i(0) {}
    ~Value() {
        if (tag >= LIST) drop();
    }
    Value(const Value &o) : tag(o.tag), i(o.i) { retain(); }
    Value(Value &&o) noexcept : tag(o.tag), i(o.i) { o.tag = NONE; }
    Value &operator=(const Value &o) {
        if (this != &o) { Value tmp(o); swap(tmp); }
        return *this;
    }
    Value &operator=(Value &&o) noexcept {
        if (this != &o) {
            if (tag >= LIST) drop();
            tag = o.tag;
            i = o.i;
            o.tag = NONE;
        }
        return *this;
    }
    void swap(Value &o) noexcept { std::swap(tag, o.tag); std::swap(i, o.i); }

    static Value none() { return Value(); }
    static Value boolean(bool v) { Value x; x.tag = BOOL; x.i = 0; x.b = v; return x; }
    static Value integer(int64_t v) { Value x; x.tag = INT; x.i = v; return x; }
    static Value real(double v) { Value x; x.tag = FLOAT; x.f = v; return x; }
    static Value str(Sym v) { Value x; x.tag = STR; x.i = 0; x.s = v; return x; }
    static Value str(std::string_view v) { return str(intern(v)); }
    static Value make_ref(Sym kind, Sym id) { Value x; x.tag = REF; x.ref = {kind, id}; return x; }
    static Value make_dice(int32_t count, int32_t sides) { Value x; x.tag = DICE; x.dice = {count, sides}; return x; }
    static Value new_list();                    // an empty list of its own
    static Value new_list(std::vector<Value> items);
    static Value new_dict();                    // an empty dict of its own

    bool is_none() const { return tag == NONE; }
    bool is_number() const { return tag == BOOL || tag == INT || tag == FLOAT; }  // (a bool is an int, as in Python)
    std::vector<Value> &items() const;          // a LIST's items
    DictObj &entries() const;                   // a DICT

   private:
    void retain() const;
    void release();
    void drop();  // a list's or dict's reference given up (the caller has checked it holds one)
};

struct ListObj {
    int64_t refs = 1;
    std::vector<Value> items;
    // `x in LIST` for a long list of references (a Hero's reach, asked for every space of the board):
    // the references as a set, made on the first question (state.RefList), for `refs_size` items
    std::unique_ptr<std::unordered_set<uint64_t>> refs_set;
    size_t refs_size = 0;
};

// A dict keeps its keys in insertion order, as Python's does; keys are strings (what JSON and the state
// use). Small: found by a scan.
struct DictObj {
    int64_t refs = 1;
    std::vector<std::pair<Sym, Value>> items;

    const Value *find(Sym key) const {
        for (auto &kv : items)
            if (kv.first == key) return &kv.second;
        return nullptr;
    }
    Value *find(Sym key) {
        for (auto &kv : items)
            if (kv.first == key) return &kv.second;
        return nullptr;
    }
    Value &operator[](Sym key) {  // Python's d[key] = …: a new key goes last
        if (Value *found = find(key)) return *found;
        items.emplace_back(key, Value());
        return items.back().second;
    }
    bool erase(Sym key) {  // Python's d.pop(key, None)
        for (size_t k = 0; k < items.size(); ++k)
            if (items[k].first == key) { items.erase(items.begin() + k); return true; }
        return false;
    }
};

inline void Value::retain() const {
    if (tag < LIST) return;
    if (tag == LIST) ++list->refs;
    else ++dict->refs;
}

inline void Value::drop() {
    if (tag == LIST) {
        if (--list->refs == 0) delete list;
    } else if (--dict->refs == 0) {
        delete dict;
    }
}

inline void Value::release() {
    if (tag == LIST) { if (--list->refs == 0) delete list; }
    else if (tag == DICT) { if (--dict->refs == 0) delete dict; }
    tag = NONE;
}

inline Value Value::new_list() { Value x; x.tag = LIST; x.list = new ListObj(); return x; }
inline Value Value::new_list(std::vector<Value> items) {
    Value x = new_list();
    x.list->items = std::move(items);
    return x;
}
inline Value Value::new_dict() { Value x; x.tag = DICT; x.dict = new DictObj(); return x; }
inline std::vector<Value> &Value::items() const { return list->items; }
inline DictObj &Value::entries() const { return *dict; }

// Python's truth: None, False, 0, 0.0, "" and empty lists and dicts are false.
bool truthy(const Value &v);
// Python's ==: numbers across bool/int/float, strings, Refs by kind and id, lists and dicts item by item.
bool equal(const Value &a, const Value &b);
inline bool operator==(const Value &a, const Value &b) { return equal(a, b); }
inline bool operator!=(const Value &a, const Value &b) { return !equal(a, b); }

}  // namespace spawnpit
