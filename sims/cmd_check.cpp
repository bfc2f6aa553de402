// `vedette check`: validate files; one "file:line:col: message" per problem.
#include <memory>
#include <ostream>

#include "bots/registry.hpp"
#include "engine/diagnostics.hpp"
#include "engine/scenario.hpp"
#include "engine/skirmish.hpp"
#include "engine/doc.hpp"
#include "sims/cli.hpp"
#include "sims/session.hpp"

namespace vedette::cli {

namespace {

struct CheckOptions {
  std::vector<std::string> files;
  bool json = false;
};

// What a file is, from its first key: `scenario: NAME` (sims/scenarios),
// `format: vedette-session` (a solo game), anything else a ruleset. A file
// that does not parse is checked as a ruleset, which reports why.
enum class Kind { ruleset, scenario, session };
Kind kind_of(const std::string& path) {
  try {
    Doc d = parse_yaml_file(path);
    if (!d.is_map() || d.entries.empty()) return Kind::ruleset;
    const auto& first = d.entries.front();
    if (first.key == "scenario") return Kind::scenario;
    if (first.key == "format" && first.value.is_scalar() && first.value.scalar == "vedette-session") return Kind::session;
  } catch (const LoadError&) {
  }
  return Kind::ruleset;
}

int run_check(const CheckOptions& o, Io& io) {
  int bad = 0;
  Json j = Json::array();
  for (const auto& f : o.files) {
    Json entry{{"file", f}};
    try {
      Kind kind = kind_of(f);
      if (kind == Kind::session) {
        solo::Session session = solo::Session::load(f);
        entry["ok"] = true;
        entry["kind"] = "session";
        entry["turn"] = session.state().turn;
        entry["units"] = session.header().units.size();
        if (!o.json)
          io.out << f << ": ok (solo session, turn " << session.state().turn << ", " << session.header().units.size()
                 << " units, " << session.history().size() << " events)\n";
      } else if (kind == Kind::scenario) {
        // A scenario: its first key is `scenario` (sims/scenarios/*.yaml).
        ScenarioPtr s = load_scenario_file(f);
        entry["ok"] = true;
        entry["kind"] = "scenario";
        entry["name"] = s->name;
        if (!o.json)
          io.out << f << ": ok (scenario '" << s->name << "', ruleset '" << s->rules->name << "', " << s->units.size() << " units, "
                 << s->turns << " turns)\n";
      } else if (is_skirmish_file(f)) {
        // Seed 001's skirmish scenario (first key `skirmish`, engine/skirmish.hpp).
        SkirmishScenarioPtr s = load_skirmish_scenario(f);
        entry["ok"] = true;
        entry["kind"] = "skirmish scenario";
        entry["name"] = s->name;
        if (!o.json)
          io.out << f << ": ok (skirmish scenario '" << s->name << "', ruleset '" << s->rules->name << "', " << s->figures.size()
                 << " figures, " << s->turns << " turns)\n";
      } else {
        RulesetPtr r = load_ruleset(f);
        entry["ok"] = true;
        entry["kind"] = "ruleset";
        entry["name"] = r->name;
        if (!o.json)
          io.out << f << ": ok (ruleset '" << r->name << "', " << r->bands.size() << " bands, " << r->modifiers.size()
                 << " modifiers)\n";
      }
    } catch (const LoadError& e) {
      ++bad;
      entry["ok"] = false;
      entry["problems"] = Json::array();
      for (const auto& d : e.diagnostics()) {
        entry["problems"].push_back({{"file", d.where.file}, {"line", d.where.line}, {"column", d.where.column}, {"message", d.message}});
        if (!o.json) io.err << d.str() << "\n";
      }
    }
    j.push_back(entry);
  }
  if (o.json) print_json(io.out, j);
  return bad ? 2 : 0;
}

}  // namespace

void add_check(CLI::App& app, Runner& run) {
  auto o = std::make_shared<CheckOptions>();
  auto* c = app.add_subcommand("check", "Validate rulesets, scenarios and solo sessions: exit 0, or 2 with file:line:col: message per problem.");
  c->add_option("files", o->files, "Files to check")->required();
  c->add_flag("--json", o->json, "Print the result as JSON");
  c->callback([o, &run] { run = [o](Io& io) { return run_check(*o, io); }; });
}

}  // namespace vedette::cli
