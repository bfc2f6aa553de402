// `vedette solo moved` and `vedette solo charged` (issue 28): the automated
// cavalry answers the player's moves in the player's movement step. `moved`:
// a unit of the player's is about to move, has moved or changed facing, and
// ends near some of the cavalry; each that may react decides with the
// engine's rule (an opportunity charge, seed 003 L90-L102). `charged`: the
// player's unit charges a cavalry unit: its counter-charge, its morale check
// (L7, L20), the result in table units, L54. The rules and the words are
// sims/solo/solo_react.cpp's; this file reads the flags and writes the session.
#include <memory>
#include <ostream>

#include "sims/cli/cli.hpp"
#include "sims/cli/solo_cli.hpp"
#include "sims/solo/solo_react.hpp"

namespace vedette::cli {

namespace {

using namespace solo_cli;

// The player's unit from the flags.
PlayerUnit player_unit(const std::string& name, const std::string& cls, const std::string& weight) {
  PlayerUnit u;
  u.name = name.empty() ? "your unit" : name;
  std::string why;
  auto d = parse_defender(cls, why);
  if (!d) throw UsageError("--as: " + why);
  u.defender = *d;
  if (!weight.empty()) {
    auto w = parse_attacker(weight, why);
    if (!w) throw UsageError("--weight: " + why);
    u.weight = *w;
  } else if (u.on_horse()) {
    // Its class says its weight: light, medium or heavy horse.
    u.weight = static_cast<AttackerWeight>(static_cast<std::size_t>(u.defender) - static_cast<std::size_t>(DefenderClass::light_horse));
  }
  return u;
}

std::optional<AttackerWeight> their_weight(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::string why;
  auto w = parse_attacker(text, why);
  if (!w) throw UsageError("--their-weight: " + why);
  return w;
}

StepDice dice_for(const Session& s, TurnStep step, std::size_t k, const std::vector<int>& roll) {
  if (roll.empty()) return reaction_dice(s, step, k);
  if (s.step_dice_for(step, k, s.state().turn))
    throw UsageError("dice were already rolled for this reaction this turn; they are used again (leave out --roll)");
  return player_dice(roll);  // read two by two in the order the charge asks for them
}

// --near "Cuirassiers=20cm,flank,no-arc,unseen,charging"
struct Near {
  std::size_t unit = 0;
  MoverFacts f;
};
Near parse_near(const Session& s, const Ruleset& r, const std::string& text) {
  const std::string form = "expected UNIT=DISTANCE[,front|flank|rear][,no-arc][,unseen][,charging], e.g. \"Cuirassiers=20cm,flank\"";
  const auto eq = text.find('=');
  if (eq == std::string::npos) throw UsageError("--near '" + text + "': " + form);
  Near n;
  n.unit = find_unit_or_throw(s, text.substr(0, eq));
  std::vector<std::string> parts;
  std::string rest = text.substr(eq + 1);
  for (std::size_t start = 0;;) {
    const auto comma = rest.find(',', start);
    parts.push_back(rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::string why;
  auto d = parse_table_length(r, parts[0], false, why);
  if (!d) throw UsageError("--near '" + text + "': the distance: " + why);
  n.f.distance = *d;
  for (std::size_t k = 1; k < parts.size(); ++k) {
    const std::string& p = parts[k];
    if (p == "front" || p == "flank" || p == "rear") n.f.side = *parse_side(p, why);
    else if (p == "no-arc") n.f.in_arc = false;
    else if (p == "unseen") n.f.in_sight = false;
    else if (p == "charging") n.f.charging_it = true;
    else if (p == "obstacle" || p == "uphill" || p == "into-terrain" || p == "into_terrain") n.f.path = *parse_path(p, why);
    else throw UsageError("--near '" + text + "': unknown '" + p + "'; " + form);
  }
  return n;
}

struct MovedOptions {
  std::string game, mover, cls = "heavy_foot", weight, kind = "moved", their_weight;
  std::vector<std::string> near;
  std::vector<int> roll;
  bool accept = false, json = false;
};

int run_moved(const MovedOptions& o, Io& io) {
  Session s = open_session(o.game);
  SessionRules sr = rules_for_change(s, o.accept, io);
  const Ruleset& r = *sr.rules;
  std::string why;
  const auto kind = parse_move_kind(o.kind, why);
  if (!kind) throw UsageError("--kind: " + why);
  const PlayerUnit pu = player_unit(o.mover, o.cls, o.weight);
  std::vector<Near> near;
  for (const std::string& t : o.near) {
    near.push_back(parse_near(s, r, t));
    near.back().f.unit = pu;
    near.back().f.kind = *kind;
  }
  Json out = Json::array();
  std::vector<std::string> lines;
  int reacting = 0;
  for (const ReactorStatus& st : reactor_status(r, s)) {
    const std::string& name = s.header().units[st.unit].name;
    const Near* n = nullptr;
    for (const Near& x : near)
      if (x.unit == st.unit) n = &x;
    Json j;
    j["unit"] = name;
    if (!n || !st.line.empty()) {
      // Not near, or it cannot react whatever the distance: one line, nothing asked.
      const std::string line = st.line.empty() ? name + " does not react: your unit did not end near it." : st.line;
      lines.push_back(line);
      j["reacts"] = false;
      j["outcome"] = line;
      out.push_back(j);
      continue;
    }
    if (!o.roll.empty() && ++reacting > 1) throw UsageError("--roll: give your dice for one unit's reaction at a time");
    const StepDice d = dice_for(s, TurnStep::opportunity, st.unit, o.roll);
    StepRecord rec = resolve_opportunity(r, s, st.unit, n->f, d, their_weight(o.their_weight));
    j["reacts"] = !rec.result.empty();
    if (rec.result.empty()) {
      lines.push_back(rec.outcome);
      j["outcome"] = rec.outcome;
      out.push_back(j);
      continue;
    }
    const Event& e = s.append(OpportunityEvent{name, rec});
    lines.push_back(rec.outcome);
    j["event"] = event_json(s, e);
    j["outcome"] = rec.outcome;
    out.push_back(j);
  }
  save_or_throw(s);
  if (o.json) {
    Json j;
    j["turn"] = s.state().turn;
    j["mover"] = pu.name;
    j["reactions"] = out;
    print_json(io.out, j);
  } else {
    for (const std::string& l : lines) io.out << l << "\n";
  }
  return 0;
}

struct ChargedOptions {
  std::string game, unit, mover, cls, weight, distance, side = "front", their_weight;
  bool no_bonus = false, no_arc = false, unseen = false;
  std::vector<int> roll;
  bool accept = false, json = false;
};

int run_charged(const ChargedOptions& o, Io& io) {
  Session s = open_session(o.game);
  SessionRules sr = rules_for_change(s, o.accept, io);
  const Ruleset& r = *sr.rules;
  const std::size_t k = find_unit_or_throw(s, o.unit);
  PlayerCharge c;
  c.unit = player_unit(o.mover, o.cls, o.weight);
  std::string why;
  auto d = parse_table_length(r, o.distance, false, why);
  if (!d) throw UsageError("--distance: " + why);
  c.distance = *d;
  auto side = parse_side(o.side, why);
  if (!side) throw UsageError("--side: " + why);
  c.side = *side;
  c.bonus = !o.no_bonus;
  c.in_arc = !o.no_arc;
  c.in_sight = !o.unseen;
  const StepDice dice = dice_for(s, TurnStep::charged, k, o.roll);
  StepRecord rec = resolve_charged(r, s, k, c, dice, their_weight(o.their_weight));
  const Event& e = s.append(ChargedEvent{s.header().units[k].name, rec});
  const int n = e.n;
  save_or_throw(s);
  if (o.json) print_json(io.out, event_json(s, s.event(n)));
  else io.out << rec.outcome << "\n";
  return 0;
}

}  // namespace

void add_solo_react(CLI::App* solo, Runner& run) {
  {
    auto o = std::make_shared<MovedOptions>();
    auto* c = solo->add_subcommand(
        "moved", "Your unit is about to move, has moved or changed facing: the cavalry's opportunity charges (seed 003)");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("--mover", o->mover, "Your unit's name, for the words");
    c->add_option("--as", o->cls, "Your unit's class on seed 003's table: peasants, light_foot, heavy_foot, elite_foot, "
                                  "light_horse, medium_horse, heavy_horse (default heavy_foot)");
    c->add_option("--weight", o->weight, "On horse and charging: its weight (light, medium, heavy)");
    c->add_option("--kind", o->kind, "about-to-move, moved (default) or faced");
    c->add_option("--near", o->near,
                  "A cavalry unit it ends near: UNIT=DISTANCE from that unit's front[,front|flank|rear: which face of yours it "
                  "would strike][,no-arc: not even partly within its 45-degree arc][,unseen][,charging: yours was charging it]");
    c->add_option("--their-weight", o->their_weight, "The cavalry's weight when its unit has none (light, medium, heavy)");
    c->add_option("--roll", o->roll, "Your dice for the one unit that reacts: initiation 2D6, your morale 2D6, its own 2D6")
        ->expected(2, 8)
        ->check(CLI::Range(1, 6));
    c->add_flag("--accept-ruleset-change", o->accept, "Go on if the session's ruleset file changed since it was last used");
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_moved(*o, io); }); });
  }
  {
    auto o = std::make_shared<ChargedOptions>();
    auto* c = solo->add_subcommand("charged", "Your unit charges a cavalry unit: its counter-charge and morale check (seed 003)");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->unit, "The cavalry unit charged")->required();
    c->add_option("--mover", o->mover, "Your unit's name, for the words");
    c->add_option("--as", o->cls, "Your unit's class on seed 003's table (light_horse, medium_horse, heavy_horse, heavy_foot, ...)")
        ->required();
    c->add_option("--weight", o->weight, "Its weight as a charger (default: its class's)");
    c->add_option("--distance", o->distance, "Between the two when your charge began, e.g. 30cm")->required();
    c->add_option("--side", o->side, "Which face of the cavalry your unit strikes: front (default), flank or rear");
    c->add_flag("--no-bonus", o->no_bonus, "It struck from inside its minimum distance: no charge bonus, no morale check (seed 003 L42)");
    c->add_flag("--no-arc", o->no_arc, "Your unit is not even partly within the cavalry's 45-degree arc (no counter-charge)");
    c->add_flag("--unseen", o->unseen, "The cavalry's front rank cannot see your unit");
    c->add_option("--their-weight", o->their_weight, "The cavalry's weight when its unit has none (light, medium, heavy)");
    c->add_option("--roll", o->roll, "Your dice: its counter-charge 2D6, its morale 2D6, your own 2D6")->expected(2, 6)->check(CLI::Range(1, 6));
    c->add_flag("--accept-ruleset-change", o->accept, "Go on if the session's ruleset file changed since it was last used");
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_charged(*o, io); }); });
  }
}

}  // namespace vedette::cli
