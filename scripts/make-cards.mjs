#!/usr/bin/env node
// Renders the quote-card images referenced by the demo content.
//
//   npm run cards                          render every missing card
//   npm run cards -- --force               re-render all cards
//   npm run cards -- --only hindi-1,marathi-12   (repeatable filter)
//
// (`tsx scripts/make-cards.mjs`: it imports the site's TypeScript modules.)
// Why a second renderer beside the share images': docs/decisions/041-two-renderers.md.
//
// One card per published post whose featureImageUrl starts with "/images/cards/", written
// to public/<featureImageUrl> as a 720×720 WebP. Rendering is done by Debian's
// Chromium (/usr/bin/chromium) through playwright-core; no browser is ever
// downloaded. Fonts come from the self-hosted @fontsource packages and are
// embedded as base64 data URLs, and every text node is checked (via the
// DevTools protocol) to be drawn with those web fonts, never a system fallback.

import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createCanvas, loadImage } from "@napi-rs/canvas";
// The site's one entity decoder (run through tsx, which loads TypeScript).
import { decodeEntities } from "#app/content/html-text.ts";
// Debian's Chromium with the flags the browser tests use.
import { launchBrowser } from "#tests/support/chromium.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CONTENT_FILE = join(ROOT, "db/demo/demo-content.json");
const PUBLIC_DIR = join(ROOT, "public");
const CARD_PREFIX = "/images/cards/";
const SIZE = 720;
const WEBP_QUALITY = 82;
const MAX_BYTES = 90 * 1024;
const MAX_QUOTE_CHARS = 220;

// ---------------------------------------------------------------- arguments

const argv = process.argv.slice(2);
const force = argv.includes("--force");
const only = [];
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--only" && argv[i + 1]) only.push(...argv[++i].split(","));
  else if (a.startsWith("--only=")) only.push(...a.slice(7).split(","));
  else if (a !== "--force") {
    console.error(`Unknown argument: ${a}`);
    process.exit(2);
  }
}

// ---------------------------------------------------------------- palettes
// bg: gradient stops (light → dark or vice versa); text: quote colour;
// sub: author line + site mark; accent: purely decorative strokes.

const PALETTES = [
  {
    name: "saffron",
    bg: ["#FCCB74", "#F5A443", "#EC8A35"],
    text: "#2A1202",
    sub: "#4A1E04",
    accent: "#7A2E05",
  },
  {
    name: "maroon",
    bg: ["#6E1426", "#4F0C1B", "#320713"],
    text: "#FFF3E2",
    sub: "#F1C889",
    accent: "#E2AE63",
  },
  {
    name: "indigo-night",
    bg: ["#2E3283", "#1D205A", "#0F1236"],
    text: "#F3F0FF",
    sub: "#F6CD7A",
    accent: "#E9B85C",
  },
  {
    name: "forest",
    bg: ["#1C5A41", "#134432", "#0B2E21"],
    text: "#F1F8EE",
    sub: "#E5D08E",
    accent: "#D3B96A",
  },
  { name: "sand", bg: ["#F8ECD4", "#EEDAB4", "#E2C796"], text: "#33240F", sub: "#6B3E12", accent: "#9A6328" },
  {
    name: "lotus",
    bg: ["#FCE4E8", "#F6C3CF", "#EDA1B4"],
    text: "#3F0F22",
    sub: "#7A1F3E",
    accent: "#A8405F",
  },
  {
    name: "peacock",
    bg: ["#0E6670", "#0A525B", "#063C45"],
    text: "#F0FBFA",
    sub: "#F5D58B",
    accent: "#E8C170",
  },
  {
    name: "plum-dusk",
    bg: ["#74306A", "#4F1F4B", "#2C1030"],
    text: "#FDF0F6",
    sub: "#F3C398",
    accent: "#E9A977",
  },
];
const LANG_OFFSET = { english: 0, hindi: 3, marathi: 5 };
const LANG_CODE = { english: "en", hindi: "hi", marathi: "mr" };

function luminance(hex) {
  const n = Number.parseInt(hex.slice(1), 16);
  const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
}
function contrast(a, b) {
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (l1 + 0.05) / (l2 + 0.05);
}
// Fail loudly if a palette does not give readable text on every gradient stop.
for (const p of PALETTES) {
  for (const stop of p.bg) {
    const ct = contrast(p.text, stop);
    const cs = contrast(p.sub, stop);
    if (ct < 6 || cs < 4.5) {
      throw new Error(
        `Palette ${p.name}: contrast too low on ${stop} (text ${ct.toFixed(2)}, sub ${cs.toFixed(2)})`,
      );
    }
  }
}

// ---------------------------------------------------------------- fonts

const require = createRequire(import.meta.url);
function fontFaceCss(pkg, weights, subsets) {
  const pkgDir = dirname(require.resolve(`${pkg}/package.json`));
  let out = "";
  for (const w of weights) {
    const css = readFileSync(join(pkgDir, `${w}.css`), "utf8");
    for (const block of css.match(/@font-face\s*{[^}]*}/g) ?? []) {
      const file = block.match(/url\(\.\/files\/([^)]+\.woff2)\)/)?.[1];
      if (!file || !subsets.some((s) => file.endsWith(`-${s}-${w}-normal.woff2`))) continue;
      const data = readFileSync(join(pkgDir, "files", file)).toString("base64");
      out += `${block
        .replace(/src:[^;]*;/, `src: url(data:font/woff2;base64,${data}) format('woff2');`)
        .replace(/font-display:[^;]*;/, "font-display: block;")}\n`;
    }
  }
  return out;
}
const FONT_CSS =
  fontFaceCss("@fontsource/noto-sans", [400, 700], ["latin", "latin-ext"]) +
  fontFaceCss("@fontsource/noto-sans-devanagari", [400, 700], ["devanagari", "latin", "latin-ext"]);
const EXPECTED_FACES = 2 * 2 + 3 * 2;
if ((FONT_CSS.match(/@font-face/g) ?? []).length !== EXPECTED_FACES) {
  throw new Error("Could not build @font-face rules from @fontsource packages");
}

// Code points each family can draw, from the unicode-range of its faces.
// Chromium reports a missing glyph (tofu) as drawn by the primary web font,
// so coverage is checked here before rendering.
const COVERAGE = new Map();
for (const block of FONT_CSS.match(/@font-face\s*{[^}]*}/g)) {
  const family = block.match(/font-family:\s*'([^']+)'/)[1];
  const ranges = block
    .match(/unicode-range:([^;]+);/)[1]
    .split(",")
    .map((r) => r.trim().replace(/^U\+/i, "").split("-"))
    .map(([lo, hi]) => [Number.parseInt(lo, 16), Number.parseInt(hi ?? lo, 16)]);
  COVERAGE.set(family, [...(COVERAGE.get(family) ?? []), ...ranges]);
}
function assertCovered(text, family, what) {
  const ranges = COVERAGE.get(family);
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    if (!ranges.some(([lo, hi]) => cp >= lo && cp <= hi)) {
      throw new Error(
        `${what}: "${ch}" (U+${cp.toString(16).toUpperCase().padStart(4, "0")}) is not in ${family}`,
      );
    }
  }
}

// ---------------------------------------------------------------- content

function toLines(html) {
  return decodeEntities(html.replace(/<br\s*\/?>/gi, "\n").replace(/<[^>]+>/g, ""))
    .split("\n")
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter(Boolean);
}

function extractCard(post) {
  const blocks = [...post.content.matchAll(/<(p|blockquote)\b[^>]*>([\s\S]*?)<\/\1>/gi)].map((m) => m[2]);
  if (blocks.length === 0) blocks.push(post.content);
  const lastText = toLines(blocks.at(-1)).join(" ");
  const author = blocks.length > 1 && lastText.startsWith("—") ? lastText : "";
  let lines = toLines(blocks[0]);
  if (lines.join(" ").length > MAX_QUOTE_CHARS) lines = toLines(post.excerpt);
  if (post.language !== "english") {
    // Verse convention: each half-line (ending in a danda) gets its own line.
    lines = lines.flatMap((l) => l.split(/(?<=।)\s+(?=\S)/));
  }
  if (lines.length === 0) throw new Error(`Post ${post.idNum} has no quote text`);
  // A doha half-line has a caesura at a comma; if it has to wrap, wrap there.
  const segments = lines.map((l) => (post.language === "english" ? [l] : splitAtCaesura(l)));
  return { lines: segments, author };
}

function splitAtCaesura(line) {
  let best = -1;
  for (const m of line.matchAll(/,\s+/g)) {
    const at = m.index + 1;
    if (best < 0 || Math.abs(at - line.length / 2) < Math.abs(best - line.length / 2)) best = at;
  }
  if (best < 0 || best < line.length * 0.3 || best > line.length * 0.7) return [line];
  return [line.slice(0, best), line.slice(best).trim()];
}

// ---------------------------------------------------------------- page shell

const SHELL = `<!doctype html>
<html><head><meta charset="utf-8"><style>
${FONT_CSS}
* { box-sizing: border-box; margin: 0; padding: 0; }
html, body { width: ${SIZE}px; height: ${SIZE}px; overflow: hidden; }
body { font-family: 'Noto Sans', sans-serif; -webkit-font-smoothing: antialiased; }
.card { position: relative; width: ${SIZE}px; height: ${SIZE}px; overflow: hidden;
  color: var(--text);
  background:
    radial-gradient(circle at 22% 18%, rgba(255,255,255,.20), rgba(255,255,255,0) 55%),
    radial-gradient(circle at 85% 95%, rgba(0,0,0,.16), rgba(0,0,0,0) 50%),
    linear-gradient(150deg, var(--bg1), var(--bg2) 55%, var(--bg3)); }
.ring { position: absolute; border-radius: 50%; border: 1.5px solid var(--accent); opacity: .13; }
.ring.r1 { width: 520px; height: 520px; right: -230px; bottom: -230px; }
.ring.r2 { width: 400px; height: 400px; right: -170px; bottom: -170px; }
.ring.r3 { width: 280px; height: 280px; right: -110px; bottom: -110px; }
.frame { position: absolute; inset: 24px; border: 1.5px solid var(--accent); opacity: .55; border-radius: 3px; }
.frame.inner { inset: 31px; border-width: 1px; opacity: .35; }
.gem { position: absolute; width: 9px; height: 9px; background: var(--accent); transform: rotate(45deg); opacity: .8; }
.gem.tl { left: 20px; top: 20px; } .gem.tr { right: 20px; top: 20px; }
.gem.bl { left: 20px; bottom: 20px; } .gem.br { right: 20px; bottom: 20px; }
.qmark { position: absolute; left: 54px; top: 48px; width: 72px; height: 56px; color: var(--accent); opacity: .30; }
.qmark.close { left: auto; top: auto; right: 54px; bottom: 48px; transform: rotate(180deg); opacity: .18; }
.content { position: absolute; left: 78px; right: 78px; top: 112px; bottom: 108px;
  display: flex; flex-direction: column; align-items: center; justify-content: center; text-align: center;
  overflow: hidden; }
.quote { font-weight: 700; font-size: var(--fs); line-height: 1.42; width: 100%; }
.quote:lang(hi), .quote:lang(mr) { font-family: 'Noto Sans Devanagari'; line-height: 1.62; }
.quote .line { display: block; text-wrap: balance; overflow-wrap: break-word; }
.quote.mode-a .line, .quote.mode-b .seg { white-space: nowrap; }
.quote .line + .line { margin-top: calc(var(--fs) * .28); }
.sep { display: flex; align-items: center; gap: 10px; margin: calc(var(--fs) * .62 + 6px) 0 calc(var(--fs) * .34 + 4px); color: var(--accent); }
.sep i { display: block; width: 44px; height: 1.5px; background: currentColor; opacity: .8; }
.sep b { display: block; width: 7px; height: 7px; background: currentColor; transform: rotate(45deg); }
.author { font-weight: 400; font-size: var(--afs); line-height: 1.45; color: var(--sub); text-wrap: balance; }
.author:lang(hi), .author:lang(mr) { font-family: 'Noto Sans Devanagari'; line-height: 1.6; }
.mark { position: absolute; left: 0; right: 0; bottom: 46px; text-align: center; color: var(--sub);
  font-size: 19px; line-height: 1; white-space: nowrap; }
.mark .en { font-family: 'Noto Sans'; font-weight: 700; letter-spacing: .14em; text-transform: uppercase; font-size: 15px; }
.mark .dot { font-family: 'Noto Sans'; margin: 0 .55em; opacity: .7; }
.mark .hi { font-family: 'Noto Sans Devanagari'; font-weight: 700; }
</style></head>
<body><div class="card" id="card">
  <div class="ring r1"></div><div class="ring r2"></div><div class="ring r3"></div>
  <div class="frame"></div><div class="frame inner"></div>
  <div class="gem tl"></div><div class="gem tr"></div><div class="gem bl"></div><div class="gem br"></div>
  <div class="qmark" aria-hidden="true"><svg viewBox="0 0 100 78" fill="currentColor"><path d="M22 78a22 22 0 1 1 19.6-32C37 25 26 12 8 5l3-5c28 8 42 30 33 55a22 22 0 0 1-22 23z"/><path d="M74 78a22 22 0 1 1 19.6-32C89 25 78 12 60 5l3-5c28 8 42 30 33 55a22 22 0 0 1-22 23z"/></svg></div>
  <div class="qmark close" aria-hidden="true"><svg viewBox="0 0 100 78" fill="currentColor"><path d="M22 78a22 22 0 1 1 19.6-32C37 25 26 12 8 5l3-5c28 8 42 30 33 55a22 22 0 0 1-22 23z"/><path d="M74 78a22 22 0 1 1 19.6-32C89 25 78 12 60 5l3-5c28 8 42 30 33 55a22 22 0 0 1-22 23z"/></svg></div>
  <div class="content" id="content">
    <div class="quote" id="quote"></div>
    <div class="sep" id="sep"><i></i><b></b><i></i></div>
    <div class="author txt" id="author"></div>
  </div>
  <div class="mark"><span class="en txt">Sukti</span><span class="dot txt">·</span><span class="hi txt" lang="hi">सूक्ति</span></div>
</div></body></html>`;

// Runs inside the page: fill the card, shrink the quote until it fits, and
// verify that the web fonts are loaded for the exact text being drawn.
async function fillCard({ lines, author, lang, palette }) {
  const card = document.getElementById("card");
  for (const [k, v] of Object.entries({
    "--bg1": palette.bg[0],
    "--bg2": palette.bg[1],
    "--bg3": palette.bg[2],
    "--text": palette.text,
    "--sub": palette.sub,
    "--accent": palette.accent,
  })) {
    card.style.setProperty(k, v);
  }
  const quote = document.getElementById("quote");
  const authorEl = document.getElementById("author");
  const content = document.getElementById("content");
  quote.lang = lang;
  authorEl.lang = lang;
  quote.replaceChildren(
    ...lines.map((segs) => {
      const s = document.createElement("span");
      s.className = "line txt";
      segs.forEach((seg, i) => {
        if (i > 0) s.append(" ");
        const g = document.createElement("span");
        g.className = "seg txt";
        g.textContent = seg;
        s.append(g);
      });
      return s;
    }),
  );
  authorEl.textContent = author;
  authorEl.style.display = author ? "" : "none";
  document.getElementById("sep").style.display = author ? "" : "none";

  await document.fonts.ready;
  const family = lang === "en" ? "Noto Sans" : "Noto Sans Devanagari";
  const text = lines.flat().join(" ");
  for (const [spec, sample] of [
    [`700 40px "${family}"`, text],
    [`400 20px "${family}"`, author || "—"],
    ['700 17px "Noto Sans Devanagari"', "सूक्ति"],
    ['700 14px "Noto Sans"', "SUKTI ·"],
  ]) {
    const faces = await document.fonts.load(spec, sample);
    if (
      faces.length === 0 ||
      faces.some((f) => f.status !== "loaded") ||
      !document.fonts.check(spec, sample)
    ) {
      throw new Error(`Font not loaded: ${spec} for "${sample.slice(0, 30)}"`);
    }
  }

  // Largest size that fits, in three layouts: (a) every verse line on one
  // row, (b) rows may break only at a doha's caesura, (c) free balanced
  // wrapping. Keep the verse shape unless that costs too much type size.
  const maxFs = lang === "en" ? 54 : 52;
  const minFs = 20;
  const setSize = (fs) => {
    card.style.setProperty("--fs", `${fs}px`);
    const afs = lang === "en" ? Math.min(22, Math.max(17, fs * 0.46)) : Math.min(26, Math.max(19, fs * 0.5));
    card.style.setProperty("--afs", `${Math.round(afs)}px`);
  };
  // Chromium balances at most six rows; longer paragraphs get "pretty"
  // wrapping instead so they do not end on an orphan word.
  const fits = () => {
    for (const el of quote.children) {
      el.style.textWrap = "";
      if (el.offsetHeight > 6.5 * Number.parseFloat(getComputedStyle(el).lineHeight))
        el.style.textWrap = "pretty";
    }
    return content.scrollHeight <= content.clientHeight && content.scrollWidth <= content.clientWidth;
  };
  const largestFitting = (mode) => {
    quote.className = `quote mode-${mode}`;
    for (let fs = maxFs; fs >= minFs; fs--) {
      setSize(fs);
      if (fits()) return fs;
    }
    return 0;
  };
  const size = {
    a: largestFitting("a"),
    b: lines.some((l) => l.length > 1) ? largestFitting("b") : 0,
    c: largestFitting("c"),
  };
  const best = Math.max(size.a, size.b, size.c);
  if (!best) throw new Error("Quote does not fit even at the minimum font size");
  const mode = size.a >= best * 0.85 ? "a" : size.b >= best * 0.85 ? "b" : "c";
  const fs = size[mode];
  quote.className = `quote mode-${mode}`;
  setSize(fs);
  if (!fits()) throw new Error("Layout changed after sizing");
  await document.fonts.ready;
  return { fs, mode, size };
}

// Ask Chromium which fonts actually rendered each text node; any non-web font
// means a fallback (system font or tofu) and is an error.
async function assertWebFontsUsed(cdp, lang) {
  const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
  const { nodeIds } = await cdp.send("DOM.querySelectorAll", { nodeId: root.nodeId, selector: ".txt" });
  const seen = new Set();
  for (const nodeId of nodeIds) {
    const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
    for (const f of fonts) {
      seen.add(f.familyName);
      if (!f.isCustomFont || !/^Noto Sans( Devanagari)?/.test(f.familyName)) {
        throw new Error(`Fallback font used: ${f.familyName} (${f.glyphCount} glyphs)`);
      }
    }
  }
  const want = lang === "en" ? "Noto Sans" : "Noto Sans Devanagari";
  if (![...seen].some((n) => n.startsWith(want) && (want !== "Noto Sans" || !n.includes("Devanagari")))) {
    throw new Error(`Expected ${want} to render the quote; saw ${[...seen].join(", ")}`);
  }
  return [...seen];
}

// ---------------------------------------------------------------- main

async function main() {
  const { posts } = JSON.parse(readFileSync(CONTENT_FILE, "utf8"));
  // Published posts only: a card carries its quote, and public/ is served to anyone.
  const wanted = posts.filter(
    (p) =>
      p.status === "publish" &&
      typeof p.featureImageUrl === "string" &&
      p.featureImageUrl.startsWith(CARD_PREFIX),
  );
  const jobs = wanted
    .map((post) => ({ post, file: join(PUBLIC_DIR, post.featureImageUrl) }))
    .filter(({ post }) => only.length === 0 || only.some((o) => post.featureImageUrl.includes(o)));

  let rendered = 0;
  let skipped = 0;
  const t0 = Date.now();
  const todo = jobs.filter(({ file }) => {
    if (!force && existsSync(file)) {
      skipped++;
      return false;
    }
    return true;
  });

  if (todo.length > 0) {
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({
        viewport: { width: SIZE, height: SIZE },
        deviceScaleFactor: 1,
      });
      const page = await context.newPage();
      await page.setContent(SHELL, { waitUntil: "load" });
      await page.evaluate(async () => {
        await Promise.all([...document.fonts].map((f) => f.load()));
        await document.fonts.ready;
      });
      const cdp = await context.newCDPSession(page);
      await cdp.send("DOM.enable");
      await cdp.send("CSS.enable");

      for (const { post, file } of todo) {
        const lang = LANG_CODE[post.language];
        if (!lang) throw new Error(`Post ${post.idNum}: unknown language ${post.language}`);
        const { lines, author } = extractCard(post);
        const family = lang === "en" ? "Noto Sans" : "Noto Sans Devanagari";
        assertCovered(lines.flat().join(" ") + author, family, post.featureImageUrl);
        const palette = PALETTES[(post.idNum + LANG_OFFSET[post.language]) % PALETTES.length];
        const { fs, mode, size } = await page.evaluate(fillCard, { lines, author, lang, palette });
        await assertWebFontsUsed(cdp, lang);
        mkdirSync(dirname(file), { recursive: true });
        // Chromium screenshots PNG losslessly; Skia encodes the WebP file.
        const png = await page.screenshot({ type: "png" });
        const image = await loadImage(png);
        const canvas = createCanvas(image.width, image.height);
        canvas.getContext("2d").drawImage(image, 0, 0);
        writeFileSync(file, await canvas.encode("webp", WEBP_QUALITY));
        const bytes = statSync(file).size;
        if (bytes > MAX_BYTES)
          console.warn(`  warning: ${post.featureImageUrl} is ${bytes} bytes (> ${MAX_BYTES})`);
        rendered++;
        console.log(
          `${post.featureImageUrl.padEnd(32)} ${String(bytes).padStart(6)} B  ${palette.name.padEnd(12)} ${fs}px ${mode} (a${size.a}/b${size.b}/c${size.c})  ${lines.length} line(s)`,
        );
      }
      await context.close();
    } finally {
      await browser.close();
    }
  }

  // Summary over every card file on disk for the selected posts.
  let total = 0;
  let largest = { bytes: 0, url: "" };
  let count = 0;
  for (const { post, file } of jobs) {
    if (!existsSync(file)) continue;
    const bytes = statSync(file).size;
    count++;
    total += bytes;
    if (bytes > largest.bytes) largest = { bytes, url: post.featureImageUrl };
  }
  console.log(
    `\nRendered ${rendered}, skipped ${skipped} existing (use --force to redo) in ${((Date.now() - t0) / 1000).toFixed(1)}s.`,
  );
  console.log(
    `Cards: ${count}/${jobs.length}, total ${total} bytes (${(total / 1048576).toFixed(2)} MiB), largest ${largest.url} (${largest.bytes} bytes).`,
  );
  if (count !== jobs.length) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
