#pragma once
// The solo commands, typed: one struct per thing a player does to a session
// (activate a unit, answer a "(Charge?)", roll the initiative, ...), and
// apply(), which checks it against the session and the ruleset and appends
// its events. The command line (sims/cli/commands/cmd_solo.cpp), `solo play`
// (sims/cli/solo_play.cpp) and the web page (sims/web/web_commands.cpp) all
// build a Command and call apply(): the checks, their messages and the
// events written are here once. apply() does not save: the front saves
// (Session::save, atomic) and prints the result (applied_json() for JSON).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/decision/ruleset.hpp"
#include "sims/solo/session.hpp"
#include "sims/solo/solo_react.hpp"
#include "sims/solo/solo_turn.hpp"

namespace vedette::solo {

// A command that does not fit the session (an unknown unit, a unit that has
// already acted, dice given twice): its message is the player's; the fronts
// report it as bad input (exit status 2, HTTP 400) and write nothing.
struct CommandError : SessionError {
  using SessionError::SessionError;
};

// One unit's activation: its facts, the RF, the D6, the table's behaviour.
struct Activate {
  std::string unit;
  // The facts given with the command (`solo activate`'s flags, the page's
  // answers); unanswered "retreating from melee" is what the session knows.
  bool cover = false, enemy_in_range = false, enemy_flank_rear = false, retreated = false;
  int casualties = 0;  // new casualties, added before the RF
  // `solo play`: the facts are the answers given one by one this turn
  // (Answer commands), recorded as what was asked; the flags above unused.
  bool from_answers = false;
  std::optional<int> roll;  // the player's D6; nullopt: the session's roll
  // How the player named the session, for the command a refusal suggests
  // (`vedette solo next-turn GAME`); "" = its file.
  std::string game;
};
// One answer of `solo play`'s questions before a unit's roll.
struct Answer {
  std::string unit;
  Question question = Question::in_cover;
  int value = 0;
};
// One answer of `solo play`'s charge form (a field of k_charge_fields).
struct ChargeAnswer {
  std::string unit;
  std::string field, value;
};
// A "(Charge?)" answered: declined, or the charge resolved.
struct Charge {
  std::string unit;
  bool decline = false;
  // What the player measured and said, in words as `solo charge` takes
  // them (parsed with the ruleset: "45cm", "heavy-foot"); attacker "" = the
  // unit's recorded weight, move "" = the top of its pace this turn.
  std::string attacker, move, distance, defender;
  double bearing = 0;
  bool flank = false, rear = false, both_charging = false, pikes_facing = false;
  std::string path = "open";
  bool fear_exempt = false, refuge = false, square = false;  // optional rules (seeds 001, 004)
  // Version 6 (issue 28): the player's unit the declaration names (seed 003
  // L24); its front rank does not see it: no declaration, declined with the
  // rule (L34); the declared target moved out of range and the charge goes
  // at another enemy within it (L56): "NAME=DISTANCE" or "DISTANCE", the
  // declared one's.
  std::string target;
  bool not_visible = false;
  std::string switched_from;
  // ...or already parsed (`solo play`'s form): then the words are unused.
  std::optional<ChargeInputs> inputs;
  // The player's own dice, by the charge procedure's slots (empty: not
  // given; each is read only if the procedure reaches it). None given: the
  // session rolls, or reuses the dice it rolled for this charge before.
  std::vector<int> initiation, obstacle, gut, defender_roll, charger;
};
// The turn's initiative: the player's total (or dice and declared charges)
// against the cavalry's dice.
struct Initiative {
  std::optional<int> total, your_roll;
  int your_charges = 0;
  std::vector<int> roll;  // the cavalry's dice as the player rolled them
};
struct Shoot {
  std::string unit;
  std::string distance;  // to the nearest enemy it can see; "" with no_target
  std::optional<Length> at;  // ...or already parsed (`solo play`): then `distance` is unused
  bool no_target = false, cover = false;
  std::optional<int> hits;  // from the player's dice
  std::optional<bool> mounted;  // the target is mounted (issue 30: the casualty advice); nullopt: not said
};
struct Melee {
  std::string unit;
  int their_hits = 0;             // the player's unit's hits on it
  std::optional<int> hits;        // its own, from the player's dice
  std::vector<int> square_dice;   // against a square (seed 004): the square's die faces, rolled first
};
struct Rally {
  std::string unit;
  bool enemy_near = false;
  std::vector<int> roll;  // the player's 2D6
};
struct Casualties {
  std::string unit;
  int count = 0;
  bool total = false;  // count is all lost so far, not new ones
};
struct SetMorale {
  std::string unit;
  std::string morale;  // steady, shaken, rallying or routed
  std::string reason;
};
struct NextTurn {};
// Your side's move is over this turn (seed 003 step 3): the turn goes on
// with the cavalry's charges (when you moved first) or its shooting.
struct EndMove {};
struct Undo {
  int count = 1;
};
struct Redo {
  int count = 1;
};
// Issue 28, the player's movement step: a cavalry unit the player's unit
// ends near, in the table's words (parsed with the ruleset by apply()).
struct NearCavalry {
  std::string unit;                 // the automated unit
  std::string distance;             // from its front to the near edge of your unit's nearest figure ("20cm")
  std::string side = "front";       // which face of your unit it would strike (seed 003 L20)
  bool in_arc = true;               // at least partly within its 45-degree arc (L40)
  bool in_sight = true;             // visible to its front rank (L34)
  bool charging = false;            // your unit was charging it (L102: they meet halfway)
  std::string path = "open";        // open, obstacle, uphill, into-terrain
};
// A unit of the player's is about to move, has moved or changed facing
// (seed 003 L93): each automated unit that may react decides whether it
// makes an opportunity charge (L90-L102), by the engine's rules
// (sims/solo/solo_react.hpp). Units not near, or that may not react, are
// told in one line; only reactions that charge are recorded.
struct Moved {
  std::string mover;               // your unit's name, for the words ("" = "your unit")
  std::string as = "heavy_foot";   // its class on seed 003's table (L10-L16)
  std::string weight;              // on horse: its weight ("" = its class's)
  std::string kind = "moved";      // about-to-move, moved or faced
  std::vector<NearCavalry> near;
  std::string their_weight;        // the cavalry's weight when its unit records none
  std::vector<int> roll;           // the player's dice, for one reacting unit (2 to 8)
  // The player rolls even with `roll` short or empty: a check beyond the
  // dice given throws DiceNeeded (solo play asks each pair as it comes).
  bool player_dice = false;
};
// The player's unit charges automated unit `unit` (its own initiation
// check passed at the table): the cavalry's counter-charge, its morale
// check (seed 003 L7, L9-16, L20), the result, L54.
struct Charged {
  std::string unit;                  // the cavalry unit charged
  std::string mover;                 // your unit's name ("" = "your unit")
  std::string as;                    // its class on seed 003's table
  std::string weight;                // as a charger ("" = its class's)
  std::string distance;              // between the two when your charge began
  std::string side = "front";        // the face of the cavalry it strikes
  bool bonus = true;                 // beyond its minimum distance: the charge bonus (L42)
  bool in_arc = true, in_sight = true;
  std::string their_weight;
  std::vector<int> roll;             // the player's dice (2 to 6)
  bool player_dice = false;          // as Moved's
};

// A new seed for the rolls, before any die was rolled (`solo play --seed`).
struct Reseed {
  std::uint64_t seed = 0;
};

using Command = std::variant<Activate, Answer, ChargeAnswer, Charge, Initiative, Shoot, Melee, Rally, Casualties,
                             SetMorale, NextTurn, Undo, Redo, Reseed, Moved, Charged, EndMove>;

// What apply() did, for the front to show.
struct Applied {
  std::vector<int> events;  // appended, in order
  std::optional<std::size_t> unit;
  // next turn: the turn that ended, units that did not act in it, and
  // "(Charge?)" offers left unanswered (they lapse)
  int ended_turn = 0;
  std::vector<std::string> did_not_act, charge_not_answered;
  // undo / redo: the steps taken back or brought back
  std::vector<int> targets;
  // casualties: as added (negative: a correction)
  int added = 0;
  // a charge resolved (not declined): what the player said, and what was
  // known before the dice
  std::optional<ChargeInputs> charge_inputs;
  ChargePreview preview;
  // moved: each automated unit's answer, in the session's order (event 0:
  // none recorded: it did not charge)
  struct Reaction {
    std::size_t unit = 0;
    bool reacts = false;
    bool near = false;  // the player said its unit ends near this one
    std::string outcome;
    int event = 0;
  };
  std::vector<Reaction> reactions;
  std::string mover;
};

// The checks that need no ruleset (the unit exists, has not acted, the
// count fits): the command line makes them before it checks the ruleset,
// so their message comes first. apply() makes them too.
void check(const Session& s, const Command& c);

// Checks the command against the session and the ruleset and appends its
// events (CommandError, or SessionError from Session::append, if it does
// not fit: nothing is appended then). Does not save.
Applied apply(Session& s, const Ruleset& r, const Command& c);

// The session's ruleset for a command that changes the session: refuses
// (CommandError) if its hash changed since the session last used it,
// unless `accept`, which records the new hash in the history (a ruleset
// event: `recorded` is its number). Checks every unit's type is in it.
SessionRules rules_for_change(Session& s, bool accept, int* recorded = nullptr);
// CommandError if a unit's type is not in the ruleset.
void check_unit_types(const Session& s, const Ruleset& r, const std::string& ruleset_path);

// A unit by name (exact, or unique case-insensitive), or a CommandError
// listing the units.
std::size_t find_unit_or_throw(const Session& s, const std::string& name);

// `solo moved --near`'s words and `solo play`'s answer, one cavalry unit's:
// "UNIT=DISTANCE[,flank|rear][,no-arc][,unseen][,charging][,obstacle|uphill|into-terrain]"
// (commas or spaces; the name may stand before "=" or, without it, be the
// longest run of words naming a unit). nullopt and `why` when it does not read.
std::optional<NearCavalry> parse_near_words(const Session& s, const std::string& text, std::string& why);

// The JSON `vedette solo COMMAND --json` prints for an applied command (the
// web page answers the same).
nlohmann::ordered_json applied_json(const Session& s, const Command& c, const Applied& a);
nlohmann::ordered_json activation_json(const Session& s, const Activation& a);
nlohmann::ordered_json charge_json(const Session& s, const ChargeRecord& c);
nlohmann::ordered_json event_json(const Session& s, const Event& e);

}  // namespace vedette::solo
