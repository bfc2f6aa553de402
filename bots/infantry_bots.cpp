#include "bots/infantry_bots.hpp"

#include "engine/engagement/engagement.hpp"

namespace vedette {

std::string_view InfantryBot::name() const {
  switch (style_) {
    case Style::hold_and_shoot: return "hold_and_shoot";
    case Style::advance_and_shoot: return "advance_and_shoot";
    case Style::square_when_charged: return "square_when_charged";
    case Style::pike_and_shoot: return "pike_and_shoot";
  }
  return "hold_and_shoot";
}

bool cavalry_threatens(const Battle& b, std::size_t i) {
  for (std::size_t j = 0; j < b.units().size(); ++j) {
    const Unit& c = b.unit(j);
    if (!c.active() || !b.enemies(i, j) || !c.on_horse() || c.order == Order::routed) continue;
    // charge_prospect(b, j, i, pace).max_range, the one answer asked of it
    // here: the range bound's (engine/engagement/engagement.hpp), the same
    // expression without the rest of the prospect.
    if (b.gap(i, j) <= ChargeRangeBound(b, j, b.pace_limit(j, Pace::gallop)).max_range()) return true;
  }
  return false;
}

// Seed 003 L5, the Swiss/Landsknechte pike charge: the nearest enemy a
// pike unit sees and its charge reaches at a walk, not pikes itself ("other
// than like troops"); none when the ruleset leaves charge.pike_charge off or
// the charge gates refuse (seed 003: no charge on turn 1, good order, ...).
UnitIndex pike_charge_target(const Battle& b, std::size_t i) {
  const Unit& u = b.unit(i);
  if (!b.rules().charge.pike_charge.enabled || u.cavalry() || !u.profile || !u.profile->pikes || u.in_square()) return k_no_unit;
  if (!charge_gate(b, i, k_no_unit, ChargeWhen::declare).allowed) return k_no_unit;
  UnitIndex best = k_no_unit;
  Length best_gap;
  const ChargeRangeBound range(b, i, Pace::walk);  // beyond it, the prospect does not reach
  for (std::size_t j = 0; j < b.units().size(); ++j) {
    const Unit& v = b.unit(j);
    if (!v.active() || !b.enemies(i, j) || !b.sees(i, j)) continue;
    if (v.profile && v.profile->pikes && !v.on_horse()) continue;
    const Length g = b.gap(i, j);
    if (best != k_no_unit && !(g < best_gap)) continue;
    if (!range.may_reach(b, j, g) || !charge_prospect(b, i, j, Pace::walk).reaches) continue;
    best = static_cast<UnitIndex>(j);
    best_gap = g;
  }
  return best;
}

void InfantryBot::orders(const Battle& b, std::uint8_t side, Dice&, std::span<Command> out) const {
  for (std::size_t i = 0; i < b.units().size(); ++i) {
    const Unit& u = b.unit(i);
    if (u.side != side || !u.active() || u.order == Order::routed) continue;
    Command c;
    const UnitIndex seen = b.nearest_enemy(i, true);
    c.target = seen;
    c.face_target = seen != k_no_unit;
    const UnitIndex pike = style_ == Style::pike_and_shoot ? pike_charge_target(b, i) : k_no_unit;
    if (pike != k_no_unit) {
      c.charge = pike;
      c.target = pike;
      c.pace = Pace::walk;
    } else if (u.in_square()) {
      if (!cavalry_threatens(b, i)) c.move = Move::leave_square;
    } else if (style_ == Style::advance_and_shoot && !u.cavalry() && seen != k_no_unit && u.order == Order::good) {
      const Length stop = o_.advance_to ? *o_.advance_to : b.reach(i);
      if (b.gap(i, static_cast<std::size_t>(seen)) > stop) {
        c.move = Move::toward;
        c.pace = Pace::walk;
        c.stop_gap = stop;
      }
    }
    out[i] = c;
  }
}

bool InfantryBot::form_square(const Battle& b, std::size_t unit, std::size_t charger) const {
  const bool wants = !b.unit(unit).cavalry() && (style_ == Style::square_when_charged || o_.form_square);
  if (b.blocks()) return wants && blocks_form_square(b, unit, charger);  // seed 004's policy
  return wants;
}

}  // namespace vedette
