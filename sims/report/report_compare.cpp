// `vedette compare` and `vedette sweep` reports.
#include <cmath>
#include <cstdio>

#include "sims/report/report.hpp"
#include "sims/report/report_parts.hpp"
#include "sims/report/svg.hpp"

namespace vedette::lab {

using parts::mean_text;
using parts::prop_text;
using parts::thousands;

namespace {

std::string p_text(double p) {
  if (std::isnan(p)) return "n/a";
  if (p < 0.001) return "<0.001";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", p);
  return buf;
}

std::string signed_number(double v, int decimals) {
  if (std::isnan(v)) return "n/a";
  std::string s = number(v, decimals);
  return (v > 0 && s.find_first_not_of("0.") != std::string::npos) ? "+" + s : s;
}

std::string diff_text(const CompareRow& r) {
  if (r.diff.n == 0) return "n/a";
  if (r.probability)
    return signed_number(r.diff.mean * 100, 2) + " pp [" + number(r.diff.lo * 100, 2) + ", " + number(r.diff.hi * 100, 2) + "]";
  // Small differences keep two significant digits ("-0.0012"), others three decimals.
  if (std::fabs(r.diff.mean) < 0.01 && r.diff.mean != 0) {
    auto g = [](double v) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2g", v);
      return std::string(buf);
    };
    return (r.diff.mean > 0 ? "+" : "") + g(r.diff.mean) + " [" + g(r.diff.lo) + ", " + g(r.diff.hi) + "]";
  }
  return signed_number(r.diff.mean, 3) + " [" + number(r.diff.lo, 3) + ", " + number(r.diff.hi, 3) + "]";
}

std::string base_text(const CompareRow& r) { return r.probability ? prop_text(r.p_base) : mean_text(r.m_base); }
std::string variant_text(const CompareRow& r) { return r.probability ? prop_text(r.p_variant) : mean_text(r.m_variant); }

// Zero in every engagement of both: listed by name, not tabled.
bool both_zero(const CompareRow& r) { return !r.probability && r.differ == 0 && r.m_base.mean == 0 && r.m_variant.mean == 0; }

std::string zero_list(const Comparison& c) {
  std::string z;
  for (const auto& r : c.rows)
    if (both_zero(r)) z += (z.empty() ? "" : "; ") + r.label;
  return z;
}

std::string md_escape(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '|' ? std::string("\\|") : std::string(1, c);
  return o;
}

}  // namespace

// ---------------------------------------------------------------- compare

std::string compare_markdown(const RunInfo& info, const Comparison& c, const std::string& report_path) {
  std::string o = "# vedette compare: " + info.scenario + "\n\n";
  o += "Baseline **" + c.baseline + "** against variant **" + c.variant + "**, on common random numbers: engagement i of both plays on the same dice streams (seed " +
       std::to_string(info.seed) + ").\n\n";
  o += parts::run_markdown(info);
  o += "\n| figure | baseline | variant | difference (variant - baseline) [95%] | p | real? |\n| --- | --- | --- | --- | --- | --- |\n";
  std::size_t real = 0, tested = 0;
  for (const auto& r : c.rows) {
    tested += r.differ > 0;
    if (both_zero(r)) continue;
    o += "| " + md_escape(r.label) + " | " + base_text(r) + " | " + variant_text(r) + " | " + diff_text(r) + " | " + p_text(r.diff.p_value) + " | " +
         (r.real ? "**yes**" : "no") + " |\n";
    real += r.real;
  }
  o += "\nProbabilities: Wilson 95% intervals; means: ± standard error. Differences are paired, engagement by engagement, with a 95% t interval "
       "and a two-sided p-value; \"real\" means p < 0.05 after Holm's correction over the " +
       std::to_string(tested) + " figures that differ in at least one engagement (" + std::to_string(real) + " real).\n";
  if (const std::string z = zero_list(c); !z.empty()) o += "Always 0 in both: " + md_escape(z) + ".\n";
  if (!report_path.empty()) o += "\nReport: " + report_path + "\n";
  return o;
}

OJson compare_json(const RunInfo& info, const Comparison& c) {
  OJson j;
  j["vedette"] = "compare";
  j["format"] = 1;
  put_all(j, parts::run_json(info));
  j["baseline"] = c.baseline;
  j["variant"] = c.variant;
  j["test"] = "paired differences (common random numbers), 95% t interval, two-sided t test; real = Holm-adjusted p < 0.05";
  j["figures"] = OJson::array();
  for (const auto& r : c.rows) {
    OJson x{{"id", r.id}, {"label", r.label}, {"kind", r.probability ? "probability" : "mean"}};
    x["baseline"] = r.probability ? json_proportion(r.p_base) : json_mean(r.m_base);
    x["variant"] = r.probability ? json_proportion(r.p_variant) : json_mean(r.m_variant);
    x["difference"] = {{"mean", json_number(r.diff.mean)}, {"se", json_number(r.diff.se)},   {"lo", json_number(r.diff.lo)},
                       {"hi", json_number(r.diff.hi)},     {"p_value", json_number(r.diff.p_value)}, {"p_holm", json_number(r.p_holm)},
                       {"real", r.real},                   {"n", r.diff.n},                  {"engagements_that_differ", r.differ}};
    j["figures"].push_back(x);
  }
  return j;
}

std::string compare_html(const RunInfo& info, const Comparison& c) {
  const Schema& sc = *c.base.schema;
  std::string o = parts::html_open("vedette compare: " + info.scenario);
  o += "<h1>vedette compare: " + html_escape(info.scenario) + "</h1>\n";
  o += "<p>Baseline <b>" + html_escape(c.baseline) + "</b> against variant <b>" + html_escape(c.variant) +
       "</b>, on common random numbers (engagement i of both plays on the same dice).</p>\n" + parts::html_run(info);

  std::vector<svg::Bar> bars;
  for (std::size_t k = 0; k < sc.outcomes(); ++k) {
    bars.push_back({sc.outcome_labels[k] + " (baseline)", c.base.outcomes[k].p, c.base.outcomes[k].lo, c.base.outcomes[k].hi, svg::colour(k),
                    prop_text(c.base.outcomes[k])});
    bars.push_back({sc.outcome_labels[k] + " (variant)", c.var.outcomes[k].p, c.var.outcomes[k].lo, c.var.outcomes[k].hi, svg::colour(k),
                    prop_text(c.var.outcomes[k])});
  }
  o += "<h2>Who wins</h2>\n" + svg::interval_bars("chart-outcomes", "Outcome probabilities, baseline and variant", bars);

  std::vector<svg::Bar> probs, means;
  for (const auto& r : c.rows) {
    if (!r.probability && r.differ == 0) continue;  // nothing to draw
    const std::string col = r.real ? svg::colour(0) : "";
    if (r.probability) {
      probs.push_back({r.label, r.diff.mean * 100, r.diff.lo * 100, r.diff.hi * 100, col, diff_text(r) + (r.real ? "  real" : "")});
    } else {
      // Relative to the baseline's mean, so figures of any size share an axis.
      const double base = r.m_base.mean;
      if (!(std::isfinite(base) && base != 0)) continue;
      means.push_back({r.label, 100 * r.diff.mean / base, 100 * r.diff.lo / base, 100 * r.diff.hi / base, col,
                       signed_number(100 * r.diff.mean / base, 1) + "%" + (r.real ? "  real" : "")});
    }
  }
  o += "<h2>Differences</h2>\n" + svg::forest("chart-diff-outcomes", "Outcome probabilities: variant - baseline (percentage points)", probs, " pp");
  if (!means.empty()) o += svg::forest("chart-diff-metrics", "Means: variant - baseline, as % of the baseline mean", means, "%");
  o += "<p class=\"note\">Coloured: a real difference (Holm-adjusted p &lt; 0.05). Grey: within what chance gives.</p>\n";

  o += "<table>\n<tr><th>figure</th><th>baseline</th><th>variant</th><th>difference [95%]</th><th>p</th><th>Holm p</th><th>real?</th><th>engagements that differ</th></tr>\n";
  for (const auto& r : c.rows)
    if (!both_zero(r))
      o += "<tr><td>" + html_escape(r.label) + "</td><td>" + html_escape(base_text(r)) + "</td><td>" + html_escape(variant_text(r)) + "</td><td>" +
         html_escape(diff_text(r)) + "</td><td>" + html_escape(p_text(r.diff.p_value)) + "</td><td>" + html_escape(p_text(r.p_holm)) + "</td><td" +
         (r.real ? " class=\"real\">yes" : ">no") + "</td><td>" + thousands(r.differ) + "</td></tr>\n";
  o += "</table>\n";
  if (const std::string z = zero_list(c); !z.empty()) o += "<p class=\"note\">Always 0 in both: " + html_escape(z) + ".</p>\n";
  return o + parts::html_close();
}

// ------------------------------------------------------------------ sweep

namespace {

// The metrics a sweep table shows: turns and losses.
std::vector<std::size_t> sweep_metrics(const Schema& s) {
  std::vector<std::size_t> m;
  for (std::size_t i = 0; i < s.metrics.size(); ++i)
    if (s.metrics[i].kind != MetricKind::count) m.push_back(i);
  return m;
}

}  // namespace

std::string sweep_markdown(const RunInfo& info, const Sweep& w, const std::string& report_path) {
  std::string o = "# vedette sweep: " + info.scenario + "\n\n";
  o += "`" + w.path + "` over " + std::to_string(w.points.size()) + " values; every value plays the same engagements on the same dice (seed " +
       std::to_string(info.seed) + ", " + thousands(static_cast<std::int64_t>(info.requested)) + " each).\n\n";
  if (info.partial()) o += "**PARTIAL**: stopped by " + info.stopped_by + "; the last value shown rests on fewer engagements.\n\n";
  if (w.points.empty()) return o;
  const Schema& sc = *w.points.front().summary.schema;
  const auto ms = sweep_metrics(sc);
  o += "| value | engagements |";
  for (const auto& l : sc.outcome_labels) o += " " + md_escape(l) + " [95%] |";
  for (auto m : ms) o += " " + md_escape(sc.metrics[m].label) + " |";
  o += "\n| --- | --- |";
  for (std::size_t i = 0; i < sc.outcomes() + ms.size(); ++i) o += " --- |";
  o += "\n";
  for (const auto& p : w.points) {
    o += "| " + md_escape(p.value) + " | " + thousands(p.summary.n) + " |";
    for (const auto& x : p.summary.outcomes) o += " " + prop_text(x) + " |";
    for (auto m : ms) o += " " + mean_text(p.summary.metrics[m].all) + " |";
    o += "\n";
  }
  o += "\nProbabilities: Wilson 95% intervals; means: ± standard error.\n";
  if (!report_path.empty()) o += "\nReport: " + report_path + "\n";
  return o;
}

OJson sweep_json(const RunInfo& info, const Sweep& w) {
  OJson j;
  j["vedette"] = "sweep";
  j["format"] = 1;
  put_all(j, parts::run_json(info));
  j["path"] = w.path;
  j["points"] = OJson::array();
  for (const auto& p : w.points) {
    const Schema& sc = *p.summary.schema;
    OJson x{{"value", p.value}, {"ruleset", p.ruleset}, {"engagements", p.summary.n}};
    x["outcomes"] = OJson::array();
    for (std::size_t k = 0; k < sc.outcomes(); ++k) {
      OJson y{{"id", sc.outcome_ids[k]}, {"label", sc.outcome_labels[k]}};
      put_all(y, json_proportion(p.summary.outcomes[k]));
      x["outcomes"].push_back(y);
    }
    x["metrics"] = OJson::array();
    for (std::size_t m = 0; m < sc.metrics.size(); ++m)
      x["metrics"].push_back(OJson{{"id", sc.metrics[m].id}, {"label", sc.metrics[m].label}, {"mean", json_mean(p.summary.metrics[m].all)}});
    x["rates"] = OJson::array();
    for (std::size_t r = 0; r < sc.rates.size(); ++r) {
      OJson y{{"id", sc.rates[r].id}, {"label", sc.rates[r].label}};
      put_all(y, json_proportion(p.summary.rates[r].p));
      x["rates"].push_back(y);
    }
    j["points"].push_back(x);
  }
  return j;
}

std::string sweep_html(const RunInfo& info, const Sweep& w) {
  std::string o = parts::html_open("vedette sweep: " + info.scenario);
  o += "<h1>vedette sweep: " + html_escape(info.scenario) + "</h1>\n";
  o += "<p><code>" + html_escape(w.path) + "</code> over " + std::to_string(w.points.size()) +
       " values; every value plays the same engagements on the same dice.</p>\n" + parts::html_run(info);
  if (w.points.empty()) return o + parts::html_close();
  const Schema& sc = *w.points.front().summary.schema;
  std::vector<std::string> x;
  for (const auto& p : w.points) x.push_back(p.value);
  std::vector<svg::Series> series;
  for (std::size_t k = 0; k < sc.outcomes(); ++k) {
    svg::Series se{sc.outcome_labels[k], svg::colour(k), {}, {}, {}};
    for (const auto& p : w.points) {
      se.values.push_back(p.summary.outcomes[k].p);
      se.lo.push_back(p.summary.outcomes[k].lo);
      se.hi.push_back(p.summary.outcomes[k].hi);
    }
    series.push_back(se);
  }
  o += "<h2>Outcome probabilities by value</h2>\n" + svg::lines("chart-sweep", "Outcome probabilities with 95% intervals", x, series, w.path);
  const auto ms = sweep_metrics(sc);
  o += "<table>\n<tr><th>value</th><th>engagements</th>";
  for (const auto& l : sc.outcome_labels) o += "<th>" + html_escape(l) + " [95%]</th>";
  for (auto m : ms) o += "<th>" + html_escape(sc.metrics[m].label) + "</th>";
  o += "</tr>\n";
  for (const auto& p : w.points) {
    o += "<tr><td>" + html_escape(p.value) + "</td><td>" + thousands(p.summary.n) + "</td>";
    for (const auto& y : p.summary.outcomes) o += "<td>" + html_escape(prop_text(y)) + "</td>";
    for (auto m : ms) o += "<td>" + html_escape(mean_text(p.summary.metrics[m].all)) + "</td>";
    o += "</tr>\n";
  }
  o += "</table>\n";
  return o + parts::html_close();
}

}  // namespace vedette::lab
