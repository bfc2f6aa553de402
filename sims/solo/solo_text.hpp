#pragma once
// Internal to sims/solo's files: small words they share.
#include <string>
#include <vector>

namespace vedette::solo {

// Dice as shown: "[3 5]".
inline std::string dice_text(const std::vector<int>& d) {
  std::string t = "[";
  for (std::size_t k = 0; k < d.size(); ++k) t += (k ? " " : "") + std::to_string(d[k]);
  return t + "]";
}

}  // namespace vedette::solo
