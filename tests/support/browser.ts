import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser } from "#tests/support/chromium.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

export { CHROMIUM_PATH, launchBrowser } from "#tests/support/chromium.ts";

/**
 * A page that records console errors and failed page errors in `errors`: a
 * test expects it empty, so an unexpected error fails the test.
 */
export async function newPage(
  browser: Browser,
  options: Parameters<Browser["newContext"]>[0] = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    // A 404 page load logs a resource error by design; the tests assert statuses themselves.
    if (message.type() === "error" && !/status of 404/.test(message.text())) errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return { context, page, errors };
}

/**
 * For one test file: the built server and a Chromium, started together
 * before its tests and stopped after them.
 */
export function useServerAndBrowser(): { readonly server: RunningServer; readonly browser: Browser } {
  const state = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    [state.server, state.browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await state.browser?.close();
    await state.server?.stop();
  });
  return state;
}
