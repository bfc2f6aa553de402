#include "sims/io/atomic_file.hpp"

#include <atomic>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

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

void write_file_atomically(const fs::path& target_in, std::string_view content) {
  if (!outputs_written()) return;
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

  if (::rename(tmp.c_str(), target.c_str()) != 0) cleanup_fail("cannot rename the temporary file over it", errno);

  // Make the rename durable. Some file systems refuse fsync on a folder
  // (EINVAL); the data is already safe there, so only real I/O errors count.
  Fd d;
  d.fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d.fd >= 0 && ::fsync(d.fd) != 0 && errno != EINVAL && errno != EROFS)
    fail(target, "written, but cannot flush its folder to disk", errno);
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
