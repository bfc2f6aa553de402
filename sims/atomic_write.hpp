#pragma once
// Atomic file writing for the lab's outputs (reports, checkpoints, CSV): a
// temporary file in the target's own folder, fsync, rename over the target,
// fsync the folder. A reader, or a crash, sees the old file or the new one,
// never a part. (A second implementation of sims/atomic_file.hpp, which is
// on another branch; this one can go once that one is on main.)
#include <stdexcept>
#include <string>
#include <string_view>

namespace vedette::lab {

struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Replaces or creates `path` with `content`. Throws WriteError naming the
// file and the system's reason; the target is then untouched.
void write_atomic(const std::string& path, std::string_view content);

// A file written in pieces (engagements.csv), appearing under its name only
// at commit(). Destroyed without commit: the temporary file is removed.
class AtomicOutput {
 public:
  explicit AtomicOutput(std::string path);  // throws WriteError
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;
  void write(std::string_view s);  // buffered
  void commit();                   // throws WriteError
  const std::string& path() const { return path_; }

 private:
  void flush();
  std::string path_, temp_;
  std::string buf_;
  int fd_ = -1;
};

}  // namespace vedette::lab
