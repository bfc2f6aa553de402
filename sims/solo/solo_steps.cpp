// Solo play's later steps of the turn: initiative, shooting, melee, morale
// and rally, each through the engine's own rule (engine/procedures/table_rules.hpp).
#include "sims/solo/solo_turn.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <regex>
#include <sstream>
#include <system_error>

#include "engine/core/builtin_tables.hpp"
#include "engine/core/content_hash.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "engine/procedures/combat.hpp"
#include "engine/procedures/turn_procedures.hpp"
#include "sims/io/atomic_file.hpp"
#include "sims/solo/solo_module.hpp"
#include "sims/solo/session_text.hpp"

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

std::string plural(int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

// The D6 faces where a hit on a mounted figure falls on the horse (true) or
// the rider: "1-4", "5-6" (supplement.hits_on_mounted, seed 002 L35).
std::string hit_faces_text(const Ruleset& r, bool horse) {
  std::string t;
  for (int f = 1; f <= 6; ++f) {
    if (r.supplement.hit_on_horse[static_cast<std::size_t>(f - 1)] != horse) continue;
    int g = f;
    while (g < 6 && r.supplement.hit_on_horse[static_cast<std::size_t>(g)] == horse) ++g;
    t += (t.empty() ? "" : ", ") + std::to_string(f) + (g > f ? "-" + std::to_string(g) : "");
    f = g;
  }
  return t;
}

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
  // The cavalry is side 0, your side 1 (engine/procedures/turn_procedures.hpp).
  const int declared = charges_declared(s);
  InitiativeProcedure p(r, {{declared, 0}, s.state().first_last_turn});
  p.roll(0, cavalry.dice.data(), static_cast<int>(cavalry.dice.size()));  // seed 003: -2 per declared charge
  p.total(1, player_total);
  const InitiativeResult& ini = p.result();
  rec.score = ini.total[0];
  const int first = ini.first;
  rec.result = first == 0 ? "cavalry" : "player";
  std::string t = "the cavalry rolls " + dice_text(cavalry.dice);
  if (declared)
    t += " " + std::string(r.charge.declare_initiative_modifier >= 0 ? "+" : "") +
         std::to_string(r.charge.declare_initiative_modifier * declared) + " (" + plural(declared, "charge", "charges") +
         " declared)";
  t += " = " + std::to_string(rec.score) + ", your side " + std::to_string(player_total) + ": ";
  t += first == 0 ? "the cavalry moves first" : "you move first";
  if (ini.tie)
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
  c.weapon = r.find_weapon(spec.weapon);
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
  // Step 6 (morale and rally) comes after step 4: a unit that has had its
  // rally this turn was past the shooting when it rallied (it had to rally
  // then), so rallying does not give it a shot (next_step asks the rally
  // only once no unit's shooting is left).
  if (m.rally_in_turn == s.state().turn) {
    c.why_not = spec.name + " rallied in this turn's morale step, after the shooting";
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
      c.why_not = spec.name + " is mounted: " + (t ? t->name : std::string("mounted infantry")) + " may not shoot mounted (seed 002)";
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

std::string shot_target_question() { return "Is that enemy mounted (horse figures)?"; }

std::string shot_target_help() {
  return "Mounted: cavalry, or mounted infantry still on its horses. A hit on a mounted figure falls on the horse or the rider "
         "(seed 002); on foot (infantry, artillery, dismounted) a hit is a figure.";
}

std::string mounted_hits_text(const Ruleset& r) {
  return "for each, roll a D6: the horse on " + hit_faces_text(r, true) + ", the rider on " + hit_faces_text(r, false);
}

std::string casualty_advice(const Ruleset& r, int hits, const std::string& whom, std::optional<bool> mounted) {
  std::string t = "Remove " + plural(hits, "figure", "figures") + " from " + whom;
  // Seed 002 L35 is about mounted figures only; on foot a hit is a figure.
  if (!mounted) return t + " (if it is mounted: " + mounted_hits_text(r) + "; seed 002).";
  if (*mounted) return t + " (mounted: " + mounted_hits_text(r) + "; seed 002).";
  return t + ".";
}

StepRecord resolve_shooting(const Ruleset& r, const Session& s, std::size_t unit, bool target, Length distance,
                            bool cover, const StepDice& dice, std::optional<int> player_hits, std::optional<bool> mounted) {
  StepRecord rec;
  const std::string& name = s.header().units[unit].name;
  const ShootingChance c = shooting_chance(r, s, unit);
  // "yes" when its kind was not said (before issue 30, the web page,
  // `solo shoot` without --target-is): the advice then says both.
  rec.given["target"] = !target ? "no" : !mounted ? "yes" : *mounted ? "mounted" : "foot";
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
  if (rec.score > 0) t += " " + casualty_advice(r, rec.score, "that unit", mounted);
  rec.outcome = t;
  return rec;
}

namespace {
// The automated unit as the melee procedure sees it.
MeleeSideFacts cavalry_side(const Ruleset& r, const Session& s, std::size_t unit) {
  const UnitMemory& m = s.memory(unit);
  return {s.figures_left(unit), r.find_unit_type(s.header().units[unit].type), !m.on_foot, m.charge_bonus};
}
// Charged by your unit this turn and standing (`solo charged`, seed 003
// L54), it defends: your unit is the attacker, as in the engine's melee
// (engine/engagement/engagement_fighting.cpp): a tie repulses your unit,
// and it has no follow-through of its own. Otherwise it is the charger.
// (Known again when the session is read back: not recorded.)
bool cavalry_defends(const Session& s, std::size_t unit) { return s.memory(unit).struck_in_turn == s.state().turn; }
MeleeRoll cavalry_slot(const Session& s, std::size_t unit) {
  return !s.memory(unit).square && cavalry_defends(s, unit) ? MeleeRoll::defender : MeleeRoll::attacker;
}

// The automated unit's melee hits: the player's count, or its dice, given
// to the procedure.
void cavalry_hits(StepRecord& rec, MeleeProcedure& p, MeleeRoll slot, const StepDice& dice, std::optional<int> own_hits) {
  if (own_hits) {
    rec.dice_source = DiceSource::player;
    p.hits(slot, *own_hits);
  } else {
    take_dice(rec, dice);
    p.roll(slot, dice.dice.data(), static_cast<int>(dice.dice.size()));
  }
  rec.score = slot == MeleeRoll::attacker ? p.result().attacker_hits : p.result().defender_hits;
}
}  // namespace

namespace {
// Whether the player's unit in this turn's melee is mounted: the class the
// player gave for it (the cavalry's charge, an opportunity charge, or your
// charge on it), by its row's kind on seed 003's table; nullopt if none.
std::optional<bool> foe_mounted(const Ruleset& r, const Session& s, std::size_t unit) {
  const std::string& name = s.header().units[unit].name;
  auto kind = [&](const std::string& cls) -> std::optional<bool> {
    for (std::size_t c = 0; c < k_defender_class_names.size(); ++c)
      if (k_defender_class_names[c] == cls) return r.charge.kind(static_cast<DefenderClass>(c)) == DefenderKind::horse;
    return std::nullopt;
  };
  for (auto e = s.history().rbegin(); e != s.history().rend() && e->turn == s.state().turn; ++e) {
    if (!s.in_effect(e->n) || !e->unit() || *e->unit() != name) continue;
    if (const auto* c = std::get_if<ChargeEvent>(&e->body))
      if (!c->c.declined) return kind(c->c.defender);
    const StepRecord* rec = nullptr;
    if (const auto* o = std::get_if<OpportunityEvent>(&e->body)) rec = &o->s;
    if (const auto* c = std::get_if<ChargedEvent>(&e->body)) rec = &c->s;
    if (rec && rec->given.count("defender")) return kind(rec->given.at("defender"));
  }
  return std::nullopt;
}
}  // namespace

MeleeSide solo_melee_side(const Ruleset& r, const Session& s, std::size_t unit) {
  const MeleeDice d =
      melee_dice(r, s.memory(unit).square ? MeleeForm::square : MeleeForm::exchange, cavalry_side(r, s, unit), false);
  return {d.dice, d.modifier, d.need};
}

MeleeProcedure solo_melee(const Ruleset& r, const Session& s, std::size_t unit, int player_hits, const SquareFaces& square) {
  const UnitMemory& mem = s.memory(unit);
  MeleeFacts f;
  const Length move = normal_move(r, true, Length());
  if (mem.square) {  // seed 004: your square rolls first
    f.form = MeleeForm::square;
    f.attacker = cavalry_side(r, s, unit);
    f.defender.on_horse = false;
    f.attacker_move = move;
    MeleeProcedure p(r, f);
    p.square_faces(square, player_hits);
    if (!p.done()) p.answer_fights(s.figures_left(unit) - std::min(player_hits, s.figures_left(unit)));
    return p;
  }
  f.charge = true;
  if (cavalry_defends(s, unit)) {
    f.defender = cavalry_side(r, s, unit);
    f.defender_move = move;
  } else {
    f.attacker = cavalry_side(r, s, unit);
    f.attacker_move = move;
    // The balance of its charge move, for a follow-through (seed 003).
    if (mem.charge_event)
      if (const auto* ce = std::get_if<ChargeEvent>(&s.event(mem.charge_event).body)) {
        auto range = parse_length(ce->c.max_range), dist = parse_length(ce->c.distance);
        if (range && dist) f.balance = follow_through_balance(r, *range, *dist);
      }
  }
  MeleeProcedure p(r, f);
  p.hits(cavalry_slot(s, unit) == MeleeRoll::attacker ? MeleeRoll::defender : MeleeRoll::attacker, player_hits);
  return p;
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
  MeleeProcedure p = solo_melee(r, s, unit, player_hits);
  cavalry_hits(rec, p, cavalry_slot(s, unit), dice, own_hits);
  rec.casualties = std::min(player_hits, s.figures_left(unit));
  const bool defends = cavalry_defends(s, unit);
  const MeleeAftermath& after = p.result().after;
  std::string t = name + " fights with " + plural(side.dice, "die", "dice") + " needing " + std::to_string(side.need) + "+";
  if (side.modifier)
    t += " on each die (the usual " + std::to_string(r.combat.melee.hit) + "+, " + (side.modifier > 0 ? "+" : "") +
         std::to_string(side.modifier) + " to each die)";
  if (!own_hits) t += " " + dice_text(dice.dice);
  t += ": " + plural(rec.score, "hit", "hits") + " on your unit; yours scored " + std::to_string(player_hits) + ". ";
  if (rec.score > 0) t += casualty_advice(r, rec.score, "your unit", foe_mounted(r, s, unit)) + " ";
  const std::string moves = times_text(r.combat.melee.loser_retreat_moves);
  const bool destroyed = rec.casualties >= s.figures_left(unit);
  const MeleeWinner cavalry_won = defends ? MeleeWinner::defender : MeleeWinner::attacker;
  if (destroyed) {
    rec.result = after.winner == MeleeWinner::tie ? "tie" : after.winner == cavalry_won ? "won" : "lost";
    rec.outcome = t + name + " loses its last figure in the melee: it is destroyed.";
    return rec;
  }
  if (defends) {
    if (after.winner == MeleeWinner::defender) {
      rec.result = "won";
      t += name + " wins: your unit falls back " + moves + " of its moves, backs to the enemy, and must rally.";
      // Seed 003 L3: "Victorious charging units must continue to move out
      // the balance of their charge move", the counter-charger too.
      if (mem.reacted_in_turn == s.state().turn && r.combat.melee.follow_through)
        t += " " + name + " counter-charged: it follows through the balance of its charge move in the direction of its charge "
                          "(seed 003 L3).";
    } else if (after.winner == MeleeWinner::attacker) {
      rec.result = "lost";
      rec.fell_back = true;
      rec.morale = Morale::rallying;
      t += name + " loses: it falls back " + format_length_table(after.defender_back, u) + " (" + moves +
           " moves), backs to your unit, and must rally. Your unit follows through the balance of its charge move.";
    } else {
      rec.result = "tie";
      t += "A tie: your unit, the charger, is repulsed and falls back " + format_length_table(after.attacker_back, u) + ", facing " +
           name + "; " + name + " holds its ground.";
    }
    rec.outcome = t;
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

StepRecord resolve_square_melee(const Ruleset& r, const Session& s, std::size_t unit, const SquareFaces& square, int square_hits,
                                const StepDice& dice, std::optional<int> own_hits) {
  const bool bounce = square.bounce;
  StepRecord rec;
  const std::string& name = s.header().units[unit].name;
  const LengthUnit u = r.units;
  rec.given["bounce"] = bounce ? "yes" : "no";
  rec.given["player_hits"] = std::to_string(square_hits);
  rec.need = solo_melee_side(r, s, unit).need;
  rec.casualties = std::min(square_hits, s.figures_left(unit));
  rec.fell_back = true;
  // The square first, then the cavalry if it is still in the fight.
  MeleeProcedure p = solo_melee(r, s, unit, square_hits, square);
  const MeleeResult& m = p.result();
  std::string t = "Your square rolls first: " + std::string(bounce ? "the bounce" : "no bounce") + ", " +
                  plural(square_hits, "hit", "hits") + " on " + name + ". ";
  if (rec.casualties >= s.figures_left(unit)) {
    rec.result = bounce ? "bounced" : "repulsed";
    rec.fell_back = false;
    rec.outcome = t + name + " loses its last figure against the square: it is destroyed.";
    return rec;
  }
  if (m.end == MeleeEnd::bounced) {
    rec.result = "bounced";
    rec.outcome = t + name + " is bounced off the square before it can strike: it falls back " +
                  format_length_table(m.square.attacker_back, u) + " (" + times_text(r.charge.infantry_square.bounce_back_moves) +
                  " of its moves).";
    return rec;
  }
  cavalry_hits(rec, p, MeleeRoll::attacker, dice, own_hits);
  rec.need = m.attacker.need;
  rec.result = "repulsed";
  t += name + " strikes with " + plural(m.attacker.dice, "die", "dice") + " needing " + std::to_string(m.attacker.need) + "+" +
       (own_hits ? std::string() : " " + dice_text(dice.dice)) + ": " + plural(rec.score, "hit", "hits") + " on your square. ";
  if (rec.score > 0) t += "Remove " + plural(rec.score, "figure", "figures") + " from your square. ";
  t += name + " cannot break into the square: it falls back " + format_length_table(m.square.attacker_back, u) + ", facing it.";
  if (m.square.square_shaken) t += " Your square scored fewer hits: it is shaken.";
  rec.outcome = t;
  return rec;
}

namespace {
// The unit's end-of-turn morale step (engine/procedures/turn_procedures.hpp).
RallyProcedure solo_rally(const Ruleset& r, const Session& s, std::size_t unit) {
  const UnitMemory& m = s.memory(unit);
  return RallyProcedure(r, {m.casualties, s.header().units[unit].figures, m.morale == Morale::shaken || m.morale == Morale::rallying});
}
}  // namespace

RallyNeed rally_need(const Ruleset& r, const Session& s, std::size_t unit) {
  const UnitMemory& m = s.memory(unit);
  if (s.figures_left(unit) <= 0 || m.morale == Morale::routed) return RallyNeed::none;
  const RallyProcedure p = solo_rally(r, s, unit);
  return p.end() == RallyEnd::routs ? RallyNeed::routs : p.done() ? RallyNeed::none : RallyNeed::rally;
}

StepRecord resolve_rally(const Ruleset& r, const Session& s, std::size_t unit, bool enemy_near, const StepDice& dice) {
  StepRecord rec;
  const UnitSpec& spec = s.header().units[unit];
  const UnitMemory& m = s.memory(unit);
  rec.dice_source = dice.source;
  RallyProcedure p = solo_rally(r, s, unit);
  if (p.end() == RallyEnd::routs) {
    rec.result = "routed";
    rec.morale = Morale::routed;
    rec.outcome = spec.name + " ROUTS: it has lost " + std::to_string(m.casualties) + " of " + std::to_string(spec.figures) +
                  " figures (a unit routs at " + std::to_string(r.combat.morale.rout_losses_pct) +
                  "%). It flees toward its own table edge at its fastest pace from now on and leaves the table on reaching it.";
    return rec;
  }
  rec.given["enemy_near"] = enemy_near ? "yes" : "no";
  p.answer_enemy_near(enemy_near);
  if (p.end() == RallyEnd::enemy_near) {
    rec.result = "no_rally";
    rec.outcome = spec.name + " cannot rally: an enemy is within " +
                  format_length_table(r.combat.morale.rally_enemy_clear, r.units) + "; it stays " +
                  std::string(morale_name(m.morale)) + ".";
    return rec;
  }
  take_dice(rec, dice);
  p.roll(dice.dice.data(), static_cast<int>(dice.dice.size()));
  const RallyCheck& c = p.check();
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

namespace {
// The shooting arc in words a player can check with the figures (issue 30):
// `brief` for the question, else the rule as `?` gives it.
std::string shooting_arc_text(const Ruleset& r, const ShootingChance& c, bool brief) {
  std::ostringstream deg;
  if (c.moving && c.on_horse) {
    // Seed 002 L27: "Moving Cavalry may only shoot to the figures front and
    // left 45° arc" (supplement.mounted_shooting.moving_arc).
    deg << r.supplement.moving_shoot_arc_degrees;
    const bool wide = r.supplement.moving_shoot_arc_wide;
    const bool square = r.supplement.moving_shoot_arc_degrees == 45;
    if (brief)
      return wide ? "ahead of it or to its left (not to the right of straight ahead)"
                  : square ? "to its left front (not to the right of straight ahead, and no further out to the left than it is in front)"
                           : "to its left front, within " + deg.str() + " degrees left of straight ahead";
    const std::string base = "Moving cavalry shoots only to its front and left (seed 002). Take the line straight ahead from the middle "
                             "of its front edge: the enemy must not be to the right of that line";
    if (wide)
      return base + ", nor behind its front edge (" + deg.str() + " degrees either side of the left front diagonal).";
    return base + ", must be in front of the front edge" +
           (square ? ", and no further out to the left of the line than it is in front of the front edge (45 degrees)."
                   : ", and within " + deg.str() + " degrees left of the line.");
  }
  deg << r.combat.shooting.arc_half_degrees;
  const bool square = r.combat.shooting.arc_half_degrees == 45.0;
  if (brief)
    return square ? "in front of it (no further out to the side of its front edge than it is in front of it)"
                  : "within " + deg.str() + " degrees either side of its facing";
  return "In its arc: " + (square ? std::string("in front of its front edge, and no further out to the side of that edge than it is in front of it "
                                               "(45 degrees either side of its facing).")
                                  : "within " + deg.str() + " degrees either side of its facing.");
}
}  // namespace

std::string shooting_question(const Ruleset& r, const Session& s, std::size_t unit) {
  const ShootingChance c = shooting_chance(r, s, unit);
  const std::string& name = s.header().units[unit].name;
  // Seed 002: uncommanded units shoot only at the nearest enemy they can
  // see, the engine's shooting step's target.
  return "Is the nearest enemy " + name + " can see within " + format_length_table(c.reach, r.units) + " of its front, " +
         shooting_arc_text(r, c, true) + "?";
}

std::string shooting_help(const Ruleset& r, const Session& s, std::size_t unit) {
  const ShootingChance c = shooting_chance(r, s, unit);
  return "It shoots only at the nearest enemy it can see (as uncommanded units do), if that enemy is within its weapon's reach "
         "and in its arc. " + shooting_arc_text(r, c, false) +
         " Clear sight: a straight line crossing no woods, buildings, hill crest or other unit.";
}

std::string melee_intro(const Ruleset& r, const Session& s, std::size_t unit) {
  const std::string& name = s.header().units[unit].name;
  const MeleeSide side = solo_melee_side(r, s, unit);
  if (s.memory(unit).square)
    return "Melee: " + name + " against your square. Your square rolls first, at most " +
           plural(r.charge.infantry_square.max_battle_dice, "die", "dice") + ": " + faces_text(r.charge.infantry_square.bounce_on) +
           " bounces " + name + " back before it strikes; then " + name + " strikes with " + plural(side.dice, "die", "dice") +
           " needing " + std::to_string(side.need) + "+.";
  const bool defends = s.memory(unit).struck_in_turn == s.state().turn;  // your unit charged it (seed 003 L54)
  std::string t = "Melee: " + name + (defends ? " is in contact with your unit that charged it" : " is in contact with the unit it charged") +
                  ". It fights with " + plural(side.dice, "die", "dice") +
                  " needing " + std::to_string(side.need) + "+";
  if (side.modifier)
    t += " on each die (the usual " + std::to_string(r.combat.melee.hit) + "+, " + (side.modifier > 0 ? "+" : "") +
         std::to_string(side.modifier) + " to each die)";
  return t + ". Roll your unit's melee dice as your rules say.";
}

std::string rally_question(const Ruleset& r, const Session& s, std::size_t unit) {
  return "Morale: " + s.header().units[unit].name + " is " + std::string(morale_name(s.memory(unit).morale)) +
         ". Is any enemy within " + format_length_table(r.combat.morale.rally_enemy_clear, r.units) + " of it?";
}

bool declaration_open(const std::map<std::string, std::string>& draft) {
  const auto c = draft.find("charge");
  if (c == draft.end()) return true;
  // Version 6: the declaration names its target (seed 003 L24) and says it
  // is visible to the front rank (L34), in step 1 with the yes; after a
  // switch of target (L56) the new target's name is asked again.
  return c->second == "yes" && (!draft.count("target") || !draft.count("visible"));
}

ChargeInputs draft_charge_inputs(const Ruleset& r, const Session& s, std::size_t k, const std::map<std::string, std::string>& d) {
  const UnitSpec& spec = s.header().units[k];
  auto get = [&](const char* key) -> std::string {
    auto it = d.find(key);
    return it == d.end() ? std::string() : it->second;
  };
  std::string why;
  ChargeInputs in;
  auto bad = [&](const char* key) {
    throw SessionError("the saved charge answer '" + std::string(key) + "' cannot be read (" + why + ")", key);
  };
  auto w = parse_attacker(spec.weight.empty() ? get("attacker") : spec.weight, why);
  if (!w) bad("attacker");
  in.attacker = *w;
  const std::string move = get("move");
  if (move.empty()) {
    in.move = default_charge_move(r, s, k);
  } else {
    auto mv = parse_table_length(r, move, true, why);
    if (!mv) bad("move");
    in.move = *mv;
  }
  auto ds = parse_table_length(r, get("distance"), false, why);
  if (!ds) bad("distance");
  in.distance = *ds;
  // No bearing answer: the player said the target is at least partly in
  // the arc (seed 003 L40), which table_charge_geometry reads as 0.
  const std::string bearing = get("bearing");
  auto br = bearing.empty() ? std::optional<double>(0.0) : parse_bearing(bearing, why);
  if (!br) bad("bearing");
  in.bearing = *br;
  auto df = parse_defender(r, get("defender"), why);
  if (!df) bad("defender");
  in.defender = *df;
  auto sd = parse_side(get("side"), why);
  if (!sd) bad("side");
  in.side = *sd;
  in.both_charging = get("both_charging") == "yes";
  in.pikes_facing = get("pikes_facing") == "yes";
  // A draft saved by an earlier vedette has no path answer: open ground.
  const std::string path = get("path");
  auto pa = path.empty() ? std::optional<ChargePath>(ChargePath::open) : parse_path(path, why);
  if (!pa) bad("path");
  in.path = *pa;
  in.fear_exempt = get("fear_exempt") == "yes";
  in.refuge = get("refuge") == "yes";
  in.square = get("square") == "yes";
  // Version 6: the declaration's named target (seed 003 L24) and a switch
  // of target (L56: Session::apply kept the declared one's name and distance).
  in.target_unit = get("target");
  if (d.count(std::string(k_switched_from_distance))) {
    in.switched = true;
    in.switched_from = get(k_switched_from.data());
    auto from = parse_table_length(r, get(k_switched_from_distance.data()), false, why);
    if (!from) bad("switch");
    in.switched_from_distance = *from;
  }
  return in;
}

std::string next_charge_field(const Ruleset& r, const Session& s, std::size_t k, const std::map<std::string, std::string>& d) {
  const UnitSpec& spec = s.header().units[k];
  for (std::string_view f : k_charge_fields) {
    std::string key(f);
    if (d.count(key)) continue;
    if (key == "attacker" && !spec.weight.empty()) continue;
    // The charge's normal move is the rules' (combat.charge.allowance: the
    // top of its pace this turn), not a question; a draft saved by an
    // earlier vedette may hold an answer, and it is used.
    if (key == "move") continue;
    // The arc is settled by the offer's yes ("at least partly within 45
    // degrees of its facing"): no bearing in degrees is asked. A draft saved
    // by an earlier vedette may hold one, and it is used.
    if (key == "bearing") continue;
    if (key == "pikes_facing") {
      std::string why;
      auto def = parse_defender(r, d.at("defender"), why);
      if (!def || r.charge.kind(*def) != DefenderKind::foot || d.at("side") != "front") continue;
    }
    // Seed 003 L56: a switch of target only when the target measured does
    // not reach (the fields before it are all answered by now).
    if (key == "switch" && preview_charge(r, draft_charge_inputs(r, s, k, d)).geometry.reaches) continue;
    // The optional rules (seeds 001 and 004), only when the ruleset turns
    // them on and they can apply: the target foot answering a charge that
    // reaches (the fields before these are all answered by now).
    if (key == "fear_exempt" || key == "refuge" || key == "square") {
      const ChargePreview pv = preview_charge(r, draft_charge_inputs(r, s, k, d));
      if (key == "fear_exempt" && !pv.fear_may_apply) continue;
      if (key == "refuge" && !pv.fear_check) continue;
      if (key == "square" && !pv.square_allowed) continue;
    }
    return key;
  }
  return {};
}

std::string charge_arc_words(const Ruleset& r, const std::string& name) {
  if (r.charge.arc_degrees == 45)
    return "in front of " + possessive(name) + " front edge, no further out to the side of that edge than it is in front of it";
  std::ostringstream arc;
  arc << r.charge.arc_degrees;
  return "within " + arc.str() + " degrees either side of " + possessive(name) + " facing";
}

ChargeFieldWords charge_field_words(const Ruleset& r, const Session& s, std::size_t k, const std::string& field,
                                    const std::map<std::string, std::string>& d) {
  const std::string& name = s.header().units[k].name;
  if (field == "charge") {
    // Seed 003 L40: the target must lie at least partly within the arc; the
    // yes is the player's measure of it, so no degrees are asked.
    std::ostringstream arc;
    arc << r.charge.arc_degrees;
    return {"Is one of your units at least partly " + charge_arc_words(r, name) + ", for it to charge?",
            "Seed 003: a charge goes at an enemy at least partly within " + arc.str() + " degrees either side of the charger's facing" +
                (r.charge.arc_degrees == 45 ? std::string(": part of the enemy is in front of its front edge, and no further out to the side "
                                                          "of that edge than it is in front of it")
                                            : std::string()) +
                ". Yes declares the charge now; no, and it moves as the table says."};
  }
  if (field == "target") {
    // Seed 003 L24: "When declaring a charge, a player also indicates the
    // enemy unit that will be the target of the charge." After a switch
    // (L56) the charge's new target.
    if (d.count(std::string(k_switched_from_distance)))
      return {"Which of your units within its reach does " + name + " charge instead (the nearest)?",
              "Seed 003: when the declared target has moved out of range, another enemy unit within range must be "
              "charged instead: the nearest of your units within its reach."};
    return {"Which of your units does " + name + " charge (its name)?",
            "Seed 003: a declaration names the enemy unit it charges; the charge goes at it in the cavalry's move "
            "(or at another within reach, should it move out of range)."};
  }
  if (field == "visible") {
    const std::string target = d.count("target") ? d.at("target") : std::string("the target");
    return {"Can " + possessive(name) + " front rank see " + target + "?",
            "A straight line from " + possessive(name) + " front rank to " + target +
                " crosses no woods, buildings, hill crest or other unit. Seed 003: the declared target must "
                "be visible to the front rank of the charging unit."};
  }
  if (field == "switch") {
    // Seed 003 L56, as the engine's Engagement::charge_reach asks it: a
    // target that was in range when declared and has moved out of it gives
    // way to the nearest other enemy in reach (one misjudged is not: L52).
    const ChargeInputs in = draft_charge_inputs(r, s, k, d);
    const ChargePreview pv = preview_charge(r, in);
    const std::string target = in.target_unit.empty() ? std::string("The target") : in.target_unit;
    return {target + " is out of reach. Was it within " + possessive(name) + " charge range when the charge was declared, and is "
                "another of your units within it now (its nearest figure's base entirely within " +
                format_length_table(pv.geometry.max_range, r.units) + ", at least partly " + charge_arc_words(r, name) +
                ", the way not uphill nor into rough terrain)?",
            "Seed 003: if the target has moved out of charge range, another enemy unit within range must be charged instead "
            "(the nearest). If it was never in range, the charge was misjudged: no other target, and the unit moves its full "
            "charge forward and is shaken."};
  }
  return {};
}

Step next_step(const Session& s, const Ruleset& r) {
  const State& st = s.state();
  const std::size_t n = s.header().units.size();
  bool any_left = false;
  for (std::size_t k = 0; k < n; ++k) {
    if (s.charge_pending(k) && declaration_open(st.units[k].charge_draft)) return {Step::Kind::charge, k, Question::in_cover};
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
  if (const SoloModule* sm = find_solo_module(s.header().module); sm && !sm->table_steps)
    return {Step::Kind::next_turn, 0, Question::in_cover};
  if (any_acted && st.initiative_turn != st.turn) return {Step::Kind::initiative, 0, Question::in_cover};
  // Seed 003 step 3: the side that won the initiative moves first. Your
  // move (and the cavalry's answers to it, sims/solo/solo_react.hpp) comes
  // before the cavalry's charges when you won, after them when it did,
  // until you say it is over (EndMove).
  const bool your_move_left = st.your_move_turn != st.turn;
  if (your_move_left && st.first_this_turn == 1) return {Step::Kind::your_move, 0, Question::in_cover};
  for (std::size_t k = 0; k < n; ++k)
    if (charge_to_make(s, k)) return {Step::Kind::charge, k, Question::in_cover};
  if (your_move_left) return {Step::Kind::your_move, 0, Question::in_cover};
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
  // A citation: "seed 003", "seed 003's charge table", with the seed's
  // lines if any ("seed 003 L90", "seed 003 L14, L20", "seed 003 L9-16").
  static const std::string cite = R"(seed \d{3}(?:'s [a-z ]+)?(?: L\d+(?:-L?\d+)?(?:, L\d+(?:-L?\d+)?)*)?)";
  static const std::regex paren(" ?\\(" + cite + "\\)");  // " (seed 003)", " (seed 003 L90)", " (seed 003's charge table)"
  static const std::regex lead("\\(" + cite + ", ");       // "(seed 003, per ..." -> "(per ..."
  static const std::regex tail("[,;] " + cite + "\\)");     // "..., seed 001)", "..., seed 003 L100)" -> "...)"
  static const std::regex key(R"( \((?:[a-z_]+\.)+[a-z_]+\))");           // " (switches.no_gallop_pace)": a YAML key
  std::string t = std::regex_replace(text, paren, "");
  t = std::regex_replace(t, lead, "(");
  t = std::regex_replace(t, tail, ")");
  return std::regex_replace(t, key, "");
}

}  // namespace vedette::solo
