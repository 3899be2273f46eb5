// json_probe(text, sort_keys=True, ensure_ascii=False) -> str: the text read natively (parse_json) and
// written back (write_json), for the tests to compare with Python's json.dumps(json.loads(text), ...).
// A reading error is ValueError with Python's message ("Expecting value: line 1 column 1 (char 0)").
// The text goes in and out as UTF-8 with "surrogatepass", so a str holding lone surrogates (which
// Python's json reads and writes) crosses over unchanged.
#include <new>
#include <string>

#include "entry.h"
#include "json.h"

namespace spawnpit {

PyObject *json_probe(PyObject *, PyObject *args) {
    PyObject *text;
    int sort_keys = 1, ensure_ascii = 0;
    if (!PyArg_ParseTuple(args, "U|pp:json_probe", &text, &sort_keys, &ensure_ascii)) return nullptr;
    PyObject *bytes = PyUnicode_AsEncodedString(text, "utf-8", "surrogatepass");
    if (bytes == nullptr) return nullptr;
    std::string out;
    try {
        Value v = parse_json(std::string_view(PyBytes_AS_STRING(bytes), static_cast<size_t>(PyBytes_GET_SIZE(bytes))));
        Py_DECREF(bytes);
        bytes = nullptr;
        write_json(out, v, sort_keys != 0, ensure_ascii != 0);
    } catch (const JsonError &err) {
        Py_XDECREF(bytes);
        PyErr_SetString(PyExc_ValueError, err.what());
        return nullptr;
    } catch (const std::bad_alloc &) {
        Py_XDECREF(bytes);
        return PyErr_NoMemory();
    } catch (const std::exception &err) {
        Py_XDECREF(bytes);
        PyErr_SetString(PyExc_RuntimeError, err.what());
        return nullptr;
    }
    return PyUnicode_DecodeUTF8(out.data(), static_cast<Py_ssize_t>(out.size()), "surrogatepass");
}

}  // namespace spawnpit
