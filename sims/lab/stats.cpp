#include "sims/lab/stats.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace vedette::lab {

namespace {

__extension__ typedef __int128 i128;

// (n S2 - S1^2) / (n (n - 1)) with the numerator exact.
double exact_variance(std::int64_t n, std::int64_t s1, std::int64_t s2) {
  i128 num = static_cast<i128>(n) * s2 - static_cast<i128>(s1) * s1;
  if (num < 0) num = 0;  // cannot happen with exact sums; kept for safety
  return static_cast<double>(num) / (static_cast<double>(n) * static_cast<double>(n - 1));
}

}  // namespace

Proportion wilson(std::int64_t count, std::int64_t n, double z) {
  Proportion r;
  r.count = count;
  r.n = n;
  if (n <= 0) return r;
  const double nn = static_cast<double>(n);
  const double p = static_cast<double>(count) / nn;
  const double z2 = z * z;
  const double denom = 1 + z2 / nn;
  const double centre = (p + z2 / (2 * nn)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / denom;
  r.p = p;
  r.lo = std::max(0.0, centre - half);
  r.hi = std::min(1.0, centre + half);
  // The interval always holds 0 when count is 0 and 1 when count is n;
  // rounding must not push the bound off them.
  if (count == 0) r.lo = 0;
  if (count == n) r.hi = 1;
  return r;
}

double t95(std::int64_t df) {
  if (df < 1) return k_nan;
  if (df > 1000000) return k_z95;
  boost::math::students_t dist(static_cast<double>(df));
  return boost::math::quantile(boost::math::complement(dist, 0.025));
}

double t_p_value(double t, std::int64_t df) {
  if (df < 1 || std::isnan(t)) return k_nan;
  if (std::isinf(t)) return 0;
  boost::math::students_t dist(static_cast<double>(df));
  return std::min(1.0, 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(t))));
}

Mean mean_of(std::int64_t n, std::int64_t sum, std::int64_t sumsq) {
  Mean m;
  m.n = n;
  if (n <= 0) return m;
  m.mean = static_cast<double>(sum) / static_cast<double>(n);
  if (n < 2) return m;
  m.sd = std::sqrt(exact_variance(n, sum, sumsq));
  m.se = m.sd / std::sqrt(static_cast<double>(n));
  const double t = t95(n - 1);
  m.lo = m.mean - t * m.se;
  m.hi = m.mean + t * m.se;
  return m;
}

Difference paired_difference(std::int64_t n, std::int64_t sum_d, std::int64_t sumsq_d) {
  Difference d;
  d.n = n;
  Mean m = mean_of(n, sum_d, sumsq_d);
  d.mean = m.mean;
  if (n < 2) return d;
  d.se = m.se;
  if (m.se == 0) {
    d.lo = d.hi = d.mean;
    d.p_value = sum_d == 0 ? 1.0 : 0.0;
    return d;
  }
  d.lo = m.lo;
  d.hi = m.hi;
  d.p_value = t_p_value(d.mean / d.se, n - 1);
  return d;
}

std::vector<double> holm(const std::vector<double>& p) {
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!std::isnan(p[i])) idx.push_back(i);
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  std::vector<double> out(p.size(), k_nan);
  const double m = static_cast<double>(idx.size());
  double running = 0;
  for (std::size_t r = 0; r < idx.size(); ++r) {
    double adj = std::min(1.0, (m - static_cast<double>(r)) * p[idx[r]]);
    running = std::max(running, adj);
    out[idx[r]] = running;
  }
  return out;
}

double covariance(std::int64_t n, std::int64_t sx, std::int64_t sy, std::int64_t sxy) {
  if (n < 2) return k_nan;
  i128 num = static_cast<i128>(n) * sxy - static_cast<i128>(sx) * sy;
  return static_cast<double>(num) / (static_cast<double>(n) * static_cast<double>(n - 1));
}

// ---------------------------------------------------------------- Tally

Tally::Tally(const Schema& s) : outcomes(s.outcomes()), metrics(s.metrics.size()) {
  const auto D = static_cast<Eigen::Index>(s.dims());
  const auto K = static_cast<Eigen::Index>(outcomes);
  const auto M = static_cast<Eigen::Index>(metrics);
  sum = I64Vec::Zero(D);
  cross = I64Mat::Zero(D, D);
  outcome_sum = I64Mat::Zero(K, M);
  outcome_sumsq = I64Mat::Zero(K, M);
  nonzero = I64Vec::Zero(M);
  min = I64Vec::Constant(M, std::numeric_limits<std::int64_t>::max());
  max = I64Vec::Constant(M, std::numeric_limits<std::int64_t>::min());
  for (std::size_t m = 0; m < s.metrics.size(); ++m) {
    if (s.metrics[m].hist_max < 0) continue;
    hist_metric.push_back(m);
    hist.push_back(I64Mat::Zero(K, s.metrics[m].hist_max + 2));
  }
  chosen = I64Mat::Zero(static_cast<Eigen::Index>(s.bands()), static_cast<Eigen::Index>(s.behaviours()));
  band_engagements = I64Vec::Zero(static_cast<Eigen::Index>(s.bands()));
}

void Tally::add(const OutcomeRow& row) {
  ++n;
  const auto K = static_cast<Eigen::Index>(outcomes);
  const auto M = static_cast<Eigen::Index>(metrics);
  const auto k = static_cast<Eigen::Index>(row.outcome);
  const std::int64_t* v = row.metrics.data();

  // Indicator part: only v_k = 1 is non-zero.
  sum(k) += 1;
  cross(k, k) += 1;
  for (Eigen::Index i = 0; i < M; ++i) cross(K + i, k) += v[i];
  // Metric part: lower triangle, column by column (contiguous in Eigen's
  // column-major storage); zero columns cost nothing.
  for (Eigen::Index j = 0; j < M; ++j) {
    const std::int64_t vj = v[j];
    sum(K + j) += vj;
    if (vj == 0) continue;
    std::int64_t* col = &cross(0, K + j);
    for (Eigen::Index i = j; i < M; ++i) col[K + i] += v[i] * vj;
  }
  for (Eigen::Index j = 0; j < M; ++j) {
    const std::int64_t vj = v[j];
    outcome_sum(k, j) += vj;
    outcome_sumsq(k, j) += vj * vj;
    nonzero(j) += vj > 0;
    if (vj < min(j)) min(j) = vj;
    if (vj > max(j)) max(j) = vj;
  }
  for (std::size_t h = 0; h < hist.size(); ++h) {
    I64Mat& H = hist[h];
    const std::int64_t vj = v[hist_metric[h]];
    const Eigen::Index last = H.cols() - 1;
    H(k, vj < last ? static_cast<Eigen::Index>(vj) : last) += 1;
  }
  const Eigen::Index B = chosen.rows(), Hn = chosen.cols();
  const std::uint32_t* c = row.chosen.data();
  for (Eigen::Index b = 0; b < B; ++b) {
    bool any = false;
    for (Eigen::Index h = 0; h < Hn; ++h) {
      const std::uint32_t x = c[b * Hn + h];
      chosen(b, h) += x;
      any |= x != 0;
    }
    band_engagements(b) += any;
  }
}

bool Tally::same_shape(const Tally& o) const {
  if (outcomes != o.outcomes || metrics != o.metrics || hist_metric != o.hist_metric) return false;
  if (chosen.rows() != o.chosen.rows() || chosen.cols() != o.chosen.cols()) return false;
  for (std::size_t h = 0; h < hist.size(); ++h)
    if (hist[h].cols() != o.hist[h].cols()) return false;
  return true;
}

void Tally::merge(const Tally& o) {
  if (!same_shape(o)) throw std::logic_error("Tally::merge: tallies of different shapes");
  n += o.n;
  sum += o.sum;
  cross += o.cross;
  outcome_sum += o.outcome_sum;
  outcome_sumsq += o.outcome_sumsq;
  nonzero += o.nonzero;
  min = min.cwiseMin(o.min);
  max = max.cwiseMax(o.max);
  for (std::size_t h = 0; h < hist.size(); ++h) hist[h] += o.hist[h];
  chosen += o.chosen;
  band_engagements += o.band_engagements;
}

void Tally::clear() {
  n = 0;
  sum.setZero();
  cross.setZero();
  outcome_sum.setZero();
  outcome_sumsq.setZero();
  nonzero.setZero();
  min.setConstant(std::numeric_limits<std::int64_t>::max());
  max.setConstant(std::numeric_limits<std::int64_t>::min());
  for (auto& h : hist) h.setZero();
  chosen.setZero();
  band_engagements.setZero();
}

// ----------------------------------------------------------- PairedTally

PairedTally::PairedTally(const Schema& s) : outcomes(s.outcomes()) {
  const auto D = static_cast<Eigen::Index>(s.dims());
  sum_d = I64Vec::Zero(D);
  sumsq_d = I64Vec::Zero(D);
  differ = I64Vec::Zero(D);
}

void PairedTally::add(const OutcomeRow& baseline, const OutcomeRow& variant) {
  ++n;
  const auto K = static_cast<Eigen::Index>(outcomes);
  if (baseline.outcome != variant.outcome) {
    const auto a = static_cast<Eigen::Index>(baseline.outcome), b = static_cast<Eigen::Index>(variant.outcome);
    sum_d(a) -= 1;
    sum_d(b) += 1;
    sumsq_d(a) += 1;
    sumsq_d(b) += 1;
    differ(a) += 1;
    differ(b) += 1;
  }
  const auto M = static_cast<Eigen::Index>(baseline.metrics.size());
  for (Eigen::Index j = 0; j < M; ++j) {
    const std::int64_t d = variant.metrics[static_cast<std::size_t>(j)] - baseline.metrics[static_cast<std::size_t>(j)];
    sum_d(K + j) += d;
    sumsq_d(K + j) += d * d;
    differ(K + j) += d != 0;
  }
}

void PairedTally::merge(const PairedTally& o) {
  if (outcomes != o.outcomes || sum_d.size() != o.sum_d.size())
    throw std::logic_error("PairedTally::merge: tallies of different shapes");
  n += o.n;
  sum_d += o.sum_d;
  sumsq_d += o.sumsq_d;
  differ += o.differ;
}

void PairedTally::clear() {
  n = 0;
  sum_d.setZero();
  sumsq_d.setZero();
  differ.setZero();
}

// --------------------------------------------------------------- JSON

namespace {

using nlohmann::json;

json vec_json(const I64Vec& v) {
  json a = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v(i));
  return a;
}

json mat_json(const I64Mat& m) {  // row by row
  json a = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json r = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) r.push_back(m(i, j));
    a.push_back(std::move(r));
  }
  return a;
}

[[noreturn]] void bad(const std::string& what, const std::string& why) {
  throw std::runtime_error("'" + what + "' " + why);
}

std::int64_t read_i64(const json& j, const std::string& what) {
  if (!j.is_number_integer()) bad(what, std::string("should be a whole number, found ") + j.type_name());
  return j.get<std::int64_t>();
}

const json& member(const json& j, const std::string& key, const std::string& what) {
  if (!j.is_object()) bad(what, "should be an object");
  auto it = j.find(key);
  if (it == j.end()) bad(what + "." + key, "is missing");
  return *it;
}

void read_vec(const json& j, const std::string& what, I64Vec& v) {
  if (!j.is_array() || static_cast<Eigen::Index>(j.size()) != v.size())
    bad(what, "should be a list of " + std::to_string(v.size()) + " whole numbers");
  for (Eigen::Index i = 0; i < v.size(); ++i)
    v(i) = read_i64(j[static_cast<std::size_t>(i)], what + "[" + std::to_string(i) + "]");
}

void read_mat(const json& j, const std::string& what, I64Mat& m) {
  if (!j.is_array() || static_cast<Eigen::Index>(j.size()) != m.rows())
    bad(what, "should be a list of " + std::to_string(m.rows()) + " rows");
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    const json& r = j[static_cast<std::size_t>(i)];
    std::string rw = what + "[" + std::to_string(i) + "]";
    if (!r.is_array() || static_cast<Eigen::Index>(r.size()) != m.cols())
      bad(rw, "should be a list of " + std::to_string(m.cols()) + " whole numbers");
    for (Eigen::Index c = 0; c < m.cols(); ++c) m(i, c) = read_i64(r[static_cast<std::size_t>(c)], rw + "[" + std::to_string(c) + "]");
  }
}

}  // namespace

json to_json(const Tally& t) {
  json j;
  j["n"] = t.n;
  j["sum"] = vec_json(t.sum);
  json lower = json::array();
  for (Eigen::Index i = 0; i < t.cross.rows(); ++i)
    for (Eigen::Index k = 0; k <= i; ++k) lower.push_back(t.cross(i, k));
  j["cross_lower"] = lower;
  j["outcome_sum"] = mat_json(t.outcome_sum);
  j["outcome_sumsq"] = mat_json(t.outcome_sumsq);
  j["nonzero"] = vec_json(t.nonzero);
  j["min"] = vec_json(t.min);
  j["max"] = vec_json(t.max);
  json h = json::array();
  for (const auto& m : t.hist) h.push_back(mat_json(m));
  j["hist"] = h;
  j["chosen"] = mat_json(t.chosen);
  j["band_engagements"] = vec_json(t.band_engagements);
  return j;
}

void from_json(const json& j, Tally& t) {
  const std::string w = "tally";
  t.n = read_i64(member(j, "n", w), w + ".n");
  if (t.n < 0) bad(w + ".n", "should not be negative");
  read_vec(member(j, "sum", w), w + ".sum", t.sum);
  const json& lower = member(j, "cross_lower", w);
  const auto D = t.cross.rows();
  if (!lower.is_array() || static_cast<Eigen::Index>(lower.size()) != D * (D + 1) / 2)
    bad(w + ".cross_lower", "should be a list of " + std::to_string(D * (D + 1) / 2) + " whole numbers");
  std::size_t at = 0;
  t.cross.setZero();
  for (Eigen::Index i = 0; i < D; ++i)
    for (Eigen::Index k = 0; k <= i; ++k, ++at) t.cross(i, k) = read_i64(lower[at], w + ".cross_lower[" + std::to_string(at) + "]");
  read_mat(member(j, "outcome_sum", w), w + ".outcome_sum", t.outcome_sum);
  read_mat(member(j, "outcome_sumsq", w), w + ".outcome_sumsq", t.outcome_sumsq);
  read_vec(member(j, "nonzero", w), w + ".nonzero", t.nonzero);
  read_vec(member(j, "min", w), w + ".min", t.min);
  read_vec(member(j, "max", w), w + ".max", t.max);
  const json& h = member(j, "hist", w);
  if (!h.is_array() || h.size() != t.hist.size()) bad(w + ".hist", "should be a list of " + std::to_string(t.hist.size()) + " histograms");
  for (std::size_t i = 0; i < t.hist.size(); ++i) read_mat(h[i], w + ".hist[" + std::to_string(i) + "]", t.hist[i]);
  read_mat(member(j, "chosen", w), w + ".chosen", t.chosen);
  read_vec(member(j, "band_engagements", w), w + ".band_engagements", t.band_engagements);
  // What n engagements can have summed (lab_model.hpp: metrics below 2^16,
  // so a sum of products below n * 2^32): anything else was edited, and
  // resuming on it could overflow the sums.
  if (t.n > static_cast<std::int64_t>(k_max_engagements)) bad(w + ".n", "is more than a run can hold");
  const std::int64_t most = t.n * (k_metric_limit * k_metric_limit);
  auto in_range = [&](const auto& m, const std::string& what) {
    if (m.size() > 0 && (m.minCoeff() < 0 || m.maxCoeff() > most))
      bad(what, "holds a number no " + std::to_string(t.n) + " engagements can sum to (the file was edited or damaged)");
  };
  in_range(t.sum, w + ".sum");
  in_range(t.cross, w + ".cross_lower");
  in_range(t.outcome_sum, w + ".outcome_sum");
  in_range(t.outcome_sumsq, w + ".outcome_sumsq");
  in_range(t.nonzero, w + ".nonzero");
  for (std::size_t i = 0; i < t.hist.size(); ++i) in_range(t.hist[i], w + ".hist[" + std::to_string(i) + "]");
  in_range(t.chosen, w + ".chosen");
  in_range(t.band_engagements, w + ".band_engagements");
  for (Eigen::Index m = 0; m < t.min.size(); ++m) {
    const bool none = t.n == 0 && t.min(m) == std::numeric_limits<std::int64_t>::max() &&
                      t.max(m) == std::numeric_limits<std::int64_t>::min();
    if (!none && (t.min(m) < 0 || t.max(m) >= k_metric_limit || t.min(m) > t.max(m)))
      bad(w + ".min", "and max are not the least and greatest of whole numbers below 65536 (the file was edited or damaged)");
  }
  std::int64_t outcomes = 0;
  for (std::size_t k = 0; k < t.outcomes; ++k) outcomes += t.outcome_count(k);
  if (outcomes != t.n) bad(w + ".sum", "does not add up to n (the file was edited or damaged)");
}

json to_json(const PairedTally& t) {
  json j;
  j["n"] = t.n;
  j["sum_d"] = vec_json(t.sum_d);
  j["sumsq_d"] = vec_json(t.sumsq_d);
  j["differ"] = vec_json(t.differ);
  return j;
}

void from_json(const json& j, PairedTally& t) {
  const std::string w = "paired";
  t.n = read_i64(member(j, "n", w), w + ".n");
  if (t.n < 0) bad(w + ".n", "should not be negative");
  read_vec(member(j, "sum_d", w), w + ".sum_d", t.sum_d);
  read_vec(member(j, "sumsq_d", w), w + ".sumsq_d", t.sumsq_d);
  read_vec(member(j, "differ", w), w + ".differ", t.differ);
  if (t.n > static_cast<std::int64_t>(k_max_engagements)) bad(w + ".n", "is more than a run can hold");
  const std::int64_t most = t.n * (k_metric_limit * k_metric_limit);
  if (t.sum_d.size() > 0 && (t.sum_d.maxCoeff() > t.n * k_metric_limit || t.sum_d.minCoeff() < -t.n * k_metric_limit))
    bad(w + ".sum_d", "holds a number no " + std::to_string(t.n) + " engagements can sum to (the file was edited or damaged)");
  if (t.sumsq_d.size() > 0 && (t.sumsq_d.minCoeff() < 0 || t.sumsq_d.maxCoeff() > most))
    bad(w + ".sumsq_d", "holds a number no " + std::to_string(t.n) + " engagements can sum to (the file was edited or damaged)");
  if (t.differ.size() > 0 && (t.differ.minCoeff() < 0 || t.differ.maxCoeff() > t.n))
    bad(w + ".differ", "holds a count above n (the file was edited or damaged)");
}

}  // namespace vedette::lab
