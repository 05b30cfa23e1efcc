import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Image, SKRSContext2D } from "@napi-rs/canvas";
import { LANGUAGE_LABEL } from "#app/content/languages.ts";
import {
  SHARE_IMAGE_HEIGHT,
  SHARE_IMAGE_MAX_BYTES,
  SHARE_IMAGE_WIDTH,
  type ShareImageSource,
  shareImageVersion,
  shareText,
} from "#app/content/share-image.ts";
import { cachedFile } from "#app/data/disk-cache.server.ts";
import { projectRoot } from "#app/data/project-root.server.ts";
import { siteConfig } from "#app/site.config.ts";

// Drawn with Skia through @napi-rs/canvas, whose text goes through HarfBuzz:
// Devanagari conjuncts, reph and matras come out as in a browser. resvg-js
// 2.6.2 misplaces glyphs inside Devanagari clusters and Satori does not shape
// at all (docs/decisions/031-share-images.md).

const require = createRequire(import.meta.url);

/** The self-hosted fonts the site's pages use, registered under our own names. */
export const SHARE_FONTS = {
  devanagari: {
    family: "Sukti Share Devanagari",
    files: [
      "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2",
      "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-600-normal.woff2",
      "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-latin-400-normal.woff2",
      "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-latin-600-normal.woff2",
      "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-latin-ext-400-normal.woff2",
      "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-latin-ext-600-normal.woff2",
    ],
  },
  latin: {
    family: "Sukti Share Latin",
    files: [
      "@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff2",
      "@fontsource/noto-sans/files/noto-sans-latin-600-normal.woff2",
      "@fontsource/noto-sans/files/noto-sans-latin-ext-400-normal.woff2",
      "@fontsource/noto-sans/files/noto-sans-latin-ext-600-normal.woff2",
    ],
  },
} as const;

export function fontFilePath(specifier: string): string {
  return require.resolve(specifier);
}

// Skia costs ~40 MB of memory once loaded: load it with the first share image,
// not with the server.
type Canvas = typeof import("@napi-rs/canvas");
let canvas: Canvas | null = null;
export async function loadCanvas(): Promise<Canvas> {
  canvas ??= await import("@napi-rs/canvas");
  registerFonts(canvas.GlobalFonts);
  return canvas;
}

let fontsReady = false;
function registerFonts(GlobalFonts: Canvas["GlobalFonts"]) {
  if (fontsReady) return;
  for (const { family, files } of Object.values(SHARE_FONTS)) {
    for (const file of files) {
      const data = readFileSync(fontFilePath(file));
      if (!GlobalFonts.register(data, family)) throw new Error(`share image: cannot load font ${file}`);
      if (family === SHARE_FONTS.devanagari.family && file.includes("-latin")) {
        GlobalFonts.register(data, DEVANAGARI_LATIN);
      }
    }
  }
  fontsReady = true;
}

// ------------------------------------------------------------------ layout

const PAD_X = 96;
const BOX_TOP = 70;
const BOX_BOTTOM = 506;
const BOX_WIDTH = SHARE_IMAGE_WIDTH - 2 * PAD_X;
const FOOTER_RULE_Y = 530;
const FOOTER_BASELINE = 580;
const QUOTE_SIZES = [72, 66, 60, 56, 52, 48, 44, 40, 36];
const TEXT_COLOUR = "#fffaf0";
/** The logo's place in the footer, left of the site name. */
export const SHARE_LOGO_BOX = { x: PAD_X, y: FOOTER_BASELINE - 31, size: 40 } as const;
const ACCENT_COLOUR = "#f6cd7a";

export interface ShareTextItem {
  text: string;
  /** Left end of the text's baseline. */
  x: number;
  y: number;
  size: number;
  weight: 400 | 600;
  family: string;
  colour: string;
}

export interface ShareLayout {
  /** The quote's own lines, or the title when the quote does not fit. */
  source: "quote" | "title";
  items: ShareTextItem[];
}

interface Block {
  lines: string[];
  size: number;
}

function wrap(ctx: SKRSContext2D, text: string, width: number): string[] | null {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    const candidate = line === "" ? word : `${line} ${word}`;
    if (ctx.measureText(candidate).width <= width) {
      line = candidate;
      continue;
    }
    if (line === "" || ctx.measureText(word).width > width) return null;
    lines.push(line);
    line = word;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** The narrowest width that keeps the greedy line count: lines of even length, no lone last word. */
function balance(ctx: SKRSContext2D, text: string, width: number): string[] | null {
  const greedy = wrap(ctx, text, width);
  if (!greedy || greedy.length < 2) return greedy;
  let low = width / greedy.length;
  let high = width;
  let best = greedy;
  while (high - low > 4) {
    const middle = (low + high) / 2;
    const lines = wrap(ctx, text, middle);
    if (lines && lines.length === greedy.length) {
      best = lines;
      high = middle;
    } else {
      low = middle;
    }
  }
  return best;
}

/** The Devanagari family's own Latin files, as browsers use them for its punctuation. */
const DEVANAGARI_LATIN = "Sukti Share Devanagari Latin";

export function fontOf(size: number, weight: number, family: string) {
  // Punctuation (, — ") falls back to the Latin face: Skia does not look for
  // missing glyphs among other files registered under the same name.
  const fallback = family === SHARE_FONTS.latin.family ? "" : `, "${DEVANAGARI_LATIN}"`;
  return `${weight} ${size}px "${family}"${fallback}`;
}

/** Where every piece of text goes: the largest quote size that fits the box. */
export function layoutShareImage(ctx: SKRSContext2D, source: ShareImageSource): ShareLayout {
  if (!fontsReady) throw new Error("share image: fonts not loaded; await loadCanvas() first");
  const script = source.language === "english" ? "latin" : "devanagari";
  const family = SHARE_FONTS[script].family;
  // Matras above and below the line need more leading than Latin text.
  const leading = script === "devanagari" ? 1.5 : 1.3;
  const { quote, attribution } = shareText(source.content, source.source?.line);
  const attributionSize = 30;

  const fitBlock = (paragraphs: string[], maxLines: number): Block | null => {
    for (const size of QUOTE_SIZES) {
      ctx.font = fontOf(size, 600, family);
      const wrapped = paragraphs.map((paragraph) => balance(ctx, paragraph, BOX_WIDTH));
      if (wrapped.some((lines) => lines === null)) continue;
      const lines = wrapped.flatMap((lines) => lines ?? []);
      if (lines.length === 0 || lines.length > maxLines) continue;
      const height = lines.length * size * leading + (attribution ? size * 0.5 + attributionSize * 1.6 : 0);
      if (height <= BOX_BOTTOM - BOX_TOP) return { lines, size };
    }
    return null;
  };

  // The quote itself when it fits; else its title; a title too long even for
  // the smallest size is cut at a word.
  let sourceKind: ShareLayout["source"] = "quote";
  let block = quote.length > 0 ? fitBlock(quote, 6) : null;
  if (!block) {
    sourceKind = "title";
    const smallest = QUOTE_SIZES.at(-1)!;
    block = fitBlock([source.title], 4) ?? {
      lines: [truncate(ctx, source.title, BOX_WIDTH, { size: smallest, weight: 600, family })],
      size: smallest,
    };
  }

  const items: ShareTextItem[] = [];
  const lineHeight = block.size * leading;
  const attributionHeight = attribution ? block.size * 0.5 + attributionSize * 1.6 : 0;
  const total = block.lines.length * lineHeight + attributionHeight;
  let top = BOX_TOP + (BOX_BOTTOM - BOX_TOP - total) / 2;
  ctx.font = fontOf(block.size, 600, family);
  for (const line of block.lines) {
    const width = ctx.measureText(line).width;
    // The alphabetic baseline sits a little below the middle of the line box.
    const y = top + lineHeight / 2 + block.size * 0.36;
    items.push({
      text: line,
      x: (SHARE_IMAGE_WIDTH - width) / 2,
      y,
      size: block.size,
      weight: 600,
      family,
      colour: TEXT_COLOUR,
    });
    top += lineHeight;
  }
  if (attribution) {
    const text = `— ${attribution}`;
    const fitted = truncate(ctx, text, BOX_WIDTH, { size: attributionSize, weight: 400, family });
    const width = ctx.measureText(fitted).width;
    items.push({
      text: fitted,
      x: (SHARE_IMAGE_WIDTH - width) / 2,
      y: top + block.size * 0.5 + attributionSize,
      size: attributionSize,
      weight: 400,
      family,
      colour: ACCENT_COLOUR,
    });
  }

  const latin = SHARE_FONTS.latin.family;
  items.push({
    text: siteConfig.name,
    x: PAD_X + 52,
    y: FOOTER_BASELINE,
    size: 30,
    weight: 600,
    family: latin,
    colour: ACCENT_COLOUR,
  });
  const label = LANGUAGE_LABEL[source.language];
  const labelFamily = source.language === "english" ? latin : family;
  ctx.font = fontOf(26, 400, labelFamily);
  items.push({
    text: label,
    x: SHARE_IMAGE_WIDTH - PAD_X - ctx.measureText(label).width,
    y: FOOTER_BASELINE,
    size: 26,
    weight: 400,
    family: labelFamily,
    colour: TEXT_COLOUR,
  });
  return { source: sourceKind, items };
}

function truncate(
  ctx: SKRSContext2D,
  text: string,
  width: number,
  font: { size: number; weight: number; family: string },
): string {
  ctx.font = fontOf(font.size, font.weight, font.family);
  if (ctx.measureText(text).width <= width) return text;
  // Cut at a space, so no cluster (conjunct, matra) is ever split.
  const words = text.split(" ");
  while (words.length > 1) {
    words.pop();
    const candidate = `${words.join(" ")} …`;
    if (ctx.measureText(candidate).width <= width) return candidate;
  }
  return "…";
}

// ------------------------------------------------------------- background

/** A feature image served by this site (public/ or the build's copy of it); never a remote one. */
async function loadLocalImage(url: string): Promise<Image | null> {
  if (!url.startsWith("/") || url.startsWith("//")) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url, "http://local").pathname);
  } catch {
    return null;
  }
  for (const dir of [path.join(projectRoot(), "build", "client"), path.join(projectRoot(), "public")]) {
    const file = path.resolve(dir, `.${pathname}`);
    if (!file.startsWith(dir + path.sep)) return null;
    try {
      return await (await loadCanvas()).loadImage(await readFile(file));
    } catch {
      // Missing here or not an image: the next folder is tried.
    }
  }
  return null;
}

function drawBackground(ctx: SKRSContext2D, image: Image | null) {
  const w = SHARE_IMAGE_WIDTH;
  const h = SHARE_IMAGE_HEIGHT;
  if (image && image.width > 0 && image.height > 0) {
    // Cover the card, with margin so the blur does not fade at the edges.
    const overscan = 80;
    const scale = Math.max((w + 2 * overscan) / image.width, (h + 2 * overscan) / image.height);
    const dw = image.width * scale;
    const dh = image.height * scale;
    ctx.filter = "blur(32px)";
    ctx.drawImage(image, (w - dw) / 2, (h - dh) / 2, dw, dh);
    ctx.filter = "none";
    // Dark enough that light text reads on any card: no pixel above ~40% light.
    const shade = ctx.createLinearGradient(0, 0, 0, h);
    shade.addColorStop(0, "rgba(24, 9, 3, 0.62)");
    shade.addColorStop(1, "rgba(24, 9, 3, 0.8)");
    ctx.fillStyle = shade;
    ctx.fillRect(0, 0, w, h);
  } else {
    const base = ctx.createLinearGradient(0, 0, w, h);
    base.addColorStop(0, "#8a3412");
    base.addColorStop(0.55, "#5a1c07");
    base.addColorStop(1, "#2e0d03");
    ctx.fillStyle = base;
    ctx.fillRect(0, 0, w, h);
    const glow = ctx.createRadialGradient(w * 0.3, h * 0.2, 0, w * 0.3, h * 0.2, w * 0.7);
    glow.addColorStop(0, "rgba(246, 205, 122, 0.16)");
    glow.addColorStop(1, "rgba(246, 205, 122, 0)");
    ctx.fillStyle = glow;
    ctx.fillRect(0, 0, w, h);
  }
  ctx.fillStyle = "rgba(246, 205, 122, 0.35)";
  ctx.fillRect(PAD_X, FOOTER_RULE_Y, w - 2 * PAD_X, 2);
}

let logo: Promise<Image | null> | undefined;
function loadLogo() {
  logo ??= loadLocalImage(siteConfig.logo.src);
  return logo;
}

// ----------------------------------------------------------------- render

export interface RenderedShareImage {
  jpeg: Buffer;
  layout: ShareLayout;
  quality: number;
  milliseconds: number;
}

const QUALITIES = [84, 76, 68, 60, 50];

/** The 1200×630 JPEG of a post: its quote over its blurred feature image, or over the site's colours. */
export async function renderShareImage(source: ShareImageSource & { hasOwnImage: boolean }) {
  const started = performance.now();
  const canvas = (await loadCanvas()).createCanvas(SHARE_IMAGE_WIDTH, SHARE_IMAGE_HEIGHT);
  const ctx = canvas.getContext("2d");
  const layout = layoutShareImage(ctx, source);
  drawBackground(ctx, source.hasOwnImage ? await loadLocalImage(source.image) : null);
  const mark = await loadLogo();
  if (mark) ctx.drawImage(mark, SHARE_LOGO_BOX.x, SHARE_LOGO_BOX.y, SHARE_LOGO_BOX.size, SHARE_LOGO_BOX.size);
  ctx.textBaseline = "alphabetic";
  ctx.textAlign = "left";
  for (const item of layout.items) {
    ctx.font = fontOf(item.size, item.weight, item.family);
    ctx.fillStyle = item.colour;
    ctx.fillText(item.text, item.x, item.y);
  }
  for (const quality of QUALITIES) {
    const jpeg = await canvas.encode("jpeg", quality);
    if (jpeg.length <= SHARE_IMAGE_MAX_BYTES || quality === QUALITIES.at(-1)) {
      return {
        jpeg,
        layout,
        quality,
        milliseconds: performance.now() - started,
      } satisfies RenderedShareImage;
    }
  }
  throw new Error("unreachable");
}

// ------------------------------------------------------------------ cache

/**
 * The post's image from the disk cache, rendered on first request. Files are
 * named {language}-{idNum}-{version}.jpg; writing a new version removes the
 * post's older ones, so an edited post is rebuilt and its old image dropped.
 */
export function getShareImage(
  post: ShareImageSource & { idNum: number; hasOwnImage: boolean },
  /** SHARE_IMAGE_DIR, from the parsed environment (fileCacheContext). */
  dir: string,
): Promise<Buffer> {
  const prefix = `${post.language}-${post.idNum}-`;
  const name = `${prefix}${shareImageVersion(post)}.jpg`;
  return cachedFile(dir, name, prefix, async () => (await renderShareImage(post)).jpeg);
}
