#include "sims/solo_turn.hpp"

#include <algorithm>
#include <system_error>

#include "engine/builtin_tables.hpp"
#include "engine/content_hash.hpp"
#include "engine/diagnostics.hpp"
#include "sims/atomic_file.hpp"

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

std::optional<Question> next_question(const Ruleset& r, const UnitSpec& spec, const UnitMemory& m, int figures_left) {
  for (std::size_t k = 0; k < k_question_count; ++k) {
    auto q = static_cast<Question>(k);
    if (m.pending[q]) continue;
    if (question_matters(r, spec, m, figures_left, m.pending, q)) return q;
  }
  return std::nullopt;
}

std::string question_text(const Ruleset& r, Question q, const std::string& unit) {
  const std::string its = unit + (!unit.empty() && (unit.back() == 's' || unit.back() == 'S') ? "'" : "'s");
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
  Situation sit = situation(spec, m, answers);
  Facts facts(sit);
  RiskFactor rf = compute_rf(r, facts);
  UnitState us;
  us.type = r.find_unit_type(spec.type);
  us.pace = m.pace;
  us.gallop_streak = m.gallop_streak;
  Decision d = decide(r, rf.total, die.roll, us);

  Activation a;
  a.hero = spec.hero;
  a.raw = spec.raw;
  a.pace_before = m.pace;
  a.gallop_streak_before = m.gallop_streak;
  a.ran_last_turn = m.ran_last_turn;
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
  a.note = adjustment_note(r, d, us);
  return a;
}

}  // namespace vedette::solo
