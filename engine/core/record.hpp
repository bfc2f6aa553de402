#pragma once
// Record: what an engagement yields. Events (for `vedette play`'s account and
// its --json) are built only when a Recorder is attached, so the Monte Carlo
// harness pays nothing for them. The Outcome is always kept: a fixed set of
// counters per side, summed later by the statistics.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace vedette {

// A number, a length in cm (double), a flag, a text, dice faces, or named
// terms (an RF breakdown: modifier id and value).
using DiceFaces = std::vector<long long>;
using Terms = std::vector<std::pair<std::string, long long>>;
using EventValue = std::variant<long long, double, bool, std::string, DiceFaces, Terms>;

struct Event {
  int turn = 0;
  std::string phase;  // orders, initiative, movement, shooting, melee, morale, end
  std::string kind;   // sight, rf, decision, declare, initiative, move, charge, ...
  std::string unit;   // the unit it is about ("" for the whole battle)
  std::string text;   // one line of the account
  std::vector<std::pair<std::string, EventValue>> data;  // the same, for tools

  Event& with(std::string key, EventValue v) {
    data.emplace_back(std::move(key), std::move(v));
    return *this;
  }
};

class Recorder {
 public:
  virtual ~Recorder() = default;
  virtual void record(Event e) = 0;
};

// Keeps every event in order.
class EventLog final : public Recorder {
 public:
  void record(Event e) override { events.push_back(std::move(e)); }
  std::vector<Event> events;
};

struct SideOutcome {
  int units = 0;
  int figures_start = 0;
  int figures_lost = 0;      // killed, or out of the unit (a rider whose horse fell)
  int horses_lost = 0;       // seed 002: hits 1-4 on mounted figures
  int riders_lost = 0;       // seed 002: hits 5-6 on mounted figures
  int dismounted_riders = 0;
  int routs = 0;             // units that routed
  int destroyed = 0;         // units with no figures left
  int charges_declared = 0;  // seed 003 step 1
  int charges_launched = 0;  // passed the initiation check and moved
  int charges_short = 0;     // launched but out of reach (moved 1.5x, shaken)
  int charges_stood = 0;     // the defender stood (or no check was due) and melee followed
  int charges_broke = 0;     // the defender failed its morale check and fell back
  int charges_repulsed = 0;  // bounced off a square, or lost or drew the melee
  int squares_formed = 0;
  int retire_and_reform = 0;
  int shooting_hits = 0;
  int melee_hits = 0;
};

struct Outcome {
  std::optional<std::uint8_t> winner;  // none = draw
  std::string reason;
  int turns = 0;
  std::array<SideOutcome, 2> sides{};
  // Behaviours the Actions Table chose, per RF band: count[band * behaviours + behaviour].
  std::size_t bands = 0;
  std::size_t behaviours = 0;
  std::vector<std::uint32_t> chosen;
  std::uint32_t chosen_at(std::size_t band, std::size_t behaviour) const { return chosen[band * behaviours + behaviour]; }
};

}  // namespace vedette
