// `vedette charge`: one cavalry charge of seed 003 on the table top: does it
// reach, does it earn the charge bonus, what the defender needs on 2D6 to
// stand (with the exact chance, shown before the dice), the roll, and what
// the result means for the figures.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <ostream>

#include "engine/core/words.hpp"
#include "engine/decision/charge.hpp"
#include "engine/procedures/charge_procedure.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/core/dice.hpp"
#include "sims/cli/cli.hpp"

namespace vedette::cli {

namespace {

struct ChargeOptions {
  std::string ruleset;
  std::string move, distance, defender_move;
  double bearing = 0;
  std::string attacker, defender;
  bool flank = false, rear = false, both_charging = false, pikes_facing = false, square = false;
  std::vector<int> roll;
  std::optional<std::uint64_t> seed;
  bool json = false;
};

// A length from a flag: a unit is required, and it may not be negative.
struct FlagLength {
  Length length;
  LengthUnit unit = LengthUnit::in;  // as the user wrote it, for output
};

FlagLength parse_flag_length(const std::string& flag, const std::string& text) {
  auto l = parse_length(text);
  if (!l)
    throw UsageError(flag + ": expected a length with its unit (e.g. 12in, 30cm, 300mm), got '" + text + "'");
  if (l->as_cm() < 0) throw UsageError(flag + ": a distance cannot be negative, got '" + text + "'");
  if (l->as_cm() > k_max_length_cm) throw UsageError(flag + ": at most 1 km (100000cm), got '" + text + "'");
  std::string t = text;
  while (!t.empty() && t.back() == ' ') t.pop_back();
  FlagLength out{*l, LengthUnit::in};
  if (t.size() >= 2 && t.compare(t.size() - 2, 2, "cm") == 0) out.unit = LengthUnit::cm;
  if (t.size() >= 2 && t.compare(t.size() - 2, 2, "mm") == 0) out.unit = LengthUnit::mm;
  return out;
}

template <std::size_t N>
std::size_t parse_name(const std::string& flag, const std::string& given, const std::array<std::string_view, N>& names) {
  std::string text = given;
  std::replace(text.begin(), text.end(), '-', '_');  // --defender light-foot names light_foot
  std::vector<std::string> list;
  for (auto n : names) {
    if (n == text) return list.size();
    list.emplace_back(n);
  }
  std::string shown;
  for (auto s : list) {
    std::replace(s.begin(), s.end(), '_', '-');
    shown += (shown.empty() ? "" : ", ") + s;
  }
  std::string near = nearest(text, list);
  std::replace(near.begin(), near.end(), '_', '-');
  throw UsageError(flag + ": unknown '" + given + "'" + (near.empty() ? "" : ", did you mean '" + near + "'?") +
                   " (expected one of: " + shown + ")");
}


std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// 1.5 -> "1½", 2 -> "2", 1.25 -> "1.25".
std::string moves_text(double v) {
  double whole = std::floor(v);
  if (v - whole == 0.5) return (whole > 0 ? number(whole) : std::string()) + "\u00bd";
  return number(v);
}

std::string degrees(double v) { return number(v) + " degrees"; }


std::string weight_label(AttackerWeight w) { return std::string(k_attacker_weight_names[static_cast<std::size_t>(w)]); }

std::string cli_name(std::string_view n) {
  std::string s(n);
  std::replace(s.begin(), s.end(), '_', '-');
  return s;
}

// "needs 9+ on 2D6 to stand", with the natural-result switches when they matter.
std::string needs_text(const ChargeRules& r, const MoraleTarget& t) {
  std::string s;
  if (t.target <= 2) s = "stands on any roll of 2D6";
  else if (t.target > 12) s = "needs " + std::to_string(t.target) + "+ on 2D6 to stand, more than two dice can make";
  else s = "needs " + std::to_string(t.target) + "+ on 2D6 to stand";
  std::string always_stand, always_fail;
  for (int total = 2; total <= 12; ++total) {
    const bool plain = total >= t.target;
    if (has_face(r.natural_stand, total) && !plain) always_stand += (always_stand.empty() ? "" : " or ") + std::to_string(total);
    if (has_face(r.natural_fail, total) && plain) always_fail += (always_fail.empty() ? "" : " or ") + std::to_string(total);
  }
  if (!always_stand.empty()) s += " (but a natural " + always_stand + " always stands)";
  if (!always_fail.empty()) s += " (but a natural " + always_fail + " always fails)";
  return s;
}

std::string modifiers_text(const Ruleset& r, const MoraleSituation& s, const MoraleTarget& t) {
  std::string m;
  auto add = [&](int v, const std::string& why) {
    if (v == 0) return;
    m += (m.empty() ? "" : ", ") + signed_str(v) + " " + why;
  };
  add(t.flank_rear, s.side == ChargedOn::flank ? "charged in the flank" : "charged in the rear");
  add(t.both_charging, "both charging (" + std::string(k_defender_kind_names[static_cast<std::size_t>(r.charge.kind(s.defender))]) + ")");
  if (m.empty()) return "none";
  return m;
}

// The flags read and checked, in the order their errors are reported.
struct ChargeInput {
  FlagLength move, dist;
  std::optional<FlagLength> defender_move;
  MoraleSituation s;
};

ChargeInput read_charge_flags(const ChargeOptions& o, const ChargeRules& r) {
  ChargeInput in;
  in.move = parse_flag_length("--move", o.move);
  if (in.move.length.as_cm() <= 0) throw UsageError("--move: the charging unit's move must be more than zero, got '" + o.move + "'");
  in.dist = parse_flag_length("--distance", o.distance);
  if (!o.defender_move.empty()) in.defender_move = parse_flag_length("--defender-move", o.defender_move);
  if (!std::isfinite(o.bearing)) throw UsageError("--bearing: expected degrees off the unit's facing (e.g. 30 or -30)");
  if (o.flank && o.rear) throw UsageError("--flank and --rear: a charge strikes one side; give one of them");

  MoraleSituation& s = in.s;
  s.attacker = static_cast<AttackerWeight>(parse_name("--attacker", o.attacker, k_attacker_weight_names));
  s.defender = static_cast<DefenderClass>(parse_name("--defender", o.defender, k_defender_class_names));
  s.side = o.flank ? ChargedOn::flank : o.rear ? ChargedOn::rear : ChargedOn::front;
  s.both_charging = o.both_charging;
  s.pikes_facing = o.pikes_facing;
  const DefenderRow& row = r.row(s.defender);
  if (o.pikes_facing && row.kind != DefenderKind::foot)
    throw UsageError("--pikes-facing: only foot carry pikes or pole arms; " + cli_name(k_defender_class_names[static_cast<std::size_t>(s.defender)]) +
                     " is horse");
  if (o.pikes_facing && s.side != ChargedOn::front)
    throw UsageError(std::string("--pikes-facing with ") + (o.flank ? "--flank" : "--rear") +
                     ": pikes facing the enemy meet the charge with their front; a unit charged in the flank or rear is not facing it");
  return in;
}

void check_square_flag(const ChargeOptions& o, const ChargeRules& r, const MoraleSituation& s) {
  if (o.square && !can_form_square(r, s.defender))
    throw UsageError(std::string("--square: ") +
                     (r.infantry_square.enabled ? cli_name(k_defender_class_names[static_cast<std::size_t>(s.defender)]) + " may not form square"
                                                : "the ruleset does not use seed 004's Infantry Square (charge.infantry_square.enabled)"));
  if (o.square && o.both_charging)
    throw UsageError("--square with --both-charging: foot charging the cavalry in turn forms no square");
}

// The charge's own procedure (engine/procedures/charge_procedure.hpp) from
// the moment the charge is made: the player made the initiation check at
// the table. Where it goes, whether the foot formed square (seed 004 L26:
// chosen as the charge comes in, before seed 003's morale check, which a
// square does not take), then the defender's check with the player's dice
// or ours. Both charging, the cavalry's own check is the other way round.
// `seed` is the seed given, or a fresh one when the dice are ours.
ChargeResult make_the_charge(const ChargeOptions& o, const Ruleset& rs, const ChargeGeometry& g, const MoraleSituation& s,
                             std::optional<std::uint64_t>& seed) {
  const ChargeRules& r = rs.charge;
  const DefenderRow& row = r.row(s.defender);
  ChargeFacts facts;
  facts.initiation_made = true;
  ChargeProcedure proc(rs, facts);
  ChargeAnswers answers;
  answers.reach.reaches = g.reaches;
  answers.reach.charge_bonus = g.charge_bonus;
  answers.reach.morale_check = g.morale_check;
  answers.reach.target.target_cavalry = row.kind == DefenderKind::horse;
  answers.reach.target.target_on_horse = row.kind == DefenderKind::horse;
  answers.reach.target.square_allowed = can_form_square(r, s.defender);
  answers.reach.target.defender = s;
  answers.reach.target.defender.both_charging = false;  // the procedure says so when it counter-charges
  answers.counter.kind = s.both_charging ? CounterCharge::charging : CounterCharge::none;
  answers.square = o.square;
  std::array<ChargeThrow, 7> given{};
  if (o.roll.size() == 2) given[static_cast<std::size_t>(ChargeRoll::defender_morale)] = ChargeThrow{{o.roll[0], o.roll[1], 0, 0}, 2};
  seed = o.seed;
  if (drive_charge(proc, answers, given).kind == ChargeProcedure::Need::Kind::roll) {
    if (!seed) seed = fresh_seed();
    Rng rng = make_stream(*seed, 0, Subsystem::command);
    Dice dice(rng);
    proc.roll(dice);
    drive_charge(proc, answers, given);
  }
  return proc.result();
}

// Everything `vedette charge` prints, worked out once for the text and the JSON.
struct ChargeCase {
  const Ruleset* rs = nullptr;
  ChargeInput in;
  LengthUnit u = LengthUnit::in;
  ChargeGeometry g;
  Length base;
  MoraleTarget t;
  int ways = 0;
  Fraction p;
  ChargeResult res;
  std::optional<MoraleResult> result;
  std::optional<std::uint64_t> seed;
  bool rolled = false;
  std::optional<Length> retreat;
  bool fear_applies = false;
  bool square_possible = false;

  const ChargeRules& rules() const { return rs->charge; }
  const DefenderRow& row() const { return rules().row(in.s.defender); }
};

ChargeCase work_out_charge(const ChargeOptions& o, const Ruleset& rs) {
  const ChargeRules& r = rs.charge;
  ChargeCase c;
  c.rs = &rs;
  c.in = read_charge_flags(o, r);
  const MoraleSituation& s = c.in.s;
  c.u = c.in.move.unit;
  // Seed 003 L40 as the player measures it (table_charge_geometry): the
  // near edge of the nearest figure, whose base must lie entirely within
  // range; the bearing to the part of the target nearest the facing line.
  c.g = table_charge_geometry(rs, c.in.move.length, c.in.dist.length, o.bearing, s.defender);
  c.base = target_base_depth(rs, s.defender);
  c.t = morale_target(r, s);
  c.ways = stand_ways(r, c.t);
  c.p = p_stand(r, c.t);
  check_square_flag(o, r, s);

  c.res = make_the_charge(o, rs, c.g, s, c.seed);
  if (c.res.defender_checks) c.result = c.res.defender;
  c.rolled = c.res.was_thrown(ChargeRoll::defender_morale) && o.roll.size() != 2;
  if (c.in.defender_move) c.retreat = morale_retreat(r, c.in.defender_move->length);

  // Optional rules, reported only when switched on.
  // The charged foot are in contact (distance 0); their cover is not asked,
  // so the note states the cover exemption instead.
  c.fear_applies = c.row().kind == DefenderKind::foot && c.g.reaches && fear_of_charge_applies(r, c.in.dist.length, Length(), 0);
  // Seed 004's square forms "before a cavalry unit is about to melee attack"
  // (L26): as the charge comes in, before seed 003's morale check.
  c.square_possible = can_form_square(r, s.defender) && c.g.reaches;
  return c;
}

void print_charge_json(const ChargeCase& c, const ChargeOptions& o, std::ostream& out) {
  const Ruleset& rs = *c.rs;
  const ChargeRules& r = c.rules();
  const MoraleSituation& s = c.in.s;
  const ChargeGeometry& g = c.g;
  const MoraleTarget& t = c.t;
  const LengthUnit u = c.u;
  const DefenderRow& row = c.row();
  nlohmann::json j;
  j["ruleset"] = rs.name;
  j["move"] = format_length(c.in.move.length, u);
  j["distance"] = format_length(c.in.dist.length, u);
  j["target_base"] = format_length(c.base, u);
  j["bearing"] = o.bearing;
  j["max_range"] = format_length(g.max_range, u);
  j["min_distance"] = format_length(g.min_distance, u);
  j["in_range"] = g.in_range;
  j["in_arc"] = g.in_arc;
  j["reaches"] = g.reaches;
  j["charge_bonus"] = g.charge_bonus;
  if (g.out_of_reach) j["out_of_reach"] = {{"forced_move", format_length(g.forced_move, u)}, {"shaken", g.shaken}};
  j["attacker"] = weight_label(s.attacker);
  j["defender"] = {{"class", cli_name(k_defender_class_names[static_cast<std::size_t>(s.defender)])},
                   {"text", row.text},
                   {"kind", k_defender_kind_names[static_cast<std::size_t>(row.kind)]}};
  j["side"] = s.side == ChargedOn::flank ? "flank" : s.side == ChargedOn::rear ? "rear" : "front";
  j["both_charging"] = s.both_charging;
  j["pikes_facing"] = s.pikes_facing;
  j["morale_check"] = g.morale_check && !c.res.square_formed;
  j["square"] = c.res.square_formed;
  j["automatic"] = t.automatic;
  j["table_number"] = t.table;
  j["modifier"] = t.modifier;
  j["target_number"] = t.automatic ? nlohmann::json(nullptr) : nlohmann::json(t.target);
  j["stand_ways"] = c.ways;
  j["p_stand"] = c.p.value();
  j["p_stand_fraction"] = c.p.str();
  j["outcomes"] = nlohmann::json::array();
  for (const auto& oc : morale_outcomes(r, t))
    j["outcomes"].push_back({{"total", oc.total}, {"ways", oc.ways}, {"stands", oc.stands}});
  if (c.result) {
    if (!c.result->automatic) {
      j["roll"] = {c.result->dice[0], c.result->dice[1]};
      j["total"] = c.result->total;
      j["rolled"] = c.rolled;
      if (c.rolled) j["seed"] = *c.seed;
    }
    j["stands"] = c.result->stands;
    if (!c.result->stands) {
      nlohmann::json f{{"retreat_moves", r.failure_retreat_moves},
                       {"backs_to_enemy", r.failure_backs_to_enemy},
                       {"must_rally", r.failure_must_rally}};
      if (c.retreat) f["retreat_distance"] = format_length(*c.retreat, c.in.defender_move->unit);
      j["failure"] = f;
    }
  }
  const auto& fear = r.fear_of_charge;
  if (fear.enabled) {
    nlohmann::json f{{"applies", c.fear_applies}};
    if (c.fear_applies) {
      Fraction fp = p_gut_check_pass(r);
      f["range"] = format_length(fear.range, u);
      f["exempt_cover"] = fear.exempt_cover;
      f["dice"] = fear.dice == 1 ? "D6" : "2D6";
      f["target"] = fear.target;
      f["pass"] = fear.pass_at_most ? "at_most" : "at_least";
      f["p_pass"] = fp.value();
      f["p_pass_fraction"] = fp.str();
    }
    j["fear_of_charge"] = f;
  }
  if (r.infantry_square.enabled) {
    nlohmann::json q{{"may_form", c.square_possible}};
    if (c.square_possible) {
      Fraction bp = p_square_bounce(r);
      q["p_bounce"] = bp.value();
      q["p_bounce_fraction"] = bp.str();
    }
    j["infantry_square"] = q;
  }
  print_json(out, j);
}

// A length as the player measures it (issue 30): to the tape's mark, in
// the unit asked for; --json keeps the exact value.
std::string tape_length(Length l, LengthUnit u) { return format_number(to_tape(l.as(u), u)) + unit_name(u); }

// Range, arc and charge bonus, or what a charge that does not reach must do.
void print_reach(const ChargeCase& c, const ChargeOptions& o, std::ostream& out) {
  const ChargeRules& r = c.rules();
  const ChargeGeometry& g = c.g;
  const LengthUnit u = c.u;
  // The move, the distance the player typed, the limits that follow from
  // them and the target's far edge are exact, so a verdict at a limit never
  // contradicts its numbers; what the player must measure out (the forced
  // move, a retreat, a flight) is to the tape's mark.
  const std::string L_move = format_length(c.in.move.length, u);
  const std::string L_max = format_length(g.max_range, u);
  const std::string L_min = format_length(g.min_distance, u);
  const std::string L_dist = format_length(c.in.dist.length, u);
  out << "Charge: a " << L_move << " move charges up to " << L_max << " (" << number(r.range_factor) << " x move); minimum distance "
      << L_min << ".\n";
  const std::string L_far = format_length(c.in.dist.length + c.base, u);
  out << "Target: its nearest figure " << L_dist << " away, its " << format_length(c.base, u) << " base reaching to " << L_far
      << ";\n        its nearest part " << degrees(o.bearing) << " off the facing (the arc is " << degrees(r.arc_degrees)
      << " either side).\n";
  if (g.reaches) {
    out << "  Reaches: yes (that figure's base lies entirely within " << L_max << ", and the target is "
        << "at least partly in the arc).\n";
    if (g.charge_bonus) {
      out << "  Charge bonus: yes (contact after more than " << L_min << ").\n";
    } else {
      out << "  Charge bonus: NO. Contact inside the minimum distance of " << L_min
          << ": combat still takes place, but the charging unit gets none of the combat benefits for charging.\n";
    }
  } else {
    out << "  Reaches: NO.";
    if (!g.in_range)
      out << " The base of the target's nearest figure reaches to " << L_far << ", not entirely within the charge range of "
          << L_max << ".";
    if (!g.in_arc) out << " No part of the target is within the arc of " << degrees(r.arc_degrees) << " either side of the facing.";
    out << "\n  The charge fails: the unit must still move its full " << tape_length(g.forced_move, u) << " ("
        << number(r.out_of_reach_move_factor) << " x " << L_move << ") forward toward the target"
        << (g.shaken ? ", and becomes shaken.\n" : ".\n");
  }
}

// The defender's morale check: why there is none, or its number, odds, roll and result.
void print_morale_check(const ChargeCase& c, const ChargeOptions& o, std::ostream& out) {
  const ChargeRules& r = c.rules();
  const MoraleSituation& s = c.in.s;
  const ChargeGeometry& g = c.g;
  const MoraleTarget& t = c.t;
  const std::string who = c.row().text + " charged by " + weight_label(s.attacker) + " cavalry" +
                          (s.side == ChargedOn::flank ? " in the flank" : s.side == ChargedOn::rear ? " in the rear" : " in the front");
  const std::string odds = std::to_string(c.ways) + "/36 = " + pct(c.p);
  if (c.res.square_formed) {
    out << "No morale check: the foot formed square as the charge came in (seed 004), and a square takes none."
        << (o.roll.size() == 2 ? " Your roll is not used.\n" : "\n");
  } else if (!g.morale_check) {
    if (!g.reaches) out << "No morale check: a charge that does not reach causes none.";
    else out << "No morale check: contact inside the minimum distance is not a charge (switch charge.morale.check_inside_min_distance).";
    out << (o.roll.size() == 2 ? " Your roll is not used.\n" : "\n");
    const std::string had = g.reaches ? "Had it been a charge" : "Had it reached";
    if (t.automatic) out << "  (" << had << ", the defender would stand automatically: pikes facing the enemy.)\n";
    else out << "  (" << had << ", the morale check would be: " << needs_text(r, t) << ", " << odds << ".)\n";
  } else {
    out << "Morale check: " << who << ".\n";
    if (t.automatic) {
      out << "  Pikes or pole arms facing the enemy: they stand automatically, no roll.\n";
      if (o.roll.size() == 2) out << "  (Your roll is not needed.)\n";
    } else {
      out << "  Table: " << t.table << "+. Modifiers to the dice score: " << modifiers_text(*c.rs, s, t) << ".\n";
      std::string need = needs_text(r, t);
      need[0] = static_cast<char>(need[0] - 'a' + 'A');
      out << "  " << need << ": " << odds << "\n";
      out << "Roll: " << c.result->dice[0] << " + " << c.result->dice[1] << " = " << c.result->total;
      if (c.rolled) out << " (rolled; --seed " << *c.seed << " repeats it)\n";
      else out << " (your roll)\n";
    }
    if (c.result->stands) {
      out << "Result: STANDS. The charge goes in to melee.\n";
    } else {
      out << "Result: FAILS. The unit retreats " << moves_text(r.failure_retreat_moves) << " moves";
      if (c.retreat) out << " (" << tape_length(*c.retreat, c.in.defender_move->unit) << ")";
      else out << " (" << number(r.failure_retreat_moves) << " x its own move; give --defender-move for the distance)";
      if (r.failure_backs_to_enemy) out << ", backs to the enemy";
      if (r.failure_must_rally) out << ", and must rally";
      out << ".\n";
    }
  }
}

// The notes after the check: both charging, and the optional rules in play.
void print_charge_notes(const ChargeCase& c, std::ostream& out) {
  const ChargeRules& r = c.rules();
  const LengthUnit u = c.u;
  if (c.in.s.both_charging && c.g.morale_check)
    out << "Both units are charging: the cavalry must check morale too (run vedette charge the other way round).\n";
  if (c.fear_applies) {
    const auto& fear = r.fear_of_charge;
    Fraction fp = p_gut_check_pass(r);
    out << "Fear of Charge (optional rule, seed 001): before contact, infantry within " << tape_length(fear.range, u)
        << " of the cavalry, unless in +" << fear.exempt_cover << " cover or better, take a gut check: " << fear.target
        << (fear.pass_at_most ? " or less" : "+") << " on " << (fear.dice == 1 ? "D6" : "2D6") << " passes, "
        << fp.str() << " = " << pct(fp) << "; a failure moves them up to " << tape_length(fear.flee_distance, u)
        << " toward such cover.\n";
  }
  if (c.square_possible) {
    const auto& square = r.infantry_square;
    Fraction bp = p_square_bounce(r);
    std::string faces;
    for (int f = 1; f <= square.die; ++f)
      if (square_bounces(r, f)) faces += (faces.empty() ? "" : " or ") + std::to_string(f);
    out << "Infantry Square (optional rule, seed 004): the foot"
        << (c.res.square_formed ? " formed square" : " may form square as the charge comes in (--square), and then take no morale check")
        << "; in the melee the square rolls a D" << square.die << " first and a " << faces << " ("
        << bp.str() << " = " << pct(bp) << ") bounces the cavalry back " << moves_text(square.bounce_back_moves)
        << (square.bounce_back_moves == 1 ? " move" : " moves") << " of its own; then the square and the cavalry each roll at most " << square.max_battle_dice << " battle die.\n";
  }
}

int run_charge(const ChargeOptions& o, Io& io) {
  RulesetPtr rules = ruleset_from(o.ruleset);
  const ChargeCase c = work_out_charge(o, *rules);
  if (o.json) {
    print_charge_json(c, o, io.out);
    return 0;
  }
  print_reach(c, o, io.out);
  print_morale_check(c, o, io.out);
  print_charge_notes(c, io.out);
  return 0;
}

}  // namespace

void add_charge(CLI::App& app, Runner& run) {
  auto o = std::make_shared<ChargeOptions>();
  auto* c = app.add_subcommand("charge",
                               "Resolve one cavalry charge (seed 003): range, charge bonus, the defender's 2D6 morale check.");
  c->add_option("--move", o->move, "The charging unit's normal move, with its unit (e.g. 12in, 30cm)")->required();
  c->add_option("--distance", o->distance, "Distance to the near edge of the target's nearest figure (after any preliminary manoeuvre), with its unit; "
                "that figure's base must lie entirely within range (seed 003)")->required();
  c->add_option("--bearing", o->bearing, "Degrees off the charging unit's facing to the nearest part of the target (default 0: the facing line crosses it); "
                "a target partly within the arc may be charged (seed 003)");
  c->add_option("--attacker", o->attacker, "The charging cavalry: light, medium or heavy")->required();
  c->add_option("--defender", o->defender,
                "The unit charged: peasants, light-foot, heavy-foot, elite-foot, light-horse, medium-horse or heavy-horse")
      ->required();
  auto* flank = c->add_flag("--flank", o->flank, "The charge strikes the defender's flank");
  auto* rear = c->add_flag("--rear", o->rear, "The charge strikes the defender's rear");
  flank->excludes(rear);
  c->add_flag("--both-charging", o->both_charging, "The defender is charging too");
  c->add_flag("--pikes-facing", o->pikes_facing, "The defender carries pikes or pole arms facing the charge and stands automatically (seed 003 L18; who carries them is the ruleset's charge.morale.pikes_words: the seed's Swiss or Landsknechte, infantry formed in square in the Napoleonic preset)");
  c->add_flag("--square", o->square,
              "The foot form square as the charge comes in (seed 004's optional Infantry Square): no morale check");
  c->add_option("--defender-move", o->defender_move, "The defender's normal move, to give the retreat distance if it fails");
  auto* roll = c->add_option("--roll", o->roll, "Your physical 2D6 roll, two dice (e.g. --roll 3 5)")->expected(2)->check(CLI::Range(1, 6));
  auto* seed = c->add_option("--seed", o->seed, "Seed for the roll, to repeat it")->check(unsigned_number());
  roll->excludes(seed);
  c->add_option("--ruleset", o->ruleset, "Ruleset YAML file (default: the built-in tables)");
  c->add_flag("--json", o->json, "Print one JSON object");
  c->callback([o, &run] { run = [o](Io& io) { return run_charge(*o, io); }; });
}

}  // namespace vedette::cli
