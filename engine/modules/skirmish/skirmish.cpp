// Seed 001's skirmish mechanisms and turn (engine/modules/skirmish/skirmish.hpp).
#include "engine/modules/skirmish/skirmish.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <variant>

namespace vedette {

// An event's words are built only when a recorder listens (the Monte Carlo
// attaches none): the arguments are not evaluated otherwise.
#define SK_EMIT(...)            \
  do {                          \
    if (rec_) emit(__VA_ARGS__); \
  } while (false)

namespace {

constexpr double k_in = 2.54;

bool is_foot(const SkFigure& f) { return f.active() && !f.mounted(); }

// Distance from p to the segment a-b.
double seg_dist(Point p, Point a, Point b) {
  const Point ab = b - a;
  const double l2 = dot(ab, ab);
  double t = l2 > 0 ? dot(p - a, ab) / l2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return euclid_cm(p, a + ab * t);
}

}  // namespace

std::string_view action_name(SkAction::Kind k) {
  static constexpr std::array<std::string_view, 11> names{"hold",  "move",         "charge",   "fire",  "fire at horse", "mount",
                                                          "mount double", "dismount", "go prone", "hold horses", "opportunity fire"};
  return names[static_cast<std::size_t>(k)];
}

SkirmishGame::SkirmishGame(const SkirmishScenario& s, std::array<const SkirmishBot*, 2> bots, std::uint64_t seed, std::uint64_t index)
    : s_(&s),
      bots_(bots),
      decisions_(rng_decisions_),
      movement_(rng_movement_),
      shooting_(rng_shooting_),
      melee_(rng_melee_),
      morale_(rng_morale_),
      r_decisions_(decisions_),
      r_movement_(movement_),
      r_shooting_(shooting_),
      r_melee_(melee_),
      r_morale_(morale_) {
  // Tabletop's box of each area (circle: centre +- radius; polygon: its
  // vertices' extremes), widened by 1e-6 cm: more than the 1e-7 cm within
  // which Tabletop counts a point as inside.
  constexpr double margin = 1e-6;
  for (const SkirmishBuilding& b : s.buildings) {
    std::array<double, 4> box{0, 0, 0, 0};
    const Shape& shape = s.foot->areas().at(b.area).shape;
    if (const auto* c = std::get_if<Circle>(&shape)) {
      box = {c->centre.x - c->radius, c->centre.y - c->radius, c->centre.x + c->radius, c->centre.y + c->radius};
    } else {
      const auto& v = std::get<Polygon>(shape).vertices;
      box = {v.at(0).x, v.at(0).y, v.at(0).x, v.at(0).y};
      for (const Point& q : v) box = {std::min(box[0], q.x), std::min(box[1], q.y), std::max(box[2], q.x), std::max(box[3], q.y)};
    }
    building_box_.push_back({box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin});
  }
  start(seed, index);
}

void SkirmishGame::reset(std::uint64_t seed, std::uint64_t index) { start(seed, index); }

void SkirmishGame::start(std::uint64_t seed, std::uint64_t index) {
  rng_decisions_ = make_stream(seed, index, Subsystem::decisions);
  rng_movement_ = make_stream(seed, index, Subsystem::movement);
  rng_shooting_ = make_stream(seed, index, Subsystem::shooting);
  rng_melee_ = make_stream(seed, index, Subsystem::melee);
  rng_morale_ = make_stream(seed, index, Subsystem::morale);
  decisions_ = Dice(rng_decisions_);
  movement_ = Dice(rng_movement_);
  shooting_ = Dice(rng_shooting_);
  melee_ = Dice(rng_melee_);
  morale_ = Dice(rng_morale_);
  turn_ = 0;
  finished_ = false;
  out_ = SkOutcome{};
  figs_.clear();
  horses_.clear();
  for (const auto& spec : s_->figures) {
    SkFigure f;
    f.spec = &spec;
    f.side = spec.side;
    f.pos = spec.position;
    f.facing = spec.facing;
    f.prone = spec.prone;
    figs_.push_back(f);
    ++out_.sides[spec.side].figures;
  }
  for (std::size_t i = 0; i < s_->figures.size(); ++i)
    if (s_->figures[i].horse) {
      SkHorse h;
      h.pos = figs_[i].pos;
      h.owner = static_cast<int>(i);
      h.riders[0] = static_cast<int>(i);
      figs_[i].horse = static_cast<int>(horses_.size());
      horses_.push_back(h);
    }
  for (std::size_t i = 0; i < s_->figures.size(); ++i)
    if (!s_->figures[i].behind.empty())
      for (std::size_t j = 0; j < figs_.size(); ++j)
        if (figs_[j].spec->name == s_->figures[i].behind && figs_[j].horse >= 0) {
          horses_[static_cast<std::size_t>(figs_[j].horse)].riders[1] = static_cast<int>(i);
          figs_[i].horse = figs_[j].horse;
        }
  sight_memo_.resize(figs_.size() * figs_.size());
}

// ------------------------------------------------------------ questions

bool SkirmishGame::sees_point(Point a, Point b) const { return s_->foot->line_of_sight(a, b); }
SkirmishGame::SightMemo& SkirmishGame::pair_memo(std::size_t a, std::size_t b) const {
  const Point pa = figs_[a].pos, pb = figs_[b].pos;
  const std::uint64_t k[4] = {std::bit_cast<std::uint64_t>(pa.x), std::bit_cast<std::uint64_t>(pa.y), std::bit_cast<std::uint64_t>(pb.x),
                              std::bit_cast<std::uint64_t>(pb.y)};
  SightMemo& m = sight_memo_[a * figs_.size() + b];
  if (m.key[0] != k[0] || m.key[1] != k[1] || m.key[2] != k[2] || m.key[3] != k[3]) {
    for (int i = 0; i < 4; ++i) m.key[i] = k[i];
    m.valid = m.dist_valid = m.cover_valid = false;
  }
  return m;
}

bool SkirmishGame::sees(std::size_t a, std::size_t b) const {
  SightMemo& m = pair_memo(a, b);
  if (!m.valid) {
    m.sees = sees_point(figs_[a].pos, figs_[b].pos);
    m.valid = true;
  }
  return m.sees;
}

double SkirmishGame::pair_dist(std::size_t a, std::size_t b) const {
  SightMemo& m = pair_memo(a, b);
  if (!m.dist_valid) {
    m.dist = dist_cm(figs_[a].pos, figs_[b].pos);
    m.dist_valid = true;
  }
  return m.dist;
}

int SkirmishGame::cover_from(std::size_t target, std::size_t viewer) const {
  SightMemo& m = pair_memo(viewer, target);
  const std::uint64_t facing = std::bit_cast<std::uint64_t>(figs_[target].facing);
  if (!m.cover_valid || m.cover_facing != facing) {
    m.cover = cover_of(target, figs_[viewer].pos);
    m.cover_facing = facing;
    m.cover_valid = true;
  }
  return m.cover;
}

int SkirmishGame::cover_of(std::size_t f, Point viewer) const {
  Footprint fp{figs_[f].pos, figs_[f].facing, Length::cm(0.5), Length::cm(0.5)};
  return s_->foot->cover_of(fp, viewer);
}

int SkirmishGame::building_at(Point p) const {
  for (std::size_t b = 0; b < s_->buildings.size(); ++b)
    if (s_->foot->area_contains(s_->buildings[b].area, p)) return static_cast<int>(b);
  return -1;
}

int SkirmishGame::nearest_visible_enemy(std::size_t f, bool foot_only) const {
  int best = -1;
  double bd = 1e300;
  for (std::size_t j = 0; j < figs_.size(); ++j) {
    const SkFigure& e = figs_[j];
    if (e.side == figs_[f].side || !e.active() || (foot_only && e.mounted())) continue;
    const double d = pair_dist(f, j);
    if (d < bd && sees(f, j)) {
      bd = d;
      best = static_cast<int>(j);
    }
  }
  return best;
}

// "Known enemy positions" (seed 001, riding double): enemies some figure of
// the side can see now (choice).
bool SkirmishGame::enemy_known(std::uint8_t side, Point p, double* nearest) const {
  bool any = false;
  double best = 1e300;
  for (std::size_t j = 0; j < figs_.size(); ++j) {
    if (figs_[j].side == side || !figs_[j].active()) continue;
    bool known = false;
    for (std::size_t k = 0; k < figs_.size() && !known; ++k)
      known = figs_[k].side == side && figs_[k].active() && sees(k, j);
    if (!known) continue;
    any = true;
    best = std::min(best, dist_cm(p, figs_[j].pos));
  }
  if (nearest) *nearest = best;
  return any;
}

// Seed 001: one holder for each five horses. Holders (figures on foot of
// the side, holding) take the horses within reach in horse order.
bool SkirmishGame::attended(std::size_t h) const {
  const SkHorse& horse = horses_[h];
  if (!horse.in_play() || horse.ridden()) return true;
  const std::uint8_t side = figs_[static_cast<std::size_t>(horse.owner)].side;
  const double reach = rules().holder_reach.as_cm();
  // Holders in figure order each take up to five of the side's loose horses
  // within reach, in horse order, that no holder before took.
  std::vector<char>& taken = taken_;  // scratch, kept between calls
  taken.assign(horses_.size(), 0);
  for (std::size_t k = 0; k < figs_.size(); ++k) {
    const SkFigure& f = figs_[k];
    if (f.side != side || !f.holder || !is_foot(f)) continue;
    int held = 0;
    for (std::size_t j = 0; j < horses_.size() && held < rules().horses_per_holder; ++j) {
      const SkHorse& o = horses_[j];
      if (taken[j] || !o.in_play() || o.ridden() || figs_[static_cast<std::size_t>(o.owner)].side != side) continue;
      if (dist_cm(o.pos, f.pos) > reach) continue;
      if (j == h) return true;
      taken[j] = 1;
      ++held;
    }
  }
  return false;
}

double SkirmishGame::move_allowance_cm(std::size_t f) const {
  const SkFigure& x = figs_[f];
  if (!x.mounted()) return rules().foot_move.as_cm();
  // Seed 001: 8in per action; riding double 6in.
  return horses_[static_cast<std::size_t>(x.horse)].doubled() ? rules().double_move.as_cm() : rules().horse_move.as_cm();
}

SkirmishGame::FireBar SkirmishGame::fire_bar(std::size_t f) const {
  const SkFigure& x = figs_[f];
  if (!x.active()) return FireBar::out;
  if (x.holder) return FireBar::holder;
  if (!x.mounted()) return FireBar::none;
  const SkHorse& h = horses_[static_cast<std::size_t>(x.horse)];
  // Seed 001: soldiers riding double may not fire.
  if (h.doubled()) return FireBar::doubled;
  // Seed 001: only carbines, SMGs and pistols while moving.
  if (h.moved_cm > 0 && !rules().weapons[x.spec->weapon].fire_while_moving) return FireBar::moving;
  return FireBar::none;
}

std::optional<std::string> SkirmishGame::may_fire(std::size_t f) const {
  switch (fire_bar(f)) {
    case FireBar::none: return std::nullopt;
    case FireBar::out: return "is out of action";
    case FireBar::holder: return "is holding horses";
    case FireBar::doubled: return "rides double and may not fire";
    case FireBar::moving: return "is moving, and a " + rules().weapons[figs_[f].spec->weapon].name + " may not be fired on the move";
  }
  return std::nullopt;
}

// The to-hit modifiers once, for both the account (to_hit_terms) and the
// dice (to_hit_sum): `add(name, value)` for each, in order.
template <class Add>
void SkirmishGame::each_to_hit_term(std::size_t shooter, std::size_t target, std::optional<double> intended_cm, Add&& add) const {
  const SkirmishRules& r = rules();
  const SkFigure& s = figs_[shooter];
  const SkFigure& t = figs_[target];
  // Cover as seen from the shooter: the cover level is the base game's to-hit modifier (+5 cover).
  if (int c = cover_from(target, shooter)) add("cover", c);
  if (t.prone && !t.mounted()) add("prone", r.prone_to_hit);
  if (s.mounted()) {
    const SkHorse& h = horses_[static_cast<std::size_t>(s.horse)];
    if (r.horseback_penalty == HorsebackPenalty::always || h.moved_cm > 0) add("from horseback", r.horseback_fire);
  }
  if (t.mounted()) {
    // Seed 001: -1, and +1 per 3in moved in the last action (or intended, against opportunity fire).
    add("mounted target", r.mounted_target);
    const double moved = intended_cm ? *intended_cm : horses_[static_cast<std::size_t>(t.horse)].moved_cm;
    const auto steps = static_cast<long long>(std::floor(moved / r.moved_step.as_cm() + 1e-9));
    if (steps > 0) add(intended_cm ? "intended movement" : "movement", steps * r.per_step);
  }
}

Terms SkirmishGame::to_hit_terms(std::size_t shooter, std::size_t target, std::optional<double> intended_cm) const {
  Terms terms;
  each_to_hit_term(shooter, target, intended_cm, [&](const char* name, long long v) { terms.emplace_back(name, v); });
  return terms;
}

long long SkirmishGame::to_hit_sum(std::size_t shooter, std::size_t target, std::optional<double> intended_cm) const {
  long long sum = 0;
  each_to_hit_term(shooter, target, intended_cm, [&](const char*, long long v) { sum += v; });
  return sum;
}

// ------------------------------------------------------------ dice rules

bool SkirmishGame::skill_check(std::size_t f, int modifier, Roller& dice, const char* why) {
  const int roll = dice.d(rules().die);
  const int need = figs_[f].spec->skill + modifier;
  const bool ok = roll <= need;
  SK_EMIT("check", "skill", f, name(f) + " skill check (" + why + "): rolls " + std::to_string(roll) + " against " + std::to_string(need) + ": " + (ok ? "passes" : "fails"));
  return ok;
}

Wound SkirmishGame::roll_column(std::string_view column, int modifier, Roller& dice, const char* why) {
  const WoundColumn* c = rules().find_column(column);
  const int roll = dice.d(rules().die);
  const Wound w = c ? c->result(roll + modifier) : Wound::none;
  char mod[16] = "";
  if (modifier) std::snprintf(mod, sizeof mod, "%+d", modifier);
  SK_EMIT("wound", "column", static_cast<std::size_t>(-1), std::string("  ") + why + ": column " + std::string(column) + mod + ", rolls " + std::to_string(roll) + ": " + std::string(wound_name(w)));
  return w;
}

void SkirmishGame::mark_out(std::size_t f) {
  SkFigure& x = figs_[f];
  x.holder = false;
  x.op_fire = false;
  ++out_.sides[x.side].figures_out;
}

// A figure hit (on foot, or the rider of a horse).
void SkirmishGame::hit_figure(std::size_t t, Wound w, Roller& dice, const char* why) {
  SkFigure& x = figs_[t];
  if (!x.active() || w == Wound::none) return;
  const SkirmishRules& r = rules();
  if (x.mounted()) {
    // Seed 001: riders ignore suppression; a light wound: skill check or fall.
    if (w == Wound::suppressed && r.riders_ignore_suppression) {
      SK_EMIT("wound", "ignored", t, name(t) + " is a rider: suppression ignored");
      return;
    }
    if (w == Wound::light) {
      ++x.light_wounds;
      ++out_.sides[x.side].light_wounds;
      SK_EMIT("wound", "light", t, name(t) + " is light-wounded (" + why + ")");
      if (!skill_check(t, 0, dice, "light-wounded rider stays on")) {
        ++out_.sides[x.side].light_wound_falls;
        // The wound stands whatever the fall does (seed 001: light-wounded, then the fall).
        if (x.light_wounds >= 2) {
          x.health = Health::out;
          mark_out(t);
          SK_EMIT("wound", "out", t, name(t) + " has a second light wound: out of action (base game, EXAMPLE)");
          unhorse(t);
          return;
        }
        x.health = Health::light;
        const bool moving = horses_[static_cast<std::size_t>(x.horse)].moved_cm > 0;
        knocked_off(t, moving, dice);
      } else if (x.light_wounds >= 2) {
        x.health = Health::out;
        mark_out(t);
        SK_EMIT("wound", "out", t, name(t) + " has a second light wound: out of action (base game, EXAMPLE)");
        unhorse(t);
      } else {
        x.health = Health::light;
      }
      return;
    }
    if (w >= Wound::heavy) {
      x.health = w == Wound::kia ? Health::dead : Health::out;
      mark_out(t);
      SK_EMIT("wound", w == Wound::kia ? "kia" : "heavy", t, name(t) + (w == Wound::kia ? " is killed" : " is heavily wounded: out of action") + " (" + why + ")");
      unhorse(t);
      return;
    }
    return;
  }
  switch (w) {
    case Wound::none: return;
    case Wound::suppressed:
      x.suppressed = true;
      x.op_fire = false;
      SK_EMIT("wound", "suppressed", t, name(t) + " is suppressed (" + why + "): loses his next action");
      return;
    case Wound::light:
      ++x.light_wounds;
      ++out_.sides[x.side].light_wounds;
      if (x.light_wounds >= 2) {
        x.health = Health::out;
        mark_out(t);
        SK_EMIT("wound", "out", t, name(t) + " has a second light wound: out of action (" + why + ")");
      } else {
        x.health = Health::light;
        SK_EMIT("wound", "light", t, name(t) + " is light-wounded (" + why + ")");
      }
      return;
    case Wound::heavy:
    case Wound::kia:
      x.health = w == Wound::kia ? Health::dead : Health::out;
      mark_out(t);
      SK_EMIT("wound", w == Wound::kia ? "kia" : "heavy", t, name(t) + (w == Wound::kia ? " is killed" : " is heavily wounded: out of action") + " (" + why + ")");
      return;
  }
}

// The rider leaves the saddle where the horse stands (the horse stays, unattended).
void SkirmishGame::unhorse(std::size_t rider) {
  SkFigure& x = figs_[rider];
  if (x.horse < 0) return;
  SkHorse& h = horses_[static_cast<std::size_t>(x.horse)];
  if (h.riders[0] == static_cast<int>(rider)) {
    h.riders[0] = h.riders[1];
    h.riders[1] = -1;
  } else if (h.riders[1] == static_cast<int>(rider)) {
    h.riders[1] = -1;
  }
  x.pos = h.pos;
  x.horse = -1;
}

// Seed 001, knocked off horse: E column +3 from a standing horse, E column from a moving one.
void SkirmishGame::knocked_off(std::size_t rider, bool moving, Roller& dice) {
  SkFigure& x = figs_[rider];
  ++out_.sides[x.side].riders_spilled;
  SK_EMIT("wound", "fall", rider, name(rider) + " falls from " + (moving ? "a moving" : "a standing") + " horse");
  unhorse(rider);
  const SkirmishRules& r = rules();
  const Wound w = roll_column(r.fall_column, moving ? r.fall_moving_modifier : r.fall_standing_modifier, dice, "the fall");
  hit_figure(rider, w, dice, "the fall");
}

// Seed 001: horses ignore all but heavy wounds and kills, which are mortal.
void SkirmishGame::hit_horse(std::size_t hi, Wound w, Roller& dice) {
  SkHorse& h = horses_[hi];
  const SkirmishRules& r = rules();
  const std::size_t owner = static_cast<std::size_t>(h.owner);
  if (!h.in_play()) return;
  if (!h.ridden()) {
    // Seed 001: unattended horses bolt on suppression or better.
    if (w >= r.bolt_at && !attended(hi)) {
      h.bolted = true;
      ++out_.sides[figs_[owner].side].horses_bolted;
      SK_EMIT("wound", "bolt", owner, name(owner) + "'s horse is unattended and bolts (" + std::string(wound_name(w)) + "): out of play");
      return;
    }
    if (w >= r.horse_mortal_at) {
      h.alive = false;
      ++out_.sides[figs_[owner].side].horses_lost;
      SK_EMIT("wound", "horse", owner, name(owner) + "'s horse is mortally wounded");
    }
    return;
  }
  if (w < r.horse_mortal_at) {
    if (w != Wound::none) SK_EMIT("wound", "ignored", owner, name(owner) + "'s horse ignores the " + std::string(wound_name(w)) + " result (seed 001)");
    return;
  }
  h.alive = false;
  ++out_.sides[figs_[owner].side].horses_lost;
  const bool moving = h.moved_cm > 0;
  const std::array<int, 2> riders = h.riders;
  Point at = h.pos;
  if (moving) {
    // Seed 001: it spills its rider D4in from where it is hit, in line with its last movement.
    const int d4 = dice.d(r.spill_die);
    const double dir = r.spill == SpillDirection::onward ? h.move_dir : h.move_dir + 180.0;
    const Point want = h.pos + direction(dir) * (d4 * k_in);
    at = s_->horse->move_toward(h.pos, want, Length::cm(d4 * k_in));
    SK_EMIT("wound", "horse", owner, name(owner) + "'s horse is mortally wounded while moving: it carries on " + std::to_string(d4) + "in (D4) and spills its rider at " + in(euclid_cm(h.pos, at)) + " from where it was hit");
    // Seed 001, "final charge": the dying horse reaching an infantryman.
    const Point from = h.pos;
    for (std::size_t j = 0; j < figs_.size(); ++j) {
      SkFigure& e = figs_[j];
      if (e.side == figs_[owner].side || !is_foot(e)) continue;
      if (seg_dist(e.pos, from, at) > r.contact.as_cm()) continue;
      ++out_.sides[figs_[owner].side].final_charges;
      SK_EMIT("wound", "final charge", j, "final charge: the dying horse reaches " + name(j));
      if (!skill_check(j, 0, dice, "final charge"))
        hit_figure(j, roll_column(r.final_charge_column, 0, dice, "final charge"), dice, "final charge");
    }
    h.pos = at;
  } else {
    SK_EMIT("wound", "horse", owner, name(owner) + "'s horse is mortally wounded standing: it spills its rider where it was hit");
  }
  for (int rd : riders)
    if (rd >= 0 && figs_[static_cast<std::size_t>(rd)].active()) knocked_off(static_cast<std::size_t>(rd), moving, dice);
}

// ------------------------------------------------------------ fire

void SkirmishGame::fire(std::size_t sh, std::size_t tg, Roller& dice, std::optional<double> intended_cm) {
  const SkirmishRules& r = rules();
  SkFigure& s = figs_[sh];
  if (fire_bar(sh) != FireBar::none) {
    SK_EMIT("fire", "refused", sh, name(sh) + " may not fire: " + *may_fire(sh));
    return;
  }
  const SkirmishWeapon& w = r.weapons[s.spec->weapon];
  const double d = dist_cm(s.pos, figs_[tg].pos);
  const SkirmishWeapon::Band* band = nullptr;
  for (const auto& b : w.bands)
    if (d <= b.to.as_cm()) {
      band = &b;
      break;
    }
  if (!band || !sees(sh, tg)) {
    SK_EMIT("fire", "refused", sh, name(sh) + " cannot fire at " + name(tg) + (band ? ": no line of sight" : ": out of range"));
    return;
  }
  s.prone = s.mounted() ? false : s.prone;
  ++out_.sides[s.side].shots;
  const long long mod = to_hit_sum(sh, tg, intended_cm);
  const int roll = dice.d(r.die);
  const bool hit = roll + mod <= band->hit;
  if (rec_) {
    std::string mods;
    for (const auto& [k, v] : to_hit_terms(sh, tg, intended_cm)) mods += ", " + k + " " + (v >= 0 ? "+" : "") + std::to_string(v);
    emit("fire", "fire", sh, name(sh) + " fires his " + w.name + " at " + name(tg) + " (" + in(d) + "): needs " + std::to_string(band->hit) + " or less" + mods + "; rolls " + std::to_string(roll) + ": " + (hit ? "hit" : "miss"));
  }
  // Seed 001: "any HE hit within 12in": a hit, not a miss.
  if (!hit) return;
  if (w.he) he_burst(figs_[tg].pos, dice);
  ++out_.sides[s.side].hits;
  SkFigure& t = figs_[tg];
  if (t.mounted()) {
    // Seed 001: D6 1-4 the horse, 5-6 the rider.
    const int loc = dice.d(6);
    const std::size_t hi = static_cast<std::size_t>(t.horse);
    if (r.hit_horse[static_cast<std::size_t>(loc - 1)]) {
      SK_EMIT("fire", "location", tg, "  D6 " + std::to_string(loc) + ": the horse is hit");
      hit_horse(hi, roll_column(w.column, 0, dice, "hit on the horse"), dice);
    } else {
      SK_EMIT("fire", "location", tg, "  D6 " + std::to_string(loc) + ": the rider is hit");
      hit_figure(tg, roll_column(w.column, 0, dice, "hit on the rider"), dice, "fire");
    }
    return;
  }
  hit_figure(tg, roll_column(w.column, 0, dice, "hit"), dice, "fire");
}

void SkirmishGame::fire_at_horse(std::size_t sh, std::size_t hi, Roller& dice) {
  const SkirmishRules& r = rules();
  SkFigure& s = figs_[sh];
  SkHorse& h = horses_[hi];
  if (fire_bar(sh) != FireBar::none) {
    SK_EMIT("fire", "refused", sh, name(sh) + " may not fire: " + *may_fire(sh));
    return;
  }
  const SkirmishWeapon& w = r.weapons[s.spec->weapon];
  const double d = dist_cm(s.pos, h.pos);
  const SkirmishWeapon::Band* band = nullptr;
  for (const auto& b : w.bands)
    if (d <= b.to.as_cm()) {
      band = &b;
      break;
    }
  if (!band || !h.in_play() || !sees_point(s.pos, h.pos)) {
    SK_EMIT("fire", "refused", sh, name(sh) + " cannot fire at the horse");
    return;
  }
  ++out_.sides[s.side].shots;
  long long mod = s.mounted() ? r.horseback_fire : 0;
  mod += r.mounted_target;  // a horse is the mounted target's size (choice)
  const int roll = dice.d(r.die);
  const bool hit = roll + mod <= band->hit;
  SK_EMIT("fire", "fire", sh, name(sh) + " fires his " + w.name + " at " + name(static_cast<std::size_t>(h.owner)) + "'s horse (" + in(d) + "): needs " + std::to_string(band->hit) + " or less, modifier " + std::to_string(mod) + "; rolls " + std::to_string(roll) + ": " + (hit ? "hit" : "miss"));
  if (!hit) return;
  if (w.he) he_burst(h.pos, dice);
  ++out_.sides[s.side].hits;
  hit_horse(hi, roll_column(w.column, 0, dice, "hit on the horse"), dice);
}

// Seed 001: any HE hit within 12in and in line of sight bolts unattended horses.
void SkirmishGame::he_burst(Point at, Roller&) {
  const double reach = rules().he_bolt_radius.as_cm();
  for (std::size_t j = 0; j < horses_.size(); ++j) {
    SkHorse& h = horses_[j];
    if (!h.in_play() || h.ridden() || attended(j)) continue;
    if (dist_cm(at, h.pos) > reach || !sees_point(at, h.pos)) continue;
    h.bolted = true;
    const std::size_t owner = static_cast<std::size_t>(h.owner);
    ++out_.sides[figs_[owner].side].horses_bolted;
    SK_EMIT("fire", "bolt", owner, name(owner) + "'s unattended horse bolts at the HE burst " + in(euclid_cm(at, h.pos)) + " away: out of play");
  }
}

// Enemies waiting on opportunity fire shoot at a figure about to move.
bool SkirmishGame::opportunity_fire(std::size_t mover, double intended_cm, double dir, Roller& dice) {
  for (std::size_t j = 0; j < figs_.size(); ++j) {
    SkFigure& e = figs_[j];
    if (!e.op_fire || !e.active() || e.side == figs_[mover].side || !figs_[mover].active()) continue;
    if (!sees(j, mover)) continue;
    const auto& bands = rules().weapons[e.spec->weapon].bands;
    if (bands.empty() || dist_cm(e.pos, figs_[mover].pos) > bands.back().to.as_cm()) continue;
    e.op_fire = false;
    SK_EMIT("fire", "opportunity", j, name(j) + " fires on opportunity at " + name(mover) + " as he moves (" + in(intended_cm) + " intended)");
    const bool was_mounted = figs_[mover].mounted();
    if (was_mounted) {
      SkHorse& h = horses_[static_cast<std::size_t>(figs_[mover].horse)];
      h.moved_cm = intended_cm;  // a horse hit now is a moving horse, along its intended line
      h.move_dir = dir;
    }
    fire(j, mover, dice, intended_cm);
    if (!figs_[mover].active() || (was_mounted && !figs_[mover].mounted())) return false;
  }
  return true;
}

// ------------------------------------------------------------ movement

Point SkirmishGame::path_end(std::size_t f, Point from, Point dest, double allowance) const {
  const SkFigure& x = figs_[f];
  const Tabletop& t = x.mounted() ? *s_->horse : *s_->foot;
  Point end = t.move_toward(from, dest, Length::cm(allowance));
  if (!x.mounted()) return end;
  // Seed 001: horses enter buildings only through large doors. A ride that
  // enters a building away from a large door stops at its wall.
  // A ride whose straight line meets no building's box meets no building:
  // every point checked below lies on it.
  bool near_building = false;
  for (const auto& box : building_box_)
    near_building = near_building || (std::max(from.x, end.x) >= box[0] && std::min(from.x, end.x) <= box[2] &&
                                      std::max(from.y, end.y) >= box[1] && std::min(from.y, end.y) <= box[3]);
  if (!near_building) return end;
  const double len = euclid_cm(from, end);
  const int start_in = building_at(from);
  const int steps = static_cast<int>(std::ceil(len / 0.25));
  Point last = from;
  for (int i = 1; i <= steps; ++i) {
    const Point p = from + (end - from) * (static_cast<double>(i) / steps);
    const int b = building_at(p);
    if (b >= 0 && b != start_in) {
      bool door = false;
      for (Point d : s_->buildings[static_cast<std::size_t>(b)].large_doors) door = door || euclid_cm(d, p) <= rules().contact.as_cm();
      if (!door) return last;
      return end;  // through the door
    }
    last = p;
  }
  return end;
}

void SkirmishGame::place(std::size_t f, Point p, double dir, double moved) {
  SkFigure& x = figs_[f];
  x.pos = p;
  x.facing = dir;
  x.moved_cm = moved;
  x.move_dir = dir;
  if (moved > 0) x.prone = false;
  if (x.mounted()) {
    SkHorse& h = horses_[static_cast<std::size_t>(x.horse)];
    h.pos = p;
    h.moved_cm = moved;
    h.move_dir = dir;
    for (int rd : h.riders)
      if (rd >= 0) {
        figs_[static_cast<std::size_t>(rd)].pos = p;
        figs_[static_cast<std::size_t>(rd)].moved_cm = moved;
      }
  }
}

void SkirmishGame::move(std::size_t f, Point dest, Roller& dice) {
  SkFigure& x = figs_[f];
  if (x.mounted()) {
    SkHorse& h = horses_[static_cast<std::size_t>(x.horse)];
    if (h.riders[0] != static_cast<int>(f)) {
      SK_EMIT("move", "refused", f, name(f) + " rides behind and does not steer");
      return;
    }
    if (h.doubled()) {
      // Seed 001: riding double, never toward known enemy positions.
      double before = 0, after = 0;
      const Point end = path_end(f, x.pos, dest, move_allowance_cm(f));
      if (enemy_known(x.side, x.pos, &before) && enemy_known(x.side, end, &after) && after < before - 1e-9) {
        SK_EMIT("move", "refused", f, name(f) + " rides double and may not move toward a known enemy (" + in(before) + " -> " + in(after) + ")");
        h.moved_cm = 0;
        return;
      }
      ++out_.sides[x.side].riding_double_moves;
    }
  }
  const Point start = x.pos;
  const double allowance = move_allowance_cm(f);
  Point end = path_end(f, start, dest, allowance);
  bool climbs = false;
  if (!x.mounted() && euclid_cm(start, end) < rules().contact.as_cm() && euclid_cm(start, dest) > 1e-9) {
    // Seed 001's "obstacles that require infantry one action to cross": a
    // man at such a wall (within contact of it) spends the action crossing;
    // he ends half a contact beyond it.
    const Point dv = direction(bearing_deg(start, dest));
    const double probe = rules().contact.as_cm();
    if (std::isinf(s_->foot->movement_cost(start, start + dv * probe).as_cm())) {
      double lo = 0, hi = probe;
      for (int k = 0; k < 40; ++k) {
        const double mid = (lo + hi) / 2;
        (std::isinf(s_->foot->movement_cost(start, start + dv * mid).as_cm()) ? hi : lo) = mid;
      }
      end = s_->foot->clamp(start + dv * (hi + probe / 2));
      climbs = true;
    }
  }
  const double intended = euclid_cm(start, end);
  if (intended <= 1e-9) {
    place(f, start, x.facing, 0);
    SK_EMIT("move", "move", f, name(f) + " cannot move that way");
    return;
  }
  const double dir = bearing_deg(start, end);
  if (!opportunity_fire(f, intended, dir, dice)) return;
  place(f, end, dir, intended);
  if (climbs) {
    SK_EMIT("move", "climb", f, name(f) + " climbs the wall: the whole action");
    return;
  }
  SK_EMIT("move", "move", f, name(f) + (x.mounted() ? " rides " : " moves ") + in(intended) + " (allowance " + in(allowance) + ")" + (building_at(end) >= 0 ? " into " + s_->buildings[static_cast<std::size_t>(building_at(end))].name : ""));
}

// ------------------------------------------------------------ charge and close combat

// Seed 001's fear of charge: the nearest +5 cover (areas, and the far side
// of a wall of +5 cover as seen from the charger at `from`, its obstacle
// example being stone walls), by the cost of walking there; none: nullopt.
std::optional<Point> SkirmishGame::flee_cover(std::size_t j, Point from) const {
  const SkirmishRules& r = rules();
  const Tabletop& t = *s_->foot;
  const Point p = figs_[j].pos;
  std::optional<Point> best = t.nearest_cover(p, Length::cm(1e9), r.fear_cover_exempt);
  double best_cost = best ? t.movement_cost(p, *best).as_cm() : 1e300;
  const double off = r.contact.as_cm() / 2;
  for (const Obstacle& o : t.obstacles()) {
    if (o.cover < r.fear_cover_exempt) continue;
    for (std::size_t k = 0; k + 1 < o.path.size(); ++k) {
      const Point a = o.path[k], b = o.path[k + 1];
      const Point ab = b - a;
      const double l2 = dot(ab, ab);
      if (l2 <= 0) continue;
      const double u = std::clamp(dot(p - a, ab) / l2, 0.0, 1.0);
      const Point q = a + ab * u;
      Point n{-ab.y, ab.x};
      n = n * (1.0 / std::sqrt(l2));
      if (dot(n, q - from) < 0) n = n * -1.0;  // the side away from the charger
      const Point c = t.clamp(q + n * off);
      Footprint fp{c, 0, Length::cm(0.5), Length::cm(0.5)};
      if (t.cover_of(fp, from) < r.fear_cover_exempt) continue;
      const double cost = t.movement_cost(p, c).as_cm();
      if (cost < best_cost) {
        best_cost = cost;
        best = c;
      }
    }
  }
  if (best && std::isinf(best_cost)) return std::nullopt;
  return best;
}

std::optional<int> SkirmishGame::fire_need(std::size_t sh, std::size_t tg) const {
  if (fire_bar(sh) != FireBar::none) return std::nullopt;
  const SkFigure& s = figs_[sh];
  const SkirmishWeapon& w = rules().weapons[s.spec->weapon];
  const double d = dist_cm(s.pos, figs_[tg].pos);
  for (const auto& b : w.bands)
    if (d <= b.to.as_cm()) {
      if (!sees(sh, tg)) return std::nullopt;
      return static_cast<int>(b.hit - to_hit_sum(sh, tg, std::nullopt));
    }
  return std::nullopt;
}

void SkirmishGame::fear_of_charge(std::size_t charger, Point from, Point to, Roller& dice) {
  const SkirmishRules& r = rules();
  const std::uint8_t side = figs_[charger].side;
  for (std::size_t j = 0; j < figs_.size(); ++j) {
    SkFigure& e = figs_[j];
    if (e.side == side || !is_foot(e)) continue;
    if (seg_dist(e.pos, from, to) > r.fear_radius.as_cm()) continue;
    // Seed 001: unless in +5 cover (prone not counted: cover of the ground only).
    if (cover_of(j, from) >= r.fear_cover_exempt) continue;
    // Seed 001: one check per charge, not per horse (`per: charge`: this ride;
    // `per: turn`: all the side's rides this turn are one charge).
    if (r.fear_per == FearPer::turn && e.fear_turn == turn_) continue;
    e.fear_turn = turn_;
    ++out_.sides[e.side].fear_checks;
    const int roll = dice.d(r.die);
    const int need = e.spec->skill + r.gut_check_modifier;
    const bool ok = roll <= need;
    SK_EMIT("charge", "fear", j, name(j) + " gut check (fear of charge): rolls " + std::to_string(roll) + " against " + std::to_string(need) + ": " + (ok ? "stands" : "fails"));
    if (ok) continue;
    ++out_.sides[e.side].fear_failed;
    e.op_fire = false;
    // Failing: he "must immediately move up to four inches towards cover";
    // none within 4in, he is caught in the open (after moving toward it).
    const std::optional<Point> c = flee_cover(j, from);
    const double reach = r.fear_flee.as_cm();
    if (c && s_->foot->movement_cost(e.pos, *c).as_cm() <= reach + 1e-6) {
      const double d = euclid_cm(e.pos, *c);
      e.facing = bearing_deg(e.pos, *c);
      e.pos = *c;
      e.prone = false;
      SK_EMIT("charge", "flee", j, name(j) + " runs " + in(d) + " into cover");
    } else {
      ++out_.sides[e.side].caught_in_open;
      if (c) {
        const Point start = e.pos;
        e.facing = bearing_deg(e.pos, *c);
        e.pos = s_->foot->move_toward(e.pos, *c, r.fear_flee);
        e.prone = false;
        SK_EMIT("charge", "caught", j, name(j) + " runs " + in(euclid_cm(start, e.pos)) + " toward +" + std::to_string(r.fear_cover_exempt) +
                                         " cover " + in(euclid_cm(start, *c)) + " away: caught in the open");
      } else {
        SK_EMIT("charge", "caught", j, name(j) + " has no +" + std::to_string(r.fear_cover_exempt) + " cover to run to: caught in the open");
      }
    }
  }
}

void SkirmishGame::charge(std::size_t f, std::size_t target, Roller& dice) {
  const SkirmishRules& r = rules();
  SkFigure& x = figs_[f];
  if (!x.mounted() || horses_[static_cast<std::size_t>(x.horse)].riders[0] != static_cast<int>(f)) {
    SK_EMIT("charge", "refused", f, name(f) + " is not in the saddle: no charge");
    return;
  }
  if (horses_[static_cast<std::size_t>(x.horse)].doubled()) {
    SK_EMIT("charge", "refused", f, name(f) + " rides double: no charge toward the enemy");
    return;
  }
  const Point start = x.pos;
  const double allowance = move_allowance_cm(f);
  const double contact = r.contact.as_cm() * 0.99;
  auto stop_at = [&](Point tp) {
    const double d = euclid_cm(start, tp);
    return d <= contact ? start : start + (tp - start) * ((d - contact) / d);
  };
  Point want = stop_at(figs_[target].pos);
  Point end = path_end(f, start, want, allowance);
  const double planned = euclid_cm(start, end);
  const bool reaches = euclid_cm(end, figs_[target].pos) <= r.contact.as_cm() + 1e-6;
  // Seed 001: a move of 6in or more into close combat is a charge.
  const bool is_charge = reaches && planned >= r.charge_min.as_cm() - 1e-9;
  SK_EMIT("charge", "charge", f, name(f) + (is_charge ? " charges " : " rides at ") + name(target) + " (" + in(planned) + (reaches ? ", into contact" : ", short") + ")");
  if (!opportunity_fire(f, planned, bearing_deg(start, end), dice)) return;
  if (is_charge) {
    ++out_.sides[x.side].charges;
    fear_of_charge(f, start, end, dice);
    // The cavalry finishes its move: to where the target now is, if it can.
    want = stop_at(figs_[target].pos);
    end = path_end(f, start, want, allowance);
  }
  const double moved = euclid_cm(start, end);
  place(f, end, bearing_deg(start, end), moved);
  if (euclid_cm(end, figs_[target].pos) > r.contact.as_cm() + 1e-6) {
    SK_EMIT("charge", "short", f, name(f) + " ends " + in(euclid_cm(end, figs_[target].pos)) + " from " + name(target) + ": no contact");
    return;
  }
  close_combat(f, dice, start);
}

void SkirmishGame::close_combat(std::size_t f, Roller& dice, std::optional<Point> from) {
  const SkirmishRules& r = rules();
  SkFigure& x = figs_[f];
  if (!x.mounted() || !x.active()) return;
  // Seed 001: no mounted close combat in buildings unless the scenario says so.
  if (building_at(x.pos) >= 0 && !(r.mounted_melee_in_buildings || s_->mounted_melee_in_buildings)) {
    SK_EMIT("melee", "refused", f, name(f) + " is mounted in a building: no hand-to-hand");
    return;
  }
  // Seed 001: several infantrymen only if in base contact with all at once: those in contact now.
  std::vector<std::size_t> foes;
  for (std::size_t j = 0; j < figs_.size(); ++j)
    if (figs_[j].side != x.side && is_foot(figs_[j]) && euclid_cm(figs_[j].pos, x.pos) <= r.contact.as_cm() + 1e-6) foes.push_back(j);
  if (foes.empty()) return;
  ++out_.sides[x.side].close_combats;
  for (std::size_t j : foes) {
    if (!x.active() || !x.mounted()) break;
    SkFigure& e = figs_[j];
    if (!e.active()) continue;
    if (cover_of(j, from ? *from : x.pos) == 0) {
      // In the open: a skill check (+5 prone), failing: the C column, no modifiers.
      // Seed 001: "+5" if prone; on the die (lower is better) it makes the
      // check harder, on the skill easier (close_combat.modifiers).
      const int prone = e.prone ? r.prone_modifier : 0;
      const int bonus = r.close_combat_sign == ModifierSign::on_the_die ? -prone : prone;
      if (!skill_check(j, bonus, dice, e.prone ? "ridden down, prone" : "ridden down in the open")) {
        ++out_.sides[e.side].contact_checks_failed;
        hit_figure(j, roll_column(r.contact_column, 0, dice, "ridden down"), dice, "ridden down");
      }
      if (!e.active()) continue;
    }
    // Hand to hand (base game, EXAMPLE: each rolls the die plus modifiers,
    // on the die: the LOWER total wins, the loser rolls on the hand-to-hand
    // column), the rider with seed 001's -4 (on the die it helps him;
    // close_combat.modifiers on_the_skill makes it count against him).
    const int rider_mod = r.close_combat_sign == ModifierSign::on_the_die ? r.rider_close_combat : -r.rider_close_combat;
    const int rw = r.weapons[x.spec->weapon].close_combat + rider_mod;
    const int iw = r.weapons[e.spec->weapon].close_combat;
    const int ra = dice.d(r.die), ia = dice.d(r.die);
    const char* res = ra + rw < ia + iw ? ": the rider wins" : ia + iw < ra + rw ? ": the infantryman wins" : ": a tie, no effect";
    SK_EMIT("melee", "hand to hand", f, "hand to hand (lower wins): " + name(f) + " rolls " + std::to_string(ra) + std::string(rw >= 0 ? "+" : "") + std::to_string(rw) + " (rider " + std::string(rider_mod >= 0 ? "+" : "") + std::to_string(rider_mod) + "), " + name(j) + " rolls " + std::to_string(ia) + std::string(iw >= 0 ? "+" : "") + std::to_string(iw) + res);
    if (ra + rw < ia + iw) hit_figure(j, roll_column(r.hand_to_hand_column, 0, dice, "loses hand to hand"), dice, "hand to hand");
    else if (ia + iw < ra + rw) hit_figure(f, roll_column(r.hand_to_hand_column, 0, dice, "loses hand to hand"), dice, "hand to hand");
  }
}

// ------------------------------------------------------------ actions

void SkirmishGame::act(std::size_t f, const SkAction& a, Roller& dice) {
  SkFigure& x = figs_[f];
  const SkirmishRules& r = rules();
  if (a.kind != SkAction::Kind::hold_horses) x.holder = false;
  if (a.kind != SkAction::Kind::op_fire) x.op_fire = false;
  const bool moves = a.kind == SkAction::Kind::move || a.kind == SkAction::Kind::charge;
  // Seed 001 (reading): a rider fires "while moving" when his horse moved in
  // his last action, so fire keeps that movement until the shot is made.
  const bool fires = a.kind == SkAction::Kind::fire || a.kind == SkAction::Kind::fire_at_horse;
  auto halt = [&] {
    x.moved_cm = 0;
    if (x.mounted() && horses_[static_cast<std::size_t>(x.horse)].riders[0] == static_cast<int>(f)) horses_[static_cast<std::size_t>(x.horse)].moved_cm = 0;
  };
  if (!moves && !fires) halt();

  switch (a.kind) {
    case SkAction::Kind::hold: SK_EMIT("action", "hold", f, name(f) + " holds"); return;
    case SkAction::Kind::move: move(f, a.dest, dice); return;
    case SkAction::Kind::charge: charge(f, static_cast<std::size_t>(a.target), dice); return;
    case SkAction::Kind::fire:
      fire(f, static_cast<std::size_t>(a.target), dice);
      halt();
      return;
    case SkAction::Kind::fire_at_horse:
      fire_at_horse(f, static_cast<std::size_t>(a.target), dice);
      halt();
      return;
    case SkAction::Kind::op_fire:
      x.op_fire = true;
      SK_EMIT("action", "op fire", f, name(f) + " waits on opportunity fire");
      return;
    case SkAction::Kind::prone:
      x.prone = true;
      SK_EMIT("action", "prone", f, name(f) + " goes prone");
      return;
    case SkAction::Kind::hold_horses:
      if (x.mounted()) return;
      x.holder = true;
      SK_EMIT("action", "hold horses", f, name(f) + " holds the horses");
      return;
    case SkAction::Kind::dismount: {
      // Seed 001: dismounting takes an action.
      if (!x.mounted()) return;
      SkHorse& h = horses_[static_cast<std::size_t>(x.horse)];
      h.moved_cm = 0;
      unhorse(f);
      ++out_.sides[x.side].dismounts;
      x.busy = std::max(0, r.mount_actions - 1);  // seed 001: movement.mount_actions actions in all
      SK_EMIT("action", "dismount", f, name(f) + " dismounts (" + std::to_string(r.mount_actions) + " action)");
      return;
    }
    case SkAction::Kind::mount:
    case SkAction::Kind::mount_double: {
      if (x.mounted()) return;
      int hi = -1;
      if (a.kind == SkAction::Kind::mount) {
        for (std::size_t j = 0; j < horses_.size(); ++j)
          if (horses_[j].owner == static_cast<int>(f) && horses_[j].in_play() && !horses_[j].ridden() && dist_cm(horses_[j].pos, x.pos) <= r.holder_reach.as_cm()) hi = static_cast<int>(j);
      } else if (a.target >= 0 && figs_[static_cast<std::size_t>(a.target)].mounted()) {
        const int th = figs_[static_cast<std::size_t>(a.target)].horse;
        const SkHorse& h = horses_[static_cast<std::size_t>(th)];
        if (!h.doubled() && h.riders[0] == a.target && dist_cm(h.pos, x.pos) <= r.contact.as_cm() * 2) hi = th;
      }
      if (hi < 0) {
        SK_EMIT("action", "refused", f, name(f) + " has no horse to mount within reach");
        return;
      }
      SkHorse& h = horses_[static_cast<std::size_t>(hi)];
      h.riders[h.ridden() ? 1 : 0] = static_cast<int>(f);
      h.moved_cm = 0;
      x.horse = hi;
      x.pos = h.pos;
      x.prone = false;
      ++out_.sides[x.side].mounts;
      x.busy = std::max(0, r.mount_actions - 1);  // seed 001: movement.mount_actions actions in all
      SK_EMIT("action", "mount", f, name(f) + (h.doubled() ? " mounts behind " + name(static_cast<std::size_t>(h.riders[0])) + ": riding double" : " mounts") + " (" + std::to_string(r.mount_actions) + " action)");
      return;
    }
  }
}

void SkirmishGame::activate(std::size_t f) {
  const SkirmishRules& r = rules();
  for (int k = 0; k < r.actions_per_turn && !finished_; ++k) {
    SkFigure& x = figs_[f];
    if (!x.active()) return;
    if (x.busy > 0) {
      --x.busy;
      SK_EMIT("action", "busy", f, name(f) + " is still (dis)mounting: movement.mount_actions (seed 001)");
      continue;
    }
    if (x.suppressed) {
      x.suppressed = false;
      x.moved_cm = 0;
      SK_EMIT("action", "suppressed", f, name(f) + " is suppressed: the action is lost");
      continue;
    }
    const SkAction a = bots_[x.side]->act(*this, f);
    Roller& dice = a.kind == SkAction::Kind::fire || a.kind == SkAction::Kind::fire_at_horse ? static_cast<Roller&>(r_shooting_)
                   : a.kind == SkAction::Kind::charge                                        ? static_cast<Roller&>(r_melee_)
                                                                                              : static_cast<Roller&>(r_movement_);
    act(f, a, dice);
  }
}

bool SkirmishGame::play_turn() {
  if (finished_) return false;
  ++turn_;
  out_.turns = turn_;
  SK_EMIT("turn", "turn", static_cast<std::size_t>(-1), "Turn " + std::to_string(turn_));
  // Initiative: a D6 each (base game, EXAMPLE); ties to the second side.
  const int a = r_decisions_.d(6), b = r_decisions_.d(6);
  const std::uint8_t first = a > b ? 0 : 1;
  SK_EMIT("initiative", "initiative", static_cast<std::size_t>(-1), s_->sides[0].name + " " + std::to_string(a) + ", " + s_->sides[1].name + " " + std::to_string(b) + ": " + s_->sides[first].name + " acts first");
  // The sides alternate figure by figure; each spends its actions one at a time.
  std::array<std::vector<std::size_t>, 2>& order = order_;  // kept between turns
  order[0].clear();
  order[1].clear();
  for (std::size_t i = 0; i < figs_.size(); ++i) order[figs_[i].side].push_back(i);
  const std::size_t n = std::max(order[0].size(), order[1].size());
  for (std::size_t k = 0; k < n && !finished_; ++k)
    for (std::uint8_t s : {first, static_cast<std::uint8_t>(1 - first)})
      if (k < order[s].size()) activate(order[s][k]);
  if (!finished_ && !check_victory() && turn_ >= s_->turns)
    finish(s_->at_turn_limit, s_->at_turn_limit ? s_->sides[*s_->at_turn_limit].name + " holds at the turn limit" : "the turn limit");
  return !finished_;
}

bool SkirmishGame::check_victory() {
  for (std::uint8_t s = 0; s < 2; ++s) {
    const SkSideOutcome& o = out_.sides[s];
    if (o.figures > 0 && o.figures_out * 100 >= s_->breaks_at_pct[s] * o.figures) {
      finish(static_cast<std::uint8_t>(1 - s), s_->sides[s].name + " has " + std::to_string(o.figures_out) + " of " + std::to_string(o.figures) + " figures out of action (breaks at " + std::to_string(s_->breaks_at_pct[s]) + "%)");
      return true;
    }
  }
  return false;
}

void SkirmishGame::finish(std::optional<std::uint8_t> winner, std::string reason) {
  finished_ = true;
  out_.winner = winner;
  out_.reason = std::move(reason);
}

const SkOutcome& SkirmishGame::run() {
  while (play_turn()) {
  }
  return out_;
}

void SkirmishGame::emit(const char* phase, const char* kind, std::size_t f, std::string text) {
  if (!rec_) return;
  Event e;
  e.turn = turn_;
  e.phase = phase;
  e.kind = kind;
  if (f < figs_.size()) e.unit = figs_[f].spec->name;
  e.text = std::move(text);
  rec_->record(std::move(e));
}

std::string SkirmishGame::in(double cm) const {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fin", cm / k_in);
  return buf;
}

}  // namespace vedette
