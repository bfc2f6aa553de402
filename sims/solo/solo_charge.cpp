// Solo play's charges: the table's answers to seed 003's charge procedure
// (engine/procedures/charge_procedure.hpp), the player's dice in its order,
// the record, and reading a session back by replaying its charges and its
// other steps (replay_charges, replay_steps).
#include "sims/solo/solo_turn.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <regex>
#include <sstream>
#include <system_error>

#include "engine/modules/asl/asl_phrasing.hpp"
#include "engine/core/builtin_tables.hpp"
#include "engine/core/content_hash.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "engine/procedures/combat.hpp"
#include "engine/procedures/reaction_rules.hpp"
#include "sims/io/atomic_file.hpp"
#include "sims/solo/solo_react.hpp"
#include "sims/solo/session_text.hpp"

namespace vedette::solo {

// ----------------------------------------------------------------- charge

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
    p.charger_situation = cs;
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
  // The engine's own allowance (Battle::charge_allowance, asked with the
  // pace Engagement::activate gives a declared charge): its pace this turn,
  // limited as any pace, and a unit the table halted (or that has not acted
  // this turn) at a walk, so its range is 1.5 times its walk (seed 003 L42).
  const UnitMemory& m = s.memory(unit);
  PaceFacts pf;
  pf.on_horse = !m.on_foot;
  pf.type = r.find_unit_type(s.header().units[unit].type);
  pf.gallop_streak = m.gallop_streak;
  pf.charged_last_turn = m.charged_last_turn;
  const Pace pace = reaction_pace(r, pf, m.acted_in_turn == s.state().turn ? m.pace : Pace::halt);
  // On foot a unit declares no charge (charge_refusal); its allowance would
  // be its own move, which the session does not know: the walk's then.
  return pf.on_horse ? reaction_allowance(r, true, Length(), pace) : r.pace_range(Pace::walk).max;
}

TableCharge table_charge(const ChargeInputs& in, const ChargePreview& pv) {
  TableCharge t;
  t.declared = true;  // the "(Charge?)" is the unit's declaration in step 1
  t.geometry = pv.geometry;
  t.obstacle = in.path == ChargePath::obstacle;
  t.defender = MoraleSituation{in.defender, in.attacker, in.side, in.both_charging, in.pikes_facing};
  t.charger = pv.charger_situation;
  t.fear = pv.fear_check;
  t.refuge = in.refuge;
  t.square = pv.square;
  return t;
}

namespace {

ChargeThrow two(const std::array<int, 2>& d) {
  ChargeThrow t;
  t.faces = {d[0], d[1], 0, 0};
  t.n = 2;
  return t;
}

}  // namespace

ChargeWalk walk_charge(const Ruleset& r, const ChargeInputs& in, const ChargePreview& pv, const ChargeSlots& dice) {
  std::array<ChargeThrow, 7> given{};
  auto put = [&given](ChargeRoll s, const std::optional<std::array<int, 2>>& d) {
    if (d) given[static_cast<std::size_t>(s)] = two(*d);
  };
  put(ChargeRoll::initiation, dice.initiation);
  put(ChargeRoll::obstacle_check, dice.obstacle);
  put(ChargeRoll::defender_morale, dice.defender);
  put(ChargeRoll::charger_morale, dice.charger);
  ChargeThrow& g = given[static_cast<std::size_t>(ChargeRoll::gut_check)];
  for (std::size_t k = 0; k < dice.gut.size() && k < g.faces.size(); ++k) g.faces[k] = dice.gut[k];
  g.n = static_cast<int>(std::min<std::size_t>(dice.gut.size(), g.faces.size()));
  const TableCharge t = table_charge(in, pv);
  ChargeWalk w{ChargeProcedure(r, table_charge_facts(t)), {}};
  w.next = drive_charge(w.procedure, table_charge_answers(r, t), given);
  return w;
}

ChargeDice player_charge_dice(const Ruleset& r, const ChargeInputs& in, const ChargePreview& pv,
                              const std::function<std::vector<int>(ChargeRoll, int)>& ask) {
  ChargeSlots got;
  for (;;) {
    const ChargeWalk w = walk_charge(r, in, pv, got);
    if (w.next.kind != ChargeProcedure::Need::Kind::roll) break;
    const std::vector<int> d = ask(w.next.roll, w.next.dice);
    if (static_cast<int>(d.size()) != w.next.dice)
      throw std::logic_error("player_charge_dice: the front gave " + std::to_string(d.size()) + " dice for " +
                             std::string(k_charge_roll_names[static_cast<std::size_t>(w.next.roll)]));
    const std::array<int, 2> two{d[0], d.size() > 1 ? d[1] : 0};
    switch (w.next.roll) {
      case ChargeRoll::initiation: got.initiation = two; break;
      case ChargeRoll::obstacle_check: got.obstacle = two; break;
      case ChargeRoll::defender_morale: got.defender = two; break;
      case ChargeRoll::charger_morale: got.charger = two; break;
      case ChargeRoll::gut_check: got.gut = d; break;
      case ChargeRoll::counter_initiation:
      case ChargeRoll::pike_loss:  // the table never asks these (table_charge_answers)
        throw std::logic_error("player_charge_dice: a table charge asked for engine-only dice");
    }
  }
  ChargeDice dice;
  dice.source = DiceSource::player;
  dice.roll_index.reset();
  if (got.initiation) dice.initiation = *got.initiation;
  if (got.obstacle) dice.obstacle = *got.obstacle;
  if (got.defender) dice.dice = *got.defender;
  if (got.charger) dice.charger = *got.charger;
  for (std::size_t k = 0; k < got.gut.size() && k < dice.gut.size(); ++k) dice.gut[k] = got.gut[k];
  return dice;
}

bool ChargeWalk::reached(ChargeRoll slot) const {
  return procedure.result().was_thrown(slot) || (next.kind == ChargeProcedure::Need::Kind::roll && next.roll == slot);
}

ChargeProgress charge_progress(const Ruleset& r, const ChargeInputs& in, const ChargePreview& pv,
                               const std::optional<std::array<int, 2>>& initiation,
                               const std::optional<std::array<int, 2>>& obstacle, const std::vector<int>& gut) {
  ChargeSlots dice;
  dice.initiation = initiation;
  dice.obstacle = obstacle;
  dice.gut = gut;
  const ChargeWalk w = walk_charge(r, in, pv, dice);
  const ChargeResult& res = w.procedure.result();
  ChargeProgress c;
  c.started = res.was_thrown(ChargeRoll::initiation) && res.initiation.passed;
  c.at_obstacle = w.reached(ChargeRoll::obstacle_check);
  c.past_obstacle = c.started && (!c.at_obstacle || (res.was_thrown(ChargeRoll::obstacle_check) && res.obstacle_check.passed));
  c.to_gut = w.reached(ChargeRoll::gut_check);
  c.fled = res.end == ChargeEnd::fled;
  c.to_morale = w.reached(ChargeRoll::defender_morale) || w.reached(ChargeRoll::charger_morale);
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
  const auto ten = solo_roll_dice(s.header().seed, *d.roll_index, k_charge_roll_dice);
  auto pair = [&ten](ChargeRoll slot) {
    const auto at = static_cast<std::size_t>(charge_roll_offset(slot));
    return std::array<int, 2>{ten[at], ten[at + 1]};
  };
  d.dice = pair(ChargeRoll::defender_morale);
  d.initiation = pair(ChargeRoll::initiation);
  d.charger = pair(ChargeRoll::charger_morale);
  d.obstacle = pair(ChargeRoll::obstacle_check);
  d.gut = pair(ChargeRoll::gut_check);
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

namespace {

ChargeRecord resolve_charge_at(const Ruleset& r, const Session& s, std::size_t unit, const ChargeInputs& in, const ChargeDice& dice);

// Seed 003 L56, said before the rest of the outcome: the declared target
// moved out of reach, and the charge went at another enemy within it.
std::string switch_text(const Ruleset& r, const std::string& name, const ChargeInputs& in) {
  if (!in.switched) return {};
  const std::string from = in.switched_from.empty() ? "declared target" : "declared target " + in.switched_from;
  const std::string to = in.target_unit.empty() ? "another enemy within its reach" : in.target_unit + ", another enemy within its reach,";
  return possessive(name) + " " + from + " has moved out of its charge range (" + format_length_table(in.switched_from_distance, r.units) +
         " away): it charges " + to + " instead (seed 003 L56). ";
}

}  // namespace

ChargeRecord resolve_charge(const Ruleset& r, const Session& s, std::size_t unit, const ChargeInputs& in,
                            const ChargeDice& dice) {
  ChargeRecord c = resolve_charge_at(r, s, unit, in, dice);
  c.outcome = switch_text(r, s.header().units[unit].name, in) + c.outcome;
  return c;
}

namespace {

ChargeRecord resolve_charge_at(const Ruleset& r, const Session& s, std::size_t unit, const ChargeInputs& in,
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
  c.target_unit = in.target_unit;
  c.switched = in.switched;
  if (in.switched) {
    c.switched_from = in.switched_from;
    c.switched_from_distance = format_length(in.switched_from_distance, u);
  }
  // The charge's procedure (engine/procedures/charge_procedure.hpp) walked
  // with the player's answers and these dice; the record says what it did.
  ChargeSlots slots;
  slots.initiation = dice.initiation;
  slots.obstacle = dice.obstacle;
  slots.defender = dice.dice;
  slots.charger = dice.charger;
  slots.gut.assign(dice.gut.begin(), dice.gut.end());
  const ChargeWalk w = walk_charge(r, in, p, slots);
  const ChargeResult& res = w.procedure.result();
  const InitiationCheck& ic = res.initiation;
  c.initiation_dice = dice.initiation;
  c.initiation_need = ic.need;
  c.initiation_passed = ic.passed;
  c.dice_source = dice.source;
  c.roll_index = dice.roll_index;
  c.same_dice_as = dice.same_dice_as;
  if (res.end == ChargeEnd::no_charge) {
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
  if (res.end == ChargeEnd::falls_short) {
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
      why = " (no part of the target is " + charge_arc_words(r, name) + ")";
    c.outcome = "The charge does not reach" + why + ": " + name + " must still move " + format_length_table(g.forced_move, u) +
                " forward toward the target" + (c.shaken ? " and becomes shaken." : ".");
    return c;
  }
  if (res.was_thrown(ChargeRoll::obstacle_check)) {
    // Seed 003 L68: an obstacle on the way calls for a second initiation
    // check; failing, the charge is discontinued there, not shaken.
    const InitiationCheck& oc = res.obstacle_check;
    c.obstacle_dice = dice.obstacle;
    c.obstacle_need = oc.need;
    c.obstacle_passed = oc.passed;
    if (res.end == ChargeEnd::halted_at_obstacle) {
      c.charge_bonus = false;
      c.morale_check = false;
      c.outcome = name + " fails its initiation check at the obstacle (" + std::to_string(dice.obstacle[0]) + " + " +
                  std::to_string(dice.obstacle[1]) + " = " + std::to_string(oc.total) + ", needs " + std::to_string(oc.need) +
                  "): it halts at the obstacle, not shaken; its charge is discontinued and it cannot charge again this turn.";
      return c;
    }
  }
  // The optional rules on the player's infantry, as the procedure asked them.
  std::string before;  // what they said, ahead of the rest of the outcome
  if (p.fear_may_apply) {
    const FearOfChargeRules& f = cr.fear_of_charge;
    ChargeRecord::Fear fr;
    fr.exempt = !res.fear_exposed;
    fr.need = f.target;
    fr.refuge = in.refuge;
    if (res.fear_exposed) {
      const ChargeThrow& gt = res.dice(ChargeRoll::gut_check);
      for (int k = 0; k < gt.n; ++k) fr.dice.push_back(gt.faces[static_cast<std::size_t>(k)]);
      fr.passed = res.gut_passed;
      const std::string roll = dice_text(fr.dice) + " = " + std::to_string(res.gut_total) + ", needs " + gut_need_text(cr);
      if (fr.passed) {
        before = defender + " pass the gut check against charging horse (" + roll + "). ";
      } else if (res.end == ChargeEnd::fled) {
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
  if (res.square_formed) {
    c.square = true;
    c.morale_check = false;
    c.outcome = before + defender + " form square: no morale check. The charge goes in to melee against the square" +
                std::string(g.charge_bonus ? " (with the charge bonus)" : "") + ": the square rolls first.";
    return c;
  }
  if (!res.defender_checks) {
    c.outcome = before + "Contact inside the minimum distance (" + format_length_table(g.min_distance, u) +
                "): melee, but without the combat benefits of a charge; no morale check.";
    return c;
  }
  if (res.defender.automatic) {
    c.stands = true;
    c.outcome = before + defender + " stand automatically (" + pikes_words(r) + " facing the charge): the charge goes in to melee" +
                std::string(g.charge_bonus ? " with the charge bonus." : ".");
    return c;
  }
  c.rolled = true;
  c.dice = dice.dice;
  const MoraleResult& m = res.defender;
  c.stands = m.stands;
  const std::string roll = std::to_string(m.dice[0]) + " + " + std::to_string(m.dice[1]) + " = " + std::to_string(m.total);
  const std::string back = moves_text(cr.failure_retreat_moves) + " moves" +
                           (cr.failure_backs_to_enemy ? ", backs to the enemy" : "") +
                           (cr.failure_must_rally ? ", and must rally" : "");
  if (res.charger_checks) {
    // Seed 003: both charging, both check, the defender first; the charger
    // checks whatever the defender rolled.
    const MoraleResult& cm = res.charger;
    c.charger_dice = dice.charger;
    c.charger_need = res.charger_target.target;
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

}  // namespace

namespace {
// The number of the session's last change of ruleset (0: none). Steps
// before it were made by the rules of their time: they stand as recorded.
int last_ruleset_change(const Session& s) {
  int n = 0;
  for (const Event& e : s.history())
    if (std::holds_alternative<RulesetEvent>(e.body)) n = e.n;
  return n;
}
}  // namespace

void replay_charges(const Session& s, const Ruleset& r) {
  const int from = last_ruleset_change(s);
  for (const Event& e : s.history()) {
    if (e.n <= from) continue;
    const auto* ce = std::get_if<ChargeEvent>(&e.body);
    if (!ce || ce->c.declined || !ce->c.initiation_dice) continue;  // no dice: nothing to replay
    const ChargeRecord& c = ce->c;
    auto fail = [&](const std::string& key, const std::string& what) {
      auto at = e.field_where.find(key);
      throw ReplayError(at != e.field_where.end() ? at->second : e.where,
                      "history #" + std::to_string(e.n) + " (charge): " + what +
                          " (read back by replaying the charge with the session's ruleset)");
    };
    auto index_of = [&](const auto& names, const std::string& v, const char* key) {
      for (std::size_t k = 0; k < names.size(); ++k)
        if (names[k] == v) return k;
      fail(key, "'" + v + "' is not a known " + key);
      return std::size_t{0};
    };
    ChargeInputs in;
    in.attacker = static_cast<AttackerWeight>(index_of(k_attacker_weight_names, c.attacker, "attacker"));
    in.defender = static_cast<DefenderClass>(index_of(k_defender_class_names, c.defender, "defender"));
    in.side = static_cast<ChargedOn>(index_of(k_side_names, c.side, "side"));
    if (!c.path.empty()) in.path = static_cast<ChargePath>(index_of(k_charge_path_names, c.path, "path"));
    const auto move = parse_length(c.move), distance = parse_length(c.distance);
    if (!move || !distance) fail("move", "the charge's move or distance is not a length");
    in.move = *move;
    in.distance = *distance;
    in.bearing = c.bearing;
    in.both_charging = c.both_charging;
    in.pikes_facing = c.pikes_facing;
    if (c.fear) {
      in.fear_exempt = c.fear->exempt;
      in.refuge = c.fear->refuge;
    }
    in.square = c.square;
    const ChargePreview pv = preview_charge(r, in);
    ChargeSlots d;
    d.initiation = c.initiation_dice;
    d.obstacle = c.obstacle_dice;
    if (c.rolled) d.defender = c.dice;
    d.charger = c.charger_dice;
    if (c.fear) d.gut = c.fear->dice;
    const ChargeWalk w = walk_charge(r, in, pv, d);
    const ChargeResult& res = w.procedure.result();
    if (res.initiation.passed != c.initiation_passed)
      fail("initiation", "the initiation check's dice give " + std::string(res.initiation.passed ? "passed" : "failed") +
                             " but it is recorded as " + (c.initiation_passed ? "passed" : "failed"));
    if (c.obstacle_dice && !res.was_thrown(ChargeRoll::obstacle_check))
      fail("obstacle_check", "this charge never reaches an obstacle's check (it needs path: obstacle and a charge that reaches)");
    if (res.was_thrown(ChargeRoll::obstacle_check) && res.obstacle_check.passed != c.obstacle_passed)
      fail("obstacle_check", "the obstacle check's dice do not give " + std::string(c.obstacle_passed ? "passed" : "failed"));
    if (c.fear && !c.fear->dice.empty() && !res.was_thrown(ChargeRoll::gut_check))
      fail("fear", "this charge takes no gut check (one follows only a charge that reaches foot, not charging too)");
    if (res.was_thrown(ChargeRoll::gut_check) && res.gut_passed != c.fear->passed)
      fail("fear", "the gut check's dice do not give " + std::string(c.fear->passed ? "passed" : "failed"));
    if (c.square != res.square_formed) fail("square", "a square is formed only against a charge that reaches foot, not charging too");
    if (c.rolled && !res.was_thrown(ChargeRoll::defender_morale))
      fail("dice", "this charge ends before the defender's morale check, yet the record has its dice");
    if (res.was_thrown(ChargeRoll::defender_morale) && res.defender.stands != c.stands)
      fail("stands", "the defender's dice give " + std::string(res.defender.stands ? "stands" : "fails") + " but it is recorded otherwise");
    if (c.charger_dice && !res.was_thrown(ChargeRoll::charger_morale))
      fail("charger_check", "a charger's own morale check comes only both charging against horse, after the defender's");
    if (res.was_thrown(ChargeRoll::charger_morale) && res.charger.stands != c.charger_stands)
      fail("charger_check", "the charger's check dice do not give " + std::string(c.charger_stands ? "stands" : "fails"));
    if (w.next.kind == ChargeProcedure::Need::Kind::roll) {
      static const std::array<const char*, 7> keys{"initiation", "obstacle_check", "initiation", "dice", "fear", "dice", "charger_check"};
      fail(keys[static_cast<std::size_t>(w.next.roll)],
           "the charge goes on to the " + std::string(k_charge_roll_words[static_cast<std::size_t>(w.next.roll)]) +
               " but the record has no dice for it");
    }
  }
}

// ------------------------------------------- read back: the other steps

namespace {

// The dice a step record holds, as the step's resolver takes them.
StepDice recorded_dice(const StepRecord& rec) {
  StepDice d;
  d.dice = rec.dice;
  d.source = rec.dice_source;
  d.roll_index = rec.roll_index;
  d.same_dice_as = rec.same_dice_as;
  return d;
}

}  // namespace

void replay_steps(const Session& s, const Ruleset& r) {
  Session walk(s.path(), s.header());
  walk.replays(s);  // a version 7 file's struck unit as it was played (seed 003 L54)
  const int from = last_ruleset_change(s);  // before it: as recorded
  for (const Event& e : s.history()) {
    if (e.n <= from) {
      walk.append(e.body);
      continue;
    }
    auto fail = [&](const std::string& key, const std::string& what) {
      auto at = e.field_where.find(key);
      throw ReplayError(at != e.field_where.end() ? at->second : e.where,
                        "history #" + std::to_string(e.n) + " (" + std::string(e.kind()) + "): " + what +
                            " (read back by replaying the step with the session's ruleset)");
    };
    auto given = [&](const StepRecord& rec, const char* key) -> std::string {
      auto it = rec.given.find(key);
      if (it == rec.given.end()) fail(key, std::string("the record does not say ") + key);
      return it->second;
    };
    auto number = [&](const StepRecord& rec, const char* key) {
      const std::string v = given(rec, key);
      try {
        std::size_t used = 0;
        const int n = std::stoi(v, &used);
        if (used == v.size()) return n;
      } catch (const std::exception&) {
      }
      fail(key, "'" + v + "' is not a whole number");
      return 0;
    };
    // The player's count of hits (no faces) as the count.
    auto player_count = [](const StepRecord& rec) {
      return rec.dice.empty() && rec.dice_source == DiceSource::player ? std::optional<int>(rec.score) : std::nullopt;
    };
    // The step again, on the state just before it.
    std::optional<StepRecord> again;
    const StepRecord* rec = nullptr;
    try {
      if (const auto* ie = std::get_if<InitiativeEvent>(&e.body)) {
        rec = &ie->s;
        again = resolve_initiative(r, walk, number(*rec, "player_roll"), recorded_dice(*rec));
      } else if (const auto* me = std::get_if<MeleeEvent>(&e.body)) {
        rec = &me->s;
        const std::size_t k = walk.unit_index(me->unit);
        const int theirs = number(*rec, "player_hits");
        const std::optional<int> own = player_count(*rec);
        if (walk.memory(k).square) {
          // The record keeps whether a face bounced, not the faces: its hits
          // came from the dice that did not (read_square_faces).
          SquareFaces faces;
          faces.bounce = given(*rec, "bounce") == "yes";
          faces.may_hit = theirs;
          again = resolve_square_melee(r, walk, k, faces, theirs, recorded_dice(*rec), own);
        } else {
          again = resolve_melee(r, walk, k, theirs, recorded_dice(*rec), own);
        }
      } else if (const auto* se = std::get_if<ShootingEvent>(&e.body)) {
        rec = &se->s;
        const std::size_t k = walk.unit_index(se->unit);
        // "yes", or what it was: "mounted" or "foot" (the casualty advice).
        const std::string said = given(*rec, "target");
        const bool target = said != "no";
        const std::optional<bool> mounted = said == "mounted" ? std::optional<bool>(true)
                                            : said == "foot"  ? std::optional<bool>(false)
                                                              : std::nullopt;
        Length distance;
        if (rec->given.count("distance")) {
          const std::optional<Length> d = parse_length(rec->given.at("distance"));
          if (!d) fail("distance", "'" + rec->given.at("distance") + "' is not a length");
          distance = *d;
        }
        const bool cover = rec->given.count("cover") && rec->given.at("cover") == "yes";
        again = resolve_shooting(r, walk, k, target, distance, cover, recorded_dice(*rec), player_count(*rec), mounted);
      } else if (std::holds_alternative<OpportunityEvent>(e.body) || std::holds_alternative<ChargedEvent>(e.body)) {
        // The reactions (sims/solo/solo_react.hpp): the player's unit as
        // the record names it, on the charge's procedure again.
        const bool opportunity = std::holds_alternative<OpportunityEvent>(e.body);
        const std::string& unit = opportunity ? std::get<OpportunityEvent>(e.body).unit : std::get<ChargedEvent>(e.body).unit;
        rec = opportunity ? &std::get<OpportunityEvent>(e.body).s : &std::get<ChargedEvent>(e.body).s;
        const std::size_t k = walk.unit_index(unit);
        auto pick = [&](const auto& names, const char* key) {
          const std::string v = given(*rec, key);
          for (std::size_t i = 0; i < names.size(); ++i)
            if (names[i] == v) return i;
          fail(key, "'" + v + "' is not a known " + key);
          return std::size_t{0};
        };
        auto yes = [&](const char* key) { return given(*rec, key) == "yes"; };
        const std::optional<Length> distance = parse_length(given(*rec, "distance"));
        if (!distance) fail("distance", "'" + given(*rec, "distance") + "' is not a length");
        PlayerUnit player;
        player.name = given(*rec, "mover");
        player.defender = static_cast<DefenderClass>(pick(k_defender_class_names, "defender"));
        // The cavalry's weight is its own (a unit without one was given it
        // when asked, and the record does not keep it: no replay then).
        if (reactor_weight(walk, k)) {
          if (opportunity) {
            MoverFacts mv;
            mv.kind = static_cast<MoveKind>(pick(k_move_kind_names, "move"));
            mv.distance = *distance;
            mv.in_arc = yes("in_arc");
            mv.in_sight = yes("in_sight");
            mv.side = static_cast<ChargedOn>(pick(k_side_names, "side"));
            mv.charging_it = yes("charging");
            if (mv.charging_it) player.weight = static_cast<AttackerWeight>(pick(k_attacker_weight_names, "attacker"));
            if (rec->given.count("path")) mv.path = static_cast<ChargePath>(pick(k_charge_path_names, "path"));
            mv.unit = player;
            again = resolve_opportunity(r, walk, k, mv, recorded_dice(*rec));
          } else {
            PlayerCharge c;
            player.weight = static_cast<AttackerWeight>(pick(k_attacker_weight_names, "attacker"));
            c.unit = player;
            c.distance = *distance;
            c.in_arc = yes("in_arc");
            c.in_sight = yes("in_sight");
            c.side = static_cast<ChargedOn>(pick(k_side_names, "side"));
            c.bonus = yes("bonus");
            again = resolve_charged(r, walk, k, c, recorded_dice(*rec));
          }
        }
      } else if (const auto* re = std::get_if<RallyEvent>(&e.body)) {
        rec = &re->s;
        const std::size_t k = walk.unit_index(re->unit);
        const bool near = rec->given.count("enemy_near") && rec->given.at("enemy_near") == "yes";
        again = resolve_rally(r, walk, k, near, recorded_dice(*rec));
      }
    } catch (const ReplayError&) {
      throw;
    } catch (const std::logic_error& x) {  // the procedure refused the record's dice or counts
      fail("dice", std::string("its dice or counts are not what the step asks: ") + x.what());
    } catch (const SessionError& x) {  // the step refused the record's answers (too few dice, ...)
      fail(x.field.empty() ? "dice" : x.field, x.what());
    }
    if (again) {
      auto differs = [&](const char* key, const std::string& recorded, const std::string& replayed) {
        if (recorded != replayed)
          fail(key, std::string(key) + " is recorded as '" + recorded + "' but the step gives '" + replayed + "'");
      };
      // Not the dismount: files written before version 4 said it in words
      // only (tests/data/sessions/turn.vedette.yaml), and a file keeps the
      // lowest version its history needs.
      differs("result", rec->result, again->result);
      differs("score", std::to_string(rec->score), std::to_string(again->score));
      differs("casualties", std::to_string(rec->casualties), std::to_string(again->casualties));
      differs("fell_back", rec->fell_back ? "yes" : "no", again->fell_back ? "yes" : "no");
      auto morale = [](const std::optional<Morale>& m) { return m ? std::string(morale_name(*m)) : std::string("(none)"); };
      differs("morale", morale(rec->morale), morale(again->morale));
      differs("counter", rec->counter, again->counter);
    }
    walk.append(e.body);
  }
}

}  // namespace vedette::solo
