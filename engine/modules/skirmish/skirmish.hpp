#pragma once
// Skirmish: seed 001's figure-by-figure game on the tabletop. Every soldier
// or rider is a figure with a skill; each turn the sides alternate figure by
// figure (initiative first) and each figure spends its actions one at a
// time, its side's bot choosing each. The rules (engine/decision/skirmish_rules.hpp,
// a ruleset's `skirmish:` section) are data; this file holds the mechanisms:
// movement per action (obstacles, riding double, buildings' large doors),
// (dis)mounting, horse holders and bolting horses, firing from horseback and
// at mounted targets, hits on horse or rider, spills and falls, fear of
// charge, close combat with riders, and the "final charge". docs/skirmish.md
// walks through each rule.
//
// Scenarios are sims/scenarios/*.yaml files whose first key is `skirmish`
// (load_skirmish_scenario). Dice come from a Roller: the game rolls from
// make_stream(seed, index, subsystem) streams; tests script the faces.
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/diagnostics.hpp"
#include "engine/core/dice.hpp"
#include "engine/core/record.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/board/tabletop.hpp"
#include "engine/board/unit.hpp"

namespace vedette {

struct Doc;

// Any die, one roll at a time.
class Roller {
 public:
  virtual ~Roller() = default;
  virtual int d(int sides) = 0;
};

// Rolls from an engine's dice stream.
class DiceRoller final : public Roller {
 public:
  explicit DiceRoller(Dice& dice) : dice_(&dice) {}
  int d(int sides) override { return dice_->d(sides); }

 private:
  Dice* dice_;
};

// ------------------------------------------------------------ scenario

struct SkirmishBuilding {
  std::string name;
  std::size_t area = 0;             // its area in the tables
  std::vector<Point> large_doors;   // seed 001: horses enter only through these
};

struct SkirmishFigureSpec {
  std::string name;
  std::uint8_t side = 0;
  int skill = 10;
  std::size_t weapon = 0;  // index into the rules' weapons
  Point position;          // cm
  double facing = 0;
  bool horse = false;      // starts mounted on its own horse
  std::string behind;      // starts riding double behind this figure
  bool prone = false;
  std::string role;        // for the bots (bots/skirmish_bots.hpp)
  Location where;
};

struct SkirmishScenario {
  std::string name;
  std::string description;
  std::string file;
  RulesetPtr rules;
  const SkirmishRules* sk = nullptr;  // rules->skirmish
  // The same terrain twice: on foot an obstacle marked `action_to_cross`
  // costs a whole action (the foot move); mounted it costs the seed's 1in.
  // Buildings without a large door are impassable to horses.
  std::shared_ptr<const Tabletop> foot, horse;
  std::shared_ptr<const Tabletop> terrain;  // as written (walls at their own crossing cost)
  std::vector<bool> action_to_cross;        // per wall
  std::vector<SkirmishBuilding> buildings;
  struct Side {
    std::string name;
    Edge edge = Edge::bottom;
    std::string bot;
    std::optional<Point> objective;  // where its bot heads when it sees no one
  };
  std::array<Side, 2> sides;
  std::vector<SkirmishFigureSpec> figures;
  int turns = 10;
  std::array<int, 2> breaks_at_pct{50, 50};  // a side with this % of its figures out of action loses
  std::optional<std::uint8_t> at_turn_limit;
  bool mounted_melee_in_buildings = false;   // seed 001: only if the scenario says so
};
using SkirmishScenarioPtr = std::shared_ptr<const SkirmishScenario>;

// Is this parsed document a skirmish scenario (first key `skirmish`)?
bool is_skirmish(const Doc& root);
bool is_skirmish_file(const std::string& path);
// Loads and validates; `ruleset_override` replaces its `ruleset:`; `rules`
// (if given) replaces both. Throws LoadError listing every problem.
SkirmishScenarioPtr load_skirmish_scenario(const std::string& path, const std::string& ruleset_override = "");
// The same scenario under another ruleset (which must have `skirmish:`).
SkirmishScenarioPtr with_rules(const SkirmishScenario& s, RulesetPtr rules);
// Builds the two tables from terrain and buildings (for scenarios made in code).
void build_tables(SkirmishScenario& s, const Tabletop& terrain, const std::vector<bool>& action_to_cross);

// ------------------------------------------------------------ state

enum class Health : std::uint8_t { fit, light, out, dead };  // out: heavily wounded
inline constexpr std::array<std::string_view, 4> k_health_names{"fit", "light-wounded", "out of action", "dead"};

struct SkFigure {
  const SkirmishFigureSpec* spec = nullptr;
  std::uint8_t side = 0;
  Point pos;
  double facing = 0;
  int horse = -1;    // the horse it rides
  bool prone = false;
  Health health = Health::fit;
  int light_wounds = 0;
  bool suppressed = false;  // loses its next action (base game, EXAMPLE)
  bool holder = false;      // holding horses
  bool op_fire = false;     // waiting to fire at the first enemy that moves in sight
  double moved_cm = 0;      // in its last action
  double move_dir = 0;      // bearing of that movement
  int fear_turn = -1;       // the turn it last took a Fear of Charge check
  std::vector<int> fear_charges;  // the charges of turn fear_turn it checked for (fear_charge_of)
  int busy = 0;             // actions still spent (dis)mounting (movement.mount_actions)
  bool active() const { return health == Health::fit || health == Health::light; }
  bool mounted() const { return horse >= 0; }
};

struct SkHorse {
  Point pos;
  int owner = -1;                 // the figure it belongs to
  std::array<int, 2> riders{-1, -1};  // saddle, and behind it (riding double)
  bool alive = true;
  bool bolted = false;
  double moved_cm = 0;  // in its last action
  double move_dir = 0;
  bool in_play() const { return alive && !bolted; }
  bool ridden() const { return riders[0] >= 0; }
  bool doubled() const { return riders[1] >= 0; }
};

struct SkAction {
  enum class Kind : std::uint8_t { hold, move, charge, fire, fire_at_horse, mount, mount_double, dismount, prone, hold_horses, op_fire };
  Kind kind = Kind::hold;
  Point dest;      // move
  int target = -1;  // charge, fire: a figure; fire_at_horse: a horse; mount_double: the rider in the saddle
};
std::string_view action_name(SkAction::Kind k);

// Counters per side (the lab's metrics).
struct SkSideOutcome {
  int figures = 0;
  int figures_out = 0;       // out of action or dead
  int light_wounds = 0;
  int shots = 0;
  int hits = 0;
  int horses_lost = 0;       // mortally wounded
  int horses_bolted = 0;
  int riders_spilled = 0;    // knocked off: a fall or a spill
  int light_wound_falls = 0; // failed the skill check after a light wound
  int mounts = 0, dismounts = 0;
  int riding_double_moves = 0;
  int charges = 0;           // rider moves of 6in or more into contact
  int fear_checks = 0;       // taken by this side's infantry
  int fear_failed = 0;
  int caught_in_open = 0;
  int close_combats = 0;     // contacts this side's riders made
  int contact_checks_failed = 0;  // infantry skill checks failed on contact
  int final_charges = 0;     // this side's dying horses reaching an infantryman
};

struct SkOutcome {
  std::optional<std::uint8_t> winner;
  std::string reason;
  int turns = 0;
  std::array<SkSideOutcome, 2> sides{};
};

class SkirmishGame;

// Answers to a pure question of the fixed terrain, keyed by the exact bits
// of the N doubles it is asked with (positions, facings): a hit returns what
// the computation gave for those very bits, so it is the computation's
// answer. Games replay the same places again and again (every game starts
// from the scenario's, the squad mostly stands, the first rides are the
// same until the dice part them): 500 village_patrol games ask 41,592 sight
// lines between 2,153 distinct pairs of points. Direct-mapped: a new key
// takes its slot's place. The slots are made once (no allocation after).
template <std::size_t N, class V>
class BitsMemo {
 public:
  // 2 to 2^30 slots (log2_slots 1..30).
  explicit BitsMemo(unsigned log2_slots) : shift_(64 - log2_slots), slots_(std::size_t{1} << log2_slots) {}
  // The answer for these bits: kept, or compute() (then kept).
  template <class Compute>
  const V& get(const std::array<double, N>& at, Compute&& compute) {
    std::array<std::uint64_t, N> key;
    std::uint64_t h = 0;
    for (std::size_t i = 0; i < N; ++i) {
      key[i] = std::bit_cast<std::uint64_t>(at[i]);
      h = (h ^ key[i]) * 0x9E3779B97F4A7C15ull;
    }
    Slot& s = slots_[(h ^ (h >> 29)) >> shift_];
    bool same = s.used;
    for (std::size_t i = 0; i < N; ++i) same = same && s.key[i] == key[i];  // (std::array's != calls memcmp)
    if (!same) {
      s.value = compute();
      s.key = key;
      s.used = true;
    }
    return s.value;
  }

 private:
  struct Slot {
    std::array<std::uint64_t, N> key{};
    bool used = false;
    V value{};
  };
  unsigned shift_;
  std::vector<Slot> slots_;
};

// A side's player: one action at a time for one of its figures.
class SkirmishBot {
 public:
  virtual ~SkirmishBot() = default;
  virtual SkAction act(const SkirmishGame& g, std::size_t figure) const = 0;
};

// ------------------------------------------------------------ the game

class SkirmishGame {
 public:
  SkirmishGame(const SkirmishScenario& s, std::array<const SkirmishBot*, 2> bots, std::uint64_t seed, std::uint64_t index = 0);
  SkirmishGame(const SkirmishGame&) = delete;
  SkirmishGame& operator=(const SkirmishGame&) = delete;
  void reset(std::uint64_t seed, std::uint64_t index);
  void attach(Recorder* r) { rec_ = r; }
  bool play_turn();
  const SkOutcome& run();

  const SkirmishScenario& scenario() const { return *s_; }
  const SkirmishRules& rules() const { return *s_->sk; }
  const std::vector<SkFigure>& figures() const { return figs_; }
  const std::vector<SkHorse>& horses() const { return horses_; }
  const SkOutcome& outcome() const { return out_; }
  int turn() const { return turn_; }
  bool finished() const { return finished_; }
  // Dice rolled so far, all streams together (benchmarks: the dice floor).
  std::uint64_t dice_rolled() const {
    return decisions_.rolled() + movement_.rolled() + shooting_.rolled() + melee_.rolled() + morale_.rolled();
  }

  // Questions bots and rules ask.
  double dist_cm(Point a, Point b) const { return euclid_cm(a, b); }
  // dist_cm of two figures' places, kept with the pair's sight (pair_memo).
  double figure_dist_cm(std::size_t a, std::size_t b) const { return pair_dist(a, b); }
  // dist_cm(a, b) <= r, the same answer without the hypot when the squared
  // distance settles it: dx*dx + dy*dy and r*r are within a few units in
  // the last place of the exact squares and hypot within one of the exact
  // distance, so outside a relative band of 1e-9 around r*r the comparison
  // of squares cannot differ; inside it (and for r or distances out of
  // 1e-100..1e100, where squares under- or overflow) hypot decides.
  bool within_cm(Point a, Point b, double r) const {
    if (r > 1e-100 && r < 1e100) {
      const double s = dist2_cm(a, b), r2 = r * r;
      if (s < r2 * (1 - 1e-9)) return true;
      if (s > r2 * (1 + 1e-9) && s < 1e200) return false;
    }
    return dist_cm(a, b) <= r;
  }
  bool sees(std::size_t a, std::size_t b) const;
  bool sees_point(Point a, Point b) const;
  // Cover level of a figure as seen from `viewer` (areas and obstacles).
  int cover_of(std::size_t f, Point viewer) const;
  // Cover level of a point (areas only: "in cover" for fear and contact).
  int cover_at(Point p) const { return s_->foot->cover_at(p); }
  // cover_at(figures()[f].pos), kept with the figure's cover points.
  int figure_cover_at(std::size_t f) const { return cover_points(f).level[4]; }
  // Each side's figures in figure order (made by reset()).
  const std::vector<std::size_t>& side_figures(std::uint8_t side) const { return side_figs_[side]; }
  int building_at(Point p) const;  // index, or -1
  int nearest_visible_enemy(std::size_t f, bool foot_only = false) const;
  bool enemy_known(std::uint8_t side, Point p, double* nearest = nullptr) const;
  // Horses of this side left unattended (seed 001: one holder per five).
  bool attended(std::size_t horse) const;
  double move_allowance_cm(std::size_t f) const;
  std::optional<std::string> may_fire(std::size_t shooter) const;  // why not
  // The to-hit modifiers against a figure (terms), `intended_cm` for opportunity fire.
  Terms to_hit_terms(std::size_t shooter, std::size_t target, std::optional<double> intended_cm) const;
  // The most the die may show for a hit if `shooter` fired at `target` now
  // (its range band less the modifiers); nullopt if it may not or cannot.
  std::optional<int> fire_need(std::size_t shooter, std::size_t target) const;
  // Where a man who failed his gut check against a charger at `from` runs
  // to: the nearest +5 cover (areas, or behind a +5 wall), at any distance.
  std::optional<Point> flee_cover(std::size_t figure, Point from) const;

  // Rules, each a public step so tests can drive it with scripted dice.
  void act(std::size_t f, const SkAction& a, Roller& dice);
  void fire(std::size_t shooter, std::size_t target, Roller& dice, std::optional<double> intended_cm = std::nullopt);
  void fire_at_horse(std::size_t shooter, std::size_t horse, Roller& dice);
  void hit_figure(std::size_t target, Wound w, Roller& dice, const char* why);
  void hit_horse(std::size_t horse, Wound w, Roller& dice);
  void knocked_off(std::size_t rider, bool moving, Roller& dice);
  bool skill_check(std::size_t f, int modifier, Roller& dice, const char* why);
  void charge(std::size_t f, std::size_t target, Roller& dice);
  // `charge`: which of this turn's charges the ride belongs to (fear_charge_of).
  void fear_of_charge(std::size_t charger, Point from, Point to, Roller& dice, int charge = 0);
  // Seed 001 "per charge, not per horse": the charge of this turn a ride by
  // `side` from `from` belongs to (rules' fear_of_charge.per, .together),
  // joining it or starting a new one.
  int fear_charge_of(std::uint8_t side, Point from);
  // `from`: where the rider came from (cover is judged from there: a man
  // behind a wall the rider has just jumped is still behind his wall).
  void close_combat(std::size_t rider, Roller& dice, std::optional<Point> from = std::nullopt);
  void he_burst(Point at, Roller& dice);
  Wound roll_column(std::string_view column, int modifier, Roller& dice, const char* why);
  // Test set-up: change a figure or a horse directly (not a figure's side:
  // each side's list of figures is made by reset()). `edit` gets the figure
  // for the call only, and the change counts as a change of the figures
  // (moved_ below) once it is made: no reference outlives the edit, so no
  // answer kept before it (nearest_kept_, known_kept_) can be read after it.
  template <class Edit>
  void edit_figure(std::size_t i, Edit&& edit) {
    edit(figs_[i]);
    ++moved_;
  }
  template <class Edit>
  void edit_horse(std::size_t i, Edit&& edit) {
    edit(horses_[i]);
    ++moved_;
  }

 private:
  // tests/test_perf_invariants_skirmish.cpp: path_end against path_end_now,
  // flee_cover against flee_cover_now.
  friend struct SkirmishProbe;
  void start(std::uint64_t seed, std::uint64_t index);
  // Why a figure may not fire now (may_fire's words, without building them).
  enum class FireBar : std::uint8_t { none, out, holder, doubled, moving };
  FireBar fire_bar(std::size_t f) const;
  template <class Add>
  void each_to_hit_term(std::size_t shooter, std::size_t target, std::optional<double> intended_cm, Add&& add) const;
  long long to_hit_sum(std::size_t shooter, std::size_t target, std::optional<double> intended_cm) const;
  void activate(std::size_t f);
  void move(std::size_t f, Point dest, Roller& dice);
  // Moves f (mounted or on foot) toward dest; returns where it stops.
  Point path_end(std::size_t f, Point from, Point dest, double allowance_cm) const;
  void place(std::size_t f, Point p, double dir, double moved);
  // `dir`: the bearing of the intended move (a horse killed now spills along it).
  bool opportunity_fire(std::size_t mover, double intended_cm, double dir, Roller& dice);
  void unhorse(std::size_t rider);
  void mark_out(std::size_t f);
  bool check_victory();
  // The game ends; its reason is written into out_.reason (whose buffer
  // start() keeps from game to game: the Monte Carlo's games allocate
  // nothing once warmed up, tests/no_alloc).
  void finish(std::optional<std::uint8_t> winner);
  void emit(const char* phase, const char* kind, std::size_t f, std::string text);
  std::string in(double cm) const;
  const std::string& name(std::size_t f) const { return figs_[f].spec->name; }

  const SkirmishScenario* s_;
  std::array<const SkirmishBot*, 2> bots_;
  Rng rng_decisions_, rng_movement_, rng_shooting_, rng_melee_, rng_morale_;
  Dice decisions_, movement_, shooting_, melee_, morale_;
  DiceRoller r_decisions_, r_movement_, r_shooting_, r_melee_, r_morale_;
  Recorder* rec_ = nullptr;
  std::vector<SkFigure> figs_;
  std::vector<SkHorse> horses_;
  mutable std::vector<char> taken_;                 // attended(): scratch
  // sees(a, b) per ordered pair of figures, keyed by the exact bits of both
  // positions: a hit returns what sees_point gave for those very points
  // (the terrain is the scenario's, fixed). Valid across reset().
  // The same key also holds the distance between them and the cover of the
  // second as seen from the first (with the bits of its facing).
  struct SightMemo {
    std::uint64_t key[4]{};
    bool valid = false;
    bool sees = false;
    bool dist_valid = false;
    double dist = 0;
    bool cover_valid = false;
    std::uint64_t cover_facing = 0;
    int cover = 0;
  };
  // Reset to the current positions if they moved.
  SightMemo& pair_memo(std::size_t a, std::size_t b) const {
    const Point pa = figs_[a].pos, pb = figs_[b].pos;
    return keyed(sight_memo_[a * figs_.size() + b], std::bit_cast<std::uint64_t>(pa.x), std::bit_cast<std::uint64_t>(pa.y), pb);
  }
  // The entry m of a pair whose first figure's position has these bits and
  // whose second stands at pb, reset if either moved.
  static SightMemo& keyed(SightMemo& m, std::uint64_t ax, std::uint64_t ay, Point pb) {
    const std::uint64_t bx = std::bit_cast<std::uint64_t>(pb.x), by = std::bit_cast<std::uint64_t>(pb.y);
    if (m.key[0] != ax || m.key[1] != ay || m.key[2] != bx || m.key[3] != by) {
      m.key[0] = ax;
      m.key[1] = ay;
      m.key[2] = bx;
      m.key[3] = by;
      m.valid = m.dist_valid = m.cover_valid = false;
    }
    return m;
  }
  static double dist2_cm(Point a, Point b) {
    const Point d = b - a;
    return d.x * d.x + d.y * d.y;
  }
  // The squared distance (dist2_cm) above which any is so far above t that
  // hypot's distance for it is above hypot's for t (the bounds of within_cm;
  // t = 0 or out of range: none, infinity).
  static double farther_than_cm(double t) { return t > 1e-200 && t < 1e200 ? t * (1 + 1e-9) : std::numeric_limits<double>::infinity(); }
  // And below which any is nearer for sure (none: 0).
  static double nearer_than_cm(double t) { return t > 1e-200 && t < 1e200 ? t * (1 - 1e-9) : 0.0; }
  double pair_dist(std::size_t a, std::size_t b) const;      // dist_cm of their positions
  int cover_from(std::size_t target, std::size_t viewer) const;  // cover_of(target, viewer's position)
  mutable std::vector<SightMemo> sight_memo_;
  // A count of the changes to any figure's place, health or horse: start(),
  // place(), unhorse(), mounting, mark_out() (right after a figure is put
  // out of action), a flight from fear of charge, and the test set-up's
  // edit_figure() and edit_horse(). Answers that read
  // only those (nearest_visible_enemy, enemy_known without `nearest`) are
  // kept with the count they were made at and hold while it stays.
  std::uint64_t moved_ = 0;
  struct Kept {
    std::uint64_t moved = ~std::uint64_t{0};  // never a count reached
    int answer = 0;
  };
  mutable std::vector<Kept> nearest_kept_;     // per figure, then foot_only
  mutable std::array<Kept, 2> known_kept_{};  // enemy_known per side, without `nearest`
  int nearest_visible_enemy_now(std::size_t f, bool foot_only) const;
  bool enemy_known_now(std::uint8_t side, Point p, double* nearest) const;
  // Each figure's cover points (Tabletop::cover_points of the square
  // cover_of measures: corners, centre, each one's cover from areas), keyed
  // by the exact bits of its position and facing, so that cover_of asks only
  // the obstacles per viewer. Valid across reset() (the terrain is fixed).
  struct PlaceCover {
    std::uint64_t key[3]{};
    bool valid = false;
    Tabletop::CoverPoints pts;
  };
  mutable std::vector<PlaceCover> place_cover_;
  // The same questions kept by the bits they are asked with, for any figure
  // or pair (BitsMemo): sees_point (a, b), cover_of (the figure's position
  // and facing, the viewer), and the cover points of a place (position,
  // facing). The per-pair and per-figure entries above answer first; these
  // answer when the places are ones seen before, in this game or another.
  mutable BitsMemo<4, bool> sight_bits_{12};
  mutable BitsMemo<5, int> cover_bits_{11};
  mutable BitsMemo<3, Tabletop::CoverPoints> place_cover_bits_{9};
  // path_end's answers by the bits of from, dest, the allowance and whether
  // the figure rides (the table and the doors it moves by; all else it reads
  // is the scenario's, fixed).
  mutable BitsMemo<6, Point> path_bits_{11};
  Point path_end_now(std::size_t f, Point from, Point dest, double allowance_cm) const;
  // flee_cover's answers by the bits of the man's position and the charger's
  // (it reads nothing else of the game but the fixed rules and terrain).
  mutable BitsMemo<4, std::optional<Point>> flee_bits_{9};
  std::optional<Point> flee_cover_now(std::size_t figure, Point from) const;
  const Tabletop::CoverPoints& cover_points(std::size_t f) const;
  // Each building's bounding box (x0, y0, x1, y1), widened by a margin over
  // Tabletop's own tolerance: a ride that meets none enters none (path_end).
  std::vector<std::array<double, 4>> building_box_;
  std::array<std::vector<std::size_t>, 2> order_;  // play_turn(): each side's figures
  // Each side's figures in figure order, made by start() (a figure's side
  // does not change): the enemies' loops of nearest_visible_enemy and
  // enemy_known skip the own side's figures without looking at them.
  std::array<std::vector<std::size_t>, 2> side_figs_;
  int turn_ = 0;
  // This turn's charges (fear_charge_of): the side and the start of each ride in it.
  struct FearCharge {
    std::uint8_t side = 0;
    std::vector<Point> starts;
  };
  // Entries 0..fear_used_-1 are this turn's; the rest keep their buffers
  // for later turns and games (no allocation once warmed up).
  std::vector<FearCharge> fear_charges_;
  std::size_t fear_used_ = 0;
  int fear_charges_turn_ = -1;
  // close_combat's foes in contact (kept for its buffer; close_combat is
  // not re-entered: only charge() calls it, and nothing it calls charges).
  std::vector<std::size_t> cc_foes_;
  bool finished_ = false;
  SkOutcome out_;
};

}  // namespace vedette
