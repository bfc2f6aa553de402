#include "sims/web/web_app.hpp"
#include "engine/core/words.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "engine/core/content_hash.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/procedures/charge_odds.hpp"
#include "engine/procedures/table_rules.hpp"
#include "sims/solo/session.hpp"
#include "sims/solo/solo_turn.hpp"
#include "sims/web/encoding.hpp"
#include "sims/web/web_json.hpp"

namespace vedette::web {

namespace {

constexpr std::string_view k_ext = ".vedette.yaml";

// Constant time, so the token cannot be guessed a character at a time.
bool same_secret(std::string_view a, std::string_view b) {
  unsigned diff = a.size() == b.size() ? 0U : 1U;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned>(a[i] ^ (i < b.size() ? b[i] : 0));
  return diff == 0;
}

std::string header(const Request& r, const std::string& name) {
  auto it = r.headers.find(name);
  return it == r.headers.end() ? std::string() : it->second;
}

// "/api/sessions/NAME/ACTION" -> parts after "/api/".
std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t i = 0;
  while (i < path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) parts.emplace_back(path.substr(i, j - i));
    i = j + 1;
  }
  return parts;
}

Json fraction_json(Fraction f) { return Json{{"num", f.num}, {"den", f.den}, {"p", f.value()}}; }

// The charge's answers from the body, read as `vedette solo charge` reads
// its flags (the same parsers, the same default move): an error message if
// one is missing or not acceptable.
std::optional<std::string> charge_inputs(const Ruleset& r, const solo::Session& s, std::size_t k, const Json& body,
                                         solo::ChargeInputs& in) {
  std::string distance, defender, attacker, move, why;
  for (auto [key, out] : {std::pair{"distance", &distance}, std::pair{"defender", &defender},
                          std::pair{"attacker", &attacker}, std::pair{"move", &move}})
    if (auto e = want_text(body, key, *out)) return e;
  if (distance.empty()) return std::string("missing \"distance\": how far the near edge of the target's nearest figure is (e.g. 45cm)");
  if (defender.empty()) return std::string("missing \"defender\": one of the ruleset's defender classes (GET charge-table)");
  const std::string weight = attacker.empty() ? s.header().units[k].weight : attacker;
  if (weight.empty()) return "missing \"attacker\": is " + s.header().units[k].name + " light, medium or heavy cavalry?";
  auto w = solo::parse_attacker(weight, why);
  if (!w) return "\"attacker\": " + why;
  in.attacker = *w;
  if (move.empty()) {
    in.move = solo::default_charge_move(r, s, k);
  } else {
    auto mv = solo::parse_table_length(r, move, true, why);
    if (!mv) return "\"move\": " + why;
    in.move = *mv;
  }
  auto ds = solo::parse_table_length(r, distance, false, why);
  if (!ds) return "\"distance\": " + why;
  in.distance = *ds;
  std::optional<long long> bearing;
  if (auto e = want_int(body, "bearing", bearing, -180, 360)) return e;
  in.bearing = bearing ? static_cast<double>(*bearing) : 0.0;
  auto df = solo::parse_defender(r, defender, why);
  if (!df) return "\"defender\": " + why;
  in.defender = *df;
  bool flank = false, rear = false;
  if (auto e = want_bool(body, "flank", flank)) return e;
  if (auto e = want_bool(body, "rear", rear)) return e;
  if (flank && rear) return std::string("\"flank\" and \"rear\": the charge strikes one side, not both");
  in.side = flank ? ChargedOn::flank : rear ? ChargedOn::rear : ChargedOn::front;
  if (auto e = want_bool(body, "both_charging", in.both_charging)) return e;
  if (auto e = want_bool(body, "pikes_facing", in.pikes_facing)) return e;
  std::string path;
  if (auto e = want_string(body, "path", path, false)) return e;
  if (!path.empty()) {
    auto pa = solo::parse_path(path, why);
    if (!pa) return "\"path\": " + why;
    in.path = *pa;
  }
  if (in.pikes_facing && (r.charge.kind(in.defender) != DefenderKind::foot || in.side != ChargedOn::front))
    return std::string("\"pikes_facing\": only foot facing the charge (not charged in the flank or rear) carry pikes against it");
  // The optional rules' answers (seeds 001 and 004), as `solo charge` takes them.
  if (auto e = want_bool(body, "fear_exempt", in.fear_exempt)) return e;
  if (auto e = want_bool(body, "refuge", in.refuge)) return e;
  if (auto e = want_bool(body, "square", in.square)) return e;
  const bool foot_answers = r.charge.kind(in.defender) == DefenderKind::foot && !in.both_charging;
  if ((in.fear_exempt || in.refuge) && !(r.charge.fear_of_charge.enabled && foot_answers))
    return std::string("\"fear_exempt\" and \"refuge\" answer Fear of Charge, which applies only when the ruleset turns it on, to foot not charging too");
  if (in.square && !(r.charge.infantry_square.enabled && foot_answers))
    return std::string("\"square\" answers Infantry Square, which applies only when the ruleset turns it on, to foot not charging too");
  return std::nullopt;
}

// What the unit's "(Charge?)" needs next, in `solo play`'s order
// (solo::next_charge_field over the answers `draft`): "field" ("charge",
// "target", "visible", "switch", or "form": the charge's measures, which
// the page asks on one screen, and then its dice), the question and its
// help in the table's words (solo::charge_field_words), "now": the
// session's next step is this charge (after the initiative: seed 003 L46),
// and, a declaration made, what it declared.
Json charge_step_json(const Ruleset& r, const solo::Session& s, std::size_t k, const std::map<std::string, std::string>& draft) {
  const std::string field = solo::next_charge_field(r, s, k, draft);
  const bool declaration = field == "charge" || field == "target" || field == "visible" || field == "switch";
  Json j{{"field", declaration ? field : std::string("form")}};
  if (field == "charge" || field == "target" || field == "visible" || field == "switch") {
    const solo::ChargeFieldWords w = solo::charge_field_words(r, s, k, field, draft);
    j["question"] = solo::plain_words(w.question);
    j["help"] = solo::plain_words(w.help);
  }
  // The declaration's sight, asked after its target (seed 003 L34): its
  // words before the name is known, for a page that asks both on one screen.
  if (field == "target" && !draft.count("visible")) {
    std::map<std::string, std::string> it = draft;
    it["target"] = "it";
    j["sight"] = Json{{"question", solo::plain_words(solo::charge_field_words(r, s, k, "visible", it).question)}};
  }
  j["yes_no"] = field == "visible" || field == "switch";
  const solo::Step st = solo::next_step(s, r);
  j["now"] = st.kind == solo::Step::Kind::charge && st.unit == k;
  const auto t = draft.find("target");
  if (t != draft.end()) j["target"] = t->second;
  if (!declaration) {
    const std::string& name = s.header().units[k].name;
    j["declared"] = "Declared: " + name + " charges" + (t != draft.end() ? " " + t->second : std::string()) +
                    " in its side's move, after the initiative.";
  }
  return j;
}

// The names of the player's units the session has heard (a charge's
// target, a unit that moved or charged in the player's move), for the
// target's question: one tap instead of a name typed.
Json your_units(const solo::Session& s) {
  std::vector<std::string> names;
  auto add = [&names](const std::string& n) {
    if (!n.empty() && std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  };
  for (const solo::Event& e : s.history()) {
    if (const auto* c = std::get_if<solo::ChargeEvent>(&e.body)) {
      add(c->c.target_unit);
      add(c->c.switched_from);
    } else if (const auto* a = std::get_if<solo::ChargeAnswerEvent>(&e.body); a && a->field == "target") {
      add(a->value);
    } else if (const solo::StepRecord* rec = solo::step_record(e.body)) {
      if (auto m = rec->given.find("mover"); m != rec->given.end()) add(m->second);
    }
  }
  Json out = Json::array();
  for (const auto& n : names) out.push_back(n);
  return out;
}

}  // namespace

Reply error_reply(int status, const std::string& message) { return json_reply(status, Json{{"error", message}}); }

App::App(AppOptions options) : o_(std::move(options)) {}

std::optional<std::string> App::bad_name(std::string_view name) {
  if (name.empty()) return "a session name is needed";
  if (name.size() > k_max_name) return "a session name has at most " + std::to_string(k_max_name) + " characters";
  if (name.front() == '.') return "a session name may not start with '.'";
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
      return "a session name may hold only letters, digits, '-', '_' and '.'";
  if (name.find("..") != std::string_view::npos) return "a session name may not contain '..'";
  return std::nullopt;
}

std::string App::file_of(const std::string& name) const { return (o_.dir / (name + std::string(k_ext))).string(); }

std::string App::revision(const std::string& name) const {
  std::ifstream in(file_of(name), std::ios::binary);
  if (!in) return "";
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return fnv1a64_text(fnv1a64(bytes));
}

namespace {

// A Host header's or an Origin's "name[:port]" ("[v6]:port" for IPv6):
// the lower-case name and the port (-1: none given). nullopt if malformed.
struct Authority {
  std::string name;
  int port = -1;
};
std::optional<Authority> parse_authority(std::string_view a) {
  Authority out;
  std::string_view rest;
  if (!a.empty() && a.front() == '[') {
    const std::size_t close = a.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    out.name = std::string(a.substr(0, close + 1));
    rest = a.substr(close + 1);
  } else {
    const std::size_t colon = a.find(':');
    out.name = std::string(a.substr(0, colon));
    if (colon != std::string_view::npos) rest = a.substr(colon);
  }
  if (out.name.empty()) return std::nullopt;
  for (char& c : out.name) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == ':' || c == '[' || c == ']'))
      return std::nullopt;
  }
  if (!rest.empty()) {
    if (rest.front() != ':' || rest.size() < 2 || rest.size() > 6) return std::nullopt;
    int p = 0;
    for (char c : rest.substr(1)) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
      p = p * 10 + (c - '0');
    }
    out.port = p;
  }
  return out;
}

// The value of cookie `name` in a Cookie header ("a=1; b=2"), "" if none.
std::string cookie_value(std::string_view header, std::string_view name) {
  std::size_t i = 0;
  while (i < header.size()) {
    std::size_t j = header.find(';', i);
    if (j == std::string_view::npos) j = header.size();
    std::string_view part = header.substr(i, j - i);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    const std::size_t eq = part.find('=');
    if (eq != std::string_view::npos && part.substr(0, eq) == name) return std::string(part.substr(eq + 1));
    i = j + 1;
  }
  return "";
}

}  // namespace

bool App::allowed_name(const std::string& name) const {
  if (name == "localhost" || name == "127.0.0.1" || name == "[::1]") return true;
  for (const auto& h : o_.hosts) {
    std::string lower = h;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name == lower) return true;
  }
  return false;
}

std::optional<std::string> App::bad_host(const std::string& host) const {
  if (host.empty()) return std::string("the request names no Host");
  const auto a = parse_authority(host);
  const int port = port_.load();
  if (!a || !allowed_name(a->name) || (port != 0 && (a->port < 0 ? 80 : a->port) != port))
    return "this server answers only to its own addresses, not to Host: " + host;
  return std::nullopt;
}

std::optional<std::string> App::bad_origin(const std::string& origin) const {
  if (std::find(o_.origins.begin(), o_.origins.end(), origin) != o_.origins.end()) return std::nullopt;
  constexpr std::string_view k_http = "http://";
  const auto a = origin.rfind(k_http, 0) == 0 ? parse_authority(std::string_view(origin).substr(k_http.size())) : std::nullopt;
  const int port = port_.load();
  if (!a || !allowed_name(a->name) || (port != 0 && (a->port < 0 ? 80 : a->port) != port))
    return "requests from " + origin + " are refused";
  return std::nullopt;
}

Reply App::handle(const Request& r) {
  auto done = [](Reply reply) {
    // Assets say how they may be cached (route); the API and errors: never.
    if (!reply.headers.count("Cache-Control")) reply.headers["Cache-Control"] = "no-store";
    reply.headers["X-Content-Type-Options"] = "nosniff";
    return reply;
  };
  // DNS rebinding: another site's page whose name now points at this
  // machine sends its own name as the Host; only ours are answered.
  const std::string host = header(r, "host");
  if (auto why = bad_host(host)) return done(error_reply(403, *why));
  // The token's cookie is per port (cookies are not), so that two servers
  // on one machine do not overwrite each other's.
  const auto authority = parse_authority(host);
  const std::string cookie = "vedette_token_" + std::to_string(authority && authority->port > 0 ? authority->port : 80);
  bool set_cookie = false;
  if (!o_.token.empty()) {
    // A token given (the link's query, or the header) must be right; else the cookie.
    auto q = r.query.find("token");
    const bool in_query = q != r.query.end();
    const std::string given = in_query                    ? q->second
                              : r.headers.count("x-vedette-token") ? header(r, "x-vedette-token")
                                                                   : cookie_value(header(r, "cookie"), cookie);
    if (!same_secret(given, o_.token)) {
      if (r.method == "GET" && r.path.rfind("/api/", 0) != 0) {
        Reply page;
        page.status = 401;
        page.content_type = "text/plain; charset=utf-8";
        page.body = "This page needs the link printed by `vedette serve` (with its token): scan its QR code again.\n";
        return done(page);
      }
      return done(error_reply(401, "this page needs the access token printed by `vedette serve`"));
    }
    set_cookie = in_query;
  }
  if (r.method != "GET" && r.method != "HEAD") {
    // A browser sends Origin with every POST; another site's page must not
    // drive this one's sessions. With a token, a change without an Origin
    // is refused too: the page always sends one.
    const std::string origin = header(r, "origin");
    if (origin.empty()) {
      if (!o_.token.empty()) return done(error_reply(403, "a change needs the Origin header a browser sends"));
    } else if (auto why = bad_origin(origin)) {
      return done(error_reply(403, *why));
    }
    if (r.method == "POST" && header(r, "content-type").rfind("application/json", 0) != 0)
      return done(error_reply(415, "expected Content-Type: application/json"));
  }
  Reply reply;
  try {
    reply = route(r);
  } catch (const LoadError& e) {
    reply = error_reply(422, e.what());
  } catch (const std::exception& e) {
    reply = error_reply(500, std::string("internal error: ") + e.what());
  }
  if (set_cookie) reply.headers["Set-Cookie"] = cookie + "=" + o_.token + "; Path=/; HttpOnly; SameSite=Strict";
  return done(std::move(reply));
}

Reply App::route(const Request& r) {
  if (r.method == "GET" && r.path.rfind("/api/", 0) != 0) {
    const std::string p = r.path == "/" ? "/index.html" : r.path;
    auto a = asset(p);
    if (!a) return error_reply(404, "no such page: " + r.path);
    Reply reply;
    reply.content_type = std::string(a->type);
    reply.headers["Content-Security-Policy"] = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'";
    // Compressed once (sims/web/encoding.hpp): gzip to a browser that
    // accepts it, the plain body to others, each with its own ETag. Vary
    // tells the server (sims/web/server.cpp) that the encoding is chosen:
    // cpp-httplib must not compress the body again.
    const EncodedAsset& e = encoded_asset(p, a->body);
    const bool gz = accepts_gzip(header(r, "accept-encoding"));
    const std::string& etag = gz ? e.gzip_etag : e.etag;
    reply.headers["ETag"] = etag;
    reply.headers["Vary"] = "Accept-Encoding";
    // Cached, but asked again on every load: a reload costs a 304, and a new
    // binary's page is never served stale.
    reply.headers["Cache-Control"] = "no-cache";
    if (header(r, "if-none-match").find(etag) != std::string::npos) {
      reply.status = 304;
      return reply;
    }
    if (gz) reply.headers["Content-Encoding"] = "gzip";
    reply.body = gz ? e.gzip : std::string(e.body);
    return reply;
  }
  const auto parts = split_path(r.path);
  if (parts.size() < 2 || parts[0] != "api" || parts[1] != "sessions") return error_reply(404, "no such API: " + r.path);
  if (parts.size() == 2) {
    if (r.method == "GET") return list_sessions();
    if (r.method == "POST") return create_session(r);
    return error_reply(405, "use GET or POST on /api/sessions");
  }
  const std::string& name = parts[2];
  if (auto why = bad_name(name)) return error_reply(400, *why);
  if (!std::filesystem::is_regular_file(file_of(name))) return error_reply(404, "no session named '" + name + "' in this folder");
  if (parts.size() == 3) {
    if (r.method != "GET") return error_reply(405, "use GET on a session");
    return session_view(name);
  }
  if (parts.size() != 4) return error_reply(404, "no such API: " + r.path);
  const std::string& action = parts[3];
  if (action == "log" && r.method == "GET") return session_log(name);
  if (action == "question" && r.method == "POST") return next_question(name, r);
  if (action == "charge-table" && r.method == "GET") return charge_table(name);
  if (action == "charge-odds" && r.method == "POST") return charge_odds(name, r);
  if (action == "shot-plan" && r.method == "POST") return shot_plan(name, r);
  if (action == "melee-plan" && r.method == "POST") return melee_plan(name, r);
  if (action == "charge-step" && r.method == "POST") return charge_step(name, r);
  if (r.method != "POST") return error_reply(405, "use POST for " + action);
  return session_action(name, action, r);
}

Reply App::list_sessions() {
  Json list = Json::array();
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(o_.dir, ec)) {
    const std::string f = e.path().filename().string();
    if (f.size() <= k_ext.size() || f.compare(f.size() - k_ext.size(), k_ext.size(), k_ext) != 0) continue;
    const std::string name = f.substr(0, f.size() - k_ext.size());
    if (!bad_name(name)) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    Json s{{"name", name}};
    try {
      const solo::Session session = solo::Session::load(file_of(name));
      s["turn"] = session.state().turn;
      Json units = Json::array();
      for (const auto& u : session.header().units) units.push_back(u.name);
      s["units"] = units;
    } catch (const std::exception& e) {
      s["problem"] = e.what();
    }
    list.push_back(s);
  }
  return json_reply(200, Json{{"dir", o_.dir.string()}, {"sessions", list}});
}

Reply App::answer(std::pair<int, Json> a, const std::string& name) const {
  a.second["rev"] = revision(name);
  return json_reply(a.first, a.second);
}

Reply App::create_session(const Request& r) {
  Reply bad;
  auto body = body_object(r, bad);
  if (!body) return bad;
  std::string name;
  if (auto e = want_string(*body, "name", name, true)) return error_reply(400, *e);
  if (auto why = bad_name(name)) return error_reply(400, *why);
  if (std::filesystem::exists(file_of(name))) return error_reply(409, "a session named '" + name + "' exists already");
  if (!body->contains("units") || !(*body)["units"].is_array() || (*body)["units"].empty())
    return error_reply(400, "\"units\" must be a list of units, each \"NAME:TYPE[,raw][,hero][,figures=N][,light|medium|heavy]\"");
  std::vector<std::string> units;
  for (const auto& u : (*body)["units"]) {
    if (!u.is_string()) return error_reply(400, "each unit must be a string such as \"Lancers:shock,figures=12\"");
    units.push_back(u.get<std::string>());
  }
  std::optional<long long> seed;
  if (auto e = want_int(*body, "seed", seed, 0, 999999999999LL)) return error_reply(400, *e);
  bool physical = false;
  if (auto e = want_bool(*body, "physical_dice", physical)) return error_reply(400, *e);
  std::lock_guard lock(mutex_);
  return answer(new_session(file_of(name), units, seed ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(*seed)) : std::nullopt,
                            physical),
                name);
}

Reply App::session_view(const std::string& name) {
  const std::string rev = revision(name);
  {
    std::lock_guard lock(cache_mutex_);
    auto it = status_cache_.find(name);
    if (it != status_cache_.end() && it->second.first == rev) {
      Reply r;
      r.body = it->second.second;
      return r;
    }
  }
  std::lock_guard lock(mutex_);
  Reply r = answer(read_status(file_of(name)), name);
  if (r.status == 200) turn_words(name, r);
  if (r.status == 200) {
    // Cached under the revision the reply carries (the file as the command read it).
    const Json j = Json::parse(r.body, nullptr, false);
    if (!j.is_discarded() && j.contains("rev")) {
      std::lock_guard cl(cache_mutex_);
      status_cache_[name] = {j["rev"].get<std::string>(), r.body};
    }
  }
  return r;
}

// What the page says about the turn, in the words `solo play` uses (the
// engine's state, sims/solo/solo_turn.hpp): "turn_left", what is not done
// yet this turn (a unit that has not acted, a step of the turn), so that
// "Next turn" can ask first; and once every step is done, "turn_summary",
// solo play's end-of-turn lines (solo::turn_summary).
void App::turn_words(const std::string& name, Reply& r) const {
  Json j = Json::parse(r.body, nullptr, false);
  if (j.is_discarded() || !j.contains("result") || !j["result"].is_object()) return;
  const solo::Session s = solo::Session::load(file_of(name));
  solo::SessionRules rules;
  try {
    rules = solo::load_session_rules(s);
  } catch (const std::exception&) {
    return;  // (the status says the ruleset is missing)
  }
  if (!rules.rules) return;
  const Ruleset& rs = *rules.rules;
  const auto& units = s.header().units;
  const int turn = s.state().turn;
  Json left = Json::array();
  for (std::size_t k = 0; k < units.size(); ++k)
    if (s.memory(k).acted_in_turn != turn && s.figures_left(k) > 0 && s.memory(k).morale != solo::Morale::routed)
      left.push_back(units[k].name + " has not acted");
  // The step the turn waits on, in solo::step_words's words (an activation
  // is said above, a unit at a time).
  const solo::Step st = solo::next_step(s, rs);
  switch (st.kind) {
    case solo::Step::Kind::charge: left.push_back(solo::step_words(s, st) + " is not answered"); break;
    case solo::Step::Kind::initiative:
    case solo::Step::Kind::your_move:
    case solo::Step::Kind::shooting:
    case solo::Step::Kind::melee:
    case solo::Step::Kind::rally: left.push_back(solo::step_words(s, st)); break;
    default: break;
  }
  j["result"]["turn_left"] = left;
  // Each "(Charge?)" still open: what it needs next, in solo play's order.
  if (j["result"].contains("units") && j["result"]["units"].is_array())
    for (std::size_t k = 0; k < units.size() && k < j["result"]["units"].size(); ++k)
      if (s.charge_pending(k)) {
        try {
          j["result"]["units"][k]["charge_step"] = charge_step_json(rs, s, k, s.memory(k).charge_draft);
        } catch (const solo::SessionError&) {
          // A saved answer that does not read: the form asks afresh (undo takes it back).
        }
      }
  j["result"]["your_units"] = your_units(s);
  // A rally on the player's dice: what 2D6 must reach (the engine's rally_check).
  if (st.kind == solo::Step::Kind::rally && j["result"].contains("next_step"))
    j["result"]["next_step"]["rally_need"] = rally_check(rs, 1, 1).need;
  if (st.kind == solo::Step::Kind::next_turn) {
    Json lines = Json::array();
    for (std::size_t k = 0; k < units.size(); ++k) lines.push_back(solo::plain_words(solo::turn_summary(rs, s, k)));
    j["result"]["turn_summary"] = lines;
  }
  r.body = j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Reply App::session_log(const std::string& name) {
  std::lock_guard lock(mutex_);
  Reply r = answer(read_log(file_of(name), name + std::string(k_ext)), name);  // the log in words, one line an event
  return r;
}

Reply App::next_question(const std::string& name, const Request& r) {
  Reply bad;
  auto body = body_object(r, bad);
  if (!body) return bad;
  std::string unit;
  if (auto e = want_string(*body, "unit", unit, true)) return error_reply(400, *e);
  std::lock_guard lock(mutex_);
  const solo::Session s = solo::Session::load(file_of(name));
  const std::optional<std::size_t> found = unit_index(s, unit, bad);
  if (!found) return bad;
  const std::size_t k = *found;
  const solo::UnitSpec* const it = &s.header().units[k];
  solo::UnitMemory m = s.memory(k);
  const Json answers = body->value("answers", Json::object());
  if (!answers.is_object()) return error_reply(400, "\"answers\" must be an object");
  for (std::size_t q = 0; q < solo::k_question_count; ++q) {
    const std::string key(solo::k_question_names[q]);
    if (!answers.contains(key)) continue;
    const Json& v = answers[key];
    if (solo::is_yes_no(static_cast<solo::Question>(q))) {
      if (!v.is_boolean()) return error_reply(400, "answer \"" + key + "\" must be true or false");
      m.pending.v[q] = v.get<bool>() ? 1 : 0;
    } else {
      if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > it->figures - m.casualties)
        return error_reply(400, "answer \"" + key + "\" must be a whole number from 0 to " +
                                    std::to_string(it->figures - m.casualties));
      m.pending.v[q] = v.get<int>();
    }
  }
  const solo::SessionRules rules = solo::load_session_rules(s);
  const auto q = solo::next_question(*rules.rules, *it, m, it->figures - m.casualties, s.state().turn);
  Json j{{"unit", unit}, {"rev", revision(name)}};
  if (!q) {
    j["question"] = nullptr;
  } else {
    j["question"] = std::string(solo::question_name(*q));
    j["label"] = std::string(solo::question_label(*q));
    j["text"] = solo::plain_words(solo::question_text(*rules.rules, *q, unit));
    j["yes_no"] = solo::is_yes_no(*q);
    j["max"] = it->figures - m.casualties;
  }
  return json_reply(200, j);
}

Reply App::charge_table(const std::string& name) {
  std::lock_guard lock(mutex_);
  const solo::Session s = solo::Session::load(file_of(name));
  const solo::SessionRules rules = solo::load_session_rules(s);
  const Ruleset& r = *rules.rules;
  Json weights = Json::array();
  for (auto w : k_attacker_weight_names) weights.push_back(std::string(w));
  Json defenders = Json::array();
  for (std::size_t d = 0; d < k_defender_class_names.size(); ++d) {
    const DefenderRow& row = r.charge.table[d];
    Json need = Json::object();
    for (std::size_t w = 0; w < k_attacker_weight_names.size(); ++w) need[std::string(k_attacker_weight_names[w])] = row.need[w];
    defenders.push_back(Json{{"id", dashed(k_defender_class_names[d])},
                             {"text", row.text},
                             {"kind", std::string(k_defender_kind_names[static_cast<std::size_t>(row.kind)])},
                             {"need", need}});
  }
  Json units = Json::object();
  for (std::size_t k = 0; k < s.header().units.size(); ++k)
    units[s.header().units[k].name] =
        Json{{"weight", s.header().units[k].weight.empty() ? Json(nullptr) : Json(s.header().units[k].weight)},
             {"move", format_length(solo::default_charge_move(r, s, k), r.units)}};
  return json_reply(200, Json{{"rev", revision(name)},
                              {"ruleset", rules.path},
                              {"units_of_length", unit_name(r.units)},
                              {"attacker_weights", weights},
                              {"defenders", defenders},
                              {"pikes_facing_stand", r.charge.pikes_facing_stand},
                              {"units", units}});
}

// The "(Charge?)"'s next question (read-only): the session's answers with
// the page's over them ({"unit", "answers": {FIELD: VALUE}}, the charge
// form's words as `solo play` saves them), in solo play's order
// (charge_step_json): the page asks this before the dice, so a target out
// of reach is asked whether another is within it (seed 003 L56).
Reply App::charge_step(const std::string& name, const Request& r) {
  Reply bad;
  auto body = body_object(r, bad);
  if (!body) return bad;
  std::string unit;
  if (auto e = want_string(*body, "unit", unit, true)) return error_reply(400, *e);
  const Json answers = body->value("answers", Json::object());
  if (!answers.is_object()) return error_reply(400, "\"answers\" must be an object of the charge form's answers");
  std::lock_guard lock(mutex_);
  const solo::Session s = solo::Session::load(file_of(name));
  const std::optional<std::size_t> found = unit_index(s, unit, bad);
  if (!found) return bad;
  const std::size_t k = *found;
  if (!s.charge_pending(k)) return error_reply(400, unit + " has no \"(Charge?)\" to answer this turn");
  std::map<std::string, std::string> draft = s.memory(k).charge_draft;
  for (auto it = answers.begin(); it != answers.end(); ++it) {
    if (std::find(solo::k_charge_fields.begin(), solo::k_charge_fields.end(), it.key()) == solo::k_charge_fields.end())
      return error_reply(400, "no charge question \"" + it.key() + "\"");
    if (!it->is_string() || !solo::printable_utf8(it->get<std::string>()))
      return error_reply(400, "the answer \"" + it.key() + "\" must be printable text");
    draft[it.key()] = it->get<std::string>();
  }
  const solo::SessionRules rules = solo::load_session_rules(s);
  try {
    Json j = charge_step_json(*rules.rules, s, k, draft);
    j["unit"] = unit;
    j["rev"] = revision(name);
    return json_reply(200, j);
  } catch (const solo::SessionError& e) {
    return error_reply(400, e.what());  // an answer that does not read
  }
}

Reply App::charge_odds(const std::string& name, const Request& r) {
  Reply bad;
  auto body = body_object(r, bad);
  if (!body) return bad;
  std::string unit;
  if (auto e = want_string(*body, "unit", unit, true)) return error_reply(400, *e);
  std::optional<std::array<int, 2>> initiation, obstacle;
  if (auto e = want_dice(*body, "initiation", initiation)) return error_reply(400, *e);
  if (auto e = want_dice(*body, "obstacle_roll", obstacle)) return error_reply(400, *e);
  std::vector<int> gut;
  if (auto e = want_few_dice(*body, "gut_roll", gut)) return error_reply(400, *e);
  std::lock_guard lock(mutex_);
  const solo::Session s = solo::Session::load(file_of(name));
  const std::optional<std::size_t> found = unit_index(s, unit, bad);
  if (!found) return bad;
  const std::size_t k = *found;
  const solo::SessionRules rules = solo::load_session_rules(s);
  const Ruleset& rs = *rules.rules;
  solo::ChargeInputs in;
  if (auto e = charge_inputs(rs, s, k, *body, in)) return error_reply(400, *e);
  // Everything from the engine: the preview `solo charge` prints, and the
  // exact odds of each outcome (a "(Charge?)" is a declared charge).
  const solo::ChargePreview pv = solo::preview_charge(rs, in);
  const ChargeOdds o = vedette::charge_odds(rs, solo::table_charge(in, pv));  // the charge's procedure, enumerated
  Json j{{"unit", unit},
         {"rev", revision(name)},
         {"attacker", std::string(k_attacker_weight_names[static_cast<std::size_t>(in.attacker)])},
         {"move", format_length(in.move, rs.units)},
         {"distance", format_length(in.distance, rs.units)},
         {"max_range", format_length(pv.geometry.max_range, rs.units)},
         {"min_distance", format_length(pv.geometry.min_distance, rs.units)},
         {"reaches", pv.geometry.reaches},
         {"charge_bonus", pv.geometry.charge_bonus},
         {"morale_check", pv.geometry.morale_check},
         {"automatic", pv.target.automatic},
         {"stand_target", pv.target.target},
         {"initiation_need", o.initiation_need},
         {"odds", Json{{"initiation_passes", fraction_json(o.initiation_passes)},
                       {"goes_in", fraction_json(o.goes_in())},
                       {"no_charge", fraction_json(o.no_charge)},
                       {"falls_short", fraction_json(o.falls_short)},
                       {"contact_no_check", fraction_json(o.contact_no_check)},
                       {"defender_stands", fraction_json(o.defender_stands)},
                       {"defender_fails", fraction_json(o.defender_fails)},
                       {"halted_at_obstacle", fraction_json(o.halted_at_obstacle)},
                       {"charger_fails", fraction_json(o.charger_fails)},
                       {"defender_fled", fraction_json(o.defender_fled)},
                       {"square_melee", fraction_json(o.square_melee)}}},
         {"path", std::string(k_charge_path_names[static_cast<std::size_t>(in.path)])},
         // vedette rolled this charge's dice already this turn (an undone
         // charge): the same dice are used again, the player's are refused.
         {"rolled_before", s.charge_dice_for(k, s.state().turn).has_value()}};
  if (initiation) {
    const InitiationCheck ic = initiation_check(rs, true, (*initiation)[0], (*initiation)[1]);
    j["initiation"] = Json{{"dice", Json::array({(*initiation)[0], (*initiation)[1]})},
                           {"total", ic.total},
                           {"need", ic.need},
                           {"passed", ic.passed}};
    // The dice are asked only when they will be read (solo::charge_progress):
    // the obstacle's second check (seed 003 L68), the gut check, the defender's 2D6.
    const solo::ChargeProgress at = solo::charge_progress(rs, in, pv, initiation, obstacle, gut);
    if (at.at_obstacle && obstacle) {
      const InitiationCheck oc = initiation_check(rs, true, (*obstacle)[0], (*obstacle)[1]);
      j["obstacle"] = Json{{"total", oc.total}, {"need", oc.need}, {"passed", oc.passed}};
    }
    j["needs_obstacle_dice"] = at.at_obstacle && !obstacle;
    j["needs_gut_dice"] = at.to_gut && gut.empty();
    if (at.to_gut && !gut.empty()) {
      const int total = solo::gut_total(rs, gut);
      j["gut"] = Json{{"total", total}, {"passes", gut_check_passes(rs.charge, total)}};
    }
    j["needs_defender_dice"] = at.to_morale;
  } else {
    j["needs_obstacle_dice"] = pv.geometry.reaches && in.path == ChargePath::obstacle;  // if the initiation check passes
    j["needs_gut_dice"] = pv.fear_check;                                                // ...and after it
    j["needs_defender_dice"] = pv.needs_dice;  // if the initiation check passes
  }
  // The optional rules (seeds 001 and 004), when the ruleset turns them on.
  const FearOfChargeRules& fc = rs.charge.fear_of_charge;
  j["fear_may_apply"] = pv.fear_may_apply;
  j["fear_check"] = pv.fear_check;
  if (pv.fear_may_apply) {
    j["fear_exempt_cover"] = fc.exempt_cover;
    j["fear_flee_distance"] = format_length_table(fc.flee_distance, rs.units);
    j["gut_dice"] = fc.dice;
    j["gut_need"] = solo::gut_need_text(rs.charge);
    j["odds"]["gut_passes"] = fraction_json(pv.gut_pass);
  }
  j["square_allowed"] = pv.square_allowed;
  j["square"] = pv.square;
  // Both charging with a target on horse: the charger checks its own morale
  // too (seed 003), on 2D6 needing charger_need.
  j["needs_charger_dice"] = j["needs_defender_dice"].get<bool>() && pv.charger_checks;
  if (pv.charger_checks) j["charger_need"] = pv.charger_target.target;
  return json_reply(200, j);
}

Reply App::session_action(const std::string& name, const std::string& action, const Request& r) {
  Reply bad;
  auto body = body_object(r, bad);
  if (!body) return bad;
  std::string rev;
  if (auto e = want_string(*body, "rev", rev, true)) return error_reply(400, *e + " (the revision the page last saw)");
  const std::string file = file_of(name);
  // The typed command (sims/web/web_commands.cpp), applied as the terminal
  // applies it; the charge form's answers, several in one write.
  std::vector<solo::Command> cmds;
  if (action == "charge-answer") {
    auto answers = charge_answers(*body, bad);
    if (!answers) return bad;
    cmds = std::move(*answers);
  } else {
    const std::optional<solo::Command> cmd = command_from_json(action, *body, bad);
    if (!cmd) return bad;
    cmds.push_back(*cmd);
  }
  std::lock_guard lock(mutex_);
  const std::string now = revision(name);
  if (rev != now)
    return json_reply(409, Json{{"error", "the session changed since this page last loaded it (another window or the "
                                          "terminal); nothing was written: here is the current state"},
                                {"rev", now}});
  auto [status, body_json] = apply_commands(file, cmds);
  if (status == 200 && (action == "undo" || action == "redo")) {
    // What was undone (redone), in the log's words: the page says it.
    std::vector<int> events;
    for (const Json& e : body_json["result"].value(action == "undo" ? "undone" : "redone", Json::array()))
      events.push_back(e.value("n", 0));
    Json said = Json::array();
    for (const std::string& what : described(file, events))
      said.push_back(std::string(action == "undo" ? "Undone: " : "Redone: ") + solo::plain_words(what));
    body_json["said"] = said;
  }
  return answer({status, std::move(body_json)}, name);
}

}  // namespace vedette::web
