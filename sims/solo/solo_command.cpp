// apply(): each solo command checked against the session and the ruleset,
// and its events appended (sims/solo/solo_command.hpp).
#include "sims/solo/solo_command.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "engine/core/diagnostics.hpp"
#include "engine/procedures/table_rules.hpp"

namespace vedette::solo {

namespace {

[[noreturn]] void refuse(const std::string& why) { throw CommandError(why); }

// ------------------------------------------------- the checks before the rules

void check_activate(const Session& s, const Activate& o) {
  const std::size_t k = find_unit_or_throw(s, o.unit);
  const std::string& name = s.header().units[k].name;
  const UnitMemory& m = s.memory(k);
  const int turn = s.state().turn;
  if (m.acted_in_turn == turn)
    refuse(name + " has already acted in turn " + std::to_string(turn) + " (#" + std::to_string(m.last_activation) +
           "); undo that activation first, or start the next turn with `vedette solo next-turn " +
           (o.game.empty() ? s.path().string() : o.game) + "`");
  if (s.figures_left(k) <= 0) refuse(name + " has no figures left");
  if (o.casualties < 0 || o.casualties > s.figures_left(k))
    refuse("--casualties " + std::to_string(o.casualties) + ": " + name + " has " + std::to_string(s.figures_left(k)) +
           " figures left");
}

void check_charge(const Session& s, const Charge& o) {
  const std::size_t k = find_unit_or_throw(s, o.unit);
  const std::string& name = s.header().units[k].name;
  if (s.charge_pending(k)) {
    if (!charge_to_make(s, k))
      refuse(name + " was struck by a charge this turn: it may not move, so it makes no charge (seed 003 L54)");
    return;
  }
  const UnitMemory& m = s.memory(k);
  if (m.acted_in_turn != s.state().turn)
    refuse(name + " has not acted in turn " + std::to_string(s.state().turn) +
           "; a charge follows an activation whose behaviour says \"(Charge?)\"");
  if (m.charge_for == m.last_activation)
    refuse(possessive(name) + " \"(Charge?)\" this turn has already been answered (undo it to change it)");
  const Activation& last = std::get<ActivateEvent>(s.event(m.last_activation).body).a;
  if (!last.charge_refused.empty())
    refuse(name + " may not charge this turn: " + last.charge_refused + " (#" + std::to_string(m.last_activation) +
           "'s table cell says \"(Charge?)\", but the rule forbids it)");
  refuse(possessive(name) + " behaviour this turn (#" + std::to_string(m.last_activation) +
         ") does not allow a charge: only cells marked \"(Charge?)\" do");
}

void check_undo_redo(const Session& s, int count, bool undo) {
  const std::size_t available = undo ? s.undo_depth() : s.redo_depth();
  if (count < 0 || static_cast<std::size_t>(count) > available)
    refuse(std::string(undo ? "undo " : "redo ") + std::to_string(count) + ": only " + std::to_string(available) +
           " step(s) can be " + (undo ? "undone" : "redone") + "; nothing was done");
}

int casualties_added(const Session& s, const Casualties& o) {
  const std::size_t k = find_unit_or_throw(s, o.unit);
  const UnitSpec& u = s.header().units[k];
  const int now = s.memory(k).casualties;
  const int added = o.total ? o.count - now : o.count;
  if (now + added > u.figures)
    refuse(u.name + " has " + std::to_string(u.figures - now) + " of its " + std::to_string(u.figures) + " figures left (" +
           std::to_string(now) + " lost so far): " + std::to_string(added) + " more would make " + std::to_string(now + added) +
           " casualties, more than it has" + (o.total ? "" : " (--total N gives the whole count lost instead)"));
  return added;
}

Morale morale_of(const Session& s, const SetMorale& o) {
  (void)find_unit_or_throw(s, o.unit);
  auto it = std::find(k_morale_names.begin(), k_morale_names.end(), o.morale);
  if (it == k_morale_names.end()) refuse("morale: expected steady, shaken, rallying or routed, got '" + o.morale + "'");
  if (!printable_utf8(o.reason)) refuse("--reason must be printable text");
  return static_cast<Morale>(it - k_morale_names.begin());
}

// -------------------------------------------------------------- the commands

void run(Session& s, const Ruleset& r, const Activate& o, Applied& out) {
  const std::size_t k = find_unit_or_throw(s, o.unit);
  const std::string name = s.header().units[k].name;
  const int turn = s.state().turn;
  Die die;
  auto rolled = s.die_for(k, turn);
  if (o.roll) {
    if (rolled) {
      const int before = std::get<ActivateEvent>(s.event(*rolled).body).a.roll;
      if (before != *o.roll)
        refuse("vedette already rolled " + std::to_string(before) + " for " + name + " in turn " + std::to_string(turn) +
               " (#" + std::to_string(*rolled) + "); after an undo the same die is used: leave out --roll");
      die = session_die(s, k);
    } else {
      die.roll = *o.roll;
      die.dice = DiceSource::player;
    }
  } else {
    if (s.header().physical_dice && !rolled) refuse("this session uses physical dice: roll a D6 and give it with --roll N");
    die = session_die(s, k);
  }
  Answers answers;
  if (o.from_answers) {
    answers = s.memory(k).pending;
  } else {
    answers[Question::in_cover] = o.cover;
    answers[Question::enemy_in_range] = o.enemy_in_range;
    answers[Question::enemy_flank_rear] = o.enemy_flank_rear;
    // Retreating as a result of melee: the flag, or what the session knows
    // (a fall back in its own melee, or retreating and not rallied since:
    // derived_answers, as play asks it); otherwise no.
    if (o.retreated) answers[Question::retreated_from_melee] = 1;
    else if (const auto& known = s.memory(k).pending[Question::retreated_from_melee])
      answers[Question::retreated_from_melee] = *known;
  }
  Activation a = decide_activation(r, s, k, answers, o.from_answers ? 0 : o.casualties, die);
  if (o.from_answers)
    for (std::size_t q = 0; q < k_question_count; ++q)
      if (answers.v[q]) a.asked.push_back(static_cast<Question>(q));
  out.unit = k;
  out.events.push_back(s.append(ActivateEvent{name, a}).n);
}

// The charge's answers in words, parsed and checked as `solo charge` takes them.
ChargeInputs charge_inputs(const Session& s, const Ruleset& r, std::size_t k, const Charge& o) {
  const UnitSpec& spec = s.header().units[k];
  if (o.distance.empty()) refuse("--distance is needed: how far the target's nearest figure is (e.g. 45cm)");
  if (o.defender.empty())
    refuse("--defender is needed: peasants, light-foot, heavy-foot, elite-foot, light-horse, medium-horse or heavy-horse");
  std::string why;
  ChargeInputs in;
  const std::string weight = o.attacker.empty() ? spec.weight : o.attacker;
  if (weight.empty())
    refuse("--attacker is needed: is " + spec.name + " light, medium or heavy cavalry? (or record it with weight= in --unit)");
  auto w = parse_attacker(weight, why);
  if (!w) refuse("--attacker: " + why);
  in.attacker = *w;
  if (o.move.empty()) {
    in.move = default_charge_move(r, s, k);
  } else {
    auto mv = parse_table_length(r, o.move, true, why);
    if (!mv) refuse("--move: " + why);
    in.move = *mv;
  }
  auto ds = parse_table_length(r, o.distance, false, why);
  if (!ds) refuse("--distance: " + why);
  in.distance = *ds;
  if (!parse_bearing(std::to_string(o.bearing), why)) refuse("--bearing: " + why);
  in.bearing = o.bearing;
  auto df = parse_defender(r, o.defender, why);
  if (!df) refuse("--defender: " + why);
  in.defender = *df;
  in.side = o.flank ? ChargedOn::flank : o.rear ? ChargedOn::rear : ChargedOn::front;
  in.both_charging = o.both_charging;
  in.pikes_facing = o.pikes_facing;
  auto pa = parse_path(o.path, why);
  if (!pa) refuse("--path: " + why);
  in.path = *pa;
  if (o.pikes_facing && (r.charge.kind(in.defender) != DefenderKind::foot || in.side != ChargedOn::front))
    refuse("--pikes-facing: only foot facing the charge (not charged in the flank or rear) carry pikes against it");
  in.fear_exempt = o.fear_exempt;
  in.refuge = o.refuge;
  in.square = o.square;
  if (!o.target.empty() && !printable_utf8(o.target)) refuse("--target: a unit's name is printable text");
  in.target_unit = o.target;
  if (in.target_unit.empty())  // the target `solo play` asked with the declaration (seed 003 L24)
    if (auto t = s.memory(k).charge_draft.find("target"); t != s.memory(k).charge_draft.end()) in.target_unit = t->second;
  if (!o.switched_from.empty()) {
    // Seed 003 L56: NAME=DISTANCE or DISTANCE, the declared target's.
    const auto eq = o.switched_from.rfind('=');
    const std::string from = eq == std::string::npos ? std::string() : o.switched_from.substr(0, eq);
    const std::string dist = eq == std::string::npos ? o.switched_from : o.switched_from.substr(eq + 1);
    auto l = parse_table_length(r, dist, false, why);
    if (!l) refuse("--switched-from: " + why + " (give NAME=DISTANCE or DISTANCE: where the declared target is now)");
    if (!printable_utf8(from)) refuse("--switched-from: a unit's name is printable text");
    in.switched = true;
    in.switched_from = from;
    in.switched_from_distance = *l;
  } else if (const auto& d = s.memory(k).charge_draft; d.count(std::string(k_switched_from_distance))) {
    // The switch `solo play` or the page answered (Session::apply kept the
    // declared target's name and distance).
    auto l = parse_table_length(r, d.at(std::string(k_switched_from_distance)), false, why);
    if (!l) refuse("the saved switch of target cannot be read (" + why + ")");
    in.switched = true;
    in.switched_from = d.count(std::string(k_switched_from)) ? d.at(std::string(k_switched_from)) : std::string();
    in.switched_from_distance = *l;
  }
  // The optional rules' answers only where the ruleset has the rule and
  // the target is foot answering the charge (not charging too).
  const bool foot_answers = r.charge.kind(in.defender) == DefenderKind::foot && !in.both_charging;
  if ((o.fear_exempt || o.refuge || !o.gut.empty()) && !(r.charge.fear_of_charge.enabled && foot_answers))
    refuse(std::string("--fear-exempt, --refuge and --gut-roll answer seed 001's Fear of Charge: ") +
           (r.charge.fear_of_charge.enabled ? "only foot not charging too takes the gut check"
                                            : "this ruleset does not turn it on (charge.fear_of_charge.enabled)"));
  if (o.square && !(r.charge.infantry_square.enabled && foot_answers))
    refuse(std::string("--square answers seed 004's Infantry Square: ") +
           (r.charge.infantry_square.enabled ? "only foot not charging too forms square"
                                             : "this ruleset does not turn it on (charge.infantry_square.enabled)"));
  return in;
}

// The charge's dice: the player's, each in the charge procedure's order and
// needed only when it reads it, or the session's roll (reused after an undo).
ChargeDice charge_dice(const Session& s, const Ruleset& r, std::size_t k, const Charge& o, const ChargeInputs& in,
                       const ChargePreview& pv) {
  const std::string& name = s.header().units[k].name;
  auto earlier = s.charge_dice_for(k, s.state().turn);
  if (!o.initiation.empty() && o.initiation.size() != 2) refuse("--initiation: give two dice, e.g. --initiation 4 5");
  if (!o.defender_roll.empty() && o.defender_roll.size() != 2) refuse("--roll: give two dice, e.g. --roll 3 5");
  for (int d : o.initiation)
    if (d < 1 || d > 6) refuse("--initiation: dice are 1 to 6, got " + std::to_string(d));
  const bool given = !o.initiation.empty() || !o.defender_roll.empty() || !o.gut.empty();
  if (given && !earlier) {
    if (o.initiation.empty())
      refuse("--initiation A B is needed with your own dice: " + name +
             " first makes its charge initiation check (seed 003), 2D6 needing " +
             std::to_string(initiation_check(r, true, 0, 0).need) + "+");
    return player_charge_dice(r, in, pv, [&](ChargeRoll slot, int n) -> std::vector<int> {
      switch (slot) {
        case ChargeRoll::initiation: return o.initiation;
        case ChargeRoll::obstacle_check:
          if (o.obstacle.size() != 2)
            refuse("--obstacle-roll A B is needed: an obstacle on the way calls for a second initiation check (seed 003)");
          return o.obstacle;
        case ChargeRoll::gut_check:
          // Seed 001: the player's infantry's gut check, before the morale check.
          if (static_cast<int>(o.gut.size()) != n)
            refuse("--gut-roll is needed with " + std::to_string(n) + (n == 1 ? " die" : " dice") +
                   ": your infantry takes the gut check against charging horse (seed 001's Fear of Charge)");
          return o.gut;
        case ChargeRoll::defender_morale:
          if (o.defender_roll.empty())
            refuse("--roll A B is needed: the initiation check passed and the defender checks morale on 2D6");
          return o.defender_roll;
        case ChargeRoll::charger_morale:
          if (o.charger.size() != 2)
            refuse("--charger-roll A B is needed: both charging, " + name + " checks its own morale on 2D6 too (seed 003)");
          return o.charger;
        case ChargeRoll::counter_initiation:
        case ChargeRoll::pike_loss: break;
      }
      return {};
    });
  }
  if (given)
    refuse("vedette already rolled the dice for " + possessive(name) + " charge this turn (#" + std::to_string(*earlier) +
           "); after an undo the same dice are used: leave out --initiation and --roll");
  if (!earlier && s.header().physical_dice)
    refuse("this session uses physical dice: roll 2D6 for the initiation check and give them with "
           "--initiation A B (and the defender's 2D6 with --roll A B)");
  return session_charge_dice(s, k);
}

void run(Session& s, const Ruleset& r, const Charge& o, Applied& out) {
  const std::size_t k = find_unit_or_throw(s, o.unit);
  const std::string name = s.header().units[k].name;
  ChargeRecord c;
  if (o.decline || o.not_visible) {
    if (!o.distance.empty() || !o.defender.empty() || !o.defender_roll.empty() || !o.switched_from.empty())
      refuse(std::string(o.decline ? "--decline" : "--not-visible") + ": the unit does not charge; leave out the charge's other flags");
    if (!o.target.empty() && !printable_utf8(o.target)) refuse("--target: a unit's name is printable text");
    c.activation = s.memory(k).last_activation;
    c.declined = true;
    c.target_unit = o.target;
    // Seed 003 L34: "the declared target unit must be visible to the front
    // rank of the charging unit" (the engine's charge_gate asks the same).
    if (o.not_visible)
      if (const auto no = target_refusal(r, s, k, false)) c.refused_rule = std::string(no->rule);
  } else {
    const ChargeInputs in = o.inputs ? *o.inputs : charge_inputs(s, r, k, o);
    const ChargePreview pv = preview_charge(r, in);
    const ChargeDice dice = charge_dice(s, r, k, o, in, pv);
    out.charge_inputs = in;
    out.preview = pv;
    c = resolve_charge(r, s, k, in, dice);
  }
  out.unit = k;
  out.events.push_back(s.append(ChargeEvent{name, c}).n);
}

void run(Session& s, const Ruleset& r, const Initiative& o, Applied& out) {
  const int dice = r.combat.initiative.dice;
  // Seed 003: declarations come before the initiative (each is -2).
  for (std::size_t k = 0; k < s.header().units.size(); ++k)
    if (s.charge_pending(k) && !s.memory(k).charge_draft.count("charge"))
      refuse(possessive(s.header().units[k].name) + " \"(Charge?)\" is not answered yet: declarations come before the "
             "initiative (seed 003); answer it with `vedette solo charge` (or --decline) first");
  StepDice d;
  if (!o.roll.empty()) {
    if (static_cast<int>(o.roll.size()) != dice)
      refuse("--roll: the initiative is " + std::to_string(dice) + " D6 (combat.initiative.dice); give " + std::to_string(dice) +
             (dice == 1 ? " die" : " dice"));
    if (s.step_dice_for(TurnStep::initiative, Session::k_no_step_unit, s.state().turn))
      refuse("the cavalry's initiative dice were already rolled this turn; they are used again (leave out --roll)");
    d = player_dice(o.roll);
  } else {
    d = session_step_dice(s, TurnStep::initiative, Session::k_no_step_unit, dice);
  }
  if (o.total.has_value() == o.your_roll.has_value())
    refuse("give --total (your side's initiative) or --your-roll N [--your-charges K], not both");
  // Your side rolls the same dice (combat.initiative.dice D6): a roll or a
  // total above their most cannot be (`solo play` asks within the same).
  if (o.your_roll && (*o.your_roll < dice || *o.your_roll > 6 * dice))
    refuse("--your-roll " + std::to_string(*o.your_roll) + ": your side's initiative is " + std::to_string(dice) + " D6 (combat.initiative.dice), from " +
           std::to_string(dice) + " to " + std::to_string(6 * dice));
  if (o.total && *o.total > 6 * dice)
    refuse("--total " + std::to_string(*o.total) + ": your side's initiative is " + std::to_string(dice) +
           " D6 (combat.initiative.dice) with " + std::to_string(r.charge.declare_initiative_modifier) +
           " for each charge it declared, so at most " + std::to_string(6 * dice));
  // Seed 003's -2 per declared charge, for the player's side too (initiative_total).
  const int total = o.total ? *o.total : initiative_total(r, *o.your_roll, o.your_charges);
  out.events.push_back(s.append(InitiativeEvent{resolve_initiative(r, s, total, d)}).n);
}

void run(Session& s, const Ruleset& r, const Shoot& o, Applied& out) {
  const std::size_t k = find_unit_or_throw(s, o.unit);
  const std::string& name = s.header().units[k].name;
  const ShootingChance c = shooting_chance(r, s, k);
  if (!c.weapon) refuse(name + " does not shoot this turn: " + c.why_not);
  if (o.no_target == (o.at.has_value() || !o.distance.empty())) refuse("give --distance L (to the nearest enemy it can see) or --no-target");
  Length distance;
  StepDice d;
  if (!o.no_target) {
    std::string why;
    auto l = o.at ? o.at : parse_table_length(r, o.distance, false, why);
    if (!l) refuse("--distance: " + why);
    distance = *l;
    const auto plan = solo_shot(r, s, k, distance, o.cover);
    if (!plan)
      refuse("--distance " + (o.at ? format_length(*o.at, r.units) : o.distance) + ": beyond " + possessive(name) + " reach of " + format_length_table(c.reach, r.units) +
             " (then use --no-target)");
    if (o.hits && (*o.hits < 0 || *o.hits > plan->dice))
      refuse("--hits: " + std::to_string(*o.hits) + " of " + std::to_string(plan->dice) + " dice");
    if (o.hits && s.step_dice_for(TurnStep::shooting, k, s.state().turn))
      refuse(possessive(name) + " shooting dice were already rolled this turn; they are used again (leave out --hits)");
    if (!o.hits && plan->need <= 6) d = session_step_dice(s, TurnStep::shooting, k, plan->dice);
  }
  if (o.hits) d.source = DiceSource::player;
  out.unit = k;
  out.events.push_back(s.append(ShootingEvent{name, resolve_shooting(r, s, k, !o.no_target, distance, o.cover, d, o.hits, o.mounted)}).n);
}

void run(Session& s, const Ruleset& r, const Melee& o, Applied& out) {
  const std::size_t k = find_unit_or_throw(s, o.unit);
  const std::string& name = s.header().units[k].name;
  if (!s.memory(k).contact) refuse(name + " is in no melee this turn (melee follows its charge that stood)");
  const bool square = s.memory(k).square;
  const auto& sq = r.charge.infantry_square;
  if (square && o.square_dice.empty())
    refuse("--square-dice is needed: your square rolls first (seed 004), at most " + std::to_string(sq.max_battle_dice) +
           (sq.max_battle_dice == 1 ? " die" : " dice") + "; give the face(s) it showed");
  if (!square && !o.square_dice.empty()) refuse("--square-dice: " + name + " is not fighting a square this turn");
  // The square's faces and your hits as the engine reads them, then the
  // melee procedure says whether the cavalry rolls, and how many dice.
  SquareFaces faces;
  MeleeProcedure::Need need;
  try {
    if (square) faces = read_square_faces(r, o.square_dice);
  } catch (const std::out_of_range& e) {
    refuse(std::string("--square-dice: ") + e.what());
  }
  try {
    need = solo_melee(r, s, k, o.their_hits, faces).next();
  } catch (const std::out_of_range& e) {
    refuse(std::string("--their-hits: ") + e.what());
  }
  const int dice = need.kind == MeleeProcedure::Need::Kind::roll ? need.dice : 0;
  if (o.hits && dice > 0 && (*o.hits < 0 || *o.hits > dice))
    refuse("--hits: " + std::to_string(*o.hits) + " of " + std::to_string(dice) + " dice");
  if (o.hits && s.step_dice_for(TurnStep::melee, k, s.state().turn))
    refuse(possessive(name) + " melee dice were already rolled this turn; they are used again (leave out --hits)");
  StepDice d;
  if (!o.hits && dice > 0) d = session_step_dice(s, TurnStep::melee, k, dice);
  out.unit = k;
  out.events.push_back(s.append(MeleeEvent{name, square ? resolve_square_melee(r, s, k, faces, o.their_hits, d, o.hits)
                                                        : resolve_melee(r, s, k, o.their_hits, d, o.hits)}).n);
}

void run(Session& s, const Ruleset& r, const Rally& o, Applied& out) {
  const std::size_t k = find_unit_or_throw(s, o.unit);
  const std::string& name = s.header().units[k].name;
  const RallyNeed need = rally_need(r, s, k);
  if (need == RallyNeed::none)
    refuse(name + " has nothing to rally from (it is " + std::string(morale_name(s.memory(k).morale)) + ")");
  StepDice d;
  if (need == RallyNeed::rally && !o.enemy_near) {
    if (!o.roll.empty()) {
      if (s.step_dice_for(TurnStep::rally, k, s.state().turn))
        refuse(possessive(name) + " rally dice were already rolled this turn; they are used again (leave out --roll)");
      if (o.roll.size() != 2) refuse("--roll: the rally is 2D6; give 2 dice");
      d = player_dice(o.roll);
    } else {
      d = session_step_dice(s, TurnStep::rally, k, 2);
    }
  }
  out.unit = k;
  out.events.push_back(s.append(RallyEvent{name, resolve_rally(r, s, k, o.enemy_near, d)}).n);
}

void run(Session& s, const Ruleset&, const Answer& o, Applied& out) {
  const std::size_t k = find_unit_or_throw(s, o.unit);
  out.unit = k;
  out.events.push_back(s.append(AnswerEvent{s.header().units[k].name, o.question, o.value}).n);
}

void run(Session& s, const Ruleset&, const ChargeAnswer& o, Applied& out) {
  const std::size_t k = find_unit_or_throw(s, o.unit);
  out.unit = k;
  out.events.push_back(s.append(ChargeAnswerEvent{s.header().units[k].name, o.field, o.value}).n);
}

void run(Session& s, const Ruleset&, const Casualties& o, Applied& out) {
  const int added = casualties_added(s, o);
  const std::size_t k = find_unit_or_throw(s, o.unit);
  out.unit = k;
  out.added = added;
  out.events.push_back(s.append(CasualtiesEvent{s.header().units[k].name, added}).n);
}

void run(Session& s, const Ruleset&, const SetMorale& o, Applied& out) {
  const Morale m = morale_of(s, o);
  const std::size_t k = find_unit_or_throw(s, o.unit);
  out.unit = k;
  out.events.push_back(s.append(MoraleEvent{s.header().units[k].name, m, o.reason}).n);
}

void run(Session& s, const Ruleset&, const NextTurn&, Applied& out) {
  out.ended_turn = s.state().turn;
  for (std::size_t k = 0; k < s.header().units.size(); ++k) {
    if (s.memory(k).acted_in_turn != out.ended_turn && s.figures_left(k) > 0) out.did_not_act.push_back(s.header().units[k].name);
    if (charge_to_make(s, k)) out.charge_not_answered.push_back(s.header().units[k].name);
  }
  out.events.push_back(s.append(NextTurnEvent{}).n);
}

void run(Session& s, const Ruleset&, const EndMove&, Applied& out) {
  const State& st = s.state();
  if (st.initiative_turn != st.turn)
    refuse("your move comes after the initiative: roll turn " + std::to_string(st.turn) + "'s first (`solo initiative`)");
  if (st.your_move_turn == st.turn) refuse("your move in turn " + std::to_string(st.turn) + " is already over");
  out.events.push_back(s.append(YourMoveEvent{}).n);
}

void undo_redo(Session& s, int count, bool undo, Applied& out) {
  check_undo_redo(s, count, undo);
  for (int k = 0; k < count; ++k) {
    const int t = undo ? s.undo_target() : s.redo_target();
    out.targets.push_back(t);
    if (undo) out.events.push_back(s.append(UndoEvent{t}).n);
    else out.events.push_back(s.append(RedoEvent{t}).n);
  }
}
void run(Session& s, const Ruleset&, const Undo& o, Applied& out) { undo_redo(s, o.count, true, out); }
void run(Session& s, const Ruleset&, const Redo& o, Applied& out) { undo_redo(s, o.count, false, out); }

void run(Session& s, const Ruleset&, const Reseed& o, Applied& out) {
  if (s.next_roll() > 0)
    refuse("--seed: this session's rolls already come from seed " + std::to_string(s.header().seed) + " (" +
           std::to_string(s.next_roll()) + " rolled so far); a new seed now would let a player fish for better rolls");
  const std::uint64_t old = s.header().seed;
  s.header().seed = o.seed;
  try {
    out.events.push_back(s.append(SeedEvent{old, o.seed}).n);
  } catch (...) {
    s.header().seed = old;
    throw;
  }
}

// ------------------------------------------ the player's moves (issue 28)

// The player's unit from its words: its class on seed 003's table, its weight.
PlayerUnit player_unit(const Ruleset& r, const std::string& name, const std::string& cls, const std::string& weight) {
  PlayerUnit u;
  u.name = name.empty() ? "your unit" : name;
  if (!printable_utf8(u.name)) refuse("your unit's name must be printable text");
  std::string why;
  auto d = parse_defender(r, cls, why);
  if (!d) refuse("--as: " + why);
  u.defender = *d;
  if (!weight.empty()) {
    auto w = parse_attacker(weight, why);
    if (!w) refuse("--weight: " + why);
    u.weight = *w;
  } else if (u.on_horse()) {
    // Its class says its weight: light, medium or heavy horse.
    u.weight = static_cast<AttackerWeight>(static_cast<std::size_t>(u.defender) - static_cast<std::size_t>(DefenderClass::light_horse));
  }
  return u;
}

std::optional<AttackerWeight> their_weight(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::string why;
  auto w = parse_attacker(text, why);
  if (!w) refuse("--their-weight: " + why);
  return w;
}

// The reaction's dice: the player's (read two by two in the order the
// charge asks for them), or the session's roll (reused after an undo).
StepDice reaction_dice_for(const Session& s, TurnStep step, std::size_t k, const std::vector<int>& roll, std::size_t most,
                           bool player) {
  if (roll.empty() && !player) return reaction_dice(s, step, k);
  if ((!player && roll.size() < 2) || roll.size() > most || roll.size() % 2 != 0)
    refuse("--roll: give your dice two by two, 2 to " + std::to_string(most) + " of them (each check is 2D6)");
  for (int d : roll)
    if (d < 1 || d > 6) refuse("--roll: dice are 1 to 6, got " + std::to_string(d));
  if (s.step_dice_for(step, k, s.state().turn))
    refuse("dice were already rolled for this reaction this turn; they are used again (leave out --roll)");
  return player_dice(roll);
}

struct NearParsed {
  std::size_t unit = 0;
  MoverFacts f;
};

NearParsed near_facts(const Session& s, const Ruleset& r, const NearCavalry& n) {
  NearParsed p;
  p.unit = find_unit_or_throw(s, n.unit);
  const std::string what = "--near " + n.unit + ": ";
  std::string why;
  auto d = parse_table_length(r, n.distance, false, why);
  if (!d) refuse(what + "the distance: " + why);
  p.f.distance = *d;
  auto side = parse_side(n.side, why);
  if (!side) refuse(what + why);
  p.f.side = *side;
  auto path = parse_path(n.path, why);
  if (!path) refuse(what + why);
  p.f.path = *path;
  p.f.in_arc = n.in_arc;
  p.f.in_sight = n.in_sight;
  p.f.charging_it = n.charging;
  return p;
}

void run(Session& s, const Ruleset& r, const Moved& o, Applied& out) {
  std::string why;
  const auto kind = parse_move_kind(o.kind, why);
  if (!kind) refuse("--kind: " + why);
  const PlayerUnit pu = player_unit(r, o.mover, o.as, o.weight);
  std::vector<NearParsed> near;
  for (const NearCavalry& n : o.near) {
    near.push_back(near_facts(s, r, n));
    for (std::size_t k = 0; k + 1 < near.size(); ++k)
      if (near[k].unit == near.back().unit) refuse("--near: " + s.header().units[near.back().unit].name + " is named twice");
    near.back().f.unit = pu;
    near.back().f.kind = *kind;
  }
  out.mover = pu.name;
  int reacting = 0;
  for (const ReactorStatus& st : reactor_status(r, s)) {
    const std::string& name = s.header().units[st.unit].name;
    const NearParsed* n = nullptr;
    for (const NearParsed& x : near)
      if (x.unit == st.unit) n = &x;
    Applied::Reaction a;
    a.unit = st.unit;
    a.near = n != nullptr;
    if (!n || !st.line.empty()) {
      // Not near, or it cannot react whatever the distance: one line, nothing asked.
      a.outcome = st.line.empty() ? name + " does not react: your unit did not end near it." : st.line;
      out.reactions.push_back(a);
      continue;
    }
    if ((o.player_dice || !o.roll.empty()) && ++reacting > 1) refuse("--roll: give your dice for one unit's reaction at a time");
    const StepDice d = reaction_dice_for(s, TurnStep::opportunity, st.unit, o.roll, k_reaction_dice, o.player_dice);
    StepRecord rec = resolve_opportunity(r, s, st.unit, n->f, d, their_weight(o.their_weight));
    a.reacts = !rec.result.empty();
    a.outcome = rec.outcome;
    if (a.reacts) {
      a.event = s.append(OpportunityEvent{name, rec}).n;
      out.events.push_back(a.event);
    }
    out.reactions.push_back(a);
  }
}

void run(Session& s, const Ruleset& r, const Charged& o, Applied& out) {
  const std::size_t k = find_unit_or_throw(s, o.unit);
  if (o.as.empty()) refuse("--as is needed: your unit's class on seed 003's table (light_horse, medium_horse, heavy_horse, heavy_foot, ...)");
  if (o.distance.empty()) refuse("--distance is needed: between the two when your charge began, e.g. 30cm");
  PlayerCharge c;
  c.unit = player_unit(r, o.mover, o.as, o.weight);
  std::string why;
  auto d = parse_table_length(r, o.distance, false, why);
  if (!d) refuse("--distance: " + why);
  c.distance = *d;
  auto side = parse_side(o.side, why);
  if (!side) refuse("--side: " + why);
  c.side = *side;
  c.bonus = o.bonus;
  c.in_arc = o.in_arc;
  c.in_sight = o.in_sight;
  const StepDice dice = reaction_dice_for(s, TurnStep::charged, k, o.roll, 6, o.player_dice);
  StepRecord rec = resolve_charged(r, s, k, c, dice, their_weight(o.their_weight));
  out.unit = k;
  out.mover = c.unit.name;
  out.events.push_back(s.append(ChargedEvent{s.header().units[k].name, rec}).n);
}

}  // namespace

std::optional<NearCavalry> parse_near_words(const Session& s, const std::string& text, std::string& why) {
  const std::string form =
      "expected UNIT=DISTANCE[,front|flank|rear][,no-arc][,unseen][,charging], e.g. \"Cuirassiers=20cm,flank\"";
  auto words_of = [](const std::string& t) {
    std::vector<std::string> w;
    std::string cur;
    for (char ch : t) {
      if (ch == ',' || ch == ' ' || ch == '\t') {
        if (!cur.empty()) w.push_back(cur);
        cur.clear();
      } else {
        cur += ch;
      }
    }
    if (!cur.empty()) w.push_back(cur);
    return w;
  };
  NearCavalry n;
  std::vector<std::string> rest;
  const auto eq = text.find('=');
  if (eq != std::string::npos) {
    std::string name = text.substr(0, eq);
    while (!name.empty() && name.back() == ' ') name.pop_back();
    while (!name.empty() && name.front() == ' ') name.erase(0, 1);
    auto k = s.find_unit(name);
    if (!k) return why = "'" + text + "': no unit named '" + name + "'", std::nullopt;
    n.unit = s.header().units[*k].name;
    rest = words_of(text.substr(eq + 1));
  } else {
    // The longest run of words that names a unit.
    const std::vector<std::string> w = words_of(text);
    std::size_t used = 0;
    std::string name;
    for (std::size_t m = w.size(); m >= 1 && used == 0; --m) {
      std::string cand;
      for (std::size_t j = 0; j < m; ++j) cand += (j ? " " : "") + w[j];
      if (auto k = s.find_unit(cand)) {
        used = m;
        n.unit = s.header().units[*k].name;
      }
    }
    if (used == 0) {
      // The cavalry's names, and the one nearest the first word (a typo at
      // the table: "Dragons 25cm" for the Dragoons).
      std::vector<std::string> names;
      std::string list;
      for (const UnitSpec& u : s.header().units) {
        names.push_back(u.name);
        list += (list.empty() ? "" : ", ") + u.name;
      }
      const std::string guess = w.empty() ? std::string() : nearest(w[0], names);
      return why = "'" + text + "': it does not start with one of the cavalry's units (" +
                   (guess.empty() ? "" : "did you mean '" + guess + "'? ") + "they are: " + list + ")",
             std::nullopt;
    }
    rest.assign(w.begin() + static_cast<std::ptrdiff_t>(used), w.end());
  }
  if (rest.empty()) return why = "'" + text + "': the distance is missing; " + form, std::nullopt;
  n.distance = rest[0];
  for (std::size_t k = 1; k < rest.size(); ++k) {
    std::string p = rest[k];
    for (char& ch : p) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (p == "front" || p == "flank" || p == "rear") n.side = p;
    else if (p == "no-arc") n.in_arc = false;
    else if (p == "unseen") n.in_sight = false;
    else if (p == "charging") n.charging = true;
    else if (p == "obstacle" || p == "uphill" || p == "into-terrain" || p == "into_terrain") n.path = p;
    else return why = "'" + text + "': unknown '" + rest[k] + "'; " + form, std::nullopt;
  }
  return n;
}

std::size_t find_unit_or_throw(const Session& s, const std::string& name) {
  if (auto k = s.find_unit(name)) return *k;
  std::vector<std::string> names;
  std::string list;
  for (const auto& u : s.header().units) {
    names.push_back(u.name);
    list += (list.empty() ? "" : ", ") + u.name;
  }
  refuse("no unit named '" + name + "' in " + s.path().string() + did_you_mean(name, names) + " (units: " + list + ")");
}

void check_unit_types(const Session& s, const Ruleset& r, const std::string& ruleset_path) {
  for (const auto& u : s.header().units) {
    if (r.find_unit_type(u.type)) continue;
    std::string list;
    for (const auto& t : r.unit_types) list += (list.empty() ? "" : ", ") + t.id;
    refuse("unit " + u.name + " has type '" + u.type + "', which the ruleset " + ruleset_path +
           " does not define (it has: " + list + ")");
  }
}

SessionRules rules_for_change(Session& s, bool accept, int* recorded) {
  SessionRules sr = load_session_rules(s);
  if (sr.changed) {
    if (!accept)
      refuse("the ruleset " + sr.path + " has changed since this session last used it (" + s.header().ruleset_hash + ", now " +
             sr.hash +
             "). Nothing was done. Run the command again with --accept-ruleset-change to go on with the "
             "new rules (recorded in the history), or `vedette solo play` to be asked.");
    const std::string old = s.header().ruleset_hash;
    s.header().ruleset_hash = sr.hash;
    const Event& e = s.append(RulesetEvent{old, sr.hash});
    if (recorded) *recorded = e.n;
    sr.changed = false;
  }
  check_unit_types(s, *sr.rules, sr.path);
  return sr;
}

void check(const Session& s, const Command& c) {
  std::visit(
      [&](const auto& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, Activate>) check_activate(s, o);
        else if constexpr (std::is_same_v<T, Charge>) check_charge(s, o);
        else if constexpr (std::is_same_v<T, Undo>) check_undo_redo(s, o.count, true);
        else if constexpr (std::is_same_v<T, Redo>) check_undo_redo(s, o.count, false);
        else if constexpr (std::is_same_v<T, Casualties>) (void)casualties_added(s, o);
        else if constexpr (std::is_same_v<T, SetMorale>) (void)morale_of(s, o);
        else if constexpr (std::is_same_v<T, Shoot> || std::is_same_v<T, Melee> || std::is_same_v<T, Rally> ||
                           std::is_same_v<T, Answer> || std::is_same_v<T, ChargeAnswer> || std::is_same_v<T, Charged>)
          (void)find_unit_or_throw(s, o.unit);
        else if constexpr (std::is_same_v<T, Moved>)
          for (const NearCavalry& n : o.near) (void)find_unit_or_throw(s, n.unit);
      },
      c);
}

Applied apply(Session& s, const Ruleset& r, const Command& c) {
  check(s, c);
  Applied out;
  std::visit([&](const auto& o) { run(s, r, o, out); }, c);
  return out;
}

}  // namespace vedette::solo
