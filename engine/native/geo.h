// What the rules ask of the board and of movement (board.py, movement.py, the board parts of world.py
// and table.py), for a game: every answer as the Python engine gives it.
#pragma once

#include <vector>

#include "game.h"

namespace spawnpit {

using Mask = uint8_t;  // a set of edge kinds (geometry.KINDS): open, door, window, wall, corner
Mask mask_of(const Value &kinds);  // a kind's `through`: one name or a list of names
extern const Mask WALKING;         // open, door
extern const Mask EVERYTHING;      // every kind

constexpr double INF = __builtin_inf();

bool on_board(Game &g, Sym space);                       // a space of the board
std::vector<Sym> board_buildings(Game &g);               // the board's buildings, in its order
std::vector<Sym> board_start_spaces(Game &g);            // as the board lists them
Sym building_of(Game &g, Sym space);                     // 0: none
std::vector<Sym> spaces_of(Game &g, Sym building);       // in the board's order
const std::vector<Sym> &sorted_space_ids(Game &g);       // World.space_ids
const std::vector<Sym> &sorted_building_ids(Game &g);    // World.building_ids
Value space_property(Game &g, Sym space, Sym name);      // Board.property
Value space_title(Game &g, Sym space);                   // Board.space(s).title
bool is_spawn(Game &g, Sym space), is_start(Game &g, Sym space), is_objective(Game &g, Sym space);
Value resolve_place(Game &g, Sym name);                  // World.resolve_place: a Ref, or None
Value building_attribute(Game &g, Sym building, Sym name);  // Table._building_attribute
Value board_part(Game &g, Sym place);                    // table._part
double between(Game &g, Sym a, Sym b, Mask through);     // Board.between: INF when out of reach
bool sight(Game &g, Sym a, Sym b);                       // Board.line_of_sight, nothing opaque or closed
Value edge(Game &g, Sym a, Sym b);                       // Board.edge: the kind, or None
std::vector<Value> neighbours(Game &g, Sym space);       // Table.neighbours
double nearest(Game &g, Sym here, const std::vector<Sym> &theres);  // Table.nearest's distances (WALKING)
std::vector<int64_t> divide_evenly(Game &g, int64_t n, const std::vector<Sym> &points);  // board.divide_evenly

// movement.py
Mask kind_through(Game &g, Sym kind);                    // _rules: the edges a kind may cross
std::vector<Value> reach(Game &g, Sym unit, const Value &n);
double steps(Game &g, Sym unit, Sym place);
double route(Game &g, Sym unit, Sym from, Sym to);
void walk(Game &g, Sym unit, Sym to, const Value &n, Context &ctx);

}  // namespace spawnpit
