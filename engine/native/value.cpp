// Interned strings and Python's truth and equality on Values.
#include "value.h"

#include <deque>
#include <unordered_map>

namespace spawnpit {

namespace {

struct SymbolTable {
    std::deque<std::string> texts;  // a deque: the strings never move, so the map's views stay good
    std::unordered_map<std::string_view, Sym> ids;

    SymbolTable() { add(""); }

    Sym add(std::string_view t) {
        auto found = ids.find(t);
        if (found != ids.end()) return found->second;
        texts.emplace_back(t);
        Sym sym = static_cast<Sym>(texts.size() - 1);
        ids.emplace(std::string_view(texts.back()), sym);
        return sym;
    }
};

SymbolTable &symbols() {
    static SymbolTable table;
    return table;
}

}  // namespace

Sym intern(std::string_view t) { return symbols().add(t); }

const std::string &text(Sym sym) { return symbols().texts[sym]; }

Sym joined(Sym a, char sep, Sym b) {
    static std::unordered_map<uint64_t, Sym> made[2];
    auto &table = made[sep == '.' ? 0 : 1];
    uint64_t key = (static_cast<uint64_t>(a) << 32) | b;
    auto found = table.find(key);
    if (found != table.end()) return found->second;
    Sym sym = intern(text(a) + sep + text(b));
    table.emplace(key, sym);
    return sym;
}

bool truthy(const Value &v) {
    switch (v.tag) {
        case Value::NONE: return false;
        case Value::BOOL: return v.b;
        case Value::INT: return v.i != 0;
        case Value::FLOAT: return v.f != 0.0;
        case Value::STR: return v.s != 0;
        case Value::REF: return true;
        case Value::DICE: return true;  // a non-empty tuple
        case Value::LIST: return !v.list->items.empty();
        case Value::DICT: return !v.dict->items.empty();
    }
    return false;
}

namespace {

double as_double(const Value &v) {
    switch (v.tag) {
        case Value::BOOL: return v.b ? 1.0 : 0.0;
        case Value::INT: return static_cast<double>(v.i);
        default: return v.f;
    }
}

int64_t as_int(const Value &v) { return v.tag == Value::BOOL ? (v.b ? 1 : 0) : v.i; }

}  // namespace

bool equal(const Value &a, const Value &b) {
    if (a.is_number() && b.is_number()) {
        if (a.tag == Value::FLOAT || b.tag == Value::FLOAT) return as_double(a) == as_double(b);
        return as_int(a) == as_int(b);
    }
    if (a.tag != b.tag) return false;
    switch (a.tag) {
        case Value::NONE: return true;
        case Value::STR: return a.s == b.s;
        case Value::REF: return a.ref.kind == b.ref.kind && a.ref.id == b.ref.id;
        case Value::DICE: return a.dice.count == b.dice.count && a.dice.sides == b.dice.sides;
        case Value::LIST: {
            if (a.list == b.list) return true;
            auto &x = a.list->items, &y = b.list->items;
            if (x.size() != y.size()) return false;
            for (size_t k = 0; k < x.size(); ++k)
                if (!equal(x[k], y[k])) return false;
            return true;
        }
        case Value::DICT: {
            if (a.dict == b.dict) return true;
            auto &x = a.dict->items, &y = b.dict->items;
            if (x.size() != y.size()) return false;
            for (auto &kv : x) {
                const Value *other = b.dict->find(kv.first);
                if (other == nullptr || !equal(kv.second, *other)) return false;
            }
            return true;
        }
        default: return false;
    }
}

}  // namespace spawnpit
