// Dotted paths into a Doc (get_path, path_problem) and differences between
// two Docs (diff_docs), for `--set`, `vedette table --diff` and the reports
// that start with what a house rule changes.
#include "engine/core/doc.hpp"

#include <algorithm>
#include <cctype>

namespace vedette {

namespace {

std::string_view next_part(std::string_view& path) {
  const auto dot = path.find('.');
  std::string_view part = path.substr(0, dot);
  path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  return part;
}

const Doc* child(const Doc& n, std::string_view part) {
  if (n.is_map()) return n.find(part);
  if (n.is_sequence()) {
    auto i = parse_int(part);
    if (!i || *i < 1 || static_cast<std::size_t>(*i) > n.items.size()) return nullptr;
    return &n.items[static_cast<std::size_t>(*i - 1)];
  }
  return nullptr;
}

std::string join(const std::string& prefix, const std::string& part) { return prefix.empty() ? part : prefix + "." + part; }

void diff_into(const Doc& a, const Doc& b, const std::string& path, std::vector<DocChange>& out) {
  if (a.is_map() && b.is_map()) {
    // b's keys in b's order; a key only in a comes just before the first of
    // b's keys that followed it in a (or at the end).
    for (std::size_t i = 0; i < a.entries.size(); ++i)
      if (!b.find(a.entries[i].key)) {
        // Removed keys are reported in a's order, ahead of what b changed.
        out.push_back({join(path, a.entries[i].key), flow_text(a.entries[i].value), std::nullopt, a.entries[i].value.where});
      }
    for (const auto& e : b.entries) {
      const Doc* old = a.find(e.key);
      if (!old) out.push_back({join(path, e.key), std::nullopt, flow_text(e.value), e.key_where});
      else diff_into(*old, e.value, join(path, e.key), out);
    }
    return;
  }
  if (a.is_sequence() && b.is_sequence() && a.items.size() == b.items.size()) {
    for (std::size_t i = 0; i < a.items.size(); ++i) diff_into(a.items[i], b.items[i], join(path, std::to_string(i + 1)), out);
    return;
  }
  const std::string ta = flow_text(a), tb = flow_text(b);
  if (ta != tb) out.push_back({path.empty() ? "(the whole file)" : path, ta, tb, b.where});
}

bool plain(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c == ',' || c == '[' || c == ']' || c == '{' || c == '}' || c == ':' || c == '#' || c == '"' || c == '\'') return false;
  return s.front() != ' ' && s.back() != ' ';
}

}  // namespace

const Doc* get_path(const Doc& root, std::string_view path) {
  const Doc* cur = &root;
  while (cur && !path.empty()) cur = child(*cur, next_part(path));
  return cur;
}

PathProblem path_problem(const Doc& root, std::string_view path) {
  PathProblem p;
  const Doc* cur = &root;
  while (!path.empty()) {
    const std::string part(next_part(path));
    const Doc* next = child(*cur, part);
    if (!next) {
      p.part = part;
      if (cur->is_map()) {
        std::vector<std::string> keys;
        for (const auto& e : cur->entries) keys.push_back(e.key);
        p.nearest = nearest(part, keys);
        std::string list;
        for (std::size_t i = 0; i < keys.size() && i < 12; ++i) list += (i ? ", " : "") + keys[i];
        if (keys.size() > 12) list += ", ...";
        p.expected = keys.empty() ? "an empty map" : "one of: " + list;
      } else if (cur->is_sequence()) {
        p.expected = "an item number from 1 to " + std::to_string(cur->items.size());
      } else {
        p.expected = "nothing below it: '" + p.prefix + "' is a single value (" + flow_text(*cur) + ")";
      }
      return p;
    }
    p.prefix = join(p.prefix, part);
    cur = next;
  }
  if (cur->is_map() || cur->is_sequence()) {
    p.expected = std::string("a single value, but '") + p.prefix + "' is " + cur->kind_name() + "; add one of its parts to the path";
    if (cur->is_map() && !cur->entries.empty()) p.nearest = join(p.prefix, cur->entries.front().key);
  }
  return p;
}

// In double quotes, with " and \ escaped: text YAML reads back.
std::string quoted_text(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o + "\"";
}

std::string flow_text(const Doc& n) {
  switch (n.kind) {
    case Doc::Kind::null: return "~";
    case Doc::Kind::scalar: return n.quoted || !plain(n.scalar) ? quoted_text(n.scalar) : n.scalar;
    case Doc::Kind::sequence: {
      std::string o = "[";
      for (std::size_t i = 0; i < n.items.size(); ++i) o += (i ? ", " : "") + flow_text(n.items[i]);
      return o + "]";
    }
    case Doc::Kind::map: {
      std::string o = "{";
      for (std::size_t i = 0; i < n.entries.size(); ++i) {
        const std::string& k = n.entries[i].key;
        o += (i ? ", " : "") + (plain(k) ? k : quoted_text(k)) + ": " + flow_text(n.entries[i].value);
      }
      return o + "}";
    }
  }
  return "";
}

namespace {

// A plain scalar that yaml-cpp reads back as the same text and not as a null
// or anything else: letters, digits and _ . + - / and inner spaces, starting
// with a letter or digit (or a sign or point before a digit).
bool plain_beyond_doubt(const std::string& s) {
  if (s.empty() || s == "null" || s == "Null" || s == "NULL") return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '+' && c != '-' && c != '/' && c != ' ') return false;
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  const bool lead = std::isalnum(static_cast<unsigned char>(s.front())) || (s.size() > 1 && digit(s[1]));
  return lead && s.back() != ' ' && s.find("  ") == std::string::npos;
}

bool printable_ascii(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c <= 0x7E; });
}

// flow_text(n) appended to `out`, n's nodes placed as it goes; false if a
// scalar might read back otherwise, or the parse would refuse the document
// (deeper than k_max_depth, more than k_max_nodes values: it says so).
bool place_flow(Doc& n, std::string& out, const std::string& file, int depth, std::size_t& nodes) {
  n.where = Location{file, 1, static_cast<int>(out.size()) + 1};
  if (depth > k_max_depth || ++nodes > k_max_nodes) return false;
  switch (n.kind) {
    case Doc::Kind::null: out += "~"; return true;
    case Doc::Kind::scalar:
      if (!n.quoted && plain(n.scalar)) {
        out += n.scalar;
        return plain_beyond_doubt(n.scalar);
      }
      n.quoted = true;
      out += quoted_text(n.scalar);
      return printable_ascii(n.scalar);
    case Doc::Kind::sequence: {
      bool exact = true;
      out += "[";
      for (std::size_t i = 0; i < n.items.size(); ++i) {
        if (i) out += ", ";
        exact = place_flow(n.items[i], out, file, depth + 1, nodes) && exact;
      }
      out += "]";
      return exact;
    }
    case Doc::Kind::map: {
      bool exact = true;
      out += "{";
      for (std::size_t i = 0; i < n.entries.size(); ++i) {
        DocEntry& e = n.entries[i];
        if (i) out += ", ";
        for (std::size_t j = 0; j < i; ++j) exact = exact && n.entries[j].key != e.key;  // a duplicate key is an error
        e.key_where = Location{file, 1, static_cast<int>(out.size()) + 1};
        if (plain(e.key)) {
          out += e.key;
          exact = exact && plain_beyond_doubt(e.key);
        } else {
          out += quoted_text(e.key);
          exact = exact && printable_ascii(e.key);
        }
        out += ": ";
        exact = place_flow(e.value, out, file, depth + 1, nodes) && exact;
      }
      out += "}";
      return exact;
    }
  }
  return false;
}

}  // namespace

FlowDocument flow_document(Doc& d, const std::string& file) {
  FlowDocument f;
  std::size_t nodes = 0;
  f.kept = place_flow(d, f.text, file, 0, nodes);
  f.text += "\n";
  if (f.kept) detail::keep_parsed(f.text, file, d);
  return f;
}

std::vector<DocChange> diff_docs(const Doc& before, const Doc& after) {
  std::vector<DocChange> out;
  diff_into(before, after, "", out);
  return out;
}

}  // namespace vedette
