// Nothing is lost when vedette is killed. Every file it writes (reports,
// engagements.csv, checkpoints, solo sessions) goes to a temporary file in
// the same folder, is fsynced and renamed over the target, and the folder
// fsynced (sims/io/atomic_file.hpp, sims/io/atomic_stream.hpp). Here `vedette
// sim` is killed with SIGKILL at random moments of a run that writes all of
// them, many times: each file is then either its old complete version or
// its new complete version, and a checkpoint left behind always resumes to
// the same report as a run that was never killed. (Solo sessions killed
// mid-save: tests/test_solo_files.cpp.)
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "helpers.hpp"

namespace t_crash_safety {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

pid_t start(const std::vector<std::string>& args, const fs::path& cwd) { return vtest::start_vedette(args, cwd.string()); }

int wait_status(pid_t pid) { return vtest::wait_vedette(pid); }

int run(const std::vector<std::string>& args, const fs::path& cwd) { return wait_status(start(args, cwd)); }

const std::vector<std::string> k_reports{"summary.json", "report.html", "engagements.csv"};

std::map<std::string, std::string> read_outputs(const fs::path& dir) {
  std::map<std::string, std::string> m;
  for (const auto& f : k_reports)
    if (fs::exists(dir / "out" / f)) m[f] = slurp(dir / "out" / f);
  if (fs::exists(dir / "cp.json")) m["cp.json"] = slurp(dir / "cp.json");
  return m;
}

}  // namespace

TEST_CASE("crash safety: sim killed at random moments leaves each file old or new, and a checkpoint that resumes exactly",
          "[atomic][lab][kill]") {
  vtest::TempDir tmp;
  const fs::path root = tmp.path();
  const std::string dice = vtest::data("lab/dice.yaml");
  const std::vector<std::string> common{"--threads", "2", "--csv", "--out", "out", "--checkpoint", "cp.json", "--checkpoint-every", "0"};
  auto sim = [&](const std::string& seed, const std::string& n) {
    std::vector<std::string> a{"sim", dice, "-n", n, "--seed", seed};
    a.insert(a.end(), common.begin(), common.end());
    return a;
  };

  // The old files: a finished run with another seed. The new files: this
  // run, uninterrupted (it is deterministic); timed, to kill within it.
  const fs::path old_dir = root / "old", new_dir = root / "new";
  fs::create_directories(old_dir);
  fs::create_directories(new_dir);
  REQUIRE(run(sim("1", "20000"), old_dir) == 0);
  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(run(sim("2", "20000"), new_dir) == 0);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto old_files = read_outputs(old_dir), new_files = read_outputs(new_dir);
  REQUIRE(old_files.size() == 4);
  REQUIRE(new_files.size() == 4);
  for (const auto& [name, text] : new_files) REQUIRE(text != old_files.at(name));

  std::mt19937 rng(7);
  int mid_run = 0, resumed = 0;
  const int rounds = 30;
  for (int round = 0; round < rounds; ++round) {
    const fs::path dir = root / ("kill" + std::to_string(round));
    fs::create_directories(dir / "out");
    for (const auto& [name, text] : old_files) {
      std::ofstream(name == "cp.json" ? dir / name : dir / "out" / name, std::ios::binary) << text;
    }
    pid_t pid = start(sim("2", "20000"), dir);
    REQUIRE(pid > 0);
    const auto wait = std::chrono::duration<double>(seconds * 1.1 * std::uniform_real_distribution<double>(0, 1)(rng));
    std::this_thread::sleep_for(wait);
    ::kill(pid, SIGKILL);
    const int status = wait_status(pid);

    INFO("round " << round << ", killed after " << wait.count() << " s of " << seconds << " s; status " << status);
    const auto now = read_outputs(dir);
    REQUIRE(now.size() == 4);  // never a file missing: each is replaced, not removed first
    bool all_new = true;
    for (const auto& [name, text] : now) {
      INFO(name);
      if (name == "cp.json") continue;
      CHECK((text == old_files.at(name) || text == new_files.at(name)));
      all_new = all_new && text == new_files.at(name);
    }
    mid_run += !all_new;
    // The checkpoint: the old one, or one this run wrote, complete; resumed,
    // it ends on the very report of the uninterrupted run.
    const std::string& cp = now.at("cp.json");
    if (cp != old_files.at("cp.json") && resumed < 6) {
      ++resumed;
      std::vector<std::string> again{"sim", dice, "-n", "20000", "--seed", "2", "--threads", "1", "--out", "again", "--resume", "cp.json"};
      CHECK(run(again, dir) == 0);
      CHECK(slurp(dir / "again" / "summary.json") == new_files.at("summary.json"));
      CHECK(slurp(dir / "again" / "report.html") == new_files.at("report.html"));
    }
    // Nothing else is left but hidden temporary files.
    for (const auto& e : fs::directory_iterator(dir / "out")) {
      const std::string n = e.path().filename().string();
      CHECK((n[0] == '.' || std::find(k_reports.begin(), k_reports.end(), n) != k_reports.end()));
    }
  }
  // The kills landed both during runs and after some: the test tried both.
  CHECK(mid_run > 0);
  CHECK(resumed > 0);
}

}  // namespace t_crash_safety
