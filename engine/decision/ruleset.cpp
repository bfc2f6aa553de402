// Ruleset loading and validation: tables/*.yaml -> Ruleset.
#include "engine/decision/ruleset.hpp"
#include "engine/decision/ruleset_doc.hpp"

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <mutex>

#include "engine/core/builtin_tables.hpp"
#include "engine/core/doc.hpp"
#include "engine/core/words.hpp"
#include "engine/core/schema_notes.hpp"

namespace vedette {

const Band& Ruleset::band_for(int rf) const {
  for (const auto& b : bands)
    if (rf <= b.max) return b;
  return bands.back();
}

const Behaviour* Ruleset::find_behaviour(std::string_view id) const {
  for (const auto& b : behaviours)
    if (b.id == id) return &b;
  return nullptr;
}

const UnitType* Ruleset::find_unit_type(std::string_view id) const {
  for (const auto& t : unit_types)
    if (t.id == id) return &t;
  return nullptr;
}

const Weapon* Ruleset::find_weapon(std::string_view id) const {
  for (const auto& w : weapons)
    if (w.id == id) return &w;
  return nullptr;
}

const Profile* Ruleset::find_profile(std::string_view id) const {
  for (const auto& p : profiles)
    if (p.id == id) return &p;
  return nullptr;
}

namespace {

namespace fs = std::filesystem;
constexpr int k_max_extends = 16;
constexpr std::string_view k_builtin = "builtin:";

// ------------------------------------------------------------ extends chain

Doc read_source(const std::string& path) {
  if (path.rfind(k_builtin, 0) == 0) {
    auto text = builtin_table(std::string_view(path).substr(k_builtin.size()));
    if (!text) throw LoadError({path, 0, 0}, "no built-in ruleset of that name (built in: builtin:default)");
    return parse_yaml(*text, path);
  }
  return parse_yaml_file(path);
}

std::string identity(const std::string& path) {
  if (path.rfind(k_builtin, 0) == 0) return path;
  std::error_code ec;
  auto p = fs::weakly_canonical(path, ec);
  return ec ? path : p.string();
}

// For an `extends:` file that is not there: the nearest .yaml file in the
// folder it was looked for in, written as the user wrote the path.
std::string sibling_suggestion(const std::string& looked_for, const std::string& written) {
  std::error_code ec;
  const fs::path dir = fs::path(looked_for).parent_path();
  std::vector<std::string> names;
  for (fs::directory_iterator it(dir.empty() ? fs::path(".") : dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".yaml") names.push_back(it->path().filename().string());
  std::sort(names.begin(), names.end());
  const std::string near = nearest(fs::path(written).filename().string(), names);
  if (near.empty()) return "";
  return ", did you mean '" + (fs::path(written).parent_path() / near).string() + "'?";
}

// `extends: target` written in `path`: beside it, unless absolute or built in.
std::string resolve_extends(const std::string& path, const std::string& target) {
  if (target.rfind(k_builtin, 0) != 0 && !fs::path(target).is_absolute() && path.rfind(k_builtin, 0) != 0)
    return (fs::path(path).parent_path() / target).lexically_normal().string();
  return target;
}

Doc load_chain(const std::string& path, std::vector<std::string>& stack, std::vector<std::string>& sources) {
  Doc doc = read_source(path);
  stack.push_back(identity(path));
  const Doc* ext = doc.is_map() ? doc.find("extends") : nullptr;
  if (!ext) {
    sources.push_back(path);
    stack.pop_back();
    return doc;
  }
  if (!ext->is_scalar() || ext->scalar.empty())
    throw LoadError(ext->where, std::string("expected the path of a base ruleset for extends, found ") + ext->kind_name());
  std::string base = resolve_extends(path, ext->scalar);
  std::string id = identity(base);
  if (std::find(stack.begin(), stack.end(), id) != stack.end()) {
    std::string cycle;
    for (const auto& s : stack) cycle += s + " -> ";
    throw LoadError(ext->where, "circular extends: " + cycle + id);
  }
  if (static_cast<int>(stack.size()) >= k_max_extends)
    throw LoadError(ext->where, "extends chain longer than " + std::to_string(k_max_extends) + " files");
  if (base.rfind(k_builtin, 0) != 0) {
    std::error_code ec;
    if (!fs::exists(base, ec))
      throw LoadError(ext->where, "extends a ruleset that does not exist: '" + ext->scalar + "' (looked for " + base + ")" +
                                      sibling_suggestion(base, ext->scalar));
  } else if (!builtin_table(std::string_view(base).substr(k_builtin.size()))) {
    std::vector<std::string> names;
    for (const auto& n : builtin_table_names()) names.push_back(std::string(k_builtin) + n);
    throw LoadError(ext->where, "extends a built-in ruleset that does not exist: '" + ext->scalar + "' (built in: builtin:default)" +
                                    did_you_mean(ext->scalar, names));
  }
  Doc merged = load_chain(base, stack, sources);
  sources.push_back(path);
  stack.pop_back();
  Doc overlay = doc;
  overlay.entries.erase(std::remove_if(overlay.entries.begin(), overlay.entries.end(),
                                       [](const DocEntry& e) { return e.key == "extends"; }),
                        overlay.entries.end());
  return merge_overlay(merged, overlay);
}

// --------------------------------------------------------------- building

std::vector<std::string> fact_names() {
  std::vector<std::string> v;
  for (const auto& f : k_facts) v.emplace_back(f.name);
  return v;
}

struct Builder {
  Diagnostics& d;
  Ruleset& r;
  // Every word a unit type answers to (its id, its name's comma-separated
  // parts, its `words`), as compared: no word may name two types (issue 30).
  std::map<std::string, std::string> type_words = {};
  // Where each unit type's default_weapon was written, by index in
  // r.unit_types, for check_default_weapons.
  std::vector<std::pair<std::size_t, Location>> default_weapon_where = {};

  // A unit type's default weapon must be one of the ruleset's weapons.
  void check_default_weapons() {
    for (const auto& [i, where] : default_weapon_where) {
      const UnitType& t = r.unit_types[i];
      if (r.find_weapon(t.default_weapon)) continue;
      std::vector<std::string> ids;
      std::string names;
      for (const Weapon& w : r.weapons) {
        ids.push_back(w.id);
        names += (names.empty() ? "" : ", ") + w.id;
      }
      d.error(where, "unit type '" + t.id + "' default_weapon: no weapon '" + t.default_weapon + "' in the ruleset" +
                         did_you_mean(t.default_weapon, ids) + " (expected one of: " + (names.empty() ? std::string("(no weapons)") : names) +
                         ", or none)");
    }
  }

  void claim_type_word(const std::string& word, const std::string& id, const Location& where, const std::string& what) {
    const std::string w = defender_word_key(word);
    if (w.empty()) return;
    auto [it, fresh] = type_words.emplace(w, id);
    if (!fresh && it->second != id)
      d.error(where, "'" + word + "' in " + what + " already names the unit type '" + it->second + "': a word may name one type only");
  }

  // A problem found by comparing values (a gap between bands, a face given
  // twice) is reported where the most recent of them was written: in an
  // overlay, that is the file the user wrote, not the base it extends.
  int rank(const Location& l) const {
    for (std::size_t i = r.sources.size(); i-- > 0;)
      if (r.sources[i] == l.file) return static_cast<int>(i);
    return -1;
  }
  // The first of `ls` from the most recent source.
  Location newest(std::initializer_list<Location> ls) const {
    const Location* best = nullptr;
    for (const auto& l : ls)
      if (!best || rank(l) > rank(*best)) best = &l;
    return *best;
  }

  void behaviours(const Doc& n) {
    if (!n.is_map() || n.entries.empty()) {
      d.error(n.where, std::string("expected a map of behaviours (id: {text, pace, direction, ...}), found ") + n.kind_name());
      return;
    }
    if (n.entries.size() > 255) {
      d.error(n.where, "too many behaviours (at most 255)");
      return;
    }
    for (const auto& e : n.entries) {
      Behaviour b;
      b.id = e.key;
      std::string what = "behaviour '" + e.key + "'";
      MapReader m(e.value, d, what);
      if (auto x = m.required("text")) b.text = read_string(*x, d, what + " text").value_or("");
      if (auto x = m.required("pace"))
        if (auto i = read_choice(*x, d, "pace", names_of(k_pace_spec_names))) b.pace = static_cast<PaceSpec>(*i);
      if (auto x = m.required("direction"))
        if (auto i = read_choice(*x, d, "direction", names_of(k_direction_names))) b.direction = static_cast<Direction>(*i);
      if (auto x = m.optional("target"))
        if (auto i = read_choice(*x, d, "target", names_of(k_target_names))) b.target = static_cast<Target>(*i);
      if (auto x = m.optional("faces_enemy")) b.faces_enemy = read_bool(*x, d, what + " faces_enemy").value_or(false);
      if (auto x = m.optional("charge")) b.charge_possible = read_bool(*x, d, what + " charge").value_or(false);
      if (auto x = m.optional("running")) b.running = read_bool(*x, d, what + " running").value_or(false);
      m.finish();
      r.behaviours.push_back(std::move(b));
    }
  }

  std::optional<std::array<BehaviourIndex, 6>> row(const Doc& n, const std::string& what) {
    if (!n.is_sequence()) {
      d.error(n.where, "expected a list of 6 behaviours (one per D6 face) for " + what + ", found " + n.kind_name());
      return std::nullopt;
    }
    note_items(n, 6);
    if (n.items.size() != 6) {
      d.error(n.where, "expected exactly 6 cells (D6 faces 1-6) in " + what + ", found " + std::to_string(n.items.size()));
      return std::nullopt;
    }
    std::vector<std::string> ids;
    for (const auto& b : r.behaviours) ids.push_back(b.id);
    std::array<BehaviourIndex, 6> out{};
    bool ok = true;
    for (std::size_t i = 0; i < 6; ++i) {
      auto c = read_name(n.items[i], d, "behaviour", ids);
      if (c) out[i] = static_cast<BehaviourIndex>(*c);
      else ok = false;
    }
    if (!ok) return std::nullopt;
    return out;
  }

  void bands(const Doc& n) {
    if (!n.is_map() || n.entries.empty()) {
      d.error(n.where, std::string("expected a map of RF bands (id: {label, min, max, cells}), found ") + n.kind_name());
      return;
    }
    struct Placed { Band band; Location where, min_where, max_where; bool has_min, has_max; };
    std::vector<Placed> placed;
    bool all_read = true;  // bands that could not be read are left out of the checks between bands
    for (const auto& e : n.entries) {
      Band b;
      b.id = e.key;
      std::string what = "band '" + e.key + "'";
      MapReader m(e.value, d, what);
      b.label = e.key;
      if (auto x = m.optional("label")) b.label = read_string(*x, d, what + " label").value_or(e.key);
      if (auto x = m.optional("text")) b.text = read_string(*x, d, what + " text").value_or("");
      const Doc* mn = m.optional("min");
      const Doc* mx = m.optional("max");
      bool read = true;
      if (mn) {
        if (auto v = read_int(*mn, d, what + " min", -1000, 1000)) b.min = static_cast<int>(*v);
        else read = false;
      }
      if (mx) {
        if (auto v = read_int(*mx, d, what + " max", -1000, 1000)) b.max = static_cast<int>(*v);
        else read = false;
      }
      if (auto x = m.required("cells"))
        if (auto c = row(*x, what + " cells")) b.cells = *c;
      if (auto x = m.optional("at_halt")) b.at_halt = row(*x, what + " at_halt");
      m.finish();
      if (!read || !m.ok()) {
        all_read = false;
        continue;
      }
      if (mn && mx && b.min > b.max) {
        d.error(newest({mn->where, mx->where}), what + ": min " + std::to_string(b.min) + " is above max " + std::to_string(b.max));
        all_read = false;
        continue;
      }
      placed.push_back({std::move(b), e.key_where, mn ? mn->where : e.key_where, mx ? mx->where : e.key_where,
                        mn != nullptr, mx != nullptr});
    }
    if (!all_read) return;
    std::stable_sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) { return a.band.min < b.band.min; });
    for (std::size_t i = 0; i < placed.size(); ++i) {
      const auto& p = placed[i];
      if (i == 0 && p.has_min)
        d.error(p.min_where, "band '" + p.band.id + "' is the lowest band, so it must have no min (it covers every RF up to " +
                             std::to_string(p.band.max) + "); RFs below " + std::to_string(p.band.min) + " would have no band");
      if (i + 1 == placed.size() && p.has_max)
        d.error(p.max_where, "band '" + p.band.id + "' is the highest band, so it must have no max; RFs above " +
                             std::to_string(p.band.max) + " would have no band");
      if (i > 0) {
        const auto& q = placed[i - 1];
        // Where the two bands meet: the later band's min or the earlier's
        // max, whichever was written last; or the bands map itself when an
        // overlay removed the band between them.
        const Location meet = newest({p.min_where, q.max_where, n.where});
        if (!p.has_min || !q.has_max) {
          d.error(newest({p.where, q.where, n.where}), "bands '" + q.band.id + "' and '" + p.band.id + "' are both open-ended: only the lowest band may lack min and only the highest may lack max");
        } else if (p.band.min <= q.band.max) {
          d.error(meet, "band '" + p.band.id + "' (RF " + std::to_string(p.band.min) + "-" + (p.has_max ? std::to_string(p.band.max) : "") +
                               ") overlaps band '" + q.band.id + "' (up to RF " + std::to_string(q.band.max) + ")");
        } else if (p.band.min > q.band.max + 1) {
          d.error(meet, "gap between bands: no band covers RF " + std::to_string(q.band.max + 1) +
                               (p.band.min - 1 > q.band.max + 1 ? "-" + std::to_string(p.band.min - 1) : "") +
                               " (band '" + q.band.id + "' ends at " + std::to_string(q.band.max) + ", band '" + p.band.id +
                               "' starts at " + std::to_string(p.band.min) + ")");
        }
      }
      r.bands.push_back(p.band);
    }
  }

  std::optional<Fact> fact(const Doc& n, const std::string& what) {
    auto i = read_choice(n, d, "fact", fact_names());
    if (!i) return std::nullopt;
    (void)what;
    return static_cast<Fact>(*i);
  }

  std::vector<Fact> fact_list(const Doc& n, const std::string& what) {
    std::vector<Fact> out;
    if (n.is_scalar()) {
      if (auto f = fact(n, what)) out.push_back(*f);
    } else if (n.is_sequence() && !n.items.empty()) {
      for (const auto& i : n.items)
        if (auto f = fact(i, what)) out.push_back(*f);
    } else {
      d.error(n.where, "expected a fact or a list of facts for " + what + ", found " + n.kind_name());
    }
    return out;
  }

  void modifiers(const Doc& n) {
    if (!n.is_map()) {
      d.error(n.where, std::string("expected a map of modifiers (id: {text, value, when}), found ") + n.kind_name());
      return;
    }
    for (const auto& e : n.entries) {
      Modifier mod;
      mod.id = e.key;
      std::string what = "modifier '" + e.key + "'";
      MapReader m(e.value, d, what);
      if (auto x = m.required("text")) mod.text = read_string(*x, d, what + " text").value_or("");
      if (auto x = m.required("value")) mod.value = static_cast<int>(read_int(*x, d, what + " value", -100, 100).value_or(0));
      const Doc* when = m.optional("when");
      const Doc* any = m.optional("when_any");
      const Doc* per = m.optional("per");
      const Doc* stack = m.optional("stack");
      const Doc* step = m.optional("step");
      int conditions = (when != nullptr) + (any != nullptr) + (per != nullptr);
      if (m.ok() && conditions != 1)
        d.error(e.value.where, what + ": expected exactly one of when, when_any or per (found " + std::to_string(conditions) + ")");
      if (when) { mod.kind = Modifier::Kind::all; mod.facts = fact_list(*when, what + " when"); }
      if (any) { mod.kind = Modifier::Kind::any; mod.facts = fact_list(*any, what + " when_any"); }
      if (per) {
        mod.kind = Modifier::Kind::per;
        if (auto f = fact(*per, what + " per")) {
          mod.facts = {*f};
          if (!k_facts[static_cast<std::size_t>(*f)].numeric)
            d.error(per->where, what + ": per needs a numeric fact (casualties_pct), '" + std::string(fact_name(*f)) + "' is true or false");
        }
        if (!step) d.error(e.value.where, what + ": per needs a step (e.g. step: 10 for per full 10%)");
        else if (auto s = read_number(*step, d, what + " step", 0.01, 100)) mod.step = static_cast<std::int32_t>(*s * 100 + 0.5);
      } else if (step) {
        d.error(step->where, what + ": step belongs only with per");
      }
      if (stack) {
        if (!any) d.error(stack->where, what + ": stack belongs only with when_any");
        else mod.stack = read_bool(*stack, d, what + " stack").value_or(false);
      }
      m.finish();
      r.modifiers.push_back(std::move(mod));
    }
  }

  void paces(const Doc& n) {
    const std::size_t before = d.list().size();
    MapReader m(n, d, "paces");
    const std::array<Pace, 3> moving{Pace::walk, Pace::canter, Pace::gallop};
    for (Pace p : moving) {
      std::string name(pace_name(p));
      if (auto x = m.required(name)) {
        MapReader pm(*x, d, "pace " + name);
        auto& range = r.supplement.paces[static_cast<std::size_t>(p)];
        const Doc* mn = pm.required("min");
        const Doc* mx = pm.required("max");
        // Compare only what was read: a max that is not a length is one
        // problem, not also "min above max".
        std::optional<Length> lo, hi;
        if (mn) lo = read_length(*mn, d, name + " min");
        if (mx) hi = read_length(*mx, d, name + " max");
        if (lo) range.min = *lo;
        if (hi) range.max = *hi;
        pm.finish();
        if (lo && hi && *lo > *hi)
          d.error(newest({mn->where, mx->where}), "pace " + name + ": min " + mn->scalar + " is above max " + mx->scalar);
        if (hi && hi->as_cm() <= 0) d.error(mx->where, "pace " + name + ": max must be more than zero");
      }
    }
    m.finish();
    const auto& s = r.supplement.paces;
    if (m.ok() && d.list().size() == before && !(s[1].max <= s[2].max && s[2].max <= s[3].max))
      d.error(n.where, "paces must not get shorter from walk to canter to gallop");
  }

  void supplement(MapReader& top) {
    auto& s = r.supplement;
    if (auto x = top.required("paces")) paces(*x);
    if (auto x = top.required("gallop_limit")) {
      MapReader m(*x, d, "gallop_limit");
      if (auto y = m.required("turns")) s.gallop_max_turns = static_cast<int>(read_int(*y, d, "gallop_limit turns", 1, 100).value_or(2));
      if (auto y = m.required("then"))
        if (auto i = read_choice(*y, d, "pace", {"halt", "walk", "canter"})) s.after_gallop_limit = static_cast<Pace>(*i);
      m.finish();
    }
    if (auto x = top.required("turning")) {
      MapReader m(*x, d, "turning");
      if (auto y = m.required("degrees")) s.turn_degrees = static_cast<int>(read_int(*y, d, "turning degrees", 0, 360).value_or(45));
      if (auto y = m.required("per_move_fraction")) s.turn_per_move_fraction = read_number(*y, d, "turning per_move_fraction", 0.01, 1).value_or(0.25);
      if (auto y = m.required("per_move_fraction_gallop")) s.turn_per_move_fraction_gallop = read_number(*y, d, "turning per_move_fraction_gallop", 0.01, 1).value_or(0.5);
      m.finish();
    }
    if (auto x = top.required("mounted_shooting")) {
      MapReader m(*x, d, "mounted_shooting");
      if (auto y = m.required("moving_arc_degrees")) s.moving_shoot_arc_degrees = static_cast<int>(read_int(*y, d, "moving_arc_degrees", 0, 360).value_or(45));
      if (auto y = m.optional("moving_arc"))
        if (auto i = read_choice(*y, d, "mounted_shooting moving_arc", {"front_to_left", "either_side_of_front_left"}))
          s.moving_shoot_arc_wide = *i == 1;
      if (auto y = m.required("range_bands_further")) s.mounted_range_band_shift = static_cast<int>(read_int(*y, d, "range_bands_further", 0, 10).value_or(1));
      m.finish();
    }
    if (auto x = top.required("hits_on_mounted")) hits(*x);
    if (auto x = top.required("unit_types")) unit_types(*x);
  }

  void hits(const Doc& n) {
    const std::size_t before = d.list().size();
    MapReader m(n, d, "hits_on_mounted");
    std::array<int, 6> seen{};
    std::array<Location, 6> first{};
    for (const char* who : {"horse", "rider"}) {
      const Doc* x = m.required(who);
      if (!x) continue;
      if (!x->is_sequence()) {
        d.error(x->where, std::string("expected a list of D6 faces for ") + who + ", found " + x->kind_name());
        continue;
      }
      for (const auto& f : x->items)
        if (auto v = read_int(f, d, std::string("a D6 face for ") + who, 1, 6)) {
          auto i = static_cast<std::size_t>(*v - 1);
          if (seen[i]++) d.error(newest({f.where, first[i]}), "D6 face " + std::to_string(*v) + " is given twice in hits_on_mounted");
          else first[i] = f.where;
          r.supplement.hit_on_horse[i] = std::string(who) == "horse";
        }
    }
    m.finish();
    if (m.ok() && d.list().size() == before)
      for (std::size_t i = 0; i < 6; ++i)
        if (!seen[i]) d.error(n.where, "hits_on_mounted: D6 face " + std::to_string(i + 1) + " hits neither horse nor rider");
  }

  void unit_types(const Doc& n) {
    if (!n.is_map() || n.entries.empty()) {
      d.error(n.where, std::string("expected a map of unit types, found ") + n.kind_name());
      return;
    }
    for (const auto& e : n.entries) {
      UnitType t;
      t.id = e.key;
      std::string what = "unit type '" + e.key + "'";
      MapReader m(e.value, d, what);
      claim_type_word(e.key, e.key, e.key_where, what);
      if (auto x = m.required("name")) {
        t.name = read_string(*x, d, what + " name").value_or(e.key);
        for (const std::string& part : defender_text_parts(t.name)) claim_type_word(part, e.key, x->where, what + " name");
      }
      // `words` (issue 30): more words a player may use for the type ("heavy
      // cavalry"); the solo front reads them (sims/solo/solo_turn.cpp,
      // unit_type_words).
      if (const Doc* x = m.optional("words"))
        for (auto& [word, where] : read_words(*x, d, what + " words", "what a player may call the type, e.g. [heavy cavalry]")) {
          claim_type_word(word, e.key, where, what + " words");
          t.words.push_back(std::move(word));
        }
      // `default_weapon` (issue 28): checked against the weapons once they
      // are read (check_default_weapons).
      if (const Doc* x = m.optional("default_weapon"))
        if (auto v = read_string(*x, d, what + " default_weapon")) {
          t.default_weapon = *v == "none" ? std::string() : *v;
          if (!t.default_weapon.empty()) default_weapon_where.emplace_back(r.unit_types.size(), x->where);
        }
      if (auto x = m.optional("can_gallop")) t.can_gallop = read_bool(*x, d, what + " can_gallop").value_or(true);
      if (auto x = m.optional("shoots_mounted")) t.shoots_mounted = read_bool(*x, d, what + " shoots_mounted").value_or(true);
      if (auto x = m.optional("melee")) t.melee = static_cast<int>(read_int(*x, d, what + " melee", -20, 20).value_or(0));
      if (auto x = m.optional("melee_charging")) t.melee_charging = static_cast<int>(read_int(*x, d, what + " melee_charging", -20, 20).value_or(0));
      m.finish();
      r.unit_types.push_back(std::move(t));
    }
  }

  void switches(const Doc& n) {
    MapReader m(n, d, "switches");
    if (auto x = m.optional("weapons_range"))
      if (auto i = read_choice(*x, d, "weapons_range", names_of(k_weapons_range_names))) r.switches.weapons_range = static_cast<WeaponsRange>(*i);
    if (auto x = m.optional("no_gallop_pace"))
      if (auto i = read_choice(*x, d, "no_gallop_pace", {"halt", "walk", "canter"})) r.switches.no_gallop_pace = static_cast<Pace>(*i);
    m.finish();
  }

  // `difficulty:` (tables/README.md): how strong the automated side plays.
  // rf_offset is added to the risk factor of every unit the Actions Table
  // drives, as one more modifier that always applies (so it shows in every
  // RF breakdown); 0 adds no modifier at all.
  void difficulty(const Doc& n) {
    MapReader m(n, d, "difficulty");
    if (auto x = m.optional("rf_offset")) {
      const int v = static_cast<int>(read_int(*x, d, "difficulty rf_offset", -20, 20).value_or(0));
      if (v != 0) {
        Modifier mod;
        mod.id = "difficulty";
        mod.text = "Difficulty: the automated side's RF offset (difficulty.rf_offset)";
        mod.value = v;
        mod.kind = Modifier::Kind::all;  // no facts: always applies
        r.modifiers.push_back(std::move(mod));
      }
    }
    m.finish();
  }

  void build(const Doc& root) {
    MapReader top(root, d, "the ruleset");
    if (!top.ok()) return;
    if (auto x = top.optional("name")) r.name = read_string(*x, d, "name").value_or("");
    if (auto x = top.optional("description")) r.description = read_string(*x, d, "description").value_or("");
    if (auto x = top.optional("units"))
      if (auto i = read_choice(*x, d, "units", {"cm", "in", "mm"})) r.units = static_cast<LengthUnit>(*i);
    if (auto x = top.required("behaviours")) behaviours(*x);
    if (auto x = top.required("bands")) bands(*x);
    if (auto x = top.required("modifiers")) modifiers(*x);
    if (auto x = top.optional("difficulty")) difficulty(*x);
    if (auto x = top.optional("switches")) switches(*x);
    supplement(top);
    if (auto x = top.optional("weapons")) read_weapons(*x, d, r);
    check_default_weapons();
    if (auto x = top.optional("profiles")) read_profiles(*x, d, r);
    if (auto x = top.optional("combat")) read_combat(*x, d, r);
    if (auto x = top.required("charge")) load_charge_rules(*x, d, r.charge);
    if (auto x = top.optional("skirmish")) r.skirmish = read_skirmish_rules(*x, d);  // seed 001
    top.finish();
  }
};

RulesetPtr build(const Doc& root, std::vector<std::string> sources) {
  auto r = std::make_shared<Ruleset>();
  r->sources = std::move(sources);
  Diagnostics d;
  Builder{d, *r}.build(root);
  d.throw_if_any();
  return r;
}

}  // namespace

RulesetPtr load_ruleset(const std::string& path, const std::vector<std::pair<std::string, std::string>>& edits) {
  std::vector<std::string> stack, sources;
  Doc root = load_chain(path, stack, sources);
  for (const auto& [p, v] : edits)
    if (!set_path(root, p, v)) {
      // The flag is what is wrong, not a line of the ruleset file.
      const PathProblem why = path_problem(root, p);
      std::string msg = "no such setting in the ruleset: '" + p + "'";
      if (!why.part.empty()) {
        msg += ": " + (why.prefix.empty() ? std::string("the ruleset") : "'" + why.prefix + "'") + " has no '" + why.part + "'";
        if (!why.nearest.empty()) msg += ", did you mean '" + (why.prefix.empty() ? why.nearest : why.prefix + "." + why.nearest) + "'?";
        msg += " (expected " + why.expected + ")";
      } else if (!why.expected.empty()) {
        msg += ": expected " + why.expected;
        if (!why.nearest.empty()) msg += ", e.g. '" + why.nearest + "'";
      }
      throw LoadError({"--set " + p + "=" + v, 0, 0}, msg);
    }
  return build(root, std::move(sources));
}

RulesetPtr load_ruleset(const std::string& path) {
  // A built-in table never changes while vedette runs: built once per
  // process (a lab command or `vedette schema`'s exploration loads
  // builtin:default for every scenario it reads).
  if (path.rfind(k_builtin, 0) != 0) return load_ruleset(path, {});
  static std::mutex m;
  static std::map<std::string, RulesetPtr> built;
  {
    std::lock_guard<std::mutex> lock(m);
    if (auto it = built.find(path); it != built.end()) return it->second;
  }
  RulesetPtr r = load_ruleset(path, {});  // (throws for an unknown name: nothing kept)
  std::lock_guard<std::mutex> lock(m);
  return built.emplace(path, std::move(r)).first->second;
}

Doc load_ruleset_doc(const std::string& path, std::vector<std::string>* sources) {
  std::vector<std::string> stack, found;
  Doc root = load_chain(path, stack, found);
  if (sources) *sources = std::move(found);
  return root;
}

std::string extends_target(const std::string& path) {
  Doc doc = read_source(path);
  const Doc* ext = doc.is_map() ? doc.find("extends") : nullptr;
  if (!ext || !ext->is_scalar() || ext->scalar.empty()) return "";
  return resolve_extends(path, ext->scalar);
}

RulesetDiff diff_rulesets(const std::string& base, const std::string& variant) {
  return {base, variant, diff_docs(load_ruleset_doc(base), load_ruleset_doc(variant))};
}

RulesetDiff diff_overlay(const std::string& file) {
  const std::string base = extends_target(file);
  if (base.empty()) {
    load_ruleset_doc(file);  // still checked: a file that does not parse is refused
    return {"", file, {}};
  }
  return diff_rulesets(base, file);
}

RulesetPtr default_ruleset() {
  static const RulesetPtr r = load_ruleset("builtin:default");
  return r;
}

Length target_base_depth(const Ruleset& r, DefenderClass target) {
  const auto& f = r.combat.formations;
  return (r.charge.kind(target) == DefenderKind::horse ? f.cavalry_base : f.infantry_base).depth;
}

ChargeGeometry table_charge_geometry(const Ruleset& r, Length move, Length distance, double bearing_deg,
                                     DefenderClass target) {
  ChargeTarget t;
  t.distance = distance;
  t.target_base = target_base_depth(r, target);
  t.bearing_lo_deg = t.bearing_hi_deg = bearing_deg;
  return charge_geometry(r.charge, move, t);
}

}  // namespace vedette
