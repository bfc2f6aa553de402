// Solo sessions: reading a file back, with located errors, and replaying
// its history (session.cpp) as it is read.
#include "sims/solo/session.hpp"
#include "sims/solo/solo_module.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>
#include <system_error>

#include "engine/decision/charge.hpp"
#include "engine/core/dice.hpp"
#include "engine/core/doc.hpp"
#include "engine/core/schema_notes.hpp"
#include "sims/io/atomic_file.hpp"
#include "sims/solo/session_text.hpp"

namespace vedette::solo {

namespace fs = std::filesystem;
using detail::b;

// ------------------------------------------------------------------ reading

namespace {

struct Reader {
  Diagnostics& d;

  std::optional<std::uint64_t> u64(const Doc& n, const std::string& what) {
    if (n.is_scalar() && !n.quoted) {
      std::uint64_t v = 0;
      const auto& s = n.scalar;
      auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec == std::errc() && p == s.data() + s.size() && !s.empty()) return v;
    }
    d.error(n.where, "expected a whole number from 0 to 18446744073709551615 for " + what + ", found " +
                         (n.is_scalar() ? "'" + n.scalar + "'" : std::string(n.kind_name())));
    return std::nullopt;
  }
  std::optional<int> num(const Doc* n, const std::string& what, int lo, int hi) {
    if (!n) return std::nullopt;
    auto v = read_int(*n, d, what, lo, hi);
    if (!v) return std::nullopt;
    return static_cast<int>(*v);
  }
  std::optional<bool> flag(const Doc* n, const std::string& what) {
    if (!n) return std::nullopt;
    return read_bool(*n, d, what);
  }
  std::optional<std::string> str(const Doc* n, const std::string& what) {
    if (!n) return std::nullopt;
    auto s = read_string(*n, d, what);
    if (s && !printable_utf8(*s)) {
      d.error(n->where, "expected printable text for " + what);
      return std::nullopt;
    }
    return s;
  }
  template <std::size_t N>
  std::optional<std::size_t> choice(const Doc* n, const std::string& what, const std::array<std::string_view, N>& names) {
    if (!n) return std::nullopt;
    return read_choice(*n, d, what, std::vector<std::string>(names.begin(), names.end()));
  }
  std::optional<Pace> pace(const Doc* n, const std::string& what) {
    auto c = choice(n, what, k_pace_names);
    if (!c) return std::nullopt;
    return static_cast<Pace>(*c);
  }
};

std::optional<Activation> read_activation(MapReader& m, Reader& r, const std::string& what) {
  Activation a;
  bool ok = true;
  auto need = [&](auto opt, auto& into) {
    if (opt) into = *opt;
    else ok = false;
  };
  if (const Doc* f = m.required("facts")) {
    MapReader fm(*f, r.d, what + " facts");
    need(r.flag(fm.required("hero"), "hero"), a.hero);
    need(r.flag(fm.required("raw"), "raw"), a.raw);
    need(r.pace(fm.required("pace"), "pace"), a.pace_before);
    need(r.num(fm.required("gallop_streak"), "gallop_streak", 0, 1000000), a.gallop_streak_before);
    need(r.flag(fm.required("ran_last_turn"), "ran_last_turn"), a.ran_last_turn);
    if (const Doc* c = fm.optional("charged_last_turn")) {  // absent in sessions written before seed 003's rule was kept
      if (auto v = r.flag(c, "charged_last_turn")) a.charged_last_turn = *v;
      else ok = false;
    }
    need(r.flag(fm.required("in_cover"), "in_cover"), a.in_cover);
    need(r.flag(fm.required("enemy_in_range"), "enemy_in_range"), a.enemy_in_range);
    need(r.flag(fm.required("enemy_flank_rear"), "enemy_flank_rear"), a.enemy_flank_rear);
    need(r.flag(fm.required("retreated_from_melee"), "retreated_from_melee"), a.retreated_from_melee);
    if (const Doc* of = fm.optional("on_foot")) need(r.flag(of, "on_foot"), a.on_foot);  // version 4
    need(r.num(fm.required("new_casualties"), "new_casualties", 0, 1000000), a.new_casualties);
    need(r.num(fm.required("casualties"), "casualties", 0, 1000000), a.casualties);
    need(r.num(fm.required("figures"), "figures", 1, k_max_figures), a.figures);
    fm.finish();
    ok = ok && fm.ok();
  } else {
    ok = false;
  }
  if (const Doc* asked = m.optional("asked")) {
    if (!asked->is_sequence()) {
      r.d.error(asked->where, "expected a list of questions for asked, found " + std::string(asked->kind_name()));
      ok = false;
    } else {
      for (const Doc& item : asked->items) {
        auto c = r.choice(&item, "question", k_question_names);
        if (c) a.asked.push_back(static_cast<Question>(*c));
        else ok = false;
      }
    }
  }
  need(r.num(m.required("rf"), "rf", -1000000, 1000000), a.rf);
  if (const Doc* bd = m.required("breakdown")) {
    if (!bd->is_sequence()) {
      r.d.error(bd->where, "expected a list for breakdown, found " + std::string(bd->kind_name()));
      ok = false;
    } else {
      for (const Doc& item : bd->items) {
        MapReader tm(item, r.d, "a breakdown term");
        RfTermRecord t;
        auto id = r.str(tm.required("id"), "id");
        auto v = r.num(tm.required("value"), "value", -1000000, 1000000);
        auto why = r.str(tm.optional("reason"), "reason");
        tm.finish();
        if (id && v) a.breakdown.push_back({*id, *v, why.value_or("")});
        else ok = false;
      }
    }
  } else {
    ok = false;
  }
  need(r.str(m.required("band"), "band"), a.band);
  need(r.num(m.required("roll"), "roll", 1, 6), a.roll);
  auto dice = r.choice(m.required("dice"), "dice", k_dice_source_names);
  if (dice) a.dice = static_cast<DiceSource>(*dice);
  else ok = false;
  if (const Doc* ri = m.optional("roll_index")) {
    auto v = r.u64(*ri, "roll_index");
    if (v) a.roll_index = *v;
    else ok = false;
  }
  if (const Doc* sd = m.optional("same_die_as")) {
    auto v = r.num(sd, "same_die_as", 1, 100000000);
    if (v) a.same_die_as = *v;
    else ok = false;
  }
  need(r.str(m.required("behaviour"), "behaviour"), a.behaviour);
  need(r.str(m.required("behaviour_text"), "behaviour_text"), a.behaviour_text);
  need(r.pace(m.required("table_pace"), "table_pace"), a.table_pace);
  need(r.pace(m.required("pace"), "pace"), a.pace);
  auto adj = r.choice(m.required("pace_limit"), "pace_limit", k_pace_adjust_names);
  if (adj) a.adjust = static_cast<PaceAdjust>(*adj);
  else ok = false;
  need(r.flag(m.required("running"), "running"), a.running);
  need(r.flag(m.required("charge_possible"), "charge_possible"), a.charge_possible);
  need(r.str(m.required("instruction"), "instruction"), a.instruction);
  if (auto note = r.str(m.optional("note"), "note")) a.note = *note;
  if (auto cr = r.str(m.optional("charge_refused"), "charge_refused")) a.charge_refused = *cr;
  if (!ok) return std::nullopt;
  return a;
}

// One of a charge's 2D6 checks, `key: {dice: [A, B], need: N, <flag>: BOOL}`
// (initiation, obstacle_check, charger_check), with the check's other keys
// read by `more` before the map is finished. False if anything was wrong.
template <class More>
bool read_check(MapReader& m, Reader& r, const char* key, const char* flag, std::optional<std::array<int, 2>>& dice,
                int& need_to, bool& flag_to, More more) {
  const Doc* node = m.optional(key);
  if (!node) return true;
  MapReader cm(*node, r.d, key);
  if (!cm.ok()) return false;
  bool ok = true;
  std::array<int, 2> d{};
  const Doc* dn = cm.required("dice");
  if (dn) note_items(*dn, 2);
  if (!dn || !dn->is_sequence() || dn->items.size() != 2) {
    if (dn) r.d.error(dn->where, std::string("expected two dice for ") + key + " dice, e.g. [3, 5]");
    ok = false;
  } else {
    for (std::size_t k = 0; k < 2; ++k) {
      auto v = r.num(&dn->items[k], "a die", 1, 6);
      if (v) d[k] = *v;
      else ok = false;
    }
  }
  dice = d;
  auto n = r.num(cm.required("need"), std::string(key) + " need", -100, 100);
  if (n) need_to = *n;
  else ok = false;
  auto f = r.flag(cm.required(flag), std::string(key) + " " + flag);
  if (f) flag_to = *f;
  else ok = false;
  ok = more(cm) && ok;
  cm.finish();
  return ok;
}

std::optional<ChargeRecord> read_charge(MapReader& m, Reader& r) {
  ChargeRecord c;
  bool ok = true;
  auto need = [&](auto opt, auto& into) {
    if (opt) into = *opt;
    else ok = false;
  };
  auto length = [&](const char* key, std::string& into, bool required) {
    const Doc* n = required ? m.required(key) : m.optional(key);
    if (!n) {
      if (required) ok = false;
      return;
    }
    auto l = read_length(*n, r.d, key);
    if (l) into = n->scalar;
    else ok = false;
  };
  need(r.num(m.required("activation"), "activation", 1, 100000000), c.activation);
  need(r.flag(m.required("declined"), "declined"), c.declined);
  // Version 6 (seed 003 L24, L34, L56).
  if (const Doc* tu = m.optional("target_unit")) need(r.str(tu, "target_unit"), c.target_unit);
  if (const Doc* rr = m.optional("refused_rule")) need(r.str(rr, "refused_rule"), c.refused_rule);
  if (const Doc* sf = m.optional("switched_from")) {
    MapReader sm(*sf, r.d, "switched_from");
    if (!sm.ok()) {
      ok = false;
    } else {
      c.switched = true;
      need(r.str(sm.required("unit"), "switched_from unit"), c.switched_from);
      if (const Doc* dn = sm.required("distance")) {
        if (read_length(*dn, r.d, "switched_from distance")) c.switched_from_distance = dn->scalar;
        else ok = false;
      } else {
        ok = false;
      }
      sm.finish();
      ok = ok && sm.ok();
    }
  }
  if (!ok || c.declined) return ok ? std::optional<ChargeRecord>(c) : std::nullopt;
  auto w = r.choice(m.required("attacker"), "attacker", k_attacker_weight_names);
  if (w) c.attacker = std::string(k_attacker_weight_names[*w]);
  else ok = false;
  length("move", c.move, true);
  length("distance", c.distance, true);
  if (const Doc* bn = m.required("bearing")) {
    auto v = read_number(*bn, r.d, "bearing", -100000, 100000);
    if (v) c.bearing = *v;
    else ok = false;
  } else {
    ok = false;
  }
  auto dc = r.choice(m.required("defender"), "defender", k_defender_class_names);
  if (dc) c.defender = std::string(k_defender_class_names[*dc]);
  else ok = false;
  auto side = r.choice(m.required("side"), "side", k_side_names);
  if (side) c.side = std::string(k_side_names[*side]);
  else ok = false;
  need(r.flag(m.required("both_charging"), "both_charging"), c.both_charging);
  need(r.flag(m.required("pikes_facing"), "pikes_facing"), c.pikes_facing);
  length("max_range", c.max_range, true);
  length("min_distance", c.min_distance, true);
  need(r.flag(m.required("reaches"), "reaches"), c.reaches);
  need(r.flag(m.required("charge_bonus"), "charge_bonus"), c.charge_bonus);
  length("forced_move", c.forced_move, false);
  need(r.flag(m.required("shaken"), "shaken"), c.shaken);
  need(r.flag(m.required("morale_check"), "morale_check"), c.morale_check);
  need(r.flag(m.required("automatic"), "automatic"), c.automatic);
  need(r.num(m.required("target"), "target", -100, 100), c.target);
  need(r.num(m.required("stand_ways"), "stand_ways", 0, 36), c.stand_ways);
  auto nothing_more = [](MapReader&) { return true; };
  ok = read_check(m, r, "initiation", "passed", c.initiation_dice, c.initiation_need, c.initiation_passed, nothing_more) && ok;
  if (const Doc* pn = m.optional("path")) {
    auto v = r.choice(pn, "path", k_charge_path_names);
    if (v) c.path = std::string(k_charge_path_names[*v]);
    else ok = false;
    if (c.path == "open") c.path.clear();
  }
  ok = read_check(m, r, "obstacle_check", "passed", c.obstacle_dice, c.obstacle_need, c.obstacle_passed, nothing_more) && ok;
  ok = read_check(m, r, "charger_check", "stands", c.charger_dice, c.charger_need, c.charger_stands, [&](MapReader& cm) {
         const Doc* mo = cm.optional("morale");
         if (!mo) return true;
         auto v = r.choice(mo, "charger_check morale", k_morale_names);
         if (v) c.charger_morale = static_cast<Morale>(*v);
         return v.has_value();
       }) && ok;
  if (const Doc* fn = m.optional("fear")) {  // version 4
    MapReader fm(*fn, r.d, "fear");
    if (!fm.ok()) {
      ok = false;
    } else {
      ChargeRecord::Fear f;
      need(r.flag(fm.required("exempt"), "fear exempt"), f.exempt);
      if (const Doc* fd = fm.required("dice")) {
        if (!fd->is_sequence() || fd->items.size() > 2) {
          r.d.error(fd->where, "expected at most two dice for the gut check's dice, e.g. [3, 5]");
          ok = false;
        } else {
          for (const Doc& item : fd->items) {
            auto v = r.num(&item, "a die", 1, 6);
            if (v) f.dice.push_back(*v);
            else ok = false;
          }
        }
      } else {
        ok = false;
      }
      need(r.num(fm.required("need"), "fear need", -1000, 1000), f.need);
      need(r.flag(fm.required("passed"), "fear passed"), f.passed);
      need(r.flag(fm.required("refuge"), "fear refuge"), f.refuge);
      fm.finish();
      ok = ok && fm.ok();
      c.fear = f;
    }
  }
  if (const Doc* sq = m.optional("square")) need(r.flag(sq, "square"), c.square);  // version 4
  const Doc* dn = m.optional("dice");
  if (dn || c.initiation_dice) {
    c.rolled = dn != nullptr;
    if (dn) note_items(*dn, 2);
    if (dn && (!dn->is_sequence() || dn->items.size() != 2)) {
      r.d.error(dn->where, "expected two dice for dice, e.g. [3, 5]");
      ok = false;
    } else if (dn) {
      for (std::size_t k = 0; k < 2; ++k) need(r.num(&dn->items[k], "a die", 1, 6), c.dice[k]);
    }
    auto src = r.choice(m.required("dice_source"), "dice_source", k_dice_source_names);
    if (src) c.dice_source = static_cast<DiceSource>(*src);
    else ok = false;
    if (const Doc* ri = m.optional("roll_index")) {
      auto v = r.u64(*ri, "roll_index");
      if (v) c.roll_index = *v;
      else ok = false;
    }
    if (const Doc* sd = m.optional("same_dice_as")) {
      auto v = r.num(sd, "same_dice_as", 1, 100000000);
      if (v) c.same_dice_as = *v;
      else ok = false;
    }
  }
  need(r.flag(m.required("stands"), "stands"), c.stands);
  need(r.str(m.required("outcome"), "outcome"), c.outcome);
  if (!ok) return std::nullopt;
  return c;
}

std::optional<StepRecord> read_step(MapReader& m, Reader& r) {
  StepRecord s;
  bool ok = true;
  auto need = [&](auto opt, auto& into) {
    if (opt) into = *opt;
    else ok = false;
  };
  if (const Doc* g = m.required("given")) {
    MapReader gm(*g, r.d, "given");
    if (!gm.ok()) {
      ok = false;
    } else {
      for (std::string_view k : k_step_given) gm.optional(k);  // every answer a step may record (for `vedette schema`)
      for (const auto& entry : g->entries) {
        if (std::find(k_step_given.begin(), k_step_given.end(), entry.key) == k_step_given.end()) {
          std::string keys;
          for (std::string_view k : k_step_given) keys += (keys.empty() ? "" : ", ") + std::string(k);
          r.d.error(entry.key_where, "unknown answer '" + entry.key + "' in given (expected one of " + keys + ")");
          ok = false;
          continue;
        }
        auto v = r.str(gm.optional(entry.key), entry.key);
        if (v) s.given[entry.key] = *v;
        else ok = false;
      }
    }
  } else {
    ok = false;
  }
  if (const Doc* dn = m.optional("dice")) {
    if (!dn->is_sequence() || dn->items.empty() || dn->items.size() > 1000) {
      r.d.error(dn->where, "expected a list of dice for dice, e.g. [3, 5]");
      ok = false;
    } else {
      for (const Doc& item : dn->items) {
        auto v = r.num(&item, "a die", 1, 6);
        if (v) s.dice.push_back(*v);
        else ok = false;
      }
    }
  }
  auto src = r.choice(m.required("dice_source"), "dice_source", k_dice_source_names);
  if (src) s.dice_source = static_cast<DiceSource>(*src);
  else ok = false;
  if (const Doc* ri = m.optional("roll_index")) {
    auto v = r.u64(*ri, "roll_index");
    if (v) s.roll_index = *v;
    else ok = false;
  }
  if (const Doc* sd = m.optional("same_dice_as")) {
    auto v = r.num(sd, "same_dice_as", 1, 100000000);
    if (v) s.same_dice_as = *v;
    else ok = false;
  }
  need(r.num(m.required("need"), "need", -1000, 1000), s.need);
  need(r.num(m.required("score"), "score", -1000, 100000), s.score);
  need(r.num(m.required("casualties"), "casualties", 0, k_max_figures), s.casualties);
  need(r.str(m.required("result"), "result"), s.result);
  if (const Doc* mo = m.optional("morale")) {
    auto c = r.choice(mo, "morale", k_morale_names);
    if (c) s.morale = static_cast<Morale>(*c);
    else ok = false;
  }
  need(r.flag(m.required("fell_back"), "fell_back"), s.fell_back);
  if (const Doc* dm = m.optional("dismounted")) need(r.flag(dm, "dismounted"), s.dismounted);  // version 4
  if (const Doc* ct = m.optional("counter")) {  // version 5
    static constexpr std::array<std::string_view, 2> k_counter{"met", "barred"};
    auto c = r.choice(ct, "counter", k_counter);
    if (c) s.counter = std::string(k_counter[*c]);
    else ok = false;
  }
  need(r.str(m.required("outcome"), "outcome"), s.outcome);
  if (!ok) return std::nullopt;
  return s;
}

std::optional<Event> read_event(const Doc& node, Reader& r, int expected_n) {
  std::string what = "history item " + std::to_string(expected_n);
  MapReader m(node, r.d, what);
  if (!m.ok()) return std::nullopt;
  Event e;
  e.where = node.where;
  for (const auto& entry : node.entries) {
    e.field_where[entry.key] = entry.value.where;
    if (entry.value.is_map())
      for (const auto& sub : entry.value.entries) e.field_where[entry.key + "." + sub.key] = sub.value.where;
  }
  auto n = r.num(m.required("n"), "n", 1, 100000000);
  auto turn = r.num(m.required("turn"), "turn", 1, 100000000);
  const Doc* kind_node = m.required("event");
  auto kind = r.choice(kind_node, "event", k_event_names);
  if (n && *n != expected_n) {
    r.d.error(m.node().find("n")->where, "history item " + std::to_string(expected_n) + " has n: " + std::to_string(*n) +
                                             "; events are numbered 1, 2, 3, ... in order (was one removed or moved?)");
    n.reset();
  }
  if (!n || !turn || !kind) {
    m.finish();
    return std::nullopt;
  }
  e.n = *n;
  e.turn = *turn;
  bool ok = true;
  auto unit = [&]() -> std::string {
    auto s = r.str(m.required("unit"), "unit");
    if (!s) ok = false;
    return s.value_or("");
  };
  switch (*kind) {
    case 0: {  // answer
      AnswerEvent a;
      a.unit = unit();
      auto qn = r.choice(m.required("question"), "question", k_question_names);
      if (qn) {
        a.question = static_cast<Question>(*qn);
        const Doc* v = m.required("value");
        if (is_yes_no(a.question)) {
          auto bv = r.flag(v, "value");
          if (bv) a.value = *bv;
          else ok = false;
        } else {
          auto iv = r.num(v, "value", 0, 1000000);
          if (iv) a.value = *iv;
          else ok = false;
        }
      } else {
        m.optional("value");
        ok = false;
      }
      e.body = a;
      break;
    }
    case 1: {
      CasualtiesEvent c;
      c.unit = unit();
      auto v = r.num(m.required("added"), "added", -1000000, 1000000);
      if (v) c.added = *v;
      else ok = false;
      e.body = c;
      break;
    }
    case 2: {
      ActivateEvent a;
      a.unit = unit();
      auto act = read_activation(m, r, what);
      if (act) a.a = std::move(*act);
      else ok = false;
      e.body = std::move(a);
      break;
    }
    case 3: e.body = NextTurnEvent{}; break;
    case 4: {
      auto v = r.num(m.required("undoes"), "undoes", 1, 100000000);
      if (v) e.body = UndoEvent{*v};
      else ok = false;
      break;
    }
    case 5: {
      auto v = r.num(m.required("redoes"), "redoes", 1, 100000000);
      if (v) e.body = RedoEvent{*v};
      else ok = false;
      break;
    }
    case 6: {
      auto o = r.str(m.required("old_hash"), "old_hash");
      auto h = r.str(m.required("new_hash"), "new_hash");
      if (o && h) e.body = RulesetEvent{*o, *h};
      else ok = false;
      break;
    }
    case 7: {
      const Doc* o = m.required("old_seed");
      const Doc* s = m.required("new_seed");
      std::optional<std::uint64_t> ov, sv;
      if (o) ov = r.u64(*o, "old_seed");
      if (s) sv = r.u64(*s, "new_seed");
      if (ov && sv) e.body = SeedEvent{*ov, *sv};
      else ok = false;
      break;
    }
    case 8: {
      MoraleEvent me;
      me.unit = unit();
      auto mo = r.choice(m.required("morale"), "morale", k_morale_names);
      if (mo) me.morale = static_cast<Morale>(*mo);
      else ok = false;
      me.reason = r.str(m.optional("reason"), "reason").value_or("");
      e.body = me;
      break;
    }
    case 10: {
      ChargeAnswerEvent ca;
      ca.unit = unit();
      auto f = r.choice(m.required("field"), "field", k_charge_fields);
      if (f) ca.field = std::string(k_charge_fields[*f]);
      else ok = false;
      auto v = r.str(m.required("value"), "value");
      if (v) ca.value = *v;
      else ok = false;
      e.body = std::move(ca);
      break;
    }
    case 9: {
      ChargeEvent ce;
      ce.unit = unit();
      auto c = read_charge(m, r);
      if (c) ce.c = std::move(*c);
      else ok = false;
      e.body = std::move(ce);
      break;
    }
    case 11: {
      auto st = read_step(m, r);
      if (st) e.body = InitiativeEvent{std::move(*st)};
      else ok = false;
      break;
    }
    case 12:
    case 13:
    case 14: {
      std::string u = unit();
      auto st = read_step(m, r);
      if (!st) {
        ok = false;
        break;
      }
      if (*kind == 12) e.body = ShootingEvent{u, std::move(*st)};
      else if (*kind == 13) e.body = MeleeEvent{u, std::move(*st)};
      else e.body = RallyEvent{u, std::move(*st)};
      break;
    }
    case 15:
    case 16: {  // version 5: the reactions (sims/solo/solo_react.hpp)
      std::string u = unit();
      auto st = read_step(m, r);
      if (!st) {
        ok = false;
        break;
      }
      if (*kind == 15) e.body = OpportunityEvent{u, std::move(*st)};
      else e.body = ChargedEvent{u, std::move(*st)};
      break;
    }
    case 17: e.body = YourMoveEvent{}; break;  // version 7
    default: ok = false;
  }
  m.finish();
  if (!ok) return std::nullopt;
  return e;
}

// Compares the memory written in the file with the one the history gives.
void compare_docs(const Doc& expected, const Doc& actual, const std::string& path, Diagnostics& d) {
  static const std::string k_tail =
      " (memory is derived from the history: change the game with `vedette solo` commands such as undo and "
      "casualties, or delete the whole memory section and it is written again)";
  if (expected.kind != actual.kind) {
    d.error(actual.where, path + ": expected " + expected.kind_name() + ", found " + actual.kind_name() + k_tail);
    return;
  }
  switch (expected.kind) {
    case Doc::Kind::null: return;
    case Doc::Kind::scalar:
      if (expected.scalar != actual.scalar)
        d.error(actual.where, path + " is " + actual.scalar + " but the history gives " + expected.scalar + k_tail);
      return;
    case Doc::Kind::sequence:
      if (expected.items.size() != actual.items.size()) {
        d.error(actual.where, path + " has " + std::to_string(actual.items.size()) + " items but the history gives " +
                                  std::to_string(expected.items.size()) + k_tail);
        return;
      }
      for (std::size_t k = 0; k < expected.items.size(); ++k)
        compare_docs(expected.items[k], actual.items[k], path + "[" + std::to_string(k + 1) + "]", d);
      return;
    case Doc::Kind::map:
      for (const auto& e : expected.entries) {
        const Doc* a = actual.find(e.key);
        if (!a) d.error(actual.where, path + ": missing key '" + e.key + "'" + k_tail);
        else compare_docs(e.value, *a, path + "." + e.key, d);
      }
      for (const auto& a : actual.entries)
        if (!expected.find(a.key)) d.error(a.key_where, path + ": unknown key '" + a.key + "'" + k_tail);
      return;
  }
}

}  // namespace

Session Session::load(const fs::path& path) {
  const std::string file = path.string();
  std::string raw;
  {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw LoadError({file, 0, 0}, "no such session file");
    if (fs::is_directory(path, ec)) throw LoadError({file, 0, 0}, "is a folder; expected a session file");
    if (fs::file_size(path, ec) > k_max_file_bytes)
      throw LoadError({file, 0, 0}, "file too large for a session (the limit is " + std::to_string(k_max_file_bytes) + " bytes)");
    try {
      raw = read_whole_file(path);
    } catch (const AtomicWriteError& e) {
      throw LoadError({file, 0, 0}, e.what());
    }
  }
  Doc root = parse_yaml(raw, file);
  if (!root.is_map())
    throw LoadError(root.where, "not a Vedette session: expected a map with format: vedette-session, found " +
                                    std::string(root.kind_name()));
  Diagnostics d;
  Reader r{d};
  MapReader top(root, d, "the session");
  // Format and version first: a different file gets one clear message.
  const Doc* fmt = top.optional("format");
  if (fmt) note_example(*fmt, std::string(k_format));
  if (!fmt || !fmt->is_scalar() || fmt->scalar != k_format)
    throw LoadError(fmt ? fmt->where : root.where,
                    "not a Vedette session: expected 'format: vedette-session'" +
                        std::string(fmt && fmt->is_scalar() ? ", found '" + fmt->scalar + "'" : ""));
  const Doc* ver = top.required("version");
  int version = k_version;
  if (ver) {
    auto v = read_int(*ver, d, "version", 1, 1000000);
    if (v && *v > k_version)
      throw LoadError(ver->where, "session version " + std::to_string(*v) + " was written by a newer vedette; this one reads version " +
                                      std::to_string(k_version));
    if (v) version = static_cast<int>(*v);
  }

  Header h;
  if (const Doc* rs = top.required("ruleset")) {
    MapReader rm(*rs, d, "ruleset");
    const Doc* pn = rm.required("path");
    if (pn) note_example(*pn, "builtin:default");
    if (auto p = r.str(pn, "ruleset path")) h.ruleset_path = *p;
    if (auto hh = r.str(rm.required("hash"), "ruleset hash")) h.ruleset_hash = *hh;
    rm.finish();
  }
  if (const Doc* s = top.required("seed"))
    if (auto v = r.u64(*s, "seed")) h.seed = *v;
  if (auto pd = r.flag(top.required("physical_dice"), "physical_dice")) h.physical_dice = *pd;
  if (const Doc* md = top.optional("module")) {  // a solo module's name (sims/solo/solo_module.hpp)
    std::vector<std::string> names;
    for (const SoloModule& m : solo_modules()) names.emplace_back(m.name);
    if (auto c = read_choice(*md, r.d, "module", names)) h.module = names[*c];
  }
  if (const Doc* us = top.required("units")) {
    if (!us->is_sequence() || us->items.empty()) {
      d.error(us->where, "expected a list of one or more units, found " + std::string(us->kind_name()));
    } else if (us->items.size() > k_max_units) {
      d.error(us->items[k_max_units].where, "too many units: a session holds at most " + std::to_string(k_max_units));
    } else {
      for (const Doc& u : us->items) {
        MapReader um(u, d, "a unit");
        UnitSpec spec;
        auto name = r.str(um.required("name"), "unit name");
        auto type = r.str(um.required("type"), "unit type");
        auto raw_flag = r.flag(um.optional("raw"), "raw");
        auto hero = r.flag(um.optional("hero"), "hero");
        auto figs = r.num(um.required("figures"), "figures", 1, k_max_figures);
        auto weight = r.choice(um.optional("weight"), "weight", k_attacker_weight_names);
        const Doc* weapon_node = um.optional("weapon");
        auto weapon = r.str(weapon_node, "weapon");
        if (weapon_node && version < 3)
          d.error(weapon_node->where, "weapon is a field of session version 3, but this file says version " + std::to_string(version));
        um.finish();
        if (!name || !type || !figs) continue;
        if (name->empty()) {
          d.error(u.where, "a unit needs a name");
          continue;
        }
        for (const auto& other : h.units)
          if (other.name == *name) d.error(u.where, "two units are named '" + *name + "'");
        spec.name = *name;
        spec.type = *type;
        spec.raw = raw_flag.value_or(false);
        spec.hero = hero.value_or(false);
        spec.figures = *figs;
        if (weight) spec.weight = std::string(k_attacker_weight_names[*weight]);
        if (weapon) spec.weapon = *weapon;
        h.units.push_back(spec);
      }
    }
  }
  const Doc* memory = top.optional("memory");
  if (memory) note_map(*memory);
  std::vector<Event> events;
  if (const Doc* hist = top.required("history")) {
    if (!hist->is_sequence()) {
      d.error(hist->where, "expected a list of events for history, found " + std::string(hist->kind_name()));
    } else {
      // Each item is freed once read: the tree and the events it becomes
      // are not held in full at once.
      events.reserve(hist->items.size());
      int k = 0;
      for (Doc& item : root.find("history")->items) {
        ++k;
        if (auto e = read_event(item, r, k)) events.push_back(std::move(*e));
        item = Doc{};
      }
    }
  }
  // A version 6 file holds no event of version 7.
  if (version < 7)
    for (const Event& e : events)
      if (std::holds_alternative<YourMoveEvent>(e.body))
        d.error(e.where, "the your_move event is of session version 7, but this file says version " + std::to_string(version));
  // A version 5 file holds no field of version 6.
  if (version < 6)
    for (const Event& e : events)
      if (needs_version_6(e)) {
        const char* field = std::holds_alternative<ChargeAnswerEvent>(e.body) ? "field"
                            : !std::get<ChargeEvent>(e.body).c.target_unit.empty() ? "target_unit"
                            : std::get<ChargeEvent>(e.body).c.switched           ? "switched_from"
                                                                                   : "refused_rule";
        auto at = e.field_where.find(field);
        d.error(at != e.field_where.end() ? at->second : e.where,
                std::string(field == std::string("field") ? "the charge answer '" + std::get<ChargeAnswerEvent>(e.body).field + "'"
                                                          : std::string(field)) +
                    " is of session version 6, but this file says version " + std::to_string(version));
      }
  // A version 4 file holds no event of version 5.
  if (version < 5)
    for (const Event& e : events)
      if (std::holds_alternative<OpportunityEvent>(e.body) || std::holds_alternative<ChargedEvent>(e.body))
        d.error(e.where, "the " + std::string(e.kind()) + " event is of session version 5, but this file says version " +
                             std::to_string(version));
  // A version 3 file holds no field of version 4.
  if (version < 4)
    for (const Event& e : events)
      if (needs_version_4(e)) {
        const char* field = std::holds_alternative<ActivateEvent>(e.body)   ? "facts.on_foot"
                            : std::holds_alternative<ShootingEvent>(e.body) ? "dismounted"
                            : std::holds_alternative<ChargeEvent>(e.body)   ? (std::get<ChargeEvent>(e.body).c.fear ? "fear" : "square")
                            : std::holds_alternative<MeleeEvent>(e.body)    ? "given"
                                                                            : "field";
        auto at = e.field_where.find(field);
        d.error(at != e.field_where.end() ? at->second : e.where,
                std::string(field) + " is a field of session version 4, but this file says version " + std::to_string(version));
      }
  // A version 2 file holds no event of version 3.
  if (version < 3)
    for (const Event& e : events)
      if (needs_version_3(h, e))
        d.error(e.where, std::string(turn_step_of(e.body) ? "the " + std::string(e.kind()) + " event" : "morale: routed") +
                             " is of session version 3, but this file says version " + std::to_string(version));
  // A version 1 file holds no field of version 2.
  if (version < 2)
    for (const Event& e : events) {
      const char* field = nullptr;
      if (const auto* a = std::get_if<ActivateEvent>(&e.body); a && !a->a.charge_refused.empty()) field = "charge_refused";
      if (const auto* c = std::get_if<ChargeEvent>(&e.body); c && c->c.initiation_dice) field = "initiation";
      if (!field) continue;
      auto at = e.field_where.find(field);
      d.error(at != e.field_where.end() ? at->second : e.where,
              std::string(field) + " is a field of session version 2, but this file says version " + std::to_string(version));
    }
  top.finish();
  d.throw_if_any();
  // The tree has been read: free it (all but the memory, checked below)
  // before the replay builds the state.
  std::optional<Doc> memory_doc;
  if (memory) memory_doc = std::move(*root.find("memory"));
  root = Doc{};

  // Replay: every event must fit the state the ones before it made. The
  // events are moved in first, not copied one by one (an event refers only
  // to events before it, all applied by then).
  Session s(path, std::move(h));
  s.history_ = std::move(events);
  // Version 8's memory of a unit struck before its own move (seed 003 L54):
  // an older file was played with the activation's pace kept, and is read so.
  s.held_pace_ = version >= 8;
  for (const Event& e : s.history_) {
    try {
      s.apply(e);
    } catch (const SessionError& err) {
      auto at = e.field_where.find(err.field);
      throw LoadError(at != e.field_where.end() ? at->second : e.where, "history #" + std::to_string(e.n) + " (" + std::string(e.kind()) + "): " + err.what());
    }
  }
  // An older file whose history never held such a turn plays on with
  // version 8's memory (nothing it recorded differs); one that did keeps
  // the earlier memory, and its version, as long as it is played.
  if (!s.held_changed_) s.held_pace_ = true;
  if (memory_doc) {
    Doc expected = parse_yaml(memory_text(s.header_, s.state_, s.next_roll_), file);
    compare_docs(*expected.find("memory"), *memory_doc, "memory", d);
    d.throw_if_any();
  }
  s.disk_text_ = std::move(raw);
  return s;
}

}  // namespace vedette::solo
