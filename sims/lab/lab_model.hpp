#pragma once
// What the balance lab needs from an engagement, and nothing more: a Schema
// naming the figures one engagement yields (outcome categories, integer
// metrics, RF band x behaviour counts, charge funnels, pooled rates), an
// OutcomeRow holding one engagement's figures, and a Model whose Players fill
// rows from (seed, index). The harness, statistics and reports only see this;
// adapters turn an engine's Outcome (or a synthetic engagement) into rows.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/decision/ruleset.hpp"

namespace vedette::lab {

// Every metric is a whole number in [0, k_metric_limit) (counts, turns), and
// a run has at most k_max_engagements: then every sum and cross product the
// statistics keep is exact in 64 bits (2^16 * 2^16 * 2^31 = 2^63), so
// accumulators can merge in any order and still agree to the last bit.
inline constexpr std::int64_t k_metric_limit = std::int64_t{1} << 16;
inline constexpr std::uint64_t k_max_engagements = (std::uint64_t{1} << 31) - 1;

enum class MetricKind : std::uint8_t {
  turns,   // the engagement's length: charted as the turns histogram
  losses,  // a side's figures lost: charted as a loss distribution
  count,   // any other count
};

struct MetricDef {
  std::string id;     // CSV column and JSON key: "cavalry_figures_lost"
  std::string label;  // "Cavalry: figures lost"
  MetricKind kind = MetricKind::count;
  int hist_max = -1;  // histogram of values 0..hist_max and one bin for more; -1: none
};

// A funnel: charges declared -> launched -> stood / broke / repulsed. Each
// stage is a metric; its share is reported against its parent stage's total.
struct FunnelStage {
  std::string id;
  std::string label;
  std::size_t metric = 0;
  int parent = -1;  // index of the parent stage; -1 for the first
};
struct Funnel {
  std::string id;
  std::string label;
  std::vector<FunnelStage> stages;
};

// A pooled rate: sum of one metric over the sum of another (morale checks
// passed / morale checks taken).
struct RateDef {
  std::string id;
  std::string label;
  std::size_t num = 0;
  std::size_t den = 0;
};

struct Schema {
  std::string title;
  std::vector<std::string> outcome_ids;     // "cavalry", "infantry", "draw"
  std::vector<std::string> outcome_labels;  // "Cavalry wins"
  // Per side (outcome i < sides is side i winning): its name and its role,
  // "automated" or "other" (sims/scenarios/README.md), by which `vedette
  // compare` matches sides across scenarios. Empty for a synthetic scenario.
  std::vector<std::string> side_names, side_roles;
  // Per metric (empty, or as long as metrics): a side's counter's side
  // index (-1: the engagement's, such as turns) and its id without the side
  // ("figures_lost").
  std::vector<int> metric_side;
  std::vector<std::string> metric_counter;
  std::vector<MetricDef> metrics;
  std::vector<std::string> band_ids, band_labels;            // the ruleset's RF bands
  std::vector<std::string> behaviour_ids, behaviour_labels;  // the ruleset's behaviours
  std::vector<Funnel> funnels;
  std::vector<RateDef> rates;

  std::size_t outcomes() const { return outcome_ids.size(); }
  // The outcome vector: one indicator per outcome category, then the metrics.
  std::size_t dims() const { return outcome_ids.size() + metrics.size(); }
  std::size_t bands() const { return band_ids.size(); }
  std::size_t behaviours() const { return behaviour_ids.size(); }
  std::size_t metric_index(const std::string& id) const;  // throws std::out_of_range
  // A text that changes whenever the shape changes (checkpoints carry it).
  std::string shape() const;
};

// One engagement's figures. Sized once from the schema and reused: reset()
// zeroes it without allocating.
struct OutcomeRow {
  std::size_t outcome = 0;              // index into Schema::outcome_ids
  std::vector<std::int64_t> metrics;    // by Schema::metrics
  std::vector<std::uint32_t> chosen;    // [band * behaviours + behaviour]: Actions Table decisions

  OutcomeRow() = default;
  explicit OutcomeRow(const Schema& s) : metrics(s.metrics.size(), 0), chosen(s.bands() * s.behaviours(), 0) {}
  void reset();
};

// Plays engagements for one thread; may keep scratch space between calls.
class Player {
 public:
  virtual ~Player() = default;
  // Engagement `index` of the run seeded `seed`: its dice come only from
  // make_stream(seed, index, subsystem). Fills `row` (already reset).
  virtual void play(std::uint64_t seed, std::uint64_t index, OutcomeRow& row) = 0;
};

// A scenario under one ruleset: immutable, shared by all threads.
class Model {
 public:
  virtual ~Model() = default;
  virtual const Schema& schema() const = 0;
  virtual std::unique_ptr<Player> player() const = 0;
};

// A scenario file the lab can play, before a ruleset is chosen.
class LabScenario {
 public:
  virtual ~LabScenario() = default;
  virtual const std::string& name() const = 0;
  virtual const std::string& description() const = 0;
  virtual const std::string& file() const = 0;
  // The ruleset the scenario names (a path or builtin:NAME), for --set edits.
  virtual const std::string& ruleset_path() const = 0;
  virtual RulesetPtr rules() const = 0;  // the scenario's own ruleset
  // The scenario played under `rules` (null: its own).
  virtual std::unique_ptr<Model> model(RulesetPtr rules) const = 0;
};

// Opens a scenario file: a synthetic one (`synthetic:` first key, see
// sims/lab/toy_engagement.hpp) or an engine scenario. Throws LoadError.
std::unique_ptr<LabScenario> open_lab_scenario(const std::string& path);

// The engine's scenarios (sims/scenarios/*.yaml), adapted in
// sims/lab/engine_model.cpp.
std::unique_ptr<LabScenario> open_engine_scenario(const std::string& path);

// A 16-hex-digit fingerprint of what a run plays: the scenario file's bytes,
// each ruleset source's bytes, the edits. Checkpoints carry it so a resume
// with other inputs is refused.
std::string run_fingerprint(const LabScenario& s, const Ruleset& r,
                            const std::vector<std::pair<std::string, std::string>>& edits);

}  // namespace vedette::lab
