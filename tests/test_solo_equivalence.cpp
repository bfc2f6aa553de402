// One rules path (issue 16, DESIGN.md "The table is a board too"): the same
// situations played through the simulation (an Engagement with the reaction
// table bot) and through the solo session, the player's answers scripted
// from the simulated battlefield's facts and the player's dice the engine's
// own. Every decision (RF, band, behaviour, pace after the limits, whether a
// charge may be declared and which rule forbids it), every use of a die and
// every change to the unit's memory must be identical.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <variant>

#include "bots/reaction_bot.hpp"
#include "engagement_helpers.hpp"
#include "engine/engagement/engagement.hpp"
#include "sims/solo/session.hpp"
#include "sims/solo/solo_turn.hpp"
#include "solo_test_util.hpp"

using namespace vedette;
using vtest::make_scenario;
using vtest::ScriptedBot;

namespace {

long long data_int(const Event& e, const std::string& key) {
  for (const auto& [k, v] : e.data)
    if (k == key) {
      if (const auto* i = std::get_if<long long>(&v)) return *i;
    }
  FAIL("event " << e.kind << " has no integer " << key);
  return 0;
}

std::string data_str(const Event& e, const std::string& key) {
  for (const auto& [k, v] : e.data)
    if (k == key) {
      if (const auto* s = std::get_if<std::string>(&v)) return *s;
    }
  FAIL("event " << e.kind << " has no text " << key);
  return {};
}

// The solo session mirroring the scenario's side 0 (the automated cavalry).
solo::Session mirror(const Scenario& s, const std::string& path) {
  solo::Header h;
  h.ruleset_path = "builtin:default";
  h.ruleset_hash = solo::ruleset_hash(*s.rules);
  h.seed = 1;
  h.physical_dice = true;
  for (const auto& u : s.units) {
    if (u.side != 0) continue;
    solo::UnitSpec spec;
    spec.name = u.name;
    spec.type = s.rules->unit_types[s.rules->profiles[u.profile].unit_type].id;
    spec.figures = u.figures;
    h.units.push_back(spec);
  }
  return solo::Session(path, std::move(h));
}

}  // namespace

TEST_CASE("solo and simulation: the same situations give the same decisions, dice and memory, turn by turn",
          "[solo][equivalence]") {
  RulesetPtr r = default_ruleset();
  // Three cavalry units against holding, shooting foot on a deep table
  // (room to run without meeting an edge): in and out of range, one in the
  // levies' flank, casualties from their muskets.
  auto sc = make_scenario(r,
                          {{"Lancers", 0, "lancers", 12, {60, 250}, 180},
                           {"Hussars", 0, "light_cavalry", 12, {120, 240}, 180},
                           {"Cuirassiers", 0, "heavy_cavalry", 12, {180, 250}, 180},
                           {"Foot", 1, "heavy_foot", 20, {120, 175}, 0},
                           {"Levies", 1, "levies", 16, {200, 205}, 270}},
                          240, 500);
  for (std::uint64_t seed : {3ULL, 11ULL, 29ULL}) {
    ReactionTableBot cav(BotOptions{});
    ScriptedBot hold;
    Engagement g(*sc, {&cav, &hold}, seed, 0);
    EventLog log;
    g.attach(&log);
    solo_test::TempDir dir;
    solo::Session s = mirror(*sc, dir / "game.vedette.yaml");
    std::map<std::string, int> lost;  // casualties the session knows
    bool charged = false;
    for (int turn = 1; turn <= 5 && !g.finished() && !charged; ++turn) {
      const Battle& b = g.battle();
      // The facts the bot reads at the start of the turn, as the player answers them.
      std::vector<Situation> facts;
      std::vector<int> engine_lost;
      std::vector<std::array<Pace, 4>> limits;  // the engine's pace limit on each pace, for each unit
      for (std::size_t i = 0; i < b.units().size(); ++i) {
        facts.push_back(b.situation(i));
        engine_lost.push_back(b.unit(i).lost());
        std::array<Pace, 4> l{};
        for (std::size_t p = 0; p < 4; ++p) l[p] = b.pace_limit(i, static_cast<Pace>(p));
        limits.push_back(l);
      }
      const std::size_t before = log.events.size();
      g.play_turn();
      for (std::size_t i = 0; i < b.units().size(); ++i) {
        const Unit& u = b.unit(i);
        if (u.side != 0) continue;
        const Event* rf = nullptr;
        const Event* decision = nullptr;
        const Event* refused = nullptr;
        for (std::size_t e = before; e < log.events.size(); ++e) {
          const Event& ev = log.events[e];
          if (ev.unit != u.name || ev.turn != turn) continue;
          if (ev.kind == "rf") rf = &ev;
          if (ev.kind == "decision") decision = &ev;
          if (ev.kind == "declare_refused") refused = &ev;
          if (ev.kind == "initiation" || ev.kind == "charge") charged = true;
        }
        if (!decision) continue;  // routed or gone: the session's unit does not act either
        INFO("seed " << seed << ", turn " << turn << ", " << u.name);
        REQUIRE(rf);
        const std::size_t k = s.unit_index(u.name);
        // The player's answers: the battlefield's facts.
        solo::Answers a;
        a[solo::Question::in_cover] = facts[i].in_cover;
        a[solo::Question::enemy_in_range] = facts[i].enemy_in_range;
        a[solo::Question::enemy_flank_rear] = facts[i].enemy_flank_rear;
        a[solo::Question::retreated_from_melee] = facts[i].retreated_from_melee;
        // Casualties: the engine's losses so far less what the session knows.
        const int fresh = engine_lost[i] - lost[u.name];
        // The die: the engine's own roll, as a player's physical die.
        solo::Die die;
        die.dice = solo::DiceSource::player;
        die.roll = static_cast<int>(data_int(*decision, "roll"));
        const solo::Activation act = solo::decide_activation(*r, s, k, a, fresh, die);
        CHECK(act.rf == data_int(*rf, "rf"));
        CHECK(act.behaviour == data_str(*decision, "behaviour"));
        // The pace it moves at: the engine's limit on the table's pace.
        const auto table = parse_pace(data_str(*decision, "pace"));
        REQUIRE(table);
        CHECK(act.pace == limits[i][static_cast<std::size_t>(*table)]);
        // Turn 1: the engine refuses a declaration the session refuses too, by the same rule.
        if (refused) {
          CHECK(!act.charge_possible);
          CHECK(solo_test::contains(refused->text, act.charge_refused));
        }
        if (act.charge_possible) CHECK_FALSE(turn == 1);
        s.append(solo::ActivateEvent{u.name, act});
        lost[u.name] = engine_lost[i];
        // The unit's memory: what the engine's unit carries into next turn.
        CHECK(s.memory(k).casualties == engine_lost[i]);
        std::string account;
        for (std::size_t e = before; e < log.events.size(); ++e)
          if (log.events[e].unit == u.name) account += log.events[e].text + "\n";
        INFO(account);
        CHECK(s.memory(k).pace == u.pace);
        CHECK(s.memory(k).gallop_streak == u.gallop_streak);
      }
      s.append(solo::NextTurnEvent{});
    }
  }
}
