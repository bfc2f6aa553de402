// `vedette sim`'s reports: Markdown, summary.json, report.html.
#include <algorithm>
#include <cmath>

#include "sims/report/report.hpp"
#include "sims/report/report_parts.hpp"
#include "sims/report/svg.hpp"

namespace vedette::lab {

using parts::md_escape;
using parts::mean_text;
using parts::prop_text;
using parts::thousands;

namespace {

const char* kind_name(MetricKind k) {
  switch (k) {
    case MetricKind::turns: return "turns";
    case MetricKind::losses: return "losses";
    case MetricKind::count: return "count";
  }
  return "count";
}

// The bins of histogram h worth showing: from the smallest value seen to the
// largest (the last bin holds every value above hist_max).
struct HistView {
  std::size_t metric = 0;
  Eigen::Index first = 0, last = -1;  // inclusive
  std::vector<std::string> labels;
};

HistView hist_view(const Schema& s, const Tally& t, std::size_t h) {
  HistView v;
  v.metric = t.hist_metric[h];
  const I64Mat& H = t.hist[h];
  const Eigen::Index top = H.cols() - 1;
  if (t.n == 0) return v;
  v.first = std::min<Eigen::Index>(t.min(static_cast<Eigen::Index>(v.metric)), top);
  v.last = std::min<Eigen::Index>(t.max(static_cast<Eigen::Index>(v.metric)), top);
  for (Eigen::Index b = v.first; b <= v.last; ++b)
    v.labels.push_back(b == top ? std::to_string(s.metrics[v.metric].hist_max + 1) + "+" : std::to_string(b));
  return v;
}

// A metric that was 0 in every engagement: listed by name, not tabled.
bool always_zero(const Summary& s, std::size_t m) { return s.n > 0 && s.metrics[m].max == 0 && s.metrics[m].min == 0; }

std::string zero_list(const Schema& sc, const Summary& s) {
  std::string z;
  for (std::size_t m = 0; m < sc.metrics.size(); ++m)
    if (always_zero(s, m)) z += (z.empty() ? "" : "; ") + sc.metrics[m].label;
  return z;
}

// A funnel whose first stage never happened (the side never charged).
bool empty_funnel(const Summary& s, std::size_t fi) { return s.funnels[fi].empty() || s.funnels[fi][0].total == 0; }


}  // namespace

// --------------------------------------------------------------- Markdown

std::string sim_headline(const Summary& s) {
  const Schema& sc = *s.schema;
  std::string o;
  for (std::size_t k = 0; k < sc.outcomes(); ++k)
    o += (k ? ", " : "") + sc.outcome_labels[k] + " " + parts::prop_text(s.outcomes[k]);  // 0 in N: its Wilson upper bound
  for (std::size_t m = 0; m < sc.metrics.size(); ++m)
    if (sc.metrics[m].id == "turns" && s.metrics[m].all.n > 0) o += "; " + number(s.metrics[m].all.mean, 1) + " turns on average";
  return o + " (" + thousands(s.n) + " engagements).";
}

std::string sim_markdown(const RunInfo& info, const Summary& s, const std::string& report_path) {
  const Schema& sc = *s.schema;
  std::string o = "# vedette sim: " + info.scenario + "\n\n";
  o += "**" + sim_headline(s) + "**\n\n";
  if (!info.scenario_description.empty()) o += info.scenario_description + "\n\n";
  o += parts::run_markdown(info);

  o += "\n## Who wins\n\n| outcome | probability [95% interval] | engagements |\n| --- | --- | --- |\n";
  for (std::size_t k = 0; k < sc.outcomes(); ++k)
    o += "| " + md_escape(sc.outcome_labels[k]) + " | " + prop_text(s.outcomes[k]) + " | " + thousands(s.outcomes[k].count) + " of " +
         thousands(s.outcomes[k].n) + " |\n";

  o += "\n## Per engagement (mean ± standard error)\n\n| figure | all | ";
  for (std::size_t k = 0; k < sc.outcomes(); ++k)
    if (s.outcomes[k].count > 0) o += "when " + md_escape(sc.outcome_labels[k]) + " | ";
  o += "min-max | P(> 0) |\n| --- | --- |";
  for (std::size_t k = 0; k < sc.outcomes(); ++k)
    if (s.outcomes[k].count > 0) o += " --- |";
  o += " --- | --- |\n";
  for (std::size_t m = 0; m < sc.metrics.size(); ++m) {
    if (always_zero(s, m)) continue;
    const auto& f = s.metrics[m];
    o += "| " + md_escape(sc.metrics[m].label) + " | " + mean_text(f.all) + " | ";
    for (std::size_t k = 0; k < sc.outcomes(); ++k)
      if (s.outcomes[k].count > 0) o += mean_text(f.by_outcome[k]) + " | ";
    o += (s.n ? std::to_string(f.min) + "-" + std::to_string(f.max) : std::string("n/a")) + " | " + prop_text(f.nonzero) + " |\n";
  }
  o += "\nThe \"when\" columns split each figure by the outcome (n = that outcome's engagements).\n";
  if (const std::string z = zero_list(sc, s); !z.empty()) o += "Always 0: " + md_escape(z) + ".\n";

  if (!sc.funnels.empty()) {
    for (std::size_t fi = 0; fi < sc.funnels.size(); ++fi) {
      if (empty_funnel(s, fi)) continue;
      const Funnel& f = sc.funnels[fi];
      o += "\n## " + f.label + "\n\n| stage | total | per engagement | share of the stage it is a part of [95%] | engagements with one |\n| --- | --- | --- | --- | --- |\n";
      for (std::size_t st = 0; st < f.stages.size(); ++st) {
        const auto& g = s.funnels[fi][st];
        const auto& stage = f.stages[st];
        std::string share = stage.parent < 0 ? "" : prop_text(g.of_parent) + " of " + thousands(g.of_parent.n) + " " +
                                                       f.stages[static_cast<std::size_t>(stage.parent)].label;
        o += "| " + md_escape(stage.label) + " | " + thousands(g.total) + " | " + mean_text(g.per_engagement, 3) + " | " + share + " | " +
             thousands(g.engagements) + " |\n";
      }
    }
  }

  if (!sc.rates.empty()) {
    o += "\n## Rates\n\n| rate | share [95%] | of | in engagements |\n| --- | --- | --- | --- |\n";
    for (std::size_t r = 0; r < sc.rates.size(); ++r)
      o += "| " + md_escape(sc.rates[r].label) + " | " + prop_text(s.rates[r].p) + " | " + thousands(s.rates[r].p.n) + " | " +
           thousands(s.rates[r].engagements) + " |\n";
  }

  if (sc.bands() > 0) {
    o += "\n## Actions Table decisions by RF band\n\n| band | behaviour | share of the band's decisions [95%] | decisions |\n| --- | --- | --- | --- |\n";
    for (std::size_t b = 0; b < sc.bands(); ++b) {
      if (s.band_decisions[b] == 0) {
        o += "| " + md_escape(sc.band_labels[b]) + " | (no decisions) | | 0 |\n";
        continue;
      }
      bool first = true;
      for (std::size_t h = 0; h < sc.behaviours(); ++h) {
        const auto& p = s.behaviour[b][h];
        if (p.count == 0) continue;
        o += "| " + (first ? md_escape(sc.band_labels[b]) + " (" + thousands(s.band_decisions[b]) + " decisions in " +
                                 thousands(s.band_engagements[b]) + " engagements)"
                           : std::string()) +
             " | " + md_escape(sc.behaviour_labels[h]) + " | " + prop_text(p) + " | " + thousands(p.count) + " |\n";
        first = false;
      }
    }
  }
  if (!report_path.empty()) o += "\nReport: " + report_path + "\n";
  return o;
}

// ------------------------------------------------------------------- JSON

OJson sim_json(const RunInfo& info, const Summary& s, const Tally& t) {
  const Schema& sc = *s.schema;
  OJson j;
  j["vedette"] = "sim";
  j["format"] = 1;
  put_all(j, parts::run_json(info));
  j["outcomes"] = OJson::array();
  for (std::size_t k = 0; k < sc.outcomes(); ++k) {
    OJson o{{"id", sc.outcome_ids[k]}, {"label", sc.outcome_labels[k]}};
    put_all(o, json_proportion(s.outcomes[k]));
    j["outcomes"].push_back(o);
  }
  j["metrics"] = OJson::array();
  for (std::size_t m = 0; m < sc.metrics.size(); ++m) {
    const auto& f = s.metrics[m];
    OJson o{{"id", sc.metrics[m].id}, {"label", sc.metrics[m].label}, {"kind", kind_name(sc.metrics[m].kind)}, {"total", f.total}};
    o["mean"] = json_mean(f.all);
    o["min"] = s.n ? OJson(f.min) : OJson(nullptr);
    o["max"] = s.n ? OJson(f.max) : OJson(nullptr);
    o["nonzero"] = json_proportion(f.nonzero);
    OJson by = OJson::object();
    for (std::size_t k = 0; k < sc.outcomes(); ++k) by[sc.outcome_ids[k]] = json_mean(f.by_outcome[k]);
    o["by_outcome"] = by;
    j["metrics"].push_back(o);
  }
  j["histograms"] = OJson::array();
  for (std::size_t h = 0; h < t.hist.size(); ++h) {
    const std::size_t m = t.hist_metric[h];
    OJson o{{"metric", sc.metrics[m].id}, {"label", sc.metrics[m].label}, {"last_bin_holds_more", true}};
    OJson bins = OJson::array();
    const I64Mat& H = t.hist[h];
    for (Eigen::Index b = 0; b < H.cols(); ++b) {
      std::int64_t total = 0;
      OJson by = OJson::object();
      for (std::size_t k = 0; k < sc.outcomes(); ++k) {
        by[sc.outcome_ids[k]] = H(static_cast<Eigen::Index>(k), b);
        total += H(static_cast<Eigen::Index>(k), b);
      }
      OJson bin{{"value", b}, {"more", b == H.cols() - 1}, {"count", total}, {"by_outcome", by}};
      bin["share"] = json_proportion(wilson(total, t.n));
      bins.push_back(bin);
    }
    o["bins"] = bins;
    j["histograms"].push_back(o);
  }
  OJson bands = OJson::array();
  for (std::size_t b = 0; b < sc.bands(); ++b) {
    OJson o{{"id", sc.band_ids[b]}, {"label", sc.band_labels[b]}, {"decisions", s.band_decisions[b]}, {"engagements", s.band_engagements[b]}};
    OJson beh = OJson::array();
    for (std::size_t h = 0; h < sc.behaviours(); ++h) {
      OJson x{{"id", sc.behaviour_ids[h]}, {"label", sc.behaviour_labels[h]}};
      put_all(x, json_proportion(s.behaviour[b][h]));
      beh.push_back(x);
    }
    o["behaviours"] = beh;
    bands.push_back(o);
  }
  j["behaviour_by_band"] = bands;
  j["funnels"] = OJson::array();
  for (std::size_t fi = 0; fi < sc.funnels.size(); ++fi) {
    const Funnel& f = sc.funnels[fi];
    OJson stages = OJson::array();
    for (std::size_t st = 0; st < f.stages.size(); ++st) {
      const auto& g = s.funnels[fi][st];
      const auto& stage = f.stages[st];
      OJson x{{"id", stage.id}, {"label", stage.label}, {"metric", sc.metrics[stage.metric].id}, {"total", g.total}};
      x["per_engagement"] = json_mean(g.per_engagement);
      x["engagements"] = g.engagements;
      x["parent"] = stage.parent < 0 ? OJson(nullptr) : OJson(f.stages[static_cast<std::size_t>(stage.parent)].id);
      x["share_of_parent"] = stage.parent < 0 ? OJson(nullptr) : json_proportion(g.of_parent);
      stages.push_back(x);
    }
    j["funnels"].push_back(OJson{{"id", f.id}, {"label", f.label}, {"stages", stages}});
  }
  j["rates"] = OJson::array();
  for (std::size_t r = 0; r < sc.rates.size(); ++r) {
    OJson x{{"id", sc.rates[r].id}, {"label", sc.rates[r].label}, {"numerator", sc.metrics[sc.rates[r].num].id},
            {"denominator", sc.metrics[sc.rates[r].den].id}};
    put_all(x, json_proportion(s.rates[r].p));
    x["engagements"] = s.rates[r].engagements;
    j["rates"].push_back(x);
  }
  OJson ids = OJson::array();
  for (std::size_t k = 0; k < sc.outcomes(); ++k) ids.push_back("won_" + sc.outcome_ids[k]);
  for (const auto& m : sc.metrics) ids.push_back(m.id);
  auto matrix = [&](const Eigen::MatrixXd& M) {
    OJson a = OJson::array();
    for (Eigen::Index i = 0; i < M.rows(); ++i) {
      OJson r = OJson::array();
      for (Eigen::Index c = 0; c < M.cols(); ++c) r.push_back(json_number(M(i, c)));
      a.push_back(r);
    }
    return a;
  };
  j["covariance"] = {{"ids", ids}, {"matrix", matrix(s.covariance)}};
  j["correlation"] = {{"ids", ids}, {"matrix", matrix(s.correlation)}};
  return j;
}

// ------------------------------------------------------------------- HTML

namespace {

std::string html_who_wins(const Summary& s) {
  const Schema& sc = *s.schema;
  std::vector<svg::Bar> bars;
  for (std::size_t k = 0; k < sc.outcomes(); ++k)
    bars.push_back({sc.outcome_labels[k], s.outcomes[k].p, s.outcomes[k].lo, s.outcomes[k].hi, parts::outcome_colour(sc, k),
                    prop_text(s.outcomes[k]) + " (" + thousands(s.outcomes[k].count) + " of " + thousands(s.outcomes[k].n) + ")"});
  return "<h2>Who wins</h2>\n" + svg::interval_bars("chart-outcomes", "Outcome probabilities with 95% intervals", bars,
                                                     parts::role_legend(parts::role_names({&sc}), "draw"));
}

// Histograms: turns, then losses.
std::string html_histograms(const Summary& s, const Tally& t) {
  const Schema& sc = *s.schema;
  auto series_for = [&](std::size_t h, const HistView& v) {
    std::vector<svg::Series> series;
    for (std::size_t k = 0; k < sc.outcomes(); ++k) {
      svg::Series se{sc.outcome_labels[k], parts::outcome_colour(sc, k), {}, {}, {}};
      for (Eigen::Index b = v.first; b <= v.last; ++b) se.values.push_back(static_cast<double>(t.hist[h](static_cast<Eigen::Index>(k), b)));
      series.push_back(se);
    }
    return series;
  };
  std::string turns_html, losses_html;
  for (std::size_t h = 0; h < t.hist.size(); ++h) {
    HistView v = hist_view(sc, t, h);
    const MetricDef& md = sc.metrics[v.metric];
    if (md.kind == MetricKind::turns)
      turns_html += svg::stacked_histogram("chart-turns", md.label + " per engagement, by outcome", v.labels, series_for(h, v), md.label);
    else if (md.kind == MetricKind::losses)
      losses_html += svg::stacked_histogram("chart-losses-" + md.id, md.label + " per engagement, by outcome", v.labels, series_for(h, v), md.label);
    else
      losses_html += svg::stacked_histogram("chart-hist-" + md.id, md.label + " per engagement, by outcome", v.labels, series_for(h, v), md.label);
  }
  std::string o;
  if (!turns_html.empty()) o += "<h2>How long</h2>\n" + turns_html;
  if (!losses_html.empty()) o += "<h2>Losses</h2>\n" + losses_html;
  return o;
}

// The figures per engagement: overall, by outcome, range and P(> 0).
std::string html_figures(const Summary& s) {
  const Schema& sc = *s.schema;
  std::string o = "<h2>Per engagement</h2>\n<div class=\"scroll\"><table>\n<tr><th>figure</th><th>mean ± SE</th><th>95% interval</th>";
  // An outcome no engagement ended in would give an empty column: left out.
  for (std::size_t k = 0; k < sc.outcomes(); ++k)
    if (s.outcomes[k].count > 0) o += "<th>when " + html_escape(sc.outcome_labels[k]) + "</th>";
  o += "<th>min-max</th><th>P(&gt; 0)</th></tr>\n";
  for (std::size_t m = 0; m < sc.metrics.size(); ++m) {
    if (always_zero(s, m)) continue;
    const auto& f = s.metrics[m];
    o += "<tr><td>" + html_escape(sc.metrics[m].label) + "</td><td>" + html_escape(mean_text(f.all)) + "</td><td>" + number(f.all.lo) + " to " +
         number(f.all.hi) + "</td>";
    for (std::size_t k = 0; k < sc.outcomes(); ++k)
      if (s.outcomes[k].count > 0) o += "<td>" + html_escape(mean_text(f.by_outcome[k])) + " <span class=\"note\">(n " + thousands(f.by_outcome[k].n) + ")</span></td>";
    o += "<td>" + (s.n ? std::to_string(f.min) + "-" + std::to_string(f.max) : std::string("n/a")) + "</td><td>" + html_escape(prop_text(f.nonzero)) +
         "</td></tr>\n";
  }
  o += "</table></div>\n";
  if (const std::string z = zero_list(sc, s); !z.empty()) o += "<p class=\"note\">Always 0: " + html_escape(z) + ".</p>\n";
  return o;
}

// The Actions Table's behaviour by RF band: a heat map and its table.
std::string html_behaviour_by_band(const Summary& s) {
  const Schema& sc = *s.schema;
  if (sc.bands() == 0) return "";
  std::vector<std::vector<double>> share(sc.bands(), std::vector<double>(sc.behaviours(), k_nan));
  std::vector<std::vector<std::int64_t>> counts(sc.bands(), std::vector<std::int64_t>(sc.behaviours(), 0));
  std::vector<std::string> notes;
  for (std::size_t b = 0; b < sc.bands(); ++b) {
    for (std::size_t h = 0; h < sc.behaviours(); ++h) {
      share[b][h] = s.band_decisions[b] ? s.behaviour[b][h].p : k_nan;
      counts[b][h] = s.behaviour[b][h].count;
    }
    notes.push_back(thousands(s.band_decisions[b]) + " decisions");
  }
  std::string o = "<h2>Actions Table: behaviour by RF band</h2>\n" +
                  svg::heatmap("chart-behaviour", "Share of each band's decisions", sc.band_labels, sc.behaviour_labels, share, counts, notes);
  o += "<div class=\"scroll\"><table>\n<tr><th>band</th><th>behaviour</th><th>share [95%]</th><th>decisions</th></tr>\n";
  for (std::size_t b = 0; b < sc.bands(); ++b)
    for (std::size_t h = 0; h < sc.behaviours(); ++h)
      if (s.behaviour[b][h].count > 0)
        o += "<tr><td>" + html_escape(sc.band_labels[b]) + "</td><td>" + html_escape(sc.behaviour_labels[h]) + "</td><td>" +
             html_escape(prop_text(s.behaviour[b][h])) + "</td><td>" + thousands(s.behaviour[b][h].count) + " of " +
             thousands(s.band_decisions[b]) + "</td></tr>\n";
  o += "</table></div>\n";
  return o;
}

std::string html_funnels(const Summary& s) {
  const Schema& sc = *s.schema;
  std::string o;
  bool first_funnel = true;
  for (std::size_t fi = 0; fi < sc.funnels.size(); ++fi) {
    if (empty_funnel(s, fi)) continue;
    const Funnel& f = sc.funnels[fi];
    std::vector<svg::Stage> stages;
    for (std::size_t st = 0; st < f.stages.size(); ++st) {
      const auto& g = s.funnels[fi][st];
      int depth = 0;
      for (int p = f.stages[st].parent; p >= 0; p = f.stages[static_cast<std::size_t>(p)].parent) ++depth;
      std::string note = f.stages[st].parent < 0 ? "" : prop_text(g.of_parent) + " of " + f.stages[static_cast<std::size_t>(f.stages[st].parent)].label;
      stages.push_back({f.stages[st].label, static_cast<double>(g.total), note, depth});
    }
    o += "<h2>" + html_escape(f.label) + "</h2>\n" + svg::funnel(first_funnel ? std::string("chart-funnel") : "chart-funnel-" + f.id, f.label + ": totals over all engagements", stages,
                             parts::outcome_colour(sc, fi < sc.side_roles.size() ? fi : sc.outcomes()));
    first_funnel = false;
  }
  return o;
}

std::string html_rates(const Summary& s) {
  const Schema& sc = *s.schema;
  if (sc.rates.empty()) return "";
  std::string o = "<h2>Rates</h2>\n<div class=\"scroll\"><table>\n<tr><th>rate</th><th>share [95%]</th><th>of</th><th>in engagements</th></tr>\n";
  for (std::size_t r = 0; r < sc.rates.size(); ++r)
    o += "<tr><td>" + html_escape(sc.rates[r].label) + "</td><td>" + html_escape(prop_text(s.rates[r].p)) + "</td><td>" +
         thousands(s.rates[r].p.n) + "</td><td>" + thousands(s.rates[r].engagements) + "</td></tr>\n";
  o += "</table></div>\n";
  return o;
}

// Correlations of the outcome vector: the strongest pairs, in words (the
// whole matrix, by id, is in summary.json).
std::string html_correlations(const Summary& s) {
  const Schema& sc = *s.schema;
  std::vector<std::string> names;
  std::vector<Eigen::Index> dims;
  for (std::size_t i = 0; i < sc.dims(); ++i) {
    const auto e = static_cast<Eigen::Index>(i);
    if (!(s.covariance(e, e) > 0)) continue;
    names.push_back(i < sc.outcomes() ? sc.outcome_labels[i] : sc.metrics[i - sc.outcomes()].label);
    dims.push_back(e);
  }
  struct Pair {
    std::size_t a, b;
    double r;
  };
  std::vector<Pair> pairs;
  for (std::size_t i = 0; i < dims.size(); ++i)
    for (std::size_t c = i + 1; c < dims.size(); ++c) {
      const double r = s.correlation(dims[i], dims[c]);
      if (std::isfinite(r) && std::fabs(r) >= 0.3) pairs.push_back({i, c, r});
    }
  std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) { return std::fabs(x.r) > std::fabs(y.r); });
  std::string o = "<h2>Correlations</h2>\n<p class=\"note\">Figures that rise and fall together over the engagements (Pearson's r, at least 0.3 either "
                  "way; the strongest " + std::to_string(std::min<std::size_t>(pairs.size(), 25)) + " of " + std::to_string(pairs.size()) +
                  "). Every pair is in summary.json.</p>\n";
  if (!pairs.empty()) {
    o += "<div class=\"scroll\"><table>\n<tr><th>figure</th><th>and figure</th><th>r</th></tr>\n";
    for (std::size_t i = 0; i < std::min<std::size_t>(pairs.size(), 25); ++i)
      o += "<tr><td>" + html_escape(names[pairs[i].a]) + "</td><td>" + html_escape(names[pairs[i].b]) + "</td><td>" +
           parts::signed_number(pairs[i].r, 2) + "</td></tr>\n";
    o += "</table></div>\n";
  }
  return o;
}

}  // namespace

std::string sim_html(const RunInfo& info, const Summary& s, const Tally& t) {
  std::string o = parts::html_open("vedette sim: " + info.scenario);
  o += "<h1>vedette sim: " + html_escape(info.scenario) + "</h1>\n<p class=\"headline\">" + html_escape(sim_headline(s)) + "</p>\n" +
       parts::html_run(info);
  o += html_who_wins(s);
  o += html_histograms(s, t);
  o += html_figures(s);
  o += html_behaviour_by_band(s);
  o += html_funnels(s);
  o += html_rates(s);
  o += html_correlations(s);
  return parts::stack_tables(o + parts::html_close());
}

}  // namespace vedette::lab
