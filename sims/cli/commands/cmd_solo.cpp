// `vedette solo`: a solo game's session. `new` creates it, `play` is the
// interactive loop (sims/cli/solo_play.cpp), and the same steps are single
// commands for scripts and other front ends: activate, status, log, undo,
// redo, next-turn, casualties, morale. docs/solo.md describes the file.
#include <algorithm>
#include <cctype>
#include <memory>
#include <ostream>
#include <system_error>

#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "sims/io/atomic_file.hpp"
#include "sims/cli/cli.hpp"
#include "sims/cli/solo_cli.hpp"
#include "sims/cli/solo_play.hpp"

namespace vedette::cli {

namespace {

using namespace solo_cli;
namespace fs = std::filesystem;

constexpr int k_default_figures = 12;

std::string trim(std::string s) {
  auto sp = [](unsigned char c) { return std::isspace(c) != 0; };
  while (!s.empty() && sp(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t k = 0;
  while (k < s.size() && sp(static_cast<unsigned char>(s[k]))) ++k;
  return s.substr(k);
}

// Runs a solo command, turning session problems into exit 2 and a failed
// write into exit 1 (the file is then unchanged).
Runner guarded(std::function<int(Io&)> f) {
  return [f = std::move(f)](Io& io) {
    try {
      return f(io);
    } catch (const SessionError& e) {
      io.err << "vedette: " << e.what() << "\n";
      return 2;
    } catch (const WriteFailed& e) {
      io.err << "vedette: " << e.what() << " (the session file is unchanged)\n";
      return 1;
    }
  };
}

// ------------------------------------------------------------------- new

struct UnitParse {
  UnitSpec spec;
  bool figures_given = false;
};

UnitParse parse_unit(const std::string& text, const Ruleset& r) {
  const std::string form =
      "expected NAME:TYPE[,raw][,hero][,figures=N][,light|medium|heavy][,weapon=W], e.g. \"Lancers:shock,hero,figures=12,heavy\"";
  auto colon = text.find(':');
  if (colon == std::string::npos) throw UsageError("--unit '" + text + "': " + form);
  UnitParse out;
  out.spec.name = trim(text.substr(0, colon));
  if (out.spec.name.empty()) throw UsageError("--unit '" + text + "': the unit needs a name; " + form);
  if (!printable_utf8(out.spec.name))
    throw UsageError("--unit: a unit name must be printable text (UTF-8, no control characters)");
  std::vector<std::string> parts;
  std::string rest = text.substr(colon + 1);
  std::size_t start = 0;
  while (true) {
    auto comma = rest.find(',', start);
    parts.push_back(trim(rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::string type = normalise_type(parts[0]);
  if (type.empty()) throw UsageError("--unit '" + text + "': the unit needs a type; " + form);
  std::vector<std::string> ids;
  std::string list;
  for (const auto& t : r.unit_types) {
    ids.push_back(t.id);
    list += (list.empty() ? "" : ", ") + t.id;
  }
  if (!r.find_unit_type(type))
    throw UsageError("--unit '" + text + "': unknown unit type '" + parts[0] + "'" + did_you_mean(type, ids) +
                     " (the ruleset has: " + list + ")");
  out.spec.type = type;
  out.spec.figures = k_default_figures;
  for (std::size_t k = 1; k < parts.size(); ++k) {
    const std::string& p = parts[k];
    auto dup = [&](const char* what) { throw UsageError("--unit '" + text + "': " + what + " given twice"); };
    if (p == "raw") {
      if (out.spec.raw) dup("raw");
      out.spec.raw = true;
    } else if (p == "hero") {
      if (out.spec.hero) dup("hero");
      out.spec.hero = true;
    } else if (p == "light" || p == "medium" || p == "heavy" || p.rfind("weight=", 0) == 0) {
      std::string w = p.rfind("weight=", 0) == 0 ? p.substr(7) : p;
      if (!out.spec.weight.empty()) dup("weight");
      if (w != "light" && w != "medium" && w != "heavy")
        throw UsageError("--unit '" + text + "': weight must be light, medium or heavy, got '" + w + "'");
      out.spec.weight = w;
    } else if (p.rfind("weapon=", 0) == 0) {
      if (!out.spec.weapon.empty()) dup("weapon");
      std::string w = p.substr(7);
      std::vector<std::string> weapons;
      std::string names;
      for (const Weapon& x : r.weapons) {
        weapons.push_back(x.id);
        names += (names.empty() ? "" : ", ") + x.id;
      }
      if (w != "none" && std::find(weapons.begin(), weapons.end(), w) == weapons.end())
        throw UsageError("--unit '" + text + "': unknown weapon '" + w + "'" + did_you_mean(w, weapons) +
                         " (the ruleset has: " + names + ", or none)");
      if (w != "none") out.spec.weapon = w;
    } else if (p.rfind("figures=", 0) == 0) {
      if (out.figures_given) dup("figures");
      auto n = parse_int(p.substr(8));
      if (!n || *n < 1 || *n > k_max_figures)
        throw UsageError("--unit '" + text + "': figures must be a whole number from 1 to " +
                         std::to_string(k_max_figures) + ", got '" + p.substr(8) + "'");
      out.spec.figures = static_cast<int>(*n);
      out.figures_given = true;
    } else {
      std::string key = p.substr(0, p.find('='));
      throw UsageError("--unit '" + text + "': unknown option '" + p + "'" +
                       did_you_mean(key, {"raw", "hero", "figures", "weight", "light", "medium", "heavy", "weapon"}) + "; " + form);
    }
  }
  return out;
}

struct NewOptions {
  std::string game;
  std::string ruleset;
  std::vector<std::string> units;
  std::optional<std::uint64_t> seed;
  bool physical = false;
  bool force = false;
  bool json = false;
  std::string module;
};

int run_new(const NewOptions& o, Io& io) {
  if (o.units.size() > k_max_units)
    throw UsageError("--unit: " + std::to_string(o.units.size()) + " units; a session holds at most " + std::to_string(k_max_units));
  fs::path path = session_path(o.game);
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw UsageError(path.string() + " is a folder; give a file name for the session");
  if (fs::exists(path, ec) && !o.force)
    throw UsageError(path.string() + " already exists; nothing was written (add --force to replace it and lose its game)");
  fs::path dir = path.parent_path();
  if (!dir.empty() && !fs::is_directory(dir, ec))
    throw UsageError("the folder " + dir.string() + " does not exist; nothing was written");

  std::string given = o.ruleset.empty() ? "builtin:default" : o.ruleset;
  RulesetPtr rules = load_ruleset(given);
  Header h;
  h.ruleset_path = record_ruleset_path(path, given);
  if (!printable_utf8(h.ruleset_path)) throw UsageError("--ruleset: the path must be printable UTF-8 text");
  h.ruleset_hash = ruleset_hash(*rules);
  h.seed = o.seed ? *o.seed : fresh_seed();
  h.physical_dice = o.physical;
  h.module = o.module;
  std::vector<bool> assumed;
  for (const auto& text : o.units) {
    UnitParse u = parse_unit(text, *rules);
    for (const auto& other : h.units) {
      std::string a = other.name, b = u.spec.name;
      std::transform(a.begin(), a.end(), a.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      std::transform(b.begin(), b.end(), b.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (a == b) throw UsageError("--unit: two units are named '" + u.spec.name + "' (names must differ, ignoring case)");
    }
    h.units.push_back(u.spec);
    assumed.push_back(!u.figures_given);
  }
  Session s(path, h);
  try {
    s.save(o.force);
  } catch (const SessionError& e) {
    throw UsageError(e.what());
  } catch (const AtomicWriteError& e) {
    throw WriteFailed(e.what());
  }

  if (o.json) {
    Json j = status_json(s, std::nullopt);
    j["created"] = true;
    print_json(io.out, j);
    return 0;
  }
  io.out << "Created " << path.string() << "\n";
  io.out << "Ruleset: " << h.ruleset_path << " (" << h.ruleset_hash << ")\n";
  io.out << "Seed: " << h.seed << (o.seed ? "" : " (chosen at random; the rolls follow from it)") << "\n";
  io.out << "Dice: " << (h.physical_dice ? "you roll them and enter the result" : "rolled by vedette") << "\n";
  if (h.module == "asl") io.out << "Module: asl (instructions in ASL Cavalry terms: MF, hexes, Gallop, Charge; seed 000)\n";
  io.out << "Units:\n";
  for (std::size_t k = 0; k < h.units.size(); ++k) {
    io.out << "  " << h.units[k].name << ": " << unit_summary(s, rules.get(), k);
    if (assumed[k]) io.out << " (assumed; give figures=N for the real number)";
    io.out << "\n";
  }
  io.out << "Play it: vedette solo play " << path.string() << "\n";
  return 0;
}

// -------------------------------------------------------------- activate

struct ActivateOptions {
  std::string game, unit;
  bool cover = false, in_range = false, flank_rear = false, retreated = false;
  int casualties = 0;
  std::optional<int> roll;
  bool accept = false;
  bool json = false;
};

int run_activate(const ActivateOptions& o, Io& io) {
  Session s = open_session(o.game);
  std::size_t k = find_unit_or_throw(s, o.unit);
  const std::string& name = s.header().units[k].name;
  const UnitMemory& m = s.memory(k);
  int turn = s.state().turn;
  if (m.acted_in_turn == turn)
    throw UsageError(name + " has already acted in turn " + std::to_string(turn) + " (#" +
                     std::to_string(m.last_activation) + "); undo that activation first, or start the next turn with "
                     "`vedette solo next-turn " + o.game + "`");
  if (s.figures_left(k) <= 0) throw UsageError(name + " has no figures left");
  if (o.casualties < 0 || o.casualties > s.figures_left(k))
    throw UsageError("--casualties " + std::to_string(o.casualties) + ": " + name + " has " +
                     std::to_string(s.figures_left(k)) + " figures left");
  SessionRules sr = rules_for_change(s, o.accept, io);

  Die die;
  auto rolled = s.die_for(k, turn);
  if (o.roll) {
    if (rolled) {
      int before = std::get<ActivateEvent>(s.event(*rolled).body).a.roll;
      if (before != *o.roll)
        throw UsageError("vedette already rolled " + std::to_string(before) + " for " + name + " in turn " +
                         std::to_string(turn) + " (#" + std::to_string(*rolled) +
                         "); after an undo the same die is used: leave out --roll");
      die = session_die(s, k);
    } else {
      die.roll = *o.roll;
      die.dice = DiceSource::player;
    }
  } else {
    if (s.header().physical_dice && !rolled)
      throw UsageError("this session uses physical dice: roll a D6 and give it with --roll N");
    die = session_die(s, k);
  }
  Answers answers;
  answers[Question::in_cover] = o.cover;
  answers[Question::enemy_in_range] = o.in_range;
  answers[Question::enemy_flank_rear] = o.flank_rear;
  // Retreating as a result of melee: the flag, or what the session knows
  // (a fall back in its own melee, or retreating and not rallied since:
  // derived_answers, as play asks it); otherwise no.
  if (o.retreated) answers[Question::retreated_from_melee] = 1;
  else if (const auto& known = s.memory(k).pending[Question::retreated_from_melee]) answers[Question::retreated_from_melee] = *known;
  Activation a = decide_activation(*sr.rules, s, k, answers, o.casualties, die);
  const Event& e = s.append(ActivateEvent{name, a});
  int n = e.n;
  save_or_throw(s);

  if (o.json) {
    Json j;
    j["file"] = s.path().string();
    j["event"] = n;
    j["turn"] = turn;
    j["unit"] = name;
    j["activation"] = activation_json(s, a);
    print_json(io.out, j);
    return 0;
  }
  io.out << name << ", turn " << turn << ":\n";
  print_rf(io.out, a);
  print_decision(io.out, s, a, name);
  io.out << "Saved as #" << n << " in " << s.path().string() << "\n";
  return 0;
}

// ---------------------------------------------------------- status / log

struct ReadOptions {
  std::string game;
  bool json = false;
};

int run_status(const ReadOptions& o, Io& io) {
  Session s = open_session(o.game);
  auto rules = rules_for_reading(s, io);
  if (o.json) {
    print_json(io.out, status_json(s, rules));
    return 0;
  }
  const Header& h = s.header();
  auto& out = io.out;
  out << "Session " << s.path().string() << ": turn " << s.state().turn << "\n";
  out << "Ruleset: " << h.ruleset_path << " (" << h.ruleset_hash;
  if (rules && rules->changed) out << "; CHANGED since, now " << rules->hash;
  out << ")\n";
  if (!h.module.empty()) out << "Module: " << h.module << " (instructions in ASL Cavalry terms, seed 000)\n";
  out << "Seed " << h.seed << ", next roll #" << s.next_roll() << "; dice "
      << (h.physical_dice ? "rolled by you" : "rolled by vedette") << "\n";
  const Ruleset* r = rules ? rules->rules.get() : nullptr;
  for (std::size_t k = 0; k < h.units.size(); ++k) {
    const UnitMemory& m = s.memory(k);
    out << "  " << h.units[k].name << ": " << unit_summary(s, r, k) << "\n";
    out << "      " << memory_summary(s, k) << "\n";
    if (m.acted_in_turn == s.state().turn) {
      const Activation& a = std::get<ActivateEvent>(s.event(m.last_activation).body).a;
      out << "      acted this turn (#" << m.last_activation << "): " << a.instruction << "\n";
      if (s.charge_pending(k))
        out << "      \"(Charge?)\" not answered yet: `vedette solo charge " << o.game << " " << h.units[k].name
            << " ...` or `vedette solo play`\n";
    } else if (s.figures_left(k) > 0) {
      out << "      to act this turn";
      if (m.pending.any()) out << " (answered: " << answers_text(m.pending) << ")";
      out << "\n";
    }
  }
  if (r) {
    // What comes next in the turn, as `solo play` walks it.
    const Step st = next_step(s, *r);
    const std::string who = st.unit < h.units.size() ? h.units[st.unit].name : "";
    out << "Next: ";
    switch (st.kind) {
      case Step::Kind::question:
      case Step::Kind::roll: out << possessive(who) << " activation (`vedette solo play`, or `solo activate`)"; break;
      case Step::Kind::charge: out << possessive(who) << " \"(Charge?)\" (`solo charge`)"; break;
      case Step::Kind::initiative: out << "the initiative (`solo initiative`)"; break;
      case Step::Kind::shooting: out << possessive(who) << " shooting (`solo shoot`)"; break;
      case Step::Kind::melee: out << possessive(who) << " melee (`solo melee`)"; break;
      case Step::Kind::rally: out << possessive(who) << " morale (`solo rally`)"; break;
      case Step::Kind::next_turn: out << "the next turn (`solo next-turn`)"; break;
      case Step::Kind::game_over: out << "nothing: every automated unit is routed or destroyed"; break;
    }
    out << "\n";
  }
  out << "Undo: ";
  if (s.undo_target()) out << s.undo_depth() << " step(s), next " << describe(s, s.event(s.undo_target()));
  else out << "nothing";
  out << "\nRedo: ";
  if (s.redo_target()) out << s.redo_depth() << " step(s), next " << describe(s, s.event(s.redo_target()));
  else out << "nothing";
  out << "\n";
  return 0;
}

int run_log(const ReadOptions& o, Io& io) {
  Session s = open_session(o.game);
  (void)rules_for_reading(s, io);
  if (o.json) {
    Json j = Json::array();
    for (const auto& e : s.history()) j.push_back(event_json(s, e));
    print_json(io.out, j);
    return 0;
  }
  io.out << "History of " << s.path().string() << " (seed " << s.header().seed << "; " << s.history().size()
         << " events, oldest first):\n";
  if (s.history().empty()) io.out << "  (nothing yet)\n";
  for (const auto& e : s.history()) io.out << "  " << describe(s, e) << "\n";
  return 0;
}

// ------------------------------------------------------------ undo / redo

struct StepOptions {
  std::string game;
  int count = 1;
  bool accept = false;
  bool json = false;
};

int run_undo_redo(const StepOptions& o, bool undo, Io& io) {
  Session s = open_session(o.game);
  std::size_t available = undo ? s.undo_depth() : s.redo_depth();
  if (static_cast<std::size_t>(o.count) > available)
    throw UsageError(std::string(undo ? "undo " : "redo ") + std::to_string(o.count) + ": only " +
                     std::to_string(available) + " step(s) can be " + (undo ? "undone" : "redone") + "; nothing was done");
  (void)rules_for_change(s, o.accept, io);
  std::vector<int> targets;
  for (int k = 0; k < o.count; ++k) {
    int t = undo ? s.undo_target() : s.redo_target();
    targets.push_back(t);
    if (undo) s.append(UndoEvent{t});
    else s.append(RedoEvent{t});
  }
  save_or_throw(s);
  if (o.json) {
    Json j;
    j["file"] = s.path().string();
    j[undo ? "undone" : "redone"] = Json::array();
    for (int t : targets) j[undo ? "undone" : "redone"].push_back(event_json(s, s.event(t)));
    j["turn"] = s.state().turn;
    print_json(io.out, j);
    return 0;
  }
  for (int t : targets) io.out << (undo ? "Undone: " : "Redone: ") << describe(s, s.event(t)) << "\n";
  io.out << "Now turn " << s.state().turn << ". (" << s.undo_depth() << " step(s) to undo, " << s.redo_depth()
         << " to redo.)\n";
  return 0;
}

// ------------------------------------------------------------- next-turn

struct NextTurnOptions {
  std::string game;
  bool accept = false;
  bool json = false;
};

int run_next_turn(const NextTurnOptions& o, Io& io) {
  Session s = open_session(o.game);
  (void)rules_for_change(s, o.accept, io);
  int ended = s.state().turn;
  std::vector<std::string> idle, no_answer;
  for (std::size_t k = 0; k < s.header().units.size(); ++k) {
    if (s.memory(k).acted_in_turn != ended && s.figures_left(k) > 0) idle.push_back(s.header().units[k].name);
    if (s.charge_pending(k)) no_answer.push_back(s.header().units[k].name);
  }
  const Event& e = s.append(NextTurnEvent{});
  int n = e.n;
  save_or_throw(s);
  if (o.json) {
    Json j;
    j["file"] = s.path().string();
    j["event"] = n;
    j["turn"] = s.state().turn;
    j["did_not_act"] = idle;
    j["charge_not_answered"] = no_answer;
    print_json(io.out, j);
    return 0;
  }
  for (const auto& name : idle)
    io.out << "Note: " << name << " did not act in turn " << ended << " (it keeps its pace and did not run).\n";
  for (const auto& name : no_answer)
    io.out << "Note: " << possessive(name) << " \"(Charge?)\" in turn " << ended << " was not answered; it lapses.\n";
  io.out << "Turn " << s.state().turn << " begins (#" << n << ").\n";
  for (std::size_t k = 0; k < s.header().units.size(); ++k)
    if (s.memory(k).ran_last_turn)
      io.out << "  " << s.header().units[k].name << " ran from the enemy last turn: +3 to its RF this turn.\n";
  return 0;
}

// ------------------------------------------------------ casualties / morale

struct CasualtyOptions {
  std::string game, unit;
  int count = 0;
  bool total = false;
  bool accept = false;
  bool json = false;
};

int run_casualties(const CasualtyOptions& o, Io& io) {
  Session s = open_session(o.game);
  std::size_t k = find_unit_or_throw(s, o.unit);
  const UnitSpec& u = s.header().units[k];
  int now = s.memory(k).casualties;
  int added = o.total ? o.count - now : o.count;
  if (now + added > u.figures)
    throw UsageError(u.name + " has " + std::to_string(u.figures) + " figures; " + std::to_string(now + added) +
                     " casualties is too many (it has lost " + std::to_string(now) + " so far)");
  (void)rules_for_change(s, o.accept, io);
  const Event& e = s.append(CasualtiesEvent{u.name, added});
  int n = e.n;
  save_or_throw(s);
  int lost = s.memory(k).casualties;
  if (o.json) {
    Json j;
    j["file"] = s.path().string();
    j["event"] = n;
    j["unit"] = u.name;
    j["added"] = added;
    j["casualties"] = lost;
    j["figures"] = u.figures;
    j["casualties_percent"] = casualty_hundredths(lost, u.figures) / 100.0;
    print_json(io.out, j);
    return 0;
  }
  io.out << u.name << ": " << lost << " of " << u.figures << " figures lost (" << unit_summary(s, nullptr, k)
         << "); recorded as #" << n << "\n";
  return 0;
}

struct MoraleOptions {
  std::string game, unit, morale, reason;
  bool accept = false;
  bool json = false;
};

int run_morale(const MoraleOptions& o, Io& io) {
  Session s = open_session(o.game);
  std::size_t k = find_unit_or_throw(s, o.unit);
  auto it = std::find(k_morale_names.begin(), k_morale_names.end(), o.morale);
  if (it == k_morale_names.end())
    throw UsageError("morale: expected steady, shaken, rallying or routed, got '" + o.morale + "'");
  if (!printable_utf8(o.reason)) throw UsageError("--reason must be printable text");
  (void)rules_for_change(s, o.accept, io);
  auto m = static_cast<Morale>(it - k_morale_names.begin());
  const Event& e = s.append(MoraleEvent{s.header().units[k].name, m, o.reason});
  int n = e.n;
  save_or_throw(s);
  if (o.json) {
    print_json(io.out, event_json(s, s.event(n)));
    return 0;
  }
  io.out << describe(s, s.event(n)) << "\n";
  return 0;
}

// ------------------------------------------- the turn's later steps
// `solo initiative`, `solo shoot`, `solo melee`, `solo rally`: the steps
// `solo play` walks after the activations, one command each for scripts and
// the web page, on the same functions (sims/solo/solo_turn.hpp).

// Prints a step's event: its outcome in words, or one JSON object.
int print_step(const Session& s, int n, bool json, Io& io) {
  if (json) {
    print_json(io.out, event_json(s, s.event(n)));
    return 0;
  }
  io.out << step_record(s.event(n).body)->outcome << "\n";
  return 0;
}

struct InitiativeOptions {
  std::string game;
  std::optional<int> total, your_roll;
  int your_charges = 0;
  std::vector<int> roll;
  bool accept = false, json = false;
};

int run_initiative(const InitiativeOptions& o, Io& io) {
  Session s = open_session(o.game);
  SessionRules sr = rules_for_change(s, o.accept, io);
  const Ruleset& r = *sr.rules;
  const int dice = r.combat.initiative.dice;
  // Seed 003: declarations come before the initiative (each is -2).
  for (std::size_t k = 0; k < s.header().units.size(); ++k)
    if (s.charge_pending(k) && !s.memory(k).charge_draft.count("charge"))
      throw UsageError(possessive(s.header().units[k].name) + " \"(Charge?)\" is not answered yet: declarations come before the "
                       "initiative (seed 003); answer it with `vedette solo charge` (or --decline) first");
  StepDice d;
  if (!o.roll.empty()) {
    if (static_cast<int>(o.roll.size()) != dice)
      throw UsageError("--roll: the initiative is " + std::to_string(dice) + " D6 (combat.initiative.dice); give " +
                       std::to_string(dice) + (dice == 1 ? " die" : " dice"));
    if (s.step_dice_for(TurnStep::initiative, Session::k_no_step_unit, s.state().turn))
      throw UsageError("the cavalry's initiative dice were already rolled this turn; they are used again (leave out --roll)");
    d = player_dice(o.roll);
  } else {
    d = session_step_dice(s, TurnStep::initiative, Session::k_no_step_unit, dice);
  }
  if (o.total.has_value() == o.your_roll.has_value())
    throw UsageError("give --total (your side's initiative) or --your-roll N [--your-charges K], not both");
  // Seed 003's -2 per declared charge, for your side too (initiative_total).
  const int total = o.total ? *o.total : initiative_total(r, *o.your_roll, o.your_charges);
  const Event& e = s.append(InitiativeEvent{resolve_initiative(r, s, total, d)});
  const int n = e.n;
  save_or_throw(s);
  return print_step(s, n, o.json, io);
}

struct ShootOptions {
  std::string game, unit, distance;
  bool no_target = false, cover = false;
  std::optional<int> hits;
  bool accept = false, json = false;
};

int run_shoot(const ShootOptions& o, Io& io) {
  Session s = open_session(o.game);
  const std::size_t k = find_unit_or_throw(s, o.unit);
  SessionRules sr = rules_for_change(s, o.accept, io);
  const Ruleset& r = *sr.rules;
  const std::string& name = s.header().units[k].name;
  const ShootingChance c = shooting_chance(r, s, k);
  if (!c.weapon) throw UsageError(name + " does not shoot this turn: " + c.why_not);
  if (o.no_target == !o.distance.empty())
    throw UsageError("give --distance L (to the nearest enemy it can see) or --no-target");
  Length distance;
  StepDice d;
  if (!o.no_target) {
    std::string why;
    auto l = parse_table_length(r, o.distance, false, why);
    if (!l) throw UsageError("--distance: " + why);
    distance = *l;
    const auto plan = solo_shot(r, s, k, distance, o.cover);
    if (!plan)
      throw UsageError("--distance " + o.distance + ": beyond " + possessive(name) + " reach of " +
                       format_length_table(c.reach, r.units) + " (then use --no-target)");
    if (o.hits && (*o.hits < 0 || *o.hits > plan->dice))
      throw UsageError("--hits: " + std::to_string(*o.hits) + " of " + std::to_string(plan->dice) + " dice");
    if (o.hits && s.step_dice_for(TurnStep::shooting, k, s.state().turn))
      throw UsageError(possessive(name) + " shooting dice were already rolled this turn; they are used again (leave out --hits)");
    if (!o.hits && plan->need <= 6) d = session_step_dice(s, TurnStep::shooting, k, plan->dice);
  }
  if (o.hits) d.source = DiceSource::player;
  const Event& e = s.append(ShootingEvent{name, resolve_shooting(r, s, k, !o.no_target, distance, o.cover, d, o.hits)});
  const int n = e.n;
  save_or_throw(s);
  return print_step(s, n, o.json, io);
}

struct MeleeOptions {
  std::string game, unit;
  std::optional<int> their_hits, hits;
  std::vector<int> square_dice;  // seed 004: the square's die faces, rolled first
  bool accept = false, json = false;
};

int run_melee(const MeleeOptions& o, Io& io) {
  Session s = open_session(o.game);
  const std::size_t k = find_unit_or_throw(s, o.unit);
  SessionRules sr = rules_for_change(s, o.accept, io);
  const Ruleset& r = *sr.rules;
  const std::string& name = s.header().units[k].name;
  if (!s.memory(k).contact) throw UsageError(name + " is in no melee this turn (melee follows its charge that stood)");
  const MeleeSide side = solo_melee_side(r, s, k);
  if (o.hits && (*o.hits < 0 || *o.hits > side.dice))
    throw UsageError("--hits: " + std::to_string(*o.hits) + " of " + std::to_string(side.dice) + " dice");
  if (o.hits && s.step_dice_for(TurnStep::melee, k, s.state().turn))
    throw UsageError(possessive(name) + " melee dice were already rolled this turn; they are used again (leave out --hits)");
  const bool square = s.memory(k).square;
  const auto& sq = r.charge.infantry_square;
  if (square && (o.square_dice.empty() || static_cast<int>(o.square_dice.size()) > sq.max_battle_dice))
    throw UsageError("--square-dice is needed: your square rolls first (seed 004), at most " + std::to_string(sq.max_battle_dice) +
                     (sq.max_battle_dice == 1 ? " die" : " dice") + "; give the face(s) it showed");
  if (!square && !o.square_dice.empty()) throw UsageError("--square-dice: " + name + " is not fighting a square this turn");
  bool bounce = false;
  for (int f : o.square_dice) {
    if (f < 1 || f > sq.die) throw UsageError("--square-dice: a face of the square's D" + std::to_string(sq.die) + ", 1 to " + std::to_string(sq.die));
    bounce = bounce || square_bounces(r.charge, f);
  }
  StepDice d;
  if (!o.hits && !(square && bounce)) d = session_step_dice(s, TurnStep::melee, k, side.dice);
  const Event& e = s.append(MeleeEvent{name, square ? resolve_square_melee(r, s, k, bounce, *o.their_hits, d, o.hits)
                                                    : resolve_melee(r, s, k, *o.their_hits, d, o.hits)});
  const int n = e.n;
  save_or_throw(s);
  return print_step(s, n, o.json, io);
}

struct RallyOptions {
  std::string game, unit;
  bool enemy_near = false;
  std::vector<int> roll;
  bool accept = false, json = false;
};

int run_rally(const RallyOptions& o, Io& io) {
  Session s = open_session(o.game);
  const std::size_t k = find_unit_or_throw(s, o.unit);
  SessionRules sr = rules_for_change(s, o.accept, io);
  const Ruleset& r = *sr.rules;
  const std::string& name = s.header().units[k].name;
  const RallyNeed need = rally_need(r, s, k);
  if (need == RallyNeed::none) throw UsageError(name + " has nothing to rally from (it is " + std::string(morale_name(s.memory(k).morale)) + ")");
  StepDice d;
  if (need == RallyNeed::rally && !o.enemy_near) {
    if (!o.roll.empty()) {
      if (s.step_dice_for(TurnStep::rally, k, s.state().turn))
        throw UsageError(possessive(name) + " rally dice were already rolled this turn; they are used again (leave out --roll)");
      d = player_dice(o.roll);
    } else {
      d = session_step_dice(s, TurnStep::rally, k, 2);
    }
  }
  const Event& e = s.append(RallyEvent{name, resolve_rally(r, s, k, o.enemy_near, d)});
  const int n = e.n;
  save_or_throw(s);
  return print_step(s, n, o.json, io);
}

// ---------------------------------------------------------------- charge

struct ChargeOptions {
  std::string game, unit;
  bool decline = false;
  std::string attacker, move, distance, defender;
  double bearing = 0;
  bool flank = false, rear = false, both_charging = false, pikes_facing = false;
  std::vector<int> roll;
  std::vector<int> initiation;
  std::vector<int> charger_roll;
  std::string path = "open";
  std::vector<int> obstacle_roll;
  bool fear_exempt = false, refuge = false, square = false;  // optional rules (seeds 001, 004)
  std::vector<int> gut_roll;
  bool accept = false;
  bool json = false;
};

int run_charge(const ChargeOptions& o, Io& io) {
  Session s = open_session(o.game);
  std::size_t k = find_unit_or_throw(s, o.unit);
  const UnitSpec& spec = s.header().units[k];
  const std::string name = spec.name;
  if (!s.charge_pending(k)) {
    const UnitMemory& m = s.memory(k);
    if (m.acted_in_turn != s.state().turn)
      throw UsageError(name + " has not acted in turn " + std::to_string(s.state().turn) +
                       "; a charge follows an activation whose behaviour says \"(Charge?)\"");
    if (m.charge_for == m.last_activation)
      throw UsageError(possessive(name) + " \"(Charge?)\" this turn has already been answered (undo it to change it)");
    const Activation& last = std::get<ActivateEvent>(s.event(m.last_activation).body).a;
    if (!last.charge_refused.empty())
      throw UsageError(name + " may not charge this turn: " + last.charge_refused + " (#" + std::to_string(m.last_activation) +
                       "'s table cell says \"(Charge?)\", but the rule forbids it)");
    throw UsageError(possessive(name) + " behaviour this turn (#" + std::to_string(m.last_activation) +
                     ") does not allow a charge: only cells marked \"(Charge?)\" do");
  }
  SessionRules sr = rules_for_change(s, o.accept, io);
  const Ruleset& r = *sr.rules;
  ChargeRecord c;
  if (o.decline) {
    if (!o.distance.empty() || !o.defender.empty() || !o.roll.empty())
      throw UsageError("--decline: the unit does not charge; leave out the charge's other flags");
    c.activation = s.memory(k).last_activation;
    c.declined = true;
  } else {
    if (o.distance.empty()) throw UsageError("--distance is needed: how far the target's nearest figure is (e.g. 45cm)");
    if (o.defender.empty())
      throw UsageError("--defender is needed: peasants, light-foot, heavy-foot, elite-foot, light-horse, medium-horse or heavy-horse");
    std::string why;
    ChargeInputs in;
    std::string weight = o.attacker.empty() ? spec.weight : o.attacker;
    if (weight.empty())
      throw UsageError("--attacker is needed: is " + name + " light, medium or heavy cavalry? (or record it with weight= in --unit)");
    auto w = parse_attacker(weight, why);
    if (!w) throw UsageError("--attacker: " + why);
    in.attacker = *w;
    if (o.move.empty()) {
      in.move = default_charge_move(r, s, k);
    } else {
      auto mv = parse_table_length(r, o.move, true, why);
      if (!mv) throw UsageError("--move: " + why);
      in.move = *mv;
    }
    auto ds = parse_table_length(r, o.distance, false, why);
    if (!ds) throw UsageError("--distance: " + why);
    in.distance = *ds;
    auto br = parse_bearing(std::to_string(o.bearing), why);
    if (!br) throw UsageError("--bearing: " + why);
    in.bearing = o.bearing;
    auto df = parse_defender(o.defender, why);
    if (!df) throw UsageError("--defender: " + why);
    in.defender = *df;
    in.side = o.flank ? ChargedOn::flank : o.rear ? ChargedOn::rear : ChargedOn::front;
    in.both_charging = o.both_charging;
    in.pikes_facing = o.pikes_facing;
    {
      auto pa = parse_path(o.path, why);
      if (!pa) throw UsageError("--path: " + why);
      in.path = *pa;
    }
    if (o.pikes_facing && (r.charge.kind(in.defender) != DefenderKind::foot || in.side != ChargedOn::front))
      throw UsageError("--pikes-facing: only foot facing the charge (not charged in the flank or rear) carry pikes against it");
    in.fear_exempt = o.fear_exempt;
    in.refuge = o.refuge;
    in.square = o.square;
    // The optional rules' answers only where the ruleset has the rule and
    // the target is foot answering the charge (not charging too).
    const bool foot_answers = r.charge.kind(in.defender) == DefenderKind::foot && !in.both_charging;
    if ((o.fear_exempt || o.refuge || !o.gut_roll.empty()) && !(r.charge.fear_of_charge.enabled && foot_answers))
      throw UsageError(std::string("--fear-exempt, --refuge and --gut-roll answer seed 001's Fear of Charge: ") +
                       (r.charge.fear_of_charge.enabled ? "only foot not charging too takes the gut check"
                                                        : "this ruleset does not turn it on (charge.fear_of_charge.enabled)"));
    if (o.square && !(r.charge.infantry_square.enabled && foot_answers))
      throw UsageError(std::string("--square answers seed 004's Infantry Square: ") +
                       (r.charge.infantry_square.enabled ? "only foot not charging too forms square"
                                                         : "this ruleset does not turn it on (charge.infantry_square.enabled)"));
    ChargePreview pv = preview_charge(r, in);
    ChargeDice dice;
    auto earlier = s.charge_dice_for(k, s.state().turn);
    if (!o.initiation.empty() && o.initiation.size() != 2) throw UsageError("--initiation: give two dice, e.g. --initiation 4 5");
    if (!o.roll.empty() && o.roll.size() != 2) throw UsageError("--roll: give two dice, e.g. --roll 3 5");
    for (int d : o.initiation)
      if (d < 1 || d > 6) throw UsageError("--initiation: dice are 1 to 6, got " + std::to_string(d));
    const bool given = !o.initiation.empty() || !o.roll.empty() || !o.gut_roll.empty();
    if (given && !earlier) {
      // The player's dice: the initiation check's, then the defender's.
      if (o.initiation.empty())
        throw UsageError("--initiation A B is needed with your own dice: " + name +
                         " first makes its charge initiation check (seed 003), 2D6 needing " +
                         std::to_string(initiation_check(r, true, 0, 0).need) + "+");
      // Each of your dice in the charge's own order, needed only when the
      // procedure will read it: the obstacle's, the gut check, the defender's,
      // the charger's.
      dice = player_charge_dice(r, in, pv, [&](ChargeRoll slot, int n) -> std::vector<int> {
        switch (slot) {
          case ChargeRoll::initiation: return o.initiation;
          case ChargeRoll::obstacle_check:
            if (o.obstacle_roll.size() != 2)
              throw UsageError("--obstacle-roll A B is needed: an obstacle on the way calls for a second initiation check (seed 003)");
            return o.obstacle_roll;
          case ChargeRoll::gut_check:
            // Seed 001: your infantry's gut check, before the morale check.
            if (static_cast<int>(o.gut_roll.size()) != n)
              throw UsageError("--gut-roll is needed with " + std::to_string(n) + (n == 1 ? " die" : " dice") +
                               ": your infantry takes the gut check against charging horse (seed 001's Fear of Charge)");
            return o.gut_roll;
          case ChargeRoll::defender_morale:
            if (o.roll.empty())
              throw UsageError("--roll A B is needed: the initiation check passed and the defender checks morale on 2D6");
            return o.roll;
          case ChargeRoll::charger_morale:
            if (o.charger_roll.size() != 2)
              throw UsageError("--charger-roll A B is needed: both charging, " + name + " checks its own morale on 2D6 too (seed 003)");
            return o.charger_roll;
          case ChargeRoll::counter_initiation:
          case ChargeRoll::pike_loss: break;
        }
        return {};
      });
    } else {
      dice = session_charge_dice(s, k);
      if (given)
        throw UsageError("vedette already rolled the dice for " + possessive(name) + " charge this turn (#" +
                         std::to_string(*earlier) + "); after an undo the same dice are used: leave out --initiation and --roll");
      if (!earlier && s.header().physical_dice)
        throw UsageError("this session uses physical dice: roll 2D6 for the initiation check and give them with "
                         "--initiation A B (and the defender's 2D6 with --roll A B)");
    }
    if (!o.json) print_charge_preview(io.out, r, in, pv);
    c = resolve_charge(r, s, k, in, dice);
  }
  const Event& e = s.append(ChargeEvent{name, c});
  int n = e.n;
  save_or_throw(s);
  if (o.json) {
    Json j;
    j["file"] = s.path().string();
    j["event"] = n;
    j["unit"] = name;
    j["charge"] = charge_json(s, c);
    j["morale"] = morale_name(s.memory(k).morale);
    print_json(io.out, j);
    return 0;
  }
  if (c.declined) io.out << name << " does not charge.\n";
  else print_charge_result(io.out, s, c);
  if (c.shaken) io.out << name << " is now shaken (remembered in the session).\n";
  io.out << "Saved as #" << n << " in " << s.path().string() << "\n";
  return 0;
}

void add_accept(CLI::App* c, bool& flag) {
  c->add_flag("--accept-ruleset-change", flag,
              "Go on if the session's ruleset file changed since it was last used (recorded in the history)");
}

}  // namespace

void add_solo(CLI::App& app, Runner& run) {
  auto* solo = app.add_subcommand("solo", "A solo game: vedette plays your enemy's cavalry, turn by turn, from a session file.");
  solo->require_subcommand(1);
  solo->footer(
      "A session file keeps the roster, every unit's memory and the full history of rolls and answers.\n"
      "Start with `vedette solo new GAME --unit NAME:TYPE ...`, then `vedette solo play GAME`.");

  {
    auto o = std::make_shared<NewOptions>();
    auto* c = solo->add_subcommand("new", "Create a session file for a solo game");
    c->add_option("GAME", o->game, "Session file (.vedette.yaml is added when it has no extension)")->required();
    c->add_option("--unit", o->units,
                  "An automated unit: \"NAME:TYPE[,raw][,hero][,figures=N][,light|medium|heavy][,weapon=W]\" (TYPE: a ruleset unit "
                  "type, e.g. shock, shooting, mounted-infantry; the weight is seed 003's charge column, asked at a "
                  "charge if not given; weapon=W a ruleset weapon it shoots with, e.g. carbine, pistol, musket). Repeat for each unit.")
        ->required()
        ->allow_extra_args(false);
    c->add_option("--ruleset", o->ruleset, "Ruleset YAML file (default: the built-in seed 002 tables, builtin:default)");
    c->add_option("--seed", o->seed, "Seed for the session's rolls (default: chosen at random and recorded)")
        ->check(unsigned_number());
    c->add_flag("--physical-dice", o->physical, "You roll real dice and enter the results");
    c->add_option("--module", o->module, "asl: say each behaviour in ASL Cavalry terms (MF, hexes, Gallop, Charge legality; seed 000)")
        ->check(CLI::IsMember({"asl"}));
    c->add_flag("--force", o->force, "Replace an existing session file");
    c->add_flag("--json", o->json, "Print the new session as JSON");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_new(*o, io); }); });
  }
  {
    auto o = std::make_shared<PlayOptions>();
    auto* c = solo->add_subcommand("play", "Play the session interactively: questions, RF, roll, instructions, turn by turn");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_flag("--physical-dice", o->physical, "Roll real dice and enter the results (this time)");
    c->add_flag("--verbose", o->verbose, "Cite the seed rules on the main lines (they are always in `solo log`)");
    c->add_option("--seed", o->seed, "Seed for the rolls; only before the session's first roll")->check(unsigned_number());
    c->footer(
        "Answers: y or n (Enter takes the default shown in capitals), or a number. u undoes the last answer,\n"
        "q saves and quits, ? explains. Every answer is saved as it is given; end of input saves and exits.\n"
        "Input may be piped in to script a game.");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_solo_play(*o, io); }); });
  }
  {
    auto o = std::make_shared<ActivateOptions>();
    auto* c = solo->add_subcommand("activate", "Decide one unit's action this turn from the facts given as flags");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->unit, "The unit's name")->required();
    c->add_flag("--cover", o->cover, "The unit is entirely in cover");
    c->add_flag("--enemy-in-range", o->in_range, "An enemy in clear sight is within weapons range");
    c->add_flag("--enemy-flank-rear", o->flank_rear, "An enemy is to the flank or rear, in sight");
    c->add_flag("--retreated-from-melee", o->retreated, "The unit is retreating as a result of melee");
    c->add_option("--casualties", o->casualties, "New casualties (figures) since last counted")->check(CLI::Range(0, k_max_figures));
    c->add_option("--roll", o->roll, "Your physical D6 roll (1-6) instead of vedette's")->check(CLI::Range(1, 6));
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_activate(*o, io); }); });
  }
  {
    auto o = std::make_shared<ReadOptions>();
    auto* c = solo->add_subcommand("status", "Show the turn, each unit's memory, and what undo/redo would do");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_status(*o, io); }); });
  }
  {
    auto o = std::make_shared<ReadOptions>();
    auto* c = solo->add_subcommand("log", "Show the whole history: every answer and roll, undone ones marked");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_flag("--json", o->json, "Print a JSON array of events");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_log(*o, io); }); });
  }
  for (bool undo : {true, false}) {
    auto o = std::make_shared<StepOptions>();
    auto* c = solo->add_subcommand(undo ? "undo" : "redo",
                                   undo ? "Take back the last N steps (answers, activations, turn changes); the log keeps them"
                                        : "Bring back the last N undone steps");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("N", o->count, "How many steps (default 1)")->check(CLI::Range(1, 1000000));
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, undo, &run] { run = guarded([o, undo](Io& io) { return run_undo_redo(*o, undo, io); }); });
  }
  {
    auto o = std::make_shared<NextTurnOptions>();
    auto* c = solo->add_subcommand("next-turn", "End this turn and begin the next");
    c->add_option("GAME", o->game, "Session file")->required();
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_next_turn(*o, io); }); });
  }
  {
    auto o = std::make_shared<CasualtyOptions>();
    auto* c = solo->add_subcommand("casualties", "Record new casualties on a unit (figures wounded or killed)");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->unit, "The unit's name")->required();
    c->add_option("N", o->count, "New casualties (or, with --total, all lost so far)")
        ->required()
        ->check(CLI::Range(0, k_max_figures));
    c->add_flag("--total", o->total, "N is the total lost so far, not new ones (to correct a count)");
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_casualties(*o, io); }); });
  }
  {
    auto o = std::make_shared<ChargeOptions>();
    auto* c = solo->add_subcommand("charge",
                                   "Answer a \"(Charge?)\": resolve the unit's charge (seed 003: range, the defender's 2D6 "
                                   "morale check) or --decline");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->unit, "The charging unit's name")->required();
    c->add_flag("--decline", o->decline, "The unit does not charge");
    c->add_option("--distance", o->distance, "Distance to the near edge of the target's nearest figure (e.g. 45cm; a bare number is in the ruleset's units); "
                  "that figure's base must lie entirely within range (seed 003)");
    c->add_option("--bearing", o->bearing, "Degrees off the unit's facing to the nearest part of the target (default 0: the facing line crosses it); "
                  "a target partly within the arc may be charged (seed 003)");
    c->add_option("--defender", o->defender,
                  "The unit charged: peasants, light-foot, heavy-foot, elite-foot, light-horse, medium-horse or heavy-horse");
    auto* flank = c->add_flag("--flank", o->flank, "The charge strikes the defender's flank");
    auto* rear = c->add_flag("--rear", o->rear, "The charge strikes the defender's rear");
    flank->excludes(rear);
    c->add_flag("--both-charging", o->both_charging, "The defender is charging too");
    c->add_flag("--pikes-facing", o->pikes_facing, "Swiss or Landsknechte pikes or pole arms facing the charge");
    c->add_option("--attacker", o->attacker, "The charging unit's weight: light, medium or heavy (default: the unit's weight=)");
    c->add_option("--move", o->move, "The charging unit's normal move (default: the top of its pace this turn)");
    c->add_option("--roll", o->roll, "Your physical 2D6 for the defender, two dice (e.g. --roll 3 5)")
        ->expected(2)
        ->check(CLI::Range(1, 6));
    c->add_option("--path", o->path, "On the way: open (default), obstacle (fence, hedge, wall), uphill, or into-terrain (the target in rough terrain)");
    c->add_option("--obstacle-roll", o->obstacle_roll, "With an obstacle and your own dice: the second initiation check's 2D6 (seed 003)")
        ->expected(2)
        ->check(CLI::Range(1, 6));
    c->add_flag("--fear-exempt", o->fear_exempt,
                "Fear of Charge (seed 001, when the ruleset turns it on): your infantry is in cover good enough to take no gut check");
    c->add_flag("--refuge", o->refuge,
                "Fear of Charge: there is such cover within the flee distance of your infantry, to flee to if it fails the gut check");
    c->add_option("--gut-roll", o->gut_roll, "Fear of Charge, with your own dice: your infantry's gut check dice (the ruleset's 1 or 2)")
        ->expected(1, 2)
        ->check(CLI::Range(1, 6));
    c->add_flag("--square", o->square, "Infantry Square (seed 004, when the ruleset turns it on): your infantry forms square");
    c->add_option("--charger-roll", o->charger_roll,
                  "Both charging, with your own dice: the charger's 2D6 for its own morale check (seed 003), e.g. --charger-roll 2 6")
        ->expected(2)
        ->check(CLI::Range(1, 6));
    c->add_option("--initiation", o->initiation,
                  "Your physical 2D6 for the charge initiation check, made first (seed 003), e.g. --initiation 4 5")
        ->expected(2)
        ->check(CLI::Range(1, 6));
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_charge(*o, io); }); });
  }
  {
    auto o = std::make_shared<InitiativeOptions>();
    auto* c = solo->add_subcommand("initiative", "Roll the turn's initiative: the cavalry's dice, -2 per declared charge (seed 003), against your total");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("--total", o->total, "Your side's initiative: your dice less 2 for each charge your side declared")
        ->check(CLI::Range(-20, 120));
    c->add_option("--your-roll", o->your_roll, "Your side's initiative dice (their sum), instead of --total")->check(CLI::Range(1, 120));
    c->add_option("--your-charges", o->your_charges, "Charges your side declared this turn (with --your-roll)")->check(CLI::Range(0, 100));
    c->add_option("--roll", o->roll, "The cavalry's dice as you rolled them (default: vedette rolls)")->check(CLI::Range(1, 6));
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_initiative(*o, io); }); });
  }
  {
    auto o = std::make_shared<ShootOptions>();
    auto* c = solo->add_subcommand("shoot", "A unit's shooting this turn (seed 002): at the nearest enemy it can see");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->unit, "The unit's name")->required();
    c->add_option("--distance", o->distance, "Front to front to the nearest enemy it can see, e.g. 25cm or 10in");
    c->add_flag("--no-target", o->no_target, "Its nearest enemy in clear sight is beyond its reach or outside its arc (or there is none)");
    c->add_flag("--cover", o->cover, "That enemy is in cover, as the unit sees it");
    c->add_option("--hits", o->hits, "Hits from the dice you rolled for it (default: vedette rolls)");
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_shoot(*o, io); }); });
  }
  {
    auto o = std::make_shared<MeleeOptions>();
    auto* c = solo->add_subcommand("melee", "The melee after a unit's charge that stood (seed 003): its dice against your unit's hits");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->unit, "The unit's name")->required();
    c->add_option("--their-hits", o->their_hits, "Hits your unit scored on it")->required()->check(CLI::Range(0, 100000));
    c->add_option("--square-dice", o->square_dice,
                  "Against your square (seed 004's Infantry Square): the face(s) its die showed, rolled first")
        ->expected(1, 6);
    c->add_option("--hits", o->hits, "Hits from the dice you rolled for it (default: vedette rolls)");
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_melee(*o, io); }); });
  }
  {
    auto o = std::make_shared<RallyOptions>();
    auto* c = solo->add_subcommand("rally", "End of turn: a unit at half strength routs; a shaken or rallying one rallies on 2D6");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->unit, "The unit's name")->required();
    c->add_flag("--enemy-near", o->enemy_near, "An enemy is within combat.morale.rally_enemy_clear of it: no rally");
    c->add_option("--roll", o->roll, "Your 2D6 for it, e.g. --roll 3 4 (default: vedette rolls)")->expected(2)->check(CLI::Range(1, 6));
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_rally(*o, io); }); });
  }
  {
    auto o = std::make_shared<MoraleOptions>();
    auto* c = solo->add_subcommand("morale", "Record a unit as steady, shaken, rallying or routed");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->unit, "The unit's name")->required();
    c->add_option("STATE", o->morale, "steady, shaken, rallying or routed")->required();
    c->add_option("--reason", o->reason, "Why, for the log");
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = guarded([o](Io& io) { return run_morale(*o, io); }); });
  }
  add_solo_react(solo, run);  // issue 28: `solo moved`, `solo charged` (cmd_solo_react.cpp)
}

}  // namespace vedette::cli
