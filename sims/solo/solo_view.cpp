#include "sims/solo/solo_view.hpp"

#include <string>

#include "engine/core/words.hpp"
#include "sims/solo/solo_react.hpp"
#include "sims/solo/solo_shot.hpp"

namespace vedette::solo {

using Json = nlohmann::ordered_json;

namespace {

std::string percent_text(int lost, int figures) {
  std::int32_t h = casualty_hundredths(lost, figures);
  std::string s = std::to_string(h / 100);
  if (h % 100) {
    int frac = h % 100;
    s += "." + std::string(frac < 10 ? "0" : "") + std::to_string(frac);
    while (s.back() == '0') s.pop_back();
  }
  return s + "%";
}


std::string yes_no(bool v) { return v ? "yes" : "no"; }

}  // namespace

std::string step_words(const Session& s, const Step& st) {
  const auto& units = s.header().units;
  const std::string whose = st.unit < units.size() ? possessive(units[st.unit].name) : std::string();
  switch (st.kind) {
    case Step::Kind::question:
    case Step::Kind::roll: return whose + " activation";
    case Step::Kind::charge: return whose + " charge";
    case Step::Kind::initiative: return "the initiative";
    case Step::Kind::your_move: return "your move";
    case Step::Kind::shooting: return whose + " shooting";
    case Step::Kind::melee: return whose + " melee";
    case Step::Kind::rally: return whose + " morale";
    case Step::Kind::next_turn: return "the next turn";
    case Step::Kind::game_over: return "nothing: every automated unit is routed or destroyed";
  }
  return {};
}

std::string unit_summary(const Session& s, const Ruleset* r, std::size_t unit) {
  const UnitSpec& u = s.header().units[unit];
  const UnitType* t = r ? r->find_unit_type(u.type) : nullptr;
  std::string out = t ? t->name : u.type;
  if (!u.weight.empty()) out += " (" + u.weight + ")";
  if (!u.weapon.empty()) {
    const Weapon* w = r ? r->find_weapon(u.weapon) : nullptr;
    out += ", " + (w ? w->name : u.weapon);
  }
  if (u.raw) out += ", raw";
  if (u.hero) out += ", hero";
  int lost = s.memory(unit).casualties;
  out += "; " + std::to_string(u.figures) + " figures";
  if (lost > 0) out += ", " + std::to_string(lost) + " lost (" + percent_text(lost, u.figures) + ")";
  if (lost >= u.figures) out += ": no figures left";
  return out;
}

std::string answers_text(const Answers& a) {
  std::string out;
  for (std::size_t q = 0; q < k_question_count; ++q) {
    if (!a.v[q]) continue;
    auto qq = static_cast<Question>(q);
    out += (out.empty() ? "" : ", ") + std::string(question_label(qq)) + ": " +
           (is_yes_no(qq) ? yes_no(*a.v[q] != 0) : std::to_string(*a.v[q]));
  }
  return out;
}

std::string memory_summary(const Session& s, std::size_t unit) {
  const UnitMemory& m = s.memory(unit);
  std::string out = m.pace == Pace::halt ? "at halt" : "moving at " + std::string(pace_name(m.pace));
  if (m.on_foot) out += ", on foot (it mounts, its whole move, before it moves)";
  if (m.gallop_streak > 0)
    out += ", galloped " + std::to_string(m.gallop_streak) + (m.gallop_streak == 1 ? " turn" : " turns") + " in a row";
  if (m.ran_last_turn) out += "; ran from the enemy last turn";
  // Seed 003's "normal speed" after a charge is no charge move; a ruleset
  // that also caps the pace (combat.charge.next_turn_pace) says so on the
  // activation's "Limit:" line, so the memory line never contradicts it.
  if (m.charged_this_turn) out += "; charged this turn (so no charge next turn, seed 003)";
  if (m.charged_last_turn) out += "; charged last turn (so no charge this turn, seed 003)";
  if (m.ran_this_turn) out += "; running from the enemy this turn";
  if (m.retreated_from_melee) out += "; retreating from melee at its last activation";
  // Known, not answered (issue 30): a fall back from the session's own melee
  // last turn (Session::apply, NextTurnEvent; seed 002 L53).
  if (m.pending[Question::retreated_from_melee] == 1 && !m.answered[Question::retreated_from_melee])
    out += "; fell back from a melee last turn, so retreating from melee (seed 002 L53)";
  if (m.morale != Morale::steady) out += "; " + std::string(morale_name(m.morale));
  return out;
}

// Where a die came from. The main lines say "rolled"; the log (verbose)
// names the roll of the session's seed, which the file checks.
std::string die_text(const Session& s, const Activation& a, bool verbose) {
  if (a.dice == DiceSource::player) return "your roll";
  std::string t = verbose ? "roll #" + std::to_string(*a.roll_index) + " of seed " + std::to_string(s.header().seed) : "rolled";
  if (a.same_die_as)
    t += verbose ? "; the die already rolled for this unit this turn (#" + std::to_string(*a.same_die_as) + "): undo does not re-roll"
                 : "; the die it already had this turn: undo does not re-roll";
  return t;
}

std::string charge_dice_text(const Session& s, const ChargeRecord& c, bool verbose) {
  if (c.dice_source == DiceSource::player) return "your roll";
  std::string t = verbose ? "roll #" + std::to_string(*c.roll_index) + " of seed " + std::to_string(s.header().seed) : "rolled";
  if (c.same_dice_as)
    t += verbose ? "; the dice already rolled for this charge this turn (#" + std::to_string(*c.same_dice_as) + "): undo does not re-roll"
                 : "; the dice it already had this turn: undo does not re-roll";
  return t;
}

std::string describe(const Session& s, const Event& e) {
  return "#" + std::to_string(e.n) + "  turn " + std::to_string(e.turn) + "  " + what_happened(s, e, Detail::log);
}

std::string what_happened(const Session& s, const Event& e, Detail detail) {
  const bool verbose = detail == Detail::log;
  std::string body = std::visit(
      [&](const auto& ev) -> std::string {
        using T = std::decay_t<decltype(ev)>;
        if constexpr (std::is_same_v<T, AnswerEvent>) {
          return ev.unit + ": " + std::string(question_label(ev.question)) + "? " +
                 (is_yes_no(ev.question) ? yes_no(ev.value != 0) : std::to_string(ev.value));
        } else if constexpr (std::is_same_v<T, CasualtiesEvent>) {
          return ev.unit + ": casualties " + signed_str(ev.added);
        } else if constexpr (std::is_same_v<T, ActivateEvent>) {
          const Activation& a = ev.a;
          std::string t = ev.unit + ": RF " + std::to_string(a.rf) + " (" + a.band + "), D6 " + std::to_string(a.roll) +
                          " (" + die_text(s, a, verbose) + ") -> " + a.behaviour_text + ". " + a.instruction;
          if (!a.note.empty()) t += " [" + a.note + "]";
          return t;
        } else if constexpr (std::is_same_v<T, NextTurnEvent>) {
          return "turn " + std::to_string(e.turn) + " ends; turn " + std::to_string(e.turn + 1) + " begins";
        } else if constexpr (std::is_same_v<T, YourMoveEvent>) {
          return "your move in turn " + std::to_string(e.turn) + " is over";
        } else if constexpr (std::is_same_v<T, UndoEvent>) {
          return "undo #" + std::to_string(ev.target);
        } else if constexpr (std::is_same_v<T, RedoEvent>) {
          return "redo #" + std::to_string(ev.target);
        } else if constexpr (std::is_same_v<T, RulesetEvent>) {
          return "ruleset changed and accepted: " + ev.old_hash + " -> " + ev.new_hash;
        } else if constexpr (std::is_same_v<T, SeedEvent>) {
          return "seed set to " + std::to_string(ev.new_seed) + " (was " + std::to_string(ev.old_seed) + ")";
        } else if constexpr (std::is_same_v<T, MoraleEvent>) {
          return ev.unit + ": " + std::string(morale_name(ev.morale)) + (ev.reason.empty() ? "" : " (" + ev.reason + ")");
        } else if constexpr (std::is_same_v<T, ChargeAnswerEvent>) {
          if (ev.field == "charge") return ev.unit + ": charge? " + ev.value;
          return ev.unit + ": charge, " + ev.field + ": " + ev.value;
        } else if constexpr (std::is_same_v<T, ChargeEvent>) {
          const ChargeRecord& c = ev.c;
          if (c.declined) return ev.unit + ": no charge (#" + std::to_string(c.activation) + " offered one)";
          std::string t = ev.unit + ": charges " + dashed(c.defender) + " (" + c.side + ") " + c.distance + " away";
          if (c.rolled) t += ", 2D6 " + std::to_string(c.dice[0]) + "+" + std::to_string(c.dice[1]) + " (" + charge_dice_text(s, c, verbose) + ")";
          return t + " -> " + c.outcome;
        } else if constexpr (std::is_same_v<T, InitiativeEvent>) {
          return "initiative: " + ev.s.outcome;
        } else {
          return ev.unit + ": " + std::string(e.kind()) + ": " + ev.s.outcome;
        }
      },
      e.body);
  return body + (verbose && !s.in_effect(e.n) ? "  [undone]" : "");
}

std::string orders_text(const Session& s, std::size_t unit) {
  const UnitMemory& m = s.memory(unit);
  if (m.acted_in_turn != s.state().turn || m.last_activation == 0) return {};
  const auto* act = std::get_if<ActivateEvent>(&s.event(m.last_activation).body);
  if (!act) return {};
  std::string t = act->unit + ": " + act->a.instruction;
  // Its charge, once answered: the move is the charge's (or none).
  for (auto it = s.history().rbegin(); it != s.history().rend() && it->n > m.last_activation; ++it) {
    const auto* c = std::get_if<ChargeEvent>(&it->body);
    if (!c || c->unit != act->unit || !s.in_effect(it->n)) continue;
    t += c->c.declined ? " No charge." : " Charge: " + c->c.outcome;
    break;
  }
  // It charged in your move (an opportunity charge or a counter-charge):
  // that was its move this turn.
  if (m.reacted_in_turn == s.state().turn) t += " Moved already: its charge in your move was its move this turn.";
  // Your charge struck it since (seed 003 L54): it stays where it is.
  if (const std::string held = struck_note(s, unit); !held.empty()) t += " Held: " + held;
  return t;
}

std::string log_text(const Session& s, const std::string& shown) {
  std::string out = "History of " + shown + " (seed " + std::to_string(s.header().seed) + "; " +
                    std::to_string(s.history().size()) + " events, oldest first):\n";
  if (s.history().empty()) out += "  (nothing yet)\n";
  for (const auto& e : s.history()) out += "  " + describe(s, e) + "\n";
  return out;
}

Json status_json(const Session& s, const std::optional<SessionRules>& rules) {
  Json j;
  j["file"] = s.path().string();
  j["turn"] = s.state().turn;
  j["ruleset"] = {{"path", s.header().ruleset_path},
                  {"hash", s.header().ruleset_hash},
                  {"loaded", rules.has_value()},
                  {"changed", rules ? Json(rules->changed) : Json(nullptr)},
                  {"hash_now", rules ? Json(rules->hash) : Json(nullptr)}};
  j["seed"] = s.header().seed;
  j["next_roll"] = s.next_roll();
  j["physical_dice"] = s.header().physical_dice;
  if (!s.header().module.empty()) j["module"] = s.header().module;
  Json units = Json::array();
  for (std::size_t k = 0; k < s.header().units.size(); ++k) {
    const UnitSpec& u = s.header().units[k];
    const UnitMemory& m = s.memory(k);
    Json pending = Json::object();
    for (std::size_t q = 0; q < k_question_count; ++q) {
      if (!m.pending.v[q]) continue;
      if (is_yes_no(static_cast<Question>(q))) pending[std::string(k_question_names[q])] = *m.pending.v[q] != 0;
      else pending[std::string(k_question_names[q])] = *m.pending.v[q];
    }
    Json uj;
    uj["name"] = u.name;
    uj["type"] = u.type;
    uj["raw"] = u.raw;
    uj["hero"] = u.hero;
    uj["weapon"] = u.weapon.empty() ? Json(nullptr) : Json(u.weapon);  // a weapon's id (issue 28: the type's default)
    uj["figures"] = u.figures;
    uj["casualties"] = m.casualties;
    uj["casualties_percent"] = casualty_hundredths(m.casualties, u.figures) / 100.0;
    uj["pace"] = pace_name(m.pace);
    uj["moving"] = m.pace != Pace::halt;
    uj["gallop_streak"] = m.gallop_streak;
    uj["ran_last_turn"] = m.ran_last_turn;
    uj["ran_this_turn"] = m.ran_this_turn;
    uj["charged_this_turn"] = m.charged_this_turn;
    uj["charged_last_turn"] = m.charged_last_turn;
    uj["retreated_from_melee"] = m.retreated_from_melee;
    uj["on_foot"] = m.on_foot;
    uj["morale"] = morale_name(m.morale);
    uj["acted_in_turn"] = m.acted_in_turn;
    uj["acted_this_turn"] = m.acted_in_turn == s.state().turn;
    // Whether it may be activated now, and if not why (Session::why_cannot_act):
    // the page offers "Activate" only where the session would take it.
    const std::string why_not = s.why_cannot_act(k);
    uj["may_act"] = why_not.empty();
    uj["why_cannot_act"] = why_not.empty() ? Json(nullptr) : Json(why_not);
    uj["last_activation"] = m.last_activation ? Json(m.last_activation) : Json(nullptr);
    if (m.last_activation) uj["last_instruction"] = std::get<ActivateEvent>(s.event(m.last_activation).body).a.instruction;
    uj["pending"] = pending;
    uj["weight"] = u.weight.empty() ? Json(nullptr) : Json(u.weight);
    uj["charge_pending"] = s.charge_pending(k);
    units.push_back(uj);
  }
  j["units"] = units;
  // What comes next in the turn (solo play's order), with its prompt.
  if (rules) {
    const Ruleset& r = *rules->rules;
    j["charge_arc_degrees"] = r.charge.arc_degrees;  // seed 003 L40: the charge offer's question
    // ...and the arc in words a player settles with the figures (issue 30),
    // per automated unit: what the page's "your move" asks.
    Json arcs = Json::object();
    for (const auto& u : s.header().units) arcs[u.name] = charge_arc_words(r, u.name);
    j["charge_arc"] = arcs;
    const Step st = next_step(s, r);
    Json n;
    n["step"] = k_step_kind_names[static_cast<std::size_t>(st.kind)];
    const bool has_unit = st.kind != Step::Kind::initiative && st.kind != Step::Kind::next_turn && st.kind != Step::Kind::game_over;
    n["unit"] = has_unit ? Json(s.header().units[st.unit].name) : Json(nullptr);
    switch (st.kind) {
      case Step::Kind::initiative:
        n["question"] = initiative_question(r);
        n["charges_declared"] = charges_declared(s);
        n["dice"] = r.combat.initiative.dice;
        n["rolled_before"] = s.step_dice_for(TurnStep::initiative, Session::k_no_step_unit, s.state().turn).has_value();
        break;
      case Step::Kind::shooting: {
        const ShootingChance c = shooting_chance(r, s, st.unit);
        n["question"] = shooting_question(r, s, st.unit);
        n["weapon"] = c.weapon->name;
        n["dismounts"] = c.dismounts;
        n["reach"] = format_length(c.reach, r.units);
        n["units_of_length"] = unit_name(r.units);
        n["rolled_before"] = s.step_dice_for(TurnStep::shooting, st.unit, s.state().turn).has_value();
        {
          // The shot procedure's first need (solo::shot_next): the page asks
          // it, then the server's shot-plan for each next one.
          const ShotNeed first = shot_next(r, s, st.unit, {});
          n["shot"] = Json{{"ask", std::string(k_shot_need_names[static_cast<std::size_t>(first.kind)])},
                           {"question", first.question},
                           {"help", plain_words(first.help)}};
        }
        break;
      }
      case Step::Kind::melee: {
        const MeleeSide side = solo_melee_side(r, s, st.unit);
        n["text"] = melee_intro(r, s, st.unit);
        n["dice"] = side.dice;
        n["need"] = side.need;
        n["rolled_before"] = s.step_dice_for(TurnStep::melee, st.unit, s.state().turn).has_value();
        // Against a square (seed 004): the square's die comes first.
        n["square"] = s.memory(st.unit).square;
        if (s.memory(st.unit).square) {
          n["square_die"] = r.charge.infantry_square.die;
          n["square_dice"] = r.charge.infantry_square.max_battle_dice;
          Json faces = Json::array();
          for (int f = 1; f <= r.charge.infantry_square.die; ++f)
            if (square_bounces(r.charge, f)) faces.push_back(f);
          n["bounce_faces"] = faces;
        }
        break;
      }
      case Step::Kind::rally:
        n["routs"] = rally_need(r, s, st.unit) == RallyNeed::routs;
        n["question"] = rally_question(r, s, st.unit);
        n["rolled_before"] = s.step_dice_for(TurnStep::rally, st.unit, s.state().turn).has_value();
        break;
      default: break;
    }
    j["next_step"] = n;
    j["reactions"] = reactions_json(r, s);  // issue 28 (sims/cli/commands/cmd_solo_react.cpp)
  }
  j["undo"] = {{"steps", s.undo_depth()}, {"next", s.undo_target() ? Json(s.undo_target()) : Json(nullptr)}};
  j["redo"] = {{"steps", s.redo_depth()}, {"next", s.redo_target() ? Json(s.redo_target()) : Json(nullptr)}};
  j["events"] = s.history().size();
  return j;
}

Json reactions_json(const Ruleset& r, const Session& s) {
  Json j;
  // The steps, in the player's movement step (issue 28).
  j["steps"] = {{{"step", "moved"},
                 {"command", "vedette solo moved GAME --mover NAME --as CLASS --near UNIT=DISTANCE[,flank|rear][,no-arc][,unseen][,charging]"},
                 {"rule", "003-L90-opportunity"},
                 {"text", "Your unit is about to move, has moved or changed facing: each cavalry unit that may react decides at once"}},
                {{"step", "charged"},
                 {"command", "vedette solo charged GAME UNIT --as CLASS --distance D [--side flank|rear] [--no-bonus] [--no-arc]"},
                 {"rule", "003-L7-defender-checks"},
                 {"text", "Your unit charges a cavalry unit: its counter-charge, its morale check, the result"}}};
  // Your move comes once the turn's initiative is rolled (the page's
  // "Your move" step); what it asks: your unit's class on seed 003's table,
  // the distance in the table's unit.
  // The player's move: after the initiative, until they say it is over.
  j["your_move"] = s.state().initiative_turn == s.state().turn && s.state().your_move_turn != s.state().turn;
  Json classes = Json::array();
  for (auto c : k_defender_class_names) classes.push_back(std::string(c));
  j["classes"] = classes;
  j["units_of_length"] = unit_name(r.units);
  Json units = Json::array();
  for (const ReactorStatus& st : reactor_status(r, s)) {
    Json u;
    u["unit"] = s.header().units[st.unit].name;
    u["may_react"] = st.gate.allowed && st.wants;
    u["rule"] = st.gate.rule.empty() ? Json(nullptr) : Json(std::string(st.gate.rule));
    u["why_not"] = st.line.empty() ? Json(nullptr) : Json(st.line);
    u["struck"] = !struck_note(s, st.unit).empty();
    units.push_back(u);
  }
  j["units"] = units;
  return j;
}

}  // namespace vedette::solo
