// Peak memory against N: runs the built `vedette sim` on the default
// scenario for N = 1e5, 1e6, 1e7 engagements (all cores) and reads the
// child's peak resident set from wait4(). The bound: under 64 MiB,
// and flat in N. Each is one iteration (1e7 takes tens of seconds); filter
// with --benchmark_filter=PeakMemory, or leave it out with
// --benchmark_filter=-PeakMemory.
#include <benchmark/benchmark.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "bench_common.hpp"

namespace {

// Runs `vedette args...` with stdout and stderr to /dev/null; returns its
// peak RSS in KiB, or -1 if it did not exit with status 0.
long run_peak_kib(std::vector<std::string> args) {
  args.insert(args.begin(), VEDETTE_EXE);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  rusage ru{};
  if (::wait4(pid, &status, 0, &ru) != pid) return -1;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return ru.ru_maxrss;  // KiB on Linux
}

void BM_SimPeakMemory(benchmark::State& state) {
  const std::string n = std::to_string(state.range(0));
  long kib = 0;
  for (auto _ : state) {
    kib = run_peak_kib({"sim", vbench::scenario_path(vedette::bench::k_default_scenario), "-n", n, "--seed", "1815"});
    if (kib < 0) state.SkipWithError("vedette sim failed");
  }
  state.counters["peak_MiB"] = static_cast<double>(kib) / 1024.0;
  state.counters["engagements_per_second"] =
      benchmark::Counter(static_cast<double>(state.range(0)) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SimPeakMemory)->Arg(100000)->Arg(1000000)->Arg(10000000)->Iterations(1)->UseRealTime()->Unit(benchmark::kSecond);

}  // namespace
