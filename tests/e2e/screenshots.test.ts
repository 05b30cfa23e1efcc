// Decision 038, "Screenshots" (and decision 064: a list of posts without an image, the home
// gallery and the quote of the day at 320 px): every kind of page at 320, 360 and 1280 px, light and
// dark, saved under test-results/screenshots/ for a person to review. Each
// shot is also checked: the page answers 200 (404 where meant), nothing
// scrolls sideways, every image it shows has loaded, and the console is clean.
// A page is loaded once per width and shot in both schemes: dark mode is CSS
// alone (prefers-color-scheme), so switching the emulated scheme re-styles the
// loaded page as a load in that scheme would.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, expect, test } from "vitest";
import { newTab, useServerAndBrowser } from "#tests/support/browser.ts";
import { openReadonly } from "#tests/support/db.ts";

const env = useServerAndBrowser();
const DIR = path.resolve("test-results/screenshots");
const WIDTHS = [320, 360, 1280] as const;
/** Phones (decision 064): parts of a page shot on their own at 320 px, where a phone shows them. */
const PARTS: Record<string, { name: string; selector: string }[]> = {
  home: [{ name: "home-gallery", selector: ".gallery" }],
  "hindi-home": [{ name: "quote-of-the-day", selector: ".daily" }],
};

/** The images in view settled (loaded or failed): after a load, and after a scheme picks other sources. */
function imagesInViewSettled() {
  return [...document.images]
    .filter((img) => img.getBoundingClientRect().top < window.innerHeight)
    .every((img) => img.complete);
}

let pages: { name: string; path: string; status: number }[] = [];
beforeAll(() => {
  mkdirSync(DIR, { recursive: true });
  const db = openReadonly(env.server.dbPath);
  const post = (withImage: boolean) =>
    db
      .prepare(
        `SELECT language, slug FROM posts WHERE status = 'publish' AND language = 'hindi'
         AND (feature_image_url <> '') = ? ORDER BY post_time DESC LIMIT 1`,
      )
      .get(withImage ? 1 : 0) as { language: string; slug: string } | undefined;
  const withImage = post(true)!;
  const withoutImage =
    post(false) ??
    (db
      .prepare(`SELECT language, slug FROM posts WHERE status = 'publish' AND feature_image_url = '' LIMIT 1`)
      .get() as {
      language: string;
      slug: string;
    });
  // The tag with the most posts without an image, whose list shows their quote cards (decision 064).
  const imagelessTag = db
    .prepare(
      `SELECT t.slug FROM terms t JOIN post_terms pt ON pt.term_id = t.id
       JOIN posts p ON p.id = pt.post_id AND p.status = 'publish' AND p.feature_image_url = ''
       WHERE t.kind = 'tag' GROUP BY t.id ORDER BY count(*) DESC, t.id LIMIT 1`,
    )
    .get() as { slug: string };
  db.close();
  pages = [
    { name: "home", path: "/", status: 200 },
    { name: "english-home", path: "/english/home", status: 200 },
    { name: "hindi-home", path: "/hindi/home", status: 200 },
    { name: "marathi-home", path: "/marathi/home", status: 200 },
    {
      name: "post-with-image",
      path: `/${withImage.language}/${encodeURIComponent(withImage.slug)}`,
      status: 200,
    },
    {
      name: "post-without-image",
      path: `/${withoutImage.language}/${encodeURIComponent(withoutImage.slug)}`,
      status: 200,
    },
    { name: "search-hits", path: "/search/love", status: 200 },
    { name: "search-none", path: "/search/zzzz", status: 200 },
    { name: "tags", path: "/tags", status: 200 },
    { name: "list-without-images", path: `/tag/${encodeURIComponent(imagelessTag.slug)}`, status: 200 },
    { name: "people", path: "/people", status: 200 },
    { name: "person", path: "/people/kabir", status: 200 },
    { name: "not-found", path: "/hindi/no-such-post", status: 404 },
  ];
});

for (const width of WIDTHS) {
  test(`at ${width} px: every kind of page, light and dark, saved and checked`, async () => {
    const { page, errors } = await newTab(env.context, {
      viewport: { width, height: width < 1000 ? 780 : 900 },
    });
    for (const { name, path: address, status } of pages) {
      const response = await page.goto(`${env.server.url}${address}`, { waitUntil: "load" });
      expect(response?.status(), address).toBe(status);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      // The images in view settled (loaded or failed), so each shot shows what a visitor sees.
      await page.waitForFunction(imagesInViewSettled);
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        // A quote card's <picture> has a dark source: the scheme changes what is loaded.
        await page.waitForFunction(imagesInViewSettled);
        const state = await page.evaluate(() => ({
          dark: matchMedia("(prefers-color-scheme: dark)").matches,
          sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          // Images in view that failed to load (a lazy one below the fold has not been asked for yet).
          broken: [...document.images]
            .filter((img) => img.getBoundingClientRect().top < window.innerHeight && img.complete)
            .filter((img) => img.naturalWidth === 0)
            .map((img) => img.currentSrc || img.src),
        }));
        expect(state.dark, `${address} in ${colorScheme}`).toBe(colorScheme === "dark");
        expect(state.sideways, `${address} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0);
        expect(state.broken, `${address} at ${width}px`).toEqual([]);
        await page.screenshot({
          path: path.join(DIR, `${name}-${width}-${colorScheme}.jpg`),
          type: "jpeg",
          quality: 80,
        });
        for (const part of width === 320 ? (PARTS[name] ?? []) : []) {
          const element = page.locator(part.selector).first();
          await element.scrollIntoViewIfNeeded();
          await page.waitForFunction(imagesInViewSettled);
          await element.screenshot({
            path: path.join(DIR, `${part.name}-${width}-${colorScheme}.jpg`),
            type: "jpeg",
            quality: 80,
          });
          await page.evaluate(() => window.scrollTo(0, 0));
        }
      }
    }
    expect(errors).toEqual([]);
    await page.close();
  });
}

// Search corners (decision 065): an empty search at 360 px, light and
// dark, its message under the field and the menu free; and a filtered results page.
test("at 360 px: an empty search's message, and results in one language, light and dark", async () => {
  const { page, errors } = await newTab(env.context, { viewport: { width: 360, height: 780 } });
  await page.goto(`${env.server.url}/`, { waitUntil: "load" });
  await page.waitForSelector("html[data-hydrated]");
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.getByRole("searchbox", { name: "Search quotes" }).press("Enter");
  await expect.poll(() => page.getByRole("alert").count()).toBe(1);
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({
      path: path.join(DIR, `search-empty-message-360-${colorScheme}.jpg`),
      type: "jpeg",
      quality: 80,
    });
  }
  await page.goto(`${env.server.url}/search/${encodeURIComponent("प्रेम")}?language=hindi`, {
    waitUntil: "load",
  });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways).toBeLessThanOrEqual(0);
    await page.screenshot({
      path: path.join(DIR, `search-hindi-360-${colorScheme}.jpg`),
      type: "jpeg",
      quality: 80,
    });
  }
  expect(errors).toEqual([]);
  await page.close();
});

// People (decision 066): /people whole, with its counts per
// language and each person's line, and the menu's People item marked.
test("/people in full at 320 and 1280 px, light and dark, with People marked in the menu", async () => {
  for (const width of [320, 1280] as const) {
    const { page, errors } = await newTab(env.context, {
      viewport: { width, height: width < 1000 ? 780 : 900 },
    });
    const response = await page.goto(`${env.server.url}/people`, { waitUntil: "load" });
    expect(response?.status()).toBe(200);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    expect(await page.locator('.main-menu a[href="/people"]').getAttribute("aria-current")).toBe("page");
    expect(await page.locator(".people-list .person-about").count()).toBeGreaterThan(10);
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(sideways, `/people at ${width}px scrolls sideways`).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: path.join(DIR, `people-full-${width}-${colorScheme}.jpg`),
        type: "jpeg",
        quality: 80,
        fullPage: true,
      });
    }
    expect(errors).toEqual([]);
    await page.close();
  }
});

// Every page in the page's language (decision 067): the Hindi
// privacy policy, reached from a Hindi page's footer, at 360 px.
test("a Hindi site page, from a Hindi post's footer, at 360 px, light and dark", async () => {
  const { page, errors } = await newTab(env.context, { viewport: { width: 360, height: 780 } });
  await page.goto(`${env.server.url}/hindi/home`, { waitUntil: "load" });
  await page.locator(".site-footer a", { hasText: "गोपनीयता नीति" }).click();
  await page.waitForURL(/\/post\/privacy-policy\?lang=hi$/);
  // The URL changes before React commits the page: the policy's own title says it is shown.
  await expect.poll(() => page.locator("h1").textContent()).toBe("गोपनीयता नीति");
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  expect(await page.locator("html").getAttribute("lang")).toBe("hi");
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways).toBeLessThanOrEqual(0);
    await page.screenshot({
      path: path.join(DIR, `site-page-hindi-360-${colorScheme}.jpg`),
      type: "jpeg",
      quality: 80,
    });
  }
  expect(errors).toEqual([]);
  await page.close();
});
