// Decision 066 in Chromium: People in the main menu is visible
// without scrolling the menu at 320 px, in every language's frame, and the
// page's section is marked with a visible style; on /people each language's
// count (language, number, word) stays on one line.
import { expect, test } from "vitest";
import { newTab, useServerAndBrowser } from "#tests/support/browser.ts";

const env = useServerAndBrowser();

test("at 320 px People is inside the menu's visible box, unscrolled, on every language's frame", async () => {
  const { page, errors } = await newTab(env.context, { viewport: { width: 320, height: 640 } });
  for (const address of ["/", "/english/home", "/hindi/home", "/marathi/home", "/people", "/people/kabir"]) {
    await page.goto(`${env.server.url}${address}`);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const fit = await page.evaluate(() => {
      const list = document.querySelector(".main-menu ul")!;
      const people = document.querySelector<HTMLElement>('.main-menu a[href^="/people"]')!;
      const box = people.getBoundingClientRect();
      const visible = list.getBoundingClientRect();
      return {
        scrollLeft: list.scrollLeft,
        box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom, width: box.width },
        visible: { left: visible.left, right: visible.right, top: visible.top, bottom: visible.bottom },
        viewport: innerWidth,
        // What is drawn at the link's centre is the link (nothing covers it).
        hit:
          document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)?.closest("a") ===
          people,
      };
    });
    expect(fit.scrollLeft, address).toBe(0);
    expect(fit.box.width, address).toBeGreaterThan(0);
    expect(fit.box.left, address).toBeGreaterThanOrEqual(fit.visible.left);
    expect(fit.box.right, address).toBeLessThanOrEqual(Math.min(fit.visible.right, fit.viewport));
    expect(fit.box.top, address).toBeGreaterThanOrEqual(fit.visible.top);
    expect(fit.box.bottom, address).toBeLessThanOrEqual(fit.visible.bottom);
    expect(fit.hit, address).toBe(true);
  }
  expect(errors).toEqual([]);
  await page.close();
});

test("the section's menu item is marked with a visible style; a click on People marks it", async () => {
  const { page, errors } = await newTab(env.context, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${env.server.url}/people/kabir`);
  const style = (href: string) =>
    page.locator(`.main-menu a[href="${href}"]`).evaluate((a) => {
      const css = getComputedStyle(a);
      return { border: css.borderBottomColor, color: css.color, current: a.getAttribute("aria-current") };
    });
  const people = await style("/people");
  const tags = await style("/tags");
  expect(people.current).toBe("true");
  expect(tags.current).toBeNull();
  // The marked item looks different from the others: its underline is drawn.
  expect(people.border).not.toBe(tags.border);
  // Client-side navigation keeps the mark in step.
  await page.waitForLoadState("networkidle");
  await page.locator('.main-menu a[href="/tags"]').click();
  await page.waitForURL(`${env.server.url}/tags`);
  await expect.poll(async () => (await style("/tags")).current).toBe("page");
  expect((await style("/people")).current).toBeNull();
  await page.locator('.main-menu a[href^="/people"]').click();
  await page.waitForURL(`${env.server.url}/people`);
  await expect.poll(async () => (await style("/people")).current).toBe("page");
  expect(errors).toEqual([]);
  await page.close();
});

test("on /people at 320 px each language's count stays on one line", async () => {
  const { page, errors } = await newTab(env.context, { viewport: { width: 320, height: 640 } });
  await page.goto(`${env.server.url}/people`);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const lines = await page.evaluate(() =>
    [...document.querySelectorAll(".people-list .person-count")].map((entry) => {
      // One line box: every fragment of the entry shares one top.
      const tops = new Set([...entry.getClientRects()].map((rect) => Math.round(rect.top)));
      return { text: entry.textContent, lines: tops.size };
    }),
  );
  expect(lines.length).toBeGreaterThan(10);
  expect(lines.filter((entry) => entry.lines !== 1)).toEqual([]);
  expect(errors).toEqual([]);
  await page.close();
});
