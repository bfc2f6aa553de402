#pragma once
// Battlefield geometry behind a small, rule-agnostic interface (issue 4).
//
// Rules ask a Board questions (distance, line of sight, cover, height, arcs,
// where a move ends) and never look at how the table is made, so the hex
// board (engine/board/hexboard.hpp) implements the same interface without
// touching the rules. The continuous tabletop is engine/board/tabletop.hpp.
//
// Conventions, shared by every board and every rule:
//  * Points are centimetres on the table: x across it (0 = left edge seen from
//    the bottom edge), y up it (0 = bottom edge). A board `width` runs along x,
//    its `depth` along y.
//  * Facings and bearings are degrees: 0 = +y ("up the table"), clockwise
//    positive. So 90 = +x (right), 180 = -y (down the table), 270 = -90 = -x.
//    A unit facing f has its left at f - 90 and its right at f + 90.
//  * Relative angles are wrapped into (-180, 180]; negative is to the left.
//  * Arc and aspect boundaries are inclusive, with a tolerance of 1e-9 degrees
//    so that a hand-placed point at exactly 45 degrees is in a 45 degree arc.
//  * A point standing exactly on the observer (zero distance) is taken to be in
//    every arc and in the front aspect: the direction is undefined, and "in
//    contact" is the rules' business.
//
// Hot functions (everything a simulation calls per unit per turn) do not
// allocate for ordinary terrain; inputs are passed by value (small) or span.
#include "engine/core/length.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>
#include <optional>
#include <span>

namespace vedette {

struct Point {
  double x = 0.0;  // cm
  double y = 0.0;  // cm

  friend constexpr bool operator==(Point, Point) = default;
  friend constexpr Point operator+(Point a, Point b) { return {a.x + b.x, a.y + b.y}; }
  friend constexpr Point operator-(Point a, Point b) { return {a.x - b.x, a.y - b.y}; }
  friend constexpr Point operator*(Point a, double k) { return {a.x * k, a.y * k}; }
  friend constexpr Point operator*(double k, Point a) { return {a.x * k, a.y * k}; }
};

inline double dot(Point a, Point b) { return a.x * b.x + a.y * b.y; }
inline double cross(Point a, Point b) { return a.x * b.y - a.y * b.x; }
inline double norm(Point a) { return std::hypot(a.x, a.y); }
inline double euclid_cm(Point a, Point b) { return norm(b - a); }

// std::round (halves away from zero) without the libm call, which was a
// fifth of a hex engagement's time (hex_of rounds three coordinates):
// truncation and the fraction are exact below 2^52, so the value is
// std::round's (a zero may lose its sign); anything larger, infinite or NaN
// goes to std::round.
inline double round_half_away(double x) {
  if (!(std::abs(x) < 0x1p52)) return std::round(x);
  const double t = static_cast<double>(static_cast<long long>(x));
  const double f = x - t;
  return f >= 0.5 ? t + 1.0 : f <= -0.5 ? t - 1.0 : t;
}

inline constexpr double kAngleTolDeg = 1e-9;
// No distance: a path or a reach that does not exist.
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// Wrap an angle into (-180, 180].
inline double wrap_deg(double deg) {
  // fmod(x, 360) is x itself when |x| < 360: skip the call (same bits).
  double r = (deg > -360.0 && deg < 360.0) ? deg : std::fmod(deg, 360.0);
  if (r > 180.0) r -= 360.0;
  if (r <= -180.0) r += 360.0;
  return r;
}

// Unit vector of a facing (0 = +y, clockwise positive).
inline Point direction(double facing_deg) {
  const double r = facing_deg * std::numbers::pi / 180.0;
  return {std::sin(r), std::cos(r)};
}

// Bearing from `from` to `to` in [0, 360); 0 if the points coincide. Use it to
// face a target: facing = bearing_deg(me, enemy).
inline double bearing_deg(Point from, Point to) {
  const Point d = to - from;
  if (d.x == 0.0 && d.y == 0.0) return 0.0;
  double b = std::atan2(d.x, d.y) * 180.0 / std::numbers::pi;
  if (b < 0.0) b += 360.0;
  return b;
}

// Where `to` lies relative to `from`'s facing, in (-180, 180]; negative = left.
inline double relative_bearing_deg(Point from, double facing_deg, Point to) {
  return wrap_deg(bearing_deg(from, to) - facing_deg);
}

// An arc relative to a facing: centred `centre_deg` off the facing (negative =
// to the left), extending `half_angle_deg` to either side of that centre.
struct Arc {
  double centre_deg = 0.0;
  double half_angle_deg = 45.0;

  // Straight ahead, `half` either side (seed 003: charge arc, 45 either side).
  static constexpr Arc front(double half = 45.0) { return {0.0, half}; }
  // Seed 002: "Moving Cavalry may only shoot to the figures front and left 45°
  // arc." The arc is given by its centre off the facing and its half angle;
  // tables/default.yaml's mounted_shooting.moving_arc chooses the reading
  // (by default the 45-degree wedge from straight ahead to 45 left: centre
  // -22.5, half 22.5).
  static constexpr Arc front_left(double centre = -45.0, double half = 45.0) { return {centre, half}; }
};

// True when `to` is inside `arc` of an observer at `from` facing `facing_deg`.
inline bool in_arc_continuous(Point from, double facing_deg, Point to, Arc arc) {
  if (from == to) return true;
  const double rel = wrap_deg(relative_bearing_deg(from, facing_deg, to) - arc.centre_deg);
  return std::abs(rel) <= arc.half_angle_deg + kAngleTolDeg;
}

// Where an attacker stands relative to a target's facing.
enum class Aspect { front, flank, rear };

inline const char* aspect_name(Aspect a) {
  switch (a) {
    case Aspect::front: return "front";
    case Aspect::flank: return "flank";
    case Aspect::rear: return "rear";
  }
  return "front";
}

// Front: the attacker's bearing from the target is within `front_half_deg` of
// the target's facing (boundary included: exactly 45 is front). Rear: within
// `rear_half_deg` of the target's back (exactly 135 off the facing is rear).
// Flank: everything between. If the two sectors overlap, front wins.
inline Aspect aspect_continuous(Point target, double target_facing_deg, Point attacker,
                                double front_half_deg, double rear_half_deg) {
  if (target == attacker) return Aspect::front;
  const double rel = std::abs(relative_bearing_deg(target, target_facing_deg, attacker));
  if (rel <= front_half_deg + kAngleTolDeg) return Aspect::front;
  if (rel >= 180.0 - rear_half_deg - kAngleTolDeg) return Aspect::rear;
  return Aspect::flank;
}

// A unit approximated as a rectangle: centre, facing, frontage (across the
// facing) and depth (along it).
struct Footprint {
  Point centre;
  double facing_deg = 0.0;
  Length frontage;
  Length depth;
};

// Corners in order: front-left, front-right, rear-right, rear-left.
inline std::array<Point, 4> corners(const Footprint& f) {
  const Point fwd = direction(f.facing_deg);
  const Point right{fwd.y, -fwd.x};  // facing + 90
  const Point h = fwd * (f.depth.as_cm() / 2.0);
  const Point w = right * (f.frontage.as_cm() / 2.0);
  return {f.centre + h - w, f.centre + h + w, f.centre - h + w, f.centre - h - w};
}

// The board interface. Every function is const and thread-safe: one board is
// shared by all simulation threads.
class Board {
 public:
  virtual ~Board() = default;

  // Is the point on the playing surface?
  virtual bool on_board(Point p) const = 0;
  // Distance as the rules measure it (straight line on a tabletop).
  virtual Length distance(Point a, Point b) const = 0;

  // Can an observer at `a` see `b` (symmetric)?
  virtual bool line_of_sight(Point a, Point b) const = 0;
  // Line of sight with units standing in the way: `units` holds the
  // positions of units that might block (it may include the two ends, which
  // never block). Issue 4's choice, kept by the tabletop: units do not block
  // sight, so the default ignores them; a hex board (engine/board/hexboard.hpp)
  // blocks on a hex holding a unit (seed 004).
  virtual bool line_of_sight_past(Point a, Point b, std::span<const Point> units) const {
    (void)units;
    return line_of_sight(a, b);
  }
  // Does line_of_sight_past look at the units (callers may skip gathering them)?
  virtual bool units_block_sight() const { return false; }
  // Index of the nearest of `others` that `from` can see; ties go to the
  // lowest index; nullopt if none is visible.
  virtual std::optional<std::size_t> nearest_visible(Point from, std::span<const Point> others) const {
    std::optional<std::size_t> best;
    Length best_d;
    for (std::size_t i = 0; i < others.size(); ++i) {
      const Length d = distance(from, others[i]);
      if (best && !(d < best_d)) continue;
      if (!line_of_sight(from, others[i])) continue;
      best = i;
      best_d = d;
    }
    return best;
  }

  // Cover level at a point (0 = none).
  virtual int cover_at(Point p) const = 0;
  // Cover level the whole unit enjoys: the lowest cover among its four
  // corners and its centre. With a viewer, a point also counts as covered by
  // an obstacle that the sight line from the viewer crosses (see Tabletop).
  virtual int cover_of(const Footprint& unit, std::optional<Point> viewer) const = 0;
  // Seed 002's "unit entirely in cover".
  bool entirely_in_cover(const Footprint& unit, std::optional<Point> viewer) const {
    return cover_of(unit, viewer) > 0;
  }

  // Ground height at a point (0 = level ground).
  virtual Length height_at(Point p) const = 0;
  // Does a straight move from a to b climb at any point (seed 003: no moving
  // uphill and charging in the same turn)?
  virtual bool moves_uphill(Point a, Point b) const = 0;

  // Seed 003's charge through terrain: is the point in special terrain
  // (ground that costs more than open ground to cross)? And where (as a
  // fraction 0..1 of the way) does a straight move a-b first cross an
  // obstacle (fence, hedge), if it does? Boards without them: never.
  virtual bool special_terrain_at(Point p) const {
    (void)p;
    return false;
  }
  virtual std::optional<double> first_obstacle_crossing(Point a, Point b) const {
    (void)a;
    (void)b;
    return std::nullopt;
  }

  // Cost of a straight move in movement allowance; +infinity if impassable.
  virtual Length movement_cost(Point a, Point b) const = 0;
  // Straight move toward `target`, spending at most `allowance` of movement
  // (terrain and obstacles slow it, impassable terrain stops it), never past
  // the target nor off the board.
  virtual Point move_toward(Point from, Point target, Length allowance) const = 0;
  // Straight move directly away from `threat`, as move_toward, stopping at the
  // board edge. A threat standing on `from` gives no direction: no move.
  virtual Point move_away(Point from, Point threat, Length allowance) const = 0;
  // The nearest point with cover >= min_cover (a min_cover below 1 counts as
  // 1) that a straight move from `from` reaches within `allowance`; `from`
  // itself if already there; nullopt if there is none.
  virtual std::optional<Point> nearest_cover(Point from, Length allowance, int min_cover) const = 0;

  // Arcs and aspects: continuous geometry by default; a hex board may
  // override them with hex-side arcs.
  virtual bool in_arc(Point from, double facing_deg, Point to, Arc arc) const {
    return in_arc_continuous(from, facing_deg, to, arc);
  }
  virtual Aspect aspect(Point target, double target_facing_deg, Point attacker, double front_half_deg,
                        double rear_half_deg) const {
    return aspect_continuous(target, target_facing_deg, attacker, front_half_deg, rear_half_deg);
  }
  // Convenience forms of in_arc.
  bool in_front_arc(Point from, double facing_deg, Point to, double half_angle_deg) const {
    return in_arc(from, facing_deg, to, Arc::front(half_angle_deg));
  }
  bool in_front_left_arc(Point from, double facing_deg, Point to, double centre_deg, double half_angle_deg) const {
    return in_arc(from, facing_deg, to, Arc::front_left(centre_deg, half_angle_deg));
  }
};

}  // namespace vedette
