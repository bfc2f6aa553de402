// The README's pictures of the page (docs/img/serve-*.png), taken again from
// the page as it is: Debian's chromium, headless (puppeteer-core), at a
// 390x844 phone. The token one runs `vedette serve --listen 0.0.0.0` and
// opens the printed link on loopback (its host swapped for 127.0.0.1).
//   node tests/web/screenshots.mjs VEDETTE_EXE [OUT_DIR]   (OUT_DIR: docs/img)
// The sessions are set up by the terminal (`vedette solo ...`, fixed seeds)
// and played on the page through its buttons, so the pictures are the same
// from one run to the next.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer from "puppeteer-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const [exe, out = path.join(here, "..", "..", "docs", "img")] = process.argv.slice(2);
if (!exe) throw new Error("usage: node tests/web/screenshots.mjs VEDETTE_EXE [OUT_DIR]");
mkdirSync(out, { recursive: true });
const dir = mkdtempSync(path.join(tmpdir(), "vedette-shots-"));
const solo = (...args) => execFileSync(exe, ["solo", ...args]);

// `vedette serve` with `extra` arguments: the printed link, on loopback.
async function serve(extra) {
  const server = spawn(exe, ["serve", "--dir", dir, "--port", "0", ...extra], { stdio: ["ignore", "pipe", "inherit"] });
  const link = await new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error("vedette serve printed no link: " + text)), 10000);
    server.stdout.on("data", (d) => {
      text += d;
      const m = text.match(/Open: http:\/\/[^/\s]+:(\d+)\/(\?token=[0-9a-f]{32})?/);
      if (m) { clearTimeout(timer); resolve(`http://127.0.0.1:${m[1]}/${m[2] || ""}`); }
    });
  });
  const stop = () => new Promise((resolve) => {
    if (server.exitCode !== null || server.signalCode !== null) return resolve();
    server.once("exit", resolve);
    server.kill("SIGTERM");
  });
  return { link, origin: new URL(link).origin, stop };
}

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
const stops = [];
let failed = false;
try {
  const page = await browser.newPage();
  await page.setBypassCSP(true);  // (the click helper evaluates code; the page keeps its CSP)
  await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
  const tap = (text, scope = "body") => page.waitForFunction((t, sc) => {
    if (document.body.dataset.busy) return false;
    const b = [...document.querySelectorAll(sc + " button")].find((x) => x.textContent.trim() === t && x.offsetParent !== null);
    if (!b) return false;
    b.click();
    return true;
  }, { timeout: 10000 }, text, scope);
  const inCard = (name, text) => page.waitForFunction((n, t) => {
    if (document.body.dataset.busy) return false;
    const card = [...document.querySelectorAll(".card")].find((c) => c.querySelector(".name").textContent === n);
    const b = card && [...card.querySelectorAll("button")].find((x) => x.textContent.trim() === t && x.offsetParent !== null);
    if (!b) return false;
    b.click();
    return true;
  }, { timeout: 10000 }, name, text);
  const settle = () => page.waitForFunction(() => !document.body.dataset.busy, { timeout: 10000 });
  // A unit's questions answered "No" (the pad: OK; "Yes" to those `yes`
  // matches) until the die is offered.
  const answerAll = async (name, yes = /^$/) => {
    for (let i = 0; i < 10; i++) {
      const what = await page.waitForFunction((n) => {
        if (document.body.dataset.busy) return null;
        const card = [...document.querySelectorAll(".card")].find((c) => c.querySelector(".name").textContent === n);
        const q = card && card.querySelector(".flow .question");
        if (!q) return null;
        if (/^The die/.test(q.textContent)) return "die";
        return card.querySelector(".pad") ? "pad" : q.textContent;
      }, { timeout: 10000 }, name);
      const v = await what.jsonValue();
      if (v === "die") return;
      await inCard(name, v === "pad" ? "OK" : yes.test(v) ? "Yes" : "No");
    }
  };
  const shot = async (name) => {
    await settle();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(out, name) });
    console.log("wrote " + path.join(out, name));
  };

  // On this machine (loopback): a charge offered after a 6 at RF 1, and
  // the turn's steps (the initiative, Hussars' carbine shot, rolled).
  const local = await serve([]);
  stops.push(local.stop);
  const charge = path.join(dir, "charge.vedette.yaml");
  solo("new", charge, "--seed", "2", "--unit", "Lancers:shock,figures=12,heavy", "--unit", "Hussars:shooting,figures=8,light");
  solo("activate", charge, "Lancers", "--roll", "3");
  solo("activate", charge, "Hussars", "--roll", "3");
  solo("initiative", charge, "--total", "6", "--roll", "3");
  solo("next-turn", charge);
  await page.goto(`${local.origin}/?session=charge`, { waitUntil: "load" });
  await page.waitForSelector("#session:not([hidden]) .card");
  await answerAll("Lancers", /weapons range/);  // RF 1: the row with "(Charge?)" on a 6
  await inCard("Lancers", "6");  // the die you rolled: a 6 at RF 1 offers a charge
  await page.waitForFunction(() => [...document.querySelectorAll(".charge button")].some((b) => b.textContent === "Charge"), { timeout: 10000 });
  await shot("serve-phone.png");

  const steps = path.join(dir, "steps.vedette.yaml");
  solo("new", steps, "--seed", "4", "--unit", "Hussars:shooting,weapon=carbine");
  solo("activate", steps, "Hussars", "--enemy-in-range", "--roll", "6");
  await page.goto(`${local.origin}/?session=steps`, { waitUntil: "load" });
  await page.waitForSelector("#step:not([hidden])");
  await tap("3", "#step");  // your side's initiative die
  await tap("Roll for me", "#step");
  await page.waitForFunction(() => /shooting/.test((document.querySelector("#step h2:not(.done)") || {}).textContent || ""), { timeout: 10000 });
  await tap("Yes", "#step");
  for (const d of ["1", "5", "OK"]) await tap(d, "#step .pad");
  await tap("No", "#step");  // not in cover
  await page.waitForFunction(() => /Roll \d+ dice/.test((document.querySelector("#step .question") || {}).textContent || ""), { timeout: 10000 });
  await tap("Roll for me", "#step");
  await page.waitForFunction(() => [...document.querySelectorAll("#step h2.done")].length >= 2, { timeout: 10000 });
  await settle();
  await page.evaluate(() => document.querySelector("#step").scrollIntoView({ block: "start" }));
  await page.screenshot({ path: path.join(out, "serve-steps.png") });
  console.log("wrote " + path.join(out, "serve-steps.png"));
  await local.stop();

  // A phone (token mode): the printed link, a session made on the page,
  // Lancers activated with vedette's die, Hussars' first question at once.
  const phone = await serve(["--listen", "0.0.0.0"]);
  stops.push(phone.stop);
  await page.goto(phone.link, { waitUntil: "load" });
  await page.waitForSelector("#sessions:not([hidden])");
  await page.type("#new-name", "phone");
  await page.type("#new-units", "Lancers:shock,figures=12,heavy\nHussars:shooting,figures=8,light,weapon=carbine");
  await page.click("#new-session summary");
  await page.type("#new-seed", "2");
  await tap("Create");
  await page.waitForSelector("#session:not([hidden]) .card");
  await answerAll("Lancers");
  await inCard("Lancers", "Roll for me");
  await page.waitForFunction(() => [...document.querySelectorAll(".card .instruction")].length > 0, { timeout: 10000 });
  await page.waitForFunction(() => {
    const card = [...document.querySelectorAll(".card")].find((c) => c.querySelector(".name").textContent === "Hussars");
    return card && card.querySelector(".flow .question");
  }, { timeout: 10000 });
  if ((await page.evaluate(() => location.href)).includes("token")) throw new Error("the token is still in the address bar");
  await shot("serve-phone-token.png");
  await phone.stop();
} catch (e) {
  failed = true;
  console.error("FAILED: " + e.stack);
} finally {
  await browser.close();
  for (const stop of stops) await stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
