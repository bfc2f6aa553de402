#pragma once
// Risk factor: facts in, total out, with the breakdown of every modifier
// that applied, its value and why.
#include <array>
#include <cstdint>
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

// rf_total's answer from a table made once per ruleset (issue 32,
// fourteenth pass: the bot's decision). An all/any modifier asks only
// whether each of its facts holds (f[x] != 0), so the sum of all of them
// is a function of which of the facts they name hold: the table keeps
// that sum, modifier_value's own answers summed, for every combination of
// those facts (each 0 or 1), indexed by their bits; total() reads the bits
// off the facts, looks the sum up and adds each `per` modifier's
// modifier_value. Integers summed in another order: the same total for
// every Facts. A ruleset whose all/any modifiers name more than
// k_table_facts facts is left to rf_total (usable() false).
class RfTable {
 public:
  RfTable() = default;
  explicit RfTable(const Ruleset& r);
  bool usable() const { return usable_; }
  int total(const Facts& f) const;
  static constexpr std::size_t k_table_facts = 10;  // a table of 1024 sums at most

 private:
  std::array<Fact, k_table_facts> asked_{};  // the facts all/any modifiers name, bit k for asked_[k]
  std::size_t n_asked_ = 0;
  std::vector<int> sums_;                    // [bits]: the all/any modifiers' sum
  std::vector<const Modifier*> per_;         // the `per` modifiers, in the ruleset's order
  bool usable_ = false;
};

// The total and why.
RiskFactor compute_rf(const Ruleset& r, const Facts& f);

}  // namespace vedette
