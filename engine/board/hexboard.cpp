// HexBoard: hexes in axial coordinates behind the Board interface
// (conventions in engine/board/hexboard.hpp).
#include "engine/board/hexboard.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace vedette {

namespace {

constexpr double kSqrt3 = 1.7320508075688772;

constexpr std::array<Hex, 6> kDelta{Hex{0, 1}, Hex{1, 0}, Hex{1, -1}, Hex{0, -1}, Hex{-1, 0}, Hex{-1, 1}};

// Rounds fractional cube coordinates to the hex containing them.
Hex cube_round(double q, double r) {
  const double s = -q - r;
  double rq = round_half_away(q), rr = round_half_away(r);
  const double rs = round_half_away(s);
  const double dq = std::abs(rq - q), dr = std::abs(rr - r), ds = std::abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return {static_cast<int>(rq), static_cast<int>(rr)};
}

// The hex at fraction t along a -> b, nudged by `sign` (so a line along a
// hexside falls consistently to one side).
Hex lerp_hex(Hex a, Hex b, double t, double sign) {
  const double eq = 1e-6 * sign, er = 2e-6 * sign;
  const double q = a.q + eq + (b.q - a.q) * t;
  const double r = a.r + er + (b.r - a.r) * t;
  return cube_round(q, r);
}

}  // namespace

Hex neighbour(Hex h, HexDir d) {
  const Hex k = kDelta[static_cast<std::size_t>(d)];
  return {h.q + k.q, h.r + k.r};
}

double facing_of(HexDir d) { return 30.0 + 60.0 * static_cast<double>(static_cast<int>(d)); }

HexDir nearest_dir(double facing_deg) {
  double f = std::fmod(facing_deg, 360.0);
  if (f < 0) f += 360.0;
  // Sectors of 60 degrees centred on 30, 90, ...; a boundary (0, 60, ...)
  // goes clockwise.
  const int k = static_cast<int>(std::floor(f / 60.0 + 1e-12)) % 6;
  return static_cast<HexDir>(k);
}

std::optional<HexDir> dir_between(Hex a, Hex b) {
  for (HexDir d : k_hex_dirs)
    if (neighbour(a, d) == b) return d;
  return std::nullopt;
}

HexBoard::HexBoard(int cols, int rows, Length hex) : cols_(cols), rows_(rows), s_(hex.as_cm()) {
  if (cols < 1 || rows < 1) throw std::invalid_argument("hex board: at least one column and one row");
  if (!std::isfinite(s_) || !(s_ > 0)) throw std::invalid_argument("hex board: the hex size must be positive");
  if (static_cast<long long>(cols) * rows > 1'000'000) throw std::invalid_argument("hex board: too many hexes");
  types_.push_back(HexTerrain{});
  terrain_.assign(static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows), 0);
}

Length HexBoard::width() const { return Length::cm(s_ * (cols_ + (rows_ > 1 ? 0.5 : 0.0))); }
Length HexBoard::depth() const {
  const double radius = s_ / kSqrt3;
  return Length::cm(2.0 * radius + 1.5 * radius * (rows_ - 1));
}

Point HexBoard::centre(Hex h) const {
  const double radius = s_ / kSqrt3;
  return {s_ / 2.0 + s_ * (h.q + h.r / 2.0), radius + s_ * kSqrt3 / 2.0 * h.r};
}

Hex HexBoard::hex_of(Point p) const {
  const double radius = s_ / kSqrt3;
  const double r = (p.y - radius) / (s_ * kSqrt3 / 2.0);
  const double q = (p.x - s_ / 2.0) / s_ - r / 2.0;
  return cube_round(q, r);
}

std::vector<Hex> HexBoard::neighbours(Hex h) const {
  std::vector<Hex> out;
  for (HexDir d : k_hex_dirs) {
    const Hex n = neighbour(h, d);
    if (on_board(n)) out.push_back(n);
  }
  return out;
}

std::vector<Hex> HexBoard::line(Hex a, Hex b, bool other_side) const {
  const int n = hex_distance(a, b);
  std::vector<Hex> out;
  out.reserve(static_cast<std::size_t>(n) + 1);
  out.push_back(a);
  for (int i = 1; i < n; ++i) out.push_back(lerp_hex(a, b, static_cast<double>(i) / n, other_side ? -1.0 : 1.0));
  if (n > 0) out.push_back(b);
  return out;
}

Hex HexBoard::line_at(Hex a, Hex b, int k, int n) {
  if (k == 0) return a;
  if (k == n) return b;
  return lerp_hex(a, b, static_cast<double>(k) / n, 1.0);
}

std::size_t HexBoard::add_terrain(HexTerrain t) {
  if (types_.size() >= 65535) throw std::invalid_argument("hex board: too many terrain types");
  types_.push_back(std::move(t));
  return types_.size() - 1;
}

void HexBoard::set_terrain(Hex h, std::size_t type) {
  if (!on_board(h)) throw std::out_of_range("hex board: the hex is off the board");
  if (type >= types_.size()) throw std::out_of_range("hex board: no such terrain type");
  terrain_[index(h)] = static_cast<std::uint16_t>(type);
  const auto place = static_cast<std::uint32_t>(index(h));
  const auto it = std::lower_bound(covered_.begin(), covered_.end(), place);
  const bool listed = it != covered_.end() && *it == place;
  if (types_[type].cover > 0 && !listed) covered_.insert(it, place);
  else if (types_[type].cover <= 0 && listed) covered_.erase(it);
}

namespace {

// Is one step of a sight line blocked? Where the line runs along a hexside
// (the two nudged lines fall in different hexes) only when both sides
// block; the two end hexes never block.
template <class Blocks>
bool step_blocked(Hex a, Hex b, SightStep st, Blocks&& blocks) {
  const bool b1 = !(st.h1 == a) && !(st.h1 == b) && blocks(st.h1);
  const bool b2 = !(st.h2 == a) && !(st.h2 == b) && blocks(st.h2);
  return st.h1 == st.h2 ? b1 : (b1 && b2);
}

SightStep sight_step(Hex a, Hex b, int i, int n) {
  const double t = static_cast<double>(i) / n;
  return {lerp_hex(a, b, t, 1.0), lerp_hex(a, b, t, -1.0)};
}

// Line of sight between hex centres: every step strictly between must be
// clear.
template <class Blocks>
bool sight(Hex a, Hex b, Blocks&& blocks) {
  const int n = hex_distance(a, b);
  for (int i = 1; i < n; ++i)
    if (step_blocked(a, b, sight_step(a, b, i, n), blocks)) return false;
  return true;
}

}  // namespace

bool HexBoard::blocks_sight(Hex h, std::span<const Hex> units) const {
  if (terrain(h).blocks_sight) return true;
  return std::find(units.begin(), units.end(), h) != units.end();
}

bool HexBoard::line_of_sight_hex(Hex a, Hex b, std::span<const Hex> units) const {
  return sight(a, b, [&](Hex h) { return blocks_sight(h, units); });
}

void HexBoard::sight_path(Hex a, Hex b, std::vector<SightStep>& out) const {
  out.clear();
  const int n = hex_distance(a, b);
  for (int i = 1; i < n; ++i) out.push_back(sight_step(a, b, i, n));
}

bool HexBoard::line_of_sight_along(Hex a, Hex b, std::span<const SightStep> path, std::span<const Hex> units) const {
  for (const SightStep& st : path)
    if (step_blocked(a, b, st, [&](Hex h) { return blocks_sight(h, units); })) return false;
  return true;
}

bool HexBoard::line_of_sight_along(Hex a, Hex b, std::span<const SightStep> path, std::span<const std::uint32_t> occupancy,
                                   std::span<const Hex> off_board) const {
  // blocks_sight(h, units) with the units counted per hex.
  auto blocks = [&](Hex h) {
    if (terrain(h).blocks_sight) return true;
    if (on_board(h)) return occupancy[index(h)] != 0;
    return std::find(off_board.begin(), off_board.end(), h) != off_board.end();
  };
  for (const SightStep& st : path)
    if (step_blocked(a, b, st, blocks)) return false;
  return true;
}

Length HexBoard::distance(Point a, Point b) const { return Length::cm(s_ * hex_distance(hex_of(a), hex_of(b))); }

bool HexBoard::line_of_sight(Point a, Point b) const {
  return sight(hex_of(a), hex_of(b), [&](Hex h) { return terrain(h).blocks_sight; });
}

bool HexBoard::line_of_sight_past(Point a, Point b, std::span<const Point> units) const {
  return sight(hex_of(a), hex_of(b), [&](Hex h) {
    if (terrain(h).blocks_sight) return true;
    for (const Point& p : units)
      if (hex_of(p) == h) return true;
    return false;
  });
}

int HexBoard::cover_at(Point p) const { return terrain(hex_of(p)).cover; }

int HexBoard::cover_of(const Footprint& unit, std::optional<Point> /*viewer*/) const { return cover_at(unit.centre); }

Length HexBoard::height_at(Point p) const { return Length::cm(terrain(hex_of(p)).height); }

// These walk line(a, b) hex by hex (line_at) instead of building it.
bool HexBoard::moves_uphill(Point a, Point b) const { return moves_uphill(hex_of(a), hex_of(b)); }

bool HexBoard::moves_uphill(Hex ha, Hex hb) const {
  const int n = hex_distance(ha, hb);
  Hex prev = ha;
  for (int i = 1; i <= n; ++i) {
    const Hex h = line_at(ha, hb, i, n);
    if (terrain(h).height > terrain(prev).height) return true;
    prev = h;
  }
  return false;
}

Length HexBoard::movement_cost(Point a, Point b) const { return movement_cost(hex_of(a), hex_of(b)); }

Length HexBoard::movement_cost(Hex ha, Hex hb) const {
  const int n = hex_distance(ha, hb);
  double cost = 0;
  for (int i = 1; i <= n; ++i) {
    const Hex h = line_at(ha, hb, i, n);
    if (!on_board(h) || terrain(h).impassable) return Length::cm(kInf);
    if (terrain(h).halts_movement && i < n) return Length::cm(kInf);
    cost += s_;
  }
  return Length::cm(cost);
}

int HexBoard::hexes_in(Length allowance) const {
  const double n = std::floor(allowance.as_cm() / s_ + 1e-9);
  if (!(n > 0)) return 0;
  return n > 1e6 ? 1'000'000 : static_cast<int>(n);
}

namespace {

Hex clamp_onto(const HexBoard& b, Hex h) {
  if (b.on_board(h)) return h;
  const int row = std::clamp(h.r, 0, b.rows() - 1);
  const int col = std::clamp(HexBoard::col_of(h), 0, b.cols() - 1);
  return HexBoard::from_offset(col, row);
}

}  // namespace

Hex HexBoard::walk_toward(Hex start, Hex goal, int n, std::span<const Hex> kept) const {
  // Far targets (a point beyond the own edge): walk only as far as needed.
  const int dist = hex_distance(start, goal);
  const int steps = std::min(n, dist);
  Hex cur = start;
  for (int i = 1; i <= steps; ++i) {
    const Hex h = kept.empty() ? line_at(start, goal, i, dist) : kept[static_cast<std::size_t>(i)];
    const HexTerrain& t = terrain(h);
    if (!on_board(h) || t.impassable) break;
    cur = h;
    if (t.halts_movement) break;
  }
  return cur;
}

Point HexBoard::move_toward(Point from, Point target, Length allowance) const {
  const Hex start = clamp_onto(*this, hex_of(from));
  const int n = hexes_in(allowance);
  const Hex cur = n > 0 ? walk_toward(start, hex_of(target), n) : start;
  if (cur == hex_of(from)) return from;  // no move: keep the point as it was
  return centre(cur);
}

Point HexBoard::move_away(Point from, Point threat, Length allowance) const {
  const Hex start = clamp_onto(*this, hex_of(from));
  const Hex foe = hex_of(threat);
  if (start == foe) return from;
  const Point o = centre(start);
  const Point away = o - centre(foe);
  const double len = norm(away);
  const int n = hexes_in(allowance);
  Hex cur = start;
  for (int i = 0; i < n; ++i) {
    // Steps within 60 degrees of the away direction that take it farther
    // from the threat; the one whose centre stays nearest the straight line
    // (so a direction between two hexsides zig-zags along it), then the one
    // most nearly straight away.
    std::optional<Hex> best;
    double best_off = 0, best_cos = 0;
    for (HexDir d : k_hex_dirs) {
      const Hex h = neighbour(cur, d);
      if (!on_board(h) || terrain(h).impassable) continue;
      if (hex_distance(h, foe) <= hex_distance(cur, foe)) continue;
      const Point step = centre(h) - centre(cur);
      const double c = dot(step, away) / (norm(step) * len);
      if (c <= 0.5 + 1e-9) continue;
      const double off = std::abs(cross(away, centre(h) - o)) / len;
      if (!best || off < best_off - 1e-9 || (off <= best_off + 1e-9 && c > best_cos + 1e-12)) {
        best = h;
        best_off = off;
        best_cos = c;
      }
    }
    if (!best) break;
    cur = *best;
    if (terrain(cur).halts_movement) break;
  }
  if (cur == hex_of(from)) return from;
  return centre(cur);
}

std::optional<Point> HexBoard::nearest_cover(Point from, Length allowance, int min_cover) const {
  const int need = std::max(1, min_cover);
  const Hex start = hex_of(from);
  if (terrain(start).cover >= need) return from;  // cover_at(from)
  const int n = hexes_in(allowance);
  std::optional<Hex> best;
  int best_d = 0;
  // Rows more than n away hold no hex within n (the same hexes, in the same order).
  const int row0 = std::max(0, start.r - n), row1 = std::min(rows_ - 1, start.r + n);
  // Only hexes with cover (need is at least 1), in the same row-major order.
  if (row0 > row1) return std::nullopt;
  const auto first = static_cast<std::uint32_t>(static_cast<std::size_t>(row0) * static_cast<std::size_t>(cols_));
  const auto last = static_cast<std::uint32_t>(static_cast<std::size_t>(row1 + 1) * static_cast<std::size_t>(cols_));
  for (auto it = std::lower_bound(covered_.begin(), covered_.end(), first); it != covered_.end() && *it < last; ++it) {
    const int row = static_cast<int>(*it / static_cast<std::uint32_t>(cols_)), col = static_cast<int>(*it % static_cast<std::uint32_t>(cols_));
    const Hex h = from_offset(col, row);
    if (types_[terrain_[*it]].cover < need) continue;
    const int dist = hex_distance(start, h);
    if (dist == 0 || dist > n) continue;
    if (best && dist >= best_d) continue;
    // movement_cost(centre(start), centre(h)): a centre's hex is its hex.
    if (movement_cost(start, h) > allowance + Length::cm(1e-9)) continue;
    best = h;
    best_d = dist;
  }
  if (!best) return std::nullopt;
  return centre(*best);
}

}  // namespace vedette
