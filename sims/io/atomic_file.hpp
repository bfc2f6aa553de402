#pragma once
// Atomic file replacement: a reader (or a crash, or SIGKILL, or a power cut
// after the call returns) sees either the old complete file or the new
// complete file, never a mixture or a truncated one.
//
// How: write a temporary file in the target's own folder (so the rename
// stays on one file system), fsync it, rename it over the target (atomic in
// POSIX), then fsync the folder so the rename itself is durable. On any
// failure the temporary file is removed and the target is left untouched.
// A process killed between creating and renaming the temporary file can
// leave a hidden `.NAME.tmp-XXXXXX` beside the target; it is never read.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vedette {

struct AtomicWriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Replaces (or creates) `path` with `content`. A new file gets mode 0666
// less the umask; a replaced file keeps its mode. If `path` is a symbolic
// link, the file it points to is replaced and the link kept. Throws
// AtomicWriteError naming the file and the system's reason.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);
// Several files that belong together (a report and its summary): every one
// is written to its temporary file and flushed first, and only when all of
// them are ready are they renamed over their targets. A file that cannot be
// written (a full disk, a folder where the file should be) leaves every
// target as it was. (Each rename is atomic; the set is not, against a crash
// between two renames.)
void write_files_atomically(const std::vector<std::pair<std::filesystem::path, std::string_view>>& files);

// Whether this process writes outputs (default: yes). The other ranks of an
// MPI job (sims/cluster) turn it off: only rank 0 writes, so
// write_file_atomically and AtomicOutput write nothing there.
void set_outputs_written(bool on);
bool outputs_written();

// Reads a whole file as bytes; throws AtomicWriteError if it cannot.
std::string read_whole_file(const std::filesystem::path& path);

}  // namespace vedette
