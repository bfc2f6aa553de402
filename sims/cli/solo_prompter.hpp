#pragma once
// What `vedette solo play`'s files share (sims/cli/solo_play.cpp, the loop
// and the cavalry's steps; sims/cli/solo_play_move.cpp, your move): the
// prompter that asks and reads one answer, the requests to undo or quit,
// and the small steps both use.
#include <cctype>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/doc.hpp"
#include "sims/cli/solo_cli.hpp"

namespace vedette::cli::play {

using namespace solo_cli;

struct Quit {
  bool eof = false;
};
struct UndoRequest {};
// An answer typed while another command changed the session file: it was
// given against a state that is gone, so it is not taken (play reloads, says
// what changed and asks again).
struct SessionChanged {
  std::string answer;  // as typed
};

inline constexpr const char* k_help =
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
    raw_ = line;
    std::string t;
    for (char c : line) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto sp = [](unsigned char c) { return std::isspace(c) != 0; };
    while (!t.empty() && sp(static_cast<unsigned char>(t.back()))) t.pop_back();
    std::size_t k = 0;
    while (k < t.size() && sp(static_cast<unsigned char>(t[k]))) ++k;
    t.erase(0, k);
    if (t == "q" || t == "quit") throw Quit{false};  // everything is saved already: quitting writes nothing
    if (changed_ && changed_()) throw SessionChanged{line};
    if (t == "u" || t == "undo") throw UndoRequest{};
    return t;
  }

  // Asked after each answer is read: whether the session file changed
  // while the prompt waited (Session::changed_on_disk).
  void watch(std::function<bool()> changed) { changed_ = std::move(changed); }

  // `explain`: what "?" says about the question, before the keys. Required:
  // every question says its rule in words (issue 30).
  bool yes_no(const std::string& question, bool def, const std::string& explain) {
    while (true) {
      std::string t = ask(question + (def ? " [Y/n] " : " [y/N] "));
      if (t.empty()) return def;
      if (t == "y" || t == "yes") return true;
      if (t == "n" || t == "no") return false;
      if (t == "?" || t == "help") {
        if (!explain.empty()) out_ << "  " << explain << "\n";
        out_ << k_help;
        continue;
      }
      out_ << "  '" << t << "' is not an answer: type y or n (Enter means " << (def ? "yes" : "no")
           << "); u undoes, q quits, ? explains.\n";
    }
  }

  // A free answer checked by `parse` (nullopt plus a reason re-asks);
  // `explain`: what "?" says about the question, before the keys.
  template <class T, class Parse>
  T checked(const std::string& question, const std::optional<std::string>& def, Parse parse, const std::string& explain) {
    while (true) {
      std::string t = ask(question + (def ? " [" + *def + "] " : " "));
      if (t == "?" || t == "help") {
        if (!explain.empty()) out_ << "  " << explain << "\n";
        out_ << k_help;
        continue;
      }
      if (t.empty()) {
        if (!def) {
          out_ << "  An answer is needed; u undoes, q quits, ? explains.\n";
          continue;
        }
        t = *def;
      }
      std::string why;
      std::optional<T> v = parse(t, why);
      if (v) return *v;
      out_ << "  " << why << ".\n";
    }
  }

  int number(const std::string& question, int lo, int hi, std::optional<int> def, const std::string& why_max,
             const std::string& explain) {
    while (true) {
      std::string t = ask(question + (def ? " [" + std::to_string(*def) + "] " : " "));
      if (t.empty() && def) return *def;
      if (t == "?" || t == "help") {
        if (!explain.empty()) out_ << "  " << explain << "\n";
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
  std::string raw_;
  std::function<bool()> changed_;

 public:
  // The last answer as typed (not lower-cased): a name of the player's.
  const std::string& raw() const { return raw_; }
};

// Undoes the player's last answer (and the rolls that went with it), saves.
void undo_last_answer(Session& s, const Ruleset& r, std::ostream& out);
// Applies one of the turn's steps (solo::apply) and gives its record.
const StepRecord& step_applied(Session& s, const Ruleset& r, const solo::Command& c);
// Dice the player rolls for the automated side: `n` faces.
std::vector<int> ask_dice(Prompter& p, const std::string& prompt, std::size_t n);
// Your move (issue 28, sims/cli/solo_play_move.cpp).
void player_move_step(Session& s, const Ruleset& r, bool physical, Prompter& p, std::ostream& out);

}  // namespace vedette::cli::play
