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

// Every chart is drawn this wide: on a phone (390 px, less the page's
// margins) it is shown at about its own size, so 12 px text stays 11 px or
// more; on a desktop it keeps that size (docs/balance-lab.md).
constexpr double k_width = 368;

// A title's lines (14 px bold: about 8.6 px a character), cut at spaces.
std::vector<std::string> title_lines(const std::string& title) {
  const std::size_t chars = static_cast<std::size_t>(k_width / 8.6);
  std::vector<std::string> lines;
  std::string line, word;
  auto flush_word = [&] {
    if (word.empty()) return;
    if (!line.empty() && glyphs(line) + 1 + glyphs(word) > chars) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    word.clear();
  };
  for (char c : title) {
    if (c == ' ') flush_word();
    else word += c;
  }
  flush_word();
  if (!line.empty()) lines.push_back(line);
  return lines;
}

// The height the title takes (its lines, then a gap).
double title_h(const std::string& title) { return 18.0 * static_cast<double>(std::max<std::size_t>(1, title_lines(title).size())) + 4; }

std::string open(const std::string& id, const std::string& title, double w, double h) {
  std::string o = "<svg class=\"chart\" id=\"" + esc(id) + "\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + f1(w) + " " + f1(h) +
                  "\" width=\"" + f1(w) + "\" height=\"" + f1(h) + "\" font-family=\"sans-serif\" font-size=\"12\"><title>" + esc(title) + "</title>\n";
  double y = 14;
  for (const auto& l : title_lines(title)) {
    o += "<text x=\"1\" y=\"" + f1(y) + "\" font-size=\"14\" font-weight=\"bold\">" + esc(l) + "</text>\n";
    y += 18;
  }
  return o;
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

// The legend: a swatch and a label per series, as many on a line as fit
// in k_width; `y` is the first line's baseline and ends below the last.
std::string legend(double& y, const std::vector<Series>& series) {
  std::string o;
  double x = 0;
  for (const auto& s : series) {
    const double w = 22 + k_char * static_cast<double>(glyphs(s.label));
    if (x > 0 && x + w > k_width) {
      x = 0;
      y += 16;
    }
    o += rect(x, y - 10, 12, 12, s.colour);
    o += text(x + 16, y, s.label);
    x += w + 10;
  }
  y += 16;
  return o;
}

// How tall legend() draws `series`.
double legend_h(const std::vector<Series>& series) {
  if (series.empty()) return 0;
  double y = 0;
  legend(y, series);
  return y;
}

}  // namespace

const std::string& colour(std::size_t i) {
  // No grey: grey means "within chance" (k_grey).
  static const std::array<std::string, 8> c{"#2a6fb0", "#c0392b", "#a8761c", "#27ae60", "#8e44ad", "#16a085", "#d35400", "#5d6d7e"};
  return c[i % c.size()];
}

const std::string& role_colour(const std::string& role) {
  return role == "automated" ? colour(0) : role == "other" ? colour(1) : colour(2);
}

std::string interval_bars(const std::string& id, const std::string& title, const std::vector<Bar>& bars, const std::vector<Series>& key) {
  // Each bar under its label, the estimate (and its interval) at the
  // label's right; the axis runs the chart's whole width.
  const double row = 40, top = title_h(title) + legend_h(key) + 4, plot = k_width - 8;
  const double h = top + row * static_cast<double>(bars.size()) + 22;
  std::string o = open(id, title, k_width, h);
  double ly = title_h(title) + 10;
  if (!key.empty()) o += legend(ly, key);
  for (int t = 0; t <= 4; ++t) {
    const double x = 4 + plot * t / 4.0;
    o += line(x, top, x, top + row * static_cast<double>(bars.size()), "#ddd");
    o += text(x, h - 6, pct_label(t / 4.0), std::string("text-anchor=\"") + (t == 0 ? "start" : t == 4 ? "end" : "middle") + "\" fill=\"#555\"");
  }
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const double y = top + row * static_cast<double>(i);
    const std::string note = b.note.substr(0, b.note.find(" ("));  // the count stays in the tooltip
    o += text(1, y + 13, cut(b.label, 30));
    o += text(k_width, y + 13, note, "text-anchor=\"end\" font-size=\"11\" fill=\"#333\"");
    o += rect(4, y + 18, plot * clamp01(b.value), 14, b.colour, b.label + ": " + b.note);
    const double x1 = 4 + plot * clamp01(b.lo), x2 = 4 + plot * clamp01(b.hi), ym = y + 25;
    o += line(x1, ym, x2, ym, "#111", 1.5);
    o += line(x1, ym - 5, x1, ym + 5, "#111", 1.5);
    o += line(x2, ym - 5, x2, ym + 5, "#111", 1.5);
  }
  return o + "</svg>\n";
}

std::string stacked_histogram(const std::string& id, const std::string& title, const std::vector<std::string>& bins,
                              const std::vector<Series>& series, const std::string& x_label) {
  const double left = 52, plot_h = 160, plot_w = k_width - left - 6;
  const double top = title_h(title) + legend_h(series) + 10;
  const double w = k_width, h = top + plot_h + 40;
  double max = 0;
  for (std::size_t b = 0; b < bins.size(); ++b) {
    double s = 0;
    for (const auto& se : series) s += b < se.values.size() ? se.values[b] : 0;
    max = std::max(max, s);
  }
  double ytop, step;
  nice_axis(max, ytop, step);
  std::string o = open(id, title, w, h);
  double ly = title_h(title) + 10;
  o += legend(ly, series);
  for (double v = 0; v <= ytop + step / 2; v += step) {
    const double y = top + plot_h - plot_h * v / ytop;
    o += line(left, y, left + plot_w, y, "#e3e3e3");
    o += text(left - 6, y + 4, thousands(v), "text-anchor=\"end\" fill=\"#555\"");
  }
  const double bw = plot_w / std::max<double>(1.0, static_cast<double>(bins.size()));
  // Bin labels far enough apart not to meet.
  std::size_t widest = 1;
  for (const auto& b : bins) widest = std::max(widest, glyphs(b));
  const std::size_t label_every =
      std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil((k_char * static_cast<double>(widest) + 6) / std::max(1.0, bw))));
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
  o += text(left + plot_w / 2, h - 6, cut(x_label, 50), "text-anchor=\"middle\"");
  return o + "</svg>\n";
}

std::string heatmap(const std::string& id, const std::string& title, const std::vector<std::string>& rows,
                    const std::vector<std::string>& cols, const std::vector<std::vector<double>>& share,
                    const std::vector<std::vector<std::int64_t>>& counts, const std::vector<std::string>& row_notes) {
  // Narrow: the rows (bands) run across as columns, each headed by its name
  // and note; each column (behaviour) is a line of cells under its own
  // name, written whole across the chart.
  const std::size_t n = std::max<std::size_t>(1, rows.size());
  const std::vector<Series> key{{"0%", "#eeeeee", {}, {}, {}}, {"50%", "#8ca9c5", {}, {}, {}}, {"100% of the band's decisions", "#185296", {}, {}, {}}};
  const double cw = k_width / static_cast<double>(n), ch = 36, name_h = 16;
  const double head = title_h(title) + legend_h(key) + 34;
  const double h = head + (name_h + ch) * static_cast<double>(cols.size()) + 6;
  std::string o = open(id, title, k_width, h);
  double ly = title_h(title) + 10;
  o += legend(ly, key);
  const std::size_t head_chars = static_cast<std::size_t>(std::max(3.0, (cw - 4) / k_char_small));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const double x = cw * static_cast<double>(r) + cw / 2;
    o += "<text x=\"" + f1(x) + "\" y=\"" + f1(head - 20) + "\" text-anchor=\"middle\" font-weight=\"bold\"><title>" + esc(rows[r]) + "</title>" +
         esc(cut(rows[r], head_chars)) + "</text>\n";
    if (r < row_notes.size()) {
      // "146,923 decisions": the number, the word in the tooltip.
      const std::string note = row_notes[r].substr(0, row_notes[r].find(' '));
      o += "<text x=\"" + f1(x) + "\" y=\"" + f1(head - 6) + "\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555\"><title>" + esc(row_notes[r]) +
           "</title>" + esc(cut(note, head_chars)) + "</text>\n";
    }
  }
  for (std::size_t c = 0; c < cols.size(); ++c) {
    const double y = head + (name_h + ch) * static_cast<double>(c);
    o += "<text x=\"1\" y=\"" + f1(y + 12) + "\"><title>" + esc(cols[c]) + "</title>" + esc(cut(cols[c], static_cast<std::size_t>(k_width / k_char))) +
         "</text>\n";
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const double x = cw * static_cast<double>(r), yc = y + name_h;
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
      o += rect(x + 1, yc + 1, cw - 2, ch - 2, fill,
                rows[r] + " / " + cols[c] + ": " + (std::isfinite(p) ? percent(p) : std::string("no decisions")) + " (" +
                    thousands(static_cast<double>(counts[r][c])) + ")");
      if (std::isfinite(p) && counts[r][c] > 0) {
        o += text(x + cw / 2, yc + 15, percent(p), "text-anchor=\"middle\" fill=\"" + ink + "\"");
        o += text(x + cw / 2, yc + 29, thousands(static_cast<double>(counts[r][c])), "text-anchor=\"middle\" font-size=\"11\" fill=\"" + ink + "\"");
      }
    }
  }
  return o + "</svg>\n";
}

std::string funnel(const std::string& id, const std::string& title, const std::vector<Stage>& stages, const std::string& fill) {
  // Each stage: its name and total, its share of the stage it is a part of,
  // and a bar (to the first stage's scale) set in under its parent, a line
  // joining it to the parent's bar: "repulsed" sits inside "stood".
  const std::vector<Series> key{{"charges, to the first stage's scale", fill, {}, {}, {}}, {"set in: a part of the stage above", "#888888", {}, {}, {}}};
  const double row = 44, top = title_h(title) + legend_h(key) + 6, indent_step = 16;
  const double h = top + row * static_cast<double>(stages.size()) + 6;
  std::string o = open(id, title, k_width, h);
  double ly = title_h(title) + 10;
  o += legend(ly, key);
  const double base = stages.empty() ? 1 : std::max(1.0, stages.front().total);
  std::vector<double> bar_y(stages.size(), 0);
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const Stage& s = stages[i];
    const double y = top + row * static_cast<double>(i);
    const double indent = indent_step * s.depth, plot = k_width - indent - 2;
    o += text(indent + 1, y + 12, cut(s.label, static_cast<std::size_t>((k_width - indent) / k_char) - 10) + ": " + thousands(s.total), "font-weight=\"bold\"");
    if (!s.note.empty()) o += text(indent + 1, y + 26, cut(s.note, static_cast<std::size_t>((k_width - indent) / k_char_small)), "font-size=\"11\" fill=\"#444\"");
    bar_y[i] = y + 30;
    o += rect(indent, y + 30, plot * std::clamp(s.total / base, 0.0, 1.0), 10, fill,
              s.label + ": " + thousands(s.total) + (s.note.empty() ? "" : " (" + s.note + ")"));
    if (s.depth > 0)
      o += line(indent - indent_step / 2, y + 2, indent - indent_step / 2, y + 35, "#888") + line(indent - indent_step / 2, y + 35, indent, y + 35, "#888");
  }
  return o + "</svg>\n";
}

std::string forest(const std::string& id, const std::string& title, const std::vector<Bar>& rows, const std::string& unit,
                   const std::vector<Series>& key_) {
  std::vector<Series> key = key_;
  key.push_back({"within chance", k_grey, {}, {}, {}});
  // Each row: its label, its estimate and interval in words, then the
  // point and its interval on an axis the chart's width.
  const double row = 46, top = title_h(title) + legend_h(key) + 6, plot = k_width - 12;
  const double h = top + row * static_cast<double>(rows.size()) + 34;
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
  auto X = [&](double v) { return 6 + plot / 2 + (plot / 2) * std::clamp(v / top_v, -1.0, 1.0); };
  std::string o = open(id, title, k_width, h);
  double ly = title_h(title) + 10;
  o += legend(ly, key);
  const double bottom = top + row * static_cast<double>(rows.size());
  for (double v = -top_v; v <= top_v + step / 2; v += step) o += line(X(v), top, X(v), bottom, std::fabs(v) < step / 2 ? "#555" : "#e3e3e3");
  // Tick labels at the ends and at zero only: they never run into each other.
  const int dec = step < 0.1 ? 3 : step < 1 ? 2 : 0;
  for (double v : {-top_v, 0.0, top_v})
    o += text(X(v), bottom + 14, (v > 0 ? "+" : "") + number(v, v == 0 ? 0 : dec) + unit,
              std::string("text-anchor=\"") + (v < 0 ? "start" : v > 0 ? "end" : "middle") + "\" fill=\"#555\"");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Bar& r = rows[i];
    const double y = top + row * static_cast<double>(i);
    const std::string c = r.colour.empty() ? k_grey : r.colour;
    o += "<text x=\"1\" y=\"" + f1(y + 12) + "\"><title>" + esc(r.label) + "</title>" + esc(cut(r.label, static_cast<std::size_t>(k_width / k_char))) +
         "</text>\n";
    o += text(1, y + 26, cut(r.note, static_cast<std::size_t>(k_width / k_char_small)), "font-size=\"11\" fill=\"#444\"");
    const double ym = y + 37;
    if (std::isfinite(r.lo) && std::isfinite(r.hi)) {
      o += line(X(r.lo), ym, X(r.hi), ym, c, 2);
      // Clipped ends: an arrow head at the axis's edge.
      if (r.lo < -top_v) o += "<path d=\"M" + f1(X(-top_v)) + " " + f1(ym) + " l6 -4 v8 z\" fill=\"" + c + "\"/>\n";
      if (r.hi > top_v) o += "<path d=\"M" + f1(X(top_v)) + " " + f1(ym) + " l-6 -4 v8 z\" fill=\"" + c + "\"/>\n";
    }
    if (std::isfinite(r.value))
      o += "<circle cx=\"" + f1(X(r.value)) + "\" cy=\"" + f1(ym) + "\" r=\"4\" fill=\"" + c + "\"><title>" + esc(r.label + ": " + r.note) + "</title></circle>\n";
  }
  o += text(k_width / 2, h - 4, "variant - baseline", "text-anchor=\"middle\" fill=\"#333\"");
  return o + "</svg>\n";
}

std::string lines(const std::string& id, const std::string& title, const std::vector<std::string>& x,
                  const std::vector<Series>& series, const std::string& x_label, bool connect) {
  const double left = 40, plot_h = 200, plot_w = k_width - left - 6;
  const double top = title_h(title) + legend_h(series) + 10;
  const std::size_t n = x.size();
  std::size_t widest = 1;
  for (const auto& v : x) widest = std::max(widest, glyphs(v));
  const double w = k_width, h = top + plot_h + 44;
  std::string o = open(id, title, w, h);
  double ly = title_h(title) + 10;
  o += legend(ly, series);
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
  // Each value's label in its slot (cut to fit, whole in the tooltip); when
  // even a cut label does not fit, only every other one (or fewer).
  const std::size_t fit = static_cast<std::size_t>(std::max(1.0, (slot_w - 4) / k_char));
  const std::size_t label_chars = std::min<std::size_t>(widest, std::max<std::size_t>(fit, 3));
  const std::size_t every =
      fit >= label_chars ? 1 : static_cast<std::size_t>(std::ceil((k_char * static_cast<double>(label_chars) + 6) / std::max(1.0, slot_w)));
  for (std::size_t i = 0; i < n; ++i) {
    if (i % every) continue;
    o += "<text x=\"" + f1(X(i)) + "\" y=\"" + f1(top + plot_h + 16) + "\" text-anchor=\"middle\"><title>" + esc(x[i]) + "</title>" +
         esc(cut(x[i], label_chars)) + "</text>\n";
  }
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
  o += text(left + plot_w / 2, h - 8, cut(x_label, 50), "text-anchor=\"middle\"");
  return o + "</svg>\n";
}

}  // namespace vedette::lab::svg
