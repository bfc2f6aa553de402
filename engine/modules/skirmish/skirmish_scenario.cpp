// The loader of skirmish scenarios (first key `skirmish`; engine/modules/skirmish/skirmish.hpp).
#include <filesystem>
#include <limits>

#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "engine/core/schema_notes.hpp"
#include "engine/modules/skirmish/skirmish.hpp"

namespace vedette {

namespace fs = std::filesystem;

bool is_skirmish(const Doc& root) { return root.is_map() && !root.entries.empty() && root.entries.front().key == "skirmish"; }

bool is_skirmish_file(const std::string& path) {
  try {
    return is_skirmish(parse_yaml_file(path));
  } catch (const LoadError&) {
    return false;
  }
}

void build_tables(SkirmishScenario& s, const Tabletop& terrain, const std::vector<bool>& action_to_cross) {
  auto foot = std::make_shared<Tabletop>(terrain.width(), terrain.depth());
  auto horse = std::make_shared<Tabletop>(terrain.width(), terrain.depth());
  for (std::size_t a = 0; a < terrain.areas().size(); ++a) {
    TerrainArea area = terrain.areas()[a];
    foot->add_area(area);
    for (const auto& b : s.buildings)
      if (b.area == a && b.large_doors.empty()) area.move_cost = TerrainArea::impassable;  // seed 001: no large door, no horse
    horse->add_area(std::move(area));
  }
  for (std::size_t o = 0; o < terrain.obstacles().size(); ++o) {
    Obstacle ob = terrain.obstacles()[o];
    const bool action = o < action_to_cross.size() && action_to_cross[o];
    // Seed 001: what costs infantry an action costs cavalry 1in.
    Obstacle f = ob, h = ob;
    if (action) {
      f.crossing_cost = Length::cm(std::numeric_limits<double>::infinity());  // crossed as a whole action (SkirmishGame::move)
      h.crossing_cost = s.sk->obstacle_penalty;
    }
    foot->add_obstacle(std::move(f));
    horse->add_obstacle(std::move(h));
  }
  // Choice (EXAMPLE): a wall covers only a man within wall_cover_reach of it.
  foot->set_obstacle_cover_reach(s.sk->wall_cover_reach);
  horse->set_obstacle_cover_reach(s.sk->wall_cover_reach);
  s.foot = std::move(foot);
  s.horse = std::move(horse);
  if (s.terrain.get() != &terrain) s.terrain = std::make_shared<const Tabletop>(terrain);
  s.action_to_cross = action_to_cross;
}

namespace {

std::optional<Point> read_point(const Doc& n, Diagnostics& d, const std::string& what) {
  note_items(n, 2);
  if (!n.is_sequence() || n.items.size() != 2) {
    d.error(n.where, "expected a point [X, Y] (two lengths) for " + what + ", found " + n.kind_name());
    return std::nullopt;
  }
  auto x = read_length(n.items[0], d, what + " x");
  auto y = read_length(n.items[1], d, what + " y");
  if (!x || !y) return std::nullopt;
  return Point{x->as_cm(), y->as_cm()};
}

std::vector<Point> read_points(const Doc& n, Diagnostics& d, const std::string& what, std::size_t min) {
  std::vector<Point> out;
  if (!n.is_sequence() || n.items.size() < min) {
    d.error(n.where, "expected a list of at least " + std::to_string(min) + " points for " + what + ", found " + n.kind_name());
    return out;
  }
  for (const Doc& it : n.items)
    if (auto p = read_point(it, d, what)) out.push_back(*p);
  return out;
}

struct Loader {
  Diagnostics& d;
  SkirmishScenario& s;
  Tabletop* table = nullptr;
  std::vector<bool> action_to_cross;

  void area(const Doc& n, bool building) {
    const std::string what = building ? "building" : "area";
    MapReader m(n, d, what);
    if (!m.ok()) return;
    TerrainArea a;
    if (auto x = m.required("name")) a.name = read_string(*x, d, what + " name").value_or("");
    const Doc* poly = m.optional("polygon");
    const Doc* circ = m.optional("circle");
    if (poly) {
      Polygon p;
      p.vertices = read_points(*poly, d, what + " polygon", 3);
      a.shape = p;
    } else if (circ) {
      MapReader c(*circ, d, what + " circle");
      Circle ci;
      if (auto x = c.required("centre"))
        if (auto p = read_point(*x, d, what + " circle centre")) ci.centre = *p;
      if (auto x = c.required("radius"))
        if (auto r = read_length(*x, d, what + " circle radius")) ci.radius = r->as_cm();
      c.finish();
      a.shape = ci;
    } else {
      d.error(n.where, "expected `polygon` or `circle` for " + what + " '" + a.name + "'");
    }
    if (auto x = m.optional("cover")) a.cover = static_cast<int>(read_int(*x, d, what + " cover", 0, 100).value_or(0));
    if (auto x = m.optional("move_cost")) a.move_cost = read_number(*x, d, what + " move_cost", 1, 100).value_or(1);
    a.blocks_sight = building;
    if (auto x = m.optional("blocks_sight")) a.blocks_sight = read_bool(*x, d, what + " blocks_sight").value_or(building);
    SkirmishBuilding b;
    if (building) {
      b.name = a.name;
      if (auto x = m.optional("large_doors")) b.large_doors = read_points(*x, d, "building large_doors", 0);
    }
    m.finish();
    if (!d.empty()) return;
    try {
      const std::size_t idx = table->add_area(std::move(a));
      if (building) {
        b.area = idx;
        s.buildings.push_back(std::move(b));
      }
    } catch (const std::invalid_argument& e) {
      d.error(n.where, std::string("bad ") + what + ": " + e.what());
    }
  }

  void wall(const Doc& n) {
    MapReader m(n, d, "wall");
    if (!m.ok()) return;
    Obstacle o;
    bool action = true;
    if (auto x = m.required("name")) o.name = read_string(*x, d, "wall name").value_or("");
    if (auto x = m.required("path")) o.path = read_points(*x, d, "wall path", 2);
    if (auto x = m.optional("cover")) o.cover = static_cast<int>(read_int(*x, d, "wall cover", 0, 100).value_or(0));
    if (auto x = m.optional("action_to_cross")) action = read_bool(*x, d, "wall action_to_cross").value_or(true);
    o.crossing_cost = Length::cm(0);
    if (auto x = m.optional("crossing_cost"))
      if (auto l = read_length(*x, d, "wall crossing_cost")) o.crossing_cost = *l;
    m.finish();
    if (!d.empty()) return;
    try {
      table->add_obstacle(std::move(o));
      action_to_cross.push_back(action);
    } catch (const std::invalid_argument& e) {
      d.error(n.where, std::string("bad wall: ") + e.what());
    }
  }

  template <class F>
  void list(MapReader& m, const char* key, F&& each) {
    if (auto x = m.optional(key)) {
      if (!x->is_sequence()) d.error(x->where, std::string("expected a list for ") + key + ", found " + x->kind_name());
      else
        for (const Doc& it : x->items) each(it);
    }
  }

  std::optional<std::uint8_t> side_named(const Doc& n, const std::string& what) {
    auto name = read_string(n, d, what);
    if (!name) return std::nullopt;
    for (std::uint8_t k = 0; k < 2; ++k)
      if (s.sides[k].name == *name) return k;
    d.error(n.where, "expected a side's name (" + s.sides[0].name + " or " + s.sides[1].name + ") for " + what + ", found '" + *name + "'");
    return std::nullopt;
  }
};

// `sides:`: exactly two, each with its name, edge, bot and objective.
void read_sides(const Doc& node, Diagnostics& d, SkirmishScenario& sc) {
  const Doc* x = &node;
  SkirmishScenario* s = &sc;
  note_items(*x, 2);
  if (!x->is_sequence() || x->items.size() != 2) {
    d.error(x->where, std::string("expected a list of exactly two sides, found ") + x->kind_name());
  } else {
    for (std::size_t k = 0; k < 2; ++k) {
      MapReader m(x->items[k], d, "side");
      if (!m.ok()) continue;
      auto& sd = s->sides[k];
      if (auto y = m.required("name")) sd.name = read_string(*y, d, "side name").value_or("");
      if (auto y = m.required("edge"))
        if (auto i = read_choice(*y, d, "side edge", {"bottom", "top", "left", "right"})) sd.edge = static_cast<Edge>(*i);
      if (auto y = m.required("bot"))
        if (auto i = read_choice(*y, d, "side bot", {"skirmish_patrol", "skirmish_squad"})) sd.bot = *i == 0 ? "skirmish_patrol" : "skirmish_squad";
      if (auto y = m.optional("objective")) sd.objective = read_point(*y, d, "side objective");
      m.finish();
    }
    if (s->sides[0].name == s->sides[1].name) d.error(x->where, "expected two sides with different names");
  }
}

// `figures:` (after the ruleset: they name its weapons): each figure on the
// table, names unique, a rider behind only on a mounted figure of its side.
void read_figures(const Doc& node, Loader& L, const Tabletop& tab) {
  const Doc* figs = &node;
  Diagnostics& d = L.d;
  SkirmishScenario* s = &L.s;
  const Tabletop* table = &tab;
  if (!figs->is_sequence() || figs->items.empty()) d.error(figs->where, std::string("expected a list of figures, found ") + figs->kind_name());
  else
    for (const Doc& n : figs->items) {
      MapReader m(n, d, "figure");
      if (!m.ok()) continue;
      SkirmishFigureSpec f;
      f.where = n.where;
      if (auto y = m.required("name")) f.name = read_string(*y, d, "figure name").value_or("");
      if (auto y = m.required("side"))
        if (auto k = L.side_named(*y, "figure side")) f.side = *k;
      if (auto y = m.required("skill")) f.skill = static_cast<int>(read_int(*y, d, "figure skill", 0, 1000).value_or(10));
      if (auto y = m.required("weapon"))
        if (auto w = read_string(*y, d, "figure weapon")) {
          if (const SkirmishWeapon* p = s->sk->find_weapon(*w)) f.weapon = static_cast<std::size_t>(p - s->sk->weapons.data());
          else d.error(y->where, "expected a weapon of the ruleset's skirmish.base_game.weapons, found '" + *w + "'");
        }
      if (auto y = m.required("position"))
        if (auto p = read_point(*y, d, "figure position")) f.position = *p;
      if (auto y = m.optional("facing")) f.facing = read_number(*y, d, "figure facing", -360, 360).value_or(0);
      if (auto y = m.optional("horse")) f.horse = read_bool(*y, d, "figure horse").value_or(false);
      if (auto y = m.optional("behind")) f.behind = read_string(*y, d, "figure behind").value_or("");
      if (auto y = m.optional("prone")) f.prone = read_bool(*y, d, "figure prone").value_or(false);
      if (auto y = m.optional("role"))
        if (auto i = read_choice(*y, d, "figure role", {"charger", "skirmisher", "dismount", "holder", "rifleman"})) f.role = std::array{"charger", "skirmisher", "dismount", "holder", "rifleman"}[*i];
      m.finish();
      if (!table->on_board(f.position)) d.error(n.where, "figure '" + f.name + "' stands off the table");
      for (const auto& o : s->figures)
        if (o.name == f.name) d.error(n.where, "figure name '" + f.name + "' is used twice");
      s->figures.push_back(std::move(f));
    }
  for (const auto& f : s->figures) {
    if (f.behind.empty()) continue;
    bool ok = false;
    for (const auto& o : s->figures) ok = ok || (o.name == f.behind && o.horse && o.side == f.side);
    if (!ok || f.horse) d.error(f.where, "figure '" + f.name + "' rides behind '" + f.behind + "': expected a mounted figure of its side, and no horse of its own");
  }
}

}  // namespace

SkirmishScenarioPtr load_skirmish_scenario(const std::string& path, const std::string& ruleset_override) {
  Doc root = parse_yaml_file(path);
  auto s = std::make_shared<SkirmishScenario>();
  s->file = path;
  Diagnostics d;
  Loader L{d, *s, nullptr, {}};
  MapReader top(root, d, "the skirmish scenario");
  if (!top.ok()) d.throw_if_any();
  if (auto x = top.required("skirmish")) s->name = read_string(*x, d, "skirmish (its name)").value_or("");
  if (auto x = top.optional("description")) s->description = read_string(*x, d, "description").value_or("");
  std::string ruleset = "builtin:default";
  const Doc* rn = top.required("ruleset");
  if (rn) note_example(*rn, "builtin:skirmish");
  if (rn)
    if (auto v = read_string(*rn, d, "ruleset")) {
      ruleset = *v;
      if (ruleset.rfind("builtin:", 0) != 0 && !fs::path(ruleset).is_absolute()) ruleset = (fs::path(path).parent_path() / ruleset).lexically_normal().string();
    }
  if (!ruleset_override.empty()) ruleset = ruleset_override;
  Length width = Length::in(48), depth = Length::in(48);
  if (auto x = top.required("table")) {
    MapReader m(*x, d, "table");
    if (auto y = m.required("width")) width = read_length(*y, d, "table width").value_or(width);
    if (auto y = m.required("depth")) depth = read_length(*y, d, "table depth").value_or(depth);
    m.finish();
  }
  std::unique_ptr<Tabletop> table;
  try {
    table = std::make_unique<Tabletop>(width, depth);
  } catch (const std::invalid_argument&) {
    d.error(root.where, "expected a table of positive width and depth");
    d.throw_if_any();
  }
  L.table = table.get();
  if (auto x = top.optional("terrain")) {
    MapReader m(*x, d, "terrain");
    L.list(m, "buildings", [&](const Doc& n) { L.area(n, true); });
    L.list(m, "areas", [&](const Doc& n) { L.area(n, false); });
    L.list(m, "walls", [&](const Doc& n) { L.wall(n); });
    m.finish();
  }
  if (auto x = top.required("sides")) read_sides(*x, d, *s);
  if (auto x = top.optional("turns")) s->turns = static_cast<int>(read_int(*x, d, "turns", 1, 1000).value_or(10));
  if (auto x = top.optional("breaks_at_pct")) {
    MapReader m(*x, d, "breaks_at_pct");
    note_named_keys(*x);
    for (std::size_t k = 0; k < 2; ++k)
      if (auto y = m.optional(s->sides[k].name)) s->breaks_at_pct[k] = static_cast<int>(read_int(*y, d, "breaks_at_pct", 1, 100).value_or(50));
    m.finish();
  }
  if (auto x = top.optional("at_turn_limit")) s->at_turn_limit = L.side_named(*x, "at_turn_limit");
  if (auto x = top.optional("mounted_melee_in_buildings")) s->mounted_melee_in_buildings = read_bool(*x, d, "mounted_melee_in_buildings").value_or(false);
  const Doc* figs = top.required("figures");
  top.finish();

  // The ruleset (its `skirmish:` section) before the figures: they name its weapons.
  RulesetPtr rules;
  try {
    rules = load_ruleset(ruleset);
  } catch (const LoadError& e) {
    std::vector<Diagnostic> all = d.list();
    all.push_back({rn ? rn->where : root.where, "the ruleset this scenario names does not load:"});
    all.insert(all.end(), e.diagnostics().begin(), e.diagnostics().end());
    throw LoadError(std::move(all));
  }
  if (!rules->skirmish) d.error(rn ? rn->where : root.where, "expected a ruleset with a `skirmish:` section (seed 001; tables/skirmish.yaml), found '" + rules->name + "'");
  d.throw_if_any();
  s->rules = rules;
  s->sk = &*rules->skirmish;

  if (figs) read_figures(*figs, L, *table);
  d.throw_if_any();
  build_tables(*s, *table, L.action_to_cross);
  return s;
}

SkirmishScenarioPtr with_rules(const SkirmishScenario& s, RulesetPtr rules) {
  if (!rules->skirmish)
    throw LoadError({rules->sources.empty() ? rules->name : rules->sources.back(), 0, 0},
                    "has no `skirmish:` section, which skirmish scenario " + s.file + " needs (seed 001; tables/skirmish.yaml)");
  auto copy = std::make_shared<SkirmishScenario>(s);
  copy->rules = rules;
  copy->sk = &*rules->skirmish;
  for (auto& f : copy->figures) {
    const std::string& id = s.sk->weapons[f.weapon].id;
    const SkirmishWeapon* w = copy->sk->find_weapon(id);
    if (!w) throw LoadError({rules->sources.empty() ? rules->name : rules->sources.back(), 0, 0}, "has no skirmish weapon '" + id + "', which scenario " + s.file + " uses");
    f.weapon = static_cast<std::size_t>(w - copy->sk->weapons.data());
  }
  // Rebuild the tables: the foot move and obstacle penalty may differ.
  build_tables(*copy, *s.terrain, s.action_to_cross);
  return copy;
}

}  // namespace vedette
