// `vedette table`: the Actions Table as loaded, with exact odds per band.
#include <cstdio>
#include <memory>
#include <ostream>

#include "engine/core/words.hpp"
#include "engine/decision/actions_table.hpp"
#include "sims/cli/cli.hpp"
#include "sims/report/report.hpp"

namespace vedette::cli {

namespace {

struct TableOptions {
  std::string ruleset;
  std::string diff;
  bool json = false;
};


std::string range_label(const Band& b) {
  if (b.min == k_rf_unbounded_low) return "RF <= " + std::to_string(b.max);
  if (b.max == k_rf_unbounded_high) return "RF >= " + std::to_string(b.min);
  if (b.min == b.max) return "RF " + std::to_string(b.min);
  return "RF " + std::to_string(b.min) + " to " + std::to_string(b.max);
}

Json odds_json(const Ruleset& r, const Band& b, bool at_halt) {
  Json a = Json::array();
  for (const auto& [beh, p] : band_odds(r, b, at_halt))
    a.push_back({{"behaviour", beh->id}, {"fraction", p.str()}, {"probability", p.value()}});
  return a;
}

Json row_json(const Ruleset& r, const std::array<BehaviourIndex, 6>& row) {
  Json a = Json::array();
  for (auto i : row) a.push_back(r.behaviour(i).id);
  return a;
}

void print_odds(std::ostream& out, const Ruleset& r, const Band& b, bool at_halt) {
  for (const auto& [beh, p] : band_odds(r, b, at_halt)) {
    char line[64];
    std::snprintf(line, sizeof line, "    %-5s %6s  ", p.str().c_str(), pct(p).c_str());
    out << line << beh->text << "\n";
  }
}

void print_row(std::ostream& out, const Ruleset& r, const std::array<BehaviourIndex, 6>& row) {
  out << "    D6:";
  for (std::size_t i = 0; i < 6; ++i) out << " " << (i + 1) << "=" << r.behaviour(row[i]).id;
  out << "\n";
}

// `--diff FILE`: what FILE changes against what it extends (or against
// --ruleset, when given).
int run_diff(const TableOptions& o, Io& io) {
  const RulesetDiff d = o.ruleset.empty() ? diff_overlay(o.diff) : diff_rulesets(o.ruleset, o.diff);
  // Both files must load as rulesets: a diff of a file that does not load
  // would show a rule nobody can play.
  load_ruleset(o.diff);
  if (!o.ruleset.empty()) load_ruleset(o.ruleset);
  if (o.json) print_json(io.out, lab::rule_diff_json(d));
  else io.out << lab::rule_diff_text(d);
  return 0;
}

int run_table(const TableOptions& o, Io& io) {
  if (!o.diff.empty()) return run_diff(o, io);
  RulesetPtr rules = ruleset_from(o.ruleset);
  const Ruleset& r = *rules;
  if (o.json) {
    Json j;
    j["ruleset"] = r.name;
    j["sources"] = r.sources;
    j["behaviours"] = Json::object();
    for (const auto& b : r.behaviours)
      j["behaviours"][b.id] = {{"text", b.text},
                               {"pace", k_pace_spec_names[static_cast<std::size_t>(b.pace)]},
                               {"direction", direction_name(b.direction)},
                               {"faces_enemy", b.faces_enemy},
                               {"charge_possible", b.charge_possible},
                               {"running", b.running}};
    j["bands"] = Json::array();
    for (const auto& b : r.bands) {
      Json jb{{"id", b.id}, {"label", b.label}};
      jb["min"] = b.min == k_rf_unbounded_low ? Json(nullptr) : Json(b.min);
      jb["max"] = b.max == k_rf_unbounded_high ? Json(nullptr) : Json(b.max);
      if (!b.text.empty()) jb["text"] = b.text;
      jb["cells"] = row_json(r, b.cells);
      jb["odds"] = odds_json(r, b, false);
      if (b.at_halt) {
        jb["at_halt"] = row_json(r, *b.at_halt);
        jb["odds_at_halt"] = odds_json(r, b, true);
      }
      j["bands"].push_back(jb);
    }
    j["modifiers"] = Json::array();
    for (const auto& m : r.modifiers) j["modifiers"].push_back({{"id", m.id}, {"value", m.value}, {"text", m.text}});
    print_json(io.out, j);
    return 0;
  }
  auto& out = io.out;
  out << "Actions Table: " << r.name << "\n";
  for (std::size_t i = 0; i < r.sources.size(); ++i) out << (i ? "  + " : "  from ") << r.sources[i] << "\n";
  for (const auto& b : r.bands) {
    out << "\n" << b.label << "  (" << range_label(b) << ")\n";
    if (!b.text.empty()) out << "  " << b.text << "\n";
    if (b.at_halt) {
      out << "  moving:\n";
      print_row(out, r, b.cells);
      print_odds(out, r, b, false);
      out << "  at halt:\n";
      print_row(out, r, *b.at_halt);
      print_odds(out, r, b, true);
    } else {
      print_row(out, r, b.cells);
      print_odds(out, r, b, false);
    }
  }
  out << "\nMarks: (Charge?) cells may lead to a charge; running cells (";
  bool first = true;
  for (const auto& b : r.behaviours)
    if (b.running) { out << (first ? "" : ", ") << b.id; first = false; }
  out << ") add the running modifier next turn.\n";
  out << "\nRisk-factor modifiers:\n";
  for (const auto& m : r.modifiers) {
    char v[16];
    std::snprintf(v, sizeof v, "%+d", m.value);
    out << "  " << v << "  " << m.text << (m.kind == Modifier::Kind::per ? "" : "") << "  [" << m.id << "]\n";
  }
  return 0;
}

}  // namespace

void add_table(CLI::App& app, Runner& run) {
  auto o = std::make_shared<TableOptions>();
  auto* c = app.add_subcommand("table", "Print the Actions Table as loaded, with each behaviour's exact odds per band.");
  c->add_option("--ruleset", o->ruleset, "Ruleset YAML file (default: built-in seed 002 tables); with --diff, the base to diff against");
  c->add_option("--diff", o->diff, "Show what this ruleset file (a house rule) changes against what it extends (or against --ruleset)");
  c->add_flag("--json", o->json, "Print JSON");
  c->callback([o, &run] { run = [o](Io& io) { return run_table(*o, io); }; });
}

}  // namespace vedette::cli
