// `vedette compare` reports: one scenario, or several side by side.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sims/report/report.hpp"
#include "sims/report/report_parts.hpp"
#include "sims/report/svg.hpp"

namespace vedette::lab {

using parts::base_text;
using parts::both_zero;
using parts::diff_text;
using parts::md_escape;
using parts::mean_text;
using parts::p_text;
using parts::prop_text;
using parts::signed_number;
using parts::thousands;
using parts::variant_text;
using parts::zero_list;


namespace {

// The figures a chart of differences draws: probabilities in percentage
// points, means as % of the baseline mean.
void difference_bars(const Comparison& c, const std::string& prefix, std::vector<svg::Bar>& probs, std::vector<svg::Bar>& means) {
  for (const auto& r : c.rows) {
    if (!r.probability && r.differ == 0) continue;  // nothing to draw
    const std::string col = r.real ? svg::colour(0) : "";
    if (r.probability) {
      probs.push_back({prefix + r.label, r.diff.mean * 100, r.diff.lo * 100, r.diff.hi * 100, col, diff_text(r) + (r.real ? "  real" : "")});
    } else {
      // Relative to the baseline's mean, so figures of any size share an axis.
      const double base = r.m_base.mean;
      if (!(std::isfinite(base) && base != 0)) continue;
      means.push_back({prefix + r.label, 100 * r.diff.mean / base, 100 * r.diff.lo / base, 100 * r.diff.hi / base, col,
                       signed_number(100 * r.diff.mean / base, 1) + "%" + (r.real ? "  real" : "")});
    }
  }
}

std::string table_markdown(const Comparison& c, std::size_t& real, std::size_t& tested) {
  std::string o = "| figure | baseline | variant | difference (variant - baseline) [95%] | p | real? |\n| --- | --- | --- | --- | --- | --- |\n";
  for (const auto& r : c.rows) {
    tested += r.differ > 0;
    if (both_zero(r)) continue;
    o += "| " + md_escape(r.label) + " | " + base_text(r) + " | " + variant_text(r) + " | " + diff_text(r) + " | " + p_text(r.diff.p_value) + " | " +
         (r.real ? "**yes**" : "no") + " |\n";
    real += r.real;
  }
  return o;
}

std::string table_html(const Comparison& c) {
  std::string o = "<div class=\"scroll\"><table>\n<tr><th>figure</th><th>baseline</th><th>variant</th><th>difference [95%]</th><th>p</th><th>Holm p</th>"
                  "<th>real?</th><th>engagements that differ</th></tr>\n";
  for (const auto& r : c.rows)
    if (!both_zero(r))
      o += "<tr><td>" + html_escape(r.label) + "</td><td>" + html_escape(base_text(r)) + "</td><td>" + html_escape(variant_text(r)) + "</td><td>" +
           html_escape(diff_text(r)) + "</td><td>" + html_escape(p_text(r.diff.p_value)) + "</td><td>" + html_escape(p_text(r.p_holm)) + "</td><td" +
           (r.real ? " class=\"real\">yes" : ">no") + "</td><td>" + thousands(r.differ) + "</td></tr>\n";
  o += "</table></div>\n";
  if (const std::string z = zero_list(c); !z.empty()) o += "<p class=\"note\">Always 0 in both: " + html_escape(z) + ".</p>\n";
  return o;
}

std::string outcome_chart(const std::string& id, const Comparison& c) {
  const Schema& sc = *c.base.schema;
  std::vector<svg::Bar> bars;
  for (std::size_t k = 0; k < sc.outcomes(); ++k) {
    bars.push_back({sc.outcome_labels[k] + " (baseline)", c.base.outcomes[k].p, c.base.outcomes[k].lo, c.base.outcomes[k].hi, svg::colour(k),
                    prop_text(c.base.outcomes[k])});
    bars.push_back({sc.outcome_labels[k] + " (variant)", c.var.outcomes[k].p, c.var.outcomes[k].lo, c.var.outcomes[k].hi, svg::colour(k),
                    prop_text(c.var.outcomes[k])});
  }
  return svg::interval_bars(id, "Outcome probabilities, baseline and variant", bars);
}

// The probability row that moved most (real first), or null.
const CompareRow* biggest_move(const Comparison& c) {
  const CompareRow* best = nullptr;
  for (const auto& r : c.rows) {
    if (!r.probability || r.diff.n == 0 || !std::isfinite(r.diff.mean)) continue;
    if (!best || (r.real && !best->real) || (r.real == best->real && std::fabs(r.diff.mean) > std::fabs(best->diff.mean))) best = &r;
  }
  return best;
}

std::string pp(double v) { return signed_number(v * 100, 1) + " pp"; }

std::string rule_name(const Comparison& c) { return c.variant; }

}  // namespace

// ---------------------------------------------------------------- compare

std::string compare_headline(const RunInfo& info, const Comparison& c) {
  std::size_t real = 0, moved = 0;
  for (const auto& r : c.rows) {
    real += r.real;
    moved += r.differ > 0;
  }
  if (moved == 0) return "In " + info.scenario + " the rule changes nothing: every engagement plays out the same under both rulesets.";
  const CompareRow* b = biggest_move(c);
  if (!b || !b->real) {
    std::string o = "No real difference in " + info.scenario + ": ";
    if (b) o += "the largest, " + b->label + " " + pp(b->diff.mean) + " [" + number(b->diff.lo * 100, 1) + ", " + number(b->diff.hi * 100, 1) + "], is within chance.";
    else o += "every change is within chance.";
    return o;
  }
  return "In " + info.scenario + ", " + b->label + " moves " + pp(b->diff.mean) + " [" + number(b->diff.lo * 100, 1) + ", " + number(b->diff.hi * 100, 1) +
         "] (" + percent(b->p_base.p) + " -> " + percent(b->p_variant.p) + "); " + std::to_string(real) + " of " + std::to_string(moved) +
         " figures that differ move really.";
}

std::string compare_markdown(const RunInfo& info, const Comparison& c, const std::string& report_path) {
  std::string o = "# vedette compare: " + info.scenario + "\n\n";
  o += "**" + compare_headline(info, c) + "**\n\n";
  o += "Baseline **" + c.baseline + "** against variant **" + c.variant + "**, on common random numbers: engagement i of both plays on the same dice streams (seed " +
       std::to_string(info.seed) + ").\n\n";
  o += parts::run_markdown(info);
  if (c.rule) o += "\n" + rule_diff_markdown(*c.rule) + "## What it does\n";
  o += "\n";
  std::size_t real = 0, tested = 0;
  o += table_markdown(c, real, tested);
  o += "\nProbabilities: Wilson 95% intervals; means: ± standard error. Differences are paired, engagement by engagement, with a 95% t interval "
       "and a two-sided p-value; \"real\" means p < 0.05 after Holm's correction over the " +
       std::to_string(tested) + " figures that differ in at least one engagement (" + std::to_string(real) + " real).\n";
  if (const std::string z = zero_list(c); !z.empty()) o += "Always 0 in both: " + md_escape(z) + ".\n";
  if (!report_path.empty()) o += "\nReport: " + report_path + "\n";
  return o;
}

namespace {

OJson figures_json(const Comparison& c) {
  OJson a = OJson::array();
  for (const auto& r : c.rows) {
    OJson x{{"id", r.id}, {"label", r.label}, {"kind", r.probability ? "probability" : "mean"}};
    x["baseline"] = r.probability ? json_proportion(r.p_base) : json_mean(r.m_base);
    x["variant"] = r.probability ? json_proportion(r.p_variant) : json_mean(r.m_variant);
    x["difference"] = {{"mean", json_number(r.diff.mean)}, {"se", json_number(r.diff.se)},   {"lo", json_number(r.diff.lo)},
                       {"hi", json_number(r.diff.hi)},     {"p_value", json_number(r.diff.p_value)}, {"p_holm", json_number(r.p_holm)},
                       {"real", r.real},                   {"n", r.diff.n},                  {"engagements_that_differ", r.differ}};
    a.push_back(x);
  }
  return a;
}

constexpr const char* k_test = "paired differences (common random numbers), 95% t interval, two-sided t test; real = Holm-adjusted p < 0.05";

}  // namespace

OJson compare_json(const RunInfo& info, const Comparison& c) {
  OJson j;
  j["vedette"] = "compare";
  j["format"] = 1;
  j["headline"] = compare_headline(info, c);
  put_all(j, parts::run_json(info));
  j["baseline"] = c.baseline;
  j["variant"] = c.variant;
  j["rule"] = c.rule ? rule_diff_json(*c.rule) : OJson(nullptr);
  j["test"] = k_test;
  j["figures"] = figures_json(c);
  return j;
}

std::string compare_html(const RunInfo& info, const Comparison& c) {
  std::string o = parts::html_open("vedette compare: " + info.scenario);
  o += "<h1>vedette compare: " + html_escape(info.scenario) + "</h1>\n";
  o += "<p class=\"headline\">" + html_escape(compare_headline(info, c)) + "</p>\n";
  o += "<p>Baseline <b>" + html_escape(c.baseline) + "</b> against variant <b>" + html_escape(c.variant) +
       "</b>, on common random numbers (engagement i of both plays on the same dice).</p>\n" + parts::html_run(info);
  if (c.rule) o += rule_diff_html(*c.rule);
  o += "<h2>Who wins</h2>\n" + outcome_chart("chart-outcomes", c);
  std::vector<svg::Bar> probs, means;
  difference_bars(c, "", probs, means);
  o += "<h2>Differences</h2>\n" + svg::forest("chart-diff-outcomes", "Outcome probabilities: variant - baseline (percentage points)", probs, " pp");
  if (!means.empty()) o += svg::forest("chart-diff-metrics", "Means: variant - baseline, as % of the baseline mean", means, "%");
  o += "<p class=\"note\">Coloured: a real difference (Holm-adjusted p &lt; 0.05). Grey: within what chance gives. An interval that runs past "
       "the axis (a difference within chance, far from the real ones) ends in an arrow.</p>\n";
  o += table_html(c);
  return o + parts::html_close();
}

// ------------------------------------------------------- several scenarios

std::vector<SideBySideRow> side_by_side(const std::vector<Comparison>& cs) {
  std::vector<SideBySideRow> rows;
  for (std::size_t k = 0; k < cs.size(); ++k)
    for (const auto& r : cs[k].rows) {
      auto it = std::find_if(rows.begin(), rows.end(), [&](const SideBySideRow& x) { return x.id == r.id && x.probability == r.probability; });
      if (it == rows.end()) {
        rows.push_back({r.id, r.label, r.probability, std::vector<const CompareRow*>(cs.size(), nullptr), false});
        it = rows.end() - 1;
      }
      it->cells[k] = &r;
    }
  for (auto& row : rows) {
    bool up = false, down = false;
    for (const auto* c : row.cells)
      if (c && c->real) (c->diff.mean > 0 ? up : down) = true;
    row.sign_flip = up && down;
  }
  // Figures zero in every engagement of every scenario say nothing.
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [](const SideBySideRow& x) {
                              return std::all_of(x.cells.begin(), x.cells.end(), [](const CompareRow* c) { return !c || both_zero(*c); });
                            }),
             rows.end());
  return rows;
}

std::string compare_many_headline(const std::vector<RunInfo>& infos, const std::vector<Comparison>& cs) {
  const auto rows = side_by_side(cs);
  // The probability that moved most in any scenario (real moves first).
  const SideBySideRow* best = nullptr;
  double best_size = -1;
  bool best_real = false;
  for (const auto& row : rows) {
    if (!row.probability) continue;
    for (const auto* c : row.cells) {
      if (!c || c->diff.n == 0 || !std::isfinite(c->diff.mean)) continue;
      const double size = std::fabs(c->diff.mean);
      // A sign flip is the news: a flipping figure comes first.
      const bool flip = row.sign_flip, best_flip = best && best->sign_flip;
      if ((flip && !best_flip) || (flip == best_flip && ((c->real && !best_real) || (c->real == best_real && size > best_size)))) {
        best = &row;
        best_size = size;
        best_real = c->real;
      }
    }
  }
  std::size_t flips = 0;
  for (const auto& row : rows) flips += row.sign_flip;
  const std::string n = std::to_string(cs.size());
  if (!best || !best_real) return "No real difference in any of the " + n + " scenarios.";
  std::string o = best->label + ":";
  for (std::size_t k = 0; k < cs.size(); ++k) {
    const CompareRow* c = best->cells[k];
    o += (k ? ", " : " ") + (c ? pp(c->diff.mean) + (c->real ? "" : " (chance)") : std::string("n/a")) + " in " + infos[k].scenario;
  }
  o += best->sign_flip ? " - a sign flip: the rule helps in one scenario and hurts in another" : "";
  if (flips > (best->sign_flip ? 1u : 0u)) o += "; " + std::to_string(flips) + " figures flip sign in all";
  return o + ".";
}

namespace {

std::string cell_text(const CompareRow* c) {
  if (!c) return "-";
  if (both_zero(*c)) return "always 0";
  return diff_text(*c) + (c->real ? " real" : "");
}

}  // namespace

std::string compare_many_markdown(const std::vector<RunInfo>& infos, const std::vector<Comparison>& cs, const std::string& report_path) {
  const Comparison& c0 = cs.front();
  std::string o = "# vedette compare: " + rule_name(c0) + " over " + std::to_string(cs.size()) + " scenarios\n\n";
  o += "**" + compare_many_headline(infos, cs) + "**\n\n";
  o += "Baseline **" + c0.baseline + "** against variant **" + c0.variant + "**, on common random numbers in each scenario (seed " +
       std::to_string(infos.front().seed) + ", " + thousands(static_cast<std::int64_t>(infos.front().requested)) + " engagements each).\n";
  for (const auto& i : infos)
    if (i.partial()) o += "\n**PARTIAL**: stopped by " + i.stopped_by + " in " + i.scenario + "; later scenarios were not played.\n";
  if (c0.rule) o += "\n" + rule_diff_markdown(*c0.rule);
  const auto rows = side_by_side(cs);
  // The sign column only when a figure flips (an empty column says nothing).
  const bool flips = std::any_of(rows.begin(), rows.end(), [](const SideBySideRow& r) { return r.sign_flip; });
  o += "\n## Side by side: variant - baseline [95%]\n\n| figure |";
  for (const auto& i : infos) o += " " + md_escape(i.scenario) + " |";
  o += std::string(flips ? " sign |" : "") + "\n| --- |";
  for (std::size_t k = 0; k < cs.size(); ++k) o += " --- |";
  o += std::string(flips ? " --- |" : "") + "\n";
  for (const auto& row : rows) {
    o += "| " + md_escape(row.label) + " |";
    for (const auto* c : row.cells) o += " " + (c && c->real ? "**" + cell_text(c) + "**" : cell_text(c)) + " |";
    o += std::string(flips ? (row.sign_flip ? " **flip** |" : " |") : "") + "\n";
  }
  o += "\n\"real\": p < 0.05 after Holm's correction within the scenario. **flip**: the figure moves really up in one scenario and really down in another.\n";
  for (std::size_t k = 0; k < cs.size(); ++k) {
    o += "\n## " + infos[k].scenario + "\n\n**" + compare_headline(infos[k], cs[k]) + "**\n\n";
    o += parts::run_markdown(infos[k]);
    if (k > 0 && cs[k].rule) o += "\nThis scenario's ruleset is another base: here the rule is\n\n" + rule_diff_markdown(*cs[k].rule);
    o += "\n";
    std::size_t real = 0, tested = 0;
    o += table_markdown(cs[k], real, tested);
  }
  o += "\nProbabilities: Wilson 95% intervals; means: ± standard error. Differences are paired, engagement by engagement, with a 95% t interval "
       "and a two-sided p-value.\n";
  if (!report_path.empty()) o += "\nReport: " + report_path + "\n";
  return o;
}

OJson compare_many_json(const std::vector<RunInfo>& infos, const std::vector<Comparison>& cs) {
  OJson j;
  j["vedette"] = "compare";
  j["format"] = 1;
  j["headline"] = compare_many_headline(infos, cs);
  j["baseline"] = cs.front().baseline;
  j["variant"] = cs.front().variant;
  j["seed"] = infos.front().seed;
  j["requested"] = infos.front().requested;
  j["rule"] = cs.front().rule ? rule_diff_json(*cs.front().rule) : OJson(nullptr);
  j["test"] = k_test;
  j["scenarios"] = OJson::array();
  for (const auto& i : infos) j["scenarios"].push_back(i.scenario);
  j["side_by_side"] = OJson::array();
  for (const auto& row : side_by_side(cs)) {
    OJson x{{"id", row.id}, {"label", row.label}, {"kind", row.probability ? "probability" : "mean"}, {"sign_flip", row.sign_flip}};
    x["differences"] = OJson::array();
    for (std::size_t k = 0; k < cs.size(); ++k) {
      const CompareRow* c = row.cells[k];
      if (!c) {
        x["differences"].push_back(OJson{{"scenario", infos[k].scenario}, {"mean", nullptr}});
        continue;
      }
      x["differences"].push_back(OJson{{"scenario", infos[k].scenario}, {"mean", json_number(c->diff.mean)}, {"lo", json_number(c->diff.lo)},
                                       {"hi", json_number(c->diff.hi)}, {"p_holm", json_number(c->p_holm)}, {"real", c->real}});
    }
    j["side_by_side"].push_back(x);
  }
  j["comparisons"] = OJson::array();
  for (std::size_t k = 0; k < cs.size(); ++k) j["comparisons"].push_back(compare_json(infos[k], cs[k]));
  return j;
}

std::string compare_many_html(const std::vector<RunInfo>& infos, const std::vector<Comparison>& cs) {
  const Comparison& c0 = cs.front();
  const std::string title = "vedette compare: " + rule_name(c0) + " over " + std::to_string(cs.size()) + " scenarios";
  std::string o = parts::html_open(title);
  o += "<h1>" + html_escape(title) + "</h1>\n";
  o += "<p class=\"headline\">" + html_escape(compare_many_headline(infos, cs)) + "</p>\n";
  o += "<p>Baseline <b>" + html_escape(c0.baseline) + "</b> against variant <b>" + html_escape(c0.variant) + "</b>, on common random numbers in each "
       "scenario (seed " + std::to_string(infos.front().seed) + ", " + thousands(static_cast<std::int64_t>(infos.front().requested)) +
       " engagements each).</p>\n";
  for (const auto& i : infos)
    if (i.partial()) o += "<p class=\"partial\"><b>Partial</b>: stopped by " + html_escape(i.stopped_by) + " in " + html_escape(i.scenario) + ".</p>\n";
  if (c0.rule) o += rule_diff_html(*c0.rule);

  // Each outcome probability, one point per scenario, on one axis.
  const auto rows = side_by_side(cs);
  std::vector<svg::Bar> points;
  for (const auto& row : rows) {
    if (!row.probability) continue;
    for (std::size_t k = 0; k < cs.size(); ++k) {
      const CompareRow* c = row.cells[k];
      if (!c || c->diff.n == 0) continue;
      points.push_back({row.label + " · " + infos[k].scenario, c->diff.mean * 100, c->diff.lo * 100, c->diff.hi * 100, c->real ? svg::colour(k) : "",
                        diff_text(*c) + (c->real ? "  real" : "") + (row.sign_flip ? "  flip" : "")});
    }
  }
  o += "<h2>Side by side</h2>\n" + svg::forest("chart-diff-scenarios", "Outcome probabilities: variant - baseline, per scenario (percentage points)", points, " pp");
  const bool flips = std::any_of(rows.begin(), rows.end(), [](const SideBySideRow& r) { return r.sign_flip; });
  o += "<div class=\"scroll\"><table>\n<tr><th>figure</th>";
  for (const auto& i : infos) o += "<th>" + html_escape(i.scenario) + "</th>";
  o += std::string(flips ? "<th>sign</th>" : "") + "</tr>\n";
  for (const auto& row : rows) {
    o += "<tr><td>" + html_escape(row.label) + "</td>";
    for (const auto* c : row.cells) o += std::string(c && c->real ? "<td class=\"real\">" : "<td>") + html_escape(cell_text(c)) + "</td>";
    if (flips) o += row.sign_flip ? "<td class=\"flip\">flip</td>" : "<td>-</td>";
    o += "</tr>\n";
  }
  o += "</table></div>\n<p class=\"note\">Paired differences, variant - baseline, with 95% intervals. Real: Holm-adjusted p &lt; 0.05 within the "
       "scenario. Flip: the figure moves really up in one scenario and really down in another.</p>\n";

  for (std::size_t k = 0; k < cs.size(); ++k) {
    const std::string sid = std::to_string(k + 1);
    o += "<h2>" + html_escape(infos[k].scenario) + "</h2>\n<p class=\"headline\">" + html_escape(compare_headline(infos[k], cs[k])) + "</p>\n" +
         parts::html_run(infos[k]);
    if (k > 0 && cs[k].rule) o += rule_diff_html(*cs[k].rule);
    o += outcome_chart("chart-outcomes-" + sid, cs[k]);
    o += table_html(cs[k]);
  }
  return o + parts::html_close();
}

}  // namespace vedette::lab
