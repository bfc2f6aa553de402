#include "engine/doc.hpp"

#include "engine/utf8.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

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

struct Converter {
  const std::string& file;
  std::size_t nodes = 0;

  Doc convert(const YAML::Node& n, int depth) {
    if (++nodes > k_max_nodes)
      throw LoadError(loc(file, n.Mark()), "file too large: more than " + std::to_string(k_max_nodes) + " values");
    if (depth > k_max_depth)
      throw LoadError(loc(file, n.Mark()), "nested too deeply (more than " + std::to_string(k_max_depth) + " levels)");
    Doc d;
    d.where = loc(file, n.Mark());
    switch (n.Type()) {
      case YAML::NodeType::Undefined:
      case YAML::NodeType::Null:
        d.kind = Doc::Kind::null;
        break;
      case YAML::NodeType::Scalar:
        d.kind = Doc::Kind::scalar;
        d.scalar = n.Scalar();
        d.quoted = n.Tag() == "!";
        break;
      case YAML::NodeType::Sequence:
        d.kind = Doc::Kind::sequence;
        for (const auto& item : n) d.items.push_back(convert(item, depth + 1));
        break;
      case YAML::NodeType::Map:
        d.kind = Doc::Kind::map;
        for (auto it = n.begin(); it != n.end(); ++it) {
          // Copies: yaml-cpp's iterator hands out a temporary pair.
          const YAML::Node k = it->first;
          const YAML::Node v = it->second;
          Location kw = loc(file, k.Mark());
          if (!k.IsScalar()) throw LoadError(kw, "a key must be a plain name, not " + std::string(k.IsMap() ? "a map" : "a list"));
          std::string key = k.Scalar();
          for (const auto& e : d.entries)
            if (e.key == key)
              throw LoadError(kw, "duplicate key '" + key + "' (first given at line " + std::to_string(e.key_where.line) + ")");
          d.entries.push_back({key, kw, convert(v, depth + 1)});
        }
        break;
    }
    return d;
  }
};

// yaml-cpp recurses once per nesting level; refuse absurd nesting before it
// sees the text, so hostile input cannot exhaust the stack.
void check_flow_depth(std::string_view text, const std::string& file) {
  int depth = 0, line = 1, col = 0;
  for (char c : text) {
    ++col;
    if (c == '\n') { ++line; col = 0; }
    if (c == '[' || c == '{') {
      if (++depth > k_max_depth * 4)
        throw LoadError({file, line, col}, "nested too deeply (more than " + std::to_string(k_max_depth) + " levels)");
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

}  // namespace

Doc parse_yaml(std::string_view text, const std::string& file) {
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
  check_flow_depth(text, file);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    std::string msg = e.msg;
    throw LoadError(loc(file, e.mark), "YAML syntax error: " + msg);
  }
  Converter c{file};
  try {
    Doc d = c.convert(root, 0);
    if (d.where.line <= 0) d.where = {file, 1, 1};
    return d;
  } catch (const YAML::Exception& e) {
    throw LoadError(loc(file, e.mark), std::string("YAML error: ") + e.msg);
  }
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
  // Read at most one byte past the limit: a device or pipe (/dev/zero) has
  // no size to check beforehand and must not be read without end.
  std::string text(k_max_file_bytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw LoadError({path, 0, 0}, "cannot read");
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > k_max_file_bytes)
    throw LoadError({path, 0, 0}, "file too large (more than " + std::to_string(k_max_file_bytes) + " bytes)");
  return parse_yaml(text, path);
}

Doc merge_overlay(const Doc& base, const Doc& overlay) {
  if (base.is_map() && overlay.is_map()) {
    Doc out = base;
    // The merged map was last written in the overlay: problems found in it
    // (a key deleted with ~, a face left out, ...) are reported there, in
    // the file the user wrote, not in the base.
    out.where = overlay.where;
    for (const auto& e : overlay.entries) {
      auto it = std::find_if(out.entries.begin(), out.entries.end(), [&](const DocEntry& b) { return b.key == e.key; });
      if (e.value.is_null()) {
        if (it != out.entries.end()) out.entries.erase(it);
      } else if (it == out.entries.end()) {
        out.entries.push_back(e);
      } else {
        it->key_where = e.key_where;
        it->value = merge_overlay(it->value, e.value);
      }
    }
    return out;
  }
  if (base.is_sequence() && overlay.is_map() && !overlay.entries.empty()) {
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
  return true;
}

// ---------------------------------------------------------------- reading

MapReader::MapReader(const Doc& node, Diagnostics& diags, std::string what)
    : node_(&node), diags_(&diags), what_(std::move(what)), ok_(node.is_map()) {
  if (!ok_) diags.error(node.where, "expected a map for " + what_ + ", found " + node.kind_name());
}

const Doc* MapReader::optional(std::string_view key) {
  known_.emplace_back(key);
  if (!ok_) return nullptr;
  const Doc* d = node_->find(key);
  return d;
}

const Doc* MapReader::required(std::string_view key) {
  const Doc* d = optional(key);
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
  if (!expect_scalar(n, d, what, ex.str())) return std::nullopt;
  auto v = n.quoted ? std::nullopt : parse_number(n.scalar);
  if (!v || *v < min || *v > max) {
    d.error(n.where, "expected " + ex.str() + " for " + what + ", found '" + n.scalar + "'");
    return std::nullopt;
  }
  return v;
}

std::optional<bool> read_bool(const Doc& n, Diagnostics& d, const std::string& what) {
  if (!expect_scalar(n, d, what, "true or false")) return std::nullopt;
  if (!n.quoted && (n.scalar == "true" || n.scalar == "yes")) return true;
  if (!n.quoted && (n.scalar == "false" || n.scalar == "no")) return false;
  d.error(n.where, "expected true or false for " + what + ", found '" + n.scalar + "'");
  return std::nullopt;
}

std::optional<std::string> read_string(const Doc& n, Diagnostics& d, const std::string& what) {
  if (!expect_scalar(n, d, what, "text")) return std::nullopt;
  return n.scalar;
}

std::optional<Length> read_length(const Doc& n, Diagnostics& d, const std::string& what) {
  const std::string expected = "a length with its unit (e.g. 30cm, 12in)";
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
  return v;
}

std::optional<std::size_t> read_choice(const Doc& n, Diagnostics& d, const std::string& what,
                                       const std::vector<std::string>& names) {
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + names[i];
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

}  // namespace vedette
