#pragma once
// Pieces shared by the sim, compare and sweep reports (not a public API).
#include <string>

#include "sims/report/report.hpp"

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

}  // namespace vedette::lab::parts
