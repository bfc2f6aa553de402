#pragma once
// The fuzz targets' bodies, shared by the libFuzzer entry points
// (tests/fuzz/fuzz_*.cpp, built with -DVEDETTE_FUZZ=ON, run by scripts/fuzz)
// and by the Catch2 test that replays every kept crasher
// (tests/test_fuzz_regressions.cpp, over tests/data/fuzz-regressions/).
//
// The rule each target enforces: bad input is answered with LoadError (or,
// on the command line, exit status 2 and a message) and nothing else; what a
// loader accepts, the commands that use it handle. Anything else escapes as
// an exception (a Violation when a check fails): libFuzzer reports it as a
// crash, the Catch2 test as a failure.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bots/registry.hpp"
#include "engine/modules/asl/asl_cavalry.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/engagement/scenario.hpp"
#include "engine/modules/blocks/seed004.hpp"
#include "sims/lab/checkpoint.hpp"
#include "sims/lab/lab_model.hpp"
#include "sims/cli/cli.hpp"
#include "sims/solo/session.hpp"

namespace vfuzz {

namespace fs = std::filesystem;

// A check a target makes has failed.
struct Violation : std::logic_error {
  using std::logic_error::logic_error;
};

inline void require(bool ok, const std::string& what) {
  if (!ok) throw Violation(what);
}

// A folder of our own, made once per process and removed at exit; in
// memory (/dev/shm) when there is one, where vedette's fsyncs cost nothing.
inline const fs::path& scratch() {
  static const fs::path dir = [] {
    std::error_code shm;
    const fs::path base = ::access("/dev/shm", W_OK) == 0 && fs::is_directory("/dev/shm", shm) ? fs::path("/dev/shm")
                                                                                                : fs::temp_directory_path();
    std::string t = (base / "vedette-fuzz-XXXXXX").string();
    if (!::mkdtemp(t.data())) throw std::runtime_error("mkdtemp failed");
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(scratch(), ec);
    });
    return fs::path(t);
  }();
  return dir;
}

inline void write(const fs::path& p, std::string_view text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Copies a source-tree file into the scratch folder.
inline void provide(const std::string& source_rel, const fs::path& dest) {
  fs::create_directories(dest.parent_path());
  fs::copy_file(fs::path(VEDETTE_SOURCE_DIR) / source_rel, dest, fs::copy_options::overwrite_existing);
}

// Splits the input into at most `n` files at lines reading exactly
// "#%file" (so one input can hold an overlay and its base, or a scenario
// and its ruleset); the seeds are plain files, which give one part.
inline std::vector<std::string> split_files(std::string_view in, std::size_t n) {
  std::vector<std::string> parts(1);
  constexpr std::string_view sep = "\n#%file\n";
  while (parts.size() < n) {
    auto k = in.find(sep);
    if (k == std::string_view::npos) break;
    parts.back() = std::string(in.substr(0, k + 1));
    in.remove_prefix(k + sep.size());
    parts.emplace_back();
  }
  parts.back() = std::string(in);
  return parts;
}

// Runs `vedette ARGS` in-process; returns the exit status.
inline int run_cli(const std::vector<std::string>& args, std::string* out_text = nullptr, std::string* err_text = nullptr) {
  std::ostringstream out, err;
  vedette::cli::Io io{out, err};
  const int status = vedette::cli::run(args, io);
  if (out_text) *out_text = out.str();
  if (err_text) *err_text = err.str();
  return status;
}

inline void expect_located(const vedette::LoadError& e) {
  require(!e.diagnostics().empty(), "a LoadError that says nothing");
  for (const auto& d : e.diagnostics()) require(!d.message.empty() && !d.where.file.empty(), "a diagnostic without a message or file");
}

// ------------------------------------------------------------ ruleset
// The input is an overlay file; a line "#%file" starts a second file it may
// extend (`extends: b.yaml`), so chains and cycles are reached too. A
// ruleset that loads must print with `table` (text and JSON), `odds` and
// `react` (exit 0).
inline void ruleset_one(std::string_view input) {
  static const bool ready = [] {
    provide("tables/default.yaml", scratch() / "default.yaml");  // for `extends: ../default.yaml`
    fs::create_directories(scratch() / "r");
    return true;
  }();
  (void)ready;
  const auto files = split_files(input, 2);
  const auto a = scratch() / "r/a.yaml", b = scratch() / "r/b.yaml";
  write(a, files[0]);
  std::error_code ec;
  if (files.size() > 1) write(b, files[1]);
  else fs::remove(b, ec);
  try {
    (void)vedette::load_ruleset(a.string());
  } catch (const vedette::LoadError& e) {
    expect_located(e);
    return;
  }
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"table", "--json", "--ruleset", a.string()},
        std::vector<std::string>{"table", "--ruleset", a.string()},
        std::vector<std::string>{"odds", "--rf", "2", "--turns", "3", "--ruleset", a.string()},
        std::vector<std::string>{"react", "--rf", "0", "--roll", "6", "--json", "--ruleset", a.string()}}) {
    std::string err;
    require(run_cli(args, nullptr, &err) == 0, "a ruleset that loads fails `" + args[0] + "`: " + err);
  }
}

// Writes the input as a/a.yaml (and b.yaml after a "#%file" line) in folder
// `sub` of the scratch folder; returns a.yaml's path.
inline fs::path write_pair(std::string_view input, const std::string& sub) {
  const auto dir = scratch() / sub;
  fs::create_directories(dir);
  const auto files = split_files(input, 2);
  write(dir / "a.yaml", files[0]);
  std::error_code ec;
  if (files.size() > 1) write(dir / "b.yaml", files[1]);
  else fs::remove(dir / "b.yaml", ec);
  return dir / "a.yaml";
}

// ---------------------------------------------------------------- asl
// The ASL Cavalry tables (seed 000, tables/asl_cavalry.yaml), with
// `extends:` as for rulesets. Tables that load must pass `vedette asl
// check`; the module's commands on them end with exit 0 or a clear 2.
inline void asl_one(std::string_view input) {
  const auto a = write_pair(input, "asl");
  try {
    (void)vedette::asl::load_rules(a.string());
  } catch (const vedette::LoadError& e) {
    expect_located(e);
    return;
  }
  std::string err;
  require(run_cli({"asl", "check", a.string(), "--json"}, nullptr, &err) == 0, "tables that load fail `asl check`: " + err);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"asl", "plan", "--rules", a.string(), "--start", "infantry", "move:1", "mount", "gallop", "--json"},
        std::vector<std::string>{"asl", "plan", "--rules", a.string(), "--start", "mounted", "--gallop-at-start", "charge:4",
                                 "move:1", "attack:1"},
        std::vector<std::string>{"asl", "check-charge", "--rules", a.string(), "--range", "3", "--mf-left", "4", "--cost", "1"}}) {
    std::string out;
    const int status = run_cli(args, &out, &err);
    require(status == 0 || (status == 2 && !err.empty()), "`asl " + args[1] + "` on tables that load: exit " +
                                                             std::to_string(status) + ": " + err);
  }
}

// ------------------------------------------------------------ seed004
// Seed 004's block-unit tables (tables/seed004.yaml).
inline void seed004_one(std::string_view input) {
  const auto a = write_pair(input, "seed004");
  try {
    auto r = vedette::load_seed004(a.string());
    require(r != nullptr, "load_seed004 gave nothing");
  } catch (const vedette::LoadError& e) {
    expect_located(e);
  }
}

// The balance lab's view of a scenario file (an engine scenario, or a
// `synthetic:` one): what opens must run `vedette sim` and write its report.
inline void lab_scenario(const fs::path& scen) {
  try {
    (void)vedette::lab::open_lab_scenario(scen.string());
  } catch (const vedette::LoadError& e) {
    expect_located(e);
    return;
  }
  const fs::path out = scen.parent_path() / "out";
  std::error_code ec;
  fs::remove_all(out, ec);
  std::string err;
  require(run_cli({"sim", scen.string(), "-n", "8", "--seed", "1", "--threads", "1", "--json", "--out", out.string()}, nullptr,
                  &err) == 0,
          "a scenario that opens fails `sim`: " + err);
  require(fs::exists(out / "summary.json") && fs::exists(out / "report.html"), "`sim --out` wrote no report");
}

// ----------------------------------------------------------- scenario
// The input is a scenario file; a line "#%file" starts a second file,
// rules.yaml, that it may name as its ruleset. A scenario that loads must
// play (`vedette play --json`, exit 0).
inline void scenario_one(std::string_view input) {
  static const bool ready = [] {
    // Shipped scenarios name rules/squares.yaml, which extends ../../../tables/default.yaml.
    provide("sims/scenarios/rules/squares.yaml", scratch() / "s/rules/squares.yaml");
    provide("tables/default.yaml", scratch() / "tables/default.yaml");
    return true;
  }();
  (void)ready;
  const auto files = split_files(input, 2);
  const auto scen = scratch() / "s/scenario.yaml", rules = scratch() / "s/rules.yaml";
  write(scen, files[0]);
  std::error_code ec;
  if (files.size() > 1) write(rules, files[1]);
  else fs::remove(rules, ec);
  vedette::ScenarioPtr s;
  try {
    s = vedette::load_scenario_file(scen.string());
  } catch (const vedette::LoadError& e) {
    expect_located(e);
    lab_scenario(scen);  // a `synthetic:` scenario is the lab's only
    return;
  }
  require(s && s->rules && s->table && s->sides.size() == 2 && !s->units.empty(), "a scenario loaded incomplete");
  std::string err;
  require(run_cli({"play", scen.string(), "--seed", "1", "--json"}, nullptr, &err) == 0,
          "a scenario that loads fails `play`: " + err);
  lab_scenario(scen);
}

// ------------------------------------------------------------ session
// The input is a solo session file (docs/solo.md). A session that loads
// must write itself back as a file that loads again to the same text: what
// vedette writes, it can read.
inline void session_one(std::string_view input) {
  const auto p = scratch() / "game.vedette.yaml";
  write(p, input);
  std::string written;
  try {
    written = vedette::solo::Session::load(p).text();
  } catch (const vedette::LoadError& e) {
    expect_located(e);
    return;
  }
  write(p, written);
  try {
    require(vedette::solo::Session::load(p).text() == written, "a session read back differs from what was written");
  } catch (const vedette::LoadError& e) {
    throw Violation(std::string("a loaded session wrote a file it cannot read: ") + e.what());
  }
}

// --------------------------------------------------------- checkpoint
// The input is a checkpoint of `vedette sim` or `compare` (JSON), resumed as
// each of the runs tests/data/checkpoints/ were made by (only the run it
// belongs to gets past its fingerprint). A resume that is refused (exit 2)
// leaves the checkpoint as it was and makes no report folder; one that is
// accepted (exit 0) writes a summary.json that is JSON, and a checkpoint
// that resumes again.
inline void checkpoint_one(std::string_view input) {
  const fs::path dir = scratch() / "k";
  fs::create_directories(dir);
  const fs::path cp = dir / "cp.json", out = dir / "out";
  const std::string src = VEDETTE_SOURCE_DIR;
  const std::string dice = src + "/tests/data/lab/dice.yaml", field = src + "/sims/scenarios/open_field_charge.yaml";
  struct Run {
    std::string command, n, seed;
    std::vector<std::string> args;
  };
  const std::vector<Run> runs{
      {"sim", "600", "1", {"sim", dice}},
      {"sim", "100000", "2", {"sim", dice, "--precision", "5"}},
      {"sim", "300", "1", {"sim", field}},
      {"compare", "256", "1", {"compare", field, "--variant", src + "/tables/house-rules/steady-veterans.yaml"}}};
  // Resume it as the run its command, n and seed say (the first when they
  // match none): the run whose fingerprint it can pass.
  std::size_t which = 0;
  const auto j = nlohmann::json::parse(input, nullptr, false);
  if (j.is_object())
    for (std::size_t k = 0; k < runs.size(); ++k) {
      auto is = [&](const char* key, const std::string& v) { return j.contains(key) && j[key].dump() == v; };
      if (is("command", "\"" + runs[k].command + "\"") && is("n", runs[k].n) && is("seed", runs[k].seed)) which = k;
    }
  auto args = runs[which].args;
  for (const std::string& a : {std::string("-n"), runs[which].n, std::string("--seed"), runs[which].seed, std::string("--threads"),
                               std::string("1"), std::string("--json"), std::string("--resume"), cp.string(), std::string("--out"),
                               out.string()})
    args.push_back(a);
  write(cp, input);
  std::error_code ec;
  fs::remove_all(out, ec);
  std::string text, err;
  const int status = run_cli(args, &text, &err);
  if (status == 2) {
    require(!err.empty(), "a refused resume says nothing");
    require(slurp(cp) == input, "a refused resume changed the checkpoint");
    require(!fs::exists(out), "a refused resume made the report folder");
    return;
  }
  require(status == 0, "resume: exit " + std::to_string(status) + ": " + err);
  try {
    const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
    require(summary.is_object(), "summary.json is not a JSON object");
  } catch (const nlohmann::json::exception& e) {
    throw Violation(std::string("a resumed run wrote a summary.json that is not JSON: ") + e.what());
  }
  require(run_cli(args, nullptr, &err) == 0, "the checkpoint a resumed run wrote does not resume: " + err);
}

// ---------------------------------------------------------------- cli
// The input is split at newlines into arguments for `vedette`, run in a
// folder holding a ruleset, a house rule, a scenario and a solo session
// (restored before every run). Arguments naming another folder ('/') are
// refused (returns false): the fuzzer must not write outside its own.
// Checked: the exit status is 0, 1 or 2; a failure says why; a run failing
// with 2 (bad input) created, changed or removed no file.
struct CliFolder {
  fs::path dir = scratch() / "c";
  std::map<std::string, std::string> originals;

  CliFolder() {
    fs::create_directories(dir);
    const fs::path src(VEDETTE_SOURCE_DIR);
    originals["rules.yaml"] = slurp(src / "tables/default.yaml");
    originals["house.yaml"] = "extends: rules.yaml\nname: house\nmodifiers:\n  hero: {value: -2}\n";
    originals["scen.yaml"] = slurp(src / "sims/scenarios/open_field_charge.yaml");
    originals["game.vedette.yaml"] = slurp(src / "tests/data/sessions/game.vedette.yaml");
    originals["dice.yaml"] = slurp(src / "tests/data/lab/dice.yaml");
    originals["cp.json"] = slurp(src / "tests/data/checkpoints/dice-600.json");
    for (const auto& [name, text] : originals)
      if (text.empty()) throw std::runtime_error("fuzz_cli: missing " + name);
  }
  void restore() const {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir)) {
      const auto name = e.path().filename().string();
      if (!originals.count(name) || !e.is_regular_file()) fs::remove_all(e.path(), ec);
    }
    for (const auto& [name, text] : originals) {
      fs::permissions(dir / name, fs::perms::owner_read | fs::perms::owner_write, ec);
      write(dir / name, text);
    }
  }
  std::map<std::string, std::string> snapshot() const {
    std::map<std::string, std::string> now;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      now[fs::relative(e.path(), dir).string()] = e.is_regular_file() ? slurp(e.path()) : std::string("<not a file>");
    return now;
  }
};

// Changes the working folder for its lifetime.
struct InFolder {
  fs::path old = fs::current_path();
  explicit InFolder(const fs::path& p) { fs::current_path(p); }
  ~InFolder() {
    std::error_code ec;
    fs::current_path(old, ec);
  }
  InFolder(const InFolder&) = delete;
  InFolder& operator=(const InFolder&) = delete;
};

// `solo play` reads std::cin: give it nothing to read, never the terminal.
struct NoInput {
  std::istringstream empty;
  std::streambuf* old = std::cin.rdbuf(empty.rdbuf());
  NoInput() = default;
  ~NoInput() {
    std::cin.rdbuf(old);
    std::cin.clear();
  }
  NoInput(const NoInput&) = delete;
  NoInput& operator=(const NoInput&) = delete;
};

inline std::vector<std::string> split_args(std::string_view input) {
  std::vector<std::string> args;
  std::string cur;
  for (char c : input) {
    if (c == '\n') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) args.push_back(cur);
  return args;
}

// The balance lab's commands play -n engagements (10,000 by default, up to
// 10,000,000 with --precision), and `bench` measures for seconds: a long run
// is no hang, so the fuzzer only tries small ones (-n 64 at most, a sweep of
// at most 4 values, a resume of the 600-engagement checkpoint), no bench and
// no serve (which serves until it is stopped).
inline bool small_lab_run(const std::vector<std::string>& args) {
  bool lab = false, resume = false, small_n = false, few_values = true;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "sim" || a == "compare" || a == "sweep") lab = true;
    if (a == "bench") return false;  // it measures for seconds on purpose
    if (a == "serve") return false;  // it serves until stopped, on purpose
    // Hundreds of variants (sensitivity) or a search of runs (calibrate):
    // long on purpose, whatever -n says.
    if (a == "sensitivity" || a == "calibrate") return false;
    if (a == "--precision" || a.rfind("--precision=", 0) == 0) return false;
    if (a == "--resume" || a.rfind("--resume=", 0) == 0) resume = true;
    std::string value;
    if (a == "-n" && i + 1 < args.size()) value = args[i + 1];
    else if (a.rfind("-n", 0) == 0 && a.size() > 2) value = a.substr(a[2] == '=' ? 3 : 2);
    if (!value.empty()) small_n = value.size() <= 2 && value.find_first_not_of("0123456789") == std::string::npos && std::stoi(value) <= 64;
    if (a == "--set" && i + 1 < args.size() && std::count(args[i + 1].begin(), args[i + 1].end(), ',') > 3) few_values = false;
    if (a.rfind("--set=", 0) == 0 && std::count(a.begin(), a.end(), ',') > 3) few_values = false;
  }
  return !lab || ((small_n || resume) && few_values);
}

inline bool cli_one(std::string_view input) {
  static const CliFolder folder;
  const auto args = split_args(input);
  for (const auto& a : args)
    if (a.find('/') != std::string::npos) return false;
  if (!small_lab_run(args)) return false;
  folder.restore();
  const auto before = folder.snapshot();
  std::string out, err;
  int status = 0;
  {
    InFolder in(folder.dir);
    NoInput no_input;
    status = run_cli(args, &out, &err);
  }
  require(status == 0 || status == 1 || status == 2, "exit status " + std::to_string(status));
  require(status == 0 || !err.empty() || !out.empty(), "failed with status " + std::to_string(status) + " and said nothing");
  require(status != 2 || folder.snapshot() == before, "failed with status 2 but changed the files: " + err);
  return true;
}

}  // namespace vfuzz
