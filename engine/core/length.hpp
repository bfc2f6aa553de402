#pragma once
// Length: a distance on the table. Stored in centimetres (double); every
// length read from a file or a flag carries its unit ("30cm", "12in", "1.5 in").
#include <optional>
#include <string>
#include <string_view>

namespace vedette {

enum class LengthUnit { cm, in, mm };

// The longest length Vedette reads (1 km): longer than any table, and far
// from the sizes where geometry in doubles loses its precision.
inline constexpr double k_max_length_cm = 100000;

class Length {
 public:
  constexpr Length() = default;
  static constexpr Length cm(double v) { return Length(v); }
  static constexpr Length in(double v) { return Length(v * 2.54); }
  static constexpr Length mm(double v) { return Length(v / 10.0); }
  static constexpr Length of(double v, LengthUnit u) {
    return u == LengthUnit::cm ? cm(v) : u == LengthUnit::in ? in(v) : mm(v);
  }

  constexpr double as_cm() const { return cm_; }
  constexpr double as_in() const { return cm_ / 2.54; }
  constexpr double as(LengthUnit u) const {
    return u == LengthUnit::cm ? cm_ : u == LengthUnit::in ? as_in() : cm_ * 10.0;
  }

  friend constexpr Length operator+(Length a, Length b) { return Length(a.cm_ + b.cm_); }
  friend constexpr Length operator-(Length a, Length b) { return Length(a.cm_ - b.cm_); }
  friend constexpr Length operator*(Length a, double k) { return Length(a.cm_ * k); }
  friend constexpr Length operator*(double k, Length a) { return Length(a.cm_ * k); }
  friend constexpr Length operator/(Length a, double k) { return Length(a.cm_ / k); }
  friend constexpr auto operator<=>(Length a, Length b) = default;

 private:
  constexpr explicit Length(double cm) : cm_(cm) {}
  double cm_ = 0.0;
};

const char* unit_name(LengthUnit u);
std::optional<LengthUnit> parse_length_unit(std::string_view s);

// "30cm", "12 in", "1.5in", "300mm". No unit, a bad number, NaN or infinity
// give nullopt; the caller reports where and what was expected.
std::optional<Length> parse_length(std::string_view s);

// Shortest exact-looking text in unit u: 18in, 7.5in, 30cm, 11.43cm.
std::string format_length(Length l, LengthUnit u);
// A number as lengths are shown: at most two decimals, no trailing zeros.
std::string format_number(double v);
// What a person reads is what a tape measures (issue 30): a value in unit u
// to the nearest 0.5 cm, 1/4 in or 1 mm. The exact value stays in --json and
// in every comparison; a limit between two marks is given in both units.
double to_tape(double v, LengthUnit u);
// The same, rounded up to the next mark: a far edge that must lie within a
// limit is never shown inside it when it is not.
double to_tape_up(double v, LengthUnit u);
// For prose, to the tape's mark with a space before the unit: "30 cm",
// "15 cm" for 15.24 cm.
std::string format_length_prose(Length l, LengthUnit u);
// For the table: in the ruleset's unit, the other (cm or in) in brackets,
// each to its tape's mark: "15 cm (6 in)", "6 in (15 cm)". mm as prose.
std::string format_length_table(Length l, LengthUnit u);
// A range the same way: "41-50 cm (16.25-19.75 in)".
std::string format_range_table(Length lo, Length hi, LengthUnit u);

}  // namespace vedette
