#pragma once
// `vedette schema`'s exploration (sims/cli/commands/cmd_schema.cpp): the
// documents of one kind that lead its loader down every branch, grown from
// `{}` by the loader's own notes (engine/core/schema_notes.hpp), with no
// sample file.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/doc.hpp"
#include "engine/core/schema_notes.hpp"
#include "sims/cli/check_files.hpp"

namespace vedette::cli {

struct Explored {
  Doc doc;                                  // as parsed, each node where it was written
  SchemaNotes notes;                        // what the loader noted loading it
};

struct ExploreStats {
  int documents = 0;  // documents kept (a branch of their own)
  int loads = 0;      // loads in all
  bool capped = false;  // a limit stopped it before every document settled
};

// Explores format `k`'s loader from `{}`, writing its trial documents in
// `folder` (which must exist). Deterministic: the same loader gives the same
// documents in the same order.
std::vector<Explored> explore_loader(const TableFormat& k, const std::string& folder, ExploreStats& stats);

}  // namespace vedette::cli
