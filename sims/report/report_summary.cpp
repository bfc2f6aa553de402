// Figures derived from the sums (Summary, Comparison), number formatting,
// and the per-engagement CSV rows.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "sims/report/report.hpp"

namespace vedette::lab {

Summary summarize(const Schema& s, const Tally& t) {
  Summary r;
  r.schema = &s;
  r.n = t.n;
  const std::size_t K = s.outcomes(), M = s.metrics.size(), D = s.dims();
  for (std::size_t k = 0; k < K; ++k) r.outcomes.push_back(wilson(t.outcome_count(k), t.n));
  for (std::size_t m = 0; m < M; ++m) {
    MetricFigures f;
    f.total = t.metric_sum(m);
    f.all = mean_of(t.n, t.metric_sum(m), t.metric_sumsq(m));
    for (std::size_t k = 0; k < K; ++k)
      f.by_outcome.push_back(mean_of(t.outcome_count(k), t.outcome_sum(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(m)),
                                     t.outcome_sumsq(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(m))));
    f.nonzero = wilson(t.nonzero(static_cast<Eigen::Index>(m)), t.n);
    if (t.n > 0) {
      f.min = t.min(static_cast<Eigen::Index>(m));
      f.max = t.max(static_cast<Eigen::Index>(m));
    }
    r.metrics.push_back(f);
  }
  const std::size_t B = s.bands(), H = s.behaviours();
  r.behaviour.assign(B, {});
  for (std::size_t b = 0; b < B; ++b) {
    std::int64_t total = 0;
    for (std::size_t h = 0; h < H; ++h) total += t.chosen(static_cast<Eigen::Index>(b), static_cast<Eigen::Index>(h));
    r.band_decisions.push_back(total);
    r.band_engagements.push_back(t.band_engagements(static_cast<Eigen::Index>(b)));
    for (std::size_t h = 0; h < H; ++h)
      r.behaviour[b].push_back(wilson(t.chosen(static_cast<Eigen::Index>(b), static_cast<Eigen::Index>(h)), total));
  }
  for (const auto& f : s.funnels) {
    std::vector<StageFigures> st;
    for (const auto& stage : f.stages) {
      StageFigures g;
      g.total = t.metric_sum(stage.metric);
      g.per_engagement = r.metrics[stage.metric].all;
      g.engagements = t.nonzero(static_cast<Eigen::Index>(stage.metric));
      if (stage.parent >= 0) g.of_parent = wilson(g.total, t.metric_sum(f.stages[static_cast<std::size_t>(stage.parent)].metric));
      st.push_back(g);
    }
    r.funnels.push_back(std::move(st));
  }
  for (const auto& rate : s.rates) {
    RateFigures g;
    g.p = wilson(t.metric_sum(rate.num), t.metric_sum(rate.den));
    g.engagements = t.nonzero(static_cast<Eigen::Index>(rate.den));
    r.rates.push_back(g);
  }
  r.covariance = Eigen::MatrixXd::Constant(static_cast<Eigen::Index>(D), static_cast<Eigen::Index>(D), k_nan);
  r.correlation = r.covariance;
  for (std::size_t i = 0; i < D; ++i)
    for (std::size_t j = 0; j <= i; ++j) {
      const double c = covariance(t.n, t.sum(static_cast<Eigen::Index>(i)), t.sum(static_cast<Eigen::Index>(j)), t.cross_at(i, j));
      r.covariance(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = c;
      r.covariance(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(i)) = c;
    }
  for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(D); ++i)
    for (Eigen::Index j = 0; j < static_cast<Eigen::Index>(D); ++j) {
      const double vi = r.covariance(i, i), vj = r.covariance(j, j);
      r.correlation(i, j) = (vi > 0 && vj > 0) ? std::clamp(r.covariance(i, j) / std::sqrt(vi * vj), -1.0, 1.0) : k_nan;
    }
  return r;
}

Comparison compare_figures(const Schema& s, const Tally& base, const Tally& var, const PairedTally& d,
                           std::string baseline_name, std::string variant_name) {
  Comparison c;
  c.baseline = std::move(baseline_name);
  c.variant = std::move(variant_name);
  c.base = summarize(s, base);
  c.var = summarize(s, var);
  const std::size_t K = s.outcomes();
  for (std::size_t i = 0; i < s.dims(); ++i) {
    CompareRow row;
    const auto e = static_cast<Eigen::Index>(i);
    if (i < K) {
      row.id = s.outcome_ids[i];
      row.label = "P(" + s.outcome_labels[i] + ")";
      row.probability = true;
      row.p_base = c.base.outcomes[i];
      row.p_variant = c.var.outcomes[i];
      if (i < s.side_roles.size()) {
        row.side = s.side_names[i];
        row.role = s.side_roles[i];
        row.key = "win:" + row.role;
      }
    } else {
      const MetricDef& m = s.metrics[i - K];
      row.id = m.id;
      row.label = m.label;
      row.m_base = c.base.metrics[i - K].all;
      row.m_variant = c.var.metrics[i - K].all;
      const std::size_t mi = i - K;
      const int side = mi < s.metric_side.size() ? s.metric_side[mi] : -1;
      if (side >= 0 && static_cast<std::size_t>(side) < s.side_roles.size() && mi < s.metric_counter.size()) {
        row.side = s.side_names[static_cast<std::size_t>(side)];
        row.role = s.side_roles[static_cast<std::size_t>(side)];
        row.key = row.role + ":" + s.metric_counter[mi];
      }
    }
    if (row.key.empty()) row.key = row.id;
    row.diff = paired_difference(d.n, d.sum_d(e), d.sumsq_d(e));
    row.differ = d.differ(e);
    c.rows.push_back(row);
  }
  // Holm's family: the figures that differ in at least one engagement (a
  // figure identical in every engagement has no difference to test).
  std::vector<double> p;
  for (const auto& r : c.rows) p.push_back(r.differ > 0 ? r.diff.p_value : k_nan);
  std::vector<double> adj = holm(p);
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    c.rows[i].p_holm = c.rows[i].differ > 0 ? adj[i] : c.rows[i].diff.p_value;
    c.rows[i].real = c.rows[i].differ > 0 && !std::isnan(adj[i]) && adj[i] < 0.05;
  }
  return c;
}

// ------------------------------------------------------------ formatting

std::string percent(double p, int decimals) {
  if (std::isnan(p)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f%%", decimals, p * 100);
  return buf;
}

std::string number(double v, int decimals) {
  if (std::isnan(v)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s == "-0" || s.find_first_not_of("-0.") == std::string::npos) s = s[0] == '-' ? s.substr(1) : s;
  return s;
}

std::string html_escape(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (char ch : s) {
    switch (ch) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += ch;
    }
  }
  return o;
}

OJson json_number(double v) { return std::isfinite(v) ? OJson(v) : OJson(nullptr); }

OJson json_proportion(const Proportion& p) {
  return OJson{{"p", json_number(p.p)}, {"lo", json_number(p.lo)}, {"hi", json_number(p.hi)}, {"count", p.count}, {"n", p.n}};
}

OJson json_mean(const Mean& m) {
  return OJson{{"mean", json_number(m.mean)}, {"se", json_number(m.se)}, {"lo", json_number(m.lo)},
               {"hi", json_number(m.hi)},     {"sd", json_number(m.sd)}, {"n", m.n}};
}

void put_all(OJson& into, const OJson& from) {
  for (auto it = from.begin(); it != from.end(); ++it) into[it.key()] = it.value();
}

// ------------------------------------------------------------------ CSV

std::string csv_header(const Schema& s, bool with_model) {
  std::string h = "engagement,";
  if (with_model) h += "model,";
  h += "winner";
  for (const auto& m : s.metrics) h += "," + m.id;
  for (const auto& b : s.band_ids) h += ",decisions_" + b;
  return h + "\n";
}

void csv_row(std::string& out, const Schema& s, std::uint64_t index, const OutcomeRow& row, const char* model) {
  char buf[24];
  auto put = [&](auto v) {
    auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
    (void)ec;
    out.append(buf, p);
  };
  put(index);
  if (model) {
    out += ',';
    out += model;
  }
  out += ',';
  out += s.outcome_ids[row.outcome];
  for (auto v : row.metrics) {
    out += ',';
    put(v);
  }
  const std::size_t H = s.behaviours();
  for (std::size_t b = 0; b < s.bands(); ++b) {
    std::uint64_t total = 0;
    for (std::size_t h = 0; h < H; ++h) total += row.chosen[b * H + h];
    out += ',';
    put(total);
  }
  out += '\n';
}

}  // namespace vedette::lab
