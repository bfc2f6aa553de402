#pragma once
// The table-side web page's application (`vedette serve`): the HTTP API over
// the solo sessions of one folder, independent of the HTTP library so tests
// can call it directly.
//
// It holds no rule. Every change to a session is the typed solo command
// the terminal applies too (solo::apply, sims/solo/solo_command.hpp; the
// JSON read into it in sims/web/web_commands.cpp), so the page and the
// terminal share one rules path, one file format and one atomic writer.
// Creating a session, its status and its log run the `vedette solo`
// command in-process through the executor it is given (the command line's
// own `run`). What it adds is the web
// side: names checked before they become paths, the access token and the
// Origin of state-changing requests, bounded bodies, JSON errors, and the
// session's revision, so that a write based on a stale page is refused.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace vedette::web {

struct Request {
  std::string method;  // GET, POST, ...
  std::string path;    // "/api/sessions/skirmish/activate" (no query)
  std::map<std::string, std::string> query;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

struct Reply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::map<std::string, std::string> headers;
};

struct AppOptions {
  std::filesystem::path dir;  // the sessions' folder
  // Required on every request when not empty (a non-loopback listen
  // address): the query's `token=`, the header `X-Vedette-Token`, or the
  // cookie the first request with a good `token=` sets (HttpOnly,
  // SameSite=Strict), so the page's assets, its API calls and a reload work
  // without the token in the address bar. With a token, a POST must also
  // carry an Origin (every browser sends one).
  std::string token;
  // Origins allowed to change state besides those of `hosts`
  // ("http://host:port", exactly).
  std::vector<std::string> origins;
  // The names a request's Host (and a POST's Origin) may give, without the
  // port, besides the loopback names (localhost, 127.0.0.1, [::1]): the
  // listen address and the machine's own addresses (IPv6 in brackets).
  // Anything else is refused (403): another site's page whose name was
  // pointed at this machine (DNS rebinding) reads and drives nothing.
  std::vector<std::string> hosts;
};

// The largest request body accepted (the server refuses more before reading it).
inline constexpr std::size_t k_max_body = 16 * 1024;
// The longest session name.
inline constexpr std::size_t k_max_name = 64;

class App {
 public:
  explicit App(AppOptions options);
  Reply handle(const Request& r);
  // The port the server listens on, once bound: a Host or Origin naming
  // another port is refused (0, the default: any port).
  void listening_on(int port) { port_ = port; }

  // A session name is letters, digits, '-', '_' and '.', not starting with
  // '.', at most k_max_name: never a path. nullopt if good, else why not.
  static std::optional<std::string> bad_name(std::string_view name);
  // The session's revision: FNV-1a 64 of its file's bytes ("" if none).
  std::string revision(const std::string& name) const;

 private:
  Reply route(const Request& r);
  Reply list_sessions();
  Reply create_session(const Request& r);
  Reply session_view(const std::string& name);
  Reply session_log(const std::string& name);
  void turn_words(const std::string& name, Reply& r) const;
  Reply next_question(const std::string& name, const Request& r);
  Reply charge_table(const std::string& name);
  Reply charge_odds(const std::string& name, const Request& r);
  Reply charge_step(const std::string& name, const Request& r);
  Reply shot_plan(const std::string& name, const Request& r);
  Reply melee_plan(const std::string& name, const Request& r);
  Reply session_action(const std::string& name, const std::string& action, const Request& r);
  // A reply from the session's functions (sims/web/web_commands.cpp), with
  // the session's revision after it.
  Reply answer(std::pair<int, nlohmann::ordered_json> a, const std::string& name) const;
  std::string file_of(const std::string& name) const;
  // Host and Origin: nullopt if allowed, else why not.
  std::optional<std::string> bad_host(const std::string& host) const;
  std::optional<std::string> bad_origin(const std::string& origin) const;
  bool allowed_name(const std::string& name) const;

  AppOptions o_;
  std::atomic<int> port_{0};
  std::mutex mutex_;  // one command at a time: the session files are shared
  // The last status reply of each session, by its revision: polling pages
  // read a session far more often than anyone changes it.
  std::mutex cache_mutex_;
  std::map<std::string, std::pair<std::string, std::string>> status_cache_;  // name -> (revision, body)
};

// The page's assets, embedded in the binary (sims/web/assets/): path -> (type, body).
struct Asset {
  std::string_view type;
  std::string_view body;
};
std::optional<Asset> asset(std::string_view path);

// A JSON error reply: {"error": message}.
Reply error_reply(int status, const std::string& message);

}  // namespace vedette::web
