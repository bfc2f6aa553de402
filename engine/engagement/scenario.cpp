// Scenario loading and validation: sims/scenarios/*.yaml -> Scenario.
#include "engine/engagement/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "engine/core/doc.hpp"
#include "engine/core/schema_notes.hpp"
#include "engine/modules/blocks/seed004.hpp"
#include "engine/core/words.hpp"

namespace vedette {

std::optional<std::uint8_t> Scenario::find_side(std::string_view n) const {
  for (std::size_t i = 0; i < sides.size(); ++i)
    if (sides[i].name == n) return static_cast<std::uint8_t>(i);
  return std::nullopt;
}

bool is_scenario_file(const std::string& path) {
  try {
    Doc d = parse_yaml_file(path);
    return d.is_map() && !d.entries.empty() && d.entries.front().key == "scenario";
  } catch (const LoadError&) {
    return false;
  }
}

namespace {

namespace fs = std::filesystem;

std::string fmt(Length l) { return format_length(l, LengthUnit::cm); }

// A terrain outline: at most this many points (each pair of sides is
// checked for crossing).
constexpr std::size_t k_max_polygon_points = 1000;

// Orientation of c about the line a-b: -1, 0 (on the line), 1.
int orient(Point a, Point b, Point c) {
  const double v = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  return (v > 0) - (v < 0);
}
bool on_segment(Point a, Point b, Point c) {  // c on a-b, given collinear
  return std::min(a.x, b.x) <= c.x && c.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= c.y && c.y <= std::max(a.y, b.y);
}
bool segments_meet(Point a, Point b, Point c, Point e) {
  const int o1 = orient(a, b, c), o2 = orient(a, b, e), o3 = orient(c, e, a), o4 = orient(c, e, b);
  if (o1 != o2 && o3 != o4) return true;
  return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, e)) || (o3 == 0 && on_segment(c, e, a)) ||
         (o4 == 0 && on_segment(c, e, b));
}

// The first two sides (i < j, each by its first point) of a closed outline
// that touch or cross, other than neighbours at their shared point; nullopt
// for a simple polygon. Neighbours folding back along each other count.
std::optional<std::pair<std::size_t, std::size_t>> self_crossing(const std::vector<Point>& v) {
  const std::size_t n = v.size();
  auto at = [&](std::size_t k) { return v[k % n]; };
  for (std::size_t j = 1; j < n; ++j)
    for (std::size_t i = 0; i < j; ++i) {
      const bool neighbours = j == i + 1 || (i == 0 && j == n - 1);
      if (!neighbours) {
        if (segments_meet(at(i), at(i + 1), at(j), at(j + 1))) return std::pair{i, j};
      } else {
        // Neighbours share a point; they must not overlap beyond it.
        const std::size_t shared = j == i + 1 ? j : i;
        const Point s = at(shared), a = at(shared + n - 1), b = at(shared + 1);
        if (orient(a, s, b) == 0 && ((a.x - s.x) * (b.x - s.x) + (a.y - s.y) * (b.y - s.y)) > 0) return std::pair{i, j};
      }
    }
  return std::nullopt;
}

struct ScenarioBuilder {
  Diagnostics& d;
  Scenario& s;
  std::span<const std::string> bots;
  std::shared_ptr<Tabletop> tab{};  // being built; published as s.table
  std::shared_ptr<HexBoard> hexb{};  // a hex board being built; published as s.hex

  // ----- hex boards and seed 004 block units (issue 8)

  // `blocks: PATH`: the seed 004 table (a path relative to the scenario, or
  // builtin:seed004, the built-in copy of tables/seed004.yaml).
  void blocks(const Doc& n, const std::string& path) {
    auto v = read_string(n, d, "blocks (the seed 004 table, e.g. ../../tables/seed004.yaml or builtin:seed004)");
    note_example(n, "builtin:seed004");
    if (!v) return;
    std::string p = *v;
    if (p.rfind("builtin:", 0) != 0 && !fs::path(p).is_absolute()) p = (fs::path(path).parent_path() / p).lexically_normal().string();
    try {
      s.blocks = load_seed004(p);
    } catch (const LoadError& e) {
      d.error(n.where, "the seed 004 table '" + *v + "' does not load:");
      for (const auto& x : e.diagnostics()) d.error(x.where, x.message);
    }
  }

  std::optional<Hex> hex_at(const Doc& n, const std::string& what) {
    note_items(n, 2);
    if (!n.is_sequence() || n.items.size() != 2) {
      d.error(n.where, "expected a hex [col, row] of two whole numbers for " + what + ", found " +
                           (n.is_sequence() ? "a list of " + std::to_string(n.items.size()) : std::string(n.kind_name())));
      return std::nullopt;
    }
    auto c = read_int(n.items[0], d, what + " col", 0, 999);
    auto r = read_int(n.items[1], d, what + " row", 0, 999);
    if (!c || !r) return std::nullopt;
    const Hex h = HexBoard::from_offset(static_cast<int>(*c), static_cast<int>(*r));
    if (hexb && !hexb->on_board(h)) {
      d.error(n.where, what + " at hex [" + std::to_string(*c) + ", " + std::to_string(*r) + "] is off the " +
                           std::to_string(hexb->cols()) + " x " + std::to_string(hexb->rows()) +
                           " board (cols 0 to " + std::to_string(hexb->cols() - 1) + ", rows 0 to " +
                           std::to_string(hexb->rows() - 1) + ")");
      return std::nullopt;
    }
    return h;
  }

  // board: {type: hex, cols, rows, size, terrain: {NAME: [[col, row], ...]}}
  void hex_board(const Doc& n) {
    MapReader m(n, d, "board");
    if (!m.ok()) return;
    if (auto x = m.required("type")) read_choice(*x, d, "board type", {"hex"});
    std::optional<long long> cols, rows;
    std::optional<Length> size;
    if (auto x = m.required("cols")) cols = read_int(*x, d, "board cols", 1, 200);
    if (auto x = m.required("rows")) rows = read_int(*x, d, "board rows", 1, 200);
    const Doc* sd = m.required("size");
    if (sd) size = read_length(*sd, d, "board size (a hex, centre to centre)");
    const Doc* terrain = m.optional("terrain");
    m.finish();
    if (sd && size && !(size->as_cm() > 0)) {
      d.error(sd->where, "the hex size must be more than zero");
      return;
    }
    if (!cols || !rows || !size) return;
    hexb = std::make_shared<HexBoard>(static_cast<int>(*cols), static_cast<int>(*rows), *size);
    if (!terrain) return;
    if (!s.blocks) {
      d.error(terrain->where, "hex terrain names the seed 004 table's terrain kinds: add `blocks: PATH` (e.g. ../../tables/seed004.yaml)");
      return;
    }
    if (!terrain->is_map()) {
      d.error(terrain->where, std::string("expected a map of terrain names to lists of hexes, found ") + terrain->kind_name());
      return;
    }
    std::vector<std::string> names;
    for (const auto& t : s.blocks->terrain) names.push_back(t.name);
    std::vector<std::size_t> index(names.size(), 0);
    std::vector<std::pair<Hex, std::string>> seen;
    for (const auto& e : terrain->entries) {
      Doc key;
      key.kind = Doc::Kind::scalar;
      key.scalar = e.key;
      key.where = e.key_where;
      auto k = read_name(key, d, "hex terrain (a terrain of the seed 004 table)", names);
      if (!k) continue;
      if (index[*k] == 0 && s.blocks->terrain[*k].name != "open") index[*k] = hexb->add_terrain(s.blocks->terrain[*k]);
      if (!e.value.is_sequence()) {
        d.error(e.value.where, "expected a list of hexes [[col, row], ...] for terrain '" + e.key + "', found " + e.value.kind_name());
        continue;
      }
      for (const Doc& it : e.value.items) {
        auto h = hex_at(it, "terrain '" + e.key + "'");
        if (!h) continue;
        bool dup = false;
        for (const auto& [oh, on] : seen)
          if (oh == *h) {
            d.error(it.where, "hex [" + std::to_string(HexBoard::col_of(*h)) + ", " + std::to_string(h->r) + "] is already " + on);
            dup = true;
          }
        if (dup) continue;
        seen.emplace_back(*h, e.key);
        hexb->set_terrain(*h, index[*k]);
      }
    }
  }

  std::optional<Point> point(const Doc& n, const std::string& what) {
    note_items(n, 2);
    if (!n.is_sequence() || n.items.size() != 2) {
      d.error(n.where, "expected a point [x, y] of two lengths (e.g. [60cm, 20cm]) for " + what + ", found " +
                           (n.is_sequence() ? "a list of " + std::to_string(n.items.size()) : std::string(n.kind_name())));
      return std::nullopt;
    }
    auto x = read_length(n.items[0], d, what + " x");
    auto y = read_length(n.items[1], d, what + " y");
    if (!x || !y) return std::nullopt;
    return Point{x->as_cm(), y->as_cm()};
  }

  // Exactly one of circle: {centre, radius} or polygon: [[x, y], ...].
  std::optional<Shape> shape(MapReader& m, const Doc& node, const std::string& what) {
    const Doc* c = m.optional("circle");
    const Doc* p = m.optional("polygon");
    if ((c != nullptr) == (p != nullptr)) {
      if (m.ok()) d.error(node.where, what + ": expected exactly one of circle or polygon");
      return std::nullopt;
    }
    if (c) {
      MapReader cm(*c, d, what + " circle");
      std::optional<Point> centre;
      std::optional<Length> r;
      if (auto x = cm.required("centre")) centre = point(*x, what + " centre");
      const Doc* rd = cm.required("radius");
      if (rd) r = read_length(*rd, d, what + " radius");
      cm.finish();
      if (rd && r && !(r->as_cm() > 0)) {
        d.error(rd->where, what + ": the radius must be more than zero");
        return std::nullopt;
      }
      if (!centre || !r) return std::nullopt;
      return Shape{Circle{*centre, r->as_cm()}};
    }
    if (!p->is_sequence() || p->items.size() < 3) {
      d.error(p->where, what + ": expected a polygon of at least 3 points [[x, y], ...], found " +
                            (p->is_sequence() ? std::to_string(p->items.size()) + " points" : std::string(p->kind_name())));
      return std::nullopt;
    }
    if (p->items.size() > k_max_polygon_points) {
      d.error(p->where, what + ": a polygon of " + std::to_string(p->items.size()) + " points; at most " +
                            std::to_string(k_max_polygon_points));
      return std::nullopt;
    }
    Polygon poly;
    bool ok = true;
    for (const auto& it : p->items) {
      auto q = point(it, what + " polygon point");
      if (q) poly.vertices.push_back(*q);
      else ok = false;
    }
    if (!ok) return std::nullopt;
    if (auto cross = self_crossing(poly.vertices)) {
      const auto [i, j] = *cross;
      d.error(p->items[j].where, what + ": its outline crosses itself (the side from point " + std::to_string(j + 1) +
                                     " meets the side from point " + std::to_string(i + 1) +
                                     "); expected a simple polygon, its points in order around it");
      return std::nullopt;
    }
    return Shape{poly};
  }

  void table(const Doc& n) {
    MapReader m(n, d, "table");
    std::optional<Length> w, h;
    const Doc* wd = m.required("width");
    const Doc* hd = m.required("depth");
    if (wd) w = read_length(*wd, d, "table width");
    if (hd) h = read_length(*hd, d, "table depth");
    m.finish();
    if (wd && w && !(w->as_cm() > 0)) d.error(wd->where, "the table width must be more than zero");
    if (hd && h && !(h->as_cm() > 0)) d.error(hd->where, "the table depth must be more than zero");
    if (w && h && w->as_cm() > 0 && h->as_cm() > 0) {
      tab = std::make_shared<Tabletop>(*w, *h);
      s.table = tab;
    }
  }

  template <class F>
  void each_item(const Doc* n, const std::string& what, F&& f) {
    if (!n) return;
    if (!n->is_sequence()) {
      d.error(n->where, "expected a list of " + what + ", found " + n->kind_name());
      return;
    }
    for (std::size_t i = 0; i < n->items.size(); ++i) f(n->items[i], i);
  }

  void terrain(const Doc& n, Tabletop* t) {
    MapReader m(n, d, "terrain");
    each_item(m.optional("areas"), "terrain areas", [&](const Doc& a, std::size_t i) {
      std::string what = "terrain area " + std::to_string(i + 1);
      MapReader am(a, d, what);
      TerrainArea area;
      if (auto x = am.required("name")) area.name = read_string(*x, d, what + " name").value_or("");
      if (!area.name.empty()) what = "terrain area '" + area.name + "'";
      auto sh = shape(am, a, what);
      if (auto x = am.optional("cover")) area.cover = static_cast<int>(read_int(*x, d, what + " cover", 0, 10).value_or(0));
      if (auto x = am.optional("move_cost")) {
        note_words(*x, {"impassable"});
        if (x->is_scalar() && x->scalar == "impassable") area.move_cost = TerrainArea::impassable;
        else area.move_cost = read_number(*x, d, what + " move_cost (a multiplier, or impassable)", 0, 100).value_or(1);
      }
      if (auto x = am.optional("blocks_sight")) area.blocks_sight = read_bool(*x, d, what + " blocks_sight").value_or(false);
      am.finish();
      if (sh && t) add(a.where, what, [&] { area.shape = *sh; t->add_area(area); });
    });
    each_item(m.optional("obstacles"), "obstacles", [&](const Doc& o, std::size_t i) {
      std::string what = "obstacle " + std::to_string(i + 1);
      MapReader om(o, d, what);
      Obstacle ob;
      bool ok = true;
      if (auto x = om.required("name")) ob.name = read_string(*x, d, what + " name").value_or("");
      if (!ob.name.empty()) what = "obstacle '" + ob.name + "'";
      if (auto x = om.required("path")) {
        if (!x->is_sequence() || x->items.size() < 2) {
          d.error(x->where, what + ": expected a path of at least 2 points [[x, y], ...]");
          ok = false;
        } else {
          for (const auto& it : x->items) {
            if (auto q = point(it, what + " path point")) ob.path.push_back(*q);
            else ok = false;
          }
        }
      } else {
        ok = false;
      }
      if (auto x = om.required("crossing_cost")) ob.crossing_cost = read_length(*x, d, what + " crossing_cost").value_or(Length());
      if (auto x = om.optional("cover")) ob.cover = static_cast<int>(read_int(*x, d, what + " cover", 0, 10).value_or(0));
      om.finish();
      if (ok && t) add(o.where, what, [&] { t->add_obstacle(ob); });
    });
    each_item(m.optional("hills"), "hills", [&](const Doc& h, std::size_t i) {
      std::string what = "hill " + std::to_string(i + 1);
      MapReader hm(h, d, what);
      Hill hill;
      if (auto x = hm.required("name")) hill.name = read_string(*x, d, what + " name").value_or("");
      if (!hill.name.empty()) what = "hill '" + hill.name + "'";
      auto sh = shape(hm, h, what);
      if (auto x = hm.required("height")) hill.height = read_length(*x, d, what + " height").value_or(Length());
      if (auto x = hm.optional("blocks_sight")) hill.blocks_sight = read_bool(*x, d, what + " blocks_sight").value_or(true);
      hm.finish();
      if (sh && t) add(h.where, what, [&] { hill.shape = *sh; t->add_hill(hill); });
    });
    m.finish();
  }

  template <class F>
  void add(const Location& where, const std::string& what, F&& f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      std::string msg = e.what();
      auto colon = msg.find(": ");
      d.error(where, what + ": " + (colon == std::string::npos ? msg : msg.substr(colon + 2)));
    }
  }

  void sides(const Doc& n) {
    if (!n.is_map() || n.entries.size() != 2) {
      d.error(n.where, "expected a map of exactly two sides (name: {edge, bot}), found " +
                           (n.is_map() ? std::to_string(n.entries.size()) + " sides" : std::string(n.kind_name())));
      if (!n.is_map()) return;
    }
    for (const auto& e : n.entries) {
      SideSpec side;
      side.name = e.key;
      side.where = e.key_where;
      const std::string what = "side '" + e.key + "'";
      MapReader m(e.value, d, what);
      if (auto x = m.required("edge"))
        if (auto i = read_choice(*x, d, "edge", names_of(k_edge_names))) side.edge = static_cast<Edge>(*i);
      if (auto x = m.required("bot")) {
        std::vector<std::string> names(bots.begin(), bots.end());
        if (auto i = read_choice(*x, d, "bot", names)) side.bot = names[*i];
      }
      if (auto x = m.optional("role"))
        if (auto i = read_choice(*x, d, "role", {"automated", "other"})) side.role = *i == 0 ? "automated" : "other";
      if (auto x = m.optional("options")) options(*x, what, side.options);
      if (auto x = m.optional("command_cards")) {
        if (!s.blocks) d.error(x->where, what + ": command cards are for seed 004 block units (the scenario needs `blocks:`)");
        else side.command_cards = static_cast<int>(read_int(*x, d, "command_cards", 0, 20).value_or(5));
      }
      m.finish();
      s.sides.push_back(std::move(side));
    }
    default_roles(n);
  }

  // `role:` (sims/scenarios/README.md): the lab matches sides across
  // scenarios by it. Unwritten: the side the other's role leaves; with
  // neither written, automated for the one side whose bot is a cavalry bot
  // (reaction_table, thinking_cavalry), else the first side listed.
  void default_roles(const Doc& n) {
    if (s.sides.size() != 2) return;
    SideSpec &a = s.sides[0], &b = s.sides[1];
    auto other = [](const std::string& r) { return std::string(r == "automated" ? "other" : "automated"); };
    if (!a.role.empty() && a.role == b.role) {
      d.error(n.where, "both sides have role '" + a.role + "': one side is automated, the other other");
      return;
    }
    if (a.role.empty() && !b.role.empty()) a.role = other(b.role);
    if (b.role.empty() && !a.role.empty()) b.role = other(a.role);
    if (a.role.empty()) {
      auto cavalry = [](const SideSpec& x) { return x.bot == "reaction_table" || x.bot == "thinking_cavalry"; };
      const bool first = cavalry(a) || !cavalry(b);
      a.role = first ? "automated" : "other";
      b.role = first ? "other" : "automated";
    }
  }

  void options(const Doc& n, const std::string& side, BotOptions& o) {
    const std::string what = side + " options";
    MapReader m(n, d, what);
    if (auto x = m.optional("form_square")) o.form_square = read_bool(*x, d, "form_square").value_or(false);
    if (auto x = m.optional("retire_and_reform")) o.retire_and_reform = read_bool(*x, d, "retire_and_reform").value_or(true);
    if (auto x = m.optional("opportunity_charges")) o.opportunity_charges = read_bool(*x, d, "opportunity_charges").value_or(true);
    if (auto x = m.optional("charge_without_bonus")) o.charge_without_bonus = read_bool(*x, d, "charge_without_bonus").value_or(true);
    if (auto x = m.optional("advance_to")) o.advance_to = read_length(*x, d, "advance_to");
    if (auto x = m.optional("withdraw_at_losses_pct"))
      o.withdraw_at_losses_pct = static_cast<int>(read_int(*x, d, "withdraw_at_losses_pct", 0, 100).value_or(34));
    m.finish();
  }

  void units(const Doc& n) {
    if (!n.is_sequence() || n.items.empty()) {
      d.error(n.where, std::string("expected a list of units, found ") + n.kind_name());
      return;
    }
    std::vector<std::string> side_names, profile_names;
    for (const auto& sd : s.sides) side_names.push_back(sd.name);
    for (const auto& p : s.rules->profiles) profile_names.push_back(p.id);
    for (std::size_t i = 0; i < n.items.size(); ++i) {
      const Doc& u = n.items[i];
      UnitSpec spec;
      spec.where = u.where;
      std::string what = "unit " + std::to_string(i + 1);
      MapReader m(u, d, what);
      if (auto x = m.required("name")) spec.name = read_string(*x, d, what + " name").value_or("");
      if (!spec.name.empty()) {
        what = "unit '" + spec.name + "'";
        for (const auto& other : s.units)
          if (other.name == spec.name) d.error(m.optional("name")->where, "two units are named '" + spec.name + "'");
      }
      bool profile_ok = false;
      if (auto x = m.required("side"))
        if (auto k = read_name(*x, d, "side", side_names)) spec.side = static_cast<std::uint8_t>(*k);
      const Doc* prof = m.required("profile");
      if (prof) {
        if (profile_names.empty())
          d.error(prof->where, "the ruleset has no unit profiles (a `profiles:` section; see tables/README.md)");
        else if (auto k = read_name(*prof, d, "profile", profile_names)) {
          spec.profile = *k;
          profile_ok = true;
        }
      }
      if (auto x = m.required("figures")) spec.figures = static_cast<int>(read_int(*x, d, what + " figures", 1, 1000).value_or(1));
      const Doc* pos = nullptr;
      std::optional<Point> p;
      const Doc* hexd = hexb ? m.required("hex") : m.optional("hex");
      if (hexb) {
        if (const Doc* x = m.optional("position")) d.error(x->where, what + ": on a hex board a unit stands on `hex: [col, row]`, not `position:`");
        if (hexd) spec.hex = hex_at(*hexd, what);
        if (spec.hex) {
          spec.position = hexb->centre(*spec.hex);
          if (hexb->terrain(*spec.hex).impassable)
            d.error(hexd->where, what + " stands on impassable terrain (" + hexb->terrain(*spec.hex).name + ")");
          for (const auto& other : s.units)
            if (other.hex && *other.hex == *spec.hex)
              d.error(hexd->where, what + " stands on the hex of unit '" + other.name + "': one unit per hex");
        }
        if (auto x = m.optional("facing")) spec.facing = read_number(*x, d, what + " facing (degrees, 0 = up the table)", -360, 360).value_or(0);
        else if (spec.side < s.sides.size()) spec.facing = s.sides[spec.side].edge == Edge::top ? 180 : s.sides[spec.side].edge == Edge::left ? 90 : s.sides[spec.side].edge == Edge::right ? 270 : 0;
      } else {
        if (hexd) d.error(hexd->where, what + ": `hex:` needs a hex board (`board: {type: hex, ...}`); on a table use `position:`");
        pos = m.required("position");
        if (pos) p = point(*pos, what + " position");
        if (p) spec.position = *p;
        if (auto x = m.required("facing")) spec.facing = read_number(*x, d, what + " facing (degrees, 0 = up the table)", -360, 360).value_or(0);
      }
      const Doc* art = m.optional("artillery");
      if (art) {
        if (!s.blocks) d.error(art->where, what + ": artillery units are seed 004 block units (the scenario needs `blocks:`)");
        else if (auto k = read_choice(*art, d, "artillery", {"foot", "horse"})) {
          spec.artillery = true;
          spec.horse_artillery = *k == 1;
        }
      }
      if (auto x = m.optional("formation"))
        if (auto k = read_choice(*x, d, "formation", names_of(k_formation_names))) spec.formation = static_cast<Formation>(*k);
      if (auto x = m.optional("hero")) spec.hero = read_bool(*x, d, what + " hero").value_or(false);
      if (auto x = m.optional("raw")) spec.raw = read_bool(*x, d, what + " raw").value_or(false);
      const Doc* mounted = m.optional("mounted");
      if (mounted) spec.mounted = read_bool(*mounted, d, what + " mounted").value_or(true);
      const Doc* pace = m.optional("pace");
      if (pace)
        if (auto k = read_choice(*pace, d, "pace", {"halt", "walk", "canter", "gallop"})) spec.pace = static_cast<Pace>(*k);
      m.finish();
      if (profile_ok) {
        const Profile& pr = s.rules->profiles[spec.profile];
        if (mounted && pr.kind != UnitKind::cavalry) d.error(mounted->where, what + ": only cavalry can be mounted");
        if (mounted && pr.kind == UnitKind::cavalry && !spec.mounted && pr.move.as_cm() <= 0)
          d.error(mounted->where, what + ": profile '" + pr.id + "' has no move on foot, so it cannot start dismounted");
        if (pr.kind != UnitKind::cavalry) spec.mounted = false;
        if (pace && spec.pace != Pace::halt && (pr.kind != UnitKind::cavalry || !spec.mounted))
          d.error(pace->where, what + ": only mounted cavalry starts at a pace");
        else if (pace && spec.pace == Pace::gallop && !s.rules->unit_types[pr.unit_type].can_gallop)
          d.error(pace->where, what + ": " + s.rules->unit_types[pr.unit_type].name + " may never gallop (seed 002)");
        if (spec.formation == Formation::square && pr.kind == UnitKind::cavalry)
          d.error(m.optional("formation")->where, what + ": only infantry forms square");
        if (art && pr.kind == UnitKind::cavalry) d.error(art->where, what + ": an artillery unit takes a foot profile, not '" + pr.id + "'");
      }
      if (p && s.table) {
        if (!s.table->on_board(*p))
          d.error(pos->where, what + " at (" + fmt(Length::cm(p->x)) + ", " + fmt(Length::cm(p->y)) + ") is off the " +
                                  fmt(s.table->width()) + " x " + fmt(s.table->depth()) + " table");
        else if (std::isinf(s.table->cost_multiplier_at(*p)))
          d.error(pos->where, what + " stands in impassable terrain");
      }
      s.units.push_back(std::move(spec));
    }
    for (std::size_t k = 0; k < s.sides.size(); ++k) {
      bool any = std::any_of(s.units.begin(), s.units.end(), [&](const UnitSpec& u) { return u.side == k; });
      if (!any) d.error(s.sides[k].where, "side '" + s.sides[k].name + "' has no units");
    }
  }

  std::optional<std::uint8_t> side_ref(const Doc& n, const std::string& what) {
    std::vector<std::string> names;
    for (const auto& sd : s.sides) names.push_back(sd.name);
    if (auto i = read_name(n, d, what, names)) return static_cast<std::uint8_t>(*i);
    return std::nullopt;
  }

  void victory(const Doc& n) {
    each_item(&n, "victory conditions ({winner: SIDE, when: {...}})", [&](const Doc& v, std::size_t i) {
      const std::string what = "victory condition " + std::to_string(i + 1);
      MapReader m(v, d, what);
      VictoryCondition c;
      bool ok = true;
      if (auto x = m.required("winner")) {
        if (auto k = side_ref(*x, "winner side")) c.winner = *k;
        else ok = false;
      } else {
        ok = false;
      }
      const Doc* when = m.required("when");
      m.finish();
      if (!when) return;
      MapReader w(*when, d, what + " when");
      const Doc* losses = w.optional("side_losses");
      const Doc* at_least = w.optional("at_least");
      const Doc* routed = w.optional("side_routed");
      const Doc* edge = w.optional("reaches_edge");
      const Doc* unit = w.optional("unit");
      const Doc* side = w.optional("side");
      w.finish();
      if (!w.ok()) return;
      const int kinds = (losses != nullptr) + (routed != nullptr) + (edge != nullptr);
      if (kinds != 1) {
        d.error(when->where, what + ": expected exactly one of side_losses (with at_least), side_routed, reaches_edge (with unit or side)");
        return;
      }
      if (losses) {
        c.kind = VictoryCondition::Kind::side_losses;
        if (auto k = side_ref(*losses, "side")) c.side = *k;
        else ok = false;
        if (!at_least) {
          d.error(when->where, what + ": side_losses needs at_least (a percentage of the side's figures)");
          ok = false;
        } else if (auto pct = read_int(*at_least, d, "at_least (percent)", 1, 100)) {
          c.at_least_pct = static_cast<int>(*pct);
        } else {
          ok = false;
        }
        if (ok) c.text = s.sides[c.side].name + " has lost " + std::to_string(c.at_least_pct) + "% of its figures (routed units count as lost)";
      } else if (routed) {
        c.kind = VictoryCondition::Kind::side_routed;
        if (auto k = side_ref(*routed, "side")) c.side = *k;
        else ok = false;
        if (ok) c.text = "every unit of " + s.sides[c.side].name + " has routed or been destroyed";
      } else {
        c.kind = VictoryCondition::Kind::reaches_edge;
        if (auto k = read_choice(*edge, d, "edge", names_of(k_edge_names))) c.edge = static_cast<Edge>(*k);
        else ok = false;
        if ((unit != nullptr) == (side != nullptr)) {
          d.error(when->where, what + ": reaches_edge needs exactly one of unit (a unit's name) or side (any unit of it)");
          ok = false;
        } else if (unit) {
          std::vector<std::string> names;
          for (const auto& u : s.units) names.push_back(u.name);
          if (auto k = read_name(*unit, d, "unit", names)) {
            c.unit = *k;
            c.side = s.units[*k].side;
          } else {
            ok = false;
          }
        } else if (auto k = side_ref(*side, "side")) {
          c.side = *k;
        } else {
          ok = false;
        }
        if (ok)
          c.text = (c.unit ? "'" + s.units[*c.unit].name + "'" : "a unit of " + s.sides[c.side].name) + " has reached the " +
                   std::string(edge_name(c.edge)) + " edge (not routed)";
      }
      if (!losses && at_least) d.error(at_least->where, what + ": at_least belongs with side_losses");
      if (!edge && unit) d.error(unit->where, what + ": unit belongs with reaches_edge");
      if (!edge && side) d.error(side->where, what + ": side belongs with reaches_edge");
      if (ok) s.victory.push_back(std::move(c));
    });
  }

  void build(const Doc& root, const std::string& path, const std::string& ruleset_override) {
    MapReader top(root, d, "the scenario");
    if (!top.ok()) return;
    if (!root.entries.empty() && root.entries.front().key != "scenario")  // `{}` is missing the key, said below
      d.error(root.entries.front().key_where, "a scenario file starts with `scenario: NAME`");
    if (auto x = top.required("scenario")) s.name = read_string(*x, d, "scenario").value_or("");
    if (auto x = top.optional("description")) s.description = read_string(*x, d, "description").value_or("");
    std::string rules_path = "builtin:default";
    const Doc* rd = top.optional("ruleset");
    if (rd) note_example(*rd, "builtin:default");
    if (rd)
      if (auto v = read_string(*rd, d, "ruleset")) {
        rules_path = *v;
        if (rules_path.rfind("builtin:", 0) != 0 && !fs::path(rules_path).is_absolute())
          rules_path = (fs::path(path).parent_path() / rules_path).lexically_normal().string();
      }
    if (!ruleset_override.empty()) rules_path = ruleset_override;
    try {
      s.rules = load_ruleset(rules_path);
    } catch (const LoadError& e) {
      if (rd && ruleset_override.empty()) d.error(rd->where, "the ruleset '" + rd->scalar + "' does not load:");
      for (const auto& x : e.diagnostics()) d.error(x.where, x.message);
      return;
    }
    const Doc* bd = top.optional("board");
    if (auto x = top.optional("blocks")) blocks(*x, path);
    if (bd) {
      hex_board(*bd);
      if (auto x = top.optional("table")) d.error(x->where, "a scenario has a `table:` or a hex `board:`, not both");
      if (auto x = top.optional("terrain")) d.error(x->where, "on a hex board, terrain is given per hex under `board: {terrain: ...}`");
      if (hexb) {
        s.hex = hexb;
        s.board = hexb;
      }
    } else {
      if (auto x = top.required("table")) table(*x);
      if (auto x = top.optional("terrain")) terrain(*x, tab.get());
      if (tab) s.board = tab;
      if (s.blocks) d.error(top.optional("blocks")->where, "seed 004 block units need a hex board (`board: {type: hex, ...}`)");
    }
    if (auto x = top.required("sides")) sides(*x);
    if (auto x = top.required("units")) units(*x);
    if (auto x = top.required("turns")) s.turns = static_cast<int>(read_int(*x, d, "turns", 1, 1000).value_or(12));
    if (auto x = top.required("victory")) victory(*x);
    if (auto x = top.optional("at_turn_limit")) {
      note_words(*x, {"draw"});
      if (x->is_scalar() && x->scalar == "draw") s.at_turn_limit.reset();
      else if (auto k = side_ref(*x, "at_turn_limit (draw or a side)")) s.at_turn_limit = *k;
    }
    top.finish();
  }
};

}  // namespace

ScenarioPtr load_scenario(const std::string& path, std::span<const std::string> bot_names, const std::string& ruleset_override) {
  Doc root = parse_yaml_file(path);
  auto s = std::make_shared<Scenario>();
  s->file = path;
  Diagnostics d;
  ScenarioBuilder{d, *s, bot_names}.build(root, path, ruleset_override);
  d.throw_if_any();
  return s;
}

}  // namespace vedette
