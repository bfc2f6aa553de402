// Seed 000 (ASL chapter 13, Cavalry): the movement-factor planner, step by
// step (engine/modules/asl/asl_cavalry.hpp explains the model; the tables are
// loaded by engine/modules/asl/asl_cavalry.cpp).
#include "engine/modules/asl/asl_cavalry.hpp"

#include <algorithm>

namespace vedette::asl {

// ----------------------------------------------------------------- planner

Planner::Planner(const Rules& r, const PlanStart& start) : r_(&r), start_(start) {
  s_.mounted = start.mounted;
  s_.horse_allotment = r.horse_allotment;
  s_.horse_before = start.horse_used_before;
  s_.horse_cx = start.cx;
  s_.unit_cx = start.cx;
  s_.terrain = start.terrain;
  s_.horse = start.horse ? *start.horse : horse_for(start.unit);
}

namespace {

StepResult na(const Step& s, const PlanState& st, std::string rule, std::string reason) {
  StepResult out;
  out.step = s;
  out.legal = false;
  out.rule = std::move(rule);
  out.reason = "NA: " + std::move(reason);
  out.after = st;
  return out;
}

StepResult ok(const Step& s, const PlanState& st, std::string rule, std::string reason) {
  StepResult out;
  out.step = s;
  out.legal = true;
  out.rule = std::move(rule);
  out.reason = std::move(reason);
  out.after = st;
  out.after.steps_taken++;
  return out;
}

std::string terrain_text(const Rules& r, const std::string& id) {
  const TerrainRule* t = r.find_terrain(id);
  return t ? t->text : id;
}

}  // namespace

std::string Planner::gallop_entry_problem(const std::string& terrain) const {
  if (terrain.empty()) return {};
  const TerrainRule* t = r_->find_terrain(terrain);
  if (t && !t->gallop_enter) return "Galloping Cavalry may not move " + (t->id == "bypass" ? std::string("in Bypass") : "into " + t->text);
  return {};
}

std::string Planner::gallop_declare_problem() const {
  if (start_.phase == Phase::aph) return "a Gallop is declared in the MPh, not the APh";
  if (!s_.mounted) return "only Cavalry (a unit Riding its horse) may Gallop; mount first";
  if (s_.horse_cx || s_.unit_cx)
    return std::string("the Cavalry/Horse is CX") + (s_.galloping ? " (it has already declared a Gallop this MPh)" : "") +
           ": Gallop declaration is NA";
  const TerrainRule* t = r_->find_terrain(s_.terrain);
  if (t && !t->gallop_declare) return "Gallop declaration is NA while in " + t->text;
  return {};
}

StepResult Planner::apply(const Step& s) {
  StepResult out;
  switch (s.kind) {
    case Step::Kind::move: out = move(s); break;
    case Step::Kind::mount: out = mount_or_dismount(s, true); break;
    case Step::Kind::dismount: out = mount_or_dismount(s, false); break;
    case Step::Kind::gallop: out = gallop(s, false); break;
    case Step::Kind::gallop_start: out = gallop(s, true); break;
    case Step::Kind::charge: out = charge(s); break;
    case Step::Kind::attack: out = attack(s); break;
    case Step::Kind::min_move: out = min_move(s); break;
    case Step::Kind::assault_move: out = assault_move(s); break;
    case Step::Kind::eliminate_horse: out = eliminate_horse(s); break;
  }
  if (out.legal) s_ = out.after;
  return out;
}

StepResult Planner::move(const Step& s) {
  const Rules& r = *r_;
  PlanState n = s_;
  const TerrainRule* t = s.terrain.empty() ? nullptr : r.find_terrain(s.terrain);
  const std::string into = t ? " into " + t->text : "";
  if (!s_.mounted) {
    if (!s.cost)
      return na(s, s_, "13.3", "the seed gives only Cavalry's cost for " + (t ? t->text : s.terrain) +
                                   "; as Infantry write move:COST:" + dashed(s.terrain));
    const int c = *s.cost;
    if (c > s_.unit_left(r))
      return na(s, s_, "13.31", "moving " + mf(c) + " as Infantry needs more than the " + mf(s_.unit_left(r)) +
                                    " left of its basic " + std::to_string(r.infantry_allotment) + "-MF allotment (4.11)");
    n.unit_expended += c;
    if (!s.terrain.empty()) n.terrain = s.terrain;
    return ok(s, n, "13.31", "moves as Infantry" + into + ": " + mf(c) + " of its basic " + std::to_string(r.infantry_allotment) +
                                 "-MF allotment (4.11); the horse waits where the unit will mount it");
  }
  if (start_.phase == Phase::aph) return na(s, s_, "13.7", "no horse may be moved in the APh");
  if (s_.min_move) return na(s, s_, "13.3", "it has made a Minimum Move: its MPh's movement is over");
  if (s_.galloping) {
    std::string why = gallop_entry_problem(s.terrain);
    if (!why.empty()) return na(s, s_, "13.36", why);
  }
  int c = 0;
  std::string cost_rule = s_.galloping ? "13.36" : "13.34";
  if (t && t->cavalry_mf) {
    if (s.cost && *s.cost != *t->cavalry_mf)
      return na(s, s_, "13.3", "Cavalry pays " + mf(*t->cavalry_mf) + " to move along " + t->text + ", not " + mf(*s.cost) +
                                   " (write move:" + dashed(t->id) + ")");
    c = *t->cavalry_mf;
  } else {
    c = s.cost.value_or(0);
  }
  if (c > s_.horse_left())
    return na(s, s_, cost_rule, "riding " + mf(c) + into + " needs more than the " + mf(s_.horse_left()) + " the horse has left of its " +
                                    std::to_string(s_.horse_allotment) + "-MF allotment");
  n.horse_used += c;
  if (!s.terrain.empty()) n.terrain = s.terrain;
  std::string why = "rides " + mf(c) + " (Cavalry MF, 13.3)" + into + " on the horse's " + std::to_string(s_.horse_allotment) + "-MF allotment" +
                    (s_.galloping ? " (Galloping)" : "");
  if (t && t->cavalry_mf) why += "; 13.3: " + mf(*t->cavalry_mf) + " along " + t->text;
  return ok(s, n, t && t->cavalry_mf ? "13.3" : cost_rule, why);
}

StepResult Planner::mount_or_dismount(const Step& s, bool mounting) {
  const Rules& r = *r_;
  const char* verb = mounting ? "mounting" : "dismounting";
  if (start_.phase == Phase::aph && !r.mount_in_aph) return na(s, s_, "13.31", std::string(verb) + " is NA during the APh");
  if (mounting && s_.mounted) return na(s, s_, "13.31", "the unit is already Riding its horse");
  if (!mounting && !s_.mounted) return na(s, s_, "13.31", "the unit is not mounted");
  PlanState n = s_;
  std::string capacity_note;
  if (mounting && s_.horse_eliminated) return na(s, s_, "13.7", "its Horse counter was eliminated (eliminate-horse): there is no horse to mount");
  if (mounting && s_.assault_moved)
    return na(s, s_, "13.7", "no horse may be moved by Assault Movement: its horse stayed in the Location the unit left");
  if (mounting) {
    MountCheck mc = check_mount(r, *s_.horse, start_.horse_carries, start_.unit);
    if (!mc.legal) return na(s, s_, "13.32", mc.effect);
    n.horse = mc.rides;
    capacity_note = "; " + mc.effect + " (13.32)";
  }
  const int share = r.share(s_.horse_allotment);
  // What the horse has used/lost this MPh, for the unit's loss.
  const int counted = s_.horse_used + s_.horse_before + (r.count_own_horse_losses ? s_.horse_lost_own : 0);
  const int unit_loss = share <= 0 ? 0 : (r.unit_loss_rounding == Rounding::up ? (counted + share - 1) / share : counted / share);
  n.unit_expended += r.mount_cost;
  const int charged_now = n.unit_expended - s_.unit_charged;
  const int horse_loss = share * charged_now;
  n.unit_lost += unit_loss;
  n.unit_charged = n.unit_expended;
  n.horse_lost_own += horse_loss;

  const std::string unit_part = "the unit spends " + mf(r.mount_cost) + " and loses " + mf(unit_loss) + " (the horse has used/lost " +
                                mf(counted) + " this MPh" +
                                (!r.count_own_horse_losses && s_.horse_lost_own > 0
                                     ? ", not counting the " + mf(s_.horse_lost_own) + " it lost to this unit's (dis)mounting"
                                     : "") +
                                ": 1 MF per " + mf(share) + (r.unit_loss_rounding == Rounding::up ? " begun" : "") + ", " +
                                std::to_string(r.share_pct) + "% of " + std::to_string(s_.horse_allotment) + ")";
  const std::string horse_part = "the horse loses " + mf(horse_loss) + " (" + std::to_string(r.share_pct) + "% of " + std::to_string(s_.horse_allotment) +
                                 " = " + mf(share) + " for each of the " + mf(charged_now) + " the unit expended" +
                                 (s_.unit_charged ? " since its last (dis)mounting" : " this MPh") + ")";
  std::string problems;
  if (n.unit_expended + n.unit_lost > r.infantry_allotment)
    problems = unit_part + ": " + mf(n.unit_expended - s_.unit_expended + unit_loss) + ", more than the " + mf(s_.unit_left(r)) +
               " left of its basic " + std::to_string(r.infantry_allotment) + "-MF allotment";
  if (n.horse_spent() > n.horse_allotment)
    problems += (problems.empty() ? "" : "; and ") + horse_part + ", more than the " + mf(s_.horse_left()) + " it has left";
  if (!problems.empty()) {
    StepResult out = na(s, s_, "13.31", std::string(verb) + ": " + problems);
    out.unit_lost = unit_loss;
    out.horse_lost = horse_loss;
    return out;
  }
  n.mounted = mounting;
  if (!mounting) {
    // The Gallop and its CX stay with the horse; the unit is Infantry now
    // (13.1), and may not use Assault Movement this turn (13.5).
    n.charge_pending = false;
    n.dismounted = true;
  }
  StepResult out = ok(s, n, "13.31",
            std::string(mounting ? "mounts" : "dismounts") + ": " + unit_part + "; " + horse_part + capacity_note +
                (mounting ? "" : ". It may not use Assault Movement this turn (13.5)"));
  out.unit_lost = unit_loss;
  out.horse_lost = horse_loss;
  return out;
}

StepResult Planner::gallop(const Step& s, bool at_start) {
  const Rules& r = *r_;
  if (at_start && (s_.steps_taken > 0 || s_.unit_expended > 0 || s_.horse_used > 0))
    return na(s, s_, "13.36", "a Gallop at the start of the MPh comes before anything else; during the MPh write gallop (+" +
                                  mf(r.gallop_during) + ")");
  std::string why = gallop_declare_problem();
  if (!why.empty()) return na(s, s_, "13.36", why);
  PlanState n = s_;
  const int add = at_start ? r.gallop_at_start : r.gallop_during;
  n.horse_allotment += add;
  n.galloping = true;
  n.gallop_at_start = at_start;
  n.horse_cx = true;
  return ok(s, n, "13.36",
            std::string("declares a Gallop ") + (at_start ? "at the start of" : "during") + " its MPh: allotment +" + std::to_string(add) + " to " +
                mf(n.horse_allotment) + ", " + mf(n.horse_left()) + " available; CX counter on the Horse counter");
}

StepResult Planner::charge(const Step& s) {
  const Rules& r = *r_;
  if (start_.phase == Phase::aph) return na(s, s_, "13.6", "a Charge is declared in the MPh");
  if (s_.charge_pending)
    return na(s, s_, "13.6", "a Charge declared at " + std::to_string(s_.charge_range) +
                                 " hexes is not carried out yet: enter its target with attack:COST first");
  ChargeInputs in;
  in.range = s.range;
  in.known = start_.enemy_known;
  in.in_los = start_.enemy_in_los;
  in.mounted = s_.mounted;
  in.galloping = s_.galloping;
  in.cx = s_.horse_cx || s_.unit_cx;
  in.in_terrain = s_.terrain;
  if (!s.terrain.empty()) in.target_terrain.push_back(s.terrain);
  in.mf_left = s_.horse_left();
  ChargeCheck c = check_charge(r, in);
  if (!c.legal) {
    std::string why;
    for (const auto& q : c.requirements)
      if (!q.met) why += (why.empty() ? "" : "; ") + q.detail;
    return na(s, s_, "13.6", why);
  }
  PlanState n = s_;
  if (c.declares_gallop) {
    n.horse_allotment += r.gallop_during;
    n.galloping = true;
    n.horse_cx = true;
  }
  n.charge_pending = true;
  n.charges_declared++;
  n.charge_range = s.range;
  n.charge_terrain = s.terrain;
  std::string why = "declares a Charge vs the Known enemy Location " + std::to_string(s.range) + " hexes away in its LOS" +
                    (s.terrain.empty() ? "" : " (" + terrain_text(r, s.terrain) + ")");
  if (c.declares_gallop)
    why += ", declaring a Gallop with it (13.36: allotment +" + std::to_string(r.gallop_during) + " to " + mf(n.horse_allotment) + ", CX)";
  else
    why += " (it is Galloping)";
  why += "; it must keep " + mf(r.charge_extra_mf) + " to pay with the cost of entering the target (attack:COST)";
  return ok(s, n, "13.6", why);
}

StepResult Planner::attack(const Step& s) {
  const Rules& r = *r_;
  if (!s_.charge_pending) return na(s, s_, "13.6", "no Charge declared: declare one first (charge:RANGE)");
  if (!s_.mounted) return na(s, s_, "13.6", "only Cavalry may Charge");
  const int c = s.cost.value_or(0);
  const int total = c + r.charge_extra_mf;
  if (total > s_.horse_left())
    return na(s, s_, "13.6", "entering the target (" + mf(c) + ") and the Charge's " + mf(r.charge_extra_mf) + " need " + mf(total) +
                                 ", more than the " + mf(s_.horse_left()) + " the horse has left");
  PlanState n = s_;
  n.horse_used += total;
  n.charge_pending = false;
  n.charges++;
  if (!s_.charge_terrain.empty()) n.terrain = s_.charge_terrain;
  return ok(s, n, "13.6",
            "enters the target Location paying " + mf(c) + " + " + mf(r.charge_extra_mf) + " for the Charge = " + mf(total) +
                " at once; after Defensive/Subsequent First Fire and FPF it attacks with TPBF, neither halved for Mounted "
                "Fire nor penalized by the horse's CX (13.6); then it may stay, dismount or ride on (13.61)");
}

StepResult Planner::min_move(const Step& s) {
  if (!s_.mounted) return na(s, s_, "13.3", "this is the Cavalry Minimum Move; an Infantry Minimum Move is A4.134's, outside this seed");
  if (start_.phase == Phase::aph) return na(s, s_, "13.7", "no horse may be moved in the APh");
  if (s_.unit_expended > 0 || s_.horse_used > 0 || s_.min_move)
    return na(s, s_, "13.3", "choice: a Minimum Move is the unit's whole movement, so no MF may have been spent before it");
  if (s_.galloping) {
    std::string why = gallop_entry_problem(s.terrain);
    if (!why.empty()) return na(s, s_, "13.36", why);
  }
  PlanState n = s_;
  n.horse_used += n.horse_left();
  n.min_move = true;
  n.unit_cx = true;
  n.horse_cx = true;
  if (!s.terrain.empty()) n.terrain = s.terrain;
  return ok(s, n, "13.3",
            "makes a Minimum Move like Infantry: one Location" + (s.terrain.empty() ? std::string() : " (" + terrain_text(*r_, s.terrain) + ")") +
                " with all its MF; both the Cavalry unit and its horse become CX");
}

StepResult Planner::assault_move(const Step& s) {
  const Rules& r = *r_;
  if (start_.phase == Phase::aph) return na(s, s_, "13.5", "Assault Movement is made in the MPh");
  if (s_.mounted) return na(s, s_, "13.5", "Cavalry is not eligible for Assault Movement");
  if (s_.dismounted) return na(s, s_, "13.5", "Infantry may not use Assault Movement in the turn it dismounted");
  const int c = s.cost.value_or(0);
  if (c > s_.unit_left(r))
    return na(s, s_, "13.31", "Assault Movement of " + mf(c) + " needs more than the " + mf(s_.unit_left(r)) + " left of its basic " +
                                  std::to_string(r.infantry_allotment) + "-MF allotment (4.11)");
  PlanState n = s_;
  n.unit_expended += c;
  n.assault_moved = true;
  return ok(s, n, "13.7",
            "uses Assault Movement as Infantry: " + mf(c) + " of its basic " + std::to_string(r.infantry_allotment) +
                "-MF allotment; no horse may be moved by Assault Movement, so its horse stays behind and it cannot mount this MPh");
}

StepResult Planner::eliminate_horse(const Step& s) {
  if (s_.horse_eliminated) return na(s, s_, "13.7", "its Horse counter is already eliminated");
  if (s_.mounted) return na(s, s_, "13.7", "a unit eliminates a Horse counter it leads (unmounted): dismount first");
  PlanState n = s_;
  n.horse_eliminated = true;
  return ok(s, n, "13.7",
            "eliminates the Horse counter it leads, as if it were a SW (no MF: choice, docs/asl.md); it cannot mount again");
}

std::optional<int> Planner::max_cavalry_mf_before_dismount() const {
  if (!s_.mounted) return std::nullopt;
  std::optional<int> best;
  Step dismount;
  dismount.kind = Step::Kind::dismount;
  dismount.text = "dismount";
  for (int k = 0; k <= s_.horse_left(); ++k) {
    Planner p = *this;
    if (k > 0) {
      Step m;
      m.kind = Step::Kind::move;
      m.cost = k;
      m.text = "move:" + std::to_string(k);
      // Galloping or not, plain MF (no terrain named).
      if (!p.apply(m).legal) break;
    }
    if (p.apply(dismount).legal) best = k;
  }
  return best;
}

}  // namespace vedette::asl
