#pragma once
// The initiative and the end-of-turn morale step as procedures, like the
// charge's (engine/procedures/charge_procedure.hpp) and the melee's
// (melee_procedure.hpp): each says what it needs next (these dice, this
// answer from the table or the board, and the rule that asks it) or that it
// is done, with what happened. The engagement engine drives them with its
// dice streams and its board (engine/engagement/engagement.cpp,
// engagement_fighting.cpp); the solo session with the player's answers and
// the session's dice (sims/solo/solo_steps.cpp). The small rules they call
// (initiative_total, first_to_move, routs, rally_check) stay in
// engine/procedures/table_rules.hpp. A rule no seed line states (the rally
// is a choice of the tables) is named by its table entry.
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/core/dice.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/procedures/table_rules.hpp"

namespace vedette {

// Seed 003's initiative (turn sequence step 2): side 0 throws
// combat.initiative.dice D6, then side 1; each adds
// charge.declaring.initiative_modifier per charge it declared; the higher
// moves first, a tie going to the side that did not move first last turn
// (first_to_move: a choice, the seeds give no tie-break).
struct InitiativeFacts {
  std::array<int, 2> declared{};  // charges each side declared in step 1
  int first_last_turn = -1;       // -1 on the first turn
};
struct InitiativeResult {
  bool done = false;
  std::array<int, 2> roll{};   // the dice's sum (a side given as a total: that total)
  std::array<int, 2> total{};  // with the declared charges' modifier
  int first = 0;
  bool tie = false;
};
class InitiativeProcedure {
 public:
  struct Need {
    enum class Kind : std::uint8_t { roll, done };
    Kind kind = Kind::done;
    int side = 0;  // whose dice
    int dice = 0;
    std::string_view rule;
  };
  InitiativeProcedure(const Ruleset& r, const InitiativeFacts& f);
  Need next() const;
  bool done() const { return res_.done; }
  // The side's dice (throws std::logic_error when it is not that side's
  // turn to roll or the count is wrong, std::out_of_range off the die).
  void roll(int side, const int* faces, int n);
  void roll(Dice& dice, std::vector<int>* faces = nullptr);
  // A side's total as the table gives it, its own modifiers counted (the
  // solo player's side).
  void total(int side, int total);
  const InitiativeResult& result() const { return res_; }

 private:
  void given(int side, int roll, int total);
  const Ruleset* r_;
  InitiativeFacts f_;
  std::array<bool, 2> given_{};
  InitiativeResult res_;
};

// The end-of-turn morale step for one unit (combat.morale): a unit that has
// lost rout_losses_pct of its figures routs (no dice); a shaken or
// retreating unit rallies on 2D6 >= rally_target, but only with no enemy
// within rally_enemy_clear (asked first: then no dice are thrown).
struct RallyFacts {
  int lost = 0;
  int figures_start = 0;
  bool must_rally = false;  // shaken, or retreating after a melee
};
enum class RallyEnd : std::uint8_t { running, steady, routs, enemy_near, rallied, failed };
inline constexpr std::array<std::string_view, 6> k_rally_end_names{"running", "steady", "routs", "enemy_near", "rallied", "failed"};
class RallyProcedure {
 public:
  struct Need {
    enum class Kind : std::uint8_t { enemy_near, roll, done };
    Kind kind = Kind::done;
    int dice = 0;
    std::string_view rule;
  };
  RallyProcedure(const Ruleset& r, const RallyFacts& f);
  Need next() const;
  bool done() const { return end_ != RallyEnd::running; }
  // Is an enemy within rally_enemy_clear?
  void answer_enemy_near(bool near);
  void roll(const int* faces, int n);
  void roll(Dice& dice, std::vector<int>* faces = nullptr);
  RallyEnd end() const { return end_; }
  const RallyCheck& check() const { return check_; }

 private:
  const Ruleset* r_;
  bool asked_ = false;
  RallyEnd end_ = RallyEnd::running;
  RallyCheck check_;
};

}  // namespace vedette
