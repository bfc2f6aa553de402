#pragma once
// Charts as inline SVG text for report.html: no scripts, no external files,
// so a report opens offline in any browser and prints as drawn. Each chart
// is an <svg class="chart" id=ID role="img"> with a <title>; coordinates are
// printed with fixed decimals so the same figures give the same bytes.
#include <cstdint>
#include <string>
#include <vector>

namespace vedette::lab::svg {

// Colours for series, in order. colour(0) is blue, colour(1) red,
// colour(2) ochre: the colours of the roles (role_colour); none is grey.
const std::string& colour(std::size_t i);

// One meaning per colour in every report: blue the automated side, red the
// other side (a side's `role:`, sims/scenarios/README.md), ochre neither
// (draws, turns); grey (k_grey) a difference within chance.
const std::string& role_colour(const std::string& role);
inline constexpr const char* k_grey = "#9a9a9a";

struct Series {
  std::string label;
  std::string colour;
  std::vector<double> values;  // one per bin / x position
  std::vector<double> lo, hi;  // intervals (lines chart only)
};

// One horizontal bar (or, in a forest plot, one point) with its interval.
struct Bar {
  std::string label;
  double value = 0;
  double lo = 0, hi = 0;
  std::string colour;
  std::string note;  // printed to the right
};
// Probabilities (0..1) as bars on a 0-100% axis with interval whiskers;
// `legend`: what each colour means.
std::string interval_bars(const std::string& id, const std::string& title, const std::vector<Bar>& bars, const std::vector<Series>& legend = {});

// Counts per bin, stacked by series (e.g. turns split by winner).
std::string stacked_histogram(const std::string& id, const std::string& title, const std::vector<std::string>& bins,
                              const std::vector<Series>& series, const std::string& x_label);

// Shares (0..1, NaN for none) in a rows x cols grid, shaded, with the share
// and the count written in each cell.
std::string heatmap(const std::string& id, const std::string& title, const std::vector<std::string>& rows,
                    const std::vector<std::string>& cols, const std::vector<std::vector<double>>& share,
                    const std::vector<std::vector<std::int64_t>>& counts, const std::vector<std::string>& row_notes);

struct Stage {
  std::string label;
  double total = 0;
  std::string note;
  int depth = 0;
};
// Stages as bars proportional to the first stage's total.
// A stage of depth d is a part of the stage d-1 above it, drawn set in
// under it; `fill`: the bars' colour (the side's, role_colour).
std::string funnel(const std::string& id, const std::string& title, const std::vector<Stage>& stages, const std::string& fill);

// Estimates with intervals around a zero line (paired differences). Bars
// with `colour` empty are drawn grey (not a real difference). The axis is
// scaled to the coloured (real) rows; a grey interval far beyond them is
// clipped at the edge with an arrow.
// `legend`: what each colour means (a series' label and colour); "within
// chance" in grey is always added.
std::string forest(const std::string& id, const std::string& title, const std::vector<Bar>& rows, const std::string& unit,
                   const std::vector<Series>& legend = {});

// Probabilities (0..1) over x positions, one series of points with interval
// whiskers each, joined by a line when `connect` (numbers; categorical
// values stay points) (sweeps).
std::string lines(const std::string& id, const std::string& title, const std::vector<std::string>& x,
                  const std::vector<Series>& series, const std::string& x_label, bool connect = true);

}  // namespace vedette::lab::svg
