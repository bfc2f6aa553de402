#include "engine/core/doc.hpp"

#include "engine/core/schema_notes.hpp"
#include "engine/core/utf8.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <unordered_map>
#include <unordered_set>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

namespace vedette {

const Doc* Doc::find(std::string_view key) const {
  for (const auto& e : entries)
    if (e.key == key) return &e.value;
  return nullptr;
}

Doc* Doc::find(std::string_view key) {
  for (auto& e : entries)
    if (e.key == key) return &e.value;
  return nullptr;
}

const char* Doc::kind_name() const {
  switch (kind) {
    case Kind::null: return "nothing";
    case Kind::scalar: return "a value";
    case Kind::sequence: return "a list";
    case Kind::map: return "a map";
  }
  return "nothing";
}

namespace {

Location loc(const std::string& file, const YAML::Mark& m) {
  return {file, m.line + 1, m.column + 1};
}

// The 1-based line and column (in bytes) of offset `pos` of `text`.
Location loc_at(const std::string& file, std::string_view text, std::size_t pos) {
  int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
  auto nl = pos == 0 ? std::string_view::npos : text.rfind('\n', pos - 1);
  int column = static_cast<int>(nl == std::string_view::npos ? pos + 1 : pos - nl);
  return {file, line, column};
}

// Builds the Doc tree straight from yaml-cpp's parser events, so the limits
// hold while the text is read: a file of millions of tiny values is refused
// at value 200,001 (not after yaml-cpp has built all of them in memory),
// nesting at level 33 (before yaml-cpp, which recurses once per level, goes
// deeper), and duplicate keys are found with a hash, not a scan per key.
class Builder final : public YAML::EventHandler {
 public:
  explicit Builder(const std::string& file) : file_(file) {}

  std::optional<Doc> root;
  std::optional<LoadError> key_error;  // the first key that is not a plain name

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& m, YAML::anchor_t anchor) override {
    Doc d = begin(m);
    finish(std::move(d), anchor);
  }

  void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t anchor, const std::string& value) override {
    Doc d;
    if (key_expected()) {
      d.where = loc(file_, m);  // keys are not values: not counted, no depth of their own
    } else {
      d = begin(m);
    }
    d.kind = Doc::Kind::scalar;
    d.scalar = value;
    d.quoted = tag == "!";  // yaml-cpp's tag for a quoted (non-plain) scalar
    finish(std::move(d), anchor);
  }

  void OnAlias(const YAML::Mark& m, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end())
      throw LoadError(loc(file_, m), "an alias inside the very value it names (a loop)");
    if (!key_expected() || !it->second.doc.is_scalar()) {
      // A copy: it counts in full, so a "billion laughs" of nested aliases
      // stops at the value limit.
      nodes_ += it->second.values;
      if (nodes_ > k_max_nodes) too_many(m);
      if (static_cast<int>(stack_.size()) + it->second.depth > k_max_depth) too_deep(m);
      if (!depth_below_.empty()) depth_below_.back() = std::max(depth_below_.back(), it->second.depth);
    }
    Doc copy = it->second.doc;
    copy.where = loc(file_, m);  // what is said about it is said where it is used
    place(std::move(copy));
  }

  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    open(m, anchor, Doc::Kind::sequence);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    open(m, anchor, Doc::Kind::map);
  }
  void OnMapEnd() override { close(); }

 private:
  struct Frame {
    Doc doc;
    YAML::anchor_t anchor = 0;
    std::size_t first_value = 0;  // nodes_ when it opened: its values are those after
    bool have_key = false;        // a map: its next event is a value for `key`
    bool drop_value = false;      // ...whose key was not a name (key_error)
    std::string key;
    Location key_where;
    std::unordered_map<std::string, int> lines;  // a map: each key's line
  };
  struct Anchored {
    Doc doc;
    std::size_t values = 0;
    int depth = 0;  // levels below it
  };

  bool key_expected() const { return !stack_.empty() && stack_.back().doc.is_map() && !stack_.back().have_key; }

  [[noreturn]] void too_many(const YAML::Mark& m) const {
    throw LoadError(loc(file_, m), "file too large: more than " + std::to_string(k_max_nodes) + " values");
  }
  [[noreturn]] void too_deep(const YAML::Mark& m) const {
    throw LoadError(loc(file_, m), "nested too deeply (more than " + std::to_string(k_max_depth) + " levels)");
  }

  // A new value at the current level.
  Doc begin(const YAML::Mark& m) {
    if (++nodes_ > k_max_nodes) too_many(m);
    if (static_cast<int>(stack_.size()) > k_max_depth) too_deep(m);
    Doc d;
    d.where = loc(file_, m);
    return d;
  }

  void open(const YAML::Mark& m, YAML::anchor_t anchor, Doc::Kind kind) {
    Frame f;
    f.doc = begin(m);
    f.doc.kind = kind;
    f.anchor = anchor;
    f.first_value = nodes_;
    stack_.push_back(std::move(f));
    depth_below_.push_back(0);
  }

  void close() {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    const int below = depth_below_.back() + 1;
    depth_below_.pop_back();
    if (!depth_below_.empty()) depth_below_.back() = std::max(depth_below_.back(), below);
    // A vector grown one push at a time keeps up to twice what it holds: a
    // session's 30,000 three-key history events kept 25 MB of entries, 6 MB
    // of them unused.
    f.doc.items.shrink_to_fit();
    f.doc.entries.shrink_to_fit();
    if (f.anchor) anchors_[f.anchor] = {f.doc, nodes_ - f.first_value + 1, below};
    place(std::move(f.doc));
  }

  void finish(Doc d, YAML::anchor_t anchor) {
    if (anchor) anchors_[anchor] = {d, 1, 0};
    place(std::move(d));
  }

  // Puts a complete value where it belongs: the root, a list, or a map (as
  // its next key, or as the value of the key before).
  void place(Doc d) {
    if (stack_.empty()) {
      if (!root) root = std::move(d);
      return;
    }
    Frame& f = stack_.back();
    if (f.doc.is_sequence()) {
      f.doc.items.push_back(std::move(d));
    } else if (!f.have_key && !d.is_scalar()) {
      // Reported once the whole text has parsed: a syntax error (the
      // likelier cause of a list where a key should be) comes first.
      if (!key_error)
        key_error = LoadError(d.where, std::string("a key must be a plain name, not ") + d.kind_name());
      f.have_key = true;
      f.drop_value = true;
    } else if (!f.have_key) {
      auto [it, fresh] = f.lines.emplace(d.scalar, d.where.line);
      if (!fresh)
        throw LoadError(d.where, "duplicate key '" + d.scalar + "' (first given at line " + std::to_string(it->second) + ")");
      f.key = std::move(d.scalar);
      f.key_where = d.where;
      f.have_key = true;
    } else {
      if (!f.drop_value) f.doc.entries.push_back({std::move(f.key), f.key_where, std::move(d)});
      f.have_key = false;
      f.drop_value = false;
    }
  }

  const std::string& file_;
  std::size_t nodes_ = 0;
  std::vector<Frame> stack_;
  std::vector<int> depth_below_;
  std::unordered_map<YAML::anchor_t, Anchored> anchors_;
};

// yaml-cpp reads a flow collection ([...] or {...}) whole before it says
// what is in it (a flow list may turn out to be a key), holding a few
// hundred bytes per item: 4 MiB of "[1,1,1,..." would take seconds and
// gigabytes before the value limit is reached. So count the items of flow
// collections first (commas and brackets outside quotes and comments) and
// refuse past the limit where it is passed.
//
// Also refuse flow nesting far past the limit here (the parser itself stops
// at the limit; this keeps a megabyte of '[' from reaching it at all).
void check_flow_values(std::string_view text, const std::string& file) {
  std::size_t items = 0;
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n')) {
      while (i < text.size() && text[i] != '\n') ++i;  // a comment
    } else if (depth > 0 && (c == '"' || c == '\'')) {  // a quoted scalar inside a flow collection
      for (++i; i < text.size(); ++i) {
        if (c == '"' && text[i] == '\\') ++i;
        else if (text[i] == c && !(c == '\'' && i + 1 < text.size() && text[i + 1] == '\'' && ++i)) break;
      }
    } else if (c == '[' || c == '{') {
      ++items;
      if (++depth > 4 * k_max_depth)
        throw LoadError(loc_at(file, text, i), "nested too deeply (more than " + std::to_string(k_max_depth) + " levels)");
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == ',' && depth > 0) {
      ++items;
    }
    if (items > k_max_nodes)
      throw LoadError(loc_at(file, text, std::min(i, text.size() - 1)),
                      "file too large: more than " + std::to_string(k_max_nodes) + " values");
  }
}

// The offset of the first tab in the leading whitespace of a line holding
// something, among lines 0..last (0-based), if any.
std::optional<std::size_t> indentation_tab(std::string_view text, int last) {
  std::size_t at = 0;
  for (int line = 0; line <= last && at < text.size(); ++line) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::size_t i = at;
    std::optional<std::size_t> tab;
    while (i < end && (text[i] == ' ' || text[i] == '\t')) {
      if (text[i] == '\t' && !tab) tab = i;
      ++i;
    }
    if (tab && i < end && text[i] != '\r' && text[i] != '#') return tab;
    at = end + 1;
  }
  return std::nullopt;
}

}  // namespace

namespace {

// The documents last parsed, kept by file name and whole text. Some commands
// parse the same text again and again: `vedette schema` parses each
// document it explores twice (the loader's read, then its own) and the
// built-in default under every ruleset, some 40% of its time in yaml-cpp;
// `vedette sensitivity` loads its ruleset once per variant. A copy of the
// tree costs a fraction of yaml-cpp's parse, and the same name and text give
// the same tree, so no answer changes. Only texts that parsed; at most
// k_entries, each at most k_text_bytes, the least recently used dropped.
// Shared by threads (`vedette schema` explores each kind on one).
class ParseCache {
 public:
  std::optional<Doc> find(std::string_view text, const std::string& file) {
    if (text.size() > k_text_bytes) return std::nullopt;
    std::lock_guard<std::mutex> lock(m_);
    for (Entry& e : entries_)
      if (e.file == file && e.text == text) {
        e.used = ++tick_;
        return e.doc;
      }
    return std::nullopt;
  }
  void keep(std::string_view text, const std::string& file, const Doc& d) {
    if (text.size() > k_text_bytes) return;
    std::lock_guard<std::mutex> lock(m_);
    Entry* slot = nullptr;
    for (Entry& e : entries_)
      if (e.file == file && e.text == text) slot = &e;  // kept again (flow_document): replaced, not twice
    if (!slot && entries_.size() < k_entries) slot = &entries_.emplace_back();
    if (!slot)
      slot = &*std::min_element(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
    slot->file = file;
    slot->text.assign(text);
    slot->doc = d;
    slot->used = ++tick_;
  }

 private:
  static constexpr std::size_t k_entries = 16;
  static constexpr std::size_t k_text_bytes = 256u << 10;
  struct Entry {
    std::string file, text;
    Doc doc;
    std::uint64_t used = 0;
  };
  std::mutex m_;
  std::vector<Entry> entries_;
  std::uint64_t tick_ = 0;
};

ParseCache& parse_cache() {
  static ParseCache c;
  return c;
}

Doc parse_yaml_uncached(std::string_view text, const std::string& file);

}  // namespace

void detail::keep_parsed(std::string_view text, const std::string& file, const Doc& d) { parse_cache().keep(text, file, d); }

Doc parse_yaml(std::string_view text, const std::string& file) {
  if (auto d = parse_cache().find(text, file)) return std::move(*d);
  Doc d = parse_yaml_uncached(text, file);
  parse_cache().keep(text, file, d);
  return d;
}

namespace {

Doc parse_yaml_uncached(std::string_view text, const std::string& file) {
  if (text.size() > k_max_file_bytes)
    throw LoadError({file, 0, 0}, "file too large (" + std::to_string(text.size()) + " bytes; the limit is " +
                                      std::to_string(k_max_file_bytes) + ")");
  if (auto pos = text.find('\0'); pos != std::string_view::npos)
    throw LoadError(loc_at(file, text, pos), "not a text file (it contains a NUL byte); expected YAML");
  if (auto pos = utf8_invalid_at(text); pos != std::string_view::npos) {
    static constexpr char k_hex[] = "0123456789ABCDEF";
    const auto c = static_cast<unsigned char>(text[pos]);
    throw LoadError(loc_at(file, text, pos), std::string("not UTF-8 text (byte 0x") + k_hex[c >> 4] + k_hex[c & 0xF] +
                                                 " is not part of a valid character); expected YAML in UTF-8");
  }
  check_flow_values(text, file);
  Builder b(file);
  try {
    std::istringstream in{std::string(text)};
    YAML::Parser parser(in);
    parser.HandleNextDocument(b);
  } catch (const YAML::DeepRecursion& e) {
    throw LoadError(loc(file, e.mark), "nested too deeply (more than " + std::to_string(k_max_depth) + " levels)");
  } catch (const YAML::Exception& e) {
    // yaml-cpp's words for a tab in the indentation ("illegal map value")
    // do not say what to do; a tab in the indentation of a line at or
    // before the error is the likely cause.
    if (auto tab = indentation_tab(text, e.mark.line))
      throw LoadError(loc_at(file, text, *tab), "tabs are not allowed for indentation; indent with spaces");
    throw LoadError(loc(file, e.mark), "YAML syntax error: " + e.msg);
  }
  if (b.key_error) throw *b.key_error;
  Doc d = b.root ? std::move(*b.root) : Doc{};
  if (d.where.line <= 0) d.where = {file, 1, 1};
  return d;
}

}  // namespace

std::string read_at_most(std::istream& in, std::size_t limit, std::size_t size_hint) {
  std::string text;
  text.reserve(std::min(size_hint, limit) + 1);
  std::array<char, 1 << 16> block;
  while (text.size() <= limit && in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    text.append(block.data(), static_cast<std::size_t>(in.gcount()));
  }
  return text;
}

Doc parse_yaml_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw LoadError({path, 0, 0}, std::string("cannot open: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw LoadError({path, 0, 0}, "is a folder; expected a YAML file");
  if (static_cast<std::size_t>(st.st_size) > k_max_file_bytes)
    throw LoadError({path, 0, 0}, "file too large (" + std::to_string(st.st_size) + " bytes; the limit is " +
                                      std::to_string(k_max_file_bytes) + ")");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError({path, 0, 0}, std::string("cannot read: ") + std::strerror(errno));
  // (Read in blocks, not into a zeroed buffer of the limit's size: zeroing
  // 4 MiB for each file read was a sixth of `vedette schema`'s time, which
  // reads thousands.)
  std::string text =
      read_at_most(in, k_max_file_bytes, S_ISREG(st.st_mode) ? static_cast<std::size_t>(st.st_size) : 0);
  if (in.bad()) throw LoadError({path, 0, 0}, "cannot read");
  if (text.size() > k_max_file_bytes)
    throw LoadError({path, 0, 0}, "file too large (more than " + std::to_string(k_max_file_bytes) + " bytes)");
  return parse_yaml(text, path);
}

Doc merge_overlay(const Doc& base, const Doc& overlay) {
  if (base.is_map() && overlay.is_map()) {
    Doc out;
    out.kind = Doc::Kind::map;
    // The merged map was last written in the overlay: problems found in it
    // (a key deleted with ~, a face left out, ...) are reported there, in
    // the file the user wrote, not in the base.
    out.where = overlay.where;
    // Keys are unique in each map (parse_yaml): index the overlay's once.
    std::unordered_map<std::string_view, const DocEntry*> over;
    over.reserve(overlay.entries.size());
    for (const auto& e : overlay.entries) over.emplace(e.key, &e);
    std::unordered_set<std::string_view> in_base;
    in_base.reserve(base.entries.size());
    out.entries.reserve(base.entries.size() + overlay.entries.size());
    // The base's keys in their order: kept, merged, or deleted by ~ ...
    for (const auto& b : base.entries) {
      in_base.insert(b.key);
      auto it = over.find(b.key);
      if (it == over.end()) {
        out.entries.push_back(b);
      } else if (!it->second->value.is_null()) {
        out.entries.push_back({b.key, it->second->key_where, merge_overlay(b.value, it->second->value)});
      }
    }
    // ... then the overlay's new keys, in its order.
    for (const auto& e : overlay.entries)
      if (!e.value.is_null() && !in_base.count(e.key)) out.entries.push_back(e);
    return out;
  }
  if (base.is_sequence() && overlay.is_map() && !overlay.entries.empty()) {
    // A map of whole numbers over a list replaces items by number: one
    // beyond the list is named (a row of cells has D6 faces 1 to 6).
    const bool numbered = std::all_of(overlay.entries.begin(), overlay.entries.end(), [](const DocEntry& e) { return parse_int(e.key).has_value(); });
    if (numbered)
      for (const auto& e : overlay.entries) {
        const long long i = *parse_int(e.key);
        if (i >= 1 && static_cast<std::size_t>(i) <= base.items.size()) continue;
        const std::string n = std::to_string(base.items.size());
        if (base.items.size() == 6)
          throw LoadError(e.key_where, "no face " + e.key + " on a D6: a map of cells replaces faces 1 to 6 of the row by number");
        throw LoadError(e.key_where, "no item " + e.key + " to replace: the list has " + n + " items, so a map over it takes keys 1 to " + n);
      }
    bool all_indices = std::all_of(overlay.entries.begin(), overlay.entries.end(), [&](const DocEntry& e) {
      auto i = parse_int(e.key);
      return i && *i >= 1 && static_cast<std::size_t>(*i) <= base.items.size();
    });
    if (all_indices) {
      Doc out = base;
      out.where = overlay.where;
      for (const auto& e : overlay.entries)
        out.items[static_cast<std::size_t>(*parse_int(e.key) - 1)] = merge_overlay(base.items[static_cast<std::size_t>(*parse_int(e.key) - 1)], e.value);
      return out;
    }
  }
  return overlay;
}

bool set_path(Doc& root, std::string_view path, const std::string& value) {
  // A value that is wrong is the flag's fault, not the file's: it is
  // reported at the flag (`--set PATH=VALUE`), not at the line it replaces.
  Location flag{"--set " + std::string(path) + "=" + value, 0, 0};
  Doc* cur = &root;
  while (!path.empty()) {
    auto dot = path.find('.');
    std::string_view part = path.substr(0, dot);
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
    if (cur->is_map()) {
      cur = cur->find(part);
    } else if (cur->is_sequence()) {
      auto i = parse_int(part);
      if (!i || *i < 1 || static_cast<std::size_t>(*i) > cur->items.size()) return false;
      cur = &cur->items[static_cast<std::size_t>(*i - 1)];
    } else {
      return false;
    }
    if (!cur) return false;
  }
  if (cur->is_map() || cur->is_sequence()) return false;
  cur->kind = Doc::Kind::scalar;
  cur->scalar = value;
  cur->quoted = false;
  cur->where = std::move(flag);
  return true;
}

// ---------------------------------------------------------------- reading

namespace {

thread_local SchemaRecorder* t_recorder = nullptr;

SchemaNote* note_for(const Doc& n) {
  if (!t_recorder || n.where.line <= 0) return nullptr;
  return &t_recorder->notes[n.where];
}

void note_type(const Doc& n, const char* type, double min = 0, double max = 0) {
  if (SchemaNote* s = note_for(n); s && n.is_scalar()) {
    s->type = type;
    s->min = min;
    s->max = max;
  }
}

}  // namespace

SchemaRecorder::SchemaRecorder() { t_recorder = this; }
SchemaRecorder::~SchemaRecorder() { t_recorder = nullptr; }
SchemaRecorder* SchemaRecorder::active() { return t_recorder; }

MapReader::MapReader(const Doc& node, Diagnostics& diags, std::string what)
    : node_(&node), diags_(&diags), what_(std::move(what)), ok_(node.is_map()) {
  if (!ok_) diags.error(node.where, "expected a map for " + what_ + ", found " + node.kind_name());
  // (A node the loader wanted as a map but found otherwise still gets its
  // empty note: `vedette schema`'s exploration learns that it was read.)
  if (SchemaNote* s = note_for(node); s && ok_) s->map = true;
}

const Doc* MapReader::optional(std::string_view key) {
  if (SchemaNote* s = ok_ ? note_for(*node_) : nullptr) {
    auto it = std::find_if(s->keys.begin(), s->keys.end(), [&](const auto& k) { return k.first == key; });
    if (it == s->keys.end()) s->keys.emplace_back(std::string(key), false);
  }
  known_.emplace_back(key);
  if (!ok_) return nullptr;
  const Doc* d = node_->find(key);
  return d;
}

const Doc* MapReader::required(std::string_view key) {
  const Doc* d = optional(key);
  if (SchemaNote* s = ok_ ? note_for(*node_) : nullptr)
    for (auto& k : s->keys)
      if (k.first == key) k.second = true;
  if (ok_ && !d) diags_->error(node_->where, "missing key '" + std::string(key) + "' in " + what_);
  return d;
}

void MapReader::finish() {
  if (!ok_) return;
  for (const auto& e : node_->entries) {
    if (std::find(known_.begin(), known_.end(), e.key) != known_.end()) continue;
    std::string msg = "unknown key '" + e.key + "' in " + what_;
    std::string near = nearest(e.key, known_);
    if (!near.empty()) {
      msg += ", did you mean '" + near + "'?";
    } else {
      msg += " (expected one of:";
      for (std::size_t i = 0; i < known_.size(); ++i) msg += (i ? ", " : " ") + known_[i];
      msg += ")";
    }
    diags_->error(e.key_where, msg);
  }
}

std::optional<long long> parse_int(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_number(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

static bool expect_scalar(const Doc& n, Diagnostics& d, const std::string& what, const std::string& expected) {
  if (n.is_scalar()) return true;
  d.error(n.where, "expected " + expected + " for " + what + ", found " + n.kind_name());
  return false;
}

std::optional<long long> read_int(const Doc& n, Diagnostics& d, const std::string& what, long long min, long long max) {
  std::string expected = "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
  note_type(n, "integer", static_cast<double>(min), static_cast<double>(max));
  if (!expect_scalar(n, d, what, expected)) return std::nullopt;
  auto v = n.quoted ? std::nullopt : parse_int(n.scalar);
  if (!v || *v < min || *v > max) {
    d.error(n.where, "expected " + expected + " for " + what + ", found '" + n.scalar + "'");
    return std::nullopt;
  }
  return v;
}

std::optional<double> read_number(const Doc& n, Diagnostics& d, const std::string& what, double min, double max) {
  std::ostringstream ex;
  ex << "a number from " << min << " to " << max;
  note_type(n, "number", min, max);
  if (!expect_scalar(n, d, what, ex.str())) return std::nullopt;
  auto v = n.quoted ? std::nullopt : parse_number(n.scalar);
  if (!v || *v < min || *v > max) {
    d.error(n.where, "expected " + ex.str() + " for " + what + ", found '" + n.scalar + "'");
    return std::nullopt;
  }
  return v;
}

std::optional<bool> read_bool(const Doc& n, Diagnostics& d, const std::string& what) {
  note_type(n, "boolean");
  if (!expect_scalar(n, d, what, "true or false")) return std::nullopt;
  if (!n.quoted && (n.scalar == "true" || n.scalar == "yes")) return true;
  if (!n.quoted && (n.scalar == "false" || n.scalar == "no")) return false;
  d.error(n.where, "expected true or false for " + what + ", found '" + n.scalar + "'");
  return std::nullopt;
}

std::optional<std::string> read_string(const Doc& n, Diagnostics& d, const std::string& what) {
  note_type(n, "string");
  if (!expect_scalar(n, d, what, "text")) return std::nullopt;
  return n.scalar;
}

std::vector<std::pair<std::string, Location>> read_words(const Doc& n, Diagnostics& d, const std::string& what,
                                                         const std::string& example) {
  std::vector<std::pair<std::string, Location>> out;
  if (!n.is_sequence()) {
    d.error(n.where, "expected a list of words for " + what + " (" + example + "), found " + n.kind_name());
    return out;
  }
  for (const Doc& w : n.items)
    if (auto v = read_string(w, d, what)) {
      if (v->empty()) d.error(w.where, "expected a word in " + what + ", found an empty string");
      else out.emplace_back(*v, w.where);
    }
  return out;
}

std::optional<Length> read_length(const Doc& n, Diagnostics& d, const std::string& what) {
  const std::string expected = "a length with its unit (e.g. 30cm, 12in)";
  note_type(n, "length");
  if (!expect_scalar(n, d, what, expected)) return std::nullopt;
  auto v = parse_length(n.scalar);
  if (!v) {
    d.error(n.where, "expected " + expected + " for " + what + ", found '" + n.scalar + "'");
    return std::nullopt;
  }
  if (v->as_cm() < 0) {
    d.error(n.where, "expected a length of zero or more for " + what + ", found '" + n.scalar + "'");
    return std::nullopt;
  }
  if (v->as_cm() > k_max_length_cm) {
    d.error(n.where, "expected a length of at most 1 km (100000cm) for " + what + ", found '" + n.scalar + "'");
    return std::nullopt;
  }
  return v;
}

std::optional<std::size_t> read_choice(const Doc& n, Diagnostics& d, const std::string& what,
                                       const std::vector<std::string>& names) {
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + names[i];
  note_type(n, "choice");
  if (SchemaNote* s = note_for(n); s && n.is_scalar()) s->choices = names;
  if (!expect_scalar(n, d, what, "one of " + list)) return std::nullopt;
  auto it = std::find(names.begin(), names.end(), n.scalar);
  if (it == names.end()) {
    std::string near = nearest(n.scalar, names);
    d.error(n.where, "unknown " + what + " '" + n.scalar + "'" +
                         (near.empty() ? "" : ", did you mean '" + near + "'?") + " (expected one of: " + list + ")");
    return std::nullopt;
  }
  return static_cast<std::size_t>(it - names.begin());
}

std::optional<std::size_t> read_name(const Doc& n, Diagnostics& d, const std::string& what,
                                     const std::vector<std::string>& names) {
  auto i = read_choice(n, d, what, names);
  // The names stay in the note for `vedette schema`'s exploration (a value
  // the loader takes here); the schema leaves a name open.
  if (SchemaNote* s = note_for(n); s && n.is_scalar()) s->type = "name";
  return i;
}

void note_example(const Doc& n, std::string value) {
  if (SchemaNote* s = note_for(n); s && n.is_scalar()) s->example = std::move(value);
}

void note_words(const Doc& n, std::vector<std::string> words) {
  if (SchemaNote* s = note_for(n); s && n.is_scalar()) s->words = std::move(words);
}

void note_bounds(const Doc& n, double min, double max) {
  if (SchemaNote* s = note_for(n); s && n.is_scalar()) {
    s->min = min;
    s->max = max;
  }
}

void note_named_keys(const Doc& n) {
  if (SchemaNote* s = note_for(n); s && n.is_map()) s->named_keys = true;
}

void note_key_names(const Location& key_where, const std::vector<std::string>& names) {
  if (!t_recorder || key_where.line <= 0) return;
  t_recorder->notes[key_where].choices = names;
}

void note_map(const Doc& n) {
  if (SchemaNote* s = note_for(n); s && n.is_map()) s->map = true;
}

void note_items(const Doc& n, std::size_t count) {
  if (SchemaNote* s = note_for(n); s && n.is_sequence()) s->items = static_cast<long long>(count);
}

}  // namespace vedette
