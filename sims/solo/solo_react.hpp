#pragma once
// The automated cavalry answering the player's moves (issue 28): in the
// player's movement step, an opportunity charge at a unit of theirs that is
// about to move, has moved or changed facing (seed 003 L90-L102), and the
// cavalry charged by a unit of theirs (its counter-charge, its morale check
// by seed 003's table, L7, L9-16, L20; L54). The rules are the engine's
// (engine/procedures/reaction_rules.hpp), the charge the engine's charge
// procedure; this file takes the facts from the session's memory and the
// player's words, and says the result in table units.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "engine/procedures/reaction_rules.hpp"
#include "sims/solo/session.hpp"
#include "sims/solo/solo_turn.hpp"

namespace vedette::solo {

// What the player's unit did (seed 003 L93: "about to move, has been moved,
// or has changed facing or frontage").
enum class MoveKind : std::uint8_t { about_to_move, moved, faced };
inline constexpr std::array<std::string_view, 3> k_move_kind_names{"about_to_move", "moved", "faced"};

// The player's unit, in the table's words.
struct PlayerUnit {
  std::string name = "your unit";
  DefenderClass defender = DefenderClass::heavy_foot;  // its row on seed 003's table (L10-L16)
  AttackerWeight weight = AttackerWeight::medium;      // on horse: its weight (the table's column when it charges)
  bool on_horse() const { return defender >= DefenderClass::light_horse; }
};

// Where the player's unit ends against one automated unit.
struct MoverFacts {
  PlayerUnit unit;
  MoveKind kind = MoveKind::moved;
  Length distance;        // from the automated unit's front to the near edge of its nearest figure
  bool in_arc = true;     // at least partly within the automated unit's 45-degree arc (seed 003 L40)
  bool in_sight = true;   // visible to its front rank (L34)
  ChargedOn side = ChargedOn::front;  // which face of the player's unit it would strike (L20)
  ChargePath path = ChargePath::open;
  bool charging_it = false;  // the player's unit was charging this automated unit (L102: meet halfway)
};

// The facts the engine's gates read (engine/procedures/reaction_rules.hpp),
// from the session's memory: not yet moved this turn (the cavalry moved
// first and did not halt, or it charged or reacted: L92), good order,
// not the turn after a charge, not after a failed initiation check.
ReactorFacts reactor_facts(const Ruleset& r, const Session& s, std::size_t unit);
// The table's policy (table_policy_opportunity): this turn's cell said "(Charge?)".
bool reactor_wants(const Session& s, std::size_t unit);
// A charge declared for it in step 1 (its "(Charge?)" answered yes): no -2 (L100).
bool reactor_declared(const Session& s, std::size_t unit);
// Its weight: the unit's own, or `given`; nullopt when neither says.
std::optional<AttackerWeight> reactor_weight(const Session& s, std::size_t unit, std::optional<AttackerWeight> given = {});

// Which automated units may react at all now, whatever the player's unit:
// the others are told in one line and nothing is asked about them.
struct ReactorStatus {
  std::size_t unit = 0;
  ReactionGate gate;  // gate.allowed: it may react
  bool wants = false;
  std::string line;   // in words, for those that may not ("Hussars cannot react: it has moved this turn")
};
std::vector<ReactorStatus> reactor_status(const Ruleset& r, const Session& s);

// The units that may react now (the gates and the table's policy).
std::vector<std::size_t> reactors_now(const Ruleset& r, const Session& s);

// The dice a reaction uses, two by two in the procedure's order: the
// charger's initiation check (an opportunity charge) or the cavalry's
// counter-charge check (when charged), the defender's morale check, the
// charger's own (both charging against horse), then an obstacle's second
// initiation check (L68): 8 dice. Rolled: the first 8 dice of one roll's
// stream (a reaction after an undo reuses them).
inline constexpr int k_reaction_dice = 8;
// The player's dice ran out before the procedure was done: it needs the
// next 2D6 for `roll` (the front asks them and applies again with them);
// `need`: the 2D6 total that passes the check (the initiation check's
// need, the morale check's target), as the charge procedure reads it.
struct DiceNeeded : SessionError {
  DiceNeeded(const std::string& what, ChargeRoll r, int n = 0) : SessionError(what, "dice"), roll(r), need(n) {}
  ChargeRoll roll;
  int need = 0;
};
StepDice reaction_dice(const Session& s, TurnStep step, std::size_t unit);

// A reaction that needs the automated unit's weight (light, medium or heavy:
// its column on seed 003's charge table when it charges, its class when it
// is charged) while its unit records none: nothing is written, and each
// front asks it in its own way and sends the command again with it
// (their_weight): `solo play` and the page ask the question, the command
// line names its flag.
struct WeightNeeded : SessionError {
  WeightNeeded(std::size_t u, const std::string& name)
      : SessionError(name + " has no weight in the session: is it light, medium or heavy cavalry (seed 003's charge table)?",
                     "their_weight"),
        unit(u),
        question("Is " + name + " light, medium or heavy cavalry (seed 003's charge table)?") {}
  std::size_t unit;
  std::string question;
};

// The next 2D6 a reaction reads from the player's dice, in words: whose
// check it is ("Cuirassiers' initiation check", "Foot's morale check") and
// the line that asks it ("Roll 2D6 for Foot's morale check; it needs 10+ to
// stand"). `cavalry`: the automated unit that reacts; `mover`: the player's
// unit ("" = "your unit"); `moved`: an opportunity charge (the cavalry
// charges: the defender is the player's unit), else the player's charge at
// it (the defender is the cavalry). `solo play` and the web page ask with it.
struct DiceNeededWords {
  std::string check;  // whose check
  std::string text;   // "Roll 2D6 for CHECK[; it needs N+ to PASS]"
};
DiceNeededWords dice_needed_words(const DiceNeeded& need, bool moved, const std::string& cavalry, const std::string& mover);

// (a) The player's unit moved near automated unit `unit`: the engine's rule
// decides whether it makes an opportunity charge, and the charge procedure
// walks it. The record's result is the charge's end (k_charge_end_names),
// or "" when it does not charge (then `outcome` says why in one line and no
// dice are used: nothing to record).
StepRecord resolve_opportunity(const Ruleset& r, const Session& s, std::size_t unit, const MoverFacts& m,
                               const StepDice& dice, std::optional<AttackerWeight> weight = {}, ChargeResult* out = nullptr);

// `out`, when given, receives the charge procedure's result (the tests
// compare it with the engine's).
// (b) The player's unit charges automated unit `unit` (its own initiation
// check passed at the table). `distance`: between them when it was
// declared; `bonus`: the player's unit strikes with the charge bonus (beyond
// its minimum distance); `in_arc`: the charger is at least partly within
// the cavalry's arc (its counter-charge needs it in reach).
struct PlayerCharge {
  PlayerUnit unit;
  Length distance;
  bool in_arc = true;
  bool in_sight = true;
  ChargedOn side = ChargedOn::front;
  bool bonus = true;
};
StepRecord resolve_charged(const Ruleset& r, const Session& s, std::size_t unit, const PlayerCharge& c,
                           const StepDice& dice, std::optional<AttackerWeight> weight = {}, ChargeResult* out = nullptr);

// L54 in words, for a unit struck this turn ("" when not).
std::string struck_note(const Session& s, std::size_t unit);

// The names a player writes.
std::optional<MoveKind> parse_move_kind(const std::string& text, std::string& why);

}  // namespace vedette::solo
