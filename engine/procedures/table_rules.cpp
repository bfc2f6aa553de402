#include "engine/procedures/table_rules.hpp"

#include <algorithm>

#include "engine/procedures/combat.hpp"

namespace vedette {

LimitedPace limit_pace(const Ruleset& r, const PaceFacts& f, Pace wanted) {
  if (!f.on_horse) return {wanted == Pace::halt ? Pace::halt : Pace::walk, PaceLimit::none};
  LimitedPace out{wanted, PaceLimit::none};
  if (out.pace == Pace::gallop && f.type && !f.type->can_gallop) {  // seed 002
    out.pace = r.switches.no_gallop_pace;
    out.why = PaceLimit::no_gallop;
  }
  if (f.gallop_streak >= r.supplement.gallop_max_turns && out.pace > r.supplement.after_gallop_limit) {
    out.pace = r.supplement.after_gallop_limit;  // seed 002: gallop at most 2 turns in a row
    if (out.why == PaceLimit::none) out.why = PaceLimit::gallop_limit;
  }
  if (f.charged_last_turn && out.pace > r.combat.charge.next_turn_pace) {
    out.pace = r.combat.charge.next_turn_pace;  // seed 003: normal speed after a charge
    if (out.why == PaceLimit::none) out.why = PaceLimit::after_charge;
  }
  return out;
}

int initiative_total(const Ruleset& r, int roll, int charges_declared) {
  return roll + r.charge.declare_initiative_modifier * charges_declared;
}

InitiationCheck initiation_check(const Ruleset& r, bool declared, int d1, int d2) {
  InitiationCheck c;
  c.need = initiation_need(r, declared ? 0 : -r.charge.opportunity_undeclared_modifier);
  c.total = d1 + d2;
  c.passed = c.total >= c.need;
  return c;
}

std::optional<ChargeRefusal> declaration_refusal(const Ruleset& r, int turn, bool good_order, bool charged_last_turn) {
  ChargeGateInput in;
  in.when = ChargeWhen::declare;
  in.turn = turn;
  in.first_turn_allowed = r.combat.charge.first_turn;
  in.good_order = good_order;
  in.charged_last_turn = charged_last_turn;
  const ChargeGate g = charge_gate(in);
  if (g.allowed) return std::nullopt;
  return ChargeRefusal{g.rule, g.why};
}

int first_to_move(const std::array<int, 2>& totals, int first_last_turn) {
  if (totals[0] != totals[1]) return totals[0] > totals[1] ? 0 : 1;
  return first_last_turn < 0 ? 0 : 1 - first_last_turn;  // tie: not last turn's
}

Length normal_move(const Ruleset& r, bool on_horse, Length foot_move) {
  return on_horse ? r.pace_range(Pace::walk).max : foot_move;
}

Length shot_reach(const Ruleset& r, const Weapon& w, bool on_horse, bool shoots_mounted) {
  if (on_horse && !shoots_mounted) return Length();  // seed 002: mounted infantry
  return w.reach(on_horse ? r.supplement.mounted_range_band_shift : 0);
}

bool may_dismount_to_shoot(const Ruleset& r, const MountedInfantryFacts& f, Pace table_pace) {
  return f.on_horse && f.type && !f.type->shoots_mounted && r.combat.dismount.on_halt && table_pace == Pace::halt &&
         f.has_weapon;
}

MountedInfantryOrder mounted_infantry_order(const Ruleset& r, const MountedInfantryFacts& f, Pace table_pace) {
  if (!f.on_horse) return table_pace == Pace::halt ? MountedInfantryOrder::stays_on_foot : MountedInfantryOrder::mounts;
  if (may_dismount_to_shoot(r, f, table_pace) && f.shot_on_foot) return MountedInfantryOrder::dismounts;
  return MountedInfantryOrder::as_table;
}

std::optional<ShotPlan> plan_shot(const Ruleset& r, const Weapon& w, const ShotFacts& f) {
  if (f.on_horse && !f.shoots_mounted) return std::nullopt;
  if (f.distance > shot_reach(r, w, f.on_horse, f.shoots_mounted)) return std::nullopt;
  ShotPlan p;
  p.shift = f.on_horse ? r.supplement.mounted_range_band_shift : 0;
  const auto band = w.band_at(f.distance, p.shift);
  if (!band) return std::nullopt;
  p.band = *band;
  p.need = shooting_need(r, w.bands[*band].hit, f.cover);
  p.dice = dice_for(f.figures, r.combat.shooting.figures_per_die);
  if (f.in_square) p.dice = std::min(p.dice, r.charge.infantry_square.max_battle_dice);  // seed 004
  return p;
}

int melee_modifier(const UnitType* type, bool on_horse, bool charge_bonus) {
  if (!on_horse || !type) return 0;
  return type->melee + (charge_bonus ? type->melee_charging : 0);  // seed 002
}

MeleeWinner melee_result(int attacker_hits, int defender_hits) {
  if (attacker_hits > defender_hits) return MeleeWinner::attacker;
  if (defender_hits > attacker_hits) return MeleeWinner::defender;
  return MeleeWinner::tie;
}

Length follow_through_balance(const Ruleset& r, Length max_range, Length moved) {
  if (!r.combat.melee.follow_through) return Length();
  return Length::cm(std::max(0.0, max_range.as_cm() - moved.as_cm()));
}

MeleeAftermath melee_aftermath(const Ruleset& r, int attacker_hits, int defender_hits, Length attacker_move,
                               Length defender_move, bool charge, Length balance, bool defender_charge,
                               Length defender_balance) {
  MeleeAftermath m;
  m.winner = melee_result(attacker_hits, defender_hits);
  switch (m.winner) {
    case MeleeWinner::attacker:
      m.defender_back = defender_move * r.combat.melee.loser_retreat_moves;
      m.defender_must_rally = true;
      if (charge && r.combat.melee.follow_through) m.follow_through = balance;
      break;
    case MeleeWinner::defender:
      m.attacker_back = attacker_move * r.combat.melee.loser_retreat_moves;
      m.attacker_must_rally = true;
      if (defender_charge && r.combat.melee.follow_through) m.defender_follow_through = defender_balance;
      break;
    case MeleeWinner::tie:
      m.attacker_back = r.combat.melee.tie_fall_back;
      break;
  }
  return m;
}

int square_melee_dice(const Ruleset& r, int figures) {
  return std::min(dice_for(figures, r.combat.melee.figures_per_die), r.charge.infantry_square.max_battle_dice);
}

SquareAftermath square_melee(const Ruleset& r, bool bounce, int attacker_hits, int square_hits, Length attacker_move) {
  SquareAftermath m;
  m.bounced = bounce;
  if (bounce) {
    m.attacker_back = attacker_move * r.charge.infantry_square.bounce_back_moves;
    return m;
  }
  m.attacker_back = r.combat.melee.tie_fall_back;
  m.square_shaken = attacker_hits > square_hits;
  return m;
}

bool routs(const Ruleset& r, int lost, int figures_start) {
  return lost * 100 >= r.combat.morale.rout_losses_pct * figures_start;
}

RallyCheck rally_check(const Ruleset& r, int d1, int d2) {
  RallyCheck c;
  c.need = r.combat.morale.rally_target;
  c.total = d1 + d2;
  c.rallied = c.total >= c.need;
  return c;
}

}  // namespace vedette
