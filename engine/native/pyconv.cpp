// Python objects ↔ Values.
#include "pyconv.h"

namespace spawnpit {

namespace {

std::string where_of(const std::string &path) { return path.empty() ? "the top" : path; }

Value convert(PyObject *obj, const std::string &path) {
    if (obj == Py_None) return Value::none();
    if (PyBool_Check(obj)) return Value::boolean(obj == Py_True);
    if (PyLong_Check(obj)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (overflow != 0) throw ConversionError("an integer beyond 64 bits at " + where_of(path));
        return Value::integer(v);
    }
    if (PyFloat_Check(obj)) return Value::real(PyFloat_AS_DOUBLE(obj));
    if (PyUnicode_Check(obj)) {
        Py_ssize_t size = 0;
        const char *data = PyUnicode_AsUTF8AndSize(obj, &size);
        if (data == nullptr) {
            PyErr_Clear();
            throw ConversionError("a string that is not valid Unicode at " + where_of(path));
        }
        return Value::str(std::string_view(data, static_cast<size_t>(size)));
    }
    if (PyList_Check(obj) || PyTuple_Check(obj)) {
        PyObject *seq = PySequence_Fast(obj, "a sequence");
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        PyObject **items = PySequence_Fast_ITEMS(seq);
        std::vector<Value> out;
        out.reserve(static_cast<size_t>(n));
        try {
            for (Py_ssize_t k = 0; k < n; ++k) out.push_back(convert(items[k], path + "[" + std::to_string(k) + "]"));
        } catch (...) {
            Py_DECREF(seq);
            throw;
        }
        Py_DECREF(seq);
        return Value::new_list(std::move(out));
    }
    if (PyDict_Check(obj)) {
        Value out = Value::new_dict();
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(obj, &pos, &key, &value)) {
            if (!PyUnicode_Check(key)) throw ConversionError("a dict key that is not a string at " + where_of(path));
            Py_ssize_t size = 0;
            const char *data = PyUnicode_AsUTF8AndSize(key, &size);
            if (data == nullptr) {
                PyErr_Clear();
                throw ConversionError("a dict key that is not valid Unicode at " + where_of(path));
            }
            std::string_view name(data, static_cast<size_t>(size));
            out.entries()[intern(name)] = convert(value, path + "." + std::string(name));
        }
        return out;
    }
    PyObject *kind = PyObject_GetAttrString(obj, "kind");
    PyObject *id = kind != nullptr ? PyObject_GetAttrString(obj, "id") : nullptr;
    if (kind != nullptr && id != nullptr && PyUnicode_Check(kind) && PyUnicode_Check(id)) {
        Value ref = Value::make_ref(intern(PyUnicode_AsUTF8(kind)), intern(PyUnicode_AsUTF8(id)));
        Py_DECREF(kind);
        Py_DECREF(id);
        return ref;
    }
    Py_XDECREF(kind);
    Py_XDECREF(id);
    PyErr_Clear();
    throw ConversionError(std::string("a ") + Py_TYPE(obj)->tp_name + " at " + where_of(path) + " (no JSON value)");
}

}  // namespace

Value from_python(PyObject *obj) { return convert(obj, ""); }

PyObject *to_python(const Value &v) {
    switch (v.tag) {
        case Value::NONE: Py_RETURN_NONE;
        case Value::BOOL: return PyBool_FromLong(v.b ? 1 : 0);
        case Value::INT: return PyLong_FromLongLong(v.i);
        case Value::FLOAT: return PyFloat_FromDouble(v.f);
        case Value::STR: {
            const std::string &t = text(v.s);
            return PyUnicode_FromStringAndSize(t.data(), static_cast<Py_ssize_t>(t.size()));
        }
        case Value::REF: {
            const std::string &k = text(v.ref.kind), &i = text(v.ref.id);
            return Py_BuildValue("(s#s#)", k.data(), static_cast<Py_ssize_t>(k.size()), i.data(),
                                 static_cast<Py_ssize_t>(i.size()));
        }
        case Value::DICE: return Py_BuildValue("(sii)", "dice", v.dice.count, v.dice.sides);
        case Value::LIST: {
            auto &items = v.items();
            PyObject *out = PyList_New(static_cast<Py_ssize_t>(items.size()));
            if (out == nullptr) return nullptr;
            for (size_t k = 0; k < items.size(); ++k) {
                PyObject *item = to_python(items[k]);
                if (item == nullptr) { Py_DECREF(out); return nullptr; }
                PyList_SET_ITEM(out, static_cast<Py_ssize_t>(k), item);
            }
            return out;
        }
        case Value::DICT: {
            PyObject *out = PyDict_New();
            if (out == nullptr) return nullptr;
            for (auto &kv : v.entries().items) {
                PyObject *item = to_python(kv.second);
                if (item == nullptr || PyDict_SetItemString(out, text(kv.first).c_str(), item) < 0) {
                    Py_XDECREF(item);
                    Py_DECREF(out);
                    return nullptr;
                }
                Py_DECREF(item);
            }
            return out;
        }
    }
    Py_RETURN_NONE;
}

}  // namespace spawnpit
