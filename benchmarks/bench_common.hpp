#pragma once
// Shared by the benchmarks: the shipped scenarios, loaded once before any
// benchmark thread starts.
#include <map>
#include <string>
#include <string_view>

#include "bots/registry.hpp"
#include "engine/engagement/scenario.hpp"
#include "sims/lab/bench.hpp"

namespace vbench {

inline std::string scenario_path(std::string_view file) {
  return std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/" + std::string(file);
}

// Every shipped scenario with its players, by file name. Loaded on first use
// (from benchmark registration, before any timing thread runs).
struct Loaded {
  vedette::ScenarioPtr scenario;
  vedette::Players players;
};
inline const Loaded& loaded(std::string_view file) {
  static const std::map<std::string, Loaded, std::less<>> all = [] {
    std::map<std::string, Loaded, std::less<>> m;
    for (std::string_view f : vedette::bench::k_signature_files) {
      Loaded l;
      l.scenario = vedette::load_scenario_file(scenario_path(f));
      l.players = vedette::make_players(*l.scenario);
      m.emplace(std::string(f), std::move(l));
    }
    return m;
  }();
  return all.find(file)->second;
}

}  // namespace vbench
