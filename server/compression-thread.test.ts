// The compression thread on its own: bodies handed over in one turn of the
// event loop (more than its slots, one larger than a slot) each come back as
// their own; bodies in it when it stops come back all the same.
import { randomBytes } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, expect, test } from "vitest";
import type { Encoding } from "./compression.ts";
import {
  compressForOneResponse,
  compressionThreadLogger,
  stopCompressionThread,
} from "./compression-thread.ts";
import type { Logger } from "./logger.ts";

afterAll(() => stopCompressionThread());

/** What the thread reported (a logger that keeps its lines). */
const reported: string[] = [];
const keep = (msg: string) => {
  reported.push(msg);
};
compressionThreadLogger({ debug: keep, info: keep, warn: keep, error: keep } satisfies Logger);

/** Bodies of ~50 kB, each different (random hex after the same text), one 300 kB. */
function bodies(count: number): Buffer[] {
  return Array.from({ length: count }, (_, i) =>
    Buffer.from(
      `<p>${"Where the mind is without fear ".repeat(1_000)}${randomBytes(i === 5 ? 120_000 : 9_000).toString("hex")}</p>`,
    ),
  );
}

/** Each body compressed, all handed over in one turn. */
function compressAll(all: Buffer[], encoding: Encoding, then?: () => void): Promise<(Buffer | null)[]> {
  const results = all.map(
    (body) => new Promise<Buffer | null>((resolve) => compressForOneResponse(body, encoding, resolve)),
  );
  then?.();
  return Promise.all(results);
}

/** Each result decodes to its own body. */
function expectEach(results: (Buffer | null)[], all: Buffer[], decode: (encoded: Buffer) => Buffer) {
  expect(results.map((encoded, i) => encoded !== null && decode(encoded).equals(all[i] as Buffer))).toEqual(
    all.map(() => true),
  );
}

test("more bodies at once than the thread's slots, one larger than a slot: each comes back as its own", async () => {
  const all = bodies(40);
  const br = await compressAll(all, "br");
  expectEach(br, all, brotliDecompressSync);
  const gzip = await compressAll(all, "gzip");
  expectEach(gzip, all, gunzipSync);
});

test("bodies in the thread when it stops come back all the same", async () => {
  const all = bodies(20);
  const br = await compressAll(all, "br", () => void stopCompressionThread());
  expectEach(br, all, brotliDecompressSync);
  // Stopped on purpose: not reported as a thread that stopped by itself.
  expect(reported).toEqual([]);
});
