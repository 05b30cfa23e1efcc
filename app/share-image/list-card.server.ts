// Draws a list card (app/share-image/list-card.ts): the quote, lines balanced,
// at the largest size that fits a square, on the site's paper (light) or its
// dark page colour (dark), with the share image's fonts and shaping. Laid out
// once on a 640 px square and drawn scaled to the width asked for, so every
// width is sharp; encoded as WebP.
import type { SKRSContext2D } from "@napi-rs/canvas";
import { cachedFile } from "#app/images/disk-cache.server.ts";
import { fontOf, loadCanvas, SHARE_FONTS } from "#app/share-image/canvas.server.ts";
import { balance, truncate } from "#app/share-image/layout.server.ts";
import {
  LIST_CARD_SIZE,
  type ListCardScheme,
  type ListCardSource,
  listCardText,
  listCardVersion,
} from "#app/share-image/list-card.ts";

const PAD = 64;
const BOX_WIDTH = LIST_CARD_SIZE - 2 * PAD;
/** Below the opening quote mark, above the closing rule. */
const BOX_TOP = 150;
const BOX_BOTTOM = 560;
const SIZES = [60, 54, 50, 46, 42, 38, 34, 30];
const MAX_LINES = 8;
/** Longer texts are not measured (an excerpt may hold 10,000 characters): the title stands in. */
const MAX_CHARS = 600;
const WEBP_QUALITY = 80;

/** The site's colours (app/styles/app.css), each text well over 7:1 on its paper. */
const PALETTES: Record<
  ListCardScheme,
  { top: string; bottom: string; text: string; mark: string; rule: string }
> = {
  light: { top: "#fffaf2", bottom: "#fbe3c8", text: "#4a1d0c", mark: "#c2410c", rule: "#e5b98c" },
  dark: { top: "#2b2019", bottom: "#17110d", text: "#f3e9dc", mark: "#f3a873", rule: "#6b4a32" },
};

export interface ListCardLayout {
  lines: string[];
  size: number;
  lineHeight: number;
  family: string;
  source: "quote" | "title";
}

export function layoutListCard(ctx: SKRSContext2D, source: ListCardSource): ListCardLayout {
  const script = source.language === "english" ? "latin" : "devanagari";
  const family = SHARE_FONTS[script].family;
  const leading = script === "devanagari" ? 1.5 : 1.3;
  // `whole`: each paragraph (a verse line) on one line of its own, or not at all.
  const fit = (paragraphs: string[], whole = false) => {
    for (const size of SIZES) {
      ctx.font = fontOf(size, 600, family);
      const wrapped = paragraphs.map((paragraph) => balance(ctx, paragraph, BOX_WIDTH));
      if (wrapped.some((lines) => lines === null)) continue;
      const lines = wrapped.flatMap((lines) => lines ?? []);
      if (lines.length === 0 || lines.length > MAX_LINES) continue;
      if (whole && lines.length !== paragraphs.length) continue;
      if (lines.some((line) => ctx.measureText(line).width > BOX_WIDTH)) continue;
      if (lines.length * size * leading <= BOX_BOTTOM - BOX_TOP)
        return { lines, size, lineHeight: size * leading, family };
    }
    return null;
  };
  const text = listCardText(source);
  // A verse keeps its lines when they fit whole at a size that still fills the card (50 of 640); else each wraps in balanced halves.
  const verse = text.length > 1 ? fit(text, true) : null;
  const quote = verse && verse.size >= 50 ? verse : text.join(" ").length <= MAX_CHARS ? fit(text) : null;
  if (quote) return { ...quote, source: "quote" };
  const title = fit([source.title]);
  if (title) return { ...title, source: "title" };
  const size = SIZES.at(-1) ?? 30;
  return {
    lines: [truncate(ctx, source.title, BOX_WIDTH, { size, weight: 600, family })],
    size,
    lineHeight: size * leading,
    family,
    source: "title",
  };
}

/** The card, `width` pixels square, as WebP. */
export async function renderListCard(
  source: ListCardSource,
  scheme: ListCardScheme,
  width: number,
): Promise<{ webp: Buffer; layout: ListCardLayout }> {
  const canvas = (await loadCanvas()).createCanvas(width, width);
  const ctx = canvas.getContext("2d");
  const layout = layoutListCard(ctx, source);
  const colours = PALETTES[scheme];
  ctx.scale(width / LIST_CARD_SIZE, width / LIST_CARD_SIZE);
  const paper = ctx.createLinearGradient(0, 0, LIST_CARD_SIZE, LIST_CARD_SIZE);
  paper.addColorStop(0, colours.top);
  paper.addColorStop(1, colours.bottom);
  ctx.fillStyle = paper;
  ctx.fillRect(0, 0, LIST_CARD_SIZE, LIST_CARD_SIZE);
  // The opening quote mark, and a short rule under the text: a card, not a page of text.
  ctx.fillStyle = colours.mark;
  ctx.font = fontOf(150, 600, SHARE_FONTS.latin.family);
  ctx.textBaseline = "alphabetic";
  ctx.fillText("“", PAD - 8, 170);
  ctx.fillStyle = colours.rule;
  ctx.fillRect(PAD, 590, 96, 4);
  ctx.fillStyle = colours.text;
  ctx.font = fontOf(layout.size, 600, layout.family);
  let top = BOX_TOP + (BOX_BOTTOM - BOX_TOP - layout.lines.length * layout.lineHeight) / 2;
  for (const line of layout.lines) {
    ctx.fillText(line, PAD, top + layout.lineHeight / 2 + layout.size * 0.36);
    top += layout.lineHeight;
  }
  return { webp: await canvas.encode("webp", WEBP_QUALITY), layout };
}

/**
 * The card from the disk cache (SHARE_IMAGE_DIR), drawn on first request:
 * card-{language}-{idNum}-{scheme}-{width}-{version}.webp; a new version
 * removes the older ones of the same post, scheme and width.
 */
export function getListCard(
  source: ListCardSource & { idNum: number },
  scheme: ListCardScheme,
  width: number,
  dir: string,
): Promise<Buffer> {
  const prefix = `card-${source.language}-${source.idNum}-${scheme}-${width}-`;
  const name = `${prefix}${listCardVersion(source)}.webp`;
  return cachedFile(dir, name, prefix, async () => (await renderListCard(source, scheme, width)).webp);
}
