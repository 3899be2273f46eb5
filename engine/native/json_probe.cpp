#include "entry.h"
namespace spawnpit {
PyObject *json_probe(PyObject *, PyObject *) { PyErr_SetString(PyExc_NotImplementedError, "json_probe"); return nullptr; }
}
