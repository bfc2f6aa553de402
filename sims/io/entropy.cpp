#include "sims/io/entropy.hpp"

#include <fstream>

namespace vedette::io {

std::uint64_t entropy_seed() {
  std::uint64_t s = 0;
  std::ifstream urandom("/dev/urandom", std::ios::binary);
  urandom.read(reinterpret_cast<char*>(&s), sizeof s);
  return s % 1000000000ULL;
}

}  // namespace vedette::io
