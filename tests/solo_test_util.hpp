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

}  // namespace solo_test
