#pragma once
// The table-side web page's application (`vedette serve`): the HTTP API over
// the solo sessions of one folder, independent of the HTTP library so tests
// can call it directly.
//
// It holds no rule. Every change to a session is the very `vedette solo`
// command a player would type, run in-process by the executor it is given
// (the command line's own `run`), so the page and the terminal share one
// rules path, one file format and one atomic writer. What it adds is the web
// side: names checked before they become paths, the access token and the
// Origin of state-changing requests, bounded bodies, JSON errors, and the
// session's revision, so that a write based on a stale page is refused.
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

namespace vedette::web {

// What running a command gave: its exit status and its two streams.
struct CommandResult {
  int status = 0;
  std::string out, err;
};
// Runs `vedette ARGS...` (argv[0] excluded) in-process.
using Executor = std::function<CommandResult(const std::vector<std::string>&)>;

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
  // Required on every request (query `token=` or header `X-Vedette-Token`)
  // when not empty: a non-loopback listen address.
  std::string token;
  // Origins allowed to change state ("http://host:port"); empty = any origin
  // whose host is the request's Host.
  std::vector<std::string> origins;
};

// The largest request body accepted (the server refuses more before reading it).
inline constexpr std::size_t k_max_body = 16 * 1024;
// The longest session name.
inline constexpr std::size_t k_max_name = 64;

class App {
 public:
  App(AppOptions options, Executor run);
  Reply handle(const Request& r);

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
  Reply next_question(const std::string& name, const Request& r);
  Reply charge_table(const std::string& name);
  Reply charge_odds(const std::string& name, const Request& r);
  Reply session_action(const std::string& name, const std::string& action, const Request& r);
  Reply command(const std::vector<std::string>& args, const std::string& name);
  std::string file_of(const std::string& name) const;

  AppOptions o_;
  Executor run_;
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
