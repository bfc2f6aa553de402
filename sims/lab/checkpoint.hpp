#pragma once
// Checkpoints of a run: the merged sums of engagements [0, next) and what the
// run was (command, a fingerprint of its scenario and rulesets, seed, N,
// precision target), as JSON written atomically. A resumed run adds the rest
// to the same exact sums, so it ends on the same numbers, byte for byte, as a
// run that was never stopped.
#include <cstdint>
#include <optional>
#include <string>

#include "sims/lab/harness.hpp"

namespace vedette::lab {

struct RunIdentity {
  std::string command;      // "sim" or "compare"
  std::string fingerprint;  // run_fingerprint of every model's inputs
  std::uint64_t seed = 0;
  std::uint64_t n = 0;
  std::optional<double> precision;
};

void write_checkpoint(const std::string& path, const RunIdentity& id, const Sums& sums, std::uint64_t next);

struct Checkpoint {
  RunIdentity id;
  std::uint64_t next = 0;
};

// Reads a checkpoint of `command` ("sim", "compare") into `sums` (already
// shaped by the models). A file that is not such a checkpoint, or does not
// fit, is a LoadError naming the file (and line:column for JSON syntax
// errors).
Checkpoint read_checkpoint(const std::string& path, const std::string& command, Sums& sums);

}  // namespace vedette::lab
