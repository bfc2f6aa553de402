// Seed 001's skirmish mechanisms and turn (engine/modules/skirmish/skirmish.hpp):
// setup, the questions the rules ask, the actions and the turn loop. Dice,
// hits and fire: engine/modules/skirmish/skirmish_fire.cpp; movement, charge and
// close combat: engine/modules/skirmish/skirmish_move.cpp.
#include "engine/modules/skirmish/skirmish.hpp"
#include "engine/modules/skirmish/skirmish_detail.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <variant>

namespace vedette {

using namespace skirmish_detail;


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
  fear_used_ = 0;
  fear_charges_turn_ = -1;
  finished_ = false;
  // A new outcome and new figures, each keeping the buffer of the last
  // game's (the reason, the charges a figure checked for): a game allocates
  // nothing once warmed up (tests/no_alloc/test_no_alloc.cpp).
  std::string reason = std::move(out_.reason);
  reason.clear();
  out_ = SkOutcome{};
  out_.reason = std::move(reason);
  figs_.resize(s_->figures.size());
  horses_.clear();
  for (std::size_t i = 0; i < s_->figures.size(); ++i) {
    const SkirmishFigureSpec& spec = s_->figures[i];
    std::vector<int> checked = std::move(figs_[i].fear_charges);
    checked.clear();
    SkFigure& f = figs_[i];
    f = SkFigure{};
    f.fear_charges = std::move(checked);
    f.spec = &spec;
    f.side = spec.side;
    f.pos = spec.position;
    f.facing = spec.facing;
    f.prone = spec.prone;
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
  ++moved_;
  nearest_kept_.assign(2 * figs_.size(), Kept{});
  known_kept_ = {};
  place_cover_.resize(figs_.size());
  for (auto& v : side_figs_) v.clear();
  for (std::size_t i = 0; i < figs_.size(); ++i) side_figs_[figs_[i].side].push_back(i);
}

// ------------------------------------------------------------ questions

// Tabletop::line_of_sight, kept by the points' bits (sight_bits_).
bool SkirmishGame::sees_point(Point a, Point b) const {
  return sight_bits_.get({a.x, a.y, b.x, b.y}, [&] { return s_->foot->line_of_sight(a, b); });
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

const Tabletop::CoverPoints& SkirmishGame::cover_points(std::size_t f) const {
  const SkFigure& x = figs_[f];
  const std::uint64_t k[3] = {std::bit_cast<std::uint64_t>(x.pos.x), std::bit_cast<std::uint64_t>(x.pos.y), std::bit_cast<std::uint64_t>(x.facing)};
  PlaceCover& c = place_cover_[f];
  if (!c.valid || c.key[0] != k[0] || c.key[1] != k[1] || c.key[2] != k[2]) {
    c.pts = place_cover_bits_.get({x.pos.x, x.pos.y, x.facing}, [&] {
      const Footprint fp{x.pos, x.facing, Length::cm(0.5), Length::cm(0.5)};
      return s_->foot->cover_points(fp);
    });
    for (int i = 0; i < 3; ++i) c.key[i] = k[i];
    c.valid = true;
  }
  return c.pts;
}

// Tabletop::cover_of of the figure's 0.5 cm square, from its kept cover
// points; kept by the bits of its place, facing and the viewer (cover_bits_).
int SkirmishGame::cover_of(std::size_t f, Point viewer) const {
  const SkFigure& x = figs_[f];
  return cover_bits_.get({x.pos.x, x.pos.y, x.facing, viewer.x, viewer.y}, [&] { return s_->foot->cover_of_points(cover_points(f), viewer); });
}

int SkirmishGame::building_at(Point p) const {
  for (std::size_t b = 0; b < s_->buildings.size(); ++b)
    if (s_->foot->area_contains(s_->buildings[b].area, p)) return static_cast<int>(b);
  return -1;
}

// The answer depends only on the figures' places, health and horses (and
// the fixed terrain), so it is kept until one of them changes (moved_).
int SkirmishGame::nearest_visible_enemy(std::size_t f, bool foot_only) const {
  Kept& k = nearest_kept_[2 * f + (foot_only ? 1 : 0)];
  if (k.moved != moved_) {
    k.answer = nearest_visible_enemy_now(f, foot_only);
    k.moved = moved_;
  }
  return k.answer;
}

int SkirmishGame::nearest_visible_enemy_now(std::size_t f, bool foot_only) const {
  int best = -1;
  // Squared distances (dist2_cm) above `beyond` are farther for sure than
  // the best's (farther_than_cm), those below `within` nearer for sure
  // (nearer_than_cm): d < bd is settled without either distance. Before a
  // best, bd is 1e300, and a squared distance under 1e300 is a distance far
  // under it. Only when the squares do not settle it are the distances
  // asked (the pair entries' kept ones).
  double beyond = std::numeric_limits<double>::infinity();
  double within = 1e300;
  const Point p = figs_[f].pos;
  const std::uint64_t px = std::bit_cast<std::uint64_t>(p.x), py = std::bit_cast<std::uint64_t>(p.y);
  SightMemo* const row = sight_memo_.data() + f * figs_.size();  // f's pairs (pair_memo)
  const SkFigure* const figs = figs_.data();
  auto dist_of = [&](SightMemo& m, Point q) {  // pair_dist on the pair's entry
    if (!m.dist_valid) {
      m.dist = dist_cm(p, q);
      m.dist_valid = true;
    }
    return m.dist;
  };
  for (const std::size_t j : side_figs_[1 - figs[f].side]) {
    const SkFigure& e = figs[j];
    if (!e.active() || (foot_only && e.mounted())) continue;
    const double s = dist2_cm(p, e.pos);
    if (s > beyond) continue;
    SightMemo& m = keyed(row[j], px, py, e.pos);
    if (!(s < within)) {
      const auto b = static_cast<std::size_t>(best);
      const double bd = best < 0 ? 1e300 : dist_of(row[b], figs[b].pos);  // the best's entry, keyed in this loop
      if (!(dist_of(m, e.pos) < bd)) continue;
    }
    if (!m.valid) {
      m.sees = sees_point(p, e.pos);
      m.valid = true;
    }
    if (m.sees) {
      beyond = farther_than_cm(s);
      within = nearer_than_cm(s);
      best = static_cast<int>(j);
    }
  }
  return best;
}

// "Known enemy positions" (seed 001, riding double): enemies some figure of
// the side can see now (choice). Without `nearest` the first known enemy
// answers (sees is a pure question: asking fewer changes no answer).
bool SkirmishGame::enemy_known(std::uint8_t side, Point p, double* nearest) const {
  // Without `nearest` the answer does not depend on p: kept per side until
  // a figure changes (moved_).
  if (!nearest) {
    Kept& k = known_kept_[side];
    if (k.moved != moved_) {
      k.answer = enemy_known_now(side, p, nullptr) ? 1 : 0;
      k.moved = moved_;
    }
    return k.answer != 0;
  }
  return enemy_known_now(side, p, nearest);
}

bool SkirmishGame::enemy_known_now(std::uint8_t side, Point p, double* nearest) const {
  bool any = false;
  double best = 1e300;
  for (const std::size_t j : side_figs_[1 - side]) {
    if (!figs_[j].active()) continue;
    bool known = false;
    for (const std::size_t k : side_figs_[side]) {
      known = figs_[k].active() && sees(k, j);
      if (known) break;
    }
    if (!known) continue;
    if (!nearest) return true;
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
      ++moved_;
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
  if (!finished_ && !check_victory() && turn_ >= s_->turns) {
    finish(s_->at_turn_limit);
    if (s_->at_turn_limit) out_.reason.append(s_->sides[*s_->at_turn_limit].name).append(" holds at the turn limit");
    else out_.reason.append("the turn limit");
  }
  return !finished_;
}

bool SkirmishGame::check_victory() {
  for (std::uint8_t s = 0; s < 2; ++s) {
    const SkSideOutcome& o = out_.sides[s];
    if (o.figures > 0 && o.figures_out * 100 >= s_->breaks_at_pct[s] * o.figures) {
      finish(static_cast<std::uint8_t>(1 - s));
      // Written in place (std::to_string of an int fits the small-string
      // buffer): "<side> has N of M figures out of action (breaks at P%)".
      out_.reason.append(s_->sides[s].name).append(" has ").append(std::to_string(o.figures_out)).append(" of ");
      out_.reason.append(std::to_string(o.figures)).append(" figures out of action (breaks at ");
      out_.reason.append(std::to_string(s_->breaks_at_pct[s])).append("%)");
      return true;
    }
  }
  return false;
}

void SkirmishGame::finish(std::optional<std::uint8_t> winner) {
  finished_ = true;
  out_.winner = winner;
  out_.reason.clear();
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
