// Seed 004's results filled into a kept one (engine/modules/blocks/seed004.hpp:
// the forms of retreat, resolve_retire_and_reform and
// resolve_cavalry_vs_square that take `out`, which the engagement calls so
// that nothing allocates once warmed, issue 32) are the results the forms
// that return a fresh one give, whatever the kept one held before: each
// trial fills the same `out` the previous trial left, and every field is
// compared (the structs' defaulted operator==, so a field added later and
// not reset fails here).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "engine/core/dice.hpp"
#include "engine/modules/blocks/seed004.hpp"
#include "seed004_test_util.hpp"

namespace t_seed004_fill {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

using seed004test::rules;
using seed004test::unit;

namespace {

// Two dice on the same stream: the fresh form and the filling form roll the same faces.
struct TwinDice {
  explicit TwinDice(std::uint64_t index) : ra(make_stream(11, index, Subsystem::melee)), rb(make_stream(11, index, Subsystem::melee)) {}
  Rng ra, rb;
  Dice a{ra}, b{rb};
};

}  // namespace

TEST_CASE("seed004 fill: a kept retreat refilled equals a fresh one", "[seed004][alloc]") {
  const HexBoard b(7, 7, Length::cm(10));
  Retreat out;
  out.path = {Hex{9, 9}, Hex{8, 8}, Hex{7, 7}};
  out.blocks_lost = 5;
  int compared = 0, moved = 0, lost = 0;
  for (int col = 0; col < 7; ++col)
    for (int row = 0; row < 7; ++row)
      for (int hexes = 0; hexes <= 4; ++hexes)
        for (const bool can_move : {true, false})
          for (const Edge e : {Edge::bottom, Edge::top, Edge::left}) {
            const Hex from = HexBoard::from_offset(col, row);
            const std::vector<Hex> occupied = {HexBoard::from_offset((col + 1) % 7, row), HexBoard::from_offset(col, (row + 2) % 7)};
            const Retreat fresh = retreat(b, from, e, hexes, can_move, occupied);
            retreat(b, from, e, hexes, can_move, occupied, out);
            CHECK(out == fresh);
            ++compared;
            moved += fresh.path.empty() ? 0 : 1;
            lost += fresh.blocks_lost > 0 ? 1 : 0;
          }
  CHECK(compared == 7 * 7 * 5 * 2 * 3);
  CHECK(moved > 100);  // both kinds of result were met
  CHECK(lost > 100);
}

TEST_CASE("seed004 fill: a kept retire and reform refilled equals a fresh one", "[seed004][alloc]") {
  const Seed004Rules& r = rules();
  const HexBoard b(6, 6, Length::cm(10));
  RetireResult out;
  int eliminated = 0, retired = 0;
  for (std::uint64_t trial = 0; trial < 400; ++trial) {
    TwinDice d(trial);
    const int blocks = 1 + static_cast<int>(trial % 4);
    const Hex at = HexBoard::from_offset(static_cast<int>(trial % 6), static_cast<int>(trial / 6 % 6));
    const int inf = 1 + static_cast<int>(trial % 5), art = static_cast<int>(trial % 3);
    const std::vector<Hex> occupied = {HexBoard::from_offset(static_cast<int>((trial + 1) % 6), static_cast<int>(trial / 6 % 6))};
    BlockUnit cav_a = unit(Arm::cavalry, 0, blocks, at), cav_b = cav_a;
    const RetireResult fresh = resolve_retire_and_reform(r, b, cav_a, inf, art, Edge::bottom, occupied, d.a, trial % 3);
    resolve_retire_and_reform(r, b, cav_b, inf, art, Edge::bottom, occupied, d.b, out, trial % 3);
    CHECK(out == fresh);
    CHECK(cav_b.blocks == cav_a.blocks);
    CHECK(cav_b.hex == cav_a.hex);
    eliminated += fresh.eliminated ? 1 : 0;
    retired += fresh.path.empty() ? 0 : 1;
  }
  CHECK(eliminated > 10);
  CHECK(retired > 10);
}

TEST_CASE("seed004 fill: a kept cavalry-against-square melee refilled equals a fresh one", "[seed004][alloc]") {
  const Seed004Rules& r = rules();
  const HexBoard b(6, 6, Length::cm(10));
  SquareMelee out;
  int bounced = 0, attacked = 0, square_lost = 0;
  for (std::uint64_t trial = 0; trial < 600; ++trial) {
    TwinDice d(trial);
    const int col = 1 + static_cast<int>(trial % 4), row = 2 + static_cast<int>(trial / 4 % 3);
    BlockUnit cav_a = unit(Arm::cavalry, 0, 1 + static_cast<int>(trial % 4), HexBoard::from_offset(col, row));
    BlockUnit sq_a = unit(Arm::infantry, 1, 1 + static_cast<int>(trial / 3 % 4), HexBoard::from_offset(col, row - 1));
    sq_a.in_square = true;
    BlockUnit cav_b = cav_a, sq_b = sq_a;
    const int art = static_cast<int>(trial % 3);
    const SquareMelee fresh = resolve_cavalry_vs_square(r, b, cav_a, Edge::top, sq_a, Edge::bottom, art, {}, d.a);
    resolve_cavalry_vs_square(r, b, cav_b, Edge::top, sq_b, Edge::bottom, art, {}, d.b, out);
    CHECK(out == fresh);
    CHECK(cav_b.blocks == cav_a.blocks);
    CHECK(cav_b.hex == cav_a.hex);
    CHECK(sq_b.blocks == sq_a.blocks);
    bounced += fresh.bounced ? 1 : 0;
    attacked += fresh.cavalry_attacks ? 1 : 0;
    square_lost += fresh.square_hits_taken > 0 ? 1 : 0;
  }
  CHECK(bounced > 10);
  CHECK(attacked > 10);
  CHECK(square_lost > 10);
}

}  // namespace t_seed004_fill
