#include "bots/reaction_bot.hpp"

#include "engine/engagement/engagement.hpp"
#include "engine/procedures/reaction_rules.hpp"
#include "engine/procedures/table_rules.hpp"

namespace vedette {

Reaction ReactionBot::react(const Facts& facts, const UnitState& unit, Dice& dice) const {
  return react(facts, unit, dice.d6());
}

Reaction ReactionBot::react(const Facts& facts, const UnitState& unit, int roll) const {
  Reaction out;
  out.rf = compute_rf(*rules_, facts);
  out.decision = decide(*rules_, out.rf.total, roll, unit);
  return out;
}

namespace {

// The nearest enemy it can see within its charge range and arc, or none.
// An enemy beyond the range bound (ChargeRangeBound, engine/engagement/
// engagement.hpp) is one whose prospect does not reach: passed over without
// the full prospect, as the test below it would pass it over.
UnitIndex charge_target(const Battle& b, std::size_t i, Pace pace, bool without_bonus) {
  UnitIndex best = k_no_unit;
  Length best_gap;
  const ChargeRangeBound range(b, i, pace);
  for (std::size_t j = 0; j < b.units().size(); ++j) {
    if (!b.unit(j).active() || !b.enemies(i, j)) continue;
    // Sight, the gap and the bound are questions with no effect (kept
    // answers at most): the cheaper first, sight once nothing else refuses.
    const Length g = b.gap(i, j);
    if (best != k_no_unit && !(g < best_gap)) continue;
    if (!range.may_reach(b, j, g) || !b.sees(i, j)) continue;
    const ChargeProspect p = charge_prospect(b, i, j, pace);
    if (!p.reaches || (!without_bonus && !p.charge_bonus)) continue;
    best = static_cast<UnitIndex>(j);
    best_gap = g;
  }
  return best;
}

}  // namespace

Command command_for(const Battle& b, std::size_t i, const Decision& d, bool charge_without_bonus) {
  const Ruleset& r = b.rules();
  const Unit& u = b.unit(i);
  const UnitIndex nearest = b.nearest_enemy(i, false);
  if (!u.cavalry() || !d.behaviour) {
    Command c;
    c.target = nearest;
    c.face_target = nearest != k_no_unit;
    return c;
  }
  const Behaviour& beh = *d.behaviour;
  const UnitIndex target = beh.target == Target::nearest_visible_enemy ? b.nearest_enemy(i, true) : nearest;
  Command c;
  c.pace = d.pace;
  c.running = beh.running;
  c.target = target;
  switch (beh.direction) {
    case Direction::keep: c.move = Move::keep; break;
    case Direction::toward: c.move = Move::toward; break;
    case Direction::away: c.move = Move::away; break;
    case Direction::to_cover: c.move = Move::to_cover; break;
    case Direction::hold: c.move = Move::hold; break;
  }
  if (beh.faces_enemy) {
    c.face_target = true;
    c.target = beh.direction == Direction::toward ? target : nearest;
  }
  // Mounted infantry's mount and dismount (seed 001: each its whole move),
  // the rule the solo session asks too (engine/procedures/table_rules.hpp).
  MountedInfantryFacts mf;
  mf.type = u.type;
  mf.on_horse = u.mounted;
  mf.has_weapon = u.profile->weapon.has_value();
  if (may_dismount_to_shoot(r, mf, d.pace)) {
    // The shot it would dismount for, as the shooting step will see it: the
    // nearest enemy it can see, within its reach on foot and in its front
    // arc once the move has turned it (the solo session's shooting question).
    // Looked for only when the rest of the rule holds (the other cavalry
    // need not search for it every turn).
    const UnitIndex seen = b.nearest_enemy(i, true);
    if (seen != k_no_unit) {
      const auto n = static_cast<std::size_t>(seen);
      const Length foot_reach = r.weapons[*u.profile->weapon].reach(0);
      const double facing = c.face_target && c.target != k_no_unit
                                ? bearing_deg(u.pos, b.unit(static_cast<std::size_t>(c.target)).pos)
                                : u.facing;
      mf.shot_on_foot = b.gap(i, n) <= foot_reach &&
                        b.board().in_front_arc(u.pos, facing, b.unit(n).pos, r.combat.shooting.arc_half_degrees);
    }
  }
  switch (mounted_infantry_order(r, mf, d.pace)) {
    case MountedInfantryOrder::mounts:
      c.move = Move::mount;
      c.running = false;
      return c;
    case MountedInfantryOrder::stays_on_foot: return c;
    case MountedInfantryOrder::dismounts: c.move = Move::dismount; return c;
    case MountedInfantryOrder::as_table: break;
  }
  // Seed 003's gates (first turn, good order, no charge the turn after one):
  // engine/engagement's charge_gate, the same the engine applies.
  if (beh.charge_possible && charge_gate(b, i, k_no_unit, ChargeWhen::declare).allowed) {
    const Pace p = b.pace_limit(i, d.pace == Pace::halt ? Pace::walk : d.pace);
    c.charge = charge_target(b, i, p, charge_without_bonus);
    if (c.charge != k_no_unit) c.target = c.charge;
  }
  return c;
}

void ReactionTableBot::orders(const Battle& b, std::uint8_t side, Dice& dice, std::span<Command> out) const {
  const Ruleset& r = b.rules();
  for (std::size_t i = 0; i < b.units().size(); ++i) {
    const Unit& u = b.unit(i);
    if (u.side != side || !u.active() || u.order == Order::routed) continue;
    if (!u.cavalry()) {
      out[i] = command_for(b, i, Decision{});
      continue;
    }
    const Facts f = b.facts(i);
    const int rf = b.rf_total(f);  // rf_total(r, f) by the ruleset's table (battle.hpp)
    const UnitState s{u.type, u.on_horse() ? u.pace : Pace::halt, u.gallop_streak};
    const Decision d = decide(r, rf, dice.d6(), s);
    // Built in its place (no copy of the command and its facts).
    Command& c = out[i];
    c = command_for(b, i, d, o_.charge_without_bonus);
    c.reacted = true;
    c.facts = f;
    c.rf = rf;
    c.decision = d;
  }
}

// The policy is the solo table's too (engine/procedures/reaction_rules.hpp).
bool ReactionTableBot::opportunity_charge(const Battle& b, std::size_t unit, std::size_t, const Command& own) const {
  TablePolicyFacts f;
  f.option_on = o_.opportunity_charges;
  f.on_horse = b.unit(unit).on_horse();
  f.reacted = own.reacted;
  f.charge_possible = own.decision.behaviour && own.decision.behaviour->charge_possible;
  return table_policy_opportunity(f);
}

}  // namespace vedette
