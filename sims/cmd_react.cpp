// `vedette react`: one decision of the Actions Table, explained.
#include <algorithm>
#include <cmath>
#include <memory>
#include <ostream>

#include "bots/reaction_bot.hpp"
#include "engine/diagnostics.hpp"
#include "engine/doc.hpp"
#include "sims/cli.hpp"

namespace vedette::cli {

namespace {

struct ReactOptions {
  std::string ruleset;
  bool hero = false, cover = false, enemy_in_range = false, raw = false, flank_rear = false;
  bool ran = false, retreated = false;
  std::string pace = "halt";
  std::string casualties;
  std::string type;
  int galloped = 0;
  std::optional<int> roll;
  std::optional<std::uint64_t> seed;
  std::optional<int> rf;
  bool json = false;
};

std::int32_t parse_percent(const std::string& s) {
  auto v = parse_number(s.size() && s.back() == '%' ? s.substr(0, s.size() - 1) : s);
  if (!v || *v < 0 || *v > 100)
    throw UsageError("--casualties: expected a percentage from 0 to 100 (e.g. 25 or 12.5), got '" + s + "'");
  // Rounded DOWN to a hundredth of a percent, as casualty_hundredths does:
  // the risk factor counts FULL 10% steps (seed 002), so 9.999% must stay
  // below 10%. The small tolerance absorbs binary error (0.29 * 100 =
  // 28.999...).
  return static_cast<std::int32_t>(std::floor(*v * 100 + 1e-6));
}

std::string signed_str(int v) { return (v > 0 ? "+" : "") + std::to_string(v); }

int run_react(const ReactOptions& o, Io& io) {
  RulesetPtr rules = ruleset_from(o.ruleset);
  const Ruleset& r = *rules;

  auto pace = parse_pace(o.pace);
  if (!pace) throw UsageError("--pace: expected halt, walk, canter or gallop, got '" + o.pace + "'");
  UnitState unit;
  unit.pace = *pace;
  unit.gallop_streak = o.galloped;
  if (o.galloped > 0 && *pace != Pace::gallop)
    throw UsageError("--galloped " + std::to_string(o.galloped) + " needs --pace gallop (the streak counts turns galloped in a row)");
  if (!o.type.empty()) {
    std::string id = o.type;
    std::replace(id.begin(), id.end(), '-', '_');  // --type mounted-infantry names mounted_infantry
    unit.type = r.find_unit_type(id);
    if (!unit.type) {
      std::vector<std::string> ids;
      for (const auto& t : r.unit_types) ids.push_back(t.id);
      std::string list;
      for (const auto& i : ids) list += (list.empty() ? "" : ", ") + i;
      throw UsageError("--type: unknown unit type '" + o.type + "'" + did_you_mean(o.type, ids) + " (expected one of: " + list + ")");
    }
    if (!unit.type->can_gallop && *pace == Pace::gallop)
      throw UsageError("--pace gallop: " + unit.type->name + " may never gallop");
  }

  Situation sit;
  sit.hero = o.hero;
  sit.in_cover = o.cover;
  sit.pace = *pace;
  sit.enemy_in_range = o.enemy_in_range;
  sit.raw = o.raw;
  if (!o.casualties.empty()) sit.casualties_hundredths = parse_percent(o.casualties);
  sit.enemy_flank_rear = o.flank_rear;
  sit.ran_last_turn = o.ran;
  sit.retreated_from_melee = o.retreated;
  Facts facts(sit);

  RiskFactor rf;
  if (o.rf) {
    if (o.hero || o.cover || o.enemy_in_range || o.raw || !o.casualties.empty() || o.flank_rear || o.ran || o.retreated)
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
  c->add_flag("--hero", o->hero, "A hero is with the unit");
  c->add_flag("--cover", o->cover, "The unit is entirely in cover");
  c->add_option("--pace", o->pace, "The pace the unit moved at last turn: halt, walk, canter or gallop")
      ->check(CLI::IsMember({"halt", "walk", "canter", "gallop"}));
  c->add_option("--galloped", o->galloped, "Turns in a row the unit has galloped (gallop limit)")->check(CLI::Range(0, 100));
  c->add_flag("--enemy-in-range", o->enemy_in_range, "An enemy in clear sight is within weapons range");
  c->add_flag("--raw", o->raw, "The unit is raw");
  c->add_option("--casualties", o->casualties, "Percentage of the group wounded or killed (e.g. 25)");
  c->add_flag("--enemy-flank-rear", o->flank_rear, "An enemy is to the flank or rear, in sight");
  c->add_flag("--ran-last-turn", o->ran, "The unit ran from the enemy last turn");
  c->add_flag("--retreated-from-melee", o->retreated, "The unit is retreating as a result of melee");
  c->add_option("--type", o->type, "Unit type: shock, shooting or mounted-infantry (as named in the ruleset)");
  auto* roll = c->add_option("--roll", o->roll, "Your physical D6 roll (1-6) instead of rolling")->check(CLI::Range(1, 6));
  auto* seed = c->add_option("--seed", o->seed, "Seed for the roll, to repeat it");
  roll->excludes(seed);
  c->add_option("--rf", o->rf, "Give the risk factor directly instead of the fact flags")->check(CLI::Range(-100, 100));
  c->add_flag("--json", o->json, "Print one JSON object");
  c->callback([o, &run] { run = [o](Io& io) { return run_react(*o, io); }; });
}

}  // namespace vedette::cli
