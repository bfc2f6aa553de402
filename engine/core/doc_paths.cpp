// Dotted paths into a Doc (get_path, path_problem) and differences between
// two Docs (diff_docs), for `--set`, `vedette table --diff` and the reports
// that start with what a house rule changes.
#include "engine/core/doc.hpp"

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

std::vector<DocChange> diff_docs(const Doc& before, const Doc& after) {
  std::vector<DocChange> out;
  diff_into(before, after, "", out);
  return out;
}

}  // namespace vedette
