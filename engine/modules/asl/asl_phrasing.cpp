#include "engine/modules/asl/asl_phrasing.hpp"

namespace vedette::asl {

namespace {

// "woods, marsh, ..., across an Abrupt Elevation Change": what 13.36 bars
// Galloping Cavalry from.
std::string gallop_barred(const Rules& a) {
  std::string s;
  for (const auto& t : a.terrain)
    if (!t.gallop_enter) s += (s.empty() ? "" : ", ") + t.text;
  return s;
}

std::string gallop_no_declare(const Rules& a) {
  std::string s;
  for (const auto& t : a.terrain)
    if (!t.gallop_declare) s += (s.empty() ? "" : ", ") + t.text;
  return s;
}

// "1-2 hexes", "1 hex"
std::string too_close(int min_range) {
  if (min_range <= 1) return {};
  if (min_range == 2) return "1 hex";
  return "1-" + std::to_string(min_range - 1) + " hexes";
}

}  // namespace

std::string pace_phrase(const Rules& a, Pace p) {
  switch (p) {
    case Pace::halt: return {};
    case Pace::walk: return "Move up to " + mf(a.solo.walk_mf);
    case Pace::canter: return "Move up to " + mf(a.solo.canter_mf);
    case Pace::gallop:
      return "Gallop (declare at the start of the phase: allotment " + mf(a.horse_allotment + a.gallop_at_start) +
             ", Horse CX; NA while in " + gallop_no_declare(a) + " or if already CX: 13.36)";
  }
  return {};
}

bool may_gallop(const Ruleset& r, const Decision& d, const UnitState& before, std::string& why) {
  if (d.pace == Pace::gallop) return true;
  if (d.adjust == PaceAdjust::no_gallop || (before.type && !before.type->can_gallop)) {
    why = std::string(before.type ? before.type->name : "this unit") + " may never gallop";
    return false;
  }
  if (d.adjust == PaceAdjust::forced_walk || before.gallop_streak >= r.supplement.gallop_max_turns) {
    why = "it has galloped " + std::to_string(before.gallop_streak) + " turns in a row (the limit is " +
          std::to_string(r.supplement.gallop_max_turns) + ")";
    return false;
  }
  return true;
}

std::string charge_phrase(const Rules& a, const Ruleset& r, const Decision& d, const UnitState& before) {
  std::string why;
  if (!may_gallop(r, d, before, why))
    return "No Charge this turn: 13.6 needs Galloping Cavalry, and " + why + ".";
  const std::string close = too_close(a.charge_min_range);
  std::string s = "Charge? Only vs a Known enemy Location in its LOS " + std::to_string(a.charge_min_range) +
                  " or more hexes away when declared" + (close.empty() ? "" : " (at " + close + ": no Charge)");
  if (d.pace == Pace::gallop) {
    s += "; it is Galloping";
  } else {
    const std::string nd = gallop_no_declare(a);
    s += ", declaring a Gallop with it (+" + mf(a.gallop_during) + " to " + mf(a.horse_allotment + a.gallop_during) +
         "; NA if the Horse is CX" + (nd.empty() ? "" : " or in " + nd) + ")";
  }
  s += "; it must be able to Gallop into that Location and pay " + mf(a.charge_extra_mf) +
       " more with the cost of entering it (13.6). Check: vedette asl check-charge --range HEXES.";
  return s;
}

std::string instruction(const Rules& a, const Ruleset& r, const Decision& d, const UnitState& before) {
  const Behaviour& b = *d.behaviour;
  const std::string pace = pace_phrase(a, d.pace);
  const std::string enemy = b.target == vedette::Target::nearest_visible_enemy ? "the nearest visible enemy" : "the nearest enemy";
  const bool halt = d.pace == Pace::halt;
  std::string s;
  switch (b.direction) {
    case Direction::keep:
      s = halt ? "Stay in its hex (no MF)" : "Carry on as before: " + pace + " in a straight line of hexes, continuing the way it last moved";
      break;
    case Direction::toward:
      s = halt ? "Stay in its hex (no MF)" : pace + " directly toward " + enemy + ", each hex closing the range";
      break;
    case Direction::away:
      s = halt ? "Stay in its hex (no MF)" : pace + " directly away from " + enemy + ", each hex opening the range";
      break;
    case Direction::to_cover:
      if (halt) {
        s = "Stay in its hex (no MF)";
      } else {
        s = pace + " into the nearest hex with cover (a positive TEM) it can reach with them";
        if (d.pace == Pace::gallop) s += " (Galloping, not into: " + gallop_barred(a) + "; 13.36)";
        // As the tabletop's words (engine/decision/actions_table.cpp): a
        // direction a player can take from the board (issue 30).
        s += "; if there is none, " + away_from_enemies_words(r);
      }
      break;
    case Direction::hold: s = "Stay in its hex (no MF)"; break;
  }
  s += ".";
  if (b.charge_possible) s += " " + charge_phrase(a, r, d, before);
  return s;
}

}  // namespace vedette::asl
