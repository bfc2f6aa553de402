#pragma once
// `vedette play --json`'s "events", shared by the unit engine's play
// (sims/cli/commands/cmd_play.cpp) and the skirmish's (sims/cli/skirmish_cli.cpp). Kept out
// of sims/cli/cli.hpp: engine/core/record.hpp's Event would clash there with the
// solo session's.
#include <vector>

#include "engine/core/record.hpp"
#include "sims/cli/cli.hpp"

namespace vedette::cli {

// Each event's turn, phase, kind, the unit or figure it concerns (under the
// key `who`), its text and its data.
Json events_json(const std::vector<Event>& events, const char* who);

}  // namespace vedette::cli
