#include "sims/checkpoint.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>
#include <sys/stat.h>

#include "engine/diagnostics.hpp"
#include "sims/atomic_file.hpp"

namespace vedette::lab {

namespace {
constexpr int k_format = 1;
constexpr std::size_t k_max_checkpoint_bytes = 64u << 20;
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
  if (!in) throw LoadError({path, 0, 0}, "cannot read the checkpoint");
  std::string text(k_max_checkpoint_bytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > k_max_checkpoint_bytes) throw LoadError({path, 0, 0}, "too large to be a checkpoint");

  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann reports a 1-based byte offset; say line:column.
    int line = 1, col = 1;
    for (std::size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    std::string what = e.what();
    auto cut = what.find("parse error");
    throw LoadError({path, line, col}, "not a valid checkpoint (JSON): " + (cut == std::string::npos ? what : what.substr(cut)));
  }
  auto bad = [&](const std::string& why) -> LoadError { return LoadError({path, 0, 0}, "not a usable checkpoint: " + why); };
  if (!j.is_object() || !j.contains("vedette_checkpoint")) throw bad("it has no 'vedette_checkpoint' key (is it a vedette checkpoint?)");
  if (j["vedette_checkpoint"] != k_format) throw bad("format " + j["vedette_checkpoint"].dump() + ", expected " + std::to_string(k_format));
  Checkpoint c;
  try {
    c.id.command = j.at("command").get<std::string>();
    if (c.id.command != command)
      throw LoadError({path, 0, 0}, "it is a checkpoint of `vedette " + c.id.command + "`, not of `vedette " + command + "`");
    c.id.fingerprint = j.at("fingerprint").get<std::string>();
    c.id.seed = j.at("seed").get<std::uint64_t>();
    c.id.n = j.at("n").get<std::uint64_t>();
    if (!j.at("precision").is_null()) c.id.precision = j.at("precision").get<double>();
    c.next = j.at("next").get<std::uint64_t>();
    const auto& t = j.at("tallies");
    if (!t.is_array() || t.size() != sums.tallies.size())
      throw bad("it holds " + std::to_string(t.is_array() ? t.size() : 0) + " tallies, this run needs " + std::to_string(sums.tallies.size()));
    for (std::size_t i = 0; i < sums.tallies.size(); ++i) from_json(t[i], sums.tallies[i]);
    if (sums.paired) {
      if (j.at("paired").is_null()) throw bad("it has no paired differences");
      from_json(j.at("paired"), *sums.paired);
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
