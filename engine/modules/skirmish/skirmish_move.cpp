// Seed 001's skirmish: movement, the charge and its fear, close combat
// (engine/modules/skirmish/skirmish.hpp; the turn: skirmish.cpp).
#include "engine/modules/skirmish/skirmish.hpp"
#include "engine/modules/skirmish/skirmish_detail.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <variant>

namespace vedette {

using namespace skirmish_detail;

// ------------------------------------------------------------ movement

// path_end reads of the figure only whether it rides: kept by the bits of
// its arguments and that (path_bits_).
Point SkirmishGame::path_end(std::size_t f, Point from, Point dest, double allowance) const {
  const double rides = figs_[f].mounted() ? 1.0 : 0.0;
  return path_bits_.get({from.x, from.y, dest.x, dest.y, allowance, rides}, [&] { return path_end_now(f, from, dest, allowance); });
}

Point SkirmishGame::path_end_now(std::size_t f, Point from, Point dest, double allowance) const {
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
  ++moved_;
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
  const Point p = figs_[j].pos;
  return flee_bits_.get({p.x, p.y, from.x, from.y}, [&] { return flee_cover_now(j, from); });
}

std::optional<Point> SkirmishGame::flee_cover_now(std::size_t j, Point from) const {
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
  const double d = pair_dist(sh, tg);  // dist_cm(s.pos, figs_[tg].pos), kept with the pair's sight
  for (const auto& b : w.bands)
    if (d <= b.to.as_cm()) {
      if (!sees(sh, tg)) return std::nullopt;
      return static_cast<int>(b.hit - to_hit_sum(sh, tg, std::nullopt));
    }
  return std::nullopt;
}

int SkirmishGame::fear_charge_of(std::uint8_t side, Point from) {
  const SkirmishRules& r = rules();
  if (fear_charges_turn_ != turn_) {
    fear_used_ = 0;
    fear_charges_turn_ = turn_;
  }
  for (std::size_t k = 0; k < fear_used_; ++k) {
    FearCharge& c = fear_charges_[k];
    if (c.side != side) continue;
    bool joins = r.fear_per == FearPer::turn;  // every ride of the side this turn is one charge
    for (const Point& p : c.starts) joins = joins || euclid_cm(p, from) <= r.fear_together.as_cm() + 1e-9;
    if (!joins) continue;
    c.starts.push_back(from);
    return static_cast<int>(k);
  }
  if (fear_used_ == fear_charges_.size()) fear_charges_.emplace_back();
  FearCharge& c = fear_charges_[fear_used_];
  c.side = side;
  c.starts.assign(1, from);
  return static_cast<int>(fear_used_++);
}

void SkirmishGame::fear_of_charge(std::size_t charger, Point from, Point to, Roller& dice, int charge) {
  const SkirmishRules& r = rules();
  const std::uint8_t side = figs_[charger].side;
  for (std::size_t j = 0; j < figs_.size(); ++j) {
    SkFigure& e = figs_[j];
    if (e.side == side || !is_foot(e)) continue;
    if (seg_dist(e.pos, from, to) > r.fear_radius.as_cm()) continue;
    // Seed 001: unless in +5 cover (prone not counted: cover of the ground only).
    if (cover_of(j, from) >= r.fear_cover_exempt) continue;
    // Seed 001: one check per charge, not per horse (fear_charge_of: the
    // rides side by side this turn, or all the side's this turn, are one).
    if (e.fear_turn != turn_) {
      e.fear_turn = turn_;
      e.fear_charges.clear();
    }
    if (std::find(e.fear_charges.begin(), e.fear_charges.end(), charge) != e.fear_charges.end()) continue;
    e.fear_charges.push_back(charge);
    ++out_.sides[e.side].fear_checks;
    const int roll = dice.d(r.die);
    const int need = e.spec->skill + r.gut_check_modifier;
    const bool ok = roll <= need;
    SK_EMIT("charge", "fear", j, name(j) + " gut check (fear of charge): rolls " + std::to_string(roll) + " against " + std::to_string(need) + ": " + (ok ? "stands" : "fails"));
    if (ok) continue;
    ++out_.sides[e.side].fear_failed;
    e.op_fire = false;
    ++moved_;  // he runs (or stays, caught in the open)
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
    fear_of_charge(f, start, end, dice, fear_charge_of(x.side, start));
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
  std::vector<std::size_t>& foes = cc_foes_;
  foes.clear();
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

}  // namespace vedette
