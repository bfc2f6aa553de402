#pragma once
// Flags and chores shared by `vedette sim`, `compare` and `sweep`: the run's
// size and seed, threads, the output folder, checking all of it before
// anything runs (bad input writes nothing), and writing the report files.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sims/cli/cli.hpp"
#include "sims/lab/harness.hpp"
#include "sims/report/report.hpp"

namespace vedette::lab {

struct LabFlags {
  std::string scenario;
  std::vector<std::string> scenarios;  // SCENARIO... (add_lab_flags with `many`); scenario is the first
  std::string ruleset;
  std::optional<std::uint64_t> n;
  std::optional<std::uint64_t> seed;
  unsigned threads = 0;  // 0 here: not given (default: the machine's cores)
  bool threads_given = false;
  std::string out;
  bool json = false;
  CLI::Option* n_opt = nullptr;
  CLI::Option* threads_opt = nullptr;
};

inline constexpr std::uint64_t k_default_n = 10000;

// SCENARIO (SCENARIO... with `many`), --ruleset (unless `ruleset` is false),
// -n, --seed, --threads, --out, --json.
void add_lab_flags(CLI::App* c, LabFlags& f, bool ruleset = true, bool many = false);

// Checks what the flags say on their own; throws cli::UsageError.
void check_lab_flags(const LabFlags& f);
unsigned thread_count(const LabFlags& f);

// The output folder: refused (UsageError) if it is a file or cannot be made;
// made (with its parents) only when `create`.
void check_out_dir(const std::string& dir, bool create);
// A file beside which a checkpoint can be written.
void check_writable_file_path(const std::string& path, const char* flag);

// "2 threads", or on an MPI job "3 ranks x 2 threads, 41,280 bytes
// communicated" (this rank's share of the collectives so far).
std::string workers_text(unsigned threads);

// Whether stderr is a terminal that `io` writes to (then a progress bar).
std::ostream* progress_stream(cli::Io& io);

// Writes report.html and summary.json into `dir` (atomically); returns the
// report's path. Throws AtomicWriteError.
std::string write_reports(const std::string& dir, const std::string& html, const OJson& summary);

// Runs a lab command: a file that cannot be written, or an engagement that
// breaks the harness's rules, is reported as "vedette: ..." with status 1.
int guarded(cli::Io& io, const std::function<int()>& body);

// "SIGINT" / "SIGTERM" for a signal number.
std::string signal_name(int sig);
// The exit status of a run stopped by `sig` (128 + sig) or 0.
int exit_status(int sig);

}  // namespace vedette::lab
