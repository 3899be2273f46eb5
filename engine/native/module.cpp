// The Python module spawnpit.engine._native: the native core's entry points (plain CPython C API).
// Each entry point lives with its part of the core; this file only lists them.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "entry.h"

namespace {

PyObject *version(PyObject *, PyObject *) { return PyLong_FromLong(spawnpit::NATIVE_VERSION); }

PyMethodDef methods[] = {
    {"version", version, METH_NOARGS, "The native core's interface version."},
    {"rng_probe", spawnpit::rng_probe, METH_VARARGS,
     "rng_probe(seed, ops) -> list: Python's random.Random(seed) replayed natively (tests)."},
    {"json_probe", spawnpit::json_probe, METH_VARARGS,
     "json_probe(text) -> str: parse JSON natively and write it back as spawnpit's log lines do (tests)."},
    {"board_probe", spawnpit::board_probe, METH_VARARGS,
     "board_probe(data, queries) -> list: a board's answers (distances, paths, sight) worked out natively (tests)."},
    {"load", spawnpit::native_load, METH_VARARGS,
     "load(pack, scenario, system, extras) -> model: a scenario's compiled model, natively."},
    {"board", spawnpit::native_board, METH_VARARGS,
     "board(data, sight, pick_up_slugs) -> board: a board layout, natively (sight: asked for pairs not given)."},
    {"play", spawnpit::native_play, METH_VARARGS,
     "play(model, board, state, rng, policies, logging) -> dict: a whole game, natively."},
    {"play_new", spawnpit::native_play_new, METH_VARARGS,
     "play_new(model, board, seed, rng, policies, logging) -> dict: a new game (its first state made natively)."},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module = {PyModuleDef_HEAD_INIT, "_native", "spawnpit's native engine core.", -1, methods};

}  // namespace

PyMODINIT_FUNC PyInit__native() {
    PyObject *m = PyModule_Create(&module);
    if (m == nullptr) return nullptr;
    spawnpit::GameErrorType = PyErr_NewException("spawnpit.engine._native.GameError", nullptr, nullptr);
    spawnpit::UnsupportedType = PyErr_NewException("spawnpit.engine._native.Unsupported", nullptr, nullptr);
    if (PyModule_AddObjectRef(m, "GameError", spawnpit::GameErrorType) < 0 ||
        PyModule_AddObjectRef(m, "Unsupported", spawnpit::UnsupportedType) < 0) {
        Py_DECREF(m);
        return nullptr;
    }
    return m;
}
