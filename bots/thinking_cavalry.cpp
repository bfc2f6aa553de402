#include "bots/thinking_cavalry.hpp"

#include "engine/engagement/engagement.hpp"

namespace vedette {

int ThinkingCavalryBot::charge_score(const Battle& b, std::size_t i, std::size_t t, Pace pace) {
  const Unit& target = b.unit(t);
  if (!target.active() || !b.enemies(i, t) || !b.sees(i, t) || target.in_square()) return 0;
  const Aspect a = b.aspect_of(t, i);
  if (target.profile->pikes && a == Aspect::front) return 0;  // seed 003: pikes facing stand
  // Beyond the range bound the prospect does not reach (ChargeRangeBound,
  // engine/engagement/engagement.hpp): no score, without the full prospect.
  if (!ChargeRangeBound(b, i, pace).may_reach(b, t, b.gap(i, t))) return 0;
  const ChargeProspect p = charge_prospect(b, i, t, pace);
  if (!p.reaches || !p.charge_bonus) return 0;
  int score = 10;
  if (a == Aspect::flank) score += 2;
  if (a == Aspect::rear) score += 3;
  if (target.order != Order::good) score += 2;
  if (target.on_horse()) score -= 1;
  return score;
}

void ThinkingCavalryBot::orders(const Battle& b, std::uint8_t side, Dice&, std::span<Command> out) const {
  const Ruleset& r = b.rules();
  for (std::size_t i = 0; i < b.units().size(); ++i) {
    const Unit& u = b.unit(i);
    if (u.side != side || !u.active() || u.order == Order::routed) continue;
    Command c;
    const UnitIndex seen = b.nearest_enemy(i, true);
    c.target = seen;
    c.face_target = seen != k_no_unit;
    if (!u.cavalry()) {
      out[i] = c;
      continue;
    }
    if (u.order != Order::good || u.lost() * 100 >= o_.withdraw_at_losses_pct * u.figures_start) {
      c.move = u.mounted ? Move::home : Move::mount;
      c.pace = Pace::canter;
      c.face_target = false;
      out[i] = c;
      continue;
    }
    if (!u.mounted) {
      c.move = Move::mount;
      out[i] = c;
      continue;
    }
    const Pace fast = b.pace_limit(i, Pace::gallop);
    if (b.turn() > 1 || r.combat.charge.first_turn) {
      int best = 0;
      UnitIndex pick = k_no_unit;
      for (std::size_t j = 0; j < b.units().size(); ++j) {
        const int s = charge_score(b, i, j, fast);
        if (s > best || (s == best && s > 0 && pick != k_no_unit && b.gap(i, j) < b.gap(i, static_cast<std::size_t>(pick)))) {
          best = s;
          pick = static_cast<UnitIndex>(j);
        }
      }
      if (pick != k_no_unit) {
        c.charge = pick;
        c.target = pick;
        c.pace = fast;
        c.move = Move::toward;
        out[i] = c;
        continue;
      }
    }
    // A target to close on: the nearest visible enemy not in square.
    UnitIndex goal = k_no_unit;
    for (std::size_t j = 0; j < b.units().size(); ++j) {
      if (!b.unit(j).active() || !b.enemies(i, j) || !b.sees(i, j) || b.unit(j).in_square()) continue;
      if (goal == k_no_unit || b.gap(i, j) < b.gap(i, static_cast<std::size_t>(goal))) goal = static_cast<UnitIndex>(j);
    }
    if (goal == k_no_unit) {
      out[i] = c;  // hold, facing whatever it sees
      continue;
    }
    const auto g = static_cast<std::size_t>(goal);
    c.target = goal;
    c.face_target = true;
    const Length gap = b.gap(i, g);
    if (b.can_shoot(i) && gap <= b.reach(i)) {
      out[i] = c;  // halt and shoot
      continue;
    }
    const ChargeProspect p = charge_prospect(b, i, g, fast);
    const Length staging = std::max(b.reach(g), p.min_distance) + Length::cm(2);
    if (gap > staging + Length::cm(1)) {
      c.move = Move::toward;
      c.pace = b.pace_limit(i, Pace::canter);
      c.stop_gap = staging;
    }
    out[i] = c;
  }
}

bool ThinkingCavalryBot::opportunity_charge(const Battle& b, std::size_t unit, std::size_t mover, const Command&) const {
  return o_.opportunity_charges && b.unit(unit).on_horse() &&
         charge_score(b, unit, mover, b.pace_limit(unit, Pace::gallop)) > 0;
}

}  // namespace vedette
