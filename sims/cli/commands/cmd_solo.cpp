// `vedette solo`: a solo game's session. `new` creates it, `play` is the
// interactive loop (sims/cli/solo_play.cpp), and the same steps are single
// commands for scripts and other front ends: activate, status, log, undo,
// redo, next-turn, casualties, morale, and the turn's steps. Each command
// that changes the session is a typed solo::Command applied by solo::apply
// (sims/solo/solo_command.hpp). docs/solo.md describes the file.
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
#include "sims/solo/solo_module.hpp"
#include "sims/solo/solo_new.hpp"

namespace vedette::cli {

namespace {

// The names `solo new --module` takes: the solo module registry's.
std::vector<std::string> solo_module_names() {
  std::vector<std::string> n;
  for (const solo::SoloModule& m : solo::solo_modules()) n.emplace_back(m.name);
  return n;
}

using namespace solo_cli;
namespace fs = std::filesystem;

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
  NewSession n{session_path(o.game), o.ruleset, o.units, o.seed ? o.seed : std::optional<std::uint64_t>(fresh_seed()),
               o.physical, o.force, o.module};
  std::optional<Created> made;
  try {
    made.emplace(create_session(n));
  } catch (const SessionError& e) {
    throw UsageError(e.what());
  } catch (const AtomicWriteError& e) {
    throw WriteFailed(e.what());
  }
  const Session& s = made->session;
  const Header& h = s.header();
  const fs::path& path = s.path();
  const RulesetPtr& rules = made->rules;
  const std::vector<bool>& assumed = made->assumed;

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
  if (const solo::SoloModule* sm = solo::find_solo_module(h.module)) io.out << "Module: " << sm->name << " (" << sm->summary << ")\n";
  io.out << "Units:\n";
  for (std::size_t k = 0; k < h.units.size(); ++k) {
    io.out << "  " << h.units[k].name << ": " << unit_summary(s, rules.get(), k);
    if (assumed[k]) io.out << " (assumed; give figures=N for the real number)";
    // (unit_summary named the weapon)
    if (made->weapon_from_type[k]) io.out << " (its type's weapon; give weapon=none if it has none)";
    io.out << "\n";
  }
  io.out << "Play it: vedette solo play " << path.string() << "\n";
  return 0;
}

// ------------------------------------------------ the commands that change it
// Each is a typed command (sims/solo/solo_command.hpp): the session opened,
// the checks that need no ruleset, the ruleset's check, solo::apply(), the
// atomic save, then the answer in words or as JSON (solo::applied_json,
// which the web page answers too).

template <class C>
struct Options {
  std::string game;
  bool accept = false;
  bool json = false;
  C c;
};

using Text = std::function<void(std::ostream&, const Session&, const Ruleset&, const Applied&)>;

template <class C>
int run_command(const Options<C>& o, Io& io, const Text& text) {
  Session s = open_session(o.game);
  C typed = o.c;
  if constexpr (std::is_same_v<C, solo::Activate>) typed.game = o.game;  // as the player named it
  const Command c = typed;
  check(s, c);
  SessionRules sr = rules_for_change(s, o.accept, io);
  const Applied a = apply(s, *sr.rules, c);
  save_or_throw(s);
  if (o.json) print_json(io.out, applied_json(s, c, a));
  else text(io.out, s, *sr.rules, a);
  return 0;
}

template <class C>
Runner runner(std::shared_ptr<Options<C>> o, Text text) {
  return guarded([o, text = std::move(text)](Io& io) { return run_command(*o, io, text); });
}

void activate_text(std::ostream& out, const Session& s, const Ruleset&, const Applied& r) {
  const Event& e = s.event(r.events.back());
  const Activation& a = std::get<ActivateEvent>(e.body).a;
  const std::string& name = s.header().units[*r.unit].name;
  out << name << ", turn " << e.turn << ":\n";
  print_rf(out, a);
  print_decision(out, s, a, name);
  out << "Saved as #" << e.n << " in " << s.path().string() << "\n";
}

void undo_text(std::ostream& out, const Session& s, const Applied& r, bool undo) {
  for (int t : r.targets) out << (undo ? "Undone: " : "Redone: ") << describe(s, s.event(t)) << "\n";
  out << "Now turn " << s.state().turn << ". (" << s.undo_depth() << " step(s) to undo, " << s.redo_depth() << " to redo.)\n";
}

// The session's next step, in words, with the command that answers it.
// The next step in solo::step_words's words, with the command that does it.
std::string next_text(const Session& s, const Ruleset& r) {
  const Step st = next_step(s, r);
  const std::string what = step_words(s, st);
  switch (st.kind) {
    case Step::Kind::question:
    case Step::Kind::roll: return what + " (`vedette solo play`, or `solo activate`)";
    case Step::Kind::charge: return what + " (`solo charge`)";
    case Step::Kind::initiative: return what + " (`solo initiative`)";
    case Step::Kind::your_move:
      return what + ": the cavalry answers units of yours that move near it (`solo moved`) or charge it (`solo charged`); "
                    "say when it is over (`solo end-move`)";
    case Step::Kind::shooting: return what + " (`solo shoot`)";
    case Step::Kind::melee: return what + " (`solo melee`)";
    case Step::Kind::rally: return what + " (`solo rally`)";
    case Step::Kind::next_turn: return what + " (`solo next-turn`)";
    case Step::Kind::game_over: return what;
  }
  return {};
}

void end_move_text(std::ostream& out, const Session& s, const Ruleset& r, const Applied& a) {
  out << "Your move in turn " << s.state().turn << " is over (#" << a.events.back() << "). Next: " << next_text(s, r) << "\n";
}

void next_turn_text(std::ostream& out, const Session& s, const Ruleset&, const Applied& r) {
  for (const auto& name : r.did_not_act)
    out << "Note: " << name << " did not act in turn " << r.ended_turn << " (it keeps its pace and did not run).\n";
  for (const auto& name : r.charge_not_answered)
    out << "Note: " << possessive(name) << " \"(Charge?)\" in turn " << r.ended_turn << " was not answered; it lapses.\n";
  out << "Turn " << s.state().turn << " begins (#" << r.events.back() << ").\n";
  for (std::size_t k = 0; k < s.header().units.size(); ++k)
    if (s.memory(k).ran_last_turn)
      out << "  " << s.header().units[k].name << " ran from the enemy last turn: +3 to its RF this turn.\n";
}

void casualties_text(std::ostream& out, const Session& s, const Ruleset&, const Applied& r) {
  const UnitSpec& u = s.header().units[*r.unit];
  out << u.name << ": " << s.memory(*r.unit).casualties << " of " << u.figures << " figures lost ("
      << unit_summary(s, nullptr, *r.unit) << "); recorded as #" << r.events.back() << "\n";
}

void morale_text(std::ostream& out, const Session& s, const Ruleset&, const Applied& r) { out << describe(s, s.event(r.events.back())) << "\n"; }

// `solo initiative`, `solo shoot`, `solo melee`, `solo rally`: the steps
// `solo play` walks after the activations; each prints its outcome.
void step_text(std::ostream& out, const Session& s, const Ruleset&, const Applied& r) {
  out << step_record(s.event(r.events.back()).body)->outcome << "\n";
}

// The charge: what is known before the dice, then the dice and the outcome.
void charge_text(std::ostream& out, const Session& s, const Ruleset& rules, const Applied& r) {
  const std::string& name = s.header().units[*r.unit].name;
  const ChargeRecord& c = std::get<ChargeEvent>(s.event(r.events.back()).body).c;
  if (c.declined && !c.refused_rule.empty()) {
    // Seed 003 L34: the engine's gate, as it refused the declaration.
    const auto no = solo::target_refusal(rules, s, *r.unit, false);
    out << "No declaration: " << (no ? std::string(no->why) : std::string("a rule forbids it")) << " [" << c.refused_rule << "]. "
        << name << " does not charge.\n";
  } else if (c.declined) {
    out << name << " does not charge.\n";
  } else {
    print_charge_preview(out, rules, *r.charge_inputs, r.preview);
    print_charge_result(out, s, c);
  }
  if (c.shaken) out << name << " is now shaken (remembered in the session).\n";
  out << "Saved as #" << r.events.back() << " in " << s.path().string() << "\n";
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
  const Ruleset* r = rules ? rules->rules.get() : nullptr;
  out << "Session " << s.path().string() << ": turn " << s.state().turn << "\n";
  // What to do now first (issue 30): the next step, and the turn's orders.
  if (r) out << "Next: " << next_text(s, *r) << "\n";
  bool any_orders = false;
  for (std::size_t k = 0; k < h.units.size(); ++k) {
    const std::string orders = orders_text(s, k);
    if (orders.empty()) continue;
    if (!any_orders) out << "Orders this turn:\n";
    any_orders = true;
    out << "  " << orders << "\n";
  }
  out << "Ruleset: " << h.ruleset_path << " (" << h.ruleset_hash;
  if (rules && rules->changed) out << "; CHANGED since, now " << rules->hash;
  out << ")\n";
  if (!h.module.empty()) out << "Module: " << h.module << " (instructions in ASL Cavalry terms, seed 000)\n";
  out << "Seed " << h.seed << ", next roll #" << s.next_roll() << "; dice "
      << (h.physical_dice ? "rolled by you" : "rolled by vedette") << "\n";
  for (std::size_t k = 0; k < h.units.size(); ++k) {
    const UnitMemory& m = s.memory(k);
    out << "  " << h.units[k].name << ": " << unit_summary(s, r, k) << "\n";
    out << "      " << memory_summary(s, k) << "\n";
    if (m.acted_in_turn == s.state().turn) {
      out << "      acted this turn (#" << m.last_activation << "; its orders are above)\n";
      if (s.charge_pending(k))
        out << "      \"(Charge?)\" not answered yet: `vedette solo charge " << o.game << " " << h.units[k].name
            << " ...` or `vedette solo play`\n";
    } else if (s.figures_left(k) > 0 && m.morale == Morale::routed) {
      // next_step passes it over, as `solo activate` refuses it (Session::why_cannot_act).
      out << "      " << s.why_cannot_act(k) << "\n";
    } else if (s.figures_left(k) > 0) {
      out << "      to act this turn";
      if (m.answered.any()) out << " (answered: " << answers_text(m.answered) << ")";
      out << "\n";
    }
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
  io.out << log_text(s, s.path().string());
  return 0;
}

void add_accept(CLI::App* c, bool& flag) {
  c->add_flag("--accept-ruleset-change", flag,
              "Go on if the session's ruleset file changed since it was last used (recorded in the history)");
}

// `solo new`, `play`, `activate`, `status`, `log`, `undo`, `redo`, `next-turn`, `casualties`.
void add_session_commands(CLI::App* solo, Runner& run) {
  {
    auto o = std::make_shared<NewOptions>();
    auto* c = solo->add_subcommand("new", "Create a session file for a solo game");
    c->add_option("GAME", o->game, "Session file (.vedette.yaml is added when it has no extension)")->required();
    c->add_option("--unit", o->units,
                  "An automated unit: \"NAME:TYPE[,raw][,hero][,figures=N][,light|medium|heavy][,weapon=W]\" (TYPE: a ruleset unit "
                  "type, e.g. shock, shooting, mounted-infantry, or a word of its name or its `words` in the ruleset; the weight is seed 003's charge column, asked at a "
                  "charge if not given; weapon=W a ruleset weapon it shoots with, e.g. carbine, pistol, musket). Repeat for each unit.")
        ->required()
        ->allow_extra_args(false);
    c->add_option("--ruleset", o->ruleset, "Ruleset YAML file (default: the built-in seed 002 tables, builtin:default)");
    c->add_option("--seed", o->seed, "Seed for the session's rolls (default: chosen at random and recorded)")
        ->check(unsigned_number());
    c->add_flag("--physical-dice", o->physical, "You roll real dice and enter the results");
    c->add_option("--module", o->module, "asl: say each behaviour in ASL Cavalry terms (MF, hexes, Gallop, Charge legality; seed 000)")
        ->check(CLI::IsMember(solo_module_names()));
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
    auto o = std::make_shared<Options<solo::Activate>>();
    auto* c = solo->add_subcommand("activate", "Decide one unit's action this turn from the facts given as flags");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->c.unit, "The unit's name")->required();
    c->add_flag("--cover", o->c.cover, "The unit is entirely in cover");
    c->add_flag("--enemy-in-range", o->c.enemy_in_range, "An enemy in clear sight is within weapons range");
    c->add_flag("--enemy-flank-rear", o->c.enemy_flank_rear, "An enemy is to the flank or rear, in sight");
    c->add_flag("--retreated-from-melee", o->c.retreated, "The unit is retreating as a result of melee");
    c->add_option("--casualties", o->c.casualties, "New casualties (figures) since last counted")->check(CLI::Range(0, k_max_figures));
    c->add_option("--roll", o->c.roll, "Your physical D6 roll (1-6) instead of vedette's")->check(CLI::Range(1, 6));
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = runner(o, activate_text); });
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
  auto undo_redo = [&](auto o, bool undo) {
    auto* c = solo->add_subcommand(undo ? "undo" : "redo",
                                   undo ? "Take back the last N steps (answers, activations, turn changes); the log keeps them"
                                        : "Bring back the last N undone steps");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("N", o->c.count, "How many steps (default 1)")->check(CLI::Range(1, 1000000));
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, undo, &run] {
      run = runner(o, [undo](std::ostream& out, const Session& s, const Ruleset&, const Applied& a) { undo_text(out, s, a, undo); });
    });
  };
  undo_redo(std::make_shared<Options<solo::Undo>>(), true);
  undo_redo(std::make_shared<Options<solo::Redo>>(), false);
  {
    auto o = std::make_shared<Options<solo::EndMove>>();
    auto* c = solo->add_subcommand("end-move", "Your side's move is over this turn (seed 003 step 3): the turn goes on");
    c->add_option("GAME", o->game, "Session file")->required();
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = runner(o, end_move_text); });
  }
  {
    auto o = std::make_shared<Options<solo::NextTurn>>();
    auto* c = solo->add_subcommand("next-turn", "End this turn and begin the next");
    c->add_option("GAME", o->game, "Session file")->required();
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = runner(o, next_turn_text); });
  }
  {
    auto o = std::make_shared<Options<solo::Casualties>>();
    auto* c = solo->add_subcommand("casualties", "Record new casualties on a unit (figures wounded or killed)");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->c.unit, "The unit's name")->required();
    c->add_option("N", o->c.count, "New casualties (or, with --total, all lost so far)")
        ->required()
        ->check(CLI::Range(0, k_max_figures));
    c->add_flag("--total", o->c.total, "N is the total lost so far, not new ones (to correct a count)");
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = runner(o, casualties_text); });
  }
}

// The turn's steps after the activations: `solo charge`, `initiative`, `shoot`, `melee`, `rally`; and `morale`.
void add_step_commands(CLI::App* solo, Runner& run) {
  {
    auto o = std::make_shared<Options<solo::Charge>>();
    auto* c = solo->add_subcommand("charge",
                                   "Answer a \"(Charge?)\": resolve the unit's charge (seed 003: range, the defender's 2D6 "
                                   "morale check) or --decline");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->c.unit, "The charging unit's name")->required();
    c->add_flag("--decline", o->c.decline, "The unit does not charge");
    c->add_option("--distance", o->c.distance, "Distance to the near edge of the target's nearest figure (e.g. 45cm; a bare number is in the ruleset's units); "
                  "that figure's base must lie entirely within range (seed 003)");
    c->add_option("--bearing", o->c.bearing, "Degrees off the unit's facing to the nearest part of the target (default 0: the facing line crosses it); "
                  "a target partly within the arc may be charged (seed 003)");
    c->add_option("--defender", o->c.defender,
                  "The unit charged: peasants, light-foot, heavy-foot, elite-foot, light-horse, medium-horse or heavy-horse");
    auto* flank = c->add_flag("--flank", o->c.flank, "The charge strikes the defender's flank");
    auto* rear = c->add_flag("--rear", o->c.rear, "The charge strikes the defender's rear");
    flank->excludes(rear);
    c->add_flag("--both-charging", o->c.both_charging, "The defender is charging too");
    c->add_flag("--pikes-facing", o->c.pikes_facing,
                "The defender carries pikes or pole arms facing the charge (seed 003: Swiss or Landsknechte; a ruleset names "
                "them in charge.morale.pikes_words)");
    c->add_option("--target", o->c.target,
                  "The name of your unit the charge is declared against (seed 003 L24), recorded with the charge");
    c->add_flag("--not-visible", o->c.not_visible,
                "The target is not visible to the unit's front rank: no declaration (seed 003 L34); recorded as declined");
    c->add_option("--switched-from", o->c.switched_from,
                  "NAME=DISTANCE (or DISTANCE): the declared target has moved out of the charge's range, to this distance, and "
                  "another enemy is within it: the charge goes at that one, which --distance, --defender... describe (seed 003 L56)");
    c->add_option("--attacker", o->c.attacker, "The charging unit's weight: light, medium or heavy (default: the unit's weight=)");
    c->add_option("--move", o->c.move, "The charging unit's normal move (default: the top of its pace this turn)");
    c->add_option("--roll", o->c.defender_roll, "Your physical 2D6 for the defender, two dice (e.g. --roll 3 5)")
        ->expected(2)
        ->check(CLI::Range(1, 6));
    c->add_option("--path", o->c.path, "On the way: open (default), obstacle (fence, hedge, wall), uphill, or into-terrain (the target in rough terrain)");
    c->add_option("--obstacle-roll", o->c.obstacle, "With an obstacle and your own dice: the second initiation check's 2D6 (seed 003)")
        ->expected(2)
        ->check(CLI::Range(1, 6));
    c->add_flag("--fear-exempt", o->c.fear_exempt,
                "Fear of Charge (seed 001, when the ruleset turns it on): your infantry is in cover good enough to take no gut check");
    c->add_flag("--refuge", o->c.refuge,
                "Fear of Charge: there is such cover within the flee distance of your infantry, to flee to if it fails the gut check");
    c->add_option("--gut-roll", o->c.gut, "Fear of Charge, with your own dice: your infantry's gut check dice (the ruleset's 1 or 2)")
        ->expected(1, 2)
        ->check(CLI::Range(1, 6));
    c->add_flag("--square", o->c.square, "Infantry Square (seed 004, when the ruleset turns it on): your infantry forms square");
    c->add_option("--charger-roll", o->c.charger,
                  "Both charging, with your own dice: the charger's 2D6 for its own morale check (seed 003), e.g. --charger-roll 2 6")
        ->expected(2)
        ->check(CLI::Range(1, 6));
    c->add_option("--initiation", o->c.initiation,
                  "Your physical 2D6 for the charge initiation check, made first (seed 003), e.g. --initiation 4 5")
        ->expected(2)
        ->check(CLI::Range(1, 6));
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = runner(o, charge_text); });
  }
  {
    auto o = std::make_shared<Options<solo::Initiative>>();
    auto* c = solo->add_subcommand("initiative", "Roll the turn's initiative: the cavalry's dice, -2 per declared charge (seed 003), against your total");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("--total", o->c.total, "Your side's initiative: your dice less 2 for each charge your side declared")
        ->check(CLI::Range(-20, 120));
    c->add_option("--your-roll", o->c.your_roll, "Your side's initiative dice (their sum), instead of --total")->check(CLI::Range(1, 120));
    c->add_option("--your-charges", o->c.your_charges, "Charges your side declared this turn (with --your-roll)")->check(CLI::Range(0, 100));
    c->add_option("--roll", o->c.roll, "The cavalry's dice as you rolled them (default: vedette rolls)")->check(CLI::Range(1, 6));
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = runner(o, step_text); });
  }
  {
    auto o = std::make_shared<Options<solo::Shoot>>();
    auto* c = solo->add_subcommand("shoot", "A unit's shooting this turn (seed 002): at the nearest enemy it can see");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->c.unit, "The unit's name")->required();
    c->add_option("--distance", o->c.distance, "Front to front to the nearest enemy it can see, e.g. 25cm or 10in");
    c->add_flag("--no-target", o->c.no_target, "Its nearest enemy in clear sight is beyond its reach or outside its arc (or there is none)");
    c->add_flag("--cover", o->c.cover, "That enemy is in cover, as the unit sees it");
    c->add_option("--hits", o->c.hits, "Hits from the dice you rolled for it (default: vedette rolls)");
    auto kind = std::make_shared<std::string>();
    c->add_option("--target-is", *kind,
                  "What that enemy is, for where its losses fall: mounted (seed 002: a hit on the horse or the rider) or foot")
        ->check(CLI::IsMember({"mounted", "foot"}));
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, kind, &run] {
      if (!kind->empty()) o->c.mounted = *kind == "mounted";
      run = runner(o, step_text);
    });
  }
  {
    auto o = std::make_shared<Options<solo::Melee>>();
    auto* c = solo->add_subcommand("melee", "The melee after a unit's charge that stood (seed 003): its dice against your unit's hits");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->c.unit, "The unit's name")->required();
    c->add_option("--their-hits", o->c.their_hits, "Hits your unit scored on it")->required()->check(CLI::Range(0, 100000));
    c->add_option("--square-dice", o->c.square_dice,
                  "Against your square (seed 004's Infantry Square): the face(s) its die showed, rolled first")
        ->expected(1, 6);
    c->add_option("--hits", o->c.hits, "Hits from the dice you rolled for it (default: vedette rolls)");
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = runner(o, step_text); });
  }
  {
    auto o = std::make_shared<Options<solo::Rally>>();
    auto* c = solo->add_subcommand("rally", "End of turn: a unit at half strength routs; a shaken or rallying one rallies on 2D6");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->c.unit, "The unit's name")->required();
    c->add_flag("--enemy-near", o->c.enemy_near, "An enemy is within combat.morale.rally_enemy_clear of it: no rally");
    c->add_option("--roll", o->c.roll, "Your 2D6 for it, e.g. --roll 3 4 (default: vedette rolls)")->expected(2)->check(CLI::Range(1, 6));
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = runner(o, step_text); });
  }
  {
    auto o = std::make_shared<Options<solo::SetMorale>>();
    auto* c = solo->add_subcommand("morale", "Record a unit as steady, shaken, rallying or routed");
    c->add_option("GAME", o->game, "Session file")->required();
    c->add_option("UNIT", o->c.unit, "The unit's name")->required();
    c->add_option("STATE", o->c.morale, "steady, shaken, rallying or routed")->required();
    c->add_option("--reason", o->c.reason, "Why, for the log");
    add_accept(c, o->accept);
    c->add_flag("--json", o->json, "Print one JSON object");
    c->callback([o, &run] { run = runner(o, morale_text); });
  }
  add_solo_react(solo, run);  // issue 28: `solo moved`, `solo charged` (cmd_solo_react.cpp)
}

}  // namespace

void add_solo(CLI::App& app, Runner& run) {
  auto* solo = app.add_subcommand("solo", "A solo game: vedette plays your enemy's cavalry, turn by turn, from a session file.");
  solo->require_subcommand(1);
  solo->footer(
      "A session file keeps the roster, every unit's memory and the full history of rolls and answers.\n"
      "Start with `vedette solo new GAME --unit NAME:TYPE ...`, then `vedette solo play GAME`.");

  add_session_commands(solo, run);
  add_step_commands(solo, run);
}

}  // namespace vedette::cli
