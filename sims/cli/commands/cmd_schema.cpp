// `vedette schema --out DIR [FILE...]`: a JSON Schema per kind of file
// (rulesets and house rules, scenarios, skirmish scenarios, solo sessions,
// seed 004's and the ASL module's tables), made from the loaders' own
// readers, which note every key they ask for, every value type and bound
// they read, the lists they want of a fixed length, and whether a choice is
// among the engine's own names (closed: an enum) or names a document
// defines (read_name: open, any text), engine/core/schema_notes.hpp. No
// sample file is needed: each loader is explored from `{}`
// (sims/cli/commands/schema_explore.cpp); files given may lead it further
// (the shipped ones add nothing: tests/test_schema.cpp), and no name or
// value is learnt from them. tests/test_schema.cpp regenerates schemas/ and
// fails on any difference; tests/schema/agree.mjs holds it to `vedette check`.
#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <thread>

#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "engine/core/schema_notes.hpp"
#include "sims/cli/check_files.hpp"
#include "sims/cli/cli.hpp"
#include "sims/cli/commands/schema_explore.hpp"
#include "sims/io/atomic_file.hpp"

namespace vedette::cli {

namespace {

namespace fs = std::filesystem;

// What the files of one kind showed at one place of the document.
struct Shape {
  bool map = false, fixed = false, sequence = false, scalar = false;
  bool untyped = false;  // a scalar here was read without a typed reader: anything goes
  int readings = 0;      // fixed map: MapReaders seen here
  // Fixed map: the keys asked for, and in how many readings each was
  // required (required in the schema only if required in every reading: a
  // unit needs `hex` on a hex board and `position` on a tabletop).
  std::vector<std::pair<std::string, int>> keys;
  std::map<std::string, std::unique_ptr<Shape>> props;
  std::unique_ptr<Shape> values;  // a map of names chosen by the file (behaviours, bands, ...)
  std::unique_ptr<Shape> items;   // sequence items
  long long count = -1;           // sequence: the exact length the loader wants (a D6 row: 6), or -1
  bool any_length = false;        // sequence: a reading took a list of any length (the count holds only if none did)
  std::set<std::string> types;
  double min = 0, max = 0;
  bool bounded = false;
  std::vector<std::string> choices;
  std::vector<std::string> words;  // taken besides the type (smc_max: any)
};

Shape& child(std::unique_ptr<Shape>& p) {
  if (!p) p = std::make_unique<Shape>();
  return *p;
}

void walk(const Doc& d, Shape& s, const SchemaNotes& notes) {
  auto it = d.where.line > 0 ? notes.find(d.where) : notes.end();
  const SchemaNote* note = it == notes.end() ? nullptr : &it->second;
  switch (d.kind) {
    case Doc::Kind::null: break;
    case Doc::Kind::map:
      // A map the loader read as a list of fixed length (an overlay's
      // `cells: {3: wheel_about}` replacing a D6 row's faces by number): the
      // overlay form of that list, its values the list's items.
      if (note && note->items >= 0) {
        s.sequence = true;
        s.count = note->items;
        for (const auto& e : d.entries) walk(e.value, child(s.items), notes);
        break;
      }
      s.map = true;
      // A MapReader that asked for no key iterates names the file chooses.
      if (note && note->map && !note->keys.empty() && !note->named_keys) {
        s.fixed = true;
        ++s.readings;
        for (const auto& key : note->keys) {
          const auto& k = key.first;  // (no structured binding: clang 14 cannot capture one in the lambda)
          const bool req = key.second;
          auto at = std::find_if(s.keys.begin(), s.keys.end(), [&](const auto& x) { return x.first == k; });
          if (at == s.keys.end()) s.keys.emplace_back(k, req ? 1 : 0);
          else at->second += req ? 1 : 0;
        }
        for (const auto& e : d.entries) walk(e.value, child(s.props[e.key]), notes);
      } else {
        for (const auto& e : d.entries) walk(e.value, child(s.values), notes);
      }
      break;
    case Doc::Kind::sequence:
      s.sequence = true;
      // A length only if every reading here wants that one (a session's
      // `dice` are two for a charge's initiation, any number for a shot).
      if (note && note->items >= 0 && (s.count < 0 || s.count == note->items)) s.count = note->items;
      else s.any_length = true;
      for (const auto& i : d.items) walk(i, child(s.items), notes);
      break;
    case Doc::Kind::scalar:
      s.scalar = true;
      // (A word the loader takes besides the type, `any`, is not read
      // untyped: the note's words say it.)
      if (!note || (note->type.empty() && std::find(note->words.begin(), note->words.end(), d.scalar) == note->words.end()))
        s.untyped = true;
      if (note && !note->type.empty()) {
        s.types.insert(note->type);
        if (note->type == "integer" || note->type == "number") {
          s.min = s.bounded ? std::min(s.min, note->min) : note->min;
          s.max = s.bounded ? std::max(s.max, note->max) : note->max;
          s.bounded = true;
        }
        for (const auto& w : note->words)
          if (std::find(s.words.begin(), s.words.end(), w) == s.words.end()) s.words.push_back(w);
        if (note->type == "choice")  // (a name's note lists the document's names: left open)
          for (const auto& c : note->choices)
            if (std::find(s.choices.begin(), s.choices.end(), c) == s.choices.end()) s.choices.push_back(c);
      }
      break;
  }
}

Json scalar_schema(const Shape& s) {
  Json any = Json::array();
  for (const auto& t : s.types) {
    if (t == "integer" || t == "number") {
      Json j{{"type", t}};
      if (s.bounded) {
        j["minimum"] = s.min;
        j["maximum"] = s.max;
      }
      any.push_back(j);
    } else if (t == "boolean") {
      any.push_back(Json{{"enum", Json::array({true, false, "yes", "no"})}});
    } else if (t == "choice") {  // the loader's own names: closed
      any.push_back(Json{{"enum", s.choices}});
    } else if (t == "name") {  // names a document defines (a house rule may add behaviours, weapons, ...): open
      any.push_back(Json{{"type", "string"}});
    } else if (t == "length") {
      any.push_back(Json{{"type", "string"}, {"pattern", "^[-+]?[0-9.]+ ?(cm|mm|in)$"}});
      any.push_back(Json{{"const", 0}});
    } else {  // text: any scalar reads as text
      for (const char* type : {"string", "number", "boolean"}) any.push_back(Json{{"type", type}});
    }
  }
  if (!s.words.empty() && !any.empty()) any.push_back(Json{{"enum", s.words}});
  if (any.empty() || s.untyped) return Json::object();  // read without a type (or not at all): anything
  return any.size() == 1 ? any[0] : Json{{"anyOf", any}};
}

// `overlay`: nothing required, a value may be ~ (deletes the base's), and a
// list may be replaced item by item with a map of item numbers.
Json schema_of(const Shape& s, bool overlay, bool top = false) {
  Json any = Json::array();
  if (s.map) {
    Json o{{"type", "object"}};
    if (s.fixed) {
      o["properties"] = Json::object();
      Json req = Json::array();
      for (const auto& [k, r] : s.keys) {
        auto p = s.props.find(k);
        o["properties"][k] = p == s.props.end() ? Json::object() : schema_of(*p->second, overlay);
        if (r == s.readings && !overlay) req.push_back(k);
      }
      o["additionalProperties"] = false;
      if (!req.empty()) o["required"] = req;
    } else {
      o["additionalProperties"] = s.values ? schema_of(*s.values, overlay) : Json::object();
    }
    any.push_back(o);
  }
  if (s.sequence) {
    const Json item = s.items ? schema_of(*s.items, overlay) : Json::object();
    Json list{{"type", "array"}, {"items", item}};
    const long long count = s.any_length ? -1 : s.count;
    if (count >= 0) list["minItems"] = list["maxItems"] = count;
    any.push_back(list);
    // An overlay replaces items by number: 1 to the length the loader wants
    // (a D6 row's faces 1-6), any whole number from 1 where it wants none.
    const std::string numbers = count > 0 && count <= 9 ? "^[1-" + std::to_string(count) + "]$" : "^[1-9][0-9]*$";
    if (overlay && !s.map) any.push_back(Json{{"type", "object"}, {"patternProperties", {{numbers, item}}}, {"additionalProperties", false}});
  }
  if (s.scalar) {
    Json sc = scalar_schema(s);
    if (sc.empty()) return Json::object();  // a value read without a type: anything
    any.push_back(sc);
  }
  if (overlay && !top) any.push_back(Json{{"type", "null"}});
  if (any.empty()) return Json::object();
  return any.size() == 1 ? any[0] : Json{{"anyOf", any}};
}

Json document_schema(const TableFormat& k, const Shape& top) {
  Json j;
  j["$schema"] = "http://json-schema.org/draft-07/schema#";
  j["title"] = "Vedette " + std::string(k.kind);
  // No count or list of files: the text does not change with them.
  j["description"] = "Generated by `vedette schema` from the loader's own readers (the keys it asks for, the types, bounds and list lengths it "
                     "reads, the engine's own names; names a file defines are left open), exploring the loader from an empty document "
                     "with no sample file. Regenerate with scripts/schemas; tests/test_schema.cpp fails when it differs.";
  Json full = schema_of(top, false, true), over = schema_of(top, true, true);
  if (k.extends) {
    for (Json* s : {&full, &over})
      if (s->contains("properties")) (*s)["properties"]["extends"] = Json{{"type", "string"}, {"description", "the base file (or builtin:NAME) this one overlays"}};
    j["definitions"] = {{"whole", full}, {"overlay", over}};
    j["if"] = {{"type", "object"}, {"properties", {{"extends", {{"type", "string"}}}}}, {"required", Json::array({"extends"})}};
    j["then"] = {{"$ref", "#/definitions/overlay"}};
    j["else"] = {{"$ref", "#/definitions/whole"}};
  } else {
    for (auto& [key, value] : full.items()) j[key] = value;
  }
  return j;
}

struct SchemaOptions {
  std::vector<std::string> files;
  std::string out;
};

int run_schema(const SchemaOptions& o, Io& io) {
  // By format, in table_formats()'s order: first what the exploration of
  // its loader from `{}` found (sims/cli/commands/schema_explore.hpp), then
  // any files given, which may lead it down more branches.
  std::map<const TableFormat*, Shape> shapes;
  std::map<const TableFormat*, std::vector<std::string>> from;
  std::map<const TableFormat*, ExploreStats> explored;
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec) throw UsageError("--out " + o.out + ": cannot make the folder: " + ec.message());
  for (const auto& f : o.files) {  // every file is checked before anything is explored or written
    SchemaRecorder rec;
    load_table(f, table_format(f));  // a file that does not load is refused (exit 2): a schema is made of good files only
  }
  std::string tmpl = (fs::temp_directory_path() / "vedette-schema-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot make a folder for the exploration in " + fs::temp_directory_path().string());
  // One thread per kind (each its own recorder and trial file); walked in
  // table_formats()'s order, so the schema does not depend on the threads.
  const auto& formats = table_formats();
  std::vector<std::vector<Explored>> found(formats.size());
  std::vector<ExploreStats> stats(formats.size());
  std::vector<std::exception_ptr> failed(formats.size());
  {
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < formats.size(); ++i)
      threads.emplace_back([&, i] {
        try {
          found[i] = explore_loader(formats[i], tmpl, stats[i]);
        } catch (...) {
          failed[i] = std::current_exception();
        }
      });
    for (auto& t : threads) t.join();
  }
  fs::remove_all(tmpl, ec);
  for (std::size_t i = 0; i < formats.size(); ++i) {
    if (failed[i]) std::rethrow_exception(failed[i]);
    explored[&formats[i]] = stats[i];
    for (const Explored& e : found[i]) walk(e.doc, shapes[&formats[i]], e.notes);
  }
  for (const auto& f : o.files) {
    const TableFormat& k = table_format(f);
    SchemaRecorder rec;
    load_table(f, k);
    walk(parse_yaml_file(f), shapes[&k], rec.notes);
    from[&k].push_back(f);
  }
  for (const TableFormat& k : table_formats()) {
    const std::string path = (fs::path(o.out) / (std::string(k.schema_name) + ".schema.json")).string();
    write_file_atomically(path, document_schema(k, shapes[&k]).dump(2) + "\n");
    const ExploreStats& x = explored[&k];
    io.out << path << ": " << k.kind << ", its loader explored in " << x.documents << " document" << (x.documents == 1 ? "" : "s") << " ("
           << x.loads << " loads)";
    if (x.capped) io.out << ", stopped by a limit before every document settled";
    if (const auto& files = from[&k]; !files.empty()) io.out << ", and " << files.size() << " file" << (files.size() == 1 ? "" : "s");
    io.out << "\n";
  }
  return 0;
}

}  // namespace

void add_schema(CLI::App& app, Runner& run) {
  auto o = std::make_shared<SchemaOptions>();
  auto* c = app.add_subcommand("schema", "Write a JSON Schema per kind of file (for editors' YAML language servers), made from the loaders themselves.");
  c->add_option("FILE", o->files, "Files that lead the loaders down more branches than the exploration finds (none needed; none given by scripts/schemas)");
  c->add_option("--out", o->out, "Folder for KIND.schema.json (made if missing)")->required();
  c->footer("Each loader is explored from an empty document: it is loaded as `vedette check` loads a file while the loader's readers "
            "note each key they ask for (required or optional) and each value's type and bounds, the document grows from the notes, and "
            "each choice, true/false and optional key is tried once per place; the notes become the schema. Files that extend another "
            "get the overlay form (nothing required, ~ deletes, a map of item numbers replaces list items). VEDETTE_SCHEMA_TRACE=1 "
            "prints each trial document and what the loader said of it.");
  c->callback([o, &run] { run = [o](Io& io) { return run_schema(*o, io); }; });
}

}  // namespace vedette::cli
