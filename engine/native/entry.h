// The entry points module.cpp lists, one group per part of the core.
#pragma once
#define PY_SSIZE_T_CLEAN
#include <Python.h>

namespace spawnpit {

constexpr long NATIVE_VERSION = 1;

PyObject *rng_probe(PyObject *self, PyObject *args);   // rng_probe.cpp
PyObject *json_probe(PyObject *self, PyObject *args);  // json_probe.cpp
PyObject *board_probe(PyObject *self, PyObject *args); // board_probe.cpp
PyObject *native_load(PyObject *self, PyObject *args);  // engine_py.cpp
PyObject *native_board(PyObject *self, PyObject *args);
PyObject *native_play(PyObject *self, PyObject *args);
PyObject *native_play_new(PyObject *self, PyObject *args);
extern PyObject *GameErrorType;    // _native.GameError: the rules went wrong in a game
extern PyObject *UnsupportedType;  // _native.Unsupported: the pack uses what the core cannot run

}  // namespace spawnpit
