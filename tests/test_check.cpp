// `vedette check FILE...` knows every format Vedette reads and says which
// it found; a bad file of each is refused with exit 2 and a located message.
// `vedette asl check` is the same check, for ASL Cavalry tables only.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

#include "engine/engagement/engagement.hpp"
#include "helpers.hpp"
#include "sims/cli/check_files.hpp"
#include "sims/solo/solo_module.hpp"

namespace t_check {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

namespace {

using vtest::data;
using vtest::run_vedette;

std::string src(const std::string& rel) { return std::string(VEDETTE_SOURCE_DIR) + "/" + rel; }

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The JSON `kind` vedette check --json gives for a good file.
std::string kind_of(const std::string& file) {
  auto r = run_vedette({"check", "--json", file});
  INFO(file << "\n" << r.out << r.err);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.size() == 1);
  return j[0].at("kind").get<std::string>();
}

}  // namespace

TEST_CASE("check: each format is recognised and named", "[check]") {
  CHECK(kind_of(src("tables/default.yaml")) == "ruleset");
  CHECK(kind_of(src("tables/house-rules/steady-veterans.yaml")) == "ruleset");
  CHECK(kind_of(data("good/hero_minus_2.yaml")) == "ruleset");
  CHECK(kind_of(src("tables/seed004.yaml")) == "seed004");
  CHECK(kind_of(src("tables/asl_cavalry.yaml")) == "asl_cavalry");
  CHECK(kind_of(data("good/asl_overlay.yaml")) == "asl_cavalry");
  CHECK(kind_of(src("sims/scenarios/wood_edge.yaml")) == "scenario");
  CHECK(kind_of(data("sessions/game.vedette.yaml")) == "session");
}

TEST_CASE("check: good files of every format in one run, each said ok with its kind", "[check]") {
  const std::string seed004 = src("tables/seed004.yaml");
  const std::string asl = src("tables/asl_cavalry.yaml");
  const std::string overlay = data("good/asl_overlay.yaml");
  const std::string house = src("tables/house-rules/infantry-square.yaml");
  const std::string scenario = src("sims/scenarios/open_field_charge.yaml");
  const std::string session = data("sessions/game.vedette.yaml");
  auto r = run_vedette({"check", src("tables/default.yaml"), house, seed004, asl, overlay, scenario, session});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(contains(r.out, "default.yaml: ok (ruleset 'seed-002-cavalry', 5 bands, 7 modifiers)\n"));
  CHECK(contains(r.out, house + ": ok (ruleset 'infantry-square', "));
  CHECK(contains(r.out, "; an overlay on "));
  CHECK(contains(r.out, seed004 + ": ok (seed 004 tables 'blocks-and-symbol-dice', a 6-face battle die, "));
  CHECK(contains(r.out, asl + ": ok (ASL Cavalry tables 'seed-000-asl-cavalry', "));
  CHECK(contains(r.out, overlay + ": ok (ASL Cavalry tables 'asl-short-charge', 13 terrains; an overlay on builtin:asl_cavalry)\n"));
  CHECK(contains(r.out, scenario + ": ok (scenario 'open-field-charge', "));
  CHECK(contains(r.out, session + ": ok (solo session, "));
}

TEST_CASE("check: a bad seed 004 table is located, exit 2", "[check][seed004]") {
  const std::string type = data("bad/seed004_wrong_type.yaml");
  const std::string face = data("bad/seed004_unknown_face.yaml");
  auto r = run_vedette({"check", type, face});
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == type + ":57:10: expected a whole number from 1 to 10 for retire hexes, found 'two'\n" + face +
                     ":14:58: unknown die face 'lance' (expected one of: infantry, cavalry, artillery, sabre, flag)\n");
}

TEST_CASE("check: a bad ASL Cavalry table, an overlay of an overlay, is known by its base and located", "[check][asl]") {
  // No ASL section names it: its base (good/asl_overlay.yaml) extends builtin:asl_cavalry.
  const std::string bad = data("bad/asl_overlay_bad_value.yaml");
  const std::string want = bad + ":4:20: expected a whole number from 0 to 1000 for charge min_range_hexes (13.6), found '-1'\n";
  auto r = run_vedette({"check", bad});
  CHECK(r.status == 2);
  CHECK(r.err == want);
  auto a = run_vedette({"asl", "check", bad});
  CHECK(a.status == 2);
  CHECK(a.err == want);
  auto w = run_vedette({"check", data("bad/asl_wrong_type.yaml")});
  CHECK(w.status == 2);
  CHECK(contains(w.err, "asl_wrong_type.yaml:3:20: expected a whole number from 1 to 1000 for movement horse_allotment (13.34)"));
}

TEST_CASE("check: asl check reads every file as ASL Cavalry tables, as check does for them", "[check][asl]") {
  const std::string overlay = data("good/asl_overlay.yaml");
  auto both = run_vedette({"check", overlay});
  auto asl = run_vedette({"asl", "check", overlay});
  CHECK(asl.status == 0);
  CHECK(asl.out == both.out);
  // A ruleset given to asl check is checked as ASL tables: refused.
  auto r = run_vedette({"asl", "check", src("tables/default.yaml")});
  CHECK(r.status == 2);
  CHECK(contains(r.err, "default.yaml:"));
  auto j = run_vedette({"asl", "check", "--json", overlay});
  CHECK(j.status == 0);
  auto doc = nlohmann::json::parse(j.out);
  CHECK(doc[0].at("kind") == "asl_cavalry");
  CHECK(doc[0].at("name") == "asl-short-charge");
}

TEST_CASE("check: bad rulesets, scenarios and sessions are still located, exit 2", "[check]") {
  auto r = run_vedette({"check", data("bad/unknown_key_modifers.yaml"), data("bad/scenario_unit_off_table.yaml"),
                        data("bad/session_wrong_type.yaml")});
  CHECK(r.status == 2);
  CHECK(contains(r.err, "unknown_key_modifers.yaml:3:1: unknown key 'modifers' in the ruleset"));
  CHECK(contains(r.err, "scenario_unit_off_table.yaml:7:83: unit 'Hussars' at (130cm, 60cm) is off the 120cm x 80cm table"));
  CHECK(contains(r.err, "session_wrong_type.yaml:7:7: expected a whole number from 0 to 18446744073709551615 for seed"));
}

// The module seam (docs/architecture.md): each module's table format names
// a registered module, and a module is found by its name or its aliases.

TEST_CASE("check: every table format is one registry entry and a module's names a registered module", "[check][modules]") {
  using vedette::cli::table_formats;
  std::vector<std::string> kinds;
  for (const auto& f : table_formats()) {
    INFO(f.kind);
    CHECK(f.check != nullptr);
    CHECK_FALSE(f.schema_name.empty());
    if (!f.module.empty()) CHECK(vedette::find_module(f.module) != nullptr);
    for (const auto& k : kinds) CHECK(k != f.kind);
    kinds.emplace_back(f.kind);
  }
  // The ruleset is what a file is when no other format claims it: last, with no sign of its own.
  CHECK(table_formats().back().kind == "ruleset");
  CHECK(table_formats().back().is == nullptr);
  CHECK(&vedette::cli::table_format_named("asl_cavalry") != &table_formats().back());
  CHECK_THROWS_AS(vedette::cli::table_format_named("no such"), std::out_of_range);
  // Through `vedette check`: each module's own table, by its keys.
  CHECK(kind_of(src("tables/asl_cavalry.yaml")) == "asl_cavalry");
  CHECK(kind_of(src("tables/seed004.yaml")) == "seed004");
}

TEST_CASE("modules: a module is found by its name or an alias and by nothing else", "[modules]") {
  const vedette::ModuleInfo* blocks = vedette::find_module("blocks");
  REQUIRE(blocks != nullptr);
  CHECK(vedette::find_module("seed004") == blocks);
  CHECK(vedette::find_module("engagement_blocks") == blocks);
  CHECK(vedette::find_module("figures") != nullptr);
  CHECK(vedette::find_module("figures") != blocks);
  CHECK(vedette::find_module("Blocks") == nullptr);
  CHECK(vedette::find_module("") == nullptr);
  for (const auto& m : vedette::modules()) {
    INFO(m.name);
    CHECK(vedette::find_module(m.name) == &m);
    for (auto a : m.aliases) CHECK(vedette::find_module(a) == &m);
  }
}

TEST_CASE("modules: each solo module is a registered engine module with its phrasing", "[modules][solo]") {
  REQUIRE_FALSE(vedette::solo::solo_modules().empty());
  for (const auto& m : vedette::solo::solo_modules()) {
    INFO(m.name);
    CHECK(vedette::find_module(m.name) != nullptr);
    CHECK(m.instruction != nullptr);
    CHECK_FALSE(m.summary.empty());
    CHECK(vedette::solo::find_solo_module(m.name) == &m);
  }
  CHECK(vedette::solo::find_solo_module("") == nullptr);  // the ruleset's own phrasing
  CHECK(vedette::solo::find_solo_module("blocks") == nullptr);
}

}  // namespace t_check
