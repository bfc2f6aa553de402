#include "engine/core/dice.hpp"

namespace vedette {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::uint64_t stream_prefix(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t s = seed;
  const std::uint64_t h = splitmix64(s);
  s = h ^ (index * 0xD1B54A32D192ED03ULL);
  return splitmix64(s);
}

Rng make_stream(std::uint64_t seed, std::uint64_t index, Subsystem sub) { return make_stream_from(stream_prefix(seed, index), sub); }

Rng make_stream_from(std::uint64_t prefix, Subsystem sub) {
  std::uint64_t s = prefix ^ (static_cast<std::uint64_t>(sub) * 0x8CB92BA72F3D8DD7ULL);
  std::uint64_t a = splitmix64(s);
  std::uint64_t b = splitmix64(s);
  std::array<std::uint32_t, 3> words{static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(a >> 32),
                                     static_cast<std::uint32_t>(b)};
  Rng rng;
  auto first = words.begin();
  rng.seed(first, words.end());
  return rng;
}

}  // namespace vedette
