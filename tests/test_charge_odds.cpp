// The exact odds of a seed 003 charge before the dice (charge_odds(),
// engine/procedures/charge_odds.hpp: the charge's procedure enumerated),
// checked against enumerating by hand every throw of the dice a charge can
// use: the charger's initiation check (2D6, L48) and the defender's morale
// check (2D6, L7), each decided by the engine's small rules one throw at a
// time, in the order the seed gives.
#include <catch2/catch.hpp>

#include "engine/decision/charge.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/procedures/charge_odds.hpp"
#include "engine/procedures/table_rules.hpp"

namespace t_charge_odds {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

// Counts of 6^4 = 1296 throws, outcome by outcome, as play resolves them.
ChargeOdds enumerate(const Ruleset& r, bool declared, const ChargeGeometry& g, const MoraleTarget& t) {
  int no = 0, short_ = 0, contact = 0, stands = 0, fails = 0;
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= 6; ++b)
      for (int c = 1; c <= 6; ++c)
        for (int d = 1; d <= 6; ++d) {
          if (!initiation_check(r, declared, a, b).passed) ++no;
          else if (!g.reaches) ++short_;
          else if (!g.morale_check) ++contact;
          else if (t.automatic || resolve_morale(r.charge, t, c, d).stands) ++stands;
          else ++fails;
        }
  ChargeOdds o;
  o.no_charge = Fraction(no, 1296);
  o.falls_short = Fraction(short_, 1296);
  o.contact_no_check = Fraction(contact, 1296);
  o.defender_stands = Fraction(stands, 1296);
  o.defender_fails = Fraction(fails, 1296);
  return o;
}

// A charge as the table says it, with no optional rule.
TableCharge table(bool declared, const ChargeGeometry& g, const MoraleSituation& defender) {
  TableCharge t;
  t.declared = declared;
  t.geometry = g;
  t.defender = defender;
  return t;
}

void same(const ChargeOdds& got, const ChargeOdds& want) {
  CHECK(got.no_charge == want.no_charge);
  CHECK(got.falls_short == want.falls_short);
  CHECK(got.contact_no_check == want.contact_no_check);
  CHECK(got.defender_stands == want.defender_stands);
  CHECK(got.defender_fails == want.defender_fails);
  CHECK(got.no_charge + got.falls_short + got.goes_in() + got.halted_at_obstacle + got.charger_fails + got.defender_fled == Fraction(1));
  CHECK(got.initiation_passes + got.no_charge == Fraction(1));
}

}  // namespace

TEST_CASE("charge odds: every outcome's exact chance equals enumerating the four dice (seed 003)",
          "[charge][003-L48-initiation-check][003-L7-defender-checks]") {
  const RulesetPtr rp = default_ruleset();
  const Ruleset& r = *rp;
  const Length move = Length::in(12);
  // Out of reach, inside the minimum distance, a full charge, out of the arc.
  for (double distance : {30.0, 1.0, 10.0, 17.0})
    for (double bearing : {0.0, 60.0})
      for (std::size_t d = 0; d < k_defender_class_names.size(); ++d)
        for (std::size_t w = 0; w < k_attacker_weight_names.size(); ++w)
          for (ChargedOn side : {ChargedOn::front, ChargedOn::flank, ChargedOn::rear})
            for (bool both : {false, true})
              for (bool declared : {true, false}) {
                // Both charging against horse, the charger checks too: the
                // next test case enumerates that.
                if (both && r.charge.kind(static_cast<DefenderClass>(d)) == DefenderKind::horse) continue;
                const ChargeGeometry g = charge_geometry(r.charge, move, Length::in(distance), bearing);
                const MoraleSituation ms{static_cast<DefenderClass>(d), static_cast<AttackerWeight>(w), side, both, false};
                // A counter-charging defender has turned to face: it is charged in front.
                MoraleSituation faced = ms;
                if (both) faced.side = ChargedOn::front;
                const MoraleTarget t = morale_target(r.charge, faced);
                INFO("distance " << distance << " bearing " << bearing << " defender " << k_defender_class_names[d]
                                 << " attacker " << k_attacker_weight_names[w] << " declared " << declared);
                same(charge_odds(r, table(declared, g, ms)), enumerate(r, declared, g, t));
              }
}

TEST_CASE("charge odds: the numbers a player checks by hand (seed 003 with the default tables)",
          "[charge][003-L48-initiation-check][003-L7-defender-checks]") {
  const RulesetPtr rp = default_ruleset();
  const Ruleset& r = *rp;
  const ChargeGeometry g = charge_geometry(r.charge, Length::in(12), Length::in(10), 0);
  REQUIRE(g.reaches);
  REQUIRE(g.morale_check);
  // Heavy cavalry on heavy foot, front: the foot stand on 9+ (10 ways of 36);
  // the initiation check passes on 4+ (33 ways).
  const MoraleSituation heavy_foot{DefenderClass::heavy_foot, AttackerWeight::heavy, ChargedOn::front, false, false};
  const ChargeOdds o = charge_odds(r, table(true, g, heavy_foot));
  CHECK(o.initiation_need == 4);
  CHECK(o.initiation_passes == Fraction(33, 36));
  CHECK(o.defender_stands == Fraction(33 * 10, 36 * 36));
  CHECK(o.defender_fails == Fraction(33 * 26, 36 * 36));
  CHECK(o.goes_in() == Fraction(33, 36));
  // Undeclared (an opportunity charge): 6+, 26 ways.
  CHECK(charge_odds(r, table(false, g, heavy_foot)).initiation_passes == Fraction(26, 36));
  // Pikes facing the charge stand without rolling.
  const MoraleSituation pikes{DefenderClass::heavy_foot, AttackerWeight::heavy, ChargedOn::front, false, true};
  CHECK(charge_odds(r, table(true, g, pikes)).defender_stands == Fraction(33, 36));
  CHECK(charge_odds(r, table(true, g, pikes)).defender_fails == Fraction(0));
  // A house rule: a harder initiation check changes the odds with it.
  Ruleset house = r;
  house.combat.charge.initiation_target = 8;
  CHECK(charge_odds(house, table(true, g, heavy_foot)).initiation_passes == Fraction(15, 36));
}

// Seed 003 L68 (an obstacle on the way: a second initiation check) and L7
// (both charging: the charger checks too, after the defender), enumerated
// over the eight dice as the solo session resolves them (resolve_charge):
// the initiation check, the obstacle's, the defender's, the charger's.
TEST_CASE("charge odds: an obstacle's second check and the charger's own check, enumerated over eight dice (seed 003)",
          "[charge][003-L68-obstacle-check][003-L7-solo-both-check]") {
  const RulesetPtr rp = default_ruleset();
  const Ruleset& r = *rp;
  const ChargeGeometry g = charge_geometry(r.charge, Length::in(12), Length::in(10), 0);
  REQUIRE(g.morale_check);
  // Light horse counter-charging heavy cavalry: both check, +2 each.
  const MoraleTarget t = morale_target(r.charge, {DefenderClass::light_horse, AttackerWeight::heavy, ChargedOn::front, true, false});
  const MoraleTarget c = morale_target(r.charge, {DefenderClass::heavy_horse, AttackerWeight::light, ChargedOn::front, true, false});
  for (bool obstacle : {false, true}) {
    long long no = 0, halted = 0, stands = 0, fails = 0, charger = 0, all = 0;
    for (int a = 1; a <= 6; ++a)
      for (int b = 1; b <= 6; ++b)
        for (int e = 1; e <= 6; ++e)
          for (int f = 1; f <= 6; ++f)
            for (int x = 1; x <= 6; ++x)
              for (int y = 1; y <= 6; ++y)
                for (int v = 1; v <= 6; ++v)
                  for (int w = 1; w <= 6; ++w) {
                    ++all;
                    if (!initiation_check(r, true, a, b).passed) ++no;
                    else if (obstacle && !initiation_check(r, true, e, f).passed) ++halted;
                    else if (!resolve_morale(r.charge, c, v, w).stands) ++charger;
                    else if (resolve_morale(r.charge, t, x, y).stands) ++stands;
                    else ++fails;
                  }
    TableCharge tc = table(true, g, {DefenderClass::light_horse, AttackerWeight::heavy, ChargedOn::front, true, false});
    tc.charger = {DefenderClass::heavy_horse, AttackerWeight::light, ChargedOn::front, true, false};
    tc.obstacle = obstacle;
    const ChargeOdds o = charge_odds(r, tc);
    INFO("obstacle " << obstacle);
    CHECK(o.no_charge == Fraction(no, all));
    CHECK(o.halted_at_obstacle == Fraction(halted, all));
    CHECK(o.charger_fails == Fraction(charger, all));
    CHECK(o.defender_stands == Fraction(stands, all));
    CHECK(o.defender_fails == Fraction(fails, all));
    CHECK(o.no_charge + o.falls_short + o.goes_in() + o.halted_at_obstacle + o.charger_fails == Fraction(1));
  }
}

// The optional rules for foot answering the charge (seed 001's Fear of
// Charge, seed 004's Infantry Square), enumerated over six dice: the
// initiation check, the gut check (gut_check_passes), the morale check. A
// failed gut check with cover to flee to halts the charge; a square takes
// no morale check.
TEST_CASE("charge odds: a gut check with cover to flee to, and a square, enumerated over six dice (seeds 001, 004)",
          "[charge][001-L13-solo-fear][004-L26-solo-square]") {
  auto rules = std::make_shared<Ruleset>(*default_ruleset());
  rules->charge.fear_of_charge.enabled = true;
  rules->charge.infantry_square.enabled = true;
  const Ruleset& r = *rules;
  const ChargeGeometry g = charge_geometry(r.charge, Length::in(12), Length::in(10), 0);
  REQUIRE(g.reaches);
  REQUIRE(g.morale_check);
  const MoraleTarget t = morale_target(r.charge, {DefenderClass::heavy_foot, AttackerWeight::heavy, ChargedOn::front, false, false});
  for (bool refuge : {false, true})
    for (bool square : {false, true}) {
      int no = 0, fled = 0, sq = 0, stands = 0, fails = 0;
      for (int a = 1; a <= 6; ++a)
        for (int b = 1; b <= 6; ++b)
          for (int e = 1; e <= 6; ++e)
            for (int f = 1; f <= 6; ++f)
              for (int c = 1; c <= 6; ++c)
                for (int d = 1; d <= 6; ++d) {
                  if (!initiation_check(r, true, a, b).passed) ++no;
                  else if (refuge && !gut_check_passes(r.charge, e + f)) ++fled;
                  else if (square) ++sq;
                  else if (resolve_morale(r.charge, t, c, d).stands) ++stands;
                  else ++fails;
                }
      TableCharge tc = table(true, g, {DefenderClass::heavy_foot, AttackerWeight::heavy, ChargedOn::front, false, false});
      tc.fear = true;
      tc.refuge = refuge;
      tc.square = square;
      const ChargeOdds o = charge_odds(r, tc);
      INFO("refuge " << refuge << ", square " << square);
      const std::int64_t all = 6 * 6 * 6 * 6 * 6 * 6;
      CHECK(o.no_charge == Fraction(no, all));
      CHECK(o.defender_fled == Fraction(fled, all));
      CHECK(o.square_melee == Fraction(sq, all));
      CHECK(o.defender_stands == Fraction(stands, all));
      CHECK(o.defender_fails == Fraction(fails, all));
      CHECK(o.no_charge + o.goes_in() + o.defender_fled == Fraction(1));
    }
}

}  // namespace t_charge_odds
