// board_probe(data, queries) -> list: the native board built from engine/native_board.py's board_data,
// answering query tuples, for tests/native/test_board.py to compare with the Python board.
//
// Queries (a space or building by id, kinds as a list of edge-kind names):
//   ("index", s) → int or None            ("spaces",) → ids in board order
//   ("between", a, b, kinds) → int or inf  ("row", a, kinds) → list of int, None where unreached
//   ("order", a, kinds) → ids              ("way", a, b, kinds) → ids ([] when out of reach)
//   ("search", a, kinds) → ([(space, dist)…] in search order, {space: parent or None} in that order)
//   ("stopped_search", a, kinds, [stopping spaces]) → the same
//   ("adjacency", kinds) → {space: [neighbours]}   ("links", s) → [(neighbour, kind, diagonal)…]
//   ("edge", a, b) → kind or None          ("sight", a, b) → bool
//   ("sight_row", a) → str, its k-th character "1" when a sees the k-th space, else "0" (Board.sight each pair)
//   ("sight_rows",) → one sight_row for each space, in board order (the whole matrix)
//   ("geometry",) → whether the board works sight out from geometry (the data gave some)
//   ("building_of", s) → id or None        ("spaces_of", b) → ids      ("building", b) → dict
//   ("property", s, name) → value          ("title", s) → str          ("stacking", s) → int or None
//   ("space_ids",), ("building_ids",) → sorted ids
//   ("spawn_points",), ("start_spaces",), ("objectives",) → ids; ("marked", s) → [spawn, start, objective]
//   ("resolve", name) → (kind, id) or None (World.resolve_place)
//   ("resolve_space", name) → id or None (Board.resolve; None where it raises)
//   ("id",) → the board's id              ("size",) → how many spaces
// A bad query, an unknown space or building or kind: ValueError. Bad data: ValueError naming what.
#include <cmath>
#include <string>
#include <vector>

#include "board.h"
#include "entry.h"
#include "pyconv.h"

namespace spawnpit {

namespace {

struct ProbeError : std::runtime_error {  // → ValueError
    using std::runtime_error::runtime_error;
};
struct PythonError {};  // a Python call failed: its error is set

PyObject *check(PyObject *obj) {
    if (obj == nullptr) throw PythonError{};
    return obj;
}

struct Ref {  // an owned reference
    PyObject *p;
    explicit Ref(PyObject *obj) : p(check(obj)) {}
    ~Ref() { Py_XDECREF(p); }
    Ref(const Ref &) = delete;
    Ref &operator=(const Ref &) = delete;
    PyObject *release() { PyObject *out = p; p = nullptr; return out; }
};

PyObject *str(Sym sym) {
    const std::string &t = text(sym);
    return check(PyUnicode_FromStringAndSize(t.data(), static_cast<Py_ssize_t>(t.size())));
}

PyObject *sequence(PyObject *obj, const std::string &what) {  // PySequence_Fast, a ValueError when it is none
    PyObject *seq = PySequence_Fast(obj, "not a sequence");
    if (seq == nullptr) {
        PyErr_Clear();
        throw ProbeError(what + ": not a sequence");
    }
    return seq;
}

Sym sym_arg(PyObject *obj, const char *what) {
    if (!PyUnicode_Check(obj)) throw ProbeError(std::string(what) + " is not a str");
    Py_ssize_t size = 0;
    const char *data = PyUnicode_AsUTF8AndSize(obj, &size);
    if (data == nullptr) throw PythonError{};
    return intern(std::string_view(data, static_cast<size_t>(size)));
}

struct Query {
    const Board &board;
    PyObject *tuple;
    Py_ssize_t n;

    PyObject *arg(Py_ssize_t k) const {
        if (k >= n) throw ProbeError("query `" + text(op()) + "`: too few arguments");
        return PySequence_Fast_GET_ITEM(tuple, k);
    }
    Sym op() const { return sym_arg(PySequence_Fast_GET_ITEM(tuple, 0), "a query's name"); }
    void arity(Py_ssize_t k) const {
        if (n != k + 1) throw ProbeError("query `" + text(op()) + "` takes " + std::to_string(k) + " arguments");
    }
    int space(Py_ssize_t k) const { return board.space(sym_arg(arg(k), "a space")); }
    int building(Py_ssize_t k) const {
        Sym b = sym_arg(arg(k), "a building");
        int found = board.building_index(b);
        if (found == Board::NONE) throw BoardError("board `" + text(board.id) + "` has no building `" + text(b) + "`");
        return found;
    }
    Mask kinds(Py_ssize_t k) const {
        PyObject *seq = sequence(arg(k), "edge kinds");
        Ref hold(seq);
        Mask mask = 0;
        std::string unknown;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); ++i) {
            Sym name = sym_arg(PySequence_Fast_GET_ITEM(seq, i), "an edge kind");
            int kind = kind_of(name);
            if (kind < 0) unknown += (unknown.empty() ? "" : ", ") + text(name);
            else mask |= static_cast<Mask>(1u << kind);
        }
        if (!unknown.empty()) throw ProbeError("unknown edge kinds [" + unknown + "]; kinds are open, door, window, wall, corner");
        return mask;
    }
};

PyObject *space_list(const Board &board, const std::vector<int> &items) {
    Ref out(PyList_New(static_cast<Py_ssize_t>(items.size())));
    for (size_t k = 0; k < items.size(); ++k) PyList_SET_ITEM(out.p, k, str(board.space_id(items[k])));
    return out.release();
}

PyObject *space_list(const Board &board, const std::vector<uint16_t> &items) {
    return space_list(board, std::vector<int>(items.begin(), items.end()));
}

PyObject *distance(int d) {
    if (d == Board::UNREACHED) return check(PyFloat_FromDouble(Board::as_number(d)));
    return check(PyLong_FromLong(d));
}

PyObject *search_answer(const Board &board, const Board::Tree &tree) {
    Ref dists(PyList_New(static_cast<Py_ssize_t>(tree.order.size())));
    Ref parents(PyDict_New());
    for (size_t k = 0; k < tree.order.size(); ++k) {
        int s = tree.order[k];
        Ref id(str(board.space_id(s)));
        PyList_SET_ITEM(dists.p, k, check(Py_BuildValue("(Oi)", id.p, static_cast<int>(tree.dist[s]))));
        Ref parent(tree.parent[s] == Board::UNREACHED ? (Py_INCREF(Py_None), Py_None) : str(board.space_id(tree.parent[s])));
        if (PyDict_SetItem(parents.p, id.p, parent.p) < 0) throw PythonError{};
    }
    return check(PyTuple_Pack(2, dists.p, parents.p));
}

PyObject *answer(const Board &board, PyObject *query) {
    if (!PyTuple_Check(query) && !PyList_Check(query)) throw ProbeError("a query is not a tuple");
    Query q{board, query, PySequence_Fast_GET_SIZE(query)};
    if (q.n == 0) throw ProbeError("an empty query");
    const std::string op = text(q.op());
    if (op == "index") {
        q.arity(1);
        int found = board.index(sym_arg(q.arg(1), "a space"));
        if (found == Board::NONE) Py_RETURN_NONE;
        return check(PyLong_FromLong(found));
    }
    if (op == "spaces") {
        q.arity(0);
        std::vector<int> all;
        for (int s = 0; s < board.size(); ++s) all.push_back(s);
        return space_list(board, all);
    }
    if (op == "size") { q.arity(0); return check(PyLong_FromLong(board.size())); }
    if (op == "id") { q.arity(0); return str(board.id); }
    if (op == "between") {
        q.arity(3);
        int a = q.space(1), b = q.space(2);
        return distance(board.between(a, b, q.kinds(3)));
    }
    if (op == "row") {
        q.arity(2);
        int a = q.space(1);
        const auto &row = board.row(a, q.kinds(2));
        Ref out(PyList_New(board.size()));
        for (int s = 0; s < board.size(); ++s) {
            PyObject *item = row[s] == Board::UNREACHED ? (Py_INCREF(Py_None), Py_None) : check(PyLong_FromLong(row[s]));
            PyList_SET_ITEM(out.p, s, item);
        }
        return out.release();
    }
    if (op == "order") {
        q.arity(2);
        int a = q.space(1);
        return space_list(board, board.order(a, q.kinds(2)));
    }
    if (op == "way") {
        q.arity(3);
        int a = q.space(1), b = q.space(2);
        return space_list(board, board.way(a, b, q.kinds(3)));
    }
    if (op == "search") {
        q.arity(2);
        int a = q.space(1);
        return search_answer(board, board.search(a, q.kinds(2)));
    }
    if (op == "stopped_search") {
        q.arity(3);
        int a = q.space(1);
        Mask mask = q.kinds(2);
        std::vector<uint8_t> stopping(board.size(), 0);
        Ref seq(sequence(q.arg(3), "stopping spaces"));
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq.p); ++i)
            stopping[board.space(sym_arg(PySequence_Fast_GET_ITEM(seq.p, i), "a stopping space"))] = 1;
        return search_answer(board, board.stopped_search(a, mask, stopping));
    }
    if (op == "adjacency") {
        q.arity(1);
        const Board::Adjacency &adj = board.adjacency(q.kinds(1));
        Ref out(PyDict_New());
        for (int s = 0; s < board.size(); ++s) {
            Ref id(str(board.space_id(s)));
            Ref ns(space_list(board, std::vector<int>(adj.begin(s), adj.end(s))));
            if (PyDict_SetItem(out.p, id.p, ns.p) < 0) throw PythonError{};
        }
        return out.release();
    }
    if (op == "links") {
        q.arity(1);
        int s = q.space(1);
        Ref out(PyList_New(0));
        for (const Board::Link *l = board.links_begin(s); l != board.links_end(s); ++l) {
            Ref id(str(board.space_id(l->to)));
            Ref item(Py_BuildValue("(OsO)", id.p, kind_name(l->kind), l->diagonal ? Py_True : Py_False));
            if (PyList_Append(out.p, item.p) < 0) throw PythonError{};
        }
        return out.release();
    }
    if (op == "edge") {
        q.arity(2);
        int a = q.space(1), b = q.space(2);
        int kind = board.edge(a, b);
        if (kind == Board::NONE) Py_RETURN_NONE;
        return check(PyUnicode_FromString(kind_name(kind)));
    }
    if (op == "sight") {
        q.arity(2);
        int a = q.space(1), b = q.space(2);
        return check(PyBool_FromLong(board.sight(a, b)));
    }
    if (op == "sight_row" || op == "sight_rows") {
        auto row = [&](int a) {
            std::string out(static_cast<size_t>(board.size()), '0');
            for (int b = 0; b < board.size(); ++b)
                if (board.sight(a, b)) out[b] = '1';
            return check(PyUnicode_FromStringAndSize(out.data(), static_cast<Py_ssize_t>(out.size())));
        };
        if (op == "sight_row") {
            q.arity(1);
            return row(q.space(1));
        }
        q.arity(0);
        Ref out(PyList_New(board.size()));
        for (int a = 0; a < board.size(); ++a) PyList_SET_ITEM(out.p, a, row(a));
        return out.release();
    }
    if (op == "geometry") { q.arity(0); return check(PyBool_FromLong(board.has_geometry())); }
    if (op == "building_of") {
        q.arity(1);
        int b = board.building_of(q.space(1));
        if (b == Board::NONE) Py_RETURN_NONE;
        return str(board.buildings[b].id);
    }
    if (op == "spaces_of") {
        q.arity(1);
        return space_list(board, board.spaces_of(q.building(1)));
    }
    if (op == "building") {
        q.arity(1);
        const Board::Building &b = board.buildings[q.building(1)];
        Ref roll(PyList_New(0));
        for (int64_t r : b.roll) {
            Ref item(PyLong_FromLongLong(r));
            if (PyList_Append(roll.p, item.p) < 0) throw PythonError{};
        }
        Ref title(str(b.title)), spaces(space_list(board, b.spaces)), pick_up(to_python(b.pick_up));
        return check(Py_BuildValue("{sOsOsOsO}", "title", title.p, "spaces", spaces.p, "roll", roll.p, "pick_up", pick_up.p));
    }
    if (op == "property") {
        q.arity(2);
        int s = q.space(1);
        return check(to_python(board.property(s, sym_arg(q.arg(2), "a property's name"))));
    }
    if (op == "title") { q.arity(1); return str(board.title_of(q.space(1))); }
    if (op == "stacking") { q.arity(1); return check(to_python(board.stacking(q.space(1)))); }
    if (op == "space_ids") { q.arity(0); return space_list(board, board.sorted_spaces); }
    if (op == "building_ids") {
        q.arity(0);
        Ref out(PyList_New(0));
        for (int b : board.sorted_buildings) {
            Ref id(str(board.buildings[b].id));
            if (PyList_Append(out.p, id.p) < 0) throw PythonError{};
        }
        return out.release();
    }
    if (op == "spawn_points") { q.arity(0); return space_list(board, board.spawn_points); }
    if (op == "start_spaces") { q.arity(0); return space_list(board, board.start_spaces); }
    if (op == "objectives") { q.arity(0); return space_list(board, board.objectives); }
    if (op == "marked") {
        q.arity(1);
        int s = q.space(1);
        return check(Py_BuildValue("[OOO]", board.is_spawn(s) ? Py_True : Py_False, board.is_start(s) ? Py_True : Py_False,
                                   board.is_objective(s) ? Py_True : Py_False));
    }
    if (op == "resolve") {
        q.arity(1);
        auto found = board.resolve_place(sym_arg(q.arg(1), "a name"));
        if (found.first == 0) Py_RETURN_NONE;
        Sym id = found.first == 1 ? board.buildings[found.second].id : board.space_id(found.second);
        Ref name(str(id));
        return check(Py_BuildValue("(sO)", found.first == 1 ? "building" : "space", name.p));
    }
    if (op == "resolve_space") {
        q.arity(1);
        int found = board.resolve_space(sym_arg(q.arg(1), "a name"));
        if (found == Board::NONE) Py_RETURN_NONE;
        return str(board.space_id(found));
    }
    throw ProbeError("unknown query `" + op + "`");
}

}  // namespace

PyObject *board_probe(PyObject *, PyObject *args) {
    PyObject *data, *queries;
    if (!PyArg_ParseTuple(args, "OO:board_probe", &data, &queries)) return nullptr;
    try {
        Board board(from_python(data));
        Ref seq(sequence(queries, "board_probe's queries"));
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.p);
        Ref out(PyList_New(n));
        for (Py_ssize_t k = 0; k < n; ++k) {
            PyObject *query = PySequence_Fast_GET_ITEM(seq.p, k);
            try {
                PyList_SET_ITEM(out.p, k, answer(board, query));
            } catch (const std::runtime_error &err) {
                PyObject *repr = PyObject_Repr(query);
                const char *shown = repr != nullptr ? PyUnicode_AsUTF8(repr) : nullptr;
                std::string where = shown != nullptr ? shown : "?";
                Py_XDECREF(repr);
                PyErr_Clear();
                throw ProbeError(std::string(err.what()) + " (query " + std::to_string(k) + ": " + where + ")");
            }
        }
        return out.release();
    } catch (const PythonError &) {
        return nullptr;
    } catch (const std::bad_alloc &) {
        return PyErr_NoMemory();
    } catch (const std::runtime_error &err) {  // ProbeError, BoardError, BoardDataError, ConversionError
        PyErr_SetString(PyExc_ValueError, err.what());
        return nullptr;
    } catch (const std::exception &err) {
        PyErr_SetString(PyExc_RuntimeError, err.what());
        return nullptr;
    }
}

}  // namespace spawnpit
