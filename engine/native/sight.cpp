// Line of Sight from the board's geometry (see sight.h): ports of geometry.SightMap.clear, TownSight.clear,
// geometry._crosses and board.py's _grid_sight, _sees, _along and _opening, for nothing opaque or closed.
#include "sight.h"

#include <algorithm>
#include <string>

#include "board.h"

namespace spawnpit {

namespace {

constexpr int64_t LIMIT = int64_t{1} << 24;  // engine/native_board.py's LIMIT

[[noreturn]] void bad(const std::string &what) { throw BoardDataError("board data: geometry: " + what); }

const Value &field(const Value &dict, Sym key, const std::string &where) {
    return data_field(dict, key, where, "geometry: ");
}

const std::vector<Value> &list_of(const Value &v, const std::string &where) { return data_list(v, where, "geometry: "); }

int64_t number(const Value &v, const std::string &where) {
    if (v.tag != Value::INT) bad(where + " is not an int");
    if (v.i < -LIMIT || v.i > LIMIT) bad(where + " is beyond the port's limit (native_board.LIMIT)");
    return v.i;
}

std::vector<int32_t> runs_of(const Value &v, const std::string &where) {
    std::vector<int32_t> out;
    for (const Value &run : list_of(v, where)) out.push_back(static_cast<int32_t>(number(run, where + "[]")));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

bool holds(const std::vector<int32_t> &runs, int32_t run) {
    for (int32_t r : runs)
        if (r == run) return true;
    return false;
}

bool meet(const std::vector<int32_t> &a, const std::vector<int32_t> &b) {
    for (int32_t r : a)
        if (holds(b, r)) return true;
    return false;
}

bool opening(const Board &board, int a, int b) {  // Board._opening, nothing closed: an edge open, door or window
    const int kind = board.edge(a, b);
    return kind != Board::NONE && ((OPENINGS_MASK >> kind) & 1u);
}

int first_index(const std::vector<int> &chain, int s) {  // Python's chain.index(s); -1 when absent
    for (size_t k = 0; k < chain.size(); ++k)
        if (chain[k] == s) return static_cast<int>(k);
    return -1;
}

}  // namespace

SightGeometry::SightGeometry(const Board &board, const Value &geometry) {
    if (geometry.tag != Value::DICT) bad("not a dict");
    const int n = board.size();
    auto read_segment = [&](const Value &v, size_t size, const std::string &where) {
        const auto &parts = list_of(v, where);
        if (parts.size() != size) bad(where + " is not [run, axis, line, low, high" + (size == 6 ? ", owner]" : "]"));
        Segment seg;
        seg.run = static_cast<int32_t>(number(parts[0], where + " run"));
        if (parts[1].tag != Value::STR || (text(parts[1].s) != "x" && text(parts[1].s) != "y"))
            bad(where + ": the axis is neither \"x\" nor \"y\"");
        seg.axis = text(parts[1].s) == "x" ? 0 : 1;
        seg.line = number(parts[2], where + " line");
        seg.low = number(parts[3], where + " low");
        seg.high = number(parts[4], where + " high");
        if (size == 6 && parts[5].tag != Value::STR && parts[5].tag != Value::NONE)
            bad(where + ": the owner is neither a grid nor None");
        return seg;
    };

    // each grid's SightMap
    const Value &grids = field(geometry, SYM("grids"), "the geometry");
    if (grids.tag != Value::DICT) bad("grids is not a dict");
    for (const auto &entry : grids.entries().items) {
        const std::string where = "grids[" + text(entry.first) + "]";
        Plane plane;
        for (const Value &seg : list_of(entry.second, where)) plane.segments.push_back(read_segment(seg, 5, where + "[]"));
        grid_ids_.push_back(entry.first);
        grids_.push_back(std::move(plane));
    }
    const auto &touching = list_of(field(geometry, SYM("touching"), "the geometry"), "touching");
    if (touching.size() != static_cast<size_t>(n)) bad("touching: not one list for each space");
    grid_.assign(n, -1);
    cell_centre_.assign(n, Point{0, 0});
    grid_touching_.resize(n);
    for (int s = 0; s < n; ++s) {
        const Board::Space &sp = board.info(s);
        const std::string where = "space `" + text(sp.id) + "`";
        grid_touching_[s] = runs_of(touching[s], "touching[" + std::to_string(s) + "]");
        if (sp.grid.tag != Value::STR) continue;
        grid_[s] = grid_number(sp.grid.s);
        if (grid_[s] < 0) bad(where + " is on grid `" + text(sp.grid.s) + "`, which grids does not hold");
        if (sp.cell.tag != Value::LIST || sp.cell.items().size() != 2) bad(where + " is on a grid without a [column, row] cell");
        cell_centre_[s] = Point{2 * number(sp.cell.items()[0], where + "'s column") + 1,
                                2 * number(sp.cell.items()[1], where + "'s row") + 1};
    }

    // the layout's TownSight
    const Value &town = field(geometry, SYM("town"), "the geometry");
    if (town.tag != Value::NONE) {
        town_ = true;
        const auto &boxes = list_of(field(town, SYM("box"), "town"), "town.box");
        if (boxes.size() != static_cast<size_t>(n)) bad("town.box: not one entry for each space");
        boxed_.assign(n, 0);
        town_centre_.assign(n, Point{0, 0});
        for (int s = 0; s < n; ++s) {
            if (boxes[s].tag == Value::NONE) continue;
            const std::string where = "town.box[" + std::to_string(s) + "]";
            const auto &corners = list_of(boxes[s], where);
            if (corners.size() != 4) bad(where + " is not [x0, y0, x1, y1]");
            int64_t v[4];
            for (int k = 0; k < 4; ++k) {
                v[k] = number(corners[k], where);
                if (v[k] % 2 != 0) bad(where + " has a corner that is not even (geometry.integral)");
            }
            boxed_[s] = 1;
            town_centre_[s] = Point{(v[0] + v[2]) / 2, (v[1] + v[3]) / 2};  // even sums: exact, as Python's //
        }
        const auto &segments = list_of(field(town, SYM("segments"), "town"), "town.segments");
        for (const Value &seg : segments) town_plane_.segments.push_back(read_segment(seg, 6, "town.segments[]"));
        const auto &town_touching = list_of(field(town, SYM("touching"), "town"), "town.touching");
        if (town_touching.size() != static_cast<size_t>(n)) bad("town.touching: not one list for each space");
        for (int s = 0; s < n; ++s) town_touching_.push_back(runs_of(town_touching[s], "town.touching[" + std::to_string(s) + "]"));
        inside_.resize(grids_.size());
        mixed_.resize(grids_.size());
        const Value &inside = field(town, SYM("inside"), "town"), &mixed = field(town, SYM("mixed"), "town");
        if (inside.tag != Value::DICT || mixed.tag != Value::DICT) bad("town.inside or town.mixed is not a dict");
        for (const auto &entry : inside.entries().items) {
            const std::string where = "town.inside[" + text(entry.first) + "]";
            int g = grid_number(entry.first);
            if (g < 0) bad(where + ": no such grid");
            for (const Value &k : list_of(entry.second, where)) {
                int64_t at = number(k, where + "[]");
                if (at < 0 || at >= static_cast<int64_t>(town_plane_.segments.size())) bad(where + ": no such segment");
                inside_[g].push_back(town_plane_.segments[at]);
            }
        }
        for (const auto &entry : mixed.entries().items) {
            int g = grid_number(entry.first);
            if (g < 0) bad("town.mixed[" + text(entry.first) + "]: no such grid");
            mixed_[g] = runs_of(entry.second, "town.mixed[" + text(entry.first) + "]");
        }
    }

    // the declared straight lines of zones
    lines_.resize(n);
    for (const Value &chain : list_of(field(geometry, SYM("chains"), "the geometry"), "chains")) {
        std::vector<int> spaces;
        for (const Value &sid : list_of(chain, "chains[]")) {
            if (sid.tag != Value::STR) bad("chains[] holds something not a space id");
            int s = board.index(sid.s);
            if (s == Board::NONE) bad("chains[]: `" + text(sid.s) + "` is no space of the board");
            spaces.push_back(s);
        }
        if (spaces.size() <= 2) continue;  // a pairwise link is an opening, not a line
        for (int s : spaces) lines_[s].push_back(static_cast<int>(chains_.size()));
        chains_.push_back(std::move(spaces));
    }
}

int SightGeometry::grid_number(Sym id) const {
    for (size_t k = 0; k < grid_ids_.size(); ++k)
        if (grid_ids_[k] == id) return static_cast<int>(k);
    return -1;
}

// geometry._crosses: whether the segment p→q meets the closed wall segment (touching an end counts)
static inline bool crosses(int64_t pi, int64_t pj, int64_t qi, int64_t qj, int64_t line, int64_t low, int64_t high) {
    const int64_t d = qi - pi;
    if (d == 0) return false;
    if (!(std::min(pi, qi) < line && line < std::max(pi, qi))) return false;
    const int64_t num = pj * d + (line - pi) * (qj - pj);  // the crossing's other coordinate, times d
    return d > 0 ? low * d <= num && num <= high * d : high * d <= num && num <= low * d;
}

// SightMap._walls_clear / TownSight.clear without opaque spaces: no wall the viewer does not touch is crossed
bool SightGeometry::clear(const std::vector<Segment> &segments, const Runs &touched, Point p, Point q) {
    for (const Segment &seg : segments) {
        const bool crossed = seg.axis == 0 ? crosses(p.x, p.y, q.x, q.y, seg.line, seg.low, seg.high)
                                           : crosses(p.y, p.x, q.y, q.x, seg.line, seg.low, seg.high);
        if (crossed && !holds(touched, seg.run)) return false;
    }
    return true;
}

// Board._grid_sight: the grid's own map, and on a layout the walls that map does not know (the whole plane
// when the viewer touches a run that goes on past its grid's own walls)
bool SightGeometry::grid_sight(const Board &, int a, int b) const {
    const int g = grid_[a];
    if (!town_ || !boxed_[a] || !boxed_[b]) return clear(grids_[g].segments, grid_touching_[a], cell_centre_[a], cell_centre_[b]);
    if (meet(town_touching_[a], mixed_[g])) return clear(town_plane_.segments, town_touching_[a], town_centre_[a], town_centre_[b]);
    return clear(grids_[g].segments, grid_touching_[a], cell_centre_[a], cell_centre_[b]) &&
           clear(inside_[g], town_touching_[a], town_centre_[a], town_centre_[b]);
}

// Board._along: the run of the chain from a to b joined by openings, every zone strictly between them outside
// any building
bool SightGeometry::along(const Board &board, const std::vector<int> &chain, int a, int b) const {
    const int i = first_index(chain, a), j = first_index(chain, b);
    const int lo = std::min(i, j), hi = std::max(i, j);
    for (int k = lo; k < hi; ++k)
        if (!opening(board, chain[k], chain[k + 1])) return false;
    for (int k = lo + 1; k < hi; ++k)
        if (board.building_of(chain[k]) != Board::NONE) return false;
    return true;
}

// Board.line_of_sight(a, b): line_of_sight's grid branch, else Board._sees
bool SightGeometry::sees(const Board &board, int a, int b) const {
    if (a == b) return true;
    const int ga = grid_[a], gb = grid_[b];
    if (ga >= 0 && ga == gb) return grid_sight(board, a, b);
    if (ga >= 0 && gb >= 0 && town_ && boxed_[a] && boxed_[b])
        return clear(town_plane_.segments, town_touching_[a], town_centre_[a], town_centre_[b]);
    if (opening(board, a, b)) return true;
    for (int c : lines_[a]) {
        const std::vector<int> &chain = chains_[c];
        if (first_index(chain, b) >= 0 && along(board, chain, a, b)) return true;
    }
    return false;
}

}  // namespace spawnpit
