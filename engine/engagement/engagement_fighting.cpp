// Steps 4 to 6 of the turn (docs/turn-sequence.md): shooting, melee and
// morale. The turn loop: engine/engagement/engagement.cpp.
#include "engine/engagement/engagement.hpp"

#include "engine/procedures/turn_procedures.hpp"
#include "engine/procedures/table_rules.hpp"
#include "engine/engagement/engagement_text.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/procedures/combat.hpp"
#include "engine/decision/risk_factor.hpp"

namespace vedette {

using namespace engagement_detail;

// ----------------------------------------------------------- 4. shooting

void Engagement::step_shooting() { (this->*hooks_->shooting)(); }

// Seed 002's shooting by figures: each unit that may shoots the nearest
// enemy in range and arc; the hits land together at the end of the step.
void Engagement::figure_shooting() {
  std::fill(pending_hits_.begin(), pending_hits_.end(), 0);
  std::vector<int> faces;
  for (std::size_t i = 0; i < b_.units_.size(); ++i) {
    const Unit& u = b_.units_[i];
    if (!u.active() || u.engaged || u.charged_this_turn || u.order == Order::retreating || u.order == Order::routed) continue;
    if (!b_.can_shoot(i)) continue;
    // Seed 002: uncommanded units shoot only at the nearest enemy.
    const UnitIndex tt = b_.nearest_enemy(i, true);
    if (tt == k_no_unit) continue;
    const auto t = static_cast<std::size_t>(tt);
    const Length g = b_.gap(i, t);
    if (g > b_.reach(i)) continue;
    const Unit& target = b_.units_[t];
    bool in_arc;
    const char* arc_name;
    if (u.in_square()) {
      in_arc = true;
      arc_name = "all round (square)";
    } else if (u.on_horse() && moved_cm_[i] > 0) {
      // Seed 002: "front and left 45° arc" (mounted_shooting.moving_arc).
      const double a = r_.supplement.moving_shoot_arc_degrees;
      in_arc = r_.supplement.moving_shoot_arc_wide ? b_.board().in_front_left_arc(u.pos, u.facing, target.pos, -a, a)
                                                   : b_.board().in_front_left_arc(u.pos, u.facing, target.pos, -a / 2, a / 2);
      arc_name = "front and left (moving cavalry, seed 002)";
    } else {
      in_arc = b_.board().in_front_arc(u.pos, u.facing, target.pos, r_.combat.shooting.arc_half_degrees);
      arc_name = "front";
    }
    if (!in_arc) {
      if (rec_) {
        Event e = event("shooting", "no_shot", i);
        e.text = name(i) + " cannot shoot: its nearest enemy " + name(t) + " is outside its " + arc_name + " arc";
        emit(std::move(e));
      }
      continue;
    }
    const Weapon& w = r_.weapons[*u.profile->weapon];
    ShotFacts sf;
    sf.figures = u.figures;
    sf.on_horse = u.on_horse();
    sf.shoots_mounted = !u.type || u.type->shoots_mounted;
    sf.in_square = u.in_square();
    sf.distance = g;
    sf.cover = b_.board().cover_of(b_.footprint(t), u.pos);
    const std::optional<ShotPlan> plan = plan_shot(r_, w, sf);  // seed 002, the solo session's too
    if (!plan) continue;
    const std::optional<std::size_t> band = plan->band;
    const int shift = plan->shift;
    const int cover = sf.cover;
    const int need = plan->need;
    const int n = plan->dice;
    faces.clear();
    const int hits = need > 6 ? 0 : roll_hits(shooting_, n, need, rec_ ? &faces : nullptr);
    pending_hits_[t] += hits;
    out_.sides[u.side].shooting_hits += hits;
    if (rec_) {
      Event e = event("shooting", "shoot", i);
      e.text = name(i) + " shoots " + w.name + " at " + name(t) + " (" + len(g) + ", band " + std::to_string(*band + 1) +
               (shift ? " counting " + std::to_string(shift) + " further, mounted" : "") + "): " + std::to_string(n) +
               " dice needing " + std::to_string(need) + (cover ? " (cover " + std::to_string(cover) + ")" : "") +
               (need > 6 ? ": cannot hit" : " " + faces_str(faces) + " = " + std::to_string(hits) + " hit" + (hits == 1 ? "" : "s"));
      e.with("target", name(t))
          .with("gap_cm", g.as_cm())
          .with("band", static_cast<long long>(*band + 1))
          .with("need", static_cast<long long>(need))
          .with("dice", faces_data(faces))
          .with("hits", static_cast<long long>(hits));
      emit(std::move(e));
    }
  }
  for (std::size_t t = 0; t < b_.units_.size(); ++t)
    if (pending_hits_[t] > 0) apply_hits(t, pending_hits_[t], shooting_, "shooting");
}

void Engagement::apply_hits(std::size_t i, int hits, Dice& dice, const char* phase) {
  Unit& u = b_.units_[i];
  SideOutcome& so = out_.sides[u.side];
  int horses = 0, riders = 0, foot = 0;
  std::vector<int> faces;
  for (int k = 0; k < hits && u.figures > 0; ++k) {
    if (u.on_horse()) {
      int face = 0;
      if (roll_hit_location(r_, dice, &face) == HitOn::horse) {
        ++horses;
        ++u.horses_lost;
        ++u.dismounted_riders;
      } else {
        ++riders;
        ++u.riders_lost;
      }
      if (rec_) faces.push_back(face);
    } else {
      ++foot;
    }
    --u.figures;
    b_.changed();
    ++so.figures_lost;
  }
  so.horses_lost += horses;
  so.riders_lost += riders;
  so.dismounted_riders += horses;
  if (rec_ && hits > 0) {
    Event e = event(phase, "casualties", i);
    e.text = name(i) + " loses " + std::to_string(horses + riders + foot) + " figure" + (horses + riders + foot == 1 ? "" : "s");
    if (!faces.empty())
      e.text += ": D6 " + faces_str(faces) + " -> " + std::to_string(horses) + " horse" + (horses == 1 ? "" : "s") + " (rider dismounted), " +
                std::to_string(riders) + " rider" + (riders == 1 ? "" : "s") + " (seed 002: 1-4 horse, 5-6 rider)";
    e.text += "; " + std::to_string(u.figures) + " left";
    e.with("hits", static_cast<long long>(hits))
        .with("horses", static_cast<long long>(horses))
        .with("riders", static_cast<long long>(riders))
        .with("figures_left", static_cast<long long>(u.figures))
        .with("location_dice", faces_data(faces));
    emit(std::move(e));
  }
  if (u.figures == 0 && !u.off_table) {
    u.off_table = true;
    b_.changed();
    u.engaged = false;
    ++so.destroyed;
    if (rec_) {
      Event e = event(phase, "destroyed", i);
      e.text = name(i) + " is destroyed";
      emit(std::move(e));
    }
  }
}

// -------------------------------------------------------------- 5. melee

void Engagement::step_melee() {
  for (const Contact& c : contacts_) (this->*hooks_->melee)(c);
  (this->*hooks_->after_melee)();
  for (Unit& u : b_.units_) u.engaged = false;
}

// Step 5, one melee between units in contact (seed 002's melee; seed 003's
// charge bonus and follow-through; seed 004's retire and reform and square):
// the defending cavalry may retire and reform; a square fights first;
// otherwise both sides roll at once.
void Engagement::figure_melee(const Contact& c) {
  const auto a = static_cast<std::size_t>(c.attacker);
  const auto d = static_cast<std::size_t>(c.defender);
  Unit& A = b_.units_[a];
  Unit& D = b_.units_[d];
  if (!A.active() || !D.active() || b_.gap(a, d) > r_.combat.movement.stand_off) {
    if (rec_) {
      Event e = event("melee", "no_melee", a);
      e.text = "No melee between " + name(a) + " and " + name(d) + ": no longer in contact";
      emit(std::move(e));
    }
    return;
  }
  // Seed 004: cavalry attacked by infantry may retire and reform.
  if (D.on_horse() && !A.cavalry() && bots_[D.side]->retire_and_reform(b_, d, a) && melee_retire_and_reform(a, d)) return;
  // The melee's order and dice are engine/procedures/melee_procedure.hpp's.
  MeleeFacts f;
  f.form = D.in_square() && A.on_horse() ? MeleeForm::square : MeleeForm::exchange;
  f.attacker = {A.figures, A.type, A.on_horse(), c.attacker_bonus};
  f.defender = {D.figures, D.type, D.on_horse(), c.defender_bonus};
  f.attacker_move = move_of(a);
  f.defender_move = move_of(d);
  f.charge = c.charge;
  f.balance = c.balance;
  f.defender_charge = c.defender_charge;
  f.defender_balance = c.defender_balance;
  if (f.form == MeleeForm::square) melee_square(a, d, f);
  else melee_exchange(c, f);
}

// Seed 004, retire and reform, chosen by the cavalry's bot: it retires a
// whole move toward its own edge, the infantry hitting only on the cavalry
// face; false (and it must fight) when it cannot retire the full distance.
bool Engagement::melee_retire_and_reform(std::size_t a, std::size_t d) {
  Unit& A = b_.units_[a];
  Unit& D = b_.units_[d];
  SideOutcome& sa = out_.sides[A.side];
  SideOutcome& sd = out_.sides[D.side];
  std::vector<int> fa;
  std::vector<int>* pfa = rec_ ? &fa : nullptr;
  const Length dist = r_.combat.hex * r_.combat.retire.hexes;
  const Point home = b_.home_point(d);
  const Point to = clip_enemies(d, D.pos, b_.board().move_toward(D.pos, home, dist), static_cast<UnitIndex>(a));
  if (euclid_cm(D.pos, to) >= dist.as_cm() - 1e-6) {
    MeleeFacts f;
    f.form = MeleeForm::retire;
    f.attacker = {A.figures, A.type, A.on_horse(), false};
    f.defender = {D.figures, D.type, D.on_horse(), false};
    MeleeProcedure p(r_, f);
    p.roll(melee_, pfa);  // the foot's full dice, hitting only on the cavalry face
    const int n = p.result().attacker.dice;
    const int hits = p.result().attacker_hits;
    ++sd.retire_and_reform;
    sa.melee_hits += hits;
    if (rec_) {
      Event e = event("melee", "retire_and_reform", d);
      e.text = name(d) + " retires and reforms (seed 004): " + name(a) + " rolls " + std::to_string(n) + " dice hitting only on the cavalry face " +
               faces_str(fa) + " = " + std::to_string(hits) + " hit" + (hits == 1 ? "" : "s");
      e.with("dice", faces_data(fa)).with("hits", static_cast<long long>(hits));
      emit(std::move(e));
    }
    apply_hits(d, hits, melee_, "melee");
    if (D.active()) {
      const double moved = go(d, home, Pace::walk, dist, true);
      D.facing = bearing_deg(D.pos, A.pos);
      D.retreated_this_turn = true;
      if (rec_) {
        Event e = event("melee", "retire", d);
        e.text = name(d) + " retires " + len(Length::cm(moved)) + " toward its own edge and faces " + name(a);
        e.with("distance_cm", moved).with("allowance_cm", dist.as_cm());
        emit(std::move(e));
      }
    }
    return true;
  }
  if (rec_) {
    Event e = event("melee", "no_retire", d);
    e.text = name(d) + " cannot retire the full " + len(dist) + " and must fight (seed 004)";
    emit(std::move(e));
  }
  return false;
}

// Seed 004: cavalry against a square. The square rolls first; a bounce sends
// the cavalry back; else the cavalry fights with the square's dice and falls
// back whatever the result.
void Engagement::melee_square(std::size_t a, std::size_t d, const MeleeFacts& f) {
  Unit& A = b_.units_[a];
  Unit& D = b_.units_[d];
  SideOutcome& sa = out_.sides[A.side];
  SideOutcome& sd = out_.sides[D.side];
  std::vector<int> fa, fd;
  std::vector<int>* pfa = rec_ ? &fa : nullptr;
  std::vector<int>* pfd = rec_ ? &fd : nullptr;
  MeleeProcedure p(r_, f);
  p.roll(melee_, pfd);  // the square first
  const MeleeResult& m = p.result();
  const int hits_d = m.defender_hits;
  if (rec_) {
    Event e = event("melee", "square_first", d);
    e.text = name(d) + " in square rolls first: " + faces_str(fd) + (m.bounced ? " -> bounce (seed 004)" : " -> no bounce") + ", " +
             std::to_string(hits_d) + " hit" + (hits_d == 1 ? "" : "s") + " (bounce " + p_square_bounce(r_.charge).str() + " per die)";
    e.with("dice", faces_data(fd)).with("bounce", m.bounced).with("hits", static_cast<long long>(hits_d));
    emit(std::move(e));
  }
  sd.melee_hits += hits_d;
  apply_hits(a, hits_d, melee_, "melee");
  if (m.end == MeleeEnd::bounced) {
    ++sa.charges_repulsed;
    retreat(a, d, m.square.attacker_back, "bounces off the square");
    return;
  }
  p.answer_fights(A.active() ? A.figures : 0);
  if (p.done()) return;  // the square's hits took its last figure
  p.roll(melee_, pfa);
  const int na = m.attacker.dice, need_a = m.attacker.need, hits_a = m.attacker_hits;
  sa.melee_hits += hits_a;
  if (rec_) {
    Event e = event("melee", "melee", a);
    e.text = name(a) + " fights the square with " + std::to_string(na) + " die needing " + std::to_string(need_a) + " " + faces_str(fa) +
             " = " + std::to_string(hits_a) + " hit" + (hits_a == 1 ? "" : "s");
    e.with("dice", faces_data(fa)).with("need", static_cast<long long>(need_a)).with("hits", static_cast<long long>(hits_a));
    emit(std::move(e));
  }
  apply_hits(d, hits_a, melee_, "melee");
  ++sa.charges_repulsed;
  if (D.active() && m.square.square_shaken) set_order(d, Order::shaken, "melee", "it lost the exchange");
  retreat(a, d, m.square.attacker_back, "cannot break into the square");
  if (A.active()) A.facing = bearing_deg(A.pos, D.pos);
}

// Seed 002's melee: both sides roll at once, then who won and what follows
// (seed 003: the charger's follow-through on a victory in the first round).
void Engagement::melee_exchange(const Contact& c, const MeleeFacts& f) {
  const auto a = static_cast<std::size_t>(c.attacker);
  const auto d = static_cast<std::size_t>(c.defender);
  Unit& A = b_.units_[a];
  Unit& D = b_.units_[d];
  SideOutcome& sa = out_.sides[A.side];
  SideOutcome& sd = out_.sides[D.side];
  std::vector<int> fa, fd;
  std::vector<int>* pfa = rec_ ? &fa : nullptr;
  std::vector<int>* pfd = rec_ ? &fd : nullptr;
  MeleeProcedure p(r_, f);
  p.roll(melee_, pfa);  // the attacker's dice, then the defender's
  p.roll(melee_, pfd);
  const MeleeResult& m = p.result();
  const int na = m.attacker.dice, nd = m.defender.dice, need_a = m.attacker.need, need_d = m.defender.need;
  const int hits_a = m.attacker_hits, hits_d = m.defender_hits;
  sa.melee_hits += hits_a;
  sd.melee_hits += hits_d;
  if (rec_) {
    Event e = event("melee", "melee", a);
    auto side_text = [&](std::size_t u, int n, int need, bool bonus, const std::vector<int>& fs, int h) {
      const Unit& x = b_.units_[u];
      std::string mod;
      if (x.on_horse() && x.type && x.type->melee) mod += " " + signed_str(x.type->melee) + " " + x.type->name;
      if (x.on_horse() && x.type && bonus && x.type->melee_charging) mod += " " + signed_str(x.type->melee_charging) + " charging";
      return name(u) + " " + std::to_string(n) + " dice needing " + std::to_string(need) + (mod.empty() ? "" : " (" + mod.substr(1) + ")") + " " +
             faces_str(fs) + " = " + std::to_string(h);
    };
    e.text = "Melee: " + side_text(a, na, need_a, c.attacker_bonus, fa, hits_a) + "; " + side_text(d, nd, need_d, c.defender_bonus, fd, hits_d);
    e.with("defender", name(d))
        .with("attacker_dice", faces_data(fa))
        .with("defender_dice", faces_data(fd))
        .with("attacker_need", static_cast<long long>(need_a))
        .with("defender_need", static_cast<long long>(need_d))
        .with("attacker_hits", static_cast<long long>(hits_a))
        .with("defender_hits", static_cast<long long>(hits_d));
    emit(std::move(e));
  }
  apply_hits(d, hits_a, melee_, "melee");
  apply_hits(a, hits_d, melee_, "melee");
  // Who won and what follows: the solo session's melee drives the same procedure.
  const MeleeAftermath& after = m.after;
  if (after.winner == MeleeWinner::attacker) {
    if (D.active()) {
      retreat(d, a, after.defender_back, "loses the melee");
      set_order(d, Order::retreating, "melee", "it lost the melee and must rally");
    }
    if (c.charge) follow_through(a, c.bearing, after.follow_through);  // seed 003: victory in the first round
  } else if (after.winner == MeleeWinner::defender) {
    ++sa.charges_repulsed;
    if (A.active()) {
      retreat(a, d, after.attacker_back, "loses the melee");
      set_order(a, Order::retreating, "melee", "it lost the melee and must rally");
    }
    // Seed 003 L3: a counter-charger that wins the melee follows through too.
    if (c.defender_charge) follow_through(d, c.defender_bearing, after.defender_follow_through);
  } else {
    ++sa.charges_repulsed;
    if (A.active()) {
      retreat(a, d, after.attacker_back, "draws the melee and is repulsed");
      A.facing = bearing_deg(A.pos, D.pos);
    }
  }
}

// ------------------------------------------------------------- 6. morale

void Engagement::step_morale() { (this->*hooks_->morale)(); }

// Seed 002's morale over figures: rout at the losses threshold, rally.
void Engagement::figure_morale() {
  // Each unit's step is engine/procedures/turn_procedures.hpp's: every rout
  // first (no dice), then the rallies in unit order.
  auto procedure = [&](const Unit& u) {
    return RallyProcedure(r_, {u.lost(), u.figures_start, u.order == Order::shaken || u.order == Order::retreating});
  };
  // Which units' procedures are not done after the rout pass (bit i: unit
  // i, up to 64 units): the rally pass below asks again only those. Between
  // the two passes only set_order(., routed) runs, which changes the order
  // of the unit that routs alone (skipped by the rally pass), so another
  // unit's facts (losses, figures, shaken or retreating) and thus its
  // procedure are the same; a done procedure stays done (issue 32,
  // sixteenth pass: RallyProcedure built once per unit and turn, not twice).
  const bool bits = b_.units_.size() <= 64;
  std::uint64_t to_rally = 0;
  for (std::size_t i = 0; i < b_.units_.size(); ++i) {
    Unit& u = b_.units_[i];
    if (!u.active() || u.order == Order::routed) continue;
    const RallyProcedure first = procedure(u);
    if (!first.done()) to_rally |= std::uint64_t{1} << (i & 63);
    if (first.end() == RallyEnd::routs) {
      ++out_.sides[u.side].routs;
      std::string why;
      if (rec_)
        why = "it has lost " + std::to_string(u.lost()) + " of " + std::to_string(u.figures_start) + " figures (rout at " +
              std::to_string(r_.combat.morale.rout_losses_pct) + "%)";
      set_order(i, Order::routed, "morale", why);
    }
  }
  for (std::size_t i = 0; i < b_.units_.size(); ++i) {
    Unit& u = b_.units_[i];
    if (!u.active() || u.order == Order::routed) continue;
    if (bits && (to_rally >> i & 1U) == 0) continue;  // done in the rout pass: nothing to rally from
    RallyProcedure p = procedure(u);
    if (p.done()) continue;  // nothing to rally from
    bool clear = true;
    for (std::size_t j = 0; j < b_.units_.size() && clear; ++j)
      if (b_.units_[j].active() && b_.enemies(i, j) && b_.gap(i, j) < r_.combat.morale.rally_enemy_clear) clear = false;
    p.answer_enemy_near(!clear);
    if (!clear) {
      if (rec_) {
        Event e = event("morale", "no_rally", i);
        e.text = name(i) + " cannot rally: an enemy is within " + len(r_.combat.morale.rally_enemy_clear);
        emit(std::move(e));
      }
      continue;
    }
    std::vector<int> f;
    p.roll(morale_, rec_ ? &f : nullptr);
    const bool ok = p.end() == RallyEnd::rallied;
    if (rec_) {
      const int d1 = f[0], d2 = f[1];
      Event e = event("morale", "rally", i);
      e.text = name(i) + " (" + std::string(order_name(u.order)) + ") rally: 2D6 " + faces_str({d1, d2}) + " = " + std::to_string(d1 + d2) +
               ", needs " + std::to_string(r_.combat.morale.rally_target) + ": " + (ok ? "rallies" : "fails");
      e.with("dice", faces_data({d1, d2})).with("need", static_cast<long long>(r_.combat.morale.rally_target)).with("rallied", ok);
      emit(std::move(e));
    }
    if (ok) {
      u.order = Order::good;
      u.pike_routed = false;
    }
  }
}

void Engagement::set_order(std::size_t i, Order o, const char* phase, std::string_view why) {
  Unit& u = b_.units_[i];
  if (u.order == o || u.order == Order::routed) return;
  u.order = o;
  if (rec_) {
    Event e = event(phase, "order", i);
    e.text = name(i) + " is " + std::string(order_name(o)) + ": " + std::string(why);
    e.with("order", std::string(order_name(o)));
    emit(std::move(e));
  }
}

}  // namespace vedette
