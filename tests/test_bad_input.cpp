// The corpus of bad input (tests/data/bad/), run as a user runs vedette: for
// every file, in every format (rulesets, scenarios, solo sessions, ASL
// tables), and for bad command lines, the command exits with status 2, says
// what is wrong where (file:line:column: message), and creates, changes or
// removes no file. Exact messages for the older ruleset and scenario files
// are in test_loader.cpp and test_scenario.cpp; the rest are here.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "helpers.hpp"

namespace t_bad_input {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

namespace fs = std::filesystem;

namespace {

enum class Format { ruleset, scenario, session, checkpoint, asl, seed004 };

Format format_of(const std::string& name) {
  if (name.rfind("scenario_", 0) == 0) return Format::scenario;
  if (name.rfind("session_", 0) == 0) return Format::session;
  if (name.rfind("asl_", 0) == 0) return Format::asl;
  if (name.rfind("checkpoint_", 0) == 0) return Format::checkpoint;
  if (name.rfind("seed004_", 0) == 0) return Format::seed004;
  return Format::ruleset;
}

const char* format_name(Format f) {
  switch (f) {
    case Format::ruleset: return "ruleset";
    case Format::scenario: return "scenario";
    case Format::session: return "session";
    case Format::checkpoint: return "checkpoint";
    case Format::asl: return "asl";
    case Format::seed004: return "seed004";
  }
  return "?";
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every file under `dir` (relative name -> bytes; folders marked), to see
// that a failed command left everything as it was.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> all;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string rel = fs::relative(e.path(), dir).string();
    all[rel] = e.is_directory() ? std::string("<folder>") : slurp(e.path());
  }
  return all;
}

using Run = vtest::RunResult;

// Runs vedette in `cwd` with nothing on standard input; with `as_nobody`,
// as the user nobody when the tests run as root (root reads any file, so
// an unreadable file needs someone who cannot).
Run run_in(const fs::path& cwd, const std::vector<std::string>& args, bool as_nobody = false) {
  vtest::RunOptions o;
  o.cwd = cwd.string();
  o.as_nobody = as_nobody;
  return vtest::run_vedette(args, o);
}

// A scratch folder holding a solo session that must survive every failure.
struct Folder {
  vtest::TempDir tmp;
  fs::path dir{tmp.path()};
  Folder() {
    fs::copy_file(vtest::data("sessions/game.vedette.yaml"), dir / "keep.vedette.yaml");
    // The checkpoint's scenario, here: the user nobody may not reach the
    // checkout's tests/data (a clone under /root, mode 700).
    fs::copy_file(vtest::data("lab/dice.yaml"), dir / "dice.yaml");
    ::chmod((dir / "dice.yaml").c_str(), 0644);
    ::chmod(dir.c_str(), 0755);  // (for the run as nobody)
  }
};

// What the command for a bad file of each format is: one that would write
// a file if the input were good (a new session, the session itself, a
// report folder and the checkpoint resumed), or one that reads it.
std::vector<std::string> command_for(Format f, const std::string& path) {
  switch (f) {
    case Format::ruleset: return {"solo", "new", "fresh", "--unit", "Lancers:shock", "--seed", "1", "--ruleset", path};
    case Format::scenario: return {"play", path, "--seed", "1"};
    case Format::session: return {"solo", "activate", path, "Lancers", "--roll", "3", "--accept-ruleset-change"};
    case Format::checkpoint:
      return {"sim", "dice.yaml", "-n", "600", "--seed", "1", "--threads", "1", "--resume", path, "--out", "report"};
    case Format::asl: return {"asl", "plan", "--rules", path, "--start", "mounted", "move:1"};
    case Format::seed004: return {"check", path};  // no command reads seed 004's tables from a file yet
  }
  return {};
}

// Runs the command for a bad file (a session is copied in as the game
// being played, a checkpoint as the one resumed), checks exit 2, a message
// naming the file, and no change; returns stderr.
std::string refused(Format f, const fs::path& file, bool as_nobody = false) {
  Folder folder;
  std::string shown = file.string();
  if (f == Format::session || f == Format::checkpoint) {
    shown = f == Format::session ? "game.vedette.yaml" : "cp.json";
    if (fs::is_directory(file)) fs::create_directory(folder.dir / shown);
    else fs::copy_file(file, folder.dir / shown);
  }
  if (as_nobody) {
    fs::copy_file(file, folder.dir / "locked.yaml");
    ::chmod((folder.dir / "locked.yaml").c_str(), 0);
    shown = "locked.yaml";
    if (f == Format::session) {
      fs::rename(folder.dir / "locked.yaml", folder.dir / "locked.vedette.yaml");
      fs::remove(folder.dir / "game.vedette.yaml");
      shown = "locked.vedette.yaml";
    }
    if (f == Format::checkpoint) {
      fs::remove(folder.dir / "cp.json");
      fs::rename(folder.dir / "locked.yaml", folder.dir / "locked.json");
      shown = "locked.json";
    }
  }
  const auto before = snapshot(folder.dir);
  Run r = run_in(folder.dir, command_for(f, shown), as_nobody);
  INFO(format_name(f) << " " << file.string() << "\nstdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.status == 2);
  CHECK(r.err.find(fs::path(shown).filename().string()) != std::string::npos);
  CHECK_FALSE(fs::exists(folder.dir / "fresh.vedette.yaml"));
  CHECK_FALSE(fs::exists(folder.dir / "report"));
  CHECK(snapshot(folder.dir) == before);
  return r.err;
}

struct BadFile {
  const char* file;     // under tests/data/bad/
  const char* at;       // "line:column" of the first message
  const char* message;  // the start of the first message
};

// The newer files: one per kind of bad input the issue lists, per format.
const std::vector<BadFile> k_files{
    // rulesets
    {"enormous_number.yaml", "4:12", "expected a whole number from -100 to 100 for modifier 'hero' value, found '99999999999999999999999999'"},
    {"nan_fraction.yaml", "3:22", "expected a number from 0.01 to 1 for turning per_move_fraction, found '.nan'"},
    {"infinite_length.yaml", "4:17", "expected a length of at most 1 km (100000cm) for gallop max, found '1000000"},
    {"negative_count.yaml", "3:10", "expected a whole number from 1 to 100 for gallop_limit turns, found '-2'"},
    {"deep_nesting.yaml", "35:67", "nested too deeply (more than 32 levels)"},
    {"invalid_utf8.yaml", "2:10", "not UTF-8 text (byte 0xE9 is not part of a valid character); expected YAML in UTF-8"},
    {"alias_loop.yaml", "3:8", "an alias inside the very value it names (a loop)"},
    {"tab_indentation.yaml", "5:1", "tabs are not allowed for indentation; indent with spaces"},
    {"extends_file_typo.yaml", "2:10", "extends a ruleset that does not exist: 'several_problem.yaml' (looked for"},
    {"extends_unknown_builtin.yaml", "2:10",
     "extends a built-in ruleset that does not exist: 'builtin:defualt' (built in: builtin:default), did you mean 'builtin:default'?"},
    // scenarios
    {"scenario_syntax_error.yaml", "12:1", "YAML syntax error: end of map flow not found"},
    {"scenario_wrong_type.yaml", "6:8", "expected a list of units, found a value"},
    {"scenario_duplicate_key.yaml", "10:1", "duplicate key 'turns' (first given at line 9)"},
    {"scenario_empty.yaml", "1:1", "expected a map for the scenario, found nothing"},
    {"scenario_binary_junk.yaml", "4:1", "not a text file (it contains a NUL byte); expected YAML"},
    {"scenario_deep_nesting.yaml", "10:46", "nested too deeply (more than 32 levels)"},
    {"scenario_enormous_table.yaml", "2:16", "expected a length of at most 1 km (100000cm) for table width, found '1000"},
    {"scenario_turns_million.yaml", "9:8", "expected a whole number from 1 to 1000 for turns, found '1000000'"},
    {"scenario_negative_figures.yaml", "7:69", "expected a whole number from 1 to 1000 for unit 'Hussars' figures, found '-12'"},
    {"scenario_nan_facing.yaml", "7:105", "expected a number from -360 to 360 for unit 'Hussars' facing (degrees, 0 = up the table), found '.nan'"},
    {"scenario_infinite_cost.yaml", "5:75",
     "expected a number from 0 to 100 for terrain area 'Bog' move_cost (a multiplier, or impassable), found '.inf'"},
    {"scenario_self_crossing_wood.yaml", "6:59",
     "terrain area 'Twisted wood': its outline crosses itself (the side from point 4 meets the side from point 2); expected a simple polygon"},
    {"scenario_polygon_too_many_points.yaml", "6:16", "terrain area 'Huge lake': a polygon of 1001 points; at most 1000"},
    {"scenario_ruleset_cycle.yaml", "2:10", "the ruleset 'circular_a.yaml' does not load:"},
    {"scenario_length_negative.yaml", "2:30", "expected a length of zero or more for table depth, found '-80cm'"},
    // hex boards and seed 004 block units (issue 8)
    {"scenario_hex_off_board.yaml", "8:77", "unit 'Hussars' at hex [13, 5] is off the 13 x 9 board (cols 0 to 12, rows 0 to 8)"},
    {"scenario_hex_two_units.yaml", "9:72", "unit 'Foot' stands on the hex of unit 'Hussars': one unit per hex"},
    {"scenario_hex_unknown_terrain.yaml", "8:13", "unknown hex terrain (a terrain of the seed 004 table) 'wood', did you mean 'woods'?"},
    {"scenario_hex_impassable.yaml", "13:77", "unit 'Hussars' stands on impassable terrain (river)"},
    {"scenario_hex_position.yaml", "8:5", "missing key 'hex' in unit 1"},
    {"scenario_blocks_on_table.yaml", "2:9", "seed 004 block units need a hex board (`board: {type: hex, ...}`)"},
    // solo sessions
    {"session_syntax_error.yaml", "12:3", "YAML syntax error: illegal block entry"},
    {"session_wrong_type.yaml", "7:7", "expected a whole number from 0 to 18446744073709551615 for seed, found 'forty-two'"},
    {"session_duplicate_key.yaml", "8:1", "duplicate key 'seed' (first given at line 7)"},
    {"session_unknown_key.yaml", "10:5", "missing key 'figures' in a unit"},
    {"session_empty.yaml", "1:1", "not a Vedette session: expected a map with format: vedette-session, found nothing"},
    {"session_binary_junk.yaml", "2:10", "not a text file (it contains a NUL byte); expected YAML"},
    {"session_deep_nesting.yaml", "13:107", "nested too deeply (more than 32 levels)"},
    {"session_enormous_number.yaml", "7:7", "expected a whole number from 0 to 18446744073709551615 for seed, found '18446744073709551616'"},
    {"session_negative_count.yaml", "10:71", "expected a whole number from 1 to 1000 for figures, found '-12'"},
    {"session_negative_casualties.yaml", "12:64", "history #1 (casualties): Lancers would have -5 casualties; it has 12 figures"},
    {"session_nan.yaml", "10:71", "expected a whole number from 1 to 1000 for figures, found '.nan'"},
    {"session_infinity.yaml", "13:18", "expected a whole number from 1 to 100000000 for turn, found '.inf'"},
    {"session_newer_version.yaml", "3:10", "session version 9 was written by a newer vedette; this one reads version 8"},
    {"session_not_a_session.yaml", "2:9", "not a Vedette session: expected 'format: vedette-session', found 'vedette-scenario'"},
    {"session_out_of_order.yaml", "12:9", "history item 1 has n: 2; events are numbered 1, 2, 3, ... in order"},
    {"session_too_many_units.yaml", "110:5", "too many units: a session holds at most 100"},
    {"session_invalid_utf8.yaml", "10:17", "not UTF-8 text (byte 0xE9 is not part of a valid character)"},
    {"session_undo_nothing.yaml", "12:5", "history #1 (undo): there is nothing to undo"},
    {"session_unknown_unit.yaml", "12:46", "history #1 (casualties): no unit named 'Hussars' in this session"},
    {"session_die_edited.yaml", "33:11", "history #1 (activate): roll 5 is not what roll number 0 of seed 42 gives (6)"},
    // ASL Cavalry tables
    {"asl_unknown_key.yaml", "2:1", "unknown key 'movment' in the ASL Cavalry tables, did you mean 'movement'?"},
    {"asl_syntax_error.yaml", "3:1", "YAML syntax error: end of map flow not found"},
    {"asl_cycle.yaml", "2:10", "extends chain longer than 16 files (does it extend itself?)"},
    {"asl_wrong_type.yaml", "3:20", "expected a whole number from 1 to 1000 for movement horse_allotment (13.34), found 'twelve'"},
    {"asl_overlay_bad_value.yaml", "4:20", "expected a whole number from 0 to 1000 for charge min_range_hexes (13.6), found '-1'"},
    // seed 004's tables
    {"seed004_wrong_type.yaml", "57:10", "expected a whole number from 1 to 10 for retire hexes, found 'two'"},
    {"seed004_unknown_face.yaml", "14:58", "unknown die face 'lance' (expected one of: infantry, cavalry, artillery, sabre, flag)"},
    // checkpoints of `vedette sim` (JSON): resumed as the run they were made by
    {"checkpoint_syntax_error.json", "1:201", "not a valid checkpoint (JSON): parse error at line 1, column 201"},
    {"checkpoint_truncated.json", "1:625", "not a valid checkpoint (JSON): parse error at line 1, column 625"},
    {"checkpoint_empty.json", "1:1", "not a valid checkpoint (JSON): parse error at line 1, column 1"},
    {"checkpoint_binary_junk.json", "1:1", "not a valid checkpoint (JSON)"},
    {"checkpoint_nan.json", "1:55", "not a valid checkpoint (JSON): parse error at line 1, column 55"},
    {"checkpoint_not_a_checkpoint.json", "1:1", "not a valid checkpoint (JSON)"},
    {"checkpoint_deep_nesting.json", "", "not a usable checkpoint: nested deeper than a checkpoint is"},
    {"checkpoint_too_many_values.json", "", "not a usable checkpoint: more values than a checkpoint of this run holds"},
    {"checkpoint_wrong_type.json", "", "not a usable checkpoint: 'next' should be a whole number from 0 to 600, found \"six hundred\""},
    {"checkpoint_missing_key.json", "", "not a usable checkpoint: the key 'tallies' is missing"},
    {"checkpoint_enormous_number.json", "", "not a usable checkpoint: 'seed' should be a whole number from 0 to 18446744073709551615, found 1e+30"},
    {"checkpoint_number_overflow.json", "1:121", "not a valid checkpoint (JSON): a number too large to read (9e999)"},
    {"checkpoint_next_beyond_n.json", "", "not a usable checkpoint: 'next' should be a whole number from 0 to 600, found 601"},
    {"checkpoint_negative_n.json", "", "not a usable checkpoint: 'tally.n' should not be negative"},
    {"checkpoint_sums_edited.json", "", "not a usable checkpoint: 'tally.sum' does not add up to n (the file was edited or damaged)"},
    {"checkpoint_sums_overflow.json", "", "not a usable checkpoint: 'tally.cross_lower' holds a number no 600 engagements can sum to"},
    {"checkpoint_newer_format.json", "", "not a usable checkpoint: format 2, expected 1"},
    {"checkpoint_other_command.json", "", "it is a checkpoint of `vedette compare`, not of `vedette sim`"},
    {"checkpoint_other_scenario.json", "", "it was made with another scenario or ruleset"},
};

std::vector<std::string> bad_files() {
  std::vector<std::string> all;
  for (const auto& e : fs::directory_iterator(vtest::data("bad"))) all.push_back(e.path().filename().string());
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace

TEST_CASE("bad input: every file in tests/data/bad is refused with exit 2, located, and nothing written", "[bad]") {
  std::map<Format, int> count;
  const std::regex located(R"(\.(yaml|json):([0-9]+:[0-9]+:)? )");
  for (const auto& name : bad_files()) {
    const Format f = format_of(name);
    const fs::path path = vtest::data("bad/" + name);
    const std::string err = refused(f, path);
    INFO(name << ": " << err);
    CHECK(std::regex_search(err, located));
    ++count[f];
  }
  // The issue asks for at least 60 across the formats.
  CHECK(count[Format::ruleset] >= 50);
  CHECK(count[Format::scenario] >= 25);
  CHECK(count[Format::session] >= 20);
  CHECK(count[Format::checkpoint] >= 15);
  CHECK(count[Format::asl] >= 4);
  CHECK(count[Format::seed004] >= 2);
}

TEST_CASE("bad input: each newer bad file gives its message at its position", "[bad]") {
  for (const auto& c : k_files) {
    const Format f = format_of(c.file);
    const std::string shown = f == Format::session      ? "game.vedette.yaml"
                              : f == Format::checkpoint ? "cp.json"
                                                        : vtest::data(std::string("bad/") + c.file);
    const std::string err = refused(f, vtest::data(std::string("bad/") + c.file));
    // "" for a problem with the whole file (JSON values carry no position).
    const std::string where = std::string(c.at).empty() ? shown + ": " : shown + ":" + c.at + ": ";
    INFO(c.file << ": " << err);
    CHECK((err.find(where + c.message) != std::string::npos ||
           (std::string(c.file) == "checkpoint_other_scenario.json" && err.find(c.message) != std::string::npos)));
  }
}

TEST_CASE("bad input: every file in tests/data/bad is listed with its expected message somewhere", "[bad]") {
  // Rulesets and older scenarios: test_loader.cpp and test_scenario.cpp
  // check them (and fail on a file they do not list); sessions and ASL
  // tables are all listed here.
  for (const auto& name : bad_files()) {
    const Format f = format_of(name);
    if (f != Format::session && f != Format::asl && f != Format::checkpoint && f != Format::seed004) continue;
    bool listed = false;
    for (const auto& c : k_files) listed = listed || name == c.file;
    INFO(name);
    CHECK(listed);
  }
}

TEST_CASE("bad input: a missing file, a folder, and an unreadable file, in each format", "[bad]") {
  vtest::TempDir tmp;
  const fs::path dir = tmp.path();
  const std::map<Format, std::string> good{
      {Format::ruleset, vtest::data("good/hero_minus_2.yaml")},
      {Format::scenario, std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/open_field_charge.yaml"},
      {Format::session, vtest::data("sessions/game.vedette.yaml")},
      {Format::checkpoint, vtest::data("checkpoints/dice-600.json")},
      {Format::asl, std::string(VEDETTE_SOURCE_DIR) + "/tables/asl_cavalry.yaml"},
      {Format::seed004, std::string(VEDETTE_SOURCE_DIR) + "/tables/seed004.yaml"}};
  for (const auto& [f, file] : good) {
    INFO(format_name(f));
    // Missing.
    const std::string missing = (dir / "missing.yaml").string();
    if (f == Format::session) {
      Folder folder;
      Run r = run_in(folder.dir, command_for(f, "missing"));
      CHECK(r.status == 2);
      CHECK(r.err.find("no session file missing.vedette.yaml") != std::string::npos);
      CHECK_FALSE(fs::exists(folder.dir / "missing.vedette.yaml"));
    } else if (f == Format::checkpoint) {
      Folder folder;
      Run r = run_in(folder.dir, command_for(f, "missing.json"));
      CHECK(r.status == 2);
      CHECK(r.err.find("missing.json: cannot open the checkpoint: no such file") != std::string::npos);
      CHECK_FALSE(fs::exists(folder.dir / "missing.json"));
      CHECK_FALSE(fs::exists(folder.dir / "report"));
    } else {
      const std::string err = refused(f, missing);
      CHECK(err.find(missing + ": cannot open: No such file or directory") != std::string::npos);
    }
    // A folder where a file is expected.
    const fs::path folder_path = dir / (std::string(format_name(f)) + ".yaml");
    fs::create_directory(folder_path);
    const std::string ferr = refused(f, folder_path);
    const std::string folder_message = f == Format::session      ? "game.vedette.yaml: is a folder; expected a session file"
                                       : f == Format::checkpoint ? "--resume cp.json: is a folder; expected a file name"
                                                                 : folder_path.string() + ": is a folder; expected a YAML file";
    CHECK(ferr.find(folder_message) != std::string::npos);
    // Unreadable (as a user who may not read it).
    const std::string uerr = refused(f, file, true);
    const std::string locked = f == Format::session ? "locked.vedette.yaml" : f == Format::checkpoint ? "locked.json" : "locked.yaml";
    CHECK(uerr.find(locked + ": cannot read") != std::string::npos);
    CHECK(uerr.find("Permission denied") != std::string::npos);
  }
}

TEST_CASE("bad input: absurd and malformed command lines are refused with exit 2 and change nothing", "[bad][cli]") {
  struct Case {
    std::vector<std::string> args;
    const char* message;
  };
  const std::string dice = vtest::data("lab/dice.yaml");
  std::string hundred_and_one = "-1";
  for (int k = 0; k < 100; ++k) hundred_and_one += ",-1";
  const std::vector<Case> cases{
      {{"frobnicate"}, "unknown command 'frobnicate' (commands:"},
      {{"tabel"}, "unknown command 'tabel', did you mean 'table'?"},
      {{"solo", "nwe", "game"}, "unknown solo command 'nwe', did you mean 'new'? (solo commands: new play"},
      {{"blocks", "square"}, "unknown blocks command 'square' (blocks commands: retire)"},
      {{"blocks", "retire", "--cavalry-blocks", "1000", "--infantry-dice", "4"}, "--cavalry-blocks"},
      {{"check"}, "files is required"},
      {{"odds", "--rf", "1", "--turns", "0"}, "--turns: expected a number of turns from 1 to 1000, got 0"},
      {{"odds", "--rf", "1", "--turns", "1000000"}, "--turns: expected a number of turns from 1 to 1000, got 1000000"},
      {{"odds", "--rf", "1", "--turns", "99999999999999999999999"}, "--turns"},
      {{"react", "--casualties", "-5"}, "--casualties: expected a percentage from 0 to 100"},
      {{"react", "--casualties", "nan"}, "--casualties"},
      {{"react", "--rf", "99999999999999999999"}, "--rf: Value 99999999999999999999 not in range -100 to 100"},
      {{"react", "--galloped", "-1"}, "--galloped: Value -1 not in range 0 to 100"},
      {{"react", "--seed", "-5"}, "--seed: expected a whole number from 0 to 18446744073709551615, got '-5'"},
      {{"react", "--seed", "18446744073709551616"}, "--seed: expected a whole number from 0 to 18446744073709551615"},
      {{"react", "--pace", "sprint"}, "--pace: sprint not in {halt,walk,canter,gallop}"},
      {{"charge", "--move", "50cm", "--attacker", "heavy", "--defender", "heavy-foot", "--distance", "nancm"}, "--distance: expected a length"},
      {{"charge", "--move", "50cm", "--attacker", "heavy", "--defender", "heavy-foot", "--distance", "1" + std::string(308, '0') + "in"},
       "--distance: at most 1 km (100000cm)"},
      {{"charge", "--move", "-5cm", "--attacker", "heavy", "--defender", "heavy-foot", "--distance", "20cm"}, "--move: a distance cannot be negative"},
      {{"charge", "--move", "50cm", "--attacker", "heavy", "--defender", "heavy-foot", "--distance", "20cm", "--bearing", "nan"}, "--bearing"},
      {{"charge", "--move", "50cm", "--attacker", "heavy", "--defender", "heavy-foot", "--distance", "20cm", "--bearing", "inf"}, "--bearing"},
      {{"play", "nothing.yaml", "--seed", "-1"}, "--seed: expected a whole number"},
      {{"play", "nothing.yaml", "--index", "99999999999999999999999"}, "--index: expected a whole number"},
      {{"solo", "new", "fresh", "--unit", "X:shock,figures=0"}, "figures must be a whole number from 1 to 1000, got '0'"},
      {{"solo", "new", "fresh", "--unit", "X:shock,figures=1000000"}, "figures must be a whole number from 1 to 1000, got '1000000'"},
      {{"solo", "new", "fresh", "--unit", "X:shock", "--seed", "18446744073709551616"}, "--seed: expected a whole number"},
      {{"solo", "new", "keep", "--unit", "X:shock"}, "keep.vedette.yaml already exists; nothing was written"},
      {{"solo", "undo", "keep", "1000000000000"}, "Value 1000000000000 not in range 1 to 1000000"},
      {{"solo", "undo", "keep", "0"}, "Value 0 not in range 1 to 1000000"},
      {{"solo", "casualties", "keep", "Lancers", "99999999999999999999"}, "not in range 0 to 1000"},
      {{"solo", "casualties", "keep", "Lancers", "13"}, "Lancers"},
      {{"solo", "activate", "keep", "Nobody"}, "no unit named 'Nobody' in keep.vedette.yaml"},
      {{"solo", "activate", "keep", "Dragoons", "--roll", "7"}, "--roll"},
      {{"solo", "morale", "keep", "Lancers", "panicked"}, "panicked"},
      // the balance lab: absurd sizes are refused before anything runs
      {{"sim", dice, "-n", "0", "--out", "report"}, "-n 0: expected at least 1 engagement"},
      {{"sim", dice, "-n", "2147483648", "--out", "report"}, "-n 2147483648: at most 2147483647 engagements in one run"},
      {{"sim", dice, "-n", "-5", "--out", "report"}, "-n: expected a whole number from 0 to 18446744073709551615, got '-5'"},
      {{"sim", dice, "-n", "99999999999999999999999"}, "-n: expected a whole number from 0 to 18446744073709551615"},
      {{"sim", dice, "--threads", "0", "--out", "report"}, "--threads 0: expected 1 to 1024"},
      {{"sim", dice, "--threads", "10000", "--out", "report"}, "--threads 10000: expected 1 to 1024"},
      {{"sim", dice, "--seed", "-5", "--out", "report"}, "--seed: expected a whole number from 0 to 18446744073709551615, got '-5'"},
      {{"sim", dice, "--precision", "0", "--out", "report"}, "--precision: expected a half width in percentage points"},
      {{"sim", dice, "--precision", "nan", "--out", "report"}, "--precision: expected a half width in percentage points"},
      {{"sim", dice, "--checkpoint-every", "-1", "--checkpoint", "cp.json"}, "--checkpoint-every: expected seconds, 0 or more"},
      {{"sim", dice, "--out", "keep.vedette.yaml"}, "--out keep.vedette.yaml: is a file, not a folder"},
      {{"sim", dice, "--csv"}, "--csv writes engagements.csv into the --out folder: give --out DIR"},
      {{"sim", dice, "--resume", "keep.vedette.yaml", "--out", "report"}, "keep.vedette.yaml:1:1: not a valid checkpoint (JSON)"},
      {{"sweep", dice, "--set", "modifiers.hero.value=" + hundred_and_one, "--out", "report"},
       "--set: more than 100 values; a sweep takes at most 100"},
      {{"sweep", dice, "--set", "modifiers.heroes.value=1,2", "--out", "report"}, "no such setting in the ruleset: 'modifiers.heroes.value'"},
      // --set paths: did-you-mean, and the flag named (not a line of the built-in file)
      {{"sweep", dice, "--set", "modifiers.hero.valeu=1,2", "--out", "report"},
       "--set modifiers.hero.valeu=1: no such setting in the ruleset: 'modifiers.hero.valeu': 'modifiers.hero' has no 'valeu', "
       "did you mean 'modifiers.hero.value'?"},
      {{"sweep", dice, "--set", "modifiers.hero.value=1,lots", "--out", "report"},
       "--set modifiers.hero.value=lots: expected a whole number from -100 to 100 for modifier 'hero' value, found 'lots'"},
      {{"compare", dice, "--variant", "nothing.yaml", "--out", "report"}, "nothing.yaml: cannot open"},
      {{"bench", "--quick", "--threads", "10000"}, "--threads: Value 10000 not in range 1 to 1024"},
      {{"bench", "--quick", "--threads", "0"}, "--threads: Value 0 not in range 1 to 1024"},
      {{"bench", "--seconds", "1e9"}, "--seconds: expected seconds per measurement, above 0 and at most 600"},
  };
  for (const auto& c : cases) {
    Folder folder;
    const auto before = snapshot(folder.dir);
    Run r = run_in(folder.dir, c.args);
    std::string line;
    for (const auto& a : c.args) line += a + " ";
    INFO(line << "\nstdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find(c.message) != std::string::npos);
    CHECK(snapshot(folder.dir) == before);
  }
}

}  // namespace t_bad_input
