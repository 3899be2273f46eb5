// JSON as CPython 3.11's json module reads and writes it (see json.h). The reader follows the C scanner
// of Modules/_json.c step by step, so that errors name the same place with the same words; it works on
// UTF-8 bytes and converts a byte offset to Python's code-point position only when it raises.
#include "json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

namespace spawnpit {

namespace {

constexpr int kMaxDepth = 1000;

std::string position_message(const std::string &msg, int64_t pos, int64_t lineno, int64_t colno) {
    return msg + ": line " + std::to_string(lineno) + " column " + std::to_string(colno) + " (char " +
           std::to_string(pos) + ")";
}

// ---- reading ----------------------------------------------------------------------------------------

inline bool is_ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
inline bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

inline int hex_value(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Code point → UTF-8; a surrogate (a lone \uD800 escape) as its 3-byte sequence, as Python's
// "surrogatepass" encodes it.
inline void append_utf8(std::string &out, uint32_t c) {
    if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        char b[2] = {static_cast<char>(0xC0 | (c >> 6)), static_cast<char>(0x80 | (c & 0x3F))};
        out.append(b, 2);
    } else if (c < 0x10000) {
        char b[3] = {static_cast<char>(0xE0 | (c >> 12)), static_cast<char>(0x80 | ((c >> 6) & 0x3F)),
                     static_cast<char>(0x80 | (c & 0x3F))};
        out.append(b, 3);
    } else {
        char b[4] = {static_cast<char>(0xF0 | (c >> 18)), static_cast<char>(0x80 | ((c >> 12) & 0x3F)),
                     static_cast<char>(0x80 | ((c >> 6) & 0x3F)), static_cast<char>(0x80 | (c & 0x3F))};
        out.append(b, 4);
    }
}

// The length of the UTF-8 sequence starting at s[i] (a byte >= 0x80), or 0 if it is not one. Surrogates
// (ED A0..BF xx) are accepted: they are what a Python str with a lone surrogate encodes to.
inline size_t utf8_length(const unsigned char *s, size_t i, size_t n) {
    unsigned char c = s[i];
    auto cont = [&](size_t k) { return i + k < n && (s[i + k] & 0xC0) == 0x80; };
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2)) return 0;
        if (c == 0xE0 && s[i + 1] < 0xA0) return 0;  // overlong
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) return 0;
        if (c == 0xF0 && s[i + 1] < 0x90) return 0;  // overlong
        if (c == 0xF4 && s[i + 1] > 0x8F) return 0;  // beyond U+10FFFF
        return 4;
    }
    return 0;
}

struct Parser {
    const unsigned char *s;
    size_t n;
    int depth = 0;
    std::string scratch;  // a string with escapes, decoded

    explicit Parser(std::string_view text) : s(reinterpret_cast<const unsigned char *>(text.data())), n(text.size()) {}

    [[noreturn]] void fail(const char *msg, size_t at) const {
        if (at > n) at = n;
        int64_t pos = 0, lineno = 1, last_newline = -1;
        for (size_t k = 0; k < at; ++k) {
            unsigned char c = s[k];
            if ((c & 0xC0) == 0x80) continue;  // a continuation byte: not a code point of its own
            if (c == '\n') { ++lineno; last_newline = pos; }
            ++pos;
        }
        throw JsonError(msg, pos, lineno, pos - last_newline);
    }

    // Python's StopIteration from scan_once, which json.loads reports as "Expecting value".
    [[noreturn]] void no_value(size_t at) const { fail("Expecting value", at); }

    size_t skip_ws(size_t i) const {
        while (i < n && is_ws(s[i])) ++i;
        return i;
    }

    bool matches(size_t i, const char *word, size_t len) const {
        return i + len <= n && std::memcmp(s + i, word, len) == 0;
    }

    Value value(size_t i, size_t &next) {
        if (i >= n) no_value(i);
        switch (s[i]) {
            case '"': return Value::str(string(i + 1, next));
            case '{': return nested(i, next, true);
            case '[': return nested(i, next, false);
            case 'n':
                if (matches(i, "null", 4)) { next = i + 4; return Value::none(); }
                break;
            case 't':
                if (matches(i, "true", 4)) { next = i + 4; return Value::boolean(true); }
                break;
            case 'f':
                if (matches(i, "false", 5)) { next = i + 5; return Value::boolean(false); }
                break;
            case 'N':
                if (matches(i, "NaN", 3)) { next = i + 3; return Value::real(std::nan("")); }
                break;
            case 'I':
                if (matches(i, "Infinity", 8)) { next = i + 8; return Value::real(HUGE_VAL); }
                break;
            case '-':
                if (matches(i, "-Infinity", 9)) { next = i + 9; return Value::real(-HUGE_VAL); }
                break;
        }
        return number(i, next);
    }

    Value nested(size_t i, size_t &next, bool object) {
        if (depth >= kMaxDepth) fail("Nesting too deep for the native core (1000 levels)", i);
        ++depth;
        Value v = object ? this->object(i + 1, next) : array(i + 1, next);
        --depth;
        return v;
    }

    // _match_number_unicode: the same bytes, the same backtracking ("1." is 1 then extra data).
    Value number(size_t start, size_t &next) {
        size_t idx = start;
        bool negative = false;
        if (s[idx] == '-') {
            negative = true;
            if (++idx >= n) no_value(start);
        }
        if (s[idx] >= '1' && s[idx] <= '9') {
            ++idx;
            while (idx < n && is_digit(s[idx])) ++idx;
        } else if (s[idx] == '0') {
            ++idx;
        } else {
            no_value(start);
        }
        size_t int_end = idx;
        bool is_float = false;
        if (idx + 1 < n && s[idx] == '.' && is_digit(s[idx + 1])) {
            is_float = true;
            idx += 2;
            while (idx < n && is_digit(s[idx])) ++idx;
        }
        if (idx + 1 < n && (s[idx] == 'e' || s[idx] == 'E')) {
            size_t e_start = idx++;
            if (idx + 1 < n && (s[idx] == '-' || s[idx] == '+')) ++idx;
            while (idx < n && is_digit(s[idx])) ++idx;
            if (is_digit(s[idx - 1])) is_float = true;
            else idx = e_start;
        }
        next = idx;
        if (is_float) return Value::real(to_double(start, idx));
        // An integer: at most 2**63 - 1, or 2**63 with a minus.
        uint64_t magnitude = 0;
        const uint64_t limit = negative ? (uint64_t{1} << 63) : (uint64_t{1} << 63) - 1;
        for (size_t k = negative ? start + 1 : start; k < int_end; ++k) {
            uint64_t digit = s[k] - '0';
            if (magnitude > (limit - digit) / 10) fail("Integer out of the native core's range (int64)", start);
            magnitude = magnitude * 10 + digit;
        }
        int64_t value = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
        return Value::integer(value);
    }

    // float(text), correctly rounded. from_chars leaves the value alone when the result overflows or
    // underflows; float() gives ±inf or ±0.0 there.
    double to_double(size_t start, size_t end) const {
        const char *first = reinterpret_cast<const char *>(s + start), *last = reinterpret_cast<const char *>(s + end);
        double d = 0.0;
        auto [ptr, ec] = std::from_chars(first, last, d);
        if (ec == std::errc() && ptr == last) return d;
        // Out of range. The decimal exponent of the first significant digit (with the e part) says which
        // way: overflow needs it above 307, underflow below -323; the syntax is already checked.
        bool negative = *first == '-';
        const char *p = negative ? first + 1 : first;
        const char *int_end = p;
        while (int_end < last && is_digit(static_cast<unsigned char>(*int_end))) ++int_end;
        bool found = false;
        int64_t lead = 0;
        for (const char *q = p; q < int_end && !found; ++q)
            if (*q != '0') { found = true; lead = (int_end - q) - 1; }
        p = int_end;
        if (p < last && *p == '.') {
            ++p;
            for (int64_t f = 1; p < last && is_digit(static_cast<unsigned char>(*p)); ++p, ++f)
                if (!found && *p != '0') { found = true; lead = -f; }
        }
        int64_t exponent = 0;
        if (p < last) {  // e or E, a sign perhaps, digits
            ++p;
            bool exp_negative = *p == '-';
            if (*p == '-' || *p == '+') ++p;
            for (; p < last; ++p)
                if (exponent < 1000000000) exponent = exponent * 10 + (*p - '0');
            if (exp_negative) exponent = -exponent;
        }
        double magnitude = found && lead + exponent > 0 ? HUGE_VAL : 0.0;
        return negative ? -magnitude : magnitude;
    }

    // scanstring_unicode: `end` is just past the opening quote; `next` comes back just past the closing one.
    Sym string(size_t end, size_t &next_out) {
        const size_t begin = end - 1;
        bool decoded = false;  // anything in scratch
        while (true) {
            size_t next = end;
            unsigned char c = 0;
            for (; next < n; ++next) {
                c = s[next];
                if (c == '"' || c == '\\') break;
                if (c < 0x20) fail("Invalid control character at", next);
                if (c >= 0x80) {
                    size_t len = utf8_length(s, next, n);
                    if (len == 0) fail("Invalid UTF-8 in a string", next);
                    next += len - 1;
                }
            }
            if (next >= n) fail("Unterminated string starting at", begin);
            if (c == '"' && !decoded) {
                next_out = next + 1;
                return intern(std::string_view(reinterpret_cast<const char *>(s + end), next - end));
            }
            if (!decoded) { scratch.clear(); decoded = true; }
            scratch.append(reinterpret_cast<const char *>(s + end), next - end);
            ++next;
            if (c == '"') { end = next; break; }
            if (next == n) fail("Unterminated string starting at", begin);
            c = s[next];
            uint32_t code;
            if (c != 'u') {
                end = next + 1;
                switch (c) {
                    case '"': code = '"'; break;
                    case '\\': code = '\\'; break;
                    case '/': code = '/'; break;
                    case 'b': code = '\b'; break;
                    case 'f': code = '\f'; break;
                    case 'n': code = '\n'; break;
                    case 'r': code = '\r'; break;
                    case 't': code = '\t'; break;
                    default: fail("Invalid \\escape", end - 2);
                }
            } else {
                ++next;
                end = next + 4;
                if (end >= n) fail("Invalid \\uXXXX escape", next - 1);
                code = 0;
                for (; next < end; ++next) {
                    int h = hex_value(s[next]);
                    if (h < 0) fail("Invalid \\uXXXX escape", end - 5);
                    code = (code << 4) | static_cast<uint32_t>(h);
                }
                // A high surrogate followed by an escaped low one is one code point.
                if (code >= 0xD800 && code <= 0xDBFF && end + 6 < n && s[end] == '\\' && s[end + 1] == 'u') {
                    uint32_t low = 0;
                    for (size_t k = end + 2; k < end + 6; ++k) {
                        int h = hex_value(s[k]);
                        if (h < 0) fail("Invalid \\uXXXX escape", end + 1);
                        low = (low << 4) | static_cast<uint32_t>(h);
                    }
                    if (low >= 0xDC00 && low <= 0xDFFF) {
                        code = 0x10000 + (((code - 0xD800) << 10) | (low - 0xDC00));
                        end += 6;
                    }
                }
            }
            append_utf8(scratch, code);
        }
        next_out = end;
        return intern(scratch);
    }

    Value object(size_t idx, size_t &next) {
        Value result = Value::new_dict();
        auto &items = result.entries().items;
        idx = skip_ws(idx);
        if (idx >= n || s[idx] != '}') {
            while (true) {
                if (idx >= n || s[idx] != '"') fail("Expecting property name enclosed in double quotes", idx);
                size_t after;
                Sym key = string(idx + 1, after);
                idx = skip_ws(after);
                if (idx >= n || s[idx] != ':') fail("Expecting ':' delimiter", idx);
                idx = skip_ws(idx + 1);
                Value v = value(idx, after);
                items.emplace_back(key, std::move(v));
                idx = skip_ws(after);
                if (idx < n && s[idx] == '}') break;
                if (idx >= n || s[idx] != ',') fail("Expecting ',' delimiter", idx);
                idx = skip_ws(idx + 1);
            }
        }
        next = idx + 1;
        if (items.size() > 1 && has_repeated_key(items)) keep_last_values(items);
        return result;
    }

    static bool has_repeated_key(const std::vector<std::pair<Sym, Value>> &items) {
        size_t count = items.size();
        if (count <= 24) {
            for (size_t a = 1; a < count; ++a)
                for (size_t b = 0; b < a; ++b)
                    if (items[a].first == items[b].first) return true;
            return false;
        }
        std::vector<Sym> keys;
        keys.reserve(count);
        for (auto &kv : items) keys.push_back(kv.first);
        std::sort(keys.begin(), keys.end());
        return std::adjacent_find(keys.begin(), keys.end()) != keys.end();
    }

    // As a Python dict fills: d[key] = value, so a repeated key keeps its first place and its last value.
    static void keep_last_values(std::vector<std::pair<Sym, Value>> &items) {
        std::vector<std::pair<Sym, Value>> kept;
        kept.reserve(items.size());
        for (auto &kv : items) {
            auto found = std::find_if(kept.begin(), kept.end(), [&](auto &k) { return k.first == kv.first; });
            if (found != kept.end()) found->second = std::move(kv.second);
            else kept.emplace_back(kv.first, std::move(kv.second));
        }
        items.swap(kept);
    }

    Value array(size_t idx, size_t &next) {
        Value result = Value::new_list();
        auto &items = result.items();
        idx = skip_ws(idx);
        if (idx >= n || s[idx] != ']') {
            while (true) {
                size_t after;
                items.push_back(value(idx, after));
                idx = skip_ws(after);
                if (idx < n && s[idx] == ']') break;
                if (idx >= n || s[idx] != ',') fail("Expecting ',' delimiter", idx);
                idx = skip_ws(idx + 1);
            }
        }
        next = idx + 1;
        return result;
    }
};

// ---- writing ----------------------------------------------------------------------------------------

const char kHex[] = "0123456789abcdef";

// Which bytes of a string json.dumps does not copy as they are: 1 an escape, 2 the first byte of a
// non-ASCII character (written as \uXXXX). ensure_ascii=False escapes only '"', '\\' and controls;
// ensure_ascii=True writes only ' '..'~' as they are (DEL is \u007f).
struct EscapeTable {
    uint8_t kind[256];
    constexpr EscapeTable(bool ascii) : kind() {
        for (int c = 0; c < 256; ++c)
            kind[c] = c < 0x20 || c == '"' || c == '\\' || (ascii && c == 0x7F) ? 1 : ascii && c >= 0x80 ? 2 : 0;
    }
};
constexpr EscapeTable kEscapeUnicode(false), kEscapeAscii(true);

inline void append_u_escape(std::string &out, uint32_t unit) {
    char b[6] = {'\\', 'u', kHex[(unit >> 12) & 0xF], kHex[(unit >> 8) & 0xF], kHex[(unit >> 4) & 0xF],
                 kHex[unit & 0xF]};
    out.append(b, 6);
}

inline void append_escape(std::string &out, unsigned char c) {
    switch (c) {
        case '"': out.append("\\\"", 2); break;
        case '\\': out.append("\\\\", 2); break;
        case '\n': out.append("\\n", 2); break;
        case '\r': out.append("\\r", 2); break;
        case '\t': out.append("\\t", 2); break;
        case '\b': out.append("\\b", 2); break;
        case '\f': out.append("\\f", 2); break;
        default: append_u_escape(out, c);
    }
}

void append_int(std::string &out, int64_t i) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, i);
    out.append(buf, static_cast<size_t>(r.ptr - buf));
}

struct Writer {
    std::string &out;
    bool sort_keys;
    bool ascii;
    int depth = 0;

    void value(const Value &v) {
        switch (v.tag) {
            case Value::NONE: out.append("null", 4); return;
            case Value::BOOL: if (v.b) out.append("true", 4); else out.append("false", 5); return;
            case Value::INT: append_int(out, v.i); return;
            case Value::FLOAT: write_json_float(out, v.f); return;
            case Value::STR: write_json_string(out, text(v.s), ascii); return;
            case Value::REF: write_json_string(out, text(v.ref.id), ascii); return;
            case Value::DICE:
                out.append("[\"dice\",", 8);
                append_int(out, v.dice.count);
                out.push_back(',');
                append_int(out, v.dice.sides);
                out.push_back(']');
                return;
            case Value::LIST: list(v.items()); return;
            case Value::DICT: dict(v.entries().items); return;
        }
    }

    void enter() {
        if (++depth > kMaxDepth)
            throw JsonError("Nesting too deep to write (1000 levels): a circular reference?");
    }

    void list(const std::vector<Value> &items) {
        enter();
        out.push_back('[');
        bool first = true;
        for (auto &item : items) {
            if (!first) out.push_back(',');
            first = false;
            value(item);
        }
        out.push_back(']');
        --depth;
    }

    using Item = std::pair<Sym, Value>;

    void item(const Item &kv) {
        write_json_string(out, text(kv.first), ascii);
        out.push_back(':');
        value(kv.second);
    }

    void dict(const std::vector<Item> &items) {
        enter();
        out.push_back('{');
        size_t count = items.size();
        if (!sort_keys || count < 2) {
            for (size_t k = 0; k < count; ++k) {
                if (k) out.push_back(',');
                item(items[k]);
            }
        } else {
            // Python sorts str keys by code point, which is UTF-8's byte order (std::string's <).
            // One scratch stack serves every level: this dict's keys go on top while it is written.
            thread_local std::vector<std::pair<const std::string *, const Item *>> stack;
            size_t base = stack.size();
            struct Pop {  // leave the stack as found, also when a deeper level throws
                std::vector<std::pair<const std::string *, const Item *>> &stack;
                size_t base;
                ~Pop() { stack.resize(base); }
            } pop{stack, base};
            for (auto &kv : items) stack.emplace_back(&text(kv.first), &kv);
            std::sort(stack.begin() + static_cast<std::ptrdiff_t>(base), stack.end(),
                      [](auto &a, auto &b) { return *a.first < *b.first; });
            for (size_t k = 0; k < count; ++k) {
                if (k) out.push_back(',');
                auto [key, kv] = stack[base + k];
                write_json_string(out, *key, ascii);
                out.push_back(':');
                value(kv->second);
            }
        }
        out.push_back('}');
        --depth;
    }
};

}  // namespace

JsonError::JsonError(const std::string &msg, int64_t pos, int64_t lineno, int64_t colno)
    : std::runtime_error(position_message(msg, pos, lineno, colno)), pos(pos), lineno(lineno), colno(colno),
      msg_(msg) {}

JsonError::JsonError(const std::string &msg) : std::runtime_error(msg), pos(-1), lineno(0), colno(0), msg_(msg) {}

Value parse_json(std::string_view text) {
    Parser p(text);
    if (text.size() >= 3 && std::memcmp(text.data(), "\xEF\xBB\xBF", 3) == 0)
        p.fail("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
    size_t end;
    Value v = p.value(p.skip_ws(0), end);
    end = p.skip_ws(end);
    if (end != p.n) p.fail("Extra data", end);
    return v;
}

void write_json(std::string &out, const Value &v, bool sort_keys, bool ensure_ascii) {
    Writer w{out, sort_keys, ensure_ascii};
    w.value(v);
}

void write_json_string(std::string &out, std::string_view utf8, bool ensure_ascii) {
    const auto *s = reinterpret_cast<const unsigned char *>(utf8.data());
    size_t n = utf8.size(), run = 0;  // s[run:k] is waiting to be copied as it is
    out.push_back('"');
    const uint8_t *table = ensure_ascii ? kEscapeAscii.kind : kEscapeUnicode.kind;
    for (size_t k = 0; k < n;) {
        uint8_t kind = table[s[k]];
        if (kind == 0) { ++k; continue; }
        out.append(utf8.data() + run, k - run);
        if (kind == 1) {
            append_escape(out, s[k]);
            ++k;
        } else {  // non-ASCII under ensure_ascii: \uXXXX, a surrogate pair beyond the BMP
            uint32_t c;
            size_t len;
            unsigned char b = s[k];
            if (b >= 0xF0 && k + 3 < n) {
                c = ((b & 0x07u) << 18) | ((s[k + 1] & 0x3Fu) << 12) | ((s[k + 2] & 0x3Fu) << 6) | (s[k + 3] & 0x3Fu);
                len = 4;
            } else if (b >= 0xE0 && k + 2 < n) {
                c = ((b & 0x0Fu) << 12) | ((s[k + 1] & 0x3Fu) << 6) | (s[k + 2] & 0x3Fu);
                len = 3;
            } else if (b >= 0xC0 && k + 1 < n) {
                c = ((b & 0x1Fu) << 6) | (s[k + 1] & 0x3Fu);
                len = 2;
            } else {  // not UTF-8 (the core's strings are): write the byte as a code point, never read past
                c = b;
                len = 1;
            }
            if (c >= 0x10000) {
                c -= 0x10000;
                append_u_escape(out, 0xD800 | (c >> 10));
                append_u_escape(out, 0xDC00 | (c & 0x3FF));
            } else {
                append_u_escape(out, c);
            }
            k += len;
        }
        run = k;
    }
    out.append(utf8.data() + run, n - run);
    out.push_back('"');
}

void append_float_repr(std::string &out, double x) {
    if (std::isnan(x)) { out.append("nan", 3); return; }
    if (std::isinf(x)) { if (x > 0) out.append("inf", 3); else out.append("-inf", 4); return; }
    // The shortest digits that read back as x (Python's repr and to_chars agree on them), then
    // Python's layout: fixed when -4 <= exponent < 16, with ".0" on whole numbers, else d.ddde±XX.
    char buf[40];
    auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
    const char *p = buf, *end = r.ptr;
    if (*p == '-') { out.push_back('-'); ++p; }
    char digits[20];
    int count = 0;
    for (; p < end && *p != 'e'; ++p)
        if (*p != '.') digits[count++] = *p;
    ++p;  // 'e'
    bool exp_negative = *p == '-';
    ++p;  // the sign
    int exponent = 0;
    for (; p < end; ++p) exponent = exponent * 10 + (*p - '0');
    if (exp_negative) exponent = -exponent;

    if (exponent >= -4 && exponent < 16) {
        if (exponent < 0) {
            out.append("0.", 2);
            out.append(static_cast<size_t>(-exponent - 1), '0');
            out.append(digits, static_cast<size_t>(count));
        } else if (count <= exponent + 1) {
            out.append(digits, static_cast<size_t>(count));
            out.append(static_cast<size_t>(exponent + 1 - count), '0');
            out.append(".0", 2);
        } else {
            out.append(digits, static_cast<size_t>(exponent + 1));
            out.push_back('.');
            out.append(digits + exponent + 1, static_cast<size_t>(count - exponent - 1));
        }
        return;
    }
    out.push_back(digits[0]);
    if (count > 1) {
        out.push_back('.');
        out.append(digits + 1, static_cast<size_t>(count - 1));
    }
    out.push_back('e');
    out.push_back(exp_negative ? '-' : '+');
    int magnitude = exp_negative ? -exponent : exponent;
    if (magnitude < 10) out.push_back('0');
    append_int(out, magnitude);
}

void write_json_float(std::string &out, double x) {
    if (std::isnan(x)) { out.append("NaN", 3); return; }
    if (std::isinf(x)) { if (x > 0) out.append("Infinity", 8); else out.append("-Infinity", 9); return; }
    append_float_repr(out, x);
}

}  // namespace spawnpit
