// `vedette check`: validate files of every format Vedette reads; one
// "file:line:col: message" per problem. `vedette asl check` uses it too.
#include "sims/cli/check_files.hpp"

#include <array>
#include <filesystem>
#include <memory>
#include <ostream>
#include <sstream>

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

std::optional<TableKind> kind_of_doc(const Doc& d, const std::string& path, int depth);

// What the base of an overlay is: a built-in table by name, or the file
// (relative to the overlay's folder) by its own keys.
std::optional<TableKind> kind_of_base(const std::string& base, const std::string& from, int depth) {
  if (base.rfind(k_builtin, 0) == 0) {
    if (base == asl::k_builtin_rules) return TableKind::asl;
    if (base == "builtin:default") return TableKind::ruleset;
    return std::nullopt;  // an unknown built-in: the keys decide
  }
  if (depth >= k_max_extends) return std::nullopt;
  std::string path = base;
  if (!fs::path(base).is_absolute() && from.rfind(k_builtin, 0) != 0)
    path = (fs::path(from).parent_path() / base).lexically_normal().string();
  try {
    return kind_of_doc(parse_yaml_file(path), path, depth + 1);
  } catch (const LoadError&) {
    return std::nullopt;  // loading the overlay will say what is wrong with its base
  }
}

std::optional<TableKind> kind_of_doc(const Doc& d, const std::string& path, int depth) {
  if (!d.is_map()) return std::nullopt;
  if (d.find("scenario")) return TableKind::scenario;
  // A skirmish scenario's first key is `skirmish` (a skirmish ruleset holds a
  // `skirmish:` section too, later).
  if (!d.entries.empty() && d.entries.front().key == "skirmish") return TableKind::skirmish;
  if (const Doc* f = d.find("format"); f && f->is_scalar() && f->scalar == solo::k_format) return TableKind::session;
  if (d.find("seed004")) return TableKind::seed004;
  if (const Doc* e = d.find("extends"); e && e->is_scalar())
    if (auto k = kind_of_base(e->scalar, path, depth)) return k;
  for (auto key : k_asl_sections)
    if (d.find(key)) return TableKind::asl;
  return std::nullopt;
}

// "; an overlay on A, B" for a file merged onto others (base first), or "".
std::string overlay_note(const std::vector<std::string>& sources) {
  if (sources.size() < 2) return "";
  std::string s = "; an overlay on ";
  for (std::size_t i = 0; i + 1 < sources.size(); ++i) s += (i ? ", " : "") + sources[i];
  return s;
}

// Loads one file as `kind`: what "ok (...)" says about it, and its JSON.
std::string check_one(const std::string& f, TableKind kind, Json& entry) {
  std::ostringstream o;
  switch (kind) {
    case TableKind::session: {
      solo::Session session = solo::Session::load(f);
      entry["turn"] = session.state().turn;
      entry["units"] = session.header().units.size();
      o << "solo session, turn " << session.state().turn << ", " << session.header().units.size() << " units, "
        << session.history().size() << " events";
      break;
    }
    case TableKind::scenario: {
      ScenarioPtr s = load_scenario_file(f);
      entry["name"] = s->name;
      o << "scenario '" << s->name << "', ruleset '" << s->rules->name << "', " << s->units.size() << " units, " << s->turns
        << " turns";
      break;
    }
    case TableKind::skirmish: {
      SkirmishScenarioPtr s = load_skirmish_scenario(f);
      entry["name"] = s->name;
      o << "skirmish scenario '" << s->name << "', ruleset '" << s->rules->name << "', " << s->figures.size() << " figures, "
        << s->turns << " turns";
      break;
    }
    case TableKind::seed004: {
      Seed004Ptr r = load_seed004(f);
      entry["name"] = r->name;
      o << "seed 004 tables '" << r->name << "', a " << r->faces.size() << "-face battle die, " << r->terrain.size()
        << " terrains";
      break;
    }
    case TableKind::asl: {
      asl::RulesPtr r = asl::load_rules(f);
      entry["name"] = r->name;
      o << "ASL Cavalry tables '" << r->name << "', " << r->terrain.size() << " terrains" << overlay_note(r->sources);
      break;
    }
    case TableKind::ruleset: {
      RulesetPtr r = load_ruleset(f);
      entry["name"] = r->name;
      o << "ruleset '" << r->name << "', " << r->bands.size() << " bands, " << r->modifiers.size() << " modifiers"
        << overlay_note(r->sources);
      break;
    }
  }
  return o.str();
}

struct CheckOptions {
  std::vector<std::string> files;
  bool json = false;
};

}  // namespace

std::string_view table_kind_name(TableKind k) {
  switch (k) {
    case TableKind::ruleset: return "ruleset";
    case TableKind::scenario: return "scenario";
    case TableKind::skirmish: return "skirmish scenario";
    case TableKind::session: return "session";
    case TableKind::seed004: return "seed004";
    case TableKind::asl: return "asl_cavalry";
  }
  return "ruleset";
}

void load_table(const std::string& file, TableKind kind) {
  Json ignored;
  check_one(file, kind, ignored);
}

TableKind table_kind(const std::string& path) {
  try {
    return kind_of_doc(parse_yaml_file(path), path, 0).value_or(TableKind::ruleset);
  } catch (const LoadError&) {
    return TableKind::ruleset;
  }
}

int check_files(const std::vector<std::string>& files, bool json, Io& io, std::optional<TableKind> only) {
  int bad = 0;
  Json j = Json::array();
  for (const auto& f : files) {
    Json entry{{"file", f}};
    try {
      const TableKind kind = only.value_or(table_kind(f));
      Json facts = Json::object();
      const std::string said = check_one(f, kind, facts);
      entry["ok"] = true;
      entry["kind"] = table_kind_name(kind);
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
