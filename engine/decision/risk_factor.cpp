#include "engine/decision/risk_factor.hpp"

#include <algorithm>

namespace vedette {

int modifier_value(const Modifier& m, const Facts& f) {
  switch (m.kind) {
    case Modifier::Kind::all:
      for (Fact x : m.facts)
        if (!f[x]) return 0;
      return m.value;
    case Modifier::Kind::any: {
      int n = 0;
      for (Fact x : m.facts) n += f[x] != 0;
      if (n == 0) return 0;
      return m.stack ? m.value * n : m.value;
    }
    case Modifier::Kind::per: {
      std::int32_t v = f[m.facts.front()];
      if (v <= 0 || m.step <= 0) return 0;
      return m.value * static_cast<int>(v / m.step);
    }
  }
  return 0;
}

int rf_total(const Ruleset& r, const Facts& f) {
  int total = 0;
  for (const auto& m : r.modifiers) total += modifier_value(m, f);
  return total;
}

RfTable::RfTable(const Ruleset& r) {
  for (const Modifier& m : r.modifiers) {
    if (m.kind == Modifier::Kind::per) {
      per_.push_back(&m);
      continue;
    }
    for (Fact x : m.facts) {
      if (std::find(asked_.begin(), asked_.begin() + static_cast<std::ptrdiff_t>(n_asked_), x) !=
          asked_.begin() + static_cast<std::ptrdiff_t>(n_asked_))
        continue;
      if (n_asked_ == k_table_facts) return;  // too many for the table: rf_total
      asked_[n_asked_++] = x;
    }
  }
  sums_.assign(std::size_t{1} << n_asked_, 0);
  for (std::size_t bits = 0; bits < sums_.size(); ++bits) {
    Facts f;
    for (std::size_t k = 0; k < n_asked_; ++k) f.set(asked_[k], static_cast<std::int32_t>((bits >> k) & 1U));
    int sum = 0;
    for (const Modifier& m : r.modifiers)
      if (m.kind != Modifier::Kind::per) sum += modifier_value(m, f);
    sums_[bits] = sum;
  }
  usable_ = true;
}

int RfTable::total(const Facts& f) const {
  std::size_t bits = 0;
  for (std::size_t k = 0; k < n_asked_; ++k) bits |= static_cast<std::size_t>(f[asked_[k]] != 0) << k;
  int total = sums_[bits];
  for (const Modifier* m : per_) total += modifier_value(*m, f);
  return total;
}

static std::string percent(std::int32_t hundredths) {
  std::string s = std::to_string(hundredths / 100);
  if (hundredths % 100) {
    int frac = hundredths % 100;
    s += "." + std::string(frac < 10 ? "0" : "") + std::to_string(frac);
    while (s.back() == '0') s.pop_back();
  }
  return s + "%";
}

RiskFactor compute_rf(const Ruleset& r, const Facts& f) {
  RiskFactor rf;
  for (const auto& m : r.modifiers) {
    int v = modifier_value(m, f);
    if (v == 0) continue;
    std::string reason = m.text;
    if (m.kind == Modifier::Kind::per) {
      std::int32_t x = f[m.facts.front()];
      reason += " (" + percent(x) + ": " + std::to_string(x / m.step) + " x " + percent(m.step) + ")";
    } else if (m.kind == Modifier::Kind::any) {
      // Which of the facts holds, in words ("here: in cover"), not the keys.
      std::string which;
      for (Fact x : m.facts)
        if (f[x]) which += (which.empty() ? "" : ", ") + std::string(fact_name(x));
      std::replace(which.begin(), which.end(), '_', ' ');
      reason += " (here: " + which + ")";
    }
    rf.total += v;
    rf.breakdown.push_back({&m, v, std::move(reason)});
  }
  return rf;
}

}  // namespace vedette
