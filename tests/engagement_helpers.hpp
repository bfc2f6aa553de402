#pragma once
// Helpers for engagement tests: scenarios built in code (two sides, no
// victory conditions unless given) and a scripted bot whose commands and
// reactions the test chooses.
#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/record.hpp"
#include "engine/engagement/engagement.hpp"
#include "engine/engagement/scenario.hpp"

namespace vtest {

struct Placed {
  std::string name;
  std::uint8_t side = 0;  // 0 = "cavalry" (top edge), 1 = "infantry" (bottom edge)
  std::string profile;
  int figures = 12;
  vedette::Point pos;
  double facing = 0;
  vedette::Pace pace = vedette::Pace::halt;
  vedette::Formation formation = vedette::Formation::line;
};

inline std::shared_ptr<vedette::Scenario> make_scenario(vedette::RulesetPtr rules, const std::vector<Placed>& units,
                                                        double width_cm = 120, double depth_cm = 80, int turns = 10) {
  using namespace vedette;
  auto s = std::make_shared<Scenario>();
  s->name = "test";
  s->rules = rules;
  s->table = std::make_shared<Tabletop>(Length::cm(width_cm), Length::cm(depth_cm));
  SideSpec a, b;
  a.name = "cavalry";
  a.edge = Edge::top;
  a.bot = "scripted";
  b.name = "infantry";
  b.edge = Edge::bottom;
  b.bot = "scripted";
  s->sides = {a, b};
  for (const auto& p : units) {
    UnitSpec u;
    u.name = p.name;
    u.side = p.side;
    const Profile* prof = rules->find_profile(p.profile);
    if (!prof) throw std::invalid_argument("no profile " + p.profile);
    u.profile = static_cast<std::size_t>(prof - rules->profiles.data());
    u.figures = p.figures;
    u.position = p.pos;
    u.facing = p.facing;
    u.pace = p.pace;
    u.formation = p.formation;
    u.mounted = prof->kind == UnitKind::cavalry;
    s->units.push_back(u);
  }
  s->turns = turns;
  return s;
}

// A bot that does what the test says.
class ScriptedBot final : public vedette::Bot {
 public:
  using Script = std::function<vedette::Command(const vedette::Battle&, std::size_t unit)>;
  explicit ScriptedBot(Script s = {}) : script_(std::move(s)) {}
  std::string_view name() const override { return "scripted"; }
  void orders(const vedette::Battle& b, std::uint8_t side, vedette::Dice&, std::span<vedette::Command> out) const override {
    for (std::size_t i = 0; i < b.units().size(); ++i)
      if (b.unit(i).side == side && b.unit(i).active()) out[i] = script_ ? script_(b, i) : vedette::Command{};
  }
  bool form_square(const vedette::Battle&, std::size_t, std::size_t) const override { return square; }
  bool retire_and_reform(const vedette::Battle&, std::size_t, std::size_t) const override { return retire; }
  bool opportunity_charge(const vedette::Battle&, std::size_t, std::size_t, const vedette::Command&) const override { return opportunity; }
  bool square = false;
  bool retire = false;
  bool opportunity = false;

 private:
  Script script_;
};

// A command: charge `target` at `pace` from turn 2 (seed 003: none on turn 1).
inline ScriptedBot::Script charge_from_turn_2(vedette::UnitIndex who, vedette::UnitIndex target, vedette::Pace pace) {
  return [=](const vedette::Battle& b, std::size_t i) {
    vedette::Command c;
    if (static_cast<vedette::UnitIndex>(i) == who && b.turn() > 1) {
      c.charge = target;
      c.pace = pace;
      c.target = target;
    }
    return c;
  };
}

inline const vedette::EventValue* find_data(const vedette::Event& e, const std::string& key) {
  for (const auto& [k, v] : e.data)
    if (k == key) return &v;
  return nullptr;
}

template <class T>
T get(const vedette::Event& e, const std::string& key) {
  const vedette::EventValue* v = find_data(e, key);
  if (!v) throw std::out_of_range("event " + e.kind + " has no " + key);
  return std::get<T>(*v);
}

// Plays `turns` turns of engagement (seed, k) for k = 0, 1, ... until
// `pred` holds for its log (a charge initiation check or a die may need
// another try); fails the test when none of the first `tries` does.
template <class Pred>
vedette::EventLog play_until(const vedette::Scenario& s, const ScriptedBot& a, const ScriptedBot& b, int turns, Pred pred,
                             std::uint64_t seed, int tries) {
  for (int k = 0; k < tries; ++k) {
    vedette::Engagement g(s, {&a, &b}, seed, static_cast<std::uint64_t>(k));
    vedette::EventLog log;
    g.attach(&log);
    for (int t = 0; t < turns && g.play_turn(); ++t) {
    }
    if (pred(log)) return log;
  }
  FAIL("no engagement met the condition");
  return {};
}

}  // namespace vtest
