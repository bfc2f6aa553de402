// Hex scenarios, continued from tests/test_hex_engagement.cpp: the figure
// rules on a hex board without blocks, seed 004's hand of cards and squares,
// combined arms with several batteries, and the commands (play, sim,
// compare, sweep) on hex scenarios.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "bots/registry.hpp"
#include "engine/engagement/engagement.hpp"
#include "helpers.hpp"
#include "hex_test_util.hpp"

namespace t_hex_commands {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;
using namespace hextest;

TEST_CASE("engine, a hex board without blocks: the figure rules (seeds 002 and 003) play hex by hex", "[hex][engagement]") {
  // A scenario may put figure units on a hex board and leave out `blocks:`:
  // then the charge, shooting, melee and morale are the tabletop's (figures,
  // horse or rider hits, charge morale), distances and moves are in hexes,
  // contact is adjacency, and units in between block sight (issue 8).
  vtest::TempDir dir;
  const std::string head = "ruleset: builtin:default\nboard: {type: hex, cols: 13, rows: 9, size: 10cm}\n";
  auto tail = [](const std::string& a, const std::string& b) {
    return "turns: 10\nvictory:\n  - {winner: " + b + ", when: {side_losses: " + a + ", at_least: 50}}\n  - {winner: " + a +
           ", when: {side_losses: " + b + ", at_least: 50}}\nat_turn_limit: draw\n";
  };
  // Horse against foot, and horse against horse (counter-charges).
  const std::string foot = dir.write(
      "horse-and-foot.yaml",
      "scenario: horse-and-foot\n" + head + "sides:\n  cavalry: {edge: top, bot: reaction_table}\n  infantry: {edge: bottom, bot: hold_and_shoot}\n"
      "units:\n"
      "  - {name: Cuirassiers, side: cavalry, profile: heavy_cavalry, figures: 12, hex: [6, 5], pace: walk}\n"
      "  - {name: Hussars, side: cavalry, profile: light_cavalry, figures: 9, hex: [8, 5], pace: walk}\n"
      "  - {name: 1st Foot, side: infantry, profile: heavy_foot, figures: 12, hex: [4, 2]}\n"
      "  - {name: 2nd Foot, side: infantry, profile: heavy_foot, figures: 12, hex: [6, 2]}\n" + tail("cavalry", "infantry"));
  const std::string horse = dir.write(
      "horse-and-horse.yaml",
      "scenario: horse-and-horse\n" + head + "sides:\n  red: {edge: top, bot: reaction_table}\n  blue: {edge: bottom, bot: reaction_table}\n"
      "units:\n"
      "  - {name: Cuirassiers, side: red, profile: heavy_cavalry, figures: 12, hex: [6, 6], pace: walk}\n"
      "  - {name: Dragoons, side: blue, profile: heavy_cavalry, figures: 12, hex: [6, 1], pace: walk}\n" + tail("red", "blue"));
  std::map<std::string, int> kinds;
  int horse_or_rider = 0;
  for (const std::string& f : {foot, horse}) {
    const ScenarioPtr s = load_scenario_file(f);
    REQUIRE(s->hex);
    REQUIRE_FALSE(s->blocks);
    const Players p = make_players(*s);
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
      Engagement g(*s, p.bots(), seed);
      EventLog log;
      g.attach(&log);
      g.run();
      const Battle& b = g.battle();
      CHECK(b.blocks() == nullptr);
      for (const auto& e : log.events) {
        ++kinds[e.kind];
        if (e.kind == "shoot") CHECK(num(e, "band") >= 1);  // a weapon band: figure shooting, not seed 004's dice
      }
      for (const auto& u : b.units()) {
        if (!u.active()) continue;
        INFO(f << ", seed " << seed << ": " << u.name << " at " << u.pos.x << ", " << u.pos.y);
        CHECK(b.board().on_board(u.pos));
        CHECK(u.pos == b.hex()->snap(u.pos));  // every move, charges included, ends on a hex centre
      }
      for (std::size_t k = 0; k < 2; ++k) {
        const SideOutcome& so = g.outcome().sides[k];
        horse_or_rider += so.horses_lost + so.riders_lost;
        CHECK(so.squares_formed == 0);
        CHECK(so.retire_and_reform == 0);
      }
    }
  }
  // Seed 003's charges, counter-charges and morale, and seed 002's hits on
  // horse or rider happened ...
  CHECK(kinds["contact"] > 0);
  CHECK(kinds["charge_morale"] > 0);
  CHECK(kinds["meet_halfway"] > 0);
  CHECK(kinds["shoot"] > 0);
  CHECK(horse_or_rider > 0);
  // ... and none of seed 004's block rules did.
  for (const char* k : {"attack", "battle_back", "combined_arms", "square", "retire_and_reform", "leaves_square"}) {
    INFO(k);
    CHECK(kinds[k] == 0);
  }
}

TEST_CASE("engine, seed 004 squares and the hand: not with two or fewer cards, a card per square on the track, back when it ends",
          "[hex][engagement][seed004][004-L94-eliminated-card-returns]") {
  vtest::TempDir dir;
  const std::string t = table_with(dir, "always", "never");
  // square_when_charged also orders squares itself (Move::form_square):
  // over blocks these follow seed 004's rules too.
  const std::string f = dir.write("hand.yaml", "scenario: hand\nruleset: " + k_squares + "\nblocks: " + t +
                                                   "\nboard: {type: hex, cols: 13, rows: 9, size: 10cm}\n"
                                                   "sides:\n  cavalry: {edge: top, bot: reaction_table}\n"
                                                   "  infantry: {edge: bottom, bot: square_when_charged, command_cards: 3}\n"
                                                   "units:\n"
                                                   "  - {name: Cuirassiers, side: cavalry, profile: heavy_cavalry, figures: 4, hex: [6, 5], pace: walk}\n"
                                                   "  - {name: Lancers, side: cavalry, profile: lancers, figures: 4, hex: [4, 5], pace: walk}\n"
                                                   "  - {name: Hussars, side: cavalry, profile: light_cavalry, figures: 3, hex: [8, 5], pace: walk}\n"
                                                   "  - {name: 1st Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [4, 2]}\n"
                                                   "  - {name: 2nd Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [6, 2]}\n"
                                                   "  - {name: 3rd Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [8, 2]}\n"
                                                   "turns: 8\nvictory:\n  - {winner: infantry, when: {side_losses: cavalry, at_least: 100}}\n");
  const ScenarioPtr s = load_scenario_file(f);
  const Players p = make_players(*s);
  int squares = 0, refused = 0;
  for (std::uint64_t seed = 1; seed <= 80; ++seed) {
    Engagement g(*s, p.bots(), seed);
    EventLog log;
    g.attach(&log);
    while (g.play_turn()) {
      const Battle& b = g.battle();
      const CommandHand& h = b.hand(1);
      std::size_t in_square = 0;
      for (const auto& u : b.units()) in_square += u.active() && u.in_square();
      INFO("seed " << seed << " turn " << b.turn());
      CHECK(h.hand.size() + h.square_track.size() == 3);  // every card in the hand or under a square
      CHECK(h.square_track.size() == in_square);
      CHECK(in_square <= 1);  // seed 004: with 2 cards left, no square may form
    }
    squares += g.outcome().sides[1].squares_formed;
    for (const auto& e : log.events)
      refused += e.text.find("two or fewer command cards in hand") != std::string::npos;
  }
  CHECK(squares > 10);
  CHECK(refused > 0);
}

// ------------------------------------------------------------- commands

TEST_CASE("commands: vedette play, sim, compare and sweep run a hex scenario", "[hex][commands]") {
  const std::string sc = k_src + "/sims/scenarios/hex_line_squares.yaml";
  const auto play = vtest::run_vedette({"play", sc, "--seed", "2"});
  REQUIRE(play.status == 0);
  CHECK_THAT(play.out, Catch::Contains("(now on hex ["));
  CHECK_THAT(play.out, Catch::Contains("Outcome:"));
  const auto play_json = vtest::run_vedette({"play", sc, "--seed", "2", "--json"});
  REQUIRE(play_json.status == 0);
  CHECK_NOTHROW(nlohmann::json::parse(play_json.out));

  const auto sim = vtest::run_vedette({"sim", sc, "-n", "400", "--seed", "1", "--json"});
  REQUIRE(sim.status == 0);
  const auto j = nlohmann::json::parse(sim.out);
  CHECK(j.dump().find("squares") != std::string::npos);

  const auto cmp = vtest::run_vedette({"compare", k_src + "/sims/scenarios/hex_line_no_squares.yaml", "--baseline", k_src + "/tables/default.yaml",
                                       "--variant", k_squares, "-n", "2000", "--seed", "1", "--json"});
  REQUIRE(cmp.status == 0);
  const auto c = nlohmann::json::parse(cmp.out);
  std::map<std::string, nlohmann::json> by_id;
  for (const auto& fig : c["figures"]) by_id[fig["id"]] = fig;
  REQUIRE(by_id.count("infantry_squares_formed"));
  CHECK(by_id["infantry_squares_formed"]["baseline"]["mean"] == 0.0);
  CHECK(by_id["infantry_squares_formed"]["variant"]["mean"].get<double>() > 0.0);

  const auto sweep = vtest::run_vedette({"sweep", sc, "--set", "charge.infantry_square.enabled=false,true", "-n", "300", "--seed", "1"});
  REQUIRE(sweep.status == 0);
  // One of the two is the scenario's own value, marked "(current)".
  CHECK_THAT(sweep.out, Catch::Contains("| false"));
  CHECK_THAT(sweep.out, Catch::Contains("| true"));
  CHECK_THAT(sweep.out, Catch::Contains(" (current) |"));
}

TEST_CASE("commands: vedette sim on a hex scenario gives the same results on 1 and 2 threads", "[hex][commands][lab]") {
  for (const char* file : {"hex_line_squares.yaml", "hex_horse_artillery.yaml"}) {
    INFO(file);
    const std::string sc = k_src + "/sims/scenarios/" + file;
    const auto one = vtest::run_vedette({"sim", sc, "-n", "3000", "--seed", "7", "--threads", "1", "--json"});
    const auto two = vtest::run_vedette({"sim", sc, "-n", "3000", "--seed", "7", "--threads", "2", "--json"});
    REQUIRE(one.status == 0);
    REQUIRE(two.status == 0);
    auto a = nlohmann::json::parse(one.out);
    auto b = nlohmann::json::parse(two.out);
    // Everything but the run's own timing and thread count.
    for (auto* x : {&a, &b}) {
      x->erase("threads");
      x->erase("seconds");
      x->erase("elapsed_seconds");
      x->erase("engagements_per_second");
    }
    CHECK(a == b);
  }
}

// `blocks: builtin:seed004` (issue 31: the exploration's schema found a
// scenario can name a built-in table, as `ruleset: builtin:default` does):
// the same engagements as the shipped scenario's `../../tables/seed004.yaml`.
TEST_CASE("commands: a hex scenario's blocks: builtin:seed004 plays as the shipped tables/seed004.yaml", "[hex][commands]") {
  vtest::TempDir dir;
  std::ifstream in(k_src + "/sims/scenarios/hex_line_no_squares.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string from = "blocks: ../../tables/seed004.yaml";
  REQUIRE(text.find(from) != std::string::npos);
  text.replace(text.find(from), from.size(), "blocks: builtin:seed004");
  const std::string copy = dir.write("built_in_blocks.yaml", text);
  const auto shipped = vtest::run_vedette({"sim", k_src + "/sims/scenarios/hex_line_no_squares.yaml", "-n", "400", "--seed", "7", "--json"});
  const auto built_in = vtest::run_vedette({"sim", copy, "-n", "400", "--seed", "7", "--json"});
  INFO(built_in.err);
  REQUIRE(shipped.status == 0);
  REQUIRE(built_in.status == 0);
  const auto a = nlohmann::json::parse(shipped.out), b = nlohmann::json::parse(built_in.out);
  CHECK(a["outcomes"] == b["outcomes"]);
  CHECK(a["metrics"] == b["metrics"]);
  CHECK(a["funnels"] == b["funnels"]);
}

TEST_CASE("engine, seed 004 combined arms: one or more ordered artillery units combine, each adding its dice",
          "[hex][engagement][seed004][004-L98-one-or-more-batteries]") {
  vtest::TempDir dir;
  const std::string t = table_with(dir, "never", "never");
  const Seed004Ptr rules = load_seed004(t);
  // Two foot batteries, each 3 hexes from the hussars with a clear path.
  const auto f = scenario(dir, "two_batteries", t, "builtin:default", "hold_and_shoot",
                          "  - {name: Hussars, side: cavalry, profile: light_cavalry, figures: 3, hex: [6, 3]}\n"
                          "  - {name: Foot, side: infantry, profile: heavy_foot, figures: 4, hex: [6, 2]}\n"
                          "  - {name: Battery, side: infantry, profile: heavy_foot, artillery: foot, figures: 3, hex: [9, 4]}\n"
                          "  - {name: Battery2, side: infantry, profile: heavy_foot, artillery: foot, figures: 3, hex: [3, 4]}\n");
  const ScenarioPtr s = load_scenario_file(f);
  const Players p = make_players(*s);
  const int r1 = hex_distance(s->units[2].hex.value(), s->units[0].hex.value());
  const int r2 = hex_distance(s->units[3].hex.value(), s->units[0].hex.value());
  const long long want = rules->foot_artillery_dice[static_cast<std::size_t>(r1 - 1)] + rules->foot_artillery_dice[static_cast<std::size_t>(r2 - 1)];
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    Engagement g(*s, p.bots(), seed);
    Watch w(g);
    g.attach(&w);
    g.play_turn();
    long long added = 0;
    int batteries = 0;
    bool melee = false;
    for (const Seen& x : w.seen) {
      INFO("seed " << seed << ": " << x.e->text);
      if (x.e->kind == "combined_arms") {
        added += num(*x.e, "dice");
        ++batteries;
      }
      if (x.e->kind == "melee" && x.e->unit == "Foot") {
        melee = true;
        CHECK(num(*x.e, "artillery_dice") == added);
      }
    }
    CHECK(melee);
    CHECK(batteries == 2);
    CHECK(added == want);
  }
}

TEST_CASE("commands: vedette play hex_line_squares: cavalry never rolls more than 1 die against a square", "[hex][commands][004-L46-cavalry-one-die-play]") {
  // Seed 004: "the French cavalry unit will battle back with 1 die against
  // the British infantry unit in square", and attacks it with 1 die.
  int against_square = 0;
  for (const char* seed : {"1", "2", "3", "4", "5", "6"}) {
    const auto r = vtest::run_vedette({"play", k_src + "/sims/scenarios/hex_line_squares.yaml", "--seed", seed, "--json"});
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    std::set<std::string> squares;
    for (const auto& e : j.at("events")) {
      const std::string kind = e.value("kind", "");
      const std::string text = e.value("text", "");
      if (kind == "square") squares.insert(e.value("unit", ""));
      if (kind == "leaves_square") squares.erase(e.value("unit", ""));
      if (kind == "battle_back" || kind == "melee") {
        for (const auto& sq : squares)
          if (text.find("against " + sq + " ") != std::string::npos || text.find("attacks the square") != std::string::npos) {
            INFO(text);
            CHECK(e.at("dice").get<long long>() <= 1);
            ++against_square;
            break;
          }
      }
    }
  }
  CHECK(against_square > 0);
}

}  // namespace t_hex_commands
