// The hex board (issue 8): axial coordinates, distances, neighbours and
// hexsides, line of sight hex centre to hex centre, terrain, edges and moves,
// every case computed by hand. Layout: engine/board/hexboard.hpp (pointy-topped
// hexes, row 0 at the bottom edge, odd rows shifted half a hex right).
#include "engine/board/hexboard.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <vector>

namespace t_hexboard {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

Hex at(int col, int row) { return HexBoard::from_offset(col, row); }

// 7 x 5 hexes of 10 cm.
HexBoard board() { return HexBoard(7, 5, Length::cm(10)); }

}  // namespace

TEST_CASE("hex: offset and axial coordinates round-trip") {
  CHECK(at(2, 3) == Hex{1, 3});  // q = col - floor(row / 2)
  CHECK(at(0, 0) == Hex{0, 0});
  CHECK(at(3, 4) == Hex{1, 4});
  CHECK(HexBoard::col_of(Hex{1, 3}) == 2);
  const HexBoard b = board();
  CHECK(b.on_board(at(6, 4)));
  CHECK_FALSE(b.on_board(at(7, 4)));
  CHECK_FALSE(b.on_board(at(0, 5)));
  CHECK_FALSE(b.on_board(Hex{-1, 0}));
  CHECK_FALSE(b.on_board(Hex{-1, 1}));  // offset col -1 in row 1
}

TEST_CASE("hex: distances count hexes, the Board distance is hexes times the hex size") {
  CHECK(hex_distance(Hex{0, 0}, Hex{0, 0}) == 0);
  CHECK(hex_distance(Hex{0, 0}, Hex{3, -1}) == 3);
  CHECK(hex_distance(Hex{0, 0}, Hex{2, 2}) == 4);
  CHECK(hex_distance(Hex{0, 0}, Hex{-2, 3}) == 3);
  CHECK(hex_distance(at(0, 0), at(6, 4)) == 8);  // 4 rows up, and 6 - 2 columns further
  const HexBoard b = board();
  CHECK(b.distance(b.centre(at(0, 0)), b.centre(at(3, 0))).as_cm() == Approx(30.0));
  CHECK(b.distance(b.centre(at(0, 0)), b.centre(at(1, 2))).as_cm() == Approx(20.0));
  CHECK(b.distance(b.centre(at(1, 1)), b.centre(at(1, 1))).as_cm() == 0.0);
}

TEST_CASE("hex: centres, the table they stand for, and points to hexes") {
  const HexBoard b = board();
  const double R = 10.0 / std::sqrt(3.0);  // centre to corner
  CHECK(b.centre(at(0, 0)).x == Approx(5.0));
  CHECK(b.centre(at(0, 0)).y == Approx(R));
  CHECK(b.centre(at(0, 1)).x == Approx(10.0));  // odd rows shifted half a hex right
  CHECK(b.centre(at(0, 1)).y == Approx(R + 5.0 * std::sqrt(3.0)));
  CHECK(b.width().as_cm() == Approx(75.0));
  CHECK(b.depth().as_cm() == Approx(2 * R + 1.5 * R * 4));
  for (int row = 0; row < 5; ++row)
    for (int col = 0; col < 7; ++col) {
      const Hex h = at(col, row);
      CHECK(b.hex_of(b.centre(h)) == h);
      CHECK(b.hex_of(b.centre(h) + Point{4.0, 0.0}) == h);  // inside the hex (inradius 5)
    }
  // Just past the right-hand hexside of (0,0) is (1,0).
  CHECK(b.hex_of(Point{10.01, R}) == at(1, 0));
  CHECK(b.on_board(Point{1.0, R}));
  CHECK_FALSE(b.on_board(Point{-3.0, R}));
}

TEST_CASE("hex: six neighbours across six hexsides, clipped at the board edge") {
  const HexBoard b = board();
  const Hex h = at(3, 2);
  for (HexDir d : k_hex_dirs) {
    const Hex n = neighbour(h, d);
    CHECK(hex_distance(h, n) == 1);
    CHECK(bearing_deg(b.centre(h), b.centre(n)) == Approx(facing_of(d)));
    CHECK(dir_between(h, n) == d);
  }
  CHECK(b.neighbours(h).size() == 6);
  CHECK(b.neighbours(at(0, 0)).size() == 2);  // ne, e
  CHECK(b.neighbours(at(0, 1)).size() == 5);  // all but w (odd row, shifted right)
  CHECK(b.neighbours(at(6, 4)).size() == 3);  // top-right corner, even row: w, sw, se
  CHECK_FALSE(dir_between(h, at(5, 2)).has_value());
}

TEST_CASE("hex: facings point at hexsides") {
  CHECK(facing_of(HexDir::ne) == 30.0);
  CHECK(facing_of(HexDir::e) == 90.0);
  CHECK(facing_of(HexDir::sw) == 210.0);
  CHECK(nearest_dir(0.0) == HexDir::ne);     // a boundary goes clockwise
  CHECK(nearest_dir(100.0) == HexDir::e);
  CHECK(nearest_dir(-90.0) == HexDir::w);
  CHECK(nearest_dir(181.0) == HexDir::sw);
  CHECK(nearest_dir(719.0) == HexDir::nw);
}

TEST_CASE("hex: edges, and each side's distance to its own edge") {
  const HexBoard b = board();
  const Hex h = at(2, 3);
  CHECK(b.edge_distance(h, Edge::bottom) == 3);
  CHECK(b.edge_distance(h, Edge::top) == 1);
  CHECK(b.edge_distance(h, Edge::left) == 2);
  CHECK(b.edge_distance(h, Edge::right) == 4);
}

TEST_CASE("hex: nearer_edge says what comparing two edge distances says, on the board and one hex off it") {
  // seed 004's retreat search (engine/modules/blocks/seed004.cpp) asks
  // HexBoard::nearer_edge instead of two edge_distance calls.
  const HexBoard b = board();
  int nearer = 0, asked = 0;
  for (int row = -1; row <= b.rows(); ++row)
    for (int col = -1; col <= b.cols(); ++col)
      for (HexDir d : k_hex_dirs)
        for (Edge e : {Edge::bottom, Edge::top, Edge::left, Edge::right}) {
          const Hex from = at(col, row), n = neighbour(from, d);
          const bool want = b.edge_distance(n, e) < b.edge_distance(from, e);
          CHECK(HexBoard::nearer_edge(n, from, e) == want);
          nearer += want ? 1 : 0;
          ++asked;
        }
  CHECK(nearer > 0);
  CHECK(nearer < asked);
}

TEST_CASE("hex: line of sight is blocked by terrain and units between, never by the end hexes") {
  HexBoard b = board();
  const auto wood = b.add_terrain({.name = "wood", .halts_movement = true, .blocks_sight = true, .cover = 1});
  const Hex a = at(0, 2), z = at(4, 2);  // along row 2
  REQUIRE(b.line(a, z).size() == 5);
  CHECK(b.line_of_sight(b.centre(a), b.centre(z)));
  b.set_terrain(at(2, 2), wood);
  CHECK_FALSE(b.line_of_sight(b.centre(a), b.centre(z)));
  CHECK(b.line_of_sight(b.centre(a), b.centre(at(2, 2))));  // into the wood: its own hex does not block
  CHECK(b.line_of_sight(b.centre(at(2, 2)), b.centre(z)));  // and out of it
  // A unit between blocks; the two ends' units do not.
  const Point units[] = {b.centre(at(1, 2)), b.centre(a), b.centre(at(3, 2))};
  CHECK_FALSE(b.line_of_sight_past(b.centre(at(0, 2)), b.centre(at(2, 2)), units));
  const Point ends[] = {b.centre(a), b.centre(at(2, 2))};
  CHECK(b.line_of_sight_past(b.centre(a), b.centre(at(2, 2)), ends));
  CHECK(b.units_block_sight());
}

TEST_CASE("hex: a sight line along a hexside is blocked only when both sides block") {
  HexBoard b = board();
  const auto wood = b.add_terrain({.name = "wood", .blocks_sight = true});
  // (0,0) to (1,1): distance 2; the line passes along the hexside between
  // (1,0) and (0,1), its midpoint the corner they share.
  const Hex a{0, 0}, z{1, 1};
  REQUIRE(hex_distance(a, z) == 2);
  b.set_terrain(Hex{1, 0}, wood);
  CHECK(b.line_of_sight(b.centre(a), b.centre(z)));
  b.set_terrain(Hex{1, 0}, 0);
  b.set_terrain(Hex{0, 1}, wood);
  CHECK(b.line_of_sight(b.centre(a), b.centre(z)));
  b.set_terrain(Hex{1, 0}, wood);
  CHECK_FALSE(b.line_of_sight(b.centre(a), b.centre(z)));
  // Units likewise: one side occupied does not block.
  HexBoard open = board();
  const Hex one[] = {Hex{1, 0}};
  const Hex both[] = {Hex{1, 0}, Hex{0, 1}};
  CHECK(open.line_of_sight_hex(a, z, one));
  CHECK_FALSE(open.line_of_sight_hex(a, z, both));
}

TEST_CASE("hex: sight along a kept path (sight_path, line_of_sight_along) is line_of_sight_hex, pair by pair") {
  // Battle keeps each pair's path while neither unit changes hex (issue 6);
  // the answer must not change. Every pair of hexes, with woods and units.
  HexBoard b = board();
  const auto wood = b.add_terrain({.name = "wood", .blocks_sight = true});
  b.set_terrain(at(2, 2), wood);
  b.set_terrain(at(1, 3), wood);
  const Hex units[] = {at(3, 1), at(1, 1), at(4, 3), Hex{1, 0}, Hex{0, 1}};
  std::vector<SightStep> path;
  int blocked = 0, clear = 0;
  for (int c1 = 0; c1 < b.cols(); ++c1)
    for (int r1 = 0; r1 < b.rows(); ++r1)
      for (int c2 = 0; c2 < b.cols(); ++c2)
        for (int r2 = 0; r2 < b.rows(); ++r2) {
          const Hex a = at(c1, r1), z = at(c2, r2);
          b.sight_path(a, z, path);
          CHECK(path.size() == static_cast<std::size_t>(std::max(0, hex_distance(a, z) - 1)));
          const bool along = b.line_of_sight_along(a, z, path, units);
          CHECK(along == b.line_of_sight_hex(a, z, units));
          (along ? clear : blocked) += 1;
        }
  CHECK(blocked > 0);
  CHECK(clear > 0);
}

TEST_CASE("hex: moves go hex by hex: impassable stops before, halting terrain stops in") {
  HexBoard b = board();
  const auto lake = b.add_terrain({.name = "lake", .impassable = true});
  const auto wood = b.add_terrain({.name = "wood", .halts_movement = true, .cover = 1});
  const Point from = b.centre(at(0, 2)), to = b.centre(at(5, 2));
  CHECK(b.move_toward(from, to, Length::cm(25)) == b.centre(at(2, 2)));  // 2 whole hexes
  CHECK(b.move_toward(from, to, Length::cm(100)) == to);                   // never past the target
  CHECK(b.movement_cost(from, to).as_cm() == Approx(50.0));
  b.set_terrain(at(3, 2), wood);
  CHECK(b.move_toward(from, to, Length::cm(100)) == b.centre(at(3, 2)));
  CHECK(std::isinf(b.movement_cost(from, to).as_cm()));               // cannot pass through in one move
  CHECK(b.movement_cost(from, b.centre(at(3, 2))).as_cm() == Approx(30.0));  // but may end in it
  b.set_terrain(at(3, 2), lake);
  CHECK(b.move_toward(from, to, Length::cm(100)) == b.centre(at(2, 2)));
  CHECK(std::isinf(b.movement_cost(from, to).as_cm()));
  // Toward a point far beyond the bottom edge: stops on the edge row.
  const Point home{b.centre(at(4, 4)).x, -100.0};
  CHECK(b.hex_of(b.move_toward(b.centre(at(4, 4)), home, Length::cm(200))).r == 0);
  CHECK(b.move_toward(from, to, Length::cm(5)) == from);  // less than a hex: no move
}

TEST_CASE("hex: moving away goes straight away from the threat and stops at the edge") {
  const HexBoard b = board();
  const Point from = b.centre(at(3, 2));
  CHECK(b.move_away(from, b.centre(at(2, 2)), Length::cm(20)) == b.centre(at(5, 2)));
  CHECK(b.move_away(from, b.centre(at(2, 2)), Length::cm(100)) == b.centre(at(6, 2)));
  CHECK(b.move_away(from, from, Length::cm(20)) == from);
  // Threat straight below, two rows down: away is straight up, zig-zagging
  // ne, nw along the line.
  const Point up = b.move_away(b.centre(at(3, 2)), b.centre(at(3, 0)), Length::cm(20));
  CHECK(b.hex_of(up) == at(3, 4));
  // Threat to the south-west: away is north-east, hexside by hexside.
  const Hex h = at(3, 2);
  const Point p = b.move_away(b.centre(h), b.centre(neighbour(h, HexDir::sw)), Length::cm(20));
  CHECK(b.hex_of(p) == neighbour(neighbour(h, HexDir::ne), HexDir::ne));
}

TEST_CASE("hex: cover, height and uphill come from the hex's terrain") {
  HexBoard b = board();
  const auto hill = b.add_terrain({.name = "hill", .blocks_sight = true, .cover = 1, .height = 1});
  const auto wood = b.add_terrain({.name = "wood", .halts_movement = true, .cover = 2});
  b.set_terrain(at(3, 2), hill);
  b.set_terrain(at(1, 4), wood);
  CHECK(b.cover_at(b.centre(at(3, 2))) == 1);
  CHECK(b.cover_of(Footprint{b.centre(at(1, 4)), 0.0, Length::cm(5), Length::cm(5)}, std::nullopt) == 2);
  CHECK(b.height_at(b.centre(at(3, 2))).as_cm() > 0);
  CHECK(b.moves_uphill(b.centre(at(1, 2)), b.centre(at(4, 2))));
  CHECK_FALSE(b.moves_uphill(b.centre(at(3, 2)), b.centre(at(5, 2))));
  // Nearest cover: the hill and the wood are both 2 hexes away; a tie goes
  // to the lower row (the hill).
  const Point from = b.centre(at(1, 2));
  CHECK(b.nearest_cover(from, Length::cm(20), 1) == b.centre(at(3, 2)));
  CHECK_FALSE(b.nearest_cover(from, Length::cm(10), 1).has_value());
  CHECK(b.nearest_cover(b.centre(at(3, 2)), Length::cm(10), 1) == b.centre(at(3, 2)));
  CHECK(b.nearest_cover(from, Length::cm(40), 2) == b.centre(at(1, 4)));
}

TEST_CASE("hex: nearest cover follows terrain set again and matches a search of every hex") {
  // HexBoard keeps the hexes with cover for nearest_cover (engine/board/hexboard.hpp,
  // covered_); the answer must be the first hex in row-major order at the least
  // distance, among those with the cover asked whose path costs no more than
  // the allowance, as a search of every hex finds it.
  HexBoard b = board();
  const auto hill = b.add_terrain({.name = "hill", .cover = 1, .height = 1});
  const auto wood = b.add_terrain({.name = "wood", .halts_movement = true, .cover = 2});
  const auto rock = b.add_terrain({.name = "rock", .impassable = true});
  const Point from = b.centre(at(1, 2));
  b.set_terrain(at(3, 2), wood);
  CHECK(b.nearest_cover(from, Length::cm(20), 1) == b.centre(at(3, 2)));
  b.set_terrain(at(3, 2), 0);  // cleared: no cover left
  CHECK_FALSE(b.nearest_cover(from, Length::cm(20), 1).has_value());
  b.set_terrain(at(3, 2), hill);
  b.set_terrain(at(3, 2), hill);  // set twice: listed once
  CHECK(b.nearest_cover(from, Length::cm(20), 1) == b.centre(at(3, 2)));
  CHECK_FALSE(b.nearest_cover(from, Length::cm(20), 2).has_value());
  // A pattern of cover and obstacles, every start, allowance and cover asked.
  for (int row = 0; row < b.rows(); ++row)
    for (int col = 0; col < b.cols(); ++col) {
      const int k = (col * 3 + row * 5) % 7;
      b.set_terrain(at(col, row), k == 0 ? hill : k == 3 ? wood : k == 5 ? rock : 0);
    }
  int found = 0;
  for (int row = 0; row < b.rows(); ++row)
    for (int col = 0; col < b.cols(); ++col)
      for (int hexes = 0; hexes <= 4; ++hexes)
        for (int need = 0; need <= 3; ++need) {
          const Hex start = at(col, row);
          const Length allowance = Length::cm(10.0 * hexes);
          std::optional<Point> want;
          if (b.terrain(start).cover >= std::max(1, need)) {
            want = b.centre(start);
          } else {
            int best_d = 0;
            for (int r = 0; r < b.rows(); ++r)
              for (int c = 0; c < b.cols(); ++c) {
                const Hex h = at(c, r);
                const int d = hex_distance(start, h);
                if (b.terrain(h).cover < std::max(1, need) || d == 0 || d > hexes || (want && d >= best_d)) continue;
                if (b.movement_cost(b.centre(start), b.centre(h)) > allowance + Length::cm(1e-9)) continue;
                want = b.centre(h);
                best_d = d;
              }
          }
          const std::optional<Point> got = b.nearest_cover(b.centre(start), allowance, need);
          REQUIRE(got.has_value() == want.has_value());
          if (want) {
            CHECK(*got == *want);
            ++found;
          }
        }
  CHECK(found > 100);
}

TEST_CASE("hex: bad boards and terrain are refused") {
  CHECK_THROWS_AS(HexBoard(0, 3, Length::cm(10)), std::invalid_argument);
  CHECK_THROWS_AS(HexBoard(3, 3, Length::cm(0)), std::invalid_argument);
  HexBoard b = board();
  CHECK_THROWS_AS(b.set_terrain(at(9, 0), 0), std::out_of_range);
  CHECK_THROWS_AS(b.set_terrain(at(0, 0), 5), std::out_of_range);
}

}  // namespace t_hexboard
