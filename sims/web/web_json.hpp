#pragma once
// What sims/web/web_app.cpp, web_plans.cpp and web_commands.cpp share: the JSON
// reply, the page's plain words, and reading a request body's fields with
// a message saying what was expected.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sims/solo/solo_command.hpp"
#include "sims/solo/solo_turn.hpp"
#include "sims/web/web_app.hpp"

namespace vedette::web {

// The index of the unit named `unit` in the session; with none, `bad` is
// the 400 that says so (every endpoint that takes a unit answers alike).
inline std::optional<std::size_t> unit_index(const solo::Session& s, const std::string& unit, Reply& bad) {
  const auto& units = s.header().units;
  auto it = std::find_if(units.begin(), units.end(), [&](const solo::UnitSpec& u) { return u.name == unit; });
  if (it == units.end()) {
    bad = error_reply(400, "no unit named '" + unit + "' in this session");
    return std::nullopt;
  }
  return static_cast<std::size_t>(it - units.begin());
}

using Json = nlohmann::ordered_json;

// The page speaks the player's language, as `solo play` does: the prose
// the commands return (an outcome, an instruction, a question) without
// the seed and YAML-key citations (solo::plain_words). Names, ids and
// numbers are left alone; the log keeps every citation.
inline void plain_prose(Json& j) {
  static constexpr std::array<std::string_view, 8> k_prose{"outcome",  "instruction",    "last_instruction", "question",
                                                           "text",     "charge_refused", "pace_adjustment",  "why_not"};
  if (j.is_array()) {
    for (auto& v : j) plain_prose(v);
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it->is_string() && std::find(k_prose.begin(), k_prose.end(), it.key()) != k_prose.end())
        *it = solo::plain_words(it->get<std::string>());
      else
        plain_prose(*it);
    }
  }
}

inline Reply json_reply(int status, const Json& j) {
  Reply r;
  r.status = status;
  r.body = j.dump(-1, ' ', false, Json::error_handler_t::replace);
  return r;
}

// Reads the body as a JSON object: nullopt and a reply if it is not one.
inline std::optional<Json> body_object(const Request& r, Reply& bad) {
  if (r.body.size() > k_max_body) {
    bad = error_reply(413, "the request body is larger than " + std::to_string(k_max_body) + " bytes");
    return std::nullopt;
  }
  Json j = Json::parse(r.body.empty() ? std::string("{}") : r.body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    bad = error_reply(400, "expected a JSON object as the request body");
    return std::nullopt;
  }
  return j;
}

// A field of the body: checked for its type; an error message if wrong.
inline std::optional<std::string> want_string(const Json& j, const char* key, std::string& out, bool required) {
  if (!j.contains(key)) return required ? std::optional<std::string>(std::string("missing \"") + key + "\"") : std::nullopt;
  if (!j[key].is_string()) return std::string("\"") + key + "\" must be a string";
  out = j[key].get<std::string>();
  return std::nullopt;
}
inline std::optional<std::string> want_int(const Json& j, const char* key, std::optional<long long>& out, long long lo, long long hi) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  if (!j[key].is_number_integer()) return std::string("\"") + key + "\" must be a whole number";
  const long long v = j[key].get<long long>();
  if (v < lo || v > hi)
    return std::string("\"") + key + "\" must be from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
           std::to_string(v);
  out = v;
  return std::nullopt;
}
inline std::optional<std::string> want_bool(const Json& j, const char* key, bool& out) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  if (!j[key].is_boolean()) return std::string("\"") + key + "\" must be true or false";
  out = j[key].get<bool>();
  return std::nullopt;
}

// Two dice from the body ("roll", "initiation"): [A, B], each 1..6.
inline std::optional<std::string> want_dice(const Json& j, const char* key, std::optional<std::array<int, 2>>& out) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  const Json& v = j[key];
  if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer() || v[0].get<long long>() < 1 ||
      v[0].get<long long>() > 6 || v[1].get<long long>() < 1 || v[1].get<long long>() > 6)
    return std::string("\"") + key + "\" must be two dice, each from 1 to 6, e.g. [3, 5]";
  out = std::array<int, 2>{v[0].get<int>(), v[1].get<int>()};
  return std::nullopt;
}

// One or two dice (seed 001's gut check rolls the ruleset's 1 or 2).
inline std::optional<std::string> want_few_dice(const Json& j, const char* key, std::vector<int>& out) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  const Json& v = j[key];
  bool ok = v.is_array() && !v.empty() && v.size() <= 2;
  for (std::size_t i = 0; ok && i < v.size(); ++i)
    ok = v[i].is_number_integer() && v[i].get<long long>() >= 1 && v[i].get<long long>() <= 6;
  if (!ok) return std::string("\"") + key + "\" must be one or two dice, each from 1 to 6, e.g. [3, 5]";
  out.clear();
  for (const Json& d : v) out.push_back(d.get<int>());
  return std::nullopt;
}

// A length or text field given as a number or a string ("45", "45cm").
inline std::optional<std::string> want_text(const Json& j, const char* key, std::string& out) {
  if (j.contains(key) && j[key].is_number()) {
    out = j[key].dump();
    return std::nullopt;
  }
  return want_string(j, key, out, false);
}

// The solo commands of the API (sims/web/web_commands.cpp): the body of
// POST /api/sessions/NAME/ACTION read into the typed command (nullopt and
// `bad`, a 400 or 404, if it is not one), and the command applied to the
// session file as `vedette solo ACTION --json` applies it: the HTTP status
// and {"result": what the command answers} or {"error": why not}.
std::optional<solo::Command> command_from_json(const std::string& action, const Json& body, Reply& bad);
std::pair<int, Json> apply_command(const std::string& file, const solo::Command& c);
// Several in one write (all or none): the charge form's answers.
std::pair<int, Json> apply_commands(const std::string& file, const std::vector<solo::Command>& c);
// POST .../charge-answer: {"unit", "answers": {FIELD: VALUE, ...}}, the
// charge form's answers (solo::ChargeAnswer, `solo play`'s), in its order.
std::optional<std::vector<solo::Command>> charge_answers(const Json& body, Reply& bad);
// A session read as `vedette solo status --json` reads it (its charges
// replayed on the procedure; a ruleset that cannot be loaded leaves the
// turn's next step out), for the page's view of it.
std::pair<int, Json> read_status(const std::string& file);
// A new session from the page's form ({"units": [...], "seed", "physical_dice"}),
// as `vedette solo new --json` creates it (solo::create_session): 201 and its status.
std::pair<int, Json> new_session(const std::string& file, const std::vector<std::string>& units,
                                 std::optional<std::uint64_t> seed, bool physical);
// The log in words, one line an event, as `vedette solo log` prints it,
// the file named `shown`.
std::pair<int, Json> read_log(const std::string& file, const std::string& shown);
// "turn 2, Lancers: ..." for each event undone or redone, in the log's words.
std::vector<std::string> described(const std::string& file, const std::vector<int>& events);

}  // namespace vedette::web
