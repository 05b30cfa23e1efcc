// Pages sent once are compressed in a thread of their own (decision 099).
// The event loop hands the thread a copy of the body and gets the compressed
// bytes back: ~13 µs of its time for a 51 kB post page, where Node's own
// asynchronous zlib (a stream and an encoder made on the event loop for each
// body) takes ~50 µs of it and compressing on the event loop ~110 µs. One
// thread, started with the first page, unref'd (it never keeps the process
// alive); if it stops, what it was compressing and what comes before it is
// started again (at most once a second) is compressed by Node's asynchronous
// zlib instead, so a page is never lost.

import { Worker } from "node:worker_threads";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Encoding } from "./compression.ts";

/** Quality and level of a page sent once: each paid by one response (decision 098). */
const BROTLI_QUALITY = 0;
const GZIP_LEVEL = 3;
/** A thread that stopped is started again at most this often. */
const RESTART_EVERY_MS = 1_000;

type Done = (encoded: Buffer | null) => void;

/** The thread's code: CommonJS, self-contained, so it runs the same from the build and from source. */
const THREAD_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { brotliCompressSync, constants, gzipSync } = require("node:zlib");
parentPort.on("message", ({ id, encoding, body }) => {
  let out = null;
  try {
    out =
      encoding === "gzip"
        ? gzipSync(body, { level: ${GZIP_LEVEL} })
        : brotliCompressSync(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: ${BROTLI_QUALITY},
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          });
  } catch {
    // Sent back as null: the page goes uncompressed.
  }
  const bytes = out && new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  parentPort.postMessage({ id, bytes }, bytes && out.buffer.byteLength === out.byteLength ? [out.buffer] : []);
});
`;

/** Node's asynchronous zlib: the compression on libuv's thread pool, its stream on the event loop. */
function compressOnThreadPool(body: Buffer, encoding: Encoding, done: Done): void {
  const callback = (error: Error | null, encoded: Buffer) => done(error ? null : encoded);
  if (encoding === "gzip") gzip(body, { level: GZIP_LEVEL }, callback);
  else {
    const params = {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    };
    brotliCompress(body, { params }, callback);
  }
}

let thread: Worker | null = null;
let startedAt = Number.NEGATIVE_INFINITY;
let nextId = 0;
const pending = new Map<number, { body: Buffer; encoding: Encoding; done: Done }>();

function running(): Worker | null {
  if (thread) return thread;
  const now = performance.now();
  if (now - startedAt < RESTART_EVERY_MS) return null;
  startedAt = now;
  const started = new Worker(THREAD_SOURCE, {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    stdout: false,
    stderr: false,
  });
  started.unref();
  started.on("message", ({ id, bytes }: { id: number; bytes: Uint8Array | null }) => {
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    waiting.done(bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
  const stopped = () => {
    if (thread !== started) return;
    thread = null;
    // What it held is compressed on the thread pool instead.
    const left = [...pending.values()];
    pending.clear();
    for (const { body, encoding, done } of left) compressOnThreadPool(body, encoding, done);
  };
  started.on("error", stopped);
  started.on("exit", stopped);
  thread = started;
  return started;
}

/**
 * `body` compressed for one response (brotli 0, gzip 3), off the event loop;
 * `done` gets null if compressing failed (the page is then sent as it is).
 */
export function compressForOneResponse(body: Buffer, encoding: Encoding, done: Done): void {
  const worker = running();
  if (!worker) {
    compressOnThreadPool(body, encoding, done);
    return;
  }
  const id = nextId++;
  pending.set(id, { body, encoding, done });
  worker.postMessage({ id, encoding, body });
}

/** Stops the thread (tests); pages still compressing in it are compressed on the thread pool. */
export async function stopCompressionThread(): Promise<void> {
  await thread?.terminate();
}
