#include "sims/cli/cli.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string_view>
#include <utility>

#include "engine/core/diagnostics.hpp"
#include "sims/cluster/cluster.hpp"
#include "sims/io/entropy.hpp"

namespace vedette::cli {

const CLI::Validator& unsigned_number() {
  static const CLI::Validator v(
      [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const char* end = text.data() + text.size();
        auto [p, ec] = std::from_chars(text.data(), end, value);
        if (text.empty() || ec != std::errc() || p != end)
          return "expected a whole number from 0 to 18446744073709551615, got '" + text + "'";
        return {};
      },
      "0..18446744073709551615");
  return v;
}

RulesetPtr ruleset_from(const std::string& path) {
  return path.empty() ? default_ruleset() : load_ruleset(path);
}

std::uint64_t fresh_seed() {
  std::uint64_t s = io::entropy_seed();
  // The ranks of an MPI job play one run: rank 0's seed for all.
  vedette::cluster::broadcast(std::span<std::uint64_t>(&s, 1));
  return s;
}

// Text from files is checked to be UTF-8 where it is read (engine/core/doc.cpp);
// anything else that is not (a file name given on the command line) is
// printed with U+FFFD in place of the bad bytes rather than failing.
void print_json(std::ostream& out, const Json& j) {
  out << j.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}
void print_json(std::ostream& out, const nlohmann::json& j) {
  out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

int run(const std::vector<std::string>& args, Io& io) {
  CLI::App app{"Vedette: automated enemy cavalry for tabletop wargames.\n"
               "Rules are read from YAML tables (default: the built-in seed 002 ruleset).",
               "vedette"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "vedette 0.1.0");
  Runner runner;
  // The commands in the order `vedette --help` lists them. A run names one
  // command, and only that one is built: building all 17 (their options,
  // validators and callbacks) was most of a `vedette` start under the
  // sanitizers, and the web page runs a command in-process on every tap
  // (sims/cli/commands/cmd_serve.cpp). Help, the version and a word that
  // is no command build them all.
  using Adder = void (*)(CLI::App&, Runner&);
  static constexpr std::pair<std::string_view, Adder> k_commands[] = {
      {"react", add_react},   {"table", add_table},       {"check", add_check},     {"charge", add_charge},
      {"solo", add_solo},     {"play", add_play},         {"odds", add_odds},       {"asl", add_asl},
      {"blocks", add_blocks}, {"sim", add_sim},           {"compare", add_compare}, {"sweep", add_sweep},
      {"sensitivity", add_sensitivity}, {"calibrate", add_calibrate}, {"bench", add_bench}, {"serve", add_serve},
      {"schema", add_schema}};
  const auto named = args.empty() ? std::end(k_commands)
                                  : std::find_if(std::begin(k_commands), std::end(k_commands),
                                                 [&](const auto& c) { return c.first == args[0]; });
  if (named != std::end(k_commands))
    named->second(app, runner);
  else
    for (const auto& c : k_commands) c.second(app, runner);

  // A first word that is no command: say so (CLI11 would only say that a
  // command is required).
  if (!args.empty() && !args[0].empty() && args[0][0] != '-') {
    std::vector<std::string> names;
    for (const auto& c : k_commands) names.emplace_back(c.first);
    if (std::find(names.begin(), names.end(), args[0]) == names.end()) {
      io.err << "vedette: unknown command '" << args[0] << "'" << did_you_mean(args[0], names) << " (commands:";
      for (const auto& n : names) io.err << " " << n;
      io.err << ")\nRun 'vedette --help' for usage.\n";
      return 2;
    }
    // The same one level down (vedette solo, asl, blocks).
    const CLI::App* cmd = app.get_subcommand(args[0]);
    std::vector<std::string> subs;
    for (const auto* sub : cmd->get_subcommands({})) subs.push_back(sub->get_name());
    if (!subs.empty() && args.size() > 1 && !args[1].empty() && args[1][0] != '-' &&
        std::find(subs.begin(), subs.end(), args[1]) == subs.end()) {
      io.err << "vedette: unknown " << args[0] << " command '" << args[1] << "'" << did_you_mean(args[1], subs) << " (" << args[0]
             << " commands:";
      for (const auto& n : subs) io.err << " " << n;
      io.err << ")\nRun 'vedette " << args[0] << " --help' for usage.\n";
      return 2;
    }
  }

  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    io.out << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp& e) {
    io.out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion& e) {
    io.out << e.what() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    io.err << "vedette: " << e.what() << "\n";
    io.err << "Run 'vedette --help' (or 'vedette COMMAND --help') for usage.\n";
    return 2;
  }
  try {
    return runner ? runner(io) : 2;
  } catch (const LoadError& e) {
    for (const auto& d : e.diagnostics()) io.err << d.str() << "\n";
    return 2;
  } catch (const UsageError& e) {
    io.err << "vedette: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    io.err << "vedette: out of memory\n";
    return k_internal_error;
  } catch (const std::exception& e) {
    // Bad input is reported above (status 2), a file that cannot be written
    // by each command (status 1): anything else is a bug, said plainly
    // rather than ended by std::terminate. The fuzzers treat it as a crash.
    io.err << "vedette: internal error: " << e.what() << " (a bug: please report it with the command that caused it)\n";
    return k_internal_error;
  }
}

}  // namespace vedette::cli
