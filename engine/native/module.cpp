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
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module = {PyModuleDef_HEAD_INIT, "_native", "spawnpit's native engine core.", -1, methods};

}  // namespace

PyMODINIT_FUNC PyInit__native() { return PyModule_Create(&module); }
