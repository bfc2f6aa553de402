// The loaders explored without sample files (issue 31): a document of each
// kind starts as `{}` and is loaded under a SchemaRecorder
// (engine/core/schema_notes.hpp); what the loader noted grows it:
//
// - every key a map's reader asked for (required or optional) is put in
//   with a placeholder, tried as a value, then as a map, then as a list of
//   three, then of one, until the loader reads it as one (a typed read, a
//   map's reader, items read); a key read as none of them is left out (the
//   schema leaves it open); keys the reader did not ask for are taken out;
// - a map of names the document chooses (behaviours, sides, ...) gets two
//   entries, renamed where the loader checks them against names of its own
//   (note_key_names: seed 003's defender classes); a list gets the length
//   the loader wants (a D6 row: 6);
// - a typed value the loader refused is set to one it takes: a number within
//   the bounds it read, a length, true, text unique to its place, the first
//   of its own names (a choice), a name the document defines (a name), or
//   the example the loader gives where text would not do (a table to load:
//   builtin:default).
//
// When a document stops changing it is settled. Its branches are then tried
// in copies, each once per place in the document's shape: every other name
// of a choice, the other truth value, each optional key left out and each
// alone among its map's optional keys (and, alone, with each key left out
// that no load has read yet: a victory's side_losses with at_least), and a
// value written as a list. A copy is kept only if, settled, the loader did
// something no kept document showed (other keys asked, other types or bounds
// read). The kept documents and their notes are what `vedette schema` turns
// into a schema (sims/cli/commands/cmd_schema.cpp). VEDETTE_SCHEMA_TRACE=1
// prints each load, what the loader said, and each settled copy.
#include "sims/cli/commands/schema_explore.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "engine/core/diagnostics.hpp"

namespace vedette::cli {

namespace {

namespace fs = std::filesystem;

// Limits that a loader's shape never reaches today (every kind settles well
// inside them, tests/test_schema.cpp); reaching one is said in the output.
constexpr int k_max_rounds = 60;     // loads of one document before it settles
constexpr int k_max_loads = 20000;   // loads of one kind in all

// What a placeholder is tried as, in order.
// `withheld`: left out on purpose (a copy without an optional key), never
// put in again; `left_out`: read as none of the forms, tried again in copies.
// (`as_short_list`: one item, where three are too many: a gut check's dice.)
enum Stage : int { as_scalar = 0, as_map = 1, as_list = 2, as_short_list = 3, left_out = 4, withheld = 5 };

Doc scalar_doc(std::string text) {
  Doc d;
  d.kind = Doc::Kind::scalar;
  d.scalar = std::move(text);
  return d;
}

// The placeholder for a stage; its inner value is a scalar placeholder at
// PATH.x1 (a map) or PATH.0 (a list).
Doc placeholder(int stage) {
  Doc d;
  if (stage == as_scalar) return scalar_doc("1");
  if (stage == as_map) {  // two names (a scenario's sides are two); a map of fixed keys drops them
    d.kind = Doc::Kind::map;
    for (const char* name : {"x1", "x2"}) {
      d.entries.emplace_back();
      d.entries.back().key = name;
      d.entries.back().value = scalar_doc("1");
    }
  } else {  // three items (a polygon wants three points at least), else one; a list of a fixed length is cut to it
    d.kind = Doc::Kind::sequence;
    d.items.assign(stage == as_list ? 3 : 1, scalar_doc("1"));
  }
  return d;
}

// Registers the scalar placeholders inside a map or list placeholder.
void stage_inner(std::map<std::string, int>& stage, const std::string& path, int st) {
  if (st == as_map) {
    stage.emplace(path + ".x1", as_scalar);
    stage.emplace(path + ".x2", as_scalar);
  } else if (st == as_list) {
    for (const char* i : {".0", ".1", ".2"}) stage.emplace(path + i, as_scalar);
  } else if (st == as_short_list) {
    stage.emplace(path + ".0", as_scalar);
  }
}

struct Candidate {
  Doc doc;                           // as parsed at its last load, grown since
  std::map<std::string, int> stage;  // placeholders by path ("units.0.position"): their Stage
  int rounds = 0;
  // A copy (another name, an optional key left out or alone): kept only if,
  // once it settles, the loader did something no kept document showed.
  bool copy = false, novel = false;
  // An optional key alone among its map's (at `alone_path`, in the shape
  // `alone_shape`), the others left out.
  std::string alone_path, alone_shape, alone_key;
  std::vector<std::string> others_held;
  std::string why;  // what made it (for VEDETTE_SCHEMA_TRACE)
  // A value put in as a list (FormAt): where; dropped at once if the loader
  // does not read it as one.
  std::vector<std::size_t> as_list_route;
  bool as_list_copy = false;
};

// One load of a candidate: the document as parsed, the notes, and where the
// loader put an error.
struct Load {
  Explored e;
  std::set<Location, NoteOrder> errors;  // each error's place in this file
};

Load load(const TableFormat& k, const Doc& d, const std::string& file, const std::string& why) {
  // One line: each node at a column of its own, which the notes are keyed
  // by. flow_document places the nodes as the loader's parse will, and
  // spares that parse where it can (engine/core/doc.hpp).
  Doc placed = d;
  const auto [text, kept] = flow_document(placed, file);
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
  }
  Load l;
  if (std::getenv("VEDETTE_SCHEMA_TRACE")) std::fprintf(stderr, "[%s] %s", why.c_str(), text.c_str());
  {
    SchemaRecorder rec;
    try {
      load_table(file, k);
    } catch (const LoadError& e) {  // expected: a placeholder is wrong until it is grown
      for (const auto& x : e.diagnostics()) {
        if (x.where.file == file) l.errors.insert(x.where);
        if (std::getenv("VEDETTE_SCHEMA_TRACE")) std::fprintf(stderr, "  %s:%d: %s\n", x.where.file.c_str(), x.where.column, x.message.c_str());
      }
    } catch (const std::exception&) {
    }
    l.e.notes = std::move(rec.notes);
  }
  l.e.doc = kept ? std::move(placed) : parse_yaml(text, file);
  return l;
}

// A choice met while growing: where it is (entry or item indices from the
// root), its place in the document's shape, and the loader's names.
struct ChoiceAt {
  std::vector<std::size_t> route;
  std::string shape_path;
  std::vector<std::string> names;
  std::string current;
};

// Forgets where `d` was written (a copy put in by this round).
void unplace(Doc& d) {
  d.where = Location{};
  for (auto& e : d.entries) unplace(e.value);
  for (auto& i : d.items) unplace(i);
}

// A map of fixed keys with optional ones: an optional key's presence may
// lead the loader elsewhere (a scenario's `board:` makes it a hex board).
struct OptionalsAt {
  std::vector<std::size_t> route;
  std::string path, shape_path;
  std::vector<std::string> keys;  // the optional keys the loader asked for
};

// A value read as a single value where the loader might take a list too
// (a modifier's `when: hero` or `when: [hero, raw]`).
struct FormAt {
  std::vector<std::size_t> route;
  std::string path, shape_path;
};

struct Grower {
  const Load& l;
  Candidate& c;
  std::set<std::string>& resolved;  // "shape.key" of every key whose value a load read
  std::set<std::string> signature;  // what the loader did, by place in the shape
  std::vector<ChoiceAt> choices;
  std::vector<OptionalsAt> optionals;
  std::vector<FormAt> forms;
  std::vector<std::size_t> route;
  bool changed = false;

  const SchemaNote* note(const Doc& d) const {
    if (d.where.line <= 0) return nullptr;
    auto it = l.e.notes.find(d.where);
    return it == l.e.notes.end() ? nullptr : &it->second;
  }
  // The loader read `d` as what it is: a typed value, a map, a list of a
  // length, or (a map or list) something in it was read or tried.
  bool read(const Doc& d) const {
    if (const SchemaNote* n = note(d); n && (n->map || !n->type.empty() || n->items >= 0 || !n->example.empty())) return true;
    for (const auto& e : d.entries)
      if (note(e.value) || read(e.value) || (e.key_where.line > 0 && l.e.notes.count(e.key_where))) return true;
    for (const auto& i : d.items)
      if (note(i) || read(i)) return true;
    return false;
  }
  bool erroneous(const Doc& d) const { return d.where.line > 0 && l.errors.count(d.where) > 0; }

  void set(Doc& d, std::string v) {
    if (d.scalar == v) return;
    d.scalar = std::move(v);
    d.quoted = false;
    changed = true;
  }

  // Grows `d` (at `path` in the document, `shape` in its shape); `asked`:
  // its container was read this load (a key asked for, an item of a list
  // read). False: take `d` out of its container.
  bool grow(Doc& d, const std::string& path, const std::string& shape, bool asked) {
    if (d.where.line <= 0) return true;  // put in by this round: not loaded yet
    if (auto st = c.stage.find(path); st != c.stage.end() && asked && !read(d)) {
      changed = true;
      if (st->second >= as_short_list) {
        st->second = left_out;
        return false;
      }
      ++st->second;
      d = placeholder(st->second);
      stage_inner(c.stage, path, st->second);
      return true;
    }
    const SchemaNote* n = note(d);
    switch (d.kind) {
      case Doc::Kind::map: {
        // (A map of names the document defines asks for each by name: grown
        // as a map of fixed keys, one place in the shape.)
        const bool fixed = n && n->map && !n->keys.empty() && !n->named_keys;
        const bool asks = n && n->map && !n->keys.empty();
        if (asks) {
          const auto asked_for = [n](const std::string& key) {
            return std::any_of(n->keys.begin(), n->keys.end(), [&](const auto& x) { return x.first == key; });
          };
          const auto before = d.entries.size();
          d.entries.erase(std::remove_if(d.entries.begin(), d.entries.end(), [&](const DocEntry& e) { return !asked_for(e.key); }),
                          d.entries.end());
          changed = changed || d.entries.size() != before;
          OptionalsAt opt{route, path, shape, {}};
          for (const auto& key : n->keys)
            if (!key.second && !key.first.empty()) opt.keys.push_back(key.first);
          if (!opt.keys.empty() && fixed) optionals.push_back(std::move(opt));
          for (const auto& key : n->keys) {
            if (fixed) signature.insert(shape + "|key " + key.first + (key.second ? " required" : ""));
            const std::string p = path + "." + key.first;
            if (key.first.empty() || d.find(key.first)) continue;
            const auto st = c.stage.emplace(p, as_scalar).first;
            if (st->second >= left_out) continue;
            d.entries.emplace_back();
            d.entries.back().key = key.first;
            d.entries.back().value = placeholder(st->second);
            stage_inner(c.stage, p, st->second);
            changed = true;
          }
        } else if (n && n->map) {
          signature.insert(shape + "|names");
          // Two entries of names the document chooses (a scenario's sides
          // are two).
          for (const char* name : {"x1", "x2"}) {
            const std::string p = path + "." + name;
            const int st = c.stage.emplace(p, as_scalar).first->second;
            if (d.find(name) || st >= left_out) continue;
            d.entries.emplace_back();
            d.entries.back().key = name;
            d.entries.back().value = placeholder(st);
            stage_inner(c.stage, p, st);
            changed = true;
          }
        }
        // Keys read as one of some names (a hex board's terrain kinds): each
        // a name of the list, another for each key.
        for (auto& e : d.entries) {
          const SchemaNote* kn = e.key_where.line > 0 ? [&]() -> const SchemaNote* {
            auto it = l.e.notes.find(e.key_where);
            return it == l.e.notes.end() ? nullptr : &it->second;
          }()
                                                      : nullptr;
          if (!kn || kn->choices.empty() || std::find(kn->choices.begin(), kn->choices.end(), e.key) != kn->choices.end()) continue;
          for (const auto& name : kn->choices)
            if (!d.find(name)) {
              // Its placeholder's stage goes with it.
              if (auto st = c.stage.find(path + "." + e.key); st != c.stage.end()) {
                const int was = st->second;
                c.stage[path + "." + name] = was;
                stage_inner(c.stage, path + "." + name, was);
              }
              e.key = name;
              changed = true;
              break;
            }
        }
        const bool entries_read = read(d);
        for (std::size_t i = 0; i < d.entries.size();) {
          DocEntry& e = d.entries[i];
          route.push_back(i);
          const std::string at = shape + (fixed ? "." + e.key : std::string(".*"));
          const bool keep = grow(e.value, path + "." + e.key, at, entries_read);
          if (keep && fixed && read(e.value)) resolved.insert(at);
          route.pop_back();
          if (keep) {
            ++i;
          } else {
            d.entries.erase(d.entries.begin() + static_cast<std::ptrdiff_t>(i));
            changed = true;
          }
        }
        break;
      }
      case Doc::Kind::sequence: {
        if (n && n->items >= 0) {
          signature.insert(shape + "|items " + std::to_string(n->items));
          const auto want = static_cast<std::size_t>(n->items);
          if (d.items.size() != want && want > 0) {
            const Doc first = d.items.empty() ? placeholder(as_scalar) : d.items.front();
            const auto st = c.stage.find(path + ".0");
            for (std::size_t i = 1; i < want; ++i)
              if (st != c.stage.end()) c.stage.emplace(path + "." + std::to_string(i), st->second);
            d.items.assign(want, first);
            for (std::size_t i = 1; i < want; ++i) unplace(d.items[i]);  // copies: not loaded yet
            changed = true;
            break;  // its items are grown once the loader has read them at this length
          }
        }
        const bool items_read = read(d);
        for (std::size_t i = 0; i < d.items.size();) {
          route.push_back(i);
          const bool keep = grow(d.items[i], path + "." + std::to_string(i), shape + "[]", items_read);
          route.pop_back();
          if (keep) {
            ++i;
          } else {
            d.items.erase(d.items.begin() + static_cast<std::ptrdiff_t>(i));
            changed = true;
          }
        }
        break;
      }
      case Doc::Kind::scalar: {
        if (!n) break;
        if (auto st = c.stage.find(path); st != c.stage.end() && st->second == as_scalar && (!n->type.empty() || !n->example.empty()))
          forms.push_back({route, path, shape});
        if (!n->example.empty()) {
          set(d, n->example);
          break;
        }
        const std::string& t = n->type;
        if (t.empty()) break;
        signature.insert(shape + "|" + t);
        if (t == "integer" || t == "number")  // (a bound another value sets: a 2D6 target goes to 12)
          signature.insert(shape + "|" + t + " " + std::to_string(n->min) + " to " + std::to_string(n->max));
        if (t == "choice" || t == "name") {
          if (!n->choices.empty() && std::find(n->choices.begin(), n->choices.end(), d.scalar) == n->choices.end())
            set(d, n->choices.front());
          if (t == "choice" && n->choices.size() > 1) choices.push_back({route, shape, n->choices, d.scalar});
          break;
        }
        if (t == "boolean" && !erroneous(d)) choices.push_back({route, shape, {"true", "false"}, d.scalar});  // each way
        // Text: unique to its place (two sides need two names), put in once.
        if (t == "string" && d.scalar == "1" && c.stage.count(path)) {
          std::string text = "t" + path;
          std::replace(text.begin(), text.end(), '.', '_');
          set(d, text);
          break;
        }
        if (!erroneous(d)) break;  // the loader took it
        if (t == "integer" || t == "number") {
          const double v = std::clamp(1.0, n->min, n->max);
          std::ostringstream o;
          if (t == "integer")
            o << static_cast<long long>(std::ceil(v));
          else
            o << v;
          set(d, o.str());
        } else if (t == "boolean") {
          set(d, "true");
        } else if (t == "length") {
          set(d, "1cm");
        }
        break;
      }
      case Doc::Kind::null: break;
    }
    return true;
  }
};

// A copy's placeholders: the keys its original left out are tried again (in
// a copy the loader may read them: a scenario without `board:` reads its
// `table:`).
std::map<std::string, int> retried(const std::map<std::string, int>& stage) {
  std::map<std::string, int> out = stage;
  for (auto& [path, st] : out)
    if (st == left_out) st = as_scalar;
  return out;
}

Doc* at_route(Doc& d, const std::vector<std::size_t>& route) {
  Doc* p = &d;
  for (std::size_t i : route) {
    if (p->is_map() && i < p->entries.size()) p = &p->entries[i].value;
    else if (p->is_sequence() && i < p->items.size()) p = &p->items[i];
    else return nullptr;
  }
  return p;
}

}  // namespace

std::vector<Explored> explore_loader(const TableFormat& k, const std::string& folder, ExploreStats& stats) {
  const std::string file = (fs::path(folder) / (std::string(k.schema_name) + ".yaml")).string();
  std::vector<Explored> settled;
  std::set<std::string> known;     // every signature part a kept document showed
  std::set<std::string> branched;  // places in the shape whose choice was tried with every name
  std::set<std::string> resolved;  // keys (by place in the shape) whose value some load read
  std::vector<Candidate> live(1);
  live[0].doc.kind = Doc::Kind::map;
  while (!live.empty()) {
    std::vector<Candidate> next;
    for (Candidate& c : live) {
      if (stats.loads >= k_max_loads) {
        stats.capped = true;
        break;
      }
      Load l = load(k, c.doc, file, c.why);
      ++stats.loads;
      if (c.as_list_copy) {  // its first load: a list the loader does not read leads nowhere
        c.as_list_copy = false;
        const Doc* at = at_route(l.e.doc, c.as_list_route);
        Grower probe{l, c, resolved, {}, {}, {}, {}, {}, false};
        if (!at || !probe.read(*at)) continue;
      }
      Doc grown = l.e.doc;
      Grower g{l, c, resolved, {}, {}, {}, {}, {}, false};
      g.grow(grown, "", "", true);
      if (g.changed) {
        if (++c.rounds < k_max_rounds) {
          c.doc = std::move(grown);
          next.push_back(std::move(c));
          continue;
        }
        stats.capped = true;
      }
      // Settled: new if the loader, on this document as it stands, did
      // something no kept document showed (what is walked into the schema).
      for (const auto& s : g.signature)
        if (!known.count(s)) {
          c.novel = true;
          if (std::getenv("VEDETTE_SCHEMA_TRACE")) std::fprintf(stderr, "  new: %s\n", s.c_str());
        }
      if (std::getenv("VEDETTE_SCHEMA_TRACE"))
        std::fprintf(stderr, "== settled after %d rounds: %s%s\n", c.rounds, c.why.c_str(), c.copy && !c.novel ? " (nothing new: dropped)" : "");
      if (c.copy && !c.novel) continue;  // a copy that led nowhere new
      known.insert(g.signature.begin(), g.signature.end());
      // Settled: each choice's other names, once per place in the shape.
      for (const ChoiceAt& ch : g.choices) {
        if (!branched.insert(ch.shape_path).second) continue;
        for (const auto& name : ch.names) {
          if (name == ch.current) continue;
          Candidate copy;
          copy.doc = grown;
          copy.stage = retried(c.stage);
          copy.copy = true;
          if (Doc* at = at_route(copy.doc, ch.route)) {
            at->scalar = name;
            at->quoted = false;
            copy.why = ch.shape_path + " = " + name;
            next.push_back(std::move(copy));
          }
        }
      }
      // Each optional key left out, and each alone among its map's
      // optional keys, once per place in the shape.
      const auto copy_of = [&]() {
        Candidate copy;
        copy.doc = grown;
        copy.stage = retried(c.stage);
        copy.copy = true;
        return copy;
      };
      for (const OptionalsAt& o : g.optionals)
        for (const auto& key : o.keys) {
          const auto copy_with = [&](const std::vector<std::string>& out, bool alone) {
            Candidate copy = copy_of();
            Doc* at = at_route(copy.doc, o.route);
            if (!at || !at->is_map()) return;
            for (const auto& k2 : out) {
              copy.stage[o.path + "." + k2] = withheld;
              at->entries.erase(std::remove_if(at->entries.begin(), at->entries.end(), [&](const DocEntry& e) { return e.key == k2; }),
                                at->entries.end());
            }
            if (alone) {
              if (!at->find(key)) copy.stage[o.path + "." + key] = as_scalar;  // put in again at the next growth
              copy.alone_path = o.path;
              copy.alone_shape = o.shape_path;
              copy.alone_key = key;
              copy.others_held = out;
            }
            copy.why = o.shape_path + "." + key + (alone ? " alone" : " left out");
            next.push_back(std::move(copy));
          };
          if (branched.insert("without " + o.shape_path + "." + key).second) {
            const Doc* at = at_route(grown, o.route);
            if (at && at->find(key)) copy_with({key}, false);
          }
          if (o.keys.size() > 1 && branched.insert("alone " + o.shape_path + "." + key).second) {
            std::vector<std::string> others;
            for (const auto& k2 : o.keys)
              if (k2 != key) others.push_back(k2);
            copy_with(others, true);
          }
        }
      // A key alone: each key it left out that no load has read yet, with
      // it (a victory's side_losses with at_least).
      if (!c.alone_key.empty())
        for (const auto& k2 : c.others_held) {
          if (resolved.count(c.alone_shape + "." + k2) || !branched.insert("with " + c.alone_shape + "." + c.alone_key + "+" + k2).second) continue;
          Candidate copy = copy_of();
          for (const auto& k3 : c.others_held)
            if (k3 != k2) copy.stage[c.alone_path + "." + k3] = withheld;
          copy.stage[c.alone_path + "." + k2] = as_scalar;
          copy.why = c.alone_shape + "." + c.alone_key + " with " + k2;
          next.push_back(std::move(copy));
        }
      // A single value where a list may do as well, once per place.
      for (const FormAt& f : g.forms) {
        if (!branched.insert("list " + f.shape_path).second) continue;
        Candidate copy = copy_of();
        if (Doc* at = at_route(copy.doc, f.route)) {
          *at = placeholder(as_list);
          copy.stage[f.path] = as_list;
          stage_inner(copy.stage, f.path, as_list);
          copy.why = f.shape_path + " as a list";
          copy.as_list_route = f.route;
          copy.as_list_copy = true;
          next.push_back(std::move(copy));
        }
      }
      settled.push_back(std::move(l.e));
      ++stats.documents;
    }
    live = std::move(next);
  }
  std::error_code ec;
  fs::remove(file, ec);
  return settled;
}

}  // namespace vedette::cli
