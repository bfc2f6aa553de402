#pragma once
// A ruleset file as one document, before it is read: for tools that walk a
// ruleset's numbers (the lab's sensitivity, calibration, `table --diff`).
// load_ruleset_doc is declared with the loader (engine/decision/ruleset.hpp)
// and defined beside it, so the `extends:` chain is resolved exactly as
// load_ruleset resolves it.
#include "engine/decision/ruleset.hpp"
