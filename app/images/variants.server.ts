// Narrower copies of the site's own images (app/content/image-variants.ts),
// made on first request with @napi-rs/canvas and kept on disk like share
// images: {dir}/{hash of path}-{width}-{source mtime and size}.webp.
// Only files under public/images/ at a width of VARIANT_WIDTHS are ever read.
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { VARIANT_WIDTHS } from "#app/content/image-variants.ts";
import { projectRoot } from "#app/data/project-root.server.ts";
import { cachedFile } from "#app/images/disk-cache.server.ts";
import { loadCanvas } from "#app/share-image/canvas.server.ts";

const EXTENSIONS = new Set([".webp", ".png", ".jpg", ".jpeg"]);
const WEBP_QUALITY = 72;

/**
 * The file under public/images/ that `relative` ("images/cards/a.webp",
 * already percent-decoded) names, or null for anything else: other folders,
 * `..`, backslashes, NUL, other file types, missing files.
 */
export function sourceImage(relative: string, publicDir = path.join(projectRoot(), "public")): string | null {
  if (!relative.startsWith("images/") || /[\\\0]/.test(relative)) return null;
  if (relative.split("/").some((segment) => segment === "" || segment === "." || segment === ".."))
    return null;
  if (!EXTENSIONS.has(path.extname(relative).toLowerCase())) return null;
  const root = path.join(publicDir, "images");
  const file = path.resolve(publicDir, relative);
  if (!file.startsWith(root + path.sep)) return null;
  try {
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

export function isVariantWidth(width: number): boolean {
  return (VARIANT_WIDTHS as readonly number[]).includes(width);
}

/** The image at `width` (never wider than it is), as WebP, from the disk cache or made now. */
/** `dir`: IMAGE_VARIANT_DIR, from the parsed environment (fileCacheContext). */
export function getImageVariant(file: string, width: number, dir: string): Promise<Buffer> {
  const stat = statSync(file);
  const prefix = `${createHash("sha256").update(file).digest("hex").slice(0, 16)}-${width}-`;
  const name = `${prefix}${Math.trunc(stat.mtimeMs)}-${stat.size}.webp`;
  // A changed source gets a new name: its older variants are removed.
  return cachedFile(dir, name, prefix, async () => {
    const canvas = await loadCanvas();
    const image = await canvas.loadImage(await readFile(file));
    const scale = Math.min(1, width / image.width);
    const w = Math.max(1, Math.round(image.width * scale));
    const h = Math.max(1, Math.round(image.height * scale));
    const target = canvas.createCanvas(w, h);
    const ctx = target.getContext("2d");
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(image, 0, 0, w, h);
    return target.encode("webp", WEBP_QUALITY);
  });
}
