// The featured images `sukti sync` downloads (decision 053): kept in
// SYNCED_IMAGE_DIR, served at /images/synced/ (server/app.ts) and resized at
// /img/{width}/images/synced/… like the site's own images (app/routes/image-variant.ts).
import { statSync } from "node:fs";
import path from "node:path";

export const DEFAULT_SYNCED_IMAGE_DIR = "data/synced-images";
/** The address prefix of a synced image, without the leading slash (as the variant route sees it). */
export const SYNCED_IMAGE_PREFIX = "images/synced/";

const EXTENSIONS = new Set([".webp", ".png", ".jpg", ".jpeg"]);

/**
 * The file in `dir` that "images/synced/{host}/{name}" names (already
 * percent-decoded), or null: other paths, `..`, backslashes, NUL, other file
 * types, missing files.
 */
export function syncedImageFile(relative: string, dir: string): string | null {
  if (!relative.startsWith(SYNCED_IMAGE_PREFIX) || /[\\\0]/.test(relative)) return null;
  const rest = relative.slice(SYNCED_IMAGE_PREFIX.length);
  if (rest.split("/").some((segment) => segment === "" || segment === "." || segment === "..")) return null;
  if (!EXTENSIONS.has(path.extname(rest).toLowerCase())) return null;
  const root = path.resolve(dir);
  const file = path.resolve(root, rest);
  if (!file.startsWith(root + path.sep)) return null;
  try {
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}
