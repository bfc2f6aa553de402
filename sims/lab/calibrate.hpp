#pragma once
// `vedette calibrate`: the value of one ruleset setting (a difficulty knob,
// by default difficulty.rf_offset) at which an outcome of a scenario happens
// with a target probability. Stochastic root-finding on common random
// numbers: every value tried plays the same engagements on the same dice, so
// the outcome probability is a step function of the knob and the search
// brackets the target, then bisects, until the target lies within the 95%
// interval of a value tried (and that interval is within +/-1 pp) or two
// neighbouring values a resolution apart bracket it. The answer is the
// value tried whose probability is nearest the target. The default knob
// moves in sixths: between two whole offsets n and n + 1, n + k/6 mixes their
// tables face by face (faces 1 to k read the next band's row where a band
// ends), which the overlay writes as bands of its own (calibrate.cpp).
#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "sims/lab/lab_model.hpp"
#include "sims/lab/stats.hpp"

namespace vedette::lab {

inline constexpr const char* k_default_knob = "difficulty.rf_offset";

struct CalibrateOptions {
  std::string knob = k_default_knob;
  std::string outcome;  // an outcome id of the scenario
  double target = 0;    // 0..1
  std::uint64_t seed = 0;
  std::uint64_t n = 20000;  // engagements per value tried
  unsigned threads = 1;
  int max_tries = 24;
  std::ostream* progress = nullptr;
  const std::atomic<int>* stop = nullptr;
};

struct Try {
  std::string value;
  Proportion p;
  std::vector<Proportion> all;  // every outcome at this value (by outcome_ids)
};

struct CalibrateResult {
  std::string scenario_file, ruleset_path, ruleset_name;
  std::string knob, from;   // the knob and its value in the base ruleset
  std::string value;        // the value found, as written ("-2 + 4/6" for a fractional rf_offset)
  double value_number = 0;  // the value found
  bool sixths = false;      // difficulty.rf_offset, in steps of 1/6 (calibrate.cpp: Sixths)
  std::string outcome, outcome_label;
  std::vector<std::string> outcome_ids, outcome_labels;  // every outcome of the scenario
  double target = 0;
  Proportion achieved;
  std::vector<Proportion> all;  // every outcome at the value found (by outcome_ids)
  // The target lies between two values tried (or within achieved's
  // interval): false means no value of the knob the search could play gets
  // there, and calibrate writes nothing (exit 3).
  bool reached = false;
  std::uint64_t seed = 0;
  bool within = false;      // the target lies within achieved's interval
  bool resolution = false;  // stopped because neighbouring values bracket the target
  bool interrupted = false;
  std::vector<Try> tries;   // in the order tried
  std::string level;        // --levels: its name ("easy")
  std::string overlay_file; // where the overlay was written ("" if not)
};

// Throws cli-free std::invalid_argument naming the problem for a knob that
// is not a number in the ruleset or an outcome the scenario does not have,
// and LoadError if the base ruleset does not load.
CalibrateResult calibrate(const LabScenario& scenario, const std::string& ruleset_path, const CalibrateOptions& o);

// The overlay that sets the knob to the value found, to be written to
// `file` (its `extends:` is made relative to the file's folder), with the
// measured probability in its comments.
std::string overlay_text(const CalibrateResult& c, const std::string& file);

// "Cavalry wins 19.5% [19.0, 20.1], Infantry wins ..., Draw ...": every
// outcome of `all` (by c.outcome_labels) with its 95% interval.
std::string outcomes_text(const CalibrateResult& c, const std::vector<Proportion>& all);
// A proportion with its interval, as the reports write it.
std::string proportion_text(const Proportion& p);

}  // namespace vedette::lab
