// Seed 003, what a charge leaves behind (issue 29): the unit struck is held
// for the rest of the turn even after it fell back (L54); a counter-charger
// that wins, before melee or in it, follows through as the charger does
// (L3); and a "(Charge?)" cell of seed 002's table that yields no
// declaration says why, naming the rule. Each as a unit test on the
// engagement and through `vedette play`.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "engagement_helpers.hpp"
#include "engine/engagement/engagement.hpp"
#include "engine/procedures/reaction_rules.hpp"
#include "engine/procedures/table_rules.hpp"
#include "helpers.hpp"

namespace t_charge_aftermath {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;
using vtest::get;
using vtest::make_scenario;
using vtest::ScriptedBot;

namespace {

std::vector<Event> kinds(const EventLog& log, const std::string& kind, const std::string& unit = "", int turn = 0) {
  std::vector<Event> out;
  for (const auto& e : log.events)
    if (e.kind == kind && (unit.empty() || e.unit == unit) && (turn == 0 || e.turn == turn)) out.push_back(e);
  return out;
}

bool has(const EventLog& log, const std::string& kind, const std::string& unit = "", int turn = 0) {
  return !kinds(log, kind, unit, turn).empty();
}

// Engagements (seed 14, k) for k = 0, 1, ...: vtest::play_until (tests/engagement_helpers.hpp).
template <class Pred>
EventLog play_until(const Scenario& s, const ScriptedBot& a, const ScriptedBot& b, int turns, Pred pred, int tries = 300) {
  return vtest::play_until(s, a, b, turns, pred, 14, tries);
}

std::string first_mover(const EventLog& log, int turn) {
  for (const auto& e : log.events)
    if (e.kind == "initiative" && e.turn == turn) return get<std::string>(e, "first");
  return "";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

// `vedette play` narrates each turn after a line "== Turn N of M ==".
int turn_of_line(const std::string& l, int current) {
  if (l.rfind("== Turn ", 0) == 0) return std::atoi(l.c_str() + 8);
  return current;
}

}  // namespace

// ------------------------------------------------------------------ L54

TEST_CASE("seed 003 L54: a unit struck by a charge is held for the rest of the turn though it failed its check and fell back",
          "[charge][seed003][003-L54-struck-no-move]") {
  RulesetPtr d = default_ruleset();
  // Heavy horse C charges light horse H (light horse against heavy needs 7
  // on 2D6); on turn 2 H's orders are to gallop away from C in its own move
  // (on turn 1 it turns to face C).
  auto s = make_scenario(d, {{"C", 0, "heavy_cavalry", 10, {100, 150}, 180}, {"H", 1, "light_cavalry", 10, {100, 100}, 0}}, 200, 260);
  ScriptedBot cav(vtest::charge_from_turn_2(0, 1, Pace::gallop));
  ScriptedBot hussars([](const Battle& b, std::size_t) {
    Command c;
    c.move = b.turn() > 1 ? Move::away : Move::hold;
    c.pace = b.turn() > 1 ? Pace::gallop : Pace::halt;
    c.target = 0;
    c.face_target = true;
    return c;
  });
  EventLog log = play_until(*s, cav, hussars, 2, [](const EventLog& l) {
    if (first_mover(l, 2) != "cavalry") return false;  // C moves first: H's own move comes after the charge
    const auto m = kinds(l, "charge_morale", "H", 2);
    return m.size() == 1 && !get<bool>(m[0], "stands");
  });
  // It fell back (seed 003 L7)...
  const auto rt = kinds(log, "retreat", "H", 2);
  REQUIRE(rt.size() == 1);
  CHECK(get<double>(rt[0], "distance_cm") > 0);
  // ...and its own move step found it held: no move, no turn (seed 003 L54).
  const auto st = kinds(log, "struck", "H", 2);
  REQUIRE(st.size() == 1);
  CHECK(get<std::string>(st[0], "rule") == "003-L54-struck-no-move");
  CHECK_FALSE(get<bool>(st[0], "in_contact"));
  CHECK_FALSE(has(log, "move", "H", 2));
}

TEST_CASE("seed 003 L54: the rules' account of a charged unit holds it whenever contact was made",
          "[charge][seed003][003-L54-struck-no-move][003-L54-solo-struck-holds]") {
  RulesetPtr d = default_ruleset();
  ChargeResult res;
  res.end = ChargeEnd::morale_failed;
  res.defender_checks = true;
  res.defender_fails = true;
  const ChargedAftermath failed = charged_aftermath(*d, res, Length::cm(20), Length::cm(30));
  CHECK(failed.failed);
  CHECK_FALSE(failed.struck);  // no melee follows...
  CHECK(failed.held);          // ...but it is held all the same (L54)
  res.end = ChargeEnd::melee;
  res.defender_fails = false;
  CHECK(charged_aftermath(*d, res, Length::cm(20), Length::cm(30)).held);
  res.end = ChargeEnd::falls_short;  // no contact: not held
  CHECK_FALSE(charged_aftermath(*d, res, Length::cm(20), Length::cm(30)).held);
  // And a held unit may not react to another enemy's move this turn.
  ReactorFacts f;
  f.turn = 3;
  f.struck = true;
  const ReactionGate g = reaction_gate(*d, f);
  CHECK_FALSE(g.allowed);
  CHECK(g.rule == "003-L54-struck-no-move");
}

TEST_CASE("seed 003 L54: through vedette play, a unit that fails its morale check and falls back makes no move that turn",
          "[charge][cli][seed003][003-L54-struck-no-move]") {
  const std::string scenario = vtest::data("engagement/cavalry_meeting.yaml");
  int fell_back = 0, held_said = 0;
  for (int seed = 1; seed <= 40; ++seed) {
    const auto r = vtest::run_vedette({"play", scenario, "--seed", std::to_string(seed)});
    REQUIRE(r.status == 0);
    const auto lines = lines_of(r.out);
    int turn = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      turn = turn_of_line(lines[i], turn);
      if (!contains(lines[i], "fails its morale check: falls back")) continue;
      const std::string unit = contains(lines[i], "Hussars") ? "Hussars" : "Cuirassiers";
      ++fell_back;
      // The rest of the turn: the unit neither moves nor turns.
      int t = turn;
      for (std::size_t k = i + 1; k < lines.size(); ++k) {
        t = turn_of_line(lines[k], t);
        if (t != turn) break;
        if (!contains(lines[k], unit)) continue;
        INFO("seed " << seed << ", turn " << turn << ": " << lines[k]);
        CHECK_FALSE(contains(lines[k], unit + " moves"));
        CHECK_FALSE(contains(lines[k], unit + " carries on"));
        CHECK_FALSE(contains(lines[k], unit + " holds"));
        if (contains(lines[k], unit + " was struck by a charge this turn: it may not move, turn or change frontage (seed 003 L54)")) ++held_said;
      }
    }
  }
  CHECK(fell_back > 0);
  CHECK(held_said > 0);  // some fell back before their own move came, and were held
}

// ------------------------------------------------------------------- L3

TEST_CASE("seed 003 L3: a counter-charger that wins before melee follows through the balance of its charge move",
          "[charge][seed003][003-L3-follow-through]") {
  RulesetPtr d = default_ruleset();
  // Light horse B charges heavy horse A, which counter-charges: both check,
  // A needs 3 - 2 = 1 (stands), B needs 7 - 2 = 5.
  auto s = make_scenario(d, {{"A", 0, "heavy_cavalry", 10, {100, 100}, 0}, {"B", 1, "light_cavalry", 10, {100, 140}, 180}}, 200, 240);
  ScriptedBot a;
  a.opportunity = true;
  ScriptedBot b(vtest::charge_from_turn_2(1, 0, Pace::gallop));
  EventLog log = play_until(*s, a, b, 2, [](const EventLog& l) {
    const auto m = kinds(l, "charge_morale", "B", 2);
    return has(l, "meet_halfway", "A", 2) && m.size() == 1 && !get<bool>(m[0], "stands");
  });
  CHECK(has(log, "retreat", "B", 2));
  CHECK_FALSE(has(log, "follow_through", "B"));
  const auto mh = kinds(log, "meet_halfway", "A", 2);
  const auto ft = kinds(log, "follow_through", "A", 2);
  REQUIRE(ft.size() == 1);
  // The balance of its own charge: its range less what it moved to meet B.
  CHECK(get<double>(ft[0], "allowance_cm") == Approx(get<double>(mh[0], "allowance_cm") - get<double>(mh[0], "distance_cm")));
  CHECK(get<double>(ft[0], "allowance_cm") > 0);
  CHECK_FALSE(has(log, "melee"));
}

TEST_CASE("seed 003 L3: a counter-charger that wins the melee follows through, and the losing charger does not",
          "[charge][seed003][003-L3-follow-through]") {
  RulesetPtr d = default_ruleset();
  // Two heavy regiments meet halfway: each needs 5 - 2 = 3 to stand.
  auto s = make_scenario(d, {{"A", 0, "heavy_cavalry", 10, {100, 100}, 0}, {"B", 1, "heavy_cavalry", 10, {100, 140}, 180}}, 200, 240);
  ScriptedBot a;
  a.opportunity = true;
  ScriptedBot b(vtest::charge_from_turn_2(1, 0, Pace::gallop));
  EventLog log = play_until(*s, a, b, 2, [](const EventLog& l) {
    const auto mel = kinds(l, "melee", "B", 2);
    return has(l, "meet_halfway", "A", 2) && mel.size() == 1 &&
           get<long long>(mel[0], "defender_hits") > get<long long>(mel[0], "attacker_hits");
  });
  CHECK(has(log, "retreat", "B", 2));  // the charger lost the melee
  CHECK_FALSE(has(log, "follow_through", "B"));
  const auto mh = kinds(log, "meet_halfway", "A", 2);
  const auto ft = kinds(log, "follow_through", "A", 2);
  REQUIRE(ft.size() == 1);
  CHECK(get<double>(ft[0], "allowance_cm") == Approx(get<double>(mh[0], "allowance_cm") - get<double>(mh[0], "distance_cm")));
  // The rule in one function, as the solo session asks it.
  const MeleeAftermath m = melee_aftermath(*d, 1, 3, Length::cm(30), Length::cm(30), true, Length::cm(40), true, Length::cm(25));
  CHECK(m.winner == MeleeWinner::defender);
  CHECK(m.follow_through.as_cm() == 0);
  CHECK(m.defender_follow_through.as_cm() == Approx(25));
  CHECK(melee_aftermath(*d, 1, 3, Length::cm(30), Length::cm(30), true, Length::cm(40), false, Length::cm(25)).defender_follow_through.as_cm() == 0);
}

TEST_CASE("seed 003 L3: through vedette play, a counter-charger that wins follows through",
          "[charge][cli][seed003][003-L3-follow-through]") {
  const std::string scenario = vtest::data("engagement/counter_charge.yaml");
  int seen = 0;
  for (int seed = 1; seed <= 60 && seen == 0; ++seed) {
    const auto r = vtest::run_vedette({"play", scenario, "--seed", std::to_string(seed)});
    REQUIRE(r.status == 0);
    const auto lines = lines_of(r.out);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (!contains(lines[i], " counter-charges: the two meet halfway")) continue;
      const std::string counter = lines[i].substr(lines[i].find_first_not_of(' '), lines[i].find(" counter-charges") - lines[i].find_first_not_of(' '));
      const std::string charger = counter == "Hussars" ? "Cuirassiers" : "Hussars";
      // The charger fails its own check while the counter-charger stands,
      // or loses the melee: the counter-charger has won.
      bool won = false, follows = false;
      for (std::size_t k = i + 1; k < lines.size() && k <= i + 12; ++k) {
        if (contains(lines[k], charger + " fails its morale check: falls back") || contains(lines[k], charger + " loses the melee")) won = true;
        if (contains(lines[k], counter + " fails its morale check") || contains(lines[k], counter + " loses the melee")) won = false;
        if (contains(lines[k], counter + " follows through")) follows = true;
        if (lines[k].rfind("== Turn ", 0) == 0) break;
      }
      INFO("seed " << seed << ": " << lines[i]);
      if (won) {
        ++seen;
        CHECK(follows);
      }
    }
  }
  CHECK(seen > 0);
}

// -------------------------------------------- a "(Charge?)" that comes to nothing

TEST_CASE("a (Charge?) cell that yields no declaration says why and names the rule",
          "[charge][seed003][002-L10-charge-cell-why]") {
  RulesetPtr d = default_ruleset();
  auto why = [&](Point enemy, double facing, int turn, bool mounts = false) {
    auto s = make_scenario(d, {{"C", 0, "heavy_cavalry", 10, {100, 100}, facing}, {"F", 1, "heavy_foot", 12, enemy, 180}}, 400, 400);
    ScriptedBot none;
    Engagement g(*s, {&none, &none}, 1, 0);
    for (int t = 0; t < turn; ++t) g.play_turn();  // the battle as step 1 of turn `turn` sees it, after it
    return why_no_declaration(g.battle(), 0, Pace::gallop, mounts);
  };
  CHECK(why({100, 130}, 0, 1).rule == "003-L24-no-first-turn");   // a gate
  CHECK(why({100, 300}, 0, 2).rule == "003-L42-range-bonus");     // 2 m off: out of range
  CHECK(why({100, 60}, 0, 2).rule == "003-L40-partial-arc");      // behind it
  const NoDeclaration close = why({100, 108}, 0, 2);              // a few cm ahead: inside the minimum distance
  CHECK(close.rule == "003-L42-inside-min-no-bonus");
  CHECK(contains(close.why, "inside its minimum distance"));
  CHECK(why({100, 130}, 0, 2).rule.empty());                      // it could: no rule stops it
  CHECK(why({100, 130}, 0, 2, true).rule == "001-L3-mount-one-action");  // mounting: its whole move
}

TEST_CASE("through vedette play, every (Charge?) cell that declares nothing says why, naming the rule",
          "[charge][cli][seed003][002-L10-charge-cell-why]") {
  const std::string scenario = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/flank_attack.yaml";
  int cells = 0, said = 0;
  for (int seed = 1; seed <= 12; ++seed) {
    const auto r = vtest::run_vedette({"play", scenario, "--seed", std::to_string(seed)});
    REQUIRE(r.status == 0);
    const auto lines = lines_of(r.out);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (!contains(lines[i], "(Charge?)")) continue;
      ++cells;
      // The next lines of its orders: a declaration, or the reason.
      const std::string unit = lines[i].substr(lines[i].find_first_not_of(' '), lines[i].find(" D6 ") - lines[i].find_first_not_of(' '));
      bool declared = false, why = false;
      for (std::size_t k = i + 1; k < lines.size() && k <= i + 2; ++k) {
        declared = declared || contains(lines[k], unit + " declares a charge on");
        why = why || (contains(lines[k], unit + " declares no charge: ") && contains(lines[k], "["));
      }
      INFO("seed " << seed << ": " << lines[i]);
      CHECK(declared != why);
      if (why) ++said;
    }
  }
  CHECK(cells > 0);
  CHECK(said > 0);
}

TEST_CASE("seed 003 L54: a move that is not a charge stops short of the enemy: no contact, so nothing holds the enemy",
          "[charge][seed003][003-L54-normal-contact]") {
  RulesetPtr d = default_ruleset();
  // C gallops toward F (40cm off: it could reach it) with no charge
  // declared; F walks away in its own move, after C's.
  auto s = make_scenario(d, {{"C", 0, "heavy_cavalry", 10, {100, 100}, 0}, {"F", 1, "heavy_foot", 12, {100, 150}, 180}}, 200, 300);
  ScriptedBot cav([](const Battle&, std::size_t) {
    Command c;
    c.move = Move::toward;
    c.pace = Pace::gallop;
    c.target = 1;
    return c;
  });
  ScriptedBot foot([](const Battle&, std::size_t) {
    Command c;
    c.move = Move::away;
    c.pace = Pace::walk;
    c.target = 0;
    return c;
  });
  EventLog log = play_until(*s, cav, foot, 1, [](const EventLog& l) { return first_mover(l, 1) == "cavalry"; });
  const auto mc = kinds(log, "move", "C", 1);
  REQUIRE(mc.size() == 1);
  CHECK(get<double>(mc[0], "distance_cm") > 0);
  CHECK_FALSE(has(log, "contact"));
  CHECK_FALSE(has(log, "struck"));
  CHECK_FALSE(has(log, "melee"));
  const auto mf = kinds(log, "move", "F", 1);
  REQUIRE(mf.size() == 1);
  CHECK(get<double>(mf[0], "distance_cm") > 0);  // not held: it walks away
}

}  // namespace t_charge_aftermath
