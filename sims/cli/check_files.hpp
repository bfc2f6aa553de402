#pragma once
// Checking table files: `vedette check FILE...` (any format Vedette reads)
// and `vedette asl check FILE...` (ASL Cavalry module tables only) share it.
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/doc.hpp"
#include "sims/cli/cli.hpp"

namespace vedette::cli {

// The formats Vedette reads from YAML, one entry each in table_formats():
// the core's (ruleset, scenario, solo session) and each rules module's
// (skirmish: seed 001's scenarios; blocks: seed 004's tables; asl: seed
// 000's tables; the modules are engine/engagement/engagement.hpp's
// modules()). `vedette check`, `vedette asl check` and `vedette schema`
// know a format only through its entry: a new module's tables are one entry
// in sims/cli/commands/cmd_check.cpp.
struct TableFormat {
  std::string_view kind;         // the JSON `kind`: "ruleset", "scenario", "skirmish scenario", ...
  std::string_view module;       // the module that owns it; "" for the core's
  std::string_view schema_name;  // schemas/NAME.schema.json
  bool extends = false;          // overlays another file with `extends:`
  std::string_view builtin;      // its built-in table's name (`extends: builtin:default`), or ""
  // Whether a document is of this format by its own keys. A `weak` sign is
  // asked only after an overlay's base was followed (the ASL module's
  // sections: a ruleset overlay's base decides first).
  bool (*is)(const Doc& d) = nullptr;
  bool weak = false;
  // Loads the file (throws LoadError) and says what it is in a few words;
  // its facts go into `entry` (the --json output).
  std::string (*check)(const std::string& file, Json& entry) = nullptr;
};
// In the order their signs are asked; the ruleset, last, is what a file is
// when nothing else says so.
const std::vector<TableFormat>& table_formats();
// By its `kind` (throws std::out_of_range for an unknown one).
const TableFormat& table_format_named(std::string_view kind);

// What a file is, from its keys: `scenario:` (sims/scenarios), `skirmish:`
// first (seed 001's skirmish scenarios, engine/modules/skirmish/skirmish.hpp),
// `format: vedette-session` (a solo game), `seed004:` (tables/seed004.yaml),
// or, for an overlay, what its `extends:` chain ends in, then the ASL
// module's sections (`movement:`, `mounting:`, ...; tables/asl_cavalry.yaml);
// anything else is a ruleset. A file that does not parse is a ruleset:
// loading it says why.
const TableFormat& table_format(const std::string& path);

// Loads one file as format `f` (as `vedette check` does); throws LoadError.
void load_table(const std::string& file, const TableFormat& f);

// Loads each file as `only` if given, else as the format it is; prints
// "FILE: ok (KIND ...)" per good file, "file:line:col: message" on stderr
// per problem (or all of it as JSON). Returns 0, or 2 if any file is bad.
int check_files(const std::vector<std::string>& files, bool json, Io& io, const TableFormat* only = nullptr);

}  // namespace vedette::cli
