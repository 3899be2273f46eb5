// Python objects ↔ Values, for what crosses the boundary (the pack, a board, a state; results).
#pragma once
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdexcept>
#include <string>

#include "value.h"

namespace spawnpit {

// A Python object that has no Value (a set, an object of a class, an int beyond 64 bits, a dict key that
// is not a str): the message says which, and where in the object it was.
struct ConversionError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// None, bool, int, float, str, list, tuple (as a list), dict with str keys → Value. Python's `Ref`
// (anything with `kind` and `id` str attributes) → REF.
Value from_python(PyObject *obj);

// Value → a new reference: REF as a (kind, id) tuple, DICE as ("dice", count, sides). Never null
// unless Python itself failed (the error set).
PyObject *to_python(const Value &v);

}  // namespace spawnpit
