#pragma once
// Numbers as the command line and the event log write them, in one place.
#include <cstdio>
#include <string>

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

}  // namespace vedette
