// sendPage on a real node:http server: a page sent once is compressed on the
// thread of its own (decision 099) and arrives whole in each encoding; a kept page
// keeps the copy it made; a visitor gone before its body is compressed costs
// nothing and the server goes on.
import { randomBytes } from "node:crypto";
import { createServer, request, type Server, type ServerResponse } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, test } from "vitest";
import { freePort } from "#tests/support/server.ts";
import { stopCompressionThread } from "./compression-thread.ts";
import { etagOf, type RenderedPage } from "./page-cache.ts";
import { type SendOptions, sendPage } from "./send-page.ts";

/** A page of ~60 kB (or `scale` times as much): text that compresses, and random bytes (as hex) that do less so. */
function makePage(scale = 1): RenderedPage {
  const text = `<!DOCTYPE html><html lang="en"><body>${"<p>Where the mind is without fear</p>".repeat(800 * scale)}${randomBytes(8_000 * scale).toString("hex")}</body></html>`;
  const body = Buffer.from(text);
  return {
    status: 200,
    headers: [["content-type", "text/html; charset=utf-8"]],
    body,
    size: body.length,
    etag: etagOf(body),
    csp: null,
    encoded: {},
    tags: null,
  };
}

interface Sent {
  /** What sendPage returned, and whether the head was written when it did. */
  status: number;
  headersSentOnReturn: boolean;
}

let server: Server;
let port: number;
let page: RenderedPage;
let effort: SendOptions["effort"] = "each";
let many: RenderedPage[] = [];
let leave = false;
let stopThread = false;
const sent: Sent[] = [];

function options(): SendOptions {
  return {
    requestId: "test",
    cache: "MISS",
    sharedCacheControl: () => "public, max-age=0",
    baseHeaders: [],
    closing: false,
    effort,
  };
}

beforeAll(async () => {
  port = await freePort();
  server = createServer((req, res: ServerResponse) => {
    // "/3": the third of `many`, else `page`.
    const chosen = many[Number(req.url?.slice(1))] ?? page;
    const status = sendPage(req, res, chosen, options());
    sent.push({ status, headersSentOnReturn: res.headersSent });
    // The visitor goes (its socket closes) before the body could be compressed.
    if (leave) res.destroy();
    // The compression thread ends while this page (and those after it) are in it.
    if (stopThread) {
      stopThread = false;
      void stopCompressionThread();
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await stopCompressionThread();
});

function get(
  acceptEncoding: string | null,
  headers: Record<string, string> = {},
  path = "/",
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        agent: false,
        headers: acceptEncoding ? { "accept-encoding": acceptEncoding, ...headers } : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

test("a page sent once is compressed after sendPage returns, and arrives whole in brotli, gzip or neither", async () => {
  page = makePage();
  effort = "each";
  sent.length = 0;
  const br = await get("gzip, deflate, br");
  expect(br.headers["content-encoding"]).toBe("br");
  expect(Number(br.headers["content-length"])).toBe(br.body.length);
  expect(brotliDecompressSync(br.body).equals(page.body)).toBe(true);
  const gzip = await get("gzip");
  expect(gzip.headers["content-encoding"]).toBe("gzip");
  expect(gunzipSync(gzip.body).equals(page.body)).toBe(true);
  const plain = await get(null);
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(plain.body.equals(page.body)).toBe(true);
  // Compressed off the event loop: the head is written once the body is ready, not before
  // sendPage returns; the page sent without compressing goes at once. Nothing is kept.
  expect(sent).toEqual([
    { status: 200, headersSentOnReturn: false },
    { status: 200, headersSentOnReturn: false },
    { status: 200, headersSentOnReturn: true },
  ]);
  expect(page.encoded).toEqual({});
});

test("a kept page's copy is made once and sent again; a known ETag gets a 304", async () => {
  page = makePage();
  effort = "once";
  sent.length = 0;
  const first = await get("br");
  expect(brotliDecompressSync(first.body).equals(page.body)).toBe(true);
  expect(page.encoded.br?.equals(first.body)).toBe(true);
  const again = await get("br");
  expect(again.body.equals(first.body)).toBe(true);
  const known = await get("br", { "if-none-match": page.etag });
  expect(known.status).toBe(304);
  expect(known.body.length).toBe(0);
  expect(sent.map(({ status }) => status)).toEqual([200, 200, 304]);
});

test("a visitor gone before the body is compressed: nothing thrown, the next visitor served", async () => {
  page = makePage();
  effort = "each";
  leave = true;
  await expect(get("br")).rejects.toThrow();
  leave = false;
  // (Vitest fails the run on an error thrown outside a test, as a write to the gone visitor would.)
  const next = await get("br");
  expect(brotliDecompressSync(next.body).equals(page.body)).toBe(true);
});

test("pages in the compression thread when it stops arrive whole all the same", async () => {
  page = makePage();
  effort = "each";
  stopThread = true;
  const answers = await Promise.all(Array.from({ length: 20 }, () => get("br")));
  for (const answer of answers) expect(brotliDecompressSync(answer.body).equals(page.body)).toBe(true);
  // Pages asked for while it is being started again go through Node's own zlib.
  expect(gunzipSync((await get("gzip")).body).equals(page.body)).toBe(true);
});

test("pages larger than the thread's slots, and more at once than its slots, arrive whole and each its own", async () => {
  effort = "each";
  for (const scale of [4, 1]) {
    many = Array.from({ length: 24 }, () => makePage(scale));
    const answers = await Promise.all(many.map((_, i) => get("br", {}, `/${i}`)));
    answers.forEach((answer, i) => {
      expect(brotliDecompressSync(answer.body).equals(many[i]?.body as Buffer)).toBe(true);
    });
  }
  many = [];
});
