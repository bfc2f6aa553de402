#pragma once
// Helpers for the tests of seed 004's functions (tests/test_seed004.cpp,
// tests/test_seed004_fill.cpp): the shipped tables, a die of chosen faces,
// a hex by its column and row, a block unit.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/modules/blocks/seed004.hpp"

namespace seed004test {

using namespace vedette;

// tables/seed004.yaml, loaded once.
inline const Seed004Rules& rules() {
  static const Seed004Ptr r = load_seed004(std::string(VEDETTE_SOURCE_DIR) + "/tables/seed004.yaml");
  return *r;
}

// The shipped rules with a die of these faces (so a test knows what it rolls).
inline Seed004Rules with_die(std::vector<Symbol> faces) {
  Seed004Rules r = rules();
  r.faces = std::move(faces);
  return r;
}

inline Hex at(int col, int row) { return HexBoard::from_offset(col, row); }

inline BlockUnit unit(Arm a, std::uint8_t side, int blocks, Hex h) {
  BlockUnit u;
  u.arm = a;
  u.side = side;
  u.blocks = blocks;
  u.hex = h;
  return u;
}

}  // namespace seed004test
