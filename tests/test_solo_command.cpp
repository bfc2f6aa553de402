// The typed solo commands (sims/solo/solo_command.hpp): solo::apply() on a
// session in memory, one command at a time, and the session afterwards.
// The command line, `solo play` and the web page are these same calls; their
// own tests (test_solo*.cpp, test_web.cpp) check the outputs byte for byte.
#include <catch2/catch.hpp>

#include <string>

#include "engine/core/builtin_tables.hpp"
#include "engine/decision/ruleset.hpp"
#include "sims/solo/session.hpp"
#include "sims/solo/solo_command.hpp"
#include "sims/solo/solo_turn.hpp"

namespace t_solo_command {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;
using namespace vedette::solo;

namespace {

struct Game {
  RulesetPtr rules = default_ruleset();
  Session s;
  explicit Game(std::uint64_t seed = 7, bool physical = false)
      : s("command-test.vedette.yaml", header(seed, physical)) {}
  Header header(std::uint64_t seed, bool physical) const {
    Header h;
    h.ruleset_path = "builtin:default";
    h.ruleset_hash = ruleset_hash(*rules);
    h.seed = seed;
    h.physical_dice = physical;
    UnitSpec lancers;
    lancers.name = "Lancers";
    lancers.type = "shock";
    lancers.weight = "heavy";
    lancers.figures = 12;
    UnitSpec dragoons;
    dragoons.name = "Dragoons";
    dragoons.type = "shooting";
    dragoons.weapon = "carbine";
    dragoons.figures = 10;
    h.units = {lancers, dragoons};
    return h;
  }
  Applied operator()(const Command& c) { return apply(s, *rules, c); }
  // The command is refused with these words, and nothing is appended.
  void refused(const Command& c, const std::string& words) {
    const std::size_t before = s.history().size();
    try {
      (void)apply(s, *rules, c);
      FAIL("apply() took a command it should refuse (" << words << ")");
    } catch (const CommandError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(words) != std::string::npos);
    }
    CHECK(s.history().size() == before);
  }
};

Activate activate(const std::string& unit) {
  Activate a;
  a.unit = unit;
  return a;
}

}  // namespace

TEST_CASE("solo command: activate decides with the session die and records the unit turn", "[solo][command]") {
  Game g;
  Activate a = activate("lancers");  // a unique case-insensitive match names the unit
  a.cover = true;
  const Applied r = g(a);
  REQUIRE(r.events.size() == 1);
  REQUIRE(r.unit == std::size_t{0});
  const Activation& act = std::get<ActivateEvent>(g.s.event(r.events[0]).body).a;
  CHECK(act.roll == solo_roll(7, 0));  // roll #0 of the session's seed
  CHECK(act.in_cover);
  CHECK(act.asked.empty());  // given as flags, not asked
  CHECK(g.s.memory(0).acted_in_turn == 1);
  CHECK(g.s.next_roll() == 1);
  const auto j = applied_json(g.s, a, r);
  CHECK(j["unit"] == "Lancers");
  CHECK(j["event"] == r.events[0]);
  CHECK(j["activation"]["roll"] == act.roll);
  g.refused(activate("Lancers"), "has already acted in turn 1");
  g.refused(activate("Nobody"), "no unit named 'Nobody'");
  Activate too_many = activate("Dragoons");
  too_many.casualties = 11;
  g.refused(too_many, "Dragoons has 10 figures left");
}

TEST_CASE("solo command: the answers play gave are the activation facts and are recorded as asked", "[solo][command]") {
  Game g;
  g(Answer{"Lancers", Question::enemy_in_range, 1});
  g(Answer{"Lancers", Question::new_casualties, 2});
  CHECK(g.s.memory(0).pending[Question::enemy_in_range] == 1);
  Activate a = activate("Lancers");
  a.from_answers = true;
  a.cover = true;  // unused: the answers are the facts
  const Applied r = g(a);
  const Activation& act = std::get<ActivateEvent>(g.s.event(r.events.back()).body).a;
  CHECK(act.enemy_in_range);
  CHECK_FALSE(act.in_cover);
  CHECK(act.casualties == 2);  // the answer counted them already (as play always has)
  CHECK(act.asked == std::vector<Question>{Question::enemy_in_range, Question::new_casualties});
  CHECK(g.s.memory(0).casualties == 2);
}

TEST_CASE("solo command: with physical dice the player die is needed", "[solo][command]") {
  Game g(7, true);
  g.refused(activate("Lancers"), "this session uses physical dice");
  Activate a = activate("Lancers");
  a.roll = 5;
  const int n = g(a).events.back();
  CHECK(std::get<ActivateEvent>(g.s.event(n).body).a.roll == 5);
  CHECK(std::get<ActivateEvent>(g.s.event(n).body).a.dice == DiceSource::player);
  CHECK(g.s.next_roll() == 0);  // nothing rolled
}

TEST_CASE("solo command: undo takes the activation back and redo brings it back with the history keeping both", "[solo][command]") {
  Game g;
  const int act = g(activate("Lancers")).events.back();
  const int die = std::get<ActivateEvent>(g.s.event(act).body).a.roll;
  Applied u = g(Undo{1});
  CHECK(u.targets == std::vector<int>{act});
  CHECK(g.s.memory(0).acted_in_turn == 0);
  CHECK_FALSE(g.s.in_effect(act));
  CHECK(std::holds_alternative<UndoEvent>(g.s.event(u.events[0]).body));
  g.refused(Undo{1}, "undo 1: only 0 step(s) can be undone");
  Applied r = g(Redo{1});
  CHECK(r.targets == std::vector<int>{act});
  CHECK(g.s.memory(0).acted_in_turn == 1);
  g.refused(Redo{2}, "redo 2: only 0 step(s) can be redone");
  // Activated again after an undo: the same die (the session's rule).
  g(Undo{1});
  const int again = g(activate("Lancers")).events.back();
  CHECK(std::get<ActivateEvent>(g.s.event(again).body).a.roll == die);
  CHECK(g.s.history().size() == 5);
}

TEST_CASE("solo command: casualties add up and a total corrects and too many is refused", "[solo][command]") {
  Game g;
  Applied r = g(Casualties{"Lancers", 3, false});
  CHECK(r.added == 3);
  CHECK(g.s.memory(0).casualties == 3);
  r = g(Casualties{"Lancers", 1, true});
  CHECK(r.added == -2);
  CHECK(g.s.memory(0).casualties == 1);
  CHECK(std::get<CasualtiesEvent>(g.s.event(r.events.back()).body).added == -2);
  g.refused(Casualties{"Lancers", 12, false}, "Lancers has 11 of its 12 figures left (1 lost so far): 12 more would make 13 casualties, more than it has");
  const auto j = applied_json(g.s, Casualties{"Lancers", 1, true}, r);
  CHECK(j["casualties"] == 1);
  CHECK(j["added"] == -2);
}

TEST_CASE("solo command: morale is recorded and an unknown state is refused", "[solo][command]") {
  Game g;
  g(SetMorale{"Dragoons", "shaken", "lost its officer"});
  CHECK(g.s.memory(1).morale == Morale::shaken);
  g.refused(SetMorale{"Dragoons", "wobbly", ""}, "expected steady, shaken, rallying or routed, got 'wobbly'");
  g.refused(SetMorale{"Dragoons", "steady", "bad\x01"}, "--reason must be printable text");
}

TEST_CASE("solo command: the next turn names who did not act", "[solo][command]") {
  Game g;
  g(activate("Lancers"));
  const Applied r = g(NextTurn{});
  CHECK(r.ended_turn == 1);
  CHECK(r.did_not_act == std::vector<std::string>{"Dragoons"});
  CHECK(g.s.state().turn == 2);
  CHECK(g.s.memory(0).acted_in_turn == 1);
}

TEST_CASE("solo command: the initiative takes the player total against the rolled cavalry dice", "[solo][command][003]") {
  Game g;
  Initiative i;
  i.total = 6;
  const Applied r = g(i);
  const StepRecord& rec = std::get<InitiativeEvent>(g.s.event(r.events.back()).body).s;
  const int n = g.rules->combat.initiative.dice;
  REQUIRE(rec.roll_index.has_value());
  CHECK(rec.dice == solo_roll_dice(7, *rec.roll_index, n));
  CHECK(g.s.state().initiative_turn == 1);
  CHECK(g.s.state().first_this_turn == (rec.result == "cavalry" ? 0 : 1));
  Initiative both;
  both.total = 3;
  both.your_roll = 4;
  Game h;
  h.refused(both, "give --total (your side's initiative) or --your-roll N");
  Initiative wrong;
  wrong.total = 3;
  wrong.roll = std::vector<int>(static_cast<std::size_t>(n + 1), 3);
  h.refused(wrong, "--roll: the initiative is");
  // Your side rolls the same dice (combat.initiative.dice D6): a roll or a
  // total above their most, or a roll below their least, cannot be (as
  // solo play asks within the same).
  Initiative high;
  high.total = 6 * n + 1;
  h.refused(high, "--total " + std::to_string(6 * n + 1) + ": your side's initiative is " + std::to_string(n) + " D6");
  Initiative roll_high;
  roll_high.your_roll = 6 * n + 1;
  h.refused(roll_high, "--your-roll " + std::to_string(6 * n + 1) + ": your side's initiative is");
  Initiative roll_low;
  roll_low.your_roll = n - 1;
  h.refused(roll_low, "--your-roll " + std::to_string(n - 1) + ": your side's initiative is");
}

TEST_CASE("solo command: shooting without a target and refused for a unit that does not shoot", "[solo][command][002]") {
  Game g;
  g(activate("Dragoons"));
  g(activate("Lancers"));
  Shoot none;
  none.unit = "Dragoons";
  none.no_target = true;
  const ShootingChance chance = shooting_chance(*g.rules, g.s, 1);
  if (chance.weapon) {
    const Applied r = g(none);
    const StepRecord& rec = std::get<ShootingEvent>(g.s.event(r.events.back()).body).s;
    CHECK(rec.result == "none");
    CHECK(g.s.memory(1).shot_in_turn == 1);
  } else {
    g.refused(none, "Dragoons does not shoot this turn: " + chance.why_not);
  }
  Shoot lancers;
  lancers.unit = "Lancers";
  lancers.no_target = true;
  g.refused(lancers, "Lancers does not shoot this turn");
  Shoot both;
  both.unit = "Dragoons";
  both.distance = "20cm";
  both.no_target = true;
  if (chance.weapon) g.refused(both, "give --distance L (to the nearest enemy it can see) or --no-target");
}

TEST_CASE("solo command: melee only after a charge that stood and rally only from shaken or rallying", "[solo][command]") {
  Game g;
  Melee m;
  m.unit = "Lancers";
  m.their_hits = 2;
  g.refused(m, "Lancers is in no melee this turn");
  Rally steady;
  steady.unit = "Lancers";
  g.refused(steady, "Lancers has nothing to rally from (it is steady)");
  g(SetMorale{"Lancers", "shaken", ""});
  Rally near;
  near.unit = "Lancers";
  near.enemy_near = true;
  const Applied r = g(near);
  const StepRecord& rec = std::get<RallyEvent>(g.s.event(r.events.back()).body).s;
  CHECK(rec.result == "no_rally");
  CHECK(rec.dice.empty());  // no dice: an enemy near
  CHECK(g.s.memory(0).rally_in_turn == 1);
  CHECK(g.s.memory(0).morale == Morale::shaken);
}

TEST_CASE("solo command: a charge needs its offer and answers it once whether declined or resolved", "[solo][command][003]") {
  // A seed whose turn-2 activation of Lancers offers "(Charge?)".
  for (std::uint64_t seed = 1; seed < 400; ++seed) {
    Game g(seed);
    Charge early;
    early.unit = "Lancers";
    early.decline = true;
    g.refused(early, "Lancers has not acted in turn 1");
    g(NextTurn{});
    Activate a = activate("Lancers");
    a.enemy_in_range = true;
    const int act = g(a).events.back();
    if (!g.s.charge_pending(0)) continue;
    // Declined.
    const Applied d = g(early);
    const ChargeRecord& declined = std::get<ChargeEvent>(g.s.event(d.events.back()).body).c;
    CHECK(declined.declined);
    CHECK(declined.activation == act);
    CHECK_FALSE(g.s.charge_pending(0));
    g.refused(early, "\"(Charge?)\" this turn has already been answered");
    // Taken back, and resolved: the session's dice, the initiation check first (seed 003 L48).
    g(Undo{1});
    Charge c;
    c.unit = "Lancers";
    c.distance = "20cm";
    c.defender = "elite-foot";
    Charge missing = c;
    missing.defender.clear();
    g.refused(missing, "--defender is needed");
    const Applied r = g(c);
    REQUIRE(r.charge_inputs.has_value());
    CHECK(r.charge_inputs->defender == DefenderClass::elite_foot);
    const ChargeRecord& rec = std::get<ChargeEvent>(g.s.event(r.events.back()).body).c;
    CHECK_FALSE(rec.declined);
    REQUIRE(rec.roll_index.has_value());
    REQUIRE(rec.initiation_dice.has_value());
    const auto dice = solo_roll_charge(seed, *rec.roll_index);
    CHECK(*rec.initiation_dice == std::array<int, 2>{dice[2], dice[3]});
    CHECK(g.s.memory(0).charge_for == act);
    CHECK(g.s.memory(0).charged_this_turn);
    return;
  }
  FAIL("no seed below 400 offers Lancers a charge in turn 2");
}

TEST_CASE("solo command: a new seed only before the first roll", "[solo][command]") {
  Game g;
  g(Reseed{99});
  CHECK(g.s.header().seed == 99);
  CHECK(std::get<SeedEvent>(g.s.history().back().body).old_seed == 7);
  g(activate("Lancers"));
  g.refused(Reseed{5}, "--seed: this session's rolls already come from seed 99 (1 rolled so far)");
  CHECK(g.s.header().seed == 99);
}

TEST_CASE("solo command: check() refuses before the ruleset is needed", "[solo][command]") {
  Game g;
  CHECK_THROWS_AS(check(g.s, Casualties{"Nobody", 1, false}), CommandError);
  CHECK_THROWS_WITH(check(g.s, Undo{1}), Catch::Contains("only 0 step(s) can be undone"));
  CHECK_NOTHROW(check(g.s, Initiative{}));  // its checks need the ruleset
  CHECK(g.s.history().empty());
}

namespace {

// Turn 2 with Lancers (heavy) offered "(Charge?)" and declining it (RF 1,
// D6 4: at halt), Dragoons halted, and the player moving first: the
// player's movement step (issue 28), as tests/test_solo_react.cpp sets it
// up through the command line.
void turn_two(Game& g) {
  auto act = [&](const std::string& unit, bool in_range, int roll) {
    Activate a = activate(unit);
    a.enemy_in_range = in_range;
    a.roll = roll;
    (void)g(a);
  };
  act("Lancers", false, 3);
  act("Dragoons", false, 3);
  (void)g(NextTurn{});
  act("Lancers", true, 4);
  Charge decline;
  decline.unit = "Lancers";
  decline.decline = true;
  (void)g(decline);
  act("Dragoons", true, 3);
  Initiative i;
  i.total = 6;
  i.roll = {1};
  (void)g(i);
  REQUIRE(g.s.state().first_this_turn == 1);
}

Moved foot_near_lancers() {
  Moved m;
  m.mover = "Foot";
  m.as = "heavy_foot";
  NearCavalry n;
  n.unit = "Lancers";
  n.distance = "20cm";
  n.side = "flank";
  m.near = {n};
  return m;
}

}  // namespace

TEST_CASE("solo command: moved is the opportunity charge of the cavalry that may react, the others told in one line (seed 003 L90, L98, L100, L20)",
          "[solo][command][reaction][003]") {
  Game g;
  turn_two(g);
  Moved m = foot_near_lancers();
  m.roll = {4, 4, 3, 3};  // initiation 8 against 6 (4, -2 undeclared: L100); Foot 6 against 9, flank +1 (L20)
  const Applied a = g(m);
  REQUIRE(a.reactions.size() == 2);
  CHECK(a.reactions[0].reacts);
  CHECK(a.reactions[0].near);
  CHECK(a.reactions[0].outcome.find("needs 6 (no charge declared in step 1: -2, seed 003 L100): passes") != std::string::npos);
  CHECK(a.reactions[0].outcome.find("needs 10 on 2D6 [3 3] = 6: fails") != std::string::npos);
  CHECK(a.reactions[0].outcome.find("cannot move farther this turn (seed 003 L98)") != std::string::npos);
  CHECK_FALSE(a.reactions[1].reacts);
  CHECK_FALSE(a.reactions[1].near);
  REQUIRE(a.events.size() == 1);
  const OpportunityEvent& e = std::get<OpportunityEvent>(g.s.event(a.events[0]).body);
  CHECK(e.s.dice == std::vector<int>{4, 4, 3, 3});
  CHECK(e.s.dice_source == DiceSource::player);
  // Lancers has moved now: it cannot react again (L92).
  const Applied again = g(foot_near_lancers());
  CHECK_FALSE(again.reactions[0].reacts);
  CHECK(again.reactions[0].outcome.find("cannot react") != std::string::npos);
  // Bad words are refused and nothing is written.
  Game h;
  turn_two(h);
  Moved bad = foot_near_lancers();
  bad.near[0].distance = "twenty";
  h.refused(bad, "--near Lancers: the distance");
  Moved cls = foot_near_lancers();
  cls.as = "dragon";
  h.refused(cls, "--as: ");
}

TEST_CASE("solo command: moved with the player's dice asks each pair as the charge procedure comes to it (seed 003 L100, L7)",
          "[solo][command][reaction][003]") {
  Game g;
  turn_two(g);
  Moved m = foot_near_lancers();
  m.player_dice = true;
  const std::size_t before = g.s.history().size();
  try {
    (void)g(m);
    FAIL("no dice, yet the reaction was applied");
  } catch (const DiceNeeded& need) {
    CHECK(need.roll == ChargeRoll::initiation);
  }
  m.roll = {2, 2};  // 4 against 6: the initiation check fails; no more dice are read
  const Applied a = g(m);
  CHECK(g.s.history().size() == before + 1);
  CHECK(a.reactions[0].outcome.find("fails. Lancers does not charge") != std::string::npos);
  Game h;
  turn_two(h);
  Moved passes = foot_near_lancers();
  passes.player_dice = true;
  passes.roll = {5, 5};
  try {
    (void)h(passes);
    FAIL("the initiation passed, yet Foot's morale check was not asked");
  } catch (const DiceNeeded& need) {
    CHECK(need.roll == ChargeRoll::defender_morale);
  }
}

TEST_CASE("solo command: charged is the cavalry's morale check by its class, your weight and the side, in table units (seed 003 L7, L20)",
          "[solo][command][reaction][003]") {
  Game g;
  turn_two(g);
  Charged c;
  c.unit = "Lancers";  // heavy horse: 4 against medium (L16), flank -1 (L20): needs 5
  c.mover = "Carabiniers";
  c.as = "medium_horse";
  c.distance = "30cm";
  c.in_arc = false;  // not in its arc: Lancers cannot counter-charge (seed 003 L40), its check takes the first dice
  c.side = "flank";
  c.roll = {1, 3};
  const Applied a = g(c);
  const ChargedEvent& e = std::get<ChargedEvent>(g.s.event(a.events.back()).body);
  INFO(e.s.outcome);
  CHECK(e.s.outcome.find("Heavy Horse charged by medium horse in the flank: 4, flank -1 (seed 003 L20): needs 5 on 2D6 [1 3] = 4: fails.") !=
        std::string::npos);
  CHECK(e.s.outcome.find("Lancers retreats") != std::string::npos);
  CHECK(e.s.fell_back);
  CHECK(e.s.counter.empty());
  Charged none = c;
  none.as = "";
  Game h;
  turn_two(h);
  h.refused(none, "--as is needed");
}

}  // namespace t_solo_command
