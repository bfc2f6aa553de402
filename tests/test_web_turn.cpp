// `vedette serve` (sims/web/): a turn through the API: the charge's odds and
// dice, fear of charge and squares, the page's words, the player's own dice.
// The API itself, its guards and the server: tests/test_web.cpp.
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

namespace t_web_turn {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace web_test;

namespace {

// Plays the session's Lancers to turn 2's "(Charge?)" as the terminal would:
// RF 1 (the enemy in weapons range) and a 6.
void to_charge(Table& t, const std::string& name) {
  const std::string file = (fs::path(t.tmp.path()) / (name + ".vedette.yaml")).string();
  for (const auto& args : std::vector<std::vector<std::string>>{{"solo", "activate", file, "Lancers", "--roll", "3"},
                                                                {"solo", "next-turn", file},
                                                                {"solo", "activate", file, "Lancers", "--enemy-in-range", "--roll", "6"}}) {
    const auto r = run_in_process(args);
    INFO(r.err);
    REQUIRE(r.status == 0);
  }
  REQUIRE(body_of(t.call("GET", "/api/sessions/" + name))["result"]["units"][0]["charge_pending"] == true);
}

vedette::Fraction fraction_of(const json& j) { return vedette::Fraction(j["num"].get<std::int64_t>(), j["den"].get<std::int64_t>()); }

}  // namespace

TEST_CASE("web: the charge's odds before the dice are the engine's own, exact, and write nothing",
          "[web][003-L48-initiation-check][003-L7-defender-checks]") {
  Table t;
  t.create();
  to_charge(t, "game");
  const std::string file = (fs::path(t.tmp.path()) / "game.vedette.yaml").string();
  const std::string before = slurp(file);
  // Heavy Lancers on Heavy Foot, front, 20 (cm, the default tables' units)
  // away: the initiation check passes on 4+ (33 of 36), the foot stand on
  // 9+ (10 of 36).
  const json ask{{"unit", "Lancers"}, {"distance", "20"}, {"defender", "heavy-foot"}};
  Reply r = t.call("POST", "/api/sessions/game/charge-odds", ask);
  REQUIRE(r.status == 200);
  const json o = body_of(r);
  CHECK(o["reaches"] == true);
  CHECK(o["morale_check"] == true);
  CHECK(o["initiation_need"] == 4);
  CHECK(o["stand_target"] == 9);
  CHECK(fraction_of(o["odds"]["initiation_passes"]) == vedette::Fraction(33, 36));
  CHECK(fraction_of(o["odds"]["goes_in"]) == vedette::Fraction(33, 36));
  CHECK(fraction_of(o["odds"]["defender_stands"]) == vedette::Fraction(33 * 10, 36 * 36));
  CHECK(fraction_of(o["odds"]["defender_fails"]) == vedette::Fraction(33 * 26, 36 * 36));
  CHECK(fraction_of(o["odds"]["no_charge"]) == vedette::Fraction(3, 36));
  CHECK(fraction_of(o["odds"]["falls_short"]) == vedette::Fraction(0));
  CHECK(o["needs_defender_dice"] == true);
  CHECK(o["rolled_before"] == false);

  // Out of reach: the check may pass, the charge still falls short.
  json far = ask;
  far["distance"] = "500";
  const json f = body_of(t.call("POST", "/api/sessions/game/charge-odds", far));
  CHECK(f["reaches"] == false);
  CHECK(fraction_of(f["odds"]["falls_short"]) == vedette::Fraction(33, 36));
  CHECK(fraction_of(f["odds"]["goes_in"]) == vedette::Fraction(0));

  // The player's initiation dice: whether it passed, and whether the
  // defender's dice will be read.
  json fail = ask;
  fail["initiation"] = {1, 2};
  const json x = body_of(t.call("POST", "/api/sessions/game/charge-odds", fail));
  CHECK(x["initiation"]["passed"] == false);
  CHECK(x["needs_defender_dice"] == false);
  json pass = ask;
  pass["initiation"] = {4, 5};
  const json y = body_of(t.call("POST", "/api/sessions/game/charge-odds", pass));
  CHECK(y["initiation"]["passed"] == true);
  CHECK(y["initiation"]["total"] == 9);
  CHECK(y["needs_defender_dice"] == true);

  // Bad answers: a 400 saying what was expected.
  for (const auto& [body, words] : std::vector<std::pair<json, std::string>>{
           {{{"unit", "Lancers"}, {"defender", "heavy-foot"}}, "distance"},
           {{{"unit", "Lancers"}, {"distance", "20"}}, "defender"},
           {{{"unit", "Lancers"}, {"distance", "20"}, {"defender", "heavy-fot"}}, "did you mean 'Heavy Foot'"},
           {{{"unit", "Nobody"}, {"distance", "20"}, {"defender", "heavy-foot"}}, "no unit named"},
           {{{"unit", "Lancers"}, {"distance", "-3"}, {"defender", "heavy-foot"}}, "distance"},
           {{{"unit", "Lancers"}, {"distance", "20"}, {"defender", "heavy-foot"}, {"initiation", {0, 7}}}, "two dice"},
           {{{"unit", "Lancers"}, {"distance", "20"}, {"defender", "heavy-foot"}, {"flank", true}, {"rear", true}}, "not both"}}) {
    Reply b = t.call("POST", "/api/sessions/game/charge-odds", body);
    INFO(body.dump() << " -> " << b.body);
    CHECK(b.status == 400);
    CHECK(body_of(b)["error"].get<std::string>().find(words) != std::string::npos);
  }
  CHECK(slurp(file) == before);  // asking the odds writes nothing
}

TEST_CASE("web: with the player's dice a charge takes the initiation check's dice first, then the defender's",
          "[web][003-L48-initiation-check]") {
  Table t;
  Reply c = t.call("POST", "/api/sessions",
                   {{"name", "real"}, {"units", {"Lancers:shock,figures=12,heavy"}}, {"physical_dice", true}});
  REQUIRE(c.status == 201);
  to_charge(t, "real");
  const std::string file = (fs::path(t.tmp.path()) / "real.vedette.yaml").string();
  const std::string rev = body_of(t.call("GET", "/api/sessions/real"))["rev"];
  json body{{"unit", "Lancers"}, {"distance", "20"}, {"defender", "heavy-foot"}, {"rev", rev}};
  // Without the initiation dice: refused, nothing written.
  const std::string before = slurp(file);
  json only_roll = body;
  only_roll["roll"] = {3, 5};
  Reply no = t.call("POST", "/api/sessions/real/charge", only_roll);
  CHECK(no.status == 400);
  CHECK(body_of(no)["error"].get<std::string>().find("initiation") != std::string::npos);
  json bad = body;
  bad["initiation"] = {4, 9};
  CHECK(t.call("POST", "/api/sessions/real/charge", bad).status == 400);
  CHECK(slurp(file) == before);
  // Both: the initiation check's (4 + 5 passes 4+), then the defender's (3 + 5 fails 9+).
  body["initiation"] = {4, 5};
  body["roll"] = {3, 5};
  Reply ok = t.call("POST", "/api/sessions/real/charge", body);
  INFO(ok.body);
  REQUIRE(ok.status == 200);
  const json ch = body_of(ok)["result"]["charge"];
  CHECK(ch["initiation"]["dice"] == json({4, 5}));
  CHECK(ch["initiation"]["passed"] == true);
  CHECK(ch["dice"] == json({3, 5}));
}

TEST_CASE("web: the charge form's defender classes and weights come from the session's ruleset", "[web]") {
  Table t;
  t.create();
  json table = body_of(t.call("GET", "/api/sessions/game/charge-table"));
  CHECK(table["attacker_weights"] == json({"light", "medium", "heavy"}));
  REQUIRE(table["defenders"].size() == 7);
  CHECK(table["defenders"][2]["id"] == "heavy-foot");
  CHECK(table["defenders"][2]["text"] == "Heavy Foot");
  CHECK(table["defenders"][2]["need"]["heavy"] == 9);
  CHECK(table["units"]["Lancers"]["weight"] == "heavy");
  CHECK(table["units_of_length"] == "cm");

  // A house rule: its wording and numbers reach the page, and the odds follow it.
  const std::string rules = t.tmp.write("house.yaml",
                                        "extends: builtin:default\n"
                                        "charge:\n  morale:\n    table:\n"
                                        "      heavy_foot: {text: Town Pikemen, kind: foot, need: [8, 9, 10]}\n"
                                        "combat:\n  charge:\n    initiation_target: 6\n");
  const std::string file = (fs::path(t.tmp.path()) / "house.vedette.yaml").string();
  const auto made = run_in_process({"solo", "new", file, "--ruleset", rules, "--unit", "Lancers:shock,figures=12", "--seed", "3"});
  INFO(made.err);
  REQUIRE(made.status == 0);
  table = body_of(t.call("GET", "/api/sessions/house/charge-table"));
  CHECK(table["defenders"][2]["text"] == "Town Pikemen");
  CHECK(table["defenders"][2]["need"]["heavy"] == 10);
  CHECK(table["units"]["Lancers"]["weight"].is_null());  // asked at the charge
  to_charge(t, "house");
  const json o = body_of(t.call("POST", "/api/sessions/house/charge-odds",
                                {{"unit", "Lancers"}, {"distance", "20"}, {"defender", "heavy-foot"}, {"attacker", "heavy"}}));
  CHECK(o["initiation_need"] == 6);
  CHECK(o["stand_target"] == 10);
  CHECK(fraction_of(o["odds"]["defender_stands"]) == vedette::Fraction(26 * 6, 36 * 36));
  Reply missing = t.call("POST", "/api/sessions/house/charge-odds", {{"unit", "Lancers"}, {"distance", "20"}, {"defender", "heavy-foot"}});
  CHECK(missing.status == 400);
  CHECK(body_of(missing)["error"].get<std::string>().find("attacker") != std::string::npos);
}


// The optional rules of the charge through the page's API (seeds 001 and
// 004, a ruleset that turns them on): charge-odds says which questions
// apply and when the gut check's dice are read; the charge takes the
// answers; the melee step names the square and takes its die's face.
TEST_CASE("web: fear of charge and an infantry square through the API, as solo charge and melee take them",
          "[web][solo][001-L13-solo-fear][004-L26-solo-square]") {
  Table t;
  const std::string rules =
      t.tmp.write("both.yaml", "extends: builtin:default\ncharge:\n  fear_of_charge:\n    enabled: true\n  infantry_square:\n    enabled: true\n");
  const std::string file = (fs::path(t.tmp.path()) / "opt.vedette.yaml").string();
  const auto made = run_in_process({"solo", "new", file, "--ruleset", rules, "--unit", "Lancers:shock,figures=12,heavy", "--seed", "3"});
  INFO(made.err);
  REQUIRE(made.status == 0);
  to_charge(t, "opt");
  const json base{{"unit", "Lancers"}, {"distance", "30"}, {"defender", "heavy-foot"}};
  json o = body_of(t.call("POST", "/api/sessions/opt/charge-odds", base));
  CHECK(o["fear_may_apply"] == true);
  CHECK(o["fear_exempt_cover"] == 5);
  CHECK(o["fear_flee_distance"] == "10 cm (4 in)");
  CHECK(o["gut_need"] == "7+");
  CHECK(fraction_of(o["odds"]["gut_passes"]) == vedette::Fraction(21, 36));
  CHECK(o["square_allowed"] == true);
  // With the player's dice: the gut check's are asked after the initiation check, before the defender's.
  json mine = base;
  mine["initiation"] = {4, 5};
  o = body_of(t.call("POST", "/api/sessions/opt/charge-odds", mine));
  CHECK(o["needs_gut_dice"] == true);
  CHECK(o["needs_defender_dice"] == false);
  mine["gut_roll"] = {1, 2};
  mine["refuge"] = true;
  o = body_of(t.call("POST", "/api/sessions/opt/charge-odds", mine));
  CHECK(o["needs_gut_dice"] == false);
  CHECK(o["needs_defender_dice"] == false);  // it failed and flees: no morale check
  // The odds before the dice count the flight: 15 of 36 gut checks fail.
  CHECK(fraction_of(o["odds"]["defender_fled"]) == fraction_of(o["odds"]["initiation_passes"]) * vedette::Fraction(15, 36));
  // Not foot, or foot charging too: the rules do not apply, and their answers are refused.
  json horse = base;
  horse["defender"] = "light-horse";
  horse["square"] = true;
  Reply bad = t.call("POST", "/api/sessions/opt/charge-odds", horse);
  CHECK(bad.status == 400);
  CHECK(body_of(bad)["error"].get<std::string>().find("Infantry Square") != std::string::npos);
  // The charge: cover exempt, a square; vedette's dice.
  const std::string rev = body_of(t.call("GET", "/api/sessions/opt"))["rev"];
  json charge = base;
  charge["fear_exempt"] = true;
  charge["square"] = true;
  charge["rev"] = rev;
  Reply c = t.call("POST", "/api/sessions/opt/charge", charge);
  INFO(c.body);
  REQUIRE(c.status == 200);
  const json cr = body_of(c)["result"]["charge"];
  CHECK(cr["square"] == true);
  CHECK(cr["fear"]["exempt"] == true);
  REQUIRE(cr["initiation"]["passed"] == true);  // seed 3's dice
  {
    // After the initiative, the melee step names the square.
    Reply in = t.call("POST", "/api/sessions/opt/initiative", {{"your_roll", 3}, {"rev", body_of(t.call("GET", "/api/sessions/opt"))["rev"]}});
    REQUIRE(in.status == 200);
    // Your move (issue 28): the page's "My move is over" posts end-move.
    REQUIRE(body_of(t.call("GET", "/api/sessions/opt"))["result"]["next_step"]["step"] == "your_move");
    Reply end = t.call("POST", "/api/sessions/opt/end-move", {{"rev", body_of(t.call("GET", "/api/sessions/opt"))["rev"]}});
    INFO(end.body);
    REQUIRE(end.status == 200);
    const json st = body_of(t.call("GET", "/api/sessions/opt"))["result"];
    REQUIRE(st["next_step"]["step"] == "melee");
    CHECK(st["next_step"]["square"] == true);
    CHECK(st["next_step"]["bounce_faces"] == json({6}));
    Reply me = t.call("POST", "/api/sessions/opt/melee",
                      {{"unit", "Lancers"}, {"their_hits", 0}, {"square_dice", {6}}, {"rev", body_of(t.call("GET", "/api/sessions/opt"))["rev"]}});
    INFO(me.body);
    REQUIRE(me.status == 200);
    CHECK(body_of(me)["result"]["result"] == "bounced");
  }
}

// Issue 16's words on the main lines, on the page as in `solo play`: no
// seed numbers or YAML keys in what the page shows (solo::plain_words);
// the log and the command line's --json keep the citations.
TEST_CASE("web: the page's prose cites no seed rule, the log and --json keep the citations", "[web]") {
  Table t;
  Reply c = t.call("POST", "/api/sessions",
                   {{"name", "game"}, {"units", {"Hussars:shooting,figures=8,light,weapon=carbine"}}, {"seed", 7}});
  REQUIRE(c.status == 201);
  std::string rev = body_of(c)["rev"];
  const json answers{{"in_cover", false}, {"enemy_in_range", false}, {"enemy_flank_rear", false}, {"casualties", 0}};
  for (const auto& [action, body] : std::vector<std::pair<std::string, json>>{
           {"activate", {{"unit", "Hussars"}, {"answers", answers}, {"roll", 1}}},
           {"initiative", {{"your_roll", 3}, {"your_charges", 0}, {"roll", 1}}}}) {
    json b = body;
    b["rev"] = rev;
    Reply x = t.call("POST", "/api/sessions/game/" + action, b);
    INFO(action << ": " << x.body);
    REQUIRE(x.status == 200);
    rev = body_of(x)["rev"];
  }
  // A hit on a target the page says is mounted (issue 30, as solo play asks
  // it): "Remove 1 figure from that unit (mounted: for each, roll a D6: the
  // horse on 1-4, the rider on 5-6; seed 002)" in the session's record.
  Reply shot = t.call("POST", "/api/sessions/game/shoot",
                      {{"unit", "Hussars"}, {"target", true}, {"distance", "15cm"}, {"cover", false}, {"hits", 1}, {"mounted", true}, {"rev", rev}});
  INFO(shot.body);
  REQUIRE(shot.status == 200);
  CHECK(shot.body.find("(mounted: for each, roll a D6: the horse on 1-4, the rider on 5-6)") != std::string::npos);
  CHECK(shot.body.find("if it is mounted") == std::string::npos);
  CHECK(shot.body.find("seed 0") == std::string::npos);
  // The log and the command line keep the citation.
  const json log = body_of(t.call("GET", "/api/sessions/game/log"));
  CHECK(log["result"].get<std::string>().find("the rider on 5-6; seed 002)") != std::string::npos);
  const auto cli = run_in_process({"solo", "log", (fs::path(t.tmp.path()) / "game.vedette.yaml").string(), "--json"});
  REQUIRE(cli.status == 0);
  CHECK(cli.out.find("seed 002)") != std::string::npos);
}

TEST_CASE("web: the turn in the page's words (what is left, the end-of-turn summary, what undo undid), with no absolute path",
          "[web]") {
  Table t;
  std::string rev = t.create();
  const std::string file = (fs::path(t.tmp.path()) / "game.vedette.yaml").string();
  auto status = [&] { return body_of(t.call("GET", "/api/sessions/game"))["result"]; };
  // Nothing done: both units are left (Next turn asks first).
  CHECK(status()["turn_left"] == json({"Lancers has not acted", "Hussars has not acted"}));
  CHECK_FALSE(status().contains("turn_summary"));
  Reply a = t.call("POST", "/api/sessions/game/activate", {{"unit", "Lancers"}, {"roll", 3}, {"rev", rev}});
  REQUIRE(a.status == 200);
  rev = body_of(a)["rev"];
  CHECK(status()["turn_left"] == json({"Hussars has not acted"}));
  // Undo says what it undid, in the log's words (`solo log`'s line, without its number).
  Reply u = t.call("POST", "/api/sessions/game/undo", {{"rev", rev}});
  REQUIRE(u.status == 200);
  const std::string said = body_of(u)["said"][0].get<std::string>();
  CHECK(said.rfind("Undone: turn 1, Lancers: RF ", 0) == 0);
  CHECK(said.find("D6 3") != std::string::npos);
  CHECK(said.find("[undone]") == std::string::npos);  // the notice says it once, not twice
  CHECK(said.find('#') == std::string::npos);         // no event number on the page's line
  CHECK(body_of(u)["result"]["file"] == "game.vedette.yaml");  // the name, not where this machine keeps it
  Reply re = t.call("POST", "/api/sessions/game/redo", {{"rev", body_of(u)["rev"]}});
  REQUIRE(re.status == 200);
  CHECK(body_of(re)["said"][0].get<std::string>().rfind("Redone: turn 1, Lancers: RF ", 0) == 0);
  // Both acted (the terminal plays Hussars): the initiative is what is left.
  REQUIRE(run_in_process({"solo", "activate", file, "Hussars", "--roll", "3"}).status == 0);
  CHECK(status()["turn_left"] == json({"the initiative"}));
  REQUIRE(run_in_process({"solo", "initiative", file, "--total", "6", "--roll", "3"}).status == 0);
  CHECK(status()["turn_left"] == json({"your move"}));  // issue 28: a step of the turn
  REQUIRE(run_in_process({"solo", "end-move", file}).status == 0);
  // Every step done: solo play's end-of-turn summary, line for line (solo::turn_summary).
  json st = status();
  REQUIRE(st["next_step"]["step"] == "next_turn");
  CHECK(st["turn_left"].empty());
  REQUIRE(st["turn_summary"].size() == 2);
  CHECK(st["turn_summary"][0].get<std::string>().rfind("Lancers: 12 of 12 figures, steady", 0) == 0);
  CHECK(st["turn_summary"][1].get<std::string>().rfind("Hussars: 8 of 8 figures, steady", 0) == 0);
  // The log names the session's file, not its folder.
  const std::string log = body_of(t.call("GET", "/api/sessions/game/log"))["result"];
  CHECK(log.find("History of game.vedette.yaml") == 0);
  CHECK(log.find(t.tmp.path()) == std::string::npos);
}

TEST_CASE("web: the player's own dice are told what to roll: the shot's dice and score, from the engine", "[web]") {
  Table t;
  Reply c = t.call("POST", "/api/sessions",
                   {{"name", "s"}, {"units", {"Hussars:shooting,weapon=carbine"}}, {"seed", 4}, {"physical_dice", true}});
  REQUIRE(c.status == 201);
  const std::string file = (fs::path(t.tmp.path()) / "s.vedette.yaml").string();
  const vedette::solo::Session s = vedette::solo::Session::load(file);
  const auto rules = vedette::solo::load_session_rules(s);
  for (const auto& [distance, cover] : std::vector<std::pair<std::string, bool>>{{"15", false}, {"15cm", true}, {"5.5in", false}}) {
    INFO(distance << (cover ? " in cover" : ""));
    const Reply r = t.call("POST", "/api/sessions/s/shot-plan", {{"unit", "Hussars"}, {"distance", distance}, {"cover", cover}});
    REQUIRE(r.status == 200);
    const json j = body_of(r);
    std::string why;
    const auto d = vedette::solo::parse_table_length(*rules.rules, distance, false, why);
    REQUIRE(d);
    const auto plan = vedette::solo::solo_shot(*rules.rules, s, 0, *d, cover);
    REQUIRE(plan);  // a carbine reaches 20 cm (seed 002)
    CHECK(j["in_reach"] == true);
    CHECK(j["dice"] == plan->dice);
    CHECK(j["need"] == plan->need);
    CHECK(j["dice"].get<int>() > 0);
    // Next: the dice (the player's count of hits, or the session's); none
    // when no die can hit (here 15 cm in cover: 7+).
    CHECK(j["ask"] == (plan->need <= 6 ? "dice" : "done"));
  }
  const json far = body_of(t.call("POST", "/api/sessions/s/shot-plan", {{"unit", "Hussars"}, {"distance", "12in"}}));
  CHECK(far["in_reach"] == false);
  CHECK(far["ask"] == "done");
  CHECK(far["target"] == false);  // beyond its reach: no target
  CHECK(far["reach"] == "20 cm (7.75 in)");
  CHECK(t.call("POST", "/api/sessions/s/shot-plan", {{"unit", "Hussars"}, {"distance", "far"}}).status == 400);
  CHECK(t.call("POST", "/api/sessions/s/shot-plan", {{"unit", "Nobody"}, {"distance", "10"}}).status == 400);
}

// The shot's questions are the shot procedure's (solo::shot_next, as `solo
// play` asks them): the page sends its answers so far to shot-plan and asks
// what it is told. Whether the target is mounted (seed 002 L35: a hit on a
// mounted figure falls on the horse or the rider) only after a hit: the
// player's count of hits, or the session's dice ("Roll for me").
TEST_CASE("web: shot-plan asks the shot's questions in the procedure's order, mounted only after a hit, own dice or the session's (seed 002 L35)",
          "[web][shooting][002-L35-solo-advice]") {
  bool rolled_hit = false, rolled_miss = false;
  for (const int seed : {3, 4}) {
    for (const bool physical : {true, false}) {
      INFO("seed " << seed << (physical ? ", the player's dice" : ", the session's dice"));
      Table t;
      REQUIRE(t.call("POST", "/api/sessions",
                     {{"name", "s"}, {"units", {"Hussars:shooting,weapon=carbine"}}, {"seed", seed}, {"physical_dice", physical}})
                  .status == 201);
      const std::string file = (fs::path(t.tmp.path()) / "s.vedette.yaml").string();
      for (const auto& args : std::vector<std::vector<std::string>>{{"solo", "activate", file, "Hussars", "--enemy-in-range", "--roll", "6"},
                                                                    {"solo", "initiative", file, "--total", "3", "--roll", "4"},
                                                                    {"solo", "end-move", file}})
        REQUIRE(run_in_process(args).status == 0);
      const json n = body_of(t.call("GET", "/api/sessions/s"))["result"]["next_step"];
      REQUIRE(n["step"] == "shooting");
      // The first need comes with the status: the target, in play's words.
      CHECK(n["shot"]["ask"] == "target");
      CHECK(n["shot"]["question"] == n["question"]);
      const std::string before = slurp(file);
      const auto plan = [&](json answers) {
        answers["unit"] = "Hussars";
        const Reply r = t.call("POST", "/api/sessions/s/shot-plan", answers);
        INFO(r.body);
        REQUIRE(r.status == 200);
        return body_of(r);
      };
      CHECK(plan(json::object())["ask"] == "target");
      const json none = plan({{"target", false}});
      CHECK(none["ask"] == "done");
      CHECK(none["target"] == false);
      json a{{"target", true}};
      CHECK(plan(a)["ask"] == "distance");
      a["distance"] = "90cm";  // beyond its reach: no target
      const json far = plan(a);
      CHECK(far["ask"] == "done");
      CHECK(far["target"] == false);
      CHECK(far["why"] == "90cm is beyond its reach of 20 cm (7.75 in)");
      a["distance"] = "15cm";
      const json cover = plan(a);
      REQUIRE(cover["ask"] == "cover");
      CHECK(cover["question"] == "Is that enemy in cover, as Hussars sees it?");
      a["cover"] = false;
      const json dice = plan(a);
      REQUIRE(dice["ask"] == "dice");
      CHECK(dice["dice"] == 4);  // mounted and moving: band 3, 6+
      CHECK(dice["need"] == 6);
      // The player's dice: a miss asks nothing more, a hit asks mounted.
      json miss = a;
      miss["hits"] = 0;
      CHECK(plan(miss)["ask"] == "done");
      json hit = a;
      hit["hits"] = 2;
      const json m = plan(hit);
      CHECK(m["ask"] == "mounted");
      CHECK(m["question"] == vedette::solo::shot_target_question());
      hit["mounted"] = true;
      CHECK(plan(hit)["ask"] == "done");
      hit["hits"] = 5;
      CHECK(t.call("POST", "/api/sessions/s/shot-plan", hit).status == 400);  // more hits than dice
      CHECK(slurp(file) == before);  // read-only
      // The session's dice ("Roll for me"): mounted only when they hit.
      json rolled = a;
      rolled["rolled"] = true;
      const vedette::solo::Session s = vedette::solo::Session::load(file);
      int hits = 0;
      for (int d : vedette::solo::session_step_dice(s, vedette::solo::TurnStep::shooting, 0, 4).dice) hits += d >= 6;
      const json after = plan(rolled);
      CHECK(after["ask"] == (hits > 0 ? "mounted" : "done"));
      (hits > 0 ? rolled_hit : rolled_miss) = true;
      // Then the shot as answered (no "mounted" after a miss).
      json shot = a;
      shot["unit"] = "Hussars";
      shot["rev"] = after["rev"];
      if (hits > 0) shot["mounted"] = false;
      const Reply done = t.call("POST", "/api/sessions/s/shoot", shot);
      INFO(done.body);
      REQUIRE(done.status == 200);
      const std::string said = body_of(done)["result"]["outcome"];
      CHECK(said.find("= " + std::to_string(hits) + (hits == 1 ? " hit." : " hits.")) != std::string::npos);
      CHECK(slurp(file).find(hits > 0 ? "target: \"foot\"" : "target: \"yes\"") != std::string::npos);
    }
  }
  // Both ways of the session's dice, or this test proves one only.
  CHECK(rolled_hit);
  CHECK(rolled_miss);
}

TEST_CASE("web: a rally on the player's dice says what 2D6 must reach (the ruleset's rally_target)", "[web]") {
  Table t;
  REQUIRE(t.call("POST", "/api/sessions", {{"name", "r"}, {"units", {"Hussars:shooting,weapon=none"}}, {"seed", 1}}).status == 201);
  const std::string file = (fs::path(t.tmp.path()) / "r.vedette.yaml").string();
  for (const auto& args : std::vector<std::vector<std::string>>{{"solo", "morale", file, "Hussars", "shaken"},
                                                                {"solo", "activate", file, "Hussars", "--roll", "3"},
                                                                {"solo", "initiative", file, "--total", "6", "--roll", "3"},
                                                                {"solo", "end-move", file}})
    REQUIRE(run_in_process(args).status == 0);
  const json n = body_of(t.call("GET", "/api/sessions/r"))["result"]["next_step"];
  REQUIRE(n["step"] == "rally");
  CHECK(n["rally_need"] == 7);  // tables/default.yaml: combat.morale.rally_target 7
  // A house rule's rally_target is the one told.
  std::ofstream(fs::path(t.tmp.path()) / "house.yaml") << "extends: builtin:default\ncombat:\n  morale:\n    rally_target: 9\n";
  const std::string house = (fs::path(t.tmp.path()) / "h.vedette.yaml").string();
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"solo", "new", house, "--seed", "1", "--ruleset", (fs::path(t.tmp.path()) / "house.yaml").string(), "--unit", "Hussars:shooting,weapon=none"},
           {"solo", "morale", house, "Hussars", "shaken"},
           {"solo", "activate", house, "Hussars", "--roll", "3"},
           {"solo", "initiative", house, "--total", "6", "--roll", "3"},
           {"solo", "end-move", house}})
    REQUIRE(run_in_process(args).status == 0);
  CHECK(body_of(t.call("GET", "/api/sessions/h"))["result"]["next_step"]["rally_need"] == 9);
}

// Issue 28: your move through the API. The page posts the typed reactions
// (solo::Moved, solo::Charged); the answers are the command line's, a bad
// field is a 400 naming it, and nothing is written.
TEST_CASE("web: your move posts the cavalry's opportunity charge and your charge at it, as `solo moved`/`charged` (seed 003 L90, L7, L20)",
          "[web][reaction][003]") {
  Table t;
  std::string rev = t.create();
  const std::string file = (fs::path(t.tmp.path()) / "game.vedette.yaml").string();
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"solo", "activate", file, "Lancers", "--roll", "3"},
           {"solo", "activate", file, "Hussars", "--roll", "3"},
           {"solo", "next-turn", file},
           {"solo", "activate", file, "Lancers", "--enemy-in-range", "--roll", "4"},  // RF 1, D6 4: "(Charge?)"
           {"solo", "charge", file, "Lancers", "--decline"},
           {"solo", "activate", file, "Hussars", "--enemy-in-range", "--roll", "3"},
           {"solo", "initiative", file, "--total", "6", "--roll", "1"}}) {
    const auto r = run_in_process(args);
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
  }
  auto status = [&] { return body_of(t.call("GET", "/api/sessions/game"))["result"]; };
  json st = status();
  rev = body_of(t.call("GET", "/api/sessions/game"))["rev"];
  REQUIRE(st["reactions"]["your_move"] == true);
  CHECK(st["reactions"]["units"][0]["may_react"] == true);
  // A bad field: 400, nothing written.
  Reply bad = t.call("POST", "/api/sessions/game/moved",
                     {{"as", "heavy_foot"}, {"near", {{{"unit", "Lancers"}}}}, {"rev", rev}});
  CHECK(bad.status == 400);
  CHECK(bad.body.find("missing \\\"distance\\\"") != std::string::npos);
  Reply cls = t.call("POST", "/api/sessions/game/moved",
                     {{"as", "dragon"}, {"near", {{{"unit", "Lancers"}, {"distance", "20cm"}}}}, {"rev", rev}});
  CHECK(cls.status == 400);
  CHECK(body_of(t.call("GET", "/api/sessions/game"))["rev"] == rev);
  // Your foot ends 20 cm from the Lancers, flank towards them; your dice:
  // initiation [4 4] = 8 against 6 (L100), its morale [3 3] = 6 against 9 + 1 (L20).
  Reply mv = t.call("POST", "/api/sessions/game/moved",
                    {{"mover", "Foot"}, {"as", "heavy_foot"}, {"near", {{{"unit", "Lancers"}, {"distance", "20cm"}, {"side", "flank"}}}},
                     {"roll", {4, 4, 3, 3}}, {"rev", rev}});
  INFO(mv.body);
  REQUIRE(mv.status == 200);
  const json reactions = body_of(mv)["result"]["reactions"];
  REQUIRE(reactions.size() == 2);
  CHECK(reactions[0]["reacts"] == true);
  CHECK(reactions[0]["outcome"].get<std::string>().find("needs 10 on 2D6 [3 3] = 6: fails.") != std::string::npos);
  CHECK(reactions[0]["outcome"].get<std::string>().find("seed 0") == std::string::npos);  // the page's words
  CHECK(reactions[1]["reacts"] == false);
  rev = body_of(mv)["rev"];
  // Your medium horse charges the Hussars (light horse) in the rear: 6, rear -2 = 8; [3 4] = 7 fails.
  Reply ch = t.call("POST", "/api/sessions/game/charged",
                    {{"unit", "Hussars"}, {"as", "medium_horse"}, {"distance", "30cm"}, {"side", "rear"}, {"roll", {3, 4}}, {"rev", rev}});
  INFO(ch.body);
  REQUIRE(ch.status == 200);
  CHECK(body_of(ch)["result"]["need"] == 8);
  CHECK(body_of(ch)["result"]["outcome"].get<std::string>().find("Light Horse charged by medium horse in the rear: 6, rear -2: needs 8 on 2D6 [3 4] = 7: fails.") !=
        std::string::npos);
  // The same events as the command line writes.
  const auto log = run_in_process({"solo", "log", file, "--json"});
  CHECK(log.out.find("\"event\": \"opportunity\"") != std::string::npos);
  CHECK(log.out.find("\"event\": \"charged\"") != std::string::npos);
}

TEST_CASE("web: a reaction that needs the cavalry's weight asks it (weight_needed), writes nothing, and goes on with their_weight (seed 003 L7)",
          "[web][reaction][003]") {
  Table t;
  Reply made = t.call("POST", "/api/sessions", {{"name", "war"}, {"units", {"Dragoons:mounted-infantry"}}, {"seed", 17}});
  REQUIRE(made.status == 201);
  const std::string file = (fs::path(t.tmp.path()) / "war.vedette.yaml").string();
  for (const auto& args : std::vector<std::vector<std::string>>{{"solo", "activate", file, "Dragoons"},
                                                                {"solo", "initiative", file, "--total", "6", "--roll", "1"}}) {
    const auto r = run_in_process(args);
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
  }
  const std::string rev = body_of(t.call("GET", "/api/sessions/war"))["rev"];
  const std::string before = slurp(file);
  Reply ask = t.call("POST", "/api/sessions/war/charged", {{"unit", "Dragoons"}, {"as", "heavy_horse"}, {"distance", "20cm"}, {"rev", rev}});
  INFO(ask.body);
  REQUIRE(ask.status == 200);
  const json need = body_of(ask)["weight_needed"];
  CHECK(need["unit"] == "Dragoons");
  CHECK(need["question"] == "Is Dragoons light, medium or heavy cavalry?");  // the page's words, as solo play's
  CHECK(need["choices"] == json({"light", "medium", "heavy"}));
  CHECK(slurp(file) == before);
  CHECK(body_of(t.call("GET", "/api/sessions/war"))["rev"] == rev);
  Reply go = t.call("POST", "/api/sessions/war/charged",
                    {{"unit", "Dragoons"}, {"as", "heavy_horse"}, {"distance", "20cm"}, {"their_weight", "medium"}, {"rev", rev}});
  INFO(go.body);
  REQUIRE(go.status == 200);
  CHECK(body_of(go)["result"]["outcome"].get<std::string>().find("Medium Horse charged by heavy horse in the front") != std::string::npos);
  CHECK(slurp(file) != before);
}

// Issue 27: own dice for the reactions. With "player_dice" the server reads
// the player's dice pair by pair as the cavalry's charge comes to each check
// (solo::DiceNeeded); while it needs more it writes nothing and says which
// check is next and the total it needs (the charge procedure's), the words
// the page shows. A reaction whose dice were rolled before this turn (an
// undone one) uses them again and asks none.
TEST_CASE("web: a reaction with the player's dice asks each 2D6 it reads, with its need, and writes nothing until done (seed 003 L100, L7, L20)",
          "[web][reaction][003]") {
  Table t;
  std::string rev = t.create();
  const std::string file = (fs::path(t.tmp.path()) / "game.vedette.yaml").string();
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"solo", "activate", file, "Lancers", "--roll", "3"},
           {"solo", "activate", file, "Hussars", "--roll", "3"},
           {"solo", "next-turn", file},
           {"solo", "activate", file, "Lancers", "--enemy-in-range", "--roll", "4"},  // RF 1, D6 4: "(Charge?)"
           {"solo", "charge", file, "Lancers", "--decline"},
           {"solo", "activate", file, "Hussars", "--enemy-in-range", "--roll", "3"},
           {"solo", "initiative", file, "--total", "6", "--roll", "1"}}) {
    const auto r = run_in_process(args);
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
  }
  rev = body_of(t.call("GET", "/api/sessions/game"))["rev"];
  const json near = {{{"unit", "Lancers"}, {"distance", "20cm"}, {"side", "flank"}}};
  auto moved = [&](const json& roll) {
    json b{{"mover", "Foot"}, {"as", "heavy_foot"}, {"near", near}, {"player_dice", true}, {"rev", rev}};
    if (!roll.is_null()) b["roll"] = roll;
    return t.call("POST", "/api/sessions/game/moved", b);
  };
  // No dice yet: the Lancers' initiation check, 8 less L100's 2 for a charge not declared.
  Reply first = moved(nullptr);
  INFO(first.body);
  REQUIRE(first.status == 200);
  const json need1 = body_of(first)["dice_needed"];
  CHECK(need1["roll"] == "initiation");
  CHECK(need1["need"] == 6);
  CHECK(need1["text"] == "Roll 2D6 for Lancers' initiation check; it needs 6+ to charge");
  CHECK(body_of(t.call("GET", "/api/sessions/game"))["rev"] == rev);  // nothing written
  // [4 4] passes: then Foot's morale check, heavy foot charged by heavy horse in the flank: 9 + 1 (L12, L20).
  Reply second = moved(json{4, 4});
  REQUIRE(second.status == 200);
  const json need2 = body_of(second)["dice_needed"];
  CHECK(need2["roll"] == "defender_morale");
  CHECK(need2["need"] == 10);
  CHECK(need2["text"] == "Roll 2D6 for Foot's morale check; it needs 10+ to stand");
  CHECK(body_of(t.call("GET", "/api/sessions/game"))["rev"] == rev);
  // [2 1] fails the initiation check: no morale check is asked, the reaction is written.
  Reply fails = moved(json{2, 1});
  INFO(fails.body);
  REQUIRE(fails.status == 200);
  CHECK_FALSE(body_of(fails).contains("dice_needed"));
  CHECK(body_of(t.call("GET", "/api/sessions/game"))["rev"] != rev);
  REQUIRE(t.call("POST", "/api/sessions/game/undo", {{"rev", body_of(fails)["rev"]}}).status == 200);
  rev = body_of(t.call("GET", "/api/sessions/game"))["rev"];
  // The dice of that undone reaction were the player's: asked again, all four read.
  Reply all = moved(json{4, 4, 3, 3});
  INFO(all.body);
  REQUIRE(all.status == 200);
  CHECK(body_of(all)["result"]["reactions"][0]["outcome"].get<std::string>().find("needs 10 on 2D6 [3 3] = 6: fails.") != std::string::npos);
  rev = body_of(all)["rev"];

  // Your charge at the Hussars (light horse) in the rear: only their morale
  // check, 6, rear -2 = 8 (L14, L20); first rolled by vedette, then undone:
  // the player's dice are not asked, vedette's are used again.
  const json charge{{"unit", "Hussars"}, {"as", "medium_horse"}, {"distance", "30cm"}, {"side", "rear"}};
  json ask = charge;
  ask["player_dice"] = true;
  ask["rev"] = rev;
  Reply c1 = t.call("POST", "/api/sessions/game/charged", ask);
  INFO(c1.body);
  REQUIRE(c1.status == 200);
  CHECK(body_of(c1)["dice_needed"]["text"] == "Roll 2D6 for Hussars' morale check; it needs 8+ to stand");
  json rolled = charge;
  rolled["rev"] = rev;
  Reply c2 = t.call("POST", "/api/sessions/game/charged", rolled);  // vedette's dice
  REQUIRE(c2.status == 200);
  const std::string outcome = body_of(c2)["result"]["outcome"];
  REQUIRE(t.call("POST", "/api/sessions/game/undo", {{"rev", body_of(c2)["rev"]}}).status == 200);
  ask["rev"] = body_of(t.call("GET", "/api/sessions/game"))["rev"];
  Reply c3 = t.call("POST", "/api/sessions/game/charged", ask);
  INFO(c3.body);
  REQUIRE(c3.status == 200);
  CHECK_FALSE(body_of(c3).contains("dice_needed"));
  CHECK(body_of(c3)["result"]["outcome"] == outcome);
  // A bad "player_dice": 400.
  ask["player_dice"] = "yes";
  CHECK(t.call("POST", "/api/sessions/game/charged", ask).status == 400);
}

TEST_CASE("web: melee-plan says whether the cavalry strikes a square and with what (the melee procedure's next step, seed 004)",
          "[web][melee][004-L41-square-first]") {
  Table t;
  std::ofstream(fs::path(t.tmp.path()) / "house.yaml") << "extends: builtin:default\ncharge:\n  infantry_square:\n    enabled: true\n";
  const std::string file = (fs::path(t.tmp.path()) / "q.vedette.yaml").string();
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"solo", "new", file, "--seed", "3", "--ruleset", (fs::path(t.tmp.path()) / "house.yaml").string(), "--unit",
            "Lancers:shock,figures=12,heavy"},
           {"solo", "next-turn", file},
           {"solo", "activate", file, "Lancers", "--enemy-in-range", "--roll", "6"},
           {"solo", "charge", file, "Lancers", "--distance", "30", "--defender", "heavy-foot", "--square", "--initiation", "5", "5"},
           {"solo", "initiative", file, "--total", "1", "--roll", "6"},
           {"solo", "end-move", file}})
    REQUIRE(run_in_process(args).status == 0);
  auto plan = [&](json body) {
    body["unit"] = "Lancers";
    const Reply r = t.call("POST", "/api/sessions/q/melee-plan", body);
    INFO(r.body);
    REQUIRE(r.status == 200);
    return body_of(r);
  };
  const json bounced = plan({{"square_dice", {6}}});  // tables/default.yaml: bounce_on [6]
  CHECK(bounced["bounce"] == true);
  CHECK(bounced["square_hits_max"] == 0);
  CHECK(bounced["strikes"] == false);
  const json open = plan({{"square_dice", {3}}, {"their_hits", 1}});
  CHECK(open["bounce"] == false);
  CHECK(open["square_hits_max"] == 1);
  CHECK(open["strikes"] == true);
  CHECK(open["dice"] == 1);  // at most max_battle_dice against a square
  CHECK(open["need"] == 4);  // the usual 5+, +1 charging shock cavalry (seed 002 L33)
  // A die scores one hit at most, and a bounce face none (read_square_faces).
  const Reply too_many = t.call("POST", "/api/sessions/q/melee-plan", {{"unit", "Lancers"}, {"square_dice", {3}}, {"their_hits", 2}});
  CHECK(too_many.status == 400);
  CHECK(too_many.body.find("2 hits from 1 die that did not show the bounce face") != std::string::npos);
  // Read-only: nothing was written.
  CHECK(body_of(t.call("GET", "/api/sessions/q"))["result"]["next_step"]["step"] == "melee");
  CHECK(t.call("POST", "/api/sessions/q/melee-plan", {{"unit", "Lancers"}, {"square_dice", {7}}}).status == 400);
  CHECK(t.call("POST", "/api/sessions/q/melee-plan", {{"unit", "Nobody"}, {"square_dice", {3}}}).status == 400);
}

}  // namespace t_web_turn
