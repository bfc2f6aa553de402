// The lab on the engagement engine's scenarios (sims/lab/engine_model.cpp):
// sim's engagement i is play's engagement i; thread-count identity on every
// shipped scenario; decisions per RF band against the table's exact odds;
// the README's worked example (with and without infantry squares).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/decision/actions_table.hpp"
#include "helpers.hpp"
#include "sims/lab/harness.hpp"
#include "sims/report/report.hpp"

namespace t_lab_engine {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

namespace fs = std::filesystem;
using vtest::run_vedette;

namespace {

std::string scenario(const std::string& name) { return std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/" + name; }
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) out.push_back(cell);
  return out;
}

}  // namespace

TEST_CASE("lab engine: sim's engagement i is play's engagement i, figure for figure") {
  vtest::TempDir dir;
  for (const char* name : {"open_field_charge.yaml", "square_test.yaml", "flank_attack.yaml"}) {
    const std::string out = dir.path() + "/" + name;
    auto r = run_vedette({"sim", scenario(name), "-n", "30", "--seed", "5", "--threads", "2", "--out", out, "--csv"});
    REQUIRE(r.status == 0);
    std::ifstream csv(out + "/engagements.csv");
    std::string header_line, line;
    std::getline(csv, header_line);
    const auto header = split(header_line);
    std::vector<std::vector<std::string>> rows;
    while (std::getline(csv, line)) rows.push_back(split(line));
    REQUIRE(rows.size() == 30);
    auto col = [&](const std::string& h) {
      auto it = std::find(header.begin(), header.end(), h);
      REQUIRE(it != header.end());
      return static_cast<std::size_t>(it - header.begin());
    };
    for (std::size_t i : {0u, 7u, 29u}) {
      INFO(name << " engagement " << i);
      auto p = run_vedette({"play", scenario(name), "--seed", "5", "--index", std::to_string(i), "--json"});
      REQUIRE(p.status == 0);
      const auto o = nlohmann::json::parse(p.out)["outcome"];
      const auto& row = rows[i];
      CHECK(row[col("engagement")] == std::to_string(i));
      CHECK(row[col("winner")] == (o["winner"].is_null() ? std::string("draw") : o["winner"].get<std::string>()));
      CHECK(row[col("turns")] == std::to_string(o["turns"].get<int>()));
      for (const auto& [side, s] : o["sides"].items()) {
        CHECK(row[col(side + "_figures_lost")] == std::to_string(s["figures_lost"].get<int>()));
        CHECK(row[col(side + "_horses_lost")] == std::to_string(s["horses_lost"].get<int>()));
        CHECK(row[col(side + "_routs")] == std::to_string(s["routs"].get<int>()));
        CHECK(row[col(side + "_charges_declared")] == std::to_string(s["charges"]["declared"].get<int>()));
        CHECK(row[col(side + "_charges_broke")] == std::to_string(s["charges"]["broke"].get<int>()));
        CHECK(row[col(side + "_squares_formed")] == std::to_string(s["squares_formed"].get<int>()));
        CHECK(row[col(side + "_melee_hits")] == std::to_string(s["melee_hits"].get<int>()));
      }
      for (const auto& [band, behaviours] : o["behaviours_by_band"].items()) {
        int total = 0;
        for (const auto& [b, n] : behaviours.items()) total += n.get<int>();
        CHECK(row[col("decisions_" + band)] == std::to_string(total));
      }
    }
  }
}

TEST_CASE("lab engine: every shipped scenario gives the same summary on 1, 2 and 8 threads", "[heavy]") {
  vtest::TempDir dir;
  int scenarios = 0;
  for (const auto& e : fs::directory_iterator(std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios")) {
    if (e.path().extension() != ".yaml") continue;
    ++scenarios;
    std::string first;
    for (const char* threads : {"1", "2", "8"}) {
      const std::string out = dir.path() + "/" + e.path().stem().string() + threads;
      auto r = run_vedette({"sim", e.path().string(), "-n", "1500", "--seed", "77", "--threads", threads, "--out", out});
      INFO(e.path() << " on " << threads << " threads: " << r.err);
      REQUIRE(r.status == 0);
      const std::string json = slurp(out + "/summary.json");
      if (first.empty()) first = json;
      else CHECK(json == first);
    }
    // A funnel's stage is a part of its parent stage: never more than it
    // (else its "share of the stage it is a part of" is no proportion at all).
    const auto summary = nlohmann::json::parse(first);
    for (const auto& f : summary["funnels"]) {
      std::map<std::string, long long> total;
      for (const auto& st : f["stages"]) total[st["id"].get<std::string>()] = st["total"].get<long long>();
      for (const auto& st : f["stages"]) {
        if (st["parent"].is_null()) continue;
        INFO(e.path() << ": funnel " << f["id"] << ", stage " << st["id"] << " of " << st["parent"]);
        CHECK(st["total"].get<long long>() <= total[st["parent"].get<std::string>()]);
      }
    }
  }
  CHECK(scenarios >= 5);
}

TEST_CASE("lab engine: decisions per RF band follow the Actions Table's exact odds (within 4 SE)", "[heavy]") {
  // seed 002: whatever brought a unit into a band, its behaviour there is one
  // D6 on the band's row. Up to RF0 is left out: there the row depends on
  // whether the unit is at halt (the RF0 row), which the counts do not split.
  for (const char* name : {"open_field_charge.yaml", "flank_attack.yaml"}) {
    auto sc = vedette::lab::open_lab_scenario(scenario(name));
    auto model = sc->model(nullptr);
    const vedette::lab::Model* models[] = {model.get()};
    vedette::lab::HarnessOptions o;
    o.seed = 2718;
    o.n = 20000;
    o.threads = 2;
    auto res = vedette::lab::run_harness(models, o, vedette::lab::Sums(models), 0);
    const auto summary = vedette::lab::summarize(model->schema(), res.sums.tallies.front());
    const vedette::Ruleset& r = *sc->rules();
    int checked = 0;
    for (std::size_t b = 0; b < r.bands.size(); ++b) {
      if (r.bands[b].at_halt || summary.band_decisions[b] < 500) continue;
      const double n = static_cast<double>(summary.band_decisions[b]);
      for (std::size_t h = 0; h < r.behaviours.size(); ++h) {
        double exact = 0;
        for (const auto& [beh, f] : vedette::band_odds(r, r.bands[b], false))
          if (beh == &r.behaviours[h]) exact = f.value();
        const auto& p = summary.behaviour[b][h];
        INFO(name << " " << r.bands[b].id << " / " << r.behaviours[h].id << ": " << p.count << " of " << n << ", exact " << exact);
        if (exact == 0) {
          CHECK(p.count == 0);
          continue;
        }
        CHECK(std::fabs(p.p - exact) <= 4 * std::sqrt(exact * (1 - exact) / n));
        ++checked;
      }
    }
    CHECK(checked >= 4);
  }
}

TEST_CASE("lab engine: the README's worked example - the same scenario with and without infantry squares") {
  const std::string sq = std::string(VEDETTE_SOURCE_DIR) + "/tables/house-rules/infantry-square.yaml";
  auto r = run_vedette({"compare", scenario("square_test.yaml"), "--baseline", std::string(VEDETTE_SOURCE_DIR) + "/tables/default.yaml",
                        "--variant", sq, "-n", "5000", "--seed", "1", "--json"});
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  std::map<std::string, nlohmann::json> by_id;
  for (const auto& f : j["figures"]) by_id[f["id"]] = f;
  // The battalion forms squares only under the variant...
  CHECK(by_id["infantry_squares_formed"]["baseline"]["mean"] == 0.0);
  CHECK(by_id["infantry_squares_formed"]["difference"]["real"] == true);
  // ...and no charge breaks it any more (a square takes no morale check).
  CHECK(by_id["cavalry_charges_broke"]["variant"]["mean"] == 0.0);
  CHECK(by_id["cavalry_charges_broke"]["difference"]["real"] == true);
  CHECK(by_id["cavalry"]["difference"]["mean"].get<double>() < 0);
}

TEST_CASE("lab engine: a ruleset without a profile the scenario uses is refused") {
  vtest::TempDir dir;
  const std::string overlay = dir.write("no-lancers.yaml", "extends: " + std::string(VEDETTE_SOURCE_DIR) +
                                                                 "/tables/default.yaml\nname: no-lancers\nprofiles:\n  lancers: null\n");
  auto r = run_vedette({"compare", scenario("square_test.yaml"), "--variant", overlay, "-n", "100", "--out", dir.path() + "/never"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("has no unit profile 'lancers'"));
  CHECK_FALSE(fs::exists(dir.path() + "/never"));
  auto s = run_vedette({"sim", scenario("square_test.yaml"), "--ruleset", overlay, "-n", "100"});
  CHECK(s.status == 2);
  CHECK_THAT(s.err, Catch::Contains("lancers"));
}

TEST_CASE("lab engine: riders left on foot are not a figure of their own (the engine counts one with each horse lost, issue 31)") {
  // vedette play still tells both, and they are equal in every engagement...
  for (int i : {0, 3, 11}) {
    auto p = run_vedette({"play", scenario("open_field_charge.yaml"), "--seed", "5", "--index", std::to_string(i), "--json"});
    REQUIRE(p.status == 0);
    const auto doc = nlohmann::json::parse(p.out);  // items() holds a reference: the document must outlive the loop
    for (const auto& [side, s] : doc["outcome"]["sides"].items()) {
      INFO(side << " in engagement " << i);
      CHECK(s["dismounted_riders"] == s["horses_lost"]);
    }
  }
  // ... so the lab's reports give horses lost once.
  auto r = run_vedette({"sim", scenario("open_field_charge.yaml"), "-n", "200", "--seed", "5", "--threads", "1", "--json"});
  REQUIRE(r.status == 0);
  CHECK(r.out.find("dismounted_riders") == std::string::npos);
  CHECK(r.out.find("cavalry_horses_lost") != std::string::npos);
  auto text = run_vedette({"sim", scenario("open_field_charge.yaml"), "-n", "200", "--seed", "5", "--threads", "1"});
  REQUIRE(text.status == 0);
  CHECK(text.out.find("riders left on foot") == std::string::npos);
  CHECK(text.out.find("Cavalry: horses lost") != std::string::npos);
}

}  // namespace t_lab_engine
