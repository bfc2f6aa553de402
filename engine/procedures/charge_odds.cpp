#include "engine/procedures/charge_odds.hpp"

#include <vector>

#include "engine/procedures/table_rules.hpp"

namespace vedette {

namespace {

void add_end(ChargeOdds& o, const ChargeResult& res, Fraction p) {
  switch (res.end) {
    case ChargeEnd::running: break;
    case ChargeEnd::no_charge: o.no_charge = o.no_charge + p; break;
    case ChargeEnd::falls_short: o.falls_short = o.falls_short + p; break;
    case ChargeEnd::halted_at_obstacle: o.halted_at_obstacle = o.halted_at_obstacle + p; break;
    case ChargeEnd::blocked: o.blocked = o.blocked + p; break;
    case ChargeEnd::pike_destroyed:
    case ChargeEnd::pike_broke: o.pike_broke = o.pike_broke + p; break;
    case ChargeEnd::fled: o.defender_fled = o.defender_fled + p; break;
    case ChargeEnd::morale_failed:
      if (res.charger_fails) o.charger_fails = o.charger_fails + p;
      else o.defender_fails = o.defender_fails + p;
      break;
    case ChargeEnd::melee:
      if (res.square_formed) o.square_melee = o.square_melee + p;
      else if (!res.defender_checks) o.contact_no_check = o.contact_no_check + p;
      else o.defender_stands = o.defender_stands + p;
      break;
  }
}

// Walks `p` with the answers; at each throw, every face of its dice, the
// throws that leave the same future taken together.
void walk(const ChargeProcedure& from, const ChargeAnswers& a, Fraction prob, ChargeOdds& o) {
  ChargeProcedure p = from;
  for (;;) {
    const ChargeProcedure::Need n = p.next();
    if (n.kind == ChargeProcedure::Need::Kind::done) {
      add_end(o, p.result(), prob);
      return;
    }
    if (n.kind == ChargeProcedure::Need::Kind::ask) {
      const std::array<ChargeThrow, 7> none{};
      drive_charge(p, a, none);  // answers until it asks for dice or is done
      continue;
    }
    int throws = 1;
    for (int k = 0; k < n.dice; ++k) throws *= 6;
    std::vector<std::pair<ChargeProcedure, int>> futures;  // a branch and its count of throws
    std::array<int, 4> f{};
    for (int t = 0; t < throws; ++t) {
      int v = t;
      for (int k = 0; k < n.dice; ++k) {
        f[static_cast<std::size_t>(k)] = v % 6 + 1;
        v /= 6;
      }
      ChargeProcedure q = p;
      q.roll(n.roll, f.data(), n.dice);
      bool merged = false;
      for (auto& [g, count] : futures)
        if (g.same_future(q)) {
          ++count;
          merged = true;
          break;
        }
      if (!merged) futures.emplace_back(q, 1);
    }
    for (const auto& [g, count] : futures) walk(g, a, prob * Fraction(count, throws), o);
    return;
  }
}

}  // namespace

ChargeOdds charge_odds(const Ruleset& r, const ChargeFacts& f, const ChargeAnswers& a) {
  ChargeOdds o;
  o.initiation_need = initiation_check(r, f.declared, 0, 0).need;
  int pass = 0;  // of the 36 throws of 2D6
  for (int d1 = 1; d1 <= 6; ++d1)
    for (int d2 = 1; d2 <= 6; ++d2)
      if (initiation_check(r, f.declared, d1, d2).passed) ++pass;
  o.initiation_passes = Fraction(pass, 36);
  walk(ChargeProcedure(r, f), a, Fraction(1), o);
  return o;
}

ChargeFacts table_charge_facts(const TableCharge& t) {
  ChargeFacts f;
  f.declared = t.declared;
  f.charger_on_horse = true;
  return f;
}

ChargeAnswers table_charge_answers(const Ruleset& r, const TableCharge& t) {
  ChargeAnswers a;
  ChargeTargetFacts& f = a.reach.target;
  const bool horse = r.charge.kind(t.defender.defender) == DefenderKind::horse;
  f.target_cavalry = horse;
  f.target_on_horse = horse;
  f.square_allowed = can_form_square(r.charge, t.defender.defender);
  f.defender = t.defender;
  f.defender.both_charging = false;  // the procedure says so when it counter-charges
  f.charger = t.charger;
  a.reach.reaches = t.geometry.reaches;
  a.reach.charge_bonus = t.geometry.charge_bonus;
  a.reach.morale_check = t.geometry.morale_check;
  a.reach.obstacle = t.obstacle;
  // Both charging: the target is charging already (its initiation check is
  // its own), and its charge calls for a check as this one does.
  a.counter.kind = t.defender.both_charging ? CounterCharge::charging : CounterCharge::none;
  a.counter.morale_check = t.geometry.morale_check;
  a.contact = true;
  a.fear = t.fear;
  a.refuge = t.refuge;
  a.square = t.square;
  return a;
}

ChargeOdds charge_odds(const Ruleset& r, const TableCharge& t) { return charge_odds(r, table_charge_facts(t), table_charge_answers(r, t)); }

}  // namespace vedette
