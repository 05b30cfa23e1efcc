// Makes the frame's Devanagari font (decision 067): Noto Sans Devanagari
// (Fontsource's woff2, 400 and 700) cut to the letters of the frame's words
// (app/content/frame-font.ts), with their shaping rules, and writes their
// unicode-range into app/styles/fonts.css:
//
//   npx tsx scripts/make-frame-font.ts
//
// Needs fontTools' pyftsubset with Brotli (Debian: apt-get install fonttools
// python3-brotli). Run it again after changing a word of the frame; the unit
// test app/content/frame-font.test.ts says when it is due.
import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { frameDevanagari, frameUnicodeRange } from "#app/content/frame-font.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE = join(ROOT, "node_modules/@fontsource/noto-sans-devanagari/files");
const OUT = join(ROOT, "app/styles/fonts");
const CSS = join(ROOT, "app/styles/fonts.css");

const text = frameDevanagari().join("");
for (const weight of [400, 700]) {
  const output = join(OUT, `noto-sans-devanagari-frame-${weight}.woff2`);
  execFileSync("pyftsubset", [
    join(SOURCE, `noto-sans-devanagari-devanagari-${weight}-normal.woff2`),
    `--text=${text}`,
    "--layout-features=*",
    "--flavor=woff2",
    "--no-hinting",
    "--desubroutinize",
    `--output-file=${output}`,
  ]);
  console.log(`${output}: ${statSync(output).size} bytes`);
}
const css = readFileSync(CSS, "utf8");
// Written as Biome formats it (npx biome check --write app/styles/fonts.css after a change).
const range = `unicode-range:\n    ${frameUnicodeRange()}; /* frame-font */`;
const updated = css.replace(/unicode-range:\s*[^;]*; \/\* frame-font \*\//g, range);
writeFileSync(CSS, updated);
console.log(`${CSS}: ${range}`);
