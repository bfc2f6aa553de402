#pragma once
// The cavalry's shot in a solo session as one procedure: the order of its
// questions and their conditions, written once (docs/architecture.md, "One
// procedure, every front"), as solo_melee (engine/procedures/
// melee_procedure.hpp) is for the melee and next_charge_field
// (sims/solo/solo_turn.hpp) for the charge's form. `solo play`
// (sims/cli/solo_play.cpp, shooting_step) and the web page (through
// POST .../shot-plan, sims/web/web_plans.cpp) both ask shot_next() what it
// needs next, given the answers so far, and ask exactly that:
//
//   target ── no ──────────────────────────────────────────────▶ done (no target)
//     └ distance ── beyond its reach (it has no target) ───────▶ done (no target)
//         └ cover, only when a die could still hit in the open
//             └ (a die cannot hit, need over 6) ────────────────▶ done (cannot hit)
//             └ dice: the player's count of hits, or the session's dice
//                 └ no hit ─────────────────────────────────────▶ done
//                 └ a hit: mounted? (seed 002 L35: a hit on a mounted
//                   figure falls on the horse or the rider) ────▶ done
//
// The small rules (the reach, the band, the dice and the score: plan_shot
// through solo_shot; the session's dice: session_step_dice) stay where they
// are (sims/solo/solo_steps.cpp). shot_next is written in
// sims/solo/solo_turn.cpp (tests/test_layering.cpp: at most 20 files a folder).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <array>

#include "sims/solo/solo_command.hpp"
#include "sims/solo/solo_turn.hpp"

namespace vedette::solo {

// The answers given so far, in the procedure's order; an answer after one
// that is missing is not read.
struct ShotAnswers {
  std::optional<bool> target;     // an enemy it can see within its reach and arc
  std::optional<Length> distance;  // to that enemy, front to front
  std::optional<bool> cover;       // not asked (false) when it cannot matter
  // The dice: the player's count of hits (their own dice), or `rolled`:
  // the session's dice, as the shot will take them (session_step_dice).
  std::optional<int> hits;
  bool rolled = false;
  std::optional<bool> mounted;  // asked only after a hit (seed 002 L35)
};

// What the shot needs next, with the words every front shows.
struct ShotNeed {
  enum class Kind { target, distance, cover, dice, mounted, done } kind = Kind::done;
  std::string question, help;
  // From the distance on: whether it is within reach, and the reach.
  bool in_reach = false;
  // From the cover on (the shot planned): how many D6 and the score each
  // needs (over 6: none can hit). `rolled_before`: the session's dice were
  // rolled for this shot this turn (an undo): they are used again, the
  // player's own are not taken.
  int dice = 0, need = 0;
  bool rolled_before = false;
  // Once the dice are given: the hits they scored.
  std::optional<int> hits;
  // done: the command that records the shot (solo::Shoot; `mounted` only
  // when asked), and, with no target for a distance beyond its reach, why
  // in words ("30 cm is beyond its reach of 20 cm (7.75 in)").
  Shoot shoot;
  std::string why;
};
inline constexpr std::array<std::string_view, 6> k_shot_need_names{"target", "distance", "cover", "dice", "mounted", "done"};

// The next need of `unit`'s shot this turn given the answers so far. The
// unit must have a shooting step (shooting_chance's weapon).
ShotNeed shot_next(const Ruleset& r, const Session& s, std::size_t unit, const ShotAnswers& a);

}  // namespace vedette::solo
