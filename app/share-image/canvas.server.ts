// Skia (@napi-rs/canvas), loaded once, with the self-hosted fonts the site's
// pages use registered under our own names: what share images draw with,
// and what resized images (app/images/variants.server.ts) encode with.
// Skia's text goes through HarfBuzz: Devanagari conjuncts, reph and matras
// come out as in a browser. resvg-js 2.6.2 misplaces glyphs inside
// Devanagari clusters and Satori does not shape at all
// (docs/decisions/031-share-images.md).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

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
/** Whether loadCanvas() has registered the fonts (layout needs them to measure). */
export function fontsLoaded(): boolean {
  return fontsReady;
}

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

/** The Devanagari family's own Latin files, as browsers use them for its punctuation. */
const DEVANAGARI_LATIN = "Sukti Share Devanagari Latin";

export function fontOf(size: number, weight: number, family: string) {
  // Punctuation (, — ") falls back to the Latin face: Skia does not look for
  // missing glyphs among other files registered under the same name.
  const fallback = family === SHARE_FONTS.latin.family ? "" : `, "${DEVANAGARI_LATIN}"`;
  return `${weight} ${size}px "${family}"${fallback}`;
}
