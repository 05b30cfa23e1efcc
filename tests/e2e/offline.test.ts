// Offline reading (decision 049): a real service worker in
// Chromium, the network cut with context.setOffline.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, expect, test } from "vitest";
import { newTab, useServerAndBrowser } from "#tests/support/browser.ts";
import { runSukti } from "#tests/support/cli.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

const env = useServerAndBrowser();
const ROOT = path.resolve(import.meta.dirname, "../..");

/** The pages the worker keeps (its cache's record), read from the page. */
function keptPages(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const meta = await (await caches.open(name)).match("/__sw/meta.json");
      if (meta) for (const kept of (await meta.json()).pages as { url: string }[]) urls.push(kept.url);
    }
    return urls;
  });
}

/**
 * The worker's caches and the registration's workers (installing, waiting,
 * active: each one's state, or "-"), so a wait that times out says where the
 * new worker stopped.
 */
function workerState(page: Page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    const state = (worker: ServiceWorker | null | undefined) => worker?.state ?? "-";
    return {
      caches: await caches.keys(),
      installing: state(registration?.installing),
      waiting: state(registration?.waiting),
      active: state(registration?.active),
    };
  });
}

/** Waits until the worker controls the page (it takes over on activation). */
async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: READY_MS });
}

async function waitKept(page: Page, urls: string[]): Promise<void> {
  await expect
    .poll(() => keptPages(page), { timeout: READY_MS, interval: 250 })
    .toEqual(expect.arrayContaining(urls));
}

/** The first post cards of a page, as addresses with titles, leaving out those given. */
async function postCards(page: Page, count: number, except: string[] = []) {
  const cards = await page.locator(".post-grid .post-card-link").evaluateAll((links) =>
    links.map((link) => ({
      href: link.getAttribute("href") ?? "",
      title: link.querySelector(".post-card-title")?.textContent ?? "",
    })),
  );
  const daily = (await page.locator(".daily-link").getAttribute("href")) ?? "";
  return cards.filter((card) => card.href !== daily && !except.includes(card.href)).slice(0, count);
}

const violations = (errors: string[]) => errors.filter((error) => error.includes("securitypolicyviolation"));

test("what was read opens offline, by address and by link; anything else is the offline page in its language", async () => {
  const context = await env.browser.newContext({ serviceWorkers: "allow" });
  try {
    const { page, errors } = await newTab(context);
    const site = env.server.url;
    await page.goto(`${site}/`);
    await controlled(page);
    await page.goto(`${site}/english/home`);
    const [first, second, unread] = await postCards(page, 3);
    if (!first || !second || !unread) throw new Error("the English home lists fewer than three posts");
    // One post by its address, one by a client-side link (the worker keeps its document too).
    await page.goto(`${site}${first.href}`);
    await page.goto(`${site}/english/home`);
    await page.waitForSelector("html[data-hydrated]");
    await page.locator(`.post-grid a[href="${second.href}"]`).click();
    await expect.poll(() => page.locator("h1").textContent()).toBe(second.title);
    await page.goto(`${site}/hindi/home`);
    const [hindiUnread] = await postCards(page, 1);
    if (!hindiUnread) throw new Error("the Hindi home lists no post");
    // The Marathi home was never opened: the worker keeps every language home and its quote of the day.
    await waitKept(page, ["/", "/english/home", "/hindi/home", "/marathi/home", first.href, second.href]);
    const dailies = await page.evaluate(async () => {
      const links: string[] = [];
      for (const home of ["/english/home", "/hindi/home", "/marathi/home"]) {
        const html = await (await fetch(home)).text();
        const tag = /<a [^>]*\bdaily-link\b[^>]*>/.exec(html)?.[0] ?? "";
        links.push(/\bhref="([^"]+)"/.exec(tag)?.[1] ?? home);
      }
      return links;
    });
    await waitKept(page, dailies);
    expect(violations(errors)).toEqual([]);

    await context.setOffline(true);
    for (const post of [first, second]) {
      await page.goto(`${site}${post.href}`);
      expect(await page.locator("h1").textContent()).toBe(post.title);
      await page.waitForSelector("html[data-hydrated]"); // its scripts were kept: it hydrates
    }
    await page.goto(`${site}/`);
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    await page.goto(`${site}/marathi/home`);
    expect(await page.locator("html").getAttribute("lang")).toBe("mr");
    await page.locator(".daily-link").click();
    await page.waitForURL(`${site}${dailies[2]}`);
    await expect.poll(() => page.locator("h1").count()).toBe(1);
    expect(await page.locator("h1").textContent()).not.toBe("तुम्ही ऑफलाइन आहात");
    await page.goto(`${site}/english/home`);
    await page.waitForSelector("html[data-hydrated]");
    await page.locator(`.post-grid a[href="${first.href}"]`).click();
    await page.waitForURL(`${site}${first.href}`);
    await expect.poll(() => page.locator("h1").textContent()).toBe(first.title);
    // Client-side back to a kept language home, then to a post never read: the offline page.
    await page.locator('a[href="/english/home"]').first().click();
    await page.waitForURL(`${site}/english/home`);
    await page.locator(`.post-grid a[href="${unread.href}"]`).click();
    await expect.poll(() => page.locator("h1").textContent(), { timeout: READY_MS }).toBe("You are offline");
    expect(page.url()).toBe(`${site}${unread.href}`);

    // An unread Hindi post by its address: the offline page in Hindi, listing what can be read.
    await page.goto(`${site}${hindiUnread.href}`);
    expect(await page.locator("html").getAttribute("lang")).toBe("hi");
    expect(await page.locator("h1").textContent()).toBe("आप ऑफ़लाइन हैं");
    const listed = await page
      .locator("main li a")
      .evaluateAll((links) =>
        links.map((link) => ({ href: link.getAttribute("href"), title: link.textContent })),
      );
    expect(listed).toEqual(
      expect.arrayContaining([
        { href: first.href, title: first.title },
        { href: second.href, title: second.title },
      ]),
    );
    expect(listed.map((link) => link.href)).not.toContain(hindiUnread.href);
    // From the offline page, a listed quote opens.
    await page.locator(`main li a[href="${first.href}"]`).click();
    await expect.poll(() => page.locator("h1").textContent()).toBe(first.title);
    // A Marathi address never read.
    await page.goto(`${site}/marathi/never-read`);
    expect(await page.locator("html").getAttribute("lang")).toBe("mr");
    expect(await page.locator("h1").textContent()).toBe("तुम्ही ऑफलाइन आहात");
    expect(violations(errors)).toEqual([]);
  } finally {
    await context.close();
  }
});

test("a quote saved from a card, never opened, opens offline and is listed on /saved", async () => {
  const context = await env.browser.newContext({ serviceWorkers: "allow" });
  try {
    const { page, errors } = await newTab(context);
    const site = env.server.url;
    await page.goto(`${site}/saved/hindi`);
    await controlled(page);
    await page.goto(`${site}/hindi/home`);
    await page.waitForSelector("html[data-hydrated]");
    // The last card: the one least likely to be kept for another reason (the quote of the day).
    const cards = await postCards(page, 24);
    const card = cards.at(-1);
    if (!card) throw new Error("the Hindi home lists no post");
    await page
      .locator(`.post-card:has(a[href="${card.href}"])`)
      .getByRole("button", { name: "सहेजें", exact: true })
      .click();
    // The page tells the worker its saved quotes; the worker fetches and keeps the post.
    await waitKept(page, [new URL(card.href, site).pathname]);
    await context.setOffline(true);
    await page.goto(`${site}${card.href}`);
    expect((await page.locator("h1").textContent())?.trim()).toBe(card.title.trim());
    await page.goto(`${site}/saved/hindi`);
    await expect.poll(() => page.locator("main").textContent()).toContain(card.title.trim());
    expect(violations(errors)).toEqual([]);
  } finally {
    await context.close();
  }
});

test("a saved quote without an image shows its card on /saved, light and dark, offline too", async () => {
  const context = await env.browser.newContext({ serviceWorkers: "allow" });
  try {
    const { page, errors } = await newTab(context);
    const site = env.server.url;
    await page.goto(`${site}/saved`);
    await controlled(page);
    await page.goto(`${site}/english/home`);
    await page.waitForSelector("html[data-hydrated]");
    const card = page.locator(".post-grid .post-card:has(img.quote-card-image)").last();
    const title = ((await card.locator(".post-card-title").textContent()) ?? "").trim();
    await card.getByRole("button", { name: "Save", exact: true }).click();
    // The worker keeps the card in both schemes, as /saved shows it (not the default image).
    const keptCards = () =>
      page.evaluate(async () => {
        const cache = await caches.open((await caches.keys())[0] ?? "");
        return (await cache.keys())
          .map((request) => new URL(request.url).pathname)
          .filter((p) => p.startsWith("/card/"));
      });
    await expect
      .poll(async () => (await keptCards()).map((p) => p.split("/")[4]).sort(), {
        timeout: READY_MS,
        interval: 250,
      })
      .toEqual(expect.arrayContaining(["dark", "light"]));
    const thumbnail = page.locator(".saved-item img");
    const shown = () =>
      thumbnail.evaluate((img: HTMLImageElement) =>
        img.complete && img.naturalWidth > 0 ? img.currentSrc : "",
      );
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${site}/saved`);
      await expect.poll(() => page.locator(".saved-item h2").allTextContents()).toEqual([title]);
      await expect.poll(shown).toMatch(new RegExp(`^${site}/card/english/[0-9a-z]+/${scheme}/\\d+/`));
    }
    await context.setOffline(true);
    await page.goto(`${site}/saved`);
    await expect.poll(() => page.locator(".saved-item h2").allTextContents()).toEqual([title]);
    await expect.poll(shown).toMatch(/\/card\/english\/[0-9a-z]+\/dark\//);
    expect(violations(errors)).toEqual([]);
  } finally {
    await context.close();
  }
});

test("a page the server answered with an error is never kept as the page; an unpublished one leaves", async () => {
  const context = await env.browser.newContext({ serviceWorkers: "allow" });
  try {
    const { page } = await newTab(context);
    const site = env.server.url;
    await page.goto(`${site}/english/home`);
    await controlled(page);
    const missing = "/english/no-such-quote-here";
    const response = await page.goto(`${site}${missing}`);
    expect(response?.status()).toBe(404);
    // Also asked client-side (.data), and as a page to keep.
    await page.goto(`${site}/english/home`);
    await page.evaluate((url) => fetch(`${url}.data`).then((r) => r.status), missing);
    const kept = await page.evaluate(
      (url) =>
        new Promise((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = (event) => resolve(event.data);
          navigator.serviceWorker.controller?.postMessage({ type: "keep", url }, [channel.port2]);
        }),
      missing,
    );
    expect(kept).toEqual({ type: "kept", url: missing, ok: false });
    await waitKept(page, ["/english/home"]);
    expect(await keptPages(page)).not.toContain(missing);

    // A post read, then unpublished: the next visit online drops it, so offline it is not offered.
    const [post] = await postCards(page, 1);
    if (!post) throw new Error("the English home lists no post");
    await page.goto(`${site}${post.href}`);
    await waitKept(page, [post.href]);
    const unpublished = await runSukti(["unpublish", "english", post.href.split("/")[2] ?? ""], {
      DATABASE_URL: `file:${env.server.dbPath}`,
    });
    expect(unpublished.status, unpublished.stderr).toBe(0);
    expect((await page.goto(`${site}${post.href}`))?.status()).toBe(404);
    await expect.poll(() => keptPages(page), { timeout: READY_MS, interval: 250 }).not.toContain(post.href);

    await context.setOffline(true);
    for (const gone of [missing, post.href]) {
      await page.goto(`${site}${gone}`);
      expect(await page.locator("h1").textContent()).toBe("You are offline");
      expect(await page.locator(`main li a[href="${gone}"]`).count()).toBe(0);
    }
  } finally {
    await context.close();
  }
});

/**
 * Another build of the site: a copy of build/ with every hashed asset
 * renamed (and each reference to it), its worker naming another cache, as a
 * rebuild after a code change gives. Served from a folder of its own.
 */
function anotherBuild(): { dir: string; buildId: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-build-"));
  cpSync(path.join(ROOT, "build"), path.join(dir, "build"), { recursive: true });
  for (const name of ["server.js", "package.json"]) cpSync(path.join(ROOT, name), path.join(dir, name));
  for (const name of ["node_modules", "db"]) symlinkSync(path.join(ROOT, name), path.join(dir, name));
  const assets = path.join(dir, "build", "client", "assets");
  const renames = readdirSync(assets).map((name) => [name, name.replace(/(\.[a-z0-9]+)$/, "-2$1")] as const);
  const texts = [
    ...readdirSync(assets)
      .filter((name) => /\.(?:js|css)$/.test(name))
      .map((name) => path.join(assets, name)),
    ...readdirSync(path.join(dir, "build", "server"), { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".js"))
      .map((name) => path.join(dir, "build", "server", name)),
  ];
  for (const file of texts) {
    let text = readFileSync(file, "utf8");
    for (const [from, to] of renames) text = text.replaceAll(`/${from}`, `/${to}`);
    writeFileSync(file, text);
  }
  for (const [from, to] of renames) cpSync(path.join(assets, from), path.join(assets, to));
  for (const [from] of renames) rmSync(path.join(assets, from));
  const worker = path.join(dir, "build", "client", "sw.js");
  const source = readFileSync(worker, "utf8");
  const oldId = /sukti-([0-9a-f]{12})\b/.exec(source)?.[1];
  if (!oldId) throw new Error("the built worker does not name its cache");
  const buildId = [...oldId].reverse().join("");
  writeFileSync(worker, source.replace(`sukti-${oldId}`, `sukti-${buildId}`));
  return { dir, buildId };
}

const extraServers: RunningServer[] = [];
const extraDirs: string[] = [];
afterAll(async () => {
  for (const server of extraServers) await server.stop();
  for (const dir of extraDirs) rmSync(dir, { recursive: true, force: true });
});

test("a deploy does not blank a kept page, and a page whose assets are gone is not shown broken", async () => {
  const before = await startServer();
  extraServers.push(before);
  const next = anotherBuild();
  extraDirs.push(next.dir);
  let context: BrowserContext | undefined;
  try {
    context = await env.browser.newContext({ serviceWorkers: "allow" });
    const { page, errors } = await newTab(context);
    const site = before.url;
    await page.goto(`${site}/english/home`);
    await controlled(page);
    const [post, other] = await postCards(page, 2);
    if (!post || !other) throw new Error("the English home lists fewer than two posts");
    await page.goto(`${site}${post.href}`);
    await page.goto(`${site}${other.href}`);
    await waitKept(page, [post.href, other.href]);
    const oldCaches = await page.evaluate(() => caches.keys());

    // The deploy: the same address, the other build; the reader comes back online.
    await before.stop();
    const after = await startServer({ cwd: next.dir, port: Number(new URL(site).port) });
    extraServers.push(after);
    await page.goto(`${site}/english/home`);
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
    await expect
      .poll(() => workerState(page), { timeout: READY_MS, interval: 250 })
      .toMatchObject({ caches: [`sukti-${next.buildId}`] });
    expect(oldCaches).not.toContain(`sukti-${next.buildId}`);
    await waitKept(page, [post.href, other.href]);

    await context.setOffline(true);
    await page.goto(`${site}${post.href}`);
    expect(await page.locator("h1").textContent()).toBe(post.title);
    await page.waitForSelector("html[data-hydrated]");

    // A kept page one of whose scripts is gone: the offline page, not a page that cannot run.
    const removed = await page.evaluate(async (url) => {
      const cache = await caches.open((await caches.keys())[0] ?? "");
      const meta = await (await cache.match("/__sw/meta.json"))?.json();
      const asset = meta.pages.find((kept: { url: string }) => kept.url === url).assets[0];
      return cache.delete(asset);
    }, other.href);
    expect(removed).toBe(true);
    await page.goto(`${site}${other.href}`);
    expect(await page.locator("h1").textContent()).toBe("You are offline");
    expect(violations(errors)).toEqual([]);
  } finally {
    await context?.close();
  }
});
