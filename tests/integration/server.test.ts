import { createHash } from "node:crypto";
import { readdirSync, renameSync, statSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { parse } from "node-html-parser";
import { afterAll, beforeAll, expect, test } from "vitest";
import { postPath } from "#app/content/languages.ts";
import { openDatabase } from "#app/data/sqlite/database.server.ts";
import { openReadonly, POST_COLUMNS, type PostRow } from "#tests/support/db.ts";
import { getHtml } from "#tests/support/html.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

let server: RunningServer;
let post: PostRow;
/** Servers of their own for the tests that break, empty or stop one: started with the first, in parallel. */
let broken: RunningServer;
let flaky: RunningServer;
let busy: RunningServer;

beforeAll(async () => {
  [server, broken, flaky, busy] = await Promise.all([
    startServer(),
    startServer({ env: { LOG_LEVEL: "error" } }),
    startServer(),
    startServer(),
  ]);
  const db = openReadonly(server.dbPath);
  post = db
    .prepare(`SELECT ${POST_COLUMNS} FROM posts WHERE status = 'publish' AND language = 'english' LIMIT 1`)
    .get() as PostRow;
  db.close();
});
afterAll(async () => {
  // Stopping twice is harmless: each test stops its own server, these stop what a skipped test left.
  await Promise.all([server, broken, flaky, busy].map((running) => running?.stop()));
});

const SECURITY_HEADERS = {
  "x-content-type-options": /^nosniff$/,
  "referrer-policy": /^strict-origin-when-cross-origin$/,
  "permissions-policy": /camera=\(\)/,
  "content-security-policy": /frame-ancestors 'none'/,
};

function expectSecurityHeaders(response: Response, what: string) {
  for (const [name, pattern] of Object.entries(SECURITY_HEADERS)) {
    expect(response.headers.get(name), `${name} on ${what}`).toMatch(pattern);
  }
  expect(response.headers.get("x-powered-by"), what).toBeNull();
  expect(response.headers.get("content-security-policy"), what).not.toMatch(
    /unsafe-eval|unsafe-hashes|(script|style)-src[^;]*unsafe-inline/,
  );
}

/**
 * The page's inline styles are allowed by their hashes and nothing else is
 * (decision 046): style-src is 'self' and exactly the hashes of the page's
 * <style> blocks, and no element has a style= attribute (without
 * 'unsafe-hashes' the browser would not apply one).
 */
function expectStylesByHash(response: Response, text: string, what: string) {
  const csp = response.headers.get("content-security-policy") ?? "";
  const styleSrc = /(?:^|; )style-src ([^;]*)/.exec(csp)?.[1]?.split(" ");
  expect(styleSrc?.[0], what).toBe("'self'");
  const doc = parse(text);
  const blocks = doc.querySelectorAll("style");
  expect(blocks.length, what).toBeGreaterThan(0);
  const hashes = blocks.map(
    (style) => `'sha256-${createHash("sha256").update(style.rawText).digest("base64")}'`,
  );
  expect(new Set(styleSrc?.slice(1)), what).toEqual(new Set(hashes));
  expect(doc.querySelectorAll("[style]").length, what).toBe(0);
  expect(text, what).not.toMatch(/ nonce="/);
}

test("every response type carries the security headers", async () => {
  const asset = readdirSync(path.resolve("build/client/assets")).find((name) => name.endsWith(".js"));
  const targets = {
    page: "/english/home",
    home: "/",
    "404": "/no/such/page",
    asset: `/assets/${asset}`,
    image: "/images/logo.svg",
    health: "/healthz",
    redirect: "/search?q=love",
  };
  for (const [what, target] of Object.entries(targets)) {
    const response = await fetch(`${server.url}${target}`, { redirect: "manual" });
    expect(response.status, what).toBeLessThan(500);
    expectSecurityHeaders(response, what);
  }
});

test("the CSP allows exactly the page's own inline scripts, by their hashes", async () => {
  for (const target of [postPath("english", post.slug), "/", "/tags", "/no/such/page"]) {
    const { response, doc, text } = await getHtml(`${server.url}${target}`);
    const csp = response.headers.get("content-security-policy") ?? "";
    const allowed = new Set(/script-src ([^;]*)/.exec(csp)?.[1]?.split(" ").slice(1));
    expect(allowed.size, target).toBeGreaterThan(0);
    // No nonce: the page's bytes are the same for every visitor (decision 036).
    expect(csp, target).not.toContain("nonce-");
    expect(text, target).not.toMatch(/ nonce="/);
    const inline = doc
      .querySelectorAll("script")
      .filter(
        (script) => !script.getAttribute("src") && !(script.getAttribute("type") ?? "").includes("json"),
      );
    expect(inline.length, target).toBeGreaterThan(0);
    const hashes = inline.map(
      (script) => `'sha256-${createHash("sha256").update(script.rawText).digest("base64")}'`,
    );
    // Every script that runs is allowed, and nothing else is.
    expect(new Set(hashes), target).toEqual(allowed);
  }
});

test("every kind of page allows its inline styles by hash, never 'unsafe-inline', rendered or from the cache", async () => {
  const targets = [
    "/",
    "/english/home",
    "/hindi/home",
    "/marathi/home",
    "/english/home?page=2",
    postPath("english", post.slug),
    `/post/${post.slug}`,
    "/post/privacy-policy",
    "/search/love",
    "/search/zzzzqqq",
    "/tags",
    "/people",
    "/no/such/page",
  ];
  let hits = 0;
  for (const target of targets) {
    // Twice: rendered (or the home's template spliced), then from the page cache (fast-pages.ts).
    for (const round of ["first", "again"]) {
      const { response, text } = await getHtml(`${server.url}${target}`);
      expect(response.status, target).toBe(target === "/no/such/page" ? 404 : 200);
      expectSecurityHeaders(response, `${target} ${round}`);
      expectStylesByHash(response, text, `${target} ${round}`);
      if (response.headers.get("x-cache") === "HIT") hits++;
    }
  }
  expect(hits).toBeGreaterThan(0);
  // A refusal without React (pages.ts) has its one <style> by hash too.
  const refused = await new Promise<{ response: Response; text: string }>((resolve, reject) => {
    const req = request(`${server.url}/english/home`, { headers: { host: "evil.example" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers))
          if (typeof value === "string") headers.set(name, value);
        resolve({ response: new Response(null, { status: res.statusCode, headers }), text });
      });
    });
    req.on("error", reject);
    req.end();
  });
  expect(refused.response.status).toBe(421);
  expectSecurityHeaders(refused.response, "421");
  expectStylesByHash(refused.response, refused.text, "421");
});

test("a page's JavaScript is sent to start after its load event (decision 032)", async () => {
  const { text } = await getHtml(`${server.url}${postPath("english", post.slug)}`);
  // React Router's module script, inert, and the starter that runs it; no
  // modulepreload left to compete with the first view.
  expect(text).toMatch(/<script type="text\/x-sukti-hydrate">[^<]*import\("\/assets\/entry\.client-/);
  expect(text).not.toContain('<link rel="modulepreload"');
  expect(text).not.toMatch(/<script[^>]* type="module"/);
  expect(text).toMatch(
    /<script>\(function start\([^<]*\)\("text\/x-sukti-hydrate",\["\/assets\/entry\.client-[^"]+\.js"/,
  );
});

test("pages revalidate with ETag and 304, and change when another process writes", async () => {
  const url = `${server.url}${postPath("english", post.slug)}`;
  const first = await fetch(url);
  const etag = first.headers.get("etag");
  expect(etag).toBeTruthy();
  // Browsers revalidate every time; shared caches in front may keep it (decision 057).
  expect(first.headers.get("cache-control")).toMatch(
    /^public, max-age=0, must-revalidate, s-maxage=\d+, stale-while-revalidate=\d+$/,
  );
  const again = await fetch(url, { headers: { "If-None-Match": etag! } });
  expect(again.status).toBe(304);
  // The same body has the same scripts, so the same CSP (decision 036).
  expect(again.headers.get("content-security-policy")).toBe(first.headers.get("content-security-policy"));
  expect(again.headers.get("x-content-type-options")).toBe("nosniff");

  const { db } = openDatabase(`file:${server.dbPath}`);
  db.prepare("UPDATE posts SET title = ? WHERE language = 'english' AND slug = ?").run(
    "A title changed elsewhere",
    post.slug,
  );
  db.close();
  const changed = await fetch(url, { headers: { "If-None-Match": etag! } });
  expect(changed.status).toBe(200);
  expect(changed.headers.get("etag")).not.toBe(etag);
  expect(await changed.text()).toContain("A title changed elsewhere");
});

test("the home page is never served from a cache", async () => {
  const response = await fetch(`${server.url}/`);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("etag")).toBeNull();
});

test("HEAD answers like GET without a body; other methods get 405", async () => {
  for (const target of ["/english/home", "/", "/tags", "/no/such/page"]) {
    const get = await fetch(`${server.url}${target}`);
    const head = await fetch(`${server.url}${target}`, { method: "HEAD" });
    expect(head.status, target).toBe(get.status);
    expect(head.headers.get("content-type"), target).toBe(get.headers.get("content-type"));
    expect((await head.arrayBuffer()).byteLength, target).toBe(0);
  }
  for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
    const response = await fetch(`${server.url}/english/home`, { method });
    expect(response.status, method).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  }
});

test("HTML and JS are compressed, CSS comes inline; hashed assets are immutable for a year", async () => {
  const html = await fetch(`${server.url}/english/home`, { headers: { "Accept-Encoding": "br, gzip" } });
  expect(html.headers.get("content-encoding")).toMatch(/br|gzip/);
  const page = await html.text();
  expect(page).toMatch(/<style id="sukti-css">@font-face/);
  expect(page).not.toContain('rel="stylesheet"');
  const assets = readdirSync(path.resolve("build/client/assets"));
  expect(assets.filter((file) => file.endsWith(".css"))).toEqual([]);
  for (const ext of [".js", ".woff2"]) {
    const name = assets
      .filter((file) => file.endsWith(ext))
      .sort(
        (a, b) =>
          statSync(path.resolve("build/client/assets", b)).size -
          statSync(path.resolve("build/client/assets", a)).size,
      )[0];
    const response = await fetch(`${server.url}/assets/${name}`, {
      headers: { "Accept-Encoding": "br, gzip" },
    });
    // woff2 is compressed already; a second compression would only cost time.
    if (ext === ".js") expect(response.headers.get("content-encoding"), ext).toMatch(/br|gzip/);
    expect(response.headers.get("cache-control"), ext).toBe("public, max-age=31536000, immutable");
  }
});

test("a read failure answers 500 with a request id and no stack; the details go to the log", async () => {
  try {
    const { db } = openDatabase(`file:${broken.dbPath}`);
    db.exec("ALTER TABLE terms RENAME TO terms_gone");
    db.close();
    const response = await getHtml(`${broken.url}/tags`);
    expect(response.status).toBe(500);
    const requestId = response.response.headers.get("x-request-id")!;
    expect(response.text).toContain(requestId);
    expect(response.doc.querySelector("h1")?.text).toBe("Something went wrong");
    expect(response.text).not.toMatch(/at \S+ \(|no such table|SqliteError/);
    expectSecurityHeaders(response.response, "500");
    expectStylesByHash(response.response, response.text, "500");
    await expect.poll(() => broken.output()).toContain(requestId);
    expect(broken.output()).toContain("no such table");
  } finally {
    await broken.stop();
  }
});

test("a missing database answers 503, and the server recovers when it is back", async () => {
  try {
    const aside = `${flaky.dbPath}.aside`;
    renameSync(flaky.dbPath, aside);
    await expect.poll(async () => (await fetch(`${flaky.url}/healthz`)).status).toBe(503);
    expect((await fetch(`${flaky.url}/healthz`)).headers.get("retry-after")).toBe("10");
    const page = await fetch(`${flaky.url}/english/home`);
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("10");
    const text = await page.text();
    expect(text).toContain("Back in a moment");
    expectSecurityHeaders(page, "503");
    expectStylesByHash(page, text, "503");
    renameSync(aside, flaky.dbPath);
    await expect
      .poll(async () => (await fetch(`${flaky.url}/english/home`)).status, { timeout: 5000 })
      .toBe(200);
    expect((await fetch(`${flaky.url}/healthz`)).status).toBe(200);
  } finally {
    await flaky.stop();
  }
});

/** One request on its own connection: "in flight" once the server accepted it. */
function getOnce(url: string): Promise<string> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(String(res.statusCode)));
      res.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

test("SIGTERM during load: every request in flight gets its answer, then exit 0", async () => {
  const paths = ["/english/home", "/hindi/home", "/tags", "/", postPath("english", post.slug)];
  const load: Promise<string>[] = [];
  const started = Date.now();
  let stopped: Promise<number | null> | null = null;
  // A steady stream of requests; SIGTERM lands in the middle of it.
  while (Date.now() - started < 400) {
    for (let i = 0; i < 4; i++) load.push(getOnce(`${busy.url}${paths[load.length % paths.length]}`));
    if (!stopped && Date.now() - started > 150) stopped = busy.stop();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const results = await Promise.all(load);
  expect(await stopped).toBe(0);
  // Answered, or refused before it was accepted; never cut off mid-way.
  const unexpected = results.filter((r) => r !== "200" && r !== "ECONNREFUSED");
  expect(unexpected).toEqual([]);
  expect(results.filter((r) => r === "200").length).toBeGreaterThan(50);
  expect(await getOnce(`${busy.url}/tags`)).toBe("ECONNREFUSED");
});
