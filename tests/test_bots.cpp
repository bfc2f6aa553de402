// Bots (bots/): each reads the battle and returns commands, never changing it.
// The reaction-table bot turns the seed 002 Actions Table into orders from
// facts computed on the battlefield; the player models behave as documented.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include <string>
#include <vector>

#include "bots/infantry_bots.hpp"
#include "bots/reaction_bot.hpp"
#include "bots/registry.hpp"
#include "bots/thinking_cavalry.hpp"
#include "engine/engagement/engagement.hpp"
#include "engagement_helpers.hpp"
#include "helpers.hpp"

namespace t_bots {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;
using vtest::make_scenario;
using vtest::ScriptedBot;

namespace {

const Behaviour& beh(const Ruleset& r, const char* id) {
  const Behaviour* b = r.find_behaviour(id);
  REQUIRE(b);
  return *b;
}

Decision decision_for(const Ruleset& r, const char* id, Pace pace) {
  Decision d;
  d.behaviour = &beh(r, id);
  d.band = &r.bands.front();
  d.roll = 1;
  d.pace = pace;
  d.table_pace = pace;
  return d;
}

// A battle after `turns` turns of everyone holding (so turn() > 1 allows charges).
struct Held {
  std::shared_ptr<Scenario> s;
  ScriptedBot hold;
  std::unique_ptr<Engagement> g;
  Held(std::shared_ptr<Scenario> sc, int turns) : s(std::move(sc)) {
    g = std::make_unique<Engagement>(*s, std::array<const Bot*, 2>{&hold, &hold}, 1, 0);
    for (int t = 0; t < turns; ++t) g->play_turn();
  }
  const Battle& b() const { return g->battle(); }
};

bool same_state(const Battle& a, const std::vector<Unit>& before) {
  for (std::size_t i = 0; i < before.size(); ++i) {
    const Unit& u = a.unit(i);
    if (!(u.pos == before[i].pos) || u.facing != before[i].facing || u.figures != before[i].figures || u.pace != before[i].pace ||
        u.order != before[i].order || u.formation != before[i].formation || u.mounted != before[i].mounted)
      return false;
  }
  return true;
}

}  // namespace

TEST_CASE("bots: each is chosen by name", "[bots]") {
  const auto names = bot_names();
  const std::vector<std::string> expected{"reaction_table", "thinking_cavalry", "hold_and_shoot", "advance_and_shoot", "square_when_charged",
                                          "pike_and_shoot"};
  CHECK(std::vector<std::string>(names.begin(), names.end()) == expected);
  for (const auto& n : names) {
    SideSpec side;
    side.bot = n;
    auto bot = make_bot(side);
    REQUIRE(bot);
    CHECK(bot->name() == n);
  }
  SideSpec bad;
  bad.bot = "napoleon";
  CHECK_THROWS_AS(make_bot(bad), std::invalid_argument);
}

TEST_CASE("bots: the reaction table maps each behaviour to a command (seed 002)", "[bots][reaction]") {
  RulesetPtr r = default_ruleset();
  auto s = make_scenario(r, {{"C", 0, "light_cavalry", 12, {60, 60}, 180, Pace::walk}, {"F", 1, "heavy_foot", 20, {60, 10}, 0}});
  Held h(s, 2);
  const Battle& b = h.b();
  struct Case {
    const char* id;
    Pace pace;
    Move move;
    bool face, running;
  };
  for (const Case c : {Case{"continue", Pace::walk, Move::keep, false, false}, Case{"advance_nearest_visible", Pace::walk, Move::toward, false, false},
                       Case{"walk_to_cover", Pace::walk, Move::to_cover, false, false}, Case{"halt_facing", Pace::halt, Move::hold, true, false},
                       Case{"canter_away", Pace::canter, Move::away, true, true}, Case{"flee_gallop", Pace::gallop, Move::away, false, true}}) {
    INFO(c.id);
    const Command cmd = command_for(b, 0, decision_for(*r, c.id, c.pace));
    CHECK(cmd.move == c.move);
    CHECK(cmd.pace == c.pace);
    CHECK(cmd.face_target == c.face);
    CHECK(cmd.running == c.running);
    CHECK(cmd.target == 1);
    CHECK(cmd.charge == k_no_unit);
  }
}

TEST_CASE("bots: a (Charge?) cell declares a charge only on an enemy in charge range and arc (seed 002, 003)", "[bots][reaction][003-L3-contact-expected]") {
  RulesetPtr r = default_ruleset();
  // 40cm apart, gap 33cm: in a gallop's 75cm range, beyond a walk's 45cm? no: 33 < 45.
  auto near = make_scenario(r, {{"C", 0, "heavy_cavalry", 12, {60, 60}, 180}, {"F", 1, "heavy_foot", 20, {60, 20}, 0}});
  Held h(near, 2);
  const Command gallop = command_for(h.b(), 0, decision_for(*r, "gallop_advance_charge", Pace::gallop));
  CHECK(gallop.move == Move::toward);
  CHECK(gallop.charge == 1);
  // Not on turn 1 (seed 003).
  Held first(near, 0);
  CHECK(command_for(first.b(), 0, decision_for(*r, "gallop_advance_charge", Pace::gallop)).charge == k_no_unit);
  // Out of range at a walk: 90cm away.
  auto far = make_scenario(r, {{"C", 0, "heavy_cavalry", 12, {60, 78}, 180}, {"F", 1, "heavy_foot", 20, {60, 2}, 0}});
  Held hf(far, 2);
  CHECK(command_for(hf.b(), 0, decision_for(*r, "continue_facing_charge", Pace::walk)).charge == k_no_unit);
  // Behind it: outside the arc even after the preliminary turn.
  auto behind = make_scenario(r, {{"C", 0, "heavy_cavalry", 12, {60, 60}, 0}, {"F", 1, "heavy_foot", 20, {60, 20}, 0}});
  Held hb(behind, 2);
  CHECK(command_for(hb.b(), 0, decision_for(*r, "gallop_advance_charge", Pace::gallop)).charge == k_no_unit);
  // Side option charge_without_bonus: false: only charges with the bonus.
  auto close = make_scenario(r, {{"C", 0, "lancers", 12, {60, 30}, 180}, {"F", 1, "armoured_foot", 20, {60, 20}, 0}});  // no missiles
  Held hc(close, 2);  // gap 3cm: inside the minimum distance
  CHECK(command_for(hc.b(), 0, decision_for(*r, "continue_facing_charge", Pace::walk)).charge == 1);
  CHECK(command_for(hc.b(), 0, decision_for(*r, "continue_facing_charge", Pace::walk), false).charge == k_no_unit);
  CHECK(command_for(h.b(), 0, decision_for(*r, "gallop_advance_charge", Pace::gallop), false).charge == 1);
  // A cell without "(Charge?)" never charges.
  CHECK(command_for(h.b(), 0, decision_for(*r, "halt_facing", Pace::halt)).charge == k_no_unit);
}

TEST_CASE("bots: the reaction bot's RF comes from the battlefield's facts (seed 002)", "[bots][reaction]") {
  RulesetPtr r = default_ruleset();
  // Hussars in a wood (cover), infantry in musket range to the front, a
  // second enemy on their flank.
  auto s = make_scenario(r, {{"H", 0, "light_cavalry", 12, {60, 50}, 180, Pace::walk},
                             {"F", 1, "heavy_foot", 20, {60, 20}, 0},
                             {"G", 1, "heavy_foot", 12, {100, 50}, 270}});
  s->units[0].hero = true;
  s->units[0].raw = true;
  auto table = std::make_shared<Tabletop>(Length::cm(120), Length::cm(80));
  table->add_area({"wood", Polygon{{{40, 40}, {80, 40}, {80, 60}, {40, 60}}}, 1, 2.0, true});
  s->table = table;
  Battle b(*s);
  const Situation sit = b.situation(0);
  CHECK(sit.hero);
  CHECK(sit.raw);
  CHECK(sit.in_cover);
  CHECK(sit.pace == Pace::walk);
  CHECK(sit.enemy_in_sight);
  CHECK(sit.enemy_in_range);     // F's muskets reach 40cm; the gap is 23cm (switches.weapons_range: enemy)
  CHECK(sit.enemy_flank_rear);   // G is at 90 degrees off its facing
  CHECK(sit.casualties_hundredths == 0);
  // hero -1, cover -1, in range +1, raw in range +1, flank +2 = 2
  CHECK(rf_total(*r, b.facts(0)) == 2);

  ReactionTableBot bot(BotOptions{});
  std::vector<Command> out(3);
  Rng rng = make_stream(9, 0, Subsystem::decisions);
  Dice dice(rng);
  std::vector<Unit> before(b.units().begin(), b.units().end());
  bot.orders(b, 0, dice, out);
  CHECK(dice.rolled() == 1);  // one D6 per automated cavalry unit
  CHECK(out[0].reacted);
  CHECK(out[0].rf == 2);
  CHECK(out[0].decision.band->id == "rf2_5");
  CHECK_FALSE(out[1].reacted);  // the other side's units are left alone
  CHECK(same_state(b, before));
}

TEST_CASE("bots: mounted infantry dismounts to shoot when halted, mounts to move (seed 001, 002)", "[bots][reaction]") {
  RulesetPtr r = default_ruleset();
  auto s = make_scenario(r, {{"D", 0, "dragoons", 10, {60, 40}, 180}, {"F", 1, "heavy_foot", 20, {60, 10}, 0}});
  Held h(s, 1);
  CHECK(command_for(h.b(), 0, decision_for(*r, "halt_facing", Pace::halt)).move == Move::dismount);  // 21cm: within its musket's 40cm on foot
  CHECK(command_for(h.b(), 0, decision_for(*r, "canter_away", Pace::canter)).move == Move::away);
  // On foot.
  s->units[0].mounted = false;
  Held f(s, 1);
  CHECK(command_for(f.b(), 0, decision_for(*r, "canter_away", Pace::canter)).move == Move::mount);
  CHECK(command_for(f.b(), 0, decision_for(*r, "halt_facing", Pace::halt)).move == Move::hold);
}

TEST_CASE("bots: mounted infantry dismounts only for a shot it can take: in its front arc as it will face (seed 002)",
          "[bots][reaction][002-L31-solo-dismount]") {
  RulesetPtr r = default_ruleset();
  // The foot 21cm behind the dragoons (within the musket's 40cm on foot),
  // the dragoons facing away.
  auto s = make_scenario(r, {{"D", 0, "dragoons", 10, {60, 40}, 0}, {"F", 1, "heavy_foot", 20, {60, 10}, 0}});
  Held h(s, 1);
  // "Continue" at the halt does not turn it: the foot stays outside its
  // front arc, there is no shot, and it stays mounted.
  const Command keep = command_for(h.b(), 0, decision_for(*r, "continue", Pace::halt));
  CHECK(keep.move == Move::keep);
  CHECK_FALSE(keep.face_target);
  // "Halt facing the nearest enemy" turns it to the foot: the shot is there.
  CHECK(command_for(h.b(), 0, decision_for(*r, "halt_facing", Pace::halt)).move == Move::dismount);
  // Facing the foot already, "continue" at the halt dismounts too.
  s->units[0].facing = 180;
  Held f(s, 1);
  CHECK(command_for(f.b(), 0, decision_for(*r, "continue", Pace::halt)).move == Move::dismount);
}

TEST_CASE("bots: infantry models hold, advance, and form square as documented", "[bots][infantry]") {
  RulesetPtr r = load_ruleset(std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/rules/squares.yaml");
  auto s = make_scenario(r, {{"C", 0, "heavy_cavalry", 12, {60, 75}, 180}, {"F", 1, "heavy_foot", 20, {60, 10}, 0}});
  Battle b(*s);
  Rng rng = make_stream(1, 0, Subsystem::decisions);
  Dice dice(rng);
  std::vector<Command> out(2);
  InfantryBot hold(InfantryBot::Style::hold_and_shoot, BotOptions{});
  hold.orders(b, 1, dice, out);
  CHECK(out[1].move == Move::hold);
  CHECK(out[1].face_target);
  CHECK(out[1].target == 0);
  CHECK_FALSE(hold.form_square(b, 1, 0));
  BotOptions sq;
  sq.form_square = true;
  CHECK(InfantryBot(InfantryBot::Style::hold_and_shoot, sq).form_square(b, 1, 0));
  CHECK(InfantryBot(InfantryBot::Style::square_when_charged, BotOptions{}).form_square(b, 1, 0));

  InfantryBot adv(InfantryBot::Style::advance_and_shoot, BotOptions{});
  adv.orders(b, 1, dice, out);
  CHECK(out[1].move == Move::toward);
  CHECK(out[1].pace == Pace::walk);
  CHECK(out[1].stop_gap == Length::cm(40));  // its musket's reach
  BotOptions close;
  close.advance_to = Length::cm(80);
  InfantryBot(InfantryBot::Style::advance_and_shoot, close).orders(b, 1, dice, out);
  CHECK(out[1].move == Move::hold);  // already within 80cm
  CHECK(dice.rolled() == 0);         // these bots do not roll

  // A square stays while cavalry could charge it next turn, then forms line.
  auto in_square = make_scenario(r, {{"C", 0, "heavy_cavalry", 12, {60, 75}, 180}, {"F", 1, "heavy_foot", 20, {60, 10}, 0, Pace::halt, Formation::square}});
  Battle b2(*in_square);
  CHECK(cavalry_threatens(b2, 1));  // 75cm gallop charge range, gap 57cm
  InfantryBot(InfantryBot::Style::square_when_charged, BotOptions{}).orders(b2, 1, dice, out);
  CHECK(out[1].move == Move::hold);
  auto safe = make_scenario(r, {{"C", 0, "heavy_cavalry", 12, {60, 195}, 180}, {"F", 1, "heavy_foot", 20, {60, 10}, 0, Pace::halt, Formation::square}}, 120, 200);
  Battle b3(*safe);
  CHECK_FALSE(cavalry_threatens(b3, 1));
  InfantryBot(InfantryBot::Style::square_when_charged, BotOptions{}).orders(b3, 1, dice, out);
  CHECK(out[1].move == Move::leave_square);
}

TEST_CASE("bots: the thinking cavalry charges good targets, spares squares and pikes, withdraws when hurt", "[bots][thinking]") {
  RulesetPtr r = load_ruleset(std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/rules/squares.yaml");
  ThinkingCavalryBot bot(BotOptions{});
  std::vector<Command> out(2);
  Rng rng = make_stream(1, 0, Subsystem::decisions);
  Dice dice(rng);
  // In gallop charge range with the bonus: declare.
  auto s = make_scenario(r, {{"C", 0, "heavy_cavalry", 12, {60, 60}, 180}, {"F", 1, "heavy_foot", 20, {60, 20}, 0}});
  Held h(s, 2);
  bot.orders(h.b(), 0, dice, out);
  CHECK(out[0].charge == 1);
  CHECK(out[0].pace == Pace::gallop);
  // Not on a square, nor on pikes facing it.
  for (const char* target : {"square", "pikes"}) {
    INFO(target);
    const bool square = std::string(target) == "square";
    auto t = make_scenario(r, {{"C", 0, "heavy_cavalry", 12, {60, 60}, 180},
                               {"F", 1, square ? "heavy_foot" : "pikes", 20, {60, 20}, 0, Pace::halt, square ? Formation::square : Formation::line}});
    Held ht(t, 2);
    bot.orders(ht.b(), 0, dice, out);
    CHECK(out[0].charge == k_no_unit);
  }
  // Far away: close in at a canter, stopping outside the muskets' reach.
  auto far = make_scenario(r, {{"C", 0, "heavy_cavalry", 12, {60, 195}, 180}, {"F", 1, "heavy_foot", 20, {60, 10}, 0}}, 120, 200);
  Held hf(far, 2);
  bot.orders(hf.b(), 0, dice, out);
  CHECK(out[0].charge == k_no_unit);
  CHECK(out[0].move == Move::toward);
  CHECK(out[0].pace == Pace::canter);
  CHECK(out[0].stop_gap == Length::cm(42));  // musket reach 40cm + 2cm
  // Hurt past its threshold (here 0%: any losses, none needed): home at a canter.
  BotOptions timid;
  timid.withdraw_at_losses_pct = 0;
  ThinkingCavalryBot(timid).orders(h.b(), 0, dice, out);
  CHECK(out[0].move == Move::home);
  CHECK(out[0].pace == Pace::canter);
  CHECK(out[0].charge == k_no_unit);
  CHECK(dice.rolled() == 0);
}

TEST_CASE("bots: the automated and the thinking cavalry both play the open field", "[bots][thinking]") {
  // The two cavalry commanders against the same infantry and dice seeds:
  // the thinking player declares only charges it can make with the bonus.
  const std::string dir = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/";
  for (const char* f : {"open_field_charge.yaml", "open_field_thinking.yaml"}) {
    ScenarioPtr s = load_scenario_file(dir + f);
    Players p = make_players(*s);
    int declared = 0, with_bonus = 0, charges = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      Engagement g(*s, p.bots(), seed, 0);
      EventLog log;
      g.attach(&log);
      g.run();
      declared += g.outcome().sides[0].charges_declared;
      for (const auto& e : log.events)
        if (e.kind == "charge") {
          ++charges;
          with_bonus += vtest::get<bool>(e, "bonus");
        }
    }
    INFO(f << ": " << declared << " declared, " << charges << " charges, " << with_bonus << " with the bonus");
    CHECK(declared > 0);
    if (std::string(f) == "open_field_thinking.yaml") CHECK(with_bonus == charges);
  }
}

// Seed 003 L5, the optional Swiss/Landsknechte pike charge, played: the
// shipped pike_charge.yaml (bot pike_and_shoot, rules/pike_charge.yaml).
// Through `vedette play` as a user runs it: the pikes declare the charge
// (never on turn 1), the charged enemy rolls on the Loss Table; with the
// ruleset's switch off, or with the plain hold_and_shoot bot, no pike
// charge is ever made.
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream t;
  t << in.rdbuf();
  return t.str();
}

struct PikePlay {
  int declared = 0, loss_rolls = 0, turn1_declarations = 0;
};

PikePlay play_pikes(const std::string& scenario, const char* seed) {
  const auto r = vtest::run_vedette({"play", scenario, "--seed", seed, "--json"});
  INFO(scenario << " --seed " << seed << "\n" << r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  PikePlay p;
  for (const auto& e : j.at("events")) {
    const std::string kind = e.value("kind", ""), unit = e.value("unit", "");
    if (kind == "declare" && unit == "Swiss pikes") {
      ++p.declared;
      if (e.value("turn", 0) == 1) ++p.turn1_declarations;
    }
    if (kind == "pike_charge") {
      ++p.loss_rolls;
      INFO(e.value("text", ""));
      CHECK(unit != "Swiss pikes");  // the enemy rolls, never the pikes
      CHECK(e.value("text", "").find("Loss Table") != std::string::npos);
    }
  }
  return p;
}

}  // namespace

TEST_CASE("bots: pike_and_shoot's pikes make seed 003's pike charge in vedette play, only when the ruleset turns it on",
          "[bots][commands][003-L5-pike-charge-play]") {
  const std::string src = VEDETTE_SOURCE_DIR;
  const std::string shipped = src + "/sims/scenarios/pike_charge.yaml";
  int declared = 0, rolls = 0;
  for (const char* seed : {"1", "2", "3", "4", "5", "6", "7", "8"}) {
    const PikePlay p = play_pikes(shipped, seed);
    declared += p.declared;
    rolls += p.loss_rolls;
    CHECK(p.turn1_declarations == 0);  // seed 003 L24: no declarations on the first turn
  }
  CHECK(declared >= 8);
  CHECK(rolls >= 4);
  // The same battle with the switch off, and with the plain bot: no pike charge.
  vtest::TempDir dir;
  std::string text = read_text(shipped);
  const std::string rules_line = "ruleset: rules/pike_charge.yaml", bot_line = "bot: pike_and_shoot";
  REQUIRE(text.find(rules_line) != std::string::npos);
  REQUIRE(text.find(bot_line) != std::string::npos);
  std::string off = text, plain = text;
  off.replace(off.find(rules_line), rules_line.size(), "ruleset: builtin:default");
  plain.replace(plain.find(rules_line), rules_line.size(), "ruleset: " + src + "/sims/scenarios/rules/pike_charge.yaml");
  plain.replace(plain.find(bot_line), bot_line.size(), "bot: hold_and_shoot");
  const std::string off_file = dir.write("pikes_off.yaml", off), plain_file = dir.write("pikes_plain.yaml", plain);
  for (const char* seed : {"1", "2", "3", "4"}) {
    const PikePlay a = play_pikes(off_file, seed), b = play_pikes(plain_file, seed);
    CHECK(a.declared == 0);
    CHECK(a.loss_rolls == 0);
    CHECK(b.declared == 0);
    CHECK(b.loss_rolls == 0);
  }
}

}  // namespace t_bots
