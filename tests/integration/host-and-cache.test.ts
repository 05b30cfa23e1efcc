// Decision 034: a Host header is the visitor's to write, so it must never reach
// a page another visitor sees; and a query string must not mint cache entries.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { rawRequest } from "#tests/support/raw-http.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

const EVIL = "evil.example";

function get(port: number, path: string, host: string | null, version = "1.1") {
  const hostLine = host === null ? "" : `Host: ${host}\r\n`;
  return rawRequest(port, `GET ${path} HTTP/${version}\r\n${hostLine}Connection: close\r\n\r\n`);
}

describe("without PUBLIC_URL", () => {
  let server: RunningServer;
  let port: number;
  let postPath: string;

  beforeAll(async () => {
    server = await startServer();
    port = Number(new URL(server.url).port);
    const home = await (await fetch(`${server.url}/english/home`)).text();
    postPath = /href="(\/english\/(?!home|feed\.xml)[^"]+)"/.exec(home)![1]!;
  });
  afterAll(async () => {
    await server?.stop();
  });

  test("start-up says which origin it uses and why", () => {
    expect(server.output()).toMatch(/PUBLIC_URL is not set: serving loopback addresses only/);
  });

  test("a spoofed Host gets 421 and never reaches a later visitor's page", async () => {
    const paths = [
      postPath,
      "/",
      "/english/home?page=2",
      "/sitemap.xml",
      "/sitemaps/english-1.xml",
      "/english/feed.xml",
      "/robots.txt",
      "/tags",
    ];
    for (const path of paths) {
      // First the attacker (on a cold cache), then HTTP/1.0 with no Host at all…
      const spoofed = await get(port, path, EVIL);
      expect(spoofed.status, path).toBe(421);
      expect(spoofed.body.toString()).not.toContain(EVIL);
      expect((await get(port, path, null, "1.0")).status, path).toBe(421);
      expect((await get(port, path, `${EVIL}:${port}`)).status, path).toBe(421);
      // …then a visitor: nothing of theirs, nor a made-up localhost.
      const visitor = await get(port, path, `127.0.0.1:${port}`);
      const body = visitor.body.toString();
      expect(visitor.status, path).toBeLessThan(400);
      expect(body, path).not.toContain(EVIL);
      expect(body, path).not.toMatch(/https?:\/\/localhost\//);
    }
    const post = (await get(port, postPath, `127.0.0.1:${port}`)).body.toString();
    expect(post).toContain(`<link rel="canonical" href="http://127.0.0.1:${port}${postPath}"`);
  });

  test("every loopback host is served, each page with its own origin", async () => {
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      "localhost",
      "LOCALHOST:80",
    ]) {
      const response = await get(port, postPath, host);
      expect(response.status, host).toBe(200);
      expect(response.body.toString(), host).toContain(`href="http://${host.toLowerCase()}${postPath}"`);
    }
  });

  test("an absolute-form target (RFC 9112 §3.2.2) is its path, and its authority is the Host", async () => {
    const xCache = (head: string) => /\r\nX-Cache: (\w+)/i.exec(head)?.[1];
    // Pages no other test asks for: the first answer is rendered (Express), the second cached (fast path).
    for (const path of ["/hindi/home", "/marathi/home?page=2", "/people"]) {
      const target = `http://127.0.0.1:${port}${path}`;
      const rendered = await get(port, target, `127.0.0.1:${port}`);
      expect(rendered.status, path).toBe(200);
      expect(xCache(rendered.head), path).toBe("MISS");
      // The Host header beside an absolute-form target is ignored: the target's authority counts.
      const cached = await get(port, target, EVIL);
      expect(cached.status, path).toBe(200);
      expect(xCache(cached.head), path).toBe("HIT");
      const plain = await get(port, path, `127.0.0.1:${port}`);
      expect(cached.body.equals(plain.body), path).toBe(true);
      expect(rendered.body.equals(plain.body), path).toBe(true);
      expect(plain.body.toString(), path).toContain(`href="http://127.0.0.1:${port}`);
    }
    expect((await get(port, `HTTP://LOCALHOST:${port}`, EVIL)).status).toBe(200);
    expect((await get(port, `http://127.0.0.1:${port}/no/such/page`, EVIL)).status).toBe(404);
    // A foreign authority is refused as a foreign Host is, on a cold page and a cached one.
    for (const path of ["/english/feed.xml", "/hindi/home"]) {
      const foreign = await get(port, `http://${EVIL}${path}`, `127.0.0.1:${port}`);
      expect(foreign.status, path).toBe(421);
      expect(foreign.body.toString()).not.toContain(EVIL);
    }
  });

  test("/healthz answers whatever the Host (load balancers probe by address)", async () => {
    expect((await get(port, "/healthz", "10.0.0.5:3000")).status).toBe(200);
  });

  test("?page= on a post, tracking parameters and other spellings of a path share one cache entry", async () => {
    const first = await fetch(`${server.url}${postPath}`);
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag");
    const spelled = postPath.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`);
    for (const variant of [
      postPath,
      `${postPath}?page=2`,
      `${postPath}?page=999999`,
      `${postPath}?utm_source=whatsapp&fbclid=x`,
      `${postPath}?`,
      spelled,
    ]) {
      const response = await fetch(`${server.url}${variant}`);
      expect(response.status, variant).toBe(200);
      expect(response.headers.get("x-cache"), variant).toBe("HIT");
      expect(response.headers.get("etag"), variant).toBe(etag);
    }
  });

  test("a flood of ?page= on a post does not push real pages out of the cache", async () => {
    await fetch(`${server.url}/tags`);
    const flood = Array.from({ length: 2500 }, (_, i) => `${server.url}${postPath}?page=${i + 2}`);
    for (let i = 0; i < flood.length; i += 50) {
      await Promise.all(flood.slice(i, i + 50).map((url) => fetch(url).then((r) => r.arrayBuffer())));
    }
    expect((await fetch(`${server.url}/tags`)).headers.get("x-cache")).toBe("HIT");
  });

  test("?page= still pages a list, and page 1 is the bare address", async () => {
    const bare = await fetch(`${server.url}/english/home`);
    const one = await fetch(`${server.url}/english/home?page=1`);
    expect(one.headers.get("etag")).toBe(bare.headers.get("etag"));
    const two = await (await fetch(`${server.url}/english/home?page=2`)).text();
    expect(two).not.toBe(await bare.text());
    expect((await fetch(`${server.url}/english/home?page=9999`)).status).toBe(404);
    expect((await fetch(`${server.url}/english/home?page=abc`)).status).toBe(404);
  });

  test("headers for a public site: CORP, no Flash/PDF policies, no interest-cohort, no HSTS over plain http", async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect(response.headers.get("x-permitted-cross-domain-policies")).toBe("none");
    expect(response.headers.get("permissions-policy")).not.toContain("interest-cohort");
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("with PUBLIC_URL", () => {
  let server: RunningServer;
  let port: number;

  beforeAll(async () => {
    server = await startServer({ env: { PUBLIC_URL: "https://quotes.example" } });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.stop();
  });

  test("every page carries PUBLIC_URL, whatever Host the request names", async () => {
    for (const host of [EVIL, `127.0.0.1:${port}`, null]) {
      for (const path of ["/", "/sitemap.xml", "/english/feed.xml"]) {
        const response = await get(port, path, host, host === null ? "1.0" : "1.1");
        const body = response.body.toString();
        expect(response.status, `${host} ${path}`).toBe(200);
        expect(body, `${host} ${path}`).toContain("https://quotes.example/");
        expect(body, `${host} ${path}`).not.toContain(EVIL);
        expect(body, `${host} ${path}`).not.toContain("127.0.0.1");
      }
    }
  });

  test("an absolute-form target is served as its path, with PUBLIC_URL's origin", async () => {
    for (const target of [
      `http://${EVIL}/tags`,
      "https://quotes.example/tags",
      `http://127.0.0.1:${port}/tags`,
    ]) {
      const response = await get(port, target, `127.0.0.1:${port}`);
      expect(response.status, target).toBe(200);
      expect(response.body.toString(), target).toContain('href="https://quotes.example/tags"');
      expect(response.body.toString(), target).not.toContain(EVIL);
    }
  });

  test("HSTS when the public address is https", async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
  });
});
