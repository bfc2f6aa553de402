#pragma once
// Checking table files: `vedette check FILE...` (any format Vedette reads)
// and `vedette asl check FILE...` (ASL Cavalry module tables only) share it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sims/cli/cli.hpp"

namespace vedette::cli {

// The formats Vedette reads from YAML.
enum class TableKind { ruleset, scenario, skirmish, session, seed004, asl };
// "ruleset", "scenario", "skirmish scenario", "session", "seed004",
// "asl_cavalry": the JSON `kind`.
std::string_view table_kind_name(TableKind k);

// What a file is, from its keys: `scenario:` (sims/scenarios), `skirmish:`
// (seed 001's skirmish scenarios, engine/modules/skirmish/skirmish.hpp), `format:
// vedette-session` (a solo game), `seed004:` (tables/seed004.yaml), the ASL
// module's sections (`movement:`, `mounting:`, ...; tables/asl_cavalry.yaml),
// or, for an overlay, what its `extends:` chain ends in; anything else is a
// ruleset. A file that does not parse is a ruleset: loading it says why.
TableKind table_kind(const std::string& path);

// Loads one file as `kind` (as `vedette check` does); throws LoadError.
void load_table(const std::string& file, TableKind kind);

// Loads each file as `only` if given, else as the kind it is; prints
// "FILE: ok (KIND ...)" per good file, "file:line:col: message" on stderr
// per problem (or all of it as JSON). Returns 0, or 2 if any file is bad.
int check_files(const std::vector<std::string>& files, bool json, Io& io, std::optional<TableKind> only = std::nullopt);

}  // namespace vedette::cli
