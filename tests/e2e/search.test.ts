import { expect, test } from "vitest";
import { newTab, useServerAndBrowser } from "#tests/support/browser.ts";

const env = useServerAndBrowser();

test("search from the header in Hindi, then open a result", async () => {
  const { page, errors } = await newTab(env.context);
  await page.goto(`${env.server.url}/`);
  await page.waitForLoadState("networkidle");
  const input = page.getByRole("searchbox", { name: "Search quotes" });
  await input.fill("प्रेम");
  await input.press("Enter");
  await page.waitForURL(`${env.server.url}/search/${encodeURIComponent("प्रेम")}`);
  await expect.poll(() => page.locator(".search-count").textContent()).toMatch(/quotes? found/);
  const first = page.locator(".search-hit").first();
  expect(await first.getAttribute("lang")).toMatch(/^(hi|mr)$/);
  expect(await first.locator(".search-hit-title mark").first().textContent()).toBe("प्रेम");
  const href = await first.locator(".search-hit-title a").getAttribute("href");
  await first.locator(".search-hit-title a").click();
  await page.waitForURL((url) => url.pathname === href);
  await expect.poll(() => page.locator("h1").textContent()).toContain("प्रेम");
  expect(errors).toEqual([]);
  await page.close();
});

test("search in romanised text by the magnifier finds Devanagari posts", async () => {
  const { page, errors } = await newTab(env.context);
  await page.goto(`${env.server.url}/marathi/home`);
  await page.waitForLoadState("networkidle");
  // On a Marathi page the search box speaks Marathi.
  await page.getByRole("searchbox", { name: "सुविचार शोधा" }).fill("shanti");
  await page.getByRole("button", { name: "शोधा" }).click();
  // The results keep the page's language (decision 067).
  await page.waitForURL(`${env.server.url}/search/shanti?lang=mr`);
  await expect.poll(() => page.locator(".search-hit mark").allTextContents()).toContain("शान्ति");
  expect(await page.title()).toContain("शोध: shanti");
  expect(errors).toEqual([]);
  await page.close();
});

test("results pages follow each other; an empty search suggests tags that lead somewhere", async () => {
  const { page, errors } = await newTab(env.context);
  await page.goto(`${env.server.url}/search/the`);
  await page.waitForLoadState("networkidle");
  const firstTitles = await page.locator(".search-hit-title").allTextContents();
  await page.locator("a[rel=next]").click();
  await page.waitForURL(`${env.server.url}/search/the?page=2`);
  await expect.poll(() => page.locator(".search-hit-title").first().textContent()).not.toBe(firstTitles[0]);
  const secondTitles = await page.locator(".search-hit-title").allTextContents();
  expect(secondTitles.filter((title) => firstTitles.includes(title))).toEqual([]);

  await page.goto(`${env.server.url}/search/${encodeURIComponent("xyzzy qq")}`);
  await page.waitForLoadState("networkidle");
  expect(await page.locator(".search-count").textContent()).toBe("No quotes found");
  const tag = page.locator(".search-empty-tags a").first();
  const tagHref = await tag.getAttribute("href");
  await tag.click();
  await page.waitForURL((url) => url.pathname === tagHref);
  await expect.poll(() => page.locator(".post-card").count()).toBeGreaterThan(0);
  expect(errors).toEqual([]);
  await page.close();
});

for (const [path, label, message] of [
  ["/english/home", "Search quotes", "Type a word to search for."],
  ["/hindi/home", "सूक्तियाँ खोजें", "खोजने के लिए कोई शब्द लिखें।"],
  ["/marathi/home", "सुविचार शोधा", "शोधण्यासाठी एखादा शब्द लिहा."],
] as const) {
  test(`an empty or blank search on ${path} says so in the page's language, and stays`, async () => {
    const { page, errors } = await newTab(env.context);
    await page.goto(`${env.server.url}${path}`);
    await page.waitForSelector("html[data-hydrated]");
    const input = page.getByRole("searchbox", { name: label });
    for (const text of ["", "   "]) {
      await input.fill(text);
      await input.press("Enter");
      await expect.poll(() => page.getByRole("alert").textContent()).toBe(message);
      expect(new URL(page.url()).pathname).toBe(path);
      // The browser's own "Please fill out this field" is not used.
      expect(await input.evaluate((element) => (element as HTMLInputElement).validationMessage)).toBe("");
    }
    expect(errors).toEqual([]);
    await page.close();
  });
}
