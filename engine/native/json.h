// JSON for the native core, exactly as CPython 3.11's json module reads and writes it: the game log's
// lines (json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False)) and the saved
// state (json.dumps(state, separators=(",", ":")), ensure_ascii left True) must come out byte for byte.
//
// Reading (parse_json) follows json.loads: RFC 8259 plus Python's NaN, Infinity and -Infinity; objects
// become DICTs (a repeated key keeps its first position and its last value, as a Python dict does),
// arrays LISTs, integers INTs, numbers with a fraction or an exponent FLOATs (correctly rounded, as
// float() does: 1e400 is inf, 1e-400 is 0.0). Strings are UTF-8. Where Python differs from what the core
// can hold, the reader says so rather than guess:
//   - an integer outside int64 (Python makes a big int) is an error;
//   - nesting deeper than 1000 is an error (Python raises RecursionError at about the same depth);
//   - a byte sequence that is not UTF-8 inside a string is an error (Python cannot be given one).
// A \uXXXX escape of a lone surrogate (which Python keeps as a lone surrogate in its str) is stored as
// the surrogate's 3-byte sequence (generalized UTF-8, as Python's "surrogatepass" encodes it), and such
// sequences in the input are accepted, so text that went through Python's str round-trips exactly.
// Errors throw JsonError with Python's message and position: "Expecting ',' delimiter: line 1 column 5
// (char 4)" (positions count code points, as Python's do).
//
// Writing (write_json) follows json.dumps with separators (",", ":") and allow_nan: floats as Python's
// repr (shortest round-trip digits; 1e+16, 1.5e-05, 100.0), non-finite floats as Infinity, -Infinity
// and NaN, and strings escaped as Python escapes them. Two values have no JSON of their own:
//   - a REF is written as its id string (the engine logs ids, as Ref.__str__ gives);
//   - DICE is written as Python writes the tuple ("dice", count, sides): ["dice",2,6].
// Reading either back gives a STR or a LIST, as Python's json.loads would.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "value.h"

namespace spawnpit {

class JsonError : public std::runtime_error {
   public:
    JsonError(const std::string &msg, int64_t pos, int64_t lineno, int64_t colno);  // reading
    explicit JsonError(const std::string &msg);  // writing: no position (pos -1)
    const std::string &msg() const { return msg_; }  // without the position, like JSONDecodeError.msg
    int64_t pos;                                     // in code points from the start of the text
    int64_t lineno, colno;                           // from 1

   private:
    std::string msg_;
};

// json.loads(text). Throws JsonError (and std::bad_alloc).
Value parse_json(std::string_view text);

// Appends json.dumps(v, separators=(",", ":"), sort_keys=sort_keys, ensure_ascii=ensure_ascii) to out.
// A cycle (a list holding itself) or nesting deeper than 1000 throws JsonError, where Python raises
// ValueError("Circular reference detected") or RecursionError.
void write_json(std::string &out, const Value &v, bool sort_keys, bool ensure_ascii = false);

// The parts, for writers of their own: a string as json.dumps writes it (quotes included), and a float
// as json.dumps writes it (repr, with Infinity, -Infinity, NaN).
void write_json_string(std::string &out, std::string_view utf8, bool ensure_ascii = false);
void write_json_float(std::string &out, double x);

// Python's repr(x) == str(x) of a float: as write_json_float, except inf, -inf and nan.
void append_float_repr(std::string &out, double x);

}  // namespace spawnpit
