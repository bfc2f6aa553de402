#pragma once
// Seed 001's skirmish scenarios (engine/modules/skirmish/skirmish.hpp) in the commands:
// `vedette play` tells one game action by action (the lab's adapter is
// sims/lab/skirmish_model.hpp).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "sims/cli/cli.hpp"

namespace vedette::cli {
// `vedette play` on a skirmish scenario.
int play_skirmish(const std::string& path, const std::string& ruleset, std::uint64_t seed, std::uint64_t index, bool json, Io& io);
}  // namespace vedette::cli
