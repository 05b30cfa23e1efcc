#!/usr/bin/env node
// Renders the site icons from the demo logo (public/images/logo.svg):
//
//   node scripts/make-icons.mjs
//
// public/favicon.ico (16, 32 and 48 px PNGs in one ICO), public/apple-touch-icon.png
// (180 px, opaque), public/icons/icon-192.png and icon-512.png (the round logo on
// transparency) and public/icons/icon-maskable-512.png (the logo inside the
// maskable safe zone, on the theme colour). Run it again after changing the logo.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createCanvas, loadImage } from "@napi-rs/canvas";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PUBLIC = join(ROOT, "public");
const THEME = "#7a2e0e";
const logo = await loadImage(readFileSync(join(PUBLIC, "images/logo.svg")));

/** The logo drawn `scale` of the square's side, centred, over `background` (or transparency). */
function icon(size, { scale = 1, background = null } = {}) {
  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext("2d");
  if (background) {
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, size, size);
  }
  const side = size * scale;
  ctx.drawImage(logo, (size - side) / 2, (size - side) / 2, side, side);
  return canvas.toBuffer("image/png");
}

/** An ICO file holding PNG images (every browser since IE 11 reads them). */
function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, index) => {
    const at = 6 + 16 * index;
    header.writeUInt8(size >= 256 ? 0 : size, at);
    header.writeUInt8(size >= 256 ? 0 : size, at + 1);
    header.writeUInt8(0, at + 2);
    header.writeUInt8(0, at + 3);
    header.writeUInt16LE(1, at + 4);
    header.writeUInt16LE(32, at + 6);
    header.writeUInt32LE(png.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map(({ png }) => png)]);
}

mkdirSync(join(PUBLIC, "icons"), { recursive: true });
writeFileSync(join(PUBLIC, "favicon.ico"), ico([16, 32, 48].map((size) => ({ size, png: icon(size) }))));
writeFileSync(join(PUBLIC, "apple-touch-icon.png"), icon(180, { scale: 0.86, background: THEME }));
writeFileSync(join(PUBLIC, "icons/icon-192.png"), icon(192));
writeFileSync(join(PUBLIC, "icons/icon-512.png"), icon(512));
// Maskable: everything that matters inside the central 80% circle.
writeFileSync(join(PUBLIC, "icons/icon-maskable-512.png"), icon(512, { scale: 0.78, background: THEME }));
console.log("icons written to public/");
