#include "entry.h"
namespace spawnpit {
PyObject *rng_probe(PyObject *, PyObject *) { PyErr_SetString(PyExc_NotImplementedError, "rng_probe"); return nullptr; }
}
