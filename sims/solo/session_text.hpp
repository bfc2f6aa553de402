#pragma once
// Internal to sims/solo's files: what one session file writes and another
// reads back (session.cpp, session_write.cpp, session_read.cpp), and small
// words the steps share.
#include <cstdint>
#include <string>
#include <vector>

#include "sims/solo/session.hpp"

namespace vedette::solo {

// Whether an event needs file version 4, or 3 (needed_version() asks; the
// reader checks a file's version against them).
bool needs_version_6(const Event& e);
bool needs_version_4(const Event& e);
bool needs_version_3(const Header& h, const Event& e);

namespace detail {
// A YAML boolean as written.
inline const char* b(bool v) { return v ? "true" : "false"; }
}  // namespace detail

// The `memory:` section as written: reading compares a file's own with it.
std::string memory_text(const Header& h, const State& s, std::uint64_t next_roll);

// Dice as shown: "[3 5]".
inline std::string dice_text(const std::vector<int>& d) {
  std::string t = "[";
  for (std::size_t k = 0; k < d.size(); ++k) t += (k ? " " : "") + std::to_string(d[k]);
  return t + "]";
}

}  // namespace vedette::solo
