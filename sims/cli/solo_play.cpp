// `vedette solo play`: the interactive loop.
//
// The loop holds no game state of its own: each time round it replays the
// session, finds the next thing to do (the ruleset check, a question, a
// roll, the next turn), asks, appends one event and saves. So an answer is
// on disk the moment it is given, end of input or `q` can stop it anywhere,
// and `play` picks up exactly where it stopped. A new step (the charge
// resolution) is one more case in next_step().
#include "sims/cli/solo_play.hpp"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <cctype>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <type_traits>

#include "engine/core/doc.hpp"
#include "sims/cli/solo_cli.hpp"
#include "sims/cli/solo_prompter.hpp"
#include "sims/solo/solo_react.hpp"
#include "sims/solo/solo_shot.hpp"

namespace vedette::cli {

namespace {

using namespace solo_cli;
using namespace play;


// Ctrl-C: every answer is already on disk (each is saved as it is given,
// atomically), so the handler only says so and how to resume. The message
// is built before the handler is installed: a handler may only write(2).
char g_interrupt_text[1024];
std::size_t g_interrupt_len = 0;
extern "C" void on_interrupt(int) {
  if (g_interrupt_len) (void)!::write(STDOUT_FILENO, g_interrupt_text, g_interrupt_len);
  ::_exit(130);
}
void install_interrupt_message(const std::string& file) {
  const std::string text = "\nInterrupted. Everything answered so far is saved in " + file +
                           ".\nResume with: vedette solo play " + file + "\n";
  g_interrupt_len = std::min(text.size(), sizeof g_interrupt_text);
  std::memcpy(g_interrupt_text, text.data(), g_interrupt_len);
  std::signal(SIGINT, on_interrupt);
}


// What play does next, found from the session alone.
// What "?" says about a question: the rule behind it, in words.
std::string explain(const Ruleset& r, Question q) {
  switch (q) {
    case Question::in_cover:
      return "Entirely in cover: every figure of the unit is in or behind terrain that gives cover (woods, buildings, "
             "a wall or hedge it stands behind) as seen from the nearest enemy it can see.";
    case Question::enemy_in_range:
      return "An enemy in clear sight: a straight line from the unit's centre to the enemy's crosses no woods, buildings, "
             "hill crest or other unit. In range: within the reach of its weapons (" +
             std::string(k_weapons_range_names[static_cast<std::size_t>(r.switches.weapons_range)]) + "'s, as the ruleset says).";
    case Question::enemy_flank_rear:
      return "An enemy it can see beside it or behind it: behind the line of its front edge, or further out to the side of "
             "that edge than it is in front of it (more than 45 degrees off its facing).";
    case Question::retreated_from_melee:
      return "It fell back as a result of a melee (or of a failed charge) and has not rallied since.";
    case Question::new_casualties:
      return "Figures it lost since its last activation, to your shooting or melee (the session adds them up).";
  }
  return {};
}


std::string yes_no_text(bool v) { return v ? "yes" : "no"; }

// The form's answers as the charge's inputs (sims/solo's, which the web
// page reads too); an answer that does not read is undone with u.
ChargeInputs inputs_from(const Ruleset& r, const Session& s, std::size_t k, const std::map<std::string, std::string>& d) {
  try {
    return draft_charge_inputs(r, s, k, d);
  } catch (const solo::SessionError& e) {
    throw UsageError(std::string(e.what()) + "; undo it with u");
  }
}

// One step of the charge form, or the charge itself once the form is
// complete. Returns after appending one event (not yet saved).
void charge_step(Session& s, const Ruleset& r, std::size_t k, bool physical, Prompter& p, std::ostream& out) {
  const UnitSpec& spec = s.header().units[k];
  const UnitMemory& m = s.memory(k);
  const std::string& name = spec.name;
  const std::string field = [&] {
    try {
      return next_charge_field(r, s, k, m.charge_draft);
    } catch (const solo::SessionError& e) {  // a saved answer that does not read
      throw UsageError(std::string(e.what()) + "; undo it with u");
    }
  }();
  auto answer = [&](const std::string& value) { (void)apply(s, r, solo::ChargeAnswer{name, field, value}); };
  const LengthUnit u = r.units;
  std::string ex = std::string(unit_name(u));
  if (field == "charge") {
    out << "Charge? The table allows " << name << " to charge.\n";
    if (const int im = r.charge.declare_initiative_modifier; im != 0)
      out << "  If it charges, the charge is declared (step 1): " << (im > 0 ? "+" : "") << im
          << " to its side's initiative roll this turn (seed 003, per declared charge).\n";
    // Seed 003 L40: the arc, in words the figures settle (solo::charge_field_words).
    const solo::ChargeFieldWords offer = solo::charge_field_words(r, s, k, "charge", {});
    if (!p.yes_no(offer.question, false, offer.help)) {
      solo::Charge decline;
      decline.unit = name;
      decline.decline = true;
      (void)apply(s, r, decline);
      out << "No charge.\n";
      return;
    }
    answer("yes");
    out << "Declared: " << name << " charges in its side's move, after the initiative.\n";
  } else if (field == "target") {
    // Seed 003 L24 (after a switch, L56): the words are sims/solo's, as the page's.
    const solo::ChargeFieldWords w = charge_field_words(r, s, k, field, m.charge_draft);
    auto named = p.checked<std::string>(
        w.question, std::nullopt,
        [&p](const std::string&, std::string& why) -> std::optional<std::string> {
          // The name as typed (the prompter lower-cases its answers), trimmed.
          std::string t = p.raw();
          while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
          t.erase(0, std::min(t.size(), t.find_first_not_of(" \t")));
          if (t.empty() || !solo::printable_utf8(t)) {
            why = "type the name of one of your units";
            return std::nullopt;
          }
          return t;
        },
        w.help);
    answer(named);
  } else if (field == "visible") {
    // Seed 003 L34.
    const std::string target = m.charge_draft.count("target") ? m.charge_draft.at("target") : std::string("the target");
    const solo::ChargeFieldWords w = charge_field_words(r, s, k, field, m.charge_draft);
    const bool seen = p.yes_no(w.question, true, w.help);
    if (seen) {
      answer("yes");
    } else {
      solo::Charge decline;
      decline.unit = name;
      decline.not_visible = true;
      decline.target = target;
      (void)apply(s, r, decline);
      const auto no = target_refusal(r, s, k, false);
      out << "No declaration: " << (no ? std::string(no->why) : std::string("the target must be visible (seed 003)")) << " ["
          << (no ? std::string(no->rule) : std::string("003-L34-target-visible")) << "]. " << name
          << " moves as the table says, without the charge.\n";
      return;
    }
  } else if (field == "switch") {
    // Seed 003 L56 (sims/solo's words, as the page's).
    const solo::ChargeFieldWords w = charge_field_words(r, s, k, field, m.charge_draft);
    const bool other = p.yes_no(w.question, false, w.help);
    answer(yes_no_text(other));
    if (other) out << "The charge goes at the nearest of your units within reach instead (seed 003 L56): its name and measures.\n";
  } else if (field == "attacker") {
    auto w = p.checked<AttackerWeight>("Is " + name + " light, medium or heavy cavalry (seed 003's charge table)?",
                                       std::nullopt, [](const std::string& t, std::string& why) { return parse_attacker(t, why); },
                                       "The charger's weight on the morale table: the heavier the cavalry, the higher the score "
                                       "the unit charged needs to stand.");
    answer(std::string(k_attacker_weight_names[static_cast<std::size_t>(w)]));
  } else if (field == "move") {
    std::string def = format_length(default_charge_move(r, s, k), u);
    auto l = p.checked<Length>(possessive(name) + " normal move, for the charge range?", def,
                               [&](const std::string& t, std::string& why) { return parse_table_length(r, t, true, why); },
                               "Its normal move, not a charge's: the charge reaches " + format_number(r.charge.range_factor) +
                                   " times it.");
    answer(format_length(l, u));
  } else if (field == "distance") {
    const std::string target = m.charge_draft.count("target") ? possessive(m.charge_draft.at("target")) : std::string("the target's");
    auto l = p.checked<Length>("Distance from " + possessive(name) + " front to the near edge of " + target + " nearest figure (in " + ex + ", or give a unit)?",
                               std::nullopt,
                               [&](const std::string& t, std::string& why) { return parse_table_length(r, t, false, why); },
                               "Measure from " + possessive(name) +
                                   " front edge to the near edge of the target's nearest figure: that figure's whole base must lie "
                                   "within the charge's range.");
    answer(format_length(l, u));
  } else if (field == "defender") {
    auto d = p.checked<DefenderClass>("The unit charged: " + defender_choices(r) + "?", std::nullopt,
                                      [&](const std::string& t, std::string& why) { return parse_defender(r, t, why); },
                                      "Its class on the morale table, which sets the score it needs to stand. A part of a name is "
                                      "enough when only one class has it.");
    answer(std::string(k_defender_class_names[static_cast<std::size_t>(d)]));
  } else if (field == "side") {
    auto sd = p.checked<ChargedOn>("Does the charge strike its front, flank or rear?", std::string("front"),
                                   [](const std::string& t, std::string& why) { return parse_side(t, why); },
                                   "The face of the target the charge strikes: " + signed_str(r.charge.flank_modifier) +
                                       " to its morale dice in the flank, " + signed_str(r.charge.rear_modifier) + " in the rear.");
    answer(std::string(k_side_names[static_cast<std::size_t>(sd)]));
  } else if (field == "both_charging") {
    answer(yes_no_text(p.yes_no("Is the target charging too?", false,
                                "Yes when your unit is charging " + name + " this turn as well: seed 003 has two units "
                                "charging each other meet halfway, and each checks its morale as a unit charged.")));
  } else if (field == "path") {
    auto pa = p.checked<ChargePath>(
        "On the way: open ground, an obstacle (fence, hedge, wall), uphill, or the target in rough terrain (into-terrain)?",
        std::string("open"), [](const std::string& t, std::string& why) { return parse_path(t, why); },
        "What lies between the two: an obstacle costs a second initiation check; the rules forbid a charge uphill or "
        "into rough terrain.");
    answer(std::string(k_charge_path_names[static_cast<std::size_t>(pa)]));
  } else if (field == "pikes_facing") {
    // In the ruleset's words (charge.morale.pikes_words, issue 30).
    answer(yes_no_text(p.yes_no("Are they " + pikes_words(r) + " facing the charge?", false,
                                "Seed 003: " + pikes_words(r) + " facing the charging enemy stand automatically, without a "
                                "morale check. Facing: the charge strikes their front (asked only then).")));
  } else if (field == "fear_exempt") {
    answer(yes_no_text(p.yes_no("Fear of Charge: is your unit in cover of " + std::to_string(r.charge.fear_of_charge.exempt_cover) +
                                    " or better against the charge (not counting prone)? If not, it takes a gut check.",
                                false,
                                "Fear of Charge (an optional rule, seed 001): infantry charged by cavalry that moved " +
                                    format_length_table(r.charge.fear_of_charge.charge_min_move, u) + " or more, from within " +
                                    format_length_table(r.charge.fear_of_charge.range, u) + ", takes a gut check unless it is in cover of " +
                                    std::to_string(r.charge.fear_of_charge.exempt_cover) + " or better against it.")));
  } else if (field == "refuge") {
    answer(yes_no_text(p.yes_no("If your unit fails its gut check, is there such cover within " +
                                    format_length_table(r.charge.fear_of_charge.flee_distance, u) + " of it to flee to?",
                                false,
                                "A unit that fails its gut check moves up to " +
                                    format_length_table(r.charge.fear_of_charge.flee_distance, u) + " toward cover of " +
                                    std::to_string(r.charge.fear_of_charge.exempt_cover) +
                                    " or better (seed 001); say whether such cover is that close.")));
  } else if (field == "square") {
    answer(yes_no_text(p.yes_no("Infantry Square: does your unit form square to receive the charge?", false,
                                "Infantry Square (an optional rule, seed 004): a square rolls its die first and a " +
                                    std::string("bounce sends the cavalry back; then each side fights with at most ") +
                                    std::to_string(r.charge.infantry_square.max_battle_dice) + " die.")));
  } else {
    // The form is complete: what is known before the dice, then the dice.
    ChargeInputs in = inputs_from(r, s, k, m.charge_draft);
    ChargePreview pv = preview_charge(r, in);
    print_charge_preview(out, r, in, pv);
    solo::Charge charge;
    charge.unit = name;
    charge.inputs = in;
    auto two_dice = [&](const std::string& prompt) {
      return p.checked<std::array<int, 2>>(
            prompt, std::nullopt,
            [](const std::string& t, std::string& why) -> std::optional<std::array<int, 2>> {
              std::istringstream is(t);
              std::string a, b, extra;
              is >> a >> b >> extra;
              auto x = parse_int(a), y = parse_int(b);
              if (!x || !y || !extra.empty() || *x < 1 || *x > 6 || *y < 1 || *y > 6) {
                why = "'" + t + "' is not two dice: type two numbers from 1 to 6, e.g. 3 5";
                return std::nullopt;
              }
              return std::array<int, 2>{static_cast<int>(*x), static_cast<int>(*y)};
            },
            "Type the two dice as they fell, e.g. 3 5: the check adds them and compares the total with the score the "
            "question names.");
    };
    if (physical && !s.charge_dice_for(k, s.state().turn)) {
      // Your dice in the charge's own order (the procedure asks each only
      // when it will read it): the initiation check, the obstacle's (L68),
      // your gut check, the defender's, the charger's.
      const std::string need = std::to_string(initiation_check(r, true, 0, 0).need);
      // (Asked here, in the procedure's order; apply() reads them again by their slots.)
      (void)player_charge_dice(r, in, pv, [&](ChargeRoll slot, int n) -> std::vector<int> {
        auto pair = [](const std::array<int, 2>& d) { return std::vector<int>{d[0], d[1]}; };
        auto keep = [&](std::vector<int>& to, std::vector<int> d) { return to = std::move(d); };
        switch (slot) {
          case ChargeRoll::initiation:
            return keep(charge.initiation, pair(two_dice("Roll 2D6 for " + possessive(name) + " charge initiation check (it needs " + need +
                                 "+) and enter both dice (e.g. 3 5):")));
          case ChargeRoll::obstacle_check:
            return keep(charge.obstacle, pair(two_dice("An obstacle on the way: roll 2D6 for " + possessive(name) +
                                                       " second initiation check (it needs " + need + "+) and enter both dice:")));
          case ChargeRoll::gut_check:
            return keep(charge.gut, ask_dice(p, "Roll " + std::to_string(n) + "D6 for your unit's gut check (it needs " +
                                                    gut_need_text(r.charge) + ") and enter " + (n == 1 ? "the die:" : "the dice:"),
                                             static_cast<std::size_t>(n)));
          case ChargeRoll::defender_morale:
            return keep(charge.defender_roll, pair(two_dice("Roll 2D6 for the defender's morale and enter both dice (e.g. 3 5):")));
          case ChargeRoll::charger_morale:
            return keep(charge.charger, pair(two_dice("Both charging: roll 2D6 for " + possessive(name) + " own morale (it needs " +
                                                      std::to_string(pv.charger_target.target) + "+) and enter both dice:")));
          case ChargeRoll::counter_initiation:
          case ChargeRoll::pike_loss: break;
        }
        return {};
      });
    }
    const int n = apply(s, r, charge).events.back();
    const ChargeRecord& c = std::get<ChargeEvent>(s.event(n).body).c;
    print_charge_result(out, s, c);
    if (c.shaken) out << name << " is now shaken (remembered in the session).\n";
  }
}


// Each unit's orders this turn, one line each, when the cavalry moves (its
// activations were walked many lines before, or in an earlier run).
void print_orders(const Session& s, std::ostream& out) {
  bool any = false;
  for (std::size_t k = 0; k < s.header().units.size(); ++k) {
    const std::string o = orders_text(s, k);
    if (o.empty()) continue;
    if (!any) out << "  Orders this turn:\n";
    any = true;
    out << "    " << o << "\n";
  }
}

// The initiative; true when the player moves first.
bool initiative_step(Session& s, const Ruleset& r, bool physical, Prompter& p, std::ostream& out) {
  const int dice = r.combat.initiative.dice;
  const int declared = charges_declared(s);
  const int im = r.charge.declare_initiative_modifier;
  out << "\n--- Initiative ---\n";
  if (declared)
    out << "  The cavalry declared " << declared << (declared == 1 ? " charge" : " charges") << ": " << (im >= 0 ? "+" : "")
        << im * declared << " to its roll.\n";
  const std::string ask = initiative_question(r);
  const int player = p.number(ask, -20, 6 * dice, std::nullopt, "",
                              "Seed 003: each side rolls for the initiative; every charge a side declared costs it " +
                                  std::to_string(std::abs(im)) + ". The higher total moves first.");
  solo::Initiative cmd;
  cmd.total = player;
  if (physical && !s.step_dice_for(TurnStep::initiative, Session::k_no_step_unit, s.state().turn))
    cmd.roll = ask_dice(p, "Roll " + std::to_string(dice) + " D6 for the cavalry's initiative and enter " + (dice == 1 ? "it:" : "them:"),
                        static_cast<std::size_t>(dice));
  const StepRecord& rec = step_applied(s, r, cmd);
  out << "Initiative: " << rec.outcome << "\n";
  if (rec.result == "cavalry") {
    out << "  The cavalry moves now; then you move.\n";
    print_orders(s, out);
  } else {
    out << "  Move your units now; then the cavalry moves.\n";
  }
  return rec.result != "cavalry";
}

// The shot's questions in the shot procedure's order (solo::shot_next,
// sims/solo/solo_shot.hpp, which the web page asks too): play asks what it
// needs, in its words, and records the shot it gives when done.
void shooting_step(Session& s, const Ruleset& r, std::size_t k, bool physical, Prompter& p, std::ostream& out) {
  const std::string& name = s.header().units[k].name;
  const ShootingChance c = shooting_chance(r, s, k);
  out << "Shooting: " << name << " (" << c.weapon->name << (c.dismounts ? ", on foot: it dismounts to shoot" : !c.on_horse ? ", on foot" : "") << ")\n";
  ShotAnswers a;
  for (ShotNeed n = shot_next(r, s, k, a);; n = shot_next(r, s, k, a)) {
    switch (n.kind) {
      case ShotNeed::Kind::target:
        a.target = p.yes_no(n.question, false, n.help);
        break;
      case ShotNeed::Kind::distance:
        a.distance = p.checked<Length>(n.question, std::nullopt, [&](const std::string& t, std::string& why) -> std::optional<Length> {
          auto l = parse_table_length(r, t, false, why);
          if (!l) return std::nullopt;
          ShotAnswers then = a;
          then.distance = *l;
          const ShotNeed after = shot_next(r, s, k, then);
          if (!after.in_reach) {  // beyond its reach: no target (the procedure says why)
            why = after.why + ": then the answer to the last question was no (u undoes it)";
            return std::nullopt;
          }
          return l;
        }, n.help);
        break;
      case ShotNeed::Kind::cover:
        a.cover = p.yes_no(n.question, false, n.help);
        break;
      case ShotNeed::Kind::dice:
        // The player's own dice when they roll them (and these were not
        // rolled for it already this turn), else the session's.
        if (physical && !n.rolled_before)
          a.hits = p.number(n.question, 0, n.dice, std::nullopt, "", n.help);
        else
          a.rolled = true;
        break;
      case ShotNeed::Kind::mounted:
        a.mounted = p.yes_no(n.question, false, n.help);
        break;
      case ShotNeed::Kind::done:
        out << step_applied(s, r, n.shoot).outcome << "\n";
        return;
    }
  }
}

void melee_step(Session& s, const Ruleset& r, std::size_t k, bool physical, Prompter& p, std::ostream& out) {
  const std::string& name = s.header().units[k].name;
  out << melee_intro(r, s, k) << "\n";
  const int left = s.figures_left(k);
  // Against a square (seed 004): the square's die first (its face: a
  // bounce, or a hit by your rules); a bounce leaves the cavalry no strike.
  const bool square = s.memory(k).square;
  SquareFaces faces;
  solo::Melee cmd;
  cmd.unit = name;
  if (square) {
    const auto& sq = r.charge.infantry_square;
    for (int d = 0; d < sq.max_battle_dice; ++d)
      cmd.square_dice.push_back(p.number("Roll your square's D" + std::to_string(sq.die) + ": which face did it show?", 1, sq.die,
                                         std::nullopt, "",
                                         "Seed 004: the square rolls first; a bounce face sends the cavalry back before it strikes."));
    faces = read_square_faces(r, cmd.square_dice);  // the dice that did not bounce may hit
    if (faces.may_hit > 0)
      cmd.their_hits = p.number("How many hits did your square score on " + name + "?", 0, faces.may_hit, std::nullopt, "",
                        "Each hit removes one of its figures (" + std::to_string(left) + " left), as your rules score the die.");
  } else {
    cmd.their_hits = p.number("How many hits did your unit score on " + name + "?", 0, 1000, std::nullopt, "",
                      "Each hit removes one of its figures (" + std::to_string(left) + " left). More hits wins the melee.");
  }
  // The melee procedure says whether the cavalry strikes now, and with what.
  const MeleeProcedure::Need need = solo_melee(r, s, k, cmd.their_hits, faces).next();
  if (need.kind == MeleeProcedure::Need::Kind::roll && physical && !s.step_dice_for(TurnStep::melee, k, s.state().turn))
    cmd.hits = p.number("Roll " + std::to_string(need.dice) + " D6 for " + name + ", each hitting on " + std::to_string(need.need) +
                         "+, and enter the number of hits:",
                        0, need.dice, std::nullopt, "",
                        "Roll the dice for the cavalry's melee and count those showing the score or more: each is a hit on "
                        "your unit.");
  out << step_applied(s, r, cmd).outcome << "\n";
}

void rally_step(Session& s, const Ruleset& r, std::size_t k, bool physical, Prompter& p, std::ostream& out) {
  const std::string& name = s.header().units[k].name;
  solo::Rally cmd;
  cmd.unit = name;
  if (rally_need(r, s, k) == RallyNeed::routs) {
    out << step_applied(s, r, cmd).outcome << "\n";
    return;
  }
  cmd.enemy_near = p.yes_no(rally_question(r, s, k), false, "A unit rallies only with no enemy that close; then it needs " +
                                        std::to_string(r.combat.morale.rally_target) + "+ on 2D6.");
  if (!cmd.enemy_near && physical && !s.step_dice_for(TurnStep::rally, k, s.state().turn))
    cmd.roll = ask_dice(p, "Roll 2D6 for " + possessive(name) + " rally (it needs " + std::to_string(r.combat.morale.rally_target) +
                               "+) and enter both dice:",
                        2);
  out << step_applied(s, r, cmd).outcome << "\n";
}

// The player's language on the main lines: the citations of the seed
// rules and of YAML keys are taken out of every line as it is written
// (solo::plain_words; `--verbose` keeps them; `solo log` has them).
class PlainLines : public std::streambuf {
 public:
  explicit PlainLines(std::ostream& to) : to_(to) {}
  ~PlainLines() override { sync(); }

 protected:
  int_type overflow(int_type c) override {
    if (c == traits_type::eof()) return sync() == 0 ? 0 : traits_type::eof();
    line_ += static_cast<char>(c);
    if (c == '\n') emit();
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    for (std::streamsize k = 0; k < n; ++k) overflow(traits_type::to_int_type(s[k]));
    return n;
  }
  int sync() override {
    emit();
    to_.flush();
    return 0;
  }

 private:
  void emit() {
    if (line_.empty()) return;
    to_ << plain_words(line_);  // sims/solo: the web page shows the same words
    line_.clear();
  }
  std::ostream& to_;
  std::string line_;
};

}  // namespace

namespace play {

// Undoes the player's last answer: steps are taken back until one that was
// answered at a prompt (a question, a turn change, a die the player rolled),
// so a rolled activation goes with the answer before it.
void undo_last_answer(Session& s, const Ruleset& r, std::ostream& out) {
  if (!s.undo_target()) {
    out << "  Nothing to undo.\n";
    return;
  }
  while (int t = s.undo_target()) {
    const Event& e = s.event(t);
    bool answered = true;
    if (const auto* a = std::get_if<ActivateEvent>(&e.body)) answered = a->a.dice == DiceSource::player;
    if (const auto* c = std::get_if<ChargeEvent>(&e.body))
      answered = c->c.declined || (c->c.has_dice() && c->c.dice_source == DiceSource::player);
    if (const StepRecord* st = step_record(e.body)) answered = !st->given.empty();
    (void)apply(s, r, solo::Undo{1});
    out << "  Undone: " << what_happened(s, s.event(t)) << "\n";
    if (answered) break;
  }
  save_or_throw(s);
}

// Applies one of the turn's steps (solo::apply) and gives its record.
const StepRecord& step_applied(Session& s, const Ruleset& r, const solo::Command& c) {
  return *step_record(s.event(apply(s, r, c).events.back()).body);
}

// Dice the player rolls for the automated side: `n` faces, or (hits_only)
// just the number of hits.
std::vector<int> ask_dice(Prompter& p, const std::string& prompt, std::size_t n) {
  return p.checked<std::vector<int>>(prompt, std::nullopt, [n](const std::string& t, std::string& why) -> std::optional<std::vector<int>> {
    std::istringstream is(t);
    std::vector<int> v;
    std::string w;
    while (is >> w) {
      auto x = parse_int(w);
      if (!x || *x < 1 || *x > 6) {
        why = "'" + w + "' is not a die: type " + std::to_string(n) + " numbers from 1 to 6";
        return std::nullopt;
      }
      v.push_back(static_cast<int>(*x));
    }
    if (v.size() != n) {
      why = "type " + std::to_string(n) + (n == 1 ? " die" : " dice") + ", e.g. " + (n == 1 ? "4" : "3 5");
      return std::nullopt;
    }
    return v;
  }, "Type the " + std::string(n == 1 ? "die" : "dice") + " as " + (n == 1 ? "it" : "they") + " fell, e.g. " + (n == 1 ? "4" : "3 5") +
         ": the question says whose roll it is and what it needs.");
}

}  // namespace play

int run_solo_play(const PlayOptions& o, Io& io) {
  PlainLines plain(io.out);
  std::ostream plain_out(&plain);
  std::ostream& out = o.verbose ? io.out : plain_out;
  Session s = open_session(o.game);
  const std::string file = s.path().string();
  bool tty_in = ::isatty(STDIN_FILENO) != 0;
  Prompter p(std::cin, out, !tty_in);

  out << "Vedette solo: " << file << ", turn " << s.state().turn << " (ruleset " << s.header().ruleset_path << ")\n";
  constexpr std::size_t k_none = static_cast<std::size_t>(-1);
  std::size_t announced = k_none;  // the unit whose banner was shown last
  int announced_turn = 0;
  // Another command (undo, casualties, morale, the web page...) changed the
  // file while play waited: read it again, say in one line what changed, and
  // whether the answer just typed was not taken (it was given against a
  // state that is gone); the loop then asks what the new state needs.
  auto reload = [&](const std::optional<std::string>& answer) {
    const std::size_t before = s.history().size();
    s = Session::load(s.path());
    std::string what;
    if (s.history().size() < before) {
      what = "the session file was replaced by another program";
    } else {
      for (std::size_t i = before; i < s.history().size(); ++i)
        what += (what.empty() ? "" : "; ") + what_happened(s, s.history()[i]);
      what = "another command changed the session: " + (what.empty() ? std::string("its text") : what);
    }
    out << "(" << what << ". Reloaded, turn " << s.state().turn << ".";
    if (answer) out << " Your answer '" << *answer << "' was not taken: the question is asked again.";
    out << ")\n";
    announced = k_none;
  };
  // Watched from the first question on, the ruleset's included.
  p.watch([&s] { return s.changed_on_disk(); });
  // The session's rules: loaded, and when the file changed since the session
  // last used it, the player is asked whether to go on with the new ones
  // (recorded in the history). Taken again when another command recorded a
  // change of ruleset while play ran. Returns an exit status to stop with,
  // or -1 to play on.
  SessionRules sr;
  auto take_rules = [&]() -> int {
    std::optional<std::string> asked;  // the session's ruleset hash when the question was asked
    for (;;) {
      try {
        sr = load_session_rules(s);
        check_unit_types(s, *sr.rules, sr.path);
        if (!sr.changed) {
          // Reloaded while asked: another command took the new rules, or the
          // file is back as the session last used it.
          if (asked)
            out << (*asked != s.header().ruleset_hash ? "(The new rules were accepted there: play goes on by them.)\n"
                                                       : "(The ruleset file is as the session last used it again: play goes on.)\n");
          return -1;
        }
        asked = s.header().ruleset_hash;
        out << "The ruleset " << sr.path << " has changed since this session last used it\n"
            << "  (recorded " << s.header().ruleset_hash << ", now " << sr.hash << ").\n";
        bool go = false;
        try {
          go = p.yes_no("Continue with the new rules?", false,
                        "Yes records the change in the session's history and plays on by the rules as the file now says; no "
                        "stops here with nothing changed (restore the old file to play by the old rules).");
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
        int recorded = 0;
        sr = solo::rules_for_change(s, true, &recorded);
        save_or_throw(s);
        out << "Going on with the new rules (recorded as #" << recorded << ").\n";
        return -1;
      } catch (const SessionChanged& c) {
        reload(c.answer);
      } catch (const SessionChangedError&) {
        reload(p.raw());
      }
    }
  };
  if (const int stop = take_rules(); stop >= 0) return stop;

  if (o.seed && *o.seed != s.header().seed) {
    (void)apply(s, *sr.rules, solo::Reseed{*o.seed});
    save_or_throw(s);
  }
  const bool physical = o.physical || s.header().physical_dice;
  out << "Seed " << s.header().seed << "; dice " << (physical ? "rolled by you" : "rolled by vedette") << ".\n"
      << "Answer y or n (Enter takes the capital letter) or a number; u undoes your last answer, q saves and quits,\n"
      << "? explains. Every answer is saved as you give it.\n";

  // Resumed after the initiative: the orders of the turn, which the earlier
  // run printed, are said again.
  for (const auto& e : s.history())
    if (e.turn == s.state().turn && s.in_effect(e.n) && std::holds_alternative<InitiativeEvent>(e.body)) {
      print_orders(s, out);
      break;
    }
  install_interrupt_message(file);
  try {
    while (true) {
      if (s.changed_on_disk()) reload(std::nullopt);
      // Another command recorded a change of ruleset: play on by the new one.
      if (s.header().ruleset_hash != sr.hash)
        if (const int stop = take_rules(); stop >= 0) return stop;
      const Ruleset& r = *sr.rules;
      Step step = next_step(s, r);
      const int turn = s.state().turn;
      if (turn != announced_turn) {
        out << "\n=== Turn " << turn << " ===\n";
        announced_turn = turn;
        announced = k_none;
      }
      try {
        if (step.kind == Step::Kind::game_over) {
          out << "Every automated unit is routed or destroyed: the cavalry's game is over. The session is saved.\n";
          return 0;
        }
        if (step.kind == Step::Kind::initiative) {
          (void)initiative_step(s, r, physical, p, out);
          save_or_throw(s);
          announced = k_none;
          continue;
        }
        // Your move (issue 28): a step of the turn (solo::next_step), before
        // the cavalry's charges or after them, so a resumed play asks it
        // again until you say it is over.
        if (step.kind == Step::Kind::your_move) {
          const bool first = s.state().first_this_turn == 1;
          player_move_step(s, r, physical, p, out);
          if (first) {
            out << "Now the cavalry moves.\n";
            print_orders(s, out);
          }
          announced = k_none;
          continue;
        }
        if (step.kind == Step::Kind::next_turn) {
          out << "\n--- End of turn " << turn << " ---\n";
          for (std::size_t k = 0; k < s.header().units.size(); ++k) out << "  " << turn_summary(r, s, k) << "\n";
          if (!p.yes_no("All units have acted in turn " + std::to_string(turn) + ". Start turn " +
                            std::to_string(turn + 1) + "?",
                        true,
                        "Yes starts the next turn: each unit's pace and running carry over, and every unit is activated "
                        "again. No saves and stops here; play resumes at this question.")) {
            out << "Saved. Resume with: vedette solo play " << file << "\n";
            return 0;
          }
          (void)apply(s, r, solo::NextTurn{});
          save_or_throw(s);
          continue;
        }
        const std::size_t k = step.unit;
        const UnitSpec& spec = s.header().units[k];
        if (announced != k) {
          out << "\n--- " << spec.name << ": " << unit_summary(s, &r, k) << " ---\n";
          out << "    " << memory_summary(s, k) << "\n";
          // Only what the player answered (issue 30): what the session knows
          // itself (a fall back it saw) is on the memory line.
          const Answers& answered = s.memory(k).answered;
          if (answered.any()) out << "    already answered: " << answers_text(answered) << "\n";
          announced = k;
        }
        if (step.kind == Step::Kind::charge) {
          charge_step(s, r, k, physical, p, out);
          save_or_throw(s);
          continue;
        }
        if (step.kind == Step::Kind::shooting) {
          shooting_step(s, r, k, physical, p, out);
          save_or_throw(s);
          continue;
        }
        if (step.kind == Step::Kind::melee) {
          melee_step(s, r, k, physical, p, out);
          save_or_throw(s);
          continue;
        }
        if (step.kind == Step::Kind::rally) {
          rally_step(s, r, k, physical, p, out);
          save_or_throw(s);
          continue;
        }
        if (step.kind == Step::Kind::question) {
          const std::string text = question_text(r, step.question, spec.name);
          int value;
          if (is_yes_no(step.question)) {
            value = p.yes_no(text, false, explain(r, step.question)) ? 1 : 0;
          } else {
            int left = s.figures_left(k);
            value = p.number(text, 0, left, 0, spec.name + " has " + std::to_string(left) + " figures left",
                             explain(r, step.question));
          }
          (void)apply(s, r, solo::Answer{spec.name, step.question, value});
          save_or_throw(s);
          continue;
        }
        // The roll: show the RF first, then roll or take the player's die.
        const Answers pending = s.memory(k).pending;
        Die die = session_die(s, k);
        Activation preview = decide_activation(r, s, k, pending, 0, die);
        // What was not asked, in a word, so an answer on autopilot does not
        // land on the next question (issue 30).
        std::string unasked;
        for (Question q : unasked_questions(s.memory(k), turn))
          unasked += (unasked.empty() ? "" : ", ") + std::string(question_label(q));
        if (!unasked.empty()) out << "Not asked (the answer cannot change its risk factor now): " << unasked << ".\n";
        print_rf(out, preview);
        solo::Activate activate;
        activate.unit = spec.name;
        activate.from_answers = true;
        if (physical && !s.die_for(k, turn))
          activate.roll = p.number("Roll a D6 for " + spec.name + " and enter it (1-6):", 1, 6, s.player_die_for(k, turn), "",
                                   "The D6 picks the cell of the Actions Table's row for its risk factor, shown above: "
                                   "what the unit does this turn (seed 002).");
        const int n = apply(s, r, activate).events.back();
        const Activation& a = std::get<ActivateEvent>(s.event(n).body).a;
        save_or_throw(s);
        print_decision(out, s, a, spec.name);
        // Who chooses a distance inside the pace's range: the player, who
        // moves the cavalry's figures.
        if (a.pace != Pace::halt && !a.on_foot && s.header().module.empty()) {  // (a module says its own units)
          const auto pr = r.pace_range(a.pace);
          out << "       You choose the exact distance within the " << pace_name(a.pace) << "'s "
              << format_range_table(pr.min, pr.max, r.units) << ".\n";
        }
      } catch (const UndoRequest&) {
        undo_last_answer(s, r, out);
        announced = k_none;
      } catch (const SessionChanged& c) {
        reload(c.answer);
      } catch (const SessionChangedError&) {
        // Changed between the answer and its saving: the answer is not kept.
        reload(p.raw());
      }
    }
  } catch (const Quit& q) {
    const Step step = next_step(s, *sr.rules);
    const bool more = step.kind != Step::Kind::game_over && step.kind != Step::Kind::next_turn;
    const std::string next = more ? "; next: " + step_words(s, step) : std::string();
    out << (q.eof ? "Input ended. " : "") << "Everything so far is saved in " << file << " (turn " << s.state().turn
        << next << ").\nResume with: vedette solo play " << file << "\n";
    return 0;
  }
}

}  // namespace vedette::cli
