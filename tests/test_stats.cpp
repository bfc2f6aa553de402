// Statistics of the balance lab (sims/lab/stats.hpp): intervals against published
// values, exact sums, merging by addition, checkpoint serialisation.
#include <catch2/catch.hpp>

#include <cmath>

#include "engine/core/dice.hpp"
#include "sims/lab/harness.hpp"
#include "sims/lab/stats.hpp"
#include "sims/lab/toy_engagement.hpp"

namespace t_stats {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette::lab;

namespace {

std::unique_ptr<LabScenario> toy(const std::string& name) { return open_lab_scenario(std::string(VEDETTE_TEST_DATA) + "/lab/" + name); }

}  // namespace

TEST_CASE("stats: Wilson intervals match Newcombe (1998), Table I") {
  // R. G. Newcombe, "Two-sided confidence intervals for the single
  // proportion: comparison of seven methods", Statistics in Medicine 17
  // (1998) 857-872, method 3 (score interval without continuity correction).
  struct Case {
    std::int64_t r, n;
    double lo, hi;
  };
  for (Case c : {Case{81, 263, 0.2553, 0.3662}, Case{15, 148, 0.0624, 0.1605}, Case{0, 20, 0.0, 0.1611}, Case{1, 29, 0.0061, 0.1718}}) {
    Proportion p = wilson(c.r, c.n);
    INFO(c.r << "/" << c.n << ": [" << p.lo << ", " << p.hi << "]");
    CHECK(p.p == Approx(static_cast<double>(c.r) / static_cast<double>(c.n)));
    CHECK(std::fabs(p.lo - c.lo) < 0.00005 + 1e-12);
    CHECK(std::fabs(p.hi - c.hi) < 0.00005 + 1e-12);
  }
  // Worked by hand from the formula: 8 of 10, z = 1.96.
  Proportion p = wilson(8, 10);
  CHECK(p.lo == Approx(0.4901624715).margin(1e-9));
  CHECK(p.hi == Approx(0.9433178485).margin(1e-9));
  // All or nothing: the interval keeps its end.
  CHECK(wilson(10, 10).hi == 1.0);
  CHECK(wilson(0, 10).lo == 0.0);
  // No data: p unknown, interval [0, 1].
  Proportion none = wilson(0, 0);
  CHECK(std::isnan(none.p));
  CHECK(none.lo == 0.0);
  CHECK(none.hi == 1.0);
}

TEST_CASE("stats: t quantiles and p-values") {
  // Student t 97.5% quantiles (any table): df 1, 10, 30.
  CHECK(t95(1) == Approx(12.7062047).epsilon(1e-7));
  CHECK(t95(10) == Approx(2.2281389).epsilon(1e-7));
  CHECK(t95(30) == Approx(2.0422725).epsilon(1e-7));
  CHECK(std::isnan(t95(0)));
  CHECK(t_p_value(2.2281388520, 10) == Approx(0.05).epsilon(1e-6));
  CHECK(t_p_value(0, 10) == Approx(1.0));
}

TEST_CASE("stats: mean, standard error and covariance from exact sums") {
  // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32/7.
  std::int64_t n = 8, s = 40, s2 = 4 + 16 * 3 + 25 * 2 + 49 + 81;
  Mean m = mean_of(n, s, s2);
  CHECK(m.mean == 5.0);
  CHECK(m.sd == Approx(std::sqrt(32.0 / 7.0)));
  CHECK(m.se == Approx(std::sqrt(32.0 / 7.0 / 8.0)));
  CHECK(m.lo == Approx(5.0 - t95(7) * m.se));
  CHECK(std::isnan(mean_of(1, 3, 9).se));
  // cov of (1,2,3) and (2,4,7): mean products: ((1-2)(2-13/3) + 0 + (3-2)(7-13/3)) / 2 = 2.5
  CHECK(covariance(3, 6, 13, 1 * 2 + 2 * 4 + 3 * 7) == Approx(2.5));
  // Huge sums stay exact: n S2 - S1^2 needs 128 bits here.
  const std::int64_t big = 1'000'000'000;
  Mean h = mean_of(big, 3 * big, 10 * big);  // values 3 on average, E[x^2] = 10: variance 1 (x n/(n-1))
  CHECK(h.sd == Approx(1.0).epsilon(1e-9));
}

TEST_CASE("stats: paired differences and Holm") {
  // Differences 1, 2, 3, 4: mean 2.5, sd sqrt(5/3), t = 2.5 / (sd/2).
  Difference d = paired_difference(4, 10, 30);
  CHECK(d.mean == 2.5);
  CHECK(d.se == Approx(std::sqrt(5.0 / 3.0) / 2));
  CHECK(d.p_value == Approx(t_p_value(2.5 / d.se, 3)));
  CHECK(d.lo == Approx(2.5 - t95(3) * d.se));
  // Every difference zero: no difference, p = 1; all equal and non-zero: p = 0.
  Difference z = paired_difference(100, 0, 0);
  CHECK(z.p_value == 1.0);
  CHECK(z.lo == 0.0);
  CHECK(paired_difference(100, 100, 100).p_value == 0.0);
  // Holm: p sorted 0.01, 0.02, 0.04 of three -> 0.03, 0.04, 0.04 (monotone).
  auto adj = holm({0.04, 0.01, 0.02, k_nan});
  CHECK(adj[1] == Approx(0.03));
  CHECK(adj[2] == Approx(0.04));
  CHECK(adj[0] == Approx(0.04));
  CHECK(std::isnan(adj[3]));
}

TEST_CASE("stats: merging tallies by addition equals one pass, in any order") {
  auto sc = toy("duel.yaml");
  auto model = sc->model(nullptr);
  const Schema& s = model->schema();
  auto player = model->player();
  OutcomeRow row(s);
  Tally one(s);
  std::vector<Tally> parts(7, Tally(s));
  vedette::Rng pick = vedette::make_stream(12345, 0, vedette::Subsystem::command);  // which part each row goes to
  for (std::uint64_t i = 0; i < 3000; ++i) {
    row.reset();
    player->play(99, i, row);
    one.add(row);
    parts[static_cast<std::size_t>(vedette::roll_die(pick, static_cast<std::uint32_t>(parts.size())) - 1)].add(row);
  }
  Tally forward(s), backward(s);
  for (const auto& p : parts) forward.merge(p);
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) backward.merge(*it);
  for (const Tally* t : {&forward, &backward}) {
    CHECK(t->n == one.n);
    CHECK(t->sum == one.sum);
    CHECK(t->cross == one.cross);
    CHECK(t->outcome_sum == one.outcome_sum);
    CHECK(t->outcome_sumsq == one.outcome_sumsq);
    CHECK(t->nonzero == one.nonzero);
    CHECK(t->min == one.min);
    CHECK(t->max == one.max);
    CHECK(t->chosen == one.chosen);
    CHECK(t->band_engagements == one.band_engagements);
    for (std::size_t h = 0; h < one.hist.size(); ++h) CHECK(t->hist[h] == one.hist[h]);
    CHECK(to_json(*t) == to_json(one));
  }
  // A merge of tallies of different shapes is refused.
  auto dice = toy("dice.yaml")->model(nullptr);
  Tally other(dice->schema());
  CHECK_THROWS_AS(one.merge(other), std::logic_error);
}

TEST_CASE("stats: a tally survives its JSON form exactly, and damaged forms are refused") {
  auto model = toy("dice.yaml")->model(nullptr);
  const Schema& s = model->schema();
  auto player = model->player();
  OutcomeRow row(s);
  Tally t(s);
  PairedTally d(s);
  for (std::uint64_t i = 0; i < 500; ++i) {
    row.reset();
    player->play(5, i, row);
    t.add(row);
    OutcomeRow other = row;
    other.metrics[0] += 1;
    d.add(row, other);
  }
  Tally back(s);
  from_json(to_json(t), back);
  CHECK(to_json(back) == to_json(t));
  CHECK(back.cross == t.cross);
  PairedTally dback(s);
  from_json(to_json(d), dback);
  CHECK(dback.sum_d == d.sum_d);
  CHECK(dback.sumsq_d == d.sumsq_d);

  auto j = to_json(t);
  j["sum"][0] = j["sum"][0].get<std::int64_t>() + 1;
  CHECK_THROWS_WITH(from_json(j, back), Catch::Contains("does not add up"));
  j = to_json(t);
  j["cross_lower"].erase(0);
  CHECK_THROWS_WITH(from_json(j, back), Catch::Contains("tally.cross_lower"));
  j = to_json(t);
  j["chosen"][0][0] = "seven";
  CHECK_THROWS_WITH(from_json(j, back), Catch::Contains("tally.chosen[0][0]"));
}

TEST_CASE("stats: a paired tally of identical rows shows no difference") {
  auto model = toy("dice.yaml")->model(nullptr);
  const Schema& s = model->schema();
  auto player = model->player();
  OutcomeRow row(s);
  PairedTally d(s);
  for (std::uint64_t i = 0; i < 200; ++i) {
    row.reset();
    player->play(1, i, row);
    d.add(row, row);
  }
  CHECK(d.n == 200);
  CHECK(d.sum_d.isZero());
  CHECK(d.sumsq_d.isZero());
  CHECK(d.differ.isZero());
}

}  // namespace t_stats
