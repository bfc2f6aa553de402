// Battlefield geometry (issue 4): every query with hand-computed cases.
// Conventions (engine/board/geometry.hpp): cm, x across, y up the table, facing 0 =
// +y, clockwise positive.
#include "engine/board/geometry.hpp"
#include "engine/board/tabletop.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace t_geometry {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

Polygon rect(double x0, double y0, double x1, double y1) {
  return Polygon{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}};
}

// A 180 x 120 cm table:
//  wood   square x 60..100, y 40..80; cover 1, cost x2, blocks sight
//  copse  circle centre (140, 30) r 10; cover 2, cost x3, blocks sight
//  lake   concave L: (10,90) (50,90) (50,100) (20,100) (20,115) (10,115);
//         impassable, no cover, does not block sight
//  hedge  x = 120 from y 60 to 110; crossing 1 in, cover 1
//  fence  closed square 155..165 x 95..105; crossing 1 cm, no cover
//  hill   circle (30, 30) r 15, 5 cm high, with a summit circle r 5, 10 cm high
Tabletop make_table() {
  Tabletop t(Length::cm(180), Length::cm(120));
  t.add_area({"wood", rect(60, 40, 100, 80), 1, 2.0, true});
  t.add_area({"copse", Circle{{140, 30}, 10}, 2, 3.0, true});
  t.add_area({"lake", Polygon{{{10, 90}, {50, 90}, {50, 100}, {20, 100}, {20, 115}, {10, 115}}}, 0,
              TerrainArea::impassable, false});
  t.add_obstacle({"hedge", {{120, 60}, {120, 110}}, Length::in(1), 1});
  t.add_obstacle({"fence", {{155, 95}, {165, 95}, {165, 105}, {155, 105}, {155, 95}}, Length::cm(1), 0});
  t.add_hill({"hill", Circle{{30, 30}, 15}, Length::cm(5), true});
  t.add_hill({"summit", Circle{{30, 30}, 5}, Length::cm(10), true});
  return t;
}

}  // namespace

TEST_CASE("geometry: angle conventions (0 = up the table, clockwise)", "[geometry]") {
  const Point o{0, 0};
  CHECK(bearing_deg(o, {0, 1}) == Approx(0.0));
  CHECK(bearing_deg(o, {1, 0}) == Approx(90.0));
  CHECK(bearing_deg(o, {0, -1}) == Approx(180.0));
  CHECK(bearing_deg(o, {-1, 0}) == Approx(270.0));
  CHECK(bearing_deg(o, {1, 1}) == Approx(45.0));
  CHECK(wrap_deg(270.0) == Approx(-90.0));
  CHECK(wrap_deg(-180.0) == Approx(180.0));
  CHECK(wrap_deg(540.0) == Approx(180.0));
  CHECK(wrap_deg(-30.0) == Approx(-30.0));
  const Point e = direction(90.0);
  CHECK(e.x == Approx(1.0));
  CHECK(e.y == Approx(0.0).margin(1e-12));
  CHECK(relative_bearing_deg(o, 90.0, {0, 1}) == Approx(-90.0));  // facing +x, +y is on the left
}

TEST_CASE("geometry: footprint corners follow the facing", "[geometry]") {
  const Footprint up{{0, 0}, 0.0, Length::cm(10), Length::cm(4)};
  const auto c = corners(up);  // front-left, front-right, rear-right, rear-left
  CHECK(c[0].x == Approx(-5));
  CHECK(c[0].y == Approx(2));
  CHECK(c[1].x == Approx(5));
  CHECK(c[1].y == Approx(2));
  CHECK(c[2].x == Approx(5));
  CHECK(c[2].y == Approx(-2));
  CHECK(c[3].x == Approx(-5));
  CHECK(c[3].y == Approx(-2));
  const Footprint right{{0, 0}, 90.0, Length::cm(10), Length::cm(4)};
  const auto r = corners(right);  // facing +x: its left is +y
  CHECK(r[0].x == Approx(2));
  CHECK(r[0].y == Approx(5));
  CHECK(r[1].x == Approx(2));
  CHECK(r[1].y == Approx(-5));
  CHECK(r[2].x == Approx(-2));
  CHECK(r[2].y == Approx(-5));
  CHECK(r[3].x == Approx(-2));
  CHECK(r[3].y == Approx(5));
}

TEST_CASE("geometry: distance and table extent", "[geometry]") {
  const Tabletop t = make_table();
  const Board& b = t;
  CHECK(b.distance({0, 0}, {3, 4}).as_cm() == Approx(5.0));
  CHECK(t.width().as_cm() == Approx(180));
  CHECK(t.depth().as_cm() == Approx(120));
  CHECK(b.on_board({0, 0}));
  CHECK(b.on_board({180, 120}));
  CHECK_FALSE(b.on_board({180.01, 60}));
  CHECK_FALSE(b.on_board({50, -0.01}));
}

TEST_CASE("geometry: circle and polygon containment (closed shapes, concave polygons)", "[geometry]") {
  const Tabletop t = make_table();
  // copse: circle (140,30) r 10
  CHECK(t.area_contains(1, {140, 30}));
  CHECK(t.area_contains(1, {148, 36}));  // 8^2 + 6^2 = 10^2: on the edge counts
  CHECK_FALSE(t.area_contains(1, {148, 37}));
  // wood: square, edges and corners are inside
  CHECK(t.area_contains(0, {60, 60}));
  CHECK(t.area_contains(0, {100, 80}));
  CHECK_FALSE(t.area_contains(0, {100.001, 60}));
  // lake: concave L; the notch x 20..50, y 100..115 is outside
  CHECK(t.area_contains(2, {15, 110}));
  CHECK(t.area_contains(2, {30, 95}));
  CHECK(t.area_contains(2, {45, 95}));
  CHECK_FALSE(t.area_contains(2, {30, 110}));
  CHECK_FALSE(t.area_contains(2, {45, 105}));
  CHECK_FALSE(t.area_contains(2, {5, 95}));
  // cover levels
  CHECK(t.cover_at({80, 60}) == 1);
  CHECK(t.cover_at({140, 30}) == 2);
  CHECK(t.cover_at({15, 110}) == 0);
  CHECK(t.cover_at({170, 10}) == 0);
  // clockwise winding is accepted too
  Tabletop cw(Length::cm(100), Length::cm(100));
  cw.add_area({"cw", Polygon{{{10, 10}, {10, 50}, {50, 50}, {50, 10}}}, 1, 1.0, false});
  CHECK(cw.area_contains(0, {30, 30}));
  CHECK_FALSE(cw.area_contains(0, {60, 30}));
}

TEST_CASE("geometry: line of sight through a wood is blocked, from its edge it is not", "[geometry]") {
  const Tabletop t = make_table();
  const Board& b = t;
  CHECK_FALSE(b.line_of_sight({50, 60}, {110, 60}));  // straight through the wood
  CHECK_FALSE(b.line_of_sight({110, 60}, {50, 60}));
  CHECK(b.line_of_sight({60, 60}, {110, 60}));   // standing at the wood's edge: sees out
  CHECK(b.line_of_sight({110, 60}, {60, 60}));   // ... and is seen
  CHECK(b.line_of_sight({80, 60}, {110, 60}));   // deeper inside: sees out too
  CHECK(b.line_of_sight({50, 90}, {110, 90}));   // passes north of the wood
  CHECK(b.line_of_sight({90, 90}, {110, 70}));   // only touches the corner (100, 80)
  CHECK(b.line_of_sight({5, 95}, {55, 95}));     // the lake does not block sight
  CHECK(b.line_of_sight({110, 70}, {130, 70}));  // obstacles do not block sight
  // the copse (circle) blocks; its edge sees out
  CHECK_FALSE(b.line_of_sight({140, 5}, {140, 55}));
  CHECK(b.line_of_sight({140, 40}, {140, 55}));
  // in the wood, looking through the copse: the copse still blocks
  CHECK_FALSE(b.line_of_sight({80, 50}, {160, 20}));
  CHECK(b.line_of_sight({10, 10}, {10, 10}));
}

TEST_CASE("geometry: hills block sight between lower points", "[geometry]") {
  const Tabletop t = make_table();
  CHECK_FALSE(t.line_of_sight({10, 30}, {50, 30}));  // both at the foot: the hill is between
  CHECK(t.line_of_sight({30, 30}, {58, 30}));        // from the summit: sees down
  CHECK(t.line_of_sight({58, 30}, {30, 30}));
  CHECK_FALSE(t.line_of_sight({20, 30}, {40, 30}));  // both on the lower slope: the summit is between
  CHECK(t.line_of_sight({10, 5}, {50, 5}));          // passes south of the hill
}

TEST_CASE("geometry: nearest visible enemy", "[geometry]") {
  const Tabletop t = make_table();
  const Board& b = t;
  const Point me{50, 60};
  // e0 is nearest (55) but behind the wood; e1 and e2 are both 60 away: lowest index wins
  std::vector<Point> enemies{{105, 60}, {50, 0}, {50, 120}};
  auto i = b.nearest_visible(me, enemies);
  REQUIRE(i.has_value());
  CHECK(*i == 1);
  enemies.push_back({0, 60});  // 50 away, in the open
  i = b.nearest_visible(me, enemies);
  REQUIRE(i.has_value());
  CHECK(*i == 3);
  const std::vector<Point> hidden{{105, 60}, {110, 60}};
  CHECK_FALSE(b.nearest_visible(me, hidden).has_value());
  CHECK_FALSE(b.nearest_visible(me, std::span<const Point>{}).has_value());
}

TEST_CASE("geometry: entirely in cover (areas, and obstacles relative to a viewer)", "[geometry]") {
  Tabletop t = make_table();
  const Board& b = t;
  // 20 x 10 unit inside the wood: corners x 70..90, y 55..65
  const Footprint in_wood{{80, 60}, 0.0, Length::cm(20), Length::cm(10)};
  CHECK(b.cover_of(in_wood, std::nullopt) == 1);
  CHECK(b.entirely_in_cover(in_wood, std::nullopt));
  // corners on the wood's edge (x 60..100 / 90..100, y 40..80): still inside
  const Footprint filling{{80, 60}, 0.0, Length::cm(40), Length::cm(40)};
  CHECK(b.entirely_in_cover(filling, std::nullopt));
  // right corners stick out of the wood (x 85..105)
  const Footprint half_out{{95, 60}, 0.0, Length::cm(20), Length::cm(10)};
  CHECK(b.cover_of(half_out, std::nullopt) == 0);
  CHECK_FALSE(b.entirely_in_cover(half_out, std::nullopt));
  // turned 90 degrees it fits again (x 90..100, y 50..70)
  const Footprint turned{{95, 60}, 90.0, Length::cm(20), Length::cm(10)};
  CHECK(b.entirely_in_cover(turned, std::nullopt));
  // in the copse: cover 2
  const Footprint in_copse{{140, 30}, 0.0, Length::cm(4), Length::cm(4)};
  CHECK(b.cover_of(in_copse, std::nullopt) == 2);
  // behind the hedge (x = 120): unit at x 128..132, y 80..90, facing the hedge
  const Footprint behind{{130, 85}, 270.0, Length::cm(10), Length::cm(4)};
  CHECK(b.cover_of(behind, Point{100, 85}) == 1);  // viewer across the hedge
  CHECK(b.entirely_in_cover(behind, Point{100, 85}));
  CHECK_FALSE(b.entirely_in_cover(behind, Point{170, 85}));  // viewer on the same side
  CHECK_FALSE(b.entirely_in_cover(behind, std::nullopt));    // no viewer: the open
  // a unit half beyond the hedge's end (y 105..115 at x 128..132): the
  // sight lines to the northern corners pass north of the hedge's end
  const Footprint past_end{{130, 110}, 270.0, Length::cm(10), Length::cm(4)};
  CHECK_FALSE(b.entirely_in_cover(past_end, Point{100, 110}));
  // with a reach: the hedge must be within `reach` of each covered point
  t.set_obstacle_cover_reach(Length::cm(5));  // the hedge is 8..12 cm away
  CHECK_FALSE(b.entirely_in_cover(behind, Point{100, 85}));
  t.set_obstacle_cover_reach(Length::cm(15));
  CHECK(b.entirely_in_cover(behind, Point{100, 85}));
}

TEST_CASE("geometry: flank and rear boundaries at exactly 45 and 135 degrees", "[geometry]") {
  const Tabletop t = make_table();
  const Board& b = t;
  const Point tg{50, 50};
  CHECK(b.aspect(tg, 0.0, {50, 60}, 45, 45) == Aspect::front);
  CHECK(b.aspect(tg, 0.0, {60, 60}, 45, 45) == Aspect::front);  // exactly 45: front
  CHECK(b.aspect(tg, 0.0, {40, 60}, 45, 45) == Aspect::front);  // exactly -45: front
  CHECK(b.aspect(tg, 0.0, {60, 59.9}, 45, 45) == Aspect::flank);
  CHECK(b.aspect(tg, 0.0, {60, 50}, 45, 45) == Aspect::flank);
  CHECK(b.aspect(tg, 0.0, {40, 50}, 45, 45) == Aspect::flank);
  CHECK(b.aspect(tg, 0.0, {60, 40.1}, 45, 45) == Aspect::flank);
  CHECK(b.aspect(tg, 0.0, {60, 40}, 45, 45) == Aspect::rear);  // exactly 135: rear
  CHECK(b.aspect(tg, 0.0, {40, 40}, 45, 45) == Aspect::rear);  // exactly -135: rear
  CHECK(b.aspect(tg, 0.0, {50, 40}, 45, 45) == Aspect::rear);
  // the target's facing turns the sectors
  CHECK(b.aspect(tg, 90.0, {60, 50}, 45, 45) == Aspect::front);
  CHECK(b.aspect(tg, 90.0, {50, 60}, 45, 45) == Aspect::flank);
  CHECK(b.aspect(tg, 90.0, {40, 50}, 45, 45) == Aspect::rear);
  CHECK(b.aspect(tg, -90.0, {40, 50}, 45, 45) == Aspect::front);
  // the half-angles are parameters: a 60 degree front
  CHECK(b.aspect(tg, 0.0, {60, 56}, 60, 45) == Aspect::front);  // 59.04 degrees
  CHECK(b.aspect(tg, 0.0, {60, 55}, 60, 45) == Aspect::flank);  // 63.43 degrees
  CHECK(std::string(aspect_name(Aspect::rear)) == "rear");
}

TEST_CASE("geometry: front arc and the moving shooter's front-left arc", "[geometry]") {
  const Tabletop t = make_table();
  const Board& b = t;
  const Point me{50, 50};
  CHECK(b.in_front_arc(me, 0.0, {50, 90}, 45));
  CHECK(b.in_front_arc(me, 0.0, {60, 60}, 45));  // exactly 45
  CHECK(b.in_front_arc(me, 0.0, {40, 60}, 45));
  CHECK_FALSE(b.in_front_arc(me, 0.0, {60, 59.9}, 45));
  CHECK_FALSE(b.in_front_arc(me, 0.0, {50, 40}, 45));
  CHECK(b.in_front_arc(me, 0.0, me, 45));  // coincident points are in every arc
  CHECK(b.in_front_arc(me, 90.0, {60, 55}, 45));
  CHECK_FALSE(b.in_front_arc(me, 90.0, {50, 60}, 45));
  // front-left 45 (seed 002): from directly left (-90) to straight ahead (0)
  CHECK(b.in_front_left_arc(me, 0.0, {50, 60}, -45, 45));    // straight ahead: boundary
  CHECK(b.in_front_left_arc(me, 0.0, {40, 50}, -45, 45));    // directly left: boundary
  CHECK(b.in_front_left_arc(me, 0.0, {40, 60}, -45, 45));    // front-left diagonal
  CHECK_FALSE(b.in_front_left_arc(me, 0.0, {51, 60}, -45, 45));  // a little right of ahead
  CHECK_FALSE(b.in_front_left_arc(me, 0.0, {40, 49}, -45, 45));  // a little behind left
  CHECK_FALSE(b.in_front_left_arc(me, 0.0, {60, 50}, -45, 45));  // right
  CHECK(b.in_front_left_arc(me, 90.0, {50, 60}, -45, 45));       // facing +x: left is +y
  CHECK(b.in_front_left_arc(me, 90.0, {60, 50}, -45, 45));
  CHECK_FALSE(b.in_front_left_arc(me, 90.0, {50, 40}, -45, 45));
  // the default Arc::front_left is that reading
  CHECK(Arc::front_left().centre_deg == -45.0);
  CHECK(Arc::front_left().half_angle_deg == 45.0);
  CHECK(b.in_arc(me, 0.0, {45, 60}, Arc::front_left()));
}

TEST_CASE("geometry: height and moving uphill", "[geometry]") {
  const Tabletop t = make_table();
  const Board& b = t;
  CHECK(b.height_at({30, 30}).as_cm() == Approx(10));  // summit
  CHECK(b.height_at({30, 42}).as_cm() == Approx(5));   // lower slope
  CHECK(b.height_at({30, 45}).as_cm() == Approx(5));   // on the contour
  CHECK(b.height_at({30, 46}).as_cm() == Approx(0));
  CHECK(b.moves_uphill({0, 42}, {30, 42}));       // onto the hill
  CHECK_FALSE(b.moves_uphill({30, 42}, {0, 42}));  // off it
  CHECK(b.moves_uphill({0, 30}, {60, 30}));        // over it: up, then down
  CHECK_FALSE(b.moves_uphill({30, 30}, {60, 30}));  // down from the summit
  CHECK(b.moves_uphill({20, 30}, {40, 30}));       // along the slope over the summit
  CHECK(b.moves_uphill({30, 42}, {30, 30}));       // slope to summit
  CHECK_FALSE(b.moves_uphill({0, 10}, {60, 10}));  // passes south of it
  CHECK_FALSE(b.moves_uphill({100, 100}, {110, 110}));
  CHECK_FALSE(b.moves_uphill({0, 42}, {0, 42}));
}

TEST_CASE("geometry: movement cost along a straight path", "[geometry]") {
  const Tabletop t = make_table();
  const Board& b = t;
  CHECK(b.movement_cost({0, 0}, {3, 4}).as_cm() == Approx(5));
  CHECK(b.movement_cost({50, 60}, {110, 60}).as_cm() == Approx(10 + 40 * 2 + 10));  // through the wood
  CHECK(b.movement_cost({80, 60}, {80, 100}).as_cm() == Approx(20 * 2 + 20));       // out of it
  CHECK(b.movement_cost({120, 30}, {160, 30}).as_cm() == Approx(10 + 20 * 3 + 10));  // through the copse
  // the hedge: 1 inch per crossing
  CHECK(b.movement_cost({110, 70}, {130, 70}).as_cm() == Approx(20 + 2.54));
  CHECK(b.movement_cost({130, 70}, {110, 70}).as_cm() == Approx(20 + 2.54));
  CHECK(b.movement_cost({110, 70}, {120, 70}).as_cm() == Approx(10 + 2.54));  // ending on it crosses it
  CHECK(b.movement_cost({120, 70}, {130, 70}).as_cm() == Approx(10));         // leaving it does not again
  CHECK(b.movement_cost({120, 50}, {120, 100}).as_cm() == Approx(50));        // along it: no crossing
  // the closed fence is crossed twice, also through its corners
  CHECK(b.movement_cost({150, 100}, {170, 100}).as_cm() == Approx(20 + 2));
  CHECK(b.movement_cost({150, 90}, {170, 110}).as_cm() == Approx(std::sqrt(800.0) + 2));
  // impassable
  CHECK(b.movement_cost({5, 95}, {55, 95}).as_cm() == inf);
  CHECK(b.movement_cost({15, 110}, {15, 111}).as_cm() == inf);  // starting in it
  CHECK(b.movement_cost({30, 105}, {30, 118}).as_cm() == Approx(13));  // the lake's notch is open ground
  CHECK(b.movement_cost({5, 5}, {5, 5}).as_cm() == 0.0);
}

TEST_CASE("geometry: overlapping areas use the highest multiplier", "[geometry]") {
  Tabletop t(Length::cm(100), Length::cm(100));
  t.add_area({"rough", rect(10, 0, 50, 100), 0, 2.0, false});
  t.add_area({"marsh", rect(30, 0, 70, 100), 0, 3.0, false});
  t.add_area({"road", rect(80, 0, 90, 100), 0, 0.5, false});
  CHECK(t.cost_multiplier_at({40, 50}) == 3.0);
  CHECK(t.cost_multiplier_at({85, 50}) == 0.5);
  CHECK(t.cost_multiplier_at({75, 50}) == 1.0);
  // 10 open + 20 x2 + 40 x3 + 10 open + 10 x0.5 + 10 open
  CHECK(t.movement_cost({0, 50}, {100, 50}).as_cm() == Approx(10 + 40 + 120 + 10 + 5 + 10));
}

TEST_CASE("geometry: move toward a target, slowed by terrain and clamped to the table", "[geometry]") {
  const Tabletop t = make_table();
  const Board& b = t;
  Point p = b.move_toward({175, 10}, {175, 110}, Length::cm(30));
  CHECK(p.x == Approx(175));
  CHECK(p.y == Approx(40));
  p = b.move_toward({175, 10}, {175, 20}, Length::cm(30));  // never past the target
  CHECK(p.y == Approx(20));
  p = b.move_toward({175, 10}, {175, 20}, Length::cm(0));
  CHECK(p.y == Approx(10));
  // off the table: stops at the edge
  p = b.move_toward({170, 60}, {300, 60}, Length::cm(50));
  CHECK(p.x == Approx(180));
  CHECK(p.y == Approx(60));
  p = b.move_toward({170, 60}, {300, 60}, Length::cm(5));
  CHECK(p.x == Approx(175));
  p = b.move_toward({170, 110}, {200, 140}, Length::cm(100));  // out through the corner
  CHECK(p.x == Approx(180));
  CHECK(p.y == Approx(120));
  p = b.move_toward({-10, 5}, {100, 5}, Length::cm(10));  // a start off the table is clamped first
  CHECK(p.x == Approx(10));
  CHECK(p.y == Approx(5));
  // the wood doubles the cost: 10 open + 20 of allowance = 10 into the wood
  p = b.move_toward({50, 60}, {110, 60}, Length::cm(30));
  CHECK(p.x == Approx(70));
  // the lake stops it just short
  p = b.move_toward({5, 95}, {55, 95}, Length::cm(100));
  CHECK(p.x == Approx(10).margin(1e-5));
  CHECK(p.x < 10);
  CHECK_FALSE(t.area_contains(2, p));
  // the hedge costs 2.54: not enough left stops at it, enough crosses
  p = b.move_toward({110, 70}, {130, 70}, Length::cm(11));
  CHECK(p.x == Approx(120).margin(1e-5));
  CHECK(p.x < 120);
  p = b.move_toward({110, 70}, {130, 70}, Length::cm(13));
  CHECK(p.x == Approx(120.46));
  CHECK(b.on_board(p));
}

TEST_CASE("geometry: move away from a threat, clamped to the table", "[geometry]") {
  const Tabletop t = make_table();
  const Board& b = t;
  Point p = b.move_away({170, 60}, {160, 60}, Length::cm(5));
  CHECK(p.x == Approx(175));
  CHECK(p.y == Approx(60));
  p = b.move_away({170, 60}, {160, 60}, Length::cm(50));
  CHECK(p.x == Approx(180));
  CHECK(p.y == Approx(60));
  p = b.move_away({100, 100}, {97, 96}, Length::cm(10));  // along (3, 4) / 5
  CHECK(p.x == Approx(106));
  CHECK(p.y == Approx(108));
  p = b.move_away({10, 5}, {20, 15}, Length::cm(100));  // along the line to the bottom edge, no sliding
  CHECK(p.x == Approx(5));
  CHECK(p.y == Approx(0).margin(1e-9));
  p = b.move_away({70, 20}, {70, 20}, Length::cm(10));  // no direction: no move
  CHECK(p.x == Approx(70));
  CHECK(p.y == Approx(20));
}

TEST_CASE("geometry: nearest cover within a move", "[geometry]") {
  const Tabletop t = make_table();
  const Board& b = t;
  auto c = b.nearest_cover({80, 60}, Length::cm(10), 1);  // already in the wood
  REQUIRE(c.has_value());
  CHECK(c->x == Approx(80));
  CHECK(c->y == Approx(60));
  c = b.nearest_cover({50, 60}, Length::cm(30), 1);  // the wood's west edge, 10 away
  REQUIRE(c.has_value());
  CHECK(c->x == Approx(60).margin(1e-5));
  CHECK(c->y == Approx(60));
  CHECK(b.cover_at(*c) >= 1);
  CHECK_FALSE(b.nearest_cover({50, 60}, Length::cm(5), 1).has_value());
  // the copse (10 away) is nearer than the wood's corner (22.4 away)
  c = b.nearest_cover({120, 30}, Length::cm(15), 1);
  REQUIRE(c.has_value());
  CHECK(c->x == Approx(130).margin(1e-5));
  CHECK(b.cover_at(*c) == 2);
  CHECK_FALSE(b.nearest_cover({120, 30}, Length::cm(5), 2).has_value());
  // nearest point is the wood's corner (100, 80), 14.14 away
  c = b.nearest_cover({110, 90}, Length::cm(20), 1);
  REQUIRE(c.has_value());
  CHECK(c->x == Approx(100).margin(1e-5));
  CHECK(c->y == Approx(80).margin(1e-5));
  CHECK(b.cover_at(*c) >= 1);
  // level 2 only: the copse, sqrt(40^2 + 10^2) - 10 = 31.2 away from (100, 40)
  c = b.nearest_cover({100, 40}, Length::cm(40), 2);
  REQUIRE(c.has_value());
  CHECK(b.distance({100, 40}, *c).as_cm() == Approx(std::sqrt(1700.0) - 10).margin(1e-4));
  CHECK(b.cover_at(*c) == 2);
}

TEST_CASE("geometry: nearest cover skips impassable cover and uncrossable walls", "[geometry]") {
  Tabletop t(Length::cm(100), Length::cm(100));
  t.add_area({"building", rect(40, 40, 60, 60), 3, TerrainArea::impassable, true});
  t.add_area({"ruin", rect(80, 0, 100, 20), 1, 1.5, false});
  t.add_obstacle({"wall", {{75, 0}, {75, 30}}, Length::cm(inf), 2});
  CHECK_FALSE(t.nearest_cover({30, 50}, Length::cm(50), 1).has_value());
  CHECK(t.movement_cost({70, 10}, {90, 10}).as_cm() == inf);
  // past the wall, the ruin is reachable
  const auto c = t.nearest_cover({76, 10}, Length::cm(10), 1);
  REQUIRE(c.has_value());
  CHECK(c->x == Approx(80).margin(1e-5));
  // a move stops just short of the uncrossable wall
  const Point p = t.move_toward({70, 10}, {90, 10}, Length::cm(50));
  CHECK(p.x == Approx(75).margin(1e-5));
  CHECK(p.x < 75);
}

TEST_CASE("geometry: bad terrain is rejected", "[geometry]") {
  CHECK_THROWS_AS(Tabletop(Length::cm(0), Length::cm(10)), std::invalid_argument);
  CHECK_THROWS_AS(Tabletop(Length::cm(10), Length::cm(inf)), std::invalid_argument);
  Tabletop t(Length::cm(100), Length::cm(100));
  CHECK_THROWS_AS(t.add_area({"two", Polygon{{{0, 0}, {1, 1}}}, 0, 1.0, false}), std::invalid_argument);
  CHECK_THROWS_AS(t.add_area({"flat", Polygon{{{0, 0}, {1, 1}, {2, 2}}}, 0, 1.0, false}), std::invalid_argument);
  CHECK_THROWS_AS(t.add_area({"dot", Circle{{5, 5}, 0}, 0, 1.0, false}), std::invalid_argument);
  CHECK_THROWS_AS(t.add_area({"nan", Circle{{5, 5}, 1}, 0, std::nan(""), false}), std::invalid_argument);
  CHECK_THROWS_AS(t.add_area({"neg", Circle{{5, 5}, 1}, -1, 1.0, false}), std::invalid_argument);
  CHECK_THROWS_AS(t.add_obstacle({"one", {{0, 0}}, Length::cm(1), 0}), std::invalid_argument);
  CHECK_THROWS_AS(t.add_obstacle({"neg", {{0, 0}, {1, 0}}, Length::cm(-1), 0}), std::invalid_argument);
  CHECK_THROWS_AS(t.add_hill({"tall", Circle{{5, 5}, 1}, Length::cm(inf), true}), std::invalid_argument);
  CHECK_THROWS_AS(t.set_obstacle_cover_reach(Length::cm(-1)), std::invalid_argument);
  CHECK(t.areas().empty());
  CHECK(t.add_area({"ok", Circle{{5, 5}, 1}, 0, 1.0, false}) == 0);
}

TEST_CASE("round_half_away is std::round: halves away from zero, large and odd values passed through", "[geometry][hex]") {
  // Hex rounding (engine/board/hexboard.cpp, cube_round) depends on it.
  std::vector<double> xs{0.0, 0.49999999999999994, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999999999999996, -2.4999999999999996,
                         1e-300, -1e-300, 0x1p52 - 0.5, -(0x1p52 - 0.5), 0x1p52, 0x1p53 + 2, 1e300, -1e300, inf, -inf};
  for (int k = -4000; k <= 4000; ++k) xs.push_back(k * 0.125 + (k % 7) * 1e-9);
  std::uint64_t state = 88172645463325252ULL;  // xorshift: arbitrary doubles in +-1e6
  for (int k = 0; k < 20000; ++k) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    xs.push_back((static_cast<double>(state >> 11) / 0x1p53 - 0.5) * 2e6);
  }
  for (double x : xs) {
    INFO("x = " << x);
    CHECK(round_half_away(x) == std::round(x));
  }
  CHECK(std::isnan(round_half_away(std::numeric_limits<double>::quiet_NaN())));
}

TEST_CASE("geometry: cover_of_points of cover_points answers cover_of, for any unit, viewer and reach", "[geometry]") {
  // Tabletop::cover_points keeps a unit's five points and their cover from
  // areas (for a caller asking from many viewers); the answer must not change.
  Tabletop t = make_table();
  std::uint64_t state = 88172645463325252ULL;
  auto uniform = [&](double lo, double hi) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return lo + (hi - lo) * (static_cast<double>(state >> 11) / 0x1p53);
  };
  long long asked = 0, covered = 0;
  auto same = [&](const Footprint& u, std::optional<Point> viewer) {
    const Tabletop::CoverPoints p = t.cover_points(u);
    const int want = t.cover_of(u, viewer);
    INFO("unit (" << u.centre.x << ", " << u.centre.y << ") facing " << u.facing_deg << ", viewer "
                  << (viewer ? viewer->x : -1) << ", " << (viewer ? viewer->y : -1));
    CHECK(t.cover_of_points(p, viewer) == want);
    ++asked;
    covered += want > 0;
  };
  for (const double reach : {inf, 8.0, 10.0, 2.0, 0.0}) {
    t.set_obstacle_cover_reach(Length::cm(reach));
    for (int k = 0; k < 4000; ++k) {
      // Anywhere, or close to the hedge (x = 120, y 60..110) or the fence.
      const Point c = k % 3 == 0   ? Point{uniform(-5, 185), uniform(-5, 125)}
                      : k % 3 == 1 ? Point{120 + uniform(-15, 15), uniform(55, 115)}
                                   : Point{uniform(150, 170), uniform(90, 110)};
      const double side = k % 5 == 0 ? 0.5 : uniform(0.5, 20);
      const Footprint u{c, uniform(-180, 180), Length::cm(side), Length::cm(uniform(0.5, 20))};
      same(u, std::nullopt);
      same(u, Point{uniform(0, 180), uniform(0, 120)});
      same(u, Point{uniform(100, 119), uniform(50, 120)});     // across the hedge
      same(u, Point{120, uniform(0, 120)});                    // on the hedge's line: grazing sight lines
      same(u, Point{uniform(-1e5, 1e5), uniform(-1e5, 1e5)});  // far off the table
      same(u, c);                                              // from its own centre
    }
    // On the reach's boundary: points 1e-9 either side of `reach` behind the
    // hedge, seen from across it.
    if (std::isfinite(reach))
      for (const double d : {reach - 1e-9, reach, reach + 1e-9, reach + 1e-6, reach + 2.0})
        for (const double y : {61.0, 85.0, 109.9})
          for (const double facing : {0.0, 45.0, 90.0})
            same(Footprint{{120 + d, y}, facing, Length::cm(0.5), Length::cm(0.5)}, Point{100, y + 1});
  }
  CHECK(asked > 100000);
  CHECK(covered > 1000);
  // The five points and their area cover, in cover_of's order.
  const Footprint in_wood{{80, 60}, 0.0, Length::cm(20), Length::cm(10)};
  const Tabletop::CoverPoints p = t.cover_points(in_wood);
  const auto c = corners(in_wood);
  for (std::size_t k = 0; k < 4; ++k) CHECK(p.at[k] == c[k]);
  CHECK(p.at[4] == in_wood.centre);
  for (const int level : p.level) CHECK(level == 1);
}

}  // namespace t_geometry
