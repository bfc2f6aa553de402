#pragma once
// Numbers as the command line and the event log write them, in one place.
#include <array>
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/fraction.hpp"

namespace vedette {

// A modifier with its sign: "+2", "-1", "0".
inline std::string signed_str(long long v) { return (v > 0 ? "+" : "") + std::to_string(v); }

// A chance as a percentage with one decimal: "27.8%".
inline std::string pct(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", p * 100.0);
  return buf;
}
inline std::string pct(const Fraction& f) { return pct(f.value()); }

// An id as the command line spells it: "heavy_foot" -> "heavy-foot".
inline std::string dashed(std::string_view id) {
  std::string s(id);
  for (char& c : s)
    if (c == '_') c = '-';
  return s;
}

// A table of names (an enum's spellings) as a list, for "did you mean" and
// the list of accepted values in a message.
template <std::size_t N>
std::vector<std::string> names_of(const std::array<std::string_view, N>& a) {
  return {a.begin(), a.end()};
}

}  // namespace vedette
