// `vedette serve` under load, on loopback (benchmarks/README.md, "The web
// page"): the page's weight, each answer's round trip, and 200 concurrent
// clients polling one session. Node only (no npm package); bounded in count
// and time, and it stops the server it started.
//   node benchmarks/bench_web.mjs build/sims/vedette
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import http from "node:http";

const exe = process.argv[2] || "build/sims/vedette";
const dir = mkdtempSync(path.join(tmpdir(), "vedette-bench-web-"));
const server = spawn(exe, ["serve", "--dir", dir, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const port = await new Promise((resolve, reject) => {
  let text = "";
  setTimeout(() => reject(new Error("no URL from vedette serve")), 10000);
  server.stdout.on("data", (d) => { text += d; const m = text.match(/:(\d+)\//); if (m) resolve(Number(m[1])); });
});
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
function request(method, p, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({ host: "127.0.0.1", port, path: p, method, agent, timeout: 10000,
      headers: data ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data) } : {} }, (res) => {
      let out = "";
      res.on("data", (c) => (out += c));
      res.on("end", () => resolve({ status: res.statusCode, body: out }));
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("timeout")));
    if (data) req.write(data);
    req.end();
  });
}
const pct = (xs, p) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
try {
  let bytes = 0;
  for (const a of ["/", "/app.js", "/style.css", "/favicon.svg"]) bytes += Buffer.byteLength((await request("GET", a)).body);
  console.log(`page and assets: ${bytes} bytes (${(bytes / 1024).toFixed(1)} KiB; target < 150 KB)`);
  await request("POST", "/api/sessions", { name: "bench", units: ["Lancers:shock,figures=12,heavy", "Hussars:shooting"], seed: 1 });
  const times = { status: [], question: [], "activate+undo": [] };
  for (let i = 0; i < 200; i++) {
    let t = process.hrtime.bigint();
    const s = JSON.parse((await request("GET", "/api/sessions/bench")).body);
    times.status.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    await request("POST", "/api/sessions/bench/question", { unit: "Lancers", answers: { in_cover: false } });
    times.question.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (i < 50) {
      t = process.hrtime.bigint();
      const a = JSON.parse((await request("POST", "/api/sessions/bench/activate", { unit: "Lancers", answers: {}, roll: 3, rev: s.rev })).body);
      await request("POST", "/api/sessions/bench/undo", { rev: a.rev });
      times["activate+undo"].push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }
  // The charge form: its table (GET charge-table) and the exact odds before
  // the dice (POST charge-odds), on turn 2's "(Charge?)" (RF 1, a 6).
  const rev = async () => JSON.parse((await request("GET", "/api/sessions/bench")).body).rev;
  await request("POST", "/api/sessions/bench/activate", { unit: "Lancers", answers: {}, roll: 3, rev: await rev() });
  await request("POST", "/api/sessions/bench/activate", { unit: "Hussars", answers: {}, roll: 3, rev: await rev() });
  await request("POST", "/api/sessions/bench/next-turn", { rev: await rev() });
  const offer = JSON.parse((await request("POST", "/api/sessions/bench/activate",
    { unit: "Lancers", answers: { enemy_in_range: true }, roll: 6, rev: await rev() })).body);
  if (!offer.result || !offer.result.activation || !offer.result.activation.behaviour.charge_possible)
    throw new Error("bench_web: no charge offered on turn 2: " + JSON.stringify(offer).slice(0, 300));
  times["charge-table"] = [];
  times["charge-odds"] = [];
  for (let i = 0; i < 200; i++) {
    let t = process.hrtime.bigint();
    const ct = await request("GET", "/api/sessions/bench/charge-table");
    times["charge-table"].push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    const co = await request("POST", "/api/sessions/bench/charge-odds", { unit: "Lancers", distance: "20", defender: "heavy-foot" });
    times["charge-odds"].push(Number(process.hrtime.bigint() - t) / 1e6);
    if (ct.status !== 200 || co.status !== 200) throw new Error(`bench_web: charge form answered ${ct.status}/${co.status}: ${co.body}`);
  }
  // The turn's steps (issue 16): the initiative, then undo, once the charge is answered.
  await request("POST", "/api/sessions/bench/charge", { unit: "Lancers", decline: true, rev: await rev() });
  await request("POST", "/api/sessions/bench/activate", { unit: "Hussars", answers: {}, roll: 3, rev: await rev() });
  times["initiative+undo"] = [];
  let cur = await rev();
  for (let i = 0; i < 50; i++) {
    const t = process.hrtime.bigint();
    const a = JSON.parse((await request("POST", "/api/sessions/bench/initiative", { your_roll: 3, rev: cur })).body);
    const u = JSON.parse((await request("POST", "/api/sessions/bench/undo", { rev: a.rev })).body);
    times["initiative+undo"].push(Number(process.hrtime.bigint() - t) / 1e6);
    if (!a.result || !u.result) throw new Error("bench_web: the initiative step failed: " + JSON.stringify(a).slice(0, 300));
    cur = u.rev;
  }
  for (const [k, xs] of Object.entries(times))
    console.log(`${k}: median ${pct(xs, 0.5).toFixed(2)} ms, 95th percentile ${pct(xs, 0.95).toFixed(2)} ms over ${xs.length}`);
  // 200 clients, each polling the session for 10 s (one request at a time, as the page does, but without its 3 s pause).
  const until = Date.now() + 10000;
  let ok = 0, errors = 0;
  const lat = [];
  await Promise.all(Array.from({ length: 200 }, async () => {
    while (Date.now() < until) {
      const t = process.hrtime.bigint();
      try {
        const r = await request("GET", "/api/sessions/bench");
        if (r.status === 200) ok++; else errors++;
      } catch (e) { errors++; }
      lat.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }));
  console.log(`200 concurrent clients for 10 s: ${ok} answers, ${errors} errors, ${(ok / 10).toFixed(0)} requests/s, median ${pct(lat, 0.5).toFixed(1)} ms, 95th percentile ${pct(lat, 0.95).toFixed(1)} ms`);
} finally {
  server.kill("SIGTERM");
  agent.destroy();
  await new Promise((resolve) => (server.exitCode !== null || server.signalCode !== null ? resolve() : server.once("exit", resolve)));
  rmSync(dir, { recursive: true, force: true });  // its session: nothing left in /tmp
}
