// The page's cavalry charge as seed 003 writes it (issue 28; shared seed
// texts named in docs/seeds.md): the declaration names its target (L24),
// a target its front rank cannot see is no declaration (L34), and a target
// out of reach gives way to another of the player's units within it (L56).
// The page asks what the server says is next (charge_step, sims/solo's
// next_charge_field, solo play's order) in solo play's words
// (solo::charge_field_words): the same strings
// tests/test_solo_charge_declared.cpp reads in solo play's output.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "sims/cli/cli.hpp"
#include "sims/web/web_app.hpp"
#include "web_test_util.hpp"

namespace t_web_charge_declared {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace web_test;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A session with heavy Lancers at turn 2's "(Charge?)" at a gallop (RF 1
// and a 6: its charge reaches 75 cm), as the terminal would bring it.
std::string lancers_offer(Table& t) {
  Reply c = t.call("POST", "/api/sessions", {{"name", "game"}, {"units", {"Lancers:shock,figures=12,heavy"}}, {"seed", 5}});
  REQUIRE(c.status == 201);
  const std::string file = (fs::path(t.tmp.path()) / "game.vedette.yaml").string();
  for (const auto& args : std::vector<std::vector<std::string>>{{"solo", "activate", file, "Lancers", "--roll", "3"},
                                                                {"solo", "next-turn", file},
                                                                {"solo", "activate", file, "Lancers", "--enemy-in-range", "--roll", "6"}}) {
    const auto r = run_in_process(args);
    INFO(r.err);
    REQUIRE(r.status == 0);
  }
  return file;
}

json status(Table& t) { return body_of(t.call("GET", "/api/sessions/game"))["result"]; }
json step_of(Table& t) { return status(t)["units"][0]["charge_step"]; }

// A change through the API with the session's revision; its answer.
json post(Table& t, const std::string& action, json body) {
  body["rev"] = body_of(t.call("GET", "/api/sessions/game"))["rev"];
  Reply r = t.call("POST", "/api/sessions/game/" + action, body);
  INFO(action << ": " << r.body);
  REQUIRE(r.status == 200);
  return body_of(r);
}

// "(Charge?)" yes, the target named, seen: declared (step 1).
void declare(Table& t, const std::string& target) {
  REQUIRE(step_of(t)["field"] == "charge");
  post(t, "charge-answer", {{"unit", "Lancers"}, {"answers", {{"charge", "yes"}}}});
  REQUIRE(step_of(t)["field"] == "target");
  post(t, "charge-answer", {{"unit", "Lancers"}, {"answers", {{"target", target}}}});
  REQUIRE(step_of(t)["field"] == "visible");
  post(t, "charge-answer", {{"unit", "Lancers"}, {"answers", {{"visible", "yes"}}}});
}

json last_charge(const std::string& file) {
  const auto r = run_in_process({"solo", "log", file, "--json"});
  REQUIRE(r.status == 0);
  const json events = json::parse(r.out);
  for (auto it = events.rbegin(); it != events.rend(); ++it)
    if ((*it)["event"] == "charge") return (*it)["charge"];
  FAIL("no charge in the log");
  return {};
}

}  // namespace

TEST_CASE("web: the charge's declaration names its target and asks its sight, in solo play's order and words, and the charge goes at it after the initiative (seed 003 L24)",
          "[web][charge][003-L24-solo-names-target]") {
  Table t;
  const std::string file = lancers_offer(t);
  json st = step_of(t);
  CHECK(st["field"] == "charge");
  CHECK(st["now"] == true);  // step 1: the declaration is the turn's next step
  post(t, "charge-answer", {{"unit", "Lancers"}, {"answers", {{"charge", "yes"}}}});
  st = step_of(t);
  CHECK(st["field"] == "target");
  CHECK(st["question"] == "Which of your units does Lancers charge (its name)?");
  CHECK(st["yes_no"] == false);
  CHECK(st["sight"]["question"] == "Can Lancers' front rank see it?");  // asked next, for one screen
  post(t, "charge-answer", {{"unit", "Lancers"}, {"answers", {{"target", "Foot"}}}});
  st = step_of(t);
  CHECK(st["field"] == "visible");
  CHECK(st["question"] == "Can Lancers' front rank see Foot?");
  CHECK(st["yes_no"] == true);
  CHECK(st["target"] == "Foot");
  post(t, "charge-answer", {{"unit", "Lancers"}, {"answers", {{"visible", "yes"}}}});
  // Declared: the charge waits for the initiative (its -2 counted, L24).
  json s = status(t);
  st = s["units"][0]["charge_step"];
  CHECK(st["field"] == "form");
  CHECK(st["now"] == false);
  CHECK(st["declared"] == "Declared: Lancers charges Foot in its side's move, after the initiative.");
  CHECK(s["next_step"]["step"] == "initiative");
  CHECK(s["next_step"]["charges_declared"] == 1);
  CHECK(s["your_units"] == json({"Foot"}));  // the name, a tap next time
  // The target and its sight in one write, applied in solo play's order.
  {
    Table t2;
    const std::string f2 = lancers_offer(t2);
    post(t2, "charge-answer", {{"unit", "Lancers"}, {"answers", {{"visible", "yes"}, {"target", "Foot"}, {"charge", "yes"}}}});
    CHECK(body_of(t2.call("GET", "/api/sessions/game"))["result"]["units"][0]["charge_step"]["declared"] ==
          "Declared: Lancers charges Foot in its side's move, after the initiative.");
    const auto log = run_in_process({"solo", "log", f2, "--json"});
    std::vector<std::string> fields;
    for (const json& e : json::parse(log.out))
      if (e["event"] == "charge_answer") fields.push_back(e["field"].get<std::string>());
    CHECK(fields == std::vector<std::string>{"charge", "target", "visible"});
  }
  // The form's measures are asked once the initiative is rolled.
  post(t, "initiative", {{"your_roll", 3}});
  s = status(t);
  CHECK(s["units"][0]["charge_step"]["now"] == true);
  CHECK(s["next_step"]["step"] == "charge");
  // The charge goes at its declared target: the page sends no target, the session keeps it.
  const json r = post(t, "charge", {{"unit", "Lancers"}, {"distance", "60"}, {"defender", "heavy-foot"}});
  CHECK(r["result"]["charge"]["target_unit"] == "Foot");
  CHECK(r["result"]["charge"]["declined"] == false);
  CHECK(last_charge(file)["target_unit"] == "Foot");
  CHECK(status(t)["units"][0]["charge_pending"] == false);
}

TEST_CASE("web: a declared target its front rank cannot see is no declaration, said in solo play's words (seed 003 L34)",
          "[web][charge][003-L34-solo-visible]") {
  Table t;
  const std::string file = lancers_offer(t);
  post(t, "charge-answer", {{"unit", "Lancers"}, {"answers", {{"charge", "yes"}}}});
  post(t, "charge-answer", {{"unit", "Lancers"}, {"answers", {{"target", "Foot"}}}});
  REQUIRE(step_of(t)["field"] == "visible");
  const json r = post(t, "charge", {{"unit", "Lancers"}, {"not_visible", true}, {"target", "Foot"}});
  CHECK(r["result"]["outcome"] ==
        "No declaration: the target must be visible to the front rank of the charging unit. Lancers moves as the table says, without the charge.");
  CHECK(r["result"]["charge"]["declined"] == true);
  CHECK(r["result"]["charge"]["refused_rule"] == "003-L34-target-visible");
  const json c = last_charge(file);
  CHECK(c["declined"] == true);
  CHECK(c["target_unit"] == "Foot");
  const json s = status(t);
  CHECK(s["units"][0]["charge_pending"] == false);
  CHECK_FALSE(s["units"][0].contains("charge_step"));
  CHECK(s["next_step"]["step"] == "initiative");
  CHECK(s["next_step"]["charges_declared"] == 0);  // no -2 to the initiative
  // not_visible with the charge's measures is refused, nothing written.
  Table t2;
  const std::string file2 = lancers_offer(t2);
  const std::string before = slurp(file2);
  json bad{{"unit", "Lancers"}, {"not_visible", true}, {"distance", "20"}, {"defender", "heavy-foot"}};
  bad["rev"] = body_of(t2.call("GET", "/api/sessions/game"))["rev"];
  CHECK(t2.call("POST", "/api/sessions/game/charge", bad).status == 400);
  CHECK(slurp(file2) == before);
}

TEST_CASE("web: a declared target out of reach: the server asks whether another is within it, and the charge switches to it (seed 003 L56)",
          "[web][charge][003-L56-solo-switch-target]") {
  Table t;
  const std::string file = lancers_offer(t);
  declare(t, "Foot");
  post(t, "initiative", {{"your_roll", 3}});
  REQUIRE(step_of(t)["now"] == true);
  // The page's answers over the session's: Foot at 80 cm is beyond the
  // gallop's 75 cm: the switch is asked; at 40 cm it is not.
  const json far{{"distance", "80cm"}, {"defender", "heavy-foot"}, {"side", "front"}, {"both_charging", "no"},
                 {"pikes_facing", "no"}, {"path", "open"}};
  Reply r = t.call("POST", "/api/sessions/game/charge-step", {{"unit", "Lancers"}, {"answers", far}});
  REQUIRE(r.status == 200);
  json st = body_of(r);
  CHECK(st["field"] == "switch");
  CHECK(st["yes_no"] == true);
  CHECK(st["question"].get<std::string>().rfind(
            "Foot is out of reach. Was it within Lancers' charge range when the charge was declared, and is another of "
            "your units within it now (its nearest figure's base entirely within 75 cm (29.5 in)",
            0) == 0);
  json near = far;
  near["distance"] = "40cm";
  CHECK(body_of(t.call("POST", "/api/sessions/game/charge-step", {{"unit", "Lancers"}, {"answers", near}}))["field"] == "form");
  // Read-only: nothing written; a field the form does not have is refused.
  const std::string before = slurp(file);
  CHECK(t.call("POST", "/api/sessions/game/charge-step", {{"unit", "Lancers"}, {"answers", {{"colour", "red"}}}}).status == 400);
  CHECK(slurp(file) == before);
  // Yes: the answers and the switch in one write; the new target is asked next.
  json yes = far;
  yes["switch"] = "yes";
  post(t, "charge-answer", {{"unit", "Lancers"}, {"answers", yes}});
  st = step_of(t);
  CHECK(st["field"] == "target");
  CHECK(st["question"] == "Which of your units within its reach does Lancers charge instead (the nearest)?");
  post(t, "charge-answer", {{"unit", "Lancers"}, {"answers", {{"target", "Carabiniers"}}}});
  st = step_of(t);
  CHECK(st["field"] == "form");
  CHECK(st["now"] == true);
  CHECK(st["target"] == "Carabiniers");
  // Its measures, and the charge goes at it instead, the switch recorded
  // (the dice of tests/test_solo_charge_declared.cpp's solo play: 4 5, 3 4).
  const json c = post(t, "charge", {{"unit", "Lancers"}, {"distance", "40"}, {"defender", "medium-horse"},
                                    {"initiation", {4, 5}}, {"roll", {3, 4}}})["result"]["charge"];
  CHECK(c["target_unit"] == "Carabiniers");
  CHECK(c["switched_from"]["unit"] == "Foot");
  CHECK(c["switched_from"]["distance"] == "80cm");
  CHECK(c["reaches"] == true);
  CHECK(c["target_number"] == 6);  // Medium Horse against heavy cavalry (seed 003 L15)
  CHECK(c["stands"] == true);       // 3 + 4 = 7, as in solo play
  CHECK(contains(c["outcome"].get<std::string>(), "has moved out of its charge range"));
  CHECK(last_charge(file)["switched_from"]["unit"] == "Foot");
  CHECK(contains(slurp(file), "\nversion: 6\n"));
}

}  // namespace t_web_charge_declared
