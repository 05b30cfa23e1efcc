// The quote card a post without an image shows in lists (decision 064): a square
// drawn by the share image's renderer (Skia, the site's fonts), light and dark,
// at the widths a list picks from by `srcset`. What it shows and the address
// that names it; pure and isomorphic, so the page (server and browser) and the
// route (app/routes/list-card.ts) compute the same version from a post's summary.
import type { Language } from "#app/content/languages.ts";
import { verseLines } from "#app/content/verse-lines.ts";
import { cyrb53 } from "#app/share-image/content.ts";

/** Bump when the drawing changes, so every cached card and address is renewed. */
export const LIST_CARD_RENDERER_VERSION = 1;
/** The widths a card is drawn at: as the site's resized images (a list card at 1×, 2× and 3×). */
export const LIST_CARD_WIDTHS = [160, 320, 480, 640] as const;
export const LIST_CARD_SCHEMES = ["light", "dark"] as const;
export type ListCardScheme = (typeof LIST_CARD_SCHEMES)[number];
/** The largest width: what `src` names for a browser without srcset. */
export const LIST_CARD_SIZE = 640;

export interface ListCardSource {
  language: Language;
  slug: string;
  title: string;
  /** The post's excerpt (its quote, as plain text); "" when it has none: the title stands in. */
  excerpt: string;
}

/** The card's lines: the excerpt's verse lines, else the excerpt, else the title. */
export function listCardText(source: ListCardSource): string[] {
  const lines = verseLines(source.excerpt);
  return lines.length > 0 ? lines : verseLines(source.title);
}

/** A short hash of everything the card is drawn from: a new text is a new address. */
export function listCardVersion(source: ListCardSource): string {
  const key = JSON.stringify([
    LIST_CARD_RENDERER_VERSION,
    source.language,
    source.slug.normalize("NFC"),
    source.title,
    source.excerpt,
  ]);
  return cyrb53(key).toString(36).padStart(11, "0");
}

/** `/card/{language}/{version}/{scheme}/{width}/{slug}.webp`: the version makes the address immutable. */
export function listCardPath(
  source: Pick<ListCardSource, "language" | "slug">,
  version: string,
  scheme: ListCardScheme,
  width: number,
): string {
  return `/card/${source.language}/${version}/${scheme}/${width}/${encodeURIComponent(source.slug)}.webp`;
}

/** The card's srcset in one scheme (every width). */
export function listCardSrcSet(
  source: Pick<ListCardSource, "language" | "slug">,
  version: string,
  scheme: ListCardScheme,
): string {
  return LIST_CARD_WIDTHS.map((width) => `${listCardPath(source, version, scheme, width)} ${width}w`).join(
    ", ",
  );
}
