// libFuzzer entry point: checkpoints of `vedette sim` and `compare`, resumed
// (the body and what it checks: tests/fuzz/targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  vfuzz::checkpoint_one({reinterpret_cast<const char*>(data), size});
  return 0;
}
