#include "sims/solo/solo_new.hpp"

#include <algorithm>
#include <cctype>
#include <system_error>

#include "engine/core/diagnostics.hpp"
#include "sims/io/entropy.hpp"
#include "sims/solo/solo_turn.hpp"

namespace vedette::solo {

namespace fs = std::filesystem;

namespace {

std::string trim(std::string s) {
  auto sp = [](unsigned char c) { return std::isspace(c) != 0; };
  while (!s.empty() && sp(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t k = 0;
  while (k < s.size() && sp(static_cast<unsigned char>(s[k]))) ++k;
  return s.substr(k);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

UnitParse parse_unit(const std::string& text, const Ruleset& r) {
  const std::string form =
      "expected NAME:TYPE[,raw][,hero][,figures=N][,light|medium|heavy][,weapon=W], e.g. \"Lancers:shock,hero,figures=12,heavy\"";
  auto colon = text.find(':');
  if (colon == std::string::npos) throw SessionError("--unit '" + text + "': " + form);
  UnitParse out;
  out.spec.name = trim(text.substr(0, colon));
  if (out.spec.name.empty()) throw SessionError("--unit '" + text + "': the unit needs a name; " + form);
  if (!printable_utf8(out.spec.name))
    throw SessionError("--unit: a unit name must be printable text (UTF-8, no control characters)");
  std::vector<std::string> parts;
  std::string rest = text.substr(colon + 1);
  std::size_t start = 0;
  while (true) {
    auto comma = rest.find(',', start);
    parts.push_back(trim(rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (parts[0].empty()) throw SessionError("--unit '" + text + "': the unit needs a type; " + form);
  // The type in the ruleset's vocabulary (issue 30): its id, a part of its
  // name, or one of its words ("heavy cavalry" in a Napoleonic preset).
  std::string why;
  auto type = r.find_unit_type(normalise_type(parts[0])) ? std::optional<std::string>(normalise_type(parts[0]))
                                                         : parse_unit_type(r, parts[0], why);
  if (!type) throw SessionError("--unit '" + text + "': " + why);
  out.spec.type = *type;
  out.spec.figures = k_default_figures;
  bool weapon_given = false;
  for (std::size_t k = 1; k < parts.size(); ++k) {
    const std::string& p = parts[k];
    auto dup = [&](const char* what) { throw SessionError("--unit '" + text + "': " + what + " given twice"); };
    if (p == "raw") {
      if (out.spec.raw) dup("raw");
      out.spec.raw = true;
    } else if (p == "hero") {
      if (out.spec.hero) dup("hero");
      out.spec.hero = true;
    } else if (p == "light" || p == "medium" || p == "heavy" || p.rfind("weight=", 0) == 0) {
      std::string w = p.rfind("weight=", 0) == 0 ? p.substr(7) : p;
      if (!out.spec.weight.empty()) dup("weight");
      if (w != "light" && w != "medium" && w != "heavy")
        throw SessionError("--unit '" + text + "': weight must be light, medium or heavy, got '" + w + "'");
      out.spec.weight = w;
    } else if (p.rfind("weapon=", 0) == 0) {
      if (weapon_given) dup("weapon");
      weapon_given = true;
      std::string w = p.substr(7);
      std::vector<std::string> weapons;
      std::string names;
      for (const Weapon& x : r.weapons) {
        weapons.push_back(x.id);
        names += (names.empty() ? "" : ", ") + x.id;
      }
      if (w != "none" && std::find(weapons.begin(), weapons.end(), w) == weapons.end())
        throw SessionError("--unit '" + text + "': unknown weapon '" + w + "'" + did_you_mean(w, weapons) +
                         " (the ruleset has: " + names + ", or none)");
      if (w != "none") out.spec.weapon = w;
    } else if (p.rfind("figures=", 0) == 0) {
      if (out.figures_given) dup("figures");
      auto n = parse_int(p.substr(8));
      if (!n || *n < 1 || *n > k_max_figures)
        throw SessionError("--unit '" + text + "': figures must be a whole number from 1 to " +
                         std::to_string(k_max_figures) + ", got '" + p.substr(8) + "'");
      out.spec.figures = static_cast<int>(*n);
      out.figures_given = true;
    } else {
      std::string key = p.substr(0, p.find('='));
      throw SessionError("--unit '" + text + "': unknown option '" + p + "'" +
                       did_you_mean(key, {"raw", "hero", "figures", "weight", "light", "medium", "heavy", "weapon"}) + "; " + form);
    }
  }
  // No weapon= : the type's own (issue 28: shooting cavalry carry carbines,
  // mounted infantry muskets; unit_types.ID.default_weapon). weapon=none
  // says the unit has none.
  if (!weapon_given) {
    const UnitType* t = r.find_unit_type(out.spec.type);
    if (t && !t->default_weapon.empty()) {
      out.spec.weapon = t->default_weapon;
      out.weapon_from_type = true;
    }
  }
  return out;
}

Created create_session(const NewSession& o) {
  if (o.units.size() > k_max_units)
    throw SessionError("--unit: " + std::to_string(o.units.size()) + " units; a session holds at most " + std::to_string(k_max_units));
  const fs::path& path = o.path;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw SessionError(path.string() + " is a folder; give a file name for the session");
  if (fs::exists(path, ec) && !o.force)
    throw SessionError(path.string() + " already exists; nothing was written (add --force to replace it and lose its game)");
  fs::path dir = path.parent_path();
  if (!dir.empty() && !fs::is_directory(dir, ec))
    throw SessionError("the folder " + dir.string() + " does not exist; nothing was written");

  const std::string given = o.ruleset.empty() ? "builtin:default" : o.ruleset;
  RulesetPtr rules = load_ruleset(given);
  Header h;
  h.ruleset_path = record_ruleset_path(path, given);
  if (!printable_utf8(h.ruleset_path)) throw SessionError("--ruleset: the path must be printable UTF-8 text");
  h.ruleset_hash = ruleset_hash(*rules);
  h.seed = o.seed ? *o.seed : io::entropy_seed();
  h.physical_dice = o.physical;
  h.module = o.module;
  std::vector<bool> assumed, weapon_from_type;
  for (const auto& text : o.units) {
    UnitParse u = parse_unit(text, *rules);
    for (const auto& other : h.units)
      if (lower(other.name) == lower(u.spec.name))
        throw SessionError("--unit: two units are named '" + u.spec.name + "' (names must differ, ignoring case)");
    h.units.push_back(u.spec);
    assumed.push_back(!u.figures_given);
    weapon_from_type.push_back(u.weapon_from_type);
  }
  Session s(path, h);
  s.save(o.force);
  return Created{std::move(s), std::move(rules), std::move(assumed), std::move(weapon_from_type)};
}

}  // namespace vedette::solo
