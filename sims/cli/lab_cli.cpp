#include "sims/cli/lab_cli.hpp"

#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <iostream>
#include <thread>

#include "sims/cluster/cluster.hpp"
#include "sims/io/atomic_file.hpp"

namespace vedette::lab {

namespace fs = std::filesystem;
using cli::UsageError;

void add_lab_flags(CLI::App* c, LabFlags& f, bool ruleset, bool many) {
  if (many) c->add_option("SCENARIO", f.scenarios, "Scenario files (sims/scenarios/*.yaml), one or more")->required();
  else c->add_option("SCENARIO", f.scenario, "Scenario file (sims/scenarios/*.yaml)")->required();
  if (ruleset) c->add_option("--ruleset", f.ruleset, "Ruleset or house-rule file to play instead of the scenario's own");
  f.n_opt = c->add_option("-n", f.n, "Engagements to play (default 10,000)")->check(cli::unsigned_number());
  c->add_option("--seed", f.seed, "Seed of the run: the same seed gives the same numbers (default: a fresh one, printed)")
      ->check(cli::unsigned_number());
  f.threads_opt = c->add_option("--threads", f.threads, "Worker threads (default: the machine's cores); never changes a number")
                      ->check(cli::unsigned_number());
  c->add_option("--out", f.out, "Folder for report.html and summary.json (made if missing)");
  c->add_flag("--json", f.json, "Print summary.json's content on stdout instead of the Markdown summary");
}

void check_lab_flags(const LabFlags& f) {
  if (f.n && *f.n == 0) throw UsageError("-n 0: expected at least 1 engagement");
  if (f.n && *f.n > k_max_engagements)
    throw UsageError("-n " + std::to_string(*f.n) + ": at most " + std::to_string(k_max_engagements) + " engagements in one run");
  if (f.threads_opt && f.threads_opt->count() > 0 && (f.threads == 0 || f.threads > 1024))
    throw UsageError("--threads " + std::to_string(f.threads) + ": expected 1 to 1024");
}

unsigned thread_count(const LabFlags& f) {
  if (f.threads_opt && f.threads_opt->count() > 0) return f.threads;
  unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : hw;
}

void check_out_dir(const std::string& dir, bool create) {
  if (dir.empty()) return;
  std::error_code ec;
  auto st = fs::status(dir, ec);
  if (fs::exists(st) && !fs::is_directory(st)) throw UsageError("--out " + dir + ": is a file, not a folder");
  if (!create) {
    // The nearest existing ancestor must be a folder.
    fs::path p = fs::absolute(dir, ec);
    while (!p.empty() && !fs::exists(p, ec)) p = p.parent_path();
    if (!p.empty() && !fs::is_directory(p, ec)) throw UsageError("--out " + dir + ": " + p.string() + " is a file, not a folder");
    return;
  }
  if (!outputs_written()) return;  // another rank of an MPI job writes the files
  fs::create_directories(dir, ec);
  if (ec) throw UsageError("--out " + dir + ": cannot make the folder: " + ec.message());
}

void check_writable_file_path(const std::string& path, const char* flag) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw UsageError(std::string(flag) + " " + path + ": is a folder; expected a file name");
  fs::path parent = fs::path(path).parent_path();
  if (!parent.empty() && !fs::is_directory(parent, ec))
    throw UsageError(std::string(flag) + " " + path + ": the folder " + parent.string() + " does not exist");
}

std::string workers_text(unsigned threads) {
  std::string t = std::to_string(threads) + (threads == 1 ? " thread" : " threads");
  if (!cluster::many()) return t;
  std::string bytes = std::to_string(cluster::bytes_communicated());
  for (int i = static_cast<int>(bytes.size()) - 3; i > 0; i -= 3) bytes.insert(static_cast<std::size_t>(i), ",");
  return std::to_string(cluster::size()) + " ranks x " + t + ", " + bytes + " bytes communicated by rank 0";
}

std::ostream* progress_stream(cli::Io& io) {
  if (&io.err != &std::cerr) return nullptr;
  // Rank 0 of an MPI job: mpirun relays stderr through a pipe whether or not
  // it ends in a terminal; the harness prints a line every 10 s there.
  if (cluster::many()) return cluster::rank() == 0 ? &std::cerr : nullptr;
  return ::isatty(STDERR_FILENO) ? &std::cerr : nullptr;
}

std::string write_reports(const std::string& dir, const std::string& html, const OJson& summary) {
  const std::string report = (fs::path(dir) / "report.html").string();
  // Both or neither: a report that cannot be written leaves the old
  // summary beside the old report (sims/io/atomic_file.hpp).
  const std::string json = summary.dump(2) + "\n";
  write_files_atomically({{fs::path(dir) / "summary.json", json}, {report, html}});
  return report;
}

int guarded(cli::Io& io, const std::function<int()>& body) {
  try {
    return body();
  } catch (const AtomicWriteError& e) {
    io.err << "vedette: " << e.what() << "\n";
    return 1;
  } catch (const std::logic_error& e) {
    io.err << "vedette: internal error: " << e.what() << "\n";
    return 1;
  }
}

std::string signal_name(int sig) {
  if (sig == SIGINT) return "SIGINT";
  if (sig == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(sig);
}

int exit_status(int sig) { return sig ? 128 + sig : 0; }

}  // namespace vedette::lab
