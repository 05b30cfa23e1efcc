// Every page in the page's language (decision 067): the language
// switch and the frame's links in a browser, and the frame's Devanagari words
// drawn by a subset font on pages with no Devanagari text of their own.
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { newPage, newTab, useServerAndBrowser } from "#tests/support/browser.ts";

const env = useServerAndBrowser();

/** The fonts a page downloaded: each file's name and bytes (the body as received). */
function watchFonts(page: Page): { name: string; bytes: number }[] {
  const fonts: { name: string; bytes: number }[] = [];
  page.on("response", async (response) => {
    if (!/\.woff2(?:$|\?)/.test(response.url())) return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    fonts.push({ name: new URL(response.url()).pathname.split("/").pop() ?? "", bytes: body.length });
  });
  return fonts;
}

test("/english/home downloads only the frame's Devanagari subset, and its menu's हिंदी and मराठी are drawn with it (no tofu)", async () => {
  const { context, page, errors } = await newPage(env.browser);
  const fonts = watchFonts(page);
  await page.goto(`${env.server.url}/english/home`);
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready);
  await expect
    .poll(() => fonts.some((font) => font.name.startsWith("noto-sans-devanagari-frame-700")))
    .toBe(true);
  expect(fonts.map((font) => font.name).filter((name) => name.includes("devanagari-devanagari"))).toEqual([]);
  const total = fonts.reduce((sum, font) => sum + font.bytes, 0);
  console.log(
    `/english/home fonts: ${fonts.map((font) => `${font.name} ${font.bytes}`).join(", ")}; total ${total} bytes`,
  );
  // The menu's Devanagari words measure as the whole face draws them: the subset holds their glyphs and shaping.
  const widths = await page.evaluate(async () => {
    const rule = [...document.styleSheets]
      .flatMap((sheet) => [...sheet.cssRules])
      .find(
        (r): r is CSSFontFaceRule =>
          r instanceof CSSFontFaceRule && /devanagari-devanagari-700/.test(r.style.getPropertyValue("src")),
      );
    const src = /url\("?([^")]+)"?\)/.exec(rule?.style.getPropertyValue("src") ?? "")?.[1];
    if (!src) return null;
    const full = new FontFace("Sukti Test Full Devanagari", `url(${src})`, { weight: "700" });
    document.fonts.add(await full.load());
    return [
      ...document.querySelectorAll<HTMLElement>(".main-menu a[lang='hi'], .main-menu a[lang='mr']"),
    ].map((link) => {
      const style = getComputedStyle(link);
      const range = document.createRange();
      range.selectNodeContents(link);
      const shown = range.getBoundingClientRect().width;
      const probe = document.createElement("span");
      probe.textContent = link.textContent;
      probe.style.font = `700 ${style.fontSize} "Sukti Test Full Devanagari"`;
      probe.style.position = "absolute";
      document.body.append(probe);
      const expected = probe.getBoundingClientRect().width;
      probe.remove();
      const frame = [...document.fonts].some(
        (face) => face.family.replace(/"/g, "") === "Noto Sans Devanagari Frame" && face.status === "loaded",
      );
      return { text: link.textContent, shown, expected, frame };
    });
  });
  expect(widths).not.toBeNull();
  expect(widths?.length).toBe(2);
  for (const width of widths ?? []) {
    expect(width.frame).toBe(true);
    expect(Math.abs(width.shown - width.expected), JSON.stringify(width)).toBeLessThan(1);
  }
  expect(errors).toEqual([]);
  await context.close();
});

test("a Hindi post page loads the whole Devanagari face", async () => {
  const { context, page, errors } = await newPage(env.browser);
  const fonts = watchFonts(page);
  await page.goto(`${env.server.url}/hindi/home`);
  const post = await page.locator(".post-grid .post-card-link").first().getAttribute("href");
  await page.goto(`${env.server.url}${post}`);
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready);
  await expect
    .poll(() => fonts.some((font) => font.name.startsWith("noto-sans-devanagari-devanagari-400")))
    .toBe(true);
  expect(errors).toEqual([]);
  await context.close();
});

test("the switch shows /tags in Hindi, the frame's links keep it, and the Hindi footer opens the Hindi policy", async () => {
  const { page, errors } = await newTab(env.context);
  await page.goto(`${env.server.url}/tags`);
  await page.locator(".language-switch").getByRole("link", { name: "हिंदी" }).click();
  await page.waitForURL(`${env.server.url}/tags?lang=hi`);
  await expect.poll(() => page.locator("h1").textContent()).toBe("टैग");
  expect(await page.locator("html").getAttribute("lang")).toBe("hi");
  expect(await page.locator(".main-menu a").first().getAttribute("href")).toBe("/?lang=hi");
  await page.locator(".site-footer").getByRole("link", { name: "गोपनीयता नीति" }).click();
  await page.waitForURL(`${env.server.url}/post/privacy-policy?lang=hi`);
  await expect.poll(() => page.locator("h1").textContent()).toBe("गोपनीयता नीति");
  await page.locator(".language-switch").getByRole("link", { name: "मराठी" }).click();
  await page.waitForURL(`${env.server.url}/post/privacy-policy?lang=mr`);
  await expect.poll(() => page.locator("h1").textContent()).toBe("गोपनीयता धोरण");
  expect(await page.locator("html").getAttribute("lang")).toBe("mr");
  // A Hindi post's footer, too.
  await page.goto(`${env.server.url}/hindi/home`);
  await page.locator(".site-footer").getByRole("link", { name: "गोपनीयता नीति" }).click();
  await page.waitForURL(`${env.server.url}/post/privacy-policy?lang=hi`);
  await expect.poll(() => page.locator("h1").textContent()).toBe("गोपनीयता नीति");
  expect(errors).toEqual([]);
  await page.close();
});

test("without JavaScript the switch and the search form keep the language", async () => {
  const { context, page } = await newPage(env.browser, { javaScriptEnabled: false });
  await page.goto(`${env.server.url}/`);
  await page.locator(".language-switch").getByRole("link", { name: "मराठी" }).click();
  await page.waitForURL(`${env.server.url}/?lang=mr`);
  expect(await page.locator("#gallery-title").textContent()).toBe("संग्रहातून");
  const input = page.getByRole("searchbox");
  await input.fill("love");
  await input.press("Enter");
  await page.waitForURL(`${env.server.url}/search/love?lang=mr`);
  expect(await page.locator("h1").textContent()).toContain("शोधाचे निकाल");
  await context.close();
});
