#pragma once
// Seed 003's charge as one procedure: the order of a charge's steps, and
// which dice each step throws, written once (docs/architecture.md, "One
// procedure, every front"). Every front drives this same state machine:
//
//   - the engagement engine (Engagement::figure_charge, engine/engagement/engagement_charge.cpp)
//     answers its questions from the board and throws its dice from the
//     engagement's streams;
//   - the solo session (sims/solo/solo_turn.cpp: resolve_charge and
//     charge_progress) answers from what the player said and throws the
//     session's dice or takes the player's;
//   - `vedette charge` (sims/cli/commands/cmd_charge.cpp) answers from its flags;
//   - charge_odds() (engine/procedures/charge_odds.hpp) enumerates its chance
//     points, so the exact odds are this procedure's by construction.
//
// A front calls next(): it names the dice to throw now (a named slot and how
// many D6), or the question the table must answer now (and the rule that
// asks it), or says the charge is over; the front gives what was asked, and
// at the end reads result(). The small rules (the initiation check, the
// morale table, the gut check...) stay in engine/decision/charge.hpp and
// engine/procedures/table_rules.hpp; what lives here is their order.
//
// The order (seed 003 unless named): the charger's initiation check (L48;
// -2 for an undeclared charge, L100); where the charge goes (L40: it reaches,
// or not, and with or without the charge bonus, L42); an obstacle on the way
// takes a second initiation check (L68); out of reach, it falls short (L52);
// the target may meet it with a counter-charge of its own, which takes its
// own initiation check (L100-L102); the charger comes into contact (or is
// stopped by something in the way); a pike charge forces the target's Loss
// Table roll (L5, optional); foot charged by horse answer with seed 001's
// Fear of Charge (optional: gut check, then flight into cover) and seed
// 004's square (optional: no morale check); then the defender's morale
// check (L7, with L20's flank and rear) and, both charging against horse,
// the charger's own, whatever the defender rolled (L7).
#include <array>
#include <cstdint>
#include <string_view>

#include "engine/core/dice.hpp"
#include "engine/decision/charge.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/procedures/table_rules.hpp"

namespace vedette {

// The dice a charge may throw, by name. Each is thrown at most once.
enum class ChargeRoll : std::uint8_t {
  initiation,          // the charger's 2D6 initiation check (seed 003 L48)
  obstacle_check,      // a second initiation check at an obstacle on the way (L68)
  counter_initiation,  // the target's initiation check for its counter-charge (L100)
  pike_loss,           // the target's Loss Table roll against a pike charge (L5)
  gut_check,           // seed 001's Fear of Charge gut check (optional rule)
  defender_morale,     // the defender's 2D6 morale check (L7)
  charger_morale,      // both charging against horse: the charger's own (L7)
};
inline constexpr std::array<std::string_view, 7> k_charge_roll_names{
    "initiation", "obstacle_check", "counter_initiation", "pike_loss", "gut_check", "defender_morale", "charger_morale"};
// ...and in words, for messages.
inline constexpr std::array<std::string_view, 7> k_charge_roll_words{
    "initiation check", "second initiation check at the obstacle", "counter-charge's initiation check",
    "Loss Table roll against the pike charge", "gut check", "defender's morale check", "charger's own morale check"};
// The engine's stream for each: the initiation checks roll on the movement
// stream, the rest on the morale stream.
constexpr bool charge_roll_is_movement(ChargeRoll r) {
  return r == ChargeRoll::initiation || r == ChargeRoll::obstacle_check || r == ChargeRoll::counter_initiation;
}

// What the procedure asks of the table (or the board) on the way.
enum class ChargeAsk : std::uint8_t {
  reach,           // where the charge goes: answer_reach()
  counter_charge,  // does the target meet it with a counter-charge? answer_counter()
  contact,         // does the charger come into contact (nothing in the way)? answer(bool)
  fear,            // is the foot exposed to Fear of Charge (a long enough charge, not in good cover)? answer(bool)
  refuge,          // it failed its gut check: is there cover within its flee distance? answer(bool)
  square,          // does the foot form square? answer(bool)
};
inline constexpr std::array<std::string_view, 6> k_charge_ask_names{"reach", "counter_charge", "contact", "fear", "refuge", "square"};

// How the charge ended.
enum class ChargeEnd : std::uint8_t {
  running,             // not yet
  no_charge,           // the initiation check failed (L48): no charge this turn
  falls_short,         // out of reach (L40/L52): it moves its forced move forward, perhaps shaken
  halted_at_obstacle,  // the obstacle's check failed (L68): it halts there, not shaken
  blocked,             // something in the way stopped it short of contact
  pike_destroyed,      // caught by pikes again before it rallied (L5): eliminated
  pike_broke,          // the target failed the pike charge's Loss Table roll: it retreats
  fled,                // the foot failed the gut check and fled into cover: no one to strike
  morale_failed,       // the defender, the charger or both failed the morale check: who failed retreats
  melee,               // contact stands: melee (with or without a morale check, against a square or not)
};
inline constexpr std::array<std::string_view, 10> k_charge_end_names{
    "running", "no_charge", "falls_short", "halted_at_obstacle", "blocked", "pike_destroyed", "pike_broke", "fled", "morale_failed", "melee"};

// What is known of the charge before it starts.
struct ChargeFacts {
  bool declared = true;           // declared in step 1; else an opportunity charge (L100: -2)
  bool charger_on_horse = true;
  // The initiation check is made and passed already: the front settles only
  // what follows it (`vedette charge`, whose player rolled it at the table).
  bool initiation_made = false;
};

// What is known of the unit the charge strikes, once it is known (after the
// initiation check a charge may switch targets, L56).
struct ChargeTargetFacts {
  bool target_cavalry = false;    // cavalry, mounted or not: no Fear of Charge, no square
  bool target_on_horse = false;   // both charging, the charger checks only against horse
  bool target_in_square = false;  // seed 004: already in square
  bool square_allowed = false;    // seed 004: may it form square (can_form_square)
  bool pike_charge = false;       // L5: the charge is a pike charge (pike_charge_applies)
  bool target_pike_routed = false;  // ...and the target failed one and has not rallied since
  // The defender's morale check as struck (side, pikes facing); the
  // procedure makes it front and both charging when it counter-charges.
  MoraleSituation defender;
  // The charger's own check, both charging: its class, the target's
  // weight, in front.
  MoraleSituation charger;
};

// Where the charge goes and whom it strikes, as the board or the table says
// after the initiation check (the engine: charge_prospect; the table:
// with_path on table_charge_geometry).
struct ChargeReach {
  bool reaches = false;
  bool charge_bonus = false;   // contact after more than the minimum distance (L42)
  bool morale_check = false;   // the defender checks (ChargeGeometry::morale_check)
  bool obstacle = false;       // an obstacle on the way (L68)
  ChargeTargetFacts target;
};

enum class CounterCharge : std::uint8_t {
  none,      // it does not counter-charge
  attempts,  // it tries: its own initiation check decides
  charging,  // it is charging already (the table says so: its check was its own)
};
struct ChargeCounter {
  CounterCharge kind = CounterCharge::none;
  bool declared = false;  // it declared a charge in step 1 (L100: then no -2 on its check)
  // Its own charge would call for a morale check (its geometry's
  // morale_check): with a target on horse, the charger then checks too.
  bool morale_check = false;
};

// One throw: up to four D6.
struct ChargeThrow {
  std::array<int, 4> faces{};
  int n = 0;
  int total() const {
    int t = 0;
    for (int k = 0; k < n; ++k) t += faces[static_cast<std::size_t>(k)];
    return t;
  }
};

struct ChargeResult {
  ChargeEnd end = ChargeEnd::running;
  InitiationCheck initiation;
  ChargeReach reach;
  InitiationCheck obstacle_check;  // when reach.obstacle
  CounterCharge counter_kind = CounterCharge::none;
  bool counter = false;         // the target counter-charges: the two meet halfway (L102)
  bool counter_barred = false;  // it tried and failed its check (L100): no charge for it this turn
  InitiationCheck counter_initiation;
  bool pike_stands = false;     // the Loss Table roll, when thrown
  bool fear_exposed = false;    // the Fear of Charge gut check was taken
  int gut_total = 0;
  bool gut_passed = false;
  bool refuge = false;          // failed, and cover within reach
  bool square_asked = false;
  bool square_formed = false;
  ChargedOn on = ChargedOn::front;  // as struck: front when counter-charging
  MoraleTarget defender_target;
  bool defender_checks = false;
  MoraleResult defender;        // when defender_checks (automatic: no dice)
  bool defender_fails = false;
  MoraleTarget charger_target;
  bool charger_checks = false;
  MoraleResult charger;
  bool charger_fails = false;
  std::array<ChargeThrow, 7> thrown{};  // by ChargeRoll; n == 0: not thrown
  const ChargeThrow& dice(ChargeRoll r) const { return thrown[static_cast<std::size_t>(r)]; }
  bool was_thrown(ChargeRoll r) const { return dice(r).n > 0; }
  bool asked(ChargeAsk a) const { return (asked_mask >> static_cast<unsigned>(a)) & 1u; }
  unsigned asked_mask = 0;
};

class ChargeProcedure {
 public:
  struct Need {
    enum class Kind : std::uint8_t { roll, ask, done };
    Kind kind = Kind::done;
    ChargeRoll roll = ChargeRoll::initiation;  // kind roll: which dice
    int dice = 0;                              // ...and how many D6
    ChargeAsk ask = ChargeAsk::reach;          // kind ask: which question
    std::string_view rule;                     // the conformance id of the rule that asks (docs/conformance.md)
  };

  ChargeProcedure(const Ruleset& r, const ChargeFacts& f);

  Need next() const;
  bool done() const { return res_.end != ChargeEnd::running; }

  // Gives the dice next() asks for (each face 1..6, as many as it asks);
  // throws std::logic_error if it asks for something else, and
  // std::out_of_range for a face off the die.
  void roll(ChargeRoll slot, const int* faces, int n);
  // Throws the dice next() asks for from `dice` and gives them.
  void roll(Dice& dice);
  void answer_reach(const ChargeReach& a);
  void answer_counter(const ChargeCounter& a);
  // The yes/no questions: contact, fear, refuge, square.
  void answer(ChargeAsk q, bool yes);

  const ChargeResult& result() const { return res_; }
  const ChargeFacts& facts() const { return f_; }

  // Two procedures whose futures are the same (the same step next, the same
  // decisions taken): charge_odds() merges such branches.
  bool same_future(const ChargeProcedure& o) const;

 private:
  enum class Stage : std::uint8_t {
    initiation, reach, obstacle, counter, counter_initiation, contact, pike, fear, gut, refuge, square,
    defender_morale, charger_morale, done
  };
  void expect(Stage s, const char* what) const;
  void after_contact();
  void foot_answers();
  void square_step();
  void morale_step();
  void charger_step();
  void finish();
  void mark(ChargeAsk a) { res_.asked_mask |= 1u << static_cast<unsigned>(a); }

  const Ruleset* r_;
  ChargeFacts f_;
  ChargeCounter counter_;
  Stage stage_ = Stage::initiation;
  ChargeResult res_;
};

// Fixed answers to the procedure's questions, for a front that knows them
// all before the dice (the table: the player said them; the exact odds).
struct ChargeAnswers {
  ChargeReach reach;
  ChargeCounter counter;
  bool contact = true;
  bool fear = false;    // exposed to the gut check
  bool refuge = false;  // cover within the flee distance
  bool square = false;  // forms square
};

// Drives `p` with `a`'s answers and the dice in `given` (by ChargeRoll;
// n == 0: not given) until it is done or asks for dice not given; returns
// what it asks then (Kind::done when it is over).
ChargeProcedure::Need drive_charge(ChargeProcedure& p, const ChargeAnswers& a, const std::array<ChargeThrow, 7>& given);

}  // namespace vedette
