// Loads a report in Debian's chromium (headless, driven over the DevTools
// protocol on a pipe: no npm package, no network) at each width given, and
// checks the element boxes the browser laid out:
//   - the page does not scroll sideways, and no element lies outside the
//     viewport, and no table needs to scroll sideways in its .scroll box
//     (tables wrap or stack);
//   - every chart label lies inside its chart, and no two labels overlap;
//   - no text is drawn smaller than 11 px (a chart's text as the browser
//     scales it to the chart's shown width, the page's by its font size);
//   - no table has a column that is empty in every row;
//   - the page starts with its headline (p.headline right after the h1).
// Writes a full-page screenshot per width (NAME-WIDTH.png in OUT_DIR) and
// prints a JSON object {width: [problems...]} on stdout.
//
//   node layout_check.mjs CHROMIUM FILE OUT_DIR NAME WIDTH...
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [, , chromium, file, outDir, name, ...widthArgs] = process.argv;
const widths = widthArgs.map(Number);
const profile = mkdtempSync(join(tmpdir(), 'vedette-chromium-'));
const proc = spawn(chromium, ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--hide-scrollbars', '--remote-debugging-pipe',
  `--user-data-dir=${profile}`, 'about:blank'],
  // TMPDIR inside the profile: chromium's own temporary folders (its
  // singleton socket's) go with the profile when it is removed.
  { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: profile } });
const toBrowser = proc.stdio[3], fromBrowser = proc.stdio[4];
const timer = setTimeout(() => { console.error('layout_check: chromium did not answer in 90 s'); proc.kill('SIGKILL'); process.exit(3); }, 90000);

let nextId = 0, buffer = '';
const pending = new Map(), waiters = [];
fromBrowser.on('data', (chunk) => {
  buffer += chunk.toString('utf8');
  for (let at; (at = buffer.indexOf('\0')) >= 0;) {
    const msg = JSON.parse(buffer.slice(0, at));
    buffer = buffer.slice(at + 1);
    if (msg.id && pending.has(msg.id)) { pending.get(msg.id)(msg); pending.delete(msg.id); }
    else for (const w of [...waiters]) if (w.method === msg.method) { waiters.splice(waiters.indexOf(w), 1); w.resolve(msg); }
  }
});
function send(method, params = {}, sessionId) {
  return new Promise((resolve, reject) => {
    const id = ++nextId;
    pending.set(id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)));
    toBrowser.write(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }) + '\0');
  });
}
const event = (method) => new Promise((resolve) => waiters.push({ method, resolve }));

// Runs in the page: the problems its boxes show.
const check = () => {
  const vw = document.documentElement.clientWidth;
  const problems = [];
  const say = (el) => `<${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}> "${(el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 50)}"`;
  const meets = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  if (document.documentElement.scrollWidth > vw + 1) problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px wide in ${vw})`);
  // Tables wrap or stack: a .scroll box that must scroll sideways hides
  // part of its table (issue 31: the correlation table cut off at 1280 px).
  for (const box of document.querySelectorAll('.scroll'))
    if (box.scrollWidth > box.clientWidth + 1) problems.push(`a table scrolls sideways (${box.scrollWidth} px in ${box.clientWidth}): ${say(box).slice(0, 60)}`);
  const outside = new Set();  // reported once, not again for each element inside it
  for (const el of document.body.querySelectorAll('*')) {
    if (el.parentElement.closest('.scroll') || el.parentElement.closest('svg') || outside.has(el.parentElement)) {
      if (outside.has(el.parentElement)) outside.add(el);
      continue;
    }
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.left < -0.5 || r.right > vw + 0.5) {
      outside.add(el);
      problems.push(`outside the viewport (${Math.round(r.left)} to ${Math.round(r.right)}): ${say(el)}`);
    }
  }
  for (const svg of document.querySelectorAll('svg.chart')) {
    const box = svg.getBoundingClientRect();
    const labels = [...svg.querySelectorAll('text')].map((t) => ({ t, r: t.getBoundingClientRect() })).filter((x) => x.r.width > 0);
    for (const { t, r } of labels)
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
        problems.push(`a label outside chart ${svg.id}: ${say(t)}`);
    for (let i = 0; i < labels.length; ++i)
      for (let j = i + 1; j < labels.length; ++j)
        if (meets(labels[i].r, labels[j].r)) problems.push(`labels overlap in chart ${svg.id}: ${say(labels[i].t)} and ${say(labels[j].t)}`);
  }
  // Text under 11 px: in a chart, its font size times the chart's scale
  // (shown width / viewBox width); elsewhere the computed font size of any
  // element that holds text of its own and is shown.
  const small = new Set();
  for (const svg of document.querySelectorAll('svg.chart')) {
    const box = svg.getBoundingClientRect();
    const vb = svg.viewBox && svg.viewBox.baseVal;
    if (box.width === 0 || !vb || !vb.width) continue;
    const scale = box.width / vb.width;
    for (const t of svg.querySelectorAll('text')) {
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (t.getBoundingClientRect().width > 0 && px < 10.95 && !small.has(svg.id)) {
        small.add(svg.id);
        problems.push(`text under 11 px (${px.toFixed(1)} px) in chart ${svg.id}: ${say(t)}`);
      }
    }
  }
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg')) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (!own || el.getBoundingClientRect().width === 0) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < 10.95) problems.push(`text under 11 px (${px.toFixed(1)} px): ${say(el)}`);
  }
  for (const table of document.querySelectorAll('table')) {
    const rows = [...table.rows].filter((r) => r.querySelector('td'));
    const heads = table.rows[0] ? [...table.rows[0].cells].map((c) => c.textContent.trim()) : [];
    for (let c = 0; c < heads.length && rows.length; ++c)
      if (rows.every((r) => !r.cells[c] || r.cells[c].textContent.trim() === '')) problems.push(`an all-empty column "${heads[c]}" in a table`);
  }
  const h1 = document.querySelector('h1');
  const next = h1 && h1.nextElementSibling;
  if (!next || !next.matches('p.headline') || next.textContent.trim() === '') problems.push('no one-line headline right after the title');
  return problems;
};

const report = {};
try {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  await send('Page.enable', {}, sessionId);
  for (const width of widths) {
    await send('Emulation.setDeviceMetricsOverride', { width, height: 900, deviceScaleFactor: 1, mobile: width < 600 }, sessionId);
    const loaded = event('Page.loadEventFired');
    await send('Page.navigate', { url: 'file://' + file }, sessionId);
    await loaded;
    const r = await send('Runtime.evaluate', { expression: `(${check.toString()})()`, returnByValue: true }, sessionId);
    report[width] = r.exceptionDetails ? [`the check failed: ${r.exceptionDetails.text}`] : r.result.value;
    const { cssContentSize } = await send('Page.getLayoutMetrics', {}, sessionId);
    const shot = await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true,
      clip: { x: 0, y: 0, width, height: Math.ceil(cssContentSize.height), scale: 1 } }, sessionId);
    writeFileSync(join(outDir, `${name}-${width}.png`), Buffer.from(shot.data, 'base64'));
  }
  await send('Browser.close').catch(() => {});
} catch (e) {
  console.error('layout_check: ' + e.message);
  process.exitCode = 2;
}
console.log(JSON.stringify(report));
clearTimeout(timer);
// The browser is gone before its profile is removed (it writes to it until
// it exits): a few seconds to close as asked, then it is killed.
if (proc.exitCode === null && proc.signalCode === null) {
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  const kill = setTimeout(() => proc.kill(), 5000);
  await exited;
  clearTimeout(kill);
}
try {
  rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
} catch (e) {
  console.error(`layout_check: could not remove ${profile}: ${e.message}`);
}
