#include "engine/board/tabletop.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace vedette {

namespace {

using Geom = Tabletop::Geom;
using Box = Tabletop::Box;

constexpr double kEps = 1e-7;        // cm: a point this close to an edge is on it
constexpr double kStopShort = 1e-6;  // cm: how far short of a barrier a move stops

// A buffer that lives on the stack up to N items and spills to the heap only
// for unusually complex terrain, so hot queries do not allocate.
template <class T, std::size_t N>
class SmallBuf {
 public:
  void push(const T& item) {
    if (spill_.empty()) {
      if (n_ < N) {
        buf_[n_++] = item;
        return;
      }
      spill_.assign(buf_.begin(), buf_.end());
    }
    spill_.push_back(item);
    ++n_;
  }
  T* begin() { return spill_.empty() ? buf_.data() : spill_.data(); }
  T* end() { return begin() + n_; }
  std::size_t size() const { return n_; }

 private:
  std::array<T, N> buf_;  // left uninitialised: only [0, n_) is read
  std::vector<T> spill_;
  std::size_t n_ = 0;
};

Point lerp(Point a, Point b, double t) { return a + (b - a) * t; }

bool finite(Point p) { return std::isfinite(p.x) && std::isfinite(p.y); }

Box box_of(const std::vector<Point>& pts) {
  Box b{kInf, kInf, -kInf, -kInf};
  for (const Point& p : pts) {
    b.x0 = std::min(b.x0, p.x);
    b.y0 = std::min(b.y0, p.y);
    b.x1 = std::max(b.x1, p.x);
    b.y1 = std::max(b.y1, p.y);
  }
  return b;
}

bool box_has(const Box& b, Point p) {
  return p.x >= b.x0 - kEps && p.x <= b.x1 + kEps && p.y >= b.y0 - kEps && p.y <= b.y1 + kEps;
}

bool box_meets_segment(const Box& b, Point a, Point c) {
  return std::max(a.x, c.x) >= b.x0 - kEps && std::min(a.x, c.x) <= b.x1 + kEps &&
         std::max(a.y, c.y) >= b.y0 - kEps && std::min(a.y, c.y) <= b.y1 + kEps;
}

// Squared distance from p to segment a-c, and the parameter of the nearest point.
double seg_dist2(Point p, Point a, Point c, double* u_out = nullptr) {
  const Point e = c - a;
  const double len2 = dot(e, e);
  double u = len2 > 0.0 ? dot(p - a, e) / len2 : 0.0;
  u = std::clamp(u, 0.0, 1.0);
  if (u_out) *u_out = u;
  const Point q = a + e * u;
  return dot(p - q, p - q);
}

Geom make_geom(const Shape& shape, const char* what) {
  Geom g;
  if (const auto* c = std::get_if<Circle>(&shape)) {
    if (!finite(c->centre) || !std::isfinite(c->radius) || !(c->radius > 0.0))
      throw std::invalid_argument(std::string(what) + ": a circle needs a finite centre and a positive radius");
    g.circle = true;
    g.centre = c->centre;
    g.radius = c->radius;
    g.box = {c->centre.x - c->radius, c->centre.y - c->radius, c->centre.x + c->radius, c->centre.y + c->radius};
    return g;
  }
  const auto& poly = std::get<Polygon>(shape);
  if (poly.vertices.size() < 3)
    throw std::invalid_argument(std::string(what) + ": a polygon needs at least 3 vertices");
  for (const Point& p : poly.vertices)
    if (!finite(p)) throw std::invalid_argument(std::string(what) + ": a polygon vertex is not finite");
  g.v = poly.vertices;
  double area2 = 0.0;
  for (std::size_t i = 0, j = g.v.size() - 1; i < g.v.size(); j = i++) area2 += cross(g.v[j], g.v[i]);
  if (!(std::abs(area2) > 0.0)) throw std::invalid_argument(std::string(what) + ": the polygon has no area");
  g.ccw = area2 > 0.0;
  g.box = box_of(g.v);
  return g;
}

// Closed containment: a point on the edge (within kEps) is inside.
bool contains(const Geom& g, Point p) {
  if (!box_has(g.box, p)) return false;
  if (g.circle) {
    const Point d = p - g.centre;
    const double r = g.radius + kEps;
    return dot(d, d) <= r * r;
  }
  const std::size_t n = g.v.size();
  bool in = false;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Point& vi = g.v[i];
    const Point& vj = g.v[j];
    if ((vi.y > p.y) != (vj.y > p.y)) {
      const double xc = vi.x + (p.y - vi.y) * (vj.x - vi.x) / (vj.y - vi.y);
      if (p.x < xc) in = !in;
    }
  }
  if (in) return true;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++)
    if (seg_dist2(p, g.v[j], g.v[i]) <= kEps * kEps) return true;
  return false;
}

// Every parameter t in (0, 1) where segment a-b meets the shape's boundary
// (a superset is harmless: pieces between breaks are classified by midpoint).
template <class F>
void shape_breaks(const Geom& g, Point a, Point b, F&& push) {
  const Point d = b - a;
  const double dd = dot(d, d);
  if (dd == 0.0) return;
  auto keep = [&](double t) {
    if (t > 0.0 && t < 1.0) push(t);
  };
  if (g.circle) {
    const Point f = a - g.centre;
    const double bq = 2.0 * dot(f, d);
    const double cq = dot(f, f) - g.radius * g.radius;
    const double disc = bq * bq - 4.0 * dd * cq;
    if (disc <= 0.0) return;  // misses, or only touches
    const double s = std::sqrt(disc);
    keep((-bq - s) / (2.0 * dd));
    keep((-bq + s) / (2.0 * dd));
    return;
  }
  const double len = std::sqrt(dd);
  const std::size_t n = g.v.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Point p = g.v[j];
    const Point q = g.v[i];
    const Point e = q - p;
    const double elen = norm(e);
    if (elen == 0.0) continue;
    const Point w = p - a;
    const double den = cross(d, e);
    if (std::abs(den) > 1e-12 * len * elen) {
      const double u = cross(w, d) / den;
      const double tol = kEps / elen;
      if (u >= -tol && u <= 1.0 + tol) keep(cross(w, e) / den);
    } else if (std::abs(cross(w, d)) <= kEps * len) {  // collinear: the overlap's ends
      keep(dot(w, d) / dd);
      keep(dot(q - a, d) / dd);
    }
  }
}

template <std::size_t N>
void close_and_sort(SmallBuf<double, N>& ts) {
  ts.push(0.0);
  ts.push(1.0);
  std::sort(ts.begin(), ts.end());
}

// Does segment a-b run through the shape for a non-zero length?
bool passes_through(const Geom& g, Point a, Point b) {
  const double len = euclid_cm(a, b);
  SmallBuf<double, 32> ts;
  shape_breaks(g, a, b, [&](double t) { ts.push(t); });
  close_and_sort(ts);
  const double* t = ts.begin();
  for (std::size_t k = 1; k < ts.size(); ++k)
    if ((t[k] - t[k - 1]) * len > kEps && contains(g, lerp(a, b, (t[k] + t[k - 1]) / 2.0))) return true;
  return false;
}

// Parameters t in (0, 1] where a move a-b crosses a polyline. Hits at a shared
// vertex are merged into one crossing; a move along the line does not cross it.
template <class F>
void crossings(const std::vector<Point>& path, Point a, Point b, F&& emit) {
  const Point d = b - a;
  const double len = norm(d);
  if (len == 0.0) return;
  const double tol_t = kEps / len;
  SmallBuf<double, 16> ts;
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    const Point p = path[k];
    const Point e = path[k + 1] - p;
    const double elen = norm(e);
    const double den = cross(d, e);
    if (!(std::abs(den) > 1e-12 * len * elen)) continue;
    const Point w = p - a;
    const double u = cross(w, d) / den;
    const double tol_u = kEps / elen;
    if (u < -tol_u || u > 1.0 + tol_u) continue;
    const double t = cross(w, e) / den;
    if (t <= tol_t || t > 1.0 + tol_t) continue;
    ts.push(std::min(t, 1.0));
  }
  std::sort(ts.begin(), ts.end());
  double prev = -kInf;
  for (double t : ts) {
    if (t - prev > tol_t) emit(t);
    prev = t;
  }
}

// Does the sight line viewer-q cross the polyline within `reach` of q?
// `elen`: the norm of each of its segments (Tabletop::obstacle_len_).
bool shields(const std::vector<Point>& path, const std::vector<double>& elens, Point viewer, Point q, double reach) {
  const Point d = q - viewer;
  const double len = norm(d);
  if (len == 0.0) return false;
  const double tol_t = kEps / len;
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    const Point p = path[k];
    const Point e = path[k + 1] - p;
    const double elen = elens[k];
    const double den = cross(d, e);
    if (!(std::abs(den) > 1e-12 * len * elen)) continue;
    const Point w = p - viewer;
    const double u = cross(w, d) / den;
    const double tol_u = kEps / elen;
    if (u < -tol_u || u > 1.0 + tol_u) continue;
    const double t = cross(w, e) / den;
    if (t < -tol_t || t > 1.0 + tol_t) continue;
    if ((1.0 - t) * len <= reach + kEps) return true;
  }
  return false;
}

// walk(): is the segment's box apart from every area's and obstacle's box by more
// than 1e-6 cm? Then box_meets_segment (within kEps) is false for each, and
// no point of the segment, its midpoint as lerp rounds it included, is in an
// area (contains asks box_has, within kEps).
bool clear_of_terrain(const std::vector<Tabletop::Geom>& areas, const std::vector<Box>& obstacles, Point a, Point b) {
  constexpr double margin = 1e-6;
  const double x0 = std::min(a.x, b.x) - margin, x1 = std::max(a.x, b.x) + margin;
  const double y0 = std::min(a.y, b.y) - margin, y1 = std::max(a.y, b.y) + margin;
  auto meets = [&](const Box& q) { return x1 >= q.x0 && x0 <= q.x1 && y1 >= q.y0 && y0 <= q.y1; };
  for (const Tabletop::Geom& g : areas)
    if (meets(g.box)) return false;
  for (const Box& q : obstacles)
    if (meets(q)) return false;
  return true;
}

// corners(unit) (engine/board/geometry.hpp) with the facing's direction
// kept: cover_of asks the corners of every unit whose cover it is asked, and
// a unit keeps its facing for many questions (it turns only when it moves
// toward a new target), so direction()'s sincos was mostly asked again for
// the same angle. direction() is a pure function of the facing's bits, kept
// per thread in a small table keyed by them (plain data, zero-initialised:
// no guard, no allocation); the rest is corners()' own expressions in its
// order, so the same bits (tests/test_perf_invariants_table.cpp compares
// cover_points' corners with corners()).
struct KeptDirection {
  std::uint64_t facing;
  bool valid;
  Point dir;
};
constexpr std::size_t k_kept_directions = 64;  // a power of two
thread_local KeptDirection kept_directions[k_kept_directions];

std::array<Point, 4> corners_kept(const Footprint& f) {
  const std::uint64_t key = std::bit_cast<std::uint64_t>(f.facing_deg);
  KeptDirection& k = kept_directions[((key ^ (key >> 31)) * 0x9E3779B97F4A7C15ULL) >> 58];
  if (!k.valid || k.facing != key) {
    k.dir = direction(f.facing_deg);
    k.facing = key;
    k.valid = true;
  }
  const Point fwd = k.dir;
  const Point right{fwd.y, -fwd.x};  // facing + 90
  const Point h = fwd * (f.depth.as_cm() / 2.0);
  const Point w = right * (f.frontage.as_cm() / 2.0);
  return {f.centre + h - w, f.centre + h + w, f.centre - h + w, f.centre - h - w};
}

}  // namespace

std::uint64_t Tabletop::TerrainId::next() {
  static std::atomic<std::uint64_t> count{0};
  return count.fetch_add(1, std::memory_order_relaxed) + 1;  // 0 is never a table's (the kept answers' empty key)
}

Tabletop::Tabletop(Length width, Length depth) : width_(width.as_cm()), depth_(depth.as_cm()) {
  if (!std::isfinite(width_) || !std::isfinite(depth_) || !(width_ > 0.0) || !(depth_ > 0.0))
    throw std::invalid_argument("tabletop: width and depth must be positive and finite");
}

std::size_t Tabletop::add_area(TerrainArea area) {
  terrain_.v = TerrainId::next();  // new terrain: no answer kept for the old one applies
  const std::string what = "terrain area '" + area.name + "'";
  Geom g = make_geom(area.shape, what.c_str());
  if (std::isnan(area.move_cost) || area.move_cost < 0.0)
    throw std::invalid_argument(what + ": the movement cost must be a multiplier >= 0 or impassable");
  if (area.cover < 0) throw std::invalid_argument(what + ": cover must be >= 0");
  areas_.push_back(std::move(area));
  area_geom_.push_back(std::move(g));
  return areas_.size() - 1;
}

std::size_t Tabletop::add_obstacle(Obstacle obstacle) {
  terrain_.v = TerrainId::next();  // new terrain: no answer kept for the old one applies
  const std::string what = "obstacle '" + obstacle.name + "'";
  if (obstacle.path.size() < 2) throw std::invalid_argument(what + ": a polyline needs at least 2 points");
  for (const Point& p : obstacle.path)
    if (!finite(p)) throw std::invalid_argument(what + ": a point is not finite");
  const double c = obstacle.crossing_cost.as_cm();
  if (std::isnan(c) || c < 0.0) throw std::invalid_argument(what + ": the crossing cost must be >= 0");
  if (obstacle.cover < 0) throw std::invalid_argument(what + ": cover must be >= 0");
  obstacle_box_.push_back(box_of(obstacle.path));
  std::vector<double> lens;
  for (std::size_t k = 0; k + 1 < obstacle.path.size(); ++k) lens.push_back(norm(obstacle.path[k + 1] - obstacle.path[k]));
  obstacle_len_.push_back(std::move(lens));
  obstacles_.push_back(std::move(obstacle));
  return obstacles_.size() - 1;
}

std::size_t Tabletop::add_hill(Hill hill) {
  terrain_.v = TerrainId::next();  // new terrain: no answer kept for the old one applies
  const std::string what = "hill '" + hill.name + "'";
  Geom g = make_geom(hill.shape, what.c_str());
  if (!std::isfinite(hill.height.as_cm())) throw std::invalid_argument(what + ": the height must be finite");
  hills_.push_back(std::move(hill));
  hill_geom_.push_back(std::move(g));
  return hills_.size() - 1;
}

void Tabletop::set_obstacle_cover_reach(Length reach) {
  terrain_.v = TerrainId::next();  // new terrain: no answer kept for the old one applies
  if (std::isnan(reach.as_cm()) || reach.as_cm() < 0.0)
    throw std::invalid_argument("tabletop: the obstacle cover reach must be >= 0");
  cover_reach_ = reach.as_cm();
}

Point Tabletop::clamp(Point p) const { return {std::clamp(p.x, 0.0, width_), std::clamp(p.y, 0.0, depth_)}; }

bool Tabletop::area_contains(std::size_t area, Point p) const { return contains(area_geom_.at(area), p); }
bool Tabletop::hill_contains(std::size_t hill, Point p) const { return contains(hill_geom_.at(hill), p); }

std::optional<double> Tabletop::first_obstacle_crossing(Point a, Point b) const {
  std::optional<double> first;
  for (std::size_t i = 0; i < obstacles_.size(); ++i) {
    if (!box_meets_segment(obstacle_box_[i], a, b)) continue;
    crossings(obstacles_[i].path, a, b, [&](double t) {
      if (!first || t < *first) first = t;
    });
  }
  return first;
}

double Tabletop::cost_multiplier_at(Point p) const {
  bool inside = false;
  double m = 0.0;
  for (std::size_t i = 0; i < areas_.size(); ++i) {
    if (!contains(area_geom_[i], p)) continue;
    inside = true;
    m = std::max(m, areas_[i].move_cost);
  }
  return inside ? m : 1.0;
}

bool Tabletop::special_terrain_may_meet(Point a, Point b) const {
  // special_terrain_at(p) needs cost_multiplier_at(p) > 1: p in an area of
  // cost above 1 (the highest multiplier of those containing p), so within
  // kEps of its box (contains asks box_has first). A point computed on a-b
  // (a + (b - a) * t, or b - dir * s) is within a few units in the last
  // place of its coordinates' size of the true segment: far inside margin.
  const double margin = 1e-6 + 1e-9 * (std::abs(a.x) + std::abs(a.y) + std::abs(b.x) + std::abs(b.y));
  const double x0 = std::min(a.x, b.x) - margin, x1 = std::max(a.x, b.x) + margin;
  const double y0 = std::min(a.y, b.y) - margin, y1 = std::max(a.y, b.y) + margin;
  if (!(x0 <= x1 && y0 <= y1)) return true;  // NaN: ask the points
  for (std::size_t i = 0; i < areas_.size(); ++i) {
    if (!(areas_[i].move_cost > 1.0)) continue;
    const Box& q = area_geom_[i].box;
    if (x1 >= q.x0 - kEps && x0 <= q.x1 + kEps && y1 >= q.y0 - kEps && y0 <= q.y1 + kEps) return true;
  }
  return false;
}

bool Tabletop::on_board(Point p) const { return p.x >= 0.0 && p.x <= width_ && p.y >= 0.0 && p.y <= depth_; }

Length Tabletop::distance(Point a, Point b) const { return Length::cm(euclid_cm(a, b)); }

namespace {

// Answers kept per thread, keyed by the table's terrain (TerrainId, never
// reused) and the bits of every input: a hit returns what the computation
// gave for the very same inputs on the very same terrain. The questions
// recur: a unit's cover from the same enemy while neither moves (the
// situation, shooting, the fear of a charge), and every engagement starts
// from the scenario's places. Plain data, zero-initialised (no guard, no
// allocation); direct-mapped by a hash of the key.
template <std::size_t N>
struct KeptAnswer {
  std::uint64_t terrain;  // 0: empty
  std::uint64_t key[N];
  int answer;
};
constexpr std::size_t k_kept_answers = 256;  // a power of two
thread_local KeptAnswer<8> kept_cover[k_kept_answers];
thread_local KeptAnswer<4> kept_sight[k_kept_answers];

template <std::size_t N>
KeptAnswer<N>& kept_slot(KeptAnswer<N> (&table)[k_kept_answers], std::uint64_t terrain, const std::uint64_t (&k)[N]) {
  std::uint64_t h = terrain;
  for (const std::uint64_t x : k) h = (h ^ x ^ (x >> 29)) * 0x9E3779B97F4A7C15ULL;
  return table[h >> 56];
}

template <std::size_t N>
bool kept_hit(const KeptAnswer<N>& m, std::uint64_t terrain, const std::uint64_t (&k)[N]) {
  return m.terrain == terrain && std::equal(k, k + N, m.key);
}

}  // namespace

bool Tabletop::line_of_sight(Point a, Point b) const {
  if (a == b) return true;
  // No sight-blocking area's or hill's box meets the segment: then
  // line_of_sight_computed (below) passes over every area (its first test)
  // and finds no hill in the way, and answers true. These are its own
  // box_meets_segment questions, asked first, so the kept answers' table is
  // looked up only where the computation has more to do (issue 32,
  // fourteenth pass: most of the tabletops' sight questions are of units
  // in the open, whose places rarely recur, so the table mostly missed).
  bool may_block = false;
  for (std::size_t i = 0; i < areas_.size() && !may_block; ++i) may_block = areas_[i].blocks_sight && box_meets_segment(area_geom_[i].box, a, b);
  for (std::size_t i = 0; i < hills_.size() && !may_block; ++i) may_block = hills_[i].blocks_sight && box_meets_segment(hill_geom_[i].box, a, b);
  if (!may_block) return true;
  const std::uint64_t k[4] = {std::bit_cast<std::uint64_t>(a.x), std::bit_cast<std::uint64_t>(a.y), std::bit_cast<std::uint64_t>(b.x),
                              std::bit_cast<std::uint64_t>(b.y)};
  KeptAnswer<4>& m = kept_slot(kept_sight, terrain_.v, k);
  if (kept_hit(m, terrain_.v, k)) return m.answer != 0;
  const bool sees = line_of_sight_computed(a, b);
  m.terrain = terrain_.v;
  std::copy(k, k + 4, m.key);
  m.answer = sees ? 1 : 0;
  return sees;
}

bool Tabletop::line_of_sight_computed(Point a, Point b) const {
  for (std::size_t i = 0; i < areas_.size(); ++i) {
    if (!areas_[i].blocks_sight) continue;
    const Geom& g = area_geom_[i];
    if (!box_meets_segment(g.box, a, b)) continue;
    if (contains(g, a) || contains(g, b)) continue;  // seeing out of / into the area one stands in
    if (passes_through(g, a, b)) return false;
  }
  // A hill blocks only a segment that meets its box (box_meets_segment):
  // when no sight-blocking hill's box meets it, the loop below answers true
  // whatever the endpoints' heights, so they are not asked (pure questions).
  bool hill_in_way = false;
  for (std::size_t i = 0; i < hills_.size() && !hill_in_way; ++i)
    hill_in_way = hills_[i].blocks_sight && box_meets_segment(hill_geom_[i].box, a, b);
  if (hill_in_way) {
    const double top = std::max(height_cm(a), height_cm(b));
    for (std::size_t i = 0; i < hills_.size(); ++i) {
      if (!hills_[i].blocks_sight || hills_[i].height.as_cm() <= top + kEps) continue;
      const Geom& g = hill_geom_[i];
      if (box_meets_segment(g.box, a, b) && passes_through(g, a, b)) return false;
    }
  }
  return true;
}

int Tabletop::cover_at(Point p) const {
  int c = 0;
  for (std::size_t i = 0; i < areas_.size(); ++i)
    if (areas_[i].cover > c && contains(area_geom_[i], p)) c = areas_[i].cover;
  return c;
}

int Tabletop::point_cover(Point q, int level, Point viewer) const {
  for (std::size_t i = 0; i < obstacles_.size(); ++i) {
    const Obstacle& o = obstacles_[i];
    if (o.cover <= level || !box_meets_segment(obstacle_box_[i], viewer, q)) continue;
    if (shields(o.path, obstacle_len_[i], viewer, q, cover_reach_)) level = o.cover;
  }
  return level;
}

int Tabletop::cover_of(const Footprint& unit, std::optional<Point> viewer) const {
  if (areas_.empty() && obstacles_.empty()) return 0;  // nothing gives cover: skip the corners
  const std::uint64_t k[8] = {std::bit_cast<std::uint64_t>(unit.centre.x),
                              std::bit_cast<std::uint64_t>(unit.centre.y),
                              std::bit_cast<std::uint64_t>(unit.facing_deg),
                              std::bit_cast<std::uint64_t>(unit.frontage.as_cm()),
                              std::bit_cast<std::uint64_t>(unit.depth.as_cm()),
                              viewer ? std::uint64_t{1} : std::uint64_t{0},
                              viewer ? std::bit_cast<std::uint64_t>(viewer->x) : std::uint64_t{0},
                              viewer ? std::bit_cast<std::uint64_t>(viewer->y) : std::uint64_t{0}};
  KeptAnswer<8>& m = kept_slot(kept_cover, terrain_.v, k);
  if (kept_hit(m, terrain_.v, k)) return m.answer;
  const int cover = cover_of_computed(unit, viewer);
  m.terrain = terrain_.v;
  std::copy(k, k + 8, m.key);
  m.answer = cover;
  return cover;
}

int Tabletop::cover_of_computed(const Footprint& unit, std::optional<Point> viewer) const {
  const std::array<Point, 4> c = corners_kept(unit);
  const std::array<Point, 5> pts{c[0], c[1], c[2], c[3], unit.centre};
  int result = INT_MAX;
  for (const Point& q : pts) {
    int level = cover_at(q);
    if (viewer) level = point_cover(q, level, *viewer);
    result = std::min(result, level);
    if (result == 0) break;
  }
  return result;
}

Tabletop::CoverPoints Tabletop::cover_points(const Footprint& unit) const {
  CoverPoints u;
  if (areas_.empty() && obstacles_.empty()) return u;  // every level 0, and no obstacle to ask
  const std::array<Point, 4> c = corners_kept(unit);
  u.at = {c[0], c[1], c[2], c[3], unit.centre};
  for (std::size_t k = 0; k < u.at.size(); ++k) u.level[k] = cover_at(u.at[k]);
  return u;
}

// cover_of's loop on points whose area cover is known: the same levels, the
// same obstacles asked, the same early answer at 0.
int Tabletop::cover_of_points(const CoverPoints& unit, std::optional<Point> viewer) const {
  int result = INT_MAX;
  for (std::size_t k = 0; k < unit.at.size(); ++k) {
    int level = unit.level[k];
    // point_cover only raises a level: a point whose areas alone give it no
    // less than the lowest so far cannot lower the result (no obstacle asked).
    if (level >= result) continue;
    if (viewer) level = point_cover(unit.at[k], level, *viewer);
    result = std::min(result, level);
    if (result == 0) break;
  }
  return result;
}

double Tabletop::height_cm(Point p) const {
  bool on_hill = false;
  double h = -kInf;
  for (std::size_t i = 0; i < hills_.size(); ++i) {
    if (!contains(hill_geom_[i], p)) continue;
    on_hill = true;
    h = std::max(h, hills_[i].height.as_cm());
  }
  return on_hill ? h : 0.0;
}

Length Tabletop::height_at(Point p) const { return Length::cm(height_cm(p)); }

bool Tabletop::moves_uphill(Point a, Point b) const {
  if (a == b || hills_.empty()) return false;
  SmallBuf<double, 64> ts;
  for (const Geom& g : hill_geom_)
    if (box_meets_segment(g.box, a, b)) shape_breaks(g, a, b, [&](double t) { ts.push(t); });
  // No break pushed (no hill box meets the segment, or none gave one): the
  // one piece of ts = {0, 1} below only sets `have` (the first piece), so the
  // answer is false whatever its height (height_cm and the hypot are pure:
  // not asked, charge_way asks this of every way it computes).
  if (ts.size() == 0) return false;
  close_and_sort(ts);
  const double len = euclid_cm(a, b);
  const double* t = ts.begin();
  bool have = false;
  double prev = 0.0;
  for (std::size_t k = 1; k < ts.size(); ++k) {
    if ((t[k] - t[k - 1]) * len <= kEps) continue;
    const double h = height_cm(lerp(a, b, (t[k] + t[k - 1]) / 2.0));
    if (have && h > prev + kEps) return true;
    have = true;
    prev = h;
  }
  return false;
}

Tabletop::Walk Tabletop::walk(Point a, Point b, double budget) const {
  const double len = euclid_cm(a, b);
  if (len == 0.0) return {1.0, 0.0};
  if ((areas_.empty() && obstacles_.empty()) || clear_of_terrain(area_geom_, obstacle_box_, a, b)) {
    // A bare table, or a path clear of every area and obstacle: the loop
    // below with its one event at t = 1 and m = 1 (its midpoint is in no
    // area), written out (the same expressions, so the same bits).
    constexpr double t0 = 0.0, spent = 0.0, m = 1.0;
    const double c = m * ((1.0 - t0) * len);
    if (c > budget - spent) return {t0 + (budget - spent) / m / len, budget};
    return {1.0, spent + c};
  }
  struct Event {
    double t;
    double cost;  // obstacle crossing cost; 0 for a terrain edge
    bool obstacle;
  };
  SmallBuf<Event, 64> ev;
  for (const Geom& g : area_geom_)
    if (box_meets_segment(g.box, a, b)) shape_breaks(g, a, b, [&](double t) { ev.push({t, 0.0, false}); });
  for (std::size_t i = 0; i < obstacles_.size(); ++i) {
    if (!box_meets_segment(obstacle_box_[i], a, b)) continue;
    const double cost = obstacles_[i].crossing_cost.as_cm();
    crossings(obstacles_[i].path, a, b, [&](double t) { ev.push({t, cost, true}); });
  }
  ev.push({1.0, 0.0, false});
  std::sort(ev.begin(), ev.end(), [](const Event& x, const Event& y) { return x.t < y.t; });

  double t0 = 0.0;
  double spent = 0.0;
  for (const Event& e : ev) {
    if (e.t > t0) {
      const double m = cost_multiplier_at(lerp(a, b, (t0 + e.t) / 2.0));
      const double piece = (e.t - t0) * len;
      const double c = m * piece;
      if (c > budget - spent) {
        if (std::isinf(m)) return {std::max(0.0, t0 - kStopShort / len), spent};
        return {t0 + (budget - spent) / m / len, budget};
      }
      spent += c;
      t0 = e.t;
    }
    if (e.obstacle) {
      if (e.cost > budget - spent) return {std::max(0.0, e.t - kStopShort / len), spent};
      spent += e.cost;
    }
  }
  return {1.0, spent};
}

Length Tabletop::movement_cost(Point a, Point b) const { return Length::cm(walk(a, b, kInf).spent); }

Point Tabletop::move_toward(Point from, Point target, Length allowance) const {
  const Point a = clamp(from);
  const Point d = target - a;
  // Stop at the table edge: the last point of a -> target still on the table.
  double t_edge = 1.0;
  if (d.x > 0.0) t_edge = std::min(t_edge, (width_ - a.x) / d.x);
  if (d.x < 0.0) t_edge = std::min(t_edge, -a.x / d.x);
  if (d.y > 0.0) t_edge = std::min(t_edge, (depth_ - a.y) / d.y);
  if (d.y < 0.0) t_edge = std::min(t_edge, -a.y / d.y);
  t_edge = std::max(t_edge, 0.0);
  const Point b = lerp(a, target, t_edge);
  const double budget = allowance.as_cm();
  if (a == b || !(budget > 0.0)) return a;
  return clamp(lerp(a, b, walk(a, b, budget).t));
}

Point Tabletop::move_away(Point from, Point threat, Length allowance) const {
  const Point a = clamp(from);
  const Point d = a - threat;
  const double n = norm(d);
  if (n == 0.0) return a;
  // A target beyond the far side of the table; move_toward stops at the edge.
  return move_toward(a, a + d * (2.0 * (width_ + depth_) / n), allowance);
}

std::optional<Point> Tabletop::nearest_point_inside(std::size_t area, Point from) const {
  const Geom& g = area_geom_[area];
  if (contains(g, from)) return from;
  if (g.circle) {
    const Point d = from - g.centre;
    const double r = std::max(0.0, g.radius - kStopShort);
    return g.centre + d * (r / norm(d));
  }
  const std::size_t n = g.v.size();
  double best = kInf;
  std::size_t edge = 0;  // edge k runs v[k] -> v[k+1]
  double best_u = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    double u = 0.0;
    const double d2 = seg_dist2(from, g.v[k], g.v[(k + 1) % n], &u);
    if (d2 < best) {
      best = d2;
      edge = k;
      best_u = u;
    }
  }
  auto inward = [&](std::size_t k) {  // unit inward normal of edge k
    const Point e = g.v[(k + 1) % n] - g.v[k];
    const Point nrm = g.ccw ? Point{-e.y, e.x} : Point{e.y, -e.x};
    const double l = norm(nrm);
    return l > 0.0 ? nrm * (1.0 / l) : Point{};
  };
  const Point p = lerp(g.v[edge], g.v[(edge + 1) % n], best_u);
  Point dir = inward(edge);
  if (best_u <= 0.0 || best_u >= 1.0) {  // at a vertex: use the bisector of its two edges
    const std::size_t other = best_u <= 0.0 ? (edge + n - 1) % n : (edge + 1) % n;
    const Point s = dir + inward(other);
    if (norm(s) > 0.0) dir = s * (1.0 / norm(s));
  }
  for (double step : {kStopShort, 1e-4, 1e-2}) {
    const Point q = p + dir * step;
    if (contains(g, q)) return q;
  }
  return std::nullopt;
}

std::optional<Point> Tabletop::nearest_cover(Point from, Length allowance, int min_cover) const {
  const Point a = clamp(from);
  if (cover_at(a) >= std::max(min_cover, 1)) return a;
  const double budget = allowance.as_cm();
  std::optional<Point> best;
  double best_cost = kInf;
  for (std::size_t i = 0; i < areas_.size(); ++i) {
    if (areas_[i].cover < std::max(min_cover, 1)) continue;
    const std::optional<Point> p = nearest_point_inside(i, a);
    if (!p || !on_board(*p)) continue;
    const double c = walk(a, *p, kInf).spent;
    if (c <= budget + kEps && c < best_cost) {
      best = p;
      best_cost = c;
    }
  }
  return best;
}

}  // namespace vedette
