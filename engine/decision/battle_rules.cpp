// Loading the engagement sections of a ruleset: weapons, profiles, combat.
// Same style as engine/decision/ruleset.cpp: MapReader, located errors, every problem
// reported (no stop at the first).
#include "engine/decision/battle_rules.hpp"

#include "engine/core/doc.hpp"
#include "engine/core/schema_notes.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/core/words.hpp"

namespace vedette {

std::optional<std::size_t> Weapon::band_at(Length d, int shift) const {
  for (std::size_t i = 0; i < bands.size(); ++i) {
    if (d <= bands[i].to) {
      const std::size_t j = i + static_cast<std::size_t>(shift < 0 ? 0 : shift);
      if (j < bands.size()) return j;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

namespace {

int read_int_or(const Doc* x, Diagnostics& d, const std::string& what, long long min, long long max, int fallback) {
  if (!x) return fallback;
  return static_cast<int>(read_int(*x, d, what, min, max).value_or(fallback));
}

double read_number_or(const Doc* x, Diagnostics& d, const std::string& what, double min, double max, double fallback) {
  if (!x) return fallback;
  return read_number(*x, d, what, min, max).value_or(fallback);
}

Length read_length_or(const Doc* x, Diagnostics& d, const std::string& what, Length fallback) {
  if (!x) return fallback;
  return read_length(*x, d, what).value_or(fallback);
}

bool read_bool_or(const Doc* x, Diagnostics& d, const std::string& what, bool fallback) {
  if (!x) return fallback;
  return read_bool(*x, d, what).value_or(fallback);
}

// A list of D6 faces, e.g. [6] or [5, 6].
std::array<bool, 6> read_faces(const Doc* x, Diagnostics& d, const std::string& what, std::array<bool, 6> fallback) {
  if (!x) return fallback;
  if (!x->is_sequence()) {
    d.error(x->where, "expected a list of D6 faces (e.g. [6]) for " + what + ", found " + x->kind_name());
    return fallback;
  }
  std::array<bool, 6> out{};
  for (const auto& f : x->items)
    if (auto v = read_int(f, d, "a D6 face for " + what, 1, 6)) {
      auto i = static_cast<std::size_t>(*v - 1);
      if (out[i]) d.error(f.where, "D6 face " + std::to_string(*v) + " is given twice in " + what);
      out[i] = true;
    }
  return out;
}

Base read_base(const Doc* x, Diagnostics& d, const std::string& what, Base fallback) {
  if (!x) return fallback;
  MapReader m(*x, d, what);
  Base b = fallback;
  if (auto y = m.required("frontage")) b.frontage = read_length(*y, d, what + " frontage").value_or(fallback.frontage);
  if (auto y = m.required("depth")) b.depth = read_length(*y, d, what + " depth").value_or(fallback.depth);
  m.finish();
  for (const auto& [len, key] : {std::pair{b.frontage, "frontage"}, std::pair{b.depth, "depth"}})
    if (m.ok() && !(len.as_cm() > 0)) d.error(x->where, what + ": " + key + " must be more than zero");
  return b;
}

}  // namespace

void read_weapons(const Doc& n, Diagnostics& d, Ruleset& r) {
  if (!n.is_map()) {
    d.error(n.where, std::string("expected a map of weapons (id: {name, bands}), found ") + n.kind_name());
    return;
  }
  for (const auto& e : n.entries) {
    Weapon w;
    w.id = e.key;
    const std::string what = "weapon '" + e.key + "'";
    MapReader m(e.value, d, what);
    w.name = e.key;
    if (auto x = m.optional("name")) w.name = read_string(*x, d, what + " name").value_or(e.key);
    if (auto x = m.required("bands")) {
      if (!x->is_sequence() || x->items.empty()) {
        d.error(x->where, "expected a list of range bands ({to: LENGTH, hit: D6 score}) for " + what + ", found " + x->kind_name());
      } else {
        for (std::size_t i = 0; i < x->items.size(); ++i) {
          const Doc& b = x->items[i];
          const std::string bw = what + " band " + std::to_string(i + 1);
          MapReader bm(b, d, bw);
          RangeBand band;
          const Doc* to = bm.required("to");
          if (to) band.to = read_length(*to, d, bw + " to").value_or(Length());
          if (auto h = bm.required("hit")) band.hit = static_cast<int>(read_int(*h, d, bw + " hit (the D6 score needed)", 1, 7).value_or(6));
          bm.finish();
          if (to && !w.bands.empty() && !(w.bands.back().to < band.to))
            d.error(to->where, bw + ": range bands must get longer (nearest first); " + to->scalar + " is not beyond the band before");
          if (to && !(band.to.as_cm() > 0)) d.error(to->where, bw + ": the range must be more than zero");
          w.bands.push_back(band);
        }
      }
    }
    m.finish();
    r.weapons.push_back(std::move(w));
  }
}

void read_profiles(const Doc& n, Diagnostics& d, Ruleset& r) {
  if (!n.is_map()) {
    d.error(n.where, std::string("expected a map of unit profiles (id: {name, kind, ...}), found ") + n.kind_name());
    return;
  }
  std::vector<std::string> types, weapons;
  for (const auto& t : r.unit_types) types.push_back(t.id);
  for (const auto& w : r.weapons) weapons.push_back(w.id);
  for (const auto& e : n.entries) {
    Profile p;
    p.id = e.key;
    const std::string what = "profile '" + e.key + "'";
    MapReader m(e.value, d, what);
    if (auto x = m.required("name")) p.name = read_string(*x, d, what + " name").value_or(e.key);
    const Doc* kind = m.required("kind");
    if (kind)
      if (auto i = read_choice(*kind, d, "kind", names_of(k_unit_kind_names))) p.kind = static_cast<UnitKind>(*i);
    const Doc* type = m.optional("type");
    const Doc* weight = m.optional("weight");
    const Doc* cls = m.optional("class");
    const Doc* pikes = m.optional("pikes");
    const Doc* move = m.optional("move");
    const Doc* weapon = m.optional("weapon");
    m.finish();
    if (!m.ok() || !kind) {
      r.profiles.push_back(std::move(p));
      continue;
    }
    if (p.kind == UnitKind::cavalry) {
      // Seed 002 type + seed 003 weight; mounted infantry also has a foot
      // class and a move for when it fights on foot.
      if (!type) d.error(e.value.where, what + ": a cavalry profile needs a type (seed 002: " + [&] {
                           std::string s;
                           for (const auto& t : types) s += (s.empty() ? "" : ", ") + t;
                           return s;
                         }() + ")");
      else if (auto i = read_name(*type, d, "unit type", types)) p.unit_type = *i;
      if (!weight) d.error(e.value.where, what + ": a cavalry profile needs a weight (seed 003: light, medium or heavy)");
      else if (auto i = read_choice(*weight, d, "weight", names_of(k_weight_names))) p.weight = static_cast<Weight>(*i);
      const bool mi = type && p.unit_type < r.unit_types.size() && !r.unit_types[p.unit_type].shoots_mounted;
      if (mi) {
        if (!cls || !move)
          d.error(e.value.where, what + ": a type that may not shoot mounted (" + type->scalar +
                                     ") fights on foot, so it needs a class and a move for when dismounted");
      } else {
        if (cls) d.error(cls->where, what + ": class belongs to infantry (or to mounted infantry on foot)");
        if (move) d.error(move->where, what + ": mounted cavalry moves by the paces (paces:), not by a move");
      }
      if (pikes) d.error(pikes->where, what + ": pikes belong to infantry");
    } else {
      if (type) d.error(type->where, what + ": type belongs to cavalry");
      if (weight) d.error(weight->where, what + ": weight belongs to cavalry");
      if (!cls) d.error(e.value.where, what + ": an infantry profile needs a class (seed 003: peasants, light_foot, heavy_foot, elite_foot)");
      if (!move) d.error(e.value.where, what + ": an infantry profile needs a move (e.g. 6in)");
    }
    if (cls)
      if (auto i = read_choice(*cls, d, "class", names_of(k_foot_class_names))) p.foot = static_cast<FootClass>(*i);
    if (move) {
      p.move = read_length(*move, d, what + " move").value_or(Length());
      if (!(p.move.as_cm() > 0)) d.error(move->where, what + ": the move must be more than zero");
    }
    if (pikes && p.kind == UnitKind::infantry) p.pikes = read_bool(*pikes, d, what + " pikes").value_or(false);
    if (weapon)
      if (auto i = read_name(*weapon, d, "weapon", weapons)) p.weapon = *i;
    r.profiles.push_back(std::move(p));
  }
}

void read_combat(const Doc& n, Diagnostics& d, Ruleset& r) {
  CombatRules& c = r.combat;
  MapReader top(n, d, "combat");
  if (auto x = top.required("formations")) {
    MapReader m(*x, d, "combat formations");
    c.formations.cavalry_base = read_base(m.required("cavalry_base"), d, "cavalry_base", c.formations.cavalry_base);
    c.formations.infantry_base = read_base(m.required("infantry_base"), d, "infantry_base", c.formations.infantry_base);
    c.formations.line_ranks = read_int_or(m.required("line_ranks"), d, "line_ranks", 1, 20, c.formations.line_ranks);
    c.formations.column_files = read_int_or(m.required("column_files"), d, "column_files", 1, 20, c.formations.column_files);
    m.finish();
  }
  if (auto x = top.required("movement")) {
    MapReader m(*x, d, "combat movement");
    c.movement.about_face_free = read_bool_or(m.required("about_face_free"), d, "movement about_face_free", c.movement.about_face_free);
    c.movement.stand_off = read_length_or(m.required("stand_off"), d, "movement stand_off", c.movement.stand_off);
    if (auto y = m.required("away_from"))
      if (auto i = read_choice(*y, d, "movement away_from", {"nearest", "centre"})) c.movement.away_from = static_cast<CombatRules::AwayFrom>(*i);
    m.finish();
  }
  if (auto x = top.required("initiative")) {
    MapReader m(*x, d, "combat initiative");
    c.initiative.dice = read_int_or(m.required("dice"), d, "initiative dice", 1, 10, c.initiative.dice);
    m.finish();
  }
  if (auto x = top.required("charge")) {
    MapReader m(*x, d, "combat charge");
    c.charge.first_turn = read_bool_or(m.required("first_turn"), d, "charge first_turn", c.charge.first_turn);
    if (auto y = m.required("allowance"))
      if (auto i = read_choice(*y, d, "charge allowance", {"pace", "walk"})) c.charge.allowance = static_cast<CombatRules::Allowance>(*i);
    c.charge.initiation_target = read_int_or(m.required("initiation_target"), d, "charge initiation_target", 2, 13, c.charge.initiation_target);
    if (auto y = m.required("next_turn_pace"))
      if (auto i = read_choice(*y, d, "charge next_turn_pace", {"halt", "walk", "canter", "gallop"})) c.charge.next_turn_pace = static_cast<Pace>(*i);
    m.finish();
  }
  if (auto x = top.required("shooting")) {
    MapReader m(*x, d, "combat shooting");
    c.shooting.figures_per_die = read_int_or(m.required("figures_per_die"), d, "shooting figures_per_die", 1, 100, c.shooting.figures_per_die);
    c.shooting.arc_half_degrees = read_number_or(m.required("arc_half_degrees"), d, "shooting arc_half_degrees", 0, 180, c.shooting.arc_half_degrees);
    c.shooting.cover_penalty = read_int_or(m.required("cover_penalty"), d, "shooting cover_penalty", 0, 6, c.shooting.cover_penalty);
    m.finish();
  }
  if (auto x = top.required("melee")) {
    MapReader m(*x, d, "combat melee");
    c.melee.figures_per_die = read_int_or(m.required("figures_per_die"), d, "melee figures_per_die", 1, 100, c.melee.figures_per_die);
    c.melee.hit = read_int_or(m.required("hit"), d, "melee hit", 1, 7, c.melee.hit);
    c.melee.loser_retreat_moves = read_number_or(m.required("loser_retreat_moves"), d, "melee loser_retreat_moves", 0, 10, c.melee.loser_retreat_moves);
    c.melee.tie_fall_back = read_length_or(m.required("tie_fall_back"), d, "melee tie_fall_back", c.melee.tie_fall_back);
    c.melee.follow_through = read_bool_or(m.required("follow_through"), d, "melee follow_through", c.melee.follow_through);
    m.finish();
  }
  if (auto x = top.required("morale")) {
    MapReader m(*x, d, "combat morale");
    c.morale.rout_losses_pct = read_int_or(m.required("rout_losses_pct"), d, "morale rout_losses_pct", 1, 100, c.morale.rout_losses_pct);
    c.morale.rally_target = read_int_or(m.required("rally_target"), d, "morale rally_target", 2, 13, c.morale.rally_target);
    c.morale.rally_enemy_clear = read_length_or(m.required("rally_enemy_clear"), d, "morale rally_enemy_clear", c.morale.rally_enemy_clear);
    m.finish();
  }
  if (auto x = top.required("hex")) {
    c.hex = read_length(*x, d, "hex").value_or(c.hex);
    if (!(c.hex.as_cm() > 0)) d.error(x->where, "hex must be more than zero");
  }
  if (auto x = top.required("retire_and_reform")) {
    MapReader m(*x, d, "combat retire_and_reform");
    c.retire.hexes = read_number_or(m.required("hexes"), d, "retire_and_reform hexes", 0, 20, c.retire.hexes);
    c.retire.hit_faces = read_faces(m.required("hit_faces"), d, "retire_and_reform hit_faces", c.retire.hit_faces);
    m.finish();
  }
  if (auto x = top.required("dismount")) {
    MapReader m(*x, d, "combat dismount");
    c.dismount.on_halt = read_bool_or(m.required("on_halt"), d, "dismount on_halt", c.dismount.on_halt);
    m.finish();
  }
  top.finish();
}

}  // namespace vedette
