// The fast home (server/home-page.ts) splices each request's gallery into a
// home rendered once per content version. It must send what React Router
// would have rendered for the same draws, byte for byte: same tiles, same
// loader data (or hydration would not match), same CSP.
import { createHash } from "node:crypto";
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openDatabase } from "#app/data/sqlite/database.server.ts";
import { getHtml } from "#tests/support/html.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

// Both servers write the same origin into their pages, whatever their port.
const PUBLIC_URL = "http://quotes.example";
let fast: RunningServer;
let full: RunningServer;

beforeAll(async () => {
  fast = await startServer({ env: { PUBLIC_URL } });
  // The same database; every page rendered by React Router.
  full = await startServer({ dbPath: fast.dbPath, env: { PUBLIC_URL, PAGE_CACHE: "off" } });
});
afterAll(async () => {
  await full?.stop();
  await fast?.stop();
});

async function home(server: RunningServer, query = "") {
  const response = await fetch(`${server.url}/${query}`);
  return { body: await response.text(), csp: response.headers.get("content-security-policy") };
}

test("the fast home is the page React Router renders for the same draws", async () => {
  for (let i = 0; i < 3; i++) {
    const [a, b] = await Promise.all([home(fast), home(full)]);
    expect(a.body.length).toBeGreaterThan(10_000);
    expect(a.body).toBe(b.body);
    expect(a.csp).toBe(b.csp);
  }
});

/** The home as a browser that takes brotli and gzip gets it: its encoding and its text, decoded here. */
function compressedHome(server: RunningServer): Promise<{ encoding: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/`, { headers: { "accept-encoding": "br, gzip" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const encoding = res.headers["content-encoding"] ?? "";
        const raw = Buffer.concat(chunks);
        const body =
          encoding === "gzip" ? gunzipSync(raw) : encoding === "br" ? brotliDecompressSync(raw) : raw;
        resolve({ encoding, body: body.toString("utf8") });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

test("to a browser that takes gzip, the fast home is sent in gzip made of parts compressed apart (spliced-gzip.ts)", async () => {
  for (let i = 0; i < 3; i++) {
    const [a, b] = await Promise.all([compressedHome(fast), compressedHome(full)]);
    // gunzip checks the whole text's CRC-32 and length against the gzip's own.
    expect(a.encoding).toBe("gzip");
    expect(b.encoding).toBe("br");
    expect(a.body.length).toBeGreaterThan(10_000);
    expect(a.body).toBe(b.body);
  }
});

test("the home in Hindi and Marathi (?lang=, decision 067) is React Router's page too, its h1 the site's name", async () => {
  for (const query of ["", "?lang=hi", "?lang=mr"]) {
    const [a, b] = await Promise.all([home(fast, query), home(full, query)]);
    expect(a.body).toBe(b.body);
    expect(a.csp).toBe(b.csp);
    expect(a.body).toContain(`<html lang="${query ? query.slice(-2) : "en"}"`);
    expect(a.body).toMatch(/<h1 class="visually-hidden">Sukti<\/h1>/);
    expect(a.body).toMatch(/<h2 id="hero-title" class="hero-title">/);
  }
});

test("its CSP lists the hash of the script that carries this request's gallery", async () => {
  const { response, doc } = await getHtml(`${fast.url}/`);
  const csp = response.headers.get("content-security-policy") ?? "";
  const data = doc
    .querySelectorAll("script")
    .find(
      (script) => script.rawText.includes("streamController.enqueue") && script.rawText.includes("gallery"),
    );
  expect(data).toBeDefined();
  expect(csp).toContain(`'sha256-${createHash("sha256").update(data!.rawText).digest("base64")}'`);
  expect(doc.querySelectorAll(".gallery-tile").length).toBeGreaterThan(0);
  expect(doc.toString()).not.toContain("gallery-slot-");
});

test("a title with markup in it is escaped alike, and new content makes a new template", async () => {
  const { db } = openDatabase(`file:${fast.dbPath}`);
  db.prepare("UPDATE posts SET title = ? || title WHERE status = 'publish'").run(`"Q&A" <b>'it'</b> `);
  db.close();
  const [a, b] = await Promise.all([home(fast), home(full)]);
  expect(a.body).toContain("&quot;Q&amp;A&quot; &lt;b&gt;&#x27;it&#x27;&lt;/b&gt;");
  expect(a.body).toBe(b.body);
  expect(a.csp).toBe(b.csp);
});
