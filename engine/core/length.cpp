#include "engine/core/length.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace vedette {

const char* unit_name(LengthUnit u) {
  switch (u) {
    case LengthUnit::cm: return "cm";
    case LengthUnit::in: return "in";
    case LengthUnit::mm: return "mm";
  }
  return "cm";
}

std::optional<LengthUnit> parse_length_unit(std::string_view s) {
  if (s == "cm") return LengthUnit::cm;
  if (s == "in" || s == "\"") return LengthUnit::in;
  if (s == "mm") return LengthUnit::mm;
  return std::nullopt;
}

std::optional<Length> parse_length(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  size_t i = 0;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '-' || s[i] == '+')) ++i;
  if (i == 0) return std::nullopt;
  std::string_view num = s.substr(0, i);
  if (num.front() == '+') num.remove_prefix(1);
  std::string_view unit = s.substr(i);
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  double v = 0;
  auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
  if (ec != std::errc() || p != num.data() + num.size() || !std::isfinite(v)) return std::nullopt;
  auto u = parse_length_unit(unit);
  if (!u) return std::nullopt;
  return Length::of(v, *u);
}

std::string format_length(Length l, LengthUnit u) { return format_number(l.as(u)) + unit_name(u); }

namespace {
double tape_mark(LengthUnit u) { return u == LengthUnit::cm ? 0.5 : u == LengthUnit::in ? 0.25 : 1.0; }
}  // namespace

double to_tape(double v, LengthUnit u) { return std::round(v / tape_mark(u)) * tape_mark(u); }

double to_tape_up(double v, LengthUnit u) {
  // A hair below a mark (15.999999 of a sum of lengths) is on it.
  return std::ceil(v / tape_mark(u) - 1e-9) * tape_mark(u);
}

std::string format_length_prose(Length l, LengthUnit u) { return format_number(to_tape(l.as(u), u)) + " " + unit_name(u); }

namespace {
// The other of cm and in, for the brackets; nullopt for mm.
std::optional<LengthUnit> other_unit(LengthUnit u) {
  if (u == LengthUnit::cm) return LengthUnit::in;
  if (u == LengthUnit::in) return LengthUnit::cm;
  return std::nullopt;
}
}  // namespace

std::string format_range_table(Length lo, Length hi, LengthUnit u) {
  std::string out = format_number(to_tape(lo.as(u), u)) + "-" + format_length_prose(hi, u);
  const auto other = other_unit(u);
  if (!other) return out;
  return out + " (" + format_number(to_tape(lo.as(*other), *other)) + "-" + format_length_prose(hi, *other) + ")";
}

std::string format_length_table(Length l, LengthUnit u) {
  std::string out = format_length_prose(l, u);
  const auto other = other_unit(u);
  if (!other) return out;
  return out + " (" + format_length_prose(l, *other) + ")";
}

std::string format_number(double v) {
  char buf[64];
  double r = std::round(v * 100.0) / 100.0;  // lengths on a table: 0.01 is plenty
  if (r == 0.0) r = 0.0;                       // no "-0"
  std::snprintf(buf, sizeof buf, "%.2f", r);
  std::string s(buf);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

}  // namespace vedette
