// Scenario files (engine/engagement/scenario.hpp): the shipped scenarios load and check;
// malformed ones (tests/data/bad/scenario_*.yaml) each give located messages.
#include <catch2/catch.hpp>

#include <dirent.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "bots/registry.hpp"
#include "engine/engagement/scenario.hpp"
#include "helpers.hpp"

namespace t_scenario {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

std::string scenarios_dir() { return std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios"; }

std::vector<std::string> yaml_files(const std::string& dir, const std::string& prefix = "") {
  std::set<std::string> files;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return {};
  while (auto* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n.size() > 5 && n.compare(n.size() - 5, 5, ".yaml") == 0 && n.rfind(prefix, 0) == 0) files.insert(n);
  }
  ::closedir(d);
  return {files.begin(), files.end()};
}

// Every diagnostic, "line:col: message", the file name stripped.
std::string problems(const std::string& file) {
  try {
    (void)load_scenario_file(vtest::data("bad/" + file));
  } catch (const LoadError& e) {
    std::string s;
    for (const auto& d : e.diagnostics()) {
      if (d.where.file.find(file) == std::string::npos) s += d.where.file.substr(d.where.file.rfind('/') + 1) + ":";
      s += std::to_string(d.where.line) + ":" + std::to_string(d.where.column) + ": " + d.message + "\n";
    }
    // Paths inside messages (a circular extends names each file) are
    // given relative to the test data folder.
    const std::string folder = vtest::data("bad/");
    for (auto at = s.find(folder); at != std::string::npos; at = s.find(folder, at)) s.erase(at, folder.size());
    return s;
  }
  return "(loaded)";
}

struct BadScenario {
  const char* file;
  std::string expected;  // every diagnostic, in order (the test data folder left out)
};

const std::vector<BadScenario> k_bad_scenarios{
    // hex boards and seed 004 block units (issue 8)
    {"scenario_hex_off_board.yaml", "8:77: unit 'Hussars' at hex [13, 5] is off the 13 x 9 board (cols 0 to 12, rows 0 to 8)\n"},
    {"scenario_hex_two_units.yaml", "9:72: unit 'Foot' stands on the hex of unit 'Hussars': one unit per hex\n"},
    {"scenario_hex_unknown_terrain.yaml", "8:13: unknown hex terrain (a terrain of the seed 004 table) 'wood', did you mean 'woods'? (expected one of: open, woods, town, hill, river, marsh)\n"},
    {"scenario_hex_impassable.yaml", "13:77: unit 'Hussars' stands on impassable terrain (river)\n"},
    {"scenario_hex_position.yaml", "8:5: missing key 'hex' in unit 1\n8:82: unit 'Hussars': on a hex board a unit stands on `hex: [col, row]`, not `position:`\n"},
    {"scenario_blocks_on_table.yaml", "2:9: seed 004 block units need a hex board (`board: {type: hex, ...}`)\n"},
    {"scenario_unit_off_table.yaml", "7:83: unit 'Hussars' at (130cm, 60cm) is off the 120cm x 80cm table\n"},
    {"scenario_unknown_profile.yaml",
     "8:43: unknown profile 'hevy_foot', did you mean 'heavy_foot'? (expected one of: light_cavalry, lancers, medium_cavalry, "
     "heavy_cavalry, dragoons, peasants, levies, light_foot, heavy_foot, elite_foot, armoured_foot, pikes)\n"},
    {"scenario_unknown_bot.yaml",
     "4:29: unknown bot 'reaction_tabel', did you mean 'reaction_table'? (expected one of: reaction_table, thinking_cavalry, "
     "hold_and_shoot, advance_and_shoot, square_when_charged, pike_and_shoot)\n"},
    {"scenario_three_sides.yaml",
     "4:3: expected a map of exactly two sides (name: {edge, bot}), found 3 sides\n6:3: side 'allies' has no units\n"},
    {"scenario_length_without_unit.yaml",
     "7:84: expected a length with its unit (e.g. 30cm, 12in) for unit 'Hussars' position x, found '60'\n"},
    {"scenario_shape_twice.yaml", "5:7: terrain area 'Copse': expected exactly one of circle or polygon\n"},
    {"scenario_victory_unknown_side.yaml",
     "11:14: unknown winner side 'infantery', did you mean 'infantry'? (expected one of: cavalry, infantry)\n"},
    {"scenario_duplicate_unit.yaml", "8:12: two units are named 'Hussars'\n"},
    {"scenario_unknown_key.yaml", "1:1: missing key 'turns' in the scenario\n9:1: unknown key 'turn' in the scenario, did you mean 'turns'?\n"},
    {"scenario_side_without_units.yaml", "5:3: side 'infantry' has no units\n"},
    {"scenario_missing_ruleset.yaml",
     "2:10: the ruleset 'no-such-rules.yaml' does not load:\nno-such-rules.yaml:0:0: cannot open: No such file or directory\n"},
    {"scenario_in_impassable.yaml", "11:78: unit 'Foot' stands in impassable terrain\n"},
    {"scenario_dragoons_gallop.yaml",
     "7:112: unit 'Dragoons': Mounted infantry may never gallop (seed 002)\n"
     "8:109: unit 'Foot': only mounted cavalry starts at a pace\n"
     "11:30: victory condition 1: side_losses needs at_least (a percentage of the side's figures)\n"},
    // absurd values and hostile YAML (issue 7)
    {"scenario_syntax_error.yaml", "12:1: YAML syntax error: end of map flow not found\n"},
    {"scenario_wrong_type.yaml", "6:8: expected a list of units, found a value\n"},
    {"scenario_duplicate_key.yaml", "10:1: duplicate key 'turns' (first given at line 9)\n"},
    {"scenario_empty.yaml", "1:1: expected a map for the scenario, found nothing\n"},
    {"scenario_binary_junk.yaml", "4:1: not a text file (it contains a NUL byte); expected YAML\n"},
    {"scenario_deep_nesting.yaml", "10:46: nested too deeply (more than 32 levels)\n"},
    {"scenario_enormous_table.yaml", "2:16: expected a length of at most 1 km (100000cm) for table width, found '1" + std::string(308, '0') + "in'\n"},
    {"scenario_turns_million.yaml", "9:8: expected a whole number from 1 to 1000 for turns, found '1000000'\n"},
    {"scenario_negative_figures.yaml", "7:69: expected a whole number from 1 to 1000 for unit 'Hussars' figures, found '-12'\n"},
    {"scenario_nan_facing.yaml",
     "7:105: expected a number from -360 to 360 for unit 'Hussars' facing (degrees, 0 = up the table), found '.nan'\n"},
    {"scenario_infinite_cost.yaml",
     "5:75: expected a number from 0 to 100 for terrain area 'Bog' move_cost (a multiplier, or impassable), found '.inf'\n"},
    {"scenario_self_crossing_wood.yaml",
     "6:59: terrain area 'Twisted wood': its outline crosses itself (the side from point 4 meets the side from point 2); "
     "expected a simple polygon, its points in order around it\n"},
    {"scenario_polygon_too_many_points.yaml", "6:16: terrain area 'Huge lake': a polygon of 1001 points; at most 1000\n"},
    {"scenario_ruleset_cycle.yaml",
     "2:10: the ruleset 'circular_a.yaml' does not load:\n"
     "circular_b.yaml:2:10: circular extends: circular_a.yaml -> circular_b.yaml -> circular_a.yaml\n"},
    {"scenario_length_negative.yaml", "2:30: expected a length of zero or more for table depth, found '-80cm'\n"},
};

}  // namespace

TEST_CASE("scenario: every shipped scenario loads and is recognised as one", "[scenario]") {
  const auto files = yaml_files(scenarios_dir());
  REQUIRE(files.size() >= 5);  // issue 4: at least five shipped
  for (const auto& f : files) {
    INFO(f);
    const std::string path = scenarios_dir() + "/" + f;
    CHECK(is_scenario_file(path));
    ScenarioPtr s;
    REQUIRE_NOTHROW(s = load_scenario_file(path));
    CHECK(s->sides.size() == 2);
    CHECK_FALSE(s->units.empty());
    CHECK_FALSE(s->victory.empty());
    CHECK(s->board);
    CHECK((s->table != nullptr) != (s->hex != nullptr));  // a table or a hex board (issue 8)
  }
  CHECK_FALSE(is_scenario_file(std::string(VEDETTE_SOURCE_DIR) + "/tables/default.yaml"));
}

TEST_CASE("scenario: the open-field charge reads as written", "[scenario]") {
  ScenarioPtr s = load_scenario_file(scenarios_dir() + "/open_field_charge.yaml");
  CHECK(s->name == "open-field-charge");
  CHECK(s->rules->name == "seed-002-cavalry");
  CHECK(s->table->width() == Length::cm(120));
  CHECK(s->table->depth() == Length::cm(80));
  REQUIRE(s->sides.size() == 2);
  CHECK(s->sides[0].name == "cavalry");
  CHECK(s->sides[0].bot == "reaction_table");
  CHECK(s->sides[0].edge == Edge::top);
  CHECK(s->sides[1].bot == "hold_and_shoot");
  REQUIRE(s->units.size() == 2);
  CHECK(s->units[0].name == "Cuirassiers");
  CHECK(s->rules->profiles[s->units[0].profile].id == "heavy_cavalry");
  CHECK(s->units[0].position.x == Approx(60));
  CHECK(s->units[0].position.y == Approx(62));
  CHECK(s->units[0].facing == Approx(180));
  CHECK(s->units[0].pace == Pace::walk);
  CHECK(s->units[1].side == 1);
  CHECK(s->turns == 10);
  REQUIRE(s->victory.size() == 3);
  CHECK(s->victory[2].kind == VictoryCondition::Kind::side_losses);
  CHECK(s->victory[2].at_least_pct == 50);
  CHECK_FALSE(s->at_turn_limit);
}

TEST_CASE("scenario: a relative ruleset path is read from the scenario's folder", "[scenario]") {
  ScenarioPtr s = load_scenario_file(scenarios_dir() + "/square_test.yaml");
  CHECK(s->rules->name == "seed-002-cavalry-with-squares");
  CHECK(s->rules->charge.infantry_square.enabled);
  // --ruleset replaces it.
  ScenarioPtr t = load_scenario_file(scenarios_dir() + "/square_test.yaml", "builtin:default");
  CHECK_FALSE(t->rules->charge.infantry_square.enabled);
}

TEST_CASE("scenario: terrain is built into the table", "[scenario]") {
  ScenarioPtr s = load_scenario_file(scenarios_dir() + "/mounted_infantry_raid.yaml");
  REQUIRE(s->table->obstacles().size() == 1);
  CHECK(s->table->obstacles()[0].crossing_cost == Length::in(1));
  REQUIRE(s->table->hills().size() == 1);
  CHECK(s->table->height_at({95, 25}) == Length::cm(5));
  REQUIRE(s->table->areas().size() == 1);
  CHECK(std::isinf(s->table->areas()[0].move_cost));
}

TEST_CASE("scenario: malformed scenarios give every problem with line and column", "[scenario]") {
  for (const auto& c : k_bad_scenarios) {
    INFO(c.file);
    CHECK(problems(c.file) == c.expected);
  }
  CHECK(k_bad_scenarios.size() >= 8);
}

TEST_CASE("scenario: every tests/data/bad/scenario_*.yaml has an expected message", "[scenario]") {
  for (const auto& f : yaml_files(vtest::data("bad"), "scenario_")) {
    INFO(f);
    bool listed = false;
    for (const auto& c : k_bad_scenarios) listed = listed || f == c.file;
    CHECK(listed);
  }
}

TEST_CASE("scenario: vedette check validates scenarios as a user runs it", "[scenario][cli]") {
  auto ok = vtest::run_vedette({"check", scenarios_dir() + "/open_field_charge.yaml", scenarios_dir() + "/wood_edge.yaml"});
  CHECK(ok.status == 0);
  CHECK(ok.out.find("open_field_charge.yaml: ok (scenario 'open-field-charge', ruleset 'seed-002-cavalry', 2 units, 10 turns)") !=
        std::string::npos);
  auto bad = vtest::run_vedette({"check", vtest::data("bad/scenario_unit_off_table.yaml")});
  CHECK(bad.status == 2);
  CHECK(bad.err == vtest::data("bad/scenario_unit_off_table.yaml") +
                       ":7:83: unit 'Hussars' at (130cm, 60cm) is off the 120cm x 80cm table\n");
  auto json = vtest::run_vedette({"check", "--json", vtest::data("bad/scenario_unknown_bot.yaml")});
  CHECK(json.status == 2);
  CHECK(json.out.find("\"line\": 4") != std::string::npos);
  CHECK(json.out.find("\"column\": 29") != std::string::npos);
}

// An empty scenario document (`{}`): refused for its missing keys at its
// line and column, exit 2, nothing written. It used to crash the loader
// (it read the first key of a map with none).
TEST_CASE("scenario: an empty scenario document is refused for its missing keys, not a crash", "[scenario][cli]") {
  vtest::TempDir dir;
  const std::string file = dir.write("empty.yaml", "{}\n");
  auto r = vtest::run_vedette({"sim", file, "-n", "10", "--out", dir.path() + "/out"});
  CHECK(r.status == 2);
  CHECK(r.err.find(file + ":1:1: missing key 'scenario' in the scenario") != std::string::npos);
  CHECK(r.err.find(file + ":1:1: missing key 'units' in the scenario") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/out"));
}

}  // namespace t_scenario
