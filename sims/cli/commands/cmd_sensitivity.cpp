// `vedette sensitivity`: which numbers of the ruleset matter in a scenario.
// Every numeric setting one step up and down, every Actions Table cell
// replaced by its neighbours' behaviours, each on the base's dice; ranked by
// effect on each outcome probability (sims/lab/sensitivity.hpp).
#include <filesystem>
#include <memory>
#include <ostream>

#include "engine/core/diagnostics.hpp"
#include "sims/cli/cli.hpp"
#include "sims/cli/lab_cli.hpp"
#include "sims/lab/bench.hpp"
#include "sims/lab/sensitivity.hpp"
#include "sims/report/report_parts.hpp"
#include "sims/report/report_sensitivity.hpp"

namespace vedette::cli {

namespace {

using namespace vedette::lab;
namespace fs = std::filesystem;

inline constexpr std::uint64_t k_sensitivity_n = 20000;

struct SensitivityCliOptions {
  LabFlags lab;
  double min_effect_pp = 1.0;
};

int run_sensitivity_cmd(const SensitivityCliOptions& o, Io& io) {
  check_lab_flags(o.lab);
  // Without SCENARIO: the default scenario, as for `vedette sim`.
  const std::string scenario_file =
      o.lab.scenario.empty() ? (fs::path(bench::shipped_scenarios_dir()) / std::string(bench::k_default_scenario)).string() : o.lab.scenario;
  check_out_dir(o.lab.out, false);
  auto scenario = open_lab_scenario(scenario_file);
  const std::string base = o.lab.ruleset.empty() ? scenario->ruleset_path() : o.lab.ruleset;
  load_ruleset(base);  // a bad base is bad input, before anything is played or written
  const RulesetDiff rule = diff_overlay(base);  // the reports start with what an overlay changes

  SensitivityOptions s;
  s.seed = o.lab.seed ? *o.lab.seed : fresh_seed();
  s.n = o.lab.n ? *o.lab.n : k_sensitivity_n;
  s.threads = thread_count(o.lab);
  s.progress = progress_stream(io);
  if (!(o.min_effect_pp >= 0 && o.min_effect_pp <= 100))
    throw UsageError("--min-effect " + vedette::lab::number(o.min_effect_pp, 2) + ": expected percentage points between 0 and 100 (e.g. 1)");
  s.min_effect = o.min_effect_pp / 100;
  check_out_dir(o.lab.out, true);

  Sensitivity res;
  int sig = 0;
  {
    SignalStop signals;
    s.stop = &signals.flag();
    res = run_sensitivity(*scenario, base, {}, s);
    sig = res.interrupted ? signals.flag().load() : 0;
  }
  RunInfo info;
  info.command = "sensitivity";
  info.scenario = scenario->name();
  info.scenario_file = scenario->file();
  info.scenario_description = scenario->description();
  info.ruleset = load_ruleset(base)->name + " (" + std::to_string(res.variants) + " variants)";
  info.seed = s.seed;
  info.requested = s.n;
  info.engagements = static_cast<std::uint64_t>(res.n);
  if (sig) info.stopped_by = signal_name(sig);
  OJson j = sensitivity_json(info, res, &rule);
  std::string report;
  if (!o.lab.out.empty()) report = write_reports(o.lab.out, sensitivity_html(info, res, 25, &rule), j);
  if (o.lab.json) print_json(io.out, j);
  else io.out << sensitivity_markdown(info, res, report, 15, &rule);
  if (sig) io.err << "vedette: stopped by " << signal_name(sig) << "; the report holds the variants played before it\n";
  return exit_status(sig);
}

}  // namespace

void add_sensitivity(CLI::App& app, Runner& run) {
  auto o = std::make_shared<SensitivityCliOptions>();
  auto* c = app.add_subcommand("sensitivity",
                               "Which numbers of the ruleset matter here: every setting one step up and down, every Actions Table cell "
                               "given its neighbours' behaviours, ranked by effect on who wins.");
  add_lab_flags(c, o->lab);
  c->get_option("SCENARIO")->required(false)->description("Scenario file (default: sims/scenarios/open_field_charge.yaml, as for sim)");
  o->lab.n_opt->description("Engagements per variant (default 20,000)");
  c->add_option("--min-effect", o->min_effect_pp,
                "PP: a real effect at least this many percentage points 'matters'; a smaller real one is only 'detectable' (default 1)");
  c->footer("Steps: whole numbers +/-1; lengths +/-1 of their unit (mm: 5); other numbers +/-10%; a band bound moves with the next band's. "
            "Every variant plays the base's engagements on the same dice (common random numbers); differences carry 95% intervals and "
            "p-values Holm-corrected over every effect: 'detectable' = p < 0.05, 'matters' = detectable and at least --min-effect pp. JSON: `effects` sorted by |delta| (a fraction).");
  c->callback([o, &run] { run = [o](Io& io) { return guarded(io, [&] { return run_sensitivity_cmd(*o, io); }); }; });
}

}  // namespace vedette::cli
