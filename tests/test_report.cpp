// Reports: report.html is one self-contained file with its charts as inline
// SVG; a real headless browser (Debian's chromium) loads it without errors
// and shows the charts.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <regex>

#include "helpers.hpp"
#include "sims/report/report.hpp"
#include "sims/report/svg.hpp"

namespace fs = std::filesystem;
using vtest::run_vedette;

namespace {

std::string lab(const std::string& name) { return vtest::data("lab/" + name); }
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string chromium_path() {
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
  // A bar at 25% of a 300-wide axis starting at 200: width 75.
  CHECK_THAT(a, Catch::Contains("<rect x=\"200.0\" y=\"35.0\" width=\"75.0\""));
}
