// The cavalry's own charge in the solo session, as seed 003 writes it
// (shared/seeds/003_c05595434dc6dc28.txt; issue 28): a halted unit's charge
// range (L42), on the engine's own functions (reaction_pace and
// reaction_allowance, engine/procedures/reaction_rules.hpp, which
// Battle::charge_allowance asks too).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "engine/procedures/reaction_rules.hpp"
#include "sims/solo/session.hpp"
#include "sims/solo/solo_turn.hpp"
#include "solo_test_util.hpp"

namespace t_solo_charge_declared {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace solo_test;
using nlohmann::json;
using namespace vedette;

namespace {

// A session in turn 2 (seed 003 L24: no declaration in turn 1) with one
// heavy Lancers unit, for the unit tests.
struct OneUnit {
  TempDir dir;
  solo::Session s;
  explicit OneUnit(const Ruleset& r)
      : s(dir / "g.vedette.yaml", [&] {
          solo::Header h;
          h.ruleset_path = "builtin:default";
          h.ruleset_hash = solo::ruleset_hash(r);
          h.seed = 1;
          solo::UnitSpec spec;
          spec.name = "Lancers";
          spec.type = "shock";
          spec.figures = 12;
          spec.weight = "heavy";
          h.units.push_back(spec);
          return h;
        }()) {
    s.append(solo::NextTurnEvent{});
  }
  // The activation the player's die `roll` gives with an enemy in range (RF1).
  solo::Activation activate(const Ruleset& r, int roll) {
    solo::Answers a;
    a[solo::Question::enemy_in_range] = 1;
    solo::Die die;
    die.dice = solo::DiceSource::player;
    die.roll = roll;
    const solo::Activation act = solo::decide_activation(r, s, 0, a, 0, die);
    s.append(solo::ActivateEvent{"Lancers", act});
    return act;
  }
};

void ok(const TempDir& dir, const std::vector<std::string>& args) {
  Result r = run(args, dir.path);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
}

// Turn 2, Lancers (heavy) at RF1; the player's die `roll` (4: "Continue
// current actions facing the nearest enemy (Charge?)" at its current pace,
// a halt in a new session; 6: "Advance towards nearest enemy at gallop
// (Charge?)").
json lancers_activate(const TempDir& dir, int roll) {
  ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock,heavy", "--seed", "21"});
  ok(dir, {"solo", "next-turn", "game"});
  Result a = run({"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", std::to_string(roll), "--json"}, dir.path);
  INFO(a.out << a.err);
  REQUIRE(a.status == 0);
  return a.json()["activation"];
}

}  // namespace

// Seed 003 L42: "A charging unit receives a 50% bonus to its movement
// allowance". The engine charges a unit the table halted at a walk
// (Engagement::activate: a halt is a walk; Battle::charge_allowance): its
// range is 1.5 times the walk's 30 cm, not the gallop's 50 cm.
TEST_CASE("solo charge: a halted unit's charge range is 1.5 times its walk, as the engine's (seed 003 L42)",
          "[solo][charge][003-L42-solo-halted-range]") {
  RulesetPtr r = default_ruleset();
  SECTION("halted by the table: the walk") {
    OneUnit g(*r);
    const solo::Activation a = g.activate(*r, 4);
    REQUIRE(a.charge_possible);
    REQUIRE(a.pace == Pace::halt);
    const Length move = solo::default_charge_move(*r, g.s, 0);
    CHECK(move.as_cm() == Approx(30));  // tables/default.yaml: walk up to 30 cm
    CHECK(move.as_cm() == Approx(reaction_allowance(*r, true, Length(), reaction_pace(*r, PaceFacts{}, Pace::halt)).as_cm()));
    solo::ChargeInputs in;
    in.attacker = AttackerWeight::heavy;
    in.move = move;
    in.distance = Length::cm(40);
    in.defender = DefenderClass::light_horse;
    solo::ChargePreview pv = solo::preview_charge(*r, in);
    CHECK(pv.geometry.max_range.as_cm() == Approx(45));
    CHECK(pv.geometry.reaches);  // 40 cm + the 5 cm base: within 45 cm
    in.distance = Length::cm(50);
    pv = solo::preview_charge(*r, in);
    CHECK_FALSE(pv.geometry.reaches);  // a gallop's 75 cm would reach it
    CHECK(pv.geometry.forced_move.as_cm() == Approx(45));
  }
  SECTION("at a gallop: the gallop") {
    OneUnit g(*r);
    const solo::Activation a = g.activate(*r, 6);
    REQUIRE(a.charge_possible);
    REQUIRE(a.pace == Pace::gallop);
    CHECK(solo::default_charge_move(*r, g.s, 0).as_cm() == Approx(50));
  }
  SECTION("not acted this turn: as halted") {
    OneUnit g(*r);
    CHECK(solo::default_charge_move(*r, g.s, 0).as_cm() == Approx(30));
  }
}

TEST_CASE("solo charge: through vedette solo, a halted unit's charge reaches 1.5 times its walk (seed 003 L42)",
          "[solo][charge][003-L42-solo-halted-range]") {
  SECTION("solo charge") {
    TempDir dir;
    json a = lancers_activate(dir, 4);
    REQUIRE(a["behaviour"]["pace"] == "halt");
    REQUIRE(a["behaviour"]["charge_possible"] == true);
    Result c = run({"solo", "charge", "game", "Lancers", "--distance", "42cm", "--defender", "light-horse", "--json"}, dir.path);
    INFO(c.out << c.err);
    REQUIRE(c.status == 0);
    CHECK(c.json()["charge"]["move"] == "30cm");
    CHECK(c.json()["charge"]["max_range"] == "45cm");
    CHECK(c.json()["charge"]["reaches"] == false);  // 42 cm + its 5 cm base is beyond 45 cm
    CHECK(c.json()["charge"]["forced_move"] == "45cm");
  }
  SECTION("solo charge at a gallop, the same distance") {
    TempDir dir;
    json a = lancers_activate(dir, 6);
    REQUIRE(a["behaviour"]["pace"] == "gallop");
    Result c = run({"solo", "charge", "game", "Lancers", "--distance", "42cm", "--defender", "light-horse", "--json"}, dir.path);
    INFO(c.out << c.err);
    REQUIRE(c.status == 0);
    CHECK(c.json()["charge"]["max_range"] == "75cm");
    CHECK(c.json()["charge"]["reaches"] == true);
  }
  SECTION("solo play's charge form says the walk's range") {
    TempDir dir;
    ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock,heavy", "--seed", "5"});
    ok(dir, {"solo", "next-turn", "game"});
    // Turn 2, RF1 and the player's 4: continue at its halt, facing the enemy (Charge?).
    const std::string script =
        "n\ny\nn\n0\n4\n"  // the questions and the D6
        "y\n"              // the offer: the charge is declared
        "Foot\n\n"         // its target (seed 003 L24), visible to its front rank (L34)
        "3\n4\n"           // initiative: the player's total, the cavalry's die
        "\n"               // your move: no unit of yours near the cavalry
        "30\nlight-horse\n\nn\n\n"  // the charge form: distance, class, front, not charging, open ground
        "4 5\n"            // the initiation check
        "3 4\n"            // the defender's 2D6
        "q\n";
    Result r = run({"solo", "play", "game", "--physical-dice"}, dir.path, script);
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    CHECK(contains(r.out, "Charge range: up to 45 cm (17.75 in), 1.5 x the 30 cm (11.75 in) move"));
    CHECK_FALSE(contains(r.out, "Charge range: up to 75 cm"));
  }
}

namespace {

// Turn 2 of a session with heavy Lancers at a gallop, "(Charge?)" (RF1, the
// player's 6), played through `solo play` with the player's dice.
Result play_lancers(const TempDir& dir, const std::string& after_offer) {
  ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock,heavy", "--seed", "5"});
  ok(dir, {"solo", "next-turn", "game"});
  Result r = run({"solo", "play", "game", "--physical-dice"}, dir.path, "n\ny\nn\n0\n6\ny\n" + after_offer);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  return r;
}

json last_charge(const TempDir& dir) {
  json events = run({"solo", "log", "game", "--json"}, dir.path).json();
  for (auto it = events.rbegin(); it != events.rend(); ++it)
    if ((*it)["event"] == "charge") return (*it)["charge"];
  FAIL("no charge in the log");
  return {};
}

}  // namespace

// Seed 003 L24: "When declaring a charge, a player also indicates the enemy
// unit that will be the target of the charge." The "(Charge?)" yes asks which
// of the player's units; the session keeps it and the charge, after the
// initiative, is measured to it and recorded against it.
TEST_CASE("solo play: the declaration names its target, and the charge goes at it (seed 003 L24)",
          "[solo][charge][play][003-L24-solo-names-target]") {
  TempDir dir;
  Result r = play_lancers(dir,
                          "Foot\n"             // the target (L24)
                          "\n"                 // visible to the front rank: yes (L34)
                          "3\n4\n"             // initiative: your total, the cavalry's die
                          "\n"                 // your move: no unit of yours near the cavalry
                          "60\nheavy-foot\n\nn\nn\n\n"  // the charge form
                          "4 5\n3 4\nq\n");
  const std::string& o = r.out;
  const auto declared = o.find("Declared: Lancers charges in its side's move, after the initiative.");
  const auto named = o.find("Which of your units does Lancers charge (its name)? Foot");
  const auto seen = o.find("Can Lancers' front rank see Foot? [Y/n]");
  const auto initiative = o.find("-2 (1 charge declared)");
  const auto measured = o.find("Distance from Lancers' front to the near edge of Foot's nearest figure");
  REQUIRE(declared != std::string::npos);
  REQUIRE(named != std::string::npos);
  REQUIRE(seen != std::string::npos);
  REQUIRE(initiative != std::string::npos);
  REQUIRE(measured != std::string::npos);
  CHECK(declared < named);
  CHECK(named < seen);
  CHECK(seen < initiative);  // in step 1, before the initiative
  CHECK(initiative < measured);
  const json c = last_charge(dir);
  CHECK(c["declined"] == false);
  CHECK(c["target_unit"] == "Foot");
  CHECK(c["stands"] == false);
  // The file holds the answer (version 6; the end of your move, version 7)
  // and reads back.
  const std::string text = slurp(dir.path / "game.vedette.yaml");
  CHECK(contains(text, "\nversion: 7\n"));
  CHECK(contains(text, "target_unit: \"Foot\""));
  CHECK(run({"solo", "status", "game"}, dir.path).status == 0);
}

// Seed 003 L34: "the declared target unit must be visible to the front rank
// of the charging unit": not visible, no declaration (charge_gate's
// 003-L34-target-visible), so no -2 to the initiative either.
TEST_CASE("solo play: a declared target not visible to the front rank means no declaration (seed 003 L34)",
          "[solo][charge][play][003-L34-solo-visible]") {
  TempDir dir;
  Result r = play_lancers(dir, "Foot\nn\n3\n4\nq\n");
  CHECK(contains(r.out, "Can Lancers' front rank see Foot? [Y/n] n"));
  // (solo play says the rules without their citations, issue 30; the rule's id stays.)
  CHECK(contains(r.out, "No declaration: the target must be visible to the front rank of the charging unit "
                        "[003-L34-target-visible]. Lancers moves as the table says, without the charge."));
  CHECK_FALSE(contains(r.out, "charge declared)"));  // no -2 to the initiative
  CHECK_FALSE(contains(r.out, "Distance from Lancers' front"));
  const json c = last_charge(dir);
  CHECK(c["declined"] == true);
  CHECK(c["refused_rule"] == "003-L34-target-visible");
  CHECK(c["target_unit"] == "Foot");
  // The single command says the same.
  TempDir two;
  json a = lancers_activate(two, 6);
  REQUIRE(a["behaviour"]["charge_possible"] == true);
  Result c2 = run({"solo", "charge", "game", "Lancers", "--target", "Foot", "--not-visible"}, two.path);
  INFO(c2.out << c2.err);
  REQUIRE(c2.status == 0);
  CHECK(contains(c2.out, "No declaration: the target must be visible to the front rank of the charging unit (seed 003) "
                         "[003-L34-target-visible]. Lancers does not charge."));
  Result st = run({"solo", "status", "game", "--json"}, two.path);
  CHECK(st.json()["units"][0]["charge_pending"] == false);
}

// Seed 003 L56: "If more than one enemy unit lies within a unit's charge
// range, and the enemy unit that had been designated as the target of a
// charge is allowed to move out of charge range, then another enemy unit
// within range must be charged instead." The engine's
// Engagement::charge_reach answers the charge procedure's reach with the
// nearest other enemy in reach (after the initiation check); the session
// asks the player, and answers it with that unit's class and side.
TEST_CASE("solo play: a declared target out of reach gives way to another enemy within it (seed 003 L56)",
          "[solo][charge][play][003-L56-solo-switch-target]") {
  TempDir dir;
  Result r = play_lancers(dir,
                          "Foot\n\n3\n4\n\n"
                          "80\nheavy-foot\n\nn\nn\n\n"  // Foot at 80 cm: out of the gallop's 75 cm
                          "y\n"                          // moved out of range, another within it (L56)
                          "Carabiniers\n"                // the nearest within reach
                          "40\nmedium-horse\n\nn\n\n"    // its distance, class, front, not charging, open ground
                          "4 5\n3 4\nq\n");
  const std::string& o = r.out;
  CHECK(contains(o, "Foot is out of reach. Was it within Lancers' charge range when the charge was declared, and is another of "
                    "your units within it now (its nearest figure's base entirely within 75 cm (29.5 in)"));
  CHECK(contains(o, "The charge goes at the nearest of your units within reach instead: its name and measures."));
  CHECK(contains(o, "Which of your units within its reach does Lancers charge instead (the nearest)? Carabiniers"));
  CHECK(contains(o, "Distance from Lancers' front to the near edge of Carabiniers' nearest figure"));
  CHECK(contains(o, "Target: 40 cm (15.75 in) away: in range and in the arc: it reaches, with the charge bonus."));
  CHECK(contains(o, "Charge: Lancers' declared target Foot has moved out of its charge range (80 cm (31.5 in) away): it "
                    "charges Carabiniers, another enemy within its reach, instead. Medium Horse STAND (3 + 4 = 7)"));
  CHECK_FALSE(contains(o, "does not reach"));
  const json c = last_charge(dir);
  CHECK(contains(c["outcome"].get<std::string>(), "instead (seed 003 L56)."));  // the record keeps the citation
  CHECK(c["target_unit"] == "Carabiniers");
  CHECK(c["switched_from"]["unit"] == "Foot");
  CHECK(c["switched_from"]["distance"] == "80cm");
  CHECK(c["defender"] == "medium-horse");
  CHECK(c["reaches"] == true);
  CHECK(c["shaken"] == false);
  // Medium Horse against heavy cavalry needs 6 (seed 003 L15); 3 + 4 = 7 stands.
  CHECK(c["target_number"] == 6);
  CHECK(c["stands"] == true);
}

TEST_CASE("solo play: a target out of reach and no other within it: the charge falls short (seed 003 L56)",
          "[solo][charge][play][003-L56-solo-switch-target]") {
  TempDir dir;
  Result r = play_lancers(dir, "Foot\n\n3\n4\n\n80\nheavy-foot\n\nn\nn\n\nn\n4 5\nq\n");
  CHECK(contains(r.out, "Foot is out of reach. Was it within Lancers' charge range"));
  CHECK(contains(r.out, "it does NOT reach"));
  const json c = last_charge(dir);
  CHECK(c["reaches"] == false);
  CHECK(c["shaken"] == true);
  CHECK(c["target_unit"] == "Foot");
  CHECK_FALSE(c.contains("switched_from"));
}

TEST_CASE("solo charge: --switched-from says the declared target moved out of range and the charge goes at another (seed 003 L56)",
          "[solo][charge][003-L56-solo-switch-target]") {
  TempDir dir;
  json a = lancers_activate(dir, 6);
  REQUIRE(a["behaviour"]["charge_possible"] == true);
  Result bad = run({"solo", "charge", "game", "Lancers", "--switched-from", "Foot=far", "--distance", "40cm", "--defender",
                    "medium-horse"},
                   dir.path);
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "--switched-from"));
  Result c = run({"solo", "charge", "game", "Lancers", "--target", "Carabiniers", "--switched-from", "Foot=80cm", "--distance",
                  "40cm", "--defender", "medium-horse", "--json"},
                 dir.path);
  INFO(c.out << c.err);
  REQUIRE(c.status == 0);
  CHECK(c.json()["charge"]["switched_from"]["unit"] == "Foot");
  CHECK(c.json()["charge"]["reaches"] == true);
  CHECK(contains(c.json()["charge"]["outcome"].get<std::string>(), "(seed 003 L56)"));
}

// Version 6 (issue 28): a file without the declaration's target, its sight
// or a switch keeps its version; with one it is version 6; a version 5 file
// holding one is refused, located.
TEST_CASE("solo files: older sessions load and keep their version until a named target is written", "[solo][files]") {
  TempDir dir;
  const fs::path file = dir.path / "game.vedette.yaml";
  json a = lancers_activate(dir, 6);
  REQUIRE(a["behaviour"]["charge_possible"] == true);
  ok(dir, {"solo", "charge", "game", "Lancers", "--distance", "40cm", "--defender", "heavy-foot"});
  const std::string v2 = slurp(file);
  REQUIRE(contains(v2, "\nversion: 2\n"));  // an initiation check, nothing newer
  CHECK(vedette::solo::Session::load(file).text() == v2);
  ok(dir, {"solo", "status", "game"});
  CHECK(slurp(file) == v2);
  // Taken back and charged again naming its target (seed 003 L24): version 6.
  ok(dir, {"solo", "undo", "game"});
  CHECK(contains(slurp(file), "\nversion: 2\n"));
  ok(dir, {"solo", "charge", "game", "Lancers", "--target", "Foot", "--distance", "40cm", "--defender", "heavy-foot"});
  const std::string v6 = slurp(file);
  CHECK(contains(v6, "\nversion: 6\n"));
  CHECK(contains(v6, "target_unit: \"Foot\""));
  // The same file said to be version 5: refused where the field stands, nothing written.
  std::string wrong = v6;
  wrong.replace(wrong.find("\nversion: 6\n"), 12, "\nversion: 5\n");
  spit(file, wrong);
  Result bad = run({"solo", "status", "game"}, dir.path);
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "target_unit is of session version 6, but this file says version 5"));
  CHECK(slurp(file) == wrong);
}

}  // namespace t_solo_charge_declared
