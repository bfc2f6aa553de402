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

std::size_t glyphs(const std::string& s);

std::string open(const std::string& id, const std::string& title, double w_, double h) {
  // Wide enough for the title (14 px bold: about 8.6 px a character).
  const double w = std::max(w_, 8.6 * static_cast<double>(glyphs(title)) + 4);
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

// Rough glyph widths at the charts' font sizes (12 and 11 px sans-serif),
// for laying out labels; generous, so text fits.
constexpr double k_char = 7.0, k_char_small = 6.4;

// Characters (not bytes) of UTF-8 text.
std::size_t glyphs(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// At most `chars` characters, the last one an ellipsis when cut.
std::string cut(const std::string& s, std::size_t chars) {
  if (glyphs(s) <= chars || chars < 2) return s;
  std::size_t n = 0, i = 0;
  for (; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && n++ == chars - 1) break;
  return s.substr(0, i) + "\u2026";
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
  // Column names stand upright (rotated a quarter turn, so neighbours never
  // overlap); the margins are as wide as the longest names and notes.
  std::size_t col_chars = 4, row_chars = 4, note_chars = 0;
  for (const auto& c : cols) col_chars = std::max(col_chars, glyphs(c));
  for (const auto& r : rows) row_chars = std::max(row_chars, glyphs(r));
  for (const auto& n : row_notes) note_chars = std::max(note_chars, glyphs(n));
  const double cw = 74, ch = 40, left = 16 + k_char * static_cast<double>(row_chars), top = 34 + k_char * static_cast<double>(col_chars);
  const double w = std::max(left + cw * static_cast<double>(cols.size()) + 16 + k_char * static_cast<double>(note_chars),
                            k_char * static_cast<double>(glyphs(title)) + 10);
  const double h = top + ch * static_cast<double>(rows.size()) + 20;
  std::string o = open(id, title, w, h);
  for (std::size_t c = 0; c < cols.size(); ++c) {
    const double x = left + cw * static_cast<double>(c) + cw / 2 + 4, y = top - 8;
    o += "<text x=\"" + f1(x) + "\" y=\"" + f1(y) + "\" transform=\"rotate(-90 " + f1(x) + " " + f1(y) + ")\">" + esc(cols[c]) + "</text>\n";
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
  // The margins are as wide as the longest stage name and note.
  std::size_t label_chars = 4, note_chars = 0;
  for (const auto& s : stages) {
    label_chars = std::max(label_chars, glyphs(s.label));
    note_chars = std::max(note_chars, glyphs(thousands(s.total)) + 2 + glyphs(s.note));
  }
  const double left = 16 + k_char * static_cast<double>(label_chars), plot = 300, row = 30, top = 28;
  const double h = top + row * static_cast<double>(stages.size()) + 10;
  std::string o = open(id, title, std::max(left + plot + 16 + k_char * static_cast<double>(note_chars), k_char * static_cast<double>(glyphs(title)) + 10), h);
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
  // Labels get the room their longest needs (up to a limit; longer ones
  // are cut, whole in the tooltip), notes the room on the right.
  std::size_t longest = 0, note = 0;
  for (const auto& r : rows) {
    longest = std::max(longest, glyphs(r.label));
    note = std::max(note, glyphs(r.note));
  }
  const std::size_t label_chars = std::min<std::size_t>(longest, 44);
  const double left = 16 + k_char * static_cast<double>(std::max<std::size_t>(label_chars, 8)), plot = 300, row = 24, top = 30;
  const double w = left + plot + 16 + k_char_small * static_cast<double>(note);
  const double h = top + row * static_cast<double>(rows.size()) + 40;
  // The axis is scaled to the real differences (and to every estimate near
  // them): an interval within chance that runs far past them is clipped,
  // and ends in an arrow, instead of squashing the rest.
  double span = 0, span_real = 0;
  for (const auto& r : rows)
    for (double v : {r.value, r.lo, r.hi})
      if (std::isfinite(v)) {
        span = std::max(span, std::fabs(v));
        if (!r.colour.empty()) span_real = std::max(span_real, std::fabs(v));
      }
  if (span_real > 0) {
    double points = span_real;
    for (const auto& r : rows)
      if (std::isfinite(r.value) && std::fabs(r.value) <= 3 * span_real) points = std::max(points, std::fabs(r.value));
    span = std::min(span, points * 1.1);
  }
  double top_v, step;
  nice_axis(span, top_v, step);
  auto X = [&](double v) { return left + plot / 2 + (plot / 2) * std::clamp(v / top_v, -1.0, 1.0); };
  std::string o = open(id, title, std::max(w, 420.0), h);
  for (double v = -top_v; v <= top_v + step / 2; v += step) {
    o += line(X(v), top - 4, X(v), top + row * static_cast<double>(rows.size()), std::fabs(v) < step / 2 ? "#555" : "#e3e3e3");
  }
  // Tick labels at the ends and at zero only: they never run into each other.
  const int dec = step < 0.1 ? 3 : step < 1 ? 2 : 0;
  for (double v : {-top_v, 0.0, top_v})
    o += text(X(v), h - 22, (v > 0 ? "+" : "") + number(v, v == 0 ? 0 : dec) + unit,
              std::string("text-anchor=\"") + (v < 0 ? "start" : v > 0 ? "end" : "middle") + "\" fill=\"#555\"");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Bar& r = rows[i];
    const double y = top + row * static_cast<double>(i) + row / 2;
    const std::string c = r.colour.empty() ? "#9a9a9a" : r.colour;
    o += "<text x=\"" + f1(left - 8) + "\" y=\"" + f1(y + 4) + "\" text-anchor=\"end\"><title>" + esc(r.label) + "</title>" + esc(cut(r.label, label_chars)) +
         "</text>\n";
    if (std::isfinite(r.lo) && std::isfinite(r.hi)) {
      o += line(X(r.lo), y, X(r.hi), y, c, 2);
      // Clipped ends: an arrow head at the axis's edge.
      if (r.lo < -top_v) o += "<path d=\"M" + f1(X(-top_v)) + " " + f1(y) + " l6 -4 v8 z\" fill=\"" + c + "\"/>\n";
      if (r.hi > top_v) o += "<path d=\"M" + f1(X(top_v)) + " " + f1(y) + " l-6 -4 v8 z\" fill=\"" + c + "\"/>\n";
    }
    if (std::isfinite(r.value))
      o += "<circle cx=\"" + f1(X(r.value)) + "\" cy=\"" + f1(y) + "\" r=\"4\" fill=\"" + c + "\"><title>" + esc(r.label + ": " + r.note) + "</title></circle>\n";
    o += text(left + plot + 10, y + 4, r.note, "font-size=\"11\"");
  }
  o += text(left + plot / 2, h - 4, "variant - baseline", "text-anchor=\"middle\" fill=\"#333\"");
  return o + "</svg>\n";
}

std::string lines(const std::string& id, const std::string& title, const std::vector<std::string>& x,
                  const std::vector<Series>& series, const std::string& x_label, bool connect) {
  const double left = 60, top = 44, plot_h = 220;
  const std::size_t n = x.size();
  // Room for each value's label under its point.
  std::size_t widest = 1;
  for (const auto& v : x) widest = std::max(widest, glyphs(v));
  const double slot = std::max(60.0, k_char * static_cast<double>(std::min<std::size_t>(widest, 24)) + 12);
  const double plot_w = std::max(540.0, slot * static_cast<double>(n));
  double legend_w = 0;
  for (const auto& s : series) legend_w += 28 + 7.0 * static_cast<double>(s.label.size());
  const double w = std::max(left + plot_w + 30, left + legend_w + 10), h = top + plot_h + 50;
  std::string o = open(id, title, w, h);
  o += legend(left, 34, series);
  for (int t = 0; t <= 4; ++t) {
    const double y = top + plot_h - plot_h * t / 4.0;
    o += line(left, y, left + plot_w, y, "#e3e3e3");
    o += text(left - 6, y + 4, pct_label(t / 4.0), "text-anchor=\"end\" fill=\"#555\"");
  }
  // Values sit in the middle of equal slots; series are set side by side
  // within a slot so their whiskers do not hide each other.
  const double slot_w = plot_w / static_cast<double>(std::max<std::size_t>(n, 1));
  auto X = [&](std::size_t i) { return left + slot_w * (static_cast<double>(i) + 0.5); };
  const double dodge = std::min(8.0, slot_w / (2.0 * static_cast<double>(series.size() + 1)));
  auto XS = [&](std::size_t i, std::size_t s) {
    return X(i) + dodge * (static_cast<double>(s) - static_cast<double>(series.size() - 1) / 2.0);
  };
  auto Y = [&](double p) { return top + plot_h - plot_h * clamp01(p); };
  const std::size_t label_chars = std::min<std::size_t>(widest, 24);
  for (std::size_t i = 0; i < n; ++i)
    o += "<text x=\"" + f1(X(i)) + "\" y=\"" + f1(top + plot_h + 16) + "\" text-anchor=\"middle\"><title>" + esc(x[i]) + "</title>" +
         esc(cut(x[i], label_chars)) + "</text>\n";
  for (std::size_t s = 0; s < series.size(); ++s) {
    const Series& se = series[s];
    std::string pts;
    for (std::size_t i = 0; i < n && i < se.values.size(); ++i) pts += (i ? " " : "") + f1(XS(i, s)) + "," + f1(Y(se.values[i]));
    // A line only between numbers: categorical values are points.
    if (connect && n > 1) o += "<polyline fill=\"none\" stroke=\"" + se.colour + "\" stroke-width=\"2\" points=\"" + pts + "\"/>\n";
    for (std::size_t i = 0; i < n && i < se.values.size(); ++i) {
      if (i < se.lo.size() && i < se.hi.size()) {
        o += line(XS(i, s), Y(se.lo[i]), XS(i, s), Y(se.hi[i]), se.colour, 1.5);
        o += line(XS(i, s) - 3, Y(se.lo[i]), XS(i, s) + 3, Y(se.lo[i]), se.colour, 1.5);
        o += line(XS(i, s) - 3, Y(se.hi[i]), XS(i, s) + 3, Y(se.hi[i]), se.colour, 1.5);
      }
      o += "<circle cx=\"" + f1(XS(i, s)) + "\" cy=\"" + f1(Y(se.values[i])) + "\" r=\"" + (connect ? "3.5" : "4.5") + "\" fill=\"" + se.colour +
           "\"><title>" + esc(se.label + " at " + x[i] + ": " + percent(se.values[i])) + "</title></circle>\n";
    }
  }
  o += line(left, top + plot_h, left + plot_w, top + plot_h, "#333");
  o += text(left + plot_w / 2, h - 8, x_label, "text-anchor=\"middle\"");
  return o + "</svg>\n";
}

}  // namespace vedette::lab::svg
