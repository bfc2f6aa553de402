#pragma once
// Tabletop: the continuous 2D table, one implementation of Board
// (engine/board/geometry.hpp holds the conventions: cm, 0 degrees = +y, clockwise).
//
// What is on the table:
//  * Terrain areas (circles or simple polygons, convex or concave, either
//    winding): cover level, movement cost multiplier (or impassable), and
//    whether they block sight.
//  * Linear obstacles (polylines: walls, hedges, fences): a crossing cost
//    added each time a move crosses them, and a cover level for a unit behind
//    them.
//  * Hills (circles or polygons) with a height: flat-topped plateaux, stepped
//    like tabletop hills. A smaller hill on a bigger one is a higher contour;
//    the height at a point is the highest hill containing it.
//
// Interpretations (the rules' geometry; each is tested in tests/test_geometry.cpp):
//  * Shapes are closed: a point on the edge of a wood is in the wood.
//  * Line of sight is blocked by any sight-blocking area the segment passes
//    through for a non-zero length, EXCEPT areas containing either endpoint:
//    a unit in a wood (at its edge or deeper) sees out and can be seen from
//    outside; a second wood between them still blocks. Grazing a corner does
//    not block. Obstacles never block sight (they give cover instead). A hill
//    with blocks_sight blocks a sight line that passes over ground of that
//    hill higher than both endpoints (two units at its foot cannot see each
//    other over it; a unit on the hill sees down).
//  * Cover of a unit (Footprint) = the lowest cover among its four corners and
//    its centre; a point's cover is the highest of (the areas containing it)
//    and, given a viewer, (the obstacles that the segment viewer -> point
//    crosses within `obstacle_cover_reach` of the point; unlimited by
//    default). So a unit is entirely in cover when each of the five points is
//    inside a cover area or behind a cover obstacle as seen from the viewer.
//  * Movement cost of a straight path = the integral of the terrain multiplier
//    along it (1 in the open; where areas overlap the highest multiplier
//    applies, so impassable dominates), plus each obstacle's crossing cost for
//    each crossing. A move that ends exactly on an obstacle has crossed it; one
//    that starts on it does not cross it again.
//  * Moves are straight lines (no path-finding): move_toward / move_away spend
//    the allowance at terrain cost, stop just short (1e-6 cm) of impassable
//    ground or of an obstacle they cannot afford, and stop at the table edge.
//    A starting point off the table is first clamped onto it.
//  * "Uphill": the height profile along the straight path rises anywhere (so
//    going over a hill is uphill, coming down off one is not).
//  * nearest_cover: for each area with cover >= min_cover, its nearest point
//    to `from` (just inside its edge); among those whose straight-move cost is
//    within the allowance, the cheapest (ties: lowest area index). Areas
//    reachable only around an obstacle or impassable ground are not found.
#include "engine/board/geometry.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <variant>
#include <vector>

namespace vedette {

struct Circle {
  Point centre;
  double radius = 0.0;  // cm
};

struct Polygon {
  std::vector<Point> vertices;  // simple polygon, >= 3 vertices, either winding
};

using Shape = std::variant<Circle, Polygon>;

struct TerrainArea {
  static constexpr double impassable = std::numeric_limits<double>::infinity();

  std::string name;
  Shape shape;
  int cover = 0;             // 0 = none
  double move_cost = 1.0;    // multiplier on distance moved inside; `impassable` forbids entry
  bool blocks_sight = false;
};

struct Obstacle {
  std::string name;
  std::vector<Point> path;   // polyline, >= 2 points; repeat the first point to close it
  Length crossing_cost;      // added per crossing; Length::cm(infinity) = uncrossable
  int cover = 0;             // for a unit behind it
};

struct Hill {
  std::string name;
  Shape shape;
  Length height;
  bool blocks_sight = true;
};

class Tabletop final : public Board {
 public:
  // Throws std::invalid_argument unless both are positive and finite.
  Tabletop(Length width, Length depth);

  // Each returns the new item's index. Throws std::invalid_argument on a bad
  // shape (polygon with < 3 vertices, non-positive or non-finite radius,
  // non-finite coordinates), a negative or NaN cost, or a negative cover.
  std::size_t add_area(TerrainArea area);
  std::size_t add_obstacle(Obstacle obstacle);
  std::size_t add_hill(Hill hill);
  // Cover from an obstacle counts only if it lies within `reach` of the
  // covered point (default: unlimited).
  void set_obstacle_cover_reach(Length reach);

  Length width() const { return Length::cm(width_); }
  Length depth() const { return Length::cm(depth_); }
  const std::vector<TerrainArea>& areas() const { return areas_; }
  const std::vector<Obstacle>& obstacles() const { return obstacles_; }
  const std::vector<Hill>& hills() const { return hills_; }

  // Clamp a point onto the table.
  Point clamp(Point p) const;
  // Does the point lie in the area / hill with this index?
  bool area_contains(std::size_t area, Point p) const;
  bool hill_contains(std::size_t hill, Point p) const;
  // Movement cost multiplier at a point (1 in the open).
  double cost_multiplier_at(Point p) const;

  // Board
  bool on_board(Point p) const override;
  Length distance(Point a, Point b) const override;
  bool line_of_sight(Point a, Point b) const override;
  // line_of_sight's computation, neither bounded first nor kept (for
  // tests/test_perf_invariants_move14.cpp's check against line_of_sight).
  bool line_of_sight_fresh(Point a, Point b) const { return line_of_sight_computed(a, b); }
  int cover_at(Point p) const override;
  int cover_of(const Footprint& unit, std::optional<Point> viewer) const override;
  Length height_at(Point p) const override;
  bool moves_uphill(Point a, Point b) const override;
  Length movement_cost(Point a, Point b) const override;
  bool special_terrain_at(Point p) const override { return cost_multiplier_at(p) > 1.0; }
  // Could special_terrain_at be true anywhere near segment a-b? false when
  // the segment's box, widened by a margin far above the rounding of any
  // point computed on it (1e-6 cm plus 1e-9 of its coordinates' size), meets
  // no box of an area costing more than 1: then every such point is in no
  // such area (charge_way's walk back, engine/engagement/battle.cpp).
  bool special_terrain_may_meet(Point a, Point b) const;
  std::optional<double> first_obstacle_crossing(Point a, Point b) const override;
  Point move_toward(Point from, Point target, Length allowance) const override;
  Point move_away(Point from, Point threat, Length allowance) const override;
  std::optional<Point> nearest_cover(Point from, Length allowance, int min_cover) const override;

  // cover_of in two halves, for a caller that asks one unit's cover from
  // many viewers: the unit's five points (its corners in corners()' order,
  // then its centre) with each one's cover from areas (cover_at), which no
  // viewer changes; then the cover from a viewer (the obstacles). For every
  // unit and viewer, cover_of_points(cover_points(unit), viewer) ==
  // cover_of(unit, viewer) (tests/test_geometry.cpp).
  struct CoverPoints {
    std::array<Point, 5> at{};
    std::array<int, 5> level{};
  };
  CoverPoints cover_points(const Footprint& unit) const;
  int cover_of_points(const CoverPoints& unit, std::optional<Point> viewer) const;

  // Internal shape data (bounding box, orientation), public only so the
  // implementation's helpers can take it.
  struct Box {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  };
  struct Geom {
    bool circle = false;
    Point centre;
    double radius = 0.0;
    std::vector<Point> v;  // polygon vertices
    Box box;               // bounding box
    bool ccw = true;       // polygon winding (x right, y up)
  };

 private:
  struct Walk {
    double t = 1.0;      // where the move stops, as a fraction of a -> b
    double spent = 0.0;  // allowance used, cm
  };
  Walk walk(Point a, Point b, double budget) const;
  double height_cm(Point p) const;
  std::optional<Point> nearest_point_inside(std::size_t area, Point from) const;
  // A point's cover given its cover from areas and a viewer (cover_of).
  int point_cover(Point q, int level, Point viewer) const;

  // Which terrain this is, for answers kept per thread (cover_of,
  // line_of_sight: engine/board/tabletop.cpp): a new number, never given
  // before, at construction and at every change of the terrain; a copy has
  // the same terrain and keeps it, a moved-from table takes a new one.
  struct TerrainId {
    static std::uint64_t next();
    std::uint64_t v = next();
    TerrainId() = default;
    TerrainId(const TerrainId&) = default;
    TerrainId& operator=(const TerrainId&) = default;
    TerrainId(TerrainId&& o) noexcept : v(o.v) { o.v = next(); }
    TerrainId& operator=(TerrainId&& o) noexcept {
      v = o.v;
      o.v = next();
      return *this;
    }
  };
  TerrainId terrain_;
  int cover_of_computed(const Footprint& unit, std::optional<Point> viewer) const;
  bool line_of_sight_computed(Point a, Point b) const;

  double width_;
  double depth_;
  double cover_reach_ = std::numeric_limits<double>::infinity();
  std::vector<TerrainArea> areas_;
  std::vector<Geom> area_geom_;
  std::vector<Obstacle> obstacles_;
  std::vector<Box> obstacle_box_;
  std::vector<std::vector<double>> obstacle_len_;  // each obstacle's segment lengths (norm)
  std::vector<Hill> hills_;
  std::vector<Geom> hill_geom_;
};

}  // namespace vedette
