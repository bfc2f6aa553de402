// Every input the fuzzers ever crashed on (tests/data/fuzz-regressions/
// TARGET/), and every seed they start from, run through the same checks as
// the fuzz targets (tests/fuzz/targets.hpp): bad input gives a LoadError or
// exit status 2 and nothing else; what loads, the commands handle; a
// session reads back what it writes; a failed command changes no file.
#include <catch2/catch.hpp>

#include <dirent.h>

#include <set>
#include <string>

#include "fuzz/targets.hpp"
#include "helpers.hpp"

namespace t_fuzz_regressions {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

namespace {

// Regular files in a folder (sorted), optionally only names with a prefix.
std::vector<std::string> files_in(const std::string& dir, const std::string& prefix = "", const std::string& except = "") {
  std::set<std::string> out;
  if (!vfuzz::fs::is_directory(dir)) return {};
  for (const auto& e : vfuzz::fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    if (!e.is_regular_file() || n.rfind(prefix, 0) != 0 || (!except.empty() && n.rfind(except, 0) == 0)) continue;
    out.insert(e.path().string());
  }
  return {out.begin(), out.end()};
}

template <class F>
void run_all(const std::vector<std::string>& files, F&& target) {
  for (const auto& f : files) {
    INFO(f);
    CHECK_NOTHROW(target(vfuzz::slurp(f)));
  }
}

const std::string k_src = VEDETTE_SOURCE_DIR;

}  // namespace

TEST_CASE("fuzz regressions: every kept crasher is answered cleanly", "[fuzz]") {
  const std::string dir = vtest::data("fuzz-regressions/");
  std::size_t n = 0;
  for (const auto& f : files_in(dir + "ruleset")) {
    INFO(f);
    CHECK_NOTHROW(vfuzz::ruleset_one(vfuzz::slurp(f)));
    ++n;
  }
  for (const auto& f : files_in(dir + "scenario")) {
    INFO(f);
    CHECK_NOTHROW(vfuzz::scenario_one(vfuzz::slurp(f)));
    ++n;
  }
  for (const auto& f : files_in(dir + "session")) {
    INFO(f);
    CHECK_NOTHROW(vfuzz::session_one(vfuzz::slurp(f)));
    ++n;
  }
  for (const auto& f : files_in(dir + "checkpoint")) {
    INFO(f);
    CHECK_NOTHROW(vfuzz::checkpoint_one(vfuzz::slurp(f)));
    ++n;
  }
  for (const auto& f : files_in(dir + "asl")) {
    INFO(f);
    CHECK_NOTHROW(vfuzz::asl_one(vfuzz::slurp(f)));
    ++n;
  }
  for (const auto& f : files_in(dir + "seed004")) {
    INFO(f);
    CHECK_NOTHROW(vfuzz::seed004_one(vfuzz::slurp(f)));
    ++n;
  }
  for (const auto& f : files_in(dir + "cli")) {
    INFO(f);
    bool ran = false;
    CHECK_NOTHROW(ran = vfuzz::cli_one(vfuzz::slurp(f)));
    CHECK(ran);
    ++n;
  }
  CHECK(n >= 2);
}

TEST_CASE("fuzz regressions: the seed corpora pass the fuzz targets' checks", "[fuzz]") {
  run_all(files_in(k_src + "/tables"), vfuzz::ruleset_one);
  run_all(files_in(vtest::data("good")), vfuzz::ruleset_one);
  run_all(files_in(vtest::data("bad"), "", "scenario_"), vfuzz::ruleset_one);
  run_all(files_in(k_src + "/sims/scenarios"), vfuzz::scenario_one);
  run_all(files_in(vtest::data("bad"), "scenario_"), vfuzz::scenario_one);
  run_all(files_in(vtest::data("sessions")), vfuzz::session_one);
  run_all(files_in(vtest::data("lab")), vfuzz::scenario_one);
  run_all(files_in(vtest::data("checkpoints")), vfuzz::checkpoint_one);
  run_all(files_in(vtest::data("bad"), "checkpoint_"), vfuzz::checkpoint_one);
  run_all({k_src + "/tables/asl_cavalry.yaml"}, vfuzz::asl_one);
  run_all({k_src + "/tables/seed004.yaml"}, vfuzz::seed004_one);
  run_all(files_in(k_src + "/tests/fuzz/corpus/cli"), vfuzz::cli_one);
}

TEST_CASE("fuzz regressions: a command reaching outside the scratch folder is not run", "[fuzz]") {
  CHECK_FALSE(vfuzz::cli_one("check\n/etc/passwd"));
  CHECK(vfuzz::cli_one("check\nrules.yaml"));
}

}  // namespace t_fuzz_regressions
