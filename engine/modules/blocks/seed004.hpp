#pragma once
// Seed 004: a Napoleonic hex-and-block game's cavalry rules as pure
// functions over a HexBoard (engine/board/hexboard.hpp): units as blocks, symbol
// battle dice, flags that force retreats toward the own edge, a hand of
// command cards, and the three rules the seed gives -- Retire and Reform,
// Infantry Square, Combined Arms. The numbers live in tables/seed004.yaml
// (load_seed004); each rule here cites the seed and has a test in
// tests/test_seed004.cpp.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/dice.hpp"
#include "engine/core/fraction.hpp"
#include "engine/board/hexboard.hpp"

namespace vedette {

struct Doc;
class Diagnostics;

// The three arms of seed 004.
enum class Arm : std::uint8_t { infantry, cavalry, artillery };
inline constexpr std::array<std::string_view, 3> k_arm_names{"infantry", "cavalry", "artillery"};

// The symbols on a battle die.
enum class Symbol : std::uint8_t { infantry, cavalry, artillery, sabre, flag };
inline constexpr std::array<std::string_view, 5> k_symbol_names{"infantry", "cavalry", "artillery", "sabre", "flag"};

enum class CombatKind : std::uint8_t { ranged, melee };

enum class ChoicePolicy : std::uint8_t { always, never, by_expected_losses };
inline constexpr std::array<std::string_view, 3> k_choice_policy_names{"always", "never", "by_expected_losses"};

struct Seed004Rules {
  std::string name;
  std::vector<Symbol> faces;                      // the die's faces
  // hit_table[combat][symbol] = the arms it hits (bit per Arm).
  std::array<std::array<std::uint8_t, 5>, 2> hit_table{};
  std::uint8_t hits_on_sabre = 0;                 // bit per Arm
  std::array<int, 3> retreat_hexes_per_flag{1, 1, 1};
  std::vector<int> foot_artillery_dice;           // by range - 1
  std::vector<int> horse_artillery_dice;
  int retire_hexes = 2;
  std::uint8_t retire_hits_on = 0;                // bit per Symbol
  int square_min_cards = 3;
  int square_max_dice = 1;
  int square_cavalry_max_dice = 1;
  std::uint8_t square_bounce_on = 0;              // bit per Symbol
  bool bounced_but_stuck_attacks = true;          // a bounced cavalry that could not move still attacks
  std::vector<std::string> square_forbidden_terrain;
  std::vector<HexTerrain> terrain;                // named hex terrain types
  // Combined arms (seed 004: "No units or terrain may occupy the line of
  // sight path"): `any` terrain other than open on the path blocks it
  // (default), or only terrain that blocks sight (`sight`).
  bool combined_arms_any_terrain_blocks = true;
  ChoicePolicy form_square_policy = ChoicePolicy::by_expected_losses;
  ChoicePolicy retire_policy = ChoicePolicy::by_expected_losses;
  double card_value_blocks = 0.25;
  // The engagement engine's numbers for block units (`engagement:`, optional).
  int infantry_range = 2;   // infantry's ranged combat, in hexes
  int command_cards = 5;    // each side's hand when the scenario does not say
  bool infantry_takes_ground = false;  // after a retire and reform, the infantry moves into the vacated hex

  bool hits(CombatKind c, Symbol s, Arm target) const {
    return (hit_table[static_cast<std::size_t>(c)][static_cast<std::size_t>(s)] >> static_cast<int>(target)) & 1u;
  }
  bool sabres(Arm a) const { return (hits_on_sabre >> static_cast<int>(a)) & 1u; }
  const HexTerrain* find_terrain(std::string_view name) const;
};

using Seed004Ptr = std::shared_ptr<const Seed004Rules>;

// Reads tables/seed004.yaml (first key `seed004`). Throws LoadError listing
// every problem, located.
Seed004Ptr load_seed004(const std::string& path);
// The same from a parsed document (for tests and embedded data).
Seed004Ptr read_seed004(const Doc& root, Diagnostics& d);

// ----------------------------------------------------------------- units

// A block unit on the hex board.
struct BlockUnit {
  Arm arm = Arm::infantry;
  std::uint8_t side = 0;
  int blocks = 4;
  Hex hex;
  bool horse_artillery = false;  // artillery: horse (else foot)
  bool in_square = false;        // infantry
  bool ordered = true;           // ordered this turn (combined arms needs it)
  int ignore_flags = 0;          // flags it may ignore (leader, troop type)
};

// ------------------------------------------------------------------ dice

Symbol roll_symbol(const Seed004Rules& r, Dice& dice);
std::vector<Symbol> roll_symbols(const Seed004Rules& r, Dice& dice, int n);
// The same n dice into out (cleared first): the engine's scratch, no allocation once grown.
void roll_symbols(const Seed004Rules& r, Dice& dice, int n, std::vector<Symbol>& out);

struct Score {
  int hits = 0;
  int flags = 0;
};
// What `rolled` does to a unit of arm `target`. `sabres`: the attacker hits
// on sabres (melee only; combined-arms artillery takes the melee unit's).
Score score(const Seed004Rules& r, std::span<const Symbol> rolled, Arm target, CombatKind c, bool sabres);
// Seed 004, Retire and Reform: only these symbols hit; flags are ignored.
Score score_retiring(const Seed004Rules& r, std::span<const Symbol> rolled);
// The symbols that hit a unit of arm `target` (bit per Symbol), as score() counts them.
std::uint8_t hit_symbols(const Seed004Rules& r, Arm target, CombatKind c, bool sabres);
// The chance one die hits / shows a flag (exact).
Fraction p_hit(const Seed004Rules& r, Arm target, CombatKind c, bool sabres);
Fraction p_retire_hit(const Seed004Rules& r);
Fraction p_symbols(const Seed004Rules& r, std::uint8_t symbol_bits);

// Dice a unit rolls: a block unit one per block (seed 004's example), an
// artillery unit by range (0 when out of range), less terrain, never below 0.
int unit_dice(const Seed004Rules& r, const BlockUnit& u, int range, int terrain_reduction);
// Seed 004: a melee unit's dice against `target`: unit_dice at range 1,
// except that cavalry against an infantry square rolls at most
// square.cavalry_max_dice ("Combat cards and unit type will not increase the
// number of battle dice the cavalry unit may roll against the square"), in
// its attack and when it battles back.
int melee_dice(const Seed004Rules& r, const BlockUnit& u, const BlockUnit& target, int terrain_reduction);
// Artillery's range in hexes.
int artillery_range(const Seed004Rules& r, bool horse);

// -------------------------------------------------------------- retreats

struct Retreat {
  std::vector<Hex> path;  // the hexes moved through, in order (not the start)
  int blocks_lost = 0;    // one per retreat hex not completed
  friend bool operator==(const Retreat&, const Retreat&) = default;
};
// A retreat of `hexes` toward the own edge: each hex must be nearer that
// edge, on the board, passable and empty (choice: terrain that halts
// movement does not stop a retreat). Among the ways, the one that completes
// most hexes, ties by hexside order. A unit that may not move (a square)
// completes none. Seed 004: "one block is lost for each retreat hex the
// cavalry unit cannot complete"; a square "will lose one block for each
// retreat hex the unit cannot complete".
Retreat retreat(const HexBoard& b, Hex from, Edge own, int hexes, bool can_move, std::span<const Hex> occupied);
// The same into `out` (its path's capacity kept: the engagement's scratch,
// no allocation once grown; issue 32).
void retreat(const HexBoard& b, Hex from, Edge own, int hexes, bool can_move, std::span<const Hex> occupied, Retreat& out);
// Hexes a unit of arm `a` retreats for `flags` flags (after those it ignores).
int retreat_hexes(const Seed004Rules& r, Arm a, int flags, int ignored);

// ----------------------------------------------------- retire and reform

enum class RetireRefusal : std::uint8_t { none, not_cavalry_vs_infantry, infantry_battling_back, no_retreat };
inline constexpr std::array<std::string_view, 4> k_retire_refusal_names{
    "allowed", "only cavalry attacked in melee by infantry", "the infantry is battling back",
    "no 2-hex retreat toward the own edge"};

// Every legal retire path (seed 004: "retire 2 hexes towards its side of the
// battlefield ... each hex moved must be closer to the friendly board edge";
// occupied hexes, impassable terrain and the board edge prevent it; terrain
// that halts movement does not). Paths in hexside order; duplicates by
// destination are kept (two ways to the same hex).
std::vector<std::vector<Hex>> retire_paths(const Seed004Rules& r, const HexBoard& b, Hex from, Edge own,
                                           std::span<const Hex> occupied);
// The destinations of those paths, each once, in order.
std::vector<Hex> retire_destinations(const Seed004Rules& r, const HexBoard& b, Hex from, Edge own,
                                     std::span<const Hex> occupied);
RetireRefusal may_retire_and_reform(const Seed004Rules& r, const HexBoard& b, const BlockUnit& cavalry,
                                    Arm attacker, Edge own, std::span<const Hex> occupied, bool infantry_battling_back);

struct RetireResult {
  std::vector<Symbol> rolled;  // infantry and combined-arms artillery dice together
  int hits = 0;                // only cavalry symbols
  bool eliminated = false;
  std::vector<Hex> path;       // the retire move, if it survives
  bool attacker_may_take_ground = true;  // seed 004: the infantry may take ground
  bool cavalry_battles_back = false;     // seed 004: never
  friend bool operator==(const RetireResult&, const RetireResult&) = default;
};
// Seed 004's sequence: the infantry rolls its full dice (plus the combined
// arms artillery's), only cavalry symbols hit, then the survivor retires
// along the first legal path (or `path_choice`). The caller has checked
// may_retire_and_reform.
RetireResult resolve_retire_and_reform(const Seed004Rules& r, const HexBoard& b, BlockUnit& cavalry, int infantry_dice,
                                       int artillery_dice, Edge own, std::span<const Hex> occupied, Dice& dice,
                                       std::size_t path_choice = 0);
// The same into `out` (every field set afresh, its vectors' capacity kept:
// the engagement's scratch, no allocation once grown; issue 32).
void resolve_retire_and_reform(const Seed004Rules& r, const HexBoard& b, BlockUnit& cavalry, int infantry_dice,
                               int artillery_dice, Edge own, std::span<const Hex> occupied, Dice& dice, RetireResult& out,
                               std::size_t path_choice = 0);

// -------------------------------------------------------- infantry square

enum class SquareRefusal : std::uint8_t { none, too_few_cards, terrain, cavalry_battling_back, first_strike };
inline constexpr std::array<std::string_view, 5> k_square_refusal_names{
    "allowed", "two or fewer command cards in hand", "terrain forbids it", "the cavalry is battling back",
    "the cavalry played First Strike"};

// Seed 004: "may not form square ... when you hold two or fewer Command
// cards; on certain terrain hexes; when a cavalry unit is Battling Back;
// [when attacking cavalry that plays] First Strike".
SquareRefusal may_form_square(const Seed004Rules& r, int cards_in_hand, const HexTerrain& terrain,
                              bool cavalry_battling_back, bool first_strike);

// The hand of command cards and the square track.
struct CommandHand {
  std::vector<int> hand;
  std::vector<int> square_track;  // cards under squares, in the order placed
};
// Seed 004: the attacker "selects one card at random from the defending
// infantry player's hand" onto the square track. Returns the card.
int place_square_card(CommandHand& h, Dice& dice);
// Coming out of square, or the square eliminated: the card goes back.
void return_square_card(CommandHand& h, int card);

// Seed 004: a square's dice (and cavalry's against a square) are capped,
// then terrain reduces them: min(dice, cap) - reduction, at least 0.
int capped_dice(int dice, int cap, int terrain_reduction);
// Seed 004: "may not be ordered out of square when there is an enemy cavalry
// unit on any adjacent hex".
bool may_leave_square(const HexBoard& b, const BlockUnit& square, std::span<const BlockUnit> units);
// Seed 004: a square may not move nor take ground; gives support but may not
// receive it.
inline bool may_move(const BlockUnit& u) { return !u.in_square; }
inline bool may_take_ground(const BlockUnit& u) { return !u.in_square; }
inline bool may_receive_support(const BlockUnit& u) { return !u.in_square; }
inline bool may_give_support(const BlockUnit&) { return true; }

struct SquareMelee {
  int square_dice = 0;
  std::vector<Symbol> square_rolled;
  int cavalry_hits_taken = 0;
  bool bounced = false;            // a bounce flag: the cavalry must retreat
  Retreat cavalry_retreat;         // its blocks_lost are the hexes it could not take
  bool cavalry_eliminated = false;
  bool combined_arms_lost = false; // seed 004: the artillery's dice are lost
  bool cavalry_attacks = false;
  int cavalry_dice = 0;
  int artillery_dice = 0;
  std::vector<Symbol> cavalry_rolled;
  int square_hits_taken = 0;
  Retreat square_retreat;          // a square cannot move: a block per hex
  bool square_eliminated = false;
  // Every field: the forms that fill a kept result are checked against
  // fresh ones with it (tests/test_seed004_fill.cpp).
  friend bool operator==(const SquareMelee&, const SquareMelee&) = default;
};
// Seed 004's sequence when cavalry melees an infantry square: the square
// battles first with at most 1 die (less terrain); each bounce flag makes the
// cavalry retreat (not ignorable), a block lost per hex it cannot take; if it
// is eliminated or bounced, any combined-arms dice are lost; otherwise it
// attacks with at most 1 die (less terrain) plus the artillery's dice (which
// hit on sabres as the cavalry does). Flags against the square cost it a
// block per retreat hex (less the flags it may ignore).
SquareMelee resolve_cavalry_vs_square(const Seed004Rules& r, const HexBoard& b, BlockUnit& cavalry, Edge cavalry_edge,
                                      BlockUnit& square, Edge square_edge, int artillery_dice,
                                      std::span<const Hex> occupied, Dice& dice);
// The same into `out` (every field set afresh, its vectors' capacity kept:
// the engagement's scratch, no allocation once grown; issue 32).
void resolve_cavalry_vs_square(const Seed004Rules& r, const HexBoard& b, BlockUnit& cavalry, Edge cavalry_edge,
                               BlockUnit& square, Edge square_edge, int artillery_dice, std::span<const Hex> occupied,
                               Dice& dice, SquareMelee& out);

// ---------------------------------------------------------- combined arms

enum class CombinedArmsRefusal : std::uint8_t {
  none, not_artillery, not_ordered, melee_unit, out_of_range, over_friendly_lower, no_line_of_sight
};
inline constexpr std::array<std::string_view, 7> k_combined_arms_refusal_names{
    "allowed", "not an artillery unit", "the artillery is not ordered",
    "only an infantry or cavalry melee", "out of range", "over a friendly unit on a lower adjacent hex",
    "no clear line of sight"};

// Seed 004: ordered artillery in range, with a clear line of sight (no unit
// or terrain on the path) to the target, may add its dice to an ordered
// infantry or cavalry melee, but not over a friendly unit on a lower adjacent
// hex. `units`: every unit on the board (the artillery, melee unit and
// target among them).
CombinedArmsRefusal combined_arms(const Seed004Rules& r, const HexBoard& b, const BlockUnit& artillery,
                                  const BlockUnit& melee_unit, const BlockUnit& target, std::span<const BlockUnit> units);
// Seed 004: the artillery's dice are lost when the melee unit is eliminated
// or forced back before it attacks (square's bounce, First Strike).
inline int combined_arms_dice_after(int artillery_dice, bool attacker_eliminated, bool attacker_retreated) {
  return attacker_eliminated || attacker_retreated ? 0 : artillery_dice;
}
// Seed 004: battle back "must fight against the infantry or cavalry unit,
// not against the artillery": the index of the unit battled back against.
inline std::size_t battle_back_target(std::size_t melee_unit, std::optional<std::size_t> /*artillery*/) {
  return melee_unit;
}

}  // namespace vedette
