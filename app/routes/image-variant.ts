import { notFoundResponse } from "#app/content/feeds.ts";
import { fileCacheContext } from "#app/context.ts";
import { SYNCED_IMAGE_PREFIX, syncedImageFile } from "#app/data/synced-images.server.ts";
import { getImageVariant, isVariantWidth, sourceImage } from "#app/images/variants.server.ts";
import type { Route } from "./+types/image-variant";

/**
 * /img/{width}/images/…: one of the site's images resized to a width of
 * VARIANT_WIDTHS (app/content/image-variants.ts), as WebP, for `srcset`.
 * Anything else, or an image that is not there, is a plain 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const width = /^[1-9][0-9]{1,3}$/.test(params.width) ? Number(params.width) : 0;
  const relative = params["*"] ?? "";
  const caches = context.get(fileCacheContext);
  // Featured images `sukti sync` downloaded live in their own folder (decision 053).
  const file = !isVariantWidth(width)
    ? null
    : relative.startsWith(SYNCED_IMAGE_PREFIX)
      ? caches.syncedImages
        ? syncedImageFile(relative, caches.syncedImages)
        : null
      : sourceImage(relative);
  if (!file) throw notFoundResponse();
  const webp = await getImageVariant(file, width, caches.imageVariants);
  return new Response(new Uint8Array(webp), {
    headers: {
      "Content-Type": "image/webp",
      "Content-Length": String(webp.length),
      // The same address gives the same image until its file changes: a day, as the pages' own files.
      "Cache-Control": "public, max-age=86400",
    },
  });
}
