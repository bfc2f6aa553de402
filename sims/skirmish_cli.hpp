#pragma once
// Seed 001's skirmish scenarios (engine/skirmish.hpp) in the commands:
// `vedette play` tells one game action by action; the balance lab (`sim`,
// `compare`, `sweep`) plays them through this LabScenario.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "sims/cli.hpp"
#include "sims/lab_model.hpp"

namespace vedette::lab {
// A skirmish scenario file for the lab. Throws LoadError.
std::unique_ptr<LabScenario> open_skirmish_scenario(const std::string& path);
}  // namespace vedette::lab

namespace vedette::cli {
// `vedette play` on a skirmish scenario.
int play_skirmish(const std::string& path, const std::string& ruleset, std::uint64_t seed, std::uint64_t index, bool json, Io& io);
}  // namespace vedette::cli
