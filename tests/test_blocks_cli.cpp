// `vedette blocks retire`: seed 004's Retire and Reform for a solo player
// (seeds/004_c27512f9ffc61979.txt): "When being attacked in melee by an
// enemy infantry unit ... a cavalry unit may choose to Retire and Reform";
// the choice is declared "before the attacking infantry unit rolls its
// battle dice"; "Only cavalry symbols will score a hit"; "A cavalry unit may
// not Retire and Reform when an infantry unit Battles Back", nor "if it
// cannot retire 2 hexes towards its side of the battlefield". The exact odds
// are checked against hand computation and against a simulation of the dice.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "bots/seed004_policy.hpp"
#include "cli_checks.hpp"
#include "engine/core/dice.hpp"
#include "engine/core/fraction.hpp"
#include "engine/modules/blocks/seed004.hpp"

namespace t_blocks_cli {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;
using vtest::run_bad;
using vtest::run_json;

namespace {

const std::string k_src = VEDETTE_SOURCE_DIR;

std::string args_text(int blocks, int dice, int artillery) {
  return "--cavalry-blocks " + std::to_string(blocks) + " --infantry-dice " + std::to_string(dice) + " --artillery-dice " +
         std::to_string(artillery);
}

}  // namespace

TEST_CASE("exact binomial tails: enumeration agrees, overflow says so, the double agrees", "[odds][seed004]") {
  // Every outcome of n dice with faces 1..6 counted by brute force.
  for (int n = 0; n <= 6; ++n)
    for (int a = 0; a <= 6; ++a)
      for (int k = 0; k <= n + 1; ++k) {
        long long hits_at_least = 0, all = 0;
        std::vector<int> face(static_cast<std::size_t>(n), 0);
        for (;;) {
          int hits = 0;
          for (int f : face) hits += f < a;
          hits_at_least += hits >= k;
          ++all;
          std::size_t i = 0;
          while (i < face.size() && ++face[i] == 6) face[i++] = 0;
          if (i == face.size()) break;
        }
        INFO("n " << n << ", p " << a << "/6, k " << k);
        const auto exact = binomial_at_least(Fraction(a, 6), n, k);
        REQUIRE(exact);
        CHECK(*exact == Fraction(hits_at_least, all));
        CHECK(binomial_at_least_value(a / 6.0, n, k) == Approx(exact->value()).margin(1e-12));
      }
  // 6^30 does not fit in 64 bits: no exact answer, the double still.
  CHECK_FALSE(binomial_at_least(Fraction(1, 6), 30, 3));
  CHECK(binomial_at_least_value(1.0 / 6, 30, 3) == Approx(1 - std::pow(5.0 / 6, 30) - 30 * (1.0 / 6) * std::pow(5.0 / 6, 29) -
                                                      435 * (1.0 / 36) * std::pow(5.0 / 6, 28)));
}

TEST_CASE("seed 004, Retire and Reform at the table: the seed's example numbers by hand", "[seed004][commands]") {
  // The seed's example: the British player rolls "four dice (for his four
  // blocks) hitting on only cavalry symbols". The table's die: infantry, infantry, cavalry, artillery, sabre, flag.
  // Retiring, only cavalry symbols hit: p = 1/6. Staying, infantry hits
  // cavalry on cavalry and sabres: p = 1/3; a flag 1/6. 3 blocks, 4 dice:
  //   retiring: expected 4/6; eliminated P(B(4,1/6) >= 3) = (4*5 + 1)/6^4 = 7/432
  //   staying:  expected 4/3; eliminated P(B(4,1/3) >= 3) = (4*2 + 1)/3^4 = 1/9
  //   net staying: 4/3 - (5/6)^4 (3 - 4/3) (1/2)  (it battles back with what
  //   is left, hitting infantry on infantry and sabres, 3/6, unless a flag
  //   drove it off) = 0.93146
  const auto j = run_json({"blocks", "retire", "--cavalry-blocks", "3", "--infantry-dice", "4", "--json"});
  CHECK(j["allowed"] == true);
  CHECK(j["refusal"].is_null());
  CHECK(j["retire"]["p_hit"] == "1/6");
  CHECK(j["retire"]["hits_on"] == "cavalry");
  CHECK(j["retire"]["expected_blocks_lost"].get<double>() == Approx(4.0 / 6));
  CHECK(j["retire"]["p_eliminated"] == "7/432");
  CHECK(j["stay"]["p_hit"] == "1/3");
  CHECK(j["stay"]["p_flag"] == "1/6");
  CHECK(j["stay"]["expected_blocks_lost"].get<double>() == Approx(4.0 / 3));
  CHECK(j["stay"]["p_eliminated"] == "1/9");
  CHECK(j["stay"]["expected_net_loss"].get<double>() == Approx(4.0 / 3 - std::pow(5.0 / 6, 4) * (3 - 4.0 / 3) * 0.5));
  CHECK(j["decision"] == "retire");  // 0.667 < 0.931: by expected losses it retires
  CHECK(j["policy"] == "by-expected-losses");
  CHECK(j["table"] == "builtin:seed004");
}

TEST_CASE("seed 004, Retire and Reform at the table: not while the infantry battles back, not without 2 hexes to retire",
          "[seed004][commands]") {
  // Seed 004: "A cavalry unit may not Retire and Reform when an infantry unit
  // Battles Back"; "A cavalry unit may not Retire and Reform if it cannot
  // retire 2 hexes towards its side of the battlefield".
  const auto back = run_json({"blocks", "retire", "--cavalry-blocks", "3", "--infantry-dice", "4", "--battling-back", "--json"});
  CHECK(back["allowed"] == false);
  CHECK(back["refusal"] == "the infantry is battling back");
  CHECK(back["decision"] == "stay");
  const auto stuck = run_json({"blocks", "retire", "--cavalry-blocks", "3", "--infantry-dice", "4", "--no-retreat", "--json"});
  CHECK(stuck["allowed"] == false);
  CHECK(stuck["refusal"] == "no 2-hex retreat toward the own edge");
  CHECK(stuck["decision"] == "stay");
  // Even a policy of always cannot retire when the rule forbids it.
  const auto always = run_json({"blocks", "retire", "--cavalry-blocks", "3", "--infantry-dice", "4", "--no-retreat", "--policy", "always", "--json"});
  CHECK(always["decision"] == "stay");
  // The text says why, citing the seed.
  const vtest::RunResult r = vtest::run_vedette({"blocks", "retire", "--cavalry-blocks", "3", "--infantry-dice", "4", "--battling-back"});
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("Allowed: no: the infantry is battling back (seed 004)"));
  CHECK_THAT(r.out, Catch::Contains("STAYS AND FIGHTS"));
}

TEST_CASE("seed 004, Retire and Reform at the table: the decision is the engine bots' policy, for every case", "[seed004][commands]") {
  const Seed004Ptr r = load_seed004(k_src + "/tables/seed004.yaml");
  int retired = 0, stayed = 0;
  for (int blocks : {1, 2, 3, 4, 6})
    for (int dice : {0, 1, 2, 4, 6})
      for (int artillery : {0, 2})
        for (const char* policy : {"by-expected-losses", "always", "never"}) {
          INFO(args_text(blocks, dice, artillery) << " --policy " << policy);
          const auto j = run_json({"blocks", "retire", "--cavalry-blocks", std::to_string(blocks), "--infantry-dice", std::to_string(dice),
                                   "--artillery-dice", std::to_string(artillery), "--policy", policy, "--json"});
          RetireQuestion q;
          q.cavalry_blocks = blocks;
          q.infantry_dice = dice;
          q.artillery_dice = artillery;
          const ChoicePolicy p = std::string(policy) == "always" ? ChoicePolicy::always
                                 : std::string(policy) == "never" ? ChoicePolicy::never
                                                                  : ChoicePolicy::by_expected_losses;
          const bool retires = choose_retire_and_reform(*r, p, q);
          CHECK(j["decision"] == (retires ? "retire" : "stay"));
          CHECK(j["retire"]["expected_blocks_lost"].get<double>() == Approx(expected_loss_retiring(*r, q)));
          CHECK(j["stay"]["expected_net_loss"].get<double>() == Approx(expected_net_loss_staying(*r, q)));
          (retires ? retired : stayed) += std::string(policy) == "by-expected-losses";
        }
  // By expected losses, some cases go each way.
  CHECK(retired > 0);
  CHECK(stayed > 0);
}

TEST_CASE("seed 004, Retire and Reform at the table: the exact chance of elimination against the dice", "[seed004][commands][stats]") {
  // 2 blocks, 5 dice: P(at least 2 cavalry symbols) retiring, simulated with
  // the engine's own dice and scoring, within 4 standard errors.
  const auto j = run_json({"blocks", "retire", "--cavalry-blocks", "2", "--infantry-dice", "5", "--json"});
  const double exact = j["retire"]["p_eliminated_value"].get<double>();
  CHECK(j["retire"]["p_eliminated"] == "763/3888");  // 1 - (5/6)^5 - 5 (1/6) (5/6)^4 = (7776 - 3125 - 3125) / 7776 = 1526/7776
  const Seed004Ptr r = load_seed004(k_src + "/tables/seed004.yaml");
  Rng rng = make_stream(2026, 0, Subsystem::melee);
  Dice dice(rng);
  const int n = 200000;
  int dead = 0;
  for (int i = 0; i < n; ++i) dead += score_retiring(*r, roll_symbols(*r, dice, 5)).hits >= 2;
  const double se = std::sqrt(exact * (1 - exact) / n);
  CHECK(std::abs(dead / static_cast<double>(n) - exact) < 4 * se);
}

TEST_CASE("seed 004, Retire and Reform at the table: bad input is refused with exit status 2", "[seed004][commands][bad]") {
  CHECK_THAT(run_bad({"blocks", "retire", "--infantry-dice", "4"}).err, Catch::Contains("--cavalry-blocks"));
  CHECK_THAT(run_bad({"blocks", "retire", "--cavalry-blocks", "0", "--infantry-dice", "4"}).err, Catch::Contains("--cavalry-blocks"));
  CHECK_THAT(run_bad({"blocks", "retire", "--cavalry-blocks", "3", "--infantry-dice", "-1"}).err, Catch::Contains("--infantry-dice"));
  CHECK_THAT(run_bad({"blocks", "retire", "--cavalry-blocks", "3", "--infantry-dice", "4", "--policy", "sometimes"}).err,
             Catch::Contains("expected always, never or by-expected-losses"));
  CHECK_THAT(run_bad({"blocks", "retire", "--cavalry-blocks", "3", "--infantry-dice", "4", "--table", k_src + "/tests/data/bad/seed004_unknown_face.yaml"}).err,
             Catch::Contains("seed004_unknown_face.yaml:"));
  CHECK_THAT(run_bad({"blocks", "retire", "--cavalry-blocks", "3", "--infantry-dice", "4", "--table", "builtin:nothing"}).err,
             Catch::Contains("builtin:seed004"));
  run_bad({"blocks"});
}

TEST_CASE("seed 004, Retire and Reform at the table: against a square the cavalry battles back with 1 die, and stays (the seed's example)",
          "[seed004][commands][004-L72-stays-against-one-die-cli]") {
  // Seed 004's British turn: the square attacks with 1 die; "the cavalry
  // unit chooses to stay and melee", battling back "with 1 die". 4 blocks:
  // net staying 1/3 - (5/6) x 1 x 1/2 = -1/12; retiring 1/6.
  const auto j = run_json({"blocks", "retire", "--cavalry-blocks", "4", "--infantry-dice", "1", "--square", "--json"});
  CHECK(j["square"] == true);
  CHECK(j["battle_back_max_dice"] == 1);
  CHECK(j["stay"]["expected_net_loss"].get<double>() == Approx(-1.0 / 12));
  CHECK(j["decision"] == "stay");
  const auto t = vtest::run_vedette({"blocks", "retire", "--cavalry-blocks", "4", "--infantry-dice", "1", "--square"});
  CHECK(t.out.find("with at most 1 die against your square") != std::string::npos);
  CHECK(t.out.find("STAYS AND FIGHTS") != std::string::npos);
  // A square rolls at most 1 die: more is bad input.
  run_bad({"blocks", "retire", "--cavalry-blocks", "4", "--infantry-dice", "3", "--square"});
}

}  // namespace t_blocks_cli
