#include "sims/lab/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <map>
#include <memory>
#include <stdexcept>

#include <unistd.h>

#include "engine/core/diagnostics.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/decision/ruleset_doc.hpp"
#include "sims/lab/harness.hpp"

namespace vedette::lab {

namespace {

namespace fs = std::filesystem;

const Doc* at_path(const Doc& root, std::string_view path) {
  const Doc* cur = &root;
  while (cur && !path.empty()) {
    const auto dot = path.find('.');
    const std::string_view part = path.substr(0, dot);
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
    if (cur->is_map()) {
      cur = cur->find(part);
    } else if (cur->is_sequence()) {
      auto i = parse_int(part);
      if (!i || *i < 1 || static_cast<std::size_t>(*i) > cur->items.size()) return nullptr;
      cur = &cur->items[static_cast<std::size_t>(*i - 1)];
    } else {
      return nullptr;
    }
  }
  return cur;
}

// difficulty.rf_offset between two whole numbers: n + k/6 is the offset n
// with k faces of the D6 (1 to k) reading the row of the next RF up, where
// a band ends (the two neighbouring tables mixed face by face; at k = 6 it
// is the offset n + 1). A ruleset states it: the whole offset, and bands
// split at their ends (mixed_bands below).
struct Sixths {
  long long n = 0;
  int k = 0;
};
Sixths sixths(double x) {
  const long long s = std::llround(x * 6);
  const long long n = s >= 0 ? s / 6 : -((-s + 5) / 6);
  return {n, static_cast<int>(s - 6 * n)};
}

std::string written(double v, bool whole, bool in_sixths = false) {
  if (in_sixths) {
    const Sixths m = sixths(v);
    return m.k == 0 ? std::to_string(m.n) : std::to_string(m.n) + " + " + std::to_string(m.k) + "/6";
  }
  if (whole) return std::to_string(static_cast<long long>(std::llround(v)));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string yaml_scalar(const std::string& s) {
  // Quoted when it could be read as something else.
  const bool plain = !s.empty() && s.find(": ") == std::string::npos && s.find(" #") == std::string::npos && s.back() != ':' &&
                     std::string("[]{}&*!|>'\"%@`#-?,").find(s.front()) == std::string::npos && s.find('\n') == std::string::npos;
  if (plain) return s;
  std::string q = "\"";
  for (char d : s) q += d == '"' ? std::string("\\\"") : std::string(1, d);
  return q + "\"";
}

// A band of the base's Actions Table, as its file writes it.
struct BaseBand {
  std::string id, label;
  std::optional<long long> min, max;
  std::vector<std::string> cells, at_halt;
};

std::vector<BaseBand> base_bands(const Doc& ruleset) {
  std::vector<BaseBand> out;
  const Doc* bands = ruleset.find("bands");
  if (!bands || !bands->is_map()) return out;
  for (const auto& e : bands->entries) {
    BaseBand b;
    b.id = e.key;
    b.label = e.key;
    if (const Doc* l = e.value.find("label"); l && l->is_scalar()) b.label = l->scalar;
    if (const Doc* x = e.value.find("min"); x && x->is_scalar()) b.min = parse_int(x->scalar);
    if (const Doc* x = e.value.find("max"); x && x->is_scalar()) b.max = parse_int(x->scalar);
    for (const char* row : {"cells", "at_halt"})
      if (const Doc* r = e.value.find(row); r && r->is_sequence())
        for (const auto& c : r->items) (std::string(row) == "cells" ? b.cells : b.at_halt).push_back(c.scalar);
    out.push_back(std::move(b));
  }
  std::stable_sort(out.begin(), out.end(), [](const BaseBand& a, const BaseBand& b) {
    return a.min.value_or(std::numeric_limits<long long>::min()) < b.min.value_or(std::numeric_limits<long long>::min());
  });
  return out;
}

std::string yaml_row(const std::vector<std::string>& row) {
  std::string o = "[";
  for (std::size_t i = 0; i < row.size(); ++i) o += (i ? ", " : "") + row[i];
  return o + "]";
}

// "face 1", "faces 1-3".
std::string faces(int from, int to) { return from == to ? "face " + std::to_string(from) : "faces " + std::to_string(from) + "-" + std::to_string(to); }

// The overlay's `bands:` for k faces of six reading the next RF's row: each
// band that has a next one ends one RF earlier, and its last RF becomes a
// band of its own whose faces 1 to k are the next band's. Nothing else of
// the table changes.
std::string mixed_bands(const Doc& ruleset, int k) {
  const std::vector<BaseBand> bands = base_bands(ruleset);
  std::string o = "bands:\n";
  for (std::size_t i = 0; i + 1 < bands.size(); ++i) {
    const BaseBand& b = bands[i];
    const BaseBand& next = bands[i + 1];
    if (!b.max || b.cells.size() != 6 || next.cells.size() != 6) continue;
    const long long last = *b.max;
    if (!b.min || *b.min <= last - 1) {
      const std::string range = !b.min ? "Up to RF" + std::to_string(last - 1)
                                       : *b.min == last - 1 ? "RF" + std::to_string(last - 1)
                                                            : "RF" + std::to_string(*b.min) + "-" + std::to_string(last - 1);
      o += "  " + b.id + ": {label: " + yaml_scalar(range) + ", max: " + std::to_string(last - 1) + "}\n";
    } else {
      o += "  " + b.id + ": ~\n";
    }
    std::vector<std::string> cells = b.cells;
    for (int f = 0; f < k; ++f) cells[static_cast<std::size_t>(f)] = next.cells[static_cast<std::size_t>(f)];
    o += "  " + b.id + "_to_" + next.id + ":\n";
    o += "    label: " + yaml_scalar("RF" + std::to_string(last) + " (" + std::to_string(k) + "/6 " + next.label + ")") + "\n";
    o += "    text: " + yaml_scalar("Between " + b.label + " and " + next.label + ": " + faces(1, k) + " as " + next.label + ", " + faces(k + 1, 6) +
                                    " as " + b.label + " (a fractional difficulty.rf_offset)") + "\n";
    o += "    min: " + std::to_string(last) + "\n    max: " + std::to_string(last) + "\n";
    o += "    cells: " + yaml_row(cells) + "\n";
    if (!b.at_halt.empty() || !next.at_halt.empty()) {
      std::vector<std::string> halt = b.at_halt.empty() ? b.cells : b.at_halt;
      const std::vector<std::string>& next_halt = next.at_halt.empty() ? next.cells : next.at_halt;
      for (int f = 0; f < k; ++f) halt[static_cast<std::size_t>(f)] = next_halt[static_cast<std::size_t>(f)];
      o += "    at_halt: " + yaml_row(halt) + "\n";
    }
  }
  return o;
}

// The overlay's settings for `knob` = `value`: the knob's dotted path as
// nested maps, and for a fractional difficulty.rf_offset the split bands.
std::string knob_yaml(const std::string& knob, double x, const std::string& value, bool in_sixths, const std::string& ruleset_path) {
  std::string o;
  std::string path = knob;
  std::string indent;
  const Sixths m = sixths(x);
  for (;;) {
    const auto dot = path.find('.');
    if (dot == std::string::npos) {
      o += indent + path + ": " + (in_sixths ? std::to_string(m.n) : value) + "\n";
      break;
    }
    o += indent + path.substr(0, dot) + ":\n";
    path = path.substr(dot + 1);
    indent += "  ";
  }
  if (in_sixths && m.k != 0) o += mixed_bands(load_ruleset_doc(ruleset_path), m.k);
  return o;
}

// The index of `outcome` among the scenario's outcomes, or a clear error.
std::size_t outcome_index(const LabScenario& scenario, const Schema& s, const std::string& outcome) {
  const auto it = std::find(s.outcome_ids.begin(), s.outcome_ids.end(), outcome);
  if (it == s.outcome_ids.end()) {
    std::string all;
    for (const auto& id : s.outcome_ids) all += (all.empty() ? "" : ", ") + id;
    throw std::invalid_argument("no outcome '" + outcome + "' in scenario " + scenario.file() + " (its outcomes: " + all + ")" +
                                did_you_mean(outcome, s.outcome_ids));
  }
  return static_cast<std::size_t>(it - s.outcome_ids.begin());
}

// The knob as the ruleset file writes it: its value, whether it is a whole
// number, and the smallest step the search takes.
struct Knob {
  std::string text;
  double value = 0;
  bool whole = false;
  bool sixths = false;  // difficulty.rf_offset: steps of 1/6 (see Sixths)
  double resolution = 1;
};

Knob read_knob(const std::string& ruleset_path, const std::string& path) {
  const Doc doc = load_ruleset_doc(ruleset_path);
  const Doc* knob = at_path(doc, path);
  if (!knob || !knob->is_scalar())
    throw std::invalid_argument("--knob " + path + ": no such setting in the ruleset " + ruleset_path +
                                " (a dotted path to a number, such as difficulty.rf_offset)");
  const auto as_int = parse_int(knob->scalar);
  const auto as_num = parse_number(knob->scalar);
  if (!as_num) throw std::invalid_argument("--knob " + path + ": its value '" + knob->scalar + "' is not a number");
  Knob k;
  k.text = knob->scalar;
  k.value = *as_num;
  k.whole = as_int.has_value();
  k.resolution = k.whole ? 1 : std::max(0.01, std::fabs(*as_num) * 0.01);
  if (path == k_default_knob && k.whole) {
    k.sixths = true;
    k.resolution = 1.0 / 6;
  }
  return k;
}

// The values tried: each one played once (on the same seed and engagements),
// recorded in c.tries, and its probability of outcome k remembered.
class Trials {
 public:
  Trials(const LabScenario& scenario, const std::string& ruleset_path, const CalibrateOptions& o, const Schema& s, std::size_t k,
         const Knob& knob, CalibrateResult& c)
      : scenario_(scenario), ruleset_path_(ruleset_path), o_(o), s_(s), k_(k), knob_(knob), c_(c) {}

  // The rules at knob value x: the base with the knob set, or for a
  // fractional rf_offset the overlay calibrate would write, loaded from a
  // file of its own (so what is played is what would be written).
  RulesetPtr rules(double x, const std::string& v) const {
    if (!knob_.sixths || sixths(x).k == 0) return load_ruleset(ruleset_path_, {{o_.knob, knob_.sixths ? std::to_string(sixths(x).n) : v}});
    std::error_code ec;
    std::string base = ruleset_path_;
    if (base.rfind("builtin:", 0) != 0) base = fs::absolute(base, ec).string();
    const fs::path file = fs::temp_directory_path(ec) / ("vedette-calibrate-" + std::to_string(::getpid()) + ".yaml");
    {
      std::ofstream out(file);
      out << "extends: " << yaml_scalar(base) << "\n" << knob_yaml(o_.knob, x, v, true, ruleset_path_);
    }
    struct Remove {
      fs::path f;
      ~Remove() {
        std::error_code e;
        fs::remove(f, e);
      }
    } remove{file};
    return load_ruleset(file.string());
  }

  // The probability at knob value x; none when x is outside the knob's range
  // or the run was interrupted.
  std::optional<Proportion> operator()(double x) {
    const std::string v = written(x, knob_.whole, knob_.sixths);
    if (auto f = seen_.find(v); f != seen_.end()) return f->second;
    std::unique_ptr<Model> m;
    try {
      m = scenario_.model(rules(x, v));
    } catch (const LoadError&) {
      return std::nullopt;  // outside the knob's range: the search stops there
    }
    const Model* ms[] = {m.get()};
    HarnessOptions h;
    h.seed = o_.seed;
    h.n = o_.n;
    h.threads = o_.threads;
    h.progress = o_.progress;
    h.stop = o_.stop;
    HarnessResult r = run_harness(ms, h, Sums(ms), 0);
    if (r.stop == StopReason::interrupted) {
      c_.interrupted = true;
      return std::nullopt;
    }
    const Tally& t = r.sums.tallies.front();
    Proportion p = wilson(t.outcome_count(k_), t.n);
    std::vector<Proportion> all;
    for (std::size_t j = 0; j < s_.outcomes(); ++j) all.push_back(wilson(t.outcome_count(j), t.n));
    seen_[v] = p;
    c_.tries.push_back({v, p, std::move(all)});
    return p;
  }

 private:
  const LabScenario& scenario_;
  const std::string& ruleset_path_;
  const CalibrateOptions& o_;
  const Schema& s_;
  const std::size_t k_;
  const Knob& knob_;
  CalibrateResult& c_;
  std::map<std::string, Proportion> seen_;
};

// The search: the value nearest the target so far, and the bracket
// [lo_x, hi_x] across which the probability crosses the target.
struct Search {
  const CalibrateOptions& o;
  const Knob& knob;
  Trials& eval;
  CalibrateResult& c;
  double best_x;
  Proportion best;
  double lo_x, hi_x;  // lo_x on the start's side of the target, hi_x across it
  bool bracketed = false;

  bool good(const Proportion& p) const { return o.target >= p.lo && o.target <= p.hi && p.half_width() <= 0.01; }
  void consider(double x, const Proportion& p) {
    if (std::fabs(p.p - o.target) < std::fabs(best.p - o.target)) best_x = x, best = p;
  }

  // Bracket: step away from x0 each way, doubling the step, until the
  // probability crosses the target (it need not be monotone in the knob: a
  // bolder automated side may also lose more); the crossing nearest x0 wins.
  void bracket(const Proportion& p0) {
    const double x0 = knob.value;
    const double h0 = knob.whole ? 1 : std::max(knob.resolution, std::fabs(x0) * 0.1);
    double nearest = 0;
    for (int dir : {+1, -1}) {
      double h = h0, last = x0;
      Proportion plast = p0;
      while (static_cast<int>(c.tries.size()) < o.max_tries && !c.interrupted) {
        const double x = last + dir * h;
        auto p = eval(x);
        if (!p) break;  // beyond the knob's range
        consider(x, *p);
        if ((plast.p - o.target) * (p->p - o.target) <= 0) {
          if (!bracketed || std::fabs(x - x0) < nearest) {
            lo_x = last;
            hi_x = x;
            nearest = std::fabs(x - x0);
            bracketed = true;
          }
          break;
        }
        last = x;
        plast = *p;
        h *= 2;
      }
      if (good(best)) break;
    }
  }

  // Bisect the bracket down to the knob's resolution.
  void bisect() {
    while (bracketed && !good(best) && std::fabs(hi_x - lo_x) > knob.resolution * 1.0001 &&
           static_cast<int>(c.tries.size()) < o.max_tries && !c.interrupted) {
      double mid = (lo_x + hi_x) / 2;
      if (knob.sixths) mid = std::floor(mid * 6 + 1e-9) / 6;
      else if (knob.whole) mid = std::floor(mid);
      if (mid == lo_x || mid == hi_x) break;
      auto pm = eval(mid);
      auto plo = eval(lo_x);
      if (!pm || !plo) break;
      consider(mid, *pm);
      if ((plo->p - o.target) * (pm->p - o.target) <= 0) hi_x = mid;
      else lo_x = mid;
    }
  }
};

}  // namespace

CalibrateResult calibrate(const LabScenario& scenario, const std::string& ruleset_path, const CalibrateOptions& o) {
  CalibrateResult c;
  c.scenario_file = scenario.file();
  c.ruleset_path = ruleset_path;
  c.knob = o.knob;
  c.target = o.target;
  c.seed = o.seed;
  RulesetPtr base_rules = load_ruleset(ruleset_path);
  c.ruleset_name = base_rules->name;
  auto base = scenario.model(base_rules);
  const Schema& s = base->schema();
  const std::size_t k = outcome_index(scenario, s, o.outcome);
  c.outcome = o.outcome;
  c.outcome_label = s.outcome_labels[k];
  c.outcome_ids = s.outcome_ids;
  c.outcome_labels = s.outcome_labels;

  const Knob knob = read_knob(ruleset_path, o.knob);
  c.from = knob.text;

  Trials eval(scenario, ruleset_path, o, s, k, knob, c);
  const double x0 = knob.value;
  auto p0 = eval(x0);
  if (!p0) throw std::invalid_argument("--knob " + o.knob + ": the base value could not be played");
  Search search{o, knob, eval, c, x0, *p0, x0, x0};
  if (!search.good(*p0)) search.bracket(*p0);
  search.bisect();
  const Proportion& best = search.best;
  c.value = written(search.best_x, knob.whole, knob.sixths);
  c.value_number = search.best_x;
  c.sixths = knob.sixths;
  c.achieved = best;
  for (const auto& t : c.tries)
    if (t.value == c.value) c.all = t.all;
  c.within = o.target >= best.lo && o.target <= best.hi;
  c.resolution = !search.good(best) && search.bracketed;
  // Reached: the target is within the interval of the value found, or
  // between two values tried (the nearest the knob's resolution allows).
  // Otherwise every value the search could play misses it on one side.
  c.reached = c.within || search.bracketed;
  return c;
}

std::string proportion_text(const Proportion& p) {
  // As the reports write it (sims/report/report_parts.cpp prop_text): near 0%
  // or 100% with three decimals, so 0 in 10,000 reads 0.000% [0.000, 0.038].
  const int d = (p.hi < 0.01 || p.lo > 0.99) ? 3 : 1;
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.*f%% [%.*f, %.*f]", d, p.p * 100, d, p.lo * 100, d, p.hi * 100);
  return buf;
}

std::string outcomes_text(const CalibrateResult& c, const std::vector<Proportion>& all) {
  std::string o;
  for (std::size_t j = 0; j < all.size() && j < c.outcome_labels.size(); ++j)
    o += (j ? ", " : "") + c.outcome_labels[j] + " " + proportion_text(all[j]);
  return o;
}

static std::string overlay_name(const CalibrateResult& c, const std::string& file) {
  // Its own name, not the base's: the file's name ("easy" for easy.yaml).
  std::string stem = fs::path(file).stem().string();
  if (stem.empty() || stem == c.ruleset_name) stem = c.ruleset_name + " (" + c.knob + " " + c.value + ")";
  return stem;
}

std::string overlay_text(const CalibrateResult& c, const std::string& file) {
  std::string base = c.ruleset_path;
  if (base.rfind("builtin:", 0) != 0) {
    std::error_code ec;
    const fs::path dir = fs::absolute(fs::path(file), ec).parent_path();
    const fs::path rel = fs::relative(fs::absolute(base, ec), dir, ec);
    if (!ec && !rel.empty()) base = rel.generic_string();
  }
  char runs[128];
  std::snprintf(runs, sizeof runs, " over %lld engagements (seed %llu)", static_cast<long long>(c.achieved.n), static_cast<unsigned long long>(c.seed));
  const std::string measured = proportion_text(c.achieved) + runs;
  char target[64];
  std::snprintf(target, sizeof target, "%.1f%%", c.target * 100);
  std::string o;
  // Editors validate the overlay when it names its schema: the nearest
  // schemas/ruleset.schema.json above the file (a Vedette checkout's), if any.
  {
    std::error_code ec;
    const fs::path dir = fs::absolute(fs::path(file), ec).parent_path();
    for (fs::path p = dir; !ec && !p.empty(); p = p.parent_path()) {
      const fs::path schema = p / "schemas" / "ruleset.schema.json";
      if (fs::exists(schema, ec)) {
        const fs::path rel = fs::relative(schema, dir, ec);
        if (!ec && !rel.empty()) o += "# yaml-language-server: $schema=" + rel.generic_string() + "\n";
        break;
      }
      if (p == p.parent_path()) break;
    }
  }
  o += "# " + (c.level.empty() ? std::string() : "Level '" + c.level + "': ") + c.knob + " tuned by `vedette calibrate` for " + c.scenario_file + ".\n";
  o += "# Target: " + c.outcome_label + " " + target + ". Measured with " + c.knob + " = " + c.value + ": " + c.outcome_label + " " + measured +
       ".\n";
  if (c.all.size() > 1) o += "# Every outcome at " + c.value + ": " + outcomes_text(c, c.all) + ".\n";
  o += "# (" + c.knob + " is " + c.from + " in the base.) Re-run vedette calibrate after changing the rules.\n";
  o += "extends: " + yaml_scalar(base) + "\n";
  o += "name: " + yaml_scalar(overlay_name(c, file)) + "\n";
  o += "description: " + yaml_scalar(c.knob + " = " + c.value + " (" + c.outcome_label + " " + measured + " in " + c.scenario_file + ")") + "\n";
  if (c.sixths && sixths(c.value_number).k != 0) {
    const Sixths m = sixths(c.value_number);
    o += "# " + c.knob + " = " + c.value + ": the offset " + std::to_string(m.n) + ", and where a band ends, " + faces(1, m.k) +
         " of the D6 read the next band's row\n# (the tables at " + std::to_string(m.n) + " and " + std::to_string(m.n + 1) + " mixed face by face).\n";
  }
  o += knob_yaml(c.knob, c.value_number, c.value, c.sixths, c.ruleset_path);
  return o;
}

}  // namespace vedette::lab
