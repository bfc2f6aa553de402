// Solo sessions: writing the file (atomically, through sims/io).
#include "sims/solo/session.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>
#include <system_error>

#include "engine/decision/charge.hpp"
#include "engine/core/dice.hpp"
#include "engine/core/doc.hpp"
#include "sims/io/atomic_file.hpp"
#include "sims/solo/session_text.hpp"

namespace vedette::solo {

namespace fs = std::filesystem;
using detail::b;

// ------------------------------------------------------------------ writing

namespace {

// A YAML double-quoted scalar.
std::string q(std::string_view s) {
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (ch == '"') out += "\\\"";
    else if (ch == '\\') out += "\\\\";
    else if (ch == '\n') out += "\\n";
    else if (ch == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7F) {
      out += "\\x";
      out += k_hex[c >> 4];
      out += k_hex[c & 0xF];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::string i(long long v) { return std::to_string(v); }

std::string answers_flow(const Answers& a) {
  std::string s = "{";
  bool first = true;
  for (std::size_t k = 0; k < k_question_count; ++k) {
    if (!a.v[k]) continue;
    s += first ? "" : ", ";
    first = false;
    s += std::string(k_question_names[k]) + ": " +
         (static_cast<Question>(k) == Question::new_casualties ? i(*a.v[k]) : std::string(b(*a.v[k] != 0)));
  }
  return s + "}";
}

void write_activation(std::ostringstream& o, const Activation& a) {
  const char* ind = "    ";
  o << ind << "facts: {hero: " << b(a.hero) << ", raw: " << b(a.raw) << ", pace: " << pace_name(a.pace_before)
    << ", gallop_streak: " << a.gallop_streak_before << ", ran_last_turn: " << b(a.ran_last_turn)
    << (a.charged_last_turn ? std::string(", charged_last_turn: ") + b(*a.charged_last_turn) : std::string())
    << ", in_cover: " << b(a.in_cover) << ", enemy_in_range: " << b(a.enemy_in_range)
    << ", enemy_flank_rear: " << b(a.enemy_flank_rear) << ", retreated_from_melee: " << b(a.retreated_from_melee)
    << (a.on_foot ? ", on_foot: true" : "") << ", new_casualties: " << a.new_casualties << ", casualties: " << a.casualties << ", figures: " << a.figures
    << "}\n";
  o << ind << "asked: [";
  for (std::size_t k = 0; k < a.asked.size(); ++k) o << (k ? ", " : "") << question_name(a.asked[k]);
  o << "]\n";
  o << ind << "rf: " << a.rf << "\n";
  o << ind << "breakdown:";
  if (a.breakdown.empty()) o << " []";
  o << "\n";
  for (const auto& t : a.breakdown)
    o << ind << "  - {id: " << q(t.id) << ", value: " << t.value << ", reason: " << q(t.reason) << "}\n";
  o << ind << "band: " << q(a.band) << "\n";
  o << ind << "roll: " << a.roll << "\n";
  o << ind << "dice: " << k_dice_source_names[static_cast<std::size_t>(a.dice)] << "\n";
  if (a.roll_index) o << ind << "roll_index: " << *a.roll_index << "\n";
  if (a.same_die_as) o << ind << "same_die_as: " << *a.same_die_as << "\n";
  o << ind << "behaviour: " << q(a.behaviour) << "\n";
  o << ind << "behaviour_text: " << q(a.behaviour_text) << "\n";
  o << ind << "table_pace: " << pace_name(a.table_pace) << "\n";
  o << ind << "pace: " << pace_name(a.pace) << "\n";
  o << ind << "pace_limit: " << k_pace_adjust_names[static_cast<std::size_t>(a.adjust)] << "\n";
  o << ind << "running: " << b(a.running) << "\n";
  o << ind << "charge_possible: " << b(a.charge_possible) << "\n";
  o << ind << "instruction: " << q(a.instruction) << "\n";
  if (!a.note.empty()) o << ind << "note: " << q(a.note) << "\n";
  if (!a.charge_refused.empty()) o << ind << "charge_refused: " << q(a.charge_refused) << "\n";
}

std::string number_text(double v) {
  std::ostringstream s;
  s.precision(15);
  s << v;
  return s.str();
}

void write_charge(std::ostringstream& o, const ChargeRecord& c) {
  const char* ind = "    ";
  o << ind << "activation: " << c.activation << "\n";
  o << ind << "declined: " << b(c.declined) << "\n";
  // Version 6 (seed 003 L24, L34, L56).
  if (!c.target_unit.empty()) o << ind << "target_unit: " << q(c.target_unit) << "\n";
  if (!c.refused_rule.empty()) o << ind << "refused_rule: " << q(c.refused_rule) << "\n";
  if (c.switched)
    o << ind << "switched_from: {unit: " << q(c.switched_from) << ", distance: " << q(c.switched_from_distance) << "}\n";
  if (c.declined) return;
  o << ind << "attacker: " << c.attacker << "\n";
  o << ind << "move: " << q(c.move) << "\n";
  o << ind << "distance: " << q(c.distance) << "\n";
  o << ind << "bearing: " << number_text(c.bearing) << "\n";
  o << ind << "defender: " << c.defender << "\n";
  o << ind << "side: " << c.side << "\n";
  o << ind << "both_charging: " << b(c.both_charging) << "\n";
  o << ind << "pikes_facing: " << b(c.pikes_facing) << "\n";
  if (!c.path.empty()) o << ind << "path: " << c.path << "\n";
  o << ind << "max_range: " << q(c.max_range) << "\n";
  o << ind << "min_distance: " << q(c.min_distance) << "\n";
  o << ind << "reaches: " << b(c.reaches) << "\n";
  o << ind << "charge_bonus: " << b(c.charge_bonus) << "\n";
  if (!c.reaches && !c.forced_move.empty()) o << ind << "forced_move: " << q(c.forced_move) << "\n";
  o << ind << "shaken: " << b(c.shaken) << "\n";
  o << ind << "morale_check: " << b(c.morale_check) << "\n";
  o << ind << "automatic: " << b(c.automatic) << "\n";
  o << ind << "target: " << c.target << "\n";
  o << ind << "stand_ways: " << c.stand_ways << "\n";
  if (c.initiation_dice)
    o << ind << "initiation: {dice: [" << (*c.initiation_dice)[0] << ", " << (*c.initiation_dice)[1]
      << "], need: " << c.initiation_need << ", passed: " << b(c.initiation_passed) << "}\n";
  if (c.obstacle_dice)
    o << ind << "obstacle_check: {dice: [" << (*c.obstacle_dice)[0] << ", " << (*c.obstacle_dice)[1] << "], need: " << c.obstacle_need
      << ", passed: " << b(c.obstacle_passed) << "}\n";
  if (c.charger_dice)
    o << ind << "charger_check: {dice: [" << (*c.charger_dice)[0] << ", " << (*c.charger_dice)[1] << "], need: " << c.charger_need
      << ", stands: " << b(c.charger_stands) << (c.charger_morale ? ", morale: " + std::string(morale_name(*c.charger_morale)) : "")
      << "}\n";
  if (c.fear) {
    o << ind << "fear: {exempt: " << b(c.fear->exempt) << ", dice: [";
    for (std::size_t k = 0; k < c.fear->dice.size(); ++k) o << (k ? ", " : "") << c.fear->dice[k];
    o << "], need: " << c.fear->need << ", passed: " << b(c.fear->passed) << ", refuge: " << b(c.fear->refuge) << "}\n";
  }
  if (c.square) o << ind << "square: true\n";
  if (c.has_dice()) {
    if (c.rolled) o << ind << "dice: [" << c.dice[0] << ", " << c.dice[1] << "]\n";
    o << ind << "dice_source: " << k_dice_source_names[static_cast<std::size_t>(c.dice_source)] << "\n";
    if (c.roll_index) o << ind << "roll_index: " << *c.roll_index << "\n";
    if (c.same_dice_as) o << ind << "same_dice_as: " << *c.same_dice_as << "\n";
  }
  o << ind << "stands: " << b(c.stands) << "\n";
  o << ind << "outcome: " << q(c.outcome) << "\n";
}

void write_step(std::ostringstream& o, const StepRecord& r) {
  const char* ind = "    ";
  o << ind << "given: {";
  bool first = true;
  for (const auto& [k, v] : r.given) {
    o << (first ? "" : ", ") << k << ": " << q(v);
    first = false;
  }
  o << "}\n";
  if (!r.dice.empty()) {
    o << ind << "dice: [";
    for (std::size_t k = 0; k < r.dice.size(); ++k) o << (k ? ", " : "") << r.dice[k];
    o << "]\n";
  }
  o << ind << "dice_source: " << k_dice_source_names[static_cast<std::size_t>(r.dice_source)] << "\n";
  if (r.roll_index) o << ind << "roll_index: " << *r.roll_index << "\n";
  if (r.same_dice_as) o << ind << "same_dice_as: " << *r.same_dice_as << "\n";
  o << ind << "need: " << r.need << "\n";
  o << ind << "score: " << r.score << "\n";
  o << ind << "casualties: " << r.casualties << "\n";
  o << ind << "result: " << r.result << "\n";
  if (r.morale) o << ind << "morale: " << morale_name(*r.morale) << "\n";
  o << ind << "fell_back: " << b(r.fell_back) << "\n";
  if (r.dismounted) o << ind << "dismounted: true\n";
  if (!r.counter.empty()) o << ind << "counter: " << r.counter << "\n";
  o << ind << "outcome: " << q(r.outcome) << "\n";
}

void write_event(std::ostringstream& o, const Event& e) {
  std::string head = "n: " + i(e.n) + ", turn: " + i(e.turn) + ", event: " + std::string(e.kind());
  std::visit(
      [&](const auto& ev) {
        using T = std::decay_t<decltype(ev)>;
        if constexpr (std::is_same_v<T, AnswerEvent>) {
          o << "  - {" << head << ", unit: " << q(ev.unit) << ", question: " << question_name(ev.question)
            << ", value: " << (is_yes_no(ev.question) ? std::string(b(ev.value != 0)) : i(ev.value)) << "}\n";
        } else if constexpr (std::is_same_v<T, CasualtiesEvent>) {
          o << "  - {" << head << ", unit: " << q(ev.unit) << ", added: " << ev.added << "}\n";
        } else if constexpr (std::is_same_v<T, ActivateEvent>) {
          o << "  - n: " << e.n << "\n    turn: " << e.turn << "\n    event: activate\n    unit: " << q(ev.unit) << "\n";
          write_activation(o, ev.a);
        } else if constexpr (std::is_same_v<T, NextTurnEvent> || std::is_same_v<T, YourMoveEvent>) {
          o << "  - {" << head << "}\n";
        } else if constexpr (std::is_same_v<T, UndoEvent>) {
          o << "  - {" << head << ", undoes: " << ev.target << "}\n";
        } else if constexpr (std::is_same_v<T, RedoEvent>) {
          o << "  - {" << head << ", redoes: " << ev.target << "}\n";
        } else if constexpr (std::is_same_v<T, RulesetEvent>) {
          o << "  - {" << head << ", old_hash: " << q(ev.old_hash) << ", new_hash: " << q(ev.new_hash) << "}\n";
        } else if constexpr (std::is_same_v<T, SeedEvent>) {
          o << "  - {" << head << ", old_seed: " << ev.old_seed << ", new_seed: " << ev.new_seed << "}\n";
        } else if constexpr (std::is_same_v<T, MoraleEvent>) {
          o << "  - {" << head << ", unit: " << q(ev.unit) << ", morale: " << morale_name(ev.morale)
            << ", reason: " << q(ev.reason) << "}\n";
        } else if constexpr (std::is_same_v<T, ChargeAnswerEvent>) {
          o << "  - {" << head << ", unit: " << q(ev.unit) << ", field: " << ev.field << ", value: " << q(ev.value)
            << "}\n";
        } else if constexpr (std::is_same_v<T, ChargeEvent>) {
          o << "  - n: " << e.n << "\n    turn: " << e.turn << "\n    event: charge\n    unit: " << q(ev.unit) << "\n";
          write_charge(o, ev.c);
        } else if constexpr (std::is_same_v<T, InitiativeEvent>) {
          o << "  - n: " << e.n << "\n    turn: " << e.turn << "\n    event: initiative\n";
          write_step(o, ev.s);
        } else {
          o << "  - n: " << e.n << "\n    turn: " << e.turn << "\n    event: " << e.kind() << "\n    unit: " << q(ev.unit) << "\n";
          write_step(o, ev.s);
        }
      },
      e.body);
}

// The memory section: derived from the history, written for the reader,
// checked against the history when the file is read back.
}  // namespace

std::string memory_text(const Header& h, const State& s, std::uint64_t next_roll) {
  std::ostringstream o;
  o << "memory:\n  turn: " << s.turn << "\n  next_roll: " << next_roll << "\n  units:\n";
  for (std::size_t k = 0; k < h.units.size(); ++k) {
    const UnitMemory& m = s.units[k];
    o << "    - {name: " << q(h.units[k].name) << ", casualties: " << m.casualties << ", pace: " << pace_name(m.pace)
      << ", moving: " << b(m.pace != Pace::halt) << ", gallop_streak: " << m.gallop_streak
      << ", ran_this_turn: " << b(m.ran_this_turn) << ", ran_last_turn: " << b(m.ran_last_turn)
      << ", retreated_from_melee: " << b(m.retreated_from_melee) << (m.on_foot ? ", on_foot: true" : "")
      << ", morale: " << morale_name(m.morale)
      << ", acted_in_turn: " << m.acted_in_turn << ", charge_answered: " << b(m.charge_for != 0 && m.charge_for == m.last_activation)
      << ", pending: " << answers_flow(m.pending) << ", charge_draft: {";
    bool first = true;
    for (const auto& [key, value] : m.charge_draft) {
      o << (first ? "" : ", ") << key << ": " << q(value);
      first = false;
    }
    o << "}}\n";
  }
  return o.str();
}


std::string Session::text() const {
  std::ostringstream o;
  o << "# Vedette solo session (see `vedette solo --help` and docs/solo.md).\n"
       "# Written by vedette after every answer. `history` is the record of the game,\n"
       "# oldest first; `memory` is derived from it and checked when the file is read.\n"
       "# Change the game with `vedette solo` commands (undo, casualties, ...).\n";
  o << "format: " << k_format << "\n";
  o << "version: " << version() << "\n";
  o << "ruleset:\n  path: " << q(header_.ruleset_path) << "\n  hash: " << q(header_.ruleset_hash) << "\n";
  o << "seed: " << header_.seed << "\n";
  o << "physical_dice: " << b(header_.physical_dice) << "\n";
  if (!header_.module.empty()) o << "module: " << header_.module << "\n";
  o << "units:\n";
  for (const auto& u : header_.units)
    o << "  - {name: " << q(u.name) << ", type: " << q(u.type) << ", raw: " << b(u.raw) << ", hero: " << b(u.hero)
      << ", figures: " << u.figures << (u.weight.empty() ? "" : ", weight: " + u.weight)
      << (u.weapon.empty() ? "" : ", weapon: " + q(u.weapon)) << "}\n";
  o << memory_text(header_, state_, next_roll_);
  o << "history:";
  if (history_.empty()) o << " []";
  o << "\n";
  for (const auto& e : history_) write_event(o, e);
  return o.str();
}

bool Session::changed_on_disk() const {
  if (!disk_text_) return false;
  try {
    return read_whole_file(path_) != *disk_text_;
  } catch (const AtomicWriteError&) {
    return false;
  }
}

void Session::save(bool overwrite) {
  std::error_code ec;
  bool exists = fs::exists(path_, ec);
  if (disk_text_) {
    std::string now;
    try {
      now = exists ? read_whole_file(path_) : std::string();
    } catch (const AtomicWriteError& e) {
      throw SessionError(e.what());
    }
    if (!exists || now != *disk_text_)
      throw SessionChangedError(path_.string() + " was changed by another program since vedette read it; nothing was written. "
                         "Run the command again to act on the file as it is now.");
  } else if (exists && !overwrite) {
    throw SessionError(path_.string() + " already exists; nothing was written");
  }
  std::string t = text();
  // Never write a file that cannot be read back: past the size or value
  // limits of a file (engine/core/doc.hpp), the game is kept as it was. Below
  // 1 MiB the session text cannot hold 200,000 values (it takes more than
  // 5 bytes each), so only a long game pays for the check.
  if (t.size() > (std::size_t{1} << 20)) {
    try {
      (void)parse_yaml(t, path_.string());
    } catch (const LoadError& e) {
      throw SessionError("the session has grown too large to be saved and read back (" + e.diagnostics().front().message +
                         "); nothing was written, the game so far is intact. Start a new session to play on.");
    }
  }
  write_file_atomically(path_, t);
  disk_text_ = std::move(t);
}

}  // namespace vedette::solo
