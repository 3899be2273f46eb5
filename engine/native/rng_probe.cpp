// rng_probe(seed, ops) -> list: the native Random (rng.h) driven from Python, for the tests that hold it
// to CPython's random.Random (tests/native/test_rng.py).
//
// seed: an int (any size, negative too), a str, bytes / bytearray (each as random.Random(seed) takes
// them), or a state as random.Random().getstate() returns it: (3, (624 words..., position), gauss_next),
// or just its second element, the 625-tuple (lists are taken for tuples, as engine/rng.py saves them).
//
// ops: a list of tuples, each giving one result in the returned list, in order:
//   ("random",)              -> float         random()
//   ("getrandbits", k)       -> int           getrandbits(k), 0 <= k <= 64
//   ("randbelow", n)         -> int           _randbelow(n), 1 <= n < 2**64
//   ("randrange", n)         -> int           randrange(n), 0 < n < 2**63
//   ("randint", a, b)        -> int           randint(a, b), a and b int64
//   ("choice", n)            -> int           the index choice() takes from a sequence of length n
//   ("shuffle", n)           -> list          shuffle(list(range(n))), n <= 10**7
//   ("roll", count, sides)   -> list          engine/rng.py's Chance.roll(count, sides) (D216 included)
//   ("getstate",)            -> tuple         exactly random.Random().getstate(): (3, 625-tuple, gauss_next);
//                                             gauss_next is carried, not used: None after any seeding
//   ("setstate", state)      -> None          setstate(state); state as the seed's state above
//   ("seed", seed)           -> None          seed(seed); seed as above (a state too)
//   ("sha512", str | bytes)  -> bytes         hashlib.sha512(text.encode()).digest(), natively
// A bad op or argument raises TypeError or ValueError (IndexError for choice(0), as Python does),
// naming the op and its place in the list.
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "entry.h"
#include "rng.h"
#include "sha512.h"

namespace spawnpit {

namespace {

// A strong reference that lets go of itself.
struct Ref {
    PyObject *p = nullptr;
    explicit Ref(PyObject *o = nullptr) : p(o) {}
    ~Ref() { Py_XDECREF(p); }
    Ref(const Ref &) = delete;
    Ref &operator=(const Ref &) = delete;
    PyObject *release() { PyObject *o = p; p = nullptr; return o; }
    void reset(PyObject *o) { Py_XDECREF(p); p = o; }
    explicit operator bool() const { return p != nullptr; }
};

// The probe's generator: the native Random and the gauss_next it carries for getstate().
struct Probe {
    Random rng;
    Ref gauss{Py_NewRef(Py_None)};
};

bool as_int64(PyObject *o, const char *what, int64_t *out) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(o)->tp_name);
        return false;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return false;
    if (overflow) {
        PyErr_Format(PyExc_ValueError, "%s is out of the native core's range (int64)", what);
        return false;
    }
    *out = v;
    return true;
}

bool as_uint64(PyObject *o, const char *what, uint64_t *out) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(o)->tp_name);
        return false;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(o);  // OverflowError when negative or too large
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return false;
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s is out of the range 0..2**64-1", what);
        return false;
    }
    *out = v;
    return true;
}

// An int of any size: |n|'s 32-bit words, least significant first (what CPython's random_seed does).
bool seed_from_big_int(Random &rng, PyObject *n) {
    Ref magnitude(PyLong_Type.tp_as_number->nb_absolute(n));  // int.__abs__, never a subclass's (as CPython)
    if (!magnitude) return false;
    Ref bits(PyObject_CallMethod(magnitude.p, "bit_length", nullptr));
    if (!bits) return false;
    Py_ssize_t nbits = PyLong_AsSsize_t(bits.p);
    if (nbits < 0) return false;
    Py_ssize_t nwords = nbits == 0 ? 1 : (nbits + 31) / 32;
    Ref raw(PyObject_CallMethod(magnitude.p, "to_bytes", "ns", nwords * 4, "little"));
    if (!raw) return false;
    const unsigned char *b = reinterpret_cast<const unsigned char *>(PyBytes_AS_STRING(raw.p));
    std::vector<uint32_t> key(static_cast<size_t>(nwords));
    for (Py_ssize_t w = 0; w < nwords; ++w)
        key[w] = uint32_t(b[4 * w]) | uint32_t(b[4 * w + 1]) << 8 | uint32_t(b[4 * w + 2]) << 16 |
                 uint32_t(b[4 * w + 3]) << 24;
    rng.seed_words(key.data(), key.size());
    return true;
}

bool text_bytes(PyObject *o, std::string_view *out) {
    if (PyUnicode_Check(o)) {
        Py_ssize_t size = 0;
        const char *utf8 = PyUnicode_AsUTF8AndSize(o, &size);  // UnicodeEncodeError for lone surrogates, as str.encode()
        if (!utf8) return false;
        *out = std::string_view(utf8, size_t(size));
        return true;
    }
    if (PyBytes_Check(o)) {
        *out = std::string_view(PyBytes_AS_STRING(o), size_t(PyBytes_GET_SIZE(o)));
        return true;
    }
    if (PyByteArray_Check(o)) {
        *out = std::string_view(PyByteArray_AS_STRING(o), size_t(PyByteArray_GET_SIZE(o)));
        return true;
    }
    PyErr_Format(PyExc_TypeError, "expected a str or bytes, not %.100s", Py_TYPE(o)->tp_name);
    return false;
}

bool is_sequence(PyObject *o) { return PyTuple_Check(o) || PyList_Check(o); }

// (3, (words..., position), gauss_next) or its 625-element middle.
bool set_state(Probe &probe, PyObject *state_arg) {
    Ref snapshot(PySequence_Tuple(state_arg));  // a tuple of its own: nothing can change it under us
    if (!snapshot) return false;
    PyObject *state = snapshot.p;
    Py_ssize_t size = PyTuple_GET_SIZE(state);
    Ref internal_snapshot;
    PyObject *internal = state;
    PyObject *gauss = Py_None;
    if (size == 3) {
        PyObject *version = PyTuple_GET_ITEM(state, 0);
        if (!PyLong_Check(version) || PyLong_AsLong(version) != 3) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "the state's version must be 3 (random.Random().getstate())");
            return false;
        }
        gauss = PyTuple_GET_ITEM(state, 2);
        if (!is_sequence(PyTuple_GET_ITEM(state, 1))) {
            PyErr_SetString(PyExc_TypeError, "the state's internal state must be a tuple");
            return false;
        }
        internal_snapshot.reset(PySequence_Tuple(PyTuple_GET_ITEM(state, 1)));
        if (!internal_snapshot) return false;
        internal = internal_snapshot.p;
    }
    if (PyTuple_GET_SIZE(internal) != Random::N + 1) {
        PyErr_Format(PyExc_ValueError, "a state is (3, %d words and a position, gauss_next) or its middle",
                     Random::N);
        return false;
    }
    uint32_t words[Random::N];
    for (int i = 0; i < Random::N; ++i) {
        PyObject *item = PyTuple_GET_ITEM(internal, i);
        uint64_t w;
        if (!as_uint64(item, "a state word", &w)) return false;
        if (w > 0xffffffffULL) {
            PyErr_SetString(PyExc_ValueError, "a state word is out of the range 0..2**32-1");
            return false;
        }
        words[i] = uint32_t(w);
    }
    int64_t index;
    if (!as_int64(PyTuple_GET_ITEM(internal, Random::N), "the state's position", &index)) return false;
    if (index < 0 || index > Random::N) {
        PyErr_SetString(PyExc_ValueError, "invalid state (the position must be 0..624)");
        return false;
    }
    probe.rng.setstate(words, int(index));
    probe.gauss.reset(Py_NewRef(gauss));
    return true;
}

bool seed_probe(Probe &probe, PyObject *seed) {
    if (PyLong_Check(seed)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(seed, &overflow);
        if (v == -1 && PyErr_Occurred()) return false;
        if (overflow) {
            if (!seed_from_big_int(probe.rng, seed)) return false;
        } else {
            probe.rng.seed(int64_t(v));
        }
    } else if (PyUnicode_Check(seed) || PyBytes_Check(seed) || PyByteArray_Check(seed)) {
        std::string_view text;
        if (!text_bytes(seed, &text)) return false;
        probe.rng.seed(text);
    } else if (is_sequence(seed)) {
        return set_state(probe, seed);
    } else {
        PyErr_Format(PyExc_TypeError,
                     "the seed must be an int, a str, bytes or a state from random.Random().getstate(), not %.100s",
                     Py_TYPE(seed)->tp_name);
        return false;
    }
    probe.gauss.reset(Py_NewRef(Py_None));
    return true;
}

PyObject *int_list(const std::vector<int64_t> &values) {
    Ref list(PyList_New(Py_ssize_t(values.size())));
    if (!list) return nullptr;
    for (size_t i = 0; i < values.size(); ++i) {
        PyObject *v = PyLong_FromLongLong(values[i]);
        if (!v) return nullptr;
        PyList_SET_ITEM(list.p, Py_ssize_t(i), v);
    }
    return list.release();
}

PyObject *get_state(const Probe &probe) {
    uint32_t words[Random::N];
    int index = probe.rng.getstate(words);
    Ref internal(PyTuple_New(Random::N + 1));
    if (!internal) return nullptr;
    for (int i = 0; i < Random::N; ++i) {
        PyObject *w = PyLong_FromUnsignedLong(words[i]);
        if (!w) return nullptr;
        PyTuple_SET_ITEM(internal.p, i, w);
    }
    PyObject *position = PyLong_FromLong(index);
    if (!position) return nullptr;
    PyTuple_SET_ITEM(internal.p, Random::N, position);
    return Py_BuildValue("(iOO)", 3, internal.p, probe.gauss.p);
}

constexpr int64_t MAX_LIST = 10'000'000;

// One op's result (a new reference), or nullptr with the error set.
PyObject *run_op(Probe &probe, PyObject *op_arg) {
    if (!is_sequence(op_arg) || PySequence_Size(op_arg) < 1) {
        PyErr_SetString(PyExc_TypeError, "an op is a tuple: (name, arguments...)");
        return nullptr;
    }
    Ref snapshot(PySequence_Tuple(op_arg));
    if (!snapshot) return nullptr;
    PyObject *op = snapshot.p;
    PyObject *name_obj = PyTuple_GET_ITEM(op, 0);
    if (!PyUnicode_Check(name_obj)) {
        PyErr_SetString(PyExc_TypeError, "an op's name must be a str");
        return nullptr;
    }
    const char *name_c = PyUnicode_AsUTF8(name_obj);
    if (!name_c) return nullptr;
    std::string_view name(name_c);
    const Py_ssize_t nargs = PyTuple_GET_SIZE(op) - 1;
    auto arg = [&](Py_ssize_t i) { return PyTuple_GET_ITEM(op, i + 1); };
    auto arity = [&](Py_ssize_t want) {
        if (nargs == want) return true;
        PyErr_Format(PyExc_TypeError, "%s takes %zd argument(s), not %zd", name_c, want, nargs);
        return false;
    };
    Random &rng = probe.rng;
    try {
        if (name == "random") {
            if (!arity(0)) return nullptr;
            return PyFloat_FromDouble(rng.random());
        }
        if (name == "getrandbits") {
            int64_t k;
            if (!arity(1) || !as_int64(arg(0), "k", &k)) return nullptr;
            if (k < 0 || k > 64) {
                PyErr_SetString(PyExc_ValueError, "getrandbits: k must be 0..64 in the native core");
                return nullptr;
            }
            return PyLong_FromUnsignedLongLong(rng.getrandbits(int(k)));
        }
        if (name == "randbelow") {
            uint64_t n;
            if (!arity(1) || !as_uint64(arg(0), "n", &n)) return nullptr;
            if (n == 0) {
                PyErr_SetString(PyExc_ValueError, "randbelow: n must be positive (Python's would never return)");
                return nullptr;
            }
            return PyLong_FromUnsignedLongLong(rng.randbelow(n));
        }
        if (name == "randrange") {
            int64_t n;
            if (!arity(1) || !as_int64(arg(0), "n", &n)) return nullptr;
            return PyLong_FromLongLong(rng.randrange(n));
        }
        if (name == "randint") {
            int64_t a, b;
            if (!arity(2) || !as_int64(arg(0), "a", &a) || !as_int64(arg(1), "b", &b)) return nullptr;
            return PyLong_FromLongLong(rng.randint(a, b));
        }
        if (name == "choice") {
            int64_t n;
            if (!arity(1) || !as_int64(arg(0), "n", &n)) return nullptr;
            if (n < 0) {
                PyErr_SetString(PyExc_ValueError, "choice: a length must not be negative");
                return nullptr;
            }
            return PyLong_FromSize_t(rng.choice_index(size_t(n)));
        }
        if (name == "shuffle") {
            int64_t n;
            if (!arity(1) || !as_int64(arg(0), "n", &n)) return nullptr;
            if (n < 0 || n > MAX_LIST) {
                PyErr_SetString(PyExc_ValueError, "shuffle: n must be 0..10**7");
                return nullptr;
            }
            std::vector<int64_t> items(static_cast<size_t>(n));
            for (int64_t i = 0; i < n; ++i) items[size_t(i)] = i;
            rng.shuffle(items);
            return int_list(items);
        }
        if (name == "roll") {
            int64_t count, sides;
            if (!arity(2) || !as_int64(arg(0), "count", &count) || !as_int64(arg(1), "sides", &sides)) return nullptr;
            if (count > MAX_LIST) {
                PyErr_SetString(PyExc_ValueError, "roll: count must be at most 10**7");
                return nullptr;
            }
            return int_list(rng.roll(count, sides));
        }
        if (name == "getstate") {
            if (!arity(0)) return nullptr;
            return get_state(probe);
        }
        if (name == "setstate") {
            if (!arity(1)) return nullptr;
            if (!is_sequence(arg(0))) {
                PyErr_SetString(PyExc_TypeError, "setstate: the state must be a tuple");
                return nullptr;
            }
            if (!set_state(probe, arg(0))) return nullptr;
            Py_RETURN_NONE;
        }
        if (name == "seed") {
            if (!arity(1) || !seed_probe(probe, arg(0))) return nullptr;
            Py_RETURN_NONE;
        }
        if (name == "sha512") {
            std::string_view text;
            if (!arity(1) || !text_bytes(arg(0), &text)) return nullptr;
            uint8_t digest[Sha512::DIGEST_SIZE];
            sha512(text.data(), text.size(), digest);
            return PyBytes_FromStringAndSize(reinterpret_cast<const char *>(digest), Sha512::DIGEST_SIZE);
        }
    } catch (const std::out_of_range &err) {
        PyErr_SetString(PyExc_IndexError, err.what());
        return nullptr;
    } catch (const std::bad_alloc &) {
        PyErr_NoMemory();
        return nullptr;
    } catch (const std::exception &err) {
        PyErr_SetString(PyExc_ValueError, err.what());
        return nullptr;
    }
    PyErr_Format(PyExc_ValueError, "unknown op %R", name_obj);
    return nullptr;
}

// Puts `prefix` (with %R of `what`, when given) before the message of the ValueError, TypeError or
// IndexError being raised; other errors (MemoryError, UnicodeEncodeError...) go on as they are.
void prefix_error(const char *prefix, PyObject *what) {
    if (!PyErr_ExceptionMatches(PyExc_ValueError) && !PyErr_ExceptionMatches(PyExc_TypeError) &&
        !PyErr_ExceptionMatches(PyExc_IndexError))
        return;
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    if (Py_TYPE(value) != (PyTypeObject *)type ||
        (type != PyExc_ValueError && type != PyExc_TypeError && type != PyExc_IndexError)) {
        PyErr_Restore(type, value, traceback);  // a subclass: left as it is
        return;
    }
    Ref message(PyObject_Str(value));
    if (!message) {
        PyErr_Clear();
        PyErr_Restore(type, value, traceback);
        return;
    }
    Py_XDECREF(value);
    Py_XDECREF(traceback);
    if (what)
        PyErr_Format(type, "rng_probe: %s %R: %U", prefix, what, message.p);
    else
        PyErr_Format(type, "rng_probe: %s: %U", prefix, message.p);
    Py_DECREF(type);
}

}  // namespace

PyObject *rng_probe(PyObject *, PyObject *args) {
    PyObject *seed, *ops;
    if (!PyArg_ParseTuple(args, "OO:rng_probe", &seed, &ops)) return nullptr;
    if (!is_sequence(ops)) {
        PyErr_Format(PyExc_TypeError, "rng_probe: ops must be a list of tuples, not %.100s", Py_TYPE(ops)->tp_name);
        return nullptr;
    }
    Ref ops_tuple(PySequence_Tuple(ops));  // a tuple of its own: nothing can change it under us
    if (!ops_tuple) return nullptr;
    Probe probe;  // (a Random is 2.5 KB: on the stack)
    if (!seed_probe(probe, seed)) {
        prefix_error("seed", nullptr);
        return nullptr;
    }
    const Py_ssize_t count = PyTuple_GET_SIZE(ops_tuple.p);
    Ref results(PyList_New(count));
    if (!results) return nullptr;
    for (Py_ssize_t i = 0; i < count; ++i) {
        PyObject *op = PyTuple_GET_ITEM(ops_tuple.p, i);
        PyObject *result = run_op(probe, op);
        if (!result) {
            char where[48];
            PyOS_snprintf(where, sizeof where, "op %zd", i);
            prefix_error(where, op);
            return nullptr;
        }
        PyList_SET_ITEM(results.p, i, result);
    }
    return results.release();
}

}  // namespace spawnpit
