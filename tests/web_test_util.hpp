#pragma once
// What tests/test_web.cpp and tests/test_web_turn.cpp share: the web API
// called directly (web::App, as `vedette serve` makes it), a request as a
// browser on this machine sends it, a table holding a session, and the
// command line run in-process, to compare the page with the terminal.
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

namespace web_test {

namespace fs = std::filesystem;
using nlohmann::json;
using vedette::web::App;
using vedette::web::Reply;
using vedette::web::Request;



// `vedette ARGS...` run in-process: its exit status and its two streams.
struct CommandResult {
  int status = 0;
  std::string out, err;
};
inline CommandResult run_in_process(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  vedette::cli::Io io{out, err};
  CommandResult r;
  r.status = vedette::cli::run(args, io);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// A request as a browser on this machine sends it (Host: 127.0.0.1:8080).
inline Request req(std::string method, std::string path, const json& body = nullptr) {
  Request r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.headers["host"] = "127.0.0.1:8080";
  if (!body.is_null()) {
    r.body = body.dump();
    r.headers["content-type"] = "application/json";
  }
  return r;
}

inline json body_of(const Reply& r) { return json::parse(r.body); }

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Table {
  vtest::TempDir tmp;
  App app{vedette::web::AppOptions{tmp.path(), "", {}, {}}};
  Reply call(const std::string& method, const std::string& path, const json& body = nullptr) {
    return app.handle(req(method, path, body));
  }
  // A session with two units and a fixed seed; returns its revision.
  std::string create(const std::string& name = "game") {
    Reply r = call("POST", "/api/sessions",
                   {{"name", name}, {"units", {"Lancers:shock,figures=12,heavy", "Hussars:shooting,figures=8,light,weapon=none"}}, {"seed", 7}});
    REQUIRE(r.status == 201);
    return body_of(r)["rev"].get<std::string>();
  }
};

}  // namespace web_test
