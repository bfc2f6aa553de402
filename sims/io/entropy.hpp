#pragma once
// A fresh seed from the operating system's entropy, for a run or a session
// the user gave no seed: short enough to type back in (below 10^9).
#include <cstdint>

namespace vedette::io {

std::uint64_t entropy_seed();

}  // namespace vedette::io
