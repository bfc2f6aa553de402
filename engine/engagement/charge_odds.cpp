#include "engine/engagement/charge_odds.hpp"

#include "engine/engagement/table_rules.hpp"

namespace vedette {

ChargeOdds charge_odds(const Ruleset& r, bool declared, const ChargeGeometry& g, const MoraleTarget& t, bool obstacle,
                       const MoraleTarget* charger, const FootAnswers& foot) {
  ChargeOdds o;
  o.initiation_need = initiation_check(r, declared, 0, 0).need;
  int pass = 0;  // of the 36 throws of 2D6
  for (int d1 = 1; d1 <= 6; ++d1)
    for (int d2 = 1; d2 <= 6; ++d2)
      if (initiation_check(r, declared, d1, d2).passed) ++pass;
  o.initiation_passes = Fraction(pass, 36);
  o.no_charge = Fraction(36 - pass, 36);
  if (!g.reaches) {
    o.falls_short = o.initiation_passes;
    return o;
  }
  // Past the obstacle, if there is one on the way.
  Fraction on = o.initiation_passes;
  if (obstacle) {
    o.halted_at_obstacle = o.initiation_passes * o.no_charge;
    on = o.initiation_passes * o.initiation_passes;
  }
  // The optional rules, in the engine's order after contact: seed 001's gut
  // check (a flight into cover halts the charge), then seed 004's square
  // (no morale check).
  o.defender_fled = on * foot.flees;
  on = on * (Fraction(1) - foot.flees);
  if (foot.square) {
    o.square_melee = on;
  } else if (!g.morale_check) {
    o.contact_no_check = on;
  } else {
    const Fraction stand = p_stand(r.charge, t);  // an automatic stand is all 36 ways
    const Fraction holds = charger ? p_stand(r.charge, *charger) : Fraction(1);
    o.defender_stands = on * stand * holds;
    o.defender_fails = on * (Fraction(1) - stand) * holds;
    o.charger_fails = on * (Fraction(1) - holds);
  }
  return o;
}

}  // namespace vedette
