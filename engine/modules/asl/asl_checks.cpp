// Seed 000 (ASL chapter 13, Cavalry): the checks beside the planner: capacity
// and mounting, Charge, fire at and from horses, the Cavalry Wave
// (engine/modules/asl/asl_cavalry.hpp; the tables: engine/modules/asl/asl_cavalry.cpp).
#include "engine/modules/asl/asl_cavalry.hpp"

#include <algorithm>

namespace vedette::asl {

// ---------------------------------------------------------------- capacity

namespace {

int mmc_halves(UnitKind u) {
  switch (u) {
    case UnitKind::squad: return 2;
    case UnitKind::half_squad:
    case UnitKind::crew: return 1;
    case UnitKind::smc: return 0;
  }
  return 0;
}
int mmc_halves(MmcLoad m) { return m == MmcLoad::squad ? 2 : m == MmcLoad::half_squad ? 1 : 0; }

std::string unit_text(UnitKind u) {
  switch (u) {
    case UnitKind::squad: return "a squad";
    case UnitKind::half_squad: return "a HS";
    case UnitKind::crew: return "a crew";
    case UnitKind::smc: return "a SMC";
  }
  return {};
}

std::string horse_text(HorseKind h) {
  switch (h) {
    case HorseKind::squad: return "squad Horse-counter";
    case HorseKind::half_squad: return "HS Horse-counter";
    case HorseKind::smc: return "SMC Horse-counter";
  }
  return {};
}

}  // namespace

HorseKind horse_for(UnitKind u) {
  switch (u) {
    case UnitKind::squad: return HorseKind::squad;
    case UnitKind::half_squad:
    case UnitKind::crew: return HorseKind::half_squad;
    case UnitKind::smc: return HorseKind::smc;
  }
  return HorseKind::smc;
}

bool can_carry(const Rules& r, HorseKind horse, const std::vector<UnitKind>& riders, std::string& why) {
  const HorseCapacity& c = r.capacity_of(horse);
  int halves = 0, smc = 0;
  for (UnitKind u : riders) {
    halves += mmc_halves(u);
    if (u == UnitKind::smc) ++smc;
  }
  const int cap = mmc_halves(c.mmc);
  if (halves > cap) {
    why = "a " + horse_text(horse) + " (" + std::to_string(c.depictions) + " horse depictions) carries " +
          (cap == 0 ? std::string("no MMC") : cap == 1 ? std::string("only a HS-equivalent") : std::string("only one squad-equivalent")) +
          " of MMC";
    return false;
  }
  if (c.smc_max && smc > *c.smc_max) {
    why = "a " + horse_text(horse) + " carries at most " + std::to_string(*c.smc_max) + " SMC";
    return false;
  }
  if (!riders.empty() && smc < c.smc_min && halves == 0) {
    why = "a " + horse_text(horse) + " carries at least " + std::to_string(c.smc_min) + " SMC";
    return false;
  }
  return true;
}

MountCheck check_mount(const Rules& r, HorseKind horse, const std::vector<UnitKind>& riders, UnitKind unit) {
  MountCheck m;
  std::vector<UnitKind> with = riders;
  with.push_back(unit);
  const HorseCapacity& c = r.capacity_of(horse);
  int halves = 0;
  for (UnitKind u : riders) halves += mmc_halves(u);
  const bool too_large = horse_for(unit) != horse && static_cast<int>(horse) < static_cast<int>(horse_for(unit));
  if (unit == UnitKind::smc && too_large) {
    // 13.32: a SMC creates a SMC Horse-counter from a larger one [EXC: not
    // if that counter already carries its capacity of MMC].
    if (halves > 0 && halves == mmc_halves(c.mmc)) {
      std::string why;
      m.legal = can_carry(r, horse, with, why);
      m.rides = horse;
      m.effect = m.legal ? "it joins the " + horse_text(horse) + " already carrying its capacity of MMC (no SMC Horse-counter is created)"
                         : why;
      return m;
    }
    m.legal = true;
    m.rides = HorseKind::smc;
    m.effect = "the " + horse_text(horse) + " first creates a SMC Horse-counter, which the SMC mounts";
    return m;
  }
  if ((unit == UnitKind::half_squad || unit == UnitKind::crew) && horse == HorseKind::squad && riders.empty()) {
    m.legal = true;
    m.rides = HorseKind::half_squad;
    m.effect = "the squad Horse-counter first Deploys into two HS Horse-counters; " + unit_text(unit).substr(2) + " mounts one";
    return m;
  }
  std::string why;
  m.legal = can_carry(r, horse, with, why);
  m.rides = horse;
  m.effect = m.legal ? unit_text(unit) + " mounts the " + horse_text(horse) : unit_text(unit) + " cannot mount it: " + why;
  return m;
}

// ------------------------------------------------------------------ Charge

ChargeCheck check_charge(const Rules& r, const ChargeInputs& in) {
  ChargeCheck c;
  auto add = [&](std::string text, bool met, std::string detail, std::string rule) {
    c.requirements.push_back({std::move(text), met, std::move(detail), std::move(rule)});
  };
  add("Cavalry (a unit Riding its horse)", in.mounted, in.mounted ? "mounted" : "only Cavalry may Charge: the unit is not mounted", "13.6");
  add("a Known-enemy-occupied Location", in.known, in.known ? "the enemy there is Known" : "the enemy Location is not Known", "13.6");
  add("in the unit's LOS when the Charge is declared", in.in_los, in.in_los ? "in LOS" : "the Location is not in the unit's LOS", "13.6");
  const bool far = in.range >= r.charge_min_range;
  add("a range of " + std::to_string(r.charge_min_range) + " or more hexes when declared", far,
      "range " + std::to_string(in.range) + (in.range == 1 ? " hex" : " hexes") + (far ? "" : ": too close to declare a Charge"), "13.6");
  // Galloping, or declaring a Gallop with the Charge (13.36's restrictions).
  bool gallop_ok = in.galloping;
  std::string gallop_detail;
  if (in.galloping) {
    gallop_detail = "it is Galloping";
  } else {
    const TerrainRule* t = r.find_terrain(in.in_terrain);
    if (!in.mounted) gallop_detail = "not mounted: it cannot Gallop";
    else if (in.cx) gallop_detail = "not Galloping, and it cannot declare a Gallop while CX (13.36)";
    else if (t && !t->gallop_declare) gallop_detail = "not Galloping, and it cannot declare a Gallop while in " + t->text + " (13.36)";
    else {
      gallop_ok = true;
      c.declares_gallop = true;
      gallop_detail = "it declares a Gallop with the Charge (+" + mf(r.gallop_during) + ", CX; 13.36)";
    }
  }
  add("Galloping, or declaring a Gallop, when it declares the Charge", gallop_ok, gallop_detail, "13.6");
  // Able to Gallop into the Location.
  std::string blocked;
  for (const auto& id : in.target_terrain) {
    const TerrainRule* t = r.find_terrain(id);
    if (t && !t->gallop_enter) blocked += (blocked.empty() ? "" : ", ") + t->text;
  }
  add("able to Gallop into that Location", blocked.empty(),
      blocked.empty() ? (in.target_terrain.empty() ? std::string("assumed (no terrain given for the target)") : std::string("it may Gallop into it"))
                      : "Galloping Cavalry may not enter it: " + blocked + " (13.36)",
      "13.36");
  // Three MF with the cost of entering.
  if (in.mf_left) {
    c.mf_left_after_gallop = *in.mf_left + (c.declares_gallop ? r.gallop_during : 0);
    const int left = *c.mf_left_after_gallop;
    if (in.cost) {
      const int need = *in.cost + r.charge_extra_mf;
      add("three MF more, paid with the cost to enter the target", left >= need,
          mf(left) + " left" + (c.declares_gallop ? " with the Gallop" : "") + "; reaching and entering it costs " + mf(*in.cost) +
              " + " + mf(r.charge_extra_mf) + " = " + mf(need),
          "13.6");
    } else {
      add("three MF more, paid with the cost to enter the target", left >= r.charge_extra_mf,
          mf(left) + " left" + (c.declares_gallop ? " with the Gallop" : "") +
              (left >= r.charge_extra_mf ? ": the path and entry may cost up to " + mf(left - r.charge_extra_mf)
                                         : ": fewer than the Charge's " + mf(r.charge_extra_mf)),
          "13.6");
    }
  } else {
    add("three MF more, paid with the cost to enter the target", true,
        "not checked: give the horse's MF left (it pays " + mf(r.charge_extra_mf) + " with the cost of entering)", "13.6");
  }
  c.legal = std::all_of(c.requirements.begin(), c.requirements.end(), [](const Requirement& q) { return q.met; });
  return c;
}

// -------------------------------------------------------------------- fire

FireDrm drm_when_fired_on(const Rules& r, FireTarget t, bool ffmo, bool ffnam, bool minefield) {
  FireDrm f;
  if (t == FireTarget::horse) {
    f.drm = 0;
    f.why = "horses are attacked on the Vehicle Line of the IFT and are not subject to the " + std::to_string(r.vulnerability_drm) +
            " DRM for Cavalry or to FFMO/FFNAM (13.511)";
    return f;
  }
  if (minefield) {
    f.drm = 0;
    f.why = "no Cavalry DRM on a minefield attack (13.5 EXC)";
    return f;
  }
  f.drm = r.vulnerability_drm;
  f.why = std::to_string(r.vulnerability_drm) + " IFT (or ordnance TH) DRM vs Cavalry (13.5)";
  if (ffmo || ffnam)
    f.why += std::string("; not cumulative with ") + (ffmo && ffnam ? "FFMO/FFNAM" : ffmo ? "FFMO" : "FFNAM") + ": it does not add (13.5)";
  return f;
}

MountedFire mounted_fire(const Rules& r, int fp, FireKind k) {
  MountedFire m;
  m.num = fp;
  switch (k) {
    case FireKind::normal:
      m.halved = true;
      m.den = r.mounted_fire_divisor;
      m.why = "Mounted Fire: FP divided by " + std::to_string(r.mounted_fire_divisor) + " (13.4)";
      break;
    case FireKind::close_combat: m.why = "not halved in CC (13.4)"; break;
    case FireKind::charge:
      // 13.6: the Charge attacks "with TPBF ... neither halved for Mounted
      // Fire": FP times tpbf_multiplier (13.6's EX: a 2-3-7 makes a six-FP
      // (TPBF) Charge attack).
      m.num = fp * r.tpbf_multiplier;
      m.why = "a Charge attack is TPBF (FP x" + std::to_string(r.tpbf_multiplier) +
              "), neither halved for Mounted Fire nor penalized by the horse's CX status (13.6)";
      break;
  }
  if (m.den > 1) {
    int a = m.num, b = m.den;
    while (b) {
      int t = a % b;
      a = b;
      b = t;
    }
    if (a > 1) {
      m.num /= a;
      m.den /= a;
    }
  }
  return m;
}

// ------------------------------------------------------------ Cavalry Wave

WaveCheck check_wave(const Rules& r, const WaveInputs& in) {
  const WaveRules& w = r.wave;
  WaveCheck c;
  auto add = [&](std::string text, bool met, std::string detail) {
    c.requirements.push_back({std::move(text), met, std::move(detail), "13.62"});
  };
  const int hexes = static_cast<int>(in.chain.size());
  add("a chain of hexes", hexes > 0, std::to_string(hexes) + (hexes == 1 ? " hex" : " hexes") + " given");
  std::string thin;
  int mmc = 0, leaders = 0;
  for (int k = 0; k < hexes; ++k) {
    const WaveHex& h = in.chain[static_cast<std::size_t>(k)];
    if (2 * h.squads + h.half_squads < 2 * w.min_squad_equivalents_per_hex) thin += (thin.empty() ? "" : ", ") + std::to_string(k + 1);
    mmc += h.squads + h.half_squads;
    leaders += h.leaders;
  }
  add("at least " + std::to_string(w.min_squad_equivalents_per_hex) + " squad-equivalent of Cavalry in each hex of the chain", thin.empty() && hexes > 0,
      thin.empty() ? "every hex has one" : "too few in hex " + thin);
  if (in.nearest_enemy_hexes) {
    const bool far = *in.nearest_enemy_hexes > w.enemy_within_hexes;
    add("no unit in the chain within " + std::to_string(w.enemy_within_hexes) + " hexes of an enemy unit", far,
        "nearest enemy unit " + std::to_string(*in.nearest_enemy_hexes) + " hexes away" + (far ? "" : ": too close"));
  } else {
    add("no unit in the chain within " + std::to_string(w.enemy_within_hexes) + " hexes of an enemy unit", false,
        "not given: how many hexes from the chain is the nearest enemy unit?");
  }
  const bool near_enough = in.mf_to_enemy && *in.mf_to_enemy <= w.max_mf_to_enemy;
  add("at least one unit within " + std::to_string(w.max_mf_to_enemy) + " MF of, and with a LOS to, an enemy unit", near_enough && in.los_to_enemy,
      !in.mf_to_enemy ? std::string("not given: the fewest MF from a unit in the chain to an enemy unit it can see")
                      : mf(*in.mf_to_enemy) + (near_enough ? "" : " (more than " + mf(w.max_mf_to_enemy) + ")") +
                            (in.los_to_enemy ? ", in LOS" : ", but no LOS"));
  add("all units able to Gallop at once", in.all_can_gallop,
      in.all_can_gallop ? "all Gallop (13.36: CX)" : "a unit cannot Gallop (CX, or in a marsh, deep stream or fordable Water Obstacle: 13.36)");
  const bool avg = hexes > 0 && mmc <= w.max_mmc_per_hex * hexes;
  add("an average of no more than " + std::to_string(w.max_mmc_per_hex) + " MMC per hex", avg,
      std::to_string(mmc) + " MMC in " + std::to_string(hexes) + (hexes == 1 ? " hex" : " hexes"));
  add("at least " + std::to_string(w.min_leaders) + " leader participating", leaders >= w.min_leaders, std::to_string(leaders) + (leaders == 1 ? " leader" : " leaders"));
  add("Cavalry only (no combined Human Wave with Infantry)", !in.with_infantry, in.with_infantry ? "Infantry takes part" : "Cavalry only");
  c.legal = std::all_of(c.requirements.begin(), c.requirements.end(), [](const Requirement& q) { return q.met; });
  c.reminders = {
      "All participating units Gallop immediately (13.36: CX on each Horse counter).",
      "At least one participating unit must Charge an enemy unit during that MPh (13.6).",
      "Each Charging unit need not end its MPh upon entering an enemy-occupied hex.",
      "The morale of Cavalry does not increase during a Cavalry Wave.",
      "25.23-.231 (Human Wave) also apply; their own prerequisites are outside seed 000 and not checked."};
  return c;
}

}  // namespace vedette::asl
