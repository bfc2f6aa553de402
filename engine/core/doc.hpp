#pragma once
// Doc: a YAML document as a small tree whose every node remembers where it
// was written (file, line, column). yaml-cpp parses; this tree adds what the
// loader needs and yaml-cpp lacks: duplicate-key detection, overlay merging
// (`extends:`), located type errors and path edits (`--set a.b.c=V`).
#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/diagnostics.hpp"
#include "engine/core/length.hpp"

namespace vedette {

struct DocEntry;

struct Doc {
  enum class Kind { null, scalar, sequence, map };
  Kind kind = Kind::null;
  Location where;
  std::string scalar;             // Kind::scalar: the text as written
  bool quoted = false;            // written in quotes: always a string
  std::vector<Doc> items;         // Kind::sequence
  std::vector<DocEntry> entries;  // Kind::map, in file order, keys unique

  bool is_null() const { return kind == Kind::null; }
  bool is_scalar() const { return kind == Kind::scalar; }
  bool is_sequence() const { return kind == Kind::sequence; }
  bool is_map() const { return kind == Kind::map; }
  const Doc* find(std::string_view key) const;
  Doc* find(std::string_view key);
  // "a map", "a list", "a value", "nothing": for messages.
  const char* kind_name() const;
};

struct DocEntry {
  std::string key;
  Location key_where;
  Doc value;
};

// Limits on what a hand-edited file may hold (README: "Limits").
inline constexpr std::size_t k_max_file_bytes = 4u << 20;  // 4 MiB
inline constexpr int k_max_depth = 32;
inline constexpr std::size_t k_max_nodes = 200000;

// Parses YAML text; `file` names it in messages. Throws LoadError on syntax
// errors, duplicate keys, excessive depth or size, or non-string keys.
Doc parse_yaml(std::string_view text, const std::string& file);
// Reads and parses a file: a missing file, a folder, or an unreadable file
// is a LoadError naming it.
Doc parse_yaml_file(const std::string& path);

// Reads IN to its end or to one block past LIMIT bytes, whichever comes
// first: a result longer than LIMIT is a file too large, and a device or
// pipe (/dev/zero), which has no size to check beforehand, is not read
// without end. SIZE_HINT (a regular file's size) is reserved; nothing is
// zeroed. The caller checks in.bad().
std::string read_at_most(std::istream& in, std::size_t limit, std::size_t size_hint);

// Overlay merge (tables/README.md): maps merge key by key, recursively; a
// null value deletes the key; a map with integer keys 1..N applied to a list
// replaces those (1-based) items; anything else replaces the base value.
Doc merge_overlay(const Doc& base, const Doc& overlay);

// Sets the node at a dotted path ("modifiers.hero.value", "bands.rf1.cells.6")
// to a scalar value, for sweeps. Returns false if the path does not exist.
bool set_path(Doc& root, std::string_view path, const std::string& value);

// The node at a dotted path (the same paths as set_path), or null.
const Doc* get_path(const Doc& root, std::string_view path);
// For a path set_path cannot follow: the part that fails and the nearest
// existing key there ("modifiers.hero.valeu": "valeu", did you mean "value").
struct PathProblem {
  std::string prefix;   // the path up to the failing part ("modifiers.hero")
  std::string part;     // the failing part
  std::string nearest;  // the nearest key or "" (none close)
  std::string expected; // what that node holds ("keys: a, b, c" or "items 1 to 6")
};
PathProblem path_problem(const Doc& root, std::string_view path);

// Text of a node for messages and diffs, in YAML flow style on one line:
// scalars as written (in double quotes, " and \ escaped, where plain text
// would not read back), [a, b] for lists, {k: v} for maps, ~ for null.
// `vedette schema`'s exploration writes its trial documents with it.
std::string flow_text(const Doc& n);
// `vedette schema`'s trial documents, written and loaded by the thousand:
// flow_text(d) and a newline, to be written to FILE, with each node of `d`
// placed where parsing that text places it (line 1, the column its token
// starts at; a scalar written in quotes is marked quoted). When every scalar
// reads back as itself without doubt (plain words and numbers that are not
// a null, quoted text in printable ASCII), the next parse_yaml of the text
// under FILE returns `d` as it is and yaml-cpp is not run; otherwise it
// parses as ever (`kept` false). tests/test_loader.cpp checks the placing
// against yaml-cpp.
struct FlowDocument {
  std::string text;
  bool kept = false;  // parse_yaml(text, file) returns `d`, unparsed
};
FlowDocument flow_document(Doc& d, const std::string& file);
namespace detail {
// parse_yaml(text, file) returns `d` while the parse cache keeps it.
void keep_parsed(std::string_view text, const std::string& file, const Doc& d);
}  // namespace detail

// One difference between two documents, at a dotted path (as set_path's:
// map keys, 1-based list items). `before`/`after` absent: the key was added
// or removed.
struct DocChange {
  std::string path;
  std::optional<std::string> before, after;  // flow_text of each side
  Location where;                            // where `after` (else `before`) was written
};
// The differences from `before` to `after`, in `after`'s order (keys only in
// `before` come where they were). Lists of equal length are compared item by
// item; anything else that differs is one change.
std::vector<DocChange> diff_docs(const Doc& before, const Doc& after);

// Typed reading with located errors. Each returns nullopt after recording an
// error that says what was expected.
class MapReader {
 public:
  MapReader(const Doc& node, Diagnostics& diags, std::string what);
  bool ok() const { return ok_; }
  const Doc* optional(std::string_view key);
  const Doc* required(std::string_view key);
  // Reports every key not asked for, with the nearest known one suggested.
  void finish();
  const Doc& node() const { return *node_; }

 private:
  const Doc* node_;
  Diagnostics* diags_;
  std::string what_;
  std::vector<std::string> known_;
  bool ok_;
};

std::optional<long long> read_int(const Doc& n, Diagnostics& d, const std::string& what, long long min, long long max);
std::optional<double> read_number(const Doc& n, Diagnostics& d, const std::string& what, double min, double max);
std::optional<bool> read_bool(const Doc& n, Diagnostics& d, const std::string& what);
std::optional<std::string> read_string(const Doc& n, Diagnostics& d, const std::string& what);
// A list of words a player may use (a unit type's, a defender class's): each
// a non-empty string, with where it was written. `example` ends the message
// for a node that is not a list ("what a player may call the type, e.g.
// [heavy cavalry]").
std::vector<std::pair<std::string, Location>> read_words(const Doc& n, Diagnostics& d, const std::string& what,
                                                         const std::string& example);
std::optional<Length> read_length(const Doc& n, Diagnostics& d, const std::string& what);
// One of `names`; the index of the match.
std::optional<std::size_t> read_choice(const Doc& n, Diagnostics& d, const std::string& what,
                                       const std::vector<std::string>& names);

// Strict integer text: optional sign, digits, nothing else.
std::optional<long long> parse_int(std::string_view s);
// Strict finite decimal text.
std::optional<double> parse_number(std::string_view s);

}  // namespace vedette
