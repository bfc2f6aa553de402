// The Actions Table of seed 002 (docs/seeds.md,
// "Actions Table", "Cavalry units") and its cavalry supplement, as loaded
// from the built-in default ruleset: every cell, the RF0 special row, the
// marks, the band boundaries, exact odds, the gallop limit and mounted
// infantry.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <vector>

#include "engine/decision/actions_table.hpp"
#include "engine/decision/ruleset.hpp"
#include "helpers.hpp"

namespace t_table {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

// The seed's wording, copied verbatim from seed 002, Actions Table.
const std::string k_walk_cover =
    "Walk to take cover in the nearest accessible terrain within 1 move, or away from all enemies";
const std::string k_halt = "Halt in position facing the nearest enemy";
const std::string k_continue_charge = "Continue current actions facing the nearest enemy (Charge?)";
const std::string k_gallop_charge = "Advance towards nearest enemy at gallop (Charge?)";
const std::string k_canter_away = "Canter further from the nearest enemy";
const std::string k_flee = "Flee at Gallop from nearest enemy";
const std::string k_rf0_row =
    "Continue current actions, unless at halt, and a 6 (D6) is thrown, in which case they will move towards the "
    "nearest visible enemy.";

struct Cell {
  const char* id;
  const std::string* text;
};
const Cell W{"walk_to_cover", &k_walk_cover};
const Cell H{"halt_facing", &k_halt};
const Cell C{"continue_facing_charge", &k_continue_charge};
const Cell G{"gallop_advance_charge", &k_gallop_charge};
const Cell A{"canter_away", &k_canter_away};
const Cell F{"flee_gallop", &k_flee};

struct Row {
  const char* label;  // the seed's row label
  const char* band_id;
  std::vector<int> rfs;  // RFs inside the band to try
  std::array<Cell, 6> cells;
};

// seed 002, Actions Table, rows RF1, RF2-5, RF6-8, RF9+ (D6 1..6).
const std::vector<Row> k_rows{
    {"RF1", "rf1", {1}, {W, W, H, C, C, G}},
    {"RF2-5", "rf2_5", {2, 3, 4, 5}, {A, W, W, H, C, G}},
    {"RF6-8", "rf6_8", {6, 7, 8}, {F, A, W, W, H, C}},
    {"RF9+", "rf9_plus", {9, 10, 15, 50}, {F, F, A, W, W, H}},
};

UnitState moving(Pace p = Pace::walk) {
  UnitState s;
  s.pace = p;
  return s;
}

UnitState halted() { return moving(Pace::halt); }

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

const UnitState k_states[] = {moving(Pace::halt), moving(Pace::walk), moving(Pace::canter), moving(Pace::gallop)};

}  // namespace

TEST_CASE("table: seed 002 Actions Table - every cell of rows RF1 to RF9+ in every pace", "[table][seed002]") {
  const Ruleset& r = *default_ruleset();
  int cells_checked = 0;
  for (const auto& row : k_rows) {
    for (int rf : row.rfs) {
      for (const auto& state : k_states) {
        for (int face = 1; face <= 6; ++face) {
          const Cell& want = row.cells[static_cast<std::size_t>(face - 1)];
          Decision d = decide(r, rf, face, state);
          INFO("seed 002, Actions Table, row " << row.label << ", RF " << rf << ", D6 " << face << ", pace "
                                               << pace_name(state.pace));
          REQUIRE(d.band != nullptr);
          REQUIRE(d.behaviour != nullptr);
          CHECK(d.band->id == row.band_id);
          CHECK(d.band->label == row.label);
          CHECK(d.roll == face);
          CHECK(d.behaviour->id == want.id);
          CHECK(d.behaviour->text == *want.text);
          ++cells_checked;
        }
      }
    }
  }
  CHECK(cells_checked == (1 + 4 + 3 + 4) * 4 * 6);
}

TEST_CASE("table: seed 002 Actions Table - the 24 cells of RF1 to RF9+ one by one", "[table][seed002][002-L10-rf1-d1][002-L10-rf1-d2][002-L10-rf1-d3][002-L10-rf1-d4][002-L10-rf1-d5][002-L10-rf1-d6][002-L11-rf2-5-d1][002-L11-rf2-5-d2][002-L11-rf2-5-d3][002-L11-rf2-5-d4][002-L11-rf2-5-d5][002-L11-rf2-5-d6][002-L12-rf6-8-d1][002-L12-rf6-8-d2][002-L12-rf6-8-d3][002-L12-rf6-8-d4][002-L12-rf6-8-d5][002-L12-rf6-8-d6][002-L13-rf9-d1][002-L13-rf9-d2][002-L13-rf9-d3][002-L13-rf9-d4][002-L13-rf9-d5][002-L13-rf9-d6]") {
  // The same cells written out one per line, so a failure names the cell.
  const Ruleset& r = *default_ruleset();
  const UnitState s = moving();
  auto cell = [&](int rf, int face) { return decide(r, rf, face, s).behaviour->text; };
  // RF1
  CHECK(cell(1, 1) == k_walk_cover);
  CHECK(cell(1, 2) == k_walk_cover);
  CHECK(cell(1, 3) == k_halt);
  CHECK(cell(1, 4) == k_continue_charge);
  CHECK(cell(1, 5) == k_continue_charge);
  CHECK(cell(1, 6) == k_gallop_charge);
  // RF2-5
  CHECK(cell(3, 1) == k_canter_away);
  CHECK(cell(3, 2) == k_walk_cover);
  CHECK(cell(3, 3) == k_walk_cover);
  CHECK(cell(3, 4) == k_halt);
  CHECK(cell(3, 5) == k_continue_charge);
  CHECK(cell(3, 6) == k_gallop_charge);
  // RF6-8
  CHECK(cell(7, 1) == k_flee);
  CHECK(cell(7, 2) == k_canter_away);
  CHECK(cell(7, 3) == k_walk_cover);
  CHECK(cell(7, 4) == k_walk_cover);
  CHECK(cell(7, 5) == k_halt);
  CHECK(cell(7, 6) == k_continue_charge);
  // RF9+
  CHECK(cell(9, 1) == k_flee);
  CHECK(cell(9, 2) == k_flee);
  CHECK(cell(9, 3) == k_canter_away);
  CHECK(cell(9, 4) == k_walk_cover);
  CHECK(cell(9, 5) == k_walk_cover);
  CHECK(cell(9, 6) == k_halt);
  // And every cell does what its words say: the pace, the way it goes,
  // "facing the nearest enemy", "(Charge?)", and running (canter further
  // from / flee from the enemy, seed 002 L53's +3). Issue 29's sweep:
  // halt_facing with faces_enemy false passed the text checks above.
  struct Does {
    const std::string* text;
    PaceSpec pace;
    Direction direction;
    bool running;
  };
  const Does k_does[] = {{&k_walk_cover, PaceSpec::walk, Direction::to_cover, false},
                         {&k_halt, PaceSpec::halt, Direction::hold, false},
                         {&k_continue_charge, PaceSpec::current, Direction::keep, false},
                         {&k_gallop_charge, PaceSpec::gallop, Direction::toward, false},
                         {&k_canter_away, PaceSpec::canter, Direction::away, true},
                         {&k_flee, PaceSpec::gallop, Direction::away, true}};
  int cells_seen = 0;
  for (int rf : {1, 3, 7, 9})
    for (int face = 1; face <= 6; ++face) {
      const Behaviour& b = *decide(r, rf, face, s).behaviour;
      INFO("RF " << rf << ", D6 " << face << ": " << b.text);
      const Does* w = nullptr;
      for (const Does& x : k_does)
        if (*x.text == b.text) w = &x;
      REQUIRE(w != nullptr);
      ++cells_seen;
      CHECK(b.pace == w->pace);
      CHECK(b.direction == w->direction);
      CHECK(b.running == w->running);
      CHECK(b.charge_possible == (b.text.find("(Charge?)") != std::string::npos));
      const bool says_facing = b.text.find("facing the nearest enemy") != std::string::npos;
      CHECK((b.faces_enemy || !says_facing));
    }
  CHECK(cells_seen == 24);
}

TEST_CASE("table: seed 002 Actions Table - RF0 row: continue unless at halt and a 6", "[table][seed002][002-L9-rf0-continue][002-L9-rf0-halt-six]") {
  const Ruleset& r = *default_ruleset();
  const Band& b = r.band_for(0);
  CHECK(b.id == "rf0");
  CHECK(b.label == "Up to RF0");
  // The row's own wording, verbatim from seed 002.
  CHECK(b.text == k_rf0_row);
  REQUIRE(b.at_halt.has_value());

  for (int rf : {0, -1, -3, -10}) {
    // Moving (walk, canter, gallop): continue on every face, at its own pace.
    for (Pace p : {Pace::walk, Pace::canter, Pace::gallop}) {
      for (int face = 1; face <= 6; ++face) {
        INFO("seed 002, Actions Table, Up to RF0, RF " << rf << ", moving at " << pace_name(p) << ", D6 " << face);
        Decision d = decide(r, rf, face, moving(p));
        CHECK(d.behaviour->id == "continue");
        CHECK(d.behaviour->direction == Direction::keep);
        CHECK(d.pace == p);
        CHECK_FALSE(d.behaviour->charge_possible);
        CHECK_FALSE(d.behaviour->running);
      }
    }
    // At halt: 1-5 continue (stay at halt); 6 moves toward the nearest VISIBLE enemy.
    for (int face = 1; face <= 5; ++face) {
      INFO("seed 002, Actions Table, Up to RF0, at halt, D6 " << face);
      Decision d = decide(r, rf, face, halted());
      CHECK(d.behaviour->id == "continue");
      CHECK(d.pace == Pace::halt);
    }
    Decision six = decide(r, rf, 6, halted());
    CHECK(six.behaviour->id == "advance_nearest_visible");
    CHECK(six.behaviour->direction == Direction::toward);
    CHECK(six.behaviour->target == Target::nearest_visible_enemy);
    CHECK(six.pace != Pace::halt);  // it moves
    CHECK_FALSE(six.behaviour->charge_possible);
    CHECK_FALSE(six.behaviour->running);
  }

  // The two behaviours of the row say what the seed's row says.
  CHECK(k_rf0_row.rfind(r.find_behaviour("continue")->text, 0) == 0);  // "Continue current actions"
  CHECK(lower(k_rf0_row).find(lower(r.find_behaviour("advance_nearest_visible")->text)) != std::string::npos);
}

TEST_CASE("table: seed 002 Actions Table - only RF0 has an at-halt row", "[table][seed002]") {
  // Rows RF1 and above read the same for a unit at halt.
  const Ruleset& r = *default_ruleset();
  for (const auto& b : r.bands) CHECK(b.at_halt.has_value() == (b.id == "rf0"));
  for (int rf = 1; rf <= 12; ++rf)
    for (int face = 1; face <= 6; ++face)
      CHECK(decide(r, rf, face, halted()).behaviour == decide(r, rf, face, moving()).behaviour);
}

TEST_CASE("table: seed 002 Actions Table - (Charge?) marks", "[table][seed002][002-L10-charge-mark]") {
  const Ruleset& r = *default_ruleset();
  // A behaviour carries the charge mark exactly when the seed's text ends in "(Charge?)".
  for (const auto& b : r.behaviours) {
    INFO(b.id);
    bool marked = b.text.size() >= 9 && b.text.compare(b.text.size() - 9, 9, "(Charge?)") == 0;
    CHECK(b.charge_possible == marked);
  }
  // Which cells: RF1 D6 4,5,6; RF2-5 D6 5,6; RF6-8 D6 6; RF9+ none; RF0 none.
  auto marked_faces = [&](int rf, const UnitState& s) {
    std::vector<int> v;
    for (int face = 1; face <= 6; ++face)
      if (decide(r, rf, face, s).behaviour->charge_possible) v.push_back(face);
    return v;
  };
  CHECK(marked_faces(0, moving()) == std::vector<int>{});
  CHECK(marked_faces(0, halted()) == std::vector<int>{});
  CHECK(marked_faces(1, moving()) == std::vector<int>{4, 5, 6});
  CHECK(marked_faces(4, moving()) == std::vector<int>{5, 6});
  CHECK(marked_faces(8, moving()) == std::vector<int>{6});
  CHECK(marked_faces(9, moving()) == std::vector<int>{});
  CHECK(marked_faces(20, moving()) == std::vector<int>{});
}

TEST_CASE("table: seed 002 Actions Table - running cells are canter away and flee at gallop", "[table][seed002][002-L12-flee]") {
  const Ruleset& r = *default_ruleset();
  std::vector<std::string> running;
  for (const auto& b : r.behaviours)
    if (b.running) running.push_back(b.id);
  CHECK(running == std::vector<std::string>{"canter_away", "flee_gallop"});

  const Behaviour* canter = r.find_behaviour("canter_away");
  REQUIRE(canter);
  CHECK(canter->text == k_canter_away);
  CHECK(canter->pace == PaceSpec::canter);
  CHECK(canter->direction == Direction::away);

  const Behaviour* flee = r.find_behaviour("flee_gallop");
  REQUIRE(flee);
  CHECK(flee->text == k_flee);
  CHECK(flee->pace == PaceSpec::gallop);
  CHECK(flee->direction == Direction::away);
  CHECK_FALSE(flee->faces_enemy);  // fleeing: backs to the enemy

  // Which faces run: RF2-5 D6 1; RF6-8 D6 1,2; RF9+ D6 1,2,3; none below.
  auto running_faces = [&](int rf) {
    std::vector<int> v;
    for (int face = 1; face <= 6; ++face)
      if (decide(r, rf, face, moving()).behaviour->running) v.push_back(face);
    return v;
  };
  CHECK(running_faces(0) == std::vector<int>{});
  CHECK(running_faces(1) == std::vector<int>{});
  CHECK(running_faces(2) == std::vector<int>{1});
  CHECK(running_faces(6) == std::vector<int>{1, 2});
  CHECK(running_faces(9) == std::vector<int>{1, 2, 3});
}

TEST_CASE("table: seed 002 Actions Table - what each behaviour does on the table top", "[table][seed002][002-L10-walk-to-cover]") {
  const Ruleset& r = *default_ruleset();
  auto b = [&](const char* id) -> const Behaviour& {
    const Behaviour* x = r.find_behaviour(id);
    REQUIRE(x);
    return *x;
  };
  CHECK(b("walk_to_cover").pace == PaceSpec::walk);
  CHECK(b("walk_to_cover").direction == Direction::to_cover);
  CHECK(b("halt_facing").pace == PaceSpec::halt);
  CHECK(b("halt_facing").faces_enemy);
  CHECK(b("continue_facing_charge").pace == PaceSpec::current);
  CHECK(b("continue_facing_charge").faces_enemy);
  CHECK(b("gallop_advance_charge").pace == PaceSpec::gallop);
  CHECK(b("gallop_advance_charge").direction == Direction::toward);
  CHECK(b("gallop_advance_charge").target == Target::nearest_enemy);
  CHECK(b("advance_nearest_visible").target == Target::nearest_visible_enemy);
  // "Continue current actions" keeps the pace it had.
  for (Pace p : {Pace::halt, Pace::walk, Pace::canter})
    CHECK(decide(r, 1, 4, moving(p)).pace == p);
  // The gallop cell gallops from any pace (streak 0).
  for (Pace p : {Pace::halt, Pace::walk, Pace::canter, Pace::gallop}) {
    Decision d = decide(r, 1, 6, moving(p));
    CHECK(d.pace == Pace::gallop);
    CHECK(d.table_pace == Pace::gallop);
    CHECK(d.adjust == PaceAdjust::none);
  }
}

TEST_CASE("table: seed 002 Actions Table - band boundaries", "[table][seed002][002-L7-d6-columns]") {
  const Ruleset& r = *default_ruleset();
  struct B {
    int rf;
    const char* id;
  };
  for (auto [rf, id] : {B{-1000, "rf0"}, B{-5, "rf0"}, B{-1, "rf0"}, B{0, "rf0"}, B{1, "rf1"}, B{2, "rf2_5"},
                        B{5, "rf2_5"}, B{6, "rf6_8"}, B{8, "rf6_8"}, B{9, "rf9_plus"}, B{50, "rf9_plus"},
                        B{1000, "rf9_plus"}}) {
    INFO("RF " << rf);
    CHECK(r.band_for(rf).id == id);
    CHECK(r.band_for(rf).contains(rf));
    CHECK(decide(r, rf, 1, moving()).band->id == id);
  }
  // The five rows of the seed, in order, with the seed's labels.
  REQUIRE(r.bands.size() == 5);
  const std::vector<std::string> labels{"Up to RF0", "RF1", "RF2-5", "RF6-8", "RF9+"};
  for (std::size_t i = 0; i < 5; ++i) CHECK(r.bands[i].label == labels[i]);
  CHECK(r.bands[0].min == k_rf_unbounded_low);
  CHECK(r.bands[0].max == 0);
  CHECK(r.bands[1].min == 1);
  CHECK(r.bands[1].max == 1);
  CHECK(r.bands[2].min == 2);
  CHECK(r.bands[2].max == 5);
  CHECK(r.bands[3].min == 6);
  CHECK(r.bands[3].max == 8);
  CHECK(r.bands[4].min == 9);
  CHECK(r.bands[4].max == k_rf_unbounded_high);
  // Every RF from -100 to 100 lies in exactly one band.
  for (int rf = -100; rf <= 100; ++rf) {
    int n = 0;
    for (const auto& b : r.bands) n += b.contains(rf);
    CHECK(n == 1);
  }
}

namespace {

using Odds = std::vector<std::pair<std::string, Fraction>>;

Odds odds(const Ruleset& r, int rf, bool at_halt) {
  Odds out;
  for (const auto& [b, p] : band_odds(r, r.band_for(rf), at_halt)) out.emplace_back(b->id, p);
  return out;
}

Fraction sum(const Odds& o) {
  Fraction s(0);
  for (const auto& x : o) s = s + x.second;
  return s;
}

}  // namespace

TEST_CASE("table: seed 002 Actions Table - exact odds per band", "[table][seed002][odds]") {
  const Ruleset& r = *default_ruleset();
  const Fraction sixth(1, 6), third(1, 3);
  // In order of first appearance in the row.
  CHECK(odds(r, 0, false) == Odds{{"continue", Fraction(1)}});
  CHECK(odds(r, 0, true) == Odds{{"continue", Fraction(5, 6)}, {"advance_nearest_visible", sixth}});
  CHECK(odds(r, 1, false) ==
        Odds{{"walk_to_cover", third}, {"halt_facing", sixth}, {"continue_facing_charge", third}, {"gallop_advance_charge", sixth}});
  CHECK(odds(r, 2, false) == Odds{{"canter_away", sixth},
                                  {"walk_to_cover", third},
                                  {"halt_facing", sixth},
                                  {"continue_facing_charge", sixth},
                                  {"gallop_advance_charge", sixth}});
  CHECK(odds(r, 6, false) == Odds{{"flee_gallop", sixth},
                                  {"canter_away", sixth},
                                  {"walk_to_cover", third},
                                  {"halt_facing", sixth},
                                  {"continue_facing_charge", sixth}});
  CHECK(odds(r, 9, false) ==
        Odds{{"flee_gallop", third}, {"canter_away", sixth}, {"walk_to_cover", third}, {"halt_facing", sixth}});
  // Bands without an at-halt row give the same odds at halt.
  for (int rf : {1, 2, 6, 9}) CHECK(odds(r, rf, true) == odds(r, rf, false));

  // The brief's examples: RF2-5 walk_to_cover is 1/3; RF0 at halt advance is 1/6.
  CHECK(odds(r, 4, false)[1].second == Fraction(1, 3));
  CHECK(odds(r, 4, false)[1].second.str() == "1/3");
  CHECK(odds(r, -2, true)[1].second == Fraction(1, 6));
  CHECK(odds(r, -2, true)[1].second.str() == "1/6");
}

TEST_CASE("table: odds of every band sum to 1 and match counting the faces", "[table][odds]") {
  const Ruleset& r = *default_ruleset();
  for (const auto& b : r.bands) {
    for (bool at_halt : {false, true}) {
      INFO("band " << b.id << (at_halt ? " at halt" : " moving"));
      auto o = band_odds(r, b, at_halt);
      Fraction s(0);
      for (const auto& [beh, p] : o) s = s + p;
      CHECK(s == Fraction(1));
      CHECK(s.str() == "1");
      // Each probability is (faces giving it)/6, counted through decide().
      int rf = b.max == k_rf_unbounded_high ? b.min : b.max;
      UnitState st = at_halt ? halted() : moving();
      for (const auto& [beh, p] : o) {
        int faces = 0;
        for (int face = 1; face <= 6; ++face) faces += decide(r, rf, face, st).behaviour == beh;
        CHECK(p == Fraction(faces, 6));
      }
      // No behaviour listed twice.
      for (std::size_t i = 0; i < o.size(); ++i)
        for (std::size_t j = i + 1; j < o.size(); ++j) CHECK(o[i].first != o[j].first);
    }
  }
  CHECK(sum(odds(r, 5, false)) == Fraction(1));
}

// ------------------------------------------------------------- supplement

TEST_CASE("table: seed 002 cavalry supplement - paces walk 1-30 canter 30-40 gallop 41-50 cm", "[table][seed002][supplement][002-L21-walk][002-L21-canter][002-L21-gallop][002-L31-mi-no-shoot]") {
  const Ruleset& r = *default_ruleset();
  CHECK(r.pace_range(Pace::walk).min.as_cm() == Approx(1));
  CHECK(r.pace_range(Pace::walk).max.as_cm() == Approx(30));
  CHECK(r.pace_range(Pace::canter).min.as_cm() == Approx(30));
  CHECK(r.pace_range(Pace::canter).max.as_cm() == Approx(40));
  CHECK(r.pace_range(Pace::gallop).min.as_cm() == Approx(41));
  CHECK(r.pace_range(Pace::gallop).max.as_cm() == Approx(50));
  CHECK(pace_distance(r, Pace::walk) == "1-30 cm");
  CHECK(pace_distance(r, Pace::canter) == "30-40 cm");
  CHECK(pace_distance(r, Pace::gallop) == "41-50 cm");
  // "Gallop is only allowed for 2 turns in a row, after which the unit may only walk for a turn."
  CHECK(r.supplement.gallop_max_turns == 2);
  CHECK(r.supplement.after_gallop_limit == Pace::walk);
  // "Cavalry may turn 45 degrees per 1/4 of their movement, or per 1/2 move at Gallop."
  CHECK(r.supplement.turn_degrees == 45);
  CHECK(r.supplement.turn_per_move_fraction == Approx(0.25));
  CHECK(r.supplement.turn_per_move_fraction_gallop == Approx(0.5));
  CHECK(r.supplement.moving_shoot_arc_degrees == 45);
  CHECK(r.supplement.mounted_range_band_shift == 1);
  // "Hits on Mounted figures are on the horse (1-4), or rider (5,6) on a D6."
  CHECK(r.supplement.hit_on_horse == std::array<bool, 6>{true, true, true, true, false, false});
  // Three sorts of horsed figures; mounted infantry never gallops nor shoots mounted, -1 melee;
  // charging shock cavalry +1.
  REQUIRE(r.unit_types.size() == 3);
  const UnitType* mi = r.find_unit_type("mounted_infantry");
  REQUIRE(mi);
  CHECK_FALSE(mi->can_gallop);
  CHECK_FALSE(mi->shoots_mounted);
  CHECK(mi->melee == -1);
  const UnitType* shock = r.find_unit_type("shock");
  REQUIRE(shock);
  CHECK(shock->can_gallop);
  CHECK(shock->melee_charging == 1);
  CHECK(shock->melee == 0);
  const UnitType* shooting = r.find_unit_type("shooting");
  REQUIRE(shooting);
  CHECK(shooting->can_gallop);
  CHECK(shooting->shoots_mounted);
  CHECK(r.switches.no_gallop_pace == Pace::canter);
}

TEST_CASE("table: seed 002 cavalry supplement - gallop limit: 2 turns in a row then a forced walk", "[table][seed002][supplement][002-L23-gallop-limit]") {
  const Ruleset& r = *default_ruleset();
  UnitState s = halted();
  // Turn 1 and 2: the gallop cell (RF1, D6 6) gallops.
  Decision d1 = decide(r, 1, 6, s);
  CHECK(d1.pace == Pace::gallop);
  CHECK(d1.adjust == PaceAdjust::none);
  s = after(s, d1);
  CHECK(s.pace == Pace::gallop);
  CHECK(s.gallop_streak == 1);
  Decision d2 = decide(r, 1, 6, s);
  CHECK(d2.pace == Pace::gallop);
  CHECK(d2.adjust == PaceAdjust::none);
  s = after(s, d2);
  CHECK(s.gallop_streak == 2);
  // Turn 3: the table says gallop, the supplement says walk.
  Decision d3 = decide(r, 1, 6, s);
  CHECK(d3.behaviour->id == "gallop_advance_charge");
  CHECK(d3.table_pace == Pace::gallop);
  CHECK(d3.pace == Pace::walk);
  CHECK(d3.adjust == PaceAdjust::forced_walk);
  CHECK(adjustment_note(r, d3, s) == "Galloped 2 turns in a row (the limit is 2): only walk this turn.");
  s = after(s, d3);
  CHECK(s.pace == Pace::walk);
  CHECK(s.gallop_streak == 0);
  // Turn 4: after the walk it may gallop again.
  Decision d4 = decide(r, 1, 6, s);
  CHECK(d4.pace == Pace::gallop);
  CHECK(d4.adjust == PaceAdjust::none);
}

TEST_CASE("table: seed 002 cavalry supplement - the forced walk caps every faster pace", "[table][seed002][supplement]") {
  const Ruleset& r = *default_ruleset();
  UnitState s = moving(Pace::gallop);
  s.gallop_streak = 2;
  // Continue current actions while galloping: would gallop a third turn -> walk.
  Decision cont = decide(r, 1, 4, s);
  CHECK(cont.behaviour->id == "continue_facing_charge");
  CHECK(cont.table_pace == Pace::gallop);
  CHECK(cont.pace == Pace::walk);
  CHECK(cont.adjust == PaceAdjust::forced_walk);
  // RF0 continue likewise.
  CHECK(decide(r, 0, 3, s).pace == Pace::walk);
  // Flee at gallop -> walk (still away from the enemy, still running).
  Decision flee = decide(r, 9, 1, s);
  CHECK(flee.behaviour->id == "flee_gallop");
  CHECK(flee.pace == Pace::walk);
  CHECK(flee.behaviour->running);
  // "may only walk": canter away becomes a walk too.
  Decision canter = decide(r, 2, 1, s);
  CHECK(canter.table_pace == Pace::canter);
  CHECK(canter.pace == Pace::walk);
  CHECK(canter.adjust == PaceAdjust::forced_walk);
  // Walking and halting need no adjustment.
  Decision walk = decide(r, 1, 1, s);
  CHECK(walk.pace == Pace::walk);
  CHECK(walk.adjust == PaceAdjust::none);
  Decision halt = decide(r, 1, 3, s);
  CHECK(halt.pace == Pace::halt);
  CHECK(halt.adjust == PaceAdjust::none);
  // One gallop turn so far: no limit yet.
  s.gallop_streak = 1;
  CHECK(decide(r, 1, 4, s).pace == Pace::gallop);
  CHECK(decide(r, 1, 4, s).adjust == PaceAdjust::none);
}

TEST_CASE("table: after() keeps the gallop streak", "[table][supplement]") {
  const Ruleset& r = *default_ruleset();
  UnitState s = moving(Pace::walk);
  // gallop, gallop -> 1, 2; canter -> 0; gallop -> 1; halt -> 0.
  s = after(s, decide(r, 1, 6, s));
  CHECK(s.gallop_streak == 1);
  CHECK(s.pace == Pace::gallop);
  s = after(s, decide(r, 1, 4, s));  // continue at gallop
  CHECK(s.gallop_streak == 2);
  CHECK(s.pace == Pace::gallop);
  s = after(s, decide(r, 2, 1, s));  // canter away -> forced walk (third turn)
  CHECK(s.gallop_streak == 0);
  CHECK(s.pace == Pace::walk);
  s = after(s, decide(r, 6, 1, s));  // flee at gallop
  CHECK(s.gallop_streak == 1);
  s = after(s, decide(r, 1, 3, s));  // halt
  CHECK(s.gallop_streak == 0);
  CHECK(s.pace == Pace::halt);
  CHECK(s.at_halt());
  // after() keeps the unit type.
  UnitState mi;
  mi.type = r.find_unit_type("mounted_infantry");
  CHECK(after(mi, decide(r, 1, 6, mi)).type == mi.type);
}

TEST_CASE("table: seed 002 cavalry supplement - mounted infantry never gallops", "[table][seed002][supplement][002-L31-mi-no-gallop]") {
  const Ruleset& r = *default_ruleset();
  UnitState mi;
  mi.type = r.find_unit_type("mounted_infantry");
  REQUIRE(mi.type);
  // Gallop cells: RF1 6, RF2-5 6, RF6-8 1, RF9+ 1 and 2 -> canter (switch no_gallop_pace).
  for (auto [rf, face] : {std::pair{1, 6}, {3, 6}, {7, 1}, {9, 1}, {9, 2}}) {
    INFO("RF " << rf << " D6 " << face);
    Decision d = decide(r, rf, face, mi);
    CHECK(d.table_pace == Pace::gallop);
    CHECK(d.pace == Pace::canter);
    CHECK(d.adjust == PaceAdjust::no_gallop);
    CHECK(adjustment_note(r, d, mi) == "Mounted infantry may never gallop: canter instead (switches.no_gallop_pace).");
    UnitState next = after(mi, d);
    CHECK(next.gallop_streak == 0);
    CHECK(next.pace == Pace::canter);
  }
  // Never galloping over many turns of every cell.
  UnitState s = mi;
  for (int turn = 0; turn < 60; ++turn) {
    Decision d = decide(r, turn % 12 - 1, turn % 6 + 1, s);
    CHECK(d.pace != Pace::gallop);
    s = after(s, d);
  }
  // Shock cavalry galloping is not adjusted.
  UnitState shock;
  shock.type = r.find_unit_type("shock");
  CHECK(decide(r, 1, 6, shock).pace == Pace::gallop);
  CHECK(decide(r, 1, 6, shock).adjust == PaceAdjust::none);
}

TEST_CASE("table: switch no_gallop_pace walk via an overlay", "[table][supplement][overlay]") {
  RulesetPtr rp = load_ruleset(vtest::data("good/no_gallop_walk.yaml"));
  const Ruleset& r = *rp;
  CHECK(r.switches.no_gallop_pace == Pace::walk);
  UnitState mi;
  mi.type = r.find_unit_type("mounted_infantry");
  REQUIRE(mi.type);
  Decision d = decide(r, 1, 6, mi);
  CHECK(d.table_pace == Pace::gallop);
  CHECK(d.pace == Pace::walk);
  CHECK(d.adjust == PaceAdjust::no_gallop);
  CHECK(adjustment_note(r, d, mi) == "Mounted infantry may never gallop: walk instead (switches.no_gallop_pace).");
  // The rest of the default is untouched.
  CHECK(r.switches.weapons_range == default_ruleset()->switches.weapons_range);
  CHECK(r.bands.size() == 5);
}

TEST_CASE("table: instructions a player can act on", "[table]") {
  const Ruleset& r = *default_ruleset();
  CHECK(instruction(r, decide(r, 2, 1, moving())) ==
        "Canter 30-40 cm directly away from the nearest enemy, then face it.");
  CHECK(instruction(r, decide(r, 9, 1, moving())) == "Gallop 41-50 cm directly away from the nearest enemy, backs to the enemy.");
  CHECK(instruction(r, decide(r, 1, 3, moving())) == "Halt in position, facing the nearest enemy.");
  std::string gal = instruction(r, decide(r, 1, 6, moving()));
  CHECK(gal.rfind("Gallop 41-50 cm directly toward the nearest enemy.", 0) == 0);
  CHECK(gal.find("Charge?") != std::string::npos);
  CHECK(instruction(r, decide(r, 0, 6, halted())) == "Walk 1-30 cm directly toward the nearest visible enemy.");
  CHECK(instruction(r, decide(r, 0, 1, halted())) == "Stay at halt.");
  std::string cover = instruction(r, decide(r, 1, 1, moving()));
  CHECK(cover.find("nearest accessible cover within one move (up to 30 cm)") != std::string::npos);
}

// Issue 30: table geometry in words a player can act on. "Continue current
// actions" is last turn's heading, which nobody at the table remembers: the
// instruction says the way the unit faces now (the engine's Move::keep
// moves along its facing). "Away from all enemies" is away from the enemy,
// and with enemies on more than one side away from the nearest.
TEST_CASE("table: continue and away-from instructions in table words (seed 002 L9, L10)",
          "[table][002-L10-words-away][002-L9-words-continue]") {
  const Ruleset& r = *default_ruleset();
  // RF1, D6 4: continue current actions facing the nearest enemy, here at walk.
  const std::string keep = instruction(r, decide(r, 1, 4, moving()));
  CHECK(keep.rfind("Carry on as before: walk 1-30 cm straight on, the way it faces now, then turn to face the nearest enemy.", 0) == 0);
  CHECK(keep.find("same course") == std::string::npos);
  // Up to RF0, D6 1 at walk: continue, no facing.
  CHECK(instruction(r, decide(r, 0, 1, moving())) == "Carry on as before: walk 1-30 cm straight on, the way it faces now.");
  // RF1, D6 1: walk to cover, or away.
  CHECK(instruction(r, decide(r, 1, 1, moving())) ==
        "Walk into the nearest accessible cover within one move (up to 30 cm); if there is none, walk 1-30 cm directly away "
        "from the enemy (with enemies on more than one side of it, away from the nearest).");
  // The words follow the engine's switch (combat.movement.away_from).
  const RulesetPtr centre = load_ruleset("builtin:default", {{"combat.movement.away_from", "centre"}});
  CHECK(instruction(*centre, decide(*centre, 1, 1, moving())).find("away from the middle of them all).") != std::string::npos);
}

}  // namespace t_table
