#include "sims/io/atomic_stream.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace vedette::lab {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
  throw AtomicWriteError("cannot write " + path + ": " + what + ": " + std::strerror(err));
}

// Creates the temporary file beside `path`; returns its fd and sets `temp`.
int make_temp(const std::string& path, std::string& temp) {
  fs::path p(path);
  fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  temp = (dir / ("." + p.filename().string() + ".tmp-XXXXXX")).string();
  int fd = ::mkstemp(temp.data());
  if (fd < 0) fail(path, "cannot create a temporary file in " + dir.string(), errno);
  // mkstemp makes 0600; a report is as readable as any file the user makes.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  return fd;
}

void write_all(int fd, const std::string& path, std::string_view s) {
  while (!s.empty()) {
    ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(path, "write failed", errno);
    }
    s.remove_prefix(static_cast<std::size_t>(n));
  }
}

void finish(int fd, const std::string& temp, const std::string& path) {
  if (::fsync(fd) != 0) {
    int e = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    fail(path, "fsync failed", e);
  }
  if (::close(fd) != 0) {
    int e = errno;
    ::unlink(temp.c_str());
    fail(path, "close failed", e);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    int e = errno;
    ::unlink(temp.c_str());
    fail(path, "rename failed", e);
  }
  fs::path dir = fs::path(path).parent_path();
  int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);  // best effort: some file systems refuse a folder fsync
    ::close(dfd);
  }
}

}  // namespace

AtomicOutput::AtomicOutput(std::string path) : path_(std::move(path)) {
  off_ = !outputs_written();  // another rank writes this file
  if (!off_) fd_ = make_temp(path_, temp_);
}

AtomicOutput::~AtomicOutput() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temp_.c_str());
  }
}

void AtomicOutput::flush() {
  write_all(fd_, path_, buf_);
  buf_.clear();
}

void AtomicOutput::write(std::string_view s) {
  if (off_) return;
  buf_.append(s);
  if (buf_.size() >= (1u << 16)) flush();
}

void AtomicOutput::commit() {
  if (off_) return;
  flush();
  int fd = fd_;
  fd_ = -1;
  finish(fd, temp_, path_);
}

}  // namespace vedette::lab
