// `vedette sim`: a Monte Carlo report of one scenario under one ruleset.
#include <cmath>
#include <filesystem>
#include <memory>
#include <ostream>

#include "engine/core/diagnostics.hpp"
#include "sims/io/atomic_file.hpp"
#include "sims/io/atomic_stream.hpp"
#include "sims/lab/bench.hpp"
#include "sims/lab/checkpoint.hpp"
#include "sims/cli/cli.hpp"
#include "sims/cli/lab_cli.hpp"
#include "sims/report/report_parts.hpp"

namespace vedette::cli {

namespace {

using namespace vedette::lab;
namespace fs = std::filesystem;

struct SimOptions {
  LabFlags lab;
  bool csv = false;
  std::optional<double> precision_pp;
  std::string checkpoint, resume;
  double checkpoint_every = 10;
};

// A resumed run must be the same run: same command, inputs, seed, size.
void check_resume(const Checkpoint& c, const std::string& file, const std::string& fingerprint, const SimOptions& o) {
  auto refuse = [&](const std::string& why) { throw UsageError("--resume " + file + ": " + why); };
  if (c.id.command != "sim") refuse("it is a checkpoint of `vedette " + c.id.command + "`, not of `vedette sim`");
  if (c.id.fingerprint != fingerprint)
    refuse("it was made with another scenario or ruleset (their files differ from the ones given now)");
  if (o.lab.seed && *o.lab.seed != c.id.seed)
    refuse("it was made with --seed " + std::to_string(c.id.seed) + ", not " + std::to_string(*o.lab.seed));
  if (o.lab.n && *o.lab.n != c.id.n) refuse("it was made with -n " + std::to_string(c.id.n) + ", not " + std::to_string(*o.lab.n));
  std::optional<double> target;
  if (o.precision_pp) target = *o.precision_pp / 100;
  if (o.precision_pp && target != c.id.precision) refuse("it was made with another --precision");
}

int run_sim(const SimOptions& in, Io& io) {
  // Without SCENARIO: the default scenario (the one scripts/demo runs).
  SimOptions o = in;
  if (o.lab.scenario.empty())
    o.lab.scenario = (fs::path(bench::shipped_scenarios_dir()) / std::string(bench::k_default_scenario)).string();
  check_lab_flags(o.lab);
  if (o.precision_pp && !(*o.precision_pp > 0 && *o.precision_pp < 50))
    throw UsageError("--precision: expected a half width in percentage points, above 0 and below 50 (e.g. 0.5)");
  if (o.csv && o.lab.out.empty()) throw UsageError("--csv writes engagements.csv into the --out folder: give --out DIR");
  if (o.csv && !o.resume.empty())
    throw UsageError("--csv cannot be combined with --resume: the rows before the checkpoint were not kept (rerun without --resume)");
  if (o.checkpoint_every < 0 || !std::isfinite(o.checkpoint_every)) throw UsageError("--checkpoint-every: expected seconds, 0 or more");
  check_out_dir(o.lab.out, false);
  const std::string checkpoint_file = !o.checkpoint.empty() ? o.checkpoint : o.resume;
  if (!checkpoint_file.empty()) check_writable_file_path(checkpoint_file, o.checkpoint.empty() ? "--resume" : "--checkpoint");

  auto scenario = open_lab_scenario(o.lab.scenario);
  RulesetPtr rules = o.lab.ruleset.empty() ? scenario->rules() : load_ruleset(o.lab.ruleset);
  auto model = scenario->model(rules);
  const Model* models[] = {model.get()};
  const std::string fingerprint = run_fingerprint(*scenario, *rules, {});

  Sums sums(models);
  std::uint64_t next = 0;
  RunIdentity id;
  id.command = "sim";
  id.fingerprint = fingerprint;
  if (!o.resume.empty()) {
    Checkpoint c = read_checkpoint(o.resume, "sim", sums);
    check_resume(c, o.resume, fingerprint, o);
    id = c.id;
    next = c.next;
  } else {
    id.seed = o.lab.seed ? *o.lab.seed : fresh_seed();
    id.n = o.lab.n ? *o.lab.n : (o.precision_pp ? 10000000 : k_default_n);
    if (o.precision_pp) id.precision = *o.precision_pp / 100;
  }

  // Everything is checked: from here on, files may be written.
  check_out_dir(o.lab.out, true);
  std::unique_ptr<AtomicOutput> csv;
  std::string csv_buf;
  HarnessOptions h;
  h.seed = id.seed;
  h.n = id.n;
  h.threads = thread_count(o.lab);
  h.precision = id.precision;
  h.progress = progress_stream(io);
  if (!checkpoint_file.empty()) {
    h.checkpoint = [&](const Sums& s, std::uint64_t at) { write_checkpoint(checkpoint_file, id, s, at); };
    h.checkpoint_seconds = o.checkpoint_every;
  }
  const Schema& schema = model->schema();
  if (o.csv) {
    csv = std::make_unique<AtomicOutput>((fs::path(o.lab.out) / "engagements.csv").string());
    csv->write(csv_header(schema, false));
    h.rows = [&](std::uint64_t i, std::span<const OutcomeRow> rows) {
      csv_buf.clear();
      csv_row(csv_buf, schema, i, rows[0], nullptr);
      csv->write(csv_buf);
    };
  }

  int sig = 0;
  HarnessResult res;
  {
    SignalStop signals;
    h.stop = &signals.flag();
    res = run_harness(models, h, std::move(sums), next);
    sig = signals.flag().load();
  }
  if (res.stop != StopReason::interrupted) sig = 0;

  RunInfo info;
  info.command = "sim";
  info.scenario = scenario->name();
  info.scenario_file = scenario->file();
  info.scenario_description = scenario->description();
  info.ruleset = rules->name;
  info.seed = id.seed;
  info.requested = id.n;
  info.engagements = res.next;
  info.precision = id.precision;
  info.precision_met = res.stop == StopReason::precision;
  if (res.stop == StopReason::precision) info.stopped_by = "precision";
  if (res.stop == StopReason::interrupted) info.stopped_by = signal_name(sig);
  const Tally& t = res.sums.tallies.front();
  Summary s = summarize(schema, t);
  OJson j = sim_json(info, s, t);
  std::string report;
  if (!o.lab.out.empty()) {
    if (csv) csv->commit();
    report = write_reports(o.lab.out, sim_html(info, s, t), j);
  }
  if (o.lab.json) print_json(io.out, j);
  else io.out << sim_markdown(info, s, report);
  if (h.progress && res.seconds > 0)
    io.err << "vedette: " << parts::thousands(static_cast<std::int64_t>(res.next - next)) << " engagements in " << number(res.seconds, 1)
           << " s (" << parts::thousands(static_cast<std::int64_t>(static_cast<double>(res.next - next) / res.seconds)) << " per second on "
           << workers_text(h.threads) << ")\n";
  if (sig) io.err << "vedette: stopped by " << signal_name(sig) << " after " << res.next << " of " << id.n << " engagements; the report is partial\n";
  return exit_status(sig);
}

}  // namespace

void add_sim(CLI::App& app, Runner& run) {
  auto o = std::make_shared<SimOptions>();
  auto* c = app.add_subcommand("sim", "Play a scenario many times and report who wins, how, and how sure that is.");
  add_lab_flags(c, o->lab);
  c->get_option("SCENARIO")->required(false)->description("Scenario file (default: the default scenario, sims/scenarios/open_field_charge.yaml)");
  c->add_flag("--csv", o->csv, "Also write engagements.csv (one row per engagement) into the --out folder");
  c->add_option("--precision", o->precision_pp,
                "Play until every outcome probability is known to +/- this many percentage points (95%); -n is then the most to play "
                "(default 10,000,000)");
  c->add_option("--checkpoint", o->checkpoint, "Save progress to this file every --checkpoint-every seconds and at the end");
  c->add_option("--checkpoint-every", o->checkpoint_every, "Seconds between checkpoints (default 10; 0: after every chunk)");
  c->add_option("--resume", o->resume, "Continue the run saved in this checkpoint (and keep saving to it)");
  c->footer("Ctrl-C (SIGINT) or SIGTERM stops at the next engagement boundary and writes what is done, marked partial "
            "(exit status 130 or 143). Summary files are identical whatever --threads is.");
  c->callback([o, &run] { run = [o](Io& io) { return guarded(io, [&] { return run_sim(*o, io); }); }; });
}

}  // namespace vedette::cli
