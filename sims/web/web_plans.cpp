// The read-only answers before a step's dice, each the step's procedure
// asked on the page's behalf (docs/architecture.md, "One procedure, every
// front"): the shot's next question (solo::shot_next) and the melee's next
// step (solo::solo_melee). Split from web_app.cpp for its length.
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

#include "engine/procedures/melee_procedure.hpp"
#include "sims/solo/session.hpp"
#include "sims/solo/solo_shot.hpp"
#include "sims/solo/solo_turn.hpp"
#include "sims/web/web_app.hpp"
#include "sims/web/web_json.hpp"

namespace vedette::web {

// The shot's next question (read-only): the shot procedure's next need
// (solo::shot_next, sims/solo/solo_shot.hpp, as `solo play` asks it) given
// the page's answers so far, with its words; the page holds no order of the
// shot's questions. The answers are the shoot action's fields ("target",
// "distance", "cover", "hits": the player's count, "mounted") and
// "rolled": true for the session's dice ("Roll for me"); once "ask" is
// "done" the page sends them to .../shoot. Also the shot's dice and the
// score each needs (solo::solo_shot, the engine's plan_shot) once the
// distance and cover are known, so the page can say "Roll 3 dice; each 5+
// hits" before the player's own dice.
Reply App::shot_plan(const std::string& name, const Request& r) {
  Reply bad;
  auto body = body_object(r, bad);
  if (!body) return bad;
  std::string unit, distance;
  if (auto e = want_string(*body, "unit", unit, true)) return error_reply(400, *e);
  if (auto e = want_text(*body, "distance", distance)) return error_reply(400, *e);
  const auto flag = [&](const char* key, std::optional<bool>& out) -> std::optional<std::string> {
    if (!body->contains(key) || (*body)[key].is_null()) return std::nullopt;
    bool v = false;
    if (auto e = want_bool(*body, key, v)) return e;
    out = v;
    return std::nullopt;
  };
  solo::ShotAnswers a;
  std::optional<bool> rolled;
  if (auto e = flag("target", a.target)) return error_reply(400, *e);
  if (auto e = flag("cover", a.cover)) return error_reply(400, *e);
  if (auto e = flag("mounted", a.mounted)) return error_reply(400, *e);
  if (auto e = flag("rolled", rolled)) return error_reply(400, *e);
  std::optional<long long> hits;
  if (auto e = want_int(*body, "hits", hits, 0, 1000)) return error_reply(400, *e);
  if (hits && rolled.value_or(false)) return error_reply(400, "give \"hits\" (your dice) or \"rolled\": true (the session's dice), not both");
  if (hits) a.hits = static_cast<int>(*hits);
  a.rolled = rolled.value_or(false);
  if (!a.target && !distance.empty()) a.target = true;  // a distance: it has a target (the page before the procedure)
  std::lock_guard lock(mutex_);
  const solo::Session s = solo::Session::load(file_of(name));
  const std::optional<std::size_t> found = unit_index(s, unit, bad);
  if (!found) return bad;
  const std::size_t k = *found;
  const solo::SessionRules rules = solo::load_session_rules(s);
  const Ruleset& rs = *rules.rules;
  const solo::ShootingChance c = solo::shooting_chance(rs, s, k);
  if (!c.weapon) return error_reply(400, unit + " does not shoot this turn: " + c.why_not);
  if (!distance.empty()) {
    std::string why;
    const auto d = solo::parse_table_length(rs, distance, false, why);
    if (!d) return error_reply(400, "\"distance\": " + why);
    a.distance = *d;
  }
  solo::ShotNeed n;
  try {
    n = solo::shot_next(rs, s, k, a);
  } catch (const std::out_of_range& e) {
    return error_reply(400, std::string("\"hits\": ") + e.what());
  }
  Json j{{"unit", unit},
         {"rev", revision(name)},
         {"ask", std::string(solo::k_shot_need_names[static_cast<std::size_t>(n.kind)])},
         {"reach", format_length_table(c.reach, rs.units)}};
  if (n.kind != solo::ShotNeed::Kind::done) {
    j["question"] = solo::plain_words(n.question);
    j["help"] = solo::plain_words(n.help);
  }
  if (a.distance && a.target.value_or(false)) {
    j["distance"] = format_length(*a.distance, rs.units);
    j["in_reach"] = n.in_reach;
  }
  if (n.dice) {
    j["dice"] = n.dice;
    j["need"] = n.need;  // over 6: cannot hit
    j["rolled_before"] = n.rolled_before;
  }
  if (n.kind == solo::ShotNeed::Kind::done) {
    j["target"] = !n.shoot.no_target;
    if (!n.why.empty()) j["why"] = n.why;
  }
  return json_reply(200, j);
}

// A melee before the cavalry's dice (read-only): given your side's hits and,
// against your square, the faces its dice showed, whether the cavalry
// strikes now and with how many dice needing what: the melee procedure's next
// step (solo::solo_melee, as `solo melee` resolves it). The page holds no
// order of the melee's steps: it asks this.
Reply App::melee_plan(const std::string& name, const Request& r) {
  Reply bad;
  auto body = body_object(r, bad);
  if (!body) return bad;
  Json b = *body;
  if (!b.contains("their_hits")) b["their_hits"] = 0;  // the square's faces first: its hits are asked after
  std::string unit;
  if (auto e = want_string(b, "unit", unit, true)) return error_reply(400, *e);
  const std::optional<solo::Command> cmd = command_from_json("melee", b, bad);
  if (!cmd) return bad;
  const solo::Melee& m = std::get<solo::Melee>(*cmd);
  std::lock_guard lock(mutex_);
  const solo::Session s = solo::Session::load(file_of(name));
  const std::optional<std::size_t> found = unit_index(s, unit, bad);
  if (!found) return bad;
  const std::size_t k = *found;
  if (!s.memory(k).contact) return error_reply(400, unit + " is in no melee this turn");
  const solo::SessionRules rules = solo::load_session_rules(s);
  const Ruleset& rs = *rules.rules;
  SquareFaces faces;
  MeleeProcedure::Need need;
  try {
    if (!m.square_dice.empty()) faces = read_square_faces(rs, m.square_dice);
  } catch (const std::out_of_range& e) {
    return error_reply(400, std::string("\"square_dice\": ") + e.what());
  }
  try {
    need = solo::solo_melee(rs, s, k, m.their_hits, faces).next();
  } catch (const std::out_of_range& e) {
    return error_reply(400, std::string("\"their_hits\": ") + e.what());
  }
  const bool strikes = need.kind == MeleeProcedure::Need::Kind::roll;
  return json_reply(200, Json{{"unit", unit},
                              {"rev", revision(name)},
                              {"bounce", faces.bounce},
                              {"square_hits_max", faces.may_hit},
                              {"strikes", strikes},
                              {"dice", strikes ? need.dice : 0},
                              {"need", strikes ? need.need : 0}});
}

}  // namespace vedette::web
