// `vedette solo play`: your move (issue 28). The cavalry that may react to
// it is named; each unit of yours that ends near it, or charges a cavalry
// unit, is asked in two questions, and the cavalry's answer applied at once
// (solo::Moved, solo::Charged: the rules are sims/solo/solo_react.hpp's).
#include <algorithm>
#include <sstream>
#include <type_traits>

#include "sims/cli/solo_prompter.hpp"
#include "sims/solo/solo_react.hpp"

namespace vedette::cli::play {

namespace {

// Issue 28, the player's movement step: each unit of the player's that
// ends near cavalry that may react, or charges a cavalry unit, in two
// questions (which unit and its class; where it ends or what it charges).
// Each answer is applied at once (solo::Moved, solo::Charged: the rules are
// sims/solo/solo_react.hpp's) and saved; a unit that ends near none of the
// cavalry is not named, so nothing is asked about it.
struct MoverAnswer {
  std::string name, cls, kind = "moved";
};
std::optional<MoverAnswer> parse_mover(const Ruleset& r, const std::string& text, std::string& why) {
  std::istringstream is(text);
  std::vector<std::string> w;
  for (std::string x; is >> x;) w.push_back(x);
  MoverAnswer m;
  if (!w.empty()) {
    std::string k;
    if (parse_move_kind(w.back(), k)) {
      m.kind = w.back();
      w.pop_back();
    }
  }
  // Its class is the last one to three words, in the ruleset's vocabulary
  // ("1st Foot line infantry"); the words before are its name.
  std::string cw;
  std::size_t taken = 0;
  for (std::size_t n = std::min<std::size_t>(3, w.size() > 0 ? w.size() - 1 : 0); n >= 1 && !taken; --n) {
    std::string cls;
    for (std::size_t i = w.size() - n; i < w.size(); ++i) cls += (cls.empty() ? "" : " ") + w[i];
    if (auto d = parse_defender(r, cls, cw)) {
      m.cls = std::string(k_defender_class_names[static_cast<std::size_t>(*d)]);
      taken = n;
    }
  }
  if (!taken)
    return why = "'" + text + "': give its name and its class (" + defender_choices(r) + "), e.g. \"Foot heavy-foot\"",
           std::nullopt;
  w.resize(w.size() - taken);
  for (const std::string& x : w) m.name += (m.name.empty() ? "" : " ") + x;
  return m;
}

// The second answer: the cavalry units it ends near, or the one it charges.
struct WhereAnswer {
  std::vector<solo::NearCavalry> near;
  std::optional<solo::NearCavalry> charge;  // "charge UNIT DISTANCE [flank|rear] [no-bonus] [no-arc] [unseen]"
  bool bonus = true;
};
std::optional<WhereAnswer> parse_where(const Session& s, const Ruleset& r, const std::string& text, std::string& why) {
  WhereAnswer a;
  std::vector<std::string> parts;
  std::string cur;
  for (char ch : text + ";") {
    if (ch != ';') {
      cur += ch;
      continue;
    }
    while (!cur.empty() && cur.back() == ' ') cur.pop_back();
    while (!cur.empty() && cur.front() == ' ') cur.erase(0, 1);
    if (!cur.empty()) parts.push_back(cur);
    cur.clear();
  }
  for (std::string part : parts) {
    const bool charge = part.rfind("charge ", 0) == 0;
    if (charge) {
      if (parts.size() != 1) return why = "a unit that charges ends at its target: name that one only", std::nullopt;
      part.erase(0, 7);
      const auto nb = part.find("no-bonus");
      if (nb != std::string::npos) {
        a.bonus = false;
        part.erase(nb, 8);
      }
    }
    auto n = solo::parse_near_words(s, part, why);
    if (!n) return std::nullopt;
    if (charge && (n->charging || n->path != "open"))
      return why = "'" + text + "': for a charge give the distance, the side it strikes, and no-bonus, no-arc or unseen", std::nullopt;
    if (!parse_table_length(r, n->distance, false, why)) return why = "'" + part + "': the distance: " + why, std::nullopt;
    if (charge) a.charge = *n;
    else a.near.push_back(*n);
  }
  return a;
}

// Applies a reaction; with the player's dice, asks each pair as the
// charge procedure comes to it (solo::DiceNeeded) and applies again.
template <class C>
Applied with_dice(Session& s, const Ruleset& r, C& c, std::vector<int>& roll, Prompter& p, std::size_t unit) {
  for (;;) {
    try {
      return apply(s, r, c);
    } catch (const solo::WeightNeeded& need) {
      // The unit records no weight: asked, and the reaction applied again with it.
      c.their_weight = std::string(k_attacker_weight_names[static_cast<std::size_t>(
          p.checked<AttackerWeight>(need.question, std::nullopt, [](const std::string& t, std::string& why) { return solo::parse_attacker(t, why); },
                                             "Seed 003's charge table reads the cavalry's weight: light, medium or heavy."))]);
    } catch (const solo::DiceNeeded& need) {
      // Whose check and what it needs, in the page's words too (sims/solo/solo_react.hpp).
      const solo::DiceNeededWords w =
          solo::dice_needed_words(need, std::is_same_v<C, solo::Moved>, s.header().units[unit].name, c.mover);
      const std::vector<int> d = ask_dice(p, w.text + ". Enter both dice (e.g. 3 5):", 2);
      roll.insert(roll.end(), d.begin(), d.end());
    }
  }
}

}  // namespace

void player_move_step(Session& s, const Ruleset& r, bool physical, Prompter& p, std::ostream& out) {
  out << "\n--- Your move ---\n";
  std::vector<std::size_t> may;
  for (const ReactorStatus& st : reactor_status(r, s)) {
    if (s.figures_left(st.unit) <= 0) continue;
    if (st.gate.allowed && st.wants) may.push_back(st.unit);
    else out << "  " << st.line << "\n";
  }
  std::string names;
  for (std::size_t k = 0; k < may.size(); ++k)
    names += (k == 0 ? "" : k + 1 == may.size() ? " and " : ", ") + s.header().units[may[k]].name;
  if (!may.empty())
    out << "  " << names << (may.size() == 1 ? " has" : " have")
        << " not moved and may charge a unit of yours that moves or turns within reach (seed 003 L90).\n";
  int written = 0;  // events this step wrote (u takes back the last)
  for (;;) {
    try {
      std::string near_names;  // who may still react (a unit that charged has moved)
      for (std::size_t k = 0; k < may.size(); ++k)
        near_names += (k == 0 ? "" : k + 1 == may.size() ? " and " : ", ") + s.header().units[may[k]].name;
      const std::string about = may.empty() ? "charges one of the cavalry" : "ends near " + near_names + ", or charges one of the cavalry";
      const MoverAnswer m = p.checked<MoverAnswer>(
          "Which of your units moves or turns now and " + about +
              "? Its name and class, e.g. \"Foot heavy-foot\"; add about-to-move if it has not moved yet, faced if it only turned",
          std::string("none"), [&p, &r](const std::string& t, std::string& why) -> std::optional<MoverAnswer> {
            if (t == "none" || t == "n" || t == "no") return MoverAnswer{};
            return parse_mover(r, p.raw(), why);  // the name as you typed it
          },
          "Seed 003 L90-L102: a cavalry unit that has not moved may charge a unit of yours that moves or turns within its "
          "reach. Name your unit that moves or turns, then its class on the charge table. about-to-move: it has not moved "
          "yet, and a charge that reaches it catches it where it stands (it cannot move this turn); faced: it only turned. "
          "none (Enter) ends your move.");
      if (m.name.empty()) {
        (void)apply(s, r, solo::EndMove{});
        save_or_throw(s);
        out << "Your move is over.\n";
        return;
      }
      const std::string where =
          may.empty() ? "Does " + m.name + " charge a cavalry unit? charge UNIT DISTANCE [flank|rear] [no-bonus]"
                      : "Where does " + m.name +
                            " end? Each cavalry unit it ends near: UNIT DISTANCE [flank|rear] [no-arc] [unseen] [charging], "
                            "separated by ';'; or: charge UNIT DISTANCE [flank|rear] [no-bonus]";
      const WhereAnswer w = p.checked<WhereAnswer>(
          where, std::string("none"),
          [&](const std::string& t, std::string& why) -> std::optional<WhereAnswer> {
            if (t == "none" || t == "no" || t == "n") return WhereAnswer{};
            return parse_where(s, r, t, why);
          },
          "For each cavalry unit your unit ends near: its name and the distance from its front edge to your unit's nearest "
          "figure (e.g. 20cm or 8in); flank or rear when that is the face of yours it would strike (front otherwise); no-arc "
          "when your unit is not even partly " + solo::charge_arc_words(r, "that unit") +
              "; unseen when its front rank cannot see your unit; charging when yours was charging it. Separate units "
              "with ';'. Or: charge UNIT DISTANCE when your unit charges that cavalry unit (flank or rear: the face it "
              "strikes; no-bonus: from inside its minimum distance, seed 003 L42). none (Enter): it ends near none.");
      if (w.charge) {
        solo::Charged c;
        c.unit = w.charge->unit;
        c.mover = m.name;
        c.as = m.cls;
        c.distance = w.charge->distance;
        c.side = w.charge->side;
        c.bonus = w.bonus;
        c.in_arc = w.charge->in_arc;
        c.in_sight = w.charge->in_sight;
        const std::size_t k = solo::find_unit_or_throw(s, c.unit);
        c.player_dice = physical && !s.step_dice_for(TurnStep::charged, k, s.state().turn);
        const Applied a = with_dice(s, r, c, c.roll, p, k);
        out << step_record(s.event(a.events.back()).body)->outcome << "\n";
        ++written;
        save_or_throw(s);
        continue;
      }
      // Each unit named, one at a time (your dice, if you roll them, go to
      // the one that reacts); then, in one line each, those that may react
      // and were not named.
      std::vector<std::size_t> named;
      Applied last;
      auto one = [&](std::vector<solo::NearCavalry> near) {
        solo::Moved mv;
        mv.mover = m.name;
        mv.as = m.cls;
        mv.kind = m.kind;
        mv.near = std::move(near);
        std::optional<std::size_t> k;
        if (!mv.near.empty()) k = solo::find_unit_or_throw(s, mv.near[0].unit);
        mv.player_dice = physical && k && !s.step_dice_for(TurnStep::opportunity, *k, s.state().turn);
        last = with_dice(s, r, mv, mv.roll, p, k.value_or(0));
        written += static_cast<int>(last.events.size());
        save_or_throw(s);
        for (const Applied::Reaction& x : last.reactions)
          if (x.near) out << x.outcome << "\n";
      };
      for (const solo::NearCavalry& n : w.near) {
        one({n});
        named.push_back(solo::find_unit_or_throw(s, n.unit));
      }
      if (w.near.empty()) one({});
      for (const Applied::Reaction& x : last.reactions)
        if (!x.near && std::find(may.begin(), may.end(), x.unit) != may.end() &&
            std::find(named.begin(), named.end(), x.unit) == named.end())
          out << x.outcome << "\n";
      // Who may still react (a unit that charged has moved).
      std::vector<std::size_t> still = reactors_now(r, s);
      may.erase(std::remove_if(may.begin(), may.end(), [&](std::size_t k) { return std::find(still.begin(), still.end(), k) == still.end(); }),
                may.end());
    } catch (const UndoRequest&) {
      if (written == 0) {
        out << "  Nothing answered in your move yet to undo.\n";
        continue;
      }
      undo_last_answer(s, r, out);
      --written;
    } catch (const SessionError& e) {
      // A move the session refuses (a unit charged twice in a turn): said,
      // nothing written for it, and the move goes on.
      out << "  " << e.what() << "\n";
    }
  }
}

}  // namespace vedette::cli::play
