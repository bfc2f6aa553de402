// `vedette sweep` reports: one row and one point per value, the current
// value marked, and each value's paired difference against it.
#include <cmath>
#include <cstdio>

#include "sims/report/report.hpp"
#include "sims/report/report_parts.hpp"
#include "sims/report/svg.hpp"

namespace vedette::lab {

using parts::diff_text;
using parts::md_escape;
using parts::pp;
using parts::mean_text;
using parts::prop_text;
using parts::signed_number;
using parts::thousands;

namespace {

// The metrics a sweep table shows: turns and losses.
std::vector<std::size_t> sweep_metrics(const Schema& s) {
  std::vector<std::size_t> m;
  for (std::size_t i = 0; i < s.metrics.size(); ++i)
    if (s.metrics[i].kind != MetricKind::count) m.push_back(i);
  return m;
}

std::string value_label(const SweepPoint& p) { return p.current ? p.value + " (current)" : p.value; }

// The row of a point's comparison for figure `id` (outcome or metric).
const CompareRow* row_of(const SweepPoint& p, const std::string& id, bool probability) {
  if (!p.vs_current) return nullptr;
  for (const auto& r : p.vs_current->rows)
    if (r.id == id && r.probability == probability) return &r;
  return nullptr;
}

std::string diff_cell(const SweepPoint& p, const std::string& id, bool probability) {
  if (p.current) return "0 (reference)";
  const CompareRow* r = row_of(p, id, probability);
  if (!r) return "n/a";
  return diff_text(*r) + (r->real ? " real" : "");
}

}  // namespace

std::string sweep_headline(const Sweep& w) {
  if (w.points.empty()) return "Nothing was played.";
  // The largest real move of an outcome probability away from the current value.
  const CompareRow* best = nullptr;
  const SweepPoint* at = nullptr;
  for (const auto& p : w.points) {
    if (!p.vs_current) continue;
    for (const auto& r : p.vs_current->rows) {
      if (!r.probability || !std::isfinite(r.diff.mean)) continue;
      if (!best || (r.real && !best->real) || (r.real == best->real && std::fabs(r.diff.mean) > std::fabs(best->diff.mean))) {
        best = &r;
        at = &p;
      }
    }
  }
  const std::string from = w.path + " = " + w.current + " (current)";
  if (!best) return "Only the current value, " + from + ", was played.";
  if (!best->real) return "No value moves an outcome really from " + from + "; the largest change, " + best->label + " " + pp(best->diff.mean) + " at " + at->value + ", is within chance.";
  return "From " + from + " to " + at->value + ", " + best->label + " moves " + pp(best->diff.mean) + " [" + number(best->diff.lo * 100, 1) + ", " +
         number(best->diff.hi * 100, 1) + "] (" + percent(best->p_base.p) + " -> " + percent(best->p_variant.p) + "), the largest real move.";
}

std::string sweep_markdown(const RunInfo& info, const Sweep& w, const std::string& report_path) {
  std::string o = "# vedette sweep: " + info.scenario + "\n\n";
  o += "**" + sweep_headline(w) + "**\n\n";
  o += "`" + w.path + "` over " + std::to_string(w.points.size()) + " values (now " + w.current +
       "); every value plays the same engagements on the same dice (seed " + std::to_string(info.seed) + ", " +
       thousands(static_cast<std::int64_t>(info.requested)) + " each).\n\n";
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
    o += "| " + md_escape(value_label(p)) + " | " + thousands(p.summary.n) + " |";
    for (const auto& x : p.summary.outcomes) o += " " + prop_text(x) + " |";
    for (auto m : ms) o += " " + mean_text(p.summary.metrics[m].all) + " |";
    o += "\n";
  }
  o += "\nAgainst the current value (" + md_escape(w.current) + "), engagement by engagement:\n\n| value |";
  for (const auto& l : sc.outcome_labels) o += " P(" + md_escape(l) + ") [95%] |";
  o += "\n| --- |";
  for (std::size_t i = 0; i < sc.outcomes(); ++i) o += " --- |";
  o += "\n";
  for (const auto& p : w.points) {
    o += "| " + md_escape(value_label(p)) + " |";
    for (std::size_t k = 0; k < sc.outcomes(); ++k) o += " " + diff_cell(p, sc.outcome_ids[k], true) + " |";
    o += "\n";
  }
  o += "\nProbabilities: Wilson 95% intervals; means: ± standard error. Differences are paired (common random numbers) with 95% t intervals; "
       "\"real\": p < 0.05 after Holm's correction within each value's comparison.\n";
  if (!report_path.empty()) o += "\nReport: " + report_path + "\n";
  return o;
}

OJson sweep_json(const RunInfo& info, const Sweep& w) {
  OJson j;
  j["vedette"] = "sweep";
  j["format"] = 1;
  j["headline"] = sweep_headline(w);
  put_all(j, parts::run_json(info));
  j["path"] = w.path;
  j["current"] = w.current;
  j["points"] = OJson::array();
  for (const auto& p : w.points) {
    const Schema& sc = *p.summary.schema;
    OJson x{{"value", p.value}, {"current", p.current}, {"ruleset", p.ruleset}, {"engagements", p.summary.n}};
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
    // Paired differences against the current value (null for the current value).
    if (!p.vs_current) {
      x["vs_current"] = nullptr;
    } else {
      x["vs_current"] = OJson::array();
      for (const auto& r : p.vs_current->rows)
        x["vs_current"].push_back(OJson{{"id", r.id},
                                        {"kind", r.probability ? "probability" : "mean"},
                                        {"mean", json_number(r.diff.mean)},
                                        {"lo", json_number(r.diff.lo)},
                                        {"hi", json_number(r.diff.hi)},
                                        {"p_holm", json_number(r.p_holm)},
                                        {"real", r.real}});
    }
    j["points"].push_back(x);
  }
  return j;
}

std::string sweep_html(const RunInfo& info, const Sweep& w) {
  std::string o = parts::html_open("vedette sweep: " + info.scenario);
  o += "<h1>vedette sweep: " + html_escape(info.scenario) + "</h1>\n";
  o += "<p class=\"headline\">" + html_escape(sweep_headline(w)) + "</p>\n";
  o += "<p><code>" + html_escape(w.path) + "</code> over " + std::to_string(w.points.size()) + " values (now <b>" + html_escape(w.current) +
       "</b>); every value plays the same engagements on the same dice.</p>\n" + parts::html_run(info);
  if (w.points.empty()) return parts::stack_tables(o + parts::html_close());
  const Schema& sc = *w.points.front().summary.schema;
  std::vector<std::string> x;
  for (const auto& p : w.points) x.push_back(value_label(p));
  std::vector<svg::Series> series;
  for (std::size_t k = 0; k < sc.outcomes(); ++k) {
    svg::Series se{sc.outcome_labels[k], parts::outcome_colour(sc, k), {}, {}, {}};
    for (const auto& p : w.points) {
      se.values.push_back(p.summary.outcomes[k].p);
      se.lo.push_back(p.summary.outcomes[k].lo);
      se.hi.push_back(p.summary.outcomes[k].hi);
    }
    series.push_back(se);
  }
  o += "<h2>Outcome probabilities by value</h2>\n" +
       svg::lines("chart-sweep", "Outcome probabilities with 95% intervals", x, series, w.path, w.numeric);
  std::vector<svg::Bar> diffs;
  for (const auto& p : w.points)
    for (std::size_t k = 0; k < sc.outcomes(); ++k)
      if (const CompareRow* r = row_of(p, sc.outcome_ids[k], true); r && r->diff.n > 0)
        diffs.push_back({p.value + ": " + r->label, r->diff.mean * 100, r->diff.lo * 100, r->diff.hi * 100, r->real ? parts::outcome_colour(sc, k) : "",
                         diff_text(*r) + (r->real ? "  real" : "")});
  if (!diffs.empty())
    o += "<h2>Against the current value</h2>\n" +
         svg::forest("chart-sweep-diff", "Outcome probabilities: each value - the current value " + w.current + " (percentage points)", diffs, " pp",
                     parts::role_legend(parts::role_names({&sc}), "draw"));
  const auto ms = sweep_metrics(sc);
  // Two tables, not one of 2 + 3 x outcomes + metrics columns: eleven columns
  // do not fit 1280 px without scrolling (tests/browser/layout_check.mjs).
  o += "<h2>By value</h2>\n<div class=\"scroll\"><table>\n<tr><th>value</th><th>engagements</th>";
  for (const auto& l : sc.outcome_labels) o += "<th>" + html_escape(l) + " [95%]</th>";
  for (auto m : ms) o += "<th>" + html_escape(sc.metrics[m].label) + "</th>";
  o += "</tr>\n";
  for (const auto& p : w.points) {
    o += std::string(p.current ? "<tr class=\"current\">" : "<tr>") + "<td>" + html_escape(value_label(p)) + "</td><td>" + thousands(p.summary.n) + "</td>";
    for (const auto& y : p.summary.outcomes) o += "<td>" + html_escape(prop_text(y)) + "</td>";
    for (auto m : ms) o += "<td>" + html_escape(mean_text(p.summary.metrics[m].all)) + "</td>";
    o += "</tr>\n";
  }
  o += "</table></div>\n";
  o += "<h2>Each value against the current one (paired, pp [95%])</h2>\n<div class=\"scroll\"><table>\n<tr><th>value</th>";
  for (const auto& l : sc.outcome_labels) o += "<th>P(" + html_escape(l) + ") vs current</th>";
  o += "</tr>\n";
  for (const auto& p : w.points) {
    o += std::string(p.current ? "<tr class=\"current\">" : "<tr>") + "<td>" + html_escape(value_label(p)) + "</td>";
    for (std::size_t k = 0; k < sc.outcomes(); ++k) o += "<td>" + html_escape(diff_cell(p, sc.outcome_ids[k], true)) + "</td>";
    o += "</tr>\n";
  }
  o += "</table></div>\n";
  return parts::stack_tables(o + parts::html_close());
}

}  // namespace vedette::lab
