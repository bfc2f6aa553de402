// `vedette asl`: the seed 000 module (ASL chapter 13, Cavalry) for players.
//   plan          a unit's and its horse's MF through one MPh, step by step
//   check-charge  13.6's requirements for declaring a Charge
//   check-wave    13.62's prerequisites for a Cavalry Wave
//   mounted-fire  13.4: Cavalry's FP as Mounted Fire
//   fire-drm      13.5: the DRM when Cavalry (or its horses) are fired on
//   check         validate a module file (tables/asl_cavalry.yaml format)
// The numbers come from tables/asl_cavalry.yaml (builtin:asl_cavalry) or
// --rules FILE; engine/modules/asl/asl_cavalry.hpp holds the mechanisms.
#include <algorithm>
#include <memory>
#include <ostream>

#include "engine/modules/asl/asl_cavalry.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "sims/cli/check_files.hpp"
#include "sims/cli/cli.hpp"

namespace vedette::cli {

namespace {

using namespace vedette::asl;
using UnitKind = asl::UnitKind;  // not vedette::UnitKind (the engagement's)

asl::RulesPtr asl_rules_from(const std::string& path) { return path.empty() ? asl::default_rules() : asl::load_rules(path); }

template <std::size_t N>
std::optional<std::size_t> pick_name(const std::string& text, const std::array<std::string_view, N>& names) {
  const std::string t = normalise_id(text);
  for (std::size_t k = 0; k < N; ++k)
    if (names[k] == t) return k;
  return std::nullopt;
}

template <std::size_t N>
std::string names_text(const std::array<std::string_view, N>& names) {
  std::string s;
  for (auto n : names) s += (s.empty() ? "" : ", ") + dashed(n);
  return s;
}

UnitKind unit_kind(const std::string& flag, const std::string& text) {
  auto k = pick_name(text, asl::k_unit_kind_names);
  if (!k) throw UsageError(flag + " '" + text + "': expected one of " + names_text(asl::k_unit_kind_names));
  return static_cast<UnitKind>(*k);
}

HorseKind horse_kind(const std::string& flag, const std::string& text) {
  auto k = pick_name(text, k_horse_kind_names);
  if (!k) throw UsageError(flag + " '" + text + "': expected one of " + names_text(k_horse_kind_names) + " (the Horse counter's size, 13.32)");
  return static_cast<HorseKind>(*k);
}

std::string terrain_or_throw(const Rules& r, const std::string& flag, const std::string& text) {
  std::string id = normalise_id(text);
  if (r.find_terrain(id)) return id;
  std::vector<std::string> ids;
  std::string list;
  for (const auto& t : r.terrain) {
    ids.push_back(t.id);
    list += (list.empty() ? "" : ", ") + dashed(t.id);
  }
  std::string near = nearest(id, ids);
  throw UsageError(flag + " '" + text + "': unknown terrain" + (near.empty() ? "" : " (did you mean '" + dashed(near) + "'?)") +
                   "; known: " + list);
}

Json requirements_json(const std::vector<Requirement>& rs) {
  Json a = Json::array();
  for (const auto& q : rs) a.push_back({{"requirement", q.text}, {"met", q.met}, {"detail", q.detail}, {"rule", q.rule}});
  return a;
}

void print_requirements(std::ostream& out, const std::vector<Requirement>& rs) {
  for (const auto& q : rs) out << "  [" << (q.met ? "ok" : "NO") << "] " << q.text << ": " << q.detail << " (" << q.rule << ")\n";
}

// ------------------------------------------------------------------- plan

struct PlanOptions {
  std::string start;
  std::vector<std::string> steps;
  bool gallop_at_start = false;
  std::string phase = "mph";
  bool cx = false;
  std::string in = "open";
  int horse_used = 0;
  std::string unit = "smc";
  std::string horse;
  std::string horse_carries;
  bool not_known = false;
  bool no_los = false;
  std::string rules;
  bool json = false;
};

std::string used_left(int used, int lost, int left, int of) {
  return std::to_string(used) + " used, " + std::to_string(lost) + " lost, " + std::to_string(left) + " left of " + std::to_string(of);
}

// Where the MPh starts, from the flags (13.31-13.36).
PlanStart read_plan_start(const PlanOptions& o, const Rules& r) {
  PlanStart start;
  start.mounted = o.start == "mounted";
  start.phase = o.phase == "aph" ? Phase::aph : Phase::mph;
  start.cx = o.cx;
  start.terrain = terrain_or_throw(r, "--in", o.in);
  if (o.horse_used > r.horse_allotment)
    throw UsageError("--horse-used " + std::to_string(o.horse_used) + ": the horse has only " + std::to_string(r.horse_allotment) +
                     " MF (13.34)");
  start.horse_used_before = o.horse_used;
  start.unit = unit_kind("--unit", o.unit);
  if (!o.horse.empty()) start.horse = horse_kind("--horse", o.horse);
  if (!o.horse_carries.empty()) {
    std::size_t b = 0;
    while (true) {
      auto c = o.horse_carries.find(',', b);
      start.horse_carries.push_back(unit_kind("--horse-carries", o.horse_carries.substr(b, c == std::string::npos ? c : c - b)));
      if (c == std::string::npos) break;
      b = c + 1;
    }
  }
  {
    std::string why;
    HorseKind h = start.horse ? *start.horse : horse_for(start.unit);
    if (!can_carry(r, h, start.horse_carries, why)) throw UsageError("--horse-carries: " + why + " (13.32)");
    if (start.mounted) {
      std::vector<UnitKind> all = start.horse_carries;
      all.push_back(start.unit);
      if (!can_carry(r, h, all, why)) throw UsageError("--start mounted: " + why + " (13.32)");
    }
  }
  start.enemy_known = !o.not_known;
  start.enemy_in_los = !o.no_los;
  return start;
}

// The steps in order, --gallop-at-start first.
std::vector<Step> read_plan_steps(const PlanOptions& o, const Rules& r) {
  std::vector<Step> steps;
  if (o.gallop_at_start) {
    std::string why;
    steps.push_back(*parse_step(r, "gallop-start", why));
  }
  for (std::size_t k = 0; k < o.steps.size(); ++k) {
    std::string why;
    auto s = parse_step(r, o.steps[k], why);
    if (!s) throw UsageError("step " + std::to_string(k + 1) + ": " + why);
    steps.push_back(*s);
  }
  if (steps.empty()) throw UsageError("give at least one step (e.g. move:1 mount gallop), or --gallop-at-start");
  return steps;
}

// The plan walked step by step: each step's result, and the MF the unit may
// still spend mounted and dismount, after each step and at the end.
struct PlanWalk {
  std::vector<StepResult> results;
  std::vector<std::optional<int>> max_before;
  PlanState end;
  std::optional<int> max_end;
  bool all_legal = false;
};

PlanWalk walk_plan(const Rules& r, const PlanStart& start, const std::vector<Step>& steps) {
  Planner p(r, start);
  PlanWalk w;
  for (const auto& s : steps) {
    w.results.push_back(p.apply(s));
    w.max_before.push_back(p.max_cavalry_mf_before_dismount());
  }
  w.end = p.state();
  w.max_end = p.max_cavalry_mf_before_dismount();
  w.all_legal = std::all_of(w.results.begin(), w.results.end(), [](const StepResult& x) { return x.legal; });
  return w;
}

void print_plan_json(const PlanOptions& o, const Rules& r, const PlanWalk& w, std::ostream& out) {
  const PlanState& end = w.end;
  Json j;
  j["rules"] = r.name;
  j["start"] = o.start;
  j["phase"] = o.phase;
  j["unit_allotment"] = r.infantry_allotment;
  j["steps"] = Json::array();
  for (std::size_t k = 0; k < w.results.size(); ++k) {
    const StepResult& x = w.results[k];
    const PlanState& a = x.after;
    Json s;
    s["n"] = k + 1;
    s["step"] = x.step.text;
    s["legal"] = x.legal;
    s["rule"] = x.rule;
    s["reason"] = x.reason;
    s["mounted"] = a.mounted;
    s["unit_mf_used"] = a.unit_expended;
    s["unit_mf_lost"] = a.unit_lost;
    s["unit_mf_left"] = a.unit_left(r);
    s["horse_mf_used"] = a.horse_used + a.horse_before;
    s["horse_mf_lost"] = a.horse_lost_own;
    s["horse_mf_left"] = a.horse_left();
    s["horse_allotment"] = a.horse_allotment;
    s["galloping"] = a.galloping;
    s["horse_cx"] = a.horse_cx;
    s["max_cavalry_mf_before_dismount"] = w.max_before[k] ? Json(*w.max_before[k]) : Json(nullptr);
    j["steps"].push_back(s);
  }
  j["legal"] = w.all_legal;
  j["mounted"] = end.mounted;
  j["galloping"] = end.galloping;
  j["charges"] = end.charges;
  j["charge_pending"] = end.charge_pending;
  j["charges_declared"] = end.charges_declared;
  j["prep_fire_counter"] = end.charges_declared > 0;
  j["max_cavalry_mf_before_dismount"] = w.max_end ? Json(*w.max_end) : Json(nullptr);
  print_json(out, j);
}

void print_plan_text(const Rules& r, const PlanStart& start, const PlanWalk& w, std::ostream& out) {
  const PlanState& end = w.end;
  out << "Plan for one " << (start.phase == Phase::aph ? "APh" : "MPh") << " (" << r.name << "): starts "
      << (start.mounted ? "mounted (Cavalry)" : "as Infantry") << " in " << dashed(start.terrain) << "; the unit's basic allotment "
      << r.infantry_allotment << " MF (13.31), the horse's " << r.horse_allotment << " MF (13.34)";
  if (start.horse_used_before) out << ", " << start.horse_used_before << " of them already used/lost";
  if (start.cx) out << "; CX";
  out << ".\n";
  std::size_t width = 4;
  for (const auto& x : w.results) width = std::max(width, x.step.text.size());
  for (std::size_t k = 0; k < w.results.size(); ++k) {
    const StepResult& x = w.results[k];
    const PlanState& a = x.after;
    std::string name = x.step.text;
    name.resize(width, ' ');
    out << (k + 1 < 10 ? " " : "") << k + 1 << ". " << name << "  " << (x.legal ? "OK" : "NA") << "  unit "
        << used_left(a.unit_expended, a.unit_lost, a.unit_left(r), r.infantry_allotment) << " | horse "
        << used_left(a.horse_used + a.horse_before, a.horse_lost_own, a.horse_left(), a.horse_allotment) << "  [" << x.rule << "] "
        << x.reason << "\n";
  }
  std::string horse;
  if (end.galloping) horse += "Galloping";
  if (end.horse_cx) horse += std::string(horse.empty() ? "" : ", ") + "CX";
  out << "Now: " << (end.mounted ? "mounted" : "Infantry") << (end.unit_cx ? " (CX)" : "")
      << (horse.empty() ? "" : (end.mounted ? "; the horse " : "; its horse ") + horse) << ".\n";
  if (end.mounted) {
    if (w.max_end)
      out << "Dismount: it may spend up to " << *w.max_end << " more Cavalry MF and still dismount this MPh (13.31).\n";
    else
      out << "Dismount: no longer possible this MPh (13.31).\n";
  }
  if (end.charge_pending)
    out << "Charge: declared at " << end.charge_range << " hexes, not carried out yet (attack:COST pays it with "
        << r.charge_extra_mf << " MF more; 13.6).\n";
  if (end.charges_declared > 0)
    out << "13.61: it declared a Charge: a Prep Fire counter at the end of its MPh; it may not attack in the AFPh"
        << (end.mounted ? "" : ", even though it is now dismounted") << ".\n";
  if (!w.all_legal) out << "Steps marked NA are not taken; the plan goes on without them.\n";
}

int run_plan(const PlanOptions& o, Io& io) {
  RulesPtr rules = asl_rules_from(o.rules);
  const Rules& r = *rules;
  const PlanStart start = read_plan_start(o, r);
  const std::vector<Step> steps = read_plan_steps(o, r);
  const PlanWalk w = walk_plan(r, start, steps);
  if (o.json) print_plan_json(o, r, w, io.out);
  else print_plan_text(r, start, w, io.out);
  return 0;
}

// ----------------------------------------------------------- check-charge

struct ChargeOptions {
  int range = 0;
  bool not_known = false, no_los = false, dismounted = false, galloping = false, cx = false;
  std::string in = "open";
  std::vector<std::string> target;
  std::optional<int> mf_left, cost;
  std::string rules;
  bool json = false;
};

int run_check_charge(const ChargeOptions& o, Io& io) {
  RulesPtr rules = asl_rules_from(o.rules);
  const Rules& r = *rules;
  ChargeInputs in;
  in.range = o.range;
  in.known = !o.not_known;
  in.in_los = !o.no_los;
  in.mounted = !o.dismounted;
  in.galloping = o.galloping;
  in.cx = o.cx;
  in.in_terrain = terrain_or_throw(r, "--in", o.in);
  for (const auto& t : o.target) in.target_terrain.push_back(terrain_or_throw(r, "--target", t));
  in.mf_left = o.mf_left;
  in.cost = o.cost;
  if (o.mf_left && o.galloping && *o.mf_left > r.horse_allotment + r.gallop_at_start)
    throw UsageError("--mf-left " + std::to_string(*o.mf_left) + ": more than a Galloping horse's " +
                     std::to_string(r.horse_allotment + r.gallop_at_start) + " MF (13.36)");
  if (o.mf_left && !o.galloping && *o.mf_left > r.horse_allotment)
    throw UsageError("--mf-left " + std::to_string(*o.mf_left) + ": more than the horse's " + std::to_string(r.horse_allotment) +
                     " MF (13.34); add --galloping if it Galloped");
  ChargeCheck c = check_charge(r, in);
  if (o.json) {
    Json j;
    j["rules"] = r.name;
    j["range"] = o.range;
    j["legal"] = c.legal;
    j["declares_gallop"] = c.declares_gallop;
    j["mf_left_after_gallop"] = c.mf_left_after_gallop ? Json(*c.mf_left_after_gallop) : Json(nullptr);
    j["requirements"] = requirements_json(c.requirements);
    print_json(io.out, j);
    return 0;
  }
  io.out << "Charge vs a Location " << o.range << (o.range == 1 ? " hex" : " hexes") << " away: "
         << (c.legal ? "LEGAL" : "NA") << " (13.6)" << (c.legal && c.declares_gallop ? ", declaring a Gallop with it" : "") << "\n";
  print_requirements(io.out, c.requirements);
  return 0;
}

// ------------------------------------------------------------- check-wave

struct WaveOptions {
  std::vector<std::string> hexes;
  std::optional<int> enemy_hexes, mf_to_enemy;
  bool no_los = false, cannot_gallop = false, with_infantry = false;
  std::string rules;
  bool json = false;
};

WaveHex parse_hex(const std::string& text) {
  const std::string form = "--hex '" + text +
                           "': expected counts like 1s, 2h or 1s,1l: squads (s), half-squads or crews (h), leaders (l)";
  WaveHex h;
  std::size_t b = 0;
  bool any = false;
  while (b <= text.size()) {
    auto c = text.find_first_of(",+", b);
    std::string part = text.substr(b, c == std::string::npos ? std::string::npos : c - b);
    if (part.size() < 2) throw UsageError(form);
    auto n = parse_int(part.substr(0, part.size() - 1));
    if (!n || *n < 0 || *n > 100) throw UsageError(form);
    const int v = static_cast<int>(*n);
    switch (part.back()) {
      case 's': h.squads += v; break;
      case 'h':
      case 'c': h.half_squads += v; break;
      case 'l': h.leaders += v; break;
      default: throw UsageError(form);
    }
    any = true;
    if (c == std::string::npos) break;
    b = c + 1;
  }
  if (!any) throw UsageError(form);
  return h;
}

int run_check_wave(const WaveOptions& o, Io& io) {
  RulesPtr rules = asl_rules_from(o.rules);
  const Rules& r = *rules;
  WaveInputs in;
  for (const auto& h : o.hexes) in.chain.push_back(parse_hex(h));
  in.nearest_enemy_hexes = o.enemy_hexes;
  in.mf_to_enemy = o.mf_to_enemy;
  in.los_to_enemy = !o.no_los;
  in.all_can_gallop = !o.cannot_gallop;
  in.with_infantry = o.with_infantry;
  WaveCheck c = check_wave(r, in);
  if (o.json) {
    Json j;
    j["rules"] = r.name;
    j["legal"] = c.legal;
    j["requirements"] = requirements_json(c.requirements);
    j["reminders"] = c.reminders;
    print_json(io.out, j);
    return 0;
  }
  io.out << "Cavalry Wave: " << (c.legal ? "may be declared" : "NA") << " (13.62)\n";
  print_requirements(io.out, c.requirements);
  if (c.legal)
    for (const auto& m : c.reminders) io.out << "  then: " << m << "\n";
  return 0;
}

// ------------------------------------------------------------------- fire

struct MountedFireOptions {
  int fp = 0;
  bool cc = false, charge = false;
  std::string rules;
  bool json = false;
};

int run_mounted_fire(const MountedFireOptions& o, Io& io) {
  RulesPtr rules = asl_rules_from(o.rules);
  MountedFire m = mounted_fire(*rules, o.fp, o.charge ? FireKind::charge : o.cc ? FireKind::close_combat : FireKind::normal);
  const std::string fp = m.den == 1 ? std::to_string(m.num) : std::to_string(m.num) + "/" + std::to_string(m.den);
  if (o.json) {
    Json j;
    j["fp"] = o.fp;
    j["fp_num"] = m.num;
    j["fp_den"] = m.den;
    j["fp_text"] = fp;
    j["halved"] = m.halved;
    j["why"] = m.why;
    print_json(io.out, j);
    return 0;
  }
  io.out << "FP " << o.fp << " -> " << fp << ": " << m.why << "\n";
  return 0;
}

struct DrmOptions {
  bool horse = false, ffmo = false, ffnam = false, minefield = false;
  std::string rules;
  bool json = false;
};

int run_fire_drm(const DrmOptions& o, Io& io) {
  RulesPtr rules = asl_rules_from(o.rules);
  FireDrm f = drm_when_fired_on(*rules, o.horse ? FireTarget::horse : FireTarget::cavalry, o.ffmo, o.ffnam, o.minefield);
  if (o.json) {
    Json j;
    j["target"] = o.horse ? "horse" : "cavalry";
    j["drm"] = f.drm;
    j["why"] = f.why;
    print_json(io.out, j);
    return 0;
  }
  io.out << "DRM " << (f.drm > 0 ? "+" : "") << f.drm << " vs " << (o.horse ? "the horses" : "the Cavalry") << ": " << f.why << "\n";
  return 0;
}

// ------------------------------------------------------------------ check

struct AslCheckOptions {
  std::vector<std::string> files;
  bool json = false;
};

int run_asl_check(const AslCheckOptions& o, Io& io) { return check_files(o.files, o.json, io, &table_format_named("asl_cavalry")); }

void add_rules_option(CLI::App* c, std::string& path) {
  c->add_option("--rules", path, "ASL Cavalry tables (default: builtin:asl_cavalry, i.e. tables/asl_cavalry.yaml)");
}

}  // namespace

void add_asl(CLI::App& app, Runner& run) {
  auto* asl = app.add_subcommand("asl", "Seed 000 module: ASL Cavalry (13.3-13.62): MF planner, Charge and Cavalry Wave checks, fire.");
  asl->require_subcommand(1);
  asl->footer("Numbers come from tables/asl_cavalry.yaml (built in), each beside the rule it cites.\n"
              "Solo play in these terms: vedette solo new GAME --module asl --unit ...");
  {
    auto o = std::make_shared<PlanOptions>();
    auto* c = asl->add_subcommand("plan", "A unit's and its horse's MF through one MPh, step by step (13.31 cross-losses, Gallop, Charge)");
    c->add_option("--start", o->start, "infantry (on foot, its horse waiting) or mounted (Cavalry)")
        ->required()
        ->check(CLI::IsMember({"infantry", "mounted"}));
    c->add_option("STEP", o->steps,
                  "Steps in order: move:COST[:TERRAIN] (MF; as Cavalry or Infantry), move:woods-trailbreak (13.3: 3 MF), mount, "
                  "dismount, gallop (declared during the MPh: +4), gallop-start (at its start: +8), charge:RANGE[:TERRAIN] "
                  "(declare vs a Known enemy Location RANGE hexes away), attack:COST (enter the target: COST + 3 MF), "
                  "min-move[:TERRAIN] (a Minimum Move), assault-move:COST (Infantry Assault Movement; 13.5, 13.7), "
                  "eliminate-horse (the Horse counter it leads, as a SW; 13.7)");
    c->add_flag("--gallop-at-start", o->gallop_at_start, "Declare a Gallop at the start of the MPh (the same as a first step gallop-start)");
    c->add_option("--phase", o->phase, "mph (default) or aph: (dis)mounting and moving horses are NA in the APh")
        ->check(CLI::IsMember({"mph", "aph"}));
    c->add_flag("--cx", o->cx, "The Cavalry/Horse is already CX (no Gallop may be declared: 13.36)");
    c->add_option("--in", o->in, "The terrain the unit starts in (default open; e.g. marsh: no Gallop declaration)");
    c->add_option("--horse-used", o->horse_used, "MF the horse already used/lost this MPh before this unit (ridden or led by another)")
        ->check(CLI::Range(0, 1000));
    c->add_option("--unit", o->unit, "The unit: squad, half-squad, crew or smc (default smc)");
    c->add_option("--horse", o->horse, "The Horse counter: squad, half-squad or smc (default: the size that fits the unit)");
    c->add_option("--horse-carries", o->horse_carries, "Riders already on that Horse counter, comma-separated (e.g. half-squad,smc)");
    c->add_flag("--not-known", o->not_known, "The Charge's target is not a Known enemy (13.6)");
    c->add_flag("--no-los", o->no_los, "The Charge's target is not in the unit's LOS when declared (13.6)");
    add_rules_option(c, o->rules);
    c->add_flag("--json", o->json, "Print one JSON object: steps (unit_mf_left, horse_mf_left, horse_allotment, legal, rule, ...) and "
                                   "max_cavalry_mf_before_dismount");
    c->footer("Example (13.31 EX 1): vedette asl plan --start infantry move:1 mount gallop\n"
              "Example (13.31 EX 2): vedette asl plan --start mounted --gallop-at-start");
    c->callback([o, &run] { run = [o](Io& io) { return run_plan(*o, io); }; });
  }
  {
    auto o = std::make_shared<ChargeOptions>();
    auto* c = asl->add_subcommand("check-charge", "Whether Cavalry may declare a Charge (13.6), requirement by requirement");
    c->add_option("--range", o->range, "Hexes to the enemy-occupied Location when the Charge is declared")->required()->check(CLI::Range(0, 1000));
    c->add_flag("--not-known", o->not_known, "The enemy there is not Known");
    c->add_flag("--no-los", o->no_los, "The Location is not in the unit's LOS");
    c->add_flag("--dismounted", o->dismounted, "The unit is not mounted (Infantry cannot Charge)");
    c->add_flag("--galloping", o->galloping, "It is already Galloping (otherwise it must declare a Gallop with the Charge)");
    c->add_flag("--cx", o->cx, "The Cavalry/Horse is CX (no Gallop may be declared: 13.36)");
    c->add_option("--in", o->in, "The terrain the unit is in (default open; marsh, deep-stream, fordable-water: no Gallop declaration)");
    c->add_option("--target", o->target, "The target Location's terrain, or how it is entered (repeat: e.g. --target woods, --target one-lane-bridge)");
    c->add_option("--mf-left", o->mf_left, "The horse's MF left before declaring")->check(CLI::Range(0, 1000));
    c->add_option("--cost", o->cost, "MF to reach and enter the target Location (the Charge's 3 MF are added)")->check(CLI::Range(0, 1000));
    add_rules_option(c, o->rules);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = [o](Io& io) { return run_check_charge(*o, io); }; });
  }
  {
    auto o = std::make_shared<WaveOptions>();
    auto* c = asl->add_subcommand("check-wave", "Whether a Cavalry Wave may be declared (13.62)");
    c->add_option("--hex", o->hexes, "One hex of the chain, in order: counts of squads (s), half-squads or crews (h), leaders (l), e.g. "
                                      "1s,1l (repeat for each hex)")
        ->required();
    c->add_option("--enemy-hexes", o->enemy_hexes, "Hexes from the chain's nearest unit to the nearest enemy unit")->check(CLI::Range(0, 1000));
    c->add_option("--mf-to-enemy", o->mf_to_enemy, "Fewest MF from a unit in the chain to an enemy unit it can see")->check(CLI::Range(0, 1000));
    c->add_flag("--no-los", o->no_los, "No unit in the chain has a LOS to an enemy unit");
    c->add_flag("--cannot-gallop", o->cannot_gallop, "A unit of the chain cannot Gallop (CX, or in marsh/deep stream/fordable water)");
    c->add_flag("--with-infantry", o->with_infantry, "Infantry would take part too");
    add_rules_option(c, o->rules);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = [o](Io& io) { return run_check_wave(*o, io); }; });
  }
  {
    auto o = std::make_shared<MountedFireOptions>();
    auto* c = asl->add_subcommand("mounted-fire", "Cavalry's FP as Mounted Fire (13.4): halved except in CC or a Charge (13.6)");
    c->add_option("--fp", o->fp, "The Cavalry's FP")->required()->check(CLI::Range(0, 1000));
    auto* cc = c->add_flag("--cc", o->cc, "In Close Combat");
    auto* ch = c->add_flag("--charge", o->charge, "A Charge attack");
    cc->excludes(ch);
    add_rules_option(c, o->rules);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = [o](Io& io) { return run_mounted_fire(*o, io); }; });
  }
  {
    auto o = std::make_shared<DrmOptions>();
    auto* c = asl->add_subcommand("fire-drm", "The DRM when Cavalry (or its horses) are fired on (13.5, 13.511)");
    c->add_flag("--horse", o->horse, "The attack vs the horses (Vehicle Line), not the Cavalry");
    c->add_flag("--ffmo", o->ffmo, "FFMO would apply");
    c->add_flag("--ffnam", o->ffnam, "FFNAM would apply");
    c->add_flag("--minefield", o->minefield, "A minefield attack");
    add_rules_option(c, o->rules);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = [o](Io& io) { return run_fire_drm(*o, io); }; });
  }
  {
    auto o = std::make_shared<AslCheckOptions>();
    auto* c = asl->add_subcommand("check", "Validate ASL Cavalry table files (the tables/asl_cavalry.yaml format)");
    c->add_option("FILE", o->files, "Files to check")->required();
    c->add_flag("--json", o->json, "Print a JSON array, one entry per file");
    c->callback([o, &run] { run = [o](Io& io) { return run_asl_check(*o, io); }; });
  }
}

}  // namespace vedette::cli
