#include "sims/lab/checkpoint.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sys/stat.h>
#include <utility>

#include "engine/core/diagnostics.hpp"
#include "engine/core/doc.hpp"
#include "sims/io/atomic_file.hpp"

namespace vedette::lab {

namespace {
constexpr int k_format = 1;
constexpr std::size_t k_max_checkpoint_bytes = 64u << 20;

// The numbers a checkpoint of sums shaped like these holds.
std::size_t values_in(const Sums& sums) {
  std::size_t n = 16;  // the keys besides the sums
  for (const auto& t : sums.tallies) {
    const auto d = static_cast<std::size_t>(t.cross.rows());
    n += 1 + static_cast<std::size_t>(t.sum.size() + t.outcome_sum.size() + t.outcome_sumsq.size() + t.nonzero.size() +
                                      t.min.size() + t.max.size() + t.chosen.size() + t.band_engagements.size()) +
         d * (d + 1) / 2;
    for (const auto& h : t.hist) n += static_cast<std::size_t>(h.size());
  }
  if (sums.paired) n += 1 + static_cast<std::size_t>(sums.paired->sum_d.size() + sums.paired->sumsq_d.size() + sums.paired->differ.size());
  return n;
}
}  // namespace

void write_checkpoint(const std::string& path, const RunIdentity& id, const Sums& sums, std::uint64_t next) {
  nlohmann::json j;
  j["vedette_checkpoint"] = k_format;
  j["command"] = id.command;
  j["fingerprint"] = id.fingerprint;
  j["seed"] = id.seed;
  j["n"] = id.n;
  j["precision"] = id.precision ? nlohmann::json(*id.precision) : nlohmann::json(nullptr);
  j["next"] = next;
  nlohmann::json t = nlohmann::json::array();
  for (const auto& x : sums.tallies) t.push_back(to_json(x));
  j["tallies"] = std::move(t);
  j["paired"] = sums.paired ? to_json(*sums.paired) : nlohmann::json(nullptr);
  write_file_atomically(path, j.dump() + "\n");
}

Checkpoint read_checkpoint(const std::string& path, const std::string& command, Sums& sums) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw LoadError({path, 0, 0}, "cannot open the checkpoint: no such file");
  if (S_ISDIR(st.st_mode)) throw LoadError({path, 0, 0}, "is a folder; expected a checkpoint file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError({path, 0, 0}, std::string("cannot read the checkpoint: ") + std::strerror(errno));
  const std::string text = read_at_most(in, k_max_checkpoint_bytes, static_cast<std::size_t>(st.st_size));
  if (text.size() > k_max_checkpoint_bytes) throw LoadError({path, 0, 0}, "too large to be a checkpoint");

  // A checkpoint of this run holds a known number of values (the sums'
  // shapes) and is 4 levels deep: stop reading anything much bigger or
  // deeper at once, instead of building it (64 MiB of "[1,1,..." would take
  // a gigabyte and seconds).
  const std::size_t most = 2 * values_in(sums) + 1000;
  std::size_t values = 0;
  auto guard = [&](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > 8) throw LoadError({path, 0, 0}, "not a usable checkpoint: nested deeper than a checkpoint is");
    if (++values > most)
      throw LoadError({path, 0, 0}, "not a usable checkpoint: more values than a checkpoint of this run holds (" + std::to_string(most) + ")");
    return true;
  };
  // The line and column of the byte at offset AT (0-based) of the text.
  auto place = [&](std::size_t at) {
    int line = 1, col = 1;
    for (std::size_t i = 0; i < at && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    return std::pair{line, col};
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text, guard);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann reports a 1-based byte offset; say line:column.
    const auto [line, col] = place(e.byte > 0 ? e.byte - 1 : 0);
    std::string what = e.what();
    auto cut = what.find("parse error");
    throw LoadError({path, line, col}, "not a valid checkpoint (JSON): " + (cut == std::string::npos ? what : what.substr(cut)));
  } catch (const nlohmann::json::out_of_range& e) {
    // A number too large for a double (406: "number overflow parsing
    // '9081e30898'", found by scripts/fuzz): nlohmann gives no place; the
    // number's first place in the text is where it is.
    const std::string what = e.what();
    const auto q = what.find('\'');
    const auto q2 = q == std::string::npos ? q : what.find('\'', q + 1);
    const std::string number = q2 == std::string::npos ? std::string() : what.substr(q + 1, q2 - q - 1);
    const auto at = number.empty() ? std::string::npos : text.find(number);
    const auto [line, col] = at == std::string::npos ? std::pair{0, 0} : place(at);
    throw LoadError({path, line, col},
                    "not a valid checkpoint (JSON): a number too large to read" + (number.empty() ? "" : " (" + number + ")"));
  }
  auto bad = [&](const std::string& why) -> LoadError { return LoadError({path, 0, 0}, "not a usable checkpoint: " + why); };
  if (!j.is_object() || !j.contains("vedette_checkpoint")) throw bad("it has no 'vedette_checkpoint' key (is it a vedette checkpoint?)");
  if (j["vedette_checkpoint"] != k_format) throw bad("format " + j["vedette_checkpoint"].dump() + ", expected " + std::to_string(k_format));
  // Each key with the type it must have, or a message naming it (never a
  // conversion nlohmann would make: 1e30 read as a whole number is undefined).
  auto at = [&](const char* key) -> const nlohmann::json& {
    auto it = j.find(key);
    if (it == j.end()) throw bad(std::string("the key '") + key + "' is missing");
    return *it;
  };
  auto string_at = [&](const char* key) {
    const auto& v = at(key);
    if (!v.is_string()) throw bad(std::string("'") + key + "' should be text, found " + v.type_name());
    return v.get<std::string>();
  };
  auto whole = [&](const char* key, std::uint64_t max) {
    const auto& v = at(key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
      throw bad(std::string("'") + key + "' should be a whole number from 0 to " + std::to_string(max) + ", found " + v.dump());
    const auto x = v.get<std::uint64_t>();
    if (x > max) throw bad(std::string("'") + key + "' should be a whole number from 0 to " + std::to_string(max) + ", found " + v.dump());
    return x;
  };
  Checkpoint c;
  try {
    c.id.command = string_at("command");
    if (c.id.command != command)
      throw LoadError({path, 0, 0}, "it is a checkpoint of `vedette " + c.id.command + "`, not of `vedette " + command + "`");
    c.id.fingerprint = string_at("fingerprint");
    c.id.seed = whole("seed", std::numeric_limits<std::uint64_t>::max());
    c.id.n = whole("n", k_max_engagements);
    const auto& p = at("precision");
    if (!p.is_null()) {
      if (!p.is_number() || !(p.get<double>() > 0 && p.get<double>() < 0.5))
        throw bad("'precision' should be a number above 0 and below 0.5, or null, found " + p.dump());
      c.id.precision = p.get<double>();
    }
    c.next = whole("next", c.id.n);
    const auto& t = at("tallies");
    if (!t.is_array() || t.size() != sums.tallies.size())
      throw bad("it holds " + std::to_string(t.is_array() ? t.size() : 0) + " tallies, this run needs " + std::to_string(sums.tallies.size()));
    for (std::size_t i = 0; i < sums.tallies.size(); ++i) from_json(t[i], sums.tallies[i]);
    if (sums.paired) {
      if (at("paired").is_null()) throw bad("it has no paired differences");
      from_json(at("paired"), *sums.paired);
    }
  } catch (const nlohmann::json::exception& e) {
    throw bad(e.what());
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const LoadError*>(&e)) throw;
    throw bad(e.what());
  }
  for (const auto& t : sums.tallies)
    if (static_cast<std::uint64_t>(t.n) != c.next) throw bad("its tallies do not hold 'next' engagements (the file was edited or damaged)");
  if (c.next > c.id.n) throw bad("'next' is beyond 'n'");
  return c;
}

}  // namespace vedette::lab
