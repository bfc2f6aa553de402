#pragma once
// Diagnostics: problems in a file the user wrote, each located by file,
// line and column (1-based) and saying what was expected.
#include <stdexcept>
#include <string>
#include <vector>

namespace vedette {

struct Location {
  std::string file;
  int line = 0;    // 1-based; 0 = the whole file
  int column = 0;  // 1-based
};

struct Diagnostic {
  Location where;
  std::string message;
  // "file:line:col: message" (or "file: message" when there is no position).
  std::string str() const;
};

// Collects problems so a check can report all of them, not just the first.
class Diagnostics {
 public:
  void error(const Location& where, std::string message);
  bool empty() const { return list_.empty(); }
  const std::vector<Diagnostic>& list() const { return list_; }
  // Throws LoadError with everything collected so far, if anything.
  void throw_if_any() const;

 private:
  std::vector<Diagnostic> list_;
};

class LoadError : public std::runtime_error {
 public:
  explicit LoadError(std::vector<Diagnostic> d);
  LoadError(const Location& where, const std::string& message);
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }

 private:
  std::vector<Diagnostic> diags_;
};

// Edit distance, for "did you mean" suggestions.
std::size_t edit_distance(const std::string& a, const std::string& b);
// The candidate nearest to `word` if it is close enough to be a likely typo.
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);
// ", did you mean 'x'?" or "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace vedette
