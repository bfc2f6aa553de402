#include "engine/procedures/combat.hpp"

#include <algorithm>
#include <stdexcept>

namespace vedette {

bool d6_meets(int face, int need) { return face >= need; }

Fraction p_d6_at_least(int need) {
  int ways = 0;
  for (int f = 1; f <= 6; ++f) ways += d6_meets(f, need);
  return Fraction(ways, 6);
}

int ways_2d6_at_least(int need) {
  int ways = 0;
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= 6; ++b) ways += a + b >= need;
  return ways;
}

Fraction p_2d6_at_least(int need) { return Fraction(ways_2d6_at_least(need), 36); }

std::vector<Fraction> hits_distribution(int n, Fraction p) {
  if (n < 0 || n > 24) throw std::out_of_range("hits_distribution: 0 to 24 dice");
  std::vector<Fraction> dist{Fraction(1)};
  const Fraction q = Fraction(1) - p;
  for (int k = 0; k < n; ++k) {
    std::vector<Fraction> next(dist.size() + 1, Fraction(0));
    for (std::size_t i = 0; i < dist.size(); ++i) {
      next[i] = next[i] + dist[i] * q;
      next[i + 1] = next[i + 1] + dist[i] * p;
    }
    dist = std::move(next);
  }
  return dist;
}

int dice_for(int figures, int figures_per_die) {
  if (figures <= 0 || figures_per_die <= 0) return 0;
  return (figures + figures_per_die - 1) / figures_per_die;
}

HitOn hit_location(const Ruleset& r, int face) {
  return r.supplement.hit_on_horse[static_cast<std::size_t>(std::clamp(face, 1, 6) - 1)] ? HitOn::horse : HitOn::rider;
}

Fraction p_hit_on_horse(const Ruleset& r) {
  int ways = 0;
  for (int f = 1; f <= 6; ++f) ways += hit_location(r, f) == HitOn::horse;
  return Fraction(ways, 6);
}

HitOn roll_hit_location(const Ruleset& r, Dice& dice, int* face) {
  const int f = dice.d6();
  if (face) *face = f;
  return hit_location(r, f);
}

int roll_hits(Dice& dice, int n, int need, std::vector<int>* faces) {
  int hits = 0;
  for (int k = 0; k < n; ++k) {
    const int f = dice.d6();
    if (faces) faces->push_back(f);
    hits += d6_meets(f, need);
  }
  return hits;
}

int melee_need(const Ruleset& r, int modifier) { return r.combat.melee.hit - modifier; }

int shooting_need(const Ruleset& r, int band_hit, int cover_level) {
  return band_hit + r.combat.shooting.cover_penalty * std::max(0, cover_level);
}

int initiation_need(const Ruleset& r, int extra) { return r.combat.charge.initiation_target + extra; }
Fraction p_initiation(const Ruleset& r, int extra) { return p_2d6_at_least(initiation_need(r, extra)); }

Fraction p_moves_first(const Ruleset& r, int mine, int theirs, bool wins_ties) {
  // Distribution of the sum of n D6, as ways out of 6^n.
  const int n = r.combat.initiative.dice;
  std::vector<std::int64_t> ways{1};
  std::int64_t all = 1;
  for (int k = 0; k < n; ++k) {
    std::vector<std::int64_t> next(ways.size() + 6, 0);
    for (std::size_t s = 0; s < ways.size(); ++s)
      for (std::size_t f = 1; f <= 6; ++f) next[s + f] += ways[s];
    ways = std::move(next);
    all *= 6;
  }
  const int m = r.charge.declare_initiative_modifier;
  std::int64_t first = 0;
  for (std::size_t a = 0; a < ways.size(); ++a)
    for (std::size_t b = 0; b < ways.size(); ++b) {
      const long long ta = static_cast<long long>(a) + m * mine;
      const long long tb = static_cast<long long>(b) + m * theirs;
      if (ta > tb || (ta == tb && wins_ties)) first += ways[a] * ways[b];
    }
  return Fraction(first, all * all);
}

Fraction p_rally(const Ruleset& r) { return p_2d6_at_least(r.combat.morale.rally_target); }

bool retire_hit(const Ruleset& r, int face) {
  return face >= 1 && face <= 6 && r.combat.retire.hit_faces[static_cast<std::size_t>(face - 1)];
}

Fraction p_retire_hit(const Ruleset& r) {
  int ways = 0;
  for (int f = 1; f <= 6; ++f) ways += retire_hit(r, f);
  return Fraction(ways, 6);
}

}  // namespace vedette
