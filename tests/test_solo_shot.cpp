// The cavalry's shot as one procedure (solo::shot_next, sims/solo/
// solo_shot.hpp): the order of its questions and when each is asked, which
// `solo play` and the web page both follow (tests/test_solo_play.cpp and
// tests/test_web_turn.cpp walk them; tests/web/browser.mjs the page).
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "engine/core/length.hpp"
#include "sims/solo/session.hpp"
#include "sims/solo/solo_shot.hpp"
#include "sims/solo/solo_turn.hpp"
#include "solo_test_util.hpp"

namespace t_solo_shot {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace solo_test;
using vedette::Length;
using vedette::solo::Session;
using vedette::solo::ShotAnswers;
using vedette::solo::ShotNeed;
using Kind = vedette::solo::ShotNeed::Kind;

namespace {

// Hussars (a carbine, reach 20 cm mounted) at its shooting step of turn 1:
// it galloped (seed 002 L27: moving cavalry shoots front and left).
Session at_the_shot(const TempDir& dir, const std::vector<std::string>& extra) {
  std::vector<std::string> args{"solo", "new", "game", "--unit", "Hussars:shooting,weapon=carbine"};
  args.insert(args.end(), extra.begin(), extra.end());
  run_ok(dir, args);
  run_ok(dir, {"solo", "activate", "game", "Hussars", "--enemy-in-range", "--roll", "6"});
  run_ok(dir, {"solo", "initiative", "game", "--total", "3", "--roll", "4"});
  run_ok(dir, {"solo", "end-move", "game"});
  return Session::load(dir.path / "game.vedette.yaml");
}

ShotAnswers at(double cm, bool cover) {
  ShotAnswers a;
  a.target = true;
  a.distance = Length::cm(cm);
  a.cover = cover;
  return a;
}

}  // namespace

TEST_CASE("solo shot: the questions in one order - target, distance (beyond reach: no target), cover, dice, mounted after a hit only (seed 002 L35)",
          "[solo][shooting][procedure][002-L35-solo-advice]") {
  TempDir dir;
  const Session s = at_the_shot(dir, {"--seed", "3", "--physical-dice"});
  const auto rules = vedette::solo::load_session_rules(s);
  const vedette::Ruleset& r = *rules.rules;
  ShotAnswers a;
  // The target first, in the words `solo play` and the page show.
  ShotNeed n = vedette::solo::shot_next(r, s, 0, a);
  REQUIRE(n.kind == Kind::target);
  CHECK(n.question == vedette::solo::shooting_question(r, s, 0));
  CHECK(n.help == vedette::solo::shooting_help(r, s, 0));
  a.target = false;
  n = vedette::solo::shot_next(r, s, 0, a);
  CHECK(n.kind == Kind::done);
  CHECK(n.shoot.no_target);
  a.target = true;
  n = vedette::solo::shot_next(r, s, 0, a);
  REQUIRE(n.kind == Kind::distance);
  CHECK(n.question == "How far is the nearest enemy it can see, front to front (in cm, or give a unit)?");
  // Beyond its reach: no target, and why.
  a.distance = Length::cm(90);
  n = vedette::solo::shot_next(r, s, 0, a);
  CHECK(n.kind == Kind::done);
  CHECK_FALSE(n.in_reach);
  CHECK(n.shoot.no_target);
  CHECK(n.why == "90cm is beyond its reach of 20 cm (7.75 in)");
  // Within it: cover can still matter (15 cm, mounted: band 3, 6+).
  a.distance = Length::cm(15);
  n = vedette::solo::shot_next(r, s, 0, a);
  REQUIRE(n.kind == Kind::cover);
  CHECK(n.in_reach);
  CHECK(n.question == "Is that enemy in cover, as Hussars sees it?");
  // The dice: 4 D6 needing 6+ (tests/test_solo_turn.cpp's play of the same shot).
  a.cover = false;
  n = vedette::solo::shot_next(r, s, 0, a);
  REQUIRE(n.kind == Kind::dice);
  CHECK(n.dice == 4);
  CHECK(n.need == 6);
  CHECK_FALSE(n.rolled_before);
  CHECK(n.question == "Roll 4 D6 for Hussars, each hitting on 6+, and enter the number of hits:");
  // The player's dice missed: where hits fall is not asked.
  ShotAnswers miss = a;
  miss.hits = 0;
  n = vedette::solo::shot_next(r, s, 0, miss);
  CHECK(n.kind == Kind::done);
  CHECK(n.shoot.hits == 0);
  CHECK_FALSE(n.shoot.mounted.has_value());
  // A hit: seed 002 L35, a hit on a mounted figure falls on the horse or the rider: asked.
  ShotAnswers hit = a;
  hit.hits = 2;
  n = vedette::solo::shot_next(r, s, 0, hit);
  REQUIRE(n.kind == Kind::mounted);
  CHECK(n.question == vedette::solo::shot_target_question());
  CHECK(n.help == vedette::solo::shot_target_help());
  hit.mounted = true;
  n = vedette::solo::shot_next(r, s, 0, hit);
  CHECK(n.kind == Kind::done);
  CHECK_FALSE(n.shoot.no_target);
  CHECK(n.shoot.at->as_cm() == Approx(15));
  CHECK(n.shoot.hits == 2);
  CHECK(n.shoot.mounted == true);
  // More hits than dice: refused.
  hit.hits = 5;
  CHECK_THROWS_AS(vedette::solo::shot_next(r, s, 0, hit), std::out_of_range);
}

// The session's dice ("roll for me", or play without --physical-dice): the
// procedure reads them as the shot will take them (session_step_dice), and
// asks whether the target is mounted only when they hit (seed 002 L35).
TEST_CASE("solo shot: with the session's dice, mounted is asked only when they hit (seed 002 L35)",
          "[solo][shooting][procedure][002-L35-solo-advice]") {
  bool asked = false, not_asked = false;
  for (const int seed : {3, 4}) {
    INFO("seed " << seed);
    TempDir dir;
    const Session s = at_the_shot(dir, {"--seed", std::to_string(seed)});
    const auto rules = vedette::solo::load_session_rules(s);
    ShotAnswers a = at(15, false);
    a.rolled = true;
    const ShotNeed n = vedette::solo::shot_next(*rules.rules, s, 0, a);
    int hits = 0;
    for (int d : vedette::solo::session_step_dice(s, vedette::solo::TurnStep::shooting, 0, 4).dice) hits += d >= 6;
    REQUIRE(n.hits == hits);
    CHECK(n.kind == (hits > 0 ? Kind::mounted : Kind::done));
    CHECK_FALSE(n.shoot.hits.has_value());  // the session's dice: no count of the player's
    (hits > 0 ? asked : not_asked) = true;
  }
  // Both ways, or this test proves one only.
  CHECK(asked);
  CHECK(not_asked);
}

// Cover is asked only when it can matter: a die that cannot hit in the open
// cannot hit in cover either. A house rule's carbine needing 7 at its
// longest band: no cover question, no dice.
TEST_CASE("solo shot: a shot that cannot hit in the open asks no cover and rolls no dice", "[solo][shooting][procedure]") {
  TempDir dir;
  spit(dir.path / "house.yaml",
       "extends: builtin:default\n"
       "weapons:\n"
       "  carbine:\n"
       "    name: Carbine\n"
       "    bands:\n"
       "      - {to: 10cm, hit: 4}\n"
       "      - {to: 20cm, hit: 5}\n"
       "      - {to: 30cm, hit: 7}\n");
  const Session s = at_the_shot(dir, {"--seed", "3", "--ruleset", (dir.path / "house.yaml").string()});
  const auto rules = vedette::solo::load_session_rules(s);
  ShotAnswers a;
  a.target = true;
  a.distance = Length::cm(15);  // mounted: one band further, the third (7+)
  const ShotNeed n = vedette::solo::shot_next(*rules.rules, s, 0, a);
  CHECK(n.kind == Kind::done);
  CHECK(n.need == 7);
  CHECK_FALSE(n.shoot.no_target);
  CHECK_FALSE(n.shoot.cover);
  CHECK_FALSE(n.hits.has_value());
  // Nearer, it can hit: cover is asked.
  a.distance = Length::cm(5);
  CHECK(vedette::solo::shot_next(*rules.rules, s, 0, a).kind == Kind::cover);
}

}  // namespace t_solo_shot
