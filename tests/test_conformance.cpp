// docs/conformance.md and the tests in step: every row's rule id is
// well formed and unique, names a test case that exists and carries the rule
// id as a tag; every rule id a test carries as a tag has a row; every row's
// status is one of the four kinds.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Row {
  std::string id, words, where, test, status;
  int line = 0;
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// The table rows of docs/conformance.md (header and rule lines skipped).
std::vector<Row> rows() {
  std::vector<Row> out;
  std::istringstream in(slurp(fs::path(VEDETTE_SOURCE_DIR) / "docs/conformance.md"));
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.rfind("| ", 0) != 0 || line.rfind("| rule id", 0) == 0 || line.rfind("| ---", 0) == 0) continue;
    // Split on " | " outside backticks (a cell may quote a `|`).
    std::vector<std::string> cells;
    std::string cell;
    bool code = false;
    for (std::size_t i = 1; i < line.size(); ++i) {
      const char c = line[i];
      if (c == '`') code = !code;
      if (c == '|' && !code && line[i - 1] != '\\') {
        cells.push_back(trim(cell));
        cell.clear();
      } else {
        cell += c;
      }
    }
    Row r;
    r.line = n;
    if (cells.size() >= 5) {
      r.id = cells[0];
      r.words = cells[1];
      r.where = cells[2];
      r.test = cells[3];
      r.status = cells[4];
    }
    out.push_back(r);
  }
  return out;
}

// Every TEST_CASE("name", "[tags]") in tests/: name -> tags.
std::map<std::string, std::string> test_cases() {
  std::map<std::string, std::string> out;
  const std::regex re(R"re(TEST_CASE\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*"([^"]*)"\s*\))re");
  for (const auto& e : fs::recursive_directory_iterator(fs::path(VEDETTE_SOURCE_DIR) / "tests")) {
    if (!e.is_regular_file() || e.path().extension() != ".cpp") continue;
    const std::string text = slurp(e.path());
    for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it) out[(*it)[1].str()] = (*it)[2].str();
  }
  return out;
}

const std::regex k_id_re(R"(^(000|001|002|003|004)-L[0-9]+-[a-z0-9]+(-[a-z0-9]+)*$)");
const std::regex k_tag_re(R"(\[((?:000|001|002|003|004)-L[0-9]+-[a-z0-9-]+)\])");

}  // namespace

TEST_CASE("conformance: every row is well formed, unique, and names a test that cites it", "[conformance]") {
  const auto tests = test_cases();
  REQUIRE(tests.size() > 100);
  std::set<std::string> seen;
  for (const Row& r : rows()) {
    INFO("docs/conformance.md:" << r.line << " " << r.id);
    REQUIRE_FALSE(r.id.empty());  // five cells
    CHECK(std::regex_match(r.id, k_id_re));
    CHECK(seen.insert(r.id).second);
    CHECK_FALSE(r.words.empty());
    CHECK_FALSE(r.where.empty());
    const bool ok_status = r.status == "faithful" || r.status.rfind("reading: ", 0) == 0 ||
                           r.status.rfind("switch: ", 0) == 0 || r.status.rfind("excluded: ", 0) == 0;
    CHECK(ok_status);
    if (r.status.rfind("excluded: ", 0) == 0 && (r.test == "-" || r.test == "—")) continue;  // nothing to test
    // The test column: `name` of a TEST_CASE that carries the id as a tag.
    REQUIRE(r.test.size() > 2);
    REQUIRE(r.test.front() == '`');
    REQUIRE(r.test.back() == '`');
    const std::string name = r.test.substr(1, r.test.size() - 2);
    const auto it = tests.find(name);
    INFO("test: " << name);
    REQUIRE(it != tests.end());
    CHECK(it->second.find("[" + r.id + "]") != std::string::npos);
  }
}

TEST_CASE("conformance: every rule id a test cites has a row", "[conformance]") {
  std::set<std::string> ids;
  for (const Row& r : rows()) ids.insert(r.id);
  for (const auto& [name, tags] : test_cases()) {
    for (std::sregex_iterator it(tags.begin(), tags.end(), k_tag_re), end; it != end; ++it) {
      INFO(name << " cites " << (*it)[1].str());
      CHECK(ids.count((*it)[1].str()) == 1);
    }
  }
}

TEST_CASE("conformance: a row naming a missing test, or a test citing no row, is caught", "[conformance]") {
  // The checks above on made-up input: the tag pattern finds ids and the id
  // pattern refuses malformed ones.
  const std::string tags = "[charge][003-L56-switch-target][x]";
  std::sregex_iterator it(tags.begin(), tags.end(), k_tag_re);
  REQUIRE(it != std::sregex_iterator());
  CHECK((*it)[1].str() == "003-L56-switch-target");
  CHECK(std::regex_match(std::string("002-L27-shooting-arc"), k_id_re));
  CHECK_FALSE(std::regex_match(std::string("003-56-switch"), k_id_re));
  CHECK_FALSE(std::regex_match(std::string("007-L1-x"), k_id_re));
  CHECK_FALSE(std::regex_match(std::string("003-L56-Switch"), k_id_re));
}
