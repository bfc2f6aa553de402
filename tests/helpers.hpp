#pragma once
// Shared helpers for the Catch2 tests: test data paths, loading a ruleset
// and catching its LoadError, running the built `vedette` as a user would.
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/diagnostics.hpp"
#include "engine/ruleset.hpp"

namespace vtest {

inline std::string data(const std::string& rel) { return std::string(VEDETTE_TEST_DATA) + "/" + rel; }

// The diagnostics of loading `path`, or an empty list when it loads.
inline std::vector<vedette::Diagnostic> load_errors(const std::string& path) {
  try {
    (void)vedette::load_ruleset(path);
  } catch (const vedette::LoadError& e) {
    return e.diagnostics();
  }
  return {};
}

inline std::string all_messages(const std::vector<vedette::Diagnostic>& d) {
  std::string s;
  for (const auto& x : d) s += x.str() + "\n";
  return s;
}

// A temporary folder removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string t = "/tmp/vedette_test_XXXXXX";
    if (!::mkdtemp(t.data())) throw std::runtime_error("mkdtemp failed");
    path_ = t;
  }
  ~TempDir() {
    std::string cmd = "rm -rf '" + path_ + "'";
    if (std::system(cmd.c_str()) != 0) { /* best effort */ }
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string write(const std::string& name, const std::string& text) const {
    std::string p = path_ + "/" + name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }

 private:
  std::string path_;
};

struct RunResult {
  int status = -1;  // exit status, or -1 if killed by a signal
  std::string out;
  std::string err;
};

inline std::string read_all(int fd) {
  std::string s;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) s.append(buf, static_cast<std::size_t>(n));
    else if (n < 0 && errno == EINTR) continue;
    else break;
  }
  return s;
}

// Runs the built `vedette` with these arguments (no shell: each argument is
// passed as is), capturing stdout and stderr separately and the exit status.
// stderr goes to a temporary file so a full pipe cannot deadlock.
inline RunResult run_vedette(const std::vector<std::string>& args) {
  RunResult r;
  int out_pipe[2];
  if (::pipe(out_pipe) != 0) throw std::runtime_error("pipe failed");
  char err_name[] = "/tmp/vedette_stderr_XXXXXX";
  int err_fd = ::mkstemp(err_name);
  if (err_fd < 0) throw std::runtime_error("mkstemp failed");
  ::unlink(err_name);

  std::vector<std::string> argv_s{VEDETTE_EXE};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::dup2(out_pipe[1], 1);
    ::dup2(err_fd, 2);
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    ::close(err_fd);
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, 0);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  r.out = read_all(out_pipe[0]);
  ::close(out_pipe[0]);
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  ::lseek(err_fd, 0, SEEK_SET);
  r.err = read_all(err_fd);
  ::close(err_fd);
  return r;
}

}  // namespace vtest
