// The turn sequence of an engagement (docs/turn-sequence.md, step by step).
#include "engine/engagement/engagement.hpp"
#include "engine/engagement/table_rules.hpp"
#include "engine/engagement/engagement_text.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/engagement/combat.hpp"
#include "engine/decision/risk_factor.hpp"

namespace vedette {

using namespace engagement_detail;

// ------------------------------------------------------------- engagement

Engagement::Engagement(const Scenario& s, std::array<const Bot*, 2> bots, std::uint64_t seed, std::uint64_t index)
    : b_(s),
      r_(*s.rules),
      bots_(bots),
      decisions_(rng_decisions_),
      movement_(rng_movement_),
      shooting_(rng_shooting_),
      melee_(rng_melee_),
      morale_(rng_morale_) {
  const std::size_t n = b_.units_.size();
  commands_.resize(n);
  pending_hits_.resize(n);
  moved_cm_.resize(n);
  moved_pace_.resize(n);
  contacts_.reserve(n * 2);
  out_.bands = r_.bands.size();
  out_.behaviours = r_.behaviours.size();
  out_.chosen.assign(out_.bands * out_.behaviours, 0);
  // Every reason an engagement can end with, so that finishing allocates nothing.
  turn_limit_reason_ = "the turn limit (" + std::to_string(s.turns) + ") is reached: " +
                       (s.at_turn_limit ? s.sides[*s.at_turn_limit].name + " holds" : std::string("a draw"));
  std::size_t longest = turn_limit_reason_.size();
  for (const VictoryCondition& v : s.victory) longest = std::max(longest, v.text.size());
  out_.reason.reserve(longest);
  if (s.blocks && s.hex) blocks_ = s.blocks.get();  // seed 004 block units
  start(seed, index);
}

void Engagement::reset(std::uint64_t seed, std::uint64_t index) {
  b_.reset();
  std::fill(commands_.begin(), commands_.end(), Command{});
  std::fill(pending_hits_.begin(), pending_hits_.end(), 0);
  std::fill(moved_cm_.begin(), moved_cm_.end(), 0.0);
  std::fill(moved_pace_.begin(), moved_pace_.end(), Pace::halt);
  contacts_.clear();
  declared_ = {};
  order_ = {0, 1};
  last_first_ = 255;
  out_.winner.reset();
  out_.reason.clear();
  out_.turns = 0;
  out_.sides = {};
  std::fill(out_.chosen.begin(), out_.chosen.end(), 0U);
  finished_ = false;
  start(seed, index);
}

void Engagement::start(std::uint64_t seed, std::uint64_t index) {
  const std::uint64_t prefix = stream_prefix(seed, index);  // make_stream(seed, index, sub), shared part once
  rng_decisions_ = make_stream_from(prefix, Subsystem::decisions);
  rng_movement_ = make_stream_from(prefix, Subsystem::movement);
  rng_shooting_ = make_stream_from(prefix, Subsystem::shooting);
  rng_melee_ = make_stream_from(prefix, Subsystem::melee);
  rng_morale_ = make_stream_from(prefix, Subsystem::morale);
  decisions_ = Dice(rng_decisions_);
  movement_ = Dice(rng_movement_);
  shooting_ = Dice(rng_shooting_);
  melee_ = Dice(rng_melee_);
  morale_ = Dice(rng_morale_);
  if (blocks_) block_start();
  for (const Unit& u : b_.units_) {
    SideOutcome& so = out_.sides[u.side];
    ++so.units;
    so.figures_start += u.figures_start;
  }
}

const Outcome& Engagement::run() {
  while (play_turn()) {
  }
  return out_;
}

bool Engagement::play_turn() {
  if (finished_) return false;
  ++b_.turn_;
  out_.turns = b_.turn_;
  if (rec_) {
    Event e = event("turn", "turn", SIZE_MAX);
    e.text = "Turn " + std::to_string(b_.turn_) + " of " + std::to_string(b_.scenario().turns);
    emit(std::move(e));
  }
  step_orders();
  step_initiative();
  step_movement();
  step_shooting();
  step_melee();
  step_morale();
  step_end();
  return !finished_;
}

// ------------------------------------------------------------- 1. orders

void Engagement::step_orders() {
  std::fill(commands_.begin(), commands_.end(), Command{});
  declared_ = {0, 0};
  for (std::uint8_t side = 0; side < 2; ++side) bots_[side]->orders(b_, side, decisions_, commands_);

  for (std::size_t i = 0; i < b_.units_.size(); ++i) {
    Unit& u = b_.units_[i];
    if (!u.active()) continue;
    Command& c = commands_[i];
    if (rec_) {
      Event e = event("orders", "sight", i);
      std::string seen;
      Terms data;
      for (std::size_t j = 0; j < b_.units_.size(); ++j) {
        if (!b_.units_[j].active() || !b_.enemies(i, j) || !b_.sees(i, j)) continue;
        const Length g = b_.gap(i, j);
        seen += (seen.empty() ? "" : ", ") + name(j) + " (" + len(g) + ")";
        data.emplace_back(name(j), std::llround(g.as_cm() * 100));
      }
      e.text = name(i) + " sees " + (seen.empty() ? "no enemy" : seen);
      e.with("seen_gap_hundredths_cm", std::move(data));
      emit(std::move(e));
    }
    if (u.order == Order::routed) continue;
    if (c.reacted && c.decision.band && c.decision.behaviour) {
      const auto band = static_cast<std::size_t>(c.decision.band - r_.bands.data());
      const auto beh = static_cast<std::size_t>(c.decision.behaviour - r_.behaviours.data());
      if (band < out_.bands && beh < out_.behaviours) ++out_.chosen[band * out_.behaviours + beh];
      if (rec_) {
        const RiskFactor rf = compute_rf(r_, c.facts);
        Event e = event("orders", "rf", i);
        std::string terms;
        Terms data;
        for (const auto& t : rf.breakdown) {
          terms += " " + signed_str(t.value) + " " + t.reason + ";";
          data.emplace_back(t.modifier->id, t.value);
        }
        e.text = name(i) + " risk factor " + std::to_string(rf.total) + (terms.empty() ? " (no modifier applies)" : " =" + terms);
        if (!terms.empty()) e.text.pop_back();
        e.with("rf", static_cast<long long>(rf.total)).with("breakdown", std::move(data));
        emit(std::move(e));
        Event d = event("orders", "decision", i);
        d.text = name(i) + " D6 " + std::to_string(c.decision.roll) + " on " + c.decision.band->label + ": " + c.decision.behaviour->text;
        if (c.decision.adjust != PaceAdjust::none) {
          UnitState s{u.type, u.pace, u.gallop_streak};
          d.text += " [" + adjustment_note(r_, c.decision, s) + "]";
        }
        d.with("roll", static_cast<long long>(c.decision.roll))
            .with("band", c.decision.band->id)
            .with("behaviour", c.decision.behaviour->id)
            .with("pace", std::string(pace_name(c.decision.pace)));
        emit(std::move(d));
      }
    }
    if (c.charge == k_no_unit) continue;
    // Seed 003: declarations from turn 2, by units in good order, against a
    // visible enemy.
    const auto t = static_cast<std::size_t>(c.charge);
    const ChargeGate gate = charge_gate(b_, i, c.charge, ChargeWhen::declare);
    if (!gate.allowed) {
      if (rec_) {
        Event e = event("orders", "declare_refused", i);
        e.text = name(i) + " may not declare a charge: " + std::string(gate.why);
        e.with("rule", std::string(gate.rule));
        emit(std::move(e));
      }
      c.charge = k_no_unit;
      continue;
    }
    u.charge_declared = true;
    u.charge_target = c.charge;
    {
      const Pace dp = c.pace == Pace::halt ? Pace::walk : c.pace;
      u.target_was_in_range = charge_prospect(b_, i, t, u.on_horse() ? b_.pace_limit(i, dp) : Pace::walk).reaches;
    }
    ++declared_[u.side];
    ++out_.sides[u.side].charges_declared;
    if (rec_) {
      Event e = event("orders", "declare", i);
      e.text = name(i) + " declares a charge on " + name(t);
      e.with("target", name(t));
      emit(std::move(e));
    }
  }
}

// --------------------------------------------------------- 2. initiative

void Engagement::step_initiative() {
  std::array<int, 2> total{};
  std::array<std::vector<int>, 2> faces;
  for (std::size_t s = 0; s < 2; ++s) {
    int roll = 0;
    for (int k = 0; k < r_.combat.initiative.dice; ++k) {
      const int f = decisions_.d6();
      roll += f;
      if (rec_) faces[s].push_back(f);
    }
    total[s] = initiative_total(r_, roll, declared_[s]);  // seed 003
  }
  const auto first = static_cast<std::uint8_t>(first_to_move(total, last_first_ == 255 ? -1 : last_first_));
  order_ = {first, static_cast<std::uint8_t>(1 - first)};
  last_first_ = first;
  if (rec_) {
    Event e = event("initiative", "initiative", SIZE_MAX);
    std::string t;
    for (std::size_t s = 0; s < 2; ++s) {
      t += (s ? "; " : "") + b_.scenario().sides[s].name + " " + faces_str(faces[s]);
      if (declared_[s])
        t += " " + signed_str(r_.charge.declare_initiative_modifier * declared_[s]) + " (" + std::to_string(declared_[s]) +
             " charge" + (declared_[s] > 1 ? "s" : "") + " declared)";
      t += " = " + std::to_string(total[s]);
      e.with(b_.scenario().sides[s].name, static_cast<long long>(total[s]));
    }
    e.text = "Initiative: " + t + " -> " + b_.scenario().sides[first].name + " moves first" + (total[0] == total[1] ? " (tie)" : "");
    e.with("first", b_.scenario().sides[first].name);
    emit(std::move(e));
  }
}

// ----------------------------------------------------------- 3. movement

void Engagement::step_movement() {
  std::fill(moved_cm_.begin(), moved_cm_.end(), 0.0);
  std::fill(moved_pace_.begin(), moved_pace_.end(), Pace::halt);
  contacts_.clear();
  for (std::uint8_t side : order_)
    for (std::size_t i = 0; i < b_.units_.size(); ++i)
      if (b_.units_[i].side == side) activate(i);
}

void Engagement::activate(std::size_t i) {
  Unit& u = b_.units_[i];
  // A unit that has made an opportunity charge has had its move.
  if (!u.active() || u.moved_this_turn || u.acted_this_turn) return;
  u.acted_this_turn = true;
  const Point pos0 = u.pos;
  const double facing0 = u.facing;
  if (u.order == Order::routed) {
    const Pace p = u.on_horse() ? b_.pace_limit(i, Pace::gallop) : Pace::walk;
    const Length a = b_.allowance(i, p);
    const double moved = go(i, b_.home_point(i), p, a, true);
    moved_cm_[i] += moved;
    moved_pace_[i] = moved > 0 ? p : Pace::halt;
    const Edge home = b_.scenario().sides[u.side].edge;
    if (rec_) {
      Event e = event("movement", "move", i);
      e.text = name(i) + " (routed) flees " + len(Length::cm(moved)) + " toward its " + std::string(edge_name(home)) + " edge";
      e.with("move", "rout").with("distance_cm", moved).with("allowance_cm", a.as_cm()).with("pace", std::string(pace_name(p)));
      emit(std::move(e));
    }
    if (moved > 0) u.moved_this_turn = true;
    if (b_.at_edge(i, home)) {
      u.off_table = true;
      if (rec_) {
        Event e = event("movement", "leaves", i);
        e.text = name(i) + " leaves the table";
        emit(std::move(e));
      }
    }
    return;
  }
  if (u.engaged) {
    if (rec_) {
      Event e = event("movement", "struck", i);
      e.text = name(i) + " is in contact and may not move (seed 003)";
      emit(std::move(e));
    }
    return;
  }
  const Command& c = commands_[i];
  // Seed 003: a declared charge is made in the unit's move unless a gate
  // now forbids it or its initiation check fails; then it cannot charge
  // this turn (L48) but moves as its orders say otherwise.
  bool charged = false;
  if (u.charge_declared) {
    Pace p = c.pace == Pace::halt ? Pace::walk : c.pace;
    charged = charge(i, static_cast<std::size_t>(u.charge_target), true, p);
  }
  if (!charged && u.active()) move_unit(i, c);
  // Seed 003 L92: "has not yet moved": a unit that halted (or only turned
  // to face) in its move may still make an opportunity charge later.
  if (u.pos != pos0) u.moved_this_turn = true;
  if (u.active() && !u.engaged && (u.pos != pos0 || u.facing != facing0)) opportunity_charges(i);
}

void Engagement::move_unit(std::size_t i, const Command& c) {
  Unit& u = b_.units_[i];
  Pace p = c.pace;
  if (!u.on_horse()) {
    p = p == Pace::halt ? Pace::halt : Pace::walk;
  } else {
    p = b_.pace_limit(i, c.pace);
    if (p != c.pace && rec_) {
      Event e = event("movement", "pace_limit", i);
      const auto& sup = r_.supplement;
      const bool gallop_limit = u.gallop_streak >= sup.gallop_max_turns && c.pace > sup.after_gallop_limit;
      e.text = name(i) + " may not " + std::string(pace_name(c.pace)) + " this turn: " + std::string(pace_name(p)) + " instead" +
               (u.type && !u.type->can_gallop && c.pace == Pace::gallop ? " (never gallops, seed 002)"
                : gallop_limit                                           ? " (gallop limit, seed 002)"
                                                                         : " (charged last turn, seed 003)");
      emit(std::move(e));
    }
  }
  Move m = c.move;
  if (u.order == Order::retreating && m == Move::toward) m = Move::hold;  // must rally first
  const bool target_ok = c.target != k_no_unit && static_cast<std::size_t>(c.target) < b_.units_.size() &&
                         b_.units_[static_cast<std::size_t>(c.target)].active();
  const auto t = static_cast<std::size_t>(target_ok ? c.target : 0);
  Length a = b_.allowance(i, p);
  const bool free_about = r_.combat.movement.about_face_free;
  double moved = 0;
  std::string what;  // for the account only: built when a recorder listens
  switch (m) {
    case Move::hold:
      p = Pace::halt;
      if (rec_) what = "holds";
      break;
    case Move::keep:
      if (p != Pace::halt) moved = go(i, u.pos + direction(u.facing) * kFar, p, a, false);
      if (rec_) what = p == Pace::halt ? "stays at halt" : "carries on";
      break;
    case Move::toward:
      if (!target_ok) {
        p = Pace::halt;
        a = Length();  // it does not move: no allowance (the event says so)
        if (rec_) what = "holds (no target)";
        break;
      }
      {
        const Length stop = std::max(c.stop_gap, r_.combat.movement.stand_off);
        const Length g = b_.gap(i, t);
        if (g > stop) {
          const Point dir = unit_vector(u.pos, b_.units_[t].pos);
          const double want = (g - stop).as_cm();
          moved = go(i, u.pos + dir * want, p, a, false);
        }
        if (rec_) what = "advances toward " + name(t);
      }
      break;
    case Move::away: {
      const UnitIndex from = target_ok ? c.target : b_.nearest_enemy(i, false);
      if (from == k_no_unit) {
        p = Pace::halt;
        a = Length();
        if (rec_) what = "holds (no enemy)";
        break;
      }
      moved = go(i, u.pos + unit_vector(b_.units_[static_cast<std::size_t>(from)].pos, u.pos) * kFar, p, a, free_about);
      if (rec_) what = "moves away from " + name(static_cast<std::size_t>(from));
      break;
    }
    case Move::to_cover: {
      const auto cover = b_.board().nearest_cover(u.pos, a, 1);
      if (cover) {
        moved = go(i, *cover, p, a, false);
        if (rec_) what = "moves into cover";
      } else {
        Point c0{0, 0};
        int n = 0;
        for (std::size_t j = 0; j < b_.units_.size(); ++j)
          if (b_.units_[j].active() && b_.enemies(i, j)) {
            c0 = c0 + b_.units_[j].pos;
            ++n;
          }
        if (n > 0) moved = go(i, u.pos + unit_vector(c0 * (1.0 / n), u.pos) * kFar, p, a, free_about);
        if (rec_) what = "finds no cover within its move and moves away from all enemies";
      }
      break;
    }
    case Move::home:
      moved = go(i, b_.home_point(i), p, a, free_about);
      if (rec_) what = "withdraws toward its own edge";
      break;
    case Move::form_square:
      p = Pace::halt;
      if (blocks_) {
        what = block_formation(i, true);  // seed 004 (engine/engagement/engagement_blocks.cpp)
      } else if (!u.cavalry() && !u.in_square() && can_form_square(r_.charge, b_.defender_class(i))) {
        u.formation = Formation::square;
        ++out_.sides[u.side].squares_formed;
        if (rec_) what = "forms square";
      } else {
        if (rec_) what = "holds";
      }
      break;
    case Move::leave_square:
      p = Pace::halt;
      if (blocks_) {
        what = block_formation(i, false);
        break;
      }
      if (u.in_square()) u.formation = Formation::line;
      if (rec_) what = "forms line";
      break;
    case Move::dismount:
      p = Pace::halt;
      if (u.on_horse() && u.type && !u.type->shoots_mounted && u.profile->move.as_cm() > 0) {
        u.mounted = false;
        if (rec_) what = "dismounts (its whole move, seed 001)";
      } else {
        if (rec_) what = "holds";
      }
      break;
    case Move::mount:
      p = Pace::halt;
      if (u.cavalry() && !u.mounted) {
        u.mounted = true;
        if (rec_) what = "mounts (its whole move, seed 001)";
      } else {
        if (rec_) what = "holds";
      }
      break;
  }
  if (c.face_target && target_ok) u.facing = bearing_deg(u.pos, b_.units_[t].pos);
  moved_cm_[i] += moved;
  moved_pace_[i] = moved > 0 ? p : Pace::halt;
  u.ran_this_turn = c.running;
  if (rec_) {
    Event e = event("movement", "move", i);
    e.text = name(i) + " " + what;
    if (moved > 0) e.text += ": " + std::string(pace_name(p)) + " " + len(Length::cm(moved)) + " of " + len(a);
    if (c.face_target && target_ok) e.text += ", facing " + name(t);
    e.text += b_.hex() ? " (now on " + hex_str(i) + ")" : " (now at " + len(Length::cm(u.pos.x)) + ", " + len(Length::cm(u.pos.y)) + ")";
    e.with("move", std::string(move_name(m)))
        .with("pace", std::string(pace_name(p)))
        .with("distance_cm", moved)
        .with("allowance_cm", a.as_cm())
        .with("x_cm", u.pos.x)
        .with("y_cm", u.pos.y)
        .with("facing", u.facing);
    emit(std::move(e));
  }
}

double Engagement::go(std::size_t i, Point dest, Pace pace, Length allowance, bool free_turn) {
  Unit& u = b_.units_[i];
  const Point from = u.pos;
  const double budget = allowance.as_cm();
  if (!(budget > 0) || dest == from) return 0;
  if (b_.hex()) return hex_go(i, dest, allowance);  // hex by hex (engine/engagement/engagement_blocks.cpp)
  const double want = bearing_deg(from, dest);
  double turn = 0;
  if (u.on_horse() && !free_turn) {
    // Seed 002: 45 degrees per 1/4 move (per 1/2 at gallop).
    const double delta = std::abs(wrap_deg(want - u.facing));
    const double eff = r_.combat.movement.about_face_free ? std::min(delta, 180.0 - delta) : delta;
    const auto& s = r_.supplement;
    const double frac = pace == Pace::gallop ? s.turn_per_move_fraction_gallop : s.turn_per_move_fraction;
    turn = s.turn_degrees > 0 ? eff / s.turn_degrees * frac * budget : (eff > 0 ? budget : 0);
    if (turn >= budget) {
      // Only part of the turn: no distance left to move.
      const double can = s.turn_degrees / frac;
      const double rel = wrap_deg(want - u.facing);
      u.facing = wrap_deg(u.facing + std::clamp(rel, -can, can));
      if (u.facing < 0) u.facing += 360.0;
      return 0;
    }
  }
  u.facing = want;
  Point to = b_.board().move_toward(from, dest, Length::cm(budget - turn));
  to = clip_enemies(i, from, to, k_no_unit);
  const double moved = euclid_cm(from, to);
  if (moved < 1e-6) return 0;  // blocked: it has only turned
  u.pos = to;
  return moved;
}

Point Engagement::clip_enemies(std::size_t i, Point from, Point to, UnitIndex ignore) const {
  const Point d = to - from;
  const double a = dot(d, d);
  if (a == 0) return to;
  double tmin = 1.0;
  const double half_i = b_.depth(i).as_cm() / 2.0;
  for (std::size_t j = 0; j < b_.units_.size(); ++j) {
    if (j == i || static_cast<UnitIndex>(j) == ignore || !b_.units_[j].active() || !b_.enemies(i, j)) continue;
    const Point q = b_.units_[j].pos;
    const double rad = half_i + b_.depth(j).as_cm() / 2.0 + r_.combat.movement.stand_off.as_cm();
    const Point f = from - q;
    const double c = dot(f, f) - rad * rad;
    if (c <= 0) {  // already that close: may not close further
      if (dot(d, q - from) > 0) tmin = 0;
      continue;
    }
    const double bq = 2 * dot(f, d);
    const double disc = bq * bq - 4 * a * c;
    if (disc < 0) continue;
    const double t = (-bq - std::sqrt(disc)) / (2 * a);
    if (t >= 0 && t < tmin) tmin = t;
  }
  return from + d * tmin;
}

Length Engagement::move_of(std::size_t i) const {
  const Unit& u = b_.units_[i];
  return normal_move(r_, u.on_horse(), u.profile->move);
}

void Engagement::retreat(std::size_t i, std::size_t from, Length distance, const char* why) {
  Unit& u = b_.units_[i];
  if (!u.active()) return;
  const Point dest = u.pos + unit_vector(b_.units_[from].pos, u.pos) * kFar;
  u.engaged = false;
  const double moved = go(i, dest, Pace::walk, distance, true);
  u.retreated_this_turn = true;
  if (rec_) {
    Event e = event("melee", "retreat", i);
    e.text = name(i) + " " + why + ": falls back " + len(Length::cm(moved)) + " of " + len(distance);
    e.with("distance_cm", moved).with("allowance_cm", distance.as_cm()).with("x_cm", u.pos.x).with("y_cm", u.pos.y);
    emit(std::move(e));
  }
}

void Engagement::follow_through(std::size_t i, double bearing, Length balance) {
  Unit& u = b_.units_[i];
  if (!r_.combat.melee.follow_through || !u.active() || !(balance.as_cm() > 0)) return;
  const double facing = u.facing;
  const double moved = go(i, u.pos + direction(bearing) * balance.as_cm(), Pace::walk, balance, true);
  u.facing = facing;
  moved_cm_[i] += moved;
  if (rec_) {
    Event e = event("melee", "follow_through", i);
    e.text = name(i) + " follows through " + len(Length::cm(moved)) + " (the balance of its charge, seed 003)";
    e.with("distance_cm", moved).with("allowance_cm", balance.as_cm());
    emit(std::move(e));
  }
}

// ----------------------------------------------------------- 4. shooting

void Engagement::step_shooting() {
  if (blocks_) {
    block_shooting();
    return;
  }
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
  for (const Contact& c : contacts_) melee(c);
  if (blocks_) block_infantry_attacks();
  for (Unit& u : b_.units_) u.engaged = false;
}

void Engagement::melee(const Contact& c) {
  const auto a = static_cast<std::size_t>(c.attacker);
  const auto d = static_cast<std::size_t>(c.defender);
  if (blocks_) {
    block_melee(c);
    return;
  }
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
  SideOutcome& sa = out_.sides[A.side];
  SideOutcome& sd = out_.sides[D.side];
  std::vector<int> fa, fd;
  std::vector<int>* pfa = rec_ ? &fa : nullptr;
  std::vector<int>* pfd = rec_ ? &fd : nullptr;

  // Seed 004: cavalry attacked by infantry may retire and reform.
  if (D.on_horse() && !A.cavalry() && bots_[D.side]->retire_and_reform(b_, d, a)) {
    const Length dist = r_.combat.hex * r_.combat.retire.hexes;
    const Point home = b_.home_point(d);
    const Point to = clip_enemies(d, D.pos, b_.board().move_toward(D.pos, home, dist), static_cast<UnitIndex>(a));
    if (euclid_cm(D.pos, to) >= dist.as_cm() - 1e-6) {
      const int n = dice_for(A.figures, r_.combat.melee.figures_per_die);
      int hits = 0;
      for (int k = 0; k < n; ++k) {
        const int f = melee_.d6();
        if (pfa) pfa->push_back(f);
        hits += retire_hit(r_, f);
      }
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
      return;
    }
    if (rec_) {
      Event e = event("melee", "no_retire", d);
      e.text = name(d) + " cannot retire the full " + len(dist) + " and must fight (seed 004)";
      emit(std::move(e));
    }
  }

  auto mod = [&](const Unit& u, bool bonus) { return melee_modifier(u.type, u.on_horse(), bonus); };  // seed 002
  const int need_a = melee_need(r_, mod(A, c.attacker_bonus));
  const int need_d = melee_need(r_, mod(D, c.defender_bonus));
  int hits_a = 0, hits_d = 0;
  const bool square = D.in_square() && A.on_horse();
  if (square) {
    // Seed 004: the square rolls first; a bounce sends the cavalry back.
    const ChargeRules& cr = r_.charge;
    const int n = square_melee_dice(r_, D.figures);
    bool bounce = false;
    for (int k = 0; k < n; ++k) {
      const SquareRoll sq = resolve_square(cr, melee_);
      if (pfd) pfd->push_back(sq.face);
      if (sq.bounce) bounce = true;
      else hits_d += d6_meets(sq.face, need_d);
    }
    if (rec_) {
      Event e = event("melee", "square_first", d);
      e.text = name(d) + " in square rolls first: " + faces_str(fd) + (bounce ? " -> bounce (seed 004)" : " -> no bounce") + ", " +
               std::to_string(hits_d) + " hit" + (hits_d == 1 ? "" : "s") + " (bounce " + p_square_bounce(cr).str() + " per die)";
      e.with("dice", faces_data(fd)).with("bounce", bounce).with("hits", static_cast<long long>(hits_d));
      emit(std::move(e));
    }
    sd.melee_hits += hits_d;
    apply_hits(a, hits_d, melee_, "melee");
    if (bounce) {
      ++sa.charges_repulsed;
      retreat(a, d, square_melee(r_, true, 0, hits_d, move_of(a)).attacker_back, "bounces off the square");
      return;
    }
    if (!A.active()) return;
    const int na = square_melee_dice(r_, A.figures);
    hits_a = roll_hits(melee_, na, need_a, pfa);
    sa.melee_hits += hits_a;
    if (rec_) {
      Event e = event("melee", "melee", a);
      e.text = name(a) + " fights the square with " + std::to_string(na) + " die needing " + std::to_string(need_a) + " " + faces_str(fa) +
               " = " + std::to_string(hits_a) + " hit" + (hits_a == 1 ? "" : "s");
      e.with("dice", faces_data(fa)).with("need", static_cast<long long>(need_a)).with("hits", static_cast<long long>(hits_a));
      emit(std::move(e));
    }
    apply_hits(d, hits_a, melee_, "melee");
    // Choice: cavalry cannot break into a square: it falls back whatever the
    // result; a square that scored fewer hits is shaken.
    ++sa.charges_repulsed;
    const SquareAftermath sm = square_melee(r_, false, hits_a, hits_d, move_of(a));
    if (D.active() && sm.square_shaken) set_order(d, Order::shaken, "melee", "it lost the exchange");
    retreat(a, d, sm.attacker_back, "cannot break into the square");
    if (A.active()) A.facing = bearing_deg(A.pos, D.pos);
    return;
  }

  const int na = dice_for(A.figures, r_.combat.melee.figures_per_die);
  const int nd = dice_for(D.figures, r_.combat.melee.figures_per_die);
  hits_a = roll_hits(melee_, na, need_a, pfa);
  hits_d = roll_hits(melee_, nd, need_d, pfd);
  sa.melee_hits += hits_a;
  sd.melee_hits += hits_d;
  if (rec_) {
    Event e = event("melee", "melee", a);
    auto side_text = [&](std::size_t u, int n, int need, bool bonus, const std::vector<int>& f, int h) {
      const Unit& x = b_.units_[u];
      std::string m;
      if (x.on_horse() && x.type && x.type->melee) m += " " + signed_str(x.type->melee) + " " + x.type->name;
      if (x.on_horse() && x.type && bonus && x.type->melee_charging) m += " " + signed_str(x.type->melee_charging) + " charging";
      return name(u) + " " + std::to_string(n) + " dice needing " + std::to_string(need) + (m.empty() ? "" : " (" + m.substr(1) + ")") + " " +
             faces_str(f) + " = " + std::to_string(h);
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
  // Who won and what follows: the solo session's melee asks the same function.
  const MeleeAftermath after = melee_aftermath(r_, hits_a, hits_d, move_of(a), move_of(d), c.charge, c.balance);
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
  } else {
    ++sa.charges_repulsed;
    if (A.active()) {
      retreat(a, d, after.attacker_back, "draws the melee and is repulsed");
      A.facing = bearing_deg(A.pos, D.pos);
    }
  }
}

// ------------------------------------------------------------- 6. morale

void Engagement::step_morale() {
  if (blocks_) {
    block_morale();
    return;
  }
  for (std::size_t i = 0; i < b_.units_.size(); ++i) {
    Unit& u = b_.units_[i];
    if (!u.active() || u.order == Order::routed) continue;
    if (routs(r_, u.lost(), u.figures_start)) {
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
    if (!u.active() || (u.order != Order::shaken && u.order != Order::retreating)) continue;
    bool clear = true;
    for (std::size_t j = 0; j < b_.units_.size() && clear; ++j)
      if (b_.units_[j].active() && b_.enemies(i, j) && b_.gap(i, j) < r_.combat.morale.rally_enemy_clear) clear = false;
    if (!clear) {
      if (rec_) {
        Event e = event("morale", "no_rally", i);
        e.text = name(i) + " cannot rally: an enemy is within " + len(r_.combat.morale.rally_enemy_clear);
        emit(std::move(e));
      }
      continue;
    }
    const int d1 = morale_.d6(), d2 = morale_.d6();
    const bool ok = rally_check(r_, d1, d2).rallied;
    if (rec_) {
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

// ------------------------------------------------------- 7. end of turn

void Engagement::step_end() {
  for (std::size_t i = 0; i < b_.units_.size(); ++i) {
    Unit& u = b_.units_[i];
    // Seed 002's gallop streak, through the Actions Table's own bookkeeping.
    if (u.on_horse()) {
      Decision d;
      d.pace = moved_pace_[i];
      const UnitState s = after(UnitState{u.type, u.pace, u.gallop_streak}, d);
      u.pace = s.pace;
      u.gallop_streak = s.gallop_streak;
    } else {
      u.pace = Pace::halt;
      u.gallop_streak = 0;
    }
    u.ran_last_turn = u.ran_this_turn;
    // Seed 002 L53 "retreating as a result of melee": a state, from the turn
    // after the fall back until the unit rallies (a unit repulsed in good
    // order counts the next turn only).
    u.retreated_from_melee = u.retreated_this_turn || (u.retreated_from_melee && u.order != Order::good);
    u.charged_last_turn = u.charged_this_turn;
    u.charge_declared = false;
    u.charge_target = k_no_unit;
    u.target_was_in_range = false;
    u.charged_this_turn = false;
    u.moved_this_turn = false;
    u.acted_this_turn = false;
    u.charge_barred = false;
    u.engaged = false;
    u.ran_this_turn = false;
    u.retreated_this_turn = false;
  }
  if (!check_victory() && b_.turn_ >= b_.scenario().turns) finish(b_.scenario().at_turn_limit, turn_limit_reason_);
}

bool Engagement::check_victory() {
  const Scenario& s = b_.scenario();
  for (const VictoryCondition& v : s.victory) {
    bool met = false;
    switch (v.kind) {
      case VictoryCondition::Kind::side_losses: {
        int start = 0, lost = 0;
        for (const Unit& u : b_.units_) {
          if (u.side != v.side) continue;
          start += u.figures_start;
          lost += u.lost() + ((u.order == Order::routed || u.off_table) ? u.figures : 0);
        }
        met = start > 0 && lost * 100 >= v.at_least_pct * start;
        break;
      }
      case VictoryCondition::Kind::side_routed:
        met = std::all_of(b_.units_.begin(), b_.units_.end(),
                          [&](const Unit& u) { return u.side != v.side || !u.active() || u.order == Order::routed; });
        break;
      case VictoryCondition::Kind::reaches_edge:
        for (std::size_t i = 0; i < b_.units_.size() && !met; ++i) {
          const Unit& u = b_.units_[i];
          if (v.unit ? i != *v.unit : u.side != v.side) continue;
          met = u.active() && u.order != Order::routed && b_.at_edge(i, v.edge);
        }
        break;
    }
    if (met) {
      finish(v.winner, v.text);
      return true;
    }
  }
  return false;
}

void Engagement::finish(std::optional<std::uint8_t> winner, std::string_view reason) {
  finished_ = true;
  out_.winner = winner;
  out_.reason.assign(reason);  // within the capacity reserved at construction
  if (rec_) {
    Event e = event("end", "result", SIZE_MAX);
    e.text = (winner ? b_.scenario().sides[*winner].name + " wins" : std::string("Draw")) + " after " + std::to_string(b_.turn_) + " turn" +
             (b_.turn_ == 1 ? "" : "s") + ": " + out_.reason;
    e.with("winner", winner ? b_.scenario().sides[*winner].name : std::string()).with("reason", out_.reason);
    emit(std::move(e));
  }
}

// ---------------------------------------------------------------- events

Event Engagement::event(const char* phase, const char* kind, std::size_t unit) const {
  Event e;
  e.turn = b_.turn_;
  e.phase = phase;
  e.kind = kind;
  if (unit < b_.units_.size()) e.unit = b_.units_[unit].name;
  return e;
}

void Engagement::emit(Event e) { rec_->record(std::move(e)); }

std::string Engagement::len(Length l) const { return format_length_prose(l, r_.units); }

}  // namespace vedette
