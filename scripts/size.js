#!/usr/bin/env node
// `npm run size`: JS bytes (gzip) each route sends, from the client build's
// manifest, split into the framework (React DOM, React Router: the client
// entry's closure) and our own modules; exits 1 when the home page passes its
// budgets. Budgets and why they are what they are: docs/decisions/033-javascript-budget.md.
// CSS is inline in each page's <head> (app/components/inline-styles.tsx), so
// it is measured from the server's page, not here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const HOME_JS_BUDGET = 120 * 1024;
const HOME_OWN_JS_BUDGET = 10 * 1024;
const clientDir = path.resolve("build/client");
let manifest;
try {
  manifest = JSON.parse(readFileSync(path.join(clientDir, ".vite/manifest.json"), "utf8"));
} catch {
  console.error("size: no build/client/.vite/manifest.json; run `npm run build` first");
  process.exit(1);
}

const gzipped = new Map();
const gz = (file) => {
  if (!gzipped.has(file))
    gzipped.set(file, gzipSync(readFileSync(path.join(clientDir, file)), { level: 9 }).length);
  return gzipped.get(file);
};
const closure = (key, seen = new Set()) => {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(imported, seen);
  return seen;
};

const entryKey = Object.keys(manifest).find((key) => key.includes("entry.client"));
const rootKey = Object.keys(manifest).find((key) => key.startsWith("app/root.tsx"));
const framework = closure(entryKey);
const shared = new Set([...framework, ...closure(rootKey)]);
const jsBytes = (files) =>
  [...files].filter((file) => file.endsWith(".js")).reduce((sum, file) => sum + gz(file), 0);
const frameworkBytes = jsBytes(framework);

const rows = Object.keys(manifest)
  .filter((key) => key.startsWith("app/routes/") && (manifest[key].isDynamicEntry || manifest[key].isEntry))
  .map((key) => {
    const js = jsBytes(new Set([...shared, ...closure(key)]));
    return { route: key.replace(/^app\/routes\//, "").replace(/\?.*$/, ""), js, own: js - frameworkBytes };
  })
  .sort((a, b) => a.route.localeCompare(b.route));

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
console.log(`framework (React DOM, React Router): ${kb(frameworkBytes)} gzip on every page\n`);
console.log(`${"route".padEnd(22)}${"JS (gzip)".padStart(12)}${"ours".padStart(10)}`);
for (const row of rows)
  console.log(`${row.route.padEnd(22)}${kb(row.js).padStart(12)}${kb(row.own).padStart(10)}`);
const home = rows.find((row) => row.route === "home.tsx");
console.log(
  `\nhome page JS: ${kb(home?.js ?? 0)} of a ${kb(HOME_JS_BUDGET)} budget; ours ${kb(home?.own ?? 0)} of ${kb(HOME_OWN_JS_BUDGET)}`,
);
if (!home || home.js > HOME_JS_BUDGET || home.own > HOME_OWN_JS_BUDGET) {
  console.error("size: the home page is over its JS budget");
  process.exit(1);
}
