#pragma once
// `vedette sensitivity`: which numbers of a ruleset matter in a scenario.
// Every numeric setting one step up and one step down, every Actions Table
// cell replaced by each neighbouring cell's behaviour; each variant played on
// the same dice as the base (common random numbers) and its effect on every
// outcome probability measured as a paired difference, with a 95% interval
// and a Holm-corrected p-value over all the effects.
//
// Steps (docs/balance-lab.md): a whole number +/-1; a length +/-1 of its
// unit (cm, in; mm: +/-5mm); any other number +/-10% of its value (0: +/-0.1).
// Band bounds move together: the boundary between two bands moves by 1 (the
// lower band's max and the next band's min), so the bands still cover every
// RF. A variant the loader refuses (a face given twice, a value out of its
// range) is not played; it is listed as skipped, with the loader's reason.
#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/doc.hpp"
#include "sims/lab/lab_model.hpp"
#include "sims/lab/stats.hpp"

namespace vedette::lab {

using Edits = std::vector<std::pair<std::string, std::string>>;

// One variant of the ruleset: `setting` (a dotted path, as for --set) changed
// by `change` ("+1", "-10%", "-> gallop_advance_charge (face 6)").
struct Variant {
  std::string setting;
  std::string words;  // the setting in words (setting_words): "Melee: figures per die"
  std::string change;
  std::string from, to;  // the value before and after (the first edit's)
  Edits edits;
};

// Every variant of a merged ruleset document (load_ruleset_doc), in the
// document's order: numbers first as they come, then Actions Table cells.
std::vector<Variant> sensitivity_variants(const Doc& ruleset);

// A setting's dotted path in words, from the ruleset's own texts where it
// has them (a modifier's text, a band's label, a weapon's name) and its keys
// otherwise: "combat.melee.figures_per_die" -> "Combat, melee: figures per
// die"; "bands.rf2_5.cells.6" -> "Actions Table, 'RF2-5', face 6".
std::string setting_words(const Doc& root, const std::string& path);

// The step of one number as written ("30cm", "0.25", "+1"): the value one
// step up (dir +1) or down (-1), written the same way; empty if the text is
// not a number.
std::string step_value(const std::string& text, int dir);

struct Effect {
  std::string setting, change, from, to;
  std::string words;    // the setting in words (Variant::words)
  std::string outcome;  // an outcome id
  Difference diff;      // variant - base, paired, in probability (0..1)
  double p_holm = k_nan;
  bool real = false;    // p_holm < 0.05: detectable
  bool matters = false; // real, and |delta| >= Sensitivity::min_effect
  std::int64_t differ = 0;  // engagements whose outcome changed
};

struct Skipped {
  std::string setting, change, why;
};

struct SensitivityOptions {
  std::uint64_t seed = 0;
  std::uint64_t n = 20000;  // engagements per variant (and for the base)
  unsigned threads = 1;
  std::size_t batch = 16;   // variants played beside one base run
  // Runs of at most this many engagements play the base once and keep its
  // outcomes (one byte each); longer runs play it beside every batch.
  std::uint64_t keep_base = std::uint64_t{1} << 27;
  double min_effect = 0.01; // --min-effect: a real effect this large (a fraction) "matters"
  std::ostream* progress = nullptr;
  const std::atomic<int>* stop = nullptr;
};

struct Sensitivity {
  std::vector<std::string> outcome_ids, outcome_labels;
  std::vector<std::string> side_roles;  // Schema::side_roles: outcome k < sides is side k winning
  std::vector<Proportion> base;    // the base's outcome probabilities
  std::int64_t n = 0;              // engagements per variant
  std::vector<Effect> effects;     // sorted by |delta|, largest first
  double min_effect = 0.01;        // SensitivityOptions::min_effect
  std::vector<Skipped> skipped;
  std::size_t variants = 0;        // played
  std::size_t unchanged = 0;       // played variants that changed no outcome of any engagement
  bool interrupted = false;        // stopped by a signal: the variants played so far
};

// Plays the base ruleset (`ruleset_path`, merged, with `base_edits`) and
// every variant on `scenario`. Throws LoadError if the base does not load.
Sensitivity run_sensitivity(const LabScenario& scenario, const std::string& ruleset_path, const Edits& base_edits,
                            const SensitivityOptions& o);

}  // namespace vedette::lab
