#pragma once
// Assertions on a run of the vedette binary, shared by the command tests.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "helpers.hpp"

namespace vtest {

// Runs and requires success with nothing on stderr; returns stdout parsed as JSON.
inline nlohmann::json run_json(const std::vector<std::string>& args) {
  RunResult r = run_vedette(args);
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  return nlohmann::json::parse(r.out);
}

// Runs and requires exit status 2 with a message on stderr and nothing on stdout.
inline RunResult run_bad(const std::vector<std::string>& args) {
  RunResult r = run_vedette(args);
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.status == 2);
  CHECK_FALSE(r.err.empty());
  CHECK(r.out.empty());
  return r;
}

}  // namespace vtest
