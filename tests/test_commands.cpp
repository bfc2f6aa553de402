// The `vedette` commands run as a user runs them: the built binary
// (VEDETTE_EXE), its stdout and stderr captured separately, its exit status.
// docs/design.md: each command has --help, --json where output is data, exit 0 on
// success and 2 on bad input.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "cli_checks.hpp"
#include "helpers.hpp"

namespace t_commands {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using nlohmann::json;
using vtest::data;
using vtest::run_vedette;
using vtest::RunResult;
using vtest::run_bad;
using vtest::run_json;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::vector<std::pair<std::string, int>> breakdown(const json& j) {
  std::vector<std::pair<std::string, int>> v;
  for (const auto& t : j.at("breakdown")) v.emplace_back(t.at("id").get<std::string>(), t.at("value").get<int>());
  return v;
}

}  // namespace

TEST_CASE("commands: react --json with fact flags", "[commands][react]") {
  // seed 002 risk factors: hero -1, canter -1, enemy in range +1, raw in range +1, 25% casualties +2 = RF 2.
  json j = run_json({"react", "--json", "--hero", "--pace", "canter", "--enemy-in-range", "--raw", "--casualties", "25",
                     "--roll", "3"});
  CHECK(j.at("rf") == 2);
  CHECK(j.at("rf_given") == false);
  CHECK(breakdown(j) == std::vector<std::pair<std::string, int>>{
                            {"hero", -1}, {"cover_or_fast", -1}, {"enemy_in_range", 1}, {"raw_in_range", 1}, {"casualties", 2}});
  CHECK(j.at("breakdown")[4].at("reason") == "Per 10% of group wounded or killed (25%: 2 x 10%)");
  CHECK(j.at("band") == "RF2-5");
  CHECK(j.at("band_id") == "rf2_5");
  CHECK(j.at("roll") == 3);
  CHECK(j.at("rolled") == false);
  CHECK_FALSE(j.contains("seed"));
  CHECK(j.at("ruleset") == "seed-002-cavalry");
  // seed 002, Actions Table, RF2-5, D6 3.
  const json& b = j.at("behaviour");
  CHECK(b.at("id") == "walk_to_cover");
  CHECK(b.at("text") == "Walk to take cover in the nearest accessible terrain within 1 move, or away from all enemies");
  CHECK(b.at("pace") == "walk");
  CHECK(b.at("distance") == "1-30 cm");
  CHECK(b.at("direction") == "to_cover");
  CHECK(b.at("faces_enemy") == false);
  CHECK(b.at("charge_possible") == false);
  CHECK(b.at("running") == false);
  CHECK(j.at("pace_adjustment").is_null());
  CHECK(contains(j.at("instruction").get<std::string>(), "nearest accessible cover within one move (up to 30 cm)"));
}

TEST_CASE("commands: react --json with every fact flag", "[commands][react]") {
  // -1 hero, -1 cover/gallop (once), +1 in range, +1 raw, +3 (37.5%), +2 flank, +3 running (once) = 8: RF6-8.
  json j = run_json({"react", "--json", "--hero", "--cover", "--pace", "gallop", "--enemy-in-range", "--raw",
                     "--casualties", "37.5", "--enemy-flank-rear", "--ran-last-turn", "--retreated-from-melee", "--roll",
                     "1"});
  CHECK(j.at("rf") == 8);
  int sum = 0;
  for (const auto& t : j.at("breakdown")) sum += t.at("value").get<int>();
  CHECK(sum == 8);
  CHECK(breakdown(j) == std::vector<std::pair<std::string, int>>{{"hero", -1},
                                                                 {"cover_or_fast", -1},
                                                                 {"enemy_in_range", 1},
                                                                 {"raw_in_range", 1},
                                                                 {"casualties", 3},
                                                                 {"flank_rear", 2},
                                                                 {"running", 3}});
  CHECK(j.at("band") == "RF6-8");
  // seed 002, Actions Table, RF6-8, D6 1: flee at gallop (a running cell).
  CHECK(j.at("behaviour").at("id") == "flee_gallop");
  CHECK(j.at("behaviour").at("text") == "Flee at Gallop from nearest enemy");
  CHECK(j.at("behaviour").at("pace") == "gallop");
  CHECK(j.at("behaviour").at("running") == true);
  CHECK(j.at("behaviour").at("direction") == "away");
}

TEST_CASE("commands: react --casualties counts FULL 10% steps", "[commands][react][seed002]") {
  // seed 002 risk factors: "Per 10% of group wounded or killed".
  auto rf = [](const std::string& pct) {
    return run_json({"react", "--json", "--casualties", pct, "--roll", "1"}).at("rf").get<int>();
  };
  CHECK(rf("9") == 0);
  CHECK(rf("9.99") == 0);
  CHECK(rf("9.999") == 0);  // not a full 10%
  CHECK(rf("10") == 1);
  CHECK(rf("19.99") == 1);
  CHECK(rf("20") == 2);
  CHECK(rf("25%") == 2);
  CHECK(rf("100") == 10);
  RunResult r = run_bad({"react", "--casualties", "101", "--roll", "1"});
  CHECK(contains(r.err, "--casualties: expected a percentage from 0 to 100"));
  run_bad({"react", "--casualties", "lots", "--roll", "1"});
}

TEST_CASE("commands: react --roll N for each face", "[commands][react][seed002]") {
  // seed 002, Actions Table, row RF2-5, D6 1..6.
  const std::vector<std::pair<std::string, std::string>> row{
      {"canter_away", "Canter further from the nearest enemy"},
      {"walk_to_cover", "Walk to take cover in the nearest accessible terrain within 1 move, or away from all enemies"},
      {"walk_to_cover", "Walk to take cover in the nearest accessible terrain within 1 move, or away from all enemies"},
      {"halt_facing", "Halt in position facing the nearest enemy"},
      {"continue_facing_charge", "Continue current actions facing the nearest enemy (Charge?)"},
      {"gallop_advance_charge", "Advance towards nearest enemy at gallop (Charge?)"},
  };
  for (int face = 1; face <= 6; ++face) {
    INFO("D6 " << face);
    json j = run_json({"react", "--json", "--rf", "4", "--pace", "walk", "--roll", std::to_string(face)});
    CHECK(j.at("roll") == face);
    CHECK(j.at("rolled") == false);
    CHECK(j.at("rf") == 4);
    CHECK(j.at("rf_given") == true);
    CHECK(j.at("breakdown").empty());
    CHECK(j.at("behaviour").at("id") == row[static_cast<std::size_t>(face - 1)].first);
    CHECK(j.at("behaviour").at("text") == row[static_cast<std::size_t>(face - 1)].second);
    CHECK(j.at("behaviour").at("charge_possible") == (face >= 5));
    // The plain-text form says the same.
    RunResult t = run_vedette({"react", "--rf", "4", "--pace", "walk", "--roll", std::to_string(face)});
    CHECK(t.status == 0);
    CHECK(contains(t.out, "Risk factor 4  (band RF2-5)"));
    CHECK(contains(t.out, "D6: " + std::to_string(face) + " (your roll)"));
    CHECK(contains(t.out, "Table: " + row[static_cast<std::size_t>(face - 1)].second));
    CHECK(contains(t.out, "Next turn: the unit counts as running from the enemy (+3).") == (face == 1));
  }
}

TEST_CASE("commands: react --rf N picks the band", "[commands][react][seed002]") {
  const std::vector<std::pair<int, std::string>> cases{{-5, "Up to RF0"}, {-1, "Up to RF0"}, {0, "Up to RF0"},
                                                        {1, "RF1"},        {2, "RF2-5"},      {5, "RF2-5"},
                                                        {6, "RF6-8"},      {8, "RF6-8"},      {9, "RF9+"},
                                                        {50, "RF9+"}};
  for (const auto& [rf, band] : cases) {
    INFO("RF " << rf);
    json j = run_json({"react", "--json", "--rf", std::to_string(rf), "--roll", "2"});
    CHECK(j.at("rf") == rf);
    CHECK(j.at("band") == band);
  }
  // RF0 at halt: a 6 moves toward the nearest visible enemy; moving, it continues.
  json halt6 = run_json({"react", "--json", "--rf", "0", "--roll", "6"});
  CHECK(halt6.at("behaviour").at("id") == "advance_nearest_visible");
  json walk6 = run_json({"react", "--json", "--rf", "0", "--pace", "walk", "--roll", "6"});
  CHECK(walk6.at("behaviour").at("id") == "continue");
  CHECK(walk6.at("behaviour").at("pace") == "walk");
  // Outside -100..100 is refused.
  run_bad({"react", "--rf", "101", "--roll", "1"});
}

TEST_CASE("commands: react --seed repeats its roll", "[commands][react][dice]") {
  json a = run_json({"react", "--json", "--seed", "42"});
  json b = run_json({"react", "--json", "--seed", "42"});
  CHECK(a.at("roll") == b.at("roll"));
  CHECK(a.at("seed") == 42);
  CHECK(a.at("rolled") == true);
  // Golden: the first d6 of make_stream(42, 0, Subsystem::command).
  CHECK(a.at("roll") == 4);
  // Many seeds: each roll is a face, and each seed repeats.
  for (int s = 1; s <= 6; ++s) {
    json x = run_json({"react", "--json", "--seed", std::to_string(s * 1000)});
    json y = run_json({"react", "--json", "--seed", std::to_string(s * 1000)});
    CHECK(x.at("roll") == y.at("roll"));
    CHECK(x.at("roll").get<int>() >= 1);
    CHECK(x.at("roll").get<int>() <= 6);
  }
  // Text mode says how to repeat it.
  RunResult t = run_vedette({"react", "--seed", "42"});
  CHECK(t.status == 0);
  CHECK(contains(t.out, "D6: 4 (rolled; --seed 42 repeats it)"));
}

TEST_CASE("commands: react without --seed prints a seed that replays the roll", "[commands][react][dice]") {
  json a = run_json({"react", "--json", "--rf", "3"});
  REQUIRE(a.contains("seed"));
  json b = run_json({"react", "--json", "--rf", "3", "--seed", std::to_string(a.at("seed").get<std::uint64_t>())});
  CHECK(a.at("roll") == b.at("roll"));
  CHECK(a.at("behaviour") == b.at("behaviour"));
}

TEST_CASE("commands: react refuses bad input with exit 2", "[commands][react]") {
  RunResult r = run_bad({"react", "--rf", "3", "--hero", "--roll", "1"});
  CHECK(contains(r.err, "--rf gives the risk factor directly: leave out the fact flags"));
  run_bad({"react", "--rf", "3", "--casualties", "20", "--roll", "1"});

  RunResult seven = run_bad({"react", "--roll", "7"});
  CHECK(contains(seven.err, "--roll"));
  CHECK(contains(seven.err, "7"));
  run_bad({"react", "--roll", "0"});
  run_bad({"react", "--roll", "six"});

  RunResult flag = run_bad({"react", "--frobnicate"});
  CHECK(contains(flag.err, "--frobnicate"));
  CHECK(contains(flag.err, "vedette --help"));

  RunResult both = run_bad({"react", "--roll", "3", "--seed", "4"});
  CHECK(contains(both.err, "--roll excludes --seed"));

  RunResult pace = run_bad({"react", "--pace", "trot", "--roll", "1"});
  CHECK(contains(pace.err, "--pace"));

  RunResult streak = run_bad({"react", "--galloped", "2", "--roll", "1"});
  CHECK(contains(streak.err, "--galloped 2 needs --pace gallop"));

  RunResult type = run_bad({"react", "--type", "mounted-infantri", "--roll", "1"});
  CHECK(contains(type.err, "unknown unit type 'mounted-infantri'"));
  CHECK(contains(type.err, "expected one of: shock, shooting, mounted_infantry"));

  RunResult mi = run_bad({"react", "--type", "mounted-infantry", "--pace", "gallop", "--roll", "1"});
  CHECK(contains(mi.err, "Mounted infantry may never gallop"));

  RunResult nocmd = run_bad({});
  CHECK(contains(nocmd.err, "vedette"));
  run_bad({"gallop"});
}

TEST_CASE("commands: react mounted infantry never gallops", "[commands][react][seed002]") {
  // seed 002 cavalry supplement: "Mounted infantry may never move at gallop".
  json j = run_json({"react", "--json", "--type", "mounted-infantry", "--rf", "1", "--roll", "6"});
  CHECK(j.at("behaviour").at("id") == "gallop_advance_charge");
  CHECK(j.at("behaviour").at("pace") == "canter");
  CHECK(j.at("behaviour").at("distance") == "30-40 cm");
  CHECK(j.at("pace_adjustment") == "Mounted infantry may never gallop: canter instead (switches.no_gallop_pace).");
  CHECK(contains(j.at("instruction").get<std::string>(), "Canter 30-40 cm directly toward the nearest enemy."));

  RunResult t = run_vedette({"react", "--type", "mounted-infantry", "--rf", "1", "--roll", "6"});
  CHECK(t.status == 0);
  CHECK(contains(t.out, "Limit: Mounted infantry may never gallop: canter instead (switches.no_gallop_pace)."));

  // With the house rule no_gallop_pace: walk.
  json w = run_json({"react", "--json", "--ruleset", data("good/no_gallop_walk.yaml"), "--type", "mounted-infantry",
                     "--rf", "1", "--roll", "6"});
  CHECK(w.at("behaviour").at("pace") == "walk");
  CHECK(w.at("pace_adjustment") == "Mounted infantry may never gallop: walk instead (switches.no_gallop_pace).");

  // Shock cavalry gallops.
  json s = run_json({"react", "--json", "--type", "shock", "--rf", "1", "--roll", "6"});
  CHECK(s.at("behaviour").at("pace") == "gallop");
  CHECK(s.at("pace_adjustment").is_null());
}

TEST_CASE("commands: react after two turns of gallop forces a walk", "[commands][react][seed002]") {
  // seed 002 cavalry supplement: "Gallop is only allowed for 2 turns in a row,
  // after which the unit may only walk for a turn."
  json j = run_json({"react", "--json", "--pace", "gallop", "--galloped", "2", "--rf", "1", "--roll", "6"});
  CHECK(j.at("behaviour").at("id") == "gallop_advance_charge");
  CHECK(j.at("behaviour").at("pace") == "walk");
  CHECK(j.at("behaviour").at("distance") == "1-30 cm");
  CHECK(j.at("pace_adjustment") == "Galloped 2 turns in a row (the limit is 2): only walk this turn.");

  RunResult t = run_vedette({"react", "--pace", "gallop", "--galloped", "2", "--rf", "1", "--roll", "6"});
  CHECK(t.status == 0);
  CHECK(contains(t.out, "Limit: Galloped 2 turns in a row (the limit is 2): only walk this turn."));

  json one = run_json({"react", "--json", "--pace", "gallop", "--galloped", "1", "--rf", "1", "--roll", "6"});
  CHECK(one.at("behaviour").at("pace") == "gallop");
  CHECK(one.at("pace_adjustment").is_null());
}

TEST_CASE("commands: react --pace gallop means it galloped last turn (streak 1 by default)", "[commands][react][seed002]") {
  // seed 002 cavalry supplement: the gallop limit counts turns in a row, and a
  // unit whose last move was at gallop has galloped at least that one turn.
  json dflt = run_json({"react", "--json", "--pace", "gallop", "--rf", "1", "--roll", "6"});
  CHECK(dflt.at("behaviour").at("pace") == "gallop");  // its second gallop: allowed
  RunResult zero = run_vedette({"react", "--pace", "gallop", "--galloped", "0", "--rf", "1", "--roll", "6"});
  CHECK(zero.status == 2);
  CHECK(contains(zero.err, "--galloped 0 contradicts --pace gallop"));
}

TEST_CASE("commands: react --ruleset uses an overlay and reports a bad one", "[commands][react]") {
  json j = run_json({"react", "--json", "--ruleset", data("good/hero_minus_2.yaml"), "--hero", "--roll", "1"});
  CHECK(j.at("rf") == -2);
  CHECK(breakdown(j) == std::vector<std::pair<std::string, int>>{{"hero", -2}});

  RunResult bad = run_bad({"react", "--ruleset", data("bad/band_gap.yaml"), "--roll", "1"});
  CHECK(bad.err == data("bad/band_gap.yaml") +
                       ":5:10: gap between bands: no band covers RF 5 (band 'rf2_5' ends at 4, band 'rf6_8' starts at 6)\n");
}

TEST_CASE("commands: table --json gives exact odds as fractions", "[commands][table][seed002]") {
  json j = run_json({"table", "--json"});
  CHECK(j.at("ruleset") == "seed-002-cavalry");
  CHECK(j.at("sources") == json::array({"builtin:default"}));
  const json& bands = j.at("bands");
  REQUIRE(bands.size() == 5);
  auto odds = [](const json& list) {
    std::vector<std::pair<std::string, std::string>> v;
    for (const auto& o : list) v.emplace_back(o.at("behaviour").get<std::string>(), o.at("fraction").get<std::string>());
    return v;
  };
  using O = std::vector<std::pair<std::string, std::string>>;
  CHECK(bands[0].at("label") == "Up to RF0");
  CHECK(bands[0].at("min").is_null());
  CHECK(bands[0].at("max") == 0);
  CHECK(odds(bands[0].at("odds")) == O{{"continue", "1"}});
  CHECK(odds(bands[0].at("odds_at_halt")) == O{{"continue", "5/6"}, {"advance_nearest_visible", "1/6"}});
  CHECK(bands[0].at("text") ==
        "Continue current actions, unless at halt, and a 6 (D6) is thrown, in which case they will move towards the "
        "nearest visible enemy.");
  CHECK(odds(bands[1].at("odds")) ==
        O{{"walk_to_cover", "1/3"}, {"halt_facing", "1/6"}, {"continue_facing_charge", "1/3"}, {"gallop_advance_charge", "1/6"}});
  CHECK(odds(bands[2].at("odds")) == O{{"canter_away", "1/6"},
                                       {"walk_to_cover", "1/3"},
                                       {"halt_facing", "1/6"},
                                       {"continue_facing_charge", "1/6"},
                                       {"gallop_advance_charge", "1/6"}});
  CHECK(odds(bands[3].at("odds")) == O{{"flee_gallop", "1/6"},
                                       {"canter_away", "1/6"},
                                       {"walk_to_cover", "1/3"},
                                       {"halt_facing", "1/6"},
                                       {"continue_facing_charge", "1/6"}});
  CHECK(odds(bands[4].at("odds")) ==
        O{{"flee_gallop", "1/3"}, {"canter_away", "1/6"}, {"walk_to_cover", "1/3"}, {"halt_facing", "1/6"}});
  CHECK(bands[4].at("min") == 9);
  CHECK(bands[4].at("max").is_null());
  for (const auto& b : bands) {
    double sum = 0;
    for (const auto& o : b.at("odds")) sum += o.at("probability").get<double>();
    CHECK(sum == Approx(1.0));
    CHECK(b.at("cells").size() == 6);
    CHECK(b.contains("at_halt") == (b.at("id") == "rf0"));
  }
  CHECK(j.at("behaviours").at("gallop_advance_charge").at("charge_possible") == true);
  CHECK(j.at("behaviours").at("flee_gallop").at("running") == true);
  CHECK(j.at("modifiers").size() == 7);
}

TEST_CASE("commands: table --ruleset shows an overlay's change", "[commands][table]") {
  const std::string path = data("good/cell_map_form.yaml");
  json j = run_json({"table", "--json", "--ruleset", path});
  CHECK(j.at("sources") == json::array({"builtin:default", path}));
  const json& rf1 = j.at("bands")[1];
  CHECK(rf1.at("cells") ==
        json::array({"walk_to_cover", "walk_to_cover", "halt_facing", "continue_facing_charge", "continue_facing_charge", "halt_facing"}));
  bool halt_third = false;
  for (const auto& o : rf1.at("odds")) {
    if (o.at("behaviour") == "halt_facing") halt_third = o.at("fraction") == "1/3";
    CHECK(o.at("behaviour") != "gallop_advance_charge");
  }
  CHECK(halt_third);

  // The plain table names the overlay and shows the new row.
  RunResult t = run_vedette({"table", "--ruleset", path});
  CHECK(t.status == 0);
  CHECK(t.err.empty());
  CHECK(contains(t.out, "  from builtin:default\n  + " + path + "\n"));
  CHECK(contains(t.out, "D6: 1=walk_to_cover 2=walk_to_cover 3=halt_facing 4=continue_facing_charge 5=continue_facing_charge 6=halt_facing"));
  // The default's plain table shows the seed's row for comparison.
  RunResult d = run_vedette({"table"});
  CHECK(d.status == 0);
  CHECK(contains(d.out, "6=gallop_advance_charge"));
  CHECK(contains(d.out, "RF2-5  (RF 2 to 5)"));
  CHECK(contains(d.out, "1/3"));

  RunResult bad = run_bad({"table", "--ruleset", data("bad/row_5_cells.yaml")});
  CHECK(contains(bad.err, "row_5_cells.yaml:5:12: expected exactly 6 cells"));
}

TEST_CASE("commands: check a good file exits 0", "[commands][check]") {
  const std::string path = data("good/hero_minus_2.yaml");
  RunResult r = run_vedette({"check", path});
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(r.out == path + ": ok (ruleset 'seed-002-cavalry', 5 bands, 7 modifiers; an overlay on builtin:default)\n");
  RunResult all = run_vedette({"check", data("good/minimal_inches.yaml"), data("good/delete_hero.yaml"),
                               std::string(VEDETTE_SOURCE_DIR) + "/tables/default.yaml"});
  CHECK(all.status == 0);
  CHECK(all.err.empty());
}

TEST_CASE("commands: check a bad file exits 2 with file:line:col: message", "[commands][check]") {
  const std::string path = data("bad/unknown_key_modifers.yaml");
  RunResult r = run_vedette({"check", path});
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == path + ":3:1: unknown key 'modifers' in the ruleset, did you mean 'modifiers'?\n");

  // Several problems: one line each.
  const std::string several = data("bad/several_problems.yaml");
  RunResult s = run_vedette({"check", several});
  CHECK(s.status == 2);
  int lines = 0;
  for (char c : s.err) lines += c == '\n';
  CHECK(lines == 5);
  CHECK(s.err.rfind(several + ":3:8: unknown units 'furlongs'", 0) == 0);

  // A good and a bad file: 2, the good one still reported ok.
  const std::string good = data("good/walk_25cm.yaml");
  RunResult m = run_vedette({"check", good, path});
  CHECK(m.status == 2);
  CHECK(contains(m.out, good + ": ok"));
  CHECK(contains(m.err, path + ":3:1: "));

  // A file that is not there, and a folder.
  RunResult none = run_vedette({"check", data("bad/nope.yaml")});
  CHECK(none.status == 2);
  CHECK(none.err == data("bad/nope.yaml") + ": cannot open: No such file or directory\n");
  RunResult dir = run_vedette({"check", data("bad/a_folder.yaml")});
  CHECK(dir.status == 2);
  CHECK(dir.err == data("bad/a_folder.yaml") + ": is a folder; expected a YAML file\n");

  // No file at all is a usage error.
  RunResult usage = run_vedette({"check"});
  CHECK(usage.status == 2);
  CHECK(contains(usage.err, "files is required"));
}

TEST_CASE("commands: check --json lists each problem with its position", "[commands][check]") {
  const std::string good = data("good/hero_minus_2.yaml");
  const std::string bad = data("bad/band_overlap.yaml");
  RunResult r = run_vedette({"check", "--json", good, bad});
  CHECK(r.status == 2);
  CHECK(r.err.empty());
  json j = json::parse(r.out);
  REQUIRE(j.size() == 2);
  CHECK(j[0].at("ok") == true);
  CHECK(j[0].at("file") == good);
  CHECK(j[1].at("ok") == false);
  REQUIRE(j[1].at("problems").size() == 1);
  const json& p = j[1].at("problems")[0];
  CHECK(p.at("file") == bad);
  CHECK(p.at("line") == 5);
  CHECK(p.at("column") == 10);
  CHECK(p.at("message") == "band 'rf2_5' (RF 2-5) overlaps band 'rf1' (up to RF 2)");
}

TEST_CASE("commands: check --json with a file name that is not UTF-8 still prints JSON", "[commands][check]") {
  // JSON strings must be UTF-8: the name is printed with U+FFFD for the bad
  // byte rather than the command dying on it.
  RunResult r = run_vedette({"check", "--json", "no-such-\xff.yaml"});
  CHECK(r.status == 2);
  json j = json::parse(r.out);
  REQUIRE(j.size() == 1);
  CHECK(j[0].at("file") == "no-such-\xEF\xBF\xBD.yaml");
  CHECK(j[0].at("ok") == false);
}

TEST_CASE("commands: --help on each command exits 0", "[commands]") {
  // Every command `vedette --help` lists (sims/cli/cli.cpp builds only the
  // command a run names): each one's own help, and the same list, in the
  // same order, where an unknown word is refused.
  RunResult listing = run_vedette({"--help"});
  REQUIRE(listing.status == 0);
  std::vector<std::string> listed;
  const std::size_t heading = listing.out.find("\nSubcommands:\n");
  REQUIRE(heading != std::string::npos);
  // Each command's line starts with two spaces and its name; a long
  // description goes on over lines indented further.
  std::istringstream lines(listing.out.substr(heading + 14));
  for (std::string line; std::getline(lines, line) && !line.empty();)
    if (line.size() > 2 && line.compare(0, 2, "  ") == 0 && line[2] != ' ') listed.push_back(line.substr(2, line.find(' ', 2) - 2));
  CHECK(listed.size() == 17);
  std::string names;
  for (const std::string& cmd : listed) {
    INFO(cmd);
    names += " " + cmd;
    RunResult r = run_vedette({cmd, "--help"});
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(contains(r.out, "Usage: vedette " + cmd));
  }
  RunResult unknown = run_vedette({"frobnicate"});
  CHECK(unknown.status == 2);
  CHECK(contains(unknown.err, "(commands:" + names + ")"));
  RunResult react = run_vedette({"react", "--help"});
  for (const char* flag : {"--hero", "--cover", "--pace", "--galloped", "--enemy-in-range", "--raw", "--casualties",
                           "--enemy-flank-rear", "--ran-last-turn", "--retreated-from-melee", "--type", "--roll", "--seed",
                           "--rf", "--json", "--ruleset"})
    CHECK(contains(react.out, flag));
  RunResult top = run_vedette({"--help"});
  CHECK(top.status == 0);
  for (const char* cmd : {"react", "table", "check"}) CHECK(contains(top.out, cmd));
  RunResult version = run_vedette({"--version"});
  CHECK(version.status == 0);
  CHECK(contains(version.out, "vedette 0.1.0"));
}

}  // namespace t_commands
