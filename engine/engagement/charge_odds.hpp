#pragma once
// Charge odds: the exact chance of each way a seed 003 charge can end, known
// before any die is rolled (the table-side page shows it with the charge
// form). Built from the engine's own rules, not a copy of them: the charge
// initiation check is initiation_check() (engine/engagement/table_rules.hpp)
// asked for every 2D6 throw, the defender's morale check is stand_ways()
// (engine/decision/charge.hpp), and what happens in between is the charge's
// geometry (charge_geometry()). The order is seed 003's: the initiation check
// first (L48), then whether the charge reaches (L40), then the defender's
// morale check (L7) unless contact is made inside the minimum distance.
#include "engine/core/fraction.hpp"
#include "engine/decision/charge.hpp"
#include "engine/decision/ruleset.hpp"

namespace vedette {

// Every way the charge can end, exactly; the seven outcomes sum to 1.
struct ChargeOdds {
  int initiation_need = 0;       // 2D6 needed to pass the initiation check
  Fraction initiation_passes;    // P(the initiation check passes)
  Fraction no_charge;            // the check fails: no charge this turn
  Fraction falls_short;          // passes, but the target is out of reach (or out of the arc)
  Fraction contact_no_check;     // passes and reaches inside the minimum distance: melee, no morale check
  Fraction defender_stands;      // passes, reaches, the defender stands (on the dice, or automatically): melee
  Fraction defender_fails;       // passes, reaches, the defender fails its morale check and retreats
  Fraction halted_at_obstacle;   // passes, but fails the second check at an obstacle on the way (seed 003 L68)
  Fraction charger_fails;        // both charging: contact, but the charger fails its own check and falls back
  // The optional rules (off by default), for foot answering the charge:
  Fraction defender_fled;        // seed 001: it fails its gut check and flees into cover; the charge halts
  Fraction square_melee;         // seed 004: it formed square: melee against the square, no morale check
  // The charge goes in: the check passes and contact is made (then melee,
  // or the defender breaks first).
  Fraction goes_in() const { return contact_no_check + defender_stands + defender_fails + square_melee; }
};

// The player's foot answering the charge under the optional rules:
// `flees` the chance it fails seed 001's gut check with cover to flee to
// (0 when the rule is off, it is exempt, or there is no such cover), and
// whether it formed seed 004's square.
struct FootAnswers {
  Fraction flees;
  bool square = false;
};

// `declared`: a charge declared in step 1 (the solo "(Charge?)" is one); an
// undeclared (opportunity) charge takes seed 003's modifier.
// `obstacle`: an obstacle on the way (seed 003 L68: a second initiation
// check, the same as the first, before contact).
// `charger`: both charging against a target on horse, the charger's own
// morale check (seed 003: both check, the defender first); a charger that
// fails falls back, whatever the defender rolled.
ChargeOdds charge_odds(const Ruleset& r, bool declared, const ChargeGeometry& g, const MoraleTarget& t, bool obstacle = false,
                       const MoraleTarget* charger = nullptr, const FootAnswers& foot = {});

}  // namespace vedette
