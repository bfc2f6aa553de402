// The phone page's ready time (benchmarks/README.md, "The phone flow"):
// `vedette serve` on loopback, Debian's chromium (headless, puppeteer-core
// from tests/web/node_modules: `npm ci` there first) at 390x844, a session
// of two units. "Ready" is the navigation's start to the session page drawn
// (its unit cards in #session shown), timed in the page by a
// MutationObserver installed before the page's own script runs. Two cases:
// a fresh browser context each load (nothing cached: every asset fetched),
// and reloads in one context (the assets revalidated: 304s). Bounded: 20
// loads of each; it stops the server and the browser it started.
//   node benchmarks/web_page_ready.mjs build/sims/vedette [LOADS]
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "tests", "web", "package.json"));
const puppeteer = require("puppeteer-core");

const exe = process.argv[2] || "build/sims/vedette";
const loads = Math.max(1, Math.min(200, Number(process.argv[3] || 20)));
const dir = mkdtempSync(path.join(tmpdir(), "vedette-bench-ready-"));
const file = path.join(dir, "bench.vedette.yaml");
execFileSync(exe, ["solo", "new", file, "--seed", "2", "--unit", "Lancers:shock,figures=12,heavy", "--unit", "Hussars:shooting,figures=8,light"]);
execFileSync(exe, ["solo", "activate", file, "Lancers", "--roll", "3"]);

const server = spawn(exe, ["serve", "--dir", dir, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const port = await new Promise((resolve, reject) => {
  let text = "";
  const timer = setTimeout(() => reject(new Error("no URL from vedette serve")), 10000);
  server.stdout.on("data", (d) => {
    text += d;
    const m = text.match(/Open: http:\/\/127\.0\.0\.1:(\d+)\//);
    if (m) { clearTimeout(timer); resolve(Number(m[1])); }
  });
});
const url = `http://127.0.0.1:${port}/?session=bench`;
const load0 = loadavg()[0];

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
// Records when the session page is drawn, in the page's own clock.
const watch = () => {
  const seen = () => {
    const s = document.getElementById("session");
    return s && !s.hidden && s.querySelector(".card");
  };
  new MutationObserver((_, obs) => {
    if (!window.__ready && seen()) { window.__ready = performance.now(); obs.disconnect(); }
  }).observe(document, { subtree: true, childList: true, attributes: true });
};
async function once(page) {
  const requests = [];
  const onResponse = (r) => requests.push(`${new URL(r.url()).pathname} ${r.status()}`);
  page.on("response", onResponse);
  await page.goto(url, { waitUntil: "load" });
  await page.waitForFunction(() => window.__ready, { timeout: 10000 });
  const t = await page.evaluate(() => window.__ready);
  page.off("response", onResponse);
  return { t, requests };
}
const stats = (xs) => {
  const s = xs.slice().sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `median ${q(0.5).toFixed(0)} ms, 95th percentile ${q(0.95).toFixed(0)} ms (${s[0].toFixed(0)} to ${s[s.length - 1].toFixed(0)})`;
};
try {
  const prepare = async (page) => {
    await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
    await page.evaluateOnNewDocument(watch);
  };
  // Nothing cached (the cache off): every asset fetched, as a phone's first visit.
  const cold = await browser.newPage();
  await prepare(cold);
  await cold.setCacheEnabled(false);
  await once(cold);
  const fresh = [];
  let freshRequests = [], phases = [];
  for (let i = 0; i < loads; i++) {
    const r = await once(cold);
    fresh.push(r.t);
    freshRequests = r.requests;
    // Where the time goes (the last load): each request's start and end, and the script's run.
    phases = await cold.evaluate(() => [
      ...performance.getEntriesByType("navigation").map((e) => `document ${e.requestStart.toFixed(0)}-${e.responseEnd.toFixed(0)}, DOMContentLoaded ${e.domContentLoadedEventEnd.toFixed(0)}`),
      ...performance.getEntriesByType("resource").map((e) => `${new URL(e.name).pathname} ${e.startTime.toFixed(0)}-${e.responseEnd.toFixed(0)}`),
      `drawn ${window.__ready.toFixed(0)}`]);
  }
  await cold.close();
  // Reloads in one context: the assets revalidated (304).
  const page = await browser.newPage();
  await prepare(page);
  await once(page);
  const warm = [];
  let warmRequests = [];
  for (let i = 0; i < loads; i++) {
    const r = await once(page);
    warm.push(r.t);
    warmRequests = r.requests;
  }
  console.log(`page ready at 390x844 on loopback, ${loads} loads each (load average ${load0.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end)`);
  console.log(`  first load (nothing cached): ${stats(fresh)}; requests: ${freshRequests.join(", ")}`);
  console.log(`    the last, in ms from the navigation's start: ${phases.join("; ")}`);
  console.log(`  reload (assets revalidated): ${stats(warm)}; requests: ${warmRequests.join(", ")}`);
} finally {
  await browser.close();
  server.kill("SIGTERM");
  await new Promise((resolve) => (server.exitCode !== null || server.signalCode !== null ? resolve() : server.once("exit", resolve)));
  rmSync(dir, { recursive: true, force: true });
}
