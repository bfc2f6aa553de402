#include "sims/report/report_parts.hpp"

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

}  // namespace vedette::lab::parts
