// The lab on MPI (issue 19), what can be checked in one process: without
// mpirun a run is one process and the collectives change nothing; a rank
// that does not write (rank 1.. of an MPI job) writes no file, through the
// atomic writers and through `vedette sim`. The ranks themselves (1, 2, 3
// ranks byte-identical to the plain binary, resume across rank counts,
// signals, a killed rank) are checked by tests/mpi/check_mpi.sh
// (scripts/test --mpi).
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "sims/cli/cli.hpp"
#include "sims/cluster/cluster.hpp"
#include "sims/io/atomic_file.hpp"
#include "sims/io/atomic_stream.hpp"

namespace t_cluster {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

namespace fs = std::filesystem;

namespace {

// Turns writing off for one scope, as main() does on ranks other than 0.
struct NotWriting {
  NotWriting() { vedette::set_outputs_written(false); }
  ~NotWriting() { vedette::set_outputs_written(true); }
};

}  // namespace

TEST_CASE("cluster: without mpirun a run is one process and the collectives change nothing", "[cluster]") {
  CHECK(vedette::cluster::rank() == 0);
  CHECK(vedette::cluster::size() == 1);
  CHECK_FALSE(vedette::cluster::many());
  std::vector<std::int64_t> v = {3, -7, 1 << 20};
  vedette::cluster::allreduce_sum(v);
  vedette::cluster::allreduce_max(v);
  CHECK(v == std::vector<std::int64_t>{3, -7, 1 << 20});
  std::uint64_t seed = 1815;
  vedette::cluster::broadcast(std::span<std::uint64_t>(&seed, 1));
  CHECK(seed == 1815);
  const std::int64_t mine[] = {4, 5};
  CHECK(vedette::cluster::gather_to_root(mine) == std::vector<std::int64_t>{4, 5});
  CHECK(vedette::cluster::bytes_communicated() == 0);
}

TEST_CASE("cluster: a rank that does not write leaves no file, and rank 0 writes as before", "[cluster]") {
  vtest::TempDir tmp;
  const fs::path a = fs::path(tmp.path()) / "a.json";
  const fs::path b = fs::path(tmp.path()) / "b.csv";
  {
    NotWriting off;
    vedette::write_file_atomically(a, "{}\n");
    vedette::lab::AtomicOutput out(b.string());
    out.write("x,y\n");
    out.commit();
  }
  CHECK_FALSE(fs::exists(a));
  CHECK_FALSE(fs::exists(b));
  CHECK(fs::is_empty(tmp.path()));  // not even a temporary file
  vedette::write_file_atomically(a, "{}\n");
  CHECK(vedette::read_whole_file(a) == "{}\n");
}

TEST_CASE("cluster: vedette sim on a rank that does not write prints its summary but writes no report", "[cluster][sim]") {
  vtest::TempDir tmp;
  const std::string out = tmp.path() + "/lab";
  const std::vector<std::string> args = {"sim", std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/open_field_charge.yaml",
                                         "-n", "300", "--seed", "4", "--threads", "1", "--out", out, "--csv",
                                         "--checkpoint", tmp.path() + "/cp.json"};
  std::ostringstream o1, e1, o2, e2;
  int quiet = 0;
  {
    NotWriting off;
    vedette::cli::Io io{o1, e1};
    quiet = vedette::cli::run(args, io);
  }
  CHECK(quiet == 0);
  CHECK_FALSE(fs::exists(out));  // not even the folder
  CHECK_FALSE(fs::exists(tmp.path() + "/cp.json"));
  vedette::cli::Io io{o2, e2};
  REQUIRE(vedette::cli::run(args, io) == 0);
  CHECK(fs::exists(out + "/summary.json"));
  CHECK(fs::exists(out + "/engagements.csv"));
  CHECK(fs::exists(tmp.path() + "/cp.json"));
  // The same run: the printed summaries differ only in the report line.
  CHECK(o1.str().find("300 engagements") != std::string::npos);
  CHECK(o1.str().substr(0, 200) == o2.str().substr(0, 200));
}

}  // namespace t_cluster
