#pragma once
// The rules modules a solo session can speak in (`solo new --module NAME`),
// one entry each: how the Actions Table's instruction reads in the module's
// terms, whether seed 003's charge form and turn steps apply, and a line for
// `solo new`. The session, `solo new` and the file reader know a module only
// through its entry (docs/architecture.md, the module seam); its name is the
// engine's module name (modules(), engine/engagement/engagement.hpp).
// Header-only: a module's entry is its one line here.
#include <string>
#include <string_view>
#include <vector>

#include "engine/decision/actions_table.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/modules/asl/asl_phrasing.hpp"

namespace vedette::solo {

struct SoloModule {
  std::string_view name;
  std::string_view summary;  // what its phrasing is, for `solo new`
  // Seed 003's charge form and the later steps of the turn (initiative,
  // shooting, melee, rally): false when the module fights them by its own
  // rulebook (the ASL Charge is declared and fought on the board, 13.6).
  bool table_steps = true;
  // The instruction for a decision, in the module's terms.
  std::string (*instruction)(const Ruleset& r, const Decision& d, const UnitState& before) = nullptr;
};
inline const std::vector<SoloModule>& solo_modules() {
  static const std::vector<SoloModule> m{
      {"asl", "instructions in ASL Cavalry terms: MF, hexes, Gallop, Charge; seed 000", false,
       [](const Ruleset& r, const Decision& d, const UnitState& before) {
         return asl::instruction(*asl::default_rules(), r, d, before);
       }},
  };
  return m;
}
// By name; null for "" (the ruleset's own phrasing) or an unknown name.
inline const SoloModule* find_solo_module(std::string_view name) {
  for (const SoloModule& m : solo_modules())
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace vedette::solo
