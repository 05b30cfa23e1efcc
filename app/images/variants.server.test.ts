import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { IMAGE_SIZES, imageSrcSet, VARIANT_WIDTHS } from "#app/content/image-variants.ts";
import { projectRoot } from "#app/data/project-root.server.ts";
import { getImageVariant, isVariantWidth, sourceImage } from "#app/images/variants.server.ts";
import { loadCanvas } from "#app/share-image/canvas.server.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-variants-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const publicDir = path.join(projectRoot(), "public");

test("only files under public/images/ of a raster type are sources; nothing else is ever read", () => {
  expect(sourceImage("images/cards/english-1.webp", publicDir)).toBe(
    path.join(publicDir, "images/cards/english-1.webp"),
  );
  for (const hostile of [
    "images/../../package.json",
    "images/cards/../../../server.js",
    "../public/images/cards/english-1.webp",
    "images//cards/english-1.webp",
    "images/./cards/english-1.webp",
    "images\\cards\\english-1.webp",
    "images/cards/english-1.webp\0.png",
    "images/default-clipart.svg",
    "images/cards/missing.webp",
    "images/cards",
    "icons/icon-512.png",
    "/etc/passwd",
    "",
  ]) {
    expect(sourceImage(hostile, publicDir), hostile).toBeNull();
  }
  expect(VARIANT_WIDTHS.every(isVariantWidth)).toBe(true);
  for (const width of [0, 1, 100, 800, 1600, 161]) expect(isVariantWidth(width), String(width)).toBe(false);
});

test("a variant is a WebP of the asked width, made once and then read from the disk cache", async () => {
  const file = sourceImage("images/cards/english-1.webp", publicDir)!;
  const first = await getImageVariant(file, 320, dir);
  const canvas = await loadCanvas();
  const image = await canvas.loadImage(first);
  expect([image.width, image.height]).toEqual([320, 320]);
  expect(first.subarray(8, 12).toString("latin1")).toBe("WEBP");
  expect(first.length).toBeLessThan(statSync(file).size);
  const [name] = readdirSync(dir);
  const made = statSync(path.join(dir, name!)).mtimeMs;
  const again = await getImageVariant(file, 320, dir);
  expect(again).toEqual(first);
  expect(statSync(path.join(dir, name!)).mtimeMs).toBe(made);
});

test("a changed source gets a new variant and its old one is removed", async () => {
  const images = path.join(dir, "public", "images");
  mkdirSync(images, { recursive: true });
  const copy = path.join(images, "a.webp");
  copyFileSync(path.join(publicDir, "images/cards/english-1.webp"), copy);
  const cache = path.join(dir, "cache");
  await getImageVariant(copy, 160, cache);
  const before = readdirSync(cache);
  copyFileSync(path.join(publicDir, "images/cards/english-2.webp"), copy);
  utimesSync(copy, new Date(), new Date(Date.now() + 5000));
  await getImageVariant(copy, 160, cache);
  const after = readdirSync(cache);
  expect(after).toHaveLength(1);
  expect(after).not.toEqual(before);
});

test("srcset lists the variants and the original; SVG and remote images have none", () => {
  expect(imageSrcSet("/images/cards/english-1.webp", 800)).toBe(
    "/img/160/images/cards/english-1.webp 160w, /img/320/images/cards/english-1.webp 320w, /img/480/images/cards/english-1.webp 480w, /img/640/images/cards/english-1.webp 640w, /images/cards/english-1.webp 800w",
  );
  for (const src of [
    "/images/default-clipart.svg",
    "https://example.org/images/a.webp",
    "/images/a,b.webp",
    "/other/a.webp",
  ]) {
    expect(imageSrcSet(src, 800), src).toBeUndefined();
  }
  expect(Object.keys(IMAGE_SIZES).sort()).toEqual(["daily", "hero", "post", "tile"]);
});
