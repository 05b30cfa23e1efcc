// Where every piece of a share image's text goes (1200×630): the quote at
// the largest size that fits its box, balanced lines, the attribution, the
// site's name and the language. Measured with the canvas the image is drawn on.
import type { SKRSContext2D } from "@napi-rs/canvas";
import { LANGUAGE_LABEL } from "#app/content/languages.ts";
import { fontOf, fontsLoaded, SHARE_FONTS } from "#app/share-image/canvas.server.ts";
import { SHARE_IMAGE_WIDTH, type ShareImageSource, shareText } from "#app/share-image/content.ts";

export const PAD_X = 96;
const BOX_TOP = 70;
const BOX_BOTTOM = 506;
const BOX_WIDTH = SHARE_IMAGE_WIDTH - 2 * PAD_X;
export const FOOTER_RULE_Y = 530;
const FOOTER_BASELINE = 580;
const QUOTE_SIZES = [72, 66, 60, 56, 52, 48, 44, 40, 36];
/**
 * More characters than six lines of the box hold at the smallest size, even of
 * the narrowest letters or of Devanagari clusters of several characters each:
 * such a quote is not measured (a post's text may run to 256 KiB) and the
 * title stands in for it, as it would after measuring.
 */
const MAX_QUOTE_CHARS = 2_000;
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

/**
 * Word widths at the context's current font, each word measured once. A line's width is its
 * words' widths plus its spaces': HarfBuzz shapes no cluster across a space, so the sum is the
 * measured line's width to a fraction of a pixel (fitBlock checks the lines it keeps), and
 * wrapping at many widths costs additions, not a shaping of every candidate line.
 */
interface Words {
  words: { text: string; width: number }[];
  space: number;
}

function measureWords(ctx: SKRSContext2D, text: string): Words {
  const words = text.split(/\s+/).filter(Boolean);
  return {
    words: words.map((word) => ({ text: word, width: ctx.measureText(word).width })),
    space: ctx.measureText(" ").width,
  };
}

/** Greedy lines no wider than `width`, or null when a word alone is wider. */
function wrap({ words, space }: Words, width: number): string[] | null {
  const lines: string[] = [];
  let line: string[] = [];
  let lineWidth = 0;
  for (const { text: word, width: wordWidth } of words) {
    if (wordWidth > width) return null;
    if (line.length > 0 && lineWidth + space + wordWidth <= width) {
      line.push(word);
      lineWidth += space + wordWidth;
      continue;
    }
    if (line.length > 0) lines.push(line.join(" "));
    line = [word];
    lineWidth = wordWidth;
  }
  if (line.length > 0) lines.push(line.join(" "));
  return lines;
}

/** The narrowest width that keeps the greedy line count: lines of even length, no lone last word. */
export function balance(ctx: SKRSContext2D, text: string, width: number): string[] | null {
  const words = measureWords(ctx, text);
  const greedy = wrap(words, width);
  if (!greedy || greedy.length < 2) return greedy;
  let low = width / greedy.length;
  let high = width;
  let best = greedy;
  while (high - low > 4) {
    const middle = (low + high) / 2;
    const lines = wrap(words, middle);
    if (lines && lines.length === greedy.length) {
      best = lines;
      high = middle;
    } else {
      low = middle;
    }
  }
  return best;
}

/** Where every piece of text goes: the largest quote size that fits the box. */
export function layoutShareImage(ctx: SKRSContext2D, source: ShareImageSource): ShareLayout {
  if (!fontsLoaded()) throw new Error("share image: fonts not loaded; await loadCanvas() first");
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
      if (lines.some((line) => ctx.measureText(line).width > BOX_WIDTH)) continue;
      const height = lines.length * size * leading + (attribution ? size * 0.5 + attributionSize * 1.6 : 0);
      if (height <= BOX_BOTTOM - BOX_TOP) return { lines, size };
    }
    return null;
  };

  // The quote itself when it fits; else its title; a title too long even for
  // the smallest size is cut at a word.
  let sourceKind: ShareLayout["source"] = "quote";
  const quoteChars = quote.reduce((sum, line) => sum + line.length, 0);
  let block = quote.length > 0 && quoteChars <= MAX_QUOTE_CHARS ? fitBlock(quote, 6) : null;
  if (!block) {
    sourceKind = "title";
    const smallest = QUOTE_SIZES.at(-1);
    if (smallest === undefined) throw new Error("share image: QUOTE_SIZES is empty");
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
    text: source.brand.name,
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

export function truncate(
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
