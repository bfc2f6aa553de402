#pragma once
// What the loaders ask of a document, noted while a SchemaRecorder is alive
// on the thread: every MapReader's keys (required or optional) and every
// typed read (whole number and its bounds, number, true/false, text, length,
// one of a list). `vedette schema` loads files under a recorder and turns
// the notes into a JSON Schema, so the schema is the loaders' own key
// tables and cannot drift from them.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"

namespace vedette {

struct SchemaNote {
  bool map = false;                                 // read by a MapReader
  std::vector<std::pair<std::string, bool>> keys;   // the keys it asked for; true: required
  // "integer", "number", "boolean", "string", "length", "choice" (one of the
  // loader's own names), "name" (one of the names a document defines:
  // behaviours, weapons, unit types, profiles, sides, units); "" not read
  std::string type;
  double min = 0, max = 0;                          // integer, number: the bounds
  // choice: the names; name: the names the document defines so far (for
  // `vedette schema`'s exploration: the schema leaves a name open)
  std::vector<std::string> choices;
  std::string example;                              // a value the loader takes here (a table: builtin:default), for exploring
  long long items = -1;                             // a list the loader wants exactly this long (a D6 row: 6)
  bool named_keys = false;                          // a map whose keys are names the document defines (a side's): open
  std::vector<std::string> words;                   // words the loader takes here besides its type (smc_max: any)
};

// Notes by where the node was written, ordered by line, column, then file:
// looked up by the node's own Location, with no key text built (`vedette
// schema` looks notes up thousands of times a document).
struct NoteOrder {
  bool operator()(const Location& a, const Location& b) const {
    if (a.line != b.line) return a.line < b.line;
    if (a.column != b.column) return a.column < b.column;
    return a.file < b.file;
  }
};
using SchemaNotes = std::map<Location, SchemaNote, NoteOrder>;

class SchemaRecorder {
 public:
  SchemaRecorder();
  ~SchemaRecorder();
  SchemaRecorder(const SchemaRecorder&) = delete;
  SchemaRecorder& operator=(const SchemaRecorder&) = delete;
  SchemaNotes notes;
  // The recorder of this thread, or null.
  static SchemaRecorder* active();
};

// One of the names a document defines (behaviours, weapons, unit types,
// profiles, sides, units): read as read_choice (engine/core/doc.hpp), but a
// schema leaves it open, since a house rule or another scenario may define
// other names.
std::optional<std::size_t> read_name(const Doc& n, Diagnostics& d, const std::string& what,
                                     const std::vector<std::string>& names);
// For `vedette schema`'s exploration: a value the loader takes at `n` where
// any text would not do (a table to load: "builtin:default").
void note_example(const Doc& n, std::string value);
// For `vedette schema`: the loader takes these words at `n` besides the
// type it reads (checked by hand before: a move_cost of `impassable`).
void note_words(const Doc& n, std::vector<std::string> words);
// For `vedette schema`: the bounds a value may have whatever the rest of the
// document says, where the loader reads it within bounds the document sets
// (a square's bounce_on faces: up to its die, at most a D20).
void note_bounds(const Doc& n, double min, double max);
// For `vedette schema`: `n` is a map whose keys are names the document
// defines (the schema leaves them open; the loader asks for each by name).
void note_named_keys(const Doc& n);
// For `vedette schema`: a map's key written at `key_where` must be one of
// `names` (checked by hand: seed 003's defender classes).
void note_key_names(const Location& key_where, const std::vector<std::string>& names);
// For `vedette schema`: `n` is read as a map whose values are checked
// elsewhere (a session's memory, compared with the replay's).
void note_map(const Doc& n);
// For `vedette schema`: the list `n` must have exactly `count` items (the
// caller checks it and says so).
void note_items(const Doc& n, std::size_t count);

}  // namespace vedette
