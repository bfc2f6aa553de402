// Editing tables: schemas/*.schema.json (JSON Schemas for editors' YAML
// language servers) are made by `vedette schema` from the loaders' own
// readers, exploring each loader from an empty document with no sample file
// (issue 31). Here: they are what the exploration makes today (no drift),
// sample files add nothing to them, every shipped file names its schema and
// validates against it, and a file the schema accepts loads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/core/doc.hpp"
#include "helpers.hpp"

namespace t_schema {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

namespace fs = std::filesystem;
using nlohmann::json;
using vtest::run_vedette;

namespace {

const std::string k_src = VEDETTE_SOURCE_DIR;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every YAML file shipped for designers: tables/ and sims/scenarios/, and a
// solo session of the tests (sessions are written by vedette itself).
std::vector<std::string> shipped() {
  std::vector<std::string> all;
  for (const char* dir : {"tables", "sims/scenarios", "tests/data/schema/accepted"})
    for (const auto& e : fs::recursive_directory_iterator(k_src + "/" + dir))
      if (e.path().extension() == ".yaml") all.push_back(e.path().string());
  std::sort(all.begin(), all.end());
  all.push_back(vtest::data("sessions/game.vedette.yaml"));
  all.push_back(vtest::data("sessions/turn.vedette.yaml"));     // version 3: the whole turn
  all.push_back(vtest::data("sessions/on_foot.vedette.yaml"));  // version 4: mounted infantry on foot
  all.push_back(vtest::data("sessions/optional.vedette.yaml"));  // version 4: fear of charge, a square
  all.push_back(vtest::data("sessions/declared.vedette.yaml"));  // version 6: a named target, not visible, a switch
  return all;
}

// A YAML value as a YAML language server sees it (YAML 1.2 core schema).
json to_json(const vedette::Doc& d) {
  using K = vedette::Doc::Kind;
  switch (d.kind) {
    case K::null: return nullptr;
    case K::map: {
      json o = json::object();
      for (const auto& e : d.entries) o[e.key] = to_json(e.value);
      return o;
    }
    case K::sequence: {
      json a = json::array();
      for (const auto& i : d.items) a.push_back(to_json(i));
      return a;
    }
    case K::scalar:
      if (d.quoted) return d.scalar;
      if (d.scalar == "~" || d.scalar == "null") return nullptr;
      if (d.scalar == "true") return true;
      if (d.scalar == "false") return false;
      if (auto i = vedette::parse_int(d.scalar)) return *i;
      if (auto x = vedette::parse_number(d.scalar)) return *x;
      return d.scalar;
  }
  return nullptr;
}

// The JSON Schema (draft-07) keywords the generated schemas use. Returns
// "" if `v` is valid, else where and why not.
std::string invalid(const json& v, const json& s, const json& root, const std::string& at) {
  if (s.is_boolean()) return s.get<bool>() ? "" : at + ": not allowed here";
  if (s.contains("$ref")) {
    const std::string ref = s["$ref"];
    return invalid(v, root["definitions"][ref.substr(std::string("#/definitions/").size())], root, at);
  }
  if (s.contains("if")) {
    const json& branch = invalid(v, s["if"], root, at).empty() ? s["then"] : s["else"];
    if (auto why = invalid(v, branch, root, at); !why.empty()) return why;
  }
  if (s.contains("anyOf")) {
    std::string whys;
    for (const auto& alt : s["anyOf"]) {
      auto why = invalid(v, alt, root, at);
      if (why.empty()) { whys.clear(); break; }
      whys += (whys.empty() ? "" : " | ") + why;
    }
    if (!whys.empty()) return whys;
  }
  if (s.contains("type")) {
    auto is = [&](const std::string& t) {
      return (t == "object" && v.is_object()) || (t == "array" && v.is_array()) || (t == "string" && v.is_string()) ||
             (t == "boolean" && v.is_boolean()) || (t == "null" && v.is_null()) || (t == "integer" && v.is_number_integer()) ||
             (t == "number" && v.is_number());
    };
    bool ok = false;
    if (s["type"].is_string()) ok = is(s["type"]);
    else for (const auto& t : s["type"]) ok = ok || is(t);
    if (!ok) return at + ": expected " + s["type"].dump() + ", found " + v.dump();
  }
  if (s.contains("enum") && std::find(s["enum"].begin(), s["enum"].end(), v) == s["enum"].end())
    return at + ": " + v.dump() + " is not one of " + s["enum"].dump();
  if (s.contains("const") && v != s["const"]) return at + ": expected " + s["const"].dump();
  if (v.is_number() && s.contains("minimum") && v.get<double>() < s["minimum"].get<double>()) return at + ": below the minimum";
  if (v.is_number() && s.contains("maximum") && v.get<double>() > s["maximum"].get<double>()) return at + ": above the maximum";
  if (v.is_string() && s.contains("pattern") && !std::regex_search(v.get<std::string>(), std::regex(s["pattern"].get<std::string>())))
    return at + ": '" + v.get<std::string>() + "' does not match " + s["pattern"].get<std::string>();
  if (v.is_object()) {
    if (s.contains("required"))
      for (const auto& k : s["required"])
        if (!v.contains(k.get<std::string>())) return at + ": missing key " + k.dump();
    for (const auto& [k, x] : v.items()) {
      const std::string here = at + "." + k;
      if (s.contains("properties") && s["properties"].contains(k)) {
        if (auto why = invalid(x, s["properties"][k], root, here); !why.empty()) return why;
        continue;
      }
      bool matched = false;
      if (s.contains("patternProperties"))
        for (const auto& [pat, ps] : s["patternProperties"].items())
          if (std::regex_search(k, std::regex(pat))) {
            matched = true;
            if (auto why = invalid(x, ps, root, here); !why.empty()) return why;
          }
      if (!matched && s.contains("additionalProperties"))
        if (auto why = invalid(x, s["additionalProperties"], root, here); !why.empty()) return why;
    }
  }
  if (v.is_array() && s.contains("items"))
    for (std::size_t i = 0; i < v.size(); ++i)
      if (auto why = invalid(v[i], s["items"], root, at + "[" + std::to_string(i) + "]"); !why.empty()) return why;
  return "";
}

// JSON as YAML flow text, with names written plain as a person writes them
// (some loaders read `any` differently from a quoted "any").
std::string flow_yaml(const json& v) {
  static const std::regex name(R"(^[A-Za-z_][A-Za-z0-9_.+-]*$)");
  if (v.is_object()) {
    std::string o = "{";
    for (auto it = v.begin(); it != v.end(); ++it) o += (it == v.begin() ? "" : ", ") + json(it.key()).dump() + ": " + flow_yaml(it.value());
    return o + "}";
  }
  if (v.is_array()) {
    std::string o = "[";
    for (std::size_t i = 0; i < v.size(); ++i) o += (i ? ", " : "") + flow_yaml(v[i]);
    return o + "]";
  }
  if (v.is_string()) {
    const std::string s = v;
    const bool reserved = s == "true" || s == "false" || s == "null" || s == "yes" || s == "no" || s == "y" || s == "n" || s == "on" || s == "off";
    if (std::regex_match(s, name) && !reserved) return s;
  }
  return v.dump();
}

// The schema a file names in its first line: `# yaml-language-server: $schema=PATH`.
std::string named_schema(const std::string& file) {
  std::ifstream in(file);
  std::string first;
  std::getline(in, first);
  static const std::regex modeline(R"(^# yaml-language-server: \$schema=(\S+)$)");
  std::smatch m;
  if (!std::regex_match(first, m, modeline)) return "";
  return (fs::path(file).parent_path() / m[1].str()).lexically_normal().string();
}

}  // namespace

namespace {

// Every place a schema accepts anything ({}).
void open_places(const json& j, const std::string& at, std::vector<std::string>& out) {
  if (j.is_object() && j.empty()) out.push_back(at);
  if (j.is_object())
    for (const auto& [k, v] : j.items()) open_places(v, at + "/" + k, out);
  if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i) open_places(j[i], at + "/" + std::to_string(i), out);
}

const std::set<std::string> k_kinds{"asl-cavalry.schema.json", "ruleset.schema.json", "scenario.schema.json",
                                    "seed004.schema.json", "session.schema.json", "skirmish-scenario.schema.json"};

}  // namespace

// With no file at all (issue 31): `vedette schema` explores each loader from
// `{}` (sims/cli/commands/schema_explore.cpp), and what it makes is schemas/
// byte for byte, one schema per kind of file.
TEST_CASE("schema: schemas/ is what `vedette schema` makes with no sample file, exploring the loaders (it cannot drift from them)",
          "[schema]") {
  vtest::TempDir dir;
  auto r = run_vedette({"schema", "--out", dir.path()});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("stopped by a limit") == std::string::npos);
  CHECK(r.out.find("its loader explored in") != std::string::npos);
  std::set<std::string> made;
  for (const auto& e : fs::directory_iterator(dir.path())) {
    made.insert(e.path().filename().string());
    INFO(e.path().filename().string() << " differs from schemas/: run scripts/schemas and commit the result");
    CHECK(slurp(e.path()) == slurp(k_src + "/schemas/" + e.path().filename().string()));
  }
  CHECK(made == k_kinds);
}

// The files given to `vedette schema` add nothing to what the exploration
// found (issue 31): every shipped file, the house rules of
// tests/data/schema/accepted/ (a behaviour, a weapon, a scenario writing
// every optional key) and one more house rule defining names of its own
// lead the loaders down no branch the exploration missed, and teach no name.
TEST_CASE("schema: the shipped files and house rules with names of their own change no schema (issue 31)", "[schema][heavy]") {
  vtest::TempDir dir;
  const std::string extra = dir.write("more_names.yaml",
                                      "extends: " + k_src + "/tables/default.yaml\n"
                                      "behaviours:\n  wheel_left: {text: Wheel left, pace: canter, direction: away}\n"
                                      "bands:\n  rf1:\n    cells: {2: wheel_left}\n"
                                      "weapons:\n  javelin: {name: Javelins, bands: [{to: 4cm, hit: 5}]}\n"
                                      "modifiers:\n  drizzle: {text: Drizzle, value: 1, when: galloping}\n"
                                      "profiles:\n  skirmishers: {name: Skirmishers, kind: cavalry, type: shooting, weight: light, weapon: javelin}\n");
  std::vector<std::string> args{"schema", "--out", dir.path() + "/out"};
  for (const auto& f : shipped()) args.push_back(f);
  args.push_back(extra);
  auto r = run_vedette(args);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("ruleset, its loader explored in") != std::string::npos);
  CHECK(r.out.find(" files") != std::string::npos);
  for (const auto& f : k_kinds) {
    INFO(f << ": a file given changed what the exploration made");
    CHECK(slurp(dir.path() + "/out/" + f) == slurp(k_src + "/schemas/" + f));
  }
  // And the schema says a behaviour's name is any text, a pace one of the engine's.
  const json schema = json::parse(slurp(k_src + "/schemas/ruleset.schema.json"));
  const json& whole = schema["definitions"]["whole"];
  CHECK(whole["properties"]["bands"]["additionalProperties"]["properties"]["cells"]["items"] == json{{"type", "string"}});
  CHECK(whole["properties"]["bands"]["additionalProperties"]["properties"]["cells"]["minItems"] == 6);
  CHECK(whole["properties"]["behaviours"]["additionalProperties"]["properties"]["pace"]["enum"].size() == 5);
}

// The exploration reaches every key: the only places the shipped schemas
// leave open are those the loader itself reads without a type, each named
// here with the loader that reads it. A key the exploration does not reach
// is open in the schema and fails this test.
TEST_CASE("schema: every place the shipped schemas leave open is one the loader reads without a type", "[schema]") {
  const std::map<std::string, std::set<std::string>> untyped{
      {"scenario.schema.json", {}},
      {"ruleset.schema.json", {}},
      {"skirmish-scenario.schema.json", {}},
      {"seed004.schema.json", {}},
      {"asl-cavalry.schema.json", {}},
      // sims/solo/session_read.cpp reads a session with readers of its own
      // (r.u64 for seeds, a format compared by hand, a memory compared with
      // the replay's), not the typed readers that note a type: these values
      // are left open. A session is written by `vedette solo`, not by hand.
      {"session.schema.json",
       {"/properties/format", "/properties/seed", "/properties/memory/additionalProperties",
        "/properties/history/items/properties/old_seed", "/properties/history/items/properties/new_seed",
        "/properties/history/items/properties/roll_index"}},
  };
  CHECK(untyped.size() == k_kinds.size());  // every kind
  for (const auto& [f, allowed] : untyped) {
    INFO(f);
    std::vector<std::string> open;
    open_places(json::parse(slurp(k_src + "/schemas/" + f)), "", open);
    for (const auto& at : open) {
      INFO("left open (accepts anything): " << at);
      CHECK(allowed.count(at) == 1);
    }
    CHECK(open.size() == allowed.size());
  }
}

// Words a loader takes besides a value's type (issue 31): they were open
// places when a sample file wrote them; now the schema says them.
TEST_CASE("schema: a word the loader takes besides a number is in the schema (smc_max any, move_cost impassable, at_turn_limit draw)",
          "[schema]") {
  const json asl = json::parse(slurp(k_src + "/schemas/asl-cavalry.schema.json"));
  const json& smc = asl["definitions"]["whole"]["properties"]["capacity"]["properties"]["squad"]["properties"]["smc_max"];
  REQUIRE(smc.contains("anyOf"));
  CHECK(std::find(smc["anyOf"].begin(), smc["anyOf"].end(), json{{"enum", {"any"}}}) != smc["anyOf"].end());
  const json sc = json::parse(slurp(k_src + "/schemas/scenario.schema.json"));
  const json& cost = sc["properties"]["terrain"]["properties"]["areas"]["items"]["properties"]["move_cost"];
  REQUIRE(cost.contains("anyOf"));
  CHECK(std::find(cost["anyOf"].begin(), cost["anyOf"].end(), json{{"enum", {"impassable"}}}) != cost["anyOf"].end());
  const json& limit = sc["properties"]["at_turn_limit"];
  REQUIRE(limit.contains("anyOf"));
  CHECK(std::find(limit["anyOf"].begin(), limit["anyOf"].end(), json{{"enum", {"draw"}}}) != limit["anyOf"].end());
}

TEST_CASE("schema: every shipped file names its schema and validates against it", "[schema]") {
  for (const auto& f : shipped()) {
    if (f.find("tests/data") != std::string::npos) continue;  // a test's session, not shipped
    INFO(f);
    const std::string schema_file = named_schema(f);
    REQUIRE_FALSE(schema_file.empty());
    REQUIRE(fs::exists(schema_file));
    const json schema = json::parse(slurp(schema_file));
    CHECK(invalid(to_json(vedette::parse_yaml_file(f)), schema, schema, "") == "");
  }
}

TEST_CASE("schema: a file the schema accepts loads, and typos the loader refuses the schema refuses too", "[schema]") {
  // Mutants of the whole (non-overlay) shipped tables: each top-level key
  // deleted in turn, and each misspelt. (Deeper deletions run into rules
  // between values, such as bands that must cover every RF or cells naming
  // a behaviour, which no schema states: `vedette check` has the last word.)
  vtest::TempDir dir;
  int accepted = 0, refused = 0;
  for (const char* name : {"tables/default.yaml", "tables/seed004.yaml", "tables/asl_cavalry.yaml"}) {
    const std::string file = k_src + "/" + name;
    const json schema = json::parse(slurp(named_schema(file)));
    const json doc = to_json(vedette::parse_yaml_file(file));
    std::vector<json> mutants;
    // Sections other sections name things from (a profile's weapon, a
    // cell's behaviour) are kept: deleting them breaks references.
    static const std::set<std::string> named{"weapons", "behaviours", "unit_types", "profiles", "faces", "terrain"};
    for (const auto& [k, v] : doc.items()) {
      json m = doc;
      m.erase(k);
      if (!named.count(k)) mutants.push_back(m);
      json typo = doc;
      typo.erase(k);
      typo[k + "x"] = v;
      mutants.push_back(typo);
    }
    for (std::size_t i = 0; i < mutants.size(); ++i) {
      // As YAML flow text: the loader reads the mutant as it is.
      const std::string path = dir.path() + "/mutant.yaml";
      std::ofstream(path) << flow_yaml(mutants[i]) << "\n";
      const bool ok = invalid(mutants[i], schema, schema, "").empty();
      if (!ok) {
        ++refused;
        continue;
      }
      ++accepted;
      auto r = run_vedette({"check", path});
      INFO(name << " mutant " << i << ": " << r.err);
      CHECK(r.status == 0);
    }
  }
  // Both kinds occur: the schema is neither everything nor nothing.
  CHECK(accepted > 5);
  CHECK(refused > 10);
}

}  // namespace t_schema
