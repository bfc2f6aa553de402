#pragma once
// One melee as one procedure: the order of a melee's dice and what follows
// them, written once (docs/architecture.md, "One procedure, every front"),
// as engine/procedures/charge_procedure.hpp is for the charge. Every front
// drives this same state machine:
//
//   - the engagement engine (Engagement::melee_exchange, melee_square and
//     melee_retire_and_reform, engine/engagement/engagement_fighting.cpp)
//     throws its dice from the melee stream and answers from its board;
//   - the solo session (resolve_melee and resolve_square_melee,
//     sims/solo/solo_steps.cpp, and the melee command, sims/solo/
//     solo_command.cpp) gives the session's dice or the player's count of
//     hits, and asks the procedure how many dice to roll.
//
// The forms (combat.melee; charge.infantry_square; seed 004's retire):
//   exchange  both sides roll at once, the attacker's dice first, then who
//             won and what follows (seed 002's melee; seed 003 L3's
//             follow-through, the counter-charger's too);
//   square    seed 004 against charging horse: the square rolls first, at
//             most max_battle_dice dice; a bounce face sends the cavalry
//             back before it strikes; otherwise, if the square's hits left
//             it a figure, the cavalry strikes with at most max_battle_dice
//             dice, counted from the figures it has left, and falls back;
//   retire    seed 004's retire and reform: the attacking foot rolls its
//             full dice, hitting only on the cavalry face; the cavalry then
//             retires (the board's part).
// The small rules (the dice per figures, the score a die needs with its
// modifiers, who won, the fall-back distances) stay in
// engine/procedures/table_rules.hpp and combat.hpp; what lives here is
// their order and which dice each step throws.
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/core/dice.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/procedures/table_rules.hpp"

namespace vedette {

enum class MeleeForm : std::uint8_t { exchange, square, retire };

// The dice a melee may throw, by name. Each is thrown at most once.
enum class MeleeRoll : std::uint8_t {
  square_first,  // seed 004: the square's dice, before the cavalry strikes
  attacker,      // the attacker's melee dice
  defender,      // the defender's melee dice
};
inline constexpr std::array<std::string_view, 3> k_melee_roll_names{"square_first", "attacker", "defender"};

// How the melee ended.
enum class MeleeEnd : std::uint8_t {
  running,
  decided,             // exchange: who won (result().after)
  bounced,             // square: a bounce face drove the cavalry back before it struck
  attacker_destroyed,  // square: the square's hits took the cavalry's last figure
  square_repulsed,     // square: the cavalry struck and falls back (result().square)
  retired,             // retire: the foot rolled; the cavalry retires
};
inline constexpr std::array<std::string_view, 6> k_melee_end_names{"running",           "decided",         "bounced",
                                                                   "attacker_destroyed", "square_repulsed", "retired"};

// One side as it comes into the melee.
struct MeleeSideFacts {
  int figures = 0;
  const UnitType* type = nullptr;  // null: no type modifier
  bool on_horse = true;
  bool charge_bonus = false;  // seed 002: charging shock cavalry's +1 (unit_types.*.melee_charging)
};

struct MeleeFacts {
  MeleeForm form = MeleeForm::exchange;
  MeleeSideFacts attacker, defender;  // square: the defender is the square
  // What follows the round (melee_aftermath): each side's move, for the
  // loser's fall back; the charge and its balance (seed 003 L3).
  Length attacker_move, defender_move;
  bool charge = false;
  Length balance;
  bool defender_charge = false;
  Length defender_balance;
};

// A side's dice and the score each needs.
struct MeleeDice {
  int dice = 0;
  int modifier = 0;  // melee_modifier: its type, charging
  int need = 0;
};

struct MeleeResult {
  MeleeEnd end = MeleeEnd::running;
  MeleeDice attacker, defender;  // as thrown (square: the attacker's counted after the square's hits)
  int attacker_hits = 0;
  int defender_hits = 0;  // square: the square's
  bool bounced = false;
  MeleeAftermath after;    // end decided
  SquareAftermath square;  // end bounced or square_repulsed
};

// The square's first dice as a player reads them at the table (seed 004):
// whether a die showed the bounce face (charge.infantry_square.bounce_on),
// and how many did not: the most hits the player's rules can have scored.
// Every front that takes a player's square dice reads them here.
struct SquareFaces {
  bool bounce = false;
  int may_hit = 0;
};
// Throws std::out_of_range, saying what is allowed, for no faces, more than
// max_battle_dice of them, or a face off the square's die.
SquareFaces read_square_faces(const Ruleset& r, const std::vector<int>& faces);

class MeleeProcedure {
 public:
  struct Need {
    enum class Kind : std::uint8_t { roll, fights, done };
    Kind kind = Kind::done;
    MeleeRoll roll = MeleeRoll::attacker;  // kind roll: which dice
    int dice = 0;                          // ...how many
    int die = 6;                           // ...of how many faces
    int need = 0;                          // ...scoring on this or more (square_first: a bounce face scores none; retire: 0, only the cavalry face hits)
    std::string_view rule;                 // the conformance id of the rule that throws them (docs/conformance.md)
    // kind fights (square, no bounce): how many figures has the cavalry
    // left after the square's hits? answer_fights().
  };

  MeleeProcedure(const Ruleset& r, const MeleeFacts& f);

  Need next() const;
  bool done() const { return res_.end != MeleeEnd::running; }

  // The dice next() asks for, each face 1..die, as many as it asks (in an
  // exchange both sides roll at once: either side's may come first); throws
  // std::logic_error for dice it does not ask for, std::out_of_range for a
  // face off the die.
  void roll(MeleeRoll slot, const int* faces, int n);
  // Throws the dice next() asks for from `dice` (their faces into `faces`
  // when given, for the account) and gives them.
  void roll(Dice& dice, std::vector<int>* faces = nullptr);
  // A count the table gives instead of faces (the player's own unit's
  // hits; the square's hits and whether a die showed the bounce face).
  void hits(MeleeRoll slot, int hits, bool bounce = false);
  // Square, the table's way (seed 004): the faces the player's square
  // showed (read_square_faces: whether one bounced) and the hits the
  // player's rules scored with the other dice. Throws std::out_of_range
  // when the hits are more than those dice (a bounce face scores none).
  void square_faces(const SquareFaces& read, int hits);
  // Square: the cavalry's figures after the square's hits (0: destroyed).
  void answer_fights(int figures_left);

  const MeleeResult& result() const { return res_; }
  const MeleeFacts& facts() const { return f_; }

 private:
  enum class Stage : std::uint8_t { square_first, fights, exchange, attacker, done };
  Need asks(MeleeRoll slot) const;
  void finish();

  const Ruleset* r_;
  MeleeFacts f_;
  Stage stage_;
  bool attacker_given_ = false, defender_given_ = false;
  MeleeResult res_;
};

// A side's dice and need in this form (the square's, and the cavalry's
// against it, at most max_battle_dice): what a front shows before the dice.
MeleeDice melee_dice(const Ruleset& r, MeleeForm form, const MeleeSideFacts& side, bool is_square);

}  // namespace vedette
