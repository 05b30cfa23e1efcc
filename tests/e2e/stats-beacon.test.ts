// Stats in Chromium: a post page's "Copy link", "Copy text" and share
// links send one beacon each (navigator.sendBeacon, allowed by the page's
// CSP), counted for the post without a cookie (decision 056).
import path from "node:path";
import Database from "better-sqlite3";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, newTab } from "#tests/support/browser.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

const READER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ env: { STATS_FLUSH_MS: "300" } }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function counts(slug: string): Record<string, number> {
  const db = new Database(path.join(server.dir, "sukti-stats.db"), { readonly: true });
  try {
    const rows = db
      .prepare(
        "SELECT kind, count FROM stats_counts WHERE bot = 0 AND language = 'english' AND item IN (?, ?)",
      )
      .all(slug, "language-home") as { kind: string; count: number }[];
    return Object.fromEntries(rows.map((row) => [row.kind, row.count]));
  } catch {
    return {};
  }
}

test("a post reached by a link, and its copy and share clicks, are counted for the post, with no cookie", async () => {
  const context = await browser.newContext({ serviceWorkers: "block", userAgent: READER });
  // The share link opens WhatsApp in a new tab: kept off the network.
  await context.route(/^https:\/\/(wa\.me|www\.facebook\.com|x\.com)\//, (route) => route.abort());
  try {
    const { page, errors } = await newTab(context);
    // The language home, then a post by its card: the browser fetches the post's data, not its page.
    await page.goto(`${server.url}/english/home`);
    await page.waitForSelector("html[data-hydrated]");
    await page.locator(".post-grid .post-card-link").first().click();
    await page.waitForURL(/\/english\/(?!home)/);
    const slug = decodeURIComponent(new URL(page.url()).pathname.split("/")[2] ?? "");
    const share = page.locator(".share");
    await share.getByRole("button", { name: "Copy link" }).click();
    await share.getByRole("button", { name: "Copy text" }).click();
    const popup = context.waitForEvent("page");
    await share.getByRole("link", { name: "WhatsApp" }).click();
    await (await popup).close();
    await expect
      .poll(() => counts(slug), { timeout: READY_MS })
      .toEqual({ page: 1, post: 1, "copy-link": 1, "copy-text": 1, "share-whatsapp": 1 });
    expect(await context.cookies()).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
