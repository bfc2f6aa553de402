#include "sims/report/report_sensitivity.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "sims/report/report_parts.hpp"
#include "sims/report/svg.hpp"

namespace vedette::lab {

namespace {

std::string pp(double v, int d = 2) {
  if (std::isnan(v)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.*f", d, v * 100);
  return buf;
}

std::string p_text(double p) {
  if (std::isnan(p)) return "n/a";
  if (p < 0.0001) return "<0.0001";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", p);
  return buf;
}

std::string fixed(double v, int d = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", d, v);
  return buf;
}

const std::string& label_of(const Sensitivity& s, const std::string& id) {
  for (std::size_t k = 0; k < s.outcome_ids.size(); ++k)
    if (s.outcome_ids[k] == id) return s.outcome_labels[k];
  return id;
}

std::size_t real_count(const Sensitivity& s) {
  return static_cast<std::size_t>(std::count_if(s.effects.begin(), s.effects.end(), [](const Effect& e) { return e.real; }));
}

std::string headline(const Sensitivity& s) {
  if (s.effects.empty()) return "No variant was played.";
  const Effect& e = s.effects.front();
  return "Largest effect: " + e.setting + " " + e.change + " (" + e.from + " -> " + e.to + ") moves " + label_of(s, e.outcome) + " by " +
         pp(e.diff.mean, 1) + " pp [" + pp(e.diff.lo, 1) + ", " + pp(e.diff.hi, 1) + "]; " + std::to_string(real_count(s)) + " of " +
         std::to_string(s.effects.size()) + " effects are real (Holm-corrected p < 0.05).";
}

}  // namespace

std::string sensitivity_markdown(const RunInfo& info, const Sensitivity& s, const std::string& report_path, std::size_t top,
                                 const RulesetDiff* rule) {
  std::string o = "# vedette sensitivity: " + info.scenario + "\n\n" + parts::run_markdown(info);
  if (rule && !rule->base.empty()) o += "\n" + rule_diff_markdown(*rule);
  o += "\n" + headline(s) + "\n\nBase:";
  for (std::size_t k = 0; k < s.base.size(); ++k) o += (k ? " ·" : "") + std::string(" ") + s.outcome_labels[k] + " " + parts::prop_text(s.base[k]);
  o += "\n\n" + std::to_string(s.variants) + " variants played, " + parts::thousands(s.n) + " engagements each on the base's dice; " +
       std::to_string(s.unchanged) + " changed no engagement's outcome; " + std::to_string(s.skipped.size()) +
       " not played (the loader refused the value).\n\n";
  if (s.interrupted) o += "**PARTIAL**: stopped by " + info.stopped_by + "; the variants played before it are below.\n\n";
  o += "| setting | change | outcome | difference (pp) | 95% interval | p (Holm) | real |\n| --- | --- | --- | --- | --- | --- | --- |\n";
  for (std::size_t i = 0; i < std::min(top, s.effects.size()); ++i) {
    const Effect& e = s.effects[i];
    o += "| " + e.setting + " | " + e.change + " (" + e.from + " -> " + e.to + ") | " + label_of(s, e.outcome) + " | " + pp(e.diff.mean) +
         " | [" + pp(e.diff.lo) + ", " + pp(e.diff.hi) + "] | " + p_text(e.p_holm) + " | " + (e.real ? "yes" : "no") + " |\n";
  }
  if (s.effects.size() > top) o += "\n(" + std::to_string(s.effects.size() - top) + " more effects in summary.json)\n";
  if (!report_path.empty()) o += "\nReport: " + report_path + "\n";
  return o;
}

OJson sensitivity_json(const RunInfo& info, const Sensitivity& s, const RulesetDiff* rule) {
  OJson j;
  j["vedette"] = "sensitivity";
  j["format"] = 1;
  put_all(j, parts::run_json(info));
  j["test"] =
      "each variant against the base on common random numbers: paired difference of each outcome's probability (a fraction), "
      "95% t interval, two-sided t test, p Holm-corrected over every effect; real = p < 0.05";
  j["steps"] = "whole numbers +/-1; lengths +/-1 of their unit (mm: 5); other numbers +/-10%; band bounds move with the next band's; "
               "Actions Table cells take each neighbouring cell's behaviour";
  j["headline"] = headline(s);
  if (rule && !rule->base.empty()) j["rule"] = rule_diff_json(*rule);
  OJson base = OJson::object();
  for (std::size_t k = 0; k < s.base.size(); ++k) base[s.outcome_ids[k]] = json_proportion(s.base[k]);
  j["base"] = base;
  j["engagements_per_variant"] = s.n;
  j["variants"] = s.variants;
  j["unchanged"] = s.unchanged;
  j["effects"] = OJson::array();
  for (const auto& e : s.effects)
    j["effects"].push_back({{"setting", e.setting},
                            {"change", e.change},
                            {"from", e.from},
                            {"to", e.to},
                            {"outcome", e.outcome},
                            {"delta", json_number(e.diff.mean)},
                            {"lo", json_number(e.diff.lo)},
                            {"hi", json_number(e.diff.hi)},
                            {"p", json_number(e.p_holm)},
                            {"real", e.real},
                            {"engagements_that_differ", e.differ}});
  j["skipped"] = OJson::array();
  for (const auto& k : s.skipped) j["skipped"].push_back({{"setting", k.setting}, {"change", k.change}, {"why", k.why}});
  return j;
}

std::string tornado_svg(const Sensitivity& s, std::size_t outcome, std::size_t top) {
  if (outcome >= s.outcome_ids.size()) return {};
  const std::string& id = s.outcome_ids[outcome];
  // The settings, by their largest effect on this outcome.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Effect*>> by;
  for (const auto& e : s.effects) {
    if (e.outcome != id || e.differ == 0) continue;
    if (!by.count(e.setting)) order.push_back(e.setting);
    by[e.setting].push_back(&e);
  }
  if (order.size() > top) order.resize(top);
  if (order.empty()) return "<p class=\"note\">No setting changed the outcome of any engagement.</p>\n";
  double span = 0;
  for (const auto& st : order)
    for (const Effect* e : by[st]) span = std::max({span, std::fabs(e->diff.lo), std::fabs(e->diff.hi)});
  if (span <= 0) span = 0.01;
  const double label_w = 300, plot_w = 420, note_w = 230, row_h = 22, top_h = 40, bottom_h = 34;
  std::size_t rows = 0;
  for (const auto& st : order) rows += by[st].size();
  const double width = label_w + plot_w + note_w;
  const double height = top_h + static_cast<double>(rows) * row_h + bottom_h;
  const double mid = label_w + plot_w / 2;
  auto xof = [&](double v) { return mid + v / span * (plot_w / 2 - 6); };
  std::string o = "<svg class=\"chart\" id=\"chart-tornado-" + html_escape(id) + "\" role=\"img\" viewBox=\"0 0 " + fixed(width, 0) + " " +
                  fixed(height, 0) + "\" width=\"" + fixed(width, 0) + "\" xmlns=\"http://www.w3.org/2000/svg\" font-size=\"12\">\n";
  o += "<title>Tornado: the settings that move " + html_escape(label_of(s, id)) + " most, each change with its 95% interval</title>\n";
  o += "<text x=\"" + fixed(mid, 1) + "\" y=\"16\" text-anchor=\"middle\" font-weight=\"bold\">" + html_escape(label_of(s, id)) +
       ": difference from the base (pp)</text>\n";
  double y = top_h;
  for (const auto& st : order) {
    const auto& list = by[st];
    const double block = static_cast<double>(list.size()) * row_h;
    std::string name = st.size() > 44 ? "…" + st.substr(st.size() - 43) : st;
    o += "<text x=\"" + fixed(label_w - 8, 1) + "\" y=\"" + fixed(y + block / 2 + 4, 1) + "\" text-anchor=\"end\"><title>" + html_escape(st) +
         "</title>" + html_escape(name) + "</text>\n";
    for (const Effect* e : list) {
      const double x0 = xof(0), x1 = xof(e->diff.mean);
      const bool up = e->change.rfind("+", 0) == 0;
      const bool cell = e->change.rfind("->", 0) == 0;
      const std::string col = !e->real ? "#bbbbbb" : cell ? "#7b4fa0" : up ? "#d9822b" : "#2b6cb0";
      o += "<rect x=\"" + fixed(std::min(x0, x1), 1) + "\" y=\"" + fixed(y + 4, 1) + "\" width=\"" + fixed(std::max(1.0, std::fabs(x1 - x0)), 1) +
           "\" height=\"" + fixed(row_h - 8, 1) + "\" fill=\"" + col + "\"><title>" + html_escape(st + " " + e->change + ": " + pp(e->diff.mean) + " pp [" +
           pp(e->diff.lo) + ", " + pp(e->diff.hi) + "], p " + p_text(e->p_holm)) + "</title></rect>\n";
      o += "<line x1=\"" + fixed(xof(e->diff.lo), 1) + "\" x2=\"" + fixed(xof(e->diff.hi), 1) + "\" y1=\"" + fixed(y + row_h / 2, 1) + "\" y2=\"" +
           fixed(y + row_h / 2, 1) + "\" stroke=\"#222\"/>\n";
      std::string change = e->change.substr(0, e->change.find(" ("));  // "-> halt_facing", "+1"
      if (change.size() > 24) change = change.substr(0, 23) + "…";
      o += "<text x=\"" + fixed(label_w + plot_w + 6, 1) + "\" y=\"" + fixed(y + row_h / 2 + 4, 1) + "\" fill=\"#444\">" + html_escape(change) +
           " " + pp(e->diff.mean, 1) + "</text>\n";
      y += row_h;
    }
    o += "<line x1=\"" + fixed(label_w, 1) + "\" x2=\"" + fixed(label_w + plot_w, 1) + "\" y1=\"" + fixed(y, 1) + "\" y2=\"" + fixed(y, 1) +
         "\" stroke=\"#eee\"/>\n";
  }
  o += "<line x1=\"" + fixed(mid, 1) + "\" x2=\"" + fixed(mid, 1) + "\" y1=\"" + fixed(top_h - 4, 1) + "\" y2=\"" + fixed(y, 1) + "\" stroke=\"#222\"/>\n";
  for (int t = -2; t <= 2; ++t) {
    const double v = span * t / 2;
    o += "<text x=\"" + fixed(xof(v), 1) + "\" y=\"" + fixed(y + 16, 1) + "\" text-anchor=\"middle\" fill=\"#444\">" + pp(v, 1) + "</text>\n";
  }
  o += "<text x=\"" + fixed(mid, 1) + "\" y=\"" + fixed(y + 30, 1) +
       "\" text-anchor=\"middle\" fill=\"#444\">orange: one step up · blue: one step down · purple: a cell's neighbour · grey: not real</text>\n";
  o += "</svg>\n";
  return o;
}

std::string sensitivity_html(const RunInfo& info, const Sensitivity& s, std::size_t top, const RulesetDiff* rule) {
  std::string o = parts::html_open("vedette sensitivity: " + info.scenario);
  o += "<h1>vedette sensitivity: " + html_escape(info.scenario) + "</h1>\n";
  o += "<p><b>" + html_escape(headline(s)) + "</b></p>\n" + parts::html_run(info);
  if (rule && !rule->base.empty()) o += rule_diff_html(*rule);
  o += "<p>Base:";
  for (std::size_t k = 0; k < s.base.size(); ++k)
    o += (k ? " ·" : "") + std::string(" ") + html_escape(s.outcome_labels[k]) + " " + parts::prop_text(s.base[k]);
  o += ". " + std::to_string(s.variants) + " variants, " + parts::thousands(s.n) + " engagements each, on the base's dice; " +
       std::to_string(s.unchanged) + " changed no engagement's outcome.</p>\n";
  if (s.interrupted) o += "<p class=\"partial\"><b>Partial</b>: stopped by " + html_escape(info.stopped_by) + ".</p>\n";
  for (std::size_t k = 0; k < s.outcome_ids.size(); ++k) {
    o += "<h2>What moves " + html_escape(s.outcome_labels[k]) + "</h2>\n";
    o += "<div style=\"overflow-x:auto\">" + tornado_svg(s, k, top) + "</div>\n";
  }
  o += "<h2>Every real effect</h2>\n<div style=\"overflow-x:auto\"><table>\n<tr><th>setting</th><th>change</th><th>outcome</th><th>difference "
       "(pp)</th><th>95% interval</th><th>p (Holm)</th></tr>\n";
  for (const auto& e : s.effects) {
    if (!e.real) continue;
    o += "<tr><td><code>" + html_escape(e.setting) + "</code></td><td>" + html_escape(e.change + " (" + e.from + " -> " + e.to + ")") + "</td><td>" +
         html_escape(label_of(s, e.outcome)) + "</td><td class=\"real\">" + pp(e.diff.mean) + "</td><td>[" + pp(e.diff.lo) + ", " + pp(e.diff.hi) +
         "]</td><td>" + p_text(e.p_holm) + "</td></tr>\n";
  }
  o += "</table></div>\n";
  if (!s.skipped.empty()) {
    o += "<h2>Not played</h2>\n<p class=\"note\">The loader refused these values (the reason is its message).</p>\n<div "
         "style=\"overflow-x:auto\"><table>\n<tr><th>setting</th><th>change</th><th>why</th></tr>\n";
    for (const auto& k : s.skipped)
      o += "<tr><td><code>" + html_escape(k.setting) + "</code></td><td>" + html_escape(k.change) + "</td><td>" + html_escape(k.why) + "</td></tr>\n";
    o += "</table></div>\n";
  }
  o += parts::html_close();
  return o;
}

std::string calibrate_markdown(const CalibrateResult& c) {
  std::string o;
  o += (c.level.empty() ? "" : c.level + ": ") + c.knob + " = " + c.value + " (base " + c.from + "): " + c.outcome_label + " " +
       parts::prop_text(c.achieved) + " over " + parts::thousands(c.achieved.n) + " engagements (seed " + std::to_string(c.seed) + "); target " +
       fixed(c.target * 100, 1) + "%";
  o += c.within ? ", within the interval" : c.resolution ? ", the nearest the knob's resolution allows" : ", the nearest value tried";
  o += "\n  tried:";
  for (const auto& t : c.tries) o += " " + t.value + " -> " + fixed(t.p.p * 100, 1) + "%;";
  o.pop_back();
  o += "\n";
  if (!c.overlay_file.empty()) o += "  overlay: " + c.overlay_file + "\n";
  return o;
}

OJson calibrate_json(const CalibrateResult& c) {
  OJson j;
  if (!c.level.empty()) j["level"] = c.level;
  j["knob"] = c.knob;
  j["value"] = c.value;
  j["base_value"] = c.from;
  j["outcome"] = c.outcome;
  j["target"] = c.target;
  j["achieved"] = {{"p", json_number(c.achieved.p)}, {"lo", json_number(c.achieved.lo)}, {"hi", json_number(c.achieved.hi)}, {"n", c.achieved.n}};
  j["within"] = c.within;
  j["seed"] = c.seed;
  j["tried"] = OJson::array();
  for (const auto& t : c.tries) j["tried"].push_back({{"value", t.value}, {"p", json_number(t.p.p)}});
  j["overlay"] = c.overlay_file.empty() ? OJson(nullptr) : OJson(c.overlay_file);
  return j;
}

}  // namespace vedette::lab
