// Ruleset loading: malformed files (tests/data/bad/) must each give a
// located message saying what was expected; good overlays (tests/data/good/)
// must change exactly what they say and nothing else. docs/design.md: "Errors are
// located. Every problem in a file the user wrote names the file, line,
// column and key, and says what was expected."
#include <catch2/catch.hpp>

#include <dirent.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/decision/actions_table.hpp"
#include "engine/core/doc.hpp"
#include "engine/decision/risk_factor.hpp"
#include "engine/decision/ruleset.hpp"
#include "helpers.hpp"

namespace t_loader {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;
using vtest::all_messages;
using vtest::data;
using vtest::load_errors;

namespace {

struct BadCase {
  const char* file;     // under tests/data/bad/
  int line;             // expected location of the (first) diagnostic
  int column;
  const char* message;  // a substring of its message
  std::size_t count;    // how many diagnostics in all (no cascades)
};

// One row per malformed file. Line and column are 1-based positions in that
// file; 0:0 means the whole file (it could not be read as YAML at all).
const std::vector<BadCase> k_bad{
    // unknown keys, with and without a suggestion
    {"unknown_key_modifers.yaml", 3, 1, "unknown key 'modifers' in the ruleset, did you mean 'modifiers'?", 1},
    {"unknown_key_in_modifier.yaml", 5, 5, "unknown key 'vaule' in modifier 'hero', did you mean 'value'?", 1},
    {"unknown_key_no_suggestion.yaml", 3, 1, "unknown key 'colour' in the ruleset (expected one of: name, description, units", 1},
    // wrong types
    {"modifiers_list.yaml", 4, 3, "expected a map of modifiers (id: {text, value, when}), found a list", 1},
    {"value_text.yaml", 5, 12, "expected a whole number from -100 to 100 for modifier 'hero' value, found 'minus one'", 1},
    {"value_out_of_range.yaml", 5, 12, "expected a whole number from -100 to 100 for modifier 'flank_rear' value, found '1000'", 1},
    {"bool_not_bool.yaml", 5, 18, "expected true or false for behaviour 'halt_facing' faces_enemy, found 'maybe'", 1},
    {"top_level_list.yaml", 2, 1, "expected a map for the ruleset, found a list", 1},
    {"extends_not_text.yaml", 2, 10, "expected the path of a base ruleset for extends, found a list", 1},
    // duplicate key
    {"duplicate_key.yaml", 7, 5, "duplicate key 'value' (first given at line 5)", 1},
    // the bands of the Actions Table
    {"band_gap.yaml", 5, 10, "gap between bands: no band covers RF 5 (band 'rf2_5' ends at 4, band 'rf6_8' starts at 6)", 1},
    {"band_overlap.yaml", 5, 10, "band 'rf2_5' (RF 2-5) overlaps band 'rf1' (up to RF 2)", 1},
    {"band_deleted.yaml", 4, 3, "gap between bands: no band covers RF 1 (band 'rf0' ends at 0, band 'rf2_5' starts at 2)", 1},
    {"lowest_band_min.yaml", 5, 10, "band 'rf0' is the lowest band, so it must have no min", 1},
    {"highest_band_max.yaml", 5, 10, "band 'rf9_plus' is the highest band, so it must have no max; RFs above 20 would have no band", 1},
    {"band_min_deleted.yaml", 4, 3, "bands 'rf0' and 'rf1' are both open-ended", 1},
    {"band_min_above_max.yaml", 5, 10, "band 'rf6_8': min 9 is above max 8", 1},
    {"band_min_text.yaml", 5, 10, "expected a whole number from -1000 to 1000 for band 'rf2_5' min, found 'two'", 1},
    {"standalone_open_bands.yaml", 8, 3, "bands 'low' and 'high' are both open-ended", 2},  // + missing charge
    // rows and cells
    {"row_5_cells.yaml", 5, 12, "expected exactly 6 cells (D6 faces 1-6) in band 'rf1' cells, found 5", 1},
    {"row_7_cells.yaml", 6, 7, "expected exactly 6 cells (D6 faces 1-6) in band 'rf6_8' cells, found 7", 1},
    {"unknown_behaviour_cell.yaml", 5, 16,
     "unknown behaviour 'gallop_advance_charg', did you mean 'gallop_advance_charge'? (expected one of: continue,", 1},
    {"cells_face_out_of_range.yaml", 5, 13, "no face 7 on a D6: a map of cells replaces faces 1 to 6 of the row by number", 1},
    // behaviours
    {"behaviour_text_deleted.yaml", 5, 5, "missing key 'text' in behaviour 'halt_facing'", 1},
    // modifiers
    {"unknown_fact_when.yaml", 5, 11, "unknown fact 'heroes', did you mean 'hero'? (expected one of: hero, in_cover,", 1},
    {"per_non_numeric.yaml", 7, 10, "modifier 'raw_count': per needs a numeric fact (casualties_pct), 'raw' is true or false", 1},
    {"when_and_when_any.yaml", 5, 5, "modifier 'hero': expected exactly one of when, when_any or per (found 2)", 1},
    {"missing_text.yaml", 5, 5, "missing key 'text' in modifier 'galloping'", 1},
    {"stack_with_when.yaml", 5, 12, "modifier 'hero': stack belongs only with when_any", 1},
    {"step_without_per.yaml", 5, 11, "modifier 'flank_rear': step belongs only with per", 1},
    // extends
    {"circular_a.yaml", 2, 10, "circular extends: ", 1},
    {"missing_extends.yaml", 2, 10, "extends a ruleset that does not exist: 'no_such_base.yaml'", 1},
    {"extends_unknown_builtin.yaml", 2, 10,
     "extends a built-in ruleset that does not exist: 'builtin:defualt' (built in: builtin:default), did you mean 'builtin:default'?", 1},
    {"extends_file_typo.yaml", 2, 10, "extends a ruleset that does not exist: 'several_problem.yaml'", 1},  // + did you mean (test_bad_input)
    {"tab_indentation.yaml", 5, 1, "tabs are not allowed for indentation; indent with spaces", 1},
    // YAML itself
    {"syntax_unclosed_bracket.yaml", 6, 5, "YAML syntax error: end of sequence flow not found", 1},
    {"empty.yaml", 1, 1, "expected a map for the ruleset, found nothing", 1},
    {"binary_junk.yaml", 2, 7, "not a text file (it contains a NUL byte); expected YAML", 1},
    {"a_folder.yaml", 0, 0, "is a folder; expected a YAML file", 1},
    // lengths and paces (seed 002 cavalry supplement)
    {"length_no_unit.yaml", 5, 10, "expected a length with its unit (e.g. 30cm, 12in) for walk max, found '30'", 1},
    {"negative_length.yaml", 4, 15, "expected a length of zero or more for walk min, found '-5cm'", 1},
    {"pace_min_above_max.yaml", 5, 10, "pace canter: min 45cm is above max 40cm", 1},
    {"gallop_limit_then_gallop.yaml", 4, 9, "unknown pace 'gallop' (expected one of: halt, walk, canter)", 1},
    {"no_gallop_pace_gallop.yaml", 4, 19, "unknown no_gallop_pace 'gallop' (expected one of: halt, walk, canter)", 1},
    {"section_deleted.yaml", 2, 1, "missing key 'paces' in the ruleset", 1},
    // hits on mounted figures (seed 002: horse 1-4, rider 5-6)
    {"hits_face_twice.yaml", 4, 23, "D6 face 5 is given twice in hits_on_mounted", 1},
    {"hits_face_missing.yaml", 4, 3, "hits_on_mounted: D6 face 4 hits neither horse nor rider", 1},
    // units
    {"bad_units.yaml", 3, 8, "unknown units 'furlongs' (expected one of: cm, in, mm)", 1},
    // several at once
    {"several_problems.yaml", 3, 8, "unknown units 'furlongs'", 5},
    {"several_problems_2.yaml", 3, 8, "unknown units 'furlongs'", 3},
    {"standalone_missing_sections.yaml", 2, 1, "missing key 'behaviours' in the ruleset", 10},
    // the engagement sections (engine/decision/battle_rules.cpp; more in test_engagement_rules.cpp)
    {"ruleset_profile_errors.yaml", 3, 21, "unknown weight 'enormous' (expected one of: light, medium, heavy)", 4},
    {"ruleset_weapon_errors.yaml", 7, 14, "weapon 'bow' band 2: range bands must get longer", 2},
    // issue 28: a unit type's weapon when none is named (vedette solo new)
    {"default_weapon_unknown.yaml", 5, 21, "unit type 'shooting' default_weapon: no weapon 'carbin' in the ruleset, did you mean 'carbine'?", 1},
    // absurd values and hostile YAML (issue 7)
    {"enormous_number.yaml", 4, 12, "expected a whole number from -100 to 100 for modifier 'hero' value, found '99999999999999999999999999'", 1},
    {"nan_fraction.yaml", 3, 22, "expected a number from 0.01 to 1 for turning per_move_fraction, found '.nan'", 1},
    {"infinite_length.yaml", 4, 17, "expected a length of at most 1 km (100000cm) for gallop max", 1},
    {"negative_count.yaml", 3, 10, "expected a whole number from 1 to 100 for gallop_limit turns, found '-2'", 1},
    {"deep_nesting.yaml", 35, 67, "nested too deeply (more than 32 levels)", 1},
    {"invalid_utf8.yaml", 2, 10, "not UTF-8 text (byte 0xE9 is not part of a valid character); expected YAML in UTF-8", 1},
    {"alias_loop.yaml", 3, 8, "an alias inside the very value it names (a loop)", 1},
};

const BadCase* find_case(const std::string& file) {
  for (const auto& c : k_bad)
    if (file == c.file) return &c;
  return nullptr;
}

// Everything a ruleset holds except where it came from, one fact a line, so
// two rulesets can be compared and a difference read in the failure message.
std::string describe(const Ruleset& r) {
  std::ostringstream o;
  o << "name " << r.name << "\ndescription " << r.description << "\nunits " << unit_name(r.units) << "\n";
  for (const auto& b : r.behaviours)
    o << "behaviour " << b.id << " text=" << b.text << " pace=" << int(b.pace) << " dir=" << int(b.direction)
      << " target=" << int(b.target) << " faces=" << b.faces_enemy << " charge=" << b.charge_possible
      << " running=" << b.running << "\n";
  for (const auto& b : r.bands) {
    o << "band " << b.id << " label=" << b.label << " text=" << b.text << " min=" << b.min << " max=" << b.max << " cells=";
    for (auto c : b.cells) o << r.behaviour(c).id << ",";
    if (b.at_halt) {
      o << " at_halt=";
      for (auto c : *b.at_halt) o << r.behaviour(c).id << ",";
    }
    o << "\n";
  }
  for (const auto& m : r.modifiers) {
    o << "modifier " << m.id << " text=" << m.text << " value=" << m.value << " kind=" << int(m.kind) << " facts=";
    for (auto f : m.facts) o << fact_name(f) << ",";
    o << " stack=" << m.stack << " step=" << m.step << "\n";
  }
  for (const auto& t : r.unit_types)
    o << "unit_type " << t.id << " name=" << t.name << " gallop=" << t.can_gallop << " shoots=" << t.shoots_mounted
      << " melee=" << t.melee << " charging=" << t.melee_charging << "\n";
  const auto& s = r.supplement;
  for (Pace p : {Pace::halt, Pace::walk, Pace::canter, Pace::gallop})
    o << "pace " << pace_name(p) << " " << format_length(r.pace_range(p).min, LengthUnit::mm) << "-"
      << format_length(r.pace_range(p).max, LengthUnit::mm) << "\n";
  o << "gallop_limit " << s.gallop_max_turns << " then " << pace_name(s.after_gallop_limit) << "\n";
  o << "turning " << s.turn_degrees << " " << s.turn_per_move_fraction << " " << s.turn_per_move_fraction_gallop << "\n";
  o << "shooting " << s.moving_shoot_arc_degrees << " " << s.mounted_range_band_shift << "\n";
  o << "hits";
  for (bool h : s.hit_on_horse) o << (h ? " horse" : " rider");
  o << "\nswitches " << int(r.switches.weapons_range) << " " << pace_name(r.switches.no_gallop_pace) << "\n";
  return o.str();
}

Modifier* modifier(Ruleset& r, const std::string& id) {
  for (auto& m : r.modifiers)
    if (m.id == id) return &m;
  return nullptr;
}

BehaviourIndex index_of(const Ruleset& r, const std::string& id) {
  for (std::size_t i = 0; i < r.behaviours.size(); ++i)
    if (r.behaviours[i].id == id) return static_cast<BehaviourIndex>(i);
  FAIL("no behaviour " << id);
  return 0;
}

}  // namespace

// ------------------------------------------------------------ bad files

TEST_CASE("loader: every malformed file gives its located message", "[loader]") {
  for (const auto& c : k_bad) {
    const std::string path = data(std::string("bad/") + c.file);
    auto diags = load_errors(path);
    INFO("file " << c.file << "\n" << all_messages(diags));
    REQUIRE_FALSE(diags.empty());
    CHECK(diags.size() == c.count);
    const Diagnostic& first = diags.front();
    CHECK(first.message.find(c.message) != std::string::npos);
    CHECK(first.where.line == c.line);
    CHECK(first.where.column == c.column);
    // The problem is placed in the file the user wrote (never in the
    // built-in base it extends); a circular chain names the file whose
    // extends closes the loop.
    if (std::string(c.file) == "circular_a.yaml") CHECK(first.where.file == data("bad/circular_b.yaml"));
    else CHECK(first.where.file == path);
    for (const auto& d : diags) {
      CHECK(d.where.file.find("builtin:") == std::string::npos);
      CHECK_FALSE(d.message.empty());
    }
  }
  CHECK(k_bad.size() >= 25);
}

TEST_CASE("loader: every file in tests/data/bad has an expected message", "[loader]") {
  // No orphan test data: each malformed file is checked above.
  std::set<std::string> files;
  DIR* dir = ::opendir(data("bad").c_str());
  REQUIRE(dir != nullptr);
  while (auto* e = ::readdir(dir)) {
    std::string n = e->d_name;
    // scenario_*, session_*, asl_* and seed004_* are other formats, checked by
    // tests/test_scenario.cpp and tests/test_bad_input.cpp.
    if (n.size() > 5 && n.compare(n.size() - 5, 5, ".yaml") == 0 && n.rfind("scenario_", 0) != 0 &&
        n.rfind("session_", 0) != 0 && n.rfind("asl_", 0) != 0 && n.rfind("seed004_", 0) != 0)
      files.insert(n);
  }
  ::closedir(dir);
  CHECK(files.size() >= 25);
  for (const auto& f : files) {
    INFO(f);
    // circular_b.yaml is the other half of circular_a.yaml.
    CHECK((find_case(f) != nullptr || f == "circular_b.yaml"));
  }
}

TEST_CASE("loader: load_ruleset throws LoadError and its what() lists file:line:col: message", "[loader]") {
  const std::string path = data("bad/unknown_key_modifers.yaml");
  try {
    (void)load_ruleset(path);
    FAIL("expected a LoadError");
  } catch (const LoadError& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(std::string(e.what()) == path + ":3:1: unknown key 'modifers' in the ruleset, did you mean 'modifiers'?");
    CHECK(e.diagnostics()[0].str() == e.what());
  }
  CHECK_THROWS_AS(load_ruleset(data("bad/band_gap.yaml")), LoadError);
}

TEST_CASE("loader: several problems in one file are all reported at once", "[loader]") {
  auto d = load_errors(data("bad/several_problems.yaml"));
  INFO(all_messages(d));
  REQUIRE(d.size() == 5);
  struct W {
    int line, column;
    const char* message;
  };
  // In the order the loader reads the sections: units, bands, modifiers.
  const std::vector<W> want{
      {3, 8, "unknown units 'furlongs'"},
      {12, 16, "unknown behaviour 'halt_faceing', did you mean 'halt_facing'?"},
      {6, 12, "expected a whole number from -100 to 100 for modifier 'hero' value, found 'lots'"},
      {7, 11, "unknown fact 'heroes', did you mean 'hero'?"},
      {9, 5, "unknown key 'valeu' in modifier 'flank_rear', did you mean 'value'?"},
  };
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("diagnostic " << i);
    CHECK(d[i].where.line == want[i].line);
    CHECK(d[i].where.column == want[i].column);
    CHECK(d[i].message.find(want[i].message) != std::string::npos);
  }
}

TEST_CASE("loader: a length without its unit is one problem not three", "[loader]") {
  // 'max: 30' used to add "min 1cm is above max 30" (in builtin:default) and
  // "max must be more than zero" after the real problem.
  auto d = load_errors(data("bad/several_problems_2.yaml"));
  INFO(all_messages(d));
  REQUIRE(d.size() == 3);
  CHECK(d[1].where.line == 5);
  CHECK(d[1].where.column == 25);
  CHECK(d[1].message == "expected a length with its unit (e.g. 30cm, 12in) for walk max, found '30'");
  // ...and the missing hits face is still reported beside the other problems.
  CHECK(d[2].where.line == 7);
  CHECK(d[2].where.column == 3);
  CHECK(d[2].message == "hits_on_mounted: D6 face 4 hits neither horse nor rider");
}

TEST_CASE("loader: a standalone file missing its sections names each one", "[loader]") {
  auto d = load_errors(data("bad/standalone_missing_sections.yaml"));
  std::vector<std::string> missing;
  for (const auto& x : d) {
    CHECK(x.where.line == 2);
    CHECK(x.where.column == 1);
    missing.push_back(x.message);
  }
  CHECK(missing == std::vector<std::string>{
                       "missing key 'behaviours' in the ruleset", "missing key 'bands' in the ruleset",
                       "missing key 'modifiers' in the ruleset", "missing key 'paces' in the ruleset",
                       "missing key 'gallop_limit' in the ruleset", "missing key 'turning' in the ruleset",
                       "missing key 'mounted_shooting' in the ruleset", "missing key 'hits_on_mounted' in the ruleset",
                       "missing key 'unit_types' in the ruleset", "missing key 'charge' in the ruleset"});
}

TEST_CASE("loader: circular extends names the whole loop", "[loader]") {
  auto d = load_errors(data("bad/circular_a.yaml"));
  REQUIRE(d.size() == 1);
  const std::string a = data("bad/circular_a.yaml"), b = data("bad/circular_b.yaml");
  CHECK(d[0].message == "circular extends: " + a + " -> " + b + " -> " + a);
  // Also when entered from the other side.
  auto e = load_errors(data("bad/circular_b.yaml"));
  REQUIRE(e.size() == 1);
  CHECK(e[0].where.file == a);
  CHECK(e[0].message == "circular extends: " + b + " -> " + a + " -> " + b);
}

TEST_CASE("loader: a missing extends target says where it looked", "[loader]") {
  auto d = load_errors(data("bad/missing_extends.yaml"));
  REQUIRE(d.size() == 1);
  CHECK(d[0].message == "extends a ruleset that does not exist: 'no_such_base.yaml' (looked for " +
                            data("bad/no_such_base.yaml") + ")");
}

TEST_CASE("loader: a nonexistent file a folder and an unknown built-in", "[loader]") {
  const std::string nope = data("bad/does_not_exist.yaml");
  auto d = load_errors(nope);
  REQUIRE(d.size() == 1);
  CHECK(d[0].where.file == nope);
  CHECK(d[0].where.line == 0);
  CHECK(d[0].message == "cannot open: No such file or directory");
  CHECK(d[0].str() == nope + ": cannot open: No such file or directory");

  const std::string folder = data("bad/a_folder.yaml");
  auto f = load_errors(folder);
  REQUIRE(f.size() == 1);
  CHECK(f[0].str() == folder + ": is a folder; expected a YAML file");
  // The folder's trailing slash makes no difference.
  CHECK(load_errors(folder + "/").size() == 1);

  auto b = load_errors("builtin:nope");
  REQUIRE(b.size() == 1);
  CHECK(b[0].message.find("no built-in ruleset of that name") != std::string::npos);
}

TEST_CASE("loader: read_at_most reads to the end within the limit, and at most a block past it", "[loader]") {
  // The reader of every YAML file and checkpoint (engine/core/doc.hpp).
  std::istringstream small(std::string(5000, 'a'));
  CHECK(read_at_most(small, 5000, 5000) == std::string(5000, 'a'));
  std::istringstream empty("");
  CHECK(read_at_most(empty, 5000, 0).empty());
  // A stream without end (as /dev/zero) stops one block (64 KiB) past the limit.
  std::istringstream longer(std::string(1 << 20, 'b'));
  const std::string t = read_at_most(longer, 5000, 0);
  CHECK(t.size() > 5000);
  CHECK(t.size() <= 5000 + (1 << 16));
  CHECK(t == std::string(t.size(), 'b'));
}

TEST_CASE("loader: a file parsed again is read afresh: a changed text, another name, an error each time", "[loader]") {
  // parse_yaml keeps the trees it last parsed by file name and whole text
  // (engine/core/doc.cpp): a file rewritten between two loads, the same text
  // under another name, and a text that fails must each give what a first
  // parse gives.
  vtest::TempDir dir;
  const std::string a = dir.write("a.yaml", "x: 1\ny: [2, 3]\n");
  const Doc first = parse_yaml_file(a);
  const Doc again = parse_yaml_file(a);
  REQUIRE(again.find("x"));
  CHECK(again.find("x")->scalar == "1");
  CHECK(again.find("y")->items.size() == 2);
  CHECK(again.find("y")->items[1].where.file == a);
  CHECK(again.find("y")->items[1].where.column == first.find("y")->items[1].where.column);
  dir.write("a.yaml", "x: 7\n");  // the same name, a new text
  const Doc changed = parse_yaml_file(a);
  REQUIRE(changed.find("x"));
  CHECK(changed.find("x")->scalar == "7");
  CHECK_FALSE(changed.find("y"));
  const std::string b = dir.write("b.yaml", "x: 7\n");  // the same text, another name
  CHECK(parse_yaml_file(b).find("x")->where.file == b);
  CHECK(parse_yaml_file(a).find("x")->where.file == a);
  for (int k = 0; k < 2; ++k) {
    INFO("parse " << k + 1 << " of a text with a duplicate key");
    try {
      parse_yaml("x: 1\nx: 2\n", "dup.yaml");
      FAIL("a duplicate key was accepted");
    } catch (const LoadError& e) {
      CHECK(std::string(e.what()).find("dup.yaml:2:") != std::string::npos);
    }
  }
}

namespace {
// Two parses agree: kind, text, quotes, each node's and key's line and
// column (not the file's name).
void check_same_tree(const Doc& a, const Doc& b, const std::string& at) {
  INFO(at);
  REQUIRE(static_cast<int>(a.kind) == static_cast<int>(b.kind));
  CHECK(a.scalar == b.scalar);
  CHECK(a.quoted == b.quoted);
  CHECK(a.where.line == b.where.line);
  CHECK(a.where.column == b.where.column);
  REQUIRE(a.items.size() == b.items.size());
  REQUIRE(a.entries.size() == b.entries.size());
  for (std::size_t i = 0; i < a.items.size(); ++i) check_same_tree(a.items[i], b.items[i], at + "." + std::to_string(i));
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    CHECK(a.entries[i].key == b.entries[i].key);
    CHECK(a.entries[i].key_where.line == b.entries[i].key_where.line);
    CHECK(a.entries[i].key_where.column == b.entries[i].key_where.column);
    check_same_tree(a.entries[i].value, b.entries[i].value, at + "." + a.entries[i].key);
  }
}

// Every scalar and key replaced by one of the kinds `vedette schema` writes
// (plain words and numbers, quoted printable text), the shape kept.
void tame(Doc& d, int& k) {
  ++k;
  if (d.is_scalar()) {
    d.scalar = k % 3 == 0 ? "w" + std::to_string(k) : k % 3 == 1 ? "q " + std::to_string(k) + ": \"x\\" : "-" + std::to_string(k) + ".5";
    d.quoted = k % 3 == 1;
  }
  for (auto& i : d.items) tame(i, k);
  for (auto& e : d.entries) {
    e.key = "k" + std::to_string(++k);
    tame(e.value, k);
  }
}
}  // namespace

TEST_CASE("loader: a flow document placed without parsing is what parsing its text gives", "[loader][schema]") {
  // `vedette schema` writes thousands of one-line documents and loads them;
  // flow_document places their nodes itself and spares yaml-cpp's parse
  // where no scalar could read back otherwise (engine/core/doc.hpp). Whatever
  // parse_yaml then returns under that name must be what yaml-cpp gives
  // under another: the shipped files as they are, the same shapes tamed to
  // what the exploration writes (kept), and scalars that must not be kept.
  std::vector<std::pair<std::string, Doc>> docs;
  for (const char* folder : {"tables", "sims/scenarios"})
    for (const auto& f : std::filesystem::recursive_directory_iterator(std::string(VEDETTE_SOURCE_DIR) + "/" + folder))
      if (f.path().extension() == ".yaml") docs.emplace_back(f.path().string(), parse_yaml_file(f.path().string()));
  REQUIRE(docs.size() > 20);
  const std::size_t shipped = docs.size();
  for (std::size_t i = 0; i < shipped; ++i) {
    Doc t = docs[i].second;
    int k = 0;
    tame(t, k);
    docs.emplace_back(docs[i].first + " (tamed)", std::move(t));
  }
  const Doc doubtful = parse_yaml(
      "a: \"~\"\nb: ~\nc: null\nd: \"x: y\"\ne: -1\nf: .5\ng: two words\nh: \"quote \\\" and \\\\ back\"\ni: \"\"\n"
      "j: [1, {k: v}, []]\n\"l m\": {}\nn: yes\no: \u00e9t\u00e9\np: \"-\"\nq: Null\nr: \"tab\\there\"\nafter: [1, x]\n",
      "doubt.yaml");
  docs.emplace_back("doubtful scalars", doubtful);
  // Words a parse reads as a null or as something else, put in as text (the
  // exploration sets a choice's names so).
  for (const char* word : {"null", "Null", "NULL", "~", "&a", "*a", "!t", "-", "? x", "@x", "`x", "|", ">", "%x"}) {
    Doc d = parse_yaml("a: 1\nb: [x]\n", "word.yaml");
    d.entries[0].value.scalar = word;
    d.entries[1].key = word;
    docs.emplace_back(std::string("the word ") + word, std::move(d));
  }
  // Past the parse's depth limit: refused by parsing, never kept.
  Doc deep = parse_yaml("k: 1\n", "deep.yaml");
  for (int level = 0; level < 40; ++level) {
    Doc up = parse_yaml("k: 1\n", "deep.yaml");
    up.entries[0].value = std::move(deep);
    deep = std::move(up);
  }
  docs.emplace_back("a map 41 deep", std::move(deep));
  for (std::size_t i = 0; i < docs.size(); ++i) {
    Doc placed = docs[i].second;
    const auto fd = flow_document(placed, "flow-a.yaml");
    INFO(docs[i].first << ": " << fd.text);
    Doc parsed;
    try {
      parsed = parse_yaml(fd.text, "flow-b.yaml");  // another name: yaml-cpp's parse
    } catch (const LoadError& e) {  // flow_text writes what messages show, not always YAML
      INFO(e.what());
      CHECK_FALSE(fd.kept);
      CHECK_THROWS_AS(parse_yaml(fd.text, "flow-a.yaml"), LoadError);
      continue;
    }
    const Doc got = parse_yaml(fd.text, "flow-a.yaml");
    check_same_tree(got, parsed, "(root)");
    if (fd.kept) check_same_tree(placed, parsed, "(root)");
    if (i >= shipped && i < 2 * shipped) CHECK(fd.kept);  // what the exploration writes: spared
    if (i >= 2 * shipped) CHECK_FALSE(fd.kept);           // nulls, quotes, UTF-8, a tab, YAML's signs, depth: parsed
  }
}

TEST_CASE("loader: files too large are refused - a device without end too", "[loader]") {
  // /dev/zero has no size to check beforehand; it used to be read until
  // memory ran out.
  auto z = load_errors("/dev/zero");
  REQUIRE(z.size() == 1);
  CHECK(z[0].where.file == "/dev/zero");
  CHECK(z[0].message.find("file too large") != std::string::npos);

  vtest::TempDir tmp;
  const std::string big = tmp.write("big.yaml", std::string(k_max_file_bytes + 10, '#'));
  auto b = load_errors(big);
  REQUIRE(b.size() == 1);
  CHECK(b[0].message == "file too large (" + std::to_string(k_max_file_bytes + 10) + " bytes; the limit is " +
                            std::to_string(k_max_file_bytes) + ")");
  // Exactly at the limit is read (and here fails only as YAML that is not a map).
  const std::string edge = tmp.write("edge.yaml", std::string(k_max_file_bytes, '#'));
  auto e = load_errors(edge);
  REQUIRE(e.size() == 1);
  CHECK(e[0].message == "expected a map for the ruleset, found nothing");
}

TEST_CASE("loader: YAML limits: NUL anywhere and absurd nesting", "[loader]") {
  using namespace std::string_literals;
  try {
    (void)parse_yaml("a: 1\nbb: x\0y\n"s, "mem.yaml");
    FAIL("expected a LoadError");
  } catch (const LoadError& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].str() == "mem.yaml:2:6: not a text file (it contains a NUL byte); expected YAML");
  }
  std::string deep(1000, '[');
  CHECK_THROWS_WITH(parse_yaml(deep, "deep.yaml"), Catch::Contains("nested too deeply"));
  std::string big(k_max_file_bytes + 1, '#');
  CHECK_THROWS_WITH(parse_yaml(big, "big.yaml"), Catch::Contains("file too large"));
  // A block map nested 40 deep is refused too (the limit is 32 levels).
  std::string nested;
  for (int i = 0; i < 40; ++i) nested += std::string(static_cast<std::size_t>(2 * i), ' ') + "k:\n";
  CHECK_THROWS_WITH(parse_yaml(nested, "nested.yaml"), Catch::Contains("nested.yaml:34:67: nested too deeply"));
}

namespace {
// The message of parsing `text`, or "" when it parses.
std::string parse_error(const std::string& text) {
  try {
    (void)parse_yaml(text, "f.yaml");
  } catch (const LoadError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("loader: YAML nesting within the size limit cannot exhaust the stack", "[loader][limits]") {
  // yaml-cpp recurses once per level of nesting; these are refused at level
  // 33, where they are written, long before its stack could run out.
  std::string by_indent;  // 2,800 levels of block maps by indentation: 3.9 MB
  for (std::size_t i = 0; i < 2800; ++i) by_indent += std::string(i, ' ') + "k:\n";
  REQUIRE(by_indent.size() <= k_max_file_bytes);
  CHECK(parse_error(by_indent) == "f.yaml:34:34: nested too deeply (more than 32 levels)");
  std::string dashes;  // 2,000,000 levels of block lists on one line
  for (int i = 0; i < 2000000; ++i) dashes += "- ";
  CHECK(parse_error(dashes + "x\n") == "f.yaml:1:67: nested too deeply (more than 32 levels)");
  std::string keys;  // complex keys inside complex keys
  for (int i = 0; i < 100000; ++i) keys += "? ";
  CHECK(parse_error(keys + "x\n") == "f.yaml:1:67: nested too deeply (more than 32 levels)");
  CHECK(parse_error(std::string(1000000, '[')) == "f.yaml:1:129: nested too deeply (more than 32 levels)");
  std::string flow_maps;
  for (int i = 0; i < 100000; ++i) flow_maps += "{a: ";
  // (flow nesting this deep is refused before parsing, at its 129th level)
  CHECK(parse_error(flow_maps) == "f.yaml:1:513: nested too deeply (more than 32 levels)");
  std::string mixed;  // lists of maps by indentation
  for (std::size_t i = 0; i < 1500; ++i) mixed += std::string(2 * i, ' ') + "- k:\n";
  CHECK(parse_error(mixed).find("nested too deeply") != std::string::npos);
  // 32 levels below the top is allowed, 33 are not.
  CHECK(parse_error(std::string(33, '[') + std::string(33, ']')) == "");
  CHECK(parse_error(std::string(34, '[') + std::string(34, ']')) == "f.yaml:1:34: nested too deeply (more than 32 levels)");
}

TEST_CASE("loader: YAML aliases: loops and exponential copies are refused", "[loader][limits]") {
  CHECK(parse_error("a: &a [*a]\n") == "f.yaml:1:8: an alias inside the very value it names (a loop)");
  // "Billion laughs": each level ten aliases of the one before.
  std::string bomb = "a: &a [1,1,1,1,1,1,1,1,1,1]\n";
  for (char c = 'b'; c <= 'h'; ++c) {
    bomb += std::string(1, c) + ": &" + std::string(1, c) + " [";
    for (int k = 0; k < 10; ++k) bomb += std::string(k ? "," : "") + "*" + std::string(1, static_cast<char>(c - 1));
    bomb += "]\n";
  }
  CHECK(parse_error(bomb) == "f.yaml:6:8: file too large: more than 200000 values");
  // An alias deeper than the limit allows is refused too.
  std::string deep = "a: &a " + std::string(30, '[') + std::string(30, ']') + "\nb: [[[*a]]]\n";
  CHECK(parse_error(deep) == "f.yaml:2:7: nested too deeply (more than 32 levels)");
  // Aliases that stay within the limits are copies of what they name.
  Doc d = parse_yaml("a: &x {k: 1}\nb: *x\nkey: &n name\n*n : 3\n", "f.yaml");
  REQUIRE(d.find("b") != nullptr);
  CHECK(d.find("b")->find("k")->scalar == "1");
  CHECK(d.find("name") != nullptr);
  CHECK(parse_error("a: &x {k: 1}\n*x : 2\n") == "f.yaml:2:1: a key must be a plain name, not a map");
}

TEST_CASE("loader: millions of tiny values are refused quickly and in little memory", "[loader][limits]") {
  // yaml-cpp would build every value first (a flow list of 2 million ones:
  // seconds and a gigabyte); the limit is checked as the text is read.
  std::string flow = "[";
  for (int i = 0; i < 2000000; ++i) flow += "1,";
  flow += "1]";
  REQUIRE(flow.size() <= k_max_file_bytes);
  CHECK(parse_error(flow) == "f.yaml:1:400001: file too large: more than 200000 values");
  std::string block;
  for (int i = 0; i < 1000000; ++i) block += "- 1\n";
  CHECK(parse_error(block) == "f.yaml:200000:3: file too large: more than 200000 values");
  // Commas inside quotes and comments are not items.
  std::string quoted = "[\"" + std::string(300000, ',') + "\", '" + std::string(300000, ',') + "'] # " + std::string(300000, ',') + "\n";
  CHECK(parse_error(quoted) == "");
}

TEST_CASE("loader: a map of a hundred thousand keys is read in linear time", "[loader][limits][long]") {
  // Duplicate keys used to be found by comparing each key with every one
  // before it: 100,000 keys took minutes. A duplicate is still found.
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "key" + std::to_string(i) + ": 1\n";
  const auto start = std::chrono::steady_clock::now();
  Doc d = parse_yaml(text, "f.yaml");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(d.entries.size() == 100000);
  CHECK(seconds < 20);
  CHECK(parse_error(text + "key77: 2\n") == "f.yaml:100001:1: duplicate key 'key77' (first given at line 78)");
}

TEST_CASE("loader: text that is not UTF-8 is refused where it is written", "[loader][utf8]") {
  // Found by fuzzing: a unit name with a stray byte loaded, then `play
  // --json` died on it (JSON strings must be UTF-8).
  try {
    (void)parse_yaml("a: 1\nname: Hus\x81" "ars\n", "mem.yaml");
    FAIL("expected a LoadError");
  } catch (const LoadError& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].str() ==
          "mem.yaml:2:10: not UTF-8 text (byte 0x81 is not part of a valid character); expected YAML in UTF-8");
  }
  // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
  for (const char* bad : {"k: \xC0\xAF", "k: \xED\xA0\x80", "k: \xF4\x90\x80\x80", "k: \xE2\x82"})
    CHECK_THROWS_WITH(parse_yaml(bad, "m.yaml"), Catch::Contains("m.yaml:1:4: not UTF-8 text"));
  // An escape that gives no character (a lone surrogate) is refused by the
  // YAML reader itself, so every value read is UTF-8.
  CHECK_THROWS_WITH(parse_yaml("a: 1\nb: \"x\\uD800\"\n", "m.yaml"), Catch::Contains("m.yaml:2:12: YAML syntax error: invalid unicode"));
  // Real UTF-8, and escapes of real characters, are fine.
  Doc d = parse_yaml("name: \"Hussards de la Garde \\u00e9 \\U0001F40E\"\ntext: \xC3\xA9" "clair \xF0\x9F\x90\x8E\n", "m.yaml");
  CHECK(d.find("name")->scalar == "Hussards de la Garde \xC3\xA9 \xF0\x9F\x90\x8E");
  CHECK(d.find("text")->scalar == "\xC3\xA9" "clair \xF0\x9F\x90\x8E");
}

// ------------------------------------------------------------ good files

TEST_CASE("loader: the default ruleset loads from tables/default.yaml and builtin:default alike", "[loader]") {
  RulesetPtr file = load_ruleset(std::string(VEDETTE_SOURCE_DIR) + "/tables/default.yaml");
  RulesetPtr builtin = default_ruleset();
  CHECK(describe(*file) == describe(*builtin));
  CHECK(builtin->sources == std::vector<std::string>{"builtin:default"});
  CHECK(builtin->name == "seed-002-cavalry");
  CHECK(builtin->units == LengthUnit::cm);
  CHECK(builtin->behaviours.size() == 8);
  CHECK(builtin->bands.size() == 5);
  CHECK(builtin->modifiers.size() == 7);
}

TEST_CASE("loader: good overlay changes one modifier value and nothing else", "[loader][overlay]") {
  const std::string path = data("good/hero_minus_2.yaml");
  RulesetPtr r = load_ruleset(path);
  Ruleset want = *default_ruleset();
  modifier(want, "hero")->value = -2;
  CHECK(describe(*r) == describe(want));
  CHECK(r->sources == std::vector<std::string>{"builtin:default", path});
  // And it takes effect on the risk factor.
  Situation s;
  s.hero = true;
  CHECK(compute_rf(*r, Facts(s)).total == -2);
}

TEST_CASE("loader: good overlay changes one cell by the map form", "[loader][overlay]") {
  RulesetPtr r = load_ruleset(data("good/cell_map_form.yaml"));
  Ruleset want = *default_ruleset();
  want.bands[1].cells[5] = index_of(want, "halt_facing");
  CHECK(describe(*r) == describe(want));
  UnitState s;
  s.pace = Pace::walk;
  CHECK(decide(*r, 1, 6, s).behaviour->id == "halt_facing");
  for (int face = 1; face <= 5; ++face)
    CHECK(decide(*r, 1, face, s).behaviour == &r->behaviour(default_ruleset()->bands[1].cells[static_cast<std::size_t>(face - 1)]));
  // The new odds of RF1: halt is now 1/3, the gallop is gone.
  bool gallop_left = false;
  for (const auto& [b, p] : band_odds(*r, r->bands[1], false)) {
    if (b->id == "halt_facing") CHECK(p == Fraction(1, 3));
    if (b->id == "gallop_advance_charge") gallop_left = true;
  }
  CHECK_FALSE(gallop_left);
}

TEST_CASE("loader: good overlay changes one pace", "[loader][overlay]") {
  RulesetPtr r = load_ruleset(data("good/walk_25cm.yaml"));
  Ruleset want = *default_ruleset();
  want.supplement.paces[static_cast<std::size_t>(Pace::walk)].max = Length::cm(25);
  CHECK(describe(*r) == describe(want));
  CHECK(pace_distance(*r, Pace::walk) == "1-25 cm");
  CHECK(r->pace_range(Pace::walk).min.as_cm() == Approx(1));  // the min is kept
}

TEST_CASE("loader: good overlay adds a modifier on a known fact", "[loader][overlay]") {
  RulesetPtr r = load_ruleset(data("good/gallop_modifier.yaml"));
  Ruleset want = *default_ruleset();
  want.modifiers.push_back(Modifier{"galloping", "Galloping", 1, Modifier::Kind::all, {Fact::galloping}, false, 0});
  CHECK(describe(*r) == describe(want));
  // A galloping unit: -1 for moving fast, +1 for galloping = 0; cantering stays -1.
  Situation s;
  s.pace = Pace::gallop;
  RiskFactor rf = compute_rf(*r, Facts(s));
  CHECK(rf.total == 0);
  REQUIRE(rf.breakdown.size() == 2);
  CHECK(rf.breakdown[1].modifier->id == "galloping");
  CHECK(rf.breakdown[1].value == 1);
  s.pace = Pace::canter;
  CHECK(compute_rf(*r, Facts(s)).total == -1);
}

TEST_CASE("loader: good overlay deletes a modifier with ~", "[loader][overlay]") {
  RulesetPtr r = load_ruleset(data("good/delete_hero.yaml"));
  Ruleset want = *default_ruleset();
  want.modifiers.erase(want.modifiers.begin());  // hero is the first
  CHECK(describe(*r) == describe(want));
  Situation s;
  s.hero = true;
  CHECK(compute_rf(*r, Facts(s)).total == 0);
  CHECK(compute_rf(*r, Facts(s)).breakdown.empty());
}

TEST_CASE("loader: good overlays of switches change only the switch", "[loader][overlay]") {
  {
    Ruleset want = *default_ruleset();
    want.switches.no_gallop_pace = Pace::walk;
    CHECK(describe(*load_ruleset(data("good/no_gallop_walk.yaml"))) == describe(want));
  }
  {
    Ruleset want = *default_ruleset();
    modifier(want, "cover_or_fast")->stack = true;
    CHECK(describe(*load_ruleset(data("good/cover_fast_stack.yaml"))) == describe(want));
  }
  {
    Ruleset want = *default_ruleset();
    modifier(want, "running")->stack = true;
    CHECK(describe(*load_ruleset(data("good/running_stack.yaml"))) == describe(want));
  }
}

TEST_CASE("loader: an overlay of an overlay applies both in order", "[loader][overlay]") {
  const std::string top = data("good/chain_top.yaml");
  RulesetPtr r = load_ruleset(top);
  Ruleset want = *default_ruleset();
  want.name = "chained";
  modifier(want, "hero")->value = -2;
  modifier(want, "raw_in_range")->value = 2;
  CHECK(describe(*r) == describe(want));
  CHECK(r->sources == std::vector<std::string>{"builtin:default", data("good/hero_minus_2.yaml"), top});
}

TEST_CASE("loader: a standalone ruleset in inches", "[loader]") {
  RulesetPtr r = load_ruleset(data("good/minimal_inches.yaml"));
  CHECK(r->name == "minimal");
  CHECK(r->units == LengthUnit::in);
  CHECK(r->sources == std::vector<std::string>{data("good/minimal_inches.yaml")});
  REQUIRE(r->bands.size() == 2);
  CHECK(r->band_for(-50).id == "calm");
  CHECK(r->band_for(2).id == "calm");
  CHECK(r->band_for(3).id == "wild");
  CHECK(r->pace_range(Pace::walk).max.as_cm() == Approx(12 * 2.54));
  CHECK(pace_distance(*r, Pace::canter) == "12-16 in");
  CHECK(r->supplement.gallop_max_turns == 3);
  CHECK(r->supplement.after_gallop_limit == Pace::canter);
  CHECK(r->supplement.hit_on_horse == std::array<bool, 6>{true, true, true, false, false, false});
  const UnitType* dragoons = r->find_unit_type("dragoons");
  REQUIRE(dragoons);
  CHECK_FALSE(dragoons->can_gallop);
  // Defaults where the file says nothing.
  CHECK(r->switches.no_gallop_pace == Pace::canter);
  CHECK(r->find_behaviour("go")->charge_possible);
  CHECK(r->find_behaviour("go")->target == Target::nearest_enemy);
}

TEST_CASE("loader: --set style edits change one value or fail naming the path", "[loader]") {
  RulesetPtr r = load_ruleset("builtin:default", {{"modifiers.hero.value", "-3"}, {"bands.rf1.cells.6", "halt_facing"}});
  Ruleset want = *default_ruleset();
  modifier(want, "hero")->value = -3;
  want.bands[1].cells[5] = index_of(want, "halt_facing");
  CHECK(describe(*r) == describe(want));
  CHECK_THROWS_WITH(load_ruleset("builtin:default", {{"modifiers.heroes.value", "1"}}),
                    Catch::StartsWith("--set modifiers.heroes.value=1: no such setting in the ruleset: 'modifiers.heroes.value': "
                                      "'modifiers' has no 'heroes', did you mean 'modifiers.hero'?"));
  CHECK_THROWS_WITH(load_ruleset("builtin:default", {{"modifiers.hero.valeu", "1"}}),
                    Catch::StartsWith("--set modifiers.hero.valeu=1: no such setting in the ruleset: 'modifiers.hero.valeu': 'modifiers.hero' "
                                      "has no 'valeu', did you mean 'modifiers.hero.value'?"));
  // An edit that makes the value invalid is reported like a bad file value,
  // at the flag, not at the line of the built-in file it replaced.
  CHECK_THROWS_WITH(load_ruleset("builtin:default", {{"modifiers.hero.value", "many"}}),
                    Catch::StartsWith("--set modifiers.hero.value=many: expected a whole number") && Catch::Contains("found 'many'"));
}

}  // namespace t_loader
