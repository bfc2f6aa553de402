#pragma once
// Risk factor: facts in, total out, with the breakdown of every modifier
// that applied, its value and why.
#include <string>
#include <vector>

#include "engine/core/facts.hpp"
#include "engine/decision/ruleset.hpp"

namespace vedette {

struct RfTerm {
  const Modifier* modifier;
  int value;
  std::string reason;  // the modifier's text, with counts where they matter
};

struct RiskFactor {
  int total = 0;
  std::vector<RfTerm> breakdown;
};

// The value one modifier adds for these facts (0 when it does not apply).
int modifier_value(const Modifier& m, const Facts& f);

// The total alone: no allocation, for the engagement loop.
int rf_total(const Ruleset& r, const Facts& f);

// The total and why.
RiskFactor compute_rf(const Ruleset& r, const Facts& f);

}  // namespace vedette
