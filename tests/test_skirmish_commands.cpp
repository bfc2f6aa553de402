// Seed 001's skirmish scenario through the commands, as a user runs them:
// `vedette play` (text and --json), `vedette sim` (the same summary on 1 and
// 2 threads), `vedette compare` against a house rule, `vedette check`.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "helpers.hpp"

namespace t_skirmish_commands {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using vtest::run_vedette;

namespace {

std::string patrol() { return std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/skirmish/village_patrol.yaml"; }
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("skirmish commands: vedette play tells a game of the village patrol action by action, the same for the same seed") {
  auto a = run_vedette({"play", patrol(), "--seed", "4"});
  INFO(a.err);
  REQUIRE(a.status == 0);
  CHECK(a.out.find("Skirmish: village patrol") != std::string::npos);
  CHECK(a.out.find("Tpr Lenz (patrol): skill 10, carbine, riding double behind Cpl Brandt") != std::string::npos);
  CHECK(a.out.find("== Turn 1 ==") != std::string::npos);
  CHECK(a.out.find(" rides 8.0in (allowance 8.0in)") != std::string::npos);  // seed 001: 8in per action
  CHECK(a.out.find("\nOutcome: ") != std::string::npos);
  auto b = run_vedette({"play", patrol(), "--seed", "4"});
  CHECK(b.out == a.out);
  auto c = run_vedette({"play", patrol(), "--seed", "5"});
  CHECK(c.out != a.out);
}

TEST_CASE("skirmish commands: vedette play --json gives the events and the outcome") {
  auto r = run_vedette({"play", patrol(), "--seed", "4", "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["scenario"] == "village patrol");
  CHECK(j["ruleset"] == "skirmish (seed 001)");
  REQUIRE(j["events"].is_array());
  CHECK(j["events"].size() > 20);
  CHECK(j["outcome"]["sides"]["patrol"]["figures"] == 8);
  CHECK(j["outcome"]["sides"]["squad"]["figures"] == 8);
  CHECK(j["outcome"]["sides"]["patrol"].contains("horses_bolted"));
  CHECK(j["outcome"]["turns"].get<int>() >= 1);
}

TEST_CASE("skirmish commands: vedette sim on the village patrol gives the same summary on 1 and 2 threads") {
  vtest::TempDir dir;
  std::string first;
  for (const char* threads : {"1", "2"}) {
    const std::string out = dir.path() + "/t" + threads;
    auto r = run_vedette({"sim", patrol(), "-n", "600", "--seed", "9", "--threads", threads, "--out", out});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("Patrol: unattended horses bolted") != std::string::npos);
    CHECK(r.out.find("Squad: fear of charge (seed 001)") != std::string::npos);
    const std::string json = slurp(out + "/summary.json");
    if (first.empty()) first = json;
    else CHECK(json == first);
  }
  const auto j = nlohmann::json::parse(first);
  CHECK(j.dump().find("patrol_riders_spilled") != std::string::npos);
  CHECK(j.dump().find("squad_caught_in_open") != std::string::npos);
}

// `ruleset: builtin:skirmish`: tables/skirmish.yaml is built into vedette
// (engine/CMakeLists.txt), so a skirmish scenario anywhere may name it; the
// same games as the shipped scenario's path to it.
TEST_CASE("skirmish commands: a skirmish scenario's ruleset: builtin:skirmish plays as tables/skirmish.yaml") {
  vtest::TempDir dir;
  std::string text = slurp(patrol());
  const std::string from = "ruleset: ../../../tables/skirmish.yaml";
  REQUIRE(text.find(from) != std::string::npos);
  text.replace(text.find(from), from.size(), "ruleset: builtin:skirmish");
  const std::string copy = dir.write("built_in_rules.yaml", text);
  std::string first;
  for (const std::string& sc : {patrol(), copy}) {
    const std::string out = dir.path() + "/" + std::to_string(first.size());
    auto r = run_vedette({"sim", sc, "-n", "300", "--seed", "9", "--out", out});
    INFO(r.err);
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(slurp(out + "/summary.json"));
    j.erase("scenario");
    for (const char* timing : {"seconds", "elapsed_seconds", "engagements_per_second", "threads"}) j.erase(timing);
    if (first.empty()) first = j.dump();
    else CHECK(j.dump() == first);
  }
}

TEST_CASE("skirmish commands: vedette compare runs the village patrol against a seed 001 house rule") {
  const std::string variant = std::string(VEDETTE_SOURCE_DIR) + "/tables/house-rules/skirmish-saddle-steady.yaml";
  auto r = run_vedette({"compare", patrol(), "--variant", variant, "-n", "400", "--seed", "2", "--threads", "2"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("skirmish, steady saddle") != std::string::npos);
  CHECK(r.out.find("Patrol: final charges of dying horses") != std::string::npos);
  // A variant without a skirmish section is refused, saying why.
  auto bad = run_vedette({"compare", patrol(), "--variant", std::string(VEDETTE_SOURCE_DIR) + "/tables/default.yaml", "-n", "10"});
  CHECK(bad.status == 2);
  CHECK(bad.err.find("skirmish") != std::string::npos);
}

TEST_CASE("skirmish commands: vedette check knows a skirmish scenario and the skirmish ruleset") {
  auto r = run_vedette({"check", patrol(), std::string(VEDETTE_SOURCE_DIR) + "/tables/skirmish.yaml"});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("skirmish scenario 'village patrol'") != std::string::npos);
}

TEST_CASE("skirmish commands: bad skirmish files are refused with exit 2, located, and nothing written") {
  struct Bad {
    const char* file;     // under tests/data/skirmish/bad/
    bool scenario;        // played, or a ruleset given to a skirmish scenario
    const char* at;       // line:column of the first message
    const char* message;  // its start
  };
  const Bad cases[] = {
      {"scenario_unknown_weapon.yaml", true, "8:48", "expected a weapon of the ruleset's skirmish.base_game.weapons, found 'lance'"},
      {"scenario_wrong_type.yaml", true, "8:36", "expected a whole number from 0 to 1000 for figure skill, found 'very good'"},
      {"scenario_no_skirmish_rules.yaml", true, "2:10", "expected a ruleset with a `skirmish:` section (seed 001; tables/skirmish.yaml)"},
      {"scenario_behind_nobody.yaml", true, "8:5", "figure 'A' rides behind 'Z': expected a mounted figure of its side, and no horse of its own"},
      {"rules_wrong_type.yaml", false, "5:17", "expected a length with its unit (e.g. 30cm, 12in) for skirmish.movement.per_action, found 'eight inches'"},
      {"rules_missing_column.yaml", false, "4:3", "skirmish: knocked_off.column names wound table column 'F', which skirmish.base_game.wound_table lacks"},
  };
  for (const Bad& b : cases) {
    vtest::TempDir dir;
    const std::string path = vtest::data(std::string("skirmish/bad/") + b.file);
    const std::string out = dir.path() + "/report";
    auto r = b.scenario ? run_vedette({"play", path, "--seed", "1"})
                        : run_vedette({"sim", patrol(), "--ruleset", path, "-n", "10", "--out", out});
    INFO(b.file << "\n" << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find(path + ":" + b.at + ": " + b.message) != std::string::npos);
    CHECK(r.out.empty());
    CHECK_FALSE(std::filesystem::exists(out));
  }
}

TEST_CASE("skirmish commands: vedette sweep plays the village patrol over a seed 001 setting") {
  auto r = run_vedette({"sweep", patrol(), "--set", "skirmish.close_combat.rider_modifier=-4,0", "-n", "300", "--seed", "1", "--threads", "2"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("`skirmish.close_combat.rider_modifier` over 2 values") != std::string::npos);
  CHECK(r.out.find("| -4 (current) | 300 |") != std::string::npos);  // tables/skirmish.yaml's value
  CHECK(r.out.find("| 0 | 300 |") != std::string::npos);
}

TEST_CASE("skirmish commands: in vedette play of the village patrol the skirmishers fire from the saddle on the move", "[skirmish][commands][001-L7-bots-fire-from-saddle]") {
  // Seed 001: "Only carbines, SMGs, or pistols may be fired while moving ...
  // a +12 to-hit modifier for firing on the move". The patrol's skirmishers
  // ride to point blank and fire their carbines from the saddle.
  int saddle_shots = 0;
  for (const char* seed : {"1", "2", "3", "4", "5", "6", "7", "8"}) {
    auto r = run_vedette({"play", patrol(), "--seed", seed});
    REQUIRE(r.status == 0);
    std::size_t at = 0;
    while ((at = r.out.find("from horseback +12", at)) != std::string::npos) {
      ++saddle_shots;
      ++at;
    }
  }
  CHECK(saddle_shots > 0);
}

}  // namespace t_skirmish_commands
