#pragma once
// A file written in pieces (engagements.csv, which can be far larger than
// memory) that still appears atomically: a temporary file in the target's
// own folder, written as it goes; at commit() fsync, rename over the target,
// fsync the folder (the same steps as sims/io/atomic_file.hpp, which replaces
// whole files held in memory). Destroyed without commit: the temporary file
// is removed and the target is untouched.
#include <string>
#include <string_view>

#include "sims/io/atomic_file.hpp"

namespace vedette::lab {

class AtomicOutput {
 public:
  explicit AtomicOutput(std::string path);  // throws AtomicWriteError
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;
  void write(std::string_view s);  // buffered; throws AtomicWriteError
  void commit();                   // throws AtomicWriteError
  const std::string& path() const { return path_; }

 private:
  void flush();
  std::string path_, temp_;
  std::string buf_;
  int fd_ = -1;
  bool off_ = false;  // outputs_written() was off: nothing is written
};

}  // namespace vedette::lab
