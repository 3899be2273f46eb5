#include "entry.h"
namespace spawnpit {
PyObject *board_probe(PyObject *, PyObject *) { PyErr_SetString(PyExc_NotImplementedError, "board_probe"); return nullptr; }
}
