#pragma once
// The walk issue 32's perf-invariant tests share (tests/test_perf_invariants*.cpp):
// every signature scenario (sims/lab/bench.hpp's k_signature_files), its
// engagements 0..n-1 of one seed played with the test's own recorder
// attached, which compares a kept answer with a fresh computation at each
// event.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "bots/registry.hpp"
#include "engine/engagement/engagement.hpp"
#include "sims/lab/bench.hpp"

namespace vtest {

// For each signature scenario: a `Check check(game)` attached to one
// Engagement, engagements 0..n-1 of `seed` played, then `done(scenario,
// check)` (the scenario's file named in a failure's message).
template <class Check, class Done>
void play_signature_scenarios(std::uint64_t seed, std::uint64_t n, Done&& done) {
  using namespace vedette;
  const std::string dir = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/";
  for (std::string_view file : bench::k_signature_files) {
    INFO(file);
    const ScenarioPtr s = load_scenario_file(dir + std::string(file));
    const Players players = make_players(*s);
    Engagement game(*s, players.bots(), seed, 0);
    Check check(game);
    game.attach(&check);
    for (std::uint64_t i = 0; i < n; ++i) {
      game.reset(seed, i);
      game.run();
    }
    done(static_cast<const Scenario&>(*s), static_cast<const Check&>(check));
  }
}

}  // namespace vtest
