#include "sims/lab/lab_model.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "engine/core/builtin_tables.hpp"
#include "engine/core/content_hash.hpp"
#include "engine/core/doc.hpp"
#include "sims/lab/skirmish_model.hpp"
#include "sims/lab/toy_engagement.hpp"
#include "engine/modules/skirmish/skirmish.hpp"

namespace vedette::lab {

std::size_t Schema::metric_index(const std::string& id) const {
  for (std::size_t i = 0; i < metrics.size(); ++i)
    if (metrics[i].id == id) return i;
  throw std::out_of_range("no metric '" + id + "'");
}

std::string Schema::shape() const {
  std::string s = "outcomes:";
  for (const auto& o : outcome_ids) s += o + ",";
  s += ";metrics:";
  for (const auto& m : metrics) s += m.id + "/" + std::to_string(m.hist_max) + ",";
  s += ";bands:";
  for (const auto& b : band_ids) s += b + ",";
  s += ";behaviours:";
  for (const auto& b : behaviour_ids) s += b + ",";
  return s;
}

void OutcomeRow::reset() {
  outcome = 0;
  std::fill(metrics.begin(), metrics.end(), 0);
  std::fill(chosen.begin(), chosen.end(), 0u);
}

std::unique_ptr<LabScenario> open_lab_scenario(const std::string& path) {
  Doc root = parse_yaml_file(path);
  if (is_synthetic(root)) return load_synthetic(root, path);
  if (is_skirmish(root)) return open_skirmish_scenario(path);  // seed 001 (sims/lab/skirmish_model.hpp)
  return open_engine_scenario(path);
}

namespace {

std::string file_bytes(const std::string& path) {
  if (path.rfind("builtin:", 0) == 0) {
    auto t = builtin_table(std::string_view(path).substr(8));
    return t ? std::string(*t) : std::string();
  }
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

std::string run_fingerprint(const LabScenario& s, const Ruleset& r,
                            const std::vector<std::pair<std::string, std::string>>& edits) {
  // Each piece is followed by a 0xFF byte (never in UTF-8 text), so moving
  // bytes from one piece to the next changes the hash.
  std::uint64_t h = k_fnv1a64_basis;
  auto add = [&](std::string_view bytes) { h = fnv1a64("\xff", fnv1a64(bytes, h)); };
  add(file_bytes(s.file()));
  for (const auto& src : r.sources) add(file_bytes(src));
  for (const auto& [p, v] : edits) {
    add(p);
    add(v);
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace vedette::lab
