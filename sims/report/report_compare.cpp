// `vedette compare` reports: one scenario, or several side by side.
#include <algorithm>
#include <cctype>
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
using parts::pp;
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
    const std::string col = r.real ? svg::role_colour(r.role) : "";
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
    bars.push_back({sc.outcome_labels[k] + " (baseline)", c.base.outcomes[k].p, c.base.outcomes[k].lo, c.base.outcomes[k].hi,
                    parts::outcome_colour(sc, k), prop_text(c.base.outcomes[k])});
    bars.push_back({sc.outcome_labels[k] + " (variant)", c.var.outcomes[k].p, c.var.outcomes[k].lo, c.var.outcomes[k].hi,
                    parts::outcome_colour(sc, k), prop_text(c.var.outcomes[k])});
  }
  return svg::interval_bars(id, "Outcome probabilities, baseline and variant", bars, parts::role_legend(parts::role_names({&sc}), "draw"));
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
  const auto key = parts::role_legend(parts::role_names({c.base.schema}), "neither side (draws, turns)");
  o += "<h2>Differences</h2>\n" + svg::forest("chart-diff-outcomes", "Outcome probabilities: variant - baseline (percentage points)", probs, " pp", key);
  if (!means.empty()) o += svg::forest("chart-diff-metrics", "Means: variant - baseline, as % of the baseline mean", means, "%", key);
  o += "<p class=\"note\">Coloured by whose figure it is (blue the automated side, red the other side, ochre neither): a real difference "
       "(Holm-adjusted p &lt; 0.05). Grey: within what chance gives. An interval that runs past "
       "the axis (a difference within chance, far from the real ones) ends in an arrow.</p>\n";
  o += table_html(c);
  return parts::stack_tables(o + parts::html_close());
}

// ------------------------------------------------------- several scenarios

namespace {

std::string role_words(const std::string& role) { return role == "automated" ? "automated side" : "other side"; }

// The distinct side names of a row's cells ("Cavalry / Raiders").
std::string side_names(const SideBySideRow& row) {
  std::string names;
  for (const auto* c : row.cells) {
    if (!c || c->side.empty()) continue;
    std::string n = c->side;
    n[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(n[0])));
    if (("/ " + names + " /").find("/ " + n + " /") == std::string::npos) names += (names.empty() ? "" : " / ") + n;
  }
  return names;
}

// In what way the rule moves who wins in one scenario, a clause after "In
// SCENARIO": the side whose wins rise most really ("it helps the Cavalry
// (automated side), P(Cavalry wins) +3.6 pp [...]"), and the other side too
// when its wins also rise really; else the sides whose wins fall really
// ("it helps neither side win: the Cavalry wins less often, -2.0 pp"); else
// "no real change in who wins".
std::string helps_text(const Comparison& c) {
  std::vector<const CompareRow*> up, down;
  for (const auto& r : c.rows) {
    if (!r.probability || r.role.empty() || r.diff.n == 0 || !std::isfinite(r.diff.mean) || !r.real) continue;
    if (r.diff.mean > 0) up.push_back(&r);
    else if (r.diff.mean < 0) down.push_back(&r);
  }
  std::stable_sort(up.begin(), up.end(), [](const CompareRow* a, const CompareRow* b) { return a->diff.mean > b->diff.mean; });
  auto side = [](const CompareRow* r) {
    std::string n = r->side;
    if (!n.empty()) n[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(n[0])));
    return n;
  };
  if (!up.empty()) {
    std::string o = "it helps the " + side(up[0]) + " (" + role_words(up[0]->role) + "), " + up[0]->label + " " + pp(up[0]->diff.mean) + " [" +
                    number(up[0]->diff.lo * 100, 1) + ", " + number(up[0]->diff.hi * 100, 1) + "]";
    for (std::size_t i = 1; i < up.size(); ++i) o += ", and the " + side(up[i]) + " too, " + pp(up[i]->diff.mean);
    return o;
  }
  if (!down.empty()) {
    std::string o = "it helps neither side win: ";
    for (std::size_t i = 0; i < down.size(); ++i) o += (i ? " and the " : "the ") + side(down[i]);
    return o + (down.size() == 1 ? " wins" : " win") + " less often, " + pp(down[0]->diff.mean) + (down.size() > 1 ? " and " + pp(down[1]->diff.mean) : "");
  }
  return "no real change in who wins";
}

const CompareRow* helped(const Comparison& c) {
  const CompareRow* up = nullptr;
  for (const auto& r : c.rows)
    if (r.probability && !r.role.empty() && r.real && r.diff.mean > 0 && std::isfinite(r.diff.mean) && (!up || r.diff.mean > up->diff.mean)) up = &r;
  return up;
}

}  // namespace

std::vector<SideBySideRow> side_by_side(const std::vector<Comparison>& cs) {
  // Matched by key: a side's figure by the side's role, so the raid's
  // "Raiders" meet the "Cavalry" of the other scenarios.
  std::vector<SideBySideRow> rows;
  for (std::size_t k = 0; k < cs.size(); ++k)
    for (const auto& r : cs[k].rows) {
      const std::string& key = r.key.empty() ? r.id : r.key;
      auto it = std::find_if(rows.begin(), rows.end(), [&](const SideBySideRow& x) { return x.id == key && x.probability == r.probability; });
      if (it == rows.end()) {
        SideBySideRow row;
        row.id = key;
        row.label = r.label;
        row.role = r.role;
        row.probability = r.probability;
        row.cells.assign(cs.size(), nullptr);
        rows.push_back(std::move(row));
        it = rows.end() - 1;
      }
      it->cells[k] = &r;
    }
  for (auto& row : rows) {
    bool up = false, down = false, same = true;
    for (const auto* c : row.cells) {
      if (c && c->real) (c->diff.mean > 0 ? up : down) = true;
      if (c && c->label != row.label) same = false;
    }
    row.sign_flip = up && down;
    // Sides named differently in different scenarios: the row says the role, then the names.
    if (!same && !row.role.empty()) {
      const std::string who = role_words(row.role) + " (" + side_names(row) + ")";
      if (row.probability) {
        row.label = "P(" + who + " wins)";
      } else {
        const std::string& l = row.label;
        const auto colon = l.find(": ");
        row.label = std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(who[0])))) + who.substr(1) + ": " +
                    (colon == std::string::npos ? l : l.substr(colon + 2));
      }
    }
  }
  // Figures zero in every engagement of every scenario say nothing.
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [](const SideBySideRow& x) {
                              return std::all_of(x.cells.begin(), x.cells.end(), [](const CompareRow* c) { return !c || both_zero(*c); });
                            }),
             rows.end());
  return rows;
}

namespace {

// The baseline in words: one ruleset, or each scenario's own when they differ.
std::string many_baseline(const std::vector<Comparison>& cs) {
  std::vector<std::string> seen;
  for (const auto& c : cs)
    if (std::find(seen.begin(), seen.end(), c.baseline) == seen.end()) seen.push_back(c.baseline);
  if (seen.size() == 1) return seen.front();
  std::string o = "each scenario's own ruleset (";
  for (std::size_t i = 0; i < seen.size(); ++i) o += (i ? "; " : "") + seen[i];
  return o + ")";
}

}  // namespace

std::string compare_many_headline(const std::vector<RunInfo>& infos, const std::vector<Comparison>& cs) {
  // Whom the rule helps, scenario by scenario (the side whose wins rise most
  // really), then whether that is the same side throughout.
  std::string o;
  std::string first_role;
  bool same_side = true, anyone = false;
  for (std::size_t k = 0; k < cs.size(); ++k) {
    o += (k ? "; in " : "In ") + infos[k].scenario;
    // A scenario whose own ruleset is another base: what the variant changes
    // there beyond what it changes in the first (a designer's trial: a
    // switch the scenario turned on, silently off under the variant, read
    // as the rule's effect). Said here, beside the effect it is part of.
    if (k > 0 && cs[k].rule) {
      std::string more;
      std::size_t n = 0;
      for (const auto& c : cs[k].rule->changes) {
        const bool in_first = cs[0].rule && std::any_of(cs[0].rule->changes.begin(), cs[0].rule->changes.end(),
                                                         [&](const auto& f) { return f.path == c.path; });
        if (in_first || c.path == "name") continue;
        if (n++ < 3) more += std::string(more.empty() ? "" : ", ") + c.path;
      }
      if (n > 3) more += " and " + std::to_string(n - 3) + " more";
      if (n) o += " (where the variant also changes the scenario's own ruleset: " + more + ")";
    }
    o += " " + helps_text(cs[k]);
    const CompareRow* h = helped(cs[k]);
    const std::string role = h ? h->role : "";
    if (k == 0) first_role = role;
    else if (role != first_role) same_side = false;
    anyone |= h != nullptr;
  }
  std::size_t flips = 0;
  for (const auto& row : side_by_side(cs)) flips += row.sign_flip;
  if (!anyone) o += " - in no scenario does the rule make a side win more often";
  else if (same_side) o += " - the same side in every scenario";
  else o += " - it helps different sides in different scenarios";
  if (flips)
    o += "; " + std::to_string(flips) + " figure" + (flips == 1 ? "" : "s") +
         " flip sign (a real rise in one scenario, a real fall in another, for the same side)";
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
  o += "Baseline **" + many_baseline(cs) + "** against variant **" + c0.variant + "**, on common random numbers in each scenario (seed " +
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
  o += "\n\"real\": p < 0.05 after Holm's correction within the scenario. Sides are matched by role (the automated side, the other side), not by "
       "name. **flip**: the figure moves really up in one scenario and really down in another.\n";
  for (std::size_t k = 0; k < cs.size(); ++k) {
    o += "\n## " + infos[k].scenario + "\n\n**" + compare_headline(infos[k], cs[k]) + "**\n\n";
    o += parts::run_markdown(infos[k]);
    if (k > 0 && cs[k].rule)
      o += "\nThis scenario's ruleset is another base, so here the variant changes more than in the first scenario; every "
           "difference below comes from all of these together.\n\n" + rule_diff_markdown(*cs[k].rule);
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
    OJson x{{"id", row.id},
            {"label", row.label},
            {"role", row.role.empty() ? OJson(nullptr) : OJson(row.role)},
            {"kind", row.probability ? "probability" : "mean"},
            {"sign_flip", row.sign_flip}};
    x["differences"] = OJson::array();
    for (std::size_t k = 0; k < cs.size(); ++k) {
      const CompareRow* c = row.cells[k];
      if (!c) {
        x["differences"].push_back(OJson{{"scenario", infos[k].scenario}, {"mean", nullptr}});
        continue;
      }
      x["differences"].push_back(OJson{{"scenario", infos[k].scenario}, {"side", c->side}, {"mean", json_number(c->diff.mean)}, {"lo", json_number(c->diff.lo)},
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
  o += "<p>Baseline <b>" + html_escape(many_baseline(cs)) + "</b> against variant <b>" + html_escape(c0.variant) + "</b>, on common random numbers in each "
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
      points.push_back({row.label + " · " + infos[k].scenario, c->diff.mean * 100, c->diff.lo * 100, c->diff.hi * 100,
                        c->real ? svg::role_colour(row.role) : "", diff_text(*c) + (c->real ? "  real" : "") + (row.sign_flip ? "  flip" : "")});
    }
  }
  std::vector<const Schema*> schemas;
  for (const auto& c : cs) schemas.push_back(c.base.schema);
  o += "<h2>Side by side</h2>\n" + svg::forest("chart-diff-scenarios", "Outcome probabilities: variant - baseline, per scenario (percentage points)",
                                              points, " pp", parts::role_legend(parts::role_names(schemas), "draw"));
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
       "scenario. Sides are matched by role (the automated side, the other side), not by name. Flip: the figure moves really up in one "
       "scenario and really down in another.</p>\n";

  for (std::size_t k = 0; k < cs.size(); ++k) {
    const std::string sid = std::to_string(k + 1);
    o += "<h2>" + html_escape(infos[k].scenario) + "</h2>\n<p class=\"headline\">" + html_escape(compare_headline(infos[k], cs[k])) + "</p>\n" +
         parts::html_run(infos[k]);
    if (k > 0 && cs[k].rule)
      o += "<p class=\"note\">This scenario's ruleset is another base, so here the variant changes more than in the first scenario; "
           "every difference below comes from all of these together.</p>\n" + rule_diff_html(*cs[k].rule);
    o += outcome_chart("chart-outcomes-" + sid, cs[k]);
    o += table_html(cs[k]);
  }
  return parts::stack_tables(o + parts::html_close());
}

}  // namespace vedette::lab
