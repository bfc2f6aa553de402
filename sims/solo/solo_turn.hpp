#pragma once
// One automated unit's turn in a solo game, with the ruleset: which
// questions the risk factor still needs, the RF from the session's memory
// and the answers, the die (reused after an undo), and the recorded
// activation. Shared by `vedette solo play` and the single commands.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "engine/decision/charge.hpp"
#include "engine/decision/risk_factor.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/procedures/charge_odds.hpp"
#include "engine/procedures/melee_procedure.hpp"
#include "engine/procedures/table_rules.hpp"
#include "sims/solo/session.hpp"

namespace vedette::solo {

// ---------------------------------------------------------------- ruleset

// The ruleset's fingerprint: FNV-1a 64 (engine/core/content_hash.hpp) over the
// bytes of every file it was loaded from, base first (`extends:` chains
// included), each preceded by its length in decimal and a colon. A built-in
// ruleset hashes its embedded text, so a new vedette with different
// built-in tables is noticed too. "fnv1a64:0123456789abcdef".
std::string ruleset_hash(const Ruleset& r);

// How a ruleset path is recorded: "builtin:NAME" as is; a file inside the
// session's folder (or below it) relative to that folder, so the two can be
// moved together; any other file as an absolute path.
std::string record_ruleset_path(const std::filesystem::path& session, const std::string& given);
// The path to load for a recorded one.
std::string resolve_ruleset_path(const std::filesystem::path& session, const std::string& recorded);

struct SessionRules {
  RulesetPtr rules;
  std::string path;   // as loaded
  std::string hash;   // now
  bool changed = false;  // differs from the session's recorded hash
};
// Loads the session's ruleset (LoadError if it is missing or broken).
SessionRules load_session_rules(const Session& s);

// A unit type id as the user may write it: `mounted-infantry` names
// `mounted_infantry`.
std::string normalise_type(std::string id);

// ------------------------------------------------------------- questions

// The situation from the session's memory and the answers so far; a
// question not answered counts as "no" / 0 new casualties.
Situation situation(const UnitSpec& spec, const UnitMemory& m, const Answers& a);

// Whether the answer to q can still change the RF, whatever the other
// unanswered questions turn out to be. A question that cannot is not asked:
// e.g. "in cover?" for a unit that moved at canter (the same -1), or
// "retreating from melee?" for one that ran last turn (the same +3).
bool question_matters(const Ruleset& r, const UnitSpec& spec, const UnitMemory& m, int figures_left,
                      const Answers& a, Question q);
// The answers the session knows without asking, added to `a`: seed 002's
// "retreating as a result of melee" for a unit that answered (or was
// found) retreating and has not rallied since (the engine's rule).
Answers derived_answers(const UnitMemory& m, int turn, Answers a);
// What the session knows of a unit's facts this turn without a further
// question: the answers given, the derived ones, and "not retreating from
// melee" on turn 1 or in good order.
Answers known_answers(const UnitMemory& m, int turn);
// Once next_question says nothing more is needed: the facts it did not ask,
// as their answers cannot change the RF now (cover when moving fast already
// counts the same -1; issue 30: play says so in a word).
std::vector<Question> unasked_questions(const UnitMemory& m, int turn);
// A "(Charge?)" still to be made this turn: pending, and the unit not held
// since by your charge (seed 003 L54: struck, it may not move for the rest
// of the turn, so its declared charge is not made; the session still reads
// files that answered one).
inline bool charge_to_make(const Session& s, std::size_t unit) {
  return s.charge_pending(unit) && s.memory(unit).struck_in_turn != s.state().turn;
}
// The next question play must ask, in the order of k_question_names, or
// nullopt when the RF is known. `turn`: the session's turn; on turn 1 no
// melee has been fought, so "retreating from melee?" is not asked (no).
std::optional<Question> next_question(const Ruleset& r, const UnitSpec& spec, const UnitMemory& m, int figures_left,
                                      int turn);

// "Lancers'", "Hussar's".
std::string possessive(const std::string& name);

// The prompt for a question: "Is Lancers entirely in cover?"
std::string question_text(const Ruleset& r, Question q, const std::string& unit);

// ---------------------------------------------------------------- deciding

// The die a rolled activation of this unit uses now: the one already rolled
// for it this turn (an undone activation's), or the session's next roll.
struct Die {
  int roll = 0;
  DiceSource dice = DiceSource::rolled;
  std::optional<std::uint64_t> roll_index;
  std::optional<int> same_die_as;
};
Die session_die(const Session& s, std::size_t unit);

// Whether a rule forbids this unit a charge now, though its table cell says
// "(Charge?)": the engine's own gates (engine/procedures/table_rules.hpp),
// asked with the session's turn and the unit's remembered morale.
std::optional<ChargeRefusal> charge_refusal(const Ruleset& r, const Session& s, std::size_t unit);
// The same gates with the declared target's sight (seed 003 L34: "the
// declared target unit must be visible to the front rank of the charging
// unit"): charge_gate's answer with ChargeGateInput::target_visible.
std::optional<ChargeRefusal> target_refusal(const Ruleset& r, const Session& s, std::size_t unit, bool target_visible);

// The activation for these answers and this die: RF, band, behaviour, pace
// (after the gallop limit and the no-gallop rule), instruction.
// `new_casualties` are added before the RF; `answers` unanswered count "no".
Activation decide_activation(const Ruleset& r, const Session& s, std::size_t unit, const Answers& answers,
                             int new_casualties, const Die& die);

// ----------------------------------------------------------------- charge

// What the player says about a charge (seed 003, engine/decision/charge.hpp).
struct ChargeInputs {
  AttackerWeight attacker = AttackerWeight::light;
  Length move;      // the charging unit's normal move
  Length distance;  // to the near edge of the target's nearest figure
  double bearing = 0;  // to the part of the target nearest the facing line
  // (seed 003 L40, table_charge_geometry: that figure's base must lie
  // entirely within range; a target partly in the arc is in it)
  DefenderClass defender = DefenderClass::peasants;
  ChargedOn side = ChargedOn::front;
  bool both_charging = false;
  bool pikes_facing = false;
  ChargePath path = ChargePath::open;  // seed 003's terrain on the way (with_path)
  // Optional rules (version 4), asked only when the ruleset turns them on
  // and the target is foot not charging too: seed 001's Fear of Charge
  // (in cover exempt from the gut check; cover within flee_distance to
  // flee to) and seed 004's Infantry Square (the player's unit forms one).
  bool fear_exempt = false;
  bool refuge = false;
  bool square = false;
  // Version 6 (issue 28): the player's unit the declaration named (seed 003
  // L24; "" = not named), and L56's switch: the declared target moved out
  // of reach and the charge goes at this one, another enemy within reach,
  // instead; `switched_from` names the declared one ("" = not named), at
  // `switched_from_distance`. They change nothing of the charge's geometry
  // or dice: the answers above are the new target's.
  std::string target_unit;
  bool switched = false;
  std::string switched_from;
  Length switched_from_distance;
};

// Everything known before the dice: range, minimum distance, whether it
// reaches, the number the defender needs and its exact chance to stand.
struct ChargePreview {
  ChargeGeometry geometry;
  MoraleTarget target;
  int stand_ways = 0;  // of 36
  bool needs_dice = false;
  // Seed 003: "if both units are charging, both must check morale": a
  // counter-charging target on horse makes the charger check too (its row
  // its own horse weight, the target's weight its column, front, both
  // charging), after the defender, whatever the defender rolled. A
  // counter-charging target has turned to face: it is charged in front.
  bool charger_checks = false;
  MoraleSituation charger_situation;
  MoraleTarget charger_target;
  int charger_stand_ways = 0;
  // Optional rules: whether the ruleset's Fear of Charge gut check applies
  // (the charge move long enough, the infantry not exempt), and whether the
  // target may form square / did.
  bool fear_may_apply = false;  // before asking about cover: the rule is on and the move long enough
  bool fear_check = false;      // with the answers: the gut check is taken
  Fraction gut_pass;            // its chance to pass
  bool square_allowed = false;
  bool square = false;
};
ChargePreview preview_charge(const Ruleset& r, const ChargeInputs& in);

// The charge's normal move (seed 003's "movement allowance"), as the
// engine's Battle::charge_allowance gives it: the top of the pace the unit
// moves at this turn (limited as any pace), or of the walk when the table
// halted it or it has not acted this turn (seed 003 L42: a halted unit
// charges 1.5 times its walk), or always the walk when
// combat.charge.allowance is walk.
Length default_charge_move(const Ruleset& r, const Session& s, std::size_t unit);

// The 2D6 a rolled charge uses now: the dice already rolled for this unit's
// charge this turn (before an undo), or the session's next roll.
struct ChargeDice {
  std::array<int, 2> dice{};        // the defender's morale check
  std::array<int, 2> initiation{};  // the charger's initiation check (seed 003 L48)
  std::array<int, 2> charger{};     // the charger's own morale check, both charging (rolled: dice 5 and 6)
  std::array<int, 2> obstacle{};    // the second initiation check at an obstacle (rolled: dice 7 and 8)
  std::array<int, 2> gut{};         // seed 001's gut check, the player's infantry (rolled: dice 9 and 10)
  DiceSource source = DiceSource::rolled;
  std::optional<std::uint64_t> roll_index;
  std::optional<int> same_dice_as;
};
ChargeDice session_charge_dice(const Session& s, std::size_t unit);

// The player's charge dice in the rules' order, each read only when the
// charge gets that far: seed 003's initiation check, at an obstacle the
// second initiation check (L68), seed 001's gut check (optional rule), then
// the defender's morale check (with the charger's own, both charging).
// Given the dice entered so far (nullopt / empty: not yet), where the charge
// stands: play, `solo charge` and the web page ask the next dice from it.
struct ChargeProgress {
  bool started = false;         // the initiation check passed
  bool at_obstacle = false;     // ...and an obstacle on the way calls for a second check
  bool past_obstacle = false;   // started, and past the obstacle if there is one
  bool to_gut = false;          // ...and the player's infantry takes the gut check
  bool fled = false;            // it failed the gut check with cover to flee to: the charge halts
  bool to_morale = false;       // the defender's morale dice are read
};
// The charge as the table says it, in the terms of the charge's procedure
// (engine/procedures/charge_procedure.hpp): play, `solo charge`, the web
// page and the exact odds all walk that one procedure.
TableCharge table_charge(const ChargeInputs& in, const ChargePreview& pv);
// The dice the player (or the session) gave so far, by the procedure's slots.
struct ChargeSlots {
  std::optional<std::array<int, 2>> initiation, obstacle, defender, charger;
  std::vector<int> gut;
};
// The procedure walked with the table's answers and those dice: where it
// stopped (`next`: the dice it asks for next, or done) and what happened.
struct ChargeWalk {
  ChargeProcedure procedure;
  ChargeProcedure::Need next;
  // It asked for these dice (given or not).
  bool reached(ChargeRoll slot) const;
};
ChargeWalk walk_charge(const Ruleset& r, const ChargeInputs& in, const ChargePreview& pv, const ChargeSlots& dice);

// A session record the charge's procedure does not give (replay_charges).
struct ReplayError : LoadError {
  using LoadError::LoadError;
};
// Replays every charge in the session's history on the charge's procedure
// with its recorded answers and dice, and refuses (LoadError at the event's
// field: ReplayError) a record the procedure does not give: a check recorded as passed
// that its dice fail, dice for a step the charge never reaches, a step it
// reaches without its dice. load_session_rules() calls it.
void replay_charges(const Session& s, const Ruleset& r);
// The same for the rest of the turn (docs/architecture.md): walks the
// history on a copy of the session, and at each initiative, shooting, melee,
// rally and reaction record replays its step (resolve_initiative,
// resolve_shooting, resolve_melee and resolve_square_melee, resolve_rally,
// resolve_opportunity and resolve_charged: their procedures) on the state
// just before it, with the recorded answers and dice, and refuses
// (ReplayError at the record's field) a result, a score, casualties, a
// fall-back, a morale or a counter-charge the step does not give (not a dismount:
// files before version 4 said it in words only). load_session_rules()
// calls it.
void replay_steps(const Session& s, const Ruleset& r);

// The player's own dice for a charge, asked in the procedure's order and
// only when it will read them: `ask(slot, n)` returns that slot's n dice
// (the front asks the player, or reads its flags, or refuses).
ChargeDice player_charge_dice(const Ruleset& r, const ChargeInputs& in, const ChargePreview& pv,
                              const std::function<std::vector<int>(ChargeRoll, int)>& ask);

ChargeProgress charge_progress(const Ruleset& r, const ChargeInputs& in, const ChargePreview& pv,
                               const std::optional<std::array<int, 2>>& initiation,
                               const std::optional<std::array<int, 2>>& obstacle, const std::vector<int>& gut);
// The total of the gut check's dice (the ruleset's fear_of_charge.dice of them).
int gut_total(const Ruleset& r, const std::vector<int>& gut);

// The record of the charge: first the charger's initiation check (seed 003
// L48; the "(Charge?)" is the unit's declaration, so no -2), then, if it
// passes, the charge; the morale dice are used only if the preview needs
// them.
ChargeRecord resolve_charge(const Ruleset& r, const Session& s, std::size_t unit, const ChargeInputs& in,
                            const ChargeDice& dice);

// ------------------------------------------------- the turn's later steps
//
// After the activations (step 1, the charge declarations), play walks the
// rest of the seed turn sequence (docs/turn-sequence.md), each through the
// engine's own rule (engine/procedures/table_rules.hpp): initiative, the
// charges (above), shooting, melee, morale and rally. The player's units
// stay the player's: Vedette asks only the facts it needs about them.

// The dice a rolled step uses now: those already rolled for it this turn
// (before an undo), or the session's next roll; `n` dice.
struct StepDice {
  std::vector<int> dice;
  DiceSource source = DiceSource::rolled;
  std::optional<std::uint64_t> roll_index;
  std::optional<int> same_dice_as;
};
StepDice session_step_dice(const Session& s, TurnStep step, std::size_t unit, int n);
// The player's own dice for a step (no roll index).
StepDice player_dice(std::vector<int> dice);

// Charges the automated side declared this turn (offers answered yes).
int charges_declared(const Session& s);
// Seed 003's initiative: the cavalry's dice (combat.initiative.dice) plus
// charge.declaring.initiative_modifier per declared charge, against the
// player's total (their dice with their own modifier); first_to_move's
// tie-break with the session's memory of last turn.
StepRecord resolve_initiative(const Ruleset& r, const Session& s, int player_total, const StepDice& cavalry);

// Whether the unit has a shooting step this turn, and with what: the
// weapon (UnitSpec::weapon), on foot (mounted infantry that halted
// dismounts, combat.dismount.on_halt, seed 002: it may never shoot
// mounted), its reach. `why_not` says why not, in words.
struct ShootingChance {
  const Weapon* weapon = nullptr;
  bool on_horse = true;
  bool dismounts = false;
  bool moving = false;  // moved mounted this turn: seed 002's front-and-left arc
  Length reach;
  std::string why_not;
};
ShootingChance shooting_chance(const Ruleset& r, const Session& s, std::size_t unit);
// What a shot asks of its target before its hits fall (seed 002 L35: a hit
// on a mounted figure is on the horse or the rider), and the question's
// help: the words `solo play` and the web page both show.
std::string shot_target_question();
std::string shot_target_help();
// The shot at the nearest enemy it can see, at this distance and cover
// (plan_shot); nullopt when out of reach.
std::optional<ShotPlan> solo_shot(const Ruleset& r, const Session& s, std::size_t unit, Length distance, bool cover);
// The record: no target (target false), or the shot with the dice (rolled:
// their faces; the player's: `player_hits` only). `mounted`: whether the
// target is mounted, for the casualty advice (nullopt: not said).
StepRecord resolve_shooting(const Ruleset& r, const Session& s, std::size_t unit, bool target, Length distance,
                            bool cover, const StepDice& dice, std::optional<int> player_hits,
                            std::optional<bool> mounted = std::nullopt);
// "Remove 2 figures from WHOM" and, for a mounted target, where each hit
// falls (seed 002 L35, supplement.hits_on_mounted); nullopt: the target's
// kind is not known, so the advice says "if it is mounted" (issue 30).
std::string casualty_advice(const Ruleset& r, int hits, const std::string& whom, std::optional<bool> mounted);

// The melee after the unit's charge (seed 003, combat.melee): its dice
// and the score each needs (melee_modifier: the charge bonus), then the
// round with the hits the player's unit scored on it.
struct MeleeSide {
  int dice = 0;
  int modifier = 0;
  int need = 0;
};
MeleeSide solo_melee_side(const Ruleset& r, const Session& s, std::size_t unit);
// The melee procedure (engine/procedures/melee_procedure.hpp) as this
// unit's melee stands, given the player's side: its hits, and against a
// square what the square's first dice showed (read_square_faces, engine/
// procedures/melee_procedure.hpp; std::out_of_range when the hits are more
// than the dice that did not bounce).
// It then waits for the cavalry's dice (next() says how many) or is done.
// The automated unit is the attacker (its charge stood, or against your
// square), or the defender when your unit charged it and it stood (seed
// 003 L54), as in the engine.
MeleeProcedure solo_melee(const Ruleset& r, const Session& s, std::size_t unit, int player_hits, const SquareFaces& square = {});
StepRecord resolve_melee(const Ruleset& r, const Session& s, std::size_t unit, int player_hits, const StepDice& dice,
                         std::optional<int> own_hits);
// Against a square (seed 004, the player's infantry formed square at the
// charge): the square's die first (what it showed: read_square_faces), its
// hits, then the cavalry's at most max_battle_dice dice; the engine's
// square_melee() says what follows.
StepRecord resolve_square_melee(const Ruleset& r, const Session& s, std::size_t unit, const SquareFaces& square, int square_hits,
                                const StepDice& dice, std::optional<int> own_hits);
// Seed 001's gut check's need in words: "7+" or "at most 7".
std::string gut_need_text(const ChargeRules& r);

// The end-of-turn morale step: routs (no question), or a rally for a shaken
// or rallying unit (2D6, only with no enemy within rally_enemy_clear).
enum class RallyNeed { none, routs, rally };
RallyNeed rally_need(const Ruleset& r, const Session& s, std::size_t unit);
StepRecord resolve_rally(const Ruleset& r, const Session& s, std::size_t unit, bool enemy_near, const StepDice& dice);

// What comes next in the seed turn sequence (docs/turn-sequence.md) at the
// table, found from the session alone: 1. each unit's activation (its
// questions, then the roll), its "(Charge?)" offer (the declaration) right
// after its roll; 2. the initiative; 3. the declared charges; 4. shooting;
// 5. melee; 6. morale and rally; 7. the next turn. `solo play`, `solo
// status --json` and the web page walk the same order.
struct Step {
  enum class Kind { question, roll, charge, initiative, your_move, shooting, melee, rally, next_turn, game_over } kind = Kind::game_over;
  std::size_t unit = 0;
  Question question = Question::in_cover;
};
inline constexpr std::array<std::string_view, 10> k_step_kind_names{
    "question", "roll", "charge", "initiative", "your_move", "shooting", "melee", "rally", "next_turn", "game_over"};
Step next_step(const Session& s, const Ruleset& r);
// The step in a player's words, one wording for every front (`solo play`'s
// quit, `solo status` and the commands' "Next:", the page's "left this
// turn"): "Lancers' activation", "Lancers' charge", "the initiative", "your
// move", "Hussars' shooting", "... melee", "... morale", "the next turn",
// "nothing: every automated unit is routed or destroyed".
std::string step_words(const Session& s, const Step& st);
// Whether a "(Charge?)" is still being declared (step 1): not answered, or
// answered yes without its target named and its sight answered (version 6,
// seed 003 L24, L34; asked again after a switch of target, L56).
bool declaration_open(const std::map<std::string, std::string>& draft);

// The charge form, in `solo play`'s order (the web page asks the server the
// same): the next field of k_charge_fields still to ask given the answers
// so far (a unit's charge_draft, or the page's answers over it), or "" when
// the form is complete. The declaration's target and sight come with the
// "(Charge?)" yes (seed 003 L24, L34); "switch" only when the target
// measured does not reach (L56); the optional rules (seeds 001, 004) only
// where the ruleset turns them on and they can apply.
std::string next_charge_field(const Ruleset& r, const Session& s, std::size_t unit,
                              const std::map<std::string, std::string>& draft);
// The form's answers as the charge's inputs (a SessionError naming the
// answer that does not read).
ChargeInputs draft_charge_inputs(const Ruleset& r, const Session& s, std::size_t unit,
                                 const std::map<std::string, std::string>& draft);
// The declaration's and the switch's questions in the table's words, with
// what "?" says of each: "charge" (the offer: an enemy in its arc, L40),
// "target" (L24; after a switch, the new target), "visible" (L34),
// "switch" (L56). Empty for the other fields.
struct ChargeFieldWords {
  std::string question, help;
};
ChargeFieldWords charge_field_words(const Ruleset& r, const Session& s, std::size_t unit, const std::string& field,
                                    const std::map<std::string, std::string>& draft);
// Seed 003 L40's arc (charge.arc_degrees either side of the facing) in words
// a player checks with the figures (issue 30): at 45 degrees, "in front of
// NAME's front edge, no further out to the side of that edge than it is in
// front of it"; other angles in degrees.
std::string charge_arc_words(const Ruleset& r, const std::string& name);

// The prompts of the turn's steps, in the player's words (play and the
// web page ask the same).
std::string initiative_question(const Ruleset& r);
std::string shooting_question(const Ruleset& r, const Session& s, std::size_t unit);
// What `?` says on that question: the target and the arc in words.
std::string shooting_help(const Ruleset& r, const Session& s, std::size_t unit);
std::string melee_intro(const Ruleset& r, const Session& s, std::size_t unit);
std::string rally_question(const Ruleset& r, const Session& s, std::size_t unit);

// One line per unit for the end of the turn: figures, morale, pace, what
// limits it next turn.
std::string turn_summary(const Ruleset& r, const Session& s, std::size_t unit);

// The player's language: `text` without the citations of seed rules
// ("(seed 003)", "(seed 003, per ...", "..., seed 001)") and of YAML keys
// ("(switches.no_gallop_pace)"). Play's main lines and the web page show
// text through it; `solo log`, `--json` and `--verbose` keep the citations.
// Only wording changes: no rule is decided here.
std::string plain_words(const std::string& text);


// Parsing the charge's answers (play's form, the `solo charge` flags).
// Each returns nullopt and sets `why` when the text is not acceptable.
std::optional<AttackerWeight> parse_attacker(const std::string& text, std::string& why);
std::optional<DefenderClass> parse_defender(const std::string& text, std::string& why);
// The same in the ruleset's vocabulary (issue 30): a class's key, a part of
// its text ("Levies"), one of its words ("line infantry"), or an unambiguous
// beginning of any; an unknown word lists the ones accepted.
std::optional<DefenderClass> parse_defender(const Ruleset& r, const std::string& text, std::string& why);
// The classes in the ruleset's words, for a question: "Peasants; Light
// Foot, Levies; ... or Heavy Horse".
std::string defender_choices(const Ruleset& r);
// A unit type in the ruleset's vocabulary (issue 30): each comma-separated
// part of its name, each of its `words` (unit_types.ID.words), its id
// ("mounted-infantry"), in that order.
std::vector<std::string> unit_type_words(const Ruleset& r, const UnitType& t);
// The type's id for any of those words (case, '-' and '_' aside) or an
// unambiguous beginning of one; an unknown word lists the accepted ones,
// with a did-you-mean.
std::optional<std::string> parse_unit_type(const Ruleset& r, const std::string& text, std::string& why);
// Who may stand a charge with pikes facing it (seed 003 L18), in the
// ruleset's words: charge.morale.pikes_words, or the seed's own ("Swiss or
// Landsknechte with pikes or pole arms").
std::string pikes_words(const Ruleset& r);
std::optional<ChargedOn> parse_side(const std::string& text, std::string& why);
std::optional<ChargePath> parse_path(const std::string& text, std::string& why);
// A length with its unit, or a bare number in the ruleset's units.
std::optional<Length> parse_table_length(const Ruleset& r, const std::string& text, bool positive, std::string& why);
std::optional<double> parse_bearing(const std::string& text, std::string& why);

}  // namespace vedette::solo
