// The board (port of engine/board.py's runtime queries): a layout's spaces, links, buildings and markers,
// built from what engine/native_board.py's board_data exports, with Line of Sight worked out from the
// board's geometry (sight.h) the first time a pair is asked, or given whole as the matrix the Python
// board worked out.
//
// Spaces are numbered by their place in the board's order (Board.spaces, Python's `index`). Every answer
// is the Python board's: the same distances, the same order of spaces (breadth first, level by level,
// neighbours in link order), the same paths (ties to the space the search met first). Rows of distances,
// the order a search meets spaces, and adjacency are worked out on first use and kept for the board's
// life, per (source, edge kinds), in flat arrays.
#pragma once

#include <array>
#include <limits>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "value.h"

namespace spawnpit {

class SightGeometry;

// Edge kinds, as geometry.KINDS: a kind's bit is 1 << its place there. A `through` set is a mask.
enum EdgeKind : uint8_t { OPEN = 0, DOOR = 1, WINDOW = 2, WALL = 3, CORNER = 4 };
constexpr int EDGE_KINDS = 5;
using Mask = uint8_t;
constexpr Mask MASK_ALL = (1u << EDGE_KINDS) - 1;
constexpr Mask WALKING_MASK = (1u << OPEN) | (1u << DOOR);                     // board.WALKING
constexpr Mask EVERYTHING_MASK = MASK_ALL;                                      // board.EVERYTHING
constexpr Mask OPENINGS_MASK = (1u << OPEN) | (1u << DOOR) | (1u << WINDOW);   // board.OPENINGS

const char *kind_name(int kind);  // "open", …; nullptr outside 0..4
int kind_of(Sym name);            // a kind's number, -1 when it is none

// The data is not a board (a missing field, a link to no space, a kind that is none): names what.
struct BoardDataError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Reading the exported data: its field `key` (a dict's) or a list, else BoardDataError "board data: " +
// part + where + what is wrong (`part`: which part of the data, "geometry: " for sight's).
const Value &data_field(const Value &dict, Sym key, const std::string &where, const char *part = "");
const std::vector<Value> &data_list(const Value &v, const std::string &where, const char *part = "");

// A question the Python board would answer with BoardError (or KeyError): no such space or building.
struct BoardError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Board {
    static constexpr uint16_t UNREACHED = 0xFFFF;  // a row's entry where its source never gets; a parent's None
    static constexpr int NONE = -1;                // no space, building or kind

    struct Space {
        Sym id, title;
        Value terrain;           // None or str
        std::vector<Sym> tags;
        int building = NONE;     // index into buildings
        Value stacking;          // None or int
        Value grid;              // None or str
        Value cell;              // None or [column, row]
    };
    struct Link {
        uint16_t to;
        uint8_t kind;
        bool diagonal;
    };
    struct Building {
        Sym id, title;
        std::vector<int> spaces;     // as declared (not sorted)
        std::vector<int64_t> roll;
        Value pick_up;               // None or str
    };
    // A breadth-first search from one source: `dist` by space (UNREACHED where it never gets), `order` the
    // spaces in the order it meets them (the source first), `parent` by space (UNREACHED for the source
    // and the unreached). Python's `search` dicts are `order` with `dist` and `parent` read in that order.
    struct Tree {
        std::vector<uint16_t> dist, order, parent;
        std::vector<uint16_t> rank;  // each space's place in `order` (way's tie-break); filled when asked
    };
    // Neighbours of each space across edges of one mask (diagonals included), in link order:
    // to[start[s] .. start[s + 1]).
    struct Adjacency {
        std::vector<uint32_t> start;
        std::vector<uint16_t> to;
        const uint16_t *begin(int s) const { return to.data() + start[s]; }
        const uint16_t *end(int s) const { return to.data() + start[s + 1]; }
    };

    Sym id = 0, system = 0, title = 0;
    std::vector<Space> spaces;                 // board order
    std::vector<uint32_t> link_start;          // links of s: links[link_start[s] .. link_start[s + 1])
    std::vector<Link> links;
    std::vector<Building> buildings;           // board order
    std::vector<int> spawn_points, start_spaces, objectives;
    std::vector<int> sorted_spaces, sorted_buildings;  // indices, by id as Python's sorted() orders str

    explicit Board(const Value &data);  // throws BoardDataError
    ~Board();
    Board(const Board &) = delete;
    Board &operator=(const Board &) = delete;

    int size() const { return static_cast<int>(spaces.size()); }

    // ---- lookups ----
    int index(Sym sid) const;            // NONE when there is no such space
    int space(Sym sid) const;            // the index, else BoardError "board `…` has no space `…`"
    int building_index(Sym bid) const;   // NONE when there is no such building
    const Space &info(int s) const { return spaces[s]; }
    Sym space_id(int s) const { return spaces[s].id; }
    Sym title_of(int s) const { return spaces[s].title; }
    int building_of(int s) const { return spaces[s].building; }
    const std::vector<int> &spaces_of(int b) const { return buildings[b].spaces; }
    const Value &stacking(int s) const { return spaces[s].stacking; }
    bool has_tag(int s, Sym tag) const;
    // Board.property: a field of the space (id, title, terrain, tags, building, stacking, grid, cell;
    // tags and cell as lists) by name, else whether it carries the tag.
    Value property(int s, Sym name) const;
    bool is_spawn(int s) const { return marked_[s] & 1; }
    bool is_start(int s) const { return marked_[s] & 2; }
    bool is_objective(int s) const { return marked_[s] & 4; }

    // World.resolve_place: the building, else the space, named by its id or a dotted tail of it (`b2`)
    // when exactly one matches; {0, NONE} when neither. first: 1 building, 2 space.
    std::pair<int, int> resolve_place(Sym name) const;
    // Board.resolve: the space with that id, else the one space whose id ends in "." + name; NONE when
    // none or several do.
    int resolve_space(Sym name) const;

    // ---- edges ----
    // The kind of the edge from a to b (the first a's links give for b), NONE when not neighbours.
    int edge(int a, int b) const;
    const Link *links_begin(int s) const { return links.data() + link_start[s]; }
    const Link *links_end(int s) const { return links.data() + link_start[s + 1]; }
    const Adjacency &adjacency(Mask through) const;

    // ---- distances ----
    // Board.between: steps from a to b, diagonals included, nothing blocked; UNREACHED for math.inf.
    // Read off a's row if worked out, else b's, else a's worked out (as Python does).
    int between(int a, int b, Mask through) const;
    static double as_number(int d) { return d == UNREACHED ? std::numeric_limits<double>::infinity() : d; }
    const Tree &tree(int source, Mask through) const;  // row and order, cached for the board's life
    const std::vector<uint16_t> &row(int source, Mask through) const { return tree(source, through).dist; }
    const std::vector<uint16_t> &order(int source, Mask through) const { return tree(source, through).order; }
    // Board.way: source … to (both ends), empty when out of reach.
    std::vector<int> way(int source, int to, Mask through) const;
    // Board.search: the cached tree with its parents filled.
    const Tree &search(int source, Mask through) const;
    // movement._search with stopping spaces: a stopping space is entered, never left; `stopping` holds
    // one flag per space, the source's ignored (a unit may always leave where it stands, as _how's set
    // leaves it out). Not cached (the caller keys it by what decides it).
    Tree stopped_search(int source, Mask through, const std::vector<uint8_t> &stopping) const;

    // ---- sight ----
    // Board.line_of_sight(a, b), nothing opaque or closed: the matrix's answer when the data gave it; else
    // worked out from the geometry (sight.h) the first time a pair is asked; else (data without geometry)
    // asked of `sight_source` (the Python board). Kept either way: a cheap lookup after the first answer.
    bool sight(int a, int b) const {
        uint8_t &known = sight_[static_cast<size_t>(a) * spaces.size() + b];
        if (known == UNKNOWN_SIGHT) known = work_out_sight(a, b) ? 1 : 0;
        return known != 0;
    }
    bool has_geometry() const { return geometry_ != nullptr; }
    std::function<bool(int, int)> sight_source;
    static constexpr uint8_t UNKNOWN_SIGHT = 2;

   private:
    mutable std::vector<uint8_t> sight_;   // n * n, row a: what a sees (UNKNOWN_SIGHT: not asked yet)
    std::unique_ptr<SightGeometry> geometry_;  // null when the data gives none
    std::vector<uint8_t> marked_;  // 1 spawn, 2 start, 4 objective
    // Sym → space index, open addressing (an empty slot holds EMPTY)
    static constexpr Sym EMPTY = 0xFFFFFFFFu;
    std::vector<Sym> keys_;
    std::vector<int> values_;
    std::vector<std::pair<Sym, int>> building_index_;  // few: a scan
    mutable std::array<std::unique_ptr<Adjacency>, MASK_ALL + 1> adjacency_;
    mutable std::array<std::vector<std::unique_ptr<Tree>>, MASK_ALL + 1> trees_;

    void fill_tree(Tree &tree, int source, Mask through, bool parents) const;
    bool work_out_sight(int a, int b) const;
};

}  // namespace spawnpit
