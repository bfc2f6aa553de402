#include "engine/decision/actions_table.hpp"

#include <algorithm>
#include <cctype>

namespace vedette {

Decision decide(const Ruleset& r, int rf, int roll, const UnitState& s) {
  Decision d;
  d.band = &r.band_for(rf);
  d.roll = roll;
  const auto& row = (s.at_halt() && d.band->at_halt) ? *d.band->at_halt : d.band->cells;
  d.behaviour = &r.behaviour(row[static_cast<std::size_t>(roll - 1)]);
  d.table_pace = d.behaviour->pace == PaceSpec::current ? s.pace : static_cast<Pace>(d.behaviour->pace);
  d.pace = d.table_pace;
  if (d.pace == Pace::gallop && s.type && !s.type->can_gallop) {
    d.pace = r.switches.no_gallop_pace;
    d.adjust = PaceAdjust::no_gallop;
  }
  if (s.gallop_streak >= r.supplement.gallop_max_turns && d.pace > r.supplement.after_gallop_limit) {
    d.pace = r.supplement.after_gallop_limit;
    d.adjust = PaceAdjust::forced_walk;
  }
  return d;
}

UnitState after(const UnitState& s, const Decision& d) {
  UnitState n = s;
  n.pace = d.pace;
  n.gallop_streak = d.pace == Pace::gallop ? s.gallop_streak + 1 : 0;
  return n;
}

std::vector<std::pair<const Behaviour*, Fraction>> band_odds(const Ruleset& r, const Band& b, bool at_halt) {
  const auto& row = (at_halt && b.at_halt) ? *b.at_halt : b.cells;
  std::vector<std::pair<const Behaviour*, Fraction>> out;
  for (BehaviourIndex i : row) {
    const Behaviour* beh = &r.behaviour(i);
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == beh; });
    if (it == out.end()) out.emplace_back(beh, Fraction(1, 6));
    else it->second = it->second + Fraction(1, 6);
  }
  return out;
}

std::string pace_distance(const Ruleset& r, Pace p) {
  const auto& range = r.pace_range(p);
  return format_number(to_tape(range.min.as(r.units), r.units)) + "-" + format_length_prose(range.max, r.units);
}

static std::string capitalised(std::string_view s) {
  std::string out(s);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

std::string instruction(const Ruleset& r, const Decision& d) {
  const Behaviour& b = *d.behaviour;
  std::string pace = capitalised(pace_name(d.pace));
  std::string dist = d.pace == Pace::halt ? "" : " " + pace_distance(r, d.pace);
  std::string enemy = b.target == Target::nearest_visible_enemy ? "the nearest visible enemy" : "the nearest enemy";
  std::string s;
  switch (b.direction) {
    case Direction::keep:
      if (d.pace == Pace::halt) s = "Stay at halt";
      // "Current actions": last turn's heading, which nobody at the table
      // remembers; the way it faces now is what the player sees (issue 30).
      else s = "Carry on as before: " + std::string(pace_name(d.pace)) + dist + " straight on, the way it faces now";
      if (b.faces_enemy) s += d.pace == Pace::halt ? ", turning to face " + enemy : ", then turn to face " + enemy;
      break;
    case Direction::toward:
      s = d.pace == Pace::halt ? "Stay at halt facing " + enemy : pace + dist + " directly toward " + enemy;
      break;
    case Direction::away:
      s = d.pace == Pace::halt ? "Stay at halt" : pace + dist + " directly away from " + enemy;
      s += b.faces_enemy ? ", then face it" : ", backs to the enemy";
      break;
    case Direction::to_cover:
      if (d.pace == Pace::halt) {
        s = "Stay at halt";
      } else {
        s = pace + " into the nearest accessible cover within one move (up to " + format_length_prose(r.pace_range(d.pace).max, r.units) +
            "); if there is none, " + std::string(pace_name(d.pace)) + dist +
            " " + away_from_enemies_words(r);
      }
      break;
    case Direction::hold:
      s = "Halt in position";
      if (b.faces_enemy) s += ", facing " + enemy;
      break;
  }
  s += ".";
  if (b.charge_possible) s += " Charge? If an enemy is within charge range, the unit may charge it.";
  return s;
}

std::string away_from_enemies_words(const Ruleset& r) {
  const bool nearest = r.combat.movement.away_from == CombatRules::AwayFrom::nearest;
  return std::string("directly away from the enemy (with enemies on more than one side of it, away from ") +
         (nearest ? "the nearest)" : "the middle of them all)");
}

std::string adjustment_note(const Ruleset& r, const Decision& d, const UnitState& s) {
  switch (d.adjust) {
    case PaceAdjust::none: return {};
    case PaceAdjust::no_gallop:
      return std::string(s.type ? s.type->name : "This unit") + " may never gallop: " + std::string(pace_name(d.pace)) +
             " instead (switches.no_gallop_pace).";
    case PaceAdjust::forced_walk:
      return "Galloped " + std::to_string(s.gallop_streak) + " turns in a row (the limit is " +
             std::to_string(r.supplement.gallop_max_turns) + "): only " + std::string(pace_name(d.pace)) + " this turn.";
    case PaceAdjust::after_charge:
      return "Charged last turn: it moves at normal speed this turn, " + std::string(pace_name(d.pace)) +
             " at most (seed 003; combat.charge.next_turn_pace).";
  }
  return {};
}

std::string turning_note(const Ruleset& r, const Decision& d) {
  const Behaviour& b = *d.behaviour;
  if (d.pace == Pace::halt || b.direction == Direction::keep || b.direction == Direction::hold) return {};
  const auto& sp = r.supplement;
  if (sp.turn_degrees <= 0) return {};
  const double frac = d.pace == Pace::gallop ? sp.turn_per_move_fraction_gallop : sp.turn_per_move_fraction;
  const Length max = r.pace_range(d.pace).max;
  const std::string part = frac == 0.25 ? "a quarter" : frac == 0.5 ? "half" : format_number(frac) + "";
  std::string s = "Turning (seed 002): each " + std::to_string(sp.turn_degrees) + " degrees it turns from its facing uses " + part +
                  " of the distance it moves (" + format_length_prose(Length::cm(max.as_cm() * frac), r.units) + " of a " +
                  format_length_prose(max, r.units) + " " + std::string(pace_name(d.pace)) + ")";
  if (r.combat.movement.about_face_free) s += "; an about face costs nothing, so no turn costs more than 90 degrees";
  if (b.faces_enemy && b.direction == Direction::away) s += "; the turn to face it at the end is free";
  return s + ".";
}

}  // namespace vedette
