// `vedette react`: one decision of the Actions Table, explained.
#include <algorithm>
#include <cmath>
#include <memory>
#include <ostream>

#include "bots/reaction_bot.hpp"
#include "engine/core/words.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "sims/cli/cli.hpp"
#include "sims/cli/fact_flags.hpp"

namespace vedette::cli {

namespace {

struct ReactOptions : FactFlags {
  std::string ruleset;
  std::optional<int> roll;
  std::optional<std::uint64_t> seed;
  std::optional<int> rf;
  bool json = false;
};


int run_react(const ReactOptions& o, Io& io) {
  RulesetPtr rules = ruleset_from(o.ruleset);
  const Ruleset& r = *rules;

  UnitState unit = unit_state_from(r, o);
  Situation sit = situation_from(o);
  Facts facts(sit);

  RiskFactor rf;
  if (o.rf) {
    if (any_rf_fact_flag(o))
      throw UsageError("--rf gives the risk factor directly: leave out the fact flags (--hero, --cover, --enemy-in-range, "
                       "--raw, --casualties, --enemy-flank-rear, --ran-last-turn, --retreated-from-melee)");
    rf.total = *o.rf;
  } else {
    rf = compute_rf(r, facts);
  }

  std::optional<std::uint64_t> seed = o.seed;
  int roll;
  if (o.roll) {
    roll = *o.roll;
  } else {
    if (!seed) seed = fresh_seed();
    Rng rng = make_stream(*seed, 0, Subsystem::command);
    Dice dice(rng);
    roll = dice.d6();
  }
  Decision d = decide(r, rf.total, roll, unit);
  std::string note = adjustment_note(r, d, unit);
  std::string todo = instruction(r, d);

  if (o.json) {
    Json j;
    j["ruleset"] = r.name;
    j["rf"] = rf.total;
    j["rf_given"] = o.rf.has_value();
    j["breakdown"] = Json::array();
    for (const auto& t : rf.breakdown)
      j["breakdown"].push_back({{"id", t.modifier->id}, {"value", t.value}, {"reason", t.reason}});
    j["band"] = d.band->label;
    j["band_id"] = d.band->id;
    j["roll"] = roll;
    j["rolled"] = !o.roll.has_value();
    if (seed) j["seed"] = *seed;
    const Behaviour& b = *d.behaviour;
    j["behaviour"] = {{"id", b.id},
                      {"text", b.text},
                      {"pace", pace_name(d.pace)},
                      {"distance", d.pace == Pace::halt ? "" : pace_distance(r, d.pace)},
                      {"direction", direction_name(b.direction)},
                      {"faces_enemy", b.faces_enemy},
                      {"charge_possible", b.charge_possible},
                      {"running", b.running}};
    j["pace_adjustment"] = note.empty() ? Json(nullptr) : Json(note);
    j["instruction"] = todo;
    print_json(io.out, j);
    return 0;
  }

  auto& out = io.out;
  out << "Risk factor " << rf.total << "  (band " << d.band->label << ")\n";
  if (o.rf) {
    out << "  given directly with --rf\n";
  } else if (rf.breakdown.empty()) {
    out << "  no modifier applies\n";
  } else {
    for (const auto& t : rf.breakdown) out << "  " << signed_str(t.value) << "  " << t.reason << "\n";
  }
  out << "D6: " << roll;
  if (o.roll) out << " (your roll)\n";
  else out << " (rolled; --seed " << *seed << " repeats it)\n";
  out << "Table: " << d.behaviour->text << "\n";
  if (!note.empty()) out << "Limit: " << note << "\n";
  out << "Do:    " << todo << "\n";
  if (d.behaviour->running) out << "Next turn: the unit counts as running from the enemy (+3).\n";
  return 0;
}

}  // namespace

void add_react(CLI::App& app, Runner& run) {
  auto o = std::make_shared<ReactOptions>();
  auto* c = app.add_subcommand("react", "Decide what one automated cavalry unit does this turn: RF, D6, behaviour.");
  c->add_option("--ruleset", o->ruleset, "Ruleset YAML file (default: built-in seed 002 tables)");
  add_fact_flags(c, *o);
  auto* roll = c->add_option("--roll", o->roll, "Your physical D6 roll (1-6) instead of rolling")->check(CLI::Range(1, 6));
  auto* seed = c->add_option("--seed", o->seed, "Seed for the roll, to repeat it")->check(unsigned_number());
  roll->excludes(seed);
  c->add_option("--rf", o->rf, "Give the risk factor directly instead of the fact flags")->check(CLI::Range(-100, 100));
  c->add_flag("--json", o->json, "Print one JSON object");
  c->callback([o, &run] { run = [o](Io& io) { return run_react(*o, io); }; });
}

}  // namespace vedette::cli
