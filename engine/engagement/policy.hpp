#pragma once
// Policy: what a bot returns and the interface every bot implements. A bot
// reads the battle (const) and returns commands; it never changes the state.
// The engine checks each command against the rules (pace limits, good order
// to charge, the first turn) and carries it out. Bots live in bots/.
#include <cstdint>
#include <span>
#include <string_view>

#include "engine/decision/actions_table.hpp"
#include "engine/engagement/battle.hpp"
#include "engine/core/dice.hpp"
#include "engine/core/facts.hpp"

namespace vedette {

// What the unit does with its move this turn.
enum class Move : std::uint8_t {
  hold,          // stay (turning to face the target if asked: free)
  keep,          // carry on along its facing (seed 002 "continue current actions")
  toward,        // straight toward `target`, stopping short of contact
  away,          // straight away from `target`
  to_cover,      // into the nearest cover within the move, or away from the enemies (combat.movement.away_from)
  home,          // toward its own table edge
  form_square,   // infantry: form square (its whole move)
  leave_square,  // infantry: form line again (its whole move)
  dismount,      // mounted infantry: get off the horses (its whole move, seed 001)
  mount,         // mounted infantry: get on again (its whole move, seed 001)
};
inline constexpr std::string_view k_move_names[] = {"hold", "keep", "toward", "away", "to_cover", "home",
                                                    "form_square", "leave_square", "dismount", "mount"};
inline std::string_view move_name(Move m) { return k_move_names[static_cast<std::size_t>(m)]; }

struct Command {
  Move move = Move::hold;
  Pace pace = Pace::halt;         // on horse: the pace; on foot: walk = its move, halt = none
  UnitIndex target = k_no_unit;   // moved toward / away from / faced
  bool face_target = false;       // end the move facing `target` (free, as the table says)
  Length stop_gap;                // toward: stop once this close (front to front); 0 = just short of contact
  UnitIndex charge = k_no_unit;   // seed 003: a charge declared against this unit
  bool running = false;           // seed 002: counts as running from the enemy next turn
  // The reaction-table bot's working, for the account and the outcome.
  bool reacted = false;
  Facts facts;
  int rf = 0;
  Decision decision;
};

class Bot {
 public:
  virtual ~Bot() = default;
  virtual std::string_view name() const = 0;
  // Step 1: a command for each active unit of `side` (out[i] for unit i;
  // other entries are left alone). Rolls, if any, on `dice` (decisions).
  virtual void orders(const Battle& b, std::uint8_t side, Dice& dice, std::span<Command> out) const = 0;
  // Reactions during the turn; the defaults decline.
  // Infantry `unit` is charged by cavalry `charger`: form square? (seed 004)
  virtual bool form_square(const Battle&, std::size_t /*unit*/, std::size_t /*charger*/) const { return false; }
  // Cavalry `unit` is attacked in melee by infantry: retire and reform? (seed 004)
  virtual bool retire_and_reform(const Battle&, std::size_t /*unit*/, std::size_t /*attacker*/) const { return false; }
  // `unit` has not moved and `mover` has moved (or is charging it): charge it? (seed 003)
  virtual bool opportunity_charge(const Battle&, std::size_t /*unit*/, std::size_t /*mover*/, const Command& /*own*/) const {
    return false;
  }
  // False only if opportunity_charge never answers yes (this bot, these
  // options): the engine then asks no charge gate for its units, whose answer
  // could not change that no (Engagement::opportunity_charges).
  virtual bool makes_opportunity_charges() const { return true; }
  // True if opportunity_charge costs less than the charge gate (sight among
  // them): Engagement::opportunity_charges then asks it first. Both are
  // questions with no effect, so the order changes no answer, only the cost.
  virtual bool opportunity_charge_cheap() const { return false; }
};

}  // namespace vedette
