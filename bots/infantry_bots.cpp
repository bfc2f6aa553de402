#include "bots/infantry_bots.hpp"

#include "engine/engagement/engagement.hpp"

namespace vedette {

std::string_view InfantryBot::name() const {
  switch (style_) {
    case Style::hold_and_shoot: return "hold_and_shoot";
    case Style::advance_and_shoot: return "advance_and_shoot";
    case Style::square_when_charged: return "square_when_charged";
  }
  return "hold_and_shoot";
}

bool cavalry_threatens(const Battle& b, std::size_t i) {
  for (std::size_t j = 0; j < b.units().size(); ++j) {
    const Unit& c = b.unit(j);
    if (!c.active() || !b.enemies(i, j) || !c.on_horse() || c.order == Order::routed) continue;
    const ChargeProspect p = charge_prospect(b, j, i, b.pace_limit(j, Pace::gallop));
    if (b.gap(i, j) <= p.max_range) return true;
  }
  return false;
}

void InfantryBot::orders(const Battle& b, std::uint8_t side, Dice&, std::span<Command> out) const {
  for (std::size_t i = 0; i < b.units().size(); ++i) {
    const Unit& u = b.unit(i);
    if (u.side != side || !u.active() || u.order == Order::routed) continue;
    Command c;
    const UnitIndex seen = b.nearest_enemy(i, true);
    c.target = seen;
    c.face_target = seen != k_no_unit;
    if (u.in_square()) {
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
