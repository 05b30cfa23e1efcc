// Decision 050 in Chromium: save a quote from a card and one from its post
// page (Save / Saved, aria-pressed, in English and Hindi), see them on /saved
// newest first, unsave one, and open the shared address in a fresh context
// with JavaScript off.
import { expect, test } from "vitest";
import { newPage, useServerAndBrowser } from "#tests/support/browser.ts";

const env = useServerAndBrowser();

test("save from a card and a post page, list them on /saved, unsave one, share the list", async () => {
  const { context, page, errors } = await newPage(env.browser);
  try {
    // A Hindi card: its button speaks Hindi.
    await page.goto(`${env.server.url}/hindi/home`);
    await page.waitForSelector("html[data-hydrated]");
    const card = page.locator(".post-grid .post-card").nth(1);
    const hindiTitle = ((await card.locator(".post-card-title").textContent()) ?? "").trim();
    const hindiSave = card.getByRole("button", { name: "सहेजें", exact: true });
    expect(await hindiSave.getAttribute("aria-pressed")).toBe("false");
    await hindiSave.click();
    const hindiSaved = card.getByRole("button", { name: "सहेजा गया", exact: true });
    await expect.poll(() => hindiSaved.getAttribute("aria-pressed")).toBe("true");

    // An English post page.
    await page.goto(`${env.server.url}/english/home`);
    // The URL changes before React commits the post: its title comes from the
    // card, and the page is read once its h1 shows it (the home's h1 was read
    // once beside two CPU hogs).
    const englishCard = page.locator(".post-grid .post-card-link").first();
    const englishTitle = ((await englishCard.locator(".post-card-title").textContent()) ?? "").trim();
    await englishCard.click();
    await page.waitForURL(/\/english\/(?!home)/);
    await expect.poll(async () => ((await page.locator("h1").textContent()) ?? "").trim()).toBe(englishTitle);
    await page.waitForSelector("html[data-hydrated]");
    const save = page.locator(".post").getByRole("button", { name: "Save", exact: true });
    expect(await save.getAttribute("aria-pressed")).toBe("false");
    await save.click();
    const saved = page.locator(".post").getByRole("button", { name: "Saved", exact: true });
    await expect.poll(() => saved.getAttribute("aria-pressed")).toBe("true");
    await page.locator(".post-save").getByRole("link", { name: "Saved quotes" }).click();
    await page.waitForURL(`${env.server.url}/saved`);

    // /saved: newest saved first, and the address of the list to share.
    const titles = () => page.locator(".saved-item h2").allTextContents();
    await expect.poll(titles).toEqual([englishTitle, hindiTitle]);
    const twoQuotes = (await page.locator(".saved-collection-link").getAttribute("href")) ?? "";
    expect(twoQuotes).toMatch(new RegExp(`^${env.server.url}/c/[A-Za-z0-9_-]+$`));

    // In Hindi on /saved/hindi, after a reload: kept in the browser.
    await page.goto(`${env.server.url}/saved/hindi`);
    await page.waitForSelector("html[data-hydrated]");
    expect(await page.locator("h1").textContent()).toBe("सहेजी गई सूक्तियाँ");
    await expect.poll(titles).toEqual([englishTitle, hindiTitle]);

    // Unsave the Hindi one (its button speaks its language): the list and its address follow.
    await page.locator(".saved-item").nth(1).getByRole("button", { name: "सहेजा गया", exact: true }).click();
    await expect.poll(titles).toEqual([englishTitle]);
    const oneQuote = (await page.locator(".saved-collection-link").getAttribute("href")) ?? "";
    expect(oneQuote).not.toBe(twoQuotes);
    await page.reload();
    await page.waitForSelector("html[data-hydrated]");
    await expect.poll(titles).toEqual([englishTitle]);
    // Unsaving the last leaves the friendly empty state, in the page's language.
    await page.locator(".saved-item").getByRole("button", { name: "Saved", exact: true }).click();
    await expect.poll(() => page.locator(".saved-page .empty").textContent()).toContain("“सहेजें”");
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

test("the shared address shows the list to someone else, without JavaScript", async () => {
  const { context, page, errors } = await newPage(env.browser);
  let shared = "";
  const expected: string[] = [];
  try {
    await page.goto(`${env.server.url}/english/home`);
    await page.waitForSelector("html[data-hydrated]");
    const cards = page.locator(".post-grid .post-card");
    for (const index of [3, 0, 5]) {
      await cards.nth(index).getByRole("button", { name: "Save", exact: true }).click();
      expected.unshift(((await cards.nth(index).locator(".post-card-title").textContent()) ?? "").trim());
      await expect.poll(() => cards.nth(index).getByRole("button", { name: "Saved" }).count()).toBe(1);
    }
    await page.goto(`${env.server.url}/saved`);
    await page.waitForSelector("html[data-hydrated]");
    await expect.poll(() => page.locator(".saved-item h2").allTextContents()).toEqual(expected);
    shared = (await page.locator(".saved-collection-link").getAttribute("href")) ?? "";
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }

  const fresh = await newPage(env.browser, { javaScriptEnabled: false });
  try {
    const response = await fresh.page.goto(shared);
    expect(response?.status()).toBe(200);
    expect(await fresh.page.locator("h1").textContent()).toBe("Shared quotes");
    expect(await fresh.page.locator(".post-card-title").allTextContents()).toEqual(expected);
    expect(await fresh.page.locator(".collection-page .count").textContent()).toBe("3 quotes");
    // Nothing was saved in this browser, and no dead Save button is shown without JavaScript.
    expect(await fresh.page.getByRole("button", { name: "Save" }).count()).toBe(0);
    expect(fresh.errors).toEqual([]);
  } finally {
    await fresh.context.close();
  }
});
