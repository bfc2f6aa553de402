// One rules path for the reactions (issue 28): the same situations through
// the engine (an Engagement: Engagement::opportunity_charges and the
// counter-charge in engine/engagement/engagement_charge.cpp) and through the
// solo session's functions (sims/solo/solo_react.hpp, on the engine's
// reaction rules, engine/procedures/reaction_rules.hpp), the facts the
// player would give read off the simulated table and the dice the engine's
// own. Whether it charges, the initiation check's need and result, where
// they meet, the morale checks' numbers and results, how far a unit that
// failed retreats and whether melee follows must agree.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "engagement_helpers.hpp"
#include "engine/engagement/engagement.hpp"
#include "engine/procedures/reaction_rules.hpp"
#include "sims/solo/session.hpp"
#include "sims/solo/solo_react.hpp"
#include "sims/solo/solo_turn.hpp"
#include "solo_test_util.hpp"

namespace t_reaction_equivalence {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;
using vtest::get;
using vtest::make_scenario;
using vtest::ScriptedBot;

namespace {

std::vector<Event> kinds(const EventLog& log, const std::string& kind, const std::string& unit) {
  std::vector<Event> out;
  for (const auto& e : log.events)
    if (e.kind == kind && e.unit == unit) out.push_back(e);
  return out;
}

bool has_kind(const EventLog& log, const std::string& kind) {
  for (const auto& e : log.events)
    if (e.kind == kind) return true;
  return false;
}

std::vector<int> faces_of(const Event& e, const std::string& key) {
  std::vector<int> out;
  for (long long f : get<DiceFaces>(e, key)) out.push_back(static_cast<int>(f));
  return out;
}

// The automated unit as a solo session's roster of one, its activation this
// turn offering "(Charge?)" (the table's policy: the scripted bot that
// always wants an opportunity charge) or not, at a halt (it has not moved).
struct Mirror {
  solo_test::TempDir dir;
  solo::Session s;
  Mirror(const Scenario& sc, const Unit& u, bool wants)
      : s(dir / "m.vedette.yaml", [&] {
          solo::Header h;
          h.ruleset_path = "builtin:default";
          h.ruleset_hash = solo::ruleset_hash(*sc.rules);
          h.seed = 1;
          h.physical_dice = true;
          solo::UnitSpec spec;
          spec.name = u.name;
          spec.type = u.type->id;
          spec.figures = u.figures_start;
          spec.weight = std::string(k_weight_names[static_cast<std::size_t>(u.profile->weight)]);
          h.units.push_back(spec);
          return h;
        }()) {
    solo::Answers a;
    a[solo::Question::enemy_in_range] = 1;
    for (int roll = 1; roll <= 6; ++roll) {
      solo::Die die;
      die.dice = solo::DiceSource::player;
      die.roll = roll;
      const solo::Activation act = solo::decide_activation(*sc.rules, s, 0, a, 0, die);
      const bool offers = act.charge_possible || !act.charge_refused.empty();
      if (offers == wants && act.pace == Pace::halt) {
        s.append(solo::ActivateEvent{u.name, act});
        return;
      }
    }
    FAIL("no D6 gives the activation wanted");
  }
};

// The engine's dice as the player's, in the order the charge asks for them:
// the initiation check (or the counter-charge's), the defender's, the charger's.
solo::StepDice player_dice(const std::vector<int>& first, const std::vector<int>& defender, const std::vector<int>& charger) {
  std::vector<int> d = first;
  d.insert(d.end(), defender.begin(), defender.end());
  d.insert(d.end(), charger.begin(), charger.end());
  return solo::player_dice(d);
}

ChargedOn on_of(const std::string& aspect) {
  return aspect == "front" ? ChargedOn::front : aspect == "flank" ? ChargedOn::flank : ChargedOn::rear;
}

}  // namespace

TEST_CASE("reactions, engine and solo agree: an opportunity charge at the player's foot that moved (seed 003 L90-L102)",
          "[reaction][equivalence][seed003][003-L90-opportunity][003-L98-interrupted-stops][003-L100-undeclared-minus-2]") {
  RulesetPtr r = default_ruleset();
  int charged = 0, failed_init = 0, stood = 0, broke = 0;
  for (const char* profile : {"light_cavalry", "medium_cavalry", "heavy_cavalry"}) {
    // Foot walking past cavalry that wants to charge it (tests/test_engagement.cpp's case).
    auto sc = make_scenario(r, {{"C", 0, profile, 12, {70, 140}, 180}, {"F", 1, "heavy_foot", 20, {40, 110}, 90}}, 200, 200);
    ScriptedBot eager;
    eager.opportunity = true;
    ScriptedBot foot([](const Battle&, std::size_t) {
      Command c;
      c.move = Move::keep;
      c.pace = Pace::walk;
      return c;
    });
    for (std::uint64_t k = 0; k < 40; ++k) {
      Engagement g(*sc, {&eager, &foot}, 1, k);
      EventLog log;
      g.attach(&log);
      g.play_turn();
      const auto opp = kinds(log, "opportunity", "C");
      const auto ch = kinds(log, "charge", "C");
      INFO(profile << " engagement " << k);
      REQUIRE(opp.size() == 1);
      const auto init = kinds(log, "initiation", "C");
      REQUIRE(init.size() == 1);
      const auto morale = kinds(log, "charge_morale", "F");
      // The facts the player gives: where the foot ended, as the charge event
      // measured it (no charge event when the initiation check failed: then
      // nothing has moved since, and the board says it).
      Mirror m(*sc, g.battle().unit(0), true);
      solo::MoverFacts mv;
      mv.unit.name = "F";
      mv.unit.defender = DefenderClass::heavy_foot;
      mv.kind = solo::MoveKind::moved;
      const ChargeProspect now = charge_prospect(g.battle(), 0, 1, Pace::walk);
      mv.distance = ch.empty() ? now.distance : Length::cm(get<double>(ch[0], "distance_cm"));
      mv.in_arc = ch.empty() ? now.in_arc : get<bool>(ch[0], "in_arc");
      mv.side = ch.empty() ? g.battle().charged_on(1, 0) : on_of(get<std::string>(ch[0], "aspect"));
      CHECK(ch.size() == (get<bool>(init[0], "passed") ? 1u : 0u));
      ChargeResult res;
      const solo::StepRecord rec = solo::resolve_opportunity(*r, m.s, 0, mv, player_dice(faces_of(init[0], "dice"),
                                                       morale.empty() ? std::vector<int>{} : faces_of(morale[0], "dice"), {}),
                                                       {}, &res);
      INFO(rec.outcome);
      // It charges, undeclared: -2 (L100).
      REQUIRE_FALSE(rec.result.empty());
      CHECK(res.initiation.need == get<long long>(init[0], "need"));
      CHECK(res.initiation.passed == get<bool>(init[0], "passed"));
      ++charged;
      if (!res.initiation.passed) {
        ++failed_init;
        CHECK(rec.result == "no_charge");
        CHECK(morale.empty());
        continue;
      }
      REQUIRE(ch.size() == 1);
      CHECK(res.reach.charge_bonus == get<bool>(ch[0], "bonus"));
      CHECK(res.defender_checks == !morale.empty());
      if (!morale.empty()) {
        CHECK(res.defender_target.target == get<long long>(morale[0], "need"));
        CHECK(res.defender_target.table == get<long long>(morale[0], "table"));
        CHECK(res.defender_target.modifier == get<long long>(morale[0], "modifier"));
        CHECK(!res.defender_fails == get<bool>(morale[0], "stands"));
        (res.defender_fails ? broke : stood)++;
      }
      // L98: contact stops the foot; the engine puts both in contact or the foot retreats.
      CHECK(solo::MoveKind::moved == mv.kind);
      CHECK(interrupted_stops(res) == (!kinds(log, "contact", "C").empty()));
      CHECK((rec.result == "melee") == has_kind(log, "melee"));
      if (res.defender_fails) {
        const auto back = kinds(log, "retreat", "F");
        REQUIRE(back.size() == 1);
        const ChargedAftermath a = charged_aftermath(*r, res, g.battle().unit(1).profile->move, Length());
        CHECK(a.retreat.as_cm() == Approx(get<double>(back[0], "allowance_cm")));
      }
    }
  }
  // Every kind of outcome was played.
  CHECK(charged > 0);
  CHECK(failed_init > 0);
  CHECK(stood > 0);
  CHECK(broke > 0);
}

TEST_CASE("reactions, engine and solo agree: a unit that has moved, is shaken or does not want to, does not react (seed 003 L92, L34)",
          "[reaction][equivalence][seed003][003-L92-not-yet-moved]") {
  RulesetPtr r = default_ruleset();
  auto sc = make_scenario(r, {{"C", 0, "medium_cavalry", 12, {70, 140}, 180}, {"F", 1, "heavy_foot", 20, {40, 110}, 90}}, 200, 200);
  ScriptedBot unwilling;  // opportunity false: the table's cell gives no "(Charge?)"
  ScriptedBot foot([](const Battle&, std::size_t) {
    Command c;
    c.move = Move::keep;
    c.pace = Pace::walk;
    return c;
  });
  for (std::uint64_t k = 0; k < 5; ++k) {
    Engagement g(*sc, {&unwilling, &foot}, 1, k);
    EventLog log;
    g.attach(&log);
    g.play_turn();
    CHECK(kinds(log, "opportunity", "C").empty());
    Mirror m(*sc, g.battle().unit(0), false);
    solo::MoverFacts mv;
    mv.distance = Length::cm(20);
    const solo::StepRecord rec = solo::resolve_opportunity(*r, m.s, 0, mv, player_dice({6, 6}, {6, 6}, {}));
    CHECK(rec.result.empty());
    CHECK(solo_test::contains(rec.outcome, "does not react"));
  }
  // Shaken: neither reacts (seed 003 L34's good order).
  Mirror m(*sc, Battle(*sc).unit(0), true);
  m.s.append(solo::MoraleEvent{"C", solo::Morale::shaken, "test"});
  solo::MoverFacts mv;
  mv.distance = Length::cm(20);
  const solo::StepRecord rec = solo::resolve_opportunity(*r, m.s, 0, mv, player_dice({6, 6}, {6, 6}, {}));
  CHECK(rec.result.empty());
  CHECK(solo_test::contains(rec.outcome, "good order"));
  CHECK_FALSE(solo::reactor_status(*r, m.s)[0].gate.allowed);
}

TEST_CASE("reactions, engine and solo agree: the player's horse charges the automated cavalry in front, flank and rear, each weight (seed 003 L7, L14-16, L20)",
          "[reaction][equivalence][seed003][003-L7-defender-checks][003-L20-flank][003-L20-rear][003-L54-struck-no-move]") {
  RulesetPtr r = default_ruleset();
  struct Place {
    Point at;
    double facing;
    const char* aspect;
  };
  int passed = 0, failed = 0;
  for (const char* attacker : {"light_cavalry", "medium_cavalry", "heavy_cavalry"})
    for (const Place p : {Place{{100, 140}, 180, "front"}, Place{{140, 100}, 270, "flank"}, Place{{100, 60}, 0, "rear"}}) {
      auto sc = make_scenario(r, {{"D", 0, "medium_cavalry", 12, {100, 100}, 0}, {"A", 1, attacker, 12, p.at, p.facing}}, 200, 200);
      ScriptedBot hold;  // no counter-charge
      ScriptedBot charger(vtest::charge_from_turn_2(1, 0, Pace::gallop));
      bool seen_pass = false, seen_fail = false;
      for (std::uint64_t k = 0; k < 60 && !(seen_pass && seen_fail); ++k) {
        Engagement g(*sc, {&hold, &charger}, 7, k);
        EventLog log;
        g.attach(&log);
        g.play_turn();
        g.play_turn();
        const auto morale = kinds(log, "charge_morale", "D");
        if (morale.empty()) continue;  // the charger's initiation check failed
        const auto ch = kinds(log, "charge", "A");
        REQUIRE(ch.size() == 1);
        INFO(attacker << " " << p.aspect << " engagement " << k);
        CHECK(get<std::string>(ch[0], "aspect") == p.aspect);
        Mirror m(*sc, g.battle().unit(0), false);
        solo::PlayerCharge c;
        c.unit.name = "A";
        c.unit.weight = static_cast<AttackerWeight>(g.battle().unit(1).profile->weight);
        c.unit.defender = horse_class(g.battle().unit(1).profile->weight);
        c.distance = Length::cm(get<double>(ch[0], "distance_cm"));
        c.side = on_of(p.aspect);
        c.bonus = get<bool>(ch[0], "bonus");
        ChargeResult res;
        const solo::StepRecord rec = solo::resolve_charged(*r, m.s, 0, c, player_dice({}, faces_of(morale[0], "dice"), {}), {}, &res);
        INFO(rec.outcome);
        CHECK(rec.counter.empty());
        CHECK(res.defender_target.table == get<long long>(morale[0], "table"));
        CHECK(res.defender_target.modifier == get<long long>(morale[0], "modifier"));
        CHECK(rec.need == get<long long>(morale[0], "need"));
        CHECK(!res.defender_fails == get<bool>(morale[0], "stands"));
        const ChargedAftermath a = charged_aftermath(*r, res, normal_move(*r, true, Length()), Length());
        if (res.defender_fails) {
          seen_fail = true;
          const auto back = kinds(log, "retreat", "D");
          REQUIRE(back.size() == 1);
          CHECK(a.retreat.as_cm() == Approx(get<double>(back[0], "allowance_cm")));
          CHECK(rec.morale == solo::Morale::rallying);
          CHECK(solo_test::contains(rec.outcome, "backs to the enemy"));
        } else {
          seen_pass = true;
          CHECK(a.struck);
          CHECK(has_kind(log, "melee"));  // seed 003 L54: held in contact, melee follows
          CHECK(rec.result == "melee");
          CHECK(solo_test::contains(rec.outcome, "cannot move, turn or change frontage"));
        }
      }
      INFO(attacker << " " << p.aspect);
      CHECK(seen_pass);
      if (seen_fail) ++failed;
      if (seen_pass) ++passed;
    }
  // A failed check was played (a medium horse needs 4+ to 8+ here: not every place fails in 60).
  CHECK(failed > 0);
  CHECK(passed == 9);
}

TEST_CASE("reactions, engine and solo agree: the charged cavalry counter-charges, the two meet halfway and both check (seed 003 L100-L102, L7)",
          "[reaction][equivalence][seed003][003-L102-meet-halfway][003-L7-both-check]") {
  RulesetPtr r = default_ruleset();
  auto sc = make_scenario(r, {{"D", 0, "medium_cavalry", 10, {100, 100}, 0}, {"A", 1, "heavy_cavalry", 10, {100, 140}, 180}}, 200, 240);
  ScriptedBot eager;
  eager.opportunity = true;
  ScriptedBot charger(vtest::charge_from_turn_2(1, 0, Pace::gallop));
  int met = 0, barred = 0;
  for (std::uint64_t k = 0; k < 80 && (met == 0 || barred == 0); ++k) {
    Engagement g(*sc, {&eager, &charger}, 3, k);
    EventLog log;
    g.attach(&log);
    g.play_turn();
    // Where they stand before the charge: the automated unit's own reach at a walk (it halts).
    const ChargeProspect own = charge_prospect(g.battle(), 0, 1, Pace::walk);
    g.play_turn();
    const auto init_a = kinds(log, "initiation", "A");
    if (init_a.empty() || !get<bool>(init_a[0], "passed")) continue;
    const auto ch = kinds(log, "charge", "A");
    REQUIRE(ch.size() == 1);
    const auto counter = kinds(log, "initiation", "D");
    INFO("engagement " << k);
    Mirror m(*sc, g.battle().unit(0), true);
    solo::PlayerCharge c;
    c.unit.name = "A";
    c.unit.weight = AttackerWeight::heavy;
    c.unit.defender = DefenderClass::heavy_horse;
    c.distance = own.distance;
    c.in_arc = own.in_arc;
    c.side = on_of(get<std::string>(ch[0], "aspect"));
    c.bonus = get<bool>(ch[0], "bonus");
    const auto dm = kinds(log, "charge_morale", "D");
    const auto am = kinds(log, "charge_morale", "A");
    ChargeResult res;
    const solo::StepRecord rec = solo::resolve_charged(
        *r, m.s, 0, c,
        player_dice(counter.empty() ? std::vector<int>{} : faces_of(counter[0], "dice"), dm.empty() ? std::vector<int>{} : faces_of(dm[0], "dice"),
                    am.empty() ? std::vector<int>{} : faces_of(am[0], "dice")),
        {}, &res);
    INFO(rec.outcome);
    // It attempts the counter-charge exactly when the engine does; the same check.
    REQUIRE(counter.size() == 1);
    CHECK(rec.counter == (get<bool>(counter[0], "passed") ? "met" : "barred"));
    CHECK(res.counter_initiation.need == get<long long>(counter[0], "need"));
    CHECK(res.counter == !kinds(log, "meet_halfway", "D").empty());
    CHECK(res.defender_checks == !dm.empty());
    CHECK(res.charger_checks == !am.empty());
    if (!dm.empty()) {
      CHECK(res.defender_target.target == get<long long>(dm[0], "need"));
      CHECK(!res.defender_fails == get<bool>(dm[0], "stands"));
    }
    if (!am.empty()) {
      CHECK(res.charger_target.target == get<long long>(am[0], "need"));
      CHECK(!res.charger_fails == get<bool>(am[0], "stands"));
    }
    (res.counter ? met : barred)++;
  }
  CHECK(met > 0);
  CHECK(barred > 0);
}

}  // namespace t_reaction_equivalence
