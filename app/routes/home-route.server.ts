// The home's gallery read from the store: the home route's loader and the
// server's fast home (server/home-page.ts) both draw through here, so both
// draw the same tiles from the same random source. The draw and the tiles
// are app/content/gallery.ts's; this file only does the reads (the largest
// ids, then each language's draws among the published posts).
import { type Gallery, galleryDraws, galleryOf } from "#app/content/gallery.ts";
import { GALLERY_TILES_PER_LANGUAGE, type RandomSource } from "#app/content/sampling.ts";
import type { ContentReads } from "#app/data/store.ts";

export async function drawGallery(
  store: Pick<ContentReads, "getWebsite" | "samplePosts">,
  random: RandomSource,
): Promise<Gallery> {
  const draws = galleryDraws(await store.getWebsite(), random);
  const samples = await Promise.all(
    draws.map(({ language, ids }) => store.samplePosts(language, ids, GALLERY_TILES_PER_LANGUAGE)),
  );
  return galleryOf(draws, samples);
}
