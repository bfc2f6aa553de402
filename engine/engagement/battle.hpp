#pragma once
// Battle: the state of one engagement in progress (the units on a board
// under a ruleset) and the questions rules and bots ask of it: footprints,
// distances front to front, who sees whom, the nearest enemy, weapon reach,
// movement allowances, and a unit's seed 002 risk-factor facts computed from
// the battlefield. Bots get a `const Battle&`; only the engagement
// (engine/engagement/engagement.cpp and its step files, engagement_*.cpp)
// changes it.
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/core/facts.hpp"
#include "engine/board/geometry.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/decision/risk_factor.hpp"
#include "engine/engagement/scenario.hpp"
#include "engine/procedures/table_rules.hpp"
#include "engine/modules/blocks/seed004.hpp"
#include "engine/board/unit.hpp"

namespace vedette {

// Units are indexed by their place in the scenario's list.
using UnitIndex = std::int16_t;
inline constexpr UnitIndex k_no_unit = -1;

// Aspect half-angles used for "enemy to flank or rear" (seed 002) and for
// charges on the flank or rear (seed 003): front within 45 degrees of the
// facing, rear within 45 degrees of the back, flank between. Choice: the
// seeds do not draw the arcs; 45 is seed 003's charge arc.
inline constexpr double k_front_half_deg = 45.0;
inline constexpr double k_rear_half_deg = 45.0;

// What the board says of a charge's straight way from one unit's centre to
// another's, its front meeting the target's after `distance` (front to
// front): charge_prospect's board questions (engine/engagement/engagement_charge.cpp),
// all functions of the two positions and that distance.
struct ChargeWay {
  double bearing_deg = 0;  // bearing_deg(from, to)
  Point dir;               // the unit vector from -> to
  Point contact;           // from + dir * distance: where the fronts meet
  bool uphill = false;     // Board::moves_uphill(from, contact)
  bool target_in_terrain = false;  // the rest of the way, contact -> to, costs more than its length
  Length cost;             // Board::movement_cost(from, contact)
  // Only when the way costs more than the distance: how far back from
  // contact the path is last in special terrain (half-centimetre steps).
  std::optional<double> emerges_back_cm;
  std::optional<double> obstacle;  // Board::first_obstacle_crossing(from, contact), a fraction of the way
};

class Battle {
 public:
  explicit Battle(const Scenario& s);  // under the scenario's ruleset
  // Back to the scenario's starting positions, turn 0 (no allocation).
  void reset();

  const Scenario& scenario() const { return *scenario_; }
  const Ruleset& rules() const { return *rules_; }
  const Board& board() const { return *board_; }
  // The hex board, when the scenario plays on one (else null).
  const HexBoard* hex() const { return hex_; }
  const std::vector<Unit>& units() const { return units_; }
  const Unit& unit(std::size_t i) const { return units_[i]; }
  int turn() const { return turn_; }

  // The unit's rectangle: figures in its formation (combat.formations).
  Footprint footprint(std::size_t i) const;
  // footprint(i).depth alone (the same value, without the frontage).
  Length depth(std::size_t i) const;
  // Front to front: centre to centre less half of each unit's depth, at
  // least 0. The distance every rule measures between two units.
  Length gap(std::size_t a, std::size_t b) const;
  // Line of sight between the two units' centres.
  bool sees(std::size_t a, std::size_t b) const;
  // The straight way for a charge from unit a to unit b, their fronts
  // `distance` apart (gap(a, b)): kept per ordered pair while both
  // positions and the distance keep their bits.
  const ChargeWay& charge_way(std::size_t a, std::size_t b, Length distance) const;
  bool enemies(std::size_t a, std::size_t b) const { return units_[a].side != units_[b].side; }
  // Nearest active enemy by gap (ties: lowest index); visible ones only if
  // asked. k_no_unit if none.
  UnitIndex nearest_enemy(std::size_t i, bool visible_only) const;
  // Where `attacker` stands relative to `target`'s facing (a square has no
  // flank or rear).
  Aspect aspect_of(std::size_t target, std::size_t attacker) const;

  // How far the unit may move at this pace: cavalry on horse by the paces
  // (their top), others their move (0 at halt).
  Length allowance(std::size_t i, Pace p) const;
  // The fastest pace it may take this turn: seed 002's gallop limit and
  // mounted infantry's no-gallop, seed 003's normal speed after a charge.
  // What the pace rules ask of unit i (engine/procedures/table_rules.hpp).
  PaceFacts pace_facts(std::size_t i) const;
  Pace pace_limit(std::size_t i, Pace wanted) const;
  // Seed 003's "movement allowance" for the charge range
  // (combat.charge.allowance).
  Length charge_allowance(std::size_t i, Pace p) const;

  // Shooting: the weapon's reach for this unit as it stands (seed 002: one
  // band further when mounted; mounted infantry never shoots mounted).
  // 0 when it cannot shoot.
  Length reach(std::size_t i) const;
  bool can_shoot(std::size_t i) const { return reach(i).as_cm() > 0; }

  // Seed 003's charge morale table: the unit's row when charged (foot class,
  // or horse weight when on horse), its column when charging, and where a
  // charge from `attacker` strikes `target`.
  DefenderClass defender_class(std::size_t i) const;
  AttackerWeight attacker_weight(std::size_t i) const;
  ChargedOn charged_on(std::size_t target, std::size_t attacker) const;

  // Seed 002 facts for the unit's risk factor, from the battlefield.
  Situation situation(std::size_t i) const;
  Facts facts(std::size_t i) const { return Facts(situation(i)); }

  // A point well beyond the side's own edge, for moving toward it.
  Point home_point(std::size_t i) const;
  // Has the unit reached this edge (its footprint touches it)?
  bool at_edge(std::size_t i, Edge e) const;

  // Seed 004 block units (engine/engagement/engagement_blocks.cpp), when the scenario names
  // `blocks:` on a hex board: the table, each unit as a block unit (blocks =
  // figures), its arm, adjacency, the hexes units stand on, each side's
  // command cards, and the combined-arms dice an ordered artillery unit would
  // add to a melee (the first artillery unit of the side that may, seed 004).
  const Seed004Rules* blocks() const { return blocks_; }
  Arm arm_of(std::size_t i) const;
  BlockUnit block_of(std::size_t i) const;
  // may_retire_and_reform (engine/modules/blocks/seed004.cpp) for cavalry
  // unit i attacked in melee by infantry, not battling back, toward its own
  // edge over occupied(): the engine's check and the bot's ask it back to
  // back, so the answer is kept while nothing changed (changes_).
  RetireRefusal retire_refusal(std::size_t i) const;
  bool adjacent(std::size_t a, std::size_t b) const;
  // The hex unit i stands in (hex boards only): HexBoard::hex_of of its
  // position, kept while the position's bits do not change.
  Hex unit_hex(std::size_t i) const;
  // HexBoard::line_at(a, b, k, n) for k = 0 to n = hex_distance(a, b), a
  // first: on a board of at most k_sight_table_hexes hexes, per ordered pair
  // of board places, built on first use and kept across engagements. Empty
  // when either hex is off the board or the board is larger (then ask
  // line_at). Valid until the next call.
  std::span<const Hex> hex_line(Hex a, Hex b) const;
  const std::vector<Hex>& occupied() const;  // every active unit's hex
  const CommandHand& hand(std::uint8_t side) const { return hands_[side]; }
  bool fired(std::size_t i) const { return fired_[i] != 0; }
  // Seed 004: "one or more ordered artillery units may combine": every battery
  // that may adds its dice; `artillery` (if given) lists them.
  // Kept per ordered pair while the world (Battle::sync_world's epoch) and
  // the fired_ and square bits it reads keep their values (the fourteenth
  // pass: the shooting step, the melee and the infantry bot ask it of the
  // same pair in the same world).
  int combined_arms_dice(std::size_t attacker, std::size_t target, std::vector<UnitIndex>* artillery = nullptr) const;
  // The same computed, without the kept answers (tests/test_perf_invariants_fight14.cpp).
  int combined_arms_dice_fresh(std::size_t attacker, std::size_t target, std::vector<UnitIndex>* artillery = nullptr) const;

  // For issue 32's checks (tests/test_perf_invariants_move14.cpp), kept
  // answers against fresh ones: bearing_deg(a's position, b's) as the engine
  // keeps it (pair_bearing), and whether the world of sight brought up to
  // date (sync_world: each unit's hex and place, each side's active units,
  // the occupied places' bits) is what the units make afresh.
  double kept_bearing(std::size_t a, std::size_t b) const { return pair_bearing(a, b); }
  bool world_matches_fresh() const;

 private:
  friend class Engagement;
  const Scenario* scenario_;
  const Ruleset* rules_;
  const Board* board_;
  const HexBoard* hex_ = nullptr;
  std::vector<Unit> units_;
  mutable std::vector<Point> sight_units_;  // sees_miss on a board where units block sight
  std::vector<Unit> initial_;  // as the scenario sets them up
  int turn_ = 0;
  const Seed004Rules* blocks_ = nullptr;
  std::array<CommandHand, 2> hands_;
  std::vector<std::uint8_t> fired_;       // per unit, this turn: an artillery unit that fired is not ordered for combined arms
  // reach(i) of an active unit, on foot [0] and on horse [1]: a function of
  // its profile, type and the ruleset, none of which changes in a battle
  // (reach_of at construction; reach() picks by active and on_horse).
  std::vector<std::array<Length, 2>> reach_by_mount_;
  Length reach_of(std::size_t i, bool on_horse) const;
  mutable std::vector<Hex> occupied_;
  // occupied_ is every active unit's hex as of changes_ == occupied_at_
  // (0: never; changes_ starts at 1): a function of the units' places and
  // being on the table, which change only with changed().
  mutable std::uint64_t occupied_at_ = 0;
  mutable std::vector<BlockUnit> block_units_;
  // combined_arms_dice's answers (boards with blocks, at most 64 units), per
  // ordered pair [attacker * units + target]. The answer reads of each unit
  // its arm, side and horse artillery (fixed), its hex and whether it has
  // blocks (the world: sync_world's epoch keys every unit's position bits
  // and being on the table, so the same epoch is the same hexes and the
  // same units with blocks), and `ordered` (fired_) of the attacker and of
  // artillery units and `in_square` of artillery units (unit_dice), which
  // the epoch does not see: those bits are the key's `bits`. A kept answer
  // holds for the same epoch and bits (epochs start at 1; 0: never).
  struct ArmsMemo {
    std::uint64_t epoch = 0;
    std::uint64_t fired = 0, square = 0;  // the bits read, as of the answer
    std::uint64_t arts = 0;               // the artillery list, a bit per unit (the list is in index order)
    int dice = 0;
  };
  mutable std::vector<ArmsMemo> arms_memo_;
  mutable std::vector<UnitIndex> arms_scratch_;  // the list when the caller asks none
  std::uint64_t artillery_bits_ = 0;              // units of arm artillery (fixed in a battle)

  // Memo of gap() and sees() for each ordered pair of units, keyed by the
  // exact bits of what they are computed from (both positions; for the gap
  // also what sets each depth: figures, formation, on horse). A hit returns
  // the value the computation gave for those very inputs, so results are bit
  // for bit unchanged; bots and rules ask the same questions many times a
  // turn. Per battle (per engagement, per thread); valid across reset().
  struct PairMemo {
    std::uint64_t gap_pos[4]{};  // a.x, a.y, b.x, b.y
    std::uint64_t depth_keys = 0;
    Length gap;
    bool gap_valid = false;
    // The centre-to-centre distance the gap was computed from: a function of
    // gap_pos alone (the board is fixed), so a gap asked again for the same
    // positions after a depth changed (a unit lost figures, formed square,
    // mounted) reuses it (the thirteenth pass: fewer hypot calls).
    double dist = 0;
    bool sees_valid = false;
    bool sees = false;
    std::uint64_t sees_pos[4]{};
    std::uint64_t sees_world = 0;  // boards where units block sight: the world_ epoch it was computed in
    // Hex boards: the sight line's steps between the two units' hexes,
    // kept while neither moves to another hex.
    Hex path_a, path_b;
    bool path_valid = false;
    std::vector<SightStep> path;
    // charge_way(a, b, distance), keyed by both positions and the distance.
    std::uint64_t way_pos[4]{};
    std::uint64_t way_distance = 0;
    bool way_valid = false;
    ChargeWay way;
    // pair_bearing(a, b) (aspect_at, facing a target), keyed by both positions.
    std::uint64_t bearing_pos[4]{};
    bool bearing_valid = false;
    double bearing = 0;
  };
  mutable std::vector<PairMemo> memo_;
  // On a board where units block sight (hexes), sees(a, b) depends on every
  // unit's place, so its memo is keyed by the whole world: the bits of each
  // unit's position and whether it is on the table (world_key_). A query
  // that finds the world changed starts a new epoch; a pair's answer is
  // valid in the epoch it was computed in. The answer is a function of the
  // world alone, so results are bit for bit unchanged.
  mutable std::vector<std::uint64_t> world_key_;
  mutable std::uint64_t world_epoch_ = 0;
  mutable std::vector<Hex> world_hex_;    // each unit's hex, kept with world_key_
  mutable std::vector<std::size_t> world_place_;  // hex boards: HexBoard::hex_index(world_hex_), kept with it
  // Hex boards: the active units' hexes in this epoch, as a count per hex of
  // the board (HexBoard::hex_index) and a list for any off the board. A hex
  // other than the two ends blocks sight if any active unit stands in it
  // (neither end's unit can), so this answers for every pair of the epoch.
  mutable std::vector<std::uint32_t> occupancy_;
  mutable std::vector<std::size_t> occupancy_marks_;  // the counts set, to clear them
  mutable std::vector<Hex> occupancy_off_;
  // occupancy_ and occupancy_off_ are of this epoch (else built on first
  // use by sees_in_epoch_slow, their only reader: the bits of occ_bits_
  // answer the usual case).
  mutable std::uint64_t occupancy_epoch_ = 0;
  void build_occupancy() const;
  // Hex boards of at most k_sight_table_hexes hexes: every sight line between
  // two hexes of the board, built once (on first use) and kept across
  // engagements, each step as the hexes' places with their terrain's
  // blocking already read. A step's side blocks if its terrain does or a
  // unit stands there; an end hex never blocks (HexBoard's step rule).
  struct SightCell {
    std::int32_t i1 = -1, i2 = -1;  // board places that a unit would block (-1: an end, never)
    bool t1 = false, t2 = false;    // blocked by terrain (never at an end)
    bool same = false;              // the line does not run along a hexside here
  };
  struct SightLine {
    std::uint32_t offset = 0;
    std::uint32_t len = 0;
    std::uint8_t state = 0;  // 0 not built, 1 built, 2 leaves the board (asked of HexBoard)
    // The same steps summed up (boards of at most 128 hexes): blocked by
    // terrain whatever the units; blocked by a unit in any of `mask`'s places;
    // `pairs`: some step needs units in both its places (then the steps are
    // walked).
    bool terrain_blocked = false;
    bool pairs = false;
    std::uint64_t mask[2]{};
    // Steps that block only with units in both their places (both below
    // 128): sight_pairs_[pair_offset, + pair_len), each place's bit.
    std::uint32_t pair_offset = 0;
    std::uint32_t pair_len = 0;
  };
  struct SightPair {
    std::uint8_t p1 = 0, p2 = 0;
  };
  mutable std::vector<SightPair> sight_pairs_;
  static constexpr std::size_t k_sight_table_hexes = 512;
  // Hex boards of at most k_sight_table_hexes hexes: answers that are
  // functions of two places alone (and the board), kept per ordered pair of
  // the units' hexes across engagements (units stand on hex centres, so the
  // same two places recur), keyed like the pair memo by both positions' bits
  // (charge_way: and the distance's). Allocated on first use.
  struct HexPair {
    std::uint64_t pos[4]{};
    bool bearing_valid = false;
    double bearing = 0;  // bearing_deg(from, to)
    bool way_valid = false;
    std::uint64_t distance = 0;
    ChargeWay way;
  };
  mutable std::vector<HexPair> hex_pairs_;  // [from place * hexes + to place]
  // bearing_deg(centre(from place), centre(to place)), pair_hexes_ boards:
  // pair_bearing of two units that both stand on their hexes' centres (the
  // same bits as their positions, so the same answer), without the
  // positions' check hex_pair makes. Built on first use, kept across
  // engagements.
  struct CentreBearing {
    bool valid = false;
    double bearing = 0;
  };
  mutable std::vector<CentreBearing> centre_bearings_;  // [from place * hexes + to place]
  // The entry for units a and b where they stand, or null (off the board, a
  // board too large, or not a hex board); an entry kept for other places in
  // these hexes is started again (its answers dropped).
  HexPair* hex_pair(std::size_t a, std::size_t b) const;
  // bearing_deg(units a -> b): kept per ordered pair of units while both
  // positions keep their bits (the pair memo), else from hex_pairs_ where it
  // can.
  double pair_bearing(std::size_t a, std::size_t b) const;
  double pair_bearing_miss(std::size_t a, std::size_t b) const;
  // hex_go's (engine/engagement/engagement_hex_move.cpp) board questions of a
  // move from `from` toward `dest` with this allowance: whether it moves at
  // all (hexes_in(allowance) > 0 and dest != from), the facing it takes
  // (bearing_deg to dest, shortened to the move's reach), and the hex
  // HexBoard's walk reaches (move_toward's walk from the start's hex, before
  // other units). A pure function of the two points, the allowance and the
  // board, kept in a small table keyed by their bits (valid across reset).
  // Hex boards only.
  struct GoWay {
    std::uint64_t pos[4]{};
    std::uint64_t allowance = 0;
    bool valid = false;
    bool moves = false;
    int n = 0;            // hexes_in(allowance)
    double bearing = 0;
    Hex goal;
  };
  static constexpr std::size_t k_go_ways = 1024;  // a power of two
  mutable std::vector<GoWay> go_ways_;
  const GoWay& go_way(Point from, Point dest, Length allowance) const;
  // hex_pairs_'s and sight_lines_' side: the board's hexes when it is the
  // scenario's hex board of at most k_sight_table_hexes hexes, else 0.
  std::size_t pair_hexes_ = 0;
  // board().aspect(target's place and facing, attacker's place, the aspect
  // half-angles); on a hex board (continuous aspect, HexBoard does not
  // override it) with the kept bearing.
  Aspect aspect_at(std::size_t target, std::size_t attacker) const;
  // The board is the scenario's hex board (gap, nearest enemy on hexes).
  bool hex_direct_ = false;
  // hex_direct_ boards of at most 128 hexes: each place's neighbours on the
  // board as bits of their places (hex_go's test of contact with an enemy:
  // hex_distance 1 is being a neighbour). Built at construction; else empty.
  std::vector<std::array<std::uint64_t, 2>> neighbour_bits_;
  // hex_direct_ boards: gap_miss's answer for two units n hexes apart, for
  // n up to the board's widest distance (built at construction).
  std::vector<Length> gap_by_hexes_;
  // Hex boards of at most 128 hexes: the active units' hexes of the epoch as
  // bits of their board places (sees_in_epoch against SightLine::mask).
  mutable std::uint64_t occ_bits_[2]{};
  mutable std::vector<SightLine> sight_lines_;  // [from place * hexes + to place]
  mutable std::vector<SightCell> sight_cells_;
  mutable std::vector<SightStep> sight_scratch_;
  bool units_block_sight_ = false;
  // unit_hex(): each unit's position bits and hex.
  struct HexMemo {
    std::uint64_t x = 0, y = 0;
    bool valid = false;
    Hex hex;
    std::size_t place = 0;  // HexBoard::hex_index(hex)
    // The position has the bits of centre(hex), on the board (where units
    // stand but for scenario-set places): its bearings are the places' own.
    bool centre = false;
  };
  // HexBoard::hex_index(unit_hex(i)), kept with it.
  std::size_t unit_place(std::size_t i) const {
    unit_hex(i);
    return hex_memo_[i].place;
  }
  // hex_line(): each ordered pair of board places' line in hex_line_cells_.
  struct HexLine {
    std::uint32_t offset = 0;
    std::uint32_t len = 0;  // 0: not built
  };
  mutable std::vector<HexLine> hex_lines_;
  mutable std::vector<Hex> hex_line_cells_;
  mutable std::vector<HexMemo> hex_memo_;
  Hex unit_hex_miss(std::size_t i) const;  // unit_hex's computation, kept
  // Puts unit i on the centre of hex h of the board (h on it) and keeps h
  // as its hex: hex_of(centre(h)) is h, so unit_hex need not compute it.
  void place_on_hex(std::size_t i, Hex h);
  // The engagement's changes to the units (engine/engagement/engagement*.cpp
  // call changed() after each): a unit's position, its being on the table,
  // its figures, formation or mount. The answers kept by world (sync_world,
  // nearest_enemy) are checked against this count first, so a query made
  // while nothing changed does not look at every unit again.
  std::uint64_t changes_ = 1;
  void changed() { ++changes_; }
  mutable std::uint64_t world_synced_ = 0;  // changes_ when sync_world last ran
  // nearest_enemy(i, visible_only) as of changes_ == at[visible_only]. On
  // the scenario's hex board the answer is a function of the world alone
  // (the units' hexes, being on the table, sight in the epoch: depths are
  // the hex size), so it also holds while world_epoch_ == epoch[visible_only]
  // (epochs start at 1).
  struct NearestMemo {
    std::uint64_t at[2]{};
    UnitIndex unit[2]{k_no_unit, k_no_unit};
    std::uint64_t epoch[2]{};
  };
  mutable std::vector<NearestMemo> nearest_;
  // retire_refusal's last answer: unit, as of changes_ == at.
  struct RetireMemo {
    std::uint64_t at = 0;
    std::size_t unit = 0;
    RetireRefusal why = RetireRefusal::none;
  };
  mutable RetireMemo retire_memo_;
  // Hex boards: the epoch's active units of each side (index and hex, in
  // index order), made by sync_world with the occupancy, for
  // nearest_enemy_miss's search on hexes; used when every unit is of side 0
  // or 1 (sides01_).
  struct EpochUnit {
    std::size_t index = 0;
    Hex hex;
  };
  mutable std::vector<EpochUnit> epoch_units_[2];
  bool sides01_ = false;
  UnitIndex nearest_enemy_miss(std::size_t i, bool visible_only) const;
  // Brings world_key_ up to date (a new epoch if any unit moved, left or
  // came back); the pair answers of the epoch then hold.
  void sync_world() const;
  bool sees_in_epoch(std::size_t a, std::size_t b) const {
    const PairMemo& m = memo_[a * units_.size() + b];
    if (m.sees_valid && m.sees_world == world_epoch_) return m.sees;
    return sees_in_epoch_miss(a, b);
  }
  // The epoch's answer not yet kept: a line summed up in bits (boards of at
  // most 128 hexes) here, every other case in sees_in_epoch_slow.
  bool sees_in_epoch_miss(std::size_t a, std::size_t b) const;
  bool sees_in_epoch_slow(std::size_t a, std::size_t b) const;
  bool sees_in_world(std::size_t a, std::size_t b) const {
    if (world_synced_ != changes_) sync_world();
    return sees_in_epoch(a, b);
  }
  // What a unit's depth (footprint) depends on besides the ruleset.
  static std::uint32_t depth_key(const Unit& u) {
    return static_cast<std::uint32_t>(u.figures) << 8 | static_cast<std::uint32_t>(u.formation) << 1 | (u.on_horse() ? 1U : 0U);
  }
  // Are these the bits of the two positions?
  static bool same_bits(const std::uint64_t (&k)[4], Point a, Point b) {
    return k[0] == std::bit_cast<std::uint64_t>(a.x) && k[1] == std::bit_cast<std::uint64_t>(a.y) &&
           k[2] == std::bit_cast<std::uint64_t>(b.x) && k[3] == std::bit_cast<std::uint64_t>(b.y);
  }
  Length gap_miss(std::size_t a, std::size_t b) const;

  // ---- The tabletop's twelfth speed pass (issue 32): kept unit sizes and
  // the tabletop's aspect. ----
  // footprint(i)'s frontage and depth off a hex board: a function of the
  // unit's depth_key (figures, formation, on horse) and the ruleset alone,
  // kept per unit with that key (gap_miss asks both units' depths at every
  // miss, charge_prospect both footprints). Sized on first use.
  struct UnitSize {
    std::uint32_t key = 0;
    bool valid = false;
    Length frontage, depth;
  };
  mutable std::vector<UnitSize> sizes_;
  const UnitSize& unit_size(std::size_t i) const { return unit_size(i, depth_key(units_[i])); }
  // The same, for the unit's depth_key already read.
  const UnitSize& unit_size(std::size_t i, std::uint32_t key) const {
    if (i < sizes_.size() && sizes_[i].valid && sizes_[i].key == key) return sizes_[i];
    return unit_size_miss(i, key);
  }
  const UnitSize& unit_size_miss(std::size_t i, std::uint32_t key) const;
  // Hex boards: hex_->hex_size(), read at construction (the board does not
  // change), so footprint() and depth() are answered inline.
  Length hex_size_;
  // The board is the scenario's tabletop, whose aspect and arcs are
  // Board's continuous ones (Tabletop overrides neither).
  bool table_direct() const { return board_ == static_cast<const Board*>(scenario_->table.get()); }

  const ChargeWay& charge_way_miss(std::size_t a, std::size_t b, Length distance) const;
  bool sees_miss(std::size_t a, std::size_t b) const;

  // ---- The situation kept by world (issue 32, twelfth pass: the bot's
  // asks). situation(i)'s facts of the battlefield (cover, and the enemy
  // facts of its loop over the enemies) are a function of unit i's facing
  // and of the world: every unit's position bits, being on the table and
  // mount (on a tabletop also what sets its depth: figures, formation), the
  // ruleset, board and sides being fixed in a battle. The same worlds recur
  // within and across engagements (every engagement starts from the same
  // one), so the answers are kept per world in a table of worlds keyed by
  // all of that, checked word for word; a hit gives the bits the
  // computation gave. The world's entry is found once per changes_ (the
  // world changes only with changed(), as nearest_enemy's memo relies on).
 public:
  // situation(i) computed, without the table (tests/test_perf_invariants_asks.cpp).
  Situation situation_fresh(std::size_t i) const;
  // rf_total(rules(), f) (engine/decision/risk_factor.cpp), by the ruleset's
  // RfTable, made on first use (the ruleset is fixed for the battle's life);
  // rf_total itself when the table cannot say the ruleset
  // (tests/test_perf_invariants_decide14.cpp).
  int rf_total(const Facts& f) const;

 private:
  // The battlefield part of situation(i): in_cover and the enemy facts.
  void situation_world(std::size_t i, Situation& s) const;
  // The table's entry for the world as it stands (claimed, its answers
  // dropped, when it held another world).
  std::size_t situation_entry() const;
  // Entries of the table (a power of two), and the most units it keys
  // (beyond, situation computes: a world's key is 3 words a unit).
  static constexpr std::size_t k_situation_entries = 1024;
  static constexpr std::size_t k_situation_units = 16;
  bool situation_kept_ = false;  // units_.size() <= k_situation_units
  // One unit's answer in a world: kept for this facing (its bits) when
  // `val` has bit 7; then in_cover, enemy_in_sight, enemy_in_range,
  // in_enemy_range, enemy_flank_rear in bits 0 to 4.
  struct SituationKept {
    std::uint64_t facing = 0;
    std::uint8_t val = 0;
  };
  mutable std::vector<std::uint64_t> situation_worlds_;   // [entry * 3 * units], allocated on first use
  mutable std::vector<std::uint8_t> situation_held_;      // per entry: 1 when it holds a world
  mutable std::vector<SituationKept> situation_answers_;  // [entry * units + unit]
  mutable std::vector<std::uint64_t> situation_key_;      // the world being asked
  mutable std::uint64_t situation_at_ = 0;                // changes_ when situation_entry_ was found (0: never)
  mutable std::size_t situation_entry_ = 0;
  mutable RfTable rf_table_;
  mutable bool rf_table_made_ = false;
};

// The memo's hit paths, inline; the misses compute in battle.cpp.
inline Footprint Battle::footprint(std::size_t i) const {
  const Unit& u = units_[i];
  // A hex board: a unit fills its hex (adjacent units are in contact).
  if (hex_) return Footprint{u.pos, u.facing, hex_size_, hex_size_};
  const UnitSize& z = unit_size(i);
  return Footprint{u.pos, u.facing, z.frontage, z.depth};
}

inline Length Battle::depth(std::size_t i) const {
  // footprint(i).depth: the kept size.
  if (hex_) return hex_size_;
  return unit_size(i).depth;
}

inline Length Battle::gap(std::size_t a, std::size_t b) const {
  if (hex_direct_) {
    // The scenario's hex board: gap_miss's hex expression is a function of
    // the hex distance alone (every depth is the hex size), kept per
    // distance; the unit's kept hexes are read inline.
    const auto n = static_cast<std::size_t>(hex_distance(unit_hex(a), unit_hex(b)));
    if (n < gap_by_hexes_.size()) return gap_by_hexes_[n];
  }
  const Unit& ua = units_[a];
  const Unit& ub = units_[b];
  const PairMemo& m = memo_[a * units_.size() + b];
  if (m.gap_valid && m.depth_keys == (static_cast<std::uint64_t>(depth_key(ua)) << 32 | depth_key(ub)) &&
      same_bits(m.gap_pos, ua.pos, ub.pos))
    return m.gap;
  return gap_miss(a, b);
}

inline const ChargeWay& Battle::charge_way(std::size_t a, std::size_t b, Length distance) const {
  const PairMemo& m = memo_[a * units_.size() + b];
  if (m.way_valid && m.way_distance == std::bit_cast<std::uint64_t>(distance.as_cm()) && same_bits(m.way_pos, units_[a].pos, units_[b].pos))
    return m.way;
  return charge_way_miss(a, b, distance);
}

inline UnitIndex Battle::nearest_enemy(std::size_t i, bool visible_only) const {
  const NearestMemo& m = nearest_[i];
  if (m.at[visible_only] == changes_) return m.unit[visible_only];
  return nearest_enemy_miss(i, visible_only);
}

inline Hex Battle::unit_hex(std::size_t i) const {
  const Point p = units_[i].pos;
  const HexMemo& m = hex_memo_[i];
  if (m.valid && m.x == std::bit_cast<std::uint64_t>(p.x) && m.y == std::bit_cast<std::uint64_t>(p.y)) return m.hex;
  return unit_hex_miss(i);
}

inline double Battle::pair_bearing(std::size_t a, std::size_t b) const {
  // Both units on their kept hexes' centres: the places' bearing, once
  // built (pair_bearing_miss); positions change at every move, so this is
  // asked before the pair memo.
  if (!centre_bearings_.empty()) {
    const HexMemo& ma = hex_memo_[a];
    const HexMemo& mb = hex_memo_[b];
    const Point pa = units_[a].pos, pb = units_[b].pos;
    if (ma.centre && mb.centre && ma.x == std::bit_cast<std::uint64_t>(pa.x) && ma.y == std::bit_cast<std::uint64_t>(pa.y) &&
        mb.x == std::bit_cast<std::uint64_t>(pb.x) && mb.y == std::bit_cast<std::uint64_t>(pb.y)) {
      const CentreBearing& c = centre_bearings_[ma.place * pair_hexes_ + mb.place];
      if (c.valid) return c.bearing;
    }
  }
  const PairMemo& m = memo_[a * units_.size() + b];
  if (m.bearing_valid && same_bits(m.bearing_pos, units_[a].pos, units_[b].pos)) return m.bearing;
  return pair_bearing_miss(a, b);
}

inline Length Battle::reach(std::size_t i) const {
  const Unit& u = units_[i];
  if (!u.active()) return Length();
  return reach_by_mount_[i][u.on_horse() ? 1 : 0];
}

inline bool Battle::adjacent(std::size_t a, std::size_t b) const {
  return hex_distance(unit_hex(a), unit_hex(b)) == 1;
}

inline bool Battle::sees(std::size_t a, std::size_t b) const {
  if (units_block_sight_) return sees_in_world(a, b);
  const PairMemo& m = memo_[a * units_.size() + b];
  if (m.sees_valid && same_bits(m.sees_pos, units_[a].pos, units_[b].pos)) return m.sees;
  return sees_miss(a, b);
}

}  // namespace vedette
