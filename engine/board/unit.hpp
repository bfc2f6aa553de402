#pragma once
// A unit on the table during an engagement: what it is (profile, side,
// figures at the start) and its state from turn to turn (position, facing,
// formation, pace and gallop streak, order, losses, the flags the next turn's
// risk factor reads). Plain data: the engagement's rules (engine/engagement/
// engagement.cpp and its step files, engagement_*.cpp) change it; bots only
// read it.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/decision/battle_rules.hpp"
#include "engine/core/facts.hpp"
#include "engine/board/geometry.hpp"

namespace vedette {

enum class Formation : std::uint8_t { line, column, square };
inline constexpr std::array<std::string_view, 3> k_formation_names{"line", "column", "square"};
inline std::string_view formation_name(Formation f) { return k_formation_names[static_cast<std::size_t>(f)]; }

// The "order": good, shaken (may not charge: seed 003), retreating
// (has fallen back and must rally), routed (leaves the table).
enum class Order : std::uint8_t { good, shaken, retreating, routed };
inline constexpr std::array<std::string_view, 4> k_order_names{"good", "shaken", "retreating", "routed"};
inline std::string_view order_name(Order o) { return k_order_names[static_cast<std::size_t>(o)]; }

// Table edges, seen from the bottom edge (y = 0).
enum class Edge : std::uint8_t { bottom, top, left, right };
inline constexpr std::array<std::string_view, 4> k_edge_names{"bottom", "top", "left", "right"};
inline std::string_view edge_name(Edge e) { return k_edge_names[static_cast<std::size_t>(e)]; }

struct Unit {
  // What it is.
  std::string name;
  std::uint8_t side = 0;
  const Profile* profile = nullptr;
  const UnitType* type = nullptr;  // cavalry: its seed 002 type; null for infantry
  bool hero = false;
  bool raw = false;
  int figures_start = 0;

  // Where it is.
  Point pos;
  double facing = 0.0;  // degrees, 0 = up the table
  Formation formation = Formation::line;

  // Its state.
  Order order = Order::good;
  Pace pace = Pace::halt;  // the pace it moved at last (seed 002 facts)
  int gallop_streak = 0;
  bool mounted = false;    // cavalry on its horses
  int figures = 0;         // figures still with the unit
  int horses_lost = 0;     // seed 002: hits 1-4 on a mounted figure
  int riders_lost = 0;     // seed 002: hits 5-6 on a mounted figure
  int dismounted_riders = 0;  // riders whose horse fell: out of the mounted unit
  bool off_table = false;  // routed off, or destroyed

  // Flags for the turn and the next one.
  bool charge_declared = false;       // this turn (seed 003 step 1)
  std::int16_t charge_target = -1;    // unit index declared against
  bool charged_this_turn = false;     // moved a charge move this turn
  bool charged_last_turn = false;     // seed 003: normal speed the turn after
  bool moved_this_turn = false;       // seed 003: opportunity charges need "not yet moved" (it moved or charged)
  bool acted_this_turn = false;       // its own move step has come (moved or not)
  bool charge_barred = false;         // seed 003: failed an initiation check: no charge for the rest of the turn
  bool target_was_in_range = false;   // seed 003 L56: the declared target was in charge range at the declaration
  bool pike_routed = false;           // seed 003 L5 (optional pike charge): failed its Loss Table roll, not yet rallied
  bool engaged = false;               // struck or striking this turn: cannot move further
  // Seed 003 L54: struck by a charge this turn (contact made): it cannot
  // move, turn or change frontage for the rest of the turn, even after its
  // failed morale check made it fall back (which clears `engaged`).
  bool struck_this_turn = false;
  bool ran_last_turn = false;         // seed 002 RF +3
  bool retreated_from_melee = false;  // seed 002 RF +3: fell back from melee, and has not rallied since
  bool ran_this_turn = false;
  bool retreated_this_turn = false;

  bool cavalry() const { return profile->kind == UnitKind::cavalry; }
  bool on_horse() const { return cavalry() && mounted; }
  bool active() const { return !off_table && figures > 0; }
  bool in_square() const { return formation == Formation::square; }
  int lost() const { return figures_start - figures; }
};

}  // namespace vedette
