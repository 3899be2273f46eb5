// The board: built from board_data's export, and its queries as engine/board.py answers them.
#include "board.h"

#include <algorithm>

#include "sight.h"

namespace spawnpit {

const Value &data_field(const Value &dict, Sym key, const std::string &where, const char *part) {
    if (dict.tag != Value::DICT) throw BoardDataError(std::string("board data: ") + part + where + " is not a dict");
    const Value *found = dict.entries().find(key);
    if (found == nullptr) throw BoardDataError(std::string("board data: ") + part + where + " has no `" + text(key) + "`");
    return *found;
}

const std::vector<Value> &data_list(const Value &v, const std::string &where, const char *part) {
    if (v.tag != Value::LIST) throw BoardDataError(std::string("board data: ") + part + where + " is not a list");
    return v.items();
}

namespace {

const char *const KIND_NAMES[EDGE_KINDS] = {"open", "door", "window", "wall", "corner"};

struct Names {
    Sym kinds[EDGE_KINDS];
    Sym id, title, terrain, tags, building, stacking, grid, cell;
    Sym spaces, links, buildings, spawn_points, start_spaces, objectives, sight, geometry, system, roll, pick_up;
    Sym format;
    Names() {
        for (int k = 0; k < EDGE_KINDS; ++k) kinds[k] = intern(KIND_NAMES[k]);
        id = intern("id"), title = intern("title"), terrain = intern("terrain"), tags = intern("tags");
        building = intern("building"), stacking = intern("stacking"), grid = intern("grid"), cell = intern("cell");
        spaces = intern("spaces"), links = intern("links"), buildings = intern("buildings");
        geometry = intern("geometry");
        spawn_points = intern("spawn_points"), start_spaces = intern("start_spaces");
        objectives = intern("objectives"), sight = intern("sight"), system = intern("system");
        roll = intern("roll"), pick_up = intern("pick_up"), format = intern("format");
    }
};

const Names &names() {
    static const Names n;
    return n;
}

[[noreturn]] void bad(const std::string &what) { throw BoardDataError("board data: " + what); }

const Value &field(const Value &dict, Sym key, const std::string &where) { return data_field(dict, key, where); }

const std::vector<Value> &list_of(const Value &v, const std::string &where) { return data_list(v, where); }

Sym str_of(const Value &v, const std::string &where) {
    if (v.tag != Value::STR) bad(where + " is not a string");
    return v.s;
}

Value str_or_none(const Value &v, const std::string &where) {
    if (v.tag != Value::STR && v.tag != Value::NONE) bad(where + " is neither a string nor None");
    return v;
}

bool ends_with_dotted(Sym candidate, Sym name) {  // Python's candidate.endswith("." + name)
    const std::string &c = text(candidate), &n = text(name);
    return c.size() > n.size() && c[c.size() - n.size() - 1] == '.' &&
           c.compare(c.size() - n.size(), n.size(), n) == 0;
}

uint32_t slot_of(Sym key, size_t mask) { return static_cast<uint32_t>((key * 2654435761u) & mask); }

}  // namespace

const char *kind_name(int kind) { return kind >= 0 && kind < EDGE_KINDS ? KIND_NAMES[kind] : nullptr; }

int kind_of(Sym name) {
    const Names &n = names();
    for (int k = 0; k < EDGE_KINDS; ++k)
        if (n.kinds[k] == name) return k;
    return -1;
}

// ---- building -------------------------------------------------------------------------------------

Board::Board(const Value &data) {
    const Names &N = names();
    if (data.tag != Value::DICT) bad("not a dict");
    const Value *format = data.entries().find(N.format);
    if (format != nullptr && !(format->tag == Value::INT && format->i == 1))
        bad("format is not 1 (engine/native_board.py's FORMAT)");
    id = str_of(field(data, N.id, "the board"), "the board's id");
    const Value *sys = data.entries().find(N.system);
    system = sys != nullptr && sys->tag == Value::STR ? sys->s : 0;
    const Value *ttl = data.entries().find(N.title);
    title = ttl != nullptr && ttl->tag == Value::STR ? ttl->s : id;

    // spaces, and the table of their ids
    const auto &space_list = list_of(field(data, N.spaces, "the board"), "spaces");
    if (space_list.size() >= UNREACHED) bad("more than 65534 spaces");
    const int n = static_cast<int>(space_list.size());
    size_t capacity = 16;
    while (capacity < 2 * space_list.size() + 2) capacity *= 2;
    keys_.assign(capacity, EMPTY);
    values_.assign(capacity, NONE);
    spaces.resize(space_list.size());
    std::vector<Sym> building_names(space_list.size(), EMPTY);
    for (int s = 0; s < n; ++s) {
        const Value &entry = space_list[s];
        std::string where = "spaces[" + std::to_string(s) + "]";
        Space &sp = spaces[s];
        sp.id = str_of(field(entry, N.id, where), where + ".id");
        sp.title = str_of(field(entry, N.title, where), where + ".title");
        sp.terrain = field(entry, N.terrain, where);
        for (const Value &tag : list_of(field(entry, N.tags, where), where + ".tags"))
            sp.tags.push_back(str_of(tag, where + ".tags[]"));
        const Value &b = str_or_none(field(entry, N.building, where), where + ".building");
        if (b.tag == Value::STR) building_names[s] = b.s;
        sp.stacking = field(entry, N.stacking, where);
        if (sp.stacking.tag != Value::INT && sp.stacking.tag != Value::NONE) bad(where + ".stacking is neither an int nor None");
        sp.grid = str_or_none(field(entry, N.grid, where), where + ".grid");
        sp.cell = field(entry, N.cell, where);
        size_t slot = slot_of(sp.id, capacity - 1);
        while (keys_[slot] != EMPTY) {
            if (keys_[slot] == sp.id) bad("space `" + text(sp.id) + "` twice");
            slot = (slot + 1) & (capacity - 1);
        }
        keys_[slot] = sp.id;
        values_[slot] = s;
    }
    auto space_named = [&](const Value &v, const std::string &where) {
        int found = index(str_of(v, where));
        if (found == NONE) bad(where + ": `" + text(v.s) + "` is no space of the board");
        return found;
    };

    // links, in their order
    const auto &link_lists = list_of(field(data, N.links, "the board"), "links");
    if (link_lists.size() != space_list.size()) bad("links: not one list for each space");
    link_start.assign(1, 0);
    for (int s = 0; s < n; ++s) {
        std::string where = "links[" + std::to_string(s) + "]";
        for (const Value &link : list_of(link_lists[s], where)) {
            const auto &parts = list_of(link, where + "[]");
            if (parts.size() != 3) bad(where + ": a link is not [neighbour, kind, diagonal]");
            int to = space_named(parts[0], where);
            int kind = kind_of(str_of(parts[1], where + " kind"));
            if (kind < 0) bad(where + ": `" + text(parts[1].s) + "` is no edge kind");
            if (parts[2].tag != Value::BOOL) bad(where + ": diagonal is not a bool");
            links.push_back(Link{static_cast<uint16_t>(to), static_cast<uint8_t>(kind), parts[2].b});
        }
        link_start.push_back(static_cast<uint32_t>(links.size()));
    }

    // buildings, in board order
    const auto &building_list = list_of(field(data, N.buildings, "the board"), "buildings");
    for (size_t k = 0; k < building_list.size(); ++k) {
        const Value &entry = building_list[k];
        std::string where = "buildings[" + std::to_string(k) + "]";
        Building b;
        b.id = str_of(field(entry, N.id, where), where + ".id");
        if (building_index(b.id) != NONE) bad("building `" + text(b.id) + "` twice");
        b.title = str_of(field(entry, N.title, where), where + ".title");
        for (const Value &s : list_of(field(entry, N.spaces, where), where + ".spaces"))
            b.spaces.push_back(space_named(s, where + ".spaces"));
        for (const Value &r : list_of(field(entry, N.roll, where), where + ".roll")) {
            if (r.tag != Value::INT) bad(where + ".roll holds something not an int");
            b.roll.push_back(r.i);
        }
        b.pick_up = str_or_none(field(entry, N.pick_up, where), where + ".pick_up");
        building_index_.emplace_back(b.id, static_cast<int>(buildings.size()));
        buildings.push_back(std::move(b));
    }
    for (int s = 0; s < n; ++s) {
        if (building_names[s] == EMPTY) continue;
        spaces[s].building = building_index(building_names[s]);
        if (spaces[s].building == NONE)
            bad("space `" + text(spaces[s].id) + "` is in building `" + text(building_names[s]) + "`, no building of the board");
    }

    // markers
    marked_.assign(space_list.size(), 0);
    struct { Sym key; std::vector<int> *out; uint8_t bit; } markers[] = {
        {N.spawn_points, &spawn_points, 1}, {N.start_spaces, &start_spaces, 2}, {N.objectives, &objectives, 4}};
    for (auto &m : markers) {
        for (const Value &s : list_of(field(data, m.key, "the board"), text(m.key))) {
            int at = space_named(s, text(m.key));
            m.out->push_back(at);
            marked_[at] |= m.bit;
        }
    }

    // Line of Sight: the whole matrix, or (`sight` None) each pair worked out from `geometry` when first
    // needed, or without geometry asked of `sight_source`
    const Value *geometry = data.entries().find(N.geometry);
    if (geometry != nullptr && geometry->tag != Value::NONE)
        geometry_ = std::make_unique<SightGeometry>(*this, *geometry);
    sight_.assign(space_list.size() * space_list.size(), UNKNOWN_SIGHT);
    const Value *sight_rows = data.tag == Value::DICT ? data.entries().find(N.sight) : nullptr;
    const auto &rows = sight_rows == nullptr || sight_rows->tag == Value::NONE ? std::vector<Value>()
                                                                              : list_of(*sight_rows, "sight");
    if (!rows.empty() && rows.size() != space_list.size()) bad("sight: not one row for each space");
    for (int a = 0; a < n && !rows.empty(); ++a) {
        const std::string &row = text(str_of(rows[a], "sight[" + std::to_string(a) + "]"));
        if (row.size() != space_list.size()) bad("sight[" + std::to_string(a) + "]: not one character for each space");
        for (int b = 0; b < n; ++b) {
            char c = row[b];
            if (c != '0' && c != '1') bad("sight[" + std::to_string(a) + "]: a character not 0 or 1");
            sight_[static_cast<size_t>(a) * n + b] = c == '1';
        }
    }

    // ids in Python's sorted() order (by code point: UTF-8 bytes compared unsigned)
    for (int s = 0; s < n; ++s) sorted_spaces.push_back(s);
    std::sort(sorted_spaces.begin(), sorted_spaces.end(),
              [&](int x, int y) { return text(spaces[x].id).compare(text(spaces[y].id)) < 0; });
    for (size_t b = 0; b < buildings.size(); ++b) sorted_buildings.push_back(static_cast<int>(b));
    std::sort(sorted_buildings.begin(), sorted_buildings.end(),
              [&](int x, int y) { return text(buildings[x].id).compare(text(buildings[y].id)) < 0; });
}

Board::~Board() = default;

// ---- sight ----------------------------------------------------------------------------------------

bool Board::work_out_sight(int a, int b) const {
    if (geometry_) return geometry_->sees(*this, a, b);
    if (!sight_source) throw BoardError("board `" + text(id) + "`: no Line of Sight was given");
    return sight_source(a, b);
}

// ---- lookups --------------------------------------------------------------------------------------

int Board::index(Sym sid) const {
    const size_t mask = keys_.size() - 1;
    for (size_t slot = slot_of(sid, mask);; slot = (slot + 1) & mask) {
        if (keys_[slot] == sid) return values_[slot];
        if (keys_[slot] == EMPTY) return NONE;
    }
}

int Board::space(Sym sid) const {
    int found = index(sid);
    if (found == NONE) throw BoardError("board `" + text(id) + "` has no space `" + text(sid) + "`");
    return found;
}

int Board::building_index(Sym bid) const {
    for (auto &entry : building_index_)
        if (entry.first == bid) return entry.second;
    return NONE;
}

bool Board::has_tag(int s, Sym tag) const {
    for (Sym t : spaces[s].tags)
        if (t == tag) return true;
    return false;
}

Value Board::property(int s, Sym name) const {
    const Names &N = names();
    const Space &sp = spaces[s];
    if (name == N.id) return Value::str(sp.id);
    if (name == N.title) return Value::str(sp.title);
    if (name == N.terrain) return sp.terrain;
    if (name == N.tags) {
        std::vector<Value> out;
        for (Sym t : sp.tags) out.push_back(Value::str(t));
        return Value::new_list(std::move(out));
    }
    if (name == N.building) return sp.building == NONE ? Value::none() : Value::str(buildings[sp.building].id);
    if (name == N.stacking) return sp.stacking;
    if (name == N.grid) return sp.grid;
    if (name == N.cell) {
        if (sp.cell.tag != Value::LIST) return sp.cell;
        return Value::new_list(sp.cell.items());  // a list of its own: the caller may change it
    }
    return Value::boolean(has_tag(s, name));
}

std::pair<int, int> Board::resolve_place(Sym name) const {
    int hit = NONE, hits = 0;
    for (size_t b = 0; b < buildings.size() && hits < 2; ++b)
        if (buildings[b].id == name || ends_with_dotted(buildings[b].id, name)) hit = static_cast<int>(b), ++hits;
    if (hits == 1) return {1, hit};
    hit = NONE, hits = 0;
    for (int s = 0; s < size() && hits < 2; ++s)
        if (spaces[s].id == name || ends_with_dotted(spaces[s].id, name)) hit = s, ++hits;
    if (hits == 1) return {2, hit};
    return {0, NONE};
}

int Board::resolve_space(Sym name) const {
    int found = index(name);
    if (found != NONE) return found;
    int hits = 0;
    for (int s = 0; s < size() && hits < 2; ++s)
        if (ends_with_dotted(spaces[s].id, name)) found = s, ++hits;
    return hits == 1 ? found : NONE;
}

// ---- edges ----------------------------------------------------------------------------------------

int Board::edge(int a, int b) const {
    for (const Link *l = links_begin(a), *end = links_end(a); l != end; ++l)
        if (l->to == b) return l->kind;
    return NONE;
}

const Board::Adjacency &Board::adjacency(Mask through) const {
    through &= MASK_ALL;
    auto &found = adjacency_[through];
    if (!found) {
        auto adj = std::make_unique<Adjacency>();
        adj->start.reserve(spaces.size() + 1);
        adj->start.push_back(0);
        for (int s = 0; s < size(); ++s) {
            for (const Link *l = links_begin(s), *end = links_end(s); l != end; ++l)
                if (through & (1u << l->kind)) adj->to.push_back(l->to);
            adj->start.push_back(static_cast<uint32_t>(adj->to.size()));
        }
        found = std::move(adj);
    }
    return *found;
}

// ---- distances ------------------------------------------------------------------------------------

void Board::fill_tree(Tree &tree, int source, Mask through, bool parents) const {
    const Adjacency &adj = adjacency(through);
    const size_t n = spaces.size();
    tree.dist.assign(n, UNREACHED);
    tree.order.clear();
    tree.order.reserve(n);
    if (parents) tree.parent.assign(n, UNREACHED);
    tree.dist[source] = 0;
    tree.order.push_back(static_cast<uint16_t>(source));
    // level by level, every space of one level before any of the next (Board._row): the order a queue
    // would meet them in, neighbours in link order
    size_t level_start = 0;
    uint16_t d = 0;
    while (level_start < tree.order.size()) {
        size_t level_end = tree.order.size();
        ++d;
        for (size_t k = level_start; k < level_end; ++k) {
            uint16_t here = tree.order[k];
            for (const uint16_t *m = adj.begin(here), *end = adj.end(here); m != end; ++m) {
                if (tree.dist[*m] == UNREACHED) {
                    tree.dist[*m] = d;
                    if (parents) tree.parent[*m] = here;
                    tree.order.push_back(*m);
                }
            }
        }
        level_start = level_end;
    }
}

const Board::Tree &Board::tree(int source, Mask through) const {
    through &= MASK_ALL;
    auto &trees = trees_[through];
    if (trees.empty()) trees.resize(spaces.size());
    auto &found = trees[source];
    if (!found) {
        found = std::make_unique<Tree>();
        fill_tree(*found, source, through, false);
    }
    return *found;
}

int Board::between(int a, int b, Mask through) const {
    through &= MASK_ALL;
    const auto &trees = trees_[through];
    if (!trees.empty()) {
        if (trees[a]) return trees[a]->dist[b];
        if (trees[b]) return trees[b]->dist[a];
    }
    return tree(a, through).dist[b];
}

std::vector<int> Board::way(int source, int to, Mask through) const {
    through &= MASK_ALL;
    tree(source, through);
    Tree &t = *trees_[through][source];
    const auto &row = t.dist;
    if (row[to] == UNREACHED) return {};
    if (t.rank.empty()) {
        t.rank.assign(spaces.size(), 0);
        for (size_t position = 0; position < t.order.size(); ++position) t.rank[t.order[position]] = static_cast<uint16_t>(position);
    }
    const Adjacency &adj = adjacency(through);
    std::vector<int> out{to};
    int here = to;
    while (row[here] != 0) {
        const uint16_t nearer = row[here] - 1;
        int best = NONE;
        for (const uint16_t *m = adj.begin(here), *end = adj.end(here); m != end; ++m)
            if (row[*m] == nearer && (best == NONE || t.rank[*m] < t.rank[best])) best = *m;
        if (best == NONE)  // Python's min() of nothing: only on links that are not both ways
            throw BoardError("board `" + text(id) + "`: no way back from `" + text(spaces[here].id) + "` (links not both ways)");
        here = best;
        out.push_back(here);
    }
    std::reverse(out.begin(), out.end());
    return out;
}

const Board::Tree &Board::search(int source, Mask through) const {
    through &= MASK_ALL;
    tree(source, through);
    Tree &t = *trees_[through][source];
    if (t.parent.empty()) {
        Tree full;
        fill_tree(full, source, through, true);
        t.parent = std::move(full.parent);
    }
    return t;
}

Board::Tree Board::stopped_search(int source, Mask through, const std::vector<uint8_t> &stopping) const {
    if (stopping.size() != spaces.size()) throw BoardError("stopped_search: not one flag for each space");
    const Adjacency &adj = adjacency(through & MASK_ALL);
    Tree t;
    t.dist.assign(spaces.size(), UNREACHED);
    t.parent.assign(spaces.size(), UNREACHED);
    t.order.reserve(spaces.size());
    t.dist[source] = 0;
    t.order.push_back(static_cast<uint16_t>(source));
    for (size_t head = 0; head < t.order.size(); ++head) {  // the queue: `order` itself
        const uint16_t here = t.order[head];
        if (here != source && stopping[here]) continue;  // entered, never left
        const uint16_t d = t.dist[here] + 1;
        for (const uint16_t *m = adj.begin(here), *end = adj.end(here); m != end; ++m) {
            if (t.dist[*m] == UNREACHED) {
                t.dist[*m] = d;
                t.parent[*m] = here;
                t.order.push_back(*m);
            }
        }
    }
    return t;
}

}  // namespace spawnpit
