// docs/conformance.md and the tests in step: every row's rule id is
// well formed and unique, names a test case that exists and carries the rule
// id as a tag; every rule id a test carries as a tag has a row; every row's
// status is one of the four kinds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace t_conformance {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

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

// ------------------------------------------------ tests that cannot fail
//
// Issue 29: a conformance test is only worth what it can catch. Two patterns
// made tests that passed with their rule broken:
//  * a check that sits only in a branch the test's dice may skip
//    (`if (mine <= 2) { CHECK(...) }` with a seed that never gets there);
//  * a check of a field the code never writes (a member whose only value is
//    its default).
// The reader below walks each cited test case's body statement by statement
// (comments and literals blanked) and finds every CHECK/REQUIRE inside an
// `if`. Such a check is accepted when whichever way the condition falls some
// check runs (the `if` has an `else` and every branch of the chain checks
// something), or when the branch counts its entries (`++n`) and the test
// checks that count outside the branch (`CHECK(n > 10)`). Anything else is
// reported with its file and line.

// `text` with comments, string and character literals blanked to spaces
// (newlines kept, so offsets keep their line numbers).
std::string blank_literals(const std::string& text) {
  std::string s = text;
  std::size_t i = 0;
  const std::size_t n = s.size();
  auto blank = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < n; ++k)
      if (s[k] != '\n') s[k] = ' ';
  };
  while (i < n) {
    if (s.compare(i, 2, "//") == 0) {
      const std::size_t e = s.find('\n', i);
      blank(i, e == std::string::npos ? n : e);
      i = e == std::string::npos ? n : e;
    } else if (s.compare(i, 2, "/*") == 0) {
      const std::size_t e = s.find("*/", i + 2);
      blank(i, e == std::string::npos ? n : e + 2);
      i = e == std::string::npos ? n : e + 2;
    } else if (s[i] == 'R' && i + 1 < n && s[i + 1] == '"' && (i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_'))) {
      const std::size_t open = s.find('(', i + 2);
      if (open == std::string::npos) break;
      const std::string close = ")" + s.substr(i + 2, open - i - 2) + "\"";
      const std::size_t e = s.find(close, open);
      const std::size_t end = e == std::string::npos ? n : e + close.size();
      blank(i + 1, end);
      s[i] = '"';
      i = end;
    } else if (s[i] == '"' || (s[i] == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(s[i - 1]))))) {
      const char q = s[i];
      std::size_t k = i + 1;
      while (k < n && s[k] != q) k += s[k] == '\\' ? 2 : 1;
      blank(i + 1, k);
      i = k + 1;
    } else {
      ++i;
    }
  }
  return s;
}

struct Branch {
  int chain = -1;
  std::set<std::string> counts;  // identifiers it increments (++n, n++, n += ...)
  int checks = 0;                // checks directly or deeper inside it
  std::string condition;         // its `if`'s condition ("" for an else)
};
struct Chain {
  std::vector<int> branches;
  bool has_else = false;
};
struct Check {
  std::size_t at = 0;            // offset in the file
  std::string text;              // the macro's argument, blanked
  std::vector<int> branches;     // enclosing `if`/`else` branches, outermost first
};

// A statement-level reader of one test case's body.
class BodyReader {
 public:
  BodyReader(const std::string& s, std::size_t from, std::size_t to) : s_(s), i_(from), end_(to) {}
  void read() {
    while (skip_ws() && i_ < end_) statement();
  }
  std::vector<Branch> branches;
  std::vector<Chain> chains;
  std::vector<Check> checks;

 private:
  const std::string& s_;
  std::size_t i_, end_;
  std::vector<int> open_;  // the branches we are in

  bool skip_ws() {
    while (i_ < end_ && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
    return i_ < end_;
  }
  static bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
  bool keyword(const char* k) {
    const std::size_t len = std::strlen(k);
    if (s_.compare(i_, len, k) != 0) return false;
    if (i_ > 0 && ident_char(s_[i_ - 1])) return false;
    if (i_ + len < s_.size() && ident_char(s_[i_ + len])) return false;
    return true;
  }
  // From an opening bracket to just after its match.
  std::size_t match(std::size_t at) const {
    const char o = s_[at], c = o == '(' ? ')' : o == '{' ? '}' : ']';
    int depth = 0;
    for (std::size_t k = at; k < end_; ++k) {
      if (s_[k] == o) ++depth;
      if (s_[k] == c && --depth == 0) return k + 1;
    }
    return end_;
  }
  std::string parens() {
    skip_ws();
    if (i_ >= end_ || s_[i_] != '(') return {};
    const std::size_t open = i_;
    i_ = match(i_);
    return s_.substr(open + 1, i_ - open - 2);
  }
  void block() {  // at '{'
    const std::size_t close = match(i_) - 1;
    ++i_;
    while (skip_ws() && i_ < close) statement();
    i_ = close + 1;
  }
  void branch(int chain, std::string condition) {
    const int b = static_cast<int>(branches.size());
    branches.push_back(Branch{chain, {}, 0, std::move(condition)});
    chains[static_cast<std::size_t>(chain)].branches.push_back(b);
    open_.push_back(b);
    statement();
    open_.pop_back();
  }
  void statement() {
    if (!skip_ws()) return;
    if (s_[i_] == '{') return block();
    if (keyword("if")) {
      const int chain = static_cast<int>(chains.size());
      chains.emplace_back();
      for (;;) {
        i_ += 2;
        skip_ws();
        if (keyword("constexpr")) i_ += 9;
        std::string condition = parens();
        branch(chain, std::move(condition));
        skip_ws();
        if (!keyword("else")) return;
        i_ += 4;
        skip_ws();
        if (keyword("if")) continue;
        chains[static_cast<std::size_t>(chain)].has_else = true;
        branch(chain, "");
        return;
      }
    }
    for (const char* k : {"for", "while", "switch", "SECTION", "DYNAMIC_SECTION", "catch"}) {
      if (keyword(k)) {
        i_ += std::strlen(k);
        parens();
        return statement();
      }
    }
    if (keyword("try") || keyword("do") || keyword("else")) {
      i_ += keyword("try") ? 3 : keyword("do") ? 2 : 4;
      return statement();
    }
    // A simple statement: to its ';', reading any braces in it (lambdas,
    // initialisers) as blocks of the same context.
    const std::size_t start = i_;
    int depth = 0;
    while (i_ < end_) {
      const char c = s_[i_];
      if (c == '(' || c == '[') ++depth;
      if (c == ')' || c == ']') --depth;
      if (c == '{') {
        note(start, i_);
        block();
        continue;
      }
      if (c == ';' && depth <= 0) {
        note(start, i_);
        ++i_;
        return;
      }
      ++i_;
    }
    note(start, end_);
  }
  // The checks and increments in s_[from, to) (outside nested braces, which
  // block() reads).
  void note(std::size_t from, std::size_t to) {
    static const std::regex check_re(R"(\b(CHECK|REQUIRE)(_FALSE|_THAT|_NOTHROW|_THROWS|_THROWS_AS|_THROWS_WITH)?\s*\()");
    static const std::regex incr_re(R"((\+\+\s*([A-Za-z_]\w*))|(([A-Za-z_]\w*)\s*(\+\+|\+=|=\s*true\b)))");
    const std::string piece = s_.substr(from, to - from);
    for (std::sregex_iterator it(piece.begin(), piece.end(), check_re), e; it != e; ++it) {
      const std::size_t open = from + static_cast<std::size_t>(it->position(0) + it->length(0)) - 1;
      const std::size_t close = match(open);
      Check c;
      c.at = from + static_cast<std::size_t>(it->position(0));
      c.text = s_.substr(open + 1, close > open + 1 ? close - open - 2 : 0);
      c.branches = open_;
      for (int b : open_) ++branches[static_cast<std::size_t>(b)].checks;
      checks.push_back(std::move(c));
    }
    if (open_.empty()) return;
    // A count in a nested branch also shows the enclosing ones were entered.
    for (std::sregex_iterator it(piece.begin(), piece.end(), incr_re), e; it != e; ++it)
      for (int br : open_) branches[static_cast<std::size_t>(br)].counts.insert((*it)[2].matched ? (*it)[2].str() : (*it)[4].str());
  }
};

// Code compared without its spaces.
std::string squeeze(const std::string& code) {
  std::string out;
  for (char ch : code)
    if (!std::isspace(static_cast<unsigned char>(ch))) out += ch;
  return out;
}
bool same_code(const std::string& a, const std::string& b) { return squeeze(a) == squeeze(b); }
// The negation of a check's condition as the code would write it: `a == b`
// <-> `a != b`, `x` <-> `!x`.
std::string negated(const std::string& check) {
  const std::string c = squeeze(check);
  if (c.size() > 1 && c[0] == '!' && c.find_first_of("=<>&|") == std::string::npos) return c.substr(1);
  const std::size_t eq = c.find("=="), ne = c.find("!=");
  if (eq != std::string::npos && c.find("==", eq + 2) == std::string::npos && ne == std::string::npos) return c.substr(0, eq) + "!=" + c.substr(eq + 2);
  if (ne != std::string::npos && c.find("!=", ne + 2) == std::string::npos && eq == std::string::npos) return c.substr(0, ne) + "==" + c.substr(ne + 2);
  return "!" + c;
}

struct Finding {
  std::string where;  // tests/x.cpp:123
  std::string what;
};

int line_of(const std::string& text, std::size_t at) { return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n')); }

// The findings of the branch rule for the test case whose body is
// text[from, to) of `file`.
std::vector<Finding> branch_findings(const std::string& file, const std::string& text, std::size_t from, std::size_t to) {
  BodyReader r(text, from, to);
  r.read();
  std::vector<Finding> out;
  const std::regex word(R"([A-Za-z_]\w*)");
  for (const Check& c : r.checks) {
    for (int b : c.branches) {
      const Branch& br = r.branches[static_cast<std::size_t>(b)];
      const Chain& ch = r.chains[static_cast<std::size_t>(br.chain)];
      bool all_check = ch.has_else;
      for (int o : ch.branches) all_check = all_check && r.branches[static_cast<std::size_t>(o)].checks > 0;
      if (all_check) continue;
      // `if (a != b) CHECK(a == b);`: the branch is the check's failure, so
      // the check is as good as unconditional.
      if (!br.condition.empty() && same_code(br.condition, negated(c.text))) continue;
      // Counted: some check outside this branch names a count it keeps.
      bool counted = false;
      for (const Check& d : r.checks) {
        if (std::find(d.branches.begin(), d.branches.end(), b) != d.branches.end()) continue;
        for (std::sregex_iterator it(d.text.begin(), d.text.end(), word), e; it != e && !counted; ++it)
          counted = br.counts.count(it->str()) > 0;
        if (counted) break;
      }
      if (counted) continue;
      out.push_back({file + ":" + std::to_string(line_of(text, c.at)),
                     "a check inside an `if` that may be skipped (no `else` branch that checks too, and no count of the branch checked "
                     "outside it)"});
      break;
    }
  }
  if (r.checks.empty()) out.push_back({file + ":" + std::to_string(line_of(text, from)), "no CHECK or REQUIRE at all"});
  return out;
}

// The fields of the engine (engine/, bots/, sims/): member names declared
// there, and those written there other than by their declaration.
struct FieldWrites {
  std::set<std::string> declared, written;
};

FieldWrites field_writes() {
  FieldWrites f;
  // Declared with a default: `Type name = ...;` or `Type name{...};` in a
  // header (a member without one gets its value from whoever builds the
  // struct, which may be positional: `{text, met, detail}`).
  const std::regex decl(R"((?:^|\n)[ \t]+(?:const\s+)?[A-Za-z_][\w:<>,\s\*&]*?[\w>\*&]\s+([a-z_]\w*)\s*(?:=[^=][^;\n]*|\{[^;\n]*\});)");
  // Written: `.name = `, `->name = `, `name = ` first on its line, `++x.name`,
  // `x.name++`, `.name += `, `.name.push_back(`, `{.name = ...}`, and the
  // last argument of a call (the loaders' `integer(m, "key", p, 0, 9, r.name)`).
  const std::regex write(
      R"((?:(?:\.|->)\s*([a-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?:[-+*/|&]?=(?!=)|\+\+|--|\.(?:push_back|emplace_back|insert|emplace|assign|resize|append|clear|push|erase|swap)\s*\())|(?:\n[ \t]*([a-z_]\w*)\s*(?:\[[^\]]*\]\s*)*[-+*/|&]?=(?!=))|(?:(?:\+\+|--)\s*[\w\.\->\[\]]*(?:\.|->)([a-z_]\w*)(?![\w\.\[]))|(?:,\s*[\w\.\->\[\]]*(?:\.|->)([a-z_]\w*)\s*\)))");
  for (const char* dir : {"engine", "bots", "sims"}) {
    for (const auto& e : fs::recursive_directory_iterator(fs::path(VEDETTE_SOURCE_DIR) / dir)) {
      if (!e.is_regular_file()) continue;
      const auto ext = e.path().extension();
      if (ext != ".cpp" && ext != ".hpp" && ext != ".h") continue;
      const std::string text = blank_literals(slurp(e.path()));
      if (ext != ".cpp")
        for (std::sregex_iterator it(text.begin(), text.end(), decl), end; it != end; ++it) f.declared.insert((*it)[1].str());
      for (std::sregex_iterator it(text.begin(), text.end(), write), end; it != end; ++it)
        for (int g : {1, 2, 3, 4})
          if ((*it)[g].matched) f.written.insert((*it)[g].str());
    }
  }
  return f;
}

// The findings of the field rule: `x.name` read in a check (the last
// member of a chain), where `name` is a member the engine declares and never
// writes.
std::vector<Finding> field_findings(const std::string& file, const std::string& text, std::size_t from, std::size_t to, const FieldWrites& f) {
  BodyReader r(text, from, to);
  r.read();
  std::vector<Finding> out;
  // The last member of each chain (`x.a.b[2].c` reads `c`; the members
  // before it are paths to it).
  const std::regex member(R"((?:\.|->)\s*([a-z_]\w*)\b(?!\s*[(<\[.]|\s*->))");
  for (const Check& c : r.checks) {
    for (std::sregex_iterator it(c.text.begin(), c.text.end(), member), e; it != e; ++it) {
      const std::string m = (*it)[1].str();
      if (f.declared.count(m) && !f.written.count(m))
        out.push_back({file + ":" + std::to_string(line_of(text, c.at)), "checks `" + m + "`, a field nothing in engine/, bots/ or sims/ writes"});
    }
  }
  return out;
}

// Every TEST_CASE in tests/: name -> (file, blanked text, body range).
struct TestBody {
  std::string file;
  std::shared_ptr<const std::string> text;
  std::size_t from = 0, to = 0;
};
std::map<std::string, TestBody> test_bodies() {
  std::map<std::string, TestBody> out;
  const std::regex re(R"re(TEST_CASE\(\s*"((?:[^"\\]|\\.)*)")re");
  for (const auto& e : fs::recursive_directory_iterator(fs::path(VEDETTE_SOURCE_DIR) / "tests")) {
    if (!e.is_regular_file() || e.path().extension() != ".cpp") continue;
    const std::string raw = slurp(e.path());
    auto text = std::make_shared<const std::string>(blank_literals(raw));
    const std::string rel = fs::relative(e.path(), fs::path(VEDETTE_SOURCE_DIR)).generic_string();
    for (std::sregex_iterator it(raw.begin(), raw.end(), re), end; it != end; ++it) {
      const auto at = static_cast<std::size_t>(it->position(0));
      // The body: the first '{' after the macro's closing parenthesis.
      int depth = 0;
      std::size_t k = raw.find('(', at);
      for (; k < text->size(); ++k) {
        if ((*text)[k] == '(') ++depth;
        if ((*text)[k] == ')' && --depth == 0) break;
      }
      const std::size_t open = text->find('{', k);
      if (open == std::string::npos) continue;
      depth = 0;
      std::size_t close = open;
      for (; close < text->size(); ++close) {
        if ((*text)[close] == '{') ++depth;
        if ((*text)[close] == '}' && --depth == 0) break;
      }
      out[(*it)[1].str()] = TestBody{rel, text, open + 1, close};
    }
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

// Issue 29: the tests the rows cite can fail. Every check a cited test makes
// inside an `if` runs whichever way the branch goes or is counted (see the
// reader above), and no check reads a field the engine never writes.
TEST_CASE("conformance: the cited tests check unconditionally, and never a field nothing writes", "[conformance][heavy]") {
  const auto bodies = test_bodies();
  const FieldWrites writes = field_writes();
  REQUIRE(writes.declared.size() > 100);
  REQUIRE(writes.written.size() > 100);
  std::set<std::string> cited;
  for (const Row& r : rows())
    if (r.test.size() > 2 && r.test.front() == '`') cited.insert(r.test.substr(1, r.test.size() - 2));
  REQUIRE(cited.size() > 50);
  for (const std::string& name : cited) {
    const auto it = bodies.find(name);
    if (it == bodies.end()) continue;  // the test above reports it
    const TestBody& b = it->second;
    for (const Finding& f : branch_findings(b.file, *b.text, b.from, b.to)) {
      INFO(f.where << ": \"" << name << "\": " << f.what);
      CHECK(false);
    }
    for (const Finding& f : field_findings(b.file, *b.text, b.from, b.to, writes)) {
      INFO(f.where << ": \"" << name << "\": " << f.what);
      CHECK(false);
    }
  }
}

TEST_CASE("conformance: the guard finds a check the dice may skip and a field nothing writes", "[conformance]") {
  // The two patterns of issue 29, on made-up test bodies.
  auto findings = [](const std::string& body) {
    const std::string text = blank_literals(body);
    return branch_findings("t.cpp", text, 0, text.size());
  };
  // A lone branch the dice may skip: found.
  CHECK(findings("int mine = roll(); CHECK(a); if (mine <= 2) { CHECK(b == 1); }").size() == 1);
  CHECK(findings("if (mine <= 2) CHECK(b == 1);").size() == 1);
  // One branch of a chain with no check: found ("else" alone is not enough).
  CHECK(findings("if (x) { CHECK(a); } else { y = 1; }").size() == 1);
  CHECK(findings("if (x) { CHECK(a); } else if (z) { CHECK(b); }").size() == 2);
  // Every branch checks: accepted.
  CHECK(findings("if (x) { CHECK(a); } else if (z) { CHECK(b); } else { REQUIRE_FALSE(c); }").empty());
  // A counted branch: accepted when the count is checked outside it.
  CHECK(findings("int n = 0; for (auto e : es) { if (e.k == 1) { ++n; CHECK(e.v); } } CHECK(n > 10);").empty());
  CHECK(findings("int n = 0; for (auto e : es) { if (e.k == 1) { n += 1; CHECK(e.v); } } CHECK(n > 10);").empty());
  CHECK(findings("int n = 0; for (auto e : es) { if (e.k == 1) { ++n; CHECK(e.v); } }").size() == 1);
  // Unconditional checks, loops, lambdas and literals that look like code.
  CHECK(findings("for (int k : {1, 2}) { CHECK(k > 0); } auto f = [](int x) { return x; }; CHECK(f(1) == 1);").empty());
  CHECK(findings("CHECK(s == \"if (x) { CHECK(y); }\"); // if (z) CHECK(w);\n").empty());
  CHECK(findings("x = 1;").size() == 1);  // no check at all
  // A branch that is the check's failure, and a flag set in the branch.
  CHECK(findings("if (rf.total != want) CHECK(rf.total == want);").empty());
  CHECK(findings("if (v == 0) CHECK(v != 0);").empty());
  CHECK(findings("if (v == 0) CHECK(v == 0);").size() == 1);
  CHECK(findings("bool seen = false; for (auto e : es) if (e.k) { seen = true; CHECK(e.v); } CHECK(seen);").empty());
  // The field rule: a member declared in the engine and never written.
  FieldWrites f;
  f.declared = {"cavalry_battles_back", "hits"};
  f.written = {"hits"};
  const std::string body = blank_literals("CHECK(res.hits == 2); CHECK_FALSE(res.cavalry_battles_back); CHECK(v.size() == 1);");
  const auto ff = field_findings("t.cpp", body, 0, body.size(), f);
  REQUIRE(ff.size() == 1);
  CHECK(ff[0].what.find("cavalry_battles_back") != std::string::npos);
}

}  // namespace t_conformance
