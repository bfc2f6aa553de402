#pragma once
// Charge odds: the exact chance of each way a seed 003 charge can end, known
// before any die is rolled (the table-side page shows it with the charge
// form). Not a copy of the rules: charge_odds() walks the charge's own
// procedure (ChargeProcedure, engine/procedures/charge_procedure.hpp) with
// the table's answers, and at each of its chance points tries every face of
// the dice it asks for, merging throws whose futures are the same. So the
// odds follow the procedure's order and rules by construction.
#include "engine/core/fraction.hpp"
#include "engine/decision/charge.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/procedures/charge_procedure.hpp"

namespace vedette {

// Every way the charge can end, exactly; the outcomes sum to 1.
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
  // Only where the board says so (the engine's answers; never at the table):
  Fraction blocked;              // something in the way stops it short of contact
  Fraction pike_broke;           // seed 003 L5: the target fails the pike charge's Loss Table roll (or is eliminated)
  // The charge goes in: the check passes and contact is made (then melee,
  // or the defender breaks first).
  Fraction goes_in() const { return contact_no_check + defender_stands + defender_fails + square_melee; }
  Fraction total() const {
    return no_charge + falls_short + goes_in() + halted_at_obstacle + charger_fails + defender_fled + blocked + pike_broke;
  }
};

// The odds of the charge with these facts when the table answers `a`.
ChargeOdds charge_odds(const Ruleset& r, const ChargeFacts& f, const ChargeAnswers& a);

// The same for a charge seen as the table sees it (the solo session, `vedette
// charge`): a cavalry charge, `declared` or not, on a defender in situation
// `defender` (both_charging: it counter-charges, and then, against horse,
// the charger checks too, in `charger`'s situation); geometry `g`, an
// obstacle on the way; the foot's answers to the optional rules.
struct TableCharge {
  bool declared = true;
  ChargeGeometry geometry;
  bool obstacle = false;
  MoraleSituation defender;
  MoraleSituation charger;  // used when both charging against horse
  bool fear = false;        // the foot takes seed 001's gut check
  bool refuge = false;      // ...with cover within its flee distance
  bool square = false;      // seed 004: it forms square
};
ChargeFacts table_charge_facts(const TableCharge& t);
ChargeAnswers table_charge_answers(const Ruleset& r, const TableCharge& t);
ChargeOdds charge_odds(const Ruleset& r, const TableCharge& t);

}  // namespace vedette
