// vedette sensitivity (issue 18): the variants of a ruleset, their paired
// effects on common random numbers, and the command's JSON and report.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "cli_checks.hpp"
#include "engine/decision/ruleset_doc.hpp"
#include "sims/lab/sensitivity.hpp"

namespace t_sensitivity {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using vedette::lab::step_value;

namespace {

const std::string k_src = VEDETTE_SOURCE_DIR;
const std::string k_default = k_src + "/sims/scenarios/open_field_charge.yaml";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("sensitivity: one step of a number, written as it was", "[sensitivity]") {
  CHECK(step_value("3", +1) == "4");
  CHECK(step_value("3", -1) == "2");
  CHECK(step_value("+1", +1) == "+2");
  CHECK(step_value("+1", -1) == "0");
  CHECK(step_value("-1", -1) == "-2");
  CHECK(step_value("30cm", +1) == "31cm");
  CHECK(step_value("6in", -1) == "5in");
  CHECK(step_value("25mm", +1) == "30mm");
  CHECK(step_value("0.25", +1) == "0.275");
  CHECK(step_value("1.5", -1) == "1.35");
  CHECK(step_value("0.0", +1) == "0.1");
  CHECK(step_value("true", +1).empty());
  CHECK(step_value("walk", +1).empty());
}

TEST_CASE("sensitivity: the default ruleset's variants: numbers, band bounds moved together, cells given their neighbours",
          "[sensitivity]") {
  const auto doc = vedette::load_ruleset_doc("builtin:default");
  const auto vs = vedette::lab::sensitivity_variants(doc);
  std::set<std::string> keys;
  for (const auto& v : vs) {
    keys.insert(v.setting + " " + v.change);
    CHECK(v.setting.find(".text") == std::string::npos);
    CHECK(v.setting.rfind("behaviours.", 0) != 0);
    CHECK(v.from != v.to);
  }
  CHECK(keys.count("modifiers.hero.value +1"));
  CHECK(keys.count("modifiers.hero.value -1"));
  CHECK(keys.count("paces.walk.max +1cm"));
  CHECK(keys.count("turning.per_move_fraction +10%"));
  CHECK(keys.count("difficulty.rf_offset -1"));
  CHECK(keys.count("charge.morale.table.heavy_foot.need.3 +1"));
  // The bound between RF1 and RF2-5 moves as one: both edits.
  bool bound = false;
  for (const auto& v : vs)
    if (v.setting == "bands.rf1.max" && v.change.rfind("+1", 0) == 0) {
      bound = true;
      REQUIRE(v.edits.size() == 2);
      CHECK(v.edits[0] == std::pair<std::string, std::string>{"bands.rf1.max", "2"});
      CHECK(v.edits[1] == std::pair<std::string, std::string>{"bands.rf2_5.min", "3"});
    }
  CHECK(bound);
  // RF1's first cell (walk_to_cover): face 2 is the same behaviour (no
  // variant); the bands either side give continue (rf0) and canter_away (rf2_5).
  std::set<std::string> first_cell;
  for (const auto& v : vs)
    if (v.setting == "bands.rf1.cells.1") first_cell.insert(v.to);
  CHECK(first_cell == std::set<std::string>{"continue", "canter_away"});
  CHECK_FALSE(keys.count("bands.rf1.min +1"));  // bounds only move in pairs
}

TEST_CASE("sensitivity: vedette sensitivity ranks paired effects, and each equals the sweep's difference on the same dice",
          "[sensitivity][cli]") {
  vtest::TempDir dir;
  auto j = vtest::run_json({"sensitivity", k_default, "-n", "600", "--seed", "5", "--threads", "2", "--json", "--out", dir.path()});
  CHECK(j["vedette"] == "sensitivity");
  CHECK_FALSE(j.contains("rule"));  // the scenario's own whole ruleset: no diff to show
  const auto& effects = j["effects"];
  REQUIRE(effects.size() > 300);
  double last = 1;
  std::size_t real = 0;
  for (const auto& e : effects) {
    for (const char* k : {"setting", "change", "outcome", "delta", "lo", "hi", "p", "real"}) REQUIRE(e.contains(k));
    const double d = std::fabs(e["delta"].get<double>());
    CHECK(d <= last + 1e-12);
    last = d;
    if (e["real"].get<bool>()) {
      ++real;
      CHECK(e["p"].get<double>() < 0.05);
      CHECK((e["lo"].get<double>() > 0 || e["hi"].get<double>() < 0));
    }
  }
  CHECK(real > 0);
  // A switch that is off makes its numbers irrelevant: exactly no effect.
  for (const auto& e : effects)
    if (e["setting"].get<std::string>().rfind("charge.fear_of_charge.", 0) == 0) {
      INFO(e.dump());
      CHECK(e["delta"].get<double>() == 0.0);
      CHECK(e["real"] == false);
    }
  // The largest single-edit effect against `vedette sweep` on the same seed:
  // the paired difference is exactly the difference of the two counts.
  for (const auto& e : effects) {
    const std::string change = e["change"];
    if (change.find("(and") != std::string::npos) continue;  // a band bound: two edits
    const std::string setting = e["setting"];
    auto w = vtest::run_json({"sweep", k_default, "--set", setting + "=" + e["from"].get<std::string>() + "," + e["to"].get<std::string>(), "-n",
                              "600", "--seed", "5", "--threads", "1", "--json"});
    auto count = [&](int point) {
      for (const auto& o : w["points"][point]["outcomes"])
        if (o["id"] == e["outcome"]) return o["count"].get<long long>();
      FAIL("no outcome");
      return 0LL;
    };
    INFO(e.dump());
    CHECK(std::llround(e["delta"].get<double>() * 600) == count(1) - count(0));
    CHECK(e["delta"].get<double>() != 0.0);
    break;
  }
  const std::string html = slurp(dir.path() + "/report.html");
  CHECK(html.find("id=\"chart-tornado-cavalry\"") != std::string::npos);
  CHECK(html.find("Largest effect: ") != std::string::npos);
  CHECK(nlohmann::json::parse(slurp(dir.path() + "/summary.json")) == j);
}

TEST_CASE("sensitivity: an overlay's report starts with what it changes against its base", "[sensitivity][cli]") {
  vtest::TempDir dir;
  const std::string overlay = k_src + "/tables/house-rules/steady-veterans.yaml";
  auto j = vtest::run_json({"sensitivity", k_default, "--ruleset", overlay, "-n", "50", "--seed", "3", "--json", "--out", dir.path()});
  REQUIRE(j.contains("rule"));
  CHECK(j["rule"]["changes"].size() > 0);
  const std::string html = slurp(dir.path() + "/report.html");
  const auto rule_at = html.find("<h2>The rule</h2>");
  REQUIRE(rule_at != std::string::npos);
  CHECK(rule_at < html.find("<h2>What moves"));
  CHECK(html.find("steady-veterans.yaml against") != std::string::npos);
  auto text = vtest::run_vedette({"sensitivity", k_default, "--ruleset", overlay, "-n", "50", "--seed", "3"});
  REQUIRE(text.status == 0);
  CHECK(text.out.find("## The rule") < text.out.find("Base:"));
}

TEST_CASE("sensitivity: the same seed gives the same effects whatever the thread count", "[sensitivity][cli][heavy]") {
  auto a = vtest::run_json({"sensitivity", k_default, "-n", "300", "--seed", "9", "--threads", "1", "--json"});
  auto b = vtest::run_json({"sensitivity", k_default, "-n", "300", "--seed", "9", "--threads", "2", "--json"});
  CHECK(a["effects"] == b["effects"]);
}

TEST_CASE("sensitivity: bad input is refused before anything is played or written", "[sensitivity][cli]") {
  vtest::TempDir dir;
  auto r = vtest::run_bad({"sensitivity", k_default, "-n", "0"});
  CHECK(r.err.find("-n 0") != std::string::npos);
  auto s = vtest::run_bad({"sensitivity", dir.path() + "/missing.yaml", "--out", dir.path() + "/out"});
  CHECK(s.err.find("missing.yaml") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/out"));
}

// Issue 31: settings in words beside their keys, "matters" apart from
// "detectable", one progress bar for the whole run, the default scenario.
TEST_CASE("sensitivity: settings in words from the ruleset's own texts, the key beside", "[sensitivity]") {
  const vedette::Doc doc = vedette::load_ruleset_doc("builtin:default");
  using vedette::lab::setting_words;
  CHECK(setting_words(doc, "combat.melee.figures_per_die") == "Combat, melee: figures per die");
  // A modifier by its text, a band by its label, a weapon by its name (tables/default.yaml).
  CHECK(setting_words(doc, "modifiers.casualties.value") == "RF modifier, 'Per 10% of group wounded or killed': value");
  CHECK(setting_words(doc, "bands.rf2_5.cells.6") == "Actions Table, 'RF2-5', face 6");
  CHECK(setting_words(doc, "bands.rf0.at_halt.6") == "Actions Table, 'Up to RF0', at the halt, face 6");
  CHECK(setting_words(doc, "weapons.musket.bands.1.hit") == "Weapon, 'Musket', bands, #1: hit");
  CHECK(setting_words(doc, "difficulty.rf_offset") == "Difficulty: RF offset");
  CHECK(setting_words(doc, "combat.morale.rout_losses_pct") == "Combat, morale: rout losses %");
  for (const auto& v : vedette::lab::sensitivity_variants(doc)) {
    INFO(v.setting);
    CHECK_FALSE(v.words.empty());
    CHECK(v.words.find('.') == std::string::npos);  // no dotted path left in the words
  }
}

TEST_CASE("sensitivity: --min-effect separates what matters from what is only detectable", "[sensitivity][cli][heavy]") {
  auto j = vtest::run_json({"sensitivity", "-n", "2000", "--seed", "5", "--json", "--min-effect", "3"});
  CHECK(j["min_effect"] == 0.03);
  std::size_t matters = 0, small = 0;
  for (const auto& e : j["effects"]) {
    INFO(e.dump());
    REQUIRE(e.contains("words"));
    const bool real = e["real"], m = e["matters"];
    CHECK(m == (real && std::fabs(e["delta"].get<double>()) >= 0.03));
    matters += m;
    small += real && !m;
  }
  CHECK(matters > 0);
  CHECK(small > 0);  // detectable at 2,000 engagements, yet under 3 pp
  CHECK(j["headline"].get<std::string>().find(std::to_string(matters) + " of ") != std::string::npos);
  // Markdown: the words, the key beside, the verdict.
  auto md = vtest::run_vedette({"sensitivity", "-n", "300", "--seed", "5", "--min-effect", "3"});
  REQUIRE(md.status == 0);
  CHECK(md.out.find("| setting | key | change |") != std::string::npos);
  CHECK(md.out.find("`combat.melee.figures_per_die`") != std::string::npos);
  CHECK(vtest::run_bad({"sensitivity", "--min-effect", "200"}).err.find("--min-effect") != std::string::npos);
}

TEST_CASE("sensitivity: one progress bar for the whole run, never starting again at 0 for a batch", "[sensitivity]") {
  auto scenario = vedette::lab::open_lab_scenario(k_default);
  vedette::lab::SensitivityOptions o;
  o.seed = 3;
  o.n = 40;  // what is counted, not what is found: few engagements a variant do
  o.batch = 64;
  std::ostringstream bar;
  o.progress = &bar;
  const auto res = vedette::lab::run_sensitivity(*scenario, scenario->ruleset_path(), {}, o);
  const std::size_t batches = (res.variants + 63) / 64;
  REQUIRE(batches > 2);
  // Every redraw ("[###...] 400 / 1,000  ...") counts against the whole
  // run, and what is done only grows.
  auto whole = [](std::string t) {
    t.erase(std::remove(t.begin(), t.end(), ','), t.end());
    return std::stoll(t);
  };
  std::size_t draws = 0;
  long long last = -1;
  for (std::size_t at = bar.str().find(']'); at != std::string::npos; at = bar.str().find(']', at + 1)) {
    const std::string rest = bar.str().substr(at + 2);
    const auto slash = rest.find(" / ");
    REQUIRE(slash != std::string::npos);
    const auto total_end = rest.find(' ', slash + 3);
    CHECK(whole(rest.substr(slash + 3, total_end - slash - 3)) == static_cast<long long>(batches * o.n));
    CHECK(whole(rest.substr(0, slash)) >= last);
    last = whole(rest.substr(0, slash));
    ++draws;
  }
  CHECK(draws >= batches);
  CHECK(bar.str().find("variants 1-64 of ") != std::string::npos);
}

TEST_CASE("sensitivity: the base played once and kept gives the effects of the base played beside every batch",
          "[sensitivity]") {
  auto scenario = vedette::lab::open_lab_scenario(k_default);
  vedette::lab::SensitivityOptions o;
  o.seed = 11;
  o.n = 64;
  o.batch = 96;
  o.threads = 2;
  const auto kept = vedette::lab::run_sensitivity(*scenario, scenario->ruleset_path(), {}, o);
  o.keep_base = 0;  // the former way: the base beside each batch
  const auto again = vedette::lab::run_sensitivity(*scenario, scenario->ruleset_path(), {}, o);
  REQUIRE(kept.variants > 2 * o.batch);  // two batches after the first
  REQUIRE(kept.effects.size() == again.effects.size());
  std::int64_t changed = 0;
  for (std::size_t i = 0; i < kept.effects.size(); ++i) {
    INFO(kept.effects[i].setting << " " << kept.effects[i].change << " " << kept.effects[i].outcome);
    CHECK(kept.effects[i].setting == again.effects[i].setting);
    CHECK(kept.effects[i].outcome == again.effects[i].outcome);
    CHECK(kept.effects[i].differ == again.effects[i].differ);
    CHECK(kept.effects[i].diff.mean == again.effects[i].diff.mean);
    changed += kept.effects[i].differ;
  }
  CHECK(changed > 0);  // the pairs compared are not all empty
  CHECK(kept.unchanged == again.unchanged);
  CHECK(kept.base.size() == again.base.size());
}

}  // namespace t_sensitivity
