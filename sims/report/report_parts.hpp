#pragma once
// Pieces shared by the sim, compare and sweep reports (not a public API).
#include <string>

#include "sims/report/report.hpp"
#include "sims/report/svg.hpp"

namespace vedette::lab::parts {

std::string thousands(std::int64_t v);
// "53.2% [52.2, 54.2]"
std::string prop_text(const Proportion& p);
// "4.31 ± 0.02"
std::string mean_text(const Mean& m, int decimals = 2);
// The Markdown lines that say what was run (and if it is partial).
std::string run_markdown(const RunInfo& info);
OJson run_json(const RunInfo& info);
// <!DOCTYPE html> ... <body> with the report's style; and the run's header.
std::string html_open(const std::string& title);
std::string html_run(const RunInfo& info);
std::string html_close();
// Every <div class="scroll"><table> of a page made stackable: on a narrow
// screen (CSS in html_open) each row becomes a card, each cell headed by
// its column's header (data-h); on a wide one the table scrolls in its box.
std::string stack_tables(std::string page);

// Compare figures: a p-value ("<0.001"), a signed number ("+1.20"), a
// difference with its interval ("+1.20 pp [0.90, 1.50]"), each side's
// figure, Markdown table cells.
std::string p_text(double p);
std::string signed_number(double v, int decimals);
// A difference of proportions in percentage points: "+3.1 pp".
inline std::string pp(double v) { return signed_number(v * 100, 1) + " pp"; }
std::string diff_text(const CompareRow& r);
std::string base_text(const CompareRow& r);
std::string variant_text(const CompareRow& r);
// Zero in every engagement of both: listed by name, not tabled.
bool both_zero(const CompareRow& r);
std::string zero_list(const Comparison& c);
std::string md_escape(const std::string& s);

// Colours (sims/report/svg.hpp role_colour): outcome k's, by its side's
// role (a draw: neither); and the legend naming each role's sides.
std::string outcome_role(const Schema& s, std::size_t k);
const std::string& outcome_colour(const Schema& s, std::size_t k);
struct RoleNames {
  std::string automated, other;  // side names ("Cavalry", "Cavalry / Raiders")
};
std::vector<svg::Series> role_legend(const RoleNames& names, const std::string& neither);
RoleNames role_names(const std::vector<const Schema*>& schemas);

}  // namespace vedette::lab::parts
