// Draws a post's share image: its blurred feature image (or the site's
// colours), the logo and the text where layout.server.ts put it, then a JPEG
// under WhatsApp's size limit.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Image, SKRSContext2D } from "@napi-rs/canvas";
import { projectRoot } from "#app/data/project-root.server.ts";
import { fontOf, loadCanvas } from "#app/share-image/canvas.server.ts";
import {
  SHARE_IMAGE_HEIGHT,
  SHARE_IMAGE_MAX_BYTES,
  SHARE_IMAGE_WIDTH,
  type ShareImageSource,
} from "#app/share-image/content.ts";
import {
  FOOTER_RULE_Y,
  layoutShareImage,
  PAD_X,
  SHARE_LOGO_BOX,
  type ShareLayout,
} from "#app/share-image/layout.server.ts";

/** A feature image served by this site (public/ or the build's copy of it); never a remote one. */
async function loadLocalImage(url: string): Promise<Image | null> {
  if (!url.startsWith("/") || url.startsWith("//")) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url, "http://local").pathname);
  } catch {
    return null;
  }
  for (const dir of [path.join(projectRoot(), "build", "client"), path.join(projectRoot(), "public")]) {
    const file = path.resolve(dir, `.${pathname}`);
    if (!file.startsWith(dir + path.sep)) return null;
    try {
      return await (await loadCanvas()).loadImage(await readFile(file));
    } catch {
      // Missing here or not an image: the next folder is tried.
    }
  }
  return null;
}

function drawBackground(ctx: SKRSContext2D, image: Image | null) {
  const w = SHARE_IMAGE_WIDTH;
  const h = SHARE_IMAGE_HEIGHT;
  if (image && image.width > 0 && image.height > 0) {
    // Cover the card, with margin so the blur does not fade at the edges.
    const overscan = 80;
    const scale = Math.max((w + 2 * overscan) / image.width, (h + 2 * overscan) / image.height);
    const dw = image.width * scale;
    const dh = image.height * scale;
    ctx.filter = "blur(32px)";
    ctx.drawImage(image, (w - dw) / 2, (h - dh) / 2, dw, dh);
    ctx.filter = "none";
    // Dark enough that light text reads on any card: no pixel above ~40% light.
    const shade = ctx.createLinearGradient(0, 0, 0, h);
    shade.addColorStop(0, "rgba(24, 9, 3, 0.62)");
    shade.addColorStop(1, "rgba(24, 9, 3, 0.8)");
    ctx.fillStyle = shade;
    ctx.fillRect(0, 0, w, h);
  } else {
    const base = ctx.createLinearGradient(0, 0, w, h);
    base.addColorStop(0, "#8a3412");
    base.addColorStop(0.55, "#5a1c07");
    base.addColorStop(1, "#2e0d03");
    ctx.fillStyle = base;
    ctx.fillRect(0, 0, w, h);
    const glow = ctx.createRadialGradient(w * 0.3, h * 0.2, 0, w * 0.3, h * 0.2, w * 0.7);
    glow.addColorStop(0, "rgba(246, 205, 122, 0.16)");
    glow.addColorStop(1, "rgba(246, 205, 122, 0)");
    ctx.fillStyle = glow;
    ctx.fillRect(0, 0, w, h);
  }
  ctx.fillStyle = "rgba(246, 205, 122, 0.35)";
  ctx.fillRect(PAD_X, FOOTER_RULE_Y, w - 2 * PAD_X, 2);
}

/** The logo, read once per address (a reload may name another: decision 055). */
const logos = new Map<string, Promise<Image | null>>();
function loadLogo(src: string) {
  let logo = logos.get(src);
  if (!logo) {
    if (logos.size >= 8) logos.clear();
    logo = loadLocalImage(src);
    logos.set(src, logo);
  }
  return logo;
}

export interface RenderedShareImage {
  jpeg: Buffer;
  layout: ShareLayout;
  quality: number;
  milliseconds: number;
}

const QUALITIES = [84, 76, 68, 60, 50];

/** The 1200×630 JPEG of a post: its quote over its blurred feature image, or over the site's colours. */
export async function renderShareImage(source: ShareImageSource & { hasOwnImage: boolean }) {
  const started = performance.now();
  const canvas = (await loadCanvas()).createCanvas(SHARE_IMAGE_WIDTH, SHARE_IMAGE_HEIGHT);
  const ctx = canvas.getContext("2d");
  const layout = layoutShareImage(ctx, source);
  drawBackground(ctx, source.hasOwnImage ? await loadLocalImage(source.image) : null);
  const mark = await loadLogo(source.brand.logo);
  if (mark) ctx.drawImage(mark, SHARE_LOGO_BOX.x, SHARE_LOGO_BOX.y, SHARE_LOGO_BOX.size, SHARE_LOGO_BOX.size);
  ctx.textBaseline = "alphabetic";
  ctx.textAlign = "left";
  for (const item of layout.items) {
    ctx.font = fontOf(item.size, item.weight, item.family);
    ctx.fillStyle = item.colour;
    ctx.fillText(item.text, item.x, item.y);
  }
  for (const quality of QUALITIES) {
    const jpeg = await canvas.encode("jpeg", quality);
    if (jpeg.length <= SHARE_IMAGE_MAX_BYTES || quality === QUALITIES.at(-1)) {
      return {
        jpeg,
        layout,
        quality,
        milliseconds: performance.now() - started,
      } satisfies RenderedShareImage;
    }
  }
  throw new Error("unreachable");
}
