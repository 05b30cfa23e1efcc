import { notFoundResponse } from "#app/content/feeds.ts";
import { fileCacheContext } from "#app/context.ts";
import { getImageVariant, isVariantWidth, sourceImage } from "#app/data/image-variants.server.ts";
import type { Route } from "./+types/image-variant";

/**
 * /img/{width}/images/…: one of the site's images resized to a width of
 * VARIANT_WIDTHS (app/content/image-variants.ts), as WebP, for `srcset`.
 * Anything else, or an image that is not there, is a plain 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const width = /^[1-9][0-9]{1,3}$/.test(params.width) ? Number(params.width) : 0;
  const file = isVariantWidth(width) ? sourceImage(params["*"] ?? "") : null;
  if (!file) throw notFoundResponse();
  const webp = await getImageVariant(file, width, context.get(fileCacheContext).imageVariants);
  return new Response(new Uint8Array(webp), {
    headers: {
      "Content-Type": "image/webp",
      "Content-Length": String(webp.length),
      // The same address gives the same image until its file changes: a day, as the pages' own files.
      "Cache-Control": "public, max-age=86400",
    },
  });
}
