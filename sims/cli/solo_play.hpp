#pragma once
// `vedette solo play`: the interactive loop of a solo game.
#include <cstdint>
#include <optional>
#include <string>

#include "sims/cli/cli.hpp"

namespace vedette::cli {

struct PlayOptions {
  std::string game;
  bool physical = false;
  std::optional<std::uint64_t> seed;
  // The rules' sources on the main lines (seed numbers, "(seed 003)"); by
  // default they are left to `solo log`.
  bool verbose = false;
};

// Reads answers from standard input (a terminal or a pipe) and writes to
// io.out. Returns the exit status.
int run_solo_play(const PlayOptions& o, Io& io);

}  // namespace vedette::cli
