// The schemas and `vedette check` agree (issue 31): every schemas/*.schema.json
// compiles under ajv's strict mode with no warning, and every shipped YAML file
// (tables/, sims/scenarios/), every house rule of tests/data/schema/accepted/
// and every wrong file of tests/data/schema/refused/ is accepted by its schema
// (the one its first line names, as a YAML language server reads it) exactly
// when `vedette check` accepts it, and as its folder says.
// Usage: node tests/schema/agree.mjs VEDETTE SOURCE_DIR
import Ajv from "ajv";
import { parse } from "yaml";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const [vedette, src] = process.argv.slice(2);
const problems = [];
const warnings = [];
const ajv = new Ajv({ strict: true, allErrors: true, logger: { log() {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) } });

const schemas = new Map();
for (const f of fs.readdirSync(path.join(src, "schemas")).filter((f) => f.endsWith(".schema.json")).sort()) {
  const file = path.resolve(src, "schemas", f);
  try {
    schemas.set(file, ajv.compile(JSON.parse(fs.readFileSync(file, "utf8"))));
  } catch (e) {
    problems.push(`${f}: does not compile under ajv's strict mode: ${e.message}`);
  }
}
for (const w of warnings) problems.push(`ajv strict-mode warning: ${w}`);
if (schemas.size < 6) problems.push(`only ${schemas.size} schemas compiled (expected the 6 kinds)`);

function yamlFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...yamlFiles(p));
    else if (e.name.endsWith(".yaml")) out.push(p);
  }
  return out.sort();
}
const cases = [];
for (const d of ["tables", "sims/scenarios"]) for (const f of yamlFiles(path.join(src, d))) cases.push([f, true]);
for (const f of yamlFiles(path.join(src, "tests/data/schema/accepted"))) cases.push([f, true]);
for (const f of yamlFiles(path.join(src, "tests/data/schema/refused"))) cases.push([f, false]);

let shipped = 0, refused = 0;
for (const [file, expected] of cases) {
  const rel = path.relative(src, file);
  const text = fs.readFileSync(file, "utf8");
  const m = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text);
  if (!m) {
    problems.push(`${rel}: its first line names no schema (# yaml-language-server: $schema=...)`);
    continue;
  }
  const validate = schemas.get(path.resolve(path.dirname(file), m[1]));
  if (!validate) {
    problems.push(`${rel}: names ${m[1]}, not one of schemas/`);
    continue;
  }
  const bySchema = validate(parse(text));
  let byCheck = true, said = "";
  try {
    execFileSync(vedette, ["check", file], { stdio: "pipe" });
  } catch (e) {
    byCheck = false;
    said = String(e.stderr).trim().split("\n")[0];
  }
  const why = bySchema ? "" : ajv.errorsText(validate.errors);
  console.log(`${rel}: schema ${bySchema ? "accepts" : "refuses"}, check ${byCheck ? "accepts" : "refuses"}${said ? ` (${said})` : ""}${why ? ` [${why}]` : ""}`);
  if (bySchema !== byCheck) problems.push(`${rel}: the schema ${bySchema ? "accepts" : "refuses"} it but vedette check ${byCheck ? "accepts" : "refuses"} it ${why || said}`);
  if (byCheck !== expected) problems.push(`${rel}: expected vedette check to ${expected ? "accept" : "refuse"} it ${said}`);
  if (expected) ++shipped;
  else ++refused;
}
if (shipped < 20 || refused < 8) problems.push(`too few files: ${shipped} accepted, ${refused} refused`);
for (const p of problems) console.log(`FAIL ${p}`);
process.exit(problems.length ? 1 : 0);
