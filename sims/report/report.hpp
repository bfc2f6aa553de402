#pragma once
// Reports of the balance lab, derived at the end from the exact sums:
// Summary (every figure with its interval and the count it rests on), then
// the same figures as Markdown (stdout), JSON (summary.json), HTML with
// inline SVG charts (report.html, no scripts) and the per-engagement CSV.
// Nothing here depends on timing or on the thread count, so the files of one
// run are byte-identical however it was run.
#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/decision/ruleset.hpp"
#include "sims/lab/lab_model.hpp"
#include "sims/lab/stats.hpp"

namespace vedette::lab {

using OJson = nlohmann::ordered_json;

// What was run (goes at the top of every report).
struct RunInfo {
  std::string command;  // sim, compare, sweep
  std::string scenario, scenario_file, scenario_description;
  std::string ruleset;  // the ruleset's name (sim, sweep) or "baseline vs variant"
  std::uint64_t seed = 0;
  std::uint64_t requested = 0;  // -n
  std::uint64_t engagements = 0;  // summed
  std::optional<double> precision;  // target half width (a fraction)
  bool precision_met = false;
  std::string stopped_by;  // "" (ran to the end), "precision", "SIGINT", "SIGTERM"
  bool partial() const { return stopped_by == "SIGINT" || stopped_by == "SIGTERM"; }
};

struct MetricFigures {
  std::int64_t total = 0;
  Mean all;
  std::vector<Mean> by_outcome;  // split by winner
  Proportion nonzero;            // engagements where it was > 0
  std::int64_t min = 0, max = 0;
};

struct StageFigures {
  std::int64_t total = 0;  // over all engagements
  Mean per_engagement;
  Proportion of_parent;    // share of the parent stage's total (n = parent total); none for the first
  std::int64_t engagements = 0;  // engagements where the stage happened
};

struct RateFigures {
  Proportion p;                  // pooled: sum num / sum den (n = sum den)
  std::int64_t engagements = 0;  // engagements with den > 0
};

struct Summary {
  const Schema* schema = nullptr;
  std::int64_t n = 0;
  std::vector<Proportion> outcomes;
  std::vector<MetricFigures> metrics;
  std::vector<std::int64_t> band_decisions, band_engagements;
  std::vector<std::vector<Proportion>> behaviour;  // [band][behaviour] of the band's decisions
  std::vector<std::vector<StageFigures>> funnels;  // [funnel][stage]
  std::vector<RateFigures> rates;
  Eigen::MatrixXd covariance, correlation;  // over the outcome vector (NaN where undefined)
};
Summary summarize(const Schema& s, const Tally& t);

// ---------------------------------------------------------------- sim
// One line: each outcome's probability and the mean length (the top of the report).
std::string sim_headline(const Summary& s);
std::string sim_markdown(const RunInfo& info, const Summary& s, const std::string& report_path);
OJson sim_json(const RunInfo& info, const Summary& s, const Tally& t);
std::string sim_html(const RunInfo& info, const Summary& s, const Tally& t);

// ------------------------------------------------------------ compare
struct CompareRow {
  std::string id, label;
  // Across scenarios the row is matched by `key`: a side's figure by the
  // side's role ("win:automated", "automated:figures_lost"), any other by id.
  std::string key;
  std::string side;           // the side's name ("" for turns, draws)
  std::string role;           // the side's role ("" for turns, draws)
  bool probability = false;   // an outcome probability (Wilson) or a mean
  Proportion p_base, p_variant;
  Mean m_base, m_variant;
  Difference diff;            // variant - baseline, paired
  std::int64_t differ = 0;    // engagements where the two differ
  double p_holm = k_nan;      // Holm-adjusted over all rows
  bool real = false;          // p_holm < 0.05
};
struct Comparison {
  std::string baseline, variant;  // ruleset names (or files)
  std::vector<CompareRow> rows;
  Summary base, var;
  std::optional<RulesetDiff> rule;  // what the variant changes: the report starts with it
};
Comparison compare_figures(const Schema& s, const Tally& base, const Tally& var, const PairedTally& d,
                           std::string baseline_name, std::string variant_name);
std::string compare_markdown(const RunInfo& info, const Comparison& c, const std::string& report_path);
OJson compare_json(const RunInfo& info, const Comparison& c);
std::string compare_html(const RunInfo& info, const Comparison& c);
// One line: what moved and by how much (the top of the report).
std::string compare_headline(const RunInfo& info, const Comparison& c);

// Several scenarios, one comparison each (same rulesets, seed and -n):
// the differences side by side, a figure flagged where it moves really up
// in one scenario and really down in another (a sign flip), then each
// scenario's own table.
struct SideBySideRow {
  std::string id, label;  // id: the key rows are matched by; label: in the roles' words where sides differ by name
  std::string role;       // a side's figure: its role ("automated", "other"); "" otherwise
  bool probability = false;
  std::vector<const CompareRow*> cells;  // per scenario; null where the scenario has no such figure
  bool sign_flip = false;                // real and positive in one, real and negative in another
};
std::vector<SideBySideRow> side_by_side(const std::vector<Comparison>& cs);
std::string compare_many_headline(const std::vector<RunInfo>& infos, const std::vector<Comparison>& cs);
std::string compare_many_markdown(const std::vector<RunInfo>& infos, const std::vector<Comparison>& cs, const std::string& report_path);
OJson compare_many_json(const std::vector<RunInfo>& infos, const std::vector<Comparison>& cs);
std::string compare_many_html(const std::vector<RunInfo>& infos, const std::vector<Comparison>& cs);

// -------------------------------------------------------------- sweep
struct SweepPoint {
  std::string value;
  std::string ruleset;  // the edited ruleset's name
  Summary summary;
  bool current = false;  // the value the ruleset has now
  // Paired differences against the current value's point, engagement by
  // engagement (none for the current value itself).
  std::optional<Comparison> vs_current;
};
struct Sweep {
  std::string path;     // the ruleset path swept
  std::string current;  // its value in the ruleset swept
  bool numeric = false; // every value a number: a line; otherwise points
  std::vector<SweepPoint> points;
};
std::string sweep_headline(const Sweep& w);
std::string sweep_markdown(const RunInfo& info, const Sweep& w, const std::string& report_path);
OJson sweep_json(const RunInfo& info, const Sweep& w);
std::string sweep_html(const RunInfo& info, const Sweep& w);

// ---------------------------------------------------------- rule diff
// What a house rule changes against its base (vedette table --diff; the
// compare and sensitivity reports start with it): one line or row per
// setting, with the file and line it was written at.
std::string rule_diff_text(const RulesetDiff& d);      // for a terminal
std::string rule_diff_markdown(const RulesetDiff& d);  // a section: heading and table
std::string rule_diff_html(const RulesetDiff& d);      // a section: <h2> and a scrolling table
OJson rule_diff_json(const RulesetDiff& d);            // {base, variant, changes: [{path, before, after, file, line, column}]}

// ---------------------------------------------------------------- CSV
// engagements.csv: one row per engagement. Columns: engagement (the index i
// of make_stream(seed, i, ...)), [model,] winner (an outcome id), one column
// per metric (its id), then decisions_BAND (Actions Table decisions in each
// RF band). docs/balance-lab.md documents them.
std::string csv_header(const Schema& s, bool with_model);
// Appends one row to `out` without allocating once `out` has grown.
void csv_row(std::string& out, const Schema& s, std::uint64_t index, const OutcomeRow& row, const char* model);

// ---------------------------------------------------------- formatting
std::string percent(double p, int decimals = 1);       // "53.2%"
std::string number(double v, int decimals = 2);        // "4.31"; NaN: "n/a"
std::string html_escape(const std::string& s);
// JSON for figures (NaN: null).
OJson json_number(double v);
OJson json_proportion(const Proportion& p);
OJson json_mean(const Mean& m);
// Copies every key of the object `from` into `into`, in order.
void put_all(OJson& into, const OJson& from);

}  // namespace vedette::lab
