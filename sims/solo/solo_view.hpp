#pragma once
// A session as a person or a page reads it: a unit's line, its memory,
// one event's log line, where a die came from, and the status the page and
// `solo status --json` show. The terminal's printing is sims/cli/solo_cli.cpp;
// the web page (sims/web/web_app.cpp) calls these directly.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sims/solo/session.hpp"
#include "sims/solo/solo_turn.hpp"

namespace vedette::solo {

// "Shock cavalry, hero; 12 figures, 2 lost (16.66%)"
std::string unit_summary(const Session& s, const Ruleset* r, std::size_t unit);
// What the session remembers that counts this turn: "moved at canter last turn; ran from the enemy last turn".
std::string memory_summary(const Session& s, std::size_t unit);
// "in cover: yes, new casualties: 2"
std::string answers_text(const Answers& a);

// Where a die came from: "your roll", "rolled"; verbose (the log) names the
// roll of the session's seed, which reading the file checks.
std::string die_text(const Session& s, const Activation& a, bool verbose);
std::string charge_dice_text(const Session& s, const ChargeRecord& c, bool verbose);

// One line for the log: "#4  turn 1  Lancers: D6 3 at RF 2 (RF2-5) -> ..."
std::string describe(const Session& s, const Event& e);
// The same without the number and turn: "Lancers: casualties +2". The log
// names each roll of the seed ("roll #12 of seed 77") and marks an event
// taken back "[undone]"; a player's line (`plain`) does neither.
enum class Detail : std::uint8_t { plain, log };
std::string what_happened(const Session& s, const Event& e, Detail detail = Detail::plain);

// What the unit is to do this turn, in one line (its activation's
// instruction and, once answered, its charge): "" before it acted.
std::string orders_text(const Session& s, std::size_t unit);

// The log in words, one line an event, oldest first, under a line naming
// the file as `shown` and the seed (`vedette solo log`, the page's log).
std::string log_text(const Session& s, const std::string& shown);

// The session's state, each unit's memory and what comes next in the turn
// (`solo status --json`, the web page's view of a session).
nlohmann::ordered_json status_json(const Session& s, const std::optional<SessionRules>& rules);
// The reactions in the player's movement step (issue 28): the steps
// (`solo moved`, `solo charged`) and, per automated unit, whether it may
// react now and why not.
nlohmann::ordered_json reactions_json(const Ruleset& r, const Session& s);

}  // namespace vedette::solo
