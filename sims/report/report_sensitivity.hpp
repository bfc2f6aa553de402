#pragma once
// The reports of `vedette sensitivity` (Markdown, summary.json, report.html
// with a tornado chart) and of `vedette calibrate` (Markdown, JSON).
#include <string>

#include "sims/lab/calibrate.hpp"
#include "sims/lab/sensitivity.hpp"
#include "sims/report/report.hpp"

namespace vedette::lab {

// `top`: effects shown in the Markdown table and the tornado chart.
// `rule`: what the ruleset studied changes against its base, when it is an
// overlay (diff_overlay); the reports start with it.
std::string sensitivity_markdown(const RunInfo& info, const Sensitivity& s, const std::string& report_path, std::size_t top = 15,
                                 const RulesetDiff* rule = nullptr);
OJson sensitivity_json(const RunInfo& info, const Sensitivity& s, const RulesetDiff* rule = nullptr);
std::string sensitivity_html(const RunInfo& info, const Sensitivity& s, std::size_t top = 25, const RulesetDiff* rule = nullptr);
// The tornado chart alone: for `outcome`, the `top` settings with the
// largest effect, each change a bar from zero with its 95% interval.
std::string tornado_svg(const Sensitivity& s, std::size_t outcome, std::size_t top);

std::string calibrate_markdown(const CalibrateResult& c);
OJson calibrate_json(const CalibrateResult& c);

}  // namespace vedette::lab
