// `sukti sync` seen by the built server (decision 053): a synced post's page
// shows its featured image from the local copy (SYNCED_IMAGE_DIR, served at
// /images/synced/) with resized variants (/img/{width}/images/synced/…), and a
// post that vanished from the WordPress site is gone from the running site
// after the next run. The remote site is the loopback stub (tests/support/wp-rest-stub.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { syncSite } from "#cli/sync.ts";
import { rawRequest } from "#tests/support/raw-http.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";
import { PNG, startWpStub, type WpStub } from "#tests/support/wp-rest-stub.ts";

let dir: string;
let site: WpStub;
let server: RunningServer;
let dbPath: string;
let imageDir: string;

const sync = () =>
  syncSite({
    siteUrl: site.url,
    databaseUrl: `file:${dbPath}`,
    imageDir,
    language: "english",
    client: { backoffMs: 50, log: () => {} },
  });

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-sync-server-"));
  dbPath = path.join(dir, "sukti.db");
  imageDir = path.join(dir, "synced-images");
  site = await startWpStub();
  const report = await sync();
  expect(report.created).toBe(5);
  server = await startServer({
    dbPath,
    env: { SYNCED_IMAGE_DIR: imageDir, IMAGE_VARIANT_DIR: path.join(dir, "variants") },
  });
});
afterAll(async () => {
  await server?.stop();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a synced post shows its downloaded image, served and resized by the site", async () => {
  const page = await fetch(`${server.url}/english/the-river-and-its-waves`);
  expect(page.status).toBe(200);
  const html = await page.text();
  const src = /<img[^>]+src="(\/images\/synced\/[^"]+\.png)"/.exec(html)?.[1];
  expect(src).toBeDefined();
  expect(html).toContain(`/img/320${src} 320w`);
  const original = await fetch(`${server.url}${src}`);
  expect(original.status).toBe(200);
  expect(original.headers.get("content-type")).toBe("image/png");
  expect(Buffer.from(await original.arrayBuffer())).toEqual(PNG);
  const variant = await fetch(`${server.url}/img/160${src}`);
  expect(variant.status).toBe(200);
  expect(variant.headers.get("content-type")).toBe("image/webp");
  // Nothing outside the folder, in any spelling.
  const port = Number(new URL(server.url).port);
  for (const target of [
    "/images/synced/%2e%2e/sukti.db",
    "/img/160/images/synced/..%2f..%2fsukti.db",
    "/img/160/images/synced/missing.png",
  ]) {
    const response = await rawRequest(
      port,
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(response.status, target).toBe(404);
  }
});

test("a post trashed in WordPress is gone from the running site after the next run", async () => {
  expect((await fetch(`${server.url}/english/be-still`)).status).toBe(200);
  (site.posts.find((p) => p.id === 14) as Record<string, unknown>).status = "trash";
  const report = await sync();
  expect(report.unpublished).toBe(1);
  // The server sees the commit within a second (decision 048): poll, never sleep a fixed time.
  let status = 200;
  for (let tries = 0; tries < 100 && status === 200; tries++) {
    status = (await fetch(`${server.url}/english/be-still`)).status;
    if (status === 200) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(status).toBe(404);
});
