import { expect, test } from "vitest";
import { newPage, newTab, useServerAndBrowser } from "#tests/support/browser.ts";

const env = useServerAndBrowser();

test("home → English home → post → tag → another post", async () => {
  const { page, errors } = await newTab(env.context);
  await page.goto(`${env.server.url}/`);
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "English", exact: true })
    .click();
  await page.waitForURL(`${env.server.url}/english/home`);

  const card = page.locator(".post-grid .post-card-link").nth(1);
  const title = (await card.locator(".post-card-title").textContent()) ?? "";
  await card.click();
  await page.waitForURL(/\/english\/(?!home)/);
  await expect.poll(() => page.locator("h1").textContent()).toBe(title);

  const tag = page.locator('.post-terms a[href^="/tag/"]').first();
  const tagName = (await tag.textContent()) ?? "";
  await tag.click();
  await page.waitForURL(/\/tag\//);
  await expect.poll(() => page.locator("h1").textContent()).toContain(tagName);

  const other = page.locator(".post-card-link").filter({ hasNotText: title }).first();
  const otherTitle = (await other.locator(".post-card-title").textContent()) ?? "";
  await other.click();
  await expect.poll(() => page.locator("h1").textContent()).toBe(otherTitle);
  expect(otherTitle).not.toBe(title);
  expect(errors).toEqual([]);
  await page.close();
});

test("Hindi and Marathi homes show Devanagari labels", async () => {
  const { page, errors } = await newTab(env.context);
  for (const [path, lang, heading, daily] of [
    ["/hindi/home", "hi", "हिंदी सूक्तियाँ", "आज की सूक्ति"],
    ["/marathi/home", "mr", "मराठी सुविचार", "आजचा सुविचार"],
  ] as const) {
    await page.goto(`${env.server.url}${path}`);
    expect(await page.locator("html").getAttribute("lang")).toBe(lang);
    expect(await page.locator("h1").textContent()).toBe(heading);
    expect(await page.locator(".daily-kicker").textContent()).toBe(daily);
    expect(await page.locator(".pagination a[rel=next]").textContent()).toMatch(/पुराने|जुने/);
  }
  expect(errors).toEqual([]);
  await page.close();
});

test("copy text puts the quote on the clipboard and says so", async () => {
  const { context, page, errors } = await newPage(env.browser);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url });
  await page.goto(`${env.server.url}/hindi/home`);
  await page.locator(".post-grid .post-card-link").first().click();
  await page.waitForURL(/\/hindi\/(?!home)/);
  const quote = ((await page.locator(".post-content p").first().innerText()) ?? "").trim();
  await page.getByRole("button", { name: "पाठ कॉपी करें" }).click();
  await expect.poll(() => page.getByRole("status").last().textContent()).toBe("कॉपी हो गया");
  const clipboard = await page.evaluate(() => navigator.clipboard.readText());
  expect(clipboard).toContain(quote.split("\n")[0]);
  expect(clipboard).toContain(page.url());

  await page.getByRole("button", { name: "लिंक कॉपी करें" }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
  expect(errors).toEqual([]);
  await context.close();
});

test("copy falls back where the Clipboard API is missing", async () => {
  const { page, errors } = await newTab(env.context);
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true });
  });
  await page.goto(`${env.server.url}/english/home`);
  await page.locator(".post-grid .post-card-link").first().click();
  await page.waitForURL(/\/english\/(?!home)/);
  await page.getByRole("button", { name: "Copy link" }).click();
  // The fallback (a selected text area and execCommand('copy')) works in Chromium.
  await expect.poll(() => page.locator(".share-status").textContent()).toBe("Copied");
  expect(errors).toEqual([]);
  await page.close();
});

test("where no way of copying works, the visitor is told to copy it themselves", async () => {
  const { page, errors } = await newTab(env.context);
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true });
    document.execCommand = () => false;
  });
  await page.goto(`${env.server.url}/english/home`);
  await page.locator(".post-grid .post-card-link").first().click();
  await page.waitForURL(/\/english\/(?!home)/);
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect
    .poll(() => page.locator(".share-status").textContent())
    .toMatch(/^Could not copy\. Select the text/);
  expect(errors).toEqual([]);
  await page.close();
});

test("a Hindi post at 360 px: no horizontal scroll, visible focus, screenshot kept", async () => {
  const { page, errors } = await newTab(env.context, { viewport: { width: 360, height: 780 } });
  await page.goto(`${env.server.url}/hindi/home`);
  await page.locator(".post-grid .post-card-link").nth(2).click();
  await page.waitForURL(/\/hindi\/(?!home)/);
  await page.evaluate(() => document.fonts.ready);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // Hydrated first (the copy buttons appear then): a key pressed while the page
  // hydrates starts it, and where focus lands then is not what this test is about.
  await expect.poll(() => page.getByRole("button", { name: "लिंक कॉपी करें" }).count()).toBe(1);
  await page.keyboard.press("Tab");
  const focused = await page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    return { tag: element.tagName, outline: getComputedStyle(element).outlineStyle };
  });
  expect(focused.tag).not.toBe("BODY");
  expect(focused.outline, focused.tag).not.toBe("none");
  await page.screenshot({ path: "test-results/hindi-post-360.png", fullPage: true });
  expect(errors).toEqual([]);
  await page.close();
});
