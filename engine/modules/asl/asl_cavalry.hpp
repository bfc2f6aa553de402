#pragma once
// Seed 000 (ASL chapter 13, Cavalry): its numbers (tables/asl_cavalry.yaml,
// loaded with located errors) and the mechanisms that apply them: the MF
// bookkeeping of a unit and its horse through one MPh (13.31 cross-losses,
// 13.34 allotment, 13.36 Gallop), Charge legality (13.6), horse capacity
// (13.32), fire against and by Cavalry (13.4, 13.5) and the Cavalry Wave's
// prerequisites (13.62).
//
// The bookkeeping model (13.31), checked against both worked examples:
//  * The unit has its basic Infantry allotment (4 MF). It spends it moving
//    as Infantry and (dis)mounting (1 MF each), and loses MF of it to the
//    horse. While mounted it moves on the horse's MF (Cavalry MF).
//  * The horse has its current allotment (12, 16 or 20 MF: 13.34, 13.36) and
//    counts the Cavalry MF it expended and the MF it lost.
//  * On each (dis)mounting the unit loses 1 MF per 25% of the horse's current
//    allotment (each 25% begun) the horse has already used/lost this MPh, not
//    counting what it lost to this unit's own (dis)mounting; and the horse
//    loses 25% of its current allotment per MF the unit expended this MPh and
//    has not yet been charged for (prior to and during this (dis)mounting).
//  * A (dis)mounting is NA if the unit would go beyond its 4 MF or the horse
//    beyond its allotment.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/words.hpp"

namespace vedette::asl {

// ------------------------------------------------------------------- rules

enum class Rounding : std::uint8_t { up, down };
inline constexpr std::array<std::string_view, 2> k_rounding_names{"up", "down"};

struct TerrainRule {
  std::string id;          // "woods_road"
  std::string text;        // "woods along a road"
  bool gallop_declare = true;  // a Gallop may be declared while in it (13.36)
  bool gallop_enter = true;    // Galloping Cavalry may move into it (13.36)
  std::optional<int> cavalry_mf;  // the seed's Cavalry MF cost, if it gives one (13.3)
};

// Unit and Horse-counter sizes (13.32).
enum class UnitKind : std::uint8_t { squad, half_squad, crew, smc };
inline constexpr std::array<std::string_view, 4> k_unit_kind_names{"squad", "half_squad", "crew", "smc"};
enum class HorseKind : std::uint8_t { squad, half_squad, smc };
inline constexpr std::array<std::string_view, 3> k_horse_kind_names{"squad", "half_squad", "smc"};
// What MMC a Horse counter carries: nothing, a HS-equivalent, a squad-equivalent.
enum class MmcLoad : std::uint8_t { none, half_squad, squad };
inline constexpr std::array<std::string_view, 3> k_mmc_load_names{"none", "half_squad", "squad"};

struct HorseCapacity {
  int depictions = 0;
  MmcLoad mmc = MmcLoad::none;
  int smc_min = 0;
  std::optional<int> smc_max;  // nullopt: any number
};

struct WaveRules {
  int min_squad_equivalents_per_hex = 1;
  int enemy_within_hexes = 3;  // no chain unit at this range or closer
  int max_mf_to_enemy = 16;
  int max_mmc_per_hex = 1;     // average
  int min_leaders = 1;
};

struct SoloRules {
  int walk_mf = 6;
  int canter_mf = 12;
};

struct Rules {
  std::string name, description;
  std::vector<std::string> sources;  // files loaded, base first
  // 13.34, 13.31 (4.11)
  int horse_allotment = 12;
  int infantry_allotment = 4;
  // 13.31
  int mount_cost = 1;
  bool mount_in_aph = false;
  int share_pct = 25;
  Rounding unit_loss_rounding = Rounding::up;
  bool count_own_horse_losses = false;
  // 13.36
  int gallop_at_start = 8;
  int gallop_during = 4;
  std::vector<TerrainRule> terrain;
  // 13.6
  int charge_min_range = 3;
  int charge_extra_mf = 3;
  // 13.4, 13.5
  int vulnerability_drm = -2;
  int mounted_fire_divisor = 2;
  int tpbf_multiplier = 3;  // 13.6: a Charge attacks with TPBF (A7.21: FP tripled)
  // 13.32, by HorseKind
  std::array<HorseCapacity, 3> capacity{};
  // 13.62
  WaveRules wave;
  SoloRules solo;

  const TerrainRule* find_terrain(std::string_view id) const;
  // 25% (share_pct) of an allotment: the horse's loss per unit MF, and the
  // block of its used/lost MF that costs the unit 1 MF.
  int share(int allotment) const { return allotment * share_pct / 100; }
  const HorseCapacity& capacity_of(HorseKind k) const { return capacity[static_cast<std::size_t>(k)]; }
};
using RulesPtr = std::shared_ptr<const Rules>;

// Loads a module file (`extends:` a base file or builtin:asl_cavalry is
// allowed). Throws LoadError with every problem found, located.
RulesPtr load_rules(const std::string& path);
// builtin:asl_cavalry, loaded once.
RulesPtr default_rules();
inline constexpr std::string_view k_builtin_rules = "builtin:asl_cavalry";

// Terrain ids as users write them: `woods-road` is `woods_road`.
std::string normalise_id(std::string s);
// "woods-road" for display: vedette::dashed (engine/core/words.hpp).
using vedette::dashed;
// "6 MF": a number of movement factors as the rules write them.
inline std::string mf(int v) { return std::to_string(v) + " MF"; }

// ------------------------------------------------------------ bookkeeping

enum class Phase : std::uint8_t { mph, aph };

struct PlanStart {
  bool mounted = false;
  Phase phase = Phase::mph;
  bool cx = false;               // the Cavalry/Horse is already CX (13.36: no Gallop)
  std::string terrain = "open";  // where the unit is when the MPh starts
  int horse_used_before = 0;     // MF the horse already used/lost this MPh (ridden/led by another)
  UnitKind unit = UnitKind::smc;
  std::optional<HorseKind> horse;  // default: the size that fits the unit
  std::vector<UnitKind> horse_carries;  // already Riding the horse (--start infantry)
  bool enemy_known = true;       // a Charge's target is Known (13.6)
  bool enemy_in_los = true;      // ... and in the unit's LOS when declared
};

struct Step {
  enum class Kind : std::uint8_t { move, mount, dismount, gallop, gallop_start, charge, attack, min_move, assault_move, eliminate_horse };
  Kind kind = Kind::move;
  std::optional<int> cost;       // move, attack, assault_move: MF; nullopt: the terrain's cavalry_mf
  std::string terrain;           // move, charge, min_move ("" = not given)
  int range = 0;                 // charge: hexes when declared
  std::string text;              // as written
};

// Parses one planner step: move:COST[:TERRAIN], move:TERRAIN (a terrain
// whose Cavalry cost the seed gives), mount, dismount, gallop,
// gallop-start, charge:RANGE[:TERRAIN], attack:COST, min-move[:TERRAIN],
// assault-move:COST (Infantry Assault Movement, 13.5, 13.7),
// eliminate-horse (13.7: a unit leading its Horse counter eliminates it).
// nullopt with `why` set when it is malformed.
std::optional<Step> parse_step(const Rules& r, const std::string& text, std::string& why);

struct PlanState {
  bool mounted = false;
  int unit_expended = 0;    // Infantry MF expended this MPh (moves, (dis)mounting)
  int unit_lost = 0;        // lost to the horse (13.31)
  int unit_charged = 0;     // of unit_expended, how many the horse has lost MF for
  int horse_allotment = 12;
  int horse_used = 0;       // Cavalry MF expended while ridden
  int horse_lost_own = 0;   // lost to this unit's (dis)mounting (13.31)
  int horse_before = 0;     // used/lost before the plan (PlanStart::horse_used_before)
  bool galloping = false;
  bool gallop_at_start = false;
  bool horse_cx = false;
  bool unit_cx = false;
  bool min_move = false;
  std::string terrain = "open";
  std::optional<HorseKind> horse;  // the Horse counter ridden or waiting
  // 13.6: a declared Charge not yet carried out.
  bool charge_pending = false;
  int charge_range = 0;
  std::string charge_terrain;
  int charges = 0;          // Charge attacks made
  int charges_declared = 0; // 13.61: a unit that declared a Charge gets a Prep Fire counter, even if dismounted
  int steps_taken = 0;      // legal steps so far
  bool dismounted = false;        // dismounted this MPh (13.5: no Assault Movement this turn)
  bool assault_moved = false;     // used Assault Movement (13.7: no horse moves by it, so it is left behind)
  bool horse_eliminated = false;  // 13.7: eliminated by the unit leading it, as if it were a SW

  int unit_left(const Rules& r) const { return r.infantry_allotment - unit_expended - unit_lost; }
  int horse_spent() const { return horse_used + horse_lost_own + horse_before; }
  int horse_left() const { return horse_allotment - horse_spent(); }
};

struct StepResult {
  Step step;
  bool legal = false;
  std::string rule;     // the paragraph: "13.31"
  std::string reason;   // what happened, or why it is NA
  int unit_lost = 0;    // this step
  int horse_lost = 0;   // this step
  PlanState after;      // the state after (unchanged when NA)
};

class Planner {
 public:
  Planner(const Rules& r, const PlanStart& start);
  // Applies the step if it is legal; an NA step changes nothing.
  StepResult apply(const Step& s);
  const PlanState& state() const { return s_; }
  // How many more Cavalry MF the unit may spend (in terrain that costs
  // them, without other steps) and still dismount this MPh; nullopt when it
  // is not mounted or cannot dismount even now.
  std::optional<int> max_cavalry_mf_before_dismount() const;
  const Rules& rules() const { return *r_; }
  const PlanStart& start() const { return start_; }

 private:
  StepResult mount_or_dismount(const Step& s, bool mounting);
  StepResult move(const Step& s);
  StepResult gallop(const Step& s, bool at_start);
  StepResult charge(const Step& s);
  StepResult attack(const Step& s);
  StepResult min_move(const Step& s);
  StepResult assault_move(const Step& s);
  StepResult eliminate_horse(const Step& s);
  // Why Galloping Cavalry may not enter `terrain` ("" when it may).
  std::string gallop_entry_problem(const std::string& terrain) const;
  // Why a Gallop may not be declared now ("" when it may).
  std::string gallop_declare_problem() const;

  const Rules* r_;
  PlanStart start_;
  PlanState s_;
};

// --------------------------------------------------------------- capacity

struct MountCheck {
  bool legal = false;
  HorseKind rides = HorseKind::smc;  // the Horse counter the unit ends up on
  std::string effect;  // "mounts it", "the Horse counter Deploys ..."
};
// Whether `unit` may mount a Horse counter of size `horse` already carrying
// `riders`, and what 13.32 does to the counter first.
MountCheck check_mount(const Rules& r, HorseKind horse, const std::vector<UnitKind>& riders, UnitKind unit);
// Whether a Horse counter can carry these riders (13.32).
bool can_carry(const Rules& r, HorseKind horse, const std::vector<UnitKind>& riders, std::string& why);
// The smallest Horse counter that carries this unit alone.
HorseKind horse_for(UnitKind u);

// ------------------------------------------------------------------ Charge

struct ChargeInputs {
  int range = 0;              // hexes to the target Location when declared
  bool known = true;          // Known-enemy-occupied
  bool in_los = true;
  bool mounted = true;
  bool galloping = false;     // already Galloping
  bool cx = false;            // the Cavalry/Horse is CX (no Gallop declaration)
  std::string in_terrain = "open";       // where the unit is (Gallop declaration)
  std::vector<std::string> target_terrain;  // the target Location (and how it is entered)
  std::optional<int> mf_left;  // the horse's MF left before declaring
  std::optional<int> cost;     // MF to reach and enter the target Location
};
struct Requirement {
  std::string text;   // what 13.6 asks
  bool met = false;
  std::string detail;
  std::string rule;
};
struct ChargeCheck {
  bool legal = false;
  bool declares_gallop = false;  // the Charge needs a Gallop declared with it
  std::optional<int> mf_left_after_gallop;
  std::vector<Requirement> requirements;
};
ChargeCheck check_charge(const Rules& r, const ChargeInputs& in);

// -------------------------------------------------------------------- fire

enum class FireTarget : std::uint8_t { cavalry, horse };
struct FireDrm {
  int drm = 0;
  std::string why;
};
// The DRM of 13.5 on an IFT (or ordnance TH) attack against Cavalry or its
// horses, given whether FFMO/FFNAM would apply and whether it is a
// minefield attack.
FireDrm drm_when_fired_on(const Rules& r, FireTarget t, bool ffmo, bool ffnam, bool minefield);
enum class FireKind : std::uint8_t { normal, close_combat, charge };
struct MountedFire {
  int num = 0, den = 1;  // FP as a fraction (fractions kept)
  bool halved = false;
  std::string why;
};
// Cavalry's FP as Mounted Fire (13.4): halved except in CC or a Charge.
MountedFire mounted_fire(const Rules& r, int fp, FireKind k);

// ------------------------------------------------------------ Cavalry Wave

struct WaveHex {
  int squads = 0;
  int half_squads = 0;  // and crews
  int leaders = 0;      // SMC leaders
};
struct WaveInputs {
  std::vector<WaveHex> chain;
  std::optional<int> nearest_enemy_hexes;  // from any unit in the chain
  std::optional<int> mf_to_enemy;          // fewest MF from a chain unit to an enemy unit it sees
  bool los_to_enemy = true;
  bool all_can_gallop = true;
  bool with_infantry = false;
};
struct WaveCheck {
  bool legal = false;
  std::vector<Requirement> requirements;
  std::vector<std::string> reminders;  // what follows a declaration
};
WaveCheck check_wave(const Rules& r, const WaveInputs& in);

}  // namespace vedette::asl
