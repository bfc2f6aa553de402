// The page's changes to a session: the request's JSON read into the typed
// solo command (sims/solo/solo_command.hpp) and applied as `vedette solo
// ACTION --json` applies it (the same checks and messages, the same atomic
// write, the same JSON answer: solo::applied_json). And the page's reads
// and its new game, on the functions `solo status`, `solo log` and `solo
// new` call (sims/solo/solo_view.hpp, sims/solo/solo_new.hpp): the page
// runs no command line.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <string>

#include "engine/core/diagnostics.hpp"
#include "sims/io/atomic_file.hpp"
#include "sims/solo/solo_new.hpp"
#include "sims/solo/solo_react.hpp"
#include "sims/solo/solo_turn.hpp"
#include "sims/solo/solo_view.hpp"
#include "sims/web/web_json.hpp"

namespace vedette::web {

namespace {

std::optional<solo::Command> activate(const Json& body, std::string unit, Reply& bad) {
  solo::Activate c;
  c.unit = std::move(unit);
  const Json answers = body.value("answers", Json::object());
  if (!answers.is_object()) return bad = error_reply(400, "\"answers\" must be an object"), std::nullopt;
  for (const auto& [key, to] : {std::pair{"in_cover", &c.cover}, std::pair{"enemy_in_range", &c.enemy_in_range},
                                std::pair{"enemy_flank_rear", &c.enemy_flank_rear},
                                std::pair{"retreated_from_melee", &c.retreated}})
    if (auto e = want_bool(answers, key, *to)) return bad = error_reply(400, "answer " + *e), std::nullopt;
  std::optional<long long> n, roll;
  if (auto e = want_int(answers, "new_casualties", n, 0, solo::k_max_figures))
    return bad = error_reply(400, "answer " + *e), std::nullopt;
  if (n) c.casualties = static_cast<int>(*n);
  if (auto e = want_int(body, "roll", roll, 1, 6)) return bad = error_reply(400, *e), std::nullopt;
  if (roll) c.roll = static_cast<int>(*roll);
  return c;
}

std::optional<solo::Command> charge(const Json& body, std::string unit, Reply& bad) {
  solo::Charge c;
  c.unit = std::move(unit);
  auto no = [&](const std::string& why) { return bad = error_reply(400, why), std::nullopt; };
  if (auto e = want_bool(body, "decline", c.decline)) return no(*e);
  // Version 6 (seed 003 L24, L34, L56): the declaration's target (else the
  // one the session kept from its declaration), not visible to the front
  // rank (no declaration), a switch of target ("NAME=DISTANCE").
  if (auto e = want_string(body, "target", c.target, false)) return no(*e);
  if (auto e = want_bool(body, "not_visible", c.not_visible)) return no(*e);
  if (auto e = want_string(body, "switched_from", c.switched_from, false)) return no(*e);
  if (c.decline) return c;
  // (not_visible reads on: given with the charge's measures it is refused, as `solo charge` refuses it.)
  for (auto [key, to] : {std::pair{"distance", &c.distance}, std::pair{"defender", &c.defender},
                         std::pair{"attacker", &c.attacker}, std::pair{"move", &c.move}}) {
    if (body.contains(key) && body[key].is_number()) *to = body[key].dump();
    else if (auto e = want_string(body, key, *to, false)) return no(*e);
  }
  std::optional<long long> bearing;
  if (auto e = want_int(body, "bearing", bearing, -180, 360)) return no(*e);
  if (bearing) c.bearing = static_cast<double>(*bearing);
  std::string path;
  if (auto e = want_string(body, "path", path, false)) return no(*e);
  if (!path.empty()) c.path = path;
  if (auto e = want_few_dice(body, "gut_roll", c.gut)) return no(*e);
  for (const auto& [key, to] : {std::pair{"flank", &c.flank}, std::pair{"rear", &c.rear}, std::pair{"both_charging", &c.both_charging},
                                std::pair{"pikes_facing", &c.pikes_facing}, std::pair{"fear_exempt", &c.fear_exempt},
                                std::pair{"refuge", &c.refuge}, std::pair{"square", &c.square}})
    if (auto e = want_bool(body, key, *to)) return no(*e);
  if (c.flank && c.rear) return no("\"flank\" and \"rear\": the charge strikes one side, not both");
  // The player's dice: the initiation check's (seed 003 L48), then the defender's.
  for (auto [key, to] : {std::pair{"initiation", &c.initiation}, std::pair{"roll", &c.defender_roll},
                         std::pair{"charger_roll", &c.charger}, std::pair{"obstacle_roll", &c.obstacle}}) {
    std::optional<std::array<int, 2>> dice;
    if (auto e = want_dice(body, key, dice)) return no(*e);
    if (dice) *to = {(*dice)[0], (*dice)[1]};
  }
  return c;
}

}  // namespace

// The charge form's answers (`solo play`'s ChargeAnswer, a field of
// solo::k_charge_fields each): {"unit", "answers": {"target": "Foot", ...}},
// applied in the form's order (so a "switch" comes after the answers about
// the target it switches from: Session::apply keeps the declared one's).
std::optional<std::vector<solo::Command>> charge_answers(const Json& body, Reply& bad) {
  std::string unit;
  if (auto e = want_string(body, "unit", unit, true)) return bad = error_reply(400, *e), std::nullopt;
  const Json answers = body.value("answers", Json::object());
  if (!answers.is_object() || answers.empty())
    return bad = error_reply(400, "\"answers\" must be an object of the charge form's answers, e.g. {\"target\": \"Foot\"}"), std::nullopt;
  for (auto it = answers.begin(); it != answers.end(); ++it) {
    if (std::find(solo::k_charge_fields.begin(), solo::k_charge_fields.end(), it.key()) == solo::k_charge_fields.end())
      return bad = error_reply(400, "no charge question \"" + it.key() + "\""), std::nullopt;
    if (!it->is_string()) return bad = error_reply(400, "the answer \"" + it.key() + "\" must be a string"), std::nullopt;
  }
  std::vector<solo::Command> out;
  for (std::string_view f : solo::k_charge_fields)
    if (answers.contains(std::string(f)))
      out.push_back(solo::ChargeAnswer{unit, std::string(f), answers[std::string(f)].get<std::string>()});
  return out;
}

namespace {

// The turn's steps (`vedette solo initiative/shoot/melee/rally`).
std::optional<solo::Command> initiative(const Json& body, Reply& bad) {
  solo::Initiative c;
  std::optional<long long> roll, charges, cavalry;
  if (auto e = want_int(body, "your_roll", roll, 1, 120)) return bad = error_reply(400, *e), std::nullopt;
  if (!roll) return bad = error_reply(400, "missing \"your_roll\": your side's initiative dice"), std::nullopt;
  if (auto e = want_int(body, "your_charges", charges, 0, 100)) return bad = error_reply(400, *e), std::nullopt;
  if (auto e = want_int(body, "roll", cavalry, 1, 6)) return bad = error_reply(400, *e), std::nullopt;
  c.your_roll = static_cast<int>(*roll);
  c.your_charges = static_cast<int>(charges.value_or(0));
  if (cavalry) c.roll = {static_cast<int>(*cavalry)};
  return c;
}

std::optional<solo::Command> shoot(const Json& body, std::string unit, Reply& bad) {
  solo::Shoot c;
  c.unit = std::move(unit);
  bool target = false;
  if (auto e = want_bool(body, "target", target)) return bad = error_reply(400, *e), std::nullopt;
  if (auto e = want_bool(body, "cover", c.cover)) return bad = error_reply(400, *e), std::nullopt;
  std::string distance;
  if (auto e = want_text(body, "distance", distance)) return bad = error_reply(400, *e), std::nullopt;
  std::optional<long long> hits;
  if (auto e = want_int(body, "hits", hits, 0, 1000)) return bad = error_reply(400, *e), std::nullopt;
  c.no_target = !target;
  if (!target) {
    c.cover = false;
    return c;
  }
  if (distance.empty())
    return bad = error_reply(400, "missing \"distance\": to the nearest enemy it can see (e.g. 25)"), std::nullopt;
  c.distance = distance;
  if (hits) c.hits = static_cast<int>(*hits);
  // Whether the target is mounted (seed 002 L35: where a hit on a mounted
  // figure falls), as `solo play` asks it; absent: not said.
  if (body.contains("mounted") && !body["mounted"].is_null()) {
    bool mounted = false;
    if (auto e = want_bool(body, "mounted", mounted)) return bad = error_reply(400, *e), std::nullopt;
    c.mounted = mounted;
  }
  return c;
}

std::optional<solo::Command> melee(const Json& body, std::string unit, Reply& bad) {
  solo::Melee c;
  c.unit = std::move(unit);
  std::optional<long long> theirs, hits;
  if (auto e = want_int(body, "their_hits", theirs, 0, 100000)) return bad = error_reply(400, *e), std::nullopt;
  if (!theirs) return bad = error_reply(400, "missing \"their_hits\": the hits your unit scored"), std::nullopt;
  if (auto e = want_int(body, "hits", hits, 0, 1000)) return bad = error_reply(400, *e), std::nullopt;
  c.their_hits = static_cast<int>(*theirs);
  if (hits) c.hits = static_cast<int>(*hits);
  // Against a square (seed 004): the face(s) its die showed.
  if (body.contains("square_dice")) {
    const Json& sd = body["square_dice"];
    const std::string why = "\"square_dice\" must be the face(s) your square's die showed, e.g. [6]";
    if (!sd.is_array() || sd.empty() || sd.size() > 6) return bad = error_reply(400, why), std::nullopt;
    for (const Json& f : sd) {
      if (!f.is_number_integer() || f.get<long long>() < 1 || f.get<long long>() > 100) return bad = error_reply(400, why), std::nullopt;
      c.square_dice.push_back(f.get<int>());
    }
  }
  return c;
}

std::optional<solo::Command> rally(const Json& body, std::string unit, Reply& bad) {
  solo::Rally c;
  c.unit = std::move(unit);
  if (auto e = want_bool(body, "enemy_near", c.enemy_near)) return bad = error_reply(400, *e), std::nullopt;
  std::optional<std::array<int, 2>> dice;
  if (auto e = want_dice(body, "roll", dice)) return bad = error_reply(400, *e), std::nullopt;
  if (dice) c.roll = {(*dice)[0], (*dice)[1]};
  return c;
}

// Issue 28, the player's movement step (`vedette solo moved` / `charged`).
// The player's dice for a reaction: 2 to `most` dice, each 1..6.
std::optional<std::string> want_reaction_dice(const Json& body, std::vector<int>& out, std::size_t most) {
  if (!body.contains("roll") || body["roll"].is_null()) return std::nullopt;
  const Json& v = body["roll"];
  bool ok = v.is_array() && v.size() >= 2 && v.size() <= most && v.size() % 2 == 0;
  for (std::size_t i = 0; ok && i < v.size(); ++i)
    ok = v[i].is_number_integer() && v[i].get<long long>() >= 1 && v[i].get<long long>() <= 6;
  if (!ok) return "\"roll\" must be your dice two by two, 2 to " + std::to_string(most) + " of them, each from 1 to 6";
  out.clear();
  for (const Json& d : v) out.push_back(d.get<int>());
  return std::nullopt;
}

// {"mover":"Foot","as":"heavy_foot","near":[{"unit":"Cuirassiers","distance":"20cm","side":"flank"}]}
std::optional<solo::Command> moved(const Json& body, Reply& bad) {
  solo::Moved c;
  auto no = [&](const std::string& why) { return bad = error_reply(400, why), std::nullopt; };
  for (auto [key, to] : {std::pair{"mover", &c.mover}, std::pair{"as", &c.as}, std::pair{"weight", &c.weight},
                         std::pair{"kind", &c.kind}, std::pair{"their_weight", &c.their_weight}})
    if (auto e = want_string(body, key, *to, false)) return no(*e);
  if (auto e = want_reaction_dice(body, c.roll, solo::k_reaction_dice)) return no(*e);
  if (auto e = want_bool(body, "player_dice", c.player_dice)) return no(*e);
  if (!body.contains("near")) return c;
  if (!body["near"].is_array()) return no("\"near\" must be a list of the cavalry units your unit ends near");
  for (const Json& n : body["near"]) {
    if (!n.is_object()) return no("each of \"near\" must be an object such as {\"unit\": \"Cuirassiers\", \"distance\": \"20cm\"}");
    solo::NearCavalry x;
    if (auto e = want_string(n, "unit", x.unit, true)) return no("near: " + *e);
    if (auto e = want_text(n, "distance", x.distance)) return no("near: " + *e);
    if (x.distance.empty()) return no("near: missing \"distance\": from " + x.unit + "'s front to your unit's nearest figure");
    if (auto e = want_string(n, "side", x.side, false)) return no("near: " + *e);
    if (auto e = want_string(n, "path", x.path, false)) return no("near: " + *e);
    for (auto [key, to] : {std::pair{"in_arc", &x.in_arc}, std::pair{"in_sight", &x.in_sight}, std::pair{"charging", &x.charging}})
      if (auto e = want_bool(n, key, *to)) return no("near: " + *e);
    c.near.push_back(x);
  }
  return c;
}

// {"unit":"Hussars","as":"medium_horse","distance":"30cm","side":"rear"}
std::optional<solo::Command> charged(const Json& body, std::string unit, Reply& bad) {
  solo::Charged c;
  c.unit = std::move(unit);
  auto no = [&](const std::string& why) { return bad = error_reply(400, why), std::nullopt; };
  for (auto [key, to] : {std::pair{"mover", &c.mover}, std::pair{"as", &c.as}, std::pair{"weight", &c.weight},
                         std::pair{"side", &c.side}, std::pair{"their_weight", &c.their_weight}})
    if (auto e = want_string(body, key, *to, false)) return no(*e);
  if (auto e = want_text(body, "distance", c.distance)) return no(*e);
  for (auto [key, to] : {std::pair{"bonus", &c.bonus}, std::pair{"in_arc", &c.in_arc}, std::pair{"in_sight", &c.in_sight}})
    if (auto e = want_bool(body, key, *to)) return no(*e);
  if (auto e = want_reaction_dice(body, c.roll, 6)) return no(*e);
  if (auto e = want_bool(body, "player_dice", c.player_dice)) return no(*e);
  return c;
}

// A command's refusal as the page has always had it: a bad request (409
// when it is about a change: the ruleset, or the file changed on disk).
std::pair<int, Json> refused(const std::string& message) {
  return {message.find("changed") != std::string::npos ? 409 : 400, Json{{"error", message}}};
}

}  // namespace

std::optional<solo::Command> command_from_json(const std::string& action, const Json& body, Reply& bad) {
  std::string unit;
  auto need_unit = [&]() -> bool {
    if (auto e = want_string(body, "unit", unit, true)) {
      bad = error_reply(400, *e);
      return false;
    }
    return true;
  };
  if (action == "undo") return solo::Undo{};
  if (action == "redo") return solo::Redo{};
  if (action == "next-turn") return solo::NextTurn{};
  if (action == "end-move") return solo::EndMove{};
  if (action == "initiative") return initiative(body, bad);
  if (action == "moved") return moved(body, bad);
  const bool known = action == "activate" || action == "casualties" || action == "morale" || action == "charge" ||
                     action == "shoot" || action == "melee" || action == "rally" || action == "charged";
  if (!known) return bad = error_reply(404, "no such action: " + action), std::nullopt;
  if (!need_unit()) return std::nullopt;
  if (action == "activate") return activate(body, unit, bad);
  if (action == "charge") return charge(body, unit, bad);
  if (action == "shoot") return shoot(body, unit, bad);
  if (action == "melee") return melee(body, unit, bad);
  if (action == "rally") return rally(body, unit, bad);
  if (action == "charged") return charged(body, unit, bad);
  if (action == "casualties") {
    std::optional<long long> n;
    if (auto e = want_int(body, "count", n, 0, solo::k_max_figures)) return bad = error_reply(400, *e), std::nullopt;
    if (!n) return bad = error_reply(400, "missing \"count\""), std::nullopt;
    return solo::Casualties{unit, static_cast<int>(*n), false};
  }
  solo::SetMorale m;
  m.unit = unit;
  if (auto e = want_string(body, "state", m.morale, true)) return bad = error_reply(400, *e), std::nullopt;
  return m;
}

namespace {

// Runs `f`, turning the session's and the ruleset's errors into the page's
// replies as the command line's exit statuses would be (2: 400 or 409, a
// failed write: 500).
std::pair<int, Json> answered(const std::function<std::pair<int, Json>()>& f) {
  try {
    return f();
  } catch (const solo::SessionError& e) {
    return refused(e.what());
  } catch (const LoadError& e) {
    std::string lines;
    for (const auto& d : e.diagnostics()) lines += (lines.empty() ? "" : "\n") + d.str();
    return refused(lines.empty() ? "the command failed" : lines);
  } catch (const AtomicWriteError& e) {
    return {500, Json{{"error", std::string(e.what()) + " (the session file is unchanged)"}}};
  }
}

// The page names the session, not where this machine keeps it.
Json for_page(Json out) {
  plain_prose(out);
  if (out.is_object() && out.contains("file") && out["file"].is_string())
    out["file"] = std::filesystem::path(out["file"].get<std::string>()).filename().string();
  return out;
}

std::optional<solo::SessionRules> rules_if_any(const solo::Session& s) {
  try {
    return solo::load_session_rules(s);
  } catch (const solo::ReplayError&) {
    throw;  // the session's own history is wrong, not its ruleset
  } catch (const LoadError&) {
    return std::nullopt;
  }
}

}  // namespace

namespace {

// A reaction with the player's dice (`"player_dice": true`) whose dice were
// rolled before this turn (an undone reaction): those are used again, as
// solo play does (sims/cli/solo_play_move.cpp), and the player's are not asked.
solo::Command with_dice_rolled_before(const solo::Session& s, solo::Command c) {
  const int turn = s.state().turn;
  if (auto* m = std::get_if<solo::Moved>(&c); m && m->player_dice && m->near.size() == 1) {
    if (auto k = s.find_unit(m->near[0].unit); k && s.step_dice_for(solo::TurnStep::opportunity, *k, turn)) {
      m->player_dice = false;
      m->roll.clear();
    }
  }
  if (auto* ch = std::get_if<solo::Charged>(&c); ch && ch->player_dice) {
    if (auto k = s.find_unit(ch->unit); k && s.step_dice_for(solo::TurnStep::charged, *k, turn)) {
      ch->player_dice = false;
      ch->roll.clear();
    }
  }
  return c;
}

// The next 2D6 a reaction reads from the player's dice: whose check it is
// and the total it needs (the charge procedure's, through solo::DiceNeeded),
// in solo play's words (solo::dice_needed_words, sims/solo/solo_react.hpp).
Json dice_needed_json(const solo::Command& c, const solo::DiceNeeded& need) {
  const auto* m = std::get_if<solo::Moved>(&c);
  const auto* ch = std::get_if<solo::Charged>(&c);
  const std::string cavalry = m ? (m->near.size() == 1 ? m->near[0].unit : std::string("the cavalry")) : ch ? ch->unit : "the cavalry";
  const std::string mover = m ? m->mover : ch ? ch->mover : "";
  const solo::DiceNeededWords w = solo::dice_needed_words(need, m != nullptr, cavalry, mover);
  Json j{{"roll", std::string(k_charge_roll_names[static_cast<std::size_t>(need.roll)])},
         {"check", w.check},
         {"dice", 2},
         {"text", w.text}};
  if (need.need > 0) j["need"] = need.need;
  return j;
}

}  // namespace

std::pair<int, Json> apply_command(const std::string& file, const solo::Command& given) {
  return apply_commands(file, {given});
}

std::pair<int, Json> apply_commands(const std::string& file, const std::vector<solo::Command>& given) {
  return answered([&] {
    solo::Session s = solo::Session::load(file);
    std::vector<solo::Command> cmds;
    for (const solo::Command& g : given) {
      cmds.push_back(with_dice_rolled_before(s, g));
      solo::check(s, cmds.back());  // (before the ruleset's checks, as the command line makes them)
    }
    const solo::SessionRules rules = solo::rules_for_change(s, false);
    Json result;
    for (const solo::Command& c : cmds) {
      try {
        const solo::Applied a = solo::apply(s, *rules.rules, c);
        result = solo::applied_json(s, c, a);
        // Seed 003 L34: a target its front rank cannot see: no declaration,
        // said as solo play says it.
        if (const auto* ch = std::get_if<solo::Charge>(&c); ch && ch->not_visible && a.unit)
          if (const auto no = solo::target_refusal(*rules.rules, s, *a.unit, false))
            result["outcome"] = "No declaration: " + std::string(no->why) + ". " + s.header().units[*a.unit].name +
                                " moves as the table says, without the charge.";
      } catch (const solo::DiceNeeded& need) {
        // The player's dice ran out before the reaction was done: nothing is
        // written; the page asks the next pair and sends them all again.
        return std::pair{200, Json{{"dice_needed", dice_needed_json(c, need)}}};
      } catch (const solo::WeightNeeded& need) {
        // The reacting unit records no weight: nothing is written; the page
        // asks it (solo play's question) and sends again with their_weight.
        Json choices = Json::array();
        for (std::string_view w : k_attacker_weight_names) choices.push_back(std::string(w));
        return std::pair{200, Json{{"weight_needed", Json{{"unit", s.header().units[need.unit].name},
                                                          {"question", solo::plain_words(need.question)},
                                                          {"choices", choices}}}}};
      }
    }
    s.save();
    return std::pair{200, Json{{"result", for_page(result)}}};
  });
}

std::pair<int, Json> read_status(const std::string& file) {
  return answered([&] {
    const solo::Session s = solo::Session::load(file);
    return std::pair{200, Json{{"result", for_page(solo::status_json(s, rules_if_any(s)))}}};
  });
}

std::pair<int, Json> new_session(const std::string& file, const std::vector<std::string>& units,
                                 std::optional<std::uint64_t> seed, bool physical) {
  return answered([&] {
    solo::NewSession n;
    n.path = file;
    n.units = units;
    n.seed = seed;
    n.physical = physical;
    const solo::Created made = solo::create_session(n);
    Json out = solo::status_json(made.session, std::nullopt);
    out["created"] = true;
    return std::pair{201, Json{{"result", for_page(out)}}};
  });
}

std::pair<int, Json> read_log(const std::string& file, const std::string& shown) {
  return answered([&] {
    const solo::Session s = solo::Session::load(file);
    (void)rules_if_any(s);
    return std::pair{200, Json{{"result", solo::log_text(s, shown)}}};
  });
}

std::vector<std::string> described(const std::string& file, const std::vector<int>& events) {
  std::vector<std::string> out;
  const solo::Session s = solo::Session::load(file);
  for (int n : events) {
    const solo::Event& e = s.event(n);
    out.push_back("turn " + std::to_string(e.turn) + ", " + solo::what_happened(s, e));
  }
  return out;
}

}  // namespace vedette::web
