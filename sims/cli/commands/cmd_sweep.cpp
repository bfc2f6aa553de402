// `vedette sweep`: one ruleset setting over a list of values, the same
// engagements on the same dice for each; one row and one point per value.
#include <memory>
#include <ostream>

#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "sims/cli/cli.hpp"
#include "sims/cli/lab_cli.hpp"

namespace vedette::cli {

namespace {

using namespace vedette::lab;

struct SweepOptions {
  LabFlags lab;
  std::string set;
};

constexpr std::size_t k_max_sweep_values = 100;

int run_sweep(const SweepOptions& o, Io& io) {
  check_lab_flags(o.lab);
  const auto eq = o.set.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError("--set " + o.set + ": expected PATH=V1,V2,... (e.g. modifiers.hero.value=-1,-2,-3)");
  const std::string path = o.set.substr(0, eq);
  std::vector<std::string> values;  // (the current value may join them below)
  std::string rest = o.set.substr(eq + 1);
  for (std::size_t start = 0;;) {
    const auto comma = rest.find(',', start);
    std::string v = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (v.empty()) throw UsageError("--set " + o.set + ": an empty value in the list");
    values.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
    // Each value is a ruleset loaded and a run played, and a row of the report.
    if (values.size() == k_max_sweep_values)
      throw UsageError("--set: more than " + std::to_string(k_max_sweep_values) + " values; a sweep takes at most " +
                       std::to_string(k_max_sweep_values) + " (split it into several)");
  }
  check_out_dir(o.lab.out, false);

  auto scenario = open_lab_scenario(o.lab.scenario);
  const std::string base = o.lab.ruleset.empty() ? scenario->ruleset_path() : o.lab.ruleset;
  // The value the ruleset has now: the reference every value is paired
  // against, added to the sweep when the list leaves it out.
  std::string current;
  {
    const Doc root = load_ruleset_doc(base);
    const Doc* at = get_path(root, path);
    if (at && at->is_scalar()) current = at->scalar;
  }
  auto same_value = [](const std::string& a, const std::string& b) {
    if (a == b) return true;
    auto x = parse_number(a), y = parse_number(b);
    return x && y && *x == *y;
  };
  bool numeric = true;
  for (const auto& v : values) numeric = numeric && parse_number(v).has_value();
  std::size_t current_at = values.size();
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!current.empty() && same_value(values[i], current)) current_at = i;
  if (!current.empty() && current_at == values.size()) {
    // In number order among numbers; first among names.
    std::size_t at = 0;
    if (numeric && parse_number(current))
      while (at < values.size() && *parse_number(values[at]) < *parse_number(current)) ++at;
    values.insert(values.begin() + static_cast<std::ptrdiff_t>(at), current);
    current_at = at;
  }
  numeric = numeric && (current.empty() || parse_number(current).has_value());
  // Every value is loaded (and checked) before anything runs.
  std::vector<RulesetPtr> rules;
  std::vector<std::unique_ptr<Model>> models;
  for (const auto& v : values) {
    rules.push_back(load_ruleset(base, {{path, v}}));
    models.push_back(scenario->model(rules.back()));
  }

  const std::uint64_t seed = o.lab.seed ? *o.lab.seed : fresh_seed();
  const std::uint64_t n = o.lab.n ? *o.lab.n : k_default_n;
  check_out_dir(o.lab.out, true);

  RunInfo info;
  info.command = "sweep";
  info.scenario = scenario->name();
  info.scenario_file = scenario->file();
  info.scenario_description = scenario->description();
  info.ruleset = rules.front()->name + " with " + path + " swept";
  info.seed = seed;
  info.requested = n;
  Sweep w;
  w.path = path;
  w.current = current.empty() ? "(none)" : current;
  w.numeric = numeric;
  std::vector<Tally> tallies;  // kept alive: summaries point at the schemas
  int sig = 0;
  {
    SignalStop signals;
    for (std::size_t i = 0; i < values.size(); ++i) {
      // Each value plays paired with the current value (common random
      // numbers), so its difference from it is measured engagement by
      // engagement; the current value alone when it is the one.
      const bool paired = current_at < values.size() && i != current_at;
      std::vector<const Model*> ms;
      if (paired) ms.push_back(models[current_at].get());
      ms.push_back(models[i].get());
      HarnessOptions h;
      h.seed = seed;
      h.n = n;
      h.threads = thread_count(o.lab);
      h.progress = progress_stream(io);
      h.stop = &signals.flag();
      HarnessResult res = run_harness(ms, h, Sums(ms), 0);
      info.engagements += res.next;
      const Schema& sc = models[i]->schema();
      SweepPoint point{values[i], rules[i]->name, summarize(sc, res.sums.tallies.back()), i == current_at, std::nullopt};
      if (paired)
        point.vs_current = compare_figures(sc, res.sums.tallies.front(), res.sums.tallies.back(), *res.sums.paired, values[current_at], values[i]);
      w.points.push_back(std::move(point));
      if (res.stop == StopReason::interrupted) {
        sig = signals.flag().load();
        info.stopped_by = signal_name(sig);
        break;
      }
    }
  }
  OJson j = sweep_json(info, w);
  std::string report;
  if (!o.lab.out.empty()) report = write_reports(o.lab.out, sweep_html(info, w), j);
  if (o.lab.json) print_json(io.out, j);
  else io.out << sweep_markdown(info, w, report);
  if (sig) io.err << "vedette: stopped by " << signal_name(sig) << "; the sweep is partial\n";
  return exit_status(sig);
}

}  // namespace

void add_sweep(CLI::App& app, Runner& run) {
  auto o = std::make_shared<SweepOptions>();
  auto* c = app.add_subcommand("sweep", "One ruleset setting over several values: one row and one point per value, with intervals, each paired against the current value.");
  add_lab_flags(c, o->lab);
  c->add_option("--set", o->set, "PATH=V1,V2,...: a dotted path into the ruleset (modifiers.hero.value, bands.rf1.cells.6) and its values")
      ->required();
  c->footer("Every value plays the same engagements on the same dice (common random numbers), so differences between points are "
            "the setting's, not the dice's. The current value (the ruleset's own) is marked, and added when the list leaves it out; each other value's "
            "paired difference against it is given with its interval. -n is per value.");
  c->callback([o, &run] { run = [o](Io& io) { return guarded(io, [&] { return run_sweep(*o, io); }); }; });
}

}  // namespace vedette::cli
