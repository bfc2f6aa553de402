// Seed 000 (ASL chapter 13, Cavalry): loading tables/asl_cavalry.yaml and
// parsing a plan's steps (engine/modules/asl/asl_cavalry.hpp explains the model).
// The planner: engine/modules/asl/asl_planner.cpp; the checks:
// engine/modules/asl/asl_checks.cpp.
#include "engine/modules/asl/asl_cavalry.hpp"
#include "engine/core/words.hpp"

#include <algorithm>
#include <filesystem>

#include "engine/core/builtin_tables.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "engine/core/schema_notes.hpp"

namespace vedette::asl {

namespace {

namespace fs = std::filesystem;
constexpr std::string_view k_builtin = "builtin:";
constexpr int k_max_extends = 16;
constexpr int k_max_mf = 1000;

bool is_builtin(const std::string& p) { return p.rfind(k_builtin, 0) == 0; }


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
    throw LoadError(ext->where, "extends chain longer than " + std::to_string(k_max_extends) + " files (does it extend itself?)");
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
        note_words(*y, {"any"});
        if (y->is_scalar() && !y->quoted && y->scalar == "any") c.smc_max.reset();
        else if (auto v = read_int(*y, d, what + " smc_max (a number, or any)", 0, 100)) c.smc_max = static_cast<int>(*v);
      }
      cm.finish();
      if (cm.ok() && c.smc_max && c.smc_min > *c.smc_max)
        d.error(x->where, what + ": smc_min " + std::to_string(c.smc_min) + " is above smc_max " + std::to_string(*c.smc_max));
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
          d.error(g->where, "13.31 takes " + std::to_string(r.share_pct) + "% of the horse's current allotment, and " + std::to_string(r.share_pct) +
                                "% of " + std::to_string(a) + " MF is not a whole number of MF (allotments: horse_allotment, plus "
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

}  // namespace vedette::asl
