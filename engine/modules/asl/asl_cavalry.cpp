// Seed 000 (ASL chapter 13, Cavalry): loading tables/asl_cavalry.yaml and
// the mechanisms that apply it (engine/modules/asl/asl_cavalry.hpp explains the model).
#include "engine/modules/asl/asl_cavalry.hpp"

#include <algorithm>
#include <filesystem>

#include "engine/core/builtin_tables.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"

namespace vedette::asl {

namespace {

namespace fs = std::filesystem;
constexpr std::string_view k_builtin = "builtin:";
constexpr int k_max_extends = 16;
constexpr int k_max_mf = 1000;

bool is_builtin(const std::string& p) { return p.rfind(k_builtin, 0) == 0; }

std::string str(int v) { return std::to_string(v); }
std::string mf(int v) { return std::to_string(v) + " MF"; }

// ------------------------------------------------------------------ loading

Doc read_source(const std::string& path) {
  if (is_builtin(path)) {
    auto text = builtin_table(std::string_view(path).substr(k_builtin.size()));
    if (!text) throw LoadError({path, 0, 0}, "no built-in table of that name (built in: builtin:asl_cavalry)");
    return parse_yaml(*text, path);
  }
  return parse_yaml_file(path);
}

// The file with its `extends:` chain merged in (tables/README.md's overlay
// rules), base first in `sources`.
Doc load_chain(const std::string& path, int depth, std::vector<std::string>& sources) {
  Doc doc = read_source(path);
  const Doc* ext = doc.is_map() ? doc.find("extends") : nullptr;
  if (!ext) {
    sources.push_back(path);
    return doc;
  }
  if (!ext->is_scalar() || ext->scalar.empty())
    throw LoadError(ext->where, std::string("expected the path of a base file for extends, found ") + ext->kind_name());
  if (depth >= k_max_extends)
    throw LoadError(ext->where, "extends chain longer than " + str(k_max_extends) + " files (does it extend itself?)");
  std::string base = ext->scalar;
  if (!is_builtin(base) && !fs::path(base).is_absolute() && !is_builtin(path))
    base = (fs::path(path).parent_path() / base).lexically_normal().string();
  if (!is_builtin(base)) {
    std::error_code ec;
    if (!fs::exists(base, ec))
      throw LoadError(ext->where, "extends a file that does not exist: '" + ext->scalar + "' (looked for " + base + ")");
  }
  Doc merged = load_chain(base, depth + 1, sources);
  sources.push_back(path);
  Doc overlay = doc;
  overlay.entries.erase(std::remove_if(overlay.entries.begin(), overlay.entries.end(),
                                       [](const DocEntry& e) { return e.key == "extends"; }),
                        overlay.entries.end());
  return merge_overlay(merged, overlay);
}

struct Builder {
  Diagnostics& d;
  Rules& r;

  void integer(MapReader& m, std::string_view key, const std::string& what, int lo, int hi, int& out, bool required = true) {
    const Doc* x = required ? m.required(key) : m.optional(key);
    if (!x) return;
    if (auto v = read_int(*x, d, what, lo, hi)) out = static_cast<int>(*v);
  }
  void flag(MapReader& m, std::string_view key, const std::string& what, bool& out) {
    if (const Doc* x = m.required(key))
      if (auto v = read_bool(*x, d, what)) out = *v;
  }

  void movement(const Doc& n) {
    MapReader m(n, d, "movement");
    integer(m, "horse_allotment", "movement horse_allotment (13.34)", 1, k_max_mf, r.horse_allotment);
    integer(m, "infantry_allotment", "movement infantry_allotment (13.31, 4.11)", 1, k_max_mf, r.infantry_allotment);
    m.finish();
  }

  void mounting(const Doc& n) {
    MapReader m(n, d, "mounting");
    integer(m, "cost", "mounting cost (13.31)", 0, k_max_mf, r.mount_cost);
    flag(m, "in_aph", "mounting in_aph (13.31)", r.mount_in_aph);
    integer(m, "share_pct", "mounting share_pct (13.31)", 1, 100, r.share_pct);
    if (const Doc* x = m.required("unit_loss_rounding"))
      if (auto i = read_choice(*x, d, "unit_loss_rounding", {k_rounding_names.begin(), k_rounding_names.end()}))
        r.unit_loss_rounding = static_cast<Rounding>(*i);
    flag(m, "count_own_horse_losses", "mounting count_own_horse_losses (13.31)", r.count_own_horse_losses);
    m.finish();
  }

  void gallop(const Doc& n) {
    MapReader m(n, d, "gallop");
    integer(m, "at_start", "gallop at_start (13.36)", 0, k_max_mf, r.gallop_at_start);
    integer(m, "during", "gallop during (13.36)", 0, k_max_mf, r.gallop_during);
    m.finish();
  }

  void terrain(const Doc& n) {
    if (!n.is_map() || n.entries.empty()) {
      d.error(n.where, std::string("expected a map of terrain (id: {text, gallop_declare, gallop_enter, cavalry_mf}), found ") +
                           n.kind_name());
      return;
    }
    for (const auto& e : n.entries) {
      TerrainRule t;
      t.id = e.key;
      std::string what = "terrain '" + e.key + "'";
      if (normalise_id(e.key) != e.key) d.error(e.key_where, what + ": write terrain ids with '_' (e.g. woods_road)");
      MapReader m(e.value, d, what);
      if (const Doc* x = m.required("text")) t.text = read_string(*x, d, what + " text").value_or(e.key);
      if (const Doc* x = m.optional("gallop_declare")) t.gallop_declare = read_bool(*x, d, what + " gallop_declare").value_or(true);
      if (const Doc* x = m.optional("gallop_enter")) t.gallop_enter = read_bool(*x, d, what + " gallop_enter").value_or(true);
      if (const Doc* x = m.optional("cavalry_mf"))
        if (auto v = read_int(*x, d, what + " cavalry_mf", 0, k_max_mf)) t.cavalry_mf = static_cast<int>(*v);
      m.finish();
      r.terrain.push_back(std::move(t));
    }
  }

  void charge(const Doc& n) {
    MapReader m(n, d, "charge");
    integer(m, "min_range_hexes", "charge min_range_hexes (13.6)", 0, k_max_mf, r.charge_min_range);
    integer(m, "extra_mf", "charge extra_mf (13.6)", 0, k_max_mf, r.charge_extra_mf);
    m.finish();
  }

  void fire(const Doc& n) {
    MapReader m(n, d, "fire");
    integer(m, "vulnerability_drm", "fire vulnerability_drm (13.5)", -20, 20, r.vulnerability_drm);
    integer(m, "mounted_fire_divisor", "fire mounted_fire_divisor (13.4)", 1, 100, r.mounted_fire_divisor);
    integer(m, "tpbf_multiplier", "fire tpbf_multiplier (13.6: TPBF)", 1, 100, r.tpbf_multiplier, false);
    m.finish();
  }

  void capacity(const Doc& n) {
    MapReader m(n, d, "capacity");
    for (std::size_t k = 0; k < k_horse_kind_names.size(); ++k) {
      const std::string id(k_horse_kind_names[k]);
      const Doc* x = m.required(id);
      if (!x) continue;
      std::string what = "capacity " + id;
      HorseCapacity& c = r.capacity[k];
      MapReader cm(*x, d, what);
      integer(cm, "depictions", what + " depictions", 1, 10, c.depictions);
      if (const Doc* y = cm.required("mmc"))
        if (auto i = read_choice(*y, d, what + " mmc", {k_mmc_load_names.begin(), k_mmc_load_names.end()}))
          c.mmc = static_cast<MmcLoad>(*i);
      integer(cm, "smc_min", what + " smc_min", 0, 100, c.smc_min, false);
      if (const Doc* y = cm.required("smc_max")) {
        if (y->is_scalar() && !y->quoted && y->scalar == "any") c.smc_max.reset();
        else if (auto v = read_int(*y, d, what + " smc_max (a number, or any)", 0, 100)) c.smc_max = static_cast<int>(*v);
      }
      cm.finish();
      if (cm.ok() && c.smc_max && c.smc_min > *c.smc_max)
        d.error(x->where, what + ": smc_min " + str(c.smc_min) + " is above smc_max " + str(*c.smc_max));
    }
    m.finish();
  }

  void wave(const Doc& n) {
    MapReader m(n, d, "wave");
    WaveRules& w = r.wave;
    integer(m, "min_squad_equivalents_per_hex", "wave min_squad_equivalents_per_hex (13.62)", 0, 100, w.min_squad_equivalents_per_hex);
    integer(m, "enemy_within_hexes", "wave enemy_within_hexes (13.62)", 0, 1000, w.enemy_within_hexes);
    integer(m, "max_mf_to_enemy", "wave max_mf_to_enemy (13.62)", 0, k_max_mf, w.max_mf_to_enemy);
    integer(m, "max_mmc_per_hex", "wave max_mmc_per_hex (13.62)", 0, 100, w.max_mmc_per_hex);
    integer(m, "min_leaders", "wave min_leaders (13.62)", 0, 100, w.min_leaders);
    m.finish();
  }

  void solo(const Doc& n) {
    MapReader m(n, d, "solo");
    integer(m, "walk_mf", "solo walk_mf", 0, k_max_mf, r.solo.walk_mf);
    integer(m, "canter_mf", "solo canter_mf", 0, k_max_mf, r.solo.canter_mf);
    m.finish();
  }

  void build(const Doc& root) {
    MapReader top(root, d, "the ASL Cavalry tables");
    if (!top.ok()) return;
    if (const Doc* x = top.optional("name")) r.name = read_string(*x, d, "name").value_or("");
    if (const Doc* x = top.optional("description")) r.description = read_string(*x, d, "description").value_or("");
    const std::size_t before = d.list().size();
    if (const Doc* x = top.required("movement")) movement(*x);
    if (const Doc* x = top.required("mounting")) mounting(*x);
    const Doc* g = top.required("gallop");
    if (g) gallop(*g);
    if (const Doc* x = top.required("terrain")) terrain(*x);
    if (const Doc* x = top.required("charge")) charge(*x);
    if (const Doc* x = top.required("fire")) fire(*x);
    if (const Doc* x = top.required("capacity")) capacity(*x);
    if (const Doc* x = top.required("wave")) wave(*x);
    if (const Doc* x = top.required("solo")) solo(*x);
    top.finish();
    // 13.31 takes 25% of the current allotment (12, 16 or 20): each must
    // divide into whole MF.
    if (d.list().size() == before && g) {
      for (int a : {r.horse_allotment, r.horse_allotment + r.gallop_during, r.horse_allotment + r.gallop_at_start})
        if (a * r.share_pct % 100 != 0) {
          d.error(g->where, "13.31 takes " + str(r.share_pct) + "% of the horse's current allotment, and " + str(r.share_pct) +
                                "% of " + str(a) + " MF is not a whole number of MF (allotments: horse_allotment, plus "
                                "gallop during or at_start)");
          break;
        }
    }
    if (!r.find_terrain("open") && d.list().size() == before)
      d.error(root.where, "terrain needs 'open' (the terrain a plan starts in)");
  }
};

}  // namespace

const TerrainRule* Rules::find_terrain(std::string_view id) const {
  for (const auto& t : terrain)
    if (t.id == id) return &t;
  return nullptr;
}

std::string normalise_id(std::string s) {
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

std::string dashed(std::string_view id) {
  std::string s(id);
  std::replace(s.begin(), s.end(), '_', '-');
  return s;
}

RulesPtr load_rules(const std::string& path) {
  auto r = std::make_shared<Rules>();
  Doc root = load_chain(path, 0, r->sources);
  Diagnostics d;
  Builder{d, *r}.build(root);
  d.throw_if_any();
  return r;
}

RulesPtr default_rules() {
  static const RulesPtr r = load_rules(std::string(k_builtin_rules));
  return r;
}

// ------------------------------------------------------------------- steps

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && s.size() <= 6 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    auto k = s.find(sep, start);
    out.push_back(s.substr(start, k == std::string::npos ? std::string::npos : k - start));
    if (k == std::string::npos) break;
    start = k + 1;
  }
  return out;
}

std::string terrain_list(const Rules& r) {
  std::string s;
  for (const auto& t : r.terrain) s += (s.empty() ? "" : ", ") + dashed(t.id);
  return s;
}

// A terrain id as written, checked against the rules.
std::optional<std::string> terrain_id(const Rules& r, const std::string& text, const std::string& step, std::string& why) {
  std::string id = normalise_id(text);
  if (r.find_terrain(id)) return id;
  std::vector<std::string> ids;
  for (const auto& t : r.terrain) ids.push_back(t.id);
  std::string near = nearest(id, ids);
  why = step + ": unknown terrain '" + text + "'" + (near.empty() ? "" : " (did you mean '" + dashed(near) + "'?)") +
        "; known: " + terrain_list(r);
  return std::nullopt;
}

}  // namespace

std::optional<Step> parse_step(const Rules& r, const std::string& text, std::string& why) {
  const std::vector<std::string> p = split(text, ':');
  const std::string& head = p[0];
  Step s;
  s.text = text;
  auto no_args = [&](Step::Kind k) -> std::optional<Step> {
    if (p.size() > 1) {
      why = "'" + text + "': " + head + " takes nothing after it (write " + head + ")";
      return std::nullopt;
    }
    s.kind = k;
    return s;
  };
  if (head == "move" || head == "attack") {
    const bool move = head == "move";
    s.kind = move ? Step::Kind::move : Step::Kind::attack;
    const std::string form = move ? "expected move:COST with COST a whole number of MF (or move:COST:TERRAIN)"
                                  : "expected attack:COST with COST a whole number of MF: the cost to enter the target Location "
                                    "(the Charge's 3 MF are added)";
    if (p.size() < 2 || p.size() > (move ? 3u : 2u)) {
      why = "'" + text + "': " + form;
      return std::nullopt;
    }
    if (all_digits(p[1])) {
      s.cost = std::stoi(p[1]);
      if (p.size() == 3) {
        auto t = terrain_id(r, p[2], "'" + text + "'", why);
        if (!t) return std::nullopt;
        s.terrain = *t;
      }
      return s;
    }
    // move:TERRAIN for a terrain whose Cavalry cost the seed gives (13.3).
    if (move && p.size() == 2) {
      const TerrainRule* t = r.find_terrain(normalise_id(p[1]));
      if (t && t->cavalry_mf) {
        s.terrain = t->id;
        return s;
      }
    }
    why = "'" + text + "': " + form;
    if (move) {
      std::string with_cost;
      for (const auto& t : r.terrain)
        if (t.cavalry_mf) with_cost += (with_cost.empty() ? "" : ", ") + dashed(t.id);
      if (!with_cost.empty()) why += "; move:TERRAIN only for a terrain whose Cavalry cost the seed gives (" + with_cost + ")";
    }
    return std::nullopt;
  }
  if (head == "mount") return no_args(Step::Kind::mount);
  if (head == "dismount") return no_args(Step::Kind::dismount);
  if (head == "gallop") return no_args(Step::Kind::gallop);
  if (head == "gallop-start" || head == "gallop_start") return no_args(Step::Kind::gallop_start);
  if (head == "charge") {
    s.kind = Step::Kind::charge;
    const std::string form =
        "expected charge:RANGE or charge:RANGE:TERRAIN, RANGE the hexes to the Known enemy Location when the Charge is "
        "declared, TERRAIN that Location's";
    if (p.size() < 2 || p.size() > 3 || !all_digits(p[1])) {
      why = "'" + text + "': " + form;
      return std::nullopt;
    }
    s.range = std::stoi(p[1]);
    if (p.size() == 3) {
      auto t = terrain_id(r, p[2], "'" + text + "'", why);
      if (!t) return std::nullopt;
      s.terrain = *t;
    }
    return s;
  }
  if (head == "eliminate-horse" || head == "eliminate_horse") return no_args(Step::Kind::eliminate_horse);
  if (head == "assault-move" || head == "assault_move") {
    s.kind = Step::Kind::assault_move;
    if (p.size() != 2 || !all_digits(p[1])) {
      why = "'" + text + "': expected assault-move:COST with COST a whole number of Infantry MF";
      return std::nullopt;
    }
    s.cost = std::stoi(p[1]);
    return s;
  }
  if (head == "min-move" || head == "min_move") {
    s.kind = Step::Kind::min_move;
    if (p.size() > 2) {
      why = "'" + text + "': expected min-move or min-move:TERRAIN";
      return std::nullopt;
    }
    if (p.size() == 2) {
      auto t = terrain_id(r, p[1], "'" + text + "'", why);
      if (!t) return std::nullopt;
      s.terrain = *t;
    }
    return s;
  }
  std::vector<std::string> heads{"move", "mount", "dismount", "gallop", "gallop-start", "charge", "attack", "min-move", "assault-move", "eliminate-horse"};
  std::string near = nearest(head, heads);
  why = "unknown step '" + text + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
        "; steps: move:COST[:TERRAIN], mount, dismount, gallop, gallop-start, charge:RANGE[:TERRAIN], attack:COST, min-move, "
        "assault-move:COST, eliminate-horse";
  return std::nullopt;
}

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
                                    " left of its basic " + str(r.infantry_allotment) + "-MF allotment (4.11)");
    n.unit_expended += c;
    if (!s.terrain.empty()) n.terrain = s.terrain;
    return ok(s, n, "13.31", "moves as Infantry" + into + ": " + mf(c) + " of its basic " + str(r.infantry_allotment) +
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
                                    str(s_.horse_allotment) + "-MF allotment");
  n.horse_used += c;
  if (!s.terrain.empty()) n.terrain = s.terrain;
  std::string why = "rides " + mf(c) + " (Cavalry MF, 13.3)" + into + " on the horse's " + str(s_.horse_allotment) + "-MF allotment" +
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
                                str(r.share_pct) + "% of " + str(s_.horse_allotment) + ")";
  const std::string horse_part = "the horse loses " + mf(horse_loss) + " (" + str(r.share_pct) + "% of " + str(s_.horse_allotment) +
                                 " = " + mf(share) + " for each of the " + mf(charged_now) + " the unit expended" +
                                 (s_.unit_charged ? " since its last (dis)mounting" : " this MPh") + ")";
  std::string problems;
  if (n.unit_expended + n.unit_lost > r.infantry_allotment)
    problems = unit_part + ": " + mf(n.unit_expended - s_.unit_expended + unit_loss) + ", more than the " + mf(s_.unit_left(r)) +
               " left of its basic " + str(r.infantry_allotment) + "-MF allotment";
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
            std::string("declares a Gallop ") + (at_start ? "at the start of" : "during") + " its MPh: allotment +" + str(add) + " to " +
                mf(n.horse_allotment) + ", " + mf(n.horse_left()) + " available; CX counter on the Horse counter");
}

StepResult Planner::charge(const Step& s) {
  const Rules& r = *r_;
  if (start_.phase == Phase::aph) return na(s, s_, "13.6", "a Charge is declared in the MPh");
  if (s_.charge_pending)
    return na(s, s_, "13.6", "a Charge declared at " + str(s_.charge_range) +
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
  std::string why = "declares a Charge vs the Known enemy Location " + str(s.range) + " hexes away in its LOS" +
                    (s.terrain.empty() ? "" : " (" + terrain_text(r, s.terrain) + ")");
  if (c.declares_gallop)
    why += ", declaring a Gallop with it (13.36: allotment +" + str(r.gallop_during) + " to " + mf(n.horse_allotment) + ", CX)";
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
                                  str(r.infantry_allotment) + "-MF allotment (4.11)");
  PlanState n = s_;
  n.unit_expended += c;
  n.assault_moved = true;
  return ok(s, n, "13.7",
            "uses Assault Movement as Infantry: " + mf(c) + " of its basic " + str(r.infantry_allotment) +
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
      m.text = "move:" + str(k);
      // Galloping or not, plain MF (no terrain named).
      if (!p.apply(m).legal) break;
    }
    if (p.apply(dismount).legal) best = k;
  }
  return best;
}

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
    why = "a " + horse_text(horse) + " (" + str(c.depictions) + " horse depictions) carries " +
          (cap == 0 ? std::string("no MMC") : cap == 1 ? std::string("only a HS-equivalent") : std::string("only one squad-equivalent")) +
          " of MMC";
    return false;
  }
  if (c.smc_max && smc > *c.smc_max) {
    why = "a " + horse_text(horse) + " carries at most " + str(*c.smc_max) + " SMC";
    return false;
  }
  if (!riders.empty() && smc < c.smc_min && halves == 0) {
    why = "a " + horse_text(horse) + " carries at least " + str(c.smc_min) + " SMC";
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
  add("a range of " + str(r.charge_min_range) + " or more hexes when declared", far,
      "range " + str(in.range) + (in.range == 1 ? " hex" : " hexes") + (far ? "" : ": too close to declare a Charge"), "13.6");
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
    f.why = "horses are attacked on the Vehicle Line of the IFT and are not subject to the " + str(r.vulnerability_drm) +
            " DRM for Cavalry or to FFMO/FFNAM (13.511)";
    return f;
  }
  if (minefield) {
    f.drm = 0;
    f.why = "no Cavalry DRM on a minefield attack (13.5 EXC)";
    return f;
  }
  f.drm = r.vulnerability_drm;
  f.why = str(r.vulnerability_drm) + " IFT (or ordnance TH) DRM vs Cavalry (13.5)";
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
      m.why = "Mounted Fire: FP divided by " + str(r.mounted_fire_divisor) + " (13.4)";
      break;
    case FireKind::close_combat: m.why = "not halved in CC (13.4)"; break;
    case FireKind::charge:
      // 13.6: the Charge attacks "with TPBF ... neither halved for Mounted
      // Fire": FP times tpbf_multiplier (13.6's EX: a 2-3-7 makes a six-FP
      // (TPBF) Charge attack).
      m.num = fp * r.tpbf_multiplier;
      m.why = "a Charge attack is TPBF (FP x" + str(r.tpbf_multiplier) +
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
  add("a chain of hexes", hexes > 0, str(hexes) + (hexes == 1 ? " hex" : " hexes") + " given");
  std::string thin;
  int mmc = 0, leaders = 0;
  for (int k = 0; k < hexes; ++k) {
    const WaveHex& h = in.chain[static_cast<std::size_t>(k)];
    if (2 * h.squads + h.half_squads < 2 * w.min_squad_equivalents_per_hex) thin += (thin.empty() ? "" : ", ") + str(k + 1);
    mmc += h.squads + h.half_squads;
    leaders += h.leaders;
  }
  add("at least " + str(w.min_squad_equivalents_per_hex) + " squad-equivalent of Cavalry in each hex of the chain", thin.empty() && hexes > 0,
      thin.empty() ? "every hex has one" : "too few in hex " + thin);
  if (in.nearest_enemy_hexes) {
    const bool far = *in.nearest_enemy_hexes > w.enemy_within_hexes;
    add("no unit in the chain within " + str(w.enemy_within_hexes) + " hexes of an enemy unit", far,
        "nearest enemy unit " + str(*in.nearest_enemy_hexes) + " hexes away" + (far ? "" : ": too close"));
  } else {
    add("no unit in the chain within " + str(w.enemy_within_hexes) + " hexes of an enemy unit", false,
        "not given: how many hexes from the chain is the nearest enemy unit?");
  }
  const bool near_enough = in.mf_to_enemy && *in.mf_to_enemy <= w.max_mf_to_enemy;
  add("at least one unit within " + str(w.max_mf_to_enemy) + " MF of, and with a LOS to, an enemy unit", near_enough && in.los_to_enemy,
      !in.mf_to_enemy ? std::string("not given: the fewest MF from a unit in the chain to an enemy unit it can see")
                      : mf(*in.mf_to_enemy) + (near_enough ? "" : " (more than " + mf(w.max_mf_to_enemy) + ")") +
                            (in.los_to_enemy ? ", in LOS" : ", but no LOS"));
  add("all units able to Gallop at once", in.all_can_gallop,
      in.all_can_gallop ? "all Gallop (13.36: CX)" : "a unit cannot Gallop (CX, or in a marsh, deep stream or fordable Water Obstacle: 13.36)");
  const bool avg = hexes > 0 && mmc <= w.max_mmc_per_hex * hexes;
  add("an average of no more than " + str(w.max_mmc_per_hex) + " MMC per hex", avg,
      str(mmc) + " MMC in " + str(hexes) + (hexes == 1 ? " hex" : " hexes"));
  add("at least " + str(w.min_leaders) + " leader participating", leaders >= w.min_leaders, str(leaders) + (leaders == 1 ? " leader" : " leaders"));
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
