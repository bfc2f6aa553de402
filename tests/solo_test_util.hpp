#pragma once
// Helpers for the solo tests: a temporary folder, running the built
// `vedette` as a user would (arguments, standard input, exit status, both
// outputs), and reading files byte for byte.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "helpers.hpp"

namespace solo_test {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "vedette-solo-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void spit(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

struct Result {
  int status = -1;
  std::string out, err;
  nlohmann::json json() const { return nlohmann::json::parse(out); }
};

// Runs the built vedette with these arguments in folder `cwd`, feeding
// `input` on standard input (a pipe-like file, not a terminal).
inline Result run(const std::vector<std::string>& args, const fs::path& cwd, const std::string& input = "") {
  vtest::RunOptions o;
  o.cwd = cwd.string();
  o.input = input;
  vtest::RunResult r = vtest::run_vedette(args, o);
  return {r.status, std::move(r.out), std::move(r.err)};
}

inline bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }
// Replaces the one `from` in `text` (a test fails when it is not there).
inline void replace_once(std::string& text, const std::string& from, const std::string& to) {
  auto pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  text.replace(pos, from.size(), to);
}

// Runs `vedette` in `dir` and requires exit 0 (the output is shown if not).
inline void run_ok(const TempDir& dir, const std::vector<std::string>& args);

// The reactions' game (issue 28), on the player's dice, at turn 2:
// Cuirassiers (heavy) whose table cell says "(Charge?)" (RF 1, D6 4: at
// halt), declined, and Hussars (light) halted (D6 3, no "(Charge?)"); then
// (unless `initiative` is false) the player moves first.
inline void reactions_turn_two(const TempDir& dir, bool initiative = true);

// The shooters' game (tests/test_solo_turn.cpp, tests/test_solo_turn_rules.cpp),
// on the player's dice: Hussars (carbine) and Dragoons (mounted infantry,
// musket, 8 figures), seed 3, made afresh in `dir`.
inline void new_shooters_game(const TempDir& dir);
// Its turn 1 in `solo play` up to the first shooting question: Hussars RF 1
// (enemy in range), D6 6: gallops (no charge on turn 1); Dragoons RF 1, D6
// 3: halts; the initiative (3 yours, 4 the cavalry's); your move: none.
inline const std::string k_shooters_turn1 =
    "n\ny\nn\n0\n6\n"  // Hussars
    "n\ny\nn\n0\n3\n"  // Dragoons
    "3\n4\n"            // the initiative: yours, the cavalry's die
    "\n";               // your move: no unit of yours near the cavalry

inline void run_ok(const TempDir& dir, const std::vector<std::string>& args) {
  Result r = run(args, dir.path);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
}

inline void new_shooters_game(const TempDir& dir) {
  run_ok(dir, {"solo", "new", "game", "--unit", "Hussars:shooting,weapon=carbine", "--unit",
               "Dragoons:mounted-infantry,weapon=musket,figures=8", "--seed", "3", "--physical-dice"});
}

inline void reactions_turn_two(const TempDir& dir, bool initiative) {
  run_ok(dir, {"solo", "new", "game", "--unit", "Cuirassiers:shock,heavy", "--unit", "Hussars:shock,light", "--seed", "5",
               "--physical-dice"});
  run_ok(dir, {"solo", "activate", "game", "Cuirassiers", "--roll", "3"});
  run_ok(dir, {"solo", "activate", "game", "Hussars", "--roll", "3"});
  run_ok(dir, {"solo", "next-turn", "game"});
  run_ok(dir, {"solo", "activate", "game", "Cuirassiers", "--enemy-in-range", "--roll", "4"});  // RF 1, D6 4: (Charge?)
  run_ok(dir, {"solo", "charge", "game", "Cuirassiers", "--decline"});
  run_ok(dir, {"solo", "activate", "game", "Hussars", "--enemy-in-range", "--roll", "3"});  // RF 1, D6 3: halt, no charge
  if (initiative) run_ok(dir, {"solo", "initiative", "game", "--total", "6", "--roll", "1"});  // the player moves first
}

}  // namespace solo_test
