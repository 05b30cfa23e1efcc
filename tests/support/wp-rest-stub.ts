// A stand-in for a REMOTE WordPress site's REST API (`sukti sync`'s fast
// tests, cli/sync.test.ts): node:http on loopback, answering from the
// recorded responses in tests/fixtures/wp-rest/ as WordPress 6.1 does
// (per_page/page with X-WP-Total and X-WP-TotalPages, _fields, _embed,
// include, modified_after, only published posts), and serving media files.
// Tests change its posts and queue faults (429 with Retry-After, 5xx, an
// answer that never comes) to see what sync does.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { randomTestPort } from "./server.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/wp-rest");

export interface Fault {
  /** Requests whose path and query match this are faulted (once each, in order). */
  match: RegExp;
  status?: number;
  headers?: Record<string, string>;
  /** Never answer (the client's timeout must fire). */
  hang?: boolean;
}

export interface StubFile {
  type: string;
  body: Buffer;
  /** Answer with a redirect here instead. */
  redirect?: string;
}

export interface WpStub {
  /** http://127.0.0.1:PORT */
  url: string;
  host: string;
  /** Every post of the site, of any status (the REST API lists the published ones). */
  posts: Record<string, unknown>[];
  files: Map<string, StubFile>;
  faults: Fault[];
  /** Paths and queries asked, in order. */
  requests: string[];
  /** Whether the index lists modified_after (WordPress 5.7+). */
  modifiedAfter: boolean;
  /** Ids the next paged list (no include=) leaves out, as a deletion while it was paged does. */
  shiftedOut: Set<number>;
  /** false: plain permalinks, /wp-json/ is the theme's 404 page and the API answers at /?rest_route=/. */
  pretty: boolean;
  close(): Promise<void>;
}

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489" +
    "0000000d49444154789c63f8cfc0f01f00050001ff89993d1d0000000049454e44ae426082",
  "hex",
);

function load(name: string, site: string): unknown {
  return JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8").replaceAll("{{site}}", site));
}

/**
 * Listens on a free port below 32768 (the machine's rule for test servers),
 * trying another while one is taken. Each try's listeners go with it: a
 * "listening" callback left from a taken port would resolve with that port,
 * and the tests would then talk to whatever holds it.
 */
function listen(server: http.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    const attempt = (tries: number) => {
      const port = randomTestPort();
      const failed = (error: NodeJS.ErrnoException) => {
        server.off("listening", listening);
        if (error.code === "EADDRINUSE" && tries < 50) attempt(tries + 1);
        else reject(error);
      };
      const listening = () => {
        server.off("error", failed);
        resolve((server.address() as AddressInfo).port);
      };
      server.once("error", failed);
      server.once("listening", listening);
      server.listen(port, "127.0.0.1");
    };
    attempt(0);
  });
}

function project(post: Record<string, unknown>, fields: string[] | null, embed: boolean) {
  const { _embedded, ...rest } = post;
  const full = embed && _embedded ? { ...rest, _embedded } : rest;
  if (!fields) return full;
  return Object.fromEntries(
    fields.filter((field) => field in full).map((field) => [field, full[field as keyof typeof full]]),
  );
}

/** Starts a stub site with the recorded posts; `fixture: false` starts one with none (a media host). */
export async function startWpStub(options: { fixture?: boolean } = {}): Promise<WpStub> {
  const hanging = new Set<http.ServerResponse>();
  const stub: WpStub = {
    url: "",
    host: "",
    posts: [],
    files: new Map(),
    faults: [],
    requests: [],
    modifiedAfter: true,
    pretty: true,
    shiftedOut: new Set(),
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", stub.url);
    const asked = `${url.pathname}${url.search}`;
    stub.requests.push(asked);
    const faultAt = stub.faults.findIndex((fault) => fault.match.test(decodeURIComponent(asked)));
    if (faultAt >= 0) {
      const [fault] = stub.faults.splice(faultAt, 1);
      if (fault?.hang) {
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      res.writeHead(fault?.status ?? 500, { "Content-Type": "text/html", ...fault?.headers });
      res.end("<p>fault</p>");
      return;
    }
    const file = stub.files.get(url.pathname);
    if (file) {
      if (file.redirect) {
        res.writeHead(302, { Location: file.redirect });
        res.end();
        return;
      }
      res.writeHead(200, { "Content-Type": file.type, "Content-Length": file.body.length });
      res.end(file.body);
      return;
    }
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { "Content-Type": "application/json; charset=UTF-8", ...headers });
      res.end(text);
    };
    // The route: /wp-json/ROUTE with pretty permalinks, /?rest_route=ROUTE always (as WordPress).
    let route: string | null = null;
    if (url.pathname === "/" && url.searchParams.has("rest_route"))
      route = url.searchParams.get("rest_route");
    else if (url.pathname.startsWith("/wp-json")) {
      if (!stub.pretty) {
        res.writeHead(404, { "Content-Type": "text/html; charset=UTF-8" });
        res.end("<!doctype html><title>Page not found</title>");
        return;
      }
      route = url.pathname.slice("/wp-json".length) || "/";
    }
    if (route === "/") {
      const index = load("index.json", stub.url) as {
        routes: Record<string, { endpoints: { args: Record<string, unknown> }[] }>;
      };
      if (!stub.modifiedAfter) {
        for (const endpoint of index.routes["/wp/v2/posts"]?.endpoints ?? [])
          delete endpoint.args.modified_after;
      }
      return json(200, index);
    }
    if (route === "/wp/v2/posts") {
      const q = url.searchParams;
      let posts = stub.posts.filter((post) => post.status === "publish");
      const include = q.get("include");
      if (!include && stub.shiftedOut.size > 0) {
        posts = posts.filter((post) => !stub.shiftedOut.has(post.id as number));
        stub.shiftedOut.clear();
      }
      if (include) {
        const ids = new Set(include.split(",").map(Number));
        posts = posts.filter((post) => ids.has(post.id as number));
      }
      const after = q.get("modified_after")?.replace(/Z$/, "");
      if (after && stub.modifiedAfter) posts = posts.filter((post) => String(post.modified_gmt) > after);
      posts.sort((a, b) => (a.id as number) - (b.id as number));
      const perPage = Number(q.get("per_page") ?? 10);
      const page = Number(q.get("page") ?? 1);
      const totalPages = Math.max(1, Math.ceil(posts.length / perPage));
      if (page > totalPages) {
        return json(400, {
          code: "rest_post_invalid_page_number",
          message: "The page number requested is larger than the number of pages available.",
          data: { status: 400 },
        });
      }
      const fields = q.get("_fields")?.split(",") ?? null;
      const body = posts
        .slice((page - 1) * perPage, page * perPage)
        .map((post) => project(post, fields, q.has("_embed")));
      return json(200, body, { "X-WP-Total": String(posts.length), "X-WP-TotalPages": String(totalPages) });
    }
    json(404, {
      code: "rest_no_route",
      message: "No route was found matching the URL and request method.",
      data: { status: 404 },
    });
  });
  const port = await listen(server);
  stub.url = `http://127.0.0.1:${port}`;
  stub.host = `127.0.0.1:${port}`;
  if (options.fixture ?? true) {
    stub.posts = load("posts.json", stub.url) as Record<string, unknown>[];
    stub.files.set("/wp-content/uploads/2026/11/river.png", { type: "image/png", body: PNG });
  }
  stub.close = () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return stub;
}
