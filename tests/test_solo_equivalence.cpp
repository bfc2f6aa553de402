// One rules path (issue 16, docs/design.md "The table is a board too"): the same
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
#include "engine/core/length.hpp"
#include "engine/engagement/engagement.hpp"
#include "sims/solo/session.hpp"
#include "sims/solo/solo_turn.hpp"
#include "solo_test_util.hpp"

namespace t_solo_equivalence {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

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

// The turn's later steps (issue 16): shooting, melee, rout and rally, each
// played by the engine and then through the solo session's own path (the
// functions `solo play` calls, on a session brought to the same state
// through its events), the player's answers and the dice scripted from the
// engine's. Band, dice, score needed, hits, who wins, how far a beaten
// charger falls back, who routs and who rallies must be the same.
namespace {

using vedette::solo::Session;

std::vector<int> faces_of(const Event& e, const std::string& key) {
  std::vector<int> out;
  for (long long f : vtest::get<DiceFaces>(e, key)) out.push_back(static_cast<int>(f));
  return out;
}

struct Mirror {
  solo_test::TempDir dir;
  Session s;
  explicit Mirror(const Scenario& sc, const Unit& u)
      : s(dir / "m.vedette.yaml", [&] {
          solo::Header h;
          h.ruleset_path = "builtin:default";
          h.ruleset_hash = solo::ruleset_hash(*sc.rules);
          h.seed = 1;
          solo::UnitSpec spec;
          spec.name = u.name;
          spec.type = u.type->id;
          spec.figures = u.figures_start;
          if (u.profile->weapon) spec.weapon = sc.rules->weapons[*u.profile->weapon].id;
          spec.weight = std::string(k_weight_names[static_cast<std::size_t>(u.profile->weight)]);
          h.units.push_back(spec);
          return h;
        }()) {
    s.append(solo::NextTurnEvent{});  // turn 2: a charge may be declared
  }
  // An activation whose pace is (or is not) a halt, or one that offers a charge.
  void activate(const Ruleset& r, bool halt, bool charge) {
    solo::Answers a;
    a[solo::Question::enemy_in_range] = 1;
    for (int roll = 1; roll <= 6; ++roll) {
      solo::Die die;
      die.dice = solo::DiceSource::player;
      die.roll = roll;
      const solo::Activation act = solo::decide_activation(r, s, 0, a, 0, die);
      if (charge ? act.charge_possible : (act.pace == Pace::halt) == halt) {
        s.append(solo::ActivateEvent{s.header().units[0].name, act});
        return;
      }
    }
    FAIL("no D6 gives the activation wanted");
  }
  void lose(int figures) {
    if (figures > 0) s.append(solo::CasualtiesEvent{s.header().units[0].name, figures});
  }
};

}  // namespace

TEST_CASE("solo and simulation: shooting, melee, rout and rally give the same numbers and outcomes",
          "[solo][equivalence][turn]") {
  RulesetPtr r = default_ruleset();
  auto sc = make_scenario(r,
                          {{"Cuirassiers", 0, "heavy_cavalry", 12, {60, 120}, 180},
                           {"Hussars", 0, "light_cavalry", 12, {120, 115}, 180},
                           {"Dragoons", 0, "dragoons", 10, {180, 120}, 180},
                           {"Lancers", 0, "lancers", 12, {240, 118}, 180},
                           {"Foot", 1, "heavy_foot", 16, {90, 70}, 0},
                           {"Levies", 1, "levies", 16, {200, 72}, 0}},
                          300, 200, 10);
  int shots = 0, melees = 0, rallies = 0, routs_seen = 0, steady_checked = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    ReactionTableBot cav(BotOptions{});
    ScriptedBot hold;
    Engagement g(*sc, {&cav, &hold}, seed, 0);
    EventLog log;
    g.attach(&log);
    const Battle& b = g.battle();
    while (!g.finished()) {
      std::vector<int> lost_before;
      std::vector<bool> routed_before;
      for (const Unit& u : b.units()) {
        lost_before.push_back(u.lost());
        routed_before.push_back(u.order == Order::routed);
      }
      const std::size_t first = log.events.size();
      g.play_turn();
      for (std::size_t e = first; e < log.events.size(); ++e) {
        const Event& ev = log.events[e];
        std::size_t i = 0;
        while (i < b.units().size() && b.unit(i).name != ev.unit) ++i;
        if (i == b.units().size() || b.unit(i).side != 0) continue;
        const Unit& u = b.unit(i);
        INFO("seed " << seed << ", turn " << ev.turn << ": " << ev.text);
        if (ev.kind == "shoot") {
          // Seed 002: the band (one further mounted), the dice, the score needed.
          Mirror m(*sc, u);
          m.activate(*r, !u.on_horse(), false);  // dismounted mounted infantry halted to shoot
          m.lose(lost_before[i]);
          const Length gap = Length::cm(vtest::get<double>(ev, "gap_cm"));
          const bool cover = solo_test::contains(ev.text, "(cover 1)");
          const auto plan = solo::solo_shot(*r, m.s, 0, gap, cover);
          REQUIRE(plan);
          CHECK(static_cast<long long>(plan->band + 1) == vtest::get<long long>(ev, "band"));
          CHECK(plan->need == vtest::get<long long>(ev, "need"));
          const std::vector<int> faces = faces_of(ev, "dice");
          if (plan->need <= 6) CHECK(static_cast<std::size_t>(plan->dice) == faces.size());
          const solo::StepRecord rec =
              solo::resolve_shooting(*r, m.s, 0, true, gap, cover, solo::player_dice(faces), std::nullopt);
          CHECK(rec.score == vtest::get<long long>(ev, "hits"));
          ++shots;
        } else if (ev.kind == "melee") {
          // Seed 003 and combat.melee: the charge bonus, the dice, who wins, the fall back.
          const bool bonus = solo_test::contains(ev.text, "charging)");
          int figures = u.figures_start - lost_before[i];
          for (std::size_t k = first; k < e; ++k)
            if (log.events[k].kind == "casualties" && log.events[k].unit == u.name)
              figures = static_cast<int>(vtest::get<long long>(log.events[k], "figures_left"));
          Mirror m(*sc, u);
          m.activate(*r, false, true);
          solo::ChargeInputs in;
          in.attacker = b.attacker_weight(i);
          in.move = solo::default_charge_move(*r, m.s, 0);
          in.distance = Length::cm(bonus ? 20 : 5);  // beyond or inside the minimum distance
          in.defender = DefenderClass::heavy_foot;
          solo::ChargeDice dice;
          dice.source = solo::DiceSource::player;
          dice.initiation = {6, 6};
          dice.dice = {6, 6};
          m.s.append(solo::ChargeEvent{u.name, solo::resolve_charge(*r, m.s, 0, in, dice)});
          REQUIRE(m.s.memory(0).contact);
          m.lose(u.figures_start - figures);
          const int theirs = static_cast<int>(vtest::get<long long>(ev, "defender_hits"));
          const solo::StepRecord rec =
              solo::resolve_melee(*r, m.s, 0, theirs, solo::player_dice(faces_of(ev, "attacker_dice")), std::nullopt);
          CHECK(rec.need == vtest::get<long long>(ev, "attacker_need"));
          CHECK(rec.score == vtest::get<long long>(ev, "attacker_hits"));
          CHECK(rec.casualties == std::min(theirs, figures));
          // What the engine did next to the charger: fell back (how far), or not.
          const Event* back = nullptr;
          for (std::size_t k = e + 1; k < log.events.size() && !back; ++k)
            if (log.events[k].kind == "retreat" && log.events[k].unit == u.name) back = &log.events[k];
          CHECK(rec.fell_back == (back != nullptr));
          if (back)
            CHECK(solo_test::contains(rec.outcome, format_length_table(Length::cm(vtest::get<double>(*back, "allowance_cm")), r->units)));
          if (back) CHECK((rec.result == "lost") == solo_test::contains(back->text, "loses the melee"));
          // A charger that lost its last figure is destroyed, not fallen back.
          CHECK(solo_test::contains(rec.outcome, "it is destroyed") == (theirs >= figures));
          ++melees;
        } else if (ev.kind == "rally") {
          // combat.morale: 2D6 against rally_target.
          Mirror m(*sc, u);
          m.lose(u.lost());
          m.s.append(solo::MoraleEvent{u.name, solo::Morale::shaken, ""});
          REQUIRE(solo::rally_need(*r, m.s, 0) == solo::RallyNeed::rally);
          const solo::StepRecord rec = solo::resolve_rally(*r, m.s, 0, false, solo::player_dice(faces_of(ev, "dice")));
          CHECK((rec.result == "rallied") == vtest::get<bool>(ev, "rallied"));
          CHECK(rec.need == vtest::get<long long>(ev, "need"));
          ++rallies;
        }
      }
      // Routs (combat.morale.rout_losses_pct): the engine's morale step and
      // the session's, with the same losses, agree unit by unit.
      for (std::size_t i = 0; i < b.units().size(); ++i) {
        const Unit& u = b.unit(i);
        if (u.side != 0 || routed_before[i] || u.figures == 0) continue;
        Mirror m(*sc, u);
        m.lose(u.lost());
        const bool solo_routs = solo::rally_need(*r, m.s, 0) == solo::RallyNeed::routs;
        INFO("seed " << seed << ", " << u.name << " lost " << u.lost() << " of " << u.figures_start);
        CHECK(solo_routs == (u.order == Order::routed));
        ++(solo_routs ? routs_seen : steady_checked);
      }
    }
  }
  // Each step was compared, more than once.
  CHECK(shots > 20);
  CHECK(melees > 20);
  CHECK(rallies > 5);
  CHECK(routs_seen > 5);
  CHECK(steady_checked > 10);
}

// Mounted infantry across turns (seed 001: mounting or dismounting takes
// its whole move; seed 002: it never shoots mounted): the engine's
// dragoons, halted by the table with the foot in reach, dismount and shoot;
// they stay on foot while the table halts them and mount when it moves
// them. The solo session, given the same facts and dice, must dismount,
// stay on foot and mount on the same turns, shoot the same shots, and
// carry the same pace into the next turn. Both ask the engine's
// mounted_infantry_order().
TEST_CASE("solo and simulation: mounted infantry dismounts, stays on foot and mounts on the same turns",
          "[solo][equivalence][turn][001-L3-solo-mount]") {
  RulesetPtr r = default_ruleset();
  auto sc = make_scenario(r, {{"Dragoons", 0, "dragoons", 12, {150, 250}, 180}, {"Foot", 1, "heavy_foot", 16, {150, 215}, 0}},
                          300, 500, 12);
  int dismounts = 0, on_foot_shots = 0, mounts = 0, stays = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    ReactionTableBot cav(BotOptions{});
    ScriptedBot hold;
    Engagement g(*sc, {&cav, &hold}, seed, 0);
    EventLog log;
    g.attach(&log);
    const Battle& b = g.battle();
    solo_test::TempDir dir;
    solo::Session s = [&] {
      solo::Header h;
      h.ruleset_path = "builtin:default";
      h.ruleset_hash = solo::ruleset_hash(*r);
      h.seed = 1;
      h.physical_dice = true;
      solo::UnitSpec spec;
      spec.name = "Dragoons";
      spec.type = b.unit(0).type->id;
      spec.figures = b.unit(0).figures_start;
      spec.weapon = r->weapons[*b.unit(0).profile->weapon].id;
      h.units.push_back(spec);
      return solo::Session(dir / "game.vedette.yaml", std::move(h));
    }();
    int known_lost = 0;
    for (int turn = 1; turn <= 12 && !g.finished(); ++turn) {
      const Unit& u = b.unit(0);
      const Situation facts = b.situation(0);
      const int lost = u.lost();
      const bool mounted_before = u.mounted;
      const std::size_t before = log.events.size();
      g.play_turn();
      const Event* decision = nullptr;
      const Event* move = nullptr;
      const Event* shot = nullptr;
      bool charged = false;
      for (std::size_t e = before; e < log.events.size(); ++e) {
        const Event& ev = log.events[e];
        if (ev.unit != "Dragoons") continue;
        if (ev.kind == "decision") decision = &ev;
        if (ev.kind == "move") move = &ev;
        if (ev.kind == "shoot") shot = &ev;
        if (ev.kind == "initiation" || ev.kind == "charge" || ev.kind == "melee") charged = true;
      }
      if (!decision || charged) break;  // routed, or a charge: this test follows the mount and dismount only
      INFO("seed " << seed << ", turn " << turn << ": " << (move ? move->text : "(no move)"));
      solo::Answers a;
      a[solo::Question::in_cover] = facts.in_cover;
      a[solo::Question::enemy_in_range] = facts.enemy_in_range;
      a[solo::Question::enemy_flank_rear] = facts.enemy_flank_rear;
      a[solo::Question::retreated_from_melee] = facts.retreated_from_melee;
      solo::Die die;
      die.dice = solo::DiceSource::player;
      die.roll = static_cast<int>(data_int(*decision, "roll"));
      const solo::Activation act = solo::decide_activation(*r, s, 0, a, lost - known_lost, die);
      known_lost = lost;
      CHECK(act.behaviour == data_str(*decision, "behaviour"));
      // On foot at the start of the turn in both.
      CHECK(act.on_foot == !mounted_before);
      REQUIRE(move);
      const std::string engine_move = data_str(*move, "move");
      const bool solo_mounts = act.on_foot && act.pace != Pace::halt;
      CHECK((engine_move == "mount") == solo_mounts);
      // Blocked (it closed up to the foot and cannot move on): the engine
      // remembers a halt, the session the pace it was told to move at.
      // The player's table has no such case to mirror: stop this game.
      if (!act.on_foot && act.pace != Pace::halt && !(vtest::get<double>(*move, "distance_cm") > 0)) break;
      CHECK_FALSE((act.on_foot && act.charge_possible));
      s.append(solo::ActivateEvent{"Dragoons", act});
      mounts += solo_mounts;
      stays += act.on_foot && !solo_mounts;
      // The shooting step: the engine's facts as the player's answers.
      const solo::ShootingChance chance = solo::shooting_chance(*r, s, 0);
      if (shot) {
        REQUIRE(chance.weapon);
        CHECK(chance.dismounts == (engine_move == "dismount"));
        const Length gap = Length::cm(vtest::get<double>(*shot, "gap_cm"));
        const bool cover = solo_test::contains(shot->text, "(cover 1)");
        const solo::StepRecord rec = solo::resolve_shooting(*r, s, 0, true, gap, cover, solo::player_dice(faces_of(*shot, "dice")),
                                                            std::nullopt);
        CHECK(rec.need == vtest::get<long long>(*shot, "need"));
        CHECK(rec.score == vtest::get<long long>(*shot, "hits"));
        CHECK(rec.dismounted == (engine_move == "dismount"));
        s.append(solo::ShootingEvent{"Dragoons", rec});
        dismounts += rec.dismounted;
        on_foot_shots += act.on_foot;
      } else {
        // No shot: the engine did not dismount (its foot reach is the shot's reach).
        CHECK(engine_move != "dismount");
      }
      // The memory each carries into the next turn.
      CHECK(s.memory(0).on_foot == !u.mounted);
      s.append(solo::NextTurnEvent{});
      CHECK(s.memory(0).pace == u.pace);
      CHECK(s.memory(0).gallop_streak == u.gallop_streak);
    }
  }
  // Each case was met, more than once.
  CHECK(dismounts > 5);
  CHECK(on_foot_shots > 5);
  CHECK(mounts > 5);
  CHECK(stays > 5);
}

// The optional rules of the charge (seed 001's Fear of Charge, seed 004's
// Infantry Square) played by the engine, a cavalry charge on foot that
// forms square, then through the solo session with the engine's facts and
// dice: the gut check's verdict (an open table: no cover to flee to, so a
// failure is caught in the open), no morale check for the square, the
// square's die, the cavalry's one die, the fall back and whether the
// square is shaken must be the same.
TEST_CASE("solo and simulation: fear of charge and the square's melee give the same outcomes",
          "[solo][equivalence][turn][001-L13-solo-fear][004-L26-solo-square]") {
  auto rules = std::make_shared<Ruleset>(*default_ruleset());
  rules->charge.fear_of_charge.enabled = true;
  rules->charge.infantry_square.enabled = true;
  RulesetPtr r = rules;
  auto sc = make_scenario(r, {{"C", 0, "heavy_cavalry", 12, {100, 140}, 180}, {"F", 1, "heavy_foot", 24, {100, 100}, 0}}, 200, 200);
  int gut_checks = 0, failed = 0, squares = 0, bounces = 0, shaken = 0;
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    ScriptedBot cav(vtest::charge_from_turn_2(0, 1, Pace::gallop));
    ScriptedBot foot;
    foot.square = true;
    Engagement g(*sc, {&cav, &foot}, seed, 0);
    EventLog log;
    g.attach(&log);
    const Battle& b = g.battle();
    const Unit& c = b.unit(0);
    int lost_before = 0;
    while (!g.finished()) {
      lost_before = c.lost();
      const std::size_t first = log.events.size();
      g.play_turn();
      const Event* gut = nullptr;
      const Event* square_first = nullptr;
      const Event* strike = nullptr;
      const Event* back = nullptr;
      bool square_shaken = false, charge = false;
      for (std::size_t e = first; e < log.events.size(); ++e) {
        const Event& ev = log.events[e];
        if (ev.kind == "charge" || ev.kind == "contact") charge = true;
        if (ev.kind == "fear_of_charge") gut = &ev;
        if (ev.kind == "square_first") square_first = &ev;
        if (ev.kind == "melee" && ev.unit == "C" && square_first) strike = &ev;
        if (ev.kind == "retreat" && ev.unit == "C" && square_first && !back) back = &ev;
        if (ev.kind == "order" && ev.unit == "F" && solo_test::contains(ev.text, "shaken") && square_first) square_shaken = true;
      }
      if (!charge || !gut) continue;
      INFO("seed " << seed << ": " << gut->text);
      // The solo session's charge on the same facts: heavy cavalry, 30 cm, heavy foot in front.
      Mirror m(*sc, c);
      m.activate(*r, false, true);
      m.lose(lost_before);
      solo::ChargeInputs in;
      in.attacker = b.attacker_weight(0);
      in.move = solo::default_charge_move(*r, m.s, 0);
      in.distance = Length::cm(30);
      in.defender = DefenderClass::heavy_foot;
      in.square = true;  // the foot's bot forms square when charged
      const int total = static_cast<int>(vtest::get<long long>(*gut, "total"));
      solo::ChargeDice dice;
      dice.source = solo::DiceSource::player;
      dice.initiation = {6, 6};
      dice.gut = {std::min(6, total - 1), total - std::min(6, total - 1)};  // two dice making the engine's total
      const solo::ChargeRecord rec = solo::resolve_charge(*r, m.s, 0, in, dice);
      REQUIRE(rec.fear);
      CHECK(rec.fear->passed == vtest::get<bool>(*gut, "passed"));
      CHECK_FALSE(rec.fear->evaded());
      ++gut_checks;
      failed += !rec.fear->passed;
      // No cover on this table: the engine's infantry is caught in the open too, and forms square.
      REQUIRE(square_first);
      CHECK(rec.square);
      CHECK_FALSE(rec.rolled);  // no morale check
      m.s.append(solo::ChargeEvent{"C", rec});
      REQUIRE(m.s.memory(0).square);
      const bool bounce = vtest::get<bool>(*square_first, "bounce");
      const int square_hits = static_cast<int>(vtest::get<long long>(*square_first, "hits"));
      std::vector<int> faces;
      if (strike) faces = faces_of(*strike, "dice");
      // The engine's square faces read as a player's (seed 004's bounce face).
      const SquareFaces read = read_square_faces(*r, faces_of(*square_first, "dice"));
      CHECK(read.bounce == bounce);
      CHECK(square_hits <= read.may_hit);
      const solo::StepRecord sr =
          solo::resolve_square_melee(*r, m.s, 0, read, square_hits, solo::player_dice(faces), std::nullopt);
      CHECK((sr.result == "bounced") == bounce);
      CHECK(sr.casualties == std::min(square_hits, m.s.figures_left(0)));
      if (strike) {
        CHECK(static_cast<long long>(faces.size()) == 1);  // at most one die against a square
        CHECK(sr.need == vtest::get<long long>(*strike, "need"));
        CHECK(sr.score == vtest::get<long long>(*strike, "hits"));
      }
      if (back) CHECK(solo_test::contains(sr.outcome, format_length_table(Length::cm(vtest::get<double>(*back, "allowance_cm")), r->units)));
      CHECK(solo_test::contains(sr.outcome, "it is shaken") == square_shaken);
      ++squares;
      bounces += bounce;
      shaken += square_shaken;
      break;  // one charge a game
    }
  }
  CHECK(gut_checks > 30);
  CHECK(failed > 5);
  CHECK(squares > 30);
  CHECK(bounces > 3);
  CHECK(shaken > 3);
}

}  // namespace t_solo_equivalence
