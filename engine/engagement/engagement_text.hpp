#pragma once
// Small helpers the engagement's files share (engagement.cpp,
// engagement_movement.cpp, engagement_fighting.cpp, engagement_charge.cpp): lengths of the table's geometry and the words of
// the event log. Internal to engine/engagement.
#include <string>
#include <vector>

#include "engine/board/geometry.hpp"
#include "engine/core/record.hpp"
#include "engine/core/words.hpp"

namespace vedette::engagement_detail {

inline constexpr double kFar = 1.0e5;     // cm: a destination beyond any table
inline constexpr double kTouch = 1.0e-3;  // cm: units this close are in contact

inline Point unit_vector(Point from, Point to) {
  const Point d = to - from;
  const double n = norm(d);
  return n > 0 ? d * (1.0 / n) : direction(0.0);
}

inline std::string faces_str(const std::vector<int>& f) {
  std::string s;
  for (int x : f) s += (s.empty() ? "" : " ") + std::to_string(x);
  return "[" + s + "]";
}

inline DiceFaces faces_data(const std::vector<int>& f) { return DiceFaces(f.begin(), f.end()); }

}  // namespace vedette::engagement_detail
