#include "bots/skirmish_bots.hpp"

#include <stdexcept>
#include <string_view>

namespace vedette {

namespace {

constexpr double k_in = 2.54;

double reach_cm(const SkirmishGame& g, std::size_t f) {
  const auto& bands = g.rules().weapons[g.figures()[f].spec->weapon].bands;
  return bands.empty() ? 0 : bands.back().to.as_cm();
}

Point home(const SkirmishGame& g, std::uint8_t side, Point from) {
  const Tabletop& t = *g.scenario().foot;
  switch (g.scenario().sides[side].edge) {
    case Edge::bottom: return {from.x, 0};
    case Edge::top: return {from.x, t.depth().as_cm()};
    case Edge::left: return {0, from.y};
    case Edge::right: return {t.width().as_cm(), from.y};
  }
  return from;
}

SkAction move_to(Point p) {
  SkAction a;
  a.kind = SkAction::Kind::move;
  a.dest = p;
  return a;
}

SkAction with(SkAction::Kind k, int target = -1) {
  SkAction a;
  a.kind = k;
  a.target = target;
  return a;
}

class PatrolBot final : public SkirmishBot {
 public:
  SkAction act(const SkirmishGame& g, std::size_t f) const override {
    const SkFigure& x = g.figures()[f];
    // (A string_view compares lengths before characters: most roles differ in length.)
    const std::string_view role = x.spec->role;
    const auto& sd = g.scenario().sides[x.side];
    const Point objective = sd.objective ? *sd.objective : x.pos;
    // The questions below are pure (engine/modules/skirmish/skirmish.hpp):
    // each is asked only where its answer is used.
    if (x.mounted()) {
      const SkHorse& h = g.horses()[static_cast<std::size_t>(x.horse)];
      if (h.riders[0] != static_cast<int>(f)) return g.enemy_known(x.side, x.pos) ? with(SkAction::Kind::dismount) : with(SkAction::Kind::hold);
      if (h.doubled()) {
        const bool known = g.enemy_known(x.side, x.pos);
        // Riding double never goes toward a known enemy: carry a comrade who
        // lost his horse home; wait for a passenger who starts behind to get off.
        if (!known) return move_to(objective);
        const bool carried = g.figures()[static_cast<std::size_t>(h.riders[1])].spec->horse;
        return carried ? move_to(home(g, x.side, x.pos)) : with(SkAction::Kind::hold);
      }
      const int t = g.nearest_visible_enemy(f, true);
      if (t < 0) return move_to(objective);
      const double d = g.figure_dist_cm(f, static_cast<std::size_t>(t));
      if (role == "dismount" || role == "holder") {
        if (d <= 20 * k_in) return with(SkAction::Kind::dismount);
        return move_to(g.figures()[static_cast<std::size_t>(t)].pos);
      }
      // Fire from the saddle (seed 001: carbines, SMGs, pistols on the move,
      // +12): a skirmisher rides to point blank and fires whenever a hit is
      // possible; any rider fires when he cannot charge yet and a hit is.
      auto can_hit = [&] {
        const auto need = g.fire_need(f, static_cast<std::size_t>(t));
        return need && *need >= 1;
      };
      const bool in_reach = d <= g.move_allowance_cm(f) + g.rules().contact.as_cm();
      if (role == "skirmisher") {
        if (can_hit()) return with(SkAction::Kind::fire, t);
        const auto& bands = g.rules().weapons[x.spec->weapon].bands;
        const double close = bands.empty() ? 0 : bands.front().to.as_cm() * 0.9;
        if (d > close) return move_to(x.pos + (g.figures()[static_cast<std::size_t>(t)].pos - x.pos) * ((d - close) / d));
      }
      if (!in_reach && can_hit()) return with(SkAction::Kind::fire, t);
      if (in_reach) return with(SkAction::Kind::charge, t);
      // Close to charging distance: a charge is a move of 6in or more (seed 001).
      const Point tp = g.figures()[static_cast<std::size_t>(t)].pos;
      const double stand = g.rules().charge_min.as_cm() + g.rules().contact.as_cm() + k_in;
      return move_to(x.pos + (tp - x.pos) * ((d - stand) / d));
    }
    // On foot.
    int own = -1;
    for (std::size_t j = 0; j < g.horses().size(); ++j)
      if (g.horses()[j].owner == static_cast<int>(f) && g.horses()[j].in_play()) own = static_cast<int>(j);
    if (own < 0 && x.spec->horse && role != "holder") {
      // Horse lost: up behind the nearest comrade in the saddle alone.
      int best = -1;
      double bd = 8 * k_in;
      for (std::size_t j = 0; j < g.figures().size(); ++j) {
        const SkFigure& c = g.figures()[j];
        if (c.side != x.side || !c.active() || !c.mounted()) continue;
        const SkHorse& h = g.horses()[static_cast<std::size_t>(c.horse)];
        if (h.riders[0] != static_cast<int>(j) || h.doubled()) continue;
        const double d = g.dist_cm(c.pos, x.pos);
        if (d < bd) {
          bd = d;
          best = static_cast<int>(j);
        }
      }
      if (best >= 0) {
        if (bd <= g.rules().contact.as_cm() * 2) return with(SkAction::Kind::mount_double, best);
        return move_to(g.figures()[static_cast<std::size_t>(best)].pos);
      }
    }
    if (role == "holder") {
      Point c{0, 0};
      int n = 0;
      for (const SkHorse& h : g.horses())
        if (h.in_play() && !h.ridden() && g.figures()[static_cast<std::size_t>(h.owner)].side == x.side) {
          c = c + h.pos;
          ++n;
        }
      if (n == 0) return with(SkAction::Kind::op_fire);
      c = c * (1.0 / n);
      if (!g.within_cm(c, x.pos, g.rules().holder_reach.as_cm() * 0.5)) return move_to(c);
      return with(SkAction::Kind::hold_horses);
    }
    const int t = g.nearest_visible_enemy(f);
    if (t >= 0 && g.within_cm(x.pos, g.figures()[static_cast<std::size_t>(t)].pos, reach_cm(g, f))) return with(SkAction::Kind::fire, t);
    if (t >= 0) return move_to(g.figures()[static_cast<std::size_t>(t)].pos);
    return with(SkAction::Kind::op_fire);
  }
};

class SquadBot final : public SkirmishBot {
 public:
  SkAction act(const SkirmishGame& g, std::size_t f) const override {
    const SkFigure& x = g.figures()[f];
    if (x.mounted()) return with(SkAction::Kind::dismount);
    // Prone in the open when a rider is close (seed 001: +5 to the skill check when ridden down).
    // (The enemies in figure order, and cover_at(x.pos) kept with the figure's place.)
    if (!x.prone && g.figure_cover_at(f) == 0)
      for (const std::size_t j : g.side_figures(static_cast<std::uint8_t>(1 - x.side))) {
        const SkFigure& e = g.figures()[j];
        if (e.active() && e.mounted() && g.within_cm(e.pos, x.pos, 10 * k_in) && g.sees(f, j)) return with(SkAction::Kind::prone);
      }
    const int t = g.nearest_visible_enemy(f);
    const double reach = reach_cm(g, f);  // (pure: asked once)
    if (t >= 0 && g.within_cm(x.pos, g.figures()[static_cast<std::size_t>(t)].pos, reach)) return with(SkAction::Kind::fire, t);
    for (std::size_t h = 0; h < g.horses().size(); ++h) {
      const SkHorse& horse = g.horses()[h];
      if (!horse.in_play() || horse.ridden() || g.figures()[static_cast<std::size_t>(horse.owner)].side == x.side) continue;
      if (g.within_cm(x.pos, horse.pos, reach) && g.sees_point(x.pos, horse.pos)) return with(SkAction::Kind::fire_at_horse, static_cast<int>(h));
    }
    return with(SkAction::Kind::op_fire);
  }
};

}  // namespace

std::unique_ptr<SkirmishBot> make_skirmish_bot(const std::string& name) {
  if (name == "skirmish_patrol") return std::make_unique<PatrolBot>();
  if (name == "skirmish_squad") return std::make_unique<SquadBot>();
  throw std::invalid_argument("no skirmish bot named '" + name + "'");
}

SkirmishPlayers make_skirmish_players(const SkirmishScenario& s) {
  SkirmishPlayers p;
  for (std::size_t i = 0; i < 2; ++i) p.owned[i] = make_skirmish_bot(s.sides[i].bot);
  return p;
}

}  // namespace vedette
