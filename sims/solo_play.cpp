// `vedette solo play`: the interactive loop.
//
// The loop holds no game state of its own: each time round it replays the
// session, finds the next thing to do (the ruleset check, a question, a
// roll, the next turn), asks, appends one event and saves. So an answer is
// on disk the moment it is given, end of input or `q` can stop it anywhere,
// and `play` picks up exactly where it stopped. A new step (the charge
// resolution) is one more case in next_step().
#include "sims/solo_play.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <iostream>

#include "engine/doc.hpp"
#include "sims/solo_cli.hpp"

namespace vedette::cli {

namespace {

using namespace solo_cli;

struct Quit {
  bool eof = false;
};
struct UndoRequest {};

const char* const k_help =
    "  Answer y or n; Enter takes the default (the capital letter). Numbers: type the number;\n"
    "  Enter takes the default in brackets, if there is one.\n"
    "  u  undo your last answer (the history keeps it, marked undone)\n"
    "  q  save and quit; `vedette solo play` later picks up where you stopped\n"
    "  Every answer is saved as you give it, so closing the window loses nothing.\n";

class Prompter {
 public:
  Prompter(std::istream& in, std::ostream& out, bool echo) : in_(in), out_(out), echo_(echo) {}

  // Prints the prompt and reads one answer, lower-cased and trimmed.
  std::string ask(const std::string& prompt) {
    out_ << prompt << std::flush;
    std::string line;
    if (!std::getline(in_, line)) {
      out_ << "\n";
      throw Quit{true};
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (echo_) out_ << line << "\n";
    std::string t;
    for (char c : line) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto sp = [](unsigned char c) { return std::isspace(c) != 0; };
    while (!t.empty() && sp(static_cast<unsigned char>(t.back()))) t.pop_back();
    std::size_t k = 0;
    while (k < t.size() && sp(static_cast<unsigned char>(t[k]))) ++k;
    t.erase(0, k);
    if (t == "q" || t == "quit") throw Quit{false};
    if (t == "u" || t == "undo") throw UndoRequest{};
    return t;
  }

  bool yes_no(const std::string& question, bool def) {
    while (true) {
      std::string t = ask(question + (def ? " [Y/n] " : " [y/N] "));
      if (t.empty()) return def;
      if (t == "y" || t == "yes") return true;
      if (t == "n" || t == "no") return false;
      if (t == "?" || t == "help") {
        out_ << k_help;
        continue;
      }
      out_ << "  '" << t << "' is not an answer: type y or n (Enter means " << (def ? "yes" : "no")
           << "); u undoes, q quits, ? explains.\n";
    }
  }

  int number(const std::string& question, int lo, int hi, std::optional<int> def, const std::string& why_max) {
    while (true) {
      std::string t = ask(question + (def ? " [" + std::to_string(*def) + "] " : " "));
      if (t.empty() && def) return *def;
      if (t == "?" || t == "help") {
        out_ << k_help;
        continue;
      }
      auto v = parse_int(t);
      if (!v) {
        out_ << "  " << (t.empty() ? "An answer is needed" : "'" + t + "' is not a whole number") << ": type a number from "
             << lo << " to " << hi << "; u undoes, q quits.\n";
        continue;
      }
      if (*v < lo || *v > hi) {
        out_ << "  " << *v << " is out of range: type a number from " << lo << " to " << hi
             << (why_max.empty() ? "" : " (" + why_max + ")") << ".\n";
        continue;
      }
      return static_cast<int>(*v);
    }
  }

 private:
  std::istream& in_;
  std::ostream& out_;
  bool echo_;
};

// What play does next, found from the session alone.
struct Step {
  enum class Kind { question, roll, next_turn, game_over } kind = Kind::game_over;
  std::size_t unit = 0;
  Question question = Question::in_cover;
};

Step next_step(const Session& s, const Ruleset& r) {
  const State& st = s.state();
  bool any_left = false;
  for (std::size_t k = 0; k < s.header().units.size(); ++k) {
    if (s.figures_left(k) <= 0) continue;
    any_left = true;
    if (st.units[k].acted_in_turn == st.turn) continue;
    const UnitSpec& spec = s.header().units[k];
    if (auto q = next_question(r, spec, st.units[k], s.figures_left(k))) return {Step::Kind::question, k, *q};
    return {Step::Kind::roll, k, Question::in_cover};
  }
  // (The charge step slots in here: an activation this turn whose behaviour
  // has charge_possible and no charge event yet -> Step::Kind::charge.)
  if (!any_left) return {Step::Kind::game_over, 0, Question::in_cover};
  return {Step::Kind::next_turn, 0, Question::in_cover};
}

// Undoes the player's last answer: steps are taken back until one that was
// answered at a prompt (a question, a turn change, a die the player rolled),
// so a rolled activation goes with the answer before it.
void undo_last_answer(Session& s, std::ostream& out) {
  if (!s.undo_target()) {
    out << "  Nothing to undo.\n";
    return;
  }
  while (int t = s.undo_target()) {
    const Event& e = s.event(t);
    bool answered = true;
    if (const auto* a = std::get_if<ActivateEvent>(&e.body)) answered = a->a.dice == DiceSource::player;
    s.append(UndoEvent{t});
    out << "  Undone: " << describe(s, s.event(t)) << "\n";
    if (answered) break;
  }
  save_or_throw(s);
}

}  // namespace

int run_solo_play(const PlayOptions& o, Io& io) {
  auto& out = io.out;
  Session s = open_session(o.game);
  const std::string file = s.path().string();
  SessionRules sr = load_session_rules(s);
  bool tty_in = ::isatty(STDIN_FILENO) != 0;
  Prompter p(std::cin, out, !tty_in);

  out << "Vedette solo: " << file << ", turn " << s.state().turn << " (ruleset " << s.header().ruleset_path << ")\n";
  if (sr.changed) {
    out << "The ruleset " << sr.path << " has changed since this session last used it\n"
        << "  (recorded " << s.header().ruleset_hash << ", now " << sr.hash << ").\n";
    bool go = false;
    try {
      go = p.yes_no("Continue with the new rules?", false);
    } catch (const Quit&) {
      out << "Nothing was changed.\n";
      return 0;
    } catch (const UndoRequest&) {
      go = false;
    }
    if (!go) {
      io.err << "vedette: not played: the ruleset changed and the new rules were not accepted; the session is unchanged "
                "(restore the old ruleset file, or answer y to go on with the new one)\n";
      return 2;
    }
    std::string old = s.header().ruleset_hash;
    s.header().ruleset_hash = sr.hash;
    const Event& e = s.append(RulesetEvent{old, sr.hash});
    out << "Going on with the new rules (recorded as #" << e.n << ").\n";
    save_or_throw(s);
  }
  check_unit_types(s, *sr.rules, sr.path);
  const Ruleset& r = *sr.rules;

  if (o.seed && *o.seed != s.header().seed) {
    if (s.next_roll() > 0)
      throw UsageError("--seed: this session's rolls already come from seed " + std::to_string(s.header().seed) + " (" +
                       std::to_string(s.next_roll()) +
                       " rolled so far); a new seed now would let a player fish for better rolls");
    std::uint64_t old = s.header().seed;
    s.header().seed = *o.seed;
    s.append(SeedEvent{old, *o.seed});
    save_or_throw(s);
  }
  const bool physical = o.physical || s.header().physical_dice;
  out << "Seed " << s.header().seed << "; dice " << (physical ? "rolled by you" : "rolled by vedette") << ".\n"
      << "Answer y or n (Enter takes the capital letter) or a number; u undoes your last answer, q saves and quits,\n"
      << "? explains. Every answer is saved as you give it.\n";

  constexpr std::size_t k_none = static_cast<std::size_t>(-1);
  std::size_t announced = k_none;  // the unit whose banner was shown last
  int announced_turn = 0;
  try {
    while (true) {
      Step step = next_step(s, r);
      const int turn = s.state().turn;
      if (turn != announced_turn) {
        out << "\n=== Turn " << turn << " ===\n";
        announced_turn = turn;
        announced = k_none;
      }
      try {
        if (step.kind == Step::Kind::game_over) {
          out << "No automated unit has figures left: the cavalry's game is over. The session is saved.\n";
          return 0;
        }
        if (step.kind == Step::Kind::next_turn) {
          if (!p.yes_no("All units have acted in turn " + std::to_string(turn) + ". Start turn " +
                            std::to_string(turn + 1) + "?",
                        true)) {
            out << "Saved. Resume with: vedette solo play " << file << "\n";
            return 0;
          }
          s.append(NextTurnEvent{});
          save_or_throw(s);
          continue;
        }
        const std::size_t k = step.unit;
        const UnitSpec& spec = s.header().units[k];
        if (announced != k) {
          out << "\n--- " << spec.name << ": " << unit_summary(s, &r, k) << " ---\n";
          out << "    " << memory_summary(s, k) << "\n";
          const Answers& pending = s.memory(k).pending;
          if (pending.any()) out << "    already answered: " << answers_text(pending) << "\n";
          announced = k;
        }
        if (step.kind == Step::Kind::question) {
          const std::string text = question_text(r, step.question, spec.name);
          int value;
          if (is_yes_no(step.question)) {
            value = p.yes_no(text, false) ? 1 : 0;
          } else {
            int left = s.figures_left(k);
            value = p.number(text, 0, left, 0, spec.name + " has " + std::to_string(left) + " figures left");
          }
          s.append(AnswerEvent{spec.name, step.question, value});
          save_or_throw(s);
          continue;
        }
        // The roll: show the RF first, then roll or take the player's die.
        const Answers pending = s.memory(k).pending;
        Die die = session_die(s, k);
        Activation preview = decide_activation(r, s, k, pending, 0, die);
        print_rf(out, preview);
        if (physical && !s.die_for(k, turn)) {
          die = Die{};
          die.dice = DiceSource::player;
          die.roll = p.number("Roll a D6 for " + spec.name + " and enter it (1-6):", 1, 6, s.player_die_for(k, turn), "");
        }
        Activation a = decide_activation(r, s, k, pending, 0, die);
        for (std::size_t q = 0; q < k_question_count; ++q)
          if (pending.v[q]) a.asked.push_back(static_cast<Question>(q));
        s.append(ActivateEvent{spec.name, a});
        save_or_throw(s);
        print_decision(out, s, a, spec.name);
      } catch (const UndoRequest&) {
        undo_last_answer(s, out);
        announced = k_none;
      }
    }
  } catch (const Quit& q) {
    std::string next;
    Step step = next_step(s, r);
    if (step.kind == Step::Kind::question || step.kind == Step::Kind::roll)
      next = "; next: " + s.header().units[step.unit].name;
    out << (q.eof ? "Input ended. " : "") << "Everything so far is saved in " << file << " (turn " << s.state().turn
        << next << ").\nResume with: vedette solo play " << file << "\n";
    return 0;
  }
}

}  // namespace vedette::cli
