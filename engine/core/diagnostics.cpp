#include "engine/core/diagnostics.hpp"

#include <algorithm>
#include <numeric>

namespace vedette {

std::string Diagnostic::str() const {
  if (where.line <= 0) return where.file + ": " + message;
  return where.file + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) + ": " + message;
}

void Diagnostics::error(const Location& where, std::string message) {
  list_.push_back({where, std::move(message)});
}

void Diagnostics::throw_if_any() const {
  if (!list_.empty()) throw LoadError(list_);
}

static std::string join(const std::vector<Diagnostic>& d) {
  std::string s;
  for (const auto& x : d) {
    if (!s.empty()) s += '\n';
    s += x.str();
  }
  return s;
}

LoadError::LoadError(std::vector<Diagnostic> d) : std::runtime_error(join(d)), diags_(std::move(d)) {}
LoadError::LoadError(const Location& where, const std::string& message)
    : LoadError(std::vector<Diagnostic>{{where, message}}) {}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t prev = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cur = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0u : 1u)});
      prev = cur;
    }
  }
  return row[b.size()];
}

constexpr std::size_t k_max_suggest_length = 100;

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  // No suggestion for a word too long to be a typed name: comparing two
  // long words costs the product of their lengths.
  if (word.size() > k_max_suggest_length) return {};
  std::string best;
  std::size_t best_d = std::string::npos;
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  for (const auto& c : candidates) {
    // The distance is at least the difference in length: skip what cannot
    // be near (and keep a long key from costing length x length per candidate).
    const std::size_t gap = word.size() > c.size() ? word.size() - c.size() : c.size() - word.size();
    if (gap > limit) continue;
    std::size_t d = edit_distance(word, c);
    if (d < best_d) { best_d = d; best = c; }
  }
  // A typo, not a different word: at most a third of the letters changed.
  if (best.empty() || best_d > std::max<std::size_t>(2, word.size() / 3)) return {};
  return best;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  std::string n = nearest(word, candidates);
  return n.empty() ? std::string() : ", did you mean '" + n + "'?";
}

}  // namespace vedette
