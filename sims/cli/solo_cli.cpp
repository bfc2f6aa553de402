#include "sims/cli/solo_cli.hpp"

#include <algorithm>
#include <cstdio>
#include <system_error>

#include "engine/core/words.hpp"
#include "engine/core/diagnostics.hpp"
#include "sims/io/atomic_file.hpp"

namespace vedette::cli::solo_cli {

namespace fs = std::filesystem;

namespace {

// Reading a session replays its charges on the charge's procedure
// (replay_charges, by load_session_rules) when its ruleset can be loaded;
// a command that needs no rule still works without it.
Session replayed(Session s) {
  try {
    (void)load_session_rules(s);
  } catch (const ReplayError&) {
    throw;
  } catch (const LoadError&) {
  }
  return s;
}

}  // namespace

Session open_session(const std::string& game) {
  fs::path p = session_path(game);
  std::error_code ec;
  if (!fs::exists(p, ec)) {
    fs::path literal(game);
    if (fs::is_regular_file(literal, ec)) return replayed(Session::load(literal));
    throw UsageError("no session file " + p.string() + " (create one with: vedette solo new " + game +
                     " --unit NAME:TYPE ...)");
  }
  return replayed(Session::load(p));
}

void check_unit_types(const Session& s, const Ruleset& r, const std::string& ruleset_path) {
  for (const auto& u : s.header().units) {
    if (r.find_unit_type(u.type)) continue;
    std::string list;
    for (const auto& t : r.unit_types) list += (list.empty() ? "" : ", ") + t.id;
    throw UsageError("unit " + u.name + " has type '" + u.type + "', which the ruleset " + ruleset_path +
                     " does not define (it has: " + list + ")");
  }
}

SessionRules rules_for_change(Session& s, bool accept, Io& io) {
  SessionRules sr = load_session_rules(s);
  if (sr.changed) {
    if (!accept)
      throw UsageError("the ruleset " + sr.path + " has changed since this session last used it (" +
                       s.header().ruleset_hash + ", now " + sr.hash +
                       "). Nothing was done. Run the command again with --accept-ruleset-change to go on with the "
                       "new rules (recorded in the history), or `vedette solo play` to be asked.");
    std::string old = s.header().ruleset_hash;
    s.header().ruleset_hash = sr.hash;
    const Event& e = s.append(RulesetEvent{old, sr.hash});
    io.err << "vedette: going on with the changed ruleset " << sr.path << " (recorded as #" << e.n << ")\n";
    sr.changed = false;
  }
  check_unit_types(s, *sr.rules, sr.path);
  return sr;
}

std::optional<SessionRules> rules_for_reading(const Session& s, Io& io) {
  try {
    SessionRules sr = load_session_rules(s);
    if (sr.changed)
      io.err << "vedette: note: the ruleset " << sr.path << " has changed since this session last used it ("
             << s.header().ruleset_hash << ", now " << sr.hash << ")\n";
    return sr;
  } catch (const ReplayError&) {
    throw;  // the session's own history is wrong, not its ruleset
  } catch (const LoadError& e) {
    io.err << "vedette: note: the session's ruleset cannot be loaded:\n";
    for (const auto& d : e.diagnostics()) io.err << "  " << d.str() << "\n";
    return std::nullopt;
  }
}

std::size_t find_unit_or_throw(const Session& s, const std::string& name) {
  if (auto k = s.find_unit(name)) return *k;
  std::vector<std::string> names;
  std::string list;
  for (const auto& u : s.header().units) {
    names.push_back(u.name);
    list += (list.empty() ? "" : ", ") + u.name;
  }
  throw UsageError("no unit named '" + name + "' in " + s.path().string() + did_you_mean(name, names) +
                   " (units: " + list + ")");
}

namespace {

std::string percent_text(int lost, int figures) {
  std::int32_t h = casualty_hundredths(lost, figures);
  std::string s = std::to_string(h / 100);
  if (h % 100) {
    int frac = h % 100;
    s += "." + std::string(frac < 10 ? "0" : "") + std::to_string(frac);
    while (s.back() == '0') s.pop_back();
  }
  return s + "%";
}


std::string yes_no(bool v) { return v ? "yes" : "no"; }

}  // namespace

std::string unit_summary(const Session& s, const Ruleset* r, std::size_t unit) {
  const UnitSpec& u = s.header().units[unit];
  const UnitType* t = r ? r->find_unit_type(u.type) : nullptr;
  std::string out = t ? t->name : u.type;
  if (!u.weight.empty()) out += " (" + u.weight + ")";
  if (!u.weapon.empty()) {
    std::string w = u.weapon;
    if (r)
      for (const Weapon& x : r->weapons)
        if (x.id == u.weapon) w = x.name;
    out += ", " + w;
  }
  if (u.raw) out += ", raw";
  if (u.hero) out += ", hero";
  int lost = s.memory(unit).casualties;
  out += "; " + std::to_string(u.figures) + " figures";
  if (lost > 0) out += ", " + std::to_string(lost) + " lost (" + percent_text(lost, u.figures) + ")";
  if (lost >= u.figures) out += ": no figures left";
  return out;
}

std::string answers_text(const Answers& a) {
  std::string out;
  for (std::size_t q = 0; q < k_question_count; ++q) {
    if (!a.v[q]) continue;
    auto qq = static_cast<Question>(q);
    out += (out.empty() ? "" : ", ") + std::string(question_label(qq)) + ": " +
           (is_yes_no(qq) ? yes_no(*a.v[q] != 0) : std::to_string(*a.v[q]));
  }
  return out;
}

std::string memory_summary(const Session& s, std::size_t unit) {
  const UnitMemory& m = s.memory(unit);
  std::string out = m.pace == Pace::halt ? "at halt" : "moving at " + std::string(pace_name(m.pace));
  if (m.on_foot) out += ", on foot (it mounts, its whole move, before it moves)";
  if (m.gallop_streak > 0)
    out += ", galloped " + std::to_string(m.gallop_streak) + (m.gallop_streak == 1 ? " turn" : " turns") + " in a row";
  if (m.ran_last_turn) out += "; ran from the enemy last turn";
  if (m.charged_this_turn) out += "; charged this turn (normal speed next turn, seed 003)";
  if (m.charged_last_turn) out += "; charged last turn (normal speed this turn, seed 003)";
  if (m.ran_this_turn) out += "; running from the enemy this turn";
  if (m.retreated_from_melee) out += "; retreating from melee when last asked";
  if (m.morale != Morale::steady) out += "; " + std::string(morale_name(m.morale));
  return out;
}

void print_rf(std::ostream& out, const Activation& a) {
  out << "Risk factor " << a.rf << "  (band " << a.band << ")\n";
  if (a.breakdown.empty()) out << "  no modifier applies\n";
  for (const auto& t : a.breakdown) out << "  " << signed_str(t.value) << "  " << t.reason << "\n";
}

namespace {

// Where a die came from. The main lines say "rolled"; the log (verbose)
// names the roll of the session's seed, which the file checks.
std::string die_text(const Session& s, const Activation& a, bool verbose) {
  if (a.dice == DiceSource::player) return "your roll";
  std::string t = verbose ? "roll #" + std::to_string(*a.roll_index) + " of seed " + std::to_string(s.header().seed) : "rolled";
  if (a.same_die_as)
    t += verbose ? "; the die already rolled for this unit this turn (#" + std::to_string(*a.same_die_as) + "): undo does not re-roll"
                 : "; the die it already had this turn: undo does not re-roll";
  return t;
}

}  // namespace

void print_decision(std::ostream& out, const Session& s, const Activation& a, const std::string& unit) {
  out << "D6: " << a.roll << "  (" << die_text(s, a, false) << ")\n";
  out << "Table: " << a.behaviour_text << "\n";
  if (!a.note.empty()) out << "Limit: " << a.note << "\n";
  out << "Do:    " << unit << ": " << a.instruction << "\n";
  if (!a.charge_refused.empty())
    out << "No charge: " << a.charge_refused << (a.on_foot ? ".\n" : "; it moves as the table says otherwise.\n");
  if (a.running) out << "Next turn: " << unit << " counts as running from the enemy (+3).\n";
}

namespace {

std::string pct_text(int ways) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", ways * 100.0 / 36.0);
  return buf;
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string charge_dice_text(const Session& s, const ChargeRecord& c, bool verbose) {
  if (c.dice_source == DiceSource::player) return "your roll";
  std::string t = verbose ? "roll #" + std::to_string(*c.roll_index) + " of seed " + std::to_string(s.header().seed) : "rolled";
  if (c.same_dice_as)
    t += verbose ? "; the dice already rolled for this charge this turn (#" + std::to_string(*c.same_dice_as) + "): undo does not re-roll"
                 : "; the dice it already had this turn: undo does not re-roll";
  return t;
}

}  // namespace

void print_charge_preview(std::ostream& out, const Ruleset& r, const ChargeInputs& in, const ChargePreview& p) {
  const ChargeRules& cr = r.charge;
  const LengthUnit u = r.units;
  const ChargeGeometry& g = p.geometry;
  out << "Charge range: up to " << format_length_table(g.max_range, u) << ", " << number_text(cr.range_factor) << " x the "
      << format_length_table(in.move, u) << " move; minimum distance " << format_length_table(g.min_distance, u) << "; arc "
      << number_text(cr.arc_degrees) << " degrees either side of the facing.\n";
  const Length base = target_base_depth(r, in.defender);
  out << "Target: " << format_length_table(in.distance, u) << " away";
  if (in.bearing != 0) out << ", " << number_text(in.bearing) << " degrees off the facing";  // given with --bearing
  out << ": ";
  if (g.reaches) {
    out << "in range and in the arc: it reaches";
    out << (g.charge_bonus ? ", with the charge bonus.\n"
                           : ", but inside the minimum distance: no charge bonus.\n");
  } else {
    out << "it does NOT reach (";
    if (!g.in_range)
      out << "its nearest figure's " << format_length_table(base, u) << " base reaches to " << format_length_table(in.distance + base, u)
          << ", beyond " << format_length_table(g.max_range, u);
    if (!g.in_range && !g.in_arc) out << "; ";
    if (!g.in_arc) out << "no part of it within the arc";
    out << "): the unit must still move " << format_length_table(g.forced_move, u) << " forward"
        << (g.shaken ? " and becomes shaken.\n" : ".\n");
  }
  // The optional rules the ruleset turns on, in the engine's order.
  if (p.fear_check) {
    const FearOfChargeRules& f = cr.fear_of_charge;
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.1f%%", p.gut_pass.value() * 100.0);
    out << "Fear of Charge: " << cr.row(in.defender).text << " take a gut check first, " << f.dice << "D6 needing "
        << gut_need_text(cr) << ": chance to pass " << p.gut_pass.str() << " = " << pct
        << "; failing, they "
        << (in.refuge ? "flee into the cover you named and the charge halts" : "are caught in the open and the charge goes on")
        << ".\n";
  }
  if (p.square) {
    out << "Infantry Square: " << cr.row(in.defender).text << " form square: no morale check; the square rolls first in the melee.\n";
    return;
  }
  const std::string who = cr.row(in.defender).text + " charged by " +
                          std::string(k_attacker_weight_names[static_cast<std::size_t>(in.attacker)]) + " cavalry in the " +
                          std::string(k_side_names[static_cast<std::size_t>(in.both_charging ? ChargedOn::front : in.side)]) +
                          (in.both_charging ? ", both charging (a counter-charging unit has turned to face)" : "");
  if (p.target.automatic) {
    out << "Morale check: " << who << ": pikes or pole arms facing the charge stand automatically.\n";
    return;
  }
  std::string need = p.target.target <= 2    ? "stands on any roll of 2D6"
                     : p.target.target > 12 ? "needs " + std::to_string(p.target.target) + "+ on 2D6: it cannot stand"
                                            : "needs " + std::to_string(p.target.target) + "+ on 2D6 to stand";
  out << (g.morale_check ? "Morale check: " : "(No morale check; had there been one: ") << who << ": " << need
      << " (table " << p.target.table << (p.target.modifier ? ", " + std::string(p.target.modifier > 0 ? "+" : "") +
                                                                  std::to_string(p.target.modifier) + " to the dice"
                                                            : std::string())
      << "): chance to stand " << p.stand_ways << "/36 = " << pct_text(p.stand_ways) << (g.morale_check ? ".\n" : ".)\n");
  if (p.charger_checks)
    out << "Both charging: the charger checks too, " << p.charger_target.target << "+ on 2D6 (seed 003): chance to stand "
        << p.charger_stand_ways << "/36 = " << pct_text(p.charger_stand_ways) << ".\n";
}

void print_charge_result(std::ostream& out, const Session& s, const ChargeRecord& c) {
  if (c.initiation_dice) {
    const auto& d = *c.initiation_dice;
    out << "Initiation check, 2D6: " << d[0] << " + " << d[1] << " = " << d[0] + d[1] << ", needs " << c.initiation_need
        << ": " << (c.initiation_passed ? "passes" : "FAILS") << "  (" << charge_dice_text(s, c, false) << ")\n";
  }
  if (c.obstacle_dice)
    out << "Obstacle, a second initiation check, 2D6: " << (*c.obstacle_dice)[0] << " + " << (*c.obstacle_dice)[1] << " = "
        << (*c.obstacle_dice)[0] + (*c.obstacle_dice)[1] << ", needs " << c.obstacle_need << ": "
        << (c.obstacle_passed ? "passes" : "FAILS") << "\n";
  if (c.fear && !c.fear->dice.empty()) {
    int total = 0;
    std::string sum;
    for (int d : c.fear->dice) {
      total += d;
      sum += (sum.empty() ? "" : " + ") + std::to_string(d);
    }
    out << "Gut check: " << sum << " = " << total << ": " << (c.fear->passed ? "passes" : "FAILS") << "\n";
  }
  if (c.rolled)
    out << "2D6: " << c.dice[0] << " + " << c.dice[1] << " = " << c.dice[0] + c.dice[1] << "  (" << charge_dice_text(s, c, false)
        << ")\n";
  if (c.charger_dice)
    out << "Charger's own check, 2D6: " << (*c.charger_dice)[0] << " + " << (*c.charger_dice)[1] << " = "
        << (*c.charger_dice)[0] + (*c.charger_dice)[1] << ", needs " << c.charger_need << ": "
        << (c.charger_stands ? "stands" : "FAILS") << "\n";
  out << "Charge: " << c.outcome << "\n";
}

Json charge_json(const Session& s, const ChargeRecord& c) {
  Json j;
  j["activation"] = c.activation;
  j["declined"] = c.declined;
  if (c.declined) return j;
  j["attacker"] = c.attacker;
  j["move"] = c.move;
  j["distance"] = c.distance;
  j["bearing"] = c.bearing;
  j["defender"] = dashed(c.defender);
  j["side"] = c.side;
  j["both_charging"] = c.both_charging;
  j["pikes_facing"] = c.pikes_facing;
  j["max_range"] = c.max_range;
  j["min_distance"] = c.min_distance;
  j["reaches"] = c.reaches;
  j["charge_bonus"] = c.charge_bonus;
  j["forced_move"] = c.reaches ? Json(nullptr) : Json(c.forced_move);
  j["shaken"] = c.shaken;
  j["morale_check"] = c.morale_check;
  j["automatic"] = c.automatic;
  j["target_number"] = c.target;
  j["stand_ways"] = c.stand_ways;
  j["p_stand"] = c.stand_ways / 36.0;
  j["fear"] = c.fear ? Json{{"exempt", c.fear->exempt},
                            {"dice", c.fear->dice},
                            {"need", c.fear->need},
                            {"passed", c.fear->passed},
                            {"refuge", c.fear->refuge},
                            {"evaded", c.fear->evaded()}}
                     : Json(nullptr);
  j["square"] = c.square;
  j["dice"] = c.rolled ? Json::array({c.dice[0], c.dice[1]}) : Json(nullptr);
  if (c.initiation_dice)
    j["initiation"] = Json{{"dice", Json::array({(*c.initiation_dice)[0], (*c.initiation_dice)[1]})},
                           {"need", c.initiation_need},
                           {"passed", c.initiation_passed}};
  else
    j["initiation"] = Json(nullptr);
  j["dice_source"] = c.has_dice() ? Json(k_dice_source_names[static_cast<std::size_t>(c.dice_source)]) : Json(nullptr);
  j["roll_index"] = c.roll_index ? Json(*c.roll_index) : Json(nullptr);
  j["seed"] = c.roll_index ? Json(s.header().seed) : Json(nullptr);
  j["same_dice_as"] = c.same_dice_as ? Json(*c.same_dice_as) : Json(nullptr);
  j["stands"] = c.morale_check ? Json(c.stands) : Json(nullptr);
  j["path"] = c.path.empty() ? "open" : c.path;
  if (c.obstacle_dice)
    j["obstacle_check"] = {{"dice", Json::array({(*c.obstacle_dice)[0], (*c.obstacle_dice)[1]})},
                           {"need", c.obstacle_need},
                           {"passed", c.obstacle_passed}};
  if (c.charger_dice)
    j["charger_check"] = {{"dice", Json::array({(*c.charger_dice)[0], (*c.charger_dice)[1]})},
                          {"need", c.charger_need},
                          {"stands", c.charger_stands}};
  j["outcome"] = c.outcome;
  return j;
}

std::string describe(const Session& s, const Event& e) {
  std::string head = "#" + std::to_string(e.n) + "  turn " + std::to_string(e.turn) + "  ";
  std::string body = std::visit(
      [&](const auto& ev) -> std::string {
        using T = std::decay_t<decltype(ev)>;
        if constexpr (std::is_same_v<T, AnswerEvent>) {
          return ev.unit + ": " + std::string(question_label(ev.question)) + "? " +
                 (is_yes_no(ev.question) ? yes_no(ev.value != 0) : std::to_string(ev.value));
        } else if constexpr (std::is_same_v<T, CasualtiesEvent>) {
          return ev.unit + ": casualties " + signed_str(ev.added);
        } else if constexpr (std::is_same_v<T, ActivateEvent>) {
          const Activation& a = ev.a;
          std::string t = ev.unit + ": RF " + std::to_string(a.rf) + " (" + a.band + "), D6 " + std::to_string(a.roll) +
                          " (" + die_text(s, a, true) + ") -> " + a.behaviour_text + ". " + a.instruction;
          if (!a.note.empty()) t += " [" + a.note + "]";
          return t;
        } else if constexpr (std::is_same_v<T, NextTurnEvent>) {
          return "turn " + std::to_string(e.turn) + " ends; turn " + std::to_string(e.turn + 1) + " begins";
        } else if constexpr (std::is_same_v<T, UndoEvent>) {
          return "undo #" + std::to_string(ev.target);
        } else if constexpr (std::is_same_v<T, RedoEvent>) {
          return "redo #" + std::to_string(ev.target);
        } else if constexpr (std::is_same_v<T, RulesetEvent>) {
          return "ruleset changed and accepted: " + ev.old_hash + " -> " + ev.new_hash;
        } else if constexpr (std::is_same_v<T, SeedEvent>) {
          return "seed set to " + std::to_string(ev.new_seed) + " (was " + std::to_string(ev.old_seed) + ")";
        } else if constexpr (std::is_same_v<T, MoraleEvent>) {
          return ev.unit + ": " + std::string(morale_name(ev.morale)) + (ev.reason.empty() ? "" : " (" + ev.reason + ")");
        } else if constexpr (std::is_same_v<T, ChargeAnswerEvent>) {
          if (ev.field == "charge") return ev.unit + ": charge? " + ev.value;
          return ev.unit + ": charge, " + ev.field + ": " + ev.value;
        } else if constexpr (std::is_same_v<T, ChargeEvent>) {
          const ChargeRecord& c = ev.c;
          if (c.declined) return ev.unit + ": no charge (#" + std::to_string(c.activation) + " offered one)";
          std::string t = ev.unit + ": charges " + dashed(c.defender) + " (" + c.side + ") " + c.distance + " away";
          if (c.rolled) t += ", 2D6 " + std::to_string(c.dice[0]) + "+" + std::to_string(c.dice[1]) + " (" + charge_dice_text(s, c, true) + ")";
          return t + " -> " + c.outcome;
        } else if constexpr (std::is_same_v<T, InitiativeEvent>) {
          return "initiative: " + ev.s.outcome;
        } else {
          return ev.unit + ": " + std::string(e.kind()) + ": " + ev.s.outcome;
        }
      },
      e.body);
  std::string mark = s.in_effect(e.n) ? "" : "  [undone]";
  return head + body + mark;
}

Json activation_json(const Session& s, const Activation& a) {
  Json j;
  j["facts"] = {{"hero", a.hero},
                {"raw", a.raw},
                {"pace", pace_name(a.pace_before)},
                {"gallop_streak", a.gallop_streak_before},
                {"ran_last_turn", a.ran_last_turn},
                {"charged_last_turn", a.charged_last_turn ? Json(*a.charged_last_turn) : Json(nullptr)},
                {"in_cover", a.in_cover},
                {"enemy_in_range", a.enemy_in_range},
                {"enemy_flank_rear", a.enemy_flank_rear},
                {"retreated_from_melee", a.retreated_from_melee},
                {"on_foot", a.on_foot},
                {"new_casualties", a.new_casualties},
                {"casualties", a.casualties},
                {"figures", a.figures}};
  Json asked = Json::array();
  for (auto q : a.asked) asked.push_back(question_name(q));
  j["asked"] = asked;
  j["rf"] = a.rf;
  j["breakdown"] = Json::array();
  for (const auto& t : a.breakdown) j["breakdown"].push_back({{"id", t.id}, {"value", t.value}, {"reason", t.reason}});
  j["band"] = a.band;
  j["roll"] = a.roll;
  j["dice"] = k_dice_source_names[static_cast<std::size_t>(a.dice)];
  j["roll_index"] = a.roll_index ? Json(*a.roll_index) : Json(nullptr);
  j["seed"] = a.dice == DiceSource::rolled ? Json(s.header().seed) : Json(nullptr);
  j["same_die_as"] = a.same_die_as ? Json(*a.same_die_as) : Json(nullptr);
  j["behaviour"] = {{"id", a.behaviour},
                    {"text", a.behaviour_text},
                    {"table_pace", pace_name(a.table_pace)},
                    {"pace", pace_name(a.pace)},
                    {"running", a.running},
                    {"charge_possible", a.charge_possible}};
  j["charge_refused"] = a.charge_refused.empty() ? Json(nullptr) : Json(a.charge_refused);
  j["pace_limit"] = k_pace_adjust_names[static_cast<std::size_t>(a.adjust)];
  j["pace_adjustment"] = a.note.empty() ? Json(nullptr) : Json(a.note);
  j["instruction"] = a.instruction;
  return j;
}

Json event_json(const Session& s, const Event& e) {
  Json j;
  j["n"] = e.n;
  j["turn"] = e.turn;
  j["event"] = e.kind();
  if (const std::string* u = e.unit()) j["unit"] = *u;
  j["in_effect"] = s.in_effect(e.n);
  std::visit(
      [&](const auto& ev) {
        using T = std::decay_t<decltype(ev)>;
        if constexpr (std::is_same_v<T, AnswerEvent>) {
          j["question"] = question_name(ev.question);
          if (is_yes_no(ev.question)) j["value"] = ev.value != 0;
          else j["value"] = ev.value;
        } else if constexpr (std::is_same_v<T, CasualtiesEvent>) {
          j["added"] = ev.added;
        } else if constexpr (std::is_same_v<T, ActivateEvent>) {
          j["activation"] = activation_json(s, ev.a);
        } else if constexpr (std::is_same_v<T, UndoEvent>) {
          j["undoes"] = ev.target;
        } else if constexpr (std::is_same_v<T, RedoEvent>) {
          j["redoes"] = ev.target;
        } else if constexpr (std::is_same_v<T, RulesetEvent>) {
          j["old_hash"] = ev.old_hash;
          j["new_hash"] = ev.new_hash;
        } else if constexpr (std::is_same_v<T, SeedEvent>) {
          j["old_seed"] = ev.old_seed;
          j["new_seed"] = ev.new_seed;
        } else if constexpr (std::is_same_v<T, MoraleEvent>) {
          j["morale"] = morale_name(ev.morale);
          j["reason"] = ev.reason;
        } else if constexpr (std::is_same_v<T, ChargeAnswerEvent>) {
          j["field"] = ev.field;
          j["value"] = ev.value;
        } else if constexpr (std::is_same_v<T, ChargeEvent>) {
          j["charge"] = charge_json(s, ev.c);
        } else if constexpr (std::is_same_v<T, InitiativeEvent> || std::is_same_v<T, ShootingEvent> ||
                             std::is_same_v<T, MeleeEvent> || std::is_same_v<T, RallyEvent> ||
                             std::is_same_v<T, OpportunityEvent> || std::is_same_v<T, ChargedEvent>) {
          const StepRecord& r = ev.s;
          Json g = Json::object();
          for (const auto& [k, v] : r.given) g[k] = v;
          j["given"] = g;
          j["dice"] = r.dice;
          j["dice_source"] = k_dice_source_names[static_cast<std::size_t>(r.dice_source)];
          j["roll_index"] = r.roll_index ? Json(*r.roll_index) : Json(nullptr);
          j["need"] = r.need;
          j["score"] = r.score;
          j["casualties"] = r.casualties;
          j["result"] = r.result;
          j["morale"] = r.morale ? Json(std::string(morale_name(*r.morale))) : Json(nullptr);
          j["fell_back"] = r.fell_back;
          j["dismounted"] = r.dismounted;
          if constexpr (std::is_same_v<T, ChargedEvent>) j["counter"] = r.counter.empty() ? Json(nullptr) : Json(r.counter);
          j["outcome"] = r.outcome;
        }
      },
      e.body);
  return j;
}

Json status_json(const Session& s, const std::optional<SessionRules>& rules) {
  Json j;
  j["file"] = s.path().string();
  j["turn"] = s.state().turn;
  j["ruleset"] = {{"path", s.header().ruleset_path},
                  {"hash", s.header().ruleset_hash},
                  {"loaded", rules.has_value()},
                  {"changed", rules ? Json(rules->changed) : Json(nullptr)},
                  {"hash_now", rules ? Json(rules->hash) : Json(nullptr)}};
  j["seed"] = s.header().seed;
  j["next_roll"] = s.next_roll();
  j["physical_dice"] = s.header().physical_dice;
  if (!s.header().module.empty()) j["module"] = s.header().module;
  Json units = Json::array();
  for (std::size_t k = 0; k < s.header().units.size(); ++k) {
    const UnitSpec& u = s.header().units[k];
    const UnitMemory& m = s.memory(k);
    Json pending = Json::object();
    for (std::size_t q = 0; q < k_question_count; ++q) {
      if (!m.pending.v[q]) continue;
      if (is_yes_no(static_cast<Question>(q))) pending[std::string(k_question_names[q])] = *m.pending.v[q] != 0;
      else pending[std::string(k_question_names[q])] = *m.pending.v[q];
    }
    Json uj;
    uj["name"] = u.name;
    uj["type"] = u.type;
    uj["raw"] = u.raw;
    uj["hero"] = u.hero;
    uj["figures"] = u.figures;
    uj["casualties"] = m.casualties;
    uj["casualties_percent"] = casualty_hundredths(m.casualties, u.figures) / 100.0;
    uj["pace"] = pace_name(m.pace);
    uj["moving"] = m.pace != Pace::halt;
    uj["gallop_streak"] = m.gallop_streak;
    uj["ran_last_turn"] = m.ran_last_turn;
    uj["ran_this_turn"] = m.ran_this_turn;
    uj["charged_this_turn"] = m.charged_this_turn;
    uj["charged_last_turn"] = m.charged_last_turn;
    uj["retreated_from_melee"] = m.retreated_from_melee;
    uj["on_foot"] = m.on_foot;
    uj["morale"] = morale_name(m.morale);
    uj["acted_in_turn"] = m.acted_in_turn;
    uj["acted_this_turn"] = m.acted_in_turn == s.state().turn;
    uj["last_activation"] = m.last_activation ? Json(m.last_activation) : Json(nullptr);
    if (m.last_activation) uj["last_instruction"] = std::get<ActivateEvent>(s.event(m.last_activation).body).a.instruction;
    uj["pending"] = pending;
    uj["weight"] = u.weight.empty() ? Json(nullptr) : Json(u.weight);
    uj["charge_pending"] = s.charge_pending(k);
    units.push_back(uj);
  }
  j["units"] = units;
  // What comes next in the turn (solo play's order), with its prompt.
  if (rules) {
    const Ruleset& r = *rules->rules;
    j["charge_arc_degrees"] = r.charge.arc_degrees;  // seed 003 L40: the charge offer's question
    const Step st = next_step(s, r);
    Json n;
    n["step"] = k_step_kind_names[static_cast<std::size_t>(st.kind)];
    const bool has_unit = st.kind != Step::Kind::initiative && st.kind != Step::Kind::next_turn && st.kind != Step::Kind::game_over;
    n["unit"] = has_unit ? Json(s.header().units[st.unit].name) : Json(nullptr);
    switch (st.kind) {
      case Step::Kind::initiative:
        n["question"] = initiative_question(r);
        n["charges_declared"] = charges_declared(s);
        n["dice"] = r.combat.initiative.dice;
        n["rolled_before"] = s.step_dice_for(TurnStep::initiative, Session::k_no_step_unit, s.state().turn).has_value();
        break;
      case Step::Kind::shooting: {
        const ShootingChance c = shooting_chance(r, s, st.unit);
        n["question"] = shooting_question(r, s, st.unit);
        n["weapon"] = c.weapon->name;
        n["dismounts"] = c.dismounts;
        n["reach"] = format_length(c.reach, r.units);
        n["units_of_length"] = unit_name(r.units);
        n["rolled_before"] = s.step_dice_for(TurnStep::shooting, st.unit, s.state().turn).has_value();
        break;
      }
      case Step::Kind::melee: {
        const MeleeSide side = solo_melee_side(r, s, st.unit);
        n["text"] = melee_intro(r, s, st.unit);
        n["dice"] = side.dice;
        n["need"] = side.need;
        n["rolled_before"] = s.step_dice_for(TurnStep::melee, st.unit, s.state().turn).has_value();
        // Against a square (seed 004): the square's die comes first.
        n["square"] = s.memory(st.unit).square;
        if (s.memory(st.unit).square) {
          n["square_die"] = r.charge.infantry_square.die;
          n["square_dice"] = r.charge.infantry_square.max_battle_dice;
          Json faces = Json::array();
          for (int f = 1; f <= r.charge.infantry_square.die; ++f)
            if (square_bounces(r.charge, f)) faces.push_back(f);
          n["bounce_faces"] = faces;
        }
        break;
      }
      case Step::Kind::rally:
        n["routs"] = rally_need(r, s, st.unit) == RallyNeed::routs;
        n["question"] = rally_question(r, s, st.unit);
        n["rolled_before"] = s.step_dice_for(TurnStep::rally, st.unit, s.state().turn).has_value();
        break;
      default: break;
    }
    j["next_step"] = n;
    j["reactions"] = reactions_json(r, s);  // issue 28 (sims/cli/commands/cmd_solo_react.cpp)
  }
  j["undo"] = {{"steps", s.undo_depth()}, {"next", s.undo_target() ? Json(s.undo_target()) : Json(nullptr)}};
  j["redo"] = {{"steps", s.redo_depth()}, {"next", s.redo_target() ? Json(s.redo_target()) : Json(nullptr)}};
  j["events"] = s.history().size();
  return j;
}

void save_or_throw(Session& s) {
  try {
    s.save();
  } catch (const SessionError& e) {
    throw UsageError(e.what());
  } catch (const AtomicWriteError& e) {
    throw WriteFailed(e.what());
  }
}

}  // namespace vedette::cli::solo_cli
