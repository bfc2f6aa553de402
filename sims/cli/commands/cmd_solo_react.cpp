// `vedette solo moved` and `vedette solo charged` (issue 28): the automated
// cavalry answers the player's moves in the player's movement step. `moved`:
// a unit of the player's is about to move, has moved or changed facing, and
// ends near some of the cavalry; each that may react decides with the
// engine's rule (an opportunity charge, seed 003 L90-L102). `charged`: the
// player's unit charges a cavalry unit: its counter-charge, its morale check
// (L7, L20), the result in table units, L54. The rules and the words are
// sims/solo/solo_react.cpp's, the commands sims/solo/solo_command.hpp's
// (solo::Moved, solo::Charged); this file reads the flags and prints.
#include <memory>
#include <ostream>

#include "sims/cli/cli.hpp"
#include "sims/cli/solo_cli.hpp"
#include "sims/solo/solo_react.hpp"

namespace vedette::cli {

namespace {

using namespace solo_cli;

// apply(), saying the flag that gives a weight the session does not know
// (solo::WeightNeeded: `solo play` and the page ask it instead).
template <class C>
Applied apply_naming_weight(Session& s, const Ruleset& r, const C& c) {
  try {
    return apply(s, r, c);
  } catch (const solo::WeightNeeded& need) {
    throw UsageError("--their-weight light|medium|heavy is needed: " + std::string(need.what()));
  }
}

// --near "Cuirassiers=20cm,flank,no-arc,unseen,charging": the words are
// read by sims/solo (parse_near_words), checked by apply().
struct MovedOptions {
  std::string game, mover, cls = "heavy_foot", weight, kind = "moved", their_weight;
  std::vector<std::string> near;
  std::vector<int> roll;
  bool accept = false, json = false;
};

int run_moved(const MovedOptions& o, Io& io) {
  Session s = open_session(o.game);
  solo::Moved c;
  c.mover = o.mover;
  c.as = o.cls;
  c.weight = o.weight;
  c.kind = o.kind;
  c.their_weight = o.their_weight;
  c.roll = o.roll;
  for (const std::string& t : o.near) {
    std::string why;
    auto n = parse_near_words(s, t, why);
    if (!n) throw UsageError("--near " + why);
    c.near.push_back(*n);
  }
  solo::check(s, c);
  SessionRules sr = rules_for_change(s, o.accept, io);
  const Applied a = apply_naming_weight(s, *sr.rules, c);
  save_or_throw(s);
  if (o.json) print_json(io.out, applied_json(s, c, a));
  else
    for (const Applied::Reaction& x : a.reactions) io.out << x.outcome << "\n";
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
  solo::Charged c;
  c.unit = o.unit;
  c.mover = o.mover;
  c.as = o.cls;
  c.weight = o.weight;
  c.distance = o.distance;
  c.side = o.side;
  c.bonus = !o.no_bonus;
  c.in_arc = !o.no_arc;
  c.in_sight = !o.unseen;
  c.their_weight = o.their_weight;
  c.roll = o.roll;
  solo::check(s, c);
  SessionRules sr = rules_for_change(s, o.accept, io);
  const Applied a = apply_naming_weight(s, *sr.rules, c);
  save_or_throw(s);
  if (o.json) print_json(io.out, applied_json(s, c, a));
  else io.out << step_record(s.event(a.events.back()).body)->outcome << "\n";
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
                  "would strike][,no-arc: not even partly within its charge arc (charge.arc_degrees; at the default 45 degrees either side: in front of its front edge, no further out to the side than in front)][,unseen][,charging: yours was charging it]");
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
    c->add_flag("--no-arc", o->no_arc, "Your unit is not even partly within the cavalry's charge arc (charge.arc_degrees; at the default 45 degrees either side: in front of its front edge, no further out to the side than in front): no counter-charge");
    c->add_flag("--unseen", o->unseen, "The cavalry's front rank cannot see your unit");
    c->add_option("--their-weight", o->their_weight, "The cavalry's weight when its unit has none (light, medium, heavy)");
    c->add_option("--roll", o->roll, "Your dice: its counter-charge 2D6, its morale 2D6, your own 2D6")->expected(2, 6)->check(CLI::Range(1, 6));
    c->add_flag("--accept-ruleset-change", o->accept, "Go on if the session's ruleset file changed since it was last used");
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_charged(*o, io); }); });
  }
}

}  // namespace vedette::cli
