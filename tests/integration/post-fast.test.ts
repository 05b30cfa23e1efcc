// Post pages made without React (server/post-page.ts, decision 097): a
// language's frame, cut from one full render, with each post's own pieces
// written as strings. Each page must be what React Router renders for the
// same post, byte for byte (or hydration would not match), with the same
// headers: over every demo post and posts of the shapes the demo lacks
// (recordings, a remote image, an SVG image, every part of a source alone,
// markup characters and line separators in every field, long quotes).
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runSukti } from "#tests/support/cli.ts";
import { DEMO_DB_ENV, type RunningServer, startServer } from "#tests/support/server.ts";

const PUBLIC_URL = "https://quotes.example";
const dir = mkdtempSync(path.join(tmpdir(), "sukti-post-fast-"));
const dbPath = path.join(dir, "sukti.db");
let cached: RunningServer;
let uncached: RunningServer;
let full: RunningServer;
let fullCached: RunningServer;

const LS = "\u2028";
const odd = (n: number) => `Fish & "chips" <${n}> it's ${LS}here`;

/** Posts of the shapes the demo has not, in three languages, linked as translations in pairs. */
function extraPosts() {
  const posts: Record<string, unknown>[] = [];
  const languages = ["english", "hindi", "marathi"] as const;
  const titles = { english: odd(0), hindi: "ढाई आखर प्रेम का & <b>", marathi: 'वृक्षवल्ली "आम्हा" सोयरीं' };
  for (let i = 0; i < 12; i++) {
    const language = languages[i % 3] as (typeof languages)[number];
    const sources = [
      {
        person: { name: "Kabir", names: { hi: "कबीर", mr: "कबीर" }, slug: "kabir-extra" },
        work: "Bijak",
        reference: "Sakhi 12",
      },
      { work: "Gitanjali & <Songs>" },
      { reference: '12 "a"' },
      { person: "Tukaram", reference: "abhang 3" },
      { work: "Abhang", reference: "3 & 4" },
      "",
    ];
    posts.push({
      idNum: 9000 + i,
      language,
      status: "publish",
      postTime: 1_760_000_000 + i * 3_600,
      title: `${titles[language]} ${i}`,
      slug: `extra-${i}-it's-(odd)!`,
      content:
        i % 4 === 3
          ? // Long enough to have no Roman letters (MAX_ROMAN_TEXT): the Hindi and Marathi one too.
            `<p>${`${titles[language]}: a long line of the quote, said again and again. `.repeat(90)}</p>`
          : `<p>${titles[language]} ${LS} line ${i}<br>second &amp; "last" line</p>`,
      excerpt: i % 2 ? `An excerpt & <${i}>` : "",
      featureImageUrl: [
        "",
        "https://images.example/a%20b.jpg?w=1&amp=2",
        "/images/logo.svg",
        "/images/cards/english-1.webp",
      ][i % 4],
      audio: ["", "/audio/x.mp3", "https://media.example/y.mp3"][i % 3],
      tags: i % 5 === 0 ? [] : [`tag & ${i % 3}`, "प्रेम"],
      categories: i % 2 ? ["Poetry"] : [],
      translationKey: i < 6 ? `pair-${Math.floor(i / 2)}` : "",
      source: sources[i % sources.length],
    });
  }
  return { posts };
}

beforeAll(async () => {
  const demo = process.env[DEMO_DB_ENV];
  if (!demo) throw new Error("no demo database for the run (tests/support/demo-database-global.ts)");
  copyFileSync(demo, dbPath);
  const file = path.join(dir, "extra.json");
  writeFileSync(file, JSON.stringify(extraPosts()));
  const imported = await runSukti(["import", file], { DATABASE_URL: `file:${dbPath}` });
  expect(imported.status, imported.stderr).toBe(0);
  const env = { PUBLIC_URL, LOG_LEVEL: "debug" };
  [cached, uncached, full, fullCached] = await Promise.all([
    startServer({ dbPath, env }),
    startServer({ dbPath, env: { ...env, PAGE_CACHE: "off" } }),
    // Every page rendered by React Router, kept or not.
    startServer({ dbPath, env: { PUBLIC_URL, PAGE_CACHE: "off", POST_PAGES: "off" } }),
    startServer({ dbPath, env: { PUBLIC_URL, POST_PAGES: "off" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([cached?.stop(), uncached?.stop(), full?.stop(), fullCached?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Every published post's address. */
function postAddresses(): string[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db
      .prepare("SELECT language, slug FROM posts WHERE status = 'publish' ORDER BY id")
      .all() as { language: string; slug: string }[];
    return rows.map(({ language, slug }) => `/${language}/${encodeURIComponent(slug)}`);
  } finally {
    db.close();
  }
}

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string>;
  encoding: string;
}

/** The page as a browser that takes `encoding` gets it, decoded; its headers but those of the moment. */
function get(server: RunningServer, address: string, encoding = "identity"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${address}`, { headers: { "accept-encoding": encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const sent = res.headers["content-encoding"] ?? "";
        const headers: Record<string, string> = {};
        for (const name of [
          "content-type",
          "content-security-policy",
          "etag",
          "xkey",
          "cache-tag",
          "cache-control",
        ]) {
          headers[name] = String(res.headers[name] ?? "");
        }
        resolve({
          status: res.statusCode ?? 0,
          body: (sent === "gzip"
            ? gunzipSync(raw)
            : sent === "br"
              ? brotliDecompressSync(raw)
              : raw
          ).toString("utf8"),
          headers,
          encoding: sent,
        });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * Waits until the server's log holds every line written before now: its output
 * comes through a pipe of its own, and may arrive after the responses it
 * logged. A request for a marker address is logged after those; its line seen,
 * so are they.
 */
async function logsArrived(server: RunningServer): Promise<void> {
  const marker = `/english/log-marker-${process.hrtime.bigint()}`;
  await get(server, marker);
  const deadline = Date.now() + 15_000;
  while (!server.output().includes(`"path":"${marker}"`)) {
    if (Date.now() > deadline) throw new Error(`the server's log never showed ${marker}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** How many times a server's log says this (a post page made from a frame, a frame cut). */
function logged(server: RunningServer, message: string): number {
  return server
    .output()
    .split("\n")
    .filter((line) => line.includes(`"${message}"`)).length;
}

/** How many post pages a server made from a frame or rendered in full to cut one (by its log). */
function framedOrCut(server: RunningServer): number {
  return logged(server, "post page from its frame") + logged(server, "post page frame cut");
}

/**
 * Cache-Control with its s-maxage (the seconds to the site's midnight in its last hour) read apart:
 * two servers asked at once may answer a second apart, or either side of midnight.
 */
function sameHeaders(a: Record<string, string>, b: Record<string, string>, address: string): void {
  const seconds = (headers: Record<string, string>) =>
    Number(/s-maxage=(\d+)/.exec(headers["cache-control"] ?? "")?.[1]);
  const [x, y] = [seconds(a), seconds(b)];
  if (!Number.isNaN(x) || !Number.isNaN(y)) {
    expect(Math.abs(x - y) <= 2 || Math.min(x, y) <= 2, `${address}: s-maxage ${x} and ${y}`).toBe(true);
  }
  const without = (headers: Record<string, string>) => ({
    ...headers,
    "cache-control": (headers["cache-control"] ?? "").replace(/s-maxage=\d+/, "s-maxage=…"),
  });
  expect(without(a), address).toEqual(without(b));
}

test("every post page made from its language's frame is the page React Router renders, with its headers", async () => {
  const addresses = postAddresses();
  expect(addresses.length).toBeGreaterThan(150);
  for (const address of addresses) {
    const [a, b, reference, keptReference] = await Promise.all([
      get(cached, address),
      get(uncached, address),
      get(full, address),
      get(fullCached, address),
    ]);
    expect(reference.status, address).toBe(200);
    expect(reference.body.length).toBeGreaterThan(10_000);
    expect(b.body, address).toBe(reference.body);
    sameHeaders(b.headers, reference.headers, address);
    // Kept in the page cache: the same body, and the same tags and Cache-Control for a cache in front.
    expect(a.body, address).toBe(reference.body);
    sameHeaders(a.headers, keptReference.headers, address);
    expect(a.headers.xkey, address).toMatch(/\bpost[-_]/);
  }
  await Promise.all([logsArrived(cached), logsArrived(uncached)]);
  // Every page made from a frame or rendered in full to cut one (the first of each language, with
  // and without an image preload, and again on the site's next day), but the posts whose image React
  // would not preload as written here (the site's logo as a post's image: 3 of the extra posts).
  for (const server of [cached, uncached]) {
    expect(addresses.length - framedOrCut(server)).toBe(3);
    expect(logged(server, "post page from its frame")).toBeGreaterThan(addresses.length / 2);
  }
});

test("to a browser that takes gzip, a post page made from its frame is gzip of parts compressed apart", async () => {
  const addresses = postAddresses().slice(-20);
  await logsArrived(uncached);
  const before = framedOrCut(uncached);
  for (const address of addresses) {
    const [a, kept, reference] = await Promise.all([
      get(uncached, address, "gzip"),
      get(cached, address, "gzip"),
      get(full, address, "gzip"),
    ]);
    // gunzip checks the whole text's CRC-32 and length against the gzip's own.
    expect(a.encoding).toBe("gzip");
    expect(a.body, address).toBe(reference.body);
    // A kept page's gzip, as a cache in front asks for it.
    expect(kept.encoding).toBe("gzip");
    expect(kept.body, address).toBe(reference.body);
  }
  // Made from their frame (the spliced gzip, not a compression of a full render) or cutting one,
  // but the 3 posts with the site's logo as their image.
  await logsArrived(uncached);
  expect(addresses.length - (framedOrCut(uncached) - before)).toBe(3);
});

test("to a browser that takes brotli, a post page made from its frame is brotli of the whole page", async () => {
  const addresses = postAddresses().slice(0, 20);
  for (const address of addresses) {
    const [a, reference] = await Promise.all([
      get(uncached, address, "br, gzip"),
      get(full, address, "br, gzip"),
    ]);
    expect(a.encoding, address).toBe("br");
    expect(a.body, address).toBe(reference.body);
  }
});

test("an address that is no post's page is answered as React Router answers it", async () => {
  for (const address of [
    "/english/home",
    "/hindi/no-such-post",
    "/english/EXTRA-1-IT'S-(ODD)!",
    "/marathi/%E0%A4",
    "/english/a%2Fb",
  ]) {
    const [a, reference] = await Promise.all([get(uncached, address), get(full, address)]);
    expect(a.status, address).toBe(reference.status);
    if (reference.status === 200 || reference.status === 404) expect(a.body, address).toBe(reference.body);
  }
});
