import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser } from "#tests/support/browser.ts";

// Chromium keeps only the last --disable-features switch on its command line, and Playwright
// passes one of its own before ours (tests/support/chromium.ts): ours must repeat every
// feature Playwright's names, or a playwright-core upgrade would silently turn them back on.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

test("the last --disable-features switch keeps every feature an earlier one turns off", async () => {
  // chrome://version shows the browser's command line (CDP's Browser.getBrowserCommandLine
  // wants --enable-automation, which Playwright leaves out in headless mode).
  const page = await browser.newPage();
  await page.goto("chrome://version");
  const args = (await page.locator("#command_line").innerText()).split(/\s+/);
  await page.close();
  const lists = args
    .filter((arg) => arg.startsWith("--disable-features="))
    .map((arg) => arg.slice("--disable-features=".length).split(","));
  expect(lists.length, "Playwright's switch and ours").toBeGreaterThanOrEqual(2);
  const last = new Set(lists.at(-1));
  const lost = lists
    .slice(0, -1)
    .flat()
    .filter((feature) => !last.has(feature));
  expect(lost, "add these to PLAYWRIGHT_DISABLED_FEATURES in tests/support/chromium.ts").toEqual([]);
  expect([...last]).toContain("WebUIOmniboxPopup");
});
