// The home page's gallery (SPEC §7.2): per language, 6 random draws in
// [0, max idNum] and up to 3 published posts among them. Drawn for every
// request, by the home route's loader and by the server's fast home
// (server/home-page.ts), so both draw the same tiles from the same random
// source: both through drawGallery (app/routes/home-route.server.ts), which
// reads the store; this file only draws the ids and makes the tiles. Travels in the loader data as one JSON string, which the fast home
// can splice into a page rendered once per content version.

import type { PostSummary, Website } from "#app/content/model.ts";
import { summarize } from "#app/content/seo.ts";
import { currentSite } from "#app/site.ts";
import { LANG_TAG, LANGUAGES, type Language, MAX_ID_FIELD, postPath } from "./languages.ts";
import { drawIds, type RandomSource } from "./sampling.ts";

export interface GalleryTile {
  href: string;
  title: string;
  image: string;
  /** BCP 47 tag of the post's language. */
  lang: string;
  /** A post without its own image: the quote's opening words, shown over the clip-art ("" otherwise). */
  words: string;
}

export type Gallery = { language: Language; tiles: GalleryTile[] }[];

/** One language's draw: the ids to look for among its published posts. */
export interface GalleryDraw {
  language: Language;
  ids: number[];
}

/** Per language, the random ids in [0, its largest idNum] (SPEC §7.2). */
export function galleryDraws(website: Website, random: RandomSource): GalleryDraw[] {
  return LANGUAGES.map((language) => ({
    language,
    ids: drawIds(website[MAX_ID_FIELD[language]], random),
  }));
}

/** The tiles of each draw's published posts (`samples`, in the draws' order). */
export function galleryOf(
  draws: readonly GalleryDraw[],
  samples: readonly (readonly PostSummary[])[],
): Gallery {
  return draws.map(({ language }, index) => ({
    language,
    tiles: (samples[index] ?? []).map((post) => ({
      href: postPath(post.language, post.slug),
      title: post.title,
      image: post.featureImageUrl || currentSite().defaultImage.src,
      lang: LANG_TAG[post.language],
      words: post.featureImageUrl ? "" : openingWords(post.excerpt || post.title),
    })),
  }));
}

/**
 * Where the fast home splices each request's gallery: the loader returns this
 * token instead of a gallery when the page is rendered once as a template,
 * and the page shows it as text where the tiles go.
 */
export const GALLERY_SLOT_PREFIX = "gallery-slot-";

export function isGallerySlot(value: string): boolean {
  return value.startsWith(GALLERY_SLOT_PREFIX);
}

/** The first words of a quote (about six), cut at a word end, for a clip-art tile. */
export function openingWords(text: string, max = 48): string {
  return summarize(text, max);
}
