// `vedette serve` (sims/web/): the API over solo sessions, called directly
// (web::App, as `vedette serve` makes it)
// and through the real server on loopback (the binary, over HTTP).
#include <catch2/catch.hpp>

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/socket.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "engine/core/fraction.hpp"
#include "helpers.hpp"
#include "sims/cli/cli.hpp"
#include "sims/solo/session.hpp"
#include "sims/solo/solo_turn.hpp"
#include "sims/web/server.hpp"
#include "sims/web/web_app.hpp"
#include "web_test_util.hpp"

namespace t_web {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace web_test;

TEST_CASE("web: a session is created, listed, and played through the API as the terminal would", "[web]") {
  Table t;
  const std::string rev = t.create();
  CHECK(fs::exists(fs::path(t.tmp.path()) / "game.vedette.yaml"));
  json list = body_of(t.call("GET", "/api/sessions"));
  REQUIRE(list["sessions"].size() == 1);
  CHECK(list["sessions"][0]["name"] == "game");
  CHECK(list["sessions"][0]["units"] == json({"Lancers", "Hussars"}));

  // The questions come from the session's rules (solo::next_question), one at a time.
  json q = body_of(t.call("POST", "/api/sessions/game/question", {{"unit", "Lancers"}, {"answers", json::object()}}));
  REQUIRE(q["question"].is_string());
  CHECK_FALSE(q["text"].get<std::string>().empty());
  json answers = json::object();
  for (int guard = 0; guard < 10 && q["question"].is_string(); ++guard) {
    answers[q["question"].get<std::string>()] = q["yes_no"].get<bool>() ? json(false) : json(0);
    q = body_of(t.call("POST", "/api/sessions/game/question", {{"unit", "Lancers"}, {"answers", answers}}));
  }
  CHECK(q["question"].is_null());

  // Activation with the player's die: the same event as `vedette solo activate --roll 4`.
  Reply a = t.call("POST", "/api/sessions/game/activate", {{"unit", "Lancers"}, {"answers", answers}, {"roll", 4}, {"rev", rev}});
  REQUIRE(a.status == 200);
  const json act = body_of(a)["result"]["activation"];
  CHECK(act["roll"] == 4);
  CHECK(act["dice"] == "player");
  CHECK_FALSE(act["instruction"].get<std::string>().empty());
  const std::string rev2 = body_of(a)["rev"];
  CHECK(rev2 != rev);
  json status = body_of(t.call("GET", "/api/sessions/game"));
  CHECK(status["rev"] == rev2);
  CHECK(status["result"]["units"][0]["acted_this_turn"] == true);

  // Undo, redo, casualties, morale, next turn: each a solo command.
  std::string r = rev2;
  for (const auto& [action, body] : std::vector<std::pair<std::string, json>>{
           {"undo", json::object()}, {"redo", json::object()}, {"casualties", {{"unit", "Hussars"}, {"count", 2}}},
           {"morale", {{"unit", "Hussars"}, {"state", "shaken"}}}, {"next-turn", json::object()}}) {
    json b = body;
    b["rev"] = r;
    Reply x = t.call("POST", "/api/sessions/game/" + action, b);
    INFO(action << ": " << x.body);
    REQUIRE(x.status == 200);
    r = body_of(x)["rev"];
  }
  status = body_of(t.call("GET", "/api/sessions/game"));
  CHECK(status["result"]["turn"] == 2);
  CHECK(status["result"]["units"][1]["casualties"] == 2);
  CHECK(status["result"]["units"][1]["morale"] == "shaken");
  const json log = body_of(t.call("GET", "/api/sessions/game/log"));
  CHECK(log["result"].get<std::string>().find("Lancers") != std::string::npos);
}

TEST_CASE("web: the page and the terminal play the same session, both ways", "[web]") {
  Table t;
  std::string rev = t.create();
  const std::string file = (fs::path(t.tmp.path()) / "game.vedette.yaml").string();
  // The terminal acts (the real binary, as a player would type it).
  vtest::RunOptions o;
  const auto r = vtest::run_vedette({"solo", "activate", file, "Hussars", "--roll", "2", "--json"}, o);
  REQUIRE(r.status == 0);
  // The page's stale write is refused, nothing is written, and it is told the current revision.
  const std::string before = slurp(file);
  Reply stale = t.call("POST", "/api/sessions/game/next-turn", {{"rev", rev}});
  CHECK(stale.status == 409);
  CHECK(slurp(file) == before);
  json s = body_of(t.call("GET", "/api/sessions/game"));
  CHECK(body_of(stale)["rev"] == s["rev"]);
  CHECK(s["result"]["units"][1]["acted_this_turn"] == true);
  // The page goes on from the current revision; the terminal sees it.
  Reply next = t.call("POST", "/api/sessions/game/next-turn", {{"rev", s["rev"]}});
  REQUIRE(next.status == 200);
  const auto st = vtest::run_vedette({"solo", "status", file, "--json"}, o);
  REQUIRE(st.status == 0);
  CHECK(json::parse(st.out)["turn"] == 2);
}

TEST_CASE("web: bad input gets a 4xx with a JSON error and writes nothing", "[web]") {
  Table t;
  const std::string rev = t.create();
  const std::string file = (fs::path(t.tmp.path()) / "game.vedette.yaml").string();
  const std::string before = slurp(file);
  struct Case {
    std::string method, path;
    std::string body;
    int status;
    std::string says;
  };
  const std::string big(vedette::web::k_max_body + 1, ' ');
  const std::vector<Case> cases{
      {"GET", "/api/sessions/nosuch", "", 404, "no session named 'nosuch'"},
      {"GET", "/api/sessions/..", "", 400, "'.'"},
      {"GET", "/api/sessions/.hidden", "", 400, "may not start with '.'"},
      {"GET", "/api/sessions/a%2Fb", "", 400, "only letters"},
      {"POST", "/api/sessions", R"({"name": "../escape", "units": ["A:shock"]})", 400, "'.'"},
      {"POST", "/api/sessions", R"({"name": "a/../../escape", "units": ["A:shock"]})", 400, "only letters"},
      {"POST", "/api/sessions", R"({"name": "x", "units": []})", 400, "\"units\""},
      {"POST", "/api/sessions", R"({"name": "x", "units": ["Lancers:tank"]})", 400, "tank"},
      {"POST", "/api/sessions", R"({"name": "game", "units": ["A:shock"]})", 409, "exists already"},
      {"POST", "/api/sessions/game/activate", "{not json", 400, "expected a JSON object"},
      {"POST", "/api/sessions/game/activate", "[1]", 400, "expected a JSON object"},
      {"POST", "/api/sessions/game/activate", big, 413, "larger than"},
      {"POST", "/api/sessions/game/activate", R"({"unit": "Lancers", "roll": 7, "rev": "REV"})", 400, "from 1 to 6"},
      {"POST", "/api/sessions/game/activate", R"({"unit": "Lancers", "roll": "4", "rev": "REV"})", 400, "whole number"},
      {"POST", "/api/sessions/game/activate", R"({"unit": "Nobody", "rev": "REV"})", 400, "Nobody"},
      {"POST", "/api/sessions/game/activate", R"({"unit": "Lancers"})", 400, "missing \"rev\""},
      {"POST", "/api/sessions/game/casualties", R"({"unit": "Lancers", "count": 99, "rev": "REV"})", 400, ""},
      {"POST", "/api/sessions/game/morale", R"({"unit": "Lancers", "state": "jolly", "rev": "REV"})", 400, "jolly"},
      {"POST", "/api/sessions/game/explode", R"({"rev": "REV"})", 404, "no such action"},
      // The turn's steps (issue 16): their answers checked, the rules' refusals passed on.
      {"POST", "/api/sessions/game/initiative", R"({"rev": "REV"})", 400, "missing \"your_roll\""},
      {"POST", "/api/sessions/game/initiative", R"({"your_roll": 3, "roll": 9, "rev": "REV"})", 400, "from 1 to 6"},
      {"POST", "/api/sessions/game/shoot", R"({"unit": "Lancers", "target": true, "rev": "REV"})", 400, "missing \"distance\""},
      {"POST", "/api/sessions/game/shoot", R"({"unit": "Lancers", "target": true, "distance": 10, "rev": "REV"})", 400, "does not shoot"},
      {"POST", "/api/sessions/game/shoot", R"({"unit": "Lancers", "target": true, "distance": 10, "mounted": "yes", "rev": "REV"})", 400, "\"mounted\" must be true or false"},
      {"POST", "/api/sessions/game/melee", R"({"unit": "Lancers", "rev": "REV"})", 400, "missing \"their_hits\""},
      {"POST", "/api/sessions/game/melee", R"({"unit": "Lancers", "their_hits": 1, "rev": "REV"})", 400, "in no melee"},
      {"POST", "/api/sessions/game/rally", R"({"unit": "Lancers", "roll": [7, 1], "rev": "REV"})", 400, "two dice"},
      {"POST", "/api/sessions/game/rally", R"({"unit": "Lancers", "rev": "REV"})", 400, "nothing to rally from"},
      {"POST", "/api/sessions/game/question", R"({"unit": "Lancers", "answers": {"in_cover": "yes"}})", 400, "true or false"},
      {"DELETE", "/api/sessions/game", "", 405, "use GET"},
      {"GET", "/etc/passwd", "", 404, "no such page"},
      {"GET", "/api/elsewhere", "", 404, "no such API"},
  };
  for (const auto& c : cases) {
    Request r = req(c.method, c.path);
    if (r.path.find("%2F") != std::string::npos) r.path = "/api/sessions/a/b/c/d";  // a decoded slash is another path
    r.body = std::regex_replace(c.body, std::regex("REV"), rev);
    if (c.method == "POST") r.headers["content-type"] = "application/json";
    const Reply x = t.app.handle(r);
    INFO(c.method << " " << c.path << " -> " << x.status << " " << x.body);
    if (c.path.find("%2F") != std::string::npos) {
      CHECK(x.status == 404);
      continue;
    }
    CHECK(x.status == c.status);
    const json j = json::parse(x.body, nullptr, false);
    REQUIRE(j.is_object());
    CHECK(j["error"].get<std::string>().find(c.says) != std::string::npos);
  }
  CHECK(slurp(file) == before);
  CHECK_FALSE(fs::exists(fs::path(t.tmp.path()) / "x.vedette.yaml"));
  CHECK_FALSE(fs::exists(fs::path(t.tmp.path()).parent_path() / "escape.vedette.yaml"));
  // A POST that is not JSON (a plain form another site could send) is refused.
  Request form = req("POST", "/api/sessions/game/next-turn");
  form.body = "rev=" + rev;
  form.headers["content-type"] = "application/x-www-form-urlencoded";
  CHECK(t.app.handle(form).status == 415);
  CHECK(slurp(file) == before);
}

TEST_CASE("web: the access token and the Origin guard every session", "[web]") {
  vtest::TempDir tmp;
  App app(vedette::web::AppOptions{tmp.path(), "s3cret", {}, {"192.168.1.5"}});
  Request r = req("GET", "/api/sessions");
  CHECK(app.handle(r).status == 401);
  r.query["token"] = "s3creT";
  CHECK(app.handle(r).status == 401);
  r.query["token"] = "s3cret";
  CHECK(app.handle(r).status == 200);
  Request page = req("GET", "/");
  CHECK(app.handle(page).status == 401);  // the page too: nothing without the token
  page.headers["host"] = "192.168.1.5:8080";
  CHECK(app.handle(page).status == 401);
  page.headers["x-vedette-token"] = "s3cret";
  CHECK(app.handle(page).status == 200);
  // A state change from another site's page: refused even with the token.
  Request post = req("POST", "/api/sessions", {{"name", "g"}, {"units", {"A:shock"}}});
  post.query["token"] = "s3cret";
  post.headers["host"] = "192.168.1.5:8080";
  post.headers["origin"] = "http://evil.example";
  CHECK(app.handle(post).status == 403);
  CHECK_FALSE(fs::exists(fs::path(tmp.path()) / "g.vedette.yaml"));
  post.headers["origin"] = "http://192.168.1.5:8080";
  CHECK(app.handle(post).status == 201);
  CHECK(fs::exists(fs::path(tmp.path()) / "g.vedette.yaml"));
}

TEST_CASE("web: the link's token becomes an HttpOnly, SameSite=Strict cookie, and a wrong or missing one gets 401 everywhere",
          "[web]") {
  vtest::TempDir tmp;
  App app(vedette::web::AppOptions{tmp.path(), "s3cret", {}, {"192.168.1.5"}});
  auto get = [&](const std::string& path, const std::string& token, const std::string& cookie) {
    Request r = req("GET", path);
    r.headers["host"] = "192.168.1.5:8080";
    if (!token.empty()) r.query["token"] = token;
    if (!cookie.empty()) r.headers["cookie"] = cookie;
    return app.handle(r);
  };
  // The printed link: the page, and the cookie for this port.
  const Reply first = get("/", "s3cret", "");
  CHECK(first.status == 200);
  REQUIRE(first.headers.count("Set-Cookie"));
  CHECK(first.headers.at("Set-Cookie") == "vedette_token_8080=s3cret; Path=/; HttpOnly; SameSite=Strict");
  // The page's assets, its API calls and a reload: the cookie, no token.
  for (const char* p : {"/", "/style.css", "/app.js", "/widgets.js", "/favicon.svg", "/api/sessions"}) {
    INFO(p);
    CHECK(get(p, "", "theme=dark; vedette_token_8080=s3cret").status == 200);
    CHECK_FALSE(get(p, "", "vedette_token_8080=s3cret").headers.count("Set-Cookie"));  // set once, by the link
    CHECK(get(p, "", "").status == 401);
    CHECK(get(p, "s3creT", "").status == 401);
    CHECK(get(p, "", "vedette_token_8080=wrong").status == 401);
    CHECK(get(p, "", "vedette_token_9090=s3cret").status == 401);  // another server's cookie (cookies are not per port)
    CHECK(get(p, "wrong", "vedette_token_8080=s3cret").status == 401);  // a token given must be right
  }
  // A change with the cookie, from the page (its Origin).
  Request post = req("POST", "/api/sessions", {{"name", "g"}, {"units", {"A:shock"}}});
  post.headers["host"] = "192.168.1.5:8080";
  post.headers["cookie"] = "vedette_token_8080=s3cret";
  post.headers["origin"] = "http://192.168.1.5:8080";
  CHECK(app.handle(post).status == 201);
}

TEST_CASE("web: only this machine's names are answered (DNS rebinding): the Host, and the Origin compared with them", "[web]") {
  vtest::TempDir tmp;
  App app(vedette::web::AppOptions{tmp.path(), "", {}, {"192.168.1.5", "[fe80::1]"}});
  app.listening_on(8080);
  auto get = [&](const std::string& path, const std::string& host) {
    Request r = req("GET", path);
    r.headers["host"] = host;
    return app.handle(r);
  };
  REQUIRE(app.handle(req("POST", "/api/sessions", {{"name", "g"}, {"units", {"A:shock"}}, {"seed", 1}})).status == 201);
  for (const char* host : {"127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080", "192.168.1.5:8080", "[fe80::1]:8080"}) {
    INFO(host);
    CHECK(get("/api/sessions/g/log", host).status == 200);
  }
  // Another site's name pointed at this machine: nothing read, not even the page.
  for (const char* host : {"evil.example:8080", "127.0.0.1.evil.example:8080", "localhost.evil.example:8080", "192.168.1.6:8080",
                           "127.0.0.1:9999", "127.0.0.1", "127.0.0.1:80a", "[::1", "", "evil.example"}) {
    INFO(host);
    const Reply r = get("/api/sessions/g/log", host);
    CHECK(r.status == 403);
    CHECK(r.body.find(tmp.path()) == std::string::npos);
    CHECK(get("/", host).status == 403);
    CHECK(get("/app.js", host).status == 403);
  }
  // A change: the Origin must name this machine too, compared with our names
  // (not with the Host the request gives).
  const std::string before = slurp(fs::path(tmp.path()) / "g.vedette.yaml");
  auto post = [&](const std::string& host, const std::string& origin) {
    Request r = req("POST", "/api/sessions/g/casualties", {{"unit", "A"}, {"count", 1}, {"rev", app.revision("g")}});
    r.headers["host"] = host;
    if (!origin.empty()) r.headers["origin"] = origin;
    return app.handle(r);
  };
  CHECK(post("evil.example:8080", "http://evil.example:8080").status == 403);  // the rebinding attack: Host and Origin agree
  CHECK(post("127.0.0.1:8080", "http://evil.example:8080").status == 403);
  CHECK(post("127.0.0.1:8080", "http://127.0.0.1:9999").status == 403);  // another port: another site
  CHECK(post("127.0.0.1:8080", "https://127.0.0.1:8080").status == 403);
  CHECK(post("127.0.0.1:8080", "null").status == 403);
  CHECK(slurp(fs::path(tmp.path()) / "g.vedette.yaml") == before);
  CHECK(post("127.0.0.1:8080", "http://localhost:8080").status == 200);  // our names, even if not the Host's
  CHECK(post("192.168.1.5:8080", "http://192.168.1.5:8080").status == 200);
  CHECK(post("127.0.0.1:8080", "").status == 200);  // no token (loopback): a local tool without Origin may change
}

TEST_CASE("web: with the token, a change without an Origin is refused and writes nothing", "[web]") {
  vtest::TempDir tmp;
  App app(vedette::web::AppOptions{tmp.path(), "s3cret", {}, {}});
  Request post = req("POST", "/api/sessions", {{"name", "g"}, {"units", {"A:shock"}}});
  post.headers["x-vedette-token"] = "s3cret";
  const Reply r = app.handle(post);
  CHECK(r.status == 403);
  CHECK(body_of(r)["error"].get<std::string>().find("Origin") != std::string::npos);
  CHECK_FALSE(fs::exists(fs::path(tmp.path()) / "g.vedette.yaml"));
  post.headers["origin"] = "http://127.0.0.1:8080";
  CHECK(app.handle(post).status == 201);
}

TEST_CASE("web: assets carry an ETag and are revalidated (304), the API is never cached", "[web]") {
  Table t;
  t.create();
  for (const char* p : {"/", "/app.js", "/widgets.js", "/style.css", "/favicon.svg"}) {
    INFO(p);
    const Reply a = t.call("GET", p);
    REQUIRE(a.status == 200);
    REQUIRE(a.headers.count("ETag"));
    CHECK(a.headers.at("Cache-Control") == "no-cache");
    Request again = req("GET", p);
    again.headers["if-none-match"] = a.headers.at("ETag");
    const Reply b = t.app.handle(again);
    CHECK(b.status == 304);
    CHECK(b.body.empty());
    again.headers["if-none-match"] = "\"0000\"";
    CHECK(t.app.handle(again).status == 200);
  }
  CHECK(t.call("GET", "/app.js").headers.at("ETag") != t.call("GET", "/style.css").headers.at("ETag"));
  for (const char* p : {"/api/sessions", "/api/sessions/game", "/api/sessions/game/log"}) {
    INFO(p);
    const Reply a = t.call("GET", p);
    CHECK(a.headers.at("Cache-Control") == "no-store");
    CHECK_FALSE(a.headers.count("ETag"));
  }
}

TEST_CASE("web: the page's assets are embedded and small", "[web]") {
  std::size_t total = 0;
  for (const char* p : {"/index.html", "/app.js", "/widgets.js", "/style.css", "/favicon.svg"}) {
    auto a = vedette::web::asset(p);
    INFO(p);
    REQUIRE(a);
    CHECK_FALSE(a->body.empty());
    total += a->body.size();
  }
  CHECK(total < 150 * 1024);
  CHECK_FALSE(vedette::web::asset("/../CMakeLists.txt"));
  // No asset reaches outside: nothing from a CDN or another host.
  for (const char* p : {"/index.html", "/app.js", "/widgets.js", "/style.css"}) CHECK(std::string(vedette::web::asset(p)->body).find("http") == std::string::npos);
  CHECK(vedette::web::qr_text("http://192.168.1.5:8080/?token=abc").find("\u2588") != std::string::npos);
  CHECK(vedette::web::is_loopback("127.0.0.1"));
  CHECK(vedette::web::is_loopback("::1"));
  CHECK_FALSE(vedette::web::is_loopback("0.0.0.0"));
  CHECK(vedette::web::new_token().size() == 32);
  CHECK(vedette::web::new_token() != vedette::web::new_token());
}

namespace {

// `vedette serve` as a user starts it; its port, read from what it prints.
struct Server {
  vtest::TempDir tmp;
  int out_fd = vtest::scratch_fd();
  pid_t pid = -1;
  int port = 0;
  std::string token;
  explicit Server(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args{"serve", "--dir", tmp.path(), "--port", "0"};
    args.insert(args.end(), extra.begin(), extra.end());
    pid = vtest::start_vedette(args, "", -1, out_fd, out_fd);
    const std::regex url(R"(Open: http://[^:/]+:([0-9]+)/(\?token=([0-9a-f]+))?)");
    for (int i = 0; i < 200 && port == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      ::lseek(out_fd, 0, SEEK_SET);
      const std::string text = vtest::read_all(out_fd);
      std::smatch m;
      if (std::regex_search(text, m, url)) {
        port = std::stoi(m[1].str());
        token = m[3].str();
      }
    }
  }
  std::string printed() {
    ::lseek(out_fd, 0, SEEK_SET);
    return vtest::read_all(out_fd);
  }
  int stop() {
    ::kill(pid, SIGTERM);
    const int st = vtest::wait_vedette(pid);
    pid = -1;
    return st;
  }
  ~Server() {
    if (pid > 0) stop();
    ::close(out_fd);
  }
};

}  // namespace

TEST_CASE("web: vedette serve answers on loopback, bounds requests, survives a client that hangs up, and stops on SIGTERM", "[web]") {
  Server s;
  REQUIRE(s.port > 0);
  CHECK(s.token.empty());  // loopback: no token
  httplib::Client c("127.0.0.1", s.port);
  c.set_read_timeout(5, 0);
  auto page = c.Get("/");
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(page->body.find("app.js") != std::string::npos);
  auto created = c.Post("/api/sessions", R"({"name": "g", "units": ["Lancers:shock"], "seed": 1})", "application/json");
  REQUIRE(created);
  CHECK(created->status == 201);
  // An oversized body is refused before it is read.
  auto big = c.Post("/api/sessions/g/activate", std::string(64 * 1024, 'x'), "application/json");
  REQUIRE(big);
  CHECK(big->status == 413);
  // A client that sends half a request and hangs up.
  {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(s.port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    const std::string half = "POST /api/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"na";
    CHECK(::write(fd, half.data(), half.size()) == static_cast<ssize_t>(half.size()));
    ::close(fd);
  }
  auto again = c.Get("/api/sessions");
  REQUIRE(again);
  CHECK(again->status == 200);
  CHECK(json::parse(again->body)["sessions"].size() == 1);
  // Path traversal over the wire.
  auto up = c.Get("/api/sessions/..%2F..%2Fetc%2Fpasswd");
  REQUIRE(up);
  CHECK(up->status >= 400);
  CHECK(up->status < 500);
  CHECK(s.stop() == 0);
  CHECK(s.printed().find("Stopped. The sessions are saved") != std::string::npos);
}

TEST_CASE("web: vedette serve --listen 0.0.0.0 needs the printed token on every request", "[web]") {
  Server s({"--listen", "0.0.0.0"});
  REQUIRE(s.port > 0);
  REQUIRE(s.token.size() == 32);
  CHECK(s.printed().find("scan it with the phone") != std::string::npos);
  httplib::Client c("127.0.0.1", s.port);
  auto no = c.Get("/api/sessions");
  REQUIRE(no);
  CHECK(no->status == 401);
  auto page = c.Get("/");
  REQUIRE(page);
  CHECK(page->status == 401);
  auto yes = c.Get(("/api/sessions?token=" + s.token).c_str());
  REQUIRE(yes);
  CHECK(yes->status == 200);
  // The link sets the cookie; the assets then come with it alone, compressed.
  auto link = c.Get(("/?token=" + s.token).c_str());
  REQUIRE(link);
  CHECK(link->status == 200);
  const std::string cookie = link->get_header_value("Set-Cookie");
  CHECK(cookie.find("vedette_token_" + std::to_string(s.port) + "=" + s.token) == 0);
  CHECK(cookie.find("HttpOnly") != std::string::npos);
  CHECK(cookie.find("SameSite=Strict") != std::string::npos);
  const httplib::Headers with_cookie{{"Cookie", cookie.substr(0, cookie.find(';'))}, {"Accept-Encoding", "gzip"}};
  for (const char* p : {"/style.css", "/app.js", "/widgets.js", "/favicon.svg", "/api/sessions"}) {
    INFO(p);
    auto r = c.Get(p, with_cookie);
    REQUIRE(r);
    CHECK(r->status == 200);
    auto none = c.Get(p);
    REQUIRE(none);
    CHECK(none->status == 401);
  }
  auto js = c.Get("/app.js", with_cookie);
  REQUIRE(js);
  CHECK(js->get_header_value("Content-Encoding") == "gzip");
  CHECK(js->body.find("use strict") != std::string::npos);  // (the client unpacked it)
  // Another site's name for this machine (DNS rebinding), with the token: refused.
  auto evil = c.Get(("/api/sessions?token=" + s.token).c_str(), {{"Host", "evil.example:" + std::to_string(s.port)}});
  REQUIRE(evil);
  CHECK(evil->status == 403);
  // A change with the token but no Origin: refused, nothing written.
  auto post = c.Post(("/api/sessions?token=" + s.token).c_str(), R"({"name": "g", "units": ["Lancers:shock"]})", "application/json");
  REQUIRE(post);
  CHECK(post->status == 403);
  CHECK_FALSE(fs::exists(fs::path(s.tmp.path()) / "g.vedette.yaml"));
}

TEST_CASE("web: a second vedette serve on a port in use says so and stops (no shared port)", "[web]") {
  Server first;
  REQUIRE(first.port > 0);
  vtest::TempDir dir;
  vtest::RunOptions o;
  auto r = vtest::run_vedette({"serve", "--dir", dir.path(), "--port", std::to_string(first.port)}, o);
  CHECK(r.status != 0);
  CHECK(r.err.find("cannot listen on 127.0.0.1:" + std::to_string(first.port)) != std::string::npos);
  // The first still answers.
  httplib::Client c("127.0.0.1", first.port);
  auto page = c.Get("/");
  REQUIRE(page);
  CHECK(page->status == 200);
}

TEST_CASE("web: bad flags for vedette serve exit 2 and say why", "[web]") {
  vtest::RunOptions o;
  auto r = vtest::run_vedette({"serve", "--dir", "/no/such/folder"}, o);
  CHECK(r.status == 2);
  CHECK(r.err.find("--dir /no/such/folder: no such folder") != std::string::npos);
  r = vtest::run_vedette({"serve", "--port", "70000"}, o);
  CHECK(r.status == 2);
  CHECK(r.err.find("--port") != std::string::npos);
}

}  // namespace t_web
