// The harness's estimates against exact values, within 4 standard errors,
// with fixed seeds (the OpenMC way). The synthetic engagements
// (sims/lab/toy_engagement.hpp) are sums of dice, so every reference value here
// is computed independently, by enumerating the dice or from the ruleset's
// own exact odds (band_odds, p_stand, p_square_bounce).
#include <catch2/catch.hpp>

#include <cmath>

#include "engine/decision/actions_table.hpp"
#include "engine/decision/charge.hpp"
#include "engine/decision/ruleset.hpp"
#include "sims/lab/harness.hpp"
#include "sims/report/report.hpp"

namespace t_stats_exact {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;
using namespace vedette::lab;

namespace {

std::string lab_data(const std::string& name) { return std::string(VEDETTE_TEST_DATA) + "/lab/" + name; }

Tally run(const Model& m, std::uint64_t seed, std::uint64_t n, unsigned threads = 2) {
  const Model* models[] = {&m};
  HarnessOptions o;
  o.seed = seed;
  o.n = n;
  o.threads = threads;
  return run_harness(models, o, Sums(models), 0).sums.tallies.front();
}

// |estimate - exact| <= 4 SE.
void within_4se(const std::string& what, double estimate, double exact, double se) {
  INFO(what << ": estimate " << estimate << ", exact " << exact << ", SE " << se << ", off by " << (estimate - exact) / se << " SE");
  CHECK(se > 0);
  CHECK(std::fabs(estimate - exact) <= 4 * se);
}

void proportion_within_4se(const std::string& what, std::int64_t count, std::int64_t n, double exact) {
  REQUIRE(n > 0);
  if (exact == 0 || exact == 1) {  // certain: no spread to allow for
    INFO(what);
    CHECK(count == (exact == 1 ? n : 0));
    return;
  }
  const double p = static_cast<double>(count) / static_cast<double>(n);
  within_4se(what, p, exact, std::sqrt(exact * (1 - exact) / static_cast<double>(n)));
}

// The distribution of the sum of k fair dice, by enumeration.
std::vector<double> dice_sum_pmf(int k) {
  std::vector<double> pmf{1.0};
  for (int d = 0; d < k; ++d) {
    std::vector<double> next(pmf.size() + 6, 0.0);
    for (std::size_t s = 0; s < pmf.size(); ++s)
      for (int f = 1; f <= 6; ++f) next[s + static_cast<std::size_t>(f)] += pmf[s] / 6;
    pmf = next;
  }
  return pmf;
}

double moment(const std::vector<double>& pmf, double mu, int power) {
  double m = 0;
  for (std::size_t s = 0; s < pmf.size(); ++s) m += pmf[s] * std::pow(static_cast<double>(s) - mu, power);
  return m;
}

}  // namespace

TEST_CASE("lab exact: the dice scenario's probabilities, means, variances and covariances") {
  auto sc = open_lab_scenario(lab_data("dice.yaml"));
  auto model = sc->model(nullptr);
  const Schema& s = model->schema();
  const std::int64_t N = 200000;
  Tally t = run(*model, 20240611, N);
  REQUIRE(t.n == N);
  Summary sum = summarize(s, t);

  // Outcome: one D6; 1-2 side a, 3 draw, 4-6 side b.
  proportion_within_4se("P(a)", t.outcome_count(0), N, 1.0 / 3);
  proportion_within_4se("P(b)", t.outcome_count(1), N, 1.0 / 2);
  proportion_within_4se("P(draw)", t.outcome_count(2), N, 1.0 / 6);

  // turns = 2D6, a_lost = 3D6, b_lost = turns + D6 (independent dice).
  const auto two = dice_sum_pmf(2), three = dice_sum_pmf(3), one = dice_sum_pmf(1);
  const double var2 = moment(two, 7, 2), var3 = moment(three, 10.5, 2), var1 = moment(one, 3.5, 2);
  CHECK(var2 == Approx(35.0 / 6));
  CHECK(var3 == Approx(35.0 / 4));
  const double n = static_cast<double>(N);
  const auto turns = s.metric_index("turns"), a = s.metric_index("a_figures_lost"), b = s.metric_index("b_figures_lost");
  within_4se("E turns", sum.metrics[turns].all.mean, 7.0, std::sqrt(var2 / n));
  within_4se("E a_lost", sum.metrics[a].all.mean, 10.5, std::sqrt(var3 / n));
  within_4se("E b_lost", sum.metrics[b].all.mean, 10.5, std::sqrt((var2 + var1) / n));
  // The reported standard error is the sample's: close to the exact one.
  CHECK(sum.metrics[turns].all.se == Approx(std::sqrt(var2 / n)).epsilon(0.02));
  // Sample variances: SE^2 ~ (mu4 - sigma^4) / n.
  within_4se("Var turns", std::pow(sum.metrics[turns].all.sd, 2), var2, std::sqrt((moment(two, 7, 4) - var2 * var2) / n));
  within_4se("Var a_lost", std::pow(sum.metrics[a].all.sd, 2), var3, std::sqrt((moment(three, 10.5, 4) - var3 * var3) / n));

  // Covariances. cov(turns, b_lost) = var(2D6) = 35/6; SE^2 = Var((X-7)(Y-10.5)) / n
  // with Y - 10.5 = (X - 7) + (D - 3.5): E[(X-7)^4] + var2 var1 - cov^2.
  const std::size_t K = s.outcomes();
  const double cov_tb = sum.covariance(static_cast<Eigen::Index>(K + turns), static_cast<Eigen::Index>(K + b));
  within_4se("cov(turns, b_lost)", cov_tb, var2, std::sqrt((moment(two, 7, 4) + var2 * var1 - var2 * var2) / n));
  const double cov_ta = sum.covariance(static_cast<Eigen::Index>(K + turns), static_cast<Eigen::Index>(K + a));
  within_4se("cov(turns, a_lost)", cov_ta, 0.0, std::sqrt(var2 * var3 / n));
  // The correlation is the covariance scaled: exactly sqrt(2/3) in the limit.
  const double corr = sum.correlation(static_cast<Eigen::Index>(K + turns), static_cast<Eigen::Index>(K + b));
  CHECK(corr == Approx(cov_tb / (sum.metrics[turns].all.sd * sum.metrics[b].all.sd)));
  CHECK(corr == Approx(std::sqrt(2.0 / 3)).margin(0.01));
  // Winning is independent of the turns: covariance of the indicator and turns.
  within_4se("cov(won a, turns)", sum.covariance(0, static_cast<Eigen::Index>(K + turns)), 0.0, std::sqrt((1.0 / 3) * (2.0 / 3) * var2 / n));

  // Morale checks: D6 checks, each passing on 2D6 >= 8 (15/36); pooled rate.
  const auto checks = s.metric_index("morale_checks");
  within_4se("E checks", sum.metrics[checks].all.mean, 3.5, std::sqrt(var1 / n));
  REQUIRE(sum.rates.size() == 1);
  proportion_within_4se("morale pass rate", sum.rates[0].p.count, sum.rates[0].p.n, 15.0 / 36);

  // One Actions Table decision per band per engagement: the table's odds.
  const Ruleset& r = *sc->rules();
  for (std::size_t bi = 0; bi < r.bands.size(); ++bi) {
    REQUIRE(sum.band_decisions[bi] == N);
    for (const auto& [beh, f] : band_odds(r, r.bands[bi], false)) {
      const auto h = static_cast<std::size_t>(beh - r.behaviours.data());
      proportion_within_4se(r.bands[bi].id + " / " + beh->id, sum.behaviour[bi][h].count, N, f.value());
    }
  }
}

TEST_CASE("lab exact: the duel's decisions per RF band, charge launches and the seed 003 morale check") {
  auto sc = open_lab_scenario(lab_data("duel.yaml"));
  auto model = sc->model(nullptr);
  const Schema& s = model->schema();
  Tally t = run(*model, 77, 100000);
  Summary sum = summarize(s, t);
  const Ruleset& r = *sc->rules();

  // seed 002: whatever brings the unit into a band, its behaviour there is
  // one D6 on the band's row (the duel never halts at RF0, so the row's
  // cells always apply).
  int bands_seen = 0;
  for (std::size_t bi = 0; bi < r.bands.size(); ++bi) {
    if (sum.band_decisions[bi] < 1000) continue;
    ++bands_seen;
    for (std::size_t h = 0; h < r.behaviours.size(); ++h) {
      double exact = 0;
      for (const auto& [beh, f] : band_odds(r, r.bands[bi], false))
        if (beh == &r.behaviours[h]) exact = f.value();
      if (exact == 0) {
        CHECK(sum.behaviour[bi][h].count == 0);
        continue;
      }
      proportion_within_4se(r.bands[bi].id + " / " + r.behaviours[h].id, sum.behaviour[bi][h].count, sum.band_decisions[bi], exact);
    }
  }
  CHECK(bands_seen >= 3);

  // Launch: D6 >= 3.
  const auto& launch = sum.rates[0];
  proportion_within_4se("launch rate", launch.p.count, launch.p.n, 2.0 / 3);
  // seed 003: heavy foot charged by heavy cavalry in front stands on 2D6 >= 9.
  MoraleSituation ms;
  ms.defender = DefenderClass::heavy_foot;
  ms.attacker = AttackerWeight::heavy;
  const double p_exact = p_stand(r.charge, morale_target(r.charge, ms)).value();
  CHECK(p_exact == Approx(10.0 / 36));
  const auto& morale = sum.rates[1];
  REQUIRE(morale.p.n > 10000);
  proportion_within_4se("morale pass rate", morale.p.count, morale.p.n, p_exact);
}

TEST_CASE("lab exact: with seed 004's Infantry Square on, squares bounce one charge in six") {
  auto sc = open_lab_scenario(lab_data("duel.yaml"));
  RulesetPtr square = load_ruleset(std::string(VEDETTE_SOURCE_DIR) + "/tables/house-rules/infantry-square.yaml");
  REQUIRE(square->charge.infantry_square.enabled);
  auto model = sc->model(square);
  Tally t = run(*model, 4, 100000);
  Summary sum = summarize(model->schema(), t);
  const auto& bounce = sum.rates[2];
  REQUIRE(bounce.p.n > 10000);
  proportion_within_4se("square bounce rate", bounce.p.count, bounce.p.n, p_square_bounce(square->charge).value());
  // No morale check is taken against a square.
  CHECK(sum.rates[1].p.n == 0);
}

}  // namespace t_stats_exact
