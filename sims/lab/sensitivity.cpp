#include "sims/lab/sensitivity.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <span>

#include "engine/core/diagnostics.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/decision/ruleset_doc.hpp"
#include "sims/lab/harness.hpp"

namespace vedette::lab {

namespace {

// Keys whose values are words, never settings to step.
const std::set<std::string> k_words{"name", "text", "description", "label", "extends", "units"};

std::string trimmed_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  std::string s = buf;
  if (s == "-0") s = "0";
  return s;
}

void add_number(std::vector<Variant>& out, const std::string& path, const std::string& text) {
  for (int dir : {+1, -1}) {
    std::string to = step_value(text, dir);
    if (to.empty() || to == text) continue;
    Variant v;
    v.setting = path;
    const bool whole = parse_int(text).has_value();
    const bool length = !whole && !parse_number(text).has_value();
    if (whole || length) {
      const std::string unit = length ? text.substr(text.size() - 2) : "";
      v.change = std::string(dir > 0 ? "+" : "-") + (unit == "mm" ? "5" : "1") + unit;
    } else {
      v.change = dir > 0 ? "+10%" : "-10%";
    }
    v.from = text;
    v.to = to;
    v.edits = {{path, to}};
    out.push_back(std::move(v));
  }
}

void walk(const Doc& n, const std::string& path, std::vector<Variant>& out) {
  if (n.is_map()) {
    for (const auto& e : n.entries) {
      if (k_words.count(e.key)) continue;
      // The behaviours are words; the bands are stepped as bounds and cells.
      if (path.empty() && (e.key == "behaviours" || e.key == "bands")) continue;
      walk(e.value, path.empty() ? e.key : path + "." + e.key, out);
    }
  } else if (n.is_sequence()) {
    for (std::size_t i = 0; i < n.items.size(); ++i) walk(n.items[i], path + "." + std::to_string(i + 1), out);
  } else if (n.is_scalar() && !n.quoted) {
    add_number(out, path, n.scalar);
  }
}

const Doc* scalar_at(const Doc& m, std::string_view key) {
  const Doc* d = m.is_map() ? m.find(key) : nullptr;
  return d && d->is_scalar() ? d : nullptr;
}

void band_variants(const Doc& bands, std::vector<Variant>& out) {
  if (!bands.is_map()) return;
  const auto& b = bands.entries;
  // Bounds: the boundary between band i and band i+1 moves by one.
  for (std::size_t i = 0; i + 1 < b.size(); ++i) {
    const Doc* mx = scalar_at(b[i].value, "max");
    const Doc* mn = scalar_at(b[i + 1].value, "min");
    if (!mx || !mn) continue;
    auto a = parse_int(mx->scalar), c = parse_int(mn->scalar);
    if (!a || !c) continue;
    for (int dir : {+1, -1}) {
      Variant v;
      v.setting = "bands." + b[i].key + ".max";
      v.change = std::string(dir > 0 ? "+1" : "-1") + " (and bands." + b[i + 1].key + ".min)";
      v.from = mx->scalar;
      v.to = std::to_string(*a + dir);
      v.edits = {{"bands." + b[i].key + ".max", v.to}, {"bands." + b[i + 1].key + ".min", std::to_string(*c + dir)}};
      out.push_back(std::move(v));
    }
  }
  // Cells: each replaced by the behaviour of a neighbouring cell, the faces
  // either side in its row and the same face in the bands either side.
  auto cell = [&](std::size_t band, const char* row, std::size_t face) -> const Doc* {
    if (band >= b.size()) return nullptr;
    const Doc* r = b[band].value.is_map() ? b[band].value.find(row) : nullptr;
    if (!r || !r->is_sequence() || face >= r->items.size() || !r->items[face].is_scalar()) return nullptr;
    return &r->items[face];
  };
  for (std::size_t i = 0; i < b.size(); ++i) {
    for (const char* row : {"cells", "at_halt"}) {
      for (std::size_t f = 0; f < 6; ++f) {
        const Doc* here = cell(i, row, f);
        if (!here) continue;
        struct Near {
          const Doc* d;
          std::string where;
        };
        std::vector<Near> near;
        if (f > 0) near.push_back({cell(i, row, f - 1), "face " + std::to_string(f)});
        if (f < 5) near.push_back({cell(i, row, f + 1), "face " + std::to_string(f + 2)});
        if (std::string_view(row) == "cells") {
          if (i > 0) near.push_back({cell(i - 1, row, f), b[i - 1].key});
          near.push_back({cell(i + 1, row, f), i + 1 < b.size() ? b[i + 1].key : ""});
        }
        std::set<std::string> seen{here->scalar};
        for (const auto& nb : near) {
          if (!nb.d || !seen.insert(nb.d->scalar).second) continue;
          Variant v;
          v.setting = "bands." + b[i].key + "." + row + "." + std::to_string(f + 1);
          v.change = "-> " + nb.d->scalar + " (" + nb.where + ")";
          v.from = here->scalar;
          v.to = nb.d->scalar;
          v.edits = {{v.setting, v.to}};
          out.push_back(std::move(v));
        }
      }
    }
  }
}

std::string first_problem(const LoadError& e) {
  if (e.diagnostics().empty()) return e.what();
  const auto& d = e.diagnostics().front();
  return d.message;
}

// Paired outcome changes of one variant against the base: how many
// engagements went from outcome a (base) to outcome b (variant).
struct Transitions {
  std::int64_t n = 0;
  std::vector<std::int64_t> m;  // K x K
  std::size_t k = 0;
  explicit Transitions(std::size_t outcomes) : m(outcomes * outcomes, 0), k(outcomes) {}
  void add(std::size_t a, std::size_t b) {
    ++n;
    ++m[a * k + b];
  }
  // sum of d and of d^2 for outcome j's indicator (variant - base).
  std::pair<std::int64_t, std::int64_t> sums(std::size_t j) const {
    std::int64_t s = 0, s2 = 0;
    for (std::size_t a = 0; a < k; ++a)
      for (std::size_t b = 0; b < k; ++b) {
        if (a == b) continue;
        const std::int64_t c = m[a * k + b];
        if (b == j) s += c, s2 += c;
        if (a == j) s -= c, s2 += c;
      }
    return {s, s2};
  }
};

}  // namespace

std::string step_value(const std::string& text, int dir) {
  if (text.empty()) return {};
  if (auto i = parse_int(text)) {
    const long long v = *i + dir;
    return (text[0] == '+' && v > 0 ? "+" : "") + std::to_string(v);
  }
  for (const char* unit : {"cm", "mm", "in"}) {
    const std::string u = unit;
    if (text.size() > 2 && text.compare(text.size() - 2, 2, u) == 0) {
      auto v = parse_number(text.substr(0, text.size() - 2));
      if (!v) return {};
      const double step = u == "mm" ? 5 : 1;
      return trimmed_number(*v + dir * step) + u;
    }
  }
  if (auto v = parse_number(text)) {
    const double step = *v == 0 ? 0.1 : std::fabs(*v) * 0.1;
    return trimmed_number(*v + dir * step);
  }
  return {};
}

namespace {

// Sections of a ruleset in words (tables/README.md names them so).
const std::map<std::string, std::string, std::less<>> k_section_words{
    {"bands", "Actions Table"},
    {"modifiers", "RF modifier"},
    {"difficulty", "Difficulty"},
    {"switches", "Switch"},
    {"paces", "Pace"},
    {"gallop_limit", "Gallop limit"},
    {"turning", "Turning"},
    {"mounted_shooting", "Shooting from the saddle"},
    {"hits_on_mounted", "Hits on a mounted figure"},
    {"unit_types", "Unit type"},
    {"weapons", "Weapon"},
    {"profiles", "Unit profile"},
    {"combat", "Combat"},
    {"charge", "Charge (seed 003)"},
    {"skirmish", "Skirmish (seed 001)"},
};

const std::map<std::string, std::string, std::less<>> k_key_words{
    {"rf_offset", "RF offset"},
    {"cells", "face"},
    {"at_halt", "at the halt, face"},
    {"max", "upper bound"},
    {"min", "lower bound"},
    {"pct", "%"},
};

std::string humanised(std::string key) {
  if (auto w = k_key_words.find(key); w != k_key_words.end()) return w->second;
  std::replace(key.begin(), key.end(), '_', ' ');
  // "pct" reads as "%": "rout losses pct" -> "rout losses %".
  if (key.size() > 4 && key.compare(key.size() - 4, 4, " pct") == 0) key = key.substr(0, key.size() - 4) + " %";
  return key;
}

}  // namespace

std::string setting_words(const Doc& root, const std::string& path) {
  std::string out;
  const Doc* cur = &root;
  std::string_view rest = path;
  std::string pending;  // "face" waits for its number
  bool first = true;
  while (!rest.empty()) {
    const auto dot = rest.find('.');
    const std::string key(rest.substr(0, dot));
    rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    const Doc* next = nullptr;
    if (cur && cur->is_map()) next = cur->find(key);
    else if (cur && cur->is_sequence()) {
      auto i = parse_int(key);
      if (i && *i >= 1 && static_cast<std::size_t>(*i) <= cur->items.size()) next = &cur->items[static_cast<std::size_t>(*i - 1)];
    }
    std::string word;
    if (first) {
      auto w = k_section_words.find(key);
      word = w != k_section_words.end() ? w->second : humanised(key);
    } else if (!pending.empty()) {
      word = pending + " " + key;
      pending.clear();
    } else if (key == "cells" || key == "at_halt") {
      pending = humanised(key);
    } else if (cur && cur->is_sequence()) {
      word = "#" + key;
    } else if (next && next->is_map()) {
      // A named entry: its own words (a modifier's text, a band's label, a weapon's name).
      std::string own;
      for (const char* k : {"label", "name", "text"})
        if (const Doc* t = next->find(k); t && t->is_scalar() && own.empty()) own = t->scalar;
      word = own.empty() ? humanised(key) : "'" + own + "'";
    } else {
      word = humanised(key);
    }
    if (!word.empty()) out += (out.empty() ? "" : (rest.empty() && !first && word[0] != '#' && word.rfind("face", 0) != 0 &&
                                                   word.rfind("at the halt", 0) != 0
                                                       ? ": "
                                                       : ", ")) +
                              word;
    first = false;
    cur = next;
  }
  if (!pending.empty()) out += ", " + pending;
  return out;
}

std::vector<Variant> sensitivity_variants(const Doc& ruleset) {
  std::vector<Variant> out;
  walk(ruleset, "", out);
  if (const Doc* bands = ruleset.is_map() ? ruleset.find("bands") : nullptr) band_variants(*bands, out);
  for (auto& v : out) v.words = setting_words(ruleset, v.setting);
  return out;
}

Sensitivity run_sensitivity(const LabScenario& scenario, const std::string& ruleset_path, const Edits& base_edits,
                            const SensitivityOptions& o) {
  Sensitivity res;
  RulesetPtr base_rules = load_ruleset(ruleset_path, base_edits);
  auto base = scenario.model(base_rules);
  const Schema& s = base->schema();
  res.outcome_ids = s.outcome_ids;
  res.outcome_labels = s.outcome_labels;
  res.side_roles = s.side_roles;
  const std::size_t K = s.outcomes();

  Doc doc = load_ruleset_doc(ruleset_path);
  for (const auto& [p, v] : base_edits) set_path(doc, p, v);

  // Every variant is loaded (and checked) before anything runs.
  struct Loaded {
    Variant v;
    std::unique_ptr<Model> model;
  };
  std::vector<Loaded> loaded;
  for (auto& v : sensitivity_variants(doc)) {
    Edits edits = base_edits;
    edits.insert(edits.end(), v.edits.begin(), v.edits.end());
    try {
      auto m = scenario.model(load_ruleset(ruleset_path, edits));
      const Schema& sv = m->schema();
      if (sv.outcome_ids != s.outcome_ids || sv.metrics.size() != s.metrics.size()) {
        res.skipped.push_back({v.setting, v.change, "its engagements yield other figures than the base's"});
        continue;
      }
      loaded.push_back({std::move(v), std::move(m)});
    } catch (const LoadError& e) {
      res.skipped.push_back({v.setting, v.change, first_problem(e)});
    }
  }

  const std::size_t batch = std::max<std::size_t>(1, o.batch);
  std::vector<Transitions> moves(loaded.size(), Transitions(K));
  std::size_t played = 0;
  // The base's outcome of each engagement, kept from the first batch: the
  // later batches play their variants alone and pair them with it (the
  // base's engagement i is the same whichever batch plays it, its dice
  // being make_stream(seed, i, ...)). One byte an engagement, kept up to
  // o.keep_base engagements; a longer run plays the base beside every batch.
  const bool keep_base = K <= 256 && o.n <= o.keep_base;
  std::vector<std::uint8_t> base_outcome;
  if (keep_base && loaded.size() > batch) base_outcome.resize(o.n);
  for (std::size_t first = 0; first < loaded.size() || first == 0; first += batch) {
    const std::size_t last = std::min(loaded.size(), first + batch);
    const bool with_base = first == 0 || !keep_base;
    std::vector<const Model*> models;
    if (with_base) models.push_back(base.get());
    for (std::size_t i = first; i < last; ++i) models.push_back(loaded[i].model.get());
    HarnessOptions h;
    h.seed = o.seed;
    h.n = o.n;
    h.threads = o.threads;
    h.progress = o.progress;
    // One bar for the whole run, not one per batch.
    const std::size_t batches = std::max<std::size_t>(1, (loaded.size() + batch - 1) / batch);
    h.progress_before = static_cast<std::uint64_t>(first / batch) * o.n;
    h.progress_total = static_cast<std::uint64_t>(batches) * o.n;
    h.progress_note = loaded.empty() ? std::string("the base")
                                     : "variants " + std::to_string(first + 1) + "-" + std::to_string(last) + " of " + std::to_string(loaded.size());
    h.stop = o.stop;
    h.rows = [&](std::uint64_t index, std::span<const OutcomeRow> rows) {
      if (!with_base) {
        const std::size_t b = base_outcome[index];
        for (std::size_t j = 0; j < rows.size(); ++j) moves[first + j].add(b, rows[j].outcome);
        return;
      }
      if (!base_outcome.empty()) base_outcome[index] = static_cast<std::uint8_t>(rows[0].outcome);
      for (std::size_t j = 1; j < rows.size(); ++j) moves[first + j - 1].add(rows[0].outcome, rows[j].outcome);
    };
    std::span<const Model* const> ms(models.data(), models.size());
    HarnessResult r = run_harness(ms, h, Sums(ms), 0);
    if (first == 0) {
      res.n = r.sums.n();
      const Tally& t = r.sums.tallies.front();
      for (std::size_t k = 0; k < K; ++k) res.base.push_back(wilson(t.outcome_count(k), t.n));
    }
    if (r.stop == StopReason::interrupted) {
      res.interrupted = true;
      break;
    }
    played = last;
    if (loaded.empty()) break;
  }
  res.variants = played;

  std::vector<double> p;
  for (std::size_t i = 0; i < played; ++i) {
    const Transitions& t = moves[i];
    bool any = false;
    for (std::size_t k = 0; k < K; ++k) {
      const auto [sd, sd2] = t.sums(k);
      Effect e;
      e.setting = loaded[i].v.setting;
      e.words = loaded[i].v.words;
      e.change = loaded[i].v.change;
      e.from = loaded[i].v.from;
      e.to = loaded[i].v.to;
      e.outcome = s.outcome_ids[k];
      e.diff = paired_difference(t.n, sd, sd2);
      e.differ = sd2;
      any = any || sd2 > 0;
      p.push_back(e.diff.p_value);
      res.effects.push_back(std::move(e));
    }
    if (!any) ++res.unchanged;
  }
  const auto adj = holm(p);
  for (std::size_t i = 0; i < res.effects.size(); ++i) {
    res.effects[i].p_holm = adj[i];
    res.effects[i].real = adj[i] < 0.05;
    res.effects[i].matters = res.effects[i].real && std::fabs(res.effects[i].diff.mean) >= o.min_effect;
  }
  res.min_effect = o.min_effect;
  std::stable_sort(res.effects.begin(), res.effects.end(),
                   [](const Effect& a, const Effect& b) { return std::fabs(a.diff.mean) > std::fabs(b.diff.mean); });
  return res;
}

}  // namespace vedette::lab
