#pragma once
// Helpers for the hex engagement tests (tests/test_hex_engagement.cpp,
// tests/test_hex_commands.cpp): seed 004 tables with the bots' policies set,
// small hex scenarios written to a temporary folder, and a recorder that keeps
// each event with its unit's hex, square and blocks as they were.
#include <catch2/catch.hpp>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/engagement/engagement.hpp"
#include "helpers.hpp"

namespace hextest {

using namespace vedette;

inline const std::string k_src = VEDETTE_SOURCE_DIR;

inline std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// tables/seed004.yaml with the bots' policies set (always, never, ...).
inline std::string table_with(const vtest::TempDir& dir, const std::string& square, const std::string& retire) {
  std::string t = slurp(k_src + "/tables/seed004.yaml");
  auto set = [&](const std::string& key, const std::string& v) {
    const std::string from = "  " + key + ": by_expected_losses";
    const auto at = t.find(from);
    REQUIRE(at != std::string::npos);
    t.replace(at, from.size(), "  " + key + ": " + v);
  };
  set("form_square", square);
  set("retire_and_reform", retire);
  return dir.write("seed004-" + square + "-" + retire + ".yaml", t);
}

// A small hex scenario: `units` are YAML flow maps, one per line.
inline std::string scenario(const vtest::TempDir& dir, const std::string& name, const std::string& table, const std::string& ruleset,
                     const std::string& cavalry_bot, const std::string& units, const std::string& terrain = "") {
  std::string y = "scenario: " + name + "\nruleset: " + ruleset + "\nblocks: " + table +
                  "\nboard:\n  type: hex\n  cols: 13\n  rows: 9\n  size: 10cm\n" + (terrain.empty() ? "" : "  terrain: " + terrain + "\n") +
                  "sides:\n  cavalry:\n    edge: top\n    bot: " + cavalry_bot +
                  "\n  infantry:\n    edge: bottom\n    bot: hold_and_shoot\n    options: {form_square: true}\n"
                  "units:\n" + units + "turns: 6\nvictory:\n  - {winner: infantry, when: {side_losses: cavalry, at_least: 100}}\n"
                  "  - {winner: cavalry, when: {side_losses: infantry, at_least: 100}}\n";
  return dir.write(name + ".yaml", y);
}

inline const std::string k_squares = k_src + "/sims/scenarios/rules/squares.yaml";

struct Seen {
  const Event* e;
  Hex hex;           // the event's unit's hex when it was recorded
  bool in_square;    // ... and whether it was in square
  int blocks;        // ... and its blocks
};

// Keeps every event with the state of its unit as it was recorded.
class Watch final : public Recorder {
 public:
  explicit Watch(const Engagement& g) : g_(g) {}
  void record(Event e) override {
    events.push_back(std::make_unique<Event>(std::move(e)));
    const Event& ev = *events.back();
    Seen s{&ev, {}, false, 0};
    const Battle& b = g_.battle();
    for (const auto& u : b.units())
      if (u.name == ev.unit) {
        s.hex = b.hex()->hex_of(u.pos);
        s.in_square = u.in_square();
        s.blocks = u.figures;
      }
    seen.push_back(s);
  }
  std::vector<std::unique_ptr<Event>> events;
  std::vector<Seen> seen;

 private:
  const Engagement& g_;
};

inline long long num(const Event& e, const std::string& key) {
  for (const auto& [k, v] : e.data)
    if (k == key) return std::get<long long>(v);
  FAIL("no " << key << " in " << e.text);
  return 0;
}

inline bool flag(const Event& e, const std::string& key) {
  for (const auto& [k, v] : e.data)
    if (k == key) return std::get<bool>(v);
  FAIL("no " << key << " in " << e.text);
  return false;
}

inline std::string str(const Event& e, const std::string& key) {
  for (const auto& [k, v] : e.data)
    if (k == key) return std::get<std::string>(v);
  FAIL("no " << key << " in " << e.text);
  return {};
}

}  // namespace hextest
