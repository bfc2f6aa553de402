// Dice: golden values, fairness, stream derivation (docs/design.md "Dice streams";
// engine/core/dice.hpp).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include "engine/core/dice.hpp"

namespace t_dice {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

std::vector<int> first_d6(Rng rng, int n) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i) v.push_back(roll_die(rng, 6));
  return v;
}

std::vector<std::uint32_t> first_words(Rng rng, int n) {
  std::vector<std::uint32_t> v;
  for (int i = 0; i < n; ++i) v.push_back(static_cast<std::uint32_t>(rng()));
  return v;
}

}  // namespace

TEST_CASE("dice: golden d6 values of make_stream(12345, 0, decisions)", "[dice]") {
  // These values pin the whole chain: the splitmix64 derivation of
  // (seed, index, subsystem), the three-word taus88 seeding, and our own
  // multiply-shift face mapping. They were computed once and hard-coded so a
  // Boost upgrade (or a change to the stream derivation or the mapping)
  // cannot silently drift every replay and every saved seed. If this test
  // fails, recorded seeds no longer reproduce their games.
  const std::vector<int> golden{6, 6, 3, 5, 2, 1, 6, 1, 3, 6, 4, 4, 2, 1, 6, 2, 6, 6, 5, 1};
  CHECK(first_d6(make_stream(12345, 0, Subsystem::decisions), 20) == golden);

  // The raw engine words behind them (same reason: pins Boost's taus88).
  const std::vector<std::uint32_t> words{4064487934u, 4160026530u, 1992841209u, 3355102376u};
  CHECK(first_words(make_stream(12345, 0, Subsystem::decisions), 4) == words);

  // And one more stream, as `vedette react --seed 42` style would derive it.
  const std::vector<int> golden_cmd{4, 2, 4, 6, 2, 6, 4, 2, 5, 2};
  CHECK(first_d6(make_stream(42, 7, Subsystem::command), 10) == golden_cmd);
}

TEST_CASE("dice: the face mapping is multiply-shift of one engine word", "[dice]") {
  // roll_die maps a word w to floor(w * 6 / 2^32) + 1 (rejection only in the
  // rare low-bits case), so faces follow the words above.
  Rng a = make_stream(12345, 0, Subsystem::decisions);
  Rng b = make_stream(12345, 0, Subsystem::decisions);
  for (int i = 0; i < 1000; ++i) {
    std::uint64_t w = static_cast<std::uint32_t>(a());
    int expected = static_cast<int>((w * 6) >> 32) + 1;
    int got = roll_die(b, 6);
    REQUIRE(got == expected);  // no rejection happens for this stream's first 1000 words
  }
}

TEST_CASE("dice: roll_die(6) is unbiased: chi-square over 600000 d6", "[dice][stats]") {
  // Fixed seed; chi-square with 5 degrees of freedom must be below the 0.1%
  // critical value 20.52, and each face within 4 standard errors of 1/6.
  Rng rng = make_stream(20240601, 3, Subsystem::movement);
  constexpr int n = 600000;
  std::array<long, 7> count{};
  for (int i = 0; i < n; ++i) {
    int f = roll_die(rng, 6);
    REQUIRE(f >= 1);
    REQUIRE(f <= 6);
    ++count[static_cast<std::size_t>(f)];
  }
  const double expected = n / 6.0;
  double chi2 = 0;
  for (int f = 1; f <= 6; ++f) {
    double diff = static_cast<double>(count[static_cast<std::size_t>(f)]) - expected;
    chi2 += diff * diff / expected;
  }
  INFO("chi-square = " << chi2);
  CHECK(chi2 < 20.52);

  const double p = 1.0 / 6.0;
  const double se = std::sqrt(p * (1 - p) / n);
  for (int f = 1; f <= 6; ++f) {
    double freq = static_cast<double>(count[static_cast<std::size_t>(f)]) / n;
    INFO("face " << f << " frequency " << freq);
    CHECK(std::abs(freq - p) < 4 * se);
  }
}

TEST_CASE("dice: roll_die with other sizes stays in range and hits every face", "[dice]") {
  Rng rng = make_stream(7, 0, Subsystem::melee);
  for (std::uint32_t sides : {1u, 2u, 3u, 10u, 12u, 20u, 100u}) {
    std::set<int> seen;
    for (int i = 0; i < 5000; ++i) {
      int f = roll_die(rng, sides);
      REQUIRE(f >= 1);
      REQUIRE(f <= static_cast<int>(sides));
      seen.insert(f);
    }
    CHECK(seen.size() == sides);
  }
}

TEST_CASE("dice: same (seed index subsystem) gives the same stream", "[dice]") {
  CHECK(first_words(make_stream(99, 5, Subsystem::shooting), 16) ==
        first_words(make_stream(99, 5, Subsystem::shooting), 16));
  CHECK(first_d6(make_stream(0, 0, Subsystem::decisions), 50) == first_d6(make_stream(0, 0, Subsystem::decisions), 50));
}

TEST_CASE("dice: different seed or index or subsystem gives a different stream", "[dice]") {
  const auto base = first_words(make_stream(99, 5, Subsystem::shooting), 8);
  CHECK(first_words(make_stream(100, 5, Subsystem::shooting), 8) != base);  // seed
  CHECK(first_words(make_stream(99, 6, Subsystem::shooting), 8) != base);   // index
  CHECK(first_words(make_stream(99, 5, Subsystem::melee), 8) != base);      // subsystem

  // Wider: every (seed, index, subsystem) in a small grid is distinct, and
  // swapping seed and index does not give the same stream.
  std::set<std::vector<std::uint32_t>> seen;
  int made = 0;
  for (std::uint64_t seed = 0; seed < 8; ++seed)
    for (std::uint64_t index = 0; index < 8; ++index)
      for (auto sub : {Subsystem::decisions, Subsystem::movement, Subsystem::shooting, Subsystem::melee,
                       Subsystem::morale, Subsystem::solo, Subsystem::command}) {
        seen.insert(first_words(make_stream(seed, index, sub), 4));
        ++made;
      }
  CHECK(static_cast<int>(seen.size()) == made);
  CHECK(first_words(make_stream(1, 2, Subsystem::decisions), 4) != first_words(make_stream(2, 1, Subsystem::decisions), 4));
}

TEST_CASE("dice: the three taus88 components get different seed words", "[dice]") {
  // docs/design.md trap: the one-word seed writes the same word to all three
  // components. A stream from make_stream must not equal any one-word seeded
  // taus88 of the first word.
  Rng a = make_stream(12345, 0, Subsystem::decisions);
  Rng b = make_stream(12345, 0, Subsystem::decisions);
  std::uint32_t w = static_cast<std::uint32_t>(b());
  Rng one_word(w);
  CHECK(first_words(a, 8) != first_words(one_word, 8));
}

TEST_CASE("dice: Dice counts what it rolled", "[dice]") {
  Rng rng = make_stream(1, 1, Subsystem::decisions);
  Dice dice(rng);
  CHECK(dice.rolled() == 0);
  int f = dice.d6();
  CHECK(f >= 1);
  CHECK(f <= 6);
  CHECK(dice.rolled() == 1);
  int t = dice.two_d6();
  CHECK(t >= 2);
  CHECK(t <= 12);
  CHECK(dice.rolled() == 3);  // 2D6 is two dice
  int g = dice.d(20);
  CHECK(g >= 1);
  CHECK(g <= 20);
  CHECK(dice.rolled() == 4);
  for (int i = 0; i < 96; ++i) (void)dice.d6();
  CHECK(dice.rolled() == 100);
}

TEST_CASE("dice: Dice draws the same faces as roll_die on the same stream", "[dice]") {
  Rng a = make_stream(12345, 0, Subsystem::decisions);
  Dice dice(a);
  std::vector<int> v;
  for (int i = 0; i < 20; ++i) v.push_back(dice.d6());
  CHECK(v == first_d6(make_stream(12345, 0, Subsystem::decisions), 20));
}

TEST_CASE("dice: splitmix64 advances its state and is deterministic", "[dice]") {
  std::uint64_t s1 = 0, s2 = 0;
  std::uint64_t a = splitmix64(s1);
  std::uint64_t b = splitmix64(s2);
  CHECK(a == b);
  CHECK(s1 == 0x9E3779B97F4A7C15ULL);
  // Reference value of splitmix64 from state 0 (Vigna's published generator).
  CHECK(a == 0xE220A8397B1DCDAFULL);
  CHECK(splitmix64(s1) != a);
}

}  // namespace t_dice
