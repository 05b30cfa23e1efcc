// A post's share image from the disk cache (SHARE_IMAGE_DIR), rendered on
// first request.
import { cachedFile } from "#app/images/disk-cache.server.ts";
import { type ShareImageSource, shareImageVersion } from "#app/share-image/content.ts";
import { renderShareImage } from "#app/share-image/render.server.ts";

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
