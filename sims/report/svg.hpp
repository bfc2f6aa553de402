#pragma once
// Charts as inline SVG text for report.html: no scripts, no external files,
// so a report opens offline in any browser and prints as drawn. Each chart
// is an <svg class="chart" id=ID role="img"> with a <title>; coordinates are
// printed with fixed decimals so the same figures give the same bytes.
#include <cstdint>
#include <string>
#include <vector>

namespace vedette::lab::svg {

// Colours for outcome categories and series, in order.
const std::string& colour(std::size_t i);

// One horizontal bar (or, in a forest plot, one point) with its interval.
struct Bar {
  std::string label;
  double value = 0;
  double lo = 0, hi = 0;
  std::string colour;
  std::string note;  // printed to the right
};
// Probabilities (0..1) as bars on a 0-100% axis with interval whiskers.
std::string interval_bars(const std::string& id, const std::string& title, const std::vector<Bar>& bars);

struct Series {
  std::string label;
  std::string colour;
  std::vector<double> values;  // one per bin / x position
  std::vector<double> lo, hi;  // intervals (lines chart only)
};
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
std::string funnel(const std::string& id, const std::string& title, const std::vector<Stage>& stages);

// Estimates with intervals around a zero line (paired differences). Bars
// with `colour` empty are drawn grey (not a real difference). The axis is
// scaled to the coloured (real) rows; a grey interval far beyond them is
// clipped at the edge with an arrow.
std::string forest(const std::string& id, const std::string& title, const std::vector<Bar>& rows, const std::string& unit);

// Probabilities (0..1) over x positions, one series of points with interval
// whiskers each, joined by a line when `connect` (numbers; categorical
// values stay points) (sweeps).
std::string lines(const std::string& id, const std::string& title, const std::vector<std::string>& x,
                  const std::vector<Series>& series, const std::string& x_label, bool connect = true);

}  // namespace vedette::lab::svg
