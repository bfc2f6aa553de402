// `vedette bench`: engagements per second on the default scenario, dice per
// engagement, the cost of an engagement against the cost of its dice, the
// scaling from 1 thread to all cores, and the bench signature (sims/lab/bench.hpp).
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <ostream>
#include <thread>

#include "bots/registry.hpp"
#include "engine/core/content_hash.hpp"
#include "sims/lab/bench.hpp"
#include "sims/cli/cli.hpp"

namespace vedette::cli {

namespace {

struct BenchOptions {
  std::string scenario;
  std::string scenarios_dir;
  double seconds = 1.0;
  bool quick = false;
  unsigned threads = 0;
  bool signature_only = false;
  std::optional<std::uint64_t> profile;
  bool json = false;
};

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

int run_bench(const BenchOptions& o, Io& io) {
  if (!(o.seconds > 0) || !std::isfinite(o.seconds) || o.seconds > 600)
    throw UsageError("--seconds: expected seconds per measurement, above 0 and at most 600");
  const std::string dir = o.scenarios_dir.empty() ? bench::shipped_scenarios_dir() : o.scenarios_dir;
  if (o.profile) {
    const std::string file = o.scenario.empty() ? dir + "/" + std::string(bench::k_default_scenario) : o.scenario;
    const ScenarioPtr s = load_scenario_file(file);
    const std::uint64_t dice = bench::play_engagements(*s, *o.profile, bench::k_signature_seed);
    io.out << "Played " << *o.profile << " engagements of " << s->name << " (seed " << bench::k_signature_seed << "): " << dice
           << " dice\n";
    return 0;
  }
  const bench::Signature sig = bench::signature(dir);
  if (o.signature_only) {
    if (o.json) print_json(io.out, Json{{"signature", fnv1a64_text(sig.hash)}, {"engagements", sig.engagements}, {"dice", sig.dice}});
    else io.out << "Signature: " << fnv1a64_text(sig.hash) << "\n";
    return 0;
  }

  const std::string file = o.scenario.empty() ? dir + "/" + std::string(bench::k_default_scenario) : o.scenario;
  const ScenarioPtr s = load_scenario_file(file);
  const double secs = o.quick ? 0.25 : o.seconds;
  const unsigned all = o.threads ? o.threads : std::max(1U, std::thread::hardware_concurrency());

  const double load = bench::load_average();
  const bench::DiceFloor d6 = bench::measure_d6_ns(secs / 2);
  const bench::Throughput one = bench::measure_engagements(*s, 1, secs, bench::k_signature_seed);
  const bench::Throughput many = all > 1 ? bench::measure_engagements(*s, all, secs, bench::k_signature_seed) : one;
  const double dpe = one.dice_per_engagement();
  const double wall_ns = 1e9 / one.per_second();
  const double cpu_ns = one.cpu_ns_per_engagement();
  // Engagement against its dice, both on CPU time measured in this run (wall
  // time on a busy machine counts other programs' time too).
  const double ratio = dpe > 0 && d6.cpu_ns > 0 ? cpu_ns / (dpe * d6.cpu_ns) : 0;
  const double scaling = many.per_second() / one.per_second();
  // The work's own scaling: what `all` threads would give with the cores to
  // themselves, from the CPU time each engagement took on 1 and on `all`.
  const double cpu_scaling = many.cpu_ns_per_engagement() > 0 ? all * cpu_ns / many.cpu_ns_per_engagement() : 0;

  if (o.json) {
    Json j;
    j["scenario"] = s->name;
    j["file"] = file;
    j["load_average"] = load;
    j["engagements_per_second"] = std::llround(one.per_second());
    j["engagements_per_cpu_second"] = std::llround(cpu_ns > 0 ? 1e9 / cpu_ns : 0);
    j["ns_per_engagement"] = wall_ns;
    j["cpu_ns_per_engagement"] = cpu_ns;
    j["dice_per_engagement"] = dpe;
    j["turns_per_engagement"] = one.engagements ? static_cast<double>(one.turns) / static_cast<double>(one.engagements) : 0.0;
    j["ns_per_d6"] = d6.wall_ns;
    j["cpu_ns_per_d6"] = d6.cpu_ns;
    j["ratio_to_dice"] = ratio;
    j["threads"] = all;
    j["engagements_per_second_all_threads"] = std::llround(many.per_second());
    j["scaling"] = scaling;
    j["cpu_scaling"] = cpu_scaling;
    j["signature"] = fnv1a64_text(sig.hash);
    j["signature_engagements"] = sig.engagements;
    print_json(io.out, j);
    return 0;
  }
  auto& os = io.out;
  os << "Scenario: " << s->name << " (" << file << ")\n";
  if (load >= 0) os << "Load average: " << fixed(load, 2) << " on " << std::thread::hardware_concurrency() << " cores\n";
  os << "Engagements per second, 1 thread: " << std::llround(one.per_second()) << " (" << fixed(wall_ns / 1000, 2) << " us each); "
     << std::llround(1e9 / cpu_ns) << " per CPU second (" << fixed(cpu_ns / 1000, 2) << " us of CPU each)\n";
  os << "Dice per engagement: " << fixed(dpe, 1) << "\n";
  os << "Dice floor: " << fixed(d6.cpu_ns, 2) << " ns of CPU per D6 (taus88, multiply-shift): " << fixed(1e3 / d6.cpu_ns, 0)
     << " M dice per CPU second\n";
  os << "Engagement / its dice: " << fixed(ratio, 1) << "x (" << fixed(cpu_ns, 0) << " ns against " << fixed(dpe * d6.cpu_ns, 0)
     << " ns of CPU)\n";
  os << "Scaling 1 -> " << all << " thread" << (all == 1 ? "" : "s") << ": " << fixed(scaling, 2) << "x wall ("
     << std::llround(many.per_second()) << " engagements per second); " << fixed(cpu_scaling, 2)
     << "x with the cores free (CPU per engagement " << fixed(cpu_ns / 1000, 2) << " us on 1, "
     << fixed(many.cpu_ns_per_engagement() / 1000, 2) << " us on " << all << ")\n";
  os << "Signature: " << fnv1a64_text(sig.hash) << " (" << sig.engagements << " engagements of " << bench::k_signature_scenarios
     << " scenarios, seed " << bench::k_signature_seed << ")\n";
  return 0;
}

}  // namespace

void add_bench(CLI::App& app, Runner& run) {
  auto o = std::make_shared<BenchOptions>();
  auto* c = app.add_subcommand("bench", "Measure engagements per second and print the bench signature.");
  c->add_option("scenario", o->scenario, "Scenario to time (default: the shipped open_field_charge.yaml)");
  c->add_option("--seconds", o->seconds, "Seconds per measurement (default 1)");
  c->add_flag("--quick", o->quick, "A quarter of a second per measurement");
  c->add_option("--threads", o->threads, "Threads for the all-cores figure, 1 to 1024 (default: every core)")
      ->check(unsigned_number())
      ->check(CLI::Range(1u, 1024u));
  c->add_option("--scenarios", o->scenarios_dir, "Folder of the shipped scenarios (default: the source tree's sims/scenarios)");
  c->add_flag("--signature", o->signature_only, "Print only the signature");
  c->add_option("--profile", o->profile,
                "Only play N engagements of the scenario on one thread, untimed (for perf or callgrind: "
                "--toggle-collect='vedette::bench::play_engagements*')");
  c->add_flag("--json", o->json, "Print the figures as JSON");
  c->callback([o, &run] { run = [o](Io& io) { return run_bench(*o, io); }; });
}

}  // namespace vedette::cli
