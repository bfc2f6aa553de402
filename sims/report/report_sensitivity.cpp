#include "sims/report/report_sensitivity.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "sims/report/report_parts.hpp"
#include "sims/report/svg.hpp"

namespace vedette::lab {

namespace {

std::string effect_pp(double v, int d = 2) {
  if (std::isnan(v)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.*f", d, v * 100);
  return buf;
}

std::string p_value_text(double p) {
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

std::size_t matter_count(const Sensitivity& s) {
  return static_cast<std::size_t>(std::count_if(s.effects.begin(), s.effects.end(), [](const Effect& e) { return e.matters; }));
}

// "Combat, melee: figures per die (combat.melee.figures_per_die)"
std::string setting_text(const Effect& e) { return e.words.empty() || e.words == e.setting ? e.setting : e.words + " (" + e.setting + ")"; }

std::string headline(const Sensitivity& s) {
  if (s.effects.empty()) return "No variant was played.";
  const Effect& e = s.effects.front();
  const std::string counts = std::to_string(matter_count(s)) + " of " + std::to_string(s.effects.size()) + " effects matter (real and at least " +
                             fixed(s.min_effect * 100, 1) + " pp), " + std::to_string(real_count(s)) +
                             " are detectable (Holm-corrected p < 0.05).";
  if (!e.matters)
    return "No effect matters (real and at least " + fixed(s.min_effect * 100, 1) + " pp): the largest, " + setting_text(e) + " " + e.change +
           ", moves " + label_of(s, e.outcome) + " by " + effect_pp(e.diff.mean, 1) + " pp [" + effect_pp(e.diff.lo, 1) + ", " + effect_pp(e.diff.hi, 1) + "]" +
           (e.real ? ", detectable but small" : ", within chance") + "; " + counts;
  return "Largest effect: " + setting_text(e) + " " + e.change + " (" + e.from + " -> " + e.to + ") moves " + label_of(s, e.outcome) + " by " +
         effect_pp(e.diff.mean, 1) + " pp [" + effect_pp(e.diff.lo, 1) + ", " + effect_pp(e.diff.hi, 1) + "]; " + counts;
}

const char* verdict(const Effect& e) { return e.matters ? "matters" : e.real ? "detectable" : "no"; }

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
  o += "| setting | key | change | outcome | difference (pp) | 95% interval | p (Holm) | verdict |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (std::size_t i = 0; i < std::min(top, s.effects.size()); ++i) {
    const Effect& e = s.effects[i];
    o += "| " + parts::md_escape(e.words.empty() ? e.setting : e.words) + " | `" + e.setting + "` | " + e.change + " (" + e.from + " -> " + e.to +
         ") | " + label_of(s, e.outcome) + " | " + effect_pp(e.diff.mean) + " | [" + effect_pp(e.diff.lo) + ", " + effect_pp(e.diff.hi) + "] | " + p_value_text(e.p_holm) +
         " | " + verdict(e) + " |\n";
  }
  o += "\nVerdict: detectable means p < 0.05 after Holm's correction; matters means detectable and at least " + fixed(s.min_effect * 100, 1) +
       " pp (--min-effect).\n";
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
  j["min_effect"] = s.min_effect;
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
                            {"words", e.words},
                            {"change", e.change},
                            {"from", e.from},
                            {"to", e.to},
                            {"outcome", e.outcome},
                            {"delta", json_number(e.diff.mean)},
                            {"lo", json_number(e.diff.lo)},
                            {"hi", json_number(e.diff.hi)},
                            {"p", json_number(e.p_holm)},
                            {"real", e.real},
                            {"matters", e.matters},
                            {"engagements_that_differ", e.differ}});
  j["skipped"] = OJson::array();
  for (const auto& k : s.skipped) j["skipped"].push_back({{"setting", k.setting}, {"change", k.change}, {"why", k.why}});
  return j;
}

namespace {

// Words cut into lines of at most `chars` characters, at spaces.
std::vector<std::string> wrapped(const std::string& text, std::size_t chars) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t at = 0;
  while (at < text.size()) {
    auto sp = text.find(' ', at);
    const std::string word = text.substr(at, sp == std::string::npos ? std::string::npos : sp - at);
    at = sp == std::string::npos ? text.size() : sp + 1;
    if (!line.empty() && line.size() + 1 + word.size() > chars) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

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
  // Narrow enough for a phone (368 wide: 11 px text stays 11 px at 390 px): each setting's words on
  // their own lines, whole, above its bars; the change at the left of each
  // bar, the difference at its right.
  const double width = 368, change_w = 108, value_w = 46, plot_w = width - change_w - value_w, row_h = 20, line_h = 15;
  const double mid = change_w + plot_w / 2;
  auto xof = [&](double v) { return mid + v / span * (plot_w / 2 - 4); };
  const std::string colour = svg::role_colour(outcome < s.side_roles.size() ? s.side_roles[outcome] : "");
  std::string body;
  double y = 8;
  // The legend: what the fills mean.
  const struct {
    const char* text;
    std::string fill, extra;
  } key[] = {{"one step up", colour, ""},
             {"one step down", colour, " fill-opacity=\"0.45\""},
             {"a neighbouring cell's behaviour", "#ffffff", " stroke=\"" + colour + "\" stroke-width=\"2\""},
             {"within chance", svg::k_grey, ""}};
  for (const auto& k : key) {
    body += "<rect x=\"2\" y=\"" + fixed(y, 1) + "\" width=\"14\" height=\"11\" fill=\"" + k.fill + "\"" + k.extra + "/>\n";
    body += "<text x=\"22\" y=\"" + fixed(y + 10, 1) + "\">" + html_escape(k.text) + "</text>\n";
    y += line_h;
  }
  y += 6;
  const double plot_top = y;
  for (const auto& st : order) {
    const auto& list = by[st];
    const Effect& first = *list.front();
    const std::string words = first.words.empty() ? st : first.words;
    for (const auto& l : wrapped(words, 50)) {
      body += "<text x=\"2\" y=\"" + fixed(y + 12, 1) + "\" font-weight=\"bold\"><title>" + html_escape(st) + "</title>" + html_escape(l) + "</text>\n";
      y += line_h;
    }
    if (words != st) {
      body += "<text x=\"2\" y=\"" + fixed(y + 12, 1) + "\" fill=\"#555\" font-family=\"monospace\" font-size=\"11\">" + html_escape(st.size() > 52 ? st.substr(0, 51) + "…" : st) +
              "</text>\n";
      y += line_h;
    }
    for (const Effect* e : list) {
      const double x0 = xof(0), x1 = xof(e->diff.mean);
      const bool up = e->change.rfind("+", 0) == 0;
      const bool cell = e->change.rfind("->", 0) == 0;
      std::string fill = colour, extra;
      if (!e->real) fill = svg::k_grey;
      else if (cell) fill = "#ffffff", extra = " stroke=\"" + colour + "\" stroke-width=\"2\"";
      else if (!up) extra = " fill-opacity=\"0.45\"";
      body += "<rect x=\"" + fixed(std::min(x0, x1), 1) + "\" y=\"" + fixed(y + 4, 1) + "\" width=\"" + fixed(std::max(1.0, std::fabs(x1 - x0)), 1) +
              "\" height=\"" + fixed(row_h - 8, 1) + "\" fill=\"" + fill + "\"" + extra + "><title>" +
              html_escape(st + " " + e->change + ": " + effect_pp(e->diff.mean) + " pp [" + effect_pp(e->diff.lo) + ", " + effect_pp(e->diff.hi) + "], p " + p_value_text(e->p_holm)) +
              "</title></rect>\n";
      body += "<line x1=\"" + fixed(xof(e->diff.lo), 1) + "\" x2=\"" + fixed(xof(e->diff.hi), 1) + "\" y1=\"" + fixed(y + row_h / 2, 1) + "\" y2=\"" +
              fixed(y + row_h / 2, 1) + "\" stroke=\"#222\"/>\n";
      std::string change = e->change.substr(0, e->change.find(" ("));  // "-> halt_facing", "+1"
      if (change.size() > 15) change = change.substr(0, 14) + "…";
      body += "<text x=\"2\" y=\"" + fixed(y + row_h / 2 + 4, 1) + "\" fill=\"#444\"><title>" + html_escape(e->change) + "</title>" + html_escape(change) +
              "</text>\n";
      body += "<text x=\"" + fixed(width - 2, 1) + "\" y=\"" + fixed(y + row_h / 2 + 4, 1) + "\" text-anchor=\"end\" fill=\"#444\">" + effect_pp(e->diff.mean, 1) +
              "</text>\n";
      y += row_h;
    }
    body += "<line x1=\"0\" x2=\"" + fixed(width, 1) + "\" y1=\"" + fixed(y + 2, 1) + "\" y2=\"" + fixed(y + 2, 1) + "\" stroke=\"#eee\"/>\n";
    y += 4;
  }
  body += "<line x1=\"" + fixed(mid, 1) + "\" x2=\"" + fixed(mid, 1) + "\" y1=\"" + fixed(plot_top, 1) + "\" y2=\"" + fixed(y, 1) + "\" stroke=\"#222\"/>\n";
  for (int t : {-1, 0, 1}) {
    const double v = span * t * 0.8;
    body += "<text x=\"" + fixed(xof(v), 1) + "\" y=\"" + fixed(y + 14, 1) + "\" text-anchor=\"middle\" fill=\"#444\">" + (t == 0 ? std::string("0") : effect_pp(v, 1)) +
            "</text>\n";
  }
  y += 20;
  const double height = y + 4;
  std::string o = "<svg class=\"chart\" id=\"chart-tornado-" + html_escape(id) + "\" role=\"img\" viewBox=\"0 0 " + fixed(width, 0) + " " +
                  fixed(height, 0) + "\" width=\"" + fixed(width, 0) + "\" height=\"" + fixed(height, 0) +
                  "\" xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"12\">\n";
  o += "<title>Tornado: the settings that move " + html_escape(label_of(s, id)) + " most, each change with its 95% interval (pp)</title>\n";
  return o + body + "</svg>\n";
}

std::string sensitivity_html(const RunInfo& info, const Sensitivity& s, std::size_t top, const RulesetDiff* rule) {
  std::string o = parts::html_open("vedette sensitivity: " + info.scenario);
  o += "<h1>vedette sensitivity: " + html_escape(info.scenario) + "</h1>\n";
  o += "<p class=\"headline\">" + html_escape(headline(s)) + "</p>\n" + parts::html_run(info);
  if (rule && !rule->base.empty()) o += rule_diff_html(*rule);
  o += "<p>Base:";
  for (std::size_t k = 0; k < s.base.size(); ++k)
    o += (k ? " ·" : "") + std::string(" ") + html_escape(s.outcome_labels[k]) + " " + parts::prop_text(s.base[k]);
  o += ". " + std::to_string(s.variants) + " variants, " + parts::thousands(s.n) + " engagements each, on the base's dice; " +
       std::to_string(s.unchanged) + " changed no engagement's outcome.</p>\n";
  if (s.interrupted) o += "<p class=\"partial\"><b>Partial</b>: stopped by " + html_escape(info.stopped_by) + ".</p>\n";
  for (std::size_t k = 0; k < s.outcome_ids.size(); ++k) {
    o += "<h2>What moves " + html_escape(s.outcome_labels[k]) + " (difference from the base, pp)</h2>\n";
    o += tornado_svg(s, k, top);
  }
  o += "<h2>Every real effect</h2>\n<p class=\"note\">Matters: real (Holm-corrected p &lt; 0.05) and at least " + fixed(s.min_effect * 100, 1) +
       " pp (--min-effect). Detectable: real, but smaller.</p>\n<table class=\"stack\">\n<tr><th>setting</th><th>change</th><th>outcome</th><th>difference "
       "(pp) [95%]</th><th>p (Holm)</th><th>verdict</th></tr>\n";
  for (const auto& e : s.effects) {
    if (!e.real) continue;
    o += "<tr><td data-h=\"setting\">" + html_escape(e.words.empty() ? e.setting : e.words) + " <code>" + html_escape(e.setting) +
         "</code></td><td data-h=\"change\">" + html_escape(e.change + " (" + e.from + " -> " + e.to + ")") + "</td><td data-h=\"outcome\">" +
         html_escape(label_of(s, e.outcome)) + "</td><td data-h=\"difference\" class=\"real\">" + effect_pp(e.diff.mean) + " [" + effect_pp(e.diff.lo) + ", " +
         effect_pp(e.diff.hi) + "]</td><td data-h=\"p (Holm)\">" + p_value_text(e.p_holm) + "</td><td data-h=\"verdict\">" + verdict(e) + "</td></tr>\n";
  }
  o += "</table>\n";
  if (!s.skipped.empty()) {
    o += "<h2>Not played</h2>\n<p class=\"note\">The loader refused these values (the reason is its message).</p>\n"
         "<table class=\"stack\">\n<tr><th>setting</th><th>change</th><th>why</th></tr>\n";
    for (const auto& k : s.skipped)
      o += "<tr><td data-h=\"setting\"><code>" + html_escape(k.setting) + "</code></td><td data-h=\"change\">" + html_escape(k.change) +
           "</td><td data-h=\"why\">" + html_escape(k.why) + "</td></tr>\n";
    o += "</table>\n";
  }
  o += parts::html_close();
  return parts::stack_tables(o);
}

std::string calibrate_markdown(const CalibrateResult& c) {
  std::string o;
  const std::string who = c.level.empty() ? "" : c.level + ": ";
  if (!c.reached) {
    // Say so plainly, with the range the values tried gave.
    double lo = 1, hi = 0;
    for (const auto& t : c.tries) lo = std::min(lo, t.p.p), hi = std::max(hi, t.p.p);
    o += who + "cannot reach " + c.outcome_label + " " + fixed(c.target * 100, 1) + "% with " + c.knob + ": the " + std::to_string(c.tries.size()) +
         " value" + (c.tries.size() == 1 ? "" : "s") + " tried give " + fixed(lo * 100, 1) + "% to " + fixed(hi * 100, 1) + "%; the nearest is " +
         c.knob + " = " + c.value + " (base " + c.from + "), " + parts::prop_text(c.achieved) + ". Nothing written.\n";
  } else {
    o += who + c.knob + " = " + c.value + " (base " + c.from + "): " + c.outcome_label + " " + parts::prop_text(c.achieved) + " over " +
         parts::thousands(c.achieved.n) + " engagements (seed " + std::to_string(c.seed) + "); target " + fixed(c.target * 100, 1) + "%";
    o += c.within ? ", within the interval" : ", the nearest the knob's resolution allows";
    o += "\n";
  }
  if (c.all.size() > 1) o += "  every outcome at " + c.value + ": " + outcomes_text(c, c.all) + "\n";
  o += "  tried:";
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
  j["reached"] = c.reached;
  j["achieved"] = {{"p", json_number(c.achieved.p)}, {"lo", json_number(c.achieved.lo)}, {"hi", json_number(c.achieved.hi)}, {"n", c.achieved.n}};
  // Every outcome at the value found: the sides' wins and the draws.
  OJson all = OJson::object();
  for (std::size_t k = 0; k < c.all.size() && k < c.outcome_ids.size(); ++k) all[c.outcome_ids[k]] = json_proportion(c.all[k]);
  j["outcomes"] = all;
  j["within"] = c.within;
  j["seed"] = c.seed;
  j["tried"] = OJson::array();
  for (const auto& t : c.tries) {
    OJson x{{"value", t.value}, {"p", json_number(t.p.p)}};
    OJson every = OJson::object();
    for (std::size_t k = 0; k < t.all.size() && k < c.outcome_ids.size(); ++k) every[c.outcome_ids[k]] = json_number(t.all[k].p);
    x["outcomes"] = every;
    j["tried"].push_back(x);
  }
  j["overlay"] = c.overlay_file.empty() ? OJson(nullptr) : OJson(c.overlay_file);
  return j;
}

}  // namespace vedette::lab
