// `vedette compare`: two rulesets (a house rule against the base) on the same
// scenarios and the same dice, engagement by engagement; paired differences,
// per scenario and side by side, with sign flips flagged.
#include <cmath>
#include <memory>
#include <ostream>

#include "engine/core/diagnostics.hpp"
#include "sims/lab/checkpoint.hpp"
#include "sims/cli/cli.hpp"
#include "sims/cli/lab_cli.hpp"

namespace vedette::cli {

namespace {

using namespace vedette::lab;

struct CompareOptions {
  LabFlags lab;
  std::string baseline, variant;
  std::string checkpoint, resume;
  double checkpoint_every = 10;
};

constexpr std::size_t k_max_scenarios = 20;

std::string shown_name(const Ruleset& r, const std::string& file) {
  return file.empty() ? r.name + " (the scenario's)" : r.name + " (" + file + ")";
}

// One scenario, loaded and checked before anything runs.
struct Prepared {
  std::unique_ptr<LabScenario> scenario;
  RulesetPtr base;
  std::unique_ptr<Model> mb, mv;
  RulesetDiff diff;
};

bool same_changes(const RulesetDiff& a, const RulesetDiff& b) {
  if (a.changes.size() != b.changes.size()) return false;
  for (std::size_t i = 0; i < a.changes.size(); ++i)
    if (a.changes[i].path != b.changes[i].path || a.changes[i].before != b.changes[i].before || a.changes[i].after != b.changes[i].after) return false;
  return true;
}

int run_compare(const CompareOptions& o, Io& io) {
  check_lab_flags(o.lab);
  const auto& files = o.lab.scenarios;
  if (files.size() > k_max_scenarios)
    throw UsageError("SCENARIO: " + std::to_string(files.size()) + " scenarios; a comparison takes at most " + std::to_string(k_max_scenarios));
  if (o.checkpoint_every < 0 || !std::isfinite(o.checkpoint_every)) throw UsageError("--checkpoint-every: expected seconds, 0 or more");
  const std::string checkpoint_file = !o.checkpoint.empty() ? o.checkpoint : o.resume;
  if (!checkpoint_file.empty() && files.size() > 1)
    throw UsageError(std::string(o.checkpoint.empty() ? "--resume" : "--checkpoint") + ": a checkpoint holds one scenario's comparison; give one SCENARIO");
  check_out_dir(o.lab.out, false);
  if (!checkpoint_file.empty()) check_writable_file_path(checkpoint_file, o.checkpoint.empty() ? "--resume" : "--checkpoint");

  RulesetPtr var = load_ruleset(o.variant);
  RulesetPtr given_base = o.baseline.empty() ? nullptr : load_ruleset(o.baseline);
  std::vector<Prepared> all;
  for (const auto& f : files) {
    Prepared p;
    p.scenario = open_lab_scenario(f);
    p.base = given_base ? given_base : p.scenario->rules();
    p.mb = p.scenario->model(p.base);
    p.mv = p.scenario->model(var);
    const Schema& sb = p.mb->schema();
    const Schema& sv = p.mv->schema();
    bool same = sb.outcome_ids == sv.outcome_ids && sb.metrics.size() == sv.metrics.size();
    for (std::size_t i = 0; same && i < sb.metrics.size(); ++i) same = sb.metrics[i].id == sv.metrics[i].id;
    if (!same)
      throw UsageError("--variant " + o.variant + ": in " + f + " its engagements yield other figures than the baseline's; they cannot be compared");
    p.diff = diff_rulesets(o.baseline.empty() ? p.scenario->ruleset_path() : o.baseline, o.variant);
    all.push_back(std::move(p));
  }

  RunIdentity id;
  id.command = "compare";
  const Model* first_models[] = {all.front().mb.get(), all.front().mv.get()};
  id.fingerprint = run_fingerprint(*all.front().scenario, *all.front().base, {}) + run_fingerprint(*all.front().scenario, *var, {});
  Sums first_sums(first_models);
  std::uint64_t next = 0;
  if (!o.resume.empty()) {
    Checkpoint c = read_checkpoint(o.resume, "compare", first_sums);
    auto refuse = [&](const std::string& why) { throw UsageError("--resume " + o.resume + ": " + why); };
    if (c.id.command != "compare") refuse("it is a checkpoint of `vedette " + c.id.command + "`, not of `vedette compare`");
    if (c.id.fingerprint != id.fingerprint) refuse("it was made with another scenario or other rulesets");
    if (o.lab.seed && *o.lab.seed != c.id.seed) refuse("it was made with --seed " + std::to_string(c.id.seed));
    if (o.lab.n && *o.lab.n != c.id.n) refuse("it was made with -n " + std::to_string(c.id.n));
    id = c.id;
    next = c.next;
  } else {
    id.seed = o.lab.seed ? *o.lab.seed : fresh_seed();
    id.n = o.lab.n ? *o.lab.n : k_default_n;
  }

  check_out_dir(o.lab.out, true);
  std::vector<RunInfo> infos;
  std::vector<Comparison> comparisons;
  int sig = 0;
  {
    SignalStop signals;
    for (std::size_t k = 0; k < all.size() && !sig; ++k) {
      const Prepared& p = all[k];
      const Model* models[] = {p.mb.get(), p.mv.get()};
      HarnessOptions h;
      h.seed = id.seed;
      h.n = id.n;
      h.threads = thread_count(o.lab);
      h.progress = progress_stream(io);
      h.stop = &signals.flag();
      if (!checkpoint_file.empty()) {
        h.checkpoint = [&](const Sums& s, std::uint64_t at) { write_checkpoint(checkpoint_file, id, s, at); };
        h.checkpoint_seconds = o.checkpoint_every;
      }
      HarnessResult res = k == 0 ? run_harness(models, h, std::move(first_sums), next) : run_harness(models, h, Sums(models), 0);
      if (res.stop == StopReason::interrupted) sig = signals.flag().load();

      RunInfo info;
      info.command = "compare";
      info.scenario = p.scenario->name();
      info.scenario_file = p.scenario->file();
      info.scenario_description = p.scenario->description();
      info.ruleset = p.base->name + " vs " + var->name;
      info.seed = id.seed;
      info.requested = id.n;
      info.engagements = res.next;
      if (sig) info.stopped_by = signal_name(sig);
      Comparison c = compare_figures(p.mb->schema(), res.sums.tallies[0], res.sums.tallies[1], *res.sums.paired, shown_name(*p.base, o.baseline),
                                     shown_name(*var, o.variant));
      // The rule as it differs here; a scenario whose ruleset differs from
      // the first one's shows its own.
      if (k == 0 || !same_changes(p.diff, all.front().diff)) c.rule = p.diff;
      infos.push_back(std::move(info));
      comparisons.push_back(std::move(c));
    }
  }

  const bool many = files.size() > 1;
  OJson j = many ? compare_many_json(infos, comparisons) : compare_json(infos.front(), comparisons.front());
  std::string report;
  if (!o.lab.out.empty())
    report = write_reports(o.lab.out, many ? compare_many_html(infos, comparisons) : compare_html(infos.front(), comparisons.front()), j);
  if (o.lab.json) print_json(io.out, j);
  else io.out << (many ? compare_many_markdown(infos, comparisons, report) : compare_markdown(infos.front(), comparisons.front(), report));
  if (sig) {
    const RunInfo& last = infos.back();
    io.err << "vedette: stopped by " << signal_name(sig) << " after " << last.engagements << " of " << id.n << " engagements of " << last.scenario
           << "; the report is partial\n";
  }
  return exit_status(sig);
}

}  // namespace

void add_compare(CLI::App& app, Runner& run) {
  auto o = std::make_shared<CompareOptions>();
  auto* c = app.add_subcommand("compare",
                               "A house rule against the base: both on the same scenarios and the same dice, with paired differences "
                               "per scenario, side by side.");
  add_lab_flags(c, o->lab, false, true);
  c->add_option("--baseline", o->baseline, "Baseline ruleset file (default: each scenario's own ruleset)");
  c->add_option("--variant", o->variant, "Variant ruleset file (a house rule)")->required();
  c->add_option("--checkpoint", o->checkpoint, "Save progress to this file every --checkpoint-every seconds and at the end (one scenario)");
  c->add_option("--checkpoint-every", o->checkpoint_every, "Seconds between checkpoints (default 10; 0: after every chunk)");
  c->add_option("--resume", o->resume, "Continue the comparison saved in this checkpoint (one scenario)");
  c->footer("Engagement i of both rulesets plays on the same dice streams (common random numbers), so the paired difference "
            "is much tighter than two separate runs would give. 'real' = p < 0.05 after Holm's correction (within each scenario). "
            "With several scenarios, each is played in turn (-n each) and the differences are set side by side; a figure "
            "that moves really up in one scenario and really down in another is flagged as a sign flip.");
  c->callback([o, &run] { run = [o](Io& io) { return guarded(io, [&] { return run_compare(*o, io); }); }; });
}

}  // namespace vedette::cli
