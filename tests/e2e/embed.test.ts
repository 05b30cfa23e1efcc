// Embeds in Chromium (decision 063): a page on another origin (a
// second loopback server) frames a quote's embed page, which shows, and a
// post page and the home, which the browser refuses to show; and the Embed
// box on a post page opens without JavaScript and copies its snippet with it.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import { newPage, newTab, useServerAndBrowser } from "#tests/support/browser.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { freePort } from "#tests/support/server.ts";

const env = useServerAndBrowser();
/** A busy machine may take its time: polls wait up to 20 s. */
const PATIENT = { timeout: READY_MS };
let other: Server;
let otherUrl = "";
let slug = "";
let title = "";

beforeAll(async () => {
  const home = await (await fetch(`${env.server.url}/hindi/home`)).text();
  slug = /class="post-card-link" href="\/hindi\/([^"]+)"/.exec(home)?.[1] as string;
  expect(slug).toBeTruthy();
  const post = await (await fetch(`${env.server.url}/hindi/${slug}`)).text();
  title = /<h1 class="post-title">([^<]+)<\/h1>/.exec(post)?.[1] as string;
  expect(title).toBeTruthy();
  // Another site: one page framing the embed, a post page and the home.
  const page = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Another site</title></head><body>
<iframe name="embed" src="${env.server.url}/embed/hindi/${slug}" width="560" height="300" title="embed"></iframe>
<iframe name="post" src="${env.server.url}/hindi/${slug}" width="560" height="300" title="post"></iframe>
<iframe name="home" src="${env.server.url}/" width="560" height="300" title="home"></iframe>
</body></html>`;
  other = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(page);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => other.listen(port, "127.0.0.1", resolve));
  otherUrl = `http://127.0.0.1:${port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => other?.close(resolve));
});

test("another site shows a quote's embed in a frame; the browser refuses to frame a post page or the home", async () => {
  const { page, errors } = await newTab(env.context);
  await page.goto(otherUrl, { waitUntil: "load" });
  const embed = page.frame({ name: "embed" });
  expect(embed?.url()).toBe(`${env.server.url}/embed/hindi/${slug}`);
  await expect
    .poll(async () => (await embed?.locator("blockquote").textContent())?.trim() ?? "", PATIENT)
    .toMatch(/[\u0900-\u097F]/);
  expect(await embed?.locator("html").getAttribute("lang")).toBe("hi");
  // Devanagari shows as letters: each text, as laid out, is as wide as a fresh copy laid out
  // now that the fonts are in (a run left in tofu from before the font came is not).
  const stale = await embed?.evaluate(async () => {
    await document.fonts.ready;
    const width = (element: Element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return range.getBoundingClientRect().width;
    };
    return [...document.querySelectorAll("blockquote p, figcaption, body > a")].flatMap((element) => {
      const copy = element.cloneNode(true) as Element;
      element.after(copy);
      const differs = Math.abs(width(copy) - width(element)) > 0.5;
      copy.remove();
      return differs ? [element.textContent] : [];
    });
  });
  expect(stale).toEqual([]);
  // …in the site's Devanagari face (the device's copy or /assets'), not whatever the machine has.
  expect(
    await embed?.evaluate(() =>
      [...document.fonts]
        .filter((face) => face.family.includes("Sukti Devanagari"))
        .map((face) => face.status),
    ),
  ).toEqual(["loaded"]);
  const link = embed?.locator("body > a");
  expect(await link?.getAttribute("href")).toBe(`${env.server.url}/hindi/${slug}`);
  expect(await link?.getAttribute("target")).toBe("_blank");
  for (const name of ["post", "home"]) {
    const frame = page.frame({ name });
    // Blocked: Chromium shows its own error document instead; nothing of the page is in the frame.
    await expect.poll(() => frame?.url(), PATIENT).toMatch(/^chrome-error:/);
    expect(await frame?.locator(".skip-link, .site-header, .post-title").count(), name).toBe(0);
    expect(await frame?.locator("body").innerText(), name).not.toContain(title);
  }
  // The only errors: the browser saying it refused those two frames.
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors)
    expect(error).toMatch(/frame-ancestors|X-Frame-Options|Refused to (display|frame)/);
  expect(errors.join("\n")).not.toContain("/embed/");
  await page.close();
});

test("the embed follows the reader's colour scheme and fits its frame's width", async () => {
  const { page, errors } = await newTab(env.context, { viewport: { width: 700, height: 900 } });
  const colours: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.goto(otherUrl, { waitUntil: "load" });
    const embed = page.frame({ name: "embed" });
    await expect.poll(async () => (await embed?.locator("blockquote").count()) ?? 0, PATIENT).toBe(1);
    colours.push((await embed?.evaluate(() => getComputedStyle(document.body).backgroundColor)) ?? "");
    expect(await embed?.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
  }
  expect(colours[0]).not.toBe(colours[1]);
  expect(errors.filter((error) => error.includes("/embed/"))).toEqual([]);
  await page.close();
});

test("a post page's Embed box opens without JavaScript and shows the snippet; with it, Copy code copies it", async () => {
  const url = `${env.server.url}/hindi/${slug}`;
  const oembed = await (
    await fetch(`${env.server.url}/oembed?url=${encodeURIComponent(url)}&format=json`)
  ).json();

  const plain = await newPage(env.browser, { javaScriptEnabled: false });
  await plain.page.goto(url);
  const code = plain.page.locator("details.embed textarea");
  expect(await code.isVisible()).toBe(false);
  await plain.page.locator("details.embed summary").click();
  await expect.poll(() => code.isVisible(), PATIENT).toBe(true);
  expect(await code.inputValue()).toBe(oembed.html);
  expect(await code.getAttribute("readonly")).not.toBeNull();
  expect(await plain.page.locator("details.embed button").count()).toBe(0);
  expect(plain.errors).toEqual([]);
  await plain.context.close();

  const { context, page, errors } = await newPage(env.browser);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url });
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
  await page.getByText("एम्बेड करें", { exact: true }).click();
  await page.getByRole("button", { name: "कोड कॉपी करें" }).click();
  await expect
    .poll(() => page.locator("details.embed .embed-status").textContent(), PATIENT)
    .toBe("कॉपी हो गया");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(oembed.html);
  expect(errors).toEqual([]);
  await context.close();
});
