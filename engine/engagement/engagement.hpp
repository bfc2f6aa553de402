#pragma once
// Engagement: one game of a scenario, played turn by turn by the sequence in
// docs/turn-sequence.md (orders and charge declarations, initiative,
// movement with charges, shooting, melee, morale and rally, end of turn).
// An engagement is (Scenario, seed, index): its dice come from
// make_stream(seed, index, subsystem), one stream per subsystem, so an extra
// roll in one subsystem never shifts another's. Events are built only when a
// Recorder is attached; the Outcome is always kept.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engagement/battle.hpp"
#include "engine/procedures/charge_procedure.hpp"
#include "engine/procedures/melee_procedure.hpp"
#include "engine/core/dice.hpp"
#include "engine/engagement/policy.hpp"
#include "engine/core/record.hpp"
#include "engine/engagement/scenario.hpp"
#include "engine/modules/blocks/seed004.hpp"

namespace vedette {

// What a charge from `charger` on `target` would be now, at this pace: seed
// 003's geometry (engine/decision/charge.hpp: range 1.5x the allowance, minimum
// distance, 45-degree arc, after a free preliminary turn costing at most 3in
// at the outer flank) plus its terrain rules (no charging uphill, not into
// special terrain, terrain paid out of the charge move). Bots ask it before
// declaring; the engine asks it again when the charge is made.
struct ChargeProspect {
  ChargeGeometry geometry;  // from charge_geometry()
  Length allowance;     // seed 003's "movement allowance" (combat.charge.allowance)
  Length distance;      // front to front
  Length max_range;
  Length min_distance;
  double turned_deg = 0;   // the free preliminary turn toward the target
  double bearing_deg = 0;  // target off the charger's facing after that turn
  bool in_range = false;
  bool in_arc = false;
  bool uphill = false;          // seed 003: cannot move uphill and charge in the same turn
  bool target_in_terrain = false;  // seed 003: the target may not be in special terrain
  bool path_affordable = true;  // seed 003: terrain and obstacles paid out of the charge move
  // Seed 003 L64: where the path last leaves special terrain, measured back
  // from contact (0 if it never enters it), and whether that is inside the
  // minimum distance (then the charge may not be made).
  Length emerges_at;
  bool emerges_too_close = false;
  // Seed 003 L68: the path crosses an obstacle (fence, hedge) this far out.
  bool crosses_obstacle = false;
  Length obstacle_at;
  bool reaches = false;         // all of the above allow contact
  bool charge_bonus = false;    // contact after more than the minimum distance
  Length forced_move;           // out of reach: still moves this far forward
  bool shaken_if_short = true;  // ...and becomes shaken
};
ChargeProspect charge_prospect(const Battle& b, std::size_t charger, std::size_t target, Pace pace);

// A necessary condition of charge_prospect(b, charger, target, pace).reaches
// read from the gap and the charger's allowance alone (no bearing, no board):
// may_reach false means the prospect does not reach. The bots' searches and
// the opportunity charges ask it first, so an enemy far beyond any charge
// needs no full prospect (issue 32, thirteenth pass). Made once per charger
// and pace; engine/engagement/engagement_charge.cpp has the proof.
class ChargeRangeBound {
 public:
  ChargeRangeBound(const Battle& b, std::size_t charger, Pace pace);
  // `gap` is b.gap(charger, target).
  bool may_reach(const Battle& b, std::size_t target, Length gap) const;
  // charge_prospect(b, charger, any target, pace).max_range.
  Length max_range() const { return max_range_; }

 private:
  bool any_ = false;  // the allowance is above 0
  Length max_range_;
  double limit_cm_ = 0;
};

// Seed 003's gates on a charge by unit `charger` (on `target`, k_no_unit if
// none is named yet) as the battle stands: engine/decision/charge.hpp's
// charge_gate() with the battle's facts (turn, order, last turn's charge, a
// failed initiation check, movement, the target's visibility). A unit in
// square (seed 004) or a target that is not an enemy on the table is
// refused too, with an empty rule id.
ChargeGate charge_gate(const Battle& b, std::size_t charger, UnitIndex target, ChargeWhen when);

// Why a "(Charge?)" cell (seed 002's Actions Table) gave unit `i` no charge
// to declare this turn at `pace` (issue 29): the first thing that stops it,
// with the conformance row (docs/conformance.md) that says so. The table's
// bot (bots/reaction_bot.cpp, `charge_target`) declares on the nearest
// visible enemy its charge reaches with the charge bonus; when it declared
// none, the nearest visible enemy is not such a target, and this says why:
// a gate (charge_gate), mounted infantry mounting or on foot, no enemy in
// sight, out of the arc, out of range, uphill, the target in special
// terrain, the path's cost, emerging too close, or inside the minimum
// distance (no charge bonus).
struct NoDeclaration {
  std::string_view rule;  // a conformance id ("" if no rule names it)
  std::string why;
  UnitIndex about = k_no_unit;  // the nearest visible enemy, when there is one
};
NoDeclaration why_no_declaration(const Battle& b, std::size_t i, Pace pace, bool mounts_or_dismounts);

struct EngagementHooks;  // the module seam: below the class

// The registry of rules modules: one line each. A module is a folder
// (engine/modules/NAME/, the core's figure rules engine/engagement/), the
// seed it plays, the tables it owns (tables/*.yaml), the older spellings of
// its name still accepted, and its hooks into the engagement's turn (null
// for a module with its own turn loop, or none).
struct ModuleInfo {
  std::string_view name;
  std::vector<std::string_view> aliases;
  std::string_view seed;
  std::string_view folder;
  std::vector<std::string_view> tables;
  const EngagementHooks* engagement = nullptr;
};
const std::vector<ModuleInfo>& modules();
// By name or alias; null when no module is called that.
const ModuleInfo* find_module(std::string_view name);

class Engagement {
 public:
  // bots[s] plays side s. The scenario and bots must outlive the engagement.
  Engagement(const Scenario& s, std::array<const Bot*, 2> bots, std::uint64_t seed, std::uint64_t index = 0);
  Engagement(const Engagement&) = delete;
  Engagement& operator=(const Engagement&) = delete;

  // Starts engagement (seed, index) of the same scenario afresh, exactly as
  // a new Engagement would, reusing this one's memory: the Monte Carlo keeps
  // one per thread and allocates nothing per engagement. The recorder stays.
  void reset(std::uint64_t seed, std::uint64_t index);

  // Events go to `r` (null: none).
  void attach(Recorder* r) { rec_ = r; }

  // Plays one turn; returns false once the engagement is over.
  bool play_turn();
  // Plays to the end and returns the outcome.
  const Outcome& run();

  bool finished() const { return finished_; }
  const Battle& battle() const { return b_; }
  const Outcome& outcome() const { return out_; }
  // Tests (tests/test_perf_invariants_steps.cpp): move_to_cover's kept
  // nearest covers on a hex board (each entry: the bits of the position and
  // allowance asked, valid, the answer).
  const auto& kept_covers() const { return cover_memo_; }
  // ---- issue 32, fifteenth pass (the orders and the charges' repeated
  // questions; tests/test_perf_invariants_orders15.cpp checks each kept
  // answer against a fresh one) ----
  // The last charge_prospect(battle, i, t, pace) asked through
  // prospect_kept (the opportunity charge's test, then the charge it makes),
  // with what it was computed from that the count of the battle's changes
  // does not see: both units' facings. Battle::changed() follows every
  // change to a unit's position, being on the table, figures, formation or
  // mount (engine/engagement/battle.hpp), the rest of what the prospect
  // reads is fixed in a battle, so the same (i, t, pace), count and facings
  // give the same prospect.
  struct KeptProspect {
    bool valid = false;
    std::size_t i = 0, t = 0;
    Pace pace = Pace::halt;
    std::uint64_t changes = 0;          // Battle::changes_ when computed
    std::uint64_t facing_i = 0, facing_t = 0;  // the facings' bits
    ChargeProspect p;
  };
  const KeptProspect& kept_prospect() const { return kept_prospect_; }
  // prospect_kept would answer from it now (its key matches the battle).
  bool kept_prospect_holds() const;
  // The bots' commands of this turn (the checks read a declared charge's pace).
  const std::vector<Command>& commands() const { return commands_; }
  // ---- end of the fifteenth pass's public part ----
  // Issue 32, sixteenth pass (tests/test_perf_invariants_move14.cpp): the
  // kept places' bits (place_bits) are what a fresh look at the units gives.
  bool place_bits_match_fresh() const;
  bool place_bits_current() const { return place_bits_.at == b_.changes_ && place_bits_.on_board; }
  // Dice rolled so far, all streams together (benchmarks: the dice floor).
  std::uint64_t dice_rolled() const {
    return decisions_.rolled() + movement_.rolled() + shooting_.rolled() + melee_.rolled() + morale_.rolled();
  }

 private:
  struct Contact {
    UnitIndex attacker = k_no_unit;
    UnitIndex defender = k_no_unit;
    bool attacker_bonus = false;  // charged from beyond the minimum distance
    bool defender_bonus = false;  // counter-charged (both charging) with the bonus
    bool charge = false;          // the attacker came in by a charge
    double bearing = 0;           // the direction the charge was first indicated
    Length balance;               // what is left of the charge move (follow-through)
    // Seed 003 L3: a defender that counter-charged is a charging unit too:
    // victorious in the melee, it follows through the balance of its own
    // charge move in the direction it first charged.
    bool defender_charge = false;
    double defender_bearing = 0;
    Length defender_balance;
  };

  // Seeds the streams and counts the sides (construction and reset).
  void start(std::uint64_t seed, std::uint64_t index);

  // Turn steps (docs/turn-sequence.md).
  void step_orders();
  void step_initiative();
  void step_movement();
  void step_shooting();
  void step_melee();
  void step_morale();
  void step_end();

  void activate(std::size_t i);
  void move_unit(std::size_t i, const Command& c);
  Pace move_pace(std::size_t i, const Command& c);
  double move_to_cover(std::size_t i, Pace p, Length a, bool free_about, std::string& what);
  void change_formation(std::size_t i, Move m, std::string& what);
  void figure_formation(std::size_t i, bool square, std::string& what);
  void figure_start() {}
  void figure_after_melee() {}
  void figure_shooting();
  void figure_morale();
  // Charges (engine/engagement/engagement_charge.cpp): the engine drives
  // seed 003's charge procedure (engine/procedures/charge_procedure.hpp),
  // answering its questions from the board. Returns false when no charge
  // took place (refused, or the initiation check failed): the unit has not
  // moved.
  bool charge(std::size_t i, std::size_t target, bool declared, Pace pace);  // the module's charge hook
  bool figure_charge(std::size_t i, std::size_t target, bool declared, Pace pace);
  void opportunity_charges(std::size_t mover);
  // One charge's board facts as the procedure walks it.
  struct ChargeRun {
    std::size_t i = 0, t = 0;  // charger, target (the target may switch, L56)
    bool declared = true;
    Pace pace = Pace::walk;
    Pace tpace = Pace::walk;   // the target's, when it counter-charges
    ChargeProspect p, tp;      // the charge's, and the counter-charge's
    Aspect side_on = Aspect::front;
    double bearing0 = 0;       // the direction the charge was first indicated
    double moved = 0;          // cm the charger moved to contact
    double tbearing0 = 0;      // the counter-charge's direction first indicated (seed 003 L3)
    double tmoved = 0;         // cm the counter-charging target moved to meet it
    std::optional<Point> refuge;  // seed 001: the cover the foot flee to
  };
  ChargeReach charge_reach(ChargeRun& run);
  ChargeCounter charge_counter(ChargeRun& run);
  bool charge_contact(ChargeRun& run, bool counter);
  void charge_rolled(ChargeRun& run, const ChargeResult& res, ChargeRoll roll);
  bool charge_end(ChargeRun& run, const ChargeResult& res);
  void emit_initiation(std::size_t i, bool declared, const InitiationCheck& check, const ChargeThrow& dice);
  void emit_fear(const ChargeRun& run, const ChargeResult& res);
  void emit_charge_morale(std::size_t d, std::size_t a, ChargedOn on, const MoraleTarget& mt, const MoraleResult& m);
  // The nearest other enemy a charge from `i` at `pace` reaches now (seed 003
  // L56), k_no_unit if none.
  UnitIndex switch_target(std::size_t i, std::size_t from, Pace pace) const;
  void figure_melee(const Contact& c);
  bool melee_retire_and_reform(std::size_t a, std::size_t d);
  void melee_square(std::size_t a, std::size_t d, const MeleeFacts& f);
  void melee_exchange(const Contact& c, const MeleeFacts& f);
  void retreat(std::size_t i, std::size_t from, Length distance, const char* why);
  void follow_through(std::size_t i, double bearing, Length balance);

  // Geometry helpers.
  double go(std::size_t i, Point dest, Pace pace, Length allowance, bool free_turn);
  // go() straight away from `from` (Move::away; Move::to_cover without
  // cover in reach).
  double go_away_from(std::size_t i, Point from, Pace pace, Length allowance, bool free_turn);
  Point clip_enemies(std::size_t i, Point from, Point to, UnitIndex ignore) const;
  Length move_of(std::size_t i) const;

  void apply_hits(std::size_t i, int hits, Dice& dice, const char* phase);
  void set_order(std::size_t i, Order o, const char* phase, std::string_view why);
  void finish(std::optional<std::uint8_t> winner, std::string_view reason);
  bool check_victory();

  Event event(const char* phase, const char* kind, std::size_t unit) const;
  void emit(Event e);
  std::string len(Length l) const;
  std::string name(std::size_t i) const { return b_.units_[i].name; }

  // The hooks of the two modules that play inside the engagement
  // (EngagementHooks, below the class): `figures`, the figure rules of seeds 002 and
  // 003 (engagement_movement.cpp, engagement_fighting.cpp,
  // engagement_charge.cpp), and `blocks`, seed 004's block units on a hex
  // board (engagement_blocks.cpp), which the scenario's `blocks:` key
  // chooses. Each hook is a member, so a module reads the battle as the
  // turn sequence does.
  static const EngagementHooks k_figure_hooks;  // engine/engagement/engagement.cpp
  static const EngagementHooks k_block_hooks;   // engine/engagement/engagement_blocks.cpp
  friend const std::vector<ModuleInfo>& modules();
  friend struct EngagementHooks;  // names Contact

  // Seed 004 block units on a hex board (engine/engagement/engagement_blocks.cpp):
  // the `blocks` module's hooks and what they share.
  void block_start();
  double hex_go(std::size_t i, Point dest, Length allowance);
  bool hex_walk_bits(std::size_t i, std::span<const Hex> line, int len, int n, Hex& cur, int& steps) const;
  bool block_charge(std::size_t i, std::size_t target, bool declared, Pace pace);
  void block_charge_move(std::size_t i, std::size_t target, Pace pace);
  void block_formation_hook(std::size_t i, bool square, std::string& what);
  void block_shooting();
  void block_melee(const Contact& c);
  void block_offer_square(std::size_t a, std::size_t d);
  void block_combine_arms(std::size_t a, std::size_t d, const std::vector<UnitIndex>& arts);
  void block_melee_square(std::size_t a, std::size_t d, int art_dice, const std::vector<UnitIndex>& arts);
  bool block_retire_and_reform(std::size_t a, std::size_t d, int dice_a, int art_dice);
  void block_melee_exchange(const Contact& c, int dice_a, int art_dice, const std::vector<UnitIndex>& arts);
  void block_infantry_attacks();
  void block_morale();
  std::string block_formation(std::size_t i, bool square);  // a bot's form_square / leave_square order
  void block_hits(std::size_t i, int hits, const char* phase);
  bool block_retreat(std::size_t i, int hexes, const char* why);
  std::string hex_str(std::size_t i) const;

  Battle b_;
  const Ruleset& r_;
  const EngagementHooks* hooks_ = &k_figure_hooks;  // the module that resolves the steps
  const Seed004Rules* blocks_ = nullptr;  // the `blocks` module's table (else null)
  std::vector<int> square_card_;          // per unit: the card under its square (-1: none)
  std::vector<int> pending_flags_;        // per unit: flags from this turn's ranged combat

  std::array<const Bot*, 2> bots_;
  Rng rng_decisions_, rng_movement_, rng_shooting_, rng_melee_, rng_morale_;
  Dice decisions_, movement_, shooting_, melee_, morale_;
  Recorder* rec_ = nullptr;

  // ---- issue 32, twelfth pass (the steps' repeated work; kept answers
  // checked by tests/test_perf_invariants_steps.cpp) ----
  // Per side: its bot's makes_opportunity_charges(), a constant of the bot
  // (its options), asked once at construction (opportunity_charges).
  std::array<bool, 2> opp_makes_{};
  // Per side: its units' indices in index order (sides never change).
  std::array<std::vector<std::size_t>, 2> side_units_;
  // move_to_cover's board().nearest_cover(pos, allowance, 1) on a hex board:
  // a pure function of the two arguments' bits and the board (its terrain
  // is fixed for the scenario, so the answers hold across reset). Units
  // stand on hex centres and move at a few allowances, so the questions
  // recur; kept in a small direct-mapped table (sized at construction on
  // hex boards, else empty).
  struct CoverMemo {
    std::uint64_t x = 0, y = 0, a = 0;
    bool valid = false;
    std::optional<Point> cover;
  };
  static constexpr int k_cover_memo_bits = 8;
  static constexpr std::size_t k_cover_memos = std::size_t{1} << k_cover_memo_bits;
  std::vector<CoverMemo> cover_memo_;
  std::optional<Point> nearest_cover_kept(Point from, Length allowance);
  // ---- end of the twelfth pass's members ----

  // ---- issue 32, fifteenth pass (see KeptProspect above) ----
  // Per side: its bot's opportunity_charge_cheap(), a constant of the bot,
  // asked once at construction (opportunity_charges asked it per enemy).
  std::array<bool, 2> opp_cheap_{};
  KeptProspect kept_prospect_;
  // charge_prospect(b_, i, t, pace), kept as KeptProspect says.
  const ChargeProspect& prospect_kept(std::size_t i, std::size_t t, Pace pace);
  bool kept_prospect_matches(std::size_t i, std::size_t t, Pace pace) const;
  // ---- end of the fifteenth pass's members ----

  std::vector<Command> commands_;
  std::vector<Contact> contacts_;
  // hex_go's scratch: the other units' kept hexes and whether each is an
  // enemy (reserved for every unit at construction).
  struct GoOther {
    Hex hex;
    bool enemy = false;
  };
  std::vector<GoOther> go_others_;
  // ---- issue 32, sixteenth pass (engine/engagement/engagement_hex_move.cpp) ----
  // On boards with Battle::neighbour_bits_ where every unit is of side 0 or
  // 1: the active units' board places as bits, per side, and the places
  // held by two or more, as of Battle::changes_ == at (0: never; the count
  // starts at 1 and Battle::reset counts a change). Battle::changed()
  // follows every change to a unit's position or being on the table
  // (engine/engagement/battle.hpp), and a unit's side is fixed, so the same
  // count gives the same bits. hex_go's walk, block_shooting and
  // block_infantry_attacks read them instead of looping over the units;
  // hex_go's move, block_retreat and block_hits move or drop their unit's
  // bit (place_bits_follow) when the bits were current just before (that
  // unit's change is then the only one since).
  struct PlaceBits {
    std::uint64_t at = 0;
    bool on_board = false;  // every active unit is on the board (else unused)
    std::uint64_t side[2][2]{};
    std::uint64_t shared[2]{};
  };
  mutable PlaceBits place_bits_;
  // The bits as of now, or nullptr where they do not serve (no
  // neighbour_bits_, a side other than 0 or 1, an active unit off the board).
  const PlaceBits* place_bits() const;
  PlaceBits place_bits_fresh() const;
  void place_bits_follow(std::size_t i, std::size_t p0, bool was_active, std::uint64_t before);
  // The blocks module's dice (roll_symbols into them): a melee's attack and
  // battle back, a unit's fire (reserved at construction; grown, kept).
  std::vector<Symbol> rolled_, rolled_back_;
  // ---- issue 32, fifteenth pass (the blocks module allocates nothing once
  // warmed: engine/engagement/engagement_blocks.cpp) ----
  // The batteries that combine arms with a melee (block_melee) and those a
  // shooting battery asks about (block_shooting's hold-fire question).
  std::vector<UnitIndex> melee_arts_, shoot_arts_;
  // Seed 004's results filled in place (engine/modules/blocks/seed004.hpp's
  // out-parameter forms): their vectors keep their capacity.
  Retreat retreat_;
  SquareMelee square_melee_;
  RetireResult retire_result_;
  // ---- end of the fifteenth pass's blocks members ----
  std::vector<int> pending_hits_;
  std::vector<double> moved_cm_;  // voluntary movement this turn, per unit
  std::vector<Pace> moved_pace_;  // the pace it moved at this turn (halt if it did not)
  std::array<int, 2> declared_{};
  std::array<std::uint8_t, 2> order_{0, 1};  // sides in the order they move this turn
  std::uint8_t last_first_ = 255;
  Outcome out_;
  std::string turn_limit_reason_;
  bool finished_ = false;
};

// The module seam (docs/architecture.md, "The module seam"): the steps of
// the turn a rules module resolves its own way, as hooks the turn sequence
// (engine/engagement/engagement.cpp) calls instead of asking which module
// plays. Each is a member of Engagement, so a module's hooks read the battle
// as the turn sequence does. The registry above names each module's hooks.
struct EngagementHooks {
  void (Engagement::*start)();                                                        // the dice are set
  bool (Engagement::*charge)(std::size_t i, std::size_t target, bool declared, Pace pace);  // a charge is made
  void (Engagement::*formation)(std::size_t i, bool square, std::string& what);       // form_square, leave_square
  void (Engagement::*shooting)();                                                     // step 4
  void (Engagement::*melee)(const Engagement::Contact& c);                            // step 5, each contact
  void (Engagement::*after_melee)();                                                  // step 5, then
  void (Engagement::*morale)();                                                       // step 6
};

}  // namespace vedette
