// `vedette`: a thin executable over vedette::sims.
#include <iostream>
#include <ostream>
#include <streambuf>

#include "sims/cli/cli.hpp"
#include "sims/cluster/cluster.hpp"
#include "sims/io/atomic_file.hpp"

namespace {

// Where the other ranks of an MPI job write: nowhere.
struct NullBuf : std::streambuf {
  int overflow(int c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

}  // namespace

int main(int argc, char** argv) {
  // Built with VEDETTE_MPI and started by mpirun: one rank of the job (the
  // lab's harness splits the engagements across ranks). Rank 0 alone prints
  // and writes files; the others run the same command silently, so each
  // error, progress bar and report appears once. A rank that fails on its
  // own ends with a non-zero status, and mpirun fails the job.
  vedette::cluster::Session session(&argc, &argv);
  std::vector<std::string> args(argv + 1, argv + argc);
  NullBuf nothing;
  std::ostream quiet(&nothing);
  const bool speaks = vedette::cluster::rank() == 0;
  if (!speaks) vedette::set_outputs_written(false);
  vedette::cli::Io io{speaks ? std::cout : quiet, speaks ? std::cerr : quiet};
  return vedette::cli::run(args, io);
}
