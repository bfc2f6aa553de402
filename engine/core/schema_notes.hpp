#pragma once
// What the loaders ask of a document, noted while a SchemaRecorder is alive
// on the thread: every MapReader's keys (required or optional) and every
// typed read (whole number and its bounds, number, true/false, text, length,
// one of a list). `vedette schema` loads files under a recorder and turns
// the notes into a JSON Schema, so the schema is the loaders' own key
// tables and cannot drift from them.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/diagnostics.hpp"

namespace vedette {

struct SchemaNote {
  bool map = false;                                 // read by a MapReader
  std::vector<std::pair<std::string, bool>> keys;   // the keys it asked for; true: required
  std::string type;                                 // "integer", "number", "boolean", "string", "length", "choice"; "" not read
  double min = 0, max = 0;                          // integer, number: the bounds
  std::vector<std::string> choices;                 // choice: the names
};

class SchemaRecorder {
 public:
  SchemaRecorder();
  ~SchemaRecorder();
  SchemaRecorder(const SchemaRecorder&) = delete;
  SchemaRecorder& operator=(const SchemaRecorder&) = delete;
  // By where the node was written: "file:line:column".
  std::map<std::string, SchemaNote> notes;
  // The recorder of this thread, or null.
  static SchemaRecorder* active();
};

inline std::string note_key(const Location& l) { return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column); }

}  // namespace vedette
