// The loader of a ruleset's `skirmish:` section (engine/decision/skirmish_rules.hpp).
#include "engine/decision/skirmish_rules.hpp"

#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "engine/core/words.hpp"

namespace vedette {

Wound WoundColumn::result(int total) const {
  for (const Row& r : rows)
    if (total <= r.upto) return r.result;
  return rows.empty() ? Wound::none : rows.back().result;
}

const SkirmishWeapon* SkirmishRules::find_weapon(std::string_view id) const {
  for (const auto& w : weapons)
    if (w.id == id) return &w;
  return nullptr;
}

const WoundColumn* SkirmishRules::find_column(std::string_view id) const {
  for (const auto& c : columns)
    if (c.id == id) return &c;
  return nullptr;
}

namespace {

struct Reader {
  Diagnostics& d;
  SkirmishRules& r;

  void len(MapReader& m, const char* key, const std::string& what, Length& out) {
    if (auto x = m.required(key))
      if (auto v = read_length(*x, d, what + "." + key)) out = *v;
  }
  void num(MapReader& m, const char* key, const std::string& what, int& out, int min, int max) {
    if (auto x = m.required(key))
      if (auto v = read_int(*x, d, what + "." + key, min, max)) out = static_cast<int>(*v);
  }
  void flag(MapReader& m, const char* key, const std::string& what, bool& out) {
    if (auto x = m.required(key))
      if (auto v = read_bool(*x, d, what + "." + key)) out = *v;
  }
  void str(MapReader& m, const char* key, const std::string& what, std::string& out) {
    if (auto x = m.required(key))
      if (auto v = read_string(*x, d, what + "." + key)) out = *v;
  }
  void wound(MapReader& m, const char* key, const std::string& what, Wound& out) {
    if (auto x = m.required(key))
      if (auto v = read_choice(*x, d, what + "." + key, names_of(k_wound_names))) out = static_cast<Wound>(*v);
  }

  void weapons(const Doc& n) {
    MapReader all(n, d, "skirmish.base_game.weapons");
    if (!all.ok()) return;
    for (const auto& e : n.entries) {
      const std::string what = "weapon " + e.key;
      SkirmishWeapon w;
      w.id = e.key;
      MapReader m(e.value, d, what);
      if (!m.ok()) continue;
      str(m, "name", what, w.name);
      str(m, "column", what, w.column);
      if (auto x = m.required("bands")) {
        if (!x->is_sequence() || x->items.empty()) {
          d.error(x->where, "expected a non-empty list of {to: LENGTH, hit: N} for " + what + ".bands, found " + x->kind_name());
        } else {
          for (const Doc& it : x->items) {
            MapReader b(it, d, what + " band");
            if (!b.ok()) continue;
            SkirmishWeapon::Band band;
            len(b, "to", what + " band", band.to);
            num(b, "hit", what + " band", band.hit, -100, 100);
            b.finish();
            if (!w.bands.empty() && band.to.as_cm() <= w.bands.back().to.as_cm())
              d.error(it.where, "expected " + what + " bands nearest first, each reaching further than the one before");
            w.bands.push_back(band);
          }
        }
      }
      if (auto x = m.optional("fire_while_moving")) w.fire_while_moving = read_bool(*x, d, what + ".fire_while_moving").value_or(false);
      if (auto x = m.optional("he")) w.he = read_bool(*x, d, what + ".he").value_or(false);
      if (auto x = m.optional("close_combat"))
        w.close_combat = static_cast<int>(read_int(*x, d, what + ".close_combat", -100, 100).value_or(0));
      m.finish();
      r.weapons.push_back(std::move(w));
    }
  }

  void columns(const Doc& n) {
    MapReader all(n, d, "skirmish.base_game.wound_table");
    if (!all.ok()) return;
    for (const auto& e : n.entries) {
      const std::string what = "wound table column " + e.key;
      WoundColumn c;
      c.id = e.key;
      if (!e.value.is_sequence() || e.value.items.empty()) {
        d.error(e.value.where, "expected a non-empty list of {upto: N, result: RESULT} for " + what + ", found " + e.value.kind_name());
        continue;
      }
      for (const Doc& it : e.value.items) {
        MapReader m(it, d, what + " row");
        if (!m.ok()) continue;
        WoundColumn::Row row;
        num(m, "upto", what + " row", row.upto, -1000, 1000);
        wound(m, "result", what + " row", row.result);
        m.finish();
        if (!c.rows.empty() && row.upto <= c.rows.back().upto)
          d.error(it.where, "expected the rows of " + what + " in rising order of `upto`");
        c.rows.push_back(row);
      }
      r.columns.push_back(std::move(c));
    }
  }

  void base_game(const Doc& n) {
    const std::string what = "skirmish.base_game";
    MapReader m(n, d, what);
    if (!m.ok()) return;
    num(m, "die", what, r.die, 2, 1000);
    num(m, "actions_per_turn", what, r.actions_per_turn, 1, 10);
    len(m, "foot_move", what, r.foot_move);
    num(m, "prone_to_hit", what, r.prone_to_hit, -100, 100);
    num(m, "gut_check_modifier", what, r.gut_check_modifier, -100, 100);
    len(m, "contact", what, r.contact);
    len(m, "wall_cover_reach", what, r.wall_cover_reach);
    str(m, "hand_to_hand_column", what, r.hand_to_hand_column);
    if (auto x = m.required("weapons")) weapons(*x);
    if (auto x = m.required("wound_table")) columns(*x);
    m.finish();
  }

  void section(MapReader& top, const char* key, auto&& body) {
    if (auto x = top.required(key)) {
      const std::string what = std::string("skirmish.") + key;
      MapReader m(*x, d, what);
      if (!m.ok()) return;
      body(m, what);
      m.finish();
    }
  }

  void read(const Doc& node) {
    MapReader top(node, d, "skirmish");
    if (!top.ok()) return;
    if (auto x = top.required("base_game")) base_game(*x);
    section(top, "movement", [&](MapReader& m, const std::string& w) {
      len(m, "per_action", w, r.horse_move);
      len(m, "obstacle_penalty", w, r.obstacle_penalty);
      len(m, "riding_double", w, r.double_move);
      num(m, "mount_actions", w, r.mount_actions, 0, 10);
    });
    section(top, "dismounts", [&](MapReader& m, const std::string& w) {
      num(m, "horses_per_holder", w, r.horses_per_holder, 1, 100);
      len(m, "holder_reach", w, r.holder_reach);
      wound(m, "bolt_at", w, r.bolt_at);
      len(m, "he_bolt_radius", w, r.he_bolt_radius);
    });
    section(top, "firing_from_horseback", [&](MapReader& m, const std::string& w) {
      num(m, "modifier", w, r.horseback_fire, -100, 100);
      if (auto x = m.required("applies"))
        if (auto v = read_choice(*x, d, w + ".applies", names_of(k_horseback_penalty_names))) r.horseback_penalty = static_cast<HorsebackPenalty>(*v);
    });
    section(top, "mounted_targets", [&](MapReader& m, const std::string& w) {
      num(m, "modifier", w, r.mounted_target, -100, 100);
      len(m, "per_moved", w, r.moved_step);
      num(m, "per_step", w, r.per_step, -100, 100);
      if (auto x = m.required("horse_on")) {
        if (!x->is_sequence()) {
          d.error(x->where, "expected a list of D6 faces for " + w + ".horse_on, found " + x->kind_name());
        } else {
          r.hit_horse = {};
          for (const Doc& it : x->items)
            if (auto f = read_int(it, d, w + ".horse_on", 1, 6)) r.hit_horse[static_cast<std::size_t>(*f - 1)] = true;
        }
      }
      flag(m, "riders_ignore_suppression", w, r.riders_ignore_suppression);
      wound(m, "horse_mortal_at", w, r.horse_mortal_at);
      num(m, "spill_die", w, r.spill_die, 1, 100);
      if (auto x = m.required("spill"))
        if (auto v = read_choice(*x, d, w + ".spill", names_of(k_spill_names))) r.spill = static_cast<SpillDirection>(*v);
    });
    section(top, "knocked_off", [&](MapReader& m, const std::string& w) {
      str(m, "column", w, r.fall_column);
      num(m, "standing_modifier", w, r.fall_standing_modifier, -100, 100);
      num(m, "moving_modifier", w, r.fall_moving_modifier, -100, 100);
    });
    section(top, "fear_of_charge", [&](MapReader& m, const std::string& w) {
      len(m, "charge_min", w, r.charge_min);
      len(m, "radius", w, r.fear_radius);
      num(m, "cover_exempt", w, r.fear_cover_exempt, 0, 100);
      len(m, "flee", w, r.fear_flee);
      if (auto x = m.required("per"))
        if (auto v = read_choice(*x, d, w + ".per", names_of(k_fear_per_names))) r.fear_per = static_cast<FearPer>(*v);
      len(m, "together", w, r.fear_together);
    });
    section(top, "close_combat", [&](MapReader& m, const std::string& w) {
      if (auto x = m.required("modifiers"))
        if (auto v = read_choice(*x, d, w + ".modifiers", names_of(k_modifier_sign_names))) r.close_combat_sign = static_cast<ModifierSign>(*v);
      num(m, "prone_modifier", w, r.prone_modifier, -100, 100);
      str(m, "column", w, r.contact_column);
      num(m, "rider_modifier", w, r.rider_close_combat, -100, 100);
      flag(m, "mounted_in_buildings", w, r.mounted_melee_in_buildings);
    });
    section(top, "final_charge", [&](MapReader& m, const std::string& w) { str(m, "column", w, r.final_charge_column); });
    top.finish();

    // Every column named must exist.
    auto need = [&](const std::string& col, const std::string& who) {
      if (!col.empty() && !r.find_column(col))
        d.error(node.where, "skirmish: " + who + " names wound table column '" + col + "', which skirmish.base_game.wound_table lacks");
    };
    for (const auto& w : r.weapons) need(w.column, "weapon " + w.id);
    need(r.hand_to_hand_column, "base_game.hand_to_hand_column");
    need(r.fall_column, "knocked_off.column");
    need(r.contact_column, "close_combat.column");
    need(r.final_charge_column, "final_charge.column");
  }
};

}  // namespace

std::optional<SkirmishRules> read_skirmish_rules(const Doc& node, Diagnostics& d) {
  SkirmishRules r;
  const std::size_t before = d.list().size();
  Reader{d, r}.read(node);
  if (d.list().size() != before) return std::nullopt;
  return r;
}

}  // namespace vedette
