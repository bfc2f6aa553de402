#include <cmath>
#include "sims/cli/fact_flags.hpp"

#include <algorithm>
#include <vector>

#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "sims/cli/cli.hpp"

namespace vedette::cli {

void add_fact_flags(CLI::App* c, FactFlags& f) {
  c->add_flag("--hero", f.hero, "A hero is with the unit");
  c->add_flag("--cover", f.cover, "The unit is entirely in cover");
  c->add_option("--pace", f.pace, "The pace the unit moved at last turn: halt, walk, canter or gallop")
      ->check(CLI::IsMember({"halt", "walk", "canter", "gallop"}));
  c->add_option("--galloped", f.galloped, "Turns in a row the unit has galloped, counting last turn (default 1 with --pace gallop; the limit is gallop_limit.turns)")->check(CLI::Range(0, 100));
  c->add_flag("--enemy-in-range", f.enemy_in_range, "An enemy in clear sight is within weapons range");
  c->add_flag("--raw", f.raw, "The unit is raw");
  c->add_option("--casualties", f.casualties, "Percentage of the group wounded or killed (e.g. 25)");
  c->add_flag("--enemy-flank-rear", f.flank_rear, "An enemy is to the flank or rear, in sight");
  c->add_flag("--ran-last-turn", f.ran, "The unit ran from the enemy last turn");
  c->add_flag("--retreated-from-melee", f.retreated, "The unit is retreating as a result of melee");
  c->add_option("--type", f.type, "Unit type: shock, shooting or mounted-infantry (as named in the ruleset)");
}

bool any_rf_fact_flag(const FactFlags& f, bool ran_is_state) {
  return f.hero || f.cover || f.enemy_in_range || f.raw || !f.casualties.empty() || f.flank_rear ||
         (f.ran && !ran_is_state) || f.retreated;
}

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

static Pace pace_from(const FactFlags& f) {
  auto pace = parse_pace(f.pace);
  if (!pace) throw UsageError("--pace: expected halt, walk, canter or gallop, got '" + f.pace + "'");
  return *pace;
}

UnitState unit_state_from(const Ruleset& r, const FactFlags& f) {
  Pace pace = pace_from(f);
  UnitState unit;
  unit.pace = pace;
  // A unit that moved at gallop last turn has galloped at least that turn.
  unit.gallop_streak = f.galloped.value_or(pace == Pace::gallop ? 1 : 0);
  if (unit.gallop_streak > 0 && pace != Pace::gallop)
    throw UsageError("--galloped " + std::to_string(unit.gallop_streak) + " needs --pace gallop (the streak counts turns galloped in a row)");
  if (unit.gallop_streak == 0 && pace == Pace::gallop)
    throw UsageError("--galloped 0 contradicts --pace gallop: a unit that galloped last turn has a streak of at least 1");
  if (!f.type.empty()) {
    std::string id = f.type;
    std::replace(id.begin(), id.end(), '-', '_');  // --type mounted-infantry names mounted_infantry
    unit.type = r.find_unit_type(id);
    if (!unit.type) {
      std::vector<std::string> ids;
      for (const auto& t : r.unit_types) ids.push_back(t.id);
      std::string list;
      for (const auto& i : ids) list += (list.empty() ? "" : ", ") + i;
      throw UsageError("--type: unknown unit type '" + f.type + "'" + did_you_mean(f.type, ids) + " (expected one of: " + list + ")");
    }
    if (!unit.type->can_gallop && pace == Pace::gallop)
      throw UsageError("--pace gallop: " + unit.type->name + " may never gallop");
  }
  return unit;
}

Situation situation_from(const FactFlags& f) {
  Situation sit;
  sit.hero = f.hero;
  sit.in_cover = f.cover;
  sit.pace = pace_from(f);
  sit.enemy_in_range = f.enemy_in_range;
  sit.raw = f.raw;
  if (!f.casualties.empty()) sit.casualties_hundredths = parse_percent(f.casualties);
  sit.enemy_flank_rear = f.flank_rear;
  sit.ran_last_turn = f.ran;
  sit.retreated_from_melee = f.retreated;
  return sit;
}

}  // namespace vedette::cli
