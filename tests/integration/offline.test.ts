// The service worker's file and the manifest, over HTTP from the built
// server (decision 049); the worker itself runs in
// tests/e2e/offline.test.ts.
import { afterAll, beforeAll, expect, test } from "vitest";
import { rawRequest } from "#tests/support/raw-http.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

test("/sw.js is a script asked afresh on every update check, naming its cache by build", async () => {
  const response = await fetch(`${server.url}/sw.js`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-cache");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  const etag = response.headers.get("etag");
  expect(etag).toMatch(/^"[\w-]+"$/);
  const source = await response.text();
  expect(source).toMatch(/sukti-[0-9a-f]{12}\b/);
  // A classic script: nothing to import, so no module worker is needed.
  expect(source).not.toMatch(/^\s*import\s/m);
  // As a browser's update check asks (fetch() would add Cache-Control: no-cache to a conditional request).
  const port = Number(new URL(server.url).port);
  const again = await rawRequest(
    port,
    `GET /sw.js HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nIf-None-Match: ${etag}\r\nConnection: close\r\n\r\n`,
  );
  expect(again.status).toBe(304);
  const head = await fetch(`${server.url}/sw.js`, { method: "HEAD" });
  expect(head.status).toBe(200);
});

test("the manifest makes the site an installable app of its own scope", async () => {
  const manifest = await (await fetch(`${server.url}/manifest.webmanifest`)).json();
  expect(manifest).toMatchObject({ id: "/", start_url: "/", scope: "/", display: "standalone" });
  expect(manifest.icons.some((icon: { purpose: string }) => icon.purpose === "maskable")).toBe(true);
  // Light and dark theme colours: the manifest's one, and the pages' two meta tags.
  const html = await (await fetch(`${server.url}/english/home`)).text();
  expect(html).toContain(
    `<meta name="theme-color" content="${manifest.theme_color}" media="(prefers-color-scheme: light)"/>`,
  );
  expect(html).toMatch(
    /<meta name="theme-color" content="#[0-9a-f]{6}" media="\(prefers-color-scheme: dark\)"\/>/,
  );
  expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
});

test("pages register the worker from their scripts, not an inline one: the policy is unchanged", async () => {
  const response = await fetch(`${server.url}/`);
  const html = await response.text();
  expect(html).not.toContain("sw.js");
  const policy = response.headers.get("content-security-policy") ?? "";
  expect(policy).toContain("script-src 'self'");
  expect(policy).not.toContain("unsafe-inline");
});
