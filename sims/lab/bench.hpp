#pragma once
// Bench: what `vedette bench` measures, and the bench signature.
//
// The signature (docs/style.md, after Stockfish's bench) is one 64-bit FNV-1a
// checksum of the outcomes of a fixed list of (scenario, seed, index): every
// shipped scenario, engagements 0..k_signature_engagements-1 under
// k_signature_seed. An optimisation must leave it unchanged; a commit that
// changes what an engagement does says so and records the new value in
// tests/test_bench_signature.cpp.
//
// Throughput is measured on the same engine the Monte Carlo runs: one
// Engagement per thread, reset for each (seed, index), indices handed out in
// fixed chunks. The dice floor is the same Rng and D6 mapping (engine/core/dice.hpp)
// rolling in a tight loop, measured in the same run.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/core/record.hpp"
#include "engine/engagement/scenario.hpp"
#include "engine/modules/skirmish/skirmish.hpp"

namespace vedette::bench {

// The shipped scenarios the signature plays, in this order (sims/scenarios/).
// A new shipped scenario is added here, which changes the signature.
inline constexpr std::array<std::string_view, 10> k_signature_files{
    "flank_attack.yaml",      "hex_horse_artillery.yaml", "hex_line_no_squares.yaml", "hex_line_squares.yaml",
    "mounted_infantry_raid.yaml", "open_field_charge.yaml",   "open_field_thinking.yaml", "pike_charge.yaml",
    "square_test.yaml",       "wood_edge.yaml"};
// Seed 001's skirmish scenarios (sims/scenarios/skirmish/), played by their
// own game loop (engine/modules/skirmish/skirmish.hpp) and hashed after the unit scenarios.
inline constexpr std::array<std::string_view, 1> k_signature_skirmish_files{"skirmish/village_patrol.yaml"};
inline constexpr std::size_t k_signature_scenarios = k_signature_files.size() + k_signature_skirmish_files.size();
inline constexpr std::uint64_t k_signature_seed = 1815;
inline constexpr std::uint64_t k_signature_engagements = 200;  // indices 0..199 of each scenario

// The default scenario of `vedette bench` (and of the targets).
inline constexpr std::string_view k_default_scenario = "open_field_charge.yaml";

// The folder holding the shipped scenarios: the source tree's sims/scenarios.
std::string shipped_scenarios_dir();

// Continues FNV-1a hash `h` over one engagement's outcome: the winner (255
// for a draw), turns, the dice rolled, every per-side counter of the Outcome
// and the Actions Table choices, each as 8 little-endian bytes. The reason's
// wording is left out: rewording it is not a change of behaviour.
std::uint64_t hash_outcome(const Outcome& o, std::uint64_t dice_rolled, std::uint64_t h);
// The same for a skirmish game: the winner, turns and every per-side counter.
std::uint64_t hash_skirmish_outcome(const SkOutcome& o, std::uint64_t h);

struct Signature {
  std::uint64_t hash = 0;
  std::uint64_t engagements = 0;  // skirmish games included
  std::uint64_t dice = 0;  // rolled by the unit scenarios' engagements
};
// Plays the fixed list from `dir`. Throws LoadError for a bad scenario file.
Signature signature(const std::string& dir);

// Wall time says what a user waits; CPU time (each thread's own clock) says
// what the work costs, whatever else the machine is running.
struct Throughput {
  unsigned threads = 1;
  std::uint64_t engagements = 0;
  std::uint64_t dice = 0;
  std::uint64_t turns = 0;
  double seconds = 0;      // wall
  double cpu_seconds = 0;  // summed over the threads
  double per_second() const { return seconds > 0 ? static_cast<double>(engagements) / seconds : 0; }
  double cpu_ns_per_engagement() const { return engagements ? cpu_seconds * 1e9 / static_cast<double>(engagements) : 0; }
  double dice_per_engagement() const { return engagements ? static_cast<double>(dice) / static_cast<double>(engagements) : 0; }
};
// Plays engagements of `s` (its own bots) under `seed` on `threads` threads
// for about `seconds` of wall time (at least one chunk each).
Throughput measure_engagements(const Scenario& s, unsigned threads, double seconds, std::uint64_t seed);

// Plays engagements 0..n-1 of `s` under `seed` on this thread, one
// Engagement reset for each, untimed; returns the dice rolled. For a
// profiler: `valgrind --tool=callgrind --toggle-collect='vedette::bench::play_engagements*'
// vedette bench --profile N` counts exactly these instructions.
std::uint64_t play_engagements(const Scenario& s, std::uint64_t n, std::uint64_t seed);

// The same two for a skirmish scenario (seed 001's game loop, one
// SkirmishGame per thread reset for each index); "engagements" are games.
Throughput measure_skirmish(const SkirmishScenario& s, unsigned threads, double seconds, std::uint64_t seed);
// `valgrind --tool=callgrind --toggle-collect='vedette::bench::play_skirmish*'`.
std::uint64_t play_skirmish(const SkirmishScenario& s, std::uint64_t n, std::uint64_t seed);

// Nanoseconds per D6 from the engine's Rng through Dice::d6 (the dice floor),
// rolled in a tight loop for about `seconds`: wall and CPU.
struct DiceFloor {
  double wall_ns = 0;
  double cpu_ns = 0;
};
DiceFloor measure_d6_ns(double seconds);

// This thread's CPU time in seconds.
double thread_cpu_seconds();
// The 1-minute load average (/proc/loadavg), or a negative number.
double load_average();

}  // namespace vedette::bench
