// The bench signature (sims/lab/bench.hpp, docs/style.md after Stockfish's bench): one
// checksum of the outcomes of every shipped scenario at fixed seeds. An
// optimisation must leave it unchanged. A commit that changes what an
// engagement does says so in its message and records the new value here.
#include <catch2/catch.hpp>

#include <dirent.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "bots/registry.hpp"
#include "engine/core/content_hash.hpp"
#include "engine/engagement/engagement.hpp"
#include "helpers.hpp"
#include "sims/lab/bench.hpp"

namespace t_bench_signature {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

// Recorded by `vedette bench --signature`.
constexpr const char* k_signature = "fnv1a64:c6b8e75e73895208";

const std::string k_dir = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios";

// The .yaml files of `sub` (a folder under sims/scenarios, "" for itself),
// named as the signature lists them ("skirmish/village_patrol.yaml").
std::set<std::string> shipped_files(const std::string& sub = "") {
  std::set<std::string> files;
  const std::string prefix = sub.empty() ? "" : sub + "/";
  DIR* d = ::opendir((k_dir + "/" + sub).c_str());
  if (!d) return files;
  while (auto* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n.size() > 5 && n.compare(n.size() - 5, 5, ".yaml") == 0) files.insert(prefix + n);
  }
  ::closedir(d);
  return files;
}

}  // namespace

TEST_CASE("bench: the signature of the fixed scenarios and seeds", "[bench]") {
  const bench::Signature sig = bench::signature(k_dir);
  CHECK(sig.engagements == bench::k_signature_scenarios * bench::k_signature_engagements);
  CHECK(sig.dice > sig.engagements);
  REQUIRE(fnv1a64_text(sig.hash) == k_signature);
}

TEST_CASE("bench: the signature plays every shipped scenario", "[bench]") {
  const std::set<std::string> listed(bench::k_signature_files.begin(), bench::k_signature_files.end());
  REQUIRE(listed.size() == bench::k_signature_files.size());
  REQUIRE(shipped_files() == listed);
  const std::set<std::string> skirmish(bench::k_signature_skirmish_files.begin(), bench::k_signature_skirmish_files.end());
  REQUIRE(skirmish.size() == bench::k_signature_skirmish_files.size());
  REQUIRE(shipped_files("skirmish") == skirmish);
}

TEST_CASE("bench: a reset engagement plays exactly as a new one", "[bench][engagement]") {
  for (std::string_view file : bench::k_signature_files) {
    INFO(file);
    const ScenarioPtr s = load_scenario_file(k_dir + "/" + std::string(file));
    const Players players = make_players(*s);
    Engagement reused(*s, players.bots(), 99, 0);
    reused.run();
    for (std::uint64_t i = 0; i < 40; ++i) {
      const std::uint64_t seed = 7 + i % 3;
      Engagement fresh(*s, players.bots(), seed, i);
      fresh.run();
      reused.reset(seed, i);
      reused.run();
      CHECK(reused.dice_rolled() == fresh.dice_rolled());
      CHECK(reused.outcome().reason == fresh.outcome().reason);
      CHECK(bench::hash_outcome(reused.outcome(), reused.dice_rolled(), 0) ==
            bench::hash_outcome(fresh.outcome(), fresh.dice_rolled(), 0));
    }
  }
}

TEST_CASE("bench: the hash covers the outcome's counters", "[bench]") {
  Outcome a;
  a.chosen.assign(4, 0);
  Outcome b = a;
  CHECK(bench::hash_outcome(a, 10, k_fnv1a64_basis) == bench::hash_outcome(b, 10, k_fnv1a64_basis));
  CHECK(bench::hash_outcome(a, 10, k_fnv1a64_basis) != bench::hash_outcome(b, 11, k_fnv1a64_basis));
  b.sides[1].melee_hits = 1;
  CHECK(bench::hash_outcome(a, 10, k_fnv1a64_basis) != bench::hash_outcome(b, 10, k_fnv1a64_basis));
  b = a;
  b.winner = 0;
  CHECK(bench::hash_outcome(a, 10, k_fnv1a64_basis) != bench::hash_outcome(b, 10, k_fnv1a64_basis));
  b = a;
  b.chosen[3] = 1;
  CHECK(bench::hash_outcome(a, 10, k_fnv1a64_basis) != bench::hash_outcome(b, 10, k_fnv1a64_basis));
}

TEST_CASE("commands: bench --signature prints the recorded signature", "[bench][commands]") {
  const vtest::RunResult r = vtest::run_vedette({"bench", "--signature"});
  REQUIRE(r.status == 0);
  CHECK(r.out == std::string("Signature: ") + k_signature + "\n");
}

TEST_CASE("commands: bench --quick --json gives every figure", "[bench][commands]") {
  // Behaviour only: the figures are timings, not checked against targets here
  // (benchmarks/README.md holds the measured ones).
  const vtest::RunResult r = vtest::run_vedette({"bench", "--quick", "--json", "--threads", "2"});
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("scenario") == "open-field-charge");
  CHECK(j.at("engagements_per_second").get<double>() > 0);
  CHECK(j.at("dice_per_engagement").get<double>() > 1);
  CHECK(j.at("ns_per_d6").get<double>() > 0);
  CHECK(j.at("ratio_to_dice").get<double>() > 0);
  CHECK(j.at("threads") == 2);
  CHECK(j.at("scaling").get<double>() > 0);
  CHECK(j.at("cpu_ns_per_engagement").get<double>() > 0);
  CHECK(j.at("cpu_ns_per_d6").get<double>() > 0);
  CHECK(j.at("cpu_scaling").get<double>() > 0);
  CHECK(j.at("signature") == k_signature);
}

TEST_CASE("commands: bench --profile plays N engagements untimed", "[bench][commands]") {
  const vtest::RunResult r = vtest::run_vedette({"bench", "--profile", "50"});
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("Played 50 engagements of open-field-charge (seed 1815): ", 0) == 0);
}

TEST_CASE("commands: bench refuses bad input with status 2", "[bench][commands]") {
  CHECK(vtest::run_vedette({"bench", "--seconds", "0"}).status == 2);
  CHECK(vtest::run_vedette({"bench", "--seconds", "nan"}).status == 2);
  const vtest::RunResult r = vtest::run_vedette({"bench", vtest::data("no-such-scenario.yaml")});
  CHECK(r.status == 2);
}

}  // namespace t_bench_signature
