#pragma once
// Synthetic engagements: small dice games whose odds are known exactly, so
// the harness, statistics and reports can be checked against exact values
// (and run before, or beside, the engagement engine). A scenario file whose
// first key is `synthetic:` names one (tests/data/lab/*.yaml):
//
//   synthetic: dice    outcome = one D6 (1-2: side a wins, 3: draw, 4-6: b);
//                      turns = 2D6; a_lost = 3D6; b_lost = turns + D6;
//                      morale_checks = D6 checks of 2D6 >= 8 (15/36 each);
//                      and one Actions Table decision (a D6) in every band
//                      of the ruleset. Every figure is a sum of dice.
//   synthetic: duel    a cavalry regiment driven by the ruleset's Actions
//                      Table against a battalion that shoots; charges go
//                      through launch (D6 >= 3), the ruleset's 2D6 morale
//                      check (seed 003) or, with `charge.infantry_square`
//                      on, the square's die (seed 004), then a D6 melee.
//                      Decision frequencies per band, morale and bounce
//                      rates are exact; the rest is whatever the dice give.
//
// Every roll comes from make_stream(seed, index, subsystem): decisions,
// movement (launch), shooting, melee and morale each have their own stream.
#include <memory>
#include <string>

#include "engine/core/doc.hpp"
#include "sims/lab/lab_model.hpp"

namespace vedette::lab {

// Whether this document is a synthetic scenario (first key `synthetic`).
bool is_synthetic(const Doc& root);

// Reads a synthetic scenario; throws LoadError with every problem located.
std::unique_ptr<LabScenario> load_synthetic(const Doc& root, const std::string& path);

}  // namespace vedette::lab
