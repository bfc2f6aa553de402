#pragma once
// Fraction: an exact probability (or any rational), always in lowest terms
// with a positive denominator. Enough for dice odds; not a bignum.
#include <cstdint>
#include <numeric>
#include <string>

namespace vedette {

struct Fraction {
  std::int64_t num = 0;
  std::int64_t den = 1;

  constexpr Fraction() = default;
  constexpr Fraction(std::int64_t n, std::int64_t d = 1) : num(n), den(d) { normalise(); }

  constexpr void normalise() {
    if (den < 0) { num = -num; den = -den; }
    std::int64_t g = std::gcd(num < 0 ? -num : num, den);
    if (g > 1) { num /= g; den /= g; }
  }
  constexpr double value() const { return static_cast<double>(num) / static_cast<double>(den); }
  std::string str() const { return den == 1 ? std::to_string(num) : std::to_string(num) + "/" + std::to_string(den); }

  friend constexpr Fraction operator+(Fraction a, Fraction b) { return Fraction(a.num * b.den + b.num * a.den, a.den * b.den); }
  friend constexpr Fraction operator-(Fraction a, Fraction b) { return Fraction(a.num * b.den - b.num * a.den, a.den * b.den); }
  friend constexpr Fraction operator*(Fraction a, Fraction b) { return Fraction(a.num * b.num, a.den * b.den); }
  friend constexpr bool operator==(Fraction a, Fraction b) { return a.num == b.num && a.den == b.den; }
  friend constexpr bool operator<(Fraction a, Fraction b) { return a.num * b.den < b.num * a.den; }
};

}  // namespace vedette
