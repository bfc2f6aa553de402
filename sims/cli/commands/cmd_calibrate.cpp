// `vedette calibrate`: the value of a difficulty knob at which an outcome
// happens with a target probability, and an overlay that sets it
// (sims/lab/calibrate.hpp). --levels writes one overlay per level.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <ostream>
#include <stdexcept>

#include "engine/core/diagnostics.hpp"
#include "sims/cli/cli.hpp"
#include "sims/cli/lab_cli.hpp"
#include "sims/lab/bench.hpp"
#include "sims/io/atomic_file.hpp"
#include "sims/lab/calibrate.hpp"
#include "sims/report/report_sensitivity.hpp"

namespace vedette::cli {

namespace {

using namespace vedette::lab;
namespace fs = std::filesystem;

// The target cannot be reached by any value of the knob (README, Commands).
constexpr int k_exit_unreached = 3;

struct CalibrateCliOptions {
  LabFlags lab;
  std::string target, knob = k_default_knob, levels, write, write_dir, outcome;
};

double probability(const std::string& text, const std::string& flag) {
  auto v = parse_number(text);
  if (!v || !(*v > 0 && *v < 1)) throw UsageError(flag + ": expected a probability between 0 and 1 (e.g. 0.35), got '" + text + "'");
  return *v;
}

int run_calibrate(const CalibrateCliOptions& o, Io& io) {
  check_lab_flags(o.lab);
  // Without SCENARIO: the default scenario, as for `vedette sim`.
  const std::string scenario_file =
      o.lab.scenario.empty() ? (fs::path(bench::shipped_scenarios_dir()) / std::string(bench::k_default_scenario)).string() : o.lab.scenario;
  if (o.target.empty() == o.levels.empty())
    throw UsageError("give either --target OUTCOME=P (e.g. cavalry=0.35) or --levels NAME=P,... (e.g. easy=0.2,normal=0.35,hard=0.5)");
  if (!o.write.empty() && o.target.empty()) throw UsageError("--write goes with --target; with --levels, use --write-dir DIR");
  if (!o.write_dir.empty() && o.levels.empty()) throw UsageError("--write-dir goes with --levels; with --target, use --write FILE");
  if (!o.outcome.empty() && !o.target.empty()) throw UsageError("--outcome goes with --levels; --target names its outcome (OUTCOME=P)");
  auto scenario = open_lab_scenario(scenario_file);
  const std::string base = o.lab.ruleset.empty() ? scenario->ruleset_path() : o.lab.ruleset;

  struct Level {
    std::string name, outcome;
    double p = 0;
  };
  std::vector<Level> levels;
  if (!o.target.empty()) {
    const auto eq = o.target.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("--target " + o.target + ": expected OUTCOME=P (e.g. cavalry=0.35)");
    levels.push_back({"", o.target.substr(0, eq), probability(o.target.substr(eq + 1), "--target " + o.target)});
  } else {
    RulesetPtr r = load_ruleset(base);
    const std::string outcome = o.outcome.empty() ? scenario->model(r)->schema().outcome_ids.front() : o.outcome;
    std::size_t start = 0;
    for (;;) {
      const auto comma = o.levels.find(',', start);
      const std::string item = o.levels.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      const auto eq = item.find('=');
      if (eq == std::string::npos || eq == 0) throw UsageError("--levels: '" + item + "': expected NAME=P (e.g. easy=0.2)");
      const std::string name = item.substr(0, eq);
      for (char ch : name)
        if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_'))
          throw UsageError("--levels: level name '" + name + "': use letters, digits, - and _ (it names the file NAME.yaml)");
      for (const auto& l : levels)
        if (l.name == name) throw UsageError("--levels: level '" + name + "' given twice");
      levels.push_back({name, outcome, probability(item.substr(eq + 1), "--levels " + name)});
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  if (!o.write.empty()) check_writable_file_path(o.write, "--write");
  if (!o.write_dir.empty()) {
    std::error_code ec;
    if (fs::exists(o.write_dir, ec) && !fs::is_directory(o.write_dir, ec)) throw UsageError("--write-dir " + o.write_dir + ": is a file, not a folder");
  }

  CalibrateOptions c;
  c.knob = o.knob;
  c.seed = o.lab.seed ? *o.lab.seed : fresh_seed();
  c.n = o.lab.n ? *o.lab.n : 20000;
  c.threads = thread_count(o.lab);
  c.progress = progress_stream(io);
  std::vector<CalibrateResult> results;
  int sig = 0;
  {
    SignalStop signals;
    c.stop = &signals.flag();
    for (const auto& l : levels) {
      c.outcome = l.outcome;
      c.target = l.p;
      CalibrateResult r;
      try {
        r = calibrate(*scenario, base, c);
      } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
      }
      r.level = l.name;
      if (r.interrupted) {
        sig = signals.flag().load();
        break;
      }
      results.push_back(std::move(r));
    }
  }
  if (sig) {
    io.err << "vedette: stopped by " << signal_name(sig) << "; nothing written\n";
    return exit_status(sig);
  }
  // A target no value of the knob reaches: say so, write nothing, exit 3.
  const bool missed = std::any_of(results.begin(), results.end(), [](const CalibrateResult& r) { return !r.reached; });
  if (!missed && !o.write_dir.empty()) {
    std::error_code ec;
    fs::create_directories(o.write_dir, ec);
    if (ec) throw UsageError("--write-dir " + o.write_dir + ": cannot make the folder: " + ec.message());
  }
  for (auto& r : results) {
    if (missed) break;
    const std::string file = !o.write.empty() ? o.write : !o.write_dir.empty() ? (fs::path(o.write_dir) / (r.level + ".yaml")).string() : "";
    if (file.empty()) continue;
    write_file_atomically(file, overlay_text(r, file));
    r.overlay_file = file;
  }
  if (o.lab.json) {
    if (results.size() == 1 && o.levels.empty()) {
      print_json(io.out, calibrate_json(results.front()));
    } else {
      OJson j;
      j["levels"] = OJson::array();
      for (const auto& r : results) j["levels"].push_back(calibrate_json(r));
      print_json(io.out, j);
    }
  } else {
    io.out << "# vedette calibrate: " << scenario->name() << " (" << scenario->file() << ")\n\n";
    for (const auto& r : results) io.out << calibrate_markdown(r);
  }
  if (missed) {
    for (const auto& r : results)
      if (!r.reached)
        io.err << "vedette: calibrate: " << (r.level.empty() ? "" : "level '" + r.level + "': ") << "no value of " << r.knob
               << " the search could play reaches " << r.outcome_label << " " << r.target * 100 << "%; nothing written\n";
    return k_exit_unreached;
  }
  return 0;
}

}  // namespace

void add_calibrate(CLI::App& app, Runner& run) {
  auto o = std::make_shared<CalibrateCliOptions>();
  auto* c = app.add_subcommand("calibrate",
                               "Find the difficulty that makes an outcome happen with a given probability, and write it as an overlay.");
  c->add_option("SCENARIO", o->lab.scenario, "Scenario file (default: sims/scenarios/open_field_charge.yaml, as for sim)");
  c->add_option("--ruleset", o->lab.ruleset, "Ruleset to calibrate instead of the scenario's own");
  c->add_option("--target", o->target, "OUTCOME=P: the outcome and its wanted probability (e.g. cavalry=0.35)");
  c->add_option("--knob", o->knob, "The setting to tune: a dotted path to a number (default difficulty.rf_offset)");
  c->add_option("--levels", o->levels, "NAME=P,...: one calibration per level (e.g. easy=0.2,normal=0.35,hard=0.5)");
  c->add_option("--outcome", o->outcome, "With --levels: the outcome the levels are for (default: the scenario's first, its first side winning)");
  c->add_option("--write", o->write, "Write the overlay (a ruleset extending the base) to this file");
  c->add_option("--write-dir", o->write_dir, "With --levels: write NAME.yaml per level into this folder (made if missing)");
  o->lab.n_opt = c->add_option("-n", o->lab.n, "Engagements per value tried (default 20,000)")->check(unsigned_number());
  c->add_option("--seed", o->lab.seed, "Seed: every value tried plays the same engagements on the same dice (default: a fresh one)")
      ->check(unsigned_number());
  o->lab.threads_opt = c->add_option("--threads", o->lab.threads, "Worker threads (default: the machine's cores); never changes a number")
                           ->check(unsigned_number());
  c->add_flag("--json", o->lab.json, "Print {knob, value, target, achieved: {p, lo, hi, n}, overlay} as JSON");
  c->footer("Stochastic root-finding on common random numbers: the knob's values are tried on the same dice, bracketing the target "
            "then bisecting, until the target lies within the achieved 95% interval (+/-1 pp at most) or the knob's resolution "
            "is reached (1 for a whole number; 1/6 for difficulty.rf_offset, whose value -2 + 4/6 is the offset -2 with faces 1-4 "
            "reading the next band's row where a band ends, written into the overlay's bands). `vedette sim --ruleset OVERLAY` with the same seed and -n reproduces achieved.p. "
            "Exit 3 when no value the search could play reaches the target: the report says so and nothing is written.");
  c->callback([o, &run] { run = [o](Io& io) { return guarded(io, [&] { return run_calibrate(*o, io); }); }; });
}

}  // namespace vedette::cli
