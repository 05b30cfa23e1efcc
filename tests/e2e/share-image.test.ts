// A Hindi and a Marathi share image, as a browser shows them, against a
// reference the browser draws itself (HarfBuzz shaping, the same font files,
// the same positions): conjuncts, reph, matras and nukta must come out alike.
// A control with the conjuncts broken apart must not.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createCanvas, loadImage, type SKRSContext2D } from "@napi-rs/canvas";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Language, postPath } from "#app/content/languages.ts";
import { openDatabase } from "#app/data/sqlite/database.server.ts";
import { fontFilePath, fontOf, loadCanvas, SHARE_FONTS } from "#app/share-image/canvas.server.ts";
import { SHARE_IMAGE_HEIGHT, SHARE_IMAGE_WIDTH } from "#app/share-image/content.ts";
import { layoutShareImage, SHARE_LOGO_BOX, type ShareTextItem } from "#app/share-image/layout.server.ts";
import { demoSite as siteConfig } from "#app/site.config.ts";
import { launchBrowser, newPage } from "#tests/support/browser.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

const W = SHARE_IMAGE_WIDTH;
const H = SHARE_IMAGE_HEIGHT;
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../test-results/share-image");

// Every hard case: क्ष त्र ज्ञ श्र, reph (र्म), nukta (ज़ फ़ क़), i-matra before its
// conjunct (त्रि), eyelash ra (ऱ्ह), stacked ठ्ठ and द्ध, anusvara and chandrabindu.
const POSTS = [
  {
    language: "hindi",
    slug: "क्षमा-और-ज्ञान",
    title: "क्षमा और ज्ञान",
    content:
      "<p>क्षमा वीरस्य भूषणम्, त्रिशूल और ज्ञान।<br>श्रद्धा से कर्म करो, ज़िंदगी फ़क़ीर की, धर्म सँभालो॥</p><p>— परीक्षा पत्र</p>",
    image: "/images/cards/hindi-2.jpg",
  },
  {
    language: "marathi",
    slug: "ज्ञानेश्वर-म्हणे-क्षमा",
    title: "ज्ञानेश्वर म्हणे क्षमा",
    content:
      "<p>ज्ञानेश्वर म्हणे क्षमा हीच श्रद्धा; त्र्यंबक, कर्म, धर्म, विठ्ठल.<br>तऱ्हा, ऱ्हस्व, सह्याद्री, पक्ष्यांचे थवे, शुद्ध ज़ीरो.</p><p>— संत ज्ञानेश्वर</p>",
    image: "",
  },
] as const;

let server: RunningServer;
let browser: Browser;
let imageDir: string;

beforeAll(async () => {
  imageDir = mkdtempSync(path.join(tmpdir(), "sukti-share-e2e-"));
  [server, browser] = await Promise.all([
    startServer({ env: { SHARE_IMAGE_DIR: imageDir } }),
    launchBrowser(),
  ]);
  const { db } = openDatabase(`file:${server.dbPath}`);
  const insert = db.prepare(
    `INSERT INTO posts (language, id_num, status, post_time, title, slug, feature_image_url, content, excerpt)
     VALUES (?, (SELECT max(id_num) + 1 FROM posts WHERE language = ?), 'publish', unixepoch(), ?, ?, ?, ?, '')`,
  );
  for (const post of POSTS) {
    insert.run(post.language, post.language, post.title, post.slug, post.image, post.content);
  }
  db.close();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(imageDir, { recursive: true, force: true });
});

/** @font-face rules for the very files the server draws with. */
function fontFaces(): string {
  return Object.values(SHARE_FONTS)
    .flatMap(({ family, files }) =>
      files.map((file) => {
        const weight = /-(\d00)-normal/.exec(file)?.[1] ?? "400";
        const data = readFileSync(fontFilePath(file)).toString("base64");
        return `@font-face { font-family: "${family}"; font-weight: ${weight}; src: url(data:font/woff2;base64,${data}) format("woff2"); }`;
      }),
    )
    .join("\n");
}

import { escapeXml } from "#app/content/feeds.ts";

/** The text alone, white on black, where the layout puts it, drawn by the browser. */
async function reference(page: Page, items: ShareTextItem[], faces: string): Promise<Buffer> {
  const texts = items
    .map(
      (item) =>
        `<text x="${item.x}" y="${item.y}" font-family="${item.family}" font-size="${item.size}" font-weight="${item.weight}" fill="#fff">${escapeXml(item.text)}</text>`,
    )
    .join("");
  // A blank page: the site's own CSP would refuse data: fonts.
  await page.goto("about:blank");
  await page.setContent(
    `<!doctype html><meta charset="utf-8"><style>${faces} html,body{margin:0;background:#000}</style>
     <svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" style="display:block">${texts}</svg>`,
  );
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  await page.evaluate(() => Promise.all([...document.fonts].map((face) => face.load())));
  return page.screenshot({ clip: { x: 0, y: 0, width: W, height: H } });
}

/** The served image as the browser decodes and shows it (its own image document, at 1:1). */
async function served(page: Page, url: string): Promise<Buffer> {
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-type"]).toBe("image/jpeg");
  const size = await page.evaluate(async () => {
    const img = document.images[0]!;
    await img.decode();
    return [img.naturalWidth, img.naturalHeight];
  });
  expect(size).toEqual([W, H]);
  const box = await page.locator("img").boundingBox();
  expect(box).toEqual({ x: 0, y: 0, width: W, height: H });
  return page.screenshot({ clip: { x: 0, y: 0, width: W, height: H } });
}

/** Pixels light enough to be text (the image's background is kept dark by design). */
async function inkMask(png: Buffer): Promise<Uint8Array> {
  const image = await loadImage(png);
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext("2d");
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, W, H);
  const mask = new Uint8Array(W * H);
  const logo = SHARE_LOGO_BOX;
  for (let i = 0; i < W * H; i++) {
    const x = i % W;
    const y = Math.floor(i / W);
    const inLogo =
      x >= logo.x - 4 && x < logo.x + logo.size + 4 && y >= logo.y - 4 && y < logo.y + logo.size + 4;
    const luminance = 0.2126 * data[i * 4]! + 0.7152 * data[i * 4 + 1]! + 0.0722 * data[i * 4 + 2]!;
    mask[i] = !inLogo && luminance > 140 ? 1 : 0;
  }
  return mask;
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Intersection over union of two masks, within a box (the whole image by default). */
function overlap(a: Uint8Array, b: Uint8Array, box: Box = { left: 0, top: 0, right: W, bottom: H }): number {
  let both = 0;
  let either = 0;
  for (let y = Math.max(0, box.top); y < Math.min(H, box.bottom); y++) {
    for (let x = Math.max(0, box.left); x < Math.min(W, box.right); x++) {
      const i = y * W + x;
      if (a[i] && b[i]) both++;
      if (a[i] || b[i]) either++;
    }
  }
  return either === 0 ? 1 : both / either;
}

interface Word extends ShareTextItem {
  box: Box;
}

/** Each word of a line, at the place the line's own shaping gives it. */
function wordsOf(item: ShareTextItem, ctx: SKRSContext2D): Word[] {
  ctx.font = fontOf(item.size, item.weight, item.family);
  const parts = item.text.split(" ");
  return parts.map((text, index) => {
    const x = item.x + (index === 0 ? 0 : ctx.measureText(`${parts.slice(0, index).join(" ")} `).width);
    const width = ctx.measureText(text).width;
    const box = {
      left: Math.floor(x - 4),
      right: Math.ceil(x + width + 4),
      top: Math.floor(item.y - item.size * 1.15),
      bottom: Math.ceil(item.y + item.size * 0.55),
    };
    return { ...item, text, x, box };
  });
}

/** A virama joining two consonants (a word-final virama is no conjunct). */
const CONJUNCT = /\u094d[\u0915-\u0939\u0958-\u095f]/;

/** The same text with every conjunct broken apart (a ZWNJ after each virama): what bad shaping looks like. */
const broken = (text: string) => text.replace(/\u094d/g, "\u094d\u200c");

test("Hindi and Marathi share images draw their conjuncts as the browser does", async () => {
  const { context, page, errors } = await newPage(browser, { viewport: { width: W, height: H } });
  const faces = fontFaces();
  await loadCanvas();
  const measure = createCanvas(W, H).getContext("2d");
  for (const post of POSTS) {
    await page.goto(`${server.url}${postPath(post.language, post.slug)}`);
    const og = await page.locator('meta[property="og:image"]').getAttribute("content");
    const url = new URL(og ?? "");
    const image = await served(page, `${server.url}${url.pathname}`);

    const layout = layoutShareImage(measure, {
      language: post.language as Language,
      slug: post.slug,
      title: post.title,
      content: post.content,
      image: post.image || siteConfig.defaultImage.src,
      brand: { name: siteConfig.name, logo: siteConfig.logo.src },
    });
    expect(layout.source).toBe("quote");
    const quoteLines = layout.items.filter((item) => item.weight === 600 && item.size > 30);
    expect(quoteLines.map((item) => item.text).join(" ")).toContain(
      post.language === "hindi" ? "क्षमा" : "ज्ञानेश्वर",
    );
    const words = quoteLines.flatMap((item) => wordsOf(item, measure));
    const conjunctWords = words.filter((word) => CONJUNCT.test(word.text));
    expect(conjunctWords.length).toBeGreaterThanOrEqual(6);
    const others = layout.items.filter((item) => !quoteLines.includes(item));
    const good = await reference(page, [...words, ...others], faces);
    // Control: the conjunct words drawn broken apart, each in its own place.
    const bad = await reference(
      page,
      [...words.map((word) => ({ ...word, text: broken(word.text) })), ...others],
      faces,
    );
    writeFileSync(path.join(SCREENSHOTS, `${post.language}-served.png`), image);
    writeFileSync(path.join(SCREENSHOTS, `${post.language}-reference.png`), good);
    writeFileSync(path.join(SCREENSHOTS, `${post.language}-broken.png`), bad);

    const [servedMask, goodMask, badMask] = await Promise.all([inkMask(image), inkMask(good), inkMask(bad)]);
    const whole = overlap(servedMask, goodMask);
    expect(whole, post.language).toBeGreaterThan(0.85);
    // Word by word, so one misdrawn conjunct cannot hide in a large image.
    const scores = words.map((word) => ({
      word: word.text,
      good: overlap(servedMask, goodMask, word.box),
      broken: overlap(servedMask, badMask, word.box),
    }));
    for (const score of scores) expect(score.good, score.word).toBeGreaterThan(0.75);
    for (const score of scores.filter((s) => CONJUNCT.test(s.word))) {
      expect(score.broken, score.word).toBeLessThan(score.good - 0.15);
    }
  }
  expect(errors).toEqual([]);
  await context.close();
});

test("after a client-side navigation the head still carries the absolute canonical and the share image", async () => {
  const { context, page, errors } = await newPage(browser);
  await page.goto(`${server.url}/hindi/home`);
  const card = page.locator(".post-grid .post-card-link").first();
  const href = (await card.getAttribute("href")) ?? "";
  await card.click();
  await page.waitForURL(`${server.url}${href}`);
  await expect
    .poll(() => page.locator('link[rel="canonical"]').getAttribute("href"))
    .toBe(`${server.url}${href}`);
  const image = await page.locator('meta[property="og:image"]').getAttribute("content");
  expect(image).toMatch(new RegExp(`^${server.url}/share/hindi/`));
  expect(await page.locator('link[rel="alternate"][hreflang]').count()).toBe(0);
  const response = await page.request.get(image ?? "");
  expect(response.status()).toBe(200);
  expect(errors).toEqual([]);
  await context.close();
});
