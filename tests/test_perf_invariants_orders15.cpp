// What issue 32's fifteenth pass (the orders and the charges' repeated
// questions) relies on, checked against a fresh computation at every event of
// the signature scenarios' engagements:
//  * Engagement::prospect_kept (engine/engagement/engagement_charge.cpp): when
//    its key matches the battle, the kept prospect is charge_prospect's,
//    every field to the bit;
//  * a declared charge's target_was_in_range (Engagement::step_orders) is
//    the fresh answer at the pace step_orders asks;
//  * charge_reach's one prospect (engagement_charge.cpp): the figure
//    charge's "charge" event reports the fresh prospect of its charger and
//    target at its pace.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <string>

#include "engine/engagement/engagement.hpp"
#include "perf_invariants_util.hpp"

namespace t_perf_invariants_orders15 {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }
std::uint64_t bits(Length l) { return bits(l.as_cm()); }

bool same(const ChargeGeometry& a, const ChargeGeometry& b) {
  return bits(a.max_range) == bits(b.max_range) && bits(a.min_distance) == bits(b.min_distance) && a.in_range == b.in_range &&
         a.in_arc == b.in_arc && a.reaches == b.reaches && a.charge_bonus == b.charge_bonus && a.morale_check == b.morale_check &&
         a.out_of_reach == b.out_of_reach && bits(a.forced_move) == bits(b.forced_move) && a.shaken == b.shaken;
}

bool same(const ChargeProspect& a, const ChargeProspect& b) {
  return same(a.geometry, b.geometry) && bits(a.allowance) == bits(b.allowance) && bits(a.distance) == bits(b.distance) &&
         bits(a.max_range) == bits(b.max_range) && bits(a.min_distance) == bits(b.min_distance) && bits(a.turned_deg) == bits(b.turned_deg) &&
         bits(a.bearing_deg) == bits(b.bearing_deg) && a.in_range == b.in_range && a.in_arc == b.in_arc && a.uphill == b.uphill &&
         a.target_in_terrain == b.target_in_terrain && a.path_affordable == b.path_affordable && bits(a.emerges_at) == bits(b.emerges_at) &&
         a.emerges_too_close == b.emerges_too_close && a.crosses_obstacle == b.crosses_obstacle && bits(a.obstacle_at) == bits(b.obstacle_at) &&
         a.reaches == b.reaches && a.charge_bonus == b.charge_bonus && bits(a.forced_move) == bits(b.forced_move) &&
         a.shaken_if_short == b.shaken_if_short;
}

const EventValue* value(const Event& e, std::string_view key) {
  for (const auto& [k, v] : e.data)
    if (k == key) return &v;
  return nullptr;
}

std::size_t unit_named(const Battle& b, const std::string& name) {
  for (std::size_t i = 0; i < b.units().size(); ++i)
    if (b.unit(i).name == name) return i;
  FAIL("no unit " << name);
  return 0;
}

class Orders15Check final : public Recorder {
 public:
  explicit Orders15Check(const Engagement& g) : g_(g) {}
  void record(Event e) override {
    const Battle& b = g_.battle();
    // The kept prospect, whenever it would be answered from.
    if (g_.kept_prospect_holds()) {
      const Engagement::KeptProspect& k = g_.kept_prospect();
      ++prospects;
      if (!same(k.p, charge_prospect(b, k.i, k.t, k.pace))) ++differed;
    }
    if (e.phase == "orders") orders(b, e);
    if (e.phase == "movement" && e.kind == "charge" && value(e, "in_arc") != nullptr) figure_charge(b, e);
    if (e.kind == "charge_switch") ++switches;  // the charge that follows is on another target
  }
  long prospects = 0, declared = 0, charges = 0, switches = 0;
  long differed = 0;

 private:
  void orders(const Battle& b, const Event& e) {
    if (e.kind != "declare") return;
    // Engagement::step_orders' question, asked afresh.
    const std::size_t i = unit_named(b, e.unit);
    const Unit& u = b.unit(i);
    const Command& c = g_.commands()[i];
    const Pace dp = c.pace == Pace::halt ? Pace::walk : c.pace;
    const Pace pace = u.on_horse() ? b.pace_limit(i, dp) : Pace::walk;
    ++declared;
    if (u.target_was_in_range != charge_prospect(b, i, static_cast<std::size_t>(u.charge_target), pace).reaches) ++differed;
  }

  // "X charges Y at PACE: ..." (Engagement::charge_reach's event).
  void figure_charge(const Battle& b, const Event& e) {
    const std::size_t i = unit_named(b, e.unit);
    const auto* target = std::get_if<std::string>(value(e, "target"));
    REQUIRE(target != nullptr);
    const std::size_t t = unit_named(b, *target);
    const std::string at = " charges " + *target + " at ";
    const std::size_t from = e.text.find(at);
    REQUIRE(from != std::string::npos);
    const std::string_view rest = std::string_view(e.text).substr(from + at.size());
    std::size_t pace = k_pace_names.size();
    for (std::size_t k = 0; k < k_pace_names.size(); ++k)
      if (rest.substr(0, k_pace_names[k].size() + 1) == std::string(k_pace_names[k]) + ":") pace = k;
    REQUIRE(pace < k_pace_names.size());
    const ChargeProspect p = charge_prospect(b, i, t, static_cast<Pace>(pace));
    ++charges;
    const bool reached = p.reaches && b.unit(t).active();
    if (bits(std::get<double>(*value(e, "distance_cm"))) != bits(p.distance) ||
        bits(std::get<double>(*value(e, "range_cm"))) != bits(p.max_range) ||
        bits(std::get<double>(*value(e, "min_distance_cm"))) != bits(p.min_distance) || std::get<bool>(*value(e, "in_arc")) != p.in_arc ||
        std::get<bool>(*value(e, "reaches")) != reached || std::get<bool>(*value(e, "bonus")) != p.charge_bonus)
      ++differed;
  }

  const Engagement& g_;
};

}  // namespace

TEST_CASE("perf: the orders' and charges' kept prospects equal charge_prospect at every event of engagements",
          "[perf][engagement][hex]") {
  long prospects = 0, declared = 0, charges = 0, switches = 0;
  // 200 engagements a scenario: enough for charges switched to another
  // target (seed 003 L56), rare.
  vtest::play_signature_scenarios<Orders15Check>(3, 200, [&](const Scenario&, const Orders15Check& check) {
    CHECK(check.differed == 0);
    prospects += check.prospects;
    declared += check.declared;
    charges += check.charges;
    switches += check.switches;
  });
  // Each check was reached (over all the scenarios).
  CHECK(prospects > 100);
  CHECK(declared > 20);
  CHECK(charges > 20);
  CHECK(switches > 0);
}

}  // namespace t_perf_invariants_orders15
