// Line of Sight worked out natively: the port of engine/board.py's line_of_sight(a, b) with nothing opaque
// and nothing closed (the engine's question, cached in Python as ("los0", a, b)), from the geometry
// engine/native_board.py's sight_geometry exports:
//
// - two cells of one grid: geometry.SightMap.clear (a line from centre to centre, stopped by any wall run
//   the viewer does not touch), and on a layout of several grids (Board._grid_sight) the walls of the
//   layout that grid's map does not know, or the whole plane when the viewer touches a run that goes on
//   past its grid's own walls;
// - two gridded spaces of a layout: geometry.TownSight.clear over the boxes the layout gives them (a grid
//   drawn in a hole shares it evenly, so its boxes may be bigger);
// - anything else (NotLD's zones, DotZ's map): an opening between them (an edge of kind open, door or
//   window), or a declared straight chain of three or more zones joining them by openings, every zone
//   strictly between them outside any building (Board._sees, _along).
//
// Exact: coordinates are integers (the boxes are scaled so every corner is even, see geometry.integral),
// bounded by native_board.LIMIT, so every product in the crossing test fits in 64 bits.
#pragma once

#include <cstdint>
#include <vector>

#include "value.h"

namespace spawnpit {

struct Board;

class SightGeometry {
   public:
    // `geometry`: board_data's `geometry` (a dict); throws BoardDataError naming what is wrong.
    SightGeometry(const Board &board, const Value &geometry);

    // Board.line_of_sight(a, b) (a == b included: always true).
    bool sees(const Board &board, int a, int b) const;

   private:
    struct Point {
        int64_t x, y;
    };
    struct Segment {          // a wall: on the line axis = `line` (axis 0: x, vertical; 1: y), from low to high
        int64_t line, low, high;
        int32_t run;          // the straight run it is part of
        uint8_t axis;
    };
    struct Plane {            // a SightMap (one grid) or the TownSight (the layout)
        std::vector<Segment> segments;
    };
    using Runs = std::vector<int32_t>;  // a few, sorted

    // per grid (the grids of the data, numbered in its order)
    std::vector<Sym> grid_ids_;
    std::vector<Plane> grids_;
    // per space
    std::vector<int> grid_;           // its grid's number, -1 off a grid
    std::vector<Point> cell_centre_;  // (2c + 1, 2r + 1) in its grid
    std::vector<Runs> grid_touching_;
    // the layout
    bool town_ = false;
    Plane town_plane_;
    std::vector<uint8_t> boxed_;      // per space: in the plane
    std::vector<Point> town_centre_;  // per space: its box's centre
    std::vector<Runs> town_touching_;
    std::vector<std::vector<Segment>> inside_;  // per grid: the walls of the plane not its own that may cross it
    std::vector<Runs> mixed_;                   // per grid: the runs holding a wall not its own
    // zones
    std::vector<std::vector<int>> chains_;      // declared straight lines of three or more spaces
    std::vector<std::vector<int>> lines_;       // per space: the chains through it (once per time it is in one)

    int grid_number(Sym id) const;  // -1 when the data has no such grid
    bool grid_sight(const Board &board, int a, int b) const;
    static bool clear(const std::vector<Segment> &segments, const Runs &touched, Point p, Point q);
    bool along(const Board &board, const std::vector<int> &chain, int a, int b) const;
};

}  // namespace spawnpit
