#pragma once
// What the skirmish's source files share (engine/modules/skirmish/skirmish.cpp,
// skirmish_fire.cpp, skirmish_move.cpp): the event macro and small geometry.
// Internal to engine/modules/skirmish.
#include <algorithm>

#include "engine/modules/skirmish/skirmish.hpp"

// An event's words are built only when a recorder listens (the Monte Carlo
// attaches none): the arguments are not evaluated otherwise. For use inside
// SkirmishGame's members.
#define SK_EMIT(...)            \
  do {                          \
    if (rec_) emit(__VA_ARGS__); \
  } while (false)

namespace vedette::skirmish_detail {

inline constexpr double k_in = 2.54;

inline bool is_foot(const SkFigure& f) { return f.active() && !f.mounted(); }

// Distance from p to the segment a-b.
inline double seg_dist(Point p, Point a, Point b) {
  const Point ab = b - a;
  const double l2 = dot(ab, ab);
  double t = l2 > 0 ? dot(p - a, ab) / l2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return euclid_cm(p, a + ab * t);
}

}  // namespace vedette::skirmish_detail
