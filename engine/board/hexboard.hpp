#pragma once
// HexBoard: a board of hexes, the second implementation of Board (issue 8)
// beside the continuous Tabletop, for the hex-grid seeds (seed 004's blocks,
// seed 000's counters). Rules keep asking the Board interface; hex-aware code
// (engine/modules/blocks/seed004.hpp) also uses the hex API below.
//
// Layout (choices, each tested in tests/test_hexboard.cpp):
//  * Pointy-topped hexes in horizontal rows, as on a Commands & Colors
//    board: the six hexsides face bearings 30, 90, 150, 210, 270 and 330
//    degrees (geometry.hpp: 0 = up the table, clockwise). So a hex has two
//    neighbours a row nearer the bottom edge (SW, SE), two a row nearer the
//    top (NW, NE) and two in its own row (W, E).
//  * Axial coordinates (q, r): r is the row, 0 at the bottom edge, growing up
//    the table; q grows to the right along a row. The centre of (q, r) lies
//    at x = s (q + r/2), y = s r sqrt(3)/2 from the centre of (0, 0), s being
//    the centre-to-centre spacing (`hex`). Neighbours: ne (0,+1), e (+1,0),
//    se (+1,-1), sw (0,-1), w (-1,0), nw (-1,+1).
//  * The board is `cols` x `rows` hexes in offset rows: odd rows are shifted
//    half a hex to the right (col = q + floor(r/2)). Every row has `cols`
//    hexes (choice: C&C alternates 13 and 12; a scenario can make the extra
//    hexes impassable). The table it stands for is s (cols + 1/2) wide and
//    s (1/sqrt(3)) (2 + 1.5 (rows - 1)) deep; hex (col 0, row 0) touches the
//    bottom-left corner.
//  * Points: every Point maps to the hex containing it (hex_of); a point on
//    the board is one whose hex is on the board. Rules should put units on
//    hex centres (centre()); a Point elsewhere counts as its hex.
//  * Distance: hexes between the two hexes, times s (so a weapon band of
//    20cm on a 10cm hex reaches 2 hexes). hex_distance() gives the count.
//  * Line of sight, hex centre to hex centre: blocked by a hex strictly
//    between the two that blocks sight (terrain) or holds a unit
//    (line_of_sight_past, given the units' positions). When the line runs
//    exactly along a hexside, it is blocked only if the hexes on both sides
//    block (the C&C rule; the seed says only "no units or terrain may occupy
//    the line of sight path"). The two end hexes never block.
//  * Terrain per hex: an index into a list of HexTerrain types (0 is open
//    ground). Impassable: cannot be entered. Halts movement: a unit entering
//    it stops there. cover = battle dice lost by a unit attacked in it
//    (cover_at, cover_of). Height: hills; moves_uphill when a hex on the path
//    is higher than the hex before it.
//  * Moves go hex by hex along the hex line (no path-finding, like the
//    tabletop's straight moves), spending s per hex entered; they stop before
//    an impassable hex or the board edge, in the first halting hex, at the
//    target, or when the allowance runs out. movement_cost is s per hex
//    entered, +infinity if the line crosses impassable terrain or passes
//    through a halting hex before its last hex.
//  * Facing: a unit faces a hexside (facing_of / nearest_dir); arcs and
//    aspects use the continuous rules on hex centres.
#include <array>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/board/geometry.hpp"
#include "engine/decision/ruleset.hpp"  // (unit.hpp needs it)
#include "engine/board/unit.hpp"     // Edge

namespace vedette {

struct Hex {
  int q = 0;
  int r = 0;
  friend constexpr bool operator==(Hex, Hex) = default;
};

// The six hexsides, clockwise from the upper right.
enum class HexDir : std::uint8_t { ne, e, se, sw, w, nw };
inline constexpr std::array<HexDir, 6> k_hex_dirs{HexDir::ne, HexDir::e, HexDir::se, HexDir::sw, HexDir::w, HexDir::nw};
inline constexpr std::array<const char*, 6> k_hex_dir_names{"ne", "e", "se", "sw", "w", "nw"};

// The neighbour across a hexside, and the facing (degrees) toward it.
Hex neighbour(Hex h, HexDir d);
double facing_of(HexDir d);
// The hexside nearest a facing (ties: the clockwise one).
HexDir nearest_dir(double facing_deg);
// The hexside of `a` that `b` lies across, if they are adjacent.
std::optional<HexDir> dir_between(Hex a, Hex b);
// Inline: the engagement asks it for every pair of units on every step.
inline int hex_distance(Hex a, Hex b) {
  const int dq = b.q - a.q, dr = b.r - a.r;
  return (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2;
}

// One step of a line of sight between two hex centres: the hexes of the
// line nudged to either side (the same hex unless the line runs along a
// hexside there).
struct SightStep {
  Hex h1;
  Hex h2;
};

struct HexTerrain {
  std::string name = "open";
  bool impassable = false;
  bool halts_movement = false;
  bool blocks_sight = false;
  int cover = 0;        // battle dice lost by a unit attacked in this hex
  int height = 0;       // hill levels (0 = level ground)
  bool forbids_square = false;  // seed 004: "certain terrain hexes"
};

class HexBoard final : public Board {
 public:
  // `hex`: centre-to-centre spacing. Throws std::invalid_argument unless
  // cols, rows >= 1 and hex is positive and finite.
  HexBoard(int cols, int rows, Length hex);

  int cols() const { return cols_; }
  int rows() const { return rows_; }
  Length hex_size() const { return Length::cm(s_); }
  Length width() const;
  Length depth() const;

  // Offset (col, row) <-> axial.
  // (Inline: the engagement asks them for every hex it walks.)
  static Hex from_offset(int col, int row) { return {col - floor_div2(row), row}; }
  static int col_of(Hex h) { return h.q + floor_div2(h.r); }

  bool on_board(Hex h) const {
    const int c = col_of(h);
    return h.r >= 0 && h.r < rows_ && c >= 0 && c < cols_;
  }
  Point centre(Hex h) const;
  Hex hex_of(Point p) const;
  Point snap(Point p) const { return centre(hex_of(p)); }
  // On-board neighbours.
  std::vector<Hex> neighbours(Hex h) const;
  // The hexes from a to b inclusive, a first (n + 1 hexes for distance n),
  // nudged to one side where the line runs along a hexside (`other_side`:
  // the other one).
  std::vector<Hex> line(Hex a, Hex b, bool other_side = false) const;
  // Its k-th hex (0 to n = hex_distance(a, b)), without building the line.
  static Hex line_at(Hex a, Hex b, int k, int n);
  // move_toward's walk on hexes: from `start` toward `goal`, at most n hexes
  // along line(start, goal), stopping before an impassable or off-board hex
  // and on a hex that halts movement; the last hex reached (`start` if none).
  // `kept`: that line's hexes if the caller keeps them (kept[k] ==
  // line_at(start, goal, k, hex_distance(start, goal))), else empty.
  Hex walk_toward(Hex start, Hex goal, int n, std::span<const Hex> kept = {}) const;
  // Whole hexes a move of `allowance` covers (0 for none, at most 1,000,000).
  int hexes_in(Length allowance) const;

  // Terrain types: index 0 is open ground. add_terrain returns the new index.
  std::size_t add_terrain(HexTerrain t);
  void set_terrain(Hex h, std::size_t type);  // throws std::out_of_range off the board or for a bad type
  const HexTerrain& terrain(Hex h) const {  // off the board: open ground
    return on_board(h) ? types_[terrain_[index(h)]] : types_[0];
  }
  const std::vector<HexTerrain>& terrain_types() const { return types_; }

  // Hexes from h to the edge (0 = on the edge row or column).
  int edge_distance(Hex h, Edge e) const {
    switch (e) {
      case Edge::bottom: return h.r;
      case Edge::top: return rows_ - 1 - h.r;
      case Edge::left: return col_of(h);
      case Edge::right: return cols_ - 1 - col_of(h);
    }
    return 0;
  }
  // edge_distance(n, e) < edge_distance(from, e), without the board: the
  // distance is r, rows - 1 - r, col_of or cols - 1 - col_of by edge, so
  // comparing two is comparing r or col_of the other way round (the board's
  // size cancels), an exact integer identity. Seed 004's retreat search asks
  // it of six neighbours a step (engine/modules/blocks/seed004.cpp).
  static bool nearer_edge(Hex n, Hex from, Edge e) {
    switch (e) {
      case Edge::bottom: return n.r < from.r;
      case Edge::top: return n.r > from.r;
      case Edge::left: return col_of(n) < col_of(from);
      case Edge::right: return col_of(n) > col_of(from);
    }
    return false;  // edge_distance is 0 for both: not nearer
  }

  // Line of sight with units in the way: `units` are the centres of every unit
  // that could stand in between (the two ends' own hexes are ignored).
  bool line_of_sight_hex(Hex a, Hex b, std::span<const Hex> units) const;
  // The same in two parts, for callers that ask again after units move: the
  // steps strictly between a and b (they depend on a and b alone), and the
  // answer along them.
  void sight_path(Hex a, Hex b, std::vector<SightStep>& out) const;
  bool line_of_sight_along(Hex a, Hex b, std::span<const SightStep> path, std::span<const Hex> units) const;
  // The same answer with the units' hexes as a count per hex of the board
  // (`occupancy`, indexed by hex_index) and a list of those off the board.
  bool line_of_sight_along(Hex a, Hex b, std::span<const SightStep> path, std::span<const std::uint32_t> occupancy,
                           std::span<const Hex> off_board) const;
  // Does this hex block sight (terrain, or one of these units' hexes)?
  bool blocks_sight(Hex h, std::span<const Hex> units) const;
  // A hex's place in row-major offset order (0 to cols x rows - 1), or
  // k_off_board.
  static constexpr std::size_t k_off_board = static_cast<std::size_t>(-1);
  std::size_t hex_index(Hex h) const { return on_board(h) ? index(h) : k_off_board; }

  // moves_uphill and movement_cost between the hexes of two points (what
  // the Board forms below compute after hex_of).
  bool moves_uphill(Hex a, Hex b) const;
  Length movement_cost(Hex a, Hex b) const;

  // Board
  bool on_board(Point p) const override { return on_board(hex_of(p)); }
  Length distance(Point a, Point b) const override;
  bool line_of_sight(Point a, Point b) const override;
  bool line_of_sight_past(Point a, Point b, std::span<const Point> units) const override;
  bool units_block_sight() const override { return true; }
  int cover_at(Point p) const override;
  int cover_of(const Footprint& unit, std::optional<Point> viewer) const override;
  Length height_at(Point p) const override;
  bool moves_uphill(Point a, Point b) const override;
  Length movement_cost(Point a, Point b) const override;
  Point move_toward(Point from, Point target, Length allowance) const override;
  Point move_away(Point from, Point threat, Length allowance) const override;
  std::optional<Point> nearest_cover(Point from, Length allowance, int min_cover) const override;

 private:
  static int floor_div2(int r) { return r >= 0 ? r / 2 : -((1 - r) / 2); }
  std::size_t index(Hex h) const {
    return static_cast<std::size_t>(h.r) * static_cast<std::size_t>(cols_) + static_cast<std::size_t>(col_of(h));
  }
  bool blocks(Hex h, std::span<const Hex> units) const;

  int cols_;
  int rows_;
  double s_;  // cm
  std::vector<HexTerrain> types_;
  std::vector<std::uint16_t> terrain_;  // per hex, row-major offset order
  // The places (index) whose terrain gives cover (above 0), ascending: the
  // hexes nearest_cover may choose, kept by set_terrain.
  std::vector<std::uint32_t> covered_;
};

}  // namespace vedette
