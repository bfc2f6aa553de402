#pragma once
// Fraction: an exact probability (or any rational), always in lowest terms
// with a positive denominator. Enough for dice odds; not a bignum.
#include <cstdint>
#include <numeric>
#include <optional>
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

// P(at least k successes in n independent trials of chance p), exactly:
// sum over j >= k of C(n, j) a^j (d - a)^(n - j) / d^n for p = a/d. None
// when d^n (or a sum) would not fit in 64 bits; then ask for the double.
inline std::optional<Fraction> binomial_at_least(Fraction p, int n, int k) {
  if (n < 0 || p.num < 0 || p.num > p.den) return std::nullopt;
  if (k <= 0) return Fraction(1);
  if (k > n) return Fraction(0);
  const auto a = static_cast<std::uint64_t>(p.num), d = static_cast<std::uint64_t>(p.den), b = d - a;
  auto mul = [](std::uint64_t x, std::uint64_t y, std::uint64_t& out) { return !__builtin_mul_overflow(x, y, &out); };
  std::uint64_t den = 1;
  for (int i = 0; i < n; ++i)
    if (!mul(den, d, den)) return std::nullopt;
  if (den > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
  std::uint64_t sum = 0, choose = 1;  // C(n, j), built up from j = 0
  for (int j = 0; j <= n; ++j) {
    if (j > 0) {  // exact: C(n, j) = C(n, j-1) (n-j+1) / j
      if (!mul(choose, static_cast<std::uint64_t>(n - j + 1), choose)) return std::nullopt;
      choose /= static_cast<std::uint64_t>(j);
    }
    if (j < k) continue;
    std::uint64_t term = choose;
    for (int i = 0; i < j; ++i)
      if (!mul(term, a, term)) return std::nullopt;
    for (int i = 0; i < n - j; ++i)
      if (!mul(term, b, term)) return std::nullopt;
    if (__builtin_add_overflow(sum, term, &sum)) return std::nullopt;
  }
  return Fraction(static_cast<std::int64_t>(sum), static_cast<std::int64_t>(den));
}

// The same in double, for any n.
inline double binomial_at_least_value(double p, int n, int k) {
  if (k <= 0) return 1.0;
  if (k > n) return 0.0;
  double sum = 0, term = 1;  // term = C(n, j) p^j (1-p)^(n-j), from j = 0
  for (int i = 0; i < n; ++i) term *= 1.0 - p;
  for (int j = 0; j <= n; ++j) {
    if (j > 0) term = p < 1.0 ? term * (n - j + 1) / j * p / (1.0 - p) : (j == n ? 1.0 : 0.0);
    if (j >= k) sum += term;
  }
  return sum > 1.0 ? 1.0 : sum;
}

}  // namespace vedette
