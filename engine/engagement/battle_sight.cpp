// Sight on a hex board in the world's epoch: the count of units per place,
// each ordered pair of places' line of sight summed up in bits, and the
// hex lines (engine/engagement/battle.hpp, the blocks on the epoch and the
// tables per pair of places). Split from battle.cpp.
#include "engine/engagement/battle.hpp"

#include <algorithm>
#include <bit>

namespace vedette {

// The epoch's count of active units per board place, and those off the
// board, for sees_in_epoch_slow's steps.
void Battle::build_occupancy() const {
  occupancy_epoch_ = world_epoch_;
  for (std::size_t i : occupancy_marks_) occupancy_[i] = 0;
  occupancy_marks_.clear();
  occupancy_off_.clear();
  for (std::size_t k = 0; k < units_.size(); ++k) {
    if (world_key_[3 * k + 2] == 0) continue;
    const std::size_t i = world_place_[k];
    if (i == HexBoard::k_off_board) {
      occupancy_off_.push_back(world_hex_[k]);
      continue;
    }
    if (occupancy_[i]++ == 0) occupancy_marks_.push_back(i);
  }
}

// sees_in_epoch_slow's answer where its line is built and summed up in bits
// (a board of at most 128 hexes, both ends on it, no step that needs units
// on both sides): the same expression, without the rest of its cases.
bool Battle::sees_in_epoch_miss(std::size_t a, std::size_t b) const {
  const std::size_t hexes = occupancy_.size();
  if (!sight_lines_.empty() && hexes <= 128) {  // a hex board (sight_lines_ is only ever built on one)
    const std::size_t ia = world_place_[a], ib = world_place_[b];
    if (ia != HexBoard::k_off_board && ib != HexBoard::k_off_board) {
      const SightLine& line = sight_lines_[ia * hexes + ib];
      if (line.state == 1 && !line.pairs) {
        bool clear = !line.terrain_blocked && (occ_bits_[0] & line.mask[0]) == 0 && (occ_bits_[1] & line.mask[1]) == 0;
        const auto occ = [this](std::uint8_t p) { return (occ_bits_[p >> 6] >> (p & 63) & 1) != 0; };
        for (std::uint32_t k = 0; k < line.pair_len && clear; ++k) {
          const SightPair& q = sight_pairs_[line.pair_offset + k];
          clear = !(occ(q.p1) && occ(q.p2));
        }
        PairMemo& m = memo_[a * units_.size() + b];
        m.sees = clear;
        m.sees_world = world_epoch_;
        m.sees_valid = true;
        return clear;
      }
    }
  }
  return sees_in_epoch_slow(a, b);
}

// The cells of every ordered pair of board places' line together: the
// sum of hex_distance + 1 (hex_line's cells; HexBoard::sight_path's steps
// are two fewer). The tables learned per pair of places (hex_line_cells_,
// sight_cells_, sight_pairs_) reserve it when their first line is made, so
// a pair first met late in a run does not allocate (tests/no_alloc): the
// reserve is address space, its pages touched only as lines are written.
static std::size_t line_cells_bound(const HexBoard& hb) {
  std::size_t cells = 0;
  for (int r1 = 0; r1 < hb.rows(); ++r1)
    for (int c1 = 0; c1 < hb.cols(); ++c1)
      for (int r2 = 0; r2 < hb.rows(); ++r2)
        for (int c2 = 0; c2 < hb.cols(); ++c2)
          cells += static_cast<std::size_t>(hex_distance(HexBoard::from_offset(c1, r1), HexBoard::from_offset(c2, r2))) + 1;
  return cells;
}

__attribute__((noinline)) bool Battle::sees_in_epoch_slow(std::size_t a, std::size_t b) const {
  PairMemo& m = memo_[a * units_.size() + b];
  // Units in between block the view (seed 004's line of sight); the two
  // ends' own hexes never do.
  if (hex_) {
    if (occupancy_epoch_ != world_epoch_) build_occupancy();
    const Hex ha = world_hex_[a], hb = world_hex_[b];
    const std::size_t hexes = occupancy_.size();
    const std::size_t ia = world_place_[a], ib = world_place_[b];  // hex_index of ha, hb
    if (hexes <= k_sight_table_hexes && ia != HexBoard::k_off_board && ib != HexBoard::k_off_board) {
      if (sight_lines_.empty()) {
        sight_lines_.resize(hexes * hexes);
        const std::size_t bound = line_cells_bound(*hex_);
        sight_cells_.reserve(bound);
        sight_pairs_.reserve(bound);
      }
      SightLine& line = sight_lines_[ia * hexes + ib];
      if (line.state == 0) {
        // Build it from HexBoard's own steps (sight_path).
        hex_->sight_path(ha, hb, sight_scratch_);
        line.offset = static_cast<std::uint32_t>(sight_cells_.size());
        line.len = static_cast<std::uint32_t>(sight_scratch_.size());
        line.state = 1;
        for (const SightStep& st : sight_scratch_) {
          SightCell cell;
          cell.same = st.h1 == st.h2;
          const bool end1 = st.h1 == ha || st.h1 == hb, end2 = st.h2 == ha || st.h2 == hb;
          const std::size_t p1 = hex_->hex_index(st.h1), p2 = hex_->hex_index(st.h2);
          if ((!end1 && p1 == HexBoard::k_off_board) || (!end2 && p2 == HexBoard::k_off_board)) line.state = 2;
          cell.i1 = end1 ? -1 : static_cast<std::int32_t>(p1);
          cell.i2 = end2 ? -1 : static_cast<std::int32_t>(p2);
          cell.t1 = !end1 && hex_->terrain(st.h1).blocks_sight;
          cell.t2 = !end2 && hex_->terrain(st.h2).blocks_sight;
          sight_cells_.push_back(cell);
          // The step blocks if (same) its first side does, else if both do;
          // a side blocks by terrain or by a unit in its place (not at an end).
          const bool u1 = cell.i1 >= 0, u2 = cell.i2 >= 0;
          const auto mark = [&line](std::int32_t place) {
            if (place >= 128) line.pairs = true;  // beyond the bits: walk the steps
            else line.mask[place >> 6] |= std::uint64_t{1} << (place & 63);
          };
          if (cell.same) {
            if (cell.t1) line.terrain_blocked = true;
            else if (u1) mark(cell.i1);
          } else if (cell.t1 && cell.t2) {
            line.terrain_blocked = true;
          } else if (cell.t1) {
            if (u2) mark(cell.i2);
          } else if (cell.t2) {
            if (u1) mark(cell.i1);
          } else if (u1 && u2) {
            if (cell.i1 < 128 && cell.i2 < 128) {
              if (line.pair_len == 0) line.pair_offset = static_cast<std::uint32_t>(sight_pairs_.size());
              sight_pairs_.push_back(SightPair{static_cast<std::uint8_t>(cell.i1), static_cast<std::uint8_t>(cell.i2)});
              ++line.pair_len;
            } else {
              line.pairs = true;
            }
          }
        }
        if (line.state == 2) sight_cells_.resize(line.offset);
      }
      if (line.state == 1 && hexes <= 128 && !line.pairs) {
        bool clear = !line.terrain_blocked && (occ_bits_[0] & line.mask[0]) == 0 && (occ_bits_[1] & line.mask[1]) == 0;
        const auto occ = [this](std::uint8_t p) { return (occ_bits_[p >> 6] >> (p & 63) & 1) != 0; };
        for (std::uint32_t k = 0; k < line.pair_len && clear; ++k) {
          const SightPair& q = sight_pairs_[line.pair_offset + k];
          clear = !(occ(q.p1) && occ(q.p2));
        }
        m.sees = clear;
        m.sees_world = world_epoch_;
        m.sees_valid = true;
        return m.sees;
      }
      if (line.state == 1) {
        bool clear = true;
        for (std::uint32_t k = 0; k < line.len && clear; ++k) {
          const SightCell& s = sight_cells_[line.offset + k];
          const bool b1 = s.t1 || (s.i1 >= 0 && occupancy_[static_cast<std::size_t>(s.i1)] != 0);
          const bool b2 = s.t2 || (s.i2 >= 0 && occupancy_[static_cast<std::size_t>(s.i2)] != 0);
          clear = !(s.same ? b1 : (b1 && b2));
        }
        m.sees = clear;
        m.sees_world = world_epoch_;
        m.sees_valid = true;
        return m.sees;
      }
    }
    if (!m.path_valid || !(m.path_a == ha) || !(m.path_b == hb)) {
      hex_->sight_path(ha, hb, m.path);
      m.path_a = ha;
      m.path_b = hb;
      m.path_valid = true;
    }
    m.sees = hex_->line_of_sight_along(ha, hb, m.path, occupancy_, occupancy_off_);
  } else {
    sight_units_.clear();
    for (std::size_t k = 0; k < units_.size(); ++k)
      if (k != a && k != b && units_[k].active()) sight_units_.push_back(units_[k].pos);
    m.sees = board_->line_of_sight_past(units_[a].pos, units_[b].pos, sight_units_);
  }
  m.sees_world = world_epoch_;
  m.sees_valid = true;
  return m.sees;
}

std::span<const Hex> Battle::hex_line(Hex a, Hex b) const {
  if (!hex_) return {};
  const std::size_t hexes = occupancy_.size();
  if (hexes > k_sight_table_hexes) return {};
  const std::size_t ia = hex_->hex_index(a), ib = hex_->hex_index(b);
  if (ia == HexBoard::k_off_board || ib == HexBoard::k_off_board) return {};
  if (hex_lines_.empty()) {
    hex_lines_.resize(hexes * hexes);
    hex_line_cells_.reserve(line_cells_bound(*hex_));
  }
  HexLine& l = hex_lines_[ia * hexes + ib];
  if (l.len == 0) {
    const int n = hex_distance(a, b);
    l.offset = static_cast<std::uint32_t>(hex_line_cells_.size());
    for (int k = 0; k <= n; ++k) hex_line_cells_.push_back(HexBoard::line_at(a, b, k, n));
    l.len = static_cast<std::uint32_t>(n + 1);
  }
  return {hex_line_cells_.data() + l.offset, l.len};
}

}  // namespace vedette
