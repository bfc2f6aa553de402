// Step 3 of the turn (docs/turn-sequence.md): movement, and the moves other
// steps make (retreats, follow-through). The turn loop: engine/engagement/engagement.cpp.
#include "engine/engagement/engagement.hpp"
#include "engine/procedures/table_rules.hpp"
#include "engine/engagement/engagement_text.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

#include "engine/procedures/combat.hpp"
#include "engine/decision/risk_factor.hpp"

namespace vedette {

using namespace engagement_detail;

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
      b_.changed();
      if (rec_) {
        Event e = event("movement", "leaves", i);
        e.text = name(i) + " leaves the table";
        emit(std::move(e));
      }
    }
    return;
  }
  // Seed 003 L54: struck by a charge this turn, it may not move, turn or
  // change frontage for the rest of it, though it fell back since.
  if (u.engaged || u.struck_this_turn) {
    if (rec_) {
      Event e = event("movement", "struck", i);
      e.text = u.engaged ? name(i) + " is in contact and may not move (seed 003 L54)"
                         : name(i) + " was struck by a charge this turn: it may not move, turn or change frontage (seed 003 L54)";
      e.with("rule", "003-L54-struck-no-move").with("in_contact", u.engaged);
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

// Step 3, one unit's ordered move: its pace (limited by seed 002's gallop
// and seed 003's charge of last turn), where the order takes it, and the
// account.
void Engagement::move_unit(std::size_t i, const Command& c) {
  Unit& u = b_.units_[i];
  Move m = c.move;
  if (u.order == Order::retreating && m == Move::toward) m = Move::hold;  // must rally first
  // Holding, or changing formation or mount, the unit stays at halt: its
  // pace and allowance are read only by the account (the event below, and
  // move_pace's own), so with no recorder they are not asked (move_pace and
  // Battle::allowance change nothing; moved_pace_ is halt for a move of 0).
  const bool stays = m == Move::hold || m == Move::form_square || m == Move::leave_square || m == Move::dismount || m == Move::mount;
  const bool asks = rec_ || !stays;
  Pace p = asks ? move_pace(i, c) : Pace::halt;
  const bool target_ok = c.target != k_no_unit && static_cast<std::size_t>(c.target) < b_.units_.size() &&
                         b_.units_[static_cast<std::size_t>(c.target)].active();
  const auto t = static_cast<std::size_t>(target_ok ? c.target : 0);
  Length a = asks ? b_.allowance(i, p) : Length();
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
      moved = go_away_from(i, b_.units_[static_cast<std::size_t>(from)].pos, p, a, free_about);
      if (rec_) what = "moves away from " + name(static_cast<std::size_t>(from));
      break;
    }
    case Move::to_cover:
      moved = move_to_cover(i, p, a, free_about, what);
      break;
    case Move::home:
      moved = go(i, b_.home_point(i), p, a, free_about);
      if (rec_) what = "withdraws toward its own edge";
      break;
    case Move::form_square:
    case Move::leave_square:
    case Move::dismount:
    case Move::mount:
      p = Pace::halt;  // a change of formation or mount is the whole move
      change_formation(i, m, what);
      break;
  }
  // bearing_deg(u.pos, the target's), kept per pair of units while both
  // positions keep their bits (Battle::pair_bearing; on a hex board per
  // pair of places too: units stand on hex centres). On a table too: the
  // pair's slot is the one aspect_at keeps for the same two positions, and
  // a unit facing a target it holds before was mostly asked already
  // (issue 32, fourteenth pass: mounted_infantry_raid 171,472 -> 171,175).
  if (c.face_target && target_ok) u.facing = b_.pair_bearing(i, t);
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

// The pace a unit moves at: on foot, walk or halt; mounted, the order's pace
// within the battle's limit (seed 002: gallop limits; seed 003: the turn
// after a charge), said when it differs.
Pace Engagement::move_pace(std::size_t i, const Command& c) {
  const Unit& u = b_.units_[i];
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
  return p;
}

// Move::to_cover: into the nearest cover within the move, else away from the
// enemies (combat.movement.away_from: the nearest, or the middle of them
// all). Returns the distance moved.
double Engagement::move_to_cover(std::size_t i, Pace p, Length a, bool free_about, std::string& what) {
  const Unit& u = b_.units_[i];
  double moved = 0;
  const auto cover = b_.hex() ? nearest_cover_kept(u.pos, a) : b_.board().nearest_cover(u.pos, a, 1);
  if (cover) {
    moved = go(i, *cover, p, a, false);
    if (rec_) what = "moves into cover";
  } else if (r_.combat.movement.away_from == CombatRules::AwayFrom::nearest) {
    // As Move::away: directly away from the nearest enemy.
    const UnitIndex from = b_.nearest_enemy(i, false);
    if (from != k_no_unit) moved = go_away_from(i, b_.units_[static_cast<std::size_t>(from)].pos, p, a, free_about);
    if (rec_)
      what = from == k_no_unit ? "finds no cover within its move and no enemy to move away from"
                               : "finds no cover within its move and moves away from the nearest enemy, " + name(static_cast<std::size_t>(from));
  } else {
    Point c0{0, 0};
    int n = 0;
    for (std::size_t j = 0; j < b_.units_.size(); ++j)
      if (b_.units_[j].active() && b_.enemies(i, j)) {
        c0 = c0 + b_.units_[j].pos;
        ++n;
      }
    if (n > 0) moved = go_away_from(i, c0 * (1.0 / n), p, a, free_about);
    if (rec_) what = "finds no cover within its move and moves away from all enemies";
  }
  return moved;
}

// board().nearest_cover(from, allowance, 1) on a hex board, kept by the bits
// of its arguments (cover_memo_, engine/engagement/engagement.hpp): HexBoard::
// nearest_cover (engine/board/hexboard.cpp) reads only them and the board.
std::optional<Point> Engagement::nearest_cover_kept(Point from, Length allowance) {
  const auto x = std::bit_cast<std::uint64_t>(from.x), y = std::bit_cast<std::uint64_t>(from.y);
  const auto a = std::bit_cast<std::uint64_t>(allowance.as_cm());
  const std::uint64_t h = (x * 0x9E3779B97F4A7C15ULL) ^ (y * 0xC2B2AE3D27D4EB4FULL) ^ (a * 0x165667B19E3779F9ULL);
  // The top bits of the products hang on every bit of the keys (a double's
  // low mantissa bits are mostly zero on hex centres).
  CoverMemo& m = cover_memo_[h >> (64 - k_cover_memo_bits)];
  if (m.valid && m.x == x && m.y == y && m.a == a) return m.cover;
  m = CoverMemo{x, y, a, true, b_.board().nearest_cover(from, allowance, 1)};
  return m.cover;
}

double Engagement::go_away_from(std::size_t i, Point from, Pace p, Length a, bool free_turn) {
  const Point at = b_.units_[i].pos;
  return go(i, at + unit_vector(from, at) * kFar, p, a, free_turn);
}

// The orders that change a unit's formation or mount instead of moving it:
// forming and leaving square (the module's formation hook), dismounting and
// mounting (seed 001: the whole move). `what` gets the account when a
// recorder listens.
void Engagement::change_formation(std::size_t i, Move m, std::string& what) {
  Unit& u = b_.units_[i];
  switch (m) {
    case Move::form_square:
      (this->*hooks_->formation)(i, true, what);
      return;
    case Move::leave_square:
      (this->*hooks_->formation)(i, false, what);
      return;
    case Move::dismount:
      if (u.on_horse() && u.type && !u.type->shoots_mounted && u.profile->move.as_cm() > 0) {
        u.mounted = false;
        b_.changed();
        if (rec_) what = "dismounts (its whole move, seed 001)";
      } else {
        if (rec_) what = "holds";
      }
      return;
    case Move::mount:
      if (u.cavalry() && !u.mounted) {
        u.mounted = true;
        b_.changed();
        if (rec_) what = "mounts (its whole move, seed 001)";
      } else {
        if (rec_) what = "holds";
      }
      return;
    default:
      return;
  }
}

// The `figures` module's square (seed 004's Infantry Square with figures):
// foot that may form one does; out of it, back to line.
void Engagement::figure_formation(std::size_t i, bool square, std::string& what) {
  Unit& u = b_.units_[i];
  if (!square) {
    if (u.in_square()) {
      u.formation = Formation::line;
      b_.changed();
    }
    if (rec_) what = "forms line";
    return;
  }
  if (!u.cavalry() && !u.in_square() && can_form_square(r_.charge, b_.defender_class(i))) {
    u.formation = Formation::square;
    b_.changed();
    ++out_.sides[u.side].squares_formed;
    if (rec_) what = "forms square";
  } else {
    if (rec_) what = "holds";
  }
}

double Engagement::go(std::size_t i, Point dest, Pace pace, Length allowance, bool free_turn) {
  Unit& u = b_.units_[i];
  const Point from = u.pos;
  const double budget = allowance.as_cm();
  if (!(budget > 0) || dest == from) return 0;
  if (b_.hex()) return hex_go(i, dest, allowance);  // hex by hex (engine/engagement/engagement_hex_move.cpp)
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
  b_.changed();
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

}  // namespace vedette
