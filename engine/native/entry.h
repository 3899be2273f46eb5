// The entry points module.cpp lists, one group per part of the core.
#pragma once
#define PY_SSIZE_T_CLEAN
#include <Python.h>

namespace spawnpit {

constexpr long NATIVE_VERSION = 1;

PyObject *rng_probe(PyObject *self, PyObject *args);   // rng_probe.cpp
PyObject *json_probe(PyObject *self, PyObject *args);  // json_probe.cpp
PyObject *board_probe(PyObject *self, PyObject *args); // board_probe.cpp

}  // namespace spawnpit
