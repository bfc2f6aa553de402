#include "engine/decision/odds.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "engine/decision/risk_factor.hpp"

namespace vedette {

namespace {

using StateKey = std::tuple<int, int, bool, bool, bool>;

StateKey key_of(const ChainState& s) {
  return {static_cast<int>(s.pace), s.gallop_streak, s.ran, s.has_run, s.charge_offered};
}

// What the running modifiers add when the unit ran last turn and nothing else
// is known: each modifier on `ran_last_turn`, asked with only that fact.
int running_modifiers_value(const Ruleset& r) {
  Facts only_ran;
  only_ran.set(Fact::ran_last_turn, 1);
  int total = 0;
  for (const auto& m : r.modifiers)
    if (std::find(m.facts.begin(), m.facts.end(), Fact::ran_last_turn) != m.facts.end())
      total += modifier_value(m, only_ran);
  return total;
}

}  // namespace

OddsChain::OddsChain(RulesetPtr rules, const OddsSetup& setup) : rules_(std::move(rules)), setup_(setup) {
  const Ruleset& r = *rules_;
  running_value_ = running_modifiers_value(r);
  // The gallop streak matters to decide() only up to the limit (it compares
  // with >=), so capping it there keeps the chain finite and exact.
  const int limit = std::max(0, r.supplement.gallop_max_turns);
  auto cap = [limit](int streak) { return std::clamp(streak, 0, limit); };

  std::map<StateKey, std::size_t> index;
  std::deque<std::size_t> todo;
  auto add = [&](const ChainState& s, int depth) {
    auto [it, inserted] = index.emplace(key_of(s), states_.size());
    if (inserted) {
      states_.push_back(s);
      rf_.push_back(rf_for(s.pace, s.ran));
      depth_.push_back(depth);
      moves_.emplace_back();
      todo.push_back(it->second);
    }
    return it->second;
  };

  ChainState start;
  start.pace = setup_.situation.pace;
  start.gallop_streak = cap(setup_.galloped);
  start.ran = setup_.situation.ran_last_turn;
  add(start, 0);

  // Breadth first: depth is the fewest turns to reach a state.
  while (!todo.empty()) {
    const std::size_t i = todo.front();
    todo.pop_front();
    const ChainState s = states_[i];
    const int rf = rf_[i];
    const int depth = depth_[i];
    UnitState unit;
    unit.type = setup_.type;
    unit.pace = s.pace;
    unit.gallop_streak = s.gallop_streak;
    std::vector<ChainMove> moves;
    for (int roll = 1; roll <= 6; ++roll) {
      const Decision d = decide(r, rf, roll, unit);
      const UnitState u = after(unit, d);
      ChainState n;
      n.pace = u.pace;
      n.gallop_streak = cap(u.gallop_streak);
      n.ran = d.behaviour->running;
      n.has_run = s.has_run || d.behaviour->running;
      n.charge_offered = s.charge_offered || d.behaviour->charge_possible;
      const std::size_t next = add(n, depth + 1);
      const auto b = static_cast<BehaviourIndex>(d.behaviour - r.behaviours.data());
      auto it = std::find_if(moves.begin(), moves.end(), [&](const ChainMove& m) { return m.behaviour == b && m.next == next; });
      if (it == moves.end()) moves.push_back({b, next, 1});
      else ++it->faces;
    }
    moves_[i] = std::move(moves);
  }
}

int OddsChain::rf_for(Pace pace, bool ran) const {
  if (setup_.rf) return *setup_.rf + (ran ? running_value_ : 0);
  Situation s = setup_.situation;
  s.pace = pace;
  s.ran_last_turn = ran;
  return rf_total(*rules_, Facts(s));
}

bool OddsChain::possible_within(BehaviourIndex b, int turns) const {
  for (std::size_t i = 0; i < size(); ++i)
    if (depth_[i] < turns)
      for (const auto& m : moves_[i])
        if (m.behaviour == b) return true;
  return false;
}

Eigen::MatrixXd OddsChain::transition() const {
  const auto n = static_cast<Eigen::Index>(size());
  Eigen::MatrixXd p = Eigen::MatrixXd::Zero(n, n);
  for (std::size_t i = 0; i < size(); ++i)
    for (const auto& m : moves_[i])
      p(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(m.next)) += m.faces / 6.0;
  return p;
}

Eigen::MatrixXd OddsChain::behaviour_given_state() const {
  Eigen::MatrixXd b = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(size()), static_cast<Eigen::Index>(rules_->behaviours.size()));
  for (std::size_t i = 0; i < size(); ++i)
    for (const auto& m : moves_[i]) b(static_cast<Eigen::Index>(i), m.behaviour) += m.faces / 6.0;
  return b;
}

std::vector<TurnOdds> turn_odds(const OddsChain& chain, int turns) {
  const auto n = static_cast<Eigen::Index>(chain.size());
  const Eigen::MatrixXd p = chain.transition();
  const Eigen::MatrixXd given = chain.behaviour_given_state();
  Eigen::RowVectorXd rf(n), has_run(n), charge(n);
  Eigen::MatrixXd pace = Eigen::MatrixXd::Zero(n, 4);
  for (Eigen::Index i = 0; i < n; ++i) {
    const ChainState& s = chain.state(static_cast<std::size_t>(i));
    rf(i) = chain.rf(static_cast<std::size_t>(i));
    has_run(i) = s.has_run ? 1.0 : 0.0;
    charge(i) = s.charge_offered ? 1.0 : 0.0;
    pace(i, static_cast<Eigen::Index>(s.pace)) = 1.0;
  }

  Eigen::RowVectorXd dist = Eigen::RowVectorXd::Zero(n);  // over states before the turn's roll
  dist(0) = 1.0;
  std::vector<TurnOdds> out;
  out.reserve(static_cast<std::size_t>(std::max(turns, 0)));
  for (int t = 1; t <= turns; ++t) {
    TurnOdds o;
    o.turn = t;
    o.expected_rf = dist.dot(rf);
    const Eigen::RowVectorXd beh = dist * given;
    o.behaviours.assign(beh.data(), beh.data() + beh.size());
    dist = (dist * p).eval();  // now over states after the turn
    o.has_run = dist.dot(has_run);
    o.charge_offered = dist.dot(charge);
    const Eigen::RowVectorXd by_pace = dist * pace;
    for (std::size_t k = 0; k < 4; ++k) o.pace[k] = by_pace(static_cast<Eigen::Index>(k));
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<ExactTurnOdds> exact_turn_odds(const OddsChain& chain, int turns) {
  if (turns > k_max_exact_turns)
    throw std::out_of_range("exact odds go to " + std::to_string(k_max_exact_turns) + " turns (6^turns must fit 64 bits), asked for " +
                            std::to_string(turns));
  // Each state's probability is count / 6^t; counts never exceed 6^t.
  const std::size_t n = chain.size();
  const std::size_t nb = chain.rules().behaviours.size();
  std::vector<std::int64_t> count(n, 0);
  count[0] = 1;
  std::int64_t den = 1;
  std::vector<ExactTurnOdds> out;
  for (int t = 1; t <= turns; ++t) {
    den *= 6;
    std::vector<std::int64_t> next(n, 0), beh(nb, 0);
    for (std::size_t i = 0; i < n; ++i) {
      if (count[i] == 0) continue;
      for (const auto& m : chain.moves(i)) {
        next[m.next] += count[i] * m.faces;
        beh[m.behaviour] += count[i] * m.faces;
      }
    }
    count = std::move(next);
    ExactTurnOdds o;
    o.turn = t;
    for (std::size_t b = 0; b < nb; ++b) o.behaviours.emplace_back(beh[b], den);
    std::int64_t run = 0, charge = 0;
    std::array<std::int64_t, 4> pace{};
    for (std::size_t i = 0; i < n; ++i) {
      const ChainState& s = chain.state(i);
      if (s.has_run) run += count[i];
      if (s.charge_offered) charge += count[i];
      pace[static_cast<std::size_t>(s.pace)] += count[i];
    }
    o.has_run = Fraction(run, den);
    o.charge_offered = Fraction(charge, den);
    for (std::size_t k = 0; k < 4; ++k) o.pace[k] = Fraction(pace[k], den);
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace vedette
