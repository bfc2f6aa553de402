// The JSON of the solo commands (sims/solo/solo_command.hpp): the events
// as `solo log --json` shows them, and what each applied command answers
// (`vedette solo COMMAND --json` and the web page print the same).
#include <string>
#include <string_view>

#include "engine/core/facts.hpp"
#include "engine/core/words.hpp"
#include "engine/procedures/table_rules.hpp"
#include "sims/solo/solo_command.hpp"

namespace vedette::solo {

using Json = nlohmann::ordered_json;

namespace {

}  // namespace

Json charge_json(const Session& s, const ChargeRecord& c) {
  Json j;
  j["activation"] = c.activation;
  j["declined"] = c.declined;
  // Version 6 (seed 003 L24, L34, L56), when recorded.
  if (!c.target_unit.empty()) j["target_unit"] = c.target_unit;
  if (!c.refused_rule.empty()) j["refused_rule"] = c.refused_rule;
  if (c.switched) j["switched_from"] = Json{{"unit", c.switched_from}, {"distance", c.switched_from_distance}};
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


Json applied_json(const Session& s, const Command& c, const Applied& a) {
  const int n = a.events.empty() ? 0 : a.events.back();
  return std::visit(
      [&](const auto& o) -> Json {
        using T = std::decay_t<decltype(o)>;
        Json j;
        if constexpr (std::is_same_v<T, Activate>) {
          j["file"] = s.path().string();
          j["event"] = n;
          j["turn"] = s.event(n).turn;
          j["unit"] = s.header().units[*a.unit].name;
          j["activation"] = activation_json(s, std::get<ActivateEvent>(s.event(n).body).a);
        } else if constexpr (std::is_same_v<T, Charge>) {
          j["file"] = s.path().string();
          j["event"] = n;
          j["unit"] = s.header().units[*a.unit].name;
          j["charge"] = charge_json(s, std::get<ChargeEvent>(s.event(n).body).c);
          j["morale"] = morale_name(s.memory(*a.unit).morale);
        } else if constexpr (std::is_same_v<T, Casualties>) {
          const UnitSpec& u = s.header().units[*a.unit];
          const int lost = s.memory(*a.unit).casualties;
          j["file"] = s.path().string();
          j["event"] = n;
          j["unit"] = u.name;
          j["added"] = a.added;
          j["casualties"] = lost;
          j["figures"] = u.figures;
          j["casualties_percent"] = casualty_hundredths(lost, u.figures) / 100.0;
        } else if constexpr (std::is_same_v<T, EndMove>) {
          j["file"] = s.path().string();
          j["event"] = n;
          j["turn"] = s.state().turn;
        } else if constexpr (std::is_same_v<T, NextTurn>) {
          j["file"] = s.path().string();
          j["event"] = n;
          j["turn"] = s.state().turn;
          j["did_not_act"] = a.did_not_act;
          j["charge_not_answered"] = a.charge_not_answered;
        } else if constexpr (std::is_same_v<T, Undo> || std::is_same_v<T, Redo>) {
          const char* key = std::is_same_v<T, Undo> ? "undone" : "redone";
          j["file"] = s.path().string();
          j[key] = Json::array();
          for (int t : a.targets) j[key].push_back(event_json(s, s.event(t)));
          j["turn"] = s.state().turn;
        } else if constexpr (std::is_same_v<T, Moved>) {
          // Each automated unit's answer (the recorded charges as events).
          j["turn"] = s.state().turn;
          j["mover"] = a.mover;
          j["reactions"] = Json::array();
          for (const Applied::Reaction& x : a.reactions) {
            Json r;
            r["unit"] = s.header().units[x.unit].name;
            r["reacts"] = x.reacts;
            if (x.event) r["event"] = event_json(s, s.event(x.event));
            r["outcome"] = x.outcome;
            j["reactions"].push_back(r);
          }
        } else {
          (void)o;
          j = event_json(s, s.event(n));
        }
        return j;
      },
      c);
}

}  // namespace vedette::solo
