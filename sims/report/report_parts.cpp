#include "sims/report/report_parts.hpp"

#include <cctype>

#include <cmath>
#include <cstdio>

namespace vedette::lab::parts {

std::string thousands(std::int64_t v) {
  std::string s = std::to_string(v < 0 ? -v : v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return (v < 0 ? "-" : "") + s;
}

std::string prop_text(const Proportion& p) {
  if (p.n == 0) return "n/a (none)";
  // Near 0% or 100%, more decimals, so a rare event does not read as 0.0%.
  const int d = (p.hi < 0.01 || p.lo > 0.99) ? 3 : 1;
  return percent(p.p, d) + " [" + number(p.lo * 100, d) + ", " + number(p.hi * 100, d) + "]";
}

std::string mean_text(const Mean& m, int decimals) {
  if (m.n == 0) return "n/a";
  if (std::isnan(m.se)) return number(m.mean, decimals);
  return number(m.mean, decimals) + " ± " + number(m.se, decimals + 1);
}

std::string run_markdown(const RunInfo& info) {
  std::string o;
  o += "Ruleset: **" + info.ruleset + "** · seed " + std::to_string(info.seed) + " · " + thousands(static_cast<std::int64_t>(info.engagements)) +
       " engagement" + (info.engagements == 1 ? "" : "s");
  if (info.precision) {
    o += " · precision target ±" + number(*info.precision * 100, 2) + " pp on the outcome probabilities: ";
    o += info.precision_met ? "met" : "not met";
    o += " (at most " + thousands(static_cast<std::int64_t>(info.requested)) + ")";
  }
  o += "\n";
  if (info.partial())
    o += "\n**PARTIAL**: stopped by " + info.stopped_by + " after " + thousands(static_cast<std::int64_t>(info.engagements)) + " of " +
         thousands(static_cast<std::int64_t>(info.requested)) + " engagements. Every figure below rests on those " +
         thousands(static_cast<std::int64_t>(info.engagements)) + ".\n";
  return o;
}

OJson run_json(const RunInfo& info) {
  OJson j;
  j["scenario"] = {{"name", info.scenario}, {"file", info.scenario_file}, {"description", info.scenario_description}};
  j["ruleset"] = info.ruleset;
  j["seed"] = info.seed;
  j["requested"] = info.requested;
  j["engagements"] = info.engagements;
  j["partial"] = info.partial();
  j["stopped_by"] = info.stopped_by.empty() ? OJson(nullptr) : OJson(info.stopped_by);
  j["precision"] = info.precision ? OJson{{"target_half_width", *info.precision}, {"met", info.precision_met}} : OJson(nullptr);
  return j;
}

std::string html_open(const std::string& title) {
  return R"(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>)" + html_escape(title) +
         R"(</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2rem auto; max-width: 64rem; padding: 0 1rem; color: #111; line-height: 1.4; overflow-wrap: break-word; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; }
h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ccc; padding-bottom: .2rem; }
p.meta { color: #444; margin-top: 0; }
.partial { background: #fff3cd; border: 1px solid #e0b400; padding: .6rem .8rem; border-radius: 4px; }
table { border-collapse: collapse; margin: .6rem 0; font-size: .9rem; }
th, td { border: 1px solid #ccc; padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td.real { font-weight: bold; color: #0a5d1c; }
tr.current td { background: #fffbe6; font-weight: 600; }
td.flip { font-weight: bold; color: #a3001b; }
p.headline { font-size: 1.05rem; font-weight: 600; background: #eef4fb; border-left: 4px solid #1f77b4; padding: .4rem .7rem; margin: .6rem 0; }
.scroll { overflow-x: auto; max-width: 100%; }
code { overflow-wrap: anywhere; }
svg.chart { max-width: 100%; height: auto; display: block; margin: .6rem 0; }
.note { color: #555; font-size: .85rem; }
@media (max-width: 40rem) {
  body { margin: 1rem auto; padding: 0 .6rem; }
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; }
  table.stack tr:first-child { display: none; }
  table.stack tr { border: 1px solid #ccc; margin: .5rem 0; }
  table.stack td { border: none; padding: .1rem .5rem; }
  table.stack td[data-h]::before { content: attr(data-h) ": "; font-weight: 600; color: #444; }
}
@media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; } svg.chart, table { break-inside: avoid; } }
</style>
</head>
<body>
)";
}

std::string html_run(const RunInfo& info) {
  std::string o = "<p class=\"meta\">Ruleset <b>" + html_escape(info.ruleset) + "</b> · seed " + std::to_string(info.seed) + " · " +
                  thousands(static_cast<std::int64_t>(info.engagements)) + " engagements";
  if (info.precision)
    o += " · precision target ±" + number(*info.precision * 100, 2) + " pp: " + (info.precision_met ? "met" : "not met");
  o += " · scenario file <code>" + html_escape(info.scenario_file) + "</code></p>\n";
  if (!info.scenario_description.empty()) o += "<p>" + html_escape(info.scenario_description) + "</p>\n";
  if (info.partial())
    o += "<p class=\"partial\"><b>Partial</b>: stopped by " + html_escape(info.stopped_by) + " after " +
         thousands(static_cast<std::int64_t>(info.engagements)) + " of " + thousands(static_cast<std::int64_t>(info.requested)) +
         " engagements. Every figure rests on those.</p>\n";
  return o;
}

std::string html_close() {
  return "<p class=\"note\">Made by vedette. Probabilities carry 95% Wilson score intervals and the count they rest on; means carry "
         "their standard error and a 95% Student t interval. Charts are inline SVG; the page has no scripts.</p>\n</body>\n</html>\n";
}


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

namespace {

// The text of an HTML fragment without its tags (for a data-h attribute).
std::string text_of(const std::string& html) {
  std::string o;
  bool tag = false;
  for (char c : html) {
    if (c == '<') tag = true;
    else if (c == '>') tag = false;
    else if (!tag) o += c == '"' ? '\'' : c;
  }
  return o;
}

}  // namespace

std::string stack_tables(std::string page) {
  const std::string open = "<div class=\"scroll\"><table", close = "</table></div>";
  for (std::size_t at = page.find(open); at != std::string::npos; at = page.find(open, at + 1)) {
    const std::size_t tag_end = page.find('>', at + open.size());
    const std::size_t end = page.find(close, at);
    if (end == std::string::npos || tag_end == std::string::npos) break;
    // Its own class, if any, kept beside "stack".
    std::string cls = "stack";
    const std::string attrs = page.substr(at + open.size(), tag_end - at - open.size());
    if (const auto c = attrs.find("class=\""); c != std::string::npos) {
      if (attrs.find("stack") != std::string::npos) continue;
      cls = attrs.substr(c + 7, attrs.find('"', c + 7) - c - 7) + " stack";
    }
    std::string t = page.substr(tag_end + 1, end - tag_end - 1);
    // The first row's headers.
    std::vector<std::string> heads;
    const std::size_t first_end = t.find("</tr>");
    for (std::size_t h = t.find("<th"); h != std::string::npos && h < first_end; h = t.find("<th", h + 1)) {
      const std::size_t b = t.find('>', h) + 1, e = t.find("</th>", b);
      heads.push_back(text_of(t.substr(b, e - b)));
    }
    // Every later row's cells, headed by their column's header.
    std::string out = t.substr(0, first_end);
    std::size_t col = 0;
    for (std::size_t i = first_end; i < t.size();) {
      if (t.compare(i, 4, "<tr>") == 0 || t.compare(i, 4, "<tr ") == 0) col = 0;
      if (t.compare(i, 3, "<td") == 0 && (t[i + 3] == '>' || t[i + 3] == ' ')) {
        out += "<td";
        if (col < heads.size() && !heads[col].empty()) out += " data-h=\"" + heads[col] + "\"";
        ++col;
        i += 3;
        continue;
      }
      out += t[i++];
    }
    const std::string repl = "<div class=\"scroll\"><table class=\"" + cls + "\">" + out + close;
    page.replace(at, end + close.size() - at, repl);
  }
  return page;
}

std::string outcome_role(const Schema& s, std::size_t k) {
  if (k < s.side_roles.size()) return s.side_roles[k];
  // A synthetic scenario has no roles: its first side stands for the automated one.
  if (s.side_roles.empty() && k + 1 < s.outcomes()) return k == 0 ? "automated" : "other";
  return "";
}

const std::string& outcome_colour(const Schema& s, std::size_t k) { return svg::role_colour(outcome_role(s, k)); }

RoleNames role_names(const std::vector<const Schema*>& schemas) {
  RoleNames r;
  for (const Schema* s : schemas)
    for (std::size_t k = 0; k < s->side_names.size() && k < s->side_roles.size(); ++k) {
      std::string& to = s->side_roles[k] == "automated" ? r.automated : r.other;
      std::string name = s->side_names[k];
      if (!name.empty()) name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
      if (("/ " + to + " /").find("/ " + name + " /") == std::string::npos && to != name) to += (to.empty() ? "" : " / ") + name;
    }
  return r;
}

std::vector<svg::Series> role_legend(const RoleNames& names, const std::string& neither) {
  std::vector<svg::Series> l;
  l.push_back({"automated side" + (names.automated.empty() ? std::string() : " (" + names.automated + ")"), svg::role_colour("automated"), {}, {}, {}});
  l.push_back({"other side" + (names.other.empty() ? std::string() : " (" + names.other + ")"), svg::role_colour("other"), {}, {}, {}});
  if (!neither.empty()) l.push_back({neither, svg::role_colour(""), {}, {}, {}});
  return l;
}

}  // namespace vedette::lab::parts
