#pragma once
// A new solo session: the units as the player names them
// ("Lancers:shock,hero,figures=12,heavy"), checked against the ruleset, and
// the file written (atomically). `vedette solo new` and the web page's "New
// game" both create sessions here (sims/cli/commands/cmd_solo.cpp,
// sims/web/web_app.cpp).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sims/solo/session.hpp"

namespace vedette::solo {

// Figures a unit has when the player does not say (figures=N).
inline constexpr int k_default_figures = 12;

struct UnitParse {
  UnitSpec spec;
  bool figures_given = false;
  // weapon= not given: the type's default_weapon (if any) was given it.
  bool weapon_from_type = false;
};
// One unit, "NAME:TYPE[,raw][,hero][,figures=N][,light|medium|heavy][,weapon=W]";
// SessionError naming the text and what was expected.
UnitParse parse_unit(const std::string& text, const Ruleset& r);

struct NewSession {
  std::filesystem::path path;         // the session file
  std::string ruleset;                // "" = the built-in default
  std::vector<std::string> units;     // as parse_unit reads them
  std::optional<std::uint64_t> seed;  // none: from the system's entropy
  bool physical = false;              // the player rolls the dice
  bool force = false;                 // replace an existing file
  std::string module;                 // "" or "asl"
};

struct Created {
  Session session;
  RulesetPtr rules;
  std::vector<bool> assumed;  // per unit: figures not given, the default assumed
  std::vector<bool> weapon_from_type;  // per unit: weapon= not given, the type's default_weapon carried
};

// Checks everything, then writes the file. SessionError (nothing written)
// for a bad name, unit, folder or an existing file without force;
// LoadError for a bad ruleset; AtomicWriteError if the write fails.
Created create_session(const NewSession& n);

}  // namespace vedette::solo
