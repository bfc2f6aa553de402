// `vedette solo play` walks the automated cavalry's whole turn (issue 16):
// activations (with the charge declarations), initiative, charges, shooting,
// melee, morale and rally, the end-of-turn summary. Each rule is the
// engine's (engine/procedures/table_rules.hpp); these tests play it the way
// a player does, through piped answers, and check the numbers against the
// session's own dice. tests/test_solo_equivalence.cpp checks the same steps
// against the simulation; tests/test_solo_turn_rules.cpp plays the optional
// rules, the read-back and the advice.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>

#include "engine/core/builtin_tables.hpp"
#include "engine/core/length.hpp"
#include "engine/decision/ruleset.hpp"
#include "sims/solo/session.hpp"
#include "sims/solo/solo_turn.hpp"
#include "solo_test_util.hpp"

namespace t_solo_turn {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace solo_test;
using vedette::solo::Session;

namespace {

const std::string k_file = "game.vedette.yaml";

void ok(const TempDir& dir, const std::vector<std::string>& args) {
  Result r = run(args, dir.path);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
}

int hits(const std::vector<int>& dice, int need) {
  int h = 0;
  for (int d : dice) h += d >= need;
  return h;
}

Session load(const TempDir& dir) { return Session::load(dir.path / k_file); }


}  // namespace

// Issue 16's targets: a plain activation in at most 4 questions. Play is
// given exactly the answers and then end of input: had it needed one more,
// it would stop on Lancers (the quit message names what comes next).
TEST_CASE("solo turn: a plain activation takes at most 4 questions", "[solo][play][turn][prompts]") {
  TempDir dir;
  ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock,heavy", "--seed", "4"});
  ok(dir, {"solo", "next-turn", "game"});  // turn 2: "retreating from melee?" could be asked, and is not (steady)
  Result r = run({"solo", "play", "game"}, dir.path, "n\ny\nn\n0\n");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(contains(r.out, "Is Lancers entirely in cover? [y/N] n\n"));
  CHECK(contains(r.out, "weapons range? [y/N] y\n"));
  CHECK(contains(r.out, "flank or rear, and in sight? [y/N] n\n"));
  CHECK(contains(r.out, "(figures wounded or killed since last asked)? [0] 0\nRisk factor"));
  CHECK_FALSE(contains(r.out, "retreating as a result of melee"));
  CHECK_FALSE(contains(r.out, "next: Lancers' activation)."));  // the activation was complete
  CHECK(load(dir).memory(0).acted_in_turn == 2);
}

namespace {

// The seed of a session whose turn-2 charge by Lancers (shock, heavy, 10
// figures) on elite foot 20 cm away passes its initiation check and stands,
// and whose melee dice (roll #2) give the cavalry a number of hits `want`
// accepts. Rolls: #0 the initiative, #1 the charge (morale then initiation
// dice), #2 the melee.
template <class Want>
std::uint64_t charge_seed(Want want) {
  using namespace vedette;
  RulesetPtr r = default_ruleset();
  solo::ChargeInputs in;
  in.attacker = AttackerWeight::heavy;
  in.move = Length::cm(50);  // the top of the gallop (combat.charge.allowance: pace)
  in.distance = Length::cm(20);
  in.defender = DefenderClass::elite_foot;
  const int need = solo::preview_charge(*r, in).target.target;
  for (std::uint64_t s = 1; s < 5000; ++s) {
    const auto c = solo::solo_roll_charge(s, 1);
    if (c[2] + c[3] >= 4 && c[0] + c[1] >= need && want(hits(solo::solo_roll_dice(s, 2, 10), 4))) return s;
  }
  return 0;
}

// Plays that charge through `solo play` with the player's unit scoring 2
// hits; returns the output.
std::string play_charge(const TempDir& dir, std::uint64_t seed) {
  using namespace vedette;
  ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock,heavy,figures=10", "--seed", std::to_string(seed)});
  ok(dir, {"solo", "next-turn", "game"});
  ok(dir, {"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "6"});  // gallop, (Charge?)
  const std::string script = "y\n"            // 1 the offer: declared
                             "Foot\n"         // 2 its target (seed 003 L24)
                             "\n"             // 3 visible to its front rank (L34)
                             "6\n"            //   the initiative (the turn's, not the charge's): you move first
                             "\n"             //   your move (the turn's): no unit of yours near the cavalry
                             "20\n"           // 4 distance
                             "elite-foot\n"   // 5 defender
                             "\n"             // 6 front
                             "n\n"            // 7 both charging
                             "n\n"            // 8 pikes
                             "\n"             // 9 open ground on the way
                             "2\n";           // 10 the hits the player's unit scored
  Result p = run({"solo", "play", "game"}, dir.path, script);
  INFO(p.out << p.err);
  REQUIRE(p.status == 0);
  CHECK(contains(p.out, "-2 (1 charge declared)"));  // seed 003 L24
  CHECK(contains(p.out, "STAND"));
  CHECK(contains(p.out, "Lancers fights with 10 dice needing 4+ on each die (the usual 5+, +1 to each die)"));
  CHECK_FALSE(contains(p.out, "next: Lancers' charge"));
  CHECK_FALSE(contains(p.out, "next: Lancers' melee"));  // all 10 answers used, none missing
  Session s = load(dir);
  CHECK(s.memory(0).casualties == 2);
  // The melee's dice are the session's roll #2, checked when the file is read.
  const auto& last = s.history().back();
  REQUIRE(std::holds_alternative<solo::MeleeEvent>(last.body));
  CHECK(std::get<solo::MeleeEvent>(last.body).s.dice == solo::solo_roll_dice(seed, 2, 10));
  CHECK(std::get<solo::MeleeEvent>(last.body).s.roll_index == 2u);
  return p.out;
}

}  // namespace

// A charge and its aftermath in at most 8 prompts (issue 16): the offer,
// distance, defender, side, both charging, pikes, the terrain on the way,
// and the hits the player's unit scored in the melee: 8, with the session's
// dice (pikes only for foot charged in front). (The initiative,
// asked once a turn between the declaration and the charge, is the turn's.)
// Seed 003: a charge that stands goes into melee with the charge bonus
// (shock +1, seed 002); the melee is the engine's (combat.melee): more hits
// wins, the loser falls back 1.5 of its moves and must rally, a victorious
// charger follows through the balance of its charge move.
TEST_CASE("solo turn: a charge that stands goes into melee, in 8 prompts (seed 003 follow-through, seed 002 +1 charging)",
          "[solo][play][turn][prompts][003-L3-solo-follow-through]") {
  // The cavalry wins: more than the player's 2 hits.
  const std::uint64_t seed = charge_seed([](int mine) { return mine > 2; });
  REQUIRE(seed);
  TempDir dir;
  const std::string out = play_charge(dir, seed);
  const int mine = hits(vedette::solo::solo_roll_dice(seed, 2, 10), 4);  // 5+ less shock cavalry's +1 charging
  REQUIRE(mine > 2);
  CHECK(contains(out, ": " + std::to_string(mine) + " hits on your unit; yours scored 2."));
  CHECK(contains(out, "Lancers wins: your unit falls back 1.5 of its moves, backs to the enemy, and must rally."));
  // The balance of a 75 cm charge range after 20 cm: 55 cm.
  CHECK(contains(out, "Lancers follows through up to 55 cm (21.75 in) (the balance of its charge move)"));
  CHECK(load(dir).memory(0).morale == vedette::solo::Morale::steady);
  // A winner did not retreat: next turn it is not known to be retreating.
  Result q = run({"solo", "play", "game"}, dir.path, "y\n");
  INFO(q.out);
  CHECK(contains(q.out, "Start turn 3?"));
  CHECK(load(dir).memory(0).pending[vedette::solo::Question::retreated_from_melee] != 1);
}

// Seed 002 L53: "+3 ... retreating as a result of melee": a unit that lost
// the session's own melee and fell back is known to be retreating next
// turn, so play does not ask (and counts it).
TEST_CASE("solo turn: a unit that fell back from the session's own melee counts as retreating next turn, unasked (seed 002 L53)",
          "[solo][play][turn][002-L53-solo-retreating]") {
  const std::uint64_t seed = charge_seed([](int mine) { return mine < 2; });
  REQUIRE(seed);
  TempDir dir;
  const std::string out = play_charge(dir, seed);
  const int mine = hits(vedette::solo::solo_roll_dice(seed, 2, 10), 4);
  REQUIRE(mine < 2);
  CHECK(contains(out, "Lancers loses: it falls back 45 cm (17.75 in) (1.5 moves), backs to your unit, and must rally."));
  CHECK(load(dir).memory(0).morale == vedette::solo::Morale::rallying);
  // The next turn (after the rally question: an enemy is near, it stays
  // rallying): the fall back is known, so the question is not asked.
  Result q = run({"solo", "play", "game"}, dir.path, "y\ny\n");
  INFO(q.out);
  CHECK(contains(q.out, "Lancers cannot rally"));
  CHECK(contains(q.out, "Start turn 3?"));
  CHECK(contains(q.out, "=== Turn 3 ==="));
  CHECK_FALSE(contains(q.out, "retreating as a result of melee"));
  CHECK(load(dir).memory(0).pending[vedette::solo::Question::retreated_from_melee] == 1);
  // Issue 30: the memory line says what the session knows, and "already
  // answered" only what the player answered: that question was never asked.
  CHECK(contains(q.out, "fell back from a melee last turn, so retreating from melee; rallying"));
  CHECK_FALSE(contains(q.out, "already answered: retreating from melee"));
  CHECK_FALSE(contains(q.out, "already answered"));
  CHECK_FALSE(load(dir).memory(0).answered[vedette::solo::Question::retreated_from_melee]);
}

namespace {

// A tie: the charger is repulsed (combat.melee.tie_fall_back) and falls back.
std::uint64_t tie_seed() { return charge_seed([](int mine) { return mine == 2; }); }

}  // namespace

TEST_CASE("solo turn: a tie in the session's own melee repulses the charger, who then counts as retreating",
          "[solo][play][turn]") {
  const std::uint64_t seed = tie_seed();
  REQUIRE(seed);
  TempDir dir;
  const std::string out = play_charge(dir, seed);
  CHECK(contains(out, "A tie: Lancers is repulsed and falls back 10 cm (4 in), facing your unit."));
  Result q = run({"solo", "play", "game"}, dir.path, "y\n");
  INFO(q.out);
  CHECK(load(dir).memory(0).pending[vedette::solo::Question::retreated_from_melee] == 1);
}

// combat.morale.rout_losses_pct (a choice: 50%): at the end of the turn a
// unit that has lost half its figures routs, without a question; it no
// longer acts, and the summary says it flees.
TEST_CASE("solo turn: a unit at half its figures routs at the end of the turn and no longer acts",
          "[solo][play][turn][rout]") {
  TempDir dir;
  ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock,figures=10", "--unit", "Hussars:shock,figures=10", "--seed", "9"});
  // Lancers: 5 new casualties (50%); Hussars: none; the player's initiative 3; your move: none.
  Result p = run({"solo", "play", "game"}, dir.path, "n\nn\nn\n5\nn\nn\nn\n0\n3\n\ny\n");
  INFO(p.out << p.err);
  REQUIRE(p.status == 0);
  CHECK(contains(p.out, "Lancers ROUTS: it has lost 5 of 10 figures (a unit routs at 50%)."));
  CHECK_FALSE(contains(p.out, "Hussars ROUTS"));
  CHECK(contains(p.out, "Lancers: 5 of 10 figures, routed: flees toward its own edge."));
  Session s = load(dir);
  CHECK(s.memory(0).morale == vedette::solo::Morale::routed);
  CHECK(s.state().turn == 2);
  // Turn 2: only Hussars is asked about; Lancers cannot be activated.
  Result q = run({"solo", "play", "game"}, dir.path, "q\n");
  CHECK(contains(q.out, "--- Hussars"));
  CHECK_FALSE(contains(q.out, "--- Lancers"));
  Result a = run({"solo", "activate", "game", "Lancers", "--roll", "3"}, dir.path);
  CHECK(a.status == 2);
  CHECK(contains(a.err, "Lancers has routed: it flees toward its own edge and no longer acts"));
  // Status offers it no activation, in words and to the page
  // (Session::why_cannot_act): the page shows no "Activate" for it.
  Result st = run({"solo", "status", "game"}, dir.path);
  REQUIRE(st.status == 0);
  CHECK(contains(st.out, "      Lancers has routed: it flees toward its own edge and no longer acts\n"));
  CHECK(st.out.find("to act this turn") == st.out.rfind("to act this turn"));  // Hussars only
  CHECK(contains(st.out, "to act this turn"));
  Result js = run({"solo", "status", "game", "--json"}, dir.path);
  REQUIRE(js.status == 0);
  const nlohmann::json j = nlohmann::json::parse(js.out);
  CHECK(j["units"][0]["may_act"] == false);
  CHECK(j["units"][0]["why_cannot_act"] == "Lancers has routed: it flees toward its own edge and no longer acts");
  CHECK(j["units"][1]["may_act"] == true);
  CHECK(j["units"][1]["why_cannot_act"].is_null());
  // The file says version 7 (a routed unit is version 3; play ended your
  // move, version 7), and reads back byte for byte.
  CHECK(contains(slurp(dir.path / k_file), "\nversion: 7\n"));
  CHECK(load(dir).text() == slurp(dir.path / k_file));
}

// combat.morale.rally_target (choice: 7) and rally_enemy_clear (15 cm): a
// shaken unit with no enemy that close rallies on 2D6 >= 7 at the end of
// the turn; with an enemy near it does not roll.
TEST_CASE("solo turn: a shaken unit rallies on 2D6 against the ruleset's target, only with no enemy near",
          "[solo][play][turn][rally]") {
  for (bool near : {false, true}) {
    TempDir dir;
    ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock", "--seed", "11"});
    ok(dir, {"solo", "morale", "game", "Lancers", "shaken"});
    // Turn 1: the activation (4 answers), the initiative, your move (none), the rally question.
    Result p = run({"solo", "play", "game"}, dir.path, std::string("n\nn\nn\n0\n3\n\n") + (near ? "y\n" : "n\n") + "y\n");
    INFO(p.out << p.err);
    REQUIRE(p.status == 0);
    CHECK(contains(p.out, "Morale: Lancers is shaken. Is any enemy within 15 cm (6 in) of it? [y/N] "));
    const vedette::solo::Morale after = load(dir).memory(0).morale;
    if (near) {
      CHECK(contains(p.out, "Lancers cannot rally: an enemy is within 15 cm (6 in); it stays shaken."));
      CHECK(after == vedette::solo::Morale::shaken);
    } else {
      // Rolls: #0 the activation, #1 the initiative, #2 the rally.
      const std::vector<int> d = vedette::solo::solo_roll_dice(11, 2, 2);
      const int total = d[0] + d[1];
      CHECK(contains(p.out, "Lancers rallies on 2D6 7+: [" + std::to_string(d[0]) + " " + std::to_string(d[1]) + "] = " +
                                std::to_string(total)));
      CHECK(after == (total >= 7 ? vedette::solo::Morale::steady : vedette::solo::Morale::shaken));
    }
  }
}

// The turn sequence (docs/turn-sequence.md): shooting is step 4, morale and
// rally step 6. A unit that must rally does not shoot at step 4; rallied at
// step 6, it has not a shot after it.
TEST_CASE("solo turn: a unit that rallies in the morale step does not shoot after it (turn sequence steps 4 and 6)",
          "[solo][turn][rally][shooting]") {
  TempDir dir;
  ok(dir, {"solo", "new", "game", "--unit", "Hussars:shooting,light", "--seed", "1", "--physical-dice"});
  ok(dir, {"solo", "morale", "game", "Hussars", "rallying"});
  ok(dir, {"solo", "activate", "game", "Hussars", "--roll", "4"});
  ok(dir, {"solo", "initiative", "game", "--total", "6", "--roll", "1"});
  ok(dir, {"solo", "end-move", "game"});
  Result st = run({"solo", "status", "game"}, dir.path);
  CHECK(contains(st.out, "Next: Hussars' morale"));
  Result early = run({"solo", "shoot", "game", "Hussars", "--distance", "10cm", "--hits", "1"}, dir.path);
  CHECK(early.status == 2);
  CHECK(contains(early.err, "Hussars must rally"));
  ok(dir, {"solo", "rally", "game", "Hussars", "--roll", "4", "4"});  // 8 >= 7: back in good order
  CHECK(load(dir).memory(0).morale == vedette::solo::Morale::steady);
  Result after = run({"solo", "status", "game"}, dir.path);
  INFO(after.out);
  CHECK(contains(after.out, "Next: the next turn"));
  CHECK_FALSE(contains(after.out, "shooting"));
  const std::string before = slurp(dir.path / k_file);
  Result late = run({"solo", "shoot", "game", "Hussars", "--distance", "10cm", "--hits", "1"}, dir.path);
  CHECK(late.status == 2);
  CHECK(contains(late.err, "Hussars does not shoot this turn: Hussars rallied in this turn's morale step, after the shooting"));
  CHECK(slurp(dir.path / k_file) == before);
}

// Seed 002: mounted shooters count one range band further (L29); mounted
// infantry never shoots mounted (L31): the automated unit dismounts when the
// table halts it (combat.dismount.on_halt, seed 001: it takes its move) and
// shoots on foot. Moving cavalry shoots front and left (L27).
TEST_CASE("solo turn: shooting - mounted one band further, mounted infantry dismounts to shoot (seed 002)",
          "[solo][play][turn][shooting][002-L29-solo-band-further][002-L31-solo-dismount][002-L27-solo-arc-words][002-L35-solo-advice]") {
  TempDir dir;
  new_shooters_game(dir);
  const std::string script = k_shooters_turn1 +     // Hussars gallop, Dragoons halt
                             "y\n15\nn\n2\ny\n"   // Hussars: a target, 15 cm, no cover, 2 hits, mounted
                             "y\n15\nn\n1\nn\n";  // Dragoons: the same, 1 hit, on foot
  Result p = run({"solo", "play", "game"}, dir.path, script);
  INFO(p.out << p.err);
  REQUIRE(p.status == 0);
  CHECK(contains(p.out, "Do:    Dragoons: Halt"));
  // Who chooses a distance inside the pace: the player (issue 16).
  CHECK(contains(p.out, "You choose the exact distance within the gallop's 41-50 cm (16.25-19.75 in)."));
  // The main lines cite no seed; the log does (and --verbose).
  CHECK_FALSE(contains(p.out, "seed 00"));
  CHECK(contains(run({"solo", "log", "game"}, dir.path).out, "dismounts (its whole move, seed 001)"));
  // Hussars, mounted and moving: carbine 10/20/30 cm, one band further: 15 cm is band 3 (6+); reach 20 cm.
  // Seed 002 L27's arc in table words (issue 30): no degrees to measure.
  CHECK(contains(p.out, "Is the nearest enemy Hussars can see within 20 cm (7.75 in) of its front, to its left front (not to the right "
                        "of straight ahead, and no further out to the left than it is in front)?"));
  CHECK(contains(p.out, "Hussars shoots Carbine at your nearest unit it can see (15 cm (6 in), range band 3, counted 1 further as it is mounted): 4 dice needing 6+ = 2 hits."));
  // Issue 30: the casualty advice by the target's type. A mounted target:
  // seed 002 L35's horse or rider; on foot, figures only.
  CHECK(contains(p.out, "Is that enemy mounted (horse figures)? [y/N] y"));
  CHECK(contains(p.out, "= 2 hits. Remove 2 figures from that unit (mounted: for each, roll a D6: the horse on 1-4, the rider on 5-6)."));
  // Dragoons dismount: musket 20/40 cm on foot, 15 cm is band 1 (5+); 8 figures: 3 dice.
  CHECK(contains(p.out, "Shooting: Dragoons (Musket, on foot: it dismounts to shoot)"));
  CHECK(contains(p.out, "Is the nearest enemy Dragoons can see within 40 cm (15.75 in) of its front, in front of it (no further out to "
                        "the side of its front edge than it is in front of it)?"));
  CHECK(contains(p.out, "Dragoons dismounts (its whole move) and shoots Musket at your nearest unit it can see (15 cm (6 in), range band 1): 3 dice needing 5+ = 1 hit. Remove 1 figure from that unit.\n"));
  // The arcs in words a tape settles (issue 30): no degrees either side.
  CHECK_FALSE(contains(p.out, "degrees either side"));
  CHECK_FALSE(contains(p.out, "degrees left"));
  const std::string log = run({"solo", "log", "game"}, dir.path).out;
  CHECK(contains(log, "the horse on 1-4, the rider on 5-6; seed 002)."));
  CHECK(contains(p.out, "All units have acted in turn 1."));
  Session s = load(dir);
  int shots = 0;
  for (const auto& e : s.history()) shots += std::holds_alternative<vedette::solo::ShootingEvent>(e.body);
  CHECK(shots == 2);
}

// Seed 001: mounting or dismounting takes one action (here the unit's whole
// move). The session remembers a dismounted unit on foot: halted, it
// shoots on foot without dismounting again; when the table moves it, it
// mounts instead (no move, no charge, no shot). The rule is the engine's
// (mounted_infantry_order), the bot asks it too.
TEST_CASE("solo turn: mounted infantry stays on foot, and mounting takes its whole move (seed 001)",
          "[solo][play][turn][shooting][001-L3-solo-mount][002-L31-solo-dismount]") {
  TempDir dir;
  new_shooters_game(dir);
  const std::string turn1 = k_shooters_turn1 +      // Hussars gallop, Dragoons halt
                            "y\n15\nn\n2\nn\n"  // Hussars shoot (at foot)
                            "y\n15\nn\n1\nn\n"  // Dragoons dismount and shoot
                            "y\n";
  const std::string turn2 = "n\ny\nn\n0\n3\n"  // Hussars halt
                            "n\ny\nn\n0\n3\n"  // Dragoons halt: stay on foot
                            "3\n4\n\n"  // the initiative; your move: none
                            "n\n"              // Hussars: no target
                            "y\n15\nn\n2\nn\n"  // Dragoons shoot on foot
                            "y\n";
  const std::string turn3 = "n\ny\nn\n0\n3\n"  // Hussars halt
                            "n\ny\nn\n0\n6\n"  // Dragoons: the table's gallop (Charge?): it mounts
                            "3\n4\n\n"  // the initiative; your move: none
                            "n\n";  // Hussars: no target; Dragoons has no shooting step
  Result p = run({"solo", "play", "game"}, dir.path, turn1 + turn2 + turn3);
  INFO(p.out << p.err);
  REQUIRE(p.status == 0);
  const auto turn = [&](int n) {
    const auto from = p.out.find("=== Turn " + std::to_string(n) + " ===");
    const auto to = p.out.find("=== Turn " + std::to_string(n + 1) + " ===");
    return from == std::string::npos ? std::string() : p.out.substr(from, to == std::string::npos ? to : to - from);
  };
  CHECK(contains(turn(1), "Dragoons: 8 of 8 figures, steady, halted, on foot (it mounts, its whole move, before it moves again)."));
  // Turn 2: halted on foot, it shoots on foot and does not dismount again.
  const std::string t2 = turn(2);
  CHECK(contains(t2, "    at halt, on foot (it mounts, its whole move, before it moves)\n"));
  CHECK(contains(t2, "Do:    Dragoons: On foot: Halt in position, facing the nearest enemy."));
  CHECK(contains(t2, "Shooting: Dragoons (Musket, on foot)\n"));
  CHECK(contains(t2, "Dragoons shoots Musket at your nearest unit it can see (15 cm (6 in), range band 1): 3 dice needing 5+ = 2 hits."));
  CHECK_FALSE(contains(t2, "dismounts"));
  // Turn 3: the table moves it, so it mounts: its whole move, no charge, no shot.
  const std::string t3 = turn(3);
  CHECK(contains(t3, "Table: Advance towards nearest enemy at gallop (Charge?)"));
  CHECK(contains(t3, "Do:    Dragoons: Mount: Dragoons mounts its horses, its whole move, and stays where it is."));
  CHECK(contains(t3, "No charge: on foot, it must mount (its whole move) before it can charge."));
  CHECK_FALSE(contains(t3, "You choose the exact distance"));
  CHECK_FALSE(contains(t3, "Shooting: Dragoons"));
  CHECK(contains(t3, "Dragoons: 8 of 8 figures, steady, halted, mounted again (its whole move)."));
  // The session's memory, and the file: version 4's dismount, version 7's
  // end of your move, read back the same.
  Session s = load(dir);
  CHECK_FALSE(s.memory(1).on_foot);
  CHECK(s.memory(1).pace == vedette::Pace::halt);
  CHECK_FALSE(s.memory(1).charged_this_turn);
  const std::string text = slurp(dir.path / k_file);
  CHECK(contains(text, "\nversion: 7\n"));
  CHECK(contains(text, "dismounted: true"));
  CHECK(contains(text, "on_foot: true"));
  CHECK(s.text() == text);
  Result st = run({"solo", "status", "game", "--json"}, dir.path);
  REQUIRE(st.status == 0);
  CHECK(st.json()["units"][1]["on_foot"] == false);
  // Undo the mount: on foot again, and the status says so.
  int undone = 0;
  while (!load(dir).memory(1).on_foot && undone < 4) {  // Hussars' shot, your move, the initiative, Dragoons' activation
    ok(dir, {"solo", "undo", "game"});
    ++undone;
  }
  CHECK(undone == 4);
  CHECK(load(dir).memory(1).acted_in_turn == 2);
  CHECK(run({"solo", "status", "game", "--json"}, dir.path).json()["units"][1]["on_foot"] == true);
}

// A moving mounted-infantry unit has no shooting step (seed 002: never
// shoots mounted), and a unit with no weapon has none either.
TEST_CASE("solo turn: mounted infantry on the move and units without a weapon do not shoot", "[solo][play][turn][shooting]") {
  TempDir dir;
  ok(dir, {"solo", "new", "game", "--unit", "Dragoons:mounted-infantry,weapon=musket", "--unit", "Lancers:shock", "--seed",
           "3", "--physical-dice"});
  Result p = run({"solo", "play", "game"}, dir.path, "n\ny\nn\n0\n1\nn\ny\nn\n0\n1\n3\n4\n\nq\n");
  INFO(p.out << p.err);
  REQUIRE(p.status == 0);
  CHECK_FALSE(contains(p.out, "Do:    Dragoons: Halt"));
  CHECK_FALSE(contains(p.out, "Shooting:"));
  CHECK(contains(p.out, "Start turn 2?"));
}

// The same steps one command each (`solo initiative`, `shoot`, `melee`,
// `rally`), for scripts and the web page; `solo status --json` names the
// next step with its prompt. Bad input is refused (exit 2) with nothing
// written.
TEST_CASE("solo turn: the step commands, status's next step, and what they refuse", "[solo][turn][commands]") {
  TempDir dir;
  ok(dir, {"solo", "new", "game", "--unit", "Hussars:shooting,weapon=carbine", "--unit", "Lancers:shock,heavy", "--seed", "5"});
  ok(dir, {"solo", "next-turn", "game"});
  ok(dir, {"solo", "activate", "game", "Hussars", "--enemy-in-range", "--roll", "6"});
  ok(dir, {"solo", "charge", "game", "Hussars", "--decline"});
  ok(dir, {"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "6"});
  auto next = [&] { return run({"solo", "status", "game", "--json"}, dir.path).json()["next_step"]; };
  auto refused = [&](const std::vector<std::string>& args, const std::string& says) {
    const std::string before = slurp(dir.path / k_file);
    Result r = run(args, dir.path);
    INFO(r.out << r.err);
    CHECK(r.status == 2);
    CHECK(contains(r.err, says));
    CHECK(slurp(dir.path / k_file) == before);
  };
  CHECK(next()["step"] == "charge");
  // Seed 003: the declaration (the charge) comes before the initiative.
  refused({"solo", "initiative", "game", "--total", "3"}, "Lancers' \"(Charge?)\" is not answered yet");
  ok(dir, {"solo", "charge", "game", "Lancers", "--distance", "20cm", "--defender", "heavy-foot", "--initiation", "5", "5",
           "--roll", "6", "6"});
  CHECK(next()["step"] == "initiative");
  CHECK(next()["charges_declared"] == 1);
  CHECK(contains(run({"solo", "status", "game"}, dir.path).out, "Next: the initiative (`solo initiative`)"));
  refused({"solo", "initiative", "game", "--total", "3", "--roll", "3", "4"}, "the initiative is 1 D6");
  Result in = run({"solo", "initiative", "game", "--total", "1", "--roll", "4", "--json"}, dir.path);
  INFO(in.err);
  REQUIRE(in.status == 0);
  CHECK(in.json()["result"] == "cavalry");  // 4 - 2 = 2 against 1
  CHECK(contains(in.json()["outcome"].get<std::string>(), "the cavalry rolls [4] -2 (1 charge declared) = 2, your side 1"));
  refused({"solo", "initiative", "game", "--total", "3"}, "already rolled");
  // The cavalry moved first and its charge is made: your move (issue 28),
  // before the shooting.
  CHECK(next()["step"] == "your_move");
  CHECK(contains(run({"solo", "status", "game"}, dir.path).out, "Next: your move"));
  ok(dir, {"solo", "end-move", "game"});
  // Shooting: the prompt from the server, the distance checked against the reach.
  nlohmann::json n = next();
  CHECK(n["step"] == "shooting");
  CHECK(n["unit"] == "Hussars");
  CHECK(n["reach"] == "20cm");
  refused({"solo", "shoot", "game", "Hussars", "--distance", "90cm"}, "beyond Hussars' reach of 20 cm (7.75 in)");
  // Just past the reach: the answer is echoed exactly, the reach to the tape's mark (issue 30).
  refused({"solo", "shoot", "game", "Hussars", "--distance", "20.2cm"}, "--distance 20.2cm: beyond Hussars' reach of 20 cm (7.75 in)");
  refused({"solo", "shoot", "game", "Hussars"}, "give --distance L");
  refused({"solo", "shoot", "game", "Lancers", "--distance", "5cm"}, "Lancers does not shoot this turn");
  Result sh = run({"solo", "shoot", "game", "Hussars", "--distance", "8cm", "--hits", "2", "--json"}, dir.path);
  INFO(sh.err);
  REQUIRE(sh.status == 0);
  CHECK(sh.json()["score"] == 2);
  CHECK(sh.json()["need"] == 5);  // carbine 0-10 cm is band 1 (4+); mounted, band 2: 5+
  // Melee after the charge that stood (6 + 6).
  CHECK(next()["step"] == "melee");
  refused({"solo", "melee", "game", "Hussars", "--their-hits", "1"}, "Hussars is in no melee this turn");
  refused({"solo", "melee", "game", "Lancers", "--their-hits", "1", "--hits", "40"}, "--hits: 40 of 12 dice");
  Result me = run({"solo", "melee", "game", "Lancers", "--their-hits", "20", "--hits", "3", "--json"}, dir.path);
  INFO(me.err);
  REQUIRE(me.status == 0);
  CHECK(me.json()["casualties"] == 12);  // more hits than figures: all of them
  CHECK(contains(me.json()["outcome"].get<std::string>(), "it is destroyed"));
  CHECK(next()["step"] == "next_turn");
  refused({"solo", "rally", "game", "Hussars"}, "Hussars has nothing to rally from");
  // Undo cannot fish: a step redone after an undo uses the dice it rolled.
  ok(dir, {"solo", "undo", "game"});  // the melee and the shot, both with the player's hits
  ok(dir, {"solo", "undo", "game"});
  Result rolled = run({"solo", "shoot", "game", "Hussars", "--distance", "8cm", "--json"}, dir.path);
  REQUIRE(rolled.status == 0);
  const auto first = rolled.json()["dice"];
  ok(dir, {"solo", "undo", "game"});
  refused({"solo", "shoot", "game", "Hussars", "--distance", "8cm", "--hits", "4"}, "shooting dice were already rolled this turn");
  Result again = run({"solo", "shoot", "game", "Hussars", "--distance", "8cm", "--json"}, dir.path);
  REQUIRE(again.status == 0);
  CHECK(again.json()["dice"] == first);
  // The file reads back byte for byte.
  CHECK(load(dir).text() == slurp(dir.path / k_file));
}

// Seed 003 L7: "if both units are charging, both must check morale" (the
// engine's Engagement::charge: the defender first, then the charger,
// whatever the defender rolled). A charger that fails falls back 1.5 of its
// own moves and must rally, and there is no melee; next turn it is
// retreating as a result of it (seed 002 L53), known without a question.
TEST_CASE("solo turn: both charging, the charger checks its own morale too (seed 003)",
          "[solo][turn][charge][003-L7-solo-both-check]") {
  TempDir dir;
  ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock,light", "--seed", "8", "--physical-dice"});
  ok(dir, {"solo", "next-turn", "game"});
  ok(dir, {"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "6"});
  // Without the charger's dice the command says what it needs, and writes nothing.
  const std::string before = slurp(dir.path / k_file);
  Result missing = run({"solo", "charge", "game", "Lancers", "--distance", "20cm", "--defender", "heavy-horse", "--both-charging",
                        "--initiation", "5", "5", "--roll", "6", "6"},
                       dir.path);
  CHECK(missing.status == 2);
  CHECK(contains(missing.err, "--charger-roll A B is needed: both charging, Lancers checks its own morale on 2D6 too"));
  CHECK(slurp(dir.path / k_file) == before);
  // Heavy horse (the defender) stands on 6 + 6; light horse charged by heavy: 7, both charging +2: 5+; 1 + 1 fails;
  // it falls back 1.5 of its moves (a move on horse: the top of the walk, 30 cm).
  Result c = run({"solo", "charge", "game", "Lancers", "--distance", "20cm", "--defender", "heavy-horse", "--both-charging",
                  "--initiation", "5", "5", "--roll", "6", "6", "--charger-roll", "1", "1", "--json"},
                 dir.path);
  INFO(c.out << c.err);
  REQUIRE(c.status == 0);
  const auto j = c.json();
  CHECK(j["charge"]["charger_check"]["need"] == 5);
  CHECK(j["charge"]["charger_check"]["stands"] == false);
  CHECK(contains(j["charge"]["outcome"].get<std::string>(),
                 "Both charging, Lancers checks too (needs 5+): 1 + 1 = 2, it FAILS: it falls back 45 cm (17.75 in) (1.5 moves, backs to "
                 "the enemy, and must rally). No melee."));
  Session s = load(dir);
  CHECK(s.memory(0).morale == vedette::solo::Morale::rallying);
  CHECK_FALSE(s.memory(0).contact);  // no melee step
  CHECK(contains(slurp(dir.path / k_file), "\nversion: 3\n"));
  CHECK(s.text() == slurp(dir.path / k_file));
  // Next turn: retreating as a result of it, not asked.
  ok(dir, {"solo", "initiative", "game", "--total", "3", "--roll", "4"});
  ok(dir, {"solo", "rally", "game", "Lancers", "--enemy-near"});
  ok(dir, {"solo", "next-turn", "game"});
  CHECK(load(dir).memory(0).pending[vedette::solo::Question::retreated_from_melee] == 1);
  // solo activate uses what the session knows: +3, running or retreating (seed 002).
  Result act = run({"solo", "activate", "game", "Lancers", "--roll", "3", "--json"}, dir.path);
  INFO(act.err);
  REQUIRE(act.status == 0);
  CHECK(act.json()["activation"]["facts"]["retreated_from_melee"] == true);
}

// combat.melee (choices beside seed 003): more hits wins; the loser falls
// back 1.5 of its moves and must rally; on a tie the charger is repulsed
// 10 cm, facing the enemy, not shaken; a winning charger follows through.
// Each case through `solo melee` with the player's dice.
TEST_CASE("solo turn: the melee's three results, with the player's dice", "[solo][turn][melee]") {
  struct Case {
    int mine, theirs;
    std::string says;
    vedette::solo::Morale after;
    bool fell_back;
  };
  const std::vector<Case> cases{
      {3, 1, "Lancers wins: your unit falls back 1.5 of its moves, backs to the enemy, and must rally. Lancers follows through up to 55 cm (21.75 in)",
       vedette::solo::Morale::steady, false},
      {1, 3, "Lancers loses: it falls back 45 cm (17.75 in) (1.5 moves), backs to your unit, and must rally.", vedette::solo::Morale::rallying, true},
      {2, 2, "A tie: Lancers is repulsed and falls back 10 cm (4 in), facing your unit.", vedette::solo::Morale::steady, true},
  };
  for (const Case& k : cases) {
    TempDir dir;
    ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock,heavy", "--seed", "8", "--physical-dice"});
    ok(dir, {"solo", "next-turn", "game"});
    ok(dir, {"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "6"});
    ok(dir, {"solo", "charge", "game", "Lancers", "--distance", "20cm", "--defender", "heavy-foot", "--initiation", "5", "5", "--roll", "6", "6"});
    ok(dir, {"solo", "initiative", "game", "--total", "3", "--roll", "4"});
    Result m = run({"solo", "melee", "game", "Lancers", "--their-hits", std::to_string(k.theirs), "--hits", std::to_string(k.mine)}, dir.path);
    INFO(m.out << m.err);
    REQUIRE(m.status == 0);
    CHECK(contains(m.out, k.says));
    Session s = load(dir);
    CHECK(s.memory(0).morale == k.after);
    CHECK(s.memory(0).casualties == k.theirs);
    CHECK(s.memory(0).fell_back_this_turn == k.fell_back);
  }
}

// Seed 003's terrain at the table (the player says what lies on the way;
// with_path() in engine/decision/charge.hpp, as the engine reads its board):
// L70 no charge uphill and L62 no target in special terrain (the charge
// does not reach: it still moves forward and is shaken); L68 an obstacle
// calls for a second initiation check, and failing it the charge halts
// there, not shaken, with no melee.
TEST_CASE("solo turn: uphill, into terrain and an obstacle on the way of a charge (seed 003)",
          "[solo][turn][charge][003-L70-solo-no-uphill][003-L62-solo-target-in-terrain][003-L68-solo-obstacle]") {
  auto charge = [](const std::vector<std::string>& extra) {
    auto dir = std::make_unique<TempDir>();
    ok(*dir, {"solo", "new", "game", "--unit", "Lancers:shock,heavy", "--seed", "8", "--physical-dice"});
    ok(*dir, {"solo", "next-turn", "game"});
    ok(*dir, {"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "6"});
    std::vector<std::string> args{"solo", "charge", "game", "Lancers", "--distance", "20cm", "--defender", "heavy-foot",
                                  "--initiation", "5", "5", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    Result r = run(args, dir->path);
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    return std::pair{std::move(dir), r.json()["charge"]};
  };
  for (const char* path : {"uphill", "into-terrain"}) {
    auto [dir, c] = charge({"--path", path});
    CHECK(c["reaches"] == false);
    CHECK(c["shaken"] == true);
    CHECK(contains(c["outcome"].get<std::string>(), std::string(path) == "uphill" ? "a charge may not climb" : "the target stands in terrain"));
    CHECK(contains(c["outcome"].get<std::string>(), "must still move 75 cm (29.5 in) forward toward the target and becomes shaken."));
    CHECK(load(*dir).memory(0).morale == vedette::solo::Morale::shaken);
  }
  {
    // The obstacle check fails (1 + 2 = 3, needs 4): halts, not shaken, no melee, no morale check.
    auto [dir, c] = charge({"--path", "obstacle", "--obstacle-roll", "1", "2"});
    CHECK(c["obstacle_check"]["passed"] == false);
    CHECK(contains(c["outcome"].get<std::string>(), "it halts at the obstacle, not shaken"));
    Session s = load(*dir);
    CHECK(s.memory(0).morale == vedette::solo::Morale::steady);
    CHECK_FALSE(s.memory(0).contact);
    CHECK(s.memory(0).charged_this_turn);  // it moved a charge move: normal speed next turn
    CHECK(contains(slurp(dir->path / k_file), "obstacle_check: {dice: [1, 2], need: 4, passed: false}"));
  }
  {
    // Passed (4 + 4): the charge goes on to the defender's check and the melee.
    auto [dir, c] = charge({"--path", "obstacle", "--obstacle-roll", "4", "4", "--roll", "6", "6"});
    CHECK(c["obstacle_check"]["passed"] == true);
    CHECK(c["stands"] == true);
    CHECK(load(*dir).memory(0).contact);
  }
  // With your own dice, the obstacle's are asked for.
  TempDir dir;
  ok(dir, {"solo", "new", "game", "--unit", "Lancers:shock,heavy", "--seed", "8", "--physical-dice"});
  ok(dir, {"solo", "next-turn", "game"});
  ok(dir, {"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "6"});
  Result missing = run({"solo", "charge", "game", "Lancers", "--distance", "20cm", "--defender", "heavy-foot", "--path", "obstacle",
                        "--initiation", "5", "5", "--roll", "6", "6"},
                       dir.path);
  CHECK(missing.status == 2);
  CHECK(contains(missing.err, "--obstacle-roll A B is needed"));
  Result bad = run({"solo", "charge", "game", "Lancers", "--distance", "20cm", "--defender", "heavy-foot", "--path", "swamp"}, dir.path);
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "--path"));
}

}  // namespace t_solo_turn
