// The engagement engine's scenarios, seen by the lab. PLACEHOLDER until the
// engine (issue 4) lands: only synthetic scenarios can be played.
#include "engine/diagnostics.hpp"
#include "sims/lab_model.hpp"

namespace vedette::lab {

std::unique_ptr<LabScenario> open_engine_scenario(const std::string& path) {
  throw LoadError({path, 1, 1},
                  "not a scenario the lab can play: the engagement engine is not built in yet; only synthetic scenarios "
                  "(first key `synthetic:`, see sims/toy_engagement.hpp) can be simulated");
}

}  // namespace vedette::lab
