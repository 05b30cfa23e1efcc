// The identity in the browser (decision 055): the frame is hydrated from the
// root loader's data, so a SITE_CONFIG name hydrates without a mismatch, and
// after SIGHUP a client-side move shows the new identity without a reload.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { launchBrowser, newPage } from "#tests/support/browser.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { startServer } from "#tests/support/server.ts";

test("a configured identity hydrates as served, and a reload shows after a client-side move", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-identity-e2e-"));
  const config = path.join(dir, "site.toml");
  writeFileSync(config, 'name = "Vani"\n[contact]\nurl = "mailto:editor@vani.example"\n');
  const [server, browser] = await Promise.all([
    startServer({ env: { SITE_CONFIG: config } }),
    launchBrowser(),
  ]);
  try {
    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/english/home`);
    await page.waitForSelector("html[data-hydrated]");
    await expect.poll(() => page.locator(".site-name").textContent()).toBe("Vani");
    expect(await page.locator(".site-footer .contact-link").getAttribute("href")).toBe(
      "mailto:editor@vani.example",
    );
    // A marker on window survives client-side moves, not a new document.
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

    writeFileSync(config, 'name = "Vani Pune"\n');
    server.child.kill("SIGHUP");
    // Wait until the server serves the new identity, then move in the page.
    await expect
      .poll(async () => (await (await fetch(`${server.url}/tags`)).text()).includes("Vani Pune"), {
        timeout: READY_MS,
      })
      .toBe(true);
    await page.locator(".main-menu a", { hasText: "हिंदी" }).click();
    await page.waitForURL(`${server.url}/hindi/home`);
    await expect.poll(() => page.locator(".site-name").textContent()).toBe("Vani Pune");
    await expect.poll(() => page.title()).toMatch(/ · Vani Pune$/);
    expect(await page.locator(".site-footer .contact-link").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
