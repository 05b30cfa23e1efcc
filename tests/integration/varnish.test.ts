// sukti (the built server) behind Debian's Varnish with deploy/varnish/default.vcl
// (varnish-modules' xkey): pages are kept and served as HITs, `sukti import`
// with PURGE_URL purges exactly the pages whose xkey names a changed tag, an
// unpublished post is gone from Varnish before the import returns, purges are
// refused outside the ACL, writes pass straight through.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { READY_MS } from "#tests/support/limits.ts";
import { freePort, type RunningServer, startServer } from "#tests/support/server.ts";
import { startVarnish, type TestVarnish, varnishAvailable } from "#tests/support/varnish.ts";

const available = varnishAvailable();

let sukti: RunningServer;
let varnish: TestVarnish;
/** Varnish with the shipped VCL but a purge ACL that leaves this machine out. */
let strict: TestVarnish;
let relay: Server;
let relayUrl: string;
let dir: string;
/** Every purge request the writer sent (through the relay, on to Varnish). */
const purges: { method: string; xkeyPurge: string; surrogateKey: string; body: string; status: number }[] =
  [];

const now = Math.floor(Date.now() / 1000);
/** Posts of this file's own, with tags and people of their own, newest on the English home. */
const record = (
  n: number,
  slug: string,
  tag: string,
  person: string,
  extra: Record<string, unknown> = {},
) => ({
  idNum: 990_000 + n,
  language: "english",
  status: "publish",
  postTime: now - 600 + n,
  title: `Varnish test saying ${n}`,
  slug,
  content: `<p>The ${tag} keeps saying ${n}.</p>`,
  tags: [tag],
  source: { person: { name: `Varnish ${person}`, slug: `varnish-${person}` } },
  ...extra,
});
const A = record(1, "varnish-river-one", "varnish river", "kabir");
const B = record(2, "varnish-river-two", "varnish river", "kabir");
const C = record(3, "varnish-mountain", "varnish mountain", "mira");
const D = record(4, "varnish-sky", "varnish sky", "tuka");

/**
 * `sukti import` of these records into the server's database, run as an
 * operator runs it (bin/sukti.js in its own process), purging through the relay.
 */
async function importRecords(records: object[]) {
  const file = path.join(dir, `import-${Date.now()}-${Math.random()}.ndjson`);
  writeFileSync(file, records.map((r) => JSON.stringify(r)).join("\n"));
  const result = await promisify(execFile)(process.execPath, ["bin/sukti.js", "import", file], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: { ...process.env, DATABASE_URL: `file:${sukti.dbPath}`, PURGE_URL: relayUrl, PURGE_STRICT: "on" },
    encoding: "utf8",
  });
  return result;
}

interface Seen {
  status: number;
  /** Varnish's X-Varnish-Cache. */
  cache: string | null;
  /** sukti's X-Cache when it made the response: HIT, STALE or MISS (rendered). */
  origin: string | null;
  tags: string[];
  body: string;
  requestId: string | null;
}

/** A GET through Varnish; `debug` asks for the tag headers (this machine is a purger). */
async function get(base: string, pathname: string, debug = true): Promise<Seen> {
  const response = await fetch(`${base}${pathname}`, {
    headers: debug ? { "X-Cache-Debug": "1" } : {},
    redirect: "manual",
  });
  return {
    status: response.status,
    cache: response.headers.get("x-varnish-cache"),
    origin: response.headers.get("x-cache"),
    tags: (response.headers.get("xkey") ?? "").split(/[\s,]+/).filter(Boolean),
    body: await response.text(),
    requestId: response.headers.get("x-request-id"),
  };
}

/** GET until Varnish answers from its cache (the first is a MISS and stores the page). */
async function warm(base: string, pathname: string): Promise<Seen> {
  let seen = await get(base, pathname);
  for (let i = 0; i < 3 && seen.cache !== "HIT"; i++) seen = await get(base, pathname);
  return seen;
}

describe.skipIf(!available)("sukti behind Varnish", () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "sukti-varnish-test-"));
    sukti = await startServer();
    varnish = await startVarnish({ backendPort: Number(new URL(sukti.url).port) });
    strict = await startVarnish({
      backendPort: Number(new URL(sukti.url).port),
      purgers: ['"192.0.2.1"'],
    });
    // The writer's PURGE_URL: records what it is sent and hands it on to Varnish unchanged.
    relay = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", async () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers))
          if (typeof value === "string" && !["host", "connection", "content-length"].includes(name))
            headers[name] = value;
        const answer = await fetch(varnish.url, { method: req.method, headers, body: body || undefined });
        const text = await answer.text();
        purges.push({
          method: req.method ?? "",
          xkeyPurge: String(req.headers["xkey-purge"] ?? ""),
          surrogateKey: String(req.headers["surrogate-key"] ?? ""),
          body,
          status: answer.status,
        });
        res.writeHead(answer.status, { "Content-Type": "application/json" }).end(text);
      });
    });
    const port = await freePort();
    await new Promise<void>((resolve) => relay.listen(port, "127.0.0.1", resolve));
    relayUrl = `http://127.0.0.1:${port}/`;
    await importRecords([A, B, C, D]);
  });

  afterAll(async () => {
    relay?.close();
    await varnish?.stop();
    await strict?.stop();
    await sukti?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("pages are kept: the second GET is a HIT, and visitors never see the tag headers", async () => {
    const first = await get(varnish.url, `/english/${A.slug}`);
    expect(first.status).toBe(200);
    const second = await warm(varnish.url, `/english/${A.slug}`);
    expect(second.cache).toBe("HIT");
    // The page names what it shows (the contract of decision 057), including the site-wide tag.
    expect(second.tags.length).toBeGreaterThan(1);
    const plain = await fetch(`${varnish.url}/english/${A.slug}`);
    expect(plain.headers.get("x-varnish-cache")).toBe("HIT");
    expect(Number(plain.headers.get("age"))).toBeGreaterThanOrEqual(0);
    for (const name of ["xkey", "surrogate-key", "cache-tag"]) expect(plain.headers.get(name)).toBeNull();
    await plain.text();
  });

  test("the home's per-visitor gallery is never served from Varnish", async () => {
    for (let i = 0; i < 3; i++) {
      const home = await get(varnish.url, "/");
      expect(home.status).toBe(200);
      expect(home.cache).not.toBe("HIT");
    }
  });

  test("a POST passes straight through to sukti, uncached", async () => {
    const ids = new Set<string | null>();
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${varnish.url}/stats/beacon`, { method: "POST", body: "{}" });
      await response.text();
      expect(response.headers.get("x-varnish-cache")).toBe("PASS");
      // sukti answered each (its request id), whatever it answers to this path.
      ids.add(response.headers.get("x-request-id"));
    }
    expect([...ids].filter(Boolean)).toHaveLength(2);
  });

  test("a purge from a client outside the ACL is refused and purges nothing", async () => {
    // The sitemap index is kept by any shared cache (max-age), with or without tags.
    const kept = await warm(strict.url, "/sitemap.xml");
    expect(kept.cache).toBe("HIT");
    for (const method of ["POST", "PURGE"]) {
      const refused = await fetch(strict.url, { method, headers: { "xkey-purge": "all" } });
      await refused.text();
      expect(refused.status).toBe(403);
    }
    expect((await get(strict.url, "/sitemap.xml")).cache).toBe("HIT");
    // The same request from inside the ACL purges, and says how many objects went.
    const allowed = await fetch(varnish.url, { method: "PURGE", headers: { "xkey-purge": "no-such-tag" } });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual({ purged: 0 });
  });

  test("an edit purges exactly the pages whose xkey names a changed tag; the rest stay HIT", async () => {
    const hindiHome = await get(varnish.url, "/hindi/home");
    const hindiPost = /class="post-card-link" href="(\/hindi\/[^"]+)"/.exec(hindiHome.body)?.[1];
    expect(hindiPost).toBeTruthy();
    const pages = [
      ...[A, B, C, D].map((post) => `/english/${post.slug}`),
      "/tag/varnish-river",
      "/tag/varnish-mountain",
      "/tag/varnish-sky",
      "/people/varnish-kabir",
      "/people/varnish-mira",
      "/people/varnish-tuka",
      "/english/home",
      "/hindi/home",
      "/marathi/home",
      hindiPost!,
      "/tags",
      "/people",
      "/sitemap.xml",
      "/sitemaps/english-1.xml",
      "/english/feed.xml",
    ];
    const before = new Map<string, Seen>();
    for (const page of pages) {
      const seen = await warm(varnish.url, page);
      expect(seen.cache, page).toBe("HIT");
      expect(seen.tags.length, `${page} names no tags`).toBeGreaterThan(0);
      before.set(page, seen);
    }

    purges.length = 0;
    await importRecords([{ ...A, content: "<p>The varnish river, edited.</p>" }]);
    // Called once the write committed, before the import returned: POST with the contract's headers.
    expect(purges.length).toBeGreaterThan(0);
    const purged = new Set(purges.flatMap((purge) => purge.xkeyPurge.split(/\s+/).filter(Boolean)));
    for (const purge of purges) {
      expect(purge.status).toBe(200);
      expect(purge.surrogateKey).toBe(purge.xkeyPurge);
      expect(JSON.parse(purge.body).tags).toEqual(purge.xkeyPurge.split(/\s+/).filter(Boolean));
    }
    expect(purged.has("all"), "an edit of one post must not purge every page").toBe(false);

    const after = new Map<string, Seen>();
    for (const page of pages) after.set(page, await get(varnish.url, page));
    for (const page of pages) {
      const shouldGo = before.get(page)!.tags.some((tag) => purged.has(tag));
      const cache = after.get(page)!.cache;
      expect(cache === "HIT" ? "kept" : "purged", `${page} (tags ${before.get(page)!.tags.join(" ")})`).toBe(
        shouldGo ? "purged" : "kept",
      );
    }
    // The edited post's page was among them and shows the edit within a few
    // seconds: sukti may answer the first fetch from its own stale copy while it
    // renders (X-Cache: STALE), which Varnish keeps a quarter of a second, never s-maxage.
    expect(after.get(`/english/${A.slug}`)!.cache).not.toBe("HIT");
    let edited = after.get(`/english/${A.slug}`)!;
    const deadline = Date.now() + READY_MS;
    while (!edited.body.includes("The varnish river, edited.") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      edited = await get(varnish.url, `/english/${A.slug}`);
    }
    expect(edited.body).toContain("The varnish river, edited.");
    // Pages the edit did not touch were not purged.
    for (const page of [
      `/english/${C.slug}`,
      `/english/${D.slug}`,
      "/tag/varnish-sky",
      "/people/varnish-mira",
      hindiPost!,
    ])
      expect(after.get(page)!.cache, page).toBe("HIT");
  });

  test("an unpublished post is not served by Varnish once the import returns", async () => {
    for (const page of [`/english/${B.slug}`, "/tag/varnish-river", "/english/home"]) {
      const seen = await warm(varnish.url, page);
      expect(seen.cache, page).toBe("HIT");
      expect(seen.body, page).toContain(`/english/${B.slug}`);
    }
    await importRecords([{ ...B, status: "draft" }]);
    const post = await get(varnish.url, `/english/${B.slug}`, false);
    expect(post.status).toBe(404);
    for (const page of ["/tag/varnish-river", "/english/home"]) {
      const seen = await get(varnish.url, page, false);
      expect(seen.body, page).not.toContain(`href="/english/${B.slug}"`);
    }
  });
});
