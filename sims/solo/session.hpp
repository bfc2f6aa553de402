#pragma once
// A solo game's session: the file it lives in, its append-only history, and
// the units' memory derived by replaying that history.
//
// The history is the record of the game. Every roll, answer, casualty count,
// turn change, undo and redo is one event appended to it; nothing is ever
// erased. Undo appends an `undo` event naming the step it takes back, redo a
// `redo` event; the state is found by replaying the events in order, so the
// log shows everything that happened, undone steps included.
//
// Rolls: roll number k of a session (k = 0, 1, 2, ...) is the first D6 of
// make_stream(seed, k, Subsystem::solo). The counter only goes up: an undone
// roll keeps its number. And a unit's die for a turn is fixed once rolled:
// activating it again in the same turn after an undo reuses that die
// (`same_die_as`), so undo corrects answers, it cannot fish for a better roll.
// A rolled die in the file is checked against its seed and number on reading.
//
// The file format is described in docs/solo.md.
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "engine/decision/actions_table.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/core/facts.hpp"
#include "engine/procedures/charge_procedure.hpp"

namespace vedette::solo {

inline constexpr std::string_view k_format = "vedette-session";
// The newest version this vedette reads. A file is written at the lowest
// version that holds its history: version 1 until an event needs a field of
// version 2 (a charge's initiation check, a "(Charge?)" a rule refused), 2
// until it needs one of version 3 (the whole turn's steps: initiative,
// shooting, melee, rally; a routed unit; a unit's weapon), 3 until a
// mounted-infantry unit dismounts (version 4: a shot that dismounted, an
// activation on foot), so an older vedette still reads what it could
// understand. Version 5 (issue 28): the cavalry's reactions in the player's
// movement step, the `opportunity` and `charged` events
// (sims/solo/solo_react.hpp); a file without them keeps its version.
// Version 6 (issue 28): the cavalry's own charge as seed 003 writes it: the
// declaration's named target and its sight (L24, L34), a switch of target
// (L56): charge answers "target", "visible", "switch" and the charge
// record's target_unit, switched_from, refused_rule.
// Version 7: the player's move ends (`your_move`).
// Version 8: what a struck unit remembers (seed 003 L54). A unit struck by
// the player's charge before its own move (the player moved first, and it
// had not counter-charged or made an opportunity charge) ends the turn at
// halt, its gallop streak as the Actions Table's after() gives for a halt,
// not having run: as the engine's step_end. No new field: a file is
// written at version 8 once such a turn changed a unit's memory; a file of
// version 7 or older that holds one is read and played on with the earlier
// memory (the activation's pace, streak and running kept), as written.
inline constexpr int k_version = 8;

// A problem with an event against the session's state: a unit that has
// already acted, casualties beyond the figures, an undo with nothing to undo.
struct SessionError : std::runtime_error {
  explicit SessionError(const std::string& what, std::string key = {}) : std::runtime_error(what), field(std::move(key)) {}
  std::string field;  // the event's key it is about ("roll", "facts.casualties"), if any
};
// save() found the file changed by another program since it was read:
// nothing was written (`solo play` reloads and asks again).
struct SessionChangedError : SessionError {
  using SessionError::SessionError;
};

// What play may ask about a unit (the facts the session cannot know itself).
enum class Question : std::uint8_t { in_cover, enemy_in_range, enemy_flank_rear, retreated_from_melee, new_casualties };
inline constexpr std::size_t k_question_count = 5;
inline constexpr std::array<std::string_view, k_question_count> k_question_names{
    "in_cover", "enemy_in_range", "enemy_flank_rear", "retreated_from_melee", "new_casualties"};
inline constexpr std::array<std::string_view, k_question_count> k_question_labels{
    "in cover", "enemy in range", "enemy on flank or rear", "retreating from melee", "new casualties"};
inline std::string_view question_name(Question q) { return k_question_names[static_cast<std::size_t>(q)]; }
inline std::string_view question_label(Question q) { return k_question_labels[static_cast<std::size_t>(q)]; }
inline bool is_yes_no(Question q) { return q != Question::new_casualties; }

// rallying: must rally (the engine's "retreating"); routed (version 3): it
// flees and no longer acts.
enum class Morale : std::uint8_t { steady, shaken, rallying, routed };
inline constexpr std::array<std::string_view, 4> k_morale_names{"steady", "shaken", "rallying", "routed"};
inline std::string_view morale_name(Morale m) { return k_morale_names[static_cast<std::size_t>(m)]; }

enum class DiceSource : std::uint8_t { rolled, player };
inline constexpr std::array<std::string_view, 2> k_dice_source_names{"rolled", "player"};

inline constexpr std::array<std::string_view, 4> k_pace_adjust_names{"none", "no_gallop", "forced_walk", "after_charge"};

// One automated unit as created.
struct UnitSpec {
  std::string name;
  std::string type;  // a unit_types id of the ruleset
  bool raw = false;
  bool hero = false;
  int figures = 0;     // 1..k_max_figures
  std::string weight;  // light, medium or heavy (seed 003's charge table); "" = asked at a charge
  std::string weapon;  // version 3: a weapons id of the ruleset it shoots with; "" = none
};
inline constexpr int k_max_figures = 1000;
// Units in one session: each turn change and each undo costs a little per
// unit, and a hand-edited file of thousands of units would cost gigabytes.
inline constexpr std::size_t k_max_units = 100;

// Answers given so far this turn (booleans 0/1, new casualties a count).
struct Answers {
  std::array<std::optional<int>, k_question_count> v{};
  std::optional<int>& operator[](Question q) { return v[static_cast<std::size_t>(q)]; }
  const std::optional<int>& operator[](Question q) const { return v[static_cast<std::size_t>(q)]; }
  bool any() const {
    for (const auto& x : v)
      if (x) return true;
    return false;
  }
};

struct RfTermRecord {
  std::string id;
  int value = 0;
  std::string reason;
};

// One activation as decided and recorded: the facts it was decided on and
// the table's answer, in the words shown to the player. The record is what
// was said at the time; a later ruleset change does not rewrite it.
struct Activation {
  // Facts. The session knows hero, raw, pace, gallop streak, ran last turn
  // and casualties; the player answers the rest.
  bool hero = false, raw = false;
  Pace pace_before = Pace::halt;
  int gallop_streak_before = 0;
  bool ran_last_turn = false;
  // Seed 003: moved a charge move last turn, so normal speed now. Not
  // recorded by sessions written before it was enforced (nullopt).
  std::optional<bool> charged_last_turn;
  bool in_cover = false, enemy_in_range = false, enemy_flank_rear = false, retreated_from_melee = false;
  // Version 4: mounted infantry on foot (it dismounted to shoot). It mounts
  // again, its whole move (seed 001), when the table moves it; halted, it
  // stays on foot. Either way it neither moves nor charges this turn.
  bool on_foot = false;
  int new_casualties = 0;  // given with this activation (added before the RF)
  int casualties = 0;      // lost in all, after new_casualties
  int figures = 0;
  std::vector<Question> asked;  // what play asked (the rest was known or could not change the RF)
  // The table's answer.
  int rf = 0;
  std::vector<RfTermRecord> breakdown;
  std::string band;
  int roll = 0;
  DiceSource dice = DiceSource::rolled;
  std::optional<std::uint64_t> roll_index;  // rolled dice: which roll of the session
  std::optional<int> same_die_as;           // the event whose die this reuses
  std::string behaviour;                    // behaviour id
  std::string behaviour_text;
  Pace table_pace = Pace::halt;
  Pace pace = Pace::halt;
  PaceAdjust adjust = PaceAdjust::none;
  bool running = false;
  bool charge_possible = false;
  std::string instruction;
  std::string note;  // why the pace differs from the table's, or ""
  // Version 2: the table's cell says "(Charge?)" but a rule forbids a charge
  // now (seed 003: not on the first turn, only in good order): the rule in
  // words. charge_possible is then false.
  std::string charge_refused;
};

inline constexpr std::array<std::string_view, 3> k_side_names{"front", "flank", "rear"};

// A "(Charge?)" answered: declined, or resolved with seed 003's charge
// (engine/decision/charge.hpp), as shown to the player before and after the dice.
struct ChargeRecord {
  int activation = 0;  // the activation whose "(Charge?)" this answers
  bool declined = false;
  // What the player measured and said.
  std::string attacker;  // light, medium or heavy: the charging unit
  std::string move;      // its normal move ("50cm")
  std::string distance;  // to the target's nearest figure
  double bearing = 0;    // the target's direction off the unit's facing, degrees
  std::string defender;  // a defender class (k_defender_class_names)
  std::string side = "front";
  bool both_charging = false;
  bool pikes_facing = false;
  // Geometry.
  std::string max_range, min_distance;
  bool reaches = false, charge_bonus = false, morale_check = false;
  std::string forced_move;  // when it does not reach
  bool shaken = false;      // fell short: the unit becomes shaken
  // The defender's morale check.
  bool automatic = false;  // pikes facing: stands without dice
  int target = 0;          // natural 2D6 needed
  int stand_ways = 0;      // of 36
  bool rolled = false;     // dice were thrown
  std::array<int, 2> dice{};
  DiceSource dice_source = DiceSource::rolled;
  std::optional<std::uint64_t> roll_index;
  std::optional<int> same_dice_as;  // the charge event whose dice this reuses
  bool stands = false;
  std::string outcome;  // in words, as shown
  // Version 2: seed 003's charge initiation check, made before anything
  // else (L48: "If the unit fails this check, it cannot charge at any time
  // during the current turn"). Its dice come from the same source and roll
  // as the morale check's (rolled: dice 3 and 4 of that roll's stream).
  // Absent in charges recorded before it was enforced.
  std::optional<std::array<int, 2>> initiation_dice;
  int initiation_need = 0;
  bool initiation_passed = true;
  // Version 3: both charging with a target on horse, the charger's own
  // morale check (seed 003), after the defender's (rolled: dice 5 and 6 of
  // the roll's stream). A failure: it falls back and is `charger_morale`.
  std::optional<std::array<int, 2>> charger_dice;
  int charger_need = 0;
  bool charger_stands = true;
  std::optional<Morale> charger_morale;
  // Version 3: seed 003's terrain on the way as the player said it
  // (uphill, into_terrain, obstacle; "" = open), and at an obstacle the
  // second initiation check (rolled: dice 7 and 8 of the roll's stream).
  std::string path;
  std::optional<std::array<int, 2>> obstacle_dice;
  int obstacle_need = 0;
  bool obstacle_passed = true;
  // Version 4, optional rules the ruleset turns on (charge.fear_of_charge,
  // charge.infantry_square). Seed 001's Fear of Charge: the player's
  // infantry, charged by a move of charge_min_move or more and not in cover
  // `exempt` from it, takes a gut check (rolled: dice 9 and 10 of the
  // roll's stream, the first fear_of_charge.dice of them); failing, it
  // flees into cover within flee_distance if there is some (`refuge`): the
  // charge finds no one to strike and halts. Seed 004's Infantry Square:
  // the player's infantry formed square: no morale check; the melee is the
  // square's (square_melee).
  struct Fear {
    bool exempt = false;     // in cover good enough: no check
    std::vector<int> dice;   // the gut check's dice (empty when exempt)
    int need = 0;            // fear_of_charge.target
    bool passed = true;
    bool refuge = false;     // cover within flee_distance, as the player said
    bool evaded() const { return !exempt && !passed && refuge; }
  };
  std::optional<Fear> fear;
  bool square = false;
  // Version 6 (issue 28). Seed 003 L24: the player's unit the declaration
  // named as its target ("" when not named: `solo charge` without
  // --target, or a charge recorded before). L56: the declared target moved
  // out of reach and the charge went at another enemy within it instead:
  // the declared one (its name, "" if not named) and its distance then.
  // L34: a declaration refused because the target is not visible to the
  // unit's front rank (declined, with the rule's id).
  std::string target_unit;
  bool switched = false;
  std::string switched_from;
  std::string switched_from_distance;
  std::string refused_rule;
  bool needs_version_6() const { return !target_unit.empty() || switched || !refused_rule.empty(); }
  bool has_dice() const { return rolled || initiation_dice.has_value(); }
};

// One of the turn's later steps (version 3), walked by play after the
// units' activations, each through the engine's own rule
// (engine/procedures/table_rules.hpp): the initiative, a unit's shooting,
// the melee after a charge that stood, the end-of-turn morale (rout and
// rally). The automated side's dice are rolled (roll_index: the first
// dice of that roll's stream; a step redone after an undo reuses them,
// same_dice_as) or the player's (then only the count of hits or the total
// may be recorded).
struct StepRecord {
  // What the player said, checked when given: initiative "player_roll";
  // shooting "target" (no; mounted or foot, what it is, issue 30; yes: a
  // target whose kind was not said), "distance", "cover"; melee "player_hits"
  // (and against a square, version 4, "bounce": yes/no, its die's face);
  // rally "enemy_near".
  std::map<std::string, std::string> given;
  std::vector<int> dice;  // the automated side's dice, when known
  DiceSource dice_source = DiceSource::rolled;
  std::optional<std::uint64_t> roll_index;
  std::optional<int> same_dice_as;
  int need = 0;        // the score each die needs, or the 2D6 total
  int score = 0;       // hits (shooting, melee) or the total (initiative, rally)
  int casualties = 0;  // figures the automated unit lost in this step (melee)
  // initiative: cavalry | player (who moves first); shooting: shot | none;
  // melee: won | lost | tie, against a square bounced | repulsed (version
  // 4); rally: rallied | failed | no_rally | routed.
  std::string result;
  std::optional<Morale> morale;  // the unit's morale after, when the step set it
  bool fell_back = false;        // melee: it falls back (retreating from melee next turn)
  bool dismounted = false;       // shooting, version 4: mounted infantry dismounted to shoot (its whole move)
  // charged, version 5: the unit's counter-charge (seed 003 L100-L102):
  // "met" (its initiation check passed: the two met halfway), "barred" (it
  // failed: no charge this turn), "" none.
  std::string counter;
  std::string outcome;           // in words, as shown
};
// Version 5's reactions (sims/solo/solo_react.hpp) add what the player said
// about their unit: its name, what it did, its class and weight, whether it
// was charging the automated unit, which face is struck, the way, in sight,
// in the arc.
inline constexpr std::array<std::string_view, 17> k_step_given{
    "player_roll", "target",  "distance", "cover",    "player_hits", "enemy_near", "bounce", "mover",   "move",
    "defender",    "attacker", "charging", "side",     "path",        "in_sight",   "in_arc", "bonus"};

struct AnswerEvent {
  std::string unit;
  Question question = Question::in_cover;
  int value = 0;
};
struct CasualtiesEvent {
  std::string unit;
  int added = 0;  // may be negative: a correction
};
struct ActivateEvent {
  std::string unit;
  Activation a;
};
struct NextTurnEvent {};
struct UndoEvent {
  int target = 0;
};
struct RedoEvent {
  int target = 0;
};
struct RulesetEvent {  // the player accepted a changed ruleset
  std::string old_hash, new_hash;
};
struct SeedEvent {  // a new seed, before any die was rolled
  std::uint64_t old_seed = 0, new_seed = 0;
};
struct MoraleEvent {
  std::string unit;
  Morale morale = Morale::steady;
  std::string reason;
};
struct ChargeEvent {
  std::string unit;
  ChargeRecord c;
};
// One answer of play's charge form, saved as it is given (like AnswerEvent);
// the charge event that resolves the charge consumes them.
// Version 6 (issue 28): "target", the player's unit the declaration names
// (seed 003 L24), and "visible", whether its front rank sees it (L34), are
// asked with the declaration; "switch" (L56): the declared target moved out
// of reach and another enemy is within it: the charge goes at that one
// (the answer "yes" clears the target's answers, which are asked again for
// the new target; Session::apply).
inline constexpr std::array<std::string_view, 16> k_charge_fields{
    "charge", "target", "visible", "attacker", "move", "distance", "bearing", "defender", "side", "both_charging",
    "pikes_facing", "path", "switch", "fear_exempt", "refuge", "square"};
// The answers about the target itself, asked again after a switch.
inline constexpr std::array<std::string_view, 11> k_charge_target_fields{
    "target", "distance", "bearing", "defender", "side", "both_charging", "pikes_facing", "path", "fear_exempt", "refuge", "square"};
// A switch's answers kept in the draft (not fields: set by Session::apply).
inline constexpr std::string_view k_switched_from = "switched_from";
inline constexpr std::string_view k_switched_from_distance = "switched_from_distance";
struct ChargeAnswerEvent {
  std::string unit;
  std::string field;  // one of k_charge_fields
  std::string value;  // as the player gave it, checked
};
struct InitiativeEvent {
  StepRecord s;
};
struct ShootingEvent {
  std::string unit;
  StepRecord s;
};
struct MeleeEvent {
  std::string unit;
  StepRecord s;
};
struct RallyEvent {
  std::string unit;
  StepRecord s;
};
// Version 5 (issue 28, sims/solo/solo_react.hpp): an automated unit's
// opportunity charge at the player's unit that moved (seed 003 L90-L102),
// and an automated unit charged by the player's (L7, L20, L54).
struct OpportunityEvent {
  std::string unit;
  StepRecord s;
};
struct ChargedEvent {
  std::string unit;
  StepRecord s;
};
// Version 7: the player said their side's move is over this turn (seed 003
// step 3; the move is a step of the turn: solo::next_step).
struct YourMoveEvent {};
using EventBody = std::variant<AnswerEvent, CasualtiesEvent, ActivateEvent, NextTurnEvent, UndoEvent, RedoEvent,
                               RulesetEvent, SeedEvent, MoraleEvent, ChargeEvent, ChargeAnswerEvent, InitiativeEvent,
                               ShootingEvent, MeleeEvent, RallyEvent, OpportunityEvent, ChargedEvent, YourMoveEvent>;
inline constexpr std::array<std::string_view, 18> k_event_names{
    "answer",        "casualties", "activate", "next_turn", "undo",  "redo",    "ruleset", "seed",
    "morale",        "charge",     "charge_answer", "initiative", "shooting", "melee", "rally", "opportunity", "charged",
    "your_move"};
// The turn's later steps, in the order play walks them.
// (opportunity and charged, version 5: the reactions in the player's
// movement step, when the player says so.)
enum class TurnStep : std::uint8_t { initiative, shooting, melee, rally, opportunity, charged };
inline constexpr std::array<std::string_view, 6> k_turn_step_names{"initiative", "shooting", "melee", "rally", "opportunity", "charged"};

struct Event {
  int n = 0;     // 1-based position in the history
  int turn = 0;  // the session's turn when it happened
  EventBody body;
  Location where;  // in the file it was read from
  std::map<std::string, Location> field_where;  // keys as read ("roll", "facts.pace")
  std::string_view kind() const { return k_event_names[body.index()]; }
  // Undo takes back answers, casualties, activations, charges, turn
  // changes and morale; not undo/redo themselves, nor a ruleset or seed
  // change.
  bool undoable() const;
  const std::string* unit() const;  // the unit it is about, if any
};

// A unit's memory from turn to turn.
struct UnitMemory {
  int casualties = 0;
  Pace pace = Pace::halt;  // the pace it moved at when it last acted
  int gallop_streak = 0;   // turns in a row it has galloped
  bool ran_this_turn = false;
  bool ran_last_turn = false;
  bool retreated_from_melee = false;  // as last answered
  // Seed 003: "When a unit moves a charge move it must move at normal speed
  // on the following turn": a charge answered (not declined) this turn, and
  // so the pace limit of the next (combat.charge.next_turn_pace).
  bool charged_this_turn = false;
  bool charged_last_turn = false;
  // Mounted infantry on foot: it dismounted to shoot and has not mounted
  // since (seed 001: each takes its whole move).
  bool on_foot = false;
  Morale morale = Morale::steady;
  int acted_in_turn = 0;    // the last turn it was activated (0: never)
  int last_activation = 0;  // that activation's event number
  int charge_for = 0;       // the activation whose "(Charge?)" has been answered
  std::map<std::string, std::string> charge_draft;  // play's charge form so far
  Answers pending;          // answers known this turn before its roll (given, or known to the session)
  // The part of `pending` the player gave (answer events), for "already
  // answered" lines: a fall back the session saw (NextTurnEvent) is known,
  // not answered (issue 30). Not written in the memory section.
  Answers answered;
  // This turn's later steps (not written in the memory section: derived
  // from the history like the rest, and needed only within the turn).
  bool contact = false;         // its charge stood (or struck inside the minimum distance): melee follows
  bool charge_bonus = false;    // ...with the charge bonus
  bool square = false;          // ...against a square (version 4, seed 004)
  int charge_event = 0;         // its charge this turn, not declined (the event number)
  int shot_in_turn = 0;         // the turn it last had its shooting step
  int melee_in_turn = 0;
  int rally_in_turn = 0;
  bool fell_back_this_turn = false;  // fell back from a melee or a failed charge
  // Version 5's reactions (sims/solo/solo_react.hpp), within the turn:
  int reacted_in_turn = 0;  // made an opportunity charge or counter-charge: it has moved (seed 003 L92)
  int barred_in_turn = 0;   // failed an initiation check: no charge for the rest of the turn (L100)
  int struck_in_turn = 0;   // struck by a charge: no move, turn or change of frontage this turn (L54)
  int charged_by_in_turn = 0;  // the player charged it (one `charged` per unit per turn)
  // Version 8: struck (L54) in the player's move before its own move (the
  // player moved first; it had not reacted): it ends the turn at halt.
  int held_in_turn = 0;
};

struct State {
  int turn = 1;
  std::vector<UnitMemory> units;  // by roster position
  int initiative_turn = 0;   // the last turn whose initiative was rolled
  int first_this_turn = -1;  // who moves first this turn: 0 the cavalry, 1 the player
  int first_last_turn = -1;  // ...last turn (the tie-break), -1 unknown
  int your_move_turn = 0;    // the last turn whose player's move was said over (YourMoveEvent)
};

struct Header {
  std::string ruleset_path;  // as recorded: "builtin:default", or relative to the session's folder, or absolute
  std::string ruleset_hash;  // of the ruleset last accepted
  std::uint64_t seed = 0;
  bool physical_dice = false;
  // "" = the ruleset's own phrasing; else a solo module's name
  // (sims/solo/solo_module.hpp: "asl", seed 000's terms). Written only when set.
  std::string module;
  std::vector<UnitSpec> units;
};

class Session {
 public:
  // A new session, not yet written.
  Session(std::filesystem::path path, Header header);
  // Reads and checks a session file: a file that is not YAML, not a
  // session, hand-edited into something inconsistent, or from a newer
  // version is a LoadError located by line and column.
  static Session load(const std::filesystem::path& path);

  // Writes the file atomically. Refuses (SessionChangedError) if the file on disk
  // changed since it was read or last written by this object, so two
  // programs playing the same game cannot silently lose each other's moves.
  // `overwrite` allows replacing a file this object did not read.
  void save(bool overwrite = false);
  // The text save() writes.
  std::string text() const;
  // The version text() writes: needed_version(), or 8 when a unit struck
  // before its own move ended a turn with its memory corrected (seed 003
  // L54, Session::held_pace()).
  int version() const;
  // Whether a unit struck before its own move ends the turn at halt
  // (version 8's memory): a new session, a file of version 8, and a file of
  // an older version whose history never needed it; false for an older
  // file whose history holds such a turn (it plays on as it was written).
  bool held_pace() const { return held_pace_; }
  // A session replaying another's history (replay_steps) reads it with the
  // same memory of a struck unit as that session.
  void replays(const Session& other) { held_pace_ = other.held_pace_; }
  // Whether the file on disk differs from what this object last read or
  // wrote (another command changed it); false if it cannot be read.
  bool changed_on_disk() const;

  const std::filesystem::path& path() const { return path_; }
  const Header& header() const { return header_; }
  Header& header() { return header_; }  // ruleset hash and seed, with an event saying why
  const State& state() const { return state_; }
  const std::vector<Event>& history() const { return history_; }
  const Event& event(int n) const { return history_.at(static_cast<std::size_t>(n - 1)); }

  // Appends an event at the current turn after checking it against the
  // state (SessionError if it does not fit); does not save.
  const Event& append(EventBody body);

  // Roster lookups: exact name first, then a unique case-insensitive match.
  std::optional<std::size_t> find_unit(std::string_view name) const;
  std::size_t unit_index(const std::string& name) const;  // must exist
  const UnitMemory& memory(std::size_t i) const { return state_.units[i]; }
  int figures_left(std::size_t i) const { return header_.units[i].figures - state_.units[i].casualties; }
  // Why unit i may not be activated now ("" when it may): it acted this
  // turn, has no figures left, or routed. The one answer for the session's
  // check of an activation, `solo status` and the web page's cards.
  std::string why_cannot_act(std::size_t i) const;

  // Undo/redo: the step each would take back or bring back (0: none), and
  // how many are available.
  int undo_target() const { return done_.empty() ? 0 : done_.back(); }
  int redo_target() const { return redo_.empty() ? 0 : redo_.back(); }
  std::size_t undo_depth() const { return done_.size(); }
  std::size_t redo_depth() const { return redo_.size(); }
  // Whether event n is in effect now (undoable events only; others: true).
  bool in_effect(int n) const;

  // The roll counter: the next roll's number. Never goes down.
  std::uint64_t next_roll() const { return next_roll_; }
  // The first rolled die of (unit, turn), if any, as its event number.
  std::optional<int> die_for(std::size_t unit, int turn) const;
  // The player's last physical die for (unit, turn), if any.
  std::optional<int> player_die_for(std::size_t unit, int turn) const;
  // The first rolled charge dice of (unit, turn), if any, as the charge
  // event number: a charge after an undo reuses them.
  std::optional<int> charge_dice_for(std::size_t unit, int turn) const;
  // Whether this unit's activation this turn offers "(Charge?)" and it has
  // not been answered yet.
  bool charge_pending(std::size_t unit) const;
  // The first rolled dice of a turn step for (unit, turn) (initiative: unit
  // k_no_step_unit), as its event number: the step after an undo reuses them.
  static constexpr std::size_t k_no_step_unit = static_cast<std::size_t>(-1);
  std::optional<int> step_dice_for(TurnStep step, std::size_t unit, int turn) const;

 private:
  void apply(const Event& e);
  void apply_to_state(const Event& e);
  void check_dice(const Event& e, const Activation& a);
  void check_charge_dice(const Event& e, const ChargeRecord& c);
  void check_step_dice(const Event& e, TurnStep step, std::size_t unit, const StepRecord& r);

  std::filesystem::path path_;
  Header header_;
  std::vector<Event> history_;
  State state_;
  // The state before step done_[i] is found from checkpoints_[i / 32] (the
  // state before done_[i / 32 * 32]) by replaying the steps between: memory
  // for a long game's undo grows by one state per 32 steps, not per step.
  static constexpr std::size_t k_checkpoint_every = 32;
  State state_before(std::size_t i);
  void push_done(int n, State before);
  void set_in_effect(int n, bool on);
  std::vector<int> done_;          // undoable events in effect, oldest first
  std::vector<State> checkpoints_;  // the state before done_[0], done_[32], done_[64], ...
  std::vector<bool> in_effect_;     // by event number: in done_
  std::vector<int> redo_;       // undone events that redo would bring back, last on top
  std::uint64_t next_roll_ = 0;
  std::map<std::pair<std::size_t, int>, int> first_die_;  // (unit, turn) -> event
  std::map<std::pair<std::size_t, int>, int> player_die_;
  std::map<std::pair<std::size_t, int>, int> first_charge_dice_;
  std::map<std::tuple<int, std::size_t, int>, int> first_step_dice_;  // (step, unit, turn) -> event
  std::optional<std::string> disk_text_;  // what the file held when read or last written
  bool held_pace_ = true;      // see held_pace()
  bool held_changed_ = false;  // a turn's end held a struck unit whose memory that changed (version 8's mark)
};

// The D6 of roll number `index` of a session with this seed.
int solo_roll(std::uint64_t seed, std::uint64_t index);
// The 2D6 of roll number `index` (a charge's morale check): the first two
// dice of the same stream.
std::array<int, 2> solo_roll_2d6(std::uint64_t seed, std::uint64_t index);
// The four dice of roll number `index` a charge uses: the morale check's
// 2D6 (as solo_roll_2d6) then the initiation check's.
std::array<int, 4> solo_roll_charge(std::uint64_t seed, std::uint64_t index);
// The first `n` dice of roll number `index` (a turn step's dice).
std::vector<int> solo_roll_dice(std::uint64_t seed, std::uint64_t index, int n);
// A rolled charge takes its named dice (engine/procedures/charge_procedure.hpp)
// from one roll's stream of ten, two by two, in the order the versions
// added them: the defender's morale check (dice 1-2), the initiation check
// (3-4), the charger's own check (5-6), the obstacle's check (7-8), the gut
// check (9-10). -1: a slot the session never rolls (the engine's only).
inline constexpr int k_charge_roll_dice = 10;
constexpr int charge_roll_offset(ChargeRoll r) {
  switch (r) {
    case ChargeRoll::defender_morale: return 0;
    case ChargeRoll::initiation: return 2;
    case ChargeRoll::charger_morale: return 4;
    case ChargeRoll::obstacle_check: return 6;
    case ChargeRoll::gut_check: return 8;
    case ChargeRoll::counter_initiation:
    case ChargeRoll::pike_loss: break;
  }
  return -1;
}
// The version a session with this header and history is written at (1 to k_version).
int needed_version(const Header& header, const std::vector<Event>& history);
// The step and unit an event is, if it is a turn step.
std::optional<TurnStep> turn_step_of(const EventBody& body);
const StepRecord* step_record(const EventBody& body);

// "lancers.vedette.yaml" for "lancers"; a path with an extension unchanged.
std::filesystem::path session_path(const std::string& game);

// Checks that text is valid UTF-8 with no control characters (names and
// paths written to the session must read back).
bool printable_utf8(std::string_view s);

}  // namespace vedette::solo
