// Movement on a hex board (issue 8): go() (engine/engagement/engagement_movement.cpp)
// moves hex by hex on any hex board through hex_go, whose walk over bits of
// places is hex_walk_bits. Split from engagement_blocks.cpp.
#include <algorithm>
#include <cmath>

#include "engine/engagement/engagement.hpp"

namespace vedette {

// The board's own move (HexBoard::move_toward: hex by hex along the hex
// line, a hex per hex size of allowance, stopping before an impassable hex
// or the edge, in a hex that halts movement), then cut short before a hex
// holding a unit and (choice) on entering a hex adjacent to an enemy
// (contact). Facing is free on a hex board.
double Engagement::hex_go(std::size_t i, Point dest, Length allowance) {
  const HexBoard& hb = *b_.hex();
  Unit& u = b_.units_[i];
  const double s = hb.hex_size().as_cm();
  // The board's part of the move (Battle::go_way: no move at all when the
  // allowance holds no hex or dest is here; else the facing toward dest, as
  // far as the move goes, and HexBoard::move_toward's walk from the unit's
  // hex), kept by the bits of the two points and the allowance.
  const Battle::GoWay& way = b_.go_way(u.pos, dest, allowance);
  if (!way.moves) return 0;
  const int n = way.n;
  u.facing = way.bearing;
  const Hex from = b_.unit_hex(i);
  const Hex goal = way.goal;
  if (goal == from) return 0;
  const int len = hex_distance(from, goal);
  const std::span<const Hex> line = b_.hex_line(from, goal);
  Hex cur = from;
  int steps = 0;
  // On a board of at most 128 hexes with every unit on it, the walk on bits.
  const bool walked = !b_.neighbour_bits_.empty() && !line.empty() && hex_walk_bits(i, line, len, n, cur, steps);
  if (!walked) {
    // The other units' hexes (kept hexes), looked up once for the walk.
    go_others_.clear();  // within the capacity reserved at construction
    for (std::size_t j = 0; j < b_.units_.size(); ++j)
      if (j != i && b_.units_[j].active()) go_others_.push_back(GoOther{b_.unit_hex(j), b_.enemies(i, j)});
    // Along line(from, goal), hex by hex: stop before a unit, on a halting hex
    // or in contact with an enemy.
    for (int k = 1; k <= len && steps < n; ++k) {
      const Hex h = line.empty() ? HexBoard::line_at(from, goal, k, len) : line[static_cast<std::size_t>(k)];
      if (!hb.on_board(h) || hb.terrain(h).impassable) break;
      bool taken = false, contact = false;
      for (const GoOther& o : go_others_) {
        if (o.hex == h) taken = true;
        else if (o.enemy && hex_distance(o.hex, h) == 1) contact = true;
      }
      if (taken) break;
      cur = h;
      ++steps;
      if (hb.terrain(h).halts_movement || contact) break;
    }
  }
  if (steps == 0) return 0;
  const std::uint64_t before = b_.changes_;  // for place_bits_follow
  b_.place_on_hex(i, cur);  // u.pos = hb.centre(cur), its hex kept
  b_.changed();
  place_bits_follow(i, hb.hex_index(from), true, before);  // from: its place before the move
  return steps * s;
}

// hex_go's walk where the board has at most 128 hexes and every other active
// unit stands on it: the units' places as bits (taken), and for contact
// (hex_distance 1 is being a neighbour) the step's neighbours against the
// enemies' places, so each step is two bit tests instead of a loop over the
// units. The same stops in the same order; false (nothing walked) when a
// unit is off the board, for hex_go's own loop.
bool Engagement::hex_walk_bits(std::size_t i, std::span<const Hex> line, int len, int n, Hex& cur, int& steps) const {
  const HexBoard& hb = *b_.hex();
  std::uint64_t taken[2]{}, enemy[2]{};
  if (b_.sides01_) {
    // The kept bits (place_bits). Taken: every active unit's place but the
    // mover's own, unless another unit shares it. Enemies are the other
    // side's units (Battle::enemies: sides differ). A mover off the board
    // never gets here (hex_line is empty for it), and where another unit
    // is off the board hex_go's own loop walks, as before.
    const PlaceBits* pb = place_bits();
    if (pb == nullptr) return false;
    const std::size_t pi = b_.unit_place(i);
    const std::uint64_t own[2] = {pi < 64 ? std::uint64_t{1} << pi : 0, pi >= 64 ? std::uint64_t{1} << (pi & 63) : 0};
    const std::size_t s = b_.units_[i].side;
    for (int w = 0; w < 2; ++w) {
      taken[w] = (pb->side[0][w] | pb->side[1][w]) & ~(own[w] & ~pb->shared[w]);
      enemy[w] = pb->side[1 - s][w];
    }
  } else {
    for (std::size_t j = 0; j < b_.units_.size(); ++j) {
      if (j == i || !b_.units_[j].active()) continue;
      const std::size_t p = b_.unit_place(j);
      if (p == HexBoard::k_off_board) return false;
      taken[p >> 6] |= std::uint64_t{1} << (p & 63);
      if (b_.enemies(i, j)) enemy[p >> 6] |= std::uint64_t{1} << (p & 63);
    }
  }
  for (int k = 1; k <= len && steps < n; ++k) {
    const Hex h = line[static_cast<std::size_t>(k)];
    if (!hb.on_board(h)) break;
    const HexTerrain& t = hb.terrain(h);
    if (t.impassable) break;
    const std::size_t p = hb.hex_index(h);
    if ((taken[p >> 6] >> (p & 63) & 1) != 0) break;
    cur = h;
    ++steps;
    // An enemy on a neighbour of h (neighbour_bits_ is symmetric: hex
    // adjacency is, and it lists every on-board neighbour of each place).
    const auto& near = b_.neighbour_bits_[p];
    if (t.halts_movement || ((near[0] & enemy[0]) | (near[1] & enemy[1])) != 0) break;
  }
  return true;
}

Engagement::PlaceBits Engagement::place_bits_fresh() const {
  PlaceBits pb;
  pb.at = b_.changes_;
  pb.on_board = true;
  for (std::size_t j = 0; j < b_.units_.size(); ++j) {
    if (!b_.units_[j].active()) continue;
    const std::size_t p = b_.unit_place(j);
    if (p == HexBoard::k_off_board) {
      pb.on_board = false;
      break;
    }
    const std::uint64_t bit = std::uint64_t{1} << (p & 63);
    const std::size_t w = p >> 6;
    if (((pb.side[0][w] | pb.side[1][w]) & bit) != 0) pb.shared[w] |= bit;
    pb.side[b_.units_[j].side][w] |= bit;
  }
  return pb;
}

const Engagement::PlaceBits* Engagement::place_bits() const {
  if (b_.neighbour_bits_.empty() || !b_.sides01_) return nullptr;
  if (place_bits_.at != b_.changes_) place_bits_ = place_bits_fresh();
  return place_bits_.on_board ? &place_bits_ : nullptr;
}

// After changes to unit i alone since Battle::changes_ was `before` (its
// place, its being on the table, its figures or formation), where the kept
// bits held then: its bit moved (or dropped when it left the table), so
// that the bits are place_bits_fresh's again, their count the battle's.
// Where the unit's old place was shared with another, or the unit was not
// on the table before or stands off the board now, they are left to be
// made again when asked. `p0` is the unit's place before the changes.
void Engagement::place_bits_follow(std::size_t i, std::size_t p0, bool was_active, std::uint64_t before) {
  PlaceBits& pb = place_bits_;
  if (pb.at != before || !pb.on_board || !was_active || p0 == HexBoard::k_off_board) return;
  const std::uint64_t b0 = std::uint64_t{1} << (p0 & 63);
  if ((pb.shared[p0 >> 6] & b0) != 0) return;
  const Unit& u = b_.units_[i];
  std::size_t p1 = HexBoard::k_off_board;
  if (u.active()) {
    p1 = b_.unit_place(i);
    if (p1 == HexBoard::k_off_board) return;
  }
  pb.side[u.side][p0 >> 6] &= ~b0;
  if (p1 != HexBoard::k_off_board) {
    const std::uint64_t b1 = std::uint64_t{1} << (p1 & 63);
    if (((pb.side[0][p1 >> 6] | pb.side[1][p1 >> 6]) & b1) != 0) pb.shared[p1 >> 6] |= b1;
    pb.side[u.side][p1 >> 6] |= b1;
  }
  pb.at = b_.changes_;
}

bool Engagement::place_bits_match_fresh() const {
  if (b_.neighbour_bits_.empty() || !b_.sides01_ || place_bits_.at != b_.changes_) return true;  // not kept for now
  const PlaceBits f = place_bits_fresh();
  if (f.on_board != place_bits_.on_board) return false;
  if (!f.on_board) return true;  // the bits are not read
  for (int w = 0; w < 2; ++w)
    if (f.side[0][w] != place_bits_.side[0][w] || f.side[1][w] != place_bits_.side[1][w] || f.shared[w] != place_bits_.shared[w])
      return false;
  return true;
}

}  // namespace vedette
