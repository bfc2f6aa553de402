#pragma once
// Dice over Boost.Random. The engine is always passed in: there is no global
// generator. Raw 32-bit engine words are mapped to faces by our own unbiased
// multiply-shift (Lemire) rejection, so results do not drift with a Boost
// upgrade; tests pin golden values.
//
// Streams: every engagement (and every subsystem inside it) gets its own
// taus88 seeded from a splitmix64 hash of (seed, index, subsystem), filling
// all 88 bits of state through the three-word seed (see docs/design.md: the
// one-word seed repeats one word in all three components).
#include <boost/random/taus88.hpp>

#include <array>
#include <cstdint>

namespace vedette {

using Rng = boost::random::taus88;

// Named sub-streams of one engagement: an extra roll in one subsystem does
// not shift another's numbers. Values are part of the stream derivation and
// must never be renumbered.
enum class Subsystem : std::uint32_t {
  decisions = 1,
  movement = 2,
  shooting = 3,
  melee = 4,
  morale = 5,
  solo = 6,      // a solo session's rolls
  command = 7,   // one-off commands (`vedette react --seed`)
};

std::uint64_t splitmix64(std::uint64_t& state);

// The stream for (seed, index, subsystem). Costs a few tens of nanoseconds.
Rng make_stream(std::uint64_t seed, std::uint64_t index, Subsystem sub);
// The same in two steps, for an engagement seeding all its subsystems:
// make_stream(seed, index, sub) == make_stream_from(stream_prefix(seed, index), sub).
std::uint64_t stream_prefix(std::uint64_t seed, std::uint64_t index);
Rng make_stream_from(std::uint64_t prefix, Subsystem sub);

// An unbiased face 1..sides from one or more engine words.
inline int roll_die(Rng& rng, std::uint32_t sides) {
  std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(rng())) * sides;
  auto low = static_cast<std::uint32_t>(m);
  if (low < sides) {
    const std::uint32_t threshold = static_cast<std::uint32_t>(-sides) % sides;
    while (low < threshold) {
      m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(rng())) * sides;
      low = static_cast<std::uint32_t>(m);
    }
  }
  return static_cast<int>(m >> 32) + 1;
}

// Dice: the small type every rule rolls with. It borrows an engine and
// counts the dice it has rolled (for benchmarks and replays).
class Dice {
 public:
  explicit Dice(Rng& rng) : rng_(&rng) {}
  int d6() { ++rolled_; return roll_die(*rng_, 6); }
  int d(int sides) { ++rolled_; return roll_die(*rng_, static_cast<std::uint32_t>(sides)); }
  int two_d6() { return d6() + d6(); }
  std::uint64_t rolled() const { return rolled_; }

 private:
  Rng* rng_;
  std::uint64_t rolled_ = 0;
};

}  // namespace vedette
