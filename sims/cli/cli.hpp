#pragma once
// The `vedette` command line: one CLI11 app, one file per command.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/decision/ruleset.hpp"
#include "engine/core/words.hpp"

namespace vedette::cli {

// Where a command writes. Tests run commands in-process with string streams.
struct Io {
  std::ostream& out;
  std::ostream& err;
};

// A usage error found after parsing (conflicting flags, impossible values):
// printed as "vedette: message", exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Each command file registers its subcommand. The returned callback runs
// after a successful parse and returns the exit status.
using Runner = std::function<int(Io&)>;
void add_react(CLI::App& app, Runner& run);
void add_table(CLI::App& app, Runner& run);
void add_check(CLI::App& app, Runner& run);
void add_charge(CLI::App& app, Runner& run);  // sims/cli/commands/cmd_charge.cpp
void add_solo(CLI::App& app, Runner& run);    // sims/cli/commands/cmd_solo.cpp
void add_play(CLI::App& app, Runner& run);    // sims/cli/commands/cmd_play.cpp
void add_odds(CLI::App& app, Runner& run);    // sims/cli/commands/cmd_odds.cpp
void add_asl(CLI::App& app, Runner& run);     // sims/cli/commands/cmd_asl.cpp
void add_blocks(CLI::App& app, Runner& run);  // sims/cli/commands/cmd_blocks.cpp
void add_sim(CLI::App& app, Runner& run);     // sims/cli/commands/cmd_sim.cpp
void add_compare(CLI::App& app, Runner& run); // sims/cli/commands/cmd_compare.cpp
void add_sweep(CLI::App& app, Runner& run);   // sims/cli/commands/cmd_sweep.cpp
void add_bench(CLI::App& app, Runner& run);   // sims/cli/commands/cmd_bench.cpp
void add_serve(CLI::App& app, Runner& run);   // sims/cli/commands/cmd_serve.cpp
void add_sensitivity(CLI::App& app, Runner& run);  // sims/cli/commands/cmd_sensitivity.cpp
void add_calibrate(CLI::App& app, Runner& run);    // sims/cli/commands/cmd_calibrate.cpp
void add_schema(CLI::App& app, Runner& run);  // sims/cli/commands/cmd_schema.cpp

// The exit status of an internal error: an exception that is neither bad
// input (2) nor a file that could not be written (1), i.e. a bug.
inline constexpr int k_internal_error = 70;

// Runs `vedette` with these arguments (argv[0] excluded).
int run(const std::vector<std::string>& args, Io& io);

// For options read into std::uint64_t (seeds, indices): CLI11 would take
// "-5" as 18446744073709551611 and 10^30 as 18446744073709551615; this
// refuses anything but plain digits within 0..18446744073709551615.
const CLI::Validator& unsigned_number();

// Shared helpers.
RulesetPtr ruleset_from(const std::string& path);  // "" = the built-in default
// An id as flags and JSON spell it (by_expected_losses -> by-expected-losses):
// vedette::dashed, engine/core/words.hpp.
// A fresh seed from the operating system's entropy, for rolls the user did
// not seed; commands print it so any roll can be replayed.
std::uint64_t fresh_seed();
// JSON output keeps keys in the order written (ordered_json).
using Json = nlohmann::ordered_json;
void print_json(std::ostream& out, const Json& j);
void print_json(std::ostream& out, const nlohmann::json& j);

}  // namespace vedette::cli
