#include "sims/solo/solo_module.hpp"

#include "engine/modules/asl/asl_phrasing.hpp"

namespace vedette::solo {

const std::vector<SoloModule>& solo_modules() {
  static const std::vector<SoloModule> m{
      {"asl", "instructions in ASL Cavalry terms: MF, hexes, Gallop, Charge; seed 000", false,
       [](const Ruleset& r, const Decision& d, const UnitState& before) {
         return asl::instruction(*asl::default_rules(), r, d, before);
       }},
  };
  return m;
}

const SoloModule* find_solo_module(std::string_view name) {
  for (const SoloModule& m : solo_modules())
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace vedette::solo
