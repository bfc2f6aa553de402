#pragma once
// A stable content hash: 64-bit FNV-1a (Fowler-Noll-Vo, variant 1a) over
// bytes. Unlike std::hash its value is fixed by its definition, so it can be
// written to a file today and compared by another build, on another machine,
// years later. Not cryptographic: it notices changes, it does not resist
// someone forging a collision.
//
//   offset basis 14695981039346656037 (0xcbf29ce484222325)
//   for each byte b: h ^= b; h *= 1099511628211 (0x100000001b3), mod 2^64
#include <cstdint>
#include <string>
#include <string_view>

namespace vedette {

inline constexpr std::uint64_t k_fnv1a64_basis = 0xcbf29ce484222325ULL;
inline constexpr std::uint64_t k_fnv1a64_prime = 0x100000001b3ULL;

// Continues hash `h` over `bytes` (start from k_fnv1a64_basis).
constexpr std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t h = k_fnv1a64_basis) {
  for (char c : bytes) {
    h ^= static_cast<std::uint8_t>(c);
    h *= k_fnv1a64_prime;
  }
  return h;
}

// "fnv1a64:" and 16 lower-case hex digits.
inline std::string fnv1a64_text(std::uint64_t h) {
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string s = "fnv1a64:";
  for (int shift = 60; shift >= 0; shift -= 4) s += k_hex[(h >> shift) & 0xF];
  return s;
}

// Published test vectors pin the definition.
static_assert(fnv1a64("") == 0xcbf29ce484222325ULL);
static_assert(fnv1a64("a") == 0xaf63dc4c8601ec8cULL);
static_assert(fnv1a64("foobar") == 0x85944171f73967e8ULL);

}  // namespace vedette
