// The automated cavalry's reactions in the player's movement step (issue 28):
// the facts from the session and the player, the engine's rules
// (engine/procedures/reaction_rules.hpp) and its charge procedure, the words.
#include "sims/solo/solo_react.hpp"

#include <algorithm>

#include "sims/solo/session_text.hpp"

namespace vedette::solo {

namespace {

const ActivateEvent* activation_now(const Session& s, std::size_t unit) {
  const UnitMemory& m = s.memory(unit);
  if (m.acted_in_turn != s.state().turn || m.last_activation == 0) return nullptr;
  return std::get_if<ActivateEvent>(&s.event(m.last_activation).body);
}

ChargeThrow throw_of(const StepDice& d, int at) {
  ChargeThrow t;
  if (static_cast<int>(d.dice.size()) < at + 2) return t;
  t.faces = {d.dice[static_cast<std::size_t>(at)], d.dice[static_cast<std::size_t>(at) + 1], 0, 0};
  t.n = 2;
  return t;
}

// The 2D6 total the check `r` that `p` asks for needs: the procedure's own
// (a copy given any dice says an initiation check's need; a morale check's
// target is set before its dice).
int need_of(const ChargeProcedure& p, ChargeRoll r) {
  switch (r) {
    case ChargeRoll::defender_morale: return p.result().defender_target.target;
    case ChargeRoll::charger_morale: return p.result().charger_target.target;
    case ChargeRoll::initiation:
    case ChargeRoll::obstacle_check:
    case ChargeRoll::counter_initiation: {
      ChargeProcedure q = p;
      const int ones[2] = {1, 1};
      q.roll(r, ones, 2);
      const ChargeResult& x = q.result();
      return r == ChargeRoll::initiation ? x.initiation.need : r == ChargeRoll::obstacle_check ? x.obstacle_check.need : x.counter_initiation.need;
    }
    default: return 0;
  }
}

// Drives the procedure with the table's answers and the dice: rolled dice
// by slot (two by two: the first check, the defender's, the charger's, an
// obstacle's), the player's in the order the procedure asks for them.
// Returns the dice used, in that order (the player's) or all (rolled).
std::vector<int> drive(ChargeProcedure& p, const ChargeAnswers& a, const StepDice& d, ChargeRoll first) {
  std::array<ChargeThrow, 7> given{};
  auto at = [](ChargeRoll r) { return static_cast<std::size_t>(r); };
  std::vector<int> used;
  std::size_t next = 0;
  for (;;) {
    const ChargeProcedure::Need n = drive_charge(p, a, given);
    if (n.kind != ChargeProcedure::Need::Kind::roll) break;
    if (n.dice != 2) throw SessionError("the " + std::string(k_charge_roll_words[at(n.roll)]) + " is not a 2D6 roll", "dice");
    ChargeThrow t;
    if (d.source == DiceSource::player) {
      if (next + 2 > d.dice.size())
        throw DiceNeeded("the " + std::string(k_charge_roll_words[at(n.roll)]) + " needs 2 more dice", n.roll, need_of(p, n.roll));
      t = throw_of(d, static_cast<int>(next));
      next += 2;
      used.push_back(t.faces[0]);
      used.push_back(t.faces[1]);
    } else {
      const int off = n.roll == first ? 0
                      : n.roll == ChargeRoll::defender_morale ? 2
                      : n.roll == ChargeRoll::charger_morale  ? 4
                                                              : 6;
      t = throw_of(d, off);
      if (t.n == 0) throw SessionError("the " + std::string(k_charge_roll_words[at(n.roll)]) + " needs 2 dice", "dice");
    }
    given[at(n.roll)] = t;
  }
  if (d.source != DiceSource::player) used = d.dice;
  return used;
}

std::string faces(const ChargeThrow& t) { return dice_text({t.faces[0], t.faces[1]}); }

std::string row_text(const Ruleset& r, DefenderClass c) { return r.charge.row(c).text; }

std::string weight_text(AttackerWeight w) { return std::string(k_attacker_weight_names[static_cast<std::size_t>(w)]); }

std::string side_text(ChargedOn on) { return std::string(k_side_names[static_cast<std::size_t>(on)]); }

// The morale check in words: "Heavy Foot charged by heavy horse in the
// flank: 9, flank -1: needs 10 on 2D6 [4 5] = 9: fails".
std::string morale_words(const Ruleset& r, const std::string& who, const MoraleSituation& s, const MoraleTarget& t,
                         const ChargeThrow& d, bool fails) {
  std::string x = who + " checks morale (seed 003 L7): " + row_text(r, s.defender) + " charged by " + weight_text(s.attacker) +
                  " horse";
  if (t.automatic) return x + ": " + pikes_words(r) + " facing the enemy stand automatically (seed 003 L18).";
  x += " in the " + side_text(s.side) + ": " + std::to_string(t.table);
  if (t.flank_rear) x += ", " + side_text(s.side) + " " + std::to_string(t.flank_rear) + " (seed 003 L20)";
  if (t.both_charging) x += ", both charging +" + std::to_string(t.both_charging);
  x += ": needs " + std::to_string(t.target) + " on 2D6 " + faces(d) + " = " + std::to_string(d.total()) + ": " +
       (fails ? "fails." : "stands.");
  return x;
}

std::string need_words(const InitiationCheck& c, bool declared) {
  return "needs " + std::to_string(c.need) + (declared ? "" : " (no charge declared in step 1: -2, seed 003 L100)");
}

// The record's dice: the player's that the procedure used, or all the
// rolled ones (their roll's stream).
void record_dice(StepRecord& rec, const StepDice& d, const std::vector<int>& used) {
  if (used.empty()) return;
  rec.dice = used;
  rec.dice_source = d.source;
  rec.roll_index = d.roll_index;
  rec.same_dice_as = d.same_dice_as;
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

// The player's unit at the start of a sentence: "Foot", "Your unit".
std::string cap(std::string name) {
  if (!name.empty() && name[0] >= 'a' && name[0] <= 'z') name[0] = static_cast<char>(name[0] - 'a' + 'A');
  return name;
}
std::string possessive_of(const std::string& name) { return name == "your unit" ? "your unit's" : possessive(name); }

}  // namespace

ReactorFacts reactor_facts(const Ruleset& r, const Session& s, std::size_t unit) {
  (void)r;
  const UnitMemory& m = s.memory(unit);
  const State& st = s.state();
  ReactorFacts f;
  f.active = s.figures_left(unit) > 0 && m.morale != Morale::routed;
  f.engaged = m.contact;
  f.turn = st.turn;
  f.good_order = m.morale == Morale::steady;
  f.charged_last_turn = m.charged_last_turn;
  // A declared charge whose initiation check failed bars it too (L48).
  bool failed_own = false;
  if (m.charge_event)
    if (const auto* ce = std::get_if<ChargeEvent>(&s.event(m.charge_event).body)) failed_own = !ce->c.initiation_passed;
  f.barred_this_turn = m.barred_in_turn == st.turn || failed_own;
  // Seed 003 L92 "has not yet moved": the cavalry moved first this turn and
  // did not halt (the engine's choice: a unit that halted may still react),
  // or it charged or reacted already.
  const bool cavalry_moved = st.initiative_turn == st.turn && st.first_this_turn == 0;
  f.moved_this_turn = m.reacted_in_turn == st.turn || m.charged_this_turn ||
                      (cavalry_moved && m.acted_in_turn == st.turn && m.pace != Pace::halt);
  // Seed 003 L54: struck by your charge this turn (it stood, or fell back),
  // it may not move, so it makes no opportunity charge or counter-charge.
  f.struck = m.struck_in_turn == st.turn;
  f.cavalry = true;
  f.on_horse = !m.on_foot;
  return f;
}

bool reactor_wants(const Session& s, std::size_t unit) {
  const ActivateEvent* a = activation_now(s, unit);
  TablePolicyFacts p;
  p.on_horse = !s.memory(unit).on_foot;
  p.reacted = a != nullptr;
  // The cell's "(Charge?)", even where a rule refused the declaration (on
  // turn 1, seed 003 L24): the policy reads the behaviour, as the engine's
  // ReactionTableBot does.
  p.charge_possible = a && (a->a.charge_possible || !a->a.charge_refused.empty());
  return table_policy_opportunity(p);
}

bool reactor_declared(const Session& s, std::size_t unit) {
  const UnitMemory& m = s.memory(unit);
  if (m.acted_in_turn != s.state().turn) return false;
  if (s.charge_pending(unit)) {
    auto it = m.charge_draft.find("charge");
    return it != m.charge_draft.end() && it->second == "yes";
  }
  return m.charge_for == m.last_activation && m.charge_for != 0 && m.charge_event != 0;
}

std::optional<AttackerWeight> reactor_weight(const Session& s, std::size_t unit, std::optional<AttackerWeight> given) {
  if (given) return given;
  const std::string& w = s.header().units[unit].weight;
  for (std::size_t k = 0; k < k_attacker_weight_names.size(); ++k)
    if (w == k_attacker_weight_names[k]) return static_cast<AttackerWeight>(k);
  return std::nullopt;
}

std::vector<ReactorStatus> reactor_status(const Ruleset& r, const Session& s) {
  std::vector<ReactorStatus> out;
  for (std::size_t k = 0; k < s.header().units.size(); ++k) {
    ReactorStatus st;
    st.unit = k;
    const ReactorFacts f = reactor_facts(r, s, k);
    st.gate = reaction_gate_alone(r, f);
    st.wants = reactor_wants(s, k);
    const std::string& name = s.header().units[k].name;
    if (!st.gate.allowed) st.line = name + " cannot react: " + std::string(st.gate.why) + ".";
    else if (!st.wants) st.line = name + " does not react: its table cell this turn does not say \"(Charge?)\".";
    out.push_back(st);
  }
  return out;
}

std::vector<std::size_t> reactors_now(const Ruleset& r, const Session& s) {
  std::vector<std::size_t> out;
  for (const ReactorStatus& st : reactor_status(r, s))
    if (st.gate.allowed && st.wants) out.push_back(st.unit);
  return out;
}

StepDice reaction_dice(const Session& s, TurnStep step, std::size_t unit) {
  return session_step_dice(s, step, unit, k_reaction_dice);
}

StepRecord resolve_opportunity(const Ruleset& r, const Session& s, std::size_t unit, const MoverFacts& mv,
                               const StepDice& dice, std::optional<AttackerWeight> weight, ChargeResult* out) {
  StepRecord rec;
  const std::string& name = s.header().units[unit].name;
  const LengthUnit u = r.units;
  rec.given["mover"] = mv.unit.name;
  rec.given["move"] = std::string(k_move_kind_names[static_cast<std::size_t>(mv.kind)]);
  rec.given["defender"] = std::string(k_defender_class_names[static_cast<std::size_t>(mv.unit.defender)]);
  rec.given["distance"] = format_length(mv.distance, u);
  rec.given["in_arc"] = yes_no(mv.in_arc);
  rec.given["in_sight"] = yes_no(mv.in_sight);
  rec.given["side"] = side_text(mv.side);
  rec.given["charging"] = yes_no(mv.charging_it);
  if (mv.charging_it) rec.given["attacker"] = weight_text(mv.unit.weight);
  if (mv.path != ChargePath::open) rec.given["path"] = std::string(k_charge_path_names[static_cast<std::size_t>(mv.path)]);
  // The gates, the policy, the reach (seed 003 L90-L96, L40).
  ReactorFacts f = reactor_facts(r, s, unit);
  f.mover_on_horse = mv.unit.on_horse();
  f.mover_visible = mv.in_sight;
  // Its charge allowance this turn (the pace it was ordered, at halt a walk:
  // default_charge_move, the engine's reaction_pace and reaction_allowance);
  // on foot none.
  const Length allowance = s.memory(unit).on_foot ? Length() : default_charge_move(r, s, unit);
  const ChargeGeometry g =
      with_path(r.charge, allowance, table_charge_geometry(r, allowance, mv.distance, mv.in_arc ? 0.0 : 90.0, mv.unit.defender), mv.path);
  const OpportunityCall call = opportunity_call(r, f, reactor_wants(s, unit), g.reaches);
  if (!call.charges) {
    rec.outcome = name + " does not react: " + std::string(call.why) + ".";
    if (call.gate.allowed && call.wanted && !g.reaches)
      rec.outcome = name + " does not react: your unit is not within its charge range of " + format_length_table(g.max_range, u) +
                    (mv.in_arc ? "" : " and arc") + " (seed 003 L40).";
    return rec;
  }
  const std::optional<AttackerWeight> w = reactor_weight(s, unit, weight);
  if (!w) throw WeightNeeded(unit, name);
  // The charge, through the procedure (L100: -2 when undeclared; L102: halfway).
  OpportunityChargeFacts of;
  of.declared = reactor_declared(s, unit);
  of.charger_on_horse = !s.memory(unit).on_foot;
  of.reach.reaches = true;
  of.reach.charge_bonus = g.charge_bonus;
  of.reach.morale_check = g.morale_check;
  of.reach.obstacle = mv.path == ChargePath::obstacle;
  ChargeTargetFacts& tf = of.reach.target;
  tf.target_cavalry = mv.unit.on_horse();
  tf.target_on_horse = mv.unit.on_horse();
  tf.defender.defender = mv.unit.defender;
  tf.defender.attacker = *w;
  tf.defender.side = mv.side;
  tf.charger.defender = horse_class(static_cast<Weight>(*w));
  tf.charger.attacker = mv.unit.weight;
  tf.charger.side = ChargedOn::front;
  tf.charger.both_charging = true;
  of.mover_charging_it = mv.charging_it;
  of.mover_morale_check = mv.charging_it;
  ChargeProcedure p = opportunity_procedure(r, of);
  const std::vector<int> used = drive(p, opportunity_answers(of), dice, ChargeRoll::initiation);
  const ChargeResult& res = p.result();
  if (out) *out = res;
  record_dice(rec, dice, used);
  rec.given["bonus"] = yes_no(g.charge_bonus);
  rec.need = res.initiation.need;
  rec.score = res.initiation.total;
  rec.result = std::string(k_charge_end_names[static_cast<std::size_t>(res.end)]);
  std::string t = name + " makes an opportunity charge on " + mv.unit.name + " (seed 003 L90). Initiation check: 2D6 " +
                  faces(res.dice(ChargeRoll::initiation)) + " = " + std::to_string(res.initiation.total) + ", " +
                  need_words(res.initiation, of.declared) + ": ";
  if (res.end == ChargeEnd::no_charge) {
    rec.outcome = t + "fails. " + name + " does not charge, and cannot charge again this turn (seed 003 L100). " + cap(mv.unit.name) + " moves on.";
    return rec;
  }
  t += "passes. ";
  if (res.counter) {
    t += cap(mv.unit.name) + " was charging it: the two meet halfway, each moving " + format_length_table(mv.distance * 0.5, u) +
         " (seed 003 L102). ";
  } else {
    t += name + " moves " + format_length_table(mv.distance, u) + " into contact with " + possessive_of(mv.unit.name) + " " + side_text(mv.side) +
         (g.charge_bonus ? "" : " (inside its minimum distance: no charge bonus, seed 003 L42)") + ". ";
  }
  if (res.defender_checks) {
    MoraleSituation ds = tf.defender;
    if (res.counter) {  // turned to face: charged in front, both charging
      ds.side = ChargedOn::front;
      ds.both_charging = true;
    }
    t += morale_words(r, cap(mv.unit.name), ds, res.defender_target, res.dice(ChargeRoll::defender_morale), res.defender_fails) + " ";
  }
  if (res.charger_checks)
    t += morale_words(r, name, tf.charger, res.charger_target, res.dice(ChargeRoll::charger_morale), res.charger_fails) + " ";
  if (res.defender_fails)
    t += cap(mv.unit.name) + " retreats " + format_number(r.charge.failure_retreat_moves) + " of its moves" +
         (r.charge.failure_backs_to_enemy ? ", backs to the enemy" : "") + (r.charge.failure_must_rally ? ", and must rally" : "") +
         " (seed 003 L7). ";
  if (res.charger_fails) {
    const Length back = morale_retreat(r.charge, normal_move(r, true, Length()));
    t += name + " retreats " + format_length_table(back, u) + (r.charge.failure_backs_to_enemy ? ", backs to the enemy" : "") + ". ";
    rec.morale = r.charge.failure_must_rally ? Morale::rallying : Morale::shaken;
    rec.fell_back = true;
  }
  // Seed 003 L3: victory before melee, as for every charge (the engine's
  // opportunity charge is its charge(): Engagement::opportunity_charges).
  const ChargedAftermath after = charged_aftermath(r, res, Length(), Length());
  if (after.failed && after.charger_follows_through)
    t += name + " won before melee: it follows through the balance of its charge move in the direction of its charge (seed 003 L3). ";
  if (after.follows_through)
    t += cap(mv.unit.name) + " was charging it and won before melee: it follows through the balance of its charge move (seed 003 L3). ";
  if (interrupted_stops(res))
    t += mv.kind == MoveKind::about_to_move
             ? cap(mv.unit.name) + " is caught before it moves: it stays where it is and cannot move this turn (seed 003 L98)."
             : cap(possessive_of(mv.unit.name)) + " move is interrupted: it cannot move farther this turn (seed 003 L98).";
  if (res.end == ChargeEnd::melee) t += " Melee follows in the melee step.";
  while (!t.empty() && t.back() == ' ') t.pop_back();
  rec.outcome = t;
  return rec;
}

StepRecord resolve_charged(const Ruleset& r, const Session& s, std::size_t unit, const PlayerCharge& c, const StepDice& dice,
                           std::optional<AttackerWeight> weight, ChargeResult* out) {
  StepRecord rec;
  const std::string& name = s.header().units[unit].name;
  const LengthUnit u = r.units;
  rec.given["mover"] = c.unit.name;
  rec.given["attacker"] = weight_text(c.unit.weight);
  rec.given["defender"] = std::string(k_defender_class_names[static_cast<std::size_t>(c.unit.defender)]);
  rec.given["distance"] = format_length(c.distance, u);
  rec.given["in_arc"] = yes_no(c.in_arc);
  rec.given["in_sight"] = yes_no(c.in_sight);
  rec.given["side"] = side_text(c.side);
  rec.given["bonus"] = yes_no(c.bonus);
  const std::optional<AttackerWeight> w = reactor_weight(s, unit, weight);
  if (!w) throw WeightNeeded(unit, name);
  const UnitMemory& mem = s.memory(unit);
  const bool on_horse = !mem.on_foot;
  // Its counter-charge (L100-L102): the gates with the charger as the mover,
  // the table's policy, the charger within its own reach.
  ReactorFacts f = reactor_facts(r, s, unit);
  f.mover_on_horse = c.unit.on_horse();
  f.mover_visible = c.in_sight;
  const Length allowance = on_horse ? default_charge_move(r, s, unit) : Length();  // as the opportunity charge's
  const DefenderClass own_class = horse_class(static_cast<Weight>(*w));
  const ChargeGeometry own = table_charge_geometry(r, allowance, c.distance, c.in_arc ? 0.0 : 90.0, c.unit.defender);
  const ChargeCounter counter =
      counter_charge(r, f, reactor_wants(s, unit), own.reaches, reactor_declared(s, unit), own.morale_check);
  // The player's charge, its initiation check made at the table.
  ChargeFacts cf;
  cf.initiation_made = true;
  cf.charger_on_horse = c.unit.on_horse();
  ChargeAnswers a;
  a.reach.reaches = true;
  a.reach.charge_bonus = c.bonus;
  a.reach.morale_check = cf.charger_on_horse && (c.bonus || r.charge.check_inside_min_distance);
  a.reach.target.target_cavalry = true;
  a.reach.target.target_on_horse = on_horse;
  a.reach.target.defender.defender = own_class;
  a.reach.target.defender.attacker = c.unit.weight;
  a.reach.target.defender.side = c.side;
  a.reach.target.charger.defender = c.unit.defender;
  a.reach.target.charger.attacker = *w;
  a.reach.target.charger.side = ChargedOn::front;
  a.reach.target.charger.both_charging = true;
  a.counter = counter;
  a.contact = true;
  ChargeProcedure p(r, cf);
  std::vector<int> used = drive(p, a, dice, ChargeRoll::counter_initiation);
  const ChargeResult& res = p.result();
  if (out) *out = res;
  const bool any = res.was_thrown(ChargeRoll::counter_initiation) || res.was_thrown(ChargeRoll::defender_morale) ||
                   res.was_thrown(ChargeRoll::charger_morale);
  if (!any) used.clear();
  record_dice(rec, dice, used);
  rec.result = std::string(k_charge_end_names[static_cast<std::size_t>(res.end)]);
  rec.need = res.defender_checks ? res.defender_target.target : 0;
  rec.score = res.was_thrown(ChargeRoll::defender_morale) ? res.dice(ChargeRoll::defender_morale).total() : 0;
  const std::string you = cap(c.unit.name);
  std::string t = you + " charges " + name + " in the " + side_text(c.side) + ". ";
  if (counter.kind == CounterCharge::attempts) {
    rec.counter = res.counter ? "met" : "barred";
    t += name + " counter-charges: initiation check 2D6 " + faces(res.dice(ChargeRoll::counter_initiation)) + " = " +
         std::to_string(res.counter_initiation.total) + ", " + need_words(res.counter_initiation, counter.declared) + ": ";
    t += res.counter ? "passes: the two meet halfway, each moving " + format_length_table(c.distance * 0.5, u) +
                           " (seed 003 L102); " + name + " turns to face you. "
                     : "fails: it stands to receive your charge and cannot charge this turn (seed 003 L100). ";
  } else {
    const ReactionGate gate = reaction_gate(r, f);
    t += name + " does not counter-charge (" +
         (!gate.allowed ? std::string(gate.why)
          : !reactor_wants(s, unit) ? std::string("its table cell this turn does not say \"(Charge?)\"")
                                    : "your unit is not within its charge range of " + format_length_table(own.max_range, u)) +
         "). ";
  }
  if (res.defender_checks)
    t += morale_words(r, name, MoraleSituation{own_class, c.unit.weight, res.on, res.counter, false}, res.defender_target,
                      res.dice(ChargeRoll::defender_morale), res.defender_fails) +
         " ";
  if (res.charger_checks)
    t += morale_words(r, you, MoraleSituation{c.unit.defender, *w, ChargedOn::front, true, false}, res.charger_target,
                      res.dice(ChargeRoll::charger_morale), res.charger_fails) +
         " ";
  const ChargedAftermath after = charged_aftermath(r, res, normal_move(r, on_horse, Length()), Length());
  if (after.failed) {
    t += name + " retreats " + format_length_table(after.retreat, u) + (after.backs_to_enemy ? ", backs to the enemy" : "") +
         (after.must_rally ? ", and must rally" : ", shaken") + " (seed 003 L7). ";
    rec.morale = after.must_rally ? Morale::rallying : Morale::shaken;
    rec.fell_back = true;
  }
  if (after.charger_failed)
    t += you + " retreats " + format_number(r.charge.failure_retreat_moves) + " of its moves" +
         (after.backs_to_enemy ? ", backs to the enemy" : "") + " (seed 003 L7). ";
  if (after.failed && !after.charger_failed && after.charger_follows_through)
    t += you + " won before melee: it follows through the balance of its charge move (seed 003 L3). ";
  if (after.follows_through)
    t += name + " counter-charged and won before melee: it follows through the balance of its charge move in the "
                "direction of its charge (seed 003 L3). ";
  if (after.struck)
    t += name + " stands: melee follows in the melee step. Struck by a charge, " + name +
         " cannot move, turn or change frontage for the rest of the turn (seed 003 L54).";
  else if (after.held)
    t += after.failed ? "Struck by your charge, " + name +
                            " cannot move, turn or change frontage for the rest of the turn (seed 003 L54): after its retreat "
                            "it stays, and makes no move of its own this turn."
                      : name + " was struck by your charge: after this it cannot move, turn or change frontage for the rest "
                               "of the turn (seed 003 L54).";
  while (!t.empty() && t.back() == ' ') t.pop_back();
  rec.outcome = t;
  return rec;
}

std::string struck_note(const Session& s, std::size_t unit) {
  if (s.memory(unit).struck_in_turn != s.state().turn) return "";
  return s.header().units[unit].name + " was struck by a charge this turn: it cannot move, turn or change frontage (seed 003 L54).";
}

std::optional<MoveKind> parse_move_kind(const std::string& text, std::string& why) {
  std::string t = text;
  std::replace(t.begin(), t.end(), '-', '_');
  for (std::size_t k = 0; k < k_move_kind_names.size(); ++k)
    if (t == k_move_kind_names[k]) return static_cast<MoveKind>(k);
  why = "expected about-to-move, moved or faced, got '" + text + "'";
  return std::nullopt;
}

DiceNeededWords dice_needed_words(const DiceNeeded& need, bool moved, const std::string& cavalry, const std::string& mover) {
  const std::string yours = mover.empty() ? std::string("your unit's") : possessive(mover);
  const std::string theirs = possessive(cavalry);
  std::string check, passes;
  switch (need.roll) {
    case ChargeRoll::initiation: check = theirs + " initiation check", passes = "to charge"; break;
    case ChargeRoll::counter_initiation: check = theirs + " counter-charge initiation check", passes = "to counter-charge"; break;
    case ChargeRoll::obstacle_check: check = theirs + " second initiation check at the obstacle", passes = "to go on"; break;
    case ChargeRoll::defender_morale: check = (moved ? yours : theirs) + " morale check", passes = "to stand"; break;
    case ChargeRoll::charger_morale: check = (moved ? theirs : yours) + " own morale check", passes = "to hold"; break;
    default: check = "the " + std::string(k_charge_roll_words[static_cast<std::size_t>(need.roll)]);
  }
  DiceNeededWords w{check, "Roll 2D6 for " + check};
  if (need.need > 0) w.text += "; it needs " + std::to_string(need.need) + "+" + (passes.empty() ? "" : " " + passes);
  return w;
}

}  // namespace vedette::solo
