#pragma once
// A ruleset file as one document, before it is read: for tools that walk a
// ruleset's numbers (the lab's sensitivity, calibration). Defined in
// engine/decision/ruleset.cpp with the loader, so the `extends:` chain is
// resolved exactly as load_ruleset resolves it.
#include <string>

#include "engine/core/doc.hpp"

namespace vedette {

// The file's `extends:` chain merged into one document (no `extends` key
// left). Throws LoadError.
Doc load_ruleset_doc(const std::string& path);

}  // namespace vedette
