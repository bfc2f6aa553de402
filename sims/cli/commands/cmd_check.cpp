// `vedette check`: validate files of every format Vedette reads; one
// "file:line:col: message" per problem. `vedette asl check` uses it too.
#include "sims/cli/check_files.hpp"

#include <array>
#include <filesystem>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "bots/registry.hpp"
#include "engine/modules/asl/asl_cavalry.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "engine/engagement/scenario.hpp"
#include "engine/modules/blocks/seed004.hpp"
#include "engine/modules/skirmish/skirmish.hpp"
#include "sims/cli/cli.hpp"
#include "sims/solo/session.hpp"

namespace vedette::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_builtin = "builtin:";
constexpr int k_max_extends = 16;  // as the loaders' own limit

// The sections only the ASL Cavalry module tables have.
constexpr std::array<std::string_view, 5> k_asl_sections{"movement", "mounting", "capacity", "wave", "fire"};

// "; an overlay on A, B" for a file merged onto others (base first), or "".
std::string overlay_note(const std::vector<std::string>& sources) {
  if (sources.size() < 2) return "";
  std::string s = "; an overlay on ";
  for (std::size_t i = 0; i + 1 < sources.size(); ++i) s += (i ? ", " : "") + sources[i];
  return s;
}

// Each format's load, and what "ok (...)" says about it.
std::string check_session(const std::string& f, Json& entry) {
  solo::Session session = solo::Session::load(f);
  entry["turn"] = session.state().turn;
  entry["units"] = session.header().units.size();
  std::ostringstream o;
  o << "solo session, turn " << session.state().turn << ", " << session.header().units.size() << " units, "
    << session.history().size() << " events";
  return o.str();
}
std::string check_scenario(const std::string& f, Json& entry) {
  ScenarioPtr s = load_scenario_file(f);
  entry["name"] = s->name;
  std::ostringstream o;
  o << "scenario '" << s->name << "', ruleset '" << s->rules->name << "', " << s->units.size() << " units, " << s->turns << " turns";
  return o.str();
}
std::string check_skirmish(const std::string& f, Json& entry) {
  SkirmishScenarioPtr s = load_skirmish_scenario(f);
  entry["name"] = s->name;
  std::ostringstream o;
  o << "skirmish scenario '" << s->name << "', ruleset '" << s->rules->name << "', " << s->figures.size() << " figures, "
    << s->turns << " turns";
  return o.str();
}
std::string check_seed004(const std::string& f, Json& entry) {
  Seed004Ptr r = load_seed004(f);
  entry["name"] = r->name;
  std::ostringstream o;
  o << "seed 004 tables '" << r->name << "', a " << r->faces.size() << "-face battle die, " << r->terrain.size() << " terrains";
  return o.str();
}
std::string check_asl(const std::string& f, Json& entry) {
  asl::RulesPtr r = asl::load_rules(f);
  entry["name"] = r->name;
  return "ASL Cavalry tables '" + r->name + "', " + std::to_string(r->terrain.size()) + " terrains" + overlay_note(r->sources);
}
std::string check_ruleset(const std::string& f, Json& entry) {
  RulesetPtr r = load_ruleset(f);
  entry["name"] = r->name;
  return "ruleset '" + r->name + "', " + std::to_string(r->bands.size()) + " bands, " + std::to_string(r->modifiers.size()) +
         " modifiers" + overlay_note(r->sources);
}

const TableFormat* format_of_doc(const Doc& d, const std::string& path, int depth);

// What the base of an overlay is: a built-in table by name, or the file
// (relative to the overlay's folder) by its own keys.
const TableFormat* format_of_base(const std::string& base, const std::string& from, int depth) {
  if (base.rfind(k_builtin, 0) == 0) {
    for (const TableFormat& t : table_formats())
      if (!t.builtin.empty() && base == t.builtin) return &t;
    return nullptr;  // an unknown built-in: the keys decide
  }
  if (depth >= k_max_extends) return nullptr;
  std::string path = base;
  if (!fs::path(base).is_absolute() && from.rfind(k_builtin, 0) != 0)
    path = (fs::path(from).parent_path() / base).lexically_normal().string();
  try {
    return format_of_doc(parse_yaml_file(path), path, depth + 1);
  } catch (const LoadError&) {
    return nullptr;  // loading the overlay will say what is wrong with its base
  }
}

const TableFormat* format_of_doc(const Doc& d, const std::string& path, int depth) {
  if (!d.is_map()) return nullptr;
  for (const TableFormat& t : table_formats())
    if (t.is && !t.weak && t.is(d)) return &t;
  if (const Doc* e = d.find("extends"); e && e->is_scalar())
    if (const TableFormat* t = format_of_base(e->scalar, path, depth)) return t;
  for (const TableFormat& t : table_formats())
    if (t.is && t.weak && t.is(d)) return &t;
  return nullptr;
}

struct CheckOptions {
  std::vector<std::string> files;
  bool json = false;
};

}  // namespace

const std::vector<TableFormat>& table_formats() {
  static const std::vector<TableFormat> formats{
      {"scenario", "", "scenario", false, "", [](const Doc& d) { return d.find("scenario") != nullptr; }, false, &check_scenario},
      // A skirmish scenario's first key is `skirmish` (a skirmish ruleset
      // holds a `skirmish:` section too, later).
      {"skirmish scenario", "skirmish", "skirmish-scenario", false, "",
       [](const Doc& d) { return !d.entries.empty() && d.entries.front().key == "skirmish"; }, false, &check_skirmish},
      {"session", "", "session", false, "",
       [](const Doc& d) {
         const Doc* f = d.find("format");
         return f && f->is_scalar() && f->scalar == solo::k_format;
       },
       false, &check_session},
      {"seed004", "blocks", "seed004", false, "", [](const Doc& d) { return d.find("seed004") != nullptr; }, false, &check_seed004},
      {"asl_cavalry", "asl", "asl-cavalry", true, asl::k_builtin_rules,
       [](const Doc& d) {
         for (auto key : k_asl_sections)
           if (d.find(key)) return true;
         return false;
       },
       true, &check_asl},
      {"ruleset", "", "ruleset", true, "builtin:default", nullptr, false, &check_ruleset},
  };
  return formats;
}

const TableFormat& table_format_named(std::string_view kind) {
  for (const TableFormat& t : table_formats())
    if (t.kind == kind) return t;
  throw std::out_of_range("no table format '" + std::string(kind) + "'");
}

void load_table(const std::string& file, const TableFormat& f) {
  Json ignored;
  f.check(file, ignored);
}

const TableFormat& table_format(const std::string& path) {
  const TableFormat& ruleset = table_formats().back();
  try {
    const TableFormat* t = format_of_doc(parse_yaml_file(path), path, 0);
    return t ? *t : ruleset;
  } catch (const LoadError&) {
    return ruleset;
  }
}

int check_files(const std::vector<std::string>& files, bool json, Io& io, const TableFormat* only) {
  int bad = 0;
  Json j = Json::array();
  for (const auto& f : files) {
    Json entry{{"file", f}};
    try {
      const TableFormat& format = only ? *only : table_format(f);
      Json facts = Json::object();
      const std::string said = format.check(f, facts);
      entry["ok"] = true;
      entry["kind"] = format.kind;
      entry.update(facts);
      if (!json) io.out << f << ": ok (" << said << ")\n";
    } catch (const LoadError& e) {
      ++bad;
      entry["ok"] = false;
      entry["problems"] = Json::array();
      for (const auto& d : e.diagnostics()) {
        entry["problems"].push_back({{"file", d.where.file}, {"line", d.where.line}, {"column", d.where.column}, {"message", d.message}});
        if (!json) io.err << d.str() << "\n";
      }
    }
    j.push_back(entry);
  }
  if (json) print_json(io.out, j);
  return bad ? 2 : 0;
}

void add_check(CLI::App& app, Runner& run) {
  auto o = std::make_shared<CheckOptions>();
  auto* c = app.add_subcommand("check",
                               "Validate any file Vedette reads (rulesets and overlays, scenarios, solo sessions, seed 004 "
                               "tables, ASL Cavalry tables): exit 0, or 2 with file:line:col: message per problem.");
  c->add_option("files", o->files, "Files to check")->required();
  c->add_flag("--json", o->json, "Print the result as JSON");
  c->callback([o, &run] { run = [o](Io& io) { return check_files(o->files, o->json, io); }; });
}

}  // namespace vedette::cli
