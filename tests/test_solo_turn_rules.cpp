// `vedette solo play` and the step commands with the optional rules, read
// back and advised (the second half of tests/test_solo_turn.cpp, which
// plays the turn's steps): fear of charge and squares, the charge and melee
// commands' flags, a session's records replayed on their steps, and what
// the casualty and arc advice says.
#include <catch2/catch.hpp>

#include <string>

#include "engine/core/builtin_tables.hpp"
#include "engine/core/length.hpp"
#include "engine/decision/ruleset.hpp"
#include "sims/solo/session.hpp"
#include "sims/solo/solo_turn.hpp"
#include "solo_test_util.hpp"

namespace t_solo_turn_rules {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace solo_test;
using vedette::solo::Session;

namespace {

const std::string k_file = "game.vedette.yaml";

Session load(const TempDir& dir) { return Session::load(dir.path / k_file); }

}  // namespace

// The optional rules of the charge, when the ruleset turns them on, walked
// in the engine's order for the player's foot answering a charge that
// reaches: seed 001's Fear of Charge (cover that exempts; cover to flee to;
// the gut check), then seed 004's Infantry Square (no morale check; in the
// melee the square's die first, a 6 bounces the cavalry; else the cavalry
// strikes with one die and falls back, unable to break in).
namespace {

// A session on a ruleset with both optional rules, its Lancers activated on
// turn 2 with a "(Charge?)" (RF 1, D6 6), your dice.
void optional_rules_game(const TempDir& dir) {
  spit(dir.path / "both.yaml",
       "extends: builtin:default\ncharge:\n  fear_of_charge:\n    enabled: true\n  infantry_square:\n    enabled: true\n");
  run_ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock,heavy", "--ruleset", "both.yaml", "--seed", "5", "--physical-dice"});
  run_ok(dir, {"solo", "next-turn", "game"});
}

// Up to the charge's form: the activation, the offer (its target named and in sight), the initiative, the
// distance (30 cm: a charge move over 6 in), heavy foot in front, open ground.
const std::string k_to_charge = "n\ny\nn\n0\n6\ny\nFoot\n\n3\n4\n\n30\nheavy-foot\n\nn\nn\n\n";

}  // namespace

TEST_CASE("solo turn: fear of charge and an infantry square, when the ruleset turns them on (seeds 001, 004)",
          "[solo][play][turn][charge][001-L13-solo-fear][004-L26-solo-square]") {
  TempDir dir;
  optional_rules_game(dir);
  SECTION("the gut check passed, the square formed: no morale check; the square's die, the cavalry's one die, it falls back") {
    // Not exempt, no cover to flee to, square; dice: initiation 4 5, gut 3 5; melee: face 2, 1 hit; Lancers 1 hit.
    Result p = run({"solo", "play", "game"}, dir.path, k_to_charge + "n\nn\ny\n4 5\n3 5\n2\n1\n1\n");
    INFO(p.out << p.err);
    REQUIRE(p.status == 0);
    CHECK(contains(p.out, "Fear of Charge: is your unit in cover of 5 or better against the charge (not counting prone)?"));
    CHECK(contains(p.out, "If your unit fails its gut check, is there such cover within 10 cm (4 in) of it to flee to?"));
    CHECK(contains(p.out, "Infantry Square: does your unit form square to receive the charge? [y/N] y"));
    // The odds before the dice: 2D6 >= 7 is 21/36.
    CHECK(contains(p.out, "Fear of Charge: Heavy Foot take a gut check first, 2D6 needing 7+: chance to pass 7/12 = 58.3%"));
    CHECK(contains(p.out, "Roll 2D6 for your unit's gut check (it needs 7+) and enter the dice: 3 5"));
    CHECK_FALSE(contains(p.out, "defender's morale"));  // a square takes no morale check
    CHECK(contains(p.out, "Charge: Heavy Foot pass the gut check against charging horse ([3 5] = 8, needs 7+). Heavy Foot form square"));
    // The melee: the square's die first; Lancers strikes with at most 1 die.
    CHECK(contains(p.out, "Your square rolls first, at most 1 die: a 6 bounces Lancers back before it strikes; then Lancers strikes with 1 die"));
    CHECK(contains(p.out, "Roll 1 D6 for Lancers"));
    CHECK(contains(p.out, "Lancers cannot break into the square: it falls back 10 cm (4 in), facing it."));
    CHECK_FALSE(contains(p.out, "it is shaken"));  // 1 hit each: the square is not shaken
    Session s = load(dir);
    CHECK(s.memory(0).casualties == 1);
    CHECK(s.memory(0).charged_this_turn);
    CHECK(contains(slurp(dir.path / k_file), "fear: {exempt: false, dice: [3, 5], need: 7, passed: true, refuge: false}"));
    CHECK(contains(slurp(dir.path / k_file), "\nversion: 7\n"));  // version 4's fields, version 6's named target, version 7's move
  }
  SECTION("the gut check failed with cover to flee to: the charge finds no one and halts, no morale check, no melee") {
    Result p = run({"solo", "play", "game"}, dir.path, k_to_charge + "n\ny\nn\n4 5\n1 2\n");
    INFO(p.out << p.err);
    REQUIRE(p.status == 0);
    CHECK(contains(p.out, "Heavy Foot fail the gut check against charging horse ([1 2] = 3, needs 7+): they flee up to 10 cm (4 in) "
                          "into the cover you named. Lancers finds no one to strike and halts; no melee."));
    CHECK_FALSE(contains(p.out, "Melee:"));
    CHECK_FALSE(contains(p.out, "defender's morale"));
    CHECK_FALSE(load(dir).memory(0).contact);
  }
  SECTION("the gut check failed with no cover near: caught in the open, the morale check as usual") {
    Result p = run({"solo", "play", "game"}, dir.path, k_to_charge + "n\nn\nn\n4 5\n1 2\n6 6\n");
    INFO(p.out << p.err);
    REQUIRE(p.status == 0);
    CHECK(contains(p.out, "Heavy Foot fail the gut check ([1 2] = 3, needs 7+) with no cover within 10 cm (4 in): caught in the open, "
                          "the charge goes on. Heavy Foot STAND (6 + 6 = 12)"));
    CHECK(load(dir).memory(0).contact);
  }
  SECTION("cover good enough: no gut check; a square that bounces the cavalry") {
    Result p = run({"solo", "play", "game"}, dir.path, k_to_charge + "y\ny\n4 5\n6\n");
    INFO(p.out << p.err);
    REQUIRE(p.status == 0);
    CHECK_FALSE(contains(p.out, "is there such cover within"));  // exempt: the flee question cannot matter
    CHECK_FALSE(contains(p.out, "gut check (it needs"));
    CHECK(contains(p.out, "Heavy Foot are in cover good enough against charging horse: no gut check."));
    // A 6 bounces: no hits asked (the one die bounced), no dice for Lancers.
    CHECK_FALSE(contains(p.out, "How many hits did your square score"));
    CHECK_FALSE(contains(p.out, "Roll 1 D6 for Lancers"));
    CHECK(contains(p.out, "Lancers is bounced off the square before it can strike: it falls back 30 cm (11.75 in) (1 of its moves)."));
    CHECK(load(dir).memory(0).casualties == 0);
  }
}

// The same rules from the step commands, and what they refuse.
TEST_CASE("solo turn: the optional rules' flags of solo charge and solo melee, and what they refuse", "[solo][turn][charge]") {
  TempDir dir;
  optional_rules_game(dir);
  run_ok(dir, {"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "6"});
  auto refused = [&](const std::vector<std::string>& args, const std::string& says) {
    const std::string before = slurp(dir.path / k_file);
    Result r = run(args, dir.path);
    INFO(r.out << r.err);
    CHECK(r.status == 2);
    CHECK(contains(r.err, says));
    CHECK(slurp(dir.path / k_file) == before);
  };
  const std::vector<std::string> charge{"solo", "charge", "game", "Lancers", "--distance", "30cm", "--defender", "heavy-foot",
                                        "--initiation", "4", "5"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = charge;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  refused(with({"--square", "--both-charging"}), "only foot not charging too forms square");
  refused(with({"--square"}), "--gut-roll is needed with 2 dice");
  refused({"solo", "charge", "game", "Lancers", "--distance", "30cm", "--defender", "light-horse", "--initiation", "4", "5", "--square"},
          "only foot not charging too forms square");
  run_ok(dir, with({"--square", "--gut-roll", "5", "5"}));
  Result st = run({"solo", "status", "game", "--json"}, dir.path);
  REQUIRE(st.status == 0);
  CHECK(st.json()["next_step"]["step"] == "initiative");
  run_ok(dir, {"solo", "initiative", "game", "--total", "1", "--roll", "6"});
  run_ok(dir, {"solo", "end-move", "game"});  // your move (issue 28), then the melee
  const auto next = run({"solo", "status", "game", "--json"}, dir.path).json()["next_step"];
  CHECK(next["step"] == "melee");
  CHECK(next["square"] == true);
  CHECK(next["dice"] == 1);
  CHECK(next["bounce_faces"] == nlohmann::json({6}));
  refused({"solo", "melee", "game", "Lancers", "--their-hits", "0", "--hits", "1"}, "--square-dice is needed");
  refused({"solo", "melee", "game", "Lancers", "--their-hits", "0", "--square-dice", "7"}, "a face of the square's D6");
  // The bounce face scores no hit (seed 004): one die that bounced leaves
  // no die to hit with; and the square rolls at most max_battle_dice dice.
  refused({"solo", "melee", "game", "Lancers", "--their-hits", "1", "--square-dice", "6"}, "from 0 dice that did not show the bounce face");
  refused({"solo", "melee", "game", "Lancers", "--their-hits", "0", "--square-dice", "3", "--square-dice", "4"}, "the square rolls at most 1 die");
  Result me = run({"solo", "melee", "game", "Lancers", "--their-hits", "0", "--square-dice", "3", "--hits", "1", "--json"}, dir.path);
  INFO(me.err);
  REQUIRE(me.status == 0);
  CHECK(me.json()["result"] == "repulsed");
  CHECK(contains(me.json()["outcome"].get<std::string>(), "Your square scored fewer hits: it is shaken."));
  // On the default ruleset the flags are refused: the rules are off.
  run_ok(dir, {"solo", "new", "plain", "--unit", "Lancers:shock,heavy", "--seed", "5"});
  run_ok(dir, {"solo", "next-turn", "plain"});
  run_ok(dir, {"solo", "activate", "plain", "Lancers", "--enemy-in-range", "--roll", "6"});
  Result off = run({"solo", "charge", "plain", "Lancers", "--distance", "30cm", "--defender", "heavy-foot", "--square"}, dir.path);
  CHECK(off.status == 2);
  CHECK(contains(off.err, "this ruleset does not turn it on (charge.infantry_square.enabled)"));
}

// Issue 26: reading a session back replays its initiative, shooting, melee
// and rally records on their steps (solo::replay_steps), as the charges are
// replayed on the charge's procedure: a record the step does not give is
// refused where it stands (file, line), exit 2, and the file is left as it
// was.
TEST_CASE("solo turn: reading a session back replays its initiative, shooting and melee records on their steps",
          "[solo][turn][procedure]") {
  TempDir dir;
  run_ok(dir, {"solo", "new", "game", "--unit", "Hussars:shooting,weapon=carbine", "--unit", "Lancers:shock,heavy", "--seed", "5"});
  run_ok(dir, {"solo", "next-turn", "game"});
  run_ok(dir, {"solo", "activate", "game", "Hussars", "--enemy-in-range", "--roll", "6"});
  run_ok(dir, {"solo", "charge", "game", "Hussars", "--decline"});
  run_ok(dir, {"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "6"});
  run_ok(dir, {"solo", "charge", "game", "Lancers", "--distance", "20cm", "--defender", "heavy-foot", "--initiation", "5", "5",
           "--roll", "6", "6"});
  run_ok(dir, {"solo", "initiative", "game", "--total", "1", "--roll", "4"});  // 4 - 2 = 2 against 1: the cavalry
  run_ok(dir, {"solo", "shoot", "game", "Hussars", "--distance", "8cm"});      // the session's dice
  run_ok(dir, {"solo", "melee", "game", "Lancers", "--their-hits", "1"});      // the session's dice
  const auto file = dir.path / k_file;
  const std::string good = slurp(file);
  REQUIRE(run({"solo", "status", "game"}, dir.path).status == 0);
  // The record of event `kind` with `from` (within it) replaced by `to`.
  auto tampered = [&](const std::string& kind, const std::string& from, const std::string& to) {
    std::string text = good;
    const auto ev = text.find("event: " + kind + "\n");
    REQUIRE(ev != std::string::npos);
    const auto at = text.find(from, ev);
    REQUIRE(at != std::string::npos);
    REQUIRE(at < text.find("\n  - ", ev));  // within the same record
    text.replace(at, from.size(), to);
    return text;
  };
  auto refused = [&](const std::string& text, const std::string& says) {
    spit(file, text);
    const Result r = run({"solo", "status", "game"}, dir.path);
    INFO(r.out << r.err);
    CHECK(r.status == 2);
    CHECK(contains(r.err, "game.vedette.yaml:"));
    CHECK(contains(r.err, says));
    CHECK(slurp(file) == text);  // nothing written
  };
  refused(tampered("initiative", "result: cavalry", "result: player"),
          "result is recorded as 'player' but the step gives 'cavalry'");
  // Your unit's hits: 12 against the cavalry's (5 on this seed's dice) lose it the melee.
  refused(tampered("melee", "player_hits: \"1\"", "player_hits: \"12\""), "history #8 (melee): result is recorded as 'won' but the step gives 'lost'");
  // In cover the shot needs one more (6+): fewer of the recorded dice hit.
  refused(tampered("shooting", "cover: \"no\"", "cover: \"yes\""), "history #7 (shooting): score is recorded as");
  spit(file, good);
  CHECK(run({"solo", "status", "game"}, dir.path).status == 0);
}

// Issue 30: the casualty advice matches the target's type. Seed 002 L35
// ("Hits on Mounted figures are on the horse (1-4), or rider (5,6)") is for
// mounted figures only: a melee against horse says it, against foot not.
// The class is the one the charge named (seed 003's table, its kind).
TEST_CASE("solo turn: melee casualties on your unit say horse or rider only when it is mounted (seed 002 L35)",
          "[solo][turn][melee][002-L35-solo-advice]") {
  for (const std::string defender : {"heavy-horse", "heavy-foot"}) {
    TempDir dir;
    run_ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock,heavy,figures=10", "--seed", "4"});
    run_ok(dir, {"solo", "next-turn", "game"});
    run_ok(dir, {"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "6"});
    run_ok(dir, {"solo", "charge", "game", "Lancers", "--distance", "20cm", "--defender", defender, "--initiation", "6", "6", "--roll", "6",
             "6"});
    Result m = run({"solo", "melee", "game", "Lancers", "--their-hits", "1", "--hits", "3"}, dir.path);
    INFO(defender << ": " << m.out << m.err);
    REQUIRE(m.status == 0);
    CHECK(contains(m.out, "3 hits on your unit; yours scored 1."));
    if (defender == "heavy-horse") {
      CHECK(contains(m.out, "Remove 3 figures from your unit (mounted: for each, roll a D6: the horse on 1-4, the rider on 5-6; seed 002)."));
    } else {
      CHECK(contains(m.out, "Remove 3 figures from your unit. "));
      CHECK_FALSE(contains(m.out, "horse on"));
    }
  }
}

// `solo shoot` says what the target is with --target-is; without it the
// advice says where a hit falls "if it is mounted" (the web page's shot).
TEST_CASE("solo turn: solo shoot's casualty advice by --target-is (seed 002 L35)", "[solo][turn][shooting][002-L35-solo-advice]") {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"mounted", "Remove 2 figures from that unit (mounted: for each, roll a D6: the horse on 1-4, the rider on 5-6"},
      {"foot", "Remove 2 figures from that unit.\n"},
      {"", "Remove 2 figures from that unit (if it is mounted: for each, roll a D6: the horse on 1-4, the rider on 5-6"}};
  for (const auto& [kind, advice] : cases) {
    TempDir dir;
    run_ok(dir, {"solo", "new", "game", "--unit", "Hussars:shooting,weapon=carbine", "--seed", "3"});
    run_ok(dir, {"solo", "activate", "game", "Hussars", "--roll", "3"});  // RF 0, D6 3: stays at halt
    run_ok(dir, {"solo", "initiative", "game", "--total", "3"});
    std::vector<std::string> args{"solo", "shoot", "game", "Hussars", "--distance", "5cm", "--hits", "2"};
    if (!kind.empty()) args.insert(args.end(), {"--target-is", kind});
    Result r = run(args, dir.path);
    INFO(kind << ": " << r.out << r.err);
    REQUIRE(r.status == 0);
    CHECK(contains(r.out, advice));
    const std::string given = kind.empty() ? "yes" : kind;
    CHECK(std::get<vedette::solo::ShootingEvent>(load(dir).history().back().body).s.given.at("target") == given);
  }
  TempDir dir;
  run_ok(dir, {"solo", "new", "game", "--unit", "Hussars:shooting,weapon=carbine", "--seed", "3"});
  Result bad = run({"solo", "shoot", "game", "Hussars", "--distance", "5cm", "--target-is", "cavalry"}, dir.path);
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "--target-is"));
}

// Issue 30: `?` on the shooting question states the arc in words a player
// can check with the figures: seed 002 L27's front and left arc of moving
// cavalry, and 45 degrees either side for a unit halted or on foot.
TEST_CASE("solo turn: ? on the shooting question gives the arc in table words (seed 002 L27)",
          "[solo][play][turn][shooting][002-L27-solo-arc-words]") {
  TempDir dir;
  new_shooters_game(dir);
  const std::string script = k_shooters_turn1 +  // Hussars gallop, Dragoons halt
                             "?\nn\n"           // Hussars: the rule, then no target
                             "?\nn\n";          // Dragoons: the same
  Result p = run({"solo", "play", "game"}, dir.path, script);
  INFO(p.out << p.err);
  REQUIRE(p.status == 0);
  CHECK(contains(p.out, "Moving cavalry shoots only to its front and left. Take the line straight ahead from the middle of its front "
                        "edge: the enemy must not be to the right of that line, must be in front of the front edge, and no further "
                        "out to the left of the line than it is in front of the front edge (45 degrees)."));
  CHECK(contains(p.out, "In its arc: in front of its front edge, and no further out to the side of that edge than it is in front of "
                        "it (45 degrees either side of its facing)."));
  CHECK(contains(p.out, "Hussars has no enemy to shoot at."));
  CHECK(contains(p.out, "Dragoons has no enemy to shoot at."));
}

}  // namespace t_solo_turn_rules
