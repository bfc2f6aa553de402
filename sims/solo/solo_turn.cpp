#include "sims/solo/solo_turn.hpp"
#include "engine/core/words.hpp"

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <regex>
#include <sstream>
#include <system_error>

#include "engine/core/builtin_tables.hpp"
#include "engine/core/content_hash.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "engine/decision/ruleset_doc.hpp"
#include "engine/procedures/combat.hpp"
#include "sims/io/atomic_file.hpp"
#include "sims/solo/solo_module.hpp"
#include "sims/solo/solo_shot.hpp"
#include "sims/solo/session_text.hpp"

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
  // Reading a session replays its charges and its other steps on the
  // procedures they were made by; under a changed ruleset they stand as
  // recorded (the note says so).
  if (!out.changed) {
    replay_charges(s, *out.rules);
    replay_steps(s, *out.rules);
  }
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

Answers known_answers(const UnitMemory& m, int turn) {
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
  return known;
}

std::vector<Question> unasked_questions(const UnitMemory& m, int turn) {
  const Answers known = known_answers(m, turn);
  std::vector<Question> out;
  for (std::size_t k = 0; k < k_question_count; ++k)
    if (!known[static_cast<Question>(k)]) out.push_back(static_cast<Question>(k));
  return out;
}

std::optional<Question> next_question(const Ruleset& r, const UnitSpec& spec, const UnitMemory& m, int figures_left,
                                      int turn) {
  // Turn 1: the Actions Table is rolled in step 1, before any movement or
  // melee of the scenario, so "retreating as a result of melee?" is known
  // to be no (whatever combat.charge.first_turn says): not asked, and not
  // counted either way when deciding whether the other questions matter.
  const Answers known = known_answers(m, turn);
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
  if (const SoloModule* sm = find_solo_module(s.header().module)) {
    // The module's terms (sims/solo/solo_module.hpp). A module that fights
    // its charge by its own rulebook (an ASL Charge is declared and fought
    // on the board, 13.6) is not asked seed 003's charge form.
    a.instruction = sm->instruction(r, d, us);
    if (!sm->table_steps) a.charge_possible = false;
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
  // Seed 002 L25, said with the move it limits (issue 28): on horse (a unit
  // on foot returned above), on the tabletop (a module moves by its own
  // rulebook).
  if (!find_solo_module(s.header().module))
    if (const std::string t = turning_note(r, d); !t.empty()) {
      // Beside the move, before the "Charge?" that follows it.
      const std::size_t at = a.instruction.find(" Charge?");
      a.instruction.insert(at == std::string::npos ? a.instruction.size() : at, " " + t);
    }
  return a;
}

std::optional<ChargeRefusal> charge_refusal(const Ruleset& r, const Session& s, std::size_t unit) {
  const UnitMemory& m = s.memory(unit);
  return declaration_refusal(r, s.state().turn, m.morale == Morale::steady, m.charged_last_turn);
}

std::optional<ChargeRefusal> target_refusal(const Ruleset& r, const Session& s, std::size_t unit, bool target_visible) {
  // The engine's gate (charge_gate, engine/decision/charge.hpp) with the
  // facts declaration_refusal gives it, and the target's sight (seed 003 L34).
  const UnitMemory& m = s.memory(unit);
  ChargeGateInput in;
  in.when = ChargeWhen::declare;
  in.turn = s.state().turn;
  in.first_turn_allowed = r.combat.charge.first_turn;
  in.good_order = m.morale == Morale::steady;
  in.charged_last_turn = m.charged_last_turn;
  in.target_visible = target_visible;
  const ChargeGate g = charge_gate(in);
  if (g.allowed) return std::nullopt;
  return ChargeRefusal{g.rule, g.why};
}

namespace {

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

namespace {
// " (did you mean 'W'?)" for the word nearest to `key` among `keys`
// (compared as keys, shown as written in `shown_as`), or "".
std::string did_you_mean(const std::string& key, const std::vector<std::string>& keys, const std::vector<std::string>& shown_as) {
  const std::string near = nearest(key, keys);
  for (std::size_t i = 0; i < keys.size() && !near.empty(); ++i)
    if (keys[i] == near) return " (did you mean '" + shown_as[i] + "'?)";
  return "";
}
}  // namespace

std::optional<DefenderClass> parse_defender(const std::string& text, std::string& why) {
  auto k = pick(text, k_defender_class_names, why);
  if (!k) return std::nullopt;
  return static_cast<DefenderClass>(*k);
}

std::optional<DefenderClass> parse_defender(const Ruleset& r, const std::string& text, std::string& why) {
  const std::string t = defender_word_key(text);
  std::vector<std::size_t> starts;
  for (std::size_t c = 0; c < k_defender_class_names.size(); ++c) {
    const auto cls = static_cast<DefenderClass>(c);
    bool begins = false;
    for (const std::string& w : defender_words(r.charge.row(cls), cls)) {
      const std::string key = defender_word_key(w);
      if (key == t) return cls;
      begins = begins || (!t.empty() && key.compare(0, t.size(), t) == 0);
    }
    if (begins) starts.push_back(c);
  }
  // An unambiguous beginning is enough at the table ("line" for "line
  // infantry", "heavy-f" for heavy-foot); an ambiguous one says which.
  if (starts.size() == 1) return static_cast<DefenderClass>(starts[0]);
  auto shown = [&](std::size_t c) { return r.charge.row(static_cast<DefenderClass>(c)).text; };
  if (starts.size() > 1) {
    std::string could;
    for (std::size_t i = 0; i < starts.size(); ++i)
      could += std::string(i == 0 ? "" : i + 1 == starts.size() ? " or " : ", ") + "'" + shown(starts[i]) + "'";
    why = "'" + text + "' could be " + could + ": type more of it";
    return std::nullopt;
  }
  std::string others;
  std::vector<std::string> keys, shown_as;  // every word, as compared and as written
  for (std::size_t c = 0; c < k_defender_class_names.size(); ++c) {
    const auto cls = static_cast<DefenderClass>(c);
    for (const std::string& w : r.charge.table[c].words) others += (others.empty() ? "" : ", ") + w;
    for (const std::string& w : defender_words(r.charge.row(cls), cls)) {
      keys.push_back(defender_word_key(w));
      shown_as.push_back(w);
    }
  }
  const std::string mean = did_you_mean(t, keys, shown_as);
  why = "'" + text + "' is not a class of the unit charged" + mean + ": say " + defender_choices(r) +
        (others.empty() ? std::string() : " (or: " + others + ")");
  return std::nullopt;
}

// The words a unit type answers to: its name's parts, the ruleset's
// unit_types.*.words (a house rule that extends a vocabulary keeps them:
// tables/vocabulary/), its id.
std::vector<std::string> unit_type_words(const Ruleset&, const UnitType& t) {
  std::vector<std::string> out = defender_text_parts(t.name);
  out.insert(out.end(), t.words.begin(), t.words.end());
  out.push_back(dashed(t.id));
  return out;
}

std::optional<std::string> parse_unit_type(const Ruleset& r, const std::string& text, std::string& why) {
  const std::string t = defender_word_key(text);
  std::vector<std::string> keys, shown_as, starts;  // every word, as compared and as written
  std::string listed;
  for (const UnitType& type : r.unit_types) {
    bool begins = false;
    const std::vector<std::string> words = unit_type_words(r, type);
    for (const std::string& w : words) {
      const std::string key = defender_word_key(w);
      if (key == t) return type.id;
      begins = begins || (!t.empty() && key.compare(0, t.size(), t) == 0);
      keys.push_back(key);
      shown_as.push_back(w);
    }
    if (begins) starts.push_back(type.id);
    std::string mine;
    for (const std::string& w : words) mine += (mine.empty() ? "" : ", ") + w;
    listed += (listed.empty() ? "" : "; ") + mine;
  }
  // An unambiguous beginning is enough, as for the defender classes.
  if (starts.size() == 1) return starts[0];
  if (starts.size() > 1) {
    std::string could;
    for (std::size_t i = 0; i < starts.size(); ++i)
      could += std::string(i == 0 ? "" : i + 1 == starts.size() ? " or " : ", ") + "'" + r.find_unit_type(starts[i])->name + "'";
    why = "'" + text + "' could be " + could + ": type more of it";
    return std::nullopt;
  }
  const std::string mean = did_you_mean(t, keys, shown_as);
  why = "unknown unit type '" + text + "'" + mean + ": say " + listed;
  return std::nullopt;
}

std::string pikes_words(const Ruleset& r) { return r.charge.pikes_words; }

std::string defender_choices(const Ruleset& r) {
  std::string out;
  const std::size_t n = k_defender_class_names.size();
  for (std::size_t c = 0; c < n; ++c)
    out += std::string(c == 0 ? "" : c + 1 == n ? " or " : "; ") + r.charge.table[c].text;
  return out;
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

// ------------------------------------------------------------ the shot
// The cavalry's shot as one procedure (sims/solo/solo_shot.hpp): its
// questions in one order, with the conditions under which each is asked.

namespace {

ShotNeed shot_done(ShotNeed n) {
  n.kind = ShotNeed::Kind::done;
  n.question.clear();
  n.help.clear();
  return n;
}

}  // namespace

ShotNeed shot_next(const Ruleset& r, const Session& s, std::size_t unit, const ShotAnswers& a) {
  const std::string& name = s.header().units[unit].name;
  const ShootingChance c = shooting_chance(r, s, unit);
  const LengthUnit u = r.units;
  ShotNeed n;
  n.shoot.unit = name;
  n.shoot.no_target = true;
  if (!c.weapon) {
    n.why = c.why_not;
    return shot_done(n);
  }
  // Seed 002: uncommanded units shoot only at the nearest enemy they can
  // see, within the weapon's reach and in the arc.
  if (!a.target) {
    n.kind = ShotNeed::Kind::target;
    n.question = shooting_question(r, s, unit);
    n.help = shooting_help(r, s, unit);
    return n;
  }
  if (!*a.target) return shot_done(n);
  if (!a.distance) {
    n.kind = ShotNeed::Kind::distance;
    n.question = "How far is the nearest enemy it can see, front to front (in " + std::string(unit_name(u)) + ", or give a unit)?";
    n.help = "Measure from its front edge to the nearest figure of the nearest enemy it can see: the distance picks the weapon's "
             "range band (beyond its reach of " + format_length_table(c.reach, u) + " it has no target).";
    return n;
  }
  const Length distance = *a.distance;
  const std::optional<ShotPlan> open = solo_shot(r, s, unit, distance, false);
  if (!open) {
    // Beyond its reach: then it has no target (the answer to the first
    // question was no). The answer as given, exactly: rounded to the tape
    // it could read as the reach itself.
    n.why = format_length(distance, u) + " is beyond its reach of " + format_length_table(c.reach, u);
    return shot_done(n);
  }
  n.in_reach = true;
  n.shoot.no_target = false;
  n.shoot.at = distance;
  n.shoot.distance = format_length(distance, u);
  // Cover only when it can still matter: a die that cannot hit in the open
  // cannot hit in cover either.
  const bool cover_matters = open->need <= 6;
  if (cover_matters && !a.cover) {
    n.kind = ShotNeed::Kind::cover;
    n.dice = open->dice;
    n.need = open->need;
    n.question = "Is that enemy in cover, as " + name + " sees it?";
    n.help = "Cover: woods, buildings, a wall or hedge between the shooter and the target, or the target in them. "
             "Each level of cover adds " + std::to_string(r.combat.shooting.cover_penalty) + " to the score needed.";
    return n;
  }
  n.shoot.cover = cover_matters && *a.cover;
  const std::optional<ShotPlan> plan = solo_shot(r, s, unit, distance, n.shoot.cover);
  n.dice = plan->dice;
  n.need = plan->need;
  n.rolled_before = s.step_dice_for(TurnStep::shooting, unit, s.state().turn).has_value();
  if (plan->need > 6) return shot_done(n);  // no die can hit: no dice, no hit
  if (!a.hits && !a.rolled) {
    n.kind = ShotNeed::Kind::dice;
    n.question = "Roll " + std::to_string(plan->dice) + " D6 for " + name + ", each hitting on " + std::to_string(plan->need) +
                 "+, and enter the number of hits:";
    n.help = "Roll the dice for the cavalry's shot and count those showing the score or more: each is a hit on your unit.";
    return n;
  }
  int hits = 0;
  if (a.hits) {
    if (*a.hits < 0 || *a.hits > plan->dice)
      throw std::out_of_range(std::to_string(*a.hits) + " hits of " + std::to_string(plan->dice) + " dice");
    hits = *a.hits;
    n.shoot.hits = hits;
  } else {
    // The session's dice, as the shot will take them (session_step_dice:
    // the same dice after an undo).
    for (int d : session_step_dice(s, TurnStep::shooting, unit, plan->dice).dice) hits += d >= plan->need;
  }
  n.hits = hits;
  // Where its losses fall depends on what it is (seed 002 L35: a hit on a
  // mounted figure is on the horse or the rider): asked when it hit.
  if (hits > 0) {
    if (!a.mounted) {
      n.kind = ShotNeed::Kind::mounted;
      n.question = shot_target_question();
      n.help = shot_target_help();
      return n;
    }
    n.shoot.mounted = *a.mounted;
  }
  return shot_done(n);
}

}  // namespace vedette::solo
