#pragma once
// `vedette play --json`'s "events", shared by the unit engine's play
// (sims/cmd_play.cpp) and the skirmish's (sims/skirmish_cli.cpp). Kept out
// of sims/cli.hpp: engine/record.hpp's Event would clash there with the
// solo session's.
#include <vector>

#include "engine/record.hpp"
#include "sims/cli.hpp"

namespace vedette::cli {

// Each event's turn, phase, kind, the unit or figure it concerns (under the
// key `who`), its text and its data.
Json events_json(const std::vector<Event>& events, const char* who);

}  // namespace vedette::cli
