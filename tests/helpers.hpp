#pragma once
// Shared helpers for the Catch2 tests: test data paths, loading a ruleset
// and catching its LoadError, running the built `vedette` as a user would
// (run_vedette, start_vedette: every test that runs the binary uses these).
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/core/diagnostics.hpp"
#include "engine/decision/ruleset.hpp"

namespace vtest {

inline std::string data(const std::string& rel) {
  std::string path = VEDETTE_TEST_DATA;
  path += '/';
  path += rel;
  return path;
}

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

// ------------------------------------------------ running the built vedette
// Every test that runs the `vedette` binary goes through start_vedette (or
// run_vedette on top of it): one place that builds argv (no shell: each
// argument is passed as is), wires the standard streams, and waits.

struct RunResult {
  int status = -1;  // exit status, or minus the signal that killed it (-9: SIGKILL)
  std::string out;
  std::string err;
};

struct RunOptions {
  std::string cwd;                    // the folder to run in ("" = the test's own)
  std::optional<std::string> input;   // standard input; none = /dev/null
  bool merge_stderr = false;          // stderr into `out`, as 2>&1 (`err` stays empty)
  bool as_nobody = false;             // as the user nobody when the tests run as root
  struct ::rusage* usage = nullptr;   // if given, the child's resource use (ru_maxrss: peak RSS in KB)
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

// An unlinked temporary file, open for reading and writing (-1 on failure).
inline int scratch_fd() {
  char name[] = "/tmp/vedette_test_io_XXXXXX";
  int fd = ::mkstemp(name);
  if (fd >= 0) ::unlink(name);
  return fd;
}

// The binary as the user nobody can run it. The build folder may sit where
// nobody cannot reach (a checkout under /root, mode 700), so the child that
// drops to nobody runs a copy in a world-readable temporary folder, made
// once per test process and removed at its exit. Empty if no copy can be made.
inline const std::string& exe_for_nobody() {
  static const std::string path = [] {
    static TempDir dir;  // lives until the process exits, then removes the copy
    const std::string copy = dir.path() + "/vedette";
    std::ifstream src(VEDETTE_EXE, std::ios::binary);
    std::ofstream dst(copy, std::ios::binary);
    dst << src.rdbuf();
    dst.close();
    if (!src || !dst || ::chmod(dir.path().c_str(), 0755) != 0 || ::chmod(copy.c_str(), 0755) != 0) return std::string();
    return copy;
  }();
  return path;
}

// Starts `vedette ARGS...` without waiting: standard input, output and
// error from/to these descriptors (-1: /dev/null), in folder `cwd` ("" =
// here). Returns the child's pid (the caller waits for it).
inline pid_t start_vedette(const std::vector<std::string>& args, const std::string& cwd = "", int in = -1, int out = -1,
                           int err = -1, bool as_nobody = false) {
  const bool drop = as_nobody && ::geteuid() == 0;
  std::vector<std::string> argv_s{drop ? exe_for_nobody() : std::string(VEDETTE_EXE)};
  if (argv_s[0].empty()) throw std::runtime_error("cannot copy vedette where the user nobody can run it");
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int null_fd = ::open("/dev/null", O_RDWR);
    if (null_fd < 0 || (!cwd.empty() && ::chdir(cwd.c_str()) != 0)) ::_exit(127);
    ::dup2(in >= 0 ? in : null_fd, 0);
    ::dup2(out >= 0 ? out : null_fd, 1);
    ::dup2(err >= 0 ? err : null_fd, 2);
    if (drop && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(126);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

// Waits for a child: its exit status, or minus the signal that killed it
// (a vedette that handles SIGINT exits with status 130: that is not -2).
inline int wait_vedette(pid_t pid, struct ::rusage* usage = nullptr) {
  int st = 0;
  struct ::rusage ru {};
  while (::wait4(pid, &st, 0, &ru) < 0 && errno == EINTR) {}
  if (usage) *usage = ru;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

// Runs the built `vedette` with these arguments, capturing stdout and
// stderr separately (to temporary files: a full pipe cannot deadlock) and
// the exit status.
inline RunResult run_vedette(const std::vector<std::string>& args, const RunOptions& o) {
  const int out = scratch_fd();
  const int err = o.merge_stderr ? out : scratch_fd();
  int in = -1;
  if (out < 0 || err < 0) throw std::runtime_error("cannot make a temporary file");
  if (o.input) {
    in = scratch_fd();
    if (in < 0 || ::write(in, o.input->data(), o.input->size()) != static_cast<ssize_t>(o.input->size()))
      throw std::runtime_error("cannot write the input file");
    ::lseek(in, 0, SEEK_SET);
  }
  RunResult r;
  try {
    r.status = wait_vedette(start_vedette(args, o.cwd, in, out, err, o.as_nobody), o.usage);
  } catch (...) {
    ::close(out);
    if (err != out) ::close(err);
    if (in >= 0) ::close(in);
    throw;
  }
  ::lseek(out, 0, SEEK_SET);
  r.out = read_all(out);
  ::close(out);
  if (err != out) {
    ::lseek(err, 0, SEEK_SET);
    r.err = read_all(err);
    ::close(err);
  }
  if (in >= 0) ::close(in);
  return r;
}

inline RunResult run_vedette(const std::vector<std::string>& args) { return run_vedette(args, RunOptions{}); }

// A command line written as one string ("odds --rf 4 --turns 3"), split at
// spaces (no quoting: no shell is involved).
inline std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> w;
  std::istringstream in(line);
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

}  // namespace vtest
