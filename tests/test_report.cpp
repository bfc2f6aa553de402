// Reports: report.html is one self-contained file with its charts as inline
// SVG; a real headless browser (Debian's chromium) loads it without errors
// and shows the charts.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include "helpers.hpp"
#include "sims/report/report.hpp"
#include "sims/report/svg.hpp"

namespace t_report {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

namespace fs = std::filesystem;
using vtest::run_vedette;

namespace {

std::string lab(const std::string& name) { return vtest::data("lab/" + name); }
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string chromium_path() {
  // VEDETTE_CHROMIUM: a chromium elsewhere (an unpacked one, a wrapper script).
  if (const char* e = std::getenv("VEDETTE_CHROMIUM"); e && *e && fs::exists(e)) return e;
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium"})
    if (fs::exists(p)) return p;
  return "";
}

struct Browser {
  int status = -1;
  std::string dom, log;
};

// Loads `file` in headless chromium: the DOM after load, and its log.
Browser load_in_chromium(const std::string& chromium, const std::string& file, const std::string& screenshot) {
  vtest::TempDir profile;
  const std::string dom = profile.path() + "/dom.html", log = profile.path() + "/log.txt";
  const std::string flags = " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking "
                            "--disable-component-update --disable-sync --disable-dev-shm-usage --enable-logging=stderr --v=0 "
                            "--user-data-dir='" + profile.path() + "/profile' ";
  std::string cmd = "timeout 120 '" + chromium + "'" + flags + "--dump-dom 'file://" + file + "' >'" + dom + "' 2>'" + log + "'";
  Browser b;
  b.status = std::system(cmd.c_str());
  b.dom = slurp(dom);
  b.log = slurp(log);
  if (!screenshot.empty()) {
    std::string shot = "timeout 120 '" + chromium + "'" + flags + "--window-size=1200,2000 --screenshot='" + screenshot + "' 'file://" + file +
                       "' >/dev/null 2>>'" + log + "'";
    if (std::system(shot.c_str()) != 0) b.status = -2;
    b.log += slurp(log);
  }
  return b;
}

// Console messages the page itself caused (chromium's own start-up noise,
// dbus and the like, is not the page's).
std::vector<std::string> console_errors(const std::string& log) {
  std::vector<std::string> bad;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line))
    if (line.find("Uncaught") != std::string::npos || line.find(":CONSOLE") != std::string::npos ||
        line.find("Failed to load resource") != std::string::npos)
      bad.push_back(line);
  return bad;
}

}  // namespace

TEST_CASE("report: report.html is self-contained, script-free, and holds every chart") {
  vtest::TempDir dir;
  auto r = run_vedette({"sim", lab("duel.yaml"), "-n", "5000", "--seed", "12", "--out", dir.path()});
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::EndsWith("Report: " + dir.path() + "/report.html\n"));
  const std::string html = slurp(dir.path() + "/report.html");
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("http://") == html.find("http://www.w3.org/2000/svg"));  // the SVG namespace only: nothing fetched
  CHECK(html.find("https://") == std::string::npos);
  CHECK(html.find("src=") == std::string::npos);
  for (const char* id : {"chart-outcomes", "chart-turns", "chart-losses-cavalry_figures_lost", "chart-losses-infantry_figures_lost",
                         "chart-behaviour", "chart-funnel"})
    CHECK_THAT(html, Catch::Contains(std::string("<svg class=\"chart\" id=\"") + id + "\""));
  // Every figure in the table of probabilities carries an interval and a count.
  CHECK(std::regex_search(html, std::regex(R"(Cavalry wins: [0-9.]+% \[[0-9.]+, [0-9.]+\] \([0-9,]+ of 5,000\))")));
  // Text from the files is escaped.
  CHECK(vedette::lab::html_escape("<a & 'b'>") == "&lt;a &amp; &#39;b&#39;&gt;");
}

TEST_CASE("report: the HTML loads in headless chromium without errors and shows its charts") {
  const std::string chromium = chromium_path();
  if (chromium.empty()) {
    WARN("SKIPPED: chromium is not installed (scripts/test installs it; on Debian: apt-get install chromium)");
    return;
  }
  vtest::TempDir dir;
  const std::string sq = std::string(VEDETTE_SOURCE_DIR) + "/tables/house-rules/infantry-square.yaml";
  REQUIRE(run_vedette({"sim", lab("duel.yaml"), "-n", "5000", "--seed", "12", "--out", dir.path() + "/sim"}).status == 0);
  REQUIRE(run_vedette({"compare", lab("duel.yaml"), "--variant", sq, "-n", "5000", "--seed", "12", "--out", dir.path() + "/compare"}).status == 0);
  REQUIRE(run_vedette({"sweep", lab("duel.yaml"), "--set", "charge.morale.table.heavy_foot.need.3=7,9,11", "-n", "3000", "--seed", "12", "--out",
                       dir.path() + "/sweep"})
              .status == 0);
  struct Page {
    std::string folder;
    std::vector<std::string> charts;
  };
  for (const Page& p : {Page{"sim", {"chart-outcomes", "chart-turns", "chart-losses-cavalry_figures_lost", "chart-behaviour", "chart-funnel"}},
                        Page{"compare", {"chart-outcomes", "chart-diff-outcomes", "chart-diff-metrics"}},
                        Page{"sweep", {"chart-sweep"}}}) {
    const std::string file = dir.path() + "/" + p.folder + "/report.html";
    const std::string png = dir.path() + "/" + p.folder + ".png";
    Browser b = load_in_chromium(chromium, file, p.folder == "sim" ? png : "");
    INFO(p.folder << ": chromium status " << b.status << "\nlog:\n" << b.log);
    REQUIRE(b.status == 0);
    // The browser parsed the page: the DOM it dumps holds each chart as SVG
    // elements with their shapes.
    CHECK_THAT(b.dom, Catch::Contains("<h1>vedette " + p.folder));
    for (const auto& id : p.charts) {
      INFO("chart " << id);
      const auto at = b.dom.find("id=\"" + id + "\"");
      REQUIRE(at != std::string::npos);
      const auto end = b.dom.find("</svg>", at);
      REQUIRE(end != std::string::npos);
      const std::string svg = b.dom.substr(at, end - at);
      CHECK((svg.find("<rect") != std::string::npos || svg.find("<circle") != std::string::npos));
      CHECK(svg.find("<text") != std::string::npos);
    }
    CHECK(console_errors(b.log).empty());
    if (p.folder == "sim") {
      // Drawn: the screenshot is a real picture, not an empty page.
      REQUIRE(fs::exists(png));
      CHECK(fs::file_size(png) > 50000);
    }
  }
}

TEST_CASE("report: charts print the same bytes for the same figures") {
  using namespace vedette::lab;
  std::vector<svg::Bar> bars{{"A wins", 0.25, 0.2, 0.3, svg::colour(0), "25%"}, {"B <wins>", 0.75, 0.7, 0.8, svg::colour(1), "75%"}};
  const std::string a = svg::interval_bars("x", "Who wins", bars);
  CHECK(a == svg::interval_bars("x", "Who wins", bars));
  CHECK_THAT(a, Catch::Contains("B &lt;wins&gt;"));
  CHECK_THAT(a, Catch::StartsWith("<svg class=\"chart\" id=\"x\" role=\"img\""));
  CHECK_THAT(a, Catch::Contains("<title>Who wins</title>"));
  // A bar at 25% of a 360-wide axis starting at 4 (the chart is 368 wide, for a phone): width 90.
  CHECK_THAT(a, Catch::Contains("<rect x=\"4.0\" y=\"44.0\" width=\"90.0\""));
  CHECK_THAT(a, Catch::Contains("viewBox=\"0 0 368.0 "));
}

namespace {

std::string node_path() {
  for (const char* p : {"/usr/bin/node", "/usr/bin/nodejs", "/usr/local/bin/node"})
    if (fs::exists(p)) return p;
  return "";
}

}  // namespace

// Reports that read well: each report is laid out by a real browser at a
// desktop width (1280 px) and a phone's (390 px), and the boxes it drew are
// checked (tests/browser/layout_check.mjs): nothing outside the viewport
// (tables scroll inside their box), no chart label clipped or overlapping
// another, no all-empty column, a headline at the top. Screenshots go to
// build/screenshots/ for a person to look at.
TEST_CASE("report: every report lays out cleanly in chromium at 1280 and 390 px", "[report][browser][heavy]") {
  const std::string chromium = chromium_path(), node = node_path();
  if (chromium.empty() || node.empty()) {
    WARN("SKIPPED: chromium or nodejs is not installed (scripts/test installs both; on Debian: apt-get install chromium nodejs)");
    return;
  }
  vtest::TempDir dir;
  const std::string src = VEDETTE_SOURCE_DIR, shots = std::string(VEDETTE_BUILD_DIR) + "/screenshots";
  fs::create_directories(shots);
  const std::string sq = src + "/tables/house-rules/infantry-square.yaml";
  const std::string sc = src + "/sims/scenarios/";
  struct Run {
    std::string name;
    std::vector<std::string> args;
  };
  const std::vector<Run> runs{
      {"sim", {"sim", sc + "open_field_charge.yaml", "-n", "2000", "--seed", "5"}},
      {"compare", {"compare", lab("duel.yaml"), "--variant", sq, "-n", "3000", "--seed", "12"}},
      {"compare-many",
       {"compare", sc + "open_field_charge.yaml", sc + "flank_attack.yaml", sc + "square_test.yaml", "--variant", sq, "-n", "1500", "--seed", "3"}},
      {"sweep", {"sweep", lab("duel.yaml"), "--set", "charge.morale.table.heavy_foot.need.3=5,7,9,11", "-n", "2000", "--seed", "12"}},
      {"sweep-categorical", {"sweep", sc + "open_field_charge.yaml", "--set", "bands.rf1.cells.6=halt_facing,walk_to_cover,canter_away", "-n", "1500", "--seed", "4"}},
      {"sensitivity", {"sensitivity", sc + "open_field_charge.yaml", "-n", "300", "--seed", "4"}},
      {"compare-roles",
       {"compare", sc + "open_field_charge.yaml", sc + "mounted_infantry_raid.yaml", "--variant", src + "/tables/house-rules/steady-veterans.yaml", "-n",
        "1500", "--seed", "3"}},
  };
  for (const auto& r : runs) {
    auto args = r.args;
    args.insert(args.end(), {"--out", dir.path() + "/" + r.name});
    const auto res = run_vedette(args);
    INFO(r.name << ": " << res.err);
    REQUIRE(res.status == 0);
    const std::string out = dir.path() + "/" + r.name + ".json";
    const std::string cmd = "'" + node + "' '" + src + "/tests/browser/layout_check.mjs' '" + chromium + "' '" + dir.path() + "/" + r.name +
                            "/report.html' '" + shots + "' '" + r.name + "' 1280 390 >'" + out + "' 2>'" + out + ".err'";
    const int status = std::system(cmd.c_str());
    INFO("layout_check: status " << status << ", stderr: " << slurp(out + ".err"));
    REQUIRE(status == 0);
    const auto j = nlohmann::json::parse(slurp(out));
    for (const char* width : {"1280", "390"}) {
      INFO(r.name << " at " << width << " px");
      REQUIRE(j.contains(width));
      std::string problems;
      for (const auto& p : j[width]) problems += "  " + p.get<std::string>() + "\n";
      INFO("problems:\n" << problems);
      CHECK(j[width].empty());
      // The screenshot is a real picture.
      const std::string png = shots + "/" + r.name + "-" + width + ".png";
      REQUIRE(fs::exists(png));
      CHECK(fs::file_size(png) > 10000);
    }
  }
}

// The checker itself finds what it is there to find: a page built to break
// each rule is reported on each count.
TEST_CASE("report: the layout check reports clipped, overlapping and overflowing boxes", "[report][browser]") {
  const std::string chromium = chromium_path(), node = node_path();
  if (chromium.empty() || node.empty()) {
    WARN("SKIPPED: chromium or nodejs is not installed");
    return;
  }
  vtest::TempDir dir;
  const std::string page = dir.path() + "/bad.html";
  std::ofstream(page) << "<!DOCTYPE html><html><head><meta name=\"viewport\" content=\"width=device-width\"></head><body><h1>bad</h1>"
                         "<table><tr><th>a</th><th>empty</th></tr><tr><td>1</td><td></td></tr></table>"
                         "<div style=\"width:2000px\">wide</div>"
                         // A table wider than its box: it scrolls inside .scroll, hiding columns.
                         "<div class=\"scroll\" style=\"width:200px\"><table><tr><td style=\"min-width:600px\">wide table</td></tr></table></div>"
                         "<svg class=\"chart\" id=\"c\" width=\"200\" height=\"60\" xmlns=\"http://www.w3.org/2000/svg\">"
                         "<text x=\"10\" y=\"20\">one label</text><text x=\"14\" y=\"22\">another</text><text x=\"180\" y=\"50\">clipped label</text>"
                         "</svg>"
                         // 12 px text in a chart 1,200 wide shown 300 wide: 3 px.
                         "<svg class=\"chart\" id=\"tiny\" viewBox=\"0 0 1200 100\" style=\"width:300px\" xmlns=\"http://www.w3.org/2000/svg\" "
                         "font-size=\"12\"><text x=\"10\" y=\"50\">unreadable</text></svg>"
                         "<p style=\"font-size:8px\">fine print</p></body></html>";
  const std::string out = dir.path() + "/out.json";
  const std::string cmd = "'" + node + "' '" + std::string(VEDETTE_SOURCE_DIR) + "/tests/browser/layout_check.mjs' '" + chromium + "' '" + page + "' '" +
                          dir.path() + "' bad 390 >'" + out + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string problems = nlohmann::json::parse(slurp(out))["390"].dump();
  INFO(problems);
  CHECK_THAT(problems, Catch::Contains("the page scrolls sideways"));
  CHECK_THAT(problems, Catch::Contains("outside the viewport"));
  CHECK_THAT(problems, Catch::Contains("a table scrolls sideways"));
  CHECK_THAT(problems, Catch::Contains("labels overlap in chart c"));
  CHECK_THAT(problems, Catch::Contains("a label outside chart c"));
  CHECK_THAT(problems, Catch::Contains("an all-empty column \\\"empty\\\""));
  CHECK_THAT(problems, Catch::Contains("no one-line headline"));
  CHECK_THAT(problems, Catch::Contains("text under 11 px (3.0 px) in chart tiny"));
  CHECK_THAT(problems, Catch::Contains("text under 11 px (8.0 px): <p> \\\"fine print"));
}

}  // namespace t_report
