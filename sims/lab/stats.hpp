#pragma once
// Statistics for the balance lab. Accumulators hold exact integer sums (the
// metrics are whole numbers, see lab_model.hpp), so merging is addition and
// any order of merging, any thread count, gives the same bits. Means,
// intervals, covariances and tests are derived once, at the end, from the
// sums (the OpenMC way: SUM and SUM_SQ, statistics afterwards).
#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "sims/lab/lab_model.hpp"

namespace vedette::lab {

using I64Vec = Eigen::Matrix<std::int64_t, Eigen::Dynamic, 1>;
using I64Mat = Eigen::Matrix<std::int64_t, Eigen::Dynamic, Eigen::Dynamic>;

inline constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
inline constexpr double k_z95 = 1.959963984540054;  // the normal's 97.5% quantile

// ------------------------------------------------------------- figures

// A probability: count of n, with its 95% Wilson score interval. n = 0 gives
// p = NaN and the interval [0, 1].
struct Proportion {
  std::int64_t count = 0;
  std::int64_t n = 0;
  double p = k_nan;
  double lo = 0;
  double hi = 1;
  double half_width() const { return (hi - lo) / 2; }
};
Proportion wilson(std::int64_t count, std::int64_t n, double z = k_z95);

// A mean with its standard error and 95% interval (Student's t with n-1
// degrees of freedom). From the exact sums: var = (n S2 - S1^2) / (n (n-1)),
// computed in 128-bit integers, then one rounding. n < 2: sd, se, interval NaN.
struct Mean {
  std::int64_t n = 0;
  double mean = k_nan;
  double sd = k_nan;
  double se = k_nan;
  double lo = k_nan;
  double hi = k_nan;
};
Mean mean_of(std::int64_t n, std::int64_t sum, std::int64_t sumsq);

// A paired difference (variant - baseline, engagement by engagement on the
// same dice): its mean, standard error, 95% t interval and two-sided p-value
// against "no difference". Every difference equal: se 0; p = 1 if they are
// all 0, else 0.
struct Difference {
  std::int64_t n = 0;
  double mean = k_nan;
  double se = k_nan;
  double lo = k_nan;
  double hi = k_nan;
  double p_value = k_nan;
};
Difference paired_difference(std::int64_t n, std::int64_t sum_d, std::int64_t sumsq_d);

// Two-sided 95% Student t quantile for `df` degrees of freedom (the normal's
// for df > 1e6); NaN for df < 1.
double t95(std::int64_t df);
// Two-sided p-value of a t statistic.
double t_p_value(double t, std::int64_t df);

// Holm's step-down adjustment of p-values (NaN stays NaN and is not counted).
std::vector<double> holm(const std::vector<double>& p);

// Covariance of two sums from exact cross products: (n Sxy - Sx Sy) / (n (n-1)).
double covariance(std::int64_t n, std::int64_t sx, std::int64_t sy, std::int64_t sxy);

// ---------------------------------------------------------- accumulators

// Everything the reports need from a run, as exact integer sums. The outcome
// vector of one engagement is v = (one indicator per outcome category, then
// each metric); the tally keeps n, sum v, and the cross products v v^T (lower
// triangle, i >= j), plus per-outcome sums, histograms and the band x
// behaviour matrix. Merge = addition (min/max: elementwise).
class Tally {
 public:
  Tally() = default;
  explicit Tally(const Schema& s);

  void add(const OutcomeRow& row);  // one engagement; allocates nothing
  void merge(const Tally& o);       // throws std::logic_error on a shape mismatch
  void clear();                     // back to zero engagements, keeping the shape
  bool same_shape(const Tally& o) const;

  std::int64_t n = 0;
  std::size_t outcomes = 0;  // K
  std::size_t metrics = 0;   // M
  I64Vec sum;                // K + M
  I64Mat cross;              // (K+M) x (K+M), lower triangle: cross(i, j), i >= j
  I64Mat outcome_sum;        // K x M: metric sums within each outcome
  I64Mat outcome_sumsq;      // K x M
  I64Vec nonzero;            // M: engagements where the metric was > 0
  I64Vec min, max;           // M (min > max while n = 0)
  std::vector<std::size_t> hist_metric;  // the metrics with a histogram
  std::vector<I64Mat> hist;  // per histogram: K x (hist_max + 2), the last bin "more"
  I64Mat chosen;             // bands x behaviours: Actions Table decisions
  I64Vec band_engagements;   // bands: engagements with at least one decision in the band

  std::int64_t cross_at(std::size_t i, std::size_t j) const { return i >= j ? cross(i, j) : cross(j, i); }
  std::int64_t outcome_count(std::size_t k) const { return sum(static_cast<Eigen::Index>(k)); }
  std::int64_t metric_sum(std::size_t m) const { return sum(static_cast<Eigen::Index>(outcomes + m)); }
  std::int64_t metric_sumsq(std::size_t m) const { return cross_at(outcomes + m, outcomes + m); }
};

// Paired differences d = variant - baseline of the outcome vector, engagement
// by engagement (common random numbers): n, sum d, sum d^2.
class PairedTally {
 public:
  PairedTally() = default;
  explicit PairedTally(const Schema& s);
  void add(const OutcomeRow& baseline, const OutcomeRow& variant);
  void merge(const PairedTally& o);
  void clear();

  std::int64_t n = 0;
  std::size_t outcomes = 0;
  I64Vec sum_d;
  I64Vec sumsq_d;
  I64Vec differ;  // engagements where the two differ in this figure
};

// Serialisation for checkpoints: every number exactly (JSON integers).
nlohmann::json to_json(const Tally& t);
nlohmann::json to_json(const PairedTally& t);
// Reads into a tally already shaped by the schema; throws std::runtime_error
// naming the part that does not fit.
void from_json(const nlohmann::json& j, Tally& t);
void from_json(const nlohmann::json& j, PairedTally& t);

}  // namespace vedette::lab
