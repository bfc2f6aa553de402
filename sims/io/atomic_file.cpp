#include "sims/io/atomic_file.hpp"

#include <atomic>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include <utility>
#include <vector>

namespace vedette {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const fs::path& p, const std::string& what, int err) {
  throw AtomicWriteError("cannot write " + p.string() + ": " + what + ": " + std::strerror(err));
}

// Closes a descriptor on scope exit unless released.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

mode_t current_umask() {
  // umask can only be read by setting it; put it straight back. (Not safe
  // against another thread changing the umask at the same moment.)
  mode_t m = ::umask(022);
  ::umask(m);
  return m;
}

}  // namespace

namespace {
std::atomic<bool> g_outputs_written{true};
}  // namespace

void set_outputs_written(bool on) { g_outputs_written.store(on); }
bool outputs_written() { return g_outputs_written.load(); }

namespace {

// One file of a set, written to its temporary file and flushed, not yet
// renamed over its target.
struct Prepared {
  fs::path target, dir;
  std::string tmp;
};

Prepared prepare(const fs::path& target_in, std::string_view content) {
  Prepared out;
  fs::path target = target_in;
  std::error_code ec;
  if (fs::is_symlink(target, ec)) {
    fs::path resolved = fs::canonical(target, ec);
    if (!ec) target = resolved;
  }
  fs::path dir = target.parent_path();
  if (dir.empty()) dir = ".";

  mode_t mode = 0666 & ~current_umask();
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw AtomicWriteError("cannot write " + target.string() + ": it is a folder");
    mode = st.st_mode & 07777;
  }

  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  Fd f;
  f.fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
  if (f.fd < 0) fail(target, "cannot create a temporary file in " + dir.string(), errno);
  const std::string tmp = tmpl;
  auto cleanup_fail = [&](const std::string& what, int err) {
    ::unlink(tmp.c_str());
    fail(target, what, err);
  };

  if (::fchmod(f.fd, mode) != 0) cleanup_fail("cannot set the temporary file's mode", errno);
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(f.fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      cleanup_fail("cannot write the temporary file", errno);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fsync(f.fd) != 0) cleanup_fail("cannot flush the temporary file to disk", errno);
  int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0) cleanup_fail("cannot close the temporary file", errno);
  out.target = target;
  out.dir = dir;
  out.tmp = tmp;
  return out;
}

void commit(const Prepared& w) {
  if (::rename(w.tmp.c_str(), w.target.c_str()) != 0) {
    const int err = errno;
    ::unlink(w.tmp.c_str());
    fail(w.target, "cannot rename the temporary file over it", err);
  }
  // Make the rename durable. Some file systems refuse fsync on a folder
  // (EINVAL); the data is already safe there, so only real I/O errors count.
  Fd d;
  d.fd = ::open(w.dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d.fd >= 0 && ::fsync(d.fd) != 0 && errno != EINVAL && errno != EROFS)
    fail(w.target, "written, but cannot flush its folder to disk", errno);
}

}  // namespace

void write_file_atomically(const fs::path& target, std::string_view content) {
  if (!outputs_written()) return;
  commit(prepare(target, content));
}

void write_files_atomically(const std::vector<std::pair<fs::path, std::string_view>>& files) {
  if (!outputs_written()) return;
  std::vector<Prepared> ready;
  try {
    for (const auto& [path, content] : files) ready.push_back(prepare(path, content));
  } catch (...) {
    for (const Prepared& w : ready) ::unlink(w.tmp.c_str());
    throw;
  }
  for (std::size_t i = 0; i < ready.size(); ++i) {
    try {
      commit(ready[i]);
    } catch (...) {
      for (std::size_t j = i + 1; j < ready.size(); ++j) ::unlink(ready[j].tmp.c_str());
      throw;
    }
  }
}

std::string read_whole_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw AtomicWriteError("cannot read " + path.string() + ": " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw AtomicWriteError("cannot read " + path.string());
  return ss.str();
}

}  // namespace vedette
