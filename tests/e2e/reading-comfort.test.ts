// Decision 051: text size and Roman letters, in Chromium
// against the built server. Text size: the buttons change the reading text's
// computed size in at least 4 steps, the step survives a reload and is right
// from the first paint (no layout shift), nothing scrolls sideways at 320 px
// at the largest step, and without JavaScript the buttons are not shown.
// Roman letters: the <details> opens and closes without JavaScript, and with
// it the choice is remembered on the next post (loaded or moved to).
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { newPage, useServerAndBrowser } from "#tests/support/browser.ts";

const env = useServerAndBrowser();

/**
 * Before the page's own scripts: the post text's computed size the moment
 * the parser inserts it (what the first paint shows), and the layout shifts
 * of the load.
 */
const WATCH_FIRST_PAINT = `
window.__firstSize = null;
window.__shift = 0;
window.__shifted = [];
new MutationObserver((_, observer) => {
  const text = document.querySelector(".post-content");
  if (text) {
    window.__firstSize = getComputedStyle(text).fontSize;
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    window.__shift += entry.value;
    // What moved, so a failure says why (a late font, a late script, an image).
    for (const source of entry.sources ?? []) {
      const node = source.node;
      window.__shifted.push(node ? node.nodeName + (node.className ? "." + node.className : "") : "?");
    }
  }
}).observe({ type: "layout-shift", buffered: true });
`;

/** The address of the first post on a language home. */
async function firstPost(page: Page, language: string): Promise<string> {
  await page.goto(`${env.server.url}/${language}/home`);
  const href = await page.locator(".post-grid .post-card-link").first().getAttribute("href");
  expect(href).toBeTruthy();
  return `${env.server.url}${href}`;
}

/** The layout shifts since the first paint (WATCH_FIRST_PAINT): their sum and the elements that moved. */
const shifts = (page: Page) =>
  page.evaluate(() => {
    const watched = window as unknown as { __shift: number; __shifted: string[] };
    return { shift: watched.__shift, moved: watched.__shifted };
  });

const fontSize = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => Number.parseFloat(getComputedStyle(element).fontSize));

const hydrated = (page: Page) => page.waitForSelector("html[data-hydrated]", { state: "attached" });

test("text size: steps change the size, persist across a reload at first paint, fit 320 px", async () => {
  const { context, page, errors } = await newPage(env.browser);
  const post = await firstPost(page, "hindi");
  await page.goto(post);
  await hydrated(page);
  const larger = page.getByRole("button", { name: "बड़े अक्षर" });
  const smaller = page.getByRole("button", { name: "छोटे अक्षर" });
  expect(await larger.isVisible()).toBe(true);

  const sizes = [await fontSize(page, ".post-content")];
  while (await larger.isEnabled()) {
    await larger.click();
    await expect.poll(() => fontSize(page, ".post-content")).toBeGreaterThan(sizes.at(-1)!);
    sizes.push(await fontSize(page, ".post-content"));
  }
  await smaller.click();
  await smaller.click();
  while (await smaller.isEnabled()) {
    const before = await fontSize(page, ".post-content");
    await smaller.click();
    await expect.poll(() => fontSize(page, ".post-content")).toBeLessThan(before);
    sizes.push(await fontSize(page, ".post-content"));
  }
  // At least 4 steps: distinct sizes from the smallest to the largest.
  expect(new Set(sizes).size).toBeGreaterThanOrEqual(4);
  const smallest = Math.min(...sizes);
  const largest = Math.max(...sizes);

  // Up to the largest, then a reload: the size is right when the text is first laid out.
  while (await larger.isEnabled()) await larger.click();
  await expect.poll(() => fontSize(page, ".post-content")).toBe(largest);
  await context.addInitScript(WATCH_FIRST_PAINT);
  await page.reload();
  await hydrated(page);
  expect(await page.evaluate(() => (window as unknown as { __firstSize: string }).__firstSize)).toBe(
    `${largest}px`,
  );
  expect(await fontSize(page, ".post-content")).toBe(largest);
  expect(await shifts(page)).toEqual({ shift: 0, moved: [] });
  expect(await larger.isDisabled()).toBe(true);

  // The same step on the language home and on search results; nothing wider than 320 px.
  await page.setViewportSize({ width: 320, height: 640 });
  for (const path of [new URL(post).pathname, "/hindi/home", "/marathi/home", "/search/prem"]) {
    await page.goto(`${env.server.url}${path}`);
    await hydrated(page);
    expect(await page.locator(".text-size").first().isVisible(), path).toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways at the largest step`).toBeLessThanOrEqual(0);
  }
  expect(await fontSize(page, ".search-hit-title")).toBeGreaterThan(1.15 * 16 * 1.5);

  // Browser font size still applies: the text is sized in rem.
  await page.goto(post);
  await page.evaluate(() => {
    document.documentElement.style.fontSize = "20px";
  });
  expect(await fontSize(page, ".post-content")).toBeCloseTo((largest * 20) / 16, 1);

  // Back to the smallest, remembered on an English page too.
  await page.getByRole("button", { name: "छोटे अक्षर" }).click();
  while (await smaller.isEnabled()) await smaller.click();
  const english = await firstPost(page, "english");
  await page.goto(english);
  await hydrated(page);
  expect(await fontSize(page, ".post-content")).toBe(smallest);
  expect(await page.getByRole("button", { name: "Smaller text" }).isDisabled()).toBe(true);
  expect(errors).toEqual([]);
  await context.close();
});

test("without JavaScript: no text size buttons, and the Roman letters toggle opens and closes", async () => {
  const { context, page, errors } = await newPage(env.browser, { javaScriptEnabled: false });
  const post = await firstPost(page, "hindi");
  await page.goto(post);
  expect(await page.locator(".text-size").count()).toBe(1);
  expect(await page.locator(".text-size").isVisible()).toBe(false);
  const roman = page.locator('[lang="hi-Latn"]');
  expect(await roman.count()).toBe(1);
  expect(await roman.isVisible()).toBe(false);
  const text = (await roman.textContent()) ?? "";
  expect(text).toMatch(/^[\x20-\x7E\n\u2014\u2013\u2018\u2019\u201C\u201D…]+$/);
  await page.getByText("रोमन लिपि में", { exact: true }).click();
  expect(await roman.isVisible()).toBe(true);
  await page.getByText("रोमन लिपि में", { exact: true }).click();
  expect(await roman.isVisible()).toBe(false);
  expect(errors).toEqual([]);
  await context.close();
});

test("with JavaScript: the Roman letters choice is remembered on the next post, loaded or moved to", async () => {
  const { context, page, errors } = await newPage(env.browser);
  const hindi = await firstPost(page, "hindi");
  const marathi = await firstPost(page, "marathi");
  const english = await firstPost(page, "english");

  await page.goto(hindi);
  await hydrated(page);
  const details = page.locator("details.roman-letters");
  expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
  await page.getByText("रोमन लिपि में", { exact: true }).click();
  expect(await page.locator('[lang="hi-Latn"]').isVisible()).toBe(true);
  await expect.poll(() => page.evaluate(() => localStorage.getItem("sukti-roman-letters"))).toBe("1");

  // A Marathi post opened by its address: open from the start (before hydration too).
  await context.addInitScript(WATCH_FIRST_PAINT);
  await page.goto(marathi);
  expect(await page.locator('[lang="mr-Latn"]').isVisible()).toBe(true);
  expect(await page.locator("details.roman-letters summary").textContent()).toBe("रोमन लिपीत");
  await hydrated(page);
  expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
  expect(await shifts(page)).toEqual({ shift: 0, moved: [] });

  // A client-side move to the next post keeps it open.
  const title = await page.locator("h1").textContent();
  await page.locator(".post-nav-link").first().click();
  await expect.poll(() => page.locator("h1").textContent()).not.toBe(title);
  expect(await page.locator('[lang="mr-Latn"]').isVisible()).toBe(true);

  // Moved to from a language home (a fresh toggle, rendered in the browser): open too.
  await page.getByRole("link", { name: "मराठी", exact: true }).first().click();
  await page.waitForURL(/\/marathi\/home$/);
  await page.locator(".post-grid .post-card-link").nth(1).click();
  await page.waitForURL(/\/marathi\/(?!home)/);
  await expect.poll(() => page.locator('[lang="mr-Latn"]').isVisible()).toBe(true);

  // Closed, it stays closed on the next load.
  await page.locator("details.roman-letters summary").click();
  await expect.poll(() => page.evaluate(() => localStorage.getItem("sukti-roman-letters"))).toBe("0");
  await page.goto(hindi);
  await hydrated(page);
  expect(await page.locator('[lang="hi-Latn"]').isVisible()).toBe(false);

  // English posts have no Roman version.
  await page.goto(english);
  expect(await page.locator("details.roman-letters").count()).toBe(0);
  expect(errors).toEqual([]);
  await context.close();
});
