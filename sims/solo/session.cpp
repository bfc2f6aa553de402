// Solo sessions: writing, reading, checking and replaying the history.
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

namespace vedette::solo {

namespace fs = std::filesystem;

// ------------------------------------------------------------------ basics

int solo_roll(std::uint64_t seed, std::uint64_t index) {
  Rng rng = make_stream(seed, index, Subsystem::solo);
  Dice dice(rng);
  return dice.d6();
}

std::array<int, 2> solo_roll_2d6(std::uint64_t seed, std::uint64_t index) {
  Rng rng = make_stream(seed, index, Subsystem::solo);
  Dice dice(rng);
  int a = dice.d6();
  int b = dice.d6();
  return {a, b};
}

std::array<int, 4> solo_roll_charge(std::uint64_t seed, std::uint64_t index) {
  Rng rng = make_stream(seed, index, Subsystem::solo);
  Dice dice(rng);
  std::array<int, 4> out{};
  for (int& d : out) d = dice.d6();
  return out;
}

std::vector<int> solo_roll_dice(std::uint64_t seed, std::uint64_t index, int n) {
  Rng rng = make_stream(seed, index, Subsystem::solo);
  Dice dice(rng);
  std::vector<int> out(static_cast<std::size_t>(std::max(0, n)));
  for (int& d : out) d = dice.d6();
  return out;
}

std::optional<TurnStep> turn_step_of(const EventBody& body) {
  if (std::holds_alternative<InitiativeEvent>(body)) return TurnStep::initiative;
  if (std::holds_alternative<ShootingEvent>(body)) return TurnStep::shooting;
  if (std::holds_alternative<MeleeEvent>(body)) return TurnStep::melee;
  if (std::holds_alternative<RallyEvent>(body)) return TurnStep::rally;
  return std::nullopt;
}

const StepRecord* step_record(const EventBody& body) {
  if (const auto* e = std::get_if<InitiativeEvent>(&body)) return &e->s;
  if (const auto* e = std::get_if<ShootingEvent>(&body)) return &e->s;
  if (const auto* e = std::get_if<MeleeEvent>(&body)) return &e->s;
  if (const auto* e = std::get_if<RallyEvent>(&body)) return &e->s;
  return nullptr;
}

namespace {
// Version 4's marks: mounted infantry that dismounted, or acts on foot.
bool needs_version_4(const Event& e) {
  if (const auto* a = std::get_if<ActivateEvent>(&e.body); a && a->a.on_foot) return true;
  if (const auto* sh = std::get_if<ShootingEvent>(&e.body); sh && sh->s.dismounted) return true;
  if (const auto* c = std::get_if<ChargeEvent>(&e.body); c && (c->c.fear || c->c.square)) return true;
  if (const auto* a = std::get_if<ChargeAnswerEvent>(&e.body);
      a && (a->field == "fear_exempt" || a->field == "refuge" || a->field == "square"))
    return true;
  if (const auto* me = std::get_if<MeleeEvent>(&e.body); me && me->s.given.count("bounce")) return true;
  return false;
}
// Version 3's marks: a turn step, a routed unit, a unit's weapon.
bool needs_version_3(const Header& h, const Event& e) {
  if (turn_step_of(e.body)) return true;
  if (const auto* c = std::get_if<ChargeEvent>(&e.body); c && (c->c.charger_dice || c->c.obstacle_dice || !c->c.path.empty()))
    return true;
  if (const auto* a = std::get_if<ChargeAnswerEvent>(&e.body); a && a->field == "path") return true;
  if (const auto* m = std::get_if<MoraleEvent>(&e.body); m && m->morale == Morale::routed) return true;
  (void)h;
  return false;
}
}  // namespace

int needed_version(const Header& header, const std::vector<Event>& history) {
  int v = 1;
  for (const UnitSpec& u : header.units)
    if (!u.weapon.empty()) v = 3;
  for (const Event& e : history) {
    if (needs_version_4(e)) return 4;
    if (needs_version_3(header, e)) v = 3;
    if (const auto* a = std::get_if<ActivateEvent>(&e.body); a && !a->a.charge_refused.empty()) v = std::max(v, 2);
    if (const auto* c = std::get_if<ChargeEvent>(&e.body); c && c->c.initiation_dice) v = std::max(v, 2);
  }
  return v;
}

fs::path session_path(const std::string& game) {
  fs::path p(game);
  if (p.has_filename() && p.extension().empty()) p += ".vedette.yaml";
  return p;
}

bool printable_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) return false;
      ++i;
      continue;
    }
    std::size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || i + len > s.size() || c == 0xC0 || c == 0xC1 || c > 0xF4) return false;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    // C1 controls (U+0080..U+009F) are not printable in YAML either.
    if (c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) return false;
    i += len;
  }
  return true;
}

bool Event::undoable() const {
  return std::holds_alternative<AnswerEvent>(body) || std::holds_alternative<CasualtiesEvent>(body) ||
         std::holds_alternative<ActivateEvent>(body) || std::holds_alternative<NextTurnEvent>(body) ||
         std::holds_alternative<MoraleEvent>(body) || std::holds_alternative<ChargeEvent>(body) ||
         std::holds_alternative<ChargeAnswerEvent>(body) || turn_step_of(body).has_value();
}

const std::string* Event::unit() const {
  if (auto* a = std::get_if<AnswerEvent>(&body)) return &a->unit;
  if (auto* c = std::get_if<CasualtiesEvent>(&body)) return &c->unit;
  if (auto* v = std::get_if<ActivateEvent>(&body)) return &v->unit;
  if (auto* m = std::get_if<MoraleEvent>(&body)) return &m->unit;
  if (auto* c = std::get_if<ChargeEvent>(&body)) return &c->unit;
  if (auto* c = std::get_if<ChargeAnswerEvent>(&body)) return &c->unit;
  if (auto* c = std::get_if<ShootingEvent>(&body)) return &c->unit;
  if (auto* c = std::get_if<MeleeEvent>(&body)) return &c->unit;
  if (auto* c = std::get_if<RallyEvent>(&body)) return &c->unit;
  return nullptr;
}

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

const char* b(bool v) { return v ? "true" : "false"; }
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
        } else if constexpr (std::is_same_v<T, NextTurnEvent>) {
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

}  // namespace

std::string Session::text() const {
  std::ostringstream o;
  o << "# Vedette solo session (see `vedette solo --help` and docs/solo.md).\n"
       "# Written by vedette after every answer. `history` is the record of the game,\n"
       "# oldest first; `memory` is derived from it and checked when the file is read.\n"
       "# Change the game with `vedette solo` commands (undo, casualties, ...).\n";
  o << "format: " << k_format << "\n";
  o << "version: " << needed_version(header_, history_) << "\n";
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
      throw SessionError(path_.string() + " was changed by another program since vedette read it; nothing was written. "
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

// ------------------------------------------------------------------ replay

Session::Session(fs::path path, Header header) : path_(std::move(path)), header_(std::move(header)) {
  state_.units.resize(header_.units.size());
}

std::optional<std::size_t> Session::find_unit(std::string_view name) const {
  for (std::size_t k = 0; k < header_.units.size(); ++k)
    if (header_.units[k].name == name) return k;
  auto lower = [](std::string_view s) {
    std::string o(s);
    for (auto& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return o;
  };
  std::optional<std::size_t> found;
  for (std::size_t k = 0; k < header_.units.size(); ++k) {
    if (lower(header_.units[k].name) != lower(name)) continue;
    if (found) return std::nullopt;
    found = k;
  }
  return found;
}

std::size_t Session::unit_index(const std::string& name) const {
  for (std::size_t k = 0; k < header_.units.size(); ++k)
    if (header_.units[k].name == name) return k;
  throw SessionError("no unit named '" + name + "' in this session", "unit");
}

bool Session::in_effect(int n) const {
  const Event& e = event(n);
  if (!e.undoable()) return true;
  return static_cast<std::size_t>(n) < in_effect_.size() && in_effect_[static_cast<std::size_t>(n)];
}

void Session::set_in_effect(int n, bool on) {
  const auto k = static_cast<std::size_t>(n);
  if (k >= in_effect_.size()) in_effect_.resize(k + 1, false);
  in_effect_[k] = on;
}

void Session::push_done(int n, State before) {
  if (done_.size() % k_checkpoint_every == 0) checkpoints_.push_back(std::move(before));
  done_.push_back(n);
  set_in_effect(n, true);
}

State Session::state_before(std::size_t i) {
  // From the checkpoint at or before step i, replay the steps in effect up
  // to it: each does what it did then (the state and the history before it
  // are the same). apply_to_state works on state_, so lend it.
  const std::size_t from = i / k_checkpoint_every * k_checkpoint_every;
  State now = std::move(state_);
  state_ = checkpoints_[i / k_checkpoint_every];
  try {
    for (std::size_t k = from; k < i; ++k) apply_to_state(event(done_[k]));
  } catch (...) {
    state_ = std::move(now);
    throw;
  }
  State before = std::move(state_);
  state_ = std::move(now);
  return before;
}

std::optional<int> Session::die_for(std::size_t unit, int turn) const {
  auto it = first_die_.find({unit, turn});
  if (it == first_die_.end()) return std::nullopt;
  return it->second;
}

std::optional<int> Session::player_die_for(std::size_t unit, int turn) const {
  auto it = player_die_.find({unit, turn});
  if (it == player_die_.end()) return std::nullopt;
  return std::get<ActivateEvent>(event(it->second).body).a.roll;
}

std::optional<int> Session::charge_dice_for(std::size_t unit, int turn) const {
  auto it = first_charge_dice_.find({unit, turn});
  if (it == first_charge_dice_.end()) return std::nullopt;
  return it->second;
}

std::optional<int> Session::step_dice_for(TurnStep step, std::size_t unit, int turn) const {
  auto it = first_step_dice_.find({static_cast<int>(step), unit, turn});
  if (it == first_step_dice_.end()) return std::nullopt;
  return it->second;
}

void Session::check_step_dice(const Event& e, TurnStep step, std::size_t unit, const StepRecord& r) {
  for (int d : r.dice)
    if (d < 1 || d > 6) throw SessionError("dice must be 1 to 6", "dice");
  if (r.dice_source == DiceSource::player) {
    if (r.roll_index || r.same_dice_as) throw SessionError("a player's dice have no roll_index or same_dice_as", "roll_index");
    return;
  }
  if (r.dice.empty()) {
    if (r.roll_index || r.same_dice_as) throw SessionError("a step with no dice has no roll_index", "roll_index");
    return;
  }
  if (!r.roll_index) throw SessionError("rolled dice need their roll_index", "dice");
  auto first = first_step_dice_.find({static_cast<int>(step), unit, e.turn});
  if (r.same_dice_as) {
    if (first == first_step_dice_.end() || first->second != *r.same_dice_as)
      throw SessionError("same_dice_as: " + std::to_string(*r.same_dice_as) + " is not the " +
                             std::string(k_turn_step_names[static_cast<std::size_t>(step)]) + " first rolled in this turn",
                         "same_dice_as");
    const StepRecord* prior = step_record(event(*r.same_dice_as).body);
    if (!prior || prior->roll_index != r.roll_index)
      throw SessionError("reuses the dice of #" + std::to_string(*r.same_dice_as) + " but not its roll", "same_dice_as");
  } else {
    if (first != first_step_dice_.end())
      throw SessionError("dice were already rolled for this step in turn " + std::to_string(e.turn) + " (#" +
                             std::to_string(first->second) + "); the step after an undo reuses them (same_dice_as)",
                         "dice");
    if (*r.roll_index < next_roll_)
      throw SessionError("roll_index " + std::to_string(*r.roll_index) + " was already used (the next roll is " +
                             std::to_string(next_roll_) + ")",
                         "roll_index");
  }
  const std::vector<int> expect = solo_roll_dice(header_.seed, *r.roll_index, static_cast<int>(r.dice.size()));
  if (expect != r.dice) {
    std::string want;
    for (int d : expect) want += (want.empty() ? "" : ", ") + std::to_string(d);
    throw SessionError("dice are not what roll number " + std::to_string(*r.roll_index) + " of seed " +
                           std::to_string(header_.seed) + " gives ([" + want + "])",
                       "dice");
  }
}

bool Session::charge_pending(std::size_t unit) const {
  const UnitMemory& m = state_.units[unit];
  if (m.acted_in_turn != state_.turn || m.last_activation == 0 || m.charge_for == m.last_activation) return false;
  return std::get<ActivateEvent>(event(m.last_activation).body).a.charge_possible;
}

void Session::check_charge_dice(const Event& e, const ChargeRecord& c) {
  if (c.initiation_dice) {
    const auto& in = *c.initiation_dice;
    if ((in[0] + in[1] >= c.initiation_need) != c.initiation_passed)
      throw SessionError("the initiation check's dice [" + std::to_string(in[0]) + ", " + std::to_string(in[1]) + "] " +
                             (c.initiation_passed ? "do not reach" : "reach") + " its need of " +
                             std::to_string(c.initiation_need) + " but it is recorded as " +
                             (c.initiation_passed ? "passed" : "failed"),
                         "initiation");
    if (!c.initiation_passed && (c.rolled || c.reaches || c.stands))
      throw SessionError("a charge that failed its initiation check does not go on to a morale check", "initiation");
  }
  if (c.obstacle_dice) {
    const auto& od = *c.obstacle_dice;
    if ((od[0] + od[1] >= c.obstacle_need) != c.obstacle_passed)
      throw SessionError("the obstacle check's dice [" + std::to_string(od[0]) + ", " + std::to_string(od[1]) + "] against " +
                             std::to_string(c.obstacle_need) + " do not give " + (c.obstacle_passed ? "passed" : "failed"),
                         "obstacle_check");
    if (c.path != "obstacle") throw SessionError("an obstacle check needs path: obstacle", "obstacle_check");
    if (!c.obstacle_passed && (c.rolled || c.stands))
      throw SessionError("a charge halted at the obstacle goes on to no morale check", "obstacle_check");
  }
  if (c.fear) {
    // Seed 001's gut check comes after the charge reaches, before the morale check.
    if (!c.initiation_passed || !c.reaches || c.both_charging)
      throw SessionError("a gut check follows only a charge that reaches, the target not charging too", "fear");
    if (c.fear->exempt != c.fear->dice.empty())
      throw SessionError("a gut check has its dice unless the infantry is exempt by its cover", "fear");
    if (c.fear->evaded() && (c.rolled || c.stands || c.square))
      throw SessionError("infantry that fled into cover takes no morale check and forms no square", "fear");
  }
  if (c.square) {
    if (!c.initiation_passed || !c.reaches || c.both_charging)
      throw SessionError("a square is formed only against a charge that reaches, the target not charging too", "square");
    if (c.rolled || c.stands) throw SessionError("a square takes no morale check (seed 004)", "square");
  }
  if (c.charger_dice) {
    const auto& cd = *c.charger_dice;
    if (!c.rolled) throw SessionError("a charger's own morale check comes with the defender's (both charging)", "charger_check");
    if ((cd[0] + cd[1] >= c.charger_need) != c.charger_stands && c.charger_need >= 2 && c.charger_need <= 12)
      throw SessionError("the charger's check dice [" + std::to_string(cd[0]) + ", " + std::to_string(cd[1]) + "] against " +
                             std::to_string(c.charger_need) + " do not give " + (c.charger_stands ? "stands" : "fails"),
                         "charger_check");
    if (c.charger_stands == c.charger_morale.has_value())
      throw SessionError("a charger that fails its check has a morale after it (and one that stands has none)", "charger_check");
  }
  if (!c.has_dice()) {
    if (c.roll_index || c.same_dice_as) throw SessionError("a charge with no dice has no roll_index", "roll_index");
    return;
  }
  for (int d : c.dice)
    if (c.rolled && (d < 1 || d > 6)) throw SessionError("charge dice must be 1 to 6", "dice");
  if (c.dice_source == DiceSource::player) {
    if (c.roll_index || c.same_dice_as) throw SessionError("a player's dice have no roll_index or same_dice_as", "roll_index");
    return;
  }
  if (!c.roll_index) throw SessionError("rolled charge dice need their roll_index", "dice");
  std::size_t u = unit_index(std::get<ChargeEvent>(e.body).unit);
  auto first = first_charge_dice_.find({u, e.turn});
  if (c.same_dice_as) {
    if (first == first_charge_dice_.end() || first->second != *c.same_dice_as)
      throw SessionError("same_dice_as: " + std::to_string(*c.same_dice_as) +
                             " is not the charge first rolled for this unit in this turn",
                         "same_dice_as");
    const ChargeRecord& prior = std::get<ChargeEvent>(event(*c.same_dice_as).body).c;
    if (prior.roll_index != c.roll_index || (c.rolled && prior.rolled && prior.dice != c.dice) ||
        (c.initiation_dice && prior.initiation_dice && *prior.initiation_dice != *c.initiation_dice))
      throw SessionError("reuses the dice of #" + std::to_string(*c.same_dice_as) + " but records others", "dice");
  } else {
    if (first != first_charge_dice_.end())
      throw SessionError("charge dice were already rolled for this unit in turn " + std::to_string(e.turn) + " (#" +
                             std::to_string(first->second) + "); a charge after an undo reuses them (same_dice_as)",
                         "dice");
    if (*c.roll_index < next_roll_)
      throw SessionError("roll_index " + std::to_string(*c.roll_index) + " was already used (the next roll is " +
                             std::to_string(next_roll_) + ")",
                         "roll_index");
  }
  // Whether first rolled or reused, the dice are the roll's own.
  const auto expect = solo_roll_charge(header_.seed, *c.roll_index);
  if (c.rolled && (c.dice[0] != expect[0] || c.dice[1] != expect[1]))
    throw SessionError("dice [" + std::to_string(c.dice[0]) + ", " + std::to_string(c.dice[1]) +
                           "] are not what roll number " + std::to_string(*c.roll_index) + " of seed " +
                           std::to_string(header_.seed) + " gives ([" + std::to_string(expect[0]) + ", " +
                           std::to_string(expect[1]) + "])",
                       "dice");
  if (c.obstacle_dice) {
    const auto eight = solo_roll_dice(header_.seed, *c.roll_index, 8);
    if ((*c.obstacle_dice)[0] != eight[6] || (*c.obstacle_dice)[1] != eight[7])
      throw SessionError("obstacle_check dice [" + std::to_string((*c.obstacle_dice)[0]) + ", " + std::to_string((*c.obstacle_dice)[1]) +
                             "] are not what roll number " + std::to_string(*c.roll_index) + " of seed " +
                             std::to_string(header_.seed) + " gives ([" + std::to_string(eight[6]) + ", " + std::to_string(eight[7]) + "])",
                         "obstacle_check");
  }
  if (c.charger_dice) {
    const auto six = solo_roll_dice(header_.seed, *c.roll_index, 6);
    if ((*c.charger_dice)[0] != six[4] || (*c.charger_dice)[1] != six[5])
      throw SessionError("charger_check dice [" + std::to_string((*c.charger_dice)[0]) + ", " + std::to_string((*c.charger_dice)[1]) +
                             "] are not what roll number " + std::to_string(*c.roll_index) + " of seed " +
                             std::to_string(header_.seed) + " gives ([" + std::to_string(six[4]) + ", " + std::to_string(six[5]) + "])",
                         "charger_check");
  }
  if (c.fear && !c.fear->dice.empty()) {
    const auto ten = solo_roll_dice(header_.seed, *c.roll_index, 10);
    for (std::size_t k = 0; k < c.fear->dice.size(); ++k)
      if (c.fear->dice[k] != ten[8 + k])
        throw SessionError("the gut check's dice are not what roll number " + std::to_string(*c.roll_index) + " of seed " +
                               std::to_string(header_.seed) + " gives (dice 9 and 10 of its stream: [" + std::to_string(ten[8]) +
                               ", " + std::to_string(ten[9]) + "])",
                           "fear");
  }
  if (c.initiation_dice && ((*c.initiation_dice)[0] != expect[2] || (*c.initiation_dice)[1] != expect[3]))
    throw SessionError("initiation dice [" + std::to_string((*c.initiation_dice)[0]) + ", " +
                           std::to_string((*c.initiation_dice)[1]) + "] are not what roll number " +
                           std::to_string(*c.roll_index) + " of seed " + std::to_string(header_.seed) + " gives ([" +
                           std::to_string(expect[2]) + ", " + std::to_string(expect[3]) + "])",
                       "initiation");
}

const Event& Session::append(EventBody body) {
  Event e;
  e.n = static_cast<int>(history_.size()) + 1;
  e.turn = state_.turn;
  e.body = std::move(body);
  e.where = {path_.string(), 0, 0};
  apply(e);
  history_.push_back(std::move(e));
  return history_.back();
}

void Session::check_dice(const Event& e, const Activation& a) {
  if (a.roll < 1 || a.roll > 6) throw SessionError("roll " + std::to_string(a.roll) + " is not a D6 face (1-6)", "roll");
  if (a.dice == DiceSource::player) {
    if (a.roll_index || a.same_die_as) throw SessionError("a player's die has no roll_index or same_die_as");
    return;
  }
  if (!a.roll_index) throw SessionError("a rolled die needs its roll_index");
  std::size_t u = unit_index(std::get<ActivateEvent>(e.body).unit);
  auto first = first_die_.find({u, e.turn});
  if (a.same_die_as) {
    if (first == first_die_.end() || first->second != *a.same_die_as)
      throw SessionError("same_die_as: " + std::to_string(*a.same_die_as) +
                             " is not the die first rolled for this unit in this turn",
                         "same_die_as");
    const Activation& prior = std::get<ActivateEvent>(event(*a.same_die_as).body).a;
    if (prior.roll != a.roll || prior.roll_index != a.roll_index)
      throw SessionError("reuses the die of #" + std::to_string(*a.same_die_as) + " (" + std::to_string(prior.roll) +
                         ") but records " + std::to_string(a.roll));
    return;
  }
  if (first != first_die_.end())
    throw SessionError("a die was already rolled for this unit in turn " + std::to_string(e.turn) + " (#" +
                       std::to_string(first->second) + "); an activation after an undo reuses it (same_die_as)");
  if (*a.roll_index < next_roll_)
    throw SessionError("roll_index " + std::to_string(*a.roll_index) + " was already used (the next roll is " +
                           std::to_string(next_roll_) + "; the counter never goes back)",
                       "roll_index");
  int expect = solo_roll(header_.seed, *a.roll_index);
  if (a.roll != expect)
    throw SessionError("roll " + std::to_string(a.roll) + " is not what roll number " + std::to_string(*a.roll_index) +
                           " of seed " + std::to_string(header_.seed) + " gives (" + std::to_string(expect) + ")",
                       "roll");
}

void Session::apply_to_state(const Event& e) {
  auto unit_mem = [&](const std::string& name) -> std::pair<std::size_t, UnitMemory*> {
    std::size_t k = unit_index(name);
    return {k, &state_.units[k]};
  };
  auto check_can_act = [&](std::size_t k, const std::string& name) {
    if (state_.units[k].acted_in_turn == state_.turn)
      throw SessionError(name + " has already acted in turn " + std::to_string(state_.turn));
    if (figures_left(k) <= 0) throw SessionError(name + " has no figures left");
    if (state_.units[k].morale == Morale::routed)
      throw SessionError(name + " has routed: it flees toward its own edge and no longer acts");
  };
  std::visit(
      [&](const auto& ev) {
        using T = std::decay_t<decltype(ev)>;
        if constexpr (std::is_same_v<T, AnswerEvent>) {
          auto [k, m] = unit_mem(ev.unit);
          check_can_act(k, ev.unit);
          if (ev.question == Question::new_casualties) {
            if (ev.value < 0 || ev.value > figures_left(k))
              throw SessionError("new casualties " + std::to_string(ev.value) + " for " + ev.unit + ": it has " +
                                     std::to_string(figures_left(k)) + " figures left",
                                 "value");
            m->casualties += ev.value;
          } else if (ev.value != 0 && ev.value != 1) {
            throw SessionError("a yes/no answer must be true or false");
          }
          m->pending[ev.question] = ev.value;
        } else if constexpr (std::is_same_v<T, CasualtiesEvent>) {
          auto [k, m] = unit_mem(ev.unit);
          long long total = static_cast<long long>(m->casualties) + ev.added;
          if (total < 0 || total > header_.units[k].figures)
            throw SessionError(ev.unit + " would have " + std::to_string(total) + " casualties; it has " +
                                   std::to_string(header_.units[k].figures) + " figures",
                               "added");
          m->casualties = static_cast<int>(total);
        } else if constexpr (std::is_same_v<T, ActivateEvent>) {
          auto [k, m] = unit_mem(ev.unit);
          check_can_act(k, ev.unit);
          const Activation& a = ev.a;
          if (a.new_casualties < 0 || a.new_casualties > figures_left(k))
            throw SessionError("new casualties " + std::to_string(a.new_casualties) + " for " + ev.unit + ": it has " +
                                   std::to_string(figures_left(k)) + " figures left",
                               "facts.new_casualties");
          const UnitSpec& spec = header_.units[k];
          auto mismatch = [&](const char* what, const std::string& recorded, const std::string& known) {
            throw SessionError("facts." + std::string(what) + " is " + recorded + " but the session knew " + known,
                               "facts." + std::string(what));
          };
          if (a.casualties != m->casualties + a.new_casualties)
            mismatch("casualties", std::to_string(a.casualties), std::to_string(m->casualties + a.new_casualties));
          if (a.figures != spec.figures) mismatch("figures", std::to_string(a.figures), std::to_string(spec.figures));
          if (a.pace_before != m->pace)
            mismatch("pace", std::string(pace_name(a.pace_before)), std::string(pace_name(m->pace)));
          if (a.gallop_streak_before != m->gallop_streak)
            mismatch("gallop_streak", std::to_string(a.gallop_streak_before), std::to_string(m->gallop_streak));
          if (a.ran_last_turn != m->ran_last_turn) mismatch("ran_last_turn", b(a.ran_last_turn), b(m->ran_last_turn));
          if (a.charged_last_turn && *a.charged_last_turn != m->charged_last_turn)
            mismatch("charged_last_turn", b(*a.charged_last_turn), b(m->charged_last_turn));
          if (a.on_foot != m->on_foot) mismatch("on_foot", b(a.on_foot), b(m->on_foot));
          if (a.on_foot && a.charge_possible)
            throw SessionError(ev.unit + " is on foot: it cannot charge (it mounts first, its whole move)", "charge_possible");
          if (a.hero != spec.hero) mismatch("hero", b(a.hero), b(spec.hero));
          if (a.raw != spec.raw) mismatch("raw", b(a.raw), b(spec.raw));
          m->casualties += a.new_casualties;
          if (a.on_foot) {
            // Seed 001: mounting takes its whole move (when the table moves
            // it); halted, it stays on foot. It does not move either way.
            m->gallop_streak = 0;
            m->pace = Pace::halt;
            m->ran_this_turn = false;
            m->on_foot = a.pace == Pace::halt;
          } else {
            m->gallop_streak = a.pace == Pace::gallop ? m->gallop_streak + 1 : 0;
            m->pace = a.pace;
            m->ran_this_turn = a.running;
          }
          m->retreated_from_melee = a.retreated_from_melee;
          m->acted_in_turn = state_.turn;
          m->last_activation = e.n;
          m->pending = {};
          m->charge_draft.clear();
        } else if constexpr (std::is_same_v<T, NextTurnEvent>) {
          for (auto& m : state_.units) {
            m.ran_last_turn = m.ran_this_turn;
            m.ran_this_turn = false;
            m.charged_last_turn = m.charged_this_turn;
            m.charged_this_turn = false;
            m.pending = {};
            m.charge_draft.clear();
            // Seed 002 L53: a unit that fell back from a melee this turn is
            // "retreating as a result of melee" next turn: the session knows,
            // so play does not ask.
            if (m.fell_back_this_turn) m.pending[Question::retreated_from_melee] = 1;
            m.fell_back_this_turn = false;
            m.contact = false;
            m.square = false;
            m.charge_bonus = false;
            m.charge_event = 0;
          }
          if (state_.initiative_turn == state_.turn) state_.first_last_turn = state_.first_this_turn;
          state_.first_this_turn = -1;
          ++state_.turn;
        } else if constexpr (std::is_same_v<T, MoraleEvent>) {
          unit_mem(ev.unit).second->morale = ev.morale;
        } else if constexpr (std::is_same_v<T, ChargeEvent>) {
          auto [k, m] = unit_mem(ev.unit);
          if (!charge_pending(k))
            throw SessionError(ev.unit + " has no \"(Charge?)\" to answer in turn " + std::to_string(state_.turn), "activation");
          if (ev.c.activation != m->last_activation)
            throw SessionError("activation " + std::to_string(ev.c.activation) + " is not " + ev.unit +
                                   "'s activation this turn (#" + std::to_string(m->last_activation) + ")",
                               "activation");
          m->charge_for = ev.c.activation;
          m->charge_draft.clear();
          if (!ev.c.declined && ev.c.shaken) m->morale = Morale::shaken;
          // Melee follows a charge that reached and stood, or struck inside
          // the minimum distance (no morale check, no charge bonus).
          m->contact = !ev.c.declined && ev.c.initiation_passed && ev.c.reaches && (ev.c.stands || !ev.c.morale_check) &&
                       ev.c.charger_stands && ev.c.obstacle_passed && !(ev.c.fear && ev.c.fear->evaded());
          m->square = m->contact && ev.c.square;
          if (!ev.c.declined && ev.c.charger_morale) {  // both charging, it failed its own check: it falls back
            m->morale = *ev.c.charger_morale;
            m->fell_back_this_turn = true;
          }
          m->charge_bonus = m->contact && ev.c.charge_bonus;
          m->charge_event = ev.c.declined ? 0 : e.n;
          // Seed 003: a charge that reaches and one that falls short (it
          // "must still move forward") are both a charge move.
          // A failed initiation check is no charge (seed 003 L48).
          if (!ev.c.declined && ev.c.initiation_passed) m->charged_this_turn = true;
        } else if constexpr (std::is_same_v<T, ChargeAnswerEvent>) {
          auto [k, m] = unit_mem(ev.unit);
          if (!charge_pending(k))
            throw SessionError(ev.unit + " has no \"(Charge?)\" to answer in turn " + std::to_string(state_.turn), "unit");
          if (std::find(k_charge_fields.begin(), k_charge_fields.end(), ev.field) == k_charge_fields.end())
            throw SessionError("unknown charge field '" + ev.field + "'", "field");
          if (!printable_utf8(ev.value)) throw SessionError("a charge answer must be printable text", "value");
          m->charge_draft[ev.field] = ev.value;
        } else if constexpr (std::is_same_v<T, InitiativeEvent>) {
          if (state_.initiative_turn == state_.turn)
            throw SessionError("the initiative of turn " + std::to_string(state_.turn) + " was already rolled");
          if (ev.s.result != "cavalry" && ev.s.result != "player")
            throw SessionError("an initiative's result is cavalry or player, not '" + ev.s.result + "'", "result");
          state_.initiative_turn = state_.turn;
          state_.first_this_turn = ev.s.result == "cavalry" ? 0 : 1;
        } else if constexpr (std::is_same_v<T, ShootingEvent> || std::is_same_v<T, MeleeEvent> ||
                             std::is_same_v<T, RallyEvent>) {
          auto [k, m] = unit_mem(ev.unit);
          const StepRecord& r = ev.s;
          const char* kind = std::is_same_v<T, ShootingEvent> ? "shooting" : std::is_same_v<T, MeleeEvent> ? "melee" : "rally";
          int& done = std::is_same_v<T, ShootingEvent> ? m->shot_in_turn
                      : std::is_same_v<T, MeleeEvent>  ? m->melee_in_turn
                                                        : m->rally_in_turn;
          if (done == state_.turn)
            throw SessionError(ev.unit + " has had its " + kind + " step in turn " + std::to_string(state_.turn));
          if (!r.dice.empty() && (std::is_same_v<T, ShootingEvent> || std::is_same_v<T, MeleeEvent>)) {
            int hits = 0;
            for (int d : r.dice) hits += d >= r.need;
            if (hits != r.score)
              throw SessionError("the dice give " + std::to_string(hits) + " hits needing " + std::to_string(r.need) +
                                     ", but it records " + std::to_string(r.score),
                                 "score");
          }
          if (r.dismounted) {
            if (!std::is_same_v<T, ShootingEvent>) throw SessionError(std::string("only a shot dismounts, not a ") + kind, "dismounted");
            if (m->on_foot) throw SessionError(ev.unit + " is already on foot", "dismounted");
            m->on_foot = true;
          }
          if constexpr (std::is_same_v<T, MeleeEvent>) {
            if (!m->contact) throw SessionError(ev.unit + " is in no melee in turn " + std::to_string(state_.turn));
            if (r.casualties < 0 || r.casualties > figures_left(k))
              throw SessionError("casualties " + std::to_string(r.casualties) + " for " + ev.unit + ": it has " +
                                     std::to_string(figures_left(k)) + " figures left",
                                 "casualties");
            if (m->square) {
              if (r.result != "bounced" && r.result != "repulsed")
                throw SessionError("a melee against a square is bounced or repulsed, not '" + r.result + "'", "result");
              if ((r.result == "bounced") != (r.given.count("bounce") && r.given.at("bounce") == "yes"))
                throw SessionError("the square's die says bounce " + (r.given.count("bounce") ? r.given.at("bounce") : std::string("(not given)")) +
                                       " but the result is " + r.result,
                                   "result");
            } else if (r.result != "won" && r.result != "lost" && r.result != "tie") {
              throw SessionError("a melee's result is won, lost or tie, not '" + r.result + "'", "result");
            } else if (r.given.count("bounce")) {
              throw SessionError("only a square's die bounces (seed 004): " + ev.unit + " fights no square", "given");
            }
            m->casualties += r.casualties;
            if (r.fell_back) m->fell_back_this_turn = true;
          }
          if constexpr (std::is_same_v<T, RallyEvent>) {
            if (r.result != "rallied" && r.result != "failed" && r.result != "no_rally" && r.result != "routed")
              throw SessionError("a rally's result is rallied, failed, no_rally or routed, not '" + r.result + "'", "result");
            if (r.dice.size() == 2 && (r.dice[0] + r.dice[1] != r.score || (r.score >= r.need) != (r.result == "rallied")))
              throw SessionError("the dice " + std::to_string(r.dice[0]) + " + " + std::to_string(r.dice[1]) +
                                     " against " + std::to_string(r.need) + " do not give '" + r.result + "'",
                                 "result");
          }
          if (r.morale) m->morale = *r.morale;
          done = state_.turn;
        }
      },
      e.body);
}

void Session::apply(const Event& e) {
  if (e.turn != state_.turn)
    throw SessionError("turn " + std::to_string(e.turn) + " does not match the session's turn at this point (" +
                           std::to_string(state_.turn) + ")",
                       "turn");
  if (auto* u = e.unit()) (void)unit_index(*u);
  if (const auto* undo = std::get_if<UndoEvent>(&e.body)) {
    if (done_.empty()) throw SessionError("there is nothing to undo");
    if (undo->target != done_.back())
      throw SessionError("undoes #" + std::to_string(undo->target) + ", but the latest step in effect is #" +
                             std::to_string(done_.back()),
                         "undoes");
    state_ = state_before(done_.size() - 1);
    if ((done_.size() - 1) % k_checkpoint_every == 0) checkpoints_.pop_back();
    set_in_effect(done_.back(), false);
    done_.pop_back();
    redo_.push_back(undo->target);
    return;
  }
  if (const auto* redo = std::get_if<RedoEvent>(&e.body)) {
    if (redo_.empty()) throw SessionError("there is nothing to redo");
    if (redo->target != redo_.back())
      throw SessionError("redoes #" + std::to_string(redo->target) + ", but the step redo brings back is #" +
                             std::to_string(redo_.back()),
                         "redoes");
    const Event& again = event(redo->target);
    State saved = state_;
    Event replay = again;
    replay.turn = state_.turn;  // the same turn: the state is as it was before that step
    apply_to_state(replay);
    push_done(redo->target, std::move(saved));
    redo_.pop_back();
    return;
  }
  if (const auto* seed = std::get_if<SeedEvent>(&e.body)) {
    if (next_roll_ > 0 || !first_die_.empty())
      throw SessionError("the seed cannot change once a die has been rolled (it would let a player fish for rolls)");
    (void)seed;
    return;
  }
  if (std::holds_alternative<RulesetEvent>(e.body)) return;

  const auto* act = std::get_if<ActivateEvent>(&e.body);
  if (act) check_dice(e, act->a);
  const auto* charge = std::get_if<ChargeEvent>(&e.body);
  if (charge) check_charge_dice(e, charge->c);
  const std::optional<TurnStep> step = turn_step_of(e.body);
  const std::size_t step_unit = step && e.unit() ? unit_index(*e.unit()) : k_no_step_unit;
  if (step) check_step_dice(e, *step, step_unit, *step_record(e.body));
  State saved = state_;
  apply_to_state(e);
  push_done(e.n, std::move(saved));
  redo_.clear();
  if (act) {
    std::size_t u = unit_index(act->unit);
    if (act->a.dice == DiceSource::rolled) {
      if (!act->a.same_die_as) first_die_[{u, e.turn}] = e.n;
      next_roll_ = std::max(next_roll_, *act->a.roll_index + 1);
    } else {
      player_die_[{u, e.turn}] = e.n;
    }
  }
  if (charge && charge->c.has_dice() && charge->c.dice_source == DiceSource::rolled) {
    std::size_t u = unit_index(charge->unit);
    if (!charge->c.same_dice_as) first_charge_dice_[{u, e.turn}] = e.n;
    next_roll_ = std::max(next_roll_, *charge->c.roll_index + 1);
  }
  if (step) {
    const StepRecord& r = *step_record(e.body);
    if (r.dice_source == DiceSource::rolled && r.roll_index) {
      if (!r.same_dice_as) first_step_dice_[{static_cast<int>(*step), step_unit, e.turn}] = e.n;
      next_roll_ = std::max(next_roll_, *r.roll_index + 1);
    }
  }
}

// ------------------------------------------------------------------ reading

namespace {

struct Reader {
  Diagnostics& d;

  std::optional<std::uint64_t> u64(const Doc& n, const std::string& what) {
    if (n.is_scalar() && !n.quoted) {
      std::uint64_t v = 0;
      const auto& s = n.scalar;
      auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec == std::errc() && p == s.data() + s.size() && !s.empty()) return v;
    }
    d.error(n.where, "expected a whole number from 0 to 18446744073709551615 for " + what + ", found " +
                         (n.is_scalar() ? "'" + n.scalar + "'" : std::string(n.kind_name())));
    return std::nullopt;
  }
  std::optional<int> num(const Doc* n, const std::string& what, int lo, int hi) {
    if (!n) return std::nullopt;
    auto v = read_int(*n, d, what, lo, hi);
    if (!v) return std::nullopt;
    return static_cast<int>(*v);
  }
  std::optional<bool> flag(const Doc* n, const std::string& what) {
    if (!n) return std::nullopt;
    return read_bool(*n, d, what);
  }
  std::optional<std::string> str(const Doc* n, const std::string& what) {
    if (!n) return std::nullopt;
    auto s = read_string(*n, d, what);
    if (s && !printable_utf8(*s)) {
      d.error(n->where, "expected printable text for " + what);
      return std::nullopt;
    }
    return s;
  }
  template <std::size_t N>
  std::optional<std::size_t> choice(const Doc* n, const std::string& what, const std::array<std::string_view, N>& names) {
    if (!n) return std::nullopt;
    return read_choice(*n, d, what, std::vector<std::string>(names.begin(), names.end()));
  }
  std::optional<Pace> pace(const Doc* n, const std::string& what) {
    auto c = choice(n, what, k_pace_names);
    if (!c) return std::nullopt;
    return static_cast<Pace>(*c);
  }
};

std::optional<Activation> read_activation(MapReader& m, Reader& r, const std::string& what) {
  Activation a;
  bool ok = true;
  auto need = [&](auto opt, auto& into) {
    if (opt) into = *opt;
    else ok = false;
  };
  if (const Doc* f = m.required("facts")) {
    MapReader fm(*f, r.d, what + " facts");
    need(r.flag(fm.required("hero"), "hero"), a.hero);
    need(r.flag(fm.required("raw"), "raw"), a.raw);
    need(r.pace(fm.required("pace"), "pace"), a.pace_before);
    need(r.num(fm.required("gallop_streak"), "gallop_streak", 0, 1000000), a.gallop_streak_before);
    need(r.flag(fm.required("ran_last_turn"), "ran_last_turn"), a.ran_last_turn);
    if (const Doc* c = fm.optional("charged_last_turn")) {  // absent in sessions written before seed 003's rule was kept
      if (auto v = r.flag(c, "charged_last_turn")) a.charged_last_turn = *v;
      else ok = false;
    }
    need(r.flag(fm.required("in_cover"), "in_cover"), a.in_cover);
    need(r.flag(fm.required("enemy_in_range"), "enemy_in_range"), a.enemy_in_range);
    need(r.flag(fm.required("enemy_flank_rear"), "enemy_flank_rear"), a.enemy_flank_rear);
    need(r.flag(fm.required("retreated_from_melee"), "retreated_from_melee"), a.retreated_from_melee);
    if (const Doc* of = fm.optional("on_foot")) need(r.flag(of, "on_foot"), a.on_foot);  // version 4
    need(r.num(fm.required("new_casualties"), "new_casualties", 0, 1000000), a.new_casualties);
    need(r.num(fm.required("casualties"), "casualties", 0, 1000000), a.casualties);
    need(r.num(fm.required("figures"), "figures", 1, k_max_figures), a.figures);
    fm.finish();
    ok = ok && fm.ok();
  } else {
    ok = false;
  }
  if (const Doc* asked = m.optional("asked")) {
    if (!asked->is_sequence()) {
      r.d.error(asked->where, "expected a list of questions for asked, found " + std::string(asked->kind_name()));
      ok = false;
    } else {
      for (const Doc& item : asked->items) {
        auto c = r.choice(&item, "question", k_question_names);
        if (c) a.asked.push_back(static_cast<Question>(*c));
        else ok = false;
      }
    }
  }
  need(r.num(m.required("rf"), "rf", -1000000, 1000000), a.rf);
  if (const Doc* bd = m.required("breakdown")) {
    if (!bd->is_sequence()) {
      r.d.error(bd->where, "expected a list for breakdown, found " + std::string(bd->kind_name()));
      ok = false;
    } else {
      for (const Doc& item : bd->items) {
        MapReader tm(item, r.d, "a breakdown term");
        RfTermRecord t;
        auto id = r.str(tm.required("id"), "id");
        auto v = r.num(tm.required("value"), "value", -1000000, 1000000);
        auto why = r.str(tm.optional("reason"), "reason");
        tm.finish();
        if (id && v) a.breakdown.push_back({*id, *v, why.value_or("")});
        else ok = false;
      }
    }
  } else {
    ok = false;
  }
  need(r.str(m.required("band"), "band"), a.band);
  need(r.num(m.required("roll"), "roll", 1, 6), a.roll);
  auto dice = r.choice(m.required("dice"), "dice", k_dice_source_names);
  if (dice) a.dice = static_cast<DiceSource>(*dice);
  else ok = false;
  if (const Doc* ri = m.optional("roll_index")) {
    auto v = r.u64(*ri, "roll_index");
    if (v) a.roll_index = *v;
    else ok = false;
  }
  if (const Doc* sd = m.optional("same_die_as")) {
    auto v = r.num(sd, "same_die_as", 1, 100000000);
    if (v) a.same_die_as = *v;
    else ok = false;
  }
  need(r.str(m.required("behaviour"), "behaviour"), a.behaviour);
  need(r.str(m.required("behaviour_text"), "behaviour_text"), a.behaviour_text);
  need(r.pace(m.required("table_pace"), "table_pace"), a.table_pace);
  need(r.pace(m.required("pace"), "pace"), a.pace);
  auto adj = r.choice(m.required("pace_limit"), "pace_limit", k_pace_adjust_names);
  if (adj) a.adjust = static_cast<PaceAdjust>(*adj);
  else ok = false;
  need(r.flag(m.required("running"), "running"), a.running);
  need(r.flag(m.required("charge_possible"), "charge_possible"), a.charge_possible);
  need(r.str(m.required("instruction"), "instruction"), a.instruction);
  if (auto note = r.str(m.optional("note"), "note")) a.note = *note;
  if (auto cr = r.str(m.optional("charge_refused"), "charge_refused")) a.charge_refused = *cr;
  if (!ok) return std::nullopt;
  return a;
}

// One of a charge's 2D6 checks, `key: {dice: [A, B], need: N, <flag>: BOOL}`
// (initiation, obstacle_check, charger_check), with the check's other keys
// read by `more` before the map is finished. False if anything was wrong.
template <class More>
bool read_check(MapReader& m, Reader& r, const char* key, const char* flag, std::optional<std::array<int, 2>>& dice,
                int& need_to, bool& flag_to, More more) {
  const Doc* node = m.optional(key);
  if (!node) return true;
  MapReader cm(*node, r.d, key);
  if (!cm.ok()) return false;
  bool ok = true;
  std::array<int, 2> d{};
  const Doc* dn = cm.required("dice");
  if (!dn || !dn->is_sequence() || dn->items.size() != 2) {
    if (dn) r.d.error(dn->where, std::string("expected two dice for ") + key + " dice, e.g. [3, 5]");
    ok = false;
  } else {
    for (std::size_t k = 0; k < 2; ++k) {
      auto v = r.num(&dn->items[k], "a die", 1, 6);
      if (v) d[k] = *v;
      else ok = false;
    }
  }
  dice = d;
  auto n = r.num(cm.required("need"), std::string(key) + " need", -100, 100);
  if (n) need_to = *n;
  else ok = false;
  auto f = r.flag(cm.required(flag), std::string(key) + " " + flag);
  if (f) flag_to = *f;
  else ok = false;
  ok = more(cm) && ok;
  cm.finish();
  return ok;
}

std::optional<ChargeRecord> read_charge(MapReader& m, Reader& r) {
  ChargeRecord c;
  bool ok = true;
  auto need = [&](auto opt, auto& into) {
    if (opt) into = *opt;
    else ok = false;
  };
  auto length = [&](const char* key, std::string& into, bool required) {
    const Doc* n = required ? m.required(key) : m.optional(key);
    if (!n) {
      if (required) ok = false;
      return;
    }
    auto l = read_length(*n, r.d, key);
    if (l) into = n->scalar;
    else ok = false;
  };
  need(r.num(m.required("activation"), "activation", 1, 100000000), c.activation);
  need(r.flag(m.required("declined"), "declined"), c.declined);
  if (!ok || c.declined) return ok ? std::optional<ChargeRecord>(c) : std::nullopt;
  auto w = r.choice(m.required("attacker"), "attacker", k_attacker_weight_names);
  if (w) c.attacker = std::string(k_attacker_weight_names[*w]);
  else ok = false;
  length("move", c.move, true);
  length("distance", c.distance, true);
  if (const Doc* bn = m.required("bearing")) {
    auto v = read_number(*bn, r.d, "bearing", -100000, 100000);
    if (v) c.bearing = *v;
    else ok = false;
  } else {
    ok = false;
  }
  auto dc = r.choice(m.required("defender"), "defender", k_defender_class_names);
  if (dc) c.defender = std::string(k_defender_class_names[*dc]);
  else ok = false;
  auto side = r.choice(m.required("side"), "side", k_side_names);
  if (side) c.side = std::string(k_side_names[*side]);
  else ok = false;
  need(r.flag(m.required("both_charging"), "both_charging"), c.both_charging);
  need(r.flag(m.required("pikes_facing"), "pikes_facing"), c.pikes_facing);
  length("max_range", c.max_range, true);
  length("min_distance", c.min_distance, true);
  need(r.flag(m.required("reaches"), "reaches"), c.reaches);
  need(r.flag(m.required("charge_bonus"), "charge_bonus"), c.charge_bonus);
  length("forced_move", c.forced_move, false);
  need(r.flag(m.required("shaken"), "shaken"), c.shaken);
  need(r.flag(m.required("morale_check"), "morale_check"), c.morale_check);
  need(r.flag(m.required("automatic"), "automatic"), c.automatic);
  need(r.num(m.required("target"), "target", -100, 100), c.target);
  need(r.num(m.required("stand_ways"), "stand_ways", 0, 36), c.stand_ways);
  auto nothing_more = [](MapReader&) { return true; };
  ok = read_check(m, r, "initiation", "passed", c.initiation_dice, c.initiation_need, c.initiation_passed, nothing_more) && ok;
  if (const Doc* pn = m.optional("path")) {
    auto v = r.choice(pn, "path", k_charge_path_names);
    if (v) c.path = std::string(k_charge_path_names[*v]);
    else ok = false;
    if (c.path == "open") c.path.clear();
  }
  ok = read_check(m, r, "obstacle_check", "passed", c.obstacle_dice, c.obstacle_need, c.obstacle_passed, nothing_more) && ok;
  ok = read_check(m, r, "charger_check", "stands", c.charger_dice, c.charger_need, c.charger_stands, [&](MapReader& cm) {
         const Doc* mo = cm.optional("morale");
         if (!mo) return true;
         auto v = r.choice(mo, "charger_check morale", k_morale_names);
         if (v) c.charger_morale = static_cast<Morale>(*v);
         return v.has_value();
       }) && ok;
  if (const Doc* fn = m.optional("fear")) {  // version 4
    MapReader fm(*fn, r.d, "fear");
    if (!fm.ok()) {
      ok = false;
    } else {
      ChargeRecord::Fear f;
      need(r.flag(fm.required("exempt"), "fear exempt"), f.exempt);
      if (const Doc* fd = fm.required("dice")) {
        if (!fd->is_sequence() || fd->items.size() > 2) {
          r.d.error(fd->where, "expected at most two dice for the gut check's dice, e.g. [3, 5]");
          ok = false;
        } else {
          for (const Doc& item : fd->items) {
            auto v = r.num(&item, "a die", 1, 6);
            if (v) f.dice.push_back(*v);
            else ok = false;
          }
        }
      } else {
        ok = false;
      }
      need(r.num(fm.required("need"), "fear need", -1000, 1000), f.need);
      need(r.flag(fm.required("passed"), "fear passed"), f.passed);
      need(r.flag(fm.required("refuge"), "fear refuge"), f.refuge);
      fm.finish();
      ok = ok && fm.ok();
      c.fear = f;
    }
  }
  if (const Doc* sq = m.optional("square")) need(r.flag(sq, "square"), c.square);  // version 4
  const Doc* dn = m.optional("dice");
  if (dn || c.initiation_dice) {
    c.rolled = dn != nullptr;
    if (dn && (!dn->is_sequence() || dn->items.size() != 2)) {
      r.d.error(dn->where, "expected two dice for dice, e.g. [3, 5]");
      ok = false;
    } else if (dn) {
      for (std::size_t k = 0; k < 2; ++k) need(r.num(&dn->items[k], "a die", 1, 6), c.dice[k]);
    }
    auto src = r.choice(m.required("dice_source"), "dice_source", k_dice_source_names);
    if (src) c.dice_source = static_cast<DiceSource>(*src);
    else ok = false;
    if (const Doc* ri = m.optional("roll_index")) {
      auto v = r.u64(*ri, "roll_index");
      if (v) c.roll_index = *v;
      else ok = false;
    }
    if (const Doc* sd = m.optional("same_dice_as")) {
      auto v = r.num(sd, "same_dice_as", 1, 100000000);
      if (v) c.same_dice_as = *v;
      else ok = false;
    }
  }
  need(r.flag(m.required("stands"), "stands"), c.stands);
  need(r.str(m.required("outcome"), "outcome"), c.outcome);
  if (!ok) return std::nullopt;
  return c;
}

std::optional<StepRecord> read_step(MapReader& m, Reader& r) {
  StepRecord s;
  bool ok = true;
  auto need = [&](auto opt, auto& into) {
    if (opt) into = *opt;
    else ok = false;
  };
  if (const Doc* g = m.required("given")) {
    MapReader gm(*g, r.d, "given");
    if (!gm.ok()) {
      ok = false;
    } else {
      for (const auto& entry : g->entries) {
        if (std::find(k_step_given.begin(), k_step_given.end(), entry.key) == k_step_given.end()) {
          r.d.error(entry.key_where, "unknown answer '" + entry.key +
                                         "' in given (expected player_roll, target, distance, cover, player_hits, enemy_near or bounce)");
          ok = false;
          continue;
        }
        auto v = r.str(gm.optional(entry.key), entry.key);
        if (v) s.given[entry.key] = *v;
        else ok = false;
      }
    }
  } else {
    ok = false;
  }
  if (const Doc* dn = m.optional("dice")) {
    if (!dn->is_sequence() || dn->items.empty() || dn->items.size() > 1000) {
      r.d.error(dn->where, "expected a list of dice for dice, e.g. [3, 5]");
      ok = false;
    } else {
      for (const Doc& item : dn->items) {
        auto v = r.num(&item, "a die", 1, 6);
        if (v) s.dice.push_back(*v);
        else ok = false;
      }
    }
  }
  auto src = r.choice(m.required("dice_source"), "dice_source", k_dice_source_names);
  if (src) s.dice_source = static_cast<DiceSource>(*src);
  else ok = false;
  if (const Doc* ri = m.optional("roll_index")) {
    auto v = r.u64(*ri, "roll_index");
    if (v) s.roll_index = *v;
    else ok = false;
  }
  if (const Doc* sd = m.optional("same_dice_as")) {
    auto v = r.num(sd, "same_dice_as", 1, 100000000);
    if (v) s.same_dice_as = *v;
    else ok = false;
  }
  need(r.num(m.required("need"), "need", -1000, 1000), s.need);
  need(r.num(m.required("score"), "score", -1000, 100000), s.score);
  need(r.num(m.required("casualties"), "casualties", 0, k_max_figures), s.casualties);
  need(r.str(m.required("result"), "result"), s.result);
  if (const Doc* mo = m.optional("morale")) {
    auto c = r.choice(mo, "morale", k_morale_names);
    if (c) s.morale = static_cast<Morale>(*c);
    else ok = false;
  }
  need(r.flag(m.required("fell_back"), "fell_back"), s.fell_back);
  if (const Doc* dm = m.optional("dismounted")) need(r.flag(dm, "dismounted"), s.dismounted);  // version 4
  need(r.str(m.required("outcome"), "outcome"), s.outcome);
  if (!ok) return std::nullopt;
  return s;
}

std::optional<Event> read_event(const Doc& node, Reader& r, int expected_n) {
  std::string what = "history item " + std::to_string(expected_n);
  MapReader m(node, r.d, what);
  if (!m.ok()) return std::nullopt;
  Event e;
  e.where = node.where;
  for (const auto& entry : node.entries) {
    e.field_where[entry.key] = entry.value.where;
    if (entry.value.is_map())
      for (const auto& sub : entry.value.entries) e.field_where[entry.key + "." + sub.key] = sub.value.where;
  }
  auto n = r.num(m.required("n"), "n", 1, 100000000);
  auto turn = r.num(m.required("turn"), "turn", 1, 100000000);
  const Doc* kind_node = m.required("event");
  auto kind = r.choice(kind_node, "event", k_event_names);
  if (n && *n != expected_n) {
    r.d.error(m.node().find("n")->where, "history item " + std::to_string(expected_n) + " has n: " + std::to_string(*n) +
                                             "; events are numbered 1, 2, 3, ... in order (was one removed or moved?)");
    n.reset();
  }
  if (!n || !turn || !kind) {
    m.finish();
    return std::nullopt;
  }
  e.n = *n;
  e.turn = *turn;
  bool ok = true;
  auto unit = [&]() -> std::string {
    auto s = r.str(m.required("unit"), "unit");
    if (!s) ok = false;
    return s.value_or("");
  };
  switch (*kind) {
    case 0: {  // answer
      AnswerEvent a;
      a.unit = unit();
      auto qn = r.choice(m.required("question"), "question", k_question_names);
      if (qn) {
        a.question = static_cast<Question>(*qn);
        const Doc* v = m.required("value");
        if (is_yes_no(a.question)) {
          auto bv = r.flag(v, "value");
          if (bv) a.value = *bv;
          else ok = false;
        } else {
          auto iv = r.num(v, "value", 0, 1000000);
          if (iv) a.value = *iv;
          else ok = false;
        }
      } else {
        m.optional("value");
        ok = false;
      }
      e.body = a;
      break;
    }
    case 1: {
      CasualtiesEvent c;
      c.unit = unit();
      auto v = r.num(m.required("added"), "added", -1000000, 1000000);
      if (v) c.added = *v;
      else ok = false;
      e.body = c;
      break;
    }
    case 2: {
      ActivateEvent a;
      a.unit = unit();
      auto act = read_activation(m, r, what);
      if (act) a.a = std::move(*act);
      else ok = false;
      e.body = std::move(a);
      break;
    }
    case 3: e.body = NextTurnEvent{}; break;
    case 4: {
      auto v = r.num(m.required("undoes"), "undoes", 1, 100000000);
      if (v) e.body = UndoEvent{*v};
      else ok = false;
      break;
    }
    case 5: {
      auto v = r.num(m.required("redoes"), "redoes", 1, 100000000);
      if (v) e.body = RedoEvent{*v};
      else ok = false;
      break;
    }
    case 6: {
      auto o = r.str(m.required("old_hash"), "old_hash");
      auto h = r.str(m.required("new_hash"), "new_hash");
      if (o && h) e.body = RulesetEvent{*o, *h};
      else ok = false;
      break;
    }
    case 7: {
      const Doc* o = m.required("old_seed");
      const Doc* s = m.required("new_seed");
      std::optional<std::uint64_t> ov, sv;
      if (o) ov = r.u64(*o, "old_seed");
      if (s) sv = r.u64(*s, "new_seed");
      if (ov && sv) e.body = SeedEvent{*ov, *sv};
      else ok = false;
      break;
    }
    case 8: {
      MoraleEvent me;
      me.unit = unit();
      auto mo = r.choice(m.required("morale"), "morale", k_morale_names);
      if (mo) me.morale = static_cast<Morale>(*mo);
      else ok = false;
      me.reason = r.str(m.optional("reason"), "reason").value_or("");
      e.body = me;
      break;
    }
    case 10: {
      ChargeAnswerEvent ca;
      ca.unit = unit();
      auto f = r.choice(m.required("field"), "field", k_charge_fields);
      if (f) ca.field = std::string(k_charge_fields[*f]);
      else ok = false;
      auto v = r.str(m.required("value"), "value");
      if (v) ca.value = *v;
      else ok = false;
      e.body = std::move(ca);
      break;
    }
    case 9: {
      ChargeEvent ce;
      ce.unit = unit();
      auto c = read_charge(m, r);
      if (c) ce.c = std::move(*c);
      else ok = false;
      e.body = std::move(ce);
      break;
    }
    case 11: {
      auto st = read_step(m, r);
      if (st) e.body = InitiativeEvent{std::move(*st)};
      else ok = false;
      break;
    }
    case 12:
    case 13:
    case 14: {
      std::string u = unit();
      auto st = read_step(m, r);
      if (!st) {
        ok = false;
        break;
      }
      if (*kind == 12) e.body = ShootingEvent{u, std::move(*st)};
      else if (*kind == 13) e.body = MeleeEvent{u, std::move(*st)};
      else e.body = RallyEvent{u, std::move(*st)};
      break;
    }
    default: ok = false;
  }
  m.finish();
  if (!ok) return std::nullopt;
  return e;
}

// Compares the memory written in the file with the one the history gives.
void compare_docs(const Doc& expected, const Doc& actual, const std::string& path, Diagnostics& d) {
  static const std::string k_tail =
      " (memory is derived from the history: change the game with `vedette solo` commands such as undo and "
      "casualties, or delete the whole memory section and it is written again)";
  if (expected.kind != actual.kind) {
    d.error(actual.where, path + ": expected " + expected.kind_name() + ", found " + actual.kind_name() + k_tail);
    return;
  }
  switch (expected.kind) {
    case Doc::Kind::null: return;
    case Doc::Kind::scalar:
      if (expected.scalar != actual.scalar)
        d.error(actual.where, path + " is " + actual.scalar + " but the history gives " + expected.scalar + k_tail);
      return;
    case Doc::Kind::sequence:
      if (expected.items.size() != actual.items.size()) {
        d.error(actual.where, path + " has " + std::to_string(actual.items.size()) + " items but the history gives " +
                                  std::to_string(expected.items.size()) + k_tail);
        return;
      }
      for (std::size_t k = 0; k < expected.items.size(); ++k)
        compare_docs(expected.items[k], actual.items[k], path + "[" + std::to_string(k + 1) + "]", d);
      return;
    case Doc::Kind::map:
      for (const auto& e : expected.entries) {
        const Doc* a = actual.find(e.key);
        if (!a) d.error(actual.where, path + ": missing key '" + e.key + "'" + k_tail);
        else compare_docs(e.value, *a, path + "." + e.key, d);
      }
      for (const auto& a : actual.entries)
        if (!expected.find(a.key)) d.error(a.key_where, path + ": unknown key '" + a.key + "'" + k_tail);
      return;
  }
}

}  // namespace

Session Session::load(const fs::path& path) {
  const std::string file = path.string();
  std::string raw;
  {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw LoadError({file, 0, 0}, "no such session file");
    if (fs::is_directory(path, ec)) throw LoadError({file, 0, 0}, "is a folder; expected a session file");
    if (fs::file_size(path, ec) > k_max_file_bytes)
      throw LoadError({file, 0, 0}, "file too large for a session (the limit is " + std::to_string(k_max_file_bytes) + " bytes)");
    try {
      raw = read_whole_file(path);
    } catch (const AtomicWriteError& e) {
      throw LoadError({file, 0, 0}, e.what());
    }
  }
  Doc root = parse_yaml(raw, file);
  if (!root.is_map())
    throw LoadError(root.where, "not a Vedette session: expected a map with format: vedette-session, found " +
                                    std::string(root.kind_name()));
  Diagnostics d;
  Reader r{d};
  MapReader top(root, d, "the session");
  // Format and version first: a different file gets one clear message.
  const Doc* fmt = top.optional("format");
  if (!fmt || !fmt->is_scalar() || fmt->scalar != k_format)
    throw LoadError(fmt ? fmt->where : root.where,
                    "not a Vedette session: expected 'format: vedette-session'" +
                        std::string(fmt && fmt->is_scalar() ? ", found '" + fmt->scalar + "'" : ""));
  const Doc* ver = top.required("version");
  int version = k_version;
  if (ver) {
    auto v = read_int(*ver, d, "version", 1, 1000000);
    if (v && *v > k_version)
      throw LoadError(ver->where, "session version " + std::to_string(*v) + " was written by a newer vedette; this one reads version " +
                                      std::to_string(k_version));
    if (v) version = static_cast<int>(*v);
  }

  Header h;
  if (const Doc* rs = top.required("ruleset")) {
    MapReader rm(*rs, d, "ruleset");
    if (auto p = r.str(rm.required("path"), "ruleset path")) h.ruleset_path = *p;
    if (auto hh = r.str(rm.required("hash"), "ruleset hash")) h.ruleset_hash = *hh;
    rm.finish();
  }
  if (const Doc* s = top.required("seed"))
    if (auto v = r.u64(*s, "seed")) h.seed = *v;
  if (auto pd = r.flag(top.required("physical_dice"), "physical_dice")) h.physical_dice = *pd;
  if (auto md = r.choice(top.optional("module"), "module", k_module_names)) h.module = std::string(k_module_names[*md]);
  if (const Doc* us = top.required("units")) {
    if (!us->is_sequence() || us->items.empty()) {
      d.error(us->where, "expected a list of one or more units, found " + std::string(us->kind_name()));
    } else if (us->items.size() > k_max_units) {
      d.error(us->items[k_max_units].where, "too many units: a session holds at most " + std::to_string(k_max_units));
    } else {
      for (const Doc& u : us->items) {
        MapReader um(u, d, "a unit");
        UnitSpec spec;
        auto name = r.str(um.required("name"), "unit name");
        auto type = r.str(um.required("type"), "unit type");
        auto raw_flag = r.flag(um.optional("raw"), "raw");
        auto hero = r.flag(um.optional("hero"), "hero");
        auto figs = r.num(um.required("figures"), "figures", 1, k_max_figures);
        auto weight = r.choice(um.optional("weight"), "weight", k_attacker_weight_names);
        const Doc* weapon_node = um.optional("weapon");
        auto weapon = r.str(weapon_node, "weapon");
        if (weapon_node && version < 3)
          d.error(weapon_node->where, "weapon is a field of session version 3, but this file says version " + std::to_string(version));
        um.finish();
        if (!name || !type || !figs) continue;
        if (name->empty()) {
          d.error(u.where, "a unit needs a name");
          continue;
        }
        for (const auto& other : h.units)
          if (other.name == *name) d.error(u.where, "two units are named '" + *name + "'");
        spec.name = *name;
        spec.type = *type;
        spec.raw = raw_flag.value_or(false);
        spec.hero = hero.value_or(false);
        spec.figures = *figs;
        if (weight) spec.weight = std::string(k_attacker_weight_names[*weight]);
        if (weapon) spec.weapon = *weapon;
        h.units.push_back(spec);
      }
    }
  }
  const Doc* memory = top.optional("memory");
  std::vector<Event> events;
  if (const Doc* hist = top.required("history")) {
    if (!hist->is_sequence()) {
      d.error(hist->where, "expected a list of events for history, found " + std::string(hist->kind_name()));
    } else {
      // Each item is freed once read: the tree and the events it becomes
      // are not held in full at once.
      events.reserve(hist->items.size());
      int k = 0;
      for (Doc& item : root.find("history")->items) {
        ++k;
        if (auto e = read_event(item, r, k)) events.push_back(std::move(*e));
        item = Doc{};
      }
    }
  }
  // A version 3 file holds no field of version 4.
  if (version < 4)
    for (const Event& e : events)
      if (needs_version_4(e)) {
        const char* field = std::holds_alternative<ActivateEvent>(e.body)   ? "facts.on_foot"
                            : std::holds_alternative<ShootingEvent>(e.body) ? "dismounted"
                            : std::holds_alternative<ChargeEvent>(e.body)   ? (std::get<ChargeEvent>(e.body).c.fear ? "fear" : "square")
                            : std::holds_alternative<MeleeEvent>(e.body)    ? "given"
                                                                            : "field";
        auto at = e.field_where.find(field);
        d.error(at != e.field_where.end() ? at->second : e.where,
                std::string(field) + " is a field of session version 4, but this file says version " + std::to_string(version));
      }
  // A version 2 file holds no event of version 3.
  if (version < 3)
    for (const Event& e : events)
      if (needs_version_3(h, e))
        d.error(e.where, std::string(turn_step_of(e.body) ? "the " + std::string(e.kind()) + " event" : "morale: routed") +
                             " is of session version 3, but this file says version " + std::to_string(version));
  // A version 1 file holds no field of version 2.
  if (version < 2)
    for (const Event& e : events) {
      const char* field = nullptr;
      if (const auto* a = std::get_if<ActivateEvent>(&e.body); a && !a->a.charge_refused.empty()) field = "charge_refused";
      if (const auto* c = std::get_if<ChargeEvent>(&e.body); c && c->c.initiation_dice) field = "initiation";
      if (!field) continue;
      auto at = e.field_where.find(field);
      d.error(at != e.field_where.end() ? at->second : e.where,
              std::string(field) + " is a field of session version 2, but this file says version " + std::to_string(version));
    }
  top.finish();
  d.throw_if_any();
  // The tree has been read: free it (all but the memory, checked below)
  // before the replay builds the state.
  std::optional<Doc> memory_doc;
  if (memory) memory_doc = std::move(*root.find("memory"));
  root = Doc{};

  // Replay: every event must fit the state the ones before it made. The
  // events are moved in first, not copied one by one (an event refers only
  // to events before it, all applied by then).
  Session s(path, std::move(h));
  s.history_ = std::move(events);
  for (const Event& e : s.history_) {
    try {
      s.apply(e);
    } catch (const SessionError& err) {
      auto at = e.field_where.find(err.field);
      throw LoadError(at != e.field_where.end() ? at->second : e.where, "history #" + std::to_string(e.n) + " (" + std::string(e.kind()) + "): " + err.what());
    }
  }
  if (memory_doc) {
    Doc expected = parse_yaml(memory_text(s.header_, s.state_, s.next_roll_), file);
    compare_docs(*expected.find("memory"), *memory_doc, "memory", d);
    d.throw_if_any();
  }
  s.disk_text_ = std::move(raw);
  return s;
}

}  // namespace vedette::solo
