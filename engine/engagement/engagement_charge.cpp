// Charges in the engagement: the engine's side of seed 003's charge
// procedure (engine/procedures/charge_procedure.hpp). The procedure orders
// the steps and says which dice each throws; this file answers its questions
// from the board (where the charge goes, a counter-charge, contact, cover),
// throws its dice from the engagement's streams (the initiation checks on
// the movement stream, the rest on the morale stream), tells the log, and
// carries out on the board what the procedure says happened.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "engine/procedures/charge_procedure.hpp"
#include "engine/engagement/engagement.hpp"
#include "engine/engagement/engagement_text.hpp"
#include "engine/procedures/reaction_rules.hpp"
#include "engine/procedures/table_rules.hpp"

namespace vedette {

using namespace engagement_detail;

// ------------------------------------------------------------ charge range

namespace {

// bearing_deg(from, c) for each corner c of a target's footprint (corners()'
// order), and which corners are `from` itself (c == from: no bearing).
// charge_prospect asks them for every enemy of every unit, again and again
// while neither moves (the orders, the opportunity charges, the counter-
// charge), and from the scenario's starting places in every engagement:
// four atan2 and a sincos each time. The answer is a pure function of the
// bits of `from` and of the footprint (centre, facing, frontage, depth), so
// it is kept in a small table per thread keyed by those bits: a hit returns
// what the same computation gave for the very same inputs. Plain data,
// zero-initialised (no guard, no allocation); valid across engagements and
// battles, since nothing else enters the computation.
struct CornerBearings {
  std::uint64_t key[7];
  bool valid;
  std::uint8_t at_from;  // bit k: corner k == from
  double bearing[4];
};
constexpr std::size_t k_corner_memo = 512;  // a power of two
thread_local CornerBearings corner_memo[k_corner_memo];

const CornerBearings& target_corners(Point from, const Footprint& fp) {
  const std::uint64_t k[7] = {std::bit_cast<std::uint64_t>(from.x),          std::bit_cast<std::uint64_t>(from.y),
                              std::bit_cast<std::uint64_t>(fp.centre.x),     std::bit_cast<std::uint64_t>(fp.centre.y),
                              std::bit_cast<std::uint64_t>(fp.facing_deg),   std::bit_cast<std::uint64_t>(fp.frontage.as_cm()),
                              std::bit_cast<std::uint64_t>(fp.depth.as_cm())};
  std::uint64_t h = 0;
  for (const std::uint64_t x : k) h = (h ^ x ^ (x >> 29)) * 0x9E3779B97F4A7C15ULL;
  CornerBearings& m = corner_memo[(h >> 50) & (k_corner_memo - 1)];
  if (m.valid && std::equal(k, k + 7, m.key)) return m;
  const std::array<Point, 4> cs = corners(fp);
  m.at_from = 0;
  for (std::size_t c = 0; c < 4; ++c) {
    if (cs[c] == from) {
      m.at_from = static_cast<std::uint8_t>(m.at_from | 1U << c);
      m.bearing[c] = 0;
    } else {
      m.bearing[c] = bearing_deg(from, cs[c]);
    }
  }
  std::copy(k, k + 7, m.key);
  m.valid = true;
  return m;
}

}  // namespace

// The depth of the target's base that must lie within the charge range
// (seed 003 L40, charge_prospect below): its nearest figure's base, cavalry
// or infantry, on a tabletop; none on a hex board, where a unit fills its
// hex and the hex distance is the range's measure. charge_prospect and the
// range bound (ChargeRangeBound) both take it from here.
static Length charge_target_base(const Battle& b, std::size_t t) {
  if (b.hex()) return Length();
  const auto& f = b.rules().combat.formations;
  return (b.unit(t).on_horse() ? f.cavalry_base : f.infantry_base).depth;
}

ChargeProspect charge_prospect(const Battle& b, std::size_t i, std::size_t t, Pace pace) {
  const ChargeRules& cr = b.rules().charge;
  ChargeProspect p;
  const Unit& u = b.unit(i);
  p.allowance = b.charge_allowance(i, pace);
  p.distance = b.gap(i, t);
  // The board's answers about the straight way to the target (kept per pair
  // while neither unit moves: Battle::charge_way).
  const ChargeWay& way = b.charge_way(i, t, p.distance);
  // Seed 003's preliminary manoeuvre: a turn about the centre whose outer
  // flank moves at most charge.range.preliminary_manoeuvre.
  const double rel = wrap_deg(way.bearing_deg - u.facing);  // relative_bearing_deg(u.pos, u.facing, target.pos)
  const double half_front = b.footprint(i).frontage.as_cm() / 2.0;
  const double can = half_front > 0 ? cr.preliminary_manoeuvre.as_cm() / half_front * 180.0 / std::numbers::pi : 180.0;
  p.turned_deg = std::min(std::abs(rel), can);
  p.bearing_deg = rel >= 0 ? rel - p.turned_deg : rel + p.turned_deg;
  if (p.allowance.as_cm() <= 0) return p;
  // Seed 003 L40: the target "entirely or partially within" the arc (the
  // angle its outline covers, seen from the charger's centre), and in range
  // when the base of its nearest figure lies entirely within the charge
  // range (distance to its near edge plus one base's depth). On a hex board
  // a unit fills its hex: the centre line and the hex distance.
  ChargeTarget ct;
  ct.distance = p.distance;
  ct.bearing_lo_deg = ct.bearing_hi_deg = p.bearing_deg;
  ct.target_base = charge_target_base(b, t);
  if (!b.hex()) {
    // relative_bearing_deg(u.pos, u.facing, c) is wrap_deg(bearing_deg(u.pos,
    // c) - u.facing); the bearings of the corners are kept (target_corners).
    const CornerBearings& cb = target_corners(u.pos, b.footprint(t));
    for (std::size_t k = 0; k < 4; ++k) {
      if (cb.at_from >> k & 1U) continue;  // the corner is u.pos
      const double off = wrap_deg(wrap_deg(cb.bearing[k] - u.facing) - rel);
      ct.bearing_lo_deg = std::min(ct.bearing_lo_deg, p.bearing_deg + off);
      ct.bearing_hi_deg = std::max(ct.bearing_hi_deg, p.bearing_deg + off);
    }
  }
  p.geometry = charge_geometry(cr, p.allowance, ct);
  p.max_range = p.geometry.max_range;
  p.min_distance = p.geometry.min_distance;
  p.in_range = p.geometry.in_range;
  p.in_arc = p.geometry.in_arc;
  p.charge_bonus = p.geometry.charge_bonus;
  p.forced_move = p.geometry.out_of_reach ? p.geometry.forced_move : p.allowance * cr.out_of_reach_move_factor;
  p.shaken_if_short = cr.out_of_reach_shaken;
  // Terrain (seed 003): the straight path to contact, paid out of the charge
  // move; no climbing; the target not in special terrain; out of special
  // terrain at least the minimum distance short of the target.
  // (Battle::charge_way asks the board: from the charger's centre to the
  // contact point, where its front meets the target's, and on to the
  // target's centre.)
  p.uphill = way.uphill;
  p.target_in_terrain = way.target_in_terrain;
  p.path_affordable = way.cost <= p.max_range + Length::cm(1e-9);
  const double dist = p.distance.as_cm();
  if (way.emerges_back_cm) {
    // Where the path leaves special terrain, back from contact.
    p.emerges_at = Length::cm(*way.emerges_back_cm);
    p.emerges_too_close = *way.emerges_back_cm < p.min_distance.as_cm() - 1e-9;
  }
  if (way.obstacle) {
    p.crosses_obstacle = true;
    p.obstacle_at = Length::cm(*way.obstacle * dist);
  }
  // No climbing, no target in terrain (with_path, as the solo session asks it); the path's cost.
  const ChargePath path = p.uphill ? ChargePath::uphill : p.target_in_terrain ? ChargePath::into_terrain : ChargePath::open;
  p.reaches = with_path(cr, p.allowance, p.geometry, path).reaches && p.path_affordable && !p.emerges_too_close;
  return p;
}

// The bound's proof. charge_prospect (above) returns reaches = false when
// the allowance is at most 0 (its early return). Otherwise its reaches is
// with_path(...).reaches && ..., and with_path never turns a false reaches
// true (engine/decision/charge.cpp), so reaches needs the geometry's, which
// needs in_range: (distance + target_base).as_cm() <= max_range.as_cm() +
// k_length_eps_cm, with distance = b.gap(i, t), max_range =
// charge_max_range(rules, allowance) and target_base = charge_target_base(b,
// t): the bound calls the same two functions, so it has the same bits. It
// tests the same left side against max_range + 1 cm: charge.cpp's
// k_length_eps_cm is 1e-4, and rounding is monotone, so fl(max + 1e-4) <=
// fl(max + 1); a sum above the bound is above the rule's limit, and the
// prospect does not reach. (A bound looser than the rule only asks the full
// prospect more often.)
ChargeRangeBound::ChargeRangeBound(const Battle& b, std::size_t charger, Pace pace) {
  const Length allowance = b.charge_allowance(charger, pace);
  any_ = allowance.as_cm() > 0;
  if (!any_) return;  // charge_prospect's max_range stays 0 too
  max_range_ = charge_max_range(b.rules().charge, allowance);
  limit_cm_ = max_range_.as_cm() + 1.0;
}

bool ChargeRangeBound::may_reach(const Battle& b, std::size_t target, Length gap) const {
  if (!any_) return false;
  return (gap + charge_target_base(b, target)).as_cm() <= limit_cm_;
}

NoDeclaration why_no_declaration(const Battle& b, std::size_t i, Pace pace, bool mounts_or_dismounts) {
  const Unit& u = b.unit(i);
  const ChargeGate gate = charge_gate(b, i, k_no_unit, ChargeWhen::declare);
  if (!gate.allowed) return {gate.rule, std::string(gate.why)};
  if (mounts_or_dismounts || !u.on_horse())
    return {"001-L3-mount-one-action", "it is on foot or mounting this turn, and only cavalry on its horses charges (seeds 001, 002)"};
  const UnitIndex n = b.nearest_enemy(i, true);
  if (n == k_no_unit) return {"003-L34-target-visible", "no enemy is in sight to charge (seed 003)"};
  const auto t = static_cast<std::size_t>(n);
  const ChargeProspect p = charge_prospect(b, i, t, pace);
  const ChargeRules& cr = b.rules().charge;
  const std::string who = b.unit(t).name + " (" + format_length_prose(p.distance, b.rules().units) + " away)";
  NoDeclaration d;
  d.about = n;
  if (!p.in_arc) {
    d.rule = "003-L40-partial-arc";
    d.why = who + " is outside its " + format_number(cr.arc_degrees) + "-degree arc, after the free turn (seed 003)";
  } else if (!p.in_range) {
    d.rule = "003-L42-range-bonus";
    d.why = who + " is out of its charge range of " + format_length_prose(p.max_range, b.rules().units) + " (" + format_number(cr.range_factor) +
            " x " + format_length_prose(p.allowance, b.rules().units) + " at " + std::string(pace_name(pace)) + ", seed 003)";
  } else if (p.uphill) {
    d.rule = "003-L70-no-uphill";
    d.why = "the way to " + who + " goes uphill: no charge (seed 003)";
  } else if (p.target_in_terrain) {
    d.rule = "003-L62-target-not-in-terrain";
    d.why = who + " is in special terrain: no charge (seed 003)";
  } else if (!p.path_affordable) {
    d.rule = "003-L63-terrain-cost";
    d.why = "the ground on the way to " + who + " costs more than its charge range (seed 003)";
  } else if (p.emerges_too_close) {
    d.rule = "003-L64-emerge-distance";
    d.why = "the way to " + who + " leaves special terrain inside its minimum distance (seed 003)";
  } else if (p.reaches && !p.charge_bonus) {
    d.rule = "003-L42-inside-min-no-bonus";
    d.why = who + " is inside its minimum distance of " + format_length_table(p.min_distance, b.rules().units) +
            ": contact, but none of the charge's benefits, and the table's bot declares only with them (seed 003)";
  } else {
    d.why = "its bot declared no charge on " + who;
  }
  return d;
}

ChargeGate charge_gate(const Battle& b, std::size_t i, UnitIndex target, ChargeWhen when) {
  const Unit& u = b.unit(i);
  if (!u.active()) return {false, "", "the unit is not on the table"};
  if (u.in_square()) return {false, "", "a unit in square may not move (seed 004)"};
  ChargeGateInput in;
  in.when = when;
  in.turn = b.turn();
  in.first_turn_allowed = b.rules().combat.charge.first_turn;
  in.good_order = u.order == Order::good;
  in.charged_last_turn = u.charged_last_turn && !b.blocks();  // seed 004's blocks have their own rules
  in.barred_this_turn = u.charge_barred;
  in.moved_this_turn = u.moved_this_turn;
  if (target == k_no_unit) return charge_gate(in);
  const auto t = static_cast<std::size_t>(target);
  if (t >= b.units().size() || !b.unit(t).active() || !b.enemies(i, t)) return {false, "", "the target is not an enemy on the table"};
  in.infantry_against_cavalry = !u.cavalry() && b.unit(t).on_horse();
  // Sight is the gate's last question (engine/decision/charge.cpp): when an
  // earlier gate refuses, the answer is the same whatever the unit sees, so
  // sight is asked only when it decides.
  in.target_visible = true;
  const ChargeGate without_sight = charge_gate(in);
  if (!without_sight.allowed) return without_sight;
  in.target_visible = b.sees(i, t);
  return charge_gate(in);
}

// ------------------------------------------------------------- the charge

void Engagement::emit_initiation(std::size_t i, bool declared, const InitiationCheck& check, const ChargeThrow& d) {
  if (!rec_) return;
  const int d1 = d.faces[0], d2 = d.faces[1];
  Event e = event("movement", "initiation", i);
  e.text = name(i) + " charge initiation check: 2D6 " + faces_str({d1, d2}) + " = " + std::to_string(d1 + d2) + ", needs " +
           std::to_string(check.need) + (declared ? "" : " (undeclared, seed 003 -2)") + ": " +
           (check.passed ? "passes" : "fails, no charge this turn");
  e.with("dice", faces_data({d1, d2})).with("need", static_cast<long long>(check.need)).with("passed", check.passed);
  emit(std::move(e));
}

UnitIndex Engagement::switch_target(std::size_t i, std::size_t from, Pace pace) const {
  UnitIndex best = k_no_unit;
  Length best_gap;
  const ChargeRangeBound range(b_, i, pace);  // beyond it, the prospect does not reach
  for (std::size_t j = 0; j < b_.units_.size(); ++j) {
    if (j == from || !b_.units_[j].active() || !b_.enemies(i, j)) continue;
    const Length g = b_.gap(i, j);
    if (best != k_no_unit && !(g < best_gap)) continue;  // ties: the lower index
    if (!range.may_reach(b_, j, g) || !charge_prospect(b_, i, j, pace).reaches) continue;
    best = static_cast<UnitIndex>(j);
    best_gap = g;
  }
  return best;
}

bool Engagement::charge(std::size_t i, std::size_t t, bool declared, Pace pace) {
  return (this->*hooks_->charge)(i, t, declared, pace);
}

// The `figures` module's charge: seed 003's procedure (ChargeProcedure,
// engine/procedures/charge_procedure.hpp) with the board's answers.
bool Engagement::figure_charge(std::size_t i, std::size_t t, bool declared, Pace pace) {
  Unit& u = b_.units_[i];
  const ChargeGate gate = charge_gate(b_, i, k_no_unit, declared ? ChargeWhen::launch_declared : ChargeWhen::opportunity);
  if (!gate.allowed) {
    if (rec_) {
      Event e = event("movement", "charge_refused", i);
      e.text = name(i) + " may not charge: " + std::string(gate.why);
      e.with("rule", std::string(gate.rule));
      emit(std::move(e));
    }
    return false;
  }
  ChargeRun run;
  run.i = i;
  run.t = t;
  run.declared = declared;
  run.pace = u.on_horse() ? b_.pace_limit(i, pace) : Pace::walk;
  ChargeFacts facts;
  facts.declared = declared;
  facts.charger_on_horse = u.on_horse();
  ChargeProcedure proc(r_, facts);
  for (ChargeProcedure::Need n = proc.next(); n.kind != ChargeProcedure::Need::Kind::done; n = proc.next()) {
    if (n.kind == ChargeProcedure::Need::Kind::roll) {
      if (n.roll == ChargeRoll::obstacle_check && rec_) {
        Event e = event("movement", "obstacle", i);
        e.text = name(i) + " must cross an obstacle " + len(run.p.obstacle_at) + " ahead (seed 003): another initiation check";
        e.with("distance_cm", run.p.obstacle_at.as_cm());
        emit(std::move(e));
      }
      proc.roll(charge_roll_is_movement(n.roll) ? movement_ : morale_);
      charge_rolled(run, proc.result(), n.roll);
      continue;
    }
    switch (n.ask) {
      case ChargeAsk::reach: proc.answer_reach(charge_reach(run)); break;
      case ChargeAsk::counter_charge: proc.answer_counter(charge_counter(run)); break;
      case ChargeAsk::contact: proc.answer(n.ask, charge_contact(run, proc.result().counter)); break;
      case ChargeAsk::fear: {
        // Seed 001: the foot's cover against the charger where it stands now.
        const int cover = b_.board().cover_of(b_.footprint(run.t), u.pos);
        proc.answer(n.ask, fear_of_charge_applies(r_.charge, Length::cm(run.moved), Length(), cover));
        break;
      }
      case ChargeAsk::refuge: {
        const Unit& target = b_.units_[run.t];
        const FearOfChargeRules& f = r_.charge.fear_of_charge;
        run.refuge = b_.board().nearest_cover(target.pos, f.flee_distance, f.exempt_cover);
        emit_fear(run, proc.result());
        proc.answer(n.ask, run.refuge && *run.refuge != target.pos);
        break;
      }
      case ChargeAsk::square: {
        const bool forms = bots_[b_.units_[run.t].side]->form_square(b_, run.t, i);
        if (forms) {
          b_.units_[run.t].formation = Formation::square;
          b_.changed();
          ++out_.sides[b_.units_[run.t].side].squares_formed;
          if (rec_) {
            Event e = event("movement", "square", run.t);
            e.text = name(run.t) + " forms square to receive " + name(i) + " (seed 004)";
            emit(std::move(e));
          }
        }
        proc.answer(n.ask, forms);
        break;
      }
    }
  }
  return charge_end(run, proc.result());
}

// What the log says after each throw, and what the throw changes at once.
void Engagement::charge_rolled(ChargeRun& run, const ChargeResult& res, ChargeRoll roll) {
  Unit& u = b_.units_[run.i];
  switch (roll) {
    case ChargeRoll::initiation:
      emit_initiation(run.i, run.declared, res.initiation, res.dice(roll));
      if (res.initiation.passed) {
        ++out_.sides[u.side].charges_launched;
        u.charged_this_turn = true;
        u.moved_this_turn = true;
        moved_pace_[run.i] = run.pace;
      }
      return;
    case ChargeRoll::obstacle_check: emit_initiation(run.i, run.declared, res.obstacle_check, res.dice(roll)); return;
    case ChargeRoll::counter_initiation: {
      Unit& target = b_.units_[run.t];
      emit_initiation(run.t, target.charge_declared, res.counter_initiation, res.dice(roll));
      if (res.counter) {
        target.moved_this_turn = true;
        ++out_.sides[target.side].charges_launched;
        target.charged_this_turn = true;
        moved_pace_[run.t] = run.tpace;
      } else {
        target.charge_barred = true;
      }
      return;
    }
    case ChargeRoll::pike_loss:
      if (rec_) {
        const ChargeThrow& d = res.dice(roll);
        const auto& pk = r_.charge.pike_charge;
        std::vector<int> faces(d.faces.begin(), d.faces.begin() + d.n);
        Event e = event("movement", "pike_charge", run.t);
        e.text = name(run.t) + " charged by pikes rolls on the Loss Table (seed 003; numbers ours): " + faces_str(faces) + " = " +
                 std::to_string(d.total()) + ", needs " + std::to_string(pk.stand_target) + ": " + (res.pike_stands ? "stands" : "fails");
        e.with("dice", faces_data(faces)).with("need", static_cast<long long>(pk.stand_target)).with("stands", res.pike_stands);
        emit(std::move(e));
      }
      return;
    case ChargeRoll::gut_check:
      if (res.gut_passed) emit_fear(run, res);  // a failure is told with the cover it flees to (ChargeAsk::refuge)
      return;
    case ChargeRoll::defender_morale:
    case ChargeRoll::charger_morale: return;  // told together at the end (charge_end)
  }
}

void Engagement::emit_fear(const ChargeRun& run, const ChargeResult& res) {
  if (!rec_) return;
  const FearOfChargeRules& f = r_.charge.fear_of_charge;
  Event e = event("movement", "fear_of_charge", run.t);
  e.text = name(run.t) + " fear of charge (seed 001): gut check " + std::to_string(res.gut_total) + ", needs " +
           (f.pass_at_most ? "at most " : "") + std::to_string(f.target) + ": " +
           (res.gut_passed ? "passes" : run.refuge ? "fails and flees into cover" : "fails, no cover within reach: caught in the open");
  e.with("total", static_cast<long long>(res.gut_total)).with("passed", res.gut_passed);
  emit(std::move(e));
}

// Where the charge goes (seed 003 L40, L56), and at whom: the facts of the
// target it strikes.
ChargeReach Engagement::charge_reach(ChargeRun& run) {
  const std::size_t i = run.i;
  Unit& u = b_.units_[i];
  // Seed 003 L56: "If more than one enemy unit lies within a unit's charge
  // range, and the enemy unit that had been designated as the target of a
  // charge is allowed to move out of charge range, then another enemy unit
  // within range must be charged instead": the nearest (choice). A target
  // that was never in range (misjudged, L52) is not switched from.
  // The prospect asked of the designated target here is the one the charge
  // goes on when it is not switched: kept (`asked`) rather than asked again
  // below, nothing having changed between (switch_target and the log read
  // the battle only). An opportunity charge's own test asked it before
  // (prospect_kept). Issue 32, fifteenth pass.
  bool asked = false;
  {
    const bool gone = !b_.units_[run.t].active();
    const bool was_in_range = !run.declared || u.target_was_in_range;
    if (!gone && was_in_range) {
      run.p = prospect_kept(i, run.t, run.pace);  // an opportunity charge's test may have asked it
      asked = true;
    }
    if (gone || (asked && !run.p.reaches)) {
      const UnitIndex other = switch_target(i, run.t, run.pace);
      if (other != k_no_unit) {
        if (rec_) {
          Event e = event("movement", "charge_switch", i);
          e.text = name(i) + "'s target " + name(run.t) + (gone ? " has left the table" : " has moved out of charge range") +
                   ": it charges " + name(static_cast<std::size_t>(other)) + ", the nearest enemy in range, instead (seed 003)";
          e.with("from", name(run.t)).with("to", name(static_cast<std::size_t>(other)));
          emit(std::move(e));
        }
        run.t = static_cast<std::size_t>(other);
        asked = false;  // another target: its own prospect
      }
    }
  }
  const std::size_t t = run.t;
  Unit& target = b_.units_[t];
  ChargeProspect& p = run.p;
  if (!asked) p = charge_prospect(b_, i, t, run.pace);
  // Seed 003: with every enemy out of reach it still moves toward the
  // designated target, and is shaken.
  if (!target.active()) p.reaches = false;
  run.side_on = b_.aspect_of(t, i);
  run.bearing0 = bearing_deg(u.pos, target.pos);
  if (rec_) {
    const ChargeRules& cr = b_.rules().charge;
    Event e = event("movement", "charge", i);
    e.text = name(i) + " charges " + name(t) + " at " + std::string(pace_name(run.pace)) + ": distance " + len(p.distance) +
             ", range " + len(p.max_range) + " (" + format_number(cr.range_factor) + " x " + len(p.allowance) + "), minimum " +
             format_length_table(p.min_distance, b_.rules().units) + ", " + (p.in_arc ? "in" : "outside") + " its " + format_number(cr.arc_degrees) + "-degree arc" +
             (p.uphill ? ", uphill" : "") + (p.target_in_terrain ? ", target in special terrain" : "") +
             (!p.path_affordable ? ", path too costly" : "") + " -> " +
             (p.reaches ? (p.charge_bonus ? "reaches, with the charge bonus" : "reaches inside the minimum distance: no charge bonus")
                        : "out of reach");
    e.with("target", name(t))
        .with("distance_cm", p.distance.as_cm())
        .with("range_cm", p.max_range.as_cm())
        .with("min_distance_cm", p.min_distance.as_cm())
        .with("in_arc", p.in_arc)
        .with("reaches", p.reaches)
        .with("bonus", p.charge_bonus)
        .with("aspect", std::string(aspect_name(run.side_on)));
    emit(std::move(e));
  }
  ChargeReach a;
  a.reaches = p.reaches;
  a.charge_bonus = p.charge_bonus;
  a.morale_check = p.geometry.morale_check;
  a.obstacle = p.reaches && p.crosses_obstacle && !b_.hex();  // seed 003 L68 (a hex board has no obstacles on the way)
  ChargeTargetFacts& f = a.target;
  f.target_cavalry = target.cavalry();
  f.target_on_horse = target.on_horse();
  f.target_in_square = target.in_square();
  f.square_allowed = can_form_square(r_.charge, b_.defender_class(t));
  // Seed 003's Swiss/Landsknechte pike charge (optional, charge.pike_charge;
  // its Loss Table numbers are ours): pikes in mass shock formation.
  if (!u.on_horse() && !b_.hex()) {
    const Footprint fp = b_.footprint(i);
    const Base& base = r_.combat.formations.infantry_base;
    const int files = static_cast<int>(std::lround(fp.frontage.as_cm() / base.frontage.as_cm()));
    const int ranks = static_cast<int>(std::lround(fp.depth.as_cm() / base.depth.as_cm()));
    const bool target_pikes = target.profile->pikes && !target.on_horse();
    f.pike_charge = pike_charge_applies(r_.charge, u.profile->pikes, files, ranks, target_pikes);
    f.target_pike_routed = target.pike_routed && target.order != Order::good;
  }
  const ChargedOn on = run.side_on == Aspect::front ? ChargedOn::front : run.side_on == Aspect::flank ? ChargedOn::flank : ChargedOn::rear;
  f.defender.defender = b_.defender_class(t);
  f.defender.attacker = b_.attacker_weight(i);
  f.defender.side = on;
  f.defender.pikes_facing = target.profile->pikes && !target.on_horse() && on == ChargedOn::front;
  f.charger.defender = b_.defender_class(i);
  f.charger.attacker = b_.attacker_weight(t);
  f.charger.side = ChargedOn::front;
  f.charger.both_charging = true;
  f.charger.pikes_facing = u.profile->pikes && !u.on_horse();
  return a;
}

// Seed 003: the target may meet a charge with an opportunity charge of its
// own; the two meet halfway. The gates are those of any opportunity charge
// (not yet moved, good order, not barred, no foot against horse).
ChargeCounter Engagement::charge_counter(ChargeRun& run) {
  ChargeCounter c;
  const std::size_t t = run.t;
  Unit& target = b_.units_[t];
  if (target.engaged || target.struck_this_turn || !charge_gate(b_, t, static_cast<UnitIndex>(run.i), ChargeWhen::opportunity).allowed ||
      !bots_[target.side]->opportunity_charge(b_, t, run.i, commands_[t]))
    return c;
  Pace tpace = commands_[t].pace == Pace::halt ? Pace::walk : commands_[t].pace;
  run.tpace = target.on_horse() ? b_.pace_limit(t, tpace) : Pace::walk;
  run.tp = charge_prospect(b_, t, run.i, run.tpace);
  if (!run.tp.reaches) return c;
  // Seed 003 L100: the -2 applies "if no charge was declared for the
  // unit" during step 1, whatever target it was declared against.
  c.kind = CounterCharge::attempts;
  run.tbearing0 = bearing_deg(target.pos, b_.units_[run.i].pos);  // seed 003 L3: the direction it first charges
  c.declared = target.charge_declared;
  c.morale_check = run.tp.geometry.morale_check;
  return c;
}

// The charger moves to contact: straight at the target, or halfway when it
// counter-charges (seed 003 L102); false when something in the way stops it
// short (then it is shaken, as a charge that falls short).
bool Engagement::charge_contact(ChargeRun& run, bool counter) {
  const std::size_t i = run.i, t = run.t;
  Unit& u = b_.units_[i];
  Unit& target = b_.units_[t];
  SideOutcome& so = out_.sides[u.side];
  const ChargeProspect& p = run.p;
  double& moved = run.moved;
  // Seed 003's counter-charge: the two met halfway, the charger having moved
  // `moved` and the target `tmoved`.
  auto met_halfway = [&](double tmoved) {
    moved_cm_[t] += tmoved;
    run.tmoved = tmoved;
    if (rec_) {
      Event e = event("movement", "meet_halfway", t);
      e.text = name(t) + " counter-charges: the two meet halfway (seed 003); " + name(i) + " moves " + len(Length::cm(moved)) + ", " +
               name(t) + " " + len(Length::cm(tmoved));
      e.with("distance_cm", tmoved).with("allowance_cm", run.tp.max_range.as_cm());
      emit(std::move(e));
    }
  };
  // (The words are made only for a recorder: the Monte Carlo allocates nothing.)
  auto stopped_short = [&](bool by_ground) {
    moved_cm_[i] += moved;
    ++so.charges_short;
    if (rec_) {
      Event e = event("movement", "charge_blocked", i);
      e.text = by_ground ? name(i) + " is stopped after " + len(Length::cm(moved)) + " by a unit or the ground in the way, short of " + name(t)
                         : name(i) + " runs into another enemy unit after " + len(Length::cm(moved)) + " and stops short";
      e.with("distance_cm", moved).with("allowance_cm", p.max_range.as_cm());
      emit(std::move(e));
    }
    set_order(i, Order::shaken, "movement", "its charge fell short (seed 003)");
    return false;
  };
  if (b_.hex()) {
    // Figure units on a hex board (no `blocks:`): contact is adjacency and
    // moves go hex by hex (hex_go), ending on hex centres. A counter-charge
    // meets halfway: the charger takes the larger half of the hexes
    // between them (choice: the seed measures halfway on the table).
    const HexBoard& hb = *b_.hex();
    const double s = hb.hex_size().as_cm();
    const int between = std::max(0, hex_distance(hb.hex_of(u.pos), hb.hex_of(target.pos)) - 1);
    const int mine = counter ? (between + 1) / 2 : between;
    moved = b_.adjacent(i, t) ? 0.0 : hex_go(i, target.pos, Length::cm(mine * s));
    if (counter) met_halfway(b_.adjacent(i, t) ? 0.0 : hex_go(t, u.pos, Length::cm((between - mine) * s)));
    if (!b_.adjacent(i, t))  // a unit or the ground in the way
      return stopped_short(true);
    u.facing = bearing_deg(u.pos, target.pos);
    if (counter) target.facing = bearing_deg(target.pos, u.pos);
  } else if (counter) {
    // Each covers half the gap between their fronts.
    const Point dir = unit_vector(u.pos, target.pos);
    const double half = p.distance.as_cm() / 2.0;
    const Point pi = u.pos + dir * half;
    const Point pt = target.pos - dir * half;
    moved = euclid_cm(u.pos, pi);
    const double tmoved = euclid_cm(target.pos, pt);
    u.pos = pi;
    target.pos = pt;
    b_.changed();
    u.facing = bearing_deg(pi, pt);
    target.facing = bearing_deg(pt, pi);
    met_halfway(tmoved);
  } else {
    const Point from = u.pos;
    const Point contact = from + unit_vector(from, target.pos) * p.distance.as_cm();  // its front meets the target's
    const Point to = clip_enemies(i, from, contact, static_cast<UnitIndex>(t));
    u.facing = bearing_deg(from, target.pos);
    u.pos = to;
    b_.changed();
    moved = euclid_cm(from, to);
    if (euclid_cm(to, contact) > kTouch)
      return stopped_short(false);
  }
  moved_cm_[i] += moved;
  if (rec_) {
    Event e = event("movement", "contact", i);
    e.text = name(i) + " moves " + len(Length::cm(moved)) + " into contact with " + name(t) + " (" + aspect_name(run.side_on) + ")";
    e.with("distance_cm", moved).with("allowance_cm", p.max_range.as_cm()).with("bonus", p.charge_bonus);
    emit(std::move(e));
  }
  return true;
}

void Engagement::emit_charge_morale(std::size_t d, std::size_t a, ChargedOn on, const MoraleTarget& mt, const MoraleResult& m) {
  if (!rec_) return;
  const ChargeRules& cr = r_.charge;
  Event e = event("movement", "charge_morale", d);
  std::string why = std::string(k_defender_class_names[static_cast<std::size_t>(b_.defender_class(d))]) + " charged by " +
                    std::string(k_attacker_weight_names[static_cast<std::size_t>(b_.attacker_weight(a))]) + " horse: " +
                    std::to_string(mt.table);
  if (mt.flank_rear) why += ", " + std::string(on == ChargedOn::rear ? "rear " : "flank ") + signed_str(mt.flank_rear);
  if (mt.both_charging) why += ", both charging " + signed_str(mt.both_charging);
  if (mt.automatic) {
    e.text = name(d) + " morale check (seed 003): pikes facing the enemy stand automatically";
  } else {
    e.text = name(d) + " morale check (seed 003, " + why + "): needs " + std::to_string(mt.target) + " on 2D6 (stands " +
             p_stand(cr, mt).str() + "): " + faces_str({m.dice[0], m.dice[1]}) + " = " + std::to_string(m.total) + ", " +
             (m.stands ? "stands" : "fails");
  }
  e.with("against", name(a))
      .with("table", static_cast<long long>(mt.table))
      .with("modifier", static_cast<long long>(mt.modifier))
      .with("need", static_cast<long long>(mt.target))
      .with("automatic", mt.automatic)
      .with("dice", mt.automatic ? DiceFaces{} : DiceFaces{m.dice[0], m.dice[1]})
      .with("stands", m.stands)
      .with("p_stand", p_stand(cr, mt).str());
  emit(std::move(e));
}

// What the charge's end does on the board. Returns false when no charge
// took place (the initiation check failed: the unit has not moved).
bool Engagement::charge_end(ChargeRun& run, const ChargeResult& res) {
  const std::size_t i = run.i, t = run.t;
  Unit& u = b_.units_[i];
  Unit& target = b_.units_[t];
  SideOutcome& so = out_.sides[u.side];
  const ChargeRules& cr = r_.charge;
  const ChargeProspect& p = run.p;
  switch (res.end) {
    case ChargeEnd::running:
    case ChargeEnd::no_charge:
      u.charge_barred = true;  // seed 003 L48 / L100: no charge for the rest of the turn
      return false;
    case ChargeEnd::falls_short: {
      // Seed 003: it still moves its full charge range forward and is shaken.
      const Point dest = u.pos + unit_vector(u.pos, target.pos) * kFar;
      const double moved = go(i, dest, run.pace, p.forced_move, true);
      moved_cm_[i] += moved;
      ++so.charges_short;
      if (rec_) {
        Event e = event("movement", "charge_short", i);
        e.text = name(i) + " falls short: moves " + len(Length::cm(moved)) + " forward";
        e.with("distance_cm", moved).with("allowance_cm", p.forced_move.as_cm());
        emit(std::move(e));
      }
      if (p.shaken_if_short) set_order(i, Order::shaken, "movement", "its charge fell short (seed 003)");
      return true;
    }
    case ChargeEnd::halted_at_obstacle: {
      // Seed 003 L68 / L36: it goes up to the obstacle and stops there, not
      // shaken, and cannot charge again this turn.
      u.charge_barred = true;
      const double short_of = std::max(0.0, p.obstacle_at.as_cm() - 0.5);
      const double moved = go(i, u.pos + unit_vector(u.pos, target.pos) * short_of, run.pace, Length::cm(short_of), true);
      moved_cm_[i] += moved;
      ++so.charges_short;
      if (rec_) {
        Event e = event("movement", "charge_halted", i);
        e.text = name(i) + " halts at the obstacle after " + len(Length::cm(moved)) + ": its charge is discontinued (seed 003)";
        e.with("distance_cm", moved);
        emit(std::move(e));
      }
      return true;
    }
    case ChargeEnd::blocked: return true;  // charge_contact did what it does
    case ChargeEnd::pike_destroyed:
      target.off_table = true;
      b_.changed();
      target.engaged = false;
      ++out_.sides[target.side].destroyed;
      ++so.charges_broke;
      if (rec_) {
        Event e = event("movement", "destroyed", t);
        e.text = name(t) + " is followed up by pikemen before it rallied: totally eliminated (seed 003)";
        emit(std::move(e));
      }
      return true;
    case ChargeEnd::pike_broke:
      target.struck_this_turn = true;  // seed 003 L54, as any charge that strikes
      ++so.charges_broke;
      retreat(t, i, move_of(t) * cr.pike_charge.retreat_moves, "fails the pike charge's Loss Table roll");
      set_order(t, Order::retreating, "movement", "it failed against the pike charge and must rally (seed 003)");
      target.pike_routed = true;
      return true;
    case ChargeEnd::fled:
      target.pos = *run.refuge;
      b_.changed();
      ++so.charges_broke;
      if (rec_) {
        Event e = event("movement", "charge_evaded", i);
        e.text = name(i) + " finds no one to strike and halts";
        emit(std::move(e));
      }
      return true;
    case ChargeEnd::morale_failed:
    case ChargeEnd::melee: break;
  }
  // Seed 003 L54: contact was made: the target is held for the rest of the
  // turn, whether it stands or falls back now.
  if (contact_made(res.end)) target.struck_this_turn = true;
  // Seed 003 L7: the defender checks, then (both charging) the charger,
  // whatever the defender rolled. Who fails retreats; a charger whose
  // defender fails while it stands has won before melee and follows through.
  if (res.defender_checks) emit_charge_morale(t, i, res.on, res.defender_target, res.defender);
  if (res.charger_checks) emit_charge_morale(i, t, ChargedOn::front, res.charger_target, res.charger);
  if (res.end == ChargeEnd::morale_failed) {
    if (res.defender_fails) {
      ++so.charges_broke;
      retreat(t, i, morale_retreat(cr, move_of(t)), "fails its morale check");
      if (!cr.failure_backs_to_enemy && target.active()) target.facing = bearing_deg(target.pos, u.pos);
      set_order(t, cr.failure_must_rally ? Order::retreating : Order::shaken, "movement", "it failed its morale check against the charge (seed 003)");
    }
    if (res.charger_fails) {
      ++out_.sides[target.side].charges_broke;
      retreat(i, t, morale_retreat(cr, move_of(i)), "fails its morale check");
      if (!cr.failure_backs_to_enemy && u.active()) u.facing = bearing_deg(u.pos, target.pos);
      set_order(i, cr.failure_must_rally ? Order::retreating : Order::shaken, "movement", "it failed its morale check against the charge (seed 003)");
    }
    // Seed 003 L3: victory before melee. The charger wins when only the
    // defender fails; a counter-charging defender (a charging unit too)
    // wins when only the charger fails, and follows through the balance of
    // its own charge move (the follow-through is part of its charge, not a
    // move L54 forbids).
    if (!res.charger_fails) follow_through(i, run.bearing0, follow_through_balance(r_, p.max_range, Length::cm(run.moved)));
    else if (res.counter && !res.defender_fails)
      follow_through(t, run.tbearing0, follow_through_balance(r_, run.tp.max_range, Length::cm(run.tmoved)));
    return true;
  }
  ++so.charges_stood;
  u.engaged = true;
  target.engaged = true;
  Contact c;
  c.attacker = static_cast<UnitIndex>(i);
  c.defender = static_cast<UnitIndex>(t);
  c.attacker_bonus = p.charge_bonus;
  c.defender_bonus = res.counter && run.tp.charge_bonus;
  c.charge = true;
  c.bearing = run.bearing0;
  c.balance = follow_through_balance(r_, p.max_range, Length::cm(run.moved));
  c.defender_charge = res.counter;  // seed 003 L3: it charged too
  c.defender_bearing = run.tbearing0;
  c.defender_balance = res.counter ? follow_through_balance(r_, run.tp.max_range, Length::cm(run.tmoved)) : Length();
  contacts_.push_back(c);
  return true;
}

bool Engagement::kept_prospect_matches(std::size_t i, std::size_t t, Pace pace) const {
  const KeptProspect& k = kept_prospect_;
  return k.valid && k.i == i && k.t == t && k.pace == pace && k.changes == b_.changes_ &&
         k.facing_i == std::bit_cast<std::uint64_t>(b_.units_[i].facing) && k.facing_t == std::bit_cast<std::uint64_t>(b_.units_[t].facing);
}

bool Engagement::kept_prospect_holds() const {
  const KeptProspect& k = kept_prospect_;
  return k.valid && kept_prospect_matches(k.i, k.t, k.pace);
}

const ChargeProspect& Engagement::prospect_kept(std::size_t i, std::size_t t, Pace pace) {
  if (kept_prospect_matches(i, t, pace)) return kept_prospect_.p;
  KeptProspect& k = kept_prospect_;
  k.p = charge_prospect(b_, i, t, pace);
  k.valid = true;
  k.i = i;
  k.t = t;
  k.pace = pace;
  k.changes = b_.changes_;
  k.facing_i = std::bit_cast<std::uint64_t>(b_.units_[i].facing);
  k.facing_t = std::bit_cast<std::uint64_t>(b_.units_[t].facing);
  return k.p;
}

void Engagement::opportunity_charges(std::size_t m) {
  const Unit& mover = b_.units_[m];
  // Only the other side's units may charge the mover (Battle::enemies: the
  // sides differ; a side is 0 or 1, bots_[side]). When that side's bot never
  // makes one (Bot::makes_opportunity_charges, asked once at construction:
  // opp_makes_) every unit below would be passed over: nothing to do.
  if (!opp_makes_[1 - mover.side]) return;
  // That side's units in index order (side_units_, made at construction):
  // the other units would be passed over as no enemies.
  for (const std::size_t j : side_units_[1 - mover.side]) {
    Unit& v = b_.units_[j];
    if (!mover.active() || mover.engaged) return;
    if (!v.active() || v.engaged || v.struck_this_turn) continue;  // L54: a struck unit may not move
    // Seed 003's gates: not yet moved (L92), good order, no charge the turn
    // after a charge, not after a failed check (L100), foot never on horse
    // (L96); and the bot's answer. Both are questions with no effect (const,
    // the dice untouched; Battle's kept answers at most), so the cheaper is
    // asked first (Bot::opportunity_charge_cheap) with no outcome changed.
    const Bot& bot = *bots_[v.side];
    const bool bot_first = opp_cheap_[v.side];  // bot.opportunity_charge_cheap(), asked at construction
    if (bot_first && !bot.opportunity_charge(b_, j, m, commands_[j])) continue;
    if (!charge_gate(b_, j, static_cast<UnitIndex>(m), ChargeWhen::opportunity).allowed) continue;
    if (!bot_first && !bot.opportunity_charge(b_, j, m, commands_[j])) continue;
    const Pace p = reaction_pace(r_, b_.pace_facts(j), commands_[j].pace);
    // Beyond the range bound the prospect does not reach (ChargeRangeBound).
    // The prospect is kept (prospect_kept): the charge made below asks it
    // again (the blocks' charge move) with nothing changed between.
    if (!ChargeRangeBound(b_, j, p).may_reach(b_, m, b_.gap(j, m)) || !prospect_kept(j, m, p).reaches) continue;
    if (rec_) {
      Event e = event("movement", "opportunity", j);
      e.text = name(j) + " makes an opportunity charge on " + name(m) + " (seed 003)";
      emit(std::move(e));
    }
    // Seed 003 L100: the -2 applies if no charge was declared for the unit.
    charge(j, m, v.charge_declared, p);
  }
}


}  // namespace vedette
