#!/usr/bin/env node
// `npm run size`: JS and CSS bytes (gzip) each route sends, from the client
// build's manifest; exits 1 when the home page passes its JS budget.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const HOME_JS_BUDGET = 100 * 1024;
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
const shared = new Set([...closure(entryKey), ...closure(rootKey)]);
const css = readdirSync(path.join(clientDir, "assets")).filter((file) => file.endsWith(".css"));
const cssBytes = css.reduce((sum, file) => sum + gz(`assets/${file}`), 0);

const rows = Object.keys(manifest)
  .filter((key) => key.startsWith("app/routes/") && (manifest[key].isDynamicEntry || manifest[key].isEntry))
  .map((key) => {
    const files = new Set([...shared, ...closure(key)]);
    const js = [...files].filter((file) => file.endsWith(".js")).reduce((sum, file) => sum + gz(file), 0);
    return { route: key.replace(/^app\/routes\//, "").replace(/\?.*$/, ""), js, css: cssBytes };
  })
  .sort((a, b) => a.route.localeCompare(b.route));

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
console.log(`${"route".padEnd(22)}${"JS (gzip)".padStart(12)}${"CSS (gzip)".padStart(12)}`);
for (const row of rows)
  console.log(`${row.route.padEnd(22)}${kb(row.js).padStart(12)}${kb(row.css).padStart(12)}`);
const home = rows.find((row) => row.route === "home.tsx");
console.log(`\nhome page JS: ${kb(home?.js ?? 0)} of a ${kb(HOME_JS_BUDGET)} budget`);
if (!home || home.js > HOME_JS_BUDGET) {
  console.error("size: the home page is over its JS budget");
  process.exit(1);
}
