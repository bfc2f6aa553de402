#pragma once
// Odds: exact multi-turn probabilities of the Actions Table for a unit whose
// situation stays as given (`vedette odds`).
//
// The decision process is a Markov chain. What the table remembers about a
// unit from one turn to the next is its state: the pace it moved at last turn
// (the canter/gallop modifier, the RF0 row's at-halt cells, "current" pace),
// its gallop streak (the gallop limit) and whether it ran last turn (the
// running modifier). Two absorbing flags ride along in the same state, so one
// chain answers the event questions too: "has run" (a running behaviour chosen
// at least once) and "charge offered" (a "(Charge?)" behaviour chosen at least
// once). Every turn each state rolls one D6: six equally likely cells of its
// band's row, resolved by `decide()` and `after()` exactly as in play.
//
// Two solvers over the same chain: `turn_odds` propagates the distribution
// with Eigen (doubles, any horizon); `exact_turn_odds` counts in integers over
// 6^t and gives Fractions (exact, up to k_max_exact_turns).
#include <Eigen/Dense>

#include <array>
#include <cstddef>
#include <optional>
#include <vector>

#include "engine/decision/actions_table.hpp"
#include "engine/core/facts.hpp"
#include "engine/core/fraction.hpp"
#include "engine/decision/ruleset.hpp"

namespace vedette {

// The unit's situation, held fixed, and where the chain starts.
struct OddsSetup {
  // The facts. `pace` and `ran_last_turn` give the start; from then on the
  // chain sets them from what the unit did. Every other fact stays as given
  // (`retreated_from_melee` too, for every turn).
  Situation situation;
  const UnitType* type = nullptr;  // null: no restrictions
  int galloped = 0;                // the start's gallop streak
  // Given: the risk factor from every modifier but the running ones, which
  // the chain adds (their value, read from the ruleset) the turn after a
  // running behaviour. The facts are then not asked (nor is the pace's
  // canter/gallop modifier: the given RF stands for it).
  std::optional<int> rf;
};

// One state of the chain.
struct ChainState {
  Pace pace = Pace::halt;       // the pace it moved at last turn
  int gallop_streak = 0;        // turns in a row at gallop, capped at the limit
  bool ran = false;             // chose a running behaviour last turn
  bool has_run = false;         // absorbing: chose a running behaviour on some turn so far
  bool charge_offered = false;  // absorbing: chose a (Charge?) behaviour on some turn so far
  friend bool operator==(const ChainState&, const ChainState&) = default;
};

// One way out of a state: a behaviour and the state it leads to, on `faces`
// of the six faces of the D6 (probability faces / 6).
struct ChainMove {
  BehaviourIndex behaviour = 0;
  std::size_t next = 0;
  int faces = 0;
};

// The chain over the states reachable from the start. State 0 is the start.
// Keeps the ruleset alive (unit types and behaviours point into it).
class OddsChain {
 public:
  OddsChain(RulesetPtr rules, const OddsSetup& setup);

  const Ruleset& rules() const { return *rules_; }
  const OddsSetup& setup() const { return setup_; }
  std::size_t size() const { return states_.size(); }
  const ChainState& state(std::size_t i) const { return states_[i]; }
  // The risk factor a unit in state i rolls on, and its band.
  int rf(std::size_t i) const { return rf_[i]; }
  const Band& band(std::size_t i) const { return rules_->band_for(rf_[i]); }
  // Where state i goes, merged by (behaviour, next); faces sum to 6.
  const std::vector<ChainMove>& moves(std::size_t i) const { return moves_[i]; }
  // The fewest turns from the start to state i.
  int depth(std::size_t i) const { return depth_[i]; }
  // Whether behaviour b can be chosen on some turn 1..turns.
  bool possible_within(BehaviourIndex b, int turns) const;
  // What the running modifiers add the turn after a running behaviour (used
  // with a given RF): the ruleset's modifiers on `ran_last_turn`.
  int running_value() const { return running_value_; }

  // P(i -> j): rows sum to 1.
  Eigen::MatrixXd transition() const;
  // P(behaviour b chosen | state i), by BehaviourIndex.
  Eigen::MatrixXd behaviour_given_state() const;

 private:
  int rf_for(Pace pace, bool ran) const;

  RulesetPtr rules_;
  OddsSetup setup_;
  int running_value_ = 0;
  std::vector<ChainState> states_;
  std::vector<int> rf_;
  std::vector<int> depth_;
  std::vector<std::vector<ChainMove>> moves_;
};

// The odds on turn `turn` (1 = the first decision).
struct TurnOdds {
  int turn = 0;
  std::vector<double> behaviours;    // by BehaviourIndex: P(chosen on this turn)
  double has_run = 0;                // P(a running behaviour chosen on some turn 1..turn)
  double charge_offered = 0;         // P(a (Charge?) behaviour chosen on some turn 1..turn)
  double expected_rf = 0;            // the mean risk factor rolled on this turn
  std::array<double, 4> pace{};      // by Pace: P(moving at it this turn, after the limits)
};

// Turns 1..turns, by propagating the distribution with Eigen.
std::vector<TurnOdds> turn_odds(const OddsChain& chain, int turns);

// The same as exact fractions (denominators divide 6^turn).
struct ExactTurnOdds {
  int turn = 0;
  std::vector<Fraction> behaviours;
  Fraction has_run;
  Fraction charge_offered;
  std::array<Fraction, 4> pace{};
};

// 6^24 < 2^63 <= 6^25: counts over 6^t fit a signed 64-bit integer up to here.
inline constexpr int k_max_exact_turns = 24;

// Turns 1..turns exactly. Throws std::out_of_range beyond k_max_exact_turns.
std::vector<ExactTurnOdds> exact_turn_odds(const OddsChain& chain, int turns);

}  // namespace vedette
