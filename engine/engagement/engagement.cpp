// The turn sequence of an engagement (docs/turn-sequence.md, step by step):
// the turn loop, orders, initiative and the end of the turn. Its other steps:
// movement in engine/engagement/engagement_movement.cpp, shooting, melee and
// morale in engine/engagement/engagement_fighting.cpp, charges in
// engine/engagement/engagement_charge.cpp.
#include "engine/engagement/engagement.hpp"

#include "engine/procedures/turn_procedures.hpp"
#include "engine/procedures/table_rules.hpp"
#include "engine/engagement/engagement_text.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/procedures/combat.hpp"
#include "engine/decision/risk_factor.hpp"

namespace vedette {

using namespace engagement_detail;

// The `figures` module: the figure rules of seeds 002 and 003 (the module
// seam: engine/engagement/engagement.hpp, EngagementHooks).
const EngagementHooks Engagement::k_figure_hooks{&Engagement::figure_start,
                                                   &Engagement::figure_charge,
                                                   &Engagement::figure_formation,
                                                   &Engagement::figure_shooting,
                                                   &Engagement::figure_melee,
                                                   &Engagement::figure_after_melee,
                                                   &Engagement::figure_morale};

const std::vector<ModuleInfo>& modules() {
  static const std::vector<ModuleInfo> m{
      {"figures", {}, "002, 003", "engine/engagement", {"tables/default.yaml"}, &Engagement::k_figure_hooks},
      {"blocks", {"seed004", "engagement_blocks"}, "004", "engine/modules/blocks", {"tables/seed004.yaml"}, &Engagement::k_block_hooks},
      {"skirmish", {}, "001", "engine/modules/skirmish", {"tables/skirmish.yaml"}, nullptr},
      {"asl", {}, "000", "engine/modules/asl", {"tables/asl_cavalry.yaml"}, nullptr},
  };
  return m;
}

const ModuleInfo* find_module(std::string_view name) {
  for (const ModuleInfo& m : modules()) {
    if (m.name == name) return &m;
    for (std::string_view a : m.aliases)
      if (a == name) return &m;
  }
  return nullptr;
}

// ------------------------------------------------------------- engagement

Engagement::Engagement(const Scenario& s, std::array<const Bot*, 2> bots, std::uint64_t seed, std::uint64_t index)
    : b_(s),
      r_(*s.rules),
      bots_(bots),
      decisions_(rng_decisions_),
      movement_(rng_movement_),
      shooting_(rng_shooting_),
      melee_(rng_melee_),
      morale_(rng_morale_) {
  const std::size_t n = b_.units_.size();
  commands_.resize(n);
  pending_hits_.resize(n);
  moved_cm_.resize(n);
  moved_pace_.resize(n);
  contacts_.reserve(n * 2);
  go_others_.reserve(n);
  rolled_.reserve(16);
  rolled_back_.reserve(16);
  out_.bands = r_.bands.size();
  out_.behaviours = r_.behaviours.size();
  out_.chosen.assign(out_.bands * out_.behaviours, 0);
  // Every reason an engagement can end with, so that finishing allocates nothing.
  turn_limit_reason_ = "the turn limit (" + std::to_string(s.turns) + ") is reached: " +
                       (s.at_turn_limit ? s.sides[*s.at_turn_limit].name + " holds" : std::string("a draw"));
  std::size_t longest = turn_limit_reason_.size();
  for (const VictoryCondition& v : s.victory) longest = std::max(longest, v.text.size());
  out_.reason.reserve(longest);
  // The module that resolves the turn's steps: the scenario's `blocks:` key
  // (on a hex board) chooses seed 004's block units.
  if (s.blocks && s.hex) blocks_ = s.blocks.get();
  hooks_ = find_module(blocks_ ? "blocks" : "figures")->engagement;
  for (std::size_t k = 0; k < 2; ++k) opp_makes_[k] = bots_[k] && bots_[k]->makes_opportunity_charges();
  for (std::size_t k = 0; k < 2; ++k) opp_cheap_[k] = bots_[k] && bots_[k]->opportunity_charge_cheap();
  for (std::size_t j = 0; j < n; ++j) side_units_[b_.units_[j].side].push_back(j);
  if (b_.hex()) cover_memo_.assign(k_cover_memos, CoverMemo{});
  start(seed, index);
}

void Engagement::reset(std::uint64_t seed, std::uint64_t index) {
  b_.reset();
  std::fill(commands_.begin(), commands_.end(), Command{});
  std::fill(pending_hits_.begin(), pending_hits_.end(), 0);
  std::fill(moved_cm_.begin(), moved_cm_.end(), 0.0);
  std::fill(moved_pace_.begin(), moved_pace_.end(), Pace::halt);
  contacts_.clear();
  kept_prospect_.valid = false;  // Battle::reset() counts a change too; dropped all the same
  declared_ = {};
  order_ = {0, 1};
  last_first_ = 255;
  out_.winner.reset();
  out_.reason.clear();
  out_.turns = 0;
  out_.sides = {};
  std::fill(out_.chosen.begin(), out_.chosen.end(), 0U);
  finished_ = false;
  start(seed, index);
}

void Engagement::start(std::uint64_t seed, std::uint64_t index) {
  const std::uint64_t prefix = stream_prefix(seed, index);  // make_stream(seed, index, sub), shared part once
  rng_decisions_ = make_stream_from(prefix, Subsystem::decisions);
  rng_movement_ = make_stream_from(prefix, Subsystem::movement);
  rng_shooting_ = make_stream_from(prefix, Subsystem::shooting);
  rng_melee_ = make_stream_from(prefix, Subsystem::melee);
  rng_morale_ = make_stream_from(prefix, Subsystem::morale);
  decisions_ = Dice(rng_decisions_);
  movement_ = Dice(rng_movement_);
  shooting_ = Dice(rng_shooting_);
  melee_ = Dice(rng_melee_);
  morale_ = Dice(rng_morale_);
  (this->*hooks_->start)();
  for (const Unit& u : b_.units_) {
    SideOutcome& so = out_.sides[u.side];
    ++so.units;
    so.figures_start += u.figures_start;
  }
}

const Outcome& Engagement::run() {
  while (play_turn()) {
  }
  return out_;
}

bool Engagement::play_turn() {
  if (finished_) return false;
  ++b_.turn_;
  out_.turns = b_.turn_;
  if (rec_) {
    Event e = event("turn", "turn", SIZE_MAX);
    e.text = "Turn " + std::to_string(b_.turn_) + " of " + std::to_string(b_.scenario().turns);
    emit(std::move(e));
  }
  step_orders();
  step_initiative();
  step_movement();
  step_shooting();
  step_melee();
  step_morale();
  step_end();
  return !finished_;
}

// ------------------------------------------------------------- 1. orders

void Engagement::step_orders() {
  std::fill(commands_.begin(), commands_.end(), Command{});
  declared_ = {0, 0};
  for (std::uint8_t side = 0; side < 2; ++side) bots_[side]->orders(b_, side, decisions_, commands_);

  for (std::size_t i = 0; i < b_.units_.size(); ++i) {
    Unit& u = b_.units_[i];
    if (!u.active()) continue;
    Command& c = commands_[i];
    if (rec_) {
      Event e = event("orders", "sight", i);
      std::string seen;
      Terms data;
      for (std::size_t j = 0; j < b_.units_.size(); ++j) {
        if (!b_.units_[j].active() || !b_.enemies(i, j) || !b_.sees(i, j)) continue;
        const Length g = b_.gap(i, j);
        seen += (seen.empty() ? "" : ", ") + name(j) + " (" + len(g) + ")";
        data.emplace_back(name(j), std::llround(g.as_cm() * 100));
      }
      e.text = name(i) + " sees " + (seen.empty() ? "no enemy" : seen);
      e.with("seen_gap_hundredths_cm", std::move(data));
      emit(std::move(e));
    }
    if (u.order == Order::routed) continue;
    if (c.reacted && c.decision.band && c.decision.behaviour) {
      const auto band = static_cast<std::size_t>(c.decision.band - r_.bands.data());
      const auto beh = static_cast<std::size_t>(c.decision.behaviour - r_.behaviours.data());
      if (band < out_.bands && beh < out_.behaviours) ++out_.chosen[band * out_.behaviours + beh];
      if (rec_) {
        const RiskFactor rf = compute_rf(r_, c.facts);
        Event e = event("orders", "rf", i);
        std::string terms;
        Terms data;
        for (const auto& t : rf.breakdown) {
          terms += " " + signed_str(t.value) + " " + t.reason + ";";
          data.emplace_back(t.modifier->id, t.value);
        }
        e.text = name(i) + " risk factor " + std::to_string(rf.total) + (terms.empty() ? " (no modifier applies)" : " =" + terms);
        if (!terms.empty()) e.text.pop_back();
        e.with("rf", static_cast<long long>(rf.total)).with("breakdown", std::move(data));
        emit(std::move(e));
        Event d = event("orders", "decision", i);
        d.text = name(i) + " D6 " + std::to_string(c.decision.roll) + " on " + c.decision.band->label + ": " + c.decision.behaviour->text;
        if (c.decision.adjust != PaceAdjust::none) {
          UnitState s{u.type, u.pace, u.gallop_streak};
          d.text += " [" + adjustment_note(r_, c.decision, s) + "]";
        }
        d.with("roll", static_cast<long long>(c.decision.roll))
            .with("band", c.decision.band->id)
            .with("behaviour", c.decision.behaviour->id)
            .with("pace", std::string(pace_name(c.decision.pace)));
        emit(std::move(d));
        // Issue 29: a "(Charge?)" cell that yields no declaration says why,
        // naming the rule (why_no_declaration, engine/engagement/engagement_charge.cpp).
        if (c.decision.behaviour->charge_possible && c.charge == k_no_unit) {
          const Pace dp = c.decision.pace == Pace::halt ? Pace::walk : c.decision.pace;
          const NoDeclaration nd =
              why_no_declaration(b_, i, u.on_horse() ? b_.pace_limit(i, dp) : Pace::walk, c.move == Move::mount || c.move == Move::dismount);
          Event n = event("orders", "no_charge", i);
          n.text = name(i) + " declares no charge: " + nd.why + (nd.rule.empty() ? "" : " [" + std::string(nd.rule) + "]");
          n.with("rule", std::string(nd.rule));
          if (nd.about != k_no_unit) n.with("target", name(static_cast<std::size_t>(nd.about)));
          emit(std::move(n));
        }
      }
    }
    if (c.charge == k_no_unit) continue;
    // Seed 003: declarations from turn 2, by units in good order, against a
    // visible enemy.
    const auto t = static_cast<std::size_t>(c.charge);
    const ChargeGate gate = charge_gate(b_, i, c.charge, ChargeWhen::declare);
    if (!gate.allowed) {
      if (rec_) {
        Event e = event("orders", "declare_refused", i);
        e.text = name(i) + " may not declare a charge: " + std::string(gate.why);
        e.with("rule", std::string(gate.rule));
        emit(std::move(e));
      }
      c.charge = k_no_unit;
      continue;
    }
    u.charge_declared = true;
    u.charge_target = c.charge;
    {
      const Pace dp = c.pace == Pace::halt ? Pace::walk : c.pace;
      u.target_was_in_range = charge_prospect(b_, i, t, u.on_horse() ? b_.pace_limit(i, dp) : Pace::walk).reaches;
    }
    ++declared_[u.side];
    ++out_.sides[u.side].charges_declared;
    if (rec_) {
      Event e = event("orders", "declare", i);
      e.text = name(i) + " declares a charge on " + name(t);
      e.with("target", name(t));
      emit(std::move(e));
    }
  }
}

// --------------------------------------------------------- 2. initiative

void Engagement::step_initiative() {
  // The initiative's order and dice are engine/procedures/turn_procedures.hpp's.
  std::array<std::vector<int>, 2> faces;
  InitiativeProcedure p(r_, {{declared_[0], declared_[1]}, last_first_ == 255 ? -1 : last_first_});
  p.roll(decisions_, rec_ ? &faces[0] : nullptr);
  p.roll(decisions_, rec_ ? &faces[1] : nullptr);
  const std::array<int, 2>& total = p.result().total;
  const auto first = static_cast<std::uint8_t>(p.result().first);
  order_ = {first, static_cast<std::uint8_t>(1 - first)};
  last_first_ = first;
  if (rec_) {
    Event e = event("initiative", "initiative", SIZE_MAX);
    std::string t;
    for (std::size_t s = 0; s < 2; ++s) {
      t += (s ? "; " : "") + b_.scenario().sides[s].name + " " + faces_str(faces[s]);
      if (declared_[s])
        t += " " + signed_str(r_.charge.declare_initiative_modifier * declared_[s]) + " (" + std::to_string(declared_[s]) +
             " charge" + (declared_[s] > 1 ? "s" : "") + " declared)";
      t += " = " + std::to_string(total[s]);
      e.with(b_.scenario().sides[s].name, static_cast<long long>(total[s]));
    }
    e.text = "Initiative: " + t + " -> " + b_.scenario().sides[first].name + " moves first" + (total[0] == total[1] ? " (tie)" : "");
    e.with("first", b_.scenario().sides[first].name);
    emit(std::move(e));
  }
}

// ------------------------------------------------------- 7. end of turn

void Engagement::step_end() {
  for (std::size_t i = 0; i < b_.units_.size(); ++i) {
    Unit& u = b_.units_[i];
    // Seed 002's gallop streak, through the Actions Table's own bookkeeping.
    if (u.on_horse()) {
      Decision d;
      d.pace = moved_pace_[i];
      const UnitState s = after(UnitState{u.type, u.pace, u.gallop_streak}, d);
      u.pace = s.pace;
      u.gallop_streak = s.gallop_streak;
    } else {
      u.pace = Pace::halt;
      u.gallop_streak = 0;
    }
    u.ran_last_turn = u.ran_this_turn;
    // Seed 002 L53 "retreating as a result of melee": a state, from the turn
    // after the fall back until the unit rallies (a unit repulsed in good
    // order counts the next turn only).
    u.retreated_from_melee = u.retreated_this_turn || (u.retreated_from_melee && u.order != Order::good);
    u.charged_last_turn = u.charged_this_turn;
    u.charge_declared = false;
    u.charge_target = k_no_unit;
    u.target_was_in_range = false;
    u.charged_this_turn = false;
    u.moved_this_turn = false;
    u.acted_this_turn = false;
    u.charge_barred = false;
    u.engaged = false;
    u.struck_this_turn = false;
    u.ran_this_turn = false;
    u.retreated_this_turn = false;
  }
  if (!check_victory() && b_.turn_ >= b_.scenario().turns) finish(b_.scenario().at_turn_limit, turn_limit_reason_);
}

bool Engagement::check_victory() {
  const Scenario& s = b_.scenario();
  for (const VictoryCondition& v : s.victory) {
    bool met = false;
    switch (v.kind) {
      case VictoryCondition::Kind::side_losses: {
        int start = 0, lost = 0;
        for (const Unit& u : b_.units_) {
          if (u.side != v.side) continue;
          start += u.figures_start;
          lost += u.lost() + ((u.order == Order::routed || u.off_table) ? u.figures : 0);
        }
        met = start > 0 && lost * 100 >= v.at_least_pct * start;
        break;
      }
      case VictoryCondition::Kind::side_routed:
        met = std::all_of(b_.units_.begin(), b_.units_.end(),
                          [&](const Unit& u) { return u.side != v.side || !u.active() || u.order == Order::routed; });
        break;
      case VictoryCondition::Kind::reaches_edge:
        for (std::size_t i = 0; i < b_.units_.size() && !met; ++i) {
          const Unit& u = b_.units_[i];
          if (v.unit ? i != *v.unit : u.side != v.side) continue;
          met = u.active() && u.order != Order::routed && b_.at_edge(i, v.edge);
        }
        break;
    }
    if (met) {
      finish(v.winner, v.text);
      return true;
    }
  }
  return false;
}

void Engagement::finish(std::optional<std::uint8_t> winner, std::string_view reason) {
  finished_ = true;
  out_.winner = winner;
  out_.reason.assign(reason);  // within the capacity reserved at construction
  if (rec_) {
    Event e = event("end", "result", SIZE_MAX);
    e.text = (winner ? b_.scenario().sides[*winner].name + " wins" : std::string("Draw")) + " after " + std::to_string(b_.turn_) + " turn" +
             (b_.turn_ == 1 ? "" : "s") + ": " + out_.reason;
    e.with("winner", winner ? b_.scenario().sides[*winner].name : std::string()).with("reason", out_.reason);
    emit(std::move(e));
  }
}

// ---------------------------------------------------------------- events

Event Engagement::event(const char* phase, const char* kind, std::size_t unit) const {
  Event e;
  e.turn = b_.turn_;
  e.phase = phase;
  e.kind = kind;
  if (unit < b_.units_.size()) e.unit = b_.units_[unit].name;
  return e;
}

void Engagement::emit(Event e) { rec_->record(std::move(e)); }

std::string Engagement::len(Length l) const { return format_length_prose(l, r_.units); }

}  // namespace vedette
