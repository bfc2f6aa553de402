// `vedette compare`: two rulesets (a house rule against the base) on the same
// scenario and the same dice, engagement by engagement; paired differences.
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

std::string shown_name(const Ruleset& r, const std::string& file) {
  return file.empty() ? r.name + " (the scenario's)" : r.name + " (" + file + ")";
}

int run_compare(const CompareOptions& o, Io& io) {
  check_lab_flags(o.lab);
  if (o.checkpoint_every < 0 || !std::isfinite(o.checkpoint_every)) throw UsageError("--checkpoint-every: expected seconds, 0 or more");
  check_out_dir(o.lab.out, false);
  const std::string checkpoint_file = !o.checkpoint.empty() ? o.checkpoint : o.resume;
  if (!checkpoint_file.empty()) check_writable_file_path(checkpoint_file, o.checkpoint.empty() ? "--resume" : "--checkpoint");

  auto scenario = open_lab_scenario(o.lab.scenario);
  RulesetPtr base = o.baseline.empty() ? scenario->rules() : load_ruleset(o.baseline);
  RulesetPtr var = load_ruleset(o.variant);
  auto mb = scenario->model(base);
  auto mv = scenario->model(var);
  const Schema& sb = mb->schema();
  const Schema& sv = mv->schema();
  bool same = sb.outcome_ids == sv.outcome_ids && sb.metrics.size() == sv.metrics.size();
  for (std::size_t i = 0; same && i < sb.metrics.size(); ++i) same = sb.metrics[i].id == sv.metrics[i].id;
  if (!same) throw UsageError("--variant " + o.variant + ": its engagements yield other figures than the baseline's; they cannot be compared");
  const Model* models[] = {mb.get(), mv.get()};
  const std::string fingerprint = run_fingerprint(*scenario, *base, {}) + run_fingerprint(*scenario, *var, {});

  Sums sums(models);
  std::uint64_t next = 0;
  RunIdentity id;
  id.command = "compare";
  id.fingerprint = fingerprint;
  if (!o.resume.empty()) {
    Checkpoint c = read_checkpoint(o.resume, "compare", sums);
    auto refuse = [&](const std::string& why) { throw UsageError("--resume " + o.resume + ": " + why); };
    if (c.id.command != "compare") refuse("it is a checkpoint of `vedette " + c.id.command + "`, not of `vedette compare`");
    if (c.id.fingerprint != fingerprint) refuse("it was made with another scenario or other rulesets");
    if (o.lab.seed && *o.lab.seed != c.id.seed) refuse("it was made with --seed " + std::to_string(c.id.seed));
    if (o.lab.n && *o.lab.n != c.id.n) refuse("it was made with -n " + std::to_string(c.id.n));
    id = c.id;
    next = c.next;
  } else {
    id.seed = o.lab.seed ? *o.lab.seed : fresh_seed();
    id.n = o.lab.n ? *o.lab.n : k_default_n;
  }

  check_out_dir(o.lab.out, true);
  HarnessOptions h;
  h.seed = id.seed;
  h.n = id.n;
  h.threads = thread_count(o.lab);
  h.progress = progress_stream(io);
  if (!checkpoint_file.empty()) {
    h.checkpoint = [&](const Sums& s, std::uint64_t at) { write_checkpoint(checkpoint_file, id, s, at); };
    h.checkpoint_seconds = o.checkpoint_every;
  }
  int sig = 0;
  HarnessResult res;
  {
    SignalStop signals;
    h.stop = &signals.flag();
    res = run_harness(models, h, std::move(sums), next);
    sig = res.stop == StopReason::interrupted ? signals.flag().load() : 0;
  }

  RunInfo info;
  info.command = "compare";
  info.scenario = scenario->name();
  info.scenario_file = scenario->file();
  info.scenario_description = scenario->description();
  info.ruleset = base->name + " vs " + var->name;
  info.seed = id.seed;
  info.requested = id.n;
  info.engagements = res.next;
  if (res.stop == StopReason::interrupted) info.stopped_by = signal_name(sig);
  Comparison c = compare_figures(sb, res.sums.tallies[0], res.sums.tallies[1], *res.sums.paired, shown_name(*base, o.baseline),
                                 shown_name(*var, o.variant));
  OJson j = compare_json(info, c);
  std::string report;
  if (!o.lab.out.empty()) report = write_reports(o.lab.out, compare_html(info, c), j);
  if (o.lab.json) print_json(io.out, j);
  else io.out << compare_markdown(info, c, report);
  if (sig) io.err << "vedette: stopped by " << signal_name(sig) << " after " << res.next << " of " << id.n << " engagements; the report is partial\n";
  return exit_status(sig);
}

}  // namespace

void add_compare(CLI::App& app, Runner& run) {
  auto o = std::make_shared<CompareOptions>();
  auto* c = app.add_subcommand("compare", "A house rule against the base: both on the same scenario and the same dice, with paired differences.");
  add_lab_flags(c, o->lab, false);
  c->add_option("--baseline", o->baseline, "Baseline ruleset file (default: the scenario's own ruleset)");
  c->add_option("--variant", o->variant, "Variant ruleset file (a house rule)")->required();
  c->add_option("--checkpoint", o->checkpoint, "Save progress to this file every --checkpoint-every seconds and at the end");
  c->add_option("--checkpoint-every", o->checkpoint_every, "Seconds between checkpoints (default 10; 0: after every chunk)");
  c->add_option("--resume", o->resume, "Continue the comparison saved in this checkpoint");
  c->footer("Engagement i of both rulesets plays on the same dice streams (common random numbers), so the paired difference "
            "is much tighter than two separate runs would give. 'real' = p < 0.05 after Holm's correction.");
  c->callback([o, &run] { run = [o](Io& io) { return guarded(io, [&] { return run_compare(*o, io); }); }; });
}

}  // namespace vedette::cli
