// `vedette check`: validate files; one "file:line:col: message" per problem.
#include <memory>
#include <ostream>

#include "bots/registry.hpp"
#include "engine/diagnostics.hpp"
#include "engine/scenario.hpp"
#include "sims/cli.hpp"

namespace vedette::cli {

namespace {

struct CheckOptions {
  std::vector<std::string> files;
  bool json = false;
};

int run_check(const CheckOptions& o, Io& io) {
  int bad = 0;
  Json j = Json::array();
  for (const auto& f : o.files) {
    Json entry{{"file", f}};
    try {
      if (is_scenario_file(f)) {
        // A scenario: its first key is `scenario` (sims/scenarios/*.yaml).
        ScenarioPtr s = load_scenario_file(f);
        entry["ok"] = true;
        entry["kind"] = "scenario";
        entry["name"] = s->name;
        if (!o.json)
          io.out << f << ": ok (scenario '" << s->name << "', ruleset '" << s->rules->name << "', " << s->units.size() << " units, "
                 << s->turns << " turns)\n";
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
  auto* c = app.add_subcommand("check", "Validate ruleset and scenario files: exit 0, or 2 with file:line:col: message per problem.");
  c->add_option("files", o->files, "Files to check")->required();
  c->add_flag("--json", o->json, "Print the result as JSON");
  c->callback([o, &run] { run = [o](Io& io) { return run_check(*o, io); }; });
}

}  // namespace vedette::cli
