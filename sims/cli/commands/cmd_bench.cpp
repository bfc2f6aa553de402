// `vedette bench`: engagements per second on the default scenario (or any
// scenario, seed 001's skirmish games included), dice per engagement, the
// cost of an engagement against the cost of its dice, the scaling from 1
// thread to all cores, and the bench signature (sims/lab/bench.hpp). `--all`:
// the same cost for every shipped scenario, one table.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "bots/registry.hpp"
#include "engine/modules/skirmish/skirmish.hpp"
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
  bool all = false;
};

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// A scenario to time: a unit scenario (the engagement engine) or seed 001's
// skirmish (its own game loop).
struct Timed {
  std::string name;
  ScenarioPtr unit;
  SkirmishScenarioPtr skirmish;

  static Timed load(const std::string& file) {
    Timed t;
    if (is_skirmish_file(file)) {
      t.skirmish = load_skirmish_scenario(file);
      t.name = t.skirmish->name;
    } else {
      t.unit = load_scenario_file(file);
      t.name = t.unit->name;
    }
    return t;
  }
  bench::Throughput measure(unsigned threads, double secs) const {
    return unit ? bench::measure_engagements(*unit, threads, secs, bench::k_signature_seed)
                : bench::measure_skirmish(*skirmish, threads, secs, bench::k_signature_seed);
  }
  std::uint64_t play(std::uint64_t n) const {
    return unit ? bench::play_engagements(*unit, n, bench::k_signature_seed) : bench::play_skirmish(*skirmish, n, bench::k_signature_seed);
  }
};

// Engagement against its dice, both on CPU time measured in this run (wall
// time on a busy machine counts other programs' time too).
double dice_ratio(const bench::Throughput& t, const bench::DiceFloor& d6) {
  const double dpe = t.dice_per_engagement();
  return dpe > 0 && d6.cpu_ns > 0 ? t.cpu_ns_per_engagement() / (dpe * d6.cpu_ns) : 0;
}

// `bench --all`: every shipped scenario on one thread, one table.
int run_all(const BenchOptions& o, const std::string& dir, Io& io) {
  const double secs = o.quick ? 0.25 : o.seconds;
  std::vector<std::string> files(bench::k_signature_files.begin(), bench::k_signature_files.end());
  files.insert(files.end(), bench::k_signature_skirmish_files.begin(), bench::k_signature_skirmish_files.end());
  std::vector<Timed> scenarios;
  for (const std::string& f : files) scenarios.push_back(Timed::load(dir + "/" + f));
  const double load = bench::load_average();
  const bench::DiceFloor d6 = bench::measure_d6_ns(secs / 2);
  std::vector<bench::Throughput> rows;
  for (const Timed& t : scenarios) rows.push_back(t.measure(1, secs));
  const bench::Signature sig = bench::signature(dir);
  if (o.json) {
    Json j;
    j["load_average"] = load;
    j["cpu_ns_per_d6"] = d6.cpu_ns;
    Json list = Json::array();
    for (std::size_t k = 0; k < files.size(); ++k) {
      const bench::Throughput& t = rows[k];
      list.push_back(Json{{"file", files[k]},
                          {"scenario", scenarios[k].name},
                          {"engagements", t.engagements},
                          {"cpu_ns_per_engagement", t.cpu_ns_per_engagement()},
                          {"ns_per_engagement", 1e9 / t.per_second()},
                          {"dice_per_engagement", t.dice_per_engagement()},
                          {"turns_per_engagement", t.engagements ? static_cast<double>(t.turns) / static_cast<double>(t.engagements) : 0.0},
                          {"ratio_to_dice", dice_ratio(t, d6)}});
    }
    j["scenarios"] = list;
    j["signature"] = fnv1a64_text(sig.hash);
    print_json(io.out, j);
    return 0;
  }
  auto& os = io.out;
  if (load >= 0) os << "Load average: " << fixed(load, 2) << " on " << std::thread::hardware_concurrency() << " cores\n";
  os << "Dice floor: " << fixed(d6.cpu_ns, 2) << " ns of CPU per D6 (taus88, multiply-shift)\n";
  os << "1 thread, CPU time per engagement (a skirmish: per game), " << fixed(secs, 2) << " s each:\n\n";
  os << "| scenario | us per engagement | dice per engagement | engagement / its dice |\n";
  os << "| --- | ---: | ---: | ---: |\n";
  for (std::size_t k = 0; k < files.size(); ++k) {
    const bench::Throughput& t = rows[k];
    std::string name = files[k];
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".yaml") == 0) name.resize(name.size() - 5);
    os << "| " << name << " | " << fixed(t.cpu_ns_per_engagement() / 1000, 2) << " | " << fixed(t.dice_per_engagement(), 1) << " | "
       << fixed(dice_ratio(t, d6), 1) << "x |\n";
  }
  os << "\nSignature: " << fnv1a64_text(sig.hash) << " (" << sig.engagements << " engagements of " << bench::k_signature_scenarios
     << " scenarios, seed " << bench::k_signature_seed << ")\n";
  return 0;
}

int run_bench(const BenchOptions& o, Io& io) {
  if (!(o.seconds > 0) || !std::isfinite(o.seconds) || o.seconds > 600)
    throw UsageError("--seconds: expected seconds per measurement, above 0 and at most 600");
  const std::string dir = o.scenarios_dir.empty() ? bench::shipped_scenarios_dir() : o.scenarios_dir;
  if (o.all && (!o.scenario.empty() || o.profile || o.signature_only))
    throw UsageError("--all: times every shipped scenario; give no SCENARIO, --profile or --signature with it");
  if (o.profile) {
    const std::string file = o.scenario.empty() ? dir + "/" + std::string(bench::k_default_scenario) : o.scenario;
    const Timed s = Timed::load(file);
    const std::uint64_t dice = s.play(*o.profile);
    io.out << "Played " << *o.profile << (s.unit ? " engagements of " : " games of ") << s.name << " (seed " << bench::k_signature_seed
           << "): " << dice << " dice\n";
    return 0;
  }
  if (o.all) return run_all(o, dir, io);
  const bench::Signature sig = bench::signature(dir);
  if (o.signature_only) {
    if (o.json) print_json(io.out, Json{{"signature", fnv1a64_text(sig.hash)}, {"engagements", sig.engagements}, {"dice", sig.dice}});
    else io.out << "Signature: " << fnv1a64_text(sig.hash) << "\n";
    return 0;
  }

  const std::string file = o.scenario.empty() ? dir + "/" + std::string(bench::k_default_scenario) : o.scenario;
  const Timed timed = Timed::load(file);
  const std::string& name = timed.name;
  const double secs = o.quick ? 0.25 : o.seconds;
  const unsigned all = o.threads ? o.threads : std::max(1U, std::thread::hardware_concurrency());

  const double load = bench::load_average();
  const bench::DiceFloor d6 = bench::measure_d6_ns(secs / 2);
  const bench::Throughput one = timed.measure(1, secs);
  const bench::Throughput many = all > 1 ? timed.measure(all, secs) : one;
  const double dpe = one.dice_per_engagement();
  const double wall_ns = 1e9 / one.per_second();
  const double cpu_ns = one.cpu_ns_per_engagement();
  const double ratio = dice_ratio(one, d6);
  const double scaling = many.per_second() / one.per_second();
  // The work's own scaling: what `all` threads would give with the cores to
  // themselves, from the CPU time each engagement took on 1 and on `all`.
  const double cpu_scaling = many.cpu_ns_per_engagement() > 0 ? all * cpu_ns / many.cpu_ns_per_engagement() : 0;

  if (o.json) {
    Json j;
    j["scenario"] = name;
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
  os << "Scenario: " << name << " (" << file << ")\n";
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
  c->add_option("scenario", o->scenario, "Scenario to time, a skirmish too (default: the shipped open_field_charge.yaml)");
  c->add_flag("--all", o->all, "Time every shipped scenario on 1 thread and print one table (us, dice and the ratio per engagement)");
  c->add_option("--seconds", o->seconds, "Seconds per measurement (default 1)");
  c->add_flag("--quick", o->quick, "A quarter of a second per measurement");
  c->add_option("--threads", o->threads, "Threads for the all-cores figure, 1 to 1024 (default: every core)")
      ->check(unsigned_number())
      ->check(CLI::Range(1u, 1024u));
  c->add_option("--scenarios", o->scenarios_dir, "Folder of the shipped scenarios (default: the source tree's sims/scenarios)");
  c->add_flag("--signature", o->signature_only, "Print only the signature");
  c->add_option("--profile", o->profile,
                "Only play N engagements of the scenario on one thread, untimed (for perf or callgrind: "
                "--toggle-collect='vedette::bench::play_engagements*', a skirmish's games 'vedette::bench::play_skirmish*')");
  c->add_flag("--json", o->json, "Print the figures as JSON");
  c->callback([o, &run] { run = [o](Io& io) { return run_bench(*o, io); }; });
}

}  // namespace vedette::cli
