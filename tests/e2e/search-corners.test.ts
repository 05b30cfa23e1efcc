// Search corners (decision 065), in Chromium: an empty search's message
// covers nothing and goes on blur (360 px, with and without JavaScript, by
// mouse and by touch); the highlight stands out in light and dark (WCAG
// contrast from the computed styles); the links of a hit and the filter on
// results are at least 24 px tall on a phone; the filter by its links.
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { newPage, newTab, useServerAndBrowser } from "#tests/support/browser.ts";

const env = useServerAndBrowser();
const PHONE = { width: 360, height: 740 };

/** Each main menu link whose centre does not hit the link itself: what covers it. */
function coveredMenuLinks(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLAnchorElement>(".main-menu a")].flatMap((link) => {
      const box = link.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit === link || link.contains(hit)
        ? []
        : [`${link.textContent}: ${hit ? `${hit.tagName}.${hit.className}` : "nothing"}`];
    }),
  );
}

async function centreOf(page: Page, selector: string) {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not shown`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

const MESSAGE = "Type a word to search for.";
const ENGLISH = '.main-menu a[href="/english/home"]';

test("after an empty search at 360 px nothing covers the menu, a click on English lands, and the message goes on blur", async () => {
  const { page, errors } = await newTab(env.context, { viewport: PHONE });
  await page.goto(`${env.server.url}/`);
  await page.waitForSelector("html[data-hydrated]");
  const alert = page.getByRole("alert");
  const input = page.getByRole("searchbox", { name: "Search quotes" });

  // By the magnifier: the field takes the focus, the message shows under it, the menu is free.
  const magnifier = await centreOf(page, ".search-button");
  await page.mouse.click(magnifier.x, magnifier.y);
  await expect.poll(() => alert.textContent()).toBe(MESSAGE);
  expect(await input.evaluate((element) => element === document.activeElement)).toBe(true);
  expect(await coveredMenuLinks(page)).toEqual([]);
  // A second press of the magnifier keeps it (the field has the focus again).
  await page.mouse.click(magnifier.x, magnifier.y);
  await expect.poll(() => alert.textContent()).toBe(MESSAGE);

  // Leaving the field by the keyboard: gone.
  await input.press("Tab");
  await expect.poll(() => alert.count()).toBe(0);
  // By a click elsewhere (no link): gone.
  await input.press("Enter");
  await expect.poll(() => alert.textContent()).toBe(MESSAGE);
  await page.mouse.click(5, PHONE.height - 5);
  await expect.poll(() => alert.count()).toBe(0);

  // By Enter, then a press on "English" that stays down a while: the click lands on the link.
  await input.press("Enter");
  await expect.poll(() => alert.textContent()).toBe(MESSAGE);
  expect(await coveredMenuLinks(page)).toEqual([]);
  const english = await centreOf(page, ENGLISH);
  await page.mouse.move(english.x, english.y);
  await page.mouse.down();
  await page.waitForTimeout(300);
  // Nothing moved under the pointer while it is down.
  expect(
    await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest("a")?.getAttribute("href"),
      english,
    ),
  ).toBe("/english/home");
  await page.mouse.up();
  await page.waitForURL(`${env.server.url}/english/home`);
  expect(errors).toEqual([]);
  await page.close();
});

test("on a touch screen at 360 px, a tap on English after an empty search lands", async () => {
  const { context, page, errors } = await newPage(env.browser, {
    viewport: PHONE,
    hasTouch: true,
    isMobile: true,
  });
  try {
    await page.goto(`${env.server.url}/hindi/home`);
    await page.waitForSelector("html[data-hydrated]");
    const input = page.getByRole("searchbox", { name: "सूक्तियाँ खोजें" });
    await input.press("Enter");
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("खोजने के लिए कोई शब्द लिखें।");
    expect(await coveredMenuLinks(page)).toEqual([]);
    const english = await centreOf(page, ENGLISH);
    await page.touchscreen.tap(english.x, english.y);
    await page.waitForURL(`${env.server.url}/english/home`);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

test("without JavaScript an empty search is a page of its own, and nothing covers the menu", async () => {
  const { context, page } = await newPage(env.browser, { viewport: PHONE, javaScriptEnabled: false });
  try {
    await page.goto(`${env.server.url}/`);
    await page.locator(".search-button").click();
    await page.waitForURL(`${env.server.url}/search?q=`);
    expect(await page.locator("h1").textContent()).toBe("Search");
    expect(await coveredMenuLinks(page)).toEqual([]);
    await page.locator(ENGLISH).click();
    await page.waitForURL(`${env.server.url}/english/home`);
  } finally {
    await context.close();
  }
});

/** WCAG contrasts of every highlight on the page, from Chromium's computed styles. */
function highlightContrasts(page: Page) {
  return page.evaluate(() => {
    const rgba = (value: string) => {
      const parts = value.match(/[\d.]+/g)?.map(Number) ?? [];
      return { rgb: parts.slice(0, 3), alpha: parts.length > 3 ? (parts[3] ?? 1) : 1 };
    };
    const luminance = (rgb: number[]) => {
      const [r = 0, g = 0, b = 0] = rgb.map((c) => {
        const s = c / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const contrast = (a: number[], b: number[]) => {
      const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
      return (x + 0.05) / (y + 0.05);
    };
    /** The first opaque background at or above an element. */
    const backgroundOf = (from: Element | null): number[] => {
      for (let element = from; element; element = element.parentElement) {
        const { rgb, alpha } = rgba(getComputedStyle(element).backgroundColor);
        if (alpha === 1) return rgb;
      }
      return [255, 255, 255];
    };
    return [...document.querySelectorAll(".search-page mark")].map((mark) => {
      const style = getComputedStyle(mark);
      const own = rgba(style.backgroundColor);
      if (own.alpha !== 1) throw new Error(`a mark's background is not opaque: ${style.backgroundColor}`);
      const around = backgroundOf(mark.parentElement);
      const bar = parseFloat(style.borderBottomWidth) >= 2 ? rgba(style.borderBottomColor).rgb : around;
      return {
        where: mark.parentElement?.className || mark.parentElement?.tagName,
        text: contrast(rgba(style.color).rgb, own.rgb),
        background: contrast(own.rgb, around),
        bar: contrast(bar, around),
      };
    });
  });
}

for (const colorScheme of ["dark", "light"] as const) {
  test(`in ${colorScheme} mode a highlight is at least 3:1 against the card, its text at least 7:1 on it`, async () => {
    const { page, errors } = await newTab(env.context, { viewport: PHONE, colorScheme });
    // प्रेम: highlights in titles (links), snippets, and the match line's tags; love: "Matched as" words.
    for (const text of ["प्रेम", "love"]) {
      await page.goto(`${env.server.url}/search/${encodeURIComponent(text)}`);
      const contrasts = await highlightContrasts(page);
      expect(contrasts.length, text).toBeGreaterThan(5);
      expect(new Set(contrasts.map((c) => c.where)).size, text).toBeGreaterThan(2);
      for (const c of contrasts) {
        expect(c.text, `${text}: text on a highlight in ${c.where}`).toBeGreaterThanOrEqual(7);
        expect(Math.max(c.background, c.bar), `${text}: a highlight in ${c.where}`).toBeGreaterThanOrEqual(3);
      }
    }
    expect(errors).toEqual([]);
    await page.close();
  });
}

test("at 360 px a hit's links and the filter's are at least 24 px tall; the match and the tags are told apart", async () => {
  const { page, errors } = await newTab(env.context, { viewport: PHONE });
  await page.goto(`${env.server.url}/search/${encodeURIComponent("प्रेम")}`);
  const small = await page.evaluate(() =>
    [
      ...document.querySelectorAll(
        ".search-hit-meta a, .search-hit-match a, .search-hit-translations a, nav.search-languages a",
      ),
    ]
      .map((a) => ({ text: a.textContent, height: a.getBoundingClientRect().height }))
      .filter((a) => a.height < 24),
  );
  expect(await page.locator(".search-hit-match a").count()).toBeGreaterThan(0);
  expect(small).toEqual([]);
  // The tags a hit is filed under come after their label, never right after the meta line's date.
  const tagged = page.locator(".search-hit-terms").first();
  expect(await tagged.locator(".search-hit-label").textContent()).toBe("Tags:");
  expect(await page.locator(".search-hit-meta .search-hit-term").count()).toBe(0);
  const love = await newTab(env.context, { viewport: PHONE });
  await love.page.goto(`${env.server.url}/search/love`);
  expect(await love.page.locator(".search-hit-as .search-hit-label").first().textContent()).toBe(
    "Matched as:",
  );
  await love.page.close();
  expect(errors).toEqual([]);
  await page.close();
});

test("the filter on results by its links: one language, then all again", async () => {
  const { page, errors } = await newTab(env.context, { viewport: PHONE });
  await page.goto(`${env.server.url}/search/prem`);
  await page.waitForSelector("html[data-hydrated]");
  await page
    .getByRole("navigation", { name: "Languages of the results" })
    .getByRole("link", { name: "मराठी" })
    .click();
  await page.waitForURL(`${env.server.url}/search/prem?language=marathi`);
  await expect
    .poll(() => page.locator(".search-hit").evaluateAll((hits) => hits.map((h) => h.getAttribute("lang"))))
    .toSatisfy((langs: string[]) => langs.length > 0 && langs.every((lang) => lang === "mr"));
  await page.getByRole("link", { name: "All", exact: true }).click();
  await page.waitForURL(`${env.server.url}/search/prem`);
  await expect
    .poll(() =>
      page
        .locator(".search-hit")
        .evaluateAll((hits) => new Set(hits.map((h) => h.getAttribute("lang"))).size),
    )
    .toBeGreaterThan(1);
  expect(errors).toEqual([]);
  await page.close();
});
