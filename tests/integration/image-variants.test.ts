// Decision 038: list images come in sizes that fit. The built server answers
// /img/{width}/images/… with a WebP of that width (made once, then from its
// disk cache), and nothing else: other widths, other folders, traversal in
// any spelling and missing files are a plain 404. Pages offer the variants
// through srcset and sizes.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { LIST_IMAGE_SIZES } from "#app/content/list-image-sizes.ts";
import { getHtml } from "#tests/support/html.ts";
import { rawRequest } from "#tests/support/raw-http.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

let server: RunningServer;
const variants = mkdtempSync(path.join(tmpdir(), "sukti-variants-"));
beforeAll(async () => {
  server = await startServer({ env: { IMAGE_VARIANT_DIR: variants } });
});
afterAll(async () => {
  await server?.stop();
  rmSync(variants, { recursive: true, force: true });
});

const get = (target: string) =>
  rawRequest(
    Number(new URL(server.url).port),
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
  );

test("a variant is a WebP of the asked width, cached on disk and by the browser for a day", async () => {
  const response = await fetch(`${server.url}/img/320/images/cards/english-1.webp`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("image/webp");
  expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
  // Raster images go out without a CSP (security.ts); pages keep theirs.
  expect(response.headers.get("content-security-policy")).toBeNull();
  const file = await fetch(`${server.url}/images/cards/english-1.webp`);
  expect(file.headers.get("content-security-policy")).toBeNull();
  expect(file.headers.get("x-content-type-options")).toBe("nosniff");
  expect((await fetch(`${server.url}/english/home`)).headers.get("content-security-policy")).toMatch(
    /style-src 'self' 'sha256-/,
  );
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect(Buffer.from(bytes.subarray(8, 12)).toString("latin1")).toBe("WEBP");
  // VP8/VP8L/VP8X header: the width is in the bitstream; the file is far smaller than the 800 px original.
  const original = await (await fetch(`${server.url}/images/cards/english-1.webp`)).arrayBuffer();
  expect(bytes.length).toBeLessThan(original.byteLength / 2);
  const again = new Uint8Array(
    await (await fetch(`${server.url}/img/320/images/cards/english-1.webp`)).arrayBuffer(),
  );
  expect(Buffer.from(again).equals(bytes)).toBe(true);
});

test("anything but a site image at a listed width is a plain 404", async () => {
  for (const target of [
    "/img/321/images/cards/english-1.webp",
    "/img/800/images/cards/english-1.webp",
    "/img/0320/images/cards/english-1.webp",
    "/img/320/images/cards/missing.webp",
    "/img/320/images/default-clipart.svg",
    "/img/320/icons/icon-512.png",
    "/img/320/images/%2e%2e/%2e%2e/package.json",
    "/img/320/images/..%2f..%2fpackage.json",
    "/img/320/images/cards/..%5c..%5cserver.js",
    "/img/320/images/cards/english-1.webp%00.png",
    "/img/320/",
    "/img/abc/images/cards/english-1.webp",
  ]) {
    const response = await get(target);
    expect(response.status, target).toBe(404);
    expect(response.body.toString(), target).not.toMatch(/"name"|require\(|import /);
  }
});

test("list pages offer each local image in sizes that fit, through srcset and sizes", async () => {
  const { doc } = await getHtml(`${server.url}/english/home`);
  const images = doc.querySelectorAll("img.post-card-image");
  const local = images.filter((img) => img.getAttribute("src")?.startsWith("/images/cards/"));
  expect(local.length).toBeGreaterThan(3);
  for (const img of local) {
    const src = img.getAttribute("src")!;
    expect(img.getAttribute("srcset")).toBe(
      [160, 320, 480, 640]
        .map((w) => `/img/${w}${src} ${w}w`)
        .concat(`${src} 800w`)
        .join(", "),
    );
    // The list's layout at each width (decision 064; tests/e2e/image-sizes.test.ts checks them in Chromium).
    expect(img.getAttribute("sizes")).toBe(LIST_IMAGE_SIZES.card);
  }
  // A post without an image shows its quote card in a list, not the clip-art (decision 064).
  expect(images.filter((img) => img.getAttribute("src")?.endsWith(".svg"))).toEqual([]);
  const cards = images.filter((img) => img.getAttribute("src")?.startsWith("/card/english/"));
  expect(cards.length).toBeGreaterThan(0);
  for (const img of cards) expect(img.getAttribute("sizes")).toBe(LIST_IMAGE_SIZES.card);
  // Every variant a page names answers.
  const first = local[0]!.getAttribute("srcset")!.split(", ")[0]!.split(" ")[0]!;
  expect((await fetch(`${server.url}${first}`)).status).toBe(200);
});

test("variants are kept in IMAGE_VARIANT_DIR, one file per image and width", () => {
  const files = readdirSync(variants).filter((name) => name.endsWith(".webp"));
  expect(files.length).toBeGreaterThanOrEqual(1);
  expect(files.every((name) => /^[0-9a-f]{16}-(160|320|480|640)-\d+-\d+\.webp$/.test(name))).toBe(true);
});
