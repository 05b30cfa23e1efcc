import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser } from "#tests/support/chromium.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

export { CHROMIUM_PATH, launchBrowser } from "#tests/support/chromium.ts";

/**
 * Each Content-Security-Policy violation, said on the console as an error.
 * Chromium logs most violations itself, in words of its own; this says each
 * one (a blocked inline style or script, a style= attribute, a resource from
 * elsewhere) whatever the browser's wording. An init script runs before the
 * page's own, outside its CSP.
 */
const REPORT_CSP_VIOLATIONS = `document.addEventListener("securitypolicyviolation", (event) => {
  console.error("securitypolicyviolation: " + event.effectiveDirective + " blocked " + event.blockedURI + " on " + event.documentURI);
}, true);`;

/**
 * Records the page's console errors, uncaught errors and CSP violations in
 * `errors`: a test expects it empty, so an unexpected error fails the test.
 */
async function watchErrors(page: Page): Promise<string[]> {
  await page.addInitScript(REPORT_CSP_VIOLATIONS);
  const errors: string[] = [];
  page.on("console", (message) => {
    // A 404 page load logs a resource error by design; the tests assert statuses themselves.
    if (message.type() === "error" && !/status of 404/.test(message.text())) errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/**
 * A page in a context of its own (a fresh profile: empty cache, no
 * permissions), with its errors recorded in `errors`. Contexts here run
 * without the service worker (it would take over mid-test and hide requests
 * from page.route); tests/e2e/offline.test.ts opens its own with it.
 */
export async function newPage(
  browser: Browser,
  options: Parameters<Browser["newContext"]>[0] = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ serviceWorkers: "block", ...options });
  const page = await context.newPage();
  return { context, page, errors: await watchErrors(page) };
}

/**
 * A new tab in a file's shared context (useServerAndBrowser): its own page,
 * history and session storage; the HTTP cache is the context's. About half
 * the CPU of a context of its own in Chromium. A test that needs a fresh
 * profile (a cold cache, permissions, JavaScript off) uses newPage().
 */
export async function newTab(
  context: BrowserContext,
  options: { viewport?: { width: number; height: number }; colorScheme?: "light" | "dark" } = {},
): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  if (options.viewport) await page.setViewportSize(options.viewport);
  if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
  return { page, errors: await watchErrors(page) };
}

/**
 * For one test file: the built server and a Chromium, started together
 * before its tests and stopped after them, and one browser context its tests
 * open their tabs in (newTab).
 */
export function useServerAndBrowser(): {
  readonly server: RunningServer;
  readonly browser: Browser;
  readonly context: BrowserContext;
} {
  const state = {} as { server: RunningServer; browser: Browser; context: BrowserContext };
  beforeAll(async () => {
    [state.server, state.browser] = await Promise.all([startServer(), launchBrowser()]);
    state.context = await state.browser.newContext({ serviceWorkers: "block" });
  });
  afterAll(async () => {
    await state.browser?.close();
    await state.server?.stop();
  });
  return state;
}
