#include "sims/report/svg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "sims/report/report.hpp"

namespace vedette::lab::svg {

namespace {

std::string f1(double v) {
  if (!std::isfinite(v)) v = 0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string esc(const std::string& s) { return html_escape(s); }

std::string open(const std::string& id, const std::string& title, double w, double h) {
  return "<svg class=\"chart\" id=\"" + esc(id) + "\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + f1(w) + " " + f1(h) +
         "\" width=\"" + f1(w) + "\" height=\"" + f1(h) + "\" font-family=\"sans-serif\" font-size=\"12\"><title>" + esc(title) +
         "</title>\n<text x=\"0\" y=\"14\" font-size=\"14\" font-weight=\"bold\">" + esc(title) + "</text>\n";
}

std::string text(double x, double y, const std::string& s, const std::string& extra = "") {
  return "<text x=\"" + f1(x) + "\" y=\"" + f1(y) + "\"" + (extra.empty() ? "" : " " + extra) + ">" + esc(s) + "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, const std::string& stroke, double width = 1, const std::string& extra = "") {
  return "<line x1=\"" + f1(x1) + "\" y1=\"" + f1(y1) + "\" x2=\"" + f1(x2) + "\" y2=\"" + f1(y2) + "\" stroke=\"" + stroke +
         "\" stroke-width=\"" + f1(width) + "\"" + (extra.empty() ? "" : " " + extra) + "/>\n";
}

std::string rect(double x, double y, double w, double h, const std::string& fill, const std::string& tip = "") {
  std::string r = "<rect x=\"" + f1(x) + "\" y=\"" + f1(y) + "\" width=\"" + f1(std::max(0.0, w)) + "\" height=\"" + f1(std::max(0.0, h)) +
                  "\" fill=\"" + fill + "\"";
  if (tip.empty()) return r + "/>\n";
  return r + "><title>" + esc(tip) + "</title></rect>\n";
}

double clamp01(double v) { return std::isfinite(v) ? std::clamp(v, 0.0, 1.0) : 0.0; }

std::string pct_label(double v) { return percent(v, 0); }

// A "nice" upper bound for a count axis and its tick step.
void nice_axis(double max, double& top, double& step) {
  if (max <= 0) max = 1;
  double mag = std::pow(10.0, std::floor(std::log10(max)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    step = m * mag / 4;
    top = step * std::ceil(max / step);
    if (top / step <= 5) return;
  }
}

std::string thousands(double v) {
  auto n = static_cast<long long>(std::llround(v));
  std::string s = std::to_string(n < 0 ? -n : n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return (n < 0 ? "-" : "") + s;
}

std::string legend(double x, double y, const std::vector<Series>& series) {
  std::string o;
  for (const auto& s : series) {
    o += rect(x, y - 10, 12, 12, s.colour);
    o += text(x + 16, y, s.label);
    x += 28 + 7.0 * static_cast<double>(s.label.size());
  }
  return o;
}

}  // namespace

const std::string& colour(std::size_t i) {
  static const std::array<std::string, 8> c{"#2a6fb0", "#c0392b", "#8c8c8c", "#27ae60", "#8e44ad", "#d4a017", "#16a085", "#d35400"};
  return c[i % c.size()];
}

std::string interval_bars(const std::string& id, const std::string& title, const std::vector<Bar>& bars) {
  const double left = 200, plot = 300, row = 28, top = 30;
  const double h = top + row * static_cast<double>(bars.size()) + 30;
  std::string o = open(id, title, 860, h);
  for (int t = 0; t <= 4; ++t) {
    double x = left + plot * t / 4.0;
    o += line(x, top - 4, x, top + row * static_cast<double>(bars.size()), "#ddd");
    o += text(x, h - 12, pct_label(t / 4.0), "text-anchor=\"middle\" fill=\"#555\"");
  }
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const double y = top + row * static_cast<double>(i);
    o += text(left - 8, y + 17, b.label, "text-anchor=\"end\"");
    o += rect(left, y + 5, plot * clamp01(b.value), row - 10, b.colour, b.label + ": " + b.note);
    const double x1 = left + plot * clamp01(b.lo), x2 = left + plot * clamp01(b.hi), ym = y + row / 2;
    o += line(x1, ym, x2, ym, "#111", 1.5);
    o += line(x1, ym - 6, x1, ym + 6, "#111", 1.5);
    o += line(x2, ym - 6, x2, ym + 6, "#111", 1.5);
    o += text(left + plot + 8, y + 17, b.note);
  }
  return o + "</svg>\n";
}

std::string stacked_histogram(const std::string& id, const std::string& title, const std::vector<std::string>& bins,
                              const std::vector<Series>& series, const std::string& x_label) {
  const double left = 60, top = 44, plot_h = 200, plot_w = 560;
  const double w = left + plot_w + 20, h = top + plot_h + 50;
  double max = 0;
  for (std::size_t b = 0; b < bins.size(); ++b) {
    double s = 0;
    for (const auto& se : series) s += b < se.values.size() ? se.values[b] : 0;
    max = std::max(max, s);
  }
  double ytop, step;
  nice_axis(max, ytop, step);
  std::string o = open(id, title, w, h);
  o += legend(left, 34, series);
  for (double v = 0; v <= ytop + step / 2; v += step) {
    const double y = top + plot_h - plot_h * v / ytop;
    o += line(left, y, left + plot_w, y, "#e3e3e3");
    o += text(left - 6, y + 4, thousands(v), "text-anchor=\"end\" fill=\"#555\"");
  }
  const double bw = plot_w / std::max<double>(1.0, static_cast<double>(bins.size()));
  const std::size_t label_every = std::max<std::size_t>(1, (bins.size() + 19) / 20);
  for (std::size_t b = 0; b < bins.size(); ++b) {
    double acc = 0;
    const double x = left + bw * static_cast<double>(b);
    for (const auto& se : series) {
      const double v = b < se.values.size() ? se.values[b] : 0;
      if (v <= 0) continue;
      const double y0 = top + plot_h - plot_h * acc / ytop, hh = plot_h * v / ytop;
      o += rect(x + bw * 0.08, y0 - hh, bw * 0.84, hh, se.colour, x_label + " " + bins[b] + ", " + se.label + ": " + thousands(v));
      acc += v;
    }
    if (b % label_every == 0) o += text(x + bw / 2, top + plot_h + 16, bins[b], "text-anchor=\"middle\" fill=\"#333\"");
  }
  o += line(left, top + plot_h, left + plot_w, top + plot_h, "#333");
  o += text(left + plot_w / 2, h - 8, x_label, "text-anchor=\"middle\"");
  return o + "</svg>\n";
}

std::string heatmap(const std::string& id, const std::string& title, const std::vector<std::string>& rows,
                    const std::vector<std::string>& cols, const std::vector<std::vector<double>>& share,
                    const std::vector<std::vector<std::int64_t>>& counts, const std::vector<std::string>& row_notes) {
  const double left = 110, cw = 74, ch = 40, top = 130;
  const double w = left + cw * static_cast<double>(cols.size()) + 150, h = top + ch * static_cast<double>(rows.size()) + 20;
  std::string o = open(id, title, w, h);
  for (std::size_t c = 0; c < cols.size(); ++c) {
    const double x = left + cw * static_cast<double>(c) + cw / 2, y = top - 8;
    o += "<text x=\"" + f1(x) + "\" y=\"" + f1(y) + "\" transform=\"rotate(-35 " + f1(x) + " " + f1(y) + ")\">" + esc(cols[c]) + "</text>\n";
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const double y = top + ch * static_cast<double>(r);
    o += text(left - 8, y + ch / 2 + 4, rows[r], "text-anchor=\"end\"");
    if (r < row_notes.size()) o += text(left + cw * static_cast<double>(cols.size()) + 8, y + ch / 2 + 4, row_notes[r], "fill=\"#555\"");
    for (std::size_t c = 0; c < cols.size(); ++c) {
      const double x = left + cw * static_cast<double>(c);
      const double p = share[r][c];
      std::string fill = "#f4f4f4";
      std::string ink = "#999";
      if (std::isfinite(p)) {
        // White to deep blue.
        const int R = static_cast<int>(std::lround(255 - p * (255 - 24)));
        const int G = static_cast<int>(std::lround(255 - p * (255 - 82)));
        const int B = static_cast<int>(std::lround(255 - p * (255 - 150)));
        char buf[16];
        std::snprintf(buf, sizeof buf, "#%02x%02x%02x", R, G, B);
        fill = buf;
        ink = p > 0.5 ? "#fff" : "#111";
      }
      o += rect(x + 1, y + 1, cw - 2, ch - 2, fill,
                rows[r] + " / " + cols[c] + ": " + (std::isfinite(p) ? percent(p) : std::string("no decisions")) + " (" +
                    thousands(static_cast<double>(counts[r][c])) + ")");
      if (std::isfinite(p) && counts[r][c] > 0) {
        o += text(x + cw / 2, y + ch / 2, percent(p), "text-anchor=\"middle\" fill=\"" + ink + "\"");
        o += text(x + cw / 2, y + ch / 2 + 13, thousands(static_cast<double>(counts[r][c])), "text-anchor=\"middle\" font-size=\"10\" fill=\"" + ink + "\"");
      }
    }
  }
  return o + "</svg>\n";
}

std::string funnel(const std::string& id, const std::string& title, const std::vector<Stage>& stages) {
  const double left = 190, plot = 300, row = 30, top = 28;
  const double h = top + row * static_cast<double>(stages.size()) + 10;
  std::string o = open(id, title, 700, h);
  const double base = stages.empty() ? 1 : std::max(1.0, stages.front().total);
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const Stage& s = stages[i];
    const double y = top + row * static_cast<double>(i);
    const double indent = 14.0 * s.depth;
    o += text(left - 8, y + 19, s.label, "text-anchor=\"end\"");
    o += rect(left + indent, y + 5, (plot - indent) * std::clamp(s.total / base, 0.0, 1.0), row - 10, colour(static_cast<std::size_t>(s.depth)),
              s.label + ": " + thousands(s.total) + (s.note.empty() ? "" : " (" + s.note + ")"));
    o += text(left + plot + 8, y + 19, thousands(s.total) + (s.note.empty() ? "" : "  " + s.note));
  }
  return o + "</svg>\n";
}

std::string forest(const std::string& id, const std::string& title, const std::vector<Bar>& rows, const std::string& unit) {
  const double left = 240, plot = 300, row = 24, top = 30;
  const double h = top + row * static_cast<double>(rows.size()) + 34;
  double span = 0;
  for (const auto& r : rows)
    for (double v : {r.value, r.lo, r.hi})
      if (std::isfinite(v)) span = std::max(span, std::fabs(v));
  double top_v, step;
  nice_axis(span, top_v, step);
  auto X = [&](double v) { return left + plot / 2 + (plot / 2) * std::clamp(v / top_v, -1.0, 1.0); };
  std::string o = open(id, title, 760, h);
  for (double v = -top_v; v <= top_v + step / 2; v += step) {
    o += line(X(v), top - 4, X(v), top + row * static_cast<double>(rows.size()), std::fabs(v) < step / 2 ? "#555" : "#e3e3e3");
    o += text(X(v), h - 18, number(v, step < 1 ? 2 : 0) + unit, "text-anchor=\"middle\" fill=\"#555\"");
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Bar& r = rows[i];
    const double y = top + row * static_cast<double>(i) + row / 2;
    const std::string c = r.colour.empty() ? "#9a9a9a" : r.colour;
    o += text(left - 8, y + 4, r.label, "text-anchor=\"end\"");
    if (std::isfinite(r.lo) && std::isfinite(r.hi)) o += line(X(r.lo), y, X(r.hi), y, c, 2);
    if (std::isfinite(r.value))
      o += "<circle cx=\"" + f1(X(r.value)) + "\" cy=\"" + f1(y) + "\" r=\"4\" fill=\"" + c + "\"><title>" + esc(r.label + ": " + r.note) + "</title></circle>\n";
    o += text(left + plot + 10, y + 4, r.note, "font-size=\"11\"");
  }
  o += text(left + plot / 2, h - 4, "variant - baseline", "text-anchor=\"middle\" fill=\"#333\"");
  return o + "</svg>\n";
}

std::string lines(const std::string& id, const std::string& title, const std::vector<std::string>& x,
                  const std::vector<Series>& series, const std::string& x_label) {
  const double left = 60, top = 44, plot_h = 220, plot_w = 540;
  const double w = left + plot_w + 30, h = top + plot_h + 50;
  std::string o = open(id, title, w, h);
  o += legend(left, 34, series);
  for (int t = 0; t <= 4; ++t) {
    const double y = top + plot_h - plot_h * t / 4.0;
    o += line(left, y, left + plot_w, y, "#e3e3e3");
    o += text(left - 6, y + 4, pct_label(t / 4.0), "text-anchor=\"end\" fill=\"#555\"");
  }
  const std::size_t n = x.size();
  auto X = [&](std::size_t i) { return left + (n <= 1 ? plot_w / 2 : plot_w * static_cast<double>(i) / static_cast<double>(n - 1)); };
  auto Y = [&](double p) { return top + plot_h - plot_h * clamp01(p); };
  for (std::size_t i = 0; i < n; ++i) o += text(X(i), top + plot_h + 16, x[i], "text-anchor=\"middle\"");
  for (std::size_t s = 0; s < series.size(); ++s) {
    const Series& se = series[s];
    std::string pts;
    for (std::size_t i = 0; i < n && i < se.values.size(); ++i) pts += (i ? " " : "") + f1(X(i)) + "," + f1(Y(se.values[i]));
    if (n > 1) o += "<polyline fill=\"none\" stroke=\"" + se.colour + "\" stroke-width=\"2\" points=\"" + pts + "\"/>\n";
    for (std::size_t i = 0; i < n && i < se.values.size(); ++i) {
      if (i < se.lo.size() && i < se.hi.size()) {
        o += line(X(i), Y(se.lo[i]), X(i), Y(se.hi[i]), se.colour, 1.5);
        o += line(X(i) - 4, Y(se.lo[i]), X(i) + 4, Y(se.lo[i]), se.colour, 1.5);
        o += line(X(i) - 4, Y(se.hi[i]), X(i) + 4, Y(se.hi[i]), se.colour, 1.5);
      }
      o += "<circle cx=\"" + f1(X(i)) + "\" cy=\"" + f1(Y(se.values[i])) + "\" r=\"3.5\" fill=\"" + se.colour + "\"><title>" +
           esc(se.label + " at " + x[i] + ": " + percent(se.values[i])) + "</title></circle>\n";
    }
  }
  o += line(left, top + plot_h, left + plot_w, top + plot_h, "#333");
  o += text(left + plot_w / 2, h - 8, x_label, "text-anchor=\"middle\"");
  return o + "</svg>\n";
}

}  // namespace vedette::lab::svg
