#pragma once
// What the `vedette solo` commands share: opening a session, the ruleset
// check, and how an activation and a charge are printed (a unit's line, an
// event's and the status JSON are sims/solo/solo_view.hpp's, which the web
// page shares).
#include <optional>
#include <ostream>
#include <string>

#include "sims/cli/cli.hpp"
#include "sims/solo/session.hpp"
#include "sims/solo/solo_command.hpp"
#include "sims/solo/solo_turn.hpp"
#include "sims/solo/solo_view.hpp"

namespace vedette::cli::solo_cli {

using namespace vedette::solo;

// The session file for GAME (adding .vedette.yaml when it has no
// extension); UsageError if there is none, LoadError if it is corrupt.
Session open_session(const std::string& game);

// The session's ruleset for a command that changes the session
// (solo::rules_for_change), saying on stderr when it records a changed one.
SessionRules rules_for_change(Session& s, bool accept, Io& io);
// For a command that only reads: warns on stderr instead of refusing.
std::optional<SessionRules> rules_for_reading(const Session& s, Io& io);

// The RF lines, the die, the table's words, any pace limit, the instruction.
void print_rf(std::ostream& out, const Activation& a);
void print_decision(std::ostream& out, const Session& s, const Activation& a, const std::string& unit);

// The charge before the dice: range, minimum distance, whether it reaches,
// what the defender needs and its exact chance to stand.
void print_charge_preview(std::ostream& out, const Ruleset& r, const ChargeInputs& in, const ChargePreview& p);
// The dice and the outcome.
void print_charge_result(std::ostream& out, const Session& s, const ChargeRecord& c);


// Saves, turning a failure to write into a message (exit 1) or a changed
// file into a UsageError.
void save_or_throw(Session& s);

// Thrown when the file could not be written (disk full, permissions):
// reported as "vedette: ..." with exit status 1.
struct WriteFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs a solo command, turning session problems into exit 2 and a failed
// write into exit 1 (the file is then unchanged).
Runner guarded(std::function<int(Io&)> f);

}  // namespace vedette::cli::solo_cli

namespace vedette::cli {
// `solo moved` and `solo charged` (sims/cli/commands/cmd_solo_react.cpp).
void add_solo_react(CLI::App* solo, Runner& run);
}  // namespace vedette::cli
