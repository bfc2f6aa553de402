// `vedette sim`, `compare` and `sweep` run as a user runs them: identical
// summaries on any thread count, Ctrl-C and SIGTERM, checkpoints and resume,
// and bad input refused with status 2 and nothing written.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "helpers.hpp"

namespace t_harness_cli {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

namespace fs = std::filesystem;
using vtest::run_vedette;

namespace {

std::string lab(const std::string& name) { return vtest::data("lab/" + name); }
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A `vedette` started in the background, to be signalled.
struct Background {
  pid_t pid = -1;
  int out_fd = -1;
  std::string err_file;

  explicit Background(const std::vector<std::string>& args, const std::string& err_path) : err_file(err_path) {
    int p[2];
    REQUIRE(::pipe(p) == 0);
    int e = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(e >= 0);
    ::fcntl(p[0], F_SETFD, FD_CLOEXEC);  // the child keeps only its end
    pid = vtest::start_vedette(args, "", -1, p[1], e);
    ::close(p[1]);
    ::close(e);
    out_fd = p[0];
  }
  // Reads stdout to the end and waits: {status or -signal, stdout}.
  std::pair<int, std::string> finish() {
    std::string out = vtest::read_all(out_fd);
    ::close(out_fd);
    return {vtest::wait_vedette(pid), out};
  }
};

// Runs long enough to be interrupted mid-way (the first checkpoint comes
// after one chunk of 256), short enough to run whole a few times; sanitized
// builds are some 30 times slower.
#ifdef VEDETTE_SANITIZED
constexpr std::uint64_t k_long_run = 200000;
#else
constexpr std::uint64_t k_long_run = 2000000;
#endif

bool wait_for_file(const std::string& path, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (fs::exists(path)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

}  // namespace

TEST_CASE("sim: summary.json and report.html are byte-identical for 1, 2 and 8 threads") {
  vtest::TempDir dir;
  std::string first_json, first_html;
  for (const char* threads : {"1", "2", "8"}) {
    const std::string out = dir.path() + "/t" + threads;
    auto r = run_vedette({"sim", lab("duel.yaml"), "-n", "30000", "--seed", "2024", "--threads", threads, "--out", out});
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());  // quiet when stderr is not a terminal
    const std::string json = slurp(out + "/summary.json"), html = slurp(out + "/report.html");
    REQUIRE(json.size() > 1000);
    if (first_json.empty()) {
      first_json = json;
      first_html = html;
    } else {
      CHECK(json == first_json);
      CHECK(html == first_html);
    }
  }
  auto j = nlohmann::json::parse(first_json);
  CHECK(j["engagements"] == 30000);
  CHECK(j["partial"] == false);
  CHECK(j["seed"] == 2024);
}

TEST_CASE("sim: a report that cannot be written leaves the old summary and report both as they were (exit 1)") {
  // README: 1 means a file could not be written, the old one kept. The
  // report and its summary are one set (sims/io/atomic_file.hpp,
  // write_files_atomically): neither is replaced when one cannot be.
  vtest::TempDir dir;
  const std::string out = dir.path() + "/rep";
  REQUIRE(run_vedette({"sim", lab("dice.yaml"), "-n", "300", "--seed", "1", "--out", out}).status == 0);
  const std::string summary = slurp(out + "/summary.json");
  fs::rename(out + "/report.html", out + "/report.keep");
  fs::create_directories(out + "/report.html/x");  // a folder where the report should go
  auto r = run_vedette({"sim", lab("dice.yaml"), "-n", "300", "--seed", "2", "--out", out});
  CHECK(r.status == 1);
  CHECK(r.err.find("cannot write " + out + "/report.html: it is a folder") != std::string::npos);
  CHECK(slurp(out + "/summary.json") == summary);
  for (const auto& e : fs::directory_iterator(out)) CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
}

TEST_CASE("sim: the Markdown summary on stdout gives each probability with its interval and n") {
  auto r = run_vedette({"sim", lab("duel.yaml"), "-n", "2000", "--seed", "5", "--threads", "2"});
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("# vedette sim: duel"));
  CHECK_THAT(r.out, Catch::Contains("seed 5 · 2,000 engagements"));
  CHECK_THAT(r.out, Catch::Contains("| Cavalry wins | "));
  CHECK_THAT(r.out, Catch::Contains(" of 2,000 |"));
  CHECK_THAT(r.out, Catch::Contains("## Cavalry charges"));
  CHECK_THAT(r.out, Catch::Contains("## Actions Table decisions by RF band"));
  CHECK_THAT(r.out, !Catch::Contains("Report:"));  // no --out, no report
  // --json prints the summary instead, the same as summary.json would hold.
  auto j = run_vedette({"sim", lab("duel.yaml"), "-n", "2000", "--seed", "5", "--threads", "1", "--json"});
  REQUIRE(j.status == 0);
  auto parsed = nlohmann::json::parse(j.out);
  CHECK(parsed["vedette"] == "sim");
  CHECK(parsed["outcomes"].size() == 3);
  CHECK(parsed["outcomes"][0].contains("lo"));
  CHECK(parsed["outcomes"][0]["n"] == 2000);
}

TEST_CASE("sim: an unseeded run prints the seed that repeats it") {
  auto a = run_vedette({"sim", lab("dice.yaml"), "-n", "300", "--json"});
  REQUIRE(a.status == 0);
  auto ja = nlohmann::json::parse(a.out);
  const std::string seed = std::to_string(ja["seed"].get<std::uint64_t>());
  auto b = run_vedette({"sim", lab("dice.yaml"), "-n", "300", "--json", "--seed", seed});
  CHECK(b.out == a.out);
}

TEST_CASE("sim: SIGINT stops at an engagement boundary and writes what it has, marked partial") {
  for (int sig : {SIGINT, SIGTERM}) {
    vtest::TempDir dir;
    const std::string out = dir.path() + "/out", ck = dir.path() + "/ck.json";
    Background b({"sim", lab("duel.yaml"), "-n", "2000000000", "--seed", "1", "--threads", "2", "--out", out, "--checkpoint", ck,
                  "--checkpoint-every", "0"},
                 dir.path() + "/err.txt");
    // The first checkpoint shows the run (and its signal handlers) started.
    REQUIRE(wait_for_file(ck, 30));
    ::kill(b.pid, sig);
    auto [status, stdout_text] = b.finish();
    const std::string err = slurp(dir.path() + "/err.txt");
    INFO("signal " << sig << ", stderr: " << err);
    CHECK(status == 128 + sig);
    const std::string name = sig == SIGINT ? "SIGINT" : "SIGTERM";
    CHECK_THAT(stdout_text, Catch::Contains("**PARTIAL**: stopped by " + name + " after "));
    CHECK_THAT(stdout_text, Catch::Contains(" of 2,000,000,000 engagements"));
    CHECK_THAT(err, Catch::Contains("stopped by " + name));
    auto j = nlohmann::json::parse(slurp(out + "/summary.json"));
    CHECK(j["partial"] == true);
    CHECK(j["stopped_by"] == name);
    const auto n = j["engagements"].get<std::uint64_t>();
    CHECK(n > 0);
    CHECK(n < 2000000000);
    CHECK(j["outcomes"][0]["n"] == n);  // every figure rests on those n
    CHECK_THAT(slurp(out + "/report.html"), Catch::Contains("<b>Partial</b>: stopped by " + name));
    // The checkpoint holds the same engagements.
    auto c = nlohmann::json::parse(slurp(ck));
    CHECK(c["next"] == n);
  }
}

TEST_CASE("sim: checkpoint, interrupt, resume: the same bytes as an uninterrupted run") {
  vtest::TempDir dir;
  const std::vector<std::string> run_args{"sim", lab("duel.yaml"), "-n", std::to_string(k_long_run), "--seed", "31", "--threads", "2"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = run_args;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  auto whole = run_vedette(with({"--out", dir.path() + "/whole"}));
  REQUIRE(whole.status == 0);

  const std::string ck = dir.path() + "/ck.json";
  SECTION("stopped by SIGINT") {
    Background b(with({"--out", dir.path() + "/part", "--checkpoint", ck, "--checkpoint-every", "0"}), dir.path() + "/err1");
    REQUIRE(wait_for_file(ck, 30));
    ::kill(b.pid, SIGINT);
    auto [status, text] = b.finish();
    CHECK(status == 130);
  }
  SECTION("killed outright (SIGKILL): the last periodic checkpoint is whole") {
    Background b(with({"--checkpoint", ck, "--checkpoint-every", "0"}), dir.path() + "/err2");
    REQUIRE(wait_for_file(ck, 30));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ::kill(b.pid, SIGKILL);
    auto [status, text] = b.finish();
    CHECK(status == -SIGKILL);
  }
  auto c = nlohmann::json::parse(slurp(ck));
  INFO("checkpoint at " << c["next"]);
  CHECK(c["next"].get<std::uint64_t>() < k_long_run);
  // Resume: -n and --seed come from the checkpoint when left out.
  auto resumed = run_vedette({"sim", lab("duel.yaml"), "--threads", "8", "--resume", ck, "--out", dir.path() + "/resumed"});
  REQUIRE(resumed.status == 0);
  CHECK(slurp(dir.path() + "/resumed/summary.json") == slurp(dir.path() + "/whole/summary.json"));
  CHECK(slurp(dir.path() + "/resumed/report.html") == slurp(dir.path() + "/whole/report.html"));
  // The checkpoint now holds the finished run.
  CHECK(nlohmann::json::parse(slurp(ck))["next"] == k_long_run);
}

TEST_CASE("sim: a resume that does not match the checkpoint is refused") {
  vtest::TempDir dir;
  const std::string ck = dir.path() + "/ck.json";
  REQUIRE(run_vedette({"sim", lab("duel.yaml"), "-n", "1000", "--seed", "4", "--checkpoint", ck}).status == 0);
  auto other_seed = run_vedette({"sim", lab("duel.yaml"), "--seed", "5", "--resume", ck});
  CHECK(other_seed.status == 2);
  CHECK_THAT(other_seed.err, Catch::Contains("it was made with --seed 4, not 5"));
  auto other_n = run_vedette({"sim", lab("duel.yaml"), "-n", "2000", "--resume", ck});
  CHECK(other_n.status == 2);
  CHECK_THAT(other_n.err, Catch::Contains("-n 1000, not 2000"));
  auto other_scenario = run_vedette({"sim", lab("dice.yaml"), "--resume", ck});
  CHECK(other_scenario.status == 2);
  CHECK_THAT(other_scenario.err, Catch::Contains(ck + ":"));
  auto other_rules = run_vedette({"sim", lab("duel.yaml"), "--ruleset", std::string(VEDETTE_SOURCE_DIR) + "/tables/house-rules/infantry-square.yaml",
                                  "--resume", ck});
  CHECK(other_rules.status == 2);
  CHECK_THAT(other_rules.err, Catch::Contains("another scenario or ruleset"));
  const std::string garbled = dir.path() + "/garbled.json";
  std::ofstream(garbled) << "{\n  \"vedette_checkpoint\": 1,\n  \"next\": ]\n}\n";
  auto bad = run_vedette({"sim", lab("duel.yaml"), "--resume", garbled});
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Catch::StartsWith(garbled + ":3:11: not a valid checkpoint (JSON): parse error"));
  const std::string other = dir.path() + "/other.json";
  std::ofstream(other) << "{\"hello\": 1}\n";
  auto notck = run_vedette({"sim", lab("duel.yaml"), "--resume", other});
  CHECK(notck.status == 2);
  CHECK_THAT(notck.err, Catch::Contains("no 'vedette_checkpoint' key"));
  auto missing = run_vedette({"sim", lab("duel.yaml"), "--resume", dir.path() + "/nope.json"});
  CHECK(missing.status == 2);
  CHECK_THAT(missing.err, Catch::Contains("nope.json: cannot open the checkpoint"));
}

TEST_CASE("sim: --precision plays until the outcome intervals are narrow enough") {
  auto r = run_vedette({"sim", lab("dice.yaml"), "--precision", "1", "--seed", "5", "--threads", "2", "--json"});
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["precision"]["met"] == true);
  CHECK(j["precision"]["target_half_width"] == 0.01);
  CHECK(j["stopped_by"] == "precision");
  CHECK(j["partial"] == false);
  const auto n = j["engagements"].get<std::uint64_t>();
  CHECK(n > 9000);
  CHECK(n < 10500);
  for (const auto& o : j["outcomes"]) CHECK((o["hi"].get<double>() - o["lo"].get<double>()) / 2 <= 0.01);
  // -n caps it.
  auto capped = run_vedette({"sim", lab("dice.yaml"), "--precision", "0.1", "-n", "3000", "--seed", "5", "--json"});
  REQUIRE(capped.status == 0);
  auto jc = nlohmann::json::parse(capped.out);
  CHECK(jc["engagements"] == 3000);
  CHECK(jc["precision"]["met"] == false);
}

TEST_CASE("sim: engagements.csv has one documented row per engagement, in order") {
  vtest::TempDir dir;
  const std::string out = dir.path() + "/o";
  auto r = run_vedette({"sim", lab("duel.yaml"), "-n", "1000", "--seed", "8", "--threads", "8", "--out", out, "--csv"});
  REQUIRE(r.status == 0);
  std::ifstream in(out + "/engagements.csv");
  std::string header, line;
  std::getline(in, header);
  CHECK(header.rfind("engagement,winner,turns,cavalry_figures_lost,", 0) == 0);
  CHECK_THAT(header, Catch::EndsWith(",decisions_rf0,decisions_rf1,decisions_rf2_5,decisions_rf6_8,decisions_rf9_plus"));
  std::uint64_t expect = 0, cavalry = 0;
  while (std::getline(in, line)) {
    CHECK(line.rfind(std::to_string(expect) + ",", 0) == 0);
    if (line.find(",cavalry,") != std::string::npos) ++cavalry;
    ++expect;
  }
  CHECK(expect == 1000);
  auto j = nlohmann::json::parse(slurp(out + "/summary.json"));
  CHECK(j["outcomes"][0]["count"] == cavalry);  // the rows agree with the summary
  // The same run on one thread writes the same rows.
  const std::string out1 = dir.path() + "/one";
  REQUIRE(run_vedette({"sim", lab("duel.yaml"), "-n", "1000", "--seed", "8", "--threads", "1", "--out", out1, "--csv"}).status == 0);
  CHECK(slurp(out1 + "/engagements.csv") == slurp(out + "/engagements.csv"));
  // No leftover temporary files.
  for (const auto& e : fs::directory_iterator(out)) CHECK(e.path().filename().string()[0] != '.');
}

TEST_CASE("sim, compare, sweep: bad input exits 2 with a clear message and writes nothing") {
  vtest::TempDir dir;
  const std::string out = dir.path() + "/never";
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::string sq = std::string(VEDETTE_SOURCE_DIR) + "/tables/house-rules/infantry-square.yaml";
  std::vector<Case> cases{
      {{"sim", lab("duel.yaml"), "-n", "0", "--out", out}, "-n 0: expected at least 1 engagement"},
      {{"sim", lab("duel.yaml"), "--threads", "0", "--out", out}, "--threads 0: expected 1 to 1024"},
      {{"sim", lab("duel.yaml"), "-n", "-5", "--out", out}, "-n"},
      {{"sim", dir.path() + "/no-such-scenario.yaml", "--out", out}, "no-such-scenario.yaml: cannot open"},
      {{"sim", lab("duel.yaml"), "--ruleset", dir.path() + "/nope.yaml", "--out", out}, "nope.yaml: cannot open"},
      {{"sim", lab("duel.yaml"), "--precision", "0", "--out", out}, "--precision: expected a half width"},
      {{"sim", lab("duel.yaml"), "--csv"}, "--csv writes engagements.csv into the --out folder"},
      {{"sim", lab("duel.yaml"), "--checkpoint", dir.path() + "/no/such/ck.json", "--out", out}, "does not exist"},
      {{"compare", lab("duel.yaml"), "--variant", dir.path() + "/nope.yaml", "--out", out}, "nope.yaml: cannot open"},
      {{"compare", lab("duel.yaml"), "--variant", sq, "-n", "0", "--out", out}, "-n 0"},
      {{"sweep", lab("duel.yaml"), "--set", "charge.nope=1,2", "--out", out}, "no such setting in the ruleset: 'charge.nope'"},
      {{"sweep", lab("duel.yaml"), "--set", "modifiers.hero.value", "--out", out}, "expected PATH=V1,V2"},
      {{"sweep", lab("duel.yaml"), "--set", "modifiers.hero.value=1,,2", "--out", out}, "an empty value"},
      {{"sweep", lab("duel.yaml"), "--set", "modifiers.hero.value=-1,lots", "--out", out}, "lots"},
      {{"sweep", lab("duel.yaml"), "--set", "modifiers.hero.value=1", "--threads", "0", "--out", out}, "--threads 0"},
  };
  for (const auto& c : cases) {
    auto r = run_vedette(c.args);
    std::string line;
    for (const auto& a : c.args) line += a + " ";
    INFO("vedette " << line << "\nstderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains(c.message));
    CHECK_FALSE(fs::exists(out));
  }
  // --out naming a file is refused too.
  const std::string file = dir.path() + "/a-file";
  std::ofstream(file) << "x";
  auto r = run_vedette({"sim", lab("duel.yaml"), "--out", file});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("is a file, not a folder"));
}

TEST_CASE("sim: a scenario with mistakes is reported with file, line and column") {
  vtest::TempDir dir;
  const std::string f = dir.write("bad.yaml", "synthetic: duel\nturns: many\ncavalry: {figures: 12, wieght: heavy}\n");
  auto r = run_vedette({"sim", f});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains(f + ":2:8:"));
  CHECK_THAT(r.err, Catch::Contains(f + ":3:24: unknown key 'wieght' in cavalry, did you mean 'weight'?"));
}

TEST_CASE("compare: the same dice for both, each figure for both, paired differences, real ones marked") {
  vtest::TempDir dir;
  const std::string sq = std::string(VEDETTE_SOURCE_DIR) + "/tables/house-rules/infantry-square.yaml";
  auto r = run_vedette({"compare", lab("duel.yaml"), "--baseline", "builtin:default", "--variant", sq, "-n", "20000", "--seed", "3",
                        "--threads", "2", "--out", dir.path() + "/o"});
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("Baseline **seed-002-cavalry (builtin:default)** against variant **infantry-square ("));
  CHECK_THAT(r.out, Catch::Contains("| P(Cavalry wins) | "));
  CHECK_THAT(r.out, Catch::Contains("| Infantry: squares formed | 0.00 ± 0.000 | "));
  CHECK_THAT(r.out, Catch::Contains("**yes**"));
  auto j = nlohmann::json::parse(slurp(dir.path() + "/o/summary.json"));
  CHECK(j["vedette"] == "compare");
  bool found = false;
  for (const auto& f : j["figures"]) {
    if (f["id"] != "infantry_squares_formed") continue;
    found = true;
    CHECK(f["baseline"]["mean"] == 0.0);
    CHECK(f["variant"]["mean"].get<double>() > 0.5);
    CHECK(f["difference"]["real"] == true);
    CHECK(f["difference"]["lo"].get<double>() > 0);
  }
  CHECK(found);
  // Identical on any thread count.
  auto r1 = run_vedette({"compare", lab("duel.yaml"), "--variant", sq, "-n", "20000", "--seed", "3", "--threads", "1", "--json"});
  auto r8 = run_vedette({"compare", lab("duel.yaml"), "--variant", sq, "-n", "20000", "--seed", "3", "--threads", "8", "--json"});
  REQUIRE(r1.status == 0);
  CHECK(r1.out == r8.out);
  // A ruleset against itself: nothing real.
  auto same = run_vedette({"compare", lab("duel.yaml"), "--variant", "builtin:default", "-n", "5000", "--seed", "3", "--json"});
  REQUIRE(same.status == 0);
  const auto same_json = nlohmann::json::parse(same.out);
  for (const auto& f : same_json["figures"]) {
    CHECK(f["difference"]["real"] == false);
    CHECK(f["difference"]["engagements_that_differ"] == 0);
  }
}

TEST_CASE("sweep: one row and one point per value, on the same dice, with intervals") {
  vtest::TempDir dir;
  // seed 003: what heavy foot needs on 2D6 to stand against heavy cavalry.
  auto r = run_vedette({"sweep", lab("duel.yaml"), "--set", "charge.morale.table.heavy_foot.need.3=7,9,11", "-n", "20000", "--seed", "6",
                        "--threads", "2", "--out", dir.path() + "/o"});
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("`charge.morale.table.heavy_foot.need.3` over 3 values"));
  CHECK_THAT(r.out, Catch::Contains("\n| 7 | 20,000 | "));
  CHECK_THAT(r.out, Catch::Contains("\n| 11 | 20,000 | "));
  auto j = nlohmann::json::parse(slurp(dir.path() + "/o/summary.json"));
  REQUIRE(j["points"].size() == 3);
  // The morale pass rate follows the exact 2D6 odds: 21/36, 10/36, 3/36.
  const double exact[] = {21.0 / 36, 10.0 / 36, 3.0 / 36};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& rate = j["points"][i]["rates"][1];
    REQUIRE(rate["id"] == "morale_pass");
    const double p = rate["p"], n = rate["n"];
    INFO("value " << j["points"][i]["value"] << ": " << p << " of " << n);
    CHECK(std::fabs(p - exact[i]) <= 4 * std::sqrt(exact[i] * (1 - exact[i]) / n));
    CHECK(j["points"][i]["outcomes"][0].contains("lo"));
  }
  // The harder the morale check, the more often the cavalry wins.
  CHECK(j["points"][0]["outcomes"][0]["p"].get<double>() < j["points"][2]["outcomes"][0]["p"].get<double>());
  CHECK_THAT(slurp(dir.path() + "/o/report.html"), Catch::Contains("<svg class=\"chart\" id=\"chart-sweep\""));
}

TEST_CASE("compare: interrupted and resumed, the same bytes as an uninterrupted comparison") {
  vtest::TempDir dir;
  const std::string sq = std::string(VEDETTE_SOURCE_DIR) + "/tables/house-rules/infantry-square.yaml";
  const std::vector<std::string> args{"compare", lab("duel.yaml"), "--variant", sq, "-n", std::to_string(k_long_run / 2), "--seed", "12", "--threads", "2"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = args;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  auto whole = run_vedette(with({"--out", dir.path() + "/whole"}));
  REQUIRE(whole.status == 0);
  const std::string ck = dir.path() + "/ck.json";
  Background b(with({"--out", dir.path() + "/part", "--checkpoint", ck, "--checkpoint-every", "0"}), dir.path() + "/err");
  REQUIRE(wait_for_file(ck, 30));
  ::kill(b.pid, SIGINT);
  auto [status, text] = b.finish();
  CHECK(status == 130);
  CHECK_THAT(text, Catch::Contains("**PARTIAL**: stopped by SIGINT"));
  auto part = nlohmann::json::parse(slurp(dir.path() + "/part/summary.json"));
  CHECK(part["partial"] == true);
  CHECK(part["figures"][0]["difference"]["n"] == part["engagements"]);
  // A sim cannot resume a comparison's checkpoint.
  auto wrong = run_vedette({"sim", lab("duel.yaml"), "--resume", ck});
  CHECK(wrong.status == 2);
  CHECK_THAT(wrong.err, Catch::Contains("not of `vedette sim`"));
  auto resumed = run_vedette({"compare", lab("duel.yaml"), "--variant", sq, "--threads", "8", "--resume", ck, "--out", dir.path() + "/resumed"});
  REQUIRE(resumed.status == 0);
  CHECK(slurp(dir.path() + "/resumed/summary.json") == slurp(dir.path() + "/whole/summary.json"));
  CHECK(slurp(dir.path() + "/resumed/report.html") == slurp(dir.path() + "/whole/report.html"));
}

}  // namespace t_harness_cli
