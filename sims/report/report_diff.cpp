// What a house rule changes against its base, as text, Markdown, HTML and
// JSON: `vedette table --diff`, and the head of the compare report (and of
// any other report about a rule: one function each, shared).
#include <algorithm>
#include <filesystem>

#include "sims/report/report.hpp"

namespace vedette::lab {

namespace {

constexpr std::size_t k_longest = 60;  // longer values are cut, with "..."

std::string cut(const std::string& s) {
  if (s.size() <= k_longest) return s;
  std::size_t n = k_longest - 3;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // not inside a UTF-8 character
  return s.substr(0, n) + "...";
}

std::string side(const std::optional<std::string>& v) { return v ? cut(*v) : "(absent)"; }

std::string where_text(const Location& l) {
  if (l.file.empty()) return "";
  const std::string f = l.file.rfind("builtin:", 0) == 0 ? l.file : std::filesystem::path(l.file).filename().string();
  return l.line > 0 ? f + ":" + std::to_string(l.line) : f;
}

std::string title(const RulesetDiff& d) {
  if (d.base.empty()) return d.variant + " extends nothing: it is a whole ruleset, not an overlay";
  return d.variant + " against " + d.base + ": " + std::to_string(d.changes.size()) + (d.changes.size() == 1 ? " change" : " changes");
}

std::string md_cell(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '|' ? std::string("\\|") : std::string(1, c);
  return o;
}

}  // namespace

std::string rule_diff_text(const RulesetDiff& d) {
  std::string o = title(d) + "\n";
  std::size_t w = 0;
  for (const auto& c : d.changes) w = std::max(w, c.path.size());
  for (const auto& c : d.changes) {
    std::string line = "  " + c.path + std::string(w - c.path.size() + 2, ' ') + side(c.before) + " -> " + side(c.after);
    if (const std::string at = where_text(c.where); !at.empty()) line += "   (" + at + ")";
    o += line + "\n";
  }
  if (!d.base.empty() && d.changes.empty()) o += "  (no setting differs)\n";
  return o;
}

std::string rule_diff_markdown(const RulesetDiff& d) {
  std::string o = "## The rule\n\n" + md_cell(title(d)) + ".\n\n";
  if (d.changes.empty()) return o;
  o += "| setting | base | this rule | written at |\n| --- | --- | --- | --- |\n";
  for (const auto& c : d.changes)
    o += "| `" + md_cell(c.path) + "` | " + md_cell(side(c.before)) + " | " + md_cell(side(c.after)) + " | " + md_cell(where_text(c.where)) + " |\n";
  return o + "\n";
}

std::string rule_diff_html(const RulesetDiff& d) {
  std::string o = "<h2>The rule</h2>\n<p>" + html_escape(title(d)) + ".</p>\n";
  if (d.changes.empty()) return o;
  o += "<div class=\"scroll\"><table class=\"diff\">\n<tr><th>setting</th><th>base</th><th>this rule</th><th>written at</th></tr>\n";
  for (const auto& c : d.changes)
    o += "<tr><td><code>" + html_escape(c.path) + "</code></td><td>" + html_escape(side(c.before)) + "</td><td>" + html_escape(side(c.after)) +
         "</td><td>" + html_escape(where_text(c.where)) + "</td></tr>\n";
  return o + "</table></div>\n";
}

OJson rule_diff_json(const RulesetDiff& d) {
  OJson j{{"base", d.base.empty() ? OJson(nullptr) : OJson(d.base)}, {"variant", d.variant}, {"changes", OJson::array()}};
  for (const auto& c : d.changes)
    j["changes"].push_back(OJson{{"path", c.path},
                                 {"before", c.before ? OJson(*c.before) : OJson(nullptr)},
                                 {"after", c.after ? OJson(*c.after) : OJson(nullptr)},
                                 {"file", c.where.file},
                                 {"line", c.where.line},
                                 {"column", c.where.column}});
  return j;
}

}  // namespace vedette::lab
