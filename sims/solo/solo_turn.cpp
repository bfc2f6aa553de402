#include "sims/solo/solo_turn.hpp"

#include <algorithm>
#include <regex>
#include <sstream>
#include <system_error>

#include "engine/modules/asl/asl_phrasing.hpp"
#include "engine/core/builtin_tables.hpp"
#include "engine/core/content_hash.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "engine/engagement/combat.hpp"
#include "sims/io/atomic_file.hpp"

namespace vedette::solo {

namespace fs = std::filesystem;

namespace {
constexpr std::string_view k_builtin = "builtin:";
bool is_builtin(const std::string& p) { return p.rfind(k_builtin, 0) == 0; }
}  // namespace

// ---------------------------------------------------------------- ruleset

std::string ruleset_hash(const Ruleset& r) {
  std::uint64_t h = k_fnv1a64_basis;
  for (const auto& src : r.sources) {
    std::string bytes;
    if (is_builtin(src)) {
      auto t = builtin_table(std::string_view(src).substr(k_builtin.size()));
      if (t) bytes = std::string(*t);
    } else {
      try {
        bytes = read_whole_file(src);
      } catch (const AtomicWriteError& e) {
        throw LoadError({src, 0, 0}, e.what());
      }
    }
    h = fnv1a64(std::to_string(bytes.size()) + ":", h);
    h = fnv1a64(bytes, h);
  }
  return fnv1a64_text(h);
}

std::string record_ruleset_path(const fs::path& session, const std::string& given) {
  if (is_builtin(given)) return given;
  std::error_code ec;
  fs::path abs = fs::weakly_canonical(fs::absolute(given, ec), ec);
  if (ec) return given;
  fs::path dir = fs::weakly_canonical(fs::absolute(session, ec).parent_path(), ec);
  if (ec) return abs.string();
  fs::path rel = abs.lexically_relative(dir);
  if (!rel.empty() && *rel.begin() != "..") return rel.generic_string();
  return abs.string();
}

std::string resolve_ruleset_path(const fs::path& session, const std::string& recorded) {
  if (is_builtin(recorded)) return recorded;
  fs::path p(recorded);
  if (p.is_absolute()) return recorded;
  fs::path dir = session.parent_path();
  return (dir.empty() ? p : dir / p).lexically_normal().string();
}

SessionRules load_session_rules(const Session& s) {
  SessionRules out;
  out.path = resolve_ruleset_path(s.path(), s.header().ruleset_path);
  try {
    out.rules = load_ruleset(out.path);
  } catch (const LoadError& e) {
    auto diags = e.diagnostics();
    Diagnostic note;
    note.where.file = s.path().string();
    note.message = "the ruleset this session uses (" + s.header().ruleset_path + ") cannot be loaded; restore it to go on";
    diags.push_back(std::move(note));
    throw LoadError(diags);
  }
  out.hash = ruleset_hash(*out.rules);
  out.changed = out.hash != s.header().ruleset_hash;
  return out;
}

std::string normalise_type(std::string id) {
  std::replace(id.begin(), id.end(), '-', '_');
  return id;
}

// ------------------------------------------------------------- questions

Situation situation(const UnitSpec& spec, const UnitMemory& m, const Answers& a) {
  auto yes = [&](Question q) { return a[q].value_or(0) != 0; };
  Situation s;
  s.hero = spec.hero;
  s.raw = spec.raw;
  s.pace = m.pace;
  s.ran_last_turn = m.ran_last_turn;
  s.in_cover = yes(Question::in_cover);
  s.enemy_in_range = yes(Question::enemy_in_range);
  s.enemy_flank_rear = yes(Question::enemy_flank_rear);
  s.retreated_from_melee = yes(Question::retreated_from_melee);
  // The memory's casualties already include a new_casualties answer.
  s.casualties_hundredths = casualty_hundredths(m.casualties, spec.figures);
  return s;
}

namespace {

// Calls f(answers) for every completion of the unanswered questions in
// `open` (yes/no both ways; new casualties 0..left), stopping when f
// returns true. Returns whether it did.
template <class F>
bool any_completion(Answers a, const std::vector<Question>& open, std::size_t k, int left, const F& f) {
  if (k == open.size()) return f(a);
  Question q = open[k];
  int hi = is_yes_no(q) ? 1 : left;
  for (int v = 0; v <= hi; ++v) {
    a[q] = v;
    if (any_completion(a, open, k + 1, left, f)) return true;
  }
  return false;
}

}  // namespace

bool question_matters(const Ruleset& r, const UnitSpec& spec, const UnitMemory& m, int figures_left,
                      const Answers& a, Question q) {
  std::vector<Question> others;
  for (std::size_t k = 0; k < k_question_count; ++k) {
    auto other = static_cast<Question>(k);
    if (other != q && !a[other]) others.push_back(other);
  }
  int hi = is_yes_no(q) ? 1 : figures_left;
  return any_completion(a, others, 0, figures_left, [&](Answers full) {
    UnitMemory mm = m;
    int first = 0;
    for (int v = 0; v <= hi; ++v) {
      full[q] = v;
      // Hypothetical new casualties (answered ones are in the memory already).
      int extra = (q == Question::new_casualties ? v : 0) +
                  (q != Question::new_casualties && !a[Question::new_casualties] ? full[Question::new_casualties].value_or(0) : 0);
      mm.casualties = m.casualties + extra;
      int rf = rf_total(r, Facts(situation(spec, mm, full)));
      if (v == 0) first = rf;
      else if (rf != first) return true;
    }
    return false;
  });
}

Answers derived_answers(const UnitMemory& m, int turn, Answers a) {
  if (!a[Question::retreated_from_melee] && turn > 1 && m.morale != Morale::steady && m.morale != Morale::routed &&
      m.retreated_from_melee)
    a[Question::retreated_from_melee] = 1;  // retreating since a fall back, not rallied
  return a;
}

std::optional<Question> next_question(const Ruleset& r, const UnitSpec& spec, const UnitMemory& m, int figures_left,
                                      int turn) {
  // Turn 1: the Actions Table is rolled in step 1, before any movement or
  // melee of the scenario, so "retreating as a result of melee?" is known
  // to be no (whatever combat.charge.first_turn says): not asked, and not
  // counted either way when deciding whether the other questions matter.
  Answers known = m.pending;
  // Seed 002 L53, "retreating as a result of melee" (the engine's
  // Unit::retreated_from_melee): it holds from the turn after a fall back
  // until the unit rallies. A fall back from the session's own melees is
  // already answered (NextTurnEvent); a unit in good order cannot still be
  // retreating; one that was retreating and has not rallied still is. So
  // the question is asked only of a shaken or rallying unit the session
  // knows nothing about (a melee your own charge started).
  known = derived_answers(m, turn, known);
  if (!known[Question::retreated_from_melee] && (turn == 1 || m.morale == Morale::steady))
    known[Question::retreated_from_melee] = 0;
  for (std::size_t k = 0; k < k_question_count; ++k) {
    auto q = static_cast<Question>(k);
    if (known[q]) continue;
    if (question_matters(r, spec, m, figures_left, known, q)) return q;
  }
  return std::nullopt;
}

std::string possessive(const std::string& name) {
  return name + (!name.empty() && (name.back() == 's' || name.back() == 'S') ? "'" : "'s");
}

std::string question_text(const Ruleset& r, Question q, const std::string& unit) {
  const std::string its = possessive(unit);
  switch (q) {
    case Question::in_cover: return "Is " + unit + " entirely in cover?";
    case Question::enemy_in_range:
      switch (r.switches.weapons_range) {
        case WeaponsRange::enemy: return "Is an enemy in clear sight, with " + unit + " within that enemy's weapons range?";
        case WeaponsRange::unit: return "Is an enemy in clear sight and within " + its + " weapons range?";
        case WeaponsRange::either: return "Is an enemy in clear sight and within weapons range (its or " + its + ")?";
      }
      break;
    case Question::enemy_flank_rear: return "Is an enemy to " + its + " flank or rear, and in sight?";
    case Question::retreated_from_melee: return "Is " + unit + " retreating as a result of melee?";
    case Question::new_casualties: return "New casualties on " + unit + " (figures wounded or killed since last asked)?";
  }
  return {};
}

// ---------------------------------------------------------------- deciding

Die session_die(const Session& s, std::size_t unit) {
  Die d;
  if (auto first = s.die_for(unit, s.state().turn)) {
    const Activation& a = std::get<ActivateEvent>(s.event(*first).body).a;
    d.roll = a.roll;
    d.roll_index = a.roll_index;
    d.same_die_as = *first;
    return d;
  }
  d.roll_index = s.next_roll();
  d.roll = solo_roll(s.header().seed, *d.roll_index);
  return d;
}

Activation decide_activation(const Ruleset& r, const Session& s, std::size_t unit, const Answers& answers,
                             int new_casualties, const Die& die) {
  const UnitSpec& spec = s.header().units[unit];
  UnitMemory m = s.memory(unit);
  m.casualties += new_casualties;
  const Answers known = derived_answers(m, s.state().turn, answers);
  Situation sit = situation(spec, m, known);
  Facts facts(sit);
  RiskFactor rf = compute_rf(r, facts);
  UnitState us;
  us.type = r.find_unit_type(spec.type);
  us.pace = m.pace;
  us.gallop_streak = m.gallop_streak;
  Decision d = decide(r, rf.total, die.roll, us);
  // The engine's pace limit, as a unit's move applies it after the table
  // (Battle::pace_limit): seed 003's "normal speed" the turn after a charge
  // (combat.charge.next_turn_pace) as well as seed 002's gallop limits,
  // from the session's memory.
  // Mounted infantry on foot does not move this turn (below): no limit.
  const LimitedPace lp = limit_pace(r, PaceFacts{true, us.type, m.gallop_streak, m.charged_last_turn}, d.pace);
  if (!m.on_foot && lp.pace != d.pace) {
    d.pace = lp.pace;
    if (d.adjust == PaceAdjust::none)
      d.adjust = lp.why == PaceLimit::after_charge ? PaceAdjust::after_charge
                 : lp.why == PaceLimit::no_gallop  ? PaceAdjust::no_gallop
                                                   : PaceAdjust::forced_walk;
  }

  Activation a;
  a.hero = spec.hero;
  a.raw = spec.raw;
  a.pace_before = m.pace;
  a.gallop_streak_before = m.gallop_streak;
  a.ran_last_turn = m.ran_last_turn;
  a.charged_last_turn = m.charged_last_turn;
  a.in_cover = sit.in_cover;
  a.enemy_in_range = sit.enemy_in_range;
  a.enemy_flank_rear = sit.enemy_flank_rear;
  a.retreated_from_melee = sit.retreated_from_melee;
  a.new_casualties = new_casualties;
  a.casualties = m.casualties;
  a.figures = spec.figures;
  a.rf = rf.total;
  for (const auto& t : rf.breakdown) a.breakdown.push_back({t.modifier->id, t.value, t.reason});
  a.band = d.band->label;
  a.roll = die.roll;
  a.dice = die.dice;
  a.roll_index = die.roll_index;
  a.same_die_as = die.same_die_as;
  a.behaviour = d.behaviour->id;
  a.behaviour_text = d.behaviour->text;
  a.table_pace = d.table_pace;
  a.pace = d.pace;
  a.adjust = d.adjust;
  a.running = d.behaviour->running;
  a.charge_possible = d.behaviour->charge_possible;
  a.instruction = instruction(r, d);
  if (s.header().module == "asl") {
    // Seed 000's terms. An ASL Charge is declared and fought on the board
    // (13.6), not by seed 003's morale check: the instruction says when it
    // is legal, and play does not ask seed 003's charge form.
    a.instruction = asl::instruction(*asl::default_rules(), r, d, us);
    a.charge_possible = false;
  }
  a.note = adjustment_note(r, d, us);
  if (m.on_foot) {
    // Mounted infantry on foot: the engine's rule (mounted_infantry_order),
    // seed 001: mounting takes its whole move.
    a.on_foot = true;
    MountedInfantryFacts mf;
    mf.type = us.type;
    mf.on_horse = false;
    mf.has_weapon = !spec.weapon.empty();
    const bool mounts = mounted_infantry_order(r, mf, d.pace) == MountedInfantryOrder::mounts;
    a.running = false;
    if (a.charge_possible) a.charge_refused = "on foot, it must mount (its whole move) before it can charge";
    a.charge_possible = false;
    if (mounts) {
      a.instruction = "Mount: " + spec.name + " mounts its horses, its whole move, and stays where it is.";
      a.note = "On foot, it mounts instead of moving: mounting takes its whole move (seed 001).";
    } else {
      Behaviour no_charge = *d.behaviour;
      no_charge.charge_possible = false;
      Decision on_foot = d;
      on_foot.behaviour = &no_charge;
      a.instruction = "On foot: " + instruction(r, on_foot);
    }
    return a;
  }
  if (a.charge_possible) {
    if (auto no = charge_refusal(r, s, unit)) {
      a.charge_possible = false;
      a.charge_refused = std::string(no->why);
      // The instruction without its "Charge?": the same cell, no charge offered.
      Behaviour no_charge = *d.behaviour;
      no_charge.charge_possible = false;
      Decision without = d;
      without.behaviour = &no_charge;
      a.instruction = instruction(r, without);
    }
  }
  return a;
}

std::optional<ChargeRefusal> charge_refusal(const Ruleset& r, const Session& s, std::size_t unit) {
  const UnitMemory& m = s.memory(unit);
  return declaration_refusal(r, s.state().turn, m.morale == Morale::steady, m.charged_last_turn);
}

// ----------------------------------------------------------------- charge

namespace {
std::string dice_text(const std::vector<int>& d);  // "[3 5]", below
}  // namespace

ChargePreview preview_charge(const Ruleset& r, const ChargeInputs& in) {
  ChargePreview p;
  p.geometry = with_path(r.charge, in.move, table_charge_geometry(r, in.move, in.distance, in.bearing, in.defender), in.path);
  MoraleSituation ms;
  ms.defender = in.defender;
  ms.attacker = in.attacker;
  // A counter-charging target has turned to face its charger (the engine's
  // Engagement::charge): charged in front.
  ms.side = in.both_charging ? ChargedOn::front : in.side;
  ms.both_charging = in.both_charging;
  ms.pikes_facing = in.pikes_facing;
  p.target = morale_target(r.charge, ms);
  p.stand_ways = stand_ways(r.charge, p.target);
  p.needs_dice = p.geometry.morale_check && !p.target.automatic;
  if (in.both_charging && r.charge.kind(in.defender) == DefenderKind::horse && p.geometry.morale_check) {
    p.charger_checks = true;
    MoraleSituation cs;
    cs.defender = static_cast<DefenderClass>(static_cast<std::size_t>(DefenderClass::light_horse) + static_cast<std::size_t>(in.attacker));
    const auto d = static_cast<std::size_t>(in.defender), lh = static_cast<std::size_t>(DefenderClass::light_horse);
    cs.attacker = d >= lh && d - lh < 3 ? static_cast<AttackerWeight>(d - lh) : AttackerWeight::medium;
    cs.side = ChargedOn::front;
    cs.both_charging = true;
    p.charger_target = morale_target(r.charge, cs);
    p.charger_stand_ways = stand_ways(r.charge, p.charger_target);
  }
  // The optional rules, as the engine's Engagement::charge asks them: the
  // player's infantry (foot) answering charging horse, not charging itself.
  if (r.charge.kind(in.defender) == DefenderKind::foot && !in.both_charging && p.geometry.reaches) {
    const FearOfChargeRules& f = r.charge.fear_of_charge;
    p.fear_may_apply = fear_of_charge_applies(r.charge, in.distance, Length(), 0);
    p.fear_check = fear_of_charge_applies(r.charge, in.distance, Length(), in.fear_exempt ? f.exempt_cover : 0);
    if (p.fear_may_apply) p.gut_pass = p_gut_check_pass(r.charge);
    p.square_allowed = can_form_square(r.charge, in.defender);
    p.square = p.square_allowed && in.square;
    if (p.square) p.needs_dice = false;  // seed 004: a square takes no morale check
  }
  return p;
}

Length default_charge_move(const Ruleset& r, const Session& s, std::size_t unit) {
  const UnitMemory& m = s.memory(unit);
  Pace pace = m.pace;
  if (pace == Pace::halt) {
    const UnitType* t = r.find_unit_type(s.header().units[unit].type);
    bool may_gallop = (!t || t->can_gallop) && m.gallop_streak < r.supplement.gallop_max_turns;
    pace = may_gallop ? Pace::gallop : (t && !t->can_gallop ? r.switches.no_gallop_pace : r.supplement.after_gallop_limit);
  }
  return r.pace_range(pace).max;
}

ChargeProgress charge_progress(const Ruleset& r, const ChargeInputs& in, const ChargePreview& pv,
                               const std::optional<std::array<int, 2>>& initiation,
                               const std::optional<std::array<int, 2>>& obstacle, const std::vector<int>& gut) {
  ChargeProgress c;
  c.started = initiation && initiation_check(r, true, (*initiation)[0], (*initiation)[1]).passed;
  c.at_obstacle = c.started && pv.geometry.reaches && in.path == ChargePath::obstacle;
  c.past_obstacle = c.started && (!c.at_obstacle || (obstacle && initiation_check(r, true, (*obstacle)[0], (*obstacle)[1]).passed));
  c.to_gut = c.past_obstacle && pv.fear_check;
  c.fled = c.to_gut && !gut.empty() && !gut_check_passes(r.charge, gut_total(r, gut)) && in.refuge;
  c.to_morale = c.past_obstacle && pv.needs_dice && !(c.to_gut && gut.empty()) && !c.fled;
  return c;
}

int gut_total(const Ruleset& r, const std::vector<int>& gut) {
  int total = 0;
  for (std::size_t k = 0; k < gut.size() && static_cast<int>(k) < r.charge.fear_of_charge.dice; ++k) total += gut[k];
  return total;
}

ChargeDice session_charge_dice(const Session& s, std::size_t unit) {
  ChargeDice d;
  if (auto first = s.charge_dice_for(unit, s.state().turn)) {
    const ChargeRecord& c = std::get<ChargeEvent>(s.event(*first).body).c;
    d.roll_index = c.roll_index;
    d.same_dice_as = *first;
  }
  if (!d.roll_index) d.roll_index = s.next_roll();
  const auto ten = solo_roll_dice(s.header().seed, *d.roll_index, 10);
  d.dice = {ten[0], ten[1]};
  d.initiation = {ten[2], ten[3]};
  d.charger = {ten[4], ten[5]};
  d.obstacle = {ten[6], ten[7]};
  d.gut = {ten[8], ten[9]};
  return d;
}

namespace {

std::string moves_text(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

}  // namespace

namespace {

// A move for a defender of this class, to put its fall back in table units:
// on horse the top of the walk (the engine's normal_move), on foot the move
// of the ruleset's first infantry profile of that class. The player's own
// unit may move otherwise; the text says which move it assumed.
std::optional<std::pair<Length, std::string>> class_move(const Ruleset& r, DefenderClass c) {
  if (r.charge.kind(c) == DefenderKind::horse) return std::pair{normal_move(r, true, Length()), std::string("a walk")};
  const auto ci = static_cast<std::size_t>(c);
  if (ci > static_cast<std::size_t>(FootClass::elite_foot)) return std::nullopt;
  for (const Profile& p : r.profiles)
    if (p.kind == UnitKind::infantry && static_cast<std::size_t>(p.foot) == ci && p.move.as_cm() > 0)
      return std::pair{normal_move(r, false, p.move), std::string("a move")};
  return std::nullopt;
}

}  // namespace

ChargeRecord resolve_charge(const Ruleset& r, const Session& s, std::size_t unit, const ChargeInputs& in,
                            const ChargeDice& dice) {
  const ChargeRules& cr = r.charge;
  const LengthUnit u = r.units;
  ChargePreview p = preview_charge(r, in);
  const ChargeGeometry& g = p.geometry;
  ChargeRecord c;
  c.activation = s.memory(unit).last_activation;
  c.attacker = std::string(k_attacker_weight_names[static_cast<std::size_t>(in.attacker)]);
  c.move = format_length(in.move, u);
  c.distance = format_length(in.distance, u);
  c.bearing = in.bearing;
  c.defender = std::string(k_defender_class_names[static_cast<std::size_t>(in.defender)]);
  c.side = std::string(k_side_names[static_cast<std::size_t>(in.side)]);
  c.both_charging = in.both_charging;
  c.pikes_facing = in.pikes_facing;
  if (in.path != ChargePath::open) c.path = std::string(k_charge_path_names[static_cast<std::size_t>(in.path)]);
  c.max_range = format_length(g.max_range, u);
  c.min_distance = format_length(g.min_distance, u);
  c.reaches = g.reaches;
  c.charge_bonus = g.charge_bonus;
  if (!g.reaches) c.forced_move = format_length(g.forced_move, u);
  c.shaken = g.out_of_reach && g.shaken;
  c.morale_check = g.morale_check;
  c.automatic = p.target.automatic;
  c.target = p.target.target;
  c.stand_ways = p.stand_ways;
  const std::string& name = s.header().units[unit].name;
  const std::string defender = cr.row(in.defender).text;
  // Seed 003 L48: the charge initiation check comes first.
  const InitiationCheck ic = initiation_check(r, true, dice.initiation[0], dice.initiation[1]);
  c.initiation_dice = dice.initiation;
  c.initiation_need = ic.need;
  c.initiation_passed = ic.passed;
  c.dice_source = dice.source;
  c.roll_index = dice.roll_index;
  c.same_dice_as = dice.same_dice_as;
  if (!ic.passed) {
    c.reaches = false;
    c.charge_bonus = false;
    c.morale_check = false;
    c.shaken = false;
    c.forced_move.clear();
    c.outcome = name + " fails its charge initiation check (" + std::to_string(dice.initiation[0]) + " + " +
                std::to_string(dice.initiation[1]) + " = " + std::to_string(ic.total) + ", needs " + std::to_string(ic.need) +
                "): it does not charge this turn; it moves as the table says otherwise.";
    return c;
  }
  if (!g.reaches) {
    // Why, in seed 003 L40's words.
    std::string why;
    if (g.in_range && g.in_arc && in.path == ChargePath::uphill)
      why = " (a charge may not climb: the way to the target is uphill)";
    else if (g.in_range && g.in_arc && in.path == ChargePath::into_terrain)
      why = " (the target stands in terrain that costs movement, where no charge may strike it)";
    else if (!g.in_range)
      why = " (the base of the target's nearest figure, " + format_length_table(target_base_depth(r, in.defender), u) +
            " deep, is not entirely within its charge range of " + format_length_table(g.max_range, u) + ")";
    else
      why = " (no part of the target is within " + moves_text(cr.arc_degrees) + " degrees either side of its facing)";
    c.outcome = "The charge does not reach" + why + ": " + name + " must still move " + format_length_table(g.forced_move, u) +
                " forward toward the target" + (c.shaken ? " and becomes shaken." : ".");
    return c;
  }
  if (in.path == ChargePath::obstacle) {
    // Seed 003 L68: an obstacle on the way calls for a second initiation
    // check (as the engine: the same check again); failing, the charge is
    // discontinued there, not shaken.
    const InitiationCheck oc = initiation_check(r, true, dice.obstacle[0], dice.obstacle[1]);
    c.obstacle_dice = dice.obstacle;
    c.obstacle_need = oc.need;
    c.obstacle_passed = oc.passed;
    if (!oc.passed) {
      c.charge_bonus = false;
      c.morale_check = false;
      c.outcome = name + " fails its initiation check at the obstacle (" + std::to_string(dice.obstacle[0]) + " + " +
                  std::to_string(dice.obstacle[1]) + " = " + std::to_string(oc.total) + ", needs " + std::to_string(oc.need) +
                  "): it halts at the obstacle, not shaken; its charge is discontinued and it cannot charge again this turn.";
      return c;
    }
  }
  // Optional rules on the player's infantry (the engine's order: seed 001's
  // fear of charge, then seed 004's square, then seed 003's morale check).
  std::string before;  // what they said, ahead of the rest of the outcome
  if (p.fear_may_apply) {
    const FearOfChargeRules& f = cr.fear_of_charge;
    ChargeRecord::Fear fr;
    fr.exempt = !p.fear_check;
    fr.need = f.target;
    fr.refuge = in.refuge;
    if (p.fear_check) {
      for (int k = 0; k < f.dice && k < 2; ++k) fr.dice.push_back(dice.gut[static_cast<std::size_t>(k)]);
      const int total = gut_total(r, fr.dice);
      fr.passed = gut_check_passes(cr, total);
      const std::string roll = dice_text(fr.dice) + " = " + std::to_string(total) + ", needs " + gut_need_text(cr);
      if (fr.passed) {
        before = defender + " pass the gut check against charging horse (" + roll + "). ";
      } else if (fr.refuge) {
        c.fear = fr;
        c.charge_bonus = false;
        c.morale_check = false;
        c.outcome = defender + " fail the gut check against charging horse (" + roll + "): they flee up to " +
                    format_length_table(f.flee_distance, u) + " into the cover you named. " + name +
                    " finds no one to strike and halts; no melee.";
        return c;
      } else {
        before = defender + " fail the gut check (" + roll + ") with no cover within " + format_length_table(f.flee_distance, u) +
                 ": caught in the open, the charge goes on. ";
      }
    } else {
      before = defender + " are in cover good enough against charging horse: no gut check. ";
    }
    c.fear = fr;
  }
  if (p.square) {
    c.square = true;
    c.morale_check = false;
    c.outcome = before + defender + " form square: no morale check. The charge goes in to melee against the square" +
                std::string(g.charge_bonus ? " (with the charge bonus)" : "") + ": the square rolls first.";
    return c;
  }
  if (!g.morale_check) {
    c.outcome = before + "Contact inside the minimum distance (" + format_length_table(g.min_distance, u) +
                "): melee, but without the combat benefits of a charge; no morale check.";
    return c;
  }
  if (p.target.automatic) {
    c.stands = true;
    c.outcome = before + defender + " stand automatically (pikes or pole arms facing the charge): the charge goes in to melee" +
                std::string(g.charge_bonus ? " with the charge bonus." : ".");
    return c;
  }
  c.rolled = true;
  c.dice = dice.dice;
  MoraleResult m = resolve_morale(cr, p.target, dice.dice[0], dice.dice[1]);
  c.stands = m.stands;
  const std::string roll = std::to_string(m.dice[0]) + " + " + std::to_string(m.dice[1]) + " = " + std::to_string(m.total);
  const std::string back = moves_text(cr.failure_retreat_moves) + " moves" +
                           (cr.failure_backs_to_enemy ? ", backs to the enemy" : "") +
                           (cr.failure_must_rally ? ", and must rally" : "");
  if (p.charger_checks) {
    // Seed 003: both charging, both check, the defender first; the charger
    // checks whatever the defender rolled.
    const MoraleResult cm = resolve_morale(cr, p.charger_target, dice.charger[0], dice.charger[1]);
    c.charger_dice = dice.charger;
    c.charger_need = p.charger_target.target;
    c.charger_stands = cm.stands;
    if (!cm.stands) c.charger_morale = cr.failure_must_rally ? Morale::rallying : Morale::shaken;
    std::string t = defender + (m.stands ? " STAND (" + roll + ")." : " FAIL (" + roll + "): they retreat " + back + ".");
    t += " Both charging, " + name + " checks too (needs " + std::to_string(c.charger_need) + "+): " + std::to_string(cm.dice[0]) +
         " + " + std::to_string(cm.dice[1]) + " = " + std::to_string(cm.total) + ", ";
    if (!cm.stands) {
      t += "it FAILS: it falls back " + format_length_table(morale_retreat(cr, normal_move(r, true, Length())), u) + " (" + back +
           "). No melee.";
    } else if (m.stands) {
      t += "it stands: the charge goes in to melee" + std::string(g.charge_bonus ? " with the charge bonus." : ".");
    } else {
      t += "it stands and has won before melee.";
      const Length balance = follow_through_balance(r, g.max_range, in.distance);
      if (balance.as_cm() > 0)
        t += " " + name + " follows through up to " + format_length_table(balance, u) +
             " (the balance of its charge move) in the direction of its charge.";
    }
    c.outcome = t;
    return c;
  }
  if (m.stands) {
    c.outcome = before + defender + " STAND (" + roll + "): the charge goes in to melee" +
                std::string(g.charge_bonus ? " with the charge bonus." : ".");
  } else {
    c.outcome = before + defender + " FAIL (" + roll + "): they retreat " + moves_text(cr.failure_retreat_moves) + " moves" +
                (cr.failure_backs_to_enemy ? ", backs to the enemy" : "") + (cr.failure_must_rally ? ", and must rally" : "") +
                ".";
    if (const auto mv = class_move(r, in.defender))
      c.outcome += " That is " + format_length_table(morale_retreat(cr, mv->first), u) + " for " + mv->second + " of " +
                   format_length_table(mv->first, u) + ".";
    // Seed 003: a charger whose target fails has won before melee and
    // follows through the balance of its charge move.
    const Length balance = follow_through_balance(r, g.max_range, in.distance);
    if (balance.as_cm() > 0)
      c.outcome += " " + name + " follows through up to " + format_length_table(balance, u) +
                   " (the balance of its charge move) in the direction of its charge.";
  }
  return c;
}

namespace {

std::string dashed(std::string_view s) {
  std::string o(s);
  std::replace(o.begin(), o.end(), '_', '-');
  return o;
}

template <std::size_t N>
std::optional<std::size_t> pick(const std::string& text, const std::array<std::string_view, N>& names, std::string& why) {
  std::string t = text;
  std::replace(t.begin(), t.end(), '-', '_');
  std::vector<std::string> list;
  std::string shown;
  std::vector<std::size_t> starts;  // names the answer is a beginning of
  for (std::size_t k = 0; k < N; ++k) {
    if (names[k] == t) return k;
    if (!t.empty() && names[k].substr(0, t.size()) == t) starts.push_back(k);
    list.emplace_back(names[k]);
    shown += (shown.empty() ? "" : ", ") + dashed(names[k]);
  }
  // An unambiguous beginning is enough at the table: "m" for medium,
  // "heavy-f" for heavy-foot; an ambiguous one says which it could be.
  if (starts.size() == 1) return starts[0];
  if (starts.size() > 1) {
    std::string could;
    for (std::size_t i = 0; i < starts.size(); ++i)
      could += std::string(i == 0 ? "" : i + 1 == starts.size() ? " or " : ", ") + "'" + dashed(names[starts[i]]) + "'";
    why = "'" + text + "' could be " + could + ": type more of it";
    return std::nullopt;
  }
  std::string near = dashed(nearest(t, list));
  why = "'" + text + "' is not one of: " + shown + (near.empty() ? "" : " (did you mean '" + near + "'?)");
  return std::nullopt;
}

}  // namespace

std::optional<AttackerWeight> parse_attacker(const std::string& text, std::string& why) {
  auto k = pick(text, k_attacker_weight_names, why);
  if (!k) return std::nullopt;
  return static_cast<AttackerWeight>(*k);
}

std::optional<DefenderClass> parse_defender(const std::string& text, std::string& why) {
  auto k = pick(text, k_defender_class_names, why);
  if (!k) return std::nullopt;
  return static_cast<DefenderClass>(*k);
}

std::optional<ChargePath> parse_path(const std::string& text, std::string& why) {
  auto k = pick(text, k_charge_path_names, why);
  if (!k) return std::nullopt;
  return static_cast<ChargePath>(*k);
}

std::optional<ChargedOn> parse_side(const std::string& text, std::string& why) {
  auto k = pick(text, k_side_names, why);
  if (!k) return std::nullopt;
  return static_cast<ChargedOn>(*k);
}

std::optional<Length> parse_table_length(const Ruleset& r, const std::string& text, bool positive, std::string& why) {
  std::optional<Length> l = parse_length(text);
  if (!l) {
    if (auto v = parse_number(text)) l = Length::of(*v, r.units);
  }
  if (!l) {
    why = "'" + text + "' is not a length: give a number, in " + std::string(unit_name(r.units)) +
          " unless you add a unit (e.g. 45 or 45cm or 18in)";
    return std::nullopt;
  }
  if (l->as_cm() < 0 || (positive && l->as_cm() <= 0)) {
    why = positive ? "the move must be more than zero" : "a distance cannot be negative";
    return std::nullopt;
  }
  if (l->as_cm() > k_max_length_cm) {
    why = "'" + text + "' is longer than any table";
    return std::nullopt;
  }
  return l;
}

std::optional<double> parse_bearing(const std::string& text, std::string& why) {
  auto v = parse_number(text);
  if (!v || *v < -360 || *v > 360) {
    why = "'" + text + "' is not a bearing: give degrees off the facing, from -360 to 360 (0 = straight ahead)";
    return std::nullopt;
  }
  return v;
}

}  // namespace vedette::solo

// ------------------------------------------------- the turn's later steps

namespace vedette::solo {

namespace {

// The faces of a set in words: "a 6", "a 5 or 6".
std::string faces_text(FaceSet f) {
  std::vector<int> faces;
  for (int k = 1; k <= 20; ++k)
    if (has_face(f, k)) faces.push_back(k);
  if (faces.empty()) return "no face";
  std::string t = "a " + std::to_string(faces[0]);
  for (std::size_t k = 1; k < faces.size(); ++k) t += (k + 1 == faces.size() ? " or " : ", ") + std::to_string(faces[k]);
  return t;
}

std::string dice_text(const std::vector<int>& d) {
  std::string t = "[";
  for (std::size_t k = 0; k < d.size(); ++k) t += (k ? " " : "") + std::to_string(d[k]);
  return t + "]";
}

std::string plural(int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

std::string times_text(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

int hits_of(const std::vector<int>& dice, int need) {
  int h = 0;
  for (int d : dice) h += d >= need;
  return h;
}

void take_dice(StepRecord& rec, const StepDice& d) {
  rec.dice = d.dice;
  rec.dice_source = d.source;
  rec.roll_index = d.source == DiceSource::rolled && !d.dice.empty() ? d.roll_index : std::nullopt;
  rec.same_dice_as = d.source == DiceSource::rolled && !d.dice.empty() ? d.same_dice_as : std::nullopt;
}

const ActivateEvent* this_turn_activation(const Session& s, std::size_t unit) {
  const UnitMemory& m = s.memory(unit);
  if (m.acted_in_turn != s.state().turn || m.last_activation == 0) return nullptr;
  return std::get_if<ActivateEvent>(&s.event(m.last_activation).body);
}

}  // namespace

StepDice session_step_dice(const Session& s, TurnStep step, std::size_t unit, int n) {
  StepDice d;
  if (auto first = s.step_dice_for(step, unit, s.state().turn)) {
    d.roll_index = step_record(s.event(*first).body)->roll_index;
    d.same_dice_as = *first;
  }
  if (!d.roll_index) d.roll_index = s.next_roll();
  d.dice = solo_roll_dice(s.header().seed, *d.roll_index, n);
  return d;
}

StepDice player_dice(std::vector<int> dice) {
  StepDice d;
  d.dice = std::move(dice);
  d.source = DiceSource::player;
  return d;
}

int charges_declared(const Session& s) {
  int n = 0;
  for (std::size_t k = 0; k < s.header().units.size(); ++k) {
    const UnitMemory& m = s.memory(k);
    if (m.acted_in_turn != s.state().turn) continue;
    if (s.charge_pending(k)) {
      auto it = m.charge_draft.find("charge");
      n += it != m.charge_draft.end() && it->second == "yes";
    } else if (m.charge_for == m.last_activation && m.charge_for != 0) {
      n += m.charge_event != 0;  // a charge answered, not declined
    }
  }
  return n;
}

StepRecord resolve_initiative(const Ruleset& r, const Session& s, int player_total, const StepDice& cavalry) {
  StepRecord rec;
  take_dice(rec, cavalry);
  rec.given["player_roll"] = std::to_string(player_total);
  int roll = 0;
  for (int d : cavalry.dice) roll += d;
  const int declared = charges_declared(s);
  rec.score = initiative_total(r, roll, declared);  // seed 003: -2 per declared charge
  const int first = first_to_move({rec.score, player_total}, s.state().first_last_turn);
  rec.result = first == 0 ? "cavalry" : "player";
  std::string t = "the cavalry rolls " + dice_text(cavalry.dice);
  if (declared)
    t += " " + std::string(r.charge.declare_initiative_modifier >= 0 ? "+" : "") +
         std::to_string(r.charge.declare_initiative_modifier * declared) + " (" + plural(declared, "charge", "charges") +
         " declared)";
  t += " = " + std::to_string(rec.score) + ", your side " + std::to_string(player_total) + ": ";
  t += first == 0 ? "the cavalry moves first" : "you move first";
  if (rec.score == player_total)
    t += s.state().first_last_turn < 0 ? " (a tie: on the first turn it goes to the cavalry)"
                                       : " (a tie: it goes to the side that did not move first last turn)";
  rec.outcome = t + ".";
  return rec;
}

ShootingChance shooting_chance(const Ruleset& r, const Session& s, std::size_t unit) {
  ShootingChance c;
  const UnitSpec& spec = s.header().units[unit];
  const UnitMemory& m = s.memory(unit);
  if (spec.weapon.empty()) {
    c.why_not = spec.name + " has no missile weapon";
    return c;
  }
  for (const Weapon& w : r.weapons)
    if (w.id == spec.weapon) c.weapon = &w;
  if (!c.weapon) {
    c.why_not = "the ruleset has no weapon '" + spec.weapon + "'";
    return c;
  }
  if (s.figures_left(unit) <= 0 || m.morale == Morale::routed) {
    c.why_not = spec.name + " is out of the fight";
    c.weapon = nullptr;
    return c;
  }
  // Turn sequence step 4: units in contact, that charged, or that must rally do not shoot.
  if (m.morale == Morale::rallying || m.charged_this_turn || m.contact) {
    c.why_not = spec.name + (m.morale == Morale::rallying ? " must rally" : " charged this turn");
    c.weapon = nullptr;
    return c;
  }
  const UnitType* t = r.find_unit_type(spec.type);
  const bool shoots_mounted = !t || t->shoots_mounted;
  const ActivateEvent* act = this_turn_activation(s, unit);
  const bool halted = act && act->a.pace == Pace::halt;
  c.moving = !halted;
  if (m.on_foot) {
    // Dismounted in an earlier turn and halted since: it shoots on foot.
    c.on_horse = false;
    c.moving = false;
  } else if (!shoots_mounted) {
    // Seed 002: mounted infantry never shoots mounted; the automated unit
    // dismounts when the table halts it (combat.dismount.on_halt) with a
    // shot on foot (the nearest enemy it can see, within its reach on foot
    // and in its arc): the shooting question asks.
    MountedInfantryFacts mf;
    mf.type = t;
    mf.has_weapon = true;
    mf.shot_on_foot = true;
    if (mounted_infantry_order(r, mf, halted ? Pace::halt : Pace::walk) != MountedInfantryOrder::dismounts) {
      c.why_not = spec.name + " is mounted and mounted infantry may not shoot mounted (seed 002)";
      c.weapon = nullptr;
      return c;
    }
    c.on_horse = false;
    c.dismounts = true;
    c.moving = false;
  }
  c.reach = shot_reach(r, *c.weapon, c.on_horse, shoots_mounted);
  if (!(c.reach.as_cm() > 0)) {
    c.why_not = spec.name + "'s " + c.weapon->name + " cannot reach any band";
    c.weapon = nullptr;
  }
  return c;
}

std::optional<ShotPlan> solo_shot(const Ruleset& r, const Session& s, std::size_t unit, Length distance, bool cover) {
  const ShootingChance c = shooting_chance(r, s, unit);
  if (!c.weapon) return std::nullopt;
  const UnitType* t = r.find_unit_type(s.header().units[unit].type);
  ShotFacts f;
  f.figures = s.figures_left(unit);
  f.on_horse = c.on_horse;
  f.shoots_mounted = !t || t->shoots_mounted;
  f.distance = distance;
  f.cover = cover ? 1 : 0;
  return plan_shot(r, *c.weapon, f);
}

StepRecord resolve_shooting(const Ruleset& r, const Session& s, std::size_t unit, bool target, Length distance,
                            bool cover, const StepDice& dice, std::optional<int> player_hits) {
  StepRecord rec;
  const std::string& name = s.header().units[unit].name;
  const ShootingChance c = shooting_chance(r, s, unit);
  rec.given["target"] = target ? "yes" : "no";
  rec.dice_source = dice.source;
  const std::string dismount = c.dismounts ? name + " dismounts (its whole move, seed 001) and " : name + " ";
  if (!target || !c.weapon) {
    rec.result = "none";
    rec.outcome = c.weapon ? name + " has no enemy to shoot at." : c.why_not + ".";
    return rec;
  }
  rec.given["distance"] = format_length(distance, r.units);
  rec.given["cover"] = cover ? "yes" : "no";
  const std::optional<ShotPlan> plan = solo_shot(r, s, unit, distance, cover);
  if (!plan) {
    rec.result = "none";
    rec.outcome = "Out of reach: " + name + "'s " + c.weapon->name + " reaches " + format_length_table(c.reach, r.units) + ".";
    return rec;
  }
  rec.need = plan->need;
  rec.result = "shot";
  rec.dismounted = c.dismounts;  // its whole move: on foot until it mounts again
  std::string t = dismount + "shoots " + c.weapon->name + " at your nearest unit it can see (" +
                  format_length_table(distance, r.units) + ", range band " + std::to_string(plan->band + 1) +
                  (plan->shift ? ", counted " + std::to_string(plan->shift) + " further as it is mounted" : "") + "): " +
                  plural(plan->dice, "die", "dice") + " needing " + std::to_string(plan->need) + "+" +
                  (cover ? " (+" + std::to_string(r.combat.shooting.cover_penalty) + " for cover)" : "");
  if (plan->need > 6) {
    rec.outcome = t + ": it cannot hit.";
    return rec;
  }
  if (player_hits) {
    rec.score = *player_hits;
  } else {
    take_dice(rec, dice);
    rec.need = plan->need;
    rec.score = hits_of(dice.dice, plan->need);
    t += " " + dice_text(dice.dice);
  }
  t += " = " + plural(rec.score, "hit", "hits") + ".";
  if (rec.score > 0)
    t += " Remove " + plural(rec.score, "figure", "figures") + " from that unit (a mounted figure: the horse on 1-4, the rider on 5-6; seed 002).";
  rec.outcome = t;
  return rec;
}

namespace {
// The automated unit's melee hits: the player's count, or its dice against rec.need.
void cavalry_hits(StepRecord& rec, const StepDice& dice, std::optional<int> own_hits) {
  if (own_hits) {
    rec.dice_source = DiceSource::player;
    rec.score = *own_hits;
  } else {
    take_dice(rec, dice);
    rec.score = hits_of(dice.dice, rec.need);
  }
}
}  // namespace

MeleeSide solo_melee_side(const Ruleset& r, const Session& s, std::size_t unit) {
  MeleeSide m;
  const UnitType* t = r.find_unit_type(s.header().units[unit].type);
  m.dice = s.memory(unit).square ? square_melee_dice(r, s.figures_left(unit))  // seed 004: at most max_battle_dice
                                  : dice_for(s.figures_left(unit), r.combat.melee.figures_per_die);
  m.modifier = melee_modifier(t, !s.memory(unit).on_foot, s.memory(unit).charge_bonus);  // seed 002
  m.need = melee_need(r, m.modifier);
  return m;
}

StepRecord resolve_melee(const Ruleset& r, const Session& s, std::size_t unit, int player_hits, const StepDice& dice,
                         std::optional<int> own_hits) {
  StepRecord rec;
  const std::string& name = s.header().units[unit].name;
  const UnitMemory& mem = s.memory(unit);
  const LengthUnit u = r.units;
  const MeleeSide side = solo_melee_side(r, s, unit);
  rec.given["player_hits"] = std::to_string(player_hits);
  rec.need = side.need;
  cavalry_hits(rec, dice, own_hits);
  rec.casualties = std::min(player_hits, s.figures_left(unit));
  // The balance of its charge move, for a follow-through (seed 003).
  Length balance;
  if (mem.charge_event)
    if (const auto* ce = std::get_if<ChargeEvent>(&s.event(mem.charge_event).body)) {
      auto range = parse_length(ce->c.max_range), dist = parse_length(ce->c.distance);
      if (range && dist) balance = follow_through_balance(r, *range, *dist);
    }
  const MeleeAftermath after =
      melee_aftermath(r, rec.score, player_hits, normal_move(r, true, Length()), Length(), true, balance);
  std::string t = name + " fights with " + plural(side.dice, "die", "dice") + " needing " + std::to_string(side.need) + "+";
  if (side.modifier)
    t += " (" + std::to_string(r.combat.melee.hit) + "+ with " + (side.modifier > 0 ? "+" : "") + std::to_string(side.modifier) +
         " to each die)";
  if (!own_hits) t += " " + dice_text(dice.dice);
  t += ": " + plural(rec.score, "hit", "hits") + " on your unit; yours scored " + std::to_string(player_hits) + ". ";
  if (rec.score > 0) t += "Remove " + plural(rec.score, "figure", "figures") + " from your unit. ";
  const std::string moves = times_text(r.combat.melee.loser_retreat_moves);
  const bool destroyed = rec.casualties >= s.figures_left(unit);
  if (destroyed) {
    rec.result = after.winner == MeleeWinner::attacker ? "won" : after.winner == MeleeWinner::defender ? "lost" : "tie";
    rec.outcome = t + name + " loses its last figure in the melee: it is destroyed.";
    return rec;
  }
  switch (after.winner) {
    case MeleeWinner::attacker:
      rec.result = "won";
      t += name + " wins: your unit falls back " + moves + " of its moves, backs to the enemy, and must rally.";
      if (after.follow_through.as_cm() > 0)
        t += " " + name + " follows through up to " + format_length_table(after.follow_through, u) +
             " (the balance of its charge move) in the direction of its charge.";
      break;
    case MeleeWinner::defender:
      rec.result = "lost";
      rec.fell_back = true;
      rec.morale = Morale::rallying;
      t += name + " loses: it falls back " + format_length_table(after.attacker_back, u) + " (" + moves +
           " moves), backs to your unit, and must rally.";
      break;
    case MeleeWinner::tie:
      rec.result = "tie";
      rec.fell_back = true;
      t += "A tie: " + name + " is repulsed and falls back " + format_length_table(after.attacker_back, u) +
           ", facing your unit.";
      break;
  }
  rec.outcome = t;
  return rec;
}

std::string gut_need_text(const ChargeRules& r) {
  const FearOfChargeRules& f = r.fear_of_charge;
  return f.pass_at_most ? "at most " + std::to_string(f.target) : std::to_string(f.target) + "+";
}

StepRecord resolve_square_melee(const Ruleset& r, const Session& s, std::size_t unit, bool bounce, int square_hits,
                                const StepDice& dice, std::optional<int> own_hits) {
  StepRecord rec;
  const std::string& name = s.header().units[unit].name;
  const LengthUnit u = r.units;
  const MeleeSide side = solo_melee_side(r, s, unit);
  rec.given["bounce"] = bounce ? "yes" : "no";
  rec.given["player_hits"] = std::to_string(square_hits);
  rec.need = side.need;
  rec.casualties = std::min(square_hits, s.figures_left(unit));
  rec.fell_back = true;
  const Length move = normal_move(r, true, Length());
  std::string t = "Your square rolls first: " + std::string(bounce ? "the bounce" : "no bounce") + ", " +
                  plural(square_hits, "hit", "hits") + " on " + name + ". ";
  if (rec.casualties >= s.figures_left(unit)) {
    rec.result = bounce ? "bounced" : "repulsed";
    rec.fell_back = false;
    rec.outcome = t + name + " loses its last figure against the square: it is destroyed.";
    return rec;
  }
  if (bounce) {
    const SquareAftermath after = square_melee(r, true, 0, square_hits, move);
    rec.result = "bounced";
    rec.outcome = t + name + " is bounced off the square before it can strike: it falls back " +
                  format_length_table(after.attacker_back, u) + " (" + times_text(r.charge.infantry_square.bounce_back_moves) +
                  " of its moves).";
    return rec;
  }
  cavalry_hits(rec, dice, own_hits);
  const SquareAftermath after = square_melee(r, false, rec.score, square_hits, move);
  rec.result = "repulsed";
  t += name + " strikes with " + plural(side.dice, "die", "dice") + " needing " + std::to_string(side.need) + "+" +
       (own_hits ? std::string() : " " + dice_text(dice.dice)) + ": " + plural(rec.score, "hit", "hits") + " on your square. ";
  if (rec.score > 0) t += "Remove " + plural(rec.score, "figure", "figures") + " from your square. ";
  t += name + " cannot break into the square: it falls back " + format_length_table(after.attacker_back, u) + ", facing it.";
  if (after.square_shaken) t += " Your square scored fewer hits: it is shaken.";
  rec.outcome = t;
  return rec;
}

RallyNeed rally_need(const Ruleset& r, const Session& s, std::size_t unit) {
  const UnitMemory& m = s.memory(unit);
  if (s.figures_left(unit) <= 0 || m.morale == Morale::routed) return RallyNeed::none;
  if (routs(r, m.casualties, s.header().units[unit].figures)) return RallyNeed::routs;
  if (m.morale == Morale::shaken || m.morale == Morale::rallying) return RallyNeed::rally;
  return RallyNeed::none;
}

StepRecord resolve_rally(const Ruleset& r, const Session& s, std::size_t unit, bool enemy_near, const StepDice& dice) {
  StepRecord rec;
  const UnitSpec& spec = s.header().units[unit];
  const UnitMemory& m = s.memory(unit);
  rec.dice_source = dice.source;
  if (rally_need(r, s, unit) == RallyNeed::routs) {
    rec.result = "routed";
    rec.morale = Morale::routed;
    rec.outcome = spec.name + " ROUTS: it has lost " + std::to_string(m.casualties) + " of " + std::to_string(spec.figures) +
                  " figures (a unit routs at " + std::to_string(r.combat.morale.rout_losses_pct) +
                  "%). It flees toward its own table edge at its fastest pace from now on and leaves the table on reaching it.";
    return rec;
  }
  rec.given["enemy_near"] = enemy_near ? "yes" : "no";
  if (enemy_near) {
    rec.result = "no_rally";
    rec.outcome = spec.name + " cannot rally: an enemy is within " +
                  format_length_table(r.combat.morale.rally_enemy_clear, r.units) + "; it stays " +
                  std::string(morale_name(m.morale)) + ".";
    return rec;
  }
  take_dice(rec, dice);
  const RallyCheck c = rally_check(r, dice.dice.at(0), dice.dice.at(1));
  rec.need = c.need;
  rec.score = c.total;
  rec.result = c.rallied ? "rallied" : "failed";
  if (c.rallied) rec.morale = Morale::steady;
  rec.outcome = spec.name + " rallies on 2D6 " + std::to_string(c.need) + "+: " + dice_text(dice.dice) + " = " +
                std::to_string(c.total) + (c.rallied ? ": back in good order." : ": fails, and stays " + std::string(morale_name(m.morale)) + ".");
  return rec;
}

std::string initiative_question(const Ruleset& r) {
  const int dice = r.combat.initiative.dice;
  const int im = r.charge.declare_initiative_modifier;
  return "Roll " + std::to_string(dice) + " D6 for your side's initiative" +
         (im ? ", " + std::string(im < 0 ? "less " : "plus ") + std::to_string(std::abs(im)) + " for each charge your side declared,"
             : "") +
         " and enter the total:";
}

std::string shooting_question(const Ruleset& r, const Session& s, std::size_t unit) {
  const ShootingChance c = shooting_chance(r, s, unit);
  const std::string& name = s.header().units[unit].name;
  std::ostringstream deg;
  std::string arc;
  if (c.moving && c.on_horse) {
    deg << r.supplement.moving_shoot_arc_degrees;
    arc = "ahead of it or to its left front (moving cavalry shoots front and left, " + deg.str() + " degrees, seed 002)";
  } else {
    deg << r.combat.shooting.arc_half_degrees;
    arc = "within " + deg.str() + " degrees either side of its facing";
  }
  // Seed 002: uncommanded units shoot only at the nearest enemy they can
  // see, the engine's shooting step's target.
  return "Is the nearest enemy " + name + " can see within " + format_length_table(c.reach, r.units) + " of its front, " + arc +
         "?";
}

std::string melee_intro(const Ruleset& r, const Session& s, std::size_t unit) {
  const std::string& name = s.header().units[unit].name;
  const MeleeSide side = solo_melee_side(r, s, unit);
  if (s.memory(unit).square)
    return "Melee: " + name + " against your square. Your square rolls first, at most " +
           plural(r.charge.infantry_square.max_battle_dice, "die", "dice") + ": " + faces_text(r.charge.infantry_square.bounce_on) +
           " bounces " + name + " back before it strikes; then " + name + " strikes with " + plural(side.dice, "die", "dice") +
           " needing " + std::to_string(side.need) + "+.";
  std::string t = "Melee: " + name + " is in contact with the unit it charged. It fights with " + plural(side.dice, "die", "dice") +
                  " needing " + std::to_string(side.need) + "+";
  if (side.modifier)
    t += " (" + std::to_string(r.combat.melee.hit) + "+ with " + (side.modifier > 0 ? "+" : "") + std::to_string(side.modifier) +
         " to each die)";
  return t + ". Roll your unit's melee dice as your rules say.";
}

std::string rally_question(const Ruleset& r, const Session& s, std::size_t unit) {
  return "Morale: " + s.header().units[unit].name + " is " + std::string(morale_name(s.memory(unit).morale)) +
         ". Is any enemy within " + format_length_table(r.combat.morale.rally_enemy_clear, r.units) + " of it?";
}

Step next_step(const Session& s, const Ruleset& r) {
  const State& st = s.state();
  const std::size_t n = s.header().units.size();
  bool any_left = false;
  for (std::size_t k = 0; k < n; ++k) {
    if (s.charge_pending(k) && !st.units[k].charge_draft.count("charge")) return {Step::Kind::charge, k, Question::in_cover};
    if (s.figures_left(k) <= 0 || st.units[k].morale == Morale::routed) continue;
    any_left = true;
    if (st.units[k].acted_in_turn == st.turn) continue;
    const UnitSpec& spec = s.header().units[k];
    if (auto q = next_question(r, spec, st.units[k], s.figures_left(k), st.turn)) return {Step::Kind::question, k, *q};
    return {Step::Kind::roll, k, Question::in_cover};
  }
  bool any_acted = false;
  for (std::size_t k = 0; k < n; ++k) any_acted = any_acted || st.units[k].acted_in_turn == st.turn;
  if (!any_left && !any_acted) return {Step::Kind::game_over, 0, Question::in_cover};
  // A module with its own turn (asl: seed 000's phases, fire, close combat
  // and rally by the ASL rulebook) takes the Actions Table's decisions only:
  // seed 003's initiative and the later steps are not walked.
  if (!s.header().module.empty()) return {Step::Kind::next_turn, 0, Question::in_cover};
  if (any_acted && st.initiative_turn != st.turn) return {Step::Kind::initiative, 0, Question::in_cover};
  for (std::size_t k = 0; k < n; ++k)
    if (s.charge_pending(k)) return {Step::Kind::charge, k, Question::in_cover};
  for (std::size_t k = 0; k < n; ++k)
    if (st.units[k].shot_in_turn != st.turn && shooting_chance(r, s, k).weapon) return {Step::Kind::shooting, k, Question::in_cover};
  for (std::size_t k = 0; k < n; ++k)
    if (st.units[k].contact && st.units[k].melee_in_turn != st.turn && s.figures_left(k) > 0)
      return {Step::Kind::melee, k, Question::in_cover};
  for (std::size_t k = 0; k < n; ++k)
    if (st.units[k].rally_in_turn != st.turn && rally_need(r, s, k) != RallyNeed::none)
      return {Step::Kind::rally, k, Question::in_cover};
  return {Step::Kind::next_turn, 0, Question::in_cover};
}

std::string turn_summary(const Ruleset& r, const Session& s, std::size_t unit) {
  const UnitSpec& spec = s.header().units[unit];
  const UnitMemory& m = s.memory(unit);
  std::string t = spec.name + ": " + std::to_string(s.figures_left(unit)) + " of " + std::to_string(spec.figures) + " figures";
  if (s.figures_left(unit) <= 0) return t + ", destroyed.";
  t += ", " + std::string(morale_name(m.morale));
  if (m.morale == Morale::routed) return t + ": flees toward its own edge.";
  if (m.acted_in_turn == s.state().turn) t += m.pace == Pace::halt ? ", halted" : ", moved at " + std::string(pace_name(m.pace));
  if (m.on_foot) {
    t += ", on foot (it mounts, its whole move, before it moves again)";
  } else if (const ActivateEvent* act = this_turn_activation(s, unit); act && act->a.on_foot) {
    t += ", mounted again (its whole move)";
  }
  if (m.charged_this_turn) t += "; charged, so no charge next turn (seed 003)";
  if (m.pace == Pace::gallop && m.gallop_streak >= r.supplement.gallop_max_turns)
    t += "; galloped " + std::to_string(m.gallop_streak) + " turns running, so at most " +
         std::string(pace_name(r.supplement.after_gallop_limit)) + " next turn (seed 002)";
  if (m.ran_this_turn) t += "; ran, so +3 to its risk next turn";
  if (m.fell_back_this_turn) t += "; fell back from a melee";
  return t + ".";
}

std::string plain_words(const std::string& text) {
  static const std::regex paren(R"( ?\(seed \d{3}(?:'s [a-z ]+)?\))");  // " (seed 003)", " (seed 003's charge table)"
  static const std::regex lead(R"(\(seed \d{3}, )");                     // "(seed 003, per ..." -> "(per ..."
  static const std::regex tail(R"([,;] seed \d{3}\))");                  // "..., seed 001)" -> "...)"
  static const std::regex key(R"( \((?:[a-z_]+\.)+[a-z_]+\))");           // " (switches.no_gallop_pace)": a YAML key
  std::string t = std::regex_replace(text, paren, "");
  t = std::regex_replace(t, lead, "(");
  t = std::regex_replace(t, tail, ")");
  return std::regex_replace(t, key, "");
}

}  // namespace vedette::solo
