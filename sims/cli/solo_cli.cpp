#include "sims/cli/solo_cli.hpp"

#include <algorithm>
#include <cstdio>
#include <system_error>

#include "engine/core/words.hpp"
#include "engine/core/diagnostics.hpp"
#include "sims/io/atomic_file.hpp"

namespace vedette::cli::solo_cli {

namespace fs = std::filesystem;

namespace {

// Reading a session replays its charges on the charge's procedure
// (replay_charges, by load_session_rules) when its ruleset can be loaded;
// a command that needs no rule still works without it.
Session replayed(Session s) {
  try {
    (void)load_session_rules(s);
  } catch (const ReplayError&) {
    throw;
  } catch (const LoadError&) {
  }
  return s;
}

}  // namespace

Session open_session(const std::string& game) {
  fs::path p = session_path(game);
  std::error_code ec;
  if (!fs::exists(p, ec)) {
    fs::path literal(game);
    if (fs::is_regular_file(literal, ec)) return replayed(Session::load(literal));
    throw UsageError("no session file " + p.string() + " (create one with: vedette solo new " + game +
                     " --unit NAME:TYPE ...)");
  }
  return replayed(Session::load(p));
}

SessionRules rules_for_change(Session& s, bool accept, Io& io) {
  int recorded = 0;
  SessionRules sr = solo::rules_for_change(s, accept, &recorded);
  if (recorded) io.err << "vedette: going on with the changed ruleset " << sr.path << " (recorded as #" << recorded << ")\n";
  return sr;
}

std::optional<SessionRules> rules_for_reading(const Session& s, Io& io) {
  try {
    SessionRules sr = load_session_rules(s);
    if (sr.changed)
      io.err << "vedette: note: the ruleset " << sr.path << " has changed since this session last used it ("
             << s.header().ruleset_hash << ", now " << sr.hash << ")\n";
    return sr;
  } catch (const ReplayError&) {
    throw;  // the session's own history is wrong, not its ruleset
  } catch (const LoadError& e) {
    io.err << "vedette: note: the session's ruleset cannot be loaded:\n";
    for (const auto& d : e.diagnostics()) io.err << "  " << d.str() << "\n";
    return std::nullopt;
  }
}

void print_rf(std::ostream& out, const Activation& a) {
  out << "Risk factor " << a.rf << "  (band " << a.band << ")\n";
  if (a.breakdown.empty()) out << "  no modifier applies\n";
  for (const auto& t : a.breakdown) out << "  " << signed_str(t.value) << "  " << t.reason << "\n";
}

void print_decision(std::ostream& out, const Session& s, const Activation& a, const std::string& unit) {
  out << "D6: " << a.roll << "  (" << die_text(s, a, false) << ")\n";
  out << "Table: " << a.behaviour_text << "\n";
  if (!a.note.empty()) out << "Limit: " << a.note << "\n";
  out << "Do:    " << unit << ": " << a.instruction << "\n";
  if (!a.charge_refused.empty())
    out << "No charge: " << a.charge_refused << (a.on_foot ? ".\n" : "; it moves as the table says otherwise.\n");
  if (a.running) out << "Next turn: " << unit << " counts as running from the enemy (+3).\n";
}

namespace {

std::string pct_text(int ways) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", ways * 100.0 / 36.0);
  return buf;
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}


}  // namespace

void print_charge_preview(std::ostream& out, const Ruleset& r, const ChargeInputs& in, const ChargePreview& p) {
  const ChargeRules& cr = r.charge;
  const LengthUnit u = r.units;
  const ChargeGeometry& g = p.geometry;
  out << "Charge range: up to " << format_length_table(g.max_range, u) << ", " << number_text(cr.range_factor) << " x the "
      << format_length_table(in.move, u) << " move; minimum distance " << format_length_table(g.min_distance, u) << "; arc "
      << number_text(cr.arc_degrees) << " degrees either side of the facing.\n";
  const Length base = target_base_depth(r, in.defender);
  out << "Target: " << format_length_table(in.distance, u) << " away";
  if (in.bearing != 0) out << ", " << number_text(in.bearing) << " degrees off the facing";  // given with --bearing
  out << ": ";
  if (g.reaches) {
    out << "in range and in the arc: it reaches";
    out << (g.charge_bonus ? ", with the charge bonus.\n"
                           : ", but inside the minimum distance: no charge bonus.\n");
  } else {
    out << "it does NOT reach (";
    if (!g.in_range)
      out << "its nearest figure's " << format_length_table(base, u) << " base reaches to " << format_length_table(in.distance + base, u)
          << ", beyond " << format_length_table(g.max_range, u);
    if (!g.in_range && !g.in_arc) out << "; ";
    if (!g.in_arc) out << "no part of it within the arc";
    out << "): the unit must still move " << format_length_table(g.forced_move, u) << " forward"
        << (g.shaken ? " and becomes shaken.\n" : ".\n");
  }
  // The optional rules the ruleset turns on, in the engine's order.
  if (p.fear_check) {
    const FearOfChargeRules& f = cr.fear_of_charge;
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.1f%%", p.gut_pass.value() * 100.0);
    out << "Fear of Charge: " << cr.row(in.defender).text << " take a gut check first, " << f.dice << "D6 needing "
        << gut_need_text(cr) << ": chance to pass " << p.gut_pass.str() << " = " << pct
        << "; failing, they "
        << (in.refuge ? "flee into the cover you named and the charge halts" : "are caught in the open and the charge goes on")
        << ".\n";
  }
  if (p.square) {
    out << "Infantry Square: " << cr.row(in.defender).text << " form square: no morale check; the square rolls first in the melee.\n";
    return;
  }
  const std::string who = cr.row(in.defender).text + " charged by " +
                          std::string(k_attacker_weight_names[static_cast<std::size_t>(in.attacker)]) + " cavalry in the " +
                          std::string(k_side_names[static_cast<std::size_t>(in.both_charging ? ChargedOn::front : in.side)]) +
                          (in.both_charging ? ", both charging (a counter-charging unit has turned to face)" : "");
  if (p.target.automatic) {
    out << "Morale check: " << who << ": pikes or pole arms facing the charge stand automatically.\n";
    return;
  }
  std::string need = p.target.target <= 2    ? "stands on any roll of 2D6"
                     : p.target.target > 12 ? "needs " + std::to_string(p.target.target) + "+ on 2D6: it cannot stand"
                                            : "needs " + std::to_string(p.target.target) + "+ on 2D6 to stand";
  out << (g.morale_check ? "Morale check: " : "(No morale check; had there been one: ") << who << ": " << need
      << (p.target.modifier ? " (the table's " + std::to_string(p.target.table) + ", " +
                                  std::string(p.target.modifier > 0 ? "+" : "") + std::to_string(p.target.modifier) +
                                  " to the dice)"
                            : std::string())
      << ": chance to stand " << p.stand_ways << "/36 = " << pct_text(p.stand_ways) << (g.morale_check ? ".\n" : ".)\n");
  if (p.charger_checks)
    out << "Both charging: the charger checks too, " << p.charger_target.target << "+ on 2D6 (seed 003): chance to stand "
        << p.charger_stand_ways << "/36 = " << pct_text(p.charger_stand_ways) << ".\n";
}

void print_charge_result(std::ostream& out, const Session& s, const ChargeRecord& c) {
  if (c.initiation_dice) {
    const auto& d = *c.initiation_dice;
    out << "Initiation check, 2D6: " << d[0] << " + " << d[1] << " = " << d[0] + d[1] << ", needs " << c.initiation_need
        << ": " << (c.initiation_passed ? "passes" : "FAILS") << "  (" << charge_dice_text(s, c, false) << ")\n";
  }
  if (c.obstacle_dice)
    out << "Obstacle, a second initiation check, 2D6: " << (*c.obstacle_dice)[0] << " + " << (*c.obstacle_dice)[1] << " = "
        << (*c.obstacle_dice)[0] + (*c.obstacle_dice)[1] << ", needs " << c.obstacle_need << ": "
        << (c.obstacle_passed ? "passes" : "FAILS") << "\n";
  if (c.fear && !c.fear->dice.empty()) {
    int total = 0;
    std::string sum;
    for (int d : c.fear->dice) {
      total += d;
      sum += (sum.empty() ? "" : " + ") + std::to_string(d);
    }
    out << "Gut check: " << sum << " = " << total << ": " << (c.fear->passed ? "passes" : "FAILS") << "\n";
  }
  if (c.rolled)
    out << "The defender's morale check, 2D6: " << c.dice[0] << " + " << c.dice[1] << " = " << c.dice[0] + c.dice[1]
        << ", needs " << c.target << ": " << (c.stands ? "stands" : "FAILS") << "  (" << charge_dice_text(s, c, false) << ")\n";
  if (c.charger_dice)
    out << "Charger's own check, 2D6: " << (*c.charger_dice)[0] << " + " << (*c.charger_dice)[1] << " = "
        << (*c.charger_dice)[0] + (*c.charger_dice)[1] << ", needs " << c.charger_need << ": "
        << (c.charger_stands ? "stands" : "FAILS") << "\n";
  out << "Charge: " << c.outcome << "\n";
}

void save_or_throw(Session& s) {
  try {
    s.save();
  } catch (const SessionChangedError&) {
    throw;  // `solo play` reloads; a single command says so and exits 2 (guarded)
  } catch (const SessionError& e) {
    throw UsageError(e.what());
  } catch (const AtomicWriteError& e) {
    throw WriteFailed(e.what());
  }
}

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

}  // namespace vedette::cli::solo_cli
